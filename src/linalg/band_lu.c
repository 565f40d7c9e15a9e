// SPDX-License-Identifier: Apache-2.0
/* Banded LU factorisation with partial pivoting (own implementation), real
 * and complex.  Kept in a file of its own so that the build can vectorise
 * it (the rank-1 updates are long contiguous column updates: 1.3-2x faster
 * with SIMD) while the triangular solves in band.c / zband.c, whose short
 * updates suffer from store-to-load forwarding stalls when vectorised, stay
 * scalar; see src/linalg/CMakeLists.txt.
 *
 * Algorithm (as LAPACK's dgbtf2, written from the textbook description in
 * Golub-Van Loan, Matrix Computations, §4.3, band Gaussian elimination with
 * partial pivoting): for column j the pivot is the
 * largest of the ml subdiagonal entries (|re|+|im| for complex), rows j and
 * pivot are swapped in columns j..ju (ju = furthest column reachable by row j
 * of U: j + mu + pivot offset), the multipliers are scaled by 1/pivot and the
 * rank-1 update runs down each column k = j+1..ju.  The reciprocal pivots are
 * kept for the solves (rdiag) when they can be formed safely. */
#include <complex.h>
#ifndef CMPLX /* C11 7.3.9.3; clang with glibc lacks it */
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif
#include <float.h>
#include <math.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/status.h"
#include "linalg/linalg_internal.h"

/* Columns between two polls of the interrupt flag (cosrod_interrupt_pending):
 * one volatile read per 2048 columns keeps the loop fast, and at N = 10^6
 * (~1.3e7 columns, ~1 us each) Ctrl-C acts within milliseconds. */
#define LU_POLL_MASK 2047

/* y[1..m] -= t * x[1..m]; x and y are different columns of the band, so they
 * never overlap (restrict spares the vectoriser a runtime alias check). */
static inline void col_update(int m, double t, const double *restrict x, double *restrict y) {
  for (int i = 1; i <= m; ++i) y[i] -= x[i] * t;
}

/* Complex version on interleaved (re, im) pairs, indices 1..m. */
static inline void zcol_update(int m, double tr, double ti, const double *restrict x, double *restrict y) {
  for (int i = 1; i <= m; ++i) {
    const double lr = x[2 * i], li = x[2 * i + 1];
    y[2 * i] -= lr * tr - li * ti;
    y[2 * i + 1] -= lr * ti + li * tr;
  }
}

/* y[q] -= x[q] * tr + xs[q] * ti, q = 0..m-1: with x the interleaved
 * multipliers (lr, li) and xs = i * x = (-li, lr), this is y -= x * (tr + i ti)
 * with the same roundings as zcol_update, but elementwise (vectorises without
 * shuffles). */
static inline void zcol_update_split(int m, double tr, double ti, const double *restrict x,
                                     const double *restrict xs, double *restrict y) {
  for (int q = 0; q < m; ++q) y[q] -= x[q] * tr + xs[q] * ti;
}

void lin_axpy_sub(int m, double t, const double *restrict x, double *restrict y) {
  for (int i = 0; i < m; ++i) y[i] -= x[i] * t;
}

void lin_zaxpy_sub(int m, double tr, double ti, const double *restrict x, double *restrict y) {
  for (int i = 0; i < m; ++i) {
    const double lr = x[2 * i], li = x[2 * i + 1];
    y[2 * i] -= lr * tr - li * ti;
    y[2 * i + 1] -= lr * ti + li * tr;
  }
}

cosrod_status lin_band_factor_own(cosrod_band *A) {
  const int n = A->n, ml = A->ml, mu = A->mu, smu = A->smu;
  const size_t ld = (size_t)A->ld;
  double *a = A->data;
  /* The fill-in rows may hold stale factors from a previous decomposition. */
  if (ml > 0)
    for (int j = 0; j < n; ++j) memset(a + (size_t)j * ld, 0, (size_t)ml * sizeof(double));
  int ju = 0; /* last column reached by the rows of U built so far */
  A->rdiag_ok = 1;
  for (int j = 0; j < n; ++j) {
    if ((j & LU_POLL_MASK) == LU_POLL_MASK && cosrod_interrupt_pending()) {
      A->singular_col = j; /* columns 0..j-1 eliminated */
      return COSROD_ERR_INTERRUPTED;
    }
    double *cj = a + (size_t)j * ld + smu; /* cj[i] = A(j+i, j) */
    const int km = imin(ml, n - 1 - j);
    int p = 0, bad = !isfinite(cj[0]);
    double amax = fabs(cj[0]);
    for (int i = 1; i <= km; ++i) {
      const double v = fabs(cj[i]);
      bad |= !isfinite(v);
      if (v > amax) {
        amax = v;
        p = i;
      }
    }
    A->ipiv[j] = j + p;
    if (bad) {
      A->singular_col = j;
      return COSROD_ERR_NONFINITE;
    }
    if (amax == 0.0) {
      A->singular_col = j;
      return COSROD_ERR_SINGULAR;
    }
    ju = imax(ju, imin(j + mu + p, n - 1));
    if (p != 0) {
      for (int k = j; k <= ju; ++k) {
        double *ck = a + (size_t)k * ld + smu - k;
        const double t = ck[j];
        ck[j] = ck[j + p];
        ck[j + p] = t;
      }
    }
    const double piv = cj[0];
    const int safe = amax >= DBL_MIN && amax <= 1.0 / DBL_MIN; /* 1/piv neither overflows nor is subnormal */
    const double rp = 1.0 / piv;
    A->rdiag[j] = rp;
    A->rdiag_ok &= safe;
    if (km == 0) continue;
    if (safe) {
      for (int i = 1; i <= km; ++i) cj[i] *= rp;
    } else {
      for (int i = 1; i <= km; ++i) cj[i] /= piv;
    }
    for (int k = j + 1; k <= ju; ++k) {
      double *ck = a + (size_t)k * ld + smu + (j - k); /* ck[i] = A(j+i, k) */
      const double t = ck[0];
      if (t != 0.0) col_update(km, t, cj, ck);
    }
  }
  return COSROD_OK;
}

cosrod_status lin_zband_factor_own(cosrod_zband *A) {
  const int n = A->n, ml = A->ml, mu = A->mu, smu = A->smu;
  const size_t ld2 = 2 * (size_t)A->ld; /* leading dimension in doubles */
  double *a = (double *)A->data;
  if (ml > 0)
    for (int j = 0; j < n; ++j) memset(a + (size_t)j * ld2, 0, 2 * (size_t)ml * sizeof(double));
  int ju = 0;
  A->rdiag_ok = 1;
  for (int j = 0; j < n; ++j) {
    if ((j & LU_POLL_MASK) == LU_POLL_MASK && cosrod_interrupt_pending()) {
      A->singular_col = j;
      return COSROD_ERR_INTERRUPTED;
    }
    double *cj = a + (size_t)j * ld2 + 2 * (size_t)smu; /* (cj[2i], cj[2i+1]) = A(j+i, j) */
    const int km = imin(ml, n - 1 - j);
    int p = 0, bad = !isfinite(cj[0]) || !isfinite(cj[1]);
    double amax = lin_cabs1(cj);
    for (int i = 1; i <= km; ++i) {
      const double v = lin_cabs1(cj + 2 * i);
      bad |= !isfinite(v);
      if (v > amax) {
        amax = v;
        p = i;
      }
    }
    A->ipiv[j] = j + p;
    if (bad) {
      A->singular_col = j;
      return COSROD_ERR_NONFINITE;
    }
    if (amax == 0.0) {
      A->singular_col = j;
      return COSROD_ERR_SINGULAR;
    }
    ju = imax(ju, imin(j + mu + p, n - 1));
    if (p != 0) {
      for (int k = j; k <= ju; ++k) {
        double *ck = a + (size_t)k * ld2 + 2 * (size_t)(smu + j - k); /* A(j, k) */
        double *cp = ck + 2 * p;                                      /* A(j+p, k) */
        const double tr = ck[0], ti = ck[1];
        ck[0] = cp[0];
        ck[1] = cp[1];
        cp[0] = tr;
        cp[1] = ti;
      }
    }
    const double pr = cj[0], pi = cj[1];
    /* |re|+|im| within [2 DBL_MIN, 0.5/DBL_MIN]: the reciprocal neither
     * overflows nor becomes subnormal. */
    const int safe = amax >= 2.0 * DBL_MIN && amax <= 0.5 / DBL_MIN;
    double rr = 0.0, ri = 0.0;
    if (safe) lin_crecip(pr, pi, &rr, &ri);
    A->rdiag[j] = CMPLX(rr, ri);
    A->rdiag_ok &= safe;
    if (km == 0) continue;
    if (safe) {
      for (int i = 1; i <= km; ++i) {
        const double xr = cj[2 * i], xi = cj[2 * i + 1];
        cj[2 * i] = xr * rr - xi * ri;
        cj[2 * i + 1] = xr * ri + xi * rr;
      }
    } else {
      for (int i = 1; i <= km; ++i) lin_cdiv(cj[2 * i], cj[2 * i + 1], pr, pi, &cj[2 * i], &cj[2 * i + 1]);
    }
    if (ju > j && km >= 4) {
      /* xs = i * multipliers, as (-li, lr) pairs, once per pivot column;
       * then each column update is a shuffle-free elementwise operation. */
      double *restrict xs = (double *)A->work;
      for (int i = 1; i <= km; ++i) {
        xs[2 * i - 2] = -cj[2 * i + 1];
        xs[2 * i - 1] = cj[2 * i];
      }
      for (int k = j + 1; k <= ju; ++k) {
        double *ck = a + (size_t)k * ld2 + 2 * (size_t)(smu + j - k);
        const double tr = ck[0], ti = ck[1];
        if (tr != 0.0 || ti != 0.0) zcol_update_split(2 * km, tr, ti, cj + 2, xs, ck + 2);
      }
    } else {
      for (int k = j + 1; k <= ju; ++k) {
        double *ck = a + (size_t)k * ld2 + 2 * (size_t)(smu + j - k); /* A(j+i, k) at ck + 2i */
        const double tr = ck[0], ti = ck[1];
        if (tr != 0.0 || ti != 0.0) zcol_update(km, tr, ti, cj, ck);
      }
    }
  }
  return COSROD_OK;
}
