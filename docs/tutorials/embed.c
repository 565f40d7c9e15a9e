// SPDX-License-Identifier: Apache-2.0
/* Tutorial: cosrod from C.
 *
 * Builds a scenario in code (the builder validates exactly like a file),
 * a steel cantilever under its own weight, and steps the simulation in the
 * host's own loop with cosrod_sim_advance.  Damping makes it settle at the
 * static tip deflection, which we compare with the Euler-Bernoulli value
 * w = q L^4 / (8 EI). */
#include <math.h>
#include <stdio.h>

#include "cosrod/cosrod.h"

int main(void) {
  cosrod_status st;
  cosrod_sc_builder *b = cosrod_sc_builder_create(NULL);
  const double L = 0.5, r = 2e-3, E = 2.1e11, rho = 7850, g = 9.81;
  cosrod_sc_builder_set(b, "gravity", "[0, 0, -9.81]");
  cosrod_sc_builder_set(b, "materials", "{steel: {E: 2.1e11, poisson: 0.3, density: 7850}}");
  cosrod_sc_builder_set(b, "rods",
                        "[{length: 0.5, segments: 20, material: steel, section: {shape: circle, radius: 2e-3},"
                        " shape: {direction: [1, 0, 0], normal: [0, 0, 1]}, ends: {start: {type: clamped}},"
                        " damping: {kelvin_voigt: {tau_shear: 0.02, tau_bulk: 0.02}}}]");
  cosrod_sc_builder_set(b, "analysis", "{type: dynamic, t_end: 2.0}");
  cosrod_sc_builder_set(b, "solver", "{integrator: radau5, rtol: 1e-7, atol: 1e-9}");
  cosrod_scenario *sc = cosrod_sc_builder_finish(b, &st);
  cosrod_sc_builder_free(b);
  if (!sc) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 2;
  }
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    cosrod_scenario_free(sc);
    return 2;
  }
  double tip[3] = {0, 0, 0};
  for (int k = 1; k <= 8; k++) {
    if (cosrod_sim_advance(sim, 0.25 * k) != COSROD_OK) {
      fprintf(stderr, "%s\n", cosrod_sim_message(sim));
      break;
    }
    cosrod_sim_tip(sim, 0, tip);
    printf("t = %.2f s  tip z = %.6f m\n", cosrod_sim_t(sim), tip[2]);
  }
  const double pi = 3.14159265358979323846;
  const double I = pi * pow(r, 4) / 4, q = rho * pi * r * r * g;
  const double w = q * pow(L, 4) / (8 * E * I);
  printf("Euler-Bernoulli static deflection %.6f m, simulated %.6f m\n", w, -tip[2]);
  int ok = fabs(-tip[2] / w - 1) < 0.02;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return ok ? 0 : 1;
}
