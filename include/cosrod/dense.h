// SPDX-License-Identifier: Apache-2.0
/* Small dense linear algebra (module linalg): real and complex square matrices
 * with LU factorisation (partial pivoting) and solves.
 *
 * Used by the integrators for small systems (rigid bodies, dense Jacobians)
 * and by RADAU5, which needs one real and one complex LU per decomposition:
 *   E1 = (γ/h)·M − J  (real),   E2 = ((α + iβ)/h)·M − J  (complex).
 *
 * Storage: column-major, n x n, leading dimension n:  A(i,j) = data[i + j*n],
 * 0-based indices.  The struct fields are public for fast assembly but are
 * read-only except `data` (entries) and `backend`.
 *
 * Ownership: everything (entries, pivots, workspace) is allocated by _create;
 * factor/solve/assembly never allocate, so they may be called in a time loop.
 * _free(NULL) is a no-op.
 *
 * Factorisation overwrites the entries with L and U (LAPACK getrf layout);
 * after that, entry access returns the factors, not A.  Any assembly call
 * (zero, copy, scale_add, set_combination) marks the matrix unfactored again;
 * the inline set/add/get accessors do not touch the flag.
 *
 * Backends: COSROD_LINALG_OWN (hand-written, default) or COSROD_LINALG_LAPACK
 * (LAPACKE dgetrf/dgetrs, zgetrf/zgetrs).  The backend used for factor is
 * remembered, and solve always uses the same one. */
#ifndef COSROD_DENSE_H
#define COSROD_DENSE_H

#include "cosrod/export.h"

#include <stdio.h>

#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which implementation factorises and solves. */
typedef enum cosrod_linalg_backend {
  COSROD_LINALG_OWN = 0,   /* hand-written LU with partial pivoting */
  COSROD_LINALG_LAPACK = 1 /* LAPACKE ?gbtrf/?gbtrs or ?getrf/?getrs */
} cosrod_linalg_backend;

/* Name of a backend ("own", "lapack"); never NULL. */
COSROD_API const char *cosrod_linalg_backend_name(cosrod_linalg_backend backend);

/* ------------------------------------------------------------------------ */
/* Real dense n x n matrix. */
typedef struct cosrod_dense {
  int n;                         /* order (n >= 1) */
  double *data;                  /* (n x n) column-major, A(i,j) = data[i + j*n] */
  int *ipiv;                     /* (n) pivot rows; internal, valid when factored */
  int factored;                  /* 1 after a successful factorisation */
  int factored_by;               /* backend used by the last factorisation */
  int singular_col;              /* 0-based column of a zero pivot, or -1 */
  cosrod_linalg_backend backend; /* backend for the next factorisation */
} cosrod_dense;

/* Allocate an n x n zero matrix (backend OWN).  NULL if n < 1 (ERR_INVALID)
 * or out of memory (ERR_NOMEM); status and cosrod_last_error() as in status.h. */
COSROD_API cosrod_dense *cosrod_dense_create(int n, cosrod_status *status);
COSROD_API void cosrod_dense_free(cosrod_dense *A);

static inline double cosrod_dense_get(const cosrod_dense *A, int i, int j) { return A->data[i + j * A->n]; }
static inline void cosrod_dense_set(cosrod_dense *A, int i, int j, double v) { A->data[i + j * A->n] = v; }
static inline void cosrod_dense_add(cosrod_dense *A, int i, int j, double v) { A->data[i + j * A->n] += v; }
/* Pointer to column j (n entries). */
static inline double *cosrod_dense_col(cosrod_dense *A, int j) { return A->data + (size_t)j * (size_t)A->n; }

/* Backend (COSROD_LINALG_OWN or LAPACK) of the next factorisation. */
COSROD_API cosrod_status cosrod_dense_set_backend(cosrod_dense *A, cosrod_linalg_backend backend);
/* A <- 0. */
COSROD_API void cosrod_dense_zero(cosrod_dense *A);
/* dst <- src (same n, else ERR_DIMENSION). */
COSROD_API cosrod_status cosrod_dense_copy(cosrod_dense *dst, const cosrod_dense *src);
/* A <- c*A + d*I. */
COSROD_API void cosrod_dense_scale_add_identity(cosrod_dense *A, double c, double d);
/* A <- c*A + d*M  (M the same order, else ERR_DIMENSION). */
COSROD_API cosrod_status cosrod_dense_scale_add(cosrod_dense *A, double c, double d, const cosrod_dense *M);
/* E <- a*A + b*M; M == NULL means the identity.  E may alias A (not M).
 * Typical use: cosrod_dense_set_combination(E, -1.0, J, gamma / h, M). */
COSROD_API cosrod_status cosrod_dense_set_combination(cosrod_dense *E, double a, const cosrod_dense *A, double b,
                                                      const cosrod_dense *M);
/* y <- alpha*A*x + beta*y on an unfactored A (ERR_INVALID if factored).
 * x, y: (n), must not alias; beta == 0 ignores the old y (may hold NaN). */
COSROD_API cosrod_status cosrod_dense_gemv(const cosrod_dense *A, double alpha, const double *x, double beta, double *y);
/* y <- A*x. */
COSROD_API cosrod_status cosrod_dense_matvec(const cosrod_dense *A, const double *x, double *y);
/* Infinity norm (max row sum of |a_ij|) of an unfactored A. */
COSROD_API double cosrod_dense_norm_inf(const cosrod_dense *A);
/* LU with partial pivoting, in place.  ERR_SINGULAR on an exactly zero pivot
 * (singular_col says where; the factors are then not usable; re-assemble
 * before refactoring), ERR_NONFINITE if a NaN/Inf entry was met (OWN) or the
 * factors contain NaN/Inf (LAPACK). */
COSROD_API cosrod_status cosrod_dense_factor(cosrod_dense *A);
/* Solve A x = b in place (b: (n), overwritten by x).  ERR_INVALID if A is not factored. */
COSROD_API cosrod_status cosrod_dense_solve(const cosrod_dense *A, double *b);
/* Solve A X = B in place; B is (n x nrhs) column-major with leading dimension ldb >= n. */
COSROD_API cosrod_status cosrod_dense_solve_multi(const cosrod_dense *A, int nrhs, double *B, int ldb);
/* Print entries (or the LU factors, if factored) for debugging. */
COSROD_API void cosrod_dense_print(const cosrod_dense *A, FILE *f);

/* ------------------------------------------------------------------------ */
/* Complex dense n x n matrix (C11 double _Complex, interleaved re/im). */
typedef struct cosrod_zdense {
  int n;
  double _Complex *data; /* (n x n) column-major, A(i,j) = data[i + j*n] */
  double _Complex *work; /* (n) internal workspace for the split solves */
  int *ipiv;             /* (n) internal */
  int factored;
  int factored_by;
  int singular_col;
  cosrod_linalg_backend backend;
} cosrod_zdense;

/* Complex dense n x n matrix; NULL as for cosrod_dense_create.  _free releases it. */
COSROD_API cosrod_zdense *cosrod_zdense_create(int n, cosrod_status *status);
COSROD_API void cosrod_zdense_free(cosrod_zdense *A);

static inline double _Complex cosrod_zdense_get(const cosrod_zdense *A, int i, int j) {
  return A->data[i + j * A->n];
}
static inline void cosrod_zdense_set(cosrod_zdense *A, int i, int j, double _Complex v) {
  A->data[i + j * A->n] = v;
}
static inline void cosrod_zdense_add(cosrod_zdense *A, int i, int j, double _Complex v) {
  A->data[i + j * A->n] += v;
}

/* Backend of the next factorisation; A <- 0; dst <- src (same size). */
COSROD_API cosrod_status cosrod_zdense_set_backend(cosrod_zdense *A, cosrod_linalg_backend backend);
COSROD_API void cosrod_zdense_zero(cosrod_zdense *A);
COSROD_API cosrod_status cosrod_zdense_copy(cosrod_zdense *dst, const cosrod_zdense *src);
/* Z <- a*A + b*M with complex scalars and REAL matrices A, M (M == NULL: identity).
 * RADAU5: cosrod_zdense_set_combination(Z, -1.0, J, (alpha + I*beta) / h, M). */
COSROD_API cosrod_status cosrod_zdense_set_combination(cosrod_zdense *Z, double _Complex a, const cosrod_dense *A,
                                                       double _Complex b, const cosrod_dense *M);
/* y <- A*x (unfactored A; x, y: (n), no aliasing). */
COSROD_API cosrod_status cosrod_zdense_matvec(const cosrod_zdense *A, const double _Complex *x, double _Complex *y);
COSROD_API double cosrod_zdense_norm_inf(const cosrod_zdense *A);
COSROD_API cosrod_status cosrod_zdense_factor(cosrod_zdense *A);
/* Solve in place, b: (n) complex. */
COSROD_API cosrod_status cosrod_zdense_solve(const cosrod_zdense *A, double _Complex *b);
/* Solve in place with the right-hand side split into real and imaginary
 * parts re, im: (n) each (uses the internal workspace; no allocation). */
COSROD_API cosrod_status cosrod_zdense_solve_split(cosrod_zdense *A, double *re, double *im);
/* B: (n x nrhs) complex column-major, ldb >= n. */
COSROD_API cosrod_status cosrod_zdense_solve_multi(const cosrod_zdense *A, int nrhs, double _Complex *B, int ldb);
COSROD_API void cosrod_zdense_print(const cosrod_zdense *A, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_DENSE_H */
