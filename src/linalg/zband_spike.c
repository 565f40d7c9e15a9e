// SPDX-License-Identifier: Apache-2.0
/* Partitioned banded solver (SPIKE), complex; see include/cosrod/band_spike.h.
 *
 * The algorithm, the partitioning (block sizes inversely proportional to the
 * per-row costs), the end-block corners through a "UL" factorisation of the
 * last block, the reduced system and the fallback rule are those of the real
 * solver in band_spike.c (Sameh & Kuck, J. ACM 25 (1978); Polizzi & Sameh,
 * Parallel Computing 32 (2006) §2), whose header comment gives the formulas.
 * Here every block is a cosrod_zband (own or LAPACK complex band LU) and the
 * sweeps run on interleaved (re, im) pairs with the multiplications written
 * out (no library calls for complex products or quotients; the back sweep
 * multiplies by the LU's stored reciprocal pivots when they are safe, as
 * zband.c).  Spike growth is measured in |re| + |im| (the pivoting measure),
 * which bounds the modulus from above. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band_spike.h"
#include "core/error.h"
#include "core/par.h"
#include "linalg/linalg_internal.h"

#define SPIKE_GROWTH_MAX 6.7108864e7 /* 2^26 = 1/sqrt(DBL_EPSILON), as band_spike.c */

typedef double complex zc;

typedef struct zspike_part {
  int off, n, kind; /* kind 0 first (LU), 1 inner (LU, full spikes), 2 last (flipped LU) */
  cosrod_zband *F;  /* factors of A_i (kinds 0, 1) or of J A_i J (kind 2) */
  zc *V, *W;        /* kind 1: n x ku and n x kl spikes, column-major */
  zc *corner;       /* kind 0: V^B (kl x ku); kind 2: W^T (ku x kl) */
  zc *y, *g;        /* (n) */
  cosrod_status st;
  double growth;
} zspike_part;

struct cosrod_zband_spike {
  int n, kl, ku, p, nthreads;
  zspike_part *part;
  cosrod_zband *R; /* reduced system */
  zc *z;           /* (R->n) */
  zc *rhs;         /* (n) interleaved right-hand side of solve_split */
  cosrod_zband *A;
  int factored, fallback;
  double growth;
};

/* ---- sweeps on LU factors in zgbtrf layout -------------------------------- */

static int zpiv_base(const cosrod_zband *F) { return F->factored_by == COSROD_LINALG_LAPACK ? 1 : 0; }

/* b <- L^{-1} P b over the columns j >= j0 (as band_spike.c's sweep_fwd). */
static void zsweep_fwd(const cosrod_zband *F, zc *bz, int j0) {
  const int n = F->n, ml = F->ml, base = zpiv_base(F);
  if (ml == 0) return;
  double *b = (double *)bz;
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
static void zsweep_bwd(const cosrod_zband *F, zc *bz, int r1) {
  const int smu = F->smu, use_rd = F->factored_by == COSROD_LINALG_OWN && F->rdiag_ok;
  double *b = (double *)bz;
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

/* ---- create / free ------------------------------------------------------ */

static double zcost_end(int kl, int ku) { return (double)kl * (kl + ku) + 1.0; }
static double zcost_inner(int kl, int ku) {
  return (double)kl * (kl + ku) + (double)ku * (kl + ku) + (double)kl * (2 * kl + ku) + 1.0;
}

static int zspike_layout(int n, int kl, int ku, int p, int *sz) {
  const double we = 1.0 / zcost_end(kl, ku), wi = 1.0 / zcost_inner(kl, ku);
  const double tot = 2.0 * we + (p - 2) * wi;
  int used = 0;
  for (int i = 0; i < p; ++i) {
    const double w = (i == 0 || i == p - 1) ? we : wi;
    sz[i] = i == p - 1 ? n - used : (int)floor((double)n * w / tot + 0.5);
    used += sz[i];
    if (sz[i] < kl + ku + 1) return 0;
  }
  return 1;
}

void cosrod_zband_spike_free(cosrod_zband_spike *S) {
  if (!S) return;
  if (S->part)
    for (int i = 0; i < S->p; ++i) {
      zspike_part *q = &S->part[i];
      cosrod_zband_free(q->F);
      free(q->V);
      free(q->W);
      free(q->corner);
      free(q->y);
      free(q->g);
    }
  free(S->part);
  cosrod_zband_free(S->R);
  free(S->z);
  free(S->rhs);
  free(S);
}

static int zpart_alloc(zspike_part *q, int kl, int ku) {
  const size_t n = (size_t)q->n;
  q->F = q->kind == 2 ? cosrod_zband_create(q->n, ku, kl, NULL) : cosrod_zband_create(q->n, kl, ku, NULL);
  q->g = calloc(n, sizeof(zc));
  if (!q->F || !q->g) return 0;
  if (q->kind == 1) {
    q->V = malloc(n * (size_t)(ku > 0 ? ku : 1) * sizeof(zc));
    q->W = malloc(n * (size_t)(kl > 0 ? kl : 1) * sizeof(zc));
    return q->V && q->W;
  }
  q->y = malloc(n * sizeof(zc));
  q->corner = malloc((size_t)(kl > 0 ? kl : 1) * (size_t)(ku > 0 ? ku : 1) * sizeof(zc));
  return q->y && q->corner;
}

cosrod_zband_spike *cosrod_zband_spike_create(int n, int ml, int mu, int partitions, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || ml < 0 || mu < 0 || partitions < 1)
    return cosrod_error_fail(status, COSROD_ERR_INVALID,
                             "cosrod_zband_spike_create: n = %d, ml = %d, mu = %d, partitions = %d: need n >= 1, "
                             "ml >= 0, mu >= 0, partitions >= 1",
                             n, ml, mu, partitions);
  const int kl = imin(ml, n - 1), ku = imin(mu, n - 1);
  int p = kl + ku == 0 ? 1 : partitions;
  int *sz = malloc((size_t)p * sizeof(int));
  cosrod_zband_spike *S = calloc(1, sizeof *S);
  if (!sz || !S) {
    free(sz);
    free(S);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zband_spike_create: out of memory");
  }
  while (p > 1 && !zspike_layout(n, kl, ku, p, sz)) --p;
  S->n = n, S->kl = kl, S->ku = ku, S->p = p, S->nthreads = 1;
  S->rhs = malloc((size_t)n * sizeof(zc));
  int ok = S->rhs != NULL;
  if (ok && p > 1) {
    S->part = calloc((size_t)p, sizeof(zspike_part));
    const int nr = (p - 1) * (kl + ku);
    S->R = cosrod_zband_create(nr, 2 * kl + ku, kl + 2 * ku, NULL);
    S->z = malloc((size_t)nr * sizeof(zc));
    ok = S->part && S->R && S->z;
    for (int i = 0, off = 0; ok && i < p; off += sz[i], ++i) {
      zspike_part *q = &S->part[i];
      q->off = off;
      q->n = sz[i];
      q->kind = i == 0 ? 0 : (i == p - 1 ? 2 : 1);
      ok = zpart_alloc(q, kl, ku);
    }
  }
  free(sz);
  if (!ok) {
    cosrod_zband_spike_free(S);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zband_spike_create: out of memory (n = %d)", n);
  }
  if (status) *status = COSROD_OK;
  return S;
}

cosrod_status cosrod_zband_spike_set_threads(cosrod_zband_spike *S, int nthreads) {
  if (!S || nthreads < 1) return COSROD_ERR_INVALID;
  S->nthreads = nthreads;
  return COSROD_OK;
}

int cosrod_zband_spike_partitions(const cosrod_zband_spike *S) { return S ? S->p : 0; }
int cosrod_zband_spike_fell_back(const cosrod_zband_spike *S) { return S ? S->fallback : 0; }
double cosrod_zband_spike_growth(const cosrod_zband_spike *S) { return S ? S->growth : 0.0; }

/* ---- factor --------------------------------------------------------------- */

typedef struct zspike_ctx {
  cosrod_zband_spike *S;
  const cosrod_zband *A;
  zc *b;
} zspike_ctx;

static zc zcoup_b(const zspike_ctx *x, const zspike_part *q, int r, int c) {
  return c > r ? 0.0 : cosrod_zband_get(x->A, q->off + q->n - x->S->ku + r, q->off + q->n + c);
}
static zc zcoup_c(const zspike_ctx *x, const zspike_part *q, int r, int c) {
  return r > c ? 0.0 : cosrod_zband_get(x->A, q->off + r, q->off - x->S->kl + c);
}

/* F <- A_i (kinds 0, 1) or J A_i J (kind 2), as band_spike.c's part_load. */
static void zpart_load(const cosrod_zband *A, zspike_part *q, int kl, int ku) {
  cosrod_zband *F = q->F;
  F->backend = A->backend;
  F->factored = 0;
  F->singular_col = -1;
  const int n = q->n;
  const size_t ld = (size_t)F->ld;
  if (q->kind != 2) {
    memcpy(F->data, A->data + (size_t)q->off * ld, (size_t)n * ld * sizeof(zc));
    for (int c = 0; c < imin(ku, n); ++c)
      for (int d = -ku; d < -c; ++d) cosrod_zband_col(F, c)[d] = 0.0;
    for (int c = imax(0, n - kl); c < n; ++c)
      for (int d = n - c; d <= kl; ++d) cosrod_zband_col(F, c)[d] = 0.0;
    return;
  }
  for (int c = 0; c < n; ++c) {
    zc *f = F->data + (size_t)(n - 1 - c) * ld;
    memset(f, 0, (size_t)F->ml * sizeof(zc));
    f += F->smu;
    const zc *a = A->data + (size_t)(q->off + c) * (size_t)A->ld + (size_t)(kl + ku);
    const int lo = -imin(kl, n - 1 - c), hi = imin(ku, c);
    for (int d = -F->mu; d < lo; ++d) f[d] = 0.0;
    for (int d = lo; d <= hi; ++d) f[d] = a[-d];
    for (int d = hi + 1; d <= F->ml; ++d) f[d] = 0.0;
  }
}

static double zmax_abs(const zc *x, size_t m) {
  double a = 0.0;
  for (size_t k = 0; k < m; ++k) {
    const double v = lin_cabs1((const double *)(x + k));
    if (!(v <= a)) a = v; /* NaN propagates */
  }
  return a;
}

static double zpart_spikes(const zspike_ctx *x, zspike_part *q) {
  const int n = q->n, kl = x->S->kl, ku = x->S->ku;
  const cosrod_zband *F = q->F;
  zc *e = q->g;
  if (q->kind == 0) { /* bottom kl rows of V_0 */
    const int r0 = imax(0, n - ku - kl);
    for (int c = 0; c < ku; ++c) {
      memset(e + r0, 0, (size_t)(n - r0) * sizeof(zc));
      for (int r = 0; r < ku; ++r) e[n - ku + r] = zcoup_b(x, q, r, c);
      zsweep_fwd(F, e, r0);
      zsweep_bwd(F, e, n - kl);
      for (int r = 0; r < kl; ++r) q->corner[r + (size_t)c * kl] = e[n - kl + r];
    }
    return zmax_abs(q->corner, (size_t)kl * ku);
  }
  if (q->kind == 2) { /* top ku rows of W_{p-1}, through F = J A J */
    const int r0 = imax(0, n - kl - ku);
    for (int c = 0; c < kl; ++c) {
      memset(e + r0, 0, (size_t)(n - r0) * sizeof(zc));
      for (int r = 0; r < kl; ++r) e[n - 1 - r] = zcoup_c(x, q, r, c);
      zsweep_fwd(F, e, r0);
      zsweep_bwd(F, e, n - ku);
      for (int r = 0; r < ku; ++r) q->corner[r + (size_t)c * ku] = e[n - 1 - r];
    }
    return zmax_abs(q->corner, (size_t)kl * ku);
  }
  for (int c = 0; c < ku; ++c) {
    zc *v = q->V + (size_t)c * n;
    memset(v, 0, (size_t)n * sizeof(zc));
    for (int r = 0; r < ku; ++r) v[n - ku + r] = zcoup_b(x, q, r, c);
    zsweep_fwd(F, v, n - ku - kl);
    zsweep_bwd(F, v, 0);
  }
  for (int c = 0; c < kl; ++c) {
    zc *w = q->W + (size_t)c * n;
    memset(w, 0, (size_t)n * sizeof(zc));
    for (int r = 0; r < kl; ++r) w[r] = zcoup_c(x, q, r, c);
    zsweep_fwd(F, w, 0);
    zsweep_bwd(F, w, 0);
  }
  return fmax(zmax_abs(q->V, (size_t)n * ku), zmax_abs(q->W, (size_t)n * kl));
}

static void zfactor_blocks(void *ctx, int i0, int i1) {
  const zspike_ctx *x = ctx;
  for (int i = i0; i < i1; ++i) {
    zspike_part *q = &x->S->part[i];
    zpart_load(x->A, q, x->S->kl, x->S->ku);
    q->growth = 0.0;
    q->st = cosrod_zband_factor(q->F);
    if (q->st == COSROD_OK) q->growth = zpart_spikes(x, q);
  }
}

static int zpos_b(const cosrod_zband_spike *S, int i) { return i * (S->kl + S->ku); }
static int zpos_t(const cosrod_zband_spike *S, int i) { return (i - 1) * (S->kl + S->ku) + S->kl; }

/* which = 0 V^B, 1 W^B, 2 W^T, 3 V^T of block i; entry (r, c). */
static zc zcorner(const cosrod_zband_spike *S, int i, int which, int r, int c) {
  const zspike_part *q = &S->part[i];
  const int n = q->n, kl = S->kl, ku = S->ku;
  if (q->kind == 0) return q->corner[r + (size_t)c * kl];
  if (q->kind == 2) return q->corner[r + (size_t)c * ku];
  switch (which) {
  case 0: return q->V[(size_t)(n - kl + r) + (size_t)c * n];
  case 1: return q->W[(size_t)(n - kl + r) + (size_t)c * n];
  case 2: return q->W[(size_t)r + (size_t)c * n];
  default: return q->V[(size_t)r + (size_t)c * n];
  }
}

static void zreduced_assemble(cosrod_zband_spike *S) {
  cosrod_zband *R = S->R;
  const int p = S->p, kl = S->kl, ku = S->ku;
  cosrod_zband_zero(R);
  for (int k = 0; k < R->n; ++k) cosrod_zband_set(R, k, k, 1.0);
  for (int i = 0; i < p; ++i) {
    if (i <= p - 2)
      for (int r = 0; r < kl; ++r) {
        const int row = zpos_b(S, i) + r;
        for (int c = 0; c < ku; ++c) cosrod_zband_set(R, row, zpos_t(S, i + 1) + c, zcorner(S, i, 0, r, c));
        if (i >= 1)
          for (int c = 0; c < kl; ++c) cosrod_zband_set(R, row, zpos_b(S, i - 1) + c, zcorner(S, i, 1, r, c));
      }
    if (i >= 1)
      for (int r = 0; r < ku; ++r) {
        const int row = zpos_t(S, i) + r;
        for (int c = 0; c < kl; ++c) cosrod_zband_set(R, row, zpos_b(S, i - 1) + c, zcorner(S, i, 2, r, c));
        if (i <= p - 2)
          for (int c = 0; c < ku; ++c) cosrod_zband_set(R, row, zpos_t(S, i + 1) + c, zcorner(S, i, 3, r, c));
      }
  }
}

static cosrod_status zspike_fallback(cosrod_zband_spike *S, cosrod_zband *A) {
  S->fallback = 1;
  const cosrod_status st = cosrod_zband_factor(A);
  S->factored = st == COSROD_OK;
  return st;
}

cosrod_status cosrod_zband_spike_factor(cosrod_zband_spike *S, cosrod_zband *A) {
  if (!S || !A || A->factored) return COSROD_ERR_INVALID;
  if (A->n != S->n || A->ml != S->kl || A->mu != S->ku) return COSROD_ERR_DIMENSION;
  S->A = A;
  S->factored = S->fallback = 0;
  S->growth = 0.0;
  if (S->p == 1) return zspike_fallback(S, A);
  zspike_ctx x = {S, A, NULL};
  cosrod_par_for(S->nthreads, S->p, zfactor_blocks, &x);
  int ok = 1;
  for (int i = 0; i < S->p; ++i) {
    const zspike_part *q = &S->part[i];
    if (q->st == COSROD_ERR_INTERRUPTED) return q->st;
    ok &= q->st == COSROD_OK && q->growth <= SPIKE_GROWTH_MAX; /* false for NaN */
    if (q->st == COSROD_OK && !(q->growth <= S->growth)) S->growth = q->growth;
  }
  if (!ok) return zspike_fallback(S, A);
  zreduced_assemble(S);
  S->R->backend = COSROD_LINALG_OWN;
  if (cosrod_zband_factor(S->R) != COSROD_OK) return zspike_fallback(S, A);
  S->factored = 1;
  return COSROD_OK;
}

/* ---- solve ------------------------------------------------------------------ */

static void zsolve_blocks(void *ctx, int i0, int i1) {
  const zspike_ctx *x = ctx;
  const int kl = x->S->kl, ku = x->S->ku;
  for (int i = i0; i < i1; ++i) {
    zspike_part *q = &x->S->part[i];
    const int n = q->n;
    const zc *b = x->b + q->off;
    if (q->kind == 1) {
      memcpy(q->g, b, (size_t)n * sizeof(zc));
      cosrod_zband_solve(q->F, q->g);
      continue;
    }
    if (q->kind == 0)
      memcpy(q->y, b, (size_t)n * sizeof(zc));
    else
      for (int r = 0; r < n; ++r) q->y[r] = b[n - 1 - r];
    zsweep_fwd(q->F, q->y, 0);
    const int keep = q->kind == 0 ? kl : ku, lo = imax(0, n - keep - q->F->smu);
    memcpy(q->g + lo, q->y + lo, (size_t)(n - lo) * sizeof(zc));
    zsweep_bwd(q->F, q->g, n - keep);
  }
}

static void zrecover_blocks(void *ctx, int i0, int i1) {
  const zspike_ctx *x = ctx;
  const cosrod_zband_spike *S = x->S;
  const int kl = S->kl, ku = S->ku;
  for (int i = i0; i < i1; ++i) {
    zspike_part *q = &S->part[i];
    const int n = q->n;
    zc *b = x->b + q->off;
    if (q->kind == 1) {
      const zc *xt = S->z + zpos_t(S, i + 1), *xb = S->z + zpos_b(S, i - 1);
      memcpy(b, q->g, (size_t)n * sizeof(zc));
      for (int c = 0; c < ku; ++c)
        lin_zaxpy_sub(n, creal(xt[c]), cimag(xt[c]), (const double *)(q->V + (size_t)c * n), (double *)b);
      for (int c = 0; c < kl; ++c)
        lin_zaxpy_sub(n, creal(xb[c]), cimag(xb[c]), (const double *)(q->W + (size_t)c * n), (double *)b);
      continue;
    }
    zc *d = q->g;
    const int r0 = imax(0, n - kl - ku);
    memset(d + r0, 0, (size_t)(n - r0) * sizeof(zc));
    if (q->kind == 0) {
      const zc *xt = S->z + zpos_t(S, 1);
      for (int r = 0; r < ku; ++r)
        for (int c = 0; c <= r; ++c) d[n - ku + r] += zcoup_b(x, q, r, c) * xt[c];
    } else {
      const zc *xb = S->z + zpos_b(S, S->p - 2);
      for (int r = 0; r < kl; ++r)
        for (int c = r; c < kl; ++c) d[n - 1 - r] += zcoup_c(x, q, r, c) * xb[c];
    }
    zsweep_fwd(q->F, d, r0);
    for (int k = r0; k < n; ++k) q->y[k] -= d[k];
    zsweep_bwd(q->F, q->y, 0);
    if (q->kind == 0)
      memcpy(b, q->y, (size_t)n * sizeof(zc));
    else
      for (int r = 0; r < n; ++r) b[r] = q->y[n - 1 - r];
  }
}

cosrod_status cosrod_zband_spike_solve(cosrod_zband_spike *S, double complex *b) {
  if (!S || !b || !S->factored) return COSROD_ERR_INVALID;
  if (S->fallback || S->p == 1) return cosrod_zband_solve(S->A, b);
  zspike_ctx x = {S, S->A, b};
  cosrod_par_for(S->nthreads, S->p, zsolve_blocks, &x);
  for (int i = 0; i < S->p; ++i) {
    const zspike_part *q = &S->part[i];
    const int n = q->n;
    if (i <= S->p - 2)
      for (int r = 0; r < S->kl; ++r) S->z[zpos_b(S, i) + r] = q->g[n - S->kl + r];
    if (i >= 1)
      for (int r = 0; r < S->ku; ++r) S->z[zpos_t(S, i) + r] = q->kind == 2 ? q->g[n - 1 - r] : q->g[r];
  }
  cosrod_zband_solve(S->R, S->z);
  cosrod_par_for(S->nthreads, S->p, zrecover_blocks, &x);
  return COSROD_OK;
}

cosrod_status cosrod_zband_spike_solve_split(cosrod_zband_spike *S, double *re, double *im) {
  if (!S || !re || !im || !S->factored) return COSROD_ERR_INVALID;
  double *w = (double *)S->rhs;
  for (int i = 0; i < S->n; ++i) w[2 * i] = re[i], w[2 * i + 1] = im[i];
  const cosrod_status st = cosrod_zband_spike_solve(S, S->rhs);
  for (int i = 0; i < S->n; ++i) re[i] = w[2 * i], im[i] = w[2 * i + 1];
  return st;
}
