// SPDX-License-Identifier: Apache-2.0
/* Stability of an equilibrium at fixed load (statics/statics_path.c
 * equilibrium, statics_ptc.c's descent).  Newton from a given shape
 * converges to the nearest equilibrium, stable or not.  The rubber rod of
 * examples/rubber-pendulum.yaml pinned at its lower end and given upright
 * under gravity is such an unstable one (it buckles under its own weight and
 * can fall as a pendulum); start_from_equilibrium and the modal analysis
 * must not use it silently but the stable equilibrium, hanging straight
 * down, with a warning that says so.
 *
 * Reference: the discrete rod with lumped vertex weights stretches by
 * exactly ρ g L² / (2E) when it hangs: segment k (from the pin) carries the
 * weight of the vertices below it, ρAgL (N - k - 1/2) / N, over Δs = L/N,
 * and Σ_k (N - k - 1/2) = N²/2; so the tip is at -(L + ρ g L² / (2E)) e_z.
 * The modes: those of the hanging rod; the pendulum pair near the hanging
 * chain's ω = (j₀,₁ / 2) √(g/L), j₀,₁ = 2.404826 (the rod is nearly a
 * chain: EI / (ρAgL³) = 2.9e-3). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sim_test_util.h"

static const double L = 1.0, RHO = 1100.0, E = 5.0e6, G = 9.81;

static int has_warning(const cosrod_sim *sim, const char *a, const char *b) {
  for (size_t i = 0; i < cosrod_sim_nwarnings(sim); i++) {
    const char *w = cosrod_sim_warning(sim, i);
    NOTE("warning: %s", w);
    if (strstr(w, a) && (!b || strstr(w, b))) return 1;
  }
  return 0;
}

#define UPRIGHT "rods.0.shape.direction=[0, 0, 1]", "rods.0.shape.normal=[1, 0, 0]"
#define HANGING "rods.0.shape.direction=[0, 0, -1]", "rods.0.shape.normal=[1, 0, 0]"

static void start_from(const char *dir, const char *normal, int upright) {
  const char *sets[] = {dir, normal, "analysis.start_from_equilibrium=true", "analysis.t_end=0.01",
                        "output.every=0.01"};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("rubber-pendulum", sets, 5, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double tip[3];
  cosrod_sim_tip(sim, 0, tip);
  const double z = -(L + RHO * G * L * L / (2.0 * E));
  NOTE("tip after 0.01 s: (%.3e, %.3e, %.12f) m, expected z = %.12f m", tip[0], tip[1], tip[2], z);
  /* at rest at the equilibrium: the run moves it by the integration error
   * only (dopri5 at rtol 1e-8 over 0.01 s: far below 1e-8 m) */
  CHECK_NEAR("hangs straight down: x", tip[0], 0.0, 1e-8);
  CHECK_NEAR("hangs straight down: y", tip[1], 0.0, 1e-8);
  CHECK_NEAR("stretched by its weight: z = -(L + rho g L^2 / 2E)", tip[2], z, 1e-8);
  const int warned = has_warning(sim, "start_from_equilibrium", "unstable");
  if (upright) CHECK("the unstable start is reported", warned && has_warning(sim, "downhill", "instead"));
  else CHECK("a stable start is not reported", !warned);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(upright_pendulum_starts_from_the_stable_equilibrium) { start_from(UPRIGHT, 1); }
TEST(hanging_pendulum_starts_unchanged) { start_from(HANGING, 0); }

/* The modes (count 4) of the start dir/normal into w; their number. */
static int modes(const char *dir, const char *normal, double w[4], int *warned) {
  const char *sets[] = {dir, normal, "analysis={type: modes, count: 4}"};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("rubber-pendulum", sets, 3, &sc);
  if (!sim) return 0;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("modes ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  int nm = cosrod_sim_nmodes(sim);
  for (int i = 0; i < nm && i < 4; i++) {
    double f;
    const double *shape;
    cosrod_sim_mode(sim, i, &w[i], &f, &shape);
  }
  *warned = has_warning(sim, "modes", "downhill");
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return nm;
}

/* The upright start's modes are those of the hanging rod: the same
 * equilibrium, reached downhill instead of by Newton from the hanging shape
 * (both converged to the residual's roundoff floor: the frequencies agree
 * to ~1e-8; 1e-6 relative allows the eigensolver's tolerance).  An unstable
 * equilibrium would give the falling motions ω² < 0 (|ω| ~ √(g/L) = 3 rad/s);
 * the pin's free spin about the axis is a rigid mode, ω = 0 to roundoff.
 * The pendulum pair lies near the hanging chain's (EI / (ρAgL³) = 2.9e-3):
 * within 1 % (10 lumped segments: the discrete chain is lower by ~0.2 %). */
TEST(modes_of_the_upright_pendulum_are_those_of_the_hanging_one) {
  double wu[4] = {0}, wh[4] = {0};
  int warned_u = 0, warned_h = 0;
  const int nu = modes(UPRIGHT, wu, &warned_u), nh = modes(HANGING, wh, &warned_h);
  CHECK("4 modes each", nu == 4 && nh == 4);
  const double w_chain = 0.5 * 2.404826 * sqrt(G / L);
  int negative = 0;
  for (int i = 0; i < 4; i++) {
    NOTE("mode %d: upright start %.9g rad/s, hanging start %.9g rad/s", i, wu[i], wh[i]);
    if (wu[i] < -1e-3) negative++;
    if (i > 0) CHECK_NEAR("same frequency as the hanging start (relative)", wu[i] / wh[i], 1.0, 1e-6);
  }
  CHECK("no falling mode of an unstable equilibrium (omega^2 < 0)", negative == 0);
  CHECK_NEAR("rigid spin about the axis", wu[0], 0.0, 1e-3);
  CHECK_NEAR("pendulum pair near the hanging chain's (relative)", wu[1] / w_chain, 1.0, 1e-2);
  CHECK("the replaced start is reported", warned_u);
  CHECK("the hanging start is not", !warned_h);
}

static const th_case cases[] = {
    TH_CASE(upright_pendulum_starts_from_the_stable_equilibrium),
    TH_CASE(hanging_pendulum_starts_unchanged),
    TH_CASE(modes_of_the_upright_pendulum_are_those_of_the_hanging_one),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
