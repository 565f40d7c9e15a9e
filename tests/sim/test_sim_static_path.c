// SPDX-License-Identifier: Apache-2.0
/* Static analyses (arc-length, keyframe paths) through the simulation driver:
 *  - path: keyframes (an assembly path): a cantilever whose clamped end is
 *    moved rigidly (translated and rotated along keyframes) under a follower
 *    tip force: the equilibrium is invariant under rigid motions, so at every
 *    keyframe time the shape is the t = 0 shape moved rigidly, x_n(t_k) =
 *    c_k + R_k x_n(0), and the support reaction is the rotated one
 *    (F_k = R_k F_0, M_k = R_k M_0); the force balances the tip force;
 *  - control: arc-length: the snap-through example runs through its limit
 *    point, reports it (cosrod_sim_critical), and the energy's gravity term
 *    of static frames is that of the gravity acting (ramp / load factor). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/sim.h"
#include "cosrod/vec3.h"
#include "harness.h"
#include "sim_test_util.h"

#define NSEG 20
#define PATH_PI 3.14159265358979323846
#define PATH_SQRT1_2 0.70710678118654752440
#define MAXK 8

typedef struct path_rec {
  int n;
  double t[MAXK];
  double x[MAXK][3 * (NSEG + 1)];
  double R[MAXK][12];
  double ptip[MAXK][4];
  long increments;
} path_rec;

static int path_frame(void *user, const cosrod_sim *sim, double t) {
  path_rec *r = user;
  /* keep the keyframe times only */
  if (fabs(t - nearbyint(t)) > 1e-12 || r->n >= MAXK) return 0;
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  r->t[r->n] = t;
  memcpy(r->x[r->n], d->x, sizeof r->x[0]);
  memcpy(r->ptip[r->n], d->p + 4 * (NSEG - 1), sizeof r->ptip[0]);
  int sup[2];
  CHECK("reactions", cosrod_sim_reactions(sim, 0, r->R[r->n], sup) == COSROD_OK);
  r->n++;
  return 0;
}

static int path_increment(void *user, const cosrod_sim *sim, double t, long it, double res) {
  (void)sim, (void)t, (void)it, (void)res;
  ((path_rec *)user)->increments++;
  return 0;
}

/* Rotation R_k of keyframe k: about (1, 1, 1)/√3 by k·60°. */
static void key_rotation(int k, double q[4]) {
  const double a = k * PATH_PI / 3.0, s = sin(0.5 * a) / sqrt(3.0);
  q[0] = cos(0.5 * a), q[1] = q[2] = q[3] = s;
}

TEST(keyframe_path_rigid_motion) {
  /* initial frame of the rod along e1 with d1 = e3: columns (e3, -e2, e1),
   * the quaternion (0, 1, 0, 1)/√2 */
  const double q0[4] = {0.0, PATH_SQRT1_2, 0.0, PATH_SQRT1_2};
  const double c[3][3] = {{0, 0, 0}, {0.2, -0.1, 0.3}, {0.5, 0.4, -0.2}};
  char pos[512], rot[512];
  int np = 0, nr = 0;
  np += snprintf(pos + np, sizeof pos - (size_t)np, "[");
  nr += snprintf(rot + nr, sizeof rot - (size_t)nr, "[");
  for (int k = 0; k < 3; ++k) {
    double qk[4], q[4];
    key_rotation(k, qk);
    cosrod_quat_mul(q, qk, q0);
    np += snprintf(pos + np, sizeof pos - (size_t)np, "%s[%d, %.17g, %.17g, %.17g]", k ? ", " : "", k,
                   c[k][0], c[k][1], c[k][2]);
    nr += snprintf(rot + nr, sizeof rot - (size_t)nr, "%s[%d, %.17g, %.17g, %.17g, %.17g]", k ? ", " : "", k,
                   q[0], q[1], q[2], q[3]);
  }
  snprintf(pos + np, sizeof pos - (size_t)np, "]");
  snprintf(rot + nr, sizeof rot - (size_t)nr, "]");
  char text[4096];
  snprintf(text, sizeof text,
           "cosrod: 1\n"
           "rods:\n"
           "  - name: cable\n"
           "    length: 1.0\n"
           "    segments: %d\n"
           "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
           "    section: {shape: circle, radius: 5.0e-3}\n"
           "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends:\n"
           "      start: {type: prescribed, position: %s, orientation: %s}\n"
           "    loads:\n"
           "      - {type: force, at: end, value: [1.0e-3, 0, 0], frame: material}\n"
           "analysis: {type: static, path: keyframes, increments: 16}\n",
           NSEG, pos, rot);
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, "keyframe-path.yaml", NULL, 0, &sc);
  if (!sim) return;
  CHECK_NEAR("t_end = last keyframe", sc->analysis.t_end, 2.0, 0.0);
  path_rec r;
  memset(&r, 0, sizeof r);
  cosrod_sim_observer obs = {path_frame, NULL, &r, NULL, path_increment};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  NOTE("run: %s (%s), %ld increments, %d keyframe frames", cosrod_status_name(st), cosrod_sim_message(sim),
       r.increments, r.n);
  CHECK("run ok", st == COSROD_OK);
  CHECK("frames at t = 0, 1, 2", r.n == 3 && r.t[0] == 0.0 && r.t[1] == 1.0 && r.t[2] == 2.0);
  if (r.n != 3) goto done;
  /* the t = 0 shape is bent (the follower force is at full value from t = 0) */
  double tipdefl = fabs(r.x[0][3 * NSEG + 2]);
  NOTE("tip deflection at t = 0: %.4f m", tipdefl);
  CHECK("bent at t = 0 (full load)", tipdefl > 0.05);
  for (int k = 1; k < 3; ++k) {
    double qk[4], dmax = 0.0;
    key_rotation(k, qk);
    for (int n = 0; n <= NSEG; ++n) {
      double want[3];
      cosrod_quat_rotate(want, qk, r.x[0] + 3 * n);
      cosrod_vec3_add(want, want, c[k]);
      double d[3];
      cosrod_vec3_sub(d, r.x[k] + 3 * n, want);
      dmax = fmax(dmax, cosrod_vec3_norm(d));
    }
    double F0[3], M0[3], dF[3], dM[3];
    cosrod_quat_rotate(F0, qk, r.R[0]);
    cosrod_quat_rotate(M0, qk, r.R[0] + 3);
    cosrod_vec3_sub(dF, r.R[k], F0);
    cosrod_vec3_sub(dM, r.R[k] + 3, M0);
    /* force balance: reaction + tip force R(p_tip) (1e-3, 0, 0) = 0 */
    double ftip[3], fl[3] = {1.0e-3, 0, 0}, bal[3];
    cosrod_quat_rotate(ftip, r.ptip[k], fl);
    cosrod_vec3_add(bal, r.R[k], ftip);
    NOTE(
        "keyframe %d: shape off the rigid motion by %.2e m, reaction force off by %.2e N, moment by %.2e N "
        "m, "
        "force balance %.2e N",
        k, dmax, cosrod_vec3_norm(dF), cosrod_vec3_norm(dM), cosrod_vec3_norm(bal));
    /* Newton tolerance 1e-9 of the force scale, on a compliance of
     * L³/(3EI) = 136 m/N: ~1e-10 m; bound 1e-7 m */
    CHECK_LE("shape = rigid motion of the t = 0 shape", dmax, 1e-7);
    CHECK_LE("reaction force rotates with the clamp", cosrod_vec3_norm(dF), 1e-9);
    CHECK_LE("reaction moment rotates with the clamp", cosrod_vec3_norm(dM), 1e-9);
    CHECK_LE("reaction balances the tip force", cosrod_vec3_norm(bal), 1e-9);
  }
done:
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* ---- arc-length through the driver ---------------------------------------- */

typedef struct arc_rec {
  long rows;
  double t_prev, lam_max, lam_last;
  int monotone_t, limit_rows, bad_energy;
  double gmax; /* max |gravity energy| */
} arc_rec;

static int arc_frame(void *user, const cosrod_sim *sim, double t) {
  arc_rec *r = user;
  double lf = 0.0, disp = 0.0;
  int idx = 0, crit = 0;
  CHECK("arc step info", cosrod_sim_arc_step(sim, &lf, &disp, &idx, &crit) == 1);
  if (r->rows > 0 && !(t > r->t_prev)) r->monotone_t = 0;
  r->t_prev = t;
  r->lam_max = fmax(r->lam_max, lf);
  r->lam_last = lf;
  if (crit == 1) r->limit_rows++;
  r->gmax = fmax(r->gmax, fabs(cosrod_sim_energy_now(sim).gravity));
  r->rows++;
  return 0;
}

TEST(arc_length_snap_through_example) {
  cosrod_scenario *sc = NULL;
  const char *sets[] = {"output.vtk=false"};
  cosrod_sim *sim = sim_test_load("snap-through", sets, 1, &sc);
  if (!sim) return;
  arc_rec r;
  memset(&r, 0, sizeof r);
  r.monotone_t = 1;
  cosrod_sim_observer obs = {arc_frame, NULL, &r, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  NOTE("run: %s, %ld frames, max load factor %.6f, last %.17g", cosrod_status_name(st), r.rows, r.lam_max,
       r.lam_last);
  CHECK("reaches load factor 1 on the far side", st == COSROD_OK && r.lam_last == 1.0);
  CHECK("pseudo-time (arc length) increases", r.monotone_t);
  CHECK("the load factor exceeds 1 nowhere", r.lam_max <= 1.0);
  CHECK("two limit points (maximum and minimum of the load)",
        cosrod_sim_ncritical(sim) == 2 && r.limit_rows == 2);
  const char *ty = NULL;
  double t = 0, lf = 0, d = 0;
  CHECK("first critical point", cosrod_sim_critical(sim, 0, &ty, &t, &lf, &d) == COSROD_OK);
  NOTE("first: %s at t = %.4f, load factor %.6f, displacement %.3f m", ty ? ty : "?", t, lf, d);
  CHECK("a limit point", ty && strcmp(ty, "limit") == 0);
  /* N = 40 limit of the arch, as in tests/statics/test_statics_arclen.c
   * (951.12 there with the same model) */
  CHECK_REL("P_cr at N = 40", lf * 1000.0, 951.12, 1e-4);
  CHECK_LE("no gravity: gravity energy 0", r.gmax, 0.0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* energy.csv of a static run with ramped gravity: the gravity energy at
 * pseudo-time t is t times that of the full weight at the same state
 * (-Σ m_n g·x_n), so a rod hanging from a pin has E_grav(t) = t m g z_c(t). */
static int grav_frame(void *user, const cosrod_sim *sim, double t) {
  double *worst = user;
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  const int N = cosrod_rod_nseg(rod);
  /* full-weight energy from the masses: rhoA * L / N per interior vertex, half at the ends */
  double ez = 0.0;
  const double m = 1100.0 * PATH_PI * 1e-4 * 1.0 / N;
  for (int n = 0; n <= N; ++n) ez += (n == 0 || n == N ? 0.5 : 1.0) * m * 9.81 * d->x[3 * n + 2];
  double want = fmin(fmax(t, 0.0), 1.0) * ez;
  double got = cosrod_sim_energy_now(sim).gravity;
  *worst = fmax(*worst, fabs(got - want) / fmax(fabs(ez), 1e-30));
  return 0;
}

TEST(static_gravity_energy_is_ramped) {
  const char *text =
      "cosrod: 1\n"
      "gravity: [0, 0, -9.81]\n"
      "rods:\n"
      "  - name: hose\n"
      "    length: 1.0\n"
      "    segments: 10\n"
      "    material: {E: 5.0e8, poisson: 0.5, density: 1100}\n"
      "    section: {shape: circle, radius: 1.0e-2}\n"
      "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
      "    ends:\n"
      "      start: {type: clamped}\n"
      "analysis: {type: static, increments: 4}\n";
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, "ramp.yaml", NULL, 0, &sc);
  if (!sim) return;
  double worst = 0.0;
  cosrod_sim_observer obs = {grav_frame, NULL, &worst, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  NOTE("run %s; worst |E_grav - t m g z| / |m g z| = %.2e", cosrod_status_name(st), worst);
  CHECK("run ok", st == COSROD_OK);
  CHECK_LE("gravity energy of the ramped weight", worst, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* control: arc-length with switch_branch: a straight clamped–free column
 * (rectangular section) under a dead end force 1.5 P_E: the run leaves the
 * straight path at the Euler load (a bifurcation point at load factor 1/1.5)
 * and ends at λ = 1 on the elastica, where the tip rotation α satisfies
 * (2 K(sin(α/2))/π)² = 1.5 (α = 1.722 rad; discretisation error at N = 40
 * ~1e-3 in P/P_E, i.e. ~3e-3 rad in α). */
TEST(arc_length_switch_branch_column) {
  const double E = 2.1e11, w = 6e-3, hgt = 5e-3, L = 1.0;
  const double EI = E * w * hgt * hgt * hgt / 12.0, PE = PATH_PI * PATH_PI * EI / (4.0 * L * L);
  char text[2048];
  snprintf(text, sizeof text,
           "cosrod: 1\n"
           "rods:\n"
           "  - name: column\n"
           "    length: 1.0\n"
           "    segments: 40\n"
           "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
           "    section: {shape: rectangle, width: 6.0e-3, height: 5.0e-3}\n"
           "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, 1], normal: [1, 0, 0]}\n"
           "    ends:\n"
           "      start: {type: clamped}\n"
           "    loads:\n"
           "      - {type: force, at: end, value: [0, 0, %.17g], frame: spatial}\n"
           "analysis: {type: static, control: arc-length, switch_branch: true}\n"
           "output: {vtk: false, plots: false}\n",
           -1.5 * PE);
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, "column.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  const char *ty = NULL;
  double t = 0, lf = 0, d = 0;
  int ok = cosrod_sim_ncritical(sim) >= 1 && cosrod_sim_critical(sim, 0, &ty, &t, &lf, &d) == COSROD_OK;
  const cosrod_rod_data *rd = cosrod_sim_rod_data(sim, 0);
  double d3[3], e3[3] = {0, 0, 1};
  cosrod_quat_rotate(d3, rd->p + 4 * 39, e3);
  double alpha = acos(fmax(-1.0, fmin(1.0, d3[2])));
  /* α of the elastica at P/P_E = 1.5: bisection on (2K(sin(α/2))/π)² */
  double lo = 0.1, hi = 3.0;
  for (int i = 0; i < 60; ++i) {
    double m = 0.5 * (lo + hi), k = sin(0.5 * m), a = 1.0, b = sqrt(1.0 - k * k);
    for (int j = 0; j < 40; ++j) {
      double an = 0.5 * (a + b);
      b = sqrt(a * b);
      a = an;
    }
    double ratio = pow(2.0 * (PATH_PI / (2.0 * a)) / PATH_PI, 2.0);
    if (ratio < 1.5)
      lo = m;
    else
      hi = m;
  }
  NOTE(
      "%s: first critical point %s at load factor %.6f (1/1.5 = %.6f); tip rotation at λ = 1: %.4f rad "
      "(elastica %.4f)",
      cosrod_status_name(st), ok && ty ? ty : "?", lf, 1.0 / 1.5, alpha, 0.5 * (lo + hi));
  CHECK("run ok", st == COSROD_OK);
  CHECK("a bifurcation point first", ok && ty && strcmp(ty, "bifurcation") == 0);
  CHECK_REL("at the Euler load", lf, 1.0 / 1.5, 5e-4);
  CHECK_NEAR("ends on the elastica", alpha, 0.5 * (lo + hi), 5e-3);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(keyframe_path_rigid_motion), TH_CASE(arc_length_snap_through_example),
                                TH_CASE(static_gravity_energy_is_ramped),
                                TH_CASE(arc_length_switch_branch_column)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
