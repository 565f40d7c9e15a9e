// SPDX-License-Identifier: Apache-2.0
/* The [L] §7 examples (heavy-top, tennis-racket, two-body-joint) through
 * rigid bodies alone (run_to_dir: cosrod_sim + recorder) with integrator galpha (body_galpha.c) in every
 * parametrisation and both formulations, fixed step (solver.h) and
 * adaptive: the runs complete, the energy balance of [manual: command line, output reference] (conserved by
 * the exact motions: no loads, no dampers) stays within the O(h²)
 * deviation of generalized-α with ρ∞ = 1 (max over 100 output times):
 * halving h divides it by about 4; adaptive runs stay within the sum of
 * the controlled local errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "bodies_run_util.h"
#include "harness.h"
#include "outtest.h"

/* Max over the output times of the energy balance drift |B(t) - B(0)| / |B(0)| of a galpha run, or -1. */
static double run(const char *name, const char *form, const char *param, const char *h, double T, long *nsteps) {
  char path[1024], err[512], pset[128], tset[64], eset[64];
  const char *dir0 = getenv("COSROD_EXAMPLES");
  snprintf(path, sizeof path, "%s/%s", dir0 ? dir0 : "examples", name);
  snprintf(pset, sizeof pset, "bodies.0.parametrisation=%s", param);
  snprintf(tset, sizeof tset, "analysis.t_end=%g", T);
  snprintf(eset, sizeof eset, "output.every=%g", T / 100);
  const char *sets[] = {"solver.integrator=galpha", "solver.rho_inf=1", "output.plots=false", eset, tset, form, pset,
                        h, "bodies.1.parametrisation=quaternion"};
  size_t nsets = strstr(name, "two-body") ? 9 : 8;
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, sets, nsets, NULL))) {
    NOTE("load: %s", cosrod_last_error());
    return -1.0;
  }
  char *dir = ot_mkdtemp("bodies_galpha");
  run_result res;
  cosrod_status st = run_to_dir(sc, path, dir, NULL, &res, err, sizeof err);
  if (st != COSROD_OK) NOTE("%s %s %s: %s %s", name, form, param, err, res.message);
  *nsteps = res.stats.naccept;
  double drift = -1.0;
  if (st == COSROD_OK) { /* max over the output times of |B(t) - B(0)| / |B(0)| (energy.csv, column 7) */
    char *hdr = NULL;
    double *data = NULL;
    long ne = ot_csv_read(ot_path(dir, "energy.csv"), &hdr, &data, 7);
    for (long r = 0; r < ne; ++r) drift = fmax(drift, fabs(data[7 * r + 6] - data[6]) / fabs(data[6]));
    if (ne < 100) drift = -1.0;
    free(hdr), free(data);
  }
  ot_rmtree(dir);
  free(dir);
  cosrod_scenario_free(sc);
  return drift;
}

TEST(examples_galpha_every_parametrisation_and_formulation) {
  static const char *const ex[3] = {"heavy-top.yaml", "tennis-racket.yaml", "two-body-joint.yaml"};
  static const char *const forms[2] = {"solver.formulation=nullspace", "solver.formulation=absolute"};
  static const char *const params[3] = {"quaternion", "directors", "euler-angles"};
  /* step and time: ~1000 steps, a few rotations of each body */
  static const double hs[3] = {2e-3, 1e-3, 2e-4}, Ts[3] = {2.0, 1.0, 0.2};
  for (int e = 0; e < 3; ++e)
    for (int f = 0; f < 2; ++f)
      for (int p = 0; p < 3; ++p) {
        double d[2];
        long ns[2] = {0, 0};
        for (int r = 0; r < 2; ++r) {
          char hset[64];
          snprintf(hset, sizeof hset, "solver.h=%g", hs[e] / (1 << r));
          d[r] = run(ex[e], forms[f], params[p], hset, Ts[e], &ns[r]);
        }
        double ord = log(d[0] / d[1]) / log(2.0);
        NOTE("%s, %s, %s: energy balance drift %.3e (h, %ld steps), %.3e (h/2), order %.2f", ex[e], forms[f] + 19,
             params[p], d[0], ns[0], d[1], ord);
        CHECK("runs complete", d[0] >= 0.0 && d[1] >= 0.0);
        CHECK("fixed step: T / h steps", ns[0] == (long)floor(Ts[e] / hs[e] + 0.5));
        /* generalized-alpha is second order (Chung & Hulbert 1993; [L] §6): the
         * energy deviation at fixed h is C h^2 (1 + O(h)); the allowance 0.3
         * admits a next-order term up to ~25 % of the leading one at h */
        CHECK_LE("energy deviation O(h^2) (at least second order)", 2.0 - ord, 0.3);
      }
}

/* adaptive steps (solver.h = 0) under rtol/atol: the energy follows the tolerance */
TEST(examples_galpha_adaptive) {
  static const char *const ex[3] = {"heavy-top.yaml", "tennis-racket.yaml", "two-body-joint.yaml"};
  for (int e = 0; e < 3; ++e) {
    double d[2];
    long ns[2];
    for (int r = 0; r < 2; ++r)
      d[r] = run(ex[e], "solver.formulation=nullspace", "quaternion", r ? "solver.rtol=1e-7" : "solver.rtol=1e-5",
                 1.0, &ns[r]);
    NOTE("%s adaptive: drift %.3e (rtol 1e-5, %ld steps), %.3e (rtol 1e-7, %ld steps)", ex[e], d[0], ns[0], d[1],
         ns[1]);
    CHECK("runs complete", d[0] >= 0.0 && d[1] >= 0.0);
    /* The control keeps each accepted step's local error below rtol relative
     * to the state; with no amplification of earlier errors (a conservative
     * motion over ~1 s) the global relative error after N steps is at most
     * N rtol, and the energy, quadratic in the velocities and linear in the
     * positions, deviates relatively by at most twice that: 2 N rtol. */
    CHECK_LE("drift at rtol 1e-5 <= 2 N rtol", d[0], 2.0 * (double)ns[0] * 1e-5);
    CHECK_LE("drift at rtol 1e-7 <= 2 N rtol", d[1], 2.0 * (double)ns[1] * 1e-7);
    /* local error ~ h³, global ~ h², h ~ rtol^(1/3): 100x tighter -> ~20x smaller */
    CHECK_LE("rtol 100x tighter: drift at least 5x smaller", 5.0 * d[1], d[0]);
  }
}

static const th_case cases[] = {TH_CASE(examples_galpha_every_parametrisation_and_formulation),
                                TH_CASE(examples_galpha_adaptive)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
