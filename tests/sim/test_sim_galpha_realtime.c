// SPDX-License-Identifier: Apache-2.0
/* solver.realtime (galpha with bounded work per step), through
 * cosrod_sim_step as an interactive caller drives it:
 *   - the work per step is bounded: Newton iterations <= newton_max per step,
 *     tangent Jacobians <= jac_budget per step plus the one at the start;
 *   - the accuracy it keeps: the rubber pendulum's tip at t = 0.5 s against
 *     dop853 at rtol = atol = 1e-12 (an independent explicit method),
 *     within the error of the same fixed step with Newton run to its
 *     tolerance plus 20 %, and below 1e-3 m;
 *   - the scenario keys: realtime with another integrator, an h that
 *     differs from solver.h and newton_max = 0 are refused with the key. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

/* Tip after n calls of cosrod_sim_step(sim, h) (or a run when n == 0). */
static int tip_after(const char *const *sets, size_t ns, int n, double h, double tip[3],
                     cosrod_integrate_stats *stats) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("rubber-pendulum", sets, ns, &sc);
  if (!sim) return -1;
  cosrod_sim_set_energy_accounting(sim, 0);
  cosrod_status st = COSROD_OK;
  if (n == 0)
    st = cosrod_sim_run(sim, NULL);
  else
    for (int k = 0; k < n && st == COSROD_OK; k++) st = cosrod_sim_step(sim, h);
  CHECK("steps ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("%s", cosrod_sim_message(sim));
  cosrod_sim_tip(sim, 0, tip);
  if (stats) *stats = *cosrod_sim_stats(sim);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK ? 0 : -1;
}

TEST(galpha_realtime_bounded_work_and_accuracy) {
  double ref[3], rt[3], full[3];
  cosrod_integrate_stats s;
  const char *r[] = {"analysis.t_end=0.5", "solver.integrator=dop853", "solver.rtol=1e-12", "solver.atol=1e-12"};
  if (tip_after(r, 4, 0, 0.0, ref, NULL)) return;
  const char *a[] = {"analysis.t_end=10", "solver.integrator=galpha", "solver.realtime={h: 1e-3, newton_max: 2, jac_budget: 1}"};
  if (tip_after(a, 3, 500, 1e-3, rt, &s)) return;
  NOTE("realtime: %ld steps, %ld Newton iterations, %ld Jacobians", s.naccept, s.nnewton, s.njev);
  CHECK("500 steps", s.naccept == 500 && s.nreject == 0);
  CHECK("Newton iterations <= 2 per step", s.nnewton <= 2 * s.naccept);
  CHECK("Jacobians <= 1 per step + 1", s.njev <= s.naccept + 1);
  const char *b[] = {"analysis.t_end=10", "solver.integrator=galpha", "solver.h=1e-3", "solver.rtol=1e-10",
                     "solver.atol=1e-10"};
  if (tip_after(b, 5, 500, 1e-3, full, NULL)) return;
  double er = 0, ef = 0;
  for (int i = 0; i < 3; i++) {
    er += (rt[i] - ref[i]) * (rt[i] - ref[i]);
    ef += (full[i] - ref[i]) * (full[i] - ref[i]);
  }
  er = sqrt(er);
  ef = sqrt(ef);
  NOTE("tip error at 0.5 s: realtime %.3e m, Newton to 1e-10 %.3e m", er, ef);
  CHECK_LE("realtime error <= 1.2 x the converged fixed step's", er, 1.2 * ef);
  CHECK_LE("realtime error < 1 mm", er, 1e-3);
}

TEST(galpha_realtime_refused) {
  cosrod_status st = COSROD_OK;
  const char *text = "cosrod: 1\n"
                     "rods: [{length: 1, segments: 4, material: {E: 1e6, poisson: 0.3, density: 1000},\n"
                     "        section: {shape: circle, radius: 0.01}}]\n"
                     "analysis: {type: dynamic, t_end: 0.1}\n";
  const char *cases[][2] = {
      {"solver={integrator: radau5, realtime: {h: 1e-3}}", "integrator"},
      {"solver={integrator: galpha, h: 2e-3, realtime: {h: 1e-3}}", "h"},
      {"solver={integrator: galpha, realtime: {newton_max: 0}}", "newton_max"},
      {"solver={integrator: galpha, realtime: {step: 1e-3}}", "step"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const char *set[] = {cases[k][0]};
    cosrod_scenario *sc = cosrod_scenario_parse(text, strlen(text), "rt.yaml", set, 1, &st);
    NOTE("%s -> %s", cases[k][0], cosrod_last_error());
    CHECK("refused", sc == NULL && st != COSROD_OK);
    CHECK("names the key", strstr(cosrod_last_error(), cases[k][1]) != NULL);
    cosrod_scenario_free(sc);
  }
}

static const th_case cases[] = {TH_CASE(galpha_realtime_bounded_work_and_accuracy), TH_CASE(galpha_realtime_refused)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
