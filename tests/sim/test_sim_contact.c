// SPDX-License-Identifier: Apache-2.0
/* Contact in runs ([manual: contact]; src/sim/sim_contact.c) against independent
 * references:
 *  - a straight rod at rest on the ground: the floor carries the weight
 *    rhoA L g (to the settling and round-off: 1e-6 relative), the gap is the
 *    penalty law's static penetration -(q/k + delta/2) with q = rhoA g and
 *    the documented automatic k = max(4 EI/ds^4, rhoA g/(0.01 r)),
 *    delta = 0.01 r (to 2 %: bending of the free ends); every implicit
 *    integrator and formulation, and a Kirchhoff rod;
 *  - dropped from a height: the energy balance closes (drift below 1 % of
 *    the fall's potential energy, the integrator's tolerance) with the impact
 *    energy booked as dissipated;
 *  - propped cantilever: a uniformly loaded steel cantilever whose tip rests
 *    on a frictionless support at the clamp's height: support reaction
 *    3 q L / 8 (Euler-Bernoulli), to 1 % (discretisation O(ds^2), shear
 *    (r/L)^2, support compliance);
 *  - incline: a rod on a slope sticks for tan(alpha) < mu_s (creep below the
 *    tangential spring's stretch q sin(alpha)/k_t) and slides otherwise with
 *    acceleration g (sin(alpha) - mu_k cos(alpha)) (to 3 %: the
 *    regularised onset);
 *  - a rod dragged over the floor at constant speed by a prescribed end:
 *    every slipping point carries kinetic friction mu_k Fn against its
 *    sliding, so the floor receives +mu_k |Fz| along the drag, at every
 *    frame where every point slips, also those inside a step (to 1e-6: the
 *    points' slip directions are x to round-off);
 *  - a contact section that never touches changes nothing (to round-off);
 *  - start_from_equilibrium with the rod 5 cm above the floor: the static
 *    solve that starts the run has the contact forces in its residual and
 *    tangent (src/sim/sim.c), so it lands the rod on the floor: at t = 0 the
 *    floor carries the weight
 *    (1e-6), the gap is the static penetration (2 %) and the run stays at
 *    rest (kinetic energy below 1e-9 of the weight times the radius). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

static const double PI = 3.14159265358979323846;

typedef sim_text_run run;
#define run_text(text, sets, nsets) sim_text_run_start((text), "contact.yaml", (sets), (nsets))
#define run_free sim_text_run_free

/* Rubber rod, L = 1, r = 1 cm, N = 20, lying along x at height z0. */
static const char *GROUND =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [0, 0, 0.00985], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: 0.3}\n"
    "solver: {rtol: 1.0e-5, atol: 1.0e-7}\n";

/* Floor force and minimum gap of the last evaluation. */
static void floor_state(const cosrod_sim *sim, double *Fz, double *gap) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  double F[3] = {0, 0, 0}, M[3];
  *gap = 1.0;
  if (!d) return;
  cosrod_contact_obstacle_wrench(d, 0, F, M);
  *Fz = F[2];
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t i = 0; i < cosrod_contact_npoints(d); i++)
    if (p[i].gap < *gap) *gap = p[i].gap;
}

TEST(rod_at_rest_on_the_ground) {
  const double r = 0.01, L = 1.0, rhoA = 1100 * PI * r * r, g = 9.81, q = rhoA * g;
  const double EI = 5e6 * PI * r * r * r * r / 4, ds = L / 20;
  const double k = fmax(4 * EI / pow(ds, 4), q / (0.01 * r)), delta = 0.01 * r;
  const double pen = q / k + delta / 2;
  const char *variants[][3] = {
      {"solver.integrator=radau5", "solver.formulation=nullspace", NULL},
      {"solver.integrator=radau5", "solver.formulation=absolute", NULL},
      {"solver.integrator=radau5", "solver.formulation=dae", NULL},
      {"solver.integrator=rodas", "solver.formulation=absolute", NULL},
      {"solver.integrator=seulex", "solver.formulation=nullspace", NULL},
      {"solver.integrator=ida", "solver.formulation=dae", NULL},
      {"solver.integrator=cvode", "solver.formulation=nullspace", NULL},
      {"solver.integrator=galpha", "solver.formulation=nullspace", NULL},
      {"solver.integrator=radau5", "rods.0.model=kirchhoff-extensible", "solver.formulation=nullspace"},
  };
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    size_t ns = variants[v][2] ? 3 : 2;
    run R = run_text(GROUND, variants[v], ns);
    char lab[200];
    snprintf(lab, sizeof lab, "%s %s %s: runs", variants[v][0], variants[v][1], variants[v][2] ? variants[v][2] : "");
    CHECK(lab, R.st == COSROD_OK);
    if (R.st == COSROD_OK) {
      double Fz = 0, gap = 0;
      floor_state(R.sim, &Fz, &gap);
      NOTE("%s: floor Fz = %.9g N (weight %.9g), min gap %.6g m (-(q/k + delta/2) = %.6g)", lab, Fz, rhoA * L * g,
           gap, -pen);
      CHECK_NEAR("floor carries the weight", -Fz, rhoA * L * g, 1e-6 * rhoA * L * g);
      CHECK_NEAR("penetration of the penalty law", -gap, pen, 0.02 * pen);
    }
    run_free(&R);
  }
}

TEST(dropped_energy_balance_closes) {
  const char *sets[] = {"rods.0.shape.start=[0, 0, 0.05]", "analysis.t_end=0.6",
                        "contact.friction={static: 0.5, kinetic: 0.4}"};
  const double r = 0.01, rhoA = 1100 * PI * r * r, E0 = rhoA * 1.0 * 9.81 * (0.05 - 0.00985);
  const char *integ[] = {"solver.integrator=radau5", "solver.integrator=rodas", "solver.integrator=ida"};
  for (int i = 0; i < 3; i++) {
    const char *s4[] = {sets[0], sets[1], sets[2], integ[i], i == 2 ? "solver.formulation=dae" : "solver.formulation=absolute"};
    run R = run_text(GROUND, s4, 5);
    CHECK(integ[i], R.st == COSROD_OK);
    if (R.st == COSROD_OK) {
      cosrod_sim_energy e = cosrod_sim_energy_now(R.sim);
      double bal0 = rhoA * 9.81 * 0.05; /* gravity energy at t = 0 (z = 0.05), nothing else */
      NOTE("%s: kinetic %.3g, elastic %.6g, gravity %.6g, dissipated %.6g J; balance %.9g (start %.9g), fall %.6g J",
           integ[i], e.kinetic, e.elastic, e.gravity, e.dissipated, e.balance, bal0, E0);
      CHECK_NEAR("balance closes to 1 % of the fall's energy", e.balance, bal0, 0.01 * E0);
      CHECK("impact energy dissipated (at rest: >= 95 % of the fall)", e.dissipated > 0.95 * E0 && e.kinetic < 1e-6 * E0);
    }
    run_free(&R);
  }
}

TEST(propped_cantilever_reaction) {
  /* steel rod clamped at x = 0 (axis at z = r), tip over a frictionless
   * cylinder whose top is at z = 0; a short last segment puts a Gauss point
   * near the tip */
  const double r = 0.005, L = 1.0, rhoA = 7850 * PI * r * r, q = rhoA * 9.81;
  double err_prev = 1e9;
  int Ns[] = {10, 20, 40};
  for (int v = 0; v < 3; v++) {
    int N = Ns[v];
    char grid[4000] = "[", text[6000];
    size_t o = 1;
    for (int i = 0; i < N; i++) o += (size_t)snprintf(grid + o, sizeof grid - o, "%.12g, ", (L - 1e-3) * i / N);
    o += (size_t)snprintf(grid + o, sizeof grid - o, "%.12g, %.12g]", L - 1e-3, L);
    snprintf(text, sizeof text,
             "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n  - name: beam\n    length: 1.0\n    grid: %s\n"
             "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n    section: {shape: circle, radius: 0.005}\n"
             "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"
             "    shape: {type: straight, start: [0, 0, 0.005], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
             "    ends: {start: {type: clamped}}\n"
             "obstacles:\n  - {name: prop, shape: cylinder, center: [1.0, 0, -0.5], axis: [0, 1, 0], radius: 0.5}\n"
             "contact: {}\nanalysis: {type: dynamic, t_end: 2.0}\nsolver: {rtol: 1.0e-6, atol: 1.0e-8}\n",
             grid);
    run R = run_text(text, NULL, 0);
    CHECK("runs", R.st == COSROD_OK);
    if (R.st == COSROD_OK) {
      const cosrod_contact_data *d = cosrod_sim_contact_data(R.sim);
      double F[3] = {0}, M[3], Rc[12];
      int sup[2];
      if (d) cosrod_contact_obstacle_wrench(d, 0, F, M);
      cosrod_sim_reactions(R.sim, 0, Rc, sup);
      double ref = 3 * q * L / 8, rel = fabs(-F[2] - ref) / ref;
      NOTE("N = %d: prop reaction %.6g N, clamp Fz %.6g N (qL - prop %.6g), 3qL/8 = %.6g N: rel. error %.3g", N + 1,
           -F[2], Rc[2], q * L + F[2], ref, rel);
      CHECK_NEAR("prop carries 3 q L / 8", -F[2], ref, 0.01 * ref);
      CHECK("the error does not grow with N", rel < err_prev * 1.5 + 1e-4);
      err_prev = rel;
    }
    run_free(&R);
  }
}

TEST(incline_sticks_or_slides) {
  /* a rod along the slope's fall line on a plane through the origin with
   * normal (-sin a, 0, cos a); mu_s = 0.5, mu_k = 0.4 */
  const double g = 9.81, T = 0.3;
  double tans[2] = {0.3, 0.8};
  for (int v = 0; v < 2; v++) {
    double a = atan(tans[v]), s = sin(a), c = cos(a), r = 0.01, h = r - 1.5e-4;
    char text[3000];
    snprintf(text, sizeof text,
             "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n  - name: rod\n    length: 0.5\n    segments: 10\n"
             "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n    section: {shape: circle, radius: 0.01}\n"
             "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
             "    shape: {type: straight, start: [%.15g, 0, %.15g], direction: [%.15g, 0, %.15g], normal: [%.15g, 0, %.15g]}\n"
             "obstacles:\n  - {name: slope, shape: plane, point: [0, 0, 0], normal: [%.15g, 0, %.15g]}\n"
             "contact: {friction: {static: 0.5, kinetic: 0.4}}\nanalysis: {type: dynamic, t_end: %g}\n"
             "solver: {integrator: radau5, rtol: 1.0e-6, atol: 1.0e-8}\n",
             -s * h, c * h, c, s, -s, c, -s, c, T);
    run R = run_text(text, NULL, 0);
    CHECK("runs", R.st == COSROD_OK);
    if (R.st == COSROD_OK) {
      const cosrod_rod_data *d = cosrod_sim_rod_data(R.sim, 0);
      /* displacement of the start vertex down the slope (-direction) */
      double x0[3] = {-s * h, 0, c * h}, u = 0;
      double dir[3] = {c, 0, s};
      for (int k = 0; k < 3; k++) u -= (d->x[k] - x0[k]) * dir[k];
      if (tans[v] < 0.5) {
        NOTE("tan a = %.2f < mu_s: moved %.3g m down the slope", tans[v], u);
        CHECK("sticks (creep below 1e-4 m)", fabs(u) < 1e-4);
      } else {
        double acc = g * (s - 0.4 * c), ref = 0.5 * acc * T * T;
        NOTE("tan a = %.2f > mu_s: moved %.6g m, 1/2 g (sin a - mu_k cos a) T^2 = %.6g m", tans[v], u, ref);
        CHECK_NEAR("slides with g (sin a - mu_k cos a)", u, ref, 0.03 * ref);
      }
    }
    run_free(&R);
  }
}

TEST(no_touch_no_change) {
  const char *base = "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n  - name: rod\n    length: 1.0\n    segments: 10\n"
                     "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
                     "    section: {shape: circle, radius: 0.01}\n"
                     "    shape: {type: straight, start: [0, 0, 1], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
                     "    ends: {start: {type: pinned}}\n"
                     "analysis: {type: dynamic, t_end: 0.2}\n"
                     "solver: {integrator: radau5}\n"; /* the same method with and without contact */
  char with[2000];
  snprintf(with, sizeof with, "%sobstacles:\n  - {name: far, shape: sphere, center: [0, 0, -5], radius: 0.1}\ncontact: {self: false}\n", base);
  run A = run_text(base, NULL, 0), B = run_text(with, NULL, 0);
  CHECK("both run", A.st == COSROD_OK && B.st == COSROD_OK);
  if (A.st == COSROD_OK && B.st == COSROD_OK) {
    const cosrod_rod_data *a = cosrod_sim_rod_data(A.sim, 0), *b = cosrod_sim_rod_data(B.sim, 0);
    double m = 0;
    for (int i = 0; i < 33; i++) m = fmax(m, fabs(a->x[i] - b->x[i]));
    NOTE("max |x_with - x_without| = %.3g m", m);
    CHECK("same positions to round-off", m < 1e-12);
  }
  run_free(&A);
  run_free(&B);
}

typedef struct drag_watch {
  double worst; /* largest |Fx - mu_k |Fz|| / |Fz| over the frames where every point slips */
  int n, nslip_all;
} drag_watch;

static int drag_frame(void *user, const cosrod_sim *sim, double t) {
  drag_watch *w = user;
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  if (t < 0.15 || !d) return 0; /* the drag starts at 0.05 s; steady sliding from ~0.1 s */
  double F[3], M[3];
  cosrod_contact_obstacle_wrench(d, 0, F, M);
  const cosrod_contact_point *p = cosrod_contact_points(d);
  int slip = 1;
  for (size_t i = 0; i < cosrod_contact_npoints(d); i++) slip &= p[i].slip == 1;
  if (slip) w->worst = fmax(w->worst, fabs(F[0] - 0.4 * fabs(F[2])) / fabs(F[2]));
  w->n++;
  w->nslip_all += slip;
  return 0;
}

TEST(drag_friction_at_every_frame) {
  /* the ground rod with its end moved along +x at 0.5 m/s from t = 0.05 s;
   * frames every 0.01 s fall inside steps of ~1e-3 .. 1e-2 s */
  char text[2500];
  snprintf(text, sizeof text, "%s", GROUND);
  char *o = strstr(text, "obstacles:");
  const char *ends = "    ends:\n      end: {type: prescribed, position: [[0, 1, 0, 0.00985], [0.05, 1, 0, 0.00985], "
                     "[0.3, 1.125, 0, 0.00985]]}\n";
  snprintf(o, sizeof text - (size_t)(o - text), "%sobstacles:\n  - {name: floor, shape: plane, point: [0, 0, 0], "
           "normal: [0, 0, 1]}\ncontact: {friction: {static: 0.5, kinetic: 0.4}}\nanalysis: {type: dynamic, "
           "t_end: 0.3}\nsolver: {integrator: radau5, rtol: 1.0e-5, atol: 1.0e-7}\noutput: {every: 0.01}\n", ends);
  cosrod_scenario *sc = NULL;
  drag_watch w = {0};
  cosrod_sim_observer obs = {.frame = drag_frame, .user = &w};
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(text, "contact.yaml", NULL, 0, &obs, &sc, &st);
  CHECK("runs", sim && st == COSROD_OK);
  NOTE("%d frames of steady sliding (%d with every point slipping): largest |Fx - mu_k |Fz|| / |Fz| = %.3g", w.n,
       w.nslip_all, w.worst);
  CHECK("frames with every point slipping", w.nslip_all >= 10);
  CHECK("the floor receives +mu_k |Fz| along the drag", w.worst < 1e-6);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

typedef struct rest_watch {
  double ke, Fz0, gap0;
  int n;
} rest_watch;

static int rest_frame(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  rest_watch *w = user;
  double k = cosrod_sim_energy_now(sim).kinetic;
  if (w->n++ == 0) floor_state(sim, &w->Fz0, &w->gap0); /* t = 0: the state of the static solve */
  if (k > w->ke) w->ke = k;
  return 0;
}

TEST(start_from_equilibrium_on_the_ground) {
  const double r = 0.01, L = 1.0, rhoA = 1100 * PI * r * r, g = 9.81, q = rhoA * g;
  const double EI = 5e6 * PI * r * r * r * r / 4, ds = L / 20;
  const double k = fmax(4 * EI / pow(ds, 4), q / (0.01 * r)), pen = q / k + 0.005 * r;
  const char *sets[] = {"rods.0.shape.start=[0, 0, 0.05]", "analysis.start_from_equilibrium=true",
                        "analysis.t_end=0.1"};
  cosrod_scenario *sc = NULL;
  rest_watch w = {0};
  cosrod_sim_observer obs = {.frame = rest_frame, .user = &w};
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(GROUND, "contact.yaml", sets, 3, &obs, &sc, &st);
  if (sim && st == COSROD_OK) {
    NOTE("t = 0 after the static start: floor Fz = %.9g N (weight %.9g), min gap %.6g m (-(q/k + delta/2) = %.6g)",
         w.Fz0, rhoA * L * g, w.gap0, -pen);
    NOTE("largest kinetic energy over the run %.3g J (weight x r = %.3g J)", w.ke, rhoA * L * g * r);
    CHECK_NEAR("the floor carries the weight at t = 0", -w.Fz0, rhoA * L * g, 1e-6 * rhoA * L * g);
    CHECK_NEAR("static penetration at t = 0", -w.gap0, pen, 0.02 * pen);
    CHECK("stays at rest", w.ke < 1e-9 * rhoA * L * g * r);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(start_from_equilibrium_on_the_ground), TH_CASE(rod_at_rest_on_the_ground), TH_CASE(dropped_energy_balance_closes),
                                TH_CASE(propped_cantilever_reaction), TH_CASE(incline_sticks_or_slides), TH_CASE(drag_friction_at_every_frame),
                                TH_CASE(no_touch_no_change)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
