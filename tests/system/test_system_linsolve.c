// SPDX-License-Identifier: Apache-2.0
/* Linear solver of rods attached to bodies (sim_linsolve.c):
 *   - the sparse pattern covers the coupled Jacobian: the band
 *     finite-difference Jacobian (sim_couple_jac_fd, the whole coupled band)
 *     has no non-zero entry outside it, on a star (one body, four hoses) and
 *     a chain (rod - body - rod - body), at a moving state;
 *   - the same coupled problem with linear_solver band and sparse: equal
 *     step counts and body states equal to round-off (see TOL_SAME), with
 *     rodas, seulex, radau5 (lsys_sparse.c, radau5_cplx.c) and cvode / ida (SUNDIALS' KLU module,
 *     sundials_sparse.c; the band path there is sim_couple_jac_fd with the
 *     same increments: measured 1.9e-13 .. 2.3e-13);
 *   - auto picks sparse for the star and band for the chain; check's line;
 *   - Kirchhoff rods: formulation dae on the sparse path (E = fac M - J,
 *     diagonal M) equals the band path; the ODE forms (dense Jacobian: the
 *     multipliers couple the whole rod) get a dense matrix under auto and
 *     `sparse` is refused.
 * The independent reference of the sparse runs is the band path (its
 * own tests: test_sim_couple against closed forms).  The band runs take the
 * finite-difference coupled Jacobian (COSROD_COUPLE_JAC=fd) so that both
 * paths see the same Jacobian values and only the linear solver differs;
 * band_analytic_vs_sparse compares the default (analytic) band path. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>

#include "cosrod/sparse.h"
#include "sim/sim_hooks.h"
#include "system/system_model.h"
#include "sim_test_util.h"

/* Band vs sparse: the Jacobians are the same finite differences (same
 * increments; every f_i depends on one column of each group), so the runs
 * differ by the round-off of two LU codes (KLU vs our band LU, ~1e-15 per
 * solve, cond(E) ~ 1e3 here), carried through ~20-60 steps of the error
 * control: measured 8.8e-12 (star, rodas), 3.5e-13 (star, seulex),
 * 6.3e-11 (chain, rodas), 3.4e-13 (chain, seulex); 1e-9 (1e-3 of atol)
 * leaves a margin of 16 and fails on any missing Jacobian entry (a wrong
 * iteration matrix changes the steps and the states by ~atol). */
static const double TOL_SAME = 1e-9;

static const char *const STAR_SETS[] = {"rods.0.segments=6", "rods.1.segments=6", "rods.2.segments=6",
                                        "rods.3.segments=6", "analysis.t_end=0.05"};

/* rod (pinned at the top) - body A - hose - body B, hanging */
#define CHAIN_TEXT                                                                                    \
  "cosrod: 1\n"                                                                                       \
  "title: chain\n"                                                                                    \
  "gravity: [0, 0, -9.81]\n"                                                                          \
  "materials:\n"                                                                                      \
  "  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\n"                                               \
  "rods:\n"                                                                                           \
  "  - name: cable\n"                                                                                 \
  "    length: 0.5\n"                                                                                 \
  "    segments: 8\n"                                                                                 \
  "    material: rubber\n"                                                                            \
  "    section: {shape: circle, radius: 1.0e-2}\n"                                                    \
  "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"                                  \
  "    shape: {type: straight, start: [0, 0, 1], direction: [0.6, 0, -0.8], normal: [0, 1, 0]}\n"     \
  "    ends:\n"                                                                                       \
  "      start: {type: pinned}\n"                                                                     \
  "      end: {type: clamped, body: a, at: [0, 0, 0.05]}\n"                                           \
  "  - name: hose\n"                                                                                  \
  "    length: 0.5\n"                                                                                 \
  "    segments: 8\n"                                                                                 \
  "    material: rubber\n"                                                                            \
  "    section: {shape: circle, radius: 1.0e-2}\n"                                                    \
  "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"                                  \
  "    shape: {type: straight, start: [0.3, 0, 0.5], direction: [0, 0.6, -0.8], normal: [1, 0, 0]}\n" \
  "    ends:\n"                                                                                       \
  "      start: {type: clamped, body: a, at: [0, 0, -0.05]}\n"                                        \
  "      end: {type: clamped, body: b, at: [0, 0, 0.05]}\n"                                           \
  "bodies:\n"                                                                                         \
  "  - {name: a, mass: 1.0, inertia: [2.0e-3, 2.0e-3, 1.0e-3], position: [0.3, 0, 0.55],\n"           \
  "     angular_velocity: [0, 0, 1]}\n"                                                               \
  "  - {name: b, mass: 0.5, inertia: [1.0e-3, 1.0e-3, 1.0e-3], position: [0.3, 0.3, 0.05]}\n"         \
  "analysis: {type: dynamic, t_end: 0.05}\n"                                                          \
  "solver: {formulation: nullspace, integrator: rodas, rtol: 1.0e-6, atol: 1.0e-6}\n"                 \
  "output: {dir: out/chain, every: 0.01, vtk: false, plots: false}\n"
static const char *CHAIN = CHAIN_TEXT;
/* the same with a bushing between the two bodies: their blocks couple */
static const char *CHAIN_JOINED = CHAIN_TEXT
    "joints:\n"
    "  - {type: bushing, bodies: [a, b], at: [[0, 0, 0], [0, 0, 0]], stiffness: 50, damping: 0.5,\n"
    "     stiffness_rot: 2, damping_rot: 0.02}\n";

static int g_joined; /* chain: with the bushing between the bodies */
static cosrod_sim *make(int star, const char *extra0, const char *extra1, cosrod_scenario **sc) {
  const char *sets[8];
  size_t ns = 0;
  if (star)
    for (size_t i = 0; i < 5; i++) sets[ns++] = STAR_SETS[i];
  if (extra0) sets[ns++] = extra0;
  if (extra1) sets[ns++] = extra1;
  return star ? sim_test_load("star-hoses", sets, ns, sc)
              : sim_test_parse(g_joined ? CHAIN_JOINED : CHAIN, "chain.yaml", sets, ns, sc);
}

/* Entries of the band FD Jacobian outside the pattern, at the state after 0.02 s. */
static void pattern_covers(int star, const char *extra) {
  cosrod_scenario *sc;
  cosrod_sim *sim = make(star, "solver.linear_solver=band", extra, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  CHECK("advance to 0.02 s", cosrod_sim_advance(sim, 0.02) == COSROD_OK);
  const int *cp, *ri;
  CHECK("pattern built", sim_linsolve_pattern(s, &cp, &ri));
  const int n = s->m->ny, ml = s->m->ml, mu = s->m->mu, ld = ml + mu + 1;
  double *J = calloc((size_t)ld * n, sizeof *J);
  CHECK("band FD Jacobian", sim_couple_jac_fd(0.02, cosrod_sim_state(sim), J, ld, s) == 0);
  long outside = 0, inside_nz = 0, total_nz = 0;
  double worst = 0.0;
  for (int j = 0; j < n; j++) {
    int k = cp[j];
    for (int i = j - mu > 0 ? j - mu : 0; i <= (j + ml < n - 1 ? j + ml : n - 1); i++) {
      double v = J[(size_t)j * ld + mu + i - j];
      while (k < cp[j + 1] && ri[k] < i) k++;
      int in = k < cp[j + 1] && ri[k] == i;
      if (v != 0.0) total_nz++, inside_nz += in;
      if (v != 0.0 && !in) outside++, worst = fmax(worst, fabs(v));
    }
  }
  NOTE("%s: n = %d, band (%d, %d), pattern nnz %d, FD non-zeros %ld (%ld inside)", star ? "star" : "chain", n,
       ml, mu, cp[n], total_nz, inside_nz);
  CHECK("no FD non-zero outside the pattern", outside == 0);
  CHECK_LE("largest entry outside the pattern", worst, 0.0);
  CHECK("the pattern is much smaller than the band (star) or not larger (chain)",
        star ? cp[n] < (long)n * (ml + mu + 1) / 4 : cp[n] <= (long)n * (ml + mu + 1));
  free(J);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* The sparse analytic Jacobian (jac_sp, sim_couple_jac_sp.c) at the state
 * after 0.02 s moved off by a fixed perturbation: (a) entrywise equal to
 * the band analytic one (sim_couple_jac, its own test: test_sim_couple_jac
 * against central differences), which has no non-zero outside the pattern;
 * the same arithmetic in the same order of additions, so equal to
 * round-off: 1e-14 of the column's largest entry (measured: 0); (b) against
 * fourth-order central differences of f, with the allowance of
 * test_sim_couple_jac (1e-6 of the column plus the quotient's round-off
 * 10 u max|f_i| / h).  The first evaluation fills the position cache, the
 * checked second one reads it. */
static void entries(int star, const char *extra) {
  cosrod_scenario *sc;
  cosrod_sim *sim = make(star, "solver.linear_solver=sparse", extra, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  CHECK("advance to 0.02 s", cosrod_sim_advance(sim, 0.02) == COSROD_OK);
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  const int *cp, *ri;
  CHECK("pattern built", sim_linsolve_pattern(s, &cp, &ri));
  CHECK("sparse analytic Jacobian set", p->jac_sparse && p->jac_sp != NULL);
  if (!p->jac_sp) goto out0;
  const int n = s->m->ny, ml = s->m->ml, mu = s->m->mu, ld = ml + mu + 1, nnz = cp[n];
  const double t = 0.02, u = 2.220446049250313e-16;
  double *J = calloc((size_t)ld * n, sizeof *J), *Jx = calloc((size_t)nnz, sizeof *Jx);
  double *y = malloc((size_t)n * sizeof *y), *yp = malloc((size_t)n * sizeof *yp);
  double *f = malloc(4 * (size_t)n * sizeof *f), *col = malloc((size_t)n * sizeof *col);
  memcpy(y, cosrod_sim_state(sim), (size_t)n * sizeof *y);
  CHECK("first sparse evaluation (fills the position cache)", p->jac_sp(t, y, Jx, p->user) == 0);
  for (int i = 0; i < n; i++) y[i] += 2e-3 * sin(1.7 * i + 0.3) * fmax(1.0, fabs(y[i]));
  memset(Jx, 0, (size_t)nnz * sizeof *Jx);
  CHECK("sparse analytic Jacobian", p->jac_sp(t, y, Jx, p->user) == 0);
  CHECK("band analytic Jacobian", sim_couple_jac(t, y, J, ld, s) == 0);
  CHECK("no fallback to differences", sim_couple_jac_fallbacks(s) == 0);
  double wsame = 0.0, wfd = 0.0;
  long outside = 0;
  int rc = 0;
  memcpy(yp, y, (size_t)n * sizeof *yp);
  for (int j = 0; j < n; j++) {
    double cb = 0.0;
    int k = cp[j];
    for (int i = j - mu > 0 ? j - mu : 0; i <= (j + ml < n - 1 ? j + ml : n - 1); i++)
      cb = fmax(cb, fabs(J[(size_t)j * ld + mu + i - j]));
    for (int i = j - mu > 0 ? j - mu : 0; i <= (j + ml < n - 1 ? j + ml : n - 1); i++) {
      const double b = J[(size_t)j * ld + mu + i - j];
      while (k < cp[j + 1] && ri[k] < i) k++;
      if (k < cp[j + 1] && ri[k] == i) wsame = fmax(wsame, fabs(Jx[k] - b) / (cb + 1e-300));
      else if (b != 0.0) outside++;
    }
    const double h = 1e-4 * fmax(1.0, fabs(y[j])), hs[4] = {h, -h, 2.0 * h, -2.0 * h};
    for (int m = 0; m < 4; m++) {
      yp[j] = y[j] + hs[m];
      rc |= p->f(t, yp, f + (size_t)m * n, p->user);
    }
    yp[j] = y[j];
    double cn = 0.0;
    for (int i = 0; i < n; i++)
      col[i] = (8.0 * (f[i] - f[n + i]) - (f[2 * n + i] - f[3 * n + i])) / (12.0 * h), cn = fmax(cn, fabs(col[i]));
    for (int i = 0, kk = cp[j]; i < n; i++) {
      while (kk < cp[j + 1] && ri[kk] < i) kk++;
      const double a = kk < cp[j + 1] && ri[kk] == i ? Jx[kk] : 0.0;
      double fm = 0.0;
      for (int m = 0; m < 4; m++) fm = fmax(fm, fabs(f[(size_t)m * n + i]));
      wfd = fmax(wfd, fabs(a - col[i]) / (1e-6 * cn + 10.0 * u * fm / h + 1e-300));
    }
  }
  NOTE("%s%s: n = %d, nnz = %d: |sparse - band| / column max = %.3g; vs central FD: error / allowed = %.3g",
       star ? "star" : (g_joined ? "chain joined" : "chain"), extra ? " (absolute)" : "", n, nnz, wsame, wfd);
  CHECK("rhs ok", rc == 0);
  CHECK("band analytic: no non-zero outside the pattern", outside == 0);
  CHECK_LE("sparse vs band analytic (relative to the column)", wsame, 1e-14);
  CHECK_LE("sparse analytic vs central FD (error / allowed)", wfd, 1.0);
  free(J), free(Jx), free(y), free(yp), free(f), free(col);
out0:
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}
TEST(sparse_analytic_entries_star) { entries(1, NULL); }
TEST(sparse_analytic_entries_star_absolute) { entries(1, "solver.formulation=absolute"); }
TEST(sparse_analytic_entries_chain) { entries(0, NULL); }
TEST(sparse_analytic_entries_chain_joined) {
  g_joined = 1;
  entries(0, NULL);
  g_joined = 0;
}

static void same_joined(void);
TEST(pattern_covers_jacobian_star) { pattern_covers(1, NULL); }
TEST(pattern_covers_jacobian_chain) { pattern_covers(0, NULL); }
TEST(pattern_covers_jacobian_star_absolute) { pattern_covers(1, "solver.formulation=absolute"); }
TEST(pattern_covers_jacobian_chain_joined) {
  g_joined = 1;
  pattern_covers(0, NULL);
  same_joined();
  g_joined = 0;
}

typedef struct run_out {
  double y[64];
  int nb;
  cosrod_integrate_stats st;
  char desc[200];
} run_out;

static int run(int star, const char *method, const char *ls, run_out *o) {
  char m[64], l[64];
  snprintf(m, sizeof m, "solver.integrator=%s", method);
  snprintf(l, sizeof l, "solver.linear_solver=%s", ls);
  cosrod_scenario *sc;
  cosrod_sim *sim = make(star, m, l, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return -1;
  snprintf(o->desc, sizeof o->desc, "%s", cosrod_sim_linear_solver(sim));
  cosrod_status st = cosrod_sim_advance(sim, sc->analysis.t_end);
  o->nb = (int)cosrod_sim_nbodies(sim);
  for (int b = 0; b < o->nb && b < 6; b++) {
    double x[3], q[4], w[3];
    cosrod_sim_body(sim, (size_t)b, x, q, w);
    for (int k = 0; k < 3; k++) o->y[10 * b + k] = x[k], o->y[10 * b + 3 + k] = w[k] * 1e-2;
    for (int k = 0; k < 4; k++) o->y[10 * b + 6 + k] = q[k];
  }
  o->st = *cosrod_sim_stats(sim);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK ? 0 : -1;
}

static void same(int star, const char *method) {
  run_out b, s;
  setenv("COSROD_COUPLE_JAC", "fd", 1);
  CHECK("band run", run(star, method, "band", &b) == 0);
  CHECK("sparse run", run(star, method, "sparse", &s) == 0);
  unsetenv("COSROD_COUPLE_JAC");
  NOTE("band:   %s", b.desc);
  NOTE("sparse: %s", s.desc);
  CHECK("the sparse run used KLU", !strncmp(s.desc, "sparse (KLU)", 12));
  CHECK("the sparse run took grouped differences", strstr(s.desc, "grouped differences") != NULL);
  CHECK("the band run used the band", !strncmp(b.desc, "band", 4));
  double d = 0.0;
  for (int i = 0; i < 10 * b.nb; i++) d = fmax(d, fabs(b.y[i] - s.y[i]));
  NOTE("%s %s: steps %ld / %ld, f %ld / %ld (band / sparse)", star ? "star" : "chain", method, b.st.nsteps,
       s.st.nsteps, b.st.nfev, s.st.nfev);
  CHECK_LE("max difference of the bodies' x, q, 1e-2 w (band vs sparse)", d, TOL_SAME);
  CHECK("same accepted steps", b.st.naccept == s.st.naccept);
  CHECK("same rejected steps", b.st.nreject == s.st.nreject);
  CHECK("same decompositions", b.st.ndecomp == s.st.ndecomp);
  /* (ida / cvode: the band's differences, sim_couple_jac_fd, are not counted in nfev) */
  if (star && strcmp(method, "ida") && strcmp(method, "cvode"))
    CHECK("fewer f evaluations (CPR groups vs band stride)", s.st.nfev < b.st.nfev);
}

/* The default paths: band and sparse both take the analytic coupled
 * Jacobian (sim_couple_jac.c, sim_couple_jac_sp.c): the same values (the
 * entry test below: equal to round-off), only the LU differs (KLU vs ours),
 * so the runs agree as the finite-difference pair above (TOL_SAME, equal
 * step counts). */
static void same_analytic(int star, const char *method) {
  run_out b, s;
  CHECK("band run (analytic Jacobian)", run(star, method, "band", &b) == 0);
  CHECK("sparse run (analytic Jacobian)", run(star, method, "sparse", &s) == 0);
  NOTE("sparse: %s", s.desc);
  CHECK("the sparse run used KLU with the analytic Jacobian",
        !strncmp(s.desc, "sparse (KLU)", 12) && strstr(s.desc, "analytic Jacobian") != NULL);
  double d = 0.0;
  for (int i = 0; i < 10 * b.nb; i++) d = fmax(d, fabs(b.y[i] - s.y[i]));
  NOTE("%s %s analytic: steps %ld / %ld, f %ld / %ld, jac %ld / %ld (band / sparse), difference %.2e",
       star ? "star" : "chain", method, b.st.nsteps, s.st.nsteps, b.st.nfev, s.st.nfev, b.st.njev, s.st.njev, d);
  CHECK_LE("max difference of the bodies' x, q, 1e-2 w (analytic band vs analytic sparse)", d, TOL_SAME);
  CHECK("same accepted steps", b.st.naccept == s.st.naccept);
  CHECK("same rejected steps", b.st.nreject == s.st.nreject);
  CHECK("same decompositions", b.st.ndecomp == s.st.ndecomp);
  CHECK("same f evaluations", b.st.nfev == s.st.nfev);
}
TEST(star_analytic_band_vs_sparse_radau5) { same_analytic(1, "radau5"); }
TEST(star_analytic_band_vs_sparse_rodas) { same_analytic(1, "rodas"); }
TEST(star_analytic_band_vs_sparse_seulex) { same_analytic(1, "seulex"); }
TEST(chain_analytic_band_vs_sparse_rodas) { same_analytic(0, "rodas"); }
TEST(chain_joined_analytic_band_vs_sparse_radau5) {
  g_joined = 1;
  same_analytic(0, "radau5");
  g_joined = 0;
}
TEST(star_sparse_equals_band_rodas) { same(1, "rodas"); }
static void same_joined(void) { same(0, "rodas"); } /* bodies joined: units coupled */
TEST(star_sparse_equals_band_seulex) { same(1, "seulex"); }
TEST(star_sparse_equals_band_radau5) { same(1, "radau5"); }
TEST(chain_sparse_equals_band_rodas) { same(0, "rodas"); }
TEST(chain_sparse_equals_band_seulex) { same(0, "seulex"); }

#ifdef COSROD_TEST_SUNDIALS_KLU
TEST(star_sparse_equals_band_cvode) { same(1, "cvode"); }
TEST(star_sparse_equals_band_ida) { same(1, "ida"); }
TEST(chain_sparse_equals_band_cvode) { same(0, "cvode"); }
TEST(star_analytic_band_vs_sparse_cvode) { same_analytic(1, "cvode"); }
TEST(star_analytic_band_vs_sparse_ida) { same_analytic(1, "ida"); }
#endif

/* The star of Kirchhoff (extensible) hoses in formulation dae: sparse path
 * with the DAE mass matrix vs the band path (both finite differences with
 * the same increments, so the TOL_SAME argument above holds). */
static int run_kirchhoff(const char *method, const char *ls, const char *form, run_out *o) {
  char m[64], l[64], f[64];
  snprintf(m, sizeof m, "solver.integrator=%s", method);
  snprintf(l, sizeof l, "solver.linear_solver=%s", ls);
  snprintf(f, sizeof f, "solver.formulation=%s", form);
  const char *sets[] = {STAR_SETS[0], STAR_SETS[1], STAR_SETS[2], STAR_SETS[3], STAR_SETS[4],
                        "rods.0.model=kirchhoff-extensible", "rods.1.model=kirchhoff-extensible",
                        "rods.2.model=kirchhoff-extensible", "rods.3.model=kirchhoff-extensible", m, l, f};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("star-hoses", sets, sizeof sets / sizeof *sets, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return -1;
  snprintf(o->desc, sizeof o->desc, "%s", cosrod_sim_linear_solver(sim));
  cosrod_status st = cosrod_sim_advance(sim, 0.02);
  o->nb = 1;
  double x[3], q[4], w[3];
  cosrod_sim_body(sim, 0, x, q, w);
  for (int k = 0; k < 3; k++) o->y[k] = x[k], o->y[3 + k] = w[k] * 1e-2;
  for (int k = 0; k < 4; k++) o->y[6 + k] = q[k];
  o->st = *cosrod_sim_stats(sim);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK ? 0 : -1;
}

static void kirchhoff_dae_same(const char *method) {
  run_out b, s;
  /* the band run with the same forward differences as the sparse one (its
   * default, couple_kirchhoff_jac.c, differences nearly every column of this
   * wide band centrally) */
  setenv("COSROD_KIRCHHOFF_JAC", "fd", 1);
  CHECK("band run", run_kirchhoff(method, "band", "dae", &b) == 0);
  unsetenv("COSROD_KIRCHHOFF_JAC");
  CHECK("sparse run", run_kirchhoff(method, "sparse", "dae", &s) == 0);
  NOTE("sparse: %s", s.desc);
  CHECK("the sparse run used KLU", !strncmp(s.desc, "sparse (KLU)", 12));
  double d = 0.0;
  for (int i = 0; i < 10; i++) d = fmax(d, fabs(b.y[i] - s.y[i]));
  NOTE("kirchhoff star dae %s: steps %ld / %ld, f %ld / %ld (band / sparse), difference %.2e", method, b.st.nsteps,
       s.st.nsteps, b.st.nfev, s.st.nfev, d);
  CHECK("the hub moved (not a trivial comparison)", fabs(b.y[2] - 0.2) > 1e-5);
  /* the same FD values, only the LU differs; the DAE multipliers (cond(E) ~ 1/h on the algebraic rows)
   * and seulex's extrapolation amplify the round-off: measured 1.8e-12 (radau5), 2.7e-9 (seulex);
   * 2e-8 is 2e-2 of atol (1e-6, the example's), and a wrong matrix changes the step sequence (checked) */
  CHECK_LE("max difference of the body's x, q, 1e-2 w (band vs sparse)", d, 2e-8);
  CHECK("same accepted steps", b.st.naccept == s.st.naccept);
  CHECK("same rejected steps", b.st.nreject == s.st.nreject);
  CHECK("fewer f evaluations (CPR groups vs band stride)", s.st.nfev < b.st.nfev);
}
TEST(star_kirchhoff_dae_sparse_equals_band_radau5) { kirchhoff_dae_same("radau5"); }
TEST(star_kirchhoff_dae_sparse_equals_band_seulex) { kirchhoff_dae_same("seulex"); }

TEST(kirchhoff_ode_forms_dense) {
  /* auto: dense (was: the rods' bands as the sparse pattern, a truncated Jacobian) */
  const char *sets[] = {"rods.0.segments=4", "rods.0.model=kirchhoff-extensible", "solver.linear_solver=auto"};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("star-hoses", sets, 3, &sc);
  if (sim) {
    NOTE("kirchhoff nullspace auto: %s", cosrod_sim_linear_solver(sim));
    CHECK("auto: dense", !strncmp(cosrod_sim_linear_solver(sim), "dense", 5));
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  /* sparse asked for: refused with the key and the advice */
  const char *sets2[] = {"rods.0.segments=4", "rods.0.model=kirchhoff-extensible", "solver.linear_solver=sparse"};
  char path[1024];
  snprintf(path, sizeof path, "%s/star-hoses.yaml", sim_test_examples_dir());
  CHECK("loads", (sc = cosrod_scenario_load(path, sets2, 3, NULL)) != NULL);
  cosrod_status st = COSROD_OK;
  sim = cosrod_sim_create(sc, &st);
  NOTE("sparse: %s", cosrod_last_error());
  CHECK("refused", !sim && st == COSROD_ERR_UNSUPPORTED);
  CHECK("the message names the key and formulation dae",
        strstr(cosrod_last_error(), "solver.linear_solver:") != NULL && strstr(cosrod_last_error(), "formulation: dae") != NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(auto_choice_and_fallback) {
  run_out o;
  cosrod_scenario *sc;
  cosrod_sim *sim = make(1, "solver.linear_solver=auto", NULL, &sc);
  if (sim) {
    NOTE("star auto: %s", cosrod_sim_linear_solver(sim));
    CHECK("star: auto takes sparse", !strncmp(cosrod_sim_linear_solver(sim), "sparse (KLU)", 12));
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  sim = make(0, "solver.linear_solver=auto", NULL, &sc);
  if (sim) {
    NOTE("chain auto: %s", cosrod_sim_linear_solver(sim));
    CHECK("chain: auto keeps the band", !strncmp(cosrod_sim_linear_solver(sim), "band", 4));
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  /* methods without linear systems of this kind: said so */
  sim = make(1, "solver.linear_solver=sparse", "solver.integrator=dopri5", &sc);
  if (sim) {
    NOTE("star dopri5 sparse: %s", cosrod_sim_linear_solver(sim));
    CHECK("dopri5: no linear solver", !strcmp(cosrod_sim_linear_solver(sim), "none (explicit method)"));
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  (void)o;
}

static const th_case cases[] = {
    TH_CASE(star_kirchhoff_dae_sparse_equals_band_radau5),
    TH_CASE(star_kirchhoff_dae_sparse_equals_band_seulex),
    TH_CASE(kirchhoff_ode_forms_dense),
    TH_CASE(pattern_covers_jacobian_star),
    TH_CASE(pattern_covers_jacobian_chain),
    TH_CASE(pattern_covers_jacobian_star_absolute),
    TH_CASE(pattern_covers_jacobian_chain_joined),
    TH_CASE(sparse_analytic_entries_star),
    TH_CASE(sparse_analytic_entries_star_absolute),
    TH_CASE(sparse_analytic_entries_chain),
    TH_CASE(sparse_analytic_entries_chain_joined),
    TH_CASE(star_analytic_band_vs_sparse_radau5),
    TH_CASE(star_analytic_band_vs_sparse_rodas),
    TH_CASE(star_analytic_band_vs_sparse_seulex),
    TH_CASE(chain_analytic_band_vs_sparse_rodas),
    TH_CASE(chain_joined_analytic_band_vs_sparse_radau5),
    TH_CASE(star_sparse_equals_band_rodas),
    TH_CASE(star_sparse_equals_band_seulex),
    TH_CASE(star_sparse_equals_band_radau5),
    TH_CASE(chain_sparse_equals_band_rodas),
    TH_CASE(chain_sparse_equals_band_seulex),
#ifdef COSROD_TEST_SUNDIALS_KLU
    TH_CASE(star_sparse_equals_band_cvode),
    TH_CASE(star_sparse_equals_band_ida),
    TH_CASE(chain_sparse_equals_band_cvode),
    TH_CASE(star_analytic_band_vs_sparse_cvode),
    TH_CASE(star_analytic_band_vs_sparse_ida),
#endif
    TH_CASE(auto_choice_and_fallback),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
