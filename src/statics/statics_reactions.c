// SPDX-License-Identifier: Apache-2.0
/* Support reactions: the force and moment each supported or prescribed end
 * exerts on the rod (spatial frame).  The end vertex x_e of a pinned,
 * clamped or prescribed end is not an unknown; its balance
 *   m_e ẍ_e = f_x,e + R_F
 * (f_x the generalised force of the rod on the vertex: internal forces,
 * gravity and loads) gives R_F = m_e ẍ_e - f_x,e, only the part normal to the
 * guide for a sliding end.  A clamped or prescribed frame is a massless ghost
 * quaternion p_e coupled through the curvature at the end vertex; the rod
 * pulls on it with the generalised force f_e (cosrod_rod_data.fe), whose
 * material torque is τ_e = T(p_e)ᵀ f_e, so the support's moment is
 * R_M = -R(p_e) τ_e (the power balance of moving ends, rod_eval.c:
 * P = R_F·ẋ_e + R_M·ω_e).  Because the internal forces are invariant
 * under rigid motions, Σ R_F + applied forces + weight = 0 and the moments
 * about any point balance at an equilibrium, to the Newton tolerance. */
#include <math.h>
#include <string.h>

#include "statics/statics_internal.h"

cosrod_status cosrod_statics_end_reactions(const struct cosrod_rod *rod, const struct cosrod_rod_data *d,
                                           double gravity_scale, int inertia, double R[12], int supported[2]) {
  if (!rod || !d || !R) return COSROD_ERR_INVALID;
  cosrod_rod_view view;
  cosrod_rod_view_get(rod, &view);
  const cosrod_rod_view *rv = &view;
  const int N = rv->N;
  memset(R, 0, 12 * sizeof(double));
  for (int e = 0; e < 2; ++e) {
    const cosrod_rod_end_view *em = &rv->end[e];
    const int n = e == 0 ? 0 : N;
    double *F = R + 6 * e, *M = R + 6 * e + 3;
    if (supported) supported[e] = em->fixpos ? (em->fixrot ? 2 : 1) : 0;
    if (em->fixpos) {
      for (int j = 0; j < 3; ++j) {
        /* the generalised force holds the full weight; the path applies gravity_scale of it */
        double f = d->fx[3 * n + j] - (1.0 - gravity_scale) * rv->mv[n] * rv->gravity[j];
        F[j] = (inertia ? rv->mv[n] * d->xedd[e][j] : 0.0) - f;
      }
      if (em->slides) cosrod_vec3_axpy(F, -cosrod_vec3_dot(F, em->axis), em->axis);
    }
    if (em->fixrot) {
      double tau[3];
      cosrod_quat_tmat_T_apply(tau, d->pe[e], d->fe[e]);
      cosrod_quat_rotate(M, d->pe[e], tau);
      cosrod_vec3_scale(M, -1.0, M);
    }
  }
  return COSROD_OK;
}

cosrod_status cosrod_statics_reactions(cosrod_statics *s, double t, const double *q, double *R, int *supported) {
  if (!s || !q || !R) return COSROD_ERR_INVALID;
  cosrod_status st = statics_residual(s, t, 1.0, q, s->r, NULL); /* evaluates every rod's data at (t, q) */
  if (st != COSROD_OK) return st;
  const double gs = s->opt.gravity_ramp ? fmin(fmax(t, 0.0), 1.0) : 1.0;
  for (int r = 0; r < s->nparts; ++r) {
    st = cosrod_statics_end_reactions(s->part[r].rod, s->part[r].d, gs, 0, R + 12 * r,
                                      supported ? supported + 2 * r : NULL);
    if (st != COSROD_OK) return st;
    if (s->part[r].kkt) statics_kirchhoff_reactions(&s->part[r], R + 12 * r); /* constraint forces */
  }
  return COSROD_OK;
}
