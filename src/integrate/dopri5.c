// SPDX-License-Identifier: Apache-2.0
/* DOPRI5: the explicit Runge–Kutta pair of Dormand & Prince, order 5(4),
 * 7 stages with FSAL (the last stage is f at the new point), as described in
 * Hairer–Nørsett–Wanner, Solving ODEs I, §II.5 (Table 5.2).
 *
 * Control (erk_control.h, README.md "dopri5, dop853"): PI step-size
 * control on the embedded order-4 estimate (err ~ h^5), initial step of
 * HNW I §II.4 (start_step.c), stiffness test of HW II §IV.2 on the two
 * stages evaluated at t + h.  Dense output: the continuous extension of
 * order 4 of Dormand & Prince (HNW I §II.6), written as
 *   u(θ) = y0 + θ²(3 − 2θ)(y1 − y0)
 *          + h [θ(θ − 1)² k1 + θ²(θ − 1) k7 + θ²(θ − 1)² Σ_i d_i(θ) k_i],
 * i.e. b_i(θ) = θ²(3 − 2θ) b_i + the Hermite corrections, with the
 * published d_i(θ) below (they sum to zero, so Σ b_i(θ) = θ). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "integrate/erk_control.h"
#include "integrate/start_step.h"

#define DOPRI5_BETA 0.04 /* PI exponent (HW II §IV.2: β between 0.04 and 0.08; own choice of the end) */
#define DOPRI5_BOUNDARY \
  3.24 /* 0.98 x the real-axis stability boundary 3.307 (bench/integrators/erk_stability_boundary.py) */

/* Butcher tableau (HNW I Table 5.2). */
static const double C2 = 1.0 / 5.0, C3 = 3.0 / 10.0, C4 = 4.0 / 5.0, C5 = 8.0 / 9.0;
static const double A21 = 1.0 / 5.0;
static const double A31 = 3.0 / 40.0, A32 = 9.0 / 40.0;
static const double A41 = 44.0 / 45.0, A42 = -56.0 / 15.0, A43 = 32.0 / 9.0;
static const double A51 = 19372.0 / 6561.0, A52 = -25360.0 / 2187.0, A53 = 64448.0 / 6561.0,
                    A54 = -212.0 / 729.0;
static const double A61 = 9017.0 / 3168.0, A62 = -355.0 / 33.0, A63 = 46732.0 / 5247.0, A64 = 49.0 / 176.0,
                    A65 = -5103.0 / 18656.0;
/* 5th-order weights (= row 7, FSAL). */
static const double A71 = 35.0 / 384.0, A73 = 500.0 / 1113.0, A74 = 125.0 / 192.0, A75 = -2187.0 / 6784.0,
                    A76 = 11.0 / 84.0;
/* Error weights b - bhat. */
static const double E1 = 71.0 / 57600.0, E3 = -71.0 / 16695.0, E4 = 71.0 / 1920.0, E5 = -17253.0 / 339200.0,
                    E6 = 22.0 / 525.0, E7 = -1.0 / 40.0;

typedef struct dopri5_state {
  int n;
  double *k1, *k2, *k3, *k4, *k5, *k6, *k7; /* (n) stage derivatives; k1 = f(t, y) (FSAL) */
  double *y1, *ystage;                      /* (n) new solution, argument of stage 6 */
  double *y0;                               /* (n) start of the last accepted step (dense output) */
  double *mem;                              /* the single allocation (k1 and k7 swap roles) */
  int fsal_pending; /* k7 = f(t, y) of the new point: swap into k1 before the next step */
  int dense_ok;     /* stages of the last accepted step intact */
  erk_control ctl;
} dopri5_state;

static void dopri5_free(void *s_) {
  dopri5_state *s = s_;
  if (!s) return;
  free(s->mem);
  free(s);
}

static cosrod_status dopri5_alloc(void **out, cosrod_step_ctx *ctx) {
  dopri5_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  s->n = n;
  s->k1 = calloc((size_t)n * 10, sizeof(double));
  if (!s->k1) {
    free(s);
    return COSROD_ERR_NOMEM;
  }
  s->mem = s->k1;
  double *p = s->k1;
  s->k2 = p += n;
  s->k3 = p += n;
  s->k4 = p += n;
  s->k5 = p += n;
  s->k6 = p += n;
  s->k7 = p += n;
  s->y1 = p += n;
  s->ystage = p += n;
  s->y0 = p += n;
  erk_control_init(&s->ctl, ctx, 5.0, DOPRI5_BETA, DOPRI5_BOUNDARY);
  *out = s;
  return COSROD_OK;
}

/* k1 = f(t, y) at the start of an integration (or after y was modified). */
static cosrod_status dopri5_f_start(dopri5_state *s, cosrod_step_ctx *ctx) {
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->k1);
  if (rc != 0)
    return rc < 0 ? COSROD_ERR_CALLBACK
                  : cosrod_step_fail(ctx, ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK, ctx->t,
                                     "right-hand side failed at the initial point t = %.17g", ctx->t);
  ctx->y_modified = 0;
  s->fsal_pending = 0;
  return COSROD_OK;
}

static cosrod_status dopri5_reset(void *s_, cosrod_step_ctx *ctx) {
  dopri5_state *s = s_;
  s->fsal_pending = 0;
  s->dense_ok = 0;
  erk_control_reset(&s->ctl);
  cosrod_status st = dopri5_f_start(s, ctx);
  if (st != COSROD_OK) return st;
  if (ctx->h == 0.0) ctx->h = cosrod_integrate_start_step(ctx, s->k1, 5.0, 1, s->k2); /* k2..k4: 3n scratch */
  return COSROD_OK;
}

/* Stages 2..7 of a step h from (t, y) with k1 = f(t, y): y1 = the 5th-order
 * solution, k7 = f(t + h, y1) (FSAL), ystage = the argument of k6.  Returns
 * the f callback's code (0, > 0 recoverable, < 0 fatal). */
static int dopri5_stages(dopri5_state *s, cosrod_step_ctx *ctx, double t, const double *y, double h) {
  const int n = s->n;
  double *k1 = s->k1, *k2 = s->k2, *k3 = s->k3, *k4 = s->k4, *k5 = s->k5, *k6 = s->k6, *k7 = s->k7;
  double *y1 = s->y1, *ys = s->ystage;
  int rc;
  for (int i = 0; i < n; i++) y1[i] = y[i] + h * A21 * k1[i];
  if ((rc = cosrod_step_call_f(ctx, t + C2 * h, y1, k2)) != 0) return rc;
  for (int i = 0; i < n; i++) y1[i] = y[i] + h * (A31 * k1[i] + A32 * k2[i]);
  if ((rc = cosrod_step_call_f(ctx, t + C3 * h, y1, k3)) != 0) return rc;
  for (int i = 0; i < n; i++) y1[i] = y[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
  if ((rc = cosrod_step_call_f(ctx, t + C4 * h, y1, k4)) != 0) return rc;
  for (int i = 0; i < n; i++) y1[i] = y[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
  if ((rc = cosrod_step_call_f(ctx, t + C5 * h, y1, k5)) != 0) return rc;
  for (int i = 0; i < n; i++)
    ys[i] = y[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
  if ((rc = cosrod_step_call_f(ctx, t + h, ys, k6)) != 0) return rc;
  for (int i = 0; i < n; i++)
    y1[i] = y[i] + h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
  return cosrod_step_call_f(ctx, t + h, y1, k7);
}

/* Embedded error estimate e = h Σ (b_i − b̂_i) k_i in the weighted RMS norm
 * with sk_i = atol_i + rtol_i max(|y0_i|, |y1_i|) (HNW I (4.11)); NaN/Inf if
 * not finite. */
static double dopri5_error(const dopri5_state *s, const cosrod_step_ctx *ctx, const double *y, double h) {
  const int n = s->n;
  double err = 0.0;
  for (int i = 0; i < n; i++) {
    double e =
        h * (E1 * s->k1[i] + E3 * s->k3[i] + E4 * s->k4[i] + E5 * s->k5[i] + E6 * s->k6[i] + E7 * s->k7[i]);
    double sk = ctx->atol[i] + ctx->rtol[i] * fmax(fabs(y[i]), fabs(s->y1[i]));
    err += (e / sk) * (e / sk);
  }
  return sqrt(err / n);
}

static cosrod_status dopri5_step(void *s_, cosrod_step_ctx *ctx, int *accepted) {
  dopri5_state *s = s_;
  *accepted = 0;
  if (s->fsal_pending) {
    double *tmp = s->k1;
    s->k1 = s->k7;
    s->k7 = tmp;
    s->fsal_pending = 0;
  }
  s->dense_ok = 0;
  if (ctx->y_modified) {
    cosrod_status st = dopri5_f_start(s, ctx);
    if (st != COSROD_OK) return st;
  }
  const double h = ctx->h;
  ctx->stats->nsteps++;
  int rc = dopri5_stages(s, ctx, ctx->t, ctx->y, h);
  if (rc < 0) return COSROD_ERR_CALLBACK;
  const double err = rc > 0 ? NAN : dopri5_error(s, ctx, ctx->y, h);
  double q;
  if (erk_control_reject(&s->ctl, ctx, rc, err, h, &q)) return COSROD_OK;
  const int stiff = erk_control_stiff(&s->ctl, ctx->n, h, s->k7, s->k6, s->y1, s->ystage);
  s->fsal_pending = 1;
  s->dense_ok = 1;
  return erk_control_accept(ctx, ctx->n, h, q, s->y0, s->y1, stiff, "dopri5", DOPRI5_BOUNDARY, accepted);
}

/* Continuous extension, HNW I §II.6 (see the top of the file). */
static cosrod_status dopri5_dense(void *s_, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  const dopri5_state *s = s_;
  if (!s->dense_ok || ctx->h_last == 0.0) return COSROD_ERR_INVALID;
  const double h = ctx->h_last, th = (t - ctx->t_old) / h, th1 = th - 1.0;
  const double cub = th * th * (3.0 - 2.0 * th), w = th * th * th1 * th1;
  const double d1 = -5.0 * (2558722523.0 - 31403016.0 * th) / 11282082432.0;
  const double d3 = 100.0 * (882725551.0 - 15701508.0 * th) / 32700410799.0;
  const double d4 = -25.0 * (443332067.0 - 31403016.0 * th) / 1880347072.0;
  const double d5 = 32805.0 * (23143187.0 - 3489224.0 * th) / 199316789632.0;
  const double d6 = -55.0 * (29972135.0 - 7076736.0 * th) / 822651844.0;
  const double d7 = 10.0 * (7414447.0 - 829305.0 * th) / 29380423.0;
  const double c1 = th * th1 * th1 + w * d1, c7 = th * th * th1 + w * d7;
  const int m = idx ? nidx : s->n;
  for (int q = 0; q < m; q++) {
    const int i = idx ? idx[q] : q;
    if (i < 0 || i >= s->n) return COSROD_ERR_INVALID;
    const double corr =
        c1 * s->k1[i] + w * (d3 * s->k3[i] + d4 * s->k4[i] + d5 * s->k5[i] + d6 * s->k6[i]) + c7 * s->k7[i];
    out[q] = s->y0[i] + cub * (s->y1[i] - s->y0[i]) + h * corr;
  }
  return COSROD_OK;
}

static const cosrod_step_type dopri5_type = {
    "dopri5",
    5,
    COSROD_STEP_EXPLICIT | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE,
    dopri5_alloc,
    dopri5_reset,
    dopri5_step,
    dopri5_dense,
    dopri5_free,
};

const cosrod_step_type *const cosrod_step_dopri5 = &dopri5_type;
