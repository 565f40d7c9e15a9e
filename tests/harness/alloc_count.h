// SPDX-License-Identifier: Apache-2.0
/* Counting allocator for tests linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc: every allocation made by
 * the code under test goes through these wrappers and increments g_allocs.
 * Include this header in exactly one file of such a test binary. */
#ifndef COSROD_TEST_ALLOC_COUNT_H
#define COSROD_TEST_ALLOC_COUNT_H

#include <stddef.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t m, size_t n);
void *__wrap_realloc(void *p, size_t n);

static long g_allocs;
void *__wrap_malloc(size_t n) {
  g_allocs++;
  return __real_malloc(n);
}
void *__wrap_calloc(size_t m, size_t n) {
  g_allocs++;
  return __real_calloc(m, n);
}
void *__wrap_realloc(void *p, size_t n) {
  g_allocs++;
  return __real_realloc(p, n);
}

#endif
