// SPDX-License-Identifier: Apache-2.0
/* Dense output of the GBS extrapolation: see odex_dense.h (HNW I §II.9). */
#include "integrate/odex_dense.h"

#include <math.h>
#include <stdlib.h>

int cosrod_odex_dense_alloc(odex_dense *d, int n, int cap) {
  d->n = n;
  d->cap = cap;
  d->mu = 0;
  d->t0 = 0.0;
  d->H = 0.0;
  d->c = calloc((size_t)cap * (size_t)n, sizeof(double));
  d->r = calloc(4 * (size_t)n, sizeof(double));
  return d->c && d->r ? 0 : -1;
}

void cosrod_odex_dense_free(odex_dense *d) {
  free(d->c);
  free(d->r);
  d->c = d->r = NULL;
}

void cosrod_odex_dense_build(odex_dense *d, double t0, double H, const double *y0, const double *f0,
                             const double *y1, const double *f1, const double *const *deriv, int mu) {
  const int n = d->n, nu = mu + 1;
  d->t0 = t0;
  d->H = H;
  d->mu = mu;
  double fact = 1.0;
  for (int l = 0; l <= mu; l++) {
    if (l > 0) fact *= l;
    double *cl = d->c + (size_t)l * (size_t)n;
    for (int i = 0; i < n; i++) cl[i] = deriv[l][i] / fact;
  }
  const double se[2] = {-0.5, 0.5};
  for (int i = 0; i < n; i++) {
    for (int e = 0; e < 2; e++) {
      const double s = se[e];
      double q = 0.0, dq = 0.0; /* Q(s), Q'(s) by Horner */
      for (int l = mu; l >= 0; l--) {
        const double cl = d->c[(size_t)l * (size_t)n + (size_t)i];
        dq = dq * s + q;
        q = q * s + cl;
      }
      const double sn = pow(s, nu), snm1 = pow(s, nu - 1);
      const double E = (e ? y1[i] : y0[i]) - q, dE = H * (e ? f1[i] : f0[i]) - dq;
      const double R = E / sn;
      d->r[(size_t)(2 * e) * (size_t)n + (size_t)i] = R;
      d->r[(size_t)(2 * e + 1) * (size_t)n + (size_t)i] = (dE - nu * snm1 * R) / sn;
    }
  }
}

void cosrod_odex_dense_eval(const odex_dense *d, double t, const int *idx, int nidx, double *out) {
  const int n = d->n;
  const double s = (t - d->t0) / d->H - 0.5, u = s + 0.5;
  const double u2 = u * u, u3 = u2 * u;
  const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  const double snu = pow(s, d->mu + 1);
  const int m = idx ? nidx : n;
  for (int k = 0; k < m; k++) {
    const int i = idx ? idx[k] : k;
    double p = 0.0;
    for (int l = d->mu; l >= 0; l--) p = p * s + d->c[(size_t)l * (size_t)n + (size_t)i];
    const double R = d->r[i] * h00 + d->r[(size_t)n + (size_t)i] * h10 + d->r[2 * (size_t)n + (size_t)i] * h01 +
                     d->r[3 * (size_t)n + (size_t)i] * h11;
    out[k] = p + snu * R;
  }
}
