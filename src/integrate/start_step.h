// SPDX-License-Identifier: Apache-2.0
/* Initial step size guess shared by the one-step methods (HNW I, §II.4,
 * "starting step size", own structure). */
#ifndef COSROD_INTEGRATE_START_STEP_H
#define COSROD_INTEGRATE_START_STEP_H

#include "cosrod/integrate.h"

/* Signed initial step from (ctx->t, ctx->y) with f0 = f there.  q = order
 * of the local error the controller measures plus one (error ~ h^q).  With
 * euler != 0 one explicit Euler step y1 = y0 + h0 f0 estimates ||y''||
 * (one f evaluation, only meaningful for y' = f: pass 0 with a mass matrix).
 *   sk_i = atol_i + rtol_i |y0_i|,  d0 = ||y0||, d1 = ||f0||  (RMS in sk),
 *   h0 = 0.01 d0/d1 (1e-6 if d0 or d1 < 1e-5),
 *   d2 = ||f(t0 + h0, y0 + h0 f0) - f0|| / h0,
 *   h1 = (0.01 / max(d1, d2))^(1/q)  (max(1e-6, 1e-3 h0) if both <= 1e-15),
 *   h  = min(100 h0, h1),
 * bounded by ctx->hmax and below by 100 u max(|t|, |t_end|).  A failed or
 * non-finite trial evaluation keeps h0 (ctx->nonfinite is cleared).
 * work: (3n).  Counts nfev through cosrod_step_call_f. */
double cosrod_integrate_start_step(cosrod_step_ctx *ctx, const double *f0, double q, int euler, double *work);

#endif /* COSROD_INTEGRATE_START_STEP_H */
