// SPDX-License-Identifier: Apache-2.0
/* Rods attached to rigid bodies: the bodies' poses and attachments as the
 * static analyses (static_blocks.c) and Kirchhoff rods on bodies
 * (couple_kirchhoff.c) read them (model and right-hand side: couple.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "system/bodies.h"
#include "system/couple.h"
#include "system/couple_internal.h"
#include "system/system_model.h"

void sim_couple_keyframe_pose(const sys_system *s, size_t b, double t, double x[3], double q[4]) {
  const sim_couple *cp = s->d->cpl;
  double v[3], w[3], a[3], al[3];
  sim_keyframe_motion(&s->m->def->bodies[b], cp->kpos[b], cp->krot[b], t, x, q, v, w, a, al);
}

/* Body b's own centre x_b = x_c - R c from the model body's (couple.c). */
void sim_couple_body_pose(const sys_system *s, size_t b, double x[3], double q[4]) {
  const sim_couple *cp = s->d->cpl;
  double rc[3];
  cosrod_quat_rotate(rc, cp->bq + 4 * b, cp->shift + 3 * b);
  cosrod_vec3_sub(x, cp->bx + 3 * b, rc);
  cosrod_quat_copy(q, cp->bq + 4 * b);
}

int sim_couple_model_index(const sys_system *s, size_t b) {
  return s->d->cpl && b < s->d->cpl->nb ? s->d->cpl->bmap[b] : -1;
}

cosrod_status sim_couple_set_rest(sys_system *s, const double *xq, double *y) {
  sim_couple *cp = s->d->cpl;
  if (!cp || !cp->m) return COSROD_OK;
  const size_t L = cosrod_mbs_nbodies(cp->m);
  memset(cp->ym, 0, (size_t)cp->nm * sizeof *cp->ym); /* velocities: at rest */
  for (size_t b = 0; b < L; ++b) {
    const double *x = xq + 7 * b, *p = x + 3;
    double *o = cp->ym + cosrod_mbs_pos_offset(cp->m, b), rc[3] = {0, 0, 0};
    for (size_t k = 0; k < cp->nb; ++k) /* the statics' pose is the body's own centre */
      if (cp->bmap[k] == (int)b) cosrod_quat_rotate(rc, p, cp->shift + 3 * k);
    cosrod_vec3_add(o, x, rc);
    switch (cosrod_mbs_body_param(cp->m, b)) {
      case COSROD_BODY_DIRECTORS:
        cosrod_quat_to_matrix(o + 3, p); /* columns d1 | d2 | d3 */
        break;
      case COSROD_BODY_EULER313:
        if (cosrod_quat_to_euler313(o + 3, p) != COSROD_OK) return COSROD_ERR_SINGULAR;
        break;
      default:
        cosrod_quat_copy(o + 3, p);
        break;
    }
  }
  if (cosrod_mbs_project(cp->m, cp->d, 0.0, cp->ym) != 0) return COSROD_ERR_NONFINITE;
  for (int i = 0; i < cp->nm; i++) y[cp->mmap[i]] = cp->ym[i];
  return COSROD_OK;
}
/* ---- Kirchhoff rods on bodies (couple_kirchhoff.c) ------------------------ */

size_t sim_couple_natt(const sys_system *s) { return s->d->cpl ? s->d->cpl->na : 0; }

void sim_couple_att(const sys_system *s, size_t i, size_t *rod, int *end, int *body, int *mb) {
  const sim_attach *a = &s->d->cpl->att[i];
  if (rod) *rod = a->rod;
  if (end) *end = a->end;
  if (body) *body = a->body;
  if (mb) *mb = s->d->cpl->bmap[a->body];
}

void sim_couple_set_acc(sys_system *s, size_t i, const double acc[3]) { cosrod_vec3_copy(s->d->cpl->att[i].acc, acc); }

int sim_couple_att_accel(sys_system *s, size_t i, double *work, double acc[3]) {
  sim_couple *cp = s->d->cpl;
  const sim_attach *a = &cp->att[i];
  const int mb = cp->bmap[a->body];
  if (mb < 0 || !cp->m) {
    cosrod_vec3_zero(acc);
    return 0;
  }
  /* (v̇, Ω̇) as the derivative of the body's (v, Ω) along ẏ (central
   * differences: exact for the absolute and quaternion-rate forms, which are
   * at most quadratic along a line; O(ε²) for joint coordinates) */
  double fmax_ = 0.0;
  for (int k = 0; k < cp->nm; k++) fmax_ = fmax(fmax_, fabs(cp->fm[k]));
  const double eps = 1e-4 / (1.0 + fmax_);
  double x[3], q[4], vp[3], vm[3], Op[3], Om[3], v[3], O[3];
  for (int sg = 0; sg < 2; sg++) {
    for (int k = 0; k < cp->nm; k++) work[k] = cp->ym[k] + (sg ? -eps : eps) * cp->fm[k];
    cosrod_mbs_body_state(cp->m, cp->d, work, (size_t)mb, x, q, sg ? vm : vp, sg ? Om : Op);
  }
  cosrod_mbs_body_state(cp->m, cp->d, cp->ym, (size_t)mb, x, q, v, O);
  double vd[3], Od[3], wd[3], w[3], r[3], t1[3], t2[3];
  for (int k = 0; k < 3; k++) vd[k] = (vp[k] - vm[k]) / (2.0 * eps), Od[k] = (Op[k] - Om[k]) / (2.0 * eps);
  cosrod_quat_rotate(wd, q, Od); /* d/dt (R Ω) = R Ω̇ */
  cosrod_quat_rotate(w, q, O);
  cosrod_quat_rotate(r, q, a->at);
  cosrod_vec3_cross(t1, wd, r);
  cosrod_vec3_cross(t2, w, r);
  cosrod_vec3_cross(t2, w, t2);
  for (int k = 0; k < 3; k++) acc[k] = vd[k] + t1[k] + t2[k];
  return 0;
}

int sim_couple_translate(sys_system *s, int body, const double dx[3], const double dv[3], double *y) {
  sim_couple *cp = s->d->cpl;
  const int mb = cp->bmap[body];
  if (mb < 0 || !cp->m || cosrod_mbs_nconstr(cp->m) != 0) return -1;
  int q0 = cosrod_mbs_pos_offset(cp->m, (size_t)mb), v0 = cosrod_mbs_vel_offset(cp->m, (size_t)mb);
  if (v0 < 0) v0 = cosrod_mbs_nq(cp->m) + 6 * mb; /* null-space bodies without joints: (v, Ω) */
  for (int k = 0; k < 3; k++) {
    y[cp->mmap[q0 + k]] += dx[k];
    y[cp->mmap[v0 + k]] += dv[k];
  }
  return 0;
}

int sim_couple_movable(const sys_system *s, int body) {
  const sim_couple *cp = s->d->cpl;
  return cp && cp->m && cp->bmap[body] >= 0 && cosrod_mbs_nconstr(cp->m) == 0;
}

int sim_couple_nm(const sys_system *s) { return s->d->cpl ? s->d->cpl->nm : 0; }

/* ---- the bodies as the analyses report them (src/sim/sim_bodies_state.c) -- */

size_t sim_couple_nbodies(const sys_system *s) { return s->d->cpl ? s->d->cpl->nb : 0; }

void sim_couple_body_twist(const sys_system *s, size_t b, double v[3], double w[3]) {
  const sim_couple *cp = s->d->cpl;
  if (v) { /* of the body's own centre: v_b = v_c - w x (R c) */
    double rc[3], t[3];
    cosrod_quat_rotate(rc, cp->bq + 4 * b, cp->shift + 3 * b);
    cosrod_vec3_cross(t, cp->bw + 3 * b, rc);
    cosrod_vec3_sub(v, cp->bv + 3 * b, t);
  }
  if (w) cosrod_vec3_copy(w, s->d->cpl->bw + 3 * b);
}

const cosrod_mbs *sim_couple_mbs(const sys_system *s) { return s->d->cpl ? s->d->cpl->m : NULL; }

cosrod_status sim_couple_joint_reactions(const sys_system *s, double *R) {
  const sim_couple *cp = s->d->cpl;
  /* the rods' wrenches on the bodies of the last evaluation are set in d */
  return cosrod_mbs_joint_reactions(cp->m, cp->d, cp->t, cp->ym, R) == 0 ? COSROD_OK : COSROD_ERR_NONFINITE;
}
