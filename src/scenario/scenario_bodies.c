// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: bodies (mass, inertia, pose, loads, keyframed motion) and
 * joints ([manual: scenario reference]). */
#include "scenario_internal.h"
#include "scenario_internal.h"
/* ---- bodies and joints ------------------------------------------------------ */

/* bodies.N.loads.K: {type: force|moment, value, frame: spatial|material,
 * at (force), ramp | active} */
static void read_body_load(ctx *c, ynode *m, cosrod_sc_body_load *ld) {
  static const char *const types[] = {"force", "moment", NULL};
  sc_expect_map(c, m, NULL, "type, value, frame, at");
  sc_check_section(c, m, "bodies.N.loads.K");
  ld->line = m->key_line;
  ld->type = (cosrod_sc_load_type)sc_to_enum(c, sc_require(c, m, "type", "force or moment"), "type", types);
  sc_to_vec(c, sc_require(c, m, "value", "vector [N] or [N m]"), "value", ld->value, 3, R_ANY);
  ynode *fr = sc_get(m, "frame");
  ld->frame = fr ? (cosrod_sc_frame)sc_to_enum(c, fr, "frame", SC_FRAME_NAMES) : COSROD_SC_FRAME_SPATIAL;
  if (ld->type == COSROD_SC_LOAD_FORCE) sc_vec(c, m, "at", ld->at, 3, R_ANY);
  ynode *rp = sc_get(m, "ramp"), *ac = sc_get(m, "active");
  if (rp && ac) sc_fail(c, ac, "active", "give either 'ramp' or 'active', not both");
  sc_read_profile(c, rp, ac, &ld->profile, &ld->t0, &ld->t1);
  sc_check_unused(c, m, "with this load type (a moment has no point)");
}

static void read_body(ctx *c, ynode *m, size_t index, cosrod_sc_body *b) {
  sc_expect_map(c, m, NULL, "a rigid body");
  sc_check_section(c, m, "bodies.N");
  b->line = m->key_line;
  ynode *v = sc_require(c, m, "name", "body name");
  sc_to_name(c, v, "name", b->name);
  if (!strcmp(b->name, "ground")) sc_fail(c, v, "name", "'ground' is reserved for fixed space");
  for (size_t i = 0; i < index; i++)
    if (!strcmp(c->sc->bodies[i].name, b->name)) sc_fail(c, v, "name", "duplicate body name '%s'", b->name);
  /* a body driven by keyframes is kinematic: mass and inertia optional
   * (unused; 0 when not given) */
  int kinematic = sc_get(m, "motion") != NULL;
  if (!kinematic || sc_get(m, "mass")) b->mass = sc_req_num(c, m, "mass", R_POS, "mass [kg]");
  v = kinematic ? sc_get(m, "inertia")
                : sc_require(c, m, "inertia", "principal moments [I1, I2, I3] about the centre of mass");
  if (v) sc_to_vec(c, v, "inertia", b->inertia, 3, R_POS);
  for (int k = 0; v && k < 3; k++) {
    double a = b->inertia[k], o = b->inertia[(k + 1) % 3] + b->inertia[(k + 2) % 3];
    if (a > o * (1.0 + 1e-12))
      sc_fail(c, v, "inertia", "violates the triangle inequality (I%d = %.6g > %.6g, the sum of the others)",
           k + 1, a, o);
  }
  sc_vec(c, m, "position", b->position, 3, R_ANY);
  sc_vec(c, m, "velocity", b->velocity, 3, R_ANY);
  sc_vec(c, m, "angular_velocity", b->angular_velocity, 3, R_ANY);
  b->quaternion[0] = 1.0;
  if ((v = sc_get(m, "orientation"))) {
    sc_push(c, "orientation");
    sc_expect_map(c, v, NULL, "quaternion: [q0, q1, q2, q3] or euler313: [phi, theta, psi]");
    sc_check_section(c, v, "bodies.N.orientation");
    ynode *q = sc_get(v, "quaternion"), *e = sc_get(v, "euler313");
    if (q && e) sc_fail(c, e, "euler313", "give either 'quaternion' or 'euler313', not both");
    if (!q && !e) sc_fail(c, v, "quaternion", "missing (or 'euler313')");
    if (q) {
      sc_to_vec(c, q, "quaternion", b->quaternion, 4, R_ANY);
      sc_unit_quat(c, q, "quaternion", b->quaternion);
    } else {
      sc_to_vec(c, e, "euler313", b->euler313, 3, R_ANY);
      b->orientation_euler = 1;
      double a = b->euler313[0] / 2, t = b->euler313[1] / 2, p = b->euler313[2] / 2;
      double qz1[4] = {cos(a), 0, 0, sin(a)}, qx[4] = {cos(t), sin(t), 0, 0}, qz2[4] = {cos(p), 0, 0, sin(p)};
      qmul(b->quaternion, qz1, qx);
      qmul(b->quaternion, b->quaternion, qz2);
    }
    sc_pop(c);
  }
  b->parametrisation = (cosrod_sc_parametrisation)((v = sc_get(m, "parametrisation"))
                                                        ? sc_to_enum(c, v, "parametrisation", SC_PARAM_NAMES)
                                                        : sc_key_default_enum("bodies.N.parametrisation",
                                                                              SC_PARAM_NAMES));
  if (b->parametrisation == COSROD_SC_PARAM_EULER_ANGLES) {
    /* 3-1-3 angles are singular where theta = 0 or pi, i.e. R33 = +-1. */
    const double *q = b->quaternion;
    double r33 = 1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2]);
    if (1.0 - fabs(r33) < 1e-12)
      sc_fail(c, v, "parametrisation", "euler-angles are at gimbal lock for this orientation (theta = 0 or pi)");
  }
  if ((v = sc_get(m, "motion"))) { /* driven by keyframes ([manual: rigid bodies]): as prescribed rod ends */
    static const char *const interp_names[] = {"linear", "cubic", NULL};
    sc_push(c, "motion");
    sc_expect_map(c, v, NULL, "position: [[t, x, y, z], ...] and/or orientation: [[t, q0, q1, q2, q3], ...]");
    sc_check_section(c, v, "bodies.N.motion");
    ynode *p = sc_get(v, "position"), *o = sc_get(v, "orientation"), *ip = sc_get(v, "interpolation");
    if (!p && !o) sc_fail(c, v, "position", "missing (a body motion needs position and/or orientation keyframes)");
    if (p) sc_read_keyframes(c, p, "position", 3, &b->motion_position);
    if (o) sc_read_keyframes(c, o, "orientation", 4, &b->motion_orientation);
    if (ip) b->motion_cubic = sc_to_enum(c, ip, "interpolation", interp_names) == 1;
    b->has_motion = 1;
    sc_pop(c);
  }
  ynode *ls = sc_get(m, "loads");
  if (ls) {
    if (b->has_motion) sc_fail(c, ls, "loads", "a body driven by 'motion' takes no loads");
    if (ls->kind != YN_SEQ) sc_fail(c, ls, "loads", "expected a list of loads, got %s", sc_kind_name(ls));
    sc_push(c, "loads");
    b->loads = sc_xcalloc(c, ls->n + 1, sizeof *b->loads);
    for (size_t i = 0; i < ls->n; i++) {
      sc_push_idx(c, i);
      read_body_load(c, ls->item[i], &b->loads[i]);
      b->nloads++;
      sc_pop(c);
    }
    sc_pop(c);
  }
}

void sc_read_bodies(ctx *c, ynode *root) {
  ynode *bs = sc_get(root, "bodies");
  if (!bs) return;
  if (bs->kind != YN_SEQ) sc_fail(c, bs, "bodies", "expected a list of bodies, got %s", sc_kind_name(bs));
  sc_push(c, "bodies");
  cosrod_scenario *sc = c->sc;
  sc->bodies = sc_xcalloc(c, bs->n, sizeof *sc->bodies);
  for (size_t i = 0; i < bs->n; i++) {
    sc_push_idx(c, i);
    sc->nbodies++; /* counted first: a failure inside still frees its loads */
    SC_TRY(c, read_body(c, bs->item[i], i, &sc->bodies[i])); /* entries are independent */
    sc_pop(c);
  }
  sc_pop(c);
}

static void read_joint(ctx *c, ynode *m, cosrod_sc_joint *j) {
  sc_expect_map(c, m, NULL, "a joint");
  sc_check_section(c, m, "joints.N");
  j->line = m->key_line;
  j->type = (cosrod_sc_joint_type)sc_to_enum(c, sc_require(c, m, "type", "joint type"), "type", SC_JOINT_NAMES);
  ynode *bs = sc_require(c, m, "bodies", "[a, b]; 'ground' is fixed space");
  if (bs->kind != YN_SEQ || bs->n != 2) sc_fail(c, bs, "bodies", "expected two body names [a, b]");
  sc_push(c, "bodies");
  j->body[0] = sc_body_index(c, bs->item[0], "0", 1);
  j->body[1] = sc_body_index(c, bs->item[1], "1", 1);
  sc_pop(c);
  if (j->body[0] == j->body[1])
    sc_fail(c, bs, "bodies", "a joint needs two different bodies (got '%s' twice)",
         j->body[0] < 0 ? "ground" : c->sc->bodies[j->body[0]].name);
  ynode *at = sc_get(m, "at");
  if (at) {
    if (at->kind != YN_SEQ || at->n != 2) sc_fail(c, at, "at", "expected two points [[x, y, z], [x, y, z]]");
    sc_push(c, "at");
    sc_to_vec(c, at->item[0], "0", j->at[0], 3, R_ANY);
    sc_to_vec(c, at->item[1], "1", j->at[1], 3, R_ANY);
    sc_pop(c);
  }
  if (j->type == COSROD_SC_JOINT_BUSHING) {
    j->stiffness = sc_req_num(c, m, "stiffness", R_POS, "spring constant [N/m]");
    j->damping = sc_num(c, m, "damping", sc_key_default_num("joints.N.damping"), R_NONNEG);
    j->stiffness_rot = sc_num(c, m, "stiffness_rot", sc_key_default_num("joints.N.stiffness_rot"), R_NONNEG);
    j->damping_rot = sc_num(c, m, "damping_rot", sc_key_default_num("joints.N.damping_rot"), R_NONNEG);
  } else if (j->type != COSROD_SC_JOINT_SPHERICAL && j->type != COSROD_SC_JOINT_FIXED) {
    sc_to_vec(c, sc_require(c, m, "axis", "joint axis in the first body's frame"), "axis", j->axis, 3, R_ANY);
    sc_unit_vec(c, m, "axis", j->axis);
    if (j->type == COSROD_SC_JOINT_UNIVERSAL) {
      sc_to_vec(c, sc_require(c, m, "axis2", "second axis in the second body's frame"), "axis2", j->axis2, 3,
                R_ANY);
      sc_unit_vec(c, m, "axis2", j->axis2);
    }
  }
  sc_check_unused(c, m, "with this joint type");
}

void sc_read_joints(ctx *c, ynode *root) {
  ynode *js = sc_get(root, "joints");
  if (!js) return;
  if (js->kind != YN_SEQ) sc_fail(c, js, "joints", "expected a list of joints, got %s", sc_kind_name(js));
  sc_push(c, "joints");
  cosrod_scenario *sc = c->sc;
  sc->joints = sc_xcalloc(c, js->n, sizeof *sc->joints);
  for (size_t i = 0; i < js->n; i++) {
    sc_push_idx(c, i);
    SC_TRY(c, read_joint(c, js->item[i], &sc->joints[i])); /* entries are independent */
    sc->njoints++;
    sc_pop(c);
  }
  sc_pop(c);
}
