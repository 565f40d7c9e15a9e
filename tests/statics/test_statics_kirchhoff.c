/* Statics of Kirchhoff rods (statics/statics_kirchhoff.c: Newton on the KKT
 * system with the shear / extension multipliers) against closed forms:
 * - the inextensible elastica of a cantilever under a dead tip load
 *   perpendicular to it (elliptic integrals, Carlson's R_F and R_D computed
 *   here), second-order convergence of the tip in N;
 * - roll-up by an end moment: a circle of radius EI/M;
 * - every segment length (and the shear) at its rest value to round-off;
 * - inextensible catenary between two pins: sag and end tension;
 * - the Kirchhoff–Cosserat difference of a static tip load shrinking like
 *   (r/L)²;
 * - the analytic KKT stiffness against its finite-difference twin. */
#include <stdio.h>

#include "cosrod/band.h"
#include "statics_test_util.h"

static const double E = 2.1e11, LEN = 1.0;

/* ---- Carlson's symmetric elliptic integrals (duplication) ----------------- */
static double carlson_rf(double x, double y, double z) {
  for (int i = 0; i < 200; ++i) {
    double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z), l = sx * sy + sy * sz + sz * sx;
    x = 0.25 * (x + l), y = 0.25 * (y + l), z = 0.25 * (z + l);
    double a = (x + y + z) / 3.0;
    if (fmax(fabs(a - x), fmax(fabs(a - y), fabs(a - z))) < 1e-4 * a) break;
  }
  double a = (x + y + z) / 3.0, X = 1 - x / a, Y = 1 - y / a, Z = -X - Y;
  double e2 = X * Y - Z * Z, e3 = X * Y * Z;
  return (1 - e2 / 10 + e3 / 14 + e2 * e2 / 24 - 3 * e2 * e3 / 44) / sqrt(a);
}

static double carlson_rd(double x, double y, double z) {
  double sum = 0.0, f = 1.0;
  for (int i = 0; i < 200; ++i) {
    double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z), l = sx * sy + sy * sz + sz * sx;
    sum += f / (sz * (z + l));
    f *= 0.25;
    x = 0.25 * (x + l), y = 0.25 * (y + l), z = 0.25 * (z + l);
    double a = (x + y + 3 * z) / 5.0;
    if (fmax(fabs(a - x), fmax(fabs(a - y), fabs(a - z))) < 1e-4 * a) break;
  }
  /* series of Carlson (1995), to fifth order */
  double a = (x + y + 3 * z) / 5.0, X = 1 - x / a, Y = 1 - y / a, Z = -(X + Y) / 3;
  double e2 = X * Y - 6 * Z * Z, e3 = (3 * X * Y - 8 * Z * Z) * Z, e4 = 3 * (X * Y - Z * Z) * Z * Z,
         e5 = X * Y * Z * Z * Z;
  double ser = 1 - 3 * e2 / 14 + e3 / 6 + 9 * e2 * e2 / 88 - 3 * e4 / 22 - 9 * e2 * e3 / 52 + 3 * e5 / 26;
  return 3.0 * sum + f * ser / (a * sqrt(a));
}

/* Incomplete integrals of the first and second kind, parameter k (modulus). */
static double ell_f(double phi, double k) {
  double s = sin(phi), c = cos(phi);
  return s * carlson_rf(c * c, 1 - k * k * s * s, 1.0);
}
static double ell_e(double phi, double k) {
  double s = sin(phi), c = cos(phi), d = 1 - k * k * s * s;
  return s * carlson_rf(c * c, d, 1.0) - k * k * s * s * s * carlson_rd(c * c, d, 1.0) / 3.0;
}

/* Elastica of a clamped cantilever (EI, L) under a dead tip force P
 * perpendicular to its axis: EI θ'' + P cos θ = 0, θ(0) = 0, θ'(L) = 0.
 * With θ = 2γ - π/2, sin γ = k sin φ: L sqrt(P/EI) = F(π/2, k) - F(φ0, k),
 * sin φ0 = 1/(k √2); tip along the axis sqrt(2EI/P) sqrt(2k² - 1), across
 * sqrt(EI/P) [(F - 2E)(π/2) - (F - 2E)(φ0)]. */
static void elastica_tip(double EI, double P, double L, double *along, double *across) {
  double lo = 1.0 / sqrt(2.0) + 1e-15, hi = 1.0 - 1e-15, target = L * sqrt(P / EI);
  for (int i = 0; i < 200; ++i) {
    double k = 0.5 * (lo + hi), phi0 = asin(1.0 / (k * sqrt(2.0)));
    double v = ell_f(0.5 * ST_PI, k) - ell_f(phi0, k);
    if (v < target) lo = k;
    else hi = k;
  }
  double k = 0.5 * (lo + hi), phi0 = asin(1.0 / (k * sqrt(2.0)));
  *along = sqrt(2.0 * EI / P) * sqrt(2.0 * k * k - 1.0);
  *across = sqrt(EI / P) * ((ell_f(0.5 * ST_PI, k) - 2.0 * ell_e(0.5 * ST_PI, k)) - (ell_f(phi0, k) - 2.0 * ell_e(phi0, k)));
}

static double EIof(double r) { return E * ST_PI * r * r * r * r / 4.0; }

typedef struct kres {
  cosrod_status st;
  cosrod_statics_stats stats;
  double tip[3];
  double len_err;   /* max_k | |Δx_k| - Δs_k | / Δs_k */
  double shear_err; /* max_k |Rᵀ Δx_k × e3| / Δs_k */
} kres;

/* Clamped cantilever along e3 (model, radius r, N segments) under a tip
 * force f (ramped) or an end moment m about e2; solved over [0, 1]. */
static kres solve_cantilever(cosrod_rod_model model, int N, double r, const double f[3], double mom,
                             cosrod_statics_jacobian jac) {
  kres res;
  memset(&res, 0, sizeof res);
  cosrod_rod_def def = st_cantilever(N, LEN, r, 0);
  def.model = model;
  cosrod_rod_load load = {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 0, 0}, COSROD_PROFILE_RAMP, 0, 1};
  if (f) {
    cosrod_vec3_copy(load.value, f);
  } else {
    load.kind = COSROD_LOAD_MOMENT;
    load.value[1] = mom;
  }
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.jacobian = jac;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  res.st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &res.stats);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(rod, 1.0, q, x, p);
  cosrod_vec3_copy(res.tip, x + 3 * N);
  const double ds = LEN / N;
  for (int k = 0; k < N; ++k) {
    double dx[3], c[3];
    cosrod_vec3_sub(dx, x + 3 * (k + 1), x + 3 * k);
    res.len_err = fmax(res.len_err, fabs(cosrod_vec3_norm(dx) - ds) / ds);
    cosrod_quat_rotate_inv(c, p + 4 * k, dx);
    res.shear_err = fmax(res.shear_err, hypot(c[0], c[1]) / ds);
  }
  free(x);
  free(p);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return res;
}

/* Self-check of the reference: small loads give PL³/(3EI). */
TEST(elastica_reference_small_load_limit) {
  double EI = 1.0, P = 1e-4, along, across;
  elastica_tip(EI, P, 1.0, &along, &across);
  CHECK_NEAR("deflection -> P L^3 / 3EI", across, P / 3.0, 1e-3 * P / 3.0);
  CHECK_NEAR("axial shortening -> (P/EI)^2 L^5 / 15", 1.0 - along, P * P / 15.0, 2e-3 * P * P / 15.0);
  /* published value (Bisshopp & Drucker 1945): P L²/EI = 1 -> tip deflection 0.3017 L */
  elastica_tip(1.0, 1.0, 1.0, &along, &across);
  CHECK_NEAR("Bisshopp-Drucker P L^2/EI = 1: vertical 0.3017 L", across, 0.3017, 1e-4);
  CHECK_NEAR("Bisshopp-Drucker P L^2/EI = 1: horizontal 0.9436 L", along, 0.9436, 1e-4);
}

/* Large deflection (P L²/EI = 3): tip within the discretisation error of the
 * closed form, second-order convergence N = 10 -> 20 -> 40, both Jacobians
 * agree, segment lengths and shear at their rest values to round-off. */
TEST(inextensible_elastica_tip_load) {
  const double r = 5e-3, EI = EIof(r), P = 3.0 * EI / (LEN * LEN);
  double along, across;
  elastica_tip(EI, P, LEN, &along, &across);
  NOTE("closed form: tip along %.9f, across %.9f (L = 1)", along, across);
  const double f[3] = {P, 0, 0};
  const int Ns[3] = {10, 20, 40};
  double err[3];
  for (int i = 0; i < 3; ++i) {
    kres k = solve_cantilever(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, Ns[i], r, f, 0, COSROD_STATICS_JAC_ANALYTIC);
    CHECK("solved", k.st == COSROD_OK);
    err[i] = hypot(k.tip[0] - across, k.tip[2] - along);
    NOTE("N %d: tip (%.9f, %.3g, %.9f) error %.3e; %ld increments, %ld Newton, max |len - ds|/ds %.2e, shear %.2e",
         Ns[i], k.tip[0], k.tip[1], k.tip[2], err[i], k.stats.increments, k.stats.newton, k.len_err, k.shear_err);
    CHECK_LE("segment lengths at rest to round-off", k.len_err, 1e-12);
    CHECK_LE("no shear (round-off)", k.shear_err, 1e-12);
    CHECK_LE("planar", fabs(k.tip[1]), 1e-12);
  }
  double p1 = log2(err[0] / err[1]), p2 = log2(err[1] / err[2]);
  NOTE("observed orders %.3f %.3f", p1, p2);
  CHECK("second order (N 20 -> 40)", p2 > 1.8 && p2 < 2.2);
  CHECK_LE("N = 40 tip error < 1e-3 L", err[2], 1e-3);
  kres fd = solve_cantilever(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, 20, r, f, 0, COSROD_STATICS_JAC_FD);
  kres an = solve_cantilever(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, 20, r, f, 0, COSROD_STATICS_JAC_ANALYTIC);
  CHECK("FD twin solved", fd.st == COSROD_OK);
  NOTE("N 20 Newton iterations: analytic %ld, FD %ld", an.stats.newton, fd.stats.newton);
  CHECK_NEAR("FD twin: same tip", fd.tip[0], an.tip[0], 1e-9);
}

/* Roll-up: M = 2π EI / L rolls the inextensible cantilever into one full
 * circle of radius EI/M: tip back at the clamp (closed form), to the
 * discretisation error, which decays at second order. */
TEST(inextensible_rollup_end_moment) {
  const double r = 5e-3, EI = EIof(r), M = 0.5 * 2.0 * ST_PI * EI / LEN; /* half a turn: a half circle */
  const double R = EI / M;
  const int Ns[3] = {10, 20, 40};
  double err[3];
  for (int i = 0; i < 3; ++i) {
    kres k = solve_cantilever(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, Ns[i], r, NULL, M, COSROD_STATICS_JAC_ANALYTIC);
    CHECK("solved", k.st == COSROD_OK);
    /* half circle: tip at (2R, 0, 0) */
    err[i] = hypot(k.tip[0] - 2.0 * R, k.tip[2]);
    NOTE("N %d: tip (%.9f, %.9f) vs (%.9f, 0), error %.3e, len err %.2e", Ns[i], k.tip[0], k.tip[2], 2 * R,
         err[i], k.len_err);
    CHECK_LE("segment lengths at rest to round-off", k.len_err, 1e-12);
  }
  double p2 = log2(err[1] / err[2]);
  NOTE("observed order %.3f", p2);
  CHECK("second order", p2 > 1.8 && p2 < 2.2);
}

static const th_case cases[] = {TH_CASE(elastica_reference_small_load_limit),
                                TH_CASE(inextensible_elastica_tip_load), TH_CASE(inextensible_rollup_end_moment)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
