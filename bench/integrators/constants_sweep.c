// SPDX-License-Identifier: Apache-2.0
/* One-at-a-time study of a control constant (bench/results/integrator-constants.md).
 *
 * Runs METHOD on the work–precision problems of tests/integrate/wp.c (the
 * ones wp_method_runs() selects) at rtol = 1e-4 ... 1e-10, once with the
 * default options (the baseline) and once per listed value of one option,
 * and prints per problem and value the work ratio at equal achieved accuracy
 * against the baseline's own curve (wp_compare; < 1: the value is cheaper),
 * its geometric mean over the tolerances, the number of failed runs, and the
 * geometric mean over the problems; then the tolerance proportionality of
 * the value: the geometric mean of error/rtol over all runs and the mean
 * slope d log(error) / d log(rtol) per problem (1 is proportional).  The baseline is this build's default,
 * not the original codes: the study asks which value is best for this
 * controller.
 *
 * Usage: constants_sweep [--base IN.csv | --write-base OUT.csv] METHOD KEY V1 [V2 ...]
 *   --base        take the baseline from a CSV (wp_csv_write format) written by
 *                 --write-base of another build (a variant compiled with other
 *                 constants is then compared with the shipped build)
 *   KEY: kappa (newton_tol), kmax (max_newton), fac_min, fac_max, safety,
 *        jac_reuse, keep_lo, keep_hi, beta, h0, columns (max_columns),
 *        none (repeat the baseline: the values are labels only)
 * Exit status 0, 2 for bad arguments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itest.h"
#include "wp.h"

enum { NTOL = 7, MAXP = 8 };

static int set_key(cosrod_integrate_options *o, const char *key, double v) {
  if (!strcmp(key, "kappa")) o->newton_tol = v;
  else if (!strcmp(key, "kmax")) o->max_newton = (int)v;
  else if (!strcmp(key, "fac_min")) o->fac_min = v;
  else if (!strcmp(key, "fac_max")) o->fac_max = v;
  else if (!strcmp(key, "safety")) o->safety = v;
  else if (!strcmp(key, "jac_reuse")) o->jac_reuse = v;
  else if (!strcmp(key, "keep_lo")) o->keep_h_lo = v;
  else if (!strcmp(key, "keep_hi")) o->keep_h_hi = v;
  else if (!strcmp(key, "beta")) o->beta = v;
  else if (!strcmp(key, "h0")) o->h0 = v;
  else if (!strcmp(key, "columns")) o->max_columns = (int)v;
  else if (strcmp(key, "none")) return -1;
  return 0;
}

static void run(const cosrod_step_type *T, const itest_problem *P, double rtol, const char *key, double v,
                int use_key, wp_point *pt) {
  memset(pt, 0, sizeof *pt);
  snprintf(pt->method, sizeof pt->method, "%s", T->name);
  snprintf(pt->problem, sizeof pt->problem, "%s", P->name);
  pt->n = P->n;
  pt->rtol = rtol;
  pt->atol = rtol * P->atol_per_rtol;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = pt->rtol;
  o.atol = pt->atol;
  o.max_steps = 2000000;
  if (use_key) set_key(&o, key, v);
  double y[64];
  cosrod_integrate_stats s;
  cosrod_status st = itest_run(T, P, &o, NULL, y, &s, NULL, 0);
  pt->err = st == COSROD_OK ? wp_error(P, y) : NAN;
  pt->nfev = s.nfev, pt->njev = s.njev, pt->nsteps = s.nsteps;
  pt->naccept = s.naccept, pt->nreject = s.nreject, pt->ndecomp = s.ndecomp;
  snprintf(pt->status, sizeof pt->status, "%s", st == COSROD_OK ? "ok" : cosrod_status_name(st));
}

int main(int argc, char **argv) {
  const char *base_in = NULL, *base_out = NULL;
  while (argc > 2 && (!strcmp(argv[1], "--base") || !strcmp(argv[1], "--write-base"))) {
    if (!strcmp(argv[1], "--base")) base_in = argv[2];
    else base_out = argv[2];
    argv += 2, argc -= 2;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: constants_sweep METHOD KEY V1 [V2 ...]\n");
    return 2;
  }
  const cosrod_step_type *T = cosrod_step_type_by_name(argv[1]);
  cosrod_integrate_options probe = cosrod_integrate_default_options();
  if (!T || set_key(&probe, argv[2], 0.0) != 0) {
    fprintf(stderr, "constants_sweep: unknown method or key\n");
    return 2;
  }
  const char *key = argv[2];
  static wp_point base[MAXP * NTOL];
  int nb = 0;
  const itest_problem *probs[MAXP];
  int np = 0;
  for (size_t ip = 0; ip < wp_problem_count && np < MAXP; ip++) {
    const itest_problem *P = itest_problem_by_name(wp_problems[ip]);
    if (!wp_method_runs(T, P)) continue;
    probs[np++] = P;
    if (!base_in)
      for (int k = 0; k < NTOL; k++) run(T, P, pow(10.0, -4.0 - k), key, 0.0, 0, &base[nb++]);
  }
  if (base_in) {
    char msg[256];
    nb = wp_csv_read(base_in, base, MAXP * NTOL, msg, sizeof msg);
    if (nb < 0) {
      fprintf(stderr, "%s\n", msg);
      return 2;
    }
  }
  if (base_out) {
    FILE *f = fopen(base_out, "w");
    if (!f) return 2;
    fprintf(f, "%s\n", wp_csv_header);
    for (int i = 0; i < nb; i++) wp_csv_write(f, &base[i]);
    fclose(f);
  }
  printf("# %s, key %s; work ratio against the default's curve at equal accuracy (geometric mean over "
         "rtol 1e-4..1e-10), [failed runs]\n",
         T->name, key);
  printf("%-10s", "value");
  for (int p = 0; p < np; p++) printf(" %14s", probs[p]->name);
  printf(" %10s %9s %6s\n", "all", "err/rtol", "slope");
  for (int a = 3; a < argc; a++) {
    const double v = atof(argv[a]);
    printf("%-10s", argv[a]);
    double lsum_all = 0.0, lq = 0.0, slope = 0.0;
    int nall = 0, nq = 0, nslope = 0;
    for (int p = 0; p < np; p++) {
      double lsum = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
      int n = 0, nfail = 0, nk = 0;
      for (int k = 0; k < NTOL; k++) {
        wp_point pt;
        run(T, probs[p], pow(10.0, -4.0 - k), key, v, 1, &pt);
        if (strcmp(pt.status, "ok") != 0) {
          nfail++;
          continue;
        }
        const double lx = log(pt.rtol), ly = log(pt.err);
        if (pt.err > 0.0) {
          lq += ly - lx, nq++;
          sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, nk++;
        }
        wp_cmp c;
        if (wp_compare(base, nb, T->name, probs[p]->name, pt.err, wp_work(&pt), WP_WORK_TOTAL, &c) > 0) {
          lsum += log(c.ratio);
          n++;
        }
      }
      if (nk > 2) slope += (nk * sxy - sx * sy) / (nk * sxx - sx * sx), nslope++;
      const double g = n ? exp(lsum / n) : NAN;
      if (n) lsum_all += log(g), nall++;
      printf(" %9.3f [%d]", g, nfail);
    }
    printf(" %10.3f %9.3g %6.3f\n", nall ? exp(lsum_all / nall) : NAN, nq ? exp(lq / nq) : NAN,
           nslope ? slope / nslope : NAN);
    fflush(stdout);
  }
  return 0;
}
