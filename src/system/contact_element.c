// SPDX-License-Identifier: Apache-2.0
/* Contact in the simulation driver: the contact module (include/cosrod/
 * contact.h) evaluated inside every rod evaluation through the rod's load
 * callback, so that every formulation, integrator and analysis that
 * evaluates rods sees it without a change of its own:
 *   load callback of rod r: when its positions, velocities or t differ from
 *     those of the last contact evaluation, store them and evaluate the
 *     contact of all rods (the other rods at their last stored state; a
 *     single rod is exact), then add rod r's contact forces;
 *   load Jacobian of rod r: the analytic blocks dF/dx, dF/dxdot of the last
 *     evaluation between vertices of one segment (obstacles; the rod's band)
 *     are added to the rod's force derivatives; blocks between distant
 *     vertices (self-contact, other rods) go to the sparse Jacobian of
 *     contact_jac_sp.c where linsolve.c chooses it, else they are left out
 *     (the Newton iterations converge more slowly, the solution is the same);
 *   obstacles fixed, moved by keyframes (pose and velocity at t) or fixed to
 *     a rigid body (bodies.N.shape, obstacles.N.body: the pose follows the
 *     body's pose of each evaluation, set by the coupling, couple.c, before
 *     the rods are evaluated; the body receives minus the contact forces on
 *     the rods, force and moment about its centre of mass, in couple.c's
 *     wrench; the coupled Jacobian has the body <-> rod contact blocks
 *     analytically, couple_contact_jac.c, by central differences where
 *     those do not apply); meshes are loaded from their files (closed);
 *   energy: the penalty potential is elastic energy, damping and friction
 *     work are dissipated, the work of moving obstacles is external. */
#include "system/contact_element.h"
#include "system/bodies.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "rod/rod_hooks.h"
#include "system/system_model.h"

typedef struct sim_contact_rod {
  struct sim_contact *c;
  int r;
} sim_contact_rod;

struct sim_contact {
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  int nrods, nobs;
  int *nv;
  double **x, **v, **f; /* (nrods) (nv x 3): last state seen, forces of the last evaluation */
  double **sref;
  double t;
  int fresh;
  sim_contact_rod *cb;
  cosrod_contact_obstacle *obs;
  cosrod_mesh **mesh; /* (nobs) meshes loaded from their files (owned), or NULL */
  double **kpos, **krot; /* (nobs) keyframes packed (t, x, y, z) / (t, q0..q3), or NULL */
  int *npos, *nrot, *cubic;
  int *body;                                  /* (nobs) scenario body carrying obstacle k, or -1 */
  const double *bx, *bq, *bv, *bw;            /* body poses of the coupling (couple.c), or NULL */
  double power; /* sum f . v of the last evaluation */
  double *pbuf; /* (4 max N + 3 max N) unpack scratch */
  double *prev; /* (state size) friction state before the last commit: the one a frame inside the step saw */
  double *held; /* (state size) the committed state while a frame inside the step is evaluated */
  int at_rest;  /* static analysis: no rates (keyframe rates of ends and obstacles are pseudo-time rates) */
};

void sim_contact_prepare(struct sim_contact *c, size_t r, const cosrod_rod *rod, cosrod_rod_form form, double t,
                         const double *yl) {
  if (!c || c->nrods < 2 || !c->m) return;
  int N = c->nv[r] - 1;
  if (cosrod_rod_unpack(rod, form, t, yl, c->x[r], c->pbuf, c->v[r], c->pbuf + 4 * (size_t)N) != COSROD_OK) return;
  c->fresh = 0; /* the next load callback evaluates with every rod's current state */
}

/* Pose at t from the base pose and packed keyframe rows (sim_keyframe_rows). */
static void pose_from_rows(cosrod_pose *P, const cosrod_pose *base, const double *kpos, int npos,
                           const double *krot, int nrot, int cubic, double t) {
  *P = *base;
  double xd[3], xdd[3], pd[4], pdd[4];
  cosrod_keyframes_eval(kpos, npos, krot, nrot, cubic, t, P->position, xd, xdd, P->q, pd, pdd);
  if (npos) memcpy(P->v, xd, sizeof xd);
  if (nrot) cosrod_quat_omega_spatial(P->omega, P->q, pd);
}

static void obstacle_pose(const struct sim_contact *c, int k, double t, cosrod_pose *P) {
  pose_from_rows(P, &c->obs[k].pose, c->kpos[k], c->npos[k], c->krot[k], c->nrot[k], c->cubic[k], t);
  if (c->at_rest) memset(P->v, 0, sizeof P->v), memset(P->omega, 0, sizeof P->omega);
}

int sim_sys_obstacle_pose(const sys_obstacle *o, double t, cosrod_pose *P) {
  *P = o->pose;
  if (!o->has_motion) return 0;
  double *kp = sim_keyframe_rows(&o->motion_position, 3), *kr = sim_keyframe_rows(&o->motion_orientation, 4);
  int rc = (o->motion_position.n && !kp) || (o->motion_orientation.n && !kr) ? -1 : 0;
  if (!rc)
    pose_from_rows(P, &o->pose, kp, (int)o->motion_position.n, kr, (int)o->motion_orientation.n, o->motion_cubic,
                   t);
  free(kp), free(kr);
  return rc;
}

/* Pose of body-fixed obstacle k from its body's pose (x_b, q_b, v_b, w_b) of
 * the current evaluation: position x_b + R_b a, orientation q_b q_o, velocity
 * v_b + w_b x (R_b a), angular velocity w_b (a, q_o: the pose in the body
 * frame). */
static void body_obstacle_pose(const struct sim_contact *c, int k, cosrod_pose *P) {
  const size_t b = (size_t)c->body[k];
  const cosrod_pose *o = &c->obs[k].pose;
  double ra[3], wr[3];
  cosrod_quat_rotate(ra, c->bq + 4 * b, o->position);
  cosrod_vec3_cross(wr, c->bw + 3 * b, ra);
  for (int i = 0; i < 3; i++) {
    P->position[i] = c->bx[3 * b + (size_t)i] + ra[i];
    P->v[i] = c->bv[3 * b + (size_t)i] + wr[i];
    P->omega[i] = c->bw[3 * b + (size_t)i];
  }
  cosrod_quat_mul(P->q, c->bq + 4 * b, o->q);
}

/* Body-fixed obstacles at the bodies' current poses; 1 if any pose changed. */
static int set_body_poses(struct sim_contact *c) {
  int changed = 0;
  for (int k = 0; c->bx && k < c->nobs; k++) {
    if (c->body[k] < 0) continue;
    cosrod_pose P, Q;
    body_obstacle_pose(c, k, &P);
    cosrod_contact_get_pose(c->d, k, &Q);
    if (memcmp(&P, &Q, sizeof P)) {
      cosrod_contact_set_pose(c->d, k, &P);
      changed = 1;
    }
  }
  return changed;
}

static int evaluate(struct sim_contact *c, double t) {
  for (int k = 0; k < c->nobs; k++)
    if (c->npos[k] || c->nrot[k]) {
      cosrod_pose P;
      obstacle_pose(c, k, t, &P);
      cosrod_contact_set_pose(c->d, k, &P);
    }
  set_body_poses(c);
  for (int r = 0; r < c->nrods; r++) memset(c->f[r], 0, 3 * (size_t)c->nv[r] * sizeof(double));
  if (cosrod_contact_eval(c->m, c->d, (const double *const *)c->x, (const double *const *)c->v, c->f,
                          COSROD_CONTACT_JAC) != COSROD_OK)
    return -1;
  double P = 0.0;
  for (int r = 0; r < c->nrods; r++)
    for (int i = 0; i < 3 * c->nv[r]; i++) P += c->f[r][i] * c->v[r][i];
  c->power = P;
  c->t = t;
  c->fresh = 1;
  return 0;
}

static int load_cb(void *user, double t, int N, const double *x, const double *xd, const double *p,
                   const double *Omega, double *f, double *m) {
  (void)p, (void)Omega, (void)m;
  sim_contact_rod *cr = user;
  struct sim_contact *c = cr->c;
  const int r = cr->r;
  const size_t n = 3 * (size_t)(N + 1) * sizeof(double);
  int same = c->fresh && t == c->t && !memcmp(x, c->x[r], n) && (xd && !c->at_rest ? !memcmp(xd, c->v[r], n) : 1);
  if (set_body_poses(c)) same = 0; /* a body carrying an obstacle moved */
  if (!same) {
    memcpy(c->x[r], x, n);
    if (xd && !c->at_rest)
      memcpy(c->v[r], xd, n);
    else
      memset(c->v[r], 0, n);
    if (evaluate(c, t) != 0) return -1;
  }
  for (int i = 0; i < 3 * (N + 1); i++) f[i] += c->f[r][i];
  return 0;
}

static int load_jac_cb(void *user, double t, int N, double *K, size_t stride) {
  (void)t, (void)N;
  sim_contact_rod *cr = user;
  const struct sim_contact *c = cr->c;
  const cosrod_contact_block *b = cosrod_contact_blocks(c->d);
  for (size_t i = 0, nb = cosrod_contact_nblocks(c->d); i < nb; i++, b++) {
    int o = b->vertex_j - b->vertex_i + 1;
    if (b->rod_i != cr->r || b->rod_j != cr->r || o < 0 || o > 2) continue;
    double *Kx = K + (size_t)b->vertex_i * stride + 9 * (size_t)o;
    for (int e = 0; e < 9; e++) {
      Kx[e] += b->K[e];
      Kx[27 + e] += b->D[e];
    }
  }
  return 0;
}

void sim_contact_attach(struct sim_contact *c, cosrod_rod **rods, size_t nrods) {
  for (size_t r = 0; c && r < nrods; r++) {
    cosrod_rod_set_load_fn(rods[r], load_cb, &c->cb[r]);
    cosrod_rod_set_load_jac_fn(rods[r], load_jac_cb, &c->cb[r]);
    cosrod_rod_set_load_fn_reaction(rods[r], 1); /* contact is not scaled by a static load factor */
  }
}

void sim_contact_free(struct sim_contact *c) {
  if (!c) return;
  cosrod_contact_data_free(c->d);
  cosrod_contact_model_free(c->m);
  for (int r = 0; r < c->nrods; r++) {
    if (c->x) free(c->x[r]);
    if (c->v) free(c->v[r]);
    if (c->f) free(c->f[r]);
    if (c->sref) free(c->sref[r]);
  }
  for (int k = 0; k < c->nobs; k++) {
    if (c->mesh) cosrod_mesh_free(c->mesh[k]);
    if (c->kpos) free(c->kpos[k]);
    if (c->krot) free(c->krot[k]);
  }
  free(c->x), free(c->v), free(c->f), free(c->sref), free(c->nv), free(c->cb), free(c->obs), free(c->prev), free(c->held);
  free(c->kpos), free(c->krot), free(c->npos), free(c->nrot), free(c->cubic), free(c->pbuf);
  free(c->mesh), free(c->body);
  free(c);
}

static cosrod_status refuse(const sys_def *d, const char *key, const char *what, char *err, size_t errlen) {
  char msg[200];
  snprintf(msg, sizeof msg, "%s not supported yet", what);
  d->error(d->error_ctx, key, msg, err, errlen);
  return COSROD_ERR_UNSUPPORTED;
}

cosrod_status sim_contact_create(struct sim_contact **out, const sys_def *sd, cosrod_rod **rods, size_t nrods,
                                 char *err, size_t errlen) {
  *out = NULL;
  const sys_contact *S = &sd->contact;
  if (!S->enabled) return COSROD_OK;
  for (size_t k = 0; k < S->nobstacles; k++)
    if (S->obstacles[k].body >= 0 && (sd->analysis != SYS_ANALYSIS_DYNAMIC || sd->start_from_equilibrium)) {
      char key[64];
      if (S->obstacles[k].body_shape)
        snprintf(key, sizeof key, "bodies.%d.shape", S->obstacles[k].body);
      else
        snprintf(key, sizeof key, "obstacles.%zu.body", k);
      return refuse(sd, key, "contact with shapes on rigid bodies in static analyses and start_from_equilibrium is",
                    err, errlen);
    }
  struct sim_contact *c = calloc(1, sizeof *c);
  if (!c) return COSROD_ERR_NOMEM;
  c->at_rest = sd->analysis != SYS_ANALYSIS_DYNAMIC;
  int n = c->nrods = (int)nrods, no = c->nobs = (int)S->nobstacles;
  c->x = calloc((size_t)n + 1, sizeof *c->x), c->v = calloc((size_t)n + 1, sizeof *c->v);
  c->f = calloc((size_t)n + 1, sizeof *c->f), c->sref = calloc((size_t)n + 1, sizeof *c->sref);
  c->nv = calloc((size_t)n + 1, sizeof *c->nv), c->cb = calloc((size_t)n + 1, sizeof *c->cb);
  c->obs = calloc((size_t)no + 1, sizeof *c->obs);
  c->kpos = calloc((size_t)no + 1, sizeof *c->kpos), c->krot = calloc((size_t)no + 1, sizeof *c->krot);
  c->npos = calloc((size_t)no + 1, sizeof *c->npos), c->nrot = calloc((size_t)no + 1, sizeof *c->nrot);
  c->cubic = calloc((size_t)no + 1, sizeof *c->cubic);
  c->mesh = calloc((size_t)no + 1, sizeof *c->mesh);
  c->body = calloc((size_t)no + 1, sizeof *c->body);
  cosrod_contact_rod *cr = calloc((size_t)n + 1, sizeof *cr);
  cosrod_status st = COSROD_ERR_NOMEM;
  if (!c->x || !c->v || !c->f || !c->sref || !c->nv || !c->cb || !c->obs || !c->kpos || !c->krot || !c->npos ||
      !c->nrot || !c->cubic || !c->mesh || !c->body || !cr)
    goto fail;
  int maxn = 1;
  for (int r = 0; r < n; r++)
    if (cosrod_rod_nseg(rods[r]) > maxn) maxn = cosrod_rod_nseg(rods[r]);
  if (!(c->pbuf = malloc(7 * (size_t)maxn * sizeof(double)))) goto fail;
  for (int r = 0; r < n; r++) {
    int nv = cosrod_rod_nseg(rods[r]) + 1;
    c->nv[r] = nv;
    c->x[r] = calloc(3 * (size_t)nv, sizeof(double));
    c->v[r] = calloc(3 * (size_t)nv, sizeof(double));
    c->f[r] = calloc(3 * (size_t)nv, sizeof(double));
    c->sref[r] = malloc((size_t)nv * sizeof(double));
    if (!c->x[r] || !c->v[r] || !c->f[r] || !c->sref[r]) goto fail;
    memcpy(c->sref[r], cosrod_rod_grid(rods[r]), (size_t)nv * sizeof(double));
    double CK[3], rhoA;
    cosrod_rod_constants(rods[r], NULL, CK, NULL, NULL, &rhoA, NULL);
    cr[r].nv = nv;
    cr[r].radius = sd->rods[r].radius;
    cr[r].sref = c->sref[r];
    cr[r].EI = fmin(CK[0], CK[1]);
    cr[r].rhoA = rhoA;
    cr[r].tension = sd->rods[r].tension;
    c->cb[r].c = c, c->cb[r].r = r;
  }
  for (int k = 0; k < no; k++) {
    const sys_obstacle *o = &S->obstacles[k];
    c->obs[k].shape = o->shape;
    c->obs[k].pose = o->pose;
    c->body[k] = o->body;
    if (o->shape.type == COSROD_SHAPE_MESH) { /* closed: the sign of the distance needs an inside */
      char key[64];
      if (!(c->mesh[k] = cosrod_mesh_load(o->file ? o->file : "", 1, NULL))) {
        const char *merr = cosrod_last_error();
        if (o->body_shape)
          snprintf(key, sizeof key, "bodies.%d.shape.file", o->body);
        else
          snprintf(key, sizeof key, "obstacles.%d.file", k);
        sd->error(sd->error_ctx, key, merr, err, errlen);
        st = COSROD_ERR_INVALID;
        goto fail;
      }
      c->obs[k].shape.mesh = c->mesh[k];
    }
    if (o->has_motion) {
      c->npos[k] = (int)o->motion_position.n, c->nrot[k] = (int)o->motion_orientation.n;
      c->cubic[k] = o->motion_cubic;
      c->kpos[k] = sim_keyframe_rows(&o->motion_position, 3);
      c->krot[k] = sim_keyframe_rows(&o->motion_orientation, 4);
      if ((c->npos[k] && !c->kpos[k]) || (c->nrot[k] && !c->krot[k])) goto fail;
      cosrod_pose P0;
      obstacle_pose(c, k, 0.0, &P0);
      c->obs[k].pose = P0;
    }
  }
  cosrod_contact_def def = {0};
  def.nrods = n, def.rods = cr, def.nobstacles = no, def.obstacles = c->obs;
  def.law = S->law;
  def.gravity = sqrt(sd->gravity[0] * sd->gravity[0] + sd->gravity[1] * sd->gravity[1] +
                     sd->gravity[2] * sd->gravity[2]);
  def.rods_contact = S->rods, def.self_contact = S->self, def.quadrature = S->quadrature;
  c->m = cosrod_contact_model_create(&def, &st);
  if (!c->m && err && errlen) snprintf(err, errlen, "%s", cosrod_last_error());
  if (c->m) c->d = cosrod_contact_data_create(c->m, &st);
  if (st != COSROD_OK) goto fail;
  c->prev = calloc(cosrod_contact_state_size(c->m) + 1, sizeof *c->prev);
  c->held = calloc(cosrod_contact_state_size(c->m) + 1, sizeof *c->held);
  if (!c->prev || !c->held) {
    st = COSROD_ERR_NOMEM;
    goto fail;
  }
  free(cr);
  sim_contact_attach(c, rods, nrods);
  *out = c;
  return COSROD_OK;
fail:
  free(cr);
  sim_contact_free(c);
  return st;
}

void sim_contact_commit(struct sim_contact *c) {
  if (c) cosrod_contact_state_save(c->m, c->d, c->prev);
  if (c) cosrod_contact_commit(c->m, c->d);
}

void sim_contact_frame_inside_step(struct sim_contact *c, int inside) {
  if (!c) return;
  if (inside) {
    cosrod_contact_state_save(c->m, c->d, c->held);
    (void)cosrod_contact_state_load(c->m, c->d, c->prev); /* saved by the commit: valid */
  } else {
    (void)cosrod_contact_state_load(c->m, c->d, c->held);
  }
  c->fresh = 0;
}

void sim_contact_rates(const struct sim_contact *c, double *W, double *D) {
  if (!c || !c->fresh) return;
  double Pobs = 0.0; /* power of the moving obstacles on the rods: -(F . v + M . omega) of the force on them */
  for (int k = 0; k < c->nobs; k++) {
    if (!c->npos[k] && !c->nrot[k] && c->body[k] < 0) continue;
    double F[3], M[3];
    cosrod_pose P;
    cosrod_contact_obstacle_wrench(c->d, k, F, M);
    cosrod_contact_get_pose(c->d, k, &P);
    for (int i = 0; i < 3; i++) Pobs -= F[i] * P.v[i] + M[i] * P.omega[i];
  }
  *W += Pobs - c->power;
  *D += cosrod_contact_dissipation(c->d);
}

double sim_contact_energy(const struct sim_contact *c) { return c && c->fresh ? cosrod_contact_energy(c->d) : 0.0; }

size_t sim_contact_state_size(const struct sim_contact *c) { return c ? cosrod_contact_state_size(c->m) : 0; }
void sim_contact_state_save(const struct sim_contact *c, double *b, int before_commit) {
  if (c && before_commit) memcpy(b, c->prev, cosrod_contact_state_size(c->m) * sizeof *b);
  else if (c) cosrod_contact_state_save(c->m, c->d, b);
}
int sim_contact_state_load(struct sim_contact *c, const double *b) {
  return c ? cosrod_contact_state_load(c->m, c->d, b) : 0;
}

const cosrod_contact_data *sim_contact_data(const struct sim_contact *c) { return c && c->fresh ? c->d : NULL; }

void sim_contact_bind_bodies(struct sim_contact *c, const double *bx, const double *bq, const double *bv,
                             const double *bw, const double *shift) {
  if (!c) return;
  c->bx = bx, c->bq = bq, c->bv = bv, c->bw = bw;
  for (int k = 0; shift && k < c->nobs; k++) /* the shapes from the model body's centre */
    if (c->body[k] >= 0) cosrod_vec3_sub(c->obs[k].pose.position, c->obs[k].pose.position, shift + 3 * c->body[k]);
  c->fresh = 0;
}

void sim_contact_body_wrench(const struct sim_contact *c, int body, const double xb[3], double F[6]) {
  for (int k = 0; c && k < c->nobs; k++) {
    if (c->body[k] != body) continue;
    double f[3], m[3], r[3], rf[3];
    cosrod_pose P;
    cosrod_contact_obstacle_wrench(c->d, k, f, m);
    cosrod_contact_get_pose(c->d, k, &P);
    cosrod_vec3_sub(r, P.position, xb);
    cosrod_vec3_cross(rf, r, f);
    for (int i = 0; i < 3; i++) F[i] += f[i], F[3 + i] += m[i] + rf[i];
  }
}

/* ---- the driver's side ------------------------------------------------------ */

void sim_contact_prepare_all(sys_system *s, double t, const double *y) {
  if (!s->d->contact || s->m->nrods < 2) return;
  for (size_t r = 0; r < s->m->nrods; r++) {
    sim_gather(s, r, y, s->d->yl);
    sim_contact_prepare(s->d->contact, r, s->m->rods[r], sys_eval_form(s), t, s->d->yl);
  }
}
