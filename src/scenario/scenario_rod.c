// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: materials and rods ([manual: theory, modelling guide, scenario reference]): sections, stiffness
 * and inertia overrides, damping, shapes, ends, loads. */
#include "scenario_internal.h"

/* damping.variant / rotary_inertia: the readings of [LLA] §3.2-3.3 as factors
 * on V_Γ, V_K (cosrod_sc_damping_variant); they are exact on the equidistant
 * grid only ([LLA] §3.1 restricts to it), so a non-uniform grid is refused. */
static void sc_damping_variant(ctx *c, ynode *v, cosrod_sc_rod *r) {
  cosrod_sc_damping *d = &r->damping;
  if (d->variant == COSROD_SC_DAMPING_LLA && d->rotary_inertia == 0) return;
  const size_t N = r->segments;
  const double ds = (r->grid[N] - r->grid[0]) / (double)N;
  for (size_t i = 1; i <= N; i++)
    if (fabs((r->grid[i] - r->grid[i - 1]) - ds) > 1e-9 * ds)
      sc_fail(c, v, d->variant != COSROD_SC_DAMPING_LLA ? "damping.variant" : "damping.rotary_inertia",
              "needs a uniform grid (give 'segments', not a non-uniform 'grid')");
  double fg = 1.0, fk = 1.0;
  switch ((cosrod_sc_damping_variant)d->variant) {
    case COSROD_SC_DAMPING_NO_DS: fg = fk = ds * ds; break;
    case COSROD_SC_DAMPING_NO_DS_SE: fg = ds * ds; break;
    case COSROD_SC_DAMPING_BUSHING: fg = fk = ds; break;
    case COSROD_SC_DAMPING_NO_WEIGHT: fg = fk = 1.0 / ds; break;
    case COSROD_SC_DAMPING_SHEAR_E: {
      /* [LLT] eq. 4 with E in place of G: γ_S = τ_S E A κ, γ_T = τ_S E J */
      const double eg = r->material.E / r->material.G;
      d->V_gamma[0] *= eg;
      d->V_gamma[1] *= eg;
      d->V_kappa[2] *= eg;
      break;
    }
    default: break;
  }
  for (int k = 0; k < 3; k++) {
    d->V_gamma[k] *= fg;
    d->V_kappa[k] *= fk;
  }
}

static const char *const stiff_keys[] = {"EA", "GA1", "GA2", "EI1", "EI2", "GJ", NULL};
static const char *const inert_keys[] = {"rhoA", "rhoI1", "rhoI2", "rhoJ", NULL};

/* name (unique), model, curvature, reference */
static void read_rod_kind(ctx *c, ynode *m, size_t index, cosrod_sc_rod *r) {
  cosrod_scenario *sc = c->sc;
  ynode *v;
  if ((v = sc_get(m, "name"))) {
    sc_to_name(c, v, "name", r->name);
    for (size_t i = 0; i < index; i++)
      if (!strcmp(sc->rods[i].name, r->name)) sc_fail(c, v, "name", "duplicate rod name '%s'", r->name);
  } else {
    snprintf(r->name, sizeof r->name, "rod%zu", index);
  }
  r->model =
      (cosrod_sc_model)((v = sc_get(m, "model")) ? sc_to_enum(c, v, "model", SC_MODEL_NAMES)
                                                 : sc_key_default_enum("rods.N.model", SC_MODEL_NAMES));
  r->curvature = (cosrod_sc_curvature)((v = sc_get(m, "curvature"))
                                           ? sc_to_enum(c, v, "curvature", SC_CURVATURE_NAMES)
                                           : sc_key_default_enum("rods.N.curvature", SC_CURVATURE_NAMES));
  r->reference = (cosrod_sc_reference)((v = sc_get(m, "reference"))
                                           ? sc_to_enum(c, v, "reference", SC_REFERENCE_NAMES)
                                           : sc_key_default_enum("rods.N.reference", SC_REFERENCE_NAMES));
}

/* material: a name or an inline mapping; may be omitted when stiffness and
 * inertia give every value (checked in read_rod_section) */
static void read_rod_material(ctx *c, ynode *m, cosrod_sc_rod *r) {
  cosrod_scenario *sc = c->sc;
  ynode *v = sc_get(m, "material");
  r->has_material = v != NULL;
  if (!v) {
    /* stays zero */
  } else if (v->kind == YN_MAP) {
    sc_push(c, "material");
    sc_read_material(c, v, &r->material);
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
}

/* discretisation: segments or grid, and the length (the shape, read first,
 * may supply it) */
static void read_rod_grid(ctx *c, ynode *m, cosrod_sc_rod *r) {
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
}

/* stiffness / inertia overrides; sets the bits of r->stiffness_overridden,
 * r->inertia_overridden */
static void read_rod_overrides(ctx *c, ynode *m, cosrod_sc_rod *r, double stiff[6], double inert[4]) {
  ynode *vst = sc_get(m, "stiffness"), *vin = sc_get(m, "inertia");
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
}

/* section, stiffness, inertia: the section's values unless overridden */
static void read_rod_section(ctx *c, ynode *m, cosrod_sc_rod *r) {
  r->shear_correction[0] = r->shear_correction[1] = 1.0;
  sc_vec(c, m, "shear_correction", r->shear_correction, 2, R_POS);
  double stiff[6] = {0}, inert[4] = {0};
  read_rod_overrides(c, m, r, stiff, inert);
  int all_given = r->stiffness_overridden == 0x3fu && r->inertia_overridden == 0xfu;
  if (!r->has_material && !all_given)
    sc_fail(c, m, "material",
            "missing (a material name or {E, poisson, density}; may be omitted only when all of stiffness "
            "(EA, GA1, GA2, EI1, EI2, GJ) and inertia (rhoA, rhoI1, rhoI2, rhoJ) are given)");
  ynode *vsec = sc_get(m, "section");
  if (vsec) {
    sc_push(c, "section");
    sc_read_section(c, vsec, &r->section);
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
}

/* damping: Kelvin-Voigt relaxation times or viscous coefficients */
static void read_rod_damping(ctx *c, ynode *m, cosrod_sc_rod *r) {
  const cosrod_sc_material *mt = &r->material;
  ynode *v;
  if ((v = sc_get(m, "damping"))) {
    sc_push(c, "damping");
    sc_read_damping(c, v, r);
    sc_pop(c);
    cosrod_sc_damping *d = &r->damping;
    if (d->kind == COSROD_SC_DAMPING_KELVIN_VOIGT && !r->has_material)
      sc_fail(c, v, "damping.kelvin_voigt",
              "needs the material's Poisson ratio: give 'material' or 'coefficients'");
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
    sc_damping_variant(c, v, r);
    for (int k = 0; k < 3; k++)
      if (d->kind != COSROD_SC_DAMPING_NONE && (!isfinite(d->V_gamma[k]) || !isfinite(d->V_kappa[k])))
        sc_fail(c, v, "damping", "viscous coefficients are not finite");
  }
}

/* ends and loads */
static void read_rod_ends_loads(ctx *c, ynode *m, cosrod_sc_rod *r) {
  ynode *v;
  if ((v = sc_get(m, "ends"))) {
    static const char *const ek[] = {"start", "end", NULL};
    sc_push(c, "ends");
    sc_expect_map(c, v, NULL, "start, end");
    sc_check_section(c, v, "rods.N.ends");
    for (int k = 0; k < 2; k++) {
      ynode *e = sc_get(v, ek[k]);
      if (!e) continue;
      sc_push(c, ek[k]);
      sc_read_end(c, e, &r->ends[k]);
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
      sc_read_load(c, v->item[i], r, &r->loads[i]);
      r->nloads++;
      sc_pop(c);
    }
    sc_pop(c);
  }
}

static void read_rod(ctx *c, ynode *m, size_t index, cosrod_sc_rod *r) {
  sc_expect_map(c, m, NULL, "a rod");
  sc_check_section(c, m, "rods.N");
  r->line = m->key_line;
  r->ends[0].body = r->ends[1].body = -1;
  read_rod_kind(c, m, index, r);
  read_rod_material(c, m, r);
  /* shape first: it may supply the length */
  sc_push(c, "shape");
  sc_read_shape(c, sc_get(m, "shape"), &r->shape);
  sc_pop(c);
  read_rod_grid(c, m, r);
  read_rod_section(c, m, r);
  read_rod_damping(c, m, r);
  sc_check_kirchhoff_keys(c, m, r);
  read_rod_ends_loads(c, m, r);
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
    SC_TRY(c, read_rod(c, rs->item[i], i, &sc->rods[i])); /* entries are independent */
    sc_pop(c);
  }
  sc_pop(c);
}
