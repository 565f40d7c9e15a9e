// SPDX-License-Identifier: Apache-2.0
/* Rod-rod contact in static analyses (sim_static_contact.c): two steel
 * cantilevers crossing at right angles, tip on tip: a (L_a = 1 m, along x)
 * below, b (L_b = 0.8 m, along y) on it, loaded by P = 100 N down at its
 * tip.  References (Euler-Bernoulli):
 *  - equal and opposite contact forces: the force of the pair on a (the
 *    contact point's fn n) against the force b receives, read from b's
 *    spring, P - k_b u_b, to 1 % at N = 20 (the tolerance of the spring
 *    model below; k_b u_b ~ 2 F carries twice its discretisation error);
 *  - penetration 2r - distance below 0.25 r (the warning threshold of the
 *    manual);
 *  - tip deflections: the tips are two springs k = 3 EI / L^3 coupled by
 *    the contact; with the penetration change d measured (the penalty's
 *    compliance), P = k_a u_a + k_b (u_a + d) gives
 *    u_a = (P - k_b d) / (k_a + k_b) and the contact force k_a u_a, to 1 %
 *    (shear (r/L)^2 ~ 1e-4, geometric nonlinearity (u/L)^2 ~ 5e-5, contact
 *    point off the tip by the sag) at N = 20, the error falling at least
 *    twofold per doubling of N (the discretisation error, O(ds^2));
 *  - the same configuration settled dynamically with Kelvin-Voigt damping
 *    (t = 1 s, ~5 decay times of the first mode) gives the same contact
 *    force to 0.5 % (the residual vibration and the integrator's tolerance). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "crossing_cantilevers.h"
#include "sim_test_util.h"

static const double PI = 3.14159265358979323846;

typedef sim_text_run run;
#define run_text(text) sim_text_run_start((text), "rrstat.yaml", NULL, 0)
#define run_free sim_text_run_free

static void crossing_text(char *text, size_t len, int N, const char *analysis) {
  crossing_cantilevers_text(text, len, N, N, analysis);
}

/* Sum of the normal contact forces on rod r (z component) and the largest penetration. */
static double rod_force_z(const cosrod_sim *sim, int r, double *pen) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  double fz = 0.0;
  *pen = 0.0;
  if (!d) return 0.0;
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t i = 0, n = cosrod_contact_npoints(d); i < n; i++)
    if (p[i].rod == r && p[i].other_kind == 1) {
      fz += p[i].fn * p[i].normal[2];
      if (-p[i].gap > *pen) *pen = -p[i].gap;
    }
  return fz;
}

TEST(crossing_cantilevers_static) {
  const double EI = E * PI * pow(R, 4) / 4, ka = 3 * EI / pow(LA, 3), kb = 3 * EI / pow(LB, 3);
  const int Ns[] = {5, 10, 20};
  double err_prev = 1e9;
  char text[4000];
  for (int v = 0; v < 3; v++) {
    crossing_text(text, sizeof text, Ns[v], "analysis: {type: static, increments: 5}\n");
    run S = run_text(text);
    CHECK("static run with rod-rod contact converges", S.st == COSROD_OK);
    if (S.st == COSROD_OK) {
      double pa;
      const double Fa = rod_force_z(S.sim, 0, &pa);
      const cosrod_rod_data *da = cosrod_sim_rod_data(S.sim, 0), *db = cosrod_sim_rod_data(S.sim, 1);
      const double ua = -da->x[3 * Ns[v] + 2], ub = -(db->x[3 * Ns[v] + 2] - 2 * R);
      const double d = ub - ua, ua_ref = (P - kb * d) / (ka + kb), err = fabs(ua - ua_ref) / ua_ref;
      const double Fb = P - kb * ub; /* what b's spring says a pushes up with */
      NOTE("N = %d: F on a %.8g N, on b (P - k_b u_b) %.8g N, k_a u_a,ref = %.8g N; u_a %.6g m (ref %.6g, rel. "
           "err %.3g), u_b %.6g m, approach %.3g m, penetration %.3g r",
           Ns[v], Fa, Fb, ka * ua_ref, ua, ua_ref, err, ub, d, pa / R);
      if (Ns[v] == 20) CHECK_NEAR("equal and opposite contact forces", -Fa, Fb, 0.01 * Fb);
      CHECK_NEAR("contact force = k_a u_a (two springs)", -Fa, ka * ua_ref, 0.01 * ka * ua_ref);
      if (Ns[v] == 20) CHECK_NEAR("tip deflection of a (two springs)", ua, ua_ref, 0.01 * ua_ref);
      CHECK("penetration below 0.25 r", pa <= 0.25 * R);
      if (v > 0) CHECK("the error falls at least twofold per doubling of N", err < 0.5 * err_prev);
      err_prev = err;
    }
    run_free(&S);
  }
}

TEST(crossing_cantilevers_static_vs_dynamic) {
  char text[4000];
  crossing_text(text, sizeof text, 10, "analysis: {type: static, increments: 5}\n");
  run S = run_text(text);
  crossing_text(text, sizeof text, 10,
                "analysis: {type: dynamic, t_end: 1.0}\nsolver: {integrator: radau5, rtol: 1.0e-6, atol: 1.0e-8}\n");
  run D = run_text(text);
  CHECK("static and dynamic runs", S.st == COSROD_OK && D.st == COSROD_OK);
  if (S.st == COSROD_OK && D.st == COSROD_OK) {
    double p;
    const double Fs = rod_force_z(S.sim, 0, &p), Fd = rod_force_z(D.sim, 0, &p);
    NOTE("contact force on a: static %.10g N, dynamic settled %.10g N (rel. difference %.3g)", Fs, Fd,
         fabs(Fs - Fd) / fabs(Fs));
    CHECK_NEAR("static and settled dynamic contact forces agree", Fd, Fs, 0.005 * fabs(Fs));
  }
  run_free(&S);
  run_free(&D);
}

/* The sparse (KLU) tangent and the dense full-width band reach the same
 * equilibrium: the Newton iteration stops at a scaled residual below
 * tol = 1e-9 (relative to the rods' force scales), so the two solutions
 * differ by at most the tolerance times the condition of the tip
 * stiffness relations (k_a + k_b against the axial stiffness of the
 * discretisation, < 1e3 here): 1e-6 relative on the tip deflections and
 * the contact force. */
TEST(sparse_tangent_equals_dense) {
  char text[4000];
  const int Ns[] = {10, 20};
  for (int v = 0; v < 2; v++) {
    crossing_text(text, sizeof text, Ns[v], "analysis: {type: static, increments: 5}\n");
    setenv("COSROD_STATICS_TANGENT", "sparse", 1);
    run S = run_text(text);
    setenv("COSROD_STATICS_TANGENT", "dense", 1);
    run D = run_text(text);
    unsetenv("COSROD_STATICS_TANGENT");
    CHECK("sparse and dense static runs converge", S.st == COSROD_OK && D.st == COSROD_OK);
    if (S.st == COSROD_OK && D.st == COSROD_OK) {
      double p;
      const double Fs = rod_force_z(S.sim, 0, &p), Fd = rod_force_z(D.sim, 0, &p);
      double dx = 0.0, umax = 0.0;
      for (int r = 0; r < 2; r++) {
        const cosrod_rod_data *ds = cosrod_sim_rod_data(S.sim, r), *dd = cosrod_sim_rod_data(D.sim, r);
        for (int i = 0; i < 3 * (Ns[v] + 1); i++) dx = fmax(dx, fabs(ds->x[i] - dd->x[i]));
        umax = fmax(umax, fabs(dd->x[3 * Ns[v] + 2]));
      }
      NOTE("N = %d: contact force sparse %.12g N, dense %.12g N; max |x_sparse - x_dense| %.3g m (tip %.3g m)", Ns[v],
           Fs, Fd, dx, umax);
      CHECK_NEAR("same contact force", Fs, Fd, 1e-6 * fabs(Fd));
      CHECK("same vertex positions", dx <= 1e-6 * umax);
    }
    run_free(&S);
    run_free(&D);
  }
}

/* More than 3000 unknowns (the former limit of the dense tangent): a with
 * 370 segments, b with 150 (6 (N + 1) unknowns per Cosserat rod, 3132 in
 * all) on the default path, which is the sparse one above
 * STATICS_COUPLING_DENSE.  Loose checks (this is about size): the contact
 * force against the two-spring reference to 1 % and the penetration. */
TEST(sparse_tangent_large) {
  const double EI = E * PI * pow(R, 4) / 4, ka = 3 * EI / pow(LA, 3), kb = 3 * EI / pow(LB, 3);
  char text[4000];
  crossing_cantilevers_text(text, sizeof text, 370, 150, "analysis: {type: static, increments: 2}\n");
  run S = run_text(text);
  CHECK("static run with 3132 unknowns converges", S.st == COSROD_OK);
  if (S.st == COSROD_OK) {
    double pa;
    const double Fa = rod_force_z(S.sim, 0, &pa);
    const cosrod_rod_data *da = cosrod_sim_rod_data(S.sim, 0), *db = cosrod_sim_rod_data(S.sim, 1);
    const double ua = -da->x[3 * 370 + 2], ub = -(db->x[3 * 150 + 2] - 2 * R);
    const double ua_ref = (P - kb * (ub - ua)) / (ka + kb);
    NOTE("F on a %.8g N, k_a u_a,ref %.8g N, penetration %.3g r", Fa, ka * ua_ref, pa / R);
    CHECK_NEAR("contact force = k_a u_a (two springs)", -Fa, ka * ua_ref, 0.01 * ka * ua_ref);
    CHECK("penetration below 0.25 r", pa <= 0.25 * R);
  }
  run_free(&S);
}

static const th_case cases[] = {TH_CASE(crossing_cantilevers_static), TH_CASE(crossing_cantilevers_static_vs_dynamic),
                                TH_CASE(sparse_tangent_equals_dense), TH_CASE(sparse_tangent_large)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
