// SPDX-License-Identifier: Apache-2.0
/* Scenario runs end to end (module sim): the two performance examples of
 * [LLA] §4 (perf-rubber, perf-steel; T = 10 s) with the stiff integrators at
 * several tolerances TOL = rtol = atol, against the solver statistics of
 * [LLA] Tables 2 and 3 (the rubber numbers are printed next to ours; the
 * paper's f counts exclude Jacobians, as ours do with analytic Jacobians).
 *
 *   bench_sim [--tols 1e-2,1e-3] [--methods radau5,rodas] [--scenarios perf-rubber]
 *             [--t-end T] [--csv]
 *
 * Prints per run: steps, rejected, f, Jacobians, LU decompositions, wall
 * time and the real-time factor T / wall (> 1: faster than real time). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/integrate.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"

#ifndef COSROD_EXAMPLES_DIR
#define COSROD_EXAMPLES_DIR "examples"
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* [LLA] rubber performance example (first statistics table of §4): f,
 * Jacobians, steps for TOL = 1e-2 .. 1e-8. */
typedef struct lla_row {
  const char *method;
  long f[7], jac[7], steps[7];
} lla_row;
static const lla_row LLA_RUBBER[] = {
    {"radau5",
     {12089, 12555, 14679, 21187, 26285, 27463, 33829},
     {821, 877, 1071, 1507, 1809, 2020, 2584},
     {1645, 1714, 2050, 2910, 3354, 3224, 3813}},
    {"seulex",
     {2725, 8882, 14066, 22311, 38742, 46864, 59751},
     {335, 433, 463, 443, 551, 654, 895},
     {453, 584, 487, 473, 628, 659, 899}},
    {"rodas",
     {4050, 4764, 7242, 12990, 25440, 54588, 125382},
     {600, 769, 1202, 2165, 4240, 9098, 20897},
     {688, 799, 1208, 2165, 4240, 9098, 20897}},
    {"ida", /* DASPK */
     {1408, 3358, 4403, 6075, 7301, 9659, 12952},
     {319, 458, 427, 437, 438, 443, 471},
     {478, 1508, 2299, 3263, 3948, 5551, 7703}},
};

static const lla_row *lla_ref(const char *scenario, const char *method, double tol, int *k) {
  if (strcmp(scenario, "perf-rubber") != 0) return NULL;
  double e = -log10(tol);
  *k = (int)lround(e) - 2;
  if (*k < 0 || *k > 6 || fabs(e - lround(e)) > 1e-9) return NULL;
  for (size_t i = 0; i < sizeof LLA_RUBBER / sizeof LLA_RUBBER[0]; i++)
    if (!strcmp(LLA_RUBBER[i].method, method)) return &LLA_RUBBER[i];
  return NULL;
}

static int split(char *s, char **out, int max) {
  int n = 0;
  for (char *t = strtok(s, ","); t && n < max; t = strtok(NULL, ",")) out[n++] = t;
  return n;
}

int main(int argc, char **argv) {
  char tols_s[256] = "1e-2,1e-3,1e-4", meth_s[256] = "radau5,rodas,seulex,ida",
       scen_s[256] = "perf-rubber,perf-steel";
  double t_end = 10.0;
  int csv = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tols") && i + 1 < argc)
      snprintf(tols_s, sizeof tols_s, "%s", argv[++i]);
    else if (!strcmp(argv[i], "--methods") && i + 1 < argc)
      snprintf(meth_s, sizeof meth_s, "%s", argv[++i]);
    else if (!strcmp(argv[i], "--scenarios") && i + 1 < argc)
      snprintf(scen_s, sizeof scen_s, "%s", argv[++i]);
    else if (!strcmp(argv[i], "--t-end") && i + 1 < argc)
      t_end = atof(argv[++i]);
    else if (!strcmp(argv[i], "--csv"))
      csv = 1;
    else {
      fprintf(stderr,
              "usage: bench_sim [--tols a,b] [--methods m,n] [--scenarios s,t] [--t-end T] [--csv]\n");
      return 2;
    }
  }
  char *tols[16], *meths[16], *scens[8];
  int ntol = split(tols_s, tols, 16), nmeth = split(meth_s, meths, 16), nscen = split(scen_s, scens, 8);
  if (csv)
    printf(
        "scenario,method,tol,status,steps,rejected,nfev,njev,ndecomp,wall_s,realtime_factor,lla_f,lla_jac,"
        "lla_steps\n");
  else
    printf("%-12s %-7s %-6s %8s %8s %9s %7s %7s %8s %8s   %s\n", "scenario", "method", "TOL", "steps",
           "rejected", "f", "jac", "LU", "wall[s]", "x real", "[LLA] f / jac / steps");
  for (int a = 0; a < nscen; a++) {
    for (int m = 0; m < nmeth; m++) {
      if (!cosrod_step_type_by_name(meths[m])) continue;
      for (int k = 0; k < ntol; k++) {
        char path[1024], s_t[64], s_m[64], s_r[64], s_a[64];
        snprintf(path, sizeof path, "%s/%s.yaml", COSROD_EXAMPLES_DIR, scens[a]);
        snprintf(s_t, sizeof s_t, "analysis.t_end=%g", t_end);
        snprintf(s_m, sizeof s_m, "solver.integrator=%s", meths[m]);
        snprintf(s_r, sizeof s_r, "solver.rtol=%s", tols[k]);
        snprintf(s_a, sizeof s_a, "solver.atol=%s", tols[k]);
        const char *sets[] = {s_t, s_m, s_r, s_a, "output.every=0.1", "solver.max_steps=10000000"};
        cosrod_scenario *sc = NULL;
        if (!(sc = cosrod_scenario_load(path, sets, 6, NULL))) {
          fprintf(stderr, "%s\n", cosrod_last_error());
          continue;
        }
        cosrod_status st;
        cosrod_sim *sim = cosrod_sim_create(sc, &st);
        if (!sim) {
          fprintf(stderr, "%s\n", cosrod_last_error());
          cosrod_scenario_free(sc);
          continue;
        }
        double w0 = now();
        st = cosrod_sim_run(sim, NULL);
        double wall = now() - w0;
        const cosrod_integrate_stats *s = cosrod_sim_stats(sim);
        int kk = 0;
        const lla_row *ref = lla_ref(scens[a], meths[m], atof(tols[k]), &kk);
        if (csv) {
          printf("%s,%s,%s,%s,%ld,%ld,%ld,%ld,%ld,%.4f,%.2f", scens[a], meths[m], tols[k],
                 st == COSROD_OK ? "ok" : "failed", s->nsteps, s->nreject, s->nfev, s->njev, s->ndecomp, wall,
                 cosrod_sim_t(sim) / wall);
          if (ref)
            printf(",%ld,%ld,%ld\n", ref->f[kk], ref->jac[kk], ref->steps[kk]);
          else
            printf(",,,\n");
        } else {
          printf("%-12s %-7s %-6s %8ld %8ld %9ld %7ld %7ld %8.3f %8.1f", scens[a], meths[m], tols[k],
                 s->nsteps, s->nreject, s->nfev, s->njev, s->ndecomp, wall, cosrod_sim_t(sim) / wall);
          if (ref) printf("   %ld / %ld / %ld", ref->f[kk], ref->jac[kk], ref->steps[kk]);
          if (st != COSROD_OK) printf("   FAILED: %s", cosrod_sim_message(sim));
          printf("\n");
        }
        fflush(stdout);
        cosrod_sim_free(sim);
        cosrod_scenario_free(sc);
      }
    }
  }
  return 0;
}
