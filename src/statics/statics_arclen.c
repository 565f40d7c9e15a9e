// SPDX-License-Identifier: Apache-2.0
/* Arc-length continuation of the statics solver: Riks' method
 * (E. Riks, "An incremental approach to the solution of snapping and
 * buckling problems", Int. J. Solids Struct. 15, 1979) with the normal-plane
 * corrector, in the form of M. A. Crisfield, "Non-linear Finite Element
 * Analysis of Solids and Structures" vol. 1 (1991) §9.3: the load factor λ
 * is an unknown, the step is constrained to the hyperplane normal to the
 * predictor through the predicted point,
 *   τ_u·W²(δ_total - Δs τ_u) + ψ² τ_λ (Δλ_total - Δs τ_λ) = 0,
 * and each Newton iteration eliminates the bordered system with two solves
 * on the banded LU of J = ∂r/∂δ (Crisfield eq. 9.21 with the normal plane):
 *   J a = -r,  J b = -∂r/∂λ,  dλ = -<τ_u, a>_W / (<τ_u, b>_W + ψ² τ_λ),
 *   δ = a + dλ b.
 * Arc adaptation Δs_new = Δs (I_d / I)^½ (Crisfield eq. 9.40), clipped to
 * [½, 2] Δs and [arc_min, arc_max]; a failed step is halved.
 *
 * The residual is linear in λ (statics_residual scales every external load
 * by μ = λ), so ∂r/∂λ = r(q, λ + 1) - r(q, λ) exactly.  Tangent at a
 * converged point: J v = -∂r/∂λ, τ = ±(v, 1)/|(v, 1)|, the sign giving a
 * positive inner product with the secant of the last step (so the path
 * turns at a limit point instead of reversing).  Critical points: a sign
 * change of τ_λ = dλ/ds between consecutive points is a limit point, whose
 * λ is first estimated by the extremum of the cubic Hermite interpolant of
 * λ(s) on the step (error O(Δs⁴)) and then refined to the root of τ_λ on
 * the equilibria between the step's ends (refine_limit), so that it does
 * not depend on the steps taken; a change of the stability index of K (statics_path.c,
 * factor_at) without a limit point is a bifurcation point, located by
 * bisection of the index along the step (equilibria at fixed λ).  Branch
 * switching (options.branch_switch): at the first bifurcation point the
 * critical mode (inverse iteration on the stiffness there) becomes the next
 * predictor direction (with Δλ = 0), and the normal-plane corrector lands on
 * the crossing branch; otherwise the path stays on the branch it is on.
 * A start that is a neutral mechanism (a pinned rod given at an angle)
 * jumps at λ = 0: a failed first step restarts the path from the pseudo-
 * transient equilibrium at λ = arc (jump_start). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"
#include "cosrod/statics.h"
#include "statics/statics_internal.h"

cosrod_statics_arc_options cosrod_statics_arc_default_options(void) {
  cosrod_statics_arc_options o;
  memset(&o, 0, sizeof o);
  o.lambda_to = 1.0;
  o.target_iterations = 4;
  o.max_steps = 2000;
  return o;
}

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct arc_ws {
  cosrod_statics *s;
  double t;        /* fixed pseudo-time */
  double psi2;     /* ψ² (weighted norm units) */
  double lref2;    /* square of the normalising length */
  double *tu;      /* (nv) tangent, displacement part (unit in the normalised norm with tl) */
  double tl;       /* tangent, λ part */
  double *a, *b;   /* (nv) the two solutions of a bordered iteration */
  double *sec;     /* (nv) chart secant of a step */
  double *g;       /* (nv) ∂r/∂λ */
  double *qc, *qw; /* (nq) converged and working states */
  double *qx;      /* (nq) interpolated state (critical point, landing) */
} arc_ws;

/* Weighted inner product of displacement parts (unnormalised). */
static double wdot(const cosrod_statics *s, const double *x, const double *y) {
  double d = 0.0;
  for (int i = 0; i < s->nv; ++i) d += s->wnorm[i] * s->wnorm[i] * x[i] * y[i];
  return d;
}

/* ∂r/∂λ at (q, λ) into w->g, given r(q, λ) in s->r. */
static cosrod_status dr_dlambda(arc_ws *w, double lambda, const double *q) {
  cosrod_statics *s = w->s;
  cosrod_status st = statics_residual(s, w->t, lambda + 1.0, q, s->r2, NULL);
  if (st != COSROD_OK) return st;
  for (int i = 0; i < s->nv; ++i) w->g[i] = s->r2[i] - s->r[i];
  return COSROD_OK;
}

/* Tangent at a converged (q, λ) with s->J factored there: v = -J⁻¹ ∂r/∂λ into
 * w->a; returns |(v, 1)|² in the weighted norm (unnormalised, ψ² included). */
static cosrod_status tangent_raw(arc_ws *w, double lambda, const double *q, double *n2) {
  cosrod_statics *s = w->s;
  cosrod_status st = statics_residual(s, w->t, lambda, q, s->r, NULL);
  if (st == COSROD_OK) st = dr_dlambda(w, lambda, q);
  if (st != COSROD_OK) return st;
  for (int i = 0; i < s->nv; ++i) w->a[i] = -w->g[i];
  cosrod_band_solve(s->J, w->a);
  for (int i = 0; i < s->nv; ++i)
    if (!isfinite(w->a[i])) return COSROD_ERR_NONFINITE;
  *n2 = wdot(s, w->a, w->a) + w->psi2;
  return COSROD_OK;
}

/* Uniform factor by which the trust region shortens the step δ (nv, in place). */
static double limit_factor(const cosrod_statics *s, double *dv) {
  int imax = 0;
  for (int i = 1; i < s->nv; ++i)
    if (fabs(dv[i]) > fabs(dv[imax])) imax = i;
  double before = s->nv > 0 ? dv[imax] : 0.0;
  if (before == 0.0) return 1.0;
  statics_limit_step(s, dv);
  return dv[imax] / before;
}

/* Normal-plane corrector from the predicted (q, *lambda) (in place). */
static cosrod_status arc_correct(arc_ws *w, double *q, double *lambda, int *iters, double *res) {
  cosrod_statics *s = w->s;
  const int nv = s->nv;
  double sc = 0.0, sc0 = 0.0;
  *iters = 0;
  for (int it = 0;; ++it) {
    cosrod_status st = statics_residual(s, w->t, *lambda, q, s->r, &sc);
    if (st != COSROD_OK) return st;
    if (it == 0) sc0 = sc;
    *res = sc;
    if (s->excess <= 1.0) return COSROD_OK;
    if (it >= s->opt.max_newton) return COSROD_ERR_CONVERGENCE;
    if (it >= 2 && sc > 1e3 * sc0) return COSROD_ERR_CONVERGENCE;
    st = dr_dlambda(w, *lambda, q);
    if (st == COSROD_OK) st = statics_solve_jacobian(s, w->t, *lambda, q, s->J);
    if (st == COSROD_OK) st = cosrod_band_factor(s->J);
    if (st != COSROD_OK) return st;
    for (int i = 0; i < nv; ++i) w->a[i] = -s->r[i], w->b[i] = -w->g[i];
    cosrod_band_solve(s->J, w->a);
    cosrod_band_solve(s->J, w->b);
    double den = wdot(s, w->tu, w->b) + w->psi2 * w->tl;
    if (!(fabs(den) > 0.0)) return COSROD_ERR_SINGULAR;
    double dl = -wdot(s, w->tu, w->a) / den;
    double wn = 0.0;
    for (int i = 0; i < nv; ++i) {
      w->a[i] += dl * w->b[i];
      if (!isfinite(w->a[i])) return COSROD_ERR_NONFINITE;
      wn = fmax(wn, fabs(w->a[i]) * s->wnorm[i]);
    }
    dl *= limit_factor(s, w->a);
    cosrod_statics_apply(s, q, w->a);
    *lambda += dl;
    s->nnewton++;
    *iters = it + 1;
    if (wn <= s->step_noise && sc <= 1e3 * s->opt.tol) return COSROD_OK; /* roundoff-sized step */
  }
}

/* λ extremum of the cubic Hermite interpolant on [0, h] with values l0, l1
 * and slopes d0, d1 (opposite signs): θ in [0, 1] of the root of λ'. */
static double hermite_extremum(double l0, double l1, double d0, double d1, double h, double *lam) {
  double A = 6.0 * (l0 - l1) + 3.0 * h * (d0 + d1);
  double B = 6.0 * (l1 - l0) - h * (4.0 * d0 + 2.0 * d1);
  double C = h * d0;
  double th = 0.5;
  if (fabs(A) < 1e-14 * (fabs(B) + fabs(C))) {
    th = B != 0.0 ? -C / B : 0.5;
  } else {
    double disc = sqrt(fmax(B * B - 4.0 * A * C, 0.0));
    double r1 = (-B + disc) / (2.0 * A), r2 = (-B - disc) / (2.0 * A);
    /* the root between the slopes' sign change: λ'(0) = C, λ'(1) = A + B + C */
    th = (r1 >= -1e-12 && r1 <= 1.0 + 1e-12) ? r1 : r2;
  }
  th = fmin(fmax(th, 0.0), 1.0);
  double h00 = 2 * th * th * th - 3 * th * th + 1, h10 = th * th * th - 2 * th * th + th;
  double h01 = -2 * th * th * th + 3 * th * th, h11 = th * th * th - th * th;
  *lam = h00 * l0 + h10 * h * d0 + h01 * l1 + h11 * h * d1;
  return th;
}

/* qx = qc ⊕ θ sec. */
static void interpolate(arc_ws *w, double th) {
  cosrod_statics *s = w->s;
  memcpy(w->qx, w->qc, sizeof(double) * (size_t)s->nq);
  for (int i = 0; i < s->nv; ++i) w->b[i] = th * w->sec[i];
  cosrod_statics_apply(s, w->qx, w->b);
}

/* Bifurcation inside the step qc (λ = lc, index neg_c) -> qc ⊕ sec (λ = lc +
 * dls): bisection on θ of the index of the equilibrium at λ(θ) = lc + θ dls
 * (Newton at fixed λ from qc ⊕ θ sec) to 1e-8 of the step; the state at
 * the last θ before the change is left in w->qx.  Returns θ. */
static double refine_bifurcation(arc_ws *w, double lc, double dls, int neg_c) {
  cosrod_statics *s = w->s;
  double lo = 0.0, hi = 1.0;
  while (hi - lo > 1e-8) {
    double th = 0.5 * (lo + hi);
    memcpy(w->qx, w->qc, sizeof(double) * (size_t)s->nq);
    for (int i = 0; i < s->nv; ++i) w->b[i] = th * w->sec[i];
    cosrod_statics_apply(s, w->qx, w->b);
    int it = 0, neg = 0;
    double res = 0.0;
    if (statics_equilibrium_mu(s, w->t, lc + th * dls, w->qx, &it, &res) != COSROD_OK ||
        statics_factor_index(s, w->t, lc + th * dls, w->qx, &neg) != COSROD_OK)
      break; /* keep the bracket found so far */
    if (neg == neg_c)
      lo = th;
    else
      hi = th;
  }
  double th = 0.5 * (lo + hi);
  memcpy(w->qx, w->qc, sizeof(double) * (size_t)s->nq);
  for (int i = 0; i < s->nv; ++i) w->b[i] = th * w->sec[i];
  cosrod_statics_apply(s, w->qx, w->b);
  int it = 0;
  double res = 0.0;
  if (statics_equilibrium_mu(s, w->t, lc + th * dls, w->qx, &it, &res) != COSROD_OK) interpolate(w, th);
  return th;
}

/* Equilibrium on the hyperplane normal to the step's secant (sec, dls)
 * through qc ⊕ θ sec, λ = lc + θ dls (Riks corrector, into w->qx, *lam),
 * and its slope dλ/ds there (tangent oriented along the secant, normalised
 * metric).  Uses w->a, w->b, w->g, s->J; w->tu / w->tl are kept. */
static cosrod_status slope_at(arc_ws *w, double lc, double dls, double th, double *lam, double *slope) {
  cosrod_statics *s = w->s;
  double *tu = w->tu, tl = w->tl;
  interpolate(w, th);
  *lam = lc + th * dls;
  w->tu = w->sec, w->tl = dls;
  int it = 0, neg = 0;
  double res = 0.0, n2 = 0.0;
  cosrod_status st = arc_correct(w, w->qx, lam, &it, &res);
  w->tu = tu, w->tl = tl;
  if (st == COSROD_OK) st = statics_factor_index(s, w->t, *lam, w->qx, &neg);
  if (st == COSROD_OK) st = tangent_raw(w, *lam, w->qx, &n2);
  if (st != COSROD_OK) return st;
  double sg = wdot(s, w->a, w->sec) + w->psi2 * dls >= 0.0 ? 1.0 : -1.0;
  *slope = sg / sqrt(n2 / w->lref2);
  return COSROD_OK;
}

/* Limit point inside the step qc (λ = lc, slope d0) -> qc ⊕ sec (λ = lc +
 * dls, slope d1 of opposite sign): the root of the slope dλ/ds along the
 * path, by the Illinois variant of regula falsi on θ (the equilibria on the
 * hyperplanes normal to the secant sweep the step), from the Hermite
 * estimate θ_h, until the bracket is below 1e-10 of the step or the slope
 * below 1e-12 of the end slopes.  λ is stationary there, so *lam (the
 * equilibrium's λ) is exact up to the Newton tolerance (the cubic Hermite
 * extremum alone errs by O(Δs⁴)).  On success the state is in w->qx and θ
 * is returned; -1 if an equilibrium failed (the caller keeps the Hermite
 * estimate). */
static double refine_limit(arc_ws *w, double lc, double dls, double d0, double d1, double th_h, double *lam) {
  double lo = 0.0, hi = 1.0, flo = d0, fhi = d1, th = th_h, f = 0.0, l = 0.0;
  const double ftol = 1e-12 * fmax(fabs(d0), fabs(d1));
  int side = 0;
  for (int k = 0; k < 60; ++k) {
    if (!(th > lo && th < hi)) th = 0.5 * (lo + hi);
    if (slope_at(w, lc, dls, th, &l, &f) != COSROD_OK) return -1.0;
    *lam = l;
    if (fabs(f) <= ftol || hi - lo <= 1e-10) return th;
    if ((f > 0.0) == (flo > 0.0)) {
      lo = th, flo = f;
      if (side == -1) fhi *= 0.5;
      side = -1;
    } else {
      hi = th, fhi = f;
      if (side == 1) flo *= 0.5;
      side = 1;
    }
    th = lo + (hi - lo) * flo / (flo - fhi);
  }
  return th;
}

/* Critical mode at the bifurcation state w->qx (load factor lam): two steps
 * of inverse iteration with the LU of the (nearly singular) stiffness there
 * from a fixed start vector, into w->tu as a unit vector of the normalised
 * arc-length norm, largest entry positive. */
static cosrod_status critical_mode(arc_ws *w, double lam) {
  cosrod_statics *s = w->s;
  int neg = 0;
  cosrod_status st = statics_factor_index(s, w->t, lam, w->qx, &neg);
  if (st != COSROD_OK) return st;
  for (int i = 0; i < s->nv; ++i) w->tu[i] = sin(0.7 * i + 0.3) / s->wnorm[i];
  for (int k = 0; k < 2; ++k) {
    cosrod_band_solve(s->J, w->tu);
    double m = 0.0;
    for (int i = 0; i < s->nv; ++i) m = fmax(m, fabs(w->tu[i]));
    if (!(m > 0.0) || !isfinite(m)) return COSROD_ERR_SINGULAR;
    for (int i = 0; i < s->nv; ++i) w->tu[i] /= m;
  }
  int imax = 0;
  for (int i = 1; i < s->nv; ++i)
    if (fabs(w->tu[i] * s->wnorm[i]) > fabs(w->tu[imax] * s->wnorm[imax])) imax = i;
  double n = sqrt(wdot(s, w->tu, w->tu) / w->lref2) * (w->tu[imax] < 0.0 ? -1.0 : 1.0);
  for (int i = 0; i < s->nv; ++i) w->tu[i] /= n;
  return COSROD_OK;
}

static void add_counts(cosrod_statics *s, cosrod_statics_stats *st) {
  st->newton += s->nnewton;
  st->jacobians += s->njac;
  st->residuals += s->nres;
  s->nnewton = s->njac = s->nres = 0;
}

cosrod_status cosrod_statics_arclength_reserve(cosrod_statics *s) {
  if (!s) return COSROD_ERR_INVALID;
  if (s->arcbuf) return COSROD_OK;
  size_t nv = (size_t)(s->nv > 0 ? s->nv : 1), nq = (size_t)(s->nq > 0 ? s->nq : 1);
  s->arcbuf = calloc(5 * nv + 3 * nq, sizeof(double));
  return s->arcbuf ? COSROD_OK : COSROD_ERR_NOMEM;
}

/* Path metric and unit tangent at a converged (q, λ) with s->J factored
 * there, as at the start of a path: ψ² makes the load part of the tangent as
 * large as its displacement part. */
static cosrod_status metric_start(arc_ws *w, double lambda, const double *q, double dir) {
  double n2 = 0.0;
  w->psi2 = 0.0;
  cosrod_status st = tangent_raw(w, lambda, q, &n2);
  if (st != COSROD_OK) return st;
  w->psi2 = n2 > 0.0 ? n2 : 1.0;
  w->lref2 = n2 + w->psi2;
  double nrm = sqrt((n2 + w->psi2) / w->lref2);
  for (int i = 0; i < w->s->nv; ++i) w->tu[i] = dir * w->a[i] / nrm;
  w->tl = dir / nrm;
  return COSROD_OK;
}

/* The first step failed from a start that is a neutral mechanism (a pinned
 * rod given at an angle): the path jumps at λ = 0, the equilibrium for any
 * λ > 0 being a finite swing away.  The equilibrium at l1 by pseudo-
 * transient continuation (statics_ptc.c) from w->qc into w->qw, its
 * stability index *neg, and the path restarted there (metric_start: the
 * metric of the start, scaled by the mechanism's unbounded tangent, is
 * meaningless). */
static cosrod_status jump_start(arc_ws *w, double l0, double l1, double dir, int *neg, int *iters,
                                double *res, double *h) {
  cosrod_statics *s = w->s;
  memcpy(w->qw, w->qc, sizeof(double) * (size_t)s->nq);
  cosrod_status st = statics_ptc(s, w->t, l1, w->qw, iters, res);
  if (st == COSROD_OK) st = statics_factor_index(s, w->t, l1, w->qw, neg);
  if (st != COSROD_OK) return st;
  statics_chart_diff(s, w->qc, w->qw, w->sec); /* the jump's length in the start's metric */
  *h = sqrt((wdot(s, w->sec, w->sec) + w->psi2 * (l1 - l0) * (l1 - l0)) / w->lref2);
  return metric_start(w, l1, w->qw, dir);
}

static cosrod_status arc_run(arc_ws *w, double *q, const cosrod_statics_arc_options *o,
                             cosrod_statics_arc_callback cb, void *user, double *lambda_out,
                             cosrod_statics_stats *stats) {
  cosrod_statics *s = w->s;
  const int nq = s->nq, nv = s->nv;
  const size_t bq = sizeof(double) * (size_t)nq;
  const double dir = o->lambda_to >= 0.0 ? 1.0 : -1.0;
  int iters = 0;
  double res = 0.0;
  /* start: the unloaded equilibrium */
  cosrod_status st = statics_equilibrium_mu(s, w->t, 0.0, q, &iters, &res);
  add_counts(s, stats);
  if (st != COSROD_OK) {
    stats->fail_residual = s->sc_min;
    return st;
  }
  double lc = 0.0;
  int neg_c = 0, jumped = 0;
  memcpy(w->qc, q, bq);
  st = statics_factor_index(s, w->t, lc, w->qc, &neg_c);
  if (st == COSROD_OK) st = metric_start(w, lc, w->qc, dir);
  add_counts(s, stats);
  if (st != COSROD_OK) return st;
  const double arc0 = o->arc > 0.0 ? o->arc : 1.0 / s->opt.increments;
  double arc = arc0;
  double arc_max = o->arc_max > 0.0 ? o->arc_max : 4.0 * arc;
  const double arc_min = o->arc_min > 0.0 ? o->arc_min : 1e-4 * arc;
  double s_path = 0.0;
  cosrod_statics_arc_point pt;
  memset(&pt, 0, sizeof pt);
  pt.index = neg_c, pt.iterations = iters, pt.residual = res;
  stats->t = 0.0;
  stats->residual = res;
  if (cb && cb(user, &pt, w->qc) != 0) return COSROD_ERR_INTERRUPTED;
  long steps = 0;
  int switched = 0;
  double arc_next_switch = 0.0; /* arc of the first step along the critical mode */
  while (steps < o->max_steps) {
    if (arc < stats->min_step || stats->min_step == 0.0) stats->min_step = arc;
    /* predictor along the unit tangent */
    memcpy(w->qw, w->qc, bq);
    for (int i = 0; i < nv; ++i) w->b[i] = arc * w->tu[i];
    double cl = limit_factor(s, w->b);
    cosrod_statics_apply(s, w->qw, w->b);
    double lw = lc + cl * arc * w->tl;
    int neg_n = neg_c;
    st = arc_correct(w, w->qw, &lw, &iters, &res);
    if (st == COSROD_OK) st = statics_factor_index(s, w->t, lw, w->qw, &neg_n);
    double tn2 = 0.0;
    if (st == COSROD_OK) st = tangent_raw(w, lw, w->qw, &tn2);
    add_counts(s, stats);
    if (st == COSROD_ERR_CALLBACK) return st;
    if (st == COSROD_ERR_INTERRUPTED) {
      memcpy(q, w->qc, bq);
      return st;
    }
    if (st != COSROD_OK && steps == 0 && !jumped) { /* from a neutral mechanism (jump_start) */
      jumped = 1;
      const double l1 = dir * (lc + dir * arc0 - o->lambda_to) >= 0.0 ? o->lambda_to : lc + dir * arc0;
      int it1 = 0;
      double res1 = 0.0, h1 = 0.0;
      cosrod_status sj = jump_start(w, lc, l1, dir, &neg_n, &it1, &res1, &h1);
      add_counts(s, stats);
      if (sj == COSROD_ERR_CALLBACK || sj == COSROD_ERR_INTERRUPTED) return sj;
      if (sj == COSROD_OK && neg_n == neg_c) {
        s_path += h1;
        steps++;
        stats->increments++;
        if (it1 > stats->max_iterations) stats->max_iterations = it1;
        stats->t = l1;
        stats->residual = res1;
        memset(&pt, 0, sizeof pt);
        pt.lambda = l1, pt.s = s_path, pt.index = neg_n, pt.iterations = it1, pt.residual = res1;
        memcpy(q, w->qw, bq);
        *lambda_out = l1;
        if (cb && cb(user, &pt, w->qw) != 0) return COSROD_ERR_INTERRUPTED;
        if (l1 == o->lambda_to) return COSROD_OK;
        memcpy(w->qc, w->qw, bq);
        lc = l1;
        arc = arc0;
        continue;
      }
    }
    if (st != COSROD_OK) {
      stats->rejected++;
      stats->fail_residual = res;
      arc *= 0.5;
      if (arc < arc_min) {
        memcpy(q, w->qc, bq);
        *lambda_out = lc;
        return COSROD_ERR_CONVERGENCE;
      }
      continue;
    }
    /* secant, oriented new tangent (in w->a, unnormalised), chord length */
    statics_chart_diff(s, w->qc, w->qw, w->sec);
    double dls = lw - lc;
    double h = sqrt((wdot(s, w->sec, w->sec) + w->psi2 * dls * dls) / w->lref2);
    double tn = sqrt(tn2 / w->lref2);
    double sg = wdot(s, w->a, w->sec) + w->psi2 * dls >= 0.0 ? 1.0 : -1.0;
    double tl_new = sg / tn;
    /* slopes dλ/ds (normalised arc) at both ends */
    double d0 = w->tl, d1 = tl_new;
    pt.critical = COSROD_CRITICAL_NONE;
    pt.q_crit = NULL;
    double th = -1.0;
    int limit_refined = 0;
    if (d0 * d1 < 0.0) {
      pt.critical = COSROD_CRITICAL_LIMIT;
      th = hermite_extremum(lc, lw, d0, d1, h, &pt.lambda_crit);
      double lr = 0.0, thr = refine_limit(w, lc, dls, d0, d1, th, &lr);
      /* w->a back to the tangent at the step's end (used below) */
      st = statics_factor_index(s, w->t, lw, w->qw, &neg_n);
      if (st == COSROD_OK) st = tangent_raw(w, lw, w->qw, &tn2);
      add_counts(s, stats);
      if (st != COSROD_OK) return st;
      if (thr >= 0.0)
        th = thr, pt.lambda_crit = lr, limit_refined = 1;
    } else if (neg_n != neg_c && neg_n >= 0 && neg_c >= 0) {
      pt.critical = COSROD_CRITICAL_BIFURCATION;
      th = refine_bifurcation(w, lc, dls, neg_c);
      pt.lambda_crit = lc + th * dls;
    }
    if (pt.critical == COSROD_CRITICAL_LIMIT && !limit_refined) interpolate(w, th);
    if (pt.critical != COSROD_CRITICAL_NONE) {
      pt.q_crit = w->qx;
      pt.s_crit = s_path + th * h;
    }
    /* branch switching at the first bifurcation: the point reported is the
     * bifurcation itself, the next predictor goes along the critical mode */
    int switch_now = 0;
    if (pt.critical == COSROD_CRITICAL_BIFURCATION && o->branch_switch && !switched) {
      st = critical_mode(w, pt.lambda_crit);
      add_counts(s, stats);
      if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) return st;
      if (st == COSROD_OK) {
        /* the path metric was scaled on the primary path (e.g. the tiny
         * axial shortening of a column): restart the arc so that the first
         * step along the mode moves a vertex by 1 % of the rod or a
         * segment by 0.01 rad, and let it grow to 4 times that */
        double ax = 0.0, ar = 0.0, Lmax = 0.0;
        for (int r = 0; r < s->nparts; ++r) {
          const statics_part *pr = &s->part[r];
          const cosrod_rod *rod = pr->rod;
          Lmax = fmax(Lmax, rod->s[rod->N] - rod->s[0]);
          for (int n = 0; n <= rod->N; ++n)
            for (int j = 0; j < rod->nd[n]; ++j) ax = fmax(ax, fabs(w->tu[pr->v0 + rod->vv_ns[n] + j]));
          for (int k = 0; k < rod->N; ++k)
            for (int j = 0; j < 3; ++j) ar = fmax(ar, fabs(w->tu[pr->v0 + rod->vs_ns[k] + j]));
        }
        double a_sw = fmin(ax > 0.0 ? 0.01 * Lmax / ax : INFINITY, ar > 0.0 ? 0.01 / ar : INFINITY);
        if (isfinite(a_sw) && a_sw > 0.0) {
          arc_next_switch = a_sw;
          if (o->arc_max <= 0.0) arc_max = fmax(arc_max, 4.0 * a_sw);
        }
        switch_now = switched = 1;
        memcpy(w->qw, w->qx, bq);
        lw = pt.lambda_crit;
        h *= th;
        neg_n = neg_c;
      }
    }
    /* target reached inside the step: land on λ = lambda_to under load control */
    int done = !switch_now && dir * (lw - o->lambda_to) >= 0.0 && dir * (lc - o->lambda_to) < 0.0;
    if (done) {
      double thf = (o->lambda_to - lc) / dls;
      if (pt.critical != COSROD_CRITICAL_NONE && th > thf)
        pt.critical = COSROD_CRITICAL_NONE, pt.q_crit = NULL;
      memcpy(w->qw, w->qc, bq); /* start of the landing: qc ⊕ θ_f sec */
      for (int i = 0; i < nv; ++i) w->b[i] = thf * w->sec[i];
      cosrod_statics_apply(s, w->qw, w->b);
      int it2 = 0;
      double res2 = 0.0;
      st = statics_equilibrium_mu(s, w->t, o->lambda_to, w->qw, &it2, &res2);
      add_counts(s, stats);
      if (st != COSROD_OK) {
        memcpy(q, w->qc, bq);
        *lambda_out = lc;
        stats->fail_residual = s->sc_min;
        return st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED ? st : COSROD_ERR_CONVERGENCE;
      }
      st = statics_factor_index(s, w->t, o->lambda_to, w->qw, &neg_n);
      add_counts(s, stats);
      if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) return st;
      if (st != COSROD_OK) neg_n = -1;
      lw = o->lambda_to;
      h *= thf;
      iters += it2;
      res = res2;
    }
    s_path += h;
    steps++;
    stats->increments++;
    if (iters > stats->max_iterations) stats->max_iterations = iters;
    stats->t = lw;
    stats->residual = res;
    pt.lambda = lw, pt.s = s_path, pt.index = neg_n, pt.iterations = iters, pt.residual = res;
    memcpy(q, w->qw, bq);
    *lambda_out = lw;
    if (cb && cb(user, &pt, w->qw) != 0) return COSROD_ERR_INTERRUPTED;
    if (done) return COSROD_OK;
    /* accept: new tangent, adapted arc */
    memcpy(w->qc, w->qw, bq);
    lc = lw;
    neg_c = neg_n;
    if (switch_now) { /* w->tu holds the critical mode */
      w->tl = 0.0;
    } else {
      for (int i = 0; i < nv; ++i) w->tu[i] = sg * w->a[i] / tn;
      w->tl = tl_new;
    }
    double f = iters > 0 ? sqrt((double)o->target_iterations / iters) : 2.0;
    arc *= fmin(fmax(f, 0.5), 2.0);
    if (switch_now && arc_next_switch > 0.0) arc = arc_next_switch;
    arc = fmin(fmax(arc, arc_min), arc_max);
  }
  return COSROD_ERR_CONVERGENCE;
}

cosrod_status cosrod_statics_solve_arclength(cosrod_statics *s, double *q, double t,
                                             const cosrod_statics_arc_options *opt,
                                             cosrod_statics_arc_callback cb, void *user, double *lambda,
                                             cosrod_statics_stats *stats) {
  if (!s || !q) return COSROD_ERR_INVALID;
  cosrod_statics_arc_options o = opt ? *opt : cosrod_statics_arc_default_options();
  if (o.lambda_to == 0.0 || !isfinite(o.lambda_to) || o.arc < 0.0 || o.arc_max < 0.0 || o.arc_min < 0.0 ||
      o.target_iterations < 1 || o.max_steps < 1)
    return COSROD_ERR_INVALID;
  cosrod_statics_stats loc;
  if (!stats) stats = &loc;
  memset(stats, 0, sizeof *stats);
  double lam = 0.0;
  if (!lambda) lambda = &lam;
  *lambda = 0.0;
  double w0 = wall_now();
  arc_ws w;
  memset(&w, 0, sizeof w);
  w.s = s;
  w.t = t;
  cosrod_status st = cosrod_statics_arclength_reserve(s);
  if (st == COSROD_OK) {
    size_t nv = (size_t)(s->nv > 0 ? s->nv : 1), nq = (size_t)(s->nq > 0 ? s->nq : 1);
    double *b = s->arcbuf;
    w.tu = b, w.a = b + nv, w.b = b + 2 * nv, w.sec = b + 3 * nv, w.g = b + 4 * nv;
    w.qc = b + 5 * nv, w.qw = b + 5 * nv + nq, w.qx = b + 5 * nv + 2 * nq;
    st = arc_run(&w, q, &o, cb, user, lambda, stats);
  }
  if (st != COSROD_OK) stats->t = *lambda;
  stats->wall_time = wall_now() - w0;
  return st;
}

cosrod_status cosrod_statics_reactions_at(cosrod_statics *s, double t, double lambda, const double *q,
                                          double *R, int *supported) {
  if (!s || !q || !R) return COSROD_ERR_INVALID;
  cosrod_status st = statics_residual(s, t, lambda, q, s->r, NULL); /* every rod's data at (t, q) */
  if (st != COSROD_OK) return st;
  const double gs = s->opt.gravity_ramp ? fmin(fmax(t, 0.0), 1.0) : 1.0;
  for (int r = 0; r < s->nparts; ++r) {
    const cosrod_rod *rod = s->part[r].rod;
    const cosrod_rod_data *d = s->part[r].d;
    double *Rr = R + 12 * r;
    int sup[2];
    st = cosrod_statics_end_reactions(rod, d, gs * lambda, 0, Rr, sup);
    if (st != COSROD_OK) return st;
    for (int e = 0; e < 2; ++e) {
      if (supported) supported[2 * r + e] = sup[e];
      if (!rod->end[e].fixpos || !(rod->nloads > 0 || rod->load_fn)) continue;
      /* the rod data hold the full loads on the end vertex; λ of them act */
      const int n = e == 0 ? 0 : rod->N;
      double *F = Rr + 6 * e;
      cosrod_vec3_axpy(F, 1.0 - lambda, d->fload + 3 * n);
      if (rod->end[e].slides) cosrod_vec3_axpy(F, -cosrod_vec3_dot(F, rod->end[e].axis), rod->end[e].axis);
    }
  }
  return COSROD_OK;
}
