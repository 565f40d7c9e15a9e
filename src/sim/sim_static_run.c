// SPDX-License-Identifier: Apache-2.0
/* Static runs (continuation of [LLA] eqs. 31-32 in the statics module) and
 * the equilibrium start of dynamic runs: every converged increment goes to
 * the increment observer (increments.csv), frames are written at t = 0 and
 * at the output pseudo-times; an output time inside an increment is reached
 * by a separate landing solve (see sim_run.c).  Nothing is allocated. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

void stats_from_statics(cosrod_sim *s, const cosrod_statics_stats *ss) {
  cosrod_integrate_stats *o = &s->sstats;
  memset(o, 0, sizeof *o);
  o->nfev = ss->residuals;
  o->njev = ss->jacobians;
  o->nsteps = ss->increments + ss->rejected;
  o->naccept = ss->increments;
  o->nreject = ss->rejected;
  o->ndecomp = ss->newton + ss->jacobians;
  o->nnewton = ss->newton;
  o->wall_time = ss->wall_time;
}

/* A converged state q (nq) at pseudo-time t: evaluate it and make it a frame. */
int static_frame(cosrod_sim *s, double t, const double *q) {
  sim_static_q_to_y(s, q, s->sys.d->y);
  if (sim_eval_all(&s->sys, t, s->sys.d->y, NULL, NULL) != COSROD_OK) return -1;
  /* Kirchhoff: the constrained F are the statics multipliers (loads of the
   * path at t), not those of the rest accelerations under the full loads */
  for (size_t r = 0; r < s->sys.m->nrods; r++)
    if (cosrod_rod_model_of(s->sys.m->rods[r]) != COSROD_MODEL_COSSERAT &&
        cosrod_statics_kirchhoff_forces(s->stat[0], (int)r, t, q, s->sys.d->data[r]->F) != COSROD_OK)
      return -1;
  s->energy = sim_energy_from_data(&s->sys, 0.0, 0.0);
  sim_static_scale_gravity(s, t); /* the gravity that acts at t (ramped) */
  s->t_now = s->t_frame = t;
  if (s->obs && s->obs->frame) {
    int rc = s->obs->frame(s->obs->user, s, t);
    if (rc != 0) return rc;
  }
  return 0;
}

static void add_landing_stats(cosrod_statics_stats *a, const cosrod_statics_stats *b) {
  a->newton += b->newton;
  a->jacobians += b->jacobians;
  a->residuals += b->residuals;
}

/* Output times strictly before t (and after the last converged pseudo-time
 * tprev): land on each by one continuation increment (predictor + Newton,
 * halved if needed) from the converged state at tprev, with the second
 * solver, so the path itself (and its increments) does not depend on the
 * output times; then the frame at t if t is an output time. */
static int static_outputs(cosrod_sim *s, double t, const double *q) {
  int nq = s->nq_sys;
  while (s->iout < s->nout && s->tout[s->iout] < t - s->out_tol) {
    double to = s->tout[s->iout++];
    if (!(to > s->tprev + s->out_tol)) continue; /* passed already (t = 0 or an earlier frame) */
    memcpy(s->qland, s->qprev, (size_t)nq * sizeof *q);
    cosrod_statics_stats ls;
    memset(&ls, 0, sizeof ls);
    cosrod_status st = cosrod_statics_solve(s->land, s->qland, s->tprev, to, NULL, NULL, &ls);
    add_landing_stats(&s->lstats, &ls);
    if (st != COSROD_OK) {
      snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "landing on the output time t = %.17g from t = %.17g failed (%s)", to,
               s->tprev, cosrod_strerror(st));
      s->land_failed =
          st == COSROD_ERR_CALLBACK || st == COSROD_ERR_INTERRUPTED ? st : COSROD_ERR_CONVERGENCE;
      s->t_fail = to;
      return -1;
    }
    int rc = static_frame(s, to, s->qland);
    if (rc != 0) return rc;
  }
  if (s->iout < s->nout && fabs(s->tout[s->iout] - t) <= s->out_tol) {
    s->iout++;
    return static_frame(s, t, q);
  }
  return 0;
}

/* Every converged increment (also t = 0): frames at the output times up to
 * t, then the increment row. */
static int static_increment(cosrod_sim *s, double t, const double *q, long iterations, double residual) {
  int nq = s->nq_sys;
  int rc = t == 0.0 && s->t_frame < 0.0 ? static_frame(s, t, q) : static_outputs(s, t, q);
  if (rc != 0) return rc;
  if (s->sys.d->contact) { /* static friction: the anchors follow the converged increment (at q: a landing
                     * solve may have evaluated another state since) */
    sim_static_q_to_y(s, q, s->sys.d->y);
    if (sim_eval_all(&s->sys, t, s->sys.d->y, NULL, NULL) != COSROD_OK) return -1;
    sim_contact_commit(s->sys.d->contact);
  }
  memcpy(s->qprev, q, (size_t)nq * sizeof *q);
  s->tprev = s->t_now = t;
  if (s->obs && s->obs->increment) {
    rc = s->obs->increment(s->obs->user, s, t, iterations, residual);
    if (rc != 0) return rc;
  }
  return s->obs && s->obs->stop && *s->obs->stop ? 1 : 0; /* stop requested */
}

static int static_cb(void *user, double t, const double *q, int iterations, double residual) {
  cosrod_sim *s = user;
  if (s->frame_rc != 0) return s->frame_rc;
  s->frame_rc = static_increment(s, t, q, iterations, residual);
  return s->frame_rc;
}

cosrod_status static_failure(cosrod_sim *s, cosrod_status st, const cosrod_statics_stats *ss,
                             const char *what) {
  if (st == COSROD_ERR_INTERRUPTED && s->land_failed != COSROD_OK) return s->land_failed; /* message set */
  if (st == COSROD_ERR_INTERRUPTED && s->frame_rc < 0) st = COSROD_ERR_CALLBACK;
  if (st == COSROD_ERR_INTERRUPTED)
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "stopped at t = %.17g", ss->t);
  else
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg,
             "%s failed at t = %.17g (%s; increment %.3g, scaled residual %.3g of the failed increment%s)", what,
             ss->t, cosrod_strerror(st), ss->min_step, ss->fail_residual,
             ss->critical ? "; a limit or bifurcation point" : "");
  s->t_fail = ss->t;
  return st;
}

/* analysis: static -- continuation over the pseudo-time [0, 1] (path:
 * keyframes: [0, t_end]; control: arc-length: sim_static_arc.c). */
cosrod_status sim_run_static(cosrod_sim *s) {
  if (s->arc) return sim_run_static_arc(s);
  double *q = s->sys.d->yd; /* (ny >= nq_sys) scratch: the solver's state */
  sim_static_y_to_q(s, s->sys.d->y0, q);
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  memset(&s->lstats, 0, sizeof s->lstats);
  s->frame_rc = 0;
  s->iout = 0;
  s->tprev = 0.0;
  s->t_frame = -INFINITY;
  s->land_failed = COSROD_OK;
  /* static friction: anchors at the initial contacts, so that t = 0 already holds tangentially */
  if (s->sys.d->contact && sim_eval_all(&s->sys, 0.0, s->sys.d->y0, NULL, NULL) == COSROD_OK) sim_contact_commit(s->sys.d->contact);
  cosrod_status st = cosrod_statics_solve(s->stat[0], q, 0.0, s->sc->analysis.t_end, static_cb, s, &ss);
  add_landing_stats(&ss, &s->lstats);
  stats_from_statics(s, &ss);
  sim_warn_unstable(s, &ss, "static analysis (t = 0)");
  if (st != COSROD_OK) {
    st = static_failure(s, st, &ss, "static continuation");
    /* the last converged state, also as a frame if it is not one already
     * (the files then end with it; none if already t = 0 failed) */
    if (s->frame_rc == 0 && s->land_failed == COSROD_OK) {
      if (s->t_frame > -INFINITY && s->t_frame < ss.t) {
        if (static_frame(s, ss.t, q) != 0) return st;
      } else {
        sim_static_q_to_y(s, q, s->sys.d->y);
        if (sim_eval_all(&s->sys, ss.t, s->sys.d->y, NULL, NULL) == COSROD_OK) {
          s->energy = sim_energy_from_data(&s->sys, 0.0, 0.0);
          sim_static_scale_gravity(s, ss.t);
        }
      }
      s->t_now = ss.t;
    }
  }
  return st;
}

/* start_from_equilibrium: every rod's q at its static equilibrium under the
 * t = 0 loads including the preloads, at rest; then the consistent state. */
static cosrod_status equilibrium_start_all(cosrod_sim *s);

cosrod_status equilibrium_start(cosrod_sim *s) {
  if (s->sys.d->cst) return sim_couple_static_start(s); /* rods with rigid bodies */
  if (s->qeq) return equilibrium_start_all(s);          /* several rods in rod-rod contact */
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const int nq = cosrod_rod_nq(s->sys.m->rods[r]);
    double *q = s->sys.d->ypl; /* (>= ny_r >= nq) */
    sim_gather(&s->sys, r, s->sys.d->y0, s->sys.d->yl);
    memcpy(q, s->sys.d->yl, (size_t)nq * sizeof *q);
    cosrod_statics_stats ss;
    memset(&ss, 0, sizeof ss);
    cosrod_status st = cosrod_statics_equilibrium_at(s->stat[r], 0.0, q, &ss);
    if (st != COSROD_OK) {
      char what[64];
      snprintf(what, sizeof what, "static equilibrium of rod %zu at t = 0", r);
      return static_failure(s, st, &ss, what);
    }
    char what[64];
    snprintf(what, sizeof what, "start_from_equilibrium (rod %zu)", r);
    sim_warn_unstable(s, &ss, what);
    if ((st = sim_rod_rest_state(s, r, q)) != COSROD_OK) return st;
  }
  return sim_equilibrium_state_ready(s);
}

/* Several rods in rod-rod contact: the equilibrium of all rods together
 * (one solver, stat[0]; the contact hooks of sim_static_contact.c), then
 * every rod at rest there. */
static cosrod_status equilibrium_start_all(cosrod_sim *s) {
  cosrod_statics *st0 = s->stat[0];
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    sim_gather(&s->sys, r, s->sys.d->y0, s->sys.d->yl);
    memcpy(s->qeq + cosrod_statics_qoffset(st0, (int)r), s->sys.d->yl,
           (size_t)cosrod_rod_nq(s->sys.m->rods[r]) * sizeof *s->qeq);
  }
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  cosrod_status st = cosrod_statics_equilibrium_at(st0, 0.0, s->qeq, &ss);
  if (st != COSROD_OK) return static_failure(s, st, &ss, "static equilibrium of the rods in contact at t = 0");
  sim_warn_unstable(s, &ss, "start_from_equilibrium (rods in contact)");
  for (size_t r = 0; r < s->sys.m->nrods; r++)
    if ((st = sim_rod_rest_state(s, r, s->qeq + cosrod_statics_qoffset(st0, (int)r))) != COSROD_OK) return st;
  return sim_equilibrium_state_ready(s);
}

cosrod_status sim_rod_rest_state(cosrod_sim *s, size_t r, const double *q) {
  const cosrod_rod *rod = s->sys.m->rods[r];
  const int nq = cosrod_rod_nq(rod);
  memcpy(s->sys.d->yl, q, (size_t)nq * sizeof *q);
  for (int i = nq; i < s->sys.m->ny_r[r]; i++) s->sys.d->yl[i] = 0.0; /* at rest */
  /* quaternions (and a Kirchhoff rod's constraints, to round-off) exactly */
  cosrod_status st = cosrod_rod_kirchhoff_project(rod, s->sys.d->data[r], s->sys.m->form, 0.0, s->sys.d->yl, 3, NULL);
  if (st == COSROD_OK && s->sys.m->form == COSROD_FORM_DAE)
    st = cosrod_rod_lambda(rod, s->sys.d->data[r], s->sys.m->form, 0.0, s->sys.d->yl, s->sys.d->yl + 2 * nq);
  if (st != COSROD_OK) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "no consistent state at the equilibrium of rod %zu (%s)", r, cosrod_strerror(st));
    s->t_fail = 0.0;
    return st;
  }
  sim_scatter(&s->sys, r, s->sys.d->yl, s->sys.d->y0);
  return COSROD_OK;
}

cosrod_status sim_equilibrium_state_ready(cosrod_sim *s) {
  memcpy(s->sys.d->y, s->sys.d->y0, (size_t)s->sys.m->ny * sizeof *s->sys.d->y);
  if (sim_eval_all(&s->sys, 0.0, s->sys.d->y0, &s->acc.rW_prev, &s->acc.rD_prev) != COSROD_OK) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "the equilibrium state cannot be evaluated");
    s->t_fail = 0.0;
    return COSROD_ERR_NONFINITE;
  }
  s->energy = sim_energy_from_data(&s->sys, 0.0, 0.0);
  return COSROD_OK;
}
