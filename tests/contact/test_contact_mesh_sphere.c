// SPDX-License-Identifier: Apache-2.0
/* A triangulated sphere against the analytic sphere: a rod draped over the
 * top of a sphere of radius R (a circular arc of 120 degrees concentric with
 * it, its axis at R + r - p: penetration p) is pressed by the same law into
 * (a) the analytic sphere and (b) icospheres written by this test as OBJ
 * files (icosahedron, each level splits every triangle into four and
 * projects the new vertices onto the sphere), loaded with cosrod_mesh_load.
 * The facets lie inside the sphere by the chord error (sagitta) h^2 / (8 R)
 * at most, h the edge length, so the mesh penetration is smaller by
 * O(h^2) and, on the linear branch of the penalty law, the total normal force
 * by k L O(h^2): halving h (one level) divides the difference by 4.  Checked:
 * the observed order log2(e_l / e_l+1) between levels 3..6 is 2 within 0.3
 * (the rod crosses the facets at different places on each level) and the
 * difference is below k L h^2 / (8 R), the largest sagitta times k L. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact_test_util.h"
#include "cosrod/contact.h"
#include "cosrod/quat.h"
#include "harness.h"

static const double PI = 3.14159265358979323846;

typedef struct icosa {
  double *v;
  int *t, nv, nt;
} icosa;

/* Index of the midpoint vertex of edge (a, b), created once (linear search
 * over a small per-vertex list is enough for these sizes: an edge map). */
static int midpoint(icosa *m, int *emap, int a, int b, double R) {
  int lo = a < b ? a : b, hi = a < b ? b : a;
  for (int k = 0; k < 6; k++) {
    int *e = emap + 12 * lo + 2 * k;
    if (e[0] == hi) return e[1];
    if (e[0] < 0) {
      double *p = m->v + 3 * m->nv, n = 0;
      for (int c = 0; c < 3; c++) p[c] = 0.5 * (m->v[3 * lo + c] + m->v[3 * hi + c]), n += p[c] * p[c];
      for (int c = 0; c < 3; c++) p[c] *= R / sqrt(n);
      e[0] = hi, e[1] = m->nv;
      return m->nv++;
    }
  }
  return -1;
}

static icosa icosphere(int level, double R) {
  const double ph = (1 + sqrt(5.0)) / 2;
  const double v0[12][3] = {{-1, ph, 0}, {1, ph, 0}, {-1, -ph, 0}, {1, -ph, 0}, {0, -1, ph}, {0, 1, ph},
                            {0, -1, -ph}, {0, 1, -ph}, {ph, 0, -1}, {ph, 0, 1}, {-ph, 0, -1}, {-ph, 0, 1}};
  const int t0[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                         {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                         {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  int nt = 20 << (2 * level), nv = 10 * (1 << (2 * level)) + 2;
  icosa m = {malloc(3 * (size_t)nv * sizeof(double)), malloc(3 * (size_t)nt * sizeof(int)), 12, 20};
  for (int i = 0; i < 12; i++)
    for (int c = 0; c < 3; c++) m.v[3 * i + c] = v0[i][c] * R / sqrt(1 + ph * ph);
  memcpy(m.t, t0, sizeof t0);
  for (int l = 0; l < level; l++) {
    int *emap = malloc(12 * (size_t)nv * sizeof(int)), *t = malloc(12 * (size_t)m.nt * sizeof(int));
    for (int i = 0; i < 12 * nv; i++) emap[i] = -1;
    for (int f = 0; f < m.nt; f++) {
      int a = m.t[3 * f], b = m.t[3 * f + 1], c = m.t[3 * f + 2];
      int ab = midpoint(&m, emap, a, b, R), bc = midpoint(&m, emap, b, c, R), ca = midpoint(&m, emap, c, a, R);
      int q[12] = {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca};
      memcpy(t + 12 * f, q, sizeof q);
    }
    free(emap);
    free(m.t);
    m.t = t, m.nt *= 4;
  }
  return m;
}

/* Write m as OBJ; returns 0 on success. */
static int write_obj(const icosa *m, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "# icosphere written by test_contact_mesh_sphere\n");
  for (int i = 0; i < m->nv; i++) fprintf(f, "v %.17g %.17g %.17g\n", m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
  for (int i = 0; i < m->nt; i++) fprintf(f, "f %d %d %d\n", m->t[3 * i] + 1, m->t[3 * i + 1] + 1, m->t[3 * i + 2] + 1);
  return fclose(f);
}

/* Total normal force of the draped arc against obstacle ob. */
static double draped_force(const cosrod_contact_obstacle *ob, double R, double r, double p, double k, int N) {
  test_rod rod;
  double rho = R + r - p, th = PI / 3, ds = 2 * th * rho / N;
  test_rod_line(&rod, N + 1, (double[3]){0, 0, 0}, (double[3]){1, 0, 0}, ds);
  for (int i = 0; i <= N; i++) {
    double a = -th + 2 * th * i / N;
    cosrod_vec3_set(rod.x + 3 * i, rho * sin(a), 0.0, rho * cos(a));
  }
  cosrod_contact_rod cr = test_contact_rod(&rod, r, 0, 0);
  cosrod_contact_def def = {.nrods = 1, .rods = &cr, .nobstacles = 1, .obstacles = ob, .quadrature = 3,
                            .law = {.stiffness = k, .onset = 1e-6, .damping = -1}};
  cosrod_contact_model *m = cosrod_contact_model_create(&def, NULL);
  cosrod_contact_data *d = m ? cosrod_contact_data_create(m, NULL) : NULL;
  double F = NAN;
  if (d && cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f}, 0) == COSROD_OK) {
    F = 0;
    for (size_t i = 0; i < cosrod_contact_npoints(d); i++) F += cosrod_contact_points(d)[i].fn;
  } else {
    NOTE("contact model: %s", cosrod_last_error());
  }
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&rod);
  return F;
}

TEST(icosphere_converges_like_the_chord_error) {
  const double R = 0.5, r = 0.01, p = 0.005, k = 1e5;
  const int N = 200;
  cosrod_contact_obstacle sph = {.shape = {.type = COSROD_SHAPE_SPHERE, .radius = R}};
  cosrod_pose_identity(&sph.pose);
  const double F0 = draped_force(&sph, R, r, p, k, N), Larc = 2 * PI / 3 * (R + r - p);
  NOTE("analytic sphere: F = %.9g N (k (p - delta/2) L over the arc's axis length: %.9g N)", F0,
       k * (p - 0.5e-6) * Larc);
  double e[7] = {0};
  for (int l = 3; l <= 6; l++) {
    icosa ic = icosphere(l, R);
    char path[64];
    snprintf(path, sizeof path, "icosphere_%d.obj", l);
    CHECK("OBJ written", write_obj(&ic, path) == 0);
    cosrod_mesh *mesh = cosrod_mesh_load(path, 1, NULL);
    if (!mesh) NOTE("%s", cosrod_last_error());
    CHECK("icosphere loads as a closed mesh", mesh != NULL);
    double h = 0; /* longest edge */
    for (int f = 0; f < ic.nt; f++)
      for (int j = 0; j < 3; j++) {
        const double *a = ic.v + 3 * ic.t[3 * f + j], *b = ic.v + 3 * ic.t[3 * f + (j + 1) % 3];
        h = fmax(h, sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])));
      }
    if (mesh) {
      cosrod_contact_obstacle ob = {.shape = {.type = COSROD_SHAPE_MESH, .mesh = mesh}};
      cosrod_pose_identity(&ob.pose);
      double F = draped_force(&ob, R, r, p, k, N);
      e[l] = fabs(F - F0);
      double bound = k * Larc * h * h / (8 * R);
      NOTE("level %d: %d triangles, longest edge %.4g m, F = %.9g N, |F - F_sphere| = %.4g N (k L h^2/8R = %.4g)%s", l,
           ic.nt, h, F, e[l], bound, l > 3 ? "" : "");
      CHECK("difference below the largest chord error times k L", e[l] <= bound);
      if (l > 3) {
        double order = log2(e[l - 1] / e[l]);
        NOTE("  observed order %.3f", order);
        CHECK("O(h^2): observed order 2 within 0.3", fabs(order - 2) <= 0.3);
      }
      cosrod_mesh_free(mesh);
    }
    remove(path);
    free(ic.v);
    free(ic.t);
  }
}

static const th_case cases[] = {TH_CASE(icosphere_converges_like_the_chord_error)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
