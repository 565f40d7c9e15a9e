// SPDX-License-Identifier: Apache-2.0
/* `solver.integrator: odex` from a scenario (the explicit extrapolation
 * method of src/integrate/odex.c behind the simulation driver):
 *   - a free rod falling under gravity keeps its shape, so every vertex
 *     follows z(t) = z0 - g t^2 / 2 (closed form; the GBS midpoint steps
 *     integrate a constant acceleration exactly, so only roundoff remains);
 *   - the undamped rubber pendulum of [LLA] Test 1 (examples/rubber-pendulum):
 *     the tip at t = 0.3 s against radau5 at TOL 1e-11 (an independent
 *     implicit method), and the conserved energy kinetic + elastic + gravity,
 *     both within the sum of the local error bounds over the accepted steps;
 *   - with formulation absolute (projection after each step, [LA] eq. 27)
 *     the same tip;
 *   - formulation dae is refused at load time with one line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sim_test_util.h"

static const char *FALL =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials: {steel: {E: 2.1e11, poisson: 0.3, density: 7850}}\n"
    "rods:\n"
    "  - {length: 1.0, segments: 8, material: steel, section: {shape: circle, radius: 0.01},\n"
    "     shape: {type: straight, start: [0, 0, 2], direction: [1, 0, 0], normal: [0, 0, 1]}}\n"
    "analysis: {type: dynamic, t_end: 0.5}\n"
    "solver: {integrator: odex, rtol: 1e-8, atol: 1e-8}\n";

TEST(odex_free_fall_closed_form) {
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(FALL, "fall.yaml", NULL, 0, NULL, &sc, &st);
  if (!sim) return;
  double tip[3], t = cosrod_sim_t(sim);
  cosrod_sim_tip(sim, 0, tip);
  double z = 2.0 - 0.5 * 9.81 * t * t;
  NOTE("odex: t %.6f, tip (%.15f, %.15f, %.15f), closed form z %.15f, %ld steps, %ld f", t, tip[0], tip[1], tip[2],
       z, cosrod_sim_stats(sim)->naccept, cosrod_sim_stats(sim)->nfev);
  CHECK_NEAR("reached t_end", t, 0.5, 1e-14);
  CHECK_NEAR("tip x unchanged", tip[0], 1.0, 1e-12);
  CHECK_NEAR("tip z = z0 - g t^2/2", tip[2], z, 1e-12);
  CHECK("integrator name odex", !strcmp(cosrod_sim_integrator_name(sim), "odex"));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

typedef struct pend_run {
  double tip[3], e0, e1, scale;
  long naccept;
  int ok;
} pend_run;

static pend_run run_pendulum(const char *integrator, const char *tol, const char *form) {
  pend_run r;
  memset(&r, 0, sizeof r);
  char is[64], rs[64], as[64], fs[64];
  snprintf(is, sizeof is, "solver.integrator=%s", integrator);
  snprintf(rs, sizeof rs, "solver.rtol=%s", tol);
  snprintf(as, sizeof as, "solver.atol=%s", tol);
  snprintf(fs, sizeof fs, "solver.formulation=%s", form);
  const char *sets[] = {is, rs, as, fs, "analysis.t_end=0.3"};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("rubber-pendulum", sets, 5, &sc);
  if (!sim) return r;
  cosrod_sim_energy E = cosrod_sim_energy_now(sim);
  r.e0 = E.kinetic + E.elastic + E.gravity;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("pendulum run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("%s: %s", integrator, cosrod_sim_message(sim));
  E = cosrod_sim_energy_now(sim);
  r.e1 = E.kinetic + E.elastic + E.gravity;
  r.scale = fmax(fabs(E.gravity), E.kinetic + E.elastic);
  cosrod_sim_tip(sim, 0, r.tip);
  r.naccept = cosrod_sim_stats(sim)->naccept;
  r.ok = st == COSROD_OK;
  NOTE("%s %s TOL %s: tip (%.10f, %.10f, %.10f), %ld steps, %ld f, energy %.12e -> %.12e J", integrator, form, tol,
       r.tip[0], r.tip[1], r.tip[2], r.naccept, cosrod_sim_stats(sim)->nfev, r.e0, r.e1);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return r;
}

static double dist(const double *a, const double *b) {
  return sqrt(pow(a[0] - b[0], 2) + pow(a[1] - b[1], 2) + pow(a[2] - b[2], 2));
}

TEST(odex_rubber_pendulum_vs_radau5) {
  const double tol = 1e-8;
  pend_run ref = run_pendulum("radau5", "1e-11", "nullspace");
  pend_run ox = run_pendulum("odex", "1e-8", "nullspace");
  pend_run oa = run_pendulum("odex", "1e-8", "absolute");
  if (!ref.ok || !ox.ok || !oa.ok) return;
  /* global error <= the sum of the accepted local errors, each <= TOL (1 + |y|)
   * per component in the controller's scaled norm; |y| ~ 1 m here, so the
   * bound is 2 TOL per step and metre (the reference's share is 1000x smaller) */
  double bound = 2.0 * tol * (double)ox.naccept;
  NOTE("tip difference odex - radau5: %.3e m (nullspace), %.3e m (absolute); bound %.3e m",
       dist(ox.tip, ref.tip), dist(oa.tip, ref.tip), bound);
  CHECK_LE("odex nullspace tip = radau5 at 1e-11 within the summed local error bound", dist(ox.tip, ref.tip), bound);
  CHECK_LE("odex absolute tip = radau5 at 1e-11 within the summed local error bound", dist(oa.tip, ref.tip),
           2.0 * tol * (double)oa.naccept);
  CHECK("a non-trivial swing (tip moved by more than 0.1 m)", dist(ref.tip, (double[]){0, 1, 0}) > 0.1);
  /* the undamped rod conserves kinetic + elastic + gravity energy; the
   * energy error is bounded by the same summed relative local error */
  double drift = fabs(ox.e1 - ox.e0);
  NOTE("energy drift %.3e J of scale %.3e J (bound %.3e J)", drift, ox.scale, bound * ox.scale);
  CHECK_LE("energy conserved within the summed local error bound", drift, bound * ox.scale);
}

TEST(odex_scenario_key) {
  const char *sets[] = {"solver.integrator=odex", "solver.formulation=dae"};
  cosrod_scenario *sc = NULL;
  char path[1024];
  snprintf(path, sizeof path, "%s/rubber-pendulum.yaml", sim_test_examples_dir());
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, sets, 2, &st);
  NOTE("%s", cosrod_last_error());
  CHECK("odex with formulation dae refused", st == COSROD_ERR_PARSE && sc == NULL);
  CHECK("one line naming solver.integrator and odex",
        strstr(cosrod_last_error(), "solver.integrator: odex cannot solve the index-1 DAE") != NULL && !strchr(cosrod_last_error(), '\n'));
  cosrod_scenario_free(sc);
  sc = cosrod_scenario_load(path, sets, 1, &st);
  CHECK("odex accepted", st == COSROD_OK && sc && sc->solver.integrator == COSROD_SC_INTEGRATOR_ODEX);
  CHECK("odex name", !strcmp(cosrod_sc_integrator_name(COSROD_SC_INTEGRATOR_ODEX), "odex"));
  cosrod_scenario_free(sc);
}

int main(int argc, char **argv) {
  static const th_case cases[] = {TH_CASE(odex_free_fall_closed_form), TH_CASE(odex_rubber_pendulum_vs_radau5),
                                  TH_CASE(odex_scenario_key)};
  return th_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
