// SPDX-License-Identifier: Apache-2.0
/* Scenario keys `obstacles:`, `contact:` and `bodies.N.shape` ([manual: contact]):
 * validation into cosrod_sc_contact with the scenario loader's messages
 * (`FILE:LINE: key.path: problem`), unknown-key suggestions and range checks
 * (scenario_util.c).
 *
 * Per shape (local e_z = plane normal / cylinder and capsule axis):
 *   plane    point [0,0,0], normal (required)        -> pose: point, e_z -> normal
 *   sphere   center, radius
 *   cylinder center, axis [0,0,1], radius, length (absent: infinite)
 *   capsule  a, b, radius                            -> centre (a+b)/2, half-length |b-a|/2
 *   box      center, size (3 > 0), orientation [1,0,0,0]
 *   mesh     file (closed manifold), position, orientation
 * An obstacle has a name (required, unique), and body (a name from
 * `bodies:`; the pose is then in the body frame) or motion {position,
 * orientation, interpolation} (keyframes, as for bodies); not both.  A body's
 * `shape:` is the same mapping with `type:` for `shape:` (pose in the body
 * frame, default at the centre of mass); it is appended to the obstacles
 * under the body's name. */
#include "scenario_contact.h"

#include "scenario_internal.h"

static const char *const OBST_SHAPES[] = {"plane", "sphere", "cylinder", "capsule", "box", "mesh", NULL};

void cosrod_sc_contact_clear(cosrod_sc_contact *s) {
  if (!s) return;
  for (size_t i = 0; s->obstacles && i < s->nobstacles; ++i) {
    cosrod_sc_obstacle *o = s->obstacles + i;
    free(o->file);
    free(o->file_given);
    free(o->motion_position.t);
    free(o->motion_position.values);
    free(o->motion_orientation.t);
    free(o->motion_orientation.values);
  }
  free(s->obstacles);
  memset(s, 0, sizeof *s);
}

void cosrod_sc_contact_free(cosrod_sc_contact *s) {
  cosrod_sc_contact_clear(s);
  free(s);
}

/* Unit quaternion rotating e_z onto the unit vector n. */
static void quat_from_z(double q[4], const double n[3]) {
  double w = 1.0 + n[2];
  if (w < 1e-12) {
    q[0] = 0.0, q[1] = 1.0, q[2] = 0.0, q[3] = 0.0;
    return;
  }
  double s = sqrt(w * w + n[0] * n[0] + n[1] * n[1]);
  q[0] = w / s, q[1] = 0.0 - n[1] / s, q[2] = n[0] / s + 0.0, q[3] = 0.0;
}

/* "auto" -> 0, "none" (when allowed) -> -1, else a number with range. */
static double auto_num(ctx *c, ynode *m, const char *key, int allow_none, int range) {
  ynode *v = sc_get(m, key);
  if (!v) return 0.0;
  if (v->kind == YN_SCALAR && !v->quoted && !strcmp(v->str, "auto")) return 0.0;
  if (allow_none && v->kind == YN_SCALAR && !v->quoted && !strcmp(v->str, "none")) return -1.0;
  if (v->kind == YN_SCALAR && !v->quoted) {
    char *end;
    strtod(v->str, &end);
    if (end == v->str || *end)
      sc_fail(c, v, key, "expected auto%s or a number, got '%.40s'", allow_none ? ", none" : "", v->str);
  }
  double x = sc_to_num(c, v, key);
  sc_check_range(c, v, key, x, range);
  if (allow_none && x == 0.0) return -1.0; /* damping: 0 means none */
  return x;
}

static void read_motion(ctx *c, ynode *v, cosrod_sc_obstacle *o) {
  static const char *const interp[] = {"linear", "cubic", NULL};
  sc_push(c, "motion");
  sc_expect_map(c, v, NULL, "position and/or orientation keyframes");
  sc_check_section(c, v, "obstacles.N.motion");
  ynode *p = sc_get(v, "position"), *q = sc_get(v, "orientation"), *ip = sc_get(v, "interpolation");
  if (!p && !q) sc_fail(c, v, "position", "missing (a motion needs position and/or orientation keyframes)");
  if (p) sc_read_keyframes(c, p, "position", 3, &o->motion_position);
  if (q) sc_read_keyframes(c, q, "orientation", 4, &o->motion_orientation);
  if (ip) o->motion_cubic = sc_to_enum(c, ip, "interpolation", interp) == 1;
  o->has_motion = 1;
  sc_pop(c);
}

/* Directory of the scenario file + rel (rel absolute: as is). */
static char *resolve(ctx *c, const char *file, const char *rel) {
  const char *slash = strrchr(file, '/');
  size_t dl = (rel[0] == '/' || !slash) ? 0 : (size_t)(slash - file) + 1;
  char *p = sc_xcalloc(c, dl + strlen(rel) + 1, 1);
  memcpy(p, file, dl);
  strcpy(p + dl, rel);
  return p;
}

static void read_shape(ctx *c, ynode *m, cosrod_sc_obstacle *o) {
  cosrod_shape *s = &o->shape;
  cosrod_pose *p = &o->pose;
  double n[3] = {0, 0, 1}, q[4] = {1, 0, 0, 0};
  switch (s->type) {
    case COSROD_SHAPE_PLANE:
      sc_vec(c, m, "point", p->position, 3, R_ANY);
      if (!sc_get(m, "normal")) sc_fail(c, m, "normal", "missing (the outward normal of the half-space)");
      sc_vec(c, m, "normal", n, 3, R_ANY);
      memcpy(o->given, n, sizeof n);
      sc_unit_vec(c, m, "normal", n);
      quat_from_z(p->q, n);
      memcpy(o->axis, n, sizeof n);
      break;
    case COSROD_SHAPE_SPHERE:
      sc_vec(c, m, "center", p->position, 3, R_ANY);
      s->radius = sc_req_num(c, m, "radius", R_POS, "sphere radius [m]");
      break;
    case COSROD_SHAPE_CYLINDER:
      sc_vec(c, m, "center", p->position, 3, R_ANY);
      if (sc_vec(c, m, "axis", n, 3, R_ANY)) {
        memcpy(o->given, n, sizeof n);
        sc_unit_vec(c, m, "axis", n);
      }
      quat_from_z(p->q, n);
      memcpy(o->axis, n, sizeof n);
      s->radius = sc_req_num(c, m, "radius", R_POS, "cylinder radius [m]");
      s->half_length = sc_get(m, "length") ? 0.5 * sc_req_num(c, m, "length", R_POS, "length [m]") : 0.0;
      break;
    case COSROD_SHAPE_CAPSULE: {
      double a[3], b[3], d[3];
      if (!sc_get(m, "a")) sc_fail(c, m, "a", "missing (first end of the capsule's axis)");
      if (!sc_get(m, "b")) sc_fail(c, m, "b", "missing (second end of the capsule's axis)");
      sc_vec(c, m, "a", a, 3, R_ANY);
      sc_vec(c, m, "b", b, 3, R_ANY);
      for (int k = 0; k < 3; ++k) {
        d[k] = b[k] - a[k];
        p->position[k] = 0.5 * (a[k] + b[k]);
      }
      double l = norm3(d);
      if (l > 0.0)
        for (int k = 0; k < 3; ++k) n[k] = d[k] / l;
      quat_from_z(p->q, n);
      memcpy(o->axis, n, sizeof n);
      memcpy(o->a, a, sizeof a);
      memcpy(o->b, b, sizeof b);
      s->half_length = 0.5 * l;
      s->radius = sc_req_num(c, m, "radius", R_POS, "capsule radius [m]");
      break;
    }
    case COSROD_SHAPE_BOX: {
      double size[3];
      sc_vec(c, m, "center", p->position, 3, R_ANY);
      if (!sc_get(m, "size")) sc_fail(c, m, "size", "missing (edge lengths [x, y, z] in the box frame)");
      sc_vec(c, m, "size", size, 3, R_POS);
      for (int k = 0; k < 3; ++k) s->half[k] = 0.5 * size[k];
      break;
    }
    default: { /* mesh */
      ynode *f = sc_require(c, m, "file", "an STL or OBJ file, relative to the scenario");
      o->file_given = sc_xstrdup(c, sc_to_str(c, f, "file"));
      o->file = resolve(c, c->file, o->file_given);
      cosrod_mesh *mesh = cosrod_mesh_load(o->file, 1, NULL);
      if (!mesh) sc_fail(c, f, "file", "%s", cosrod_last_error());
      cosrod_mesh_free(mesh);
      sc_vec(c, m, "position", p->position, 3, R_ANY);
    }
  }
  ynode *ov = s->type == COSROD_SHAPE_BOX || s->type == COSROD_SHAPE_MESH ? sc_get(m, "orientation") : NULL;
  if (ov) {
    sc_to_vec(c, ov, "orientation", q, 4, R_ANY);
    memcpy(o->given, q, sizeof q);
    sc_unit_quat(c, ov, "orientation", q);
    memcpy(p->q, q, sizeof q);
  }
  memcpy(o->reference, p->position, sizeof o->reference);
}

/* After read_shape: a key of the section's table that this shape does not
 * read (e.g. size on a sphere) is refused with the shape named. */
static void check_shape_keys(ctx *c, ynode *m, const cosrod_sc_obstacle *o) {
  char why[96];
  snprintf(why, sizeof why, "by shape %s (cosrod help %s lists the keys of each shape)",
           OBST_SHAPES[o->shape.type], o->body_shape ? "bodies.N.shape" : "obstacles.N");
  sc_check_unused(c, m, why);
}

/* Index of the body named by v in the `bodies:` sequence (its order is the
 * scenario's), or a failure. */
static int body_index(ctx *c, ynode *v, ynode *bodies) {
  const char *s = sc_to_str(c, v, "body");
  for (size_t i = 0; bodies && bodies->kind == YN_SEQ && i < bodies->n; ++i) {
    ynode *bi = bodies->item[i];
    yentry *e = bi && bi->kind == YN_MAP ? yn_find(bi, "name") : NULL;
    if (e && e->val->kind == YN_SCALAR && !strcmp(e->val->str, s)) return (int)i;
  }
  sc_fail(c, v, "body", "no body named '%.40s' in bodies", s);
}

static void read_obstacle(ctx *c, ynode *m, cosrod_sc_obstacle *o, ynode *bodies) {
  sc_expect_map(c, m, NULL, "name, shape and the shape's keys");
  sc_check_section(c, m, "obstacles.N");
  o->line = m->key_line;
  o->body = -1;
  cosrod_pose_identity(&o->pose);
  sc_to_name(c, sc_require(c, m, "name", "a unique obstacle name"), "name", o->name);
  o->shape.type = (cosrod_shape_type)sc_to_enum(c,
                                                sc_require(c, m, "shape",
                                                           "plane | sphere | cylinder | "
                                                           "capsule | box | mesh"),
                                                "shape", OBST_SHAPES);
  ynode *b = sc_get(m, "body"), *mo = sc_get(m, "motion");
  read_shape(c, m, o);
  check_shape_keys(c, m, o);
  if (b && mo)
    sc_fail(c, mo, "motion", "an obstacle on a body moves with the body: give body or motion, not both");
  if (b) o->body = body_index(c, b, bodies);
  if (mo) read_motion(c, mo, o);
}

/* bodies.N.shape: {type: ..., the shape's keys}, pose in the body frame. */
static void read_body_shape(ctx *c, ynode *m, cosrod_sc_obstacle *o, int body, const char *name) {
  sc_push(c, "shape");
  sc_expect_map(c, m, NULL, "type and the shape's keys (pose in the body frame)");
  sc_check_section(c, m, "bodies.N.shape");
  o->line = m->key_line;
  o->body = body;
  o->body_shape = 1;
  snprintf(o->name, sizeof o->name, "%s", name);
  cosrod_pose_identity(&o->pose);
  o->shape.type = (cosrod_shape_type)sc_to_enum(
      c, sc_require(c, m, "type", "plane | sphere | cylinder | capsule | box | mesh"), "type", OBST_SHAPES);
  if (o->shape.type == COSROD_SHAPE_PLANE)
    sc_fail(c, sc_get(m, "type"), "type", "a body cannot be a half-space (plane); use a box");
  read_shape(c, m, o);
  check_shape_keys(c, m, o);
  sc_pop(c);
}

static void read_contact(ctx *c, ynode *m, cosrod_sc_contact *s) {
  sc_push(c, "contact");
  if (m->kind == YN_SCALAR && m->null) m = NULL; /* `contact:` alone: all defaults */
  s->enabled = 1;
  s->rods = sc_key_default_bool("contact.rods");
  s->self = sc_key_default_bool("contact.self");
  s->quadrature = (int)sc_key_default_num("contact.quadrature");
  if (m) {
    sc_expect_map(c, m, NULL, "contact settings");
    sc_check_section(c, m, "contact");
    s->law.stiffness = auto_num(c, m, "stiffness", 0, R_POS);
    s->law.onset = auto_num(c, m, "onset", 0, R_POS);
    s->law.damping = auto_num(c, m, "damping", 1, R_NONNEG);
    s->law.tangent_stiffness = auto_num(c, m, "tangent_stiffness", 0, R_POS);
    ynode *f = sc_get(m, "friction");
    if (f) {
      sc_push(c, "friction");
      sc_expect_map(c, f, NULL, "static and kinetic coefficients");
      sc_check_section(c, f, "contact.friction");
      s->law.mu_static = sc_req_num(c, f, "static", R_NONNEG, "static friction coefficient");
      s->law.mu_kinetic = sc_num(c, f, "kinetic", s->law.mu_static, R_NONNEG);
      if (s->law.mu_kinetic > s->law.mu_static)
        sc_fail(c, sc_get(f, "kinetic"), "kinetic", "%.6g exceeds the static coefficient %.6g",
                s->law.mu_kinetic, s->law.mu_static);
      sc_pop(c);
    }
    ynode *v;
    if ((v = sc_get(m, "rods"))) s->rods = sc_to_bool(c, v, "rods");
    if ((v = sc_get(m, "self"))) s->self = sc_to_bool(c, v, "self");
    if ((v = sc_get(m, "quadrature"))) s->quadrature = (int)sc_to_int(c, v, "quadrature", 1, 4);
  }
  sc_pop(c);
}

/* All three keys into s (bodies: the `bodies:` node or NULL). */
static void read_all(ctx *c, ynode *root, cosrod_sc_contact *s, ynode *bodies) {
  yentry *eo = yn_find(root, "obstacles"), *ec = yn_find(root, "contact");
  size_t nshapes = 0;
  for (size_t i = 0; bodies && bodies->kind == YN_SEQ && i < bodies->n; ++i)
    if (bodies->item[i] && bodies->item[i]->kind == YN_MAP && yn_find(bodies->item[i], "shape")) nshapes++;
  if (eo && eo->val->kind != YN_SEQ) {
    sc_push(c, "obstacles");
    sc_fail(c, eo->val, NULL, "expected a sequence of obstacles, got %s", sc_kind_name(eo->val));
  }
  size_t nlisted = eo ? eo->val->n : 0;
  s->obstacles = sc_xcalloc(c, nlisted + nshapes + 1, sizeof *s->obstacles);
  if (eo) {
    ynode *seq = eo->val;
    sc_push(c, "obstacles");
    for (size_t i = 0; i < seq->n; ++i) {
      sc_push_idx(c, i);
      s->nobstacles = i + 1;
      read_obstacle(c, seq->item[i], s->obstacles + i, bodies);
      for (size_t j = 0; j < i; ++j)
        if (!strcmp(s->obstacles[j].name, s->obstacles[i].name))
          sc_fail(c, seq->item[i], "name", "duplicate obstacle name '%s' (also obstacles.%zu)",
                  s->obstacles[i].name, j);
      sc_pop(c);
    }
    sc_pop(c);
  }
  if (ec) read_contact(c, ec->val, s);
  if (ec) s->line = ec->key->line;
  if (s->nobstacles && !s->enabled)
    sc_fail(c, eo->val, "obstacles", "no effect without a contact: section (add contact:)");
  for (size_t i = 0; nshapes && i < bodies->n; ++i) {
    ynode *bi = bodies->item[i];
    yentry *e = bi && bi->kind == YN_MAP ? yn_find(bi, "shape") : NULL;
    if (!e) continue;
    yentry *en = yn_find(bi, "name");
    const char *name = en && en->val->kind == YN_SCALAR ? en->val->str : "";
    sc_push(c, "bodies");
    sc_push_idx(c, i);
    if (!s->enabled) sc_fail(c, e->val, "shape", "no effect without a contact: section (add contact:)");
    cosrod_sc_obstacle *o = s->obstacles + s->nobstacles++;
    read_body_shape(c, e->val, o, (int)i, name);
    if (c->sc && i < c->sc->nbodies) {
      c->sc->bodies[i].has_shape = 1;
      c->sc->bodies[i].shape_obstacle = s->nobstacles - 1;
    }
    sc_pop(c);
    sc_pop(c);
  }
}

void sc_read_contact(ctx *c, ynode *root) {
  yentry *eb = yn_find(root, "bodies");
  read_all(c, root, &c->sc->contact, eb ? eb->val : NULL);
}

static cosrod_status run(ctx *c, ynode *root, cosrod_sc_contact *s) {
  if (setjmp(c->jb)) return c->status;
  if (!root || root->kind != YN_MAP) return COSROD_OK; /* the main loader reports it */
  yentry *eb = yn_find(root, "bodies");
  read_all(c, root, s, eb ? eb->val : NULL);
  return COSROD_OK;
}
cosrod_status cosrod_sc_contact_parse(const char *text, size_t len, const char *file, cosrod_sc_contact **out,
                                      char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  *out = NULL;
  if (!file) file = "<input>";
  ynode *root = NULL;
  char msg[600];
  if (yn_parse(text ? text : "", len, 0, &root, msg, sizeof msg)) {
    int line = atoi(msg);
    char *t1 = strchr(msg, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (err && errlen) snprintf(err, errlen, "%s:%d: %s", file, line, t2 ? t2 + 1 : msg);
    return COSROD_ERR_PARSE;
  }
  ctx *c = calloc(1, sizeof *c);
  cosrod_sc_contact *s = calloc(1, sizeof *s);
  if (!c || !s) {
    free(c);
    free(s);
    yn_free(root);
    return COSROD_ERR_NOMEM;
  }
  c->file = file;
  c->err = err;
  c->errlen = errlen;
  cosrod_status st = run(c, root, s);
  yn_free(root);
  free(c);
  if (st != COSROD_OK) {
    cosrod_sc_contact_free(s);
    return st;
  }
  *out = s;
  return COSROD_OK;
}

const char *cosrod_sc_shape_type_name(cosrod_shape_type t) {
  return (unsigned)t < COSROD_SHAPE_COUNT ? OBST_SHAPES[t] : "?";
}
