// SPDX-License-Identifier: Apache-2.0
/* Static and modal analyses and start_from_equilibrium with rods attached
 * to rigid bodies (sim_couple_static.c) against closed forms: a body
 * hanging on a vertical rod (elongation and top reaction), a body on a
 * horizontal cantilever (Euler-Bernoulli + shear tip deflection and slope
 * under the end load m g and the moment of its offset, second order in N),
 * the axial frequency of a heavy body on a light rod (fixed-mass rod,
 * beta tan beta = m_rod / m_b), the lateral pendulum frequency of a body on a
 * pinned cable (sqrt(g / l) with l from the static equilibrium) and a
 * dynamic run started from the equilibrium that stays at rest. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81;

static const char *HANG = SIM_TEST_HANG;

static void hanging_static(const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(HANG, "hang.yaml", sets, nsets, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  double CG[3], rhoA, R[12], x[3], q[4];
  cosrod_rod_constants(rod, CG, NULL, NULL, NULL, &rhoA, NULL);
  const double EA = CG[2]; /* (GA1, GA2, EA) */
  int sup[2];
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, sup) == COSROD_OK);
  CHECK("body pose", cosrod_sim_body(sim, 0, x, q, NULL) == COSROD_OK);
  /* tension T(s) = m_b g + rhoA g (L - s): elongation (m_b g L + rhoA g L²/2) / EA;
   * the discrete sum over segments of T_k ds / EA with the lumped vertex
   * weights gives exactly this (the end vertex's half weight goes to the body) */
  const double mb = 10.0, L = 1.0, dl = (mb * G * L + rhoA * G * L * L / 2.0) / EA;
  const double want = (mb + rhoA * L) * G;
  NOTE("top reaction Fz = %.12g N, (m_b + m_rod) g = %.12g N", R[2], want);
  NOTE("body drop %.9e m, closed-form elongation %.9e m", -1.05 - x[2], dl);
  /* equilibrium to the statics tolerance 1e-9 of the force scale */
  CHECK_NEAR("top reaction = body + rod weight", R[2], want, 1e-8 * want);
  CHECK_NEAR("no horizontal reaction", R[0], 0.0, 1e-9 * want);
  /* the elongation from the strains is exact up to the Newton tolerance
   * (1e-9 of the forces) and O((T/EA)^2) = 2e-9 of geometric nonlinearity
   * in the stretch measure */
  CHECK_NEAR("body drops by the rod's elongation", -1.05 - x[2], dl, 1e-6 * dl);
  CHECK_NEAR("body x stays", x[0], 0.0, 1e-12);
  CHECK_NEAR("body keeps its orientation", fabs(q[0]), 1.0, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(static_hanging_body_clamped) { hanging_static(NULL, 0); }
/* pinned to the body 5 cm above its centre: it hangs straight below the pin */
TEST(static_hanging_body_pinned) { hanging_static((const char *const[]){"rods.0.ends.end.type=pinned"}, 1); }
/* a body driven by keyframes (here at rest) carries the rod's top end */
TEST(static_hanging_from_keyframe_body) {
  hanging_static((const char *const[]){"rods.0.ends.start={type: clamped, body: hook, at: [0, 0, 0]}",
                                       "bodies.1={name: hook, mass: 1, inertia: [1, 1, 1], position: [0, 0, 0], "
                                       "motion: {position: [[0, 0, 0, 0], [1, 0, 0, 0]]}}"},
                 2);
}

/* A ramped horizontal force F = m g / 2 on a 1 kg body clamped to the end
 * of a light limp cable (rhoA 1e-4 kg/m, EI 1e-3 N m²) pinned at the
 * origin: the cable leans at tan φ = F / (m g) with the tension
 * T = sqrt(F² + (m g)²) stretching it to l = L (1 + T / EA). */
static const char *LEAN =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: cable\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    stiffness: {EA: 1.0e4, GA1: 4.0e3, GA2: 4.0e3, EI1: 1.0e-3, EI2: 1.0e-3, GJ: 1.0e-3}\n"
    "    inertia: {rhoA: 1.0e-4, rhoI1: 1.0e-12, rhoI2: 1.0e-12, rhoJ: 2.0e-12}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: pinned}\n"
    "      end: {type: clamped, body: bob, at: [0, 0, 0]}\n"
    "bodies:\n"
    "  - {name: bob, mass: 1.0, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [0, 0, -1],\n"
    "     loads: [{type: force, value: [4.905, 0, 0], ramp: [0, 1]}]}\n"
    "analysis: {type: static}\n";

TEST(static_body_load_leans_the_cable) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(LEAN, "lean.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double x[3], q[4], R[12];
  cosrod_sim_body(sim, 0, x, q, NULL);
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, NULL) == COSROD_OK);
  const double F = 4.905, W = G, T = hypot(F, W), l = 1.0 + T / 1.0e4, phi = atan2(F, W), mc = 1.0e-4;
  const double tilt = 2.0 * asin(sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]));
  NOTE("body at (%.9g, %.9g, %.9g), closed form (%.9g, 0, %.9g); tilt %.9g rad (phi %.9g); top reaction (%.9g, %.3g, "
       "%.9g)",
       x[0], x[1], x[2], l * sin(phi), -l * cos(phi), tilt, phi, R[0], R[1], R[2]);
  /* global balance to the Newton tolerance: the pin holds F and all weight */
  CHECK_NEAR("top reaction x = -F", R[0], -F, 1e-8 * T);
  CHECK_NEAR("top reaction z = (m + m_cable) g", R[2], (1.0 + mc) * G, 1e-8 * T);
  /* the cable's weight (m_c / m = 1e-4) sags it, its bending stiffness
   * (EI / (T L²) = 1e-4) rounds the clamped end: 2e-4 of l */
  CHECK_NEAR("body x", x[0], l * sin(phi), 2e-4 * l);
  CHECK_NEAR("body z", x[2], -l * cos(phi), 2e-4 * l);
  CHECK_NEAR("body y", x[1], 0.0, 1e-12);
  CHECK_NEAR("the body turns with the cable end", tilt, phi, 2e-3 * phi);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* A rubber rod (L = 1 m) hanging from a keyframe-driven hook that moves by
 * (0.3, 0, 0.2) m over the pseudo-time, against the same rod with a
 * prescribed start end on the same keyframes: the same equilibria. */
static const char *CARRIED =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 12\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: hook, at: [0, 0, 0]}\n"
    "      end: {type: free}\n"
    "bodies:\n"
    "  - {name: hook, position: [0, 0, 0], motion: {position: [[0, 0, 0, 0], [1, 0.3, 0, 0.2]]}}\n"
    "analysis: {type: static, increments: 10}\n";

static void tip_at_end(const char *const *sets, size_t nsets, double tip[3]) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(CARRIED, "carried.yaml", sets, nsets, &sc);
  tip[0] = tip[1] = tip[2] = NAN;
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  for (int k = 0; k < 3; ++k) tip[k] = d->x[3 * d->N + k];
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(static_rod_carried_by_keyframe_body) {
  double a[3], b[3];
  tip_at_end(NULL, 0, a);
  tip_at_end((const char *const[]){"bodies=[]", "rods.0.ends.start={type: prescribed, position: [[0, 0, 0, 0], [1, 0.3, 0, 0.2]]}"},
             2, b);
  NOTE("tip at t = 1: carried (%.12g, %.12g, %.12g), prescribed (%.12g, %.12g, %.12g)", a[0], a[1], a[2], b[0], b[1],
       b[2]);
  /* the hook has moved the rod (not left at its t = 0 pose) */
  CHECK_NEAR("moved with the hook (x)", a[0], 0.3, 1e-9);
  /* the same equilibrium to the Newton tolerance */
  for (int k = 0; k < 3; ++k) CHECK_NEAR("same tip as the prescribed end", a[k], b[k], 1e-9);
}

/* A chain: rod 1 clamped at the origin -> body 1 -> rod 2 -> body 2
 * (steel rods of 1 m, r = 2 mm; bodies 5 kg and 10 kg, attachments 5 cm
 * above / below their centres).  Body 1 sits between the rods' blocks. */
static const char *CHAIN =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  steel: {E: 2.0e11, poisson: 0.3, density: 7800}\n"
    "rods:\n"
    "  - name: upper\n"
    "    length: 1.0\n"
    "    segments: 10\n"
    "    material: steel\n"
    "    section: {shape: circle, radius: 2.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: b1, at: [0, 0, 0.05]}\n"
    "  - name: lower\n"
    "    length: 1.0\n"
    "    segments: 10\n"
    "    material: steel\n"
    "    section: {shape: circle, radius: 2.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, -1.1], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: b1, at: [0, 0, -0.05]}\n"
    "      end: {type: pinned, body: b2, at: [0, 0, 0.05]}\n"
    "bodies:\n"
    "  - {name: b1, mass: 5.0, inertia: [0.01, 0.01, 0.01], position: [0, 0, -1.05]}\n"
    "  - {name: b2, mass: 10.0, inertia: [0.02, 0.02, 0.01], position: [0, 0, -2.15]}\n"
    "analysis: {type: static}\n";

TEST(static_chain_rod_body_rod_body) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(CHAIN, "chain.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double CG[3], rhoA, R[12], x1[3], x2[3];
  cosrod_rod_constants(cosrod_sim_rod(sim, 0), CG, NULL, NULL, NULL, &rhoA, NULL);
  const double EA = CG[2], m1 = 5.0, m2 = 10.0, L = 1.0, mr = rhoA * L;
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, NULL) == COSROD_OK);
  cosrod_sim_body(sim, 0, x1, NULL, NULL);
  cosrod_sim_body(sim, 1, x2, NULL, NULL);
  /* elongations (T_bottom L + rhoA g L²/2) / EA with T_bottom = the weight below */
  const double d1 = ((m1 + m2 + mr) * G * L + rhoA * G * L * L / 2) / EA, d2 = (m2 * G * L + rhoA * G * L * L / 2) / EA;
  const double want = (m1 + m2 + 2 * mr) * G;
  NOTE("top reaction %.12g N (want %.12g); drops %.9e, %.9e m (want %.9e, %.9e)", R[2], want, -1.05 - x1[2],
       -2.15 - x2[2], d1, d1 + d2);
  CHECK_NEAR("top reaction = all weights", R[2], want, 1e-8 * want);
  CHECK_NEAR("body 1 drops by the upper rod's elongation", -1.05 - x1[2], d1, 1e-6 * d1);
  CHECK_NEAR("body 2 drops by both elongations", -2.15 - x2[2], d1 + d2, 1e-6 * (d1 + d2));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* A body on a light vertical rod (EA = 1e5 N, rhoA 1e-9 kg/m) and on a
 * bushing spring to the ground point at its initial centre (k = 5e4 N/m):
 * two springs in parallel, the body sinks by m g / (EA / L + k). */
static const char *BUSH =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 8\n"
    "    stiffness: {EA: 1.0e5, GA1: 4.0e4, GA2: 4.0e4, EI1: 1.0, EI2: 1.0, GJ: 0.8}\n"
    "    inertia: {rhoA: 1.0e-9, rhoI1: 1.0e-15, rhoI2: 1.0e-15, rhoJ: 2.0e-15}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: bob, at: [0, 0, 0.1]}\n"
    "bodies:\n"
    "  - {name: bob, mass: 50.0, inertia: [0.5, 0.5, 0.2], position: [0, 0, -1.1]}\n"
    "joints:\n"
    "  - {type: bushing, bodies: [bob, ground], at: [[0, 0, 0], [0, 0, -1.1]], stiffness: 5.0e4, stiffness_rot: 10.0}\n"
    "analysis: {type: static}\n";

TEST(static_body_on_rod_and_bushing) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(BUSH, "bushing.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double x[3], q[4], R[12];
  cosrod_sim_body(sim, 0, x, q, NULL);
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, NULL) == COSROD_OK);
  const double m = 50.0, kr = 1.0e5, kb = 5.0e4, dz = m * G / (kr + kb);
  NOTE("body sinks %.12e m, m g / (EA/L + k) = %.12e m; rod top reaction %.9g N (k_rod share %.9g N)", -1.1 - x[2],
       dz, R[2], kr * dz);
  /* linear springs: exact up to the Newton tolerance and the rod's weight (1e-9 kg) */
  CHECK_NEAR("parallel springs", -1.1 - x[2], dz, 1e-7 * dz);
  CHECK_NEAR("the rod carries its stiffness' share", R[2], kr * dz, 1e-7 * m * G);
  CHECK_NEAR("no rotation", fabs(q[0]), 1.0, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Horizontal cantilever (L = 1 m) clamped at the origin, a body of mass m
 * clamped to its tip at the body point a = (-d, 0, 0) (the centre of mass d
 * beyond the tip); the rod's weight is made negligible (rhoA 1e-9 kg/m).
 * End load P = m g, end moment M = m g d: small-deflection tip deflection
 *   w = P L³/(3 EI) + M L²/(2 EI) + P L / GA,   slope θ = P L²/(2 EI) + M L / EI. */
static const char *CANT =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: beam\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    stiffness: {EA: 1.0e7, GA1: 4.0e6, GA2: 4.0e6, EI1: 100.0, EI2: 100.0, GJ: 80.0}\n"
    "    inertia: {rhoA: 1.0e-9, rhoI1: 1.0e-12, rhoI2: 1.0e-12, rhoJ: 2.0e-12}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: tipmass, at: [-0.1, 0, 0]}\n"
    "bodies:\n"
    "  - {name: tipmass, mass: 0.1, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [1.1, 0, 0]}\n"
    "analysis: {type: static}\n";

static double cantilever_error(int N, double *slope_err) {
  char seg[64];
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  const char *sets[] = {seg};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(CANT, "cantilever.yaml", sets, 1, &sc);
  if (!sim) return NAN;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const double m = 0.1, d = 0.1, L = 1.0, EI = 100.0, GA = 4.0e6, P = m * G, M = m * G * d;
  const double w = P * L * L * L / (3 * EI) + M * L * L / (2 * EI) + P * L / GA;
  const double th = P * L * L / (2 * EI) + M * L / EI;
  const cosrod_rod_data *dat = cosrod_sim_rod_data(sim, 0);
  double x[3], q[4];
  cosrod_sim_body(sim, 0, x, q, NULL);
  double tip = -dat->x[3 * N + 2];
  double rot = 2.0 * atan2(q[2], q[0]); /* rotation about +y (the body turns nose down: positive) */
  /* the body's centre: tip + R (d, 0, 0) */
  double body_drop = -x[2];
  NOTE("N = %d: tip deflection %.9e m (closed form %.9e), tip slope %.9e (closed form %.9e), body drop %.9e "
       "(tip + d sin(slope) %.9e)",
       N, tip, w, rot, th, body_drop, w + d * sin(th));
  CHECK_NEAR("body centre = tip + d sin(slope)", body_drop, tip + d * sin(rot), 1e-9);
  *slope_err = fabs(rot - th) / th;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return fabs(tip - w) / w;
}

TEST(static_cantilever_body_tip_load) {
  double s20, s40;
  double e20 = cantilever_error(20, &s20), e40 = cantilever_error(40, &s40);
  NOTE("relative errors: deflection %.3e (N = 20), %.3e (N = 40); slope %.3e, %.3e", e20, e40, s20, s40);
  /* small deflection (w / L = 4e-3): the geometric nonlinearity is
   * O((w/L)²) ~ 2e-5 relative; the discretisation error is second order in
   * N (lumped curvature at the vertices) */
  CHECK("deflection within 2e-3 (N = 20)", e20 < 2e-3);
  CHECK("deflection within 4e-4 (N = 40)", e40 < 4e-4);
  CHECK("second order in N (error ratio 3.5 .. 4.5)", e20 / e40 > 3.5 && e20 / e40 < 4.5);
  CHECK("slope within 1e-4 (N = 40)", s40 < 1e-4);
}

/* A light column (EI = 10 N m²) clamped at the ground, a 1 kg point-like
 * body clamped on its top: the body's weight is a dead end load, so the
 * critical load factor of gravity is the clamped-free Euler load
 * pi² EI / (4 L²) / (m g) (shear: P/GA ~ 6e-6 relative, negligible). */
static const char *COLUMN =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: column\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    stiffness: {EA: 1.0e7, GA1: 4.0e6, GA2: 4.0e6, EI1: 10.0, EI2: 10.0, GJ: 8.0}\n"
    "    inertia: {rhoA: 1.0e-9, rhoI1: 1.0e-12, rhoI2: 1.0e-12, rhoJ: 2.0e-12}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, 1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: top, at: [0, 0, 0]}\n"
    "bodies:\n"
    "  - {name: top, mass: 1.0, inertia: [1.0e-6, 1.0e-6, 1.0e-6], position: [0, 0, 1]}\n"
    "analysis: {type: buckling, count: 2}\n";

/* d > 0: the body's centre d above the tip (a rigid extension carrying the
 * load): the column w'' + k² w = k² (δ + d θ) with w(L) = δ, w'(L) = θ
 * buckles at k d tan(k L) = 1 (k² = P / EI), solved here by bisection. */
static double column_error(int N, double d) {
  char seg[64], pos[64], at[64];
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  snprintf(pos, sizeof pos, "bodies.0.position=[0, 0, %.17g]", 1.0 + d);
  snprintf(at, sizeof at, "rods.0.ends.end.at=[0, 0, %.17g]", -d);
  const char *sets[] = {seg, pos, at};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(COLUMN, "column.yaml", sets, 3, &sc);
  if (!sim) return NAN;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("buckling run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double want = 3.14159265358979323846 * 3.14159265358979323846 * 10.0 / 4.0 / G;
  if (d > 0.0) {
    double lo = 1e-9, hi = 0.5 * 3.14159265358979323846 - 1e-12; /* k L, L = 1 */
    for (int it = 0; it < 200; ++it) {
      double m = 0.5 * (lo + hi);
      if (m * d * tan(m) > 1.0)
        hi = m;
      else
        lo = m;
    }
    want = lo * lo * 10.0 / G;
  }
  double l1 = NAN, l2 = NAN;
  CHECK("two buckling modes", cosrod_sim_nmodes(sim) == 2);
  cosrod_sim_mode(sim, 0, &l1, NULL, NULL);
  cosrod_sim_mode(sim, 1, &l2, NULL, NULL);
  NOTE("N = %d, d = %g: critical factors %.10g, %.10g; closed form %.10g", N, d, l1, l2, want);
  CHECK_NEAR("the pair of a round column", l2, l1, 1e-6 * l1);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return fabs(l1 - want) / want;
}

TEST(buckling_column_with_body_on_top) {
  double e20 = column_error(20, 0.0), e40 = column_error(40, 0.0);
  NOTE("relative errors %.3e (N = 20), %.3e (N = 40)", e20, e40);
  /* second order in N (the rods' buckling tests: the same discretisation) */
  CHECK("within 1e-3 at N = 20", e20 < 1e-3);
  CHECK("within 2.5e-4 at N = 40", e40 < 2.5e-4);
  CHECK("second order (ratio 3.5 .. 4.5)", e20 / e40 > 3.5 && e20 / e40 < 4.5);
}

/* the body's centre 0.2 m above the tip: its rotation (a block unknown)
 * carries the load's lever arm */
TEST(buckling_column_with_body_above_tip) {
  double e20 = column_error(20, 0.2), e40 = column_error(40, 0.2);
  NOTE("relative errors %.3e (N = 20), %.3e (N = 40)", e20, e40);
  CHECK("within 3e-4 at N = 20", e20 < 3e-4);
  CHECK("within 8e-5 at N = 40", e40 < 8e-5);
  CHECK("second order (ratio 3.5 .. 4.5)", e20 / e40 > 3.5 && e20 / e40 < 4.5);
}

/* Heavy body (m_b = 2 kg) on a light vertical rod (m_rod = 2e-3 kg), no
 * gravity: the axial mode of a rod fixed at the top with an end mass,
 * beta tan beta = m_rod / m_b, omega = beta sqrt(EA / (m_rod L)) (~ sqrt(EA / (L m_b))). */
static const char *AXIAL =
    "cosrod: 1\n"
    "gravity: [0, 0, 0]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 40\n"
    "    stiffness: {EA: 1.0e5, GA1: 4.0e4, GA2: 4.0e4, EI1: 1.0, EI2: 1.0, GJ: 0.8}\n"
    "    inertia: {rhoA: 2.0e-3, rhoI1: 1.0e-9, rhoI2: 1.0e-9, rhoJ: 2.0e-9}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: mass, at: [0, 0, 0]}\n"
    "bodies:\n"
    "  - {name: mass, mass: 2.0, inertia: [0.01, 0.01, 0.01], position: [0, 0, -1]}\n"
    "analysis: {type: modes, count: 8}\n";

TEST(modes_axial_heavy_mass_on_light_rod) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(AXIAL, "axial.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("modes run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const double EA = 1.0e5, L = 1.0, mr = 2.0e-3, mb = 2.0, ratio = mr / mb;
  double beta = sqrt(ratio); /* Newton on beta tan beta = ratio */
  for (int it = 0; it < 50; ++it) {
    double f = beta * tan(beta) - ratio, df = tan(beta) + beta / (cos(beta) * cos(beta));
    beta -= f / df;
  }
  const double want = beta * sqrt(EA / (mr * L));
  double best = INFINITY, om_axial = NAN;
  for (int i = 0; i < cosrod_sim_nmodes(sim); ++i) {
    double om;
    cosrod_sim_mode(sim, i, &om, NULL, NULL);
    NOTE("mode %d: omega %.9g", i + 1, om);
    if (fabs(om - want) < best) best = fabs(om - want), om_axial = om;
  }
  NOTE("axial mode omega %.10g, closed form %.10g (sqrt(EA / (L m_b)) = %.10g)", om_axial, want, sqrt(EA / (L * mb)));
  /* the attached end vertex is massless (its rhoA ds/2 dropped: relative
   * shift ~ m_rod / (4 N m_b) = 6e-6), lumped masses O((beta/N)²) */
  CHECK_NEAR("axial frequency of the end mass", om_axial, want, 2e-5 * want);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* A point-like body (m = 1 kg, J = 1e-8 kg m²) clamped to the end of a light
 * limp cable (rhoA = 1e-4 kg/m, EI = 1e-6 N m²) pinned at the origin:
 * after the static stretch the lateral pendulum mode is sqrt(g / l) with l
 * the pin-to-centre distance (cable mass correction ~ m_c / (6 m) = 2e-5,
 * bending EI / (m g l²) = 1e-7). */
static const char *PEND =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: cable\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    stiffness: {EA: 1.0e4, GA1: 4.0e3, GA2: 4.0e3, EI1: 1.0e-6, EI2: 1.0e-6, GJ: 1.0e-6}\n"
    "    inertia: {rhoA: 1.0e-4, rhoI1: 1.0e-12, rhoI2: 1.0e-12, rhoJ: 2.0e-12}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: pinned}\n"
    "      end: {type: clamped, body: bob, at: [0, 0, 0]}\n"
    "bodies:\n"
    "  - {name: bob, mass: 1.0, inertia: [1.0e-8, 1.0e-8, 1.0e-8], position: [0, 0, -1]}\n"
    "analysis: {type: modes, count: 3}\n";

TEST(modes_pendulum_on_pinned_cable) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(PEND, "pendulum.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("modes run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double x[3];
  cosrod_sim_body(sim, 0, x, NULL, NULL);
  const double l = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), want = sqrt(G / l);
  NOTE("static: pin to centre %.12g m (stretch m g L / EA = %.3e)", l, G / 1.0e4);
  CHECK_NEAR("static stretch of the cable", l - 1.0, G / 1.0e4, 1e-3 * G / 1.0e4);
  int npend = 0, nzero = 0;
  for (int i = 0; i < cosrod_sim_nmodes(sim); ++i) {
    double om;
    cosrod_sim_mode(sim, i, &om, NULL, NULL);
    NOTE("mode %d: omega %.10g (sqrt(g / l) = %.10g)", i + 1, om, want);
    if (fabs(om) < 1e-3 * want) ++nzero; /* the free spin about the vertical through the pin */
    if (fabs(om - want) < 1e-4 * want) ++npend;
  }
  CHECK("one free spin about the vertical", nzero == 1);
  CHECK("two pendulum modes (x and y) within 1e-4 of sqrt(g / l)", npend == 2);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* start_from_equilibrium: the rubber rod of test_sim_couple's hanging body
 * (a free start drops the body by ~1.3 cm and oscillates) stays at rest. */
static const char *REST =
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
    "      end: {type: clamped, body: box, at: [0, 0, 0.1]}\n"
    "bodies:\n"
    "  - {name: box, mass: 1.0, inertia: [0.01, 0.01, 0.005], position: [0, 0, -0.6]}\n"
    "analysis: {type: dynamic, t_end: 0.3, start_from_equilibrium: true}\n"
    "solver: {formulation: nullspace, integrator: radau5, rtol: 1.0e-9, atol: 1.0e-10}\n"
    "output: {every: 0.05}\n";

typedef struct rest_track {
  double z0, dz, ke;
  int n;
} rest_track;

static int on_rest(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  rest_track *r = user;
  double x[3];
  cosrod_sim_body(sim, 0, x, NULL, NULL);
  if (r->n++ == 0) r->z0 = x[2];
  r->dz = fmax(r->dz, fabs(x[2] - r->z0));
  r->ke = fmax(r->ke, cosrod_sim_energy_now(sim).kinetic);
  return 0;
}

static void rest(const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(REST, "rest.yaml", sets, nsets, &sc);
  if (!sim) return;
  rest_track tr = {0};
  cosrod_sim_observer obs = {0};
  obs.frame = on_rest;
  obs.user = &tr;
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const double EA = 5.0e6 * 3.14159265358979323846 * 25e-6, rhoA = 1100.0 * 3.14159265358979323846 * 25e-6;
  const double drop = (G * 0.5 + rhoA * G * 0.25 / 2.0) / EA; /* (m_b g L + rhoA g L²/2) / EA */
  NOTE("frames %d, body z0 %.12g m, max |z - z0| %.3e m (free start: drop ~%.3e m), max kinetic %.3e J", tr.n,
       tr.z0, tr.dz, drop, tr.ke);
  CHECK("frames written", tr.n >= 6);
  /* the equilibrium is exact to the statics tolerance (forces 1e-9 of m g):
   * an acceleration ~1e-9 g moves the body ~1e-11 m in 0.3 s; the
   * integration error at rtol 1e-9 is of the same order */
  CHECK("body stays at rest (|dz| < 1e-8 m)", tr.dz < 1e-8);
  CHECK("no kinetic energy (< 1e-12 J)", tr.ke < 1e-12);
  /* it starts at the stretched equilibrium (exact discrete elongation, see
   * static_hanging_body_clamped), not at the unstretched shape */
  CHECK_NEAR("starts at the static equilibrium", -0.6 - tr.z0, drop, 1e-6 * drop);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(start_from_equilibrium_body_at_rest) { rest(NULL, 0); }
TEST(start_from_equilibrium_body_at_rest_absolute_directors) {
  rest((const char *const[]){"solver.formulation=absolute", "bodies.0.parametrisation=directors"}, 2);
}
TEST(start_from_equilibrium_body_at_rest_galpha) {
  rest((const char *const[]){"solver.integrator=galpha", "solver.h0=1.0e-3"}, 2);
}

static const th_case cases[] = {
    TH_CASE(static_hanging_body_clamped),
    TH_CASE(static_hanging_body_pinned),
    TH_CASE(static_hanging_from_keyframe_body),
    TH_CASE(static_body_load_leans_the_cable),
    TH_CASE(static_rod_carried_by_keyframe_body),
    TH_CASE(static_chain_rod_body_rod_body),
    TH_CASE(static_body_on_rod_and_bushing),
    TH_CASE(static_cantilever_body_tip_load),
    TH_CASE(buckling_column_with_body_on_top),
    TH_CASE(buckling_column_with_body_above_tip),
    TH_CASE(modes_axial_heavy_mass_on_light_rod),
    TH_CASE(modes_pendulum_on_pinned_cable),
    TH_CASE(start_from_equilibrium_body_at_rest),
    TH_CASE(start_from_equilibrium_body_at_rest_absolute_directors),
    TH_CASE(start_from_equilibrium_body_at_rest_galpha),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
