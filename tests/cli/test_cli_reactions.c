// SPDX-License-Identifier: Apache-2.0
/* reactions.csv end to end: a static run of a steel cantilever (clamped,
 * gravity ramped over the pseudo-time, a tip force ramped in) and a dynamic
 * run of the same cantilever at rest (start_from_equilibrium under a
 * constant tip force): the clamp's
 * reaction balances the tip force plus the weight at every output time
 * (global equilibrium; the static weight grows with t), and its moment
 * balances their moments about the clamp. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "outtest.h"

#define CLI_TEST_TAG "react"
#include "cli_test_util.h"

/* steel, L = 1, r = 5 mm, N = 16, along e2, clamped at the origin */
static const double L = 1.0, RAD = 5e-3, RHO = 7850.0, G_ACC = 9.81, P = 2.0; /* N, along e1 */

static const char *scenario(const char *dir, int dynamic) {
  static char path[512];
  snprintf(path, sizeof path, "%s/cantilever.yaml", dir);
  FILE *f = fopen(path, "w");
  if (!f) return NULL;
  fprintf(f,
          "cosrod: 1\n"
          "title: reactions\n"
          "gravity: [0, 0, -%g]\n"
          "materials:\n  steel: {E: 2.1e11, poisson: 0.3, density: %g}\n"
          "rods:\n"
          "  - name: beam\n    length: %g\n    segments: 16\n    material: steel\n"
          "    section: {shape: circle, radius: %g}\n"
          "    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
          "    ends:\n      start: {type: clamped}\n      end: {type: free}\n"
          "    loads:\n      - {type: force, at: end, value: [%g, 0, 0], frame: spatial%s}\n"
          "%s"
          "output: {every: 0.25, vtk: false, plots: false}\n",
          G_ACC, RHO, L, RAD, P, dynamic ? "" : ", ramp: [0, 1]",
          dynamic ? "analysis: {type: dynamic, t_end: 0.01, start_from_equilibrium: true}\n"
                    "solver: {rtol: 1.0e-8, atol: 1.0e-10}\n"
                  : "analysis: {type: static, increments: 8}\n");
  fclose(f);
  return path;
}

/* reactions.csv rows t,rod,end,Fx,Fy,Fz,Mx,My,Mz; checks every row against
 * the loads at its t (static: weight and tip force scaled by t; dynamic: a
 * constant tip force, the rod at rest in the equilibrium it starts from,
 * up to the integrator's tolerance) */
static void check_file(const char *dir, int dynamic) {
  char *h = NULL;
  double *m = NULL;
  long n = ot_csv_read(ot_path(dir, "reactions.csv"), &h, &m, 9);
  CHECK("header", h && !strcmp(h, "t,rod,end,Fx,Fy,Fz,Mx,My,Mz"));
  NOTE("%ld rows", n);
  CHECK("one row per output time (clamped start only)", n == 5);
  const double W = RHO * 3.14159265358979323846 * RAD * RAD * L * G_ACC;
  double worst_f = 0.0, worst_m = 0.0;
  for (long i = 0; i < n; ++i) {
    const double *r = m + 9 * i;
    double t = r[0], s = dynamic ? 1.0 : t, p = dynamic ? P : P * t;
    CHECK("rod 0, start", r[1] == 0 && r[2] == 0);
    /* forces: R + (p, 0, -s W) = 0 */
    double ef = fabs(r[3] + p) + fabs(r[4]) + fabs(r[5] - s * W);
    /* moments about the clamp: the lever arms of the straight rod (weight
     * at L/2, tip force at L), exact up to the deflection δ/L ~ 1e-4 */
    double Mx_ref = s * W * L / 2.0, Mz_ref = p * L;
    double em = fabs(r[6] - Mx_ref) / fmax(Mx_ref, 1e-300) + (p > 0 ? fabs(r[8] - Mz_ref) / Mz_ref : 0.0);
    worst_f = fmax(worst_f, ef / fmax(W, P));
    worst_m = fmax(worst_m, em);
    NOTE("t = %.3g: R_F (%.9g, %.9g, %.9g), R_M (%.6g, %.6g, %.6g); applied (%g, 0, %.9g)", t, r[3], r[4], r[5],
         r[6], r[7], r[8], p, -s * W);
  }
  NOTE("worst relative force imbalance %.2e, moment vs straight-rod levers %.2e", worst_f, worst_m);
  /* static: Newton tolerance 1e-9 of the force scale (summed over the
   * vertices); dynamic: also the residual motion allowed by rtol 1e-8 */
  CHECK_LE("force balance at every output time", worst_f, dynamic ? 1e-6 : 1e-8);
  CHECK_LE("moments = lever arms of the (nearly straight) rod", worst_m, 2e-2);
  free(h);
  free(m);
}

TEST(static_reactions_csv) {
  char *dir = ot_mkdtemp("reactions_static");
  const char *args[] = {"run", scenario(dir, 0), "-o", dir, "-q", NULL};
  int rc = cli_run(args);
  CHECK("exit 0", rc == 0);
  check_file(dir, 0);
  ot_rmtree(dir);
  free(dir);
}

TEST(dynamic_reactions_csv) {
  char *dir = ot_mkdtemp("reactions_dynamic");
  const char *args[] = {"run", scenario(dir, 1), "-o", dir, "-q", "--set", "output.every=0.0025", NULL};
  int rc = cli_run(args);
  CHECK("exit 0", rc == 0);
  check_file(dir, 1);
  ot_rmtree(dir);
  free(dir);
}

/* plots/reactions.gp (and .png with gnuplot): the force and moment
 * components of the supported end only (the clamped start, not the free
 * end), columns 4-9 of reactions.csv. */
TEST(reactions_plot) {
  char *dir = ot_mkdtemp("reactions_plot");
  const char *args[] = {"run", scenario(dir, 0), "-o", dir, "-q", "--set", "output.plots=true", NULL};
  CHECK("exit 0", cli_run(args) == 0);
  const char *plots = ot_path(dir, "plots");
  char *gp = ot_read(ot_path(plots, "reactions.gp"), NULL);
  CHECK("reactions.gp written", gp != NULL);
  static const char *const comp[6] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz"};
  for (int c = 0; gp && c < 6; ++c) {
    char title[64], col[64];
    snprintf(title, sizeof title, "title 'beam start %s'", comp[c]);
    snprintf(col, sizeof col, "(($2==0 && $3==0) ? $%d : NaN)", 4 + c);
    CHECK("a series per component of the clamped start", strstr(gp, title) && strstr(gp, col));
  }
  CHECK("no series of the free end", gp && !strstr(gp, "beam end"));
  char *png = ot_read(ot_path(plots, "reactions.png"), NULL);
  if (png) {
    CHECK("reactions.png is a PNG", !memcmp(png, "\x89PNG", 4));
  } else {
    char *js = ot_read(ot_path(dir, "summary.json"), NULL);
    NOTE("no reactions.png: gnuplot missing?");
    CHECK("no PNG only without gnuplot (warning in summary.json)", js && strstr(js, "gnuplot not found"));
    free(js);
  }
  free(png);
  free(gp);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(static_reactions_csv), TH_CASE(dynamic_reactions_csv),
                                TH_CASE(reactions_plot)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
