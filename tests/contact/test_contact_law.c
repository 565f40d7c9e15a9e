/* Contact law and assembled contact forces against closed forms:
 * the penalty is the derivative of its potential; a straight rod on the
 * ground carries its weight with the law's static penetration; a rod on a
 * slope sticks with friction = tangential weight for tan(alpha) < mu_s and
 * slides with friction = mu_k N (net acceleration g (sin - mu_k cos)) otherwise;
 * crossing rods transmit equal and opposite forces with zero net moment; the
 * broad phase finds exactly the pairs of an O(N^2) loop written here; the
 * contact potential's gradient is minus the elastic force and the dissipated
 * power is the damping forces' work rate. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact_test_util.h"
#include "cosrod/quat.h"
#include "harness.h"

TEST(penalty_potential_and_inverse) {
  double k = 3.0e4, delta = 2e-4, e_f = 0.0, e_df = 0.0, e_inv = 0.0;
  for (int i = -20; i <= 200; ++i) {
    double p = i * 1.013e-5, h = 1e-9, df, psi, psp, psm, dfp, dfm;
    double f = cosrod_contact_penalty(&df, &psi, k, delta, p);
    double fp = cosrod_contact_penalty(&dfp, &psp, k, delta, p + h);
    double fm = cosrod_contact_penalty(&dfm, &psm, k, delta, p - h);
    /* psi''' = f'' <= k / delta: central-difference truncation h^2 k / (6 delta) */
    e_f = fmax(e_f, fabs((psp - psm) / (2 * h) - f) / (k * delta));
    e_df = fmax(e_df, fabs((fp - fm) / (2 * h) - df) / k);
    if (f > 0.0) e_inv = fmax(e_inv, fabs(cosrod_contact_penalty_inverse(k, delta, f) - p) / delta);
  }
  CHECK_LE("f = dpsi/dp (central differences, relative to k delta)", e_f, 1e-6);
  CHECK_LE("df/dp (central differences, relative to k; kinks at 0 and delta are C^1)", e_df, 1e-4);
  CHECK_LE("inverse(f(p)) = p", e_inv, 1e-12);
  double df;
  CHECK_NEAR("f continuous at delta", cosrod_contact_penalty(&df, NULL, k, delta, delta * (1 - 1e-12)),
             cosrod_contact_penalty(&df, NULL, k, delta, delta * (1 + 1e-12)), 1e-8 * k * delta);
  CHECK_NEAR("no force before touching", cosrod_contact_penalty(&df, NULL, k, delta, -1e-9), 0.0, 0.0);
}

/* Hose: E 5 MPa, r 1 cm, density 1100. */
static const double HOSE_R = 0.01, HOSE_E = 5e6, HOSE_RHO = 1100.0, G = 9.81;

TEST(rod_on_ground_carries_its_weight) {
  int N = 20;
  double L = 1.0, ds = L / N, r = HOSE_R;
  double EI = HOSE_E * COSROD_QUAT_PI * pow(r, 4) / 4, rhoA = HOSE_RHO * COSROD_QUAT_PI * r * r, q = rhoA * G;
  test_rod rod;
  test_rod_line(&rod, N + 1, (double[3]){0, 0, r}, (double[3]){1, 0, 0}, ds);
  cosrod_contact_rod cr = test_contact_rod(&rod, r, EI, rhoA);
  cosrod_contact_obstacle floor = {.shape = {.type = COSROD_SHAPE_PLANE}};
  cosrod_pose_identity(&floor.pose);
  cosrod_contact_def def = {.nrods = 1, .rods = &cr, .nobstacles = 1, .obstacles = &floor, .gravity = G};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  char err[256];
  CHECK("model", cosrod_contact_model_create(&m, &def, err, sizeof err) == COSROD_OK);
  cosrod_contact_data_create(&d, m);
  double k, delta;
  cosrod_contact_model_law(m, 0, &k, &delta, NULL, NULL);
  double W = q * L, Fz = 0.0;
  /* Newton on the rod's height with the analytic Jacobian: sum f_z(z) = W */
  int it;
  for (it = 0; it < 60; ++it) {
    test_rod_zero_f(&rod);
    cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f},
                        COSROD_CONTACT_JAC);
    double F[3], J = 0.0;
    test_rod_sum(&rod, F);
    Fz = F[2];
    for (size_t b = 0; b < cosrod_contact_nblocks(d); ++b) J += cosrod_contact_blocks(d)[b].K[8];
    if (fabs(Fz - W) <= 1e-13 * W) break;
    double dz = J != 0.0 ? (Fz - W) / J : -0.1 * r; /* J = dFz/dz < 0 */
    for (int i = 0; i <= N; ++i) rod.x[3 * i + 2] -= dz;
  }
  NOTE("k = %.6g N/m^2 (auto), delta = %.3g m, Newton iterations %d", k, delta, it);
  CHECK_REL("total normal force = weight", Fz, W, 1e-12);
  double pen = r - rod.x[2], want = cosrod_contact_penalty_inverse(k, delta, q);
  CHECK_REL("penetration = the law's static value", pen, want, 1e-9);
  CHECK_LE("auto stiffness: penetration <= 1.5 % of r (equality for the weight-limited k)", pen / r,
           0.015 * (1 + 1e-12));
  double emax = 0.0;
  for (int i = 0; i <= N; ++i) {
    double w = (i == 0 || i == N) ? 0.5 : 1.0;
    emax = fmax(emax, fabs(rod.f[3 * i + 2] - w * q * ds) / (q * ds));
  }
  CHECK_LE("vertex forces = q ds (ends q ds / 2)", emax, 1e-11);
  double psi;
  cosrod_contact_penalty(NULL, &psi, k, delta, pen);
  CHECK_REL("contact potential = L psi(p)", cosrod_contact_energy(d), L * psi, 1e-12);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&rod);
}

/* Rod along y on a plane tilted by alpha about y; returns after the checks. */
static void slope_case(double tan_alpha, int expect_stick) {
  double alpha = atan(tan_alpha), mus = 0.5, muk = 0.4;
  int N = 10;
  double L = 0.5, ds = L / N, r = HOSE_R;
  double EI = HOSE_E * COSROD_QUAT_PI * pow(r, 4) / 4, rhoA = HOSE_RHO * COSROD_QUAT_PI * r * r, q = rhoA * G;
  double n[3] = {sin(alpha), 0.0, cos(alpha)}, down[3] = {cos(alpha), 0.0, -sin(alpha)};
  test_rod rod;
  test_rod_line(&rod, N + 1, (double[3]){r * n[0], 0, r * n[2]}, (double[3]){0, 1, 0}, ds);
  cosrod_contact_rod cr = test_contact_rod(&rod, r, EI, rhoA);
  cosrod_contact_obstacle slope = {.shape = {.type = COSROD_SHAPE_PLANE}};
  cosrod_pose_identity(&slope.pose);
  cosrod_quat_set(slope.pose.q, cos(alpha / 2), 0.0, sin(alpha / 2), 0.0);
  cosrod_contact_def def = {.nrods = 1,
                            .rods = &cr,
                            .nobstacles = 1,
                            .obstacles = &slope,
                            .gravity = G,
                            .law = {.mu_static = mus, .mu_kinetic = muk}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  cosrod_contact_model_create(&m, &def, NULL, 0);
  cosrod_contact_data_create(&d, m);
  double k, delta, kt;
  cosrod_contact_model_law(m, 0, &k, &delta, NULL, &kt);
  double *Wv = calloc(3 * (size_t)(N + 1), sizeof(double)), Wt[3] = {0, 0, -q * L};
  for (int i = 0; i <= N; ++i) Wv[3 * i + 2] = -q * ds * ((i == 0 || i == N) ? 0.5 : 1.0);
  /* touch, then anchor the friction */
  for (int i = 0; i <= N; ++i)
    for (int k3 = 0; k3 < 3; ++k3) rod.x[3 * i + k3] -= 1e-6 * r * n[k3];
  cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f}, 0);
  cosrod_contact_commit(m, d);
  if (!expect_stick) /* slide far beyond the stick range mu_s q / k_t */
    for (int i = 0; i <= N; ++i)
      for (int k3 = 0; k3 < 3; ++k3) rod.x[3 * i + k3] += 20.0 * mus * q / kt * down[k3];
  /* Newton on a rigid translation (stick: 3 dof; slip: the normal only) */
  double F[3], res = 0.0;
  for (int it = 0; it < 80; ++it) {
    test_rod_zero_f(&rod);
    cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){rod.f},
                        COSROD_CONTACT_JAC);
    test_rod_sum(&rod, F);
    double R[3], J[9] = {0};
    cosrod_vec3_add(R, F, Wt);
    for (size_t b = 0; b < cosrod_contact_nblocks(d); ++b)
      for (int i = 0; i < 9; ++i) J[i] += cosrod_contact_blocks(d)[b].K[i];
    double du[3];
    if (expect_stick) {
      res = cosrod_vec3_norm(R) / (q * L);
      if (res < 1e-13) break;
      double det = J[0] * (J[4] * J[8] - J[7] * J[5]) - J[3] * (J[1] * J[8] - J[7] * J[2]) +
                   J[6] * (J[1] * J[5] - J[4] * J[2]);
      double Ji[9] = {(J[4] * J[8] - J[5] * J[7]) / det, (J[2] * J[7] - J[1] * J[8]) / det,
                      (J[1] * J[5] - J[2] * J[4]) / det, (J[5] * J[6] - J[3] * J[8]) / det,
                      (J[0] * J[8] - J[2] * J[6]) / det, (J[2] * J[3] - J[0] * J[5]) / det,
                      (J[3] * J[7] - J[4] * J[6]) / det, (J[1] * J[6] - J[0] * J[7]) / det,
                      (J[0] * J[4] - J[1] * J[3]) / det};
      double t[3];
      for (int r3 = 0; r3 < 3; ++r3) t[r3] = Ji[r3] * R[0] + Ji[r3 + 3] * R[1] + Ji[r3 + 6] * R[2];
      cosrod_vec3_scale(du, -1.0, t);
    } else {
      double Rn = cosrod_vec3_dot(R, n), Jn[3];
      res = fabs(Rn) / (q * L);
      if (res < 1e-13) break;
      for (int c = 0; c < 3; ++c) Jn[c] = J[3 * c] * n[0] + J[3 * c + 1] * n[1] + J[3 * c + 2] * n[2];
      cosrod_vec3_scale(du, -Rn / cosrod_vec3_dot(Jn, n), n);
    }
    for (int i = 0; i <= N; ++i)
      for (int k3 = 0; k3 < 3; ++k3) rod.x[3 * i + k3] += du[k3];
  }
  double Fn = 0.0, Ft[3] = {0, 0, 0};
  int nslip = 0, np = (int)cosrod_contact_npoints(d);
  for (int i = 0; i < np; ++i) {
    const cosrod_contact_point *p = cosrod_contact_points(d) + i;
    Fn += p->fn;
    cosrod_vec3_add(Ft, Ft, p->ft);
    nslip += p->slip;
  }
  double WN = q * L * cos(alpha), WT = q * L * sin(alpha);
  NOTE("tan alpha %.2f: residual %.2e, %d of %d points slipping", tan_alpha, res, nslip, np);
  CHECK_REL("normal force = q L cos(alpha)", Fn, WN, 1e-10);
  if (expect_stick) {
    CHECK("all points stick", nslip == 0 && np > 0);
    CHECK_LE("equilibrium residual / weight", res, 1e-12);
    CHECK_REL("static friction = tangential weight q L sin(alpha)", cosrod_vec3_dot(Ft, down), -WT, 1e-10);
  } else {
    CHECK("all points slip", nslip == np && np > 0);
    CHECK_REL("kinetic friction = mu_k N", -cosrod_vec3_dot(Ft, down), muk * Fn, 1e-12);
    double a = (cosrod_vec3_dot(F, down) + cosrod_vec3_dot(Wt, down)) / (rhoA * L);
    CHECK_REL("net acceleration = g (sin - mu_k cos)", a, G * (sin(alpha) - muk * cos(alpha)), 1e-10);
  }
  free(Wv);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&rod);
}

TEST(slope_sticks_below_mu_static) { slope_case(0.45, 1); }
TEST(slope_slides_above_mu_static) { slope_case(0.6, 0); }

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
  cosrod_contact_model_create(&m, &def, NULL, 0);
  cosrod_contact_data_create(&d, m);
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
  cosrod_contact_model_create(&m, &def, NULL, 0);
  cosrod_contact_data_create(&d, m);
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
  cosrod_contact_model_create(&m, &def, NULL, 0);
  cosrod_contact_data_create(&d, m);
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
  cosrod_contact_model_create(&m, &def, NULL, 0);
  cosrod_contact_data_create(&d, m);
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

TEST(potential_gradient_and_dissipation) {
  double r = 0.01;
  test_rod rod;
  test_rod_line(&rod, 9, (double[3]){-0.2, 0.05, 0.3}, (double[3]){0.8, 0.0, -0.6}, 0.05);
  th_rng g;
  th_rng_seed(&g, 7);
  for (int i = 0; i < 27; ++i) {
    rod.x[i] += th_rng_uniform(&g, -0.003, 0.003);
    rod.v[i] = th_rng_uniform(&g, -0.5, 0.5);
  }
  cosrod_contact_obstacle ob[2] = {{.shape = {.type = COSROD_SHAPE_PLANE}},
                                   {.shape = {.type = COSROD_SHAPE_SPHERE, .radius = 0.1}}};
  cosrod_pose_identity(&ob[0].pose);
  cosrod_pose_identity(&ob[1].pose);
  cosrod_vec3_set(ob[1].pose.position, 0.0, 0.05, 0.21);
  cosrod_contact_rod cr = test_contact_rod(&rod, r, 0, 0.3);
  cosrod_contact_def def = {.nrods = 1,
                            .rods = &cr,
                            .nobstacles = 2,
                            .obstacles = ob,
                            .law = {.stiffness = 1e5, .onset = 2e-3, .damping = 50.0}};
  cosrod_contact_model *m;
  cosrod_contact_data *d;
  cosrod_contact_model_create(&m, &def, NULL, 0);
  cosrod_contact_data_create(&d, m);
  double f0[27] = {0};
  cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){f0}, 0);
  size_t act;
  cosrod_contact_counts(d, NULL, &act);
  CHECK("both obstacles touched", act >= 4);
  double err = 0.0, fmaxv = 0.0, h = 1e-7;
  for (int i = 0; i < 27; ++i) {
    double fd[27], x0 = rod.x[i];
    rod.x[i] = x0 + h;
    cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){fd}, 0);
    double ep = cosrod_contact_energy(d);
    rod.x[i] = x0 - h;
    cosrod_contact_eval(m, d, (const double *const[]){rod.x}, NULL, (double *const[]){fd}, 0);
    double em = cosrod_contact_energy(d);
    rod.x[i] = x0;
    err = fmax(err, fabs(-(ep - em) / (2 * h) - f0[i]));
    fmaxv = fmax(fmaxv, fabs(f0[i]));
  }
  /* truncation h^2 f''/6 with f'' ~ k / delta * l, roundoff eps E / h */
  CHECK_LE("elastic force = -grad(contact potential)", err, 1e-7 * fmaxv);
  double f1[27] = {0};
  cosrod_contact_eval(m, d, (const double *const[]){rod.x}, (const double *const[]){rod.v},
                      (double *const[]){f1}, 0);
  double work = 0.0;
  for (int i = 0; i < 27; ++i) work += (f1[i] - f0[i]) * rod.v[i];
  CHECK_REL("dissipated power = -(damping forces . v)", cosrod_contact_dissipation(d), -work, 1e-12);
  cosrod_contact_data_free(d);
  cosrod_contact_model_free(m);
  test_rod_free(&rod);
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
    cosrod_contact_model_create(&m, &def, NULL, 0);
    cosrod_contact_data_create(&d, m);
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
  cosrod_contact_model_create(&m, &def, NULL, 0);
  cosrod_contact_data_create(&d, m);
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
    cosrod_contact_model_create(&m, &def, NULL, 0);
    cosrod_contact_data_create(&d, m);
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

static const th_case cases[] = {TH_CASE(self_exclusion_on_tight_arcs),
                                TH_CASE(capstan_geometry_frictionless),
                                TH_CASE(missed_contact_warning),
                                TH_CASE(penalty_potential_and_inverse),
                                TH_CASE(rod_on_ground_carries_its_weight),
                                TH_CASE(slope_sticks_below_mu_static),
                                TH_CASE(slope_slides_above_mu_static),
                                TH_CASE(crossing_rods_equal_and_opposite),
                                TH_CASE(self_contact_exclusion_and_broad_phase),
                                TH_CASE(potential_gradient_and_dissipation)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
