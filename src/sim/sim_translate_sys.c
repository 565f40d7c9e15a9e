// SPDX-License-Identifier: Apache-2.0
/* Scenario -> system definition (system/system_def.h): the one place that
 * knows both the scenario's types and the system's definitions (bodies,
 * joints, bushings, rods' attachments, contact, settings), with the
 * scenario checks of what the system does not take.  Enums are converted
 * by the explicit tables of sim_enums.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "sim/sim_internal.h"
#include "system/bodies.h"

/* The definition with the arrays it owns. */
typedef struct sysdef_owned {
  sys_def def; /* first: the definition handed out */
  sys_rod *rods;
  sys_body *bodies;
  sys_joint *joints;
  sys_obstacle *obs;
  cosrod_body_load_def *loads;
} sysdef_owned;

static void sc_error(const void *ctx, const char *key, const char *problem, char *err, size_t errlen) {
  cosrod_scenario_format_error(ctx, key, problem, err, errlen);
}

void sim_set_err(char *err, size_t errlen, const cosrod_scenario *sc, const char *key, const char *fmt, ...) {
  char problem[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  if (err && errlen) cosrod_scenario_format_error(sc, key, problem, err, errlen);
}

static sys_keyframes keyframes(const cosrod_sc_keyframes *k) {
  sys_keyframes o = {k->n, k->t, k->values};
  return o;
}

/* The largest tension a rod may carry, estimated up front for the contact's
 * automatic wrap stiffness (src/contact/contact_law.c, rule (c)): the sum of
 * what it holds, T0 = its weight rhoA L |g| + the magnitudes of its point
 * forces + |q| L of its distributed forces + the weight and the force loads
 * of each dynamic body on one of its ends (a bound of the tension in a rod
 * held by one support, the statics of a hanging chain).  A support fixed or
 * keyframed in space pulls as hard as it must: holding T0 over an obstacle
 * with friction it carries up to e^(mu_s pi) T0 (capstan, Euler-Eytelwein, a
 * half wrap), so T = e^(mu_s pi) T0 for a rod with such an end.  Not known up
 * front and not counted: a pretension imposed by moving two supports apart,
 * a keyframed body's pull, and wraps beyond half a turn (set
 * contact.stiffness there). */
static double rod_tension(const cosrod_scenario *sc, const cosrod_sc_rod *sr) {
  const double g = sqrt(sc->gravity[0] * sc->gravity[0] + sc->gravity[1] * sc->gravity[1] +
                        sc->gravity[2] * sc->gravity[2]);
  double T = sr->rhoA * sr->length * g;
  for (size_t k = 0; k < sr->nloads; k++) {
    const cosrod_sc_load *l = &sr->loads[k];
    const double v = sqrt(l->value[0] * l->value[0] + l->value[1] * l->value[1] + l->value[2] * l->value[2]);
    if (l->type == COSROD_SC_LOAD_FORCE) T += v;
    if (l->type == COSROD_SC_LOAD_DISTRIBUTED_FORCE) T += v * sr->length;
  }
  int supported = 0;
  for (int e = 0; e < 2; e++) {
    const cosrod_sc_end *se = &sr->ends[e];
    if (se->body < 0) {
      supported |= se->type != COSROD_SC_END_FREE;
      continue;
    }
    const cosrod_sc_body *b = &sc->bodies[se->body];
    if (b->has_motion) continue;
    T += b->mass * g;
    for (size_t k = 0; k < b->nloads; k++)
      if (b->loads[k].type == COSROD_SC_LOAD_FORCE)
        T += sqrt(b->loads[k].value[0] * b->loads[k].value[0] + b->loads[k].value[1] * b->loads[k].value[1] +
                  b->loads[k].value[2] * b->loads[k].value[2]);
  }
  const double mu = sc->contact.law.mu_static;
  return supported && mu > 0.0 ? T * exp(mu * COSROD_QUAT_PI) : T;
}

static void rod_of(const cosrod_scenario *sc, const cosrod_sc_rod *sr, sys_rod *o) {
  o->length = sr->length;
  o->tension = rod_tension(sc, sr);
  o->radius = cosrod_sc_section_radius(&sr->section);
  o->kirchhoff = sr->model != COSROD_SC_MODEL_COSSERAT;
  o->model_name = cosrod_sc_model_name(sr->model);
  for (int e = 0; e < 2; e++) {
    const cosrod_sc_end *se = &sr->ends[e];
    o->ends[e].body = se->body;
    memcpy(o->ends[e].at, se->at, sizeof se->at);
    o->ends[e].has_frame = se->has_frame;
    memcpy(o->ends[e].frame, se->frame, sizeof se->frame);
  }
}

static void body_of(const cosrod_sc_body *b, cosrod_body_load_def *loads, sys_body *o) {
  cosrod_body_def *bd = &o->body; /* material ω: omega_spatial = 0, principal inertia: full_tensor = 0 */
  bd->name = b->name;
  bd->mass = b->mass;
  memcpy(bd->inertia, b->inertia, sizeof b->inertia);
  memcpy(bd->position, b->position, sizeof b->position);
  memcpy(bd->quaternion, b->quaternion, sizeof b->quaternion);
  memcpy(bd->velocity, b->velocity, sizeof b->velocity);
  memcpy(bd->omega, b->angular_velocity, sizeof b->angular_velocity);
  bd->param = sim_enum_body_param(b->parametrisation);
  for (size_t k = 0; k < b->nloads; k++) {
    const cosrod_sc_body_load *l = &b->loads[k];
    cosrod_body_load_def *d = &loads[k];
    d->body = -1;
    d->kind = sim_enum_body_load(l->type);
    d->frame = sim_enum_body_frame(l->frame);
    memcpy(d->at, l->at, sizeof d->at);
    memcpy(d->value, l->value, sizeof d->value);
    d->profile = sim_enum_body_profile(l->profile);
    d->t0 = l->t0;
    d->t1 = l->t1;
  }
  o->nloads = b->nloads;
  o->loads = loads;
  o->has_motion = b->has_motion;
  o->motion_position = keyframes(&b->motion_position);
  o->motion_orientation = keyframes(&b->motion_orientation);
  o->motion_cubic = b->motion_cubic;
}

static void joint_of(const cosrod_sc_joint *j, sys_joint *o) {
  o->bushing = j->type == COSROD_SC_JOINT_BUSHING;
  o->type = sim_enum_joint(j->type);
  o->body[0] = j->body[0], o->body[1] = j->body[1];
  memcpy(o->at, j->at, sizeof o->at);
  memcpy(o->axis, j->axis, sizeof o->axis);
  memcpy(o->axis2, j->axis2, sizeof o->axis2);
  o->stiffness = j->stiffness, o->damping = j->damping;
  o->stiffness_rot = j->stiffness_rot, o->damping_rot = j->damping_rot;
}

void sim_obstacle_of(const cosrod_sc_obstacle *ob, sys_obstacle *o) {
  o->shape = ob->shape;
  o->file = ob->file;
  o->pose = ob->pose;
  o->body = ob->body;
  o->body_shape = ob->body_shape;
  o->has_motion = ob->has_motion;
  o->motion_position = keyframes(&ob->motion_position);
  o->motion_orientation = keyframes(&ob->motion_orientation);
  o->motion_cubic = ob->motion_cubic;
}

static void settings_of(const cosrod_scenario *sc, sys_def *d) {
  memcpy(d->gravity, sc->gravity, sizeof d->gravity);
  d->analysis = sim_enum_analysis(sc->analysis.type);
  d->start_from_equilibrium = sc->analysis.start_from_equilibrium;
  d->t_end = sc->analysis.t_end;
  d->formulation = sim_enum_formulation(sc->solver.formulation);
  d->stabilisation = sim_enum_stabilisation(sc->solver.stabilisation);
  d->baumgarte_omega = sc->solver.baumgarte_omega;
  d->baumgarte_r = sc->solver.baumgarte_r;
  d->galpha = sc->solver.integrator == COSROD_SC_INTEGRATOR_GALPHA;
  d->h = sc->solver.h;
  d->rho_inf = sc->solver.rho_inf;
  d->realtime = sc->solver.realtime;
  d->rt_newton_max = sc->solver.rt_newton_max;
  d->rt_jac_budget = sc->solver.rt_jac_budget;
  d->linear_solver = sim_enum_linear_solver(sc->solver.linear_solver);
  d->contact.enabled = sc->contact.enabled;
  d->contact.law = sc->contact.law;
  d->contact.rods = sc->contact.rods;
  d->contact.self = sc->contact.self;
  d->contact.quadrature = sc->contact.quadrature;
  d->error = sc_error;
  d->error_ctx = sc;
}

sys_def *sim_sys_def_create(const cosrod_scenario *sc) {
  sysdef_owned *o = calloc(1, sizeof *o);
  if (!o) return NULL;
  size_t nl = 0;
  for (size_t b = 0; b < sc->nbodies; b++) nl += sc->bodies[b].nloads;
  o->rods = calloc(sc->nrods + 1, sizeof *o->rods);
  o->bodies = calloc(sc->nbodies + 1, sizeof *o->bodies);
  o->joints = calloc(sc->njoints + 1, sizeof *o->joints);
  o->obs = calloc(sc->contact.nobstacles + 1, sizeof *o->obs);
  o->loads = calloc(nl + 1, sizeof *o->loads);
  if (!o->rods || !o->bodies || !o->joints || !o->obs || !o->loads) {
    sim_sys_def_free(&o->def);
    return NULL;
  }
  sys_def *d = &o->def;
  settings_of(sc, d);
  for (size_t r = 0; r < sc->nrods; r++) rod_of(sc, &sc->rods[r], &o->rods[r]);
  nl = 0;
  for (size_t b = 0; b < sc->nbodies; b++) {
    body_of(&sc->bodies[b], o->loads + nl, &o->bodies[b]);
    nl += sc->bodies[b].nloads;
  }
  for (size_t j = 0; j < sc->njoints; j++) joint_of(&sc->joints[j], &o->joints[j]);
  for (size_t k = 0; k < sc->contact.nobstacles; k++) sim_obstacle_of(&sc->contact.obstacles[k], &o->obs[k]);
  d->nrods = sc->nrods, d->rods = o->rods;
  d->nbodies = sc->nbodies, d->bodies = o->bodies;
  d->njoints = sc->njoints, d->joints = o->joints;
  d->contact.nobstacles = sc->contact.nobstacles, d->contact.obstacles = o->obs;
  return d;
}

void sim_sys_def_free(const sys_def *d) {
  if (!d) return;
  sysdef_owned *o = (sysdef_owned *)d; /* the definition is the first member */
  free(o->rods), free(o->bodies), free(o->joints), free(o->obs), free(o->loads);
  free(o);
}

cosrod_mbs *cosrod_sim_bodies_create(const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen) {
  sys_def *d = sim_sys_def_create(sc);
  if (!d) {
    if (status) *status = COSROD_ERR_NOMEM;
    if (err && errlen) err[0] = '\0';
    return NULL;
  }
  /* without a bmap keyframe bodies are refused: the model keeps no pointer into d */
  cosrod_mbs *m = cosrod_sim_bodies_create_map(d, NULL, status, err, errlen);
  sim_sys_def_free(d);
  return m;
}

int sim_obstacle_pose(const cosrod_sc_obstacle *o, double t, cosrod_pose *P) {
  sys_obstacle so;
  sim_obstacle_of(o, &so);
  return sim_sys_obstacle_pose(&so, t, P);
}

/* ---- scenario checks of what the system does not take -------------------- */

cosrod_status sim_kirchhoff_check(const cosrod_scenario *sc, size_t r, char *err, size_t errlen) {
  const cosrod_sc_rod *sr = &sc->rods[r];
  if (sr->model == COSROD_SC_MODEL_COSSERAT) return COSROD_OK;
  const char *mname = cosrod_sc_model_name(sr->model);
  int inext = sr->model == COSROD_SC_MODEL_KIRCHHOFF_INEXTENSIBLE;
  char key[96];
  if (sr->shear_correction[0] != 1.0 || sr->shear_correction[1] != 1.0) {
    snprintf(key, sizeof key, "rods.%zu.shear_correction", r);
    sim_set_err(err, errlen, sc, key, "only for cosserat rods (a %s rod has no shear)", mname);
    return COSROD_ERR_INVALID;
  }
  if (sr->damping.kind == COSROD_SC_DAMPING_COEFFICIENTS) {
    /* V_gamma = (shear 1, shear 2, extension) */
    for (int k = 0; k < (inext ? 3 : 2); k++)
      if (sr->damping.V_gamma[k] != 0.0) {
        snprintf(key, sizeof key, "rods.%zu.damping", r);
        sim_set_err(err, errlen, sc, key, "viscous %s coefficient of a constrained strain in a %s rod (must be 0)",
                    k < 2 ? "shear" : "extension", mname);
        return COSROD_ERR_INVALID;
      }
  }
  return COSROD_OK;
}

cosrod_status sim_kirchhoff_refuse(const cosrod_scenario *sc, char *err, size_t errlen) {
  for (size_t r = 0; r < sc->nrods; r++) {
    const cosrod_sc_rod *sr = &sc->rods[r];
    if (sr->model == COSROD_SC_MODEL_COSSERAT) continue;
    char key[64];
    snprintf(key, sizeof key, "rods.%zu.model", r);
    const char *mname = cosrod_sc_model_name(sr->model);
    /* static and modal analyses: the statics solver (statics_kirchhoff.c), no integrator */
    if (sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC) continue;
    /* galpha runs the index-1 ODE form (lie_kirchhoff.c) whatever the formulation */
    if (sc->solver.integrator == COSROD_SC_INTEGRATOR_GALPHA && sc->solver.formulation == COSROD_SC_FORMULATION_DAE) {
      sim_set_err(err, errlen, sc, key,
                  "%s rods: integrator galpha runs the null-space form (formulation dae is for radau5, rodas, "
                  "seulex, ida)",
                  mname);
      return COSROD_ERR_UNSUPPORTED;
    }
  }
  return COSROD_OK;
}

static int refuse(const cosrod_scenario *sc, const char *key, const char *problem, char *err, size_t errlen) {
  cosrod_scenario_format_error(sc, key, problem, err, errlen);
  return 1;
}

cosrod_status sim_couple_static_check(const cosrod_scenario *sc, char *err, size_t errlen) {
  const int stat = sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC;
  if (!stat && !sc->analysis.start_from_equilibrium) return COSROD_OK;
  const char *what = stat ? "static, modal and buckling analyses" : "start_from_equilibrium";
  char msg[200], key[64];
  for (size_t j = 0; j < sc->njoints; ++j) {
    const cosrod_sc_joint *jt = &sc->joints[j];
    if (jt->type == COSROD_SC_JOINT_BUSHING) continue;
    int free_side = 0, moving = 0; /* a side that is a dynamic body, a keyframe body */
    for (int k = 0; k < 2; ++k) {
      free_side |= jt->body[k] >= 0 && !sc->bodies[jt->body[k]].has_motion;
      moving |= jt->body[k] >= 0 && sc->bodies[jt->body[k]].has_motion;
    }
    snprintf(key, sizeof key, "joints.%zu", j);
    /* a joint on a keyframe body: a prescribed side of its rows in static
     * analyses; dynamic runs refuse it (system/bodies.c) */
    if (!free_side && sc->analysis.type == COSROD_SC_ANALYSIS_STATIC &&
        refuse(sc, key, "joins no dynamic body (only ground or bodies driven by motion keyframes): it constrains nothing",
               err, errlen))
      return COSROD_ERR_UNSUPPORTED;
    if (!moving || sc->analysis.type == COSROD_SC_ANALYSIS_STATIC || !stat) continue;
    snprintf(msg, sizeof msg, "%s", "a joint with a keyframe body is not supported in modal and buckling analyses yet "
                                    "(static analyses take it)");
    if (refuse(sc, key, msg, err, errlen)) return COSROD_ERR_UNSUPPORTED;
  }
  for (size_t b = 0; b < sc->nbodies; ++b) {
    int used = sc->bodies[b].has_motion;
    for (size_t j = 0; j < sc->njoints; ++j) used |= sc->joints[j].body[0] == (int)b || sc->joints[j].body[1] == (int)b;
    for (size_t r = 0; r < sc->nrods; ++r) used |= sc->rods[r].ends[0].body == (int)b || sc->rods[r].ends[1].body == (int)b;
    snprintf(key, sizeof key, "bodies.%zu", b);
    snprintf(msg, sizeof msg, "body '%s' carries no rod end and no bushing: its static equilibrium is undetermined (%s)",
             sc->bodies[b].name, what);
    if (!used && refuse(sc, key, msg, err, errlen)) return COSROD_ERR_UNSUPPORTED;
  }
  return COSROD_OK;
}
