// SPDX-License-Identifier: Apache-2.0
/* Small-deflection cantilevers against beam theory (Euler–Bernoulli /
 * Timoshenko), second-order convergence in N, Euler buckling of a
 * clamped-free column followed onto the post-buckling branch (elastica),
 * re-solving an equilibrium, and failures (limit point, min increment). */
#include <stdio.h>

#include "cosrod/band.h"
#include "statics_test_util.h"

/* Tip position of the solved cantilever (loads ramped over [0, 1]). */
static cosrod_status solve_tip(const cosrod_rod_def *def, int increments, double tip[3],
                               cosrod_statics_stats *stats) {
  cosrod_rod *rod = cosrod_rod_create(def, NULL);
  if (!rod) return COSROD_ERR_INVALID;
  cosrod_statics_options o = cosrod_statics_default_options();
  o.increments = increments;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, stats);
  int N = cosrod_rod_nseg(rod);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(rod, 1.0, q, x, p);
  memcpy(tip, x + 3 * N, 3 * sizeof(double));
  free(x);
  free(p);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return st;
}

typedef enum { TIP_LOAD, GRAVITY } load_case;

/* Tip deflection along e1 under a tip force or gravity of magnitude mag along e1. */
static double cantilever_deflection(int N, double L, double r, int square, load_case lc, double mag) {
  cosrod_rod_def def = st_cantilever(N, L, r, square);
  cosrod_rod_load load = {0};
  if (lc == TIP_LOAD) {
    load.kind = COSROD_LOAD_FORCE;
    load.frame = COSROD_FRAME_SPATIAL;
    load.vertex = -1;
    load.value[0] = mag;
    load.profile = COSROD_PROFILE_RAMP;
    load.t0 = 0.0, load.t1 = 1.0;
    def.nloads = 1;
    def.loads = &load;
  } else {
    def.gravity[0] = mag;
  }
  double tip[3];
  cosrod_statics_stats stats;
  cosrod_status st = solve_tip(&def, 1, tip, &stats); /* linear range: one increment */
  if (st != COSROD_OK) return NAN;
  return tip[0];
}

/* Continuum references (linear Timoshenko beam, κ = 1 as the rod default):
 * tip load P:  δ = P L³/(3 EI) + P L/(κ G A)
 * uniform q:   δ = q L⁴/(8 EI) + q L²/(2 κ G A) */
static void section_constants(double r, int square, double *A, double *I) {
  if (square) {
    *A = r * r;
    *I = r * r * r * r / 12.0;
  } else {
    *A = ST_PI * r * r;
    *I = ST_PI * r * r * r * r / 4.0;
  }
}

static void convergence_case(const char *label, double L, double r, int square, load_case lc, double rel_load,
                             double *ratio_eb_out) {
  const double E = 2.1e11, G = E / 2.6, rho = 7850.0;
  double A, I;
  section_constants(r, square, &A, &I);
  double mag, d_eb, d_sh;
  if (lc == TIP_LOAD) {
    mag = rel_load * 3.0 * E * I / (L * L); /* tip deflection ~ rel_load * L */
    d_eb = mag * L * L * L / (3.0 * E * I);
    d_sh = mag * L / (G * A);
  } else {
    double q = rel_load * 8.0 * E * I / (L * L * L);
    mag = q / (rho * A); /* gravity giving that q */
    d_eb = q * L * L * L * L / (8.0 * E * I);
    d_sh = q * L * L / (2.0 * G * A);
  }
  double ref = d_eb + d_sh;
  int Ns[3] = {8, 16, 32};
  double err[3];
  for (int i = 0; i < 3; ++i) {
    double d = cantilever_deflection(Ns[i], L, r, square, lc, mag);
    err[i] = fabs(d - ref) / ref;
    NOTE("%s N = %2d: deflection %.10e, Timoshenko %.10e (EB %.10e), rel. error %.3e", label, Ns[i], d, ref,
         d_eb, err[i]);
  }
  double o1 = log2(err[0] / err[1]), o2 = log2(err[1] / err[2]);
  NOTE("%s observed orders %.3f %.3f", label, o1, o2);
  /* second order in N (the errors are far above the geometric nonlinearity
   * ~ (δ/L)² = 1e-10 and the Newton tolerance) */
  CHECK_CLOSE("observed order N = 8 -> 16", o1, 2.0, 0.0, 0.15);
  CHECK_CLOSE("observed order N = 16 -> 32", o2, 2.0, 0.0, 0.15);
  /* discretisation error at N = 32 ~ C/N^2 with C = O(1) */
  CHECK_LE("relative error at N = 32", err[2], 2e-3);
  if (ratio_eb_out) *ratio_eb_out = d_sh / ref;
}

/* slender steel rod (L/r = 200): shear part 1e-4 of the deflection */
TEST(cantilever_tip_load_slender) {
  convergence_case("tip load, slender", 1.0, 5e-3, 0, TIP_LOAD, 1e-5, NULL);
}

TEST(cantilever_gravity_slender) { convergence_case("gravity, slender", 1.0, 5e-3, 0, GRAVITY, 1e-5, NULL); }

/* short thick square rod (L/h = 4): shear is several % of the deflection,
 * so matching Timoshenko to < 0.2 % at N = 32 (with order 2) distinguishes
 * it from Euler–Bernoulli */
TEST(cantilever_tip_load_thick_timoshenko) {
  double shear_share;
  convergence_case("tip load, thick", 0.1, 0.025, 1, TIP_LOAD, 1e-5, &shear_share);
  NOTE("shear share of the deflection %.4f", shear_share);
  CHECK_LE("shear part is significant (> 1 %, >> the 0.2 % tolerance)", 0.01, shear_share);
}

TEST(cantilever_gravity_thick_timoshenko) {
  double shear_share;
  convergence_case("gravity, thick", 0.1, 0.025, 1, GRAVITY, 1e-5, &shear_share);
  CHECK_LE("shear part is significant", 0.01, shear_share);
}

/* ---- buckling ------------------------------------------------------------ */

/* complete elliptic integral of the first kind K(k) by the AGM */
static double ellip_k(double k) {
  double a = 1.0, b = sqrt(1.0 - k * k);
  for (int i = 0; i < 40; ++i) {
    double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return ST_PI / (2.0 * a);
}

/* Elastica of the clamped-free column (Timoshenko & Gere §2.7):
 * sqrt(P/EI) L = K(k), tip lateral deflection 2 k sqrt(EI/P). */
static double elastica_tip(double P, double EI, double L) {
  double target = sqrt(P / EI) * L, lo = 0.0, hi = 0.999999;
  for (int i = 0; i < 200; ++i) {
    double mid = 0.5 * (lo + hi);
    if (ellip_k(mid) < target)
      lo = mid;
    else
      hi = mid;
  }
  return 2.0 * 0.5 * (lo + hi) * sqrt(EI / P);
}

/* Column along e3, clamped at s = 0, compressive dead tip load P ramped to
 * its value, imperfection: a lateral tip force 1e-4 P along e1. */
static cosrod_status column(int N, double P, double *lat, cosrod_statics_stats *stats) {
  cosrod_rod_def def = st_cantilever(N, 1.0, 5e-3, 0);
  cosrod_rod_load loads[2] = {{0}, {0}};
  for (int i = 0; i < 2; ++i) {
    loads[i].kind = COSROD_LOAD_FORCE;
    loads[i].frame = COSROD_FRAME_SPATIAL;
    loads[i].vertex = -1;
    loads[i].profile = COSROD_PROFILE_RAMP;
    loads[i].t0 = 0.0, loads[i].t1 = 1.0;
  }
  loads[0].value[2] = -P;
  loads[1].value[0] = 1e-4 * P;
  def.nloads = 2;
  def.loads = loads;
  double tip[3];
  cosrod_status st = solve_tip(&def, 25, tip, stats);
  *lat = tip[0];
  return st;
}

TEST(euler_buckling_post_branch) {
  const double E = 2.1e11, r = 5e-3, EI = E * ST_PI * r * r * r * r / 4.0;
  const double Pcr = ST_PI * ST_PI * EI / 4.0; /* clamped-free, L = 1 */
  const int N = 20;
  double lat_below, lat_above;
  cosrod_statics_stats sb, sa;
  cosrod_status st1 = column(N, 0.9 * Pcr, &lat_below, &sb);
  cosrod_status st2 = column(N, 1.1 * Pcr, &lat_above, &sa);
  CHECK("0.9 Pcr solved", st1 == COSROD_OK);
  CHECK("1.1 Pcr solved", st2 == COSROD_OK);
  NOTE("increments below %ld (rejected %ld), above %ld (rejected %ld)", sb.increments, sb.rejected,
       sa.increments, sa.rejected);
  /* below: the imperfection's linear deflection H L^3 / (3 EI) amplified by
   * ~1/(1 - P/Pcr) = 10 (Timoshenko & Gere §1.11 for the cantilever; exact
   * amplification of the first mode, the others are not amplified) */
  double d_imp = 1e-4 * 0.9 * Pcr / (3.0 * EI);
  NOTE("below: tip deflection %.4e, linear imperfection response %.4e, ratio %.3f", lat_below, d_imp,
       lat_below / d_imp);
  CHECK_CLOSE("amplification below Pcr ~ 1/(1 - 0.9) = 10 (+-10 %)", lat_below / d_imp, 10.0, 0.1, 0.0);
  /* above: the post-buckling branch of the elastica (the imperfection
   * shifts it by O(1e-4 / (k^2)) relative, the discretisation by O(1/N^2)) */
  double ref = elastica_tip(1.1 * Pcr, EI, 1.0);
  NOTE("above: tip deflection %.6f m, elastica %.6f m", lat_above, ref);
  CHECK_CLOSE("post-buckling tip deflection vs elastica (1 %)", lat_above, ref, 1e-2, 0.0);
  CHECK_LE("branch above Pcr is far from the trivial one (> 100x the below-Pcr deflection)",
           100.0 * lat_below, lat_above);
}

/* The perfect column (no imperfection) stays straight; the stability monitor
 * stops the load-controlled solve at the bifurcation, which must be Euler's
 * load: the last converged load 1.1 Pcr t_stop ~ Pcr (discretisation error
 * O(1/N²) ~ 5e-4 at N = 20, shear softening Pcr/(κGA) ~ 1e-5, bracket of the
 * halved increments ~1e-4). */
TEST(euler_buckling_load_detected) {
  const double E = 2.1e11, r = 5e-3, EI = E * ST_PI * r * r * r * r / 4.0;
  const double Pcr = ST_PI * ST_PI * EI / 4.0;
  cosrod_rod_def def = st_cantilever(20, 1.0, r, 0);
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 0, -1.1 * Pcr}, COSROD_PROFILE_RAMP, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.min_increment = 1e-5;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &stats);
  double Pstop = 1.1 * Pcr * stats.t;
  NOTE("status %s, critical %d, stopped at t = %.6f: P = %.5f N, Euler Pcr = %.5f N (ratio %.6f)",
       cosrod_status_name(st), stats.critical, stats.t, Pstop, Pcr, Pstop / Pcr);
  CHECK("stops with ERR_CONVERGENCE at a critical point",
        st == COSROD_ERR_CONVERGENCE && stats.critical == 1);
  CHECK_CLOSE("critical load = Euler's load", Pstop, Pcr, 2e-3, 0.0);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* ---- re-solving an equilibrium, failures -------------------------------- */

typedef struct last_state {
  int n;
  double t;
  double q[1024];
  int nq;
} last_state;

static int keep_last(void *user, double t, const double *q, int iterations, double residual) {
  (void)iterations, (void)residual;
  last_state *ls = user;
  ls->n++;
  ls->t = t;
  memcpy(ls->q, q, sizeof(double) * (size_t)ls->nq);
  return 0;
}

TEST(resolve_equilibrium_zero_or_one_iteration) {
  cosrod_rod_def def = st_cantilever(16, 1.0, 5e-3, 0);
  def.gravity[0] = -9.81 * 50.0; /* large deflection (tip ~ 0.3 L) */
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  cosrod_statics_stats st1, st2, st3;
  cosrod_status a = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &st1);
  CHECK("first solve OK", a == COSROD_OK);
  NOTE("first solve: increments %ld newton %ld", st1.increments, st1.newton);
  cosrod_status b = cosrod_statics_solve(s, q, 1.0, 1.0, NULL, NULL, &st2);
  CHECK("re-solve OK", b == COSROD_OK);
  CHECK_LE("re-solve from the equilibrium: Newton iterations <= 1", (double)st2.newton, 1.0);
  cosrod_status c = cosrod_statics_equilibrium_at(s, 1.0, q, &st3);
  CHECK("equilibrium_at OK", c == COSROD_OK);
  CHECK_LE("equilibrium_at from the equilibrium: Newton iterations <= 1", (double)st3.newton, 1.0);
  double r_scaled;
  cosrod_statics_residual(s, 1.0, q, NULL, &r_scaled);
  CHECK_LE("scaled residual at the equilibrium <= tol", r_scaled, cosrod_statics_default_options().tol);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* A shallow clamped arch under a growing central dead load snaps through at a
 * limit point: load control cannot pass it. */
TEST(limit_point_snap_through_fails_cleanly) {
  cosrod_rod_def def = cosrod_rod_def_default();
  const double a = 0.25; /* half opening angle (rad) */
  def.nseg = 20;
  def.E = 2.1e11, def.poisson = 0.3, def.density = 7850.0;
  def.section = COSROD_SECTION_CIRCLE, def.radius = 2e-3;
  def.shape = COSROD_SHAPE_ARC;
  def.shape_radius = 1.0;
  def.arc_angle = 2.0 * a;
  def.length = 2.0 * a;
  def.direction[0] = cos(a), def.direction[1] = 0, def.direction[2] = sin(a);
  def.normal[0] = sin(a), def.normal[1] = 0, def.normal[2] = -cos(a);
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_CLAMPED;
  cosrod_rod_load load = {0};
  load.kind = COSROD_LOAD_FORCE;
  load.frame = COSROD_FRAME_SPATIAL;
  load.vertex = 10;
  load.value[2] = -2000.0; /* far beyond the snap load */
  load.profile = COSROD_PROFILE_RAMP;
  load.t0 = 0.0, load.t1 = 1.0;
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  CHECK("arch created", rod != NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.increments = 20;
  o.min_increment = 1e-3;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  last_state *ls = calloc(1, sizeof *ls);
  ls->nq = cosrod_rod_nq(rod);
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, keep_last, ls, &stats);
  NOTE("status %s at t = %.5f after %ld increments, %ld rejected, min step %.3e", cosrod_status_name(st),
       stats.t, stats.increments, stats.rejected, stats.min_step);
  CHECK("fails with ERR_CONVERGENCE", st == COSROD_ERR_CONVERGENCE);
  CHECK("reported as a critical point (sign change of det K)", stats.critical == 1);
  CHECK("stopped inside (0, 1)", stats.t > 0.0 && stats.t < 1.0);
  CHECK("last increment was reported by the callback", ls->n > 1 && ls->t == stats.t);
  double diff = 0.0;
  for (int i = 0; i < ls->nq; ++i) diff = fmax(diff, fabs(q[i] - ls->q[i]));
  CHECK_LE("returned state = last converged state", diff, 0.0);
  double rs;
  cosrod_statics_residual(s, stats.t, q, NULL, &rs);
  CHECK_LE("returned state is an equilibrium at stats.t", rs, o.tol);
  /* near a limit point the stiffness is nearly singular: the lowest
   * eigenvalue has dropped far below its unloaded value */
  double w0[1], w1[1];
  double *qi = st_initial_q(rod);
  cosrod_statics_modes(rod, 0.0, qi, 1, w0, NULL, NULL, NULL);
  cosrod_statics_modes(rod, stats.t, q, 1, w1, NULL, NULL, NULL);
  NOTE("lowest omega: unloaded %.4f, at the last converged increment %.4f", w0[0], w1[0]);
  CHECK_LE("omega_1^2 dropped below 5 % of its unloaded value", w1[0] * w1[0], 0.05 * w0[0] * w0[0]);
  free(qi);
  free(ls);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* Newton limited to one iteration cannot follow a large-deflection path:
 * (tol 1e-9 needs two on any nonlinear increment): the increments shrink
 * below the minimum -> ERR_CONVERGENCE, not critical,
 * the last converged state returned and reported. */
TEST(min_increment_fails_cleanly) {
  cosrod_rod_def def = st_cantilever(16, 1.0, 5e-3, 0);
  const double EI = 2.1e11 * ST_PI * pow(5e-3, 4) / 4.0;
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {-5.0 * EI, 0, 0}, COSROD_PROFILE_RAMP, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.max_newton = 1;
  o.min_increment = 1e-2; /* one iteration reaches the roundoff floor only on much smaller increments */
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  last_state *ls = calloc(1, sizeof *ls);
  ls->nq = cosrod_rod_nq(rod);
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, keep_last, ls, &stats);
  NOTE("status %s at t = %.5f after %ld increments, %ld rejected, min step %.3e", cosrod_status_name(st),
       stats.t, stats.increments, stats.rejected, stats.min_step);
  CHECK("fails with ERR_CONVERGENCE", st == COSROD_ERR_CONVERGENCE);
  CHECK("not a critical point", stats.critical == 0);
  CHECK("smallest increment tried is within a halving of the minimum", stats.min_step < 2e-2);
  CHECK("last increment reported", ls->n >= 1 && ls->t == stats.t);
  double diff = 0.0;
  for (int i = 0; i < ls->nq; ++i) diff = fmax(diff, fabs(q[i] - ls->q[i]));
  CHECK_LE("returned state = last converged state", diff, 0.0);
  free(ls);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* A free rod under a net force has no equilibrium: the first Newton
 * correction fails, the state is left unchanged. */
TEST(no_equilibrium_fails_cleanly) {
  cosrod_rod_def def = st_cantilever(8, 1.0, 5e-3, 0);
  def.ends[0].kind = COSROD_END_FREE;
  def.gravity[0] = -9.81;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod), *q0 = st_initial_q(rod);
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &stats);
  NOTE("status %s", cosrod_status_name(st));
  CHECK("fails (not OK)", st != COSROD_OK);
  double diff = 0.0;
  for (int i = 0; i < cosrod_rod_nq(rod); ++i) diff = fmax(diff, fabs(q[i] - q0[i]));
  CHECK_LE("input state returned unchanged", diff, 0.0);
  free(q);
  free(q0);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

static int stop_after_two(void *user, double t, const double *q, int iterations, double residual) {
  (void)t, (void)q, (void)iterations, (void)residual;
  int *n = user;
  return ++*n >= 3; /* t_from + two increments */
}

/* API contract: invalid input, free(NULL), interruption by the callback. */
TEST(api_edge_cases) {
  cosrod_status st = COSROD_OK;
  CHECK("create(NULL) fails", cosrod_statics_create(NULL, NULL, &st) == NULL && st == COSROD_ERR_INVALID);
  cosrod_statics_free(NULL);
  cosrod_rod_def def = st_cantilever(8, 1.0, 5e-3, 0);
  def.gravity[0] = -9.81 * 50.0;
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 1.0, 0}, COSROD_PROFILE_RAMP, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.increments = 0;
  CHECK("increments = 0 rejected", cosrod_statics_create(rod, &o, &st) == NULL && st == COSROD_ERR_INVALID);
  o = cosrod_statics_default_options();
  o.tol = 0.0;
  CHECK("tol = 0 rejected", cosrod_statics_create(rod, &o, &st) == NULL && st == COSROD_ERR_INVALID);
  o = cosrod_statics_default_options();
  o.nstops = 2;
  CHECK("stops NULL with nstops > 0 rejected", cosrod_statics_create(rod, &o, &st) == NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, &st);
  CHECK("create OK", s != NULL && st == COSROD_OK);
  CHECK("ndof = nv", cosrod_statics_ndof(s) == cosrod_rod_nv(rod, COSROD_FORM_NULLSPACE));
  double *q = st_initial_q(rod);
  int n = 0;
  cosrod_statics_stats stats;
  st = cosrod_statics_solve(s, q, 0.0, 1.0, stop_after_two, &n, &stats);
  NOTE("interrupted at t = %g after %ld increments", stats.t, stats.increments);
  CHECK("callback stop -> ERR_INTERRUPTED", st == COSROD_ERR_INTERRUPTED);
  CHECK("state kept at the stop (two increments)", stats.increments == 2 && stats.t > 0.0 && stats.t < 1.0);
  double rs;
  cosrod_statics_residual(s, stats.t, q, NULL, &rs);
  CHECK_LE("returned state is the equilibrium at stats.t", rs, 1e-9);
  double w[1];
  CHECK("modes count > nv rejected",
        cosrod_statics_modes(rod, 0.0, q, cosrod_rod_nv(rod, COSROD_FORM_NULLSPACE) + 1, w, NULL, NULL,
                             NULL) == COSROD_ERR_INVALID);
  CHECK("modes count 0 rejected",
        cosrod_statics_modes(rod, 0.0, q, 0, w, NULL, NULL, NULL) == COSROD_ERR_INVALID);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(api_edge_cases),
                                TH_CASE(cantilever_tip_load_slender),
                                TH_CASE(cantilever_gravity_slender),
                                TH_CASE(cantilever_tip_load_thick_timoshenko),
                                TH_CASE(cantilever_gravity_thick_timoshenko),
                                TH_CASE(euler_buckling_post_branch),
                                TH_CASE(euler_buckling_load_detected),
                                TH_CASE(resolve_equilibrium_zero_or_one_iteration),
                                TH_CASE(limit_point_snap_through_fails_cleanly),
                                TH_CASE(min_increment_fails_cleanly),
                                TH_CASE(no_equilibrium_fails_cleanly)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
