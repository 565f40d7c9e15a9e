// SPDX-License-Identifier: Apache-2.0
/* Banded linear algebra (module linalg): real and complex n x n band matrices
 * with lower bandwidth ml and upper bandwidth mu, assembly helpers, LU
 * factorisation with partial pivoting, solves and matrix-vector products.
 * Includes cosrod/dense.h (small dense matrices and the backend enum).
 *
 * Storage (LAPACK band layout, as SUNDIALS' sunmatrix_band): column-major,
 * leading dimension ld = 2*ml + mu + 1; the top ml rows of each column are
 * room for the U fill-in of partial pivoting (storage upper bandwidth
 * smu = ml + mu).  With 0-based indices,
 *     A(i,j) = data[j*ld + smu + i - j]   for  -mu <= i - j <= ml,
 * i.e. cosrod_band_col(A, j)[i - j].  Entries outside the band are zero and
 * must not be written.  `data` is exactly LAPACK's AB array (ldab = ld).
 *
 * The struct fields are public for fast assembly; treat them as read-only
 * except the entries in `data` and `backend`.
 *
 * Ownership: _create allocates entries, pivots and workspace; factor, solve,
 * matvec and the assembly helpers never allocate (safe in a time loop).
 * _free(NULL) is a no-op.
 *
 * Factorisation overwrites the entries with L and U (LAPACK gbtrf layout).
 * Any assembly helper (zero, copy, scale_add*, set_combination) marks the
 * matrix unfactored again; the inline accessors do not touch the flag.
 *
 * Backends (cosrod_linalg_backend): COSROD_LINALG_OWN (hand-written, default)
 * and COSROD_LINALG_LAPACK (LAPACKE dgbtrf/dgbtrs, zgbtrf/zgbtrs); the backend
 * used by factor is remembered and solve uses the same one.
 *
 * Integrator use (RADAU5, banded Jacobian J and mass matrix M):
 *     cosrod_band_set_combination(E1, -1.0, J, gamma / h, M);        // (γ/h)M − J
 *     cosrod_zband_set_combination(E2, -1.0, J, (alpha + I*beta) / h, M);
 *     cosrod_band_factor(E1); cosrod_zband_factor(E2);
 *     cosrod_band_solve(E1, z1); cosrod_zband_solve_split(E2, z2, z3); */
#ifndef COSROD_BAND_H
#define COSROD_BAND_H

#include "cosrod/export.h"

#include <stddef.h>
#include <stdio.h>

#include "cosrod/dense.h"
#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Real band matrix. */
typedef struct cosrod_band {
  int n;                         /* order (n >= 1) */
  int ml, mu;                    /* lower and upper bandwidth (0 <= ml, mu <= n-1) */
  int smu;                       /* storage upper bandwidth = ml + mu */
  int ld;                        /* leading dimension = 2*ml + mu + 1 */
  double *data;                  /* (n x ld) column-major, see above */
  int *ipiv;                     /* (n) pivot rows; internal, valid when factored */
  double *rdiag;                 /* (n) 1 / U(j,j) (OWN backend); internal */
  int rdiag_ok;                  /* internal: 0 if some pivot is too small/large to invert safely */
  int factored;                  /* 1 after a successful factorisation */
  int factored_by;               /* backend used by the last factorisation */
  int singular_col;              /* 0-based column of a zero pivot, or -1 */
  cosrod_linalg_backend backend; /* backend for the next factorisation */
} cosrod_band;

/* Allocate an n x n zero band matrix with bandwidths ml, mu (clamped to
 * n - 1), backend OWN.  NULL if n < 1, ml < 0, mu < 0 (ERR_INVALID) or out
 * of memory (ERR_NOMEM); status and cosrod_last_error() as in status.h. */
COSROD_API cosrod_band *cosrod_band_create(int n, int ml, int mu, cosrod_status *status);
COSROD_API void cosrod_band_free(cosrod_band *A);

/* Pointer to the diagonal entry of column j: A(i,j) = cosrod_band_col(A,j)[i-j]. */
static inline double *cosrod_band_col(cosrod_band *A, int j) {
  return A->data + (size_t)j * (size_t)A->ld + (size_t)A->smu;
}
/* Entry access, 0-based, caller guarantees -mu <= i-j <= ml (no check). */
static inline double cosrod_band_get(const cosrod_band *A, int i, int j) {
  return A->data[(size_t)j * (size_t)A->ld + (size_t)(A->smu + i - j)];
}
static inline void cosrod_band_set(cosrod_band *A, int i, int j, double v) {
  A->data[(size_t)j * (size_t)A->ld + (size_t)(A->smu + i - j)] = v;
}
static inline void cosrod_band_add(cosrod_band *A, int i, int j, double v) {
  A->data[(size_t)j * (size_t)A->ld + (size_t)(A->smu + i - j)] += v;
}
/* 1 if (i,j) lies inside the band and the matrix, else 0. */
static inline int cosrod_band_in_band(const cosrod_band *A, int i, int j) {
  return i >= 0 && j >= 0 && i < A->n && j < A->n && i - j <= A->ml && j - i <= A->mu;
}
/* Checked versions: ERR_INVALID for (i,j) outside the matrix or the band
 * (get_checked returns 0 outside the band, which is the true value). */
COSROD_API cosrod_status cosrod_band_set_checked(cosrod_band *A, int i, int j, double v);
COSROD_API cosrod_status cosrod_band_add_checked(cosrod_band *A, int i, int j, double v);
COSROD_API double cosrod_band_get_checked(const cosrod_band *A, int i, int j);

/* Backend (COSROD_LINALG_OWN or LAPACK) of the next factorisation. */
COSROD_API cosrod_status cosrod_band_set_backend(cosrod_band *A, cosrod_linalg_backend backend);
/* A <- 0 (including the fill-in rows). */
COSROD_API void cosrod_band_zero(cosrod_band *A);
/* dst <- src.  Needs the same n and dst->ml >= src->ml, dst->mu >= src->mu
 * (else ERR_DIMENSION); dst entries outside src's band become 0. */
COSROD_API cosrod_status cosrod_band_copy(cosrod_band *dst, const cosrod_band *src);
/* A <- c*A + d*I. */
COSROD_API void cosrod_band_scale_add_identity(cosrod_band *A, double c, double d);
/* A <- c*A + d*M; M of the same order with M->ml <= A->ml, M->mu <= A->mu. */
COSROD_API cosrod_status cosrod_band_scale_add(cosrod_band *A, double c, double d, const cosrod_band *M);
/* E <- a*A + b*M in one pass; M == NULL means the identity.  Bandwidths of A
 * and M must fit in E's (else ERR_DIMENSION).  E may alias A (not M). */
COSROD_API cosrod_status cosrod_band_set_combination(cosrod_band *E, double a, const cosrod_band *A, double b,
                                                     const cosrod_band *M);
/* y <- alpha*A*x + beta*y on an unfactored A (ERR_INVALID if factored).
 * x, y: (n), must not alias; beta == 0 ignores the old y. */
COSROD_API cosrod_status cosrod_band_gemv(const cosrod_band *A, double alpha, const double *x, double beta, double *y);
/* y <- A*x. */
COSROD_API cosrod_status cosrod_band_matvec(const cosrod_band *A, const double *x, double *y);
/* Infinity norm (max row sum of |a_ij|) of an unfactored A. */
COSROD_API double cosrod_band_norm_inf(const cosrod_band *A);
/* Expand to a dense column-major (n x n) array D with leading dimension ldd >= n. */
COSROD_API cosrod_status cosrod_band_to_dense(const cosrod_band *A, double *D, int ldd);
/* LU with partial pivoting, in place.  ERR_SINGULAR on an exactly zero pivot
 * (singular_col says where; the factors are then unusable; re-assemble the
 * whole matrix before refactoring), ERR_NONFINITE if a NaN/Inf pivot candidate
 * was met (OWN) or the factors contain NaN/Inf (LAPACK: reference ?gbtf2
 * scales by 1/pivot even for subnormal pivots).  Cost O(n*ml*(ml+mu)).
 * ERR_INTERRUPTED (OWN backend) when the installed interrupt flag is set at
 * one of the polls every 2048 columns (cosrod_interrupt_install; the factors
 * are then unusable, singular_col = first column not eliminated). */
COSROD_API cosrod_status cosrod_band_factor(cosrod_band *A);
/* Solve A x = b in place (b: (n) overwritten by x); ERR_INVALID if not factored. */
COSROD_API cosrod_status cosrod_band_solve(const cosrod_band *A, double *b);
/* Solve A X = B in place; B: (n x nrhs) column-major, leading dimension ldb >= n. */
COSROD_API cosrod_status cosrod_band_solve_multi(const cosrod_band *A, int nrhs, double *B, int ldb);
/* Print the band (or the factors, if factored) as a dense table for debugging;
 * entries outside the band are shown as '.'. */
COSROD_API void cosrod_band_print(const cosrod_band *A, FILE *f);

/* ------------------------------------------------------------------------ */
/* Complex band matrix: same layout, entries double _Complex. */
typedef struct cosrod_zband {
  int n;
  int ml, mu;
  int smu;
  int ld;
  double _Complex *data;  /* (n x ld) column-major, A(i,j) = data[j*ld + smu + i - j] */
  double _Complex *work;  /* (n) internal scratch of factor and solve_split */
  int *ipiv;              /* (n) internal */
  double _Complex *rdiag; /* (n) 1 / U(j,j) (OWN backend); internal */
  int rdiag_ok;           /* internal */
  int factored;
  int factored_by;
  int singular_col;
  cosrod_linalg_backend backend;
} cosrod_zband;

/* Complex n x n band matrix with ml sub- and mu superdiagonals; NULL as for
 * cosrod_band_create.  _free releases it. */
COSROD_API cosrod_zband *cosrod_zband_create(int n, int ml, int mu, cosrod_status *status);
COSROD_API void cosrod_zband_free(cosrod_zband *A);

static inline double _Complex *cosrod_zband_col(cosrod_zband *A, int j) {
  return A->data + (size_t)j * (size_t)A->ld + (size_t)A->smu;
}
static inline double _Complex cosrod_zband_get(const cosrod_zband *A, int i, int j) {
  return A->data[(size_t)j * (size_t)A->ld + (size_t)(A->smu + i - j)];
}
static inline void cosrod_zband_set(cosrod_zband *A, int i, int j, double _Complex v) {
  A->data[(size_t)j * (size_t)A->ld + (size_t)(A->smu + i - j)] = v;
}
static inline void cosrod_zband_add(cosrod_zband *A, int i, int j, double _Complex v) {
  A->data[(size_t)j * (size_t)A->ld + (size_t)(A->smu + i - j)] += v;
}

/* Backend of the next factorisation; A <- 0 (including the fill-in rows). */
COSROD_API cosrod_status cosrod_zband_set_backend(cosrod_zband *A, cosrod_linalg_backend backend);
COSROD_API void cosrod_zband_zero(cosrod_zband *A);
/* Same rules as cosrod_band_copy. */
COSROD_API cosrod_status cosrod_zband_copy(cosrod_zband *dst, const cosrod_zband *src);
/* Z <- a*A + b*M with complex scalars and REAL band matrices A, M
 * (M == NULL: identity); bandwidths of A and M must fit in Z's. */
COSROD_API cosrod_status cosrod_zband_set_combination(cosrod_zband *Z, double _Complex a, const cosrod_band *A,
                                                      double _Complex b, const cosrod_band *M);
/* y <- A*x (unfactored A; x, y: (n), no aliasing). */
COSROD_API cosrod_status cosrod_zband_matvec(const cosrod_zband *A, const double _Complex *x, double _Complex *y);
COSROD_API double cosrod_zband_norm_inf(const cosrod_zband *A);
/* As cosrod_band_factor (also ERR_INTERRUPTED with the OWN backend). */
COSROD_API cosrod_status cosrod_zband_factor(cosrod_zband *A);
/* Solve in place, b: (n) complex. */
COSROD_API cosrod_status cosrod_zband_solve(const cosrod_zband *A, double _Complex *b);
/* Solve in place with the right-hand side split into real and imaginary
 * parts re, im: (n) each (uses the internal workspace; no allocation). */
COSROD_API cosrod_status cosrod_zband_solve_split(cosrod_zband *A, double *re, double *im);
/* B: (n x nrhs) complex column-major, ldb >= n. */
COSROD_API cosrod_status cosrod_zband_solve_multi(const cosrod_zband *A, int nrhs, double _Complex *B, int ldb);
COSROD_API void cosrod_zband_print(const cosrod_zband *A, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_BAND_H */
