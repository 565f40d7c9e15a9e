// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: parts of a rod entry: Kirchhoff-only key checks, keyframes,
 * ends, loads and the initial shape ([manual: modelling guide, scenario reference]). */
#include "scenario_internal.h"

/* Kirchhoff models ([LA] §3, [manual: modelling guide]): keys that only make sense for a
 * Cosserat rod (shear correction, viscous shear / extension coefficients of
 * a constrained strain) are errors.  Kelvin–Voigt damping stays valid (its
 * bending and torsion parts act); stiffness overrides GA1, GA2 (and EA of
 * the inextensible model) are accepted and unused, since a section-less rod
 * must give all six. */
void sc_check_kirchhoff_keys(ctx *c, ynode *m, const cosrod_sc_rod *r) {
  if (r->model == COSROD_SC_MODEL_COSSERAT) return;
  int inext = r->model == COSROD_SC_MODEL_KIRCHHOFF_INEXTENSIBLE;
  const char *mn = cosrod_sc_model_name(r->model);
  ynode *sh = sc_get(m, "shear_correction");
  if (sh)
    sc_fail(c, sh, "shear_correction", "only for cosserat rods (a %s rod has no shear)", mn);
  ynode *dm = sc_get(m, "damping"), *co = dm && dm->kind == YN_MAP ? sc_get(dm, "coefficients") : NULL;
  static const char *const dk[] = {"shear", "extension"};
  for (int k = 0; co && k < (inext ? 2 : 1); k++)
    if (sc_get(co, dk[k])) {
      sc_push(c, "damping");
      sc_push(c, "coefficients");
      sc_fail(c, sc_get(co, dk[k]), dk[k], "only for cosserat rods (a %s rod constrains this strain)", mn);
    }
}

/* Keyframes [[t, v...], ...] with strictly increasing t. */
void sc_read_keyframes(ctx *c, ynode *v, const char *key, size_t dim, cosrod_sc_keyframes *kf) {
  if (v->kind != YN_SEQ || v->n == 0)
    sc_fail(c, v, key, "expected a non-empty list of [t, %s] rows", dim == 3 ? "x, y, z" : "q0, q1, q2, q3");
  sc_push(c, key);
  kf->t = sc_xcalloc(c, v->n, sizeof(double));
  kf->values = sc_xcalloc(c, v->n * dim, sizeof(double));
  for (size_t i = 0; i < v->n; i++) {
    double row[5];
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", i);
    sc_to_vec(c, v->item[i], idx, row, dim + 1, R_ANY);
    if (i > 0 && !(row[0] > kf->t[i - 1]))
      sc_fail(c, v->item[i], idx, "keyframe times must increase strictly (%.15g after %.15g)", row[0],
           kf->t[i - 1]);
    if (dim == 4) {
      sc_unit_quat(c, v->item[i], idx, row + 1);
      if (i > 0) {
        const double *p = kf->values + (i - 1) * 4;
        double s = 0;
        for (int k = 0; k < 4; k++) s += (p[k] + row[1 + k]) * (p[k] + row[1 + k]);
        if (s < 1e-16) sc_fail(c, v->item[i], idx, "antipodal to the previous keyframe (slerp undefined)");
      }
    }
    kf->t[i] = row[0];
    memcpy(kf->values + i * dim, row + 1, dim * sizeof(double));
    kf->n++;
  }
  sc_pop(c);
}

void sc_read_end(ctx *c, ynode *m, cosrod_sc_end *e) {
  static const char *const interp_names[] = {"linear", "cubic", NULL};
  sc_expect_map(c, m, NULL, "type: free | pinned | clamped | prescribed");
  sc_check_section(c, m, "rods.N.ends.start");
  e->line = m->key_line;
  e->body = -1;
  ynode *t = sc_get(m, "type");
  e->type = (cosrod_sc_end_type)(t ? sc_to_enum(c, t, "type", SC_END_NAMES)
                                    : sc_key_default_enum("rods.N.ends.start.type", SC_END_NAMES));
  if (e->type == COSROD_SC_END_FREE) {
    sc_check_unused(c, m, "with type: free");
    return;
  }
  if (sc_vec(c, m, "slides_along", e->slides_along, 3, R_ANY)) {
    e->slides = 1;
    sc_unit_vec(c, m, "slides_along", e->slides_along);
  }
  if (e->type == COSROD_SC_END_PRESCRIBED) {
    ynode *p = sc_get(m, "position"), *o = sc_get(m, "orientation");
    if (!p && !o)
      sc_fail(c, m, "position", "missing (a prescribed end needs position and/or orientation keyframes)");
    if (p) sc_read_keyframes(c, p, "position", 3, &e->position);
    if (o) sc_read_keyframes(c, o, "orientation", 4, &e->orientation);
    ynode *ip = sc_get(m, "interpolation");
    if (ip) e->cubic = sc_to_enum(c, ip, "interpolation", interp_names) == 1;
    sc_check_unused(c, m, "with type: prescribed");
    return;
  }
  ynode *b = sc_get(m, "body"), *pp = sc_get(m, "position");
  if (pp && e->type == COSROD_SC_END_PINNED) {
    /* moving pinned end: the centroid follows the keyframes, the rotation is free */
    if (b) sc_fail(c, pp, "position", "a pinned end either follows keyframes or is attached to a body, not both");
    sc_read_keyframes(c, pp, "position", 3, &e->position);
    ynode *ip = sc_get(m, "interpolation");
    if (ip) e->cubic = sc_to_enum(c, ip, "interpolation", interp_names) == 1;
  }
  if (b) {
    e->body = sc_body_index(c, b, "body", 0);
    sc_vec(c, m, "at", e->at, 3, R_ANY);
    /* `orientation` (the name the rigid-bodies guide uses for an end on a body) is `frame` */
    ynode *fr = sc_get(m, "frame"), *fo = sc_get(m, "orientation");
    const char *fk = fr ? "frame" : "orientation";
    if (fr && fo) sc_fail(c, fo, "orientation", "the same as 'frame': give one of them");
    if (!fr) fr = fo;
    if (fr && e->type != COSROD_SC_END_CLAMPED)
      sc_fail(c, fr, fk, "only a clamped end has a frame in the body (a pinned end rotates freely)");
    if (fr) {
      sc_to_vec(c, fr, fk, e->frame, 4, R_ANY);
      sc_unit_quat(c, fr, fk, e->frame);
      e->has_frame = 1;
    }
  }
  sc_check_unused(c, m, b ? "with this end type" : "without 'body'");
}

void sc_read_load(ctx *c, ynode *m, cosrod_sc_rod *r, cosrod_sc_load *ld) {
  sc_expect_map(c, m, NULL, "type, at, value, frame");
  sc_check_section(c, m, "rods.N.loads.K");
  ld->line = m->key_line;
  ld->type = (cosrod_sc_load_type)sc_to_enum(c, sc_require(c, m, "type", "force, moment or distributed_force"),
                                          "type", SC_LOAD_NAMES);
  sc_to_vec(c, sc_require(c, m, "value", "vector [N], [N m] or [N/m]"), "value", ld->value, 3, R_ANY);
  ynode *fr = sc_get(m, "frame");
  ld->frame = fr ? (cosrod_sc_frame)sc_to_enum(c, fr, "frame", SC_FRAME_NAMES) : COSROD_SC_FRAME_SPATIAL;
  if (ld->type == COSROD_SC_LOAD_DISTRIBUTED_FORCE) {
    ld->vertex = -1;
  } else {
    ynode *at = sc_require(c, m, "at", "start, end, a vertex index or a percentage of the length");
    size_t ls = at->kind == YN_SCALAR && at->str ? strlen(at->str) : 0;
    if (ls > 1 && at->str[ls - 1] == '%') {
      /* `at: 50%`: the vertex nearest to s_0 + 0.5 (s_N - s_0), so that a
       * refined grid keeps the load where it was meant */
      char *end = NULL;
      double pct = strtod(at->str, &end);
      if (end != at->str + ls - 1 || !(pct >= 0.0 && pct <= 100.0))
        sc_fail(c, at, "at", "expected a percentage of the length 0%%..100%%, got '%s'", at->str);
      double sv = r->grid[0] + 0.01 * pct * (r->grid[r->segments] - r->grid[0]);
      long best = 0;
      for (size_t i = 1; i <= r->segments; i++)
        if (fabs(r->grid[i] - sv) < fabs(r->grid[best] - sv)) best = (long)i;
      ld->vertex = best;
    } else if (at->kind == YN_SCALAR && !at->quoted && !strcmp(at->str, "start"))
      ld->vertex = 0;
    else if (at->kind == YN_SCALAR && !at->quoted && !strcmp(at->str, "end"))
      ld->vertex = (long)r->segments;
    else if (at->kind == YN_SCALAR && !at->quoted && !at->null &&
             (isdigit((unsigned char)at->str[0]) || at->str[0] == '-'))
      ld->vertex = sc_to_int(c, at, "at", 0, (long)r->segments);
    else
      sc_fail(c, at, "at", "expected start, end, a vertex index 0..%zu or a percentage of the length (50%%)",
              r->segments);
  }
  ynode *rp = sc_get(m, "ramp"), *ac = sc_get(m, "active"), *pl = sc_get(m, "preload");
  int preload = pl ? sc_to_bool(c, pl, "preload") : 0;
  if (rp && ac) sc_fail(c, ac, "active", "give either 'ramp' or 'active', not both");
  if (preload && (rp || ac)) sc_fail(c, pl, "preload", "cannot be combined with 'ramp' or 'active'");
  sc_read_profile(c, rp, ac, &ld->profile, &ld->t0, &ld->t1);
  if (preload) {
    const cosrod_sc_analysis *an = &c->sc->analysis;
    if (an->type != COSROD_SC_ANALYSIS_DYNAMIC || !an->start_from_equilibrium)
      sc_fail(c, pl, "preload", "needs a dynamic analysis with start_from_equilibrium: true");
    ld->profile = COSROD_SC_PROFILE_PRELOAD;
  }
  sc_check_unused(c, m, "with this load type (distributed loads act on the whole rod)");
}

void sc_read_shape(ctx *c, ynode *m, cosrod_sc_shape *sh) {
  sh->direction[2] = 1.0; /* default frame: d3 = e3, d1 = e1 */
  sh->normal[0] = 1.0;
  if (!m) return;
  sc_expect_map(c, m, NULL, "type: straight | arc | helix | polyline");
  sc_check_section(c, m, "rods.N.shape");
  ynode *t = sc_get(m, "type");
  sh->kind = t ? (cosrod_sc_shape_kind)sc_to_enum(c, t, "type", SC_SHAPE_NAMES) : COSROD_SC_SHAPE_STRAIGHT;
  sc_vec(c, m, "normal", sh->normal, 3, R_ANY);
  sc_unit_vec(c, m, "normal", sh->normal);
  if (sh->kind == COSROD_SC_SHAPE_POLYLINE) {
    ynode *p = sc_require(c, m, "points", "list of [x, y, z]");
    if (!sc_get(m, "normal")) sc_fail(c, m, "normal", "missing (d1 at the first point)");
    if (p->kind != YN_SEQ || p->n < 2) sc_fail(c, p, "points", "expected a list of at least 2 points [x, y, z]");
    sc_push(c, "points");
    sh->points = sc_xcalloc(c, p->n * 3, sizeof(double));
    for (size_t i = 0; i < p->n; i++) {
      char idx[24];
      snprintf(idx, sizeof idx, "%zu", i);
      sc_to_vec(c, p->item[i], idx, sh->points + 3 * i, 3, R_ANY);
      sh->npoints++;
      if (i > 0) {
        double d[3];
        for (int k = 0; k < 3; k++) d[k] = sh->points[3 * i + k] - sh->points[3 * i - 3 + k];
        double l = norm3(d);
        if (!(l > 0)) sc_fail(c, p->item[i], idx, "repeats the previous point");
        sh->length += l;
      }
    }
    sc_pop(c);
    memcpy(sh->start, sh->points, 3 * sizeof(double));
    for (int k = 0; k < 3; k++) sh->direction[k] = sh->points[3 + k] - sh->points[k];
    double l = norm3(sh->direction);
    for (int k = 0; k < 3; k++) sh->direction[k] /= l;
  } else {
    sc_vec(c, m, "start", sh->start, 3, R_ANY);
    sc_vec(c, m, "direction", sh->direction, 3, R_ANY);
    sc_unit_vec(c, m, "direction", sh->direction);
    if (sh->kind == COSROD_SC_SHAPE_ARC) {
      sh->radius = sc_req_num(c, m, "radius", R_POS, "radius [m]");
      sh->angle_deg = sc_req_num(c, m, "angle_deg", R_POS, "angle [deg]");
      sh->length = sh->radius * sh->angle_deg * SC_PI / 180.0;
    } else if (sh->kind == COSROD_SC_SHAPE_HELIX) {
      sh->radius = sc_req_num(c, m, "radius", R_POS, "radius [m]");
      sh->pitch = sc_req_num(c, m, "pitch", R_NONNEG, "rise per turn [m]");
      sh->turns = sc_req_num(c, m, "turns", R_POS, "number of turns");
      double per = hypot(2.0 * SC_PI * sh->radius, sh->pitch);
      sh->length = sh->turns * per;
    }
  }
  double cs = dot3(sh->direction, sh->normal);
  if (fabs(cs) > 1e-6)
    sc_fail(c, sc_get(m, "normal") ? sc_get(m, "normal") : m, "normal",
         "must be perpendicular to the direction (cos angle = %.3g)", cs);
  if (!isfinite(sh->length)) sc_fail(c, m, NULL, "shape length is not finite");
  sc_check_unused(c, m, "with this shape type");
}
