// SPDX-License-Identifier: Apache-2.0
/* The sparse Jacobian shape (cosrod_ode_problem.jac_sparse) in the SUNDIALS
 * adapters: a SUNSparseMatrix (CSC) with the pattern of J plus the diagonal
 * (lsys_sparse.c builds it) and SUNDIALS' KLU linear solver (SUNLinSol_KLU:
 * symbolic analysis once, numeric refactorisation per setup).  The values
 * are the problem's jac_sp or finite differences grouped by the pattern with
 * Hairer's increments (cosrod_sparse_jac_eval; SUNDIALS' own difference
 * quotients need a dense or band matrix).  CVODE receives df/dy and forms
 * I - gamma J itself (the diagonal is in the pattern, so in place); IDA
 * receives cj I - df/dy (F = y' - f, no mass matrix). */
#include <stdlib.h>
#include <string.h>

#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "integrate/lsys_sparse.h"
#include "integrate/sundials_internal.h"

int sun_sparse_usable(const sun_state *s) {
  const cosrod_ode_problem *p = s->ctx->problem;
  return !s->residual && !p->mass && cosrod_sparse_jac_usable(p);
}

cosrod_status sun_sparse_create(sun_state *s) {
  cosrod_status st = cosrod_lsys_sparse_create(&s->sp, s->ctx->problem);
  if (st != COSROD_OK) return st;
  s->fsp = malloc((size_t)s->n * sizeof *s->fsp);
  if (!s->fsp) return COSROD_ERR_NOMEM;
  const cosrod_sparse *E = s->sp->E;
  s->A = SUNSparseMatrix(s->n, s->n, E->nnz, CSC_MAT, s->sunctx);
  if (!s->A) return COSROD_ERR_NOMEM;
  s->LS = SUNLinSol_KLU(s->y, s->A, s->sunctx);
  return s->LS ? COSROD_OK : COSROD_ERR_NOMEM;
}

/* A failed callback: fatal ones stop the solver call (as sundials_callbacks.c). */
static int result(sun_state *s, int rc, double t) {
  if (s->ctx->nonfinite) s->jac_nonfinite = 1;
  if (rc < 0) {
    s->cb_fatal = 1;
    s->t_cb_fatal = t;
    return -1;
  }
  return 1;
}

/* The pattern grew: A's capacity by a factor, KLU's symbolic analysis
 * dropped (SUNLinSol_KLUReInit, partial: the next setup analyses A's new
 * structure).  CVODE keeps its history (Nordsieck array, step size, order)
 * and its saved Jacobian copy follows A (SUNMatCopy reallocates for a larger
 * pattern); IDA evaluates A at every setup.  No re-initialisation is needed. */
static int sun_sparse_regrow(sun_state *s, SUNMatrix A) {
  const sunindextype nnz = s->sp->E->nnz;
  if (SM_NNZ_S(A) < nnz) {
    const sunindextype cap = nnz < SM_NNZ_S(A) + SM_NNZ_S(A) / 2 ? SM_NNZ_S(A) + SM_NNZ_S(A) / 2 : nnz;
    if (SUNSparseMatrix_Reallocate(A, cap) != 0) return -1;
  }
  return SUNLinSol_KLUReInit(s->LS, A, SM_NNZ_S(A), SUNKLU_REINIT_PARTIAL) == 0 ? 0 : -1;
}

/* A <- E's pattern with values: diagonal dcoef + sign * J (SUNMatZero may
 * have cleared the structure too). */
static int fill(sun_state *s, double t, const double *y, const double *fy, SUNMatrix A, double dcoef,
                double sign) {
  cosrod_lsys_sparse *S = s->sp;
  int rc = cosrod_sparse_jac_eval(&S->sj, s->ctx, t, y, fy, S->Jx, S->work);
  if (rc != 0) return result(s, rc, t);
  if ((rc = cosrod_lsys_sparse_update(S, s->ctx)) != 0) { /* the pattern grew */
    if (rc < 0) return result(s, -1, t);
    if ((rc = cosrod_sparse_jac_eval(&S->sj, s->ctx, t, y, fy, S->Jx, S->work)) != 0) return result(s, rc, t);
    if ((rc = sun_sparse_regrow(s, A)) != 0) return result(s, rc, t);
  }
  const cosrod_sparse *E = S->E;
  sunindextype *ap = SM_INDEXPTRS_S(A), *ai = SM_INDEXVALS_S(A);
  double *ax = SM_DATA_S(A);
  for (int j = 0; j <= E->n; j++) ap[j] = E->colptr[j];
  for (int k = 0; k < E->nnz; k++) ai[k] = E->rowind[k], ax[k] = 0.0;
  for (int j = 0; j < E->n; j++) ax[S->dpos[j]] = dcoef;
  for (int k = 0; k < S->sj.nnz; k++) ax[S->jpos[k]] += sign * S->Jx[k];
  return 0;
}

int sun_cv_jac_sparse(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, void *ud, N_Vector t1,
                      N_Vector t2, N_Vector t3) {
  (void)t1, (void)t2, (void)t3;
  sun_state *s = ud;
  return fill(s, t, nv(yy), nv(fy), A, 0.0, 1.0);
}

int sun_ida_jac_sparse(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector ypv, N_Vector rr, SUNMatrix A,
                       void *ud, N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)ypv, (void)rr, (void)t1, (void)t2, (void)t3;
  sun_state *s = ud;
  /* differences: f(t, y) itself (not y' - F: that loses digits of f); jac_sp needs none */
  if (!s->ctx->problem->jac_sp) {
    int rc = cosrod_step_call_f(s->ctx, t, nv(yy), s->fsp);
    if (rc != 0) return result(s, rc, t);
  }
  return fill(s, t, nv(yy), s->fsp, A, cj, -1.0);
}

void sun_sparse_free(sun_state *s) {
  cosrod_lsys_sparse_free(s->sp);
  s->sp = NULL;
  free(s->fsp);
  s->fsp = NULL;
}
