/* Scenario -> multibody model (SPEC §5, §7): bodies, joints and bushings of
 * the scenario as a cosrod_mbs (include/cosrod/body.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_bodies.h"

static cosrod_body_param param_of(cosrod_sc_parametrisation p) {
  switch (p) {
    case COSROD_SC_PARAM_DIRECTORS:
      return COSROD_BODY_DIRECTORS;
    case COSROD_SC_PARAM_EULER_ANGLES:
      return COSROD_BODY_EULER313;
    default:
      return COSROD_BODY_QUATERNION;
  }
}

cosrod_joint_type sim_joint_type(cosrod_sc_joint_type t) {
  switch (t) {
    case COSROD_SC_JOINT_REVOLUTE:
      return COSROD_JOINT_REVOLUTE;
    case COSROD_SC_JOINT_PRISMATIC:
      return COSROD_JOINT_PRISMATIC;
    case COSROD_SC_JOINT_CYLINDRICAL:
      return COSROD_JOINT_CYLINDRICAL;
    case COSROD_SC_JOINT_PLANAR:
      return COSROD_JOINT_PLANAR;
    case COSROD_SC_JOINT_UNIVERSAL:
      return COSROD_JOINT_UNIVERSAL;
    case COSROD_SC_JOINT_FIXED:
      return COSROD_JOINT_FIXED;
    default:
      return COSROD_JOINT_SPHERICAL;
  }
}

cosrod_mbs *cosrod_sim_bodies_create(const cosrod_scenario *sc, cosrod_status *status, char *err,
                                     size_t errlen) {
  return cosrod_sim_bodies_create_map(sc, NULL, status, err, errlen);
}

static cosrod_mbs *refuse(const cosrod_scenario *sc, const char *key, const char *problem, cosrod_status *status,
                          char *err, size_t errlen) {
  cosrod_scenario_format_error(sc, key, problem, err, errlen);
  if (status) *status = COSROD_ERR_PARSE;
  return NULL;
}

cosrod_mbs *cosrod_sim_bodies_create_map(const cosrod_scenario *sc, int *bmap, cosrod_status *status, char *err,
                                         size_t errlen) {
  if (status) *status = COSROD_OK;
  if (err && errlen) err[0] = '\0';
  /* bodies driven by keyframes are kinematic: not in the model */
  int idx[COSROD_SIM_MAX_BODIES];
  if (sc->nbodies > COSROD_SIM_MAX_BODIES) return refuse(sc, "bodies", "too many bodies", status, err, errlen);
  size_t ndyn = 0;
  for (size_t i = 0; i < sc->nbodies; ++i) {
    idx[i] = sc->bodies[i].has_motion ? -1 : (int)ndyn++;
    if (bmap) bmap[i] = idx[i];
    if (sc->bodies[i].has_motion && !bmap) {
      char key[48];
      snprintf(key, sizeof key, "bodies.%zu.motion", i);
      return refuse(sc, key, "a body driven by keyframes carries rods (no rods in this scenario)", status, err,
                    errlen);
    }
  }
  /* static analyses with rods: a joint on a keyframe body is a multiplier
   * row of the statics system (sim_couple_joint_static.c), not in the model */
  const int kin_joints = bmap && sc->analysis.type == COSROD_SC_ANALYSIS_STATIC;
  for (size_t i = 0; i < sc->njoints; ++i)
    for (int k = 0; k < 2; ++k)
      if (sc->joints[i].body[k] >= 0 && idx[sc->joints[i].body[k]] < 0 &&
          !(kin_joints && sc->joints[i].type != COSROD_SC_JOINT_BUSHING)) {
        char key[48], msg[160];
        snprintf(key, sizeof key, "joints.%zu", i);
        snprintf(msg, sizeof msg, "body '%s' is driven by motion keyframes: it takes no joints or bushings",
                 sc->bodies[sc->joints[i].body[k]].name);
        return refuse(sc, key, msg, status, err, errlen);
      }
  if (sc->solver.formulation == COSROD_SC_FORMULATION_DAE && !bmap) { /* with rods: null-space bodies in the rods' DAE */
    cosrod_scenario_format_error(sc, "solver.formulation",
                                 "rigid bodies need nullspace or absolute (not dae)", err, errlen);
    if (status) *status = COSROD_ERR_PARSE;
    return NULL;
  }
  size_t nb = ndyn, nj = 0, nbu = 0;
  for (size_t i = 0; i < sc->njoints; ++i) {
    if (sc->joints[i].type == COSROD_SC_JOINT_BUSHING)
      ++nbu;
    else
      ++nj;
  }
  size_t nl = 0;
  for (size_t i = 0; i < sc->nbodies; ++i) nl += sc->bodies[i].nloads;
  cosrod_body_def *bd = calloc(nb + 1, sizeof *bd);
  cosrod_joint_def *jd = calloc(nj + 1, sizeof *jd);
  cosrod_bushing_def *bu = calloc(nbu + 1, sizeof *bu);
  cosrod_body_load_def *ld = calloc(nl + 1, sizeof *ld);
  if (!bd || !jd || !bu || !ld) {
    free(bd), free(jd), free(bu), free(ld);
    if (status) *status = COSROD_ERR_NOMEM;
    return NULL;
  }
  for (size_t k = 0; k < sc->nbodies; ++k) {
    if (idx[k] < 0) continue;
    const cosrod_sc_body *b = &sc->bodies[k];
    size_t i = (size_t)idx[k];
    bd[i].name = b->name;
    bd[i].mass = b->mass;
    memcpy(bd[i].inertia, b->inertia, sizeof bd[i].inertia);
    memcpy(bd[i].position, b->position, sizeof bd[i].position);
    memcpy(bd[i].quaternion, b->quaternion, sizeof bd[i].quaternion);
    memcpy(bd[i].velocity, b->velocity, sizeof bd[i].velocity);
    memcpy(bd[i].omega, b->angular_velocity, sizeof bd[i].omega);
    bd[i].param = param_of(b->parametrisation);
  }
  nl = 0;
  for (size_t i = 0; i < sc->nbodies; ++i)
    for (size_t k = 0; k < sc->bodies[i].nloads; ++k) {
      const cosrod_sc_body_load *l = &sc->bodies[i].loads[k];
      cosrod_body_load_def *o = &ld[nl++];
      o->body = idx[i];
      o->kind = l->type == COSROD_SC_LOAD_MOMENT ? COSROD_BODY_LOAD_MOMENT : COSROD_BODY_LOAD_FORCE;
      o->frame = l->frame == COSROD_SC_FRAME_MATERIAL ? COSROD_BODY_LOAD_BODY : COSROD_BODY_LOAD_SPATIAL;
      memcpy(o->at, l->at, sizeof o->at);
      memcpy(o->value, l->value, sizeof o->value);
      o->profile = l->profile == COSROD_SC_PROFILE_RAMP     ? COSROD_BODY_LOAD_RAMP
                   : l->profile == COSROD_SC_PROFILE_ACTIVE ? COSROD_BODY_LOAD_ACTIVE
                                                            : COSROD_BODY_LOAD_CONSTANT;
      o->t0 = l->t0;
      o->t1 = l->t1;
    }
  nj = nbu = 0;
  for (size_t i = 0; i < sc->njoints; ++i) {
    const cosrod_sc_joint *j = &sc->joints[i];
    if (j->type == COSROD_SC_JOINT_BUSHING) {
      cosrod_bushing_def *b = &bu[nbu++];
      b->body[0] = j->body[0] < 0 ? -1 : idx[j->body[0]], b->body[1] = j->body[1] < 0 ? -1 : idx[j->body[1]];
      memcpy(b->at, j->at, sizeof b->at);
      b->k = j->stiffness;
      b->c = j->damping;
      b->k_rot = j->stiffness_rot;
      b->c_rot = j->damping_rot;
      if (b->body[0] < 0) { /* ground first: swap sides (the force law is symmetric) */
        b->body[0] = idx[j->body[1]], b->body[1] = -1;
        memcpy(b->at[0], j->at[1], sizeof b->at[0]);
        memcpy(b->at[1], j->at[0], sizeof b->at[1]);
      }
    } else {
      if ((j->body[0] >= 0 && idx[j->body[0]] < 0) || (j->body[1] >= 0 && idx[j->body[1]] < 0)) continue;
      cosrod_joint_def *d = &jd[nj++];
      d->type = sim_joint_type(j->type);
      d->body[0] = j->body[0] < 0 ? -1 : idx[j->body[0]], d->body[1] = j->body[1] < 0 ? -1 : idx[j->body[1]];
      memcpy(d->at, j->at, sizeof d->at);
      memcpy(d->axis, j->axis, sizeof d->axis);
      memcpy(d->axis2, j->axis2, sizeof d->axis2);
    }
  }
  cosrod_mbs_def def = {0};
  def.nbodies = nb, def.bodies = bd;
  def.njoints = nj, def.joints = jd;
  def.nbushings = nbu, def.bushings = bu;
  def.nloads = nl, def.loads = ld;
  memcpy(def.gravity, sc->gravity, sizeof def.gravity);
  int absolute = sc->solver.formulation == COSROD_SC_FORMULATION_ABSOLUTE;
  def.body_form = absolute ? COSROD_BODY_ABSOLUTE : COSROD_BODY_NULLSPACE;
  def.joint_form = absolute ? COSROD_JOINTS_MULTIPLIERS : COSROD_JOINTS_NULLSPACE;
  if (absolute && sc->solver.stabilisation == COSROD_SC_STAB_BAUMGARTE) {
    def.baumgarte_omega = sc->solver.baumgarte_omega;
    def.baumgarte_r = sc->solver.baumgarte_r;
  }
  char msg[256];
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st, msg, sizeof msg);
  if (!m) {
    const char *key = strncmp(msg, "joint", 5) == 0 ? "joints" : "bodies";
    cosrod_scenario_format_error(sc, key, msg, err, errlen);
    if (status) *status = st == COSROD_ERR_NOMEM ? st : COSROD_ERR_PARSE;
  }
  free(bd), free(jd), free(bu), free(ld);
  return m;
}
