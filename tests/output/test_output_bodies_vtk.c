// SPDX-License-Identifier: Apache-2.0
/* Bodies in the VTK series (vtk.c, out_vtk_bodies): with ellipsoid
 * geometry (cfg.body_semi_axes) each body is its centre (vertex cell), three
 * frame axes (line cells from the centre to x + 1.5 max(a) d_k) and its
 * ellipsoid (VTK_NLAT = 8 bands x VTK_NLON = 12 meridians: 86 points, 168
 * triangles).  Checks: well-formed XML, the counts in the Piece header
 * against the connectivity / offsets / data arrays actually written, every
 * index in range, the surface points on the ellipsoid (x - c)^T A^-2 (x - c)
 * = 1 in the body's principal frame, outward triangle normals, and the axis
 * tips along the directors of q. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/output.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "harness.h"
#include "outtest.h"

/* Numbers of the DataArray `name` found after `after` (NULL: from the start). */
static int vtp_numbers(const char *text, const char *after, const char *name, double *v, int max) {
  const char *p = after ? strstr(text, after) : text;
  if (!p) return -1;
  char pat[64];
  snprintf(pat, sizeof pat, "Name=\"%s\"", name);
  p = strstr(p, pat);
  if (!p) return -1;
  p = strchr(p, '>') + 1;
  const char *end = strstr(p, "</DataArray>");
  int n = 0;
  while (n < max && p < end) {
    char *e;
    double x = strtod(p, &e);
    if (e == p) break;
    v[n++] = x;
    p = e;
  }
  return n;
}

static long header_count(const char *text, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "%s=\"", key);
  const char *p = strstr(text, pat);
  return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

#define NB 2
#define PP 90 /* points per body: centre, 3 axis tips, 86 ellipsoid points */
#define NT 168

TEST(bodies_vtk_ellipsoid_polydata) {
  char *dir = ot_mkdtemp("bvtk");
  const char *names[NB] = {"a", "b"};
  const double semi[3 * NB] = {0.5, 1.0, 2.0, 0.3, 0.3, 0.1};
  double axes[4 * NB] = {1, 0, 0, 0, 0, 0, 0, 0};
  cosrod_quat_from_axis_angle(axes + 4, (double[3]){0.0, 1.0, 1.0}, 0.7); /* principal axes of body b */
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.files = COSROD_OUTPUT_BODIES;
  cfg.vtk = 1;
  cfg.plots = 0;
  cfg.nbodies = NB;
  cfg.body_names = names;
  cfg.body_semi_axes = semi;
  cfg.body_axes = axes;
  cfg.t_end = 1.0;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  CHECK("create", out && st == COSROD_OK);
  if (!out) return;
  double x[3 * NB] = {1.0, 2.0, 3.0, -1.0, 0.5, 0.0}, q[4 * NB], Om[3 * NB] = {1, 2, 3, 4, 5, 6};
  double th0[3] = {0.3, 0.9, -0.4}, th1[3] = {1.1, 0.4, 2.0};
  cosrod_quat_from_euler313(q, th0);
  cosrod_quat_from_euler313(q + 4, th1);
  CHECK("frame", cosrod_output_frame_begin(out, 0.25) == COSROD_OK);
  for (size_t b = 0; b < NB; ++b)
    CHECK("write body", cosrod_output_write_body(out, b, x + 3 * b, q + 4 * b, Om + 3 * b, Om + 3 * b, 0.0, 0.0) == COSROD_OK);
  CHECK("frame end", cosrod_output_frame_end(out) == COSROD_OK);
  CHECK("close", cosrod_output_close(out, NULL) == COSROD_OK);
  cosrod_output_free(out);

  char vtk[1024], err[160];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  char *text = ot_read(ot_path(vtk, "bodies_000000.vtp"), NULL);
  CHECK("bodies file exists", text != NULL);
  if (!text) return;
  CHECK("well-formed XML", xml_wellformed(text, err, sizeof err));
  CHECK_NEAR("NumberOfPoints", header_count(text, "NumberOfPoints"), NB * PP, 0);
  CHECK_NEAR("NumberOfVerts", header_count(text, "NumberOfVerts"), NB, 0);
  CHECK_NEAR("NumberOfLines", header_count(text, "NumberOfLines"), 3 * NB, 0);
  CHECK_NEAR("NumberOfPolys", header_count(text, "NumberOfPolys"), NT * NB, 0);

  static double pts[3 * NB * PP + 8], buf[3 * NB * NT + 8], off[NB * NT + 8];
  CHECK_NEAR("Points tuples", vtp_numbers(text, NULL, "Points", pts, 3 * NB * PP + 8), 3 * NB * PP, 0);
  /* point data: one tuple per point */
  static const char *const pd[6] = {"body", "q", "Omega", "d1", "d2", "d3"};
  static const int pc[6] = {1, 4, 3, 3, 3, 3};
  for (int a = 0; a < 6; ++a) {
    static double tmp[4 * NB * PP + 8];
    CHECK_NEAR(pd[a], vtp_numbers(text, "<PointData", pd[a], tmp, 4 * NB * PP + 8), pc[a] * NB * PP, 0);
  }
  CHECK_NEAR("CellData body: one per cell", vtp_numbers(text, "<CellData", "body", buf, 3 * NB * NT),
             NB * (1 + 3 + NT), 0);
  CHECK_NEAR("CellData part: one per cell", vtp_numbers(text, "<CellData", "part", buf, 3 * NB * NT),
             NB * (1 + 3 + NT), 0);
  /* verts, lines, polys: connectivity length = offsets[last], indices in range */
  static const char *const sec[3] = {"<Verts>", "<Lines>", "<Polys>"};
  static const int per[3] = {1, 2, 3}, ncell[3] = {NB, 3 * NB, NT * NB};
  for (int s = 0; s < 3; ++s) {
    int nconn = vtp_numbers(text, sec[s], "connectivity", buf, 3 * NB * NT + 8);
    int noff = vtp_numbers(text, sec[s], "offsets", off, NB * NT + 8);
    CHECK_NEAR("offsets: one per cell", noff, ncell[s], 0);
    CHECK_NEAR("connectivity length", nconn, per[s] * ncell[s], 0);
    int bad = 0;
    for (int i = 0; i < noff; ++i) bad += off[i] != per[s] * (i + 1);
    for (int i = 0; i < nconn; ++i) bad += buf[i] < 0 || buf[i] >= NB * PP || buf[i] != floor(buf[i]);
    CHECK_NEAR("bad offsets or indices", bad, 0, 0);
  }
  /* geometry: ellipsoid points, outward triangles, axis tips */
  double emax = 0.0, tipmax = 0.0;
  for (int b = 0; b < NB; ++b) {
    double qa[4], qi[4];
    cosrod_quat_mul(qa, q + 4 * b, axes + 4 * b); /* principal frame in space */
    cosrod_quat_conj(qi, qa);
    for (int j = 4; j < PP; ++j) {
      double r[3], l[3];
      cosrod_vec3_sub(r, pts + 3 * (b * PP + j), x + 3 * b);
      cosrod_quat_rotate(l, qi, r);
      double f = 0.0;
      for (int k = 0; k < 3; ++k) f += l[k] * l[k] / (semi[3 * b + k] * semi[3 * b + k]);
      emax = fmax(emax, fabs(f - 1.0));
    }
    double amax = fmax(semi[3 * b], fmax(semi[3 * b + 1], semi[3 * b + 2]));
    for (int k = 0; k < 3; ++k) {
      double d[3], want[3];
      cosrod_quat_director(d, q + 4 * b, k);
      for (int c = 0; c < 3; ++c) want[c] = x[3 * b + c] + 1.5 * amax * d[c];
      for (int c = 0; c < 3; ++c) tipmax = fmax(tipmax, fabs(pts[3 * (b * PP + 1 + k) + c] - want[c]));
    }
  }
  CHECK_LE("surface points on the ellipsoid: max |x^T A^-2 x - 1|", emax, 1e-12);
  CHECK_LE("axis tips at x + 1.5 max(a) d_k", tipmax, 1e-12);
  vtp_numbers(text, "<Polys>", "connectivity", buf, 3 * NB * NT + 8);
  int inward = 0;
  for (int c = 0; c < NB * NT; ++c) {
    const double *A = pts + 3 * (int)buf[3 * c], *B = pts + 3 * (int)buf[3 * c + 1],
                 *C = pts + 3 * (int)buf[3 * c + 2];
    int b = (int)buf[3 * c] / PP;
    double u[3], v[3], n[3], g[3];
    cosrod_vec3_sub(u, B, A);
    cosrod_vec3_sub(v, C, A);
    cosrod_vec3_cross(n, u, v);
    for (int k = 0; k < 3; ++k) g[k] = (A[k] + B[k] + C[k]) / 3.0 - x[3 * b + k];
    inward +=
        !(cosrod_vec3_dot(n, g) > 0.0) || (int)buf[3 * c + 1] / PP != b || (int)buf[3 * c + 2] / PP != b;
  }
  CHECK_NEAR("triangles not outward or spanning two bodies", inward, 0, 0);
  free(text);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(bodies_vtk_ellipsoid_polydata)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
