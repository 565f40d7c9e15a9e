// SPDX-License-Identifier: Apache-2.0
/* Partition driver of the SPIKE solvers (spike_core.h), real and complex.
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
#include "linalg/spike_core.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/par.h"
#include "linalg/linalg_internal.h"

#define SPIKE_GROWTH_MAX 6.7108864e7 /* 2^26 = 1/sqrt(DBL_EPSILON) */

/* Element k of the array x (es bytes each). */
static void *el(void *x, size_t k, size_t es) { return (char *)x + k * es; }
static const void *cel(const void *x, size_t k, size_t es) { return (const char *)x + k * es; }

/* dst[r] = src[m-1-r], r = 0..m-1, of k doubles each (plain copies). */
static inline void copy_rev_k(double *restrict d, const double *restrict s, size_t m, size_t k) {
  for (size_t r = 0; r < m; ++r)
    for (size_t t = 0; t < k; ++t) d[r * k + t] = s[(m - 1 - r) * k + t];
}
/* The same for es-byte elements (real and complex inlined separately). */
static void copy_reversed(void *dst, const void *src, int m, size_t es) {
  if (es == sizeof(double))
    copy_rev_k(dst, src, (size_t)m, 1);
  else if (es == 2 * sizeof(double))
    copy_rev_k(dst, src, (size_t)m, 2);
  else
    copy_rev_k(dst, src, (size_t)m, es / sizeof(double));
}

/* ---- layout, storage ----------------------------------------------------- */

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

void spike_core_release(spike_core *C) {
  if (!C) return;
  if (C->part)
    for (int i = 0; i < C->p; ++i) {
      spike_part *q = &C->part[i];
      if (q->F) C->ops->destroy(q->F);
      free(q->V);
      free(q->W);
      free(q->corner);
      free(q->y);
      free(q->g);
    }
  free(C->part);
  if (C->R) C->ops->destroy(C->R);
  free(C->z);
  C->part = NULL;
  C->R = C->z = NULL;
}

static int part_alloc(const spike_ops *o, spike_part *q, int kl, int ku) {
  const size_t n = (size_t)q->n;
  q->F = q->kind == 2 ? o->create(q->n, ku, kl) : o->create(q->n, kl, ku);
  q->g = calloc(n, o->es); /* partial sweeps write (never read) rows below their range */
  if (!q->F || !q->g) return 0;
  if (q->kind == 1) {
    q->V = malloc(n * (size_t)(ku > 0 ? ku : 1) * o->es);
    q->W = malloc(n * (size_t)(kl > 0 ? kl : 1) * o->es);
    return q->V && q->W;
  }
  q->y = malloc(n * o->es);
  q->corner = malloc((size_t)(kl > 0 ? kl : 1) * (size_t)(ku > 0 ? ku : 1) * o->es);
  return q->y && q->corner;
}

cosrod_status spike_core_init(spike_core *C, const spike_ops *ops, int n, int ml, int mu, int partitions) {
  C->ops = ops;
  const int kl = imin(ml, n - 1), ku = imin(mu, n - 1);
  int p = kl + ku == 0 ? 1 : partitions;
  int *sz = malloc((size_t)p * sizeof(int));
  if (!sz) return COSROD_ERR_NOMEM;
  while (p > 1 && !spike_layout(n, kl, ku, p, sz)) --p;
  C->n = n;
  C->kl = kl;
  C->ku = ku;
  C->p = p;
  C->nthreads = 1;
  int ok = 1;
  if (p > 1) {
    C->part = calloc((size_t)p, sizeof(spike_part));
    const int nr = (p - 1) * (kl + ku);
    C->R = ops->create(nr, 2 * kl + ku, kl + 2 * ku);
    C->z = malloc((size_t)nr * ops->es);
    ok = C->part && C->R && C->z;
    for (int i = 0, off = 0; ok && i < p; off += sz[i], ++i) {
      spike_part *q = &C->part[i];
      q->off = off;
      q->n = sz[i];
      q->kind = i == 0 ? 0 : (i == p - 1 ? 2 : 1);
      ok = part_alloc(ops, q, kl, ku);
    }
  }
  free(sz);
  if (ok) return COSROD_OK;
  spike_core_release(C);
  return COSROD_ERR_NOMEM;
}

int spike_core_block(const spike_core *C, int i, int *first_row) {
  if (i < 0 || i >= C->p) return 0;
  if (C->p == 1) {
    if (first_row) *first_row = 0;
    return C->n;
  }
  if (first_row) *first_row = C->part[i].off;
  return C->part[i].n;
}

/* ---- factor -------------------------------------------------------------- */

/* Element (i, j) of the band matrix b (inside the band). */
static char *band_at(const spike_band *b, int i, int j, size_t es) {
  return b->data + ((size_t)j * (size_t)b->ld + (size_t)(b->smu + i - j)) * es;
}

static void band_put(const spike_band *b, int i, int j, const void *v, size_t es) {
  memcpy(band_at(b, i, j, es), v, es);
}

/* F <- A_i (kinds 0, 1: the same layout as A, one block copy, then the
 * coupling entries outside the block cleared) or J A_i J (kind 2: column
 * n-1-c of F is column c of A_i reversed). */
static void part_load(const spike_core *C, spike_part *q) {
  const size_t es = C->ops->es;
  const int n = q->n, kl = C->kl, ku = C->ku;
  C->ops->reset(q->F, C->A);
  const spike_band F = C->ops->view(q->F), A = C->ops->view(C->A);
  const size_t ld = (size_t)F.ld;
  if (q->kind != 2) {
    memcpy(F.data, A.data + (size_t)q->off * ld * es, (size_t)n * ld * es);
    for (int c = 0; c < imin(ku, n); ++c) /* rows above the block: i - j = -ku .. -c-1 */
      memset(band_at(&F, c - ku, c, es), 0, (size_t)(ku - c) * es);
    for (int c = imax(0, n - kl); c < n; ++c) /* rows below: i - j = n-c .. kl */
      memset(band_at(&F, n, c, es), 0, (size_t)(kl - (n - c) + 1) * es);
    return;
  }
  for (int c = 0; c < n; ++c) {
    char *f = F.data + (size_t)(n - 1 - c) * ld * es;
    memset(f, 0, (size_t)F.ml * es); /* fill-in rows */
    f += (size_t)F.smu * es;         /* f[d] = F(n-1-c+d, n-1-c) = A_i(c-d, c) */
    const char *a = band_at(&A, q->off + c, q->off + c, es);
    const int lo = -imin(kl, n - 1 - c), hi = imin(ku, c); /* F's d = -(A's i - j) */
    memset(f - (size_t)F.mu * es, 0, (size_t)(lo + F.mu) * es);
    copy_reversed(f + (ptrdiff_t)lo * (ptrdiff_t)es, a - (ptrdiff_t)hi * (ptrdiff_t)es, hi - lo + 1, es);
    memset(f + (ptrdiff_t)(hi + 1) * (ptrdiff_t)es, 0, (size_t)(F.ml - hi) * es);
  }
}

/* v <- A(i, j) (inside the band). */
static void band_get(const spike_core *C, int i, int j, void *v) {
  const spike_band A = C->ops->view(C->A);
  memcpy(v, band_at(&A, i, j, C->ops->es), C->ops->es);
}

/* v <- B_i(r, c) = A(last ku rows of block q, first ku columns after it): zero for c > r. */
static void coup_b(const spike_core *C, const spike_part *q, int r, int c, void *v) {
  if (c > r)
    memset(v, 0, C->ops->es);
  else
    band_get(C, q->off + q->n - C->ku + r, q->off + q->n + c, v);
}
/* v <- C_i(r, c) = A(first kl rows of block q, last kl columns before it): zero for r > c. */
static void coup_c(const spike_core *C, const spike_part *q, int r, int c, void *v) {
  if (r > c)
    memset(v, 0, C->ops->es);
  else
    band_get(C, q->off + r, q->off - C->kl + c, v);
}

/* The corner of an end block: kind 0 the bottom kl rows of V_0 = A_0^{-1} [0; B_0];
 * kind 2 the top ku rows of W = A^{-1} [C; 0] (F = J A J, so J W = F^{-1} [0; J C]). */
static void end_corner(const spike_core *C, spike_part *q) {
  const spike_ops *o = C->ops;
  const size_t es = o->es;
  const int n = q->n, kl = C->kl, ku = C->ku, r0 = imax(0, n - ku - kl);
  const int ncol = q->kind == 0 ? ku : kl, nrow = q->kind == 0 ? kl : ku;
  void *e = q->g;
  for (int c = 0; c < ncol; ++c) {
    memset(el(e, (size_t)r0, es), 0, (size_t)(n - r0) * es);
    if (q->kind == 0)
      for (int r = 0; r < ku; ++r) coup_b(C, q, r, c, el(e, (size_t)(n - ku + r), es));
    else
      for (int r = 0; r < kl; ++r) coup_c(C, q, r, c, el(e, (size_t)(n - 1 - r), es));
    o->sweep_fwd(q->F, e, r0);
    o->sweep_bwd(q->F, e, n - nrow);
    void *dst = el(q->corner, (size_t)c * (size_t)nrow, es);
    if (q->kind == 0)
      memcpy(dst, el(e, (size_t)(n - kl), es), (size_t)kl * es);
    else
      copy_reversed(dst, el(e, (size_t)(n - ku), es), ku, es);
  }
}

/* The spikes (or the corner) of block q; returns max |entry|. */
static double part_spikes(const spike_core *C, spike_part *q) {
  const spike_ops *o = C->ops;
  const size_t es = o->es;
  const int n = q->n, kl = C->kl, ku = C->ku;
  if (q->kind != 1) {
    end_corner(C, q);
    return o->max_abs(q->corner, (size_t)kl * ku);
  }
  for (int c = 0; c < ku; ++c) { /* full V_i: forward sweep over the last kl + ku rows only */
    void *v = el(q->V, (size_t)c * n, es);
    memset(v, 0, (size_t)n * es);
    for (int r = 0; r < ku; ++r) coup_b(C, q, r, c, el(v, (size_t)(n - ku + r), es));
    o->sweep_fwd(q->F, v, n - ku - kl);
    o->sweep_bwd(q->F, v, 0);
  }
  for (int c = 0; c < kl; ++c) { /* full W_i */
    void *w = el(q->W, (size_t)c * n, es);
    memset(w, 0, (size_t)n * es);
    for (int r = 0; r < kl; ++r) coup_c(C, q, r, c, el(w, (size_t)r, es));
    o->sweep_fwd(q->F, w, 0);
    o->sweep_bwd(q->F, w, 0);
  }
  return fmax(o->max_abs(q->V, (size_t)n * ku), o->max_abs(q->W, (size_t)n * kl));
}

static void factor_blocks(void *ctx, int i0, int i1) {
  const spike_core *C = ctx;
  for (int i = i0; i < i1; ++i) {
    spike_part *q = &C->part[i];
    part_load(C, q);
    q->growth = 0.0;
    q->st = C->ops->factor(q->F);
    if (q->st == COSROD_OK) q->growth = part_spikes(C, q);
  }
}

/* Interface positions in z: x_i^B (i <= p-2) and x_i^T (i >= 1). */
static int pos_b(const spike_core *C, int i) { return i * (C->kl + C->ku); }
static int pos_t(const spike_core *C, int i) { return (i - 1) * (C->kl + C->ku) + C->kl; }

/* Spike corners of block i: which = 0 V^B (kl x ku), 1 W^B (kl x kl),
 * 2 W^T (ku x kl), 3 V^T (ku x ku); entry (r, c). */
static const void *corner(const spike_core *C, int i, int which, int r, int c) {
  const spike_part *q = &C->part[i];
  const int n = q->n, kl = C->kl, ku = C->ku;
  const size_t es = C->ops->es;
  if (q->kind == 0) return cel(q->corner, (size_t)r + (size_t)c * kl, es); /* V^B */
  if (q->kind == 2) return cel(q->corner, (size_t)r + (size_t)c * ku, es); /* W^T */
  switch (which) {
    case 0:
      return cel(q->V, (size_t)(n - kl + r) + (size_t)c * n, es);
    case 1:
      return cel(q->W, (size_t)(n - kl + r) + (size_t)c * n, es);
    case 2:
      return cel(q->W, (size_t)r + (size_t)c * n, es);
    default:
      return cel(q->V, (size_t)r + (size_t)c * n, es);
  }
}

/* R <- the reduced matrix (identity plus spike corners). */
static void reduced_assemble(spike_core *C) {
  const spike_ops *o = C->ops;
  const spike_band R = o->view(C->R);
  const size_t es = o->es;
  const int p = C->p, kl = C->kl, ku = C->ku;
  o->zero(C->R);
  for (int k = 0; k < R.n; ++k) band_put(&R, k, k, o->one, es);
  for (int i = 0; i < p; ++i) {
    if (i <= p - 2)
      for (int r = 0; r < kl; ++r) {
        const int row = pos_b(C, i) + r;
        for (int c = 0; c < ku; ++c) band_put(&R, row, pos_t(C, i + 1) + c, corner(C, i, 0, r, c), es);
        if (i >= 1)
          for (int c = 0; c < kl; ++c) band_put(&R, row, pos_b(C, i - 1) + c, corner(C, i, 1, r, c), es);
      }
    if (i >= 1)
      for (int r = 0; r < ku; ++r) {
        const int row = pos_t(C, i) + r;
        for (int c = 0; c < kl; ++c) band_put(&R, row, pos_b(C, i - 1) + c, corner(C, i, 2, r, c), es);
        if (i <= p - 2)
          for (int c = 0; c < ku; ++c) band_put(&R, row, pos_t(C, i + 1) + c, corner(C, i, 3, r, c), es);
      }
  }
}

static cosrod_status spike_fallback(spike_core *C) {
  C->fallback = 1;
  const cosrod_status st = C->ops->factor(C->A);
  C->factored = st == COSROD_OK;
  return st;
}

cosrod_status spike_core_factor(spike_core *C, void *A) {
  C->A = A;
  C->factored = C->fallback = 0;
  C->growth = 0.0;
  if (C->p == 1) return spike_fallback(C);
  cosrod_par_for(C->nthreads, C->p, factor_blocks, C);
  int ok = 1;
  for (int i = 0; i < C->p; ++i) {
    const spike_part *q = &C->part[i];
    if (q->st == COSROD_ERR_INTERRUPTED) return q->st;
    ok &= q->st == COSROD_OK && q->growth <= SPIKE_GROWTH_MAX; /* false for NaN */
    if (q->st == COSROD_OK && !(q->growth <= C->growth)) C->growth = q->growth;
  }
  if (!ok) return spike_fallback(C);
  reduced_assemble(C);
  if (C->ops->factor_own(C->R) != COSROD_OK) return spike_fallback(C);
  C->factored = 1;
  return COSROD_OK;
}

/* ---- solve --------------------------------------------------------------- */

/* g <- the parts of D^{-1} b the reduced system needs (all of it for inner
 * blocks); y <- L^{-1} P b (of J b for the last block); b = b_q. */
static void solve_block(const spike_core *C, spike_part *q, const void *b) {
  const spike_ops *o = C->ops;
  const size_t es = o->es;
  const int n = q->n;
  if (q->kind == 1) {
    memcpy(q->g, b, (size_t)n * es);
    o->solve(q->F, q->g);
    return;
  }
  if (q->kind == 0)
    memcpy(q->y, b, (size_t)n * es);
  else
    copy_reversed(q->y, b, n, es);
  o->sweep_fwd(q->F, q->y, 0);
  const int keep = q->kind == 0 ? C->kl : C->ku, lo = imax(0, n - keep - o->view(q->F).smu);
  memcpy(el(q->g, (size_t)lo, es), el(q->y, (size_t)lo, es), (size_t)(n - lo) * es);
  o->sweep_bwd(q->F, q->g, n - keep);
}

/* End block q: re-solve with b_0 - [0; B_0 x_1^T] (b_{p-1} - [C x_{p-2}^B; 0]),
 * whose forward sweep differs from y in the last kl + ku rows only; b <- x_q. */
static void recover_end(const spike_core *C, spike_part *q, void *b) {
  const spike_ops *o = C->ops;
  const size_t es = o->es;
  const int n = q->n, kl = C->kl, ku = C->ku, r0 = imax(0, n - kl - ku);
  union {
    double r;
    double _Complex z;
  } a; /* one element */
  void *d = q->g;
  memset(el(d, (size_t)r0, es), 0, (size_t)(n - r0) * es);
  if (q->kind == 0) {
    const void *xt = cel(C->z, (size_t)pos_t(C, 1), es);
    for (int r = 0; r < ku; ++r)
      for (int c = 0; c <= r; ++c) {
        coup_b(C, q, r, c, &a);
        o->madd(el(d, (size_t)(n - ku + r), es), &a, cel(xt, (size_t)c, es));
      }
  } else {
    const void *xb = cel(C->z, (size_t)pos_b(C, C->p - 2), es);
    for (int r = 0; r < kl; ++r)
      for (int c = r; c < kl; ++c) {
        coup_c(C, q, r, c, &a);
        o->madd(el(d, (size_t)(n - 1 - r), es), &a, cel(xb, (size_t)c, es));
      }
  }
  o->sweep_fwd(q->F, d, r0);
  o->sub(n - r0, el(d, (size_t)r0, es), el(q->y, (size_t)r0, es));
  o->sweep_bwd(q->F, q->y, 0);
  if (q->kind == 0)
    memcpy(b, q->y, (size_t)n * es);
  else
    copy_reversed(b, q->y, n, es);
}

/* x_i from g_i and the interface values z; b = b_i. */
static void recover_block(const spike_core *C, int i, spike_part *q, void *b) {
  const spike_ops *o = C->ops;
  const size_t es = o->es;
  const int n = q->n;
  if (q->kind != 1) {
    recover_end(C, q, b);
    return;
  }
  const void *xt = cel(C->z, (size_t)pos_t(C, i + 1), es), *xb = cel(C->z, (size_t)pos_b(C, i - 1), es);
  memcpy(b, q->g, (size_t)n * es);
  for (int c = 0; c < C->ku; ++c) o->axpy_sub(n, cel(xt, (size_t)c, es), el(q->V, (size_t)c * n, es), b);
  for (int c = 0; c < C->kl; ++c) o->axpy_sub(n, cel(xb, (size_t)c, es), el(q->W, (size_t)c * n, es), b);
}

typedef struct solve_ctx {
  const spike_core *C;
  void *b;
  int recover; /* 0: solve_block, 1: recover_block */
} solve_ctx;

static void solve_phase(void *ctx, int i0, int i1) {
  const solve_ctx *x = ctx;
  for (int i = i0; i < i1; ++i) {
    spike_part *q = &x->C->part[i];
    void *b = el(x->b, (size_t)q->off, x->C->ops->es);
    if (x->recover)
      recover_block(x->C, i, q, b);
    else
      solve_block(x->C, q, b);
  }
}

cosrod_status spike_core_solve(spike_core *C, void *b) {
  if (C->fallback || C->p == 1) return C->ops->solve(C->A, b);
  const size_t es = C->ops->es;
  solve_ctx x = {C, b, 0};
  cosrod_par_for(C->nthreads, C->p, solve_phase, &x);
  for (int i = 0; i < C->p; ++i) { /* right-hand side of the reduced system */
    const spike_part *q = &C->part[i];
    const int n = q->n;
    if (i <= C->p - 2)
      memcpy(el(C->z, (size_t)pos_b(C, i), es), el(q->g, (size_t)(n - C->kl), es), (size_t)C->kl * es);
    if (i >= 1 && q->kind == 2)
      copy_reversed(el(C->z, (size_t)pos_t(C, i), es), el(q->g, (size_t)(n - C->ku), es), C->ku, es);
    else if (i >= 1)
      memcpy(el(C->z, (size_t)pos_t(C, i), es), q->g, (size_t)C->ku * es);
  }
  C->ops->solve(C->R, C->z);
  x.recover = 1;
  cosrod_par_for(C->nthreads, C->p, solve_phase, &x);
  return COSROD_OK;
}
