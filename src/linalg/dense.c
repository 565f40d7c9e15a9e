// SPDX-License-Identifier: Apache-2.0
/* Small dense matrices (real and complex): assembly, products and LU with
 * partial pivoting, own or through LAPACKE ?getrf/?getrs.
 *
 * Own LU: right-looking Gaussian elimination (Golub–Van Loan, Matrix Computations, §3.4):
 * for column j pick the largest |a_ij| (|re|+|im| for complex) on or below
 * the diagonal, swap whole rows (LAPACK getrf convention, so the stored
 * factors are P·A = L·U with the same ipiv meaning, 0-based), scale the
 * multipliers by 1/pivot and update the trailing columns one contiguous
 * column at a time.  Unblocked: meant for the small systems of rigid bodies
 * and dense test problems (n up to a few hundred); cost 2n³/3 flops. */
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/dense.h"
#include "core/error.h"
#include "linalg/linalg_internal.h"

const char *cosrod_linalg_backend_name(cosrod_linalg_backend backend) {
  switch (backend) {
    case COSROD_LINALG_OWN:
      return "own";
    case COSROD_LINALG_LAPACK:
      return "lapack";
  }
  return "unknown";
}

/* ======================================================================== */
/* Real dense                                                               */

cosrod_dense *cosrod_dense_create(int n, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || (size_t)n > SIZE_MAX / sizeof(double) / (size_t)n)
    return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_dense_create: n = %d: need 1 <= n and n * n entries addressable", n);
  cosrod_dense *A = calloc(1, sizeof *A);
  if (!A) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_dense_create: out of memory (n = %d)", n);
  A->n = n;
  A->data = calloc((size_t)n * (size_t)n, sizeof(double));
  A->ipiv = calloc((size_t)n, sizeof(int));
  A->singular_col = -1;
  A->backend = COSROD_LINALG_OWN;
  A->factored_by = COSROD_LINALG_OWN;
  if (!A->data || !A->ipiv) {
    cosrod_dense_free(A);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_dense_create: out of memory (n = %d)", n);
  }
  if (status) *status = COSROD_OK;
  return A;
}

void cosrod_dense_free(cosrod_dense *A) {
  if (!A) return;
  free(A->data);
  free(A->ipiv);
  free(A);
}

cosrod_status cosrod_dense_set_backend(cosrod_dense *A, cosrod_linalg_backend backend) {
  if (!A || !lin_valid_backend(backend)) return COSROD_ERR_INVALID;
  A->backend = backend;
  return COSROD_OK;
}

static void dense_mark(cosrod_dense *A) {
  A->factored = 0;
  A->singular_col = -1;
}

void cosrod_dense_zero(cosrod_dense *A) {
  if (!A) return;
  memset(A->data, 0, (size_t)A->n * (size_t)A->n * sizeof(double));
  dense_mark(A);
}

cosrod_status cosrod_dense_copy(cosrod_dense *dst, const cosrod_dense *src) {
  if (!dst || !src) return COSROD_ERR_INVALID;
  if (dst->n != src->n) return COSROD_ERR_DIMENSION;
  if (dst != src) memcpy(dst->data, src->data, (size_t)dst->n * (size_t)dst->n * sizeof(double));
  dense_mark(dst);
  return COSROD_OK;
}

void cosrod_dense_scale_add_identity(cosrod_dense *A, double c, double d) {
  if (!A) return;
  const size_t nn = (size_t)A->n * (size_t)A->n;
  for (size_t k = 0; k < nn; ++k) A->data[k] *= c;
  for (int i = 0; i < A->n; ++i) A->data[(size_t)i * (size_t)(A->n + 1)] += d;
  dense_mark(A);
}

cosrod_status cosrod_dense_set_combination(cosrod_dense *E, double a, const cosrod_dense *A, double b,
                                           const cosrod_dense *M) {
  if (!E || !A || M == E) return COSROD_ERR_INVALID;
  if (A->n != E->n || (M && M->n != E->n)) return COSROD_ERR_DIMENSION;
  const size_t nn = (size_t)E->n * (size_t)E->n;
  for (size_t k = 0; k < nn; ++k) E->data[k] = a * A->data[k];
  if (M) {
    for (size_t k = 0; k < nn; ++k) E->data[k] += b * M->data[k];
  } else {
    for (int i = 0; i < E->n; ++i) E->data[(size_t)i * (size_t)(E->n + 1)] += b;
  }
  dense_mark(E);
  return COSROD_OK;
}

cosrod_status cosrod_dense_scale_add(cosrod_dense *A, double c, double d, const cosrod_dense *M) {
  if (!A || !M) return COSROD_ERR_INVALID;
  return cosrod_dense_set_combination(A, c, A, d, M);
}

cosrod_status cosrod_dense_gemv(const cosrod_dense *A, double alpha, const double *x, double beta,
                                double *y) {
  if (!A || !x || !y || A->factored) return COSROD_ERR_INVALID;
  const int n = A->n;
  if (beta == 0.0) {
    for (int i = 0; i < n; ++i) y[i] = 0.0;
  } else if (beta != 1.0) {
    for (int i = 0; i < n; ++i) y[i] *= beta;
  }
  for (int j = 0; j < n; ++j) {
    const double t = alpha * x[j];
    const double *col = A->data + (size_t)j * (size_t)n;
    for (int i = 0; i < n; ++i) y[i] += col[i] * t;
  }
  return COSROD_OK;
}

cosrod_status cosrod_dense_matvec(const cosrod_dense *A, const double *x, double *y) {
  return cosrod_dense_gemv(A, 1.0, x, 0.0, y);
}

double cosrod_dense_norm_inf(const cosrod_dense *A) {
  if (!A || A->factored) return NAN;
  double nrm = 0.0;
  for (int i = 0; i < A->n; ++i) {
    double s = 0.0;
    for (int j = 0; j < A->n; ++j) s += fabs(A->data[i + (size_t)j * (size_t)A->n]);
    if (s > nrm || isnan(s)) nrm = s;
  }
  return nrm;
}

static cosrod_status dense_factor_own(cosrod_dense *A) {
  const int n = A->n;
  const size_t ld = (size_t)n;
  double *a = A->data;
  for (int j = 0; j < n; ++j) {
    double *cj = a + (size_t)j * ld;
    int p = j, bad = 0;
    double amax = -1.0;
    for (int i = j; i < n; ++i) {
      const double v = fabs(cj[i]);
      bad |= !isfinite(v);
      if (v > amax) {
        amax = v;
        p = i;
      }
    }
    A->ipiv[j] = p;
    if (bad) {
      A->singular_col = j;
      return COSROD_ERR_NONFINITE;
    }
    if (amax == 0.0) {
      A->singular_col = j;
      return COSROD_ERR_SINGULAR;
    }
    if (p != j) {
      for (int k = 0; k < n; ++k) {
        double *ck = a + (size_t)k * ld;
        const double t = ck[j];
        ck[j] = ck[p];
        ck[p] = t;
      }
    }
    const double piv = cj[j];
    if (amax >= DBL_MIN && amax <= 1.0 / DBL_MIN) { /* 1/piv finite and normal */
      const double rp = 1.0 / piv;
      for (int i = j + 1; i < n; ++i) cj[i] *= rp;
    } else {
      for (int i = j + 1; i < n; ++i) cj[i] /= piv;
    }
    for (int k = j + 1; k < n; ++k) {
      double *ck = a + (size_t)k * ld;
      const double t = ck[j];
      if (t == 0.0) continue;
      for (int i = j + 1; i < n; ++i) ck[i] -= cj[i] * t;
    }
  }
  return COSROD_OK;
}

static void dense_solve_own(const cosrod_dense *A, double *b) {
  const int n = A->n;
  const size_t ld = (size_t)n;
  const double *a = A->data;
  for (int j = 0; j < n; ++j) {
    const int p = A->ipiv[j];
    if (p != j) {
      const double t = b[j];
      b[j] = b[p];
      b[p] = t;
    }
  }
  for (int j = 0; j < n; ++j) {
    const double t = b[j];
    if (t == 0.0) continue;
    const double *cj = a + (size_t)j * ld;
    for (int i = j + 1; i < n; ++i) b[i] -= cj[i] * t;
  }
  for (int j = n - 1; j >= 0; --j) {
    const double *cj = a + (size_t)j * ld;
    const double t = b[j] / cj[j];
    b[j] = t;
    if (t == 0.0) continue;
    for (int i = 0; i < j; ++i) b[i] -= cj[i] * t;
  }
}

cosrod_status cosrod_dense_factor(cosrod_dense *A) {
  if (!A) return COSROD_ERR_INVALID;
  dense_mark(A);
  A->factored_by = A->backend;
  cosrod_status st = COSROD_OK;
  if (A->backend == COSROD_LINALG_LAPACK) {
    lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, A->n, A->n, A->data, A->n, A->ipiv);
    st = lin_lapack_factor_status(info, A->data, (size_t)A->n * (size_t)A->n, (size_t)A->n, &A->singular_col);
  } else {
    st = dense_factor_own(A);
  }
  if (st == COSROD_OK) A->factored = 1;
  return st;
}

cosrod_status cosrod_dense_solve(const cosrod_dense *A, double *b) {
  return cosrod_dense_solve_multi(A, 1, b, A ? A->n : 0);
}

cosrod_status cosrod_dense_solve_multi(const cosrod_dense *A, int nrhs, double *B, int ldb) {
  if (!A || !B || nrhs < 0 || ldb < A->n || !A->factored) return COSROD_ERR_INVALID;
  if (nrhs == 0) return COSROD_OK;
  if (A->factored_by == COSROD_LINALG_LAPACK) {
    lapack_int info = LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', A->n, nrhs, A->data, A->n, A->ipiv, B, ldb);
    return info == 0 ? COSROD_OK : COSROD_ERR_INTERNAL;
  }
  for (int r = 0; r < nrhs; ++r) dense_solve_own(A, B + (size_t)r * (size_t)ldb);
  return COSROD_OK;
}

void cosrod_dense_print(const cosrod_dense *A, FILE *f) {
  if (!f) return;
  if (!A) {
    fprintf(f, "dense matrix: NULL\n");
    return;
  }
  fprintf(f, "dense matrix n=%d backend=%s%s\n", A->n, cosrod_linalg_backend_name(A->backend),
          A->factored ? " (LU factors)" : "");
  lin_print_entries(f, A->data, 0, A->n, 0, (size_t)A->n, A->n - 1, A->n - 1);
}

/* ======================================================================== */
/* Complex dense                                                            */

cosrod_zdense *cosrod_zdense_create(int n, cosrod_status *status) {
  cosrod_error_clear();
  if (n < 1 || (size_t)n > SIZE_MAX / sizeof(double _Complex) / (size_t)n)
    return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_zdense_create: n = %d: need 1 <= n and n * n entries addressable", n);
  cosrod_zdense *A = calloc(1, sizeof *A);
  if (!A) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zdense_create: out of memory (n = %d)", n);
  A->n = n;
  A->data = calloc((size_t)n * (size_t)n, sizeof(double _Complex));
  A->work = calloc((size_t)n, sizeof(double _Complex));
  A->ipiv = calloc((size_t)n, sizeof(int));
  A->singular_col = -1;
  A->backend = COSROD_LINALG_OWN;
  A->factored_by = COSROD_LINALG_OWN;
  if (!A->data || !A->work || !A->ipiv) {
    cosrod_zdense_free(A);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_zdense_create: out of memory (n = %d)", n);
  }
  if (status) *status = COSROD_OK;
  return A;
}

void cosrod_zdense_free(cosrod_zdense *A) {
  if (!A) return;
  free(A->data);
  free(A->work);
  free(A->ipiv);
  free(A);
}

cosrod_status cosrod_zdense_set_backend(cosrod_zdense *A, cosrod_linalg_backend backend) {
  if (!A || !lin_valid_backend(backend)) return COSROD_ERR_INVALID;
  A->backend = backend;
  return COSROD_OK;
}

void cosrod_zdense_zero(cosrod_zdense *A) {
  if (!A) return;
  memset(A->data, 0, (size_t)A->n * (size_t)A->n * sizeof(double _Complex));
  A->factored = 0;
  A->singular_col = -1;
}

cosrod_status cosrod_zdense_copy(cosrod_zdense *dst, const cosrod_zdense *src) {
  if (!dst || !src) return COSROD_ERR_INVALID;
  if (dst->n != src->n) return COSROD_ERR_DIMENSION;
  if (dst != src) memcpy(dst->data, src->data, (size_t)dst->n * (size_t)dst->n * sizeof(double _Complex));
  dst->factored = 0;
  dst->singular_col = -1;
  return COSROD_OK;
}

cosrod_status cosrod_zdense_set_combination(cosrod_zdense *Z, double _Complex a, const cosrod_dense *A,
                                            double _Complex b, const cosrod_dense *M) {
  if (!Z || !A) return COSROD_ERR_INVALID;
  if (A->n != Z->n || (M && M->n != Z->n)) return COSROD_ERR_DIMENSION;
  const size_t nn = (size_t)Z->n * (size_t)Z->n;
  const double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
  double *z = (double *)Z->data;
  for (size_t k = 0; k < nn; ++k) {
    z[2 * k] = ar * A->data[k];
    z[2 * k + 1] = ai * A->data[k];
  }
  if (M) {
    for (size_t k = 0; k < nn; ++k) {
      z[2 * k] += br * M->data[k];
      z[2 * k + 1] += bi * M->data[k];
    }
  } else {
    for (int i = 0; i < Z->n; ++i) {
      const size_t k = (size_t)i * (size_t)(Z->n + 1);
      z[2 * k] += br;
      z[2 * k + 1] += bi;
    }
  }
  Z->factored = 0;
  Z->singular_col = -1;
  return COSROD_OK;
}

cosrod_status cosrod_zdense_matvec(const cosrod_zdense *A, const double _Complex *x, double _Complex *y) {
  if (!A || !x || !y || A->factored) return COSROD_ERR_INVALID;
  const int n = A->n;
  double *yd = (double *)y;
  const double *xd = (const double *)x;
  for (int i = 0; i < 2 * n; ++i) yd[i] = 0.0;
  for (int j = 0; j < n; ++j) {
    const double tr = xd[2 * j], ti = xd[2 * j + 1];
    const double *col = (const double *)(A->data + (size_t)j * (size_t)n);
    for (int i = 0; i < n; ++i) {
      yd[2 * i] += col[2 * i] * tr - col[2 * i + 1] * ti;
      yd[2 * i + 1] += col[2 * i] * ti + col[2 * i + 1] * tr;
    }
  }
  return COSROD_OK;
}

double cosrod_zdense_norm_inf(const cosrod_zdense *A) {
  if (!A || A->factored) return NAN;
  double nrm = 0.0;
  for (int i = 0; i < A->n; ++i) {
    double s = 0.0;
    for (int j = 0; j < A->n; ++j) s += cabs(A->data[i + (size_t)j * (size_t)A->n]);
    if (s > nrm || isnan(s)) nrm = s;
  }
  return nrm;
}

static cosrod_status zdense_factor_own(cosrod_zdense *A) {
  const int n = A->n;
  const size_t ld2 = 2 * (size_t)n;
  double *a = (double *)A->data;
  for (int j = 0; j < n; ++j) {
    double *cj = a + (size_t)j * ld2;
    int p = j, bad = 0;
    double amax = -1.0;
    for (int i = j; i < n; ++i) {
      const double v = lin_cabs1(cj + 2 * i);
      bad |= !isfinite(v);
      if (v > amax) {
        amax = v;
        p = i;
      }
    }
    A->ipiv[j] = p;
    if (bad) {
      A->singular_col = j;
      return COSROD_ERR_NONFINITE;
    }
    if (amax == 0.0) {
      A->singular_col = j;
      return COSROD_ERR_SINGULAR;
    }
    if (p != j) {
      for (int k = 0; k < n; ++k) {
        double *ck = a + (size_t)k * ld2;
        const double tr = ck[2 * j], ti = ck[2 * j + 1];
        ck[2 * j] = ck[2 * p];
        ck[2 * j + 1] = ck[2 * p + 1];
        ck[2 * p] = tr;
        ck[2 * p + 1] = ti;
      }
    }
    const double pr = cj[2 * j], pi = cj[2 * j + 1];
    if (amax >= 2.0 * DBL_MIN && amax <= 0.5 / DBL_MIN) { /* safe Smith reciprocal */
      double rr, ri;
      lin_crecip(pr, pi, &rr, &ri);
      for (int i = j + 1; i < n; ++i) {
        const double xr = cj[2 * i], xi = cj[2 * i + 1];
        cj[2 * i] = xr * rr - xi * ri;
        cj[2 * i + 1] = xr * ri + xi * rr;
      }
    } else {
      for (int i = j + 1; i < n; ++i) {
        lin_cdiv(cj[2 * i], cj[2 * i + 1], pr, pi, &cj[2 * i], &cj[2 * i + 1]);
      }
    }
    for (int k = j + 1; k < n; ++k) {
      double *ck = a + (size_t)k * ld2;
      const double tr = ck[2 * j], ti = ck[2 * j + 1];
      if (tr == 0.0 && ti == 0.0) continue;
      for (int i = j + 1; i < n; ++i) {
        const double lr = cj[2 * i], li = cj[2 * i + 1];
        ck[2 * i] -= lr * tr - li * ti;
        ck[2 * i + 1] -= lr * ti + li * tr;
      }
    }
  }
  return COSROD_OK;
}

static void zdense_solve_own(const cosrod_zdense *A, double *b) {
  const int n = A->n;
  const size_t ld2 = 2 * (size_t)n;
  const double *a = (const double *)A->data;
  for (int j = 0; j < n; ++j) {
    const int p = A->ipiv[j];
    if (p != j) {
      const double tr = b[2 * j], ti = b[2 * j + 1];
      b[2 * j] = b[2 * p];
      b[2 * j + 1] = b[2 * p + 1];
      b[2 * p] = tr;
      b[2 * p + 1] = ti;
    }
  }
  for (int j = 0; j < n; ++j) {
    const double tr = b[2 * j], ti = b[2 * j + 1];
    if (tr == 0.0 && ti == 0.0) continue;
    const double *cj = a + (size_t)j * ld2;
    for (int i = j + 1; i < n; ++i) {
      b[2 * i] -= cj[2 * i] * tr - cj[2 * i + 1] * ti;
      b[2 * i + 1] -= cj[2 * i] * ti + cj[2 * i + 1] * tr;
    }
  }
  for (int j = n - 1; j >= 0; --j) {
    const double *cj = a + (size_t)j * ld2;
    double tr, ti;
    lin_cdiv(b[2 * j], b[2 * j + 1], cj[2 * j], cj[2 * j + 1], &tr, &ti);
    b[2 * j] = tr;
    b[2 * j + 1] = ti;
    if (tr == 0.0 && ti == 0.0) continue;
    for (int i = 0; i < j; ++i) {
      b[2 * i] -= cj[2 * i] * tr - cj[2 * i + 1] * ti;
      b[2 * i + 1] -= cj[2 * i] * ti + cj[2 * i + 1] * tr;
    }
  }
}

cosrod_status cosrod_zdense_factor(cosrod_zdense *A) {
  if (!A) return COSROD_ERR_INVALID;
  A->factored = 0;
  A->singular_col = -1;
  A->factored_by = A->backend;
  cosrod_status st = COSROD_OK;
  if (A->backend == COSROD_LINALG_LAPACK) {
    lapack_int info = LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, A->n, A->n, A->data, A->n, A->ipiv);
    st = lin_lapack_factor_status(info, (const double *)A->data, 2 * (size_t)A->n * (size_t)A->n,
                                  2 * (size_t)A->n, &A->singular_col);
  } else {
    st = zdense_factor_own(A);
  }
  if (st == COSROD_OK) A->factored = 1;
  return st;
}

cosrod_status cosrod_zdense_solve(const cosrod_zdense *A, double _Complex *b) {
  return cosrod_zdense_solve_multi(A, 1, b, A ? A->n : 0);
}

cosrod_status cosrod_zdense_solve_multi(const cosrod_zdense *A, int nrhs, double _Complex *B, int ldb) {
  if (!A || !B || nrhs < 0 || ldb < A->n || !A->factored) return COSROD_ERR_INVALID;
  if (nrhs == 0) return COSROD_OK;
  if (A->factored_by == COSROD_LINALG_LAPACK) {
    lapack_int info = LAPACKE_zgetrs_work(LAPACK_COL_MAJOR, 'N', A->n, nrhs, A->data, A->n, A->ipiv, B, ldb);
    return info == 0 ? COSROD_OK : COSROD_ERR_INTERNAL;
  }
  for (int r = 0; r < nrhs; ++r) zdense_solve_own(A, (double *)(B + (size_t)r * (size_t)ldb));
  return COSROD_OK;
}

cosrod_status cosrod_zdense_solve_split(cosrod_zdense *A, double *re, double *im) {
  if (!A || !re || !im) return COSROD_ERR_INVALID;
  lin_interleave(A->n, re, im, (double *)A->work);
  cosrod_status st = cosrod_zdense_solve(A, A->work);
  if (st != COSROD_OK) return st;
  lin_deinterleave(A->n, (const double *)A->work, re, im);
  return COSROD_OK;
}

void cosrod_zdense_print(const cosrod_zdense *A, FILE *f) {
  if (!f) return;
  if (!A) {
    fprintf(f, "complex dense matrix: NULL\n");
    return;
  }
  fprintf(f, "complex dense matrix n=%d backend=%s%s\n", A->n, cosrod_linalg_backend_name(A->backend),
          A->factored ? " (LU factors)" : "");
  lin_print_entries(f, (const double *)A->data, 1, A->n, 0, (size_t)A->n, A->n - 1, A->n - 1);
}

/* ======================================================================== */
/* Helpers shared with band.c / zband.c (linalg_internal.h)                 */

cosrod_status lin_lapack_factor_status(lapack_int info, const double *x, size_t m, size_t col,
                                       int *singular_col) {
  if (info < 0) return COSROD_ERR_INTERNAL;
  if (info > 0) {
    *singular_col = info - 1;
    return COSROD_ERR_SINGULAR;
  }
  const long bad = lin_first_nonfinite(x, m);
  if (bad < 0) return COSROD_OK;
  *singular_col = (int)(bad / (long)col);
  return COSROD_ERR_NONFINITE;
}

void lin_print_entries(FILE *f, const double *x, int is_complex, int n, size_t off, size_t cs, int ml,
                       int mu) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const size_t k = off + (size_t)i + (size_t)j * cs;
      if (i - j > ml || j - i > mu)
        fprintf(f, is_complex ? " %21s" : " %11s", ".");
      else if (is_complex)
        fprintf(f, " %10.3e%+10.3ei", x[2 * k], x[2 * k + 1]);
      else
        fprintf(f, " %11.4e", x[k]);
    }
    fputc('\n', f);
  }
}
