// SPDX-License-Identifier: Apache-2.0
/* Self-contact in a static analysis (sim_static_contact.c): a steel
 * hairpin, one rod.  Leg A runs from a clamp at the origin along x to
 * L = 1 m, turns up by h = 2r + g0 (g0 = 2 mm) and leg B runs back above
 * it to a free tip at x_c = 0.5 m; a force P = 100 N down at the tip
 * presses it onto leg A (a self-contact pair 0.5 + 0.022 + 0.5 m apart
 * along the rod, far beyond the neighbour exclusion).
 * Reference (linear superposition, compatibility of the closing gap):
 * above the contact point the tip load P and the contact force F act on
 * the same vertical line, so the clamp side of A carries P and the loop
 * (A beyond x_c, the turn, B) carries P - F only; the relative approach of
 * the tip to A is c (P - F) with c the loop's compliance, and it equals the
 * gap closed, g0 + p (p: the penetration at the end), so
 *   F = P - (g0 + p) / c.
 * c is measured on the same discrete rod without contact (a small load,
 * the linear range); Euler-Bernoulli gives c = (2 l^3/3 + l^2 h)/EI,
 * l = L - x_c, which the discrete hairpin undercuts by ~8 % at its two
 * 90-degree corners (the chart's incremental bending stiffness at a kink):
 * printed, not asserted.  Tolerance 1e-3 of F: the neglected geometric
 * nonlinearity (rotations ~1e-2, their squares 1e-4) on the gap term
 * g0/c ~ 0.7 F.  Also: the minimum distance between the axes stays above
 * 2r - 0.25 r (the penetration warning threshold), the contact is a
 * self-contact pair, and the sparse and the dense tangents (the rod's 462
 * unknowns are below STATICS_COUPLING_DENSE: the dense one by default)
 * give the same equilibrium to the Newton tolerance. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

static const double PI = 3.14159265358979323846;
static const double E = 2.1e11, R = 0.01, L = 1.0, XC = 0.5, G0 = 0.002, P = 100.0;
enum { N = 76 };

typedef sim_text_run run;
#define run_text(text) sim_text_run_start((text), "selfstat.yaml", NULL, 0)
#define run_free sim_text_run_free

static void hairpin_text(char *text, size_t len, double load, int self) {
  const double h = 2 * R + G0;
  snprintf(text, len,
           "cosrod: 1\ngravity: [0, 0, 0]\nmaterials:\n  steel: {E: %g, poisson: 0.3, density: 7850}\nrods:\n"
           "  - name: hairpin\n    length: %.17g\n    segments: %d\n    material: steel\n"
           "    section: {shape: circle, radius: %g}\n"
           "    shape: {type: polyline, points: [[0, 0, 0], [%g, 0, 0], [%g, 0, %.17g], [%g, 0, %.17g]], "
           "normal: [0, 1, 0]}\n"
           "    ends: {start: {type: clamped}}\n"
           "    loads: [{type: force, at: end, value: [0, 0, %g]}]\n"
           "contact: {rods: false, self: %s}\nanalysis: {type: static, increments: 5}\n",
           E, L + h + (L - XC), N, R, L, L, h, XC, h, -load, self ? "true" : "false");
}

/* Relative approach of the tip (vertex N) to leg A below it: the gap h
 * minus the vertical distance, A interpolated at the tip's x. */
static double approach(const cosrod_rod_data *d) {
  const double *x = d->x, xt = x[3 * N], zt = x[3 * N + 2];
  for (int i = 0; i < N / 2; i++)
    if (x[3 * i] <= xt && xt <= x[3 * i + 3]) {
      const double a = (xt - x[3 * i]) / (x[3 * i + 3] - x[3 * i]);
      return (2 * R + G0) - (zt - ((1 - a) * x[3 * i + 2] + a * x[3 * i + 5]));
    }
  return NAN;
}

/* Self-contact force (sum of fn over the rod's self pairs), largest
 * penetration, and whether every pair is a self pair. */
static double self_force(const cosrod_sim *sim, double *pen, int *all_self) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  double f = 0.0;
  *pen = 0.0, *all_self = 1;
  if (!d) return 0.0;
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t i = 0, n = cosrod_contact_npoints(d); i < n; i++) {
    if (!(p[i].other_kind == 1 && p[i].other == p[i].rod)) *all_self = 0;
    f += p[i].fn;
    if (-p[i].gap > *pen) *pen = -p[i].gap;
  }
  return f;
}

TEST(hairpin_pressed_onto_itself) {
  char text[4000];
  const double EI = E * PI * pow(R, 4) / 4, l = L - XC, h = 2 * R + G0;
  hairpin_text(text, sizeof text, 1.0, 0); /* compliance of the loop, no contact */
  run C = run_text(text);
  hairpin_text(text, sizeof text, P, 1);
  run S = run_text(text);
  CHECK("contact-free and self-contact static runs converge", C.st == COSROD_OK && S.st == COSROD_OK);
  if (C.st == COSROD_OK && S.st == COSROD_OK) {
    const double c = approach(cosrod_sim_rod_data(C.sim, 0)) / 1.0, c_eb = (2 * l * l * l / 3 + l * l * h) / EI;
    double pen;
    int all_self;
    const double F = self_force(S.sim, &pen, &all_self), Fref = P - (G0 + pen) / c;
    const double dist = 2 * R - pen;
    NOTE("compliance of the loop %.6g m/N (Euler-Bernoulli %.6g); F %.8g N, reference %.8g N (rel. %.3g); "
         "penetration %.3g r, approach %.6g m",
         c, c_eb, F, Fref, fabs(F - Fref) / Fref, pen / R, approach(cosrod_sim_rod_data(S.sim, 0)));
    CHECK("the contact is a self-contact pair", all_self && F > 0.0);
    CHECK_NEAR("F = P - (g0 + p) / c (compatibility)", F, Fref, 1e-3 * Fref);
    CHECK("distance between the axes >= 2r - 0.25 r", dist >= 2 * R - 0.25 * R);
    CHECK_NEAR("approach = g0 + p (the gap is closed)", approach(cosrod_sim_rod_data(S.sim, 0)), G0 + pen,
               1e-3 * G0);
  }
  run_free(&C);
  setenv("COSROD_STATICS_TANGENT", "sparse", 1);
  run Q = run_text(text);
  unsetenv("COSROD_STATICS_TANGENT");
  CHECK("sparse-tangent run converges", Q.st == COSROD_OK);
  if (S.st == COSROD_OK && Q.st == COSROD_OK) {
    const cosrod_rod_data *ds = cosrod_sim_rod_data(S.sim, 0), *dq = cosrod_sim_rod_data(Q.sim, 0);
    double dx = 0.0;
    for (int i = 0; i < 3 * (N + 1); i++) dx = fmax(dx, fabs(ds->x[i] - dq->x[i]));
    NOTE("max |x_sparse - x_dense| %.3g m", dx);
    CHECK("same equilibrium on the sparse tangent (1e-6 of the approach)", dx <= 1e-6 * G0);
  }
  run_free(&S);
  run_free(&Q);
}

static const th_case cases[] = {TH_CASE(hairpin_pressed_onto_itself)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
