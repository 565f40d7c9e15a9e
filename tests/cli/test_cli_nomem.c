// SPDX-License-Identifier: Apache-2.0
/* Allocation failures while `cosrod run` creates the simulation end with a
 * summary.json saying so.  The CLI's run command (cmd_run.c,
 * cli_prepare.c) is linked into this test and driven in-process; malloc,
 * calloc and realloc are wrapped (-Wl,--wrap, as tests/noalloc) and so is
 * cosrod_sim_create, so that the k-th allocation inside the creation fails,
 * for every k of a small scenario.  Each run must return exit status 1 (no
 * crash), and summary.json must exist and say status "failed", reason
 * ERR_NOMEM, "out of memory"; under ASan, LeakSanitizer checks that the
 * partly created simulation is freed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cosrod/sim.h"
#include "harness.h"

int cosrod_cmd_run(int argc, char **argv); /* src/cli/cmd_run.c */

void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t m, size_t n);
void *__wrap_realloc(void *p, size_t n);
cosrod_sim *__real_cosrod_sim_create(const cosrod_scenario *sc, cosrod_status *status, char *err,
                                     size_t errlen);
cosrod_sim *__wrap_cosrod_sim_create(const cosrod_scenario *sc, cosrod_status *status, char *err,
                                     size_t errlen);

static int g_in_create;
static long g_count, g_fail_at; /* allocations counted inside cosrod_sim_create; fail the g_fail_at-th */

static int fail_now(void) { return g_in_create && ++g_count == g_fail_at; }
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t m, size_t n) { return fail_now() ? NULL : __real_calloc(m, n); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }

cosrod_sim *__wrap_cosrod_sim_create(const cosrod_scenario *sc, cosrod_status *status, char *err,
                                     size_t errlen) {
  g_in_create = 1;
  g_count = 0;
  cosrod_sim *s = __real_cosrod_sim_create(sc, status, err, errlen);
  g_in_create = 0;
  return s;
}

/* `cosrod run perf-steel.yaml -o dir -q` (N = 10, 10 ms, no plots/VTK). */
static int run_cli(const char *dir) {
  char file[1024];
  const char *ex = getenv("COSROD_EXAMPLES");
  snprintf(file, sizeof file, "%s/perf-steel.yaml", ex ? ex : "examples");
  char *argv[] = {file,        "-o",
                  (char *)dir, "-q",
                  "--set",     "analysis.t_end=0.01",
                  "--set",     "output.every=0.01",
                  "--set",     "output.plots=false",
                  "--set",     "output.vtk=false",
                  NULL};
  return cosrod_cmd_run((int)(sizeof argv / sizeof argv[0]) - 1, argv);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = __real_malloc(1 << 20);
  size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
  fclose(f);
  if (buf) buf[n] = '\0';
  return buf;
}

TEST(nomem_in_sim_create_writes_summary) {
  char base[] = "/tmp/cosrod_nomem_XXXXXX", dir[256], path[300], cmd[300];
  CHECK("temporary directory", mkdtemp(base) != NULL);
  /* dry run: no failure, count the allocations of the creation */
  snprintf(dir, sizeof dir, "%s/ok", base);
  g_fail_at = 0;
  int rc = run_cli(dir);
  long total = g_count;
  NOTE("allocations inside cosrod_sim_create: %ld", total);
  CHECK("run without failures: exit 0", rc == 0);
  CHECK("the creation allocates", total > 10);
  long bad_rc = 0, bad_summary = 0, first_bad = 0;
  for (long k = 1; k <= total; ++k) {
    snprintf(dir, sizeof dir, "%s/k%ld", base, k);
    g_fail_at = k;
    rc = run_cli(dir);
    g_fail_at = 0;
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *js = slurp(path);
    int ok_summary = js && strstr(js, "\"status\": \"failed\"") && strstr(js, "\"reason\": \"ERR_NOMEM\"") &&
                     strstr(js, "out of memory");
    if (rc != 1) bad_rc++;
    if (!ok_summary) bad_summary++;
    if ((rc != 1 || !ok_summary) && !first_bad) {
      first_bad = k;
      NOTE("allocation %ld failing: exit %d, summary.json %s", k, rc, js ? js : "(missing)");
    }
    free(js);
  }
  CHECK_LE("runs with exit status != 1", (double)bad_rc, 0.0);
  CHECK_LE("runs without a summary.json saying out of memory", (double)bad_summary, 0.0);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
  CHECK("clean up", system(cmd) == 0);
}

static const th_case cases[] = {
    TH_CASE(nomem_in_sim_create_writes_summary),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
