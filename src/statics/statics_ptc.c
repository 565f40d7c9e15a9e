// SPDX-License-Identifier: Apache-2.0
/* Pseudo-transient continuation (PTC) of the statics corrector: C. T. Kelley
 * and D. E. Keyes, "Convergence analysis of pseudo-transient continuation",
 * SIAM J. Numer. Anal. 35 (1998) 508-523; T. S. Coffey, C. T. Kelley and
 * D. E. Keyes, "Pseudotransient continuation and differential-algebraic
 * equations", SIAM J. Sci. Comput. 25 (2003) 553-569.
 *
 * Where a part of the model is a mechanism under the loads of the start
 * state (a body on a hinge, a pinned rod given at an angle, with gravity
 * ramped from zero), the equilibrium lies a finite swing away however small
 * the load increment, and Newton from there (whose tangent is singular or
 * indefinite along the swing) wanders.  PTC solves instead
 *   (K + M/Δτ) δ = r,   q <- q ⊕ δ,
 * one linearised implicit-Euler step of the gradient flow M q̇ = r (the
 * overdamped motion under the out-of-balance forces, which descends the
 * potential energy to a stable equilibrium), with M the lumped masses of the
 * rods (ρAδs_n per vertex coordinate, ρΔs (I1, I2, J) per segment) and the
 * blocks' (m, J), zero on the multiplier and constraint rows (the
 * constraints stay linearised exactly: the index-1 DAE form of Coffey et
 * al.).  Δτ grows by switched evolution relaxation, Δτ_{k+1} = Δτ_k
 * ‖r_k‖/‖r_{k+1}‖ (Mulder and van Leer; Kelley and Keyes §2), here by at
 * least 2 and at most 10 per accepted step and by 1/4 on a rejected one
 * (implicit_step), so the iteration turns into Newton as the residual
 * drops and converges quadratically at the end.  Convergence is the corrector's own test
 * (statics_residual's excess at the roundoff floor): the final phase is
 * handed to the Newton corrector once the state is in its basin. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "statics/statics_internal.h"

/* The flow's M (statics_internal.h): also the mass of modes_system.c. */
void statics_lumped_mass(const cosrod_statics *s, double *m) {
  memset(m, 0, sizeof(double) * (size_t)s->nv);
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *pt = &s->part[r];
    const cosrod_rod_view *rv = &pt->rv;
    for (int n = 0; n <= rv->N; ++n)
      for (int j = 0; j < rv->nd[n]; ++j) m[pt->v0 + pt->ov[n] + j] = rv->mv[n];
    for (int k = 0; k < rv->N; ++k)
      for (int j = 0; j < 3; ++j) m[pt->v0 + pt->os[k] + j] = rv->Ib[3 * k + j];
  }
  for (int b = 0; b < s->nblk; ++b)
    for (int j = 0; j < 6; ++j) m[s->bv0[b] + j] = fmax(s->blk.mass[6 * b + j], 0.0);
}

/* Largest weighted rate max_i w_i |r_i| / M_i of the gradient flow (the
 * translations weighted by 1/Δs_min, rotations by 1: statics.c's wnorm). */
static double flow_rate(const cosrod_statics *s, const double *m, const double *r) {
  double v = 0.0;
  for (int i = 0; i < s->nv; ++i)
    if (m[i] > 0.0 && s->wnorm[i] > 0.0) v = fmax(v, s->wnorm[i] * fabs(r[i]) / m[i]);
  return v;
}

/* Weighted max norm of a step (statics.c's wnorm: δx/Δs_min, δθ). */
static double wmax(const cosrod_statics *s, const double *d) {
  double v = 0.0;
  for (int i = 0; i < s->nv; ++i) v = fmax(v, s->wnorm[i] * fabs(d[i]));
  return v;
}

/* One pseudo-time step from q: the implicit-Euler equation
 *   F(q') = r(q') - M (q' ⊖ q)/Δτ = 0
 * solved by Newton from q' = q (its first iteration is the PTC step of
 * Kelley and Keyes, (K + M/Δτ) δ = r) into qt, rt (its residual), *sct.
 * Further iterations (Jacobian at q') matter for rods: the linear step moves
 * vertices along straight lines, so a swing by δφ stretches a segment by
 * ~δφ²/2 and leaves axial forces ~EA δφ²/2 that dwarf the loads (and the
 * residual norm SER reads); two or three iterations put the step back on the
 * rods' unstretched manifold.  Done when a correction is below 1e-3 of the
 * first; *ok = 0 if that takes more than PTC_INNER iterations, or if the
 * first step is no descent step of the flow (δᵀr <= 0: K + M/Δτ is
 * indefinite along it, near an unstable equilibrium such as an inverted
 * pendulum, where Newton would climb to it); the step is then rejected and
 * retried with a shorter Δτ. */
enum { PTC_INNER = 5, PTC_STALL = 30 };

static cosrod_status implicit_step(cosrod_statics *s, double t, double mu, const double *m, double dtau,
                                   const double *q, const double *r, double *qt, double *rt, double *dv,
                                   double *sct, int *ok) {
  double d0 = 0.0;
  *ok = 0;
  memcpy(qt, q, sizeof(double) * (size_t)s->nq);
  for (int c = 0; c < PTC_INNER; ++c) {
    cosrod_status st = statics_solve_jacobian(s, t, mu, qt, s->J);
    if (st != COSROD_OK) return st;
    for (int i = 0; i < s->nv; ++i)
      if (m[i] > 0.0) cosrod_band_col(s->J, i)[0] -= m[i] / dtau;
    st = statics_factor(s);
    if (st != COSROD_OK) return st;
    if (c == 0) {
      for (int i = 0; i < s->nv; ++i) dv[i] = -r[i];
    } else {
      statics_chart_diff(s, q, qt, dv);
      for (int i = 0; i < s->nv; ++i) dv[i] = -(rt[i] - m[i] * dv[i] / dtau);
    }
    statics_solve(s, dv);
    for (int i = 0; i < s->nv; ++i)
      if (!isfinite(dv[i])) return COSROD_ERR_NONFINITE;
    statics_limit_step(s, dv);
    if (c == 0) { /* a descent step of the flow: δᵀr > 0 (the force rows' work, as the line search) */
      double w = 0.0;
      for (int i = 0; i < s->nv; ++i) w += dv[i] * r[i];
      if (!(w - statics_blocks_mult_work(s, dv, r) > 0.0)) return COSROD_OK;
    }
    cosrod_statics_apply(s, qt, dv);
    s->nnewton++;
    st = statics_residual(s, t, mu, qt, rt, sct);
    if (st != COSROD_OK) return st;
    const double d = wmax(s, dv);
    if (c == 0) d0 = d;
    if (d <= 1e-3 * d0 || s->excess <= 1.0) {
      *ok = 1;
      return COSROD_OK;
    }
  }
  return COSROD_OK;
}

static cosrod_status ptc(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res,
                         int from_saddle);

cosrod_status statics_ptc(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res) {
  return ptc(s, t, mu, q, iters, res, 0);
}

/* A disturbance of the equilibrium q (in place): every coordinate of the
 * increment moved by 0.05 of its scale (statics.c's weights: 5 % of the
 * shortest segment, or 0.05 rad) with a fixed pseudo-random sign and size
 * (Knuth's MMIX linear congruential generator), so that it has a component
 * along every unstable direction and the same input gives the same result. */
static void disturb(cosrod_statics *s, double *q, double *dv) {
  uint64_t x = 0x853c49e6748fea9bULL;
  for (int i = 0; i < s->nv; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = (double)(x >> 11) * 0x1.0p-53 * 2.0 - 1.0; /* in [-1, 1) */
    dv[i] = s->wnorm[i] > 0.0 ? 0.05 * u / s->wnorm[i] : 0.0;
  }
  cosrod_statics_apply(s, q, dv);
}

cosrod_status statics_ptc_descend(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res) {
  disturb(s, q, s->ptcbuf); /* ptc() sets its workspace afresh */
  return ptc(s, t, mu, q, iters, res, 1);
}

/* from_saddle: q is a disturbed unstable equilibrium, whose out-of-balance
 * force grows along much of the fall (a pendulum released near upright: as
 * sin φ): no stall test, the iteration count bounds the descent, and the
 * Newton finish is tried once the force has fallen to 1e-3 of its peak. */
static cosrod_status ptc(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res,
                         int from_saddle) {
  cosrod_status st;
  const int nv = s->nv, nq = s->nq;
  double *m = s->ptcbuf, *r = m + nv, *dv = r + nv, *rt = dv + nv, *qt = rt + nv, *qn = qt + nq;
  statics_lumped_mass(s, m);
  double sc = 0.0;
  *iters = 0;
  st = statics_residual(s, t, mu, q, r, &sc);
  if (st != COSROD_OK) return st;
  *res = sc;
  if (s->excess <= 1.0) return COSROD_OK;
  /* Δτ_0: the explicit flow step Δτ M⁻¹ r moves nothing by more than one
   * Δs_min or one radian (statics.c's weights) */
  const double rate = flow_rate(s, m, r);
  if (!(rate > 0.0)) return COSROD_ERR_CONVERGENCE;
  double dtau = 1.0 / rate, sc_try = sc, sc_best = sc;
  const int max_it = 10 * s->opt.max_newton;
  int stalled = 0; /* accepted steps since the residual last halved */
  for (int it = 0; it < max_it; ++it) {
    if (cosrod_interrupt_pending()) return COSROD_ERR_INTERRUPTED;
    double sct = 0.0;
    int ok = 0;
    st = implicit_step(s, t, mu, m, dtau, q, r, qt, rt, dv, &sct, &ok);
    *iters = it + 1;
    if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) return st;
    if (st != COSROD_OK || !ok) { /* a shorter pseudo-time step */
      dtau *= 0.25;
      continue;
    }
    memcpy(q, qt, sizeof(double) * (size_t)nq);
    memcpy(r, rt, sizeof(double) * (size_t)nv);
    /* switched evolution relaxation, at least doubling after an accepted
     * step (the residual of a long swing falls slowly, as sin φ: pure SER
     * keeps Δτ and a 200-segment rod crawls by a Δs per step) */
    dtau *= fmin(fmax(sc / sct, 2.0), 10.0);
    const double sc_prev = sc;
    sc = sct;
    *res = sc;
    if (s->excess <= 1.0) return COSROD_OK;
    /* no equilibrium downhill (a free rod under a net force drifts away) */
    if (from_saddle) {
      if (sc < sc_prev) sc_try = fmax(sc_try, sc_prev); /* the Newton finish below: from the peak */
    } else if (sc < 0.5 * sc_best)
      sc_best = sc, stalled = 0;
    else if (++stalled > PTC_STALL)
      break;
    /* in Newton's basin: finish with the corrector (on a copy) */
    if (sc <= 1e-3 * sc_try) {
      int ni = 0;
      double nres = 0.0;
      memcpy(qn, q, sizeof(double) * (size_t)nq);
      st = statics_equilibrium_mu(s, t, mu, qn, &ni, &nres);
      if (st == COSROD_OK) {
        memcpy(q, qn, sizeof(double) * (size_t)nq);
        *iters += ni;
        *res = nres;
        return COSROD_OK;
      }
      if (st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED) return st;
      sc_try = sc;
    }
  }
  return COSROD_ERR_CONVERGENCE;
}
