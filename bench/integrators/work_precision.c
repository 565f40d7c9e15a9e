// SPDX-License-Identifier: Apache-2.0
/* Work–precision study of the integrators against a stored yardstick.
 *
 * Runs the named methods (default radau5, rodas, seulex, dopri5, dop853,
 * odex; a name the registry does not know is reported as missing) on the
 * test problems of tests/integrate/wp.c (Van der Pol eps = 1e-6, Robertson,
 * HIRES, OREGO, Pleiades; Arenstorf for explicit methods) at rtol = 1e-4,
 * 1e-5, ..., 1e-10 with each problem's atol/rtol convention, and records per
 * run: the error at t_end against the published reference, nfev, njev,
 * nsteps, naccept, nreject, ndecomp, work (wp.h) and the wall time.
 *
 * Usage: work_precision [--methods a,b,...] [--rtol-min R] [--csv OUT.csv]
 *                       [--original ORIG.csv --md OUT.md] [--no-time]
 *                       [--check-references]
 *   --csv       write the runs (the format of bench/results/work-precision-original.csv)
 *   --original  compare with a stored curve and write the side-by-side
 *               table (work ratio at equal achieved accuracy) to --md
 *   --check-references  integrate every problem with dop853 and radau5 at
 *               rtol 1e-13 and print the difference to the stored reference
 * Exit status: 0, 1 if a run failed or a comparison exceeds the factor 1.5,
 * 2 for bad arguments or an unreadable CSV. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itest.h"
#include "wp.h"

enum { MAXM = 16, MAXPTS = 1024 };
static const double FACTOR = 1.5; /* acceptance factor in work at equal accuracy */

static wp_point cur[MAXPTS], orig[MAXPTS];
static int ncur, norig;

static void check_references(void) {
  printf("Reference check: error (wp.h measure) of a rtol 1e-13 run against the stored reference\n");
  printf("%-10s %-8s %12s %9s\n", "problem", "method", "error", "nfev");
  const char *meths[2] = {"dop853", "radau5"};
  for (size_t ip = 0; ip < wp_problem_count; ip++) {
    const itest_problem *P = itest_problem_by_name(wp_problems[ip]);
    for (int m = 0; m < 2; m++) {
      const cosrod_step_type *T = cosrod_step_type_by_name(meths[m]);
      if (!T || ((P->cls & ITP_STIFF) && !(T->flags & COSROD_STEP_IMPLICIT))) continue;
      wp_point pt;
      wp_run(T, P, 1e-13, 0.0, &pt);
      printf("%-10s %-8s %12.3e %9ld  %s\n", P->name, T->name, pt.err, pt.nfev, pt.status);
    }
  }
}

static void run_all(char **names, int nm, double rtol_min, int timed) {
  printf("%-8s %-10s %7s %11s %8s %6s %7s %7s %6s %7s %9s %10s  %s\n", "method", "problem", "rtol", "error",
         "nfev", "njev", "nsteps", "naccept", "nrej", "ndecomp", "work", "wall[s]", "status");
  for (int m = 0; m < nm; m++) {
    const cosrod_step_type *T = cosrod_step_type_by_name(names[m]);
    if (!T) {
      printf("%-8s missing: no method of this name in the registry\n", names[m]);
      continue;
    }
    for (size_t ip = 0; ip < wp_problem_count; ip++) {
      const itest_problem *P = itest_problem_by_name(wp_problems[ip]);
      if (!wp_method_runs(T, P)) continue;
      for (int k = 0; ncur < MAXPTS; k++) {
        double rtol = pow(10.0, -4.0 - k);
        if (rtol < rtol_min * 0.999) break;
        wp_point *p = &cur[ncur++];
        wp_run(T, P, rtol, timed ? 0.02 : 0.0, p);
        printf("%-8s %-10s %7.0e %11.3e %8ld %6ld %7ld %7ld %6ld %7ld %9.0f %10.3e  %s\n", p->method,
               p->problem, rtol, p->err, p->nfev, p->njev, p->nsteps, p->naccept, p->nreject, p->ndecomp,
               wp_work(p), p->wall, p->status);
        fflush(stdout);
      }
    }
  }
}

/* One section of the side-by-side table; returns 1 if the pair fails the factor. */
static int md_pair(FILE *f, const char *method, const char *problem, double *worst, double *worst_nfev) {
  *worst = *worst_nfev = 0.0;
  int fail = 0, any = 0;
  for (int i = 0; i < ncur; i++) {
    const wp_point *c = &cur[i];
    if (strcmp(c->method, method) != 0 || strcmp(c->problem, problem) != 0) continue;
    const wp_point *o = NULL;
    for (int j = 0; j < norig; j++)
      if (strcmp(orig[j].method, method) == 0 && strcmp(orig[j].problem, problem) == 0 &&
          fabs(orig[j].rtol / c->rtol - 1.0) < 1e-6)
        o = &orig[j];
    if (!any) {
      fprintf(f, "\n### %s on %s\n\n", method, problem);
      fprintf(f,
              "| rtol | original error | original work | original f / J / LU / steps | current error | "
              "current work | current f / J / LU / steps | work ratio | nfev ratio | wall [ms] original / "
              "current |\n|---|---|---|---|---|---|---|---|---|---|\n");
      any = 1;
    }
    char os[160] = "– | –", oe[32] = "–", wall[64], cs[160];
    snprintf(wall, sizeof wall, "%.3g / %.3g", o ? 1e3 * o->wall : NAN, 1e3 * c->wall);
    if (o) {
      snprintf(oe, sizeof oe, "%.2e", o->err);
      snprintf(os, sizeof os, "%.0f | %ld / %ld / %ld / %ld", wp_work(o), o->nfev, o->njev, o->ndecomp,
               o->nsteps);
    }
    snprintf(cs, sizeof cs, "%.0f | %ld / %ld / %ld / %ld", wp_work(c), c->nfev, c->njev, c->ndecomp,
             c->nsteps);
    if (strcmp(c->status, "ok") != 0) {
      fprintf(f, "| %.0e | %s | %s | %s | – | – | fails | fails | %s |\n", c->rtol, oe, os, c->status, wall);
      fail = 1;
      *worst = *worst_nfev = INFINITY;
      continue;
    }
    wp_cmp a, b;
    int k = wp_compare(orig, norig, method, problem, c->err, wp_work(c), WP_WORK_TOTAL, &a);
    wp_compare(orig, norig, method, problem, c->err, (double)c->nfev, WP_WORK_NFEV, &b);
    if (!k) {
      fprintf(f, "| %.0e | %s | %s | %.2e | %s | no curve | no curve | %s |\n", c->rtol, oe, os, c->err, cs,
              wall);
      continue;
    }
    const char *mark = a.where < 0 ? " ¹" : a.where > 0 ? " ²" : "";
    fprintf(f, "| %.0e | %s | %s | %.2e | %s | %.3f%s | %.3f%s | %s |\n", c->rtol, oe, os, c->err, cs,
            a.ratio, mark, b.ratio, mark, wall);
    *worst = fmax(*worst, a.ratio);
    *worst_nfev = fmax(*worst_nfev, b.ratio);
    if (a.ratio > FACTOR) fail = 1;
  }
  return fail;
}

static int write_md(const char *path, const char *orig_path, char **names, int nm) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "work_precision: cannot write %s\n", path);
    return 2;
  }
  fprintf(f, "# Work–precision: current build vs the original yardstick\n\n");
  fprintf(f,
          "Generated by `bench/integrators/work_precision.sh BUILD_DIR` (program "
          "`bench/integrators/work_precision.c`) from the stored curve `%s` (see "
          "work-precision-original.md) and a run of the current build.\n\n",
          orig_path);
  fprintf(
      f,
      "- error: max_i |y_i − ref_i| / (|ref_i| + atol/rtol) at t_end against the published reference "
      "(tests/integrate/reference_solutions.c).\n"
      "- work = nfev + n·njev + ndecomp (a Jacobian priced as n f-evaluations, its finite-difference "
      "cost; an LU as one f-evaluation); nfev alone beside it.\n"
      "- work ratio = current work / work of the original curve at the current point's error "
      "(the original points joined in tolerance order, interpolated log–log; where that curve folds back the "
      "larger work at the error is taken). "
      "¹ current error below the original's range: compared with the most accurate original point; "
      "² above it: with the least accurate one.\n"
      "- acceptance (issue: efficiency, not sameness): work ratio ≤ %.1f at every tolerance.\n"
      "- wall: mean of repeated runs (≥ 20 ms in total) on a shared machine; a noisy indication only, "
      "the counts are the measure.\n\n",
      FACTOR);
  fprintf(f,
          "## Summary\n\n| method | problem | worst work ratio | worst nfev ratio | ≤ %.1f "
          "|\n|---|---|---|---|---|\n",
          FACTOR);
  /* summary first: run the pairs into a scratch stream */
  FILE *tmp = tmpfile();
  int fail = 0;
  for (int m = 0; m < nm; m++) {
    const cosrod_step_type *T = cosrod_step_type_by_name(names[m]);
    if (!T) {
      fprintf(f, "| %s | – | missing in the registry | | |\n", names[m]);
      continue;
    }
    for (size_t ip = 0; ip < wp_problem_count; ip++) {
      const itest_problem *P = itest_problem_by_name(wp_problems[ip]);
      if (!wp_method_runs(T, P)) continue;
      double w, wn;
      int bad = md_pair(tmp ? tmp : f, T->name, P->name, &w, &wn);
      fail |= bad;
      fprintf(f, "| %s | %s | %.3f | %.3f | %s |\n", T->name, P->name, w, wn, bad ? "**no**" : "yes");
    }
  }
  if (tmp) {
    fprintf(f, "\n## Per tolerance\n");
    rewind(tmp);
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, tmp)) > 0) fwrite(buf, 1, k, f);
    fclose(tmp);
  }
  fclose(f);
  printf("wrote %s%s\n", path, fail ? " (some pairs exceed the factor)" : "");
  return fail;
}

int main(int argc, char **argv) {
  static char namebuf[512] = "radau5,rodas,seulex,dopri5,dop853,odex";
  const char *csv = NULL, *orig_path = NULL, *md = NULL;
  double rtol_min = 1e-10;
  int timed = 1, refcheck = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (strcmp(a, "--methods") == 0 && more)
      snprintf(namebuf, sizeof namebuf, "%s", argv[++i]);
    else if (strcmp(a, "--rtol-min") == 0 && more)
      rtol_min = atof(argv[++i]);
    else if (strcmp(a, "--csv") == 0 && more)
      csv = argv[++i];
    else if (strcmp(a, "--original") == 0 && more)
      orig_path = argv[++i];
    else if (strcmp(a, "--md") == 0 && more)
      md = argv[++i];
    else if (strcmp(a, "--no-time") == 0)
      timed = 0;
    else if (strcmp(a, "--check-references") == 0)
      refcheck = 1;
    else {
      fprintf(stderr, "work_precision: argument %d: unknown or incomplete option '%s'\n", i, a);
      return 2;
    }
  }
  if (!(rtol_min > 0.0 && rtol_min <= 1e-4) || (orig_path && !md) || (md && !orig_path)) {
    fprintf(stderr, "work_precision: --rtol-min must be in (0, 1e-4]; --original and --md go together\n");
    return 2;
  }
  if (refcheck) {
    check_references();
    return 0;
  }
  char *names[MAXM];
  int nm = 0;
  for (char *s = strtok(namebuf, ","); s && nm < MAXM; s = strtok(NULL, ",")) names[nm++] = s;
  if (orig_path) {
    char msg[600];
    norig = wp_csv_read(orig_path, orig, MAXPTS, msg, sizeof msg);
    if (norig < 0) {
      fprintf(stderr, "%s\n", msg);
      return 2;
    }
  }
  run_all(names, nm, rtol_min, timed);
  int rc = 0;
  for (int i = 0; i < ncur; i++)
    if (strcmp(cur[i].status, "ok") != 0) rc = 1;
  if (csv) {
    FILE *f = fopen(csv, "w");
    if (!f) {
      fprintf(stderr, "work_precision: cannot write %s\n", csv);
      return 2;
    }
    fprintf(f, "%s\n", wp_csv_header);
    for (int i = 0; i < ncur; i++) wp_csv_write(f, &cur[i]);
    fclose(f);
    printf("wrote %s\n", csv);
  }
  if (orig_path) {
    int r = write_md(md, orig_path, names, nm);
    if (r) rc = r;
  }
  return rc;
}
