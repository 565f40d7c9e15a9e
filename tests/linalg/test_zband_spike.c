// SPDX-License-Identifier: Apache-2.0
/* Complex partitioned (SPIKE) band solver against LAPACK zgbsv (an
 * independent complex band LU) and against the serial complex band LU of
 * cosrod_zband on the same matrices.
 *
 * Bounds as in test_band_spike.c (Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., Thm 7.1, 7.2 and §3.6 for complex
 * arithmetic): with the normwise backward error
 *     eta(x) = ||b - A x|| / (||A|| ||x|| + ||b||)   (inf-norm, modulus),
 * ||x - x*|| / ||x*|| <= 2 kappa eta / (1 - kappa eta), kappa = kappa_inf(A)
 * computed from the dense inverse (zgetrf/zgetri), so the SPIKE and zgbsv
 * solutions differ by at most the sum of the two bounds.  Backward error of
 * SPIKE: the block LUs and the reduced LU are backward stable with gamma_w
 * |L||U| (w = 2 ml + mu + 1 terms) in real arithmetic; a complex
 * multiply-add has error <= sqrt(2) gamma_2 + u < 4 u instead of 2 u
 * (Higham §3.6), so gamma_w becomes ~2 gamma_{w+2}; with growth |L||U| <=
 * ~10 |A| and the interface error amplified by at most the largest spike
 * entry G (Demmel, Higham, Schreiber 1995), eta_spike <= 40 (w + 2) u
 * max(1, G), plus the residual's own evaluation error 2 (w + 3) u. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/band_spike.h"
#include "linalg_testutil.h"

#define U_ROUND (DBL_EPSILON / 2)

typedef double complex zc;

static double znorm_inf_vec(int n, const zc *x) {
  double m = 0.0;
  for (int i = 0; i < n; ++i) m = fmax(m, cabs(x[i]));
  return m;
}

static double zbackward_error(const cosrod_zband *A, const zc *x, const zc *b) {
  const int n = A->n;
  zc *r = malloc((size_t)n * sizeof(zc));
  cosrod_zband_matvec(A, x, r);
  for (int i = 0; i < n; ++i) r[i] -= b[i];
  const double e = znorm_inf_vec(n, r) / (cosrod_zband_norm_inf(A) * znorm_inf_vec(n, x) + znorm_inf_vec(n, b));
  free(r);
  return e;
}

/* kappa_inf(A) from the dense inverse; the dense expansion reads the LAPACK
 * band formula AB(kl+ku+i-j, j) directly. */
static double zcond_inf(const cosrod_zband *A) {
  const int n = A->n;
  zc *D = calloc((size_t)n * (size_t)n, sizeof(zc));
  for (int j = 0; j < n; ++j)
    for (int i = tu_max(0, j - A->mu); i <= tu_min(n - 1, j + A->ml); ++i)
      D[i + (size_t)j * n] = A->data[(size_t)(A->ml + A->mu + i - j) + (size_t)j * A->ld];
  lapack_int *ip = malloc((size_t)n * sizeof(lapack_int));
  double kappa = INFINITY;
  if (LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n, D, n, ip) == 0 && LAPACKE_zgetri(LAPACK_COL_MAJOR, n, D, n, ip) == 0) {
    double ninv = 0.0;
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += cabs(D[i + (size_t)j * n]);
      ninv = fmax(ninv, s);
    }
    kappa = cosrod_zband_norm_inf(A) * ninv;
  }
  free(D);
  free(ip);
  return kappa;
}

/* Band entries uniform in the unit square; dominance > 0: diagonal =
 * dominance (1 + row sum of moduli) times a random unit complex number. */
static void zfill(cosrod_zband *A, th_rng *rng, double dominance) {
  cosrod_zband_zero(A);
  for (int j = 0; j < A->n; ++j)
    for (int i = tu_max(0, j - A->mu); i <= tu_min(A->n - 1, j + A->ml); ++i)
      cosrod_zband_set(A, i, j, CMPLX(th_rng_uniform(rng, -1.0, 1.0), th_rng_uniform(rng, -1.0, 1.0)));
  if (dominance > 0.0)
    for (int i = 0; i < A->n; ++i) {
      double s = 0.0;
      for (int j = tu_max(0, i - A->ml); j <= tu_min(A->n - 1, i + A->mu); ++j)
        if (j != i) s += cabs(cosrod_zband_get(A, i, j));
      const double phi = th_rng_uniform(rng, -3.14159265358979, 3.14159265358979);
      cosrod_zband_set(A, i, i, dominance * (1.0 + s) * CMPLX(cos(phi), sin(phi)));
    }
}

typedef struct zrun {
  double eta, eta_bound, diff, diff_bound, diff_serial;
  int fell_back, parts;
} zrun;

static zrun zrun_one(const cosrod_zband *A0, int p, int nt, const zc *b, zc *x) {
  const int n = A0->n, kl = A0->ml, ku = A0->mu, w = 2 * kl + ku + 1;
  zrun res = {0};
  cosrod_zband *A = cosrod_zband_create(n, kl, ku, NULL);
  cosrod_zband_copy(A, A0);
  cosrod_zband_spike *S = cosrod_zband_spike_create(n, kl, ku, p, NULL);
  CHECK("zspike created", S != NULL);
  cosrod_zband_spike_set_threads(S, nt);
  memcpy(x, b, (size_t)n * sizeof(zc));
  CHECK("zspike factor ok", cosrod_zband_spike_factor(S, A) == COSROD_OK);
  CHECK("zspike solve ok", cosrod_zband_spike_solve(S, x) == COSROD_OK);
  res.fell_back = cosrod_zband_spike_fell_back(S);
  res.parts = cosrod_zband_spike_partitions(S);
  const double G = cosrod_zband_spike_growth(S);
  /* zgbsv on LAPACK's band array */
  cosrod_zband *L = cosrod_zband_create(n, kl, ku, NULL);
  cosrod_zband_copy(L, A0);
  zc *xl = malloc((size_t)n * sizeof(zc));
  lapack_int *ip = malloc((size_t)n * sizeof(lapack_int));
  memcpy(xl, b, (size_t)n * sizeof(zc));
  CHECK("zgbsv info 0", LAPACKE_zgbsv(LAPACK_COL_MAJOR, n, kl, ku, 1, L->data, L->ld, ip, xl, n) == 0);
  /* the serial complex band LU of the library (the path SPIKE replaces) */
  cosrod_zband *Z = cosrod_zband_create(n, kl, ku, NULL);
  cosrod_zband_copy(Z, A0);
  zc *xs = malloc((size_t)n * sizeof(zc));
  memcpy(xs, b, (size_t)n * sizeof(zc));
  CHECK("serial zband LU ok", cosrod_zband_factor(Z) == COSROD_OK && cosrod_zband_solve(Z, xs) == COSROD_OK);
  res.eta = zbackward_error(A0, x, b);
  res.eta_bound = 40.0 * (w + 2) * U_ROUND * fmax(1.0, G) + 2.0 * (w + 3) * U_ROUND;
  const double eta_l = zbackward_error(A0, xl, b) + 2.0 * (w + 3) * U_ROUND;
  const double kappa = zcond_inf(A0), eta_s = res.eta + 2.0 * (w + 3) * U_ROUND;
  double dl = 0.0, ds = 0.0;
  for (int i = 0; i < n; ++i) dl = fmax(dl, cabs(x[i] - xl[i])), ds = fmax(ds, cabs(x[i] - xs[i]));
  res.diff = dl / znorm_inf_vec(n, xl);
  res.diff_serial = ds / znorm_inf_vec(n, xs);
  res.diff_bound = 2.0 * kappa * eta_s / fmax(1e-300, 1.0 - kappa * eta_s) +
                   2.0 * kappa * eta_l / fmax(1e-300, 1.0 - kappa * eta_l);
  free(xl);
  free(xs);
  free(ip);
  cosrod_zband_free(L);
  cosrod_zband_free(Z);
  cosrod_zband_free(A);
  cosrod_zband_spike_free(S);
  return res;
}

static void zrhs(int n, th_rng *rng, zc *b) {
  for (int i = 0; i < n; ++i) b[i] = CMPLX(th_rng_uniform(rng, -1.0, 1.0), th_rng_uniform(rng, -1.0, 1.0));
}

static void zcheck_shapes(const char *what, double dominance, uint64_t seed, int expect_spike) {
  static const int shapes[][3] = {{60, 3, 3}, {61, 2, 5}, {97, 5, 2}, {83, 0, 4}, {79, 4, 0}, {200, 11, 11}, {333, 7, 9}};
  th_rng rng;
  th_rng_seed(&rng, seed);
  double worst_eta = 0.0, worst_diff = 0.0, worst_serial = 0.0;
  int spikes_used = 0, runs = 0, full_p = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const int n = shapes[s][0], kl = shapes[s][1], ku = shapes[s][2];
    cosrod_zband *A = cosrod_zband_create(n, kl, ku, NULL);
    zfill(A, &rng, dominance);
    zc *b = malloc((size_t)n * sizeof(zc)), *x = malloc((size_t)n * sizeof(zc));
    zrhs(n, &rng, b);
    for (int p = 1; p <= 4; ++p) {
      zrun r = zrun_one(A, p, 2, b, x);
      worst_eta = fmax(worst_eta, r.eta / r.eta_bound);
      worst_diff = fmax(worst_diff, r.diff / r.diff_bound);
      worst_serial = fmax(worst_serial, r.diff_serial / r.diff_bound);
      if (p > 1 && !r.fell_back) ++spikes_used;
      if (p > 1) ++runs;
      full_p += r.parts == p && p > 2;
      CHECK("1 <= partitions used <= asked", r.parts >= 1 && r.parts <= p);
    }
    free(b);
    free(x);
    cosrod_zband_free(A);
  }
  NOTE("%s: SPIKE used in %d of %d partitioned runs, %d with p = 3 or 4; worst eta/bound %.3g, diff/bound %.3g",
       what, spikes_used, runs, full_p, worst_eta, worst_diff);
  CHECK("inner blocks exercised (p = 3, 4 kept on the larger shapes)", full_p >= 4);
  CHECK_LE("worst backward error / (40 (w+2) u max(1, G))", worst_eta, 1.0);
  CHECK_LE("worst |x_spike - x_zgbsv| / (2 kappa (eta_s + eta_l))", worst_diff, 1.0);
  /* the serial LU's own backward error is below the zgbsv-side term's bound too */
  CHECK_LE("worst |x_spike - x_serial LU| / (2 kappa (eta_s + eta_l))", worst_serial, 1.0);
  if (expect_spike) CHECK("no fallback on diagonally dominant matrices", spikes_used == runs);
}

TEST(zspike_diag_dominant) { zcheck_shapes("diagonally dominant", 1.0, 51, 1); }
TEST(zspike_random_pivoting) { zcheck_shapes("random (pivoting)", 0.0, 52, 0); }

/* Results do not depend on the thread count (fixed partitions); split and
 * interleaved right-hand sides give the same bits. */
TEST(zspike_threads_bit_identical) {
  const int n = 501, kl = 6, ku = 4;
  th_rng rng;
  th_rng_seed(&rng, 53);
  cosrod_zband *A = cosrod_zband_create(n, kl, ku, NULL);
  zfill(A, &rng, 0.6);
  zc *b = malloc((size_t)n * sizeof(zc)), *x1 = malloc((size_t)n * sizeof(zc)), *x2 = malloc((size_t)n * sizeof(zc));
  zrhs(n, &rng, b);
  zrun r1 = zrun_one(A, 4, 1, b, x1), r2 = zrun_one(A, 4, 3, b, x2);
  CHECK("same path", r1.fell_back == r2.fell_back && !r1.fell_back);
  CHECK("threads 1 and 3 give bit-identical x", memcmp(x1, x2, (size_t)n * sizeof(zc)) == 0);
  cosrod_zband *A2 = cosrod_zband_create(n, kl, ku, NULL);
  cosrod_zband_copy(A2, A);
  cosrod_zband_spike *S = cosrod_zband_spike_create(n, kl, ku, 4, NULL);
  double *re = malloc((size_t)n * sizeof(double)), *im = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i) re[i] = creal(b[i]), im[i] = cimag(b[i]);
  CHECK("split solve ok", cosrod_zband_spike_factor(S, A2) == COSROD_OK &&
                              cosrod_zband_spike_solve_split(S, re, im) == COSROD_OK);
  int same = 1;
  for (int i = 0; i < n; ++i) same &= re[i] == creal(x1[i]) && im[i] == cimag(x1[i]);
  CHECK("split right-hand side: same bits", same);
  free(re);
  free(im);
  cosrod_zband_spike_free(S);
  cosrod_zband_free(A2);
  free(b);
  free(x1);
  free(x2);
  cosrod_zband_free(A);
}

/* Diagonally dominant tridiagonal except a swap pair [[e, a], [a', e]]
 * straddling the first row k of the last partition: A well conditioned, the
 * diagonal blocks singular (e = 0) or nearly so (spikes ~1/e > 2^26):
 * fallback to the global LU, which still solves to the zgbsv bound. */
static void zcheck_fallback(double e) {
  th_rng rng;
  th_rng_seed(&rng, 54);
  for (int p = 2; p <= 3; ++p) {
    const int n = 23;
    cosrod_zband_spike *S = cosrod_zband_spike_create(n, 1, 1, p, NULL);
    CHECK("partitions kept", cosrod_zband_spike_partitions(S) == p);
    cosrod_zband_spike_free(S);
    cosrod_band_spike *Sr = cosrod_band_spike_create(n, 1, 1, p, NULL); /* same layout as the real solver */
    int k = 0;
    cosrod_band_spike_block(Sr, p - 1, &k);
    cosrod_band_spike_free(Sr);
    cosrod_zband *A = cosrod_zband_create(n, 1, 1, NULL);
    for (int i = 0; i < n; ++i) {
      if (i > 0) cosrod_zband_set(A, i, i - 1, CMPLX(th_rng_uniform(&rng, -1.0, 1.0), 0.5));
      if (i < n - 1) cosrod_zband_set(A, i, i + 1, CMPLX(0.25, th_rng_uniform(&rng, -1.0, 1.0)));
      cosrod_zband_set(A, i, i, CMPLX(3.0, 2.0));
    }
    cosrod_zband_set(A, k - 2, k - 1, 0.0);
    cosrod_zband_set(A, k - 1, k - 2, 0.0);
    cosrod_zband_set(A, k, k + 1, 0.0);
    cosrod_zband_set(A, k + 1, k, 0.0);
    cosrod_zband_set(A, k - 1, k - 1, e);
    cosrod_zband_set(A, k, k, CMPLX(0.0, e));
    cosrod_zband_set(A, k - 1, k, CMPLX(1.5, 0.5));
    cosrod_zband_set(A, k, k - 1, CMPLX(-0.5, 1.5));
    zc b[23], x[23];
    zrhs(n, &rng, b);
    zrun r = zrun_one(A, p, 2, b, x);
    NOTE("p = %d, pair at rows %d, %d: fallback %d, diff %.3g", p, k - 1, k, r.fell_back, r.diff);
    CHECK("a singular / near-singular diagonal block triggers the fallback", r.fell_back == 1);
    CHECK_LE("fallback solution vs zgbsv / bound", r.diff / r.diff_bound, 1.0);
    cosrod_zband_free(A);
  }
}

TEST(zspike_fallback_singular_block) { zcheck_fallback(0.0); }
TEST(zspike_fallback_near_singular_block) { zcheck_fallback(1e-12); }

TEST(zspike_invalid_arguments) {
  cosrod_status st = COSROD_OK;
  CHECK("n = 0 rejected", cosrod_zband_spike_create(0, 1, 1, 2, &st) == NULL && st == COSROD_ERR_INVALID);
  cosrod_zband_spike *S = cosrod_zband_spike_create(10, 1, 1, 2, &st);
  cosrod_zband *A = cosrod_zband_create(10, 2, 1, NULL);
  CHECK("bandwidth mismatch rejected", cosrod_zband_spike_factor(S, A) == COSROD_ERR_DIMENSION);
  zc b[10] = {0};
  CHECK("solve before factor rejected", cosrod_zband_spike_solve(S, b) == COSROD_ERR_INVALID);
  cosrod_zband_free(A);
  cosrod_zband_spike_free(S);
  cosrod_zband_spike_free(NULL);
}

static const th_case cases[] = {TH_CASE(zspike_diag_dominant),          TH_CASE(zspike_random_pivoting),
                                TH_CASE(zspike_threads_bit_identical),  TH_CASE(zspike_fallback_singular_block),
                                TH_CASE(zspike_fallback_near_singular_block), TH_CASE(zspike_invalid_arguments)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
