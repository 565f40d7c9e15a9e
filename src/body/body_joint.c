// SPDX-License-Identifier: Apache-2.0
/* Joint constraints of [L] §5 (Table 2) in body-twist coordinates
 * w_b = (v_b, Omega_b), and the two ways to enforce them:
 *   null space (coordinate partitioning, as [L] Example C): nu = w_ind,
 *     w_dep = -J_d^{-1} J_i nu, so T = [I; -J_d^{-1} J_i] and J T = 0 to
 *     round-off; Tdot nu = [0; -J_d^{-1} gamma] ([L] eq. 11 with r = 0);
 *   multipliers: (J M^-1 J^T) lambda = J M^-1 h + gamma + 2 r gdot + omega^2 g,
 *     constraint forces -J^T lambda ([L] eq. 4, Baumgarte optional).
 * Primitives (a: side 0 body, b: side 1 body or ground; c = x + R rho the
 * joint points, s = R_a u, omega = R Omega):
 *   kind 0  g = s.(c_b - c_a)        (spherical, translations)
 *     J: v_a -s, Omega_a R_a^T (s x E), v_b s, Omega_b R_b^T (r_b x s),
 *        E = c_b - x_a, r_b = R_b rho_b;
 *   kind 1  g = (R_a u).(R_b w)       (relative rotations)
 *     J: Omega_a R_a^T (a x b), Omega_b -R_b^T (a x b).
 * gamma = Jdot w collects the velocity-quadratic terms of gddot.
 * A kinematic side b (a prescribed frame, body.h COSROD_MBS_KIN) makes g
 * rheonomic, g(q, t): its J_b columns give the explicit time derivative
 * g_t = J_b w_b (velocity constraint J w + g_t = 0) and J_b wdot_b, from the
 * frame's acceleration, joins gamma; the formulas above hold with the
 * frame's pose and twist as side b. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "body_internal.h"

static void matT_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  double b = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  double c = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

static void mat_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  double b = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  double c = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

/* Unit u1, u2 with (u1, u2, a) orthonormal. */
static void perp_pair(const double a[3], double u1[3], double u2[3]) {
  double e[3] = {0, 0, 0};
  int k = fabs(a[0]) < fabs(a[1]) ? (fabs(a[0]) < fabs(a[2]) ? 0 : 2) : (fabs(a[1]) < fabs(a[2]) ? 1 : 2);
  e[k] = 1.0;
  cosrod_vec3_cross(u1, a, e);
  cosrod_vec3_normalise(u1, u1);
  cosrod_vec3_cross(u2, a, u1);
}

static void push_row(cosrod_joint_row *rr, int *n, int kind, const double u[3], const double w[3]) {
  rr[*n].kind = kind;
  cosrod_vec3_copy(rr[*n].u, u);
  if (w)
    cosrod_vec3_copy(rr[*n].w, w);
  else
    cosrod_vec3_zero(rr[*n].w);
  ++*n;
}

int cosrod_joint_rows(cosrod_joint_type type, const double axis[3], const double axis2[3], const double Rba[9],
                      cosrod_joint_row rr[6]) {
  static const double E[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  double u1[3], u2[3], wa[3], w1[3];
  perp_pair(axis, u1, u2);
  mat_vec(wa, Rba, axis); /* side-b images of side-a vectors at t = 0 */
  mat_vec(w1, Rba, u1);
  const int prism = type == COSROD_JOINT_PRISMATIC, cyl = type == COSROD_JOINT_CYLINDRICAL;
  int n = 0;
  /* rotations: universal keeps axis ⟂ axis2; the others but spherical keep
   * the axis (u1, u2 ⟂ its image), prismatic and fixed also the turn about it */
  if (type == COSROD_JOINT_UNIVERSAL) {
    push_row(rr, &n, 1, axis, axis2);
  } else if (type != COSROD_JOINT_SPHERICAL) {
    push_row(rr, &n, 1, u1, wa);
    push_row(rr, &n, 1, u2, wa);
    if (prism || type == COSROD_JOINT_FIXED) push_row(rr, &n, 1, u2, w1);
  }
  /* translations: across the axis (prismatic, cylindrical), along the
   * normal (planar), all three (spherical, revolute, universal, fixed) */
  if (prism || cyl) {
    push_row(rr, &n, 0, u1, NULL);
    push_row(rr, &n, 0, u2, NULL);
  } else if (type == COSROD_JOINT_PLANAR) {
    push_row(rr, &n, 0, axis, NULL);
  } else {
    for (int i = 0; i < 3; ++i) push_row(rr, &n, 0, E[i], NULL);
  }
  return n;
}

/* Side data of a joint: position, rotation, lever, velocities (a kinematic
 * side also its accelerations a, al; zero otherwise). */
typedef struct side {
  int body;
  double x[3], R[9], r[3], c[3], v[3], om[3], a[3], al[3];
} side;

static void side_fill(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *y, int body,
                      const double at[3], side *s) {
  s->body = body;
  cosrod_vec3_zero(s->a);
  cosrod_vec3_zero(s->al);
  if (body <= -2) {
    const double *k = mbs_kin(d, body);
    memcpy(s->R, k + 13, 9 * sizeof(double));
    cosrod_vec3_copy(s->x, k);
    mat_vec(s->r, s->R, at);
    cosrod_vec3_add(s->c, s->x, s->r);
    cosrod_vec3_copy(s->v, k + 7);
    cosrod_vec3_copy(s->om, k + 10);
    cosrod_vec3_copy(s->a, k + 22);
    cosrod_vec3_copy(s->al, k + 25);
    return;
  }
  if (body < 0) {
    static const double Id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(s->R, Id, sizeof Id);
    cosrod_vec3_copy(s->x, at);
    cosrod_vec3_zero(s->r);
    cosrod_vec3_copy(s->c, at);
    cosrod_vec3_zero(s->v);
    cosrod_vec3_zero(s->om);
    return;
  }
  const mbs_body *b = &m->bodies[body];
  memcpy(s->R, d->R + 9 * body, 9 * sizeof(double));
  cosrod_vec3_copy(s->x, y + b->qoff);
  mat_vec(s->r, s->R, at);
  cosrod_vec3_add(s->c, s->x, s->r);
  cosrod_vec3_copy(s->v, d->w + 6 * body);
  mat_vec(s->om, s->R, d->w + 6 * body + 3);
}

/* g (nc), Jc (nc x nw) and, if with_gamma, gamma (nc) and gdot use d->w. */
void mbs_joint_rows(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, int with_gamma) {
  int nc = m->nc;
  if (nc == 0) return;
  memset(d->Jc, 0, (size_t)nc * (size_t)m->nw * sizeof(double));
  memset(d->gt, 0, (size_t)nc * sizeof(double));
  for (int i = 0; i < nc; ++i) {
    const mbs_row *row = &m->rows[i];
    const mbs_joint *jt = &m->joints[row->joint];
    side A, B;
    side_fill(m, d, y, jt->body[0], jt->at[0], &A);
    side_fill(m, d, y, jt->body[1], jt->at[1], &B);
    double *J = d->Jc;
    int ca = 6 * A.body, cb = 6 * B.body;
    double s[3], t[3], tmp[3];
    mat_vec(s, A.R, row->u);
    if (row->kind == 0) {
      double e[3], E[3];
      cosrod_vec3_sub(e, B.c, A.c);
      cosrod_vec3_sub(E, B.c, A.x);
      d->g[i] = cosrod_vec3_dot(s, e);
      for (int k = 0; k < 3; ++k) J[i + nc * (ca + k)] = -s[k];
      cosrod_vec3_cross(tmp, s, E);
      matT_vec(t, A.R, tmp);
      for (int k = 0; k < 3; ++k) J[i + nc * (ca + 3 + k)] = t[k];
      if (B.body >= 0) {
        for (int k = 0; k < 3; ++k) J[i + nc * (cb + k)] = s[k];
        cosrod_vec3_cross(tmp, B.r, s);
        matT_vec(t, B.R, tmp);
        for (int k = 0; k < 3; ++k) J[i + nc * (cb + 3 + k)] = t[k];
      }
      if (with_gamma) {
        double ws[3], Ed[3], a1[3], a2[3], dv[3], wr[3];
        cosrod_vec3_cross(ws, A.om, s);
        cosrod_vec3_cross(wr, B.om, B.r);
        cosrod_vec3_sub(dv, B.v, A.v);
        cosrod_vec3_add(Ed, dv, wr);
        cosrod_vec3_cross(a1, ws, E);
        cosrod_vec3_cross(a2, s, Ed);
        cosrod_vec3_add(a1, a1, a2);
        double gm = cosrod_vec3_dot(A.om, a1) + cosrod_vec3_dot(ws, dv);
        cosrod_vec3_cross(a1, wr, s);
        cosrod_vec3_cross(a2, B.r, ws);
        cosrod_vec3_add(a1, a1, a2);
        gm += cosrod_vec3_dot(B.om, a1);
        d->gam[i] = gm;
      }
      if (B.body <= -2) { /* g_t = s.(v_b + w_b x r_b); gamma += s.(a_b + al_b x r_b) */
        double u[3];
        cosrod_vec3_cross(u, B.om, B.r);
        cosrod_vec3_add(u, u, B.v);
        d->gt[i] = cosrod_vec3_dot(s, u);
        if (with_gamma) {
          cosrod_vec3_cross(u, B.al, B.r);
          cosrod_vec3_add(u, u, B.a);
          d->gam[i] += cosrod_vec3_dot(s, u);
        }
      }
    } else {
      double b[3], ab[3];
      mat_vec(b, B.R, row->w);
      d->g[i] = cosrod_vec3_dot(s, b);
      cosrod_vec3_cross(ab, s, b);
      matT_vec(t, A.R, ab);
      for (int k = 0; k < 3; ++k) J[i + nc * (ca + 3 + k)] = t[k];
      if (B.body >= 0) {
        matT_vec(t, B.R, ab);
        for (int k = 0; k < 3; ++k) J[i + nc * (cb + 3 + k)] = -t[k];
      }
      if (with_gamma) {
        double wa[3], wb[3], a1[3], a2[3], dw[3];
        cosrod_vec3_cross(wa, A.om, s);
        cosrod_vec3_cross(a1, wa, b);
        cosrod_vec3_cross(wb, B.om, b);
        cosrod_vec3_cross(a2, s, wb);
        cosrod_vec3_add(a1, a1, a2);
        cosrod_vec3_sub(dw, A.om, B.om);
        d->gam[i] = cosrod_vec3_dot(dw, a1);
      }
      if (B.body <= -2) { /* g_t = -(s x b).w_b; gamma -= (s x b).al_b */
        d->gt[i] = -cosrod_vec3_dot(ab, B.om);
        if (with_gamma) d->gam[i] -= cosrod_vec3_dot(ab, B.al);
      }
    }
  }
}

/* Coordinate partitioning of the twists (at t = 0 and when the projection
 * hook finds J_d ill-conditioned): Gaussian
 * elimination with complete pivoting on J chooses nc dependent components;
 * translational components are strongly preferred (threshold pivoting with
 * weight 1e3: a rotational pivot only if no translation is 1e-3 as large)
 * and later bodies win ties (as [L] Example C, where x_2 is
 * dependent).  A (nc x nw) and iw (nw + nc) are scratch (no allocation).
 * Returns 0, or -1 if J is rank deficient (redundant joints). */
int mbs_partition_select(int nc, int nw, const double *Jc, double *A, int *iw, int *dep, int *ind) {
  int *used = iw, *rdone = iw + nw;
  memset(iw, 0, (size_t)(nw + nc) * sizeof *iw);
  memcpy(A, Jc, (size_t)nc * (size_t)nw * sizeof *A);
  double scale = 0.0;
  for (int i = 0; i < nc * nw; ++i) scale = fmax(scale, fabs(A[i]));
  for (int k = 0; k < nc; ++k) {
    int bi = -1, bj = -1;
    double best = 0.0;
    for (int j = nw - 1; j >= 0; --j) {
      if (used[j]) continue;
      double wgt = (j % 6 < 3 ? 1e3 : 1.0) * (1.0 + 1e-6 * (double)(j / 6));
      for (int i = 0; i < nc; ++i) {
        if (rdone[i]) continue;
        double a = fabs(A[i + nc * j]) * wgt;
        if (a > best) best = a, bi = i, bj = j;
      }
    }
    if (bi < 0 || fabs(A[bi + nc * bj]) < 1e-10 * scale) return -1;
    dep[k] = bj;
    used[bj] = 1;
    rdone[bi] = 1;
    double piv = A[bi + nc * bj];
    for (int i = 0; i < nc; ++i) {
      if (rdone[i]) continue;
      double f = A[i + nc * bj] / piv;
      for (int j = 0; j < nw; ++j) A[i + nc * j] -= f * A[bi + nc * j];
    }
  }
  int q = 0;
  for (int j = 0; j < nw; ++j)
    if (!used[j]) ind[q++] = j;
  return 0;
}

/* Conditioning of J_d for the dependent set dep: min |U_ii| / max |U_ii| of
 * its LU factors (0 if singular).  Uses d->S and the current d->Jc. */
double mbs_partition_quality(const cosrod_mbs *m, cosrod_mbs_data *d, const int *dep) {
  int nc = m->nc;
  for (int i = 0; i < nc; ++i)
    for (int j = 0; j < nc; ++j) cosrod_dense_set(d->S, i, j, d->Jc[i + nc * dep[j]]);
  if (cosrod_dense_factor(d->S) != COSROD_OK) return 0.0;
  double umin = INFINITY, umax = 0.0;
  for (int i = 0; i < nc; ++i) {
    double u = fabs(cosrod_dense_get(d->S, i, i));
    umin = fmin(umin, u), umax = fmax(umax, u);
  }
  return umax > 0.0 ? umin / umax : 0.0;
}

/* T (nw x ndof) from the current Jc.  Returns 0 or -1 (J_d singular). */
static int nullspace_matrix(const cosrod_mbs *m, cosrod_mbs_data *d) {
  int nc = m->nc, nw = m->nw, nd = m->ndof;
  memset(d->T, 0, (size_t)nw * (size_t)nd * sizeof(double));
  const int *dep = d->cur_dep, *ind = d->cur_ind;
  for (int k = 0; k < nd; ++k) d->T[ind[k] + nw * k] = 1.0;
  if (nc == 0) return 0;
  for (int i = 0; i < nc; ++i)
    for (int j = 0; j < nc; ++j) cosrod_dense_set(d->S, i, j, d->Jc[i + nc * dep[j]]);
  double umax = 0.0;
  if (cosrod_dense_factor(d->S) != COSROD_OK) return -1;
  for (int i = 0; i < nc; ++i) umax = fmax(umax, fabs(cosrod_dense_get(d->S, i, i)));
  for (int i = 0; i < nc; ++i)
    if (fabs(cosrod_dense_get(d->S, i, i)) < 1e-12 * umax) return -1;
  double *X = d->tmp2; /* (nc x ndof) */
  for (int k = 0; k < nd; ++k)
    for (int i = 0; i < nc; ++i) X[i + nc * k] = d->Jc[i + nc * ind[k]];
  if (nd > 0) cosrod_dense_solve_multi(d->S, nd, X, nc);
  for (int k = 0; k < nd; ++k)
    for (int i = 0; i < nc; ++i) d->T[dep[i] + nw * k] = -X[i + nc * k];
  return 0;
}

/* Null-space twists: w = T nu (nu from y).  Requires d->R and Jc. */
int mbs_nullspace(const cosrod_mbs *m, cosrod_mbs_data *d) {
  if (nullspace_matrix(m, d)) return -1;
  return 0;
}

/* Multiplier solve: d->hc = -J^T lambda for the applied + gyroscopic forces
 * in d->tmp (nw) and the current w, g, gamma.  Returns 0 or -1. */
int mbs_solve_multipliers(const cosrod_mbs *m, cosrod_mbs_data *d) {
  int nc = m->nc, nw = m->nw;
  memset(d->hc, 0, (size_t)nw * sizeof(double));
  if (nc == 0) return 0;
  const double *htot = d->tmp;
  double *minv = d->tmp2; /* (nw) */
  for (size_t b = 0; b < m->nb; ++b)
    for (int k = 0; k < 3; ++k) {
      minv[6 * b + k] = 1.0 / m->bodies[b].mass;
      minv[6 * b + 3 + k] = 1.0 / m->bodies[b].inertia[k];
    }
  double *rhs = d->lam;
  for (int i = 0; i < nc; ++i) {
    double s = d->gam[i], gd = d->gt[i];
    for (int j = 0; j < nw; ++j) {
      double Jij = d->Jc[i + nc * j];
      s += Jij * minv[j] * htot[j];
      gd += Jij * d->w[j];
    }
    rhs[i] = s + 2.0 * m->bg_r * gd + m->bg_omega * m->bg_omega * d->g[i];
    for (int k = 0; k <= i; ++k) {
      double a = 0.0;
      for (int j = 0; j < nw; ++j) a += d->Jc[i + nc * j] * minv[j] * d->Jc[k + nc * j];
      cosrod_dense_set(d->S, i, k, a);
      cosrod_dense_set(d->S, k, i, a);
    }
  }
  if (cosrod_dense_factor(d->S) != COSROD_OK) return -1;
  cosrod_dense_solve(d->S, rhs);
  for (int j = 0; j < nw; ++j) {
    double s = 0.0;
    for (int i = 0; i < nc; ++i) s += d->Jc[i + nc * j] * rhs[i];
    d->hc[j] = -s;
  }
  return 0;
}
