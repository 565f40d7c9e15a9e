// SPDX-License-Identifier: Apache-2.0
/* libFuzzer target for the scenario loader (`make fuzz`), and a replay test.
 *
 * Input: YAML text.  Leading lines "#set key.path=value" (YAML comments, so
 * the text stays valid) are also passed as --set overrides, so the fuzzer
 * explores the override code too.  Invariants checked on every input:
 * an error is one line per problem, each starting with the file name (or
 * "--set " for an override), at most 20 lines; an accepted
 * scenario satisfies what the validator promises (finite, in-range values,
 * strictly increasing grids, unit quaternions).  A broken invariant traps.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined by the root Makefile;
 * with COSROD_FUZZ_REPLAY_MAIN it is a normal test that replays the invalid
 * corpus and the examples (and fuzz_regress/ if present) through the same
 * entry point. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"

#define MAX_SETS 8

static void require(int cond) {
  if (!cond) __builtin_trap();
}

static void check_scenario(const cosrod_scenario *sc) {
  require(sc->version == 1 && sc->title && sc->output.dir);
  require(sc->nrods + sc->nbodies > 0);
  for (size_t i = 0; i < sc->nrods; i++) {
    const cosrod_sc_rod *r = &sc->rods[i];
    require(r->segments >= 1 && r->segments <= COSROD_SC_MAX_SEGMENTS);
    require(isfinite(r->length) && r->length > 0);
    for (size_t k = 1; k <= r->segments; k++) require(r->grid[k] > r->grid[k - 1]);
    require(r->EA > 0 && r->GA1 > 0 && r->GA2 > 0 && r->EI1 > 0 && r->EI2 > 0 && r->GJ > 0);
    require(r->rhoA > 0 && r->rhoI1 > 0 && r->rhoI2 > 0 && r->rhoJ > 0);
    require(r->material.poisson >= 0 && r->material.poisson <= 0.5);
    for (int e = 0; e < 2; e++) {
      const cosrod_sc_keyframes *o = &r->ends[e].orientation;
      for (size_t k = 0; k < o->n; k++) {
        const double *q = o->values + 4 * k;
        require(fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0) < 1e-12);
        if (k) require(o->t[k] > o->t[k - 1]);
      }
    }
    for (size_t k = 0; k < r->nloads; k++)
      require(r->loads[k].vertex >= -1 && r->loads[k].vertex <= (long)r->segments);
  }
  for (size_t i = 0; i < sc->nbodies; i++) {
    const double *q = sc->bodies[i].quaternion;
    require(fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0) < 1e-12);
    require(sc->bodies[i].mass > 0);
  }
  for (size_t i = 0; i < sc->njoints; i++)
    for (int k = 0; k < 2; k++)
      require(sc->joints[i].body[k] >= -1 && sc->joints[i].body[k] < (int)sc->nbodies);
  require(sc->solver.rtol > 0 && sc->solver.rtol < 1 && sc->solver.atol > 0);
  require(sc->output.every > 0 && isfinite(sc->output.every));
  (void)cosrod_scenario_line(sc, "rods.0.segments");
}

/* Returns 1 if the input was accepted, 0 if rejected. */
static int run_one(const uint8_t *data, size_t size) {
  char *sets[MAX_SETS] = {NULL};
  size_t nsets = 0, pos = 0;
  while (nsets < MAX_SETS && size - pos > 5 && memcmp(data + pos, "#set ", 5) == 0) {
    size_t end = pos + 5;
    while (end < size && data[end] != '\n' && data[end] != '\0') end++;
    size_t l = end - pos - 5;
    sets[nsets] = malloc(l + 1);
    if (!sets[nsets]) break;
    memcpy(sets[nsets], data + pos + 5, l);
    sets[nsets][l] = '\0';
    nsets++;
    pos = end < size ? end + 1 : end;
  }
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse((const char *)data, size, "fuzz.yaml", (const char *const *)sets,
                                           nsets, &st);
  for (size_t i = 0; i < nsets; i++) free(sets[i]);
  if (st == COSROD_OK) {
    require(sc != NULL);
    check_scenario(sc);
    cosrod_scenario_free(sc);
    return 1;
  }
  require(sc == NULL);
  require(st == COSROD_ERR_PARSE || st == COSROD_ERR_NOMEM);
  /* one line per problem (at most 20), each "fuzz.yaml:LINE: key: problem"
   * or "--set key: problem" for an override */
  int lines = 0;
  for (const char *l = cosrod_last_error();; lines++) {
    require(strncmp(l, "fuzz.yaml:", 10) == 0 || strncmp(l, "--set ", 6) == 0);
    const char *nl = strchr(l, '\n');
    if (!nl) break;
    require(nl[1] != '\0');
    l = nl + 1;
  }
  require(lines < 20);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  run_one(data, size);
  return 0;
}

#ifdef COSROD_FUZZ_REPLAY_MAIN
#include <dirent.h>
#include <sys/stat.h>

#include "harness.h"

/* Replays every file of a directory; returns files, counts accepted. */
static int replay_dir(const char *dir, int *accepted) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue; /* e.g. examples/c/ */
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    static uint8_t buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    *accepted += run_one(buf, len);
    n++;
  }
  closedir(d);
  return n;
}

TEST(replay_corpus) {
  const char *src = getenv("COSROD_SOURCE_DIR");
  char dir[1024];
  int acc_invalid = 0, acc_examples = 0, acc_regress = 0;
  snprintf(dir, sizeof dir, "%s/tests/scenario/invalid", src ? src : ".");
  int ni = replay_dir(dir, &acc_invalid);
  snprintf(dir, sizeof dir, "%s/examples", src ? src : ".");
  int ne = replay_dir(dir, &acc_examples);
  snprintf(dir, sizeof dir, "%s/tests/scenario/fuzz_regress", src ? src : ".");
  int nr = replay_dir(dir, &acc_regress);
  CHECK_NEAR("every fuzz_regress seed accepted (valid seeds, some with #set lines)", acc_regress, nr, 0);
  NOTE("replayed %d invalid (+ expected.tsv), %d examples, %d fuzz regressions (%d accepted)", ni, ne, nr,
       acc_regress);
  CHECK("corpus replayed without a trap", ni >= 31);
  CHECK_NEAR("no invalid file accepted (expected.tsv is not YAML scenario either)", acc_invalid, 0, 0);
  CHECK_NEAR("every example accepted and satisfies the invariants", acc_examples, ne, 0);
}

static const th_case cases[] = {TH_CASE(replay_corpus)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
#endif
