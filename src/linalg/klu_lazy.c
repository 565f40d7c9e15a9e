// SPDX-License-Identifier: Apache-2.0
/* KLU opened on first use; see klu_lazy.h.  The soname comes from CMake. */
#define KLU_LAZY_IMPL
#include "linalg/klu_lazy.h"

#ifdef COSROD_LAZY_KLU
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/lazylib.h"

struct klu_lazy_fns cosrod_klu_fns;

static const char *const klu_libs[] = {COSROD_SONAME_KLU};
#define KLU_LAZY_NAME(f) #f,
static const char *const klu_names[] = {KLU_LAZY_LIST(KLU_LAZY_NAME)};
#define KLU_NFN (sizeof klu_names / sizeof klu_names[0])

static pthread_once_t klu_once = PTHREAD_ONCE_INIT;
static atomic_int klu_status = 1; /* 1 not tried, 0 loaded, -1 failed */
static char klu_msg[512];

static void klu_load(void) {
  void *fn[KLU_NFN];
  if (cosrod_lazylib_resolve(klu_libs, 1, klu_names, fn, (int)KLU_NFN, klu_msg, sizeof klu_msg) != 0) {
    klu_status = -1;
    return;
  }
  size_t i = 0;
  /* a void * becomes a function pointer by memcpy (ISO C has no such cast) */
#define KLU_LAZY_SET(f) memcpy(&cosrod_klu_fns.f, &fn[i++], sizeof fn[0]);
  KLU_LAZY_LIST(KLU_LAZY_SET)
  klu_status = 0;
}

int klu_lazy_load(char *msg, size_t len) {
  pthread_once(&klu_once, klu_load);
  if (klu_status != 0 && msg && len) snprintf(msg, len, "KLU (Debian package libsuitesparse-dev): %s", klu_msg);
  return klu_status;
}

int klu_lazy_usable(void) { return klu_status >= 0; }
#else
int klu_lazy_load(char *msg, size_t len) {
  (void)msg, (void)len;
  return 0;
}

int klu_lazy_usable(void) { return 1; }
#endif
