// SPDX-License-Identifier: Apache-2.0
/* The OpenMP fork-join of core/par.c, built as the loadable module
 * libcosrod_omp.so (CMake COSROD_OPENMP).  libcosrod does not link it (nor
 * libgomp): par.c opens it with dlopen the first time more than one thread
 * is asked for, so a one-thread process never loads OpenMP. */
#include <omp.h>

#include "core/par.h"

#define PAR_OMP_EXPORT __attribute__((visibility("default")))

PAR_OMP_EXPORT int cosrod_omp_max_threads(void);
PAR_OMP_EXPORT void cosrod_omp_for(int nthreads, int n, cosrod_par_fn fn, void *ctx);

int cosrod_omp_max_threads(void) { return omp_get_max_threads(); }

void cosrod_omp_for(int nthreads, int n, cosrod_par_fn fn, void *ctx) {
#pragma omp parallel num_threads(nthreads)
  {
    /* the team may be smaller than asked (OMP_THREAD_LIMIT, nesting) */
    const int nt = omp_get_num_threads(), id = omp_get_thread_num();
    const long i0 = (long)n * id / nt, i1 = (long)n * (id + 1) / nt;
    fn(ctx, (int)i0, (int)i1);
  }
}
