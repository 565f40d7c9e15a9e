// SPDX-License-Identifier: Apache-2.0
/* Analytic contact Jacobians (dF/dx, dF/dv as 3x3 vertex blocks) against the
 * finite-difference twin cosrod_contact_jac_fd, for every obstacle shape on a
 * moving, rotated pose with damping, for friction in stick and in slip, for
 * crossing rods and for self-contact.
 *
 * Tolerance (central differences with step h): roundoff eps |F| / h plus
 * truncation h^2 |F'''| / 6.  The largest third derivative comes from the
 * onset of the penalty (f'' = k / delta) and the curvature of the shapes
 * (F / rho^2): |F'''| <= k l / delta^2 + |F| / rho_min^2 with l the segment
 * length; the roundoff of a force difference is eps times the largest
 * intermediate, the stiffness times the coordinates: eps (|F| + |K| X) / h with
 * X the coordinate scale.  The bound is evaluated per case, times 10.
 * Configurations avoid nearly parallel rod segments (their closest points are
 * ill-conditioned, see src/contact/contact_eval.c) and stay away from the
 * kinks of the law (p = 0, delta) and of the active sets by more than h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact_test_util.h"
#include "cosrod/quat.h"
#include "harness.h"

#define EPS 2.220446049250313e-16

/* Compare the analytic blocks of rods (ri, rj) with the twin. */
static void compare(const cosrod_contact_model *m, cosrod_contact_data *d, test_rod *rods, int nrods, int ri,
                    int rj, double h, double k, double delta, double l, double rho, const char *what) {
  const double *xs[4], *vs[4];
  double *fs[4];
  for (int r = 0; r < nrods; ++r) {
    xs[r] = rods[r].x;
    vs[r] = rods[r].v;
    fs[r] = rods[r].f;
    test_rod_zero_f(&rods[r]);
  }
  cosrod_contact_eval(m, d, xs, vs, fs, COSROD_CONTACT_JAC);
  size_t act;
  cosrod_contact_counts(d, NULL, &act);
  double fmaxv = 0.0;
  for (int i = 0; i < 3 * rods[ri].nv; ++i) fmaxv = fmax(fmaxv, fabs(rods[ri].f[i]));
  int band_ok = 1;
  for (size_t b = 0; b < cosrod_contact_nblocks(d); ++b) {
    const cosrod_contact_block *B = cosrod_contact_blocks(d) + b;
    if (B->band && (B->rod_i != B->rod_j || abs(B->vertex_i - B->vertex_j) > 1)) band_ok = 0;
  }
  size_t nblocks = cosrod_contact_nblocks(d);
  double X = 0.3; /* coordinates and shape sizes are below 0.3 m */
  size_t n = 3 * (size_t)rods[ri].nv * 3 * (size_t)rods[rj].nv;
  double *K = calloc(n, sizeof(double)), *D = calloc(n, sizeof(double));
  double *Kf = calloc(n, sizeof(double)), *Df = calloc(n, sizeof(double));
  cosrod_contact_jac_dense(m, d, ri, rj, K, D);
  cosrod_contact_jac_fd(m, d, xs, vs, ri, rj, h, Kf, Df);
  double eK = 0.0, eD = 0.0, nK = 0.0, nD = 0.0;
  for (size_t i = 0; i < n; ++i) {
    eK = fmax(eK, fabs(K[i] - Kf[i]));
    eD = fmax(eD, fabs(D[i] - Df[i]));
    nK = fmax(nK, fabs(K[i]));
    nD = fmax(nD, fabs(D[i]));
  }
  double F3 = k * l / (delta * delta) + fmaxv / (rho * rho);
  double tolK = 10.0 * (EPS * (fmaxv + nK * X) / h + h * h * F3 / 6.0);
  double tolD = 10.0 * (EPS * (fmaxv + nK * X) / h + h * h * F3 / 6.0); /* velocities are O(1) m/s */
  char lab[160];
  NOTE("%s: %zu active, %zu blocks, max|K| %.3g, max|D| %.3g", what, act, nblocks, nK, nD);
  snprintf(lab, sizeof lab, "%s: contact active", what);
  CHECK(lab, act > 0 && nK > 0.0);
  snprintf(lab, sizeof lab, "%s: dF/dx vs FD (tol eps F/h + h^2 F'''/6, x10)", what);
  CHECK_LE(lab, eK, tolK);
  snprintf(lab, sizeof lab, "%s: dF/dv vs FD", what);
  CHECK_LE(lab, eD, tolD);
  snprintf(lab, sizeof lab, "%s: band blocks couple the two vertices of one segment", what);
  CHECK(lab, band_ok);
  free(K);
  free(D);
  free(Kf);
  free(Df);
}

/* Pose derivatives (Kc, Kr, Dv, Dw) of rod 0 w.r.t. obstacle 0 vs the twin;
 * same tolerance form as compare (rotation steps move points by h |x - c|). */
static void compare_pose(const cosrod_contact_model *m, cosrod_contact_data *d, test_rod *rod, double h,
                         double k, double delta, double l, double rho, const char *what) {
  test_rod_zero_f(rod);
  cosrod_contact_eval(m, d, (const double *const[]){rod->x}, (const double *const[]){rod->v},
                      (double *const[]){rod->f}, COSROD_CONTACT_JAC);
  size_t n = 3 * (size_t)rod->nv * 12;
  double *J = calloc(n, sizeof(double)), *Jf = calloc(n, sizeof(double)), fmaxv = 0.0, nJ = 0.0, e = 0.0;
  for (int i = 0; i < 3 * rod->nv; ++i) fmaxv = fmax(fmaxv, fabs(rod->f[i]));
  cosrod_contact_pose_jac_dense(d, 0, 0, rod->nv, J);
  cosrod_contact_pose_jac_fd(m, d, (const double *const[]){rod->x}, (const double *const[]){rod->v}, 0, 0, h,
                             Jf);
  for (size_t i = 0; i < n; ++i) {
    e = fmax(e, fabs(J[i] - Jf[i]));
    nJ = fmax(nJ, fabs(J[i]));
  }
  double X = 0.3, F3 = k * l / (delta * delta) + fmaxv / (rho * rho);
  double tol = 10.0 * (EPS * (fmaxv + nJ * X) / h + h * h * F3 / 6.0);
  char lab[160];
  snprintf(lab, sizeof lab, "%s: pose Jacobian (position, rotation, v, omega) vs FD, max|J| %.3g", what, nJ);
  CHECK_LE(lab, e, tol);
  free(J);
  free(Jf);
}

static void random_pose(cosrod_pose *p, th_rng *g) {
  cosrod_pose_identity(p);
  double q[4] = {th_rng_normal(g), th_rng_normal(g), th_rng_normal(g), th_rng_normal(g)};
  cosrod_quat_normalise(p->q, q);
  for (int k = 0; k < 3; ++k) {
    p->v[k] = th_rng_uniform(g, -0.3, 0.3);
    p->omega[k] = th_rng_uniform(g, -2.0, 2.0);
  }
}

/* A rod of 7 vertices passing through the shape's surface near point c with
 * outward normal nrm: half of it penetrates by up to 0.3 delta .. 3 delta. */
TEST(obstacle_jacobians_all_shapes) {
  double r = 0.01, k = 1e5, delta = 1e-3, c = 40.0, l = 0.02;
  double vb[24];
  for (int i = 0; i < 8; ++i) {
    vb[3 * i] = (i & 1) ? 0.1 : -0.1;
    vb[3 * i + 1] = (i & 2) ? 0.15 : -0.15;
    vb[3 * i + 2] = (i & 4) ? 0.08 : -0.08;
  }
  int tb[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
  cosrod_mesh *mesh = cosrod_mesh_create(vb, 8, tb, 12, 1, "box", NULL);
  cosrod_shape shapes[7] = {
      {.type = COSROD_SHAPE_PLANE},
      {.type = COSROD_SHAPE_SPHERE, .radius = 0.1},
      {.type = COSROD_SHAPE_CYLINDER, .radius = 0.1, .half_length = 0.1},
      {.type = COSROD_SHAPE_CYLINDER, .radius = 0.1},
      {.type = COSROD_SHAPE_CAPSULE, .radius = 0.05, .half_length = 0.1},
      {.type = COSROD_SHAPE_BOX, .half = {0.1, 0.15, 0.08}},
      {.type = COSROD_SHAPE_MESH, .mesh = mesh},
  };
  const char *names[7] = {"plane", "sphere", "cylinder", "infinite cylinder", "capsule", "box", "mesh box"};
  /* local surface points (with outward normals) to drape the rod over */
  double at[7][3] = {{0, 0, 0},      {0, 0.06, 0.08},   {0.1, 0, 0.1},    {0.06, 0.08, 0},
                     {0, 0.05, 0.1}, {0.1, 0.15, 0.02}, {0.1, 0.02, 0.08}};
  th_rng g;
  th_rng_seed(&g, 11);
  for (int s = 0; s < 7; ++s) {
    cosrod_contact_obstacle ob = {.shape = shapes[s]};
    random_pose(&ob.pose, &g);
    test_rod rod;
    double pw[3], nw[3], t1[3];
    cosrod_quat_rotate(pw, ob.pose.q, at[s]);
    cosrod_vec3_add(pw, pw, ob.pose.position);
    cosrod_shape_sdf(nw, NULL, &ob.shape, &ob.pose, pw);
    double any[3] = {0.3, -0.5, 0.8};
    cosrod_vec3_cross(t1, nw, any);
    cosrod_vec3_scale(t1, 1.0 / cosrod_vec3_norm(t1), t1);
    double a[3];
    for (int k3 = 0; k3 < 3; ++k3) a[k3] = pw[k3] + (r - 1.5 * delta) * nw[k3] - 3 * l * t1[k3];
    test_rod_line(&rod, 7, a, t1, l);
    for (int i = 0; i < 21; ++i) {
      rod.x[i] += th_rng_uniform(&g, -0.5 * delta, 0.5 * delta);
      rod.v[i] = th_rng_uniform(&g, -0.5, 0.5);
    }
    cosrod_contact_rod cr = test_contact_rod(&rod, r, 0, 0);
    cosrod_contact_def def = {.nrods = 1,
                              .rods = &cr,
                              .nobstacles = 1,
                              .obstacles = &ob,
                              .law = {.stiffness = k, .onset = delta, .damping = c},
                              .quadrature = 3};
    cosrod_contact_model *m;
    cosrod_contact_data *d;
    m = cosrod_contact_model_create(&def, NULL);
    d = cosrod_contact_data_create(m, NULL);
    compare(m, d, &rod, 1, 0, 0, 1e-7, k, delta, l, 0.01, names[s]);
    compare_pose(m, d, &rod, 1e-7, k, delta, l, 0.01, names[s]);
    cosrod_contact_data_free(d);
    cosrod_contact_model_free(m);
    test_rod_free(&rod);
  }
  cosrod_mesh_free(mesh);
}

/* Friction on a sphere and a tilted plane: anchors committed, then the rod
 * moved a little (stick) or far (slip) tangentially. */
TEST(friction_jacobians_stick_and_slip) {
  double r = 0.01, k = 1e5, delta = 1e-3, l = 0.02;
  th_rng g;
  th_rng_seed(&g, 12);
  for (int s = 0; s < 2; ++s)
    for (int slip = 0; slip < 2; ++slip) {
      cosrod_contact_obstacle ob = {
          .shape = {.type = s ? COSROD_SHAPE_SPHERE : COSROD_SHAPE_PLANE, .radius = 0.2}};
      random_pose(&ob.pose, &g);
      cosrod_vec3_zero(ob.pose.v);
      cosrod_vec3_zero(ob.pose.omega);
      double top[3] = {0, 0, s ? 0.2 : 0.0}, pw[3], nw[3], t1[3], any[3] = {0.3, -0.5, 0.8};
      cosrod_quat_rotate(pw, ob.pose.q, top);
      cosrod_vec3_add(pw, pw, ob.pose.position);
      cosrod_shape_sdf(nw, NULL, &ob.shape, &ob.pose, pw);
      cosrod_vec3_cross(t1, nw, any);
      cosrod_vec3_scale(t1, 1.0 / cosrod_vec3_norm(t1), t1);
      double a[3];
      for (int k3 = 0; k3 < 3; ++k3) a[k3] = pw[k3] + (r - 2.0 * delta) * nw[k3] - 3 * l * t1[k3];
      test_rod rod;
      test_rod_line(&rod, 7, a, t1, l);
      cosrod_contact_rod cr = test_contact_rod(&rod, r, 0, 0);
      cosrod_contact_def def = {
          .nrods = 1,
          .rods = &cr,
          .nobstacles = 1,
          .obstacles = &ob,
          .law = {.stiffness = k, .onset = delta, .damping = -1, .mu_static = 0.5, .mu_kinetic = 0.3}};
      cosrod_contact_model *m;
      cosrod_contact_data *d;
      m = cosrod_contact_model_create(&def, NULL);
      d = cosrod_contact_data_create(m, NULL);
      cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f}, 0);
      cosrod_contact_commit(m, d);
      /* stick limit of the tangential spring: mu f / k_t ~ 0.5 * 1.5 delta */
      double shift = slip ? 5.0 * delta : 0.02 * delta, b[3];
      cosrod_vec3_cross(b, nw, t1);
      for (int i = 0; i < 7; ++i)
        for (int k3 = 0; k3 < 3; ++k3)
          rod.x[3 * i + k3] += shift * (0.6 * t1[k3] + 0.8 * b[k3]) + th_rng_uniform(&g, -1e-6, 1e-6);
      test_rod_zero_f(&rod);
      cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f}, 0);
      int nslip = 0;
      for (size_t i = 0; i < cosrod_contact_npoints(d); ++i) nslip += cosrod_contact_points(d)[i].slip;
      char what[64];
      snprintf(what, sizeof what, "%s friction %s", s ? "sphere" : "plane", slip ? "slip" : "stick");
      CHECK(slip ? "all points slip" : "no point slips",
            slip ? nslip == (int)cosrod_contact_npoints(d) : nslip == 0);
      compare(m, d, &rod, 1, 0, 0, 1e-8, k, delta, l, 0.2, what);
      compare_pose(m, d, &rod, 1e-8, k, delta, l, 0.2, what);
      cosrod_contact_data_free(d);
      cosrod_contact_model_free(m);
      test_rod_free(&rod);
    }
}

TEST(rod_rod_jacobians) {
  double r = 0.004, k = 2e5, delta = 1e-3, c = 30.0;
  test_rod rods[2];
  double d1[3] = {0.8, 0.0, 0.6}, d2[3] = {0.3, 0.9, -0.1};
  cosrod_vec3_scale(d2, 1.0 / cosrod_vec3_norm(d2), d2);
  test_rod_line(&rods[0], 6, (double[3]){-0.2 * 0.8 + 0.003, 0.0, -0.2 * 0.6}, d1, 0.08);
  test_rod_line(&rods[1], 6, (double[3]){-0.2 * 0.3, -0.2 * 0.9 + 0.0041, 0.2 * 0.1 + 2 * r - 1.7 * delta},
                d2, 0.08);
  th_rng g;
  th_rng_seed(&g, 13);
  for (int q = 0; q < 2; ++q)
    for (int i = 0; i < 18; ++i) rods[q].v[i] = th_rng_uniform(&g, -0.5, 0.5);
  cosrod_contact_rod cr[2] = {test_contact_rod(&rods[0], r, 0, 0), test_contact_rod(&rods[1], r, 0, 0)};
  cosrod_contact_def def = {.nrods = 2,
                            .rods = cr,
                            .rods_contact = 1,
                            .law = {.stiffness = k,
                                    .onset = delta,
                                    .damping = c,
                                    .mu_static = 0.5,
                                    .mu_kinetic = 0.4,
                                    .stick_velocity = 0.05}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  double l = 0.08;
  compare(m, d, rods, 2, 0, 0, 1e-8, k * l, delta, l, 0.01, "rod-rod (0,0)");
  compare(m, d, rods, 2, 0, 1, 1e-8, k * l, delta, l, 0.01, "rod-rod (0,1)");
  compare(m, d, rods, 2, 1, 0, 1e-8, k * l, delta, l, 0.01, "rod-rod (1,0)");
  compare(m, d, rods, 2, 1, 1, 1e-8, k * l, delta, l, 0.01, "rod-rod (1,1)");
  cosrod_contact_eval(m, d, (const double *const[]){rods[0].x, rods[1].x},
                      (const double *const[]){rods[0].v, rods[1].v}, (double *const[]){rods[0].f, rods[1].f},
                      COSROD_CONTACT_JAC);
  size_t nb = cosrod_contact_nblocks(d), off = 0;
  for (size_t b = 0; b < nb; ++b) off += !cosrod_contact_blocks(d)[b].band;
  CHECK("rod-rod couples far vertices: 8 of 16 blocks off the band", off == 8 && nb == 16);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&rods[0]);
  test_rod_free(&rods[1]);
}

TEST(self_contact_jacobian) {
  /* a loop crossing itself (prolate cycloid x = R (t - 2 sin t), y = -2 R cos t,
   * crossing at t = -+1.8955 (t = 2 sin t) at about 98 degrees) with a rising
   * z so that the branches overlap by 1.5 delta at the crossing */
  double r = 0.004, R = 0.02, k = 1e5, delta = 1e-3, t0 = -2.6, t1 = 2.6;
  double hz = (2 * r - 1.5 * delta) / (2 * 1.8954942670339809);
  int nv = 61;
  test_rod h;
  test_rod_line(&h, nv, (double[3]){0, 0, 0}, (double[3]){1, 0, 0}, 1.0);
  th_rng g;
  th_rng_seed(&g, 14);
  for (int i = 0; i < nv; ++i) {
    double t = t0 + (t1 - t0) * (i + 0.37 * (i > 0 && i < nv - 1)) / (nv - 1);
    h.x[3 * i] = R * (t - 2 * sin(t));
    h.x[3 * i + 1] = -2 * R * cos(t);
    h.x[3 * i + 2] = hz * t;
    for (int k3 = 0; k3 < 3; ++k3) h.v[3 * i + k3] = th_rng_uniform(&g, -0.5, 0.5);
    h.sref[i] = i == 0 ? 0.0
                       : h.sref[i - 1] + sqrt(pow(h.x[3 * i] - h.x[3 * i - 3], 2) +
                                              pow(h.x[3 * i + 1] - h.x[3 * i - 2], 2) +
                                              pow(h.x[3 * i + 2] - h.x[3 * i - 1], 2));
  }
  cosrod_contact_rod cr = test_contact_rod(&h, r, 0, 0);
  cosrod_contact_def def = {.nrods = 1,
                            .rods = &cr,
                            .self_contact = 1,
                            .law = {.stiffness = k,
                                    .onset = delta,
                                    .damping = 20.0,
                                    .mu_static = 0.3,
                                    .mu_kinetic = 0.3,
                                    .stick_velocity = 0.2}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  double l = h.sref[nv - 1] / (nv - 1);
  compare(m, d, &h, 1, 0, 0, 1e-8, k * l, delta, l, 2 * r, "self-contact loop");
  cosrod_contact_eval(m, d, (const double *const[]){h.x}, (const double *const[]){h.v},
                      (double *const[]){h.f}, COSROD_CONTACT_JAC);
  size_t off = 0;
  for (size_t b = 0; b < cosrod_contact_nblocks(d); ++b) off += !cosrod_contact_blocks(d)[b].band;
  NOTE("self-contact: %zu of %zu blocks off the band (sparse pattern)", off, cosrod_contact_nblocks(d));
  CHECK("self-contact couples far vertices", off > 0);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&h);
}

static const th_case cases[] = {TH_CASE(obstacle_jacobians_all_shapes),
                                TH_CASE(friction_jacobians_stick_and_slip), TH_CASE(rod_rod_jacobians),
                                TH_CASE(self_contact_jacobian)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
