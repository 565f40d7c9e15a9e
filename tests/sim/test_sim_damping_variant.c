// SPDX-License-Identifier: Apache-2.0
/* rods.N.damping.variant / rotary_inertia (the readings of the discrete
 * dissipation of [LLA] §3.2-3.3): the rod constants each reading produces,
 * against values computed here from the scenario's numbers; the analytic
 * Jacobian of every reading against central differences of the right-hand
 * side at a deformed, moving state; the input errors; the YAML round trip.
 *
 * Jacobian error measure as in tests/rod/test_rod_jac.c: per row, the largest
 * |J_an - J_fd| relative to the row's largest |J_fd| (floor 1e-8 of the
 * block's largest); <= 1e-6.  Central differences with h ~ 6e-6 (positions)
 * err by ~h² + eps |a| / (h |J|) ~ 1e-9 relative here, those in the velocities
 * are exact but for roundoff (see dense_fd); a missing or wrong term is O(1). */
#include "cosrod/band.h"
#include "cosrod/rod.h"
#include "sim_test_util.h"

#define NV 8
static const char *const VARIANT[NV] = {"lla", "no-ds", "no-ds-se", "bushing", "no-weight", "lla", "no-ds", "bushing"};
static const int CYL[NV] = {0, 0, 0, 0, 0, 1, 1, 1};

/* perf-rubber / perf-steel: [LLA] §4 coefficients c, V = 2c, N = 10, L = 1 */
static const double DS = 0.1;
static const double VG_LLA[3] = {0.2, 0.2, 400.0}, VK_LLA[3] = {4e-4, 4e-4, 1.6e-5};

static void factors(int v, double *fg, double *fk) {
  const double f[5][2] = {{1, 1}, {DS * DS, DS * DS}, {DS * DS, 1}, {DS, DS}, {1 / DS, 1 / DS}};
  *fg = f[v < 5 ? v : (v == 5 ? 0 : v == 6 ? 1 : 3)][0];
  *fk = f[v < 5 ? v : (v == 5 ? 0 : v == 6 ? 1 : 3)][1];
}

static cosrod_sim *load(const char *ex, int v, cosrod_scenario **sc) {
  char s1[96], s2[96];
  snprintf(s1, sizeof s1, "rods.0.damping.variant=%s", VARIANT[v]);
  snprintf(s2, sizeof s2, "rods.0.damping.rotary_inertia=%s", CYL[v] ? "cylinder" : "disc");
  const char *sets[2] = {s1, s2};
  return sim_test_load(ex, sets, 2, sc);
}

TEST(constants_of_each_reading) {
  const double rho = 1100.0, r = 5e-3, pi = 3.14159265358979323846;
  const double A = pi * r * r, I = pi * r * r * r * r / 4.0;
  for (int v = 0; v < NV; v++) {
    cosrod_scenario *sc = NULL;
    cosrod_sim *sim = load("perf-rubber", v, &sc);
    if (!sim) continue;
    double VG[3], VK[3], rhoI[3], rhoA;
    cosrod_rod_constants(cosrod_sim_rod(sim, 0), NULL, NULL, VG, VK, &rhoA, rhoI);
    double fg, fk;
    factors(v, &fg, &fk);
    NOTE("%s%s: V_G = (%g, %g, %g), V_K = (%g, %g, %g), rhoI = (%g, %g, %g)", VARIANT[v], CYL[v] ? "+cyl" : "",
         VG[0], VG[1], VG[2], VK[0], VK[1], VK[2], rhoI[0], rhoI[1], rhoI[2]);
    for (int k = 0; k < 3; k++) {
      CHECK_NEAR("V_Gamma", VG[k], fg * VG_LLA[k], 1e-12 * fg * VG_LLA[k]);
      CHECK_NEAR("V_K", VK[k], fk * VK_LLA[k], 1e-12 * fk * VK_LLA[k]);
    }
    const double cyl = CYL[v] ? rho * A * DS * DS / 12.0 : 0.0;
    CHECK_NEAR("rhoI1", rhoI[0], rho * I + cyl, 1e-12 * (rho * I + cyl));
    CHECK_NEAR("rhoI2", rhoI[1], rho * I + cyl, 1e-12 * (rho * I + cyl));
    CHECK_NEAR("rhoJ (the cylinder adds nothing about d3)", rhoI[2], 2.0 * rho * I, 1e-12 * rho * I);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

/* row-relative error of band A against the dense n x n D (column-major) */
static double band_err(const cosrod_band *A, const double *D, int n) {
  double gmax = 0.0, err = 0.0;
  for (int i = 0; i < n * n; i++) gmax = fmax(gmax, fabs(D[i]));
  for (int i = 0; i < n; i++) {
    double rs = 0.0, re = 0.0;
    for (int j = 0; j < n; j++) {
      double dv = D[i + (size_t)n * j], av = (i - j <= A->ml && j - i <= A->mu) ? cosrod_band_get(A, i, j) : 0.0;
      rs = fmax(rs, fabs(dv));
      re = fmax(re, fabs(av - dv));
    }
    err = fmax(err, re / fmax(rs, 1e-8 * gmax));
  }
  return err;
}

/* dense central differences of the ABSOLUTE right-hand side: rows nq.. (a),
 * columns c0 .. c0+n-1, step h0 max(1, |y_j|).  a is at most quadratic in the
 * velocities (viscous forces linear, gyroscopic and Baumgarte terms
 * quadratic), so for the velocity columns a large step (0.5) is exact up to
 * roundoff eps |a| / h, which the steel rod's large elastic accelerations would
 * otherwise push to ~1e-4 of a row at h ~ 6e-6. */
static void dense_fd(const cosrod_rod *rod, cosrod_rod_data *d, const double *y, int ny, int nq, int c0, int n,
                     double h0, double *D) {
  double *yy = malloc(sizeof(double) * (size_t)ny * 3), *fp = yy + ny, *fm = yy + 2 * ny;
  memcpy(yy, y, sizeof(double) * (size_t)ny);
  for (int j = 0; j < n; j++) {
    double h = h0 * fmax(1.0, fabs(y[c0 + j]));
    yy[c0 + j] = y[c0 + j] + h;
    cosrod_rod_rhs_absolute(rod, d, 0.0, yy, fp);
    yy[c0 + j] = y[c0 + j] - h;
    cosrod_rod_rhs_absolute(rod, d, 0.0, yy, fm);
    yy[c0 + j] = y[c0 + j];
    double hh = (y[c0 + j] + h) - (y[c0 + j] - h);
    for (int i = 0; i < n; i++) D[i + (size_t)n * j] = (fp[nq + i] - fm[nq + i]) / hh;
  }
  free(yy);
}

static void jac_check(const char *ex) {
  for (int v = 0; v < NV; v++) {
    cosrod_scenario *sc = NULL;
    cosrod_sim *sim = load(ex, v, &sc);
    if (!sim) continue;
    const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    const int ny = cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE), nq = ny / 2;
    double *y = malloc(sizeof(double) * (size_t)ny), *D = malloc(sizeof(double) * (size_t)nq * (size_t)nq);
    cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, y);
    /* deterministic deformation and motion: O(1) rates so that every damping
     * term (including the velocity-dependent ones of ∂a/∂q) is active */
    for (int i = 0; i < ny; i++) y[i] += (i < nq ? 0.03 : 0.7) * sin(1.7 * i + 0.3);
    double worst = 0.0;
    for (int b = 0; b < 2; b++) {
      cosrod_band *J = cosrod_band_create(nq, 12, 12, NULL);
      cosrod_status st = cosrod_rod_jac_band(rod, d, COSROD_FORM_ABSOLUTE, 0.0, y, NULL, 0.0, nq, b * nq, J);
      CHECK("analytic Jacobian", st == COSROD_OK);
      dense_fd(rod, d, y, ny, nq, b * nq, nq, b ? 0.5 : 6.0554544523933395e-06, D);
      double e = band_err(J, D, nq);
      NOTE("%s %s%s: d a / d %s  err %.2e", ex, VARIANT[v], CYL[v] ? "+cyl" : "", b ? "v" : "q", e);
      worst = fmax(worst, e);
      cosrod_band_free(J);
    }
    CHECK("analytic = FD Jacobian (row-relative 1e-6)", worst <= 1e-6);
    free(y);
    free(D);
    cosrod_rod_data_free(d);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

TEST(jacobian_rubber_pinned) { jac_check("perf-rubber"); }
TEST(jacobian_steel_clamped) { jac_check("perf-steel"); }

static void expect_error(const char *text, const char *want) {
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_scenario_parse(text, strlen(text), "t.yaml", NULL, 0, &st);
  const char *err = cosrod_last_error();
  NOTE("%s", err);
  CHECK("rejected", st != COSROD_OK && sc == NULL);
  CHECK("message", strstr(err, want) != NULL);
  cosrod_scenario_free(sc);
}

#define HEAD                                                                                                   \
  "cosrod: 1\nanalysis: {type: dynamic, t_end: 1}\nmaterials:\n  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\nrods:\n  - material: rubber\n" \
  "    section: {shape: circle, radius: 0.005}\n"

TEST(input_errors) {
  expect_error(HEAD "    grid: [0, 0.1, 0.3, 1.0]\n"
                    "    damping: {coefficients: {extension: 1}, variant: no-ds}\n",
               "t.yaml:9: rods.0.damping.variant: needs a uniform grid");
  expect_error(HEAD "    grid: [0, 0.1, 0.3, 1.0]\n"
                    "    damping: {coefficients: {extension: 1}, rotary_inertia: cylinder}\n",
               "t.yaml:9: rods.0.damping.rotary_inertia: needs a uniform grid");
  expect_error(HEAD "    length: 1.0\n    damping: {coefficients: {extension: 1}, variant: shear-e}\n",
               "t.yaml:9: rods.0.damping.variant: shear-e applies to 'kelvin_voigt' damping only");
  expect_error(HEAD "    length: 1.0\n    damping: {coefficients: {extension: 1}, variant: half}\n", "rods.0.damping.variant");
  expect_error(HEAD "    length: 1.0\n    damping: {medium: {translational: 1}, variant: no-ds}\n",
               "rods.0.damping.variant: applies to 'kelvin_voigt' or 'coefficients' damping");
}

/* Kelvin-Voigt readings: shear-e ([LLT] eq. 4 with E for G in the shear and
 * torsion viscosities) and no-ds (all x Δs²) */
TEST(shear_e_kelvin_voigt) {
  const char *base = HEAD "    length: 1.0\n    segments: 4\n    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.02}";
  char t1[1024], t2[1024], t3[1024];
  snprintf(t1, sizeof t1, "%s}\n", base);
  snprintf(t2, sizeof t2, "%s, variant: shear-e}\n", base);
  snprintf(t3, sizeof t3, "%s, variant: no-ds}\n", base);
  cosrod_scenario *a = NULL, *b = NULL, *c = NULL;
  cosrod_sim *sa = sim_test_parse(t1, "a.yaml", NULL, 0, &a), *sb = sim_test_parse(t2, "b.yaml", NULL, 0, &b);
  cosrod_sim *sc = sim_test_parse(t3, "c.yaml", NULL, 0, &c);
  if (sa && sb && sc) {
    double Va[3], Ka[3], Vb[3], Kb[3], Vc[3], Kc[3];
    cosrod_rod_constants(cosrod_sim_rod(sa, 0), NULL, NULL, Va, Ka, NULL, NULL);
    cosrod_rod_constants(cosrod_sim_rod(sb, 0), NULL, NULL, Vb, Kb, NULL, NULL);
    cosrod_rod_constants(cosrod_sim_rod(sc, 0), NULL, NULL, Vc, Kc, NULL, NULL);
    for (int k = 0; k < 3; k++) { /* Kelvin-Voigt no-ds: x ds^2, ds = 0.25 */
      CHECK_NEAR("no-ds V_Gamma", Vc[k], 0.0625 * Va[k], 1e-12 * Va[k]);
      CHECK_NEAR("no-ds V_K", Kc[k], 0.0625 * Ka[k], 1e-12 * Ka[k]);
    }
    const double EoverG = 2.0 * 1.5; /* E/G = 2 (1 + nu), nu = 0.5 */
    const double A = 3.14159265358979323846 * 25e-6, G = 5e6 / 3.0;
    CHECK_NEAR("lla shear: tau_S G A", Va[0], 0.01 * G * A, 1e-12 * Va[0]);
    CHECK_NEAR("shear-e shear", Vb[0], EoverG * Va[0], 1e-12 * Vb[0]);
    CHECK_NEAR("shear-e torsion", Kb[2], EoverG * Ka[2], 1e-12 * Kb[2]);
    CHECK_NEAR("shear-e extension unchanged", Vb[2], Va[2], 0.0);
    CHECK_NEAR("shear-e bending unchanged", Kb[0], Ka[0], 0.0);
  }
  cosrod_sim_free(sa);
  cosrod_sim_free(sb);
  cosrod_sim_free(sc);
  cosrod_scenario_free(a);
  cosrod_scenario_free(b);
  cosrod_scenario_free(c);
}

/* the YAML written back reloads to the same reading */
TEST(yaml_round_trip) {
  const char *text = HEAD "    length: 1.0\n    damping: {coefficients: {extension: 1, convention: lla}, variant: bushing, "
                          "rotary_inertia: cylinder}\n";
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_scenario_parse(text, strlen(text), "t.yaml", NULL, 0, &st);
  CHECK("parses", st == COSROD_OK);
  if (st != COSROD_OK) return;
  FILE *f = tmpfile();
  CHECK("tmpfile", f != NULL);
  if (!f) {
    cosrod_scenario_free(sc);
    return;
  }
  cosrod_scenario_to_yaml(sc, f);
  long n = ftell(f);
  size_t len = 0;
  char *buf = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
  rewind(f);
  if (buf && n > 0) len = fread(buf, 1, (size_t)n, f);
  fclose(f);
  if (!buf) {
    cosrod_scenario_free(sc);
    return;
  }
  CHECK("variant written", strstr(buf, "variant: bushing") != NULL);
  CHECK("rotary_inertia written", strstr(buf, "rotary_inertia: cylinder") != NULL);
  cosrod_scenario *sc2 = cosrod_scenario_parse(buf, len, "w.yaml", NULL, 0, &st);
  if (!sc2) NOTE("%s", cosrod_last_error());
  CHECK("reloads", st == COSROD_OK);
  if (sc2) {
    const cosrod_sc_damping *d1 = &sc->rods[0].damping, *d2 = &sc2->rods[0].damping;
    CHECK("same reading", d1->variant == d2->variant && d1->rotary_inertia == d2->rotary_inertia);
    CHECK_NEAR("same V_Gamma3", d2->V_gamma[2], d1->V_gamma[2], 0.0);
  }
  free(buf);
  cosrod_scenario_free(sc);
  cosrod_scenario_free(sc2);
}

int main(int argc, char **argv) {
  static const th_case cases[] = {TH_CASE(constants_of_each_reading), TH_CASE(jacobian_rubber_pinned),
                                  TH_CASE(jacobian_steel_clamped),    TH_CASE(input_errors),
                                  TH_CASE(shear_e_kelvin_voigt),      TH_CASE(yaml_round_trip)};
  return th_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
