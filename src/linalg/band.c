// SPDX-License-Identifier: Apache-2.0
/* Real band matrices: storage, assembly, products and LU with partial pivoting.
 *
 * The discretised rods have banded Jacobians ([LLA] §3.4: bandwidth 10 for
 * the absolute formulation, larger for the null-space form), so every
 * implicit step solves (γ/h)·M − J with a band LU.  Layout: LAPACK band
 * storage with ml extra rows for the fill-in caused by row interchanges
 * (see include/cosrod/band.h).
 *
 * Own LU (COSROD_LINALG_OWN, band_lu.c): right-looking column elimination.  For column
 * j the pivot is searched among the ml subdiagonal entries, the rows are
 * swapped in columns j..ju (ju = furthest column that row j of U can reach,
 * j + mu + pivot offset), the multipliers are scaled by 1/pivot and the
 * rank-1 update runs down each column k = j+1..ju, which is contiguous in
 * this layout.  The factors (L multipliers below the diagonal, U with upper
 * bandwidth ml + mu above) are stored exactly as LAPACK's dgbtrf stores them,
 * so either backend's solve would accept them; we still solve with the
 * backend that factorised (pivot indices are 0-based for OWN, 1-based for
 * LAPACK).  Cost: n·ml·(ml+mu) multiply-adds for the factorisation,
 * n·(2·ml + mu) for a solve. */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "core/error.h"
#include "linalg/linalg_internal.h"

cosrod_band *cosrod_band_create(int n, int ml, int mu, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || ml < 0 || mu < 0)
    return cosrod_error_fail(status, COSROD_ERR_INVALID,
                             "cosrod_band_create: n = %d, ml = %d, mu = %d: need n >= 1, ml >= 0, mu >= 0", n, ml, mu);
  ml = imin(ml, n - 1);
  mu = imin(mu, n - 1);
  const int ld = 2 * ml + mu + 1;
  if ((size_t)n > SIZE_MAX / sizeof(double) / (size_t)ld)
    return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_band_create: n = %d, ml = %d, mu = %d: too large",
                             n, ml, mu);
  cosrod_band *A = calloc(1, sizeof *A);
  if (!A) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_band_create: out of memory (n = %d)", n);
  A->n = n;
  A->ml = ml;
  A->mu = mu;
  A->smu = ml + mu;
  A->ld = ld;
  A->data = calloc((size_t)n * (size_t)ld, sizeof(double));
  A->ipiv = calloc((size_t)n, sizeof(int));
  A->rdiag = calloc((size_t)n, sizeof(double));
  A->singular_col = -1;
  A->backend = COSROD_LINALG_OWN;
  A->factored_by = COSROD_LINALG_OWN;
  if (!A->data || !A->ipiv || !A->rdiag) {
    cosrod_band_free(A);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_band_create: out of memory (n = %d)", n);
  }
  if (status) *status = COSROD_OK;
  return A;
}

void cosrod_band_free(cosrod_band *A) {
  if (!A) return;
  free(A->data);
  free(A->ipiv);
  free(A->rdiag);
  free(A);
}

cosrod_status cosrod_band_set_backend(cosrod_band *A, cosrod_linalg_backend backend) {
  if (!A || !lin_valid_backend(backend)) return COSROD_ERR_INVALID;
  A->backend = backend;
  return COSROD_OK;
}

cosrod_status cosrod_band_set_checked(cosrod_band *A, int i, int j, double v) {
  if (!A || !cosrod_band_in_band(A, i, j)) return COSROD_ERR_INVALID;
  cosrod_band_set(A, i, j, v);
  return COSROD_OK;
}

cosrod_status cosrod_band_add_checked(cosrod_band *A, int i, int j, double v) {
  if (!A || !cosrod_band_in_band(A, i, j)) return COSROD_ERR_INVALID;
  cosrod_band_add(A, i, j, v);
  return COSROD_OK;
}

double cosrod_band_get_checked(const cosrod_band *A, int i, int j) {
  if (!A || !cosrod_band_in_band(A, i, j)) return 0.0;
  return cosrod_band_get(A, i, j);
}

void cosrod_band_zero(cosrod_band *A) {
  if (!A) return;
  memset(A->data, 0, (size_t)A->n * (size_t)A->ld * sizeof(double));
  A->factored = 0;
  A->singular_col = -1;
}

cosrod_status cosrod_band_copy(cosrod_band *dst, const cosrod_band *src) {
  if (!dst || !src) return COSROD_ERR_INVALID;
  if (dst->n != src->n || dst->ml < src->ml || dst->mu < src->mu) return COSROD_ERR_DIMENSION;
  if (dst == src) return COSROD_OK;
  const int n = dst->n;
  for (int j = 0; j < n; ++j) {
    double *d = dst->data + (size_t)j * (size_t)dst->ld;
    const double *s = src->data + (size_t)j * (size_t)src->ld + src->smu;
    memset(d, 0, (size_t)dst->ld * sizeof(double));
    d += dst->smu;
    const int lo = -imin(src->mu, j), hi = imin(src->ml, n - 1 - j);
    for (int r = lo; r <= hi; ++r) d[r] = s[r];
  }
  dst->factored = 0;
  dst->singular_col = -1;
  return COSROD_OK;
}

void cosrod_band_scale_add_identity(cosrod_band *A, double c, double d) {
  if (!A) return;
  const int n = A->n;
  for (int j = 0; j < n; ++j) {
    double *col = A->data + (size_t)j * (size_t)A->ld;
    memset(col, 0, (size_t)A->ml * sizeof(double)); /* fill-in rows */
    col += A->smu;
    const int lo = -imin(A->mu, j), hi = imin(A->ml, n - 1 - j);
    for (int r = lo; r <= hi; ++r) col[r] *= c;
    col[0] += d;
  }
  A->factored = 0;
  A->singular_col = -1;
}

cosrod_status cosrod_band_set_combination(cosrod_band *E, double a, const cosrod_band *A, double b,
                                          const cosrod_band *M) {
  if (!E || !A || M == E) return COSROD_ERR_INVALID;
  if (A->n != E->n || A->ml > E->ml || A->mu > E->mu) return COSROD_ERR_DIMENSION;
  if (M && (M->n != E->n || M->ml > E->ml || M->mu > E->mu)) return COSROD_ERR_DIMENSION;
  if (A == E) {
    cosrod_band_scale_add_identity(E, a, M ? 0.0 : b);
  } else {
    const int n = E->n;
    for (int j = 0; j < n; ++j) {
      double *e = E->data + (size_t)j * (size_t)E->ld;
      memset(e, 0, (size_t)E->ld * sizeof(double));
      e += E->smu;
      const double *s = A->data + (size_t)j * (size_t)A->ld + A->smu;
      const int lo = -imin(A->mu, j), hi = imin(A->ml, n - 1 - j);
      for (int r = lo; r <= hi; ++r) e[r] = a * s[r];
      if (!M) e[0] += b;
    }
  }
  if (M) {
    const int n = E->n;
    for (int j = 0; j < n; ++j) {
      double *e = E->data + (size_t)j * (size_t)E->ld + E->smu;
      const double *m = M->data + (size_t)j * (size_t)M->ld + M->smu;
      const int lo = -imin(M->mu, j), hi = imin(M->ml, n - 1 - j);
      for (int r = lo; r <= hi; ++r) e[r] += b * m[r];
    }
  }
  E->factored = 0;
  E->singular_col = -1;
  return COSROD_OK;
}

cosrod_status cosrod_band_scale_add(cosrod_band *A, double c, double d, const cosrod_band *M) {
  if (!A || !M) return COSROD_ERR_INVALID;
  return cosrod_band_set_combination(A, c, A, d, M);
}

cosrod_status cosrod_band_gemv(const cosrod_band *A, double alpha, const double *x, double beta, double *y) {
  if (!A || !x || !y) return COSROD_ERR_INVALID;
  if (A->factored) return COSROD_ERR_INVALID;
  const int n = A->n;
  if (beta == 0.0) {
    for (int i = 0; i < n; ++i) y[i] = 0.0;
  } else if (beta != 1.0) {
    for (int i = 0; i < n; ++i) y[i] *= beta;
  }
  for (int j = 0; j < n; ++j) {
    const double t = alpha * x[j];
    const double *col = A->data + (size_t)j * (size_t)A->ld + A->smu;
    const int lo = -imin(A->mu, j), hi = imin(A->ml, n - 1 - j);
    double *yj = y + j;
    for (int r = lo; r <= hi; ++r) yj[r] += col[r] * t;
  }
  return COSROD_OK;
}

cosrod_status cosrod_band_matvec(const cosrod_band *A, const double *x, double *y) {
  return cosrod_band_gemv(A, 1.0, x, 0.0, y);
}

double cosrod_band_norm_inf(const cosrod_band *A) {
  if (!A || A->factored) return NAN;
  double nrm = 0.0;
  for (int i = 0; i < A->n; ++i) {
    double s = 0.0;
    for (int j = imax(0, i - A->ml); j <= imin(A->n - 1, i + A->mu); ++j) s += fabs(cosrod_band_get(A, i, j));
    if (s > nrm || isnan(s)) nrm = s;
  }
  return nrm;
}

cosrod_status cosrod_band_to_dense(const cosrod_band *A, double *D, int ldd) {
  if (!A || !D || ldd < A->n || A->factored) return COSROD_ERR_INVALID;
  const int n = A->n;
  for (int j = 0; j < n; ++j) {
    double *d = D + (size_t)j * (size_t)ldd;
    for (int i = 0; i < n; ++i) d[i] = cosrod_band_in_band(A, i, j) ? cosrod_band_get(A, i, j) : 0.0;
  }
  return COSROD_OK;
}

/* ---- own LU ---------------------------------------------------------- */

/* Solve with the stored factors.  Both triangular sweeps are column
 * oriented (contiguous in this layout) and carry the entry that becomes the
 * next pivot value in a register, so the serial dependency per row is one
 * FMA (forward) or one FMA and one multiply (backward) instead of a store,
 * a store-to-load forward and a division. */
static void band_solve_own(const cosrod_band *A, double *restrict b) {
  const int n = A->n, ml = A->ml, smu = A->smu;
  const size_t ld = (size_t)A->ld;
  const double *restrict a = A->data;
  const int *restrict ipiv = A->ipiv;
  if (ml > 0) {        /* b <- L^{-1} P b, with the interchanges interleaved as in dgbtrs */
    double cur = b[0]; /* current value of b[j], also stored in memory */
    for (int j = 0; j < n - 1; ++j) {
      const double *cj = a + (size_t)j * ld + smu;
      const int p = ipiv[j];
      double t = cur;
      if (p != j) {
        t = b[p];
        b[p] = cur;
        b[j] = t;
      }
      const int km = imin(ml, n - 1 - j);
      double *bj = b + j;
      const double tn = bj[1] - cj[1] * t;
      bj[1] = tn;
      if (km > LIN_VEC_MIN)
        lin_axpy_sub(km - 1, t, cj + 2, bj + 2);
      else
        for (int i = 2; i <= km; ++i) bj[i] -= cj[i] * t;
      cur = tn;
    }
  }
  const double *restrict rd = A->rdiag;
  if (smu == 0) { /* diagonal U */
    if (A->rdiag_ok)
      for (int j = 0; j < n; ++j) b[j] *= rd[j];
    else
      for (int j = 0; j < n; ++j) b[j] /= a[(size_t)j * ld];
    return;
  }
  /* b <- U^{-1} b, U with upper bandwidth smu; multiply by the reciprocal
   * pivots unless one of them was unsafe to invert. */
  const int use_rd = A->rdiag_ok;
  double cur = b[n - 1];
  for (int j = n - 1; j > 0; --j) {
    const double *cj = a + (size_t)j * ld + smu;
    const double t = use_rd ? cur * rd[j] : cur / cj[0];
    b[j] = t;
    const int km = imin(smu, j);
    double *bj = b + j;
    const double tn = bj[-1] - cj[-1] * t;
    bj[-1] = tn;
    if (km > LIN_VEC_MIN)
      lin_axpy_sub(km - 1, t, cj - km, bj - km);
    else
      for (int i = 2; i <= km; ++i) bj[-i] -= cj[-i] * t;
    cur = tn;
  }
  b[0] = use_rd ? cur * rd[0] : cur / a[smu];
}

/* ---- public factor / solve ------------------------------------------- */

cosrod_status cosrod_band_factor(cosrod_band *A) {
  if (!A) return COSROD_ERR_INVALID;
  A->factored = 0;
  A->singular_col = -1;
  A->factored_by = A->backend;
  cosrod_status st;
  if (A->backend == COSROD_LINALG_LAPACK) {
    lapack_int info =
        LAPACKE_dgbtrf_work(LAPACK_COL_MAJOR, A->n, A->n, A->ml, A->mu, A->data, A->ld, A->ipiv);
    st = lin_lapack_factor_status(info, A->data, (size_t)A->n * (size_t)A->ld, (size_t)A->ld,
                                  &A->singular_col);
  } else {
    st = lin_band_factor_own(A);
  }
  if (st == COSROD_OK) A->factored = 1;
  return st;
}

cosrod_status cosrod_band_solve(const cosrod_band *A, double *b) {
  return cosrod_band_solve_multi(A, 1, b, A ? A->n : 0);
}

cosrod_status cosrod_band_solve_multi(const cosrod_band *A, int nrhs, double *B, int ldb) {
  if (!A || !B || nrhs < 0 || ldb < A->n) return COSROD_ERR_INVALID;
  if (!A->factored) return COSROD_ERR_INVALID;
  if (nrhs == 0) return COSROD_OK;
  if (A->factored_by == COSROD_LINALG_LAPACK) {
    lapack_int info =
        LAPACKE_dgbtrs_work(LAPACK_COL_MAJOR, 'N', A->n, A->ml, A->mu, nrhs, A->data, A->ld, A->ipiv, B, ldb);
    return info == 0 ? COSROD_OK : COSROD_ERR_INTERNAL;
  }
  for (int r = 0; r < nrhs; ++r) band_solve_own(A, B + (size_t)r * (size_t)ldb);
  return COSROD_OK;
}

void cosrod_band_print(const cosrod_band *A, FILE *f) {
  if (!f) return;
  if (!A) {
    fprintf(f, "band matrix: NULL\n");
    return;
  }
  const int up = A->factored ? A->smu : A->mu;
  fprintf(f, "band matrix n=%d ml=%d mu=%d ld=%d backend=%s%s\n", A->n, A->ml, A->mu, A->ld,
          cosrod_linalg_backend_name(A->backend),
          A->factored ? " (LU factors: U above incl. diagonal, L multipliers below)" : "");
  lin_print_entries(f, A->data, 0, A->n, (size_t)A->smu, (size_t)A->ld - 1, A->ml, up);
}
