// SPDX-License-Identifier: Apache-2.0
/* Per-step cost of the BDF codes (ida, cvode) against rodas on one scenario,
 * and the agreement of our band SUNMatrix / linear solver
 * with SUNDIALS' own band solver (options.linalg_backend = 2).
 *
 *   bench_bdf SCENARIO [--tol T] [--reps R] [--set k=v]...
 *
 * For each configuration the scenario is built into a simulation with that
 * integrator (the same problem, layout and analytic Jacobian as `cosrod
 * run`), and the simulation's ODE / DAE problem is integrated from its
 * initial state to t_end by the integrator directly (no output), R times;
 * wall = the integrator's own wall time, minimum over the runs.  Prints one
 * row per configuration: steps (attempted / accepted), nfev, njev, ndecomp,
 * wall, µs per attempted and per accepted step, the ratio of the latter to
 * rodas', and for the dgbtrf and SUNDIALS-solver rows the max-norm
 * difference of the final state to our solver's row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "sim/sim_hooks.h"

typedef struct config {
  const char *method, *label;
  int backend; /* options.linalg_backend */
} config;

typedef struct result {
  cosrod_integrate_stats st;
  double wall;
  double *y; /* (n) final state */
  int n;
  cosrod_status status;
} result;

static int run(const char *file, const char **sets, size_t nsets, const config *cf, double tol, int reps,
               result *res) {
  const char *all[72];
  char mset[64], rset[64], aset[64];
  size_t k = 0;
  for (size_t i = 0; i < nsets && k < 64; i++) all[k++] = sets[i];
  snprintf(mset, sizeof mset, "solver.integrator=%s", cf->method);
  snprintf(rset, sizeof rset, "solver.rtol=%g", tol);
  snprintf(aset, sizeof aset, "solver.atol=%g", tol);
  all[k++] = mset;
  all[k++] = rset;
  all[k++] = aset;
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(file, all, k, NULL))) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  cosrod_status cs;
  cosrod_sim *sim = cosrod_sim_create(sc, &cs);
  if (!sim) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    cosrod_scenario_free(sc);
    return 1;
  }
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  const int n = p->n;
  double *y0 = malloc(sizeof(double) * (size_t)n);
  memcpy(y0, cosrod_sim_state(sim), sizeof(double) * (size_t)n);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  o.max_steps = 1000000;
  o.linalg_backend = cf->backend;
  o.stiff_continue = 1;
  res->wall = INFINITY;
  res->n = n;
  res->y = malloc(sizeof(double) * (size_t)n);
  res->status = COSROD_OK;
  for (int r = 0; r < reps; r++) {
    cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(cf->method), p, &o, &cs);
    if (!it) {
      fprintf(stderr, "%s: create failed (%s)\n", cf->label, cosrod_strerror(cs));
      res->status = cs;
      break;
    }
    cs = cosrod_integrator_init(it, 0.0, y0, NULL);
    if (cs == COSROD_OK) cs = cosrod_integrator_evolve(it, sc->analysis.t_end, NULL);
    if (cs != COSROD_OK) fprintf(stderr, "%s: %s\n", cf->label, cosrod_integrator_message(it));
    res->status = cs;
    res->st = *cosrod_integrator_stats(it);
    if (res->st.wall_time < res->wall) res->wall = res->st.wall_time;
    memcpy(res->y, cosrod_integrator_y(it), sizeof(double) * (size_t)n);
    cosrod_integrator_free(it);
    if (cs != COSROD_OK) break;
  }
  free(y0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SCENARIO [--tol T] [--reps R] [--set k=v]...\n", argv[0]);
    return 2;
  }
  const char *sets[64];
  size_t nsets = 0;
  double tol = 1e-3;
  int reps = 3;
  for (int a = 2; a < argc; a++) {
    if (a + 1 < argc && !strcmp(argv[a], "--tol"))
      tol = atof(argv[++a]);
    else if (a + 1 < argc && !strcmp(argv[a], "--reps"))
      reps = atoi(argv[++a]);
    else if (a + 1 < argc && !strcmp(argv[a], "--set") && nsets < 64)
      sets[nsets++] = argv[++a];
    else {
      fprintf(stderr, "unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  const config cfs[] = {{"rodas", "rodas", 0},
                        {"ida", "ida (own band LU)", 0},
                        {"ida", "ida (our band, dgbtrf)", 1},
                        {"ida", "ida (SUNDIALS band)", 2},
                        {"cvode", "cvode (own band LU)", 0},
                        {"cvode", "cvode (our band, dgbtrf)", 1},
                        {"cvode", "cvode (SUNDIALS band)", 2}};
  const int ncf = (int)(sizeof cfs / sizeof cfs[0]);
  result res[7];
  memset(res, 0, sizeof res);
  const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1]; /* no machine path in results */
  printf("# examples/%s, TOL = RTOL = ATOL = %g, integrator wall time minimum of %d runs (no output)\n", name, tol,
         reps);
  printf("%-25s %-6s %7s %7s %7s %6s %7s %9s %9s %9s %7s %10s\n", "config", "status", "steps", "accept",
         "nfev", "njev", "ndecomp", "wall_s", "us/step", "us/accept", "/rodas", "dy_vs_own");
  double rodas_us = NAN;
  for (int c = 0; c < ncf; c++) {
    if (run(argv[1], sets, nsets, &cfs[c], tol, reps, &res[c]) != 0) return 1;
    const result *r = &res[c];
    double us = 1e6 * r->wall / (double)(r->st.nsteps > 0 ? r->st.nsteps : 1);
    double usa = 1e6 * r->wall / (double)(r->st.naccept > 0 ? r->st.naccept : 1);
    if (c == 0) rodas_us = us;
    double dy = NAN;
    const result *own = c >= 2 && cfs[c].backend > 0 ? &res[c - cfs[c].backend] : NULL;
    if (own && own->y && own->n == r->n) {
      dy = 0.0;
      for (int i = 0; i < r->n; i++) dy = fmax(dy, fabs(r->y[i] - own->y[i]));
    }
    printf("%-25s %-6s %7ld %7ld %7ld %6ld %7ld %9.4f %9.2f %9.2f %7.2f %10.3e\n", cfs[c].label,
           r->status == COSROD_OK ? "ok" : "FAIL", r->st.nsteps, r->st.naccept, r->st.nfev, r->st.njev,
           r->st.ndecomp, r->wall, us, usa, us / rodas_us, dy);
  }
  for (int c = 0; c < ncf; c++) free(res[c].y);
  return 0;
}
