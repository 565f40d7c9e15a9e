// SPDX-License-Identifier: Apache-2.0
/* Shared preamble of the sim tests: a scenario (an example file with --set
 * overrides, or inline YAML text) and the simulation built from it.  On
 * failure the helpers record a failed check with the loader's / creator's
 * message, free what they made, set *scp = NULL and return NULL. */
#ifndef COSROD_SIM_TEST_UTIL_H
#define COSROD_SIM_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"

/* Directory of the example scenarios (COSROD_EXAMPLES, set by CTest). */
static inline const char *sim_test_examples_dir(void) {
  const char *e = getenv("COSROD_EXAMPLES");
  return e ? e : "examples";
}

/* The simulation of *scp (already loaded; freed on failure). */
static inline cosrod_sim *sim_test_create(cosrod_scenario **scp) {
  if (!*scp) return NULL;
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(*scp, &st);
  CHECK("sim created", sim != NULL);
  if (!sim) {
    NOTE("create: %s", cosrod_last_error());
    cosrod_scenario_free(*scp);
    *scp = NULL;
  }
  return sim;
}

/* examples/<name>.yaml with overrides. */
static inline cosrod_sim *sim_test_load(const char *name, const char *const *sets, size_t nsets,
                                        cosrod_scenario **scp) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.yaml", sim_test_examples_dir(), name);
  *scp = NULL;
  cosrod_status st = COSROD_OK;
  *scp = cosrod_scenario_load(path, sets, nsets, &st);
  CHECK("scenario loads", st == COSROD_OK);
  if (st != COSROD_OK) {
    NOTE("load %s: %s", path, cosrod_last_error());
    *scp = NULL;
    return NULL;
  }
  return sim_test_create(scp);
}

/* Scenario text (reported as file `name`) with overrides. */
static inline cosrod_sim *sim_test_parse(const char *text, const char *name, const char *const *sets, size_t nsets,
                                         cosrod_scenario **scp) {
  *scp = NULL;
  cosrod_status st = COSROD_OK;
  *scp = cosrod_scenario_parse(text, strlen(text), name, sets, nsets, &st);
  CHECK("scenario parses", st == COSROD_OK);
  if (st != COSROD_OK) {
    NOTE("parse: %s", cosrod_last_error());
    *scp = NULL;
    return NULL;
  }
  return sim_test_create(scp);
}

/* sim_test_parse, then cosrod_sim_run with obs (may be NULL), checked
 * ("run ok", the message noted on failure); the run's status in *st. */
static inline cosrod_sim *sim_test_run(const char *text, const char *name, const char *const *sets, size_t nsets,
                                       const cosrod_sim_observer *obs, cosrod_scenario **scp, cosrod_status *st) {
  cosrod_sim *sim = sim_test_parse(text, name, sets, nsets, scp);
  *st = COSROD_ERR_INVALID;
  if (!sim) return NULL;
  *st = cosrod_sim_run(sim, obs);
  CHECK("run ok", *st == COSROD_OK);
  if (*st != COSROD_OK) NOTE("run: %s: %s", cosrod_status_name(*st), cosrod_sim_message(sim));
  return sim;
}

/* Steel-like rod (L = 1 m, r = 2 mm) clamped at the origin hanging down,
 * its lower end clamped to a 10 kg body `bob` 5 cm above the body's centre;
 * static analysis (the statics-with-bodies tests). */
#define SIM_TEST_HANG                                                                         \
  "cosrod: 1\n"                                                                               \
  "gravity: [0, 0, -9.81]\n"                                                                  \
  "rods:\n"                                                                                   \
  "  - name: rod\n"                                                                           \
  "    length: 1.0\n"                                                                         \
  "    segments: 10\n"                                                                        \
  "    material: {E: 2.0e11, poisson: 0.3, density: 7800}\n"                                  \
  "    section: {shape: circle, radius: 2.0e-3}\n"                                            \
  "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n" \
  "    ends:\n"                                                                               \
  "      start: {type: clamped}\n"                                                            \
  "      end: {type: clamped, body: bob, at: [0, 0, 0.05]}\n"                                 \
  "bodies:\n"                                                                                 \
  "  - {name: bob, mass: 10.0, inertia: [0.02, 0.02, 0.01], position: [0, 0, -1.05]}\n"       \
  "analysis: {type: static}\n"                                                                \
  "output: {every: 0.5}\n"

/* Observer frame callback (user: sim_test_rest, body set): body `body`'s
 * first position, its largest move from it (any component) and the largest
 * kinetic energy over the frames. */
typedef struct sim_test_rest {
  size_t body;
  double x0[3], dx, ke;
  int n;
} sim_test_rest;

static inline int sim_test_rest_frame(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  sim_test_rest *r = user;
  double x[3];
  cosrod_sim_body(sim, r->body, x, NULL, NULL);
  if (r->n++ == 0) memcpy(r->x0, x, sizeof x);
  for (int k = 0; k < 3; ++k) r->dx = fmax(r->dx, fabs(x[k] - r->x0[k]));
  r->ke = fmax(r->ke, cosrod_sim_energy_now(sim).kinetic);
  return 0;
}

/* Scenario text (as file `name`) with one override `set` that cosrod_sim_create
 * refuses: the error names `key` and contains `sub`. */
static inline void sim_test_refused(const char *text, const char *name, const char *set, const char *key,
                                    const char *sub) {
  cosrod_scenario *sc = NULL;
  const char *sets[] = {set};
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, strlen(text), name, sets, 1, &st);
  CHECK("parses", st == COSROD_OK);
  if (st != COSROD_OK) {
    NOTE("%s", cosrod_last_error());
    return;
  }
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  NOTE("%s", cosrod_last_error());
  CHECK("refused", sim == NULL && st != COSROD_OK);
  CHECK("names the key", strstr(cosrod_last_error(), key) != NULL);
  CHECK("says why", strstr(cosrod_last_error(), sub) != NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Observer of the energy balance (cosrod_sim_energy_now at every output):
 * its drift from the first frame, the energy scale, the last external work
 * W and dissipation D. */
typedef struct sim_test_bal {
  double b0, drift, scale, W, D;
  long n;
} sim_test_bal;

static inline int sim_test_on_bal(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  sim_test_bal *c = user;
  cosrod_sim_energy e = cosrod_sim_energy_now(sim);
  if (c->n++ == 0) c->b0 = e.balance;
  if (fabs(e.balance - c->b0) > c->drift) c->drift = fabs(e.balance - c->b0);
  double sc = fabs(e.kinetic) + fabs(e.elastic) + fabs(e.external_work) + fabs(e.dissipated);
  if (sc > c->scale) c->scale = sc;
  c->W = e.external_work;
  c->D = e.dissipated;
  return 0;
}

/* A scenario given as YAML text (file name `name` in messages, `sets`
 * overrides), its simulation and the status of a run to the end; a failure
 * is noted with the loader's or the run's message.  Free with
 * sim_text_run_free. */
typedef struct sim_text_run {
  cosrod_scenario *sc;
  cosrod_sim *sim;
  cosrod_status st;
} sim_text_run;

static inline sim_text_run sim_text_run_start(const char *text, const char *name, const char *const *sets,
                                              size_t nsets) {
  sim_text_run R = {0};
  R.sc = cosrod_scenario_parse(text, strlen(text), name, sets, nsets, &R.st);
  if (R.st == COSROD_OK) R.sim = cosrod_sim_create(R.sc, &R.st);
  if (R.st == COSROD_OK) R.st = cosrod_sim_run(R.sim, NULL);
  if (R.st != COSROD_OK) NOTE("run: %s %s", cosrod_strerror(R.st), cosrod_last_error()[0] ? cosrod_last_error() : cosrod_sim_message(R.sim));
  return R;
}

static inline void sim_text_run_free(sim_text_run *R) {
  cosrod_sim_free(R->sim);
  cosrod_scenario_free(R->sc);
}

/* A free body (0.1 kg) carrying a short steel rod (2 segments, 0.2 m) clamped
 * at an offset point, pulled by 1 N at its centre in zero gravity; radau5 at
 * rtol = atol = 1e-8 over 0.2 s (test_sim_couple_mass.c; test_sim_dae_alg.c
 * and tests/system/test_system_kirchhoff_body_jac.c change it by --set). */
static inline const char *sim_test_pulled(void) {
  return
    "cosrod: 1\n"
    "gravity: [0, 0, 0]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 0.2\n"
    "    segments: 2\n"
    "    material: {E: 2.0e11, poisson: 0.3, density: 7800}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0.05, 0.03, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: bob, at: [0.05, 0.03, 0]}\n"
    "      end: {type: free}\n"
    "bodies:\n"
    "  - name: bob\n"
    "    mass: 0.1\n"
    "    inertia: [1.0e-4, 2.0e-4, 3.0e-4]\n"
    "    position: [0, 0, 0]\n"
    "    loads: [{type: force, value: [-1.0, 0, 0]}]\n"
    "analysis: {type: dynamic, t_end: 0.2}\n"
    "solver: {integrator: radau5, rtol: 1.0e-8, atol: 1.0e-8}\n"
    "output: {every: 0.2, fields: [tip]}\n";
}

#endif
