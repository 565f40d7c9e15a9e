// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, part 3: stepping for embedding in a loop
 * (cosrod_sim_advance, cosrod_sim_set_state; see sim.h).
 *
 * The integrator is initialised once (first advance, or set_state) and
 * every advance is one cosrod_integrator_evolve to t_next with the step
 * history callback of the runs (sim_step_cb: energy accounting by
 * Simpson's rule over every accepted step, observer, stop flag), so a
 * sequence of advances accounts energy exactly like a run whose output
 * times are the t_next.  Nothing is allocated. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

/* The state at the integrator's last accepted point becomes the sim's. */
static void take_integrator_state(cosrod_sim *s) {
  double t = cosrod_integrator_t(s->integ);
  memcpy(s->sys.d->y, cosrod_integrator_y(s->integ), (size_t)s->sys.m->ny * sizeof *s->sys.d->y);
  s->t_now = t;
  if (sim_eval_all(&s->sys, t, s->sys.d->y, NULL, NULL) == COSROD_OK) s->energy = sim_energy_from_data(&s->sys, s->acc.W, s->acc.D);
}

static cosrod_status start_stepping(cosrod_sim *s) {
  s->ran = 1;
  s->sys.d->msg[0] = '\0';
  if (s->stat) {
    cosrod_status st = equilibrium_start(s);
    if (st != COSROD_OK) return st;
  }
  s->acc.t = 0.0;
  s->acc.W = s->acc.D = s->need_rates < 0 ? NAN : 0.0;
  s->t_frame = -INFINITY;
  cosrod_status st = cosrod_integrator_init(s->integ, 0.0, s->sys.d->y0, NULL);
  if (st != COSROD_OK) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "%s", cosrod_integrator_message(s->integ));
    return st;
  }
  memcpy(s->sys.d->y, s->sys.d->y0, (size_t)s->sys.m->ny * sizeof *s->sys.d->y);
  s->t_now = 0.0;
  s->stepping = 1;
  return COSROD_OK;
}

void cosrod_sim_set_observer(cosrod_sim *s, const cosrod_sim_observer *obs) {
  if (s) s->obs = obs;
}

cosrod_status cosrod_sim_advance(cosrod_sim *s, double t_next) {
  if (!s || s->analysis != COSROD_SC_ANALYSIS_DYNAMIC || !isfinite(t_next)) return COSROD_ERR_INVALID;
  if (!s->stepping) {
    if (s->ran) return COSROD_ERR_INVALID; /* after cosrod_sim_run */
    cosrod_status st = start_stepping(s);
    if (st != COSROD_OK) return st;
  }
  if (t_next < s->t_now) return COSROD_ERR_INVALID;
  if (t_next == s->t_now) return COSROD_OK;
  s->sys.d->msg[0] = '\0';
  s->t_fail = NAN;
  cosrod_output_spec spec = {0};
  spec.step_history = sim_step_cb;
  spec.user = s;
  const volatile sig_atomic_t *prev = cosrod_interrupt_install(s->obs ? s->obs->stop : NULL);
  cosrod_status st = cosrod_integrator_evolve(s->integ, t_next, &spec);
  cosrod_interrupt_install(prev);
  if (st != COSROD_OK) {
    if (!s->sys.d->msg[0]) snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "%s", cosrod_integrator_message(s->integ));
    if (!s->sys.d->msg[0]) snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "%s", cosrod_strerror(st));
    s->t_fail = cosrod_integrator_fail_time(s->integ);
  }
  take_integrator_state(s);
  if (st == COSROD_OK) s->t_now = s->t_frame = t_next; /* the driver lands on t_end exactly */
  return st;
}

cosrod_status cosrod_sim_set_state(cosrod_sim *s, double t, const double *y) {
  if (!s || !y || s->analysis != COSROD_SC_ANALYSIS_DYNAMIC || !isfinite(t) || t < 0.0)
    return COSROD_ERR_INVALID;
  if (s->ran && !s->stepping) return COSROD_ERR_INVALID;
  for (int i = 0; i < s->sys.m->ny; i++)
    if (!isfinite(y[i])) return COSROD_ERR_INVALID;
  double rW, rD;
  cosrod_status st = sim_eval_all(&s->sys, t, y, &rW, &rD);
  if (st != COSROD_OK) {
    if (s->stepping) sim_eval_all(&s->sys, s->t_now, s->sys.d->y, NULL, NULL); /* restore the rods' data */
    return st;
  }
  st = cosrod_integrator_init(s->integ, t, y, NULL);
  if (st != COSROD_OK) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "%s", cosrod_integrator_message(s->integ));
    return st;
  }
  if (!s->stepping) {
    s->ran = 1;
    s->acc.W = s->acc.D = s->need_rates < 0 ? NAN : 0.0;
    s->t_frame = -INFINITY;
  }
  memcpy(s->sys.d->y, y, (size_t)s->sys.m->ny * sizeof *y);
  s->acc.t = s->t_now = t;
  s->acc.rW_prev = rW;
  s->acc.rD_prev = rD;
  s->stepping = 1;
  s->energy = sim_energy_from_data(&s->sys, s->acc.W, s->acc.D);
  return COSROD_OK;
}

cosrod_status cosrod_sim_set_load_fn(cosrod_sim *s, size_t r, cosrod_rod_load_fn fn, void *user) {
  if (!s || r >= s->sys.m->nrods || s->ran) return COSROD_ERR_INVALID;
  if (s->au && sim_auto_note_load(s->au, s->sys.m->nrods, r, fn, user) != COSROD_OK) return COSROD_ERR_NOMEM;
  cosrod_rod_set_load_fn(s->sys.m->rods[r], fn, user);
  if (fn && s->need_rates == 0) s->need_rates = 1; /* the callback may do work */
  /* the rates at t = 0 (energy quadrature) and the initial energy with the callback */
  if (sim_eval_all(&s->sys, 0.0, s->sys.d->y0, &s->acc.rW_prev, &s->acc.rD_prev) != COSROD_OK) return COSROD_ERR_CALLBACK;
  s->energy = sim_energy_from_data(&s->sys, 0.0, 0.0);
  return COSROD_OK;
}
