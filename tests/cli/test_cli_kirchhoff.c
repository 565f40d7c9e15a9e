// SPDX-License-Identifier: Apache-2.0
/* Static and modal analyses of Kirchhoff rods end to end through `cosrod
 * run` ([LA] §3-4): the inextensible steel cantilever's modes.csv
 * converges to the Euler–Bernoulli values βL = 1.8751, 4.6941, 7.8548 at
 * second order in N (slender: r/L = 1e-3, so rotary inertia, which the rod
 * model keeps, changes ω by ~1e-6), for both Kirchhoff models; the static
 * catenary example carries its weight with horizontal pulls in balance
 * (reactions.csv) and keeps every segment length (centerline.csv). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "outtest.h"

#define CLI_TEST_TAG "kirch"
#include "cli_test_util.h"

/* ω of the first 6 modes (3 degenerate pairs) of the cantilever example with
 * model and N segments; 0 on success. */
static int cantilever_omegas(const char *model, int N, double om[6]) {
  char *dir = ot_mkdtemp("kmodes");
  char seg[64], mod[64];
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  snprintf(mod, sizeof mod, "rods.0.model=%s", model);
  const char *args[] = {"run", ex("steel-cantilever"), "-o", dir, "-q", "--set", "analysis={type: modes, count: 6}",
                        "--set", "gravity=[0, 0, 0]", "--set", "output.plots=false", "--set", "output.vtk=false",
                        "--set", "rods.0.section={shape: circle, radius: 1.0e-3}", "--set", seg, "--set", mod, NULL};
  int rc = cli_run(args);
  int ok = rc == 0;
  char *hdr = NULL;
  double *m = NULL;
  long rows = ok ? ot_csv_read(ot_path(dir, "modes.csv"), &hdr, &m, 11) : -1;
  ok = ok && hdr && strcmp(hdr, "mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz") == 0 &&
       rows == 6L * (N + 1);
  if (ok)
    for (int i = 0; i < 6; ++i) om[i] = m[(size_t)11 * (size_t)(i * (N + 1)) + 2];
  free(hdr);
  free(m);
  ot_rmtree(dir);
  free(dir);
  return ok ? 0 : -1;
}

TEST(kirchhoff_cantilever_modes_through_run) {
  static const double BETA[3] = {1.87510407, 4.69409113, 7.85475744};
  const double E = 2.1e11, rho = 7850.0, r = 1e-3, L = 1.0;
  const double c = sqrt(E * r * r / (4.0 * rho)) / (L * L); /* sqrt(EI/(ρA)) / L² */
  const char *models[2] = {"kirchhoff-inextensible", "kirchhoff-extensible"};
  for (int mi = 0; mi < 2; ++mi) {
    const int Ns[3] = {10, 20, 40};
    double b[3][3];
    for (int j = 0; j < 3; ++j) {
      double om[6];
      if (cantilever_omegas(models[mi], Ns[j], om) != 0) {
        CHECK("modes.csv written", 0);
        return;
      }
      for (int i = 0; i < 3; ++i) {
        CHECK_NEAR("degenerate pair (round section)", om[2 * i + 1], om[2 * i], 1e-6 * om[2 * i]);
        b[j][i] = sqrt(om[2 * i] / c);
      }
      NOTE("%s N %d: beta L = %.6f %.6f %.6f", models[mi], Ns[j], b[j][0], b[j][1], b[j][2]);
    }
    for (int i = 0; i < 3; ++i) {
      double e1 = fabs(b[0][i] - BETA[i]), e2 = fabs(b[1][i] - BETA[i]), e3 = fabs(b[2][i] - BETA[i]);
      double p = log2(e2 / e3);
      NOTE("%s mode %d: errors %.3e %.3e %.3e, orders %.3f %.3f", models[mi], i + 1, e1, e2, e3, log2(e1 / e2), p);
      CHECK_LE("N = 40 within 3e-3 (relative)", e3 / BETA[i], 3e-3);
      CHECK("second order (N 20 -> 40)", p > 1.8 && p < 2.2);
    }
  }
}

TEST(kirchhoff_static_catenary_example) {
  char *dir = ot_mkdtemp("kcat");
  const char *args[] = {"run", ex("catenary-static"), "-o", dir, "-q", "--set", "output.plots=false", NULL};
  CHECK("exit 0", cli_run(args) == 0);
  char *hdr = NULL;
  double *R = NULL, *x = NULL;
  long nr = ot_csv_read(ot_path(dir, "reactions.csv"), &hdr, &R, 9);
  free(hdr);
  hdr = NULL;
  CHECK("reactions at t = 0, 0.25, ..., 1 (two ends)", nr == 10);
  if (nr == 10) {
    const double w = 7850.0 * 3.14159265358979 * 4e-6 * 9.81 * 10.0; /* weight (N) */
    const double *a = R + 9 * 8, *b = R + 9 * 9;
    NOTE("t = 1: start (%.6f, %.6f), end (%.6f, %.6f)", a[3], a[5], b[3], b[5]);
    CHECK("t = 1", a[0] == 1.0 && b[0] == 1.0);
    CHECK_NEAR("pins carry the weight", a[5] + b[5], w, 1e-8 * w);
    CHECK_NEAR("horizontal pulls balance", a[3] + b[3], 0.0, 1e-8 * w);
    CHECK("cable pulls the pins inwards", a[3] < 0.0 && b[3] > 0.0);
  }
  long nx = ot_csv_read(ot_path(dir, "centerline.csv"), &hdr, &x, 7);
  CHECK("centerline: 5 frames x 41 vertices", nx == 5 * 41);
  if (nx == 5 * 41) {
    double e = 0.0, L0 = 0.0;
    const double *f0 = x, *f1 = x + 7 * 4 * 41;
    for (int k = 0; k < 40; ++k) {
      double l0 = 0.0, l1 = 0.0;
      for (int j = 4; j < 7; ++j) {
        l0 += (f0[7 * (k + 1) + j] - f0[7 * k + j]) * (f0[7 * (k + 1) + j] - f0[7 * k + j]);
        l1 += (f1[7 * (k + 1) + j] - f1[7 * k + j]) * (f1[7 * (k + 1) + j] - f1[7 * k + j]);
      }
      e = fmax(e, fabs(sqrt(l1) - sqrt(l0)));
      L0 += sqrt(l0);
    }
    NOTE("max segment length change t 0 -> 1: %.3e m (polygon length %.9f m)", e, L0);
    CHECK_LE("segment lengths kept (csv has 17 digits)", e, 1e-12);
  }
  free(hdr);
  free(R);
  free(x);
  ot_rmtree(dir);
  free(dir);
}

/* A straight taut inextensible rod between two pins is a kinematic
 * singularity ([LA] §4(a)): a static run refuses it (exit 2) naming the rod
 * and a segment; the extensible rod carries the hose's weight like the
 * Cosserat one (H = 41.2 N, examples/hanging-hose.yaml). */
TEST(kirchhoff_taut_hose) {
  char *dir = ot_mkdtemp("khose");
  const char *a1[] = {"run", ex("hanging-hose"), "-o", dir, "-q", "--set", "rods.0.model=kirchhoff-inextensible", NULL};
  CHECK("inextensible: exit 2", cli_run(a1) == 2);
  const char *a2[] = {"run", ex("hanging-hose"), "-o", dir, "-q", "--set", "rods.0.model=kirchhoff-extensible", "--set",
                      "output.plots=false", "--set", "output.vtk=false", NULL};
  CHECK("extensible: exit 0", cli_run(a2) == 0);
  char *hdr = NULL;
  double *R = NULL;
  long nr = ot_csv_read(ot_path(dir, "reactions.csv"), &hdr, &R, 9);
  if (nr == 10) {
    NOTE("extensible hose at t = 1: pull %.6f N, vertical %.6f N", R[9 * 9 + 3], R[9 * 9 + 5]);
    CHECK_NEAR("horizontal pull as the Cosserat hose (41.2 N, Irvine)", R[9 * 9 + 3], 41.2, 0.05);
    CHECK_NEAR("half the weight", R[9 * 9 + 5], 16.95, 0.01);
  } else {
    CHECK("reactions rows", 0);
  }
  free(hdr);
  free(R);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(kirchhoff_cantilever_modes_through_run),
                                TH_CASE(kirchhoff_static_catenary_example), TH_CASE(kirchhoff_taut_hose)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
