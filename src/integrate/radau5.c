/* RADAU5: the 3-stage Radau IIA collocation method (order 5, stiffly
 * accurate, L-stable) for M y' = f(t, y) with a constant, possibly singular
 * mass matrix, written from Hairer & Wanner, Solving ODEs II, §IV.8
 * ("Implementation of implicit Runge–Kutta methods") and §VII.8 (index 2/3).
 *
 * One step from (t0, y0) with size h solves the collocation system for the
 * stage increments Z = (z_1, z_2, z_3), z_i ≈ y(t0 + c_i h) - y0:
 *     (A^-1 ⊗ M) Z = h F(Z),   F(Z)_i = f(t0 + c_i h, y0 + z_i)
 * and takes y1 = y0 + z_3 (stiffly accurate).  The pieces, each a function
 * below:
 *   predict_stages         starting values from the previous step's
 *                          collocation polynomial (§IV.8 "starting values")
 *   stage_newton_solve     simplified Newton in W = (T^-1 ⊗ I) Z, one real
 *                          and one complex system per iteration
 *   newton_rate_ok         contraction rate Θ and the predicted error after
 *                          the remaining iterations ("stopping criterion")
 *   error_estimate         embedded order-3 estimate with the (I - hγ0 J)^-1
 *                          filter, refined after rejections     (8.19)-(8.20)
 *   gustafsson_step_factor predictive step-size controller          (8.25)
 *   decide_jacobian_reuse  keep J when Newton contracted fast; keep h and
 *                          the LU when the new h is close to the old
 *   collocation_dense_output  the collocation polynomial of the step.
 * Linear algebra: the real matrix (γ/h) M - J is lsys.c's (dense or banded,
 * second-order reduction, or sparse with KLU), the complex one
 * ((α+iβ)/h) M - J radau5_cplx.c (complex KLU on the same pattern).
 *
 * Tolerances: internally rtol' = 0.1 rtol^(2/3), atol' = rtol' atol/rtol
 * (the error estimate is of order 3 while the method has order 5); the scale
 * sk_i = atol'_i + rtol'_i |y0_i| is divided by |h| for index-2 and by h² for
 * index-3 components (HW II §VII.8).
 *
 * Counters: nsteps counts attempts that reach the Newton iteration; nreject
 * the error-test rejections after the first accepted step; nconvfail the
 * attempts abandoned by the Newton control (divergence, too slow
 * contraction, too many iterations, non-finite increments); ndecomp one
 * real + complex factorisation pair; nsolve one per Newton iteration and one
 * per error-estimate solve. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/lsys.h"
#include "integrate/radau5_coef.h"
#include "integrate/radau5_cplx.h"

/* Outcome of the Newton iteration of one attempt. */
typedef enum newton_outcome {
  NEWTON_CONVERGED,
  NEWTON_RETRY_SMALLER, /* abandon the attempt, retry with h * retry_factor */
  NEWTON_FATAL          /* a callback failed fatally (message written) */
} newton_outcome;

typedef struct newton_report {
  newton_outcome outcome;
  int iterations;      /* Newton iterations done */
  int convergence;     /* 1 if the retry is a convergence failure (counted in nconvfail) */
  double retry_factor; /* h_new / h for NEWTON_RETRY_SMALLER */
} newton_report;

typedef struct radau5_state {
  int n;
  cosrod_lsys *L;  /* J, M, and the real matrix (γ/h) M - J */
  radau5_cplx *C;  /* the complex matrix ((α + iβ)/h) M - J */
  double *z[3];    /* (n) stage increments z_i */
  double *w[3];    /* (n) transformed increments W = (T^-1 ⊗ I) Z */
  double *g[3];    /* (n) stage values, then Newton right-hand sides and increments */
  double *f0;      /* (n) f(t0, y0) at the start of the step */
  double *y_start; /* (n) y at the start of the last accepted step */
  double *poly;    /* (3n) b1, b2, b3 of the collocation polynomial of the last accepted step */
  double *scale;   /* (n) error scale of the current attempt */
  double *rtol_in; /* (n) internal tolerances rtol', atol' */
  double *atol_in;
  double *work, *work2; /* (n) scratch */

  /* settings (options, or the defaults of the reference code) */
  int newton_max;          /* Newton iterations per attempt [7] */
  double newton_tol;       /* κ·Tol of the stopping rule η_k ||ΔW_k|| <= κ·Tol */
  double jac_reuse_limit;  /* keep J when the contraction rate is at most this [0.001]; < 0: never */
  double keep_lo, keep_hi; /* keep h and the LU when keep_lo <= hnew/h <= keep_hi [1, 1.2] */
  double safety, fac_min, fac_max;
  int predictive;   /* Gustafsson's controller (default) */
  int index2_begin; /* components [index2_begin, index3_begin) are index 2, the rest index 3 */
  int index3_begin;

  /* memory between attempts */
  long n_accepted;  /* accepted steps since reset */
  int after_reject; /* the previous attempt was rejected */
  int jac_fresh;    /* J was evaluated at the current (t0, y0) */
  int need_jac;     /* evaluate J before the next attempt */
  int f0_stale;     /* f0 must be re-evaluated (new y0, or y changed by projection) */
  int lu_valid;     /* both factorisations belong to lu_h and the current J */
  double lu_h;
  int n_singular;          /* consecutive singular iteration matrices */
  double poly_h;           /* step size of the stored collocation polynomial */
  double acc_h, acc_err;   /* step size and error of the last accepted step (controller (8.25)) */
  double prev_eta;         /* η = Θ/(1 - Θ) of the previous Newton iteration (η_1 of the next step) */
  double contraction_rate; /* Θ observed in the last Newton iteration (jac_reuse_limit if unknown) */
} radau5_state;

/* ======================================================================== */
/* Allocation and reset                                                     */
/* ======================================================================== */

static void radau5_free(void *vs) {
  radau5_state *s = vs;
  if (!s) return;
  cosrod_lsys_free(s->L);
  radau5_cplx_free(s->C);
  free(s->f0); /* one block for all vectors */
  free(s);
}

static cosrod_status radau5_alloc(void **state, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  const cosrod_integrate_options *o = ctx->opts;
  const int n = ctx->n;
  *state = NULL;
  radau5_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  s->n = n;
  cosrod_status st = cosrod_lsys_create_ex(&s->L, ctx, 1); /* sparse shape: both systems by KLU */
  if (st != COSROD_OK) {
    free(s);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "radau5: negative Jacobian or mass-matrix bandwidths")
               : cosrod_step_fail(ctx, st, ctx->t, "radau5: out of memory (linear systems, n = %d)", n);
  }
  cosrod_linalg_backend be = o->linalg_backend == 1 ? COSROD_LINALG_LAPACK : COSROD_LINALG_OWN;
  st = radau5_cplx_create(&s->C, s->L, be);
  enum { NVEC = 19 }; /* f0, z, w, g (9), y_start, poly (3), scale, rtol', atol', work, work2 */
  s->f0 = calloc((size_t)NVEC * (size_t)n, sizeof(double));
  if (st != COSROD_OK || !s->f0) {
    radau5_free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "radau5: out of memory (n = %d)", n);
  }
  double *v = s->f0 + n;
  for (int i = 0; i < 3; i++) {
    s->z[i] = v, v += n;
    s->w[i] = v, v += n;
    s->g[i] = v, v += n;
  }
  s->y_start = v, v += n;
  s->poly = v, v += 3 * n;
  s->scale = v, v += n;
  s->rtol_in = v, v += n;
  s->atol_in = v, v += n;
  s->work = v, v += n;
  s->work2 = v;

  s->newton_max = o->max_newton > 0 ? o->max_newton : 7;
  s->jac_reuse_limit = o->jac_reuse != 0.0 ? o->jac_reuse : 0.001;
  s->keep_lo = o->keep_h_lo > 0.0 ? o->keep_h_lo : 1.0;
  s->keep_hi = o->keep_h_hi > 0.0 ? o->keep_h_hi : 1.2;
  s->safety = o->safety > 0.0 ? o->safety : 0.9;
  s->fac_min = o->fac_min > 0.0 ? o->fac_min : 0.2;
  s->fac_max = o->fac_max > 0.0 ? o->fac_max : 8.0;
  s->predictive = o->controller != COSROD_CONTROLLER_CLASSICAL;
  if (p->nind1 || p->nind2 || p->nind3) {
    s->index2_begin = p->nind1;
    s->index3_begin = p->nind1 + p->nind2;
  } else {
    s->index2_begin = s->index3_begin = n;
  }
  *state = s;
  return COSROD_OK;
}

/* f at the accepted point with the failure reported as what it is. */
static cosrod_status eval_f0(radau5_state *s, cosrod_step_ctx *ctx, const char *where) {
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->f0);
  if (rc == 0) return COSROD_OK;
  if (rc < 0) return COSROD_ERR_CALLBACK; /* message written by cosrod_step_call_f */
  if (ctx->nonfinite)
    return cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, ctx->t,
                            "radau5: right-hand side not finite at the %s t = %.17g", where, ctx->t);
  return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t,
                          "radau5: right-hand side failed (%d) at the %s t = %.17g", rc, where, ctx->t);
}

static cosrod_status radau5_reset(void *vs, cosrod_step_ctx *ctx) {
  radau5_state *s = vs;
  const int n = s->n;
  const double u = ctx->uround;
  for (int i = 0; i < n; i++) {
    const double rt = ctx->rtol[i], at = ctx->atol[i];
    /* zero error weights (atol_i + rtol_i |y0_i| = 0) are refused by the framework */
    if (!(rt > 10.0 * u) || !(at >= 0.0))
      return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t,
                              "radau5: needs rtol > 10 uround and atol >= 0 (component %d: rtol %g, atol %g)",
                              i, rt, at);
    /* the estimate is O(h^4), the solution O(h^6): tighten as rtol^(2/3) */
    s->rtol_in[i] = 0.1 * pow(rt, 2.0 / 3.0);
    s->atol_in[i] = s->rtol_in[i] * (at / rt);
  }
  /* κ·Tol of the stopping rule: a fraction of the internal tolerance, never below
   * what roundoff allows */
  s->newton_tol = ctx->opts->newton_tol > 0.0
                      ? ctx->opts->newton_tol
                      : fmax(10.0 * u / s->rtol_in[0], fmin(0.03, sqrt(s->rtol_in[0])));
  if (cosrod_lsys_load_mass(s->L, ctx) != 0) return COSROD_ERR_CALLBACK;
  cosrod_status st = eval_f0(s, ctx, "initial point");
  if (st != COSROD_OK) return st;
  double h = fabs(ctx->h);
  if (h <= 10.0 * u) h = 1e-6;
  ctx->h = ctx->dir * fmin(h, ctx->hmax);
  s->n_accepted = 0;
  s->after_reject = 0;
  s->jac_fresh = 0;
  s->need_jac = 1;
  s->f0_stale = 0;
  s->lu_valid = 0;
  s->lu_h = 0.0;
  s->n_singular = 0;
  s->poly_h = ctx->h;
  s->acc_h = ctx->h;
  s->acc_err = 1e-2;
  s->prev_eta = 1.0;
  s->contraction_rate = fabs(s->jac_reuse_limit);
  memcpy(s->y_start, ctx->y, sizeof(double) * (size_t)n);
  memset(s->poly, 0, sizeof(double) * 3 * (size_t)n);
  return COSROD_OK;
}

/* ======================================================================== */
/* Jacobian and iteration matrices                                          */
/* ======================================================================== */

/* J at (t0, y0); a non-finite entry is an error of its own (not a singular
 * matrix later). */
static cosrod_status evaluate_jacobian(radau5_state *s, cosrod_step_ctx *ctx) {
  const cosrod_lsys *L = s->L;
  int rc = cosrod_lsys_jac(s->L, ctx, ctx->t, ctx->y, s->f0);
  if (rc < 0) return COSROD_ERR_CALLBACK; /* message written */
  if (rc > 0) {
    if (ctx->nonfinite)
      return cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, ctx->t,
                              "radau5: non-finite f in the finite-difference Jacobian at t = %.17g", ctx->t);
    return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t,
                            "radau5: Jacobian evaluation failed (%d) at t = %.17g", rc, ctx->t);
  }
  const size_t len = L->S ? 0 : (size_t)L->ldj * (size_t)s->n; /* sparse: checked by the evaluation */
  for (size_t k = 0; k < len; k++)
    if (!isfinite(L->J[k])) {
      ctx->nonfinite = 1;
      return cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, ctx->t,
                              "radau5: Jacobian entry %g (storage column %zu) at t = %.17g", L->J[k],
                              k / (size_t)L->ldj, ctx->t);
    }
  s->jac_fresh = 1;
  s->need_jac = 0;
  s->lu_valid = 0;
  return COSROD_OK;
}

/* Factor (γ/h) M - J and ((α + iβ)/h) M - J. */
static cosrod_status factor_iteration_matrices(radau5_state *s, cosrod_step_ctx *ctx, double h) {
  ctx->stats->ndecomp++;
  cosrod_status st = cosrod_lsys_factor(s->L, RADAU5_GAMMA / h);
  if (st == COSROD_OK) st = radau5_cplx_factor(s->C, (RADAU5_ALPHA + I * RADAU5_BETA) / h);
  s->lu_valid = st == COSROD_OK;
  s->lu_h = h;
  return st;
}

/* ======================================================================== */
/* Stage values and the Newton iteration                                    */
/* ======================================================================== */

/* Starting values: the previous collocation polynomial u (on [t0 - h_p, t0],
 * θ = (t - t0 + h_p)/h_p) continued to the new nodes t0 + c_i h:
 * z_i = u(1 + δ_i) - u(1), δ_i = c_i h/h_p, evaluated without cancellation as
 * δ (b1 + (2 + δ) b2 + (3 + 3δ + δ²) b3).  Zero on the first step. */
static void predict_stages(radau5_state *s, double h) {
  const int n = s->n;
  if (s->n_accepted == 0) {
    for (int i = 0; i < 3; i++) {
      memset(s->z[i], 0, sizeof(double) * (size_t)n);
      memset(s->w[i], 0, sizeof(double) * (size_t)n);
    }
    return;
  }
  const double *b1 = s->poly, *b2 = s->poly + n, *b3 = s->poly + 2 * n;
  for (int i = 0; i < 3; i++) {
    const double d = RADAU5_C[i] * h / s->poly_h;
    const double k2 = 2.0 + d, k3 = 3.0 + d * (3.0 + d);
    double *z = s->z[i];
    for (int k = 0; k < n; k++) z[k] = d * (b1[k] + k2 * b2[k] + k3 * b3[k]);
  }
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++)
      s->w[i][k] =
          RADAU5_TINV[i][0] * s->z[0][k] + RADAU5_TINV[i][1] * s->z[1][k] + RADAU5_TINV[i][2] * s->z[2][k];
}

/* Error scale sk_i = atol'_i + rtol'_i |y0_i|, index-2 components / |h|,
 * index-3 / h² (HW II §VII.8: their local errors carry 1/h, 1/h²). */
static void stage_scale(radau5_state *s, const double *y0, double h) {
  const int n = s->n;
  cosrod_integrate_scale(n, s->rtol_in, s->atol_in, y0, NULL, s->scale);
  for (int i = s->index2_begin; i < s->index3_begin; i++) s->scale[i] /= fabs(h);
  for (int i = s->index3_begin; i < n; i++) s->scale[i] /= h * h;
}

/* Right-hand sides of the transformed Newton system into g:  (T^-1 ⊗ I) F(Z) - (Λ/h ⊗ M) W.
 * Returns the f callback's code (0, > 0 recoverable, < 0 fatal). */
static int newton_residual(radau5_state *s, cosrod_step_ctx *ctx, double t0, const double *y0, double h) {
  const int n = s->n;
  double *ys = s->work;
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < n; k++) ys[k] = y0[k] + s->z[i][k];
    int rc = cosrod_step_call_f(ctx, t0 + RADAU5_C[i] * h, ys, s->g[i]);
    if (rc != 0) return rc;
  }
  for (int k = 0; k < n; k++) {
    const double f1 = s->g[0][k], f2 = s->g[1][k], f3 = s->g[2][k];
    for (int i = 0; i < 3; i++)
      s->g[i][k] = RADAU5_TINV[i][0] * f1 + RADAU5_TINV[i][1] * f2 + RADAU5_TINV[i][2] * f3;
  }
  /* Λ/h W: real block γ w1; complex block (α w2 - β w3, β w2 + α w3) */
  const double gh = RADAU5_GAMMA / h, ah = RADAU5_ALPHA / h, bh = RADAU5_BETA / h;
  double *lw = s->work, *mlw = s->work2;
  for (int blk = 0; blk < 3; blk++) {
    for (int k = 0; k < n; k++) {
      const double w1 = s->w[0][k], w2 = s->w[1][k], w3 = s->w[2][k];
      lw[k] = blk == 0 ? gh * w1 : blk == 1 ? ah * w2 - bh * w3 : bh * w2 + ah * w3;
    }
    const double *m = lw;
    if (s->L->has_mass) {
      cosrod_lsys_mass_mult(s->L, lw, mlw);
      m = mlw;
    }
    for (int k = 0; k < n; k++) s->g[blk][k] -= m[k];
  }
  return 0;
}

/* Scaled RMS norm of the increment ΔW over all 3n entries. */
static double newton_increment_norm(const radau5_state *s) {
  double sum = 0.0;
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < s->n; k++) {
      const double r = s->g[i][k] / s->scale[k];
      sum += r * r;
    }
  return sqrt(sum / (3.0 * s->n));
}

/* The convergence monitor (HW II §IV.8, "stopping criterion") after iteration k >= 2 (not the
 * last allowed one): rate = Θ_k = ||ΔW_k|| / ||ΔW_{k-1}||, norm = ||ΔW_k||.
 * Divergence (Θ_k >= 0.99), or a predicted error after the remaining
 * kmax - 1 - k iterations, η_k Θ_k^(kmax-1-k) ||ΔW_k|| with η_k = Θ_k/(1-Θ_k),
 * above κ·Tol abandons the attempt.  Retry factor: the error left after
 * kmax iterations is ~ Θ^(kmax-1) times the error of the starting values;
 * with Θ = O(h) for the simplified iteration and starting values from the
 * previous collocation polynomial accurate to O(h^4) (s + 1, HW II §IV.8),
 * it scales like h^(kmax + 3).  Aim at the tolerance with safety 0.8, never
 * shrinking below fac_min. */
static int newton_rate_ok(radau5_state *s, double rate, double norm, int k, newton_report *rep) {
  if (rate >= 0.99) {
    rep->retry_factor = 0.5;
    return 0;
  }
  const double eta = rate / (1.0 - rate);
  s->prev_eta = eta;
  const int remaining = s->newton_max - 1 - k;
  const double predicted = eta * norm * pow(rate, remaining) / s->newton_tol;
  if (predicted < 1.0) return 1;
  rep->retry_factor = fmax(s->fac_min, 0.8 * pow(predicted, -1.0 / (s->newton_max + 3.0)));
  return 0;
}

/* W += ΔW, Z = (T ⊗ I) W. */
static void apply_increment(radau5_state *s) {
  const int n = s->n;
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++) s->w[i][k] += s->g[i][k];
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++)
      s->z[i][k] = RADAU5_T[i][0] * s->w[0][k] + RADAU5_T[i][1] * s->w[1][k] + RADAU5_T[i][2] * s->w[2][k];
}

/* Simplified Newton iteration in W from the predicted stages, at most
 * newton_max iterations, stopped by η_k ||ΔW_k|| <= κ·Tol with
 * η_1 = max(η of the previous step, uround)^0.8. */
static newton_report stage_newton_solve(radau5_state *s, cosrod_step_ctx *ctx, double t0, const double *y0,
                                        double h) {
  newton_report rep = {NEWTON_RETRY_SMALLER, 0, 1, 0.5};
  const double u = ctx->uround;
  s->prev_eta = pow(fmax(s->prev_eta, u), 0.8);
  s->contraction_rate = fabs(s->jac_reuse_limit); /* unknown until two iterations were done */
  double prev_norm = 0.0;
  for (int k = 1; k <= s->newton_max; k++) {
    int rc = newton_residual(s, ctx, t0, y0, h);
    if (rc != 0) {
      rep.outcome = rc < 0 ? NEWTON_FATAL : NEWTON_RETRY_SMALLER;
      rep.convergence = 0; /* a callback failure, not a convergence failure */
      return rep;
    }
    cosrod_lsys_solve(s->L, s->g[0]);
    radau5_cplx_solve(s->C, s->g[1], s->g[2]);
    ctx->stats->nsolve++;
    ctx->stats->nnewton++;
    rep.iterations = k;
    const double norm = newton_increment_norm(s);
    if (!isfinite(norm)) {
      ctx->nonfinite = 1;
      return rep;
    }
    if (k >= 2 && k < s->newton_max) {
      s->contraction_rate = norm / prev_norm;
      if (!newton_rate_ok(s, s->contraction_rate, norm, k, &rep)) return rep;
    }
    prev_norm = fmax(norm, u);
    apply_increment(s);
    if (s->prev_eta * norm <= s->newton_tol) {
      rep.outcome = NEWTON_CONVERGED;
      return rep;
    }
  }
  return rep; /* not converged in newton_max iterations: halve h */
}

/* ======================================================================== */
/* Error estimate and step-size control                                     */
/* ======================================================================== */

/* b1 of the new collocation polynomial, divided by h: u'(t0) (n). */
static void collocation_slope(const radau5_state *s, double h, double *slope) {
  for (int k = 0; k < s->n; k++)
    slope[k] =
        (RADAU5_VINV[0][0] * s->z[0][k] + RADAU5_VINV[0][1] * s->z[1][k] + RADAU5_VINV[0][2] * s->z[2][k]) /
        h;
}

/* Embedded error estimate (8.19): with γ0 = 1/γ,
 *   err = (I - hγ0 J)^-1 (γ0 h f(t0, y0) + Σ e_i z_i)
 *       = ((γ/h) M - J)^-1 (f(t0, y0) - M u'(t0)),
 * i.e. the defect of the collocation polynomial at t0 (not a collocation
 * node), filtered by the real iteration matrix.  On the first step and after
 * a rejection an estimate >= 1 is refined once with f(t0, y0 + err) in place
 * of f(t0, y0) (8.20), which damps the stiff components.  Returns the scaled
 * RMS norm, NaN if not finite; *fatal on a fatal f failure. */
static double error_estimate(radau5_state *s, cosrod_step_ctx *ctx, double t0, const double *y0, double h,
                             int *fatal) {
  const int n = s->n;
  double *defect = s->work, *m_slope = s->work2, *est = s->g[0], *ytry = s->g[1];
  *fatal = 0;
  collocation_slope(s, h, defect);
  if (s->L->has_mass)
    cosrod_lsys_mass_mult(s->L, defect, m_slope);
  else
    memcpy(m_slope, defect, sizeof(double) * (size_t)n);
  for (int k = 0; k < n; k++) est[k] = s->f0[k] - m_slope[k];
  cosrod_lsys_solve(s->L, est);
  ctx->stats->nsolve++;
  double err = cosrod_integrate_wrms(n, est, s->scale);
  if (err < 1.0 || (s->n_accepted > 0 && !s->after_reject)) return err;
  for (int k = 0; k < n; k++) ytry[k] = y0[k] + est[k];
  int rc = cosrod_step_call_f(ctx, t0, ytry, est);
  if (rc < 0) *fatal = 1;
  if (rc != 0) return err; /* recoverable: keep the first estimate (the step is rejected) */
  for (int k = 0; k < n; k++) est[k] -= m_slope[k];
  cosrod_lsys_solve(s->L, est);
  ctx->stats->nsolve++;
  return cosrod_integrate_wrms(n, est, s->scale);
}

/* Standard factor q = fac err^(-1/4) (the estimate is O(h^4)); the safety
 * factor shrinks with the Newton iterations spent, fac = safety (2 kmax + 1)
 * / (2 kmax + iterations), capped by safety. */
static double classical_step_factor(const radau5_state *s, double err, int iterations) {
  const double kmax2 = 2.0 * s->newton_max;
  const double fac = fmin(s->safety, s->safety * (kmax2 + 1.0) / (kmax2 + iterations));
  return cosrod_control_standard(err, 0.25, fac, s->fac_min, s->fac_max);
}

/* Predictive controller (8.25) from the last accepted step (h_acc, err_acc),
 * the smaller of it and the standard factor; only after a first accepted step. */
static double gustafsson_step_factor(const radau5_state *s, double q_classical, double err, double h) {
  if (!s->predictive || s->n_accepted == 0) return q_classical;
  double q = cosrod_control_gustafsson(err, h, s->acc_err, s->acc_h, 0.25, s->safety, s->fac_min, s->fac_max);
  return fmin(q_classical, q);
}

/* J can be kept for the next step when the last Newton contraction was
 * fast (Θ <= jac_reuse_limit; a negative limit means never). */
static int decide_jacobian_reuse(const radau5_state *s) { return s->contraction_rate <= s->jac_reuse_limit; }

/* ======================================================================== */
/* Accept / reject                                                          */
/* ======================================================================== */

/* Reject the attempt and retry with h_new.  J is re-evaluated only if it is
 * not already the Jacobian at y0. */
static void reject_attempt(radau5_state *s, cosrod_step_ctx *ctx, double h_new) {
  s->after_reject = 1;
  s->need_jac = !s->jac_fresh;
  ctx->h = h_new;
}

/* Collocation polynomial of the accepted step: b = V^-1 Z (radau5_coef.h). */
static void store_collocation_polynomial(radau5_state *s, const double *y0, double h) {
  const int n = s->n;
  memcpy(s->y_start, y0, sizeof(double) * (size_t)n);
  for (int j = 0; j < 3; j++) {
    double *b = s->poly + (size_t)j * (size_t)n;
    for (int k = 0; k < n; k++)
      b[k] = RADAU5_VINV[j][0] * s->z[0][k] + RADAU5_VINV[j][1] * s->z[1][k] + RADAU5_VINV[j][2] * s->z[2][k];
  }
  s->poly_h = h;
}

/* Bookkeeping of an accepted step and the next step size. */
static void accept_step(radau5_state *s, cosrod_step_ctx *ctx, double h, double q, double err, int last) {
  const int n = s->n;
  const double dir = ctx->dir, t0 = ctx->t;
  double *y = ctx->y;
  if (s->predictive) {
    s->acc_h = h;
    s->acc_err = fmax(1e-2, err);
  }
  s->n_accepted++;
  ctx->stats->naccept++;
  store_collocation_polynomial(s, y, h);
  for (int k = 0; k < n; k++) y[k] += s->z[2][k]; /* stiffly accurate: y1 = y0 + z_3 */
  ctx->t_old = t0;
  ctx->h_last = h;
  ctx->t = last ? ctx->t_end : t0 + h;
  s->jac_fresh = 0;
  s->f0_stale = 1;
  s->n_singular = 0;

  double h_new = h * q;
  if (fabs(h_new) > ctx->hmax) h_new = dir * ctx->hmax;
  if (s->after_reject && fabs(h_new) > fabs(h)) h_new = h; /* no growth right after a rejection */
  s->after_reject = 0;
  const int reuse_jac = decide_jacobian_reuse(s);
  s->need_jac = !reuse_jac;
  if (last) {
    ctx->h = fabs(h_new) < fabs(h) ? h_new : h;
    return;
  }
  if ((ctx->t + h_new - ctx->t_end) * dir >= 0.0) {
    h_new = ctx->t_end - ctx->t; /* the next step can reach t_end */
  } else if (reuse_jac) {
    /* a small change of h is not worth a new factorisation */
    const double ratio = h_new / h;
    if (ratio >= s->keep_lo && ratio <= s->keep_hi) h_new = h;
  }
  ctx->h = h_new;
}

/* ======================================================================== */
/* One step                                                                 */
/* ======================================================================== */

/* The step to attempt: the driver's h, stretched to t_end when it reaches
 * it to within a few ulps (so that a step set to t_end - t is the last one
 * even if t + h rounds below t_end). */
static double attempt_size(const cosrod_step_ctx *ctx, int *last) {
  const double t = ctx->t, h = ctx->h;
  const double slack = 4.0 * DBL_EPSILON * fmax(fabs(t), fabs(ctx->t_end));
  *last = (t + h - ctx->t_end) * ctx->dir >= -slack;
  return *last ? ctx->t_end - t : h;
}

static cosrod_status radau5_step(void *vs, cosrod_step_ctx *ctx, int *accepted) {
  radau5_state *s = vs;
  const double t0 = ctx->t;
  const double *y0 = ctx->y;
  *accepted = 0;

  if (ctx->y_modified) {
    s->f0_stale = 1;
    ctx->y_modified = 0;
  }
  if (s->f0_stale) {
    cosrod_status st = eval_f0(s, ctx, "accepted point");
    if (st != COSROD_OK) return st;
    s->f0_stale = 0;
  }
  int last = 0;
  const double h = attempt_size(ctx, &last);
  ctx->h = h;

  if (s->need_jac) {
    cosrod_status st = evaluate_jacobian(s, ctx);
    if (st != COSROD_OK) return st;
  }
  if (!s->lu_valid || h != s->lu_h) {
    cosrod_status st = factor_iteration_matrices(s, ctx, h);
    if (st == COSROD_ERR_NONFINITE)
      return cosrod_step_fail(ctx, st, t0, "radau5: iteration matrix not finite (t = %.17g, h = %g)", t0, h);
    if (st == COSROD_ERR_INTERRUPTED)
      return cosrod_step_fail(ctx, st, t0, "radau5: interrupted in the iteration matrix (t = %.17g)", t0);
    if (st != COSROD_OK) {
      if (++s->n_singular >= 5)
        return cosrod_step_fail(ctx, COSROD_ERR_SINGULAR, t0,
                                "radau5: iteration matrix singular 5 times in a row (t = %.17g, h = %g)", t0,
                                h);
      reject_attempt(s, ctx, 0.5 * h);
      return COSROD_OK;
    }
  }

  ctx->stats->nsteps++;
  stage_scale(s, y0, h);
  predict_stages(s, h);
  newton_report nr = stage_newton_solve(s, ctx, t0, y0, h);
  if (nr.outcome == NEWTON_FATAL) return COSROD_ERR_CALLBACK; /* message written by the callback wrapper */
  if (nr.outcome == NEWTON_RETRY_SMALLER) {
    if (nr.convergence) ctx->stats->nconvfail++;
    reject_attempt(s, ctx, h * nr.retry_factor);
    return COSROD_OK;
  }

  int fatal = 0;
  const double err = error_estimate(s, ctx, t0, y0, h, &fatal);
  if (fatal) return COSROD_ERR_CALLBACK;
  if (!isfinite(err)) {
    ctx->nonfinite = 1;
    reject_attempt(s, ctx, 0.5 * h);
    return COSROD_OK;
  }
  const double q_classical = classical_step_factor(s, err, nr.iterations);
  if (err < 1.0) {
    const double q = gustafsson_step_factor(s, q_classical, err, h);
    accept_step(s, ctx, h, q, err, last);
    *accepted = 1;
    return COSROD_OK;
  }
  /* error-test rejection; before the first accepted step the initial h is
   * an unverified guess: shrink it by a decade */
  if (s->n_accepted > 0) ctx->stats->nreject++;
  reject_attempt(s, ctx, s->n_accepted > 0 ? h * q_classical : 0.1 * h);
  return COSROD_OK;
}

/* ======================================================================== */
/* Dense output                                                             */
/* ======================================================================== */

/* The collocation polynomial of the last accepted step,
 * u(θ) = y0 + θ (b1 + θ (b2 + θ b3)), θ = (t - t_old)/h_last. */
static cosrod_status collocation_dense_output(void *vs, cosrod_step_ctx *ctx, double t, const int *idx,
                                              int nidx, double *out) {
  const radau5_state *s = vs;
  const int n = s->n;
  const double th = (t - ctx->t_old) / ctx->h_last;
  const double *b1 = s->poly, *b2 = s->poly + n, *b3 = s->poly + 2 * n;
  const int count = idx ? nidx : n;
  for (int j = 0; j < count; j++) {
    const int k = idx ? idx[j] : j;
    if (k < 0 || k >= n) return COSROD_ERR_INVALID;
    out[j] = s->y_start[k] + th * (b1[k] + th * (b2[k] + th * b3[k]));
  }
  return COSROD_OK;
}

static const cosrod_step_type radau5_type = {
    "radau5",
    5,
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_DAE_INDEX23 | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE |
        COSROD_STEP_OWN_CLIP | COSROD_STEP_SPARSE,
    radau5_alloc,
    radau5_reset,
    radau5_step,
    collocation_dense_output,
    radau5_free};

const cosrod_step_type *const cosrod_step_radau5 = &radau5_type;
