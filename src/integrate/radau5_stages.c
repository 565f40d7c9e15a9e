// SPDX-License-Identifier: Apache-2.0
/* Stage systems, error estimate and dense output of radau5 (see
 * radau5_stages.h; HW II §IV.8, §VII.8).  No control decisions here. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/radau5_coef.h"
#include "integrate/radau5_stages.h"

void radau5_stages_free(radau5_stages *S) {
  if (!S) return;
  cosrod_lsys_free(S->L);
  radau5_cplx_free(S->C);
  free(S->f0); /* one block for all vectors */
  free(S);
}

cosrod_status radau5_stages_create(radau5_stages **out, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  const int n = ctx->n;
  *out = NULL;
  radau5_stages *S = calloc(1, sizeof *S);
  if (!S) return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "radau5: out of memory (n = %d)", n);
  S->n = n;
  cosrod_status st = cosrod_lsys_create_ex(&S->L, ctx, 1); /* sparse shape: both systems by KLU */
  if (st != COSROD_OK) {
    free(S);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "radau5: negative Jacobian or mass-matrix bandwidths")
               : cosrod_step_fail(ctx, st, ctx->t, "radau5: out of memory (linear systems, n = %d)", n);
  }
  cosrod_linalg_backend be = ctx->opts->linalg_backend == 1 ? COSROD_LINALG_LAPACK : COSROD_LINALG_OWN;
  st = radau5_cplx_create(&S->C, S->L, be);
  enum { NVEC = 17 }; /* f0, z, w, g (9), y_start, poly (3), scale, work, work2 */
  S->f0 = calloc((size_t)NVEC * (size_t)n, sizeof(double));
  if (st != COSROD_OK || !S->f0) {
    radau5_stages_free(S);
    return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "radau5: out of memory (n = %d)", n);
  }
  double *v = S->f0 + n;
  for (int i = 0; i < 3; i++) {
    S->z[i] = v, v += n;
    S->w[i] = v, v += n;
    S->g[i] = v, v += n;
  }
  S->y_start = v, v += n;
  S->poly = v, v += 3 * n;
  S->scale = v, v += n;
  S->work = v, v += n;
  S->work2 = v;
  if (p->nind1 || p->nind2 || p->nind3) {
    S->index2_begin = p->nind1;
    S->index3_begin = p->nind1 + p->nind2;
  } else {
    S->index2_begin = S->index3_begin = n;
  }
  *out = S;
  return COSROD_OK;
}

cosrod_status radau5_stages_eval_f0(radau5_stages *S, cosrod_step_ctx *ctx, const char *where) {
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, S->f0);
  if (rc == 0) return COSROD_OK;
  if (rc < 0) return COSROD_ERR_CALLBACK; /* message written by cosrod_step_call_f */
  if (ctx->nonfinite)
    return cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, ctx->t,
                            "radau5: right-hand side not finite at the %s t = %.17g", where, ctx->t);
  return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t,
                          "radau5: right-hand side failed (%d) at the %s t = %.17g", rc, where, ctx->t);
}

cosrod_status radau5_stages_jacobian(radau5_stages *S, cosrod_step_ctx *ctx) {
  const cosrod_lsys *L = S->L;
  int rc = cosrod_lsys_jac(S->L, ctx, ctx->t, ctx->y, S->f0);
  if (rc < 0) return COSROD_ERR_CALLBACK; /* message written */
  if (rc > 0) {
    if (ctx->nonfinite)
      return cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, ctx->t,
                              "radau5: non-finite f in the finite-difference Jacobian at t = %.17g", ctx->t);
    return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t,
                            "radau5: Jacobian evaluation failed (%d) at t = %.17g", rc, ctx->t);
  }
  const size_t len = L->S ? 0 : (size_t)L->ldj * (size_t)S->n; /* sparse: checked by the evaluation */
  for (size_t k = 0; k < len; k++)
    if (!isfinite(L->J[k])) {
      ctx->nonfinite = 1;
      return cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, ctx->t,
                              "radau5: Jacobian entry %g (storage column %zu) at t = %.17g", L->J[k],
                              k / (size_t)L->ldj, ctx->t);
    }
  return COSROD_OK;
}

cosrod_status radau5_stages_factor(radau5_stages *S, cosrod_step_ctx *ctx, double h) {
  ctx->stats->ndecomp++;
  cosrod_status st = cosrod_lsys_factor(S->L, RADAU5_GAMMA / h);
  if (st == COSROD_OK) st = radau5_cplx_factor(S->C, (RADAU5_ALPHA + I * RADAU5_BETA) / h);
  return st;
}

void radau5_stages_set_scale(radau5_stages *S, const double *rtol, const double *atol, const double *y0,
                             double h) {
  const int n = S->n;
  cosrod_integrate_scale(n, rtol, atol, y0, NULL, S->scale);
  for (int i = S->index2_begin; i < S->index3_begin; i++) S->scale[i] /= fabs(h);
  for (int i = S->index3_begin; i < n; i++) S->scale[i] /= h * h;
}

/* z_i = u(1 + δ_i) - u(1), δ_i = c_i h/h_p, u on the previous step
 * (θ = (t - t0 + h_p)/h_p), written as δ (b1 + (2 + δ) b2 + (3 + 3δ + δ²) b3). */
void radau5_stages_predict(radau5_stages *S, double h, int have_poly) {
  const int n = S->n;
  if (!have_poly || S->poly_h == 0.0) {
    for (int i = 0; i < 3; i++) {
      memset(S->z[i], 0, sizeof(double) * (size_t)n);
      memset(S->w[i], 0, sizeof(double) * (size_t)n);
    }
    return;
  }
  const double *b1 = S->poly, *b2 = S->poly + n, *b3 = S->poly + 2 * n;
  for (int i = 0; i < 3; i++) {
    const double d = RADAU5_C[i] * h / S->poly_h;
    const double k2 = 2.0 + d, k3 = 3.0 + d * (3.0 + d);
    double *z = S->z[i];
    for (int k = 0; k < n; k++) z[k] = d * (b1[k] + k2 * b2[k] + k3 * b3[k]);
  }
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++)
      S->w[i][k] =
          RADAU5_TINV[i][0] * S->z[0][k] + RADAU5_TINV[i][1] * S->z[1][k] + RADAU5_TINV[i][2] * S->z[2][k];
}

int radau5_stages_residual(radau5_stages *S, cosrod_step_ctx *ctx, double t0, const double *y0, double h) {
  const int n = S->n;
  double *ys = S->work;
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < n; k++) ys[k] = y0[k] + S->z[i][k];
    int rc = cosrod_step_call_f(ctx, t0 + RADAU5_C[i] * h, ys, S->g[i]);
    if (rc != 0) return rc;
  }
  for (int k = 0; k < n; k++) {
    const double f1 = S->g[0][k], f2 = S->g[1][k], f3 = S->g[2][k];
    for (int i = 0; i < 3; i++)
      S->g[i][k] = RADAU5_TINV[i][0] * f1 + RADAU5_TINV[i][1] * f2 + RADAU5_TINV[i][2] * f3;
  }
  /* Λ/h W: real block γ w1; complex block (α w2 - β w3, β w2 + α w3) */
  const double gh = RADAU5_GAMMA / h, ah = RADAU5_ALPHA / h, bh = RADAU5_BETA / h;
  double *lw = S->work, *mlw = S->work2;
  for (int blk = 0; blk < 3; blk++) {
    for (int k = 0; k < n; k++) {
      const double w1 = S->w[0][k], w2 = S->w[1][k], w3 = S->w[2][k];
      lw[k] = blk == 0 ? gh * w1 : blk == 1 ? ah * w2 - bh * w3 : bh * w2 + ah * w3;
    }
    const double *m = lw;
    if (S->L->has_mass) {
      cosrod_lsys_mass_mult(S->L, lw, mlw);
      m = mlw;
    }
    for (int k = 0; k < n; k++) S->g[blk][k] -= m[k];
  }
  return 0;
}

void radau5_stages_solve(radau5_stages *S, cosrod_step_ctx *ctx) {
  cosrod_lsys_solve(S->L, S->g[0]);
  radau5_cplx_solve(S->C, S->g[1], S->g[2]);
  ctx->stats->nsolve++;
}

double radau5_stages_increment_norm(const radau5_stages *S) {
  double sum = 0.0;
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < S->n; k++) {
      const double r = S->g[i][k] / S->scale[k];
      sum += r * r;
    }
  return sqrt(sum / (3.0 * S->n));
}

void radau5_stages_apply_increment(radau5_stages *S) {
  const int n = S->n;
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++) S->w[i][k] += S->g[i][k];
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++)
      S->z[i][k] = RADAU5_T[i][0] * S->w[0][k] + RADAU5_T[i][1] * S->w[1][k] + RADAU5_T[i][2] * S->w[2][k];
}

double radau5_stages_error(radau5_stages *S, cosrod_step_ctx *ctx, double h) {
  const int n = S->n;
  double *slope = S->work, *m_slope = S->work2, *est = S->g[0];
  /* u'(t0) = b1 / h of the new collocation polynomial */
  for (int k = 0; k < n; k++)
    slope[k] =
        (RADAU5_VINV[0][0] * S->z[0][k] + RADAU5_VINV[0][1] * S->z[1][k] + RADAU5_VINV[0][2] * S->z[2][k]) /
        h;
  if (S->L->has_mass)
    cosrod_lsys_mass_mult(S->L, slope, m_slope);
  else
    memcpy(m_slope, slope, sizeof(double) * (size_t)n);
  for (int k = 0; k < n; k++) est[k] = S->f0[k] - m_slope[k];
  cosrod_lsys_solve(S->L, est);
  ctx->stats->nsolve++;
  return cosrod_integrate_wrms(n, est, S->scale);
}

double radau5_stages_error_refine(radau5_stages *S, cosrod_step_ctx *ctx, double t0, const double *y0,
                                  double err_first, int *rc) {
  const int n = S->n;
  double *m_slope = S->work2, *est = S->g[0], *ytry = S->g[1];
  for (int k = 0; k < n; k++) ytry[k] = y0[k] + est[k];
  *rc = cosrod_step_call_f(ctx, t0, ytry, est);
  if (*rc != 0) return err_first;
  for (int k = 0; k < n; k++) est[k] -= m_slope[k];
  cosrod_lsys_solve(S->L, est);
  ctx->stats->nsolve++;
  return cosrod_integrate_wrms(n, est, S->scale);
}

void radau5_stages_store_polynomial(radau5_stages *S, const double *y0, double h) {
  const int n = S->n;
  memcpy(S->y_start, y0, sizeof(double) * (size_t)n);
  for (int j = 0; j < 3; j++) {
    double *b = S->poly + (size_t)j * (size_t)n;
    for (int k = 0; k < n; k++)
      b[k] = RADAU5_VINV[j][0] * S->z[0][k] + RADAU5_VINV[j][1] * S->z[1][k] + RADAU5_VINV[j][2] * S->z[2][k];
  }
  S->poly_h = h;
}

cosrod_status radau5_stages_dense(const radau5_stages *S, double theta, const int *idx, int nidx,
                                  double *out) {
  const int n = S->n;
  const double *b1 = S->poly, *b2 = S->poly + n, *b3 = S->poly + 2 * n;
  const int count = idx ? nidx : n;
  for (int j = 0; j < count; j++) {
    const int k = idx ? idx[j] : j;
    if (k < 0 || k >= n) return COSROD_ERR_INVALID;
    out[j] = S->y_start[k] + theta * (b1[k] + theta * (b2[k] + theta * b3[k]));
  }
  return COSROD_OK;
}
