// SPDX-License-Identifier: Apache-2.0
/* [LLA] Tables 2-3 / Figs. 7-8 and [LA] Fig. 3, 7 runs: one scenario, one
 * method, one tolerance through the simulation driver (cosrod_sim, exactly
 * the `cosrod run` path without file output), repeated for the timing.
 *
 *   bench_papers SCENARIO [--set k=v]... [--reps R] [--steps FILE] [--ref FILE | --write-ref FILE]
 *                [--count-allocs]
 *
 * Prints one CSV row (header with --header):
 *   status,nfev,njev,nsteps,naccept,nreject,wall_min_s,wall_med_s,err_tip,rtf
 * wall = the integrator's own wall time (cosrod_integrate_stats.wall_time),
 * minimum and median over R runs (the machine is shared: the minimum is the
 * least disturbed run); rtf = t_end / wall_min (real-time factor).  err_tip =
 * max-norm of the tip x_N(T) minus the reference tip read from --ref (m);
 * --write-ref stores this run's tip.  --steps writes t,h,accepted of every
 * attempted step of the first run.  --count-allocs (under
 * LD_PRELOAD=libcosrod_alloc_count.so) prints instead the number of heap
 * allocations made inside cosrod_sim_run (the time loop) and the steps.
 * The energy accounting of the driver (Simpson quadrature of the dissipation
 * and the external power, two extra rod evaluations per step) is off, as the
 * papers' runs have none; --energy switches it on (as `cosrod run`). */
#define _GNU_SOURCE /* dlsym(RTLD_DEFAULT) for the counting allocator */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"

static int step_cb(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  (void)sim;
  FILE *f = user;
  if (f) fprintf(f, "%.17g,%.17g,%d\n", t, h, accepted);
  return 0;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SCENARIO [--set k=v]... [--reps R] [--steps F] [--ref F | --write-ref F]\n",
            argv[0]);
    return 2;
  }
  const char *sets[64];
  size_t nsets = 0;
  int reps = 1, count_allocs = 0, energy = 0;
  const char *steps = NULL, *ref = NULL, *wref = NULL;
  for (int a = 2; a < argc; a++) {
    if (!strcmp(argv[a], "--header")) {
      printf("status,nfev,njev,nsteps,naccept,nreject,wall_min_s,wall_med_s,err_tip,rtf\n");
      return 0;
    } else if (a + 1 < argc && !strcmp(argv[a], "--set") && nsets < 64)
      sets[nsets++] = argv[++a];
    else if (!strcmp(argv[a], "--energy"))
      energy = 1;
    else if (!strcmp(argv[a], "--count-allocs"))
      count_allocs = 1;
    else if (a + 1 < argc && !strcmp(argv[a], "--reps"))
      reps = atoi(argv[++a]);
    else if (a + 1 < argc && !strcmp(argv[a], "--steps"))
      steps = argv[++a];
    else if (a + 1 < argc && !strcmp(argv[a], "--ref"))
      ref = argv[++a];
    else if (a + 1 < argc && !strcmp(argv[a], "--write-ref"))
      wref = argv[++a];
    else {
      fprintf(stderr, "unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(argv[1], sets, nsets, NULL))) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  double *wall = calloc((size_t)reps, sizeof *wall);
  cosrod_integrate_stats st = {0};
  double tip[3] = {NAN, NAN, NAN}, T = sc->analysis.t_end;
  const char *status = "ok";
  for (int r = 0; r < reps; r++) {
    cosrod_status cs;
    cosrod_sim *sim = cosrod_sim_create(sc, &cs);
    if (!sim) {
      fprintf(stderr, "%s\n", cosrod_last_error());
      return 1;
    }
    FILE *sf = (r == 0 && steps) ? fopen(steps, "w") : NULL;
    if (sf) fprintf(sf, "t,h,accepted\n");
    if (!energy) cosrod_sim_set_energy_accounting(sim, 0);
    cosrod_sim_observer obs = {0};
    obs.step = sf ? step_cb : NULL;
    obs.user = sf;
    long *acount = count_allocs ? (long *)dlsym(RTLD_DEFAULT, "cosrod_alloc_count") : NULL;
    long a0 = acount ? *acount : 0;
    cs = cosrod_sim_run(sim, &obs);
    if (count_allocs) {
      if (acount)
        printf("allocations inside cosrod_sim_run: %ld (%ld attempted steps, t_end %g s)\n", *acount - a0,
               cosrod_sim_stats(sim)->nsteps, T);
      else
        printf("no counting allocator (run with LD_PRELOAD=libcosrod_alloc_count.so)\n");
    }
    if (sf) fclose(sf);
    st = *cosrod_sim_stats(sim);
    wall[r] = st.wall_time;
    if (cs != COSROD_OK) {
      status = cosrod_strerror(cs);
      fprintf(stderr, "%s at t = %g\n", cosrod_sim_message(sim), cosrod_sim_fail_time(sim));
      T = cosrod_sim_t(sim);
      cosrod_sim_tip(sim, 0, tip);
      cosrod_sim_free(sim);
      reps = r + 1;
      break;
    }
    cosrod_sim_tip(sim, 0, tip);
    cosrod_sim_free(sim);
  }
  if (count_allocs) {
    free(wall);
    cosrod_scenario_free(sc);
    return 0;
  }
  qsort(wall, (size_t)reps, sizeof *wall, cmpd);
  double e = NAN;
  if (ref) {
    FILE *f = fopen(ref, "r");
    double rt[3];
    if (f && fscanf(f, "%lf %lf %lf", rt, rt + 1, rt + 2) == 3)
      e = fmax(fabs(tip[0] - rt[0]), fmax(fabs(tip[1] - rt[1]), fabs(tip[2] - rt[2])));
    if (f) fclose(f);
  }
  if (wref) {
    FILE *f = fopen(wref, "w");
    if (f) {
      fprintf(f, "%.17g %.17g %.17g\n", tip[0], tip[1], tip[2]);
      fclose(f);
    }
  }
  printf("%s,%ld,%ld,%ld,%ld,%ld,%.6g,%.6g,%.3e,%.4g\n", status, st.nfev, st.njev, st.nsteps, st.naccept,
         st.nreject, wall[0], wall[reps / 2], e, T / wall[0]);
  free(wall);
  cosrod_scenario_free(sc);
  return 0;
}
