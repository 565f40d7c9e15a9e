// SPDX-License-Identifier: Apache-2.0
/* cosrod_scenario_to_yaml: a validated scenario back to a scenario file
 * ([manual: scenario reference] schema) that loads to the same scenario.
 *
 * Every value is written as given or as resolved (defaults included), with
 * the shortest of %.15g / %.17g that reads back (strtod) to the same double.
 * Materials are written inline in each rod (named materials stay under
 * `materials`); a material is written with `poisson` when G = E/(2(1+nu))
 * reproduces its G exactly, else with `G`.  Stiffness and inertia values are
 * written only where the file overrode them (the others derive from the
 * material and section again; a rod without material gets none).  Keys that
 * the loader refuses for a model or type are not written (shear_correction
 * and shear / extension damping coefficients of Kirchhoff rods, axis of
 * fixed joints); output.steps is folded into output.fields.  Every field of
 * the scenario struct is checked by tests/scenario/test_scenario_yaml.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_internal.h"

static void num(FILE *f, double v) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.15g", v);
  if (strtod(buf, NULL) != v) snprintf(buf, sizeof buf, "%.17g", v);
  fputs(buf, f);
}

static void vec(FILE *f, const double *v, size_t n) {
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    num(f, v[i]);
  }
  fputc(']', f);
}

/* Double-quoted YAML string (JSON escapes). */
static void str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\x%02x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static void kv_num(FILE *f, const char *ind, const char *key, double v) {
  fprintf(f, "%s%s: ", ind, key);
  num(f, v);
  fputc('\n', f);
}

static void kv_vec(FILE *f, const char *ind, const char *key, const double *v, size_t n) {
  fprintf(f, "%s%s: ", ind, key);
  vec(f, v, n);
  fputc('\n', f);
}

static void material(FILE *f, const char *ind, const cosrod_sc_material *m) {
  kv_num(f, ind, "E", m->E);
  if (m->E / (2.0 * (1.0 + m->poisson)) == m->G)
    kv_num(f, ind, "poisson", m->poisson);
  else
    kv_num(f, ind, "G", m->G);
  kv_num(f, ind, "density", m->density);
}

static void keyframes(FILE *f, const char *ind, const char *key, const cosrod_sc_keyframes *k, size_t dim) {
  fprintf(f, "%s%s:\n", ind, key);
  for (size_t i = 0; i < k->n; i++) {
    fprintf(f, "%s  - [", ind);
    num(f, k->t[i]);
    for (size_t d = 0; d < dim; d++) {
      fputs(", ", f);
      num(f, k->values[i * dim + d]);
    }
    fputs("]\n", f);
  }
}

static void end(FILE *f, const cosrod_scenario *sc, const char *name, const cosrod_sc_end *e) {
  fprintf(f, "      %s:\n        type: %s\n", name, SC_END_NAMES[e->type]);
  if (e->type != COSROD_SC_END_FREE && e->slides) kv_vec(f, "        ", "slides_along", e->slides_along, 3);
  if (e->type == COSROD_SC_END_PRESCRIBED || e->type == COSROD_SC_END_PINNED) {
    /* pinned with keyframes: a moving pinned end */
    if (e->position.n) keyframes(f, "        ", "position", &e->position, 3);
    if (e->orientation.n) keyframes(f, "        ", "orientation", &e->orientation, 4);
    if (e->position.n || e->orientation.n)
      fprintf(f, "        interpolation: %s\n", e->cubic ? "cubic" : "linear");
  }
  if (e->body >= 0) {
    fputs("        body: ", f);
    str(f, sc->bodies[e->body].name);
    fputc('\n', f);
    kv_vec(f, "        ", "at", e->at, 3);
    if (e->has_frame) kv_vec(f, "        ", "frame", e->frame, 4);
  }
}

/* A rod's damping: medium drag, Kelvin-Voigt or viscous coefficients. */
static void rod_damping(FILE *f, const cosrod_sc_rod *r) {
  const char *I = "    ";
  const cosrod_sc_damping *d = &r->damping;
  int medium = d->medium_translational != 0.0 || d->medium_rotational != 0.0;
  if (d->kind != COSROD_SC_DAMPING_NONE || medium) fprintf(f, "%sdamping:\n", I);
  if (medium) {
    fputs("      medium:\n", f);
    kv_num(f, "        ", "translational", d->medium_translational);
    kv_num(f, "        ", "rotational", d->medium_rotational);
  }
  if (d->kind == COSROD_SC_DAMPING_KELVIN_VOIGT) {
    fputs("      kelvin_voigt:\n", f);
    kv_num(f, "        ", "tau_shear", d->tau_shear);
    kv_num(f, "        ", "tau_bulk", d->tau_bulk);
  } else if (d->kind == COSROD_SC_DAMPING_COEFFICIENTS) {
    /* a Kirchhoff rod has no shear (inextensible: no extension) coefficient */
    fputs("      coefficients:\n", f);
    if (r->model == COSROD_SC_MODEL_COSSERAT) kv_vec(f, "        ", "shear", d->shear, 2);
    if (r->model != COSROD_SC_MODEL_KIRCHHOFF_INEXTENSIBLE) kv_num(f, "        ", "extension", d->extension);
    kv_vec(f, "        ", "bending", d->bending, 2);
    kv_num(f, "        ", "torsion", d->torsion);
    fprintf(f, "        convention: %s\n", SC_CONVENTION_NAMES[d->lla_convention ? 1 : 0]);
  }
  if (d->variant) fprintf(f, "      variant: %s\n", SC_DAMPING_VARIANT_NAMES[d->variant]);
  if (d->rotary_inertia) fprintf(f, "      rotary_inertia: %s\n", SC_ROTARY_INERTIA_NAMES[d->rotary_inertia]);
}

/* A rod's shape: polyline points or straight / arc / helix parameters. */
static void rod_shape(FILE *f, const cosrod_sc_shape *h) {
  const char *I = "    ";
  fprintf(f, "%sshape:\n      type: %s\n", I, SC_SHAPE_NAMES[h->kind]);
  kv_vec(f, "      ", "normal", h->normal, 3);
  if (h->kind == COSROD_SC_SHAPE_POLYLINE) {
    fputs("      points:\n", f);
    for (size_t i = 0; i < h->npoints; i++) {
      fputs("        - ", f);
      vec(f, h->points + 3 * i, 3);
      fputc('\n', f);
    }
  } else {
    kv_vec(f, "      ", "start", h->start, 3);
    kv_vec(f, "      ", "direction", h->direction, 3);
    if (h->kind == COSROD_SC_SHAPE_ARC) {
      kv_num(f, "      ", "radius", h->radius);
      kv_num(f, "      ", "angle_deg", h->angle_deg);
    } else if (h->kind == COSROD_SC_SHAPE_HELIX) {
      kv_num(f, "      ", "radius", h->radius);
      kv_num(f, "      ", "pitch", h->pitch);
      kv_num(f, "      ", "turns", h->turns);
    }
  }
}

/* A rod's loads with their time profiles. */
static void rod_loads(FILE *f, const cosrod_sc_rod *r) {
  const char *I = "    ";
  if (r->nloads) fprintf(f, "%sloads:\n", I);
  for (size_t i = 0; i < r->nloads; i++) {
    const cosrod_sc_load *l = &r->loads[i];
    fprintf(f, "      - type: %s\n", SC_LOAD_NAMES[l->type]);
    if (l->type != COSROD_SC_LOAD_DISTRIBUTED_FORCE) fprintf(f, "        at: %ld\n", l->vertex);
    kv_vec(f, "        ", "value", l->value, 3);
    fprintf(f, "        frame: %s\n", SC_FRAME_NAMES[l->frame]);
    double iv2[2] = {l->t0, l->t1};
    if (l->profile == COSROD_SC_PROFILE_RAMP) kv_vec(f, "        ", "ramp", iv2, 2);
    if (l->profile == COSROD_SC_PROFILE_ACTIVE) kv_vec(f, "        ", "active", iv2, 2);
    if (l->profile == COSROD_SC_PROFILE_PRELOAD) fputs("        preload: true\n", f);
  }
}

static void rod(FILE *f, const cosrod_scenario *sc, const cosrod_sc_rod *r) {
  const char *I = "    ";
  fputs("  - name: ", f);
  str(f, r->name);
  fprintf(f, "\n%smodel: %s\n", I, SC_MODEL_NAMES[r->model]);
  kv_num(f, I, "length", r->length);
  if (r->grid_given)
    kv_vec(f, I, "grid", r->grid, r->segments + 1);
  else
    fprintf(f, "%ssegments: %zu\n", I, r->segments);
  size_t mi = sc->nmaterials;
  if (r->material.name[0])
    for (mi = 0; mi < sc->nmaterials; mi++)
      if (!strcmp(sc->materials[mi].name, r->material.name)) break;
  if (!r->has_material) {
    /* omitted: every stiffness and inertia value is written below */
  } else if (mi < sc->nmaterials) {
    fprintf(f, "%smaterial: ", I);
    str(f, r->material.name);
    fputc('\n', f);
  } else {
    fprintf(f, "%smaterial:\n", I);
    material(f, "      ", &r->material);
  }
  const cosrod_sc_section *s = &r->section;
  int has_section = !(s->shape == COSROD_SC_SECTION_CIRCLE && s->radius == 0.0);
  if (has_section) {
    fprintf(f, "%ssection:\n      shape: %s\n", I, SC_SECTION_NAMES[s->shape]);
    if (s->shape == COSROD_SC_SECTION_CIRCLE) kv_num(f, "      ", "radius", s->radius);
    if (s->shape == COSROD_SC_SECTION_TUBE) {
      kv_num(f, "      ", "outer_radius", s->outer_radius);
      kv_num(f, "      ", "inner_radius", s->inner_radius);
    }
    if (s->shape == COSROD_SC_SECTION_RECTANGLE) {
      kv_num(f, "      ", "width", s->width);
      kv_num(f, "      ", "height", s->height);
      if (s->torsion_constant > 0) kv_num(f, "      ", "torsion_constant", s->torsion_constant);
    }
    if (s->shape == COSROD_SC_SECTION_CUSTOM) {
      kv_num(f, "      ", "area", s->area);
      kv_num(f, "      ", "I1", s->I1);
      kv_num(f, "      ", "I2", s->I2);
      kv_num(f, "      ", "J", s->J);
    }
  }
  if (r->model == COSROD_SC_MODEL_COSSERAT) kv_vec(f, I, "shear_correction", r->shear_correction, 2);
  static const char *const sk[] = {"EA", "GA1", "GA2", "EI1", "EI2", "GJ"};
  static const char *const ik[] = {"rhoA", "rhoI1", "rhoI2", "rhoJ"};
  const double sv[6] = {r->EA, r->GA1, r->GA2, r->EI1, r->EI2, r->GJ},
               iv[4] = {r->rhoA, r->rhoI1, r->rhoI2, r->rhoJ};
  if (r->stiffness_overridden) {
    fprintf(f, "%sstiffness:\n", I);
    for (int k = 0; k < 6; k++)
      if (r->stiffness_overridden & (1u << k)) kv_num(f, "      ", sk[k], sv[k]);
  }
  if (r->inertia_overridden) {
    fprintf(f, "%sinertia:\n", I);
    for (int k = 0; k < 4; k++)
      if (r->inertia_overridden & (1u << k)) kv_num(f, "      ", ik[k], iv[k]);
  }
  fprintf(f, "%scurvature: %s\n", I, SC_CURVATURE_NAMES[r->curvature]);
  rod_damping(f, r);
  rod_shape(f, &r->shape);
  fprintf(f, "%sreference: %s\n", I, SC_REFERENCE_NAMES[r->reference]);
  fprintf(f, "%sends:\n", I);
  end(f, sc, "start", &r->ends[0]);
  end(f, sc, "end", &r->ends[1]);
  rod_loads(f, r);
}

static void body_name(FILE *f, const cosrod_scenario *sc, int b) {
  if (b < 0)
    fputs("ground", f);
  else
    str(f, sc->bodies[b].name);
}

/* The shape keys of an obstacle / a body shape (ind: indentation of the keys). */
static void shape_keys(FILE *f, const char *ind, const cosrod_sc_obstacle *o) {
  const cosrod_shape *sh = &o->shape;
  const double *x = o->pose.position;
  switch (sh->type) {
    case COSROD_SHAPE_PLANE:
      kv_vec(f, ind, "point", x, 3);
      kv_vec(f, ind, "normal", o->given, 3);
      break;
    case COSROD_SHAPE_SPHERE:
      kv_vec(f, ind, "center", x, 3);
      kv_num(f, ind, "radius", sh->radius);
      break;
    case COSROD_SHAPE_CYLINDER:
      kv_vec(f, ind, "center", x, 3);
      if (o->given[0] != 0 || o->given[1] != 0 || o->given[2] != 0) kv_vec(f, ind, "axis", o->given, 3);
      kv_num(f, ind, "radius", sh->radius);
      if (sh->half_length > 0) kv_num(f, ind, "length", 2.0 * sh->half_length);
      break;
    case COSROD_SHAPE_CAPSULE:
      kv_vec(f, ind, "a", o->a, 3);
      kv_vec(f, ind, "b", o->b, 3);
      kv_num(f, ind, "radius", sh->radius);
      break;
    case COSROD_SHAPE_BOX: {
      double size[3] = {2.0 * sh->half[0], 2.0 * sh->half[1], 2.0 * sh->half[2]};
      kv_vec(f, ind, "center", x, 3);
      kv_vec(f, ind, "size", size, 3);
      if (o->given[0] != 0 || o->given[1] != 0 || o->given[2] != 0 || o->given[3] != 0)
        kv_vec(f, ind, "orientation", o->given, 4);
      break;
    }
    default:
      fprintf(f, "%sfile: ", ind);
      str(f, o->file_given ? o->file_given : "");
      fputc('\n', f);
      kv_vec(f, ind, "position", x, 3);
      if (o->given[0] != 0 || o->given[1] != 0 || o->given[2] != 0 || o->given[3] != 0)
        kv_vec(f, ind, "orientation", o->given, 4);
  }
}

/* obstacles: and contact: (the bodies' shapes are written with the bodies). */
static void contact_keys(FILE *f, const cosrod_scenario *sc) {
  const cosrod_sc_contact *c = &sc->contact;
  int listed = 0;
  for (size_t i = 0; i < c->nobstacles; i++) {
    const cosrod_sc_obstacle *o = &c->obstacles[i];
    if (o->body_shape) continue;
    if (!listed++) fputs("obstacles:\n", f);
    fputs("  - name: ", f);
    str(f, o->name);
    fprintf(f, "\n    shape: %s\n", cosrod_sc_shape_type_name(o->shape.type));
    shape_keys(f, "    ", o);
    if (o->body >= 0) {
      fputs("    body: ", f);
      str(f, sc->bodies[o->body].name);
      fputc('\n', f);
    }
    if (o->has_motion) {
      fputs("    motion:\n", f);
      if (o->motion_position.n) keyframes(f, "      ", "position", &o->motion_position, 3);
      if (o->motion_orientation.n) keyframes(f, "      ", "orientation", &o->motion_orientation, 4);
      fprintf(f, "      interpolation: %s\n", o->motion_cubic ? "cubic" : "linear");
    }
  }
  if (!c->enabled) return;
  const cosrod_contact_law *L = &c->law;
  fputs("contact:\n", f);
  if (L->stiffness > 0) kv_num(f, "  ", "stiffness", L->stiffness);
  if (L->onset > 0) kv_num(f, "  ", "onset", L->onset);
  if (L->damping > 0) kv_num(f, "  ", "damping", L->damping);
  if (L->damping < 0) fputs("  damping: none\n", f);
  if (L->tangent_stiffness > 0) kv_num(f, "  ", "tangent_stiffness", L->tangent_stiffness);
  if (L->mu_static > 0 || L->mu_kinetic > 0) {
    fputs("  friction:\n", f);
    kv_num(f, "    ", "static", L->mu_static);
    kv_num(f, "    ", "kinetic", L->mu_kinetic);
  }
  fprintf(f, "  rods: %s\n  self: %s\n", c->rods ? "true" : "false", c->self ? "true" : "false");
  if (c->quadrature) fprintf(f, "  quadrature: %d\n", c->quadrature);
}

/* One entry of bodies:. */
static void body_keys(FILE *f, const cosrod_scenario *sc, const cosrod_sc_body *b) {
  fputs("  - name: ", f);
  str(f, b->name);
  fputc('\n', f);
  if (b->mass > 0) kv_num(f, "    ", "mass", b->mass); /* optional with motion */
  if (b->inertia[0] > 0) kv_vec(f, "    ", "inertia", b->inertia, 3);
  kv_vec(f, "    ", "position", b->position, 3);
  if (b->orientation_euler) {
    fputs("    orientation: {euler313: ", f);
    vec(f, b->euler313, 3);
  } else {
    fputs("    orientation: {quaternion: ", f);
    vec(f, b->quaternion, 4);
  }
  fputs("}\n", f);
  kv_vec(f, "    ", "velocity", b->velocity, 3);
  kv_vec(f, "    ", "angular_velocity", b->angular_velocity, 3);
  fprintf(f, "    parametrisation: %s\n", SC_PARAM_NAMES[b->parametrisation]);
  if (b->has_motion) {
    fputs("    motion:\n", f);
    if (b->motion_position.n) keyframes(f, "      ", "position", &b->motion_position, 3);
    if (b->motion_orientation.n) keyframes(f, "      ", "orientation", &b->motion_orientation, 4);
    fprintf(f, "      interpolation: %s\n", b->motion_cubic ? "cubic" : "linear");
  }
  if (b->has_shape) {
    const cosrod_sc_obstacle *o = &sc->contact.obstacles[b->shape_obstacle];
    fprintf(f, "    shape:\n      type: %s\n", cosrod_sc_shape_type_name(o->shape.type));
    shape_keys(f, "      ", o);
  }
  if (b->nloads) fputs("    loads:\n", f);
  for (size_t k = 0; k < b->nloads; k++) {
    const cosrod_sc_body_load *l = &b->loads[k];
    fprintf(f, "      - type: %s\n", SC_LOAD_NAMES[l->type]);
    kv_vec(f, "        ", "value", l->value, 3);
    fprintf(f, "        frame: %s\n", SC_FRAME_NAMES[l->frame]);
    if (l->type == COSROD_SC_LOAD_FORCE) kv_vec(f, "        ", "at", l->at, 3);
    double iv[2] = {l->t0, l->t1};
    if (l->profile == COSROD_SC_PROFILE_RAMP) kv_vec(f, "        ", "ramp", iv, 2);
    if (l->profile == COSROD_SC_PROFILE_ACTIVE) kv_vec(f, "        ", "active", iv, 2);
  }
}

/* One entry of joints:. */
static void joint_keys(FILE *f, const cosrod_scenario *sc, const cosrod_sc_joint *j) {
  fprintf(f, "  - type: %s\n    bodies: [", SC_JOINT_NAMES[j->type]);
  body_name(f, sc, j->body[0]);
  fputs(", ", f);
  body_name(f, sc, j->body[1]);
  fputs("]\n    at: [", f);
  vec(f, j->at[0], 3);
  fputs(", ", f);
  vec(f, j->at[1], 3);
  fputs("]\n", f);
  if (j->type == COSROD_SC_JOINT_BUSHING) {
    kv_num(f, "    ", "stiffness", j->stiffness);
    kv_num(f, "    ", "damping", j->damping);
    kv_num(f, "    ", "stiffness_rot", j->stiffness_rot);
    kv_num(f, "    ", "damping_rot", j->damping_rot);
  } else if (j->type != COSROD_SC_JOINT_SPHERICAL && j->type != COSROD_SC_JOINT_FIXED) {
    kv_vec(f, "    ", "axis", j->axis, 3);
    if (j->type == COSROD_SC_JOINT_UNIVERSAL) kv_vec(f, "    ", "axis2", j->axis2, 3);
  }
}

/* analysis: and solver:. */
static void analysis_solver_keys(FILE *f, const cosrod_scenario *sc) {
  const cosrod_sc_analysis *a = &sc->analysis;
  fprintf(f, "analysis:\n  type: %s\n", SC_ANALYSIS_NAMES[a->type]);
  if (a->type == COSROD_SC_ANALYSIS_DYNAMIC) {
    kv_num(f, "  ", "t_end", a->t_end);
    fprintf(f, "  start_from_equilibrium: %s\n", a->start_from_equilibrium ? "true" : "false");
  } else if (a->type == COSROD_SC_ANALYSIS_STATIC) {
    fprintf(f, "  increments: %ld\n  gravity: %s\n", a->increments,
            a->gravity_constant ? "constant" : "ramp");
    if (a->arc_length)
      fprintf(f, "  control: arc-length\n  max_steps: %ld\n  switch_branch: %s\n", a->max_steps,
              a->switch_branch ? "true" : "false");
    if (a->keyframe_path) fputs("  path: keyframes\n", f);
  } else {
    fprintf(f, "  count: %ld\n", a->count);
  }
  const cosrod_sc_solver *s = &sc->solver;
  fprintf(f, "solver:\n  formulation: %s\n  stabilisation: %s\n", SC_FORMULATION_NAMES[s->formulation],
          SC_STAB_NAMES[s->stabilisation]);
  fputs("  baumgarte:\n", f);
  kv_num(f, "    ", "omega", s->baumgarte_omega);
  kv_num(f, "    ", "r", s->baumgarte_r);
  fprintf(f, "  integrator: %s\n", SC_INTEGRATOR_NAMES[s->integrator]);
  kv_num(f, "  ", "rtol", s->rtol);
  kv_num(f, "  ", "atol", s->atol);
  kv_num(f, "  ", "h0", s->h0);
  kv_num(f, "  ", "hmax", s->hmax);
  fprintf(f, "  max_steps: %ld\n", s->max_steps);
  if (s->rho_inf_given) kv_num(f, "  ", "rho_inf", s->rho_inf); /* else each method's own default */
  kv_num(f, "  ", "h", s->h);
  if (s->realtime) {
    fputs("  realtime:\n", f);
    kv_num(f, "    ", "h", s->h);
    fprintf(f, "    newton_max: %d\n    jac_budget: %d\n", s->rt_newton_max, s->rt_jac_budget);
  }
  fprintf(f, "  linear_solver: %s\n", SC_LINSOLVE_NAMES[s->linear_solver]);
  if (s->threads != 1) fprintf(f, "  threads: %d\n", s->threads);
}

/* output:. */
static void output_keys(FILE *f, const cosrod_scenario *sc) {
  fputs("output:\n  dir: ", f);
  str(f, sc->output.dir ? sc->output.dir : "out");
  fputc('\n', f);
  kv_num(f, "  ", "every", sc->output.every);
  fprintf(f, "  vtk: %s\n  plots: %s\n", sc->output.vtk ? "true" : "false",
          sc->output.plots ? "true" : "false");
  if (sc->output.format == COSROD_SC_FORMAT_HDF5) fputs("  format: hdf5\n", f);
  if (sc->output.checkpoint_every > 0.0 || sc->output.checkpoint_wall > 0.0) {
    fputs("  checkpoint:\n", f);
    if (sc->output.checkpoint_every > 0.0) kv_num(f, "    ", "every", sc->output.checkpoint_every);
    if (sc->output.checkpoint_wall > 0.0) kv_num(f, "    ", "wall", sc->output.checkpoint_wall);
  }
  /* output.fields lists the files (steps included); `steps: false` is folded into it */
  static const char *const field_names[] = {"tip",        "centerline", "frames", "strains",
                                            "curvatures", "energy",     "steps",  "reactions"};
  if (sc->output.fields) {
    fputs("  fields: [", f);
    int first = 1;
    for (unsigned k = 0; k < sizeof field_names / sizeof field_names[0]; k++)
      if (sc->output.fields & (1u << k)) {
        fprintf(f, "%s%s", first ? "" : ", ", field_names[k]);
        first = 0;
      }
    fputs("]\n", f);
  } else {
    /* only reachable by `fields: [steps], steps: false` */
    fputs("  fields: [steps]\n  steps: false\n", f);
  }
}

cosrod_status cosrod_scenario_to_yaml(const cosrod_scenario *sc, FILE *f) {
  if (!sc || !f) return COSROD_ERR_INVALID;
  fprintf(f, "cosrod: %d\n", COSROD_SC_SCHEMA_VERSION);
  if (sc->title && sc->title[0]) {
    fputs("title: ", f);
    str(f, sc->title);
    fputc('\n', f);
  }
  kv_vec(f, "", "gravity", sc->gravity, 3);
  if (sc->nmaterials) fputs("materials:\n", f);
  for (size_t i = 0; i < sc->nmaterials; i++) {
    fputs("  ", f);
    str(f, sc->materials[i].name);
    fputs(":\n", f);
    material(f, "    ", &sc->materials[i]);
  }
  if (sc->nrods) fputs("rods:\n", f);
  for (size_t i = 0; i < sc->nrods; i++) rod(f, sc, &sc->rods[i]);
  if (sc->nbodies) fputs("bodies:\n", f);
  for (size_t i = 0; i < sc->nbodies; i++) body_keys(f, sc, &sc->bodies[i]);
  if (sc->njoints) fputs("joints:\n", f);
  for (size_t i = 0; i < sc->njoints; i++) joint_keys(f, sc, &sc->joints[i]);
  contact_keys(f, sc);
  analysis_solver_keys(f, sc);
  output_keys(f, sc);
  return ferror(f) ? COSROD_ERR_IO : COSROD_OK;
}
