// SPDX-License-Identifier: Apache-2.0
/* Shared set-ups for the statics tests. */
#ifndef COSROD_STATICS_TEST_UTIL_H
#define COSROD_STATICS_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/statics.h"
#include "harness.h"

#define ST_PI 3.14159265358979323846

/* Position part q (nq) of the rod's initial state; caller frees. */
static inline double *st_initial_q(const cosrod_rod *rod) {
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = calloc((size_t)ny, sizeof(double));
  if (y) cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  return y;
}

/* Full vertex positions x ((N+1) x 3) of q at t. */
static inline void st_unpack_x(const cosrod_rod *rod, double t, const double *q, double *x, double *p) {
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE), nq = cosrod_rod_nq(rod);
  double *y = calloc((size_t)ny, sizeof(double));
  memcpy(y, q, sizeof(double) * (size_t)nq);
  cosrod_rod_unpack(rod, COSROD_FORM_NULLSPACE, t, y, x, p, NULL, NULL);
  free(y);
}

/* A straight cantilever along e3 from the origin (d1 = e1), clamped at s = 0,
 * free at s = L: circle of radius r or square of side r (square != 0). */
static inline cosrod_rod_def st_cantilever(int N, double L, double r, int square) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.length = L;
  def.E = 2.1e11;
  def.poisson = 0.3;
  def.density = 7850.0;
  if (square) {
    def.section = COSROD_SECTION_RECTANGLE;
    def.width = r;
    def.height = r;
  } else {
    def.section = COSROD_SECTION_CIRCLE;
    def.radius = r;
  }
  def.curvature = COSROD_CURV_TANGENT2;
  def.shape = COSROD_SHAPE_STRAIGHT;
  def.direction[0] = 0, def.direction[1] = 0, def.direction[2] = 1;
  def.normal[0] = 1, def.normal[1] = 0, def.normal[2] = 0;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_FREE;
  return def;
}

#endif /* COSROD_STATICS_TEST_UTIL_H */
