// SPDX-License-Identifier: Apache-2.0
/* RODAS: the stiffly accurate Rosenbrock method of order 4(3) with 6 stages
 * (Hairer & Wanner, Solving ODEs II, §IV.7) for M y' = f(t, y).
 *
 * Stages, embedded estimate and dense output: rodas_stages.c.  This file is
 * the control (HW II §IV.7 "implementation"): J (and f_t) at the start of
 * every step (a Rosenbrock method needs the exact Jacobian for its order);
 * a rejected or failed attempt from the same point reuses them and only
 * refactors.  Step size from the embedded order-3 estimate, err ~ h^4
 * (with suppress_alg: over the differential components of a DAE only).
 * Design and every constant with its source: src/integrate/README.md,
 * section "rodas". */
#include <math.h>
#include <stdlib.h>

#include "integrate/rodas_stages.h"

#define RO_SAFETY 0.9     /* HNW I §II.4 (4.13): fac = 0.9 */
#define RO_FAC_MIN 0.2    /* measured minimum of 0.05..0.5 (bench/results/integrator-constants.md) */
#define RO_FAC_MAX 5.0    /* HNW I §II.4 range 1.5..5; 3..12 flat within 1 % (integrator-constants.md) */
#define RO_H0 1e-6        /* HNW I §II.4's fallback h0 (README "rodas"); 1e-8..1e-4 flat */
#define RO_MAX_SINGULAR 4 /* consecutive singular matrices (h / 8 tried) before failing */

typedef struct rodas_state {
  rodas_stages *S;
  double safety, fac_min, fac_max;
  int gustafsson;
  int have_jac;     /* f, J (f_t) at the current (t, y) */
  double h_acc_old; /* last accepted step (predictive controller), 0 = none */
  double err_acc_old;
  int rejected; /* previous attempt rejected: no growth */
  int nsingular;
  unsigned char *alg; /* suppress_alg: 1 for the components left out of the error test, else NULL */
} rodas_state;

static void rodas_free(void *vs) {
  rodas_state *s = vs;
  if (!s) return;
  rodas_stages_free(s->S);
  free(s->alg);
  free(s);
}

static cosrod_status rodas_alloc(void **out, cosrod_step_ctx *ctx) {
  *out = NULL;
  const cosrod_integrate_options *o = ctx->opts;
  rodas_state *s = calloc(1, sizeof *s);
  if (!s) return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "rodas: out of memory");
  s->safety = o->safety > 0.0 ? o->safety : RO_SAFETY;
  s->fac_min = o->fac_min > 0.0 ? o->fac_min : RO_FAC_MIN;
  s->fac_max = o->fac_max > 0.0 ? o->fac_max : RO_FAC_MAX;
  s->gustafsson = o->controller != COSROD_CONTROLLER_CLASSICAL;
  if (s->safety >= 1.0 || s->fac_min >= 1.0 || s->fac_max <= 1.0) {
    free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t,
                            "rodas: options need safety < 1, fac_min < 1 < fac_max");
  }
  cosrod_status st = rodas_stages_create(&s->S, ctx);
  if (st != COSROD_OK) {
    free(s);
    return st;
  }
  if (o->suppress_alg && (ctx->problem->dae_id || ctx->problem->mass)) {
    s->alg = malloc((size_t)ctx->n);
    if (!s->alg) {
      rodas_free(s);
      return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "rodas: out of memory");
    }
  }
  *out = s;
  return COSROD_OK;
}

static cosrod_status rodas_reset(void *vs, cosrod_step_ctx *ctx) {
  rodas_state *s = vs;
  rodas_stages *S = s->S;
  S->h_old = 0.0;
  if (cosrod_lsys_load_mass(S->L, ctx) != 0) return COSROD_ERR_CALLBACK;
  if (s->alg) { /* the algebraic components: dae_id 0, else the zero rows of M */
    const double *id = ctx->problem->dae_id;
    if (id)
      for (int i = 0; i < ctx->n; i++) s->alg[i] = id[i] == 0.0;
    else
      cosrod_lsys_mass_zero_rows(S->L, s->alg);
  }
  s->have_jac = 0;
  s->h_acc_old = s->err_acc_old = 0.0;
  s->rejected = 0;
  s->nsingular = 0;
  if (ctx->h == 0.0) /* README "rodas", initial step: invariant under M y' = f -> (A M) y' = A f */
    ctx->h = ctx->dir * fmin(RO_H0, ctx->hmax);
  return COSROD_OK;
}

/* hnew/h from the error norm: HNW I (4.13) with exponent 1/4, and, on an
 * accepted step after an accepted step, the predictive formula of
 * Gustafsson (1994) (HW II (8.25)), the smaller of the two. */
static double step_ratio(const rodas_state *s, double err, double h, int accepted) {
  const double e = fmax(err, pow(s->safety / s->fac_max, 4.0)); /* below: both formulas clamp */
  double q = s->safety * pow(e, -0.25);
  if (accepted && s->gustafsson && s->h_acc_old != 0.0)
    q = fmin(q, q * fabs(h / s->h_acc_old) * pow(s->err_acc_old / e, 0.25));
  const double qmax = (s->rejected || !accepted) ? 1.0 : s->fac_max;
  return fmin(qmax, fmax(s->fac_min, q));
}

static cosrod_status retry(rodas_state *s, cosrod_step_ctx *ctx, double q, int convfail) {
  if (convfail)
    ctx->stats->nconvfail++;
  else
    ctx->stats->nreject++;
  s->rejected = 1;
  ctx->h *= q;
  return COSROD_OK;
}

/* f, J (f_t) at (t, y) unless already there.  They are evaluated at the
 * accepted point, which a smaller step does not move: any failure there is
 * final (ERR_NONFINITE for NaN/Inf, else ERR_CALLBACK). */
static cosrod_status jacobian(rodas_state *s, cosrod_step_ctx *ctx) {
  if (s->have_jac) return COSROD_OK;
  int rc = rodas_stages_jacobian(s->S, ctx);
  if (rc < 0) return COSROD_ERR_CALLBACK; /* message by the wrapper */
  if (rc > 0)
    return cosrod_step_fail(
        ctx, ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK, ctx->t,
        "rodas: right-hand side or Jacobian %s at the accepted point t = %.17g",
        ctx->nonfinite ? "not finite" : "failed (recoverable code, but the point is fixed)", ctx->t);
  s->have_jac = 1;
  return COSROD_OK;
}

static cosrod_status rodas_step(void *vs, cosrod_step_ctx *ctx, int *accepted) {
  rodas_state *s = vs;
  rodas_stages *S = s->S;
  *accepted = 0;
  if (ctx->y_modified) {
    s->have_jac = 0;
    ctx->y_modified = 0;
  }
  const double h = ctx->h;
  ctx->stats->nsteps++;
  cosrod_status st = jacobian(s, ctx);
  if (st != COSROD_OK) return st;
  st = rodas_stages_factor(S, ctx, h);
  if (st == COSROD_ERR_SINGULAR) {
    if (++s->nsingular >= RO_MAX_SINGULAR) {
      ctx->stats->nconvfail++; /* the failing attempt counts as the ones before it */
      return cosrod_step_fail(
          ctx, COSROD_ERR_SINGULAR, ctx->t,
          "rodas: matrix 1/(h gamma) M - J singular %d times in a row at t = %.17g (last h = %g)",
          s->nsingular, ctx->t, h);
    }
    return retry(s, ctx, 0.5, 1);
  }
  if (st == COSROD_ERR_INTERRUPTED)
    return cosrod_step_fail(
        ctx, st, ctx->t, "rodas: interrupted in the iteration matrix LU decomposition at t = %.17g", ctx->t);
  if (st != COSROD_OK)
    return cosrod_step_fail(ctx, st, ctx->t, "rodas: LU decomposition failed (%s) at t = %.17g (h = %g)",
                            cosrod_strerror(st), ctx->t, h);
  s->nsingular = 0;
  int rc = rodas_stages_compute(S, ctx, ctx->t, ctx->y, h);
  if (rc < 0) return COSROD_ERR_CALLBACK;
  if (rc > 0) return retry(s, ctx, 0.5, 0);
  const double err = cosrod_integrate_err_norm_skip(ctx, S->k[5], ctx->y, S->ynew, s->alg);
  if (!isfinite(err)) {
    ctx->nonfinite = 1;
    return retry(s, ctx, 0.5, 0);
  }
  const int ok = err <= 1.0;
  const double q = step_ratio(s, err, h, ok);
  if (!ok) return retry(s, ctx, q, 0);
  rodas_stages_store_dense(S, ctx->t, ctx->y, h);
  for (int i = 0; i < ctx->n; i++) ctx->y[i] = S->ynew[i];
  ctx->t_old = ctx->t;
  ctx->t += h;
  ctx->h_last = h;
  ctx->stats->naccept++;
  *accepted = 1;
  s->have_jac = 0;
  s->rejected = 0;
  s->h_acc_old = h;
  s->err_acc_old = fmax(err, pow(s->safety / s->fac_max, 4.0));
  ctx->h = q * h;
  return COSROD_OK;
}

static cosrod_status rodas_dense(void *vs, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                 double *out) {
  (void)ctx;
  const rodas_state *s = vs;
  return rodas_stages_dense(s->S, t, idx, nidx, out);
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
