// SPDX-License-Identifier: Apache-2.0
/* Embedding cosrod in a host loop: load a scenario, then advance the
 * simulation in steps of dt and print the tip of rod 0 and the energy balance.
 *   advance SCENARIO.yaml [dt] [steps]
 * Built by CMake as build/examples/c/cosrod_advance (see README, "Embedding in C"). */
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SCENARIO.yaml [dt] [steps]\n", argv[0]);
    return 2;
  }
  double dt = argc > 2 ? atof(argv[2]) : 0.01;
  int steps = argc > 3 ? atoi(argv[3]) : 100;
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(argv[1], NULL, 0, &st);
  if (st != COSROD_OK) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 2;
  }
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    cosrod_scenario_free(sc);
    return 2;
  }
  int rc = 0;
  printf("t,tip_x,tip_y,tip_z,balance\n");
  for (int k = 1; k <= steps; k++) {
    st = cosrod_sim_advance(sim, k * dt);
    if (st != COSROD_OK) {
      fprintf(stderr, "advance to t = %g failed: %s\n", k * dt, cosrod_sim_message(sim));
      rc = 1;
      break;
    }
    double tip[3];
    cosrod_sim_tip(sim, 0, tip);
    printf("%.6g,%.9g,%.9g,%.9g,%.9g\n", cosrod_sim_t(sim), tip[0], tip[1], tip[2],
           cosrod_sim_energy_now(sim).balance);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return rc;
}
