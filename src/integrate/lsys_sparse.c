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

int cosrod_sparse_jac_usable(const cosrod_ode_problem *p) {
  const int diag_mass = !p->mass || (p->mass_banded && p->mass_ml == 0 && p->mass_mu == 0);
  return p->jac_sparse && p->m1 <= 0 && diag_mass && p->jac_colptr && p->jac_rowind &&
         cosrod_sparse_available() && cosrod_sparse_pattern_check(p->n, p->jac_colptr, p->jac_rowind) == 0;
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
  if (cosrod_sparse_pattern_check(n, p->jac_colptr, p->jac_rowind) != 0) return COSROD_ERR_INVALID;
  sj->n = n;
  sj->colptr = p->jac_colptr;
  sj->rowind = p->jac_rowind;
  sj->nnz = p->jac_colptr[n];
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
  const int n = p->n, nnz = S->sj.nnz;
  const int *cp = S->sj.colptr, *ri = S->sj.rowind;
  /* E's pattern: J's plus the diagonal */
  int *ecp = malloc((size_t)(n + 1) * sizeof *ecp);
  int *eri = malloc(((size_t)nnz + (size_t)n) * sizeof *eri);
  S->Jx = malloc((nnz > 0 ? (size_t)nnz : 1) * sizeof *S->Jx);
  S->jpos = malloc((nnz > 0 ? (size_t)nnz : 1) * sizeof *S->jpos);
  S->dpos = malloc((size_t)n * sizeof *S->dpos);
  S->work = malloc(2 * (size_t)n * sizeof *S->work);
  if (!ecp || !eri || !S->Jx || !S->jpos || !S->dpos || !S->work) {
    free(ecp), free(eri);
    cosrod_lsys_sparse_free(S);
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
  S->E = cosrod_sparse_create(n, ecp, eri, NULL);
  free(ecp), free(eri);
  if (!S->E) {
    cosrod_lsys_sparse_free(S);
    return COSROD_ERR_NOMEM;
  }
  *out = S;
  return COSROD_OK;
}

int cosrod_lsys_sparse_jac(cosrod_lsys_sparse *S, cosrod_step_ctx *ctx, double t, const double *y,
                           const double *fy) {
  return cosrod_sparse_jac_eval(&S->sj, ctx, t, y, fy, S->Jx, S->work);
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
