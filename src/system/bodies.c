// SPDX-License-Identifier: Apache-2.0
/* Scenario -> multibody model ([manual: rigid bodies, scenario reference]): bodies, joints and bushings of
 * the scenario as a cosrod_mbs (include/cosrod/body.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/vec3.h"
#include "system/bodies.h"

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

double *sim_keyframe_rows(const cosrod_sc_keyframes *k, int dim) {
  if (k->n == 0) return NULL;
  double *rows = malloc(k->n * (size_t)(dim + 1) * sizeof *rows);
  if (!rows) return NULL;
  for (size_t i = 0; i < k->n; i++) {
    rows[i * (size_t)(dim + 1)] = k->t[i];
    for (int j = 0; j < dim; j++) rows[i * (size_t)(dim + 1) + 1 + (size_t)j] = k->values[i * (size_t)dim + (size_t)j];
  }
  return rows;
}

/* Keyframe bodies as kinematic frames of the model (body.h,
 * cosrod_mbs_kin_fn): the rheonomic sides of bushings and joints. */
typedef struct kin_frames {
  const cosrod_scenario *sc;
  size_t n;
  size_t body[COSROD_SIM_MAX_BODIES]; /* scenario body of frame k */
  double *pos[COSROD_SIM_MAX_BODIES], *rot[COSROD_SIM_MAX_BODIES];
} kin_frames;

static void kin_free(void *user) {
  kin_frames *kf = user;
  if (!kf) return;
  for (size_t k = 0; k < kf->n; ++k) free(kf->pos[k]), free(kf->rot[k]);
  free(kf);
}

void sim_keyframe_motion(const cosrod_sc_body *sb, const double *pos, const double *rot, double t, double x[3],
                         double q[4], double v[3], double w[3], double a[3], double al[3]) {
  double qd[4] = {0, 0, 0, 0}, qdd[4] = {0, 0, 0, 0}, r[4];
  cosrod_vec3_copy(x, sb->position);
  cosrod_quat_copy(q, sb->quaternion);
  cosrod_vec3_zero(v);
  cosrod_vec3_zero(a);
  cosrod_keyframes_eval(pos, (int)sb->motion_position.n, rot, (int)sb->motion_orientation.n, sb->motion_cubic, t, x,
                        v, a, q, qd, qdd);
  cosrod_quat_mul_conj(r, qd, q);
  for (int i = 0; i < 3; ++i) w[i] = 2.0 * r[1 + i];
  cosrod_quat_mul_conj(r, qdd, q);
  for (int i = 0; i < 3; ++i) al[i] = 2.0 * r[1 + i];
}

/* pose, twist and accelerations of keyframe body kf->body[k] at t */
static void kin_eval(void *user, int k, double t, double x[3], double q[4], double v[3], double w[3], double a[3],
                     double al[3]) {
  const kin_frames *kf = user;
  sim_keyframe_motion(&kf->sc->bodies[kf->body[k]], kf->pos[k], kf->rot[k], t, x, q, v, w, a, al);
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
   * row of the statics system (joint_static.c), not in the model */
  const int stat = sc->analysis.type == COSROD_SC_ANALYSIS_STATIC, kin_joints = bmap && stat;
  /* time integration from the initial state: joints on keyframe bodies are
   * rheonomic rows of the multiplier formulation (body.h, COSROD_MBS_KIN) */
  const int dyn = sc->analysis.type == COSROD_SC_ANALYSIS_DYNAMIC && !sc->analysis.start_from_equilibrium;
  const int absolute = sc->solver.formulation == COSROD_SC_FORMULATION_ABSOLUTE;
  int kidx[COSROD_SIM_MAX_BODIES]; /* keyframe body -> its kinematic frame in the model, or -1 */
  size_t nkin = 0;
  for (size_t i = 0; i < sc->nbodies; ++i) kidx[i] = -1;
  for (size_t i = 0; i < sc->njoints; ++i) {
    const cosrod_sc_joint *j = &sc->joints[i];
    const int bushing = j->type == COSROD_SC_JOINT_BUSHING;
    int ndyn_side = 0;
    for (int k = 0; k < 2; ++k) ndyn_side += j->body[k] >= 0 && idx[j->body[k]] >= 0;
    for (int k = 0; k < 2; ++k) {
      int b = j->body[k];
      if (b < 0 || idx[b] >= 0) continue;
      char key[48], msg[400];
      snprintf(key, sizeof key, "joints.%zu", i);
      /* a bushing or (dynamic, absolute) joint on a keyframe body: a
       * rheonomic side (body.h, COSROD_MBS_KIN; a bushing in the statics
       * system: the body's pose at the pseudo-time, sim_couple_static.c) */
      if (ndyn_side == 1 && (bushing || (dyn && absolute))) {
        if (kidx[b] < 0) kidx[b] = (int)nkin++;
        continue;
      }
      if (kin_joints && !bushing) continue;
      if (ndyn_side == 0)
        snprintf(msg, sizeof msg, "the %s joins no dynamic body (only ground or bodies driven by motion keyframes)",
                 bushing ? "bushing" : "joint");
      else if (dyn)
        snprintf(msg, sizeof msg, "body '%s' is driven by motion keyframes: a joint on it needs solver.formulation: "
                 "absolute (multipliers; the null-space formulation has no moving base yet)", sc->bodies[b].name);
      else
        snprintf(msg, sizeof msg, "body '%s' is driven by motion keyframes: joints on it are not supported with "
                 "start_from_equilibrium yet (static analyses and dynamic runs with solver.formulation: absolute "
                 "take them)", sc->bodies[b].name);
      return refuse(sc, key, msg, status, err, errlen);
    }
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
      for (int k = 0; k < 2; ++k) {
        int sb = j->body[k];
        b->body[k] = sb < 0 ? -1 : idx[sb] >= 0 ? idx[sb] : COSROD_MBS_KIN(kidx[sb]);
      }
      memcpy(b->at, j->at, sizeof b->at);
      b->k = j->stiffness;
      b->c = j->damping;
      b->k_rot = j->stiffness_rot;
      b->c_rot = j->damping_rot;
      if (b->body[0] < 0) { /* ground or keyframe body first: swap sides (the force law is symmetric) */
        int k0 = b->body[0];
        b->body[0] = b->body[1], b->body[1] = k0;
        memcpy(b->at[0], j->at[1], sizeof b->at[0]);
        memcpy(b->at[1], j->at[0], sizeof b->at[1]);
      }
    } else {
      if (kin_joints && ((j->body[0] >= 0 && idx[j->body[0]] < 0) || (j->body[1] >= 0 && idx[j->body[1]] < 0)))
        continue; /* a prescribed side of the statics system's rows (joint_static.c) */
      cosrod_joint_def *d = &jd[nj++];
      d->type = sim_joint_type(j->type);
      for (int k = 0; k < 2; ++k) {
        int sb = j->body[k];
        d->body[k] = sb < 0 ? -1 : idx[sb] >= 0 ? idx[sb] : COSROD_MBS_KIN(kidx[sb]);
      }
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
  def.body_form = absolute ? COSROD_BODY_ABSOLUTE : COSROD_BODY_NULLSPACE;
  def.joint_form = absolute ? COSROD_JOINTS_MULTIPLIERS : COSROD_JOINTS_NULLSPACE;
  if (absolute && sc->solver.stabilisation == COSROD_SC_STAB_BAUMGARTE) {
    def.baumgarte_omega = sc->solver.baumgarte_omega;
    def.baumgarte_r = sc->solver.baumgarte_r;
  }
  kin_frames *kf = NULL;
  if (nkin > 0) {
    kf = calloc(1, sizeof *kf);
    int ok = kf != NULL;
    for (size_t b = 0; ok && b < sc->nbodies; ++b) {
      if (kidx[b] < 0) continue;
      const cosrod_sc_body *sb = &sc->bodies[b];
      size_t k = (size_t)kidx[b];
      kf->body[k] = b;
      kf->pos[k] = sim_keyframe_rows(&sb->motion_position, 3);
      kf->rot[k] = sim_keyframe_rows(&sb->motion_orientation, 4);
      kf->n = k + 1 > kf->n ? k + 1 : kf->n;
      ok = (!sb->motion_position.n || kf->pos[k]) && (!sb->motion_orientation.n || kf->rot[k]);
    }
    if (!ok) {
      kin_free(kf);
      free(bd), free(jd), free(bu), free(ld);
      if (status) *status = COSROD_ERR_NOMEM;
      return NULL;
    }
    kf->sc = sc, kf->n = nkin;
    def.nkin = nkin, def.kin_fn = kin_eval, def.kin_user = kf, def.kin_free = kin_free;
  }
  char msg[256];
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) {
    snprintf(msg, sizeof msg, "%s", cosrod_last_error());
    const char *key = strncmp(msg, "joint", 5) == 0 ? "joints" : "bodies";
    cosrod_scenario_format_error(sc, key, msg, err, errlen);
    if (status) *status = st == COSROD_ERR_NOMEM ? st : COSROD_ERR_PARSE;
  }
  free(bd), free(jd), free(bu), free(ld);
  return m;
}
