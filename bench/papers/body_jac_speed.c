// SPDX-License-Identifier: Apache-2.0
/* Cost of the analytic multibody Jacobian (body_jac.c / body_tangent.c)
 * against the integrator's own forward-difference Jacobian (n extra f
 * evaluations per Jacobian) in radau5 runs of the [L] examples A (heavy top,
 * spherical joint) and C (two bodies, two joints), every formulation.
 * Times are process CPU times (the shared machine is loaded): minimum over
 * REPS runs of the whole integration.  Also the cost of one Jacobian alone (mean over 2000
 * calls at y0): analytic vs central differences of the whole right-hand
 * side (cosrod_mbs_jac_fd) and vs n forward differences.
 * Usage: body_jac_speed EXAMPLES_DIR [--quick] > body-jac-speed.csv */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/body.h"
#include "cosrod/integrate.h"
#include "cosrod/scenario.h"
#include "sim/sim_translate.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct res {
  cosrod_status st;
  long nfev, njev, nsteps;
  double wall;
} res;

static res run(cosrod_mbs *m, const char *method, double tol, double T, int analytic) {
  res r = {COSROD_OK, 0, 0, 0, 0.0};
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  if (!analytic) p.jac = NULL, p.jac_fills = 0;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  o.max_steps = 5000000;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &r.st);
  int n = cosrod_mbs_n(m);
  double *y0 = calloc((size_t)n, sizeof *y0), *y = calloc((size_t)n, sizeof *y);
  cosrod_mbs_initial_state(m, y0);
  if (it) {
    double t0 = now();
    r.st = cosrod_integrate(it, 0.0, y0, T, NULL, y);
    r.wall = now() - t0;
    const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
    r.nfev = s->nfev, r.njev = s->njev, r.nsteps = s->nsteps;
  }
  cosrod_integrator_free(it);
  free(y0), free(y);
  cosrod_mbs_data_free(d);
  return r;
}

/* CPU seconds per Jacobian at y0 (minimum over 5 batches of 400): analytic,
 * central FD (2n f), and n f evaluations (the cost of a forward-difference Jacobian) */
static void jac_cost(cosrod_mbs *m, double *ta, double *tc, double *tf) {
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  int n = cosrod_mbs_n(m), reps = 400;
  double *y = calloc((size_t)n, sizeof *y), *J = calloc((size_t)n * n, sizeof *J),
         *f = calloc((size_t)n, sizeof *f);
  cosrod_mbs_initial_state(m, y);
  *ta = *tc = *tf = INFINITY;
  for (int b = 0; b < 5; ++b) {
    double t0 = now();
    for (int k = 0; k < reps; ++k) cosrod_mbs_jac(m, d, 0.0, y, J);
    *ta = fmin(*ta, (now() - t0) / reps);
    t0 = now();
    for (int k = 0; k < reps; ++k) cosrod_mbs_jac_fd(m, d, 0.0, y, J, 1e-7);
    *tc = fmin(*tc, (now() - t0) / reps);
    t0 = now();
    for (int k = 0; k < reps; ++k)
      for (int j = 0; j < n; ++j) cosrod_mbs_rhs(m, d, 0.0, y, f);
    *tf = fmin(*tf, (now() - t0) / reps);
  }
  free(y), free(J), free(f);
  cosrod_mbs_data_free(d);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: body_jac_speed EXAMPLES_DIR [--quick] > body-jac-speed.csv\n");
    return 2;
  }
  int quick = argc > 2 && !strcmp(argv[2], "--quick"), reps = quick ? 1 : 3;
  static const char *forms[5][3] = {{"nullspace-quaternion", "nullspace", "quaternion"},
                                    {"nullspace-directors", "nullspace", "directors"},
                                    {"absolute-quaternion", "absolute", "quaternion"},
                                    {"absolute-directors", "absolute", "directors"},
                                    {"euler-angles", "nullspace", "euler-angles"}};
  const char *ex[2] = {"heavy-top", "two-body-joint"};
  double Tend[2] = {quick ? 2.0 : 10.0, 1.0};
  const double tols[3] = {1e-4, 1e-6, 1e-8};
  printf(
      "example,formulation,n,tol,jacobian,status,nfev,njev,nsteps,cpu_min_s,jac_s,jac_central_fd_s,n_rhs_"
      "s\n");
  for (int e = 0; e < 2; ++e)
    for (int f = 0; f < 5; ++f) {
      char path[1024], s1[64], s2[64], s3[64], err[512];
      snprintf(path, sizeof path, "%s/%s.yaml", argv[1], ex[e]);
      snprintf(s1, sizeof s1, "solver.formulation=%s", forms[f][1]);
      snprintf(s2, sizeof s2, "bodies.0.parametrisation=%s", forms[f][2]);
      snprintf(s3, sizeof s3, "bodies.1.parametrisation=%s", forms[f][2]);
      const char *sets[3] = {s1, s2, s3};
      cosrod_scenario *sc = NULL;
      if (!(sc = cosrod_scenario_load(path, sets, e == 1 ? 3 : 2, NULL))) {
        fprintf(stderr, "%s\n", cosrod_last_error());
        return 1;
      }
      cosrod_status st;
      cosrod_mbs *m = cosrod_sim_bodies_create(sc, &st, err, sizeof err);
      if (!m) {
        fprintf(stderr, "%s\n", err);
        cosrod_scenario_free(sc);
        return 1;
      }
      double ta, tc, tf;
      jac_cost(m, &ta, &tc, &tf);
      for (int t = 0; t < 3; ++t)
        for (int a = 1; a >= 0; --a) {
          res best = {COSROD_OK, 0, 0, 0, INFINITY};
          for (int k = 0; k < reps; ++k) {
            res r = run(m, "radau5", tols[t], Tend[e], a);
            if (r.wall < best.wall) best = r;
          }
          printf("%s,%s,%d,%.0e,%s,%s,%ld,%ld,%ld,%.4g,%.3g,%.3g,%.3g\n", ex[e], forms[f][0], cosrod_mbs_n(m),
                 tols[t], a ? "analytic" : "fd", best.st == COSROD_OK ? "ok" : cosrod_status_name(best.st),
                 best.nfev, best.njev, best.nsteps, best.wall, ta, tc, tf);
          fflush(stdout);
        }
      cosrod_mbs_free(m);
      cosrod_scenario_free(sc);
    }
  return 0;
}
