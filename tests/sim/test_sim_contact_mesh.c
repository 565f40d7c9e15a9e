// SPDX-License-Identifier: Apache-2.0
/* Mesh obstacles in runs (src/system/contact_element.c) against independent
 * references:
 *  - a straight rod at rest on a floor that is the top face of a closed box
 *    mesh (OBJ file written here, 12 triangles): the floor carries the weight
 *    rhoA L g to 1e-6 relative and the gap is the penalty law's static
 *    penetration -(q/k + delta/2), as for the analytic plane
 *    (tests/sim/test_sim_contact.c);
 *  - a rod dropped across a block: the block as a box mesh (STL) and as the
 *    analytic box give the same motion: a box mesh has no geometric error (the
 *    distance to a convex polyhedron is the distance to its faces, edges and
 *    corners), so the runs differ by the integrators' tolerance only
 *    (rtol 1e-6: positions to 1e-5 m);
 *  - keyframed: the same block moved by keyframes as a mesh and as a box. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

static const double PI = 3.14159265358979323846;

typedef sim_text_run run;
#define run_text(text) sim_text_run_start((text), "contact.yaml", NULL, 0)
#define run_free sim_text_run_free

/* The 8 corners and 12 outward (counter-clockwise) triangles of the box
 * [lo, hi]. */
static const int TRI[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                               {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
static void corners(double v[8][3], const double lo[3], const double hi[3]) {
  for (int i = 0; i < 8; i++) {
    int b = i & 3;
    v[i][0] = (b == 1 || b == 2) ? hi[0] : lo[0];
    v[i][1] = (b >= 2) ? hi[1] : lo[1];
    v[i][2] = i >= 4 ? hi[2] : lo[2];
  }
}

static int write_obj(const char *path, const double lo[3], const double hi[3]) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  double v[8][3];
  corners(v, lo, hi);
  for (int i = 0; i < 8; i++) fprintf(f, "v %.17g %.17g %.17g\n", v[i][0], v[i][1], v[i][2]);
  for (int t = 0; t < 12; t++) fprintf(f, "f %d %d %d\n", TRI[t][0] + 1, TRI[t][1] + 1, TRI[t][2] + 1);
  return fclose(f);
}

static int write_stl(const char *path, const double lo[3], const double hi[3]) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  double v[8][3];
  corners(v, lo, hi);
  fputs("solid block\n", f);
  for (int t = 0; t < 12; t++) {
    const double *a = v[TRI[t][0]], *b = v[TRI[t][1]], *c = v[TRI[t][2]];
    double u[3], w[3], n[3];
    for (int k = 0; k < 3; k++) u[k] = b[k] - a[k], w[k] = c[k] - a[k];
    n[0] = u[1] * w[2] - u[2] * w[1], n[1] = u[2] * w[0] - u[0] * w[2], n[2] = u[0] * w[1] - u[1] * w[0];
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    fprintf(f, " facet normal %g %g %g\n  outer loop\n", n[0] / l, n[1] / l, n[2] / l);
    for (int k = 0; k < 3; k++) {
      const double *p = k == 0 ? a : k == 1 ? b : c;
      fprintf(f, "   vertex %.17g %.17g %.17g\n", p[0], p[1], p[2]);
    }
    fputs("  endloop\n endfacet\n", f);
  }
  fputs("endsolid block\n", f);
  return fclose(f);
}

static const char *ROD =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [0, 0, %.17g], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "obstacles:\n"
    "  - %s\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: %g}\n"
    "solver: {integrator: radau5, rtol: %g, atol: %g}\n";

TEST(rod_at_rest_on_a_mesh_floor) {
  const double lo[3] = {-1, -1, -0.2}, hi[3] = {2, 1, 0};
  CHECK("mesh file written", write_obj("cbody_floor.obj", lo, hi) == 0);
  const double r = 0.01, L = 1.0, rhoA = 1100 * PI * r * r, g = 9.81, q = rhoA * g;
  const double EI = 5e6 * PI * r * r * r * r / 4, ds = L / 20;
  const double k = fmax(4 * EI / pow(ds, 4), q / (0.01 * r)), delta = 0.01 * r;
  const double pen = q / k + delta / 2;
  char text[3000];
  snprintf(text, sizeof text, ROD, 0.00985, "{name: floor, shape: mesh, file: cbody_floor.obj}", 0.3, 1e-5, 1e-7);
  run R = run_text(text);
  CHECK("runs", R.st == COSROD_OK);
  if (R.st == COSROD_OK) {
    const cosrod_contact_data *d = cosrod_sim_contact_data(R.sim);
    double F[3] = {0, 0, 0}, M[3], gap = 1.0;
    if (d) {
      cosrod_contact_obstacle_wrench(d, 0, F, M);
      const cosrod_contact_point *p = cosrod_contact_points(d);
      for (size_t i = 0; i < cosrod_contact_npoints(d); i++) gap = fmin(gap, p[i].gap);
    }
    NOTE("mesh floor Fz = %.9g N (weight %.9g), min gap %.6g m (-(q/k + delta/2) = %.6g)", F[2], rhoA * L * g, gap,
         -pen);
    CHECK_NEAR("mesh floor carries the weight", -F[2], rhoA * L * g, 1e-6 * rhoA * L * g);
    CHECK_NEAR("penetration of the penalty law", -gap, pen, 0.02 * pen);
  }
  run_free(&R);
}

/* Max vertex distance between the rods of two runs. */
static double max_diff(const run *A, const run *B) {
  const cosrod_rod_data *a = cosrod_sim_rod_data(A->sim, 0), *b = cosrod_sim_rod_data(B->sim, 0);
  double m = 0;
  for (int i = 0; i < 3 * 21; i++) m = fmax(m, fabs(a->x[i] - b->x[i]));
  return m;
}

TEST(rod_across_a_mesh_block_matches_the_box) {
  /* block 0.1 x 0.4 x 0.1 under the rod's middle, top at z = 0; the rod drops from 2 cm and drapes */
  const double lo[3] = {-0.05, -0.2, -0.1}, hi[3] = {0.05, 0.2, 0.0};
  CHECK("mesh file written", write_stl("cbody_block.stl", lo, hi) == 0);
  const char *shapes[2][2] = {
      {"{name: block, shape: mesh, file: cbody_block.stl, position: [0.5, 0, 0]}",
       "{name: block, shape: box, center: [0.5, 0, -0.05], size: [0.1, 0.4, 0.1]}"},
      {"{name: block, shape: mesh, file: cbody_block.stl, position: [0.5, 0, 0], "
       "motion: {position: [[0, 0.5, 0, 0], [0.3, 0.55, 0.02, 0.01]]}}",
       "{name: block, shape: box, center: [0.5, 0, -0.05], size: [0.1, 0.4, 0.1], "
       "motion: {position: [[0, 0.5, 0, -0.05], [0.3, 0.55, 0.02, -0.04]]}}"}};
  for (int v = 0; v < 2; v++) {
    char ta[3000], tb[3000];
    snprintf(ta, sizeof ta, ROD, 0.03, shapes[v][0], 0.3, 1e-6, 1e-8);
    snprintf(tb, sizeof tb, ROD, 0.03, shapes[v][1], 0.3, 1e-6, 1e-8);
    run A = run_text(ta), B = run_text(tb);
    CHECK(v ? "keyframed: both run" : "fixed: both run", A.st == COSROD_OK && B.st == COSROD_OK);
    if (A.st == COSROD_OK && B.st == COSROD_OK) {
      const cosrod_rod_data *a = cosrod_sim_rod_data(A.sim, 0);
      double m = max_diff(&A, &B), sag = 0.03 - a->x[2];
      const cosrod_contact_data *da = cosrod_sim_contact_data(A.sim), *db = cosrod_sim_contact_data(B.sim);
      double Fa[3] = {0}, Fb[3] = {0}, M[3];
      if (da) cosrod_contact_obstacle_wrench(da, 0, Fa, M);
      if (db) cosrod_contact_obstacle_wrench(db, 0, Fb, M);
      NOTE("%s: end vertex fell %.4g m; max |x_mesh - x_box| = %.3g m; block Fz mesh %.6g, box %.6g N",
           v ? "keyframed" : "fixed", sag, m, Fa[2], Fb[2]);
      CHECK("the rod reached the block and draped (ends below its top)", a->x[2] < -0.01);
      CHECK("mesh and box give the same motion (1e-5 m)", m < 1e-5);
      CHECK_NEAR("same block force", Fa[2], Fb[2], 1e-3 * fabs(Fb[2]) + 1e-6);
    }
    run_free(&A);
    run_free(&B);
  }
}

static const th_case cases[] = {TH_CASE(rod_at_rest_on_a_mesh_floor), TH_CASE(rod_across_a_mesh_block_matches_the_box)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
