// SPDX-License-Identifier: Apache-2.0
/* ida and cvode on the rod with our band matrix and LU (src/integrate/
 * sundials_band.c) against SUNDIALS' own band matrix and solver
 * (options.linalg_backend = 2, the previous path) on perf-rubber ([LLA]
 * Table 2: damped rubber pendulum, absolute coordinates with Baumgarte,
 * node layout, the rod's analytic band Jacobian with jac_fills), over
 * [0, 2] s at TOL = RTOL = ATOL = 1e-3 (the paper's column):
 *   - LAPACK dgbtrf on our band (backend 1) does the arithmetic of SUNDIALS'
 *     band LU, so it must take exactly the same steps (every counter equal)
 *     and end in the same state: the iteration matrices (IDA's cj I - J in
 *     place, CVODE's I - gamma J from the saved J, re-evaluated when CVODE
 *     asks) are assembled as SUNDIALS does;
 *   - our LU (backend 0, the default) differs from it in roundoff only: the
 *     step counts within 2 % (measured: equal on [0, 2] s; over the full
 *     10 s roundoff-level perturbations move IDA's count by ~5 % either way,
 *     see bench/results/bdf.md) and the end states within 1e-6 (measured
 *     1e-11 ida, 2e-10 cvode);
 *   - the tip of every run against rodas at TOL 1e-9 (independent one-step
 *     method): within 5e-3 m, i.e. 5 TOL (BDF's global error at TOL 1e-3;
 *     measured 7.8e-4 m ida, 1.4e-3 m cvode). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "harness.h"
#include "sim/sim_hooks.h"
#include "sim_test_util.h"

typedef struct bdf_run {
  cosrod_status st;
  cosrod_integrate_stats s;
  double y[256];
  double tip[3];
  int n;
} bdf_run;

static const double T_END = 2.0;

/* Integrate the simulation's own problem with `method` and linalg_backend be
 * from its initial state to T_END; the tip from the end state. */
static bdf_run run_backend(const char *method, int be) {
  bdf_run r;
  memset(&r, 0, sizeof r);
  r.st = COSROD_ERR_INVALID;
  char mset[48];
  snprintf(mset, sizeof mset, "solver.integrator=%s", method);
  const char *sets[] = {mset, "analysis.t_end=2"};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_load("perf-rubber", sets, 2, &sc);
  if (!sim) return r;
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  CHECK("state fits", p->n <= 256);
  if (p->n <= 256) {
    double y0[256];
    memcpy(y0, cosrod_sim_state(sim), sizeof(double) * (size_t)p->n);
    r.n = p->n;
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 1e-3;
    o.linalg_backend = be;
    cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), p, &o, &r.st);
    if (it) {
      r.st = cosrod_integrator_init(it, 0.0, y0, NULL);
      if (r.st == COSROD_OK) r.st = cosrod_integrator_evolve(it, T_END, NULL);
      r.s = *cosrod_integrator_stats(it);
      memcpy(r.y, cosrod_integrator_y(it), sizeof(double) * (size_t)p->n);
      if (r.st != COSROD_OK) NOTE("%s: %s", method, cosrod_integrator_message(it));
      cosrod_integrator_free(it);
      if (r.st == COSROD_OK) r.st = cosrod_sim_set_state(sim, T_END, r.y);
      cosrod_sim_tip(sim, 0, r.tip);
    }
  }
  NOTE("%s backend %d: %s, %ld steps (%ld accepted), %ld f, %ld J, %ld LU, tip (%.9f, %.9f, %.9f)", method,
       be, cosrod_strerror(r.st), r.s.nsteps, r.s.naccept, r.s.nfev, r.s.njev, r.s.ndecomp, r.tip[0],
       r.tip[1], r.tip[2]);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return r;
}

static double maxdiff(const double *a, const double *b, int n) {
  double d = 0.0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
  return d;
}

static int same_counts(const cosrod_integrate_stats *a, const cosrod_integrate_stats *b) {
  return a->nsteps == b->nsteps && a->naccept == b->naccept && a->nreject == b->nreject &&
         a->nconvfail == b->nconvfail && a->nfev == b->nfev && a->njev == b->njev &&
         a->ndecomp == b->ndecomp && a->nnewton == b->nnewton;
}

static void check_method(const char *method, const double tip_ref[3]) {
  bdf_run r[3];
  char what[160];
  for (int be = 0; be < 3; be++) {
    r[be] = run_backend(method, be);
    snprintf(what, sizeof what, "%s backend %d reaches t = 2", method, be);
    CHECK(what, r[be].st == COSROD_OK);
    snprintf(what, sizeof what, "%s backend %d: tip vs rodas 1e-9", method, be);
    CHECK_VEC(what, r[be].tip, tip_ref, 3, 0.0, 5e-3);
  }
  const int n = r[2].n; /* 140: 11 x 3 + 10 x 4 - 3 = 70 positions and 70 rates */
  snprintf(what, sizeof what, "%s: dgbtrf on our band takes SUNDIALS' band solver's steps", method);
  CHECK(what, same_counts(&r[1].s, &r[2].s));
  snprintf(what, sizeof what, "%s: dgbtrf on our band ends in SUNDIALS' band solver's state", method);
  CHECK_LE(what, maxdiff(r[1].y, r[2].y, n), 1e-12);
  snprintf(what, sizeof what, "%s: our LU, accepted steps within 2 %% of SUNDIALS' band solver", method);
  CHECK_NEAR(what, (double)r[0].s.naccept, (double)r[2].s.naccept, 0.02 * (double)r[2].s.naccept);
  snprintf(what, sizeof what, "%s: our LU, end state within 1e-6 of SUNDIALS' band solver", method);
  CHECK_LE(what, maxdiff(r[0].y, r[2].y, n), 1e-6);
}

static int g_have_ref;
static double g_tip_ref[3];

static const double *tip_reference(void) {
  if (g_have_ref) return g_tip_ref;
  const char *sets[] = {"solver.integrator=rodas", "analysis.t_end=2", "solver.rtol=1e-9", "solver.atol=1e-9",
                        "output.every=1"};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_load("perf-rubber", sets, 5, &sc);
  if (!sim) return NULL;
  cosrod_sim_set_energy_accounting(sim, 0);
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("rodas reference run", st == COSROD_OK);
  cosrod_sim_tip(sim, 0, g_tip_ref);
  NOTE("rodas 1e-9: tip (%.9f, %.9f, %.9f), %ld steps", g_tip_ref[0], g_tip_ref[1], g_tip_ref[2],
       cosrod_sim_stats(sim)->nsteps);
  g_have_ref = st == COSROD_OK;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return g_have_ref ? g_tip_ref : NULL;
}

TEST(ida_own_band_matches_sundials_band_on_perf_rubber) {
  const double *ref = tip_reference();
  CHECK("reference", ref != NULL);
  if (ref) check_method("ida", ref);
}

TEST(cvode_own_band_matches_sundials_band_on_perf_rubber) {
  const double *ref = tip_reference();
  CHECK("reference", ref != NULL);
  if (ref) check_method("cvode", ref);
}

static const th_case cases[] = {TH_CASE(ida_own_band_matches_sundials_band_on_perf_rubber),
                                TH_CASE(cvode_own_band_matches_sundials_band_on_perf_rubber)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
