// SPDX-License-Identifier: Apache-2.0
/* The star of four straight hoses on one body (examples/star-hoses.yaml)
 * with Kirchhoff models in the DAE formulation (couple_kirchhoff.c).
 *
 * Inextensible and straight, the hoses fix only the distance of each
 * attachment point from its pin: the axial rows of hose i sum to
 * t_i · (v + ω × r_i) = 0, and by the symmetry of the star
 * (t_x + t_-x - t_y - t_-y = 0, and the same for r_i × t_i) these four rows
 * of the coupled constraint Jacobian are linearly dependent.  The tensions
 * of the two opposite pairs are statically indeterminate: the accelerations
 * are unique (the ODE forms run), the multipliers are not, and the DAE form,
 * whose states include them, has a singular Newton matrix (before the check:
 * radau5 stopped at t = 3.9e-7 s with h = 2.2e-22, ida at 6e-9 s).  So the
 * DAE form is refused with one line naming the formulations that work; the
 * extensible star (no axial constraint, unique multipliers) runs in the DAE
 * form and follows the ODE (null-space) form. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

/* --set lines: all four hoses of the model `model` plus `extra` */
static int star_sets(const char *model, const char *const *extra, int nextra, char buf[4][64],
                     const char **sets) {
  for (int r = 0; r < 4; r++) {
    snprintf(buf[r], sizeof buf[r], "rods.%d.model=%s", r, model);
    sets[r] = buf[r];
  }
  for (int i = 0; i < nextra; i++) sets[4 + i] = extra[i];
  return 4 + nextra;
}

TEST(inextensible_star_dae_refused) {
  const char *integ[2] = {"solver.integrator=radau5", "solver.integrator=ida"};
  for (int i = 0; i < 2; i++) {
    char buf[4][64];
    const char *sets[8], *extra[2] = {"solver.formulation=dae", integ[i]};
    int ns = star_sets("kirchhoff-inextensible", extra, 2, buf, sets);
    char path[1024];
    snprintf(path, sizeof path, "%s/star-hoses.yaml", sim_test_examples_dir());
    cosrod_status st = COSROD_OK;
    cosrod_scenario *sc = cosrod_scenario_load(path, sets, (size_t)ns, &st);
    CHECK("scenario loads", sc != NULL);
    if (!sc) continue;
    cosrod_sim *sim = cosrod_sim_create(sc, &st);
    const char *msg = cosrod_last_error();
    NOTE("%s: %s", integ[i], sim ? "(created)" : msg);
    CHECK("dae with redundant constraints is refused at creation", sim == NULL);
    CHECK("the message names the key", sim == NULL && strstr(msg, "solver.formulation:") != NULL);
    CHECK("the message gives the reason", sim == NULL && strstr(msg, "redundant") != NULL);
    CHECK("the message names the formulations that work",
          sim == NULL && strstr(msg, "nullspace or absolute") != NULL);
    CHECK("one line", sim == NULL && strchr(msg, '\n') == NULL);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

/* The same inextensible star in the null-space form runs: the hoses cannot
 * lengthen, so every attachment point stays within L of its pin (a chord of
 * an inextensible rod is at most its length; the projection keeps the
 * segment lengths to round-off). */
TEST(inextensible_star_nullspace_runs) {
  char buf[4][64];
  const char *sets[9], *extra[5] = {"solver.formulation=nullspace", "solver.integrator=dop853",
                                    "solver.rtol=1e-8", "solver.atol=1e-10", "analysis.t_end=0.01"};
  int ns = star_sets("kirchhoff-inextensible", extra, 5, buf, sets);
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("star-hoses", sets, (size_t)ns, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const double L = 0.8746427842267951, pin[4][3] = {{0.5, 0, 1}, {0, 0.5, 1}, {-0.5, 0, 1}, {0, -0.5, 1}};
  for (size_t r = 0; r < 4; r++) {
    double tip[3];
    cosrod_sim_tip(sim, r, tip);
    double c = sqrt(pow(tip[0] - pin[r][0], 2) + pow(tip[1] - pin[r][1], 2) + pow(tip[2] - pin[r][2], 2));
    NOTE("hose %zu: chord %.15g m (L = %.15g m)", r, c, L);
    CHECK_LE("chord within L (1e-12 relative)", c, L * (1.0 + 1e-12));
    CHECK("chord close to L (straight, taut hose)", c > 0.99 * L);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Extensible hoses: no redundancy, the DAE form (radau5, tol 1e-7, 5 ms) runs and
 * the middles of its hoses (the body itself is still close to free fall at
 * 5 ms, which both methods integrate exactly) follow the null-space form (DOP853, tol 1e-8) to the sum of the
 * controlled local errors, nsteps (atol + rtol |x|) with |x| <= 1.2 m (the
 * farthest point from the origin), plus the same sum for the reference: a
 * bound on the global error while the damped motion does not amplify
 * errors (HNW I §II.3). */
TEST(extensible_star_dae_follows_ode_form) {
  double mid[2][4][3];
  long nsteps[2] = {0, 0};
  const double rtol[2] = {1e-8, 1e-7}, atol[2] = {1e-10, 1e-9};
  for (int k = 0; k < 2; k++) {
    char buf[4][64], rt[32], at[32];
    snprintf(rt, sizeof rt, "solver.rtol=%g", rtol[k]);
    snprintf(at, sizeof at, "solver.atol=%g", atol[k]);
    const char *sets[9], *extra[5] = {k ? "solver.formulation=dae" : "solver.formulation=nullspace",
                                      k ? "solver.integrator=radau5" : "solver.integrator=dop853", rt, at,
                                      "analysis.t_end=0.005"};
    int ns = star_sets("kirchhoff-extensible", extra, 5, buf, sets);
    cosrod_scenario *sc;
    cosrod_sim *sim = sim_test_load("star-hoses", sets, (size_t)ns, &sc);
    if (!sim) return;
    cosrod_status st = cosrod_sim_run(sim, NULL);
    CHECK("run ok", st == COSROD_OK);
    if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
    nsteps[k] = cosrod_sim_stats(sim)->nsteps;
    for (size_t r = 0; r < 4; r++) { /* the hose's middle vertex (8 of 16): bending waves, not free fall */
      const cosrod_rod_data *d = cosrod_sim_rod_data(sim, r);
      for (int a = 0; a < 3; a++) mid[k][r][a] = d->x[3 * 8 + a];
    }
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  double bound = 0.0;
  for (int k = 0; k < 2; k++) bound += (double)nsteps[k] * (atol[k] + rtol[k] * 1.2);
  for (size_t r = 0; r < 4; r++) {
    double e = sqrt(pow(mid[1][r][0] - mid[0][r][0], 2) + pow(mid[1][r][1] - mid[0][r][1], 2) +
                    pow(mid[1][r][2] - mid[0][r][2], 2));
    NOTE("hose %zu: dae middle z %.12g, ode %.12g, |d| %.3g m (bound %.3g m, %ld / %ld steps)", r, mid[1][r][2],
         mid[0][r][2], e, bound, nsteps[1], nsteps[0]);
    CHECK_LE("dae middle within the sum of local errors of the ode middle (m)", e, bound);
  }
  /* the middle moved (from z = 0.625 m at t = 0): a real comparison */
  CHECK("the middle of the hose moved", fabs(mid[0][0][2] - 0.625) > 1e-5);
}

static const th_case cases[] = {TH_CASE(inextensible_star_dae_refused), TH_CASE(inextensible_star_nullspace_runs),
                                TH_CASE(extensible_star_dae_follows_ode_form)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
