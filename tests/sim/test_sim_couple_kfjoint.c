// SPDX-License-Identifier: Apache-2.0
/* Joints on bodies driven by motion keyframes in static analyses
 * (sim_couple_joint_static.c: the keyframe body is a prescribed side of the
 * joint's rows).  A 2 kg flap hangs on a revolute hinge (axis e2 of the
 * carrier) from a keyframe body `hook` that moves and tilts along a keyframe
 * path.  References at every stop: the flap hangs in the plane normal to the
 * hinge axis, straight below it (centre at hinge + d u, u the unit
 * projection of -e3 onto that plane); the joint force is the flap's weight
 * and its moment that of the weight about the hinge (global equilibrium);
 * the state equals the static analysis with the hook fixed at the stop's
 * pose. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81, MF = 2.0, D = 0.1;
#define NSTOP 3

/* Hook keyframe k: position and orientation (30° about e1, then 40° about (e1 + e2)/√2). */
static void hook_key(int k, double x[3], double q[4]) {
  static const double X[NSTOP][3] = {{0, 0, 0}, {0.3, 0, 0}, {0.3, 0.2, 0.1}};
  static const double A[NSTOP][3] = {{1, 0, 0}, {1, 0, 0}, {0.70710678118654752, 0.70710678118654752, 0}};
  static const double DEG[NSTOP] = {0.0, 30.0, 40.0};
  const double a = DEG[k] * 3.14159265358979323846 / 180.0;
  memcpy(x, X[k], sizeof X[k]);
  q[0] = cos(0.5 * a);
  for (int i = 0; i < 3; ++i) q[1 + i] = sin(0.5 * a) * A[k][i];
}

/* Scenario: a rod with a body (the sim needs rods; independent of the
 * flap), the hook (motion: hook_key at t = 0, 1, 2, or fixed at stop k) and
 * the flap hinged at the hook's origin, its centre D below the hinge when
 * the hook is at `k0`. */
static void scenario(char *buf, size_t n, int fixed, int k0) {
  char pos[400], rot[400];
  int np = snprintf(pos, sizeof pos, "["), nr = snprintf(rot, sizeof rot, "[");
  for (int k = 0; k < NSTOP; ++k) {
    double x[3], q[4];
    hook_key(fixed ? k0 : k, x, q);
    const char *sep = k ? ", " : "";
    np += snprintf(pos + np, sizeof pos - (size_t)np, "%s[%d, %.17g, %.17g, %.17g]", sep, k, x[0], x[1], x[2]);
    nr += snprintf(rot + nr, sizeof rot - (size_t)nr, "%s[%d, %.17g, %.17g, %.17g, %.17g]", sep, k, q[0], q[1], q[2],
                   q[3]);
  }
  snprintf(pos + np, sizeof pos - (size_t)np, "]");
  snprintf(rot + nr, sizeof rot - (size_t)nr, "]");
  double xh[3], qh[4], xf[3], down[3] = {0.0, 0.0, -D};
  hook_key(k0, xh, qh);
  cosrod_quat_rotate(xf, qh, down); /* the flap carried rigidly with the hook from its t = 0 pose */
  cosrod_vec3_add(xf, xf, xh);
  snprintf(buf, n,
           "cosrod: 1\n"
           "gravity: [0, 0, -9.81]\n"
           "rods:\n"
           "  - name: rod\n"
           "    length: 0.5\n"
           "    segments: 6\n"
           "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
           "    section: {shape: circle, radius: 5.0e-3}\n"
           "    shape: {type: straight, start: [1, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
           "    ends:\n"
           "      start: {type: clamped}\n"
           "      end: {type: clamped, body: bob, at: [0, 0, 0.05]}\n"
           "bodies:\n"
           "  - {name: bob, mass: 1.0, inertia: [0.01, 0.01, 0.005], position: [1, 0, -0.55]}\n"
           "  - {name: hook, mass: 1.0, inertia: [1, 1, 1], position: [%.17g, %.17g, %.17g],\n"
           "     orientation: {quaternion: [%.17g, %.17g, %.17g, %.17g]},\n"
           "     motion: {position: %s, orientation: %s}}\n"
           "  - {name: flap, mass: 2.0, inertia: [0.004, 0.006, 0.005], position: [%.17g, %.17g, %.17g],\n"
           "     orientation: {quaternion: [%.17g, %.17g, %.17g, %.17g]}}\n"
           "joints:\n"
           "  - {type: revolute, bodies: [hook, flap], at: [[0, 0, 0], [0, 0, 0.1]], axis: [0, 1, 0]}\n"
           "analysis: {type: static, %s}\n",
           xh[0], xh[1], xh[2], qh[0], qh[1], qh[2], qh[3], pos, rot, xf[0], xf[1], xf[2], qh[0], qh[1], qh[2], qh[3],
           fixed ? "increments: 8" : "path: keyframes, increments: 8");
}

typedef struct stops {
  int n;
  double t[NSTOP + 1], xf[NSTOP + 1][3], qf[NSTOP + 1][4], RJ[NSTOP + 1][6], R[NSTOP + 1][12];
  double tpick; /* < 0: every integer t; else only this t */
} stops;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  stops *s = user;
  if (fabs(t - nearbyint(t)) > 1e-12 || s->n > NSTOP || (s->tpick >= 0.0 && t != s->tpick)) return 0;
  s->t[s->n] = t;
  CHECK("flap pose", cosrod_sim_body(sim, 2, s->xf[s->n], s->qf[s->n], NULL) == COSROD_OK);
  CHECK("joint reactions", cosrod_sim_joint_reactions(sim, s->RJ[s->n]) == COSROD_OK);
  CHECK("rod reactions", cosrod_sim_reactions(sim, 0, s->R[s->n], NULL) == COSROD_OK);
  s->n++;
  return 0;
}

static int run(const char *text, const char *name, stops *s) {
  cosrod_sim_observer obs = {0};
  obs.frame = on_frame;
  obs.user = s;
  cosrod_scenario *sc;
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(text, name, NULL, 0, &obs, &sc, &st);
  if (!sim) return 0;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

TEST(hinged_flap_on_keyframe_body_along_path) {
  char text[4096];
  scenario(text, sizeof text, 0, 0);
  stops path = {0};
  path.tpick = -1.0;
  if (!run(text, "kfjoint.yaml", &path)) return;
  CHECK("a frame per stop", path.n == NSTOP);
  for (int k = 0; k < path.n && k < NSTOP; ++k) {
    double xh[3], qh[4], a[3], u[3], c[3], e2[3] = {0, 1, 0}, fz[3] = {0, 0, -MF * G}, m[3];
    hook_key(k, xh, qh);
    cosrod_quat_rotate(a, qh, e2); /* the hinge axis */
    u[0] = a[2] * a[0], u[1] = a[2] * a[1], u[2] = -1.0 + a[2] * a[2]; /* -e3 + (e3·a) a */
    cosrod_vec3_scale(u, 1.0 / cosrod_vec3_norm(u), u);
    cosrod_vec3_scale(c, D, u);
    cosrod_vec3_add(c, c, xh);
    cosrod_vec3_scale(m, D, u);
    cosrod_vec3_cross(m, m, fz);
    const double *xf = path.xf[k], *RJ = path.RJ[k];
    NOTE("stop t = %g: flap at (%.15g, %.15g, %.15g), closed form (%.15g, %.15g, %.15g); joint force (%.3g, %.3g, "
         "%.15g) N, moment (%.12g, %.12g, %.12g) / (%.12g, %.12g, %.12g) N m",
         path.t[k], xf[0], xf[1], xf[2], c[0], c[1], c[2], RJ[0], RJ[1], RJ[2], RJ[3], RJ[4], RJ[5], m[0], m[1], m[2]);
    CHECK_NEAR("stop at the keyframe time", path.t[k], (double)k, 1e-12);
    /* Newton tolerance 1e-9 of the forces: positions ~1e-11 m (measured 1e-14) */
    for (int i = 0; i < 3; ++i) CHECK_NEAR("flap hangs below the hinge, normal to its axis", xf[i], c[i], 1e-9);
    /* the joint force on the hook: the flap's weight (1e-8 of it) */
    CHECK_NEAR("joint force x", RJ[0], 0.0, 1e-8 * MF * G);
    CHECK_NEAR("joint force y", RJ[1], 0.0, 1e-8 * MF * G);
    CHECK_NEAR("joint force = flap weight", RJ[2], -MF * G, 1e-8 * MF * G);
    for (int i = 0; i < 3; ++i) CHECK_NEAR("joint moment = the weight's about the hinge", RJ[3 + i], m[i], 1e-8 * MF * G * D);
    CHECK_NEAR("the rod is not involved", path.R[k][2], (1.0 + 1100.0 * 3.14159265358979323846 * 25e-6 * 0.5) * G,
               1e-8 * 2.0 * G);
  }
  /* each stop equals the static analysis with the hook fixed there (the
   * flap starting carried rigidly from its t = 0 pose) */
  for (int k = 1; k < path.n && k < NSTOP; ++k) {
    scenario(text, sizeof text, 1, k);
    stops fix = {0};
    fix.tpick = 1.0;
    if (!run(text, "kfjoint-fixed.yaml", &fix) || fix.n != 1) continue;
    double dq = 0.0;
    for (int i = 0; i < 4; ++i) dq = fmax(dq, fabs(fabs(path.qf[k][i]) - fabs(fix.qf[0][i])));
    NOTE("stop %d: fixed-hook flap at (%.15g, %.15g, %.15g), |dq| %.3e", k, fix.xf[0][0], fix.xf[0][1], fix.xf[0][2], dq);
    for (int i = 0; i < 3; ++i) CHECK_NEAR("same flap position as the fixed hook", path.xf[k][i], fix.xf[0][i], 1e-9);
    CHECK_LE("same flap orientation as the fixed hook", dq, 1e-8);
    for (int i = 0; i < 6; ++i) CHECK_NEAR("same joint reaction", path.RJ[k][i], fix.RJ[0][i], 1e-8 * MF * G);
  }
}

/* Refused: the same joint in a dynamic run (start_from_equilibrium) — the
 * coupled statics of start_from_equilibrium take no joints on keyframe bodies — and, in a static
 * analysis, a joint that joins only ground and keyframe bodies. */
static void refused(const char *text, const char *set, const char *key, const char *sub) {
  sim_test_refused(text, "kf.yaml", set, key, sub);
}

TEST(keyframe_joint_refusals) {
  char text[4096];
  scenario(text, sizeof text, 0, 0);
  refused(text, "analysis={type: dynamic, t_end: 0.1, start_from_equilibrium: true}", "joints.0",
          "not supported with start_from_equilibrium yet");
  /* the hinge moved to hook-ground leaves the flap free: the loader refuses
   * the static analysis of the unsupported body first */
  const char *sets[] = {"joints.0.bodies=[hook, ground]"};
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, strlen(text), "kf.yaml", sets, 1, &st);
  NOTE("%s", cosrod_last_error());
  CHECK("the flap without its hinge: refused by the loader, naming it",
        st != COSROD_OK && strstr(cosrod_last_error(), "bodies.2: body 'flap' is not supported against rigid-body motion"));
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(hinged_flap_on_keyframe_body_along_path),
    TH_CASE(keyframe_joint_refusals),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
