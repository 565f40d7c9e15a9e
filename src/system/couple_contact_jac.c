// SPDX-License-Identifier: Apache-2.0
/* Analytic body <-> rod blocks of contact with shapes on rigid bodies, for
 * the coupled Jacobian (couple_jac.c).
 *
 * Obstacle k on body b (pose a, q_a in the body frame) has the pose
 *     c = x_b + R_b a,  R_k = R_b R_a,  v_k = v_b + w_b x (R_b a),  w_k = w_b,
 * with w_b = R_b Omega_b.  The contact module gives the derivatives of the rod
 * vertex forces f_n with respect to (c, theta, v_k, w_k) (pose blocks, theta
 * the spatial rotation increment: R <- (I + [dtheta]x) R, see contact.h) and
 * with respect to the vertices (blocks, tagged with their obstacle).  With
 * dtheta = 2 Im(dq_b conj(q_b)) (unit q_b) the chain rule through the map
 * PO = d(c, theta, v_k, w_k)/d(x_b, q_b, v_b, Omega_b) (12 x 13, written out
 * below) and the body module's pose tangents P = d(x_b, q_b, v_b, Omega_b)/dy
 * (cosrod_mbs_pose_jac) gives:
 *   rod rows, body columns   d(vdot_n)/dy_m = (1/m_n) [Kc Kr Dv Dw] PO P
 *     (translational equations of the absolute and null-space forms, [LLA]
 *     eq. 25: the contact force enters vertex n's velocity row over m_n);
 *   body wrench (couple.c finish, contact_element.c sim_contact_body_wrench)
 *     F_b = -sum_n f_n,  M_b = -sum_n (x_n - x_b) x f_n  (the obstacle
 *     wrench is about the Gauss points on the axis, which the linear split
 *     onto the segment's vertices reproduces exactly), so
 *     dF_b = -sum_n df_n,
 *     dM_b = -sum_n [(dx_n - dx_b) x f_n + (x_n - x_b) x df_n];
 *   body rows: D_b dF_b (D_b = d(body rhs)/d(wrench), couple_jac.c), the
 *     body columns folded into couple_jac.c's dF, the rod columns added here.
 * Vertices with a contact on a body shape that are not free 3-dof vertices
 * (prescribed, sliding or attached ends) and the DAE/Lie layouts are left to
 * the central differences of couple_jac_sp.c (return 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/vec3.h"
#include "system/couple_internal.h"
#include "system/couple_jac_sp.h"
#include "system/system_model.h"

struct sim_ccj {
  int nvt;     /* vertices of all rods */
  int *voff;   /* (nrods + 1) first global vertex of each rod */
  double *G;   /* (nobs x 12 x nm) d(c, theta, v_k, w_k)/dy_m of body obstacles */
  double *acc; /* (nvt x 36) d(F_b, M_b)/d(x_j, v_j), 6 x 6 column-major */
  double *fv;  /* (nvt x 3) forces of the current body's shapes on the vertices */
  int *flag, *list;
  int nobs;
};

void sim_ccj_free(struct sim_ccj *c) {
  if (!c) return;
  free(c->voff), free(c->G), free(c->acc), free(c->fv), free(c->flag), free(c->list);
  free(c);
}

struct sim_ccj *sim_ccj_create(const sys_system *s) {
  const char *e = getenv("COSROD_BODY_CONTACT_JAC"); /* "fd": central differences (benchmarks) */
  if (!s->d->cpl || sim_couple_body_contact(s) == 0 || (e && !strcmp(e, "fd"))) return NULL;
  struct sim_ccj *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->nobs = (int)s->m->def->contact.nobstacles;
  c->voff = calloc(s->m->nrods + 1, sizeof *c->voff);
  if (!c->voff) goto fail;
  for (size_t r = 0; r < s->m->nrods; r++) c->voff[r + 1] = c->voff[r] + cosrod_rod_nseg(s->m->rods[r]) + 1;
  c->nvt = c->voff[s->m->nrods];
  const size_t nv = (size_t)c->nvt, nm = (size_t)s->d->cpl->nm;
  c->G = calloc((size_t)c->nobs * 12 * nm + 1, sizeof *c->G);
  c->acc = calloc(nv * 36 + 1, sizeof *c->acc);
  c->fv = calloc(nv * 3 + 1, sizeof *c->fv);
  c->flag = calloc(nv + 1, sizeof *c->flag);
  c->list = calloc(nv + 1, sizeof *c->list);
  if (!c->G || !c->acc || !c->fv || !c->flag || !c->list) goto fail;
  return c;
fail:
  sim_ccj_free(c);
  return NULL;
}

/* PO = d(c, theta, v_k, w_k)/d(x_b, q_b, v_b, Omega_b), 12 x 13 column-major. */
static void pose_map(const sim_couple *cp, size_t b, const double a[3], double PO[12 * 13]) {
  const double *q = cp->bq + 4 * b, *w = cp->bw + 3 * b;
  double qc[4], Om[3], ra[3], A[12], B[12], R[9];
  cosrod_quat_conj(qc, q);
  cosrod_quat_rotate(Om, qc, w);
  cosrod_quat_rotate(ra, q, a);
  cosrod_quat_to_matrix(R, q);
  cosrod_quat_dRv_dp(A, q, a);  /* d(R a)/dq */
  cosrod_quat_dRv_dp(B, q, Om); /* dw/dq */
  memset(PO, 0, 12 * 13 * sizeof *PO);
#define E(i, j) PO[(i) + 12 * (j)]
  for (int i = 0; i < 3; ++i) E(i, i) = 1.0, E(6 + i, 7 + i) = 1.0;
  for (int j = 0; j < 4; ++j) {
    double da[3] = {A[3 * j], A[3 * j + 1], A[3 * j + 2]}, dw[3] = {B[3 * j], B[3 * j + 1], B[3 * j + 2]};
    double ej[4] = {0, 0, 0, 0}, th[4], t1[3], t2[3];
    ej[j] = 1.0;
    cosrod_quat_mul(th, ej, qc);
    cosrod_vec3_cross(t1, dw, ra);
    cosrod_vec3_cross(t2, w, da);
    for (int i = 0; i < 3; ++i) {
      E(i, 3 + j) = da[i];
      E(3 + i, 3 + j) = 2.0 * th[1 + i];
      E(6 + i, 3 + j) = t1[i] + t2[i];
      E(9 + i, 3 + j) = dw[i];
    }
  }
  for (int j = 0; j < 3; ++j) { /* d/dOmega: dw = R e_j */
    double col[3] = {R[3 * j], R[3 * j + 1], R[3 * j + 2]}, t[3];
    cosrod_vec3_cross(t, col, ra);
    for (int i = 0; i < 3; ++i) E(6 + i, 10 + j) = t[i], E(9 + i, 10 + j) = col[i];
  }
#undef E
}

/* Global rows / columns of vertex n of rod r: x (gx) and xdot (gv); 0 if not a free 3-dof vertex. */
static int vertex_index(const sys_system *s, int r, int n, int gx[3], int gv[3], double *minv) {
  const cosrod_rod *rod = s->m->rods[r];
  if (cosrod_rod_vertex_ndof(rod, n) != 3) return 0;
  const int *map = s->m->map + s->m->off_r[r], nq = cosrod_rod_nq(rod);
  const int qi = cosrod_rod_qindex_vertex(rod, n), vi = cosrod_rod_vindex_vertex(rod, s->m->form, n);
  for (int c = 0; c < 3; c++) gx[c] = map[qi + c], gv[c] = map[nq + vi + c];
  double rhoA;
  cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
  *minv = 1.0 / (rhoA * cosrod_rod_vertex_weight(rod)[n]);
  return 1;
}

static int on_dyn_body(const sys_system *s, int k) {
  const int b = k >= 0 ? s->m->def->contact.obstacles[k].body : -1;
  return b >= 0 && s->d->cpl->bmap[b] >= 0 ? b : -1;
}

/* Whether the analytic blocks apply at this evaluation (see the file comment). */
static int applicable(const sys_system *s, const cosrod_contact_data *d) {
  if (s->m->form != COSROD_FORM_ABSOLUTE && s->m->form != COSROD_FORM_NULLSPACE) return 0;
  const cosrod_contact_pose_block *pb = cosrod_contact_pose_blocks(d);
  for (size_t k = 0, n = cosrod_contact_npose_blocks(d); k < n; k++)
    if (on_dyn_body(s, pb[k].obstacle) >= 0 && cosrod_rod_vertex_ndof(s->m->rods[pb[k].rod], pb[k].vertex) != 3)
      return 0;
  const cosrod_contact_block *bl = cosrod_contact_blocks(d);
  for (size_t k = 0, n = cosrod_contact_nblocks(d); k < n; k++)
    if (on_dyn_body(s, bl[k].obstacle) >= 0 &&
        (cosrod_rod_vertex_ndof(s->m->rods[bl[k].rod_i], bl[k].vertex_i) != 3 ||
         cosrod_rod_vertex_ndof(s->m->rods[bl[k].rod_j], bl[k].vertex_j) != 3))
      return 0;
  return 1;
}

/* Rod rows, body columns, and the body columns of dF (couple_jac.c: 6 x nm per model body). */
static void pose_columns(sys_system *s, const struct sim_ccj *c, const cosrod_contact_data *d, sim_jadd *B,
                         double *dF0) {
  const sim_couple *cp = s->d->cpl;
  const int nm = cp->nm;
  const cosrod_contact_pose_block *pb = cosrod_contact_pose_blocks(d);
  for (size_t k = 0, n = cosrod_contact_npose_blocks(d); k < n; k++, pb++) {
    const int b = on_dyn_body(s, pb->obstacle);
    if (b < 0) continue;
    int gx[3], gv[3];
    double minv, r[3];
    vertex_index(s, pb->rod, pb->vertex, gx, gv, &minv);
    cosrod_vec3_sub(r, s->d->data[pb->rod]->x + 3 * pb->vertex, cp->bx + 3 * (size_t)b);
    const double *G = c->G + (size_t)pb->obstacle * 12 * (size_t)nm,
                 *blk[4] = {pb->Kc, pb->Kr, pb->Dv, pb->Dw};
    double *dF = dF0 ? dF0 + (size_t)cp->bmap[b] * 6 * (size_t)nm : NULL;
    for (int m = 0; m < nm; m++) {
      double df[3] = {0, 0, 0}, t[3];
      for (int l = 0; l < 12; l++) {
        const double g = G[l + 12 * m], *K = blk[l / 3] + 3 * (l % 3);
        if (g != 0.0)
          for (int i = 0; i < 3; i++) df[i] += K[i] * g;
      }
      for (int i = 0; B && i < 3; i++) sim_jadd_add(B, gv[i], cp->mmap[m], minv * df[i]);
      cosrod_vec3_cross(t, r, df);
      for (int i = 0; dF && i < 3; i++) dF[i + 6 * m] -= df[i], dF[3 + i + 6 * m] -= t[i];
    }
  }
}

static int touch(struct sim_ccj *c, int nl, int v) {
  if (c->flag[v]) return nl;
  c->flag[v] = 1;
  memset(c->acc + 36 * (size_t)v, 0, 36 * sizeof *c->acc);
  memset(c->fv + 3 * (size_t)v, 0, 3 * sizeof *c->fv);
  c->list[nl] = v;
  return nl + 1;
}

/* Body b's shapes: vertex forces (the contact points' Gauss point forces
 * split linearly onto the segment's vertices) into c->fv and their sum Fs,
 * d(F_b, M_b)/d(x_j, v_j) into c->acc; the touched vertices listed. */
static int body_rod_sens(const sys_system *s, struct sim_ccj *c, const cosrod_contact_data *d, int b,
                         double Fs[3]) {
  int nl = 0;
  cosrod_vec3_zero(Fs);
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t k = 0, n = cosrod_contact_npoints(d); k < n; k++, p++) {
    if (p->other_kind != 0 || on_dyn_body(s, p->other) != b) continue;
    const double *xa = s->d->data[p->rod]->x + 3 * p->segment;
    double e[3], u[3];
    cosrod_vec3_sub(e, xa + 3, xa);
    cosrod_vec3_sub(u, p->point, xa);
    const double xi = cosrod_vec3_dot(u, e) / cosrod_vec3_dot(e, e);
    const int v0 = c->voff[p->rod] + p->segment;
    nl = touch(c, nl, v0), nl = touch(c, nl, v0 + 1);
    for (int i = 0; i < 3; i++) {
      const double F = p->fn * p->normal[i] + p->ft[i];
      c->fv[3 * v0 + i] += (1.0 - xi) * F;
      c->fv[3 * v0 + 3 + i] += xi * F;
      Fs[i] += F;
    }
  }
  const double *xb = s->d->cpl->bx + 3 * (size_t)b;
  const cosrod_contact_block *bl = cosrod_contact_blocks(d);
  for (size_t k = 0, n = cosrod_contact_nblocks(d); k < n; k++, bl++) {
    if (on_dyn_body(s, bl->obstacle) != b) continue;
    const int vj = c->voff[bl->rod_j] + bl->vertex_j;
    nl = touch(c, nl, vj);
    double r[3], t[3], *A = c->acc + 36 * (size_t)vj;
    cosrod_vec3_sub(r, s->d->data[bl->rod_i]->x + 3 * bl->vertex_i, xb);
    for (int cc = 0; cc < 6; cc++) {
      const double *col = (cc < 3 ? bl->K : bl->D) + 3 * (cc % 3);
      cosrod_vec3_cross(t, r, col);
      for (int i = 0; i < 3; i++) A[i + 6 * cc] -= col[i], A[3 + i + 6 * cc] -= t[i];
    }
  }
  for (int l = 0; l < nl; l++) { /* -(dx_j x f_j) */
    const int v = c->list[l];
    double *A = c->acc + 36 * (size_t)v, t[3];
    for (int cc = 0; cc < 3; cc++) {
      double ec[3] = {0, 0, 0};
      ec[cc] = 1.0;
      cosrod_vec3_cross(t, ec, c->fv + 3 * (size_t)v);
      for (int i = 0; i < 3; i++) A[3 + i + 6 * cc] -= t[i];
    }
  }
  return nl;
}

/* Rod vertex of global index v: its rod and index. */
static void vertex_of(const sys_system *s, const struct sim_ccj *c, int v, int *r, int *n) {
  int k = 0;
  while (k + 1 < (int)s->m->nrods && c->voff[k + 1] <= v) k++;
  *r = k, *n = v - c->voff[k];
}

/* Sum of the forces of body b's shapes on the rods. */
static void body_force_sum(const sys_system *s, const cosrod_contact_data *d, int b, double Fs[3]) {
  const cosrod_contact_point *p = cosrod_contact_points(d);
  cosrod_vec3_zero(Fs);
  for (size_t k = 0, n = cosrod_contact_npoints(d); k < n; k++, p++)
    if (p->other_kind == 0 && on_dyn_body(s, p->other) == b)
      for (int i = 0; i < 3; i++) Fs[i] += p->fn * p->normal[i] + p->ft[i];
}

/* Body rows, rod columns of body b: D_b d(F_b, M_b)/d(x_j, v_j). */
static void rod_columns(sys_system *s, struct sim_ccj *c, const cosrod_contact_data *d, int b,
                        const double *Db, sim_jadd *B) {
  const sim_couple *cp = s->d->cpl;
  const int nm = cp->nm;
  double Fs[3];
  const int nl = body_rod_sens(s, c, d, b, Fs);
  for (int l = 0; l < nl; l++) {
    const int v = c->list[l];
    int r, n, gx[3], gv[3];
    double minv;
    vertex_of(s, c, v, &r, &n);
    c->flag[v] = 0;
    if (!vertex_index(s, r, n, gx, gv, &minv)) continue;
    const double *A = c->acc + 36 * (size_t)v;
    for (int cc = 0; cc < 6; cc++)
      for (int bi = 0; bi < nm; bi++) {
        double val = 0.0;
        for (int k = 0; k < 6; k++) val += Db[bi + (size_t)nm * (size_t)k] * A[k + 6 * cc];
        sim_jadd_add(B, cp->mmap[bi], cc < 3 ? gx[cc] : gv[cc - 3], val);
      }
  }
}

int sim_ccj_assemble(sys_system *s, struct sim_ccj *c, int phase, sim_jadd *B, const double *P,
                     const double *D, double *dF) {
  const cosrod_contact_data *d = sim_contact_data(s->d->contact);
  if (!c || !d) return c ? 0 : 1;
  if (!applicable(s, d)) return 1;
  const sim_couple *cp = s->d->cpl;
  const int nm = cp->nm;
  if (phase == 1) { /* the adds, after the structural ones of couple_jac.c (their cached positions stay) */
    pose_columns(s, c, d, B, NULL);
    for (size_t b = 0; b < cp->nb; b++)
      if (cp->bmap[b] >= 0) rod_columns(s, c, d, (int)b, D + (size_t)cp->bmap[b] * 6 * (size_t)nm, B);
    return 0;
  }
  for (int k = 0; k < c->nobs; k++) { /* G_k = PO_k P_b */
    const int b = on_dyn_body(s, k);
    if (b < 0) continue;
    double PO[12 * 13], *G = c->G + (size_t)k * 12 * (size_t)nm;
    const double *Pb = P + (size_t)cp->bmap[b] * 13 * (size_t)nm;
    double a[3]; /* the shape's position from the model body's centre (couple.c) */
    cosrod_vec3_sub(a, s->m->def->contact.obstacles[k].pose.position, cp->shift + 3 * (size_t)b);
    pose_map(cp, (size_t)b, a, PO);
    for (int m = 0; m < nm; m++)
      for (int i = 0; i < 12; i++) {
        double v = 0.0;
        for (int l = 0; l < 13; l++) v += PO[i + 12 * l] * Pb[l + 13 * m];
        G[i + 12 * m] = v;
      }
  }
  pose_columns(s, c, d, NULL, dF); /* body columns of dF */
  for (size_t b = 0; b < cp->nb; b++) {
    if (cp->bmap[b] < 0) continue;
    const double *Pb = P + (size_t)cp->bmap[b] * 13 * (size_t)nm;
    double Fs[3], *dFb = dF + (size_t)cp->bmap[b] * 6 * (size_t)nm;
    body_force_sum(s, d, (int)b, Fs);
    for (int m = 0; m < nm; m++) { /* + dx_b x sum f_n */
      double t[3];
      cosrod_vec3_cross(t, Pb + 13 * m, Fs);
      for (int i = 0; i < 3; i++) dFb[3 + i + 6 * m] += t[i];
    }
  }
  return 0;
}
