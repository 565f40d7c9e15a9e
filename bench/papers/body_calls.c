// SPDX-License-Identifier: Apache-2.0
/* A fixed number of right-hand-side calls of the free rigid body of [L]
 * Example B (examples/tennis-racket.yaml: no gravity, no loads, the setting
 * of [L] Table 1) in one formulation, for the operation counts of
 * bench/papers/body_flops.sh (callgrind; two call counts, the difference
 * removes the set-up).
 * Usage: body_calls EXAMPLES_DIR FORMULATION PARAMETRISATION CALLS
 *   FORMULATION nullspace | absolute, PARAMETRISATION quaternion | directors |
 *   euler-angles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/body.h"
#include "cosrod/integrate.h"
#include "cosrod/scenario.h"
#include "sim/sim_translate.h"

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: body_calls EXAMPLES_DIR FORMULATION PARAMETRISATION CALLS\n");
    return 2;
  }
  char path[1024], sf[64], sp[64], err[512];
  snprintf(path, sizeof path, "%s/tennis-racket.yaml", argv[1]);
  snprintf(sf, sizeof sf, "solver.formulation=%s", argv[2]);
  snprintf(sp, sizeof sp, "bodies.0.parametrisation=%s", argv[3]);
  const char *sets[2] = {sf, sp};
  long calls = atol(argv[4]);
  cosrod_scenario *sc = cosrod_scenario_load(path, sets, 2, NULL);
  if (!sc) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  cosrod_status st;
  cosrod_mbs *m = cosrod_sim_bodies_create(sc, &st, err, sizeof err);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    cosrod_scenario_free(sc);
    return 1;
  }
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  int n = cosrod_mbs_n(m);
  double *y = calloc((size_t)n, sizeof *y), *yd = calloc((size_t)n, sizeof *yd), acc = 0.0;
  cosrod_mbs_initial_state(m, y);
  for (long c = 0; c < calls; ++c) {
    y[0] += 1e-9; /* a different state each call */
    p.f(0.0, y, yd, p.user);
    acc += yd[n - 1];
  }
  printf("n = %d, checksum %.6g\n", n, acc);
  free(y), free(yd);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
  cosrod_scenario_free(sc);
  return 0;
}
