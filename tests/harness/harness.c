// SPDX-License-Identifier: Apache-2.0
/* Implementation of the test harness (see harness.h). */
#include "harness.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_failed;  /* checks failed in the current case */
static int g_checks;  /* checks run in the current case */

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

int th_check(int ok, const char *file, int line, const char *what) {
  g_checks++;
  if (!ok) g_failed++;
  printf("  %s %s:%d %s\n", ok ? "ok  " : "FAIL", base_name(file), line, what);
  return ok;
}

int th_check_close(const char *file, int line, const char *what, double got, double want, double rtol,
                   double atol) {
  double err = fabs(got - want);
  double tol = atol + rtol * fabs(want);
  int ok = isfinite(got) && isfinite(want) && err <= tol;
  g_checks++;
  if (!ok) g_failed++;
  printf("  %s %s:%d %s: got %.17g want %.17g |err| %.3g <= tol %.3g\n", ok ? "ok  " : "FAIL",
         base_name(file), line, what, got, want, err, tol);
  return ok;
}

int th_check_le(const char *file, int line, const char *what, double value, double bound) {
  int ok = isfinite(value) && value <= bound;
  g_checks++;
  if (!ok) g_failed++;
  printf("  %s %s:%d %s: %.6g <= %.6g\n", ok ? "ok  " : "FAIL", base_name(file), line, what, value, bound);
  return ok;
}

int th_check_mat(const char *file, int line, const char *what, const double *got, const double *want,
                 size_t rows, size_t cols, size_t ld_got, size_t ld_want, double rtol, double atol) {
  double worst = 0.0, worst_tol = atol;
  size_t wi = 0, wj = 0;
  int ok = 1;
  for (size_t j = 0; j < cols; j++) {
    for (size_t i = 0; i < rows; i++) {
      double g = got[i + j * ld_got], w = want[i + j * ld_want];
      double err = fabs(g - w), tol = atol + rtol * fabs(w);
      if (!isfinite(g) || !isfinite(w) || err > tol) {
        if (ok || err - tol > worst - worst_tol) {
          wi = i;
          wj = j;
          worst = err;
          worst_tol = tol;
        }
        ok = 0;
      } else if (ok && err > worst) {
        worst = err;
        worst_tol = tol;
        wi = i;
        wj = j;
      }
    }
  }
  g_checks++;
  if (!ok) g_failed++;
  printf("  %s %s:%d %s: %zux%zu, max |err| %.3g (tol %.3g) at (%zu,%zu)\n", ok ? "ok  " : "FAIL",
         base_name(file), line, what, rows, cols, worst, worst_tol, wi, wj);
  if (!ok && rows * cols > 0)
    printf("       got %.17g want %.17g\n", got[wi + wj * ld_got], want[wi + wj * ld_want]);
  return ok;
}

int th_check_vec(const char *file, int line, const char *what, const double *got, const double *want,
                 size_t n, double rtol, double atol) {
  return th_check_mat(file, line, what, got, want, n, 1, n, n, rtol, atol);
}

void th_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("  note ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void th_rng_seed(th_rng *r, uint64_t seed) {
  /* splitmix64 to fill the state */
  for (int i = 0; i < 4; i++) {
    uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    r->s[i] = z ^ (z >> 31);
  }
}

uint64_t th_rng_u64(th_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double th_rng_uniform(th_rng *r, double lo, double hi) {
  double u = (double)(th_rng_u64(r) >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * u;
}

double th_rng_normal(th_rng *r) {
  double u1 = th_rng_uniform(r, 0.0, 1.0), u2 = th_rng_uniform(r, 0.0, 1.0);
  if (u1 < 1e-300) u1 = 1e-300;
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* A case is selected by FILTER (a substring of its name) or by one or more
 * --exact NAME (the sanitizer build runs several cases per process: its
 * per-process start and leak check cost ~0.1 s). */
static int selected(const char *name, const char *filter, char **exact, int nexact) {
  if (nexact == 0) return !filter || strstr(name, filter) != NULL;
  for (int j = 0; j < nexact; j++)
    if (strcmp(name, exact[j]) == 0) return 1;
  return 0;
}

int th_main(int argc, char **argv, const th_case *cases, size_t ncases) {
  const char *filter = NULL;
  char **exact = argv + 1; /* the names, compacted in place: at most argc - 1 */
  int nexact = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--list") == 0) {
      for (size_t k = 0; k < ncases; k++) printf("%s\n", cases[k].name);
      return 0;
    } else if (strcmp(argv[i], "--exact") == 0 && i + 1 < argc) {
      exact[nexact++] = argv[++i];
    } else if (strcmp(argv[i], "--help") == 0) {
      printf("usage: %s [--list] [--exact NAME]... | [FILTER]\n", argv[0]);
      return 0;
    } else {
      filter = argv[i];
    }
  }
  int run = 0, failed_cases = 0, total_checks = 0;
  for (size_t k = 0; k < ncases; k++) {
    if (!selected(cases[k].name, filter, exact, nexact)) continue;
    g_failed = 0;
    g_checks = 0;
    printf("[ RUN  ] %s\n", cases[k].name);
    fflush(stdout);
    cases[k].fn();
    run++;
    total_checks += g_checks;
    if (g_checks == 0) {
      printf("  FAIL case ran no checks\n");
      g_failed++;
    }
    printf("[ %s ] %s (%d checks, %d failed)\n", g_failed ? "FAIL" : " OK ", cases[k].name, g_checks,
           g_failed);
    fflush(stdout);
    if (g_failed) failed_cases++;
  }
  if (run == 0) {
    fprintf(stderr, "no test case matches '%s'\n", nexact ? exact[0] : filter ? filter : "");
    return 2;
  }
  if (nexact && run != nexact) {
    fprintf(stderr, "%d of the %d names given with --exact are no test case\n", nexact - run, nexact);
    return 2;
  }
  printf("%d case(s), %d check(s), %d failed case(s)\n", run, total_checks, failed_cases);
  return failed_cases ? 1 : 0;
}

int th_mapped(const char *lib) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return -1;
  char line[4096];
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) found = strstr(line, lib) != NULL;
  fclose(f);
  return found;
}
