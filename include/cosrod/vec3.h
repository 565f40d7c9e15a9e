// SPDX-License-Identifier: Apache-2.0
/* Small 3-vector helpers (static inline, value semantics on double[3]).
 *
 * Conventions: output argument first; every function reads all of its inputs
 * before writing the output, so the output may alias any input
 * (e.g. cosrod_vec3_cross(a, a, b) is allowed).  Part of the quat module
 * (include/cosrod/quat.h includes this header). */
#ifndef COSROD_VEC3_H
#define COSROD_VEC3_H

#include "cosrod/export.h"

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* r = (x, y, z) */
static inline void cosrod_vec3_set(double r[3], double x, double y, double z) {
  r[0] = x;
  r[1] = y;
  r[2] = z;
}

/* r = a */
static inline void cosrod_vec3_copy(double r[3], const double a[3]) {
  double t0 = a[0], t1 = a[1], t2 = a[2];
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
}

/* r = 0 */
static inline void cosrod_vec3_zero(double r[3]) { r[0] = r[1] = r[2] = 0.0; }

/* <a, b> */
static inline double cosrod_vec3_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* r = a x b (aliasing allowed) */
static inline void cosrod_vec3_cross(double r[3], const double a[3], const double b[3]) {
  double t0 = a[1] * b[2] - a[2] * b[1];
  double t1 = a[2] * b[0] - a[0] * b[2];
  double t2 = a[0] * b[1] - a[1] * b[0];
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
}

/* r = a + b */
static inline void cosrod_vec3_add(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] + b[0];
  r[1] = a[1] + b[1];
  r[2] = a[2] + b[2];
}

/* r = a - b */
static inline void cosrod_vec3_sub(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}

/* r = s a */
static inline void cosrod_vec3_scale(double r[3], double s, const double a[3]) {
  r[0] = s * a[0];
  r[1] = s * a[1];
  r[2] = s * a[2];
}

/* y += a x */
static inline void cosrod_vec3_axpy(double y[3], double a, const double x[3]) {
  y[0] += a * x[0];
  y[1] += a * x[1];
  y[2] += a * x[2];
}

/* |a|^2 */
static inline double cosrod_vec3_norm2(const double a[3]) { return cosrod_vec3_dot(a, a); }

/* |a| (Euclidean, overflow-safe for ordinary magnitudes) */
static inline double cosrod_vec3_norm(const double a[3]) { return sqrt(cosrod_vec3_dot(a, a)); }

/* r = a / |a|; returns |a|.  If |a| == 0, r = 0 and 0 is returned. */
static inline double cosrod_vec3_normalise(double r[3], const double a[3]) {
  double n = cosrod_vec3_norm(a);
  double s = n > 0.0 ? 1.0 / n : 0.0;
  cosrod_vec3_scale(r, s, a);
  return n;
}

/* Skew matrix E(u) of [LLA] eq. (1): E(u) v = u x v.  E is 3x3 column-major,
 * E[i + 3 j] = E_ij. */
static inline void cosrod_vec3_skew(double E[9], const double u[3]) {
  double u0 = u[0], u1 = u[1], u2 = u[2];
  E[0] = 0.0;
  E[1] = u2;
  E[2] = -u1;
  E[3] = -u2;
  E[4] = 0.0;
  E[5] = u0;
  E[6] = u1;
  E[7] = -u0;
  E[8] = 0.0;
}

#ifdef __cplusplus
}
#endif
#endif /* COSROD_VEC3_H */
