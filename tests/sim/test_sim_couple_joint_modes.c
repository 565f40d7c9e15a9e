// SPDX-License-Identifier: Apache-2.0
/* Modal and buckling analyses with joints between rigid bodies ([L] §5;
 * modes_system.c, modes_eig.c on the constraints'
 * null space) against closed forms and equivalent supports:
 *  - a compound pendulum: a body on a revolute hinge (or a ball joint) to
 *    ground, a light rod hanging from it: ω² = g Σ m d / I_axis of the
 *    rigid assembly (the rod counted as a rigid slender bar);
 *  - without gravity, the number of zero frequencies equals the degrees of
 *    freedom each joint type leaves the body (also a chain of two joints);
 *  - a cantilever clamped to a body that a fixed joint holds has the
 *    frequencies of the same cantilever clamped to ground (and the joint
 *    carries the weight in the equilibrium they start from);
 *  - buckling: a column standing on a foot hinged to ground (revolute at
 *    the column's base = a pinned end in the hinge plane), top pinned and
 *    sliding: Euler's π²EI/L², second order in N, and the factor of the
 *    same column pinned to ground (also on the non-symmetric path). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81, PI = 3.14159265358979323846;

/* Body `bob` (2 kg, inertia (0.01, 0.02, 0.015) kg m²) hinged to ground at
 * its point (0, 0, 0.3), the hinge at the origin, axis y; a light stiff rod
 * (rhoA 1e-4 kg/m, EI 0.01 N m², first bending mode ~3.5e3 rad/s) hangs
 * from bob's point (0, 0, -0.05), 0.1 m long, free lower end. */
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
    "analysis: {type: modes, count: 4}\n";

/* ω² of the rigid assembly about a horizontal axis through the hinge: the
 * body (centre d = 0.3 below, inertia Ib about its centre) and the rod as a
 * slender bar from 0.35 to 0.45 below (mass rhoA L, its section inertia
 * rhoI L about the same axis). */
static double pendulum_omega(double Ib) {
  const double m = 2.0, d = 0.3, rhoA = 1e-4, L = 0.1, zc = 0.4, mr = rhoA * L;
  const double I = Ib + m * d * d + mr * (L * L / 12.0 + zc * zc) + 1e-8 * L;
  return sqrt(G * (m * d + mr * zc) / I);
}

static cosrod_sim *run(const char *text, const char *name, const char *const *sets, size_t nsets,
                       cosrod_scenario **sc) {
  cosrod_sim *sim = sim_test_parse(text, name, sets, nsets, sc);
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

/* Tolerance 1e-6: the rod counted rigid (its flexibility enters through its
 * 1e-5 kg mass at (ω/3.5e3)² ~ 3e-6: < 1e-10 relative; its clamped vertex's
 * lumped mass moves with the body, modes_system.c block_mass), the
 * eigen-solve's roundoff eps ‖M⁻¹K‖ / ω² ~ 1e-7 (2.2e-10 measured). */
TEST(modes_revolute_compound_pendulum) {
  cosrod_scenario *sc;
  cosrod_sim *sim = run(PEND, "pendulum.yaml", NULL, 0, &sc);
  if (!sim) return;
  const double want = pendulum_omega(0.02);
  double om[4] = {0};
  for (int i = 0; i < cosrod_sim_nmodes(sim) && i < 4; ++i) cosrod_sim_mode(sim, i, om + i, NULL, NULL);
  NOTE("omega %.12g (closed form %.12g, rel. error %.2e), next %.6g, %.6g", om[0], want,
       fabs(om[0] - want) / want, om[1], om[2]);
  CHECK("at least two modes", cosrod_sim_nmodes(sim) >= 2);
  CHECK_NEAR("pendulum about the hinge", om[0], want, 1e-6 * want);
  CHECK("next: the rod's bending (> 1e3 rad/s)", om[1] > 1e3);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

#define BALL "joints=[{type: spherical, bodies: [bob, ground], at: [[0, 0, 0.3], [0, 0, 0]]}]"

/* A ball joint instead: the pendulum pair about x and y (I_xx = 0.01,
 * I_yy = 0.02) and one free spin about the vertical (ω = 0). */
TEST(modes_spherical_pendulum_pair_and_spin) {
  cosrod_scenario *sc;
  cosrod_sim *sim = run(PEND, "pendulum.yaml", (const char *const[]){BALL}, 1, &sc);
  if (!sim) return;
  const double wx = pendulum_omega(0.01), wy = pendulum_omega(0.02);
  double om[4] = {0};
  for (int i = 0; i < cosrod_sim_nmodes(sim) && i < 4; ++i) cosrod_sim_mode(sim, i, om + i, NULL, NULL);
  NOTE("omega %.6g, %.12g, %.12g, %.6g; closed forms 0, %.12g (y), %.12g (x)", om[0], om[1], om[2], om[3], wy,
       wx);
  CHECK("spin about the vertical: zero", fabs(om[0]) < 1e-2);
  CHECK_NEAR("pendulum about y", om[1], wy, 1e-6 * wy);
  CHECK_NEAR("pendulum about x", om[2], wx, 1e-6 * wx);
  CHECK("next: the rod's bending (> 1e3 rad/s)", om[3] > 1e3);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* No gravity: each joint type leaves the body its degrees of freedom as
 * zero frequencies ([L] Table 2: 6 minus the constraint rows); the rod's
 * lowest elastic mode is ~3.5e3 rad/s, a zero is |ω| < 1 rad/s (roundoff
 * sqrt(eps ‖M⁻¹K‖) ~ 1e-3). */
TEST(modes_zero_frequencies_are_the_joint_dofs) {
  static const struct {
    const char *type, *axes;
    int dof;
  } J[] = {{"spherical", "", 3},
           {"revolute", ", axis: [0, 1, 0]", 1},
           {"prismatic", ", axis: [0, 1, 0]", 1},
           {"cylindrical", ", axis: [0, 1, 0]", 2},
           {"universal", ", axis: [0, 1, 0], axis2: [1, 0, 0]", 2},
           {"planar", ", axis: [0, 1, 0]", 3},
           {"fixed", "", 0}};
  for (size_t k = 0; k < sizeof J / sizeof J[0]; ++k) {
    char joint[200];
    snprintf(joint, sizeof joint,
             "joints=[{type: %s, bodies: [bob, ground], at: [[0, 0, 0.3], [0, 0, 0]]%s}]", J[k].type,
             J[k].axes);
    const char *sets[3] = {"gravity=[0, 0, 0]", "analysis={type: modes, count: 6}", joint};
    cosrod_scenario *sc;
    cosrod_sim *sim = run(PEND, "pendulum.yaml", sets, 3, &sc);
    if (!sim) continue;
    int nzero = 0, n = cosrod_sim_nmodes(sim);
    double next = 0.0;
    for (int i = 0; i < n; ++i) {
      double om;
      cosrod_sim_mode(sim, i, &om, NULL, NULL);
      if (fabs(om) < 1.0)
        ++nzero;
      else if (next == 0.0)
        next = om;
    }
    NOTE("%s: %d zero frequencies (want %d) of %d modes, lowest elastic %.6g rad/s", J[k].type, nzero,
         J[k].dof, n, next);
    CHECK("zero frequencies = the joint's degrees of freedom", nzero == J[k].dof);
    CHECK("then the rod (> 1e3 rad/s)", next > 1e3);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

/* A chain of joints: PEND's hinged bob carrying body `lower` (1 kg) on a
 * ball joint 0.1 m below its centre.  Zero frequencies: the hinge's turn
 * and lower's three rotations without gravity (4); with gravity lower's
 * spin about the vertical (1), the rest swings. */
#define CHAIN                                                                                            \
  "bodies=[{name: bob, mass: 2.0, inertia: [0.01, 0.02, 0.015], position: [0, 0, -0.3]}, "               \
  "{name: lower, mass: 1.0, inertia: [0.01, 0.01, 0.01], position: [0, 0, -0.5]}]",                      \
      "joints=[{type: revolute, bodies: [bob, ground], at: [[0, 0, 0.3], [0, 0, 0]], axis: [0, 1, 0]}, " \
      "{type: spherical, bodies: [bob, lower], at: [[0, 0, -0.1], [0, 0, 0.1]]}]"

static int zero_frequencies(const char *const *sets, size_t nsets, double *next) {
  cosrod_scenario *sc;
  cosrod_sim *sim = run(PEND, "chain.yaml", sets, nsets, &sc);
  if (!sim) return -1;
  int nzero = 0;
  *next = 0.0;
  for (int i = 0; i < cosrod_sim_nmodes(sim); ++i) {
    double om;
    cosrod_sim_mode(sim, i, &om, NULL, NULL);
    if (fabs(om) < 1.0) /* roundoff sqrt(eps ‖M⁻¹K‖) ~ 1e-3 (as above) */
      ++nzero;
    else if (*next == 0.0)
      *next = om;
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return nzero;
}

TEST(modes_joint_chain_zero_frequencies) {
  double n0, n1;
  const int z0 = zero_frequencies(
      (const char *const[]){CHAIN, "gravity=[0, 0, 0]", "analysis={type: modes, count: 8}"}, 4, &n0);
  const int z1 = zero_frequencies((const char *const[]){CHAIN}, 2, &n1);
  NOTE("zero frequencies: %d without gravity (next %.6g rad/s), %d with gravity (next %.6g rad/s)", z0, n0,
       z1, n1);
  CHECK("four without gravity (the hinge, lower's rotations)", z0 == 4);
  CHECK("one with gravity (lower's spin)", z1 == 1);
  CHECK("then the pendulums (> 1 rad/s)", n1 > 1.0);
}

/* A rubber cantilever (L = 1 m, r = 5 mm, 20 segments) hanging from body
 * `base` that a fixed joint holds in place, or clamped to ground directly. */
static const char *CANT =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: base, at: [0, 0, -0.1]}\n"
    "      end: {type: free}\n"
    "bodies:\n"
    "  - {name: base, mass: 3.0, inertia: [0.02, 0.03, 0.04], position: [0, 0, 0.1]}\n"
    "joints:\n"
    "  - {type: fixed, bodies: [base, ground], at: [[0, 0, 0], [0, 0, 0.1]]}\n"
    "analysis: {type: modes, count: 8}\n";

/* The scenario `text` (with sets_a) against itself with the rod's start on
 * ground (sets_b: the start, no bodies, no joints, ...): the largest
 * relative difference of the first n values of cosrod_sim_mode (ω or the
 * critical factor). */
static double versus_ground_end(const char *text, const char *const *sets_a, size_t na,
                                const char *const *sets_b, size_t nb, int n) {
  cosrod_scenario *sa, *sb;
  cosrod_sim *a = run(text, "joint.yaml", sets_a, na, &sa);
  cosrod_sim *b = run(text, "ground.yaml", sets_b, nb, &sb);
  double worst = INFINITY;
  if (a && b) {
    CHECK("enough modes", cosrod_sim_nmodes(a) >= n && cosrod_sim_nmodes(b) >= n);
    worst = 0.0;
    for (int i = 0; i < n && i < cosrod_sim_nmodes(a) && i < cosrod_sim_nmodes(b); ++i) {
      double va, vb;
      cosrod_sim_mode(a, i, &va, NULL, NULL);
      cosrod_sim_mode(b, i, &vb, NULL, NULL);
      NOTE("mode %d: with the joint %.12g, rod end on ground %.12g", i + 1, va, vb);
      worst = fmax(worst, fabs(va - vb) / fabs(vb));
    }
    NOTE("largest relative difference %.3e", worst);
  }
  if (a) cosrod_sim_free(a), cosrod_scenario_free(sa);
  if (b) cosrod_sim_free(b), cosrod_scenario_free(sb);
  return worst;
}

#define GROUND(end) \
  (const char *const[]) { "rods.0.ends.start={type: " end "}", "bodies=[]", "joints=[]" }

/* The equilibrium the modes start from: the fixed joint (no axis: the rows
 * of cosrod_joint_rows about e_z, as body.c) carries the weight of body
 * and rod, no moment about its point straight above the rod (before the
 * shared row table the statics rows of a fixed joint without an axis were
 * NaN).  Tolerance: the Newton tolerance 1e-9 of the force scale. */
TEST(static_fixed_joint_holds_body_and_rod) {
  cosrod_scenario *sc;
  cosrod_sim *sim = run(CANT, "fixed.yaml",
                        (const char *const[]){"analysis={type: static}", "output={every: 0.5}"}, 2, &sc);
  if (!sim) return;
  double RJ[6], x[3], q[4];
  CHECK("joint reactions", cosrod_sim_joint_reactions(sim, RJ) == COSROD_OK);
  cosrod_sim_body(sim, 0, x, q, NULL);
  const double W = (3.0 + 1100.0 * 3.14159265358979323846 * 25e-6) * G;
  NOTE("joint force on base (%.3g, %.3g, %.12g) N, moment (%.3g, %.3g, %.3g) N m; weight %.12g N", RJ[0],
       RJ[1], RJ[2], RJ[3], RJ[4], RJ[5], W);
  CHECK_NEAR("joint carries body and rod", RJ[2], W, 1e-8 * W);
  CHECK_NEAR("no horizontal force, no moment", fmax(hypot(RJ[0], RJ[1]), hypot(hypot(RJ[3], RJ[4]), RJ[5])),
             0.0, 1e-8 * W);
  CHECK_NEAR("base stays", x[2], 0.1, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Agreement to 1e-7: the coupled stiffness is the central-difference twin
 * (O(h²) ~ 1e-10 relative), the clamped rod's the analytic one; the
 * eigen-solves' roundoff is below that. */
TEST(modes_fixed_joint_equals_clamped_end) {
  CHECK("fixed joint = clamped end (1e-7)", versus_ground_end(CANT, NULL, 0, GROUND("clamped"), 3, 8) < 1e-7);
}

/* A column (L = 1 m, EI = 10 N m², shear and extension 1e9 N: their
 * correction P/GA ~ 1e-7) standing on body `foot` that a revolute joint
 * (axis y) hinges to ground at the column's base; the top is pinned and
 * slides along z under a 1 N dead load.  In the x-z plane the base is
 * pinned (Euler's second case, π²EI/L²); in the y-z plane the hinge holds
 * it clamped (20.19 EI/L², higher). */
static const char *HINGED =
    "cosrod: 1\n"
    "gravity: [0, 0, 0]\n"
    "rods:\n"
    "  - name: column\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    stiffness: {EA: 1.0e9, GA1: 1.0e9, GA2: 1.0e9, EI1: 10.0, EI2: 10.0, GJ: 8.0}\n"
    "    inertia: {rhoA: 1.0e-3, rhoI1: 1.0e-9, rhoI2: 1.0e-9, rhoJ: 2.0e-9}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, 1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: foot, at: [0, 0, 0]}\n"
    "      end: {type: pinned, slides_along: [0, 0, 1]}\n"
    "    loads:\n"
    "      - {type: force, at: end, value: [0, 0, -1.0], frame: spatial}\n"
    "bodies:\n"
    "  - {name: foot, mass: 1.0, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0]}\n"
    "joints:\n"
    "  - {type: revolute, bodies: [foot, ground], at: [[0, 0, 0], [0, 0, 0]], axis: [0, 1, 0]}\n"
    "analysis: {type: buckling, count: 2}\n";

static double hinged_error(int N, double *l2) {
  char seg[64];
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  cosrod_scenario *sc;
  cosrod_sim *sim = run(HINGED, "hinged.yaml", (const char *const[]){seg}, 1, &sc);
  if (!sim) return NAN;
  const double want = PI * PI * 10.0, want2 = 20.190728556426 * 10.0; /* (4.4934094579 = β L, tan β = β)² */
  double l1 = NAN;
  *l2 = NAN;
  CHECK("two critical factors", cosrod_sim_nmodes(sim) == 2);
  cosrod_sim_mode(sim, 0, &l1, NULL, NULL);
  cosrod_sim_mode(sim, 1, l2, NULL, NULL);
  NOTE("N = %d: critical factors %.10g (pi² EI / L² = %.10g), %.10g (20.19 EI / L² = %.10g)", N, l1, want,
       *l2, want2);
  *l2 = fabs(*l2 - want2) / want2;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return fabs(l1 - want) / want;
}

/* Second order in N: the discrete column's error is that of the central
 * difference, π²/(12 N²) = 2.06e-3 at N = 20 (as a column pinned at both
 * ends without bodies); Richardson's (4 λ_40 - λ_20) / 3 removes it. */
TEST(buckling_column_on_hinged_foot) {
  double f20, f40;
  const double e20 = hinged_error(20, &f20), e40 = hinged_error(40, &f40);
  const double rich = ((1.0 - 4.0 * e40) - (1.0 - e20)) / 3.0; /* signed: both factors lie below */
  NOTE("pinned plane: relative errors %.3e (N = 20), %.3e (N = 40), ratio %.3f; Richardson %.2e", e20, e40,
       e20 / e40, rich);
  NOTE("clamped plane: relative errors %.3e (N = 20), %.3e (N = 40), ratio %.3f", f20, f40, f20 / f40);
  CHECK("within 2.2e-3 at N = 20", e20 < 2.2e-3);
  CHECK("within 5.5e-4 at N = 40", e40 < 5.5e-4);
  CHECK("second order (ratio 3.9 .. 4.1)", e20 / e40 > 3.9 && e20 / e40 < 4.1);
  CHECK("Richardson within 1e-5 of pi² EI / L²", fabs(rich) < 1e-5);
  CHECK("clamped plane within 6e-3 (N = 20), second order", f20 < 6e-3 && f20 / f40 > 3.9 && f20 / f40 < 4.1);
}

/* The hinged foot is the pinned end in the x-z plane: the lowest factor is
 * that of the same column pinned to ground (no bodies) to the solver's
 * tolerance (the refinement's 1e-10 bracket, the coupled system's
 * finite-difference stiffness O(h²)): 1e-7. */
TEST(buckling_hinged_foot_equals_pinned_end) {
  CHECK("hinged foot = pinned end (1e-7)", versus_ground_end(HINGED, NULL, 0, GROUND("pinned"), 3, 1) < 1e-7);
}

/* Non-conservative loads take the non-symmetric pencil (its Newton-like
 * iteration on the load factor) on the reduced stiffness: a zero follower
 * load (a material moment on the foot; on ground a material force on the
 * top) sends both there, N = 10.  Agreement 1e-6: that iteration is
 * accurate to ~2e-7 (it gives 1.7e-7 above the symmetric refinement
 * without joints). */
TEST(buckling_nonsymmetric_path_hinged_foot_equals_pinned_end) {
  static const char *const a[] = {"rods.0.segments=10",
                                  "bodies.0.loads=[{type: moment, value: [0, 0, 0], frame: material}]"};
  static const char *const b[] = {
      "rods.0.segments=10", "rods.0.ends.start={type: pinned}", "bodies=[]", "joints=[]",
      "rods.0.loads=[{type: force, at: end, value: [0, 0, -1.0], frame: spatial}, "
      "{type: force, at: end, value: [0, 0, 0], frame: material}]"};
  CHECK("hinged foot = pinned end, non-symmetric path (1e-6)",
        versus_ground_end(HINGED, a, 2, b, 5, 1) < 1e-6);
}

static const th_case cases[] = {
    TH_CASE(modes_revolute_compound_pendulum),
    TH_CASE(modes_spherical_pendulum_pair_and_spin),
    TH_CASE(modes_zero_frequencies_are_the_joint_dofs),
    TH_CASE(modes_joint_chain_zero_frequencies),
    TH_CASE(static_fixed_joint_holds_body_and_rod),
    TH_CASE(modes_fixed_joint_equals_clamped_end),
    TH_CASE(buckling_column_on_hinged_foot),
    TH_CASE(buckling_hinged_foot_equals_pinned_end),
    TH_CASE(buckling_nonsymmetric_path_hinged_foot_equals_pinned_end),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
