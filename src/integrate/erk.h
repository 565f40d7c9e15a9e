/* Step-size control shared by Hairer's explicit Runge–Kutta pairs DOPRI5 and
 * DOP853 (dopri5.c, dop853.c; HNW I §II.4 and the codes' conventions):
 *  - controller constants from the options: an option > 0 overrides the
 *    method's default, beta < 0 means 0 (no PI stabilisation), and
 *    expo1 = e0 - eb*beta is the exponent of the PI ("Lund") controller
 *    q = safety err^-expo1 err_old^beta (cosrod_control_pi);
 *  - the context settings both codes share: the last step may be stretched
 *    by up to 1 % to hit t_end, UROUND 2.3e-16 unless set;
 *  - the start of an integration (f at the initial point, initial step);
 *  - the bookkeeping of rejected attempts (failed f: halve h; NaN/Inf error
 *    estimate: h *= fac_min; err > 1: standard controller; nreject counts
 *    only after the first accepted step) and of accepted ones (no growth
 *    right after a rejection, |h| <= hmax).
 * All inline, no allocation (called in the time loop). */
#ifndef COSROD_INTEGRATE_ERK_H
#define COSROD_INTEGRATE_ERK_H

#include <math.h>

#include "cosrod/integrate.h"
#include "stiffness.h"

typedef struct erk_control {
  double safety, fac_min, fac_max, beta, expo1;
  double err_old; /* Hairer's FACOLD */
  int reject;     /* the last attempt was rejected */
  stiff_detector stiff;
} erk_control;

/* A method's defaults: controller constants (overridable by the options),
 * expo1 = expo0 - expo_beta * beta, and the stiffness threshold (h·λ on the
 * negative real axis where the stability region ends). */
typedef struct erk_defaults {
  double safety, fac_min, fac_max, beta, expo0, expo_beta, stiff_thresh;
} erk_defaults;

/* Constants from ctx->opts with the method's defaults d. */
static inline void erk_init(erk_control *c, cosrod_step_ctx *ctx, const erk_defaults *d) {
  const cosrod_integrate_options *o = ctx->opts;
  c->safety = o->safety > 0.0 ? o->safety : d->safety;
  c->fac_min = o->fac_min > 0.0 ? o->fac_min : d->fac_min;
  c->fac_max = o->fac_max > 0.0 ? o->fac_max : d->fac_max;
  c->beta = o->beta > 0.0 ? o->beta : (o->beta < 0.0 ? 0.0 : d->beta);
  c->expo1 = d->expo0 - d->expo_beta * c->beta;
  stiff_detector_init(&c->stiff, o, d->stiff_thresh);
  ctx->clip_factor = 1.01;
  if (!(o->uround > 0.0)) ctx->uround = 2.3e-16; /* the original's default UROUND */
}

/* Start of an integration: controller memory cleared, f0 = f(t, y) (n), and
 * the initial step for a method of the given order when ctx->h == 0
 * (work: (2n)). */
static inline cosrod_status erk_start(erk_control *c, cosrod_step_ctx *ctx, int order, double *f0,
                                      double *work) {
  c->err_old = 1e-4;
  c->reject = 0;
  c->stiff.iasti = c->stiff.nonsti = 0;
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, f0);
  if (rc != 0)
    return rc < 0 ? COSROD_ERR_CALLBACK
                  : cosrod_step_fail(ctx, ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK, ctx->t,
                                     "right-hand side failed at the initial point t = %.17g", ctx->t);
  ctx->y_modified = 0;
  if (ctx->h == 0.0) return cosrod_integrate_initial_step(ctx, order, f0, work, &ctx->h);
  return COSROD_OK;
}

/* A failed f evaluation inside a step (rc != 0): fatal if rc < 0, else
 * reject the attempt and halve h. */
static inline cosrod_status erk_rhs_failed(erk_control *c, cosrod_step_ctx *ctx, int rc, int *accepted) {
  if (rc < 0) return COSROD_ERR_CALLBACK;
  *accepted = 0;
  c->reject = 1;
  ctx->stats->nsteps++;
  if (ctx->stats->naccept >= 1) ctx->stats->nreject++;
  ctx->h *= 0.5;
  return COSROD_OK;
}

/* Reject the attempt of step h with error estimate err (NaN/Inf or > 1). */
static inline void erk_reject(erk_control *c, cosrod_step_ctx *ctx, double h, double err, int *accepted) {
  if (!isfinite(err)) {
    ctx->nonfinite = 1;
    ctx->h = h * c->fac_min;
  } else {
    ctx->h = h * cosrod_control_standard(err, c->expo1, c->safety, c->fac_min, c->fac_max);
  }
  c->reject = 1;
  if (ctx->stats->naccept >= 1) ctx->stats->nreject++;
  *accepted = 0;
}

/* Accept the attempt of step h with error estimate err <= 1: counts it and
 * returns the PI controller's proposal for the next step. */
static inline double erk_accept(erk_control *c, cosrod_step_ctx *ctx, double h, double err) {
  const double hnew =
      h * cosrod_control_pi(err, c->err_old, c->expo1, c->beta, c->safety, c->fac_min, c->fac_max);
  c->err_old = fmax(err, 1e-4);
  ctx->stats->naccept++;
  return hnew;
}

/* Once the accepted step h is committed: ctx->h = hnew limited to hmax and,
 * right after a rejection, to |h|. */
static inline void erk_set_next_step(erk_control *c, cosrod_step_ctx *ctx, double h, double hnew) {
  if (fabs(hnew) > ctx->hmax) hnew = ctx->dir * ctx->hmax;
  if (c->reject) hnew = ctx->dir * fmin(fabs(hnew), fabs(h));
  c->reject = 0;
  ctx->h = hnew;
}

#endif /* COSROD_INTEGRATE_ERK_H */
