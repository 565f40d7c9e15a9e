// SPDX-License-Identifier: Apache-2.0
/* Shared, method-neutral pieces of the integrators: default options,
 * callback wrappers (f with non-finite detection, Jacobian analytic or by
 * finite differences), the weighted error norm, the standard step-size
 * factor and the statistics printers.
 *
 * Error norm: err = sqrt((1/n) sum (e_i/sk_i)^2), sk_i = atol_i + rtol_i
 * max(|y0_i|, |y1_i|) (HNW I eq. (4.10)–(4.11)).  Standard factor: HNW I
 * (4.13), every constant from the caller.  Finite-difference Jacobian:
 * forward differences with increment sqrt(u max(1e-5, |y_j|)), with column
 * grouping for banded Jacobians (Curtis–Powell–Reid). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/integrate.h"

cosrod_integrate_options cosrod_integrate_default_options(void) {
  cosrod_integrate_options o;
  memset(&o, 0, sizeof o);
  o.rtol = 1e-6;
  o.atol = 1e-6;
  o.max_steps = 100000;
  o.rho_inf = -1.0;
  return o;
}

cosrod_status cosrod_step_fail(cosrod_step_ctx *ctx, cosrod_status status, double t, const char *fmt, ...) {
  ctx->t_fail = t;
  if (ctx->msg && ctx->msg_size > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->msg, ctx->msg_size, fmt, ap);
    va_end(ap);
  }
  return status;
}

int cosrod_step_call_f(cosrod_step_ctx *ctx, double t, const double *y, double *ydot) {
  const cosrod_ode_problem *p = ctx->problem;
  ctx->stats->nfev++;
  int rc = p->f(t, y, ydot, p->user);
  if (rc < 0) {
    cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t, "right-hand side returned %d (fatal) at t = %.17g", rc, t);
    return rc;
  }
  if (rc > 0) {
    ctx->stats->nfail_rhs++;
    return rc;
  }
  /* a step of an explicit method at large N is several evaluations long:
   * stop after this one (the driver reports ERR_INTERRUPTED, state at the
   * last accepted step) */
  if (cosrod_interrupt_pending()) {
    cosrod_step_fail(ctx, COSROD_ERR_INTERRUPTED, t, "interrupted in a right-hand side evaluation at t = %.17g", t);
    return -1;
  }
  for (int i = 0; i < ctx->n; i++) {
    if (!isfinite(ydot[i])) {
      ctx->nonfinite = 1;
      ctx->stats->nfail_rhs++;
      cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, t, "right-hand side component %d is %g at t = %.17g", i,
                       ydot[i], t);
      return 1;
    }
  }
  return 0;
}

/* Rows (local, of the stored Jacobian) touched by perturbing column j. */
typedef struct {
  int row0;      /* global row of local row 0 (m1 for the reduced form, else 0) */
  int nrows;     /* n - row0 */
  int c0, ncols; /* column block: global columns c0 .. c0+ncols-1 */
  int ml, mu;    /* bandwidths in local (row, column-in-block) indices */
} fd_block;

/* Finite differences over one column block with grouping stride `stride`. */
static int fd_block_eval(cosrod_step_ctx *ctx, double t, const double *y, const double *fy, double *J,
                         int ldj, double *work, const fd_block *b, int banded) {
  const int n = ctx->n;
  double *yp = work, *fp = work + n;
  const int stride = banded ? b->ml + b->mu + 1 : b->ncols; /* columns perturbed together are stride apart */
  const double u = ctx->uround;
  memcpy(yp, y, sizeof(double) * (size_t)n);
  for (int g = 0; g < stride && g < b->ncols; g++) {
    for (int c = g; c < b->ncols; c += stride) {
      int j = b->c0 + c;
      /* increment sqrt(u max(1e-5, |y_j|)) (kept numerics, README "Finite-difference Jacobian") */
      double d = sqrt(u * fmax(1e-5, fabs(y[j])));
      yp[j] = y[j] + d;
    }
    int rc = cosrod_step_call_f(ctx, t, yp, fp);
    if (rc != 0) return rc;
    for (int c = g; c < b->ncols; c += stride) {
      int j = b->c0 + c;
      double d = yp[j] - y[j];
      yp[j] = y[j];
      int ilo = 0, ihi = b->nrows - 1;
      if (banded) {
        ilo = c - b->mu > 0 ? c - b->mu : 0;
        ihi = c + b->ml < b->nrows - 1 ? c + b->ml : b->nrows - 1;
      }
      for (int i = ilo; i <= ihi; i++) {
        double v = (fp[b->row0 + i] - fy[b->row0 + i]) / d;
        if (banded)
          J[(size_t)j * (size_t)ldj + (size_t)(b->mu + i - c)] = v;
        else
          J[(size_t)i + (size_t)j * (size_t)ldj] = v;
      }
    }
  }
  return 0;
}

static void zero_jac(const cosrod_step_ctx *ctx, double *J, int ldj) {
  memset(J, 0, sizeof(double) * (size_t)ldj * (size_t)ctx->n);
}

int cosrod_step_call_jac(cosrod_step_ctx *ctx, double t, const double *y, const double *fy, double *J,
                         int ldj, double *work) {
  const cosrod_ode_problem *p = ctx->problem;
  ctx->stats->njev++;
  if (!(p->jac && p->jac_fills)) zero_jac(ctx, J, ldj); /* jac_fills: the callback writes every entry */
  if (p->jac) {
    int rc = p->jac(t, y, J, ldj, p->user);
    if (rc < 0)
      cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t, "Jacobian callback returned %d (fatal) at t = %.17g", rc,
                       t);
    if (rc > 0) ctx->stats->nfail_rhs++;
    if (rc != 0) return rc;
    /* the rows the callback may write: n - m1 (dense) or the band (banded) */
    const int m1 = p->m1 > 0 ? p->m1 : 0;
    int rows = ctx->n - m1;
    if (p->jac_banded) {
      rows = p->jac_ml + p->jac_mu + 1;
      if (m1 > 0 && p->jac_ml_q + p->jac_mu_q + 1 > rows) rows = p->jac_ml_q + p->jac_mu_q + 1;
    }
    if (rows > ldj) rows = ldj;
    for (int j = 0; j < ctx->n; j++) {
      const double *col = J + (size_t)j * (size_t)ldj;
      for (int i = 0; i < rows; i++) {
        if (!isfinite(col[i])) {
          ctx->nonfinite = 1;
          cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, t,
                           "Jacobian entry (stored row %d, column %d) is %g at t = %.17g", i, j, col[i], t);
          return 1;
        }
      }
    }
    return 0;
  }
  const int n = ctx->n;
  const int m1 = p->m1 > 0 ? p->m1 : 0;
  const int m2 = m1 > 0 ? (p->m2 > 0 ? p->m2 : m1) : 0;
  fd_block b;
  b.row0 = m1;
  b.nrows = n - m1;
  if (m1 > 0) {
    for (int k = 0; k < m1 / m2; k++) {
      b.c0 = k * m2;
      b.ncols = m2;
      b.ml = p->jac_ml_q;
      b.mu = p->jac_mu_q;
      int rc = fd_block_eval(ctx, t, y, fy, J, ldj, work, &b, p->jac_banded);
      if (rc != 0) return rc;
    }
  }
  b.c0 = m1;
  b.ncols = n - m1;
  b.ml = p->jac_ml;
  b.mu = p->jac_mu;
  return fd_block_eval(ctx, t, y, fy, J, ldj, work, &b, p->jac_banded);
}

void cosrod_integrate_scale(int n, const double *rtol, const double *atol, const double *y0, const double *y1,
                            double *sk) {
  for (int i = 0; i < n; i++) {
    double a = fabs(y0[i]);
    if (y1) a = fmax(a, fabs(y1[i]));
    sk[i] = atol[i] + rtol[i] * a;
  }
}

double cosrod_integrate_wrms(int n, const double *e, const double *sk) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double r = e[i] / sk[i];
    s += r * r;
  }
  return sqrt(s / n);
}

double cosrod_integrate_err_norm(const cosrod_step_ctx *ctx, const double *e, const double *y0,
                                 const double *y1) {
  double s = 0.0;
  for (int i = 0; i < ctx->n; i++) {
    double a = fabs(y0[i]);
    if (y1) a = fmax(a, fabs(y1[i]));
    double r = e[i] / (ctx->atol[i] + ctx->rtol[i] * a);
    s += r * r;
  }
  return sqrt(s / ctx->n);
}

double cosrod_integrate_err_norm_skip(const cosrod_step_ctx *ctx, const double *e, const double *y0,
                                      const double *y1, const unsigned char *skip) {
  if (!skip) return cosrod_integrate_err_norm(ctx, e, y0, y1);
  double s = 0.0;
  int m = 0;
  for (int i = 0; i < ctx->n; i++) {
    if (skip[i]) continue;
    double a = fabs(y0[i]);
    if (y1) a = fmax(a, fabs(y1[i]));
    double r = e[i] / (ctx->atol[i] + ctx->rtol[i] * a);
    s += r * r;
    m++;
  }
  return m > 0 ? sqrt(s / m) : 0.0;
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

double cosrod_control_standard(double err, double expo, double safety, double fac_min, double fac_max) {
  if (!(err > 0.0)) return fac_max;
  return clampd(safety * pow(err, -expo), fac_min, fac_max);
}

int cosrod_step_to_end(const cosrod_step_ctx *ctx, double clip_factor, double *h) {
  const double rest = ctx->t_end - ctx->t;
  /* 100 roundings of t: the accumulated t of a step sequence that should hit t_end (README
   * "End of the interval") */
  const double slack = 100.0 * ctx->uround * fmax(fabs(ctx->t), fabs(ctx->t_end));
  if ((ctx->t + clip_factor * *h - ctx->t_end) * ctx->dir >= -slack) {
    *h = rest;
    return 1;
  }
  /* rest in (|h|, (1 + F)|h|), F = COSROD_LAST_STEP_MIN_FRACTION: two equal steps (each above
   * |h|/2) instead of h and a remainder below F h; from a rest of (1 + F)|h| on, h leaves at least
   * F h.  (Halving the rest as RKF45 does for any rest below 2h, Forsythe, Malcolm, Moler 1977,
   * §6, would change the step sequence of most runs; this changes only the ones that end short.) */
  if (fabs(rest) < (1.0 + COSROD_LAST_STEP_MIN_FRACTION) * fabs(*h)) *h = 0.5 * rest;
  return 0;
}

/* ---- statistics printers ------------------------------------------------ */

void cosrod_integrate_stats_print_header(FILE *out, int csv) {
  if (csv)
    fprintf(out, "label,nfev,njev,nsteps,naccept,nreject,nconvfail,ndecomp,nsolve,nnewton,nstiff,nproject,wall_time\n");
  else
    fprintf(out, "%-16s %9s %7s %8s %8s %7s %9s %8s %8s %8s %6s %10s\n", "label", "nfev", "njev", "nsteps",
            "naccept", "nreject", "nconvfail", "ndecomp", "nsolve", "nnewton", "nstiff", "wall[s]");
}

void cosrod_integrate_stats_print(FILE *out, const char *label, const cosrod_integrate_stats *s, int csv) {
  if (!label) label = "";
  if (csv)
    fprintf(out, "%s,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%.6e\n", label, s->nfev, s->njev, s->nsteps,
            s->naccept, s->nreject, s->nconvfail, s->ndecomp, s->nsolve, s->nnewton, s->nstiff, s->nproject, s->wall_time);
  else
    fprintf(out, "%-16s %9ld %7ld %8ld %8ld %7ld %9ld %8ld %8ld %8ld %6ld %10.3e\n", label, s->nfev, s->njev,
            s->nsteps, s->naccept, s->nreject, s->nconvfail, s->ndecomp, s->nsolve, s->nnewton, s->nstiff, s->wall_time);
}
