// SPDX-License-Identifier: Apache-2.0
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
#include "system/linsolve.h"

/* ---- energy accounting and output (dynamic runs) -------------------------- */

void cosrod_sim_set_energy_accounting(cosrod_sim *s, int on) {
  if (!s) return;
  if (on && s->need_rates < 0) s->need_rates = 1;
  if (!on && s->need_rates > 0) s->need_rates = -1;
}

/* Simpson's rule for the rates over [a, b] inside the last accepted step
 * (dense output valid there), given the rates at a and b. */
/* The contact's dissipated power of the last evaluation (0 without contact). */
static double contact_power(const cosrod_sim *s) {
  const cosrod_contact_data *d = sim_contact_data(s->sys.d->contact);
  return d ? cosrod_contact_dissipation(d) : 0.0;
}

static int simpson(cosrod_sim *s, double a, double b, double rWa, double rDa, double rWb, double rDb,
                   double *W, double *D) {
  double m = 0.5 * (a + b), rWm, rDm;
  if (cosrod_integrator_dense(s->integ, m, NULL, s->sys.m->ny, s->sys.d->yd) != COSROD_OK) return -1;
  if (sim_eval_all(&s->sys, m, s->sys.d->yd, &rWm, &rDm) != COSROD_OK) return -1;
  s->acc.cD_mid = contact_power(s);
  *W = (b - a) / 6.0 * (rWa + 4.0 * rWm + rWb);
  *D = (b - a) / 6.0 * (rDa + 4.0 * rDm + rDb);
  return 0;
}

static int stop_requested(const cosrod_sim *s) { return s->obs && s->obs->stop && *s->obs->stop; }

/* The first output time after t (INFINITY: none). */
static double next_output(const cosrod_sim *s, double t) {
  size_t lo = 0, hi = s->nout;
  while (lo < hi) {
    const size_t m = lo + (hi - lo) / 2;
    if (s->tout[m] > t) hi = m;
    else lo = m + 1;
  }
  return lo < s->nout ? s->tout[lo] : INFINITY;
}

int sim_step_cb(double t, double h, int accepted, void *user) {
  cosrod_sim *s = user;
  if (accepted && s->need_rates <= 0) {
    s->acc.t = s->t_now = cosrod_integrator_t(s->integ);
    s->h_last = h;
  } else if (accepted) {
    /* the step actually taken ends at the integrator's t (a method that
     * clips its own steps, e.g. the SUNDIALS adapters, may differ from t + h) */
    double t1 = cosrod_integrator_t(s->integ), rW1, rD1, W, D;
    h = t1 - s->acc.t;
    if (cosrod_integrator_dense(s->integ, t1, NULL, s->sys.m->ny, s->sys.d->yd) != COSROD_OK) return -1;
    if (sim_eval_all(&s->sys, t1, s->sys.d->yd, &rW1, &rD1) != COSROD_OK) return -1;
    const double cD1 = contact_power(s);
    if (simpson(s, s->acc.t, t1, s->acc.rW_prev, s->acc.rD_prev, rW1, rD1, &W, &D) != 0) return -1;
    s->acc.W += W;
    s->acc.D += D;
    s->acc.cD += (t1 - s->acc.t) / 6.0 * (s->acc.cD_prev + 4.0 * s->acc.cD_mid + cD1); /* as D */
    s->acc.cD_prev = cD1;
    s->acc.t = t1;
    s->acc.rW_prev = rW1;
    s->acc.rD_prev = rD1;
    s->h_last = h;
    s->t_now = t1;
  }
  if (accepted && s->sys.d->contact) { /* friction anchors follow the accepted state (the energy rates'
                                  * Simpson rule evaluated the step's midpoint last: evaluate t_now) */
    if (cosrod_integrator_dense(s->integ, s->t_now, NULL, s->sys.m->ny, s->sys.d->yd) != COSROD_OK ||
        sim_eval_all(&s->sys, s->t_now, s->sys.d->yd, NULL, NULL) != COSROD_OK)
      return -1;
    sim_contact_commit(s->sys.d->contact);
  }
  sim_stats_sync(s);
  if (s->obs && s->obs->step) {
    int rc = s->obs->step(s->obs->user, s, t, h, accepted);
    if (rc != 0) return rc;
  }
  if (accepted && !s->stepping && sim_linsolve_far_contact(&s->sys)) {
    /* far self-contact on the band: stop at the step's end (after the frames inside the step, if any:
     * sim_output_cb) and go on with the sparse path (sim_breaks.c) */
    s->lin_switch = 1;
    if (next_output(s, t) > cosrod_integrator_t(s->integ)) return 1;
  }
  return stop_requested(s) ? 1 : 0;
}

static int sim_output_frame(cosrod_sim *s, double t, const double *y);

/* A frame inside the last accepted step sees the friction anchors that step
 * used, not those committed at its end (contact_element.h). */
static int sim_output_cb(double t, const double *y, void *user) {
  cosrod_sim *s = user;
  const int inside = s->sys.d->contact && t < s->acc.t;
  if (inside) sim_contact_frame_inside_step(s->sys.d->contact, 1);
  int rc = sim_output_frame(s, t, y);
  if (inside) sim_contact_frame_inside_step(s->sys.d->contact, 0);
  return rc;
}

static int sim_output_frame(cosrod_sim *s, double t, const double *y) {
  double W = s->acc.W, D = s->acc.D;
  if (t != s->acc.t && s->need_rates > 0) {
    /* partial step [t, acc_t]: rates at t first, then Simpson (which
     * evaluates the midpoint), then re-evaluate at t for the observer */
    double rW, rD, dW, dD;
    if (sim_eval_all(&s->sys, t, y, &rW, &rD) != COSROD_OK) return -1;
    if (simpson(s, t, s->acc.t, rW, rD, s->acc.rW_prev, s->acc.rD_prev, &dW, &dD) != 0) return -1;
    W -= dW;
    D -= dD;
  }
  if (sim_eval_all(&s->sys, t, y, NULL, NULL) != COSROD_OK) return -1;
  memcpy(s->sys.d->y, y, (size_t)s->sys.m->ny * sizeof *y);
  s->t_now = t;
  s->t_frame = t;
  s->energy = sim_energy_from_data(&s->sys, W, D);
  if (s->obs && s->obs->frame) {
    int rc = s->obs->frame(s->obs->user, s, t);
    if (rc != 0) return rc;
  }
  if (sim_monitor_frame(s, t) != 0) return -1; /* blow-up: after its frame is written */
  if (s->lin_switch && next_output(s, t) > cosrod_integrator_t(s->integ)) return 1; /* the step's last frame */
  return stop_requested(s) ? 1 : 0;
}

/* ---- run ------------------------------------------------------------------ */

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
    cosrod_status st = s->analysis == COSROD_SC_ANALYSIS_STATIC ? sim_run_static(s)
                       : s->analysis == COSROD_SC_ANALYSIS_BUCKLING ? sim_run_buckling(s)
                                                                   : sim_run_modes(s);
    s->obs = NULL;
    return st;
  }
  if (!s->resumed) sim_monitor_reset(s); /* before the start's warnings (start_from_equilibrium) */
  if (s->stat && !s->resumed) {
    cosrod_status st = equilibrium_start(s);
    if (st != COSROD_OK) {
      s->obs = NULL;
      return st;
    }
  }
  cosrod_output_spec spec = {0};
  spec.t_out = s->tout;
  spec.n_out = s->nout;
  spec.include_t0 = 1;
  spec.output = sim_output_cb;
  spec.step_history = sim_step_cb;
  spec.user = s;
  if (s->resumed) { /* cosrod_sim_restart_load: accounts and monitor as saved, frames after t_resume */
    size_t k = 0;
    while (k < s->nout && !(s->tout[k] > s->t_resume)) k++;
    spec.t_out = s->tout + k;
    spec.n_out = s->nout - k;
    spec.include_t0 = 0;
    s->t_frame = s->t_resume;
  } else {
    s->acc.t = 0.0;
    s->acc.W = s->acc.D = s->need_rates < 0 ? NAN : 0.0; /* accounting switched off */
    s->t_frame = -INFINITY;
  }
  /* piecewise between the breakpoints (sim_breaks.c) */
  cosrod_status st = sim_evolve_pieces(s, s->sc->analysis.t_end, &spec, 0.0, NULL);
  st = sim_auto_recover(s, st, s->sc->analysis.t_end, &spec); /* auto: the next candidate on a struggle */
  s->obs = NULL; /* after the switch: its frames go to the same observer */
  if (s->diverged) st = COSROD_ERR_DIVERGED; /* message and time set by the monitor */
  sim_monitor_finish(s);
  if (st != COSROD_OK) {
    if (!s->sys.d->msg[0]) snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "%s", cosrod_integrator_message(s->integ));
    if (!s->sys.d->msg[0]) snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "%s", cosrod_strerror(st));
    if (isnan(s->t_fail)) s->t_fail = cosrod_integrator_fail_time(s->integ);
    /* last accepted state: evaluate it for the tips */
    double t = cosrod_integrator_t(s->integ);
    memcpy(s->sys.d->y, cosrod_integrator_y(s->integ), (size_t)s->sys.m->ny * sizeof *s->sys.d->y);
    s->t_now = t;
    if (sim_eval_all(&s->sys, t, s->sys.d->y, NULL, NULL) == COSROD_OK) s->energy = sim_energy_from_data(&s->sys, s->acc.W, s->acc.D);
    /* stopped by the caller (Ctrl-C, observer): cosrod_sim_advance continues
     * from the last accepted state, accounts and step size as they are */
    if (st == COSROD_ERR_INTERRUPTED) s->stepping = 1;
  }
  return st;
}

/* ---- queries -------------------------------------------------------------- */

const cosrod_scenario *cosrod_sim_scenario(const cosrod_sim *s) { return s->au ? sim_auto_user(s->au) : s->sc; }
size_t cosrod_sim_nrods(const cosrod_sim *s) { return s->sys.m->nrods; }
const cosrod_rod *cosrod_sim_rod(const cosrod_sim *s, size_t r) { return r < s->sys.m->nrods ? s->sys.m->rods[r] : NULL; }
const cosrod_rod_data *cosrod_sim_rod_data(const cosrod_sim *s, size_t r) {
  return r < s->sys.m->nrods ? s->sys.d->data[r] : NULL;
}
cosrod_sim_energy cosrod_sim_energy_now(const cosrod_sim *s) { return s->energy; }
void cosrod_sim_tip(const cosrod_sim *s, size_t r, double tip[3]) {
  const cosrod_rod_data *d = s->sys.d->data[r];
  for (int k = 0; k < 3; k++) tip[k] = d->x[3 * d->N + k];
}
int cosrod_sim_ny(const cosrod_sim *s) { return s->sys.m->ny; }
const double *cosrod_sim_state(const cosrod_sim *s) { return s->sys.d->y; }
double cosrod_sim_t(const cosrod_sim *s) { return s->t_now; }
double cosrod_sim_h_last(const cosrod_sim *s) { return s->h_last; }
const cosrod_integrate_stats *cosrod_sim_stats(const cosrod_sim *s) {
  return s->integ ? &s->dstats : &s->sstats;
}
const char *cosrod_sim_message(const cosrod_sim *s) { return s->sys.d->msg; }
double cosrod_sim_fail_time(const cosrod_sim *s) { return s->t_fail; }
const char *cosrod_sim_integrator_name(const cosrod_sim *s) {
  return s->analysis == COSROD_SC_ANALYSIS_DYNAMIC ? s->sys.m->type->name : "statics";
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
int cosrod_sim_split_layout(const cosrod_sim *s) { return s->sys.m->split; }
void cosrod_sim_bandwidth(const cosrod_sim *s, int *ml, int *mu, int *ml_q, int *mu_q) {
  if (ml) *ml = s->sys.m->ml;
  if (mu) *mu = s->sys.m->mu;
  if (ml_q) *ml_q = s->sys.m->ml_q;
  if (mu_q) *mu_q = s->sys.m->mu_q;
}
const cosrod_ode_problem *cosrod_sim_problem(const cosrod_sim *s) { return &s->sys.m->prob; }
struct sys_system *sim_system_of(cosrod_sim *s) { return &s->sys; }

const char *cosrod_sim_input_warning(const cosrod_sim *s) { return s ? s->sys.m->input_warn : ""; }

double cosrod_sim_contact_dissipated(const cosrod_sim *s) { return s && s->sys.d->contact ? s->acc.cD : 0.0; }
const char *cosrod_sim_linear_solver(const cosrod_sim *s) { return s ? sim_linsolve_desc(&s->sys) : ""; }
