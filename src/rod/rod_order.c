// SPDX-License-Identifier: Apache-2.0
/* Banded ordering of the whole rod state (see rod.h, "banded ordering").
 *
 * The discrete rod couples only neighbours on the staggered grid ([LLA]
 * §3.4): a vertex equation (m ẍ_n = f_n, eq. 29) involves x, ẋ of vertices
 * n-1..n+1 and p, ṗ (or Ω) of segments n-1, n; a segment equation (the
 * quaternion rows of eq. 29, [L] Lemma 4.2, [LA] eq. 14) involves vertices
 * k, k+1 and segments k-1..k+1 (curvature, eq. 26), and the kinematic rows
 * (q' = v, ṗ = ½pΩ) and the DAE constraint rows are local.  Grouping every
 * unknown with its node therefore makes the whole Jacobian banded with a
 * bandwidth that does not depend on N.
 *
 * Choice of the order inside a node: an exhaustive search over the periodic
 * block orders (x, rate, p, rate[, λ] in any order, with index shifts) gives
 * the minimum ml + mu for the natural (x_n, v_n, p_k, ṗ_k) order and for its
 * mirror image (v_n, x_n, ṗ_k, p_k); the mirror image has the smaller lower
 * bandwidth (NULLSPACE damped: (15, 19) instead of (19, 15)), and partial
 * pivoting costs ~ n ml (ml + mu), so rates come first.  For DAE the
 * multiplier goes first in its segment, (λ_k, ṗ_k, p_k): the residual
 * Jacobian does not care (18, 22), and the mass-matrix form, whose rows
 * λ_post(q, v) - λ couple like the segment rows, gets (18, 23) instead of
 * (23, 22) with λ_k last.
 *
 * The bandwidths are computed here from the block coupling table of the
 * analytic assembly (rod_jac.c; every coupled block is written densely),
 * using the real block sizes (removed / sliding vertices), and checked
 * against the measured pattern in tests/rod/test_rod_order.c. */
#include <stdlib.h>

#include "rod/rod_internal.h"
#include "core/error.h"

/* block types: vertex position / rate, segment quaternion / rate / multiplier */
enum { BX = 0, BV, BP, BW, BL, BK };

typedef struct ord_ctx {
  const cosrod_rod *rod;
  cosrod_rod_form form;
  const int *perm;
} ord_ctx;

/* Native start and size of block (type, idx); size 0 if absent. */
static int blk_native(const ord_ctx *c, int type, int idx, int *size) {
  const cosrod_rod *rod = c->rod;
  const int N = rod->N, nq = rod->nq, ns = c->form == COSROD_FORM_NULLSPACE;
  *size = 0;
  if (type == BX || type == BV) {
    if (idx < 0 || idx > N || !rod->nd[idx]) return -1;
    *size = rod->nd[idx];
    return type == BX ? rod->qv[idx] : nq + (ns ? rod->vv_ns[idx] : rod->qv[idx]);
  }
  if (idx < 0 || idx >= N) return -1;
  switch (type) {
    case BP:
      *size = 4;
      return rod->qs[idx];
    case BW:
      *size = ns ? 3 : 4;
      return nq + (ns ? rod->vs_ns[idx] : rod->qs[idx]);
    case BL:
      if (c->form != COSROD_FORM_DAE) return -1;
      *size = 1;
      return 2 * nq + idx;
    default: { /* Kirchhoff multipliers λ_K (DAE only) */
      int m = cosrod_rod_kirchhoff_m(rod);
      if (c->form != COSROD_FORM_DAE || m == 0) return -1;
      *size = m;
      return 2 * nq + N + m * idx;
    }
  }
}

/* Widen (ml, mu) by the dense coupling of row block (rt, ri) and column
 * block (ct, cj) in the banded ordering. */
static void couple(const ord_ctx *c, int rt, int ri, int ct, int cj, int *ml, int *mu) {
  int rs, cs;
  int r0 = blk_native(c, rt, ri, &rs), c0 = blk_native(c, ct, cj, &cs);
  if (!rs || !cs) return;
  int rb = c->perm[r0], cb = c->perm[c0];
  int lo = rb + rs - 1 - cb, up = cb + cs - 1 - rb;
  if (lo > *ml) *ml = lo;
  if (up > *mu) *mu = up;
}

/* Kirchhoff DAE (rod_kirchhoff.c, index-1 form): Gᵀλ_K of segment k acts on
 * the momentum rows of vertices k, k+1, of segment k and on its λ_post row;
 * the constraint rows λ_K_k (G_k a + h_k) see the accelerations of vertices
 * k, k+1 and segment k, i.e. everything those couple to: vertices k-1..k+2,
 * segments k-1..k+1 (their rates: those of the segment and its vertices in
 * h and the gyroscopic term, the outer ones only through damping). */
static void kirchhoff_couplings(const ord_ctx *c, int k, int *ml, int *mu) {
  const int dmp = c->rod->has_damping;
  for (int n = k; n <= k + 1; ++n) couple(c, BV, n, BK, k, ml, mu);
  couple(c, BW, k, BK, k, ml, mu);
  couple(c, BL, k, BK, k, ml, mu);
  for (int n = k - 1; n <= k + 2; ++n) {
    couple(c, BK, k, BX, n, ml, mu);
    if (dmp || (n >= k && n <= k + 1)) couple(c, BK, k, BV, n, ml, mu);
  }
  for (int j = k - 1; j <= k + 1; ++j) {
    couple(c, BK, k, BP, j, ml, mu);
    if (dmp || j == k) couple(c, BK, k, BW, j, ml, mu);
    couple(c, BK, k, BK, j, ml, mu);
  }
}

/* The block coupling table of rod_jac.c's assembly (rows -> columns). */
static void bandwidths(const ord_ctx *c, int *ml, int *mu) {
  const cosrod_rod *rod = c->rod;
  const int N = rod->N, dmp = rod->has_damping;
  const cosrod_rod_form f = c->form;
  *ml = *mu = 0;
  for (int n = 0; n <= N; ++n) {
    /* kinematic rows x' = v (DAE: cj x - v) */
    couple(c, BX, n, BV, n, ml, mu);
    if (f == COSROD_FORM_DAE) {
      couple(c, BX, n, BX, n, ml, mu);
      couple(c, BV, n, BV, n, ml, mu); /* cj m */
    }
    /* vertex momentum rows */
    for (int m = n - 1; m <= n + 1; ++m) {
      couple(c, BV, n, BX, m, ml, mu);
      if (dmp) couple(c, BV, n, BV, m, ml, mu);
    }
    for (int k = n - 1; k <= n; ++k) {
      couple(c, BV, n, BP, k, ml, mu);
      if (dmp) couple(c, BV, n, BW, k, ml, mu);
    }
  }
  for (int k = 0; k < N; ++k) {
    /* kinematic rows: p' = ṗ (ABSOLUTE), ṗ = ½pΩ (NULLSPACE), cj p - ṗ (DAE) */
    couple(c, BP, k, BW, k, ml, mu);
    if (f != COSROD_FORM_ABSOLUTE) couple(c, BP, k, BP, k, ml, mu);
    /* segment momentum rows */
    for (int m = k; m <= k + 1; ++m) {
      couple(c, BW, k, BX, m, ml, mu);
      if (dmp) couple(c, BW, k, BV, m, ml, mu);
    }
    for (int j = k - 1; j <= k + 1; ++j) {
      couple(c, BW, k, BP, j, ml, mu);
      if (dmp || j == k) couple(c, BW, k, BW, j, ml, mu);
    }
    if (f == COSROD_FORM_DAE && cosrod_rod_kirchhoff_m(rod) > 0) kirchhoff_couplings(c, k, ml, mu);
    if (f == COSROD_FORM_DAE) {
      /* residual: constraint rows <p, p̈> + |ṗ|², multiplier columns G^T λ */
      couple(c, BW, k, BL, k, ml, mu);
      couple(c, BL, k, BP, k, ml, mu);
      couple(c, BL, k, BW, k, ml, mu);
      /* mass-matrix form: rows λ_post(q, v) - λ couple like the segment rows */
      couple(c, BL, k, BL, k, ml, mu);
      for (int m = k; m <= k + 1; ++m) {
        couple(c, BL, k, BX, m, ml, mu);
        if (dmp) couple(c, BL, k, BV, m, ml, mu);
      }
      for (int j = k - 1; j <= k + 1; ++j) {
        couple(c, BL, k, BP, j, ml, mu);
        if (dmp || j == k) couple(c, BL, k, BW, j, ml, mu);
      }
    }
  }
}

cosrod_status cosrod_rod_order_fill(const cosrod_rod *rod, cosrod_rod_form form, int *perm, int *iperm,
                                    int *ml, int *mu) {
  if (!rod || !perm || (unsigned)form > COSROD_FORM_DAE) return COSROD_ERR_INVALID;
  ord_ctx c = {rod, form, perm};
  const int N = rod->N;
  int pos = 0;
  for (int n = 0; n <= N; ++n) {
    static const int vtypes[2] = {BV, BX};
    static const int stypes[4] = {BL, BK, BW, BP}; /* BL: DAE only, BK: Kirchhoff DAE only */
    for (int t = 0; t < 2; ++t) {
      int sz, i0 = blk_native(&c, vtypes[t], n, &sz);
      for (int j = 0; j < sz; ++j) perm[i0 + j] = pos++;
    }
    if (n == N) break;
    for (int t = 0; t < 4; ++t) {
      int sz, i0 = blk_native(&c, stypes[t], n, &sz);
      for (int j = 0; j < sz; ++j) perm[i0 + j] = pos++;
    }
  }
  if (pos != cosrod_rod_ny(rod, form)) return COSROD_ERR_INTERNAL;
  if (iperm)
    for (int i = 0; i < pos; ++i) iperm[perm[i]] = i;
  int l, u;
  bandwidths(&c, &l, &u);
  if (ml) *ml = l;
  if (mu) *mu = u;
  return COSROD_OK;
}

struct cosrod_rod_order {
  cosrod_rod_form form;
  int ny;
  int *perm, *iperm;
  int ml, mu;
};

void cosrod_rod_order_free(cosrod_rod_order *o) {
  if (!o) return;
  free(o->perm);
  free(o);
}

cosrod_rod_order *cosrod_rod_order_create(const cosrod_rod *rod, cosrod_rod_form form,
                                          cosrod_status *status) {
  cosrod_status st = COSROD_ERR_INVALID;
  cosrod_rod_order *o = NULL;
  if (rod && (unsigned)form <= COSROD_FORM_DAE) {
    int ny = cosrod_rod_ny(rod, form);
    o = calloc(1, sizeof *o);
    if (o) o->perm = malloc(sizeof(int) * 2 * (size_t)ny);
    if (!o || !o->perm) {
      cosrod_rod_order_free(o);
      o = NULL;
      st = COSROD_ERR_NOMEM;
    } else {
      o->form = form;
      o->ny = ny;
      o->iperm = o->perm + ny;
      st = cosrod_rod_order_fill(rod, form, o->perm, o->iperm, &o->ml, &o->mu);
      if (st != COSROD_OK) {
        cosrod_rod_order_free(o);
        o = NULL;
      }
    }
  }
  if (status) *status = st;
  if (o)
    cosrod_error_clear();
  else if (!rod || (unsigned)form > COSROD_FORM_DAE)
    cosrod_error_set("cosrod_rod_order_create: %s", rod ? "form is not a cosrod_rod_form" : "no rod (NULL)");
  else
    cosrod_error_set("cosrod_rod_order_create: %s", cosrod_strerror(st));
  return o;
}

cosrod_rod_form cosrod_rod_order_form(const cosrod_rod_order *o) { return o->form; }
int cosrod_rod_order_ny(const cosrod_rod_order *o) { return o->ny; }
const int *cosrod_rod_order_perm(const cosrod_rod_order *o) { return o->perm; }
const int *cosrod_rod_order_iperm(const cosrod_rod_order *o) { return o->iperm; }

void cosrod_rod_order_bandwidth(const cosrod_rod_order *o, int *ml, int *mu) {
  if (ml) *ml = o->ml;
  if (mu) *mu = o->mu;
}

void cosrod_rod_order_to_banded(const cosrod_rod_order *o, const double *y, double *yb) {
  for (int i = 0; i < o->ny; ++i) yb[o->perm[i]] = y[i];
}

void cosrod_rod_order_to_native(const cosrod_rod_order *o, const double *yb, double *y) {
  for (int i = 0; i < o->ny; ++i) y[i] = yb[o->perm[i]];
}
