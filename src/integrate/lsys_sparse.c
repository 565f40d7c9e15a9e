// SPDX-License-Identifier: Apache-2.0
/* Sparse Jacobians and the KLU systems E = fac M - J (M = I or diagonal) of the implicit
 * integrators (see lsys_sparse.h).  Finite differences: columns of one
 * Curtis-Powell-Reid group share no row, so one perturbed evaluation of f
 * gives them all (Curtis, Powell & Reid 1974; HW II §IV.8 for the band
 * analogue); the increments are those of the banded differences
 * (control.c), so that a banded and a sparse Jacobian of the same problem
 * agree entry by entry. */
#include "integrate/lsys_sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The problem's current pattern: a growing one's latest version (jac_pattern), else the fixed one. */
static long current(const cosrod_ode_problem *p, const int **cp, const int **ri) {
  *cp = p->jac_colptr, *ri = p->jac_rowind;
  return p->jac_sp && p->jac_pattern ? p->jac_pattern(p->user, cp, ri) : 0;
}

int cosrod_sparse_jac_usable(const cosrod_ode_problem *p) {
  const int diag_mass = !p->mass || (p->mass_banded && p->mass_ml == 0 && p->mass_mu == 0);
  if (!p->jac_sparse || p->m1 > 0 || !diag_mass || !cosrod_sparse_available()) return 0;
  const int *cp, *ri;
  current(p, &cp, &ri);
  return cp && ri && cosrod_sparse_pattern_check(p->n, cp, ri) == 0;
}

void cosrod_sparse_jac_free(cosrod_sparse_jac *sj) {
  if (!sj) return;
  free(sj->gptr);
  free(sj->gcol);
  sj->gptr = sj->gcol = NULL;
}

cosrod_status cosrod_sparse_jac_init(cosrod_sparse_jac *sj, const cosrod_ode_problem *p) {
  memset(sj, 0, sizeof *sj);
  const int n = p->n;
  const int *cp, *ri;
  current(p, &cp, &ri);
  if (!cp || !ri || cosrod_sparse_pattern_check(n, cp, ri) != 0) return COSROD_ERR_INVALID;
  sj->n = n;
  sj->colptr = cp;
  sj->rowind = ri;
  sj->nnz = cp[n];
  if (p->jac_sp) return COSROD_OK; /* analytic values: no difference groups (the colouring costs nnz x row length) */
  int *colour = malloc((size_t)n * sizeof *colour);
  sj->gcol = malloc((size_t)n * sizeof *sj->gcol);
  if (!colour || !sj->gcol) {
    free(colour);
    cosrod_sparse_jac_free(sj);
    return COSROD_ERR_NOMEM;
  }
  int ng = cosrod_sparse_colour(n, sj->colptr, sj->rowind, colour);
  sj->gptr = ng > 0 ? calloc((size_t)ng + 1, sizeof *sj->gptr) : NULL;
  if (!sj->gptr) {
    free(colour);
    cosrod_sparse_jac_free(sj);
    return COSROD_ERR_NOMEM;
  }
  sj->ngroup = ng;
  for (int j = 0; j < n; j++) sj->gptr[colour[j] + 1]++;
  for (int g = 0; g < ng; g++) sj->gptr[g + 1] += sj->gptr[g];
  for (int j = 0; j < n; j++) sj->gcol[sj->gptr[colour[j]]++] = j; /* gptr[g] now at the end of g */
  for (int g = ng; g > 0; g--) sj->gptr[g] = sj->gptr[g - 1];
  sj->gptr[0] = 0;
  free(colour);
  return COSROD_OK;
}

int cosrod_sparse_jac_eval(const cosrod_sparse_jac *sj, cosrod_step_ctx *ctx, double t, const double *y,
                           const double *fy, double *Jx, double *work) {
  const cosrod_ode_problem *p = ctx->problem;
  const int n = sj->n;
  ctx->stats->njev++;
  memset(Jx, 0, (size_t)sj->nnz * sizeof *Jx);
  if (p->jac_sp) {
    int rc = p->jac_sp(t, y, Jx, p->user);
    if (rc < 0)
      cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t, "Jacobian callback returned %d (fatal) at t = %.17g", rc,
                       t);
    if (rc > 0) ctx->stats->nfail_rhs++;
    if (rc != 0) return rc;
    for (int k = 0; k < sj->nnz; k++)
      if (!isfinite(Jx[k])) {
        ctx->nonfinite = 1;
        cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, t, "sparse Jacobian entry %d is %g at t = %.17g", k,
                         Jx[k], t);
        return 1;
      }
    return 0;
  }
  double *yp = work, *fp = work + n;
  const double u = ctx->uround;
  memcpy(yp, y, (size_t)n * sizeof *yp);
  for (int g = 0; g < sj->ngroup; g++) {
    for (int m = sj->gptr[g]; m < sj->gptr[g + 1]; m++) {
      const int j = sj->gcol[m];
      yp[j] = y[j] + sqrt(u * fmax(1e-5, fabs(y[j])));
    }
    int rc = cosrod_step_call_f(ctx, t, yp, fp);
    if (rc != 0) return rc;
    for (int m = sj->gptr[g]; m < sj->gptr[g + 1]; m++) {
      const int j = sj->gcol[m];
      const double d = yp[j] - y[j];
      yp[j] = y[j];
      for (int k = sj->colptr[j]; k < sj->colptr[j + 1]; k++)
        Jx[k] = (fp[sj->rowind[k]] - fy[sj->rowind[k]]) / d;
    }
  }
  return 0;
}

void cosrod_lsys_sparse_free(cosrod_lsys_sparse *S) {
  if (!S) return;
  cosrod_sparse_jac_free(&S->sj);
  cosrod_sparse_free(S->E);
  free(S->Jx);
  free(S->jpos);
  free(S->dpos);
  free(S->work);
  free(S);
}

/* E's pattern (J's plus the diagonal), the positions of J's entries in it and
 * KLU's objects for the pattern in S->sj; Jx and jpos grow by a factor when
 * the pattern outgrows them (never shrink). */
static cosrod_status build_e(cosrod_lsys_sparse *S) {
  const int n = S->sj.n, nnz = S->sj.nnz;
  const int *cp = S->sj.colptr, *ri = S->sj.rowind;
  if (nnz > S->cap) {
    const int cap = S->cap > 0 && nnz < S->cap + S->cap / 2 ? S->cap + S->cap / 2 : nnz;
    double *jx = realloc(S->Jx, (size_t)(cap > 0 ? cap : 1) * sizeof *jx);
    if (jx) S->Jx = jx;
    int *jp = realloc(S->jpos, (size_t)(cap > 0 ? cap : 1) * sizeof *jp);
    if (jp) S->jpos = jp;
    if (!jx || !jp) return COSROD_ERR_NOMEM;
    S->cap = cap;
  }
  int *ecp = malloc((size_t)(n + 1) * sizeof *ecp);
  int *eri = malloc(((size_t)nnz + (size_t)n) * sizeof *eri);
  if (!ecp || !eri) {
    free(ecp), free(eri);
    return COSROD_ERR_NOMEM;
  }
  int e = 0;
  ecp[0] = 0;
  for (int j = 0; j < n; j++) {
    int k = cp[j];
    for (; k < cp[j + 1] && ri[k] < j; k++) S->jpos[k] = e, eri[e++] = ri[k];
    if (k < cp[j + 1] && ri[k] == j) S->jpos[k++] = e; /* J's diagonal entry */
    S->dpos[j] = e;
    eri[e++] = j;
    for (; k < cp[j + 1]; k++) S->jpos[k] = e, eri[e++] = ri[k];
    ecp[j + 1] = e;
  }
  cosrod_sparse_free(S->E);
  S->E = cosrod_sparse_create(n, ecp, eri, NULL);
  free(ecp), free(eri);
  return S->E ? COSROD_OK : COSROD_ERR_NOMEM;
}

cosrod_status cosrod_lsys_sparse_create(cosrod_lsys_sparse **out, const cosrod_ode_problem *p) {
  *out = NULL;
  if (!cosrod_sparse_jac_usable(p)) return COSROD_ERR_UNSUPPORTED;
  cosrod_lsys_sparse *S = calloc(1, sizeof *S);
  if (!S) return COSROD_ERR_NOMEM;
  cosrod_status st = cosrod_sparse_jac_init(&S->sj, p);
  if (st != COSROD_OK) {
    free(S);
    return st;
  }
  const int n = p->n;
  const int *cp, *ri;
  S->version = current(p, &cp, &ri); /* the version sj holds */
  S->dpos = malloc((size_t)n * sizeof *S->dpos);
  S->work = malloc(2 * (size_t)n * sizeof *S->work);
  st = S->dpos && S->work ? build_e(S) : COSROD_ERR_NOMEM;
  if (st != COSROD_OK) {
    cosrod_lsys_sparse_free(S);
    return st;
  }
  *out = S;
  return COSROD_OK;
}

int cosrod_lsys_sparse_update(cosrod_lsys_sparse *S, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  if (!p->jac_pattern || !p->jac_sp) return 0;
  const int *cp = NULL, *ri = NULL;
  const long v = p->jac_pattern(p->user, &cp, &ri);
  return cosrod_lsys_sparse_repattern(S, ctx, v, cp, ri);
}

int cosrod_lsys_sparse_repattern(cosrod_lsys_sparse *S, cosrod_step_ctx *ctx, long v, const int *cp,
                                 const int *ri) {
  if (v == S->version) return 0;
  if (!cp || !ri || cosrod_sparse_pattern_check(S->sj.n, cp, ri) != 0) {
    cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "the grown Jacobian pattern (version %ld) is invalid", v);
    return -1;
  }
  S->sj.colptr = cp, S->sj.rowind = ri, S->sj.nnz = cp[S->sj.n];
  S->version = v;
  if (build_e(S) != COSROD_OK) {
    cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "no memory for the grown Jacobian pattern (nnz = %d)",
                     S->sj.nnz);
    return -1;
  }
  ctx->stats->npattern++;
  return 1;
}

int cosrod_lsys_sparse_jac(cosrod_lsys_sparse *S, cosrod_step_ctx *ctx, double t, const double *y,
                           const double *fy) {
  int rc = cosrod_sparse_jac_eval(&S->sj, ctx, t, y, fy, S->Jx, S->work);
  if (rc != 0) return rc;
  rc = cosrod_lsys_sparse_update(S, ctx);
  if (rc <= 0) return rc;
  return cosrod_sparse_jac_eval(&S->sj, ctx, t, y, fy, S->Jx, S->work); /* on the grown pattern */
}

cosrod_status cosrod_lsys_sparse_factor(cosrod_lsys_sparse *S, double fac, const double *mdiag) {
  if (cosrod_interrupt_pending()) return COSROD_ERR_INTERRUPTED;
  cosrod_sparse *E = S->E;
  memset(E->data, 0, (size_t)E->nnz * sizeof *E->data);
  for (int j = 0; j < E->n; j++) E->data[S->dpos[j]] = mdiag ? fac * mdiag[j] : fac;
  for (int k = 0; k < S->sj.nnz; k++) E->data[S->jpos[k]] -= S->Jx[k];
  for (int k = 0; k < E->nnz; k++)
    if (!isfinite(E->data[k])) return COSROD_ERR_NONFINITE;
  cosrod_status st = cosrod_sparse_factor(E);
  return st == COSROD_ERR_NOMEM ? st : (st != COSROD_OK ? COSROD_ERR_SINGULAR : COSROD_OK);
}

void cosrod_lsys_sparse_solve(cosrod_lsys_sparse *S, double *b) { cosrod_sparse_solve(S->E, b); }
