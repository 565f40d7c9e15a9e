/* SEULEX: extrapolation of the linearly implicit Euler method with order and
 * step-size selection, after Hairer & Wanner, Solving ODEs II, §IV.9
 * ("Linearly implicit extrapolation", eq. (9.25) and the SEULEX strategy),
 * for M y' = f(t, y) with a constant (possibly singular) mass matrix.
 *
 * Row j of the tableau (n_j substeps of size h_j = H/n_j, sequence
 * n = 2, 3, 4, 6, 8, 12, 16, 24, ...):
 *   (M/h_j − J) Δ_i = f(t + i h_j, y_i),   y_{i+1} = y_i + Δ_i,   T_{j,1} = y_{n_j},
 * J = ∂f/∂y at the start of the step.  For a non-autonomous problem
 * (time_dependent = 1) f is evaluated at the right end of each substep,
 * f(t + (i+1) h_j, y_i), as in the original code: stiff components then follow
 * the forcing at t_{i+1} (one more f per row; the stability check below then
 * uses f(t + h_j, y_1)).  Euler has an h-expansion (not h²),
 * hence the Aitken–Neville extrapolation
 *   T_{j,k+1} = T_{j,k} + (T_{j,k} − T_{j−1,k}) / (n_j/n_{j−k} − 1),
 * and err_j = ||T_{j,j} − T_{j,j−1}|| with sk_i = atol_i + rtol_i |y0_i|.
 * Stability check in rows 1 and 2 (HW II §IV.9): after the first substep one
 * simplified-Newton correction of implicit Euler, (M/h_j − J) δ = f(y_1) − M Δ_0/h_j,
 * gives θ = ||δ|| / max(1, ||Δ_0||); θ > 1 halves H.  θ also decides Jacobian
 * reuse: J is recomputed at a new step only if θ > THET = min(1e-4, rtol)
 * (opts.jac_reuse), and a step rejected by the error test is retried with
 * the same J (and f(t, y)) if J was evaluated at this point.
 *
 * Order and step size (HNW I §II.9 with the SEULEX exponents): for column j,
 * H_j = H / min(FAC2/f_j, max(f_j, (err_j/SAFE1)^(1/j) / SAFE2)),
 * f_j = FAC1^(1/j), and work per unit step W_j = A_j / H_j with
 * A_1 = w_jac + n_1 (w_f + w_sol) + w_dec, A_j = A_{j−1} + (n_j − 1)(w_f + w_sol) + w_dec
 * (w_f = 1, w_jac = 5, w_dec = 1, w_sol = 1).  Convergence monitor: rows
 * 1..k−1, then row k, then row k+1 ("hope for convergence"), rejecting early
 * when err_{k−1} > 4 n_{k+1} n_k or err_k > 2 n_{k+1}; order decreased when
 * W_{k−1} < FAC3 W_k, increased when W_k < FAC4 W_{k−1} (FAC1 = 0.1, FAC2 = 4,
 * FAC3 = 0.7, FAC4 = 0.9, SAFE1 = 0.6, SAFE2 = 0.93, at most 12 columns,
 * initial k = max(2, min(km − 2, ⌊−0.6 log10(rtol + atol) + 1.5⌋)), h0 = 1e-6).
 * The first step (and the one reaching t_end) tries rows 1..k and accepts at
 * the first row j > 1 with err_j <= 1.
 * A singular M/h_j - J, a failed f (> 0), θ > 1 or a growing error in rows
 * j > 2 halve H; five singular matrices in a row end the run with
 * ERR_SINGULAR (the original keeps halving until H underflows).
 *
 * Dense output (after Hairer & Ostermann's extrapolated dense output, HW II
 * §IV.9, λ = 0): the Taylor coefficients c_k = H^k y^(k)(t1)/k! at the right
 * end, k = 1..kc−1, are approximated in each row r >= k by backward
 * differences of its last increments and extrapolated over the rows; the
 * polynomial y1 + Σ_{k=1}^{kc} c_k (θ−1)^k with c_kc fixed by P(0) = y0 is
 * evaluated (no extra f evaluations; also for DAEs).  Our own polynomial
 * form, computed lazily at the first dense request after a step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/lsys.h"

enum { SEULEX_KMAX = 32 };

/* Step-number sequence 2, 3, 4, 6, 8, 12, ...: n_1 = 2, n_2 = 3, n_j = 2 n_{j−2}. */
static int seq_n(int j) { return j == 1 ? 2 : j == 2 ? 3 : 2 * seq_n(j - 2); }

typedef struct seulex_state {
  int n, km;
  cosrod_lsys *L;
  int nj[SEULEX_KMAX + 2];
  double a[SEULEX_KMAX + 2], hh[SEULEX_KMAX + 2], w[SEULEX_KMAX + 2]; /* 1-based */
  double *T;                                                          /* (km x n) tableau rows */
  double *dy, *yh, *dyh, *del, *wh, *scal;                            /* (n) */
  double *y0c;                                                        /* (n) y at the step start */
  double *inc;   /* (km(km+1)/2 x n) last jj increments of each row jj of the current attempt */
  double *dcoef; /* (km + 1 x n) Taylor coefficients c_k = H^k y^(k)(t1)/k! of the dense output */
  double *V;     /* (km x n) extrapolation tableau for the derivatives */
  int kc_acc;    /* rows used by the last accepted step */
  int dense_ready;
  double thet, theta, fac1, fac2, fac3, fac4, safe1, safe2, errold, err;
  int k;       /* current target number of columns */
  int reject;  /* a rejection happened in the current step */
  int caljac;  /* J was evaluated at the current (t, y) */
  int retry30; /* next attempt reuses f(t, y) and J (Hairer's label 30) */
  int nsing;   /* consecutive attempts ended by a singular matrix */
  long nstep;
  double t_old, h_old;
} seulex_state;

static void seulex_free(void *s_) {
  seulex_state *s = s_;
  if (!s) return;
  cosrod_lsys_free(s->L);
  free(s->T);
  free(s->inc);
  free(s->dy);
  free(s);
}

static cosrod_status seulex_alloc(void **out, cosrod_step_ctx *ctx) {
  const cosrod_integrate_options *o = ctx->opts;
  seulex_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  s->n = n;
  s->km = o->max_columns > 0 ? o->max_columns : 12;
  if (s->km < 3 || s->km > SEULEX_KMAX) {
    free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "seulex: max_columns must be in 3..%d",
                            SEULEX_KMAX);
  }
  cosrod_status st = cosrod_lsys_create(&s->L, ctx);
  if (st != COSROD_OK) {
    free(s);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "seulex: inconsistent Jacobian or mass-matrix bandwidths")
               : st;
  }
  s->T = calloc((size_t)s->km * (size_t)n, sizeof(double));
  s->inc = calloc((size_t)(s->km * (s->km + 1) / 2 + 2 * s->km + 1) * (size_t)n, sizeof(double));
  s->dy = calloc((size_t)10 * (size_t)n, sizeof(double));
  if (!s->T || !s->dy || !s->inc) {
    seulex_free(s);
    return COSROD_ERR_NOMEM;
  }
  double *p = s->dy;
  s->yh = p += n;
  s->dyh = p += n;
  s->del = p += n;
  s->wh = p += n;
  s->scal = p += n;
  s->y0c = p += n;
  s->dcoef = s->inc + (size_t)(s->km * (s->km + 1) / 2) * (size_t)n;
  s->V = s->dcoef + (size_t)(s->km + 1) * (size_t)n;
  const double wkfcn = 1.0, wkjac = 5.0, wkdec = 1.0, wksol = 1.0, wkrow = wkfcn + wksol;
  for (int j = 1; j <= s->km + 1; j++) s->nj[j] = seq_n(j);
  s->a[1] = wkjac + s->nj[1] * wkrow + wkdec;
  for (int j = 2; j <= s->km + 1; j++) s->a[j] = s->a[j - 1] + (s->nj[j] - 1) * wkrow + wkdec;
  s->fac1 = 0.1;
  s->fac2 = 4.0;
  s->fac3 = 0.7;
  s->fac4 = 0.9;
  s->safe1 = 0.6;
  s->safe2 = o->safety > 0.0 ? o->safety : 0.93;
  ctx->clip_factor = 1.0; /* as the original: H = min(H, xend - x) */
  *out = s;
  return COSROD_OK;
}

static void set_scal(seulex_state *s, const cosrod_step_ctx *ctx) {
  cosrod_integrate_scale(s->n, ctx->rtol, ctx->atol, ctx->y, NULL, s->scal);
}

static cosrod_status seulex_reset(void *s_, cosrod_step_ctx *ctx) {
  seulex_state *s = s_;
  const cosrod_integrate_options *o = ctx->opts;
  double r0 = ctx->rtol[0], a0 = ctx->atol[0];
  s->thet = o->jac_reuse != 0.0 ? o->jac_reuse : fmin(1e-4, r0);
  int k = (int)(-0.6 * log10(r0 + a0) + 1.5);
  if (!(r0 + a0 > 0.0)) k = s->km - 2;
  s->k = k < 2 ? 2 : (k > s->km - 2 ? s->km - 2 : k);
  s->theta = 2.0 * fabs(s->thet);
  s->err = 0.0;
  s->errold = 0.0;
  s->w[1] = 1e30;
  s->reject = 0;
  s->caljac = 0;
  s->retry30 = 0;
  s->nsing = 0;
  s->nstep = 0;
  s->h_old = 0.0;
  s->t_old = ctx->t;
  set_scal(s, ctx);
  if (cosrod_lsys_load_mass(s->L, ctx) != 0) return COSROD_ERR_CALLBACK;
  if (ctx->h == 0.0 || fabs(ctx->h) <= 10.0 * ctx->uround) ctx->h = ctx->dir * 1e-6;
  if (fabs(ctx->h) > ctx->hmax) ctx->h = ctx->dir * ctx->hmax;
  return COSROD_OK;
}

/* Row jj of the extrapolation tableau for the step (t, y, h); returns 0, 1
 * (failure that halves h: callback > 0, instability or divergence), 2
 * (singular matrix, also halves h) or < 0 (fatal callback). */
static int seulex_row(seulex_state *s, cosrod_step_ctx *ctx, int jj, double h) {
  const int n = s->n, m = s->nj[jj];
  const double t = ctx->t, hj = h / m, hji = 1.0 / hj;
  const double *y = ctx->y;
  double *del = s->del, *yh = s->yh, *dyh = s->dyh, *wh = s->wh, *scal = s->scal;
  cosrod_status st = cosrod_lsys_factor(s->L, hji);
  if (st != COSROD_OK) return 2;
  ctx->stats->ndecomp++;
  const int tdep = ctx->problem->time_dependent != 0;
  if (tdep) {
    /* non-autonomous: f at the right end of each substep */
    int rc = cosrod_step_call_f(ctx, t + hj, y, del);
    if (rc != 0) return rc < 0 ? rc : 1;
  } else {
    memcpy(del, s->dy, sizeof(double) * (size_t)n);
  }
  cosrod_lsys_solve(s->L, del);
  ctx->stats->nsolve++;
  /* the last jj increments of the row are kept for the dense output */
  double *inc = s->inc + (size_t)(jj * (jj - 1) / 2) * (size_t)n;
  if (m - jj <= 0) memcpy(inc + (size_t)(0 - (m - jj)) * (size_t)n, del, sizeof(double) * (size_t)n);
  memcpy(yh, y, sizeof(double) * (size_t)n);
  for (int mm = 1; mm < m; mm++) {
    for (int i = 0; i < n; i++) yh[i] += del[i];
    int rc = cosrod_step_call_f(ctx, t + hj * (mm + tdep), yh, dyh);
    if (rc != 0) return rc < 0 ? rc : 1;
    if (mm == 1 && jj <= 2) {
      /* stability check: one Newton correction of implicit Euler */
      double del1 = 0.0, del2 = 0.0;
      for (int i = 0; i < n; i++) del1 += (del[i] / scal[i]) * (del[i] / scal[i]);
      del1 = sqrt(del1);
      const double *fy1 = dyh;
      if (tdep) {
        /* the implicit-Euler residual needs f(t + h_j, y_1) */
        rc = cosrod_step_call_f(ctx, t + hj, yh, s->T + (size_t)(jj - 1) * (size_t)n);
        if (rc != 0) return rc < 0 ? rc : 1;
        fy1 = s->T + (size_t)(jj - 1) * (size_t)n;
      }
      cosrod_lsys_mass_mult(s->L, del, wh);
      for (int i = 0; i < n; i++) wh[i] = fy1[i] - wh[i] * hji;
      cosrod_lsys_solve(s->L, wh);
      ctx->stats->nsolve++;
      for (int i = 0; i < n; i++) del2 += (wh[i] / scal[i]) * (wh[i] / scal[i]);
      del2 = sqrt(del2);
      s->theta = del2 / fmax(1.0, del1);
      if (!(s->theta <= 1.0)) return 1;
    }
    memcpy(del, dyh, sizeof(double) * (size_t)n);
    cosrod_lsys_solve(s->L, del);
    ctx->stats->nsolve++;
    if (mm >= m - jj) memcpy(inc + (size_t)(mm - (m - jj)) * (size_t)n, del, sizeof(double) * (size_t)n);
  }
  double *Tj = s->T + (size_t)(jj - 1) * (size_t)n;
  for (int i = 0; i < n; i++) Tj[i] = yh[i] + del[i];
  if (jj == 1) return 0;
  /* Aitken–Neville: afterwards T_1 = T_{jj,jj}, T_2 = T_{jj,jj-1} */
  for (int l = jj; l >= 2; l--) {
    double fac = (double)s->nj[jj] / (double)s->nj[l - 1] - 1.0;
    double *Tl = s->T + (size_t)(l - 1) * (size_t)n, *Tm = s->T + (size_t)(l - 2) * (size_t)n;
    for (int i = 0; i < n; i++) Tm[i] = Tl[i] + (Tl[i] - Tm[i]) / fac;
  }
  double err = 0.0;
  const double *T1 = s->T, *T2 = s->T + n;
  for (int i = 0; i < n; i++) {
    double e = fabs(T1[i] - T2[i]) / scal[i];
    if (!isfinite(e)) {
      ctx->nonfinite = 1;
      return 1;
    }
    e = fmin(e, 1e15);
    err += e * e;
  }
  if (err >= 1e30) return 1;
  err = sqrt(err / n);
  s->err = err;
  if (jj > 2 && err >= s->errold) return 1; /* the tableau diverges */
  s->errold = fmax(4.0 * err, 1.0);
  const double expo = 1.0 / jj, facmin = pow(s->fac1, expo);
  double fac = fmin(s->fac2 / facmin, fmax(facmin, pow(err / s->safe1, expo) / s->safe2));
  s->hh[jj] = fmin(fabs(h) / fac, ctx->hmax);
  s->w[jj] = s->a[jj] / s->hh[jj];
  return 0;
}

enum { OUT_ACCEPT, OUT_REJECT, OUT_ATOV };

static cosrod_status seulex_step(void *s_, cosrod_step_ctx *ctx, int *accepted) {
  seulex_state *s = s_;
  const int n = s->n;
  const double t = ctx->t, h = ctx->h;
  *accepted = 0;
  if (ctx->y_modified) {
    set_scal(s, ctx);
    s->retry30 = 0;
    s->caljac = 0;
    ctx->y_modified = 0;
  }
  if (!s->retry30) {
    /* Hairer's label 10: f(t, y) and, if θ says so, a new Jacobian */
    if (s->reject) s->theta = 2.0 * fabs(s->thet);
    const int need_jac = s->theta > s->thet && !s->caljac;
    /* f(t, y) starts every row of an autonomous problem; a non-autonomous one
     * needs it only for a finite-difference Jacobian */
    if (!ctx->problem->time_dependent || (need_jac && !ctx->problem->jac)) {
      int rc = cosrod_step_call_f(ctx, t, ctx->y, s->dy);
      if (rc < 0) return COSROD_ERR_CALLBACK;
      if (rc > 0)
        return cosrod_step_fail(ctx, ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK, t,
                                "seulex: right-hand side failed at the accepted point t = %.17g", t);
    }
    if (need_jac) {
      int rc = cosrod_lsys_jac(s->L, ctx, t, ctx->y, s->dy);
      if (rc < 0) return COSROD_ERR_CALLBACK;
      if (rc > 0)
        return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t, "seulex: Jacobian failed at t = %.17g", t);
      s->caljac = 1;
    }
  }
  s->retry30 = 0;
  const int first_or_last = s->nstep == 0 || ctx->last;
  s->nstep++;
  ctx->stats->nsteps++;

  int k = s->k, kc = 0, out = -1, rc = 0, sing = 0;
  const int *nj = s->nj;
  /* rows: each call may end the attempt with OUT_ATOV */
#define ROW(j)                              \
  do {                                      \
    rc = seulex_row(s, ctx, (j), h);        \
    if (rc < 0) return COSROD_ERR_CALLBACK; \
    if (rc > 0) {                           \
      out = OUT_ATOV;                       \
      sing = rc == 2;                       \
      goto decided;                         \
    }                                       \
  } while (0)
  if (first_or_last) {
    for (int j = 1; j <= k; j++) {
      kc = j;
      ROW(j);
      if (j > 1 && s->err <= 1.0) {
        out = OUT_ACCEPT;
        goto decided;
      }
    }
  } else {
    kc = k - 1;
    for (int j = 1; j <= kc; j++) ROW(j);
    if (!(k == 2 || s->reject)) {
      if (s->err <= 1.0) {
        out = OUT_ACCEPT;
        goto decided;
      }
      if (s->err > (double)nj[k + 1] * nj[k] * 4.0) {
        out = OUT_REJECT;
        goto decided;
      }
    }
    ROW(k);
    kc = k;
    if (s->err <= 1.0) {
      out = OUT_ACCEPT;
      goto decided;
    }
  }
  /* hope for convergence in row k + 1 */
  if (s->err > (double)nj[k + 1] * 2.0) {
    out = OUT_REJECT;
    goto decided;
  }
  kc = k + 1;
  ROW(kc);
  out = s->err > 1.0 ? OUT_REJECT : OUT_ACCEPT;
#undef ROW

decided:
  s->nsing = sing ? s->nsing + 1 : 0;
  if (s->nsing >= 5)
    return cosrod_step_fail(ctx, COSROD_ERR_SINGULAR, t,
                            "seulex: matrix M/h_j - J is singular 5 times in a row at t = %.17g", t);
  if (out == OUT_ATOV) {
    /* singular matrix, failed f, instability or divergence: halve h, new f (and J if stale) */
    s->reject = 1;
    s->retry30 = 0;
    ctx->h = 0.5 * h;
    return COSROD_OK;
  }
  const double *w = s->w, *hh = s->hh, *a = s->a;
  const double fac3 = s->fac3, fac4 = s->fac4;
  if (out == OUT_REJECT) {
    k = k < kc ? k : kc;
    if (k > 2 && w[k - 1] < w[k] * fac3) k--;
    ctx->stats->nreject++;
    s->k = k;
    s->reject = 1;
    s->retry30 = s->caljac;
    ctx->h = ctx->dir * hh[k];
    return COSROD_OK;
  }

  /* accepted: y <- T_{kc,kc} */
  memcpy(s->y0c, ctx->y, sizeof(double) * (size_t)n);
  memcpy(ctx->y, s->T, sizeof(double) * (size_t)n);
  s->t_old = t;
  s->h_old = h;
  ctx->t_old = t;
  ctx->t = t + h;
  ctx->h_last = h;
  set_scal(s, ctx);
  ctx->stats->naccept++;
  s->caljac = 0;
  s->kc_acc = kc;
  s->dense_ready = 0;
  *accepted = 1;

  int kopt;
  if (kc == 2) {
    kopt = s->reject ? 2 : 3;
  } else if (kc <= k) {
    kopt = kc;
    if (w[kc - 1] < w[kc] * fac3) kopt = kc - 1;
    if (w[kc] < w[kc - 1] * fac4) kopt = kc + 1 < s->km - 1 ? kc + 1 : s->km - 1;
  } else {
    kopt = kc - 1;
    if (kc > 3 && w[kc - 2] < w[kc - 1] * fac3) kopt = kc - 2;
    if (w[kc] < w[kopt] * fac4) kopt = kc < s->km - 1 ? kc : s->km - 1;
  }
  double hnew;
  if (s->reject) {
    k = kopt < kc ? kopt : kc;
    hnew = fmin(fabs(h), hh[k]);
    s->reject = 0;
  } else {
    if (kopt <= kc) {
      hnew = hh[kopt];
    } else if (kc < k && w[kc] < w[kc - 1] * fac4) {
      hnew = hh[kc] * a[kopt + 1] / a[kc];
    } else {
      hnew = hh[kc] * a[kopt] / a[kc];
    }
    k = kopt;
  }
  s->k = k;
  ctx->h = ctx->dir * fmin(hnew, ctx->hmax);
  return COSROD_OK;
}

/* Dense output coefficients (computed on first use after a step):
 * c_k = H^k y^(k)(t1) / k!, k = 1..kc-1, from the backward differences of
 * the last k increments of rows r = k..kc, c_k(r) = n_r^k ∇^{k-1}Δ_last / k!
 * (∇^{k-1}Δ / h_r^k ~ y^(k)(t1) + O(h_r)), extrapolated over r like the
 * solution; c_kc closes P(0) = y0.  P(θ) = y1 + Σ_k c_k (θ - 1)^k. */
static void seulex_dense_prepare(seulex_state *s, const cosrod_step_ctx *ctx) {
  const int n = s->n, kc = s->kc_acc;
  const size_t nb = (size_t)n;
  double *c = s->dcoef, *V = s->V;
  double kfact = 1.0;
  for (int k = 1; k < kc; k++) {
    kfact *= k;
    for (int r = k; r <= kc; r++) {
      /* row r holds its last r increments D_0..D_{r-1} (D_{r-1} the last) */
      const double *inc = s->inc + (size_t)(r * (r - 1) / 2) * nb;
      double *v = V + (size_t)(r - 1) * nb;
      const double scale = pow((double)s->nj[r], k) / kfact;
      double binom = 1.0; /* C(k-1, i) */
      for (int i = 0; i < n; i++) v[i] = 0.0;
      for (int q = 0; q < k; q++) {
        const double *D = inc + (size_t)(r - 1 - q) * nb;
        double cf = (q % 2 ? -binom : binom) * scale;
        for (int i = 0; i < n; i++) v[i] += cf * D[i];
        binom = binom * (double)(k - 1 - q) / (double)(q + 1);
      }
      for (int l = r; l >= k + 1; l--) {
        double fac = (double)s->nj[r] / (double)s->nj[l - 1] - 1.0;
        double *Vl = V + (size_t)(l - 1) * nb, *Vm = V + (size_t)(l - 2) * nb;
        for (int i = 0; i < n; i++) Vm[i] = Vl[i] + (Vl[i] - Vm[i]) / fac;
      }
    }
    memcpy(c + (size_t)(k - 1) * nb, V + (size_t)(k - 1) * nb, sizeof(double) * nb);
  }
  /* c_kc from P(0) = y0: the polynomial interpolates y0, y1 and the kc-1
   * extrapolated derivatives at t1 (Hairer & Ostermann, λ = 0) */
  double *ckc = c + (size_t)(kc - 1) * nb;
  const double sg = kc % 2 ? -1.0 : 1.0;
  for (int i = 0; i < n; i++) {
    double r0 = s->y0c[i] - ctx->y[i];
    for (int k = 1; k < kc; k++) r0 -= (k % 2 ? -1.0 : 1.0) * c[(size_t)(k - 1) * nb + (size_t)i];
    ckc[i] = sg * r0;
  }
  s->dense_ready = 1;
}

static cosrod_status seulex_dense(void *s_, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  seulex_state *s = s_;
  if (s->h_old == 0.0) return COSROD_ERR_INVALID;
  if (!s->dense_ready) seulex_dense_prepare(s, ctx);
  const int n = s->n, kc = s->kc_acc;
  const double sth = (t - s->t_old) / s->h_old - 1.0;
  const double *c = s->dcoef;
  int m = idx ? nidx : n;
  for (int kk = 0; kk < m; kk++) {
    int i = idx ? idx[kk] : kk;
    double p = 0.0;
    for (int k = kc; k >= 1; k--) p = (p + c[(size_t)(k - 1) * (size_t)n + (size_t)i]) * sth;
    out[kk] = ctx->y[i] + p;
  }
  return COSROD_OK;
}

static const cosrod_step_type seulex_type = {
    "seulex",
    1, /* order of the underlying Euler; the extrapolated order varies (2..km) */
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE,
    seulex_alloc,
    seulex_reset,
    seulex_step,
    seulex_dense,
    seulex_free,
};

const cosrod_step_type *const cosrod_step_seulex = &seulex_type;
