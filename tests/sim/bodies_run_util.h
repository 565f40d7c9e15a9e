// SPDX-License-Identifier: Apache-2.0
/* A recorded run of a scenario to an output directory, as `cosrod run`
 * makes it (cosrod_sim + cosrod_recorder), with the outcome the bodies tests
 * check: status, times, counters, energy balance at t = 0 and at the end,
 * and the failure message.  Rigid bodies without rods run through the same
 * simulation as everything else. */
#ifndef COSROD_BODIES_RUN_UTIL_H
#define COSROD_BODIES_RUN_UTIL_H

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/record.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"

typedef struct run_result {
  cosrod_status status;         /* OK, ERR_INTERRUPTED, or what ended the run */
  double t_reached, t_failed;   /* [s]; t_failed NaN if none */
  cosrod_integrate_stats stats; /* integrator counters */
  double energy_balance0;       /* kinetic + elastic + gravity + dissipated - work at t = 0 [J] */
  double energy_balance;        /* the same at t_reached [J] */
  char message[512];            /* "" or why the run failed */
} run_result;

typedef struct run_obs {
  cosrod_recorder *rec;
  run_result *res;
  int have0;
} run_obs;

static inline int run_obs_frame(void *u, const cosrod_sim *sim, double t) {
  run_obs *o = u;
  if (!o->have0) {
    o->res->energy_balance0 = cosrod_sim_energy_now(sim).balance;
    o->have0 = 1;
  }
  return cosrod_recorder_frame(o->rec, sim, t);
}
static inline int run_obs_step(void *u, const cosrod_sim *sim, double t, double h, int accepted) {
  (void)sim;
  return cosrod_recorder_step(((run_obs *)u)->rec, t, h, accepted);
}

/* Run sc (file: its path for summary.json) writing DIR.  An invalid model
 * returns COSROD_ERR_PARSE with one line in err and writes nothing;
 * otherwise the run's status (also in res). */
static inline cosrod_status run_to_dir(const cosrod_scenario *sc, const char *file, const char *dir,
                                       const volatile sig_atomic_t *stop, run_result *res, char *err,
                                       size_t errlen) {
  memset(res, 0, sizeof *res);
  res->t_failed = NAN;
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim && err && errlen) snprintf(err, errlen, "%s", cosrod_last_error());
  if (!sim) return res->status = st == COSROD_ERR_NOMEM ? st : COSROD_ERR_PARSE;
  cosrod_recorder *rec = cosrod_recorder_create(sim, dir, file, 0.0, &st);
  if (!rec && err && errlen) snprintf(err, errlen, "%s", cosrod_last_error());
  if (!rec) {
    cosrod_sim_free(sim);
    return res->status = st;
  }
  run_obs o = {rec, res, 0};
  cosrod_sim_observer obs = {run_obs_frame, run_obs_step, &o, stop, NULL};
  cosrod_status run = cosrod_sim_run(sim, &obs);
  cosrod_record_end end;
  cosrod_status cst = cosrod_recorder_finish(rec, sim, run, 0.0, NULL, &end);
  res->status = end.status == COSROD_OK ? cst : end.status;
  res->t_reached = cosrod_sim_t(sim);
  res->t_failed = end.t_failed;
  res->stats = *cosrod_sim_stats(sim);
  res->energy_balance = cosrod_sim_energy_now(sim).balance;
  snprintf(res->message, sizeof res->message, "%s", end.message);
  cosrod_recorder_free(rec);
  cosrod_sim_free(sim);
  return res->status;
}

#endif
