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
#include "statics/statics_arclen.h"

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

/* Weighted inner product of displacement parts (unnormalised). */
double statics_arc_wdot(const cosrod_statics *s, const double *x, const double *y) {
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
cosrod_status statics_arc_tangent_raw(arc_ws *w, double lambda, const double *q, double *n2) {
  cosrod_statics *s = w->s;
  cosrod_status st = statics_residual(s, w->t, lambda, q, s->r, NULL);
  if (st == COSROD_OK) st = dr_dlambda(w, lambda, q);
  if (st != COSROD_OK) return st;
  for (int i = 0; i < s->nv; ++i) w->a[i] = -w->g[i];
  statics_solve(s, w->a);
  for (int i = 0; i < s->nv; ++i)
    if (!isfinite(w->a[i])) return COSROD_ERR_NONFINITE;
  *n2 = statics_arc_wdot(s, w->a, w->a) + w->psi2;
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
cosrod_status statics_arc_correct(arc_ws *w, double *q, double *lambda, int *iters, double *res) {
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
    if (st == COSROD_OK) st = statics_factor(s);
    if (st != COSROD_OK) return st;
    for (int i = 0; i < nv; ++i) w->a[i] = -s->r[i], w->b[i] = -w->g[i];
    statics_solve(s, w->a);
    statics_solve(s, w->b);
    double den = statics_arc_wdot(s, w->tu, w->b) + w->psi2 * w->tl;
    if (!(fabs(den) > 0.0)) return COSROD_ERR_SINGULAR;
    double dl = -statics_arc_wdot(s, w->tu, w->a) / den;
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

void statics_arc_add_counts(cosrod_statics *s, cosrod_statics_stats *st) {
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
  cosrod_status st = statics_arc_tangent_raw(w, lambda, q, &n2);
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
  *h = sqrt((statics_arc_wdot(s, w->sec, w->sec) + w->psi2 * (l1 - l0) * (l1 - l0)) / w->lref2);
  return metric_start(w, l1, w->qw, dir);
}

/* The target λ_to lies inside the step qc (λ = lc) -> qc ⊕ sec (λ = lc +
 * dls): land on it under load control from qc ⊕ θ_f sec into w->qw; the
 * step's chord *h, *iters, *res and the index *neg_n (-1 if unknown) are
 * updated, a critical point beyond θ_f is dropped.  If the landing fails,
 * q and *lambda_out are set to the step's start. */
static cosrod_status land(arc_ws *w, double lambda_to, double lc, double dls, double th,
                          cosrod_statics_arc_point *pt, int *neg_n, double *h, int *iters, double *res,
                          double *q, double *lambda_out, cosrod_statics_stats *stats) {
  cosrod_statics *s = w->s;
  double thf = (lambda_to - lc) / dls;
  if (pt->critical != COSROD_CRITICAL_NONE && th > thf)
    pt->critical = COSROD_CRITICAL_NONE, pt->q_crit = NULL;
  memcpy(w->qw, w->qc, sizeof(double) * (size_t)s->nq); /* start of the landing: qc ⊕ θ_f sec */
  for (int i = 0; i < s->nv; ++i) w->b[i] = thf * w->sec[i];
  cosrod_statics_apply(s, w->qw, w->b);
  int it2 = 0;
  double res2 = 0.0;
  cosrod_status st = statics_equilibrium_mu(s, w->t, lambda_to, w->qw, &it2, &res2);
  statics_arc_add_counts(s, stats);
  if (st != COSROD_OK) {
    memcpy(q, w->qc, sizeof(double) * (size_t)s->nq);
    *lambda_out = lc;
    stats->fail_residual = s->sc_min;
    return st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED ? st : COSROD_ERR_CONVERGENCE;
  }
  st = statics_factor_index(s, w->t, lambda_to, w->qw, neg_n);
  statics_arc_add_counts(s, stats);
  if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) return st;
  if (st != COSROD_OK) *neg_n = -1;
  *h *= thf;
  *iters += it2;
  *res = res2;
  return COSROD_OK;
}

/* The first step failed: try jump_start to l1 (one arc0 towards λ_to).
 * Returns 1 if the jump was accepted (reported through cb; the path goes on
 * from w->qc at *lc), 0 if not (the step counts as failed), 2 if the run
 * ends with the status *ret. */
static int jump_step(arc_ws *w, double lambda_to, double arc0, double dir, int neg_c, double *lc,
                     double *s_path, cosrod_statics_arc_point *pt, double *q, double *lambda_out,
                     cosrod_statics_arc_callback cb, void *user, cosrod_statics_stats *stats,
                     cosrod_status *ret) {
  cosrod_statics *s = w->s;
  const size_t bq = sizeof(double) * (size_t)s->nq;
  const double l1 = dir * (*lc + dir * arc0 - lambda_to) >= 0.0 ? lambda_to : *lc + dir * arc0;
  int it1 = 0, neg_n = neg_c;
  double res1 = 0.0, h1 = 0.0;
  cosrod_status sj = jump_start(w, *lc, l1, dir, &neg_n, &it1, &res1, &h1);
  statics_arc_add_counts(s, stats);
  if (sj == COSROD_ERR_CALLBACK || sj == COSROD_ERR_INTERRUPTED) return *ret = sj, 2;
  if (sj != COSROD_OK || neg_n != neg_c) return 0;
  *s_path += h1;
  stats->increments++;
  if (it1 > stats->max_iterations) stats->max_iterations = it1;
  stats->t = l1;
  stats->residual = res1;
  memset(pt, 0, sizeof *pt);
  pt->lambda = l1, pt->s = *s_path, pt->index = neg_n, pt->iterations = it1, pt->residual = res1;
  memcpy(q, w->qw, bq);
  *lambda_out = l1;
  if (cb && cb(user, pt, w->qw) != 0) return *ret = COSROD_ERR_INTERRUPTED, 2;
  if (l1 == lambda_to) return *ret = COSROD_OK, 2;
  memcpy(w->qc, w->qw, bq);
  *lc = l1;
  return 1;
}

/* Start of a path: the unloaded equilibrium (from q, into q and w->qc), its
 * stability index *neg and the path metric there. */
static cosrod_status arc_begin(arc_ws *w, double *q, double dir, int *neg, int *iters, double *res,
                               cosrod_statics_stats *stats) {
  cosrod_statics *s = w->s;
  cosrod_status st = statics_equilibrium_mu(s, w->t, 0.0, q, iters, res);
  statics_arc_add_counts(s, stats);
  if (st != COSROD_OK) {
    stats->fail_residual = s->sc_min;
    return st;
  }
  memcpy(w->qc, q, sizeof(double) * (size_t)s->nq);
  st = statics_factor_index(s, w->t, 0.0, w->qc, neg);
  if (st == COSROD_OK) st = metric_start(w, 0.0, w->qc, dir);
  statics_arc_add_counts(s, stats);
  return st;
}

/* Predictor along the unit tangent by arc from (w->qc, lc), then the
 * normal-plane corrector into (w->qw, *lw), its index *neg and the squared
 * norm *tn2 of its raw tangent (in w->a). */
static cosrod_status predict_correct(arc_ws *w, double arc, double lc, double *lw, int *neg, double *tn2,
                                     int *iters, double *res) {
  cosrod_statics *s = w->s;
  memcpy(w->qw, w->qc, sizeof(double) * (size_t)s->nq);
  for (int i = 0; i < s->nv; ++i) w->b[i] = arc * w->tu[i];
  double cl = limit_factor(s, w->b);
  cosrod_statics_apply(s, w->qw, w->b);
  *lw = lc + cl * arc * w->tl;
  cosrod_status st = statics_arc_correct(w, w->qw, lw, iters, res);
  if (st == COSROD_OK) st = statics_factor_index(s, w->t, *lw, w->qw, neg);
  if (st == COSROD_OK) st = statics_arc_tangent_raw(w, *lw, w->qw, tn2);
  return st;
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
  double lc = 0.0;
  int neg_c = 0, jumped = 0;
  cosrod_status st = arc_begin(w, q, dir, &neg_c, &iters, &res, stats);
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
    double lw = lc, tn2 = 0.0;
    int neg_n = neg_c;
    st = predict_correct(w, arc, lc, &lw, &neg_n, &tn2, &iters, &res);
    statics_arc_add_counts(s, stats);
    if (st == COSROD_ERR_CALLBACK) return st;
    if (st == COSROD_ERR_INTERRUPTED) {
      memcpy(q, w->qc, bq);
      return st;
    }
    if (st != COSROD_OK && steps == 0 && !jumped) { /* from a neutral mechanism (jump_start) */
      jumped = 1;
      cosrod_status sj = COSROD_OK;
      int r = jump_step(w, o->lambda_to, arc0, dir, neg_c, &lc, &s_path, &pt, q, lambda_out, cb, user, stats,
                        &sj);
      if (r == 2) return sj;
      if (r == 1) {
        steps++;
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
    double h = sqrt((statics_arc_wdot(s, w->sec, w->sec) + w->psi2 * dls * dls) / w->lref2);
    double tn = sqrt(tn2 / w->lref2);
    double sg = statics_arc_wdot(s, w->a, w->sec) + w->psi2 * dls >= 0.0 ? 1.0 : -1.0;
    double tl_new = sg / tn;
    double th = -1.0;
    st = statics_arc_find_critical(w, lc, lw, dls, h, tl_new, neg_c, &neg_n, &tn2, s_path, &pt, &th, stats);
    if (st != COSROD_OK) return st;
    /* branch switching at the first bifurcation: the point reported is the
     * bifurcation itself, the next predictor goes along the critical mode */
    int switch_now = 0;
    if (pt.critical == COSROD_CRITICAL_BIFURCATION && o->branch_switch && !switched) {
      st = statics_arc_switch_branch(w, o, &pt, th, neg_c, &lw, &h, &neg_n, &arc_next_switch, &arc_max,
                                     &switch_now, stats);
      if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) return st;
      if (switch_now) switched = 1;
    }
    /* target reached inside the step: land on λ = lambda_to under load control */
    int done = !switch_now && dir * (lw - o->lambda_to) >= 0.0 && dir * (lc - o->lambda_to) < 0.0;
    if (done) {
      st = land(w, o->lambda_to, lc, dls, th, &pt, &neg_n, &h, &iters, &res, q, lambda_out, stats);
      if (st != COSROD_OK) return st;
      lw = o->lambda_to;
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
    const cosrod_rod_view *rv = &s->part[r].rv;
    const cosrod_rod_data *d = s->part[r].d;
    double *Rr = R + 12 * r;
    int sup[2];
    st = cosrod_statics_end_reactions(rod, d, gs * lambda, 0, Rr, sup);
    if (st != COSROD_OK) return st;
    for (int e = 0; e < 2; ++e) {
      if (supported) supported[2 * r + e] = sup[e];
      if (!rv->end[e].fixpos || !cosrod_rod_has_loads(rod)) continue;
      /* the rod data hold the full loads on the end vertex; λ of them act */
      const int n = e == 0 ? 0 : rv->N;
      double *F = Rr + 6 * e;
      cosrod_vec3_axpy(F, 1.0 - lambda, d->fload + 3 * n);
      if (rv->end[e].slides) cosrod_vec3_axpy(F, -cosrod_vec3_dot(F, rv->end[e].axis), rv->end[e].axis);
    }
  }
  return COSROD_OK;
}
