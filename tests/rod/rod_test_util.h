// SPDX-License-Identifier: Apache-2.0
/* Shared helpers for the rod tests: random non-trivial rods and states. */
#ifndef COSROD_ROD_TEST_UTIL_H
#define COSROD_ROD_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "harness.h"

#define RT_PI 3.14159265358979323846

static inline void rt_rand_unit3(th_rng *r, double u[3]) {
  double n;
  do {
    u[0] = th_rng_normal(r);
    u[1] = th_rng_normal(r);
    u[2] = th_rng_normal(r);
    n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  } while (n < 1e-3);
  u[0] /= n, u[1] /= n, u[2] /= n;
}

/* unit quaternion of rotation angle phi about unit axis u */
static inline void rt_quat_axis(double q[4], const double u[3], double phi) {
  q[0] = cos(0.5 * phi);
  q[1] = sin(0.5 * phi) * u[0];
  q[2] = sin(0.5 * phi) * u[1];
  q[3] = sin(0.5 * phi) * u[2];
}

static inline void rt_rand_quat(th_rng *r, double q[4]) {
  double u[3];
  rt_rand_unit3(r, u);
  rt_quat_axis(q, u, th_rng_uniform(r, 0.0, 2.0 * RT_PI));
}

/* Non-uniform grid of N segments on [0, L]: Δs in [0.5, 1.5] L/N, rescaled. */
static inline void rt_grid(th_rng *r, int N, double L, double *s) {
  s[0] = 0.0;
  for (int n = 1; n <= N; ++n) s[n] = s[n - 1] + th_rng_uniform(r, 0.5, 1.5);
  double sc = L / s[N];
  for (int n = 0; n <= N; ++n) s[n] *= sc;
}

/* Random large-deformation configuration on grid s: relative rotations
 * between neighbouring segments of phi in [phimin, phimax] about random axes,
 * strains of about +-10 %.  x: (N+1) x 3, p: N x 4, xd, Om random velocities. */
static inline void rt_config(th_rng *r, int N, const double *s, double phimin, double phimax, double *x,
                             double *p, double *xd, double *Om) {
  rt_rand_quat(r, p);
  for (int k = 1; k < N; ++k) {
    double u[3], e[4];
    rt_rand_unit3(r, u);
    rt_quat_axis(e, u, th_rng_uniform(r, phimin, phimax));
    cosrod_quat_mul(p + 4 * k, p + 4 * (k - 1), e);
  }
  for (int j = 0; j < 3; ++j) x[j] = th_rng_uniform(r, -1.0, 1.0);
  for (int k = 0; k < N; ++k) {
    double a[3] = {0.1 * th_rng_normal(r), 0.1 * th_rng_normal(r), 1.0 + 0.1 * th_rng_normal(r)};
    double b[3];
    cosrod_quat_rotate(b, p + 4 * k, a);
    for (int j = 0; j < 3; ++j) x[3 * (k + 1) + j] = x[3 * k + j] + (s[k + 1] - s[k]) * b[j];
  }
  if (xd)
    for (int i = 0; i < 3 * (N + 1); ++i) xd[i] = 0.1 * th_rng_normal(r);
  if (Om)
    for (int i = 0; i < 3 * N; ++i) Om[i] = th_rng_normal(r);
}

/* The curved Kirchhoff/Cosserat test rod of test_rod_kirchhoff*.c: a helix
 * (radius 0.3, pitch 0.4, 0.6 turns) of N segments under gravity, model
 * `model`, start end 0 free, 1 pinned, 2 clamped; damped: Kelvin-Voigt with
 * tau_shear = tau_bulk = 0.01. */
static inline cosrod_rod *rt_helix_rod(cosrod_rod_model model, int N, int ends, int damped) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.model = model;
  def.shape = COSROD_SHAPE_HELIX;
  def.shape_radius = 0.3;
  def.pitch = 0.4;
  def.turns = 0.6;
  def.gravity[2] = -9.81;
  if (damped) {
    def.damping = COSROD_DAMPING_KELVIN_VOIGT;
    def.tau_shear = def.tau_bulk = 0.01;
  }
  if (ends > 0) def.ends[0].kind = ends == 1 ? COSROD_END_PINNED : COSROD_END_CLAMPED;
  return cosrod_rod_create(&def, NULL);
}

#endif
