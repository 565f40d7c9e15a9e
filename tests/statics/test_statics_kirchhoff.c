// SPDX-License-Identifier: Apache-2.0
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

/* Analytic KKT stiffness (cosrod_statics_stiffness) against its finite-
 * difference twin at a loaded, non-equilibrium state of an inextensible
 * and an extensible cantilever: the multipliers' second derivatives. */
TEST(kkt_stiffness_matches_fd_twin) {
  for (int model = 1; model <= 2; ++model) {
    const int N = 6;
    cosrod_rod_def def = st_cantilever(N, LEN, 5e-3, 0);
    def.model = (cosrod_rod_model)model;
    const double P = 2.0 * EIof(5e-3);
    cosrod_rod_load load = {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {P, 0.3 * P, -0.5 * P},
                            COSROD_PROFILE_CONSTANT, 0, 1};
    def.nloads = 1;
    def.loads = &load;
    def.gravity[1] = -9.81;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    cosrod_statics_options oa = cosrod_statics_default_options(), of = oa;
    of.jacobian = COSROD_STATICS_JAC_FD;
    cosrod_statics *sa = cosrod_statics_create(rod, &oa, NULL), *sf = cosrod_statics_create(rod, &of, NULL);
    int nv = cosrod_statics_ndof(sa);
    CHECK("KKT unknowns: 6 N (+ m N multipliers)",
          nv == cosrod_rod_nv(rod, COSROD_FORM_NULLSPACE) + (model == 2 ? 3 : 2) * N);
    double *q = st_initial_q(rod);
    /* the equilibrium (multipliers nonzero), then a finite disturbance */
    CHECK("equilibrium", cosrod_statics_equilibrium_at(sa, 0.0, q, NULL) == COSROD_OK);
    double *dl = calloc((size_t)nv, sizeof(double));
    for (int i = 0; i < nv; ++i) dl[i] = 1e-3 * sin(1.7 * i + 0.3);
    cosrod_statics_apply(sa, q, dl);
    cosrod_band *Ka = cosrod_band_create(nv, 13, 13, NULL), *Kf = cosrod_band_create(nv, 13, 13, NULL);
    CHECK("analytic", cosrod_statics_stiffness(sa, 0.0, q, Ka) == COSROD_OK);
    CHECK("fd", cosrod_statics_stiffness(sf, 0.0, q, Kf) == COSROD_OK);
    double kmax = 0.0, dmax = 0.0;
    for (int j = 0; j < nv; ++j)
      for (int i = j - 13 < 0 ? 0 : j - 13; i <= j + 13 && i < nv; ++i) {
        double a = cosrod_band_get(Ka, i, j), f = cosrod_band_get(Kf, i, j);
        kmax = fmax(kmax, fabs(a));
        dmax = fmax(dmax, fabs(a - f));
      }
    NOTE("model %d: max |K_analytic - K_fd| = %.3e of max |K| = %.3e", model, dmax, kmax);
    CHECK_LE("analytic = FD twin (relative to max |K|)", dmax / kmax, 1e-6);
    cosrod_band_free(Ka);
    cosrod_band_free(Kf);
    free(dl);
    free(q);
    cosrod_statics_free(sa);
    cosrod_statics_free(sf);
    cosrod_rod_free(rod);
  }
}

/* Catenary: w = ρAg per length, pins D apart at one height, length L:
 * L = 2a sinh(D/2a), sag a (cosh(D/2a) - 1), end tension w (a + sag).  A
 * 10 m steel cable (r = 2 mm) 8 m between pins, its bending stiffness
 * scaled down by 1e-4 (EI/(wL³) = 3e-7: a string), inextensible, gravity
 * ramped from a stress-free polygon of N links L/N through both pins:
 * sag and end tension (reactions) converge at second order to the closed
 * form. */
static void catenary_solve(int N, double *sag, double *tension, double *len_err, cosrod_status *st) {
  const double r = 2e-3, D = 8.0, L = 10.0;
  cosrod_rod_def def = cosrod_rod_def_default();
  def.model = COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE;
  def.nseg = N;
  def.length = L;
  def.E = 2.1e11, def.poisson = 0.3, def.density = 7850.0, def.radius = r;
  def.EI1 = def.EI2 = 1e-4 * EIof(r);
  def.GJ = def.EI1 / 1.3;
  /* vertices on a circular arc below the chord, equal chords L/N (the
   * links of the chain): sin(Nα/2) / sin(α/2) = N D / L, R = L / (2N sin(α/2)) */
  double alo = 1e-12, ahi = 2.0 * ST_PI / N;
  for (int i = 0; i < 200; ++i) {
    double al = 0.5 * (alo + ahi);
    if (sin(N * al / 2) / sin(al / 2) > N * D / L) alo = al;
    else ahi = al;
  }
  const double al = 0.5 * (alo + ahi), R = L / (2.0 * N * sin(al / 2)), zc = R * cos(N * al / 2);
  double *pts = malloc(sizeof(double) * 3 * (size_t)(N + 1));
  for (int n = 0; n <= N; ++n) {
    double be = -N * al / 2 + n * al;
    pts[3 * n] = D / 2 + R * sin(be), pts[3 * n + 1] = 0.0, pts[3 * n + 2] = zc - R * cos(be);
  }
  def.shape = COSROD_SHAPE_POLYLINE;
  def.npoints = N + 1;
  def.points = pts;
  def.normal[0] = 0, def.normal[1] = 1, def.normal[2] = 0;
  def.reference = COSROD_REFERENCE_INITIAL; /* stress-free polygon: the equilibrium at t = 0 */
  def.ends[0].kind = def.ends[1].kind = COSROD_END_PINNED;
  def.gravity[2] = -9.81;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  free(pts);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.gravity_ramp = 1;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(rod, 0.0, q, x, p);
  NOTE("N %d: initial polygon ends (%.6f, %.6f) (%.6f, %.6f)", N, x[0], x[2], x[3 * N], x[3 * N + 2]);
  cosrod_statics_stats ss;
  *st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &ss);
  st_unpack_x(rod, 1.0, q, x, p);
  double zmin = 0.0;
  *len_err = 0.0;
  for (int n = 0; n <= N; ++n) zmin = fmin(zmin, x[3 * n + 2]);
  for (int k = 0; k < N; ++k) {
    double dx[3];
    cosrod_vec3_sub(dx, x + 3 * (k + 1), x + 3 * k);
    *len_err = fmax(*len_err, fabs(cosrod_vec3_norm(dx) - L / N) / (L / N));
  }
  /* sag at mid-span: the lowest vertex (N even: the middle one) */
  *sag = -zmin;
  double Rx[12];
  CHECK("reactions", cosrod_statics_reactions(s, 1.0, q, Rx, NULL) == COSROD_OK);
  *tension = cosrod_vec3_norm(Rx);
  NOTE("N %d: %ld increments, %ld Newton; sag %.9f, start reaction (%.6f, %.6f, %.6f), end (%.6f, %.6f, %.6f)",
       N, ss.increments, ss.newton, *sag, Rx[0], Rx[1], Rx[2], Rx[6], Rx[7], Rx[8]);
  const double w = 7850.0 * ST_PI * r * r * 9.81;
  CHECK_NEAR("vertical reactions carry the weight", Rx[2] + Rx[8], w * L, 1e-9 * w * L);
  CHECK_NEAR("horizontal reactions balance", Rx[0] + Rx[6], 0.0, 1e-9 * w * L);
  free(x);
  free(p);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

TEST(inextensible_catenary_sag_and_tension) {
  const double r = 2e-3, D = 8.0, L = 10.0, w = 7850.0 * ST_PI * r * r * 9.81;
  double lo = 0.1, hi = 100.0; /* L = 2a sinh(D/2a), decreasing in a */
  for (int i = 0; i < 200; ++i) {
    double a = 0.5 * (lo + hi);
    if (2.0 * a * sinh(D / (2.0 * a)) > L) lo = a;
    else hi = a;
  }
  const double a = 0.5 * (lo + hi), sag = a * (cosh(D / (2.0 * a)) - 1.0), T = w * (a + sag);
  NOTE("closed form: a = %.9f m, sag = %.9f m, end tension %.9f N", a, sag, T);
  const int Ns[3] = {20, 40, 80};
  double es[3], et[3];
  for (int i = 0; i < 3; ++i) {
    double sg, tn, le;
    cosrod_status st;
    catenary_solve(Ns[i], &sg, &tn, &le, &st);
    CHECK("solved", st == COSROD_OK);
    es[i] = fabs(sg - sag) / sag, et[i] = fabs(tn - T) / T;
    NOTE("N %d: sag %.9f (rel. err %.3e), tension %.9f (rel. err %.3e), max |len - ds|/ds %.2e", Ns[i], sg, es[i],
         tn, et[i], le);
    CHECK_LE("segment lengths at rest to round-off", le, 1e-12);
  }
  NOTE("orders: sag %.3f %.3f, tension %.3f %.3f", log2(es[0] / es[1]), log2(es[1] / es[2]), log2(et[0] / et[1]),
       log2(et[1] / et[2]));
  CHECK_LE("sag at N = 80 within 1e-4", es[2], 1e-4);
  CHECK_LE("tension at N = 80 within 1e-4", et[2], 1e-4);
  CHECK("sag: second order", log2(es[1] / es[2]) > 1.8 && log2(es[1] / es[2]) < 2.2);
  CHECK("tension: second order", log2(et[1] / et[2]) > 1.8 && log2(et[1] / et[2]) < 2.2);
}

/* Static tip load P = EI/L² on a clamped cantilever (N = 20): the tips of
 * the Cosserat rod and of the two Kirchhoff rods differ by the shear and
 * axial compliance, P/(κGA) + P/(EA) relative to P L²/EI ~ (r/L)²: the
 * difference shrinks by 4 when r halves (the bending discretisation, the
 * same for all models, cancels). */
TEST(kirchhoff_cosserat_difference_like_r_over_L_squared) {
  const double rs[3] = {0.02, 0.01, 0.005};
  for (int model = 1; model <= 2; ++model) {
    double dif[3];
    for (int i = 0; i < 3; ++i) {
      const double EI = EIof(rs[i]), f[3] = {EI / (LEN * LEN), 0, 0};
      kres c = solve_cantilever(COSROD_MODEL_COSSERAT, 20, rs[i], f, 0, COSROD_STATICS_JAC_ANALYTIC);
      kres k = solve_cantilever((cosrod_rod_model)model, 20, rs[i], f, 0, COSROD_STATICS_JAC_ANALYTIC);
      CHECK("solved", c.st == COSROD_OK && k.st == COSROD_OK);
      double d[3];
      cosrod_vec3_sub(d, c.tip, k.tip);
      dif[i] = cosrod_vec3_norm(d) / LEN;
      NOTE("model %d r/L %.3f: |tip_cosserat - tip_kirchhoff| / L = %.4e ((r/L)^2 = %.1e)", model, rs[i] / LEN,
           dif[i], rs[i] * rs[i] / (LEN * LEN));
    }
    double p1 = log2(dif[0] / dif[1]) / 1.0, p2 = log2(dif[1] / dif[2]);
    NOTE("model %d: observed exponents of r/L: %.3f %.3f", model, p1, p2);
    CHECK("difference ~ (r/L)^2", p1 > 1.9 && p1 < 2.1 && p2 > 1.9 && p2 < 2.1);
  }
}

/* Modes about a loaded equilibrium (the multipliers' geometric stiffness):
 * Bernoulli's hanging chain.  An inextensible steel wire (L = 1, r = 1 mm)
 * hanging from a pin, bending stiffness scaled by 1e-9 (a chain), has the pendulum frequencies ω_n = (j_0,n / 2) sqrt(g/L), j_0,n
 * the zeros of the Bessel function J0 (2.404826, 5.520078, 8.653728), in
 * two planes; the tension ρAg(L - s) is the multiplier of the hanging
 * state. */
static int chain_modes(int N, double om[6]) {
  double all[8];
  cosrod_rod_def def = cosrod_rod_def_default();
  def.model = COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE;
  def.nseg = N;
  def.length = 1.0;
  def.E = 2.1e11, def.poisson = 0.3, def.density = 7850.0, def.radius = 1e-3;
  def.EI1 = def.EI2 = 1e-9 * EIof(1e-3); /* torsion as is: its modes are far above */
  def.direction[0] = 0, def.direction[1] = 0, def.direction[2] = -1;
  def.normal[0] = 1, def.normal[1] = 0, def.normal[2] = 0;
  def.ends[0].kind = COSROD_END_PINNED;
  def.gravity[2] = -9.81;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  cosrod_status st = cosrod_statics_equilibrium_at(s, 0.0, q, NULL);
  if (st == COSROD_OK) st = cosrod_statics_modes(rod, 0.0, q, 8, all, NULL, NULL, NULL);
  /* the rigid spin about the vertical aside (ω = 0 up to the roundoff of
   * the mass-scaled eigenproblem, |ω| < 4e-3 here) */
  int n = 0;
  for (int i = 0; i < 8 && n < 6 && st == COSROD_OK; ++i)
    if (fabs(all[i]) > 0.1 * sqrt(9.81)) om[n++] = all[i];
  if (n < 6) st = COSROD_ERR_CONVERGENCE;
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return st == COSROD_OK ? 0 : -1;
}

TEST(hanging_chain_modes_bessel_zeros) {
  static const double J0Z[3] = {2.404825557695773, 5.520078110286311, 8.653727912911012};
  const double w0 = sqrt(9.81 / 1.0);
  const int Ns[3] = {20, 40, 80};
  double err[3][3];
  for (int j = 0; j < 3; ++j) {
    double om[6];
    CHECK("modes", chain_modes(Ns[j], om) == 0);
    NOTE("N %d: omega %.6f %.6f | %.6f %.6f | %.6f %.6f (closed form %.6f %.6f %.6f)", Ns[j], om[0], om[1], om[2],
         om[3], om[4], om[5], 0.5 * J0Z[0] * w0, 0.5 * J0Z[1] * w0, 0.5 * J0Z[2] * w0);
    for (int i = 0; i < 3; ++i) {
      err[j][i] = fabs(om[2 * i] / (0.5 * J0Z[i] * w0) - 1.0);
      CHECK_NEAR("pair in two planes", om[2 * i + 1], om[2 * i], 1e-6 * om[2 * i]);
    }
  }
  for (int i = 0; i < 3; ++i) {
    double p = log2(err[1][i] / err[2][i]);
    NOTE("mode %d: relative errors %.3e %.3e %.3e, orders %.3f %.3f", i + 1, err[0][i], err[1][i], err[2][i],
         log2(err[0][i] / err[1][i]), p);
    CHECK_LE("N = 80 within 3e-3", err[2][i], 3e-3);
    CHECK("second order (N 40 -> 80)", p > 1.8 && p < 2.2);
  }
}

/* Stability monitor on the KKT path: an inextensible column (cantilever,
 * round section) under an axial dead load ramped to 1.5 times Euler's
 * P_cr = π² EI / (4 L²) stops just before the bifurcation (two equal
 * eigenvalues cross zero: buckling in two planes), stats.critical = 1,
 * at P/P_cr = 1 to the discretisation error (N = 20: ~1e-3, N = 40 closer). */
TEST(inextensible_column_stops_at_euler_load) {
  const double r = 5e-3, EI = EIof(r), Pcr = ST_PI * ST_PI * EI / (4.0 * LEN * LEN);
  const double f[3] = {0, 0, -1.5 * Pcr};
  kres k = solve_cantilever(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, 20, r, f, 0, COSROD_STATICS_JAC_ANALYTIC);
  NOTE("status %d, critical %d, t %.6f: P/P_cr = %.6f; tip (%.3g, %.3g, %.9f), %ld rejected", (int)k.st,
       k.stats.critical, k.stats.t, 1.5 * k.stats.t, k.tip[0], k.tip[1], k.tip[2], k.stats.rejected);
  CHECK("stopped at a critical point", k.st == COSROD_ERR_CONVERGENCE && k.stats.critical == 1);
  CHECK_NEAR("at Euler's load", 1.5 * k.stats.t, 1.0, 3e-3);
  CHECK_LE("still straight", hypot(k.tip[0], k.tip[1]), 1e-9);
  kres k40 = solve_cantilever(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, 40, r, f, 0, COSROD_STATICS_JAC_ANALYTIC);
  NOTE("N = 40: critical %d, P/P_cr = %.6f", k40.stats.critical, 1.5 * k40.stats.t);
  kres c = solve_cantilever(COSROD_MODEL_COSSERAT, 40, r, f, 0, COSROD_STATICS_JAC_ANALYTIC);
  NOTE("Cosserat N = 40 (LDLT inertia of K): critical %d, P/P_cr = %.6f", c.stats.critical, 1.5 * c.stats.t);
  CHECK_NEAR("N = 40: where the Cosserat column stops (its shear compliance ~1e-5)", 1.5 * k40.stats.t,
             1.5 * c.stats.t, 5e-4);
  CHECK("N = 40 stopped at a critical point", k40.st == COSROD_ERR_CONVERGENCE && k40.stats.critical == 1);
  CHECK_NEAR("N = 40 closer to Euler's load", 1.5 * k40.stats.t, 1.0, 1e-3);
}

static const th_case cases[] = {TH_CASE(elastica_reference_small_load_limit),
                                TH_CASE(inextensible_elastica_tip_load), TH_CASE(inextensible_rollup_end_moment), TH_CASE(kkt_stiffness_matches_fd_twin),
                                TH_CASE(inextensible_catenary_sag_and_tension),
                                TH_CASE(kirchhoff_cosserat_difference_like_r_over_L_squared),
                                TH_CASE(hanging_chain_modes_bessel_zeros),
                                TH_CASE(inextensible_column_stops_at_euler_load)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
