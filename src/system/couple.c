// SPDX-License-Identifier: Apache-2.0
/* Rods attached to rigid bodies ([manual: rigid bodies]).
 *
 * Model.  A rod end `pinned` or `clamped` with `body: NAME, at: a` is a
 * kinematic boundary of the rod whose pose follows the body: with the body's
 * centre of mass x_b, rotation R_b (unit quaternion q_b), velocity v_b and
 * spatial angular velocity w_b,
 *     c = x_b + R_b a,   c' = v_b + w_b x (R_b a),
 *     p_e = q_b q_rel,   p_e' = 1/2 (0, w_b) p_e,
 * where q_rel = q_b(0)^-1 p_e(0) keeps the rod's initial end frame fixed in
 * the body (so a rod starts stress-free at its attachment).  The rod reads
 * this pose through its end-motion callback (cosrod_rod_set_end_fn), so every
 * formulation and evaluation of the rod sees it.  The body receives minus the
 * support reaction of that end (cosrod_statics_end_reactions without
 * inertia): force -F at c and moment -M, i.e. the generalised force of the
 * rod on its end vertex (elastic, damping, gravity and loads of that vertex)
 * and the bending/torsion moment on the ghost frame ([LLA] Remark 3.1).
 *
 * The attached end vertex moves with the body: in dynamic runs its lumped
 * mass m_e = rhoA ds_0 / 2 is part of the body (cosrod_sim_bodies_create_mass:
 * one rigid body of mass m_b + sum m_e, centre moved by c = sum m_e a / M,
 * inertia about the new centre; the model's state is that centre, the
 * attachment points are measured from it, a->at = a - c, and the bodies are
 * reported at their own centre x_b = x_c - R c).  The vertex's weight stays
 * in the rod's end reaction (the model cancels the copy of it in the body's
 * weight by a dead force -m_e g); its kinetic energy is in the body's and
 * left out of the rod's (kin_end), its gravity energy in the rod's and left
 * out of the body's (grav_end, with the compensating force's power).  The
 * energy balance closes exactly: the rod's end power -f_e . c' - f_p . p_e'
 * (the rod's external power of a moving end with zero end acceleration,
 * the vertex's inertia being the body's) is the negative of the power of
 * the wrench on the body.  Static and modal analyses keep the bodies as
 * given (modes add the vertex masses themselves).  Bodies driven by `motion`
 * keyframes are kinematic: their pose
 * comes from the keyframes (the interpolation of prescribed rod ends), they
 * are not in the state, and the rod's end power is external work.
 *
 * State.  y = the rods in their banded node orderings with each dynamic
 * body's unknowns (a permutation of the multibody state, body.h, through
 * mmap) placed right before / after the rod block whose end it touches
 * first.  The right-hand side is: body poses from y -> rods -> end
 * reactions -> body wrenches -> body right-hand side.  The Jacobian is
 * analytic (couple_jac.c; banded finite differences, sim_couple_jac_fd,
 * as fallback), in the band of the coupled structure computed here:
 * independent of N for a chain (O(N) per Jacobian); stars and bodies joined
 * to each other widen the band (no sparse solver yet).  Shapes on bodies
 * (contact_element.c): the obstacle's pose follows the body's pose of the
 * evaluation, and the body receives minus the contact forces on the rods
 * (force and moment about its centre of mass). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "system/bodies.h"
#include "system/couple.h"
#include "system/couple_internal.h"
#include "system/system_model.h"

static void end_fn(void *user, int e, double t, double x[3], double xd[3], double xdd[3], double p[4],
                   double pd[4], double pdd[4]) {
  (void)e, (void)t;
  const sim_attach *a = user;
  const sim_couple *cp = a->cp;
  size_t b = (size_t)a->body;
  const double *q = cp->bq + 4 * b, *w = cp->bw + 3 * b;
  double ra[3], wr[3], wq[4] = {0.0, w[0], w[1], w[2]};
  cosrod_quat_rotate(ra, q, a->at);
  cosrod_vec3_add(x, cp->bx + 3 * b, ra);
  cosrod_vec3_cross(wr, w, ra);
  cosrod_vec3_add(xd, cp->bv + 3 * b, wr);
  cosrod_vec3_copy(xdd, a->acc);
  cosrod_quat_mul(p, q, a->qrel);
  cosrod_quat_mul(pd, wq, p);
  for (int k = 0; k < 4; ++k) pd[k] *= 0.5, pdd[k] = 0.0;
}

/* Poses of every body at (t, y). */
static void prepare(const sys_system *s, double t, const double *y) {
  sim_couple *cp = s->d->cpl;
  const sys_def *def = s->m->def;
  if (cp->m && y && !cp->stat)
    for (int i = 0; i < cp->nm; i++) cp->ym[i] = y[cp->mmap[i]];
  if (cp->stat && y) cp->sxq = y + cp->stat_off;
  cp->t = t;
  for (size_t b = 0; b < cp->nb; ++b) {
    const sys_body *sb = &def->bodies[b];
    double *x = cp->bx + 3 * b, *q = cp->bq + 4 * b, *v = cp->bv + 3 * b, *w = cp->bw + 3 * b;
    if (cp->bmap[b] >= 0 && cp->stat) { /* static analyses: at rest (sim_couple_static.c) */
      double rc[3];
      cosrod_quat_copy(q, cp->sxq + 7 * (size_t)cp->bmap[b] + 3);
      cosrod_quat_rotate(rc, q, cp->shift + 3 * b); /* the statics' pose is the body's own centre */
      cosrod_vec3_add(x, cp->sxq + 7 * (size_t)cp->bmap[b], rc);
      cosrod_vec3_zero(v);
      cosrod_vec3_zero(w);
      continue;
    }
    if (cp->bmap[b] >= 0) {
      double Om[3];
      cosrod_mbs_body_state(cp->m, cp->d, cp->ym, (size_t)cp->bmap[b], x, q, v, Om);
      cosrod_quat_rotate(w, q, Om);
      continue;
    }
    double xdd[3], wd[3];
    sim_keyframe_motion(sb, cp->kpos[b], cp->krot[b], t, x, q, v, w, xdd, wd);
  }
  /* Kirchhoff rods on kinematic bodies: the end's acceleration for the
   * constraints, a = ẍ_b + ẇ x r + w x (w x r), ẇ = 2 Im(q̈ q̄) */
  for (size_t i = 0; i < cp->na; ++i) {
    sim_attach *a = &cp->att[i];
    if (cp->bmap[a->body] >= 0 || !s->d->data[a->rod]->kw) continue;
    const sys_body *sb = &def->bodies[a->body];
    double x[3], v[3], xdd[3], q[4], wk[3], ra[3], wd[3], t1[3], t2[3];
    sim_keyframe_motion(sb, cp->kpos[a->body], cp->krot[a->body], t, x, q, v, wk, xdd, wd);
    const double *w = cp->bw + 3 * a->body;
    cosrod_quat_rotate(ra, cp->bq + 4 * a->body, a->at);
    cosrod_vec3_cross(t1, wd, ra);
    cosrod_vec3_cross(t2, w, ra);
    cosrod_vec3_cross(t2, w, t2);
    for (int k = 0; k < 3; ++k) a->acc[k] = xdd[k] + t1[k] + t2[k];
  }
}

/* Wrenches of the rods on the bodies from the rods' last evaluation; body
 * right-hand side into ydot (if not NULL); powers and energies. */
static int finish(const sys_system *s, double t, double *ydot) {
  sim_couple *cp = s->d->cpl;
  memset(cp->F, 0, 6 * cp->nb * sizeof *cp->F);
  cp->Pc = cp->kin_end = cp->grav_end = cp->pgrav_end = 0.0;
  for (size_t i = 0; i < cp->na; ++i) {
    const sim_attach *a = &cp->att[i];
    const cosrod_rod_data *d = s->d->data[a->rod];
    int n = a->end ? d->N : 0;
    cp->kin_end += 0.5 * a->me * cosrod_vec3_norm2(d->xd + 3 * n);
    if (cp->bmap[a->body] < 0) { /* kinematic body: the rod's end power is external work */
      if (d->kw) { /* Kirchhoff rod: with its constraint force, without the massless end's inertia */
        double fc[3];
        cosrod_rod_kirchhoff_end_force(s->m->rods[a->rod], d, a->end, fc);
        cp->Pc -= cosrod_vec3_dot(fc, d->xd + 3 * n) + a->me * cosrod_vec3_dot(a->acc, d->xd + 3 * n);
      }
      continue;
    }
    if (cp->lumped) { /* the vertex is in the body */
      cp->grav_end -= a->me * cosrod_vec3_dot(s->m->def->gravity, d->x + 3 * n);
      cp->pgrav_end -= a->me * cosrod_vec3_dot(s->m->def->gravity, d->xd + 3 * n);
    }
    double R[12];
    cosrod_statics_end_reactions(s->m->rods[a->rod], d, 1.0, 0, R, NULL);
    const double *Fr = R + 6 * a->end, *Mr = R + 6 * a->end + 3;
    double *F = cp->F + 6 * a->body, f[3], r[3], m[3];
    cosrod_vec3_scale(f, -1.0, Fr);
    if (d->kw) { /* Kirchhoff rod: its constraint force on the end (not in the rod's end power: added here) */
      double fc[3];
      cosrod_rod_kirchhoff_end_force(s->m->rods[a->rod], d, a->end, fc);
      cosrod_vec3_add(f, f, fc);
      cp->Pc -= cosrod_vec3_dot(fc, d->xd + 3 * n) + a->me * cosrod_vec3_dot(a->acc, d->xd + 3 * n);
    }
    cosrod_vec3_sub(r, d->x + 3 * n, cp->bx + 3 * a->body);
    cosrod_vec3_cross(m, r, f);
    cosrod_vec3_sub(m, m, Mr);
    cosrod_vec3_add(F, F, f);
    cosrod_vec3_add(F + 3, F + 3, m);
  }
  for (size_t b = 0; b < cp->nb; ++b) {
    if (cp->bmap[b] < 0) continue;
    sim_contact_body_wrench(s->d->contact, (int)b, cp->bx + 3 * b, cp->F + 6 * b); /* the rods' contact */
    const double *F = cp->F + 6 * b;
    cp->Pc += cosrod_vec3_dot(F, cp->bv + 3 * b) + cosrod_vec3_dot(F + 3, cp->bw + 3 * b);
    cosrod_mbs_set_wrench(cp->d, (size_t)cp->bmap[b], F, F + 3);
  }
  if (!cp->m) return 0;
  if (ydot) {
    if (cosrod_mbs_rhs(cp->m, cp->d, t, cp->ym, cp->fm) != 0) return -1;
    for (int i = 0; i < cp->nm; i++) ydot[cp->mmap[i]] = cp->fm[i];
  }
  return 0;
}

int sim_couple_rhs_begin(sys_system *s, double t, const double *y) {
  if (s->d->cpl) prepare(s, t, y);
  return 0;
}

int sim_couple_rhs_end(sys_system *s, double t, double *ydot) {
  if (!s->d->cpl) return 0;
  int rc = finish(s, t, ydot);
  if (rc != 0) snprintf(s->d->msg, sizeof s->d->msg, "%s", cosrod_mbs_data_message(s->d->cpl->d));
  return rc;
}

void sim_couple_energy(sys_system *s, double t, double *rW, double *rD) {
  sim_couple *cp = s->d->cpl;
  if (!cp) return;
  finish(s, t, NULL);
  cp->Tb = cp->Gb = cp->Eb = cp->Wb = cp->Db = 0.0;
  if (cp->m && cp->stat) { /* static: at rest, gravity and bushing springs (sim_couple_static.c) */
    for (size_t b = 0; b < cp->nb; ++b)
      if (cp->bmap[b] >= 0) cp->Gb -= s->m->def->bodies[b].body.mass * cosrod_vec3_dot(s->m->def->gravity, cp->bx + 3 * b);
    cp->Eb = sim_couple_static_bushing_energy(s, cp->sxq);
  } else if (cp->m) {
    cosrod_mbs_energy(cp->m, cp->d, t, cp->ym, &cp->Tb, &cp->Gb, &cp->Eb);
    cosrod_mbs_power(cp->m, cp->d, t, cp->ym, &cp->Wb, &cp->Db);
  }
  if (rW) *rW += cp->Wb + cp->Pc - (cp->lumped && !cp->stat ? cp->pgrav_end : 0.0);
  if (rD) *rD += cp->Db;
}

void sim_couple_energy_terms(const sys_system *s, double *kinetic, double *elastic, double *gravity) {
  const sim_couple *cp = s->d->cpl;
  if (!cp) return;
  *kinetic += cp->Tb - cp->kin_end;
  *elastic += cp->Eb;
  *gravity += cp->Gb - (cp->lumped && !cp->stat ? cp->grav_end : 0.0);
}

int sim_couple_npart(const sys_system *s) {
  const sim_couple *cp = s->d->cpl;
  return cp && cp->m ? cosrod_mbs_nconstr(cp->m) + cosrod_mbs_ndof(cp->m) : 0;
}

void sim_couple_partition(const sys_system *s, double *idx) {
  const sim_couple *cp = s->d->cpl;
  for (int k = 0; k < sim_couple_npart(s); k++) idx[k] = cosrod_mbs_data_partition(cp->d, k);
}

int sim_couple_set_partition(sys_system *s, const int *idx) {
  sim_couple *cp = s->d->cpl;
  if (!cp || !cp->m) return 0;
  return cosrod_mbs_data_set_partition(cp->d, idx, idx + cosrod_mbs_nconstr(cp->m));
}

int sim_couple_project(sys_system *s, double t, double *y) {
  sim_couple *cp = s->d->cpl;
  if (!cp || !cp->m) return 0;
  for (int i = 0; i < cp->nm; i++) cp->ym[i] = y[cp->mmap[i]];
  long nrep = cosrod_mbs_data_repartitions(cp->d);
  if (cosrod_mbs_project(cp->m, cp->d, t, cp->ym) != 0) { /* e.g. a parametrisation's singularity */
    const char *why = cosrod_mbs_data_message(cp->d);
    if (why[0]) snprintf(s->d->msg, sizeof s->d->msg, "%s", why);
    return -1;
  }
  for (int i = 0; i < cp->nm; i++) y[cp->mmap[i]] = cp->ym[i];
  return cosrod_mbs_data_repartitions(cp->d) != nrep ? COSROD_PROJECT_NEW_COORDINATES : 0;
}

void sim_couple_free(sys_system *s) {
  sim_couple *cp = s->d->cpl;
  if (!cp) return;
  for (size_t r = 0; r < s->m->nrods && s->m->rods; r++)
    for (int e = 0; e < 2; e++)
      if (s->m->def->rods[r].ends[e].body >= 0) {
        if (s->m->rods[r]) cosrod_rod_set_end_fn(s->m->rods[r], e, NULL, NULL);
        if (s->m->srods && s->m->srods[r]) cosrod_rod_set_end_fn(s->m->srods[r], e, NULL, NULL);
      }
  for (size_t b = 0; cp->kpos && b < cp->nb; ++b) free(cp->kpos[b]), free(cp->krot[b]);
  free(cp->kpos);
  free(cp->krot);
  cosrod_mbs_data_free(cp->d);
  cosrod_mbs_free(cp->m);
  free(cp->bmap);
  free(cp->mmap);
  free(cp->blk_r);
  free(cp->blk_e);
  free(cp->blk_placed);
  free(cp->ent);
  free(cp->ent0);
  free(cp->att);
  free(cp->bx);
  free(cp->bq);
  free(cp->bv);
  free(cp->bw);
  free(cp->shift);
  free(cp->F);
  free(cp->ym);
  free(cp->fm);
  free(cp->jw);
  sim_couple_jac_free(cp);
  free(cp);
  s->d->cpl = NULL;
}

static cosrod_status fail(sys_system *s, const char *key, const char *problem, char *err, size_t errlen,
                          cosrod_status st) {
  if (key) sys_error(s->m->def, key, problem, err, errlen);
  sim_couple_free(s);
  return st;
}

/* The rods' end vertices on each body as point masses (ex: nbodies) for a
 * dynamic run (0: none, the bodies as given). */
static int end_masses(const sys_system *s, sim_body_extra *ex) {
  const sys_def *def = s->m->def;
  if (def->analysis != SYS_ANALYSIS_DYNAMIC) return 0;
  int any = 0;
  for (size_t r = 0; r < def->nrods; r++)
    for (int e = 0; e < 2; e++) {
      const sys_end *se = &def->rods[r].ends[e];
      if (se->body < 0 || def->bodies[se->body].has_motion) continue;
      const cosrod_rod *rod = s->m->rods[r];
      double rhoA;
      cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
      const double m = rhoA * cosrod_rod_vertex_weight(rod)[e ? cosrod_rod_nseg(rod) : 0], *a = se->at;
      sim_body_extra *x = &ex[se->body];
      x->m += m;
      for (int i = 0; i < 3; ++i) {
        x->S[i] += m * a[i];
        for (int j = 0; j < 3; ++j) x->J[i + 3 * j] += m * ((i == j ? cosrod_vec3_dot(a, a) : 0.0) - a[i] * a[j]);
      }
      any |= m > 0.0;
    }
  return any;
}

/* The multibody model of the dynamic bodies, its state and its placement
 * units (ndyn: number of dynamic bodies); without dynamic bodies no joint. */
static cosrod_status create_units(sys_system *s, size_t ndyn, char *err, size_t errlen) {
  const sys_def *def = s->m->def;
  sim_couple *cp = s->d->cpl;
  if (ndyn > 0) {
    cosrod_status st = COSROD_OK;
    sim_body_extra *ex = calloc(def->nbodies + 1, sizeof *ex);
    if (!ex) return fail(s, NULL, NULL, err, errlen, COSROD_ERR_NOMEM);
    cp->lumped = end_masses(s, ex);
    cp->m = cosrod_sim_bodies_create_mass(def, cp->bmap, cp->lumped ? ex : NULL, cp->shift, &st, err, errlen);
    free(ex);
    if (!cp->m) return fail(s, NULL, NULL, err, errlen, st);
    cp->d = cosrod_mbs_data_create(cp->m, NULL);
    cp->nm = cosrod_mbs_n(cp->m);
    cp->ym = calloc((size_t)cp->nm, sizeof *cp->ym);
    cp->fm = calloc((size_t)cp->nm, sizeof *cp->fm);
    if (!cp->d || !cp->ym || !cp->fm) return fail(s, NULL, NULL, err, errlen, COSROD_ERR_NOMEM);
    cosrod_mbs_initial_state(cp->m, cp->ym);
    int nbm = (int)cosrod_mbs_nbodies(cp->m);
    /* null-space joints: the quasi-velocities are global (one unit); without
     * constraints they are the twists (v_b, Omega_b) in body order */
    int nocon = cosrod_mbs_nconstr(cp->m) == 0;
    int shared = cosrod_mbs_vel_offset(cp->m, 0) < 0 && !nocon;
    cp->nblk = shared ? 1 : nbm;
    cp->mmap = calloc((size_t)cp->nm, sizeof *cp->mmap);
    cp->blk_r = calloc((size_t)cp->nblk, sizeof *cp->blk_r);
    cp->blk_e = calloc((size_t)cp->nblk, sizeof *cp->blk_e);
    cp->blk_placed = calloc((size_t)cp->nblk, sizeof *cp->blk_placed);
    cp->ent = calloc((size_t)cp->nm, sizeof *cp->ent);
    cp->ent0 = calloc((size_t)cp->nblk + 1, sizeof *cp->ent0);
    if (!cp->mmap || !cp->blk_r || !cp->blk_e || !cp->blk_placed || !cp->ent || !cp->ent0)
      return fail(s, NULL, NULL, err, errlen, COSROD_ERR_NOMEM);
    int k = 0;
    if (shared) {
      for (int i = 0; i < cp->nm; i++) cp->ent[k++] = i;
      cp->ent0[1] = k;
    } else {
      int nq = cosrod_mbs_nq(cp->m);
      for (int b = 0; b < nbm; b++) {
        int q0 = cosrod_mbs_pos_offset(cp->m, (size_t)b), v0 = cosrod_mbs_vel_offset(cp->m, (size_t)b);
        int q1 = b + 1 < nbm ? cosrod_mbs_pos_offset(cp->m, (size_t)b + 1) : nq;
        int v1 = b + 1 < nbm ? cosrod_mbs_vel_offset(cp->m, (size_t)b + 1) : cp->nm;
        if (v0 < 0) v0 = nq + 6 * b, v1 = v0 + 6; /* null-space bodies, no joints */
        for (int i = q0; i < q1; i++) cp->ent[k++] = i;
        for (int i = v0; i < v1; i++) cp->ent[k++] = i;
        cp->ent0[b + 1] = k;
      }
    }
    for (int u = 0; u < cp->nblk; u++) cp->blk_r[u] = cp->blk_e[u] = -1;
  } else {
    for (size_t b = 0; b < cp->nb; ++b) cp->bmap[b] = -1;
    for (size_t j = 0; j < def->njoints; ++j) {
      char key[48];
      snprintf(key, sizeof key, "joints.%zu", j);
      return fail(s, key, "joints and bushings need bodies that are not driven by motion keyframes", err, errlen,
                  COSROD_ERR_PARSE);
    }
  }
  return COSROD_OK;
}

/* Attachment of rod r's end e to its body (nothing if it has none): the
 * rod's initial end (from its shape) must be the body point. */
static cosrod_status attach_end(sys_system *s, size_t r, int e, char *err, size_t errlen) {
  const sys_def *def = s->m->def;
  sim_couple *cp = s->d->cpl;
  const sys_end *se = &def->rods[r].ends[e];
  if (se->body < 0) return COSROD_OK;
  char key[64];
  snprintf(key, sizeof key, "rods.%zu.ends.%s.at", r, e ? "end" : "start");
  sim_attach *a = &cp->att[cp->na++];
  a->cp = cp;
  a->rod = r;
  a->end = e;
  a->body = se->body;
  cosrod_vec3_sub(a->at, se->at, cp->shift + 3 * a->body); /* from the model body's centre */
  double x0[3], p0[4], c[3], qi[4];
  const cosrod_rod *rod = s->m->rods[r];
  cosrod_rod_end_motion(rod, e, 0.0, x0, NULL, NULL, p0, NULL, NULL);
  cosrod_quat_rotate(c, cp->bq + 4 * a->body, a->at);
  cosrod_vec3_add(c, c, cp->bx + 3 * a->body);
  double L = def->rods[r].length > 0 ? def->rods[r].length : 1.0;
  double gap[3];
  cosrod_vec3_sub(gap, c, x0);
  if (cosrod_vec3_norm(gap) > 1e-6 * L) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "the body point [%.6g, %.6g, %.6g] is not the rod's %s [%.6g, %.6g, %.6g] (from its shape)", c[0],
             c[1], c[2], e ? "end" : "start", x0[0], x0[1], x0[2]);
    return fail(s, key, msg, err, errlen, COSROD_ERR_PARSE);
  }
  cosrod_quat_conj(qi, cp->bq + 4 * a->body);
  cosrod_quat_mul(a->qrel, qi, p0);
  if (se->has_frame) { /* given: must be the rod's initial end frame (|sin(angle / 2)| <= 5e-7) */
    double dq[4], fq[4];
    cosrod_quat_copy(fq, se->frame);
    cosrod_quat_mul_conj(dq, a->qrel, fq); /* qrel frame^-1 */
    if (dq[0] < 0)
      for (int k = 0; k < 4; k++) fq[k] = -fq[k], dq[k] = -dq[k];
    if (sqrt(dq[1] * dq[1] + dq[2] * dq[2] + dq[3] * dq[3]) > 5e-7) {
      char msg[200];
      snprintf(msg, sizeof msg,
               "is not the rod's initial %s frame in the body, [%.9g, %.9g, %.9g, %.9g] (from its shape)",
               e ? "end" : "start", a->qrel[0], a->qrel[1], a->qrel[2], a->qrel[3]);
      snprintf(key, sizeof key, "rods.%zu.ends.%s.frame", r, e ? "end" : "start");
      return fail(s, key, msg, err, errlen, COSROD_ERR_PARSE);
    }
    cosrod_quat_copy(a->qrel, fq);
  }
  double rhoA;
  cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
  a->me = rhoA * cosrod_rod_vertex_weight(rod)[e ? cosrod_rod_nseg(rod) : 0];
  if (cosrod_rod_set_end_fn(s->m->rods[r], e, end_fn, a) != COSROD_OK)
    return fail(s, key, "internal: the end cannot follow a body", err, errlen, COSROD_ERR_INTERNAL);
  int mb = cp->bmap[a->body];
  if (mb >= 0) {
    int u = cp->nblk == 1 ? 0 : mb;
    if (cp->blk_r[u] < 0) cp->blk_r[u] = (int)r, cp->blk_e[u] = e;
  }
  return COSROD_OK;
}

cosrod_status sim_couple_create(sys_system *s, char *err, size_t errlen) {
  const sys_def *def = s->m->def;
  if (def->nbodies == 0) return COSROD_OK;
  sim_couple *cp = calloc(1, sizeof *cp);
  if (!cp) return COSROD_ERR_NOMEM;
  s->d->cpl = cp;
  cp->nb = def->nbodies;
  size_t na = 0;
  for (size_t r = 0; r < def->nrods; r++)
    for (int e = 0; e < 2; e++) na += def->rods[r].ends[e].body >= 0;
  cp->bmap = calloc(cp->nb, sizeof *cp->bmap);
  cp->att = calloc(na + 1, sizeof *cp->att);
  cp->kpos = calloc(cp->nb, sizeof *cp->kpos);
  cp->krot = calloc(cp->nb, sizeof *cp->krot);
  cp->bx = calloc(3 * cp->nb, sizeof *cp->bx);
  cp->bq = calloc(4 * cp->nb, sizeof *cp->bq);
  cp->bv = calloc(3 * cp->nb, sizeof *cp->bv);
  cp->bw = calloc(3 * cp->nb, sizeof *cp->bw);
  cp->F = calloc(6 * cp->nb, sizeof *cp->F);
  cp->shift = calloc(3 * cp->nb, sizeof *cp->shift);
  if (!cp->shift || !cp->bmap || !cp->att || !cp->kpos || !cp->krot || !cp->bx || !cp->bq || !cp->bv || !cp->bw || !cp->F)
    return fail(s, NULL, NULL, err, errlen, COSROD_ERR_NOMEM);
  size_t ndyn = 0;
  for (size_t b = 0; b < cp->nb; ++b) {
    const sys_body *sb = &def->bodies[b];
    ndyn += !sb->has_motion;
    if (!sb->has_motion) continue;
    cp->kpos[b] = sim_keyframe_rows(&sb->motion_position, 3);
    cp->krot[b] = sim_keyframe_rows(&sb->motion_orientation, 4);
    if ((sb->motion_position.n && !cp->kpos[b]) || (sb->motion_orientation.n && !cp->krot[b]))
      return fail(s, NULL, NULL, err, errlen, COSROD_ERR_NOMEM);
  }
  cosrod_status st = create_units(s, ndyn, err, errlen);
  if (st != COSROD_OK) return st;
  prepare(s, 0.0, NULL);
  sim_contact_bind_bodies(s->d->contact, cp->bx, cp->bq, cp->bv, cp->bw, cp->shift); /* shapes on bodies */
  for (size_t r = 0; r < def->nrods; r++)
    for (int e = 0; e < 2; e++)
      if ((st = attach_end(s, r, e, err, errlen)) != COSROD_OK) return st;
  return COSROD_OK;
}

cosrod_status sim_couple_attach_twins(sys_system *s, cosrod_rod **rods) {
  sim_couple *cp = s->d->cpl;
  for (size_t i = 0; cp && i < cp->na; ++i)
    if (cosrod_rod_set_end_fn(rods[cp->att[i].rod], cp->att[i].end, end_fn, &cp->att[i]) != COSROD_OK)
      return COSROD_ERR_INTERNAL;
  return COSROD_OK;
}

/* ---- static analyses (static_blocks.c) ------------------------------------ */

void sim_couple_static_mode(sys_system *s, int on, int off) {
  if (!s->d->cpl) return;
  s->d->cpl->stat = on;
  s->d->cpl->stat_off = off;
}

void sim_couple_static_pose(sys_system *s, double t, const double *xq) {
  sim_couple *cp = s->d->cpl;
  int stat = cp->stat;
  cp->stat = 1;
  cp->sxq = xq;
  prepare(s, t, NULL);
  cp->stat = stat;
}
