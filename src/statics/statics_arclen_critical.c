// SPDX-License-Identifier: Apache-2.0
/* Critical points on a step of the arc-length path (see statics_arclen.c):
 * a limit point where dλ/ds changes sign (cubic Hermite estimate, then the
 * root of the slope on equilibria between the step's ends), a bifurcation
 * where the stability index changes (bisection at fixed λ), the critical
 * mode by inverse iteration and the switch onto the crossing branch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "statics/statics_arclen.h"

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
  cosrod_status st = statics_arc_correct(w, w->qx, lam, &it, &res);
  w->tu = tu, w->tl = tl;
  if (st == COSROD_OK) st = statics_factor_index(s, w->t, *lam, w->qx, &neg);
  if (st == COSROD_OK) st = statics_arc_tangent_raw(w, *lam, w->qx, &n2);
  if (st != COSROD_OK) return st;
  double sg = statics_arc_wdot(s, w->a, w->sec) + w->psi2 * dls >= 0.0 ? 1.0 : -1.0;
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
    statics_solve(s, w->tu);
    double m = 0.0;
    for (int i = 0; i < s->nv; ++i) m = fmax(m, fabs(w->tu[i]));
    if (!(m > 0.0) || !isfinite(m)) return COSROD_ERR_SINGULAR;
    for (int i = 0; i < s->nv; ++i) w->tu[i] /= m;
  }
  int imax = 0;
  for (int i = 1; i < s->nv; ++i)
    if (fabs(w->tu[i] * s->wnorm[i]) > fabs(w->tu[imax] * s->wnorm[imax])) imax = i;
  double n = sqrt(statics_arc_wdot(s, w->tu, w->tu) / w->lref2) * (w->tu[imax] < 0.0 ? -1.0 : 1.0);
  for (int i = 0; i < s->nv; ++i) w->tu[i] /= n;
  return COSROD_OK;
}

/* A critical point inside the step qc (λ = lc) -> qw (λ = lw = lc + dls,
 * chord h, end slope d1): a limit point where dλ/ds (normalised arc) changes
 * sign, a bifurcation where the stability index does.  Sets pt's critical
 * fields and *th (its fraction of the step, -1 without); a limit point
 * leaves w->a at the tangent of the step's end (refactored at qw). */
cosrod_status statics_arc_find_critical(arc_ws *w, double lc, double lw, double dls, double h, double d1,
                                        int neg_c, int *neg_n, double *tn2, double s_path,
                                        cosrod_statics_arc_point *pt, double *th,
                                        cosrod_statics_stats *stats) {
  cosrod_statics *s = w->s;
  const double d0 = w->tl;
  pt->critical = COSROD_CRITICAL_NONE;
  pt->q_crit = NULL;
  *th = -1.0;
  int limit_refined = 0;
  if (d0 * d1 < 0.0) {
    pt->critical = COSROD_CRITICAL_LIMIT;
    *th = hermite_extremum(lc, lw, d0, d1, h, &pt->lambda_crit);
    double lr = 0.0, thr = refine_limit(w, lc, dls, d0, d1, *th, &lr);
    /* w->a back to the tangent at the step's end (used below) */
    cosrod_status st = statics_factor_index(s, w->t, lw, w->qw, neg_n);
    if (st == COSROD_OK) st = statics_arc_tangent_raw(w, lw, w->qw, tn2);
    statics_arc_add_counts(s, stats);
    if (st != COSROD_OK) return st;
    if (thr >= 0.0) *th = thr, pt->lambda_crit = lr, limit_refined = 1;
  } else if (*neg_n != neg_c && *neg_n >= 0 && neg_c >= 0) {
    pt->critical = COSROD_CRITICAL_BIFURCATION;
    *th = refine_bifurcation(w, lc, dls, neg_c);
    pt->lambda_crit = lc + *th * dls;
  }
  if (pt->critical == COSROD_CRITICAL_LIMIT && !limit_refined) interpolate(w, *th);
  if (pt->critical != COSROD_CRITICAL_NONE) {
    pt->q_crit = w->qx;
    pt->s_crit = s_path + *th * h;
  }
  return COSROD_OK;
}

/* Arc of the first step along the critical mode in w->tu: it moves a vertex
 * by 1 % of the longest rod or a segment by 0.01 rad (INFINITY without). */
static double switch_arc(const arc_ws *w) {
  const cosrod_statics *s = w->s;
  double ax = 0.0, ar = 0.0, Lmax = 0.0;
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *pr = &s->part[r];
    const cosrod_rod_view *rv = &pr->rv;
    Lmax = fmax(Lmax, rv->s[rv->N] - rv->s[0]);
    for (int n = 0; n <= rv->N; ++n)
      for (int j = 0; j < rv->nd[n]; ++j) ax = fmax(ax, fabs(w->tu[pr->v0 + rv->vv_ns[n] + j]));
    for (int k = 0; k < rv->N; ++k)
      for (int j = 0; j < 3; ++j) ar = fmax(ar, fabs(w->tu[pr->v0 + rv->vs_ns[k] + j]));
  }
  return fmin(ax > 0.0 ? 0.01 * Lmax / ax : INFINITY, ar > 0.0 ? 0.01 / ar : INFINITY);
}

/* Branch switching at the first bifurcation pt (fraction th of the step):
 * the point reported is the bifurcation itself (w->qw, *lw, the chord *h cut
 * there), the next predictor goes along the critical mode (in w->tu) with
 * the arc *arc_next_switch.  *switch_now = 1 if the mode was found. */
cosrod_status statics_arc_switch_branch(arc_ws *w, const cosrod_statics_arc_options *o,
                                        const cosrod_statics_arc_point *pt, double th, int neg_c, double *lw,
                                        double *h, int *neg_n, double *arc_next_switch, double *arc_max,
                                        int *switch_now, cosrod_statics_stats *stats) {
  cosrod_statics *s = w->s;
  cosrod_status st = critical_mode(w, pt->lambda_crit);
  statics_arc_add_counts(s, stats);
  if (st != COSROD_OK) return st;
  /* the path metric was scaled on the primary path (e.g. the tiny axial
   * shortening of a column): restart the arc so that the first step along
   * the mode moves a vertex by 1 % of the rod or a segment by 0.01 rad, and
   * let it grow to 4 times that */
  double a_sw = switch_arc(w);
  if (isfinite(a_sw) && a_sw > 0.0) {
    *arc_next_switch = a_sw;
    if (o->arc_max <= 0.0) *arc_max = fmax(*arc_max, 4.0 * a_sw);
  }
  *switch_now = 1;
  memcpy(w->qw, w->qx, sizeof(double) * (size_t)s->nq);
  *lw = pt->lambda_crit;
  *h *= th;
  *neg_n = neg_c;
  return COSROD_OK;
}
