// SPDX-License-Identifier: Apache-2.0
/* Sparse CSC matrices, their LU by SuiteSparse KLU (factor once with
 * pivoting, then refactor with the kept pivot order) and the
 * Curtis-Powell-Reid column grouping for finite differences; see
 * include/cosrod/sparse.h. */
#include "cosrod/sparse.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef COSROD_HAVE_KLU
#include <klu.h>

#include "linalg/klu_lazy.h" /* last: redirects the KLU calls */

struct cosrod_sparse_lu {
  klu_common common;
  klu_symbolic *sym;
  klu_numeric *num;
};
#else
struct cosrod_sparse_lu {
  int unused;
};
#endif

int cosrod_sparse_available(void) {
#ifdef COSROD_HAVE_KLU
  return klu_lazy_usable(); /* (does not load KLU: cosrod_sparse_create does) */
#else
  return 0;
#endif
}

int cosrod_sparse_pattern_check(int n, const int *colptr, const int *rowind) {
  if (n < 1 || !colptr || colptr[0] != 0) return 1;
  for (int j = 0; j < n; j++) {
    if (colptr[j + 1] < colptr[j]) return j + 1;
    for (int k = colptr[j]; k < colptr[j + 1]; k++) {
      if (!rowind || rowind[k] < 0 || rowind[k] >= n) return j + 1;
      if (k > colptr[j] && rowind[k] <= rowind[k - 1]) return j + 1;
    }
  }
  return 0;
}

void cosrod_sparse_free(cosrod_sparse *A) {
  if (!A) return;
#ifdef COSROD_HAVE_KLU
  if (A->lu) {
    if (A->lu->num && A->is_complex) klu_z_free_numeric(&A->lu->num, &A->lu->common);
    if (A->lu->num) klu_free_numeric(&A->lu->num, &A->lu->common);
    if (A->lu->sym) klu_free_symbolic(&A->lu->sym, &A->lu->common);
  }
#endif
  free(A->lu);
  free(A->colptr);
  free(A->rowind);
  free(A->data);
  free(A);
}

static cosrod_sparse *create(int n, const int *colptr, const int *rowind, int cplx, cosrod_status *status);

cosrod_sparse *cosrod_sparse_create(int n, const int *colptr, const int *rowind, cosrod_status *status) {
  return create(n, colptr, rowind, 0, status);
}

cosrod_sparse *cosrod_sparse_create_complex(int n, const int *colptr, const int *rowind, cosrod_status *status) {
  return create(n, colptr, rowind, 1, status);
}

static cosrod_sparse *create(int n, const int *colptr, const int *rowind, int cplx, cosrod_status *status) {
  const char *fn = cplx ? "cosrod_sparse_create_complex" : "cosrod_sparse_create";
  cosrod_error_clear();
#ifndef COSROD_HAVE_KLU
  (void)n, (void)colptr, (void)rowind;
  return cosrod_error_fail(status, COSROD_ERR_UNSUPPORTED, "%s: built without KLU (SuiteSparse)", fn);
#else
  char why[600];
  if (klu_lazy_load(why, sizeof why) != 0) return cosrod_error_fail(status, COSROD_ERR_UNSUPPORTED, "%s: %s", fn, why);
  int bad = cosrod_sparse_pattern_check(n, colptr, rowind);
  if (bad != 0)
    return cosrod_error_fail(status, COSROD_ERR_INVALID,
                             "%s: invalid CSC pattern at column %d (n = %d; colptr[0] = 0, non-decreasing, rows "
                             "in [0, n) strictly ascending per column)",
                             fn, bad - 1, n);
  cosrod_sparse *A = calloc(1, sizeof *A);
  if (!A) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "%s: out of memory (n = %d)", fn, n);
  A->n = n;
  A->nnz = colptr[n];
  A->is_complex = cplx;
  size_t nz = A->nnz > 0 ? (size_t)A->nnz : 1;
  A->colptr = malloc((size_t)(n + 1) * sizeof *A->colptr);
  A->rowind = malloc(nz * sizeof *A->rowind);
  A->data = calloc(cplx ? 2 * nz : nz, sizeof *A->data);
  A->lu = calloc(1, sizeof *A->lu);
  if (!A->colptr || !A->rowind || !A->data || !A->lu) {
    cosrod_sparse_free(A);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "%s: out of memory (n = %d, nnz = %d)", fn, n, colptr[n]);
  }
  memcpy(A->colptr, colptr, (size_t)(n + 1) * sizeof *A->colptr);
  if (A->nnz > 0) memcpy(A->rowind, rowind, (size_t)A->nnz * sizeof *A->rowind);
  klu_defaults(&A->lu->common);
  /* the symbolic analysis (BTF, AMD ordering) depends on the pattern only */
  A->lu->sym = klu_analyze(n, A->colptr, A->rowind, &A->lu->common);
  if (!A->lu->sym) {
    int kst = A->lu->common.status;
    cosrod_sparse_free(A);
    return cosrod_error_fail(status, kst == KLU_OUT_OF_MEMORY ? COSROD_ERR_NOMEM : COSROD_ERR_INTERNAL,
                             "%s: KLU symbolic analysis failed (KLU status %d)", fn, kst);
  }
  if (status) *status = COSROD_OK;
  return A;
#endif
}

int cosrod_sparse_find(const cosrod_sparse *A, int i, int j) {
  if (!A || j < 0 || j >= A->n) return -1;
  int lo = A->colptr[j], hi = A->colptr[j + 1] - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (A->rowind[mid] == i) return mid;
    if (A->rowind[mid] < i)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

cosrod_status cosrod_sparse_factor(cosrod_sparse *A) {
  if (!A) return COSROD_ERR_INVALID;
  A->factored = 0;
#ifndef COSROD_HAVE_KLU
  return COSROD_ERR_UNSUPPORTED;
#else
  cosrod_sparse_lu *f = A->lu;
  klu_common *c = &f->common;
  if (f->num) {
    /* same pivot order: no allocation; refactor if it stays well conditioned */
    int ok = A->is_complex ? klu_z_refactor(A->colptr, A->rowind, A->data, f->sym, f->num, c)
                           : klu_refactor(A->colptr, A->rowind, A->data, f->sym, f->num, c);
    A->nrefactor++;
    int rc_ok = ok && c->status == KLU_OK &&
                (A->is_complex ? klu_z_rcond(f->sym, f->num, c) : klu_rcond(f->sym, f->num, c));
    if (rc_ok && c->rcond > 3.7e-11) { /* uround^(2/3) */
      A->factored = 1;
      return COSROD_OK;
    }
    if (A->is_complex)
      klu_z_free_numeric(&f->num, c);
    else
      klu_free_numeric(&f->num, c);
  }
  c->status = KLU_OK;
  f->num = A->is_complex ? klu_z_factor(A->colptr, A->rowind, A->data, f->sym, c)
                         : klu_factor(A->colptr, A->rowind, A->data, f->sym, c);
  A->nfactor++;
  if (!f->num) return c->status == KLU_OUT_OF_MEMORY ? COSROD_ERR_NOMEM : COSROD_ERR_SINGULAR;
  if (c->status != KLU_OK) { /* KLU_SINGULAR with halt_if_singular off: keep nothing */
    if (A->is_complex)
      klu_z_free_numeric(&f->num, c);
    else
      klu_free_numeric(&f->num, c);
    return COSROD_ERR_SINGULAR;
  }
  A->factored = 1;
  return COSROD_OK;
#endif
}

#ifdef COSROD_HAVE_KLU
/* Parity of a permutation (n) by its cycles: 1 if odd.  work (n). */
static int perm_odd(const int *p, int n, int *work) {
  int odd = 0;
  for (int i = 0; i < n; ++i) work[i] = 0;
  for (int i = 0; i < n; ++i) {
    if (work[i]) continue;
    int len = 0;
    for (int j = i; !work[j]; j = p[j]) work[j] = 1, ++len;
    odd ^= (len - 1) & 1; /* a cycle of length m is m - 1 transpositions */
  }
  return odd;
}
#endif

int cosrod_sparse_det_sign(const cosrod_sparse *A, int *work) {
#ifndef COSROD_HAVE_KLU
  (void)A, (void)work;
  return 0;
#else
  if (!A || !A->factored || A->is_complex || !A->lu->num) return 0;
  const klu_numeric *num = A->lu->num;
  const double *u = num->Udiag;
  int neg = perm_odd(num->Pnum, A->n, work) ^ perm_odd(A->lu->sym->Q, A->n, work);
  for (int j = 0; j < A->n; ++j) {
    if (u[j] == 0.0 || !isfinite(u[j])) return 0;
    if (u[j] < 0.0) neg ^= 1;
  }
  return neg ? -1 : 1;
#endif
}

cosrod_status cosrod_sparse_solve(cosrod_sparse *A, double *b) {
  if (!A || !A->factored) return COSROD_ERR_INVALID;
#ifndef COSROD_HAVE_KLU
  (void)b;
  return COSROD_ERR_UNSUPPORTED;
#else
  cosrod_sparse_lu *f = A->lu;
  int ok = A->is_complex ? klu_z_solve(f->sym, f->num, A->n, 1, b, &f->common)
                         : klu_solve(f->sym, f->num, A->n, 1, b, &f->common);
  return ok ? COSROD_OK : COSROD_ERR_SINGULAR;
#endif
}

void cosrod_sparse_matvec(const cosrod_sparse *A, const double *x, double *y) {
  memset(y, 0, (size_t)A->n * sizeof *y);
  for (int j = 0; j < A->n; j++) {
    const double xj = x[j];
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; k++) y[A->rowind[k]] += A->data[k] * xj;
  }
}

int cosrod_sparse_colour(int n, const int *colptr, const int *rowind, int *colour) {
  const int nnz = colptr[n];
  /* row-wise pattern: the columns of each row */
  int *rowptr = calloc((size_t)n + 1, sizeof *rowptr);
  int *colind = malloc((nnz > 0 ? (size_t)nnz : 1) * sizeof *colind);
  int *next = malloc((size_t)n * sizeof *next);
  int *stamp = malloc((size_t)n * sizeof *stamp); /* stamp[c] == j: colour c is taken by a neighbour of j */
  if (!rowptr || !colind || !next || !stamp) {
    free(rowptr), free(colind), free(next), free(stamp);
    return -1;
  }
  for (int k = 0; k < nnz; k++) rowptr[rowind[k] + 1]++;
  for (int i = 0; i < n; i++) rowptr[i + 1] += rowptr[i];
  memcpy(next, rowptr, (size_t)n * sizeof *next);
  for (int j = 0; j < n; j++)
    for (int k = colptr[j]; k < colptr[j + 1]; k++) colind[next[rowind[k]]++] = j;
  for (int c = 0; c < n; c++) stamp[c] = -1;
  int ncol = 0;
  for (int j = 0; j < n; j++) {
    /* columns sharing a row with j and coloured already (k < j) forbid their colour */
    for (int k = colptr[j]; k < colptr[j + 1]; k++) {
      const int i = rowind[k];
      for (int m = rowptr[i]; m < rowptr[i + 1] && colind[m] < j; m++) stamp[colour[colind[m]]] = j;
    }
    int c = 0;
    while (stamp[c] == j) c++;
    colour[j] = c;
    if (c + 1 > ncol) ncol = c + 1;
  }
  free(rowptr), free(colind), free(next), free(stamp);
  return ncol;
}
