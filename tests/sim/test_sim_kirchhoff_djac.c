// SPDX-License-Identifier: Apache-2.0
/* The analytic Jacobian of the Kirchhoff DAE form in a run: rodas, a
 * Rosenbrock method, keeps its order and stability only with the exact
 * Jacobian.  On the damped steel pendulum (Kelvin-Voigt tau = 1e-3 s: the
 * bending / torsion modes have eigenvalues ~ -tau w^2 far left) at
 * rtol = atol = 1e-8 it took 3215 steps, every one accepted, with the banded
 * forward-difference Jacobian (relative error ~ sqrt(eps)), 305 with a
 * central-difference one; with the analytic one it must take about the
 * latter, and agree with radau5 (which is insensitive to J) within the
 * tolerance. */
#include <math.h>
#include <stdio.h>

#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

static int run_pendulum(const char *integ, double tip[3], long *nsteps) {
  char in[64];
  snprintf(in, sizeof in, "solver.integrator=%s", integ);
  const char *sets[] = {in,
                        "solver.formulation=dae",
                        "solver.rtol=1e-8",
                        "solver.atol=1e-8",
                        "rods.0.segments=10",
                        "rods.0.ends.start.type=pinned",
                        "rods.0.damping.kelvin_voigt.tau_shear=1e-3",
                        "rods.0.damping.kelvin_voigt.tau_bulk=1e-3",
                        "analysis.t_end=0.05",
                        "output.every=0.05",
                        "solver.max_steps=100000"};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("steel-cantilever", sets, 11, &sc);
  if (!sim) return 0;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run OK", st == COSROD_OK);
  cosrod_sim_tip(sim, 0, tip);
  *nsteps = cosrod_sim_stats(sim)->nsteps;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

/* Step count: the central-difference J gave 305 steps, the forward one
 * 3215; 600 separates them with a factor 2 margin either way.  Agreement:
 * each method keeps its local error below atol + rtol |y| <= 2e-8 (|tip| <= 1
 * m) per step, and the damped problem contracts errors, so the global tip
 * error of each stays of that order; 10x that for the difference of two
 * methods (2e-7 m). */
TEST(rodas_damped_pendulum_exact_jacobian) {
  double tr[3], ta[3];
  long nr = 0, na = 0;
  if (!run_pendulum("radau5", ta, &na) || !run_pendulum("rodas", tr, &nr)) return;
  double dmax = 0.0;
  for (int i = 0; i < 3; ++i) dmax = fmax(dmax, fabs(tr[i] - ta[i]));
  NOTE("rodas %ld steps, radau5 %ld steps, tip difference %.3g m (tip z %.9g)", nr, na, dmax, tr[2]);
  CHECK("tip has moved (m)", fabs(tr[2]) > 1e-3);
  CHECK_LE("rodas steps (forward-difference J: 3215, central: 305)", (double)nr, 600.0);
  CHECK_LE("rodas tip vs radau5 (m)", dmax, 2e-7);
}

static const th_case cases[] = {TH_CASE(rodas_damped_pendulum_exact_jacobian)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
