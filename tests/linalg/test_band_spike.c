// SPDX-License-Identifier: Apache-2.0
/* Partitioned (SPIKE) band solver against LAPACK dgbsv on the same matrix.
 *
 * Bounds (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
 * Thm 7.1 and 7.2): with the normwise backward error
 *     eta(x) = ||b - A x|| / (||A|| ||x|| + ||b||)   (inf-norm, Rigal-Gaches),
 * each computed solution solves a system perturbed by eta relative to A and
 * b, so ||x - x*|| / ||x*|| <= 2 kappa eta / (1 - kappa eta) with kappa the
 * condition number kappa_inf(A) = ||A|| ||A^{-1}|| (computed exactly here
 * from the dense inverse, since LAPACK's dgbcon only estimates it from
 * below).  Hence the SPIKE and dgbsv solutions differ by at most the sum of
 * these bounds, relative to ||x_lapack||; the measured residuals carry an
 * evaluation error of at most gamma_{w+1} (|A||x| + |b|), added as (w+1) u.
 *
 * The backward error itself: the block LUs and the reduced LU are backward
 * stable (gamma_w |L||U|, w = 2 ml + mu + 1 terms per inner product, growth
 * |L||U| <= ~10 |A| as in linalg_testutil.h); the interface error is
 * amplified by at most the largest spike entry G (Demmel, Higham, Schreiber,
 * Numer. Linear Algebra Appl. 2 (1995), block LU), so
 *     eta_spike <= 10 w u max(1, G) (1 + 1/(1 - w u)) ~ 20 w u max(1, G). */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/band_spike.h"
#include "linalg_testutil.h"

#define U_ROUND (DBL_EPSILON / 2)

/* Normwise backward error of x for A x = b (A unfactored). */
static double backward_error(const cosrod_band *A, const double *x, const double *b) {
  const int n = A->n;
  double *r = malloc((size_t)n * sizeof(double));
  cosrod_band_matvec(A, x, r);
  for (int i = 0; i < n; ++i) r[i] -= b[i];
  const double e = tu_norm_inf_vec(n, r) / (cosrod_band_norm_inf(A) * tu_norm_inf_vec(n, x) + tu_norm_inf_vec(n, b));
  free(r);
  return e;
}

/* kappa_inf(A) from the dense inverse (LAPACK dgetrf/dgetri). */
static double cond_inf(const cosrod_band *A) {
  const int n = A->n;
  double *D = tu_dense_from_band(A);
  lapack_int *ip = malloc((size_t)n * sizeof(lapack_int));
  double kappa = INFINITY;
  if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, D, n, ip) == 0 && LAPACKE_dgetri(LAPACK_COL_MAJOR, n, D, n, ip) == 0) {
    double ninv = 0.0;
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += fabs(D[i + (size_t)j * n]);
      ninv = fmax(ninv, s);
    }
    kappa = cosrod_band_norm_inf(A) * ninv;
  }
  free(D);
  free(ip);
  return kappa;
}

typedef struct run_result {
  double eta, eta_bound, diff, diff_bound;
  int fell_back, parts;
} run_result;

/* Solve A x = b by SPIKE (p partitions, nt threads) and by dgbsv. */
static run_result run_one(const cosrod_band *A0, int p, int nt, const double *b, double *x) {
  const int n = A0->n, kl = A0->ml, ku = A0->mu, w = 2 * kl + ku + 1;
  run_result res = {0};
  cosrod_band *A = cosrod_band_create(n, kl, ku, NULL);
  cosrod_band_copy(A, A0);
  cosrod_band_spike *S = cosrod_band_spike_create(n, kl, ku, p, NULL);
  CHECK("spike created", S != NULL);
  cosrod_band_spike_set_threads(S, nt);
  memcpy(x, b, (size_t)n * sizeof(double));
  CHECK("spike factor ok", cosrod_band_spike_factor(S, A) == COSROD_OK);
  CHECK("spike solve ok", cosrod_band_spike_solve(S, x) == COSROD_OK);
  res.fell_back = cosrod_band_spike_fell_back(S);
  res.parts = cosrod_band_spike_partitions(S);
  const double G = cosrod_band_spike_growth(S);
  /* dgbsv on LAPACK's band array (ldab = 2 kl + ku + 1) */
  cosrod_band *L = cosrod_band_create(n, kl, ku, NULL);
  cosrod_band_copy(L, A0);
  double *xl = malloc((size_t)n * sizeof(double));
  lapack_int *ip = malloc((size_t)n * sizeof(lapack_int));
  memcpy(xl, b, (size_t)n * sizeof(double));
  CHECK("dgbsv info 0", LAPACKE_dgbsv(LAPACK_COL_MAJOR, n, kl, ku, 1, L->data, L->ld, ip, xl, n) == 0);
  res.eta = backward_error(A0, x, b);
  res.eta_bound = 20.0 * w * U_ROUND * fmax(1.0, G) + (w + 1) * U_ROUND;
  const double eta_l = backward_error(A0, xl, b) + (w + 1) * U_ROUND;
  const double kappa = cond_inf(A0), eta_s = res.eta + (w + 1) * U_ROUND;
  double dmax = 0.0;
  for (int i = 0; i < n; ++i) dmax = fmax(dmax, fabs(x[i] - xl[i]));
  res.diff = dmax / tu_norm_inf_vec(n, xl);
  res.diff_bound = 2.0 * kappa * eta_s / fmax(1e-300, 1.0 - kappa * eta_s) +
                   2.0 * kappa * eta_l / fmax(1e-300, 1.0 - kappa * eta_l);
  free(xl);
  free(ip);
  cosrod_band_free(L);
  cosrod_band_free(A);
  cosrod_band_spike_free(S);
  return res;
}

static void random_rhs(int n, th_rng *rng, double *b) {
  for (int i = 0; i < n; ++i) b[i] = th_rng_uniform(rng, -1.0, 1.0);
}

/* Every shape x p = 1..4: worst backward error / bound and worst difference / bound. */
static void check_shapes(const char *what, double dominance, uint64_t seed, int expect_spike) {
  static const int shapes[][3] = {{60, 3, 3}, {61, 2, 5}, {97, 5, 2}, {83, 0, 4}, {79, 4, 0}, {200, 11, 11}, {333, 7, 9}};
  th_rng rng;
  th_rng_seed(&rng, seed);
  double worst_eta = 0.0, worst_diff = 0.0;
  int spikes_used = 0, runs = 0, full_p = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const int n = shapes[s][0], kl = shapes[s][1], ku = shapes[s][2];
    cosrod_band *A = cosrod_band_create(n, kl, ku, NULL);
    tu_fill_band(A, &rng, dominance);
    double *b = malloc((size_t)n * sizeof(double)), *x = malloc((size_t)n * sizeof(double));
    random_rhs(n, &rng, b);
    for (int p = 1; p <= 4; ++p) {
      run_result r = run_one(A, p, 2, b, x);
      worst_eta = fmax(worst_eta, r.eta / r.eta_bound);
      worst_diff = fmax(worst_diff, r.diff / r.diff_bound);
      if (p > 1 && !r.fell_back) ++spikes_used;
      if (p > 1) ++runs;
      full_p += r.parts == p && p > 2;
      CHECK("1 <= partitions used <= asked", r.parts >= 1 && r.parts <= p);
    }
    free(b);
    free(x);
    cosrod_band_free(A);
  }
  NOTE("%s: SPIKE used in %d of %d partitioned runs, %d with p = 3 or 4 as asked", what, spikes_used, runs, full_p);
  CHECK("inner blocks exercised (p = 3, 4 kept on the larger shapes)", full_p >= 4);
  CHECK_LE("worst backward error / (20 w u max(1, G))", worst_eta, 1.0);
  CHECK_LE("worst |x_spike - x_dgbsv| / (2 kappa (eta_s + eta_l))", worst_diff, 1.0);
  if (expect_spike) CHECK("no fallback on diagonally dominant matrices", spikes_used == runs);
}

TEST(spike_diag_dominant) { check_shapes("diagonally dominant", 1.0, 11, 1); }
TEST(spike_random_pivoting) { check_shapes("random (pivoting)", 0.0, 12, 0); }

/* A stiff rod-like matrix: nodes of 6 unknowns, E = c M + K with K the
 * block second difference of random SPD 6x6 stiffnesses of ratios up to
 * 1e6 (stretch vs bend, as in a Cosserat rod's Jacobian), kl = ku = 11. */
TEST(spike_rod_like) {
  const int nodes = 60, n = 6 * nodes, bw = 11;
  th_rng rng;
  th_rng_seed(&rng, 21);
  cosrod_band *A = cosrod_band_create(n, bw, bw, NULL);
  double Kb[36];
  for (int e = 0; e + 1 < nodes; ++e) { /* element between nodes e, e+1: [K -K; -K K] */
    double G[36];
    for (int k = 0; k < 36; ++k) G[k] = th_rng_uniform(&rng, -1.0, 1.0);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        double s = 0.0;
        for (int k = 0; k < 6; ++k) s += G[i + 6 * k] * G[j + 6 * k];
        Kb[i + 6 * j] = s * (i < 3 && j < 3 ? 1e6 : 1.0);
      }
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        const int a = 6 * e + i, c = 6 * e + j;
        cosrod_band_add(A, a, c, Kb[i + 6 * j]);
        cosrod_band_add(A, a + 6, c + 6, Kb[i + 6 * j]);
        cosrod_band_add(A, a, c + 6, -Kb[i + 6 * j]);
        cosrod_band_add(A, a + 6, c, -Kb[i + 6 * j]);
      }
  }
  for (int i = 0; i < n; ++i) cosrod_band_add(A, i, i, 1.0); /* c M, M = I, c = 1 */
  double *b = malloc((size_t)n * sizeof(double)), *x = malloc((size_t)n * sizeof(double));
  random_rhs(n, &rng, b);
  for (int p = 2; p <= 4; ++p) {
    run_result r = run_one(A, p, 2, b, x);
    NOTE("p = %d: eta %.3g (bound %.3g), diff %.3g (bound %.3g), fallback %d", p, r.eta, r.eta_bound, r.diff,
         r.diff_bound, r.fell_back);
    CHECK_LE("rod-like backward error / bound", r.eta / r.eta_bound, 1.0);
    CHECK_LE("rod-like difference to dgbsv / bound", r.diff / r.diff_bound, 1.0);
    CHECK("rod-like: SPIKE path (blocks SPD-like, non-singular)", !r.fell_back);
  }
  free(b);
  free(x);
  cosrod_band_free(A);
}

/* Results do not depend on the thread count (fixed partitions). */
TEST(spike_threads_bit_identical) {
  const int n = 501, kl = 6, ku = 4;
  th_rng rng;
  th_rng_seed(&rng, 31);
  cosrod_band *A = cosrod_band_create(n, kl, ku, NULL);
  tu_fill_band(A, &rng, 0.6);
  double *b = malloc((size_t)n * sizeof(double)), *x1 = malloc((size_t)n * sizeof(double)),
         *x2 = malloc((size_t)n * sizeof(double));
  random_rhs(n, &rng, b);
  run_result r1 = run_one(A, 4, 1, b, x1), r2 = run_one(A, 4, 3, b, x2);
  CHECK("same path", r1.fell_back == r2.fell_back);
  CHECK("threads 1 and 3 give bit-identical x", memcmp(x1, x2, (size_t)n * sizeof(double)) == 0);
  free(b);
  free(x1);
  free(x2);
  cosrod_band_free(A);
}

/* A = diagonally dominant tridiagonal except a swap pair [[e, a], [a', e]]
 * at rows k-1, k, k the first row of partition `blk`: A is well
 * conditioned, but the diagonal blocks left and right of the boundary are
 * singular (e = 0) or nearly so (e = 1e-12: spikes ~1/e > 2^26): both must
 * fall back to the global LU and still solve to the dgbsv bound. */
static void check_fallback(double e) {
  th_rng rng;
  th_rng_seed(&rng, 41);
  for (int n = 22; n <= 23; ++n)
    for (int p = 2; p <= 3; ++p) {
      cosrod_band_spike *S = cosrod_band_spike_create(n, 1, 1, p, NULL);
      int k = 0;
      cosrod_band_spike_block(S, p - 1, &k);
      cosrod_band_spike_free(S);
      cosrod_band *A = cosrod_band_create(n, 1, 1, NULL);
      for (int i = 0; i < n; ++i) {
        if (i > 0) cosrod_band_set(A, i, i - 1, th_rng_uniform(&rng, -1.0, 1.0));
        if (i < n - 1) cosrod_band_set(A, i, i + 1, th_rng_uniform(&rng, -1.0, 1.0));
        cosrod_band_set(A, i, i, 4.0);
      }
      cosrod_band_set(A, k - 2, k - 1, 0.0); /* decouple the pair, then swap it */
      cosrod_band_set(A, k - 1, k - 2, 0.0);
      cosrod_band_set(A, k, k + 1, 0.0);
      cosrod_band_set(A, k + 1, k, 0.0);
      cosrod_band_set(A, k - 1, k - 1, e);
      cosrod_band_set(A, k, k, e);
      cosrod_band_set(A, k - 1, k, th_rng_uniform(&rng, 1.0, 2.0));
      cosrod_band_set(A, k, k - 1, th_rng_uniform(&rng, 1.0, 2.0));
      double b[23], x[23];
      random_rhs(n, &rng, b);
      run_result r = run_one(A, p, 2, b, x);
      NOTE("n = %d, p = %d, pair at rows %d, %d: fallback %d, diff %.3g", n, p, k - 1, k, r.fell_back, r.diff);
      CHECK("a singular / near-singular diagonal block triggers the fallback", r.fell_back == 1);
      CHECK_LE("fallback solution vs dgbsv / bound", r.diff / r.diff_bound, 1.0);
      cosrod_band_free(A);
    }
}

TEST(spike_fallback_singular_block) { check_fallback(0.0); }
TEST(spike_fallback_near_singular_block) { check_fallback(1e-12); }

TEST(spike_invalid_arguments) {
  cosrod_status st = COSROD_OK;
  CHECK("n = 0 rejected", cosrod_band_spike_create(0, 1, 1, 2, &st) == NULL && st == COSROD_ERR_INVALID);
  CHECK("partitions = 0 rejected", cosrod_band_spike_create(10, 1, 1, 0, &st) == NULL && st == COSROD_ERR_INVALID);
  cosrod_band_spike *S = cosrod_band_spike_create(10, 1, 1, 8, &st);
  const int pu = cosrod_band_spike_partitions(S);
  int rows_ok = 1, total = 0;
  for (int i = 0; i < pu; ++i) {
    int first = -1;
    const int m = cosrod_band_spike_block(S, i, &first);
    rows_ok &= m >= 3 && first == total;
    total += m;
  }
  CHECK("small n: partitions reduced, contiguous blocks of >= ml+mu+1 = 3 rows", pu >= 2 && pu < 8 && rows_ok && total == 10);
  cosrod_band *A = cosrod_band_create(10, 2, 1, NULL);
  CHECK("bandwidth mismatch rejected", cosrod_band_spike_factor(S, A) == COSROD_ERR_DIMENSION);
  double b[10] = {0};
  CHECK("solve before factor rejected", cosrod_band_spike_solve(S, b) == COSROD_ERR_INVALID);
  cosrod_band_free(A);
  cosrod_band_spike_free(S);
  cosrod_band_spike_free(NULL);
}

static const th_case cases[] = {TH_CASE(spike_diag_dominant),          TH_CASE(spike_random_pivoting),
                                TH_CASE(spike_rod_like),               TH_CASE(spike_threads_bit_identical),
                                TH_CASE(spike_fallback_singular_block), TH_CASE(spike_fallback_near_singular_block),
                                TH_CASE(spike_invalid_arguments)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
