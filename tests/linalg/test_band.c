// SPDX-License-Identifier: Apache-2.0
/* Real band matrices: layout, assembly, products and LU (own and LAPACK)
 * against dense LAPACK dgesv on the same matrix.  Tolerances: see
 * linalg_testutil.h (RESID_TOL) and the comment at each check. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "linalg_testutil.h"

static const cosrod_linalg_backend backends[2] = {COSROD_LINALG_OWN, COSROD_LINALG_LAPACK};

/* Shapes (n, ml, mu) covering bandwidth 0, n = 1, asymmetric bands, bands
 * wider than n (clamped) and the rod bandwidths. */
static const int shapes[][3] = {{1, 0, 0},    {1, 3, 2},     {2, 1, 1},   {5, 0, 0},    {7, 2, 0},
                                {7, 0, 3},    {10, 3, 1},    {10, 1, 4},  {12, 20, 20}, {40, 5, 5},
                                {70, 10, 10}, {100, 20, 20}, {150, 2, 7}, {200, 30, 30}};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

/* Solve random systems for every shape with A filled by tu_fill_band(dominance)
 * and report the worst relative residual and the worst relative difference
 * to dense LAPACK dgesv. */
static void solve_all_shapes(cosrod_linalg_backend be, double dominance, uint64_t seed, double *worst_res,
                             double *worst_diff) {
  th_rng rng;
  th_rng_seed(&rng, seed);
  *worst_res = 0.0;
  *worst_diff = 0.0;
  for (int s = 0; s < NSHAPES; ++s) {
    const int n = shapes[s][0];
    cosrod_band *A = cosrod_band_create(n, shapes[s][1], shapes[s][2], NULL);
    cosrod_band_set_backend(A, be);
    tu_fill_band(A, &rng, dominance);
    double *D = tu_dense_from_band(A);
    double *b = malloc(n * sizeof(double)), *x = malloc(n * sizeof(double)), *xr = malloc(n * sizeof(double));
    for (int i = 0; i < n; ++i) b[i] = x[i] = th_rng_uniform(&rng, -1, 1);
    cosrod_status st = cosrod_band_factor(A);
    if (st != COSROD_OK) {
      NOTE("shape %d: factor returned %s", s, cosrod_status_name(st));
      *worst_res = INFINITY;
    } else {
      cosrod_band_solve(A, x);
      tu_dense_solve(n, D, b, xr);
      *worst_res = fmax(*worst_res, tu_rel_residual(n, D, x, b));
      *worst_diff = fmax(*worst_diff, tu_rel_diff(n, x, xr));
    }
    free(D);
    free(b);
    free(x);
    free(xr);
    cosrod_band_free(A);
  }
}

TEST(band_layout_is_lapack_band_storage) {
  cosrod_band *A = cosrod_band_create(6, 2, 1, NULL);
  CHECK("ld = 2*ml + mu + 1 = 6", A->ld == 6 && A->smu == 3);
  int ok = 1;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i)
      if (cosrod_band_in_band(A, i, j)) cosrod_band_set(A, i, j, 10.0 * i + j);
  /* LAPACK: A(i,j) is AB(kl+ku+1+i-j, j) in 1-based indices. */
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i)
      if (cosrod_band_in_band(A, i, j)) ok &= A->data[(2 + 1 + i - j) + j * 6] == 10.0 * i + j;
  CHECK("every entry sits at AB(kl+ku+i-j, j)", ok);
  CHECK("band_col(A,j)[i-j] is A(i,j)",
        cosrod_band_col(A, 3)[1] == 43.0 && cosrod_band_col(A, 3)[-1] == 23.0);
  CHECK("(0,2) is outside the band (mu = 1)", !cosrod_band_in_band(A, 0, 2) && cosrod_band_in_band(A, 3, 1));
  CHECK("set_checked outside the band is ERR_INVALID",
        cosrod_band_set_checked(A, 0, 2, 1.0) == COSROD_ERR_INVALID &&
            cosrod_band_add_checked(A, 6, 0, 1.0) == COSROD_ERR_INVALID);
  CHECK("add_checked inside the band adds",
        cosrod_band_add_checked(A, 1, 2, 0.5) == COSROD_OK && cosrod_band_get_checked(A, 1, 2) == 12.5);
  CHECK("get_checked outside the band is 0", cosrod_band_get_checked(A, 5, 0) == 0.0);
  double D[36], W[36];
  CHECK("to_dense", cosrod_band_to_dense(A, D, 6) == COSROD_OK);
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i)
      W[i + 6 * j] = (i - j <= 2 && j - i <= 1) ? (10.0 * i + j + (i == 1 && j == 2 ? 0.5 : 0.0)) : 0.0;
  CHECK_MAT("to_dense equals the entries written (exact)", D, W, 6, 6, 6, 6, 0.0, 0.0);
  cosrod_band_free(A);
  cosrod_band *B = cosrod_band_create(4, 9, 7, NULL);
  CHECK("bandwidths larger than n-1 are clamped", B->ml == 3 && B->mu == 3 && B->ld == 10);
  cosrod_band_free(B);
  CHECK("n = 0 and negative bandwidths give NULL",
        cosrod_band_create(0, 1, 1, NULL) == NULL && cosrod_band_create(3, -1, 0, NULL) == NULL);
  cosrod_band_free(NULL);
}

TEST(band_lu_diag_dominant_own) {
  double res, diff;
  solve_all_shapes(COSROD_LINALG_OWN, 1.0, 11, &res, &diff);
  CHECK_LE("max relative residual over 14 shapes (tol RESID_TOL)", res, RESID_TOL);
  /* Diagonally dominant: condition number <= ~3, so the solutions of two
   * backward-stable solvers agree to a few hundred u. */
  CHECK_LE("max relative difference to dense dgesv", diff, 1e-13);
}

TEST(band_lu_diag_dominant_lapack) {
  double res, diff;
  solve_all_shapes(COSROD_LINALG_LAPACK, 1.0, 11, &res, &diff);
  CHECK_LE("max relative residual over 14 shapes (tol RESID_TOL)", res, RESID_TOL);
  CHECK_LE("max relative difference to dense dgesv", diff, 1e-13);
}

TEST(band_lu_needs_pivoting) {
  /* Not dominant: random entries, so partial pivoting actually swaps rows
   * and creates fill-in.  The residual bound (RESID_TOL) still holds; the
   * difference to dgesv is bounded by cond * residual (cond noted). */
  for (int k = 0; k < 2; ++k) {
    double res, diff;
    solve_all_shapes(backends[k], 0.0, 23, &res, &diff);
    NOTE("backend %s: residual %.3g, difference to dgesv %.3g", cosrod_linalg_backend_name(backends[k]), res,
         diff);
    CHECK_LE("max relative residual, random non-dominant bands", res, RESID_TOL);
  }
  /* Zero diagonal: the LU must pivot at every step. */
  const int n = 9;
  cosrod_band *A = cosrod_band_create(n, 1, 1, NULL);
  for (int i = 0; i + 1 < n; ++i) {
    cosrod_band_set(A, i + 1, i, 1.0 + i);
    cosrod_band_set(A, i, i + 1, 2.0 - 0.1 * i);
  }
  cosrod_band_set(A, n - 1, n - 1, 3.0); /* n odd: make it non-singular */
  double *D = tu_dense_from_band(A);
  double b[9], x[9], xr[9];
  for (int i = 0; i < n; ++i) b[i] = x[i] = i + 1.0;
  CHECK("factor with zero diagonal succeeds", cosrod_band_factor(A) == COSROD_OK);
  int swaps = 0;
  for (int i = 0; i < n; ++i) swaps += A->ipiv[i] != i;
  CHECK("rows were swapped", swaps > 0);
  cosrod_band_solve(A, x);
  tu_dense_solve(n, D, b, xr);
  CHECK_LE("zero-diagonal system: residual", tu_rel_residual(n, D, x, b), RESID_TOL);
  CHECK_LE("zero-diagonal system: difference to dgesv (cond ~ 10)", tu_rel_diff(n, x, xr), 1e-13);
  free(D);
  cosrod_band_free(A);
}

/* Symmetric random band S shifted next to one of its eigenvalues (from LAPACK
 * dsbev): A = S - (lambda_k + delta) I with delta = 1e-10 ||S||, so cond(A) ~
 * 1e10..1e12 with all rows of similar size, and partial pivoting is needed
 * (A is indefinite).  b = A x_true. */
static cosrod_band *near_singular_band(int n, int w, th_rng *rng, double **D, double *xt, double *b) {
  cosrod_band *A = cosrod_band_create(n, w, w, NULL);
  double *ab = calloc((size_t)(w + 1) * n, sizeof(double)), *ev = malloc(n * sizeof(double));
  for (int j = 0; j < n; ++j)
    for (int i = tu_max(0, j - w); i <= j; ++i) {
      const double v = th_rng_uniform(rng, -1, 1);
      cosrod_band_set(A, i, j, v);
      cosrod_band_set(A, j, i, v);
      ab[(w + i - j) + (size_t)j * (w + 1)] = v;
    }
  LAPACKE_dsbev(LAPACK_COL_MAJOR, 'N', 'U', n, w, ab, w + 1, ev, NULL, 1);
  const double snorm = fmax(fabs(ev[0]), fabs(ev[n - 1]));
  cosrod_band_scale_add_identity(A, 1.0, -(ev[n / 3] + 1e-10 * snorm));
  *D = tu_dense_from_band(A);
  for (int i = 0; i < n; ++i) xt[i] = th_rng_uniform(rng, -1, 1);
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += (*D)[i + (size_t)j * n] * xt[j];
    b[i] = s;
  }
  free(ab);
  free(ev);
  return A;
}

TEST(band_lu_ill_conditioned) {
  /* Backward stability keeps the relative residual below RESID_TOL whatever
   * the condition number; the forward error is only bounded by ~cond * n * u
   * (Higham, Thm 9.5 with growth ~1), checked against x_true and dgesv. */
  th_rng rng;
  th_rng_seed(&rng, 7);
  const int cfg[3][2] = {{60, 2}, {150, 10}, {200, 20}};
  for (int c = 0; c < 3; ++c) {
    const int n = cfg[c][0];
    for (int k = 0; k < 2; ++k) {
      double *D, *xt = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
                 *x = malloc(n * sizeof(double)), *xr = malloc(n * sizeof(double));
      th_rng r2;
      th_rng_seed(&r2, 100 + c);
      cosrod_band *A = near_singular_band(n, cfg[c][1], &r2, &D, xt, b);
      cosrod_band_set_backend(A, backends[k]);
      const double cond = tu_cond1(n, D);
      memcpy(x, b, n * sizeof(double));
      CHECK("factor ill-conditioned band", cosrod_band_factor(A) == COSROD_OK);
      cosrod_band_solve(A, x);
      tu_dense_solve(n, D, b, xr);
      NOTE("n=%d ml=mu=%d %s: cond_1 = %.3g, error vs x_true %.3g", n, A->ml,
           cosrod_linalg_backend_name(backends[k]), cond, tu_rel_diff(n, x, xt));
      CHECK("the matrix is really ill-conditioned (cond_1 > 1e9)", cond > 1e9);
      CHECK_LE("relative residual (backward stable: independent of cond)", tu_rel_residual(n, D, x, b),
               RESID_TOL);
      CHECK_LE("error vs x_true <= cond * n * u", tu_rel_diff(n, x, xt), cond * n * DBL_EPSILON);
      CHECK_LE("difference to dgesv <= cond * n * u", tu_rel_diff(n, x, xr), cond * n * DBL_EPSILON);
      free(D);
      free(xt);
      free(b);
      free(x);
      free(xr);
      cosrod_band_free(A);
    }
  }
  /* Graded rows and columns (scales 10^U(-3,3)), asymmetric band. */
  const int n = 90;
  double r[90], cs[90];
  for (int i = 0; i < n; ++i) {
    r[i] = pow(10.0, th_rng_uniform(&rng, -3, 3));
    cs[i] = pow(10.0, th_rng_uniform(&rng, -3, 3));
  }
  for (int k = 0; k < 2; ++k) {
    cosrod_band *A = cosrod_band_create(n, 3, 8, NULL);
    cosrod_band_set_backend(A, backends[k]);
    th_rng r2;
    th_rng_seed(&r2, 99);
    tu_fill_band(A, &r2, 0.0);
    for (int j = 0; j < n; ++j)
      for (int i = tu_max(0, j - A->mu); i <= tu_min(n - 1, j + A->ml); ++i)
        cosrod_band_set(A, i, j, cosrod_band_get(A, i, j) * r[i] * cs[j]);
    double *D = tu_dense_from_band(A), b[90], x[90];
    for (int i = 0; i < n; ++i) b[i] = x[i] = th_rng_uniform(&r2, -1, 1);
    CHECK("factor graded band", cosrod_band_factor(A) == COSROD_OK);
    cosrod_band_solve(A, x);
    NOTE("graded %s: cond_1 = %.3g", cosrod_linalg_backend_name(backends[k]), tu_cond1(n, D));
    CHECK_LE("graded band: relative residual", tu_rel_residual(n, D, x, b), RESID_TOL);
    free(D);
    cosrod_band_free(A);
  }
}

TEST(band_bandwidth0_and_n1) {
  /* ml = mu = 0: LU is the diagonal itself, x_i = b_i / d_i.  LAPACK divides
   * (exact to the last bit); the own solve multiplies by the stored 1/d_i,
   * two roundings: |error| <= 2 u |x_i|. */
  for (int k = 0; k < 2; ++k) {
    cosrod_band *A = cosrod_band_create(8, 0, 0, NULL);
    cosrod_band_set_backend(A, backends[k]);
    double b[8], want[8];
    for (int i = 0; i < 8; ++i) {
      cosrod_band_set(A, i, i, (i % 2 ? -1.0 : 1.0) * (0.5 + i * 1.7));
      b[i] = 3.0 - i;
      want[i] = b[i] / ((i % 2 ? -1.0 : 1.0) * (0.5 + i * 1.7));
    }
    CHECK("ld = 1 for bandwidth 0", A->ld == 1);
    CHECK("factor diagonal", cosrod_band_factor(A) == COSROD_OK);
    cosrod_band_solve(A, b);
    CHECK_VEC("diagonal solve is b/d (to 2 u)", b, want, 8, 2 * DBL_EPSILON, 0.0);
    cosrod_band_free(A);
    /* n = 1 with requested bandwidths 3, 2 (clamped to 0). */
    cosrod_band *B = cosrod_band_create(1, 3, 2, NULL);
    cosrod_band_set_backend(B, backends[k]);
    cosrod_band_set(B, 0, 0, -4.0);
    double x = 3.0;
    CHECK("n = 1 factor", cosrod_band_factor(B) == COSROD_OK);
    cosrod_band_solve(B, &x);
    CHECK_NEAR("n = 1: x = 3 / -4 (exact)", x, -0.75, 0.0);
    cosrod_band_zero(B);
    CHECK("n = 1 zero matrix is ERR_SINGULAR", cosrod_band_factor(B) == COSROD_ERR_SINGULAR);
    cosrod_band_free(B);
  }
}

TEST(band_singular_reported) {
  for (int k = 0; k < 2; ++k) {
    const char *be = cosrod_linalg_backend_name(backends[k]);
    th_rng rng;
    th_rng_seed(&rng, 31);
    /* (a) zero column 5 */
    cosrod_band *A = cosrod_band_create(12, 2, 3, NULL);
    cosrod_band_set_backend(A, backends[k]);
    tu_fill_band(A, &rng, 1.0);
    for (int i = 2; i <= 7; ++i) cosrod_band_set(A, i, 5, 0.0);
    cosrod_status st = cosrod_band_factor(A);
    NOTE("%s zero column: %s at column %d", be, cosrod_status_name(st), A->singular_col);
    CHECK("zero column -> ERR_SINGULAR", st == COSROD_ERR_SINGULAR);
    CHECK("singular column is 5", A->singular_col == 5);
    double x[12] = {0};
    CHECK("solve after a failed factorisation -> ERR_INVALID", cosrod_band_solve(A, x) == COSROD_ERR_INVALID);
    /* (b) zero row 7: elimination keeps it zero until it must be the pivot */
    tu_fill_band(A, &rng, 1.0);
    for (int j = 5; j <= 10; ++j) cosrod_band_set(A, 7, j, 0.0);
    st = cosrod_band_factor(A);
    NOTE("%s zero row: %s at column %d", be, cosrod_status_name(st), A->singular_col);
    CHECK("zero row -> ERR_SINGULAR", st == COSROD_ERR_SINGULAR && A->singular_col >= 0);
    /* (c) rank-1 tridiagonal 2x2 blocks [1 2; 2 4] (exactly singular:
     * elimination computes 4 - 2*2 = 0 exactly) */
    cosrod_band *C = cosrod_band_create(2, 1, 1, NULL);
    cosrod_band_set_backend(C, backends[k]);
    cosrod_band_set(C, 0, 0, 1.0);
    cosrod_band_set(C, 0, 1, 2.0);
    cosrod_band_set(C, 1, 0, 2.0);
    cosrod_band_set(C, 1, 1, 4.0);
    st = cosrod_band_factor(C);
    CHECK("[1 2; 2 4] -> ERR_SINGULAR at column 1", st == COSROD_ERR_SINGULAR && C->singular_col == 1);
    /* (d) after a failure the storage holds partial factors: re-assemble
     * everything, then refactoring works */
    cosrod_band_zero(C);
    cosrod_band_set(C, 0, 0, 1.0);
    cosrod_band_set(C, 0, 1, 2.0);
    cosrod_band_set(C, 1, 0, 2.0);
    cosrod_band_set(C, 1, 1, 5.0);
    double y[2] = {3.0, 7.0};
    CHECK("repaired matrix factors",
          cosrod_band_factor(C) == COSROD_OK && cosrod_band_solve(C, y) == COSROD_OK);
    /* [1 2; 2 5] x = (3, 7): x = (1, 1) */
    CHECK_NEAR("repaired solution x0 = 1", y[0], 1.0, 4 * DBL_EPSILON);
    CHECK_NEAR("repaired solution x1 = 1", y[1], 1.0, 4 * DBL_EPSILON);
    cosrod_band_free(C);
    /* (e) NaN entry */
    tu_fill_band(A, &rng, 1.0);
    cosrod_band_set(A, 4, 3, NAN);
    st = cosrod_band_factor(A);
    CHECK("NaN entry -> ERR_NONFINITE", st == COSROD_ERR_NONFINITE);
    cosrod_band_free(A);
    /* (f) subnormal pivot p = 2^-1030 in [[p, 0], [p/2, 1]]: own divides
     * (multiplier exactly 1/2); reference dgbtf2 multiplies by 1/p = Inf, which
     * the LAPACK backend must report as ERR_NONFINITE, never as OK. */
    const double p = ldexp(1.0, -1030);
    cosrod_band *T = cosrod_band_create(2, 1, 0, NULL);
    cosrod_band_set_backend(T, backends[k]);
    cosrod_band_set(T, 0, 0, p);
    cosrod_band_set(T, 1, 0, p / 2);
    cosrod_band_set(T, 1, 1, 1.0);
    st = cosrod_band_factor(T);
    NOTE("%s subnormal pivot: %s", be, cosrod_status_name(st));
    if (backends[k] == COSROD_LINALG_OWN || st == COSROD_OK) {
      double z[2] = {p, 1.0};
      CHECK("subnormal pivot factors", st == COSROD_OK && cosrod_band_solve(T, z) == COSROD_OK);
      CHECK_NEAR("multiplier exactly 1/2", cosrod_band_col(T, 0)[1], 0.5, 0.0);
      CHECK_NEAR("x0 = 1 (p/p exact)", z[0], 1.0, 0.0);
      CHECK_NEAR("x1 = 1 - p/2 = 1 after rounding", z[1], 1.0, 0.0);
    } else {
      CHECK("LAPACK Inf multiplier -> ERR_NONFINITE", st == COSROD_ERR_NONFINITE);
    }
    cosrod_band_free(T);
  }
}

TEST(band_own_factors_match_dgbtrf) {
  /* Same algorithm as LAPACK's dgbtf2 (which dgbtrf uses for these
   * bandwidths): the pivots must be identical and the stored factors equal
   * up to rounding (different operation order / FMA: ~n u relative). */
  th_rng rng;
  th_rng_seed(&rng, 5);
  const int cfg[4][3] = {{30, 3, 2}, {50, 5, 5}, {64, 0, 4}, {80, 10, 7}};
  for (int c = 0; c < 4; ++c) {
    cosrod_band *A = cosrod_band_create(cfg[c][0], cfg[c][1], cfg[c][2], NULL);
    cosrod_band *B = cosrod_band_create(cfg[c][0], cfg[c][1], cfg[c][2], NULL);
    tu_fill_band(A, &rng, 0.0);
    cosrod_band_copy(B, A);
    cosrod_band_set_backend(B, COSROD_LINALG_LAPACK);
    CHECK("own factor", cosrod_band_factor(A) == COSROD_OK);
    CHECK("lapack factor", cosrod_band_factor(B) == COSROD_OK);
    int same = 1;
    for (int i = 0; i < A->n; ++i) same &= A->ipiv[i] + 1 == B->ipiv[i];
    CHECK("identical pivot sequence", same);
    double scale = 0.0;
    for (int k = 0; k < A->n * A->ld; ++k) scale = fmax(scale, fabs(B->data[k]));
    CHECK_MAT("band LU storage equals dgbtrf's (atol 1e-12 * max|LU|)", A->data, B->data, A->ld, A->n, A->ld,
              B->ld, 0.0, 1e-12 * scale);
    cosrod_band_free(A);
    cosrod_band_free(B);
  }
}

TEST(band_solve_multi_rhs) {
  th_rng rng;
  th_rng_seed(&rng, 17);
  const int n = 50, nrhs = 4, ldb = 53;
  for (int k = 0; k < 2; ++k) {
    cosrod_band *A = cosrod_band_create(n, 4, 6, NULL);
    cosrod_band_set_backend(A, backends[k]);
    tu_fill_band(A, &rng, 0.0);
    double *D = tu_dense_from_band(A);
    double B[53 * 4], B0[53 * 4], x1[50];
    for (int i = 0; i < ldb * nrhs; ++i) B[i] = B0[i] = th_rng_uniform(&rng, -1, 1);
    CHECK("factor", cosrod_band_factor(A) == COSROD_OK);
    CHECK("solve_multi", cosrod_band_solve_multi(A, nrhs, B, ldb) == COSROD_OK);
    double worst = 0.0, diff = 0.0;
    for (int r = 0; r < nrhs; ++r) {
      worst = fmax(worst, tu_rel_residual(n, D, B + r * ldb, B0 + r * ldb));
      memcpy(x1, B0 + r * ldb, n * sizeof(double));
      cosrod_band_solve(A, x1);
      diff = fmax(diff, tu_rel_diff(n, B + r * ldb, x1));
    }
    CHECK_LE("max residual over 4 right-hand sides", worst, RESID_TOL);
    /* Same arithmetic per column for own; LAPACK dgbtrs blocks the
     * triangular solve for several columns, so allow rounding. */
    CHECK_LE("multi-rhs equals single solves", diff, k == 0 ? 0.0 : 1e-14);
    int pad_ok = 1;
    for (int r = 0; r < nrhs; ++r)
      for (int i = n; i < ldb; ++i) pad_ok &= B[i + r * ldb] == B0[i + r * ldb];
    CHECK("rows n..ldb-1 of B untouched", pad_ok);
    CHECK("nrhs = 0 is a no-op", cosrod_band_solve_multi(A, 0, B, ldb) == COSROD_OK);
    CHECK("ldb < n is ERR_INVALID", cosrod_band_solve_multi(A, 1, B, n - 1) == COSROD_ERR_INVALID);
    free(D);
    cosrod_band_free(A);
  }
}

TEST(band_matvec_gemv) {
  th_rng rng;
  th_rng_seed(&rng, 3);
  const int cfg[3][3] = {{1, 0, 0}, {9, 0, 2}, {40, 6, 3}};
  for (int c = 0; c < 3; ++c) {
    const int n = cfg[c][0];
    cosrod_band *A = cosrod_band_create(n, cfg[c][1], cfg[c][2], NULL);
    tu_fill_band(A, &rng, 0.0);
    double *D = tu_dense_from_band(A);
    double x[40], y[40], want[40], y0[40];
    for (int i = 0; i < n; ++i) {
      x[i] = th_rng_uniform(&rng, -1, 1);
      y[i] = y0[i] = th_rng_uniform(&rng, -1, 1);
    }
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += D[i + j * n] * x[j];
      want[i] = 2.5 * s - 0.5 * y0[i];
    }
    CHECK("gemv", cosrod_band_gemv(A, 2.5, x, -0.5, y) == COSROD_OK);
    /* Sums of <= 10 products of numbers <= 1 in a different order: 1e-14. */
    CHECK_VEC("y = 2.5 A x - 0.5 y", y, want, n, 0.0, 1e-14);
    for (int i = 0; i < n; ++i) {
      y[i] = NAN;
      want[i] = (want[i] + 0.5 * y0[i]) / 2.5;
    }
    CHECK("matvec", cosrod_band_matvec(A, x, y) == COSROD_OK);
    CHECK_VEC("y = A x ignores NaN in the old y", y, want, n, 0.0, 1e-14);
    double rs = 0.0;
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += fabs(D[i + j * n]);
      rs = fmax(rs, s);
    }
    CHECK_REL("norm_inf equals the dense max row sum", cosrod_band_norm_inf(A), rs, 1e-15);
    cosrod_band_factor(A);
    CHECK("matvec on a factored matrix is ERR_INVALID", cosrod_band_matvec(A, x, y) == COSROD_ERR_INVALID);
    CHECK("norm_inf of a factored matrix is NaN", isnan(cosrod_band_norm_inf(A)));
    free(D);
    cosrod_band_free(A);
  }
}

TEST(band_assembly_combinations) {
  /* Integrator forms: E = a J + b M and A <- c A + d I, against the dense
   * formulas (each entry is one or two roundings: rtol 1e-15). */
  th_rng rng;
  th_rng_seed(&rng, 41);
  const int n = 30;
  cosrod_band *J = cosrod_band_create(n, 4, 3, NULL);
  cosrod_band *M = cosrod_band_create(n, 1, 2, NULL);
  cosrod_band *E = cosrod_band_create(n, 5, 3, NULL);
  tu_fill_band(J, &rng, 0.0);
  tu_fill_band(M, &rng, 2.0);
  double *DJ = tu_dense_from_band(J), *DM = tu_dense_from_band(M);
  double *want = calloc(n * n, sizeof(double)), *got = calloc(n * n, sizeof(double));
  const double a = -1.0, b = 3.6378342527444962 / 0.01;
  /* Leave junk in E (a factorisation) first: assembly must clear it. */
  tu_fill_band(E, &rng, 1.0);
  cosrod_band_factor(E);
  CHECK("E = a J + b M", cosrod_band_set_combination(E, a, J, b, M) == COSROD_OK);
  CHECK("assembly marks E unfactored", E->factored == 0);
  for (int k = 0; k < n * n; ++k) want[k] = a * DJ[k] + b * DM[k];
  cosrod_band_to_dense(E, got, n);
  CHECK_MAT("E = -J + (gamma/h) M", got, want, n, n, n, n, 1e-15, 0.0);
  int fill_clean = 1;
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < E->ml; ++r) fill_clean &= E->data[r + j * E->ld] == 0.0;
  CHECK("fill-in rows cleared", fill_clean);
  /* M == NULL: identity */
  cosrod_band_set_combination(E, 2.0, J, -0.5, NULL);
  for (int k = 0; k < n * n; ++k) want[k] = 2.0 * DJ[k] - 0.5 * (k % (n + 1) == 0);
  cosrod_band_to_dense(E, got, n);
  CHECK_MAT("E = 2 J - 0.5 I", got, want, n, n, n, n, 1e-15, 0.0);
  /* in place: E <- c E + d I and E <- c E + d M */
  cosrod_band_scale_add_identity(E, -3.0, 1.25);
  for (int k = 0; k < n * n; ++k) want[k] = -3.0 * want[k] + 1.25 * (k % (n + 1) == 0);
  cosrod_band_to_dense(E, got, n);
  CHECK_MAT("E <- -3 E + 1.25 I", got, want, n, n, n, n, 1e-15, 0.0);
  CHECK("scale_add with M", cosrod_band_scale_add(E, 0.5, 4.0, M) == COSROD_OK);
  for (int k = 0; k < n * n; ++k) want[k] = 0.5 * want[k] + 4.0 * DM[k];
  cosrod_band_to_dense(E, got, n);
  CHECK_MAT("E <- 0.5 E + 4 M", got, want, n, n, n, n, 1e-15, 0.0);
  /* copy into a wider band */
  CHECK("copy J into E (wider)", cosrod_band_copy(E, J) == COSROD_OK);
  cosrod_band_to_dense(E, got, n);
  CHECK_MAT("copy is exact", got, DJ, n, n, n, n, 0.0, 0.0);
  /* dimension errors */
  cosrod_band *S = cosrod_band_create(n, 1, 1, NULL), *T = cosrod_band_create(n + 1, 5, 5, NULL);
  CHECK("copy into a narrower band -> ERR_DIMENSION", cosrod_band_copy(S, J) == COSROD_ERR_DIMENSION);
  CHECK("combination into a narrower band -> ERR_DIMENSION",
        cosrod_band_set_combination(S, 1.0, J, 1.0, NULL) == COSROD_ERR_DIMENSION);
  CHECK("different n -> ERR_DIMENSION",
        cosrod_band_set_combination(T, 1.0, J, 1.0, M) == COSROD_ERR_DIMENSION);
  CHECK("M aliasing E -> ERR_INVALID", cosrod_band_set_combination(E, 1.0, J, 1.0, E) == COSROD_ERR_INVALID);
  CHECK("unknown backend -> ERR_INVALID",
        cosrod_band_set_backend(E, (cosrod_linalg_backend)7) == COSROD_ERR_INVALID);
  cosrod_band_free(S);
  cosrod_band_free(T);
  free(DJ);
  free(DM);
  free(want);
  free(got);
  cosrod_band_free(J);
  cosrod_band_free(M);
  cosrod_band_free(E);
}

TEST(band_refactor_in_time_loop) {
  /* An integrator re-forms (gamma/h) M - J with new h and refactors the same
   * object many times; stale fill-in from earlier factorisations must not
   * leak into later ones (fill-in rows are overwritten by set_combination and
   * cleared again by the own factorisation). */
  th_rng rng;
  th_rng_seed(&rng, 77);
  const int n = 64;
  for (int k = 0; k < 2; ++k) {
    cosrod_band *J = cosrod_band_create(n, 5, 5, NULL), *E = cosrod_band_create(n, 5, 5, NULL);
    cosrod_band_set_backend(E, backends[k]);
    tu_fill_band(J, &rng, 0.0);
    double worst = 0.0, b[64], x[64];
    for (int step = 0; step < 20; ++step) {
      const double g = 0.3 + 0.7 * step; /* includes small shifts: pivoting */
      cosrod_band_set_combination(E, -1.0, J, g, NULL);
      double *D = tu_dense_from_band(E);
      if (cosrod_band_factor(E) != COSROD_OK) worst = INFINITY;
      for (int i = 0; i < n; ++i) b[i] = x[i] = th_rng_uniform(&rng, -1, 1);
      cosrod_band_solve(E, x);
      worst = fmax(worst, tu_rel_residual(n, D, x, b));
      free(D);
    }
    CHECK_LE("max residual over 20 re-assemblies and refactorisations", worst, RESID_TOL);
    cosrod_band_free(J);
    cosrod_band_free(E);
  }
}

TEST(band_print_debug) {
  cosrod_band *A = cosrod_band_create(4, 1, 0, NULL);
  cosrod_band_set(A, 0, 0, 1.5);
  cosrod_band_set(A, 1, 0, -2.0);
  FILE *f = tmpfile();
  cosrod_band_print(A, f);
  rewind(f);
  char buf[1024] = {0};
  size_t len = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  NOTE("printed %zu bytes", len);
  CHECK("header names the shape", strstr(buf, "n=4 ml=1 mu=0") != NULL);
  CHECK("entries printed", strstr(buf, "1.5000e+00") != NULL && strstr(buf, "-2.0000e+00") != NULL);
  CHECK("out-of-band entries shown as '.'", strchr(buf, '.') != NULL && strstr(buf, "          .") != NULL);
  int lines = 0;
  for (size_t i = 0; i < len; ++i) lines += buf[i] == '\n';
  CHECK("one header line + 4 rows", lines == 5);
  cosrod_band_free(A);
}

static const th_case cases[] = {
    TH_CASE(band_layout_is_lapack_band_storage),
    TH_CASE(band_lu_diag_dominant_own),
    TH_CASE(band_lu_diag_dominant_lapack),
    TH_CASE(band_lu_needs_pivoting),
    TH_CASE(band_lu_ill_conditioned),
    TH_CASE(band_bandwidth0_and_n1),
    TH_CASE(band_singular_reported),
    TH_CASE(band_own_factors_match_dgbtrf),
    TH_CASE(band_solve_multi_rhs),
    TH_CASE(band_matvec_gemv),
    TH_CASE(band_assembly_combinations),
    TH_CASE(band_refactor_in_time_loop),
    TH_CASE(band_print_debug),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
