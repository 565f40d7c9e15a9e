// SPDX-License-Identifier: Apache-2.0
/* Roll-up of a clamped cantilever by an end moment (the classic large-
 * rotation test): pure bending, the exact solution is a circle of radius
 * R = EI/M, one full turn at M = 2π EI/L.  Dead (spatial) and follower
 * (material) moments about e2 = d2 load the same planar path.  Checks:
 * every curvature variant reaches one and two turns, the radius of the
 * discrete circle converges to EI/M at second order in N, and the one case
 * the discrete model cannot reach (the sine-2 curvature, whose conjugate
 * torque EI sin φ / Δs is bounded by EI/Δs) stops at that limit. */
#include <stdio.h>

#include "statics_test_util.h"

static const double E = 2.1e11, RAD = 5e-3, LEN = 1.0;

static double EI(void) { return E * ST_PI * RAD * RAD * RAD * RAD / 4.0; }

typedef struct rollup_result {
  cosrod_status st;
  cosrod_statics_stats stats;
  double rmean, rspread; /* mean circumradius of consecutive vertex triples, max deviation / mean */
  double tip_err;        /* |tip - closed-form tip| / L */
  double off_plane;      /* max |y| / L */
} rollup_result;

/* Circumradius of the triangle (a, b, c). */
static double circumradius(const double *a, const double *b, const double *c) {
  double u[3], v[3], w[3], x[3];
  cosrod_vec3_sub(u, b, a);
  cosrod_vec3_sub(v, c, b);
  cosrod_vec3_sub(w, c, a);
  cosrod_vec3_cross(x, u, w);
  return cosrod_vec3_norm(u) * cosrod_vec3_norm(v) * cosrod_vec3_norm(w) / (2.0 * cosrod_vec3_norm(x));
}

static rollup_result rollup(int N, cosrod_curvature cv, cosrod_load_frame fr, double turns) {
  rollup_result res;
  memset(&res, 0, sizeof res);
  cosrod_rod_def def = st_cantilever(N, LEN, RAD, 0);
  def.curvature = cv;
  const double M = turns * 2.0 * ST_PI * EI() / LEN;
  cosrod_rod_load load = {COSROD_LOAD_MOMENT, fr, -1, {0, M, 0}, COSROD_PROFILE_RAMP, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  res.st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &res.stats);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(rod, res.stats.t, q, x, p);
  double rmin = INFINITY, rmax = 0.0, rsum = 0.0;
  for (int n = 1; n < N; ++n) {
    double r = circumradius(x + 3 * (n - 1), x + 3 * n, x + 3 * (n + 1));
    rmin = fmin(rmin, r), rmax = fmax(rmax, r), rsum += r;
  }
  res.rmean = rsum / (N - 1);
  res.rspread = (rmax - rmin) / res.rmean;
  /* closed form: the rod along e3 bends towards +e1 under +M e2 (the
   * tangent turns by s/R about e2): x = R (1 - cos(s/R)), z = R sin(s/R) */
  const double R = EI() / (M * res.stats.t); /* at the reached load factor */
  double tip[3] = {R * (1.0 - cos(LEN / R)), 0.0, R * sin(LEN / R)}, d[3];
  cosrod_vec3_sub(d, x + 3 * N, tip);
  res.tip_err = cosrod_vec3_norm(d) / LEN;
  for (int n = 0; n <= N; ++n) res.off_plane = fmax(res.off_plane, fabs(x[3 * n + 1]) / LEN);
  free(x);
  free(p);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return res;
}

/* N = 20, 40, 80: the radius error EI/M vs the discrete circle decays at
 * order 2 (angle variant: R = Δs / (2 sin(φ/2)) with φ = M Δs/EI, relative
 * error φ²/24 + O(φ⁴); tangent-2 ~ 3φ²/8), bounded by φ²/2 at N = 80; the
 * spread of the vertex circumradii is at the Newton tolerance (pure bending:
 * uniform curvature is an identity of the discrete equilibrium).  (The
 * sine-4 variant's vertices lie exactly on the circle of radius EI/M,
 * T = 2 EI sin(φ/2)/Δs, so it is not used here.) */
static void convergence(cosrod_curvature cv, cosrod_load_frame fr, double turns) {
  const int Ns[3] = {20, 40, 80};
  double err[3];
  const double Rex = EI() / (turns * 2.0 * ST_PI * EI() / LEN);
  for (int i = 0; i < 3; ++i) {
    rollup_result r = rollup(Ns[i], cv, fr, turns);
    err[i] = fabs(r.rmean - Rex) / Rex;
    NOTE("%s %s %.0f turn(s) N = %2d: %s, %ld increments (%ld rejected), %ld Newton; R = %.10f, EI/M = %.10f, "
         "rel. error %.3e, spread %.1e, tip error %.2e L, off-plane %.1e",
         cosrod_curvature_name(cv), fr == COSROD_FRAME_SPATIAL ? "dead" : "follower", turns, Ns[i],
         cosrod_status_name(r.st), r.stats.increments, r.stats.rejected, r.stats.newton, r.rmean, Rex, err[i],
         r.rspread, r.tip_err, r.off_plane);
    CHECK("roll-up solved to the full moment", r.st == COSROD_OK && r.stats.t == 1.0);
    CHECK_LE("uniform curvature (circumradius spread)", r.rspread, 1e-6);
    CHECK_LE("planar (|y| / L)", r.off_plane, 1e-9);
  }
  double o1 = log2(err[0] / err[1]), o2 = log2(err[1] / err[2]);
  NOTE("observed orders %.3f %.3f", o1, o2);
  CHECK_CLOSE("order N = 20 -> 40", o1, 2.0, 0.0, 0.1);
  CHECK_CLOSE("order N = 40 -> 80", o2, 2.0, 0.0, 0.1);
  const double phi = 2.0 * ST_PI * turns / Ns[2];
  CHECK_LE("radius error at N = 80 <= φ²/2", err[2], 0.5 * phi * phi);
}

TEST(rollup_one_turn_dead_convergence) { convergence(COSROD_CURV_TANGENT2, COSROD_FRAME_SPATIAL, 1.0); }
TEST(rollup_one_turn_follower_convergence) { convergence(COSROD_CURV_TANGENT2, COSROD_FRAME_MATERIAL, 1.0); }
TEST(rollup_two_turns_dead_convergence) { convergence(COSROD_CURV_ANGLE, COSROD_FRAME_SPATIAL, 2.0); }
TEST(rollup_two_turns_follower_convergence) { convergence(COSROD_CURV_TANGENT4, COSROD_FRAME_MATERIAL, 2.0); }

/* Every curvature variant, dead and follower, one and two turns, at N = 10,
 * 20, 40 and 80 (N = 80: the force residual's roundoff floor exceeds tol
 * times its scale): solved, and the tip on the closed-form circle within
 * the discretisation error ((2π turns / N)² / 24 of the radius, times the
 * 2π turns lever).  Not sine-2 with two turns at N = 10: a genuine limit
 * point of that discrete model (rollup_sine2_discrete_limit). */
TEST(rollup_all_variants) {
  const int Ns[4] = {10, 20, 40, 80};
  for (int in = 0; in < 4; ++in)
    for (int cv = COSROD_CURV_SINE2; cv <= COSROD_CURV_ANGLE; ++cv)
      for (int fr = 0; fr < 2; ++fr)
        for (int turns = 1; turns <= 2; ++turns) {
          int N = Ns[in];
          if (N == 10 && cv == COSROD_CURV_SINE2 && turns == 2) continue;
          rollup_result r = rollup(N, (cosrod_curvature)cv, (cosrod_load_frame)fr, turns);
          double phi = 2.0 * ST_PI * turns / N, bound = 2.0 * ST_PI * turns * phi * phi / 6.0;
          NOTE("N = %d %-9s %-8s %d turn(s): %s, %ld increments (%ld rejected), %ld Newton, residual %.1e; tip "
               "error %.2e L (bound %.1e)",
               N, cosrod_curvature_name((cosrod_curvature)cv), fr ? "follower" : "dead", turns,
               cosrod_status_name(r.st), r.stats.increments, r.stats.rejected, r.stats.newton, r.stats.residual,
               r.tip_err, bound);
          CHECK("solved to the full moment", r.st == COSROD_OK && r.stats.t == 1.0);
          CHECK_LE("tip on the closed-form circle", r.tip_err, bound);
          CHECK_LE("not stopped at a (spurious) critical point", (double)r.stats.critical, 0.0);
        }
}

/* The sine-2 variant (K = 2 sin(φ/2)/Δs, ζ = 1) bounds the conjugate
 * torque: T = EI K dK/dφ Δs = EI sin φ / Δs <= EI/Δs, a genuine limit point
 * of the discrete model.  Two turns at N = 10 need T Δs / EI = 4π/10 > 1:
 * the solve must stop at the load factor 10/(4π) = 0.7958 (not earlier). */
TEST(rollup_sine2_discrete_limit) {
  rollup_result r = rollup(10, COSROD_CURV_SINE2, COSROD_FRAME_SPATIAL, 2.0);
  const double t_lim = 10.0 / (4.0 * ST_PI);
  NOTE("status %s, stopped at t = %.6f, discrete limit %.6f", cosrod_status_name(r.st), r.stats.t, t_lim);
  CHECK("fails (no equilibrium beyond the limit)", r.st == COSROD_ERR_CONVERGENCE);
  CHECK_CLOSE("stops at the limit load of the discrete model", r.stats.t, t_lim, 2e-3, 0.0);
  CHECK_LE("below it", r.stats.t, t_lim);
}

static const th_case cases[] = {TH_CASE(rollup_one_turn_dead_convergence),
                                TH_CASE(rollup_one_turn_follower_convergence),
                                TH_CASE(rollup_two_turns_dead_convergence),
                                TH_CASE(rollup_two_turns_follower_convergence),
                                TH_CASE(rollup_all_variants),
                                TH_CASE(rollup_sine2_discrete_limit)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
