// SPDX-License-Identifier: Apache-2.0
/* Shared set-up of the rigid-body benchmarks (body_bench.h). */
#define _POSIX_C_SOURCE 199309L
#include "body_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim_translate.h"

double body_bench_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

size_t body_bench_form_sets(char buf[][64], const char **sets, const char *form, const char *par, int nbodies) {
  size_t k = 0;
  snprintf(buf[k], 64, "solver.formulation=%s", form);
  sets[k] = buf[k], ++k;
  for (int i = 0; par && i < nbodies && i < 4; ++i) {
    snprintf(buf[k], 64, "bodies.%d.parametrisation=%s", i, par);
    sets[k] = buf[k], ++k;
  }
  return k;
}

int body_bench_open(body_bench *b, const char *path, const char *const *sets, size_t nsets) {
  memset(b, 0, sizeof *b);
  char err[512];
  if (!(b->sc = cosrod_scenario_load(path, sets, nsets, NULL))) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  cosrod_status st;
  if (!(b->m = cosrod_sim_bodies_create(b->sc, &st, err, sizeof err))) {
    fprintf(stderr, "%s\n", err);
    body_bench_close(b);
    return 1;
  }
  b->d = cosrod_mbs_data_create(b->m, NULL);
  cosrod_mbs_ode_problem(&b->p, b->d);
  b->n = cosrod_mbs_n(b->m);
  b->y0 = calloc((size_t)b->n, sizeof *b->y0);
  b->y = calloc((size_t)b->n, sizeof *b->y);
  if (!b->d || !b->y0 || !b->y) {
    fprintf(stderr, "%s: out of memory\n", path);
    body_bench_close(b);
    return 1;
  }
  cosrod_mbs_initial_state(b->m, b->y0);
  return 0;
}

void body_bench_close(body_bench *b) {
  free(b->y0), free(b->y);
  cosrod_mbs_data_free(b->d);
  cosrod_mbs_free(b->m);
  cosrod_scenario_free(b->sc);
  memset(b, 0, sizeof *b);
}

cosrod_status body_bench_integrate(body_bench *b, const char *method, double rtol, double atol, double T,
                                   cosrod_integrate_stats *stats, double *cpu) {
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = rtol, o.atol = atol;
  o.max_steps = 5000000;
  cosrod_status st = COSROD_OK;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &b->p, &o, &st);
  if (!it) return st == COSROD_OK ? COSROD_ERR_INVALID : st;
  double t0 = body_bench_cpu();
  st = cosrod_integrate(it, 0.0, b->y0, T, NULL, b->y);
  if (cpu) *cpu = body_bench_cpu() - t0;
  if (stats) *stats = *cosrod_integrator_stats(it);
  cosrod_integrator_free(it);
  return st;
}
