// SPDX-License-Identifier: Apache-2.0
/* The per-step savings of the driver (bench/results/README.md §3d):
 *   - cosrod_sim_set_energy_accounting(sim, 0) skips the Simpson quadrature
 *     of dissipation and external power: the run (steps, state) is the same,
 *     the integrals and the balance are NaN, kinetic / elastic / gravity are
 *     those of the accounted run, and the rods are evaluated 2 times fewer
 *     per accepted step;
 *   - a one-rod sim declares jac_fills (its analytic Jacobian writes the whole
 *     band), a two-rod sim does not (the band between the rods is left to the
 *     integrator's zeroing); the runs themselves are covered by test_sim_run
 *     and tests/integrate (test_integrate_jac_fills). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "sim/sim_hooks.h"
#include "harness.h"

static cosrod_scenario *load(const char *name, const char *const *sets, size_t nsets) {
  const char *e = getenv("COSROD_EXAMPLES");
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.yaml", e ? e : "examples", name);
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, sets, nsets, &st);
  if (st != COSROD_OK) NOTE("load %s: %s", path, cosrod_last_error());
  CHECK("scenario loads", st == COSROD_OK);
  return sc;
}

typedef struct {
  cosrod_status st;
  cosrod_integrate_stats stats;
  cosrod_sim_energy e;
  double tip[3];
  long nrhs;
  long frames;
} outcome;

static int count_frame(void *user, const cosrod_sim *sim, double t) {
  (void)sim, (void)t;
  ((outcome *)user)->frames++;
  return 0;
}

static outcome run(cosrod_scenario *sc, int accounting) {
  outcome o;
  memset(&o, 0, sizeof o);
  cosrod_sim *sim = cosrod_sim_create(sc, &o.st);
  CHECK("sim created", sim != NULL);
  if (!sim) return o;
  if (!accounting) cosrod_sim_set_energy_accounting(sim, 0);
  cosrod_sim_observer obs = {0};
  obs.frame = count_frame;
  obs.user = &o;
  o.st = cosrod_sim_run(sim, &obs);
  o.stats = *cosrod_sim_stats(sim);
  o.e = cosrod_sim_energy_now(sim);
  cosrod_sim_tip(sim, 0, o.tip);
  o.nrhs = cosrod_sim_rod_data(sim, 0)->nrhs;
  cosrod_sim_free(sim);
  return o;
}

TEST(energy_accounting_off) {
  /* damped rubber pendulum (dissipation > 0), rodas, 0.3 s */
  const char *sets[] = {"analysis.t_end=0.3", "solver.integrator=rodas", "solver.rtol=1e-4",
                        "solver.atol=1e-4"};
  cosrod_scenario *sc = load("perf-rubber", sets, 4);
  if (!sc) return;
  outcome a = run(sc, 1), b = run(sc, 0);
  CHECK("both runs ok", a.st == COSROD_OK && b.st == COSROD_OK);
  /* the quadrature only reads the dense output: the integration is untouched */
  CHECK("same steps", a.stats.nsteps == b.stats.nsteps && a.stats.naccept == b.stats.naccept);
  double d = fmax(fabs(a.tip[0] - b.tip[0]), fmax(fabs(a.tip[1] - b.tip[1]), fabs(a.tip[2] - b.tip[2])));
  CHECK_LE("same tip at T (bitwise)", d, 0.0);
  CHECK("accounted: dissipated > 0", a.e.dissipated > 0.0);
  CHECK("off: dissipated NaN", isnan(b.e.dissipated) && isnan(b.e.external_work) && isnan(b.e.balance));
  CHECK_REL("off: kinetic as accounted", b.e.kinetic, a.e.kinetic, 1e-14);
  CHECK_REL("off: elastic as accounted", b.e.elastic, a.e.elastic, 1e-14);
  /* Simpson evaluates each rod at the end and the midpoint of every
   * accepted step, and at an output time inside a step 2 more times (the
   * partial step): 2 naccept .. 2 (naccept + frames) evaluations fewer */
  NOTE("rod evaluations: %ld with, %ld without accounting, %ld accepted steps, %ld frames", a.nrhs, b.nrhs,
       a.stats.naccept, a.frames);
  CHECK("off: >= 2 evaluations fewer per accepted step", a.nrhs - b.nrhs >= 2 * a.stats.naccept);
  CHECK("off: <= 2 (naccept + frames) fewer", a.nrhs - b.nrhs <= 2 * (a.stats.naccept + a.frames));
  CHECK("same frames", a.frames == b.frames && a.frames > 1);
  cosrod_scenario_free(sc);
}

TEST(energy_accounting_undamped_keeps_zeros) {
  /* no damping, loads or moving ends: the integrals are exact zeros either way */
  const char *sets[] = {"analysis.t_end=0.02", "solver.integrator=radau5"};
  cosrod_scenario *sc = load("stiffness", sets, 2);
  if (!sc) return;
  outcome b = run(sc, 0);
  CHECK("run ok", b.st == COSROD_OK);
  CHECK("dissipated 0", b.e.dissipated == 0.0 && b.e.external_work == 0.0);
  CHECK("balance finite", isfinite(b.e.balance));
  cosrod_scenario_free(sc);
}

TEST(jac_fills_one_rod_only) {
  const char *sets[] = {"analysis.t_end=0.01"};
  cosrod_scenario *sc = load("perf-rubber", sets, 1);
  if (!sc) return;
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  CHECK("one rod: created", sim != NULL);
  if (sim) CHECK("one rod: jac_fills", cosrod_sim_problem(sim)->jac_fills == 1);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  /* a second rod next to the first */
  const char *sets2[] = {
      "analysis.t_end=0.01",
      "rods.1={name: second, length: 0.5, segments: 4, material: rubber, section: {shape: circle, radius: "
      "5.0e-3}, "
      "shape: {type: straight, start: [0.5, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}, "
      "ends: {start: {type: pinned}, end: {type: free}}}"};
  sc = load("perf-rubber", sets2, 2);
  if (!sc) return;
  sim = cosrod_sim_create(sc, &st);
  if (!sim) NOTE("%s", cosrod_last_error());
  CHECK("two rods: created", sim != NULL && cosrod_sim_nrods(sim) == 2);
  if (sim) CHECK("two rods: no jac_fills", cosrod_sim_problem(sim)->jac_fills == 0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(energy_accounting_off),
                                TH_CASE(energy_accounting_undamped_keeps_zeros),
                                TH_CASE(jac_fills_one_rod_only)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
