// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, galpha for Kirchhoff rods: the constrained rods in the
 * index-1 ODE form ([LA] eq. 14, Schur complement; rod_kirchhoff.c), whose
 * accelerations ν̇ = f_v(t, q, ν) include the multipliers, on the same Lie
 * group and with the same increment as Cosserat rods (lie_layout.c).
 *
 * - Tangent Jacobians K = ∂f_v(q ⊕ ε e_j, ν)/∂ε, C = ∂f_v/∂ν by forward
 *   differences of the whole right-hand side: the multipliers couple the
 *   whole rod, so K and C are dense (stored as a full band, dense LU in
 *   galpha; O(nv³) per factorisation, reused across steps by galpha).
 * - The constraints (positions and velocities) are restored after each
 *   accepted step by the projection hook (sim_project,
 *   cosrod_rod_kirchhoff_project), as for the one-step methods; galpha
 *   keeps its algorithmic acceleration across it (galpha.c). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "system/system_model.h"

cosrod_status sim_galpha_kirchhoff_layout(sys_system *s) {
  /* rods attached to bodies: dense tangents of the coupled right-hand side,
   * analytic for Cosserat rods (lie_couple.c), else these differences */
  if (!sim_has_kirchhoff(s) && !s->d->cpl) return COSROD_OK;
  /* f0, f1 (ny), y1 (ny), w (nv) */
  s->d->lie_fd = malloc(4 * (size_t)s->m->ny * sizeof *s->d->lie_fd);
  if (!s->d->lie_fd) return COSROD_ERR_NOMEM;
  s->mb->ml = s->mb->mu = s->m->ny - s->m->nq_tot - 1;
  return sim_galpha_couple_setup(s); /* Cosserat rods on bodies: analytic tangents */
}

static int fd_rc(int rc) { return rc < 0 ? -1 : 1; }

int sim_lie_jac_tangent_fd(double t, const double *y, double *K, double *C, int ld, void *user) {
  sys_system *s = user;
  const int n = s->m->ny, nq = s->m->nq_tot, nv = n - nq, mu = s->m->mu;
  double *f0 = s->d->lie_fd, *f1 = f0 + n, *y1 = f1 + n, *w = y1 + n;
  const double sq = sqrt(DBL_EPSILON);
  int rc = sim_rhs(t, y, f0, s);
  if (rc != 0) return fd_rc(rc);
  memset(w, 0, (size_t)nv * sizeof *w);
  memcpy(y1 + nq, y + nq, (size_t)nv * sizeof *y1);
  /* K: tangent directions of q (translations in m, rotations in rad) */
  for (int j = 0; j < nv; j++) {
    const double e = sq;
    w[j] = e;
    rc = sim_lie_increment(y, w, y1, s);
    w[j] = 0.0;
    if (rc == 0) rc = sim_rhs(t, y1, f1, s);
    if (rc != 0) return fd_rc(rc);
    double *Kc = K + (size_t)j * (size_t)ld + (size_t)(mu - j);
    for (int i = 0; i < nv; i++) Kc[i] = (f1[nq + i] - f0[nq + i]) / e;
  }
  /* C: velocity directions */
  memcpy(y1, y, (size_t)n * sizeof *y1);
  for (int j = 0; j < nv; j++) {
    const double v = y[nq + j], e = (v + sq * fmax(1.0, fabs(v))) - v; /* exact step */
    y1[nq + j] = v + e;
    rc = sim_rhs(t, y1, f1, s);
    y1[nq + j] = v;
    if (rc != 0) return fd_rc(rc);
    double *Cc = C + (size_t)j * (size_t)ld + (size_t)(mu - j);
    for (int i = 0; i < nv; i++) Cc[i] = (f1[nq + i] - f0[nq + i]) / e;
  }
  return 0;
}
