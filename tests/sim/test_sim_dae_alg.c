// SPDX-License-Identifier: Apache-2.0
/* The multipliers of the DAE form are left out of rodas' and ida's local
 * error test (solver option suppress_alg, set by the simulation for
 * formulation: dae): in an index-1 DAE they follow from the differential
 * state.  The case that needed it: a free body (0.1 kg) moving at 1.1 m/s
 * with a short steel rod (2 segments, Kelvin-Voigt 1 ms) clamped to it, no
 * load, rtol = atol = 1e-8 over 0.05 s.  With the multipliers in the test,
 * rodas' estimate was all in them (the differential components at 1e-4 of
 * the tolerance) and did not shrink with h: the Cosserat rod stopped at
 * max_steps (30 000) at t = 2.8 ms, the extensible Kirchhoff rod needed 6 665
 * steps to t = 0.05 (84 534 in this set-up) and ida 1 308
 * (bench/results/kirchhoff-dae-rodas.md).  ida on the Cosserat rod did not
 * start: IDACalcIC's Newton iteration failed with its pseudo step of 5e-5 s
 * against the clamped steel segment's fast modes; it now retries with
 * shorter ones (100x each, src/integrate/sundials.c) and starts.
 * Checked, for the Cosserat and both Kirchhoff rods: each run reaches t_end
 * within the scenario's 30 000 steps, and the rod's tip and the body's
 * position agree with radau5 on the null-space form at 1e-11 (no
 * multipliers) to 10 tol: both runs are tolerance proportional, the damped
 * rod and the uniformly moving body do not amplify the local errors, and the
 * damping forgets each step's error within tau = 1 ms, so the global error
 * stays of the order of tol; 10 tol leaves room for the estimates' own
 * inaccuracy.  The multipliers' error is no longer controlled, only through
 * the state they follow from: against radau5 on the DAE form at 1e-10 (which
 * keeps them in its test) the whole state differs by 6.2e-6 (Cosserat,
 * rodas), 2.3e-6 / 1.6e-7 (extensible, rodas / ida), 7.7e-8 / 2.0e-7
 * (inextensible; 2.1e-8 / 1.5e-7 with them in the test), all in a multiplier,
 * while positions agree to 1e-9.  The bound 1e-5 of the state's scale (2.1 ..
 * 2.7) is a guard on that measured level (regression data, labelled as
 * such), not a tolerance from theory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sim_test_util.h"


typedef struct run_end {
  int ok;
  long steps;
  double tip[3], xb[3];
  double *y;
  int ny;
} run_end;

static run_end run(const char *model, const char *form, const char *integ, const char *tol, long max_steps) {
  run_end e;
  memset(&e, 0, sizeof e);
  char m[64], f[64], i[64], rt[64], at[64], ms[64];
  snprintf(m, sizeof m, "rods.0.model=%s", model);
  snprintf(f, sizeof f, "solver.formulation=%s", form);
  snprintf(i, sizeof i, "solver.integrator=%s", integ);
  snprintf(rt, sizeof rt, "solver.rtol=%s", tol);
  snprintf(at, sizeof at, "solver.atol=%s", tol);
  snprintf(ms, sizeof ms, "solver.max_steps=%ld", max_steps);
  /* the pulled assembly, damped, unloaded, its body moving */
  const char *sets[] = {m,
                        f,
                        i,
                        rt,
                        at,
                        ms,
                        "rods.0.damping.kelvin_voigt.tau_shear=1e-3",
                        "rods.0.damping.kelvin_voigt.tau_bulk=1e-3",
                        "bodies.0.loads=[]",
                        "bodies.0.velocity=[-1, 0.5, 0]",
                        "analysis.t_end=0.05",
                        "output.every=0.05"};
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(sim_test_pulled(), "dae.yaml", sets, 12, NULL, &sc, &st);
  if (sim && st == COSROD_OK) {
    e.ok = 1;
    e.steps = cosrod_sim_stats(sim)->nsteps;
    cosrod_sim_tip(sim, 0, e.tip);
    double q[4], om[3];
    cosrod_sim_body(sim, 0, e.xb, q, om);
    e.ny = cosrod_sim_ny(sim);
    e.y = malloc((size_t)e.ny * sizeof *e.y);
    if (e.y) memcpy(e.y, cosrod_sim_state(sim), (size_t)e.ny * sizeof *e.y);
    NOTE("%s %s %s %s: %ld steps", model, form, integ, tol, e.steps);
  } else {
    NOTE("%s %s %s %s: %s", model, form, integ, tol, sim ? cosrod_sim_message(sim) : "not created");
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return e;
}

static void check_model(const char *model, const char *const *integs, int n) {
  run_end ref = run(model, "nullspace", "radau5", "1e-11", 300000);
  run_end dref = run(model, "dae", "radau5", "1e-10", 300000);
  CHECK("references complete", ref.ok && dref.ok);
  for (int k = 0; k < n && ref.ok && dref.ok; k++) {
    run_end e = run(model, "dae", integs[k], "1e-8", 30000);
    char what[160];
    snprintf(what, sizeof what, "%s dae %s reaches t_end", model, integs[k]);
    CHECK(what, e.ok);
    if (!e.ok) continue;
    snprintf(what, sizeof what, "%s dae %s: tip within 10 tol", model, integs[k]);
    CHECK_VEC(what, e.tip, ref.tip, 3, 0.0, 1e-7);
    snprintf(what, sizeof what, "%s dae %s: body within 10 tol", model, integs[k]);
    CHECK_VEC(what, e.xb, ref.xb, 3, 0.0, 1e-7);
    if (e.y && dref.y && e.ny == dref.ny) {
      double scale = 0.0, worst = 0.0;
      int iw = 0;
      for (int i = 0; i < e.ny; i++) scale = fmax(scale, fabs(dref.y[i]));
      for (int i = 0; i < e.ny; i++)
        if (fabs(e.y[i] - dref.y[i]) > worst) worst = fabs(e.y[i] - dref.y[i]), iw = i;
      NOTE("%s dae %s: whole state vs dae radau5 1e-10: %.3g at %d (value %.6g), scale %.3g", model, integs[k],
           worst, iw, dref.y[iw], scale);
      snprintf(what, sizeof what, "%s dae %s: the whole state, multipliers included, within 1e-5 of its scale", model,
               integs[k]);
      CHECK_LE(what, worst, 1e-5 * scale);
    }
    free(e.y);
  }
  free(ref.y);
  free(dref.y);
}

TEST(cosserat_rodas_ida) {
  const char *m[] = {"rodas", "ida"};
  check_model("cosserat", m, 2);
}

TEST(kirchhoff_extensible_rodas_ida) {
  const char *m[] = {"rodas", "ida"};
  check_model("kirchhoff-extensible", m, 2);
}

TEST(kirchhoff_inextensible_rodas_ida) {
  const char *m[] = {"rodas", "ida"};
  check_model("kirchhoff-inextensible", m, 2);
}

static const th_case cases[] = {TH_CASE(cosserat_rodas_ida), TH_CASE(kirchhoff_extensible_rodas_ida),
                                TH_CASE(kirchhoff_inextensible_rodas_ida)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
