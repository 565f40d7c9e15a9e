// SPDX-License-Identifier: Apache-2.0
/* HDF5 loaded on first use (see output_h5lib.h).  The library file is the
 * one CMake found (COSROD_HDF5_SONAME, e.g. Debian's libhdf5_serial.so.103);
 * its functions and constants are looked up once (core/lazylib.h, all
 * required), under a pthread_once. */
#define _GNU_SOURCE
#include "output_h5lib.h"

#include "core/lazylib.h"
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

#define LIB_FN_NAME(f) #f,
#define LIB_ID_NAME(v) "H5" #v "_g",
/* the functions, then the identifiers' variables */
static const char *const lib_names[] = {OUT_H5_FUNCS(LIB_FN_NAME) OUT_H5_IDS(LIB_ID_NAME)};
#define LIB_NNAMES (sizeof lib_names / sizeof lib_names[0])

static void lib_load(void) {
  static const char *const sonames[] = {COSROD_HDF5_SONAME};
  void *p[LIB_NNAMES];
  char msg[200];
  if (cosrod_lazylib_resolve(sonames, 1, lib_names, p, (int)LIB_NNAMES, msg, sizeof msg) != 0) {
    snprintf(lib_err, sizeof lib_err, "%s (Debian package libhdf5-dev)", msg);
    return;
  }
  size_t i = 0;
  /* a void * becomes a function pointer by memcpy (ISO C has no such cast) */
#define LOAD_FN(f) memcpy(&lib.f, &p[i++], sizeof lib.f);
  OUT_H5_FUNCS(LOAD_FN)
#undef LOAD_FN
  if (lib.H5open() < 0) {
    snprintf(lib_err, sizeof lib_err, "%s: H5open failed", COSROD_HDF5_SONAME);
    return;
  }
  /* a program linked against libhdf5 holds the library's variables itself
   * (copy relocations): the live copy is the one the global scope finds */
#define LOAD_ID(v)                                     \
  {                                                    \
    const void *g = dlsym(RTLD_DEFAULT, "H5" #v "_g"); \
    memcpy(&lib.v, g ? g : p[i], sizeof lib.v);        \
    i++;                                               \
  }
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
