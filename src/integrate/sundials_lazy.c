// SPDX-License-Identifier: Apache-2.0
/* SUNDIALS opened on first use; see sundials_lazy.h.  The sonames come
 * from CMake (the libraries found at configure time).  The functions are
 * looked up in IDA's library first, then CVODE's, the KLU solver's and the
 * sparse matrix's (each loaded only when a name was not found before it),
 * as the linker resolved them when libcosrod was linked against them. */
#define SUN_LAZY_IMPL
#include "integrate/sundials_lazy.h"

#ifdef COSROD_LAZY_SUNDIALS
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/lazylib.h"

struct sun_lazy_fns cosrod_sun_fns;

static const char *const sun_libs[] = {
    COSROD_SONAME_SUNDIALS_IDA, COSROD_SONAME_SUNDIALS_CVODE,
#ifdef COSROD_HAVE_SUNDIALS_KLU
    COSROD_SONAME_SUNDIALS_KLU, COSROD_SONAME_SUNDIALS_SPARSE,
#endif
    COSROD_SONAME_SUNDIALS_NVEC,
};
#define SUN_LAZY_NAME(f) #f,
static const char *const sun_names[] = {SUN_LAZY_LIST(SUN_LAZY_NAME) SUN_LAZY_KLU_LIST(SUN_LAZY_NAME)};
#define SUN_NFN (sizeof sun_names / sizeof sun_names[0])

static pthread_once_t sun_once = PTHREAD_ONCE_INIT;
static int sun_status = -1;
static char sun_msg[512];

static void sun_load(void) {
  void *fn[SUN_NFN];
  if (cosrod_lazylib_resolve(sun_libs, (int)(sizeof sun_libs / sizeof sun_libs[0]), sun_names, fn, (int)SUN_NFN,
                             sun_msg, sizeof sun_msg) != 0)
    return;
  size_t i = 0;
  /* a void * becomes a function pointer by memcpy (ISO C has no such cast) */
#define SUN_LAZY_SET(f) memcpy(&cosrod_sun_fns.f, &fn[i++], sizeof fn[0]);
  SUN_LAZY_LIST(SUN_LAZY_SET)
  SUN_LAZY_KLU_LIST(SUN_LAZY_SET)
  sun_status = 0;
}

int sun_lazy_load(char *msg, size_t len) {
  pthread_once(&sun_once, sun_load);
  if (sun_status != 0 && msg && len) snprintf(msg, len, "SUNDIALS (Debian package libsundials-dev): %s", sun_msg);
  return sun_status;
}
#else
int sun_lazy_load(char *msg, size_t len) {
  (void)msg, (void)len;
  return 0;
}
#endif
