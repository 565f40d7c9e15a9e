// SPDX-License-Identifier: Apache-2.0
/* Static analyses, part 2: arc-length control and assembly
 * paths, and the gravity of static frames.
 *
 * control: arc-length -- cosrod_statics_solve_arclength at the fixed
 * pseudo-time 1 (prescribed ends at their t = 1 values; moving ends are
 * refused by the scenario), every load and gravity times the load factor λ
 * from 0 to 1.  λ is not monotone along the path, so the run's pseudo-time
 * t is the normalised arc length of the path (1 = the length of the first
 * tangent line from λ = 0 to 1, statics.h); every converged step is a frame
 * and a row of increments.csv with λ, the displacement of the monitored
 * vertex (the first point load's vertex, over the rods in order, else the
 * end N of rod 0), the stability index and the critical-point flag.  Limit
 * and bifurcation points are kept for summary.json (cosrod_sim_critical).
 * Several rods: one system (cosrod_statics_create_system), one common λ and
 * one path metric over all rods, every rod with its own loads.
 *
 * path: keyframes -- the ordinary continuation over [0, t_end], t_end the
 * last keyframe of the prescribed ends of all rods and of the bodies driven
 * by motion keyframes, increments landing on every keyframe time of every
 * rod and body (kinks of linear keyframes), gravity and loads at full
 * value from t = 0 (the start is the equilibrium under them, found by load-
 * factor continuation).
 *
 * Energy of static frames: the rods' data hold the full weight; the
 * gravity energy reported is that of the gravity acting at the frame
 * (ramped: clamp(t, 0, 1) g; arc-length: λ g). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

cosrod_status sim_static_setup(cosrod_sim *s, cosrod_statics_options *o) {
  const cosrod_scenario *sc = s->sc;
  if (s->analysis != COSROD_SC_ANALYSIS_STATIC) return COSROD_OK;
  if (sc->analysis.arc_length) {
    /* monitored: the first point load's vertex over the rods in order, else rod 0's end N */
    s->arc = 1;
    s->arc_rod = 0;
    s->arc_vertex = cosrod_rod_nseg(s->sys.m->rods[0]);
    int found = 0;
    for (size_t r = 0; r < s->sys.m->nrods && !found; r++)
      for (size_t i = 0; i < sc->rods[r].nloads && !found; i++)
        if (sc->rods[r].loads[i].vertex >= 0) {
          s->arc_rod = (int)r;
          s->arc_vertex = (int)sc->rods[r].loads[i].vertex;
          found = 1;
        }
    const cosrod_rod *rod = s->sys.m->rods[s->arc_rod];
    const int N = cosrod_rod_nseg(rod);
    if (s->arc_vertex > N) s->arc_vertex = N;
    s->arc_x = malloc((size_t)(N + 1) * 3 * sizeof *s->arc_x);
    s->arc_x0 = malloc((size_t)(N + 1) * 3 * sizeof *s->arc_x0);
    if (!s->arc_x || !s->arc_x0) return COSROD_ERR_NOMEM;
    cosrod_status st =
        cosrod_rod_unpack(rod, s->sys.m->form, 1.0, s->sys.d->y0 + s->sys.m->off_r[s->arc_rod], s->arc_x0, NULL, NULL, NULL);
    if (st != COSROD_OK) return st;
    o->gravity_ramp = 0; /* λ scales gravity like every other load */
  }
  if (sc->analysis.keyframe_path) {
    /* the keyframe times of every rod's prescribed ends, ascending, once each */
    o->gravity_ramp = 0;
    size_t n = 0;
    for (size_t r = 0; r < s->sys.m->nrods; r++)
      for (int e = 0; e < 2; e++) n += sc->rods[r].ends[e].position.n + sc->rods[r].ends[e].orientation.n;
    for (size_t b = 0; b < sc->nbodies; b++) n += sc->bodies[b].motion_position.n + sc->bodies[b].motion_orientation.n;
    s->kstops = malloc((n ? n : 1) * sizeof *s->kstops);
    if (!s->kstops) return COSROD_ERR_NOMEM;
    int k = 0;
    for (size_t r = 0; r < s->sys.m->nrods; r++)
      for (int e = 0; e < 2; e++) {
        const cosrod_sc_keyframes *kf[2] = {&sc->rods[r].ends[e].position, &sc->rods[r].ends[e].orientation};
        for (int j = 0; j < 2; j++)
          for (size_t i = 0; i < kf[j]->n; i++)
            if (kf[j]->t[i] > 0.0 && kf[j]->t[i] < sc->analysis.t_end) s->kstops[k++] = kf[j]->t[i];
      }
    for (size_t b = 0; b < sc->nbodies; b++) { /* bodies driven by motion keyframes (system/couple.c) */
      const cosrod_sc_keyframes *kf[2] = {&sc->bodies[b].motion_position, &sc->bodies[b].motion_orientation};
      for (int j = 0; j < 2; j++)
        for (size_t i = 0; i < kf[j]->n; i++)
          if (kf[j]->t[i] > 0.0 && kf[j]->t[i] < sc->analysis.t_end) s->kstops[k++] = kf[j]->t[i];
    }
    qsort(s->kstops, (size_t)k, sizeof *s->kstops, cmp_double);
    int u = 0;
    for (int i = 0; i < k; i++)
      if (u == 0 || s->kstops[i] != s->kstops[u - 1]) s->kstops[u++] = s->kstops[i];
    s->nkstops = u;
    o->stops = s->kstops;
    o->nstops = u;
  }
  return COSROD_OK;
}

void sim_static_arc_free(cosrod_sim *s) {
  free(s->arc_x);
  free(s->arc_x0);
  free(s->kstops);
}

void sim_static_scale_gravity(cosrod_sim *s, double t) {
  if (s->analysis != COSROD_SC_ANALYSIS_STATIC) return;
  double g = 1.0;
  if (s->arc)
    g = s->arc_lambda;
  else if (!s->sc->analysis.gravity_constant && !s->sc->analysis.keyframe_path)
    g = fmin(fmax(t, 0.0), 1.0);
  cosrod_sim_energy *e = &s->energy;
  e->gravity *= g;
  e->balance = e->kinetic + e->elastic + e->gravity + e->dissipated - e->external_work;
}

/* |x_v(q) - x_v(0)| of the monitored vertex (q: the system's q). */
static double monitored_displacement(cosrod_sim *s, const double *q) {
  const cosrod_rod *rod = s->sys.m->rods[s->arc_rod];
  const int nq = cosrod_rod_nq(rod), ny = s->sys.m->ny_r[s->arc_rod];
  memcpy(s->sys.d->yl, q + s->sys.m->qoff_r[s->arc_rod], (size_t)nq * sizeof *q);
  memset(s->sys.d->yl + nq, 0, (size_t)(ny - nq) * sizeof *s->sys.d->yl);
  if (cosrod_rod_unpack(rod, s->sys.m->form, 1.0, s->sys.d->yl, s->arc_x, NULL, NULL, NULL) != COSROD_OK) return NAN;
  const double *a = s->arc_x + 3 * s->arc_vertex, *b = s->arc_x0 + 3 * s->arc_vertex;
  double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static int arc_step(void *user, const cosrod_statics_arc_point *pt, const double *q) {
  cosrod_sim *s = user;
  if (pt->critical != COSROD_CRITICAL_NONE && pt->q_crit && s->ncrit < sizeof s->crit / sizeof s->crit[0]) {
    struct sim_critical *c = &s->crit[s->ncrit++];
    c->type = (int)pt->critical;
    c->t = pt->s_crit;
    c->lambda = pt->lambda_crit;
    c->disp = monitored_displacement(s, pt->q_crit);
  }
  s->arc_lambda = pt->lambda;
  s->arc_index = pt->index;
  s->arc_critical = (int)pt->critical;
  s->arc_disp = monitored_displacement(s, q);
  /* the frame: the state at the fixed pseudo-time 1, t = arc length */
  sim_static_q_to_y(s, q, s->sys.d->y);
  if (sim_eval_all(&s->sys, 1.0, s->sys.d->y, NULL, NULL) != COSROD_OK) return -1;
  sim_contact_commit(s->sys.d->contact); /* static friction: anchors follow the converged point */
  s->energy = sim_energy_from_data(&s->sys, 0.0, 0.0);
  sim_static_scale_gravity(s, 1.0);
  s->t_now = s->t_frame = pt->s;
  int rc = 0;
  if (s->obs && s->obs->frame) rc = s->obs->frame(s->obs->user, s, pt->s);
  if (rc == 0 && s->obs && s->obs->increment)
    rc = s->obs->increment(s->obs->user, s, pt->s, pt->iterations, pt->residual);
  if (rc != 0) {
    s->frame_rc = rc;
    return rc;
  }
  return s->obs && s->obs->stop && *s->obs->stop ? 1 : 0;
}

cosrod_status sim_run_static_arc(cosrod_sim *s) {
  double *q = s->sys.d->yd; /* (ny >= nq_sys) the system's q */
  sim_static_y_to_q(s, s->sys.d->y0, q);
  s->frame_rc = 0;
  s->ncrit = 0;
  s->t_frame = -INFINITY;
  s->arc_lambda = 0.0;
  cosrod_statics_arc_options o = cosrod_statics_arc_default_options();
  o.max_steps = s->sc->analysis.max_steps;
  o.branch_switch = s->sc->analysis.switch_branch;
  cosrod_statics_stats ss;
  double lam = 0.0;
  cosrod_status st = cosrod_statics_solve_arclength(s->stat[0], q, 1.0, &o, arc_step, s, &lam, &ss);
  cosrod_integrate_stats *is = &s->sstats;
  memset(is, 0, sizeof *is);
  is->nfev = ss.residuals;
  is->njev = ss.jacobians;
  is->nsteps = ss.increments + ss.rejected;
  is->naccept = ss.increments;
  is->nreject = ss.rejected;
  is->ndecomp = ss.newton + ss.jacobians;
  is->nnewton = ss.newton;
  is->wall_time = ss.wall_time;
  if (st == COSROD_OK) return st;
  if (st == COSROD_ERR_INTERRUPTED && s->frame_rc < 0) st = COSROD_ERR_CALLBACK;
  if (st == COSROD_ERR_INTERRUPTED)
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "stopped at load factor %.17g (t = %.17g)", lam, s->t_now);
  else if (st == COSROD_ERR_CONVERGENCE && ss.increments >= o.max_steps)
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg,
             "arc-length continuation: %ld steps (analysis.max_steps) without reaching the load factor 1 (at "
             "%.6g, "
             "t = %.6g)",
             ss.increments, lam, s->t_now);
  else
    snprintf(
        s->sys.d->msg, sizeof s->sys.d->msg,
        "arc-length continuation failed at load factor %.17g, t = %.17g (%s; arc %.3g, scaled residual %.3g "
        "of the failed step)",
        lam, s->t_now, cosrod_strerror(st), ss.min_step, ss.fail_residual);
  s->t_fail = s->t_now;
  return st;
}

int cosrod_sim_arc_step(const cosrod_sim *s, double *load_factor, double *displacement, int *index,
                        int *critical) {
  if (!s || !s->arc) return 0;
  if (load_factor) *load_factor = s->arc_lambda;
  if (displacement) *displacement = s->arc_disp;
  if (index) *index = s->arc_index;
  if (critical) *critical = s->arc_critical;
  return 1;
}

size_t cosrod_sim_ncritical(const cosrod_sim *s) { return s ? s->ncrit : 0; }

cosrod_status cosrod_sim_critical(const cosrod_sim *s, size_t i, const char **type, double *t,
                                  double *load_factor, double *displacement) {
  if (!s || i >= s->ncrit) return COSROD_ERR_INVALID;
  const struct sim_critical *c = &s->crit[i];
  if (type) *type = c->type == COSROD_CRITICAL_LIMIT ? "limit" : "bifurcation";
  if (t) *t = c->t;
  if (load_factor) *load_factor = c->lambda;
  if (displacement) *displacement = c->disp;
  return COSROD_OK;
}
