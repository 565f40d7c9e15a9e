// SPDX-License-Identifier: Apache-2.0
/* Per-body rotation parametrisations of [L]: rotation matrix, kinematic
 * equations, index-0 accelerations of the absolute formulations and the
 * projections of §6.
 *   quaternion: R = R(p) (eq. 26), pdot = 1/2 p Omega (eq. 42), absolute
 *     pddot = mu#(p) psi^p - |pdot|^2 p (eq. 40), projection eq. 63;
 *   directors: R = (d^1|d^2|d^3), Rdot = R E(Omega) (eq. 25; rows d_m satisfy
 *     d_m' = d_m x Omega so the row constraints (19) are exact on velocity
 *     level), absolute by the 15x15 mass-constraint LU (eq. 23), projection by
 *     Spurrier-Klumpp (§6 (P), (V));
 *   euler313: thdot = T_th(th) Omega (eqs. 65, 66), singular at sin th2 = 0. */
#include <math.h>
#include <string.h>

#include "body_internal.h"

/* Gimbal-lock threshold on |sin th2|. */
#define EULER_SING COSROD_BODY_GIMBAL_TOL

void mbs_rotation(const mbs_body *b, const double *r, double R[9]) {
  switch (b->param) {
    case COSROD_BODY_QUATERNION:
      cosrod_quat_to_matrix(R, r);
      break;
    case COSROD_BODY_DIRECTORS:
      memcpy(R, r, 9 * sizeof *R);
      break;
    default: {
      double p[4];
      cosrod_quat_from_euler313(p, r);
      cosrod_quat_to_matrix(R, p);
      break;
    }
  }
}

/* Unit quaternion of the internal frame. */
void mbs_quat_of(const mbs_body *b, const double *r, double q[4]) {
  switch (b->param) {
    case COSROD_BODY_QUATERNION:
      cosrod_quat_normalise(q, r);
      break;
    case COSROD_BODY_DIRECTORS:
      cosrod_quat_from_matrix(q, r);
      cosrod_quat_normalise(q, q);
      break;
    default:
      cosrod_quat_from_euler313(q, r);
      break;
  }
}

/* Euler 3-1-3 rates: thdot = T_th(th) Omega ([L] eq. 66).  -1 at gimbal lock. */
static int euler_rates(const double th[3], const double Om[3], double thd[3]) {
  double s2 = sin(th[1]), c2 = cos(th[1]), s3 = sin(th[2]), c3 = cos(th[2]);
  if (fabs(s2) < EULER_SING) return -1;
  double a = (s3 * Om[0] + c3 * Om[1]) / s2;
  thd[0] = a;
  thd[1] = c3 * Om[0] - s3 * Om[1];
  thd[2] = -c2 * a + Om[2];
  return 0;
}

/* rdot from Omega (null-space kinematics). */
int mbs_rate_from_omega(const mbs_body *b, const double *r, const double Om[3], double *rdot) {
  switch (b->param) {
    case COSROD_BODY_QUATERNION:
      cosrod_quat_pdot(rdot, r, Om);
      return 0;
    case COSROD_BODY_DIRECTORS: {
      const double *d1 = r, *d2 = r + 3, *d3 = r + 6;
      for (int i = 0; i < 3; ++i) {
        rdot[i] = Om[2] * d2[i] - Om[1] * d3[i];
        rdot[3 + i] = -Om[2] * d1[i] + Om[0] * d3[i];
        rdot[6 + i] = Om[1] * d1[i] - Om[0] * d2[i];
      }
      return 0;
    }
    default:
      return euler_rates(r, Om, rdot);
  }
}

/* Omega from (r, rdot) for the absolute formulations: quaternion
 * Omega = 2 Im(conj(p) pdot)/|p|^2, directors the axial vector of the skew
 * part of R^T Rdot ([L] eq. 15), Euler angles by eq. 65. */
int mbs_omega_from_rate(const mbs_body *b, const double *r, const double *rdot, double Om[3]) {
  switch (b->param) {
    case COSROD_BODY_QUATERNION: {
      double n2 = cosrod_quat_norm2(r);
      cosrod_quat_omega(Om, r, rdot);
      cosrod_vec3_scale(Om, 1.0 / n2, Om);
      return 0;
    }
    case COSROD_BODY_DIRECTORS: {
      const double *d1 = r, *d2 = r + 3, *d3 = r + 6;
      const double *e1 = rdot, *e2 = rdot + 3, *e3 = rdot + 6;
      Om[0] = 0.5 * (cosrod_vec3_dot(d3, e2) - cosrod_vec3_dot(d2, e3));
      Om[1] = 0.5 * (cosrod_vec3_dot(d1, e3) - cosrod_vec3_dot(d3, e1));
      Om[2] = 0.5 * (cosrod_vec3_dot(d2, e1) - cosrod_vec3_dot(d1, e2));
      return 0;
    }
    default: {
      double B[9];
      cosrod_quat_euler313_rates(B, r);
      for (int i = 0; i < 3; ++i) Om[i] = B[i] * rdot[0] + B[i + 3] * rdot[1] + B[i + 6] * rdot[2];
      return 0;
    }
  }
}

/* Index-0 acceleration of the absolute formulations for the material torque
 * mu (applied + constraint, without gyroscopic terms, which the formulations
 * generate themselves).
 * quaternion ([L] eq. 40): psi^p = 2 p mu / |p|^2 (so T_p^T psi^p = mu) plus
 *   the mass skew term 8 Q(pdot) I Q(pdot)^T p (eq. 33).
 * directors ([L] eq. 23): psi^d = 1/2 vec(R E(mu)) (T_d^T psi^d = mu on
 *   SO(3)), [M_d G^T; G 0] [dddot; lambda] = [psi^d; -g^II], constraints on
 *   the rows d_m of R (eq. 19). */
int mbs_abs_accel(const mbs_body *b, const double *r, const double *rdot, const double mu[3], double *rddot,
                  cosrod_dense *D15) {
  if (b->param == COSROD_BODY_QUATERNION) {
    double n2 = cosrod_quat_norm2(r), psi[4], gy[4], a[4];
    cosrod_quat_mul_pure(psi, r, mu);
    for (int k = 0; k < 4; ++k) psi[k] *= 2.0 / n2;
    cosrod_quat_mass_gyro(gy, r, rdot, b->inertia);
    for (int k = 0; k < 4; ++k) psi[k] += gy[k];
    cosrod_quat_mass_sharp_apply(a, r, b->inertia, psi);
    double v2 = cosrod_quat_norm2(rdot);
    for (int k = 0; k < 4; ++k) rddot[k] = a[k] - v2 * r[k];
    return 0;
  }
  /* directors */
  cosrod_dense_zero(D15);
  double rhs[15];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i) cosrod_dense_set(D15, 3 * k + i, 3 * k + i, b->euler[k]);
  /* rows d_m = (R[m], R[m+3], R[m+6]); constraint c: pairs (m, n) */
  static const int pm[6] = {0, 1, 2, 0, 2, 1}, pn[6] = {0, 1, 2, 1, 0, 2};
  for (int c = 0; c < 6; ++c) {
    int mm = pm[c], nn = pn[c];
    double gii = 0.0;
    for (int k = 0; k < 3; ++k) {
      if (mm == nn) {
        cosrod_dense_set(D15, 9 + c, mm + 3 * k, r[mm + 3 * k]);
        cosrod_dense_set(D15, mm + 3 * k, 9 + c, r[mm + 3 * k]);
        gii += rdot[mm + 3 * k] * rdot[mm + 3 * k];
      } else {
        cosrod_dense_set(D15, 9 + c, mm + 3 * k, r[nn + 3 * k]);
        cosrod_dense_set(D15, 9 + c, nn + 3 * k, r[mm + 3 * k]);
        cosrod_dense_set(D15, mm + 3 * k, 9 + c, r[nn + 3 * k]);
        cosrod_dense_set(D15, nn + 3 * k, 9 + c, r[mm + 3 * k]);
        gii += 2.0 * rdot[mm + 3 * k] * rdot[nn + 3 * k];
      }
    }
    rhs[9 + c] = -gii;
  }
  /* psi^d = 1/2 vec(R E(mu)): column k of R E(mu) = R (mu x e_k) */
  const double *d1 = r, *d2 = r + 3, *d3 = r + 6;
  for (int i = 0; i < 3; ++i) {
    rhs[i] = 0.5 * (mu[2] * d2[i] - mu[1] * d3[i]);
    rhs[3 + i] = 0.5 * (-mu[2] * d1[i] + mu[0] * d3[i]);
    rhs[6 + i] = 0.5 * (mu[1] * d1[i] - mu[0] * d2[i]);
  }
  if (cosrod_dense_factor(D15) != COSROD_OK) return -1;
  cosrod_dense_solve(D15, rhs);
  memcpy(rddot, rhs, 9 * sizeof *rddot);
  return 0;
}

/* Projection of one body's rotation coordinates (and rates, if rdot) onto
 * the internal constraints ([L] §6). */
void mbs_project_body(const mbs_body *b, double *r, double *rdot) {
  if (b->param == COSROD_BODY_QUATERNION) {
    cosrod_quat_project(r, rdot); /* eq. 63 */
  } else if (b->param == COSROD_BODY_DIRECTORS) {
    double p[4], D[36], P[36], pd[4];
    cosrod_quat_from_matrix(p, r); /* (P)(a) Spurrier-Klumpp */
    cosrod_quat_normalise(p, p);   /* (P)(b) */
    cosrod_quat_to_matrix(r, p);   /* (P)(c) */
    if (rdot) {
      cosrod_quat_dphi_pinv(P, p); /* (V)(a) pdot* = Dphi^# ddot* */
      for (int i = 0; i < 4; ++i) {
        pd[i] = 0.0;
        for (int j = 0; j < 9; ++j) pd[i] += P[i + 4 * j] * rdot[j];
      }
      double c = cosrod_quat_dot(p, pd); /* (V)(b) */
      for (int i = 0; i < 4; ++i) pd[i] -= c * p[i];
      cosrod_quat_dphi(D, p); /* (V)(c) ddot = Dphi pdot */
      for (int i = 0; i < 9; ++i) {
        rdot[i] = 0.0;
        for (int j = 0; j < 4; ++j) rdot[i] += D[i + 9 * j] * pd[j];
      }
    }
  }
}

/* r <- r composed with the material rotation increment dth (R <- R exp(E(dth))). */
void mbs_rotate_body(const mbs_body *b, double *r, const double dth[3]) {
  double e[4];
  cosrod_quat_from_rotvec(e, dth);
  if (b->param == COSROD_BODY_QUATERNION) {
    double n = cosrod_quat_norm(r);
    cosrod_quat_mul(r, r, e);
    for (int k = 0; k < 4; ++k) r[k] *= 1.0 / cosrod_quat_norm(r) * n;
  } else if (b->param == COSROD_BODY_DIRECTORS) {
    double p[4];
    cosrod_quat_from_matrix(p, r);
    cosrod_quat_normalise(p, p);
    cosrod_quat_mul(p, p, e);
    cosrod_quat_to_matrix(r, p);
  } else {
    double p[4];
    cosrod_quat_from_euler313(p, r);
    cosrod_quat_mul(p, p, e);
    double th[3];
    cosrod_quat_to_euler313(th, p);
    if (sin(r[1]) < 0.0) { /* the branch with sin th2 < 0: (th1 + pi, -th2, th3 + pi) */
      th[0] += COSROD_QUAT_PI;
      th[1] = -th[1];
      th[2] += COSROD_QUAT_PI;
    }
    /* keep the angles continuous: shift by multiples of 2 pi */
    for (int k = 0; k < 3; ++k) {
      double dd = th[k] - r[k];
      th[k] -= 2.0 * COSROD_QUAT_PI * floor(dd / (2.0 * COSROD_QUAT_PI) + 0.5);
    }
    memcpy(r, th, 3 * sizeof *r);
  }
}
