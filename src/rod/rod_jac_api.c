// SPDX-License-Identifier: Apache-2.0
/* Analytic rod Jacobians: the public entry points (include/cosrod/rod.h),
 * each one formulation or destination of the assembly in rod_jac.c. */
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/status.h"
#include "rod/rod_jac_internal.h"

static int form_kind(cosrod_rod_form form) {
  return form == COSROD_FORM_NULLSPACE ? KIND_NS : form == COSROD_FORM_DAE ? KIND_DAE : KIND_ABS;
}

cosrod_status cosrod_rod_jac(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                             const double *y, const double *yp, double cj, int nblk,
                             const cosrod_rod_jac_block *blk) {
  if ((unsigned)form > COSROD_FORM_DAE) return COSROD_ERR_INVALID;
  return rod_jac_run(rod, d, form_kind(form), t, y, yp, cj, nblk, blk, 0, NULL, NULL, NULL);
}

cosrod_status cosrod_rod_jac_band(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                  const double *y, const double *yp, double cj, int r0, int c0,
                                  struct cosrod_band *J) {
  if (!J) return COSROD_ERR_INVALID;
  memset(J->data, 0, sizeof(double) * (size_t)J->ld * (size_t)J->n);
  cosrod_rod_jac_block b = {J->data + J->ml, J->ld, J->ml, J->mu, r0, c0, J->n, J->n};
  cosrod_status st = cosrod_rod_jac(rod, d, form, t, y, yp, cj, 1, &b);
  J->factored = 0;
  return st;
}

cosrod_status cosrod_rod_jac_second_order(const cosrod_rod *rod, cosrod_rod_data *d, double t,
                                          const double *y, double *J, int ldj, int ml_q, int mu_q, int ml_v,
                                          int mu_v) {
  if (!rod) return COSROD_ERR_INVALID;
  int nq = rod->nq;
  if (!J) return COSROD_ERR_INVALID;
  cosrod_rod_jac_block b[2] = {{J, ldj, ml_q, mu_q, nq, 0, nq, nq},
                               {J + (size_t)nq * (size_t)ldj, ldj, ml_v, mu_v, nq, nq, nq, nq}};
  return cosrod_rod_jac(rod, d, COSROD_FORM_ABSOLUTE, t, y, NULL, 0.0, 2, b);
}

cosrod_status cosrod_rod_stiffness(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *q,
                                   struct cosrod_band *K) {
  if (!K || !rod) return COSROD_ERR_INVALID;
  if (K->n != rod->nq) return COSROD_ERR_DIMENSION;
  memset(K->data, 0, sizeof(double) * (size_t)K->ld * (size_t)K->n);
  cosrod_rod_jac_block b = {K->data + K->ml, K->ld, K->ml, K->mu, 0, 0, K->n, K->n};
  cosrod_status st = rod_jac_run(rod, d, KIND_STIFF, t, q, NULL, 0.0, 1, &b, 0, NULL, NULL, NULL);
  K->factored = 0;
  return st;
}

cosrod_status cosrod_rod_jac_pattern_bandwidth(const cosrod_rod *rod, cosrod_rod_data *d,
                                               cosrod_rod_form form, int stiffness, int r0, int c0, int nr,
                                               int nc, int *ml, int *mu) {
  if (!rod || !d || !ml || !mu) return COSROD_ERR_INVALID;
  if ((unsigned)form > COSROD_FORM_DAE) return COSROD_ERR_INVALID;
  int kind = stiffness ? KIND_STIFF : form_kind(form);
  cosrod_rod_form f = stiffness ? COSROD_FORM_ABSOLUTE : form;
  int ny = cosrod_rod_ny(rod, f);
  double *y = d->work, *yp = d->work + ny; /* the FD scratch holds 3 (2 nq + N) */
  cosrod_status st = cosrod_rod_initial_state(rod, f, y);
  if (st != COSROD_OK) return st;
  memset(yp, 0, sizeof(double) * (size_t)ny);
  cosrod_rod_jac_block b = {NULL, 0, 0, 0, r0, c0, nr, nc};
  return rod_jac_run(rod, d, kind, 0.0, y, yp, 1.0, 1, &b, 1, ml, mu, NULL);
}

/* ---- whole Jacobian in a permuted (banded) ordering (rod_order.c) ----------- */

cosrod_status cosrod_rod_jac_full_band(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form,
                                       double t, const double *y, const double *yp, double cj,
                                       const int *perm, double *J, int ldj, int ml, int mu) {
  if (!rod || !J || (unsigned)form > COSROD_FORM_DAE) return COSROD_ERR_INVALID;
  int ny = cosrod_rod_ny(rod, form);
  cosrod_rod_jac_block b = {J, ldj, ml, mu, 0, 0, ny, ny};
  return rod_jac_run(rod, d, form_kind(form), t, y, yp, cj, 1, &b, 0, NULL, NULL, perm);
}

cosrod_status cosrod_rod_jac_full_pattern_bandwidth(const cosrod_rod *rod, cosrod_rod_data *d,
                                                    cosrod_rod_form form, const int *perm, int *ml, int *mu) {
  if (!rod || !d || !ml || !mu || (unsigned)form > COSROD_FORM_DAE) return COSROD_ERR_INVALID;
  int ny = cosrod_rod_ny(rod, form);
  double *y = d->work, *yp = d->work + ny; /* the FD scratch holds 3 (2 nq + N) */
  cosrod_status st = cosrod_rod_initial_state(rod, form, y);
  if (st != COSROD_OK) return st;
  memset(yp, 0, sizeof(double) * (size_t)ny);
  cosrod_rod_jac_block b = {NULL, 0, 0, 0, 0, 0, ny, ny};
  st = rod_jac_run(rod, d, form_kind(form), 0.0, y, yp, 1.0, 1, &b, 1, ml, mu, perm);
  if (st != COSROD_OK || form != COSROD_FORM_DAE) return st;
  int l2, u2; /* DAE: also the mass-matrix form */
  st = rod_jac_run(rod, d, KIND_DAEM, 0.0, y, yp, 1.0, 1, &b, 1, &l2, &u2, perm);
  if (l2 > *ml) *ml = l2;
  if (u2 > *mu) *mu = u2;
  return st;
}

cosrod_status cosrod_rod_jac_dae_mass_band(const cosrod_rod *rod, cosrod_rod_data *d, double t,
                                           const double *y, const int *perm, double *J, int ldj, int ml,
                                           int mu) {
  if (!rod || !J) return COSROD_ERR_INVALID;
  int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  cosrod_rod_jac_block b = {J, ldj, ml, mu, 0, 0, ny, ny};
  return rod_jac_run(rod, d, KIND_DAEM, t, y, NULL, 0.0, 1, &b, 0, NULL, NULL, perm);
}
