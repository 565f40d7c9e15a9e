// SPDX-License-Identifier: Apache-2.0
/* Modes of Kirchhoff rods (statics/modes_kirchhoff.c): a clamped steel
 * cantilever (L = 1, r = 0.01) with negligible rotary inertia (ρI scaled by
 * 1e-4: the Euler–Bernoulli limit) has the bending eigenvalues
 * ω = (βL)² sqrt(EI/(ρA L⁴)), βL = 1.8751, 4.6941, 7.8548 (in two planes);
 * the discrete ones converge at order 2 in N for both Kirchhoff models. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/rod.h"
#include "cosrod/statics.h"
#include "harness.h"

static const double BETA[3] = {1.87510407, 4.69409113, 7.85475744};

/* βL of the first three bending modes (one of each pair) for N segments. */
static int beta_numeric(cosrod_rod_model model, int N, double beta[3]) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.model = model;
  def.E = 2.1e11, def.poisson = 0.3, def.density = 7850.0, def.radius = 0.01;
  const double A = 3.14159265358979 * 1e-4, I = 3.14159265358979 * 1e-8 / 4.0;
  def.rhoI1 = def.rhoI2 = 1e-4 * 7850.0 * I;
  def.rhoJ = 1e-4 * 7850.0 * 2.0 * I;
  def.ends[0].kind = COSROD_END_CLAMPED;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  if (!rod) return -1;
  double *y = malloc(sizeof(double) * (size_t)cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE));
  cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, y);
  double om[6];
  cosrod_status st = cosrod_statics_modes(rod, 0.0, y, 6, om, NULL, NULL, NULL);
  double c = sqrt(2.1e11 * I / (7850.0 * A));
  for (int i = 0; i < 3; ++i) beta[i] = sqrt(om[2 * i] / c);
  NOTE("model %d N %d: omega %.6g %.6g | %.6g %.6g | %.6g %.6g", (int)model, N, om[0], om[1], om[2], om[3],
       om[4], om[5]);
  free(y);
  cosrod_rod_free(rod);
  return st == COSROD_OK ? 0 : -1;
}

TEST(cantilever_modes_converge_to_euler_bernoulli) {
  for (int model = 1; model <= 2; ++model) {
    double b[3][3];
    const int Ns[3] = {10, 20, 40};
    for (int j = 0; j < 3; ++j)
      CHECK("modes computed", beta_numeric((cosrod_rod_model)model, Ns[j], b[j]) == 0);
    for (int i = 0; i < 3; ++i) {
      double e10 = fabs(b[0][i] - BETA[i]), e20 = fabs(b[1][i] - BETA[i]), e40 = fabs(b[2][i] - BETA[i]);
      char what[128];
      snprintf(what, sizeof what, "model %d mode %d: beta L at N = 40 (%.6f) vs %.6f, relative", model, i + 1,
               b[2][i], BETA[i]);
      /* second order: (βΔs)² / 12-ish; 7.85²/40²/12 = 3e-3 */
      CHECK_LE(what, e40 / BETA[i], 3e-3);
      double p1 = log2(e10 / e20), p2 = log2(e20 / e40);
      NOTE("model %d mode %d: errors %.3g %.3g %.3g, observed orders %.3f %.3f", model, i + 1, e10, e20, e40,
           p1, p2);
      snprintf(what, sizeof what, "model %d mode %d: observed order (N 20 -> 40) in [1.8, 2.2]", model,
               i + 1);
      CHECK(what, p2 > 1.8 && p2 < 2.2);
    }
  }
}

static const th_case cases[] = {TH_CASE(cantilever_modes_converge_to_euler_bernoulli)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
