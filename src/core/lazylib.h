// SPDX-License-Identifier: Apache-2.0
/* Shared libraries opened on first use (module-internal, not installed).
 * A solver library that only some analyses need (SUNDIALS, KLU) is not
 * linked: loading and relocating it at every process start cost more CPU
 * than a small run (bench/results/output-and-startup.md).  The first call
 * that needs it opens it with dlopen and looks its functions up once. */
#ifndef COSROD_CORE_LAZYLIB_H
#define COSROD_CORE_LAZYLIB_H
#include <stddef.h>

/* Opens the libraries sonames[0..nlib) (RTLD_NOW | RTLD_LOCAL) and sets
 * fns[i] to names[i] of the first library (in that order, with its
 * dependencies) that defines it.  0 when every name was found; else -1 and
 * msg (size len) says which library or function is missing.  Not
 * thread-safe: callers run it under pthread_once. */
int cosrod_lazylib_resolve(const char *const *sonames, int nlib, const char *const *names, void **fns, int n,
                           char *msg, size_t len);
#endif
