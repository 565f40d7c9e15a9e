// SPDX-License-Identifier: Apache-2.0
/* Counting allocator for the "no allocation in the time loop" check
 * (LD_PRELOAD=libcosrod_alloc_count.so): counts malloc / calloc / realloc /
 * aligned allocations in the global cosrod_alloc_count, which bench_papers
 * reads (dlsym) before and after cosrod_sim_run.  calloc requests made by
 * dlsym itself while the real functions are looked up are served from a
 * static buffer. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

long cosrod_alloc_count = 0;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void (*real_free)(void *);
static _Alignas(16) unsigned char boot[4096];
static size_t boot_used;
static int booting;

static void init(void) {
  if (real_malloc || booting) return;
  booting = 1;
  /* POSIX's idiom for function pointers from dlsym (strict ISO C has no such conversion) */
  *(void **)&real_malloc = dlsym(RTLD_NEXT, "malloc");
  *(void **)&real_calloc = dlsym(RTLD_NEXT, "calloc");
  *(void **)&real_realloc = dlsym(RTLD_NEXT, "realloc");
  *(void **)&real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
  *(void **)&real_free = dlsym(RTLD_NEXT, "free");
  booting = 0;
}

void *malloc(size_t n) {
  init();
  __atomic_add_fetch(&cosrod_alloc_count, 1, __ATOMIC_RELAXED);
  return real_malloc(n);
}

void *calloc(size_t a, size_t b) {
  if (!real_calloc) {
    if (booting) { /* dlsym's own allocation */
      size_t n = (a * b + 15) & ~(size_t)15;
      if (boot_used + n > sizeof boot) return NULL;
      void *p = boot + boot_used;
      boot_used += n;
      memset(p, 0, n);
      return p;
    }
    init();
  }
  __atomic_add_fetch(&cosrod_alloc_count, 1, __ATOMIC_RELAXED);
  return real_calloc(a, b);
}

void *realloc(void *p, size_t n) {
  init();
  __atomic_add_fetch(&cosrod_alloc_count, 1, __ATOMIC_RELAXED);
  return real_realloc(p, n);
}

int posix_memalign(void **p, size_t al, size_t n) {
  init();
  __atomic_add_fetch(&cosrod_alloc_count, 1, __ATOMIC_RELAXED);
  return real_posix_memalign(p, al, n);
}

void free(void *p) {
  if ((unsigned char *)p >= boot && (unsigned char *)p < boot + sizeof boot) return;
  init();
  if (real_free) real_free(p);
}
