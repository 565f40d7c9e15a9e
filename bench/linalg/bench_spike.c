// SPDX-License-Identifier: Apache-2.0
/* Benchmark: global banded LU (factor + one solve) against the partitioned
 * SPIKE solver (cosrod_band_spike) with p partitions on 1 and 2 threads.
 *
 * Shapes: rod-like band matrices with the bandwidths of the rod systems
 * (see bench/results/spike.md): for N segments, "galpha" n = 6N, ml = mu =
 * 11 and "rodas" n = 13N, ml = 15, mu = 19; random entries in [-1, 1] with
 * the diagonal 0.6 (1 + row sum) (diagonally dominant by 0.6: partial
 * pivoting still swaps rows at times).  Each configuration is timed
 * `reps` times (matrix restored from a copy outside the timed region); the
 * minimum wall time (CLOCK_MONOTONIC) and minimum process CPU time
 * (CLOCK_PROCESS_CPUTIME_ID, summed over threads) are printed.
 *
 * --complex: the same for complex matrices (cosrod_zband_spike against the
 * complex band LU; "rodas" is then the shape of radau5's complex system
 * E2 = (alpha + i beta)/h M - J, entries with random real and imaginary
 * parts, diagonal 0.6 (1 + row sum of moduli) e^{i pi/4}).
 * --order: the numbers are matrix orders n instead of segments N
 * (N = ceil(n / 6) or ceil(n / 13)).
 *
 * Usage: bench_spike [--quick] [--reps R] [--shape galpha|rodas] [--complex] [--order] [N...] */
#define _POSIX_C_SOURCE 200809L
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"
#include "cosrod/band_spike.h"

static double clk(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double urand(void) { /* xorshift64*, uniform in [-1, 1) */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) * 0x1.0p-52 - 1.0;
}

static void fill(cosrod_band *A) {
  const int n = A->n;
  for (int j = 0; j < n; ++j)
    for (int i = j - A->mu < 0 ? 0 : j - A->mu; i <= (j + A->ml < n - 1 ? j + A->ml : n - 1); ++i)
      cosrod_band_set(A, i, j, urand());
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = i - A->ml < 0 ? 0 : i - A->ml; j <= (i + A->mu < n - 1 ? i + A->mu : n - 1); ++j)
      if (j != i) s += fabs(cosrod_band_get(A, i, j));
    cosrod_band_set(A, i, i, 0.6 * (1.0 + s));
  }
}

typedef struct timing {
  double wall, cpu, resid;
  int fell_back;
} timing;

/* p = 0: global LU; else SPIKE with p partitions on nt threads. */
static timing run(const cosrod_band *A0, cosrod_band *A, const double *b, double *x, int p, int nt, int reps) {
  timing t = {INFINITY, INFINITY, 0.0, 0};
  const int n = A0->n;
  cosrod_band_spike *S = p > 0 ? cosrod_band_spike_create(n, A0->ml, A0->mu, p, NULL) : NULL;
  if (S) cosrod_band_spike_set_threads(S, nt);
  for (int r = 0; r < reps; ++r) {
    cosrod_band_copy(A, A0);
    memcpy(x, b, (size_t)n * sizeof(double));
    const double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
    if (S) {
      cosrod_band_spike_factor(S, A);
      cosrod_band_spike_solve(S, x);
    } else {
      cosrod_band_factor(A);
      cosrod_band_solve(A, x);
    }
    const double w1 = clk(CLOCK_MONOTONIC), c1 = clk(CLOCK_PROCESS_CPUTIME_ID);
    t.wall = fmin(t.wall, w1 - w0);
    t.cpu = fmin(t.cpu, c1 - c0);
  }
  if (S) t.fell_back = cosrod_band_spike_fell_back(S);
  double *r = malloc((size_t)n * sizeof(double)), rn = 0.0, xn = 0.0;
  cosrod_band_matvec(A0, x, r);
  for (int i = 0; i < n; ++i) rn = fmax(rn, fabs(r[i] - b[i])), xn = fmax(xn, fabs(x[i]));
  t.resid = rn / (cosrod_band_norm_inf(A0) * xn);
  free(r);
  cosrod_band_spike_free(S);
  return t;
}

static void zfill(cosrod_zband *A) {
  const int n = A->n;
  for (int j = 0; j < n; ++j)
    for (int i = j - A->mu < 0 ? 0 : j - A->mu; i <= (j + A->ml < n - 1 ? j + A->ml : n - 1); ++i)
      cosrod_zband_set(A, i, j, CMPLX(urand(), urand()));
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = i - A->ml < 0 ? 0 : i - A->ml; j <= (i + A->mu < n - 1 ? i + A->mu : n - 1); ++j)
      if (j != i) s += cabs(cosrod_zband_get(A, i, j));
    cosrod_zband_set(A, i, i, 0.6 * (1.0 + s) * CMPLX(sqrt(0.5), sqrt(0.5)));
  }
}

/* As run, complex: the right-hand side split into re, im as radau5 solves it. */
static timing zrun(const cosrod_zband *A0, cosrod_zband *A, const double *b, double *x, int p, int nt, int reps) {
  timing t = {INFINITY, INFINITY, 0.0, 0};
  const int n = A0->n;
  cosrod_zband_spike *S = p > 0 ? cosrod_zband_spike_create(n, A0->ml, A0->mu, p, NULL) : NULL;
  if (S) cosrod_zband_spike_set_threads(S, nt);
  for (int r = 0; r < reps; ++r) {
    cosrod_zband_copy(A, A0);
    memcpy(x, b, 2 * (size_t)n * sizeof(double));
    const double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
    if (S) {
      cosrod_zband_spike_factor(S, A);
      cosrod_zband_spike_solve_split(S, x, x + n);
    } else {
      cosrod_zband_factor(A);
      cosrod_zband_solve_split(A, x, x + n);
    }
    const double w1 = clk(CLOCK_MONOTONIC), c1 = clk(CLOCK_PROCESS_CPUTIME_ID);
    t.wall = fmin(t.wall, w1 - w0);
    t.cpu = fmin(t.cpu, c1 - c0);
  }
  if (S) t.fell_back = cosrod_zband_spike_fell_back(S);
  double complex *xz = malloc((size_t)n * sizeof *xz), *r = malloc((size_t)n * sizeof *r);
  for (int i = 0; i < n; ++i) xz[i] = CMPLX(x[i], x[n + i]);
  cosrod_zband_matvec(A0, xz, r);
  double rn = 0.0, xn = 0.0;
  for (int i = 0; i < n; ++i) rn = fmax(rn, cabs(r[i] - CMPLX(b[i], b[n + i]))), xn = fmax(xn, cabs(xz[i]));
  t.resid = rn / (cosrod_zband_norm_inf(A0) * xn);
  free(r);
  free(xz);
  cosrod_zband_spike_free(S);
  return t;
}

static const int cfg[][2] = {{2, 1}, {2, 2}, {4, 1}, {4, 2}};

static void zbench_shape(const char *shape, int N, int reps) {
  const int galpha = strcmp(shape, "galpha") == 0;
  const int n = galpha ? 6 * N : 13 * N, ml = galpha ? 11 : 15, mu = galpha ? 11 : 19;
  cosrod_zband *A0 = cosrod_zband_create(n, ml, mu, NULL), *A = cosrod_zband_create(n, ml, mu, NULL);
  double *b = malloc(2 * (size_t)n * sizeof(double)), *x = malloc(2 * (size_t)n * sizeof(double));
  zfill(A0);
  for (int i = 0; i < 2 * n; ++i) b[i] = urand();
  const timing g = zrun(A0, A, b, x, 0, 1, reps);
  printf("z%-5s N=%-7d n=%-8d (%d,%d) global LU     wall %9.3f ms  cpu %9.3f ms  resid %.1e\n", shape, N, n, ml, mu,
         1e3 * g.wall, 1e3 * g.cpu, g.resid);
  for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
    const timing s = zrun(A0, A, b, x, cfg[k][0], cfg[k][1], reps);
    printf("z%-5s N=%-7d n=%-8d (%d,%d) spike p=%d t=%d wall %9.3f ms  cpu %9.3f ms  resid %.1e  speed-up(wall) %.2f%s\n",
           shape, N, n, ml, mu, cfg[k][0], cfg[k][1], 1e3 * s.wall, 1e3 * s.cpu, s.resid, g.wall / s.wall,
           s.fell_back ? "  FALLBACK" : "");
  }
  fflush(stdout);
  free(b);
  free(x);
  cosrod_zband_free(A0);
  cosrod_zband_free(A);
}

static void bench_shape(const char *shape, int N, int reps) {
  const int galpha = strcmp(shape, "galpha") == 0;
  const int n = galpha ? 6 * N : 13 * N, ml = galpha ? 11 : 15, mu = galpha ? 11 : 19;
  cosrod_band *A0 = cosrod_band_create(n, ml, mu, NULL), *A = cosrod_band_create(n, ml, mu, NULL);
  double *b = malloc((size_t)n * sizeof(double)), *x = malloc((size_t)n * sizeof(double));
  fill(A0);
  for (int i = 0; i < n; ++i) b[i] = urand();
  const timing g = run(A0, A, b, x, 0, 1, reps);
  printf("%-6s N=%-7d n=%-8d (%d,%d) global LU     wall %9.3f ms  cpu %9.3f ms  resid %.1e\n", shape, N, n, ml, mu,
         1e3 * g.wall, 1e3 * g.cpu, g.resid);
  for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
    const timing s = run(A0, A, b, x, cfg[k][0], cfg[k][1], reps);
    printf("%-6s N=%-7d n=%-8d (%d,%d) spike p=%d t=%d wall %9.3f ms  cpu %9.3f ms  resid %.1e  speed-up(wall) %.2f%s\n",
           shape, N, n, ml, mu, cfg[k][0], cfg[k][1], 1e3 * s.wall, 1e3 * s.cpu, s.resid, g.wall / s.wall,
           s.fell_back ? "  FALLBACK" : "");
  }
  fflush(stdout);
  free(b);
  free(x);
  cosrod_band_free(A0);
  cosrod_band_free(A);
}

int main(int argc, char **argv) {
  int reps = 7, quick = 0, nN = 0, Ns[8], cplx = 0, order = 0;
  const char *shape = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--complex"))
      cplx = 1;
    else if (!strcmp(argv[i], "--order"))
      order = 1;
    else if (!strcmp(argv[i], "--shape") && i + 1 < argc)
      shape = argv[++i];
    else if (nN < 8)
      Ns[nN++] = atoi(argv[i]);
  }
  if (nN == 0) {
    Ns[nN++] = 1000;
    if (!quick) Ns[nN++] = 10000, Ns[nN++] = 100000;
  }
  if (quick) reps = 2;
  for (int s = 0; s < 2; ++s) {
    const char *sh = s == 0 ? "galpha" : "rodas";
    if (shape && strcmp(shape, sh)) continue;
    for (int k = 0; k < nN; ++k) {
      const int per = s == 0 ? 6 : 13, N = order ? (Ns[k] + per - 1) / per : Ns[k];
      const int rr = N * per >= 600000 ? (reps + 1) / 2 : reps;
      if (cplx)
        zbench_shape(sh, N, rr);
      else
        bench_shape(sh, N, rr);
    }
  }
  return 0;
}
