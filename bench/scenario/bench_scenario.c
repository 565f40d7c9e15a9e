// SPDX-License-Identifier: Apache-2.0
/* Scenario loader benchmark: time to read + validate each example file, and
 * the cost per grid point of a large non-uniform grid (the loader's only
 * input that scales with the problem size).
 * Usage: bench_scenario [EXAMPLES_DIR]   (default: $COSROD_EXAMPLES or examples) */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/scenario.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : getenv("COSROD_EXAMPLES");
  if (!dir) dir = "examples";
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "bench_scenario: cannot open %s\n", dir);
    return 1;
  }
  printf("%-24s %10s\n", "example", "load [us]");
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 5, ".yaml")) continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    int reps = 200;
    double t0 = now();
    for (int i = 0; i < reps; i++) {
      cosrod_scenario *sc = NULL;
      if (!(sc = cosrod_scenario_load(path, NULL, 0, NULL))) {
        fprintf(stderr, "%s\n", cosrod_last_error());
        closedir(d);
        return 1;
      }
      cosrod_scenario_free(sc);
    }
    printf("%-24s %10.1f\n", e->d_name, 1e6 * (now() - t0) / reps);
  }
  closedir(d);

  /* non-uniform grid with n points */
  for (size_t n = 1000; n <= 1000000; n *= 10) {
    size_t cap = 256 + 24 * n;
    char *text = malloc(cap);
    if (!text) return 1;
    size_t len = (size_t)snprintf(text, cap,
                                  "cosrod: 1\nrods:\n  - material: {E: 1e6, poisson: 0.3, density: 1000}\n"
                                  "    section: {shape: circle, radius: 0.01}\n    grid: [0");
    for (size_t i = 1; i < n; i++)
      len += (size_t)snprintf(text + len, cap - len, ", %.9g", (double)i + 0.25 * (double)(i % 3));
    len += (size_t)snprintf(text + len, cap - len, "]\nanalysis: {t_end: 1}\n");
    cosrod_scenario *sc = NULL;
    double t0 = now();
    cosrod_status st = COSROD_OK;
    sc = cosrod_scenario_parse(text, len, "grid.yaml", NULL, 0, &st);
    double t = now() - t0;
    printf("grid of %7zu points: %s, %8.2f ms, %6.1f ns/point\n", n, st == COSROD_OK ? "ok" : cosrod_last_error(), 1e3 * t,
           1e9 * t / (double)n);
    cosrod_scenario_free(sc);
    free(text);
  }
  return 0;
}
