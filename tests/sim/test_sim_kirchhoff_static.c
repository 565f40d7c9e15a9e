// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff rods through the driver's static paths ([LA] §3-4): the
 * inextensible steel cantilever (examples/steel-cantilever.yaml, L = 1,
 * r = 0.01, clamped) under its weight w = ρAg.
 * - `analysis: static`: the tip sag at t = 1 against the small-deflection
 *   closed form w L⁴ / (8 EI) (sag/L = 1.8e-3: the nonlinear correction is
 *   ~1e-6, the discretisation error O(N⁻²): checked at N = 20 and 40);
 * - `start_from_equilibrium` for a dynamic run: the same tip at t = 0, a
 *   rest state of the constrained dynamics (kinetic energy at the
 *   integration-error level over 0.05 s). */
#include <math.h>

#include "sim_test_util.h"

#define MAXF 16

typedef struct rec {
  int n;
  double tip[MAXF][3];
  cosrod_sim_energy e[MAXF];
} rec;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  rec *r = user;
  if (r->n < MAXF) {
    cosrod_sim_tip(sim, 0, r->tip[r->n]);
    r->e[r->n] = cosrod_sim_energy_now(sim);
    r->n++;
  }
  return 0;
}

static int run_rec(const char *const *sets, size_t nsets, rec *r) {
  cosrod_scenario *sc;
  memset(r, 0, sizeof *r);
  cosrod_sim *sim = sim_test_load("steel-cantilever", sets, nsets, &sc);
  if (!sim) return -1;
  cosrod_sim_observer obs = {on_frame, NULL, r, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK ? 0 : -1;
}

TEST(kirchhoff_cantilever_static_and_equilibrium_start) {
  const double E = 2.1e11, rho = 7850.0, r = 0.01, L = 1.0, g = 9.81, PI = 3.14159265358979323846;
  const double w = rho * PI * r * r * g, EI = E * PI * r * r * r * r / 4.0, sag = w * L * L * L * L / (8.0 * EI);
  rec st, dy;
  const char *s1[] = {"analysis={type: static, increments: 4}", "output.every=0.5", "output.plots=false"};
  CHECK("static run", run_rec(s1, 3, &st) == 0);
  const char *s2[] = {"analysis.start_from_equilibrium=true", "analysis.t_end=0.05", "output.every=0.01",
                      "output.plots=false", "solver.rtol=1e-9", "solver.atol=1e-12"};
  CHECK("dynamic run from the equilibrium", run_rec(s2, 6, &dy) == 0);
  if (st.n != 3 || dy.n != 6) {
    NOTE("frames: static %d, dynamic %d", st.n, dy.n);
    CHECK("frames", 0);
    return;
  }
  const double *tip = st.tip[2];
  NOTE("static tip (%.9g, %.9g, %.9g); closed form sag %.9g m, relative error %.3e", tip[0], tip[1], tip[2], sag,
       fabs(-tip[2] - sag) / sag);
  const double e20 = fabs(-tip[2] - sag) / sag;
  CHECK_LE("tip sag = w L^4 / 8 EI (N = 20: within 3e-3)", e20, 3e-3);
  rec s40;
  const char *s3[] = {"analysis={type: static, increments: 4}", "output.every=0.5", "output.plots=false",
                      "rods.0.segments=40"};
  CHECK("static run N = 40", run_rec(s3, 4, &s40) == 0);
  if (s40.n == 3) {
    const double e40 = fabs(-s40.tip[2][2] - sag) / sag;
    NOTE("N = 40: relative error %.3e, order %.3f", e40, log2(e20 / e40));
    CHECK("second order in N", log2(e20 / e40) > 1.8 && log2(e20 / e40) < 2.2);
  }
  CHECK_LE("inextensible: the tip moves towards the clamp by ~ (3/5) sag^2 / L", fabs(L - tip[1]), 2.0 * sag * sag / L);
  CHECK_NEAR("equilibrium start = static tip (z)", dy.tip[0][2], tip[2], 1e-9 * sag);
  CHECK_NEAR("equilibrium start = static tip (y)", dy.tip[0][1], tip[1], 1e-12);
  double kmax = 0.0, dz = 0.0;
  for (int i = 0; i < dy.n; ++i) {
    kmax = fmax(kmax, dy.e[i].kinetic);
    dz = fmax(dz, fabs(dy.tip[i][2] - dy.tip[0][2]));
  }
  NOTE("dynamic from the equilibrium: elastic %.4e J, max kinetic %.3e J, max tip drift %.3e m", dy.e[0].elastic,
       kmax, dz);
  CHECK("starts at rest", dy.e[0].kinetic == 0.0);
  CHECK_LE("stays at rest: kinetic <= 1e-8 elastic", kmax, 1e-8 * dy.e[0].elastic);
  CHECK_LE("tip drift <= 1e-6 sag", dz, 1e-6 * sag);
}

static const th_case cases[] = {TH_CASE(kirchhoff_cantilever_static_and_equilibrium_start)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
