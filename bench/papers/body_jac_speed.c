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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_bench.h"

#define now body_bench_cpu

typedef struct res {
  cosrod_status st;
  long nfev, njev, nsteps;
  double wall;
} res;

static res run(body_bench *b, const char *method, double tol, double T, int analytic) {
  res r = {COSROD_OK, 0, 0, 0, 0.0};
  cosrod_ode_problem keep = b->p;
  if (!analytic) b->p.jac = NULL, b->p.jac_fills = 0;
  cosrod_integrate_stats s;
  r.st = body_bench_integrate(b, method, tol, tol, T, &s, &r.wall);
  b->p = keep;
  r.nfev = s.nfev, r.njev = s.njev, r.nsteps = s.nsteps;
  return r;
}

/* CPU seconds per Jacobian at y0 (minimum over 5 batches of 400): analytic,
 * central FD (2n f), and n f evaluations (the cost of a forward-difference Jacobian) */
static void jac_cost(body_bench *bb, double *ta, double *tc, double *tf) {
  cosrod_mbs *m = bb->m;
  cosrod_mbs_data *d = bb->d;
  int n = bb->n, reps = 400;
  const double *y = bb->y0;
  double *J = calloc((size_t)n * n, sizeof *J), *f = calloc((size_t)n, sizeof *f);
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
  free(J), free(f);
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
      char path[1024], buf[5][64];
      const char *sets[5];
      snprintf(path, sizeof path, "%s/%s.yaml", argv[1], ex[e]);
      size_t ns = body_bench_form_sets(buf, sets, forms[f][1], forms[f][2], e == 1 ? 2 : 1);
      body_bench bb;
      if (body_bench_open(&bb, path, sets, ns)) return 1;
      double ta, tc, tf;
      jac_cost(&bb, &ta, &tc, &tf);
      for (int t = 0; t < 3; ++t)
        for (int a = 1; a >= 0; --a) {
          res best = {COSROD_OK, 0, 0, 0, INFINITY};
          for (int k = 0; k < reps; ++k) {
            res r = run(&bb, "radau5", tols[t], Tend[e], a);
            if (r.wall < best.wall) best = r;
          }
          printf("%s,%s,%d,%.0e,%s,%s,%ld,%ld,%ld,%.4g,%.3g,%.3g,%.3g\n", ex[e], forms[f][0], bb.n,
                 tols[t], a ? "analytic" : "fd", best.st == COSROD_OK ? "ok" : cosrod_status_name(best.st),
                 best.nfev, best.njev, best.nsteps, best.wall, ta, tc, tf);
          fflush(stdout);
        }
      body_bench_close(&bb);
    }
  return 0;
}
