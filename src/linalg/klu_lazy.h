// SPDX-License-Identifier: Apache-2.0
/* KLU (SuiteSparse) opened on first use (COSROD_LAZY_KLU; module-internal),
 * like SUNDIALS (integrate/sundials_lazy.h): libcosrod is not linked
 * against libklu and its four dependencies, which only the sparse LU
 * (sparse.c) uses.  The calls of sparse.c go through cosrod_klu_fns,
 * filled by klu_lazy_load before the first one; this header comes after
 * every other include.  Without COSROD_LAZY_KLU the calls are linked
 * directly and klu_lazy_load only returns 0. */
#ifndef COSROD_LINALG_KLU_LAZY_H
#define COSROD_LINALG_KLU_LAZY_H
#include <stddef.h>

#include <klu.h>

/* Loads KLU once (thread-safe); 0 when every function is there, else -1
 * and msg (size len, may be NULL) says what is missing. */
int klu_lazy_load(char *msg, size_t len);

/* 1 when KLU is loaded or not yet tried, 0 after a failed load. */
int klu_lazy_usable(void);

#ifdef COSROD_LAZY_KLU
#define KLU_LAZY_LIST(X) \
  X(klu_analyze) X(klu_defaults) X(klu_factor) X(klu_free_numeric) \
  X(klu_free_symbolic) X(klu_rcond) X(klu_refactor) X(klu_solve) \
  X(klu_z_factor) X(klu_z_free_numeric) X(klu_z_rcond) X(klu_z_refactor) \
  X(klu_z_solve)
#define KLU_LAZY_MEMBER(f) __typeof__(f) *f;
struct klu_lazy_fns {
  KLU_LAZY_LIST(KLU_LAZY_MEMBER)
};
extern struct klu_lazy_fns cosrod_klu_fns;

#ifndef KLU_LAZY_IMPL
#define klu_analyze (cosrod_klu_fns.klu_analyze)
#define klu_defaults (cosrod_klu_fns.klu_defaults)
#define klu_factor (cosrod_klu_fns.klu_factor)
#define klu_free_numeric (cosrod_klu_fns.klu_free_numeric)
#define klu_free_symbolic (cosrod_klu_fns.klu_free_symbolic)
#define klu_rcond (cosrod_klu_fns.klu_rcond)
#define klu_refactor (cosrod_klu_fns.klu_refactor)
#define klu_solve (cosrod_klu_fns.klu_solve)
#define klu_z_factor (cosrod_klu_fns.klu_z_factor)
#define klu_z_free_numeric (cosrod_klu_fns.klu_z_free_numeric)
#define klu_z_rcond (cosrod_klu_fns.klu_z_rcond)
#define klu_z_refactor (cosrod_klu_fns.klu_z_refactor)
#define klu_z_solve (cosrod_klu_fns.klu_z_solve)
#endif /* KLU_LAZY_IMPL */
#endif /* COSROD_LAZY_KLU */
#endif
