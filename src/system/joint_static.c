// SPDX-License-Identifier: Apache-2.0
/* Joints between rigid bodies in static analyses and start_from_equilibrium
 * ([manual: rigid bodies]): the absolute formulation of [L] §5 with multipliers,
 * as extra unknowns of the statics system (cosrod_statics_blocks.nmult, a
 * KKT system [K -Gᵀ; G 0] solved by the banded LU).
 *
 * Rows ([L] Table 2, the primitives of body_joint.c), with a the side-0 and
 * b the side-1 pose (ground: identity, the point in space), c = x + R ρ:
 *   kind 0  g = s·(c_b - c_a),  s = R_a u           (translations)
 *   kind 1  g = (R_a u)·(R_b w)                      (relative rotations)
 * with u1, u2 ⟂ axis and w = R_b0ᵀ R_a0 (axis or u1) the side-b image of a
 * side-a vector in the initial configuration.  Virtual work with spatial
 * rotations δφ: kind 0 δg = -s·δx_a + (s×E - r_a×s)·δφ_a + s·δx_b + (r_b×s)·δφ_b
 * (E = c_b - c_a); kind 1 δg = (a×b)·(δφ_a - δφ_b).  The generalised
 * constraint forces -λ ∂g go into the force and moment balance of the
 * blocks (the moment is spatial there, turned material by the caller). */
#include "system/joint_static.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/body.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "system/bodies.h"

typedef struct cjs_row {
  int kind, joint, blk[2];
  int kin[2]; /* scenario index of a keyframe body on that side (blk -1), or -1 */
  double at[2][3], u[3], w[3];
} cjs_row;

struct sim_cjs {
  const sys_system *s; /* the keyframe bodies' poses (sim_couple_body_pose) */
  int n;
  cjs_row *row;
  double *h;
};

/* Rows of joint jt (the table of cosrod_mbs, cosrod_joint_rows): axis in
 * side a's frame (ground: spatial; spherical and fixed: e_z as body.c),
 * R_b0ᵀ R_a0 from the initial orientations. */
static int joint_rows(const sys_def *def, const sys_joint *jt, const int blk[2], cjs_row *r) {
  static const double ez[3] = {0.0, 0.0, 1.0};
  double pa[4] = {1, 0, 0, 0}, pb[4] = {1, 0, 0, 0}, pr[4], Rba[9], axis[3], axis2[3];
  if (jt->body[0] >= 0) cosrod_quat_copy(pa, def->bodies[jt->body[0]].body.quaternion);
  if (jt->body[1] >= 0) cosrod_quat_copy(pb, def->bodies[jt->body[1]].body.quaternion);
  cosrod_quat_conj_mul(pr, pb, pa); /* R_b0ᵀ R_a0 */
  cosrod_quat_to_matrix(Rba, pr);
  const int free_axis = jt->type == COSROD_JOINT_SPHERICAL || jt->type == COSROD_JOINT_FIXED;
  cosrod_vec3_normalise(axis, free_axis ? ez : jt->axis);
  cosrod_vec3_copy(axis2, jt->axis2);
  if (cosrod_vec3_norm(axis2) > 0.0) cosrod_vec3_normalise(axis2, axis2);
  cosrod_joint_row rr[6];
  const int n = cosrod_joint_rows(jt->type, axis, axis2, Rba, rr);
  for (int i = 0; i < n; ++i) {
    cjs_row *o = r + i;
    o->kind = rr[i].kind;
    o->joint = -1;
    o->blk[0] = blk[0], o->blk[1] = blk[1];
    cosrod_vec3_copy(o->at[0], jt->at[0]);
    cosrod_vec3_copy(o->at[1], jt->at[1]);
    cosrod_vec3_copy(o->u, rr[i].u);
    cosrod_vec3_copy(o->w, rr[i].w);
  }
  return n;
}

sim_cjs *sim_cjs_create(const sys_system *s, cosrod_status *st) {
  const sys_def *def = s->m->def;
  *st = COSROD_OK;
  size_t nj = 0;
  double W = 0.0;
  for (size_t j = 0; j < def->njoints; ++j) nj += !def->joints[j].bushing;
  if (nj == 0) return NULL;
  sim_cjs *c = calloc(1, sizeof *c);
  if (c) c->row = calloc(6 * nj, sizeof *c->row);
  if (c) c->h = calloc(6 * nj, sizeof *c->h);
  if (!c || !c->row || !c->h) {
    sim_cjs_free(c);
    *st = COSROD_ERR_NOMEM;
    return NULL;
  }
  c->s = s;
  nj = 0;
  for (size_t j = 0; j < def->njoints; ++j) {
    const sys_joint *jt = &def->joints[j];
    if (jt->bushing) continue;
    ++nj;
    int blk[2];
    for (int k = 0; k < 2; ++k) blk[k] = jt->body[k] >= 0 ? sim_couple_model_index(s, (size_t)jt->body[k]) : -1;
    const int n0 = c->n;
    c->n += joint_rows(def, jt, blk, c->row + c->n);
    for (int i = n0; i < c->n; ++i) {
      c->row[i].joint = (int)nj - 1; /* numbered among the non-bushing joints */
      for (int k = 0; k < 2; ++k) c->row[i].kin[k] = blk[k] < 0 ? jt->body[k] : -1;
    }
  }
  for (size_t b = 0; b < def->nbodies; ++b) W += def->bodies[b].body.mass;
  W *= cosrod_vec3_norm(def->gravity);
  for (int i = 0; i < c->n; ++i) c->h[i] = 1e-6 * (W > 1.0 ? W : 1.0); /* g is linear in λ: any step */
  return c;
}

void sim_cjs_free(sim_cjs *j) {
  if (!j) return;
  free(j->row);
  free(j->h);
  free(j);
}

int sim_cjs_nrows(const sim_cjs *j) { return j ? j->n : 0; }
const double *sim_cjs_h(const sim_cjs *j) { return j ? j->h : NULL; }

/* Side k of row r: position x, orientation p, lever ρ spatial, point c
 * (ground: the joint point; a keyframe body: its pose at the pseudo-time of
 * the last pose callback, prescribed like a block that does not move). */
static void side(const sim_cjs *j, const cjs_row *r, const double *qb, int k, double x[3], double p[4], double rho[3],
                 double c[3]) {
  if (r->blk[k] < 0 && r->kin[k] >= 0) {
    sim_couple_body_pose(j->s, (size_t)r->kin[k], x, p);
    cosrod_quat_rotate(rho, p, r->at[k]);
  } else if (r->blk[k] < 0) {
    cosrod_vec3_copy(x, r->at[k]);
    p[0] = 1.0, p[1] = p[2] = p[3] = 0.0;
    cosrod_vec3_zero(rho);
  } else {
    cosrod_vec3_copy(x, qb + 7 * r->blk[k]);
    cosrod_quat_copy(p, qb + 7 * r->blk[k] + 3);
    cosrod_quat_rotate(rho, p, r->at[k]);
  }
  cosrod_vec3_add(c, x, rho);
}

/* Partials of row r's g by (δx, δφ) of side 0 (dA) and side 1 (dB), and g. */
static double row_partials(const sim_cjs *j, const cjs_row *r, const double *qb, double dA[6], double dB[6], double *len,
                           double ra_out[3]) {
  double xa[3], pa[4], ra[3], ca[3], xb[3], pb[4], rbv[3], cb[3], s[3], g;
  side(j, r, qb, 0, xa, pa, ra, ca);
  side(j, r, qb, 1, xb, pb, rbv, cb);
  cosrod_quat_rotate(s, pa, r->u);
  cosrod_vec3_copy(ra_out, ra);
  if (r->kind == 0) {
    double E[3], t1[3], t2[3];
    cosrod_vec3_sub(E, cb, ca);
    g = cosrod_vec3_dot(s, E);
    cosrod_vec3_scale(dA, -1.0, s);
    cosrod_vec3_cross(t1, s, E);
    cosrod_vec3_cross(t2, ra, s);
    cosrod_vec3_sub(dA + 3, t1, t2);
    cosrod_vec3_copy(dB, s);
    cosrod_vec3_cross(dB + 3, rbv, s);
    *len = fmax(1e-3, cosrod_vec3_norm(ca) + cosrod_vec3_norm(cb) + cosrod_vec3_norm(ra) + cosrod_vec3_norm(rbv));
  } else {
    double b[3], axb[3];
    cosrod_quat_rotate(b, pb, r->w);
    g = cosrod_vec3_dot(s, b);
    cosrod_vec3_cross(axb, s, b);
    cosrod_vec3_zero(dA);
    cosrod_vec3_copy(dA + 3, axb);
    cosrod_vec3_zero(dB);
    cosrod_vec3_scale(dB + 3, -1.0, axb);
    *len = 1.0;
  }
  return g;
}

void sim_cjs_reactions(const sim_cjs *j, const double *qb, int nb, size_t njoints, double *R) {
  memset(R, 0, 6 * njoints * sizeof *R);
  for (int i = 0; j && i < j->n; ++i) {
    const cjs_row *r = &j->row[i];
    double dA[6], dB[6], len, ra[3], m[3];
    row_partials(j, r, qb, dA, dB, &len, ra);
    if (r->joint < 0 || (size_t)r->joint >= njoints) continue;
    double *o = R + 6 * r->joint, f[3];
    const double lam = qb[7 * nb + i];
    cosrod_vec3_scale(f, -lam, dA);
    cosrod_vec3_cross(m, ra, f); /* moment about the joint point: about x_a minus ρ_a × f */
    for (int k = 0; k < 3; ++k) {
      o[k] += f[k];
      o[3 + k] += -lam * dA[3 + k] - m[k];
    }
  }
}

void sim_cjs_residual(const sim_cjs *j, const double *qb, int nb, double *rb, double *scale) {
  for (int i = 0; j && i < j->n; ++i) {
    const cjs_row *r = &j->row[i];
    const double lam = qb[7 * nb + i];
    double dA[6], dB[6], ra[3];
    const double g = row_partials(j, r, qb, dA, dB, &scale[2 * nb + i], ra);
    rb[6 * nb + i] = g;
    if (r->blk[0] >= 0)
      for (int k = 0; k < 6; ++k) rb[6 * r->blk[0] + k] -= lam * dA[k];
    if (r->blk[1] >= 0)
      for (int k = 0; k < 6; ++k) rb[6 * r->blk[1] + k] -= lam * dB[k];
  }
}
