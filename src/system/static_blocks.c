// SPDX-License-Identifier: Apache-2.0
/* Static, modal analyses and start_from_equilibrium with rods attached to
 * rigid bodies ([manual: rigid bodies]; [L] §5 for the joints).
 *
 * Choice: the statics system of the rods (src/statics, the banded Newton
 * continuation with its load / gravity ramp over the pseudo-time, trust
 * region, increments and reactions) is extended by one rigid block per
 * dynamic body (cosrod_statics_blocks): unknowns the body pose (x_b, p_b),
 * minimal coordinates (δx, δθ material), placed next to the rod end the body
 * touches first, so a chain stays banded.  Equations of body b
 * (residual()):
 *     F = μ g_s m_b g + μ Σ loads(t) - Σ_ends R_F = 0,
 *     τ = Σ a × f + Σ moments - Σ_ends ((c_e - x_b) × R_F + R_M) = 0
 * (as rows F and R_bᵀ τ), with R_F, R_M the support reaction of each
 * attached rod end (cosrod_statics_end_reactions: the force and moment the
 * body exerts on the rod, system/couple.c), g_s the gravity ramp and μ the load
 * factor of the path.  The rods read the body poses through the same
 * end-motion callbacks as in dynamics (sim_couple_static_pose).  The
 * stiffness of the coupled system is the statics module's central-
 * difference twin, grouped by the coupled band.  Kinematic (keyframe)
 * bodies are prescribed: their keyframes at the pseudo-time t (also along
 * a keyframe path, whose stops and t_end include their keyframes:
 * sim_static_arc.c, scenario_static.c).
 *
 * A body whose pose is not determined by the rods (pinned to one rod end:
 * free rotations about the pin that gravity does not restore) has null
 * modes of the stiffness, as a rod hanging from a pin spinning about the
 * vertical: the solver's relative diagonal shift (statics_solve_jacobian)
 * and its trust region keep Newton well defined there (any rotation about
 * the null direction is an equilibrium), and modes reports them as zero
 * frequencies.  A body attached to nothing has no stiffness at all: refused.
 *
 * Modes: cosrod_statics_modes_system about the equilibrium at t = 0 with the
 * bodies' mass and principal inertia in the mass matrix.  Each mode is
 * listed with the rod carrying the largest share of its kinetic energy (its
 * shape is that rod's vertex table; a body-dominated mode, e.g. a pendulum,
 * still shows its rod's motion).
 *
 * Bushings (their springs; the dampers do nothing at rest) add their
 * forces and torques to the bodies' rows, with the rotational spring of
 * body.h (V = 2 k_rot |Im q_rel|², q_rel = q_a q_a0⁻¹ (q_b q_b0⁻¹)⁻¹).
 *
 * Buckling (sim_run_buckling, cosrod_statics_buckling) runs on the same
 * coupled system: the blocks' rotations are turned into spatial components
 * like the rods' segments there (statics_buckling.c).
 *
 * Joints (not bushings) between dynamic bodies or with ground: multipliers
 * as extra unknowns of the statics system (system/joint_static.c), in
 * static, modal (on the constraints' null space, modes_system.c) and
 * buckling analyses (statics_buckling_kkt.c) and start_from_equilibrium; a
 * keyframe body is a prescribed side of a joint in static analyses (modal,
 * buckling and dynamic runs refuse it).
 *
 * Kirchhoff rods: the statics' KKT path with the blocks (statics_blocks.c,
 * statics_kirchhoff.c); in modes and buckling their multipliers are
 * constraint rows like the joints' (modes_system.c, statics_buckling_kkt.c;
 * a mode's rod part in the rod's own layout: cosrod_statics_rod_minimal).  Preloads
 * (start_from_equilibrium): the coupled solver holds the preloaded twin
 * rods (s->m->srods), their ends on the bodies.
 * Arc-length control runs on the same system: the residual at t = 1 with
 * the load factor μ = λ (scenario_static.c refuses moving keyframe bodies
 * there, as moving prescribed ends). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/profile.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "system/static_blocks.h"

/* Load profile at t (cosrod/profile.h; a preload is constant in the
 * equilibrium it acts in: the translation made it constant).  A switch
 * without default: an unmapped value fails to compile with -Werror=switch. */
static double profile(const cosrod_body_load_def *l, double t) {
  cosrod_profile p = COSROD_PROFILE_CONSTANT;
  switch (l->profile) {
    case COSROD_BODY_LOAD_CONSTANT: p = COSROD_PROFILE_CONSTANT; break;
    case COSROD_BODY_LOAD_RAMP: p = COSROD_PROFILE_RAMP; break;
    case COSROD_BODY_LOAD_ACTIVE: p = COSROD_PROFILE_ACTIVE; break;
  }
  return cosrod_profile_value(p, l->t0, l->t1, t);
}

/* Pose of side k of bushing j: point c and lever a = c - x_b (spatial),
 * orientation relative to the initial one q_rel = q q0^-1 (ground: identity,
 * c the spatial point; a keyframe body: prescribed); block index or -1. */
static int bushing_side(const sys_system *s, const double *qb, const sys_joint *jt, int k, double c[3],
                        double a[3], double qr[4]) {
  const int b = jt->body[k], blk = b >= 0 ? sim_couple_model_index(s, (size_t)b) : -1;
  if (blk < 0 && b >= 0) { /* keyframe body: its pose at the pseudo-time (the last prepare), q_rel to t = 0 */
    double x[3], p[4], x0[3], p0[4];
    sim_couple_body_pose(s, (size_t)b, x, p);
    sim_couple_keyframe_pose(s, (size_t)b, 0.0, x0, p0);
    cosrod_quat_rotate(a, p, jt->at[k]);
    cosrod_vec3_add(c, x, a);
    cosrod_quat_mul_conj(qr, p, p0);
    return -1;
  }
  if (blk < 0) {
    cosrod_vec3_copy(c, jt->at[k]);
    cosrod_vec3_zero(a);
    qr[0] = 1.0, qr[1] = qr[2] = qr[3] = 0.0;
    return -1;
  }
  const double *x = qb + 7 * blk, *p = x + 3;
  cosrod_quat_rotate(a, p, jt->at[k]);
  cosrod_vec3_add(c, x, a);
  cosrod_quat_mul_conj(qr, p, s->m->def->bodies[b].body.quaternion);
  return blk;
}

/* Spring part of bushing j (body.h, cosrod_bushing_def; at rest the
 * dampers do nothing): force f on side 0 at c0 (-f on side 1), torque tau on
 * side 0 (-tau on side 1) from q_rel = q_a q_a0^-1 (q_b q_b0^-1)^-1,
 * tau = -2 k_rot w Im(q_rel) (the gradient of V = 2 k_rot |Im q_rel|^2);
 * elastic energy into *V. */
static void bushing_spring(const sys_system *s, const double *qb, const sys_joint *jt, double f[3], double tau[3],
                           double a0[3], double a1[3], int blk[2], double *V) {
  double c0[3], c1[3], q0[4], q1[4], q[4], dx[3];
  blk[0] = bushing_side(s, qb, jt, 0, c0, a0, q0);
  blk[1] = bushing_side(s, qb, jt, 1, c1, a1, q1);
  cosrod_vec3_sub(dx, c0, c1);
  cosrod_vec3_scale(f, -jt->stiffness, dx);
  cosrod_quat_mul_conj(q, q0, q1);
  for (int k = 0; k < 3; ++k) tau[k] = -2.0 * jt->stiffness_rot * q[0] * q[1 + k];
  if (V) *V = 0.5 * jt->stiffness * cosrod_vec3_dot(dx, dx) + 2.0 * jt->stiffness_rot * (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

double sim_couple_static_bushing_energy(const sys_system *s, const double *xq) {
  double E = 0.0;
  for (size_t j = 0; s->d->cst && j < s->m->def->njoints; ++j) {
    if (!s->m->def->joints[j].bushing) continue;
    double f[3], tau[3], a0[3], a1[3], V;
    int blk[2];
    bushing_spring(s, xq, &s->m->def->joints[j], f, tau, a0, a1, blk, &V);
    E += V;
  }
  return E;
}

static int pose_cb(void *user, double t, const double *qb) {
  sim_couple_static_pose(user, t, qb);
  return 0;
}

/* Force and material torque balance of every dynamic body (see the top). */
static int residual_cb(void *user, double t, double mu, double gs, const double *qb,
                       const struct cosrod_rod_data *const *d, double *rb, double *scale) {
  sys_system *s = user;
  const sys_def *def = s->m->def;
  const struct sim_cstat *c = s->d->cst;
  for (int k = 0; k < c->nb; ++k) {
    const sys_body *sb = &def->bodies[c->body[k]];
    const double *x = qb + 7 * k, *p = x + 3;
    double F[3], tau[3] = {0.0, 0.0, 0.0}, SF, SM = 0.0;
    cosrod_vec3_scale(F, mu * gs * sb->body.mass, def->gravity);
    SF = cosrod_vec3_norm(F);
    for (size_t i = 0; i < sb->nloads; ++i) {
      const cosrod_body_load_def *l = &sb->loads[i];
      double f[3], a[3], m[3];
      cosrod_vec3_scale(f, mu * profile(l, t), l->value);
      if (l->frame == COSROD_BODY_LOAD_BODY) cosrod_quat_rotate(f, p, f);
      if (l->kind == COSROD_BODY_LOAD_MOMENT) {
        cosrod_vec3_add(tau, tau, f);
        SM = fmax(SM, cosrod_vec3_norm(f));
        continue;
      }
      cosrod_quat_rotate(a, p, l->at);
      cosrod_vec3_cross(m, a, f);
      cosrod_vec3_add(F, F, f);
      cosrod_vec3_add(tau, tau, m);
      SF = fmax(SF, cosrod_vec3_norm(f));
      SM = fmax(SM, cosrod_vec3_norm(m));
    }
    for (size_t r = 0; r < s->m->nrods; ++r)
      for (int e = 0; e < 2; ++e) {
        if (def->rods[r].ends[e].body != c->body[k]) continue;
        const cosrod_rod *rod = s->m->rods[r];
        const struct cosrod_rod_data *dr = d[r];
        const int n = e ? dr->N : 0;
        double R[12], f[3], a[3], m[3];
        if (cosrod_statics_end_reactions(rod, dr, mu * gs, 0, R, NULL) != COSROD_OK) return -1;
        /* the vertex force holds the full loads; the path applies mu of them */
        if (dr->fload) cosrod_vec3_axpy(R + 6 * e, 1.0 - mu, dr->fload + 3 * n);
        cosrod_vec3_scale(f, -1.0, R + 6 * e);
        cosrod_vec3_sub(a, dr->x + 3 * n, x);
        cosrod_vec3_cross(m, a, f);
        cosrod_vec3_sub(m, m, R + 6 * e + 3);
        cosrod_vec3_add(F, F, f);
        cosrod_vec3_add(tau, tau, m);
        SF = fmax(SF, cosrod_vec3_norm(f));
        SM = fmax(SM, fmax(cosrod_vec3_norm(m), cosrod_vec3_norm(R + 6 * e + 3)));
      }
    double *o = rb + 6 * k; /* spatial here, material torque below */
    cosrod_vec3_copy(o, F);
    cosrod_vec3_copy(o + 3, tau);
    scale[2 * k] = SF;
    scale[2 * k + 1] = SM;
  }
  for (size_t j = 0; j < def->njoints; ++j) { /* bushings: spring forces at rest */
    if (!def->joints[j].bushing) continue;
    double f[3], tau[3], a[2][3];
    int blk[2];
    bushing_spring(s, qb, &def->joints[j], f, tau, a[0], a[1], blk, NULL);
    for (int side = 0; side < 2; ++side) {
      if (blk[side] < 0) continue;
      double fs[3], ts[3], m[3], *o = rb + 6 * blk[side];
      cosrod_vec3_scale(fs, side ? -1.0 : 1.0, f);
      cosrod_vec3_scale(ts, side ? -1.0 : 1.0, tau);
      cosrod_vec3_cross(m, a[side], fs);
      cosrod_vec3_add(m, m, ts);
      cosrod_vec3_add(o, o, fs);
      cosrod_vec3_add(o + 3, o + 3, m);
      scale[2 * blk[side]] = fmax(scale[2 * blk[side]], cosrod_vec3_norm(fs));
      scale[2 * blk[side] + 1] = fmax(scale[2 * blk[side] + 1], fmax(cosrod_vec3_norm(m), cosrod_vec3_norm(ts)));
    }
  }
  sim_cjs_residual(c->cj, qb, c->nb, rb, scale); /* joints: -Gᵀλ and g */
  for (int k = 0; k < c->nb; ++k) { /* material torque Rᵀτ */
    double pc[4], *o = rb + 6 * k;
    cosrod_quat_conj(pc, qb + 7 * k + 3);
    cosrod_quat_rotate(o + 3, pc, o + 3);
  }
  return 0;
}

void sim_couple_static_free(sys_system *s) {
  struct sim_cstat *c = s->d->cst;
  if (!c) return;
  free(c->body);
  free(c->place);
  free(c->att);
  free(c->mass);
  free(c->q);
  free(c->xq);
  free(c->om);
  free(c->phi);
  free(c->pr);
  sim_cjs_free(c->cj);
  free(c);
  s->d->cst = NULL;
}

/* The blocks of the dynamic bodies (after sim_couple_create). */
cosrod_status sim_couple_static_blocks_setup(sys_system *s) {
  const sys_def *def = s->m->def;
  struct sim_cstat *c = calloc(1, sizeof *c);
  if (!c) return COSROD_ERR_NOMEM;
  s->d->cst = c;
  int nb = 0, na = 0;
  for (size_t b = 0; b < def->nbodies; ++b) nb += sim_couple_model_index(s, b) >= 0;
  for (size_t r = 0; r < def->nrods; ++r)
    for (int e = 0; e < 2; ++e) na += def->rods[r].ends[e].body >= 0 && sim_couple_model_index(s, (size_t)def->rods[r].ends[e].body) >= 0;
  c->nb = nb;
  c->body = calloc((size_t)nb + 1, sizeof *c->body);
  c->place = calloc((size_t)nb + 1, sizeof *c->place);
  c->att = calloc(3 * (size_t)na + 1, sizeof *c->att);
  c->mass = calloc(6 * (size_t)nb + 1, sizeof *c->mass);
  c->xq = calloc(7 * (size_t)nb + 1, sizeof *c->xq);
  if (!c->body || !c->place || !c->att || !c->mass || !c->xq) return COSROD_ERR_NOMEM;
  for (size_t b = 0; b < def->nbodies; ++b) {
    int k = sim_couple_model_index(s, b);
    if (k < 0) continue;
    const sys_body *sb = &def->bodies[b];
    c->body[k] = (int)b;
    c->place[k] = (int)def->nrods; /* attached to no rod: last */
    for (int j = 0; j < 3; ++j) {
      c->mass[6 * k + j] = sb->body.mass;
      c->mass[6 * k + 3 + j] = sb->body.inertia[j];
    }
    for (size_t i = 0; i < sb->nloads; ++i)
      c->blk.follower |= sb->loads[i].kind == COSROD_BODY_LOAD_MOMENT || sb->loads[i].frame == COSROD_BODY_LOAD_BODY;
    cosrod_vec3_copy(c->xq + 7 * k, sb->body.position);
    cosrod_quat_copy(c->xq + 7 * k + 3, sb->body.quaternion);
  }
  int a = 0;
  for (size_t r = def->nrods; r-- > 0;) /* the first end a body touches decides its place */
    for (int e = 1; e >= 0; --e) {
      int b = def->rods[r].ends[e].body, k = b >= 0 ? sim_couple_model_index(s, (size_t)b) : -1;
      if (k < 0) continue;
      c->place[k] = e == 0 ? (int)r : (int)r + 1;
      c->att[a] = (int)r, c->att[na + a] = e, c->att[2 * na + a] = k;
      ++a;
    }
  cosrod_statics_blocks *blk = &c->blk;
  blk->nblocks = nb;
  blk->place = c->place;
  blk->mass = c->mass;
  blk->nattach = na;
  blk->att_rod = c->att;
  blk->att_end = c->att + na;
  blk->att_block = c->att + 2 * na;
  blk->user = s;
  blk->pose = pose_cb;
  blk->residual = residual_cb;
  for (size_t j = 0; j < def->njoints; ++j) /* a bushing between two bodies couples their blocks */
    blk->blocks_coupled |= def->joints[j].body[0] >= 0 && def->joints[j].body[1] >= 0;
  cosrod_status st;
  c->cj = sim_cjs_create(s, &st);
  if (st != COSROD_OK) return st;
  blk->nmult = sim_cjs_nrows(c->cj);
  blk->mult_h = sim_cjs_h(c->cj);
  return COSROD_OK;
}

const cosrod_statics_blocks *sim_couple_static_blocks(const sys_system *s) {
  return s->d->cst ? &s->d->cst->blk : NULL; /* nb = 0: the pose hook moves the keyframe bodies */
}

cosrod_status sim_couple_static_create(sys_system *s, char *err, size_t errlen) {
  cosrod_status st = sim_couple_create(s, err, errlen);
  if (st != COSROD_OK) return st;
  if ((st = sim_couple_static_blocks_setup(s)) != COSROD_OK) return st;
  s->mb->nbq = 7 * s->d->cst->nb + sim_cjs_nrows(s->d->cst->cj); /* poses, then the joint multipliers */
  sim_couple_static_mode(s, 1, s->m->ny); /* the bodies after the rods in y */
  return COSROD_OK;
}

void sim_couple_static_initial(const sys_system *s, double *y) {
  if (!s->d->cst) return;
  memcpy(y + s->m->ny - s->m->nbq, s->d->cst->xq, 7 * (size_t)s->d->cst->nb * sizeof *y);
  for (int i = 0; i < sim_cjs_nrows(s->d->cst->cj); ++i) y[s->m->ny - s->m->nbq + 7 * s->d->cst->nb + i] = 0.0;
}
