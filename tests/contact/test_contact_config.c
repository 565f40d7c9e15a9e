// SPDX-License-Identifier: Apache-2.0
/* Contact configurations against independent references: crossing rods
 * transmit equal and opposite forces with zero net moment (and regularised
 * friction when sliding); the broad phase finds exactly the pairs of an
 * O(N^2) loop written here; the self-contact exclusion on tight arcs; a thin
 * feature between Gauss points is reported; capstan geometry of a string
 * over a cylinder (equilibrium solved here with the analytic Jacobian). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact_test_util.h"
#include "cosrod/quat.h"
#include "harness.h"

TEST(crossing_rods_equal_and_opposite) {
  double r = 0.004, p0 = 3e-4, k = 2e5, delta = 1e-4;
  test_rod A, B;
  test_rod_line(&A, 11, (double[3]){-0.513, 0.0021, 0.0}, (double[3]){1, 0, 0}, 0.1);
  double dir[3] = {0.3, 1.0, 0.0};
  cosrod_vec3_scale(dir, 1.0 / cosrod_vec3_norm(dir), dir);
  test_rod_line(&B, 9, (double[3]){-0.3 * 0.437 / 1.0 + 0.0007, -0.437, 2 * r - p0}, dir, 0.1);
  cosrod_contact_rod cr[2] = {test_contact_rod(&A, r, 0, 0), test_contact_rod(&B, r, 0, 0)};
  cosrod_contact_def def = {
      .nrods = 2, .rods = cr, .rods_contact = 1, .law = {.stiffness = k, .onset = delta}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  cosrod_contact_eval(m, d, (const double *const[]){A.x, B.x}, NULL, (double *const[]){A.f, B.f}, 0);
  double FA[3], FB[3], MA[3] = {0, 0, 0}, MB[3] = {0, 0, 0};
  test_rod_sum(&A, FA);
  test_rod_sum(&B, FB);
  for (int i = 0; i < A.nv; ++i) {
    double t[3];
    cosrod_vec3_cross(t, A.x + 3 * i, A.f + 3 * i);
    cosrod_vec3_add(MA, MA, t);
  }
  for (int i = 0; i < B.nv; ++i) {
    double t[3];
    cosrod_vec3_cross(t, B.x + 3 * i, B.f + 3 * i);
    cosrod_vec3_add(MB, MB, t);
  }
  size_t cand, act;
  cosrod_contact_counts(d, &cand, &act);
  NOTE("candidates %zu, active %zu", cand, act);
  CHECK("one active pair", act == 1);
  double f = cosrod_contact_penalty(NULL, NULL, k * 0.1, delta, p0);
  CHECK_REL("|F| = (k l) f(p0) (law lumped over l = 0.1 m)", cosrod_vec3_norm(FB), f, 1e-9);
  CHECK_REL("F on B points up (+z)", FB[2], f, 1e-9);
  double sum[3], msum[3];
  cosrod_vec3_add(sum, FA, FB);
  cosrod_vec3_add(msum, MA, MB);
  CHECK_LE("F_A + F_B = 0", cosrod_vec3_norm(sum), 1e-15 * f);
  CHECK_LE("M_A + M_B = 0 (forces along the common normal)", cosrod_vec3_norm(msum), 1e-15 * f);
  /* friction: B slides along x at V over A; regularised Coulomb mu_k f V / sqrt(V^2 + v_s^2) */
  double V = 0.3, vs = 0.01, mu = 0.4;
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  def.law.mu_static = 0.5;
  def.law.mu_kinetic = mu;
  def.law.stick_velocity = vs;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  for (int i = 0; i < B.nv; ++i) B.v[3 * i] = V;
  test_rod_zero_f(&A);
  test_rod_zero_f(&B);
  cosrod_contact_eval(m, d, (const double *const[]){A.x, B.x}, (const double *const[]){A.v, B.v},
                      (double *const[]){A.f, B.f}, 0);
  test_rod_sum(&A, FA);
  test_rod_sum(&B, FB);
  cosrod_vec3_add(sum, FA, FB);
  CHECK_REL("friction on B opposes its sliding: mu_k f V / sqrt(V^2 + v_s^2)", -FB[0],
            mu * f * V / hypot(V, vs), 1e-12);
  CHECK_LE("with friction F_A + F_B = 0", cosrod_vec3_norm(sum), 1e-15 * f);
  CHECK_REL("dissipated power = friction force x sliding speed", cosrod_contact_dissipation(d), -FB[0] * V,
            1e-12);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&A);
  test_rod_free(&B);
}

/* Helix of coil radius Rc, pitch h (per turn), nv vertices with spacing ds. */
static void helix(test_rod *r, int nv, double Rc, double pitch, double ds) {
  test_rod_line(r, nv, (double[3]){0, 0, 0}, (double[3]){1, 0, 0}, ds);
  double c = sqrt(4 * COSROD_QUAT_PI * COSROD_QUAT_PI * Rc * Rc + pitch * pitch); /* arc per turn */
  for (int i = 0; i < nv; ++i) {
    double th = 2 * COSROD_QUAT_PI * i * ds / c;
    r->x[3 * i] = Rc * cos(th);
    r->x[3 * i + 1] = Rc * sin(th);
    r->x[3 * i + 2] = pitch * th / (2 * COSROD_QUAT_PI);
  }
}

TEST(self_contact_exclusion_and_broad_phase) {
  double r = 0.005, ds = 0.004;
  /* a straight rod thicker than its segments: no self-contact at all */
  test_rod s;
  test_rod_line(&s, 200, (double[3]){0, 0, 0}, (double[3]){0, 0.6, 0.8}, ds);
  cosrod_contact_rod cs = test_contact_rod(&s, r, 0, 0);
  cosrod_contact_def def = {.nrods = 1, .rods = &cs, .self_contact = 1, .law = {.stiffness = 1e5}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  cosrod_contact_eval(m, d, (const double *const[]){s.x}, NULL, (double *const[]){s.f}, 0);
  size_t cand, act;
  cosrod_contact_counts(d, &cand, &act);
  CHECK_REL("exclusion arc = pi r", cosrod_contact_model_self_exclusion(m, 0), COSROD_QUAT_PI * r, 1e-15);
  CHECK("straight rod: no self-contact", act == 0);
  NOTE("straight rod, r = %.2g ds: %zu candidates, %zu active", r / ds, cand, act);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  /* a helix whose turns overlap by 10 % of r: the broad phase finds exactly
   * the pairs of the brute-force loop (arc gap >= pi r, distance < 2r) */
  test_rod h;
  helix(&h, 1200, 0.03, 1.9 * r, ds);
  cosrod_contact_rod ch = test_contact_rod(&h, r, 0, 0);
  def.rods = &ch;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  cosrod_contact_eval(m, d, (const double *const[]){h.x}, NULL, (double *const[]){h.f}, 0);
  cosrod_contact_counts(d, &cand, &act);
  size_t brute = 0, matched = 0;
  for (int i = 0; i + 1 < h.nv; ++i)
    for (int j = i + 1; j + 1 < h.nv; ++j) {
      if (h.sref[j] - h.sref[i + 1] < COSROD_QUAT_PI * r) continue;
      double a, b;
      if (cosrod_segment_segment_closest(&a, &b, h.x + 3 * i, h.x + 3 * i + 3, h.x + 3 * j,
                                         h.x + 3 * j + 3) >= 2 * r)
        continue;
      ++brute;
      for (size_t c = 0; c < cosrod_contact_npoints(d); ++c) {
        const cosrod_contact_point *p = cosrod_contact_points(d) + c;
        if (p->segment == i && p->other_segment == j) ++matched;
      }
    }
  NOTE("helix 1199 segments: brute force %zu pairs, broad phase %zu candidates, %zu active", brute, cand,
       act);
  CHECK("helix has contacts", brute > 1000);
  CHECK("same number of pairs as brute force", act == brute);
  CHECK("every brute-force pair found", matched == brute);
  double F[3];
  test_rod_sum(&h, F);
  CHECK_LE("internal contact forces sum to zero", cosrod_vec3_norm(F), 1e-12 * brute * 1e5 * r);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&s);
  test_rod_free(&h);
}

/* A thin capsule crossing a long segment between its two Gauss points: the
 * line contact misses it and the warning counts it; 3 Gauss points (one at
 * the middle) catch it. */
TEST(missed_contact_warning) {
  double r = 0.01;
  test_rod rod;
  test_rod_line(&rod, 2, (double[3]){-0.05, 0, 0.014}, (double[3]){1, 0, 0}, 0.1);
  cosrod_contact_rod cr = test_contact_rod(&rod, r, 0, 0);
  cosrod_contact_obstacle clip = {
      .shape = {.type = COSROD_SHAPE_CAPSULE, .radius = 0.005, .half_length = 0.1}};
  cosrod_pose_identity(&clip.pose);
  cosrod_quat_set(clip.pose.q, sqrt(0.5), sqrt(0.5), 0.0, 0.0); /* axis along y */
  for (int nq = 2; nq <= 3; ++nq) {
    cosrod_contact_def def = {.nrods = 1,
                              .rods = &cr,
                              .nobstacles = 1,
                              .obstacles = &clip,
                              .quadrature = nq,
                              .law = {.stiffness = 1e5}};
    cosrod_contact_model *m;
    cosrod_contact_data *d;
    m = cosrod_contact_model_create(&def, NULL);
    d = cosrod_contact_data_create(m, NULL);
    cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f}, 0);
    size_t act, missed;
    double pen;
    cosrod_contact_counts(d, NULL, &act);
    cosrod_contact_warnings(d, &missed, &pen);
    NOTE("%d Gauss points: %zu active, %zu missed, max penetration %.3f r", nq, act, missed, pen);
    if (nq == 2)
      CHECK("2 Gauss points: missed and counted", act == 0 && missed == 1);
    else {
      CHECK("3 Gauss points: caught, nothing missed", act == 1 && missed == 0);
      CHECK_NEAR("max penetration = 0.001 / r", pen, 0.1, 1e-12);
    }
    cosrod_contact_data_free(d);
    cosrod_contact_model_free(m);
  }
  /* grazing: the capsule touches between the two Gauss points 0.025 r deep,
   * half the depth from which a miss counts (0.05 r): not counted */
  rod.x[2] = rod.x[5] = 0.015 - 2.5e-4; /* gap -2.5e-4 = -0.025 r at the middle */
  cosrod_contact_def def = {.nrods = 1, .rods = &cr, .nobstacles = 1, .obstacles = &clip, .quadrature = 2,
                            .law = {.stiffness = 1e5}};
  cosrod_contact_model *m = cosrod_contact_model_create(&def, NULL);
  cosrod_contact_data *d = cosrod_contact_data_create(m, NULL);
  cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f}, 0);
  size_t missed;
  cosrod_contact_warnings(d, &missed, NULL);
  CHECK("a grazing touch (0.025 r deep) between the points: not counted", missed == 0);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&rod);
}

/* Dense Gaussian elimination with partial pivoting (n x n column-major). */
static void solve_dense(double *A, double *b, int n) {
  for (int k = 0; k < n; ++k) {
    int pr = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(A[i + n * k]) > fabs(A[pr + n * k])) pr = i;
    for (int j = 0; j < n; ++j) {
      double t = A[k + n * j];
      A[k + n * j] = A[pr + n * j];
      A[pr + n * j] = t;
    }
    double t = b[k];
    b[k] = b[pr];
    b[pr] = t;
    for (int i = k + 1; i < n; ++i) {
      double l = A[i + n * k] / A[k + n * k];
      for (int j = k; j < n; ++j) A[i + n * j] -= l * A[k + n * j];
      b[i] -= l * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    for (int j = k + 1; j < n; ++j) b[k] -= A[k + n * j] * b[j];
    b[k] /= A[k + n * k];
  }
}

/* Capstan geometry, frictionless: a string (axial springs written here) over
 * an infinite cylinder, both ends pulled down by T (wrap angle pi).  At
 * equilibrium the contact forces sum to 2T upwards (the obstacle wrench
 * -2T, no moment about the axis) and their magnitudes to T theta = pi T: the
 * pressure T/rho integrated over the wrap. */
static double capstan_error(int N) {
  double R = 0.1, r = 0.005, T = 100.0, EA = 1e8, k = 1e7, delta = 1e-5, hang = 0.1;
  double rho = R + r, Ltot = 2 * hang + COSROD_QUAT_PI * rho;
  int nv = N + 1;
  double ds = Ltot / N;
  double rho0 = rho - cosrod_contact_penalty_inverse(k, delta, T / rho); /* start near equilibrium */
  test_rod rod;
  test_rod_line(&rod, nv, (double[3]){0, 0, 0}, (double[3]){1, 0, 0}, ds);
  for (int i = 0; i < nv; ++i) { /* the path: up at x = -rho, half circle, down at x = +rho */
    double s = i * ds, *x = rod.x + 3 * i;
    if (s < hang)
      cosrod_vec3_set(x, -rho0, 0, -hang + s);
    else if (s < hang + COSROD_QUAT_PI * rho) {
      double th = (s - hang) / rho;
      cosrod_vec3_set(x, -rho0 * cos(th), 0, rho0 * sin(th));
    } else
      cosrod_vec3_set(x, rho0, 0, -(s - hang - COSROD_QUAT_PI * rho));
  }
  double *l0s = malloc((size_t)N * sizeof(double)); /* rest lengths: tension T in the initial polygon */
  for (int e = 0; e < N; ++e) {
    double dx[3];
    cosrod_vec3_sub(dx, rod.x + 3 * e + 3, rod.x + 3 * e);
    l0s[e] = cosrod_vec3_norm(dx) / (1.0 + T / EA);
  }
  cosrod_contact_rod cr = test_contact_rod(&rod, r, 0, 0);
  cosrod_contact_obstacle cyl = {.shape = {.type = COSROD_SHAPE_CYLINDER, .radius = R}};
  cosrod_pose_identity(&cyl.pose);
  cosrod_quat_set(cyl.pose.q, sqrt(0.5), sqrt(0.5), 0.0, 0.0); /* axis along y */
  cosrod_contact_def def = {.nrods = 1,
                            .rods = &cr,
                            .nobstacles = 1,
                            .obstacles = &cyl,
                            .quadrature = 3,
                            .law = {.stiffness = k, .onset = delta}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
  /* unknowns: x and z of every vertex except x of the middle one */
  int mid = N / 2, n = 2 * nv - 1;
  double *A = malloc((size_t)n * n * sizeof(double)), *b = malloc((size_t)n * sizeof(double));
  double *K = malloc((size_t)9 * nv * nv * sizeof(double)), *D = malloc((size_t)9 * nv * nv * sizeof(double));
  int *idx = malloc(2 * (size_t)nv * sizeof(int));
  for (int i = 0, c = 0; i < nv; ++i) {
    idx[2 * i] = i == mid ? -1 : c++;
    idx[2 * i + 1] = c++;
  }
  double res = 0.0;
  for (int it = 0; it < 60; ++it) {
    test_rod_zero_f(&rod);
    cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f},
                        COSROD_CONTACT_JAC);
    cosrod_contact_jac_dense(m, d, 0, 0, K, D);
    int ld = 3 * nv;
    rod.f[2] -= T;
    rod.f[3 * N + 2] -= T;
    for (int e = 0; e < N; ++e) { /* springs: force ks (l - l0) along the segment; stiffness */
      double dx[3], l, t[3], Ke[9], l0 = l0s[e], ks = EA / l0;
      cosrod_vec3_sub(dx, rod.x + 3 * e + 3, rod.x + 3 * e);
      l = cosrod_vec3_norm(dx);
      cosrod_vec3_scale(t, 1.0 / l, dx);
      for (int k3 = 0; k3 < 3; ++k3) {
        rod.f[3 * e + k3] += ks * (l - l0) * t[k3];
        rod.f[3 * e + 3 + k3] -= ks * (l - l0) * t[k3];
      }
      for (int c = 0; c < 3; ++c)
        for (int q = 0; q < 3; ++q)
          Ke[q + 3 * c] = ks * ((1 - l0 / l) * ((q == c) - t[q] * t[c]) + t[q] * t[c]);
      for (int a = 0; a < 2; ++a)
        for (int bb = 0; bb < 2; ++bb)
          for (int c = 0; c < 3; ++c)
            for (int q = 0; q < 3; ++q) /* dF_a/dx_b = -Ke for a = b, +Ke otherwise */
              K[(3 * (e + a) + q) + ld * (3 * (e + bb) + c)] += (a == bb ? -1.0 : 1.0) * Ke[q + 3 * c];
    }
    res = 0.0;
    for (int i = 0; i < nv; ++i)
      for (int c = 0; c < 2; ++c) {
        int row = idx[2 * i + c];
        if (row < 0) continue;
        b[row] = -rod.f[3 * i + 2 * c];
        res = fmax(res, fabs(b[row]) / T);
        for (int j = 0; j < nv; ++j)
          for (int cc = 0; cc < 2; ++cc) {
            int col = idx[2 * j + cc];
            if (col >= 0) A[row + n * col] = K[(3 * i + 2 * c) + ld * (3 * j + 2 * cc)];
          }
      }
    if (res < 1e-10) break;
    solve_dense(A, b, n);
    for (int i = 0; i < nv; ++i)
      for (int c = 0; c < 2; ++c)
        if (idx[2 * i + c] >= 0) rod.x[3 * i + 2 * c] += b[idx[2 * i + c]];
  }
  double Fo[3], Mo[3], sum_fn = 0.0;
  cosrod_contact_obstacle_wrench(d, 0, Fo, Mo);
  for (size_t i = 0; i < cosrod_contact_npoints(d); ++i) sum_fn += cosrod_contact_points(d)[i].fn;
  double dth = ds / rho;
  NOTE("N = %d, %zu contact points, residual %.2e T, sum |fn| / (pi T) - 1 = %.2e (dtheta^2/24 = %.1e)", N,
       cosrod_contact_npoints(d), res, sum_fn / (COSROD_QUAT_PI * T) - 1, dth * dth / 24);
  CHECK_LE("equilibrium residual / T (roundoff of EA = 1e8 N springs: 1e8 eps / T)", res, 1e-7);
  CHECK_REL("force on the cylinder = -2T (down)", Fo[2], -2 * T, 1e-9);
  CHECK_LE("no moment about the axis (frictionless)", fabs(Mo[1]), 1e-12 * T * R);
  free(idx);
  free(l0s);
  free(A);
  free(b);
  free(K);
  free(D);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&rod);
  return sum_fn / (COSROD_QUAT_PI * T) - 1;
}

TEST(capstan_geometry_frictionless) {
  /* Two discretisation errors: the polygon's kinks (dtheta^2/24 per vertex,
   * 2x for the Gauss points' spread along a chord) and the penalty's
   * penetration p: contact extends about sqrt(2 p rho) below the tangent
   * points, where radial forces have components along the string and raise
   * its tension in the wrap by about T p / rho (measured: 2.0e-4, 3.8e-4,
   * 4.3e-4 for N = 60, 120, 240 with p / rho = 9.5e-4). */
  double rho = 0.105, p = cosrod_contact_penalty_inverse(1e7, 1e-5, 100.0 / rho);
  double e1 = capstan_error(60), e2 = capstan_error(120);
  for (int i = 0; i < 2; ++i) {
    double dth = (0.2 + COSROD_QUAT_PI * rho) / (i ? 120 : 60) / rho;
    char lab[128];
    snprintf(lab, sizeof lab,
             "sum of normal forces = T theta (capstan geometry), N = %d: <= dtheta^2/12 + p/rho",
             i ? 120 : 60);
    CHECK_LE(lab, fabs(i ? e2 : e1), dth * dth / 12 + p / rho);
  }
}

/* Exclusion arc pi r against bending: on an arc of curvature radius
 * rho = 1.05 r (tighter than any real rod) no pair beyond the exclusion
 * touches (chord 2 rho sin(pi r / (2 rho)) > 2r); at rho = 0.9 r (a section
 * intersecting itself) pairs beyond the exclusion do touch, so the rule does
 * not hide contacts the geometry produces. */
TEST(self_exclusion_on_tight_arcs) {
  double r = 0.01;
  for (int c = 0; c < 2; ++c) {
    double rho = c ? 0.9 * r : 1.05 * r, ang = 3.7;
    int nv = 201;
    test_rod a;
    test_rod_line(&a, nv, (double[3]){0, 0, 0}, (double[3]){1, 0, 0}, rho * ang / (nv - 1));
    for (int i = 0; i < nv; ++i) {
      double th = ang * i / (nv - 1);
      cosrod_vec3_set(a.x + 3 * i, rho * cos(th), rho * sin(th), 0.0);
    }
    cosrod_contact_rod cr = test_contact_rod(&a, r, 0, 0);
    cosrod_contact_def def = {.nrods = 1, .rods = &cr, .self_contact = 1, .law = {.stiffness = 1e5}};
    cosrod_contact_model *m;
    cosrod_contact_data *d;
    m = cosrod_contact_model_create(&def, NULL);
    d = cosrod_contact_data_create(m, NULL);
    cosrod_contact_eval(m, d, (const double *const[]){a.x}, NULL, (double *const[]){a.f}, 0);
    size_t act;
    cosrod_contact_counts(d, NULL, &act);
    NOTE("arc radius %.2f r: %zu self-contacts beyond the exclusion", rho / r, act);
    CHECK(c ? "rho = 0.9 r: contacts beyond the exclusion" : "rho = 1.05 r: no contact beyond the exclusion",
          c ? act > 0 : act == 0);
    cosrod_contact_data_free(d);
    cosrod_contact_model_free(m);
    test_rod_free(&a);
  }
}

static const th_case cases[] = {TH_CASE(crossing_rods_equal_and_opposite),
                                TH_CASE(self_contact_exclusion_and_broad_phase),
                                TH_CASE(missed_contact_warning), TH_CASE(capstan_geometry_frictionless),
                                TH_CASE(self_exclusion_on_tight_arcs)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
