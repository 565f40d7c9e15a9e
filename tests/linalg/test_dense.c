// SPDX-License-Identifier: Apache-2.0
/* Dense real and complex matrices: LU (own and LAPACK getrf) against LAPACK
 * gesv, assembly, products, singular input.  Residual tolerance RESID_TOL:
 * see linalg_testutil.h; for dense n <= 150 the inner products have n terms,
 * gamma_n <= 1.7e-14, times growth ~10: 1.7e-13 < 1e-12. */
#include <float.h>
#include <string.h>

#include "cosrod/dense.h"
#include "linalg_testutil.h"

static const cosrod_linalg_backend backends[2] = {COSROD_LINALG_OWN, COSROD_LINALG_LAPACK};
static const int sizes[] = {1, 2, 3, 7, 20, 64, 150};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void dense_random(cosrod_dense *A, th_rng *rng) {
  for (int k = 0; k < A->n * A->n; ++k) A->data[k] = th_rng_uniform(rng, -1, 1);
  A->factored = 0;
}

static void zdense_random(cosrod_zdense *A, th_rng *rng) {
  for (int k = 0; k < A->n * A->n; ++k)
    A->data[k] = CMPLX(th_rng_uniform(rng, -1, 1), th_rng_uniform(rng, -1, 1));
}

TEST(dense_lu_vs_dgesv) {
  for (int k = 0; k < 2; ++k) {
    th_rng rng;
    th_rng_seed(&rng, 314);
    double worst = 0.0, worst_diff = 0.0;
    for (int s = 0; s < NSIZES; ++s) {
      const int n = sizes[s];
      cosrod_dense *A = cosrod_dense_create(n, NULL);
      cosrod_dense_set_backend(A, backends[k]);
      dense_random(A, &rng);
      double *D = malloc(n * n * sizeof(double)), *b = malloc(n * sizeof(double)),
             *x = malloc(n * sizeof(double)), *xr = malloc(n * sizeof(double));
      memcpy(D, A->data, n * n * sizeof(double));
      for (int i = 0; i < n; ++i) b[i] = x[i] = th_rng_uniform(&rng, -1, 1);
      const double cond = tu_cond1(n, D);
      if (cosrod_dense_factor(A) != COSROD_OK || cosrod_dense_solve(A, x) != COSROD_OK) worst = INFINITY;
      tu_dense_solve(n, D, b, xr);
      worst = fmax(worst, tu_rel_residual(n, D, x, b));
      /* forward agreement relative to the bound cond * n * u */
      worst_diff = fmax(worst_diff, tu_rel_diff(n, x, xr) / (cond * n * DBL_EPSILON));
      free(D);
      free(b);
      free(x);
      free(xr);
      cosrod_dense_free(A);
    }
    NOTE("backend %s", cosrod_linalg_backend_name(backends[k]));
    CHECK_LE("max relative residual, n = 1..150", worst, RESID_TOL);
    CHECK_LE("max difference to dgesv / (cond * n * u)", worst_diff, 1.0);
  }
}

TEST(zdense_lu_vs_zgesv) {
  for (int k = 0; k < 2; ++k) {
    th_rng rng;
    th_rng_seed(&rng, 2718);
    double worst = 0.0, worst_diff = 0.0;
    for (int s = 0; s < NSIZES; ++s) {
      const int n = sizes[s];
      cosrod_zdense *A = cosrod_zdense_create(n, NULL);
      cosrod_zdense_set_backend(A, backends[k]);
      zdense_random(A, &rng);
      double complex *D = malloc(n * n * sizeof(double complex)), *b = malloc(n * sizeof(double complex)),
                     *x = malloc(n * sizeof(double complex)), *xr = malloc(n * sizeof(double complex));
      memcpy(D, A->data, n * n * sizeof(double complex));
      for (int i = 0; i < n; ++i)
        b[i] = x[i] = CMPLX(th_rng_uniform(&rng, -1, 1), th_rng_uniform(&rng, -1, 1));
      if (cosrod_zdense_factor(A) != COSROD_OK || cosrod_zdense_solve(A, x) != COSROD_OK) worst = INFINITY;
      tu_zdense_solve(n, D, b, xr);
      worst = fmax(worst, tu_zrel_residual(n, D, x, b));
      worst_diff = fmax(worst_diff, tu_zrel_diff(n, x, xr));
      free(D);
      free(b);
      free(x);
      free(xr);
      cosrod_zdense_free(A);
    }
    NOTE("backend %s: max difference to zgesv %.3g", cosrod_linalg_backend_name(backends[k]), worst_diff);
    CHECK_LE("max relative residual, n = 1..150", worst, RESID_TOL);
    /* seeded random complex matrices of these sizes have cond < 1e4 */
    CHECK_LE("max relative difference to zgesv", worst_diff, 1e-9);
  }
}

TEST(dense_singular_and_nonfinite) {
  for (int k = 0; k < 2; ++k) {
    cosrod_dense *A = cosrod_dense_create(3, NULL);
    cosrod_dense_set_backend(A, backends[k]);
    /* rows (1 2 3), (2 4 6), (0 1 1): row 2 = 2 row 1 exactly -> exact zero */
    const double v[9] = {1, 2, 0, 2, 4, 1, 3, 6, 1};
    memcpy(A->data, v, sizeof v);
    cosrod_status st = cosrod_dense_factor(A);
    NOTE("%s: %s at column %d", cosrod_linalg_backend_name(backends[k]), cosrod_status_name(st),
         A->singular_col);
    CHECK("rank-2 3x3 -> ERR_SINGULAR", st == COSROD_ERR_SINGULAR && A->singular_col == 2);
    double x[3] = {1, 2, 3};
    CHECK("solve after failure -> ERR_INVALID", cosrod_dense_solve(A, x) == COSROD_ERR_INVALID);
    cosrod_dense_zero(A);
    CHECK("zero matrix -> ERR_SINGULAR at column 0",
          cosrod_dense_factor(A) == COSROD_ERR_SINGULAR && A->singular_col == 0);
    cosrod_dense_scale_add_identity(A, 1.0, 1.0);
    cosrod_dense_set(A, 2, 1, NAN);
    CHECK("NaN -> ERR_NONFINITE", cosrod_dense_factor(A) == COSROD_ERR_NONFINITE);
    cosrod_dense_free(A);
    cosrod_zdense *Z = cosrod_zdense_create(2, NULL);
    cosrod_zdense_set_backend(Z, backends[k]);
    cosrod_zdense_set(Z, 0, 0, 1.0);
    cosrod_zdense_set(Z, 0, 1, CMPLX(0, 1));
    cosrod_zdense_set(Z, 1, 0, CMPLX(0, 1));
    cosrod_zdense_set(Z, 1, 1, -1.0);
    st = cosrod_zdense_factor(Z);
    CHECK("complex [1 i; i -1] -> ERR_SINGULAR at column 1",
          st == COSROD_ERR_SINGULAR && Z->singular_col == 1);
    cosrod_zdense_set(Z, 1, 1, CMPLX(INFINITY, 0));
    cosrod_zdense_set(Z, 0, 0, 1.0);
    CHECK("complex Inf -> ERR_NONFINITE", cosrod_zdense_factor(Z) == COSROD_ERR_NONFINITE);
    cosrod_zdense_free(Z);
  }
}

TEST(dense_assembly_and_products) {
  /* One or two roundings per entry: rtol 1e-15. */
  th_rng rng;
  th_rng_seed(&rng, 12);
  const int n = 6;
  cosrod_dense *J = cosrod_dense_create(n, NULL), *M = cosrod_dense_create(n, NULL), *E = cosrod_dense_create(n, NULL);
  dense_random(J, &rng);
  dense_random(M, &rng);
  double want[36];
  CHECK("E = -J + 5 M", cosrod_dense_set_combination(E, -1.0, J, 5.0, M) == COSROD_OK);
  for (int k = 0; k < 36; ++k) want[k] = -J->data[k] + 5.0 * M->data[k];
  CHECK_MAT("E = -J + 5 M", E->data, want, n, n, n, n, 1e-15, 0.0);
  cosrod_dense_set_combination(E, 2.0, J, 0.25, NULL);
  for (int k = 0; k < 36; ++k) want[k] = 2.0 * J->data[k] + 0.25 * (k % 7 == 0);
  CHECK_MAT("E = 2 J + I/4", E->data, want, n, n, n, n, 1e-15, 0.0);
  cosrod_dense_scale_add_identity(E, -1.0, 3.0);
  for (int k = 0; k < 36; ++k) want[k] = -want[k] + 3.0 * (k % 7 == 0);
  CHECK_MAT("E <- -E + 3 I", E->data, want, n, n, n, n, 1e-15, 0.0);
  CHECK("scale_add", cosrod_dense_scale_add(E, 0.5, -2.0, M) == COSROD_OK);
  for (int k = 0; k < 36; ++k) want[k] = 0.5 * want[k] - 2.0 * M->data[k];
  CHECK_MAT("E <- E/2 - 2 M", E->data, want, n, n, n, n, 1e-15, 0.0);
  CHECK("copy", cosrod_dense_copy(E, J) == COSROD_OK);
  CHECK_MAT("copy is exact", E->data, J->data, n, n, n, n, 0.0, 0.0);
  double x[6], y[6], y0[6], wy[6];
  for (int i = 0; i < n; ++i) {
    x[i] = th_rng_uniform(&rng, -1, 1);
    y[i] = y0[i] = th_rng_uniform(&rng, -1, 1);
  }
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += J->data[i + j * n] * x[j];
    wy[i] = -1.5 * s + 2.0 * y0[i];
  }
  cosrod_dense_gemv(J, -1.5, x, 2.0, y);
  CHECK_VEC("y = -1.5 J x + 2 y", y, wy, n, 0.0, 1e-14);
  double rs = 0.0;
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += fabs(J->data[i + j * n]);
    rs = fmax(rs, s);
  }
  CHECK_REL("norm_inf", cosrod_dense_norm_inf(J), rs, 1e-15);
  cosrod_dense *S = cosrod_dense_create(n + 1, NULL);
  CHECK("different n -> ERR_DIMENSION",
        cosrod_dense_copy(S, J) == COSROD_ERR_DIMENSION &&
            cosrod_dense_set_combination(S, 1, J, 1, NULL) == COSROD_ERR_DIMENSION);
  /* complex combination with the RADAU eigenvalue, and complex matvec */
  cosrod_zdense *Z = cosrod_zdense_create(n, NULL);
  const double complex c = CMPLX(2.6810828736277523, 3.0504301992474105) / 0.1;
  cosrod_zdense_set_combination(Z, -1.0, J, c, M);
  double err = 0.0;
  for (int k = 0; k < 36; ++k) err = fmax(err, cabs(Z->data[k] - (-J->data[k] + c * M->data[k])) / cabs(c));
  CHECK_LE("Z = -J + c M (relative to |c|)", err, 1e-15);
  double complex zx[6], zy[6], zw[6];
  for (int i = 0; i < n; ++i) zx[i] = CMPLX(th_rng_uniform(&rng, -1, 1), th_rng_uniform(&rng, -1, 1));
  for (int i = 0; i < n; ++i) {
    zw[i] = 0.0;
    for (int j = 0; j < n; ++j) zw[i] += Z->data[i + j * n] * zx[j];
  }
  cosrod_zdense_matvec(Z, zx, zy);
  CHECK_LE("complex matvec", tu_zrel_diff(n, zy, zw), 1e-14);
  cosrod_dense_factor(J);
  CHECK("gemv on factored -> ERR_INVALID", cosrod_dense_gemv(J, 1, x, 0, y) == COSROD_ERR_INVALID);
  cosrod_dense_free(S);
  cosrod_dense_free(J);
  cosrod_dense_free(M);
  cosrod_dense_free(E);
  cosrod_zdense_free(Z);
  cosrod_dense_free(NULL);
  cosrod_zdense_free(NULL);
  CHECK("create(0) -> NULL", cosrod_dense_create(0, NULL) == NULL && cosrod_zdense_create(-2, NULL) == NULL);
}

TEST(dense_multi_rhs_and_split) {
  th_rng rng;
  th_rng_seed(&rng, 90);
  const int n = 12, ldb = 14, nrhs = 3;
  for (int k = 0; k < 2; ++k) {
    cosrod_dense *A = cosrod_dense_create(n, NULL);
    cosrod_dense_set_backend(A, backends[k]);
    dense_random(A, &rng);
    double D[144], B[42], B0[42];
    memcpy(D, A->data, sizeof D);
    for (int i = 0; i < ldb * nrhs; ++i) B[i] = B0[i] = th_rng_uniform(&rng, -1, 1);
    cosrod_dense_factor(A);
    CHECK("solve_multi", cosrod_dense_solve_multi(A, nrhs, B, ldb) == COSROD_OK);
    double worst = 0.0;
    for (int r = 0; r < nrhs; ++r) worst = fmax(worst, tu_rel_residual(n, D, B + r * ldb, B0 + r * ldb));
    CHECK_LE("max residual, 3 right-hand sides", worst, RESID_TOL);
    CHECK("padding untouched", B[n] == B0[n] && B[ldb + n + 1] == B0[ldb + n + 1]);
    cosrod_zdense *Z = cosrod_zdense_create(n, NULL);
    cosrod_zdense_set_backend(Z, backends[k]);
    zdense_random(Z, &rng);
    double complex ZD[144], zb[12], zx[12];
    memcpy(ZD, Z->data, sizeof ZD);
    double re[12], im[12];
    for (int i = 0; i < n; ++i) {
      re[i] = th_rng_uniform(&rng, -1, 1);
      im[i] = th_rng_uniform(&rng, -1, 1);
      zb[i] = CMPLX(re[i], im[i]);
    }
    cosrod_zdense_factor(Z);
    CHECK("split solve", cosrod_zdense_solve_split(Z, re, im) == COSROD_OK);
    for (int i = 0; i < n; ++i) zx[i] = CMPLX(re[i], im[i]);
    CHECK_LE("split solve residual", tu_zrel_residual(n, ZD, zx, zb), RESID_TOL);
    cosrod_zdense_free(Z);
    cosrod_dense_free(A);
  }
}

TEST(dense_print_debug) {
  cosrod_dense *A = cosrod_dense_create(2, NULL);
  cosrod_dense_set(A, 0, 1, 7.25);
  FILE *f = tmpfile();
  cosrod_dense_print(A, f);
  rewind(f);
  char buf[512] = {0};
  size_t len = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  NOTE("%zu bytes", len);
  CHECK("header and entry printed",
        strstr(buf, "dense matrix n=2") != NULL && strstr(buf, "7.2500e+00") != NULL);
  cosrod_dense_free(A);
}

TEST(dense_tiny_and_huge_pivots) {
  /* [[p, 0], [p/2, 1]] with subnormal p = 2^-1030: the own LU divides instead
   * of multiplying by 1/p = Inf, so the multiplier is exactly 1/2 and
   * x = (1, 1) for b = (p, 1) (1 + p/2 rounds to 1).  LAPACK may or may not
   * handle it; if not, it must be reported (ERR_NONFINITE), never OK. */
  const double p = ldexp(1.0, -1030);
  for (int k = 0; k < 2; ++k) {
    cosrod_dense *A = cosrod_dense_create(2, NULL);
    cosrod_dense_set_backend(A, backends[k]);
    cosrod_dense_set(A, 0, 0, p);
    cosrod_dense_set(A, 1, 0, p / 2);
    cosrod_dense_set(A, 1, 1, 1.0);
    cosrod_status st = cosrod_dense_factor(A);
    NOTE("%s real: %s", cosrod_linalg_backend_name(backends[k]), cosrod_status_name(st));
    if (backends[k] == COSROD_LINALG_OWN || st == COSROD_OK) {
      double x[2] = {p, 1.0};
      CHECK("factor + solve", st == COSROD_OK && cosrod_dense_solve(A, x) == COSROD_OK);
      CHECK_NEAR("multiplier exactly 1/2", cosrod_dense_get(A, 1, 0), 0.5, 0.0);
      CHECK_NEAR("x0 = 1", x[0], 1.0, 0.0);
      CHECK_NEAR("x1 = 1", x[1], 1.0, 0.0);
    } else {
      CHECK("LAPACK failure reported as ERR_NONFINITE", st == COSROD_ERR_NONFINITE);
    }
    cosrod_dense_free(A);
    cosrod_zdense *Z = cosrod_zdense_create(2, NULL);
    cosrod_zdense_set_backend(Z, backends[k]);
    cosrod_zdense_set(Z, 0, 0, CMPLX(p, p));
    cosrod_zdense_set(Z, 1, 0, CMPLX(p, p) / 2);
    cosrod_zdense_set(Z, 1, 1, 1.0);
    st = cosrod_zdense_factor(Z);
    NOTE("%s complex: %s", cosrod_linalg_backend_name(backends[k]), cosrod_status_name(st));
    if (backends[k] == COSROD_LINALG_OWN || st == COSROD_OK) {
      double complex z[2] = {CMPLX(5 * p, p), 1.0}; /* x0 = 3 - 2i exactly */
      CHECK("complex factor + solve", st == COSROD_OK && cosrod_zdense_solve(Z, z) == COSROD_OK);
      CHECK_NEAR("complex multiplier exactly 1/2", creal(cosrod_zdense_get(Z, 1, 0)), 0.5, 0.0);
      CHECK_NEAR("re x0 = 3", creal(z[0]), 3.0, 2 * DBL_EPSILON);
      CHECK_NEAR("im x0 = -2", cimag(z[0]), -2.0, 2 * DBL_EPSILON);
    } else {
      CHECK("LAPACK complex failure reported as ERR_NONFINITE", st == COSROD_ERR_NONFINITE);
    }
    cosrod_zdense_free(Z);
    /* Huge entries (1e307): the reciprocal 1e-307 would be fine, but scaling
     * by 1e300 and 1e-300 must leave the relative residual unchanged. */
    th_rng rng;
    th_rng_seed(&rng, 5150);
    const double scales[2] = {1e300, 1e-300};
    for (int s = 0; s < 2; ++s) {
      const int n = 9;
      cosrod_dense *B = cosrod_dense_create(n, NULL);
      cosrod_dense_set_backend(B, backends[k]);
      dense_random(B, &rng);
      for (int q = 0; q < n * n; ++q) B->data[q] *= scales[s];
      double D[81], b[9], x[9];
      memcpy(D, B->data, sizeof D);
      for (int i = 0; i < n; ++i) b[i] = x[i] = th_rng_uniform(&rng, -1, 1);
      CHECK("scaled factor", cosrod_dense_factor(B) == COSROD_OK && cosrod_dense_solve(B, x) == COSROD_OK);
      CHECK_LE("relative residual at scale 1e+-300", tu_rel_residual(n, D, x, b), RESID_TOL);
      cosrod_dense_free(B);
    }
  }
}

static const th_case cases[] = {
    TH_CASE(dense_lu_vs_dgesv),
    TH_CASE(zdense_lu_vs_zgesv),
    TH_CASE(dense_singular_and_nonfinite),
    TH_CASE(dense_assembly_and_products),
    TH_CASE(dense_multi_rhs_and_split),
    TH_CASE(dense_print_debug),
    TH_CASE(dense_tiny_and_huge_pivots),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
