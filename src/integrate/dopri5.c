/* DOPRI5: the explicit Runge–Kutta pair of Dormand & Prince, order 5(4),
 * 7 stages with FSAL (the last stage is f at the new point), as described in
 * Hairer–Nørsett–Wanner, Solving ODEs I, §II.5 (Table 5.2) with the dense
 * output of order 4 of §II.6 (Shampine's continuous extension).
 *
 * Step-size control as in Hairer's code: error estimate from the embedded
 * 4th-order solution, err = ||e||_sk (shared weighted RMS norm), PI
 * ("Lund") stabilisation q = safety err^-(1/5 - 0.75 beta) err_old^beta with
 * beta = 0.04, 0.2 <= q <= 10, safety 0.9; after a rejection the new step may
 * not grow.  Stiffness detection (HW II §IV.2): every `stiff_test` accepted
 * steps, and then at each step while suspicious, h|lambda| is estimated from
 * the last two stages (both at t+h) and compared with 3.25 (the boundary of
 * the stability region along the negative axis); 15 positive tests in a row
 * declare the problem stiff, 6 negative ones clear the suspicion.
 * Counts follow the original: nfev = 6 per step + 2 (first f and the
 * initial-step guess); nreject counts rejections after the first accepted
 * step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "erk.h"

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
/* Dense output of order 4 (HNW I §II.6). */
static const double D1 = -12715105075.0 / 11282082432.0, D3 = 87487479700.0 / 32700410799.0,
                    D4 = -10690763975.0 / 1880347072.0, D5 = 701980252875.0 / 199316789632.0,
                    D6 = -1453857185.0 / 822651844.0, D7 = 69997945.0 / 29380423.0;

/* Controller and stiffness-detection defaults (see the top of the file). */
static const erk_defaults DOPRI5_CONTROL = {.safety = 0.9,
                                            .fac_min = 0.2,
                                            .fac_max = 10.0,
                                            .beta = 0.04,
                                            .expo0 = 0.2,
                                            .expo_beta = 0.75,
                                            .stiff_thresh = 3.25};

typedef struct dopri5_state {
  int n;
  double *k1, *k2, *k3, *k4, *k5, *k6, *k7; /* (n) stage derivatives */
  double *y1, *ystage;                      /* (n) new solution, stage argument */
  double *rc;                               /* (5n) dense output coefficients */
  double *work;                             /* (2n) initial-step guess */
  erk_control ctl;                          /* step-size control, stiffness detection */
  double t_old, h_old;
} dopri5_state;

static void dopri5_free(void *s_) {
  dopri5_state *s = s_;
  if (!s) return;
  free(s->k1);
  free(s);
}

static cosrod_status dopri5_alloc(void **out, cosrod_step_ctx *ctx) {
  dopri5_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  s->n = n;
  s->k1 = calloc((size_t)n * 16, sizeof(double));
  if (!s->k1) {
    free(s);
    return COSROD_ERR_NOMEM;
  }
  double *p = s->k1;
  s->k2 = p += n;
  s->k3 = p += n;
  s->k4 = p += n;
  s->k5 = p += n;
  s->k6 = p += n;
  s->k7 = p += n;
  s->y1 = p += n;
  s->ystage = p += n;
  s->rc = p += n;
  s->work = p += 5 * n;
  erk_init(&s->ctl, ctx, &DOPRI5_CONTROL);
  *out = s;
  return COSROD_OK;
}

static cosrod_status dopri5_reset(void *s_, cosrod_step_ctx *ctx) {
  dopri5_state *s = s_;
  cosrod_status st = erk_start(&s->ctl, ctx, 5, s->k1, s->work);
  if (st != COSROD_OK) return st;
  s->t_old = ctx->t;
  s->h_old = 0.0;
  return COSROD_OK;
}

static cosrod_status dopri5_step(void *s_, cosrod_step_ctx *ctx, int *accepted) {
  dopri5_state *s = s_;
  erk_control *c = &s->ctl;
  const int n = s->n;
  const double t = ctx->t, h = ctx->h;
  const double *y = ctx->y;
  double *k1 = s->k1, *k2 = s->k2, *k3 = s->k3, *k4 = s->k4, *k5 = s->k5, *k6 = s->k6, *k7 = s->k7;
  double *y1 = s->y1, *ys = s->ystage;
  int rc;
  if (ctx->y_modified) {
    rc = cosrod_step_call_f(ctx, t, y, k1);
    if (rc != 0) return rc < 0 ? COSROD_ERR_CALLBACK : COSROD_ERR_NONFINITE;
    ctx->y_modified = 0;
  }

  for (int i = 0; i < n; i++) y1[i] = y[i] + h * A21 * k1[i];
  if ((rc = cosrod_step_call_f(ctx, t + C2 * h, y1, k2)) != 0) return erk_rhs_failed(c, ctx, rc, accepted);
  for (int i = 0; i < n; i++) y1[i] = y[i] + h * (A31 * k1[i] + A32 * k2[i]);
  if ((rc = cosrod_step_call_f(ctx, t + C3 * h, y1, k3)) != 0) return erk_rhs_failed(c, ctx, rc, accepted);
  for (int i = 0; i < n; i++) y1[i] = y[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
  if ((rc = cosrod_step_call_f(ctx, t + C4 * h, y1, k4)) != 0) return erk_rhs_failed(c, ctx, rc, accepted);
  for (int i = 0; i < n; i++) y1[i] = y[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
  if ((rc = cosrod_step_call_f(ctx, t + C5 * h, y1, k5)) != 0) return erk_rhs_failed(c, ctx, rc, accepted);
  for (int i = 0; i < n; i++)
    ys[i] = y[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
  const double tph = t + h;
  if ((rc = cosrod_step_call_f(ctx, tph, ys, k6)) != 0) return erk_rhs_failed(c, ctx, rc, accepted);
  for (int i = 0; i < n; i++)
    y1[i] = y[i] + h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
  if ((rc = cosrod_step_call_f(ctx, tph, y1, k7)) != 0) return erk_rhs_failed(c, ctx, rc, accepted);
  ctx->stats->nsteps++;

  /* error estimate e = h sum (b_i - bhat_i) k_i, norm with sk_i = atol_i + rtol_i max(|y0_i|, |y1_i|) */
  double err = 0.0;
  for (int i = 0; i < n; i++) {
    double e = h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]);
    double sk = ctx->atol[i] + ctx->rtol[i] * fmax(fabs(y[i]), fabs(y1[i]));
    err += (e / sk) * (e / sk);
  }
  err = sqrt(err / n);

  if (isfinite(err) && err <= 1.0) {
    /* accepted */
    const double hnew = erk_accept(c, ctx, h, err);

    /* stiffness detection */
    if (stiff_detector_test(&c->stiff, ctx, h, k7, k6, y1, ys) && c->stiff.stop) {
      /* as the original: stop before taking this step; the state stays at t */
      *accepted = 0;
      return cosrod_step_fail(ctx, COSROD_ERR_STIFF, t,
                              "dopri5: the problem seems to be stiff at t = %.17g (h*lambda > 3.25 in 15 "
                              "consecutive tests)",
                              t);
    }

    /* dense output: y(t + theta h) = rc0 + th (rc1 + th1 (rc2 + th (rc3 + th1 rc4))) */
    double *r0 = s->rc, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n, *r4 = r3 + n;
    for (int i = 0; i < n; i++) {
      double ydiff = y1[i] - y[i];
      double bspl = h * k1[i] - ydiff;
      r0[i] = y[i];
      r1[i] = ydiff;
      r2[i] = bspl;
      r3[i] = ydiff - h * k7[i] - bspl;
      r4[i] = h * (D1 * k1[i] + D3 * k3[i] + D4 * k4[i] + D5 * k5[i] + D6 * k6[i] + D7 * k7[i]);
    }
    memcpy(k1, k7, sizeof(double) * (size_t)n);
    memcpy(ctx->y, y1, sizeof(double) * (size_t)n);
    s->t_old = t;
    s->h_old = h;
    ctx->t_old = t;
    ctx->t = tph;
    ctx->h_last = h;
    erk_set_next_step(c, ctx, h, hnew);
    *accepted = 1;
  } else {
    erk_reject(c, ctx, h, err, accepted);
  }
  return COSROD_OK;
}

static cosrod_status dopri5_dense(void *s_, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  (void)ctx;
  const dopri5_state *s = s_;
  if (s->h_old == 0.0) return COSROD_ERR_INVALID;
  const int n = s->n;
  const double th = (t - s->t_old) / s->h_old, th1 = 1.0 - th;
  const double *r0 = s->rc, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n, *r4 = r3 + n;
  int m = idx ? nidx : n;
  for (int k = 0; k < m; k++) {
    int i = idx ? idx[k] : k;
    out[k] = r0[i] + th * (r1[i] + th1 * (r2[i] + th * (r3[i] + th1 * r4[i])));
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
