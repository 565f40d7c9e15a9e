// SPDX-License-Identifier: Apache-2.0
/* Resource estimate and the one validation path (sim_check.c):
 * the estimate's unknowns and bandwidths against the created simulations
 * for every formulation and integrator, a refusal of 10^6 segments under a
 * small limit (before anything of size N is allocated), and the same
 * refusals from cosrod_sim_prepare as from cosrod_sim_create. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
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

/* The estimate bounds the real state size (ny <= est <= ny + 6 per rod: the
 * estimate ignores the dofs removed by clamped ends) and the real bandwidths
 * (the damped node layout's, an upper bound by at most 4 for undamped rods;
 * SPLIT's q/v blocks in the split one), for a damped and an undamped example. */
TEST(estimate_matches_created_layouts) {
  static const char *forms[] = {"nullspace", "absolute", "dae"};
  static const char *ints[] = {"radau5", "rodas", "seulex", "ida", "cvode", "dopri5", "dop853"};
  int compared = 0;
  double worst_ny = 0.0;
  int bw_ok = 1;
  for (int ex = 0; ex < 2; ex++)
    for (int f = 0; f < 3; f++)
      for (int i = 0; i < 7; i++) {
        char s1[64], s2[64];
        snprintf(s1, sizeof s1, "solver.formulation=%s", forms[f]);
        snprintf(s2, sizeof s2, "solver.integrator=%s", ints[i]);
        const char *sets[] = {s1, s2, "solver.stabilisation=none", "rods.0.segments=40"};
        cosrod_scenario *sc = NULL;
        const char *e = getenv("COSROD_EXAMPLES");
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.yaml", e ? e : "examples", ex ? "rubber-pendulum" : "perf-steel");
        sc = NULL;
        if (!(sc = cosrod_scenario_load(path, sets, 4, NULL)))
          continue; /* dae + explicit */
        cosrod_sim_estimate est;
        cosrod_status st;
        cosrod_sim *sim = cosrod_sim_prepare(sc, 0.0, &est, &st);
        CHECK("prepare creates the simulation", sim != NULL);
        if (sim) {
          int ml, mu, mlq, muq;
          cosrod_sim_bandwidth(sim, &ml, &mu, &mlq, &muq);
          double d = (double)est.ny - cosrod_sim_ny(sim);
          if (d < 0 || d > 6) worst_ny = fmax(worst_ny, fabs(d));
          if (cosrod_sim_split_layout(sim)) {
            if (est.ml != ml || est.mu != mu || est.ml != mlq || est.mu != muq) bw_ok = 0;
          } else if (est.ml < ml || est.mu < mu || est.ml > ml + 4 || est.mu > mu + 4) {
            bw_ok = 0;
          }
          if (!bw_ok) NOTE("%s/%s: estimate %d/%d, sim %d/%d", forms[f], ints[i], est.ml, est.mu, ml, mu);
          CHECK("total = state + matrices + rods", fabs(est.total_bytes - est.state_bytes - est.matrix_bytes -
                                                        est.model_bytes) <= 1e-9 * est.total_bytes);
          compared++;
        }
        cosrod_sim_free(sim);
        cosrod_scenario_free(sc);
      }
  NOTE("%d formulation/integrator pairs compared", compared);
  CHECK("at least 34 cases (2 examples x 3 forms x 7 methods, dae without explicit ones and cvode)",
        compared >= 34);
  CHECK_LE("largest excess of the estimated ny outside [0, 6]", worst_ny, 0.0);
  CHECK("estimated bandwidths bound the created ones", bw_ok);
}

/* Memory grows linearly in N: the band storage at 10^6 segments is 10^4
 * times the one at 100 (up to the +6 per rod; radau5: ~25 kB per segment,
 * 2.3 GB measured at 10^5 segments), and is refused under 1 GB with one
 * line naming rods.0.segments; nothing is allocated (the call returns at once
 * with the estimate). */
TEST(limit_refuses_a_million_segments) {
  const char *small[] = {"rods.0.segments=100", "solver.integrator=radau5"},
             *big[] = {"rods.0.segments=1000000", "solver.integrator=radau5"};
  cosrod_scenario *a = load("rubber-pendulum", small, 2), *b = load("rubber-pendulum", big, 2);
  if (!a || !b) {
    cosrod_scenario_free(a);
    cosrod_scenario_free(b);
    return;
  }
  cosrod_sim_estimate ea, eb;
  CHECK("estimate a", cosrod_sim_estimate_resources(a, &ea) == COSROD_OK);
  CHECK("estimate b", cosrod_sim_estimate_resources(b, &eb) == COSROD_OK);
  CHECK_REL("matrix bytes scale with ny = 13 N + 6", eb.matrix_bytes / ea.matrix_bytes, 13000006.0 / 1306.0,
            1e-12);
  /* per frame: ~480 bytes of CSV and ~975 of VTK per segment, plus ~4.1 kB
   * per rod and frame (one more vertex, energy, reactions; the .vtp header
   * and constant arrays, the .pvd entry): at N = 100 the constant is
   * 4.1 / (145.5 + 4.1) = 2.7 % of the total, so the ratio is 1e4 less 2.7 % */
  CHECK_REL("frame bytes scale with N", eb.frame_bytes / ea.frame_bytes, 1e4, 0.035);
  CHECK("frame bytes grow by less than N", eb.frame_bytes / ea.frame_bytes < 1e4);
  NOTE("10^6 segments: ~%.3g GB", eb.total_bytes / 1e9);
  CHECK("10^6 segments need more than 10 GB", eb.total_bytes > 1e10);
  cosrod_status st = COSROD_OK;
  cosrod_sim_estimate e;
  cosrod_sim *sim = cosrod_sim_prepare(b, 1e9, &e, &st);
  CHECK("refused", sim == NULL && st == COSROD_ERR_INVALID);
  NOTE("%s", cosrod_last_error());
  CHECK("names rods.0.segments", strstr(cosrod_last_error(), ": rods.0.segments: needs ~") != NULL);
  CHECK("one line", strchr(cosrod_last_error(), '\n') == NULL);
  CHECK_REL("estimate returned with the refusal", e.total_bytes, eb.total_bytes, 1e-15);
  cosrod_sim_free(sim);
  sim = cosrod_sim_prepare(a, 1e9, NULL, &st);
  CHECK("100 segments under 1 GB are created", sim != NULL && st == COSROD_OK);
  cosrod_sim_free(sim);
  cosrod_scenario_free(a);
  cosrod_scenario_free(b);
}

/* prepare refuses what create refuses, with the same line. */
TEST(prepare_refuses_what_create_refuses) {
  const char *sets[] = {"output.every=1e-12", "analysis.t_end=1"};
  cosrod_scenario *sc = load("rubber-pendulum", sets, 2);
  if (!sc) return;
  char e1[512], e2[512];
  cosrod_status s1, s2;
  cosrod_sim *a = cosrod_sim_create(sc, &s1);
  snprintf(e1, sizeof e1, "%s", cosrod_last_error());
  cosrod_sim *b = cosrod_sim_prepare(sc, 0.0, NULL, &s2);
  snprintf(e2, sizeof e2, "%s", cosrod_last_error());
  CHECK("create refuses", a == NULL);
  CHECK("prepare refuses", b == NULL);
  CHECK("same status", s1 == s2);
  CHECK("same message", strcmp(e1, e2) == 0);
  NOTE("%s", e2);
  cosrod_sim_free(a);
  cosrod_sim_free(b);
  cosrod_scenario_free(sc);
}

/* Rods attached to bodies: the estimate counts the dynamic bodies'
 * unknowns (13 per quaternion body, the kinematic arm none) and bounds the
 * coupled band of sim_couple.c (a body's block next to the rod end it
 * touches), within the rods' slack (ny + 0..12 for a rod with both ends
 * supported or attached: 6 removed dofs per end, band + 0..4), at two
 * N (the band does not grow with N): a cable pendulum, the robot-arm hose
 * (kinematic arm, free base) and the same with a free arm (chain body - rod
 * - body). */
TEST(estimate_with_bodies) {
  static const char *forms[] = {"nullspace", "absolute"};
  static const char *ints[] = {"radau5", "ida"};
  int compared = 0, ok = 1;
  for (int ex = 0; ex < 3; ex++)
    for (int k = 0; k < 2; k++)
      for (int f = 0; f < 2; f++)
        for (int i = 0; i < 2; i++) {
          if (i == 1 && f == 1) continue; /* ida + absolute needs baumgarte */
          char s1[64], s2[64], s3[64];
          snprintf(s1, sizeof s1, "solver.formulation=%s", forms[f]);
          snprintf(s2, sizeof s2, "solver.integrator=%s", ints[i]);
          snprintf(s3, sizeof s3, "rods.0.segments=%d", k ? 64 : 16);
          const char *sets[] = {s1, s2, s3, "solver.stabilisation=none"};
          cosrod_scenario *sc = load(ex ? "robot-arm-hose" : "cable-pendulum", sets, 4);
          if (!sc) continue;
          if (ex == 2) { /* the arm becomes a free body */
            sc->bodies[0].has_motion = 0;
            sc->bodies[0].motion_position.n = sc->bodies[0].motion_orientation.n = 0;
          }
          cosrod_sim_estimate est;
          cosrod_status st;
          cosrod_sim *sim = cosrod_sim_prepare(sc, 0.0, &est, &st);
          if (!sim) NOTE("ex %d %s/%s: %s", ex, forms[f], ints[i], cosrod_last_error());
          CHECK("prepare creates the simulation", sim != NULL);
          if (sim) {
            int ml, mu, mlq, muq, ny = cosrod_sim_ny(sim);
            cosrod_sim_bandwidth(sim, &ml, &mu, &mlq, &muq);
            int good = est.ny >= ny && est.ny <= ny + 12 && est.ml >= ml && est.mu >= mu && est.ml <= ml + 4 &&
                       est.mu <= mu + 4;
            NOTE("ex %d N %d %s/%s: ny %d (estimate %ld), band %d/%d (estimate %d/%d)", ex, k ? 64 : 16, forms[f],
                 ints[i], ny, est.ny, ml, mu, est.ml, est.mu);
            ok &= good;
            compared++;
          }
          cosrod_sim_free(sim);
          cosrod_scenario_free(sc);
        }
  CHECK_NEAR("cases compared", compared, 18, 0);
  CHECK("estimate within the rods' slack of the created layouts", ok);
}

static const th_case cases[] = {
    TH_CASE(estimate_with_bodies),
    TH_CASE(estimate_matches_created_layouts),
    TH_CASE(limit_refuses_a_million_segments),
    TH_CASE(prepare_refuses_what_create_refuses),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
