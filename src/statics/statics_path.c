// SPDX-License-Identifier: Apache-2.0
/* Continuation of the statics solver ([LLA] eqs. 31-32): Newton corrector
 * with a line search, Euler/curvature predictor, adaptive increments with the
 * stability monitor, equilibrium at a fixed pseudo-time by load-factor
 * continuation (see statics.c for the method). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"
#include "cosrod/statics.h"
#include "statics/statics_internal.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- continuation -------------------------------------------------------- */

/* A path s in [0, 1] -> (t(s), μ(s)), both linear. */
typedef struct path {
  double t0, t1, mu0, mu1;
} path;

static inline double path_t(const path *p, double sv) { return p->t0 + sv * (p->t1 - p->t0); }
static inline double path_mu(const path *p, double sv) { return p->mu0 + sv * (p->mu1 - p->mu0); }

/* Trust region of a Newton or predictor step δ (in place, direction kept):
 * segment rotations |δθ_k| <= 1 rad and vertex moves |δx_n| <= L/4 (L the
 * rod's length).  A straight taut cable under its first share of weight has
 * only its bending stiffness against sagging: the linear step is ~w L⁴/EI
 * (kilometres for a 100 m wire), far outside the range where the tangent
 * means anything; limited steps walk it into the sag.  Steps of a regular
 * problem are far below these bounds (untouched: quadratic convergence). */
static void limit_step(const cosrod_statics *s, double *dv) {
  double c = 1.0;
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *pt = &s->part[r];
    const cosrod_rod_view *rv = &pt->rv;
    const double L = rv->s[rv->N] - rv->s[0];
    for (int n = 0; n <= rv->N; ++n) {
      double m2 = 0.0;
      for (int j = 0; j < rv->nd[n]; ++j) m2 += dv[pt->v0 + pt->ov[n] + j] * dv[pt->v0 + pt->ov[n] + j];
      double m = sqrt(m2);
      if (m > 0.25 * L) c = fmin(c, 0.25 * L / m);
    }
    for (int k = 0; k < rv->N; ++k) {
      double m = cosrod_vec3_norm(dv + pt->v0 + pt->os[k]);
      if (m > 1.0) c = fmin(c, 1.0 / m);
    }
  }
  statics_blocks_limit(s, dv, &c);
  if (c < 1.0)
    for (int i = 0; i < s->nv; ++i) dv[i] *= c;
}

/* Newton corrector at path parameter sv, from q (in place).  OK with *iters
 * and *res, or a failure status (q then undefined).
 * Line search on the out-of-balance work (Crisfield): with the Newton
 * direction δ = K⁻¹ r, s(α) = δᵀ r(q ⊕ αδ) is the slope of the energy along δ
 * (units J, consistent although δ mixes m and rad).  The full step is taken
 * if |s(1)| <= η |s(0)| (η = 0.8; always true near the solution, so the
 * quadratic convergence is kept), else α from regula falsi on s, at most
 * four tries, keeping the best.  This tames the overshoot of stiff shear and
 * extension far from the solution; it needs no energy, so follower loads
 * are fine. */
static cosrod_status correct(cosrod_statics *s, const path *pa, double sv, double *q, int *iters,
                             double *res) {
  const double t = path_t(pa, sv), mu = path_mu(pa, sv);
  const int nq = s->nq, nv = s->nv;
  double sc = 0.0, sc0 = 0.0;
  *iters = 0;
  s->sc_min = INFINITY;
  cosrod_status st = statics_residual(s, t, mu, q, s->r, &sc);
  if (st != COSROD_OK) return st;
  sc0 = sc;
  double ex = s->excess; /* <= 1: below tol or at the roundoff floor */
  for (int it = 0;; ++it) {
    *res = sc;
    s->sc_min = fmin(s->sc_min, sc);
    if (ex <= 1.0) return COSROD_OK;
    if (it >= s->opt.max_newton) return COSROD_ERR_CONVERGENCE;
    if (it >= 2 && sc > 1e3 * sc0) return COSROD_ERR_CONVERGENCE; /* diverging */
    st = statics_solve_jacobian(s, t, mu, q, s->J);
    if (st != COSROD_OK) return st;
    st = statics_factor(s);
    if (st != COSROD_OK) return st;
    /* J δ = -r */
    double s0 = 0.0;
    for (int i = 0; i < nv; ++i) s->dv[i] = -s->r[i];
    statics_solve(s, s->dv);
    limit_step(s, s->dv);
    double wn = 0.0;
    for (int i = 0; i < nv; ++i) {
      if (!isfinite(s->dv[i])) return COSROD_ERR_NONFINITE;
      s0 += s->dv[i] * s->r[i];
      wn = fmax(wn, fabs(s->dv[i]) * s->wnorm[i]);
    }
    s0 -= statics_blocks_mult_work(s, s->dv, s->r); /* block multipliers: g is no force */
    if (wn <= s->step_noise && sc <= 1e3 * s->opt.tol) {
      /* the residual is at its roundoff floor (stiff axial/shear forces of
       * a small-load problem): the correction is roundoff-sized, stop */
      cosrod_statics_apply(s, q, s->dv);
      s->nnewton++;
      *iters = it + 1;
      return COSROD_OK;
    }
    double alpha = 1.0, a_lo = 0.0, s_lo = s0;
    double best_a = 0.0, best_s = INFINITY, best_sc = 0.0, best_ex = 0.0;
    for (int ls = 0; ls < 5; ++ls) {
      memcpy(s->qw2, q, sizeof(double) * (size_t)nq);
      for (int i = 0; i < nv; ++i) s->rpl[i] = alpha * s->dv[i];
      cosrod_statics_apply(s, s->qw2, s->rpl);
      double sct = 0.0, sa = 0.0;
      st = statics_residual(s, t, mu, s->qw2, s->r2, &sct);
      if (st == COSROD_ERR_CALLBACK) return st;
      if (st == COSROD_OK) {
        for (int i = 0; i < nv; ++i) sa += s->dv[i] * s->r2[i];
        sa -= statics_blocks_mult_work(s, s->dv, s->r2);
        if (fabs(sa) < best_s) {
          best_s = fabs(sa), best_a = alpha, best_sc = sct, best_ex = s->excess;
          memcpy(s->qbest, s->qw2, sizeof(double) * (size_t)nq);
          memcpy(s->rbest, s->r2, sizeof(double) * (size_t)nv);
        }
        if (s->excess <= 1.0 || fabs(sa) <= s->eta * fabs(s0)) break;
        /* regula falsi between the bracket (a_lo, s_lo) and (alpha, sa) */
        double an = (sa * s_lo < 0.0) ? alpha - sa * (alpha - a_lo) / (sa - s_lo) : 0.5 * alpha;
        if (sa * s_lo >= 0.0) a_lo = alpha, s_lo = sa;
        alpha = fmin(fmax(an, 0.1 * alpha), 0.9 * alpha);
      } else {
        alpha *= 0.5; /* non-finite trial: shorten */
      }
    }
    if (best_s == INFINITY) return COSROD_ERR_NONFINITE;
    (void)best_a;
    memcpy(q, s->qbest, sizeof(double) * (size_t)nq);
    memcpy(s->r, s->rbest, sizeof(double) * (size_t)nv);
    sc = best_sc;
    ex = best_ex;
    s->nnewton++;
    *iters = it + 1;
  }
}

/* Chart coordinates δ (nv) of qa relative to q: q ⊕ δ = qa. */
static void chart_diff(const cosrod_statics *s, const double *q, const double *qa, double *delta) {
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *pt = &s->part[r];
    const cosrod_rod_view *rv = &pt->rv;
    const double *qr = q + pt->q0, *qar = qa + pt->q0;
    double *dr = delta + pt->v0;
    for (int n = 0; n <= rv->N; ++n)
      for (int j = 0; j < rv->nd[n]; ++j) dr[pt->ov[n] + j] = qar[rv->qv[n] + j] - qr[rv->qv[n] + j];
    for (int k = 0; k < rv->N; ++k) {
      double w[4];
      cosrod_quat_conj_mul(w, qr + rv->qs[k], qar + rv->qs[k]);
      cosrod_quat_to_rotvec(dr + pt->os[k], w);
    }
  }
  statics_blocks_chart_diff(s, q, qa, delta);
}

/* Predictor from a converged q at sv over ds (q in place): the Euler step of
 * eq. 32, δ = ds q'; with qprev (converged at sv - dsp) and predictor 2 the
 * curvature term ½ ds² q'' of the Hermite interpolant through (qprev, q, q')
 * is added, limited to a quarter of the Euler step (weighted max norm) so a
 * path that turns quickly is not over-extrapolated. */
static cosrod_status predict(cosrod_statics *s, const path *pa, double sv, double ds, double *q,
                             const double *qprev, double dsp, int have_lu) {
  const double t = path_t(pa, sv), mu = path_mu(pa, sv);
  double hs = 1e-6 * (ds > 0 ? 1.0 : -1.0);
  cosrod_status st = statics_residual(s, t, mu, q, s->r, NULL);
  if (st != COSROD_OK) return st;
  st = statics_residual(s, path_t(pa, sv + hs), path_mu(pa, sv + hs), q, s->r2, NULL);
  if (st != COSROD_OK) return st;
  if (!have_lu) {
    st = statics_solve_jacobian(s, t, mu, q, s->J);
    if (st != COSROD_OK) return st;
    st = statics_factor(s);
    if (st != COSROD_OK) return st;
  }
  /* J q' = -∂r/∂s */
  for (int i = 0; i < s->nv; ++i) s->dv[i] = -(s->r2[i] - s->r[i]) / hs;
  statics_solve(s, s->dv);
  if (s->opt.predictor >= 2 && qprev && dsp != 0.0) {
    chart_diff(s, q, qprev, s->r2);
    double n1 = 0.0, n2 = 0.0;
    for (int i = 0; i < s->nv; ++i) {
      double acc = 2.0 * (s->r2[i] + dsp * s->dv[i]) / (dsp * dsp);
      s->r2[i] = 0.5 * ds * ds * acc;
      s->dv[i] *= ds;
      n1 = fmax(n1, fabs(s->dv[i]) * s->wnorm[i]);
      n2 = fmax(n2, fabs(s->r2[i]) * s->wnorm[i]);
    }
    const double lim = 0.25;
    double c = n2 > lim * n1 ? lim * n1 / n2 : 1.0;
    for (int i = 0; i < s->nv; ++i) s->dv[i] += c * s->r2[i];
  } else {
    for (int i = 0; i < s->nv; ++i) s->dv[i] *= ds;
  }
  for (int i = 0; i < s->nv; ++i)
    if (!isfinite(s->dv[i])) return COSROD_ERR_NONFINITE;
  limit_step(s, s->dv);
  cosrod_statics_apply(s, q, s->dv);
  return COSROD_OK;
}

static void stats_add_counts(cosrod_statics *s, cosrod_statics_stats *st) {
  st->newton += s->nnewton;
  st->jacobians += s->njac;
  st->residuals += s->nres;
  s->nnewton = s->njac = s->nres = 0;
}

/* Number of negative eigenvalues of the symmetric part of K = -J (J
 * unfactored), by a banded LDLᵀ without pivoting (Sylvester's law of
 * inertia: the signs of D); -1 if a pivot vanishes (singular K).  Counting
 * instead of the sign of det K also sees double eigenvalues crossing zero
 * together (a column of circular section buckles in two planes at once).
 * Pivots within 1e-10 of their diagonal entry below zero are not counted. */
static int negative_eigenvalues(cosrod_statics *s, const cosrod_band *J) {
  const int n = J->n, b = s->ml > s->mu ? s->ml : s->mu, ld = b + 1;
  double *w = s->ldl;
  for (int j = 0; j < n; ++j)
    for (int i = j; i <= j + b; ++i) {
      double v = 0.0;
      if (i < n) {
        double a = cosrod_band_in_band(J, i, j) ? cosrod_band_get(J, i, j) : 0.0;
        double c = cosrod_band_in_band(J, j, i) ? cosrod_band_get(J, j, i) : 0.0;
        v = -0.5 * (a + c);
      }
      w[(size_t)j * ld + (size_t)(i - j)] = v;
    }
  if (s->kkt) statics_kirchhoff_penalise(s, J, w, ld); /* KKT: the reduced stiffness' inertia */
  for (int j = 0; j < n; ++j) s->kdiag[j] = fabs(w[(size_t)j * ld]);
  int neg = 0;
  for (int j = 0; j < n; ++j) {
    double *cj = w + (size_t)j * ld;
    double d = cj[0];
    if (!isfinite(d)) return -1;
    /* pivots within roundoff of zero count as positive (lifted): rigid
     * null modes (a rod hanging from a pin spins about the vertical, a
     * round rod pinned at both ends spins about its centerline), whose
     * pivots are eliminated from neighbours up to the largest stiffness of
     * the window (axial, EA/Δs), so their roundoff is eps times that, not
     * eps times their own diagonal (the twist GJ/Δs, 1e7 times smaller for
     * a 100 m steel wire) */
    double kw = 0.0;
    for (int i = j - b; i <= j + b; ++i)
      if (i >= 0 && i < n) kw = fmax(kw, s->kdiag[i]);
    const double zero = fmax(1e-10 * s->kdiag[j], 1e-13 * kw);
    if (d < -zero)
      ++neg;
    else if (d < zero || d == 0.0)
      d = zero > 0.0 ? zero : 1e-300;
    int imax = j + b < n - 1 ? j + b : n - 1;
    for (int i = j + 1; i <= imax; ++i) {
      double aij = cj[i - j];
      if (aij == 0.0) continue;
      double f = aij / d;
      for (int k = j + 1; k <= i; ++k) w[(size_t)k * ld + (size_t)(i - k)] -= f * cj[k - j];
    }
  }
  return neg;
}

/* Parity of the number of negative real eigenvalues of K = -J from the LU
 * of J (factored): det K = (-1)^n det J, det J = ± prod U_jj (one sign
 * flip per row interchange).  1: det K < 0. */
static int det_parity(const cosrod_band *J) {
  const int base = J->factored_by == COSROD_LINALG_LAPACK ? 1 : 0; /* LAPACK pivots are 1-based */
  int neg = J->n % 2;
  for (int j = 0; j < J->n; ++j) {
    if (J->ipiv[j] - base != j) neg ^= 1;
    if (J->data[(size_t)j * J->ld + J->smu] < 0.0) neg ^= 1;
  }
  return neg;
}

/* Stiffness at (sv, q), factored into s->J; *neg = the stability index of K
 * (-1: singular): under conservative loads (s->dead_loads: gravity and
 * spatial forces) K is symmetric at an equilibrium and the index is its
 * number of negative eigenvalues (inertia of the banded LDLᵀ), which also
 * sees a double eigenvalue crossing zero (a round column buckling in two
 * planes).  Moments and follower loads are not conservative in 3-D: K is
 * not symmetric (dead and follower end moments add ∓½[m]ₓ on the loaded
 * segment), a complex pair of its eigenvalues may cross into Re < 0 without
 * K becoming singular (the rolled-up cantilever beyond ~0.6 turns), and the
 * inertia of the symmetric part reports negative eigenvalues where K has no
 * real one (beyond ~0.42 turns): no equilibrium path ends there.  The index
 * is then the parity of the negative real eigenvalues of K (sign of det K),
 * which changes exactly where a simple real eigenvalue crosses zero (a limit
 * or simple bifurcation point). */
static cosrod_status factor_at(cosrod_statics *s, const path *pa, double sv, const double *q, int *neg) {
  cosrod_status st = statics_solve_jacobian(s, path_t(pa, sv), path_mu(pa, sv), q, s->J);
  if (st != COSROD_OK) return st;
  const int inertia = s->dead_loads && !s->sp; /* the sparse tangent: parity (statics_sparse.c) */
  if (inertia) *neg = negative_eigenvalues(s, s->J);
  st = statics_factor(s);
  if (st == COSROD_OK && !inertia) *neg = s->sp ? statics_sparse_det_negative(s->sp) : det_parity(s->J);
  return st;
}

/* Stability monitor of march() at the corrected state q (sv): the index
 * *neg_n of the stiffness factored into s->J (*have_lu), *crossed if it
 * differs from neg_c or the stiffness is singular (a critical point). */
static cosrod_status monitor(cosrod_statics *s, const path *pa, double sv, const double *q, int neg_c,
                             int *neg_n, int *have_lu, int *crossed) {
  if (!s->opt.stop_at_critical) return COSROD_OK;
  cosrod_status st = factor_at(s, pa, sv, q, neg_n);
  if (st == COSROD_OK) {
    *have_lu = 1;
    if (*neg_n != neg_c || *neg_n < 0) {
      *crossed = 1;
      *have_lu = 0;
    }
  } else if (st != COSROD_ERR_CALLBACK && st != COSROD_ERR_INTERRUPTED) {
    *crossed = 1; /* singular stiffness at the new state: a critical point */
    st = COSROD_OK;
  }
  return st;
}

/* Follow the path from sv = 0 (q converged there) to sv = 1.  Stability
 * monitor (opt.stop_at_critical): the number of negative eigenvalues of K
 * at each converged state is compared with the previous one; a change means
 * a limit or bifurcation point inside the increment, which is then halved
 * like a divergence, so that the solve ends with ERR_CONVERGENCE just before
 * the critical point instead of jumping onto an unstable or a remote
 * branch. */
static cosrod_status march(cosrod_statics *s, const path *pa, double *q, cosrod_statics_callback cb,
                           void *user, cosrod_statics_stats *stats, double tscale) {
  double sv = 0.0;
  double ds = 1.0 / s->opt.increments;
  if (ds > s->opt.max_increment) ds = s->opt.max_increment;
  memcpy(s->qc, q, sizeof(double) * (size_t)s->nq);
  int have_prev = 0, have_lu = 0, neg_c = 0, ptc_tried = 0; /* neg_c: negative eigenvalues of K at qc */
  double dsp = 0.0;
  if (s->opt.stop_at_critical) {
    cosrod_status st = factor_at(s, pa, 0.0, s->qc, &neg_c);
    stats_add_counts(s, stats);
    if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) return st;
    have_lu = st == COSROD_OK;
  }
  while (sv < 1.0) {
    if (sv + ds > 1.0 - 1e-9 * ds) ds = 1.0 - sv;
    /* land exactly on the next requested stop (t-paths only) */
    double ds_free = ds, s_target = sv + ds, t_stop = 0.0;
    int at_stop = 0;
    if (pa->t1 != pa->t0)
      for (int i = 0; i < s->opt.nstops; ++i) {
        double sst = (s->opt.stops[i] - pa->t0) / (pa->t1 - pa->t0);
        if (sst > sv + 1e-12 && sst < s_target - 1e-12) s_target = sst, at_stop = 1, t_stop = s->opt.stops[i];
      }
    if (at_stop) ds = s_target - sv;
    if (ds * tscale < stats->min_step || stats->min_step == 0.0) stats->min_step = ds * tscale;
    memcpy(s->qw, s->qc, sizeof(double) * (size_t)s->nq);
    int iters = 0, neg_n = neg_c, crossed = 0;
    double res = 0.0;
    cosrod_status st = COSROD_OK;
    if (s->opt.predictor) st = predict(s, pa, sv, ds, s->qw, have_prev ? s->qprev : NULL, dsp, have_lu);
    have_lu = 0;
    if (st == COSROD_OK) st = correct(s, pa, sv + ds, s->qw, &iters, &res);
    if (st == COSROD_OK) st = monitor(s, pa, sv + ds, s->qw, neg_c, &neg_n, &have_lu, &crossed);
    /* the first increment from the start state fails: a mechanism under the
     * start loads (a body on a hinge, a pinned rod given at an angle) whose
     * equilibrium is a finite swing away however small the increment;
     * pseudo-transient continuation from the start state (statics_ptc.c) */
    if (sv == 0.0 && !ptc_tried && (crossed || (st != COSROD_OK && st != COSROD_ERR_CALLBACK &&
                                                  st != COSROD_ERR_INTERRUPTED))) {
      ptc_tried = 1;
      stats_add_counts(s, stats);
      memcpy(s->qw, s->qc, sizeof(double) * (size_t)s->nq);
      crossed = 0;
      st = statics_ptc(s, path_t(pa, sv + ds), path_mu(pa, sv + ds), s->qw, &iters, &res);
      if (st == COSROD_OK) st = monitor(s, pa, sv + ds, s->qw, neg_c, &neg_n, &have_lu, &crossed);
      if (st == COSROD_OK && !crossed) have_prev = 0; /* no curvature term across the swing */
    }
    stats_add_counts(s, stats);
    if (st == COSROD_ERR_CALLBACK) return st; /* fatal load callback */
    /* flag polled in the LU (status.h): stop with the last converged state */
    if (st == COSROD_ERR_INTERRUPTED) {
      memcpy(q, s->qc, sizeof(double) * (size_t)s->nq);
      return st;
    }
    if (st != COSROD_OK || crossed) {
      stats->rejected++;
      stats->fail_residual = crossed ? res : s->sc_min;
      if (crossed) stats->critical = 1;
      ds *= 0.5;
      if (ds < s->opt.min_increment) {
        memcpy(q, s->qc, sizeof(double) * (size_t)s->nq);
        return COSROD_ERR_CONVERGENCE;
      }
      continue;
    }
    stats->critical = 0;
    neg_c = neg_n;
    sv = ds == 1.0 - sv ? 1.0 : (at_stop ? s_target : sv + ds);
    { /* snap to the nominal grid k / increments (no drift: t = 0.24, not 0.24000000000000002) */
      double kk = nearbyint(sv * s->opt.increments);
      if (fabs(sv * s->opt.increments - kk) < 1e-9) sv = kk / s->opt.increments;
    }
    memcpy(s->qprev, s->qc, sizeof(double) * (size_t)s->nq);
    have_prev = 1;
    dsp = ds;
    memcpy(s->qc, s->qw, sizeof(double) * (size_t)s->nq);
    memcpy(q, s->qc, sizeof(double) * (size_t)s->nq);
    stats->increments++;
    if (iters > stats->max_iterations) stats->max_iterations = iters;
    stats->t = at_stop ? t_stop : path_t(pa, sv); /* stops reported exactly */
    stats->residual = res;
    if (cb && cb(user, stats->t, q, iters, res) != 0) return COSROD_ERR_INTERRUPTED;
    if (at_stop) ds = ds_free; /* a clipped increment does not shrink the next one */
    if (iters <= s->opt.fast_iterations) {
      ds *= s->opt.grow;
      if (ds > s->opt.max_increment) ds = s->opt.max_increment;
    }
  }
  return COSROD_OK;
}

/* The stability index of an equilibrium q at fixed t (path pt): the number
 * of negative eigenvalues of K under conservative loads (0 when the index
 * is not judged: non-conservative loads, the monitor off, K singular). */
static int unstable_index(cosrod_statics *s, const path *pt, const double *q, cosrod_statics_stats *stats) {
  if (!s->opt.stop_at_critical || !s->dead_loads) return 0;
  int neg = 0;
  cosrod_status st = factor_at(s, pt, 0.0, q, &neg);
  stats_add_counts(s, stats);
  return st == COSROD_OK && neg > 0 ? neg : 0;
}

/* Equilibrium at fixed t: Newton, else μ-continuation from the equilibrium
 * of the unloaded rod.  Newton converges to the equilibrium nearest its
 * start, stable or not (a pendulum given upright stays upright, a column
 * above its buckling load stays straight).  An unstable one (under
 * conservative loads a negative eigenvalue of K: the potential energy is no
 * minimum there) is disturbed and left to the gradient flow of the energy
 * (pseudo-transient continuation, statics_ptc.c), which runs downhill to an
 * equilibrium; if that one is stable it is returned (stats->replaced),
 * otherwise Newton's, and stats->unstable holds Newton's index either way. */
static cosrod_status continuation(cosrod_statics *s, double t, double *q, cosrod_statics_stats *stats,
                                  int *iters, double *res);

static cosrod_status equilibrium(cosrod_statics *s, double t, double *q, cosrod_statics_stats *stats,
                                 int *iters, double *res) {
  path pt = {t, t, 1.0, 1.0};
  memcpy(s->q0, q, sizeof(double) * (size_t)s->nq);
  cosrod_status st = correct(s, &pt, 0.0, q, iters, res);
  stats_add_counts(s, stats);
  if (st == COSROD_ERR_CALLBACK) return st;
  if (st != COSROD_OK) {
    memcpy(q, s->q0, sizeof(double) * (size_t)s->nq);
    return continuation(s, t, q, stats, iters, res);
  }
  const int neg = unstable_index(s, &pt, q, stats);
  if (neg == 0) return st;
  stats->unstable = neg;
  double *qd = malloc(sizeof(double) * (size_t)s->nq);
  if (!qd) return COSROD_ERR_NOMEM;
  memcpy(qd, q, sizeof(double) * (size_t)s->nq);
  int it_d = 0;
  double res_d = 0.0;
  st = statics_ptc_descend(s, t, 1.0, qd, &it_d, &res_d);
  stats_add_counts(s, stats);
  if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) {
    free(qd);
    return st;
  }
  if (st == COSROD_OK && unstable_index(s, &pt, qd, stats) == 0) {
    memcpy(q, qd, sizeof(double) * (size_t)s->nq);
    *iters += it_d;
    *res = res_d;
    stats->replaced = 1;
  }
  free(qd);
  return COSROD_OK;
}

/* μ-continuation at fixed t from q: the unloaded equilibrium, then the load
 * factor 0 -> 1 with the stability monitor.  On failure q = s->q0. */
static cosrod_status continuation(cosrod_statics *s, double t, double *q, cosrod_statics_stats *stats,
                                  int *iters, double *res) {
  cosrod_status st;
  path pm = {t, t, 0.0, 1.0};
  st = correct(s, &pm, 0.0, q, iters, res);
  stats_add_counts(s, stats);
  if (st != COSROD_OK) {
    if (st != COSROD_ERR_CALLBACK) memcpy(q, s->q0, sizeof(double) * (size_t)s->nq);
    stats->fail_residual = s->sc_min;
    return st;
  }
  cosrod_statics_stats sub;
  memset(&sub, 0, sizeof sub);
  st = march(s, &pm, q, NULL, NULL, &sub, 1.0);
  if (st != COSROD_OK && st != COSROD_ERR_CALLBACK) memcpy(q, s->q0, sizeof(double) * (size_t)s->nq);
  stats->critical = sub.critical;
  if (sub.min_step > 0.0 && (stats->min_step == 0.0 || sub.min_step < stats->min_step))
    stats->min_step = sub.min_step;
  stats->rejected += sub.rejected;
  stats->newton += sub.newton;
  stats->jacobians += sub.jacobians;
  stats->residuals += sub.residuals;
  if (sub.max_iterations > *iters) *iters = sub.max_iterations;
  *res = sub.residual;
  if (st != COSROD_OK) stats->fail_residual = sub.fail_residual;
  return st;
}

cosrod_status cosrod_statics_equilibrium_at(cosrod_statics *s, double t, double *q,
                                            cosrod_statics_stats *stats) {
  if (!s || !q) return COSROD_ERR_INVALID;
  cosrod_statics_stats loc;
  if (!stats) stats = &loc;
  memset(stats, 0, sizeof *stats);
  double t0 = now_seconds();
  int iters = 0;
  double res = 0.0;
  cosrod_status st = equilibrium(s, t, q, stats, &iters, &res);
  if (st == COSROD_OK) {
    stats->t = t;
    stats->residual = res;
    stats->max_iterations = iters;
  }
  stats->wall_time = now_seconds() - t0;
  return st;
}

cosrod_status cosrod_statics_solve(cosrod_statics *s, double *q, double t_from, double t_to,
                                   cosrod_statics_callback cb, void *user, cosrod_statics_stats *stats) {
  if (!s || !q) return COSROD_ERR_INVALID;
  cosrod_statics_stats loc;
  if (!stats) stats = &loc;
  memset(stats, 0, sizeof *stats);
  stats->t = t_from;
  double w0 = now_seconds();
  int iters = 0;
  double res = 0.0;
  cosrod_status st = equilibrium(s, t_from, q, stats, &iters, &res);
  if (st != COSROD_OK) {
    stats->wall_time = now_seconds() - w0;
    return st;
  }
  stats->residual = res;
  if (cb && cb(user, t_from, q, iters, res) != 0) {
    stats->wall_time = now_seconds() - w0;
    return COSROD_ERR_INTERRUPTED;
  }
  if (t_to != t_from) {
    path pa = {t_from, t_to, 1.0, 1.0};
    st = march(s, &pa, q, cb, user, stats, fabs(t_to - t_from));
  }
  stats->wall_time = now_seconds() - w0;
  return st;
}

cosrod_status statics_correct_at(cosrod_statics *s, double t, double mu, double *q) {
  path pa = {t, t, mu, mu};
  int iters = 0;
  double res = 0.0;
  return correct(s, &pa, 0.0, q, &iters, &res);
}

/* ---- for the arc-length solver (statics_arclen.c) ------------------------ */

void statics_limit_step(const cosrod_statics *s, double *dv) { limit_step(s, dv); }

void statics_chart_diff(const cosrod_statics *s, const double *q, const double *qa, double *delta) {
  chart_diff(s, q, qa, delta);
}

cosrod_status statics_factor_index(cosrod_statics *s, double t, double mu, const double *q, int *neg) {
  path pa = {t, t, mu, mu};
  *neg = 0;
  return factor_at(s, &pa, 0.0, q, neg);
}

cosrod_status statics_equilibrium_mu(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res) {
  path pa = {t, t, mu, mu};
  return correct(s, &pa, 0.0, q, iters, res);
}
