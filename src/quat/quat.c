// SPDX-License-Identifier: Apache-2.0
/* Quaternion matrices, Euler-map derivatives, conversions and slerp.
 *
 * - Q(p), T(p): [L] eqs. 30, 41 (T = last three columns of Q, times 1/2).
 * - mu(p) = 4 Q I Q^T, mu#(p) = Q I# Q^T / (4|p|^4): [LLA] eq. 13, [L] eqs. 31, 39.
 *   Both are assembled as sums of rank-one terms over the columns of Q(p).
 * - D phi(p) ([L] eq. 48) column by column from the derivative of R(p) v,
 *   R(p) v = (p0^2 - |p^|^2) v + 2 <p^, v> p^ + 2 p0 p^ x v  ([LLA] eq. 1);
 *   closed-form pseudo-inverse from [L] Lemma 5.1 / eq. 55.
 * - Spurrier–Klumpp as summarised in [L] §6.  The extracted text of [L] shows
 *   differences in the off-pivot formulas where sums are needed (e.g. for the
 *   pivot p1: p2 = (R21 + R12)/(4 p1)); the signs below are derived from
 *   [L] eqs. 27–28 and are verified by the tests.
 * - slerp as in [LLA] Test 2, written with sin(x th)/sin(th) = x sinc(x th)/sinc(th)
 *   and th = 2 atan2(|q1 - q0|, |q1 + q0|), so it stays accurate as th -> 0.
 * - 3-1-3 Euler angles as in [L] §7 (eq. 65). */
#include <math.h>
#include <stdio.h>

#include "cosrod/quat.h"

static const double E4[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};

void cosrod_quat_qmat(double Q[16], const double p[4]) {
  for (int j = 0; j < 4; ++j) cosrod_quat_mul(Q + 4 * j, p, E4[j]);
}

void cosrod_quat_qmat_right(double Qr[16], const double q[4]) {
  for (int j = 0; j < 4; ++j) cosrod_quat_mul(Qr + 4 * j, E4[j], q);
}

void cosrod_quat_tmat(double T[12], const double p[4]) {
  for (int k = 0; k < 3; ++k) {
    double c[4];
    cosrod_quat_mul(c, p, E4[k + 1]);
    for (int i = 0; i < 4; ++i) T[i + 4 * k] = 0.5 * c[i];
  }
}

/* M = sum_k w_k c_k c_k^T with c_k = p e_k (columns 1..3 of Q(p)). */
static void rank3_sum(double M[16], const double p[4], const double w[3]) {
  double c[3][4];
  for (int k = 0; k < 3; ++k) cosrod_quat_mul(c[k], p, E4[k + 1]);
  for (int j = 0; j < 4; ++j) {
    for (int i = j; i < 4; ++i) {
      double s = w[0] * c[0][i] * c[0][j] + w[1] * c[1][i] * c[1][j] + w[2] * c[2][i] * c[2][j];
      M[i + 4 * j] = s;
      M[j + 4 * i] = s;
    }
  }
}

void cosrod_quat_mass(double mu[16], const double p[4], const double inertia[3]) {
  double w[3] = {4.0 * inertia[0], 4.0 * inertia[1], 4.0 * inertia[2]};
  rank3_sum(mu, p, w);
}

cosrod_status cosrod_quat_mass_sharp(double mus[16], const double p[4], const double inertia[3]) {
  double n2 = cosrod_quat_norm2(p);
  if (!(n2 > 0.0) || !(inertia[0] > 0.0) || !(inertia[1] > 0.0) || !(inertia[2] > 0.0))
    return COSROD_ERR_SINGULAR;
  double s = 0.25 / (n2 * n2);
  double w[3] = {s / inertia[0], s / inertia[1], s / inertia[2]};
  rank3_sum(mus, p, w);
  return COSROD_OK;
}

void cosrod_quat_mass_gyro(double r[4], const double p[4], const double pdot[4], const double inertia[3]) {
  double t[4], w[3];
  cosrod_quat_conj_mul(t, pdot, p);
  cosrod_vec3_set(w, 8.0 * inertia[0] * t[1], 8.0 * inertia[1] * t[2], 8.0 * inertia[2] * t[3]);
  cosrod_quat_mul_pure(r, pdot, w);
}

/* Columns of d(R(p) v)/dp (sgn = +1) or d(R(p)^T v)/dp (sgn = -1). */
static void drot_dp(double J[12], const double p[4], const double v[3], double sgn) {
  const double *u = p + 1;
  double c[3];
  cosrod_vec3_cross(c, u, v);
  for (int i = 0; i < 3; ++i) J[i] = 2.0 * (p[0] * v[i] + sgn * c[i]);
  double uv = cosrod_vec3_dot(u, v);
  for (int k = 0; k < 3; ++k) {
    double *Jk = J + 3 * (k + 1);
    double ek[3] = {0.0, 0.0, 0.0}, exv[3];
    ek[k] = 1.0;
    cosrod_vec3_cross(exv, ek, v);
    for (int i = 0; i < 3; ++i) Jk[i] = 2.0 * (-u[k] * v[i] + v[k] * u[i] + sgn * p[0] * exv[i]);
    Jk[k] += 2.0 * uv;
  }
}

void cosrod_quat_dRv_dp(double J[12], const double p[4], const double v[3]) { drot_dp(J, p, v, 1.0); }

void cosrod_quat_dRTv_dp(double J[12], const double p[4], const double v[3]) { drot_dp(J, p, v, -1.0); }

void cosrod_quat_aRb_hess(double H[16], const double a[3], const double b[3]) {
  double ab = cosrod_vec3_dot(a, b), bxa[3];
  cosrod_vec3_cross(bxa, b, a);
  H[0] = 2.0 * ab;
  for (int j = 1; j < 4; ++j) {
    H[j] = 2.0 * bxa[j - 1];
    H[4 * j] = 2.0 * bxa[j - 1];
    for (int i = 1; i < 4; ++i) {
      H[i + 4 * j] = 2.0 * (a[i - 1] * b[j - 1] + b[i - 1] * a[j - 1]) - (i == j ? 2.0 * ab : 0.0);
    }
  }
}

void cosrod_quat_dphi(double D[36], const double p[4]) {
  for (int k = 0; k < 3; ++k) {
    double J[12];
    cosrod_quat_dRv_dp(J, p, E4[k + 1] + 1); /* e_{k+1} in R^3 */
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) D[3 * k + i + 9 * j] = J[i + 3 * j];
  }
}

cosrod_status cosrod_quat_dphi_pinv(double P[36], const double p[4]) {
  double n2 = cosrod_quat_norm2(p);
  if (!(n2 > 0.0)) return COSROD_ERR_SINGULAR;
  double D[36], A[16];
  cosrod_quat_dphi(D, p);
  double s = 1.0 / (4.0 * n2), c = 1.0 / (6.0 * n2);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) A[i + 4 * j] = s * ((i == j ? 0.5 : 0.0) - c * p[i] * p[j]);
  for (int m = 0; m < 9; ++m) {
    for (int i = 0; i < 4; ++i) {
      double acc = 0.0;
      for (int j = 0; j < 4; ++j) acc += A[i + 4 * j] * D[m + 9 * j];
      P[i + 4 * m] = acc;
    }
  }
  return COSROD_OK;
}

/* ---- finite-difference twins -------------------------------------------- */

void cosrod_quat_dRv_dp_fd(double J[12], const double p[4], const double v[3], double h) {
  for (int j = 0; j < 4; ++j) {
    double pp[4], pm[4], rp[3], rm[3];
    cosrod_quat_copy(pp, p);
    cosrod_quat_copy(pm, p);
    pp[j] += h;
    pm[j] -= h;
    cosrod_quat_rotate(rp, pp, v);
    cosrod_quat_rotate(rm, pm, v);
    for (int i = 0; i < 3; ++i) J[i + 3 * j] = (rp[i] - rm[i]) / (2.0 * h);
  }
}

void cosrod_quat_dRTv_dp_fd(double J[12], const double p[4], const double v[3], double h) {
  for (int j = 0; j < 4; ++j) {
    double pp[4], pm[4], rp[3], rm[3];
    cosrod_quat_copy(pp, p);
    cosrod_quat_copy(pm, p);
    pp[j] += h;
    pm[j] -= h;
    cosrod_quat_rotate_inv(rp, pp, v);
    cosrod_quat_rotate_inv(rm, pm, v);
    for (int i = 0; i < 3; ++i) J[i + 3 * j] = (rp[i] - rm[i]) / (2.0 * h);
  }
}

void cosrod_quat_dphi_fd(double D[36], const double p[4], double h) {
  for (int j = 0; j < 4; ++j) {
    double pp[4], pm[4], Rp[9], Rm[9];
    cosrod_quat_copy(pp, p);
    cosrod_quat_copy(pm, p);
    pp[j] += h;
    pm[j] -= h;
    cosrod_quat_to_matrix(Rp, pp);
    cosrod_quat_to_matrix(Rm, pm);
    for (int i = 0; i < 9; ++i) D[i + 9 * j] = (Rp[i] - Rm[i]) / (2.0 * h);
  }
}

/* ---- conversions and interpolation --------------------------------------- */

/* sin(x)/x, accurate near 0 */
static double sinc(double x) {
  if (fabs(x) < 1e-4) {
    double x2 = x * x;
    return 1.0 - x2 / 6.0 * (1.0 - x2 / 20.0);
  }
  return sin(x) / x;
}

cosrod_status cosrod_quat_slerp(double r[4], double t, const double q0[4], const double q1[4]) {
  double dm[4], dp[4];
  for (int i = 0; i < 4; ++i) {
    dm[i] = q1[i] - q0[i];
    dp[i] = q1[i] + q0[i];
  }
  double th = 2.0 * atan2(cosrod_quat_norm(dm), cosrod_quat_norm(dp));
  if (!(th <= COSROD_QUAT_PI - 1e-12)) return COSROD_ERR_INVALID;
  double sth = sinc(th);
  double a = (1.0 - t) * sinc((1.0 - t) * th) / sth;
  double b = t * sinc(t * th) / sth;
  cosrod_quat_set(r, a * q0[0] + b * q1[0], a * q0[1] + b * q1[1], a * q0[2] + b * q1[2],
                  a * q0[3] + b * q1[3]);
  return COSROD_OK;
}

#define RM(i, j) R[((i)-1) + 3 * ((j)-1)] /* 1-based R_ij, column-major */

cosrod_status cosrod_quat_from_matrix(double p[4], const double R[9]) {
  for (int i = 0; i < 9; ++i)
    if (!isfinite(R[i])) return COSROD_ERR_NONFINITE;
  double tr = RM(1, 1) + RM(2, 2) + RM(3, 3);
  double d[4] = {tr, RM(1, 1), RM(2, 2), RM(3, 3)};
  int n = 0;
  for (int k = 1; k < 4; ++k)
    if (d[k] > d[n]) n = k;
  double q[4];
  switch (n) {
    case 0: {
      q[0] = 0.5 * sqrt(1.0 + tr);
      double s = 0.25 / q[0];
      q[1] = s * (RM(3, 2) - RM(2, 3));
      q[2] = s * (RM(1, 3) - RM(3, 1));
      q[3] = s * (RM(2, 1) - RM(1, 2));
      break;
    }
    case 1: {
      q[1] = sqrt(0.5 * RM(1, 1) + 0.25 * (1.0 - tr));
      double s = 0.25 / q[1];
      q[0] = s * (RM(3, 2) - RM(2, 3));
      q[2] = s * (RM(2, 1) + RM(1, 2));
      q[3] = s * (RM(3, 1) + RM(1, 3));
      break;
    }
    case 2: {
      q[2] = sqrt(0.5 * RM(2, 2) + 0.25 * (1.0 - tr));
      double s = 0.25 / q[2];
      q[0] = s * (RM(1, 3) - RM(3, 1));
      q[1] = s * (RM(1, 2) + RM(2, 1));
      q[3] = s * (RM(3, 2) + RM(2, 3));
      break;
    }
    default: {
      q[3] = sqrt(0.5 * RM(3, 3) + 0.25 * (1.0 - tr));
      double s = 0.25 / q[3];
      q[0] = s * (RM(2, 1) - RM(1, 2));
      q[1] = s * (RM(1, 3) + RM(3, 1));
      q[2] = s * (RM(2, 3) + RM(3, 2));
      break;
    }
  }
  cosrod_quat_copy(p, q);
  return COSROD_OK;
}

#undef RM

void cosrod_quat_from_axis_angle(double p[4], const double axis[3], double angle) {
  double a[3];
  if (cosrod_vec3_normalise(a, axis) == 0.0) {
    cosrod_quat_identity(p);
    return;
  }
  double s = sin(0.5 * angle);
  cosrod_quat_set(p, cos(0.5 * angle), s * a[0], s * a[1], s * a[2]);
}

void cosrod_quat_to_axis_angle(double axis[3], double *angle, const double p[4]) {
  double u[3];
  cosrod_quat_im(u, p);
  double s = cosrod_vec3_normalise(u, u);
  if (s == 0.0) cosrod_vec3_set(u, 1.0, 0.0, 0.0);
  *angle = 2.0 * atan2(s, p[0]);
  cosrod_vec3_copy(axis, u);
}

void cosrod_quat_from_rotvec(double p[4], const double w[3]) {
  double th = cosrod_vec3_norm(w);
  double s = 0.5 * sinc(0.5 * th);
  cosrod_quat_set(p, cos(0.5 * th), s * w[0], s * w[1], s * w[2]);
}

void cosrod_quat_to_rotvec(double w[3], const double p[4]) {
  double sg = p[0] < 0.0 ? -1.0 : 1.0;
  double c = sg * p[0];
  double u[3] = {sg * p[1], sg * p[2], sg * p[3]};
  double s = cosrod_vec3_norm(u);
  double f = s > 0.0 ? 2.0 * atan2(s, c) / s : 2.0 / c;
  cosrod_vec3_scale(w, f, u);
}

void cosrod_quat_from_euler313(double p[4], const double th[3]) {
  double a[4] = {cos(0.5 * th[0]), 0.0, 0.0, sin(0.5 * th[0])};
  double b[4] = {cos(0.5 * th[1]), sin(0.5 * th[1]), 0.0, 0.0};
  double c[4] = {cos(0.5 * th[2]), 0.0, 0.0, sin(0.5 * th[2])};
  double t[4];
  cosrod_quat_mul(t, a, b);
  cosrod_quat_mul(p, t, c);
}

/* wrap to (-pi, pi] */
static double wrap_pi(double x) {
  const double tp = 2.0 * COSROD_QUAT_PI;
  x = fmod(x, tp);
  if (x > COSROD_QUAT_PI) x -= tp;
  if (x <= -COSROD_QUAT_PI) x += tp;
  return x;
}

/* With c = cos(th2/2), s = sin(th2/2), sig = (th1 + th3)/2, del = (th1 - th3)/2:
 * p = (c cos sig, s cos del, s sin del, c sin sig). */
cosrod_status cosrod_quat_to_euler313(double th[3], const double p[4]) {
  double a = hypot(p[0], p[3]); /* |c| |p| */
  double b = hypot(p[1], p[2]); /* |s| |p| */
  double th2 = 2.0 * atan2(b, a);
  double sig = atan2(p[3], p[0]);
  double del = atan2(p[2], p[1]);
  double n = hypot(a, b);
  double sin2 = 2.0 * a * b / (n * n);
  cosrod_status st = COSROD_OK;
  double th1, th3;
  if (!(sin2 >= 1e-12)) {
    st = COSROD_ERR_KINEMATIC;
    th3 = 0.0;
    th1 = (a >= b) ? 2.0 * sig : 2.0 * del;
  } else {
    th1 = sig + del;
    th3 = sig - del;
  }
  th[0] = wrap_pi(th1);
  th[1] = th2;
  th[2] = wrap_pi(th3);
  return st;
}

void cosrod_quat_euler313_rates(double B[9], const double th[3]) {
  double s2 = sin(th[1]), c2 = cos(th[1]), s3 = sin(th[2]), c3 = cos(th[2]);
  B[0] = s3 * s2;
  B[1] = c3 * s2;
  B[2] = c2;
  B[3] = c3;
  B[4] = -s3;
  B[5] = 0.0;
  B[6] = 0.0;
  B[7] = 0.0;
  B[8] = 1.0;
}
