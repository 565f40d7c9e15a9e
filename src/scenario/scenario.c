// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: YAML schema version 1 ([manual: scenario reference]) -> cosrod_scenario.
 *
 * Pipeline: read the file -> ynode tree (ynode.c, libyaml) -> apply
 * `--set key.path=value` overrides on the tree -> validate every key and
 * fill the plain description with defaults and derived constants:
 *   sections ([manual: theory]): circle A = pi r^2, I1 = I2 = pi r^4/4, J = pi r^4/2;
 *     rectangle A = w h, I1 = w h^3/12, I2 = h w^3/12, J = I1 + I2 (or given);
 *   stiffness C_Gamma = diag(k1 GA, k2 GA, EA), C_K = diag(EI1, EI2, GJ);
 *   Kelvin-Voigt ([LLT] eq. 4): V_Gamma = diag(tS k1GA, tS k2GA, tE EA),
 *     V_K = diag(tE EI1, tE EI2, tS GJ), tE = ((1-2nu) tB + 2(1+nu) tS)/3;
 *   [LLA] coefficients c give V = 2c (`convention: lla`);
 *   3-1-3 Euler angles -> quaternion q = qz(phi) qx(theta) qz(psi) ([L] §6).
 * The first problem found ends validation with one message
 * "FILE:LINE: key.path: problem"; the validator unwinds with longjmp to a
 * single exit point that frees everything (the tree, the partial scenario).
 * Unknown keys are errors with the nearest valid key suggested (optimal
 * string alignment distance). */
#include "scenario_contact.h"
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

static void read_bodies(ctx *c, ynode *root) {
  ynode *bs = sc_get(root, "bodies");
  if (!bs) return;
  if (bs->kind != YN_SEQ) sc_fail(c, bs, "bodies", "expected a list of bodies, got %s", sc_kind_name(bs));
  sc_push(c, "bodies");
  cosrod_scenario *sc = c->sc;
  sc->bodies = sc_xcalloc(c, bs->n, sizeof *sc->bodies);
  for (size_t i = 0; i < bs->n; i++) {
    sc_push_idx(c, i);
    sc->nbodies++; /* counted first: a failure inside still frees its loads */
    read_body(c, bs->item[i], i, &sc->bodies[i]);
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

static void read_joints(ctx *c, ynode *root) {
  ynode *js = sc_get(root, "joints");
  if (!js) return;
  if (js->kind != YN_SEQ) sc_fail(c, js, "joints", "expected a list of joints, got %s", sc_kind_name(js));
  sc_push(c, "joints");
  cosrod_scenario *sc = c->sc;
  sc->joints = sc_xcalloc(c, js->n, sizeof *sc->joints);
  for (size_t i = 0; i < js->n; i++) {
    sc_push_idx(c, i);
    read_joint(c, js->item[i], &sc->joints[i]);
    sc->njoints++;
    sc_pop(c);
  }
  sc_pop(c);
}

/* ---- analysis, solver, output --------------------------------------------- */

static void read_analysis(ctx *c, ynode *root) {
  cosrod_sc_analysis *a = &c->sc->analysis;
  ynode *m = sc_require(c, root, "analysis", "{type: dynamic, t_end: ...}");
  sc_push(c, "analysis");
  sc_expect_map(c, m, NULL, "type: dynamic | static | modes | buckling");
  sc_check_section(c, m, "analysis");
  a->line = m->key_line;
  ynode *v = sc_get(m, "type");
  a->type = (cosrod_sc_analysis_type)(v ? sc_to_enum(c, v, "type", SC_ANALYSIS_NAMES)
                                         : sc_key_default_enum("analysis.type", SC_ANALYSIS_NAMES));
  a->increments = (long)sc_key_default_num("analysis.increments");
  a->count = (long)sc_key_default_num("analysis.count");
  a->t_end = 1.0;
  if (a->type == COSROD_SC_ANALYSIS_DYNAMIC) {
    a->t_end = sc_req_num(c, m, "t_end", R_POS, "final time [s]");
    if ((v = sc_get(m, "start_from_equilibrium")))
      a->start_from_equilibrium = sc_to_bool(c, v, "start_from_equilibrium");
    sc_check_unused(c, m, "with type: dynamic");
  } else if (a->type == COSROD_SC_ANALYSIS_STATIC) {
    if ((v = sc_get(m, "increments"))) a->increments = sc_to_int(c, v, "increments", 1, 10000000);
    if ((v = sc_get(m, "gravity"))) {
      static const char *const gnames[] = {"ramp", "constant", NULL};
      a->gravity_constant = sc_to_enum(c, v, "gravity", gnames);
    }
    sc_read_static_control(c, m); /* control: arc-length, path: keyframes (scenario_static.c) */
    sc_check_unused(c, m, "with type: static (pseudo-time runs over [0, 1])");
  } else if (a->type == COSROD_SC_ANALYSIS_BUCKLING) {
    a->count = 3;
    if ((v = sc_get(m, "count"))) a->count = sc_to_int(c, v, "count", 1, 1000);
    sc_check_unused(c, m, "with type: buckling");
  } else {
    if ((v = sc_get(m, "count"))) a->count = sc_to_int(c, v, "count", 1, 1000000);
    sc_check_unused(c, m, "with type: modes");
  }
  sc_pop(c);
}

static void read_solver(ctx *c, ynode *root) {
  cosrod_sc_solver *s = &c->sc->solver;
  /* the defaults of the key table (scenario_keys.c) */
  s->formulation = (cosrod_sc_formulation)sc_key_default_enum("solver.formulation", SC_FORMULATION_NAMES);
  s->stabilisation = (cosrod_sc_stabilisation)sc_key_default_enum("solver.stabilisation", SC_STAB_NAMES);
  s->integrator = (cosrod_sc_integrator)sc_key_default_enum("solver.integrator", SC_INTEGRATOR_NAMES);
  s->linear_solver = (cosrod_sc_linear_solver)sc_key_default_enum("solver.linear_solver", SC_LINSOLVE_NAMES);
  s->baumgarte_omega = sc_key_default_num("solver.baumgarte.omega");
  s->baumgarte_r = sc_key_default_num("solver.baumgarte.r");
  s->rtol = sc_key_default_num("solver.rtol");
  s->atol = sc_key_default_num("solver.atol");
  s->h0 = sc_key_default_num("solver.h0");
  s->hmax = sc_key_default_num("solver.hmax");
  s->rho_inf = sc_key_default_num("solver.rho_inf");
  s->h = sc_key_default_num("solver.h");
  s->max_steps = (long)sc_key_default_num("solver.max_steps");
  ynode *m = sc_get(root, "solver");
  if (!m) return;
  sc_push(c, "solver");
  sc_expect_map(c, m, NULL, "formulation, integrator, rtol, ...");
  sc_check_section(c, m, "solver");
  s->line = m->key_line;
  ynode *v;
  if ((v = sc_get(m, "formulation")))
    s->formulation = (cosrod_sc_formulation)sc_to_enum(c, v, "formulation", SC_FORMULATION_NAMES);
  if ((v = sc_get(m, "stabilisation")))
    s->stabilisation = (cosrod_sc_stabilisation)sc_to_enum(c, v, "stabilisation", SC_STAB_NAMES);
  ynode *vi = sc_get(m, "integrator");
  if (vi) s->integrator = (cosrod_sc_integrator)sc_to_enum(c, vi, "integrator", SC_INTEGRATOR_NAMES);
  if ((v = sc_get(m, "baumgarte"))) {
    /* Accepted (and validated) with any stabilisation, so that switching
     * with --set solver.stabilisation=... keeps a file valid. */
    sc_push(c, "baumgarte");
    sc_expect_map(c, v, NULL, "omega, r");
    sc_check_section(c, v, "solver.baumgarte");
    s->baumgarte_omega = sc_num(c, v, "omega", s->baumgarte_omega, R_POS);
    s->baumgarte_r = sc_num(c, v, "r", s->baumgarte_r, R_NONNEG);
    sc_pop(c);
  }
  s->rtol = sc_num(c, m, "rtol", s->rtol, R_POS);
  if (s->rtol >= 1.0) sc_fail(c, sc_get(m, "rtol"), "rtol", "must be < 1 (got %.15g)", s->rtol);
  s->atol = sc_num(c, m, "atol", s->atol, R_POS);
  s->h0 = sc_num(c, m, "h0", s->h0, R_NONNEG);
  s->hmax = sc_num(c, m, "hmax", s->hmax, R_NONNEG);
  if (s->hmax > 0 && s->h0 > s->hmax)
    sc_fail(c, sc_get(m, "h0"), "h0", "initial step %.15g is larger than hmax = %.15g", s->h0, s->hmax);
  if ((v = sc_get(m, "max_steps"))) s->max_steps = sc_to_int(c, v, "max_steps", 1, 1000000000000L);
  s->rho_inf = sc_num(c, m, "rho_inf", s->rho_inf, R_NONNEG);
  if (s->rho_inf > 1.0) sc_fail(c, sc_get(m, "rho_inf"), "rho_inf", "must be in [0, 1] (got %.15g)", s->rho_inf);
  s->h = sc_num(c, m, "h", s->h, R_NONNEG);
  if ((v = sc_get(m, "linear_solver")))
    s->linear_solver = (cosrod_sc_linear_solver)sc_to_enum(c, v, "linear_solver", SC_LINSOLVE_NAMES);
  if (s->h > 0.0 && s->integrator != COSROD_SC_INTEGRATOR_GALPHA)
    sc_fail(c, sc_get(m, "h"), "h", "a fixed step needs integrator: galpha (got %s)",
            SC_INTEGRATOR_NAMES[s->integrator]);
  if (s->formulation == COSROD_SC_FORMULATION_DAE &&
      (s->integrator == COSROD_SC_INTEGRATOR_DOPRI5 || s->integrator == COSROD_SC_INTEGRATOR_DOP853 ||
       s->integrator == COSROD_SC_INTEGRATOR_CVODE || s->integrator == COSROD_SC_INTEGRATOR_ODEX))
    sc_fail(c, vi ? vi : m, "integrator",
         "%s cannot solve the index-1 DAE of formulation: dae (use radau5, rodas, seulex or ida)",
         SC_INTEGRATOR_NAMES[s->integrator]);
  /* the SUNDIALS multistep methods have no projection step: an absolute run
   * would let |p| drift silently ([LA] eq. 27 is the projection it lacks) */
  if (s->formulation == COSROD_SC_FORMULATION_ABSOLUTE && s->stabilisation == COSROD_SC_STAB_PROJECTION &&
      (s->integrator == COSROD_SC_INTEGRATOR_IDA || s->integrator == COSROD_SC_INTEGRATOR_CVODE))
    sc_fail(c, vi ? vi : m, "integrator",
            "%s (a multistep method) cannot project the quaternions of formulation: absolute back to |p| = 1 "
            "(use stabilisation: baumgarte, formulation: nullspace or dae, or a one-step method)",
            SC_INTEGRATOR_NAMES[s->integrator]);
  sc_pop(c);
}

static void read_output(ctx *c, ynode *root) {
  static const char *const field_names[] = {"tip",    "centerline", "frames", "strains", "curvatures",
                                            "energy", "steps",      "reactions", NULL};
  cosrod_sc_output *o = &c->sc->output;
  const cosrod_sc_analysis *a = &c->sc->analysis;
  double every = a->type == COSROD_SC_ANALYSIS_STATIC ? a->t_end / (double)a->increments : a->t_end / 100.0;
  o->vtk = sc_key_default_bool("output.vtk");
  o->plots = sc_key_default_bool("output.plots");
  o->fields = COSROD_SC_FIELDS_DEFAULT;
  ynode *m = sc_get(root, "output");
  const char *dir = sc_key_default_str("output.dir");
  if (m) {
    sc_push(c, "output");
    sc_expect_map(c, m, NULL, "dir, every, vtk, plots");
    sc_check_section(c, m, "output");
    o->line = m->key_line;
    ynode *v;
    if ((v = sc_get(m, "dir"))) {
      dir = sc_to_str(c, v, "dir");
      if (!dir[0]) sc_fail(c, v, "dir", "must not be empty");
    }
    double every_default = every;
    every = sc_num(c, m, "every", every, R_POS);
    /* static runs: output pseudo-times finer than the nominal increment 1/K (typically a
     * dynamic file's every in seconds, 0.01 = 100 extra landing solves) fall back to the
     * static default, a frame per nominal increment */
    if (a->type == COSROD_SC_ANALYSIS_STATIC && every < every_default * (1.0 - 1e-9)) every = every_default;
    if ((v = sc_get(m, "vtk"))) o->vtk = sc_to_bool(c, v, "vtk");
    if ((v = sc_get(m, "plots"))) o->plots = sc_to_bool(c, v, "plots");
    if ((v = sc_get(m, "fields"))) {
      if (v->kind != YN_SEQ)
        sc_fail(c, v, "fields", "expected a list of [tip, centerline, frames, strains, curvatures, energy, steps, reactions]");
      if (v->n == 0) sc_fail(c, v, "fields", "must name at least one field");
      o->fields = 0;
      for (size_t i = 0; i < v->n; i++) o->fields |= 1u << sc_to_enum(c, v->item[i], "fields", field_names);
    }
    if ((v = sc_get(m, "steps")) && !sc_to_bool(c, v, "steps")) o->fields &= ~(unsigned)COSROD_SC_FIELD_STEPS;
    sc_pop(c);
  }
  o->every = every;
  o->dir = sc_xstrdup(c, dir);
}

/* ---- --set overrides -------------------------------------------------------- */

static int all_digits(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s)) return 0;
  return 1;
}

/* Stands for "the command line" in error reports (line 0). */
static const ynode CMDLINE_NODE = {YN_SCALAR, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL};

/* Apply one "key.path=value" to the tree; returns 0 or fails via ctx. */
static void apply_set(ctx *c, ynode **rootp, const char *set) {
  const char *eq = strchr(set, '=');
  char keypath[PATH_MAX_LEN];
  if (!eq || eq == set) {
    snprintf(keypath, sizeof keypath, "%.200s", set);
    sc_sanitize(keypath);
    if (c->err && c->errlen)
      snprintf(c->err, c->errlen, "--set %s: expects key.path=value", keypath[0] ? keypath : "(set)");
    c->status = COSROD_ERR_PARSE;
    longjmp(c->jb, 1);
  }
  size_t kl = (size_t)(eq - set);
  if (kl >= sizeof keypath) kl = sizeof keypath - 1;
  memcpy(keypath, set, kl);
  keypath[kl] = '\0';
  /* split into components */
  char *comp[PATH_DEPTH];
  int nc = 0;
  for (char *p = keypath;;) {
    char *dot = strchr(p, '.');
    if (dot) *dot = '\0';
    if (!*p || nc >= PATH_DEPTH) {
      char shown[PATH_MAX_LEN];
      snprintf(shown, sizeof shown, "%.*s", (int)kl, set);
      strcpy(c->path, "");
      sc_sanitize(shown);
      if (c->err && c->errlen)
        snprintf(c->err, c->errlen, "--set %s: malformed key path", shown);
      c->status = COSROD_ERR_PARSE;
      longjmp(c->jb, 1);
    }
    comp[nc++] = p;
    if (!dot) break;
    p = dot + 1;
  }
  /* parse the value as YAML */
  ynode *val = NULL;
  char msg[400];
  const char *vtext = eq + 1;
  c->path[0] = '\0';
  c->depth = 0;
  for (int i = 0; i < nc; i++) sc_push(c, comp[i]);
  if (yn_parse(vtext, strlen(vtext), 1, &val, msg, sizeof msg)) {
    const char *problem = strrchr(msg, '\t');
    sc_fail(c, &CMDLINE_NODE, NULL, "bad value: %s", problem ? problem + 1 : msg);
  }
  if (!val) val = yn_scalar("", 0, 0);
  if (!val) sc_nomem(c);
  val->null = val->kind == YN_SCALAR && !val->quoted && val->len == 0 ? 1 : val->null;
  val->line = val->key_line = 0;
  if (!*rootp) {
    *rootp = yn_new(YN_MAP, 0);
    if (!*rootp) {
      yn_free(val);
      sc_nomem(c);
    }
  }
  ynode *cur = *rootp;
  for (int i = 0; i < nc; i++) {
    int last = i == nc - 1;
    ynode **slot = NULL;
    if (cur->kind == YN_MAP) {
      yentry *e = yn_find(cur, comp[i]);
      if (!e) {
        ynode *k = yn_scalar(comp[i], strlen(comp[i]), 0);
        if (!k || yn_map_add(cur, k, NULL)) {
          yn_free(k);
          yn_free(val);
          sc_nomem(c);
        }
        e = &cur->ent[cur->n - 1];
      }
      slot = &e->val;
    } else if (cur->kind == YN_SEQ && all_digits(comp[i]) && strlen(comp[i]) < 10 &&
               (size_t)atol(comp[i]) <= cur->n) {
      size_t idx = (size_t)atol(comp[i]);
      if (idx == cur->n) {
        if (yn_seq_add(cur, NULL)) {
          yn_free(val);
          sc_nomem(c);
        }
      }
      slot = &cur->item[idx];
    } else {
      yn_free(val);
      c->path[c->plen[i]] = '\0'; /* path up to the container */
      c->depth = i;
      if (cur->kind == YN_SEQ)
        sc_fail(c, &CMDLINE_NODE, comp[i],
                "no such list index (the list has %zu item%s: use 0..%zu to change one, or %zu to append one)",
                cur->n, cur->n == 1 ? "" : "s", cur->n ? cur->n - 1 : 0, cur->n);
      sc_fail(c, &CMDLINE_NODE, comp[i], "cannot set a key below a scalar value");
    }
    if (last) {
      yn_free(*slot);
      *slot = val;
      return;
    }
    if (!*slot || ((*slot)->kind == YN_SCALAR && (*slot)->null)) {
      yn_free(*slot);
      *slot = yn_new(all_digits(comp[i + 1]) ? YN_SEQ : YN_MAP, 0);
      if (!*slot) {
        yn_free(val);
        sc_nomem(c);
      }
    }
    cur = *slot;
  }
}

/* ---- line table --------------------------------------------------------------- */

static void lines_add(ctx *c, cosrod_sc_lines *L, const char *path, int line) {
  if (L->n == L->cap) {
    size_t nc = L->cap ? 2 * L->cap : 64;
    char **p = realloc(L->path, nc * sizeof *p);
    if (!p) sc_nomem(c);
    L->path = p;
    int *l = realloc(L->line, nc * sizeof *l);
    if (!l) sc_nomem(c);
    L->line = l;
    L->cap = nc;
  }
  L->path[L->n] = sc_xstrdup(c, path);
  L->line[L->n] = line;
  L->n++;
}

/* Record every mapping key and every container item (not scalar list items). */
static void lines_walk(ctx *c, cosrod_sc_lines *L, const ynode *n) {
  if (n->kind == YN_MAP) {
    for (size_t i = 0; i < n->n; i++) {
      sc_push(c, n->ent[i].key->str);
      lines_add(c, L, c->path, n->ent[i].key->line);
      if (n->ent[i].val) lines_walk(c, L, n->ent[i].val);
      sc_pop(c);
    }
  } else if (n->kind == YN_SEQ) {
    for (size_t i = 0; i < n->n; i++) {
      if (!n->item[i] || n->item[i]->kind == YN_SCALAR) continue;
      sc_push_idx(c, i);
      lines_add(c, L, c->path, n->item[i]->line);
      lines_walk(c, L, n->item[i]);
      sc_pop(c);
    }
  }
}

static void lines_free(cosrod_sc_lines *L) {
  if (!L) return;
  for (size_t i = 0; i < L->n; i++) free(L->path[i]);
  free(L->path);
  free(L->line);
  free(L);
}

int cosrod_scenario_line(const cosrod_scenario *sc, const char *key_path) {
  if (!sc || !sc->lines_ || !key_path) return 0;
  char p[PATH_MAX_LEN];
  snprintf(p, sizeof p, "%s", key_path);
  for (;;) {
    for (size_t i = 0; i < sc->lines_->n; i++)
      if (!strcmp(sc->lines_->path[i], p)) return sc->lines_->line[i];
    char *dot = strrchr(p, '.');
    if (!dot) return 0;
    *dot = '\0';
  }
}

int cosrod_scenario_format_error(const cosrod_scenario *sc, const char *key_path, const char *problem,
                                 char *buf, size_t buflen) {
  int line = cosrod_scenario_line(sc, key_path);
  return snprintf(buf, buflen, "%s:%d: %s: %s", sc && sc->file ? sc->file : "?", line,
                  key_path ? key_path : "(root)", problem ? problem : "");
}

/* ---- entry points --------------------------------------------------------------- */

void cosrod_scenario_free(cosrod_scenario *sc) {
  if (!sc) return;
  for (size_t i = 0; i < sc->nrods; i++) {
    cosrod_sc_rod *r = &sc->rods[i];
    free(r->grid);
    free(r->loads);
    free(r->shape.points);
    for (int k = 0; k < 2; k++) {
      free(r->ends[k].position.t);
      free(r->ends[k].position.values);
      free(r->ends[k].orientation.t);
      free(r->ends[k].orientation.values);
    }
  }
  free(sc->rods);
  free(sc->materials);
  for (size_t i = 0; sc->bodies && i < sc->nbodies; i++) {
    free(sc->bodies[i].loads);
    free(sc->bodies[i].motion_position.t);
    free(sc->bodies[i].motion_position.values);
    free(sc->bodies[i].motion_orientation.t);
    free(sc->bodies[i].motion_orientation.values);
  }
  free(sc->bodies);
  free(sc->joints);
  cosrod_sc_contact_clear(&sc->contact);
  free(sc->output.dir);
  free(sc->title);
  free(sc->file);
  lines_free(sc->lines_);
  free(sc);
}

static void validate(ctx *c, ynode *root) {
  cosrod_scenario *sc = c->sc;
  if (!root) sc_fail(c, NULL, NULL, "empty file (a scenario starts with 'cosrod: 1')");
  if (root->kind != YN_MAP)
    sc_fail(c, root, NULL, "expected a mapping of scenario keys, got %s", sc_kind_name(root));
  sc_check_section(c, root, "");
  ynode *v = sc_require(c, root, "cosrod", "schema version: cosrod: 1");
  sc->version = (int)sc_to_int(c, v, "cosrod", 0, 1000000);
  if (sc->version != COSROD_SC_SCHEMA_VERSION)
    sc_fail(c, v, "cosrod", "unsupported schema version %d (this cosrod reads version %d)", sc->version,
         COSROD_SC_SCHEMA_VERSION);
  sc->title = sc_xstrdup(c, (v = sc_get(root, "title")) ? sc_to_str(c, v, "title") : "");
  sc_sanitize(sc->title);
  sc_vec(c, root, "gravity", sc->gravity, 3, R_ANY);
  sc_read_materials(c, root);
  read_analysis(c, root);
  read_bodies(c, root);
  sc_read_contact(c, root); /* obstacles:, contact:, bodies.N.shape (scenario_contact.c) */
  sc_read_rods(c, root);
  sc_check_static_path(c, root); /* path: keyframes sets t_end from the rods' keyframes */
  read_joints(c, root);
  sc_check_static_support(c, root); /* static: every part held against rigid-body motion */
  read_solver(c, root);
  read_output(c, root);
  if (sc->nrods == 0 && sc->nbodies == 0) sc_fail(c, root, NULL, "nothing to simulate: no rods and no bodies");
  /* a rod end attached to a body is checked above; record key lines */
  sc->lines_ = sc_xcalloc(c, 1, sizeof *sc->lines_);
  c->path[0] = '\0';
  c->depth = 0;
  lines_walk(c, sc->lines_, root);
}

/* The only function that calls setjmp: everything it must free lives in c. */
static cosrod_status run(ctx *c, ynode **rootp, const char *const *sets, size_t nsets) {
  if (setjmp(c->jb)) return c->status;
  for (size_t i = 0; i < nsets; i++) {
    c->path[0] = '\0';
    c->depth = 0;
    if (sets[i]) apply_set(c, rootp, sets[i]);
  }
  c->path[0] = '\0';
  c->depth = 0;
  validate(c, *rootp);
  return COSROD_OK;
}

cosrod_status cosrod_scenario_parse(const char *text, size_t len, const char *file, const char *const *sets,
                                    size_t nsets, cosrod_scenario **out, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out) return COSROD_ERR_INVALID;
  *out = NULL;
  if (!file) file = "<input>";
  if (!text && len) return COSROD_ERR_INVALID;
  ynode *root = NULL;
  char msg[600];
  if (yn_parse(text ? text : "", len, 0, &root, msg, sizeof msg)) {
    /* msg is "LINE\tPATH\tPROBLEM" */
    int line = atoi(msg);
    char *t1 = strchr(msg, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (t1 && t2) {
      *t2 = '\0';
      if (err && errlen) {
        snprintf(err, errlen, "%s:%d: %s: %s", file, line, t1 + 1, t2 + 1);
        sc_sanitize(err);
      }
    } else if (err && errlen) {
      snprintf(err, errlen, "%s:%d: (root): %s", file, line, msg);
      sc_sanitize(err);
    }
    return strstr(t2 ? t2 + 1 : msg, "out of memory") ? COSROD_ERR_NOMEM : COSROD_ERR_PARSE;
  }
  ctx *c = calloc(1, sizeof *c);
  cosrod_scenario *sc = calloc(1, sizeof *sc);
  char *fname = malloc(strlen(file) + 1);
  if (!c || !sc || !fname) {
    free(c);
    free(sc);
    free(fname);
    yn_free(root);
    if (err && errlen) snprintf(err, errlen, "%s:0: (root): out of memory", file);
    return COSROD_ERR_NOMEM;
  }
  strcpy(fname, file);
  sc->file = fname;
  c->file = file;
  c->err = err;
  c->errlen = errlen;
  c->sc = sc;
  cosrod_status st = run(c, &root, sets, nsets);
  yn_free(root);
  free(c);
  if (st != COSROD_OK) {
    cosrod_scenario_free(sc);
    return st;
  }
  *out = sc;
  return COSROD_OK;
}

cosrod_status cosrod_scenario_load(const char *path, const char *const *sets, size_t nsets,
                                   cosrod_scenario **out, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out || !path) return COSROD_ERR_INVALID;
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err && errlen) snprintf(err, errlen, "%s:0: (file): cannot open: %s", path, strerror(errno));
    return COSROD_ERR_IO;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  if (!buf) {
    fclose(f);
    if (err && errlen) snprintf(err, errlen, "%s:0: (file): out of memory", path);
    return COSROD_ERR_NOMEM;
  }
  for (;;) {
    if (len == cap) {
      if (cap >= (size_t)COSROD_SC_MAX_FILE_SIZE) {
        free(buf);
        fclose(f);
        if (err && errlen)
          snprintf(err, errlen, "%s:0: (file): larger than %ld bytes", path, COSROD_SC_MAX_FILE_SIZE);
        return COSROD_ERR_PARSE;
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        fclose(f);
        if (err && errlen) snprintf(err, errlen, "%s:0: (file): out of memory", path);
        return COSROD_ERR_NOMEM;
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int bad = ferror(f), eno = errno;
  fclose(f);
  if (bad) {
    free(buf);
    if (err && errlen)
      snprintf(err, errlen, "%s:0: (file): %s", path,
               eno == EISDIR ? "is a directory, not a scenario file" : "read error");
    return COSROD_ERR_IO;
  }
  cosrod_status st = cosrod_scenario_parse(buf, len, path, sets, nsets, out, err, errlen);
  free(buf);
  return st;
}

void cosrod_scenario_print(const cosrod_scenario *sc, FILE *f) {
  static const char *const end_short[] = {"free", "pinned", "clamped", "prescribed"};
  if (!sc || !f) return;
  fprintf(f, "%s: schema %d, \"%s\"\n", sc->file, sc->version, sc->title);
  fprintf(f, "  gravity [%g, %g, %g]\n", sc->gravity[0], sc->gravity[1], sc->gravity[2]);
  for (size_t i = 0; i < sc->nrods; i++) {
    const cosrod_sc_rod *r = &sc->rods[i];
    char mat[160];
    if (r->has_material)
      snprintf(mat, sizeof mat, "E = %g Pa, G = %g Pa, rho = %g kg/m^3", r->material.E, r->material.G,
               r->material.density);
    else /* no material: the given values, not zeros */
      snprintf(mat, sizeof mat, "EA = %g N, EI = %g/%g N m^2, GJ = %g N m^2, rhoA = %g kg/m", r->EA, r->EI1,
               r->EI2, r->GJ, r->rhoA);
    fprintf(f, "  rod %s: %s, L = %g m, N = %zu, %s, curvature %s, ends %s/%s, %zu load(s)\n", r->name,
            SC_MODEL_NAMES[r->model], r->length, r->segments, mat, SC_CURVATURE_NAMES[r->curvature],
            end_short[r->ends[0].type], end_short[r->ends[1].type], r->nloads);
  }
  for (size_t i = 0; i < sc->nbodies; i++) {
    const cosrod_sc_body *b = &sc->bodies[i];
    fprintf(f, "  body %s: m = %g kg, I = [%g, %g, %g] kg m^2, %s\n", b->name, b->mass, b->inertia[0],
            b->inertia[1], b->inertia[2], SC_PARAM_NAMES[b->parametrisation]);
  }
  for (size_t i = 0; i < sc->njoints; i++) {
    const cosrod_sc_joint *j = &sc->joints[i];
    fprintf(f, "  joint %s: %s - %s\n", SC_JOINT_NAMES[j->type],
            j->body[0] < 0 ? "ground" : sc->bodies[j->body[0]].name,
            j->body[1] < 0 ? "ground" : sc->bodies[j->body[1]].name);
  }
  for (size_t i = 0; i < sc->contact.nobstacles; i++) {
    const cosrod_sc_obstacle *o = &sc->contact.obstacles[i];
    const double *x = o->pose.position;
    fprintf(f, "  %s %s: %s at [%g, %g, %g]%s%s%s\n", o->body_shape ? "body shape" : "obstacle", o->name,
            cosrod_sc_shape_type_name(o->shape.type), x[0], x[1], x[2], o->body >= 0 ? " on body " : "",
            o->body >= 0 ? sc->bodies[o->body].name : "", o->has_motion ? ", moved by keyframes" : "");
  }
  if (sc->contact.enabled) {
    const cosrod_contact_law *L = &sc->contact.law;
    char k[32] = "auto", d[32] = "auto";
    if (L->stiffness > 0) snprintf(k, sizeof k, "%g", L->stiffness);
    if (L->damping != 0) snprintf(d, sizeof d, L->damping < 0 ? "none" : "%g", L->damping);
    fprintf(f, "  contact: stiffness %s, damping %s, friction %g/%g, rods %s, self %s\n", k, d, L->mu_static,
            L->mu_kinetic, sc->contact.rods ? "on" : "off", sc->contact.self ? "on" : "off");
  }
  fprintf(f, "  analysis %s, t_end = %g%s%s\n", SC_ANALYSIS_NAMES[sc->analysis.type], sc->analysis.t_end,
          sc->analysis.arc_length ? ", control arc-length (t = arc length of the path)" : "",
          sc->analysis.keyframe_path ? ", path keyframes" : "");
  fprintf(f, "  solver %s/%s, %s, rtol = %g, atol = %g\n", SC_FORMULATION_NAMES[sc->solver.formulation],
          SC_STAB_NAMES[sc->solver.stabilisation], SC_INTEGRATOR_NAMES[sc->solver.integrator], sc->solver.rtol,
          sc->solver.atol);
  fprintf(f, "  output %s every %g%s%s\n", sc->output.dir, sc->output.every, sc->output.vtk ? ", vtk" : "",
          sc->output.plots ? ", plots" : "");
}
