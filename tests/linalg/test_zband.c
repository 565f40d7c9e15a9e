// SPDX-License-Identifier: Apache-2.0
/* Complex band matrices (RADAU5's ((alpha + i beta)/h) M - J): assembly,
 * LU (own and LAPACK zgbtrf) against dense LAPACK zgesv, split solves,
 * singular and badly scaled matrices.  Residual tolerance RESID_TOL: see
 * linalg_testutil.h (complex arithmetic adds a factor <= 4 to gamma_w, still
 * far below 1e-12). */
#include <float.h>
#include <string.h>

#include "linalg_testutil.h"

static const cosrod_linalg_backend backends[2] = {COSROD_LINALG_OWN, COSROD_LINALG_LAPACK};
static const double RADAU_ALPHA = 2.6810828736277523, RADAU_BETA = 3.0504301992474105;

static void zfill_band(cosrod_zband *Z, th_rng *rng) {
  cosrod_zband_zero(Z);
  for (int j = 0; j < Z->n; ++j)
    for (int i = tu_max(0, j - Z->mu); i <= tu_min(Z->n - 1, j + Z->ml); ++i)
      cosrod_zband_set(Z, i, j, CMPLX(th_rng_uniform(rng, -1, 1), th_rng_uniform(rng, -1, 1)));
}

static double complex *zdense_from_band(const cosrod_zband *Z) {
  const int n = Z->n;
  double complex *D = calloc((size_t)n * n, sizeof(double complex));
  for (int j = 0; j < n; ++j)
    for (int i = tu_max(0, j - Z->mu); i <= tu_min(n - 1, j + Z->ml); ++i)
      D[i + (size_t)j * n] = Z->data[(size_t)(Z->ml + Z->mu + i - j) + (size_t)j * Z->ld];
  return D;
}

/* Factor + solve Z x = b with a random b; returns the relative residual and
 * (through diff) the relative difference to zgesv. */
static double zsolve_check(cosrod_zband *Z, th_rng *rng, double *diff) {
  const int n = Z->n;
  double complex *D = zdense_from_band(Z);
  double complex *b = malloc(n * sizeof(double complex)), *x = malloc(n * sizeof(double complex)),
                 *xr = malloc(n * sizeof(double complex));
  for (int i = 0; i < n; ++i) b[i] = x[i] = CMPLX(th_rng_uniform(rng, -1, 1), th_rng_uniform(rng, -1, 1));
  double res = INFINITY;
  *diff = INFINITY;
  if (cosrod_zband_factor(Z) == COSROD_OK && cosrod_zband_solve(Z, x) == COSROD_OK) {
    tu_zdense_solve(n, D, b, xr);
    res = tu_zrel_residual(n, D, x, b);
    *diff = tu_zrel_diff(n, x, xr);
  }
  free(D);
  free(b);
  free(x);
  free(xr);
  return res;
}

TEST(zband_lu_random_vs_zgesv) {
  /* Random complex entries, no dominance: pivoting by |re|+|im| is exercised. */
  static const int shapes[][3] = {{1, 0, 0},  {3, 1, 1},    {8, 0, 3},     {9, 4, 0},
                                  {30, 2, 5}, {70, 10, 10}, {120, 20, 20}, {150, 30, 30}};
  for (int k = 0; k < 2; ++k) {
    th_rng rng;
    th_rng_seed(&rng, 1234);
    double worst = 0.0, worst_diff = 0.0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
      cosrod_zband *Z = cosrod_zband_create(shapes[s][0], shapes[s][1], shapes[s][2], NULL);
      cosrod_zband_set_backend(Z, backends[k]);
      zfill_band(Z, &rng);
      double d;
      worst = fmax(worst, zsolve_check(Z, &rng, &d));
      worst_diff = fmax(worst_diff, d);
      cosrod_zband_free(Z);
    }
    NOTE("backend %s: difference to zgesv %.3g", cosrod_linalg_backend_name(backends[k]), worst_diff);
    CHECK_LE("max relative residual over 8 shapes", worst, RESID_TOL);
    /* Random complex band matrices of these sizes have cond < 1e5 (seeded),
     * so two backward-stable solutions agree to cond * n * u < 1e-8. */
    CHECK_LE("max relative difference to zgesv", worst_diff, 1e-8);
  }
}

TEST(zband_radau_stage_matrix) {
  /* Z = -J + ((alpha + i beta)/h) M entry by entry (one complex rounding per
   * term: rtol 1e-15), then the system solved. */
  th_rng rng;
  th_rng_seed(&rng, 9);
  const int n = 40;
  const double h = 1e-3;
  const double complex c = CMPLX(RADAU_ALPHA, RADAU_BETA) / h;
  cosrod_band *J = cosrod_band_create(n, 5, 5, NULL), *M = cosrod_band_create(n, 1, 1, NULL);
  tu_fill_band(J, &rng, 0.0);
  tu_fill_band(M, &rng, 3.0);
  for (int k = 0; k < 2; ++k) {
    cosrod_zband *Z = cosrod_zband_create(n, 5, 5, NULL);
    cosrod_zband_set_backend(Z, backends[k]);
    CHECK("set_combination", cosrod_zband_set_combination(Z, -1.0, J, c, M) == COSROD_OK);
    double err = 0.0;
    for (int j = 0; j < n; ++j)
      for (int i = tu_max(0, j - 5); i <= tu_min(n - 1, j + 5); ++i) {
        double complex want = -cosrod_band_get_checked(J, i, j) + c * cosrod_band_get_checked(M, i, j);
        err = fmax(err, cabs(cosrod_zband_get(Z, i, j) - want) / fmax(1.0, cabs(want)));
      }
    CHECK_LE("entries equal -J + c M", err, 1e-15);
    double d;
    CHECK_LE("stage system residual", zsolve_check(Z, &rng, &d), RESID_TOL);
    /* M == NULL: identity */
    cosrod_zband_set_combination(Z, 2.0, J, CMPLX(0.0, 1.0), NULL);
    CHECK("identity on the diagonal",
          cosrod_zband_get(Z, 3, 3) == 2.0 * cosrod_band_get(J, 3, 3) + CMPLX(0.0, 1.0) &&
              cosrod_zband_get(Z, 3, 4) == 2.0 * cosrod_band_get(J, 3, 4));
    cosrod_band *W = cosrod_band_create(n, 6, 5, NULL);
    CHECK("J wider than Z -> ERR_DIMENSION",
          cosrod_zband_set_combination(Z, 1.0, W, 1.0, NULL) == COSROD_ERR_DIMENSION);
    cosrod_band_free(W);
    cosrod_zband_free(Z);
  }
  cosrod_band_free(J);
  cosrod_band_free(M);
}

TEST(zband_split_solve_and_multi) {
  th_rng rng;
  th_rng_seed(&rng, 55);
  const int n = 33, ldb = 35, nrhs = 3;
  for (int k = 0; k < 2; ++k) {
    cosrod_zband *Z = cosrod_zband_create(n, 3, 2, NULL);
    cosrod_zband_set_backend(Z, backends[k]);
    zfill_band(Z, &rng);
    double complex *D = zdense_from_band(Z);
    CHECK("factor", cosrod_zband_factor(Z) == COSROD_OK);
    double re[33], im[33];
    double complex x[33], b[33], B[35 * 3], B0[35 * 3];
    for (int i = 0; i < n; ++i) {
      re[i] = th_rng_uniform(&rng, -1, 1);
      im[i] = th_rng_uniform(&rng, -1, 1);
      b[i] = x[i] = CMPLX(re[i], im[i]);
    }
    cosrod_zband_solve(Z, x);
    CHECK("split solve", cosrod_zband_solve_split(Z, re, im) == COSROD_OK);
    double d = 0.0;
    for (int i = 0; i < n; ++i) d = fmax(d, fabs(re[i] - creal(x[i])) + fabs(im[i] - cimag(x[i])));
    CHECK_NEAR("split solve equals the complex solve (same arithmetic: exact)", d, 0.0, 0.0);
    CHECK_LE("complex solve residual", tu_zrel_residual(n, D, x, b), RESID_TOL);
    for (int i = 0; i < ldb * nrhs; ++i)
      B[i] = B0[i] = CMPLX(th_rng_uniform(&rng, -1, 1), th_rng_uniform(&rng, -1, 1));
    CHECK("solve_multi", cosrod_zband_solve_multi(Z, nrhs, B, ldb) == COSROD_OK);
    double worst = 0.0;
    for (int r = 0; r < nrhs; ++r) worst = fmax(worst, tu_zrel_residual(n, D, B + r * ldb, B0 + r * ldb));
    CHECK_LE("max residual over 3 right-hand sides", worst, RESID_TOL);
    CHECK("padding rows untouched", B[n] == B0[n] && B[ldb + n + 1] == B0[ldb + n + 1]);
    free(D);
    cosrod_zband_free(Z);
  }
}

TEST(zband_own_factors_match_zgbtrf) {
  /* Same elimination order as LAPACK's zgbtf2 and the same |re|+|im| pivot
   * rule: identical pivots, factors equal up to rounding (~n u). */
  th_rng rng;
  th_rng_seed(&rng, 8);
  cosrod_zband *A = cosrod_zband_create(60, 6, 4, NULL), *B = cosrod_zband_create(60, 6, 4, NULL);
  zfill_band(A, &rng);
  cosrod_zband_copy(B, A);
  cosrod_zband_set_backend(B, COSROD_LINALG_LAPACK);
  CHECK("own and lapack factor", cosrod_zband_factor(A) == COSROD_OK && cosrod_zband_factor(B) == COSROD_OK);
  int same = 1;
  for (int i = 0; i < 60; ++i) same &= A->ipiv[i] + 1 == B->ipiv[i];
  CHECK("identical pivots", same);
  double scale = 0.0;
  for (int k = 0; k < 60 * A->ld; ++k) scale = fmax(scale, cabs(B->data[k]));
  CHECK_MAT("factors equal (re/im interleaved, atol 1e-12 max|LU|)", (const double *)A->data,
            (const double *)B->data, 2 * A->ld, 60, 2 * A->ld, 2 * B->ld, 0.0, 1e-12 * scale);
  cosrod_zband_free(A);
  cosrod_zband_free(B);
}

TEST(zband_singular_and_nonfinite) {
  for (int k = 0; k < 2; ++k) {
    cosrod_zband *Z = cosrod_zband_create(2, 1, 1, NULL);
    cosrod_zband_set_backend(Z, backends[k]);
    /* [1 i; i -1]: det = -1 - i^2 = 0, elimination gives -1 - i*i = 0 exactly */
    cosrod_zband_set(Z, 0, 0, 1.0);
    cosrod_zband_set(Z, 0, 1, CMPLX(0, 1));
    cosrod_zband_set(Z, 1, 0, CMPLX(0, 1));
    cosrod_zband_set(Z, 1, 1, -1.0);
    cosrod_status st = cosrod_zband_factor(Z);
    CHECK("[1 i; i -1] -> ERR_SINGULAR at column 1", st == COSROD_ERR_SINGULAR && Z->singular_col == 1);
    double complex x[2] = {1, 1};
    CHECK("solve after failure -> ERR_INVALID", cosrod_zband_solve(Z, x) == COSROD_ERR_INVALID);
    cosrod_zband_free(Z);
    th_rng rng;
    th_rng_seed(&rng, 4);
    Z = cosrod_zband_create(20, 2, 2, NULL);
    cosrod_zband_set_backend(Z, backends[k]);
    zfill_band(Z, &rng);
    for (int i = 7; i <= 11; ++i) cosrod_zband_set(Z, i, 9, 0.0);
    st = cosrod_zband_factor(Z);
    CHECK("zero column 9 -> ERR_SINGULAR at 9", st == COSROD_ERR_SINGULAR && Z->singular_col == 9);
    zfill_band(Z, &rng);
    cosrod_zband_set(Z, 5, 6, CMPLX(1.0, INFINITY));
    CHECK("Inf entry -> ERR_NONFINITE", cosrod_zband_factor(Z) == COSROD_ERR_NONFINITE);
    cosrod_zband_free(Z);
  }
}

TEST(zband_extreme_scaling_and_tiny_pivots) {
  /* Scaling A by 1e300 or 1e-300 does not change the relative residual of
   * a scale-invariant algorithm: a naive complex reciprocal 1/(a^2+b^2) would
   * overflow / underflow here, Smith's does not. */
  for (int k = 0; k < 2; ++k) {
    const double scales[2] = {1e300, 1e-300};
    for (int s = 0; s < 2; ++s) {
      th_rng rng;
      th_rng_seed(&rng, 66);
      cosrod_zband *Z = cosrod_zband_create(25, 2, 3, NULL);
      cosrod_zband_set_backend(Z, backends[k]);
      zfill_band(Z, &rng);
      for (int j = 0; j < 25; ++j)
        for (int i = tu_max(0, j - 3); i <= tu_min(24, j + 2); ++i)
          cosrod_zband_set(Z, i, j, scales[s] * cosrod_zband_get(Z, i, j) / 4.0);
      double d, res = zsolve_check(Z, &rng, &d);
      NOTE("%s scale %g: residual %.3g", cosrod_linalg_backend_name(backends[k]), scales[s], res);
      CHECK_LE("relative residual at extreme scale", res, RESID_TOL);
      cosrod_zband_free(Z);
    }
    /* Subnormal pivot p(1+i), p = 2^-1030: x = b / a must be exact, 3 - 2i. */
    const double p = ldexp(1.0, -1030);
    cosrod_zband *Z = cosrod_zband_create(1, 0, 0, NULL);
    cosrod_zband_set_backend(Z, backends[k]);
    cosrod_zband_set(Z, 0, 0, CMPLX(p, p));
    double complex x = CMPLX(5 * p, p); /* = p(1+i)(3-2i), exact */
    CHECK("subnormal pivot factors", cosrod_zband_factor(Z) == COSROD_OK);
    cosrod_zband_solve(Z, &x);
    CHECK_NEAR("re x = 3 (exact in Smith's division)", creal(x), 3.0, 2 * DBL_EPSILON);
    CHECK_NEAR("im x = -2", cimag(x), -2.0, 2 * DBL_EPSILON);
    cosrod_zband_free(Z);
    /* [[p, 0], [p/2, 1]] x = (p, 1): the multiplier (p/2)/p = 1/2 comes from
     * the division branch (|p| < DBL_MIN); x = (1, 1) to rounding.  Reference
     * zgbtf2 multiplies by 1/p = Inf here: the LAPACK backend must then
     * report ERR_NONFINITE instead of returning Inf factors as OK. */
    Z = cosrod_zband_create(2, 1, 1, NULL);
    cosrod_zband_set_backend(Z, backends[k]);
    cosrod_zband_set(Z, 0, 0, p);
    cosrod_zband_set(Z, 1, 0, p / 2);
    cosrod_zband_set(Z, 1, 1, 1.0);
    double complex y[2] = {p, 1.0};
    cosrod_status st = cosrod_zband_factor(Z);
    NOTE("%s: tiny-pivot 2x2 factor: %s", cosrod_linalg_backend_name(backends[k]), cosrod_status_name(st));
    if (backends[k] == COSROD_LINALG_OWN || st == COSROD_OK) {
      CHECK("tiny-pivot 2x2 factors", st == COSROD_OK);
      CHECK_NEAR("multiplier is exactly 1/2", creal(Z->data[Z->smu + 1]), 0.5, 0.0);
      cosrod_zband_solve(Z, y);
      CHECK_NEAR("x0 = 1", creal(y[0]), 1.0, 2 * DBL_EPSILON);
      CHECK_NEAR("x1 = 1", creal(y[1]), 1.0, 2 * DBL_EPSILON);
    } else {
      CHECK("LAPACK: Inf multiplier reported as ERR_NONFINITE in column 0",
            st == COSROD_ERR_NONFINITE && Z->singular_col == 0);
    }
    cosrod_zband_free(Z);
  }
}

TEST(zband_matvec_norm_print) {
  th_rng rng;
  th_rng_seed(&rng, 71);
  const int n = 17;
  cosrod_zband *Z = cosrod_zband_create(n, 2, 4, NULL);
  zfill_band(Z, &rng);
  double complex *D = zdense_from_band(Z), x[17], y[17], want[17];
  for (int i = 0; i < n; ++i) x[i] = CMPLX(th_rng_uniform(&rng, -1, 1), th_rng_uniform(&rng, -1, 1));
  double rs = 0.0;
  for (int i = 0; i < n; ++i) {
    want[i] = 0.0;
    double s = 0.0;
    for (int j = 0; j < n; ++j) {
      want[i] += D[i + j * n] * x[j];
      s += cabs(D[i + j * n]);
    }
    rs = fmax(rs, s);
  }
  CHECK("matvec", cosrod_zband_matvec(Z, x, y) == COSROD_OK);
  /* <= 7 complex products of modulus <= 2: rounding well below 1e-14 */
  CHECK_LE("y = Z x against the dense product", tu_zrel_diff(n, y, want), 1e-14);
  CHECK_REL("norm_inf equals the dense max row sum", cosrod_zband_norm_inf(Z), rs, 1e-14);
  FILE *f = tmpfile();
  cosrod_zband_print(Z, f);
  rewind(f);
  char line[1024];
  int rows = 0, widths_ok = 1, dots = 0;
  if (fgets(line, sizeof line, f)) {
    CHECK("header names the shape", strstr(line, "n=17 ml=2 mu=4") != NULL);
    while (fgets(line, sizeof line, f)) {
      ++rows;
      widths_ok &= strlen(line) == 17 * 22 + 1; /* 17 fields of 22 chars + newline */
      dots += strstr(line, "                     .") != NULL;
    }
  }
  fclose(f);
  CHECK("17 rows, every field 22 characters wide", rows == 17 && widths_ok);
  CHECK("out-of-band entries shown as '.'", dots == 17);
  free(D);
  cosrod_zband_free(Z);
  cosrod_zband_free(NULL);
  CHECK("create with n = 0 -> NULL", cosrod_zband_create(0, 0, 0, NULL) == NULL);
}

TEST(zband_agrees_with_zdense) {
  /* The same RADAU stage matrix assembled as complex band and complex dense
   * (both own LU) must give the same solution up to cond * n * u. */
  th_rng rng;
  th_rng_seed(&rng, 202);
  const int n = 45;
  cosrod_band *J = cosrod_band_create(n, 4, 4, NULL);
  tu_fill_band(J, &rng, 0.0);
  cosrod_dense *JD = cosrod_dense_create(n, NULL);
  cosrod_band_to_dense(J, JD->data, n);
  const double complex c = CMPLX(RADAU_ALPHA, RADAU_BETA) / 0.05;
  cosrod_zband *Z = cosrod_zband_create(n, 4, 4, NULL);
  cosrod_zdense *ZD = cosrod_zdense_create(n, NULL);
  cosrod_zband_set_combination(Z, -1.0, J, c, NULL);
  cosrod_zdense_set_combination(ZD, -1.0, JD, c, NULL);
  double re[45], im[45], re2[45], im2[45];
  for (int i = 0; i < n; ++i) {
    re[i] = re2[i] = th_rng_uniform(&rng, -1, 1);
    im[i] = im2[i] = th_rng_uniform(&rng, -1, 1);
  }
  CHECK("band and dense factor",
        cosrod_zband_factor(Z) == COSROD_OK && cosrod_zdense_factor(ZD) == COSROD_OK);
  cosrod_zband_solve_split(Z, re, im);
  cosrod_zdense_solve_split(ZD, re2, im2);
  /* cond of -J + c I with |c| ~ 80 and ||J|| <= 9 is ~1.3: agreement ~1e-15 */
  CHECK_LE("real parts agree", tu_rel_diff(n, re, re2), 1e-14);
  CHECK_LE("imaginary parts agree", tu_rel_diff(n, im, im2), 1e-14);
  cosrod_band_free(J);
  cosrod_dense_free(JD);
  cosrod_zband_free(Z);
  cosrod_zdense_free(ZD);
}

static const th_case cases[] = {
    TH_CASE(zband_lu_random_vs_zgesv),     TH_CASE(zband_radau_stage_matrix),
    TH_CASE(zband_split_solve_and_multi),  TH_CASE(zband_own_factors_match_zgbtrf),
    TH_CASE(zband_singular_and_nonfinite), TH_CASE(zband_extreme_scaling_and_tiny_pivots),
    TH_CASE(zband_matvec_norm_print),      TH_CASE(zband_agrees_with_zdense),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
