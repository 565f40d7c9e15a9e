// SPDX-License-Identifier: Apache-2.0
/* Partitioned banded solver (SPIKE), real; see include/cosrod/band_spike.h.
 *
 * Written from the published descriptions: A. H. Sameh, D. J. Kuck, J. ACM
 * 25 (1978) 81-91, and E. Polizzi, A. H. Sameh, Parallel Computing 32
 * (2006) 177-194, "A parallel hybrid banded system solver: the SPIKE
 * algorithm", §2.  With kl = ml, ku = mu and the diagonal blocks A_i
 * (n_i rows), A = D S with D = diag(A_i) and S the identity plus the spikes
 *     V_i = A_i^{-1} [0; B_i]   (n_i x ku, B_i = A(last ku rows of i, first ku columns of i+1)),
 *     W_i = A_i^{-1} [C_i; 0]   (n_i x kl, C_i = A(first kl rows of i, last kl columns of i-1)).
 * Block row i of S x = g = D^{-1} b reads
 *     x_i + V_i x_{i+1}^T + W_i x_{i-1}^B = g_i,
 * x^T the first ku and x^B the last kl entries of a block.  Its first ku and
 * last kl rows form the reduced system in the interface unknowns
 *     z = [x_0^B, x_1^T, x_1^B, ..., x_{p-2}^B, x_{p-1}^T]   (order (p-1)(kl+ku)),
 * solved here with the band LU with partial pivoting; then
 * x_i = g_i - V_i x_{i+1}^T - W_i x_{i-1}^B for the inner blocks.
 *
 * The two end blocks need only one corner of one spike: block 0 the bottom
 * kl rows of V_0, block p-1 the top ku rows of W_{p-1}.  As in Polizzi-Sameh
 * §2.2, block 0 is factorised A_0 = P L U and block p-1 as A_{p-1} = J (P L U) J
 * (J the reversal, i.e. a "UL" factorisation): each corner then costs
 * O((kl+ku)^3), a forward sweep over the last kl+ku rows and a backward
 * sweep stopped after kl (ku) rows, and the end blocks are recovered by
 * re-solving with the corrected right-hand side, of which only the last
 * kl+ku rows of the forward sweep change.  So with two partitions SPIKE
 * does the flops of one global LU; an inner block costs
 *     kl(kl+ku) [LU] + ku(kl+ku) [V: backward] + kl(2kl+ku) [W]
 * multiply-adds per row, 3.5x the LU's kl(kl+ku) for kl = ku.  The block
 * sizes are chosen inversely proportional to these costs.
 *
 * Stability: no pivoting across blocks, so each A_i must be non-singular.
 * Block LU is stable when the spikes are bounded (Demmel, Higham,
 * Schreiber, "Stability of block LU factorization", Numer. Linear Algebra
 * Appl. 2 (1995)): the error of the interface unknowns is amplified by at
 * most ~max|spike| over that of the global LU.  We accept spikes up to
 * SPIKE_GROWTH_MAX = 1/sqrt(eps) (at most half of the digits at risk) and
 * otherwise, or when a block or the reduced system is singular or not
 * finite, factorise A globally with partial pivoting instead. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band_spike.h"
#include "core/error.h"
#include "core/par.h"
#include "linalg/linalg_internal.h"

#define SPIKE_GROWTH_MAX 6.7108864e7 /* 2^26 = 1/sqrt(DBL_EPSILON) */

typedef struct spike_part {
  int off, n;      /* first row and rows of the block */
  int kind;        /* 0 first (LU), 1 inner (LU, full spikes), 2 last (flipped LU) */
  cosrod_band *F;  /* factors of A_i (kind 0, 1) or of J A_i J (kind 2) */
  double *V, *W;   /* kind 1: n x ku and n x kl spikes, column-major */
  double *corner;  /* kind 0: V^B (kl x ku); kind 2: W^T (ku x kl), column-major */
  double *y, *g;   /* (n) forward-swept b (kinds 0, 2) and g */
  cosrod_status st;
  double growth;
} spike_part;

struct cosrod_band_spike {
  int n, kl, ku, p, nthreads;
  spike_part *part;
  cosrod_band *R; /* reduced system */
  double *z;      /* (R->n) */
  cosrod_band *A; /* matrix of the last factor() */
  int factored, fallback;
  double growth;
};

/* ---- sweeps on LU factors in dgbtrf layout (own or LAPACK pivots) ---- */

static int piv_base(const cosrod_band *F) { return F->factored_by == COSROD_LINALG_LAPACK ? 1 : 0; }

/* b <- L^{-1} P b over the columns j >= j0 (b zero in rows < j0 + kl, or the
 * earlier columns done already). */
static void sweep_fwd(const cosrod_band *F, double *b, int j0) {
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
static void sweep_bwd(const cosrod_band *F, double *b, int r1) {
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

/* ---- create / free ----------------------------------------------------- */

/* Multiply-adds per row of the factor phase of an end / inner block. */
static double cost_end(int kl, int ku) { return (double)kl * (kl + ku) + 1.0; }
static double cost_inner(int kl, int ku) {
  return (double)kl * (kl + ku) + (double)ku * (kl + ku) + (double)kl * (2 * kl + ku) + 1.0;
}

/* Block sizes for p partitions, inversely proportional to the costs; 0 if
 * some block would have fewer than kl + ku + 1 rows. */
static int spike_layout(int n, int kl, int ku, int p, int *sz) {
  const double we = 1.0 / cost_end(kl, ku), wi = 1.0 / cost_inner(kl, ku);
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

void cosrod_band_spike_free(cosrod_band_spike *S) {
  if (!S) return;
  if (S->part)
    for (int i = 0; i < S->p; ++i) {
      spike_part *q = &S->part[i];
      cosrod_band_free(q->F);
      free(q->V);
      free(q->W);
      free(q->corner);
      free(q->y);
      free(q->g);
    }
  free(S->part);
  cosrod_band_free(S->R);
  free(S->z);
  free(S);
}

static int part_alloc(spike_part *q, int kl, int ku) {
  const size_t n = (size_t)q->n;
  q->F = q->kind == 2 ? cosrod_band_create(q->n, ku, kl, NULL) : cosrod_band_create(q->n, kl, ku, NULL);
  q->g = calloc(n, sizeof(double)); /* partial sweeps write (never read) rows below their range */
  if (!q->F || !q->g) return 0;
  if (q->kind == 1) {
    q->V = malloc(n * (size_t)(ku > 0 ? ku : 1) * sizeof(double));
    q->W = malloc(n * (size_t)(kl > 0 ? kl : 1) * sizeof(double));
    return q->V && q->W;
  }
  q->y = malloc(n * sizeof(double));
  q->corner = malloc((size_t)(kl > 0 ? kl : 1) * (size_t)(ku > 0 ? ku : 1) * sizeof(double));
  return q->y && q->corner;
}

cosrod_band_spike *cosrod_band_spike_create(int n, int ml, int mu, int partitions, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || ml < 0 || mu < 0 || partitions < 1)
    return cosrod_error_fail(status, COSROD_ERR_INVALID,
                             "cosrod_band_spike_create: n = %d, ml = %d, mu = %d, partitions = %d: need n >= 1, "
                             "ml >= 0, mu >= 0, partitions >= 1",
                             n, ml, mu, partitions);
  const int kl = imin(ml, n - 1), ku = imin(mu, n - 1);
  int p = kl + ku == 0 ? 1 : partitions;
  int *sz = malloc((size_t)p * sizeof(int));
  cosrod_band_spike *S = calloc(1, sizeof *S);
  if (!sz || !S) {
    free(sz);
    free(S);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_band_spike_create: out of memory");
  }
  while (p > 1 && !spike_layout(n, kl, ku, p, sz)) --p;
  S->n = n;
  S->kl = kl;
  S->ku = ku;
  S->p = p;
  S->nthreads = 1;
  int ok = 1;
  if (p > 1) {
    S->part = calloc((size_t)p, sizeof(spike_part));
    const int nr = (p - 1) * (kl + ku);
    S->R = cosrod_band_create(nr, 2 * kl + ku, kl + 2 * ku, NULL);
    S->z = malloc((size_t)nr * sizeof(double));
    ok = S->part && S->R && S->z;
    for (int i = 0, off = 0; ok && i < p; off += sz[i], ++i) {
      spike_part *q = &S->part[i];
      q->off = off;
      q->n = sz[i];
      q->kind = i == 0 ? 0 : (i == p - 1 ? 2 : 1);
      ok = part_alloc(q, kl, ku);
    }
  }
  free(sz);
  if (!ok) {
    cosrod_band_spike_free(S);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_band_spike_create: out of memory (n = %d)", n);
  }
  if (status) *status = COSROD_OK;
  return S;
}

cosrod_status cosrod_band_spike_set_threads(cosrod_band_spike *S, int nthreads) {
  if (!S || nthreads < 1) return COSROD_ERR_INVALID;
  S->nthreads = nthreads;
  return COSROD_OK;
}

int cosrod_band_spike_partitions(const cosrod_band_spike *S) { return S ? S->p : 0; }
int cosrod_band_spike_fell_back(const cosrod_band_spike *S) { return S ? S->fallback : 0; }
double cosrod_band_spike_growth(const cosrod_band_spike *S) { return S ? S->growth : 0.0; }

int cosrod_band_spike_block(const cosrod_band_spike *S, int i, int *first_row) {
  if (!S || i < 0 || i >= S->p) return 0;
  if (S->p == 1) {
    if (first_row) *first_row = 0;
    return S->n;
  }
  if (first_row) *first_row = S->part[i].off;
  return S->part[i].n;
}

/* ---- factor -------------------------------------------------------------- */

typedef struct spike_ctx {
  cosrod_band_spike *S;
  const cosrod_band *A;
  double *b;
} spike_ctx;

/* B_i(r, c) = A(last ku rows of block q, first ku columns after it): zero for c > r. */
static double coup_b(const spike_ctx *x, const spike_part *q, int r, int c) {
  return c > r ? 0.0 : cosrod_band_get(x->A, q->off + q->n - x->S->ku + r, q->off + q->n + c);
}
/* C_i(r, c) = A(first kl rows of block q, last kl columns before it): zero for r > c. */
static double coup_c(const spike_ctx *x, const spike_part *q, int r, int c) {
  return r > c ? 0.0 : cosrod_band_get(x->A, q->off + r, q->off - x->S->kl + c);
}

/* F <- A_i (kinds 0, 1: the same layout as A, one block copy, then the
 * coupling entries outside the block cleared) or J A_i J (kind 2: column
 * n-1-c of F is column c of A_i reversed). */
static void part_load(const cosrod_band *A, spike_part *q, int kl, int ku) {
  cosrod_band *F = q->F;
  F->backend = A->backend;
  F->factored = 0;
  F->singular_col = -1;
  const int n = q->n;
  const size_t ld = (size_t)F->ld;
  if (q->kind != 2) {
    memcpy(F->data, A->data + (size_t)q->off * ld, (size_t)n * ld * sizeof(double));
    for (int c = 0; c < imin(ku, n); ++c) /* rows above the block: i - j = -ku .. -c-1 */
      for (int d = -ku; d < -c; ++d) cosrod_band_col(F, c)[d] = 0.0;
    for (int c = imax(0, n - kl); c < n; ++c) /* rows below: i - j = n-c .. kl */
      for (int d = n - c; d <= kl; ++d) cosrod_band_col(F, c)[d] = 0.0;
    return;
  }
  for (int c = 0; c < n; ++c) {
    double *f = F->data + (size_t)(n - 1 - c) * ld;
    memset(f, 0, (size_t)F->ml * sizeof(double)); /* fill-in rows */
    f += F->smu;                                   /* f[d] = F(n-1-c+d, n-1-c) = A_i(c-d, c) */
    const double *a = A->data + (size_t)(q->off + c) * (size_t)A->ld + (size_t)(kl + ku);
    const int lo = -imin(kl, n - 1 - c), hi = imin(ku, c); /* F's d = -(A's i - j) */
    for (int d = -F->mu; d < lo; ++d) f[d] = 0.0;
    for (int d = lo; d <= hi; ++d) f[d] = a[-d];
    for (int d = hi + 1; d <= F->ml; ++d) f[d] = 0.0;
  }
}

static double max_abs(const double *x, size_t m) {
  double a = 0.0;
  for (size_t k = 0; k < m; ++k) {
    const double v = fabs(x[k]);
    if (!(v <= a)) a = v; /* NaN propagates */
  }
  return a;
}

/* The spikes (or the corner) of block q; returns max |entry|. */
static double part_spikes(const spike_ctx *x, spike_part *q) {
  const int n = q->n, kl = x->S->kl, ku = x->S->ku;
  const cosrod_band *F = q->F;
  double *e = q->g;
  if (q->kind == 0) { /* bottom kl rows of V_0 = A_0^{-1} [0; B_0] */
    const int r0 = imax(0, n - ku - kl);
    for (int c = 0; c < ku; ++c) {
      memset(e + r0, 0, (size_t)(n - r0) * sizeof(double));
      for (int r = 0; r < ku; ++r) e[n - ku + r] = coup_b(x, q, r, c);
      sweep_fwd(F, e, r0);
      sweep_bwd(F, e, n - kl);
      for (int r = 0; r < kl; ++r) q->corner[r + (size_t)c * kl] = e[n - kl + r];
    }
    return max_abs(q->corner, (size_t)kl * ku);
  }
  if (q->kind == 2) { /* top ku rows of W = A^{-1} [C; 0]; F = J A J, so J W = F^{-1} [0; J C] */
    const int r0 = imax(0, n - kl - ku);
    for (int c = 0; c < kl; ++c) {
      memset(e + r0, 0, (size_t)(n - r0) * sizeof(double));
      for (int r = 0; r < kl; ++r) e[n - 1 - r] = coup_c(x, q, r, c);
      sweep_fwd(F, e, r0);
      sweep_bwd(F, e, n - ku);
      for (int r = 0; r < ku; ++r) q->corner[r + (size_t)c * ku] = e[n - 1 - r];
    }
    return max_abs(q->corner, (size_t)kl * ku);
  }
  for (int c = 0; c < ku; ++c) { /* full V_i: forward sweep over the last kl + ku rows only */
    double *v = q->V + (size_t)c * n;
    memset(v, 0, (size_t)n * sizeof(double));
    for (int r = 0; r < ku; ++r) v[n - ku + r] = coup_b(x, q, r, c);
    sweep_fwd(F, v, n - ku - kl);
    sweep_bwd(F, v, 0);
  }
  for (int c = 0; c < kl; ++c) { /* full W_i */
    double *w = q->W + (size_t)c * n;
    memset(w, 0, (size_t)n * sizeof(double));
    for (int r = 0; r < kl; ++r) w[r] = coup_c(x, q, r, c);
    sweep_fwd(F, w, 0);
    sweep_bwd(F, w, 0);
  }
  return fmax(max_abs(q->V, (size_t)n * ku), max_abs(q->W, (size_t)n * kl));
}

static void factor_blocks(void *ctx, int i0, int i1) {
  const spike_ctx *x = ctx;
  for (int i = i0; i < i1; ++i) {
    spike_part *q = &x->S->part[i];
    part_load(x->A, q, x->S->kl, x->S->ku);
    q->growth = 0.0;
    q->st = cosrod_band_factor(q->F);
    if (q->st == COSROD_OK) q->growth = part_spikes(x, q);
  }
}

/* Interface positions in z: x_i^B (i <= p-2) and x_i^T (i >= 1). */
static int pos_b(const cosrod_band_spike *S, int i) { return i * (S->kl + S->ku); }
static int pos_t(const cosrod_band_spike *S, int i) { return (i - 1) * (S->kl + S->ku) + S->kl; }

/* Spike corners of block i: which = 0 V^B (kl x ku), 1 W^B (kl x kl),
 * 2 W^T (ku x kl), 3 V^T (ku x ku); entry (r, c). */
static double corner(const cosrod_band_spike *S, int i, int which, int r, int c) {
  const spike_part *q = &S->part[i];
  const int n = q->n, kl = S->kl, ku = S->ku;
  if (q->kind == 0) return q->corner[r + (size_t)c * kl]; /* V^B */
  if (q->kind == 2) return q->corner[r + (size_t)c * ku]; /* W^T */
  switch (which) {
  case 0: return q->V[(size_t)(n - kl + r) + (size_t)c * n];
  case 1: return q->W[(size_t)(n - kl + r) + (size_t)c * n];
  case 2: return q->W[(size_t)r + (size_t)c * n];
  default: return q->V[(size_t)r + (size_t)c * n];
  }
}

/* R <- the reduced matrix (identity plus spike corners). */
static void reduced_assemble(cosrod_band_spike *S) {
  cosrod_band *R = S->R;
  const int p = S->p, kl = S->kl, ku = S->ku;
  cosrod_band_zero(R);
  for (int k = 0; k < R->n; ++k) cosrod_band_set(R, k, k, 1.0);
  for (int i = 0; i < p; ++i) {
    if (i <= p - 2)
      for (int r = 0; r < kl; ++r) {
        const int row = pos_b(S, i) + r;
        for (int c = 0; c < ku; ++c) cosrod_band_set(R, row, pos_t(S, i + 1) + c, corner(S, i, 0, r, c));
        if (i >= 1)
          for (int c = 0; c < kl; ++c) cosrod_band_set(R, row, pos_b(S, i - 1) + c, corner(S, i, 1, r, c));
      }
    if (i >= 1)
      for (int r = 0; r < ku; ++r) {
        const int row = pos_t(S, i) + r;
        for (int c = 0; c < kl; ++c) cosrod_band_set(R, row, pos_b(S, i - 1) + c, corner(S, i, 2, r, c));
        if (i <= p - 2)
          for (int c = 0; c < ku; ++c) cosrod_band_set(R, row, pos_t(S, i + 1) + c, corner(S, i, 3, r, c));
      }
  }
}

static cosrod_status spike_fallback(cosrod_band_spike *S, cosrod_band *A) {
  S->fallback = 1;
  const cosrod_status st = cosrod_band_factor(A);
  S->factored = st == COSROD_OK;
  return st;
}

cosrod_status cosrod_band_spike_factor(cosrod_band_spike *S, cosrod_band *A) {
  if (!S || !A || A->factored) return COSROD_ERR_INVALID;
  if (A->n != S->n || A->ml != S->kl || A->mu != S->ku) return COSROD_ERR_DIMENSION;
  S->A = A;
  S->factored = S->fallback = 0;
  S->growth = 0.0;
  if (S->p == 1) return spike_fallback(S, A);
  spike_ctx x = {S, A, NULL};
  cosrod_par_for(S->nthreads, S->p, factor_blocks, &x);
  int ok = 1;
  for (int i = 0; i < S->p; ++i) {
    const spike_part *q = &S->part[i];
    if (q->st == COSROD_ERR_INTERRUPTED) return q->st;
    ok &= q->st == COSROD_OK && q->growth <= SPIKE_GROWTH_MAX; /* false for NaN */
    if (q->st == COSROD_OK && !(q->growth <= S->growth)) S->growth = q->growth;
  }
  if (!ok) return spike_fallback(S, A);
  reduced_assemble(S);
  S->R->backend = COSROD_LINALG_OWN;
  if (cosrod_band_factor(S->R) != COSROD_OK) return spike_fallback(S, A);
  S->factored = 1;
  return COSROD_OK;
}

/* ---- solve --------------------------------------------------------------- */

/* g <- the parts of D^{-1} b the reduced system needs (all of it for inner
 * blocks); y <- L^{-1} P b (of J b for the last block). */
static void solve_blocks(void *ctx, int i0, int i1) {
  const spike_ctx *x = ctx;
  const int kl = x->S->kl, ku = x->S->ku;
  for (int i = i0; i < i1; ++i) {
    spike_part *q = &x->S->part[i];
    const int n = q->n;
    const double *b = x->b + q->off;
    if (q->kind == 1) {
      memcpy(q->g, b, (size_t)n * sizeof(double));
      cosrod_band_solve(q->F, q->g);
      continue;
    }
    if (q->kind == 0)
      memcpy(q->y, b, (size_t)n * sizeof(double));
    else
      for (int r = 0; r < n; ++r) q->y[r] = b[n - 1 - r];
    sweep_fwd(q->F, q->y, 0);
    const int keep = q->kind == 0 ? kl : ku, lo = imax(0, n - keep - q->F->smu);
    memcpy(q->g + lo, q->y + lo, (size_t)(n - lo) * sizeof(double));
    sweep_bwd(q->F, q->g, n - keep);
  }
}

/* x_i from g_i and the interface values z. */
static void recover_blocks(void *ctx, int i0, int i1) {
  const spike_ctx *x = ctx;
  const cosrod_band_spike *S = x->S;
  const int kl = S->kl, ku = S->ku;
  for (int i = i0; i < i1; ++i) {
    spike_part *q = &S->part[i];
    const int n = q->n;
    double *b = x->b + q->off;
    if (q->kind == 1) {
      const double *xt = S->z + pos_t(S, i + 1), *xb = S->z + pos_b(S, i - 1);
      memcpy(b, q->g, (size_t)n * sizeof(double));
      for (int c = 0; c < ku; ++c) lin_axpy_sub(n, xt[c], q->V + (size_t)c * n, b);
      for (int c = 0; c < kl; ++c) lin_axpy_sub(n, xb[c], q->W + (size_t)c * n, b);
      continue;
    }
    /* end blocks: re-solve with b_0 - [0; B_0 x_1^T] (b_{p-1} - [C x_{p-2}^B; 0]),
     * whose forward sweep differs from y in the last kl + ku rows only */
    double *d = q->g;
    const int r0 = imax(0, n - kl - ku);
    memset(d + r0, 0, (size_t)(n - r0) * sizeof(double));
    if (q->kind == 0) {
      const double *xt = S->z + pos_t(S, 1);
      for (int r = 0; r < ku; ++r)
        for (int c = 0; c <= r; ++c) d[n - ku + r] += coup_b(x, q, r, c) * xt[c];
    } else {
      const double *xb = S->z + pos_b(S, S->p - 2);
      for (int r = 0; r < kl; ++r)
        for (int c = r; c < kl; ++c) d[n - 1 - r] += coup_c(x, q, r, c) * xb[c];
    }
    sweep_fwd(q->F, d, r0);
    for (int k = r0; k < n; ++k) q->y[k] -= d[k];
    sweep_bwd(q->F, q->y, 0);
    if (q->kind == 0)
      memcpy(b, q->y, (size_t)n * sizeof(double));
    else
      for (int r = 0; r < n; ++r) b[r] = q->y[n - 1 - r];
  }
}

cosrod_status cosrod_band_spike_solve(cosrod_band_spike *S, double *b) {
  if (!S || !b || !S->factored) return COSROD_ERR_INVALID;
  if (S->fallback || S->p == 1) return cosrod_band_solve(S->A, b);
  spike_ctx x = {S, S->A, b};
  cosrod_par_for(S->nthreads, S->p, solve_blocks, &x);
  for (int i = 0; i < S->p; ++i) { /* right-hand side of the reduced system */
    const spike_part *q = &S->part[i];
    const int n = q->n;
    if (i <= S->p - 2)
      for (int r = 0; r < S->kl; ++r) S->z[pos_b(S, i) + r] = q->g[n - S->kl + r];
    if (i >= 1)
      for (int r = 0; r < S->ku; ++r) S->z[pos_t(S, i) + r] = q->kind == 2 ? q->g[n - 1 - r] : q->g[r];
  }
  cosrod_band_solve(S->R, S->z);
  cosrod_par_for(S->nthreads, S->p, recover_blocks, &x);
  return COSROD_OK;
}
