// SPDX-License-Identifier: Apache-2.0
/* Sparse matrices in compressed sparse column (CSC) form and their direct
 * solution by SuiteSparse KLU (module linalg; for rods attached to bodies in
 * general topologies, where the coupled band is wide).
 *
 * Storage: n x n, nnz = colptr[n] stored entries; the rows of column j are
 * rowind[colptr[j] .. colptr[j + 1] - 1], strictly ascending, values in
 * data at the same positions.  The pattern is fixed at _create (copied);
 * entries outside it are zero.  The struct fields are public for fast
 * assembly; treat everything but `data` as read-only.
 *
 * LU (KLU: block triangular form, AMD ordering, partial pivoting with
 * threshold): the first cosrod_sparse_factor analyses the pattern and
 * factors; later calls refactor with the same pivot sequence (no
 * allocation) and fall back to a new pivoting factorisation when the
 * refactored U is badly conditioned (KLU's cheap rcond estimate
 * min |u_jj| / max |u_jj| below uround^(2/3)), which allocates again; both
 * are counted.  The factorisation is kept apart from `data`, so the matrix
 * entries survive factor and matvec stays valid.
 *
 * Without KLU at build time (cosrod_sparse_available() == 0) _create
 * returns NULL and sets nothing else; the CSC helpers still work.
 * _free(NULL) is a no-op. */
#ifndef COSROD_SPARSE_H
#define COSROD_SPARSE_H

#include "cosrod/export.h"

#include <stddef.h>

#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cosrod_sparse_lu cosrod_sparse_lu; /* KLU objects (private) */

typedef struct cosrod_sparse {
  int n;          /* order */
  int nnz;        /* stored entries = colptr[n] */
  int *colptr;    /* (n + 1) */
  int *rowind;    /* (nnz) */
  double *data;   /* (nnz) values, (2 nnz) interleaved re, im when complex */
  int is_complex; /* 1: complex values, data (2 nnz) interleaved (re, im) per entry */
  int factored;   /* 1 after a successful factorisation of the current data */
  long nfactor;   /* pivoting factorisations (klu_factor) */
  long nrefactor; /* refactorisations with the kept pivot order (klu_refactor) */
  cosrod_sparse_lu *lu;
} cosrod_sparse;

/* 1 if KLU was built in. */
COSROD_API int cosrod_sparse_available(void);
/* Check a CSC pattern (colptr[0] = 0, non-decreasing, rows in [0, n) strictly
 * ascending per column): 0 if valid, else the first bad column + 1. */
COSROD_API int cosrod_sparse_pattern_check(int n, const int *colptr, const int *rowind);
/* Allocate an n x n matrix with the pattern (copied; values zero).  NULL if
 * the pattern is invalid (ERR_INVALID, the message names the column), KLU is
 * absent (ERR_UNSUPPORTED) or out of memory (ERR_NOMEM); status and
 * cosrod_last_error() as in status.h. */
COSROD_API cosrod_sparse *cosrod_sparse_create(int n, const int *colptr, const int *rowind, cosrod_status *status);
/* The same with complex values (KLU's klu_z_*: data and the right-hand
 * sides of solve interleaved, (re, im) per entry). */
COSROD_API cosrod_sparse *cosrod_sparse_create_complex(int n, const int *colptr, const int *rowind,
                                                      cosrod_status *status);
COSROD_API void cosrod_sparse_free(cosrod_sparse *A);
/* Position of entry (i, j) in rowind / data (binary search), -1 if not stored. */
COSROD_API int cosrod_sparse_find(const cosrod_sparse *A, int i, int j);
/* LU of the current data (see above).  COSROD_ERR_SINGULAR for a (numerically)
 * singular matrix, COSROD_ERR_NOMEM. */
COSROD_API cosrod_status cosrod_sparse_factor(cosrod_sparse *A);
/* Solve A x = b in place (b: (n), complex: (2n) interleaved); needs a successful factor. */
COSROD_API cosrod_status cosrod_sparse_solve(cosrod_sparse *A, double *b);
/* Sign of det A (real matrices) from the last successful factorisation:
 * det(P) det(Q) prod sign(U_jj) of KLU's P R⁻¹ A Q = L U (the row scales R
 * are positive, L has a unit diagonal).  +1 or -1; 0 if A is not factored,
 * complex, or a pivot is zero.  work: (n) ints. */
COSROD_API int cosrod_sparse_det_sign(const cosrod_sparse *A, int *work);
/* y (n) <- A x (n) with the stored data (not the LU; real matrices only); x, y must not alias. */
COSROD_API void cosrod_sparse_matvec(const cosrod_sparse *A, const double *x, double *y);

/* Curtis-Powell-Reid grouping of the columns for finite differences: a
 * greedy colouring in which no two columns of one colour share a row, so
 * that one evaluation of f per colour gives all the columns of that colour
 * (Curtis, Powell & Reid 1974).  colour (n) receives 0 .. ncolours - 1;
 * returns ncolours, or -1 when out of memory (it allocates the row-wise
 * pattern temporarily: call it at set-up, not in a time loop). */
COSROD_API int cosrod_sparse_colour(int n, const int *colptr, const int *rowind, int *colour);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_SPARSE_H */
