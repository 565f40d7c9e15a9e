// SPDX-License-Identifier: Apache-2.0
/* Benchmark: banded LU factorisation and solve, own implementation versus
 * LAPACK (dgbtrf/dgbtrs, zgbtrf/zgbtrs through LAPACKE), real and complex.
 *
 * For n in {70, 700, 7000} and ml = mu in {0, 2, 5, 10, 20, 30} it times
 * single factorisations and single solves (clock_gettime around each call,
 * minimum over repetitions; the matrix or right-hand side is restored from a
 * copy before each call, outside the timed region) on random matrices
 * -J + 4 I (random J in [-1,1], so partial pivoting swaps rows).
 *
 * Usage: bench_band [--quick] [--csv]
 *   --quick  n in {70, 700} only, fewer repetitions (smoke test)
 *   --csv    machine-readable output instead of the table */
#define _POSIX_C_SOURCE 200809L
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* Minimum over repetitions: robust against other jobs on a shared machine. */
static double tmin(const double *t, int m) {
  double v = t[0];
  for (int k = 1; k < m; ++k) v = t[k] < v ? t[k] : v;
  return v;
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static double urand(void) { /* xorshift64*, uniform in [-1, 1) */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) * 0x1.0p-52 - 1.0;
}

typedef struct result {
  double fac_ns, sol_ns, resid;
} result;

/* Repetitions so that one configuration takes roughly budget_ns. */
static int reps_for(double est_ns, double budget_ns, int lo, int hi) {
  double r = budget_ns / fmax(est_ns, 1.0);
  return r < lo ? lo : (r > hi ? hi : (int)r);
}

static result bench_real(int n, int bw, cosrod_linalg_backend be, int quick) {
  cosrod_band *J = cosrod_band_create(n, bw, bw, NULL), *E = cosrod_band_create(n, bw, bw, NULL);
  for (int j = 0; j < n; ++j)
    for (int i = (j - bw > 0 ? j - bw : 0); i <= (j + bw < n - 1 ? j + bw : n - 1); ++i)
      cosrod_band_set(J, i, j, urand());
  cosrod_band_set_combination(E, -1.0, J, 4.0, NULL);
  cosrod_band_set_backend(E, be);
  const size_t bytes = (size_t)n * (size_t)E->ld * sizeof(double);
  double *orig = malloc(bytes), *b = malloc((size_t)n * sizeof(double)),
         *b0 = malloc((size_t)n * sizeof(double)), *r = malloc((size_t)n * sizeof(double));
  memcpy(orig, E->data, bytes);
  for (int i = 0; i < n; ++i) b0[i] = urand();
  const double est = 2.0 * n * (bw + 1.0) * (2 * bw + 1.0) + 50.0 * n; /* ~ns at ~1 flop/ns */
  const int reps = reps_for(est, quick ? 2e6 : 2e8, 3, quick ? 200 : 2000);
  double *t = calloc((size_t)reps, sizeof(double));
  cosrod_status st = COSROD_OK;
  for (int k = 0; k < reps; ++k) {
    memcpy(E->data, orig, bytes);
    double t0 = now_ns();
    st |= cosrod_band_factor(E);
    t[k] = now_ns() - t0;
  }
  result res;
  res.fac_ns = tmin(t, reps);
  for (int k = 0; k < reps; ++k) {
    memcpy(b, b0, (size_t)n * sizeof(double));
    double t0 = now_ns();
    st |= cosrod_band_solve(E, b);
    t[k] = now_ns() - t0;
  }
  res.sol_ns = tmin(t, reps);
  /* residual of the last solve, so the work cannot be optimised away */
  memcpy(E->data, orig, bytes);
  E->factored = 0;
  cosrod_band_matvec(E, b, r);
  double rmax = 0.0, xmax = 0.0;
  for (int i = 0; i < n; ++i) {
    rmax = fmax(rmax, fabs(r[i] - b0[i]));
    xmax = fmax(xmax, fabs(b[i]));
  }
  res.resid = st == COSROD_OK ? rmax / (cosrod_band_norm_inf(E) * xmax) : INFINITY;
  free(t);
  free(orig);
  free(b);
  free(b0);
  free(r);
  cosrod_band_free(J);
  cosrod_band_free(E);
  return res;
}

static result bench_complex(int n, int bw, cosrod_linalg_backend be, int quick) {
  cosrod_band *J = cosrod_band_create(n, bw, bw, NULL);
  cosrod_zband *E = cosrod_zband_create(n, bw, bw, NULL);
  for (int j = 0; j < n; ++j)
    for (int i = (j - bw > 0 ? j - bw : 0); i <= (j + bw < n - 1 ? j + bw : n - 1); ++i)
      cosrod_band_set(J, i, j, urand());
  /* RADAU5's complex stage matrix with h = 1: (alpha + i beta) I - J */
  cosrod_zband_set_combination(E, -1.0, J, CMPLX(2.6810828736277523, 3.0504301992474105), NULL);
  cosrod_zband_set_backend(E, be);
  const size_t bytes = (size_t)n * (size_t)E->ld * sizeof(double complex);
  double complex *orig = malloc(bytes), *b = malloc((size_t)n * sizeof(double complex)),
                 *b0 = malloc((size_t)n * sizeof(double complex)),
                 *r = malloc((size_t)n * sizeof(double complex));
  memcpy(orig, E->data, bytes);
  for (int i = 0; i < n; ++i) b0[i] = CMPLX(urand(), urand());
  const double est = 8.0 * n * (bw + 1.0) * (2 * bw + 1.0) + 100.0 * n;
  const int reps = reps_for(est, quick ? 2e6 : 2e8, 3, quick ? 200 : 2000);
  double *t = calloc((size_t)reps, sizeof(double));
  cosrod_status st = COSROD_OK;
  for (int k = 0; k < reps; ++k) {
    memcpy(E->data, orig, bytes);
    double t0 = now_ns();
    st |= cosrod_zband_factor(E);
    t[k] = now_ns() - t0;
  }
  result res;
  res.fac_ns = tmin(t, reps);
  for (int k = 0; k < reps; ++k) {
    memcpy(b, b0, (size_t)n * sizeof(double complex));
    double t0 = now_ns();
    st |= cosrod_zband_solve(E, b);
    t[k] = now_ns() - t0;
  }
  res.sol_ns = tmin(t, reps);
  memcpy(E->data, orig, bytes);
  E->factored = 0;
  cosrod_zband_matvec(E, b, r);
  double rmax = 0.0, xmax = 0.0;
  for (int i = 0; i < n; ++i) {
    rmax = fmax(rmax, cabs(r[i] - b0[i]));
    xmax = fmax(xmax, cabs(b[i]));
  }
  res.resid = st == COSROD_OK ? rmax / (cosrod_zband_norm_inf(E) * xmax) : INFINITY;
  free(t);
  free(orig);
  free(b);
  free(b0);
  free(r);
  cosrod_band_free(J);
  cosrod_zband_free(E);
  return res;
}

int main(int argc, char **argv) {
  int quick = 0, csv = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp(argv[i], "--csv") == 0)
      csv = 1;
    else {
      fprintf(stderr, "usage: %s [--quick] [--csv]\n", argv[0]);
      return 2;
    }
  }
  static const int ns[] = {70, 700, 7000};
  static const int bws[] = {0, 2, 5, 10, 20, 30};
  const int nn = quick ? 2 : 3;
  double worst_resid = 0.0;
  if (csv)
    printf("type,n,ml,mu,own_factor_ns,lapack_factor_ns,own_solve_ns,lapack_solve_ns\n");
  else
    printf("%-7s %5s %5s | %12s %12s %6s | %12s %12s %6s\n", "type", "n", "ml=mu", "own fac ns",
           "lapack fac ns", "ratio", "own sol ns", "lapack sol ns", "ratio");
  for (int type = 0; type < 2; ++type) {
    for (int a = 0; a < nn; ++a) {
      for (size_t c = 0; c < sizeof bws / sizeof bws[0]; ++c) {
        const int n = ns[a], bw = bws[c];
        result own = type == 0 ? bench_real(n, bw, COSROD_LINALG_OWN, quick)
                               : bench_complex(n, bw, COSROD_LINALG_OWN, quick);
        result lap = type == 0 ? bench_real(n, bw, COSROD_LINALG_LAPACK, quick)
                               : bench_complex(n, bw, COSROD_LINALG_LAPACK, quick);
        worst_resid = fmax(worst_resid, fmax(own.resid, lap.resid));
        const char *tn = type == 0 ? "real" : "complex";
        if (csv)
          printf("%s,%d,%d,%d,%.0f,%.0f,%.0f,%.0f\n", tn, n, bw, bw, own.fac_ns, lap.fac_ns, own.sol_ns,
                 lap.sol_ns);
        else
          printf("%-7s %5d %5d | %12.0f %12.0f %6.2f | %12.0f %12.0f %6.2f\n", tn, n, bw, own.fac_ns,
                 lap.fac_ns, lap.fac_ns / own.fac_ns, own.sol_ns, lap.sol_ns, lap.sol_ns / own.sol_ns);
        fflush(stdout);
      }
    }
  }
  if (!csv) printf("ratio = lapack / own (> 1: own is faster); worst relative residual %.2e\n", worst_resid);
  return worst_resid <= 1e-12 ? 0 : 1;
}
