// SPDX-License-Identifier: Apache-2.0
/* Benchmark: dense LU factorisation and solve, own (unblocked) versus LAPACK
 * (dgetrf/dgetrs, zgetrf/zgetrs through LAPACKE), real and complex, for the
 * small orders of rigid-body systems and dense test problems.  Minimum time
 * over repetitions (robust against other jobs); matrix and right-hand side
 * restored before each call outside the timed region.
 *
 * Usage: bench_dense [--quick] */
#define _POSIX_C_SOURCE 200809L
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/dense.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double urand(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) * 0x1.0p-52 - 1.0;
}

typedef struct result {
  double fac_ns, sol_ns;
} result;

static result bench(int n, int cplx, cosrod_linalg_backend be, int reps) {
  result r = {INFINITY, INFINITY};
  cosrod_status st = COSROD_OK;
  if (!cplx) {
    cosrod_dense *A = cosrod_dense_create(n, NULL);
    cosrod_dense_set_backend(A, be);
    for (int k = 0; k < n * n; ++k) A->data[k] = urand();
    double *orig = malloc((size_t)n * n * sizeof(double)), *b = malloc((size_t)n * sizeof(double)),
           *b0 = malloc((size_t)n * sizeof(double));
    memcpy(orig, A->data, (size_t)n * n * sizeof(double));
    for (int i = 0; i < n; ++i) b0[i] = urand();
    for (int k = 0; k < reps; ++k) {
      memcpy(A->data, orig, (size_t)n * n * sizeof(double));
      A->factored = 0;
      double t0 = now_ns();
      st |= cosrod_dense_factor(A);
      r.fac_ns = fmin(r.fac_ns, now_ns() - t0);
    }
    for (int k = 0; k < reps; ++k) {
      memcpy(b, b0, (size_t)n * sizeof(double));
      double t0 = now_ns();
      st |= cosrod_dense_solve(A, b);
      r.sol_ns = fmin(r.sol_ns, now_ns() - t0);
    }
    free(orig);
    free(b);
    free(b0);
    cosrod_dense_free(A);
  } else {
    cosrod_zdense *A = cosrod_zdense_create(n, NULL);
    cosrod_zdense_set_backend(A, be);
    for (int k = 0; k < n * n; ++k) A->data[k] = CMPLX(urand(), urand());
    double complex *orig = malloc((size_t)n * n * sizeof(double complex)),
                   *b = malloc((size_t)n * sizeof(double complex)),
                   *b0 = malloc((size_t)n * sizeof(double complex));
    memcpy(orig, A->data, (size_t)n * n * sizeof(double complex));
    for (int i = 0; i < n; ++i) b0[i] = CMPLX(urand(), urand());
    for (int k = 0; k < reps; ++k) {
      memcpy(A->data, orig, (size_t)n * n * sizeof(double complex));
      A->factored = 0;
      double t0 = now_ns();
      st |= cosrod_zdense_factor(A);
      r.fac_ns = fmin(r.fac_ns, now_ns() - t0);
    }
    for (int k = 0; k < reps; ++k) {
      memcpy(b, b0, (size_t)n * sizeof(double complex));
      double t0 = now_ns();
      st |= cosrod_zdense_solve(A, b);
      r.sol_ns = fmin(r.sol_ns, now_ns() - t0);
    }
    free(orig);
    free(b);
    free(b0);
    cosrod_zdense_free(A);
  }
  if (st != COSROD_OK) r.fac_ns = r.sol_ns = NAN;
  return r;
}

int main(int argc, char **argv) {
  const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  static const int ns[] = {3, 6, 12, 24, 48, 96, 192};
  printf("%-7s %5s | %12s %12s %6s | %12s %12s %6s\n", "type", "n", "own fac ns", "lapack fac ns", "ratio",
         "own sol ns", "lapack sol ns", "ratio");
  int ok = 1;
  for (int c = 0; c < 2; ++c) {
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; ++a) {
      const int n = ns[a];
      const double flops = (c ? 8.0 : 2.0) * n * n * n / 3.0;
      int reps = (int)fmin(2000.0, fmax(5.0, (quick ? 2e6 : 5e7) / (flops + 100.0)));
      result own = bench(n, c, COSROD_LINALG_OWN, reps), lap = bench(n, c, COSROD_LINALG_LAPACK, reps);
      ok &= isfinite(own.fac_ns) && isfinite(lap.fac_ns);
      printf("%-7s %5d | %12.0f %12.0f %6.2f | %12.0f %12.0f %6.2f\n", c ? "complex" : "real", n, own.fac_ns,
             lap.fac_ns, lap.fac_ns / own.fac_ns, own.sol_ns, lap.sol_ns, lap.sol_ns / own.sol_ns);
      fflush(stdout);
    }
  }
  printf("ratio = lapack / own (> 1: own is faster)\n");
  return ok ? 0 : 1;
}
