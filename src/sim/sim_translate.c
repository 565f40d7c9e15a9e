// SPDX-License-Identifier: Apache-2.0
/* Scenario rod -> rod definition (cosrod_rod_def) and the rod: the
 * translation of one `rods:` entry (geometry, material, ends, loads,
 * keyframes, damping) into the rod model of include/cosrod/rod.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "system/bodies.h"

static const double SIM_PI = 3.14159265358979323846;

/* ---- small helpers ------------------------------------------------------- */

/* ---- scenario -> rod definition ----------------------------------------- */

/* The rod definition of scenario rod sr without its ends and loads: grid,
 * material, section, stiffness and inertia overrides, damping (with the
 * readings of [LLA] §3.2-3.3), initial shape, reference and model. */
static void rod_def_of(const cosrod_scenario *sc, const cosrod_sc_rod *sr, cosrod_rod_def *def) {
  def->nseg = (int)sr->segments;
  def->length = sr->length;
  if (sr->grid_given) {
    def->grid = sr->grid;
    def->ngrid = (int)sr->segments + 1;
  }
  def->E = sr->material.E;
  def->G = sr->material.G;
  def->poisson = sr->material.poisson;
  def->density = sr->material.density;
  def->section = sim_enum_section(sr->section.shape);
  def->radius = sr->section.radius;
  def->width = sr->section.width;
  def->height = sr->section.height;
  def->torsion_constant = sr->section.torsion_constant;
  def->area = sr->section.area;
  def->I1 = sr->section.I1;
  def->I2 = sr->section.I2;
  def->J = sr->section.J;
  def->shear_correction[0] = sr->shear_correction[0];
  def->shear_correction[1] = sr->shear_correction[1];
  const double stiff[6] = {sr->EA, sr->GA1, sr->GA2, sr->EI1, sr->EI2, sr->GJ};
  double *stiff_def[6] = {&def->EA, &def->GA1, &def->GA2, &def->EI1, &def->EI2, &def->GJ};
  for (int k = 0; k < 6; k++)
    if (sr->stiffness_overridden & (1u << k)) *stiff_def[k] = stiff[k];
  const double inert[4] = {sr->rhoA, sr->rhoI1, sr->rhoI2, sr->rhoJ};
  double *inert_def[4] = {&def->rhoA, &def->rhoI1, &def->rhoI2, &def->rhoJ};
  for (int k = 0; k < 4; k++)
    if (sr->inertia_overridden & (1u << k)) *inert_def[k] = inert[k];
  if (sr->damping.rotary_inertia) {
    /* rigid-cylinder segments ([LLA] §3.3): ρΔs I_i + ρA Δs³/12 about d1, d2
     * (the scenario refuses a non-uniform grid with this reading) */
    const double ds = sr->length / (double)sr->segments;
    def->rhoI1 = sr->rhoI1 + sr->rhoA * ds * ds / 12.0;
    def->rhoI2 = sr->rhoI2 + sr->rhoA * ds * ds / 12.0;
  }
  def->curvature = sim_enum_curvature(sr->curvature);
  def->damping = sim_enum_damping(sr->damping.kind);
  /* a non-default reading of Kelvin-Voigt damping: the scenario's V_gamma,
   * V_kappa carry its factors (the rod would derive the lla ones from tau) */
  if (sr->damping.kind == COSROD_SC_DAMPING_KELVIN_VOIGT && sr->damping.variant != COSROD_SC_DAMPING_LLA)
    def->damping = COSROD_DAMPING_COEFFICIENTS;
  def->tau_shear = sr->damping.tau_shear;
  def->tau_bulk = sr->damping.tau_bulk;
  def->medium_translational = sr->damping.medium_translational;
  def->medium_rotational = sr->damping.medium_rotational;
  for (int k = 0; k < 3; k++) {
    def->visc_gamma[k] = sr->damping.V_gamma[k];
    def->visc_kappa[k] = sr->damping.V_kappa[k];
  }
  const cosrod_sc_shape *sh = &sr->shape;
  def->shape = sim_enum_shape(sh->kind);
  for (int k = 0; k < 3; k++) {
    def->start[k] = sh->start[k];
    def->direction[k] = sh->direction[k];
    def->normal[k] = sh->normal[k];
    def->gravity[k] = sc->gravity[k];
  }
  def->shape_radius = sh->radius;
  def->arc_angle = sh->angle_deg * SIM_PI / 180.0;
  def->pitch = sh->pitch;
  def->turns = sh->turns;
  def->npoints = (int)sh->npoints;
  def->points = sh->points;
  def->reference = sim_enum_reference(sr->reference);
  def->model = sim_enum_model(sr->model);
}

/* Build rod r; returns NULL with err set. */
cosrod_rod *sim_build_rod(const cosrod_scenario *sc, size_t r, int with_preload, cosrod_status *st,
                             char *err, size_t errlen) {
  const cosrod_sc_rod *sr = &sc->rods[r];
  char key[96];
  if (sim_kirchhoff_check(sc, r, err, errlen) != COSROD_OK) {
    *st = COSROD_ERR_INVALID;
    return NULL;
  }
  cosrod_rod_def def = cosrod_rod_def_default();
  rod_def_of(sc, sr, &def);

  double *rows[4] = {NULL, NULL, NULL, NULL};
  cosrod_rod_load *loads = malloc((sr->nloads ? sr->nloads : 1) * sizeof *loads);
  cosrod_rod *rod = NULL;
  if (!loads) goto nomem;
  for (int e = 0; e < 2; e++) {
    const cosrod_sc_end *se = &sr->ends[e];
    cosrod_rod_end *re = &def.ends[e];
    re->kind = sim_enum_end(se->type);
    re->slides = se->slides;
    re->cubic = se->cubic;
    for (int k = 0; k < 3; k++) re->slide_axis[k] = se->slides_along[k];
    if (se->position.n) {
      const sys_keyframes kp = {se->position.n, se->position.t, se->position.values};
      if (!(rows[2 * e] = sim_keyframe_rows(&kp, 3))) goto nomem;
      re->npos = (int)se->position.n;
      re->pos = rows[2 * e];
    }
    if (se->orientation.n) {
      const sys_keyframes kr = {se->orientation.n, se->orientation.t, se->orientation.values};
      if (!(rows[2 * e + 1] = sim_keyframe_rows(&kr, 4))) goto nomem;
      re->nrot = (int)se->orientation.n;
      re->rot = rows[2 * e + 1];
    }
  }
  int nl = 0;
  for (size_t i = 0; i < sr->nloads; i++) {
    const cosrod_sc_load *sl = &sr->loads[i];
    /* a preload acts only in the initial equilibrium (constant there) */
    if (sl->profile == COSROD_SC_PROFILE_PRELOAD && !with_preload) continue;
    cosrod_rod_load *l = &loads[nl++];
    memset(l, 0, sizeof *l);
    l->kind = sim_enum_load(sl->type);
    l->frame = sim_enum_frame(sl->frame);
    l->vertex = sl->vertex < 0 ? 0 : (int)sl->vertex;
    for (int k = 0; k < 3; k++) l->value[k] = sl->value[k];
    l->profile = sim_enum_profile(sl->profile);
    l->t0 = sl->t0;
    l->t1 = sl->t1;
  }
  def.nloads = nl;
  def.loads = loads;
  rod = cosrod_rod_create(&def, st);
  /* static, modal and buckling analyses: keyframe rates are pseudo-time rates, not velocities */
  if (rod && sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC) cosrod_rod_set_at_rest(rod, 1);
  if (!rod) {
    snprintf(key, sizeof key, "rods.%zu", r);
    sim_set_err(err, errlen, sc, key, "the rod model rejected this rod (%s)", cosrod_strerror(*st));
  }
  goto done;
nomem:
  *st = COSROD_ERR_NOMEM;
  sim_set_err(err, errlen, sc, "rods", "out of memory");
done:
  for (int k = 0; k < 4; k++) free(rows[k]);
  free(loads);
  return rod;
}

int sim_rod_time_dependent(const cosrod_sc_rod *sr) {
  for (int e = 0; e < 2; e++)
    if (sr->ends[e].position.n > 1 || sr->ends[e].orientation.n > 1) return 1;
  for (size_t i = 0; i < sr->nloads; i++)
    if (sr->loads[i].profile == COSROD_SC_PROFILE_RAMP || sr->loads[i].profile == COSROD_SC_PROFILE_ACTIVE)
      return 1;
  return 0;
}

