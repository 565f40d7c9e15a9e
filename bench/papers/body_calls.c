// SPDX-License-Identifier: Apache-2.0
/* A fixed number of right-hand-side calls of the free rigid body of [L]
 * Example B (examples/tennis-racket.yaml: no gravity, no loads, the setting
 * of [L] Table 1) in one formulation, for the operation counts of
 * bench/papers/body_flops.sh (callgrind; two call counts, the difference
 * removes the set-up).
 * Usage: body_calls EXAMPLES_DIR FORMULATION PARAMETRISATION CALLS
 *   FORMULATION nullspace | absolute, PARAMETRISATION quaternion | directors |
 *   euler-angles. */
#include <stdio.h>
#include <stdlib.h>

#include "body_bench.h"

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: body_calls EXAMPLES_DIR FORMULATION PARAMETRISATION CALLS\n");
    return 2;
  }
  char path[1024], buf[5][64];
  const char *sets[5];
  snprintf(path, sizeof path, "%s/tennis-racket.yaml", argv[1]);
  size_t ns = body_bench_form_sets(buf, sets, argv[2], argv[3], 1);
  long calls = atol(argv[4]);
  body_bench b;
  if (body_bench_open(&b, path, sets, ns)) return 1;
  double *y = b.y0, *yd = b.y, acc = 0.0;
  for (long c = 0; c < calls; ++c) {
    y[0] += 1e-9; /* a different state each call */
    b.p.f(0.0, y, yd, b.p.user);
    acc += yd[b.n - 1];
  }
  printf("n = %d, checksum %.6g\n", b.n, acc);
  body_bench_close(&b);
  return 0;
}
