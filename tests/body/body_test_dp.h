// SPDX-License-Identifier: Apache-2.0
/* Double pendulum of two bars on revolute joints about spatial x: the
 * minimal-coordinate (Lagrange) reference shared by the body tests, and the
 * same pendulum as bodies and joints. */
#ifndef BODY_TEST_DP_H
#define BODY_TEST_DP_H

#include <math.h>
#include <string.h>

#include "cosrod/body.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"

typedef struct dp {
  double m, l, It, g;
} dp;

/* minimal coordinates (phi1, phi2 from the downward vertical), Lagrange */
static inline void dp_rhs(const dp *p, const double s[4], double f[4]) {
  double m = p->m, l = p->l, c = cos(s[0] - s[1]), sn = sin(s[0] - s[1]);
  double M11 = m * l * l / 4 + p->It + m * l * l, M22 = m * l * l / 4 + p->It, M12 = m * l * l / 2 * c;
  double Q1 = -m * l * l / 2 * sn * s[3] * s[3] - 1.5 * m * p->g * l * sin(s[0]);
  double Q2 = m * l * l / 2 * sn * s[2] * s[2] - 0.5 * m * p->g * l * sin(s[1]);
  double det = M11 * M22 - M12 * M12;
  f[0] = s[2];
  f[1] = s[3];
  f[2] = (M22 * Q1 - M12 * Q2) / det;
  f[3] = (M11 * Q2 - M12 * Q1) / det;
}

static inline void dp_rk4(const dp *p, double s[4], double T, int nsteps) {
  double h = T / nsteps, k1[4], k2[4], k3[4], k4[4], t[4];
  for (int i = 0; i < nsteps; ++i) {
    dp_rhs(p, s, k1);
    for (int k = 0; k < 4; ++k) t[k] = s[k] + 0.5 * h * k1[k];
    dp_rhs(p, t, k2);
    for (int k = 0; k < 4; ++k) t[k] = s[k] + 0.5 * h * k2[k];
    dp_rhs(p, t, k3);
    for (int k = 0; k < 4; ++k) t[k] = s[k] + h * k3[k];
    dp_rhs(p, t, k4);
    for (int k = 0; k < 4; ++k) s[k] += h / 6 * (k1[k] + 2 * k2[k] + 2 * k3[k] + k4[k]);
  }
}

/* two bars of length l along their d3, revolute about spatial x */
static inline void dp_bodies(const dp *p, const double s[4], cosrod_body_def b[2], cosrod_joint_def j[2]) {
  double ex[3] = {1, 0, 0}, d31[3], d32[3];
  memset(b, 0, 2 * sizeof *b);
  memset(j, 0, 2 * sizeof *j);
  for (int i = 0; i < 2; ++i) {
    b[i].name = i ? "bar2" : "bar1";
    b[i].mass = p->m;
    b[i].inertia[0] = b[i].inertia[1] = p->It;
    b[i].inertia[2] = p->It / 50;
    cosrod_quat_from_axis_angle(b[i].quaternion, ex, s[i] + COSROD_QUAT_PI);
    b[i].omega[0] = s[2 + i];
  }
  cosrod_vec3_set(d31, 0, sin(s[0]), -cos(s[0]));
  cosrod_vec3_set(d32, 0, sin(s[1]), -cos(s[1]));
  double w1[3] = {s[2], 0, 0}, w2[3] = {s[3], 0, 0}, t[3];
  cosrod_vec3_scale(b[0].position, p->l / 2, d31);
  cosrod_vec3_scale(b[1].position, p->l, d31);
  cosrod_vec3_axpy(b[1].position, p->l / 2, d32);
  cosrod_vec3_cross(b[0].velocity, w1, b[0].position);
  cosrod_vec3_scale(t, p->l, d31);
  cosrod_vec3_cross(b[1].velocity, w1, t);
  cosrod_vec3_scale(t, p->l / 2, d32);
  cosrod_vec3_cross(t, w2, t);
  cosrod_vec3_add(b[1].velocity, b[1].velocity, t);
  j[0].type = j[1].type = COSROD_JOINT_REVOLUTE;
  j[0].body[0] = 0, j[0].body[1] = -1;
  j[0].at[0][2] = -p->l / 2;
  cosrod_vec3_copy(j[0].axis, ex);
  j[1].body[0] = 1, j[1].body[1] = 0;
  j[1].at[0][2] = -p->l / 2;
  j[1].at[1][2] = p->l / 2;
  cosrod_vec3_copy(j[1].axis, ex);
}

#endif
