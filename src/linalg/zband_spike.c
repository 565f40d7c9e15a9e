// SPDX-License-Identifier: Apache-2.0
/* Partitioned banded solver (SPIKE), complex; see include/cosrod/band_spike.h.
 *
 * The algorithm, the partitioning, the end-block corners through a "UL"
 * factorisation of the last block, the reduced system and the fallback rule
 * are the partition driver's in spike_core.c (Sameh & Kuck, J. ACM 25
 * (1978); Polizzi & Sameh, Parallel Computing 32 (2006) §2), whose header
 * comment gives the formulas.  Here are the complex element kernels: every
 * block is a cosrod_zband (own or LAPACK complex band LU) and the sweeps run
 * on interleaved (re, im) pairs with the multiplications written out (no
 * library calls for complex products or quotients; the back sweep multiplies
 * by the LU's stored reciprocal pivots when they are safe, as zband.c).
 * Spike growth is measured in |re| + |im| (the pivoting measure), which
 * bounds the modulus from above. */
#include <complex.h>
#include <stdlib.h>

#include "core/error.h"
#include "cosrod/band_spike.h"
#include "linalg/linalg_internal.h"
#include "linalg/spike_core.h"

typedef double complex zc;

struct cosrod_zband_spike {
  spike_core c;
  zc *rhs; /* (n) interleaved right-hand side of solve_split */
};

/* ---- sweeps on LU factors in zgbtrf layout -------------------------------- */

static int zpiv_base(const cosrod_zband *F) { return F->factored_by == COSROD_LINALG_LAPACK ? 1 : 0; }

/* b <- L^{-1} P b over the columns j >= j0 (as band_spike.c's sweep_fwd). */
static void zsweep_fwd(const void *Fv, void *bz, int j0) {
  const cosrod_zband *F = Fv;
  const int n = F->n, ml = F->ml, base = zpiv_base(F);
  if (ml == 0) return;
  double *b = bz;
  for (int j = imax(j0, 0); j < n - 1; ++j) {
    const double *cj = (const double *)(F->data + (size_t)j * (size_t)F->ld + F->smu);
    const int pv = F->ipiv[j] - base;
    const double tr = b[2 * pv], ti = b[2 * pv + 1];
    if (pv != j) {
      b[2 * pv] = b[2 * j], b[2 * pv + 1] = b[2 * j + 1];
      b[2 * j] = tr, b[2 * j + 1] = ti;
    }
    if (tr == 0.0 && ti == 0.0) continue;
    const int km = imin(ml, n - 1 - j);
    double *bj = b + 2 * j;
    for (int i = 1; i <= km; ++i) {
      const double lr = cj[2 * i], li = cj[2 * i + 1];
      bj[2 * i] -= lr * tr - li * ti;
      bj[2 * i + 1] -= lr * ti + li * tr;
    }
  }
}

/* b <- U^{-1} b, rows n-1 down to r1 only. */
static void zsweep_bwd(const void *Fv, void *bz, int r1) {
  const cosrod_zband *F = Fv;
  const int smu = F->smu, use_rd = F->factored_by == COSROD_LINALG_OWN && F->rdiag_ok;
  double *b = bz;
  const double *rd = (const double *)F->rdiag;
  for (int j = F->n - 1; j >= imax(r1, 0); --j) {
    const double *cj = (const double *)(F->data + (size_t)j * (size_t)F->ld + smu);
    double tr, ti;
    if (use_rd) {
      tr = b[2 * j] * rd[2 * j] - b[2 * j + 1] * rd[2 * j + 1];
      ti = b[2 * j] * rd[2 * j + 1] + b[2 * j + 1] * rd[2 * j];
    } else {
      lin_cdiv(b[2 * j], b[2 * j + 1], cj[0], cj[1], &tr, &ti);
    }
    b[2 * j] = tr, b[2 * j + 1] = ti;
    if (tr == 0.0 && ti == 0.0) continue;
    const int km = imin(smu, j);
    for (int i = 1; i <= km; ++i) {
      const double ur = cj[-2 * i], ui = cj[-2 * i + 1];
      b[2 * (j - i)] -= ur * tr - ui * ti;
      b[2 * (j - i) + 1] -= ur * ti + ui * tr;
    }
  }
}

static double zmax_abs(const void *xv, size_t m) {
  const zc *x = xv;
  double a = 0.0;
  for (size_t k = 0; k < m; ++k) {
    const double v = lin_cabs1((const double *)(x + k));
    if (!(v <= a)) a = v; /* NaN propagates */
  }
  return a;
}

/* ---- the remaining kernels: the zband API on void pointers ---- */

static void *zop_create(int n, int ml, int mu) { return cosrod_zband_create(n, ml, mu, NULL); }
static void zop_destroy(void *F) { cosrod_zband_free(F); }
static cosrod_status zop_factor(void *F) { return cosrod_zband_factor(F); }
static cosrod_status zop_factor_own(void *R) {
  ((cosrod_zband *)R)->backend = COSROD_LINALG_OWN;
  return cosrod_zband_factor(R);
}
static cosrod_status zop_solve(const void *F, void *b) { return cosrod_zband_solve(F, b); }
static void zop_zero(void *R) { cosrod_zband_zero(R); }
static spike_band zop_view(const void *Fv) {
  const cosrod_zband *F = Fv;
  return (spike_band){(char *)F->data, F->n, F->ml, F->mu, F->smu, F->ld};
}
static void zop_reset(void *Fv, const void *Av) {
  cosrod_zband *F = Fv;
  F->backend = ((const cosrod_zband *)Av)->backend;
  F->factored = 0;
  F->singular_col = -1;
}
static void zop_axpy_sub(int m, const void *t, const void *x, void *y) {
  const zc tz = *(const zc *)t;
  lin_zaxpy_sub(m, creal(tz), cimag(tz), x, y);
}
static void zop_sub(int m, const void *dv, void *yv) {
  const zc *d = dv;
  zc *y = yv;
  for (int k = 0; k < m; ++k) y[k] -= d[k];
}
static void zop_madd(void *d, const void *a, const void *x) { *(zc *)d += *(const zc *)a * *(const zc *)x; }

static const zc zone = 1.0;
static const spike_ops complex_ops = {.es = sizeof(zc),
                                      .one = &zone,
                                      .create = zop_create,
                                      .destroy = zop_destroy,
                                      .factor = zop_factor,
                                      .factor_own = zop_factor_own,
                                      .solve = zop_solve,
                                      .zero = zop_zero,
                                      .view = zop_view,
                                      .reset = zop_reset,
                                      .sweep_fwd = zsweep_fwd,
                                      .sweep_bwd = zsweep_bwd,
                                      .max_abs = zmax_abs,
                                      .axpy_sub = zop_axpy_sub,
                                      .sub = zop_sub,
                                      .madd = zop_madd};

/* ---- the public API ---- */

void cosrod_zband_spike_free(cosrod_zband_spike *S) {
  if (!S) return;
  spike_core_release(&S->c);
  free(S->rhs);
  free(S);
}

cosrod_zband_spike *cosrod_zband_spike_create(int n, int ml, int mu, int partitions, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || ml < 0 || mu < 0 || partitions < 1)
    return cosrod_error_fail(
        status, COSROD_ERR_INVALID,
        "cosrod_zband_spike_create: n = %d, ml = %d, mu = %d, partitions = %d: need n >= 1, "
        "ml >= 0, mu >= 0, partitions >= 1",
        n, ml, mu, partitions);
  cosrod_zband_spike *S = calloc(1, sizeof *S);
  if (!S) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zband_spike_create: out of memory");
  S->rhs = malloc((size_t)n * sizeof(zc));
  if (!S->rhs || spike_core_init(&S->c, &complex_ops, n, ml, mu, partitions) != COSROD_OK) {
    free(S->rhs);
    free(S);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zband_spike_create: out of memory (n = %d)",
                             n);
  }
  if (status) *status = COSROD_OK;
  return S;
}

cosrod_status cosrod_zband_spike_set_threads(cosrod_zband_spike *S, int nthreads) {
  if (!S || nthreads < 1) return COSROD_ERR_INVALID;
  S->c.nthreads = nthreads;
  return COSROD_OK;
}

int cosrod_zband_spike_partitions(const cosrod_zband_spike *S) { return S ? S->c.p : 0; }
int cosrod_zband_spike_fell_back(const cosrod_zband_spike *S) { return S ? S->c.fallback : 0; }
double cosrod_zband_spike_growth(const cosrod_zband_spike *S) { return S ? S->c.growth : 0.0; }

cosrod_status cosrod_zband_spike_factor(cosrod_zband_spike *S, cosrod_zband *A) {
  if (!S || !A || A->factored) return COSROD_ERR_INVALID;
  if (A->n != S->c.n || A->ml != S->c.kl || A->mu != S->c.ku) return COSROD_ERR_DIMENSION;
  return spike_core_factor(&S->c, A);
}

cosrod_status cosrod_zband_spike_solve(cosrod_zband_spike *S, double complex *b) {
  if (!S || !b || !S->c.factored) return COSROD_ERR_INVALID;
  return spike_core_solve(&S->c, b);
}

cosrod_status cosrod_zband_spike_solve_split(cosrod_zband_spike *S, double *re, double *im) {
  if (!S || !re || !im || !S->c.factored) return COSROD_ERR_INVALID;
  double *w = (double *)S->rhs;
  for (int i = 0; i < S->c.n; ++i) w[2 * i] = re[i], w[2 * i + 1] = im[i];
  const cosrod_status st = cosrod_zband_spike_solve(S, S->rhs);
  for (int i = 0; i < S->c.n; ++i) re[i] = w[2 * i], im[i] = w[2 * i + 1];
  return st;
}
