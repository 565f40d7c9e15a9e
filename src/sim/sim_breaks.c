// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, part 3: breakpoints of dynamic runs.
 *
 * The right-hand side of a rod is not smooth at the keyframe times of its
 * prescribed ends (a velocity kink of linear keyframes, the end of the
 * keyframes, a jump of the acceleration of cubic ones) and at the ends of
 * `ramp` and `active` load windows.  A step across such a time sees a
 * non-smooth function: the error estimate does not shrink with h and the
 * step size collapses ("step size too small at t = 1.0000000000000009"), or
 * a step of the natural size jumps over a short load window altogether.
 * So the run is integrated piecewise (HW I §II.6, "discontinuous
 * right-hand sides": restart at the known discontinuities): from breakpoint
 * to breakpoint, the method restarted at each with a fresh step-size
 * selection (cosrod_integrator_init: h = h0, Hairer's initial guess), and
 * on the piece [a, b] the rods are evaluated at t clamped to [a⁺, b⁻]
 * (the neighbouring doubles), i.e. the one-sided limits of the right-hand
 * side at the ends of the piece (sim_tclamp).  The state is continuous at a
 * breakpoint, so the dense output stays continuous across pieces.
 *
 * Energy: the power integrals miss the impulsive work of a velocity jump of
 * a prescribed end (the jump of the prescribed vertices' kinetic energy at
 * unchanged state); at every breakpoint the mechanical energy is evaluated
 * with both one-sided limits and the difference is booked as external work,
 * so the balance stays closed across kinks.  Nothing is allocated here
 * after sim_breaks_collect. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "system/linsolve.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void add_time(double *buf, size_t *n, double t, double T) {
  if (t > 0.0 && t < T) buf[(*n)++] = t;
}

cosrod_status sim_breaks_collect(cosrod_sim *s, double T) {
  const cosrod_scenario *sc = s->sc;
  size_t cap = 0;
  for (size_t r = 0; r < sc->nrods; r++) {
    const cosrod_sc_rod *sr = &sc->rods[r];
    for (int e = 0; e < 2; e++) cap += sr->ends[e].position.n + sr->ends[e].orientation.n;
    cap += 2 * sr->nloads;
  }
  for (size_t b = 0; b < sc->nbodies; b++) /* bodies driven by keyframes (system/couple.c) */
    cap += sc->bodies[b].motion_position.n + sc->bodies[b].motion_orientation.n;
  s->brk = malloc((cap ? cap : 1) * sizeof *s->brk);
  if (!s->brk) return COSROD_ERR_NOMEM;
  size_t n = 0;
  for (size_t r = 0; r < sc->nrods; r++) {
    const cosrod_sc_rod *sr = &sc->rods[r];
    for (int e = 0; e < 2; e++) {
      const cosrod_sc_end *se = &sr->ends[e];
      /* prescribed ends and moving pinned ends (position keyframes) */
      if (se->type != COSROD_SC_END_PRESCRIBED && se->type != COSROD_SC_END_PINNED) continue;
      /* one keyframe is a constant position: no kink */
      if (se->position.n > 1)
        for (size_t i = 0; i < se->position.n; i++) add_time(s->brk, &n, se->position.t[i], T);
      if (se->orientation.n > 1)
        for (size_t i = 0; i < se->orientation.n; i++) add_time(s->brk, &n, se->orientation.t[i], T);
    }
    for (size_t i = 0; i < sr->nloads; i++) {
      const cosrod_sc_load *l = &sr->loads[i];
      if (l->profile != COSROD_SC_PROFILE_RAMP && l->profile != COSROD_SC_PROFILE_ACTIVE) continue;
      add_time(s->brk, &n, l->t0, T);
      add_time(s->brk, &n, l->t1, T);
    }
  }
  for (size_t b = 0; b < sc->nbodies; b++) {
    const cosrod_sc_body *sb = &sc->bodies[b];
    if (sb->motion_position.n > 1)
      for (size_t i = 0; i < sb->motion_position.n; i++) add_time(s->brk, &n, sb->motion_position.t[i], T);
    if (sb->motion_orientation.n > 1)
      for (size_t i = 0; i < sb->motion_orientation.n; i++) add_time(s->brk, &n, sb->motion_orientation.t[i], T);
  }
  qsort(s->brk, n, sizeof *s->brk, cmp_double);
  /* merge times closer than the driver's smallest step (0.1 |h| > |t| u) and
   * drop a last one that would leave a sliver before T */
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    double tol = 1e3 * DBL_EPSILON * fmax(1.0, fabs(s->brk[i]));
    double prev = m ? s->brk[m - 1] : 0.0;
    if (s->brk[i] - prev <= tol || T - s->brk[i] <= tol) continue;
    s->brk[m++] = s->brk[i];
  }
  s->nbrk = m;
  if (m > 0 && !(s->bwork = malloc(3 * (size_t)s->sys.m->ny * sizeof *s->bwork))) return COSROD_ERR_NOMEM;
  s->sys.d->seg_lo = -INFINITY;
  s->sys.d->seg_hi = INFINITY;
  return COSROD_OK;
}

static void stats_add(cosrod_integrate_stats *o, const cosrod_integrate_stats *a,
                      const cosrod_integrate_stats *b) {
  o->nfev = a->nfev + b->nfev;
  o->njev = a->njev + b->njev;
  o->nsteps = a->nsteps + b->nsteps;
  o->naccept = a->naccept + b->naccept;
  o->nreject = a->nreject + b->nreject;
  o->nconvfail = a->nconvfail + b->nconvfail;
  o->ndecomp = a->ndecomp + b->ndecomp;
  o->nsolve = a->nsolve + b->nsolve;
  o->nnewton = a->nnewton + b->nnewton;
  o->nstiff = a->nstiff + b->nstiff;
  o->nproject = a->nproject + b->nproject;
  o->nfail_rhs = a->nfail_rhs + b->nfail_rhs;
  o->npattern = a->npattern + b->npattern;
  o->wall_time = a->wall_time + b->wall_time;
}

void sim_stats_sync(cosrod_sim *s) {
  if (s->integ) stats_add(&s->dstats, &s->dstats_done, cosrod_integrator_stats(s->integ));
}

/* Mechanical energy (kinetic + elastic + gravity) of state y at t (clamped
 * to the current piece) and the rates there; -1 if an evaluation fails. */
static int mech_energy(cosrod_sim *s, double t, const double *y, double *E, double *rW, double *rD) {
  if (sim_eval_all(&s->sys, t, y, rW, rD) != COSROD_OK) return -1;
  double e = 0.0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const cosrod_rod_energy *re = &s->sys.d->data[r]->energy;
    e += re->kinetic_trans + re->kinetic_rot + re->shear_ext + re->bend_tors + re->gravity;
  }
  *E = e;
  return 0;
}

/* Initial step at a restart from (t, y) for the SUNDIALS methods (whose own
 * guess, 0.001 of the span limited by |y'|, lands far inside the fast
 * transient a kink excites, from which BDF's error-test and Newton failures
 * do not recover): Hairer's starting step (HNW I §II.4) for order 1, the
 * order of BDF's first step, over the differential components.  0 if f fails. */
static double restart_step(cosrod_sim *s, double t, const double *y, double span) {
  int n = s->sys.m->ny;
  double *f0 = s->bwork, *y1 = s->bwork + n, *f1 = s->bwork + 2 * n;
  double rtol = s->opts.rtol, atol = s->opts.atol, d0 = 0.0, d1 = 0.0, d2 = 0.0;
  int nd = 0;
  if (sim_rhs(t, y, f0, &s->sys) != 0) return 0.0;
  for (int i = 0; i < n; i++) {
    if (s->sys.m->dae_id[i] == 0.0) continue;
    double sk = atol + rtol * fabs(y[i]);
    d0 += (y[i] / sk) * (y[i] / sk);
    d1 += (f0[i] / sk) * (f0[i] / sk);
    nd++;
  }
  if (nd == 0) return 0.0;
  d0 = sqrt(d0 / nd);
  d1 = sqrt(d1 / nd);
  double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  h0 = fmin(h0, span);
  for (int i = 0; i < n; i++) y1[i] = s->sys.m->dae_id[i] == 0.0 ? y[i] : y[i] + h0 * f0[i];
  if (sim_rhs(t + h0, y1, f1, &s->sys) != 0) return 0.0;
  for (int i = 0; i < n; i++) {
    if (s->sys.m->dae_id[i] == 0.0) continue;
    double sk = atol + rtol * fabs(y[i]), e = (f1[i] - f0[i]) / sk;
    d2 += e * e;
  }
  d2 = sqrt(d2 / nd) / h0;
  double dm = fmax(d1, d2);
  double h1 = dm <= 1e-15 ? fmax(1e-6, 1e-3 * h0) : sqrt(0.01 / dm);
  return fmin(fmin(100.0 * h0, h1), span);
}

/* Restart at the breakpoint b with state y (ny, copied): the new piece's
 * clamp [b⁺, hi], the impulsive work, consistent multipliers (DAE mass
 * form), the rates at b⁺ and the method re-initialised. */
static cosrod_status restart_at(cosrod_sim *s, double b, double hi, double *y) {
  double Em = 0.0, Ep = 0.0;
  int acc = s->need_rates > 0;
  if (acc && mech_energy(s, b, y, &Em, NULL, NULL) != 0) return COSROD_ERR_NONFINITE;
  s->sys.d->seg_lo = nextafter(b, INFINITY);
  s->sys.d->seg_hi = hi;
  if (s->sys.m->form == COSROD_FORM_DAE && s->sys.m->dae_mass) {
    /* the algebraic multipliers follow the right-hand limit */
    sim_couple_rhs_begin(&s->sys, s->sys.d->seg_lo, y); /* bodies: the rods' ends at b⁺ */
    for (size_t r = 0; r < s->sys.m->nrods; r++) {
      const cosrod_rod *rod = s->sys.m->rods[r];
      int nq = cosrod_rod_nq(rod);
      sim_gather(&s->sys, r, y, s->sys.d->yl);
      cosrod_status st = cosrod_rod_lambda(rod, s->sys.d->data[r], s->sys.m->form, s->sys.d->seg_lo, s->sys.d->yl, s->sys.d->yl + 2 * nq);
      if (st != COSROD_OK) return st;
      sim_scatter(&s->sys, r, s->sys.d->yl, y);
    }
    if (sim_couple_kirch_lambda(&s->sys, s->sys.d->seg_lo, y) != 0) return COSROD_ERR_NONFINITE; /* Kirchhoff rods on bodies */
  }
  if (acc) {
    if (mech_energy(s, b, y, &Ep, &s->acc.rW_prev, &s->acc.rD_prev) != 0) return COSROD_ERR_NONFINITE;
    s->acc.W += Ep - Em;
    s->acc.impulsive_work += Ep - Em;
    s->acc.t = b;
  }
  stats_add(&s->dstats_done, &s->dstats_done, cosrod_integrator_stats(s->integ));
  double h0 = 0.0, span = (isfinite(hi) ? hi : s->sc->analysis.t_end) - b;
  if ((cosrod_integrator_type(s->integ)->flags & COSROD_STEP_OWN_CLIP) && s->opts.h0 == 0.0)
    h0 = restart_step(s, s->sys.d->seg_lo, y, span);
  cosrod_status st = cosrod_integrator_init(s->integ, b, y, NULL);
  if (st == COSROD_OK && h0 > 0.0) st = cosrod_integrator_set_step(s->integ, h0);
  return st;
}

static cosrod_status pieces(cosrod_sim *s, size_t i0, double T, cosrod_output_spec *spec);

/* Far self-contact met on the band (sim_step_cb stopped the piece at the end
 * of an accepted step): the sparse contact path with the pattern of the
 * state reached and a new integrator (the band one was built for the old
 * problem shape) initialised there with the last step size (a method
 * restart, as at a breakpoint); counters and accounts carry over. */
static cosrod_status switch_linsolve(cosrod_sim *s, cosrod_output_spec *spec) {
  s->lin_switch = 0;
  const double t = cosrod_integrator_t(s->integ), h = s->h_last;
  memcpy(s->sys.d->yd, cosrod_integrator_y(s->integ), (size_t)s->sys.m->ny * sizeof *s->sys.d->yd);
  s->sys.mb = &s->sysm; /* the problem's shape changes: the model is rebuilt in this part */
  cosrod_status st = sim_linsolve_switch(&s->sys, t, s->sys.d->yd);
  s->sys.mb = NULL;
  if (st != COSROD_OK) return st;
  stats_add(&s->dstats_done, &s->dstats_done, cosrod_integrator_stats(s->integ));
  const cosrod_step_type *type = cosrod_integrator_type(s->integ);
  cosrod_integrator_free(s->integ);
  s->integ = cosrod_integrator_create(type, &s->sys.m->prob, &s->opts, &st);
  if (!s->integ) return st != COSROD_OK ? st : COSROD_ERR_NOMEM;
  spec->include_t0 = 0;
  st = cosrod_integrator_init(s->integ, t, s->sys.d->yd, NULL);
  if (st == COSROD_OK && isfinite(h) && h > 0.0) st = cosrod_integrator_set_step(s->integ, h);
  return st;
}

cosrod_status sim_evolve_pieces(cosrod_sim *s, double T, cosrod_output_spec *spec, double t_switch,
                                const double *y_switch) {
  const int sw = y_switch != NULL;
  /* a resumed run (sim_resume.c) starts at t_resume with y0, its counters and
   * impulsive work carried over; a breakpoint at t_resume itself is still
   * restarted at (the checkpoint's frame there was written before it); a
   * switch of method continues behind a breakpoint at t_switch */
  const int resume = !sw && s->resumed;
  const double t0 = sw ? t_switch : resume ? s->t_resume : 0.0;
  if (!sw) memset(&s->dstats, 0, sizeof s->dstats);
  if (!sw && !resume) {
    memset(&s->dstats_done, 0, sizeof s->dstats_done);
    s->acc.impulsive_work = 0.0;
  }
  size_t i0 = 0;
  while (i0 < s->nbrk && (sw ? s->brk[i0] <= t0 : s->brk[i0] < t0)) i0++;
  s->sys.d->seg_lo = i0 ? nextafter(s->brk[i0 - 1], INFINITY) : -INFINITY;
  /* every piece ends with its left limit, the last one at T too (a keyframe
   * at t_end: the velocity reaching it, not the hold after it) */
  s->sys.d->seg_hi = nextafter(i0 < s->nbrk ? s->brk[i0] : T, -INFINITY);
  cosrod_status st = resume ? sim_resume_begin(s) : COSROD_OK;
  if (st == COSROD_OK) st = cosrod_integrator_init(s->integ, t0, sw ? y_switch : s->sys.d->y0, NULL);
  if (st == COSROD_OK && resume && s->h_resume > 0.0) st = cosrod_integrator_set_step(s->integ, s->h_resume);
  if (st != COSROD_OK) {
    sim_stats_sync(s);
    return st;
  }
  return pieces(s, i0, T, spec);
}

/* The pieces i0.. of a run whose integrator is initialised in piece i0. */
static cosrod_status pieces(cosrod_sim *s, size_t i0, double T, cosrod_output_spec *spec) {
  cosrod_status st = COSROD_OK;
  for (size_t i = i0; st == COSROD_OK && i <= s->nbrk; i++) {
    double b = i < s->nbrk ? s->brk[i] : T;
    if (i > i0) {
      /* the state at the breakpoint (the integrator's own buffer is re-initialised) */
      double a = s->brk[i - 1];
      memcpy(s->sys.d->yd, cosrod_integrator_y(s->integ), (size_t)s->sys.m->ny * sizeof *s->sys.d->yd);
      st = restart_at(s, a, nextafter(b, -INFINITY), s->sys.d->yd);
      if (st != COSROD_OK) {
        snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "restart at the breakpoint t = %.17g failed (%s)", a,
                 cosrod_strerror(st));
        s->t_fail = a;
        break;
      }
      spec->include_t0 = 0;
    }
    /* a resumed run that starts on a breakpoint has nothing left of its first piece */
    if (!s->resumed || b > cosrod_integrator_t(s->integ)) st = cosrod_integrator_evolve(s->integ, b, spec);
    if (st == COSROD_ERR_INTERRUPTED && s->lin_switch) { /* far self-contact: on with the sparse path */
      st = switch_linsolve(s, spec);
      if (st == COSROD_OK && b > cosrod_integrator_t(s->integ)) st = cosrod_integrator_evolve(s->integ, b, spec);
    }
  }
  sim_stats_sync(s);
  return st;
}
