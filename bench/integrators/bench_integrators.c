// SPDX-License-Identifier: Apache-2.0
/* Work–precision benchmark of the integrators.
 *
 * For every built method and every applicable problem of the conformance
 * suite (tests/integrate/problems.c), at rtol = 1e-2 ... 1e-10 (atol =
 * rtol, Robertson atol = 1e-6 rtol): the error at the end, nfev, njev,
 * nsteps, nreject and the wall time (averaged over repeats of at least 20 ms).
 * Printed as a table, written as CSV, and plotted with gnuplot (error vs
 * wall time, one panel per problem) into OUTDIR.  A second table puts the
 * counts next to those of Hairer's originals where they are published
 * (itest.c, as published with the codes' test runs).
 *
 * Usage: bench_integrators [OUTDIR] [--quick]
 *   OUTDIR defaults to bench-out/integrators; --quick runs rtol 1e-2..1e-6. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "itest.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int mkdir_p(const char *path) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
      *p = '/';
    }
  }
  if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
  return 0;
}

/* Mixed error at the end: max_i |y_i - ref_i| / (|ref_i| + atol/rtol) (the
 * relative error, with the absolute floor atol/rtol of the tolerance). */
static double mixed_error(const itest_problem *P, const double *y, const double *ref) {
  double floor = P->atol_per_rtol, m = 0.0;
  for (int i = 0; i < P->n; i++) m = fmax(m, fabs(y[i] - ref[i]) / (fabs(ref[i]) + floor));
  return m;
}

static const char *bench_problems[] = {"vdp",       "robertson", "robertson_dae", "hires",
                                       "arenstorf", "pleiades",  "chain",         "chain_stiff"};
enum { NPROB = sizeof bench_problems / sizeof bench_problems[0] };

typedef struct row {
  const char *method, *problem;
  double rtol, err, wall;
  cosrod_status st;
  cosrod_integrate_stats s;
} row;

int main(int argc, char **argv) {
  const char *outdir = "bench-out/integrators";
  int quick = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0)
      quick = 1;
    else
      outdir = argv[i];
  }
  if (mkdir_p(outdir) != 0) {
    fprintf(stderr, "bench_integrators: cannot create %s\n", outdir);
    return 1;
  }
  const int ntol = quick ? 5 : 9;
  static row rows[4096];
  int nrows = 0;

  printf("Work-precision of the integrators (error = max |y - ref| / (|ref| + atol/rtol) at t_end)\n");
  printf("%-8s %-14s %7s %10s %9s %7s %8s %7s %8s %10s  %s\n", "method", "problem", "rtol", "error", "nfev",
         "njev", "nsteps", "nreject", "ndecomp", "wall[s]", "status");
  for (int ip = 0; ip < NPROB; ip++) {
    const itest_problem *P = itest_problem_by_name(bench_problems[ip]);
    if (!P) continue;
    double ref[64];
    if (P->exact)
      P->exact(P->t_end, ref);
    else
      memcpy(ref, P->yref, sizeof(double) * (size_t)P->n);
    for (size_t m = 0; m < cosrod_step_type_count(); m++) {
      const cosrod_step_type *T = cosrod_step_type_at(m);
      if (!itest_applies(T, P)) {
        if ((P->cls & ITP_STIFF) && (T->flags & COSROD_STEP_EXPLICIT) && !P->requires) {
          /* explicit methods on stiff problems: show that they stop with ERR_STIFF */
          cosrod_integrate_options o = cosrod_integrate_default_options();
          o.rtol = 1e-6;
          o.atol = 1e-6 * P->atol_per_rtol;
          cosrod_integrate_stats s;
          char msg[256];
          cosrod_status st = itest_run(T, P, &o, NULL, NULL, &s, msg, sizeof msg);
          printf("%-8s %-14s %7.0e %10s %9ld %7ld %8ld %7ld %8ld %10s  %s\n", T->name, P->name, 1e-6, "-",
                 s.nfev, s.njev, s.nsteps, s.nreject, s.ndecomp, "-", cosrod_status_name(st));
        }
        continue;
      }
      for (int k = 0; k < ntol && nrows < 4096; k++) {
        double rtol = pow(10.0, -2.0 - k);
        cosrod_integrate_options o = cosrod_integrate_default_options();
        o.rtol = rtol;
        o.atol = rtol * P->atol_per_rtol;
        o.max_steps = 2000000;
        double y[64];
        row *r = &rows[nrows];
        double t0 = now();
        r->st = itest_run(T, P, &o, NULL, y, &r->s, NULL, 0);
        double dt = now() - t0;
        int reps = 1;
        if (dt < 0.02 && r->st == COSROD_OK) {
          reps = (int)fmin(1000.0, ceil(0.02 / fmax(dt, 1e-7)));
          t0 = now();
          for (int q = 0; q < reps; q++) itest_run(T, P, &o, NULL, y, NULL, NULL, 0);
          dt = now() - t0;
        }
        r->method = T->name;
        r->problem = P->name;
        r->rtol = rtol;
        r->wall = dt / reps;
        r->err = r->st == COSROD_OK ? mixed_error(P, y, ref) : NAN;
        printf("%-8s %-14s %7.0e %10.3e %9ld %7ld %8ld %7ld %8ld %10.3e  %s\n", r->method, r->problem, rtol,
               r->err, r->s.nfev, r->s.njev, r->s.nsteps, r->s.nreject, r->s.ndecomp, r->wall,
               r->st == COSROD_OK ? "ok" : cosrod_status_name(r->st));
        nrows++;
      }
    }
  }

  /* comparison with the originals */
  printf("\nCounts vs Hairer's originals (ours / original)\n");
  printf("%-8s %-10s %7s %15s %11s %13s %11s %11s\n", "method", "problem", "rtol", "nfev", "njev", "nsteps",
         "nreject", "ndecomp");
  for (size_t i = 0; i < itest_reference_count; i++) {
    const itest_counts *c = &itest_reference_counts[i];
    const cosrod_step_type *T = cosrod_step_type_by_name(c->method);
    const itest_problem *P = itest_problem_by_name(c->problem);
    if (!T || !P) continue;
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = c->rtol;
    o.atol = c->atol;
    cosrod_integrate_stats s;
    itest_run(T, P, &o, NULL, NULL, &s, NULL, 0);
    printf("%-8s %-10s %7.0e %7ld/%-7ld %5ld/%-5ld %6ld/%-6ld %5ld/%-5ld %5ld/%-5ld\n", c->method, c->problem,
           c->rtol, s.nfev, c->nfev, s.njev, c->njev, s.nsteps, c->nsteps, s.nreject, c->nreject, s.ndecomp,
           c->ndecomp);
  }

  /* CSV */
  char path[1200];
  snprintf(path, sizeof path, "%s/integrators.csv", outdir);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "bench_integrators: cannot write %s\n", path);
    return 1;
  }
  fprintf(f, "method,problem,rtol,error,nfev,njev,nsteps,naccept,nreject,ndecomp,wall_time,status\n");
  for (int i = 0; i < nrows; i++) {
    row *r = &rows[i];
    fprintf(f, "%s,%s,%.0e,%.6e,%ld,%ld,%ld,%ld,%ld,%ld,%.6e,%s\n", r->method, r->problem, r->rtol, r->err,
            r->s.nfev, r->s.njev, r->s.nsteps, r->s.naccept, r->s.nreject, r->s.ndecomp, r->wall,
            cosrod_status_name(r->st));
  }
  fclose(f);
  printf("\nwrote %s\n", path);

  /* gnuplot: one data file per problem, one index block per method */
  snprintf(path, sizeof path, "%s/work_precision.gp", outdir);
  FILE *gp = fopen(path, "w");
  if (!gp) return 1;
  fprintf(gp,
          "set terminal pngcairo noenhanced size 1600,900 font ',9'\nset output '%s/work_precision.png'\n",
          outdir);
  fprintf(gp, "set multiplot layout 2,4 title 'cosrod integrators: error at t_end vs wall time'\n");
  fprintf(gp, "set logscale xy\nset format x '1e%%L'\nset format y '1e%%L'\nset key top right\n");
  fprintf(gp, "set xlabel 'error'\nset ylabel 'wall time [s]'\nset grid\n");
  for (int ip = 0; ip < NPROB; ip++) {
    char dpath[1200];
    snprintf(dpath, sizeof dpath, "%s/wp_%s.dat", outdir, bench_problems[ip]);
    FILE *d = fopen(dpath, "w");
    if (!d) continue;
    const char *names[16];
    int gidx[16]; /* global method index: one colour per method in every panel */
    int nm = 0;
    for (size_t m = 0; m < cosrod_step_type_count() && nm < 16; m++) {
      const char *mn = cosrod_step_type_at(m)->name;
      int any = 0;
      for (int i = 0; i < nrows; i++)
        if (strcmp(rows[i].method, mn) == 0 && strcmp(rows[i].problem, bench_problems[ip]) == 0 &&
            rows[i].st == COSROD_OK && rows[i].err > 0.0)
          any = 1;
      if (!any) continue;
      fprintf(d, "# %s\n", mn);
      for (int i = 0; i < nrows; i++)
        if (strcmp(rows[i].method, mn) == 0 && strcmp(rows[i].problem, bench_problems[ip]) == 0 &&
            rows[i].st == COSROD_OK && rows[i].err > 0.0)
          fprintf(d, "%.0e %.6e %.6e %ld\n", rows[i].rtol, rows[i].err, rows[i].wall, rows[i].s.nfev);
      fprintf(d, "\n\n");
      gidx[nm] = (int)m;
      names[nm++] = mn;
    }
    fclose(d);
    fprintf(gp, "set title '%s'\n", bench_problems[ip]);
    if (nm == 0) {
      fprintf(gp, "unset key\nplot NaN notitle\nset key top right\n");
      continue;
    }
    fprintf(gp, "plot ");
    for (int k = 0; k < nm; k++)
      fprintf(gp, "%s'%s' index %d using 2:3 with linespoints lc %d pt %d title '%s'", k ? ", " : "", dpath,
              k, gidx[k] + 1, gidx[k] + 1, names[k]);
    fprintf(gp, "\n");
  }
  fprintf(gp, "unset multiplot\n");
  fclose(gp);
  char cmd[1400];
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", path);
  int rc = system(cmd);
  if (rc == 0)
    printf("wrote %s/work_precision.png\n", outdir);
  else
    printf("gnuplot failed (%d): the plot script is %s\n", rc, path);
  return 0;
}
