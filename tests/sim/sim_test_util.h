/* Shared preamble of the sim tests: a scenario (an example file with --set
 * overrides, or inline YAML text) and the simulation built from it.  On
 * failure the helpers record a failed check with the loader's / creator's
 * message, free what they made, set *scp = NULL and return NULL. */
#ifndef COSROD_SIM_TEST_UTIL_H
#define COSROD_SIM_TEST_UTIL_H

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
  char err[512];
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(*scp, &st, err, sizeof err);
  CHECK("sim created", sim != NULL);
  if (!sim) {
    NOTE("create: %s", err);
    cosrod_scenario_free(*scp);
    *scp = NULL;
  }
  return sim;
}

/* examples/<name>.yaml with overrides. */
static inline cosrod_sim *sim_test_load(const char *name, const char *const *sets, size_t nsets,
                                        cosrod_scenario **scp) {
  char path[1024], err[512];
  snprintf(path, sizeof path, "%s/%s.yaml", sim_test_examples_dir(), name);
  *scp = NULL;
  cosrod_status st = cosrod_scenario_load(path, sets, nsets, scp, err, sizeof err);
  CHECK("scenario loads", st == COSROD_OK);
  if (st != COSROD_OK) {
    NOTE("load %s: %s", path, err);
    *scp = NULL;
    return NULL;
  }
  return sim_test_create(scp);
}

/* Scenario text (reported as file `name`) with overrides. */
static inline cosrod_sim *sim_test_parse(const char *text, const char *name, const char *const *sets, size_t nsets,
                                         cosrod_scenario **scp) {
  char err[512];
  *scp = NULL;
  cosrod_status st = cosrod_scenario_parse(text, strlen(text), name, sets, nsets, scp, err, sizeof err);
  CHECK("scenario parses", st == COSROD_OK);
  if (st != COSROD_OK) {
    NOTE("parse: %s", err);
    *scp = NULL;
    return NULL;
  }
  return sim_test_create(scp);
}

#endif
