// SPDX-License-Identifier: Apache-2.0
/* Bushings on bodies driven by motion keyframes in dynamic analyses (the
 * keyframe body is a rheonomic side of the bushing: body.h COSROD_MBS_KIN,
 * src/sim/sim_bodies.c).  The keyframe body carries a hose (a rod is what
 * puts keyframe bodies in a scenario); the payload hangs on a bushing.
 * References: Galilean invariance, a 1-DOF ODE integrated here by RK4, the
 * energy balance (energy.csv's external work includes the driven side's). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "harness.h"
#include "sim_test_util.h"

/* a hose clamped to the keyframe body `base` (gravity g) */
#define HOSE(g)                                                                          \
  "cosrod: 1\n"                                                                          \
  "gravity: [" g "]\n"                                                                   \
  "rods:\n"                                                                              \
  "  - name: hose\n"                                                                     \
  "    length: 0.4\n"                                                                    \
  "    segments: 4\n"                                                                    \
  "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"                              \
  "    section: {shape: circle, radius: 6.0e-3}\n"                                       \
  "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n" \
  "    ends:\n"                                                                          \
  "      start: {type: clamped, body: base, at: [0, 0, -0.1]}\n"                         \
  "bodies:\n"                                                                            \
  "  - name: base\n"

/* %s: gravity; %s: base keyframes; %s: payload velocity; %s: bushing extras */
static const char *FMT =
    HOSE("%s")
    "    mass: 1\n"
    "    inertia: [1, 1, 1]\n"
    "    position: [0, 0, 0.1]\n"
    "    motion: {%s}\n"
    "  - {name: payload, mass: 2, inertia: [0.1, 0.15, 0.2], position: [0.5, 0, 0.1], velocity: [%s]}\n"
    "joints:\n"
    "  - {type: bushing, bodies: [base, payload], at: [[0.5, 0, 0], [0, 0, 0]], stiffness: 50, damping: 0.8%s}\n"
    "analysis: {type: dynamic, t_end: %s}\n"
    "solver: {formulation: nullspace, integrator: dop853, rtol: 1.0e-11, atol: 1.0e-12}\n"
    "output: {every: 0.05}\n";

static cosrod_sim *make(char *text, size_t n, const char *g, const char *motion, const char *v, const char *extra,
                        const char *tend, const char *const *sets, size_t nsets, cosrod_scenario **sc) {
  snprintf(text, n, FMT, g, motion, v, extra, tend);
  return sim_test_parse(text, "kinematic.yaml", sets, nsets, sc);
}

/* payload position at t (advance) */
static int payload_at(cosrod_sim *sim, double t, double x[3]) {
  cosrod_status st = cosrod_sim_advance(sim, t);
  if (st != COSROD_OK) {
    NOTE("advance: %s", cosrod_sim_message(sim));
    return -1;
  }
  double q[4];
  return cosrod_sim_body(sim, 1, x, q, NULL) == COSROD_OK ? 0 : -1;
}

/* base at constant velocity V, payload starting with V: the payload's motion
 * on the resting base, shifted by V t (both formulations) */
TEST(galilean_invariance_of_a_payload_on_a_moving_keyframe_body) {
  const char *forms[2] = {"solver.formulation=nullspace", "solver.formulation=absolute"};
  for (int f = 0; f < 2; ++f) { /* t_end 0.5, rtol 1e-9: the sanitizer build's time */
    const char *sets[3] = {forms[f], "solver.rtol=1e-9", "solver.atol=1e-10"};
    char a[4096], b[4096];
    cosrod_scenario *sa, *sb;
    cosrod_sim *ma = make(a, sizeof a, "0, 0, -9.81", "position: [[0, 0, 0, 0.1], [2, 0.4, -0.2, 0.3]]",
                          "0.2, -0.1, 0.1", ", stiffness_rot: 2, damping_rot: 0.02", "0.5", sets, 3, &sa);
    cosrod_sim *mb = make(b, sizeof b, "0, 0, -9.81", "position: [[0, 0, 0, 0.1], [2, 0, 0, 0.1]]", "0, 0, 0",
                          ", stiffness_rot: 2, damping_rot: 0.02", "0.5", sets, 3, &sb);
    CHECK("created", ma && mb);
    if (ma && mb) {
      double e = 0.0, sag = 0.0, V[3] = {0.2, -0.1, 0.1};
      for (int k = 1; k <= 4; ++k) {
        double t = 0.125 * k, xa[3], xb[3];
        CHECK("moving", payload_at(ma, t, xa) == 0);
        CHECK("resting", payload_at(mb, t, xb) == 0);
        for (int i = 0; i < 3; ++i) e = fmax(e, fabs(xa[i] - V[i] * t - xb[i]));
        sag = fmax(sag, fabs(xb[2] - 0.1));
      }
      NOTE("%s: max |x_moving - V t - x_resting| = %.3g m (payload sag %.4g m)", forms[f] + 19, e, sag);
      CHECK("the payload moves", sag > 1e-2);
      CHECK_LE("Galilean invariance (rtol 1e-9)", e, 1e-7);
    }
    cosrod_sim_free(ma), cosrod_sim_free(mb);
    cosrod_scenario_free(sa), cosrod_scenario_free(sb);
  }
}

/* base ramp z_b = 0.1 + 0.1 t on [0, 0.5], held after (linear keyframes: a
 * velocity jump at the kink): m z'' = -k (z - z_b) - c (z' - z_b'), RK4 */
static double rk4_ramp(double T) {
  const double m = 2.0, k = 50.0, c = 0.8, h = 1e-4;
  double z = 0.1, v = 0.0;
  int n = (int)lround(T / h), nk = (int)lround(0.5 / h); /* the kink is a step boundary */
  for (int i = 0; i < n; ++i) {
    const double t = i * h, vb = i < nk ? 0.1 : 0.0; /* the step's piece of z_b */
#define ACC(tt, zz, vv) ((-k * ((zz) - (i < nk ? 0.1 + 0.1 * (tt) : 0.15)) - c * ((vv) - vb)) / m)
    double k1z = v, k1v = ACC(t, z, v);
    double k2z = v + 0.5 * h * k1v, k2v = ACC(t + 0.5 * h, z + 0.5 * h * k1z, v + 0.5 * h * k1v);
    double k3z = v + 0.5 * h * k2v, k3v = ACC(t + 0.5 * h, z + 0.5 * h * k2z, v + 0.5 * h * k2v);
    double k4z = v + h * k3v, k4v = ACC(t + h, z + h * k3z, v + h * k3v);
#undef ACC
    z += h / 6.0 * (k1z + 2 * k2z + 2 * k3z + k4z);
    v += h / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return z;
}

TEST(payload_on_a_ramped_keyframe_body_matches_1dof_ode) {
  char a[4096];
  cosrod_scenario *sc;
  const char *sets[1] = {"solver.formulation=absolute"};
  for (int f = 0; f < 2; ++f) {
    cosrod_sim *s = make(a, sizeof a, "0, 0, 0", "position: [[0, 0, 0, 0.1], [0.5, 0, 0, 0.15]]", "0, 0, 0", "", "2",
                         sets, (size_t)f, &sc);
    CHECK("created", s != NULL);
    if (s) {
      double e = 0.0;
      for (int k = 1; k <= 4; ++k) {
        double x[3], t = 0.5 * k, zr = rk4_ramp(t);
        CHECK("advance", payload_at(s, t, x) == 0);
        e = fmax(e, fabs(x[2] - zr));
        if (k == 4) NOTE("%s: z(2) = %.12g, RK4 of the 1-DOF ODE %.12g", f ? "absolute" : "nullspace", x[2], zr);
      }
      NOTE("max |z - z_ode| = %.3g m", e);
      CHECK_LE("matches the 1-DOF ODE", e, 1e-8);
    }
    cosrod_sim_free(s);
    cosrod_scenario_free(sc);
  }
}

/* Run scenario text a (file name) with overrides and check energy.csv's
 * balance: external work done, the balance constant to 1e-6 of the energy. */
static void balance_holds(const char *a, const char *name, const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_status st;
  sim_test_bal c = {0};
  cosrod_sim_observer obs = {sim_test_on_bal, NULL, &c, NULL, NULL};
  cosrod_sim *s = sim_test_run(a, name, sets, nsets, &obs, &sc, &st);
  NOTE("balance drift %.3g J over %ld frames, energy scale %.4g J, external work %.4g J", c.drift, c.n, c.scale, c.W);
  CHECK("external work done", fabs(c.W) > 1e-3 * c.scale);
  CHECK_LE("balance constant", c.drift, 1e-6 * c.scale);
  cosrod_sim_free(s);
  cosrod_scenario_free(sc);
}

/* a turntable: the base spins about z (slerp keyframes at constant rate),
 * the payload on a translational and rotational bushing; the balance of
 * energy.csv (external work: the hose's end and the bushing's driven side) */
TEST(energy_balance_payload_on_a_turntable) {
  char a[4096];
  const char *motion = "orientation: [[0, 1, 0, 0, 0], [0.5, 0.9238795325112867, 0, 0, 0.3826834323650898], "
                       "[1.0, 0.7071067811865476, 0, 0, 0.7071067811865476]]";
  snprintf(a, sizeof a, FMT, "0, 0, -9.81", motion, "0, 0, 0", ", stiffness_rot: 2, damping_rot: 0.02", "1");
  const char *sets[1] = {"solver.rtol=1e-10"};
  balance_holds(a, "turntable.yaml", sets, 1);
}

/* modes with a payload on a bushing (k = 50, k_rot = 2) of a keyframe body:
 * the payload's six modes sqrt(k_rot / I_i) and sqrt(k / m) (x3), closed form */
TEST(modes_of_a_payload_on_a_bushing_of_a_keyframe_body) {
  char a[4096];
  cosrod_scenario *sc;
  const char *motion = "position: [[0, 0, 0, 0.1], [1, 0.2, 0.1, 0.3]]";
  snprintf(a, sizeof a, FMT, "0, 0, -9.81", motion, "0, 0, 0", ", stiffness_rot: 2", "1");
  const char *sets[1] = {"analysis={type: modes, count: 6}"};
  cosrod_status st;
  cosrod_sim *s = sim_test_run(a, "modes.yaml", sets, 1, NULL, &sc, &st);
  if (s && st == COSROD_OK) {
    const double want[6] = {sqrt(2.0 / 0.2), sqrt(2.0 / 0.15), sqrt(2.0 / 0.1), 5.0, 5.0, 5.0};
    CHECK("six modes", cosrod_sim_nmodes(s) >= 6);
    double e = 0.0;
    for (int i = 0; i < 6 && i < cosrod_sim_nmodes(s); ++i) {
      double om, f;
      const double *sh;
      cosrod_sim_mode(s, i, &om, &f, &sh);
      e = fmax(e, fabs(om - want[i]) / want[i]);
    }
    NOTE("payload modes vs sqrt(k_rot / I), sqrt(k / m): max relative error %.3g", e);
    CHECK_LE("closed form", e, 1e-8);
  }
  cosrod_sim_free(s);
  cosrod_scenario_free(sc);
}

/* a pendulum (2 kg, CM 0.4 m from the pivot, turned 0.5 rad about x) on a
 * revolute hinge about x at the keyframe body's point (0, 0.3, 0); %s: base
 * motion, %s: velocity, %s: solver overrides */
static const char *JFMT =
    HOSE("0, 0, -9.81")
    "    position: [0, 0, 0.1]\n"
    "    motion: {%s}\n"
    "  - {name: bob, mass: 2, inertia: [0.02, 0.03, 0.01], position: [0, 0.4917702154416812, -0.2510330247561491],\n"
    "     orientation: {quaternion: [0.9689124217106447, 0.24740395925452294, 0, 0]}, velocity: [%s]}\n"
    "joints:\n"
    "  - {type: revolute, bodies: [base, bob], at: [[0, 0.3, 0], [0, 0, 0.4]], axis: [1, 0, 0]}\n"
    "analysis: {type: dynamic, t_end: 2}\n"
    "solver: {formulation: absolute, %s}\n"
    "output: {every: 0.05}\n";

static cosrod_sim *jmake(char *text, size_t n, const char *motion, const char *v, const char *solver,
                         cosrod_scenario **sc) {
  snprintf(text, n, JFMT, motion, v, solver);
  return sim_test_parse(text, "hinge.yaml", NULL, 0, sc);
}

/* hinged to a base at constant velocity vs a resting base (dop853), and
 * the generalized-α integrator on the moving base */
TEST(galilean_invariance_of_a_pendulum_hinged_to_a_keyframe_body) {
  char a[4096], b[4096], c[4096];
  cosrod_scenario *sa, *sb, *sg;
  const char *mv = "position: [[0, 0, 0, 0.1], [2, 0.4, -0.2, 0.3]]", *rest = "position: [[0, 0, 0, 0.1], [2, 0, 0, 0.1]]";
  const char *ref = "integrator: dop853, rtol: 1.0e-11, atol: 1.0e-12";
  cosrod_sim *ma = jmake(a, sizeof a, mv, "0.2, -0.1, 0.1", ref, &sa);
  cosrod_sim *mb = jmake(b, sizeof b, rest, "0, 0, 0", ref, &sb);
  cosrod_sim *mg = jmake(c, sizeof c, mv, "0.2, -0.1, 0.1", "integrator: galpha, h: 5.0e-4, rtol: 1.0e-10, atol: 1.0e-11", &sg);
  CHECK("created", ma && mb && mg);
  if (ma && mb && mg) {
    double e = 0.0, eg = 0.0, sw = 0.0, V[3] = {0.2, -0.1, 0.1};
    for (int k = 1; k <= 4; ++k) {
      double t = 0.25 * k, xa[3], xb[3], xg[3];
      CHECK("moving", payload_at(ma, t, xa) == 0);
      CHECK("resting", payload_at(mb, t, xb) == 0);
      CHECK("galpha", payload_at(mg, t, xg) == 0);
      for (int i = 0; i < 3; ++i) e = fmax(e, fabs(xa[i] - V[i] * t - xb[i])), eg = fmax(eg, fabs(xg[i] - xa[i]));
      sw = fmax(sw, fabs(xb[1] - 0.4917702154416812));
    }
    NOTE("max |x_moving - V t - x_resting| = %.3g m, galpha (h = 5e-4) vs dop853 %.3g m (swing %.3g m)", e, eg, sw);
    CHECK("the bob swings", sw > 1e-2);
    CHECK_LE("Galilean invariance", e, 1e-8);
    CHECK_LE("galpha agrees (second order, h = 5e-4)", eg, 1e-4);
  }
  cosrod_sim_free(ma), cosrod_sim_free(mb), cosrod_sim_free(mg);
  cosrod_scenario_free(sa), cosrod_scenario_free(sb), cosrod_scenario_free(sg);
}

/* the hinge on a turntable (slerp keyframes about z): energy.csv's balance
 * (external work: the hose's end and the hinge's constraint power) */
TEST(energy_balance_pendulum_hinged_to_a_turntable) {
  char a[4096];
  /* constant rate beyond t_end: no velocity jump of the hinge in the run (a
   * jump gives an impulsive reaction, the projection's velocity change,
   * outside the balance; the last keyframe holds the pose) */
  const char *motion = "orientation: [[0, 1, 0, 0, 0], [0.5, 0.9238795325112867, 0, 0, 0.3826834323650898], "
                       "[1.0, 0.7071067811865476, 0, 0, 0.7071067811865476], "
                       "[1.5, 0.3826834323650898, 0, 0, 0.9238795325112867], [2.0, 0, 0, 0, 1], "
                       "[2.5, -0.3826834323650898, 0, 0, 0.9238795325112867]]";
  snprintf(a, sizeof a, JFMT, motion, "0, 0, 0", "integrator: dop853, rtol: 1.0e-10, atol: 1.0e-11");
  balance_holds(a, "hinge-turntable.yaml", NULL, 0);
}

/* still refused: a joint on a keyframe body in dynamic runs, a bushing with
 * no dynamic side */
static void refused(const char *set, const char *key, const char *sub) {
  char a[4096];
  snprintf(a, sizeof a, FMT, "0, 0, -9.81", "position: [[0, 0, 0, 0.1], [1, 0.1, 0, 0.1]]", "0, 0, 0", "", "1");
  sim_test_refused(a, "kin.yaml", set, key, sub);
}

TEST(refusals) {
  refused("joints.0={type: spherical, bodies: [base, payload], at: [[0.5, 0, 0], [0, 0, 0]]}", "joints.0", "needs solver.formulation: absolute");
  refused("joints.0.bodies=[base, ground]", "joints.0", "joins no dynamic body");
}

/* static analysis: the payload hangs m g / k below the bushing point of the
 * keyframe body at t = 1 (moved and turned 90 degrees about z), turned with
 * it (the rotational spring at rest); also as start_from_equilibrium */
TEST(static_payload_on_a_bushing_of_a_moved_keyframe_body) {
  char a[4096];
  cosrod_scenario *sc;
  const char *motion = "position: [[0, 0, 0, 0.1], [1, 0.2, 0.1, 0.3]], "
                       "orientation: [[0, 1, 0, 0, 0], [1, 0.7071067811865476, 0, 0, 0.7071067811865476]]";
  snprintf(a, sizeof a, FMT, "0, 0, -9.81", motion, "0, 0, 0", ", stiffness_rot: 2, damping_rot: 0.02", "1");
  const char *sets[2] = {"analysis={type: static, increments: 4}", "solver.integrator=radau5"};
  cosrod_status st;
  cosrod_sim *s = sim_test_run(a, "static.yaml", sets, 2, NULL, &sc, &st);
  if (s && st == COSROD_OK) {
    double x[3], q[4], want[3] = {0.2, 0.1 + 0.5, 0.3 - 2.0 * 9.81 / 50.0}, qw[4] = {0.7071067811865476, 0, 0,
                                                                                    0.7071067811865476};
    CHECK("payload pose", cosrod_sim_body(s, 1, x, q, NULL) == COSROD_OK);
    double e = 0.0, eq = 0.0;
    for (int i = 0; i < 3; ++i) e = fmax(e, fabs(x[i] - want[i]));
    for (int i = 0; i < 4; ++i) eq = fmax(eq, fabs(fabs(q[i]) - qw[i]));
    NOTE("payload at (%.15g, %.15g, %.15g): error %.3g m, orientation error %.3g", x[0], x[1], x[2], e, eq);
    CHECK_LE("hangs m g / k below the moved bushing point", e, 1e-9);
    CHECK_LE("turned with the keyframe body", eq, 1e-9);
  }
  cosrod_sim_free(s);
  cosrod_scenario_free(sc);
  /* start_from_equilibrium at t = 0: then at rest (no motion until the keyframes move: held base) */
  snprintf(a, sizeof a, FMT, "0, 0, -9.81", "position: [[0, 0, 0, 0.1], [1, 0, 0, 0.1]]", "0, 0, 0",
           ", stiffness_rot: 2, damping_rot: 0.02", "0.5");
  const char *sets2[1] = {"analysis.start_from_equilibrium=true"};
  s = sim_test_parse(a, "sfe.yaml", sets2, 1, &sc);
  if (s) {
    double x[3];
    CHECK("advance", payload_at(s, 0.5, x) == 0);
    double e = fmax(fabs(x[0] - 0.5), fmax(fabs(x[1]), fabs(x[2] - (0.1 - 2.0 * 9.81 / 50.0))));
    NOTE("start_from_equilibrium: payload at (%.15g, %.15g, %.15g) at t = 0.5, error %.3g m", x[0], x[1], x[2], e);
    CHECK_LE("stays at the equilibrium", e, 1e-8);
  }
  cosrod_sim_free(s);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(modes_of_a_payload_on_a_bushing_of_a_keyframe_body),
    TH_CASE(galilean_invariance_of_a_pendulum_hinged_to_a_keyframe_body),
    TH_CASE(energy_balance_pendulum_hinged_to_a_turntable),
    TH_CASE(static_payload_on_a_bushing_of_a_moved_keyframe_body),
    TH_CASE(galilean_invariance_of_a_payload_on_a_moving_keyframe_body),
    TH_CASE(payload_on_a_ramped_keyframe_body_matches_1dof_ode),
    TH_CASE(energy_balance_payload_on_a_turntable),
    TH_CASE(refusals),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
