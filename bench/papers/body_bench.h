// SPDX-License-Identifier: Apache-2.0
/* Shared set-up of the rigid-body benchmarks of bench/papers (body_calls,
 * body_jac_speed, lang_fig15a, lang_fixed_point): a body scenario of examples/
 * loaded with --set overrides, its multibody model, data, ODE problem and
 * initial state; one integration of it; the process CPU clock. */
#ifndef COSROD_BENCH_BODY_BENCH_H
#define COSROD_BENCH_BODY_BENCH_H

#include <stddef.h>

#include "cosrod/body.h"
#include "cosrod/integrate.h"
#include "cosrod/scenario.h"

typedef struct body_bench {
  cosrod_scenario *sc;
  cosrod_mbs *m;
  cosrod_mbs_data *d;
  cosrod_ode_problem p; /* cosrod_mbs_ode_problem(d) */
  int n;                /* cosrod_mbs_n */
  double *y0, *y;       /* initial state, end state of body_bench_integrate */
} body_bench;

/* The --set values "solver.formulation=FORM" and, for each of the first
 * NBODIES bodies, "bodies.k.parametrisation=PAR" (PAR NULL: none) into
 * BUF/SETS (at most 1 + 4 values); returns their number. */
size_t body_bench_form_sets(char buf[][64], const char **sets, const char *form, const char *par, int nbodies);

/* Loads the scenario PATH with the --set values SETS and builds the model;
 * 0, or 1 with the message on stderr (b is then empty). */
int body_bench_open(body_bench *b, const char *path, const char *const *sets, size_t nsets);
void body_bench_close(body_bench *b);

/* Integrates b->p from y0 over [0, T] with METHOD at RTOL / ATOL (max_steps
 * 5e6) into b->y; the statistics into *STATS and the CPU seconds of the
 * integration into *CPU (either may be NULL). */
cosrod_status body_bench_integrate(body_bench *b, const char *method, double rtol, double atol, double T,
                                   cosrod_integrate_stats *stats, double *cpu);

/* process CPU time in seconds (the shared machine is loaded: CPU, not wall) */
double body_bench_cpu(void);

#endif
