// SPDX-License-Identifier: Apache-2.0
/* Order and step-size control of extrapolation methods: see extrap_control.h
 * (method description: HNW I §II.9, Deuflhard 1983/1985; constants and their
 * sources in the header and src/integrate/README.md). */
#include "integrate/extrap_control.h"

#include <math.h>

#include "cosrod/integrate.h"

void cosrod_extrap_ctrl_init(cosrod_extrap_ctrl *c, int kmax, int gamma, const int *nseq,
                             const double *work) {
  if (kmax > COSROD_EXTRAP_KMAX) kmax = COSROD_EXTRAP_KMAX;
  c->kmax = kmax;
  c->gamma = gamma;
  for (int j = 0; j < kmax; j++) {
    c->nseq[j] = nseq[j];
    c->work[j] = work[j];
    c->err[j] = 0.0;
    c->hfac[j] = 1.0;
  }
  c->rho = 0.38;
  c->fac_min = 0.02;
  c->fac_max = 4.0;
  c->order_up = 0.9;
  c->kmin = 2;
  c->jmin_accept = 1;
  c->predict_raise = 0;
  c->observed = 0;
  c->predictive = 0;
  c->pred_cap = 1.5;
  c->j_cur = c->j_prev = 0;
  c->h_cur = c->h_prev = 0.0;
}

void cosrod_extrap_begin(cosrod_extrap_ctrl *c, double H) {
  if (c->j_cur >= 1) {
    for (int i = 1; i <= c->j_cur; i++) c->prev_err[i] = c->err[i];
    c->j_prev = c->j_cur;
    c->h_prev = c->h_cur;
  }
  c->j_cur = 0;
  c->h_cur = H;
}

/* Expected division of the error from column i-1 to column i: the model
 * (n_i / n_0)^gamma (header), or, with `observed`, the ratio
 * err_{i-1} / err_i measured in the last step that computed both columns,
 * carried to this step's H with the model's H-dependence of the ratio
 * (err_i ~ H^(gamma i + 1), so the ratio ~ H^-gamma), when that is larger:
 * on stiff problems the rows converge much faster than the asymptotic model
 * says (Robertson: err_2 / err_3 ~ 200 where the model predicts 2), and the
 * model alone rejects steps that would pass (README "seulex"). */
static double extrap_ratio(const cosrod_extrap_ctrl *c, int i) {
  double r = pow(c->nseq[i] / c->nseq[0], c->gamma);
  if (c->observed && i <= c->j_prev && i >= 2 && c->prev_err[i] > 0.0 && c->prev_err[i - 1] > 0.0 &&
      c->h_prev > 0.0 && c->h_cur > 0.0) {
    double o = c->prev_err[i - 1] / c->prev_err[i] * pow(fabs(c->h_prev / c->h_cur), c->gamma);
    if (o > r) r = o;
  }
  return r;
}

double cosrod_extrap_step_factor(const cosrod_extrap_ctrl *c, int j, double err) {
  if (!(err > 0.0)) return c->fac_max;
  if (!isfinite(err)) return c->fac_min;
  double q = pow(c->rho / err, 1.0 / (c->gamma * j + 1));
  return q < c->fac_min ? c->fac_min : (q > c->fac_max ? c->fac_max : q);
}

int cosrod_extrap_monitor(cosrod_extrap_ctrl *c, int j, int k, double err) {
  c->err[j] = err;
  c->j_cur = j;
  c->hfac[j] = cosrod_extrap_step_factor(c, j, err);
  if (!isfinite(err)) return COSROD_EXTRAP_REJECT;
  if (j < k - 1) return COSROD_EXTRAP_CONTINUE;
  /* no early acceptance below the lowest target column: the next order
   * choice needs the work of column k as well (README) */
  if (err <= 1.0 && j >= c->jmin_accept) return COSROD_EXTRAP_ACCEPT;
  if (err <= 1.0 && j + 1 >= c->kmax) return COSROD_EXTRAP_ACCEPT;
  if (j >= k + 1 || j + 1 >= c->kmax) return COSROD_EXTRAP_REJECT;
  /* predicted division of the error by the remaining columns up to k+1 */
  double reach = 1.0;
  for (int i = j + 1; i <= k + 1 && i < c->kmax; i++) reach *= extrap_ratio(c, i);
  return err > reach ? COSROD_EXTRAP_REJECT : COSROD_EXTRAP_CONTINUE;
}

void cosrod_extrap_next(const cosrod_extrap_ctrl *c, int j, int k, int accepted, int no_increase, int *k_next,
                        double *hfac_next) {
  (void)k;
  /* smallest work per unit step among the computed columns that have an
   * estimate: after an acceptance the last two (the others are older
   * information about a smaller step), after a rejection all of them */
  int lo = accepted ? (j - 1 >= 1 ? j - 1 : 1) : 1;
  int best = j;
  double wbest = c->work[j] / c->hfac[j];
  for (int i = j - 1; i >= lo; i--) {
    double w = c->work[i] / c->hfac[i];
    if (w < wbest) best = i, wbest = w;
  }
  double hf = c->hfac[best];
  if (c->predictive && accepted && !no_increase && best <= c->j_prev && c->prev_err[best] > 0.0 &&
      c->err[best] > 0.0 && c->h_prev > 0.0) {
    /* Gustafsson's predictive controller (1994; HW II (8.25)):
     * q_pred = q (H_n / H_{n-1}) (err_{n-1} / err_n)^(1/(gamma j + 1)); it
     * follows the observed H-dependence of err_j instead of the asymptotic
     * exponent.  Used only when it allows more growth than q: where err_j
     * hardly responds to H (stiff components, README "seulex") the step
     * then grows geometrically until the error does respond.  At most
     * pred_cap = 1.5 times q.  Constants measured (README "seulex"). */
    const double e = 1.0 / (c->gamma * best + 1);
    const double rh = fabs(c->h_cur / c->h_prev), re = c->err[best] / c->prev_err[best];
    const double qp = hf * rh * pow(1.0 / re, e);
    /* only where the error is clearly outside the asymptotic model: the last
     * step grew H by more than 2 % and err_j grew by less than half the
     * model's power of that growth (observed exponent < (gamma j + 1) / 2) */
    if (qp > hf && rh > 1.02 && log(re) < 0.5 * log(rh) / e)
      hf = fmin(fmin(qp, c->pred_cap * hf), c->fac_max);
  }
  if (accepted && !no_increase && best == j && j + 1 <= c->kmax - 2 &&
      (j == 1 || c->work[j] / c->hfac[j] < c->order_up * c->work[j - 1] / c->hfac[j - 1])) {
    /* the work still falls with the order (or column 1, the lowest, has no
     * predecessor to compare with): one column more, with the step that
     * keeps the work per unit step (HNW I §II.9) */
    best = j + 1;
    hf = c->hfac[j] * c->work[j + 1] / c->work[j];
    if (c->predict_raise && j >= 2 && c->err[j - 1] > 0.0 && c->err[j] > 0.0 && c->err[j] < c->err[j - 1]) {
      /* err_{j+1} ~ err_j (err_j / err_{j-1})^(1/2): half the rows' observed
       * rate of convergence continued one row (own model and experiment,
       * README "seulex"); used when it allows a larger step */
      double hp = cosrod_extrap_step_factor(c, j + 1, c->err[j] * sqrt(c->err[j] / c->err[j - 1]));
      if (hp > hf) hf = hp;
    }
    if (hf > c->fac_max) hf = c->fac_max;
  }
  if (best < c->kmin) {
    /* raised to the lowest target: its own step if it was computed */
    best = c->kmin;
    if (best <= j) hf = c->hfac[best];
  }
  if (best > c->kmax - 2) best = c->kmax - 2;
  if (no_increase && hf > 1.0) hf = 1.0;
  *k_next = best;
  *hfac_next = hf;
}

int cosrod_extrap_initial_column(const cosrod_extrap_ctrl *c, double rtol) {
  double digits = rtol > 0.0 ? -log10(rtol) : 16.0;
  int j = (int)floor((digits + 1.0) / c->gamma - 1.0 + 0.5);
  if (j < c->kmin) j = c->kmin;
  if (j > c->kmax - 2) j = c->kmax - 2;
  return j;
}

int cosrod_extrap_initial_step(cosrod_step_ctx *ctx, int order, const double *f0, double *work, double *h) {
  const int n = ctx->n;
  const double *y = ctx->y;
  double d0 = 0.0, d1 = 0.0;
  for (int i = 0; i < n; i++) {
    const double sk = ctx->atol[i] + ctx->rtol[i] * fabs(y[i]);
    d0 += (y[i] / sk) * (y[i] / sk);
    d1 += (f0[i] / sk) * (f0[i] / sk);
  }
  d0 = sqrt(d0 / n), d1 = sqrt(d1 / n);
  double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  if (h0 > ctx->hmax) h0 = ctx->hmax;
  double *y1 = work, *f1 = work + n;
  for (int i = 0; i < n; i++) y1[i] = y[i] + ctx->dir * h0 * f0[i];
  int rc = cosrod_step_call_f(ctx, ctx->t + ctx->dir * h0, y1, f1);
  if (rc < 0) return rc;
  if (rc > 0) {
    ctx->nonfinite = 0;
    *h = ctx->dir * 0.1 * h0;
    return 0;
  }
  double d2 = 0.0;
  for (int i = 0; i < n; i++) {
    const double sk = ctx->atol[i] + ctx->rtol[i] * fabs(y[i]);
    d2 += ((f1[i] - f0[i]) / sk) * ((f1[i] - f0[i]) / sk);
  }
  d2 = sqrt(d2 / n) / h0;
  const double dm = fmax(d1, d2);
  const double h1 = dm <= 1e-15 ? fmax(1e-6, 1e-3 * h0) : pow(0.01 / dm, 1.0 / (order + 1));
  *h = ctx->dir * fmin(fmin(100.0 * h0, h1), ctx->hmax);
  return 0;
}
