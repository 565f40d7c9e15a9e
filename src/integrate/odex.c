// SPDX-License-Identifier: Apache-2.0
/* ODEX-type explicit extrapolation (Gragg–Bulirsch–Stoer), written from
 * Hairer–Nørsett–Wanner I §II.9 (GBS method, order and step-size control,
 * dense output of Hairer & Ostermann) and Deuflhard (1983, 1985); design
 * note with every constant in src/integrate/README.md ("odex").
 *
 * One step of size H from (t0, y0): for each column j (0-based) the explicit
 * midpoint rule with n_j = 4j + 2 substeps h = H / n_j,
 *     z_0 = y0,  z_1 = z_0 + h f(z_0),  z_{i+1} = z_{i-1} + 2 h f(z_i),
 * gives T_{j,0} = z_{n_j} (no Gragg smoothing: Gragg's asymptotic
 * expansion in h^2 holds at the even index n_j without it, HNW I §II.9;
 * smoothing costs one f per column for a damping only stiff problems need).
 * Aitken–Neville in h^2 builds T_{j,k}; err_j = ||T_{j,j} - T_{j-1,j-1}||,
 * the error of T_{j-1,j-1} (order 2j, so the same exponent as HNW I §II.9's
 * subdiagonal estimate ||T_{j,j} - T_{j,j-1}||, which measured 10x too small
 * on large steps: README), drives the shared controller
 * (extrap_control.h).  The step is accepted with y1 = T_{j,j}.  Cost of a step ending with column j:
 * A_j = 1 + sum_{i<=j} (n_i - 1) evaluations (the 1 is f(y1), which is the
 * next step's f(y0)), plus 1 for the stiffness test.
 *
 * Dense output (HNW I §II.9, Hairer & Ostermann 1990): n_j = 2 mod 4 puts
 * the step's midpoint at the odd index m_j = n_j / 2 of every column, so z_m
 * and the central differences
 *     y^(l)(t0 + H/2) ~ delta^(l-1) f_m / (2h)^(l-1),  delta f_i = f_{i+1} - f_{i-1},
 * all have an h^2 expansion of the same parity; they are extrapolated over
 * the columns that have the stencil (l <= m_j), and the polynomial of degree
 * 2K + 3 (K accepted columns) matching y0, H f0, y1, H f1 and the 2K
 * midpoint derivatives is the dense output (local error O(H^(2K)), measured
 * global order 2K like the steps; exact at both ends).  Hairer–Ostermann's
 * interpolation-error estimate is not used (the step is controlled by the
 * tableau only).
 *
 * Stability and stiffness (own design after HW II §IV.2, constants from
 * bench/results/odex.md): beta_K is the negative-real-axis stability
 * boundary of T_{K-1,K-1}.  (i) A step whose last column gives
 * |H| rho_c > 2 beta_K, rho_c = ||f(z_{n-1}) - f(z_{n-3})|| / ||z_{n-1} -
 * z_{n-3}|| (the column's own f values, amplified by the midpoint rule's
 * instability), is rejected even if its error estimate passes.  (ii) After
 * every accepted step one power-iteration step on J (one f) gives the
 * dissipative rate rho = max(0, -v'Jv) and the index q = -v'Jv / ||Jv||; the
 * problem is declared stiff when over the last 15 accepted steps the mean
 * of |H| rho / beta_K exceeds 0.5 and the mean of q exceeds 0.9. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "integrate/extrap_control.h"
#include "integrate/odex_dense.h"

#define ODEX_KMAX_DEFAULT 9 /* columns: order up to 18 (README: enough down to rtol ~ 1e-14) */
#define ODEX_KMIN 3         /* smallest target column: window 2..4, lowest order 6 (README) */
#define ODEX_STIFF_WINDOW 15 /* accepted steps averaged by the stiffness test (README) */
#define ODEX_STIFF_MEAN 0.5  /* stiff if the mean of |H| rho / beta_K over the window exceeds this (README) */
#define ODEX_STIFF_Q 0.9     /* ... and the mean dissipativity index too (README) */
#define ODEX_STAB_REJECT 2.0 /* reject a step with |H| rho > 2 beta_K (README) */

typedef struct odex {
  int n, kmax, fixed;
  int k;           /* target column of the next step */
  int no_increase; /* the previous attempt was rejected */
  int stiff_count; /* accepted steps since the start or the last detection */
  double stiff_ratio[ODEX_STIFF_WINDOW]; /* |H| rho / beta_K of the last accepted steps (ring) */
  double rho_power, q_power;              /* power iteration: dissipative rate, dissipativity index */
  double stiff_q[ODEX_STIFF_WINDOW];      /* q_power of the last accepted steps (ring) */
  int have_f0;
  int nseq[COSROD_EXTRAP_KMAX];
  cosrod_extrap_ctrl ctl;
  double *f0, *f1;  /* (n) f(t, y) and f at the end of the accepted step */
  double *za, *zb;  /* (n) midpoint recursion */
  double *sk, *tmp; /* (n) error scale, work (2n for the initial step) */
  double *pv;       /* (n) unit vector of the power iteration for rho (stiffness test) */
  double *dprev;    /* (n) T_{j-1,j-1} for the error estimate */
  double **T;       /* (kmax) x (n) tableau, in place: T[0] = T_{j,j} after column j */
  double **F;       /* (n_max) f values of the current column (F[0] = f0) */
  double **D;       /* raw midpoint derivatives, column j: D[off_j + l], l = 0 .. m_j */
  int off[COSROD_EXTRAP_KMAX + 1];
  odex_dense dense;
} odex;

static void odex_free(void *vs) {
  odex *s = vs;
  if (!s) return;
  free(s->f0), free(s->f1), free(s->za), free(s->zb), free(s->sk), free(s->tmp), free(s->pv), free(s->dprev);
  if (s->T)
    for (int j = 0; j < s->kmax; j++) free(s->T[j]);
  if (s->F)
    for (int i = 1; i < s->nseq[s->kmax - 1]; i++) free(s->F[i]);
  if (s->D)
    for (int i = 0; i < s->off[s->kmax]; i++) free(s->D[i]);
  free(s->T), free(s->F), free(s->D);
  cosrod_odex_dense_free(&s->dense);
  free(s);
}

static cosrod_status odex_alloc(void **state, cosrod_step_ctx *ctx) {
  const cosrod_integrate_options *o = ctx->opts;
  int fixed = o->fixed_step != 0;
  int kmax = o->max_columns > 0 ? o->max_columns : ODEX_KMAX_DEFAULT;
  if (kmax > COSROD_EXTRAP_KMAX || kmax < (fixed ? 1 : ODEX_KMIN + 2))
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t,
                            "odex: max_columns = %d must lie in [%d, %d]", o->max_columns, fixed ? 1 : ODEX_KMIN + 2,
                            COSROD_EXTRAP_KMAX);
  if (fixed && !(o->h0 > 0.0))
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "odex: fixed_step needs h0 > 0 (h0 = %g)", o->h0);
  odex *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  const size_t nb = sizeof(double) * (size_t)n;
  s->n = n;
  s->kmax = kmax;
  s->fixed = fixed;
  double work[COSROD_EXTRAP_KMAX];
  double a = 1.0; /* f(y1), which is the next step's f(y0) */
  s->off[0] = 0;
  for (int j = 0; j < kmax; j++) {
    s->nseq[j] = 4 * j + 2;
    a += s->nseq[j] - 1;
    work[j] = a;
    s->off[j + 1] = s->off[j] + s->nseq[j] / 2 + 1;
  }
  cosrod_extrap_ctrl_init(&s->ctl, kmax, 2, s->nseq, work);
  s->ctl.kmin = ODEX_KMIN;
  s->ctl.jmin_accept = ODEX_KMIN - 1;
  if (o->fac_min > 0.0) s->ctl.fac_min = o->fac_min;
  if (o->fac_max > 0.0) s->ctl.fac_max = o->fac_max;
  s->f0 = malloc(nb), s->f1 = malloc(nb), s->za = malloc(nb), s->zb = malloc(nb);
  s->sk = malloc(nb), s->tmp = malloc(2 * nb), s->pv = malloc(nb), s->dprev = malloc(nb);
  s->T = calloc((size_t)kmax, sizeof *s->T);
  s->F = calloc((size_t)s->nseq[kmax - 1], sizeof *s->F);
  s->D = calloc((size_t)s->off[kmax], sizeof *s->D);
  int ok = s->f0 && s->f1 && s->za && s->zb && s->sk && s->tmp && s->pv && s->dprev && s->T && s->F && s->D &&
           cosrod_odex_dense_alloc(&s->dense, n, 2 * kmax) == 0;
  for (int j = 0; ok && j < kmax; j++) ok = (s->T[j] = malloc(nb)) != NULL;
  for (int i = 1; ok && i < s->nseq[kmax - 1]; i++) ok = (s->F[i] = malloc(nb)) != NULL;
  for (int i = 0; ok && i < s->off[kmax]; i++) ok = (s->D[i] = malloc(nb)) != NULL;
  if (!ok) {
    odex_free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "odex: out of memory (n = %d)", n);
  }
  s->F[0] = s->f0;
  *state = s;
  return COSROD_OK;
}

static cosrod_status odex_reset(void *vs, cosrod_step_ctx *ctx) {
  odex *s = vs;
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->f0);
  if (rc != 0)
    return rc < 0 ? COSROD_ERR_CALLBACK : (ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK);
  s->have_f0 = 1;
  s->no_increase = 0;
  s->stiff_count = 0;
  for (int i = 0; i < ctx->n; i++) s->pv[i] = (i % 2 ? -1.0 : 1.0) / sqrt((double)ctx->n); /* all modes, highest too */
  ctx->y_modified = 0;
  if (s->fixed) {
    s->k = s->kmax - 1;
    ctx->h = ctx->dir * ctx->opts->h0;
    return COSROD_OK;
  }
  s->k = cosrod_extrap_initial_column(&s->ctl, ctx->rtol[0]);
  if (ctx->h == 0.0) {
    double h;
    if (cosrod_extrap_initial_step(ctx, 2 * s->k + 2, s->f0, s->tmp, &h) < 0) return COSROD_ERR_CALLBACK;
    ctx->h = h;
  }
  return COSROD_OK;
}

/* Column j: the midpoint rule with n_j substeps into T[j], the f values into
 * F, the raw midpoint derivatives into D.  Returns the f callback's code. */
static int odex_column(odex *s, cosrod_step_ctx *ctx, int j, double H) {
  const int n = s->n, nj = s->nseq[j], m = nj / 2;
  const double h = H / nj, t0 = ctx->t;
  double *za = s->za, *zb = s->zb;
  const double *y0 = ctx->y;
  double *const *D = s->D + s->off[j];
  memcpy(za, y0, sizeof(double) * (size_t)n);
  for (int c = 0; c < n; c++) zb[c] = y0[c] + h * s->f0[c];
  for (int i = 1; i < nj; i++) {
    if (i == m) memcpy(D[0], zb, sizeof(double) * (size_t)n);
    int rc = cosrod_step_call_f(ctx, t0 + i * h, zb, s->F[i]);
    if (rc != 0) return rc;
    const double *fi = s->F[i];
    for (int c = 0; c < n; c++) za[c] += 2.0 * h * fi[c]; /* z_{i+1} into the older buffer */
    double *sw = za;
    za = zb, zb = sw;
  }
  memcpy(s->T[j], zb, sizeof(double) * (size_t)n);
  /* H^l y^(l)(mid) ~ H (H/2h)^(l-1) delta^(l-1) f_m, l = 1 .. m (binomial
   * stencil; scaled by H^l so that nothing underflows for tiny h) */
  for (int l = 1; l <= m; l++) {
    const int q = l - 1;
    double *d = D[l];
    memset(d, 0, sizeof(double) * (size_t)n);
    double binom = 1.0;
    for (int p = 0; p <= q; p++) {
      const double w = (p % 2 ? -binom : binom) * H * pow(0.5 * nj, q);
      const double *fp = s->F[m + q - 2 * p];
      for (int c = 0; c < n; c++) d[c] += w * fp[c];
      binom = binom * (q - p) / (p + 1);
    }
  }
  return 0;
}

/* Aitken–Neville in h^2 over columns a .. j of the vectors v[], in place:
 * afterwards v[r] = T_{j, j-r} of the table built on columns r .. j. */
static void neville(const odex *s, double *const *v, int a, int j, const int *stride) {
  for (int r = j - 1; r >= a; r--) {
    const double ratio = (double)s->nseq[j] / s->nseq[r];
    const double den = 1.0 / (ratio * ratio - 1.0);
    double *vr = v[stride ? stride[r] : r];
    const double *vr1 = v[stride ? stride[r + 1] : r + 1];
    for (int c = 0; c < s->n; c++) vr[c] = vr1[c] + (vr1[c] - vr[c]) * den;
  }
}

/* Dense output data of the accepted step with K columns (HNW I §II.9). */
static void odex_prepare_dense(odex *s, cosrod_step_ctx *ctx, int K, double H) {
  const int mu = 2 * K - 1; /* highest derivative: m_{K-1} = 2K - 1 */
  int idx[COSROD_EXTRAP_KMAX];
  double *deriv[2 * COSROD_EXTRAP_KMAX];
  for (int l = 0; l <= mu; l++) {
    const int jl = l / 2; /* first column with l <= m_j = 2j + 1 */
    for (int j = jl; j < K; j++) idx[j] = s->off[j] + l;
    double *const *v = s->D;
    for (int j = jl + 1; j < K; j++) neville(s, v, jl, j, idx);
    deriv[l] = s->D[idx[jl]];
  }
  cosrod_odex_dense_build(&s->dense, ctx->t_old, H, ctx->y, s->f0, s->T[0], s->f1, (const double *const *)deriv, mu);
}

/* beta_K: negative-real-axis stability boundary of T_{K-1,K-1} (K columns,
 * n_j = 4j + 2, no smoothing), computed in bench (README); K > 9: the fit
 * 1.07 K + 1. */
static double odex_beta(int K) {
  static const double beta[] = {0.0, 0.0, 3.14, 4.23, 5.31, 6.38, 7.45, 8.52, 9.59, 10.65};
  return K < (int)(sizeof beta / sizeof beta[0]) ? beta[K] : 1.07 * K + 1.0;
}

/* Stiffness test after an accepted step with K columns (README): over the
 * last ODEX_STIFF_WINDOW accepted steps, the mean of |H| rho / beta_K
 * exceeds ODEX_STIFF_MEAN and the mean dissipativity index q exceeds
 * ODEX_STIFF_Q (rho, q from odex_power). */
static cosrod_status odex_stiffness(odex *s, cosrod_step_ctx *ctx, double H, int K, double rho, double q) {
  const int slot = s->stiff_count++ % ODEX_STIFF_WINDOW;
  s->stiff_ratio[slot] = fabs(H) * rho / odex_beta(K);
  s->stiff_q[slot] = q;
  if (s->stiff_count < ODEX_STIFF_WINDOW) return COSROD_OK;
  double mean = 0.0, qm = 0.0;
  for (int i = 0; i < ODEX_STIFF_WINDOW; i++) {
    mean += s->stiff_ratio[i] / ODEX_STIFF_WINDOW;
    qm += s->stiff_q[i] / ODEX_STIFF_WINDOW;
  }
  if (!(mean > ODEX_STIFF_MEAN && qm > ODEX_STIFF_Q)) return COSROD_OK;
  s->stiff_count = 0;
  ctx->stats->nstiff++;
  if (ctx->opts->stiff_continue) return COSROD_OK;
  return cosrod_step_fail(ctx, COSROD_ERR_STIFF, ctx->t,
                          "odex: the problem seems to become stiff at t = %.17g (|h| times the dissipative "
                          "eigenvalue estimate at %.2f of the stability boundary, mean of %d steps)",
                          ctx->t, mean, ODEX_STIFF_WINDOW);
}

/* One step of a power iteration on the Jacobian at the accepted (t, y), f:
 * w = (f(y + d v) - f(y)) / d ~ J v for the unit vector v, which is then
 * replaced by w / ||w|| (README: the columns' own f values see the stiff
 * modes only when they are already excited).  *rho = max(0, -v'w), the
 * dissipative part of the Rayleigh quotient, *q = -v'w / ||w|| (1 for a
 * dominant negative real eigenvalue, ~0 for an oscillatory or a saddle
 * pair).  One f evaluation; both keep their values when f fails there
 * (recoverable). */
static int odex_power(odex *s, cosrod_step_ctx *ctx, double *rho, double *q) {
  const int n = s->n;
  double ny = 0.0;
  for (int i = 0; i < n; i++) ny += ctx->y[i] * ctx->y[i];
  const double d = sqrt(ctx->uround) * (1.0 + sqrt(ny));
  double *yp = s->tmp, *fp = s->tmp + n;
  for (int i = 0; i < n; i++) yp[i] = ctx->y[i] + d * s->pv[i];
  int rc = cosrod_step_call_f(ctx, ctx->t, yp, fp);
  if (rc < 0) return rc;
  if (rc > 0) {
    ctx->nonfinite = 0;
    ctx->msg[0] = '\0';
    return 0;
  }
  double nd = 0.0, mu = 0.0;
  for (int i = 0; i < n; i++) {
    fp[i] -= s->f0[i];
    nd += fp[i] * fp[i];
    mu += s->pv[i] * fp[i];
  }
  nd = sqrt(nd);
  *rho = fmax(0.0, -mu / d);
  *q = nd > 0.0 ? -mu / nd : 0.0;
  if (nd > 0.0)
    for (int i = 0; i < n; i++) s->pv[i] = fp[i] / nd;
  return 0;
}

static cosrod_status odex_reject(odex *s, cosrod_step_ctx *ctx, double factor) {
  ctx->stats->nreject++; /* every rejection (README "Counters") */
  s->no_increase = 1;
  ctx->h *= factor;
  return COSROD_OK;
}

static cosrod_status odex_step(void *vs, cosrod_step_ctx *ctx, int *accepted) {
  odex *s = vs;
  const int n = s->n;
  const double H = ctx->h;
  *accepted = 0;
  ctx->stats->nsteps++;
  if (ctx->y_modified || !s->have_f0) {
    int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->f0);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) return odex_reject(s, ctx, 0.5);
    ctx->y_modified = 0;
    s->have_f0 = 1;
  }
  const int last = s->fixed ? s->kmax - 1 : (s->k + 1 < s->kmax ? s->k + 1 : s->kmax - 1);
  int dec = COSROD_EXTRAP_CONTINUE, j;
  double rho = 0.0;
  for (j = 0; j <= last; j++) {
    int rc = odex_column(s, ctx, j, H);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) return odex_reject(s, ctx, 0.5); /* recoverable: halve (own choice) */
    if (j == 0) continue;
    { /* rho ~ ||f_{n-1} - f_{n-3}|| / ||z_{n-1} - z_{n-3}||, z_{n-1} - z_{n-3} = 2h f_{n-2} (README) */
      const int nj = s->nseq[j];
      double num = 0.0, den = 0.0;
      for (int c = 0; c < n; c++) {
        double d = s->F[nj - 1][c] - s->F[nj - 3][c];
        num += d * d, den += s->F[nj - 2][c] * s->F[nj - 2][c];
      }
      rho = den > 0.0 ? sqrt(num / den) / (2.0 * fabs(H) / nj) : 0.0;
    }
    memcpy(s->dprev, s->T[0], sizeof(double) * (size_t)n); /* T_{j-1,j-1} */
    neville(s, s->T, 0, j, NULL);
    if (s->fixed) {
      if (j == last) dec = COSROD_EXTRAP_ACCEPT;
      continue;
    }
    for (int c = 0; c < n; c++) s->tmp[c] = s->T[0][c] - s->dprev[c]; /* diagonal estimate (README) */
    cosrod_integrate_scale(n, ctx->rtol, ctx->atol, ctx->y, s->T[0], s->sk);
    double err = cosrod_integrate_wrms(n, s->tmp, s->sk);
    if (!isfinite(err)) ctx->nonfinite = 1;
    dec = cosrod_extrap_monitor(&s->ctl, j, s->k, err);
    if (dec != COSROD_EXTRAP_CONTINUE) break;
  }
  if (j > last) j = last;
  if (s->fixed && last == 0) dec = COSROD_EXTRAP_ACCEPT; /* one column: the plain midpoint rule */
  if (dec == COSROD_EXTRAP_ACCEPT && !s->fixed && fabs(H) * rho > ODEX_STAB_REJECT * odex_beta(j + 1)) {
    /* far outside the stability interval: the error estimate cannot be
     * trusted (README); retry inside it */
    s->k = j >= s->ctl.kmin ? j : s->ctl.kmin;
    return odex_reject(s, ctx, odex_beta(j + 1) / (fabs(H) * rho));
  }
  if (dec == COSROD_EXTRAP_ACCEPT) {
    int rc = cosrod_step_call_f(ctx, ctx->t + H, s->T[0], s->f1);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) return odex_reject(s, ctx, 0.5);
  }
  int k_next = s->k;
  double hfac = 1.0;
  if (!s->fixed) cosrod_extrap_next(&s->ctl, j, s->k, dec == COSROD_EXTRAP_ACCEPT, s->no_increase, &k_next, &hfac);
  if (dec != COSROD_EXTRAP_ACCEPT) {
    s->k = k_next;
    return odex_reject(s, ctx, hfac);
  }
  /* accepted: y1 = T_{j,j}, f1 becomes the next f0 */
  *accepted = 1;
  ctx->stats->naccept++;
  ctx->t_old = ctx->t;
  ctx->t += H;
  ctx->h_last = H;
  odex_prepare_dense(s, ctx, j + 1, H);
  memcpy(ctx->y, s->T[0], sizeof(double) * (size_t)n);
  double *sw = s->f0;
  s->f0 = s->f1, s->f1 = sw;
  s->F[0] = s->f0;
  s->k = k_next;
  s->no_increase = 0;
  ctx->h = s->fixed ? H : H * hfac;
  if (ctx->opts->stiff_test < 0 || s->fixed) return COSROD_OK;
  if (odex_power(s, ctx, &s->rho_power, &s->q_power) < 0) return COSROD_ERR_CALLBACK;
  return odex_stiffness(s, ctx, H, j + 1, s->rho_power, s->q_power);
}

static cosrod_status odex_dense_eval(void *vs, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                     double *out) {
  (void)ctx;
  odex *s = vs;
  cosrod_odex_dense_eval(&s->dense, t, idx, nidx, out);
  return COSROD_OK;
}

static const cosrod_step_type odex_type = {
    "odex",
    18, /* order of T_{8,8} with the default 9 columns */
    COSROD_STEP_EXPLICIT | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE,
    odex_alloc,
    odex_reset,
    odex_step,
    odex_dense_eval,
    odex_free};
const cosrod_step_type *const cosrod_step_odex = &odex_type;
