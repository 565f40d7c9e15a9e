// SPDX-License-Identifier: Apache-2.0
/* Keyframe (assembly) paths with rods attached to bodies (static analysis,
 * `path: keyframes`, sim_couple_static.c, sim_static_arc.c):
 *  - a cantilever carried by a keyframe-driven body (translated and turned
 *    along three keyframe intervals) against the same rod with its end
 *    prescribed on the composed keyframes: the clamped end's frame is
 *    q_b(t) q_b(0)^-1 p_e(0) (sim_couple.c), and right multiplication by a
 *    fixed unit quaternion commutes with the keyframe interpolation, so both
 *    are the same boundary-value problem at every pseudo-time;
 *  - a free body hanging on a cable whose top is carried (moved, tilted and
 *    twisted) by a keyframe body: at every keyframe stop the hook holds the
 *    weights of body and cable, and the cable holds the body's weight;
 *  - control: arc-length with a free body: a body clamped to the tip of a
 *    cantilever under a large ramped body force ends, at load factor 1, in
 *    the equilibrium of the load-controlled run (the same equations at
 *    t = 1, both to the Newton tolerance). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

#define KP_NSEG 12
#define KP_MAXK 6
#define KP_G 9.81
#define KP_SQRT1_2 0.70710678118654752440

typedef struct kp_rec {
  int n;
  double t[KP_MAXK];
  double x[KP_MAXK][3 * (KP_NSEG + 1)];
  double R[KP_MAXK][12];
  double xb[KP_MAXK][2][3], qb[KP_MAXK][2][4];
  int nbodies;
} kp_rec;

/* keep the frames at integer pseudo-times (the keyframe stops) */
static int kp_frame(void *user, const cosrod_sim *sim, double t) {
  kp_rec *r = user;
  if (fabs(t - nearbyint(t)) > 1e-12 || r->n >= KP_MAXK) return 0;
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  r->t[r->n] = t;
  memcpy(r->x[r->n], d->x, sizeof r->x[0]);
  int sup[2];
  CHECK("reactions", cosrod_sim_reactions(sim, 0, r->R[r->n], sup) == COSROD_OK);
  for (int b = 0; b < r->nbodies; ++b)
    CHECK("body pose", cosrod_sim_body(sim, (size_t)b, r->xb[r->n][b], r->qb[r->n][b], NULL) == COSROD_OK);
  r->n++;
  return 0;
}

static int kp_run(const char *text, const char *name, const char *const *sets, size_t nsets, int nbodies,
                  kp_rec *r) {
  memset(r, 0, sizeof *r);
  r->nbodies = nbodies;
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(text, name, sets, nsets, &sc);
  if (!sim) return 0;
  cosrod_sim_observer obs = {kp_frame, NULL, r, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("static keyframe path ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s: %s", cosrod_status_name(st), cosrod_sim_message(sim));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

/* Body keyframe k = 0..3: position c_k, orientation about (0, 0.6, 0.8) by k·25°. */
static void kp_key(int k, double c[3], double q[4]) {
  static const double C[4][3] = {{0, 0, 0}, {0.2, 0.1, 0.15}, {0.35, -0.1, 0.3}, {0.4, 0.0, 0.1}};
  const double a = k * 25.0 * 3.14159265358979323846 / 180.0, s = sin(0.5 * a);
  memcpy(c, C[k], sizeof C[k]);
  q[0] = cos(0.5 * a), q[1] = 0.0, q[2] = 0.6 * s, q[3] = 0.8 * s;
}

/* Rubber cantilever (L = 1 m, r = 5 mm) along e1 under gravity and a tip
 * force, its start clamped to `hook` (%s: the ends.start value). */
static const char *CANT =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 12\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends:\n"
    "      start: %s\n"
    "    loads:\n"
    "      - {type: force, at: end, value: [0, 2.0e-3, 0]}\n"
    "%s"
    "analysis: {type: static, path: keyframes, increments: 12}\n";

TEST(keyframe_path_rod_carried_by_body_vs_prescribed_end) {
  /* the rod's initial start frame (d1, d2, d3) = (e3, -e2, e1) */
  const double p0[4] = {0.0, KP_SQRT1_2, 0.0, KP_SQRT1_2};
  char pos[512], rot[512], rotp[512];
  int np = 0, nr = 0, nrp = 0;
  np += snprintf(pos, sizeof pos, "[");
  nr += snprintf(rot, sizeof rot, "[");
  nrp += snprintf(rotp, sizeof rotp, "[");
  for (int k = 0; k < 4; ++k) {
    double c[3], q[4], qp[4];
    kp_key(k, c, q);
    cosrod_quat_mul(qp, q, p0);
    const char *sep = k ? ", " : "";
    np += snprintf(pos + np, sizeof pos - (size_t)np, "%s[%d, %.17g, %.17g, %.17g]", sep, k, c[0], c[1], c[2]);
    nr += snprintf(rot + nr, sizeof rot - (size_t)nr, "%s[%d, %.17g, %.17g, %.17g, %.17g]", sep, k, q[0], q[1], q[2],
                   q[3]);
    nrp += snprintf(rotp + nrp, sizeof rotp - (size_t)nrp, "%s[%d, %.17g, %.17g, %.17g, %.17g]", sep, k, qp[0],
                    qp[1], qp[2], qp[3]);
  }
  snprintf(pos + np, sizeof pos - (size_t)np, "]");
  snprintf(rot + nr, sizeof rot - (size_t)nr, "]");
  snprintf(rotp + nrp, sizeof rotp - (size_t)nrp, "]");
  char end_body[256], bodies[1400], end_pres[1400], text_b[4096], text_p[4096];
  snprintf(end_body, sizeof end_body, "{type: clamped, body: hook, at: [0, 0, 0]}");
  snprintf(bodies, sizeof bodies,
           "bodies:\n  - {name: hook, mass: 1, inertia: [1, 1, 1], position: [0, 0, 0],\n"
           "     motion: {position: %s, orientation: %s}}\n",
           pos, rot);
  snprintf(end_pres, sizeof end_pres, "{type: prescribed, position: %s, orientation: %s}", pos, rotp);
  snprintf(text_b, sizeof text_b, CANT, end_body, bodies);
  snprintf(text_p, sizeof text_p, CANT, end_pres, "");
  kp_rec a, b;
  if (!kp_run(text_b, "carried.yaml", NULL, 0, 1, &a) || !kp_run(text_p, "prescribed.yaml", NULL, 0, 0, &b)) return;
  CHECK("frames at t = 0, 1, 2, 3 (the body's keyframes are stops)", a.n == 4 && b.n == 4);
  if (a.n != 4 || b.n != 4) return;
  double dx = 0.0, dR = 0.0, Rs = 0.0;
  for (int k = 0; k < 4; ++k) {
    CHECK_NEAR("same stop times", a.t[k], b.t[k], 0.0);
    for (int i = 0; i < 3 * (KP_NSEG + 1); ++i) dx = fmax(dx, fabs(a.x[k][i] - b.x[k][i]));
    for (int i = 0; i < 6; ++i) {
      dR = fmax(dR, fabs(a.R[k][i] - b.R[k][i]));
      Rs = fmax(Rs, fabs(b.R[k][i]));
    }
    /* the hook sits at its keyframe pose at its keyframe times */
    double c[3], q[4];
    kp_key(k, c, q);
    for (int i = 0; i < 3; ++i) CHECK_NEAR("hook at its keyframe position", a.xb[k][0][i], c[i], 1e-14);
    CHECK_NEAR("hook at its keyframe orientation", fabs(cosrod_quat_dot(a.qb[k][0], q)), 1.0, 1e-14);
  }
  /* the rod has moved and turned with the hook (tip far from its t = 0 place) */
  const double *t0 = a.x[0] + 3 * KP_NSEG, *t3 = a.x[3] + 3 * KP_NSEG;
  const double moved = hypot(hypot(t3[0] - t0[0], t3[1] - t0[1]), t3[2] - t0[2]);
  NOTE("max |x_carried - x_prescribed| = %.3e m, max |R_carried - R_prescribed| = %.3e (scale %.3e); tip moved %.3f m",
       dx, dR, Rs, moved);
  CHECK("the tip moved along the path", moved > 0.3);
  /* the same equilibria to the Newton tolerance (1e-9 of the scales) */
  CHECK_NEAR("same shapes at every keyframe", dx, 0.0, 1e-9);
  CHECK_NEAR("same start reactions at every keyframe", dR, 0.0, 1e-9 * Rs);
}

/* A 2 kg body clamped to the lower end of a rubber cable whose top is
 * clamped to a keyframe hook that moves, tilts and twists (linear
 * keyframes at t = 0, 1, 2, 3). */
static const char *HANGK =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: cable\n"
    "    length: 1.0\n"
    "    segments: 12\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: hook, at: [0, 0, 0]}\n"
    "      end: {type: clamped, body: bob, at: [0, 0, 0.05]}\n"
    "bodies:\n"
    "  - name: hook\n"
    "    position: [0, 0, 0]\n"
    "    motion:\n"
    "      position: [[0, 0, 0, 0], [1, 0.3, 0, 0.1], [2, 0.3, 0.4, 0.2], [3, 0, 0.2, 0.5]]\n"
    "      orientation: [[0, 1, 0, 0, 0], [1, 0.9914448613738104, 0.13052619222005157, 0, 0],\n"
    "                    [2, 0.9659258262890683, 0, 0, 0.25881904510252074], [3, 1, 0, 0, 0]]\n"
    "  - {name: bob, mass: 2.0, inertia: [0.01, 0.01, 0.005], position: [0, 0, -1.05]}\n"
    "analysis: {type: static, path: keyframes, increments: 12}\n";

TEST(keyframe_path_body_hanging_from_moving_hook_equilibrium) {
  kp_rec r;
  if (!kp_run(HANGK, "hang-keyframes.yaml", NULL, 0, 2, &r)) return;
  CHECK("frames at t = 0, 1, 2, 3", r.n == 4);
  /* the cable's weight from its constants (lumped vertex masses sum to rhoA L) */
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(HANGK, "hang-keyframes.yaml", NULL, 0, &sc);
  if (!sim) return;
  double rhoA;
  cosrod_rod_constants(cosrod_sim_rod(sim, 0), NULL, NULL, NULL, NULL, &rhoA, NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  const double mb = 2.0, W = (mb + rhoA * 1.0) * KP_G, Wb = mb * KP_G;
  static const double hook[4][3] = {{0, 0, 0}, {0.3, 0, 0.1}, {0.3, 0.4, 0.2}, {0, 0.2, 0.5}};
  for (int k = 0; k < r.n; ++k) {
    const double *R = r.R[k];
    NOTE("t = %g: hook reaction (%.3e, %.3e, %.12g) N vs weights %.12g N; bob (%.6f, %.6f, %.6f), cable end force "
         "z %.12g vs -m_b g %.12g",
         r.t[k], R[0], R[1], R[2], W, r.xb[k][1][0], r.xb[k][1][1], r.xb[k][1][2], R[8], -Wb);
    /* global equilibrium to the Newton tolerance (1e-9 of the force scale) */
    CHECK_NEAR("hook holds no horizontal force (x)", R[0], 0.0, 1e-8 * W);
    CHECK_NEAR("hook holds no horizontal force (y)", R[1], 0.0, 1e-8 * W);
    CHECK_NEAR("hook holds the weights of body and cable", R[2], W, 1e-8 * W);
    /* the body is in equilibrium: it pulls the cable down by its weight */
    CHECK_NEAR("body pulls by its weight (x)", R[6], 0.0, 1e-8 * W);
    CHECK_NEAR("body pulls by its weight (y)", R[7], 0.0, 1e-8 * W);
    CHECK_NEAR("body pulls by its weight (z)", R[8], -Wb, 1e-8 * W);
    for (int i = 0; i < 3; ++i) CHECK_NEAR("hook at its keyframe", r.xb[k][0][i], hook[k][i], 1e-14);
    /* the body hangs below the hook (within the cable's bending length) */
    CHECK("body below the hook", r.xb[k][1][2] < hook[k][2] - 0.9);
  }
}

/* Rubber cantilever (L = 1 m, r = 1 cm, N = 20) clamped at the origin, a
 * 0.1 kg body clamped to its tip 5 cm beyond it, a downward body force of
 * 3 N ramped over [0, 1]: a large deflection (the tip drops by 0.96 m). */
static const char *CANTB =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: box, at: [-0.05, 0, 0]}\n"
    "bodies:\n"
    "  - {name: box, mass: 0.1, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [1.05, 0, 0],\n"
    "     loads: [{type: force, value: [0, 0, -3.0], ramp: [0, 1]}]}\n"
    "analysis: {type: static}\n";

typedef struct kp_last {
  double x[3 * 21], xb[3], qb[4], lambda;
  int frames, arc;
} kp_last;

static int kp_last_frame(void *user, const cosrod_sim *sim, double t) {
  kp_last *l = user;
  (void)t;
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  memcpy(l->x, d->x, sizeof l->x);
  cosrod_sim_body(sim, 0, l->xb, l->qb, NULL);
  l->arc = cosrod_sim_arc_step(sim, &l->lambda, NULL, NULL, NULL);
  l->frames++;
  return 0;
}

static int kp_run_last(const char *const *sets, size_t nsets, kp_last *l) {
  memset(l, 0, sizeof *l);
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(CANTB, "cantilever-body.yaml", sets, nsets, &sc);
  if (!sim) return 0;
  cosrod_sim_observer obs = {kp_last_frame, NULL, l, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("static run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s: %s", cosrod_status_name(st), cosrod_sim_message(sim));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

TEST(arc_length_body_on_cantilever_equals_load_control) {
  kp_last a, b;
  if (!kp_run_last((const char *const[]){"analysis.control=arc-length"}, 1, &a) || !kp_run_last(NULL, 0, &b)) return;
  CHECK("arc-length steps reported", a.arc == 1 && a.frames > 3);
  CHECK_NEAR("arc-length ends at load factor 1", a.lambda, 1.0, 1e-12);
  double dx = 0.0, dq = 0.0;
  for (int i = 0; i < 3 * 21; ++i) dx = fmax(dx, fabs(a.x[i] - b.x[i]));
  for (int i = 0; i < 3; ++i) dx = fmax(dx, fabs(a.xb[i] - b.xb[i]));
  dq = 1.0 - fabs(cosrod_quat_dot(a.qb, b.qb));
  NOTE("arc-length %d frames; body at (%.12g, %.12g, %.12g) vs load control (%.12g, %.12g, %.12g); max |dx| %.3e m, "
       "1 - |q_a . q_b| %.3e",
       a.frames, a.xb[0], a.xb[1], a.xb[2], b.xb[0], b.xb[1], b.xb[2], dx, dq);
  CHECK("large deflection (tip drops by more than half the length)", -b.x[3 * 20 + 2] > 0.5);
  /* both runs stop with the scaled residual below the Newton tolerance
   * (1e-9 of the force scale): the shapes agree to ~1e-9 of the length */
  CHECK_NEAR("same shape and body position", dx, 0.0, 1e-8);
  CHECK_NEAR("same body orientation", dq, 0.0, 1e-12);
}

static const th_case cases[] = {TH_CASE(keyframe_path_rod_carried_by_body_vs_prescribed_end),
                                TH_CASE(keyframe_path_body_hanging_from_moving_hook_equilibrium),
                                TH_CASE(arc_length_body_on_cantilever_equals_load_control)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
