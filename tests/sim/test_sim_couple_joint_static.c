// SPDX-License-Identifier: Apache-2.0
/* Joints between rigid bodies in static analyses and start_from_equilibrium
 * (sim_couple_joint_static.c) against closed forms: two bodies on a
 * spherical joint hanging from a rod (rod top reaction = total weight, joint
 * reaction = the lower body's weight, the rod's elongation, the lower body
 * straight below the joint), a revolute-jointed body below a rod whose
 * offset centre of mass turns it about the hinge axis until it hangs
 * straight below the hinge, and a dynamic run started from the equilibrium
 * that stays at rest. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81;

/* Steel rod (L = 1 m, r = 2 mm) clamped at the origin hanging down, its
 * lower end clamped to body `upper` (4 kg) 5 cm above its centre; body
 * `lower` (6 kg) hangs from `upper` on a spherical joint 10 cm below
 * upper's centre and 10 cm above its own. */
static const char *PAIR =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 10\n"
    "    material: {E: 2.0e11, poisson: 0.3, density: 7800}\n"
    "    section: {shape: circle, radius: 2.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: upper, at: [0, 0, 0.05]}\n"
    "bodies:\n"
    "  - {name: upper, mass: 4.0, inertia: [0.02, 0.02, 0.01], position: [0, 0, -1.05]}\n"
    "  - {name: lower, mass: 6.0, inertia: [0.03, 0.03, 0.02], position: [0, 0, -1.25]}\n"
    "joints:\n"
    "  - {type: spherical, bodies: [upper, lower], at: [[0, 0, -0.1], [0, 0, 0.1]]}\n"
    "analysis: {type: static}\n"
    "output: {every: 0.5}\n";

static void pair_static(const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(PAIR, "pair.yaml", sets, nsets, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  double CG[3], rhoA, R[12], x1[3], q1[4], x2[3], q2[4], RJ[6];
  cosrod_rod_constants(rod, CG, NULL, NULL, NULL, &rhoA, NULL);
  const double EA = CG[2], m1 = 4.0, m2 = 6.0, L = 1.0;
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, NULL) == COSROD_OK);
  CHECK("upper pose", cosrod_sim_body(sim, 0, x1, q1, NULL) == COSROD_OK);
  CHECK("lower pose", cosrod_sim_body(sim, 1, x2, q2, NULL) == COSROD_OK);
  CHECK("one joint", cosrod_sim_njoints(sim) == 1);
  CHECK("joint reactions", cosrod_sim_joint_reactions(sim, RJ) == COSROD_OK);
  const double want = (m1 + m2 + rhoA * L) * G, dl = ((m1 + m2) * G * L + rhoA * G * L * L / 2.0) / EA;
  NOTE("top reaction Fz = %.12g N, (m1 + m2 + m_rod) g = %.12g N", R[2], want);
  NOTE("joint reaction on upper (%.6g, %.6g, %.12g) N, -m2 g = %.12g N", RJ[0], RJ[1], RJ[2], -m2 * G);
  NOTE("upper drop %.9e m, elongation %.9e m; lower at (%.3g, %.3g, %.12g)", -1.05 - x1[2], dl, x2[0], x2[1], x2[2]);
  /* the Newton tolerance 1e-9 of the force scale */
  CHECK_NEAR("top reaction = total weight", R[2], want, 1e-8 * want);
  CHECK_NEAR("joint pulls upper down by lower's weight", RJ[2], -m2 * G, 1e-8 * want);
  CHECK_NEAR("no horizontal joint force", hypot(RJ[0], RJ[1]), 0.0, 1e-8 * want);
  CHECK_NEAR("upper drops by the rod's elongation", -1.05 - x1[2], dl, 1e-6 * dl);
  /* the joint holds: lower's centre 0.2 m below upper's (both upright) */
  CHECK_NEAR("lower below upper", x2[2] - x1[2], -0.2, 1e-12);
  CHECK_NEAR("lower x", x2[0], 0.0, 1e-12);
  CHECK_NEAR("lower y", x2[1], 0.0, 1e-12);
  CHECK_NEAR("lower upright", fabs(q2[0]), 1.0, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(static_spherical_pair_below_rod) { pair_static(NULL, 0); }
/* the same with a revolute joint (hinge axis y): nothing turns */
TEST(static_revolute_pair_below_rod) {
  pair_static((const char *const[]){"joints.0.type=revolute", "joints.0.axis=[0, 1, 0]"}, 2);
}

/* Body `lower` (2 kg) on a revolute hinge (axis y) below `upper`, starting
 * with its centre 0.1 m from the hinge, 45 degrees out along x: gravity turns
 * it about the hinge by 45 degrees until the centre hangs straight below it,
 * and nothing else turns (the hinge passes no moment about y; the weight
 * line passes through the rod's axis). */
static const char *SWING =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 0.5\n"
    "    segments: 6\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: upper, at: [0, 0, 0.1]}\n"
    "bodies:\n"
    "  - {name: upper, mass: 1.0, inertia: [0.01, 0.01, 0.005], position: [0, 0, -0.6]}\n"
    "  - {name: lower, mass: 2.0, inertia: [0.004, 0.006, 0.005], position: [0.07071067811865475, 0, "
    "-0.77071067811865475]}\n"
    "joints:\n"
    "  - {type: revolute, bodies: [upper, lower], at: [[0, 0, -0.1], [-0.07071067811865475, 0, 0.07071067811865475]], "
    "axis: [0, 1, 0]}\n"
    "analysis: {type: static, increments: 10}\n"
    "output: {every: 0.5}\n";

TEST(static_revolute_body_swings_below_hinge) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(SWING, "swing.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double R[12], x1[3], q1[4], x2[3], q2[4], RJ[6];
  cosrod_sim_reactions(sim, 0, R, NULL);
  cosrod_sim_body(sim, 0, x1, q1, NULL);
  cosrod_sim_body(sim, 1, x2, q2, NULL);
  CHECK("joint reactions", cosrod_sim_joint_reactions(sim, RJ) == COSROD_OK);
  const double rhoA = 1100.0 * 3.14159265358979323846 * 25e-6, want = (3.0 + rhoA * 0.5) * G;
  /* rotation angle about y: q = (cos θ/2, 0, sin θ/2, 0), θ = 45 degrees */
  const double th = 2.0 * atan2(q2[2], q2[0]);
  NOTE("lower at (%.12g, %.3g, %.12g), upper at (%.3g, %.3g, %.12g); hinge angle %.12g rad; q = (%.6g %.6g %.6g %.6g)",
       x2[0], x2[1], x2[2], x1[0], x1[1], x1[2], th, q2[0], q2[1], q2[2], q2[3]);
  NOTE("top reaction Fz %.12g N (want %.12g); joint force on upper (%.3g, %.3g, %.12g) N (want -m2 g = %.12g)", R[2],
       want, RJ[0], RJ[1], RJ[2], -2.0 * G);
  CHECK_NEAR("top reaction = total weight", R[2], want, 1e-8 * want);
  CHECK_NEAR("joint force = lower's weight", RJ[2], -2.0 * G, 1e-8 * want);
  /* the weight line passes through the hinge: no moment about the joint point */
  CHECK_NEAR("no joint moment", hypot(hypot(RJ[3], RJ[4]), RJ[5]), 0.0, 1e-8 * want * 0.1);
  CHECK_NEAR("no horizontal top reaction", R[0], 0.0, 1e-8 * want);
  /* the centre straight below the hinge point x1 + (0, 0, -0.1), |ρ| down */
  const double rho = sqrt(2.0) * 0.07071067811865475;
  CHECK_NEAR("lower x below the hinge", x2[0], x1[0], 1e-9);
  CHECK_NEAR("lower z", x2[2], x1[2] - 0.1 - rho, 1e-9);
  CHECK_NEAR("lower y", x2[1], 0.0, 1e-12);
  CHECK_NEAR("turned 45 degrees about the hinge", th, 0.25 * 3.14159265358979323846, 1e-8);
  CHECK_NEAR("only about the hinge", hypot(q2[1], q2[3]), 0.0, 1e-9);
  CHECK_NEAR("upper does not turn", hypot(hypot(q1[1], q1[2]), q1[3]), 0.0, 1e-9);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* start_from_equilibrium with the hinged body of SWING (released from its
 * initial pose it would swing through ±45 degrees): it stays at rest. */
static void rest(const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(SWING, "swing.yaml", sets, nsets, &sc);
  if (!sim) return;
  sim_test_rest tr = {0};
  tr.body = 1;
  cosrod_sim_observer obs = {0};
  obs.frame = sim_test_rest_frame;
  obs.user = &tr;
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  NOTE("frames %d, lower at (%.12g, %.12g), max drift %.3e m, max kinetic %.3e J", tr.n, tr.x0[0], tr.x0[2], tr.dx,
       tr.ke);
  CHECK("frames written", tr.n >= 6);
  /* forces at equilibrium to 1e-9 of m g: drift ~1e-11 m in 0.3 s, as test_sim_couple_static's rest */
  CHECK("lower stays at rest (< 1e-8 m)", tr.dx < 1e-8);
  CHECK("no kinetic energy (< 1e-12 J)", tr.ke < 1e-12);
  CHECK_NEAR("starts hanging below the hinge (x)", tr.x0[0], 0.0, 1e-9);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(start_from_equilibrium_hinged_body_at_rest) {
  rest((const char *const[]){"analysis={type: dynamic, t_end: 0.3, start_from_equilibrium: true}",
                             "solver={formulation: nullspace, integrator: radau5, rtol: 1.0e-9, atol: 1.0e-10}",
                             "output={every: 0.05}"},
       3);
}

static const th_case cases[] = {
    TH_CASE(static_spherical_pair_below_rod),
    TH_CASE(static_revolute_pair_below_rod),
    TH_CASE(static_revolute_body_swings_below_hinge),
    TH_CASE(start_from_equilibrium_hinged_body_at_rest),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
