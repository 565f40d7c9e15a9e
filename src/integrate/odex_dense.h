// SPDX-License-Identifier: Apache-2.0
/* Dense output of the GBS extrapolation (odex, internal): the polynomial of
 * Hairer & Ostermann (HNW I §II.9) in s = (t - t0)/H - 1/2,
 *     P(s) = sum_{l=0..mu} d_l s^l / l!  +  s^(mu+1) R(s),
 * where d_l = H^l y^(l)(t0 + H/2) are the extrapolated midpoint derivatives
 * and the cubic R is fixed by P = y0, y1 and P' = H f0, H f1 at s = -1/2, 1/2
 * (Hermite form on [-1/2, 1/2]).  Degree mu + 4. */
#ifndef COSROD_INTEGRATE_ODEX_DENSE_H
#define COSROD_INTEGRATE_ODEX_DENSE_H

typedef struct odex_dense {
  int n, cap, mu;
  double t0, H;
  double *c; /* (cap) x (n): Taylor coefficients d_l / l! */
  double *r; /* (4) x (n): R(-1/2), R'(-1/2), R(1/2), R'(1/2) */
} odex_dense;

/* Space for n components and up to cap derivatives (mu + 1 <= cap); 0 or -1. */
int cosrod_odex_dense_alloc(odex_dense *d, int n, int cap);
void cosrod_odex_dense_free(odex_dense *d);
/* From y0, f0 at t0, y1, f1 at t0 + H and deriv[l] = d_l (n each), l = 0 .. mu. */
void cosrod_odex_dense_build(odex_dense *d, double t0, double H, const double *y0, const double *f0,
                             const double *y1, const double *f1, const double *const *deriv, int mu);
/* out[k] = P_{idx[k]}(t), k < nidx (all n if idx == NULL). */
void cosrod_odex_dense_eval(const odex_dense *d, double t, const int *idx, int nidx, double *out);

#endif /* COSROD_INTEGRATE_ODEX_DENSE_H */
