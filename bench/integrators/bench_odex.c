// SPDX-License-Identifier: Apache-2.0
/* ODEX work–precision on the Arenstorf orbit and the Pleiades (HNW I §II.10
 * test problems), beside dopri5 and dop853: for rtol = atol = 1e-3 ... 1e-13
 * the end error (max norm and Euclidean norm against the reference) and the
 * counts.  Also runs the stiffness detector in counting mode
 * (stiff_continue) to show it does not fire on these non-stiff problems.
 *
 * --stability prints instead the stability boundary beta_K of T_{K-1,K-1}
 * (K columns, n_j = 4j + 2, no smoothing) on the negative real axis: the
 * first x > 0 with |R(-x)| > 1 on a grid of step 1e-3, R the stability
 * function of the extrapolated midpoint rule (the constants of odex.c).
 *
 * Usage: bench_odex [--csv] [--methods m1,m2,...] | --stability */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "itest.h"

/* R(z) of T_{K-1,K-1} for y' = y: midpoint rule per column, Aitken–Neville in h^2. */
static double stab_R(double z, int K) {
  double T[16];
  for (int j = 0; j < K; j++) {
    const int n = 4 * j + 2;
    const double h = z / n;
    double a = 1.0, b = 1.0 + h;
    for (int i = 1; i < n; i++) {
      double c = a + 2.0 * h * b;
      a = b, b = c;
    }
    T[j] = b;
    for (int r = j - 1; r >= 0; r--) {
      double q = (double)n / (4 * r + 2);
      T[r] = T[r + 1] + (T[r + 1] - T[r]) / (q * q - 1.0);
    }
  }
  return T[0];
}

static void stability(void) {
  printf("K  order  beta_K (|R(-x)| <= 1 on (0, beta_K])\n");
  for (int K = 2; K <= 12; K++) {
    double x = 1e-3;
    while (x < 100.0 && fabs(stab_R(-x, K)) <= 1.0) x += 1e-3;
    printf("%-2d %5d  %.3f   (fit 1.07 K + 1 = %.2f)\n", K, 2 * K, x, 1.07 * K + 1.0);
  }
}

int main(int argc, char **argv) {
  int csv = 0;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--stability") == 0) return stability(), 0;
  const char *methods = "odex,dop853,dopri5";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--csv") == 0) csv = 1;
    if (strcmp(argv[i], "--methods") == 0 && i + 1 < argc) methods = argv[++i];
  }
  const char *problems[] = {"arenstorf", "pleiades"};
  if (csv)
    printf("problem,method,rtol,nfev,nsteps,naccept,nreject,nstiff,err_max,err_2,status\n");
  else
    printf("%-10s %-7s %7s %8s %7s %7s %6s %10s %10s\n", "problem", "method", "rtol", "nfev", "nsteps",
           "nreject", "nstiff", "err_max", "err_2");
  for (int p = 0; p < 2; p++) {
    const itest_problem *P = itest_problem_by_name(problems[p]);
    double ref[64], y[64];
    memcpy(ref, P->yref, sizeof(double) * (size_t)P->n);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", methods);
    for (char *m = strtok(buf, ","); m; m = strtok(NULL, ",")) {
      const cosrod_step_type *T = cosrod_step_type_by_name(m);
      if (!T) continue;
      for (int e = 3; e <= 13; e++) {
        cosrod_integrate_options o = cosrod_integrate_default_options();
        o.rtol = o.atol = pow(10.0, -e);
        o.stiff_continue = 1;
        cosrod_integrate_stats s;
        cosrod_status st = itest_run(T, P, &o, NULL, y, &s, NULL, 0);
        double e2 = 0.0;
        for (int i = 0; i < P->n; i++) e2 += (y[i] - ref[i]) * (y[i] - ref[i]);
        double em = itest_max_error(P->n, y, ref);
        if (csv)
          printf("%s,%s,%.0e,%ld,%ld,%ld,%ld,%ld,%.3e,%.3e,%s\n", P->name, m, o.rtol, s.nfev, s.nsteps,
                 s.naccept, s.nreject, s.nstiff, em, sqrt(e2), cosrod_status_name(st));
        else
          printf("%-10s %-7s %7.0e %8ld %7ld %7ld %6ld %10.3e %10.3e %s\n", P->name, m, o.rtol, s.nfev,
                 s.nsteps, s.nreject, s.nstiff, em, sqrt(e2), st == COSROD_OK ? "" : cosrod_status_name(st));
      }
    }
  }
  return 0;
}
