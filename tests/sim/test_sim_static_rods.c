// SPDX-License-Identifier: Apache-2.0
/* Static, modal and buckling analyses of two independent rods in one
 * scenario (sim_static.c), against closed forms per rod:
 *  - buckling: examples/buckling.yaml (flagpole k = 2 and strut k = 1 under
 *    unit forces): the load factors are Euler's loads π²EI/(kL)² of the
 *    right rod, the flagpole's mode the quarter sine 1 - cos(π s / 2L);
 *  - modes: two steel cantilevers of L = 1 and 0.5 m, first bending
 *    frequencies (1.8751² / 2π) √(EI / (ρ A L⁴)) (Euler–Bernoulli), each
 *    reported with its rod;
 *  - static: the same cantilevers under small tip forces, tip deflections
 *    P L³ / (3 EI) + P L / (κ G A) (Timoshenko) and the support reactions -P. */
#include <math.h>
#include <string.h>

#include "sim_test_util.h"

#define PI 3.14159265358979323846

static const double E = 2.1e11, RAD = 5e-3, RHO = 7850.0;

TEST(buckling_two_columns) {
  const char *sets[] = {"rods.0.segments=20", "rods.1.segments=20", "output.vtk=false", "output.plots=false"};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_load("buckling", sets, 4, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("buckling run ok", st == COSROD_OK);
  CHECK("four modes", cosrod_sim_nmodes(sim) == 4);
  if (st != COSROD_OK || cosrod_sim_nmodes(sim) != 4) {
    NOTE("%s", cosrod_sim_message(sim));
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    return;
  }
  const double EI = E * PI * pow(RAD, 4) / 4.0, P_cf = PI * PI * EI / 4.0, P_pp = PI * PI * EI;
  const size_t want_rod[4] = {0, 0, 1, 1};
  const double want[4] = {P_cf, P_cf, P_pp, P_pp};
  for (int i = 0; i < 4; ++i) {
    double lam = cosrod_sim_load_factor(sim, i);
    NOTE("mode %d: rod %zu, load factor %.8f N, Euler %.8f N (rel. %.2e)", i + 1, cosrod_sim_mode_rod(sim, i), lam,
         want[i], (lam - want[i]) / want[i]);
    CHECK("mode of the expected rod", cosrod_sim_mode_rod(sim, i) == want_rod[i]);
    /* discretisation error (π/(kN))²/12-ish at N = 20: 5e-4 (k = 2), 2e-3 (k = 1) */
    CHECK_CLOSE("critical load vs Euler (3e-3)", lam, want[i], 3e-3, 0.0);
  }
  /* flagpole mode 1: lateral displacement ∝ 1 - cos(π s / 2L) */
  const double *sh;
  cosrod_sim_mode(sim, 0, NULL, NULL, &sh);
  const int N = 20;
  double tip = hypot(sh[6 * N], sh[6 * N + 1]), err = 0.0;
  for (int n = 0; n <= N; ++n) {
    double s = (double)n / N, d = hypot(sh[6 * n], sh[6 * n + 1]) / tip;
    err = fmax(err, fabs(d - (1.0 - cos(0.5 * PI * s))));
  }
  NOTE("flagpole mode shape: max deviation from 1 - cos(pi s / 2L) %.3e", err);
  CHECK_LE("quarter-sine mode shape (1e-2)", err, 1e-2);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const char *two_cantilevers(const char *analysis) {
  static char text[2048];
  snprintf(text, sizeof text,
           "cosrod: 1\n"
           "title: two cantilevers\n"
           "gravity: [0, 0, 0]\n"
           "materials:\n"
           "  steel: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
           "rods:\n"
           "  - name: long\n"
           "    length: 1.0\n"
           "    segments: 20\n"
           "    material: steel\n"
           "    section: {shape: circle, radius: 0.005}\n"
           "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: clamped}, end: {type: free}}\n"
           "    loads: [{type: force, at: end, value: [0, 0, -0.1], frame: spatial}]\n"
           "  - name: short\n"
           "    length: 0.5\n"
           "    segments: 20\n"
           "    material: steel\n"
           "    section: {shape: circle, radius: 0.005}\n"
           "    shape: {type: straight, start: [0, 1, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: clamped}, end: {type: free}}\n"
           "    loads: [{type: force, at: end, value: [0, 0, -0.2], frame: spatial}]\n"
           "analysis: %s\n"
           "output: {vtk: false, plots: false}\n",
           analysis);
  return text;
}

TEST(modes_two_cantilevers) {
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(two_cantilevers("{type: modes, count: 4}"), "two.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("modal run ok", st == COSROD_OK);
  const int nm = cosrod_sim_nmodes(sim);
  CHECK("two degenerate pairs: four modes", nm == 4);
  if (st != COSROD_OK || nm != 4) {
    NOTE("%s (%d modes)", cosrod_sim_message(sim), nm);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    return;
  }
  const double A = PI * RAD * RAD, EI = E * PI * pow(RAD, 4) / 4.0, b1 = 1.87510406871196;
  const double L[2] = {1.0, 0.5};
  for (int i = 0; i < 4; ++i) {
    double om, f;
    const char *type = NULL;
    int group = -1;
    cosrod_sim_mode(sim, i, &om, &f, NULL);
    cosrod_sim_mode_info(sim, i, &type, &group);
    size_t r = cosrod_sim_mode_rod(sim, i);
    double ref = b1 * b1 / (2.0 * PI) * sqrt(EI / (RHO * A * pow(L[i / 2], 4)));
    NOTE("mode %d: rod %zu, %.6f Hz (%s, group %d), Euler-Bernoulli %.6f Hz (rel. %.2e)", i + 1, r, f, type,
         group + 1, ref, (f - ref) / ref);
    CHECK("rod of the mode: the long rod's pair first", r == (size_t)(i / 2));
    CHECK("group: one per pair", group == i / 2);
    /* lumped masses and Cosserat shear at N = 20: ~1e-3 */
    CHECK_CLOSE("first bending frequency of its rod (5e-3)", f, ref, 5e-3, 0.0);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* frame observer: the reactions of both rods at the last frame */
typedef struct {
  double R[2][12];
  int ok;
} react_ctx;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  react_ctx *c = user;
  c->ok = cosrod_sim_reactions(sim, 0, c->R[0], NULL) == COSROD_OK &&
          cosrod_sim_reactions(sim, 1, c->R[1], NULL) == COSROD_OK;
  return 0;
}

TEST(static_two_cantilevers) {
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(two_cantilevers("{type: static, increments: 4}"), "two.yaml", NULL, 0, &sc);
  if (!sim) return;
  react_ctx rc = {{{0}}, 0};
  cosrod_sim_observer obs = {0};
  obs.frame = on_frame;
  obs.user = &rc;
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("static run ok", st == COSROD_OK);
  const double A = PI * RAD * RAD, EI = E * PI * pow(RAD, 4) / 4.0, G = E / 2.6, kappa = 6.0 * 1.3 / 7.0;
  const double L[2] = {1.0, 0.5}, P[2] = {0.1, 0.2};
  for (size_t r = 0; r < 2 && st == COSROD_OK; ++r) {
    double tip[3];
    cosrod_sim_tip(sim, r, tip);
    double ref = P[r] * pow(L[r], 3) / (3.0 * EI) + P[r] * L[r] / (kappa * G * A);
    NOTE("rod %zu: tip deflection %.9e m, Timoshenko %.9e m (rel. %.2e); reaction Fz %.9f N", r, -tip[2], ref,
         (-tip[2] - ref) / ref, rc.R[r][2]);
    /* small deflection (3e-4 L): geometric nonlinearity ~1e-7; the
     * discretisation error of the tip deflection is 1/(2N²) = 1.25e-3 at
     * N = 20 (the same for both rods: it depends on N, not L) */
    CHECK_CLOSE("tip deflection vs P L^3 / 3EI + P L / kGA (2e-3)", -tip[2], ref, 2e-3, 0.0);
    CHECK("reactions computed", rc.ok);
    /* equilibrium to the solver's tolerance (scaled residual 1e-9 of EI/L²) */
    CHECK_CLOSE("support force balances the tip force (1e-8)", rc.R[r][2], P[r], 1e-8, 0.0);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}


/* A free-free rod (no support): `count` counts every mode reported, the six
 * rigid-body modes (ω = 0 to round-off) included; count: 8 gives them and
 * the lowest bending pair, against Euler-Bernoulli free-free
 * ω = (4.7300408)² √(EI/(ρA L⁴)).  Tolerance: the lumped-mass difference
 * scheme of a beam has ω_h = ω (1 - (βh)²/12 + ...) in the interior (the
 * symbol of the fourth difference), βh = 4.73 / 20 = 0.2365, i.e. 4.7e-3;
 * the half-mass free ends add an error of the same order (1.0e-2 measured
 * in all); bound 3 (βh)²/12 = 1.4e-2. */
TEST(modes_free_rod_rigid_counted) {
  static const char text[] = "cosrod: 1\n"
                             "title: free rod\n"
                             "materials:\n"
                             "  steel: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
                             "gravity: [0, 0, 0]\n"
                             "rods:\n"
                             "  - segments: 20\n"
                             "    length: 1.0\n"
                             "    material: steel\n"
                             "    section: {shape: circle, radius: 0.005}\n"
                             "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
                             "    ends: {start: {type: free}, end: {type: free}}\n"
                             "analysis: {type: modes, count: 8}\n"
                             "output: {vtk: false, plots: false}\n";
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, "free.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("modal run ok", st == COSROD_OK);
  const int nm = cosrod_sim_nmodes(sim);
  CHECK("count 8: 8 modes", nm == 8);
  const double A = PI * RAD * RAD, EI = E * PI * pow(RAD, 4) / 4.0, b = 4.73004074486270;
  const double ref = b * b * sqrt(EI / (RHO * A));
  for (int i = 0; st == COSROD_OK && i < nm && i < 8; ++i) {
    double om;
    const char *type = NULL;
    int group = 0;
    cosrod_sim_mode(sim, i, &om, NULL, NULL);
    cosrod_sim_mode_info(sim, i, &type, &group);
    NOTE("mode %d: omega %.6g (%s, group %d); free-free Euler-Bernoulli %.6g", i + 1, om, type, group, ref);
    if (i < 6) {
      CHECK("rigid-body mode: |omega| < 1e-4 of the first bending", fabs(om) < 1e-4 * ref);
    } else {
      CHECK_CLOSE("first free-free bending pair (3 (βh)²/12)", om, ref, 3.0 * pow(b / 20.0, 2) / 12.0, 0.0);
      CHECK("one degenerate group after the six rigid ones", group == 6);
    }
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(buckling_two_columns), TH_CASE(modes_two_cantilevers),
                                TH_CASE(static_two_cantilevers), TH_CASE(modes_free_rod_rigid_counted)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
