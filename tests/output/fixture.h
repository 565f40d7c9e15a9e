// SPDX-License-Identifier: Apache-2.0
/* Synthetic run data for the output tests: deterministic "hard" doubles
 * (random mantissas over 40 decades, subnormals, -0, 1/3, DBL_MAX) so that
 * a round trip through the files checks the number formatting bit for bit. */
#ifndef COSROD_TESTS_OUTPUT_FIXTURE_H
#define COSROD_TESTS_OUTPUT_FIXTURE_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/output.h"

static inline uint64_t fx_mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

/* Value number `col` of item `item` of rod `rod` at frame `frame`. */
static inline double fx_val(int frame, int rod, int item, int col) {
  uint64_t h = fx_mix(((uint64_t)frame << 40) ^ ((uint64_t)rod << 32) ^ ((uint64_t)item << 8) ^
                      (uint64_t)col ^ 0x9e3779b97f4a7c15ULL);
  switch (h % 16) {
    case 0:
      return 1.0 / 3.0;
    case 1:
      return -0.0;
    case 2:
      return 4.9406564584124654e-324; /* smallest subnormal */
    case 3:
      return -DBL_MAX;
    case 4:
      return 0.1;
    default: {
      double m = (double)(h >> 11) * 0x1p-53;
      int e = (int)((h >> 4) % 41) - 20;
      return ((h >> 10) & 1 ? -m : m) * pow(10.0, e);
    }
  }
}

static inline double fx_time(int frame) { return 0.1 * frame + 1.0 / 7.0; }

typedef struct fx_rod {
  size_t n;
  double *sv, *x, *ss, *p, *g, *F, *K, *M;
} fx_rod;

static inline void fx_rod_alloc(fx_rod *r, size_t n) {
  r->n = n;
  r->sv = calloc(n + 1, sizeof(double));
  r->x = calloc(3 * (n + 1), sizeof(double));
  r->ss = calloc(n, sizeof(double));
  r->p = calloc(4 * n, sizeof(double));
  r->g = calloc(3 * n, sizeof(double));
  r->F = calloc(3 * n, sizeof(double));
  r->K = calloc(3 * (n + 1), sizeof(double));
  r->M = calloc(3 * (n + 1), sizeof(double));
}

static inline void fx_rod_free(fx_rod *r) {
  free(r->sv), free(r->x), free(r->ss), free(r->p), free(r->g), free(r->F), free(r->K), free(r->M);
}

/* Column numbering follows the CSV files: centerline s,x,y,z = 0..3;
 * frames s,q0..q3 = 10..14; strains s,G,F = 20..26; curvatures s,K,M = 30..36. */
static inline void fx_rod_fill(fx_rod *r, int frame, int rod) {
  size_t n = r->n;
  for (size_t i = 0; i <= n; ++i) {
    r->sv[i] = fx_val(frame, rod, (int)i, 0);
    for (int c = 0; c < 3; ++c) r->x[3 * i + c] = fx_val(frame, rod, (int)i, 1 + c);
    for (int c = 0; c < 3; ++c) r->K[3 * i + c] = fx_val(frame, rod, (int)i, 31 + c);
    for (int c = 0; c < 3; ++c) r->M[3 * i + c] = fx_val(frame, rod, (int)i, 34 + c);
  }
  for (size_t i = 0; i < n; ++i) {
    r->ss[i] = fx_val(frame, rod, (int)i, 10);
    for (int c = 0; c < 4; ++c) r->p[4 * i + c] = fx_val(frame, rod, (int)i, 11 + c);
    for (int c = 0; c < 3; ++c) r->g[3 * i + c] = fx_val(frame, rod, (int)i, 21 + c);
    for (int c = 0; c < 3; ++c) r->F[3 * i + c] = fx_val(frame, rod, (int)i, 24 + c);
  }
  /* curvatures.csv repeats the vertex arc length of centerline.csv */
}

static inline cosrod_output_rod_frame fx_rod_frame(const fx_rod *r) {
  cosrod_output_rod_frame f = {r->n, r->sv, r->x, r->ss, r->p, r->g, r->F, r->K, r->M};
  return f;
}

/* Energy terms: the same hard doubles, but bounded (|v| <= 1e20) so that the
 * balance stays finite. */
static inline double fx_eval(int frame, int col) {
  double v = fx_val(frame, 99, 0, col);
  return fabs(v) > 1e20 ? 1.0 / 3.0 : v;
}

static inline cosrod_output_energy fx_energy(int frame) {
  cosrod_output_energy e = {fx_eval(frame, 1), fx_eval(frame, 2), fx_eval(frame, 3), fx_eval(frame, 4),
                            fx_eval(frame, 5)};
  return e;
}

#endif /* COSROD_TESTS_OUTPUT_FIXTURE_H */
