// SPDX-License-Identifier: Apache-2.0
/* Analytic Jacobian of the multibody right-hand side for bodies in the
 * null-space formulation without joints (cosrod_mbs_jac); its twin
 * cosrod_mbs_jac_fd (body_eval.c) differentiates numerically.
 * Per body, with the state (x, r, v, Omega):
 *   xdot = v;  rdot = T_r(r) Omega  ([L] eq. 42: 1/2 p Omega; eq. 25:
 *   Rdot = R E(Omega); eq. 66: T_th(th) Omega);
 *   vdot = F/m;  Omegadot = J^-1 (mu - Omega x J Omega),
 * where every force f applied at the lever R rho gives mu = R^T((R rho) x f)
 * and every spatial moment M gives mu = R^T M, differentiated exactly as
 * coded (also off the constraint manifold, e.g. for |p| != 1):
 *   d mu = dR^T[t] + R^T (-E(f) dR[rho] + E(R rho) df),  t = (R rho) x f.
 * dR[a] = d(R a)/dr and dR^T[b] = d(R^T b)/dr come from cosrod/quat.h for
 * quaternions, are linear for directors, and go through p(th) =
 * qz(th1) qx(th2) qz(th3) for Euler angles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "body_internal.h"

/* d p / d th (4 x 3, column-major) of p = qz(th1) qx(th2) qz(th3) */
void mbs_dp_dth(double P[12], const double th[3]) {
  double a = 0.5 * th[0], b = 0.5 * th[1], c = 0.5 * th[2];
  double z1[4] = {cos(a), 0, 0, sin(a)}, x2[4] = {cos(b), sin(b), 0, 0}, z3[4] = {cos(c), 0, 0, sin(c)};
  double dz1[4] = {-0.5 * sin(a), 0, 0, 0.5 * cos(a)}, dx2[4] = {-0.5 * sin(b), 0.5 * cos(b), 0, 0};
  double dz3[4] = {-0.5 * sin(c), 0, 0, 0.5 * cos(c)}, t[4];
  cosrod_quat_mul(t, dz1, x2);
  cosrod_quat_mul(P, t, z3);
  cosrod_quat_mul(t, z1, dx2);
  cosrod_quat_mul(P + 4, t, z3);
  cosrod_quat_mul(t, z1, x2);
  cosrod_quat_mul(P + 8, t, dz3);
}

/* D (3 x nr) = d(R a)/dr (transpose = 0) or d(R^T a)/dr (transpose = 1). */
void mbs_dR_apply(const mbs_body *b, const double *r, const double a[3], int transpose, double *D) {
  if (b->param == COSROD_BODY_DIRECTORS) {
    memset(D, 0, 27 * sizeof *D);
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 3; ++i) {
        if (transpose)
          D[k + 3 * (3 * k + i)] = a[i]; /* (R^T a)_k = d_k . a */
        else
          D[i + 3 * (3 * k + i)] = a[k]; /* R a = sum_k a_k d_k */
      }
    return;
  }
  double p[4], J[12];
  if (b->param == COSROD_BODY_QUATERNION)
    memcpy(p, r, sizeof p);
  else
    cosrod_quat_from_euler313(p, r);
  if (transpose)
    cosrod_quat_dRTv_dp(J, p, a);
  else
    cosrod_quat_dRv_dp(J, p, a);
  if (b->param == COSROD_BODY_QUATERNION) {
    memcpy(D, J, 12 * sizeof *D);
    return;
  }
  double P[12];
  mbs_dp_dth(P, r);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 4; ++k) s += J[i + 3 * k] * P[k + 4 * j];
      D[i + 3 * j] = s;
    }
}

static void mat_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  double b = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  double c = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

/* column of twist component k of body i in y */
static int vcol(const cosrod_mbs *m, size_t i, int k) {
  return m->joint_form == COSROD_JOINTS_NULLSPACE ? m->nq + 6 * (int)i + k : m->bodies[i].voff + k;
}

/* Jacobian helper: a force on body i at lever rho (internal frame) with value
 * f (3) and derivative df (3 x n, column-major ld 3), plus a spatial moment
 * mo (3, constant in y).  Adds d(F/m)/dy and J^-1 d mu/dy to J. */
static void add_force(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, double *J, size_t i,
                      const double rho[3], const double f[3], const double *df, const double mo[3]) {
  const mbs_body *b = &m->bodies[i];
  int n = m->n, nr = b->nr, rc = b->qoff + 3;
  const double *r = y + rc, *R = d->R + 9 * i;
  double rr[3], t[3], Dt[27], Dr[27];
  mat_vec(rr, R, rho);
  cosrod_vec3_cross(t, rr, f);
  cosrod_vec3_add(t, t, mo);
  mbs_dR_apply(b, r, t, 1, Dt);
  mbs_dR_apply(b, r, rho, 0, Dr);
  double Ef[9], Er[9];
  cosrod_vec3_skew(Ef, f);
  cosrod_vec3_skew(Er, rr);
  for (int j = 0; j < n; ++j) {
    const double *dfj = df ? df + 3 * j : NULL;
    double g[3] = {0, 0, 0}; /* -E(f) dR[rho] + E(R rho) df, column j */
    if (dfj)
      for (int a = 0; a < 3; ++a) g[a] = Er[a] * dfj[0] + Er[a + 3] * dfj[1] + Er[a + 6] * dfj[2];
    int inr = j >= rc && j < rc + nr;
    if (inr)
      for (int a = 0; a < 3; ++a) {
        const double *Dc = Dr + 3 * (j - rc);
        g[a] -= Ef[a] * Dc[0] + Ef[a + 3] * Dc[1] + Ef[a + 6] * Dc[2];
      }
    double dmu[3];
    for (int a = 0; a < 3; ++a) dmu[a] = R[3 * a] * g[0] + R[3 * a + 1] * g[1] + R[3 * a + 2] * g[2];
    if (inr)
      for (int a = 0; a < 3; ++a) dmu[a] += Dt[a + 3 * (j - rc)];
    for (int a = 0; a < 3; ++a) {
      if (dfj) J[vcol(m, i, a) + (size_t)n * (size_t)j] += dfj[a] / b->mass;
      J[vcol(m, i, 3 + a) + (size_t)n * (size_t)j] += dmu[a] / b->inertia[a];
    }
  }
}

/* cd = v + (R Omega) x (R rho) of side s of bushing bu: add sgn * scale *
 * d c / dy (dc) and sgn * scale2 * d cd / dy into df (3 x n). */
static void bushing_point_jac(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, int body,
                              const double rho[3], double kx, double kv, double *df) {
  if (body < 0) return;
  const mbs_body *b = &m->bodies[body];
  int n = m->n, rc = b->qoff + 3, nr = b->nr;
  const double *R = d->R + 9 * body, *Om = d->w + 6 * body + 3;
  double rr[3], om[3], Dr[27], Do[27], Er[9], Eo[9];
  mat_vec(rr, R, rho);
  mat_vec(om, R, Om);
  mbs_dR_apply(b, y + rc, rho, 0, Dr);
  mbs_dR_apply(b, y + rc, Om, 0, Do);
  cosrod_vec3_skew(Er, rr);
  cosrod_vec3_skew(Eo, om);
  (void)n;
  for (int a = 0; a < 3; ++a) {
    df[a + 3 * (b->qoff + a)] += kx;            /* d c / d x */
    df[a + 3 * vcol(m, (size_t)body, a)] += kv; /* d cd / d v */
  }
  for (int j = 0; j < nr; ++j) /* d c / dr = dR[rho]; d cd / dr = -E(r) dR[Omega] + E(om) dR[rho] */
    for (int a = 0; a < 3; ++a) {
      double s = kx * Dr[a + 3 * j], u = 0.0;
      for (int c = 0; c < 3; ++c) u += -Er[a + 3 * c] * Do[c + 3 * j] + Eo[a + 3 * c] * Dr[c + 3 * j];
      df[a + 3 * (rc + j)] += s + kv * u;
    }
  for (int k = 0; k < 3; ++k) { /* d cd / d Omega = -E(r) R */
    int col = vcol(m, (size_t)body, 3 + k);
    for (int a = 0; a < 3; ++a) {
      double u = 0.0;
      for (int c = 0; c < 3; ++c) u += -Er[a + 3 * c] * R[c + 3 * k];
      df[a + 3 * col] += kv * u;
    }
  }
}

/* Body i's rows of the kinematic equations (x' = v, the attitude's
 * derivative) and the gyroscopic term of its Euler equation. */
static void body_rows(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *y, double *J, size_t i) {
  const int n = m->n;
  const mbs_body *b = &m->bodies[i];
  int rc = b->qoff + 3;
  const double *r = y + rc, *Om = d->w + 6 * i + 3;
  for (int a = 0; a < 3; ++a) J[(b->qoff + a) + (size_t)n * (size_t)vcol(m, i, a)] = 1.0;
  /* kinematic equations */
  if (b->param == COSROD_BODY_QUATERNION) {
    static const double E4[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    static const double E3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double c[4];
    for (int j = 0; j < 4; ++j) {
      cosrod_quat_mul_pure(c, E4[j], Om);
      for (int a = 0; a < 4; ++a) J[(rc + a) + (size_t)n * (size_t)(rc + j)] = 0.5 * c[a];
    }
    for (int k = 0; k < 3; ++k) {
      cosrod_quat_mul_pure(c, r, E3[k]);
      for (int a = 0; a < 4; ++a) J[(rc + a) + (size_t)n * (size_t)vcol(m, i, 3 + k)] = 0.5 * c[a];
    }
  } else if (b->param == COSROD_BODY_DIRECTORS) {
    /* d1' = O3 d2 - O2 d3, d2' = -O3 d1 + O1 d3, d3' = O2 d1 - O1 d2 */
    static const int sg[3][3] = {
        {0, 3, -2}, {-3, 0, 1}, {2, -1, 0}}; /* sg[k][l]: coefficient index of d_l in d_k' */
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l) {
        if (!sg[k][l]) continue;
        int om = abs(sg[k][l]) - 1;
        double s = sg[k][l] > 0 ? 1.0 : -1.0;
        for (int a = 0; a < 3; ++a) {
          J[(rc + 3 * k + a) + (size_t)n * (size_t)(rc + 3 * l + a)] = s * Om[om];
          J[(rc + 3 * k + a) + (size_t)n * (size_t)vcol(m, i, 3 + om)] += s * r[3 * l + a];
        }
      }
  } else {
    double s2 = sin(r[1]), c2 = cos(r[1]), s3 = sin(r[2]), c3 = cos(r[2]);
    double A = (s3 * Om[0] + c3 * Om[1]) / s2;
    double dA2 = -A * c2 / s2, dA3 = (c3 * Om[0] - s3 * Om[1]) / s2;
    size_t N = (size_t)n;
    J[rc + N * (rc + 1)] = dA2;
    J[rc + N * (rc + 2)] = dA3;
    J[rc + N * vcol(m, i, 3)] = s3 / s2;
    J[rc + N * vcol(m, i, 4)] = c3 / s2;
    J[(rc + 1) + N * (rc + 2)] = -s3 * Om[0] - c3 * Om[1];
    J[(rc + 1) + N * vcol(m, i, 3)] = c3;
    J[(rc + 1) + N * vcol(m, i, 4)] = -s3;
    J[(rc + 2) + N * (rc + 1)] = s2 * A - c2 * dA2;
    J[(rc + 2) + N * (rc + 2)] = -c2 * dA3;
    J[(rc + 2) + N * vcol(m, i, 3)] = -c2 * s3 / s2;
    J[(rc + 2) + N * vcol(m, i, 4)] = -c2 * c3 / s2;
    J[(rc + 2) + N * vcol(m, i, 5)] = 1.0;
  }
  /* gyroscopic term: d(-Omega x J Omega)/dOmega = E(J Omega) - E(Omega) J */
  double JO[3] = {b->inertia[0] * Om[0], b->inertia[1] * Om[1], b->inertia[2] * Om[2]}, EJ[9], EO[9];
  cosrod_vec3_skew(EJ, JO);
  cosrod_vec3_skew(EO, Om);
  for (int a = 0; a < 3; ++a)
    for (int k = 0; k < 3; ++k)
      J[vcol(m, i, 3 + a) + (size_t)n * (size_t)vcol(m, i, 3 + k)] +=
          (EJ[a + 3 * k] - EO[a + 3 * k] * b->inertia[k]) / b->inertia[a];
}

/* Applied loads (the constant body-frame moment has no derivative) and the
 * caller wrenches (cosrod_mbs_set_wrench): a constant spatial torque, whose
 * body components R^T tau move with R. */
static void load_rows(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J) {
  double *df = d->dfj;
  static const double zero3[3] = {0, 0, 0};
  for (size_t li = 0; li < m->nl; ++li) {
    const mbs_load *l = &m->loads[li];
    size_t i = (size_t)l->body;
    const mbs_body *b = &m->bodies[i];
    const double *R = d->R + 9 * i;
    double s = mbs_profile(l->profile, l->t0, l->t1, t), v[3], f[3];
    cosrod_vec3_scale(v, s, l->value);
    if (l->kind == COSROD_BODY_LOAD_MOMENT) {
      if (l->frame == COSROD_BODY_LOAD_BODY) continue; /* mu = v: constant */
      add_force(m, d, y, J, i, zero3, zero3, NULL, v);
      continue;
    }
    memset(df, 0, 3 * (size_t)m->n * sizeof *df);
    if (l->frame == COSROD_BODY_LOAD_BODY) {
      double D[27];
      mat_vec(f, R, v);
      mbs_dR_apply(b, y + b->qoff + 3, v, 0, D);
      for (int j = 0; j < b->nr; ++j)
        for (int a = 0; a < 3; ++a) df[a + 3 * (b->qoff + 3 + j)] = D[a + 3 * j];
    } else {
      cosrod_vec3_copy(f, v);
    }
    add_force(m, d, y, J, i, l->at, f, df, zero3);
  }
  for (size_t i = 0; i < m->nb; ++i)
    if (d->hext[6 * i + 3] != 0.0 || d->hext[6 * i + 4] != 0.0 || d->hext[6 * i + 5] != 0.0)
      add_force(m, d, y, J, i, zero3, zero3, NULL, d->hext + 6 * i + 3);
}

/* Translational bushings: f = -k (c_a - c_b) - c (cd_a - cd_b) on a, -f on b. */
static void bushing_rows(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, double *J) {
  static const double zero3[3] = {0, 0, 0};
  double *df = d->dfj;
  for (size_t bi = 0; bi < m->nbu; ++bi) {
    const mbs_bushing *bu = &m->bushings[bi];
    memset(df, 0, 3 * (size_t)m->n * sizeof *df);
    bushing_point_jac(m, d, y, bu->body[0], bu->at[0], -bu->k, -bu->c, df);
    bushing_point_jac(m, d, y, bu->body[1], bu->at[1], bu->k, bu->c, df);
    double f[3] = {0, 0, 0};
    { /* value of f as in body_eval.c */
      double ca[3] = {0, 0, 0}, cb[3], va[3] = {0, 0, 0}, vb[3] = {0, 0, 0}, r[3], om[3], tt[3];
      for (int s = 0; s < 2; ++s) {
        int body = bu->body[s];
        double *c = s ? cb : ca, *cv = s ? vb : va;
        if (body < 0) {
          cosrod_vec3_copy(c, bu->at[s]);
          cosrod_vec3_zero(cv);
          continue;
        }
        const double *R = d->R + 9 * body;
        mat_vec(r, R, bu->at[s]);
        cosrod_vec3_add(c, y + m->bodies[body].qoff, r);
        mat_vec(om, R, d->w + 6 * body + 3);
        cosrod_vec3_cross(tt, om, r);
        cosrod_vec3_add(cv, d->w + 6 * body, tt);
      }
      for (int a = 0; a < 3; ++a) f[a] = -bu->k * (ca[a] - cb[a]) - bu->c * (va[a] - vb[a]);
    }
    add_force(m, d, y, J, (size_t)bu->body[0], bu->at[0], f, df, zero3);
    if (bu->body[1] >= 0) {
      double mf[3] = {-f[0], -f[1], -f[2]};
      for (int j = 0; j < 3 * m->n; ++j) df[j] = -df[j];
      add_force(m, d, y, J, (size_t)bu->body[1], bu->at[1], mf, df, zero3);
    }
  }
}

int cosrod_mbs_jac(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J) {
  /* joints, absolute bodies, rotational bushings: by tangents (body_tangent.c) */
  if (m->nc > 0) return mbs_jac_tangent(m, d, t, y, J);
  for (size_t i = 0; i < m->nb; ++i)
    if (m->bodies[i].absolute) return mbs_jac_tangent(m, d, t, y, J);
  for (size_t i = 0; i < m->nbu; ++i)
    if (m->bushings[i].k_rot != 0.0 || m->bushings[i].c_rot != 0.0) return mbs_jac_tangent(m, d, t, y, J);
  int n = m->n;
  memset(J, 0, (size_t)n * (size_t)n * sizeof *J);
  if (mbs_kinematics(m, d, t, y)) return -1;
  for (size_t i = 0; i < m->nb; ++i) body_rows(m, d, y, J, i);
  load_rows(m, d, t, y, J);
  bushing_rows(m, d, y, J);
  return 0;
}
