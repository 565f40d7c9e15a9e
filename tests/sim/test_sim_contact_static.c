// SPDX-License-Identifier: Apache-2.0
/* Contact in static analyses ([manual: contact]): the contact forces enter
 * the statics residual through the rods' load callback and its band
 * Jacobian blocks enter the analytic tangent; static friction anchors are
 * committed at the start and after every converged increment.  References:
 *  - propped cantilever: a uniformly loaded steel cantilever whose tip rests
 *    on a frictionless support at the clamp's height carries 3 q L / 8 on
 *    the support (Euler-Bernoulli), to 1 % (discretisation O(ds^2), shear
 *    (r/L)^2 ~ 3e-5, support compliance: the tip sinks P ds^3/(8 EI) into
 *    the prop, a settlement that relieves the prop by 3 EI u / L^3 / (3qL/8)
 *    ~ ds^3 / L^3 < 1e-3); and the same value as the dynamic run settled
 *    (tests/sim/test_sim_contact.c) to 0.5 % (the dynamic run's residual
 *    vibration);
 *  - incline: a rod on a slope with tan(alpha) = 0.3 < mu_s = 0.5 is held by
 *    static friction: the contact's tangential force balances the weight's
 *    slope component q L sin(alpha) (to 1e-6 relative: converged residual)
 *    and the rod creeps at most the tangential spring's stretch
 *    q sin(alpha) / k_t per point (k_t = k auto) down the slope; with
 *    tan(alpha) = 0.8 > mu_s no equilibrium exists and the analysis fails
 *    instead of returning a state;
 *  - arc-length control: the propped cantilever with its weight as the
 *    continuation load ends with the same prop reaction as load stepping
 *    (to 1e-6: both converged equilibria of one residual);
 *  - keyframe path: a hose lying on a frictionless floor, its end held by a
 *    gripper (orientation kept, tangent horizontal), lifted by H and laid
 *    back.  Lifted: the part that leaves the floor is a heavy
 *    Euler-Bernoulli beam with w = w' = w'' = 0 at the lift-off point and
 *    w = H, w' = 0 at the gripper, so w = q l x^3/(18 EI) - q x^4/(24 EI),
 *    l = (72 EI H / q)^(1/4), and the gripper carries the shear 2 q l / 3
 *    (the floor the rest: a point force q l / 3 at lift-off); read from the
 *    balance Fz_gripper = q L - floor force, to 2 % (slopes up to 1.5 H/l
 *    = 0.08: geometric terms 0.7 %, discretisation (ds/l)^2 0.5 %, the
 *    penalty law's compliance at lift-off).  Laid back: a conservative
 *    system has no memory, so the shape and the floor force equal the
 *    starting equilibrium's to the Newton tolerance (1e-7 m; the force to
 *    1e-9 of the weight): the keyframes' pseudo-time rates are no
 *    velocities, so neither the contact damping nor a velocity-dependent
 *    load sees them. */
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
#define run_text(text) sim_text_run_start((text), "contact-static.yaml", NULL, 0)
#define run_free sim_text_run_free

/* The propped cantilever of test_sim_contact.c: N equal segments and a short
 * last one (a Gauss point near the tip over the prop). */
static void propped_text(char *text, size_t len, int N, const char *analysis) {
  const double L = 1.0;
  char grid[4000] = "[";
  size_t o = 1;
  for (int i = 0; i < N; i++) o += (size_t)snprintf(grid + o, sizeof grid - o, "%.12g, ", (L - 1e-3) * i / N);
  snprintf(grid + o, sizeof grid - o, "%.12g, %.12g]", L - 1e-3, L);
  snprintf(text, len,
           "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n  - name: beam\n    length: 1.0\n    grid: %s\n"
           "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n    section: {shape: circle, radius: 0.005}\n"
           "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"
           "    shape: {type: straight, start: [0, 0, 0.005], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: clamped}}\n"
           "obstacles:\n  - {name: prop, shape: cylinder, center: [1.0, 0, -0.5], axis: [0, 1, 0], radius: 0.5}\n"
           "contact: {}\n%s",
           grid, analysis);
}

static double prop_force(const cosrod_sim *sim) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  double F[3] = {0, 0, 0}, M[3];
  if (d) cosrod_contact_obstacle_wrench(d, 0, F, M);
  return -F[2];
}

TEST(propped_cantilever_static) {
  const double r = 0.005, L = 1.0, q = 7850 * PI * r * r * 9.81, ref = 3 * q * L / 8;
  int Ns[] = {10, 20, 40};
  double err_prev = 1e9, P20 = 0.0;
  char text[6000];
  for (int v = 0; v < 3; v++) {
    propped_text(text, sizeof text, Ns[v], "analysis: {type: static, increments: 10}\n");
    run R = run_text(text);
    CHECK("static run with contact converges", R.st == COSROD_OK);
    if (R.st == COSROD_OK) {
      double P = prop_force(R.sim), rel = fabs(P - ref) / ref;
      if (Ns[v] == 20) P20 = P;
      NOTE("static N = %d: prop reaction %.8g N, 3qL/8 = %.8g N: rel. error %.3g", Ns[v] + 1, P, ref, rel);
      CHECK_NEAR("prop carries 3 q L / 8", P, ref, 0.01 * ref);
      CHECK("the error does not grow with N", rel < err_prev * 1.5 + 1e-4);
      err_prev = rel;
    }
    run_free(&R);
  }
  propped_text(text, sizeof text, 20,
               "analysis: {type: dynamic, t_end: 2.0}\nsolver: {rtol: 1.0e-6, atol: 1.0e-8}\n");
  run D = run_text(text);
  CHECK("dynamic run", D.st == COSROD_OK);
  if (D.st == COSROD_OK) {
    double P = prop_force(D.sim);
    const cosrod_integrate_stats *is = cosrod_sim_stats(D.sim);
    NOTE("N = 21: static %.10g N, dynamic (settled, t = %g s, %ld steps) %.10g N: rel. difference %.3g", P20,
         cosrod_sim_t(D.sim), is ? is->naccept : -1L, P, fabs(P20 - P) / P);
    CHECK_NEAR("static and settled dynamic reactions agree", P20, P, 0.005 * P);
  }
  run_free(&D);
}

static void incline_text(char *text, size_t len, double tana) {
  double a = atan(tana), s = sin(a), c = cos(a), h = 0.01 - 1.5e-4;
  snprintf(text, len,
           "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n  - name: rod\n    length: 0.5\n    segments: 10\n"
           "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n    section: {shape: circle, radius: 0.01}\n"
           "    shape: {type: straight, start: [%.15g, 0, %.15g], direction: [%.15g, 0, %.15g], normal: [%.15g, 0, "
           "%.15g]}\n"
           "obstacles:\n  - {name: slope, shape: plane, point: [0, 0, 0], normal: [%.15g, 0, %.15g]}\n"
           "contact: {friction: {static: 0.5, kinetic: 0.4}}\nanalysis: {type: static, increments: 10}\n",
           -s * h, c * h, c, s, -s, c, -s, c);
}

TEST(incline_held_by_static_friction) {
  const double r = 0.01, L = 0.5, rhoA = 1100 * PI * r * r, g = 9.81, q = rhoA * g;
  const double EI = 5e6 * PI * r * r * r * r / 4, ds = L / 10, k = fmax(4 * EI / pow(ds, 4), q / (0.01 * r));
  char text[3000];
  incline_text(text, sizeof text, 0.3);
  run R = run_text(text);
  CHECK("tan a = 0.3 < mu_s: static run converges", R.st == COSROD_OK);
  if (R.st == COSROD_OK) {
    double a = atan(0.3), s = sin(a), c = cos(a), h = r - 1.5e-4;
    const cosrod_rod_data *d = cosrod_sim_rod_data(R.sim, 0);
    double x0[3] = {-s * h, 0, c * h}, dir[3] = {c, 0, s}, u = 0;
    for (int i = 0; i < 3; i++) u -= (d->x[i] - x0[i]) * dir[i];
    const cosrod_contact_data *cd = cosrod_sim_contact_data(R.sim);
    double F[3] = {0, 0, 0}, M[3];
    if (cd) cosrod_contact_obstacle_wrench(cd, 0, F, M);
    /* force on the slope along the fall line (down the slope: -dir) and normal to it */
    double Ft = -(F[0] * dir[0] + F[2] * dir[2]), Fn = -(F[0] * -s + F[2] * c), W = q * L;
    NOTE("slope: tangential %.9g N (W sin a = %.9g), normal %.9g N (W cos a = %.9g); creep %.3g m (bound %.3g)", Ft,
         W * s, Fn, W * c, u, q * s / k);
    CHECK_NEAR("friction carries the slope component of the weight", Ft, W * s, 1e-6 * W);
    CHECK_NEAR("normal force = W cos a", Fn, W * c, 1e-6 * W);
    CHECK("creep below the tangential spring's stretch", fabs(u) <= q * s / k * 1.01 + 1e-12);
  }
  run_free(&R);
  incline_text(text, sizeof text, 0.8);
  run S = run_text(text);
  NOTE("tan a = 0.8 > mu_s: %s", cosrod_strerror(S.st));
  CHECK("tan a = 0.8 > mu_s: no static equilibrium (the analysis fails)", S.st != COSROD_OK);
  run_free(&S);
}

TEST(propped_cantilever_arc_length) {
  char text[6000];
  propped_text(text, sizeof text, 20, "analysis: {type: static, increments: 10}\n");
  run A = run_text(text);
  propped_text(text, sizeof text, 20, "analysis: {type: static, control: arc-length}\n");
  run B = run_text(text);
  CHECK("load stepping and arc-length converge", A.st == COSROD_OK && B.st == COSROD_OK);
  if (A.st == COSROD_OK && B.st == COSROD_OK) {
    double Pa = prop_force(A.sim), Pb = prop_force(B.sim);
    NOTE("prop reaction: load stepping %.10g N, arc-length %.10g N", Pa, Pb);
    CHECK_NEAR("arc-length ends at the same reaction", Pb, Pa, 1e-6 * Pa);
  }
  run_free(&A);
  run_free(&B);
}

typedef struct lift_watch {
  double Ff[3]; /* floor force (rods on it, z) at t = 0, 1, 2 */
  double x0[3 * 41], x2[3 * 41];
  int seen;
  int nframes;
  double kin_max; /* max |kinetic energy| over the frames */
} lift_watch;

static int lift_frame(void *user, const cosrod_sim *sim, double t) {
  lift_watch *w = user;
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  const cosrod_rod_data *rd = cosrod_sim_rod_data(sim, 0);
  w->nframes++;
  w->kin_max = fmax(w->kin_max, fabs(cosrod_sim_energy_now(sim).kinetic));
  int k = (int)lround(t);
  if (fabs(t - k) > 1e-9 || k < 0 || k > 2 || !d || !rd) return 0;
  double F[3], M[3];
  cosrod_contact_obstacle_wrench(d, 0, F, M);
  w->Ff[k] = F[2];
  if (k == 0) memcpy(w->x0, rd->x, sizeof w->x0);
  if (k == 2) memcpy(w->x2, rd->x, sizeof w->x2);
  w->seen |= 1 << k;
  return 0;
}

TEST(hose_lifted_and_laid_back_keyframes) {
  const double r = 0.01, L = 1.0, q = 1100 * PI * r * r * 9.81, EI = 5e6 * PI * r * r * r * r / 4;
  const double zg = 0.00985, dz = 0.02;
  char text[3000];
  snprintf(text, sizeof text,
           "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n  - name: hose\n    length: 1.0\n    segments: 40\n"
           "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n    section: {shape: circle, radius: 0.01}\n"
           "    shape: {type: straight, start: [0, 0, %.15g], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends:\n      end: {type: prescribed, position: [[0, 1, 0, %.15g], [1, 1, 0, %.15g], [2, 1, 0, %.15g]]}\n"
           "obstacles:\n  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\ncontact: {}\n"
           "analysis: {type: static, path: keyframes, increments: 40}\noutput: {every: 0.5}\n",
           zg, zg, zg + dz, zg);
  cosrod_scenario *sc = NULL;
  lift_watch w = {0};
  cosrod_sim_observer obs = {.frame = lift_frame, .user = &w};
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(text, "lift.yaml", NULL, 0, &obs, &sc, &st);
  CHECK("the keyframe path converges", sim && st == COSROD_OK && w.seen == 7);
  if (sim && st == COSROD_OK && w.seen == 7) {
    const double zrest = w.x0[3 * 4 + 2]; /* a vertex of the flat part at the start: the floor's rest height */
    const double H = zg + dz - zrest, l = pow(72 * EI * H / q, 0.25), Fg = q * L + w.Ff[1];
    NOTE("rest height %.9g m, lift H = %.6g m: lift-off length l = %.4g m, gripper %.6g N (2 q l / 3 = %.6g N)",
         zrest, H, l, Fg, 2 * q * l / 3);
    CHECK_NEAR("lifted: the gripper carries 2 q l / 3", Fg, 2 * q * l / 3, 0.02 * 2 * q * l / 3);
    double m = 0;
    for (int i = 0; i < 3 * 41; i++) m = fmax(m, fabs(w.x2[i] - w.x0[i]));
    NOTE("laid back: largest vertex distance from the start %.3g m; floor %.9g vs %.9g N", m, w.Ff[2], w.Ff[0]);
    CHECK("laid back: the starting equilibrium (no memory without friction)", m < 1e-7);
    CHECK_NEAR("laid back: the floor force of the start (keyframe rates are no velocities in statics)", w.Ff[2],
               w.Ff[0], 1e-9 * q * L);
    /* the static analysis's frames see the keyframe rates as zero: no kinetic energy (it was
     * ½ m_0 v² = 8.6e-7 J of the gripped end vertex at the pseudo-time rate 0.02 m/s) */
    NOTE("%d frames, max |kinetic energy| %.3g J", w.nframes, w.kin_max);
    CHECK("frames (every 0.5 of the keyframe time) written", w.nframes == 5);
    CHECK_NEAR("kinetic energy at every static frame", w.kin_max, 0.0, 0.0);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(propped_cantilever_static), TH_CASE(incline_held_by_static_friction),
                                TH_CASE(propped_cantilever_arc_length), TH_CASE(hose_lifted_and_laid_back_keyframes)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
