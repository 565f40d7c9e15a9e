// SPDX-License-Identifier: Apache-2.0
/* SEULEX: extrapolated linearly implicit Euler method with variable order
 * and step size for M y' = f(t, y) (Hairer & Wanner, Solving ODEs II, §IV.9),
 * written from the method description; the numerics (Euler sweep, tableau,
 * dense output) are in seulex_tableau.c, the order and step control is the
 * shared one of the extrapolation methods (extrap_control.c, gamma = 1:
 * the linearly implicit Euler method has an error expansion in powers of h,
 * HW II §IV.9).  Design note: src/integrate/README.md ("seulex").
 *
 * Jacobian reuse (linearisation defect of the first substep), the predicted
 * order raise, the failure policy and every constant: README "seulex".
 * Row stability monitor: seulex_row_unstable (README). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/extrap_control.h"
#include "integrate/lsys.h"
#include "integrate/seulex_tableau.h"

#define SEULEX_KMAX_DEFAULT 12 /* rows; order up to 12 */
/* Keep J for the next step while the relative linearisation defect of the
 * first substep is at most this (own experiment, bench/results/seulex.md). */
#define SEULEX_JAC_REUSE 0.15
#define SEULEX_MAX_SINGULAR 4 /* as radau5 / rodas: H, H/2, H/4, H/8 all singular (README) */
/* starting step: first probe / |hmax| and at most this many LUs (own choice, README) */
#define SEULEX_START_PROBE 1e-6
#define SEULEX_START_LU 4
/* row stability monitor (own choice, README "seulex"): rows checked, Newton
 * contraction estimate above which a row is unstable, step factor */
#define SEULEX_STAB_ROWS 2
#define SEULEX_SUB_COL 1 /* first column with n_j > 1 (n_1 = 2): J-reuse defect, monitor */
#define SEULEX_STAB_THETA 10.0
/* step growth cap from the same contraction estimate (README "seulex",
 * growth cap): after an accepted step with contraction θ of row 1, the next
 * H may grow only as far as the predicted θ (H_new/H)^SEULEX_THETA_POWER
 * stays at SEULEX_THETA_CAP (exponent: θ ~ h^2, own derivation; cap:
 * own experiment on perf-steel and the work-precision set) */
#define SEULEX_THETA_CAP 0.25
#define SEULEX_THETA_POWER 2.0
/* lowest target column (0-based, n_3 = 4): window columns 2..4, acceptance
 * from column 3 on (README "seulex") */
#define SEULEX_KMIN 3
#define SEULEX_KMIN_LOOSE 2 /* ... at loose tolerances (rod benchmarks, README) */

typedef struct seulex_state {
  cosrod_lsys *L;
  seulex_tableau *T;
  int n, kmax, k, no_increase, need_jac, have_f0;
  int nsing;                             /* consecutive attempts with a singular iteration matrix */
  int jac_fresh;                         /* J was evaluated at the current (t0, y0) */
  double lin_def;                        /* linearisation defect of J in row 1 of the current step */
  double theta;                          /* Newton contraction estimate of row 1 (0: not computed) */
  double reuse;                          /* keep J while lin_def <= reuse (README) */
  int nseq[SEULEX_TABLEAU_MAX_ROWS + 1]; /* 1-based as the tableau */
  cosrod_extrap_ctrl ctl;
  double *f0, *y0, *y1, *w, *tmp, *f1;
} seulex_state;

static void seulex_free(void *state) {
  seulex_state *s = state;
  if (!s) return;
  cosrod_lsys_free(s->L);
  seulex_tableau_free(s->T);
  free(s->f0), free(s->y0), free(s->y1), free(s->w), free(s->tmp), free(s->f1);
  free(s);
}

/* Step numbers 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (HW II §IV.9's sequence;
 * README "seulex": 0-based column j has n_j substeps). */
static int seulex_n(int j) { return j < 3 ? j + 1 : 2 * seulex_n(j - 2); }

static cosrod_status seulex_alloc(void **out, cosrod_step_ctx *ctx) {
  const cosrod_integrate_options *o = ctx->opts;
  const int kmax = o->max_columns > 0 ? o->max_columns : SEULEX_KMAX_DEFAULT;
  if (kmax < SEULEX_KMIN + 2 || kmax > COSROD_EXTRAP_KMAX)
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "seulex: max_columns = %d must lie in [%d, %d]",
                            o->max_columns, SEULEX_KMIN + 2, COSROD_EXTRAP_KMAX);
  seulex_state *s = calloc(1, sizeof *s);
  if (!s) return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "seulex: out of memory");
  cosrod_status st = cosrod_lsys_create_ex(&s->L, ctx, 1);
  if (st != COSROD_OK) {
    free(s);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "seulex: inconsistent Jacobian or mass-matrix bandwidths")
               : cosrod_step_fail(ctx, st, ctx->t, "seulex: out of memory");
  }
  const int n = ctx->n;
  s->n = n;
  s->kmax = kmax;
  int nseq0[COSROD_EXTRAP_KMAX];
  double work[COSROD_EXTRAP_KMAX], a = 1.0; /* cost unit: one f; an LU and its solves counted as one f */
  s->nseq[0] = 0;
  for (int j = 0; j < kmax; j++) {
    nseq0[j] = s->nseq[j + 1] = seulex_n(j);
    a += nseq0[j] + 1;
    work[j] = a;
  }
  cosrod_extrap_ctrl_init(&s->ctl, kmax, 1, nseq0, work);
  s->ctl.kmin = SEULEX_KMIN;
  s->ctl.jmin_accept = SEULEX_KMIN; /* no acceptance below the lowest target (README) */
  s->ctl.predict_raise = 1;         /* README: Robertson at loose tolerances */
  s->ctl.observed = 1;              /* README: convergence monitor on stiff problems */
  s->ctl.predictive = 1;            /* README: errors that hardly depend on H */
  s->reuse = o->jac_reuse > 0.0 ? o->jac_reuse : SEULEX_JAC_REUSE;
  if (o->fac_min > 0.0) s->ctl.fac_min = o->fac_min;
  if (o->fac_max > 0.0) s->ctl.fac_max = o->fac_max;
  st = seulex_tableau_create(&s->T, n, kmax, s->nseq);
  size_t nb = sizeof(double) * (size_t)n;
  s->f0 = malloc(nb), s->y0 = malloc(nb), s->y1 = malloc(nb), s->w = malloc(nb), s->tmp = malloc(2 * nb);
  s->f1 = malloc(nb);
  if (st != COSROD_OK || !s->f0 || !s->y0 || !s->y1 || !s->w || !s->tmp || !s->f1) {
    seulex_free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "seulex: out of memory (n = %d)", n);
  }
  *out = s;
  return COSROD_OK;
}

static cosrod_status seulex_f0(seulex_state *s, cosrod_step_ctx *ctx) {
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->f0);
  if (rc < 0) return COSROD_ERR_CALLBACK;
  if (rc > 0)
    return ctx->nonfinite
               ? COSROD_ERR_NONFINITE
               : cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t,
                                  "seulex: right-hand side failed (recoverable) at t = %.17g", ctx->t);
  s->have_f0 = 1;
  return COSROD_OK;
}

/* Weighted RMS of v (n) with the tolerance scale of y. */
static double seulex_rms(const cosrod_step_ctx *ctx, const double *v, const double *y) {
  double sum = 0.0;
  for (int i = 0; i < ctx->n; i++) {
    const double q = v[i] / (ctx->atol[i] + ctx->rtol[i] * fabs(y[i]));
    sum += q * q;
  }
  return sqrt(sum / ctx->n);
}

/* Starting step (README "seulex", starting step): HNW I §II.4's algorithm
 * (h0 = 0.01 ||y0|| / ||y'0||, one explicit Euler step for ||y''||, h =
 * min(100 h0, (0.01 / max(||y'||, ||y''||))^(1/(q+1)))) with the derivatives
 * taken in the space of y: y' = (M/p - J)^-1 f0 / p, a linearly implicit
 * Euler increment over a probe p, which tends to M^-1 f0 for p -> 0, exists
 * for a singular M, and does not change when M y' = f is replaced by
 * (S M) y' = S f for any regular S.  The probe starts at 1e-6 |hmax| and is
 * lowered to h0 while h0 < p (at most SEULEX_START_LU factorisations), so
 * that only modes faster than the step scale are damped.  Costs J (kept for
 * the first step), those LUs, and one f. */
static cosrod_status seulex_start_step(seulex_state *s, cosrod_step_ctx *ctx) {
  const int n = s->n;
  const double *y = ctx->y;
  double *u = s->tmp, *v = s->tmp + n;
  int rc = cosrod_lsys_jac(s->L, ctx, ctx->t, y, s->f0);
  if (rc < 0) return COSROD_ERR_CALLBACK;
  if (rc > 0)
    return ctx->nonfinite
               ? COSROD_ERR_NONFINITE
               : cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t,
                                  "seulex: Jacobian failed (recoverable) at the initial point t = %.17g",
                                  ctx->t);
  s->need_jac = 0;
  s->jac_fresh = 1;
  const double hmax = fabs(ctx->hmax), d0 = seulex_rms(ctx, y, y);
  double p = SEULEX_START_PROBE * hmax, h0 = 1e-6 * hmax, d1 = 0.0;
  int factored = 0;
  for (int it = 0; it < SEULEX_START_LU; it++) {
    cosrod_status st = cosrod_lsys_factor(s->L, ctx->dir / p);
    if (st == COSROD_ERR_INTERRUPTED)
      return cosrod_step_fail(ctx, st, ctx->t,
                              "seulex: interrupted in the iteration matrix (LU) at t = %.17g", ctx->t);
    if (st != COSROD_OK) break; /* singular: the sweep's own policy deals with it */
    ctx->stats->ndecomp++;
    factored = 1;
    memcpy(u, s->f0, sizeof(double) * (size_t)n);
    cosrod_lsys_solve(s->L, u);
    ctx->stats->nsolve++;
    for (int i = 0; i < n; i++) u[i] *= ctx->dir / p; /* y' */
    d1 = seulex_rms(ctx, u, y);
    h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    if (h0 > hmax) h0 = hmax;
    if (h0 >= p) break;
    p = h0;
  }
  if (!factored) {
    ctx->h = ctx->dir * fmin(1e-6, hmax);
    return COSROD_OK;
  }
  for (int i = 0; i < n; i++) v[i] = y[i] + ctx->dir * h0 * u[i];
  rc = cosrod_step_call_f(ctx, ctx->t + ctx->dir * h0, v, s->w);
  if (rc < 0) return COSROD_ERR_CALLBACK;
  double h;
  if (rc > 0) {
    ctx->nonfinite = 0;
    h = 0.1 * h0;
  } else {
    for (int i = 0; i < n; i++) v[i] = s->w[i] - s->f0[i];
    cosrod_lsys_solve(s->L, v);
    ctx->stats->nsolve++;
    for (int i = 0; i < n; i++) v[i] *= ctx->dir / p;
    const double d2 = seulex_rms(ctx, v, y) / h0, dm = fmax(d1, d2);
    const double h1 = dm <= 1e-15 ? fmax(1e-6, 1e-3 * h0) : pow(0.01 / dm, 1.0 / (s->k + 2));
    h = fmin(100.0 * h0, h1);
  }
  ctx->h = ctx->dir * fmin(h, hmax);
  return COSROD_OK;
}

static cosrod_status seulex_reset(void *state, cosrod_step_ctx *ctx) {
  seulex_state *s = state;
  int rc = cosrod_lsys_load_mass(s->L, ctx);
  if (rc != 0)
    return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t, "seulex: mass-matrix callback returned %d", rc);
  cosrod_status st = seulex_f0(s, ctx);
  if (st != COSROD_OK) return st;
  s->need_jac = 1;
  s->no_increase = 0;
  s->nsing = 0;
  s->T->dense_column = 0;
  ctx->y_modified = 0;
  /* lowest target column: SEULEX_KMIN, or SEULEX_KMIN_LOOSE where the
   * tolerance's own column (order closest to -log10(rtol) + 1) is lower,
   * i.e. rtol >~ 3e-3 (README "seulex") */
  s->ctl.kmin = SEULEX_KMIN_LOOSE;
  const int k0 = cosrod_extrap_initial_column(&s->ctl, ctx->rtol[0]);
  s->ctl.kmin = s->ctl.jmin_accept = k0 < SEULEX_KMIN ? k0 : SEULEX_KMIN;
  s->k = k0;
  if (ctx->h == 0.0) return seulex_start_step(s, ctx);
  return COSROD_OK;
}

/* Rejected attempt: counted as an error-test rejection or a convergence
 * failure, next step H * factor, J refreshed before the retry. */
static cosrod_status seulex_reject(seulex_state *s, cosrod_step_ctx *ctx, double factor, int convfail) {
  if (convfail)
    ctx->stats->nconvfail++;
  else
    ctx->stats->nreject++;
  s->no_increase = 1;
  /* a J from an earlier point is refreshed for the retry unless it still
   * describes f well (small linearisation defect); a fresh J (at the
   * unchanged (t0, y0)) is kept */
  if (!s->jac_fresh && !(s->lin_def <= s->reuse)) s->need_jac = 1;
  ctx->h *= factor;
  return COSROD_OK;
}

/* f for the residual of the first substep read as a Newton step (README
 * "seulex", stability monitor).  Substep 0 solves (M/h - J) Δ0 = f(t_1, y0)
 * with t_1 = t0 + h for a time-dependent problem (f at the substep's end,
 * seulex_tableau.h; f(t0, y0) = f0 otherwise), i.e. it is one Newton step,
 * started at y0, for the implicit Euler equation M (y1 - y0) / h = f(t_1, y1).
 * Its residual needs f(t_1, y1).  T->f_sub is that for an autonomous
 * problem, but f(t_2, y1) for the next substep otherwise: the difference,
 * h ∂f/∂t + O(h^2), is no linearisation error (J is never asked to predict
 * it), and near rest after a kink of a prescribed end it is as large as Δ0
 * itself at every h (f(t_1, y0) ~ h ∂f/∂t there, so Δ0 ~ h^2 ∂f/∂t and the
 * residual h ∂f/∂t give a contraction θ independent of h: seulex stalled).
 * So a time-dependent problem pays one f(t_1, y1) into s->f1 (*fr), and the
 * residual below is the implicit Euler equation's own: zero for f linear in
 * y with an exact J, time-dependent or not.  Returns the f code. */
static int seulex_newton_f(seulex_state *s, cosrod_step_ctx *ctx, int j, double t0, double H,
                           const double **fr) {
  *fr = s->T->f_sub;
  if (!ctx->problem->time_dependent) return 0;
  *fr = s->f1;
  return cosrod_step_call_f(ctx, t0 + H / s->nseq[j + 1], s->T->y_sub, s->f1);
}

/* Relative linearisation defect of J on the first substep of column j =
 * SEULEX_SUB_COL (n_j = 2, the first column with a second substep; after
 * seulex_sweep_first): with h = H/n_j, (M/h - J) Δ0 = f(t_1, y0) gives
 * J Δ0 = M Δ0 / h - f(t_1, y0), so d = f(t_1, y1) - f(t_1, y0) - J Δ0 =
 * f(t_1, y1) - M Δ0 / h (fr, seulex_newton_f), which is zero for f linear
 * in y and J exact (any error of J shows up in d).  Returns ||d|| /
 * ||f(t_1, y1) - f0|| (0 if f did not change).  d and f live in the space of f, whose rows a mass matrix
 * scales; row i is weighted with w_i = |(M s)_i|, s_k = atol_k + rtol_k |y0_k|
 * (= s_i without M), so that the ratio does not change when M y' = f is
 * replaced by (D M) y' = D f with a diagonal D (README "seulex").  Rows
 * with w_i = 0 (algebraic equations of a singular M) carry no such scale and
 * are left out. */
static double seulex_lin_defect(seulex_state *s, cosrod_step_ctx *ctx, int j, double H, const double *fr) {
  const int n = s->n;
  const double h = H / s->nseq[j + 1];
  double *md = s->tmp, *w = s->tmp + n;
  cosrod_lsys_mass_mult(s->L, s->T->delta, md);
  for (int i = 0; i < n; i++) s->w[i] = ctx->atol[i] + ctx->rtol[i] * fabs(s->y0[i]);
  cosrod_lsys_mass_mult(s->L, s->w, w);
  double num = 0.0, den = 0.0;
  for (int i = 0; i < n; i++) {
    if (w[i] == 0.0) continue;
    const double sk = fabs(w[i]);
    const double d = (fr[i] - md[i] / h) / sk, c = (fr[i] - s->f0[i]) / sk;
    num += d * d, den += c * c;
  }
  if (!(num <= 1e300 && den <= 1e300)) return INFINITY;
  return den > 0.0 ? sqrt(num / den) : (num > 0.0 ? INFINITY : 0.0);
}

/* Row stability monitor (README "seulex", stability monitor; own criterion
 * from the method's description, HW II §IV.9): the first substep of a row
 * is one Newton iteration, started at y0, for the implicit Euler step
 * M (y1 - y0) / h = f(t_1, y1).  The next Newton correction would be
 *     δ = E^-1 (f(t_1, y1) - M Δ0 / h),   E = M/h - J   (the factored matrix),
 * (Deuflhard's monitor as described in HW II §IV.9; f(t_1, y1) = fr from
 * seulex_newton_f, not the next substep's f(t_2, y1)),
 * so θ = ||δ|| / ||Δ0|| estimates the contraction of that iteration.  θ >> 1
 * means the linearisation by J does not describe f over one substep, and
 * the substeps are no longer a stable approximation.  Used only with a J
 * from an earlier point (a stale J is then refreshed and the same H
 * retried); with a fresh J a large θ is nonlinearity, which the error test
 * handles with a better step factor.  Threshold SEULEX_STAB_THETA = 10 in
 * SEULEX_STAB_ROWS = 2 columns from SEULEX_SUB_COL on (n = 2, 3: the largest
 * substeps that have an f(y1)), after seulex_sweep_first.  One solve; M-invariant
 * (both vectors in the space of y); weights atol + rtol |y0|. */
static double seulex_row_theta(seulex_state *s, cosrod_step_ctx *ctx, int j, double H, const double *fr) {
  const int n = s->n;
  const double h = H / s->nseq[j + 1];
  double *d = s->tmp;
  cosrod_lsys_mass_mult(s->L, s->T->delta, d);
  for (int i = 0; i < n; i++) d[i] = fr[i] - d[i] / h;
  cosrod_lsys_solve(s->L, d);
  ctx->stats->nsolve++;
  const double dd = seulex_rms(ctx, d, s->y0), d0 = seulex_rms(ctx, s->T->delta, s->y0);
  if (!(dd <= 1e300)) return INFINITY;
  return d0 > 0.0 ? dd / d0 : (dd > 0.0 ? INFINITY : 0.0);
}

/* Growth cap (README "seulex", growth cap; own rule after HW II §IV.8's use
 * of the Newton contraction in step-size control): θ of row 1 estimates the
 * contraction of the first substep read as a Newton iteration (see
 * seulex_row_theta).  Its leading term is E^-1 (f(y1) - f0 - J Δ0) ~
 * E^-1 f'' Δ0^2 / 2 over ||Δ0||, with E^-1 ~ h and Δ0 ~ h: θ ~ h^2.  Where
 * the linearisation over a substep fails, the rows' errors jump by orders
 * of magnitude over a small change of H (perf-steel: err_1 ~ 0.01 at H and
 * ~ 50 at 2.5 H) and the error-based factor, blind to that, grows H into
 * repeated rejections.  So the next H may grow only while the predicted
 * θ (H_new/H)^2 stays at most SEULEX_THETA_CAP; it never shrinks an
 * accepted step's successor below min(1, hfac). */
static double seulex_growth_cap(double theta, double hfac) {
  if (!(theta > 0.0) || !isfinite(theta) || hfac <= 1.0) return hfac;
  const double cap = pow(SEULEX_THETA_CAP / theta, 1.0 / SEULEX_THETA_POWER);
  return cap >= hfac ? hfac : (cap > 1.0 ? cap : 1.0);
}

static cosrod_status seulex_step(void *state, cosrod_step_ctx *ctx, int *accepted) {
  seulex_state *s = state;
  const int n = s->n;
  const double H = ctx->h, t0 = ctx->t;
  *accepted = 0;
  ctx->stats->nsteps++;
  if (ctx->y_modified || !s->have_f0) {
    cosrod_status st = seulex_f0(s, ctx);
    if (st != COSROD_OK) return st;
    ctx->y_modified = 0;
    s->need_jac = 1;
  }
  if (s->need_jac || ctx->opts->jac_reuse < 0) {
    int rc = cosrod_lsys_jac(s->L, ctx, t0, ctx->y, s->f0);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) {
      if (ctx->nonfinite) return COSROD_ERR_NONFINITE;
      return seulex_reject(s, ctx, 0.5, 1);
    }
    s->need_jac = 0;
    s->jac_fresh = 1;
  }
  s->lin_def = INFINITY;
  s->theta = 0.0;
  memcpy(s->y0, ctx->y, sizeof(double) * (size_t)n);
  cosrod_extrap_begin(&s->ctl, H);
  const int last = s->k + 1 < s->kmax ? s->k + 1 : s->kmax - 1;
  int dec = COSROD_EXTRAP_CONTINUE, j;
  for (j = 0; j <= last; j++) {
    cosrod_status st = seulex_sweep_factor(s->L, ctx, s->T, j + 1, H);
    if (st == COSROD_ERR_INTERRUPTED)
      return cosrod_step_fail(ctx, st, t0, "seulex: interrupted in the iteration matrix (LU) at t = %.17g",
                              t0);
    if (st != COSROD_OK) {
      /* singular: halve H; SEULEX_MAX_SINGULAR attempts in a row (a factor
       * 2^-3 in h) mean M/h - J is singular structurally (README) */
      if (++s->nsing >= SEULEX_MAX_SINGULAR) {
        ctx->stats->nconvfail++; /* the attempt counts, as the ones before it */
        return cosrod_step_fail(
            ctx, COSROD_ERR_SINGULAR, t0,
            "seulex: iteration matrix M/h - J singular in %d attempts in a row at t = %.17g", s->nsing, t0);
      }
      return seulex_reject(s, ctx, 0.5, 1);
    }
    int rc = seulex_sweep_first(s->T, s->L, ctx, j + 1, t0, s->y0, s->f0, H);
    const int monitored = j >= SEULEX_SUB_COL && j < SEULEX_SUB_COL + SEULEX_STAB_ROWS && !s->jac_fresh;
    const double *fr = s->T->f_sub;
    if (rc == 0 && (j == SEULEX_SUB_COL || monitored)) rc = seulex_newton_f(s, ctx, j, t0, H, &fr);
    if (rc == 0 && j == SEULEX_SUB_COL) {
      s->lin_def = seulex_lin_defect(s, ctx, j, H, fr);
      s->theta = seulex_row_theta(s, ctx, j, H, fr); /* monitor below and growth cap */
    }
    if (rc == 0 && monitored &&
        !((j == SEULEX_SUB_COL ? s->theta : seulex_row_theta(s, ctx, j, H, fr)) <= SEULEX_STAB_THETA)) {
      /* a J from an earlier point no longer describes f: retry the same H
       * with a fresh J (with a fresh J a large θ is nonlinearity, which the
       * error test and its step factor handle better; own experiment) */
      s->T->dense_column = 0;
      s->lin_def = INFINITY;
      s->need_jac = 1;
      ctx->stats->nconvfail++;
      return COSROD_OK;
    }
    if (rc == 0) rc = seulex_sweep_finish(s->T, s->L, ctx, j + 1, t0, H);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) return seulex_reject(s, ctx, 0.5, 0);
    s->nsing = 0;
    seulex_tableau_extrapolate(s->T, s->T->tab, 1, j + 1);
    if (j == 0) continue;
    const double *y1 = seulex_tableau_row(s->T, s->T->tab, 1);
    cosrod_integrate_scale(n, ctx->rtol, ctx->atol, s->y0, y1, s->w);
    double err = seulex_tableau_error(s->T, ctx, s->w); /* subdiagonal, HW II §IV.9 (README) */
    if (!isfinite(err)) {
      dec = COSROD_EXTRAP_REJECT;
      break;
    }
    dec = cosrod_extrap_monitor(&s->ctl, j, s->k, err);
    if (dec != COSROD_EXTRAP_CONTINUE) break;
  }
  if (j > last) j = last;
  int k_next;
  double hfac;
  cosrod_extrap_next(&s->ctl, j, s->k, dec == COSROD_EXTRAP_ACCEPT, s->no_increase, &k_next, &hfac);
  if (dec != COSROD_EXTRAP_ACCEPT) {
    s->k = k_next;
    int diverged = !isfinite(s->ctl.err[j]);
    return seulex_reject(s, ctx, diverged ? 0.5 : hfac, diverged);
  }
  const double *y1 = seulex_tableau_row(s->T, s->T->tab, 1);
  memcpy(s->y1, y1, sizeof(double) * (size_t)n);
  seulex_dense_prepare(s->T, j + 1, s->y0, s->y1);
  *accepted = 1;
  ctx->stats->naccept++;
  ctx->t_old = t0;
  ctx->t = t0 + H;
  ctx->h_last = H;
  memcpy(ctx->y, s->y1, sizeof(double) * (size_t)n);
  /* J reuse (README): keep J while it predicts the change of f along the
   * first substep to within the relative defect `reuse` */
  s->need_jac = ctx->opts->jac_reuse < 0.0 || !(s->lin_def <= s->reuse);
  s->jac_fresh = 0;
  s->k = k_next;
  s->no_increase = 0;
  ctx->h = H * seulex_growth_cap(s->theta, hfac);
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->f0); /* the next step's f(y0) */
  if (rc < 0) return COSROD_ERR_CALLBACK;
  s->have_f0 = rc == 0;
  if (rc > 0) ctx->nonfinite = 0; /* retried at the start of the next step */
  return COSROD_OK;
}

static cosrod_status seulex_dense(void *state, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  seulex_state *s = state;
  const double theta = (t - ctx->t_old) / ctx->h_last;
  seulex_dense_eval(s->T, s->y1, theta, idx, nidx, out);
  return COSROD_OK;
}

static const cosrod_step_type seulex_type = {
    "seulex",
    1, /* order of the underlying Euler method; the extrapolated order varies */
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE |
        COSROD_STEP_SPARSE,
    seulex_alloc,
    seulex_reset,
    seulex_step,
    seulex_dense,
    seulex_free,
};

const cosrod_step_type *const cosrod_step_seulex = &seulex_type;
