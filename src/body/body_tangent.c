// SPDX-License-Identifier: Apache-2.0
/* Tangent (directional derivative) of the multibody right-hand side, for
 * every model: joints in both formulations, absolute bodies ([L] eq. 40 /
 * eq. 23) and rotational bushings.  mbs_tan_eval gives ydot' = f_y(t, y) dy
 * at the point of the last cosrod_mbs_rhs, by the product rule applied to
 * each stage of body_eval.c (exactly as coded, also off the manifolds):
 *   1. dR_b = sum_k dR/dr_k dr_k; twists: w' from the state, from (r, rdot)'
 *      for absolute bodies, or, null-space joints (J w = 0, w_ind = nu):
 *      w_dep' = -J_d^-1 (J' w + J_ind nu');
 *   2. rows: g', J', gamma' of the two primitives (body_joint.c);
 *   3. forces: loads, bushings (translational and the quaternion rotational
 *      spring, Spurrier-Klumpp for directors), gyroscopic torque;
 *   4. multipliers: S lambda = b, S = J M^-1 J^T:
 *        lambda' = S^-1 (b' - J' M^-1 J^T lambda - J M^-1 J'^T lambda),
 *        hc' = -J'^T lambda - J^T lambda';
 *      null space ([L] eq. 11): wdot = beta + T nudot, J beta = -gamma,
 *        T^T (M wdot - h) = 0, T = [I; -J_d^-1 J_i] gives T' = -P J_d^-1 J' T
 *        and, with mu = J_d^-T (M wdot - h)_dep,
 *        A nudot' = T^T (h' - M beta' + J'^T mu),  J_d beta'_dep = -(J' wdot + gamma')_dep;
 *      absolute quaternion: eq. 40 differentiated; absolute directors: the
 *        15 x 15 system of eq. 23, x' = D^-1 (rhs' - D' x) (body_tangent_abs.c);
 *   5. kinematics: rdot' = T_r(r) Omega' + T_r'(r) Omega.
 * The dense Jacobian (cosrod_mbs_jac) is n such tangents with dy = e_j. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "body_internal.h"

/* One side of a joint or bushing: values at the base point (set once per
 * Jacobian by mbs_tan_prepare) and tangents (per direction). */
typedef struct tside {
  int body;
  const double *R, *dR;                      /* rotation and its tangent (ground: I, 0) */
  double at[3];                              /* body-fixed point (ground: spatial) */
  double x[3], r[3], c[3], v[3], om[3];      /* values: centre, lever R at, point, v, R Omega */
  double dx[3], dr[3], dc[3], dv[3], dom[3]; /* tangents */
} tside;

struct mbs_tan {
  double *dRdr;        /* (nb x 81) d vec(R_b) / d r_b, (9 x nr) column-major */
  double *dR;          /* (nb x 9) R_b' */
  double *dw;          /* (nw) w' */
  double *dh;          /* (nw) applied-force tangent h' */
  double *dht;         /* (nw) h_tot' = h' + gyroscopic' */
  double *htot;        /* (nw) h_tot at the base point */
  double *wd;          /* (nw) wdot at the base point */
  double *lam;         /* (nc) lambda (MULTIPLIERS) or mu (NULLSPACE) */
  double *dJ;          /* (nc x nw) J' */
  double *dg, *dgam;   /* (nc) g', gamma' */
  double *dgt;         /* (nc) g_t' (rows with a kinematic side) */
  double *v1, *v2;     /* (nw + nc) scratch */
  double *x15;         /* (nb x 15) director solutions [rddot; multipliers] */
  cosrod_dense **D15;  /* (nb) LU of the eq. 23 matrix (absolute director bodies) */
  cosrod_dense *JdT;   /* (nc) LU of J_d^T (NULLSPACE) */
  int *pact, *act;     /* (nb) body has a nonzero position tangent / any tangent */
  double *mass, *minv; /* (nw) diagonal of M (m, m, m, I1, I2, I3 per body) and its inverse */
  tside *js;           /* (2 nj) joint sides */
  tside *bs;           /* (2 nbu) bushing sides */
};

static inline void mat_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  double b = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  double c = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

static inline void matT_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  double b = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  double c = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

/* (a x b)' = a' x b + a x b' */
static inline void dcross(double r[3], const double a[3], const double da[3], const double b[3],
                          const double db[3]) {
  double t[3], u[3];
  cosrod_vec3_cross(t, da, b);
  cosrod_vec3_cross(u, a, db);
  cosrod_vec3_add(r, t, u);
}

static inline double ddot(const double a[3], const double da[3], const double b[3], const double db[3]) {
  return cosrod_vec3_dot(da, b) + cosrod_vec3_dot(a, db);
}

/* (R^T b)' = R'^T b + R^T b' */
static inline void dmatT(double r[3], const double R[9], const double dR[9], const double b[3],
                         const double db[3]) {
  double t[3], u[3];
  matT_vec(t, dR, b);
  matT_vec(u, R, db);
  cosrod_vec3_add(r, t, u);
}

mbs_tan *mbs_tan_create(const cosrod_mbs *m) {
  mbs_tan *tn = calloc(1, sizeof *tn);
  if (!tn) return NULL;
  size_t nb = m->nb, nw = (size_t)m->nw, nc = (size_t)m->nc;
  tn->dRdr = calloc(81 * nb + 1, sizeof(double));
  tn->dR = calloc(9 * nb + 1, sizeof(double));
  tn->dw = calloc(nw + 1, sizeof(double));
  tn->dh = calloc(nw + 1, sizeof(double));
  tn->dht = calloc(nw + 1, sizeof(double));
  tn->htot = calloc(nw + 1, sizeof(double));
  tn->wd = calloc(nw + 1, sizeof(double));
  tn->lam = calloc(nc + 1, sizeof(double));
  tn->dJ = calloc(nc * nw + 1, sizeof(double));
  tn->dg = calloc(nc + 1, sizeof(double));
  tn->dgam = calloc(nc + 1, sizeof(double));
  tn->dgt = calloc(nc + 1, sizeof(double));
  tn->v1 = calloc(nw + nc + 1, sizeof(double));
  tn->v2 = calloc(nw + nc + 1, sizeof(double));
  tn->x15 = calloc(15 * nb + 1, sizeof(double));
  tn->D15 = calloc(nb + 1, sizeof *tn->D15);
  tn->pact = calloc(nb + 1, sizeof(int));
  tn->js = calloc(2 * m->nj + 1, sizeof *tn->js);
  tn->mass = calloc(nw + 1, sizeof(double));
  tn->minv = calloc(nw + 1, sizeof(double));
  tn->bs = calloc(2 * m->nbu + 1, sizeof *tn->bs);
  tn->act = calloc(nb + 1, sizeof(int));
  int ok = tn->pact && tn->act && tn->js && tn->bs && tn->mass && tn->minv && tn->dRdr && tn->dR && tn->dw &&
           tn->dh && tn->dht && tn->htot && tn->wd && tn->lam && tn->dJ && tn->dg && tn->dgam && tn->dgt && tn->v1 &&
           tn->v2 && tn->x15 && tn->D15;
  for (size_t i = 0; ok && i < nb; ++i)
    if (m->bodies[i].absolute && m->bodies[i].param == COSROD_BODY_DIRECTORS)
      ok = (tn->D15[i] = cosrod_dense_create(15)) != NULL;
  if (ok && nc && m->joint_form == COSROD_JOINTS_NULLSPACE)
    ok = (tn->JdT = cosrod_dense_create((int)nc)) != NULL;
  if (!ok) {
    mbs_tan_free(tn, nb);
    return NULL;
  }
  for (size_t j = 0; j < nw; ++j) {
    const mbs_body *b = &m->bodies[j / 6];
    tn->mass[j] = j % 6 < 3 ? b->mass : b->inertia[j % 6 - 3];
    tn->minv[j] = 1.0 / tn->mass[j];
  }
  return tn;
}

void mbs_tan_free(mbs_tan *tn, size_t nb) {
  if (!tn) return;
  free(tn->dRdr), free(tn->dR), free(tn->dw), free(tn->dh), free(tn->dht), free(tn->htot), free(tn->wd);
  free(tn->lam), free(tn->dJ), free(tn->dg), free(tn->dgam), free(tn->dgt), free(tn->v1), free(tn->v2), free(tn->x15);
  if (tn->D15)
    for (size_t i = 0; i < nb; ++i) cosrod_dense_free(tn->D15[i]);
  free(tn->D15);
  free(tn->pact), free(tn->act), free(tn->js), free(tn->bs), free(tn->mass), free(tn->minv);
  cosrod_dense_free(tn->JdT);
  free(tn);
}

/* ---- stage 1/3 helpers: side points and quaternions ------------------------ */

static const double ID9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, ZERO9[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};

static void tside_values(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *y, int body,
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
static void tside_tangent(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *dy, tside *s,
                          int vel) {
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
static void rows_tan(const cosrod_mbs *m, cosrod_mbs_data *d, int mode) {
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

static void forces_tan(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, const double *dy) {
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
    tside_tangent(m, d, dy, &A, 1);
    tside_tangent(m, d, dy, &B, 1);
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

/* ---- driver ----------------------------------------------------------------- */

/* After cosrod_mbs_rhs(t, y): save the base point and factor what the
 * tangents need.  Returns 0 or -1. */
int mbs_tan_prepare(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y) {
  mbs_tan *tn = d->tan;
  int nw = m->nw, nc = m->nc;
  memcpy(tn->htot, d->tmp, (size_t)nw * sizeof(double));
  memcpy(tn->wd, d->wd, (size_t)nw * sizeof(double));
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    static const double E3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double D[27];
    for (int c = 0; c < 3; ++c) { /* d(R e_c)/dr -> rows 3c .. 3c + 2 of d vec(R)/dr */
      mbs_dR_apply(b, y + b->qoff + 3, E3[c], 0, D);
      for (int k = 0; k < b->nr; ++k)
        for (int a = 0; a < 3; ++a) tn->dRdr[81 * i + (3 * c + a) + 9 * k] = D[a + 3 * k];
    }
  }
  for (size_t j = 0; j < m->nj; ++j)
    for (int k = 0; k < 2; ++k)
      tside_values(m, d, y, m->joints[j].body[k], m->joints[j].at[k], &tn->js[2 * j + k]);
  for (size_t j = 0; j < m->nbu; ++j)
    for (int k = 0; k < 2; ++k)
      tside_values(m, d, y, m->bushings[j].body[k], m->bushings[j].at[k], &tn->bs[2 * j + k]);
  if (m->joint_form == COSROD_JOINTS_MULTIPLIERS) {
    memcpy(tn->lam, d->lam, (size_t)nc * sizeof(double));
  } else if (nc > 0) {
    /* mu = J_d^-T (M wdot - h_tot)_dep */
    for (int i = 0; i < nc; ++i) {
      int j = d->cur_dep[i];
      const mbs_body *b = &m->bodies[j / 6];
      double mj = j % 6 < 3 ? b->mass : b->inertia[j % 6 - 3];
      tn->lam[i] = mj * tn->wd[j] - tn->htot[j];
      for (int k = 0; k < nc; ++k) cosrod_dense_set(tn->JdT, i, k, d->Jc[k + nc * j]);
    }
    if (cosrod_dense_factor(tn->JdT) != COSROD_OK) return -1;
    cosrod_dense_solve(tn->JdT, tn->lam);
  }
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    if (!tn->D15[i]) continue;
    const double *r = y + b->qoff + 3, *rd = y + b->voff + 3;
    double mu[3];
    for (int k = 0; k < 3; ++k) mu[k] = d->h[6 * i + 3 + k] + d->hc[6 * i + 3 + k];
    cosrod_dense *D = tn->D15[i];
    cosrod_dense_zero(D);
    for (int k = 0; k < 3; ++k)
      for (int a = 0; a < 3; ++a) cosrod_dense_set(D, 3 * k + a, 3 * k + a, b->euler[k]);
    mbs_d15_constraints(D->data, r);
    mbs_d15_rhs(tn->x15 + 15 * i, r, rd, mu);
    if (cosrod_dense_factor(D) != COSROD_OK) return -1;
    cosrod_dense_solve(D, tn->x15 + 15 * i);
  }
  return 0;
}

/* dydot = f_y dy at the point prepared by mbs_tan_prepare. */
void mbs_tan_eval(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, const double *dy,
                  double *dydot) {
  mbs_tan *tn = d->tan;
  int nw = m->nw, nc = m->nc, nd = m->ndof;
  /* 1. R' */
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    const double *dr = dy + b->qoff + 3, *G = tn->dRdr + 81 * i;
    double *dR = tn->dR + 9 * i;
    memset(dR, 0, 9 * sizeof *dR);
    int pa = dy[b->qoff] != 0.0 || dy[b->qoff + 1] != 0.0 || dy[b->qoff + 2] != 0.0;
    for (int k = 0; k < b->nr; ++k)
      if (dr[k] != 0.0) {
        pa = 1;
        for (int a = 0; a < 9; ++a) dR[a] += G[a + 9 * k] * dr[k];
      }
    tn->pact[i] = pa;
  }
  /* twists w' */
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    memset(tn->dw, 0, (size_t)nw * sizeof(double));
    for (int k = 0; k < nd; ++k) tn->dw[d->cur_ind[k]] = dy[m->nq + k];
    if (nc > 0) {
      int anyp = 0;
      for (size_t i = 0; i < m->nb; ++i) anyp |= tn->pact[i];
      if (anyp) { /* J' (independent of w'; 0 for velocity columns) */
        for (size_t j = 0; j < 2 * m->nj; ++j) tside_tangent(m, d, dy, &tn->js[j], 0);
        rows_tan(m, d, 1);
      } else {
        memset(tn->dJ, 0, (size_t)nc * (size_t)nw * sizeof(double));
      }
      for (int i = 0; i < nc; ++i) {
        double s = 0.0;
        for (int j = 0; j < nw; ++j)
          s += (anyp ? tn->dJ[i + nc * j] * d->w[j] : 0.0) + d->Jc[i + nc * j] * tn->dw[j];
        tn->v1[i] = s;
      }
      cosrod_dense_solve(d->S, tn->v1);
      for (int i = 0; i < nc; ++i) tn->dw[d->cur_dep[i]] = -tn->v1[i];
    }
  } else {
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      cosrod_vec3_copy(tn->dw + 6 * i, dy + b->voff);
      if (b->absolute)
        mbs_omega_from_rate_tan(b, y + b->qoff + 3, y + b->voff + 3, dy + b->qoff + 3, dy + b->voff + 3,
                                tn->dw + 6 * i + 3);
      else
        cosrod_vec3_copy(tn->dw + 6 * i + 3, dy + b->voff + 3);
    }
  }
  for (size_t i = 0; i < m->nb; ++i) {
    int a = tn->pact[i];
    for (int k = 0; k < 6 && !a; ++k) a = tn->dw[6 * i + k] != 0.0;
    tn->act[i] = a;
  }
  if (nc > 0) {
    for (size_t j = 0; j < 2 * m->nj; ++j) tside_tangent(m, d, dy, &tn->js[j], 1);
    int anyp = 0;
    for (size_t i = 0; i < m->nb; ++i) anyp |= tn->pact[i];
    if (m->joint_form == COSROD_JOINTS_MULTIPLIERS && !anyp) { /* velocity column: J' = 0, g' = 0 */
      memset(tn->dJ, 0, (size_t)nc * (size_t)nw * sizeof(double));
      memset(tn->dg, 0, (size_t)nc * sizeof(double));
    }
    /* null space: J' done above; multipliers: J', g' for position columns */
    rows_tan(m, d, m->joint_form == COSROD_JOINTS_NULLSPACE || !anyp ? 2 : 3);
  }
  forces_tan(m, d, t, y, dy);
  /* 4. dynamics */
  const double *lam = tn->lam;
  double *v1 = tn->v1, *v2 = tn->v2;
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    double *beta = v2; /* beta' (nw) */
    memset(beta, 0, (size_t)nw * sizeof(double));
    if (nc > 0) {
      for (int i = 0; i < nc; ++i) {
        double s = tn->dgam[i];
        for (int j = 0; j < nw; ++j) s += tn->dJ[i + nc * j] * tn->wd[j];
        v1[i] = s;
      }
      cosrod_dense_solve(d->S, v1);
      for (int i = 0; i < nc; ++i) beta[d->cur_dep[i]] = -v1[i];
    }
    /* v1 (nw) = h_tot' - M beta' + J'^T mu */
    for (int j = 0; j < nw; ++j) {
      double s = tn->dht[j] - tn->mass[j] * beta[j];
      for (int i = 0; i < nc; ++i) s += tn->dJ[i + nc * j] * lam[i];
      v1[j] = s;
    }
    double *nud = dydot + m->nq;
    for (int k = 0; k < nd; ++k) {
      const double *Tk = d->T + (size_t)nw * (size_t)k;
      double s = 0.0;
      for (int j = 0; j < nw; ++j) s += Tk[j] * v1[j];
      nud[k] = s;
    }
    if (nd > 0) cosrod_dense_solve(d->A, nud);
  } else {
    /* minv, and hc' = -J'^T lambda - J^T lambda' */
    double *dhc = v2;
    memset(dhc, 0, (size_t)nw * sizeof(double));
    if (nc > 0) {
      double *jl = dhc, *djl = v1 + nc; /* J^T lambda, J'^T lambda (nw each; v1 holds nw + nc) */
      for (int j = 0; j < nw; ++j) {
        double s = 0.0, u = 0.0;
        for (int i = 0; i < nc; ++i) s += d->Jc[i + nc * j] * lam[i], u += tn->dJ[i + nc * j] * lam[i];
        jl[j] = s, djl[j] = u;
      }
      double *rhs = v1; /* (nc) b' - S' lambda */
      for (int i = 0; i < nc; ++i) {
        double s = tn->dgam[i], gd = tn->dgt[i];
        for (int j = 0; j < nw; ++j) {
          double mi = tn->minv[j];
          double dJij = tn->dJ[i + nc * j], Jij = d->Jc[i + nc * j];
          s += dJij * mi * tn->htot[j] + Jij * mi * tn->dht[j];
          s -= dJij * mi * jl[j] + Jij * mi * djl[j];
          gd += dJij * d->w[j] + Jij * tn->dw[j];
        }
        rhs[i] = s + 2.0 * m->bg_r * gd + m->bg_omega * m->bg_omega * tn->dg[i];
      }
      cosrod_dense_solve(d->S, rhs);
      for (int j = 0; j < nw; ++j) {
        double s = 0.0;
        for (int i = 0; i < nc; ++i) s += tn->dJ[i + nc * j] * lam[i] + d->Jc[i + nc * j] * rhs[i];
        dhc[j] = -s;
      }
    }
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      double *vd = dydot + b->voff;
      for (int k = 0; k < 3; ++k) vd[k] = (tn->dht[6 * i + k] + dhc[6 * i + k]) / b->mass;
      if (b->absolute) {
        double mu[3], dmu[3];
        for (int k = 0; k < 3; ++k) {
          mu[k] = d->h[6 * i + 3 + k] + d->hc[6 * i + 3 + k];
          dmu[k] = tn->dh[6 * i + 3 + k] + dhc[6 * i + 3 + k];
        }
        mbs_abs_accel_tan(b, tn->x15 + 15 * i, tn->D15[i], y + b->qoff + 3, y + b->voff + 3, mu,
                          dy + b->qoff + 3, dy + b->voff + 3, dmu, vd + 3);
      } else {
        for (int k = 0; k < 3; ++k) vd[3 + k] = (tn->dht[6 * i + 3 + k] + dhc[6 * i + 3 + k]) / b->inertia[k];
      }
    }
  }
  /* 5. kinematic equations */
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    const double *r = y + b->qoff + 3, *dr = dy + b->qoff + 3, *Om = d->w + 6 * i + 3,
                 *dOm = tn->dw + 6 * i + 3;
    double *out = dydot + b->qoff + 3, tmp[9];
    cosrod_vec3_copy(dydot + b->qoff, tn->dw + 6 * i);
    if (b->absolute) {
      memcpy(out, dy + b->voff + 3, (size_t)b->nr * sizeof(double));
    } else if (b->param != COSROD_BODY_EULER313) { /* bilinear in (r, Omega) */
      mbs_rate_from_omega(b, dr, Om, out);
      mbs_rate_from_omega(b, r, dOm, tmp);
      for (int k = 0; k < b->nr; ++k) out[k] += tmp[k];
    } else { /* [L] eq. 66 */
      double s2 = sin(r[1]), c2 = cos(r[1]), s3 = sin(r[2]), c3 = cos(r[2]);
      double A = (s3 * Om[0] + c3 * Om[1]) / s2;
      double dA = (-A * c2 * dr[1] + (c3 * Om[0] - s3 * Om[1]) * dr[2] + s3 * dOm[0] + c3 * dOm[1]) / s2;
      out[0] = dA;
      out[1] = (-s3 * Om[0] - c3 * Om[1]) * dr[2] + c3 * dOm[0] - s3 * dOm[1];
      out[2] = s2 * A * dr[1] - c2 * dA + dOm[2];
    }
  }
}

/* Dense Jacobian of every model by n tangents (column j: dy = e_j). */
int mbs_jac_tangent(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J) {
  int n = m->n;
  if (cosrod_mbs_rhs(m, d, t, y, d->f0)) return -1;
  if (mbs_tan_prepare(m, d, y)) {
    snprintf(d->msg, sizeof d->msg, "bodies: singular matrix in the Jacobian at t = %.9g", t);
    return -1;
  }
  double *e = d->y1;
  memset(e, 0, (size_t)n * sizeof *e);
  for (int j = 0; j < n; ++j) {
    e[j] = 1.0;
    mbs_tan_eval(m, d, t, y, e, J + (size_t)n * (size_t)j);
    e[j] = 0.0;
  }
  for (size_t k = 0; k < (size_t)n * (size_t)n; ++k)
    if (!isfinite(J[k])) {
      snprintf(d->msg, sizeof d->msg, "bodies: non-finite Jacobian at t = %.9g", t);
      return -1;
    }
  return 0;
}
