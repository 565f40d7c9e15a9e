// SPDX-License-Identifier: Apache-2.0
/* Contact law against closed forms: the penalty is the derivative of its
 * potential; a straight rod on the ground carries its weight with the law's
 * static penetration; a rod on a slope sticks with friction = tangential
 * weight for tan(alpha) < mu_s and slides with friction = mu_k N (net
 * acceleration g (sin - mu_k cos)) otherwise; the contact potential's
 * gradient is minus the elastic force and the dissipated power is the
 * damping forces' work rate. */
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
  CHECK("model", (m = cosrod_contact_model_create(&def, NULL)) != NULL);
  d = cosrod_contact_data_create(m, NULL);
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
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
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
  m = cosrod_contact_model_create(&def, NULL);
  d = cosrod_contact_data_create(m, NULL);
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

static const th_case cases[] = {TH_CASE(penalty_potential_and_inverse),
                                TH_CASE(rod_on_ground_carries_its_weight),
                                TH_CASE(slope_sticks_below_mu_static), TH_CASE(slope_slides_above_mu_static),
                                TH_CASE(potential_gradient_and_dissipation)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
