/* RODAS: the stiffly accurate Rosenbrock method of order 4(3) with 6 stages
 * and γ = 1/4 of Hairer & Wanner, Solving ODEs II, §IV.7 (construction of
 * RODAS, Table 7.? / the "RODAS" coefficient set with c2 = 0.386, c3 = 0.21,
 * c4 = 0.63, β'2 = 0.0317, β'3 = 0.0635, β'4 = 0.3438), for M y' = f(t, y)
 * with a constant, possibly singular (index-1 DAE) mass matrix M (§VI.4).
 *
 * One step in the transformed variables u_i = h Σ γ_ij k_j (HW II (7.4')):
 *   (1/(hγ) M − J) u_i = f(t + c_i h, y + Σ_{j<i} a_ij u_j)
 *                        + M Σ_{j<i} (C_ij/h) u_j + d_i h f_t,
 * with J = ∂f/∂y and f_t = ∂f/∂t at (t, y).  The method is stiffly accurate:
 * c5 = c6 = 1, stage 6 is evaluated at y + Σ a_5j u_j + u_5, and
 *   y1 = (that) + u_6,    error estimate = u_6 (the embedded order-3 result is
 *   the stage-6 argument), err = ||u_6||, sk_i = atol_i + rtol_i max(|y0_i|, |y1_i|).
 * Dense output of order 3:
 *   y(t + θh) = (1−θ) y0 + θ (y1 + (1−θ)(Σ h2j u_j + θ Σ h3j u_j)).
 *
 * Control as the original code: Jacobian (and f(t, y), and f_t when the
 * problem is time dependent) once per accepted step, kept after a rejection;
 * one LU per attempted step; 6 f per accepted step, 5 per rejected one;
 * q = hnew/h = clamp(0.9 err^(-1/4), 0.2, 6), and after the first accepted step
 * the minimum with Gustafsson's predictive factor (HW II (8.25)); after a
 * rejection the next step may not grow.  A singular E halves h (5 times in a
 * row: failure; counted in nconvfail).  NaN/Inf in f or J at the accepted
 * point ends the run with ERR_NONFINITE (a smaller step would evaluate the
 * same).  Second-order structure and banded Jacobians go through
 * lsys.c (Hairer's M1 reduction). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/lsys.h"
#include "integrate/rodas_coef.h"

typedef struct rodas_state {
  int n;
  cosrod_lsys *L;
  double *dy0;             /* (n) f(t, y) at the start of the step */
  double *fx;              /* (n) ∂f/∂t there (time-dependent problems) */
  double *k[6];            /* (n) stage solutions u_1..u_6 */
  double *ys, *ynew, *rhs; /* (n) stage argument, new solution, right-hand side */
  double *mu;              /* (n) M * (Σ C_ij/h u_j) */
  double *cont;            /* (4n) dense output: y0, y1, a, b */
  double safety, fac_min, fac_max;
  int gustafsson;
  int have_jac; /* J, dy0 and fx belong to the current (t, y) */
  int reject;   /* the last attempt was rejected */
  int nsing;    /* consecutive singular matrices */
  double h_acc, err_acc;
  long naccept; /* own count (Gustafsson starts after the first accepted step) */
  double t_old, h_old;
} rodas_state;

static void rodas_free(void *s_) {
  rodas_state *s = s_;
  if (!s) return;
  cosrod_lsys_free(s->L);
  free(s->dy0);
  free(s);
}

static cosrod_status rodas_alloc(void **out, cosrod_step_ctx *ctx) {
  const cosrod_integrate_options *o = ctx->opts;
  rodas_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  s->n = n;
  cosrod_status st = cosrod_lsys_create_ex(&s->L, ctx, 1);
  if (st != COSROD_OK) {
    free(s);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "rodas: inconsistent Jacobian or mass-matrix bandwidths")
               : st;
  }
  s->dy0 = calloc((size_t)n * 16, sizeof(double));
  if (!s->dy0) {
    rodas_free(s);
    return COSROD_ERR_NOMEM;
  }
  double *p = s->dy0;
  s->fx = p += n;
  for (int i = 0; i < 6; i++) s->k[i] = p += n;
  s->ys = p += n;
  s->ynew = p += n;
  s->rhs = p += n;
  s->mu = p += n;
  s->cont = p += n;
  s->safety = o->safety > 0.0 ? o->safety : 0.9;
  s->fac_min = o->fac_min > 0.0 ? o->fac_min : 0.2;
  s->fac_max = o->fac_max > 0.0 ? o->fac_max : 6.0;
  s->gustafsson = o->controller != COSROD_CONTROLLER_CLASSICAL;
  ctx->clip_factor = 1.0001; /* as the original: (x + 1.0001 h - xend) >= 0 ends the run */
  *out = s;
  return COSROD_OK;
}

static cosrod_status rodas_reset(void *s_, cosrod_step_ctx *ctx) {
  rodas_state *s = s_;
  s->have_jac = 0;
  s->reject = 0;
  s->nsing = 0;
  s->naccept = 0;
  s->h_acc = s->err_acc = 0.0;
  s->h_old = 0.0;
  s->t_old = ctx->t;
  if (cosrod_lsys_load_mass(s->L, ctx) != 0) return COSROD_ERR_CALLBACK;
  if (ctx->h == 0.0) ctx->h = ctx->dir * fmin(1e-6, ctx->hmax); /* the original's default */
  return COSROD_OK;
}

/* Recoverable failure of a callback (counted in nreject) or a singular matrix
 * (counted in nconvfail by the caller): reject, halve h. */
static cosrod_status retry_half(rodas_state *s, cosrod_step_ctx *ctx, int *accepted, int convergence) {
  *accepted = 0;
  s->reject = 1;
  if (s->naccept >= 1 && !convergence) ctx->stats->nreject++;
  ctx->h *= 0.5;
  return COSROD_OK;
}

/* f, Jacobian and f_t at the start of the step. */
static int rodas_jacobian(rodas_state *s, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  const int n = s->n;
  const double t = ctx->t;
  int rc = cosrod_step_call_f(ctx, t, ctx->y, s->dy0);
  if (rc != 0) return rc;
  rc = cosrod_lsys_jac(s->L, ctx, t, ctx->y, s->dy0);
  if (rc != 0) return rc;
  if (p->time_dependent) {
    if (p->dfdt) {
      rc = p->dfdt(t, ctx->y, s->fx, p->user);
      if (rc < 0)
        cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t, "df/dt callback returned %d (fatal) at t = %.17g", rc,
                         t);
      if (rc != 0) return rc;
    } else {
      double delt = sqrt(ctx->uround * fmax(1e-5, fabs(t)));
      rc = cosrod_step_call_f(ctx, t + delt, ctx->y, s->fx);
      if (rc != 0) return rc;
      for (int i = 0; i < n; i++) s->fx[i] = (s->fx[i] - s->dy0[i]) / delt;
    }
  }
  s->have_jac = 1;
  return 0;
}

/* rhs <- f-part (already in rhs) + M (Σ_j c_j u_j) + d h f_t, then solve into u. */
static void stage_solve(rodas_state *s, cosrod_step_ctx *ctx, int nprev, const double *cij, double d,
                        double h, double *u) {
  const int n = s->n;
  double *sum = s->mu; /* scratch */
  if (nprev > 0) {
    for (int i = 0; i < n; i++) {
      double a = 0.0;
      for (int j = 0; j < nprev; j++) a += cij[j] * s->k[j][i];
      sum[i] = a / h;
    }
    if (s->L->has_mass) {
      cosrod_lsys_mass_mult(s->L, sum, u);
      for (int i = 0; i < n; i++) s->rhs[i] += u[i];
    } else {
      for (int i = 0; i < n; i++) s->rhs[i] += sum[i];
    }
  }
  if (ctx->problem->time_dependent && d != 0.0)
    for (int i = 0; i < n; i++) s->rhs[i] += d * h * s->fx[i];
  memcpy(u, s->rhs, sizeof(double) * (size_t)n);
  cosrod_lsys_solve(s->L, u);
  ctx->stats->nsolve++;
}

static cosrod_status rodas_step(void *s_, cosrod_step_ctx *ctx, int *accepted) {
  rodas_state *s = s_;
  const int n = s->n;
  const double t = ctx->t, h = ctx->h;
  const double *y = ctx->y;
  double **k = s->k, *ys = s->ys;
  int rc;
  *accepted = 0;
  if (ctx->y_modified) {
    s->have_jac = 0;
    ctx->y_modified = 0;
  }
  if (!s->have_jac) {
    const int nonfinite_before = ctx->nonfinite;
    ctx->nonfinite = 0;
    rc = rodas_jacobian(s, ctx);
    const int nonfinite_here = ctx->nonfinite;
    ctx->nonfinite |= nonfinite_before;
    if (rc < 0) return COSROD_ERR_CALLBACK;
    /* NaN/Inf in f, f_t or J at the accepted point: a smaller step evaluates the same */
    if (rc > 0 && nonfinite_here) return COSROD_ERR_NONFINITE; /* message by cosrod_step_call_f/_jac */
    if (rc > 0) return retry_half(s, ctx, accepted, 0);
  }
  ctx->stats->nsteps++;

  /* E = 1/(h γ) M - J and its LU */
  cosrod_status st = cosrod_lsys_factor(s->L, 1.0 / (h * GAMMA));
  ctx->stats->ndecomp++;
  if (st == COSROD_ERR_INTERRUPTED)
    return cosrod_step_fail(ctx, st, t, "rodas: interrupted in the iteration matrix (t = %.17g)", t);
  if (st != COSROD_OK) {
    ctx->stats->nconvfail++;
    if (++s->nsing >= 5)
      return cosrod_step_fail(ctx, COSROD_ERR_SINGULAR, t,
                              "rodas: matrix (1/(h gamma)) M - J is singular 5 times in a row at t = %.17g",
                              t);
    return retry_half(s, ctx, accepted, 1);
  }
  s->nsing = 0;

  static const double c2[1] = {C21}, c3[2] = {C31, C32}, c4[3] = {C41, C42, C43},
                      c5[4] = {C51, C52, C53, C54}, c6[5] = {C61, C62, C63, C64, C65};
  /* stage 1 */
  memcpy(s->rhs, s->dy0, sizeof(double) * (size_t)n);
  stage_solve(s, ctx, 0, NULL, D1, h, k[0]);
  /* stage 2 */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A21 * k[0][i];
  if ((rc = cosrod_step_call_f(ctx, t + C2 * h, ys, s->rhs)) != 0) goto f_failed;
  stage_solve(s, ctx, 1, c2, D2, h, k[1]);
  /* stage 3 */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A31 * k[0][i] + A32 * k[1][i];
  if ((rc = cosrod_step_call_f(ctx, t + C3 * h, ys, s->rhs)) != 0) goto f_failed;
  stage_solve(s, ctx, 2, c3, D3, h, k[2]);
  /* stage 4 */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A41 * k[0][i] + A42 * k[1][i] + A43 * k[2][i];
  if ((rc = cosrod_step_call_f(ctx, t + C4 * h, ys, s->rhs)) != 0) goto f_failed;
  stage_solve(s, ctx, 3, c4, D4, h, k[3]);
  /* stage 5 (c5 = 1, d5 = 0) */
  for (int i = 0; i < n; i++) ys[i] = y[i] + A51 * k[0][i] + A52 * k[1][i] + A53 * k[2][i] + A54 * k[3][i];
  if ((rc = cosrod_step_call_f(ctx, t + h, ys, s->rhs)) != 0) goto f_failed;
  stage_solve(s, ctx, 4, c5, 0.0, h, k[4]);
  /* stage 6 (stiffly accurate: argument = stage-5 argument + u5) */
  for (int i = 0; i < n; i++) ys[i] += k[4][i];
  if ((rc = cosrod_step_call_f(ctx, t + h, ys, s->rhs)) != 0) goto f_failed;
  stage_solve(s, ctx, 5, c6, 0.0, h, k[5]);
  for (int i = 0; i < n; i++) s->ynew[i] = ys[i] + k[5][i];

  /* error = u6 */
  double err = cosrod_integrate_err_norm(ctx, k[5], y, s->ynew);
  if (!isfinite(err)) {
    ctx->nonfinite = 1;
    *accepted = 0;
    s->reject = 1;
    if (s->naccept >= 1) ctx->stats->nreject++;
    ctx->h = h * s->fac_min;
    return COSROD_OK;
  }
  double q = cosrod_control_standard(err, 0.25, s->safety, s->fac_min, s->fac_max);
  if (err <= 1.0) {
    ctx->stats->naccept++;
    s->naccept++;
    if (s->gustafsson) {
      if (s->naccept > 1) {
        double qg =
            cosrod_control_gustafsson(err, h, s->err_acc, s->h_acc, 0.25, s->safety, s->fac_min, s->fac_max);
        q = fmin(q, qg);
      }
      s->h_acc = h;
      s->err_acc = fmax(1e-2, err);
    }
    /* dense output coefficients */
    double *y0c = s->cont, *y1c = y0c + n, *ac = y1c + n, *bc = ac + n;
    for (int i = 0; i < n; i++) {
      y0c[i] = y[i];
      y1c[i] = s->ynew[i];
      ac[i] = H21 * k[0][i] + H22 * k[1][i] + H23 * k[2][i] + H24 * k[3][i] + H25 * k[4][i];
      bc[i] = H31 * k[0][i] + H32 * k[1][i] + H33 * k[2][i] + H34 * k[3][i] + H35 * k[4][i];
    }
    memcpy(ctx->y, s->ynew, sizeof(double) * (size_t)n);
    s->t_old = t;
    s->h_old = h;
    ctx->t_old = t;
    ctx->t = t + h;
    ctx->h_last = h;
    double hnew = h * q;
    if (fabs(hnew) > ctx->hmax) hnew = ctx->dir * ctx->hmax;
    if (s->reject) hnew = ctx->dir * fmin(fabs(hnew), fabs(h));
    s->reject = 0;
    s->have_jac = 0; /* new Jacobian at every accepted step */
    ctx->h = hnew;
    *accepted = 1;
  } else {
    s->reject = 1;
    if (s->naccept >= 1) ctx->stats->nreject++;
    ctx->h = h * q; /* Jacobian kept */
  }
  return COSROD_OK;

f_failed:
  if (rc < 0) return COSROD_ERR_CALLBACK;
  return retry_half(s, ctx, accepted, 0);
}

static cosrod_status rodas_dense(void *s_, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                 double *out) {
  (void)ctx;
  const rodas_state *s = s_;
  if (s->h_old == 0.0) return COSROD_ERR_INVALID;
  const int n = s->n;
  const double th = (t - s->t_old) / s->h_old, th1 = 1.0 - th;
  const double *y0c = s->cont, *y1c = y0c + n, *ac = y1c + n, *bc = ac + n;
  int m = idx ? nidx : n;
  for (int kk = 0; kk < m; kk++) {
    int i = idx ? idx[kk] : kk;
    out[kk] = th1 * y0c[i] + th * (y1c[i] + th1 * (ac[i] + th * bc[i]));
  }
  return COSROD_OK;
}

static const cosrod_step_type rodas_type = {
    "rodas",
    4,
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE |
        COSROD_STEP_SPARSE,
    rodas_alloc,
    rodas_reset,
    rodas_step,
    rodas_dense,
    rodas_free,
};

const cosrod_step_type *const cosrod_step_rodas = &rodas_type;
