// SPDX-License-Identifier: Apache-2.0
/* Helpers for the linalg tests: random band matrices, dense references
 * (LAPACK dgesv/zgesv on the dense expansion, an independent implementation
 * of LU) and relative residuals ||A x - b|| / (||A|| ||x||) in the inf-norm.
 *
 * Tolerance for the relative residual (used by every solve test): LU with
 * partial pivoting is backward stable, (A + dA) x = b with
 * |dA| <= gamma_w |L||U|, gamma_w = w u / (1 - w u), w = 2 ml + mu + 1 the
 * number of terms in each inner product, u = 1.1e-16.  For w <= 61 (ml = mu =
 * 20 is the widest band tested) and modest growth (|L||U| <= ~10 |A|, the
 * norm for random matrices), the residual is <= ~7e-14.  1e-12 leaves a
 * safety factor of > 10 and still fails on any wrong entry, pivot or
 * fill-in (those give O(1) residuals). */
#ifndef COSROD_LINALG_TESTUTIL_H
#define COSROD_LINALG_TESTUTIL_H

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "cosrod/band.h"
#include "harness.h"

#define RESID_TOL 1e-12

static inline int tu_min(int a, int b) { return a < b ? a : b; }
static inline int tu_max(int a, int b) { return a > b ? a : b; }

/* Fill the band of A with uniform(-1,1); if dominance > 0, set the diagonal
 * to dominance * (1 + row sum of |off-diagonals|) with a random sign. */
static inline void tu_fill_band(cosrod_band *A, th_rng *rng, double dominance) {
  cosrod_band_zero(A);
  for (int j = 0; j < A->n; ++j)
    for (int i = tu_max(0, j - A->mu); i <= tu_min(A->n - 1, j + A->ml); ++i)
      cosrod_band_set(A, i, j, th_rng_uniform(rng, -1.0, 1.0));
  if (dominance > 0.0) {
    for (int i = 0; i < A->n; ++i) {
      double s = 0.0;
      for (int j = tu_max(0, i - A->ml); j <= tu_min(A->n - 1, i + A->mu); ++j)
        if (j != i) s += fabs(cosrod_band_get(A, i, j));
      double sign = th_rng_uniform(rng, -1.0, 1.0) < 0 ? -1.0 : 1.0;
      cosrod_band_set(A, i, i, sign * dominance * (1.0 + s));
    }
  }
}

/* Dense expansion of the band of A, independent of cosrod_band_to_dense:
 * reads entries through the LAPACK band formula AB(kl+ku+i-j, j). */
static inline double *tu_dense_from_band(const cosrod_band *A) {
  const int n = A->n;
  double *D = calloc((size_t)n * (size_t)n, sizeof(double));
  for (int j = 0; j < n; ++j)
    for (int i = tu_max(0, j - A->mu); i <= tu_min(n - 1, j + A->ml); ++i)
      D[i + (size_t)j * n] = A->data[(size_t)(A->ml + A->mu + i - j) + (size_t)j * A->ld];
  return D;
}

/* x <- solution of D x = b by LAPACK dgesv (D, b untouched). Returns info. */
static inline int tu_dense_solve(int n, const double *D, const double *b, double *x) {
  double *W = malloc((size_t)n * n * sizeof(double));
  lapack_int *ip = malloc((size_t)n * sizeof(lapack_int));
  for (size_t k = 0; k < (size_t)n * n; ++k) W[k] = D[k];
  for (int i = 0; i < n; ++i) x[i] = b[i];
  int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, W, n, ip, x, n);
  free(W);
  free(ip);
  return info;
}

static inline int tu_zdense_solve(int n, const double complex *D, const double complex *b,
                                  double complex *x) {
  double complex *W = malloc((size_t)n * n * sizeof(double complex));
  lapack_int *ip = malloc((size_t)n * sizeof(lapack_int));
  for (size_t k = 0; k < (size_t)n * n; ++k) W[k] = D[k];
  for (int i = 0; i < n; ++i) x[i] = b[i];
  int info = LAPACKE_zgesv(LAPACK_COL_MAJOR, n, 1, W, n, ip, x, n);
  free(W);
  free(ip);
  return info;
}

static inline double tu_norm_inf_vec(int n, const double *x) {
  double m = 0.0;
  for (int i = 0; i < n; ++i) m = fmax(m, fabs(x[i]));
  return m;
}

/* ||D x - b||_inf / (||D||_inf ||x||_inf) for a dense column-major D. */
static inline double tu_rel_residual(int n, const double *D, const double *x, const double *b) {
  double rmax = 0.0, anorm = 0.0;
  for (int i = 0; i < n; ++i) {
    double r = -b[i], rs = 0.0;
    for (int j = 0; j < n; ++j) {
      r += D[i + (size_t)j * n] * x[j];
      rs += fabs(D[i + (size_t)j * n]);
    }
    rmax = fmax(rmax, fabs(r));
    anorm = fmax(anorm, rs);
  }
  return rmax / (anorm * tu_norm_inf_vec(n, x));
}

static inline double tu_zrel_residual(int n, const double complex *D, const double complex *x,
                                      const double complex *b) {
  double rmax = 0.0, anorm = 0.0, xn = 0.0;
  for (int i = 0; i < n; ++i) {
    double complex r = -b[i];
    double rs = 0.0;
    for (int j = 0; j < n; ++j) {
      r += D[i + (size_t)j * n] * x[j];
      rs += cabs(D[i + (size_t)j * n]);
    }
    rmax = fmax(rmax, cabs(r));
    anorm = fmax(anorm, rs);
    xn = fmax(xn, cabs(x[i]));
  }
  return rmax / (anorm * xn);
}

/* max_i |x_i - y_i| / max_i |y_i| */
static inline double tu_rel_diff(int n, const double *x, const double *y) {
  double d = 0.0;
  for (int i = 0; i < n; ++i) d = fmax(d, fabs(x[i] - y[i]));
  return d / tu_norm_inf_vec(n, y);
}

static inline double tu_zrel_diff(int n, const double complex *x, const double complex *y) {
  double d = 0.0, m = 0.0;
  for (int i = 0; i < n; ++i) {
    d = fmax(d, cabs(x[i] - y[i]));
    m = fmax(m, cabs(y[i]));
  }
  return d / m;
}

/* 1-norm condition number estimate of a dense matrix by LAPACK dgecon. */
static inline double tu_cond1(int n, const double *D) {
  double *W = malloc((size_t)n * n * sizeof(double));
  lapack_int *ip = malloc((size_t)n * sizeof(lapack_int));
  for (size_t k = 0; k < (size_t)n * n; ++k) W[k] = D[k];
  double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, W, n), rcond = 0.0;
  LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, W, n, ip);
  LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, W, n, anorm, &rcond);
  free(W);
  free(ip);
  return 1.0 / rcond;
}

#endif /* COSROD_LINALG_TESTUTIL_H */
