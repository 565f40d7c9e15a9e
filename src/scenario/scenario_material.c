// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: materials, cross sections and damping of a rod
 * ([manual: theory, scenario reference]). */
#include "scenario_internal.h"
/* ---- materials ------------------------------------------------------------- */

void sc_read_material(ctx *c, ynode *m, cosrod_sc_material *mat) {
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
    SC_TRY(c, { /* entries are independent */
      sc_to_name(c, k, NULL, sc->materials[i].name);
      sc_read_material(c, ms->ent[i].val, &sc->materials[i]);
    });
    sc->nmaterials++;
    sc_pop(c);
  }
  sc_pop(c);
}

/* ---- rods ------------------------------------------------------------------ */

void sc_read_section(ctx *c, ynode *m, cosrod_sc_section *s) {
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

void sc_read_damping(ctx *c, ynode *m, cosrod_sc_rod *r) {
  cosrod_sc_damping *d = &r->damping;
  sc_expect_map(c, m, NULL, "kelvin_voigt, coefficients or medium");
  sc_check_section(c, m, "rods.N.damping");
  ynode *kv = sc_get(m, "kelvin_voigt"), *co = sc_get(m, "coefficients"), *me = sc_get(m, "medium");
  if (kv && co) sc_fail(c, co, "coefficients", "give either 'kelvin_voigt' or 'coefficients', not both");
  if (!kv && !co && !me) sc_fail(c, m, "kelvin_voigt", "missing (or 'coefficients', 'medium')");
  ynode *va = sc_get(m, "variant"), *ri = sc_get(m, "rotary_inertia");
  d->variant = va ? sc_to_enum(c, va, "variant", SC_DAMPING_VARIANT_NAMES)
                  : sc_key_default_enum("rods.N.damping.variant", SC_DAMPING_VARIANT_NAMES);
  d->rotary_inertia = ri ? sc_to_enum(c, ri, "rotary_inertia", SC_ROTARY_INERTIA_NAMES)
                         : sc_key_default_enum("rods.N.damping.rotary_inertia", SC_ROTARY_INERTIA_NAMES);
  if (va && !kv && !co) sc_fail(c, va, "variant", "applies to 'kelvin_voigt' or 'coefficients' damping");
  if (d->variant == COSROD_SC_DAMPING_SHEAR_E && !kv)
    sc_fail(c, va, "variant", "shear-e applies to 'kelvin_voigt' damping only");
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
