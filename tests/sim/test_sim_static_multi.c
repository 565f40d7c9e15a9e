// SPDX-License-Identifier: Apache-2.0
/* Arc-length control and keyframe (assembly) paths with several rods
 * through the simulation driver (sim_static_arc.c):
 *  - two identical DaDeppo arches in one scenario: the system is block
 *    diagonal with equal blocks, so its path in the normalised arc-length
 *    metric (both parts of the metric double) is the single arch's path;
 *    the limit load factor, the displacement there and the final state of
 *    each arch equal the single-arch run;
 *  - an arch and a cantilever rolled up by a dead end moment (λ common):
 *    the cantilever follows λ through the arch's snap and ends, at λ = 1,
 *    on the closed-form circle of radius EI/M and on the state of a plain
 *    load-controlled run of the cantilever alone;
 *  - a keyframe path with two hanging cables whose prescribed ends move on
 *    different keyframe times (one with a point load): each cable's
 *    reactions equal those of its own single-cable run at every output
 *    time, and per cable the reactions balance the loads plus the weight
 *    (forces and moments about the origin). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/sim.h"
#include "cosrod/vec3.h"
#include "harness.h"
#include "sim_test_util.h"

#define MULTI_PI 3.14159265358979323846
#define ARCH_N 40
#define MAXF 64

/* One arch rod (examples/snap-through.yaml) whose start is at (0, y0, 0). */
static int arch_yaml(char *buf, size_t n, const char *name, double y0) {
  return snprintf(buf, n,
                  "  - name: %s\n"
                  "    length: 375.2457891787808\n"
                  "    segments: %d\n"
                  "    stiffness: {EA: 1.0e9, GA1: 1.0e9, GA2: 1.0e9, EI1: 1.0e8, EI2: 1.0e6, GJ: 1.0e8}\n"
                  "    inertia: {rhoA: 1.0, rhoI1: 1.0, rhoI2: 1.0, rhoJ: 1.0}\n"
                  "    shape: {type: arc, radius: 100.0, angle_deg: 215.0, start: [0, %.17g, 0],\n"
                  "            direction: [0.3007057995042731, 0, 0.9537169507482269],\n"
                  "            normal: [-0.9537169507482269, 0, 0.3007057995042731]}\n"
                  "    ends:\n"
                  "      start: {type: clamped}\n"
                  "      end: {type: pinned}\n"
                  "    loads:\n"
                  "      - {type: force, at: %d, value: [0, 0, -1000.0], frame: spatial}\n",
                  name, ARCH_N, y0, ARCH_N / 2);
}

/* A steel cantilever (EI = 2.1e11 π r⁴/4, r = 5 mm, L = 1) along x at
 * (0, y0, 0) with an end moment M about y (spatial): the roll-up. */
#define CANT_N 40
#define CANT_EI (2.1e11 * MULTI_PI * 625e-12 / 4.0)
static int cantilever_yaml(char *buf, size_t n, double y0, double M, const char *ramp) {
  return snprintf(
      buf, n,
      "  - name: cantilever\n"
      "    length: 1.0\n"
      "    segments: %d\n"
      "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
      "    section: {shape: circle, radius: 5.0e-3}\n"
      "    shape: {type: straight, start: [0, %.17g, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
      "    ends:\n"
      "      start: {type: clamped}\n"
      "    loads:\n"
      "      - {type: moment, at: end, value: [0, %.17g, 0], frame: spatial%s}\n",
      CANT_N, y0, M, ramp);
}

typedef struct arc_log {
  long rows;
  double lam_last;
  int limit_rows;
  int all_arches; /* every rod is an arch: check the reactions' balance */
  double max_imb; /* max over steps and arches of |R_0 + R_1 + λ P| / |P| */
} arc_log;

static int arc_log_frame(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  arc_log *a = user;
  double lf = 0.0;
  int crit = 0;
  CHECK("arc step info", cosrod_sim_arc_step(sim, &lf, NULL, NULL, &crit) == 1);
  a->lam_last = lf;
  if (crit == 1) a->limit_rows++;
  /* every arch's reactions balance its crown load λ (0, 0, -1000) */
  for (size_t r = 0; a->all_arches && r < cosrod_sim_nrods(sim); ++r) {
    double R[12];
    CHECK("reactions", cosrod_sim_reactions(sim, r, R, NULL) == COSROD_OK);
    double bal[3] = {R[0] + R[6], R[1] + R[7], R[2] + R[8] - 1000.0 * lf};
    a->max_imb = fmax(a->max_imb, cosrod_vec3_norm(bal) / 1000.0);
  }
  a->rows++;
  return 0;
}

typedef struct arc_result {
  cosrod_status st;
  arc_log log;
  size_t ncrit;
  double lam[4], disp[4], tcrit[4];
  int nrods;
  double x[2][3 * (ARCH_N + 1)]; /* final vertex positions (ARCH_N = CANT_N) */
} arc_result;

static arc_result run_arc(const char *text, const char *name, int all_arches) {
  arc_result r;
  memset(&r, 0, sizeof r);
  r.log.all_arches = all_arches;
  r.st = COSROD_ERR_INVALID;
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, name, NULL, 0, &sc);
  if (!sim) return r;
  cosrod_sim_observer obs = {arc_log_frame, NULL, &r.log, NULL, NULL};
  r.st = cosrod_sim_run(sim, &obs);
  if (r.st != COSROD_OK) NOTE("%s: %s", name, cosrod_sim_message(sim));
  r.ncrit = cosrod_sim_ncritical(sim);
  for (size_t i = 0; i < r.ncrit && i < 4; ++i)
    cosrod_sim_critical(sim, i, NULL, &r.tcrit[i], &r.lam[i], &r.disp[i]);
  r.nrods = (int)cosrod_sim_nrods(sim);
  for (int k = 0; k < r.nrods && k < 2; ++k) {
    const cosrod_rod_data *d = cosrod_sim_rod_data(sim, (size_t)k);
    memcpy(r.x[k], d->x, sizeof r.x[k]);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return r;
}

static const char arc_analysis[] =
    "analysis: {type: static, control: arc-length, increments: 50, max_steps: 1000}\n"
    "output: {vtk: false, plots: false}\n";

/* Two identical arches (the second 300 units along y) vs one arch.  The
 * blocks are equal, but the round-off is not (positions, sums over both
 * rods), and the adaptive arc, which counts Newton iterations at the
 * tolerance, then takes different steps; the limit points are refined to
 * the root of dλ/ds inside their step (statics_arclen.c), so they do not
 * depend on the steps. */
TEST(arc_length_two_arches_equal_one) {
  char one[4096], two[8192];
  int n = snprintf(one, sizeof one, "cosrod: 1\nrods:\n");
  n += arch_yaml(one + n, sizeof one - (size_t)n, "arch", 0.0);
  snprintf(one + n, sizeof one - (size_t)n, "%s", arc_analysis);
  n = snprintf(two, sizeof two, "cosrod: 1\nrods:\n");
  n += arch_yaml(two + n, sizeof two - (size_t)n, "arch-a", 0.0);
  n += arch_yaml(two + n, sizeof two - (size_t)n, "arch-b", 300.0);
  snprintf(two + n, sizeof two - (size_t)n, "%s", arc_analysis);
  arc_result a = run_arc(one, "one-arch.yaml", 1), b = run_arc(two, "two-arches.yaml", 1);
  for (int i = 0; i < 2; ++i) {
    const arc_result *r = i ? &b : &a;
    NOTE("%s: %s, %ld steps, %zu critical points: lambda %.15f, %.15f (disp %.10f, %.10f)",
         i ? "two arches" : "one arch", cosrod_status_name(r->st), r->log.rows, r->ncrit, r->lam[0],
         r->lam[1], r->disp[0], r->disp[1]);
  }
  CHECK("single arch run ok", a.st == COSROD_OK && a.log.lam_last == 1.0);
  CHECK("two-arch run ok", b.st == COSROD_OK && b.log.lam_last == 1.0);
  CHECK("two rods in the run", b.nrods == 2);
  CHECK("same number of critical points (two limit points)", a.ncrit == 2 && b.ncrit == 2);
  /* λ is stationary at a limit point, so a residual δr within the Newton
   * tolerance (1e-9 of the force scale, which is the load P here) moves
   * λ_crit by ~1e-9 relative to first order (φᵀδr / φᵀ∂r/∂λ): bound 1e-8.
   * The state there is fixed by the root of dλ/ds, sensitive to the same
   * δr through the curvature of the path: bound 1e-7 on the displacement
   * (|u| ~ 130).  (The arc length at the limit is a sum of chords of the
   * steps, so it depends on them: not compared.) */
  for (size_t i = 0; i < 2 && i < a.ncrit && i < b.ncrit; ++i) {
    CHECK_REL("limit load factor = single arch", b.lam[i], a.lam[i], 1e-8);
    CHECK_REL("crown displacement at the limit = single arch", b.disp[i], a.disp[i], 1e-7);
  }
  NOTE("reactions: max |R_0 + R_1 + lambda P| = %.2e P (one arch), %.2e P (two arches)", a.log.max_imb,
       b.log.max_imb);
  /* the internal forces telescope: the imbalance is the sum of the free
   * vertices' residuals, each within the Newton tolerance 1e-9 S_F or the
   * round-off floor of the internal forces 4 eps EA |x|/Δs (statics.h;
   * EA = 1e9, |x| <= 400 for the shifted arch, Δs = 9.38: 3.8e-5 = 3.8e-8 P),
   * summed over N = 40 vertices: 1.5e-6 P; bound 2e-6 */
  CHECK_LE("each arch's reactions balance its load (two arches)", b.log.max_imb, 2e-6);
  /* N = 40 limit of this model (test_statics_arclen: 951.12; Richardson
   * from N = 40, 80 gives 896.5 vs DaDeppo–Schmidt's 897) */
  CHECK_REL("P_cr at N = 40", b.lam[0] * 1000.0, 951.12, 1e-4);
  double d0 = 0.0, d1 = 0.0;
  for (int v = 0; v <= ARCH_N; ++v)
    for (int j = 0; j < 3; ++j) {
      double shift = j == 1 ? 300.0 : 0.0;
      d0 = fmax(d0, fabs(b.x[0][3 * v + j] - a.x[0][3 * v + j]));
      d1 = fmax(d1, fabs(b.x[1][3 * v + j] - shift - a.x[0][3 * v + j]));
    }
  NOTE("final states (lambda = 1): arch a off the single arch by %.2e, arch b by %.2e (R = 100)", d0, d1);
  /* both at λ = 1, equilibria to the Newton tolerance (1e-9 of P = 1000,
   * compliance R³/EI = 1 per unit force on the inverted branch: ~1e-6);
   * bound 1e-6 */
  CHECK_LE("arch a final state = single arch", d0, 1e-6);
  CHECK_LE("arch b final state = single arch (shifted)", d1, 1e-6);
}

/* The cantilever's vertices against the circle of radius R = EI/M about
 * (0, y0, R) (rolled up about +y: the tip goes towards +z first): max
 * distance error | |x - c| - R |. */
static double circle_error(const double *x, double y0, double R) {
  double e = 0.0;
  for (int v = 0; v <= CANT_N; ++v) {
    double d[3] = {x[3 * v] - 0.0, x[3 * v + 1] - y0, x[3 * v + 2] - R};
    e = fmax(e, fabs(cosrod_vec3_norm(d) - R));
  }
  return e;
}

/* Arch (limit points, λ going down and up again) plus a cantilever under a
 * dead end moment for half a turn at λ = 1 (common load factor). */
TEST(arc_length_arch_and_rollup) {
  const double M = -MULTI_PI * CANT_EI; /* about -y: rolls towards +z with L/R = π */
  char two[8192], lc[4096];
  int n = snprintf(two, sizeof two, "cosrod: 1\nrods:\n");
  n += arch_yaml(two + n, sizeof two - (size_t)n, "arch", 0.0);
  n += cantilever_yaml(two + n, sizeof two - (size_t)n, 300.0, M, "");
  snprintf(two + n, sizeof two - (size_t)n, "%s", arc_analysis);
  n = snprintf(lc, sizeof lc, "cosrod: 1\nrods:\n");
  n += cantilever_yaml(lc + n, sizeof lc - (size_t)n, 300.0, M, ", ramp: [0, 1]");
  snprintf(lc + n, sizeof lc - (size_t)n,
           "analysis: {type: static, increments: 20}\noutput: {vtk: false, plots: false}\n");
  arc_result b = run_arc(two, "arch-rollup.yaml", 0);
  NOTE("arch + cantilever: %s, %ld steps, %zu critical points, first at lambda %.10f",
       cosrod_status_name(b.st), b.log.rows, b.ncrit, b.lam[0]);
  CHECK("run ok, ends at lambda = 1", b.st == COSROD_OK && b.log.lam_last == 1.0);
  CHECK("the arch's two limit points", b.ncrit == 2 && b.log.limit_rows == 2);
  /* the Hermite extremum of the step across the limit: O(Δs⁴), the step
   * sequence differs from the single-arch run (the metric includes the
   * cantilever); 1e-4 as test_sim_static_path's example test */
  CHECK_REL("P_cr at N = 40", b.lam[0] * 1000.0, 951.12, 1e-4);
  /* load control of the cantilever alone */
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(lc, "rollup-load.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("load-controlled roll-up ok", st == COSROD_OK);
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  double dmax = 0.0;
  for (int i = 0; i < 3 * (CANT_N + 1); ++i) dmax = fmax(dmax, fabs(b.x[1][i] - d->x[i]));
  const double R = CANT_EI / fabs(M);
  double ec = circle_error(b.x[1], 300.0, R), tip[3] = {0.0, 300.0, 2.0 * R}, dt[3];
  cosrod_vec3_sub(dt, b.x[1] + 3 * CANT_N, tip);
  /* discretisation: the tip of the discrete roll-up is within 2π φ²/6 L of
   * the circle's (test_statics_rollup, φ = π/N per segment here, half that
   * for half a turn); the vertices lie on a circle of radius R(1 + O(φ²)) */
  const double phi = MULTI_PI / CANT_N, bound = MULTI_PI * phi * phi / 6.0;
  NOTE(
      "cantilever at lambda = 1: off the load-controlled run by %.2e m, radius error %.2e m, tip error %.2e "
      "m "
      "(bound %.2e)",
      dmax, ec, cosrod_vec3_norm(dt), bound);
  /* both equilibria to the Newton tolerance 1e-9 of the moment scale,
   * compliance L²/EI·M ~ 1: bound 1e-7 m as test_statics_arclen */
  CHECK_LE("cantilever = load-controlled single-rod run", dmax, 1e-7);
  CHECK_LE("tip on the closed-form half circle", cosrod_vec3_norm(dt), bound);
  CHECK_LE("vertices on the circle of radius EI/M", ec, bound);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* ---- branch switching with two columns ------------------------------------ */

/* Two clamped–free steel columns (rectangle 6 x 5 mm, L = 1) under dead end
 * forces, a at 1.5 P_E, b at 0.5 P_E (λ common): the first bifurcation is
 * a's Euler load (λ = 1/1.5), where switch_branch moves a onto the elastica;
 * b stays straight (below its Euler load up to λ = 1) and ends compressed
 * along its axis only.  Column a's tip rotation at λ = 1 as the single-
 * column test (test_sim_static_path.arc_length_switch_branch_column):
 * the elastica's α with (2K(sin(α/2))/π)² = 1.5. */
static int column_yaml(char *buf, size_t n, const char *name, double x0, double P) {
  return snprintf(
      buf, n,
      "  - name: %s\n"
      "    length: 1.0\n"
      "    segments: 40\n"
      "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
      "    section: {shape: rectangle, width: 6.0e-3, height: 5.0e-3}\n"
      "    shape: {type: straight, start: [%.17g, 0, 0], direction: [0, 0, 1], normal: [1, 0, 0]}\n"
      "    ends:\n"
      "      start: {type: clamped}\n"
      "    loads:\n"
      "      - {type: force, at: end, value: [0, 0, %.17g], frame: spatial}\n",
      name, x0, -P);
}

TEST(arc_length_switch_branch_two_columns) {
  const double E = 2.1e11, w = 6e-3, hgt = 5e-3, L = 1.0;
  const double EI = E * w * hgt * hgt * hgt / 12.0, PE = MULTI_PI * MULTI_PI * EI / (4.0 * L * L);
  char text[4096];
  int n = snprintf(text, sizeof text, "cosrod: 1\nrods:\n");
  n += column_yaml(text + n, sizeof text - (size_t)n, "a", 0.0, 1.5 * PE);
  n += column_yaml(text + n, sizeof text - (size_t)n, "b", 0.5, 0.5 * PE);
  snprintf(text + n, sizeof text - (size_t)n,
           "analysis: {type: static, control: arc-length, switch_branch: true}\n"
           "output: {vtk: false, plots: false}\n");
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, "two-columns.yaml", NULL, 0, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  const char *ty = NULL;
  double tc = 0, lf = 0, d = 0;
  int ok = cosrod_sim_ncritical(sim) >= 1 && cosrod_sim_critical(sim, 0, &ty, &tc, &lf, &d) == COSROD_OK;
  const double e3[3] = {0, 0, 1};
  double d3[3], alpha[2], lateral[2], axial[2];
  for (int r = 0; r < 2; ++r) {
    const cosrod_rod_data *rd = cosrod_sim_rod_data(sim, (size_t)r);
    cosrod_quat_rotate(d3, rd->p + 4 * 39, e3);
    alpha[r] = acos(fmax(-1.0, fmin(1.0, d3[2])));
    const double *tip = rd->x + 3 * 40;
    lateral[r] = hypot(tip[0] - (r ? 0.5 : 0.0), tip[1]);
    axial[r] = L - tip[2];
  }
  /* α of the elastica at P/P_E = 1.5: bisection on (2K(sin(α/2))/π)² (AGM) */
  double lo = 0.1, hi = 3.0;
  for (int i = 0; i < 60; ++i) {
    double m = 0.5 * (lo + hi), k = sin(0.5 * m), a = 1.0, b = sqrt(1.0 - k * k);
    for (int j = 0; j < 40; ++j) {
      double an = 0.5 * (a + b);
      b = sqrt(a * b);
      a = an;
    }
    if (pow(1.0 / a, 2.0) < 1.5)
      lo = m;
    else
      hi = m;
  }
  /* b: straight, shortened by 0.5 P_E / EA */
  const double EA = E * w * hgt, shorten = 0.5 * PE * L / EA;
  NOTE(
      "%s: first critical point %s at load factor %.6f (1/1.5 = %.6f); tip rotation a %.4f rad (elastica "
      "%.4f), "
      "b %.2e rad; b lateral %.2e m, shortening %.4e m (P L/EA = %.4e)",
      cosrod_status_name(st), ok && ty ? ty : "?", lf, 1.0 / 1.5, alpha[0], 0.5 * (lo + hi), alpha[1],
      lateral[1], axial[1], shorten);
  CHECK("run ok", st == COSROD_OK);
  CHECK("a bifurcation point first", ok && ty && strcmp(ty, "bifurcation") == 0);
  CHECK_REL("at column a's Euler load", lf, 1.0 / 1.5, 5e-4);
  /* discretisation at N = 40: ~3e-3 rad (single-column test) */
  CHECK_NEAR("column a ends on the elastica", alpha[0], 0.5 * (lo + hi), 5e-3);
  /* b straight: Newton tolerance on a stable straight state */
  CHECK_LE("column b stays straight (tip rotation)", alpha[1], 1e-6);
  CHECK_LE("column b stays straight (tip lateral)", lateral[1], 1e-6);
  /* shear-deformable rod: shortening P L/EA to the O(strain²) of the model */
  CHECK_REL("column b shortened by P L / EA", axial[1], shorten, 1e-3);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* ---- keyframe path with two cables ----------------------------------------- */

#define CAB_N 30
#define CAB_RHOA (1100.0 * MULTI_PI * 1e-4)
#define CAB_G 9.81
#define CAB_FZ (-2.0)

/* Hose (rubber, r = 1 cm, L = 1) clamped at (0, y0, 0), its end prescribed
 * along `route`; with_load: a point force (0, 0, CAB_FZ) at vertex N/3. */
static int cable_yaml(char *buf, size_t n, const char *name, double y0, const char *route, int with_load) {
  return snprintf(
      buf, n,
      "  - name: %s\n"
      "    length: 1.0\n"
      "    segments: %d\n"
      "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
      "    section: {shape: circle, radius: 1.0e-2}\n"
      "    shape: {type: straight, start: [0, %.17g, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
      "    ends:\n"
      "      start: {type: clamped}\n"
      "      end:\n"
      "        type: prescribed\n"
      "        position: %s\n"
      "%s",
      name, CAB_N, y0, route,
      with_load ? "    loads:\n      - {type: force, at: 10, value: [0, 0, -2.0], frame: spatial}\n" : "");
}

static const char route_a[] = "[[0, 1.0, 0, 0], [1, 0.8, 0.2, 0.0], [3, 0.6, 0.0, 0.3]]";
static const char route_b[] = "[[0, 1.0, 2.0, 0], [2, 0.7, 2.3, 0.2], [3, 0.5, 2.5, -0.1]]";

typedef struct kf_log {
  int nrods, n, loaded_rod; /* loaded_rod: the rod with the point load (-1: none) */
  double t[MAXF];
  double R[MAXF][2][12];
  double bal[MAXF][2][2]; /* |force balance| (N), |moment balance| (N m) per rod */
} kf_log;

static int kf_frame(void *user, const cosrod_sim *sim, double t) {
  kf_log *k = user;
  if (k->n >= MAXF) return 0;
  k->t[k->n] = t;
  for (int r = 0; r < k->nrods; ++r) {
    int sup[2];
    double *R = k->R[k->n][r];
    CHECK("reactions", cosrod_sim_reactions(sim, (size_t)r, R, sup) == COSROD_OK);
    /* balance: Σ_e R_F,e + weight + load = 0; Σ_e (x_e × R_F,e + R_M,e)
     * + Σ_n x_n × (m_n g) + x_10 × F = 0 (moments about the origin) */
    const cosrod_rod_data *d = cosrod_sim_rod_data(sim, (size_t)r);
    const cosrod_rod *rod = cosrod_sim_rod(sim, (size_t)r);
    const int N = cosrod_rod_nseg(rod);
    const int loaded = r == k->loaded_rod;
    double F[3] = {0, 0, 0}, M[3] = {0, 0, 0}, c[3];
    for (int e = 0; e < 2; ++e) {
      const double *x = d->x + 3 * (e == 0 ? 0 : N);
      cosrod_vec3_add(F, F, R + 6 * e);
      cosrod_vec3_cross(c, x, R + 6 * e);
      cosrod_vec3_add(M, M, c);
      cosrod_vec3_add(M, M, R + 6 * e + 3);
    }
    for (int v = 0; v <= N; ++v) {
      double w[3] = {0, 0, -(v == 0 || v == N ? 0.5 : 1.0) * CAB_RHOA / N * CAB_G};
      if (loaded && v == 10) w[2] += CAB_FZ;
      cosrod_vec3_add(F, F, w);
      cosrod_vec3_cross(c, d->x + 3 * v, w);
      cosrod_vec3_add(M, M, c);
    }
    k->bal[k->n][r][0] = cosrod_vec3_norm(F);
    k->bal[k->n][r][1] = cosrod_vec3_norm(M);
  }
  k->n++;
  return 0;
}

static cosrod_status run_kf(const char *text, const char *name, int loaded_rod, kf_log *k) {
  memset(k, 0, sizeof *k);
  k->loaded_rod = loaded_rod;
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, name, NULL, 0, &sc);
  if (!sim) return COSROD_ERR_INVALID;
  k->nrods = (int)cosrod_sim_nrods(sim);
  cosrod_sim_observer obs = {kf_frame, NULL, k, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  if (st != COSROD_OK) NOTE("%s: %s", name, cosrod_sim_message(sim));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st;
}

TEST(keyframe_path_two_cables) {
  static const char tail[] =
      "analysis: {type: static, path: keyframes, increments: 12}\n"
      "output: {every: 0.5, vtk: false, plots: false}\n";
  char two[8192], ta[4096], tb[4096];
  int n = snprintf(two, sizeof two, "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n");
  n += cable_yaml(two + n, sizeof two - (size_t)n, "a", 0.0, route_a, 0);
  n += cable_yaml(two + n, sizeof two - (size_t)n, "b", 2.0, route_b, 1);
  snprintf(two + n, sizeof two - (size_t)n, "%s", tail);
  n = snprintf(ta, sizeof ta, "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n");
  n += cable_yaml(ta + n, sizeof ta - (size_t)n, "a", 0.0, route_a, 0);
  snprintf(ta + n, sizeof ta - (size_t)n, "%s", tail);
  n = snprintf(tb, sizeof tb, "cosrod: 1\ngravity: [0, 0, -9.81]\nrods:\n");
  n += cable_yaml(tb + n, sizeof tb - (size_t)n, "b", 2.0, route_b, 1);
  snprintf(tb + n, sizeof tb - (size_t)n, "%s", tail);
  static kf_log k2, ka, kb;
  cosrod_status s2 = run_kf(two, "two-cables.yaml", 1, &k2);
  cosrod_status sa = run_kf(ta, "cable-a.yaml", -1, &ka);
  cosrod_status sb = run_kf(tb, "cable-b.yaml", 0, &kb);
  NOTE("two cables: %s, %d frames; a alone %s, %d; b alone %s, %d", cosrod_status_name(s2), k2.n,
       cosrod_status_name(sa), ka.n, cosrod_status_name(sb), kb.n);
  CHECK("runs ok", s2 == COSROD_OK && sa == COSROD_OK && sb == COSROD_OK);
  CHECK("frames at t = 0, 0.5, ..., 3", k2.n == 7 && ka.n == 7 && kb.n == 7);
  if (k2.n != 7 || ka.n != 7 || kb.n != 7) return;
  double dA = 0.0, dB = 0.0, fbal = 0.0, mbal = 0.0, Fmax = 0.0;
  for (int i = 0; i < 7; ++i) {
    CHECK_NEAR("frame times", k2.t[i], 0.5 * i, 1e-12);
    for (int j = 0; j < 12; ++j) {
      dA = fmax(dA, fabs(k2.R[i][0][j] - ka.R[i][0][j]));
      dB = fmax(dB, fabs(k2.R[i][1][j] - kb.R[i][0][j]));
      Fmax = fmax(Fmax, fabs(k2.R[i][1][j]));
    }
    for (int r = 0; r < 2; ++r) fbal = fmax(fbal, k2.bal[i][r][0]), mbal = fmax(mbal, k2.bal[i][r][1]);
  }
  NOTE(
      "reactions: cable a off its single run by %.2e, b by %.2e (largest reaction %.3f); balance: force %.2e "
      "N, "
      "moment %.2e N m",
      dA, dB, Fmax, fbal, mbal);
  /* each cable's equilibrium at an output time is unique and converged to
   * the Newton tolerance (1e-9 of the force scale ~2 N, per vertex): the
   * reactions agree to ~N 1e-9 S_F ~ 1e-7; bound 1e-6 (N, N m) */
  CHECK_LE("cable a reactions = its single-rod run", dA, 1e-6);
  CHECK_LE("cable b reactions = its single-rod run", dB, 1e-6);
  /* global equilibrium: the internal forces telescope, so the imbalance is
   * the sum of the free vertices' Newton residuals, ≤ N 1e-9 S_F */
  CHECK_LE("reactions balance loads + weight (force)", fbal, CAB_N * 1e-9 * 3.0);
  CHECK_LE("reactions balance loads + weight (moment about 0)", mbal, CAB_N * 1e-9 * 3.0 * 2.5);
}

static const th_case cases[] = {TH_CASE(arc_length_two_arches_equal_one), TH_CASE(arc_length_arch_and_rollup),
                                TH_CASE(arc_length_switch_branch_two_columns),
                                TH_CASE(keyframe_path_two_cables)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
