// SPDX-License-Identifier: Apache-2.0
/* Stages, error estimate and dense output of rodas (see rodas_stages.h;
 * HW II §IV.7).  No control decisions here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/rodas_coef.h"
#include "integrate/rodas_stages.h"

void rodas_stages_free(rodas_stages *S) {
  if (!S) return;
  cosrod_lsys_free(S->L);
  free(S->dy0);
  free(S);
}

cosrod_status rodas_stages_create(rodas_stages **out, cosrod_step_ctx *ctx) {
  *out = NULL;
  rodas_stages *S = calloc(1, sizeof *S);
  if (!S) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  S->n = n;
  cosrod_status st = cosrod_lsys_create_ex(&S->L, ctx, 1);
  if (st != COSROD_OK) {
    free(S);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "rodas: inconsistent Jacobian or mass-matrix bandwidths")
               : st;
  }
  S->dy0 = calloc((size_t)n * 16, sizeof(double));
  if (!S->dy0) {
    rodas_stages_free(S);
    return COSROD_ERR_NOMEM;
  }
  double *p = S->dy0;
  S->fx = p += n;
  for (int i = 0; i < 6; i++) S->k[i] = p += n;
  S->ys = p += n;
  S->ynew = p += n;
  S->rhs = p += n;
  S->mu = p += n;
  S->cont = p += n;
  *out = S;
  return COSROD_OK;
}

int rodas_stages_jacobian(rodas_stages *S, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  const int n = S->n;
  const double t = ctx->t;
  int rc = cosrod_step_call_f(ctx, t, ctx->y, S->dy0);
  if (rc != 0) return rc;
  rc = cosrod_lsys_jac(S->L, ctx, t, ctx->y, S->dy0);
  if (rc != 0) return rc;
  if (p->time_dependent) {
    if (p->dfdt) {
      rc = p->dfdt(t, ctx->y, S->fx, p->user);
      if (rc < 0)
        cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t, "df/dt callback returned %d (fatal) at t = %.17g", rc,
                         t);
      if (rc != 0) return rc;
    } else {
      double delt = sqrt(ctx->uround * fmax(1e-5, fabs(t)));
      rc = cosrod_step_call_f(ctx, t + delt, ctx->y, S->fx);
      if (rc != 0) return rc;
      for (int i = 0; i < n; i++) S->fx[i] = (S->fx[i] - S->dy0[i]) / delt;
    }
  }
  return 0;
}

cosrod_status rodas_stages_factor(rodas_stages *S, cosrod_step_ctx *ctx, double h) {
  ctx->stats->ndecomp++;
  return cosrod_lsys_factor(S->L, 1.0 / (h * GAMMA));
}

/* rhs <- f-part (already in rhs) + M (Σ_j c_j u_j)/h + d h f_t, then solve into u. */
static void stage_solve(rodas_stages *S, cosrod_step_ctx *ctx, int nprev, const double *cij, double d,
                        double h, double *u) {
  const int n = S->n;
  double *sum = S->mu;
  if (nprev > 0) {
    for (int i = 0; i < n; i++) {
      double a = 0.0;
      for (int j = 0; j < nprev; j++) a += cij[j] * S->k[j][i];
      sum[i] = a / h;
    }
    if (S->L->has_mass) {
      cosrod_lsys_mass_mult(S->L, sum, u);
      for (int i = 0; i < n; i++) S->rhs[i] += u[i];
    } else {
      for (int i = 0; i < n; i++) S->rhs[i] += sum[i];
    }
  }
  if (ctx->problem->time_dependent && d != 0.0)
    for (int i = 0; i < n; i++) S->rhs[i] += d * h * S->fx[i];
  memcpy(u, S->rhs, sizeof(double) * (size_t)n);
  cosrod_lsys_solve(S->L, u);
  ctx->stats->nsolve++;
}

int rodas_stages_compute(rodas_stages *S, cosrod_step_ctx *ctx, double t, const double *y, double h) {
  const int n = S->n;
  double **k = S->k, *ys = S->ys;
  int rc;
  static const double c2[1] = {C21}, c3[2] = {C31, C32}, c4[3] = {C41, C42, C43},
                      c5[4] = {C51, C52, C53, C54}, c6[5] = {C61, C62, C63, C64, C65};
  /* stage 1 */
  memcpy(S->rhs, S->dy0, sizeof(double) * (size_t)n);
  stage_solve(S, ctx, 0, NULL, D1, h, k[0]);
  /* stage 2 */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A21 * k[0][i];
  if ((rc = cosrod_step_call_f(ctx, t + C2 * h, ys, S->rhs)) != 0) return rc;
  stage_solve(S, ctx, 1, c2, D2, h, k[1]);
  /* stage 3 */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A31 * k[0][i] + A32 * k[1][i];
  if ((rc = cosrod_step_call_f(ctx, t + C3 * h, ys, S->rhs)) != 0) return rc;
  stage_solve(S, ctx, 2, c3, D3, h, k[2]);
  /* stage 4 */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A41 * k[0][i] + A42 * k[1][i] + A43 * k[2][i];
  if ((rc = cosrod_step_call_f(ctx, t + C4 * h, ys, S->rhs)) != 0) return rc;
  stage_solve(S, ctx, 3, c4, D4, h, k[3]);
  /* stage 5 (c5 = 1, d5 = 0) */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A51 * k[0][i] + A52 * k[1][i] + A53 * k[2][i] + A54 * k[3][i];
  if ((rc = cosrod_step_call_f(ctx, t + h, ys, S->rhs)) != 0) return rc;
  stage_solve(S, ctx, 4, c5, 0.0, h, k[4]);
  /* stage 6 (stiffly accurate: argument = stage-5 argument + u5) */
  for (int i = 0; i < n; i++) ys[i] += k[4][i];
  if ((rc = cosrod_step_call_f(ctx, t + h, ys, S->rhs)) != 0) return rc;
  stage_solve(S, ctx, 5, c6, 0.0, h, k[5]);
  for (int i = 0; i < n; i++) S->ynew[i] = ys[i] + k[5][i];
  return 0;
}

void rodas_stages_store_dense(rodas_stages *S, double t, const double *y, double h) {
  const int n = S->n;
  double **k = S->k;
  double *y0c = S->cont, *y1c = y0c + n, *ac = y1c + n, *bc = ac + n;
  for (int i = 0; i < n; i++) {
    y0c[i] = y[i];
    y1c[i] = S->ynew[i];
    ac[i] = H21 * k[0][i] + H22 * k[1][i] + H23 * k[2][i] + H24 * k[3][i] + H25 * k[4][i];
    bc[i] = H31 * k[0][i] + H32 * k[1][i] + H33 * k[2][i] + H34 * k[3][i] + H35 * k[4][i];
  }
  S->t_old = t;
  S->h_old = h;
}

cosrod_status rodas_stages_dense(const rodas_stages *S, double t, const int *idx, int nidx, double *out) {
  if (S->h_old == 0.0) return COSROD_ERR_INVALID;
  const int n = S->n;
  const double th = (t - S->t_old) / S->h_old, th1 = 1.0 - th;
  const double *y0c = S->cont, *y1c = y0c + n, *ac = y1c + n, *bc = ac + n;
  const int m = idx ? nidx : n;
  for (int kk = 0; kk < m; kk++) {
    const int i = idx ? idx[kk] : kk;
    out[kk] = th1 * y0c[i] + th * (y1c[i] + th1 * (ac[i] + th * bc[i]));
  }
  return COSROD_OK;
}
