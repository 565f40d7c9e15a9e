// SPDX-License-Identifier: Apache-2.0
/* LAPACKE loaded on first use (COSROD_LAZY_LAPACK): libcosrod is not linked
 * against liblapacke/liblapack/libblas/libgfortran, whose loading and
 * relocation at process start cost more CPU than a small run (measured in
 * bench/results/output-and-startup.md).  Each LAPACKE function cosrod calls
 * is defined here with the header's prototype (hidden, so the library's own
 * symbol is not interposed) and forwards to the function of Debian's
 * liblapacke.so.3, opened by cosrod_lazylib_resolve_some on the first call
 * of any of them.  If the library cannot be opened, or lacks a function, the
 * calls concerned return info = -1011 and the reason is printed once on
 * stderr. */
#include <lapacke.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/lazylib.h"

#define LAZY_SONAME "liblapacke.so.3"

/* every forwarded function, in the order of the table below */
#define LAZY_LIST(X)                                                                                          \
  X(dgbtrf_work) X(dgbtrs_work) X(dgeqrf) X(dgetrf_work) X(dgetrs_work) X(dggev) X(dorgqr) X(dpbtrf_work)   \
  X(dpbtrs_work) X(dpotrf) X(dpotrs) X(dsyev) X(dsyevd) X(dsyevr) X(zgbtrf_work) X(zgbtrs_work)             \
  X(zgetrf_work) X(zgetrs_work)

#define LAZY_ENUM(f) LZ_##f,
enum { LAZY_LIST(LAZY_ENUM) LZ_COUNT };
#define LAZY_NAME(f) "LAPACKE_" #f,
static const char *const lazy_names[LZ_COUNT] = {LAZY_LIST(LAZY_NAME)};
static void *lazy_fn[LZ_COUNT];
static pthread_once_t lazy_once = PTHREAD_ONCE_INIT;

/* Every function is optional (each serves its own analysis): one missing
 * from the library does not disable the others (core/lazylib.h). */
static void lazy_load(void) {
  static const char *const libs[] = {LAZY_SONAME};
  char msg[512];
  const int r = cosrod_lazylib_resolve_some(libs, 1, lazy_names, lazy_fn, LZ_COUNT, 0, msg, sizeof msg);
  if (r < 0)
    fprintf(stderr, "cosrod: %s (Debian package liblapacke)\n", msg);
  else if (r > 0)
    fprintf(stderr, "cosrod: %s: their calls return info = -1011\n", msg);
}

/* The loaded function i, or NULL.  (A void * is converted to a function
 * pointer by memcpy: ISO C has no cast between them.) */
static void *lazy_get(int i) {
  pthread_once(&lazy_once, lazy_load);
  return lazy_fn[i];
}

#define LAZY_FWD(f, params, args)                           \
  lapack_int LAPACKE_##f params {                           \
    lapack_int(*fp) params;                                 \
    void *p = lazy_get(LZ_##f);                             \
    if (!p) return -1011;                                   \
    memcpy(&fp, &p, sizeof fp);                             \
    return fp args;                                         \
  }

typedef lapack_complex_double zc;

LAZY_FWD(dgbtrf_work, (int L, lapack_int m, lapack_int n, lapack_int kl, lapack_int ku, double *ab, lapack_int ldab,
                       lapack_int *ipiv),
         (L, m, n, kl, ku, ab, ldab, ipiv))
LAZY_FWD(dgbtrs_work, (int L, char tr, lapack_int n, lapack_int kl, lapack_int ku, lapack_int nrhs, const double *ab,
                       lapack_int ldab, const lapack_int *ipiv, double *b, lapack_int ldb),
         (L, tr, n, kl, ku, nrhs, ab, ldab, ipiv, b, ldb))
LAZY_FWD(dgeqrf, (int L, lapack_int m, lapack_int n, double *a, lapack_int lda, double *tau), (L, m, n, a, lda, tau))
LAZY_FWD(dgetrf_work, (int L, lapack_int m, lapack_int n, double *a, lapack_int lda, lapack_int *ipiv),
         (L, m, n, a, lda, ipiv))
LAZY_FWD(dgetrs_work, (int L, char tr, lapack_int n, lapack_int nrhs, const double *a, lapack_int lda,
                       const lapack_int *ipiv, double *b, lapack_int ldb),
         (L, tr, n, nrhs, a, lda, ipiv, b, ldb))
LAZY_FWD(dggev, (int L, char jl, char jr, lapack_int n, double *a, lapack_int lda, double *b, lapack_int ldb,
                 double *ar, double *ai, double *be, double *vl, lapack_int ldvl, double *vr, lapack_int ldvr),
         (L, jl, jr, n, a, lda, b, ldb, ar, ai, be, vl, ldvl, vr, ldvr))
LAZY_FWD(dorgqr, (int L, lapack_int m, lapack_int n, lapack_int k, double *a, lapack_int lda, const double *tau),
         (L, m, n, k, a, lda, tau))
LAZY_FWD(dpbtrf_work, (int L, char uplo, lapack_int n, lapack_int kd, double *ab, lapack_int ldab),
         (L, uplo, n, kd, ab, ldab))
LAZY_FWD(dpbtrs_work, (int L, char uplo, lapack_int n, lapack_int kd, lapack_int nrhs, const double *ab,
                       lapack_int ldab, double *b, lapack_int ldb),
         (L, uplo, n, kd, nrhs, ab, ldab, b, ldb))
LAZY_FWD(dpotrf, (int L, char uplo, lapack_int n, double *a, lapack_int lda), (L, uplo, n, a, lda))
LAZY_FWD(dpotrs, (int L, char uplo, lapack_int n, lapack_int nrhs, const double *a, lapack_int lda, double *b,
                  lapack_int ldb),
         (L, uplo, n, nrhs, a, lda, b, ldb))
LAZY_FWD(dsyev, (int L, char jobz, char uplo, lapack_int n, double *a, lapack_int lda, double *w),
         (L, jobz, uplo, n, a, lda, w))
LAZY_FWD(dsyevd, (int L, char jobz, char uplo, lapack_int n, double *a, lapack_int lda, double *w),
         (L, jobz, uplo, n, a, lda, w))
LAZY_FWD(dsyevr, (int L, char jobz, char range, char uplo, lapack_int n, double *a, lapack_int lda, double vl,
                  double vu, lapack_int il, lapack_int iu, double abstol, lapack_int *m, double *w, double *z,
                  lapack_int ldz, lapack_int *isuppz),
         (L, jobz, range, uplo, n, a, lda, vl, vu, il, iu, abstol, m, w, z, ldz, isuppz))
LAZY_FWD(zgbtrf_work, (int L, lapack_int m, lapack_int n, lapack_int kl, lapack_int ku, zc *ab, lapack_int ldab,
                       lapack_int *ipiv),
         (L, m, n, kl, ku, ab, ldab, ipiv))
LAZY_FWD(zgbtrs_work, (int L, char tr, lapack_int n, lapack_int kl, lapack_int ku, lapack_int nrhs, const zc *ab,
                       lapack_int ldab, const lapack_int *ipiv, zc *b, lapack_int ldb),
         (L, tr, n, kl, ku, nrhs, ab, ldab, ipiv, b, ldb))
LAZY_FWD(zgetrf_work, (int L, lapack_int m, lapack_int n, zc *a, lapack_int lda, lapack_int *ipiv),
         (L, m, n, a, lda, ipiv))
LAZY_FWD(zgetrs_work, (int L, char tr, lapack_int n, lapack_int nrhs, const zc *a, lapack_int lda,
                       const lapack_int *ipiv, zc *b, lapack_int ldb),
         (L, tr, n, nrhs, a, lda, ipiv, b, ldb))
