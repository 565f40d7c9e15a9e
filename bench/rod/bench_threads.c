// SPDX-License-Identifier: Apache-2.0
/* Threads on long rods: per N, the nullspace right-hand side and the whole
 * analytic Jacobian in band storage in the node ordering
 * (cosrod_rod_jac_full_band) with 1 and 2 threads
 * (cosrod_rod_data_set_threads; the Jacobian is parallel from N >= 2000),
 * and, serial, the banded LU of 1e3 I - J (cosrod_band_factor) and one solve.  Minimum
 * over rounds of the mean of a timed batch, as wall time and as process CPU
 * time (CPU > wall means several threads worked).  Output: one line per
 * (N, part, threads): "N part threads wall_s cpu_s".
 * The rod: damped rubber, pinned at s = 0, helix, random velocities.
 * f runs in parallel at every N here (rod_par_set_min_segments(1)), to find
 * the N from which 2 threads pay off.
 * Usage: bench_threads [--rounds n] [N ...]   (default N = 1000 10000 100000) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"
#include "cosrod/rod.h"

/* from src/rod/rod_internal.h (the rod module's static library) */
void rod_par_set_min_segments(int n);

static double clk(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
  cosrod_rod *rod;
  cosrod_rod_data *d;
  double *y, *out;
  cosrod_rod_order *ord;
  cosrod_band *J, *E;
} bcase;

enum { PART_F, PART_JAC, PART_LU, PART_SOLVE };

static void run(bcase *B, int part) {
  switch (part) {
    case PART_F: cosrod_rod_rhs_nullspace(B->rod, B->d, 0.0, B->y, B->out); break;
    case PART_JAC:
      cosrod_rod_jac_full_band(B->rod, B->d, COSROD_FORM_NULLSPACE, 0.0, B->y, NULL, 1e3,
                               cosrod_rod_order_perm(B->ord), B->J->data + B->J->ml, B->J->ld, B->J->ml,
                               B->J->mu);
      break;
    case PART_LU:
      cosrod_band_set_combination(B->E, -1.0, B->J, 1e3, NULL);
      cosrod_band_factor(B->E);
      break;
    default: memcpy(B->out, B->y, sizeof(double) * (size_t)B->E->n); cosrod_band_solve(B->E, B->out); break;
  }
}

/* min over rounds of (wall, cpu) per call, batches of about 0.05 s. */
static void measure(bcase *B, int part, int rounds, double *wall, double *cpu) {
  int reps = 1;
  for (;;) {
    double t0 = clk(CLOCK_MONOTONIC);
    for (int i = 0; i < reps; ++i) run(B, part);
    if (clk(CLOCK_MONOTONIC) - t0 > 0.05 || reps > (1 << 20)) break;
    reps *= 2;
  }
  *wall = *cpu = 1e30;
  for (int r = 0; r < rounds; ++r) {
    double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < reps; ++i) run(B, part);
    double w = (clk(CLOCK_MONOTONIC) - w0) / reps, c = (clk(CLOCK_PROCESS_CPUTIME_ID) - c0) / reps;
    if (w < *wall) *wall = w;
    if (c < *cpu) *cpu = c;
  }
}

static int make(bcase *B, int N) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.shape = COSROD_SHAPE_HELIX, def.shape_radius = 0.2, def.pitch = 0.1, def.turns = 0.7;
  def.reference = COSROD_REFERENCE_STRAIGHT;
  def.damping = COSROD_DAMPING_COEFFICIENTS;
  def.visc_gamma[0] = def.visc_gamma[1] = 0.2, def.visc_gamma[2] = 400.0;
  def.visc_kappa[0] = def.visc_kappa[1] = 4e-4, def.visc_kappa[2] = 1.6e-5;
  def.gravity[2] = -9.81;
  def.ends[0].kind = COSROD_END_PINNED;
  B->rod = cosrod_rod_create(&def, NULL);
  if (!B->rod) return -1;
  B->d = cosrod_rod_data_create(B->rod, NULL);
  const int ny = cosrod_rod_ny(B->rod, COSROD_FORM_NULLSPACE), nq = cosrod_rod_nq(B->rod);
  B->y = calloc((size_t)ny, sizeof(double));
  B->out = calloc((size_t)ny, sizeof(double));
  cosrod_rod_initial_state(B->rod, COSROD_FORM_NULLSPACE, B->y);
  unsigned s = 12345u;
  for (int i = nq; i < ny; ++i) {
    s = s * 1103515245u + 12345u;
    B->y[i] = ((double)(s >> 8) / 16777216.0 - 0.5) * 0.2;
  }
  B->ord = cosrod_rod_order_create(B->rod, COSROD_FORM_NULLSPACE, NULL);
  int ml, mu;
  cosrod_rod_order_bandwidth(B->ord, &ml, &mu);
  B->J = cosrod_band_create(ny, ml, mu, NULL);
  B->E = cosrod_band_create(ny, ml, mu, NULL);
  return B->d && B->y && B->out && B->ord && B->J && B->E ? 0 : -1;
}

static void drop(bcase *B) {
  cosrod_band_free(B->J), cosrod_band_free(B->E);
  cosrod_rod_order_free(B->ord);
  free(B->y), free(B->out);
  cosrod_rod_data_free(B->d);
  cosrod_rod_free(B->rod);
}

int main(int argc, char **argv) {
  int rounds = 5, Ns[16], nN = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (nN < 16)
      Ns[nN++] = atoi(argv[i]);
  }
  if (nN == 0) Ns[0] = 1000, Ns[1] = 10000, Ns[2] = 100000, nN = 3;
  static const char *names[4] = {"f", "jac", "lu", "solve"};
  printf("# N part threads wall_s cpu_s   (parallel from N >= %d)\n", cosrod_rod_parallel_min_segments());
  rod_par_set_min_segments(1);
  for (int k = 0; k < nN; ++k) {
    bcase B;
    memset(&B, 0, sizeof B);
    if (make(&B, Ns[k]) != 0) {
      fprintf(stderr, "bench_threads: cannot set up N = %d\n", Ns[k]);
      return 1;
    }
    for (int part = PART_F; part <= PART_SOLVE; ++part)
      for (int th = 1; th <= (part == PART_F || part == PART_JAC ? 2 : 1); ++th) {
        cosrod_rod_data_set_threads(B.d, th);
        double w, c;
        measure(&B, part, rounds, &w, &c);
        printf("%d %s %d %.4e %.4e\n", Ns[k], names[part], th, w, c);
        fflush(stdout);
      }
    drop(&B);
  }
  return 0;
}
