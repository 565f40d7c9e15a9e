// SPDX-License-Identifier: Apache-2.0
/* Step-size control and stiffness detection of the explicit Runge–Kutta
 * pairs dopri5 and dop853 (own structure; design note: README.md, "dopri5,
 * dop853").
 *
 * Controller (PI, HNW I §II.4 and HW II §IV.2 "PI control"):
 *   q = safety err_n^(-α) err_{n-1}^β,  α = 1/k - 0.75 β  (err ~ h^k),
 * clamped to [fac_min, fac_max], at most 1 right after a rejection (HNW I
 * §II.4); errors are floored at (safety/fac_max)^(1/α), below which q is
 * clamped anyway.  Stiffness (HW II §IV.2): |h λ| ≈ |h| ||f(y_a) - f(y_b)|| /
 * ||y_a - y_b|| from two stages at the same time t + h; persistently at the
 * stability boundary of the method means the step is limited by stability,
 * not accuracy. */
#ifndef COSROD_INTEGRATE_ERK_CONTROL_H
#define COSROD_INTEGRATE_ERK_CONTROL_H

#include <math.h>
#include <string.h>

#include "cosrod/integrate.h"

#define ERK_SAFETY 0.9     /* HNW I §II.4 (4.13) */
#define ERK_FAC_MIN 0.2    /* HNW I §II.4 */
#define ERK_FAC_MAX 5.0    /* HNW I §II.4: facmax between 1.5 and 5 */
#define ERK_STIFF_COUNT 10 /* net count of stability-limited tests before "stiff" (own choice) */

typedef struct erk_control {
  double alpha, beta, safety, fac_min, fac_max, floor;
  double err_old;  /* error of the last accepted step (1 before the first) */
  int rejected;    /* last attempt rejected */
  double boundary; /* |h λ| stability boundary of the method on the negative real axis */
  long period;     /* test every period-th accepted step; 0 = never */
  long accepted;   /* accepted steps since reset */
  int count;       /* leaky count of stability-limited tests */
} erk_control;

static inline void erk_control_init(erk_control *c, const cosrod_step_ctx *ctx, double k, double beta_default,
                                    double boundary) {
  const cosrod_integrate_options *o = ctx->opts;
  c->beta = o->beta < 0.0 ? 0.0 : (o->beta > 0.0 ? o->beta : beta_default);
  c->alpha = 1.0 / k - 0.75 * c->beta;
  c->safety = o->safety > 0.0 ? o->safety : ERK_SAFETY;
  c->fac_min = o->fac_min > 0.0 ? o->fac_min : ERK_FAC_MIN;
  c->fac_max = o->fac_max > 0.0 ? o->fac_max : ERK_FAC_MAX;
  c->floor = pow(c->safety / c->fac_max, 1.0 / c->alpha);
  c->boundary = boundary;
  c->period = o->stiff_test < 0 ? 0 : (o->stiff_test > 0 ? o->stiff_test : 1);
}

static inline void erk_control_reset(erk_control *c) {
  c->err_old = 1.0;
  c->rejected = 0;
  c->accepted = 0;
  c->count = 0;
}

/* hnew/h after an attempt with error err (accepted iff err <= 1). */
static inline double erk_control_ratio(erk_control *c, double err) {
  const double e = fmax(err, c->floor);
  const int ok = err <= 1.0;
  double q = c->safety * pow(e, -c->alpha) * (ok ? pow(c->err_old, c->beta) : 1.0);
  const double qmax = (!ok || c->rejected) ? 1.0 : c->fac_max;
  q = fmin(qmax, fmax(c->fac_min, q));
  if (ok) c->err_old = e;
  c->rejected = !ok;
  return q;
}

/* Stiffness test after an accepted step: df = f(y_a) - f(y_b), dy = y_a - y_b.
 * Returns 1 when the problem is declared stiff (count reset). */
static inline int erk_control_stiff(erk_control *c, int n, double h, const double *df_a, const double *df_b,
                                    const double *y_a, const double *y_b) {
  c->accepted++;
  if (c->period == 0 || c->accepted % c->period != 0) return 0;
  double num = 0.0, den = 0.0;
  for (int i = 0; i < n; i++) {
    const double a = df_a[i] - df_b[i], b = y_a[i] - y_b[i];
    num += a * a;
    den += b * b;
  }
  if (!(den > 0.0)) return 0;
  const double hl = fabs(h) * sqrt(num / den);
  if (hl > c->boundary)
    c->count++;
  else if (c->count > 0)
    c->count--;
  if (c->count >= ERK_STIFF_COUNT) {
    c->count = 0;
    return 1;
  }
  return 0;
}

/* Decision after an attempt of step h with error estimate err (rc: the f
 * callbacks' code of the attempt, > 0 recoverable failure).  Rejected: a
 * recoverable f failure or a non-finite estimate (retry with h/2,
 * ctx->nonfinite set for the latter), or err > 1 (h times the controller's
 * ratio); counted in nreject, ctx->h set, returns 1.  Accepted: returns 0
 * with *q = h_new / h. */
static inline int erk_control_reject(erk_control *c, cosrod_step_ctx *ctx, int rc, double err, double h,
                                     double *q) {
  if (!isfinite(err)) {
    if (rc == 0) ctx->nonfinite = 1;
    ctx->stats->nreject++;
    c->rejected = 1;
    ctx->h = 0.5 * h;
    return 1;
  }
  *q = erk_control_ratio(c, err);
  if (err > 1.0) {
    ctx->stats->nreject++;
    ctx->h = *q * h;
    return 1;
  }
  return 0;
}

/* Accept the attempt: y0 := y, y := y1 (n), t advanced by h, next step q h,
 * counted in naccept, *accepted = 1.  stiff: the stiffness test's verdict
 * (ERR_STIFF with a message naming the method unless stiff_continue). */
static inline cosrod_status erk_control_accept(cosrod_step_ctx *ctx, int n, double h, double q, double *y0,
                                               const double *y1, int stiff, const char *name, double boundary,
                                               int *accepted) {
  memcpy(y0, ctx->y, sizeof(double) * (size_t)n);
  memcpy(ctx->y, y1, sizeof(double) * (size_t)n);
  ctx->t_old = ctx->t;
  ctx->t += h;
  ctx->h_last = h;
  ctx->h = q * h;
  ctx->stats->naccept++;
  *accepted = 1;
  if (stiff) {
    ctx->stats->nstiff++;
    if (!ctx->opts->stiff_continue)
      return cosrod_step_fail(ctx, COSROD_ERR_STIFF, ctx->t,
                              "%s: the problem seems stiff at t = %.17g (step size limited by stability, "
                              "|h lambda| at the boundary %.3g); use an implicit method",
                              name, ctx->t, boundary);
  }
  return COSROD_OK;
}

#endif /* COSROD_INTEGRATE_ERK_CONTROL_H */
