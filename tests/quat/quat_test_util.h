// SPDX-License-Identifier: Apache-2.0
/* Small helpers shared by the quaternion tests (test_quat_algebra.c,
 * test_quat_deriv.c): random inputs and dense reference arithmetic written
 * independently of the library. */
#ifndef COSROD_QUAT_TEST_UTIL_H
#define COSROD_QUAT_TEST_UTIL_H

#include <math.h>

#include "harness.h"

/* p: 4 independent standard normal components (not normalised). */
static inline void rand_quat(th_rng *r, double p[4]) {
  for (int i = 0; i < 4; ++i) p[i] = th_rng_normal(r);
}

static inline void rand_vec(th_rng *r, double v[3]) {
  for (int i = 0; i < 3; ++i) v[i] = th_rng_normal(r);
}

/* C = A B, column-major: A (m x k), B (k x n), C (m x n). */
static inline void matmul(double *C, const double *A, const double *B, int m, int k, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0.0;
      for (int l = 0; l < k; ++l) s += A[i + m * l] * B[l + k * j];
      C[i + m * j] = s;
    }
}

/* max_i |a_i - b_i| */
static inline double maxdiff(const double *a, const double *b, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) e = fmax(e, fabs(a[i] - b[i]));
  return e;
}

#endif
