// SPDX-License-Identifier: Apache-2.0
/* Inertia ellipsoid of a body (body_shape.c): the uniform solid ellipsoid of
 * the body's mass whose principal inertias are the body's.  References: the
 * closed form I_1 = m (a_2^2 + a_3^2) / 5 (and cyclic), and, independently of
 * any formula, the inertia integral of the solid ellipsoid by the midpoint
 * rule on a 120^3 grid over its bounding box (a cell counts if its centre is
 * inside; the surface error is O(h) but largely cancels: 3.4e-4 relative
 * observed at 120 cells, bound 3e-3). */
#include <stdio.h>

#include "body_test_util.h"

static void check_one(double mass, const double I[3]) {
  double a[3];
  cosrod_body_inertia_ellipsoid(mass, I, a);
  NOTE("m = %g, I = (%g, %g, %g): semi-axes (%.6g, %.6g, %.6g)", mass, I[0], I[1], I[2], a[0], a[1], a[2]);
  for (int k = 0; k < 3; ++k) {
    int i = (k + 1) % 3, j = (k + 2) % 3;
    CHECK_NEAR("closed form m (a_i^2 + a_j^2) / 5 = I_k", mass * (a[i] * a[i] + a[j] * a[j]) / 5.0, I[k],
               1e-13 * I[k]);
  }
  /* midpoint rule: rho = m / (4/3 pi a1 a2 a3) */
  const int n = 120;
  double rho = mass / (4.0 / 3.0 * COSROD_QUAT_PI * a[0] * a[1] * a[2]), J[3] = {0, 0, 0}, M = 0.0;
  double h[3] = {2.0 * a[0] / n, 2.0 * a[1] / n, 2.0 * a[2] / n}, dV = h[0] * h[1] * h[2];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        double p[3] = {-a[0] + (i + 0.5) * h[0], -a[1] + (j + 0.5) * h[1], -a[2] + (k + 0.5) * h[2]};
        if (p[0] * p[0] / (a[0] * a[0]) + p[1] * p[1] / (a[1] * a[1]) + p[2] * p[2] / (a[2] * a[2]) > 1.0)
          continue;
        M += rho * dV;
        J[0] += rho * dV * (p[1] * p[1] + p[2] * p[2]);
        J[1] += rho * dV * (p[0] * p[0] + p[2] * p[2]);
        J[2] += rho * dV * (p[0] * p[0] + p[1] * p[1]);
      }
  CHECK_NEAR("quadrature mass", M, mass, 3e-3 * mass);
  for (int k = 0; k < 3; ++k) CHECK_NEAR("quadrature inertia = I_k", J[k], I[k], 3e-3 * I[k]);
}

TEST(inertia_ellipsoid_reproduces_inertia) {
  check_one(11.09, (double[3]){38.91, 30.91, 10.0}); /* heavy top, examples/heavy-top.yaml */
  check_one(2.0, (double[3]){0.3, 0.5, 0.6});
  check_one(1.0, (double[3]){0.4, 0.4, 0.4}); /* sphere: a = sqrt(5 I / (2 m)) */
  double a[3];
  cosrod_body_inertia_ellipsoid(1.0, (double[3]){0.4, 0.4, 0.4}, a);
  CHECK_NEAR("sphere radius sqrt(5 I / 2m) = 1", a[0], 1.0, 1e-15);
}

/* The model's ellipsoid: a full tensor's principal axes come back as q_axes
 * (tensor = Q diag(I) Q^T with Q = R(q_axes)). */
TEST(model_ellipsoid_principal_axes) {
  double Q[9], qa[4], th[3] = {0.4, 1.1, -0.3}, I[3] = {0.3, 0.5, 0.6};
  cosrod_quat_from_euler313(qa, th);
  cosrod_quat_to_matrix(Q, qa);
  cosrod_body_def b = {0};
  b.mass = 2.0;
  b.full_tensor = 1;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += Q[i + 3 * k] * I[k] * Q[j + 3 * k];
      b.tensor[i + 3 * j] = s;
    }
  b.quaternion[0] = 1.0;
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.bodies = &b;
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  CHECK("create", m != NULL);
  if (!m) return;
  double semi[3], q[4], want[3];
  cosrod_mbs_body_ellipsoid(m, 0, semi, q);
  /* tensor rebuilt from the returned axes and semi-axes */
  double R[9], I2[3], e = 0.0;
  cosrod_quat_to_matrix(R, q);
  for (int k = 0; k < 3; ++k)
    I2[k] = b.mass * (semi[(k + 1) % 3] * semi[(k + 1) % 3] + semi[(k + 2) % 3] * semi[(k + 2) % 3]) / 5.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += R[i + 3 * k] * I2[k] * R[j + 3 * k];
      e = fmax(e, fabs(s - b.tensor[i + 3 * j]));
    }
  CHECK_LE("R(q_axes) diag(I(a)) R^T = tensor", e, 1e-12);
  cosrod_body_inertia_ellipsoid(b.mass, I, want);
  double sw = want[0] + want[1] + want[2], sg = semi[0] + semi[1] + semi[2];
  CHECK_NEAR("same semi-axes as the principal moments (sum)", sg, sw, 1e-12);
  cosrod_mbs_free(m);
}

static const th_case cases[] = {TH_CASE(inertia_ellipsoid_reproduces_inertia),
                                TH_CASE(model_ellipsoid_principal_axes)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
