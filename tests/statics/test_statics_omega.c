// SPDX-License-Identifier: Apache-2.0
/* Omega twist ([LLA] Test 2, [manual: examples], examples/omega-twist.yaml) by
 * continuation: increments and Newton iterations as reported by [LLA],
 * symmetry about the midpoint at every increment and the planar final
 * centerline of the 3D reference. */
#include <stdio.h>

#include "statics_test_util.h"

static const double H = 0.5; /* quaternion component of (1,-1,-1,-1)/2 */

typedef struct omega_log {
  const cosrod_rod *rod;
  int n;
  int iters[64];
  double t[64];
  double sym_err; /* max over increments of the mirror-symmetry defect (m) */
  double x1_end;  /* max |x1| at t = 1 (m) */
} omega_log;

static cosrod_rod *omega_rod(int N, int gravity, cosrod_curvature cv, double *pos0, double *rot0,
                             double *pos1, double *rot1) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.length = 1.0;
  def.E = 5e6, def.poisson = 0.5, def.density = 1100.0;
  def.section = COSROD_SECTION_CIRCLE, def.radius = 5e-3;
  def.curvature = cv;
  def.direction[0] = 0, def.direction[1] = 1, def.direction[2] = 0;
  def.normal[0] = 0, def.normal[1] = 0, def.normal[2] = 1;
  double p0[5] = {0, H, -H, -H, -H}, p1a[5] = {1, H, -H, H, H}, p1b[5] = {1, -H, H, -H, -H};
  double x0[8] = {0, 0, 0, 0, 1, 0, 0.5, 0}, xN[8] = {0, 0, 1, 0, 1, 0, 0.5, 0};
  memcpy(pos0, x0, sizeof x0);
  memcpy(pos1, xN, sizeof xN);
  memcpy(rot0, p0, sizeof p0);
  memcpy(rot0 + 5, p1a, sizeof p1a);
  memcpy(rot1, p0, sizeof p0);
  memcpy(rot1 + 5, p1b, sizeof p1b);
  for (int e = 0; e < 2; ++e) {
    def.ends[e].kind = COSROD_END_PRESCRIBED;
    def.ends[e].npos = 2;
    def.ends[e].pos = e == 0 ? pos0 : pos1;
    def.ends[e].nrot = 2;
    def.ends[e].rot = e == 0 ? rot0 : rot1;
  }
  if (gravity) def.gravity[2] = -9.81;
  return cosrod_rod_create(&def, NULL);
}

/* Defect of the half-turn symmetry x_{N-n} = (-x, L - y, z)(x_n). */
static double mirror_defect(const cosrod_rod *rod, double t, const double *q) {
  int N = cosrod_rod_nseg(rod);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(rod, t, q, x, p);
  double e = 0.0;
  for (int n = 0; n <= N; ++n) {
    const double *a = x + 3 * n, *b = x + 3 * (N - n);
    e = fmax(e, fabs(a[0] + b[0]));
    e = fmax(e, fabs(a[1] - (1.0 - b[1])));
    e = fmax(e, fabs(a[2] - b[2]));
  }
  free(x);
  free(p);
  return e;
}

static int log_cb(void *user, double t, const double *q, int iterations, double residual) {
  omega_log *lg = user;
  (void)residual;
  if (lg->n < 64) {
    lg->iters[lg->n] = iterations;
    lg->t[lg->n] = t;
  }
  lg->n++;
  lg->sym_err = fmax(lg->sym_err, mirror_defect(lg->rod, t, q));
  if (t == 1.0) {
    int N = cosrod_rod_nseg(lg->rod);
    double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
    st_unpack_x(lg->rod, t, q, x, p);
    lg->x1_end = 0.0;
    for (int n = 0; n <= N; ++n) lg->x1_end = fmax(lg->x1_end, fabs(x[3 * n]));
    free(x);
    free(p);
  }
  return 0;
}

static cosrod_statics_jacobian g_jac = COSROD_STATICS_JAC_ANALYTIC;

static void run_omega(int N, int predictor, int increments, cosrod_curvature cv, omega_log *lg,
                      cosrod_statics_stats *stats, cosrod_status *st) {
  double pos0[8], pos1[8], rot0[10], rot1[10];
  cosrod_rod *rod = omega_rod(N, 1, cv, pos0, rot0, pos1, rot1);
  CHECK("omega rod created", rod != NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.increments = increments;
  o.predictor = predictor;
  o.jacobian = g_jac;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  memset(lg, 0, sizeof *lg);
  lg->rod = rod;
  *st = cosrod_statics_solve(s, q, 0.0, 1.0, log_cb, lg, stats);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

static int cmpi(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* median of the Newton iterations of the increments (without t = 0) */
static double median_iterations(const omega_log *lg) {
  int n = lg->n - 1, v[64];
  for (int i = 0; i < n; ++i) v[i] = lg->iters[i + 1];
  qsort(v, (size_t)n, sizeof(int), cmpi);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void check_omega(const char *label, int N, int predictor, double med_lo, double med_hi) {
  omega_log lg;
  cosrod_statics_stats stats;
  cosrod_status st;
  run_omega(N, predictor, 25, COSROD_CURV_SINE4, &lg, &stats, &st);
  NOTE("%s: N = %d, predictor %d", label, N, predictor);
  CHECK("omega twist converges (status OK)", st == COSROD_OK);
  NOTE(
      "increments %ld rejected %ld newton %ld (incl. the initial gravity sag) max it %d jacobians %ld "
      "residuals %ld wall %.3f s",
      stats.increments, stats.rejected, stats.newton, stats.max_iterations, stats.jacobians, stats.residuals,
      stats.wall_time);
  char buf[512];
  int off = 0;
  for (int i = 1; i < lg.n && i < 64 && off < 480; ++i)
    off += snprintf(buf + off, sizeof buf - (size_t)off, " %d", lg.iters[i]);
  NOTE("Newton iterations per increment:%s", buf);
  /* [LLA] §4: 25 equidistant increments sufficed, "typically about 4 to 6
   * corrector iterations".  Typical = median; the loop flips through itself
   * around t = 0.8-0.9 (segment rotation rates 5x the end rates), where up to
   * ~18 iterations are needed (the Newton basin of a shear-stiff rod is
   * small: δθ ~ sqrt(EI / (GA Δs²)) ~ 0.04 rad for this rubber rod). */
  CHECK_LE("converged increments <= 25", (double)stats.increments, 25.0);
  CHECK_LE("no increment rejected", (double)stats.rejected, 0.0);
  double med = median_iterations(&lg);
  CHECK_LE("median Newton iterations per increment <= upper bound", med, med_hi);
  CHECK_LE("median Newton iterations per increment >= lower bound (a real nonlinear solve)", med_lo, med);
  /* the boundary data and gravity are symmetric under the half turn about
   * the vertical axis through the midpoint, (x, y, z) -> (-x, L - y, z) with
   * s -> L - s, and so are the discrete equations: the defect is Newton
   * tolerance + roundoff (scaled residual 1e-9 over stiffness ~EI/L^2 gives
   * ~1e-9 m; 1e-7 m leaves room for conditioning) */
  CHECK_LE("symmetry defect over all increments (m)", lg.sym_err, 1e-7);
  /* [LLA] Fig. 5/6 and the ABAQUS 3D solution: centerline in x1 = 0 at t = 1 */
  CHECK_LE("max |x1| at t = 1 (m)", lg.x1_end, 1e-7);
}

TEST(omega_twist_default_predictor) { check_omega("default predictor", 10, 2, 3.0, 6.0); }

TEST(omega_twist_euler_predictor_lla) { check_omega("[LLA] Euler predictor", 10, 1, 4.0, 6.0); }

/* The increments land exactly on requested pseudo-times (the plot times of
 * the example: 0.25, 0.5, 0.75), and the printer reports the statistics. */
TEST(omega_twist_stops) {
  double pos0[8], pos1[8], rot0[10], rot1[10];
  cosrod_rod *rod = omega_rod(10, 1, COSROD_CURV_SINE4, pos0, rot0, pos1, rot1);
  const double stops[3] = {0.25, 0.5, 0.75};
  cosrod_statics_options o = cosrod_statics_default_options();
  o.stops = stops;
  o.nstops = 3;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  omega_log lg;
  memset(&lg, 0, sizeof lg);
  lg.rod = rod;
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, log_cb, &lg, &stats);
  CHECK("converges", st == COSROD_OK);
  int hit = 0;
  for (int i = 0; i < lg.n && i < 64; ++i)
    for (int k = 0; k < 3; ++k) hit += lg.t[i] == stops[k];
  CHECK("each stop reported exactly once", hit == 3);
  CHECK("ends at t = 1", lg.t[lg.n - 1 < 63 ? lg.n - 1 : 63] == 1.0);
  CHECK_LE("symmetry defect (m)", lg.sym_err, 1e-7);
  cosrod_statics_stats_print(stdout, &stats, 0);
  cosrod_statics_stats_print(stdout, &stats, 1);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* the finite-difference stiffness twin follows the same path */
TEST(omega_twist_fd_stiffness) {
  g_jac = COSROD_STATICS_JAC_FD;
  check_omega("FD stiffness", 10, 2, 3.0, 6.0);
  g_jac = COSROD_STATICS_JAC_ANALYTIC;
}

TEST(omega_twist_n20) { check_omega("N = 20", 20, 2, 3.0, 6.0); }

/* every curvature variant ([LLA] eq. 26 (i)-(v)) follows the path (N = 20,
 * 50 nominal increments: with N = 10 the saturating sine-2 curvature
 * 2 sin(φ/2) gets too soft in the loop and meets a limit point at t ~ 0.87) */
TEST(omega_twist_all_curvatures) {
  cosrod_curvature cv[5] = {COSROD_CURV_SINE2, COSROD_CURV_SINE4, COSROD_CURV_TANGENT2, COSROD_CURV_TANGENT4,
                            COSROD_CURV_ANGLE};
  double x1max = 0.0, symmax = 0.0;
  for (int i = 0; i < 5; ++i) {
    omega_log lg;
    cosrod_statics_stats stats;
    cosrod_status st;
    run_omega(20, 2, 50, cv[i], &lg, &stats, &st);
    NOTE("%s: status %s, t %g, increments %ld, rejected %ld, max it %d min step %g",
         cosrod_curvature_name(cv[i]), cosrod_status_name(st), stats.t, stats.increments, stats.rejected,
         stats.max_iterations, stats.min_step);
    CHECK("converges", st == COSROD_OK);
    x1max = fmax(x1max, lg.x1_end);
    symmax = fmax(symmax, lg.sym_err);
  }
  CHECK_LE("max symmetry defect over variants (m)", symmax, 1e-7);
  CHECK_LE("max |x1| at t = 1 over variants (m)", x1max, 1e-7);
}

static const th_case cases[] = {TH_CASE(omega_twist_default_predictor),
                                TH_CASE(omega_twist_euler_predictor_lla),
                                TH_CASE(omega_twist_fd_stiffness),
                                TH_CASE(omega_twist_stops),
                                TH_CASE(omega_twist_n20),
                                TH_CASE(omega_twist_all_curvatures)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
