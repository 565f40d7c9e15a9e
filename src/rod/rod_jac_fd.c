// SPDX-License-Identifier: Apache-2.0
/* Finite-difference Jacobians of the rod right-hand sides, assembled into
 * band storage in the interleaved ordering ([manual: modelling guide]): the twin of the
 * analytic Jacobians (MuJoCo's engine_derivative_fd idea).  Columns that are
 * more than ml + mu + 1 apart never touch the same row of a band matrix, so
 * they are perturbed together (Curtis–Powell–Reid grouping): the cost is
 * 2 (ml + mu + 1) right-hand sides, independent of N.  Central differences
 * with h = eps^(1/3) max(1, |y_j|). */
#include <math.h>
#include <string.h>

#include "cosrod/band.h"
#include "rod/rod_internal.h"

cosrod_status cosrod_rod_jac_fd(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                const double *y, int r0, int c0, struct cosrod_band *J) {
  if (!rod || !d || !y || !J) return COSROD_ERR_INVALID;
  if (form == COSROD_FORM_DAE) return COSROD_ERR_UNSUPPORTED;
  int ny = cosrod_rod_ny(rod, form);
  int n = J->n;
  if (r0 < 0 || c0 < 0 || r0 + n > ny || c0 + n > ny) return COSROD_ERR_DIMENSION;
  double *yy = d->work, *fpl = d->work + ny, *fmi = d->work + 2 * ny;
  int (*rhs)(const cosrod_rod *, cosrod_rod_data *, double, const double *, double *) =
      form == COSROD_FORM_NULLSPACE ? cosrod_rod_rhs_nullspace : cosrod_rod_rhs_absolute;
  const double h0 = 6.0554544523933395e-06; /* cbrt(DBL_EPSILON) */
  int ng = J->ml + J->mu + 1;
  if (ng > n) ng = n;
  memset(J->data, 0, sizeof(double) * (size_t)J->ld * (size_t)n);
  for (int g = 0; g < ng; ++g) {
    memcpy(yy, y, sizeof(double) * (size_t)ny);
    for (int j = g; j < n; j += ng) yy[c0 + j] += h0 * fmax(1.0, fabs(y[c0 + j]));
    int r = rhs(rod, d, t, yy, fpl);
    if (r != 0) return COSROD_ERR_CALLBACK;
    for (int j = g; j < n; j += ng) yy[c0 + j] = y[c0 + j] - h0 * fmax(1.0, fabs(y[c0 + j]));
    r = rhs(rod, d, t, yy, fmi);
    if (r != 0) return COSROD_ERR_CALLBACK;
    for (int j = g; j < n; j += ng) {
      double h =
          (y[c0 + j] + h0 * fmax(1.0, fabs(y[c0 + j]))) - (y[c0 + j] - h0 * fmax(1.0, fabs(y[c0 + j])));
      int ilo = j - J->mu < 0 ? 0 : j - J->mu, ihi = j + J->ml > n - 1 ? n - 1 : j + J->ml;
      double *col = cosrod_band_col(J, j);
      for (int i = ilo; i <= ihi; ++i) col[i - j] = (fpl[r0 + i] - fmi[r0 + i]) / h;
    }
  }
  /* leave d consistent with y */
  rhs(rod, d, t, y, fpl);
  return COSROD_OK;
}
