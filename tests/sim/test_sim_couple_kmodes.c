// SPDX-License-Identifier: Apache-2.0
/* Modal and buckling analyses of Kirchhoff rods ([LA] §3-4) attached to
 * rigid bodies (modes_system.c, statics_buckling_kkt.c: the rods'
 * constraint multipliers as rows of the KKT matrix, like joints) against
 * closed forms and the shear-rigid Cosserat limit:
 *  - a body hanging on an extensible rod, no gravity: the axial mode of a
 *    bar fixed at one end carrying a mass, β tan β = ρAL/M,
 *    ω = (β/L) sqrt(EA/ρA);
 *  - a body on an inextensible rod pinned at its top: the compound
 *    pendulum in both planes, one zero frequency (the free spin about the
 *    rod);
 *  - a Kirchhoff cantilever with a tip body: the Euler–Bernoulli frequency
 *    equation with a tip mass;
 *  - buckling: an inextensible column standing on a foot hinged to ground,
 *    Euler's π²EI/L² (and 20.19 EI/L² in the clamped plane), second order
 *    in N, and the Cosserat factors in the shear-rigid limit. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81, PI = 3.14159265358979323846;

/* The first n modal values (ω or critical factors) of a run; NAN if missing. */
static int values(const char *text, const char *name, const char *const *sets, size_t nsets, int n, double *v) {
  for (int i = 0; i < n; ++i) v[i] = NAN;
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(text, name, sets, nsets, NULL, &sc, &st);
  const int nm = sim && st == COSROD_OK ? cosrod_sim_nmodes(sim) : 0;
  for (int i = 0; i < nm && i < n; ++i) cosrod_sim_mode(sim, i, v + i, NULL, NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return nm;
}

/* Root of f on [a, b] (a sign change) by bisection to 1e-14 relative. */
static double bisect(double (*f)(double, double), double p, double a, double b) {
  double fa = f(a, p);
  for (int i = 0; i < 200 && b - a > 1e-14 * b; ++i) {
    const double c = 0.5 * (a + b), fc = f(c, p);
    if ((fc < 0.0) == (fa < 0.0)) a = c, fa = fc;
    else b = c;
  }
  return 0.5 * (a + b);
}

/* ---- axial mode of a body on an extensible rod ---------------------------
 * L = 1 m, EA = 100 N, ρA = 0.01 kg/m, body M = 1 kg (inertia 1e-3 kg m²),
 * rod clamped to ground at the top and to the body (at its centre) below;
 * no gravity.  Lateral: a cantilever with a 1 kg tip, sqrt(3 EI/L³) ~ 17
 * rad/s with EI = 100 N m², so the axial mode (~10 rad/s) is the lowest. */
static const char *HANG =
    "cosrod: 1\n"
    "gravity: [0, 0, 0]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    model: kirchhoff-extensible\n"
    "    stiffness: {EA: 100.0, GA1: 1.0e9, GA2: 1.0e9, EI1: 100.0, EI2: 100.0, GJ: 100.0}\n"
    "    inertia: {rhoA: 0.01, rhoI1: 1.0e-6, rhoI2: 1.0e-6, rhoJ: 2.0e-6}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: box, at: [0, 0, 0]}\n"
    "bodies:\n"
    "  - {name: box, mass: 1.0, inertia: [1.0e-3, 1.0e-3, 1.0e-3], position: [0, 0, -1]}\n"
    "analysis: {type: modes, count: 3}\n";

static double axial_eq(double b, double mu) { return b * tan(b) - mu; }

/* Closed form: 1e-5 of the axial mode.  The lumped rod mass (ρAΔs per
 * vertex; the end vertex's ρAΔs/2 moves with the body, modes_system.c
 * block_mass) errs by O((ρAL/M) / N²) ~ 2.5e-5 x O(0.1) at N = 20 (2.1e-6
 * measured).  The Cosserat rod with GA = 1e9 N (the same discretisation,
 * shear correction EI/(GA L²) = 1e-7): 1e-6. */
TEST(modes_axial_body_on_extensible_rod) {
  double om[3], oc[3];
  values(HANG, "hang.yaml", NULL, 0, 3, om);
  values(HANG, "hang.yaml", (const char *const[]){"rods.0.model=cosserat"}, 1, 3, oc);
  const double mu = 0.01, beta = bisect(axial_eq, mu, 1e-6, 1.5), want = beta * sqrt(100.0 / 0.01);
  NOTE("Kirchhoff %.10g, Cosserat %.10g, closed form %.10g (EA/(L m) alone: %.10g); rel. errors %.2e, %.2e",
       om[0], oc[0], want, sqrt(100.0), fabs(om[0] - want) / want, fabs(om[0] - oc[0]) / oc[0]);
  NOTE("next: %.6g, %.6g (Cosserat %.6g, %.6g)", om[1], om[2], oc[1], oc[2]);
  CHECK_NEAR("axial mode vs beta tan beta = rhoAL/M", om[0], want, 1e-5 * want);
  CHECK_NEAR("axial mode vs shear-rigid Cosserat", om[0], oc[0], 1e-6 * oc[0]);
  CHECK_NEAR("first lateral pair vs shear-rigid Cosserat", om[1], oc[1], 1e-5 * oc[1]);
}

/* ---- pendulum on an inextensible rod ---------------------------------------
 * HANG made inextensible and pinned at the top, gravity 9.81: body M = 1 kg
 * clamped (at its centre) to the lower end, inertia (1e-4, 2e-4, 1e-4) kg m²;
 * ρA = 1e-3 kg/m, EI = 100 N m².
 * The constraint multipliers (the rod's tension) carry all of the restoring
 * stiffness: their geometric stiffness Σλ∇²g in the Hessian. */
static const char *const PEND[] = {
    "gravity=[0, 0, -9.81]",
    "rods.0.model=kirchhoff-inextensible",
    "rods.0.stiffness={EA: 1.0e9, GA1: 1.0e9, GA2: 1.0e9, EI1: 100.0, EI2: 100.0, GJ: 100.0}",
    "rods.0.inertia={rhoA: 1.0e-3, rhoI1: 1.0e-9, rhoI2: 1.0e-9, rhoJ: 2.0e-9}",
    "rods.0.ends.start={type: pinned}",
    "bodies.0.inertia=[1.0e-4, 2.0e-4, 1.0e-4]",
    "analysis={type: modes, count: 4}"};

/* Rigid assembly about the pin: ω² = g (M L + ρA L²/2) / (I_b + M L² + ρA L³/3). */
static double pend_omega(double Ib) {
  const double M = 1.0, L = 1.0, rA = 1e-3;
  return sqrt(G * (M * L + rA * L * L / 2.0) / (Ib + M * L * L + rA * L * L * L / 3.0));
}

/* Tolerance 1e-6 (2.1e-7 measured): the rod's flexibility (the body's
 * rotary inertia bends it, I_b ω² L / EI ~ 2e-5, entering ω² squared), its
 * lumped mass (O(ρAL/M / N²) ~ 2.5e-6 x O(0.1)), the finite-difference
 * stiffness of the coupled system; the two planes differ by 5e-5. */
TEST(modes_pendulum_on_inextensible_rod) {
  double om[4];
  const int nm = values(HANG, "pend.yaml", PEND, sizeof PEND / sizeof *PEND, 4, om);
  const double wx = pend_omega(1e-4), wy = pend_omega(2e-4);
  NOTE("omega %.3g, %.12g, %.12g, %.6g; closed forms %.12g (about y), %.12g (about x); rel. errors %.2e, %.2e",
       om[0], om[1], om[2], om[3], wy, wx, fabs(om[1] - wy) / wy, fabs(om[2] - wx) / wx);
  CHECK("four modes", nm == 4);
  CHECK("one zero frequency: the spin about the rod", fabs(om[0]) < 1e-2 && fabs(om[1]) > 1.0);
  CHECK_NEAR("pendulum about y (I_b = 2e-4)", om[1], wy, 1e-6 * wy);
  CHECK_NEAR("pendulum about x (I_b = 1e-4)", om[2], wx, 1e-6 * wx);
  CHECK("next: the rod's bending (> 10 rad/s)", om[3] > 10.0);
}

/* ---- cantilever with a tip body ------------------------------------------
 * HANG made inextensible and horizontal: L = 1 m, EI = 1 N m², ρA = 0.1
 * kg/m, tip body M = 0.1 kg (point-like: inertia 1e-9 kg m²), no gravity. */
static const char *const CANT[] = {
    "rods.0.model=kirchhoff-inextensible",
    "rods.0.stiffness={EA: 1.0e9, GA1: 1.0e9, GA2: 1.0e9, EI1: 1.0, EI2: 1.0, GJ: 1.0}",
    "rods.0.inertia={rhoA: 0.1, rhoI1: 1.0e-10, rhoI2: 1.0e-10, rhoJ: 2.0e-10}",
    "rods.0.shape={type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}",
    "bodies=[{name: box, mass: 0.1, inertia: [1.0e-9, 1.0e-9, 1.0e-9], position: [1, 0, 0]}]",
    "analysis={type: modes, count: 2}"};
#define NC (sizeof CANT / sizeof *CANT)

/* Euler–Bernoulli cantilever with a tip mass (ratio r = M / ρAL). */
static double cant_eq(double b, double r) {
  return 1.0 + cos(b) * cosh(b) + r * b * (cos(b) * sinh(b) - sin(b) * cosh(b));
}

static double cant_error(int N, double *om_out) {
  char seg[64];
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  double om[2];
  const char *sets[NC + 1];
  for (size_t i = 0; i < NC; ++i) sets[i] = CANT[i];
  sets[NC] = seg;
  values(HANG, "cant.yaml", sets, NC + 1, 2, om);
  CHECK_NEAR("round section: the two planes agree", om[1], om[0], 1e-9 * om[0]);
  const double beta = bisect(cant_eq, 1.0, 0.5, 1.8), want = beta * beta * sqrt(1.0 / 0.1);
  NOTE("N = %d: omega %.10g, %.10g (closed form %.10g, beta %.10g): rel. error %.3e", N, om[0], om[1], want, beta,
       (om[0] - want) / want);
  *om_out = om[0];
  return (om[0] - want) / want;
}

/* Second order in N: the discrete bending's O(1/N²) (-9.2e-4 at N = 20),
 * ratio 4 for N doubled (the body carries the rod's end vertex mass: without
 * it the tip mass would lack ρAΔs/2, an O(1/N) error); Richardson's
 * (4 ω_80 - ω_40) / 3 within 1e-6 (the two round-section planes agree to
 * 1e-9). */
TEST(modes_kirchhoff_cantilever_with_tip_body) {
  double o20, o40, o80;
  const double e20 = cant_error(20, &o20), e40 = cant_error(40, &o40), e80 = cant_error(80, &o80);
  const double rich = (4.0 * e80 - e40) / 3.0;
  NOTE("errors %.3e, %.3e, %.3e; ratios %.3f, %.3f; Richardson %.2e", e20, e40, e80, e20 / e40, e40 / e80, rich);
  CHECK("within 1e-3 at N = 20", fabs(e20) < 1e-3);
  CHECK("second order (ratios 3.9 .. 4.1)", e20 / e40 > 3.9 && e20 / e40 < 4.1 && e40 / e80 > 3.9 && e40 / e80 < 4.1);
  CHECK("Richardson within 1e-6", fabs(rich) < 1e-6);
}

/* ---- buckling: a column (with and without bodies) --------------------------
 * Inextensible column L = 1 m, EI = 10 N m² (EA = GA = 1e9 N for the
 * Cosserat twin), a 1 N dead load on its top.  SINGLE: clamped to ground,
 * top free (Euler's first case, π²EI/(2L)²). */
static const char *SINGLE =
    "cosrod: 1\n"
    "gravity: [0, 0, 0]\n"
    "rods:\n"
    "  - name: column\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    model: kirchhoff-inextensible\n"
    "    stiffness: {EA: 1.0e9, GA1: 1.0e9, GA2: 1.0e9, EI1: 10.0, EI2: 10.0, GJ: 8.0}\n"
    "    inertia: {rhoA: 1.0e-3, rhoI1: 1.0e-9, rhoI2: 1.0e-9, rhoJ: 2.0e-9}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, 1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: free}\n"
    "    loads:\n"
    "      - {type: force, at: end, value: [0, 0, -1.0], frame: spatial}\n"
    "analysis: {type: buckling, count: 1}\n";

/* HINGED: the column clamped to body `foot` that a revolute joint (axis y)
 * hinges to ground at the column's base; the top pinned, sliding along z.
 * In the x-z plane the base is pinned (Euler's second case, k = 1:
 * π²EI/L²), in the y-z plane the hinge holds it clamped (k = 0.699:
 * 20.19 EI/L², (β L)² with tan β = β). */
static const char *const HINGED[] = {
    "rods.0.ends.start={type: clamped, body: foot, at: [0, 0, 0]}",
    "rods.0.ends.end={type: pinned, slides_along: [0, 0, 1]}",
    "bodies=[{name: foot, mass: 1.0, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0]}]",
    "joints=[{type: revolute, bodies: [foot, ground], at: [[0, 0, 0], [0, 0, 0]], axis: [0, 1, 0]}]",
    "analysis={type: buckling, count: 2}"};
#define NH (sizeof HINGED / sizeof *HINGED)

static double hinged_error(int N, const char *model, double *l, double *e2) {
  char seg[64], mod[64];
  const char *sets[NH + 2];
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  snprintf(mod, sizeof mod, "rods.0.model=%s", model);
  for (size_t i = 0; i < NH; ++i) sets[i] = HINGED[i];
  sets[NH] = seg, sets[NH + 1] = mod;
  values(SINGLE, "hinged.yaml", sets, NH + 2, 2, l);
  const double want = PI * PI * 10.0, want2 = 20.190728556426 * 10.0;
  NOTE("%s N = %d: critical factors %.10g (pi² EI/L² = %.10g), %.10g (20.19 EI/L² = %.10g)", model, N, l[0], want,
       l[1], want2);
  *e2 = fabs(l[1] - want2) / want2;
  return fabs(l[0] - want) / want;
}

/* Second order: the discrete column's error is that of the central
 * difference, π²/(12 N²) = 2.06e-3 at N = 20 (as a column pinned at both
 * ends without bodies), ratio 4 for N doubled; Richardson's
 * (4 λ_40 - λ_20) / 3 removes it (1e-5: the refinement's bracket and the
 * coupled system's finite-difference stiffness).  The Cosserat column with
 * EA = GA = 1e9 N (correction P/GA ~ 1e-7) agrees to 1e-6. */
TEST(buckling_kirchhoff_column_on_hinged_foot) {
  double l20[2], l40[2], c20[2], f20, f40, g20;
  const double e20 = hinged_error(20, "kirchhoff-inextensible", l20, &f20);
  const double e40 = hinged_error(40, "kirchhoff-inextensible", l40, &f40);
  hinged_error(20, "cosserat", c20, &g20);
  const double rich = ((1.0 - 4.0 * e40) - (1.0 - e20)) / 3.0; /* signed: both factors lie below */
  NOTE("pinned plane: relative errors %.3e (N = 20), %.3e (N = 40), ratio %.3f; Richardson %.2e", e20, e40,
       e20 / e40, rich);
  NOTE("clamped plane: relative errors %.3e (N = 20), %.3e (N = 40), ratio %.3f", f20, f40, f20 / f40);
  NOTE("Kirchhoff vs Cosserat (N = 20): %.2e, %.2e", fabs(l20[0] - c20[0]) / c20[0], fabs(l20[1] - c20[1]) / c20[1]);
  CHECK("within 2.2e-3 at N = 20", e20 < 2.2e-3);
  CHECK("second order (ratio 3.9 .. 4.1)", e20 / e40 > 3.9 && e20 / e40 < 4.1);
  CHECK("Richardson within 1e-5 of pi² EI / L²", fabs(rich) < 1e-5);
  CHECK("clamped plane within 6e-3 (N = 20), second order", f20 < 6e-3 && f20 / f40 > 3.9 && f20 / f40 < 4.1);
  CHECK_NEAR("shear-rigid Cosserat, pinned plane", l20[0], c20[0], 1e-6 * c20[0]);
  CHECK_NEAR("shear-rigid Cosserat, clamped plane", l20[1], c20[1], 1e-6 * c20[1]);
}

/* The same path without bodies (the rod's multipliers the only rows):
 * SINGLE, second order in N (ratio 4), the shear-rigid Cosserat column to
 * 2e-6 (7.7e-7 measured: the physical difference P/GA ~ 2.5e-8 is below the
 * accuracy of the two refinements, direct and on the reduced pencil; the
 * extensible Kirchhoff column lies in between). */
TEST(buckling_single_kirchhoff_column) {
  const double want = PI * PI * 10.0 / 4.0;
  double k20, k40, c20;
  values(SINGLE, "single.yaml", (const char *const[]){"rods.0.segments=20"}, 1, 1, &k20);
  values(SINGLE, "single.yaml", (const char *const[]){"rods.0.segments=40"}, 1, 1, &k40);
  values(SINGLE, "single.yaml", (const char *const[]){"rods.0.segments=20", "rods.0.model=cosserat"}, 2, 1, &c20);
  const double e20 = fabs(k20 - want) / want, e40 = fabs(k40 - want) / want;
  NOTE("critical factors %.10g (N = 20), %.10g (N = 40), Cosserat %.10g; pi² EI/(4 L²) = %.10g; errors %.3e, %.3e, "
       "ratio %.3f; vs Cosserat %.2e",
       k20, k40, c20, want, e20, e40, e20 / e40, fabs(k20 - c20) / c20);
  CHECK("within 1e-3 at N = 20", e20 < 1e-3);
  CHECK("second order (ratio 3.9 .. 4.1)", e20 / e40 > 3.9 && e20 / e40 < 4.1);
  CHECK_NEAR("shear-rigid Cosserat", k20, c20, 2e-6 * c20);
}

static const th_case cases[] = {
    TH_CASE(modes_axial_body_on_extensible_rod),
    TH_CASE(modes_pendulum_on_inextensible_rod),
    TH_CASE(modes_kirchhoff_cantilever_with_tip_body),
    TH_CASE(buckling_kirchhoff_column_on_hinged_foot),
    TH_CASE(buckling_single_kirchhoff_column),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
