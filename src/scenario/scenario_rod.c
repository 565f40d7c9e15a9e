// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: materials and rods ([manual: theory, modelling guide, scenario reference]): sections, stiffness
 * and inertia overrides, damping, shapes, ends, loads. */
#include "scenario_internal.h"
/* ---- materials ------------------------------------------------------------- */

static void read_material(ctx *c, ynode *m, cosrod_sc_material *mat) {
  sc_expect_map(c, m, NULL, "E, poisson or G, density");
  sc_check_section(c, m, "materials.NAME");
  mat->line = m->key_line;
  mat->E = sc_req_num(c, m, "E", R_POS, "Young's modulus E [Pa]");
  ynode *vg = sc_get(m, "G"), *vp = sc_get(m, "poisson");
  if (vg && vp) sc_fail(c, vg, "G", "give either 'G' or 'poisson', not both");
  if (!vg && !vp) sc_fail(c, m, "poisson", "missing (Poisson ratio, or give shear modulus 'G')");
  if (vp) {
    double nu = sc_to_num(c, vp, "poisson");
    if (!(nu >= 0.0 && nu <= 0.5)) sc_fail(c, vp, "poisson", "must be in [0, 0.5] (got %.15g)", nu);
    mat->poisson = nu;
    mat->G = mat->E / (2.0 * (1.0 + nu));
  } else {
    double G = sc_to_num(c, vg, "G");
    sc_check_range(c, vg, "G", G, R_POS);
    double nu = mat->E / (2.0 * G) - 1.0;
    if (!(nu >= -1e-12 && nu <= 0.5 + 1e-12))
      sc_fail(c, vg, "G", "gives Poisson ratio E/(2G) - 1 = %.6g outside [0, 0.5]", nu);
    mat->G = G;
    mat->poisson = nu < 0 ? 0 : (nu > 0.5 ? 0.5 : nu);
  }
  mat->density = sc_req_num(c, m, "density", R_POS, "density [kg/m^3]");
}

void sc_read_materials(ctx *c, ynode *root) {
  ynode *ms = sc_get(root, "materials");
  if (!ms) return;
  sc_push(c, "materials");
  sc_expect_map(c, ms, NULL, "name: {E, poisson, density}");
  cosrod_scenario *sc = c->sc;
  sc->materials = sc_xcalloc(c, ms->n, sizeof *sc->materials);
  for (size_t i = 0; i < ms->n; i++) {
    ynode *k = ms->ent[i].key;
    sc_push(c, k->str);
    sc_to_name(c, k, NULL, sc->materials[i].name);
    read_material(c, ms->ent[i].val, &sc->materials[i]);
    sc->nmaterials++;
    sc_pop(c);
  }
  sc_pop(c);
}

/* ---- rods ------------------------------------------------------------------ */

static void read_section(ctx *c, ynode *m, cosrod_sc_section *s) {
  sc_expect_map(c, m, NULL, "shape: circle | rectangle | tube | custom");
  sc_check_section(c, m, "rods.N.section");
  s->shape = (cosrod_sc_section_shape)sc_to_enum(
      c, sc_require(c, m, "shape", "circle, rectangle, tube or custom"), "shape", SC_SECTION_NAMES);
  switch (s->shape) {
    case COSROD_SC_SECTION_TUBE: {
      /* thick-walled circular tube: A = π(ro² - ri²), I = π(ro⁴ - ri⁴)/4,
       * J = 2I (the polar moment is the torsion constant of a circular ring) */
      double ro = sc_req_num(c, m, "outer_radius", R_POS, "outer radius [m]");
      double ri = sc_req_num(c, m, "inner_radius", R_NONNEG, "inner radius [m] (0: solid)");
      if (!(ri < ro))
        sc_fail(c, sc_get(m, "inner_radius"), "inner_radius", "must be smaller than outer_radius (%.6g >= %.6g)",
                ri, ro);
      s->outer_radius = ro;
      s->inner_radius = ri;
      s->area = SC_PI * (ro * ro - ri * ri);
      s->I1 = s->I2 = SC_PI * (ro * ro * ro * ro - ri * ri * ri * ri) / 4.0;
      s->J = 2.0 * s->I1;
      sc_check_unused(c, m, "with shape: tube");
      break;
    }
    case COSROD_SC_SECTION_CIRCLE: {
      double r = sc_req_num(c, m, "radius", R_POS, "radius [m]");
      s->radius = r;
      s->area = SC_PI * r * r;
      s->I1 = s->I2 = SC_PI * r * r * r * r / 4.0;
      s->J = SC_PI * r * r * r * r / 2.0;
      sc_check_unused(c, m, "with shape: circle");
      break;
    }
    case COSROD_SC_SECTION_RECTANGLE: {
      double w = sc_req_num(c, m, "width", R_POS, "width along d1 [m]");
      double h = sc_req_num(c, m, "height", R_POS, "height along d2 [m]");
      s->width = w;
      s->height = h;
      s->area = w * h;
      s->I1 = w * h * h * h / 12.0;
      s->I2 = h * w * w * w / 12.0;
      s->torsion_constant = sc_num(c, m, "torsion_constant", sc_key_default_num("rods.N.section.torsion_constant"), R_POS);
      s->J = s->torsion_constant > 0 ? s->torsion_constant : s->I1 + s->I2;
      sc_check_unused(c, m, "with shape: rectangle");
      break;
    }
    default:
      s->area = sc_req_num(c, m, "area", R_POS, "area [m^2]");
      s->I1 = sc_req_num(c, m, "I1", R_POS, "second moment about d1 [m^4]");
      s->I2 = sc_req_num(c, m, "I2", R_POS, "second moment about d2 [m^4]");
      s->J = sc_req_num(c, m, "J", R_POS, "torsion constant [m^4]");
      sc_check_unused(c, m, "with shape: custom");
      break;
  }
}

static void read_damping(ctx *c, ynode *m, cosrod_sc_rod *r) {
  cosrod_sc_damping *d = &r->damping;
  sc_expect_map(c, m, NULL, "kelvin_voigt, coefficients or medium");
  sc_check_section(c, m, "rods.N.damping");
  ynode *kv = sc_get(m, "kelvin_voigt"), *co = sc_get(m, "coefficients"), *me = sc_get(m, "medium");
  if (kv && co) sc_fail(c, co, "coefficients", "give either 'kelvin_voigt' or 'coefficients', not both");
  if (!kv && !co && !me) sc_fail(c, m, "kelvin_voigt", "missing (or 'coefficients', 'medium')");
  if (me) {
    sc_push(c, "medium");
    sc_expect_map(c, me, NULL, "translational, rotational");
    sc_check_section(c, me, "rods.N.damping.medium");
    d->medium_translational = sc_num(c, me, "translational", sc_key_default_num("rods.N.damping.medium.translational"), R_NONNEG);
    d->medium_rotational = sc_num(c, me, "rotational", sc_key_default_num("rods.N.damping.medium.rotational"), R_NONNEG);
    sc_pop(c);
  }
  if (!kv && !co) return; /* medium only: kind stays none */
  if (kv) {
    sc_push(c, "kelvin_voigt");
    sc_expect_map(c, kv, NULL, "tau_shear, tau_bulk");
    sc_check_section(c, kv, "rods.N.damping.kelvin_voigt");
    d->kind = COSROD_SC_DAMPING_KELVIN_VOIGT;
    d->tau_shear = sc_req_num(c, kv, "tau_shear", R_NONNEG, "shear retardation time [s]");
    d->tau_bulk = sc_req_num(c, kv, "tau_bulk", R_NONNEG, "bulk retardation time [s]");
    sc_pop(c);
  } else {
    sc_push(c, "coefficients");
    sc_expect_map(c, co, NULL, "shear, extension, bending, torsion");
    sc_check_section(c, co, "rods.N.damping.coefficients");
    d->kind = COSROD_SC_DAMPING_COEFFICIENTS;
    sc_vec(c, co, "shear", d->shear, 2, R_NONNEG);
    d->extension = sc_num(c, co, "extension", sc_key_default_num("rods.N.damping.coefficients.extension"), R_NONNEG);
    sc_vec(c, co, "bending", d->bending, 2, R_NONNEG);
    d->torsion = sc_num(c, co, "torsion", sc_key_default_num("rods.N.damping.coefficients.torsion"), R_NONNEG);
    ynode *cv = sc_get(co, "convention");
    d->lla_convention = cv ? sc_to_enum(c, cv, "convention", SC_CONVENTION_NAMES)
                          : sc_key_default_enum("rods.N.damping.coefficients.convention", SC_CONVENTION_NAMES);
    sc_pop(c);
  }
}

/* Kirchhoff models ([LA] §3, [manual: modelling guide]): keys that only make sense for a
 * Cosserat rod (shear correction, viscous shear / extension coefficients of
 * a constrained strain) are errors.  Kelvin–Voigt damping stays valid (its
 * bending and torsion parts act); stiffness overrides GA1, GA2 (and EA of
 * the inextensible model) are accepted and unused, since a section-less rod
 * must give all six. */
static void check_kirchhoff_keys(ctx *c, ynode *m, const cosrod_sc_rod *r) {
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
static void read_keyframes(ctx *c, ynode *v, const char *key, size_t dim, cosrod_sc_keyframes *kf) {
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

void sc_read_keyframes(ctx *c, ynode *v, const char *key, size_t dim, cosrod_sc_keyframes *kf) {
  read_keyframes(c, v, key, dim, kf);
}

static void read_end(ctx *c, ynode *m, cosrod_sc_end *e) {
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
    if (p) read_keyframes(c, p, "position", 3, &e->position);
    if (o) read_keyframes(c, o, "orientation", 4, &e->orientation);
    ynode *ip = sc_get(m, "interpolation");
    if (ip) e->cubic = sc_to_enum(c, ip, "interpolation", interp_names) == 1;
    sc_check_unused(c, m, "with type: prescribed");
    return;
  }
  ynode *b = sc_get(m, "body"), *pp = sc_get(m, "position");
  if (pp && e->type == COSROD_SC_END_PINNED) {
    /* moving pinned end: the centroid follows the keyframes, the rotation is free */
    if (b) sc_fail(c, pp, "position", "a pinned end either follows keyframes or is attached to a body, not both");
    read_keyframes(c, pp, "position", 3, &e->position);
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

static void read_load(ctx *c, ynode *m, cosrod_sc_rod *r, cosrod_sc_load *ld) {
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

static void read_shape(ctx *c, ynode *m, cosrod_sc_shape *sh) {
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

static void read_rod(ctx *c, ynode *m, size_t index, cosrod_sc_rod *r) {
  cosrod_scenario *sc = c->sc;
  sc_expect_map(c, m, NULL, "a rod");
  sc_check_section(c, m, "rods.N");
  r->line = m->key_line;
  r->ends[0].body = r->ends[1].body = -1;
  ynode *v;
  if ((v = sc_get(m, "name"))) {
    sc_to_name(c, v, "name", r->name);
    for (size_t i = 0; i < index; i++)
      if (!strcmp(sc->rods[i].name, r->name)) sc_fail(c, v, "name", "duplicate rod name '%s'", r->name);
  } else {
    snprintf(r->name, sizeof r->name, "rod%zu", index);
  }
  r->model = (cosrod_sc_model)((v = sc_get(m, "model")) ? sc_to_enum(c, v, "model", SC_MODEL_NAMES)
                                                         : sc_key_default_enum("rods.N.model", SC_MODEL_NAMES));
  r->curvature = (cosrod_sc_curvature)((v = sc_get(m, "curvature"))
                                           ? sc_to_enum(c, v, "curvature", SC_CURVATURE_NAMES)
                                           : sc_key_default_enum("rods.N.curvature", SC_CURVATURE_NAMES));
  r->reference = (cosrod_sc_reference)((v = sc_get(m, "reference"))
                                           ? sc_to_enum(c, v, "reference", SC_REFERENCE_NAMES)
                                           : sc_key_default_enum("rods.N.reference", SC_REFERENCE_NAMES));

  /* material: a name or an inline mapping; may be omitted when stiffness
   * and inertia give every value (checked below) */
  v = sc_get(m, "material");
  r->has_material = v != NULL;
  if (!v) {
    /* stays zero */
  } else if (v->kind == YN_MAP) {
    sc_push(c, "material");
    read_material(c, v, &r->material);
    sc_pop(c);
  } else {
    const char *s = sc_to_str(c, v, "material");
    size_t i;
    for (i = 0; i < sc->nmaterials; i++)
      if (!strcmp(sc->materials[i].name, s)) break;
    if (i == sc->nmaterials) {
      const char *names[64];
      size_t nn = 0;
      for (size_t j = 0; j < sc->nmaterials && nn < 64; j++) names[nn++] = sc->materials[j].name;
      const char *near = sc_nearest(s, names, nn);
      if (near) sc_fail(c, v, "material", "no material named '%.40s' (did you mean '%s'?)", s, near);
      sc_fail(c, v, "material", "no material named '%.40s' under 'materials'", s);
    }
    r->material = sc->materials[i];
  }

  /* shape first: it may supply the length */
  sc_push(c, "shape");
  read_shape(c, sc_get(m, "shape"), &r->shape);
  sc_pop(c);

  /* discretisation */
  ynode *vs = sc_get(m, "segments"), *vg = sc_get(m, "grid"), *vl = sc_get(m, "length");
  if (vs && vg) sc_fail(c, vg, "grid", "give either 'segments' or 'grid', not both");
  double length = 0;
  if (vl) {
    length = sc_to_num(c, vl, "length");
    sc_check_range(c, vl, "length", length, R_POS);
  }
  if (vg) {
    if (vg->kind != YN_SEQ || vg->n < 2)
      sc_fail(c, vg, "grid", "expected a list of at least 2 arc lengths [s_0, ..., s_N]");
    if (vg->n - 1 > COSROD_SC_MAX_SEGMENTS)
      sc_fail(c, vg, "grid", "too many segments (%zu > %d)", vg->n - 1, COSROD_SC_MAX_SEGMENTS);
    r->segments = vg->n - 1;
    r->grid_given = 1;
    r->grid = sc_xcalloc(c, vg->n, sizeof(double));
    sc_push(c, "grid");
    for (size_t i = 0; i < vg->n; i++) {
      char idx[24];
      snprintf(idx, sizeof idx, "%zu", i);
      r->grid[i] = sc_to_num(c, vg->item[i], idx);
      if (i > 0 && !(r->grid[i] > r->grid[i - 1]))
        sc_fail(c, vg->item[i], idx, "grid must increase strictly (%.15g after %.15g)", r->grid[i],
             r->grid[i - 1]);
    }
    sc_pop(c);
    double lg = r->grid[r->segments] - r->grid[0];
    if (!isfinite(lg)) sc_fail(c, vg, "grid", "length s_N - s_0 is not finite");
    if (vl && fabs(length - lg) > 1e-9 * lg)
      sc_fail(c, vl, "length", "%.15g disagrees with the grid length s_N - s_0 = %.15g", length, lg);
    length = lg;
  } else {
    if (vs)
      r->segments = (size_t)sc_to_int(c, vs, "segments", 1, COSROD_SC_MAX_SEGMENTS);
    else
      r->segments = r->shape.kind == COSROD_SC_SHAPE_POLYLINE ? r->shape.npoints - 1
                                                               : (size_t)sc_key_default_num("rods.N.segments");
    if (r->segments > COSROD_SC_MAX_SEGMENTS)
      sc_fail(c, m, "segments", "too many segments (%zu > %d)", r->segments, COSROD_SC_MAX_SEGMENTS);
    if (!vl) {
      if (r->reference == COSROD_SC_REFERENCE_INITIAL && r->shape.length > 0)
        length = r->shape.length;
      else
        sc_fail(
            c, m, "length", "missing (give 'length' or 'grid'%s)",
            r->reference == COSROD_SC_REFERENCE_INITIAL ? "; a straight shape has no length of its own" : "");
    }
    r->grid = sc_xcalloc(c, r->segments + 1, sizeof(double));
    for (size_t i = 0; i <= r->segments; i++) r->grid[i] = length * (double)i / (double)r->segments;
  }
  r->length = length;

  /* section, stiffness, inertia */
  r->shear_correction[0] = r->shear_correction[1] = 1.0;
  sc_vec(c, m, "shear_correction", r->shear_correction, 2, R_POS);
  static const char *const stiff_keys[] = {"EA", "GA1", "GA2", "EI1", "EI2", "GJ", NULL};
  static const char *const inert_keys[] = {"rhoA", "rhoI1", "rhoI2", "rhoJ", NULL};
  ynode *vst = sc_get(m, "stiffness"), *vin = sc_get(m, "inertia");
  double stiff[6] = {0}, inert[4] = {0};
  if (vst) {
    sc_push(c, "stiffness");
    sc_expect_map(c, vst, NULL, "EA, GA1, GA2, EI1, EI2, GJ");
    sc_check_section(c, vst, "rods.N.stiffness");
    for (unsigned k = 0; k < 6; k++)
      if (sc_get(vst, stiff_keys[k])) {
        stiff[k] = sc_num(c, vst, stiff_keys[k], 0, R_POS);
        r->stiffness_overridden |= 1u << k;
      }
    sc_pop(c);
  }
  if (vin) {
    sc_push(c, "inertia");
    sc_expect_map(c, vin, NULL, "rhoA, rhoI1, rhoI2, rhoJ");
    sc_check_section(c, vin, "rods.N.inertia");
    for (unsigned k = 0; k < 4; k++)
      if (sc_get(vin, inert_keys[k])) {
        inert[k] = sc_num(c, vin, inert_keys[k], 0, R_POS);
        r->inertia_overridden |= 1u << k;
      }
    sc_pop(c);
  }
  int all_given = r->stiffness_overridden == 0x3fu && r->inertia_overridden == 0xfu;
  if (!r->has_material && !all_given)
    sc_fail(c, m, "material",
            "missing (a material name or {E, poisson, density}; may be omitted only when all of stiffness "
            "(EA, GA1, GA2, EI1, EI2, GJ) and inertia (rhoA, rhoI1, rhoI2, rhoJ) are given)");
  ynode *vsec = sc_get(m, "section");
  if (vsec) {
    sc_push(c, "section");
    read_section(c, vsec, &r->section);
    sc_pop(c);
  } else if (r->stiffness_overridden != 0x3fu || r->inertia_overridden != 0xfu) {
    sc_fail(c, m, "section",
         "missing (circle, rectangle, tube or custom; may be omitted only when all of stiffness "
         "and inertia are given)");
  }
  const cosrod_sc_section *s = &r->section;
  const cosrod_sc_material *mt = &r->material;
  double derived_s[6] = {mt->E * s->area,
                         r->shear_correction[0] * mt->G * s->area,
                         r->shear_correction[1] * mt->G * s->area,
                         mt->E * s->I1,
                         mt->E * s->I2,
                         mt->G * s->J};
  double derived_i[4] = {mt->density * s->area, mt->density * s->I1, mt->density * s->I2, mt->density * s->J};
  for (unsigned k = 0; k < 6; k++)
    if (r->stiffness_overridden & (1u << k)) derived_s[k] = stiff[k];
  for (unsigned k = 0; k < 4; k++)
    if (r->inertia_overridden & (1u << k)) derived_i[k] = inert[k];
  r->EA = derived_s[0];
  r->GA1 = derived_s[1];
  r->GA2 = derived_s[2];
  r->EI1 = derived_s[3];
  r->EI2 = derived_s[4];
  r->GJ = derived_s[5];
  r->rhoA = derived_i[0];
  r->rhoI1 = derived_i[1];
  r->rhoI2 = derived_i[2];
  r->rhoJ = derived_i[3];
  for (int k = 0; k < 6; k++)
    if (!isfinite(derived_s[k]) || !(derived_s[k] > 0))
      sc_fail(c, m, "stiffness", "derived stiffness %s = %.6g is not a positive finite number", stiff_keys[k],
           derived_s[k]);
  for (int k = 0; k < 4; k++)
    if (!isfinite(derived_i[k]) || !(derived_i[k] > 0))
      sc_fail(c, m, "inertia", "derived inertia %s = %.6g is not a positive finite number", inert_keys[k],
           derived_i[k]);

  /* damping */
  if ((v = sc_get(m, "damping"))) {
    sc_push(c, "damping");
    read_damping(c, v, r);
    sc_pop(c);
    cosrod_sc_damping *d = &r->damping;
    if (d->kind == COSROD_SC_DAMPING_KELVIN_VOIGT && !r->has_material)
      sc_fail(c, v, "damping.kelvin_voigt", "needs the material's Poisson ratio: give 'material' or 'coefficients'");
    if (d->kind == COSROD_SC_DAMPING_KELVIN_VOIGT) {
      double nu = mt->poisson;
      d->tau_extension = ((1.0 - 2.0 * nu) * d->tau_bulk + 2.0 * (1.0 + nu) * d->tau_shear) / 3.0;
      d->V_gamma[0] = d->tau_shear * r->GA1;
      d->V_gamma[1] = d->tau_shear * r->GA2;
      d->V_gamma[2] = d->tau_extension * r->EA;
      d->V_kappa[0] = d->tau_extension * r->EI1;
      d->V_kappa[1] = d->tau_extension * r->EI2;
      d->V_kappa[2] = d->tau_shear * r->GJ;
    } else if (d->kind == COSROD_SC_DAMPING_COEFFICIENTS) {
      double f = d->lla_convention ? 2.0 : 1.0;
      d->V_gamma[0] = f * d->shear[0];
      d->V_gamma[1] = f * d->shear[1];
      d->V_gamma[2] = f * d->extension;
      d->V_kappa[0] = f * d->bending[0];
      d->V_kappa[1] = f * d->bending[1];
      d->V_kappa[2] = f * d->torsion;
    }
    for (int k = 0; k < 3; k++)
      if (d->kind != COSROD_SC_DAMPING_NONE && (!isfinite(d->V_gamma[k]) || !isfinite(d->V_kappa[k])))
        sc_fail(c, v, "damping", "viscous coefficients are not finite");
  }

  check_kirchhoff_keys(c, m, r);

  /* ends */
  if ((v = sc_get(m, "ends"))) {
    static const char *const ek[] = {"start", "end", NULL};
    sc_push(c, "ends");
    sc_expect_map(c, v, NULL, "start, end");
    sc_check_section(c, v, "rods.N.ends");
    for (int k = 0; k < 2; k++) {
      ynode *e = sc_get(v, ek[k]);
      if (!e) continue;
      sc_push(c, ek[k]);
      read_end(c, e, &r->ends[k]);
      sc_pop(c);
    }
    sc_pop(c);
  }

  /* loads */
  if ((v = sc_get(m, "loads"))) {
    if (v->kind != YN_SEQ) sc_fail(c, v, "loads", "expected a list of loads, got %s", sc_kind_name(v));
    sc_push(c, "loads");
    r->loads = sc_xcalloc(c, v->n, sizeof *r->loads);
    for (size_t i = 0; i < v->n; i++) {
      sc_push_idx(c, i);
      read_load(c, v->item[i], r, &r->loads[i]);
      r->nloads++;
      sc_pop(c);
    }
    sc_pop(c);
  }
}

void sc_read_rods(ctx *c, ynode *root) {
  ynode *rs = sc_get(root, "rods");
  if (!rs) return;
  if (rs->kind != YN_SEQ) sc_fail(c, rs, "rods", "expected a list of rods, got %s", sc_kind_name(rs));
  sc_push(c, "rods");
  cosrod_scenario *sc = c->sc;
  sc->rods = sc_xcalloc(c, rs->n, sizeof *sc->rods);
  for (size_t i = 0; i < rs->n; i++) {
    sc_push_idx(c, i);
    sc->nrods++;
    read_rod(c, rs->item[i], i, &sc->rods[i]);
    sc_pop(c);
  }
  sc_pop(c);
}
