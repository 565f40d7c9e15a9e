// SPDX-License-Identifier: Apache-2.0
/* Interrupt polling in the band LU (band_lu.c): with an installed flag that
 * is set, the OWN factorisations stop at the first poll (column 2047) with
 * ERR_INTERRUPTED, leave the columns beyond the elimination front untouched
 * and the matrix unfactored; with the flag installed but clear, or with no
 * flag, the factors solve the system (reference: the known solution x* of
 * A x = A x*, residual bound as linalg_testutil.h's RESID_TOL). */
#include <complex.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>

#include "cosrod/band.h"
#include "cosrod/status.h"
#include "harness.h"

enum { N = 20000, ML = 2, MU = 3 };

/* Diagonally dominant band matrix with entries depending on (i, j). */
static void fill(cosrod_band *A) {
  for (int j = 0; j < N; ++j)
    for (int i = j - MU; i <= j + ML; ++i)
      if (i >= 0 && i < N) cosrod_band_set(A, i, j, i == j ? 10.0 + (j % 7) : 1.0 / (1 + i + 2 * j % 5));
}
static void zfill(cosrod_zband *A) {
  for (int j = 0; j < N; ++j)
    for (int i = j - MU; i <= j + ML; ++i)
      if (i >= 0 && i < N)
        cosrod_zband_set(A, i, j, i == j ? 10.0 + (j % 7) + 3.0 * I : (1.0 - 0.5 * I) / (1 + i + 2 * j % 5));
}

static volatile sig_atomic_t g_flag;

/* max |x - x*| for b = A x*, x* = 1 + j/N, solved with the factors. */
static double solve_error(cosrod_band *A, cosrod_band *A0) {
  double *x = malloc(N * sizeof *x), *b = malloc(N * sizeof *b), err = 0.0;
  for (int j = 0; j < N; ++j) x[j] = 1.0 + (double)j / N;
  cosrod_band_matvec(A0, x, b);
  if (cosrod_band_solve(A, b) != COSROD_OK) err = INFINITY;
  for (int j = 0; j < N && isfinite(err); ++j) err = fmax(err, fabs(b[j] - x[j]));
  free(x), free(b);
  return err;
}

TEST(band_lu_stops_at_first_poll) {
  cosrod_band *A = cosrod_band_create(N, ML, MU, NULL), *A0 = cosrod_band_create(N, ML, MU, NULL);
  fill(A), fill(A0);
  const volatile sig_atomic_t *prev = cosrod_interrupt_install(&g_flag);
  g_flag = 1;
  cosrod_status st = cosrod_band_factor(A);
  CHECK("factor with the flag set -> ERR_INTERRUPTED", st == COSROD_ERR_INTERRUPTED);
  CHECK_NEAR("stopped at the first poll (column 2047)", A->singular_col, 2047, 0);
  CHECK("the matrix is not factored", !A->factored);
  /* the elimination front: column 2047 + MU + ML and beyond are untouched */
  double moved = 0.0;
  for (int j = 2047 + ML + MU + 1; j < N; ++j)
    for (int i = j - MU; i <= j + ML; ++i)
      if (i >= 0 && i < N) moved = fmax(moved, fabs(cosrod_band_get(A, i, j) - cosrod_band_get(A0, i, j)));
  CHECK_LE("columns beyond the front unchanged", moved, 0.0);
  /* flag installed but clear: a normal factorisation */
  g_flag = 0;
  fill(A);
  st = cosrod_band_factor(A);
  CHECK("factor with the flag clear -> OK", st == COSROD_OK);
  /* condition ~ 2 (diagonal dominance 10 vs off-diagonal sum < 5): error ~ eps */
  CHECK_LE("max |x - x*| (flag clear)", solve_error(A, A0), 1e-13);
  cosrod_interrupt_install(prev);
  g_flag = 1; /* no longer installed: ignored */
  fill(A);
  CHECK("flag uninstalled -> OK", cosrod_band_factor(A) == COSROD_OK);
  CHECK_LE("max |x - x*| (no flag)", solve_error(A, A0), 1e-13);
  g_flag = 0;
  cosrod_band_free(A), cosrod_band_free(A0);
}

TEST(zband_lu_stops_at_first_poll) {
  cosrod_zband *A = cosrod_zband_create(N, ML, MU, NULL);
  zfill(A);
  const volatile sig_atomic_t *prev = cosrod_interrupt_install(&g_flag);
  g_flag = 1;
  cosrod_status st = cosrod_zband_factor(A);
  CHECK("complex factor with the flag set -> ERR_INTERRUPTED", st == COSROD_ERR_INTERRUPTED);
  CHECK_NEAR("stopped at the first poll (column 2047)", A->singular_col, 2047, 0);
  CHECK("the matrix is not factored", !A->factored);
  g_flag = 0;
  zfill(A);
  CHECK("complex factor with the flag clear -> OK", cosrod_zband_factor(A) == COSROD_OK);
  /* residual of the solve: A x = b with x* = 1 + i j/N */
  cosrod_zband *A0 = cosrod_zband_create(N, ML, MU, NULL);
  zfill(A0);
  double _Complex *x = malloc(N * sizeof *x), *b = malloc(N * sizeof *b);
  for (int j = 0; j < N; ++j) x[j] = 1.0 + I * (double)j / N;
  cosrod_zband_matvec(A0, x, b);
  cosrod_zband_solve(A, b);
  double err = 0.0;
  for (int j = 0; j < N; ++j) err = fmax(err, cabs(b[j] - x[j]));
  CHECK_LE("max |x - x*| (flag clear)", err, 1e-13);
  free(x), free(b);
  cosrod_interrupt_install(prev);
  cosrod_zband_free(A), cosrod_zband_free(A0);
}

static const th_case cases[] = {
    TH_CASE(band_lu_stops_at_first_poll),
    TH_CASE(zband_lu_stops_at_first_poll),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
