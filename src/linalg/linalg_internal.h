// SPDX-License-Identifier: Apache-2.0
/* Internal helpers shared by the linalg sources (not installed). */
#ifndef COSROD_LINALG_INTERNAL_H
#define COSROD_LINALG_INTERNAL_H

#include <lapacke.h>
#include <math.h>
#include <stdio.h>

#include "cosrod/band.h"

/* The pivot arrays are plain int and are handed to LAPACK directly. */
_Static_assert(sizeof(lapack_int) == sizeof(int), "cosrod linalg expects 32-bit lapack_int");
/* C11 6.2.5: a complex number has the representation of double[2] = {re, im}. */
_Static_assert(sizeof(double _Complex) == 2 * sizeof(double), "double _Complex must be two doubles");

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

static inline int lin_valid_backend(cosrod_linalg_backend b) {
  return b == COSROD_LINALG_OWN || b == COSROD_LINALG_LAPACK;
}

/* |re| + |im|: the pivoting magnitude for complex LU (as LAPACK's izamax). */
static inline double lin_cabs1(const double *z) { return fabs(z[0]) + fabs(z[1]); }

/* (rr, ri) <- 1 / (ar + i ai) by Smith's algorithm (no overflow for large
 * |a|, no underflow of |a|^2 for small |a|).  a must be non-zero. */
static inline void lin_crecip(double ar, double ai, double *rr, double *ri) {
  if (fabs(ar) >= fabs(ai)) {
    double r = ai / ar, d = ar + ai * r;
    *rr = 1.0 / d;
    *ri = -r / d;
  } else {
    double r = ar / ai, d = ai + ar * r;
    *rr = r / d;
    *ri = -1.0 / d;
  }
}

/* (qr, qi) <- (xr + i xi) / (ar + i ai) by Smith's algorithm; safe for
 * subnormal or huge a where the reciprocal would overflow. */
static inline void lin_cdiv(double xr, double xi, double ar, double ai, double *qr, double *qi) {
  if (fabs(ar) >= fabs(ai)) {
    double r = ai / ar, d = ar + ai * r;
    *qr = (xr + xi * r) / d;
    *qi = (xi - xr * r) / d;
  } else {
    double r = ar / ai, d = ai + ar * r;
    *qr = (xr * r + xi) / d;
    *qi = (xi * r - xr) / d;
  }
}

/* Index of the first NaN/Inf among x[0..m-1], or -1.  Used after LAPACK
 * factorisations, which do not check (e.g. reference zgbtf2 scales by
 * 1/pivot even for subnormal pivots and produces Inf multipliers). */
static inline long lin_first_nonfinite(const double *x, size_t m) {
  for (size_t k = 0; k < m; ++k)
    if (!isfinite(x[k])) return (long)k;
  return -1;
}

/* Status of a LAPACK ?gbtrf / ?getrf call (dense.c) on the m doubles x of the factors
 * (col = doubles per stored column): info < 0 -> ERR_INTERNAL; info > 0 ->
 * ERR_SINGULAR at column info - 1; else ERR_NONFINITE at the column of the
 * first NaN/Inf, or OK.  *singular_col is set on SINGULAR / NONFINITE. */
cosrod_status lin_lapack_factor_status(lapack_int info, const double *x, size_t m, size_t col,
                                       int *singular_col);

/* Split (re, im: (n) each) <-> interleaved complex (w: (2n) doubles). */
static inline void lin_interleave(int n, const double *re, const double *im, double *w) {
  for (int i = 0; i < n; ++i) {
    w[2 * i] = re[i];
    w[2 * i + 1] = im[i];
  }
}
static inline void lin_deinterleave(int n, const double *w, double *re, double *im) {
  for (int i = 0; i < n; ++i) {
    re[i] = w[2 * i];
    im[i] = w[2 * i + 1];
  }
}

/* Debug table of an n x n matrix (dense.c), one row per line.  Entry (i, j)
 * with i - j <= ml and j - i <= mu is x[off + i + j*cs] (in entries: a
 * complex entry is the pair {re, im}), printed as %11.4e (real) or
 * %10.3e%+10.3ei (complex); the others print as '.'.  Band storage
 * (A(i,j) = data[j*ld + smu + i - j]): off = smu, cs = ld - 1; dense
 * storage: off = 0, cs = n, ml = mu = n - 1. */
void lin_print_entries(FILE *f, const double *x, int is_complex, int n, size_t off, size_t cs, int ml,
                       int mu);

/* Own banded LU (band_lu.c); A->rdiag/rdiag_ok/ipiv/singular_col set. */
cosrod_status lin_band_factor_own(cosrod_band *A);
cosrod_status lin_zband_factor_own(cosrod_zband *A);

/* Vectorised kernels (band_lu.c): y[i] -= t * x[i], i = 0..m-1, x and y not
 * overlapping; complex on interleaved pairs with t = tr + i ti.  The solves
 * call them for long updates only (short vector updates in a triangular
 * sweep stall on store-to-load forwarding). */
void lin_axpy_sub(int m, double t, const double *restrict x, double *restrict y);
void lin_zaxpy_sub(int m, double tr, double ti, const double *restrict x, double *restrict y);
#define LIN_VEC_MIN 12

#endif /* COSROD_LINALG_INTERNAL_H */
