// SPDX-License-Identifier: Apache-2.0
/* Static analyses and start_from_equilibrium with rigid bodies ([manual:
 * rigid bodies]): Kirchhoff rods on bodies, preloads with bodies, joints on
 * keyframe bodies.  References: global equilibrium (top reaction = weights),
 * the inextensible rod's length, the extensible rod's elongation
 * (m_b g L + ρA g L²/2 + F L)/EA, the Euler-Bernoulli tip deflection
 * P L³/3EI + w L⁴/8EI (second order in N), the Cosserat rod in the
 * shear-rigid limit (the same discretisation), a rest that does not drift,
 * and a hinged body hanging in the plane normal to its tilted hinge axis. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81;

/* test_sim_couple_static's hanging 10 kg body on a steel rod, inextensible. */
static const char *HANG = SIM_TEST_HANG;
static const char *const INEXT = "rods.0.model=kirchhoff-inextensible";

/* Length sum |x_{n+1} - x_n| of rod r from the sim's rod data. */
static double rod_length(const cosrod_sim *sim, size_t r) {
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, r);
  const int N = cosrod_rod_nseg(cosrod_sim_rod(sim, r));
  double l = 0.0;
  for (int n = 0; n < N; ++n)
    l += sqrt(pow(d->x[3 * n + 3] - d->x[3 * n], 2) + pow(d->x[3 * n + 4] - d->x[3 * n + 1], 2) +
              pow(d->x[3 * n + 5] - d->x[3 * n + 2], 2));
  return l;
}

/* Static equilibrium of HANG with sets; body height into *zb if given. */
static void hanging(const char *const *sets, size_t nsets, int extensible, double preload, double *zb) {
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(HANG, "hang.yaml", sets, nsets, NULL, &sc, &st);
  if (!sim) return;
  double CG[3], rhoA, R[12], x[3], q[4];
  cosrod_rod_constants(cosrod_sim_rod(sim, 0), CG, NULL, NULL, NULL, &rhoA, NULL);
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, NULL) == COSROD_OK);
  CHECK("body pose", cosrod_sim_body(sim, 0, x, q, NULL) == COSROD_OK);
  const double mb = 10.0, L = 1.0, EA = CG[2];
  const double want = (mb + rhoA * L) * G + preload;
  const double dl = extensible ? (mb * G * L + rhoA * G * L * L / 2.0 + preload * L) / EA : 0.0;
  NOTE("top reaction Fz = %.15g N, weights + load %.15g N; body drop %.9e m, closed form %.9e m; length %.15g",
       R[2], want, -1.05 - x[2], dl, rod_length(sim, 0));
  /* global equilibrium: the Newton tolerance, 1e-9 of the force scale per
   * row, summed over the rows (measured: 1e-10 relative) */
  CHECK_NEAR("top reaction = body + rod weight (+ load)", R[2], want, 1e-8 * want);
  /* the load acts on the rod's end vertex: the body holds its own weight */
  CHECK_NEAR("the body pulls with its weight on the rod end", R[8], -mb * G, 1e-8 * want);
  CHECK_NEAR("no horizontal reaction", hypot(R[0], R[1]), 0.0, 1e-8 * want);
  if (extensible) /* as test_sim_couple_static: exact up to O((T/EA)²) = 2e-9 */
    CHECK_NEAR("body drops by the rod's elongation", -1.05 - x[2], dl, 1e-6 * dl);
  else /* the constraint rows converge at |g| <= 1e-3 tol Δs: length to ~1e-13 */
    CHECK_NEAR("inextensible: the body stays, the length is L", -1.05 - x[2], 0.0, 1e-12);
  if (!extensible) CHECK_NEAR("centreline length L", rod_length(sim, 0), L, 1e-12);
  CHECK_NEAR("body keeps its orientation", fabs(q[0]), 1.0, 1e-12);
  if (zb) *zb = x[2];
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(static_body_on_inextensible_rod) { hanging(&INEXT, 1, 0, 0.0, NULL); }
TEST(static_body_pinned_to_inextensible_rod) {
  hanging((const char *const[]){INEXT, "rods.0.ends.end.type=pinned"}, 2, 0, 0.0, NULL);
}
TEST(static_body_on_extensible_rod) {
  hanging((const char *const[]){"rods.0.model=kirchhoff-extensible"}, 1, 1, 0.0, NULL);
}
/* a ramped 500 N pull on the rod's end vertex (on the body) */
TEST(static_body_on_extensible_rod_pulled) {
  hanging((const char *const[]){"rods.0.model=kirchhoff-extensible",
                                "rods.0.loads=[{type: force, at: end, value: [0, 0, -500]}]"},
          2, 1, 500.0, NULL);
}

/* Steel cantilever (L = 1 m, r = 5 mm) along e1, a body clamped to its tip
 * with its centre at the tip. */
static const char *CANT =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: beam\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    model: kirchhoff-inextensible\n"
    "    material: {E: 2.0e11, poisson: 0.3, density: 7800}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: bob, at: [0, 0, 0]}\n"
    "bodies:\n"
    "  - {name: bob, mass: 1.0, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [1, 0, 0]}\n"
    "analysis: {type: static}\n"
    "output: {every: 1}\n";

/* Static tip body pose (and top reaction, centreline length). */
static int cant_static(const char *const *sets, size_t nsets, double x[3], double R[12], double *len) {
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(CANT, "cant.yaml", sets, nsets, NULL, &sc, &st);
  if (!sim) return 0;
  CHECK("body pose", cosrod_sim_body(sim, 0, x, NULL, NULL) == COSROD_OK);
  if (R) CHECK("reactions", cosrod_sim_reactions(sim, 0, R, NULL) == COSROD_OK);
  if (len) *len = rod_length(sim, 0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

/* Light load (density 780, 0.1 kg body: deflection 4e-3 L, the geometric
 * nonlinearity ~1e-5 of it): P L³/3EI + w L⁴/8EI, second order in N. */
TEST(static_kirchhoff_cantilever_tip_body_closed_form) {
  const double E = 2.0e11, r = 5.0e-3, EI = E * 3.14159265358979323846 * pow(r, 4) / 4.0;
  const double w = 780.0 * 3.14159265358979323846 * r * r * G, P = 0.1 * G, L = 1.0;
  const double want = P * pow(L, 3) / (3.0 * EI) + w * pow(L, 4) / (8.0 * EI);
  double err[3];
  const char *nseg[3] = {"rods.0.segments=10", "rods.0.segments=20", "rods.0.segments=40"};
  for (int k = 0; k < 3; ++k) {
    double x[3], R[12], len;
    const char *sets[] = {nseg[k], "rods.0.material.density=780", "bodies.0.mass=0.1"};
    if (!cant_static(sets, 3, x, R, &len)) return;
    err[k] = fabs(-x[2] - want);
    const double W = P + w * L;
    NOTE("%s: tip deflection %.12e m, closed form %.12e m, error %.3e; top reaction (%.3g, %.12g) N, length %.15g m",
         nseg[k], -x[2], want, err[k], R[0], R[2], len);
    CHECK_NEAR("top reaction = weights", R[2], W, 1e-8 * W);
    CHECK_NEAR("top moment = weights' moments", R[4], -(P * L + w * L * L / 2.0), 1e-3 * P * L); /* lever shrinks */
    CHECK_NEAR("inextensible length", len, L, 1e-12);
  }
  NOTE("error ratios %.3f %.3f", err[0] / err[1], err[1] / err[2]);
  CHECK("second order (10 -> 20)", err[0] / err[1] > 3.5 && err[0] / err[1] < 4.5);
  CHECK("second order (20 -> 40)", err[1] / err[2] > 3.5 && err[1] / err[2] < 4.5);
  CHECK_LE("N = 40 within 5e-4 of the closed form", err[2], 5e-4 * want);
}

/* kirchhoff-extensible = the Cosserat rod with GA -> infinity on the same
 * discretisation: GA = 1e9, 1e10 N (the rod's own GA is 5.4e6 N) leave the
 * shear deflection (P + w L) L / GA = 1.6e-8, 1.6e-9 m. */
TEST(static_kirchhoff_cantilever_tip_body_vs_shear_rigid_cosserat) {
  double xk[3], xc[3];
  if (!cant_static((const char *const[]){"rods.0.model=kirchhoff-extensible"}, 1, xk, NULL, NULL)) return;
  const double E = 2.0e11, Gm = E / 2.6, r = 5.0e-3, A = 3.14159265358979323846 * r * r, I = A * r * r / 4.0;
  const double GA[2] = {1.0e9, 1.0e10};
  for (int k = 0; k < 2; ++k) {
    char stiff[256];
    snprintf(stiff, sizeof stiff,
             "rods.0.stiffness={EA: %.17g, GA1: %.17g, GA2: %.17g, EI1: %.17g, EI2: %.17g, GJ: %.17g}", E * A, GA[k],
             GA[k], E * I, E * I, Gm * 2.0 * I);
    if (!cant_static((const char *const[]){"rods.0.model=cosserat", stiff}, 2, xc, NULL, NULL)) return;
    const double shear = (G + 7800.0 * A * G) / GA[k];
    NOTE("GA %.0e: Kirchhoff tip (%.15g, %.15g), Cosserat (%.15g, %.15g), difference %.3e m, shear %.3e m", GA[k], xk[0],
         xk[2], xc[0], xc[2], xk[2] - xc[2], shear);
    /* the shear deflection plus the Newton tolerance (1e-9 of the forces: ~4e-11 m) */
    CHECK_NEAR("tip z", xk[2], xc[2], 2.0 * shear + 1e-10);
    CHECK_NEAR("tip x", xk[0], xc[0], 2.0 * shear + 1e-10);
  }
}

/* A dynamic run from the static equilibrium: its t = 0 body pose is the
 * static analysis' (same solver, tolerance 1e-9 of the forces) and nothing
 * moves. */
static void rest(const char *text, const char *name, const char *const *sets, size_t nsets, const double xs[3]) {
  sim_test_rest tr = {0};
  cosrod_sim_observer obs = {0};
  obs.frame = sim_test_rest_frame;
  obs.user = &tr;
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(text, name, sets, nsets, &obs, &sc, &st);
  if (!sim) return;
  NOTE("%s: frames %d, body at (%.15g, %.15g, %.15g), static (%.15g, %.15g, %.15g); drift %.3e m, kinetic %.3e J",
       sets[nsets - 1], tr.n, tr.x0[0], tr.x0[1], tr.x0[2], xs[0], xs[1], xs[2], tr.dx, tr.ke);
  CHECK("frames written", tr.n >= 5);
  CHECK_NEAR("starts at the static equilibrium (x)", tr.x0[0], xs[0], 1e-10);
  CHECK_NEAR("starts at the static equilibrium (z)", tr.x0[2], xs[2], 1e-10);
  /* forces at equilibrium to 1e-9 of the weights: drift ~1e-14 m measured */
  CHECK_LE("stays at rest (drift < 1e-10 m)", tr.dx, 1e-10);
  CHECK_LE("no kinetic energy (< 1e-12 J)", tr.ke, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static void cant_rest(const char *model, const char *solver) {
  double xs[3];
  char m[64];
  snprintf(m, sizeof m, "rods.0.model=%s", model);
  if (!cant_static((const char *const[]){m}, 1, xs, NULL, NULL)) return;
  rest(CANT, "cant.yaml",
       (const char *const[]){m, "analysis={type: dynamic, t_end: 0.05, start_from_equilibrium: true}",
                             "output={every: 0.01}", solver},
       4, xs);
}

TEST(start_from_equilibrium_kirchhoff_cantilever_dae) {
  cant_rest("kirchhoff-inextensible", "solver={formulation: dae, integrator: radau5}");
}
TEST(start_from_equilibrium_kirchhoff_cantilever_nullspace) {
  cant_rest("kirchhoff-inextensible", "solver={formulation: nullspace, integrator: radau5}");
}
TEST(start_from_equilibrium_kirchhoff_cantilever_galpha) {
  cant_rest("kirchhoff-extensible", "solver={formulation: absolute, integrator: galpha}");
}
/* the straight inextensible rod between a clamp and a body: its own
 * constraint rows are rank deficient, the body's force row completes them */
TEST(start_from_equilibrium_body_on_straight_inextensible_rod) {
  const double xs[3] = {0.0, 0.0, -1.05};
  rest(HANG, "hang.yaml",
       (const char *const[]){INEXT, "analysis={type: dynamic, t_end: 0.05, start_from_equilibrium: true}",
                             "output={every: 0.01}", "solver={formulation: dae, integrator: radau5}"},
       4, xs);
}

/* A 10 kg body hanging on two inextensible steel rods (L = 1 m, r = 2 mm)
 * pinned at (±0.6, 0, 0) and to the body's centre: a V.  Each rod alone is a
 * straight inextensible rod between a support and the body (rank-deficient
 * rows, [LA] 4(a)); the body's force row, shared by both rods' multipliers,
 * completes them (Woodbury on the rods' S, statics_kirchhoff.c). */
static const char *VEE =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - {name: a, length: 1.0, segments: 10, model: kirchhoff-inextensible,\n"
    "     material: {E: 2.0e11, poisson: 0.3, density: 7800}, section: {shape: circle, radius: 2.0e-3},\n"
    "     shape: {type: straight, start: [-0.6, 0, 0], direction: [0.6, 0, -0.8], normal: [0, 1, 0]},\n"
    "     ends: {start: {type: pinned}, end: {type: pinned, body: bob, at: [0, 0, 0]}}}\n"
    "  - {name: b, length: 1.0, segments: 10, model: kirchhoff-inextensible,\n"
    "     material: {E: 2.0e11, poisson: 0.3, density: 7800}, section: {shape: circle, radius: 2.0e-3},\n"
    "     shape: {type: straight, start: [0.6, 0, 0], direction: [-0.6, 0, -0.8], normal: [0, 1, 0]},\n"
    "     ends: {start: {type: pinned}, end: {type: pinned, body: bob, at: [0, 0, 0]}}}\n"
    "bodies:\n"
    "  - {name: bob, mass: 10.0, inertia: [0.02, 0.02, 0.01], position: [0, 0, -0.8]}\n"
    "analysis: {type: static}\n"
    "output: {every: 1}\n";

static int vee_static(const char *const *sets, size_t nsets, double x[3], double Ra[12], double Rb[12], double len[2]) {
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(VEE, "vee.yaml", sets, nsets, NULL, &sc, &st);
  if (!sim) return 0;
  CHECK("body pose", cosrod_sim_body(sim, 0, x, NULL, NULL) == COSROD_OK);
  CHECK("reactions a", cosrod_sim_reactions(sim, 0, Ra, NULL) == COSROD_OK);
  CHECK("reactions b", cosrod_sim_reactions(sim, 1, Rb, NULL) == COSROD_OK);
  len[0] = rod_length(sim, 0), len[1] = rod_length(sim, 1);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

/* Global equilibrium and symmetry (1e-8, the Newton tolerance summed),
 * lengths to round-off, and the Cosserat rods with EA = GA = 1e10 N on the
 * same grids (stretch T L/EA ~ 6e-9 m). */
TEST(static_body_on_two_inextensible_rods) {
  double x[3], Ra[12], Rb[12], len[2], xc[3], Rca[12], Rcb[12], lc[2];
  if (!vee_static(NULL, 0, x, Ra, Rb, len)) return;
  const double r = 2.0e-3, A = 3.14159265358979323846 * r * r, W = (10.0 + 2.0 * 7800.0 * A) * G;
  const double E = 2.0e11, I = A * r * r / 4.0;
  char stiff[2][256];
  for (int k = 0; k < 2; ++k)
    snprintf(stiff[k], sizeof stiff[k],
             "rods.%d.stiffness={EA: 1.0e10, GA1: 1.0e10, GA2: 1.0e10, EI1: %.17g, EI2: %.17g, GJ: %.17g}", k, E * I,
             E * I, E / 2.6 * 2.0 * I);
  const char *cs[] = {"rods.0.model=cosserat", "rods.1.model=cosserat", stiff[0], stiff[1]};
  if (!vee_static(cs, 4, xc, Rca, Rcb, lc)) return;
  NOTE("body at (%.3g, %.3g, %.15g), Cosserat (%.3g, %.3g, %.15g); pins (%.12g, %.12g) and (%.12g, %.12g) N, Cosserat "
       "(%.12g, %.12g); lengths %.15g %.15g",
       x[0], x[1], x[2], xc[0], xc[1], xc[2], Ra[0], Ra[2], Rb[0], Rb[2], Rca[0], Rca[2], len[0], len[1]);
  CHECK_NEAR("pins carry the weights", Ra[2] + Rb[2], W, 1e-8 * W);
  CHECK_NEAR("horizontal pulls cancel", Ra[0] + Rb[0], 0.0, 1e-8 * W);
  CHECK_NEAR("symmetric", Ra[2], Rb[2], 1e-8 * W);
  CHECK_NEAR("body centred", hypot(x[0], x[1]), 0.0, 1e-12);
  CHECK_NEAR("rod a length", len[0], 1.0, 1e-12);
  CHECK_NEAR("rod b length", len[1], 1.0, 1e-12);
  CHECK_NEAR("body height as the stiff Cosserat rods", x[2], xc[2], 2e-8);
  CHECK_NEAR("horizontal pull as the stiff Cosserat rods", Ra[0], Rca[0], 1e-6 * W);
}

TEST(start_from_equilibrium_body_on_two_inextensible_rods) {
  double xs[3], Ra[12], Rb[12], len[2];
  if (!vee_static(NULL, 0, xs, Ra, Rb, len)) return;
  rest(VEE, "vee.yaml",
       (const char *const[]){"analysis={type: dynamic, t_end: 0.05, start_from_equilibrium: true}",
                             "output={every: 0.01}", "solver={formulation: dae, integrator: radau5}"},
       3, xs);
}

static int on_last(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  cosrod_sim_body(sim, 0, user, NULL, NULL);
  return 0;
}

/* The dynamic settle: released from the straight shape with a viscous
 * medium on the rod, the inextensible cantilever ends at the static
 * equilibrium.  The first mode (tip stiffness 3EI/L^3 = 294 N/m against the
 * 1 kg body plus a quarter of the rod's 0.61 kg: omega = 16 rad/s) takes the
 * medium's 120 N s/m² over the rod's tip-weighted quarter length, zeta ~ 0.8:
 * it decays like exp(-12.5 t).  Bound: the transient left after 2 s is
 * ~0.04 m e^-25 ~ 6e-13 m (after 1 s it is 1e-7 m, measured 9e-8); what
 * remains is the integrator's, whose error test and Newton stopping test
 * keep a stationary state within one unit of the requested tolerance,
 * atol + rtol |x| (rtol = atol = 1e-9 here, so that the check resolves the
 * statics solver's equilibrium far below the default tolerance). */
TEST(dynamic_settle_equals_static_kirchhoff_cantilever) {
  double xs[3], xd[3] = {NAN, NAN, NAN};
  if (!cant_static(&INEXT, 1, xs, NULL, NULL)) return;
  cosrod_sim_observer obs = {0};
  obs.frame = on_last;
  obs.user = xd;
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(CANT, "cant.yaml",
                                 (const char *const[]){INEXT, "rods.0.damping={medium: {translational: 120}}",
                                                       "analysis={type: dynamic, t_end: 2}", "output={every: 0.5}",
                                                       "solver={formulation: dae, integrator: radau5, rtol: 1e-9, atol: 1e-9}"},
                                 5, &obs, &sc, &st);
  if (!sim) return;
  NOTE("settled tip body (%.15g, %.15g, %.15g), static (%.15g, %.15g, %.15g)", xd[0], xd[1], xd[2], xs[0], xs[1],
       xs[2]);
  for (int i = 0; i < 3; ++i) CHECK_NEAR("settled = static", xd[i], xs[i], 1e-9 + 1e-9 * fabs(xs[i]));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static int on_first(void *user, const cosrod_sim *sim, double t) {
  double *x = user;
  if (t == 0.0) cosrod_sim_body(sim, 0, x, NULL, NULL);
  return 0;
}

/* Preloads with a body (start_from_equilibrium): a 500 N pull on the rod's
 * end vertex (on the body) acts in the initial equilibrium only.  Its t = 0
 * state is the static analysis with the pull as a constant load (same
 * solver, 1e-9 of the forces: ~1e-15 m here) and the closed-form
 * elongation (m_b g L + ρA g L²/2 + F L)/EA (1e-6 of it, as above). */
static void preload_start(const char *model, const char *solver) {
  char m[64];
  snprintf(m, sizeof m, "rods.0.model=%s", model);
  double zs = 0.0, x0[3] = {NAN, NAN, NAN};
  hanging((const char *const[]){m, "rods.0.loads=[{type: force, at: end, value: [0, 0, -500]}]"}, 2, 1, 500.0, &zs);
  cosrod_sim_observer obs = {0};
  obs.frame = on_first;
  obs.user = x0;
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(
      HANG, "hang.yaml",
      (const char *const[]){m, "rods.0.loads=[{type: force, at: end, value: [0, 0, -500], preload: true}]",
                            "analysis={type: dynamic, t_end: 0.001, start_from_equilibrium: true}",
                            "output={every: 0.001}", solver},
      5, &obs, &sc, &st);
  if (!sim) return;
  double CG[3], rhoA;
  cosrod_rod_constants(cosrod_sim_rod(sim, 0), CG, NULL, NULL, NULL, &rhoA, NULL);
  const double dl = (10.0 * G + rhoA * G / 2.0 + 500.0) / CG[2];
  NOTE("%s, %s: body at t = 0 z = %.15g, static with the load %.15g, closed form %.15g", model, solver, x0[2], zs,
       -1.05 - dl);
  CHECK_NEAR("t = 0: the static equilibrium with the load", x0[2], zs, 1e-12);
  CHECK_NEAR("t = 0: the closed-form elongation", -1.05 - x0[2], dl, 1e-6 * dl);
  CHECK_NEAR("t = 0: centred", hypot(x0[0], x0[1]), 0.0, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(preload_with_body_cosserat) { preload_start("cosserat", "solver={formulation: nullspace, integrator: radau5}"); }
TEST(preload_with_body_cosserat_absolute) {
  preload_start("cosserat", "solver={formulation: absolute, integrator: galpha}");
}
TEST(preload_with_body_kirchhoff) {
  preload_start("kirchhoff-extensible", "solver={formulation: dae, integrator: radau5}");
}


static const th_case cases[] = {
    TH_CASE(static_body_on_inextensible_rod),
    TH_CASE(static_body_pinned_to_inextensible_rod),
    TH_CASE(static_body_on_extensible_rod),
    TH_CASE(static_body_on_extensible_rod_pulled),
    TH_CASE(static_kirchhoff_cantilever_tip_body_closed_form),
    TH_CASE(static_kirchhoff_cantilever_tip_body_vs_shear_rigid_cosserat),
    TH_CASE(start_from_equilibrium_kirchhoff_cantilever_dae),
    TH_CASE(start_from_equilibrium_kirchhoff_cantilever_nullspace),
    TH_CASE(start_from_equilibrium_kirchhoff_cantilever_galpha),
    TH_CASE(start_from_equilibrium_body_on_straight_inextensible_rod),
    TH_CASE(dynamic_settle_equals_static_kirchhoff_cantilever),
    TH_CASE(static_body_on_two_inextensible_rods),
    TH_CASE(start_from_equilibrium_body_on_two_inextensible_rods),
    TH_CASE(preload_with_body_cosserat),
    TH_CASE(preload_with_body_cosserat_absolute),
    TH_CASE(preload_with_body_kirchhoff),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
