/* Simulation driver, part 2: the runs (sim.c builds the simulation).
 *
 * Dynamic runs: the integrator driver's output times (dense output) become
 * frames; the dissipated energy and the work of external loads and moving
 * prescribed ends are integrated over every accepted step with Simpson's
 * rule on the method's dense output (cosrod_integrator_dense is valid in the
 * step-history callback right after an accepted step) and over the partial
 * step up to an output time (skipped after cosrod_sim_set_energy_accounting(sim, 0):
 * need_rates = -1, the integrals are NaN).  Static runs: the statics module's continuation
 * ([LLA] eqs. 31-32); every converged increment goes to the increment
 * observer (increments.csv), frames are written at t = 0 and at the output
 * pseudo-times k * every: an output time that falls inside an increment is
 * reached by a separate landing solve (one predictor-corrector increment
 * from the last converged state, cosrod_sim.land), so the output grid adds
 * Newton work only for the landings and never changes the continuation path
 * or its increments; a failed run also writes its last converged state as a
 * frame.  Modal runs: the equilibrium at t = 0 and the lowest eigenpairs.
 * Nothing is allocated. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

/* ---- energy accounting and output (dynamic runs) -------------------------- */

void cosrod_sim_set_energy_accounting(cosrod_sim *s, int on) {
  if (!s) return;
  if (on && s->need_rates < 0) s->need_rates = 1;
  if (!on && s->need_rates > 0) s->need_rates = -1;
}

/* Simpson's rule for the rates over [a, b] inside the last accepted step
 * (dense output valid there), given the rates at a and b. */
static int simpson(cosrod_sim *s, double a, double b, double rWa, double rDa, double rWb, double rDb,
                   double *W, double *D) {
  double m = 0.5 * (a + b), rWm, rDm;
  if (cosrod_integrator_dense(s->integ, m, NULL, s->ny, s->yd) != COSROD_OK) return -1;
  if (sim_eval_all(s, m, s->yd, &rWm, &rDm) != COSROD_OK) return -1;
  *W = (b - a) / 6.0 * (rWa + 4.0 * rWm + rWb);
  *D = (b - a) / 6.0 * (rDa + 4.0 * rDm + rDb);
  return 0;
}

static int stop_requested(const cosrod_sim *s) { return s->obs && s->obs->stop && *s->obs->stop; }

int sim_step_cb(double t, double h, int accepted, void *user) {
  cosrod_sim *s = user;
  if (accepted && s->need_rates <= 0) {
    s->acc_t = s->t_now = cosrod_integrator_t(s->integ);
    s->h_last = h;
  } else if (accepted) {
    /* the step actually taken ends at the integrator's t (a method that
     * clips its own steps, e.g. the SUNDIALS adapters, may differ from t + h) */
    double t1 = cosrod_integrator_t(s->integ), rW1, rD1, W, D;
    h = t1 - s->acc_t;
    if (cosrod_integrator_dense(s->integ, t1, NULL, s->ny, s->yd) != COSROD_OK) return -1;
    if (sim_eval_all(s, t1, s->yd, &rW1, &rD1) != COSROD_OK) return -1;
    if (simpson(s, s->acc_t, t1, s->rW_prev, s->rD_prev, rW1, rD1, &W, &D) != 0) return -1;
    s->acc_W += W;
    s->acc_D += D;
    s->acc_t = t1;
    s->rW_prev = rW1;
    s->rD_prev = rD1;
    s->h_last = h;
    s->t_now = t1;
  }
  if (accepted && s->contact) { /* friction anchors follow the accepted state */
    if (s->need_rates <= 0) {
      if (cosrod_integrator_dense(s->integ, s->t_now, NULL, s->ny, s->yd) != COSROD_OK ||
          sim_eval_all(s, s->t_now, s->yd, NULL, NULL) != COSROD_OK)
        return -1;
    }
    sim_contact_commit(s->contact);
  }
  sim_stats_sync(s);
  if (s->obs && s->obs->step) {
    int rc = s->obs->step(s->obs->user, s, t, h, accepted);
    if (rc != 0) return rc;
  }
  return stop_requested(s) ? 1 : 0;
}

static int sim_output_cb(double t, const double *y, void *user) {
  cosrod_sim *s = user;
  double W = s->acc_W, D = s->acc_D;
  if (t != s->acc_t && s->need_rates > 0) {
    /* partial step [t, acc_t]: rates at t first, then Simpson (which
     * evaluates the midpoint), then re-evaluate at t for the observer */
    double rW, rD, dW, dD;
    if (sim_eval_all(s, t, y, &rW, &rD) != COSROD_OK) return -1;
    if (simpson(s, t, s->acc_t, rW, rD, s->rW_prev, s->rD_prev, &dW, &dD) != 0) return -1;
    W -= dW;
    D -= dD;
  }
  if (sim_eval_all(s, t, y, NULL, NULL) != COSROD_OK) return -1;
  memcpy(s->y, y, (size_t)s->ny * sizeof *y);
  s->t_now = t;
  s->t_frame = t;
  sim_energy_from_data(s, W, D);
  if (s->obs && s->obs->frame) {
    int rc = s->obs->frame(s->obs->user, s, t);
    if (rc != 0) return rc;
  }
  if (sim_monitor_frame(s, t) != 0) return -1; /* blow-up: after its frame is written */
  return stop_requested(s) ? 1 : 0;
}

/* ---- run ------------------------------------------------------------------ */

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
  sim_static_q_to_y(s, q, s->y);
  if (sim_eval_all(s, t, s->y, NULL, NULL) != COSROD_OK) return -1;
  /* Kirchhoff: the constrained F are the statics multipliers (loads of the
   * path at t), not those of the rest accelerations under the full loads */
  for (size_t r = 0; r < s->nrods; r++)
    if (cosrod_rod_model_of(s->rods[r]) != COSROD_MODEL_COSSERAT &&
        cosrod_statics_kirchhoff_forces(s->stat[0], (int)r, t, q, s->data[r]->F) != COSROD_OK)
      return -1;
  sim_energy_from_data(s, 0.0, 0.0);
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
      snprintf(s->msg, sizeof s->msg, "landing on the output time t = %.17g from t = %.17g failed (%s)", to,
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
  memcpy(s->qprev, q, (size_t)nq * sizeof *q);
  s->tprev = s->t_now = t;
  if (s->obs && s->obs->increment) {
    rc = s->obs->increment(s->obs->user, s, t, iterations, residual);
    if (rc != 0) return rc;
  }
  return stop_requested(s) ? 1 : 0;
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
    snprintf(s->msg, sizeof s->msg, "stopped at t = %.17g", ss->t);
  else
    snprintf(s->msg, sizeof s->msg,
             "%s failed at t = %.17g (%s; increment %.3g, scaled residual %.3g of the failed increment%s)", what,
             ss->t, cosrod_strerror(st), ss->min_step, ss->fail_residual,
             ss->critical ? "; a limit or bifurcation point" : "");
  s->t_fail = ss->t;
  return st;
}

/* analysis: static -- continuation over the pseudo-time [0, 1] (path:
 * keyframes: [0, t_end]; control: arc-length: sim_static_arc.c). */
static cosrod_status run_static(cosrod_sim *s) {
  if (s->arc) return sim_run_static_arc(s);
  double *q = s->yd; /* (ny >= nq_sys) scratch: the solver's state */
  sim_static_y_to_q(s, s->y0, q);
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  memset(&s->lstats, 0, sizeof s->lstats);
  s->frame_rc = 0;
  s->iout = 0;
  s->tprev = 0.0;
  s->t_frame = -INFINITY;
  s->land_failed = COSROD_OK;
  cosrod_status st = cosrod_statics_solve(s->stat[0], q, 0.0, s->sc->analysis.t_end, static_cb, s, &ss);
  add_landing_stats(&ss, &s->lstats);
  stats_from_statics(s, &ss);
  if (st != COSROD_OK) {
    st = static_failure(s, st, &ss, "static continuation");
    /* the last converged state, also as a frame if it is not one already
     * (the files then end with it; none if already t = 0 failed) */
    if (s->frame_rc == 0 && s->land_failed == COSROD_OK) {
      if (s->t_frame > -INFINITY && s->t_frame < ss.t) {
        if (static_frame(s, ss.t, q) != 0) return st;
      } else {
        sim_static_q_to_y(s, q, s->y);
        if (sim_eval_all(s, ss.t, s->y, NULL, NULL) == COSROD_OK) {
          sim_energy_from_data(s, 0.0, 0.0);
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
cosrod_status equilibrium_start(cosrod_sim *s) {
  if (s->cst) return sim_couple_static_start(s); /* rods with rigid bodies */
  for (size_t r = 0; r < s->nrods; r++) {
    const int nq = cosrod_rod_nq(s->rods[r]);
    double *q = s->ypl; /* (>= ny_r >= nq) */
    sim_gather(s, r, s->y0, s->yl);
    memcpy(q, s->yl, (size_t)nq * sizeof *q);
    cosrod_statics_stats ss;
    memset(&ss, 0, sizeof ss);
    cosrod_status st = cosrod_statics_equilibrium_at(s->stat[r], 0.0, q, &ss);
    if (st != COSROD_OK) {
      char what[64];
      snprintf(what, sizeof what, "static equilibrium of rod %zu at t = 0", r);
      return static_failure(s, st, &ss, what);
    }
    if ((st = sim_rod_rest_state(s, r, q)) != COSROD_OK) return st;
  }
  return sim_equilibrium_state_ready(s);
}

cosrod_status sim_rod_rest_state(cosrod_sim *s, size_t r, const double *q) {
  const cosrod_rod *rod = s->rods[r];
  const int nq = cosrod_rod_nq(rod);
  memcpy(s->yl, q, (size_t)nq * sizeof *q);
  for (int i = nq; i < s->ny_r[r]; i++) s->yl[i] = 0.0; /* at rest */
  /* quaternions (and a Kirchhoff rod's constraints, to round-off) exactly */
  cosrod_status st = cosrod_rod_kirchhoff_project(rod, s->data[r], s->form, 0.0, s->yl, 3, NULL);
  if (st == COSROD_OK && s->form == COSROD_FORM_DAE)
    st = cosrod_rod_lambda(rod, s->data[r], s->form, 0.0, s->yl, s->yl + 2 * nq);
  if (st != COSROD_OK) {
    snprintf(s->msg, sizeof s->msg, "no consistent state at the equilibrium of rod %zu (%s)", r, cosrod_strerror(st));
    s->t_fail = 0.0;
    return st;
  }
  sim_scatter(s, r, s->yl, s->y0);
  return COSROD_OK;
}

cosrod_status sim_equilibrium_state_ready(cosrod_sim *s) {
  memcpy(s->y, s->y0, (size_t)s->ny * sizeof *s->y);
  if (sim_eval_all(s, 0.0, s->y0, &s->rW_prev, &s->rD_prev) != COSROD_OK) {
    snprintf(s->msg, sizeof s->msg, "the equilibrium state cannot be evaluated");
    s->t_fail = 0.0;
    return COSROD_ERR_NONFINITE;
  }
  sim_energy_from_data(s, 0.0, 0.0);
  return COSROD_OK;
}

static cosrod_status sim_run_body(cosrod_sim *s, const cosrod_sim_observer *obs);

/* The observer's stop flag is also polled inside long steps (band LU, rod
 * Jacobian assembly: status.h) for the duration of the run. */
cosrod_status cosrod_sim_run(cosrod_sim *s, const cosrod_sim_observer *obs) {
  if (!s) return COSROD_ERR_INVALID;
  if (s->ran || s->stepping) return COSROD_ERR_INVALID;
  const volatile sig_atomic_t *prev = cosrod_interrupt_install(obs ? obs->stop : NULL);
  cosrod_status st = sim_run_body(s, obs);
  cosrod_interrupt_install(prev);
  return st;
}

static cosrod_status sim_run_body(cosrod_sim *s, const cosrod_sim_observer *obs) {
  s->ran = 1;
  s->obs = obs;
  if (s->analysis != COSROD_SC_ANALYSIS_DYNAMIC) {
    cosrod_status st = s->analysis == COSROD_SC_ANALYSIS_STATIC ? run_static(s)
                       : s->analysis == COSROD_SC_ANALYSIS_BUCKLING ? sim_run_buckling(s)
                                                                   : sim_run_modes(s);
    s->obs = NULL;
    return st;
  }
  if (s->stat) {
    cosrod_status st = equilibrium_start(s);
    if (st != COSROD_OK) {
      s->obs = NULL;
      return st;
    }
  }
  s->acc_t = 0.0;
  s->acc_W = s->acc_D = s->need_rates < 0 ? NAN : 0.0; /* accounting switched off */
  s->t_frame = -INFINITY;
  cosrod_output_spec spec = {0};
  spec.t_out = s->tout;
  spec.n_out = s->nout;
  spec.include_t0 = 1;
  spec.output = sim_output_cb;
  spec.step_history = sim_step_cb;
  spec.user = s;
  /* piecewise between the breakpoints (sim_breaks.c) */
  sim_monitor_reset(s);
  cosrod_status st = sim_evolve_pieces(s, s->sc->analysis.t_end, &spec);
  s->obs = NULL;
  if (s->diverged) st = COSROD_ERR_DIVERGED; /* message and time set by the monitor */
  sim_monitor_finish(s);
  if (st != COSROD_OK) {
    if (!s->msg[0]) snprintf(s->msg, sizeof s->msg, "%s", cosrod_integrator_message(s->integ));
    if (!s->msg[0]) snprintf(s->msg, sizeof s->msg, "%s", cosrod_strerror(st));
    if (isnan(s->t_fail)) s->t_fail = cosrod_integrator_fail_time(s->integ);
    /* last accepted state: evaluate it for the tips */
    double t = cosrod_integrator_t(s->integ);
    memcpy(s->y, cosrod_integrator_y(s->integ), (size_t)s->ny * sizeof *s->y);
    s->t_now = t;
    if (sim_eval_all(s, t, s->y, NULL, NULL) == COSROD_OK) sim_energy_from_data(s, s->acc_W, s->acc_D);
  }
  return st;
}

/* ---- queries -------------------------------------------------------------- */

const cosrod_scenario *cosrod_sim_scenario(const cosrod_sim *s) { return s->sc; }
size_t cosrod_sim_nrods(const cosrod_sim *s) { return s->nrods; }
const cosrod_rod *cosrod_sim_rod(const cosrod_sim *s, size_t r) { return r < s->nrods ? s->rods[r] : NULL; }
const cosrod_rod_data *cosrod_sim_rod_data(const cosrod_sim *s, size_t r) {
  return r < s->nrods ? s->data[r] : NULL;
}
cosrod_sim_energy cosrod_sim_energy_now(const cosrod_sim *s) { return s->energy; }
void cosrod_sim_tip(const cosrod_sim *s, size_t r, double tip[3]) {
  const cosrod_rod_data *d = s->data[r];
  for (int k = 0; k < 3; k++) tip[k] = d->x[3 * d->N + k];
}
int cosrod_sim_ny(const cosrod_sim *s) { return s->ny; }
const double *cosrod_sim_state(const cosrod_sim *s) { return s->y; }
double cosrod_sim_t(const cosrod_sim *s) { return s->t_now; }
double cosrod_sim_h_last(const cosrod_sim *s) { return s->h_last; }
const cosrod_integrate_stats *cosrod_sim_stats(const cosrod_sim *s) {
  return s->integ ? &s->dstats : &s->sstats;
}
const char *cosrod_sim_message(const cosrod_sim *s) { return s->msg; }
double cosrod_sim_fail_time(const cosrod_sim *s) { return s->t_fail; }
const char *cosrod_sim_integrator_name(const cosrod_sim *s) {
  return s->analysis == COSROD_SC_ANALYSIS_DYNAMIC ? s->type->name : "statics";
}
int cosrod_sim_nmodes(const cosrod_sim *s) { return s->ran ? s->nmodes : 0; }
void cosrod_sim_mode_info(const cosrod_sim *s, int i, const char **type, int *group) {
  if (type) *type = cosrod_mode_kind_name((cosrod_mode_kind)s->mode_kind[i]);
  if (group) *group = s->mode_group[i];
}
void cosrod_sim_mode(const cosrod_sim *s, int i, double *omega, double *freq_hz, const double **shape) {
  if (omega) *omega = s->omega[i];
  if (freq_hz) *freq_hz = s->freq[i];
  if (shape) *shape = s->shapes + (size_t)i * s->shape_stride;
}
size_t cosrod_sim_mode_rod(const cosrod_sim *s, int i) { return s->mode_rod ? s->mode_rod[i] : 0; }
size_t cosrod_sim_mode_stride(const cosrod_sim *s) { return s->shape_stride; }
double cosrod_sim_load_factor(const cosrod_sim *s, int i) { return s->mode_lam ? s->mode_lam[i] : NAN; }
int cosrod_sim_split_layout(const cosrod_sim *s) { return s->split; }
void cosrod_sim_bandwidth(const cosrod_sim *s, int *ml, int *mu, int *ml_q, int *mu_q) {
  if (ml) *ml = s->ml;
  if (mu) *mu = s->mu;
  if (ml_q) *ml_q = s->ml_q;
  if (mu_q) *mu_q = s->mu_q;
}
const cosrod_ode_problem *cosrod_sim_problem(const cosrod_sim *s) { return &s->prob; }

const char *cosrod_sim_input_warning(const cosrod_sim *s) { return s ? s->input_warn : ""; }
const char *cosrod_sim_linear_solver(const cosrod_sim *s) { return s ? sim_linsolve_desc(s) : ""; }
