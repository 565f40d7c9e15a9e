// SPDX-License-Identifier: Apache-2.0
/* Stages 1-3 of the tangent of the multibody right-hand side (see
 * body_tangent.c): side points, velocities and quaternions with their
 * tangents; the joint-row tangents g', J', gamma' (body_joint.c
 * differentiated); the applied-force tangent h' (loads, bushings,
 * gyroscopic torque). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "body_tangent.h"

/* ---- stage 1/3 helpers: side points and quaternions ------------------------ */

static const double ID9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, ZERO9[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};

void mbs_tside_values(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *y, int body,
                      const double at[3], tside *s) {
  memset(s, 0, sizeof *s);
  s->body = body;
  cosrod_vec3_copy(s->at, at);
  s->R = ID9, s->dR = ZERO9;
  if (body <= -2) { /* kinematic frame: values at d->t, no tangent */
    const double *k = mbs_kin(d, body);
    s->R = k + 13;
    cosrod_vec3_copy(s->x, k);
    mat_vec(s->r, s->R, at);
    cosrod_vec3_add(s->c, s->x, s->r);
    cosrod_vec3_copy(s->v, k + 7);
    cosrod_vec3_copy(s->om, k + 10);
    return;
  }
  if (body < 0) {
    cosrod_vec3_copy(s->x, at);
    cosrod_vec3_copy(s->c, at);
    return;
  }
  s->R = d->R + 9 * body;
  s->dR = d->tan->dR + 9 * body;
  cosrod_vec3_copy(s->x, y + m->bodies[body].qoff);
  mat_vec(s->r, s->R, at);
  cosrod_vec3_add(s->c, s->x, s->r);
  cosrod_vec3_copy(s->v, d->w + 6 * body);
  mat_vec(s->om, s->R, d->w + 6 * body + 3);
}

/* Tangents of side s for direction dy (positions; velocities too if vel). */
void mbs_tside_tangent(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *dy, tside *s, int vel) {
  const mbs_tan *tn = d->tan;
  if (s->body < 0 || !(vel ? tn->act : tn->pact)[s->body]) {
    memset(s->dx, 0, 15 * sizeof(double));
    return;
  }
  int body = s->body;
  if (tn->pact[body]) {
    cosrod_vec3_copy(s->dx, dy + m->bodies[body].qoff);
    mat_vec(s->dr, s->dR, s->at);
    cosrod_vec3_add(s->dc, s->dx, s->dr);
  } else {
    memset(s->dx, 0, 9 * sizeof(double));
  }
  if (!vel) return;
  cosrod_vec3_copy(s->dv, tn->dw + 6 * body);
  const double *Om = d->w + 6 * body + 3, *dOm = tn->dw + 6 * body + 3;
  double t[3];
  mat_vec(s->dom, s->dR, Om);
  mat_vec(t, s->R, dOm);
  cosrod_vec3_add(s->dom, s->dom, t);
}

/* Point velocity cd = v + om x r and its tangent. */
static void tside_velocity(const tside *s, double cd[3], double dcd[3]) {
  double t[3];
  cosrod_vec3_cross(t, s->om, s->r);
  cosrod_vec3_add(cd, s->v, t);
  dcross(t, s->om, s->dom, s->r, s->dr);
  cosrod_vec3_add(dcd, s->dv, t);
}

#define RM(A, i, j) (A)[((i)-1) + 3 * ((j)-1)]
/* Tangent of cosrod_quat_from_matrix (Spurrier-Klumpp, same branch). */
static void spurrier_tan(const double R[9], const double dR[9], double q[4], double dq[4]) {
  double tr = RM(R, 1, 1) + RM(R, 2, 2) + RM(R, 3, 3), dtr = RM(dR, 1, 1) + RM(dR, 2, 2) + RM(dR, 3, 3);
  double dd[4] = {tr, RM(R, 1, 1), RM(R, 2, 2), RM(R, 3, 3)};
  int n = 0;
  for (int k = 1; k < 4; ++k)
    if (dd[k] > dd[n]) n = k;
  /* pivot q_n = sqrt(a), others q_k = (0.25 / q_n) X_k with X_k sums/differences of off-diagonals */
  double a, da;
  if (n == 0)
    a = 0.25 * (1.0 + tr), da = 0.25 * dtr;
  else
    a = 0.5 * RM(R, n, n) + 0.25 * (1.0 - tr), da = 0.5 * RM(dR, n, n) - 0.25 * dtr;
  q[n] = sqrt(a);
  dq[n] = 0.5 * da / q[n];
  double s = 0.25 / q[n], ds = -0.25 * dq[n] / (q[n] * q[n]);
  /* X for the three other components (i, j, sign): X = R_ij + sign R_ji */
  static const int tab[4][3][4] = {{{1, 3, 2, -1}, {2, 1, 3, -1}, {3, 2, 1, -1}}, /* n = 0: q1, q2, q3 */
                                   {{0, 3, 2, -1}, {2, 2, 1, 1}, {3, 3, 1, 1}},   /* n = 1: q0, q2, q3 */
                                   {{0, 1, 3, -1}, {1, 1, 2, 1}, {3, 3, 2, 1}},   /* n = 2: q0, q1, q3 */
                                   {{0, 2, 1, -1}, {1, 1, 3, 1}, {2, 2, 3, 1}}};  /* n = 3: q0, q1, q2 */
  for (int k = 0; k < 3; ++k) {
    const int *e = tab[n][k];
    double X = RM(R, e[1], e[2]) + e[3] * RM(R, e[2], e[1]),
           dX = RM(dR, e[1], e[2]) + e[3] * RM(dR, e[2], e[1]);
    q[e[0]] = s * X;
    dq[e[0]] = ds * X + s * dX;
  }
}
#undef RM

/* q = p / |p| and its tangent. */
static void normalise_tan(double q[4], double dq[4], const double p[4], const double dp[4]) {
  double n = cosrod_quat_norm(p);
  for (int k = 0; k < 4; ++k) q[k] = p[k] / n;
  double c = cosrod_quat_dot(q, dp);
  for (int k = 0; k < 4; ++k) dq[k] = (dp[k] - c * q[k]) / n;
}

/* Unit quaternion of side i (mbs_quat_of) and its tangent. */
static void side_quat_tan(const cosrod_mbs *m, const double *y, const double *dy, int i, double q[4],
                          double dq[4]) {
  memset(dq, 0, 4 * sizeof *dq);
  if (i < 0) {
    cosrod_quat_identity(q);
    return;
  }
  const mbs_body *b = &m->bodies[i];
  const double *r = y + b->qoff + 3, *dr = dy + b->qoff + 3;
  double p[4], dp[4];
  if (b->param == COSROD_BODY_QUATERNION) {
    normalise_tan(q, dq, r, dr);
  } else if (b->param == COSROD_BODY_DIRECTORS) {
    spurrier_tan(r, dr, p, dp);
    normalise_tan(q, dq, p, dp);
  } else {
    double P[12];
    cosrod_quat_from_euler313(q, r);
    mbs_dp_dth(P, r);
    for (int a = 0; a < 4; ++a) dq[a] = P[a] * dr[0] + P[a + 4] * dr[1] + P[a + 8] * dr[2];
  }
}

void mbs_quat_tan(const cosrod_mbs *m, const double *y, const double *dy, int i, double q[4], double dq[4]) {
  side_quat_tan(m, y, dy, i, q, dq);
}

const double *mbs_tan_dw(const cosrod_mbs_data *d) { return d->tan->dw; }

/* ---- stage 2: joint rows ---------------------------------------------------- */

/* Row tangents for the current side tangents (tn->js): mode 1: g' and J';
 * 2: gamma'; 3: both.  Rows whose bodies have no tangent (flag: tn->pact
 * for mode 1, tn->act otherwise) are zero. */
void mbs_tan_rows(const cosrod_mbs *m, cosrod_mbs_data *d, int mode) {
  mbs_tan *tn = d->tan;
  int nc = m->nc;
  const int *flag = mode == 1 ? tn->pact : tn->act;
  if (mode & 1) memset(tn->dJ, 0, (size_t)nc * (size_t)m->nw * sizeof(double));
  for (int i = 0; i < nc; ++i) {
    const mbs_row *row = &m->rows[i];
    const mbs_joint *jt = &m->joints[row->joint];
    if (mode & 2) tn->dgt[i] = 0.0;
    if (!flag[jt->body[0]] && (jt->body[1] < 0 || !flag[jt->body[1]])) {
      if (mode & 1) tn->dg[i] = 0.0;
      if (mode & 2) tn->dgam[i] = 0.0;
      continue;
    }
    const tside *pA = &tn->js[2 * row->joint], *pB = pA + 1;
    double *dJ = tn->dJ;
    int ca = 6 * pA->body, cb = 6 * pB->body;
    double s[3], ds[3], t[3], tmp[3], dtmp[3];
    mat_vec(s, pA->R, row->u);
    mat_vec(ds, pA->dR, row->u);
    if (row->kind == 0) {
      double e[3], de[3], E[3], dE[3];
      cosrod_vec3_sub(e, pB->c, pA->c);
      cosrod_vec3_sub(de, pB->dc, pA->dc);
      cosrod_vec3_sub(E, pB->c, pA->x);
      cosrod_vec3_sub(dE, pB->dc, pA->dx);
      if (mode & 1) {
        tn->dg[i] = ddot(s, ds, e, de);
        for (int k = 0; k < 3; ++k) dJ[i + nc * (ca + k)] = -ds[k];
        cosrod_vec3_cross(tmp, s, E);
        dcross(dtmp, s, ds, E, dE);
        dmatT(t, pA->R, pA->dR, tmp, dtmp);
        for (int k = 0; k < 3; ++k) dJ[i + nc * (ca + 3 + k)] = t[k];
        if (pB->body >= 0) {
          for (int k = 0; k < 3; ++k) dJ[i + nc * (cb + k)] = ds[k];
          cosrod_vec3_cross(tmp, pB->r, s);
          dcross(dtmp, pB->r, pB->dr, s, ds);
          dmatT(t, pB->R, pB->dR, tmp, dtmp);
          for (int k = 0; k < 3; ++k) dJ[i + nc * (cb + 3 + k)] = t[k];
        }
      }
      if (mode & 2) { /* gamma as in body_joint.c */
        double ws[3], dws[3], wr[3], dwr[3], dv[3], ddv[3], Ed[3], dEd[3], a1[3], da1[3], u[3];
        cosrod_vec3_cross(ws, pA->om, s);
        dcross(dws, pA->om, pA->dom, s, ds);
        cosrod_vec3_cross(wr, pB->om, pB->r);
        dcross(dwr, pB->om, pB->dom, pB->r, pB->dr);
        cosrod_vec3_sub(dv, pB->v, pA->v);
        cosrod_vec3_sub(ddv, pB->dv, pA->dv);
        cosrod_vec3_add(Ed, dv, wr);
        cosrod_vec3_add(dEd, ddv, dwr);
        cosrod_vec3_cross(a1, ws, E);
        cosrod_vec3_cross(u, s, Ed);
        cosrod_vec3_add(a1, a1, u);
        dcross(da1, ws, dws, E, dE);
        dcross(u, s, ds, Ed, dEd);
        cosrod_vec3_add(da1, da1, u);
        double dgm = ddot(pA->om, pA->dom, a1, da1) + ddot(ws, dws, dv, ddv);
        cosrod_vec3_cross(a1, wr, s);
        cosrod_vec3_cross(u, pB->r, ws);
        cosrod_vec3_add(a1, a1, u);
        dcross(da1, wr, dwr, s, ds);
        dcross(u, pB->r, pB->dr, ws, dws);
        cosrod_vec3_add(da1, da1, u);
        dgm += ddot(pB->om, pB->dom, a1, da1);
        tn->dgam[i] = dgm;
        if (pB->body <= -2) { /* kinematic side (body_joint.c): s'.(v_b + w_b x r_b), s'.(a_b + al_b x r_b) */
          const double *k = mbs_kin(d, pB->body);
          cosrod_vec3_cross(u, pB->om, pB->r);
          cosrod_vec3_add(u, u, pB->v);
          tn->dgt[i] = cosrod_vec3_dot(ds, u);
          cosrod_vec3_cross(u, k + 25, pB->r);
          cosrod_vec3_add(u, u, k + 22);
          tn->dgam[i] += cosrod_vec3_dot(ds, u);
        }
      }
    } else {
      double b[3], db[3], ab[3], dab[3];
      mat_vec(b, pB->R, row->w);
      mat_vec(db, pB->dR, row->w);
      if (mode & 1) {
        tn->dg[i] = ddot(s, ds, b, db);
        cosrod_vec3_cross(ab, s, b);
        dcross(dab, s, ds, b, db);
        dmatT(t, pA->R, pA->dR, ab, dab);
        for (int k = 0; k < 3; ++k) dJ[i + nc * (ca + 3 + k)] = t[k];
        if (pB->body >= 0) {
          dmatT(t, pB->R, pB->dR, ab, dab);
          for (int k = 0; k < 3; ++k) dJ[i + nc * (cb + 3 + k)] = -t[k];
        }
      }
      if (mode & 2) {
        double wa[3], dwa[3], wb[3], dwb[3], a1[3], da1[3], u[3], dw[3], ddw[3];
        cosrod_vec3_cross(wa, pA->om, s);
        dcross(dwa, pA->om, pA->dom, s, ds);
        cosrod_vec3_cross(a1, wa, b);
        dcross(da1, wa, dwa, b, db);
        cosrod_vec3_cross(wb, pB->om, b);
        dcross(dwb, pB->om, pB->dom, b, db);
        cosrod_vec3_cross(u, s, wb);
        cosrod_vec3_add(a1, a1, u);
        dcross(u, s, ds, wb, dwb);
        cosrod_vec3_add(da1, da1, u);
        cosrod_vec3_sub(dw, pA->om, pB->om);
        cosrod_vec3_sub(ddw, pA->dom, pB->dom);
        tn->dgam[i] = ddot(dw, ddw, a1, da1);
        if (pB->body <= -2) { /* kinematic side: -(s' x b).w_b, -(s' x b).al_b */
          double dsb[3];
          cosrod_vec3_cross(dsb, ds, b);
          tn->dgt[i] = -cosrod_vec3_dot(dsb, pB->om);
          tn->dgam[i] -= cosrod_vec3_dot(dsb, mbs_kin(d, pB->body) + 25);
        }
      }
    }
  }
}

/* ---- stage 3: forces -------------------------------------------------------- */

/* h' of body i for a spatial force f at lever r and spatial moment mo. */
static void add_wrench_tan(const cosrod_mbs_data *d, int i, const double r[3], const double dr[3],
                           const double f[3], const double df[3], const double mo[3], const double dmo[3]) {
  if (i < 0) return;
  const mbs_tan *tn = d->tan;
  double t[3], dt[3], u[3];
  cosrod_vec3_cross(t, r, f);
  cosrod_vec3_add(t, t, mo);
  dcross(dt, r, dr, f, df);
  cosrod_vec3_add(dt, dt, dmo);
  dmatT(u, d->R + 9 * i, tn->dR + 9 * i, t, dt);
  double *h = tn->dh + 6 * i;
  cosrod_vec3_add(h, h, df);
  cosrod_vec3_add(h + 3, h + 3, u);
}

void mbs_tan_forces(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, const double *dy) {
  mbs_tan *tn = d->tan;
  static const double z3[3] = {0, 0, 0};
  memset(tn->dh, 0, (size_t)m->nw * sizeof(double));
  for (size_t i = 0; i < m->nl; ++i) {
    const mbs_load *l = &m->loads[i];
    if (l->kind == COSROD_BODY_LOAD_MOMENT && l->frame == COSROD_BODY_LOAD_BODY) continue; /* constant mu */
    if (!tn->pact[l->body]) continue; /* depends on R only */
    const double *R = d->R + 9 * l->body, *dR = tn->dR + 9 * l->body;
    double s = mbs_profile(l->profile, l->t0, l->t1, t), v[3], dv[3], sv[3];
    cosrod_vec3_scale(sv, s, l->value);
    if (l->frame == COSROD_BODY_LOAD_BODY) {
      mat_vec(v, R, sv);
      mat_vec(dv, dR, sv);
    } else {
      cosrod_vec3_copy(v, sv);
      cosrod_vec3_zero(dv);
    }
    if (l->kind == COSROD_BODY_LOAD_FORCE) {
      double r[3], dr[3];
      mat_vec(r, R, l->at);
      mat_vec(dr, dR, l->at);
      add_wrench_tan(d, l->body, r, dr, v, dv, z3, z3);
    } else {
      add_wrench_tan(d, l->body, z3, z3, z3, z3, v, dv);
    }
  }
  for (size_t i = 0; i < m->nbu; ++i) {
    const mbs_bushing *bu = &m->bushings[i];
    if (!tn->act[bu->body[0]] && (bu->body[1] < 0 || !tn->act[bu->body[1]])) continue;
    tside A = tn->bs[2 * i], B = tn->bs[2 * i + 1];
    mbs_tside_tangent(m, d, dy, &A, 1);
    mbs_tside_tangent(m, d, dy, &B, 1);
    double va[3], dva[3], vb[3], dvb[3], f[3], df[3], tau[3], dtau[3];
    tside_velocity(&A, va, dva);
    tside_velocity(&B, vb, dvb);
    for (int k = 0; k < 3; ++k) {
      f[k] = -bu->k * (A.c[k] - B.c[k]) - bu->c * (va[k] - vb[k]);
      df[k] = -bu->k * (A.dc[k] - B.dc[k]) - bu->c * (dva[k] - dvb[k]);
    }
    /* q = q_a q_a0^-1 q_b0 q_b^-1, tau = -2 k_rot q0 Im q - c_rot (om_a - om_b) */
    double qa[4], dqa[4], qb[4], dqb[4], q1[4], dq1[4], q[4], dq[4], u[4];
    side_quat_tan(m, y, dy, bu->body[0], qa, dqa);
    if (bu->body[1] <= -2) { /* kinematic frame: no tangent */
      cosrod_quat_copy(qb, mbs_kin(d, bu->body[1]) + 3);
      memset(dqb, 0, sizeof dqb);
    } else {
      side_quat_tan(m, y, dy, bu->body[1], qb, dqb);
    }
    cosrod_quat_mul_conj(q1, qa, bu->qa0);
    cosrod_quat_mul(q1, q1, bu->qb0);
    cosrod_quat_mul_conj(dq1, dqa, bu->qa0);
    cosrod_quat_mul(dq1, dq1, bu->qb0);
    cosrod_quat_mul_conj(q, q1, qb);
    cosrod_quat_mul_conj(dq, dq1, qb);
    cosrod_quat_mul_conj(u, q1, dqb);
    for (int k = 0; k < 4; ++k) dq[k] += u[k];
    for (int k = 0; k < 3; ++k) {
      tau[k] = -2.0 * bu->k_rot * q[0] * q[1 + k] - bu->c_rot * (A.om[k] - B.om[k]);
      dtau[k] = -2.0 * bu->k_rot * (dq[0] * q[1 + k] + q[0] * dq[1 + k]) - bu->c_rot * (A.dom[k] - B.dom[k]);
    }
    add_wrench_tan(d, bu->body[0], A.r, A.dr, f, df, tau, dtau);
    double mf[3], dmf[3], mt[3], dmt[3];
    cosrod_vec3_scale(mf, -1.0, f), cosrod_vec3_scale(dmf, -1.0, df);
    cosrod_vec3_scale(mt, -1.0, tau), cosrod_vec3_scale(dmt, -1.0, dtau);
    add_wrench_tan(d, bu->body[1], B.r, B.dr, mf, dmf, mt, dmt);
  }
  /* caller wrenches (cosrod_mbs_set_wrench): constant spatial torque, R^T tau moves with R */
  for (size_t i = 0; i < m->nb; ++i)
    if (tn->pact[i]) add_wrench_tan(d, (int)i, z3, z3, z3, z3, d->hext + 6 * i + 3, z3);
  /* h_tot' = h' - (Omega x I Omega)' */
  for (size_t i = 0; i < m->nb; ++i) {
    const double *I3 = m->bodies[i].inertia, *Om = d->w + 6 * i + 3, *dOm = tn->dw + 6 * i + 3;
    double JO[3] = {I3[0] * Om[0], I3[1] * Om[1], I3[2] * Om[2]};
    double dJO[3] = {I3[0] * dOm[0], I3[1] * dOm[1], I3[2] * dOm[2]}, gg[3];
    dcross(gg, Om, dOm, JO, dJO);
    for (int k = 0; k < 3; ++k) {
      tn->dht[6 * i + k] = tn->dh[6 * i + k];
      tn->dht[6 * i + 3 + k] = tn->dh[6 * i + 3 + k] - gg[k];
    }
  }
}
