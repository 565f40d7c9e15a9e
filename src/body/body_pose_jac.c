// SPDX-License-Identifier: Apache-2.0
/* Derivative of the bodies' poses in the user frame (cosrod_mbs_body_state:
 * x, q, v, Omega) with respect to the multibody state, e.g. for rods
 * attached to bodies (sim_couple_jac.c).  Column j is the tangent for
 * dy = e_j: x' = dy[x]; q' from the parametrisation's quaternion tangent
 * (normalised quaternion, Spurrier-Klumpp for directors, eq. 66 map for
 * Euler angles; body_tangent.c) composed with the fixed principal-axes
 * rotation, q = q_int conj(q_Q); (v', Omega_int') the twist tangents of
 * body_tangent.c (from the state, from (r, rdot) for absolute bodies, or
 * through the null-space joints' partition), Omega = Q Omega_int. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "body_internal.h"

int cosrod_mbs_pose_jac(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *P) {
  const int n = m->n;
  if (cosrod_mbs_rhs(m, d, t, y, d->f0)) return -1;
  if (mbs_tan_prepare(m, d, y)) {
    snprintf(d->msg, sizeof d->msg, "bodies: singular matrix in the pose Jacobian at t = %.9g", t);
    return -1;
  }
  double *e = d->y1;
  memset(e, 0, (size_t)n * sizeof *e);
  for (int j = 0; j < n; ++j) {
    e[j] = 1.0;
    mbs_tan_eval(m, d, t, y, e, d->f1);
    const double *dw = mbs_tan_dw(d);
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      double *c = P + 13 * ((size_t)n * i + (size_t)j), qi[4], dqi[4], qQ[4], q[4], dq[4];
      for (int k = 0; k < 3; ++k) c[k] = e[b->qoff + k];
      mbs_quat_tan(m, y, e, (int)i, qi, dqi);
      cosrod_quat_from_matrix(qQ, b->Q);
      cosrod_quat_normalise(qQ, qQ);
      cosrod_quat_mul_conj(q, qi, qQ);
      cosrod_quat_mul_conj(dq, dqi, qQ);
      const double sg = q[0] < 0 ? -1.0 : 1.0; /* cosrod_mbs_body_state's sign */
      for (int k = 0; k < 4; ++k) c[3 + k] = sg * dq[k];
      for (int k = 0; k < 3; ++k) {
        c[7 + k] = dw[6 * i + k];
        c[10 + k] = b->Q[k] * dw[6 * i + 3] + b->Q[k + 3] * dw[6 * i + 4] + b->Q[k + 6] * dw[6 * i + 5];
      }
    }
    e[j] = 0.0;
  }
  return 0;
}
