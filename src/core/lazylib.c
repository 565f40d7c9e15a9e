// SPDX-License-Identifier: Apache-2.0
/* Shared libraries opened on first use; see lazylib.h. */
#define _GNU_SOURCE
#include "core/lazylib.h"

#include <dlfcn.h>
#include <stdio.h>

#define LAZY_MAXLIB 8

/* -1 after closing the libraries h[0..open) and clearing fns. */
static int lazy_fail(void **h, int open, void **fns, int n) {
  for (int k = 0; k < open; k++) dlclose(h[k]);
  for (int i = 0; i < n; i++) fns[i] = NULL;
  return -1;
}

int cosrod_lazylib_resolve_some(const char *const *sonames, int nlib, const char *const *names, void **fns,
                                int n, int nreq, char *msg, size_t len) {
  void *h[LAZY_MAXLIB] = {0};
  int open = 0; /* the libraries are opened in order, each only when a name was not found before it */
  int missing = 0;
  size_t used = 0;
  if (nlib > LAZY_MAXLIB) nlib = LAZY_MAXLIB;
  if (len) msg[0] = '\0';
  for (int i = 0; i < n; i++) {
    fns[i] = NULL;
    for (int k = 0; k < nlib && !fns[i]; k++) {
      if (k == open) {
        h[k] = dlopen(sonames[k], RTLD_NOW | RTLD_LOCAL);
        if (!h[k]) {
          const char *e = dlerror();
          snprintf(msg, len, "cannot load %s: %s", sonames[k], e ? e : "not found");
          return lazy_fail(h, open, fns, n);
        }
        open++;
      }
      fns[i] = dlsym(h[k], names[i]);
    }
    if (fns[i]) continue;
    if (i < nreq) {
      snprintf(msg, len, "no function %s in %s or the libraries after it", names[i], sonames[0]);
      return lazy_fail(h, open, fns, n);
    }
    /* optional: listed as "no function A, B in LIB or the libraries after it" */
    if (used < len) {
      const int w = snprintf(msg + used, len - used, "%s%s", missing ? ", " : "no function ", names[i]);
      used += w > 0 ? (size_t)w : 0;
    }
    missing++;
  }
  if (missing && used < len) snprintf(msg + used, len - used, " in %s or the libraries after it", sonames[0]);
  return missing;
}

int cosrod_lazylib_resolve(const char *const *sonames, int nlib, const char *const *names, void **fns, int n,
                           char *msg, size_t len) {
  return cosrod_lazylib_resolve_some(sonames, nlib, names, fns, n, n, msg, len) == 0 ? 0 : -1;
}
