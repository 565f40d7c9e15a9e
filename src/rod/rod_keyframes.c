// SPDX-License-Identifier: Apache-2.0
/* C¹ cubic keyframe interpolation of prescribed ends (`interpolation: cubic`).
 *
 * Positions: piecewise cubic Hermite interpolation with Catmull–Rom
 * tangents for non-uniform times, m_i = (P_{i+1} - P_{i-1}) / (t_{i+1} -
 * t_{i-1}) at interior keyframes and m = 0 at the first and last keyframe,
 * so the motion starts and stops with zero velocity and is C¹ on the whole
 * time axis (the end holds its first / last keyframe outside their range).
 * On [t_i, t_{i+1}], h = t_{i+1} - t_i, s = (t - t_i) / h:
 *   x(t) = H00(s) P_i + H10(s) h m_i + H01(s) P_{i+1} + H11(s) h m_{i+1}
 * with the Hermite basis H00 = 2s³ - 3s² + 1, H10 = s³ - 2s² + s,
 * H01 = -2s³ + 3s², H11 = s³ - s².  The second derivative jumps at the
 * keyframes (they stay breakpoints of the driver).
 *
 * Orientations: the same Hermite spline on the quaternion components in R⁴
 * (the keyframes as given: no sign flip, as the slerp of linear keyframes)
 * followed by normalisation p = u / |u|.  The spline passes through the unit
 * keyframe quaternions, and normalisation is smooth where u ≠ 0, so p is a
 * C¹ curve on the unit sphere (a normalised quaternion spline; consecutive
 * keyframes are never antipodal, rod creation refuses that).  Derivatives of
 * the normalisation, n = |u|:  ṅ = p·u̇,  ṗ = (u̇ - p ṅ) / n,
 * n̈ = ṗ·u̇ + p·ü,  p̈ = (ü - 2 ṗ ṅ - p n̈) / n. */
#include "rod/rod_internal.h"

/* Hermite value, first and second derivative of dim components at t inside
 * the keyframe range (rows of `stride` doubles: t, values...). */
static void hermite(const double *K, int n, int stride, int dim, double t, double *v, double *vd,
                    double *vdd) {
  int i = 0;
  while (i + 2 < n && t >= K[stride * (i + 1)]) ++i;
  const double *A = K + stride * i, *B = K + stride * (i + 1);
  double h = B[0] - A[0], s = (t - A[0]) / h;
  double s2 = s * s, s3 = s2 * s;
  double H[4] = {2 * s3 - 3 * s2 + 1, s3 - 2 * s2 + s, -2 * s3 + 3 * s2, s3 - s2};
  double D[4] = {6 * s2 - 6 * s, 3 * s2 - 4 * s + 1, -6 * s2 + 6 * s, 3 * s2 - 2 * s};
  double DD[4] = {12 * s - 6, 6 * s - 4, -12 * s + 6, 6 * s - 2};
  for (int j = 0; j < dim; ++j) {
    double ma = 0.0, mb = 0.0; /* Catmull–Rom tangents, 0 at the first / last keyframe */
    if (i > 0) ma = (B[1 + j] - K[stride * (i - 1) + 1 + j]) / (B[0] - K[stride * (i - 1)]);
    if (i + 2 < n) mb = (K[stride * (i + 2) + 1 + j] - A[1 + j]) / (K[stride * (i + 2)] - A[0]);
    double a = A[1 + j], b = B[1 + j];
    v[j] = H[0] * a + H[1] * h * ma + H[2] * b + H[3] * h * mb;
    vd[j] = (D[0] * a + D[1] * h * ma + D[2] * b + D[3] * h * mb) / h;
    vdd[j] = (DD[0] * a + DD[1] * h * ma + DD[2] * b + DD[3] * h * mb) / (h * h);
  }
}

void rod_keyframes_cubic_pos(const double *K, int n, double t, double x[3], double xd[3], double xdd[3]) {
  hermite(K, n, 4, 3, t, x, xd, xdd);
}

void rod_keyframes_cubic_rot(const double *K, int n, double t, double p[4], double pd[4], double pdd[4]) {
  double u[4], ud[4], udd[4];
  hermite(K, n, 5, 4, t, u, ud, udd);
  double nn = sqrt(cosrod_quat_dot(u, u));
  for (int j = 0; j < 4; ++j) p[j] = u[j] / nn;
  double nd = cosrod_quat_dot(p, ud);
  for (int j = 0; j < 4; ++j) pd[j] = (ud[j] - p[j] * nd) / nn;
  double ndd = cosrod_quat_dot(pd, ud) + cosrod_quat_dot(p, udd);
  for (int j = 0; j < 4; ++j) pdd[j] = (udd[j] - 2.0 * pd[j] * nd - p[j] * ndd) / nn;
}
