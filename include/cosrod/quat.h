// SPDX-License-Identifier: Apache-2.0
/* Quaternions and rotations ([LLA] §2, [L] §4–6, [LA] §4).
 *
 * Conventions (fixed for the whole code base):
 * - A quaternion is double p[4] = (p0 | p1, p2, p3), scalar first, Hamilton
 *   product ([L] eq. 30).  A 3-vector double v[3] is identified with the pure
 *   quaternion (0 | v), Im(H) = R^3.
 * - p need NOT be of unit length unless a function says so.  The Euler map is
 *   R(p) = (2 p0^2 - |p|^2) I + 2 p^ (x) p^ + 2 p0 E(p^)  ([LLA] eq. 1,
 *   [L] eq. 26), quadratic in p: R(lambda p) = lambda^2 R(p).
 * - Small fixed-size matrices are COLUMN-MAJOR (as the rest of cosrod and the
 *   test harness): an m x n matrix A is stored in A[i + m*j] = A_ij.  Hence the
 *   columns of R (the directors d^1, d^2, d^3) are R[0..2], R[3..5], R[6..8],
 *   and the 9-vector phi(p) of [L] eq. 47 is exactly R(p) in storage order.
 * - Output argument first.  All static inline functions read every input
 *   before writing the output, so outputs may alias inputs (e.g.
 *   cosrod_quat_mul(p, p, q)) unless a function says otherwise.  Matrix-valued
 *   functions must not alias (their outputs are not inputs of the same size).
 * - Moments of inertia inertia[3] = (I1, I2, I3) are principal values; the
 *   fictive radial moment I0 of [L] eq. 32 is 0 throughout.  (Never name a
 *   variable `I`: <complex.h>, pulled in by <lapacke.h>, defines it as a macro.)
 *
 * Everything here is allocation-free and safe to call in time loops. */
#ifndef COSROD_QUAT_H
#define COSROD_QUAT_H

#include "cosrod/export.h"

#include <math.h>
#include <stdio.h>

#include "cosrod/status.h"
#include "cosrod/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pi (strict C11 has no M_PI). */
#define COSROD_QUAT_PI 3.14159265358979323846264338327950288

/* ---- elementary algebra (static inline) ---------------------------------- */

/* p = (p0, p1, p2, p3) */
static inline void cosrod_quat_set(double p[4], double p0, double p1, double p2, double p3) {
  p[0] = p0;
  p[1] = p1;
  p[2] = p2;
  p[3] = p3;
}

/* p = 1 = (1 | 0, 0, 0) */
static inline void cosrod_quat_identity(double p[4]) { cosrod_quat_set(p, 1.0, 0.0, 0.0, 0.0); }

/* r = p */
static inline void cosrod_quat_copy(double r[4], const double p[4]) {
  cosrod_quat_set(r, p[0], p[1], p[2], p[3]);
}

/* <p, q> = sum_n p_n q_n (Euclidean inner product in R^4) */
static inline double cosrod_quat_dot(const double p[4], const double q[4]) {
  return p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
}

/* |p|^2 */
static inline double cosrod_quat_norm2(const double p[4]) { return cosrod_quat_dot(p, p); }

/* |p| */
static inline double cosrod_quat_norm(const double p[4]) { return sqrt(cosrod_quat_dot(p, p)); }

/* r = p q (Hamilton product, [L] eq. 30; aliasing allowed) */
static inline void cosrod_quat_mul(double r[4], const double p[4], const double q[4]) {
  double r0 = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
  double r1 = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2];
  double r2 = p[0] * q[2] + p[2] * q[0] + p[3] * q[1] - p[1] * q[3];
  double r3 = p[0] * q[3] + p[3] * q[0] + p[1] * q[2] - p[2] * q[1];
  cosrod_quat_set(r, r0, r1, r2, r3);
}

/* r = conj(p) q  (e.g. W = p̄_{n-1/2} p_{n+1/2}, [LLA] eq. 26; aliasing allowed) */
static inline void cosrod_quat_conj_mul(double r[4], const double p[4], const double q[4]) {
  double r0 = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
  double r1 = p[0] * q[1] - p[1] * q[0] - p[2] * q[3] + p[3] * q[2];
  double r2 = p[0] * q[2] - p[2] * q[0] - p[3] * q[1] + p[1] * q[3];
  double r3 = p[0] * q[3] - p[3] * q[0] - p[1] * q[2] + p[2] * q[1];
  cosrod_quat_set(r, r0, r1, r2, r3);
}

/* r = p conj(q) (aliasing allowed) */
static inline void cosrod_quat_mul_conj(double r[4], const double p[4], const double q[4]) {
  double r0 = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
  double r1 = -p[0] * q[1] + p[1] * q[0] - p[2] * q[3] + p[3] * q[2];
  double r2 = -p[0] * q[2] + p[2] * q[0] - p[3] * q[1] + p[1] * q[3];
  double r3 = -p[0] * q[3] + p[3] * q[0] - p[1] * q[2] + p[2] * q[1];
  cosrod_quat_set(r, r0, r1, r2, r3);
}

/* r = p w with the pure quaternion w = (0 | w) (aliasing of r and p allowed) */
static inline void cosrod_quat_mul_pure(double r[4], const double p[4], const double w[3]) {
  double r0 = -p[1] * w[0] - p[2] * w[1] - p[3] * w[2];
  double r1 = p[0] * w[0] + p[2] * w[2] - p[3] * w[1];
  double r2 = p[0] * w[1] + p[3] * w[0] - p[1] * w[2];
  double r3 = p[0] * w[2] + p[1] * w[1] - p[2] * w[0];
  cosrod_quat_set(r, r0, r1, r2, r3);
}

/* r = conj(p) = (p0 | -p1, -p2, -p3) */
static inline void cosrod_quat_conj(double r[4], const double p[4]) {
  cosrod_quat_set(r, p[0], -p[1], -p[2], -p[3]);
}

/* r = p / |p|; returns |p|.  If |p| == 0, r = 1 (identity) and 0 is returned. */
static inline double cosrod_quat_normalise(double r[4], const double p[4]) {
  double n = cosrod_quat_norm(p);
  if (n > 0.0) {
    double s = 1.0 / n;
    cosrod_quat_set(r, s * p[0], s * p[1], s * p[2], s * p[3]);
  } else {
    cosrod_quat_identity(r);
  }
  return n;
}

/* r = p^{-1} = conj(p) / |p|^2.  COSROD_ERR_SINGULAR (r untouched) if p == 0. */
static inline cosrod_status cosrod_quat_inverse(double r[4], const double p[4]) {
  double n2 = cosrod_quat_norm2(p);
  if (!(n2 > 0.0)) return COSROD_ERR_SINGULAR;
  double s = 1.0 / n2;
  cosrod_quat_set(r, s * p[0], -s * p[1], -s * p[2], -s * p[3]);
  return COSROD_OK;
}

/* Pure-quaternion embedding: r = (0 | v) */
static inline void cosrod_quat_pure(double r[4], const double v[3]) {
  double v0 = v[0], v1 = v[1], v2 = v[2];
  cosrod_quat_set(r, 0.0, v0, v1, v2);
}

/* v = Im(p) = (p1, p2, p3) */
static inline void cosrod_quat_im(double v[3], const double p[4]) {
  double a = p[1], b = p[2], c = p[3];
  cosrod_vec3_set(v, a, b, c);
}

/* Geodesic reflection of a through b: r = b conj(a) b = 2 <a,b> b - |b|^2 a.
 * For unit a, b this is slerp(2, a, b), the spherical linear extrapolation
 * used for ghost quaternions at clamped ends ([LLA] Remark 3.1): a polynomial
 * (hence cheaply differentiable) form.  Aliasing allowed. */
static inline void cosrod_quat_reflect(double r[4], const double a[4], const double b[4]) {
  double c = 2.0 * cosrod_quat_dot(a, b), n2 = cosrod_quat_norm2(b);
  cosrod_quat_set(r, c * b[0] - n2 * a[0], c * b[1] - n2 * a[1], c * b[2] - n2 * a[2], c * b[3] - n2 * a[3]);
}

/* ---- rotation of vectors without forming R (static inline) --------------- */

/* r = R(p) v = p v conj(p)  ([L] eq. 29 forward; stretched by |p|^2 for
 * non-unit p; aliasing allowed).  18 multiplications. */
static inline void cosrod_quat_rotate(double r[3], const double p[4], const double v[3]) {
  const double *u = p + 1;
  double a = p[0] * p[0] - cosrod_vec3_dot(u, u); /* 2 p0^2 - |p|^2 */
  double b = 2.0 * cosrod_vec3_dot(u, v);
  double c[3];
  cosrod_vec3_cross(c, u, v);
  double r0 = a * v[0] + b * u[0] + 2.0 * p[0] * c[0];
  double r1 = a * v[1] + b * u[1] + 2.0 * p[0] * c[1];
  double r2 = a * v[2] + b * u[2] + 2.0 * p[0] * c[2];
  cosrod_vec3_set(r, r0, r1, r2);
}

/* r = R(p)^T v = conj(p) v p  ([L] eq. 29 backward; aliasing allowed) */
static inline void cosrod_quat_rotate_inv(double r[3], const double p[4], const double v[3]) {
  const double *u = p + 1;
  double a = p[0] * p[0] - cosrod_vec3_dot(u, u);
  double b = 2.0 * cosrod_vec3_dot(u, v);
  double c[3];
  cosrod_vec3_cross(c, u, v);
  double r0 = a * v[0] + b * u[0] - 2.0 * p[0] * c[0];
  double r1 = a * v[1] + b * u[1] - 2.0 * p[0] * c[1];
  double r2 = a * v[2] + b * u[2] - 2.0 * p[0] * c[2];
  cosrod_vec3_set(r, r0, r1, r2);
}

/* Director d^{k+1} = R(p) e_{k+1}, k = 0, 1, 2 ([L] eqs. 27–28).  d has 3 entries. */
static inline void cosrod_quat_director(double d[3], const double p[4], int k) {
  double p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
  switch (k) {
    case 0:
      cosrod_vec3_set(d, p0 * p0 + p1 * p1 - p2 * p2 - p3 * p3, 2.0 * (p1 * p2 + p0 * p3),
                      2.0 * (p1 * p3 - p0 * p2));
      break;
    case 1:
      cosrod_vec3_set(d, 2.0 * (p1 * p2 - p0 * p3), p0 * p0 - p1 * p1 + p2 * p2 - p3 * p3,
                      2.0 * (p2 * p3 + p0 * p1));
      break;
    default:
      cosrod_vec3_set(d, 2.0 * (p1 * p3 + p0 * p2), 2.0 * (p2 * p3 - p0 * p1),
                      p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3);
      break;
  }
}

/* Euler map R(p) ([LLA] eq. 1), 3x3 column-major: R[3k..3k+2] = d^{k+1}.
 * Equivalently phi(p) in R^9 of [L] eq. 47. */
static inline void cosrod_quat_to_matrix(double R[9], const double p[4]) {
  cosrod_quat_director(R, p, 0);
  cosrod_quat_director(R + 3, p, 1);
  cosrod_quat_director(R + 6, p, 2);
}

/* ---- kinematics (static inline) ------------------------------------------ */

/* Material angular velocity Omega = Im(2 conj(p) pdot) ([L] Lemma 4.1;
 * exact for unit p with <p, pdot> = 0; aliasing allowed). */
static inline void cosrod_quat_omega(double Om[3], const double p[4], const double pdot[4]) {
  double t[4];
  cosrod_quat_conj_mul(t, p, pdot);
  cosrod_vec3_set(Om, 2.0 * t[1], 2.0 * t[2], 2.0 * t[3]);
}

/* Spatial angular velocity omega = Im(2 pdot conj(p)) ([L] Lemma 4.1). */
static inline void cosrod_quat_omega_spatial(double om[3], const double p[4], const double pdot[4]) {
  double t[4];
  cosrod_quat_mul_conj(t, pdot, p);
  cosrod_vec3_set(om, 2.0 * t[1], 2.0 * t[2], 2.0 * t[3]);
}

/* pdot = 1/2 p Omega = T(p) Omega ([L] eqs. 42, 43; aliasing of pdot and p allowed) */
static inline void cosrod_quat_pdot(double pdot[4], const double p[4], const double Om[3]) {
  double t[4];
  cosrod_quat_mul_pure(t, p, Om);
  cosrod_quat_set(pdot, 0.5 * t[0], 0.5 * t[1], 0.5 * t[2], 0.5 * t[3]);
}

/* T(p)^T pi = 1/2 Im(conj(p) pi)  ([L] eq. 43; the torque of a quaternionic
 * generalised force pi, [L] Lemma 4.2) */
static inline void cosrod_quat_tmat_T_apply(double r[3], const double p[4], const double pi[4]) {
  double t[4];
  cosrod_quat_conj_mul(t, p, pi);
  cosrod_vec3_set(r, 0.5 * t[1], 0.5 * t[2], 0.5 * t[3]);
}

/* Projection onto the constraint manifold ([LA] eq. 27, [L] eq. 63):
 * p <- p/|p|, and if pdot != NULL, pdot <- pdot - <p, pdot> p (with the new p).
 * COSROD_ERR_SINGULAR (nothing changed) if p == 0. */
static inline cosrod_status cosrod_quat_project(double p[4], double pdot[4]) {
  double n = cosrod_quat_norm(p);
  if (!(n > 0.0)) return COSROD_ERR_SINGULAR;
  double s = 1.0 / n;
  cosrod_quat_set(p, s * p[0], s * p[1], s * p[2], s * p[3]);
  if (pdot) {
    double c = cosrod_quat_dot(p, pdot);
    cosrod_quat_set(pdot, pdot[0] - c * p[0], pdot[1] - c * p[1], pdot[2] - c * p[2], pdot[3] - c * p[3]);
  }
  return COSROD_OK;
}

/* ---- quaternion mass (static inline mat-vec forms) ----------------------- */

/* r = mu(p) v = 4 Q(p) I Q(p)^T v = 4 p (I * Im(conj(p) v))  ([LLA] eq. 13,
 * [L] eq. 31, I0 = 0; aliasing allowed).  inertia = (I1, I2, I3). */
static inline void cosrod_quat_mass_apply(double r[4], const double p[4], const double inertia[3],
                                          const double v[4]) {
  double t[4], w[3];
  cosrod_quat_conj_mul(t, p, v);
  cosrod_vec3_set(w, 4.0 * inertia[0] * t[1], 4.0 * inertia[1] * t[2], 4.0 * inertia[2] * t[3]);
  cosrod_quat_mul_pure(r, p, w);
}

/* r = mu#(p) v = Q(p) I# Q(p)^T v / (4 |p|^4), I# = diag(0, 1/I1, 1/I2, 1/I3)
 * ([L] eq. 39 tangential inverse; aliasing allowed).  Requires p != 0 and
 * I_k > 0 (not checked here; see cosrod_quat_mass_sharp). */
static inline void cosrod_quat_mass_sharp_apply(double r[4], const double p[4], const double inertia[3],
                                                const double v[4]) {
  double n2 = cosrod_quat_norm2(p);
  double s = 0.25 / (n2 * n2);
  double t[4], w[3];
  cosrod_quat_conj_mul(t, p, v);
  cosrod_vec3_set(w, s * t[1] / inertia[0], s * t[2] / inertia[1], s * t[3] / inertia[2]);
  cosrod_quat_mul_pure(r, p, w);
}

/* ---- matrices (quat.c) ----------------------------------------------------
 * All outputs are column-major with the shapes given. */

/* Q(p), 4x4 ([L] eq. 30, [LLA] eq. 13): Q(p) q = p q (left multiplication);
 * Q(p)^T = Q(conj p), Q(p)^T Q(p) = |p|^2 I. */
COSROD_API void cosrod_quat_qmat(double Q[16], const double p[4]);

/* Right-multiplication matrix, 4x4: Qr(q) p = p q. */
COSROD_API void cosrod_quat_qmat_right(double Qr[16], const double q[4]);

/* Null-space matrix T(p), 4x3 ([L] eq. 41): the last three columns of Q(p)
 * times 1/2, so T(p) w = 1/2 p w.  ([LA] eq. 20 uses 2 T(p) with nu = Omega/2.) */
COSROD_API void cosrod_quat_tmat(double T[12], const double p[4]);

/* Quaternion mass mu(p) = 4 Q(p) diag(0, I1, I2, I3) Q(p)^T, 4x4 symmetric
 * ([LLA] eq. 13, [L] eq. 31).  Units: those of inertia. */
COSROD_API void cosrod_quat_mass(double mu[16], const double p[4], const double inertia[3]);

/* Tangential inverse mu#(p) = Q(p) diag(0, 1/I1, 1/I2, 1/I3) Q(p)^T / (4|p|^4),
 * 4x4 ([L] eq. 39); mu mu# = mu# mu = I - p (x) p for unit p.
 * COSROD_ERR_SINGULAR if p == 0 or some I_k <= 0 (mu# untouched). */
COSROD_API cosrod_status cosrod_quat_mass_sharp(double mus[16], const double p[4], const double inertia[3]);

/* Gyroscopic ("mass skew") term of [L] eq. 33:
 * r = 1/2 grad_p(pdot^T mu(p) pdot) - (grad_p(mu(p) pdot)) pdot
 *   = 8 Q(pdot) I Q(pdot)^T p = 8 pdot (I * Im(conj(pdot) p)), 4-vector. */
COSROD_API void cosrod_quat_mass_gyro(double r[4], const double p[4], const double pdot[4], const double inertia[3]);

/* ---- Euler map differential ([L] §5) -------------------------------------- */

/* D phi(p), 9x4 (ld 9) ([L] eq. 48): D[i + 9 j] = d R_flat[i] / d p_j with
 * R_flat the column-major R(p). */
COSROD_API void cosrod_quat_dphi(double D[36], const double p[4]);

/* Closed-form Moore–Penrose inverse of D phi(p), 4x9 (ld 4) ([L] Lemma 5.1,
 * eq. 55): (1/(4|p|^2)) (1/2 I - p (x) p / (6|p|^2)) D phi(p)^T.
 * COSROD_ERR_SINGULAR if p == 0 (P untouched). */
COSROD_API cosrod_status cosrod_quat_dphi_pinv(double P[36], const double p[4]);

/* ---- derivatives of rotated vectors (for rod Jacobians) ------------------- */

/* J = d(R(p) v)/dp, 3x4 (ld 3).  Exact for any p (R is quadratic in p). */
COSROD_API void cosrod_quat_dRv_dp(double J[12], const double p[4], const double v[3]);

/* J = d(R(p)^T v)/dp, 3x4 (ld 3), e.g. for Gamma = R(p)^T (x'-) - e3 ([LLA] eq. 23). */
COSROD_API void cosrod_quat_dRTv_dp(double J[12], const double p[4], const double v[3]);

/* Hessian H (4x4 symmetric, constant in p) of the scalar s(p) = a^T R(p) b
 * = b^T R(p)^T a: s = 1/2 p^T H p, grad_p s = H p.  Hence d/dp of
 * (dRTv_dp(p, a))^T b = (dRv_dp(p, b))^T a is H(a, b). */
COSROD_API void cosrod_quat_aRb_hess(double H[16], const double a[3], const double b[3]);

/* Finite-difference twins (central differences with step h, e.g. 1e-6),
 * used by tests; same shapes as the analytic versions. */
COSROD_API void cosrod_quat_dRv_dp_fd(double J[12], const double p[4], const double v[3], double h);
COSROD_API void cosrod_quat_dRTv_dp_fd(double J[12], const double p[4], const double v[3], double h);
COSROD_API void cosrod_quat_dphi_fd(double D[36], const double p[4], double h);

/* ---- conversions and interpolation (quat.c) ------------------------------- */

/* Spherical linear interpolation ([LLA] Test 2):
 * r = (sin((1-t) th) q0 + sin(t th) q1) / sin th, th = angle(q0, q1) on S^3.
 * q0, q1 unit quaternions.  No sign flip to the shorter arc (q1 and -q1 give
 * different paths, as [LLA] Test 2 requires).  t outside [0, 1] extrapolates
 * along the great circle (ghost quaternions, [LLA] Remark 3.1).  Accurate for
 * th -> 0.  COSROD_ERR_INVALID if q0 ~ -q1 (th > pi - 1e-12; r untouched). */
COSROD_API cosrod_status cosrod_quat_slerp(double r[4], double t, const double q0[4], const double q1[4]);

/* Spurrier–Klumpp extraction ([L] §6): p with R(p) ~ R for R (3x3
 * column-major) in a neighbourhood of SO(3).  The sign makes the pivot
 * component (largest of p0^2..p3^2) positive.  The result is NOT normalised
 * (use cosrod_quat_normalise, [L] §6 step (b)); it is unit if R is in SO(3).
 * COSROD_ERR_NONFINITE if R has NaN/Inf (p untouched). */
COSROD_API cosrod_status cosrod_quat_from_matrix(double p[4], const double R[9]);

/* Unit quaternion of the rotation by angle (rad) about axis (normalised here):
 * p = cos(angle/2) + sin(angle/2) axis/|axis|.  axis == 0 gives p = 1. */
COSROD_API void cosrod_quat_from_axis_angle(double p[4], const double axis[3], double angle);

/* Inverse of from_axis_angle for any p != 0 (only the direction of p
 * matters): angle in [0, 2 pi], axis unit.  For Im(p) == 0, axis = e1. */
COSROD_API void cosrod_quat_to_axis_angle(double axis[3], double *angle, const double p[4]);

/* Rotation vector w (rad): p = exp(w/2) = cos(|w|/2) + sin(|w|/2) w/|w|. */
COSROD_API void cosrod_quat_from_rotvec(double p[4], const double w[3]);

/* Rotation vector of the rotation R(p), |w| <= pi (p and -p give the same w
 * except at |w| = pi), p != 0. */
COSROD_API void cosrod_quat_to_rotvec(double w[3], const double p[4]);

/* 3-1-3 (Z-X*-Z**) Euler angles th = (th1, th2, th3) ([L] §7, eq. 65):
 * R = Rz(th1) Rx(th2) Rz(th3), p = qz(th1) qx(th2) qz(th3). */
COSROD_API void cosrod_quat_from_euler313(double p[4], const double th[3]);

/* Euler angles of R(p), p != 0: th1, th3 in (-pi, pi], th2 in [0, pi].
 * At gimbal lock (sin th2 < 1e-12) th3 = 0, th1 takes the whole in-plane
 * angle, and COSROD_ERR_KINEMATIC is returned (th still valid). */
COSROD_API cosrod_status cosrod_quat_to_euler313(double th[3], const double p[4]);

/* Matrix B(th), 3x3 column-major, of [L] eq. 65: Omega = B(th) thdot. */
COSROD_API void cosrod_quat_euler313_rates(double B[9], const double th[3]);

/* ---- self-check ----------------------------------------------------------- */

/* Evaluates a few identities on fixed pseudo-random inputs and prints each
 * with its error to log (if not NULL).  Returns the number of identities
 * whose error exceeded its tolerance (0 = all good). */
COSROD_API int cosrod_quat_selfcheck(FILE *log);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_QUAT_H */
