// SPDX-License-Identifier: Apache-2.0
/* Shared libraries opened on first use (module-internal, not installed).
 * A library that only some analyses need (SUNDIALS, KLU, LAPACKE, HDF5, the
 * OpenMP module) is not linked: loading and relocating it at every process
 * start cost more CPU than a small run (bench/results/output-and-startup.md).
 * The first call that needs it opens it with dlopen and looks its functions
 * up once.
 *
 * Required and optional names.  A caller whose functions only work together
 * (KLU, SUNDIALS, HDF5) makes them all required: one missing name is one
 * error line and nothing is served.  A caller whose functions are
 * independent (LAPACKE: each one serves its own analysis) makes them
 * optional: a missing one is NULL and reported in msg, the ones found are
 * served.  A library that cannot be opened is always an error. */
#ifndef COSROD_CORE_LAZYLIB_H
#define COSROD_CORE_LAZYLIB_H
#include <stddef.h>

/* Opens the libraries sonames[0..nlib) (RTLD_NOW | RTLD_LOCAL) and sets
 * fns[i] to names[i] of the first library (in that order, with its
 * dependencies) that defines it; names[0..nreq) are required, the others
 * optional.  Returns -1 when a library cannot be opened or a required name
 * is missing (msg, size len: one line saying which; every fns[i] NULL and
 * the libraries closed again); else the number of optional names missing
 * (their fns[i] NULL; msg lists them when > 0).  Not thread-safe: callers
 * run it under pthread_once. */
int cosrod_lazylib_resolve_some(const char *const *sonames, int nlib, const char *const *names, void **fns,
                                int n, int nreq, char *msg, size_t len);
/* cosrod_lazylib_resolve_some with every name required (returns 0 or -1). */
int cosrod_lazylib_resolve(const char *const *sonames, int nlib, const char *const *names, void **fns, int n,
                           char *msg, size_t len);
#endif
