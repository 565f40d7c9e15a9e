// SPDX-License-Identifier: Apache-2.0
/* Partitioned banded solver (SPIKE), real; see include/cosrod/band_spike.h.
 * The algorithm and its partition driver are in spike_core.c (Sameh & Kuck,
 * J. ACM 25 (1978); Polizzi & Sameh, Parallel Computing 32 (2006) §2); here
 * are the real element kernels: the sweeps on the band LU factors and the
 * block load. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "cosrod/band_spike.h"
#include "linalg/linalg_internal.h"
#include "linalg/spike_core.h"

struct cosrod_band_spike {
  spike_core c;
};

/* ---- sweeps on LU factors in dgbtrf layout (own or LAPACK pivots) ---- */

static int piv_base(const cosrod_band *F) { return F->factored_by == COSROD_LINALG_LAPACK ? 1 : 0; }

/* b <- L^{-1} P b over the columns j >= j0 (b zero in rows < j0 + kl, or the
 * earlier columns done already). */
static void sweep_fwd(const void *Fv, void *bv, int j0) {
  const cosrod_band *F = Fv;
  double *b = bv;
  const int n = F->n, ml = F->ml, base = piv_base(F);
  if (ml == 0) return;
  for (int j = imax(j0, 0); j < n - 1; ++j) {
    const double *cj = F->data + (size_t)j * (size_t)F->ld + F->smu;
    const int pv = F->ipiv[j] - base;
    double t = b[pv];
    if (pv != j) {
      b[pv] = b[j];
      b[j] = t;
    }
    if (t == 0.0) continue;
    const int km = imin(ml, n - 1 - j);
    for (int i = 1; i <= km; ++i) b[j + i] -= cj[i] * t;
  }
}

/* b <- U^{-1} b, rows n-1 down to r1 only (rows >= r1 are then final). */
static void sweep_bwd(const void *Fv, void *bv, int r1) {
  const cosrod_band *F = Fv;
  double *b = bv;
  const int smu = F->smu;
  for (int j = F->n - 1; j >= imax(r1, 0); --j) {
    const double *cj = F->data + (size_t)j * (size_t)F->ld + smu;
    const double t = b[j] / cj[0];
    b[j] = t;
    if (t == 0.0) continue;
    const int km = imin(smu, j);
    for (int i = 1; i <= km; ++i) b[j - i] -= cj[-i] * t;
  }
}

static double max_abs(const void *xv, size_t m) {
  const double *x = xv;
  double a = 0.0;
  for (size_t k = 0; k < m; ++k) {
    const double v = fabs(x[k]);
    if (!(v <= a)) a = v; /* NaN propagates */
  }
  return a;
}

/* ---- the remaining kernels: the band API on void pointers ---- */

static void *op_create(int n, int ml, int mu) { return cosrod_band_create(n, ml, mu, NULL); }
static void op_destroy(void *F) { cosrod_band_free(F); }
static cosrod_status op_factor(void *F) { return cosrod_band_factor(F); }
static cosrod_status op_factor_own(void *R) {
  ((cosrod_band *)R)->backend = COSROD_LINALG_OWN;
  return cosrod_band_factor(R);
}
static cosrod_status op_solve(const void *F, void *b) { return cosrod_band_solve(F, b); }
static void op_zero(void *R) { cosrod_band_zero(R); }
static spike_band op_view(const void *Fv) {
  const cosrod_band *F = Fv;
  return (spike_band){(char *)F->data, F->n, F->ml, F->mu, F->smu, F->ld};
}
static void op_reset(void *Fv, const void *Av) {
  cosrod_band *F = Fv;
  F->backend = ((const cosrod_band *)Av)->backend;
  F->factored = 0;
  F->singular_col = -1;
}
static void op_axpy_sub(int m, const void *t, const void *x, void *y) {
  lin_axpy_sub(m, *(const double *)t, x, y);
}
static void op_sub(int m, const void *dv, void *yv) {
  const double *d = dv;
  double *y = yv;
  for (int k = 0; k < m; ++k) y[k] -= d[k];
}
static void op_madd(void *d, const void *a, const void *x) {
  *(double *)d += *(const double *)a * *(const double *)x;
}

static const double one = 1.0;
static const spike_ops real_ops = {.es = sizeof(double),
                                   .one = &one,
                                   .create = op_create,
                                   .destroy = op_destroy,
                                   .factor = op_factor,
                                   .factor_own = op_factor_own,
                                   .solve = op_solve,
                                   .zero = op_zero,
                                   .view = op_view,
                                   .reset = op_reset,
                                   .sweep_fwd = sweep_fwd,
                                   .sweep_bwd = sweep_bwd,
                                   .max_abs = max_abs,
                                   .axpy_sub = op_axpy_sub,
                                   .sub = op_sub,
                                   .madd = op_madd};

/* ---- the public API ---- */

void cosrod_band_spike_free(cosrod_band_spike *S) {
  if (!S) return;
  spike_core_release(&S->c);
  free(S);
}

cosrod_band_spike *cosrod_band_spike_create(int n, int ml, int mu, int partitions, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || ml < 0 || mu < 0 || partitions < 1)
    return cosrod_error_fail(
        status, COSROD_ERR_INVALID,
        "cosrod_band_spike_create: n = %d, ml = %d, mu = %d, partitions = %d: need n >= 1, "
        "ml >= 0, mu >= 0, partitions >= 1",
        n, ml, mu, partitions);
  cosrod_band_spike *S = calloc(1, sizeof *S);
  if (!S) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_band_spike_create: out of memory");
  if (spike_core_init(&S->c, &real_ops, n, ml, mu, partitions) != COSROD_OK) {
    free(S);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_band_spike_create: out of memory (n = %d)", n);
  }
  if (status) *status = COSROD_OK;
  return S;
}

cosrod_status cosrod_band_spike_set_threads(cosrod_band_spike *S, int nthreads) {
  if (!S || nthreads < 1) return COSROD_ERR_INVALID;
  S->c.nthreads = nthreads;
  return COSROD_OK;
}

int cosrod_band_spike_partitions(const cosrod_band_spike *S) { return S ? S->c.p : 0; }
int cosrod_band_spike_fell_back(const cosrod_band_spike *S) { return S ? S->c.fallback : 0; }
double cosrod_band_spike_growth(const cosrod_band_spike *S) { return S ? S->c.growth : 0.0; }
int cosrod_band_spike_block(const cosrod_band_spike *S, int i, int *first_row) {
  return S ? spike_core_block(&S->c, i, first_row) : 0;
}

cosrod_status cosrod_band_spike_factor(cosrod_band_spike *S, cosrod_band *A) {
  if (!S || !A || A->factored) return COSROD_ERR_INVALID;
  if (A->n != S->c.n || A->ml != S->c.kl || A->mu != S->c.ku) return COSROD_ERR_DIMENSION;
  return spike_core_factor(&S->c, A);
}

cosrod_status cosrod_band_spike_solve(cosrod_band_spike *S, double *b) {
  if (!S || !b || !S->c.factored) return COSROD_ERR_INVALID;
  return spike_core_solve(&S->c, b);
}
