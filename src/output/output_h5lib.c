// SPDX-License-Identifier: Apache-2.0
/* HDF5 loaded on first use (see output_h5lib.h).  The library file is the
 * one CMake found (COSROD_HDF5_SONAME, e.g. Debian's libhdf5_serial.so.103);
 * its functions and constants are looked up once, under a pthread_once. */
#define _GNU_SOURCE
#include "output_h5lib.h"

#include "cosrod/output.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef COSROD_HDF5_SONAME
#define COSROD_HDF5_SONAME "libhdf5_serial.so.103"
#endif

static out_h5lib lib;
static int lib_ok;
static char lib_err[256];
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void lib_load(void) {
  void *h = dlopen(COSROD_HDF5_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(lib_err, sizeof lib_err, "cannot load %s (Debian package libhdf5-dev): %s", COSROD_HDF5_SONAME,
             dlerror());
    return;
  }
  void *p;
  /* a void * becomes a function pointer by memcpy (ISO C has no such cast) */
#define LOAD_FN(f)                                                                         \
  if (!(p = dlsym(h, #f))) {                                                               \
    snprintf(lib_err, sizeof lib_err, "%s has no %s", COSROD_HDF5_SONAME, #f);              \
    return;                                                                                \
  }                                                                                        \
  memcpy(&lib.f, &p, sizeof lib.f);
  OUT_H5_FUNCS(LOAD_FN)
#undef LOAD_FN
  if (lib.H5open() < 0) {
    snprintf(lib_err, sizeof lib_err, "%s: H5open failed", COSROD_HDF5_SONAME);
    return;
  }
  /* a program linked against libhdf5 holds the library's variables itself
   * (copy relocations): the live copy is the one the global scope finds */
#define LOAD_ID(v)                                                                         \
  if (!(p = dlsym(RTLD_DEFAULT, "H5" #v "_g")) && !(p = dlsym(h, "H5" #v "_g"))) {          \
    snprintf(lib_err, sizeof lib_err, "%s has no %s", COSROD_HDF5_SONAME, "H5" #v "_g");         \
    return;                                                                                \
  }                                                                                        \
  memcpy(&lib.v, p, sizeof lib.v);
  OUT_H5_IDS(LOAD_ID)
#undef LOAD_ID
  lib.H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors are reported by cosrod, not printed by HDF5 */
  lib_ok = 1;
}

const out_h5lib *out_h5lib_get(char *err, size_t cap) {
  pthread_once(&lib_once, lib_load);
  if (!lib_ok && err && cap) snprintf(err, cap, "%s", lib_err);
  return lib_ok ? &lib : NULL;
}

int cosrod_output_hdf5_available(void) { return out_h5lib_get(NULL, 0) != NULL; }
