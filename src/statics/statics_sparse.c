// SPDX-License-Identifier: Apache-2.0
/* Sparse tangent of the statics solver for loads coupling distant vertices
 * (rod-rod and self-contact; statics_coupling.h).  The rods' own stiffness
 * stays in the narrow band s->J; the coupling blocks outside it are kept
 * as triplets, and each factorisation assembles J = band + triplets in
 * compressed columns and factors it by KLU (cosrod/sparse.h).  The pattern
 * follows the active contact pairs: when it changes (a pair appears or
 * goes), the CSC matrix and KLU's symbolic analysis are rebuilt
 * (allocation outside the time loop: statics has none).
 * Stability index: KLU's pivots are those of an unsymmetric LU, not an
 * inertia, so the index on this path is the parity of the number of
 * negative real eigenvalues of K = -J, from the sign of det J (the
 * permutations' parities and the signs of U's diagonal,
 * cosrod_sparse_det_sign).  It changes exactly where an odd number of
 * eigenvalues crosses zero (a limit or simple bifurcation point); a double
 * eigenvalue crossing together is not seen. */
#include <stdlib.h>
#include <string.h>

#include "cosrod/sparse.h"
#include "statics/statics_coupling.h"
#include "statics/statics_internal.h"

struct statics_sparse {
  int n, nt, cap, bad;      /* order, triplets, capacity, 1: out of memory while adding */
  int *ti, *tj;             /* (cap) triplet rows, columns */
  double *tv;               /* (cap) values */
  int *cnt, *ord;           /* (n + 1) column counts, (cap) triplets ordered by column */
  int *cp, *ri, rcap;       /* (n + 1), (rcap) the assembled pattern */
  cosrod_sparse *A;         /* KLU matrix of the current pattern */
  int *work;                /* (n) */
  unsigned char *coupled;   /* (n) columns with out-of-band entries (finite differences) */
};

statics_sparse *statics_sparse_create(int n) {
  statics_sparse *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  p->cnt = calloc((size_t)n + 1, sizeof(int));
  p->cp = calloc((size_t)n + 1, sizeof(int));
  p->work = calloc((size_t)n, sizeof(int));
  p->coupled = calloc((size_t)n, 1);
  if (!p->cnt || !p->cp || !p->work || !p->coupled) {
    statics_sparse_free(p);
    return NULL;
  }
  return p;
}

void statics_sparse_free(statics_sparse *p) {
  if (!p) return;
  free(p->ti), free(p->tj), free(p->tv), free(p->cnt), free(p->ord), free(p->cp), free(p->ri);
  free(p->work), free(p->coupled);
  cosrod_sparse_free(p->A);
  free(p);
}

void statics_sparse_reset(statics_sparse *p) {
  p->nt = 0;
  p->bad = 0;
}

void statics_sparse_add(statics_sparse *p, int i, int j, double v) {
  if (p->nt == p->cap) {
    int cap = p->cap ? 2 * p->cap : 256;
    int *ti = realloc(p->ti, (size_t)cap * sizeof(int)), *tj = ti ? realloc(p->tj, (size_t)cap * sizeof(int)) : NULL;
    if (ti) p->ti = ti;
    if (tj) p->tj = tj;
    double *tv = tj ? realloc(p->tv, (size_t)cap * sizeof(double)) : NULL;
    if (tv) p->tv = tv;
    int *ord = tv ? realloc(p->ord, (size_t)cap * sizeof(int)) : NULL;
    if (!ord) {
      p->bad = 1;
      return;
    }
    p->ord = ord, p->cap = cap;
  }
  p->ti[p->nt] = i, p->tj[p->nt] = j, p->tv[p->nt] = v;
  p->nt++;
}

/* Triplets ordered by (column, row) into ord, counts per column in cnt
 * (prefix sums: column j's at ord[cnt[j] .. cnt[j + 1])). */
static void order_triplets(statics_sparse *p) {
  const int n = p->n;
  memset(p->cnt, 0, sizeof(int) * ((size_t)n + 1));
  for (int k = 0; k < p->nt; ++k) p->cnt[p->tj[k] + 1]++;
  for (int j = 0; j < n; ++j) p->cnt[j + 1] += p->cnt[j];
  memcpy(p->work, p->cnt, sizeof(int) * (size_t)n);
  for (int k = 0; k < p->nt; ++k) p->ord[p->work[p->tj[k]]++] = k;
  for (int j = 0; j < n; ++j) /* insertion sort by row (a column has few) */
    for (int a = p->cnt[j] + 1; a < p->cnt[j + 1]; ++a) {
      int k = p->ord[a], b = a - 1;
      while (b >= p->cnt[j] && p->ti[p->ord[b]] > p->ti[k]) p->ord[b + 1] = p->ord[b], --b;
      p->ord[b + 1] = k;
    }
}

/* Row i as the next entry nnz of the pattern (pass 1 writes, noting a change). */
static void emit(statics_sparse *p, int pass, int *nnz, int i, int *changed) {
  if (pass) {
    if (p->ri[*nnz] != i) *changed = 1;
    p->ri[*nnz] = i;
  }
  ++*nnz;
}

/* The pattern of band(J) ∪ triplets into cp / ri (rows ascending per
 * column); 1 if it differs from the previous one (or there was none), -1
 * when out of memory. */
static int build_pattern(statics_sparse *p, const cosrod_band *J) {
  const int n = p->n;
  int changed = p->A == NULL, nnz = 0;
  for (int pass = 0; pass < 2; ++pass) {
    nnz = 0;
    for (int j = 0; j < n; ++j) {
      const int lo = j - J->mu < 0 ? 0 : j - J->mu, hi = j + J->ml > n - 1 ? n - 1 : j + J->ml;
      int a = p->cnt[j], last = -1;
      const int e = p->cnt[j + 1];
      if (pass) changed |= p->cp[j] != nnz, p->cp[j] = nnz;
      for (; a < e && p->ti[p->ord[a]] < lo; ++a)
        if (p->ti[p->ord[a]] != last) last = p->ti[p->ord[a]], emit(p, pass, &nnz, last, &changed);
      for (int i = lo; i <= hi; ++i) emit(p, pass, &nnz, i, &changed);
      for (last = hi; a < e; ++a)
        if (p->ti[p->ord[a]] > last) last = p->ti[p->ord[a]], emit(p, pass, &nnz, last, &changed);
    }
    if (!pass && nnz > p->rcap) {
      int *ri = realloc(p->ri, (size_t)nnz * sizeof(int));
      if (!ri) return -1;
      p->ri = ri;
      for (int k = p->rcap; k < nnz; ++k) ri[k] = -1;
      p->rcap = nnz;
      changed = 1;
    }
  }
  changed |= p->cp[n] != nnz;
  p->cp[n] = nnz;
  return changed;
}

cosrod_status statics_sparse_factor(statics_sparse *p, const cosrod_band *J) {
  if (p->bad) return COSROD_ERR_NOMEM;
  order_triplets(p);
  const int ch = build_pattern(p, J);
  if (ch < 0) return COSROD_ERR_NOMEM;
  if (ch) {
    cosrod_sparse_free(p->A);
    cosrod_status st = COSROD_OK;
    p->A = cosrod_sparse_create(p->n, p->cp, p->ri, &st);
    if (!p->A) return st;
  }
  cosrod_sparse *A = p->A;
  for (int j = 0; j < p->n; ++j) {
    int a = p->cnt[j];
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; ++k) {
      const int i = A->rowind[k];
      double v = cosrod_band_in_band(J, i, j) ? cosrod_band_get(J, i, j) : 0.0;
      while (a < p->cnt[j + 1] && p->ti[p->ord[a]] == i) v += p->tv[p->ord[a++]];
      A->data[k] = v;
    }
  }
  return cosrod_sparse_factor(A);
}

void statics_sparse_solve(statics_sparse *p, double *b) { cosrod_sparse_solve(p->A, b); }

int statics_sparse_det_negative(statics_sparse *p) {
  const int sg = cosrod_sparse_det_sign(p->A, p->work);
  if (sg == 0) return -1;
  return ((sg < 0) ^ (p->n % 2)) ? 1 : 0; /* det K = (-1)^n det J */
}

/* Columns with out-of-band triplets (the current ones) into coupled. */
void statics_sparse_mark_coupled(statics_sparse *p) {
  memset(p->coupled, 0, (size_t)p->n);
  for (int k = 0; k < p->nt; ++k) p->coupled[p->tj[k]] = 1;
}

int statics_sparse_is_coupled(const statics_sparse *p, int j) { return p->coupled[j]; }

long statics_sparse_nnz(const statics_sparse *p) { return p->A ? p->A->nnz : 0; }
