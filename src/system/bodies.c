// SPDX-License-Identifier: Apache-2.0
/* System definition -> multibody model ([manual: rigid bodies, scenario reference]): bodies, joints and
 * bushings of the definition (system_def.h) as a cosrod_mbs (include/cosrod/body.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/vec3.h"
#include "system/bodies.h"

double *sim_keyframe_rows(const sys_keyframes *k, int dim) {
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
  const sys_def *d;
  size_t n;
  size_t body[COSROD_SIM_MAX_BODIES]; /* definition body of frame k */
  double *pos[COSROD_SIM_MAX_BODIES], *rot[COSROD_SIM_MAX_BODIES];
} kin_frames;

static void kin_free(void *user) {
  kin_frames *kf = user;
  if (!kf) return;
  for (size_t k = 0; k < kf->n; ++k) free(kf->pos[k]), free(kf->rot[k]);
  free(kf);
}

void sim_keyframe_motion(const sys_body *sb, const double *pos, const double *rot, double t, double x[3],
                         double q[4], double v[3], double w[3], double a[3], double al[3]) {
  double qd[4] = {0, 0, 0, 0}, qdd[4] = {0, 0, 0, 0}, r[4];
  cosrod_vec3_copy(x, sb->body.position);
  cosrod_quat_copy(q, sb->body.quaternion);
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
  sim_keyframe_motion(&kf->d->bodies[kf->body[k]], kf->pos[k], kf->rot[k], t, x, q, v, w, a, al);
}

static cosrod_mbs *refuse(const sys_def *d, const char *key, const char *problem, cosrod_status *status, char *err,
                          size_t errlen) {
  if (err && errlen) d->error(d->error_ctx, key, problem, err, errlen);
  if (status) *status = COSROD_ERR_PARSE;
  return NULL;
}

/* How the definition's bodies and joints enter the model. */
typedef struct body_plan {
  int idx[COSROD_SIM_MAX_BODIES];  /* body -> model body, or -1 (keyframe body: not in the model) */
  int kidx[COSROD_SIM_MAX_BODIES]; /* keyframe body -> its kinematic frame in the model, or -1 */
  size_t ndyn, nkin;
  int kin_joints; /* static analyses with rods: joints on keyframe bodies are rows of joint_static.c */
  int absolute;
} body_plan;

/* The model index of every body; the keyframe bodies that are kinematic
 * frames of bushings and joints.  A refusal: its key and problem in key, msg. */
static int plan_bodies(const sys_def *d, int with_rods, body_plan *p, char key[48], char msg[400]) {
  for (size_t i = 0; i < d->nbodies; ++i) {
    p->idx[i] = d->bodies[i].has_motion ? -1 : (int)p->ndyn++;
    p->kidx[i] = -1;
    if (d->bodies[i].has_motion && !with_rods) {
      snprintf(key, 48, "bodies.%zu.motion", i);
      snprintf(msg, 400, "a body driven by keyframes carries rods (no rods in this scenario)");
      return -1;
    }
  }
  /* static analyses with rods: a joint on a keyframe body is a multiplier
   * row of the statics system (joint_static.c), not in the model */
  p->kin_joints = with_rods && d->analysis == SYS_ANALYSIS_STATIC;
  /* time integration from the initial state: joints on keyframe bodies are
   * rheonomic rows of the multiplier formulation (body.h, COSROD_MBS_KIN) */
  const int dyn = d->analysis == SYS_ANALYSIS_DYNAMIC && !d->start_from_equilibrium;
  p->absolute = d->formulation == COSROD_FORM_ABSOLUTE;
  for (size_t i = 0; i < d->njoints; ++i) {
    const sys_joint *j = &d->joints[i];
    int ndyn_side = 0;
    for (int k = 0; k < 2; ++k) ndyn_side += j->body[k] >= 0 && p->idx[j->body[k]] >= 0;
    for (int k = 0; k < 2; ++k) {
      int b = j->body[k];
      if (b < 0 || p->idx[b] >= 0) continue;
      /* a bushing or (dynamic, absolute) joint on a keyframe body: a
       * rheonomic side (body.h, COSROD_MBS_KIN; a bushing in the statics
       * system: the body's pose at the pseudo-time, sim_couple_static.c) */
      if (ndyn_side == 1 && (j->bushing || (dyn && p->absolute))) {
        if (p->kidx[b] < 0) p->kidx[b] = (int)p->nkin++;
        continue;
      }
      if (p->kin_joints && !j->bushing) continue;
      snprintf(key, 48, "joints.%zu", i);
      if (ndyn_side == 0)
        snprintf(msg, 400, "the %s joins no dynamic body (only ground or bodies driven by motion keyframes)",
                 j->bushing ? "bushing" : "joint");
      else if (dyn)
        snprintf(msg, 400, "body '%s' is driven by motion keyframes: a joint on it needs solver.formulation: "
                 "absolute (multipliers; the null-space formulation has no moving base yet)", d->bodies[b].body.name);
      else
        snprintf(msg, 400, "body '%s' is driven by motion keyframes: joints on it are not supported with "
                 "start_from_equilibrium yet (static analyses and dynamic runs with solver.formulation: absolute "
                 "take them)", d->bodies[b].body.name);
      return -1;
    }
  }
  return 0;
}

/* Body k of the model with the point masses e lumped in (a combined rigid
 * body): kinetic energy T = 1/2 m_b |v_b|^2 + 1/2 Om.J_b Om + sum 1/2 m_i
 * |v_b + R (Om x a_i)|^2 is that of one body of mass M = m_b + m with its
 * centre at c = S / M (body frame) and the inertia about c
 * J_c = J_b + J - M (|c|^2 I - c c^T) (parallel axes; J_b + J is the
 * assembly's inertia about the old centre), so the body's own Newton-Euler
 * equations (with their gyroscopic term) hold the moved mass exactly; its
 * state is the new centre x_c = x_b + R c, v_c = v_b + w x (R c). */
static void lump(cosrod_body_def *o, const sim_body_extra *e, double c[3]) {
  const double M = o->mass + e->m;
  double J[9] = {0}, w[3], rc[3], t[3];
  if (o->full_tensor)
    memcpy(J, o->tensor, sizeof J);
  else
    J[0] = o->inertia[0], J[4] = o->inertia[1], J[8] = o->inertia[2];
  cosrod_vec3_scale(c, 1.0 / M, e->S);
  const double c2 = cosrod_vec3_dot(c, c);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) J[i + 3 * j] += e->J[i + 3 * j] - M * ((i == j ? c2 : 0.0) - c[i] * c[j]);
  memcpy(o->tensor, J, sizeof J);
  o->full_tensor = 1;
  o->mass = M;
  cosrod_quat_rotate(rc, o->quaternion, c);
  if (o->omega_spatial)
    cosrod_vec3_copy(w, o->omega);
  else
    cosrod_quat_rotate(w, o->quaternion, o->omega);
  cosrod_vec3_cross(t, w, rc);
  cosrod_vec3_add(o->position, o->position, rc);
  cosrod_vec3_add(o->velocity, o->velocity, t);
}

/* The model's bodies and loads of the dynamic bodies (arrays of ndyn and of
 * every load, room for one more per body); point masses extra (or NULL)
 * lumped in, their centre shifts into shift (nbodies x 3). */
static size_t fill_bodies(const sys_def *d, const body_plan *p, const sim_body_extra *extra, double *shift,
                          cosrod_body_def *bd, cosrod_body_load_def *ld) {
  memset(shift, 0, 3 * d->nbodies * sizeof *shift);
  size_t nl = 0;
  for (size_t k = 0; k < d->nbodies; ++k) {
    if (p->idx[k] < 0) continue;
    const sys_body *b = &d->bodies[k];
    cosrod_body_def *o = &bd[p->idx[k]];
    *o = b->body;
    if (!extra || !(extra[k].m > 0.0)) continue;
    lump(o, &extra[k], shift + 3 * k);
  }
  for (size_t i = 0; i < d->nbodies; ++i)
    for (size_t k = 0; k < d->bodies[i].nloads; ++k) {
      ld[nl] = d->bodies[i].loads[k];
      ld[nl].body = p->idx[i];
      if (ld[nl].kind == COSROD_BODY_LOAD_FORCE && p->idx[i] >= 0)
        cosrod_vec3_sub(ld[nl].at, ld[nl].at, shift + 3 * i);
      nl++;
    }
  for (size_t k = 0; extra && k < d->nbodies; ++k) {
    if (p->idx[k] < 0 || !(extra[k].m > 0.0) || cosrod_vec3_norm2(d->gravity) == 0.0) continue;
    cosrod_body_load_def *l = &ld[nl++]; /* the point masses' weight is in their owners' forces */
    memset(l, 0, sizeof *l);
    l->body = p->idx[k];
    l->kind = COSROD_BODY_LOAD_FORCE;
    l->frame = COSROD_BODY_LOAD_SPATIAL;
    l->profile = COSROD_BODY_LOAD_CONSTANT;
    for (int i = 0; i < 3; ++i) l->at[i] = extra[k].S[i] / extra[k].m - shift[3 * k + i];
    cosrod_vec3_scale(l->value, -extra[k].m, d->gravity);
  }
  return nl;
}

/* Body point at of definition body b (ground, keyframe: unchanged) from the
 * model body's centre. */
static void shift_point(const body_plan *p, const double *shift, int b, double at[3]) {
  if (b >= 0 && p->idx[b] >= 0) cosrod_vec3_sub(at, at, shift + 3 * b);
}

/* Model side of definition body sb: ground, a model body or a kinematic frame. */
static int side(const body_plan *p, int sb) { return sb < 0 ? -1 : p->idx[sb] >= 0 ? p->idx[sb] : COSROD_MBS_KIN(p->kidx[sb]); }

/* The model's joints and bushings; their counts into *nj, *nbu. */
static void fill_joints(const sys_def *d, const body_plan *p, const double *shift, cosrod_joint_def *jd, size_t *nj,
                        cosrod_bushing_def *bu, size_t *nbu) {
  *nj = *nbu = 0;
  for (size_t i = 0; i < d->njoints; ++i) {
    const sys_joint *j = &d->joints[i];
    if (j->bushing) {
      cosrod_bushing_def *b = &bu[(*nbu)++];
      for (int k = 0; k < 2; ++k) b->body[k] = side(p, j->body[k]);
      memcpy(b->at, j->at, sizeof b->at);
      for (int k = 0; k < 2; ++k) shift_point(p, shift, j->body[k], b->at[k]);
      b->k = j->stiffness;
      b->c = j->damping;
      b->k_rot = j->stiffness_rot;
      b->c_rot = j->damping_rot;
      if (b->body[0] < 0) { /* ground or keyframe body first: swap sides (the force law is symmetric) */
        int k0 = b->body[0];
        b->body[0] = b->body[1], b->body[1] = k0;
        double a0[3];
        memcpy(a0, b->at[0], sizeof a0);
        memcpy(b->at[0], b->at[1], sizeof b->at[0]);
        memcpy(b->at[1], a0, sizeof b->at[1]);
      }
      continue;
    }
    if (p->kin_joints && ((j->body[0] >= 0 && p->idx[j->body[0]] < 0) || (j->body[1] >= 0 && p->idx[j->body[1]] < 0)))
      continue; /* a prescribed side of the statics system's rows (joint_static.c) */
    cosrod_joint_def *o = &jd[(*nj)++];
    o->type = j->type;
    for (int k = 0; k < 2; ++k) o->body[k] = side(p, j->body[k]);
    memcpy(o->at, j->at, sizeof o->at);
    for (int k = 0; k < 2; ++k) shift_point(p, shift, j->body[k], o->at[k]);
    memcpy(o->axis, j->axis, sizeof o->axis);
    memcpy(o->axis2, j->axis2, sizeof o->axis2);
  }
}

/* The kinematic frames of the plan's keyframe bodies (NULL: no memory). */
static kin_frames *kin_create(const sys_def *d, const body_plan *p) {
  kin_frames *kf = calloc(1, sizeof *kf);
  int ok = kf != NULL;
  for (size_t b = 0; ok && b < d->nbodies; ++b) {
    if (p->kidx[b] < 0) continue;
    const sys_body *sb = &d->bodies[b];
    size_t k = (size_t)p->kidx[b];
    kf->body[k] = b;
    kf->pos[k] = sim_keyframe_rows(&sb->motion_position, 3);
    kf->rot[k] = sim_keyframe_rows(&sb->motion_orientation, 4);
    kf->n = k + 1 > kf->n ? k + 1 : kf->n;
    ok = (!sb->motion_position.n || kf->pos[k]) && (!sb->motion_orientation.n || kf->rot[k]);
  }
  if (!ok) {
    kin_free(kf);
    return NULL;
  }
  kf->d = d, kf->n = p->nkin;
  return kf;
}

cosrod_mbs *cosrod_sim_bodies_create_map(const sys_def *d, int *bmap, cosrod_status *status, char *err,
                                         size_t errlen) {
  return cosrod_sim_bodies_create_mass(d, bmap, NULL, NULL, status, err, errlen);
}

cosrod_mbs *cosrod_sim_bodies_create_mass(const sys_def *d, int *bmap, const sim_body_extra *extra, double *shift,
                                          cosrod_status *status, char *err, size_t errlen) {
  if (status) *status = COSROD_OK;
  if (err && errlen) err[0] = '\0';
  if (d->nbodies > COSROD_SIM_MAX_BODIES) return refuse(d, "bodies", "too many bodies", status, err, errlen);
  body_plan p = {0};
  char key[48], msg[400];
  if (plan_bodies(d, bmap != NULL, &p, key, msg) != 0) return refuse(d, key, msg, status, err, errlen);
  if (bmap)
    for (size_t i = 0; i < d->nbodies; ++i) bmap[i] = p.idx[i];
  if (d->formulation == COSROD_FORM_DAE && !bmap) /* with rods: null-space bodies in the rods' DAE */
    return refuse(d, "solver.formulation", "rigid bodies need nullspace or absolute (not dae)", status, err, errlen);
  size_t nl = 0, nj = 0, nbu = 0;
  for (size_t i = 0; i < d->njoints; ++i) nbu += d->joints[i].bushing;
  for (size_t i = 0; i < d->nbodies; ++i) nl += d->bodies[i].nloads;
  cosrod_body_def *bd = calloc(p.ndyn + 1, sizeof *bd);
  cosrod_joint_def *jd = calloc(d->njoints - nbu + 1, sizeof *jd);
  cosrod_bushing_def *bu = calloc(nbu + 1, sizeof *bu);
  cosrod_body_load_def *ld = calloc(nl + d->nbodies + 1, sizeof *ld);
  double *shift0 = shift ? NULL : calloc(3 * d->nbodies + 1, sizeof *shift0);
  if (!shift) shift = shift0;
  kin_frames *kf = NULL;
  if (bd && jd && bu && ld && p.nkin > 0) kf = kin_create(d, &p);
  if (!bd || !jd || !bu || !ld || !shift || (p.nkin > 0 && !kf)) {
    free(bd), free(jd), free(bu), free(ld), free(shift0);
    kin_free(kf);
    if (status) *status = COSROD_ERR_NOMEM;
    return NULL;
  }
  cosrod_mbs_def def = {0};
  def.nbodies = p.ndyn, def.bodies = bd;
  def.nloads = fill_bodies(d, &p, extra, shift, bd, ld), def.loads = ld;
  fill_joints(d, &p, shift, jd, &nj, bu, &nbu);
  def.njoints = nj, def.joints = jd;
  def.nbushings = nbu, def.bushings = bu;
  memcpy(def.gravity, d->gravity, sizeof def.gravity);
  def.body_form = p.absolute ? COSROD_BODY_ABSOLUTE : COSROD_BODY_NULLSPACE;
  def.joint_form = p.absolute ? COSROD_JOINTS_MULTIPLIERS : COSROD_JOINTS_NULLSPACE;
  if (p.absolute && d->stabilisation == SYS_STAB_BAUMGARTE) {
    def.baumgarte_omega = d->baumgarte_omega;
    def.baumgarte_r = d->baumgarte_r;
  }
  if (kf) def.nkin = p.nkin, def.kin_fn = kin_eval, def.kin_user = kf, def.kin_free = kin_free;
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) {
    snprintf(msg, sizeof msg, "%s", cosrod_last_error());
    refuse(d, strncmp(msg, "joint", 5) == 0 ? "joints" : "bodies", msg, status, err, errlen);
    if (status) *status = st == COSROD_ERR_NOMEM ? st : COSROD_ERR_PARSE;
  }
  free(bd), free(jd), free(bu), free(ld), free(shift0);
  return m;
}
