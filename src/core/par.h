// SPDX-License-Identifier: Apache-2.0
/* Fork-join over contiguous index blocks (OpenMP when built with
 * COSROD_OPENMP, else serial).  Module internal: not exported.  OpenMP is
 * loaded (module libcosrod_omp.so, par_omp.c) only when more than one
 * thread is used; if it cannot be, one line on stderr and the loops run
 * serially.
 *
 * The callers make every index's work independent of the others (each index
 * writes its own entries; sums over indices are formed afterwards, serially,
 * in index order), so the results do not depend on the number of threads
 * nor on how [0, n) is cut into blocks. */
#ifndef COSROD_CORE_PAR_H
#define COSROD_CORE_PAR_H

/* fn(ctx, i0, i1) does the indices i0 <= i < i1. */
typedef void (*cosrod_par_fn)(void *ctx, int i0, int i1);

/* Threads a request stands for: n >= 1 -> n (1 without OpenMP); 0 ("auto")
 * -> OpenMP's default team size (OMP_NUM_THREADS, else the number of cores;
 * this loads the module, 1 if it cannot be loaded). */
int cosrod_par_resolve(int requested);

/* Whether OpenMP was compiled in (the module was built). */
int cosrod_par_available(void);

/* Loads the OpenMP module if not yet done; 1 if it is loaded. */
int cosrod_par_loaded(void);

/* Runs fn over [0, n) in nthreads contiguous blocks of (nearly) equal size,
 * one per thread; nthreads <= 1 or n < 2 calls fn(ctx, 0, n) directly. */
void cosrod_par_for(int nthreads, int n, cosrod_par_fn fn, void *ctx);

#endif
