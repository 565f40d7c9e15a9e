// SPDX-License-Identifier: Apache-2.0
/* Complex band matrices for RADAU5's complex stage system
 * ((α + iβ)/h)·M − J (Hairer–Wanner IV.8), in the layout of band.c.
 *
 * The algorithm is the one of band.c (right-looking elimination with partial
 * pivoting on the band, fill-in rows of U above), with the pivot chosen by
 * |re| + |im| like LAPACK's izamax.  The kernels work on the interleaved
 * double view of the double _Complex array (C11 guarantees {re, im}) and
 * spell out the complex multiply-adds, so no libgcc __muldc3/__divdc3 calls
 * happen in the inner loops; multipliers use a Smith reciprocal of the pivot and the
 * back substitution divides by Smith's algorithm (safe for huge and
 * subnormal pivots). */
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "core/error.h"
#include "linalg/linalg_internal.h"

cosrod_zband *cosrod_zband_create(int n, int ml, int mu, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || ml < 0 || mu < 0)
    return cosrod_error_fail(status, COSROD_ERR_INVALID,
                             "cosrod_zband_create: n = %d, ml = %d, mu = %d: need n >= 1, ml >= 0, mu >= 0", n, ml, mu);
  ml = imin(ml, n - 1);
  mu = imin(mu, n - 1);
  const int ld = 2 * ml + mu + 1;
  if ((size_t)n > SIZE_MAX / sizeof(double _Complex) / (size_t)ld)
    return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_zband_create: n = %d, ml = %d, mu = %d: too large",
                             n, ml, mu);
  cosrod_zband *A = calloc(1, sizeof *A);
  if (!A) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zband_create: out of memory (n = %d)", n);
  A->n = n;
  A->ml = ml;
  A->mu = mu;
  A->smu = ml + mu;
  A->ld = ld;
  A->data = calloc((size_t)n * (size_t)ld, sizeof(double _Complex));
  A->work = calloc((size_t)n, sizeof(double _Complex));
  A->ipiv = calloc((size_t)n, sizeof(int));
  A->rdiag = calloc((size_t)n, sizeof(double _Complex));
  A->singular_col = -1;
  A->backend = COSROD_LINALG_OWN;
  A->factored_by = COSROD_LINALG_OWN;
  if (!A->data || !A->work || !A->ipiv || !A->rdiag) {
    cosrod_zband_free(A);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zband_create: out of memory (n = %d)", n);
  }
  if (status) *status = COSROD_OK;
  return A;
}

void cosrod_zband_free(cosrod_zband *A) {
  if (!A) return;
  free(A->data);
  free(A->work);
  free(A->ipiv);
  free(A->rdiag);
  free(A);
}

cosrod_status cosrod_zband_set_backend(cosrod_zband *A, cosrod_linalg_backend backend) {
  if (!A || !lin_valid_backend(backend)) return COSROD_ERR_INVALID;
  A->backend = backend;
  return COSROD_OK;
}

void cosrod_zband_zero(cosrod_zband *A) {
  if (!A) return;
  memset(A->data, 0, (size_t)A->n * (size_t)A->ld * sizeof(double _Complex));
  A->factored = 0;
  A->singular_col = -1;
}

cosrod_status cosrod_zband_copy(cosrod_zband *dst, const cosrod_zband *src) {
  if (!dst || !src) return COSROD_ERR_INVALID;
  if (dst->n != src->n || dst->ml < src->ml || dst->mu < src->mu) return COSROD_ERR_DIMENSION;
  if (dst == src) return COSROD_OK;
  const int n = dst->n;
  for (int j = 0; j < n; ++j) {
    double _Complex *d = dst->data + (size_t)j * (size_t)dst->ld;
    const double _Complex *s = src->data + (size_t)j * (size_t)src->ld + src->smu;
    memset(d, 0, (size_t)dst->ld * sizeof(double _Complex));
    d += dst->smu;
    const int lo = -imin(src->mu, j), hi = imin(src->ml, n - 1 - j);
    for (int r = lo; r <= hi; ++r) d[r] = s[r];
  }
  dst->factored = 0;
  dst->singular_col = -1;
  return COSROD_OK;
}

cosrod_status cosrod_zband_set_combination(cosrod_zband *Z, double _Complex a, const cosrod_band *A,
                                           double _Complex b, const cosrod_band *M) {
  if (!Z || !A) return COSROD_ERR_INVALID;
  if (A->n != Z->n || A->ml > Z->ml || A->mu > Z->mu) return COSROD_ERR_DIMENSION;
  if (M && (M->n != Z->n || M->ml > Z->ml || M->mu > Z->mu)) return COSROD_ERR_DIMENSION;
  const int n = Z->n;
  const double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
  for (int j = 0; j < n; ++j) {
    double _Complex *zc = Z->data + (size_t)j * (size_t)Z->ld;
    memset(zc, 0, (size_t)Z->ld * sizeof(double _Complex));
    double *z = (double *)(zc + Z->smu);
    const double *s = A->data + (size_t)j * (size_t)A->ld + A->smu;
    int lo = -imin(A->mu, j), hi = imin(A->ml, n - 1 - j);
    for (int r = lo; r <= hi; ++r) {
      z[2 * r] = ar * s[r];
      z[2 * r + 1] = ai * s[r];
    }
    if (M) {
      const double *m = M->data + (size_t)j * (size_t)M->ld + M->smu;
      lo = -imin(M->mu, j);
      hi = imin(M->ml, n - 1 - j);
      for (int r = lo; r <= hi; ++r) {
        z[2 * r] += br * m[r];
        z[2 * r + 1] += bi * m[r];
      }
    } else {
      z[0] += br;
      z[1] += bi;
    }
  }
  Z->factored = 0;
  Z->singular_col = -1;
  return COSROD_OK;
}

cosrod_status cosrod_zband_matvec(const cosrod_zband *A, const double _Complex *x, double _Complex *y) {
  if (!A || !x || !y || A->factored) return COSROD_ERR_INVALID;
  const int n = A->n;
  double *yd = (double *)y;
  const double *xd = (const double *)x;
  for (int i = 0; i < 2 * n; ++i) yd[i] = 0.0;
  for (int j = 0; j < n; ++j) {
    const double tr = xd[2 * j], ti = xd[2 * j + 1];
    const double *col = (const double *)(A->data + (size_t)j * (size_t)A->ld + A->smu);
    const int lo = -imin(A->mu, j), hi = imin(A->ml, n - 1 - j);
    double *yj = yd + 2 * j;
    for (int r = lo; r <= hi; ++r) {
      const double cr = col[2 * r], ci = col[2 * r + 1];
      yj[2 * r] += cr * tr - ci * ti;
      yj[2 * r + 1] += cr * ti + ci * tr;
    }
  }
  return COSROD_OK;
}

double cosrod_zband_norm_inf(const cosrod_zband *A) {
  if (!A || A->factored) return NAN;
  double nrm = 0.0;
  for (int i = 0; i < A->n; ++i) {
    double s = 0.0;
    for (int j = imax(0, i - A->ml); j <= imin(A->n - 1, i + A->mu); ++j)
      s += cabs(cosrod_zband_get(A, i, j));
    if (s > nrm || isnan(s)) nrm = s;
  }
  return nrm;
}

/* ---- own LU ---------------------------------------------------------- */

/* Solve with the stored factors; same scheme as band_solve_own (the entry
 * that becomes the next pivot value is carried in registers). */
static void zband_solve_own(const cosrod_zband *A, double *restrict b) {
  const int n = A->n, ml = A->ml, smu = A->smu;
  const size_t ld2 = 2 * (size_t)A->ld;
  const double *restrict a = (const double *)A->data;
  const int *restrict ipiv = A->ipiv;
  if (ml > 0) {
    double cr = b[0], ci = b[1]; /* current value of b[j] (also in memory) */
    for (int j = 0; j < n - 1; ++j) {
      const double *cj = a + (size_t)j * ld2 + 2 * (size_t)smu;
      const int p = ipiv[j];
      double tr = cr, ti = ci;
      if (p != j) {
        tr = b[2 * p];
        ti = b[2 * p + 1];
        b[2 * p] = cr;
        b[2 * p + 1] = ci;
        b[2 * j] = tr;
        b[2 * j + 1] = ti;
      }
      const int km = imin(ml, n - 1 - j);
      double *bj = b + 2 * j;
      cr = bj[2] - (cj[2] * tr - cj[3] * ti);
      ci = bj[3] - (cj[2] * ti + cj[3] * tr);
      bj[2] = cr;
      bj[3] = ci;
      if (km > LIN_VEC_MIN) {
        lin_zaxpy_sub(km - 1, tr, ti, cj + 4, bj + 4);
      } else {
        for (int i = 2; i <= km; ++i) {
          const double lr = cj[2 * i], li = cj[2 * i + 1];
          bj[2 * i] -= lr * tr - li * ti;
          bj[2 * i + 1] -= lr * ti + li * tr;
        }
      }
    }
  }
  /* Back substitution: multiply by the stored reciprocal pivots unless one
   * was unsafe to invert (then Smith division). */
  const double *restrict rd = (const double *)A->rdiag;
  const int use_rd = A->rdiag_ok;
  double cr = b[2 * (n - 1)], ci = b[2 * (n - 1) + 1];
  for (int j = n - 1; j >= 0; --j) {
    const double *cj = a + (size_t)j * ld2 + 2 * (size_t)smu;
    double tr, ti;
    if (use_rd) {
      const double rr = rd[2 * j], ri = rd[2 * j + 1];
      tr = cr * rr - ci * ri;
      ti = cr * ri + ci * rr;
    } else {
      lin_cdiv(cr, ci, cj[0], cj[1], &tr, &ti);
    }
    b[2 * j] = tr;
    b[2 * j + 1] = ti;
    const int km = imin(smu, j);
    if (km == 0) {
      if (j > 0) {
        cr = b[2 * j - 2];
        ci = b[2 * j - 1];
      }
      continue;
    }
    double *bj = b + 2 * j;
    cr = bj[-2] - (cj[-2] * tr - cj[-1] * ti);
    ci = bj[-1] - (cj[-2] * ti + cj[-1] * tr);
    bj[-2] = cr;
    bj[-1] = ci;
    if (km > LIN_VEC_MIN) {
      lin_zaxpy_sub(km - 1, tr, ti, cj - 2 * km, bj - 2 * km);
    } else {
      for (int i = 2; i <= km; ++i) {
        const double ur = cj[-2 * i], ui = cj[-2 * i + 1];
        bj[-2 * i] -= ur * tr - ui * ti;
        bj[-2 * i + 1] -= ur * ti + ui * tr;
      }
    }
  }
}

/* ---- public factor / solve ------------------------------------------- */

cosrod_status cosrod_zband_factor(cosrod_zband *A) {
  if (!A) return COSROD_ERR_INVALID;
  A->factored = 0;
  A->singular_col = -1;
  A->factored_by = A->backend;
  cosrod_status st;
  if (A->backend == COSROD_LINALG_LAPACK) {
    lapack_int info =
        LAPACKE_zgbtrf_work(LAPACK_COL_MAJOR, A->n, A->n, A->ml, A->mu, A->data, A->ld, A->ipiv);
    st = lin_lapack_factor_status(info, (const double *)A->data, 2 * (size_t)A->n * (size_t)A->ld,
                                  2 * (size_t)A->ld, &A->singular_col);
  } else {
    st = lin_zband_factor_own(A);
  }
  if (st == COSROD_OK) A->factored = 1;
  return st;
}

cosrod_status cosrod_zband_solve(const cosrod_zband *A, double _Complex *b) {
  return cosrod_zband_solve_multi(A, 1, b, A ? A->n : 0);
}

cosrod_status cosrod_zband_solve_multi(const cosrod_zband *A, int nrhs, double _Complex *B, int ldb) {
  if (!A || !B || nrhs < 0 || ldb < A->n) return COSROD_ERR_INVALID;
  if (!A->factored) return COSROD_ERR_INVALID;
  if (nrhs == 0) return COSROD_OK;
  if (A->factored_by == COSROD_LINALG_LAPACK) {
    lapack_int info =
        LAPACKE_zgbtrs_work(LAPACK_COL_MAJOR, 'N', A->n, A->ml, A->mu, nrhs, A->data, A->ld, A->ipiv, B, ldb);
    return info == 0 ? COSROD_OK : COSROD_ERR_INTERNAL;
  }
  for (int r = 0; r < nrhs; ++r) zband_solve_own(A, (double *)(B + (size_t)r * (size_t)ldb));
  return COSROD_OK;
}

cosrod_status cosrod_zband_solve_split(cosrod_zband *A, double *re, double *im) {
  if (!A || !re || !im) return COSROD_ERR_INVALID;
  lin_interleave(A->n, re, im, (double *)A->work);
  cosrod_status st = cosrod_zband_solve(A, A->work);
  if (st != COSROD_OK) return st;
  lin_deinterleave(A->n, (const double *)A->work, re, im);
  return COSROD_OK;
}

void cosrod_zband_print(const cosrod_zband *A, FILE *f) {
  if (!f) return;
  if (!A) {
    fprintf(f, "complex band matrix: NULL\n");
    return;
  }
  const int up = A->factored ? A->smu : A->mu;
  fprintf(f, "complex band matrix n=%d ml=%d mu=%d ld=%d backend=%s%s\n", A->n, A->ml, A->mu, A->ld,
          cosrod_linalg_backend_name(A->backend),
          A->factored ? " (LU factors: U above incl. diagonal, L multipliers below)" : "");
  lin_print_entries(f, (const double *)A->data, 1, A->n, (size_t)A->smu, (size_t)A->ld - 1, A->ml, up);
}
