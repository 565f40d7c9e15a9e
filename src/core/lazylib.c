// SPDX-License-Identifier: Apache-2.0
/* Shared libraries opened on first use; see lazylib.h. */
#define _GNU_SOURCE
#include "core/lazylib.h"

#include <dlfcn.h>
#include <stdio.h>

#define LAZY_MAXLIB 8

int cosrod_lazylib_resolve(const char *const *sonames, int nlib, const char *const *names, void **fns, int n,
                           char *msg, size_t len) {
  void *h[LAZY_MAXLIB] = {0};
  int open = 0; /* the libraries are opened in order, each only when a name was not found before it */
  if (nlib > LAZY_MAXLIB) nlib = LAZY_MAXLIB;
  for (int i = 0; i < n; i++) {
    fns[i] = NULL;
    for (int k = 0; k < nlib && !fns[i]; k++) {
      if (k == open) {
        h[k] = dlopen(sonames[k], RTLD_NOW | RTLD_LOCAL);
        if (!h[k]) {
          const char *e = dlerror();
          snprintf(msg, len, "cannot load %s: %s", sonames[k], e ? e : "not found");
          return -1;
        }
        open++;
      }
      fns[i] = dlsym(h[k], names[i]);
    }
    if (!fns[i]) {
      snprintf(msg, len, "no function %s in %s or the libraries after it", names[i], sonames[0]);
      return -1;
    }
  }
  return 0;
}
