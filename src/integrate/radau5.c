// SPDX-License-Identifier: Apache-2.0
/* RADAU5: the 3-stage Radau IIA collocation method (order 5, stiffly
 * accurate, L-stable) for M y' = f(t, y) with a constant, possibly singular
 * mass matrix (Hairer & Wanner, Solving ODEs II, §IV.8, §VII.8).
 *
 * The stage systems, the error estimate and the collocation polynomial are
 * in radau5_stages.c; this file is the control: simplified Newton with the
 * contraction-rate stopping test, Jacobian / LU reuse, step-size selection,
 * rejections and the end of the interval.  Design and every constant with
 * its source: src/integrate/README.md, section "radau5". */
#include <math.h>
#include <stdlib.h>

#include "integrate/lsys.h"
#include "integrate/radau5_stages.h"
#include "integrate/start_step.h"

/* Defaults (README "radau5"). */
#define R5_KMAX 7 /* Newton iterations per attempt (measured minimum of 4..15, bench/results/integrator-constants.md) */
#define R5_KAPPA \
  0.01 /* Newton stopping test: eta ||dW|| <= kappa (HW II §IV.8: [0.01, 0.1]; README, perf-steel) */
#define R5_SAFETY 0.9  /* HW II §IV.8 safety factor, scaled by the Newton count */
#define R5_FAC_MIN 0.2 /* hnew/h >= 0.2 (binds for err > 410 only; 0.05..0.5 flat, integrator-constants.md) */
#define R5_FAC_MAX 8.0 /* hnew/h <= 8 (2..12 flat within 3 %, bench/results/integrator-constants.md) */
#define R5_JAC_REUSE \
  0.001 /* recompute J when the last contraction exceeds this (bench/results/integrator-constants.md) */
#define R5_KEEP_LO 1.0 /* keep h and the LU when 1 <= hnew/h <= 1.2 (README; integrator-constants.md) */
#define R5_KEEP_HI 1.2
#define R5_TOL_EXP \
  (2.0 / 3.0) /* internal rtol' = 0.1 rtol^(2/3): local error ~ tol'^(3/2) (README); c measured */
#define R5_TOL_C 0.1
#define R5_MAX_SINGULAR 4 /* consecutive singular iteration matrices (h / 8 tried) before failing */

typedef struct radau5_state {
  radau5_stages *S;
  /* knobs */
  int kmax;
  double kappa, safety, fac_min, fac_max, jac_reuse, keep_lo, keep_hi;
  int gustafsson;
  /* memory */
  int have_poly;       /* a collocation polynomial from an accepted step exists (predictor) */
  int have_jac;        /* J is valid (possibly from an earlier point) */
  int jac_fresh;       /* J was evaluated at the current (t, y) */
  double lu_h;         /* step size of the current factorisation (0: none) */
  double eta_old;      /* eta of the last converged Newton iteration */
  double theta;        /* contraction rate of the last converged iteration (0: one iteration) */
  double h_acc_old;    /* last accepted step (Gustafsson), 0 = none */
  double err_acc_old;  /* its error norm */
  int rejected;        /* the previous attempt was rejected (no growth, refined estimate) */
  int naccepted;       /* accepted steps since reset */
  int nsingular;       /* consecutive singular factorisations */
  double newton_ratio; /* min_i rtol_i / rtol'_i: the Newton test in units of the user's tolerance */
  double *rtol, *atol; /* (n) internal tolerances (README "radau5": tolerance proportionality) */
} radau5_state;

static void radau5_free(void *vs) {
  radau5_state *s = vs;
  if (!s) return;
  radau5_stages_free(s->S);
  free(s->rtol);
  free(s);
}

static double knob(double v, double dflt) { return v > 0.0 ? v : dflt; }

static cosrod_status radau5_alloc(void **state, cosrod_step_ctx *ctx) {
  *state = NULL;
  const cosrod_integrate_options *o = ctx->opts;
  radau5_state *s = calloc(1, sizeof *s);
  if (!s) return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "radau5: out of memory");
  s->kmax = o->max_newton > 0 ? o->max_newton : R5_KMAX;
  s->kappa = knob(o->newton_tol, R5_KAPPA);
  s->safety = knob(o->safety, R5_SAFETY);
  s->fac_min = knob(o->fac_min, R5_FAC_MIN);
  s->fac_max = knob(o->fac_max, R5_FAC_MAX);
  s->jac_reuse = o->jac_reuse != 0.0 ? o->jac_reuse : R5_JAC_REUSE;
  s->keep_lo = knob(o->keep_h_lo, R5_KEEP_LO);
  s->keep_hi = knob(o->keep_h_hi, R5_KEEP_HI);
  s->gustafsson = o->controller != COSROD_CONTROLLER_CLASSICAL;
  if (s->safety >= 1.0 || s->fac_min >= 1.0 || s->fac_max <= 1.0 || s->kappa >= 1.0 || s->keep_lo > 1.0 ||
      s->keep_hi < 1.0) {
    free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t,
                            "radau5: options need safety < 1, fac_min < 1 < fac_max, newton_tol < 1, "
                            "keep_h_lo <= 1 <= keep_h_hi");
  }
  s->rtol = calloc(2 * (size_t)ctx->n, sizeof(double));
  if (!s->rtol) {
    free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "radau5: out of memory");
  }
  s->atol = s->rtol + ctx->n;
  cosrod_status st = radau5_stages_create(&s->S, ctx);
  if (st != COSROD_OK) {
    free(s->rtol);
    free(s);
    return st;
  }
  *state = s;
  return COSROD_OK;
}

/* Internal tolerances (README "radau5", tolerance proportionality): the
 * estimate is O(h^4) while the local error is O(h^6), so holding the
 * estimate at tol' gives a local error ~ tol'^(3/2); rtol' = R5_TOL_C
 * rtol^(2/3) maps it back (R5_TOL_C = 0.1 by experiment), atol' = atol rtol'/rtol keeps the ratio
 * atol/rtol (rtol = 0: atol' = R5_TOL_C atol).  The Newton test stays in
 * units of the user's tolerance (newton_ratio): the iteration error is not
 * an O(h^4) quantity and enters the solution as it is. */
static void set_tolerances(radau5_state *s, const cosrod_step_ctx *ctx) {
  s->newton_ratio = 1.0;
  for (int i = 0; i < ctx->n; i++) {
    const double r = ctx->rtol[i];
    const double ri = r > 0.0 ? R5_TOL_C * pow(r, R5_TOL_EXP) : 0.0;
    s->rtol[i] = ri;
    s->atol[i] = r > 0.0 ? ctx->atol[i] * (ri / r) : R5_TOL_C * ctx->atol[i];
    s->newton_ratio = fmin(s->newton_ratio, r > 0.0 ? r / ri : 1.0 / R5_TOL_C);
  }
}

static cosrod_status radau5_reset(void *vs, cosrod_step_ctx *ctx) {
  radau5_state *s = vs;
  for (int i = 0; i < ctx->n; i++)
    if (ctx->rtol[i] < 10.0 * ctx->uround)
      return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t,
                              "radau5: rtol[%d] = %g is below 10 uround = %g (the error estimate is then "
                              "rounding noise)",
                              i, ctx->rtol[i], 10.0 * ctx->uround);
  set_tolerances(s, ctx);
  if (cosrod_lsys_load_mass(s->S->L, ctx) != 0) return COSROD_ERR_CALLBACK;
  cosrod_status st = radau5_stages_eval_f0(s->S, ctx, "initial point");
  if (st != COSROD_OK) return st;
  s->have_poly = s->have_jac = s->jac_fresh = 0;
  s->lu_h = 0.0;
  s->eta_old = 1.0; /* no contraction measured yet: the first iteration is never trusted */
  s->theta = 1.0;
  s->h_acc_old = s->err_acc_old = 0.0;
  s->rejected = 0;
  s->naccepted = 0;
  s->nsingular = 0;
  s->S->poly_h = 0.0;
  if (ctx->h == 0.0) /* error estimate ~ h^4 (HW II §IV.8) */
    ctx->h = cosrod_integrate_start_step(ctx, s->S->f0, 4.0, !s->S->L->has_mass, s->S->poly);
  return COSROD_OK;
}

/* Outcome of the Newton iteration. */
enum { NEWTON_OK = 0, NEWTON_DIVERGED = 1, NEWTON_F_FAILED = 2, NEWTON_FATAL = 3 };

/* Simplified Newton iteration (HW II §IV.8, (8.10)-(8.15)): the rate
 * Θ_k = ||ΔW_k|| / ||ΔW_{k-1}||, η_k = Θ_k/(1 - Θ_k), stop when
 * η_k ||ΔW_k|| <= κ (norms scaled by the tolerances); η_0 from the last
 * step, max(η_old, u)^0.8.  Divergence: Θ_k >= 1, or the predicted error
 * after the remaining iterations Θ_k^(kmax-k)/(1-Θ_k) ||ΔW_k|| > κ. */
static int newton(radau5_state *s, cosrod_step_ctx *ctx, double h, int *iters) {
  radau5_stages *S = s->S;
  const double kappa = s->kappa * s->newton_ratio;
  double dn_old = 0.0, eta = pow(fmax(s->eta_old, ctx->uround), 0.8), theta = 0.0;
  for (int k = 0; k < s->kmax; k++) {
    int rc = radau5_stages_residual(S, ctx, ctx->t, ctx->y, h);
    if (rc < 0) return NEWTON_FATAL;
    if (rc > 0) return NEWTON_F_FAILED;
    radau5_stages_solve(S, ctx);
    ctx->stats->nnewton++;
    *iters = k + 1;
    const double dn = radau5_stages_increment_norm(S);
    if (!isfinite(dn)) return NEWTON_DIVERGED;
    if (k > 0) {
      theta = dn_old > 0.0 ? dn / dn_old : 0.0;
      if (theta >= 1.0) return NEWTON_DIVERGED;
      eta = theta / (1.0 - theta);
    }
    /* stop test first: at k = kmax - 1 the prediction below (exponent 0)
     * is stricter than the stop test and would reject a converged iterate */
    const int converged = eta * dn <= kappa || dn == 0.0;
    if (!converged && k > 0 && pow(theta, s->kmax - 1 - k) / (1.0 - theta) * dn > kappa)
      return NEWTON_DIVERGED;
    radau5_stages_apply_increment(S);
    if (converged) {
      s->eta_old = eta;
      s->theta = k > 0 ? theta : 0.0;
      return NEWTON_OK;
    }
    dn_old = dn;
  }
  return NEWTON_DIVERGED;
}

/* Step-size ratio from the error estimate (HW II §IV.8, "step size
 * selection"): standard fac err^(-1/4) with fac = safety (2 kmax + 1) /
 * (2 kmax + newt); on accepted steps after an accepted step the predictive
 * controller of Gustafsson (1994), HW II (8.25), is min'ed in. */
static double step_ratio(const radau5_state *s, double err, double h, int iters, int accepted) {
  const double fac = s->safety * (2.0 * s->kmax + 1.0) / (2.0 * s->kmax + iters);
  /* errors below (safety/fac_max)^4 all give fac_max: below that floor
   * the estimate carries no information for either formula */
  const double e = fmax(err, pow(s->safety / s->fac_max, 4.0));
  double q = fac * pow(e, -0.25);
  if (accepted && s->gustafsson && s->h_acc_old != 0.0) {
    const double qg = q * fabs(h / s->h_acc_old) * pow(s->err_acc_old / e, 0.25);
    q = fmin(q, qg);
  }
  double qmax = (s->rejected || !accepted) ? 1.0 : s->fac_max; /* HNW I §II.4: no growth after a rejection */
  return fmin(qmax, fmax(s->fac_min, q));
}

/* Retry with a smaller step: rejection (counted in nreject) or convergence
 * failure (nconvfail). */
static cosrod_status retry(radau5_state *s, cosrod_step_ctx *ctx, double h, double q, int convfail) {
  if (convfail)
    ctx->stats->nconvfail++;
  else
    ctx->stats->nreject++;
  s->rejected = 1;
  ctx->h = q * h;
  return COSROD_OK;
}

/* Jacobian (if needed) and factorisation for step h. */
static cosrod_status prepare_matrices(radau5_state *s, cosrod_step_ctx *ctx, double h, int *singular) {
  *singular = 0;
  if (!s->have_jac) {
    cosrod_status st = radau5_stages_jacobian(s->S, ctx);
    if (st != COSROD_OK) return st;
    s->have_jac = s->jac_fresh = 1;
    s->lu_h = 0.0;
  }
  if (s->lu_h == h) return COSROD_OK;
  cosrod_status st = radau5_stages_factor(s->S, ctx, h);
  if (st == COSROD_ERR_SINGULAR) {
    s->lu_h = 0.0;
    *singular = 1;
    return COSROD_OK;
  }
  if (st == COSROD_ERR_INTERRUPTED)
    return cosrod_step_fail(
        ctx, st, ctx->t, "radau5: interrupted in the iteration matrix LU decomposition at t = %.17g", ctx->t);
  if (st != COSROD_OK)
    return cosrod_step_fail(ctx, st, ctx->t, "radau5: LU decomposition failed (%s) at t = %.17g (h = %g)",
                            cosrod_strerror(st), ctx->t, h);
  s->lu_h = h;
  return COSROD_OK;
}

/* The step reaches t_end (OWN_CLIP): cosrod_step_to_end (a step passing t_end or stopping
 * within rounding distance of it ends there; two equal steps when the rest is below (1 + F) h). */
static int clip_to_end(cosrod_step_ctx *ctx, double *h) { return cosrod_step_to_end(ctx, 1.0, h); }

/* Acceptance: y1 = y0 + z_3, polynomial kept, f at the new point, J reuse
 * decision, proposal of the next step. */
static cosrod_status accept(radau5_state *s, cosrod_step_ctx *ctx, double h, double h_req, int last,
                            double err, int iters) {
  radau5_stages *S = s->S;
  const double q = step_ratio(s, err, h, iters, 1);
  radau5_stages_store_polynomial(S, ctx->y, h);
  for (int i = 0; i < ctx->n; i++) ctx->y[i] += S->z[2][i];
  ctx->t_old = ctx->t;
  ctx->t = last ? ctx->t_end : ctx->t + h;
  ctx->h_last = h;
  ctx->stats->naccept++;
  s->naccepted++;
  s->have_poly = 1;
  cosrod_status st = radau5_stages_eval_f0(S, ctx, "accepted point");
  if (st != COSROD_OK) return st;
  s->jac_fresh = 0;
  if (s->jac_reuse < 0.0 || s->theta > s->jac_reuse) s->have_jac = 0;
  /* the predictive formula only sees errors above its clamp range */
  const double floor = pow(s->safety / s->fac_max, 4.0);
  s->h_acc_old = h;
  s->err_acc_old = fmax(err, floor);
  s->rejected = 0;
  double hnew = q * h;
  if (s->have_jac && q >= s->keep_lo && q <= s->keep_hi) hnew = h; /* keep h and the LU */
  if (last && q >= 1.0 && fabs(h_req) > fabs(hnew))
    hnew = h_req; /* a clipped step says nothing against h_req */
  ctx->h = hnew;
  return COSROD_OK;
}

static cosrod_status radau5_step(void *vs, cosrod_step_ctx *ctx, int *accepted) {
  radau5_state *s = vs;
  radau5_stages *S = s->S;
  *accepted = 0;
  if (ctx->y_modified) { /* projection: f0, and for new coordinates J and the predictor, are stale */
    cosrod_status st = radau5_stages_eval_f0(S, ctx, "projected point");
    if (st != COSROD_OK) return st;
    if (ctx->y_modified == 2) s->have_poly = s->have_jac = 0;
    s->jac_fresh = 0;
    ctx->y_modified = 0;
  }
  const double h_req = ctx->h;
  double h = h_req;
  const int last = clip_to_end(ctx, &h);
  ctx->stats->nsteps++;
  int singular = 0;
  cosrod_status st = prepare_matrices(s, ctx, h, &singular);
  if (st != COSROD_OK) return st;
  if (singular) {
    if (++s->nsingular >= R5_MAX_SINGULAR) {
      ctx->stats->nconvfail++; /* the failing attempt counts as the ones before it */
      return cosrod_step_fail(
          ctx, COSROD_ERR_SINGULAR, ctx->t,
          "radau5: iteration matrix singular %d times in a row at t = %.17g (last h = %g)", s->nsingular,
          ctx->t, h);
    }
    return retry(s, ctx, h, 0.5, 1);
  }
  s->nsingular = 0;
  radau5_stages_set_scale(S, s->rtol, s->atol, ctx->y, h);
  radau5_stages_predict(S, h, s->have_poly);
  int iters = 0;
  int nr = newton(s, ctx, h, &iters);
  if (nr == NEWTON_FATAL) return COSROD_ERR_CALLBACK; /* message by cosrod_step_call_f */
  if (nr == NEWTON_F_FAILED) return retry(s, ctx, h, 0.5, 0);
  if (nr == NEWTON_DIVERGED) {
    if (!s->jac_fresh) s->have_jac = 0; /* J from an earlier point: refresh it */
    s->eta_old = 1.0;
    return retry(s, ctx, h, 0.5, 1);
  }
  double err = radau5_stages_error(S, ctx, h);
  /* HW II (8.20) on the first step and after a rejection (book), and only
   * when (8.19) would reject: the refinement can only lower the estimate
   * (measured best of five gates, bench/results/integrator-constants.md) */
  if (err >= 1.0 && (s->naccepted == 0 || s->rejected)) {
    int rc = 0;
    err = radau5_stages_error_refine(S, ctx, ctx->t, ctx->y, err, &rc);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) return retry(s, ctx, h, 0.5, 0);
  }
  if (!isfinite(err)) {
    ctx->nonfinite = 1;
    return retry(s, ctx, h, 0.5, 0);
  }
  if (err > 1.0) return retry(s, ctx, h, step_ratio(s, err, h, iters, 0), 0);
  *accepted = 1;
  return accept(s, ctx, h, h_req, last, err, iters);
}

static cosrod_status radau5_dense(void *vs, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  const radau5_state *s = vs;
  return radau5_stages_dense(s->S, (t - ctx->t_old) / ctx->h_last, idx, nidx, out);
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
    radau5_dense,
    radau5_free};

const cosrod_step_type *const cosrod_step_radau5 = &radau5_type;
