// SPDX-License-Identifier: Apache-2.0
/* Fork-join over contiguous index blocks; see par.h.  The OpenMP part lives
 * in the module libcosrod_omp.so (par_omp.c), opened by dlopen on the first
 * request for more than one thread, like LAPACKE and HDF5 (lapack_lazy.c,
 * output_h5lib.c): a process that runs on one thread never loads libgomp. */
#define _GNU_SOURCE
#include "core/par.h"

#ifdef COSROD_HAVE_OPENMP
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/lazylib.h"

#define PAR_MODULE "libcosrod_omp.so"

typedef void (*par_for_fn)(int, int, cosrod_par_fn, void *);
typedef int (*par_max_fn)(void);
static par_for_fn omp_for;
static par_max_fn omp_max;
static pthread_once_t omp_once = PTHREAD_ONCE_INIT;

static char omp_msg[512]; /* why the last omp_try failed */

/* Opens path and looks up the module's two functions (core/lazylib.h, both
 * required); 0 on success. */
static int omp_try(const char *path) {
  const char *const libs[] = {path}, *const names[] = {"cosrod_omp_for", "cosrod_omp_max_threads"};
  void *fn[2];
  if (cosrod_lazylib_resolve(libs, 1, names, fn, 2, omp_msg, sizeof omp_msg) != 0) return -1;
  /* a void * becomes a function pointer by memcpy (ISO C has no such cast) */
  memcpy(&omp_for, &fn[0], sizeof omp_for);
  memcpy(&omp_max, &fn[1], sizeof omp_max);
  return 0;
}

/* The module is looked for next to the object that holds this code (the
 * build tree's or the installed libcosrod.so), then at the build tree's and
 * the install tree's paths CMake compiled in (programs linking the modules'
 * static libraries), then on the loader's search path. */
static void omp_load(void) {
  char path[4096] = "";
  Dl_info info;
  if (dladdr(&omp_once, &info) && info.dli_fname) {
    const char *slash = strrchr(info.dli_fname, '/');
    int len = slash ? (int)(slash - info.dli_fname) : 0;
    snprintf(path, sizeof path, "%.*s%s" PAR_MODULE, len, info.dli_fname, slash ? "/" : "");
    if (slash && omp_try(path) == 0) return;
  }
#ifdef COSROD_OMP_BUILD_PATH
  if (omp_try(COSROD_OMP_BUILD_PATH) == 0) return;
#endif
#ifdef COSROD_OMP_INSTALL_PATH
  if (omp_try(COSROD_OMP_INSTALL_PATH) == 0) return;
#endif
  if (omp_try(PAR_MODULE) == 0) return;
  fprintf(stderr, "cosrod: the OpenMP module: %s: running on one thread\n", omp_msg);
}

int cosrod_par_loaded(void) {
  pthread_once(&omp_once, omp_load);
  return omp_for != NULL;
}
#else
int cosrod_par_loaded(void) { return 0; }
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
  if (requested <= 0) return cosrod_par_loaded() ? omp_max() : 1;
  return requested;
#else
  (void)requested;
  return 1;
#endif
}

void cosrod_par_for(int nthreads, int n, cosrod_par_fn fn, void *ctx) {
  if (n <= 0) return;
  if (nthreads > n) nthreads = n;
  if (nthreads > 1 && cosrod_par_loaded()) {
#ifdef COSROD_HAVE_OPENMP
    omp_for(nthreads, n, fn, ctx);
    return;
#endif
  }
  fn(ctx, 0, n);
}
