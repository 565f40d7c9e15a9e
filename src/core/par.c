// SPDX-License-Identifier: Apache-2.0
/* Fork-join over contiguous index blocks; see par.h. */
#include "core/par.h"

#ifdef COSROD_HAVE_OPENMP
#include <omp.h>
#endif

int cosrod_par_available(void) {
#ifdef COSROD_HAVE_OPENMP
  return 1;
#else
  return 0;
#endif
}

int cosrod_par_resolve(int requested) {
#ifdef COSROD_HAVE_OPENMP
  if (requested <= 0) return omp_get_max_threads();
  return requested;
#else
  (void)requested;
  return 1;
#endif
}

void cosrod_par_for(int nthreads, int n, cosrod_par_fn fn, void *ctx) {
  if (n <= 0) return;
#ifdef COSROD_HAVE_OPENMP
  if (nthreads > n) nthreads = n;
  if (nthreads > 1) {
#pragma omp parallel num_threads(nthreads)
    {
      /* the team may be smaller than asked (OMP_THREAD_LIMIT, nesting) */
      const int nt = omp_get_num_threads(), id = omp_get_thread_num();
      const long i0 = (long)n * id / nt, i1 = (long)n * (id + 1) / nt;
      fn(ctx, (int)i0, (int)i1);
    }
    return;
  }
#else
  (void)nthreads;
#endif
  fn(ctx, 0, n);
}
