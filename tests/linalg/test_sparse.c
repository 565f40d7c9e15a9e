// SPDX-License-Identifier: Apache-2.0
/* Sparse CSC matrices and the KLU LU (include/cosrod/sparse.h) against
 * LAPACK dgesv on the dense expansion; refactorisation with new values;
 * singular input; Curtis-Powell-Reid column groups checked by brute force.
 * Tolerances: the residual bound RESID_TOL of linalg_testutil.h (backward
 * stable LU; KLU's inner products are shorter than the dense ones), and the
 * forward difference to dgesv relative to cond_1(A) n u (both solutions are
 * within cond * backward error of the exact one). */
#include <float.h>
#include <string.h>

#include "cosrod/sparse.h"
#include "linalg_testutil.h"

/* A random "rods + body" pattern: a band (ml = mu = 3) with holes on the
 * diagonal, plus dense coupling between the last `nb` unknowns and two
 * windows of the band (as a body attached to two rod ends), plus a few
 * random entries.  Dense column-major D (n x n) gets the values; the CSC
 * arrays are filled from D's non-zeros.  Diagonal: dominance makes the
 * matrix well conditioned unless `weak`. */
static void make_matrix(int n, int nb, th_rng *rng, double *D, int *colptr, int *rowind, int weak) {
  memset(D, 0, (size_t)n * (size_t)n * sizeof *D);
  for (int j = 0; j < n; j++)
    for (int i = tu_max(0, j - 3); i <= tu_min(n - 1, j + 3); i++)
      if (i != j || j % 5 != 0) D[i + (size_t)j * n] = th_rng_uniform(rng, -1, 1);
  const int b0 = n - nb;
  for (int a = b0; a < n; a++)
    for (int k = 0; k < n; k++) {
      int win = k < 6 || (k >= b0 - 6 && k < b0) || k >= b0;
      if (!win) continue;
      D[a + (size_t)k * n] = th_rng_uniform(rng, -1, 1);
      D[k + (size_t)a * n] = th_rng_uniform(rng, -1, 1);
    }
  for (int r = 0; r < n / 4; r++) {
    int i = (int)th_rng_uniform(rng, 0, n - 0.5), j = (int)th_rng_uniform(rng, 0, n - 0.5);
    D[i + (size_t)j * n] = th_rng_uniform(rng, -1, 1);
  }
  for (int j = 0; j < n; j++) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
      if (i != j) s += fabs(D[j + (size_t)i * n]);
    if (j % 5 != 0)
      D[j + (size_t)j * n] = (weak ? 0.3 : 1.0) * (1.0 + s) * (th_rng_uniform(rng, -1, 1) > 0 ? 1 : -1);
  }
  int e = 0;
  colptr[0] = 0;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++)
      if (D[i + (size_t)j * n] != 0.0) rowind[e++] = i;
    colptr[j + 1] = e;
  }
}

static void load_values(cosrod_sparse *A, const double *D) {
  for (int j = 0; j < A->n; j++)
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; k++) A->data[k] = D[A->rowind[k] + (size_t)j * A->n];
}

TEST(sparse_solve_vs_dgesv) {
  if (!cosrod_sparse_available()) {
    CHECK("KLU built in (libsuitesparse-dev)", 0);
    return;
  }
  static const int sizes[][2] = {{1, 1}, {6, 2}, {40, 6}, {300, 13}};
  th_rng rng;
  th_rng_seed(&rng, 4242);
  double worst = 0.0, worst_diff = 0.0, worst_mv = 0.0;
  for (int s = 0; s < 4; s++) {
    const int n = sizes[s][0], nb = sizes[s][1];
    double *D = malloc((size_t)n * n * sizeof *D), *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x),
           *xr = malloc(n * sizeof *xr), *y = malloc(n * sizeof *y);
    int *cp = malloc((n + 1) * sizeof *cp), *ri = malloc((size_t)n * n * sizeof *ri);
    make_matrix(n, nb, &rng, D, cp, ri, 1);
    cosrod_sparse *A = cosrod_sparse_create(n, cp, ri, NULL);
    CHECK("create", A != NULL);
    if (!A) continue;
    load_values(A, D);
    for (int i = 0; i < n; i++) b[i] = x[i] = th_rng_uniform(&rng, -1, 1);
    /* matvec against the dense product */
    cosrod_sparse_matvec(A, b, y);
    for (int i = 0; i < n; i++) {
      double r = 0.0;
      for (int j = 0; j < n; j++) r += D[i + (size_t)j * n] * b[j];
      worst_mv = fmax(worst_mv, fabs(r - y[i]));
    }
    const double cond = tu_cond1(n, D);
    if (cosrod_sparse_factor(A) != COSROD_OK || cosrod_sparse_solve(A, x) != COSROD_OK) worst = INFINITY;
    tu_dense_solve(n, D, b, xr);
    worst = fmax(worst, tu_rel_residual(n, D, x, b));
    worst_diff = fmax(worst_diff, tu_rel_diff(n, x, xr) / (cond * n * DBL_EPSILON));
    NOTE("n = %d: nnz = %d, cond_1 = %.3g", n, A->nnz, cond);
    cosrod_sparse_free(A);
    free(D), free(b), free(x), free(xr), free(y), free(cp), free(ri);
  }
  CHECK_LE("max relative residual, n = 1..300", worst, RESID_TOL);
  CHECK_LE("max difference to dgesv / (cond * n * u)", worst_diff, 1.0);
  CHECK_LE("max |A x - D x| (same products, summation order)", worst_mv, 1e-13);
}

/* Complex values (radau5's ((α + iβ)/h) I - J): KLU's klu_z_* against LAPACK zgesv. */
TEST(sparse_complex_vs_zgesv) {
  if (!cosrod_sparse_available()) {
    CHECK("KLU built in", 0);
    return;
  }
  const int n = 150, nb = 9;
  th_rng rng;
  th_rng_seed(&rng, 31337);
  double *D = malloc((size_t)n * n * sizeof *D);
  double complex *Z = malloc((size_t)n * n * sizeof *Z), *b = malloc(n * sizeof *b),
                 *x = malloc(n * sizeof *x), *xr = malloc(n * sizeof *xr);
  int *cp = malloc((n + 1) * sizeof *cp), *ri = malloc((size_t)n * n * sizeof *ri);
  make_matrix(n, nb, &rng, D, cp, ri, 1);
  cosrod_sparse *A = cosrod_sparse_create_complex(n, cp, ri, NULL);
  CHECK("create complex", A != NULL && A->is_complex);
  double worst = 0.0, worst_diff = 0.0;
  for (int round = 0; round < 2 && A; round++) { /* factor, then refactor with new imaginary parts */
    for (size_t k = 0; k < (size_t)n * n; k++)
      Z[k] = D[k] == 0.0 ? 0.0 : D[k] + I * th_rng_uniform(&rng, -0.5, 0.5) * fabs(D[k]);
    for (int j = 0; j < n; j++)
      for (int k = A->colptr[j]; k < A->colptr[j + 1]; k++) {
        double complex v = Z[A->rowind[k] + (size_t)j * n];
        A->data[2 * k] = creal(v), A->data[2 * k + 1] = cimag(v);
      }
    double *xi = (double *)x; /* interleaved (re, im), as C99 lays out double complex */
    for (int i = 0; i < n; i++) b[i] = x[i] = th_rng_uniform(&rng, -1, 1) + I * th_rng_uniform(&rng, -1, 1);
    if (cosrod_sparse_factor(A) != COSROD_OK || cosrod_sparse_solve(A, xi) != COSROD_OK) {
      worst = INFINITY;
      continue;
    }
    tu_zdense_solve(n, Z, b, xr);
    worst = fmax(worst, tu_zrel_residual(n, Z, x, b));
    worst_diff = fmax(worst_diff, tu_zrel_diff(n, x, xr));
  }
  CHECK_LE("complex: max relative residual (factor, refactor)", worst, RESID_TOL);
  /* cond_1 of the real part ~1e3 for these draws (weak dominance): 1e3 n u ~ 3e-11 */
  CHECK_LE("complex: max relative difference to zgesv", worst_diff, 1e-10);
  if (A) CHECK("second round refactored", A->nrefactor == 1);
  cosrod_sparse_free(A);
  free(D), free(Z), free(b), free(x), free(xr), free(cp), free(ri);
}

TEST(sparse_refactor_new_values) {
  if (!cosrod_sparse_available()) {
    CHECK("KLU built in", 0);
    return;
  }
  const int n = 120, nb = 7;
  th_rng rng;
  th_rng_seed(&rng, 77);
  double *D = malloc((size_t)n * n * sizeof *D), *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
  int *cp = malloc((n + 1) * sizeof *cp), *ri = malloc((size_t)n * n * sizeof *ri);
  make_matrix(n, nb, &rng, D, cp, ri, 0);
  cosrod_sparse *A = cosrod_sparse_create(n, cp, ri, NULL);
  CHECK("create", A != NULL);
  double worst = 0.0;
  for (int round = 0; round < 4 && A; round++) {
    /* new values on the same pattern: rounds 1, 2 scale the entries (same pivots
     * stay good: refactor), round 3 makes the matrix strongly non-dominant */
    for (size_t k = 0; k < (size_t)n * n; k++)
      if (D[k] != 0.0) D[k] *= round == 3 ? th_rng_uniform(&rng, -3, 3) : th_rng_uniform(&rng, 0.8, 1.2);
    for (int j = 0; j < n && round == 3; j++) D[j + (size_t)j * n] *= 1e-9;
    load_values(A, D);
    for (int i = 0; i < n; i++) b[i] = x[i] = th_rng_uniform(&rng, -1, 1);
    cosrod_status st = cosrod_sparse_factor(A);
    if (st != COSROD_OK || cosrod_sparse_solve(A, x) != COSROD_OK) {
      worst = INFINITY;
      continue;
    }
    worst = fmax(worst, tu_rel_residual(n, D, x, b));
  }
  CHECK_LE("relative residual over 4 value sets (refactor / re-pivot)", worst, RESID_TOL);
  if (A) {
    NOTE("pivoting factorisations %ld, refactorisations %ld", A->nfactor, A->nrefactor);
    CHECK("the value changes used refactor (3 calls after the first)", A->nrefactor == 3);
    CHECK("at least one pivoting factorisation", A->nfactor >= 1);
  }
  cosrod_sparse_free(A);
  free(D), free(b), free(x), free(cp), free(ri);
}

TEST(sparse_singular_and_pattern) {
  if (!cosrod_sparse_available()) {
    CHECK("KLU built in", 0);
    return;
  }
  /* 3 x 3, column 1 structurally present but zero */
  int cp[4] = {0, 2, 3, 5}, ri[5] = {0, 2, 1, 0, 2};
  cosrod_sparse *A = cosrod_sparse_create(3, cp, ri, NULL);
  CHECK("create", A != NULL);
  if (A) {
    A->data[0] = 2, A->data[1] = 1, A->data[2] = 0.0, A->data[3] = 1, A->data[4] = 3;
    CHECK("zero pivot column -> ERR_SINGULAR", cosrod_sparse_factor(A) == COSROD_ERR_SINGULAR);
    double b[3] = {1, 1, 1};
    CHECK("solve after a failed factor -> ERR_INVALID", cosrod_sparse_solve(A, b) == COSROD_ERR_INVALID);
    A->data[2] = 4.0;
    CHECK("recovers after new values", cosrod_sparse_factor(A) == COSROD_OK);
    CHECK("solve", cosrod_sparse_solve(A, b) == COSROD_OK);
    /* [2 0 1; 0 4 0; 1 0 3] x = 1: x = (2/5, 1/4, 1/5) */
    CHECK_NEAR("x0", b[0], 0.4, 1e-15);
    CHECK_NEAR("x1", b[1], 0.25, 1e-15);
    CHECK_NEAR("x2", b[2], 0.2, 1e-15);
    CHECK("find (2, 2)", cosrod_sparse_find(A, 2, 2) == 4);
    CHECK("find (1, 0) not stored", cosrod_sparse_find(A, 1, 0) == -1);
  }
  cosrod_sparse_free(A);
  int bad_ri[5] = {2, 0, 1, 0, 2}; /* column 0 not ascending */
  CHECK("unsorted rows refused", cosrod_sparse_pattern_check(3, cp, bad_ri) == 1);
  int dup_ri[5] = {0, 2, 1, 2, 2};
  CHECK("duplicate row refused", cosrod_sparse_pattern_check(3, cp, dup_ri) == 3);
  int out_ri[5] = {0, 3, 1, 0, 2};
  CHECK("row out of range refused", cosrod_sparse_pattern_check(3, cp, out_ri) == 1);
  CHECK("create refuses a bad pattern", cosrod_sparse_create(3, cp, bad_ri, NULL) == NULL);
}

/* Brute force: columns of one colour must not share a row. */
static int colouring_valid(int n, const int *cp, const int *ri, const int *colour) {
  int *seen = malloc((size_t)n * sizeof *seen); /* seen[i]: colour stamp of row i */
  int ok = 1, nc = 0;
  for (int j = 0; j < n; j++) nc = colour[j] + 1 > nc ? colour[j] + 1 : nc;
  for (int c = 0; c < nc && ok; c++) {
    for (int i = 0; i < n; i++) seen[i] = 0;
    for (int j = 0; j < n; j++) {
      if (colour[j] != c) continue;
      for (int k = cp[j]; k < cp[j + 1]; k++) {
        if (seen[ri[k]]) ok = 0;
        seen[ri[k]] = 1;
      }
    }
  }
  free(seen);
  return ok;
}

TEST(sparse_cpr_groups) {
  /* tridiagonal n = 50: the band grouping ml + mu + 1 = 3 is optimal, greedy finds it */
  enum { N = 50 };
  int cp[N + 1], ri[3 * N], colour[N], e = 0;
  cp[0] = 0;
  for (int j = 0; j < N; j++) {
    for (int i = j - 1; i <= j + 1; i++)
      if (i >= 0 && i < N) ri[e++] = i;
    cp[j + 1] = e;
  }
  int nc = cosrod_sparse_colour(N, cp, ri, colour);
  CHECK("tridiagonal: 3 groups", nc == 3);
  CHECK("tridiagonal: valid", colouring_valid(N, cp, ri, colour));
  /* the rods + body pattern: a band (7 wide) plus dense body rows/columns:
   * the body columns share rows with everything in their windows, the band
   * columns outside the windows still group with stride 7 */
  th_rng rng;
  th_rng_seed(&rng, 9);
  const int n = 200, nb = 6;
  double *D = malloc((size_t)n * n * sizeof *D);
  int *cp2 = malloc((n + 1) * sizeof *cp2), *ri2 = malloc((size_t)n * n * sizeof *ri2),
      *col2 = malloc(n * sizeof *col2);
  make_matrix(n, nb, &rng, D, cp2, ri2, 0);
  int nc2 = cosrod_sparse_colour(n, cp2, ri2, col2);
  NOTE("rods + body pattern n = %d: %d groups (band alone: 7; dense would be %d)", n, nc2, n);
  CHECK("rods + body: valid", colouring_valid(n, cp2, ri2, col2));
  CHECK_LE("rods + body: groups well below n", nc2, n / 3);
  free(D), free(cp2), free(ri2), free(col2);
}

static const th_case cases[] = {
    TH_CASE(sparse_solve_vs_dgesv),      TH_CASE(sparse_complex_vs_zgesv),
    TH_CASE(sparse_refactor_new_values), TH_CASE(sparse_singular_and_pattern),
    TH_CASE(sparse_cpr_groups),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
