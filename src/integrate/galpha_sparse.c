// SPDX-License-Identifier: Apache-2.0
/* Generalized-α (galpha.c) with sparse tangent Jacobians
 * (cosrod_ode_problem.jac_tangent_sp, tangent_pattern): K and C on one
 * nv x nv CSC pattern, and the iteration matrix
 *   S = I - γ'' C - β'' K          ([AB07] eq. 19, see galpha.c)
 * factorised by KLU through the integrators' sparse systems (lsys_sparse.c:
 * E = fac I - J with fac = 1 and J = γ'' C + β'' K written into its values).
 * The pattern may grow at an evaluation (contact between parts that were
 * apart): the KLU structures are rebuilt for the new version and K, C
 * evaluated again, as the first-order methods do with jac_pattern.
 * While the pattern is its first version and lies within the bands
 * (lie_ml, lie_mu) (e.g. rods whose contacts stay within each rod's band),
 * K and C are copied into galpha's band matrices and S gets the banded LU,
 * as with jac_tangent: a run without far contacts takes the band path bit
 * for bit; KLU takes over when the pattern grows. */
#include <stdlib.h>
#include <string.h>

#include "galpha_internal.h"
#include "integrate/lsys_sparse.h"

struct galpha_sparse {
  cosrod_ode_problem tp; /* the tangent pattern as a problem of dimension nv (for lsys_sparse.c) */
  cosrod_lsys_sparse *L;
  double *Kx, *Cx; /* (cap) */
  int cap;
  int banded; /* the pattern is the first version and within the bands: the band path */
};

/* Marks the shadow problem's values as analytic (no difference groups); never called. */
static int no_values(double t, const double *y, double *Jx, void *user) {
  (void)t, (void)y, (void)Jx, (void)user;
  return -1;
}

int galpha_sparse_wanted(const cosrod_ode_problem *p) {
  return p->jac_tangent_sp && p->tangent_pattern && cosrod_sparse_available();
}

void galpha_sparse_free(galpha_sparse *g) {
  if (!g) return;
  cosrod_lsys_sparse_free(g->L);
  free(g->Kx);
  free(g->Cx);
  free(g);
}

/* Kx, Cx hold at least nnz values. */
static cosrod_status reserve(galpha_sparse *g, int nnz) {
  if (nnz <= g->cap) return COSROD_OK;
  const int cap = nnz < g->cap + g->cap / 2 ? g->cap + g->cap / 2 : nnz;
  double *k = realloc(g->Kx, (size_t)cap * sizeof *k);
  if (k) g->Kx = k;
  double *c = realloc(g->Cx, (size_t)cap * sizeof *c);
  if (c) g->Cx = c;
  if (!k || !c) return COSROD_ERR_NOMEM;
  g->cap = cap;
  return COSROD_OK;
}

/* 1 if every entry of the pattern lies within the bands (ml, mu). */
static int within(const int *cp, const int *ri, int nv, int ml, int mu) {
  for (int j = 0; j < nv; j++)
    for (int k = cp[j]; k < cp[j + 1]; k++)
      if (ri[k] - j > ml || j - ri[k] > mu) return 0;
  return 1;
}

cosrod_status galpha_sparse_create(galpha_sparse **out, const cosrod_ode_problem *p, int nv, int ml, int mu) {
  *out = NULL;
  galpha_sparse *g = calloc(1, sizeof *g);
  if (!g) return COSROD_ERR_NOMEM;
  g->tp.n = nv;
  g->tp.user = p->user;
  g->tp.jac_sparse = 1;
  g->tp.jac_sp = no_values;
  g->tp.jac_pattern = p->tangent_pattern;
  p->tangent_pattern(p->user, &g->tp.jac_colptr, &g->tp.jac_rowind);
  cosrod_status st = cosrod_lsys_sparse_create(&g->L, &g->tp);
  if (st == COSROD_OK) st = reserve(g, g->L->sj.nnz > 0 ? g->L->sj.nnz : 1);
  if (st == COSROD_OK) g->banded = within(g->L->sj.colptr, g->L->sj.rowind, nv, ml, mu);
  if (st != COSROD_OK) {
    galpha_sparse_free(g);
    return st;
  }
  *out = g;
  return COSROD_OK;
}

static int eval(galpha_sparse *g, const cosrod_ode_problem *p, double t, const double *y) {
  const size_t nnz = (size_t)g->L->sj.nnz;
  memset(g->Kx, 0, nnz * sizeof *g->Kx);
  memset(g->Cx, 0, nnz * sizeof *g->Cx);
  return p->jac_tangent_sp(t, y, g->Kx, g->Cx, p->user);
}

int galpha_sparse_jac(galpha_sparse *g, cosrod_step_ctx *ctx, double t, const double *y) {
  const cosrod_ode_problem *p = ctx->problem;
  int rc = eval(g, p, t, y);
  if (rc != 0) return rc;
  const int *cp = NULL, *ri = NULL;
  const long v = p->tangent_pattern(p->user, &cp, &ri);
  rc = cosrod_lsys_sparse_repattern(g->L, ctx, v, cp, ri);
  if (rc <= 0) return rc;
  g->banded = 0; /* KLU from now on */
  if (reserve(g, g->L->sj.nnz) != COSROD_OK) {
    cosrod_step_fail(ctx, COSROD_ERR_NOMEM, t, "galpha: no memory for the grown tangent pattern (nnz = %d)",
                     g->L->sj.nnz);
    return -1;
  }
  return eval(g, p, t, y); /* on the grown pattern */
}

cosrod_status galpha_sparse_factor(galpha_sparse *g, double gpp, double bpp) {
  double *Jx = g->L->Jx;
  for (int k = 0; k < g->L->sj.nnz; k++) Jx[k] = gpp * g->Cx[k] + bpp * g->Kx[k];
  return cosrod_lsys_sparse_factor(g->L, 1.0, NULL);
}

void galpha_sparse_solve(galpha_sparse *g, double *b) { cosrod_lsys_sparse_solve(g->L, b); }

int galpha_sparse_banded(const galpha_sparse *g) { return g->banded; }

void galpha_sparse_to_band(const galpha_sparse *g, cosrod_band *K, cosrod_band *C) {
  const int *cp = g->L->sj.colptr, *ri = g->L->sj.rowind;
  cosrod_band_zero(K);
  cosrod_band_zero(C);
  for (int j = 0; j < g->L->sj.n; j++)
    for (int k = cp[j]; k < cp[j + 1]; k++) {
      const size_t at = (size_t)j * (size_t)K->ld + (size_t)(K->ml + K->mu + ri[k] - j);
      K->data[at] = g->Kx[k];
      C->data[at] = g->Cx[k];
    }
}
