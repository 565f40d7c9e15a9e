// SPDX-License-Identifier: Apache-2.0
/* Initial step size guess (HNW I §II.4; see start_step.h). */
#include <math.h>

#include "integrate/start_step.h"

double cosrod_integrate_start_step(cosrod_step_ctx *ctx, const double *f0, double q, int euler,
                                   double *work) {
  const int n = ctx->n;
  double *sk = work, *y1 = work + n, *f1 = work + 2 * n;
  cosrod_integrate_scale(n, ctx->rtol, ctx->atol, ctx->y, NULL, sk);
  const double d0 = cosrod_integrate_wrms(n, ctx->y, sk), d1 = cosrod_integrate_wrms(n, f0, sk);
  double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  h0 = fmin(h0, ctx->hmax);
  double h = h0;
  if (euler) {
    for (int i = 0; i < n; i++) y1[i] = ctx->y[i] + ctx->dir * h0 * f0[i];
    if (cosrod_step_call_f(ctx, ctx->t + ctx->dir * h0, y1, f1) == 0) {
      for (int i = 0; i < n; i++) y1[i] = f1[i] - f0[i];
      const double d2 = cosrod_integrate_wrms(n, y1, sk) / h0, dm = fmax(d1, d2);
      const double h1 = dm <= 1e-15 ? fmax(1e-6, 1e-3 * h0) : pow(0.01 / dm, 1.0 / q);
      h = fmin(100.0 * h0, h1);
    }
    ctx->nonfinite = 0;
  }
  const double floor = 100.0 * ctx->uround * fmax(fabs(ctx->t), fabs(ctx->t_end));
  return ctx->dir * fmin(fmax(h, floor), ctx->hmax);
}
