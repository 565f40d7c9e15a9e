// SPDX-License-Identifier: Apache-2.0
/* Output times of static runs: an output.every finer than the
 * nominal increment 1/K (typically a dynamic file's every in seconds: 0.01
 * would mean 100 extra landing solves on the pseudo-time [0, 1]) falls back
 * to the static default, a frame per nominal increment; coarser output
 * pseudo-times are honoured, dynamic runs keep their every. */
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/scenario.h"
#include "harness.h"

static double every_of(const char *example, const char *const *sets, size_t nsets) {
  const char *e = getenv("COSROD_EXAMPLES");
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.yaml", e ? e : "examples", example);
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, sets, nsets, &st);
  if (st != COSROD_OK) NOTE("%s", cosrod_last_error());
  CHECK("loads", st == COSROD_OK);
  double every = sc ? sc->output.every : -1.0;
  cosrod_scenario_free(sc);
  return every;
}

TEST(static_run_keeps_its_output_default) {
  /* omega-twist: static, 25 increments, output.every = 0.25 */
  CHECK_NEAR("static file: its every (coarser than 1/K)", every_of("omega-twist", NULL, 0), 0.25, 0.0);
  const char *a[] = {"output.every=0.01"};
  CHECK_NEAR("every 0.01 < 1/K: the increments 1/25", every_of("omega-twist", a, 1), 1.0 / 25.0, 1e-15);
  const char *b[] = {"output.every=0.04"};
  CHECK_NEAR("every = 1/K: honoured", every_of("omega-twist", b, 1), 0.04, 0.0);
  const char *c[] = {"output.every=0.01", "analysis.increments=100"};
  CHECK_NEAR("every 0.01 with K = 100: honoured", every_of("omega-twist", c, 2), 0.01, 0.0);
  /* perf-steel: dynamic, output.every = 0.01 s */
  CHECK_NEAR("dynamic run: the file's every", every_of("perf-steel", NULL, 0), 0.01, 0.0);
}

static const th_case cases[] = {TH_CASE(static_run_keeps_its_output_default)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
