// SPDX-License-Identifier: Apache-2.0
/* The rigid bodies' part of modes (cosrod_sim_mode_body, sim_mode_body.c):
 *  - examples/hinged-body-modes.yaml: in every mode the rod vertex clamped
 *    to the arm moves as the arm's point it sits on, d_a = d_b + r_b × (x_a
 *    − x_b) with x_a = x_b + R(q_b) a, and turns with it (r_a = r_b), and
 *    the hinge point stays in place (d_b + r_b × (x_h − x_b) = 0);
 *  - a compound pendulum (a body on a revolute hinge, a light stiff rod
 *    hanging from it): the pendulum mode is a rotation about the hinge axis
 *    of amplitude 1/sqrt(I_hinge) (mass-normalised: I θ² = 1), every rod
 *    vertex following the body rigidly;
 *  - a cantilever clamped to a body on a fixed joint: the body stays at
 *    rest in every mode (and so does the clamped vertex);
 *  - rods without bodies: ERR_INVALID for a body index. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

static void cross(double r[3], const double a[3], const double b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

static double dist(const double a[3], const double b[3]) { return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])); }

static double norm(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* rigid motion of point p of body (x, d, r): d + r × (p − x) */
static void rigid(double out[3], const double x[3], const double d[3], const double r[3], const double p[3]) {
  double a[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]}, w[3];
  cross(w, r, a);
  for (int j = 0; j < 3; ++j) out[j] = d[j] + w[j];
}

static cosrod_sim *run_sim(cosrod_sim *sim, cosrod_scenario **sc) {
  if (!sim) return NULL;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) {
    NOTE("run: %s", cosrod_sim_message(sim));
    cosrod_sim_free(sim);
    cosrod_scenario_free(*sc);
    return NULL;
  }
  return sim;
}

/* Round-off: the products of O(1) mode entries and 0.05 m arms, 1e-12
 * relative to the entries (|d|, |r| |a| ~ 1 for mass-normalised modes of a
 * 2 kg arm); the attachment point itself is the converged static state
 * (the solver's 1e-10-relative tolerance on a 0.35 m arm). */
TEST(hinged_arm_attached_vertex_moves_with_the_arm) {
  cosrod_scenario *sc;
  cosrod_sim *sim = run_sim(sim_test_load("hinged-body-modes", NULL, 0, &sc), &sc);
  if (!sim) return;
  double xb[3], qb[4], at[3] = {0, 0, -0.05}, arm[3], xa[3], hinge[3] = {0, 0, 0};
  CHECK("one body", cosrod_sim_nbodies(sim) == 1);
  cosrod_sim_body(sim, 0, xb, qb, NULL);
  cosrod_quat_rotate(arm, qb, at);
  for (int j = 0; j < 3; ++j) xa[j] = xb[j] + arm[j];
  const double *x0 = cosrod_sim_rod_data(sim, 0)->x;
  NOTE("arm at (%.12g, %.12g, %.12g), attachment %.3g m from the hose's first vertex", xb[0], xb[1], xb[2],
       dist(xa, x0));
  CHECK_LE("the hose's first vertex is the attachment point [m]", dist(xa, x0), 1e-9);
  const int n = cosrod_sim_nmodes(sim);
  CHECK("modes", n >= 3);
  int moving = 0;
  double worst = 0.0, worst_r = 0.0, worst_h = 0.0;
  for (int i = 0; i < n; ++i) {
    double d[3], r[3], want[3], h[3], om;
    const double *sh;
    cosrod_sim_mode(sim, i, &om, NULL, &sh);
    CHECK("mode body", cosrod_sim_mode_body(sim, i, 0, d, r) == COSROD_OK);
    CHECK("the hose's listing", cosrod_sim_mode_rod(sim, i) == 0);
    rigid(want, xb, d, r, xa);
    const double scale = norm(d) + norm(r) * norm(arm) + 1e-300;
    worst = fmax(worst, dist(sh, want) / scale);
    worst_r = fmax(worst_r, dist(sh + 3, r) / (norm(r) + 1e-300));
    rigid(h, xb, d, r, hinge);
    worst_h = fmax(worst_h, norm(h) / scale);
    moving += norm(sh) > 1e-3 * norm(d);
    NOTE("mode %d (%.6g rad/s): arm d = (%.4g, %.4g, %.4g), r = (%.4g, %.4g, %.4g); vertex 0 d = (%.4g, %.4g, %.4g)", i + 1,
         om, d[0], d[1], d[2], r[0], r[1], r[2], sh[0], sh[1], sh[2]);
  }
  NOTE("relative deviations over %d modes: vertex displacement %.2e, rotation %.2e, hinge point %.2e", n, worst, worst_r,
       worst_h);
  CHECK_LE("vertex 0 moves as the arm's point (round-off)", worst, 1e-12);
  CHECK_LE("vertex 0 turns with the arm (round-off)", worst_r, 1e-12);
  /* the hinge holds the arm's point at the origin: on the constraints'
   * tangent space to the joint's row tolerance (linear constraint rows) */
  CHECK_LE("the hinge point stays (tangent space of the joint)", worst_h, 1e-8);
  CHECK("the arm moves in the pendulum modes (vertex 0 not zero)", moving >= 1);
  double d[3], r[3];
  CHECK("bad body index refused", cosrod_sim_mode_body(sim, 0, 1, d, r) == COSROD_ERR_INVALID);
  CHECK("bad mode index refused", cosrod_sim_mode_body(sim, n, 0, d, r) == COSROD_ERR_INVALID);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Body `bob` (2 kg, inertia (0.01, 0.02, 0.015) kg m²) hinged to ground at
 * its point (0, 0, 0.3), hinge at the origin, axis y; a light stiff rod
 * (rhoA 1e-4 kg/m, EI 0.01 N m², first bending mode ~3.5e3 rad/s) hangs
 * from bob's point (0, 0, -0.05), 0.1 m long. */
static const char *PEND =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: tail\n"
    "    length: 0.1\n"
    "    segments: 10\n"
    "    stiffness: {EA: 10.0, GA1: 10.0, GA2: 10.0, EI1: 0.01, EI2: 0.01, GJ: 0.01}\n"
    "    inertia: {rhoA: 1.0e-4, rhoI1: 1.0e-8, rhoI2: 1.0e-8, rhoJ: 2.0e-8}\n"
    "    shape: {type: straight, start: [0, 0, -0.35], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: bob, at: [0, 0, -0.05]}\n"
    "      end: {type: free}\n"
    "bodies:\n"
    "  - {name: bob, mass: 2.0, inertia: [0.01, 0.02, 0.015], position: [0, 0, -0.3]}\n"
    "joints:\n"
    "  - {type: revolute, bodies: [bob, ground], at: [[0, 0, 0.3], [0, 0, 0]], axis: [0, 1, 0]}\n"
    "analysis: {type: modes, count: 2}\n";

/* Inertia about the hinge axis of the rigid assembly: the body (centre 0.3
 * below, 0.02 about its centre) and the rod as a slender bar from 0.35 to
 * 0.45 below (mass rhoA L) with its sections' inertia rhoI L.  The mode
 * shape of the flexible assembly differs from the rigid rotation by the
 * rod's quasi-static deflection under the inertial load, relative
 * (ω/ω_rod)² ~ (5.4/3.5e3)² = 2.4e-6, weighted by the rod's 1e-5 kg against
 * the body's 2 kg: < 1e-8 in the body's amplitude; the lumped masses'
 * trapezoidal Σ m_n z_n² differs from the bar's integral by rhoA L h²/6 =
 * 1.7e-10 kg m² (1e-9 of I).  Tolerance 1e-7 relative; the rod's vertices
 * follow the body to the deflection's 2.4e-6 (tolerance 1e-5). */
TEST(compound_pendulum_mode_is_a_rotation_about_the_hinge) {
  cosrod_scenario *sc;
  cosrod_sim *sim = run_sim(sim_test_parse(PEND, "pendulum.yaml", NULL, 0, &sc), &sc);
  if (!sim) return;
  const double m = 2.0, dd = 0.3, rhoA = 1e-4, L = 0.1, zc = 0.4, mr = rhoA * L;
  const double I = 0.02 + m * dd * dd + mr * (L * L / 12.0 + zc * zc) + 1e-8 * L;
  double xb[3], qb[4], d[3], r[3], om, hinge[3] = {0, 0, 0}, want[3];
  const double *sh;
  cosrod_sim_body(sim, 0, xb, qb, NULL);
  cosrod_sim_mode(sim, 0, &om, NULL, &sh);
  CHECK("mode body", cosrod_sim_mode_body(sim, 0, 0, d, r) == COSROD_OK);
  const double th = 1.0 / sqrt(I);
  NOTE("pendulum %.9g rad/s: r = (%.3e, %.12g, %.3e) rad, closed form |r_y| = 1/sqrt(I) = %.12g (rel. error %.2e)", om,
       r[0], r[1], r[2], th, fabs(fabs(r[1]) - th) / th);
  CHECK_NEAR("amplitude of the rotation about the hinge axis", fabs(r[1]), th, 1e-7 * th);
  CHECK_LE("no rotation about x or z", fmax(fabs(r[0]), fabs(r[2])), 1e-7 * th);
  /* the body's centre turns about the hinge: d = r × (x_b − x_h) */
  rigid(want, hinge, (double[3]){0, 0, 0}, r, xb);
  NOTE("centre d = (%.12g, %.3e, %.3e), r × (x_b − x_h) = (%.12g, %.3e, %.3e)", d[0], d[1], d[2], want[0], want[1],
       want[2]);
  CHECK_LE("centre on the circle about the hinge", dist(d, want), 1e-8 * norm(want));
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  const double *x = cosrod_sim_rod_data(sim, 0)->x;
  double worst = 0.0, worst_r = 0.0;
  for (int v = 0; v <= cosrod_rod_nseg(rod); ++v) {
    rigid(want, xb, d, r, x + 3 * v);
    worst = fmax(worst, dist(sh + 6 * v, want) / norm(want));
    worst_r = fmax(worst_r, dist(sh + 6 * v + 3, r) / th);
  }
  NOTE("rod vertices against the body's rigid motion: displacement %.2e, rotation %.2e (relative)", worst, worst_r);
  CHECK_LE("the rod's vertices follow the body (displacement)", worst, 1e-5);
  CHECK_LE("the rod's vertices turn with the body", worst_r, 1e-5);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* The same body held by a fixed joint: no mode moves it (the joint's rows
 * hold it to their tolerance), the rod's clamped vertex stays too. */
TEST(fixed_body_stays_at_rest) {
  cosrod_scenario *sc;
  const char *sets[] = {"joints=[{type: fixed, bodies: [bob, ground], at: [[0, 0, 0.3], [0, 0, 0]]}]",
                        "analysis={type: modes, count: 3}"};
  cosrod_sim *sim = run_sim(sim_test_parse(PEND, "fixed.yaml", sets, 2, &sc), &sc);
  if (!sim) return;
  double big = 0.0, tip = 0.0;
  for (int i = 0; i < cosrod_sim_nmodes(sim); ++i) {
    double d[3], r[3];
    const double *sh;
    cosrod_sim_mode(sim, i, NULL, NULL, &sh);
    cosrod_sim_mode_body(sim, i, 0, d, r);
    big = fmax(big, fmax(norm(d), norm(r)) + norm(sh) + norm(sh + 3));
    tip = fmax(tip, norm(sh + 6 * cosrod_rod_nseg(cosrod_sim_rod(sim, 0))));
  }
  NOTE("largest body / clamped-vertex entry %.2e against the rod's tip %.3g", big, tip);
  CHECK_LE("body and clamped vertex at rest", big, 1e-8 * tip);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(rods_without_bodies_refuse_a_body_index) {
  cosrod_scenario *sc;
  const char *sets[] = {"bodies=[]", "joints=[]",
                        "rods=[{name: c, length: 0.1, segments: 10, stiffness: {EA: 10.0, GA1: 10.0, GA2: 10.0, "
                        "EI1: 0.01, EI2: 0.01, GJ: 0.01}, inertia: {rhoA: 1.0e-4, rhoI1: 1.0e-8, rhoI2: 1.0e-8, "
                        "rhoJ: 2.0e-8}, shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, "
                        "0]}, ends: {start: {type: clamped}, end: {type: free}}}]"};
  cosrod_sim *sim = run_sim(sim_test_parse(PEND, "nobody.yaml", sets, 3, &sc), &sc);
  if (!sim) return;
  double d[3], r[3];
  CHECK("modes", cosrod_sim_nmodes(sim) >= 2);
  CHECK("no body 0", cosrod_sim_mode_body(sim, 0, 0, d, r) == COSROD_ERR_INVALID);
  CHECK("stride is the vertex table", cosrod_sim_mode_stride(sim) == 6 * 11);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(hinged_arm_attached_vertex_moves_with_the_arm),
    TH_CASE(compound_pendulum_mode_is_a_rotation_about_the_hinge),
    TH_CASE(fixed_body_stays_at_rest),
    TH_CASE(rods_without_bodies_refuse_a_body_index),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
