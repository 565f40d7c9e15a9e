// SPDX-License-Identifier: Apache-2.0
/* The HDF5 C library, loaded on first use (dlopen, output_h5lib.c): libcosrod
 * is not linked against libhdf5, whose loading (with libcurl, OpenSSL,
 * Kerberos, LDAP in Debian's build) would cost every process start several
 * milliseconds.  The prototypes and types are hdf5.h's; only the functions
 * and constants cosrod uses are looked up.  Calls go through OUT_H5->fn. */
#ifndef COSROD_OUTPUT_H5LIB_H
#define COSROD_OUTPUT_H5LIB_H
#include <hdf5.h>

/* every function used, X(name) */
#define OUT_H5_FUNCS(X)                                                                                        \
  X(H5open) X(H5Fcreate) X(H5Fopen) X(H5Fclose) X(H5Fflush) X(H5Fstart_swmr_write) X(H5Pcreate) X(H5Pclose)  \
  X(H5Pset) X(H5Pset_chunk) X(H5Pset_libver_bounds) X(H5Screate) X(H5Screate_simple) X(H5Sclose)                      \
  X(H5Sselect_hyperslab) X(H5Dcreate2) X(H5Dclose) X(H5Dset_extent) X(H5Dget_space) X(H5Dwrite)             \
  X(H5Dopen2) X(H5Dread) X(H5Sget_simple_extent_ndims) X(H5Sget_simple_extent_dims) X(H5Gopen2) X(H5Aopen) \
  X(H5Gcreate2) X(H5Gclose) X(H5Acreate2) X(H5Awrite) X(H5Aclose) X(H5Tcopy) X(H5Tset_size) X(H5Tclose)    \
  X(H5Eset_auto2)
/* every constant: X(name) for the library's hid_t variable H5<name>_g (hdf5.h's macro H5<name>) */
#define OUT_H5_IDS(X)                                                                                          \
  X(P_CLS_FILE_ACCESS_ID) X(P_CLS_DATASET_CREATE_ID) X(T_NATIVE_DOUBLE) X(T_NATIVE_INT64) X(T_NATIVE_UINT8)  \
  X(T_IEEE_F64LE) X(T_STD_I64LE) X(T_STD_U8LE) X(T_C_S1)

#define OUT_H5_FN_FIELD(f) __typeof__(&f) f;
#define OUT_H5_ID_FIELD(v) hid_t v;
typedef struct out_h5lib {
  OUT_H5_FUNCS(OUT_H5_FN_FIELD)
  OUT_H5_IDS(OUT_H5_ID_FIELD)
} out_h5lib;
#undef OUT_H5_FN_FIELD
#undef OUT_H5_ID_FIELD

/* H5F flags without hdf5.h's macros (they call the library directly) */
#define OUT_H5F_ACC_RDWR 0x0001u
#define OUT_H5F_ACC_TRUNC 0x0002u
#define OUT_H5F_ACC_SWMR_WRITE 0x0020u
#define OUT_H5F_ACC_RDONLY 0x0000u
#define OUT_H5F_ACC_SWMR_READ 0x0040u

/* The loaded library, or NULL with a reason in err (cap bytes). */
const out_h5lib *out_h5lib_get(char *err, size_t cap);

#endif
