// SPDX-License-Identifier: Apache-2.0
/* Contact geometry against independent references written here:
 * segment-segment and segment-shape distances against brute-force sampling
 * (tolerance: the distance is 1-Lipschitz in the point, so a grid of M
 * parameter values overestimates the minimum by at most |segment| / (2M) and
 * never underestimates it); signed distances against clamping formulas;
 * sdf gradients/Hessians against central differences; a box mesh against the
 * analytic box; mesh files (STL ascii/binary, OBJ) and their error messages. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/quat.h"
#include "harness.h"

static void rnd_vec(th_rng *g, double v[3], double s) {
  for (int k = 0; k < 3; ++k) v[k] = th_rng_uniform(g, -s, s);
}

static double dist3(const double a[3], const double b[3]) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

TEST(segment_segment_vs_sampling) {
  th_rng g;
  th_rng_seed(&g, 1);
  const int M = 400;
  double worst_over = 0.0, worst_under = 0.0;
  for (int c = 0; c < 150; ++c) {
    double p0[3], p1[3], q0[3], q1[3];
    rnd_vec(&g, p0, 1.0);
    rnd_vec(&g, p1, 1.0);
    rnd_vec(&g, q0, 1.0);
    rnd_vec(&g, q1, 1.0);
    if (c % 5 == 1) /* parallel */
      for (int k = 0; k < 3; ++k) q1[k] = q0[k] + 0.7 * (p1[k] - p0[k]);
    if (c % 5 == 2) /* collinear, overlapping or not */
      for (int k = 0; k < 3; ++k) {
        q0[k] = p0[k] + 0.3 * (p1[k] - p0[k]);
        q1[k] = p0[k] + 1.6 * (p1[k] - p0[k]);
      }
    if (c % 5 == 3) memcpy(q1, q0, sizeof q0); /* zero-length */
    if (c % 10 == 4) {
      memcpy(p1, p0, sizeof p0);
      memcpy(q1, q0, sizeof q0);
    }
    double s, u, d = cosrod_segment_segment_closest(&s, &u, p0, p1, q0, q1);
    double pp[3], qq[3];
    for (int k = 0; k < 3; ++k) {
      pp[k] = p0[k] + s * (p1[k] - p0[k]);
      qq[k] = q0[k] + u * (q1[k] - q0[k]);
    }
    double consistency = fabs(dist3(pp, qq) - d);
    double best = DBL_MAX;
    for (int i = 0; i <= M; ++i)
      for (int j = 0; j <= M; ++j) {
        double a[3], b[3];
        for (int k = 0; k < 3; ++k) {
          a[k] = p0[k] + (double)i / M * (p1[k] - p0[k]);
          b[k] = q0[k] + (double)j / M * (q1[k] - q0[k]);
        }
        best = fmin(best, dist3(a, b));
      }
    double bound = (dist3(p0, p1) + dist3(q0, q1)) / (2.0 * M);
    worst_over = fmax(worst_over, (best - d) / (bound + 1e-15));
    worst_under = fmax(worst_under, fmax(d - best, consistency));
  }
  CHECK_LE("sampled min - closest, in units of the Lipschitz bound", worst_over, 1.0);
  CHECK_LE("closest - sampled min and |p(s) - q(u)| - d (never above)", worst_under, 1e-13);
}

/* Independent signed distances by clamping (no closest-feature logic). */
static double ref_box(const double h[3], const double p[3]) {
  double out = 0.0, in = -DBL_MAX;
  for (int k = 0; k < 3; ++k) {
    double e = fabs(p[k]) - h[k];
    out += e > 0 ? e * e : 0.0;
    in = fmax(in, e);
  }
  return out > 0.0 ? sqrt(out) : in;
}
static double ref_cyl(double R, double h, const double p[3]) {
  double rho = hypot(p[0], p[1]);
  if (h <= 0.0) return rho - R;
  double a = rho - R, b = fabs(p[2]) - h;
  if (a > 0 || b > 0) return hypot(fmax(a, 0.0), fmax(b, 0.0));
  return fmax(a, b);
}
static double ref_capsule(double R, double h, const double p[3]) {
  double best = DBL_MAX; /* sampled axis + exact refinement by clamping */
  double z = fmax(-h, fmin(h, p[2]));
  best = sqrt(p[0] * p[0] + p[1] * p[1] + (p[2] - z) * (p[2] - z));
  return best - R;
}

static cosrod_shape shape_of(int type) {
  cosrod_shape s = {
      .type = (cosrod_shape_type)type, .radius = 0.3, .half_length = 0.4, .half = {0.3, 0.5, 0.2}};
  return s;
}

static double ref_sdf(const cosrod_shape *s, const cosrod_pose *pose, const double p[3]) {
  double d[3], l[3];
  cosrod_vec3_sub(d, p, pose->position);
  cosrod_quat_rotate_inv(l, pose->q, d);
  switch (s->type) {
    case COSROD_SHAPE_PLANE:
      return l[2];
    case COSROD_SHAPE_SPHERE:
      return cosrod_vec3_norm(l) - s->radius;
    case COSROD_SHAPE_CYLINDER:
      return ref_cyl(s->radius, s->half_length, l);
    case COSROD_SHAPE_CAPSULE:
      return ref_capsule(s->radius, s->half_length, l);
    case COSROD_SHAPE_BOX:
      return ref_box(s->half, l);
    default:
      return NAN;
  }
}

static void some_pose(cosrod_pose *pose, th_rng *g) {
  cosrod_pose_identity(pose);
  rnd_vec(g, pose->position, 0.2);
  double q[4] = {th_rng_normal(g), th_rng_normal(g), th_rng_normal(g), th_rng_normal(g)};
  cosrod_quat_normalise(pose->q, q);
}

TEST(shape_sdf_vs_clamping_and_fd) {
  th_rng g;
  th_rng_seed(&g, 2);
  double err_val = 0.0, err_grad = 0.0, err_hess = 0.0, err_unit = 0.0;
  for (int type = 0; type < COSROD_SHAPE_MESH; ++type)
    for (int inf = 0; inf < (type == COSROD_SHAPE_CYLINDER ? 2 : 1); ++inf) {
      cosrod_shape s = shape_of(type);
      if (inf) s.half_length = 0.0;
      for (int c = 0; c < 300; ++c) {
        cosrod_pose pose;
        some_pose(&pose, &g);
        double p[3], gr[3], H[9];
        rnd_vec(&g, p, 1.0);
        double phi = cosrod_shape_sdf(gr, H, &s, &pose, p);
        err_val = fmax(err_val, fabs(phi - ref_sdf(&s, &pose, p)));
        err_unit = fmax(err_unit, fabs(cosrod_vec3_norm(gr) - 1.0));
        const double h = 1e-6; /* truncation h^2 |sdf'''| / 6 ~ 1e-12 / dist^2, roundoff 1e-16/h */
        for (int k = 0; k < 3; ++k) {
          double pp[3], pm[3], gp[3], gm[3], Hd[9];
          memcpy(pp, p, sizeof p);
          memcpy(pm, p, sizeof p);
          pp[k] += h;
          pm[k] -= h;
          double fp = cosrod_shape_sdf(gp, Hd, &s, &pose, pp), fm = cosrod_shape_sdf(gm, Hd, &s, &pose, pm);
          err_grad = fmax(err_grad, fabs((fp - fm) / (2 * h) - gr[k]));
          for (int r = 0; r < 3; ++r)
            err_hess = fmax(err_hess, fabs((gp[r] - gm[r]) / (2 * h) - H[r + 3 * k]));
        }
      }
    }
  CHECK_LE("sdf vs clamping formulas (all shapes)", err_val, 1e-14);
  CHECK_LE("|grad sdf| = 1", err_unit, 1e-14);
  CHECK_LE("grad sdf vs central differences", err_grad, 1e-7);
  CHECK_LE("Hessian sdf vs central differences of grad (points off the region boundaries)", err_hess, 1e-5);
}

TEST(segment_shape_vs_sampling) {
  th_rng g;
  th_rng_seed(&g, 3);
  const int M = 20000;
  double worst = 0.0, under = 0.0;
  for (int type = 0; type < COSROD_SHAPE_MESH; ++type)
    for (int c = 0; c < 60; ++c) {
      cosrod_shape s = shape_of(type);
      if (type == COSROD_SHAPE_CYLINDER && c % 2) s.half_length = 0.0;
      cosrod_pose pose;
      some_pose(&pose, &g);
      double a[3], b[3], t;
      rnd_vec(&g, a, 1.0);
      rnd_vec(&g, b, 1.0);
      double d = cosrod_shape_segment_closest(&t, &s, &pose, a, b);
      double best = DBL_MAX;
      for (int i = 0; i <= M; ++i) {
        double p[3];
        for (int k = 0; k < 3; ++k) p[k] = a[k] + (double)i / M * (b[k] - a[k]);
        best = fmin(best, ref_sdf(&s, &pose, p));
      }
      double bound = dist3(a, b) / (2.0 * M);
      worst = fmax(worst, (best - d) / bound);
      under = fmax(under, d - best);
    }
  CHECK_LE("sampled min - closest (units of |b-a|/(2M))", worst, 1.0);
  CHECK_LE("closest never above the sampled minimum", under, 1e-13);
}

/* The box [-h, h] as 12 outward-oriented triangles. */
static cosrod_mesh *box_mesh(const double h[3], int drop_one) {
  double v[24];
  for (int i = 0; i < 8; ++i) {
    v[3 * i] = (i & 1) ? h[0] : -h[0];
    v[3 * i + 1] = (i & 2) ? h[1] : -h[1];
    v[3 * i + 2] = (i & 4) ? h[2] : -h[2];
  }
  int t[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
               2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
  cosrod_mesh *m = cosrod_mesh_create(v, 8, t, drop_one ? 11 : 12, 1, "box", NULL);
  if (!m) NOTE("%s", cosrod_last_error());
  return m;
}

TEST(mesh_box_equals_analytic_box) {
  double h[3] = {0.3, 0.5, 0.2};
  cosrod_mesh *m = box_mesh(h, 0);
  CHECK("box mesh created and closed", m && cosrod_mesh_is_closed(m));
  if (!m) return;
  cosrod_shape sm = {.type = COSROD_SHAPE_MESH, .mesh = m},
               sb = {.type = COSROD_SHAPE_BOX, .half = {h[0], h[1], h[2]}};
  th_rng g;
  th_rng_seed(&g, 4);
  double ev = 0.0, eg = 0.0, es = 0.0;
  for (int c = 0; c < 2000; ++c) {
    cosrod_pose pose;
    some_pose(&pose, &g);
    double p[3], gm[3], gb[3], Hm[9], Hb[9];
    rnd_vec(&g, p, 1.0);
    double dm = cosrod_shape_sdf(gm, Hm, &sm, &pose, p), db = cosrod_shape_sdf(gb, Hb, &sb, &pose, p);
    ev = fmax(ev, fabs(dm - db));
    if (db > 0.0) /* outside the gradient is unique; inside ties between faces are possible */
      for (int k = 0; k < 3; ++k) eg = fmax(eg, fabs(gm[k] - gb[k]));
    double a[3], b[3], t1, t2;
    rnd_vec(&g, a, 1.0);
    rnd_vec(&g, b, 1.0);
    double sdm = cosrod_shape_segment_closest(&t1, &sm, &pose, a, b);
    double sdb = cosrod_shape_segment_closest(&t2, &sb, &pose, a, b);
    if (sdb > 0.0) es = fmax(es, fabs(sdm - sdb)); /* outside: the mesh distance is unsigned */
  }
  CHECK_LE("mesh sdf = box sdf (inside and outside)", ev, 1e-14);
  CHECK_LE("mesh normal = box normal outside", eg, 1e-12);
  CHECK_LE("mesh segment distance = box segment distance (segments outside)", es, 1e-12);
  cosrod_mesh_free(m);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

TEST(mesh_files_and_errors) {
  double h[3] = {0.3, 0.5, 0.2};
  cosrod_mesh *ref = box_mesh(h, 0);
  /* ascii STL and binary STL of the same 12 triangles, OBJ with quads */
  double v[24];
  for (int i = 0; i < 8; ++i) {
    v[3 * i] = (i & 1) ? h[0] : -h[0];
    v[3 * i + 1] = (i & 2) ? h[1] : -h[1];
    v[3 * i + 2] = (i & 4) ? h[2] : -h[2];
  }
  int t[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
               2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
  FILE *fa = fopen("contact_box_a.stl", "w"), *fb = fopen("contact_box_b.stl", "wb");
  fprintf(fa, "solid box\n");
  char head[80] = "binary box";
  fwrite(head, 1, 80, fb);
  unsigned n = 12;
  fwrite(&n, 4, 1, fb);
  for (int i = 0; i < 12; ++i) {
    fprintf(fa, " facet normal 0 0 0\n  outer loop\n");
    float rec[12] = {0};
    for (int c = 0; c < 3; ++c) {
      const double *p = v + 3 * t[3 * i + c];
      fprintf(fa, "   vertex %.17g %.17g %.17g\n", p[0], p[1], p[2]);
      for (int k = 0; k < 3; ++k) rec[3 + 3 * c + k] = (float)p[k];
    }
    fprintf(fa, "  endloop\n endfacet\n");
    fwrite(rec, 4, 12, fb);
    unsigned short attr = 0;
    fwrite(&attr, 2, 1, fb);
  }
  fprintf(fa, "endsolid box\n");
  fclose(fa);
  fclose(fb);
  FILE *fo = fopen("contact_box.obj", "w");
  fprintf(fo, "# box\n");
  for (int i = 0; i < 8; ++i) fprintf(fo, "v %.17g %.17g %.17g\n", v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  /* quads (fanned by the reader) with v/vt/vn forms and a negative index */
  fprintf(fo, "f 1 3 4 2\nf 5/1 6/1 8/1 7/1\nf 1//1 2//1 6//1 5//1\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 -3\n");
  fclose(fo);
  const char *files[3] = {"contact_box_a.stl", "contact_box_b.stl", "contact_box.obj"};
  for (int f = 0; f < 3; ++f) {
    cosrod_mesh *m = cosrod_mesh_load(files[f], 1, NULL);
    if (!m) NOTE("%s", cosrod_last_error());
    CHECK("mesh file loads as a closed 12-triangle box", m && cosrod_mesh_ntriangles(m) == 12);
    if (!m) continue;
    cosrod_shape s1 = {.type = COSROD_SHAPE_MESH, .mesh = m}, s2 = {.type = COSROD_SHAPE_MESH, .mesh = ref};
    cosrod_pose pose;
    cosrod_pose_identity(&pose);
    double e = 0.0;
    th_rng g;
    th_rng_seed(&g, 5);
    for (int c = 0; c < 200; ++c) {
      double p[3];
      rnd_vec(&g, p, 1.0);
      e = fmax(
          e, fabs(cosrod_shape_sdf(NULL, NULL, &s1, &pose, p) - cosrod_shape_sdf(NULL, NULL, &s2, &pose, p)));
    }
    /* binary STL stores floats: 0.3 etc. rounded to 2^-24 relative */
    CHECK_LE("file mesh sdf = array mesh sdf (float rounding for binary STL)", e, f == 1 ? 1e-7 : 1e-15);
    cosrod_mesh_free(m);
  }
  cosrod_mesh *m = cosrod_mesh_load("no_such_mesh.stl", 1, NULL);
  NOTE("%s", cosrod_last_error());
  CHECK("missing file: NULL and a message naming it", !m && strstr(cosrod_last_error(), "no_such_mesh.stl: cannot open"));
  write_text("contact_bad.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 zero\n");
  m = cosrod_mesh_load("contact_bad.stl", 1, NULL);
  NOTE("%s", cosrod_last_error());
  CHECK("parse error: FILE:LINE", !m && strstr(cosrod_last_error(), "contact_bad.stl:4: "));
  write_text("contact_bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
  m = cosrod_mesh_load("contact_bad.obj", 0, NULL);
  NOTE("%s", cosrod_last_error());
  CHECK("OBJ index out of range: FILE:LINE", !m && strstr(cosrod_last_error(), "contact_bad.obj:4: "));
  write_text("contact_open.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n");
  m = cosrod_mesh_load("contact_open.obj", 1, NULL);
  NOTE("%s", cosrod_last_error());
  CHECK("open mesh refused where closed is required", !m && strstr(cosrod_last_error(), "not a closed manifold"));
  m = cosrod_mesh_load("contact_open.obj", 0, NULL);
  CHECK("open mesh accepted otherwise, flagged open", m && !cosrod_mesh_is_closed(m));
  cosrod_mesh_free(m);
  cosrod_mesh *open = box_mesh(h, 1);
  CHECK("box with a missing triangle refused", open == NULL);
  cosrod_mesh_free(ref);
}

/* A box whose faces are split into n x n squares (2400 triangles for n = 10)
 * written as ascii STL: after welding it is closed, and its signed distance
 * (through the bounding-volume hierarchy) is the analytic box's everywhere. */
TEST(fine_mesh_box_through_bvh) {
  const double h[3] = {0.3, 0.5, 0.2};
  const int n = 10;
  FILE *f = fopen("contact_fine_box.stl", "w");
  fprintf(f, "solid fine\n");
  for (int ax = 0; ax < 3; ++ax)
    for (int sg = -1; sg <= 1; sg += 2) {
      int u = (ax + 1) % 3, v = (ax + 2) % 3;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double P[4][3];
          for (int c = 0; c < 4; ++c) {
            int ii = i + (c == 1 || c == 2), jj = j + (c >= 2);
            P[c][ax] = sg * h[ax];
            P[c][u] = -h[u] + 2 * h[u] * ii / n;
            P[c][v] = -h[v] + 2 * h[v] * jj / n;
          }
          /* (u, v, ax) is right-handed: counter-clockwise in (u, v) faces +ax */
          int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
          for (int t = 0; t < 2; ++t) {
            fprintf(f, "facet normal 0 0 0\nouter loop\n");
            for (int c = 0; c < 3; ++c) {
              int cc = sg > 0 ? tri[t][c] : tri[t][2 - c];
              fprintf(f, "vertex %.17g %.17g %.17g\n", P[cc][0], P[cc][1], P[cc][2]);
            }
            fprintf(f, "endloop\nendfacet\n");
          }
        }
    }
  fprintf(f, "endsolid fine\n");
  fclose(f);
  cosrod_mesh *m = cosrod_mesh_load("contact_fine_box.stl", 1, NULL);
  if (!m) NOTE("%s", cosrod_last_error());
  CHECK("fine box: closed, 1200 triangles", m && cosrod_mesh_ntriangles(m) == 12 * n * n);
  if (!m) return;
  cosrod_shape sm = {.type = COSROD_SHAPE_MESH, .mesh = m},
               sb = {.type = COSROD_SHAPE_BOX, .half = {h[0], h[1], h[2]}};
  cosrod_pose pose;
  cosrod_pose_identity(&pose);
  th_rng g;
  th_rng_seed(&g, 9);
  double e = 0.0;
  for (int c = 0; c < 5000; ++c) {
    double p[3];
    rnd_vec(&g, p, 0.8);
    e = fmax(e,
             fabs(cosrod_shape_sdf(NULL, NULL, &sm, &pose, p) - cosrod_shape_sdf(NULL, NULL, &sb, &pose, p)));
  }
  CHECK_LE("fine mesh sdf = box sdf (5000 points inside and outside)", e, 1e-14);
  cosrod_mesh_free(m);
}

static const th_case cases[] = {TH_CASE(fine_mesh_box_through_bvh),    TH_CASE(segment_segment_vs_sampling),
                                TH_CASE(shape_sdf_vs_clamping_and_fd), TH_CASE(segment_shape_vs_sampling),
                                TH_CASE(mesh_box_equals_analytic_box), TH_CASE(mesh_files_and_errors)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
