// SPDX-License-Identifier: Apache-2.0
/* Invalid-input corpus: every file in tests/scenario/invalid/ is rejected with
 * exactly the "FILE:LINE: key.path: " prefix and problem text listed in
 * invalid/expected.tsv (expectations written by hand from the file contents:
 * the line is where the offending key or value is, the key path names it).
 * Also: every corpus file has an expectation, and there are at least 30. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "harness.h"

typedef struct row {
  char file[128], key[400], sub[200];
  int line;
} row;

static char g_dir[1024];

static int read_table(row *rows, int max) {
  const char *src = getenv("COSROD_SOURCE_DIR");
  snprintf(g_dir, sizeof g_dir, "%.900s/tests/scenario/invalid", src ? src : ".");
  char path[1200], buf[1024];
  snprintf(path, sizeof path, "%.1000s/expected.tsv", g_dir);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int n = 0;
  while (n < max && fgets(buf, sizeof buf, f)) {
    if (buf[0] == '#' || buf[0] == '\n') continue;
    buf[strcspn(buf, "\n")] = '\0';
    char *a = strtok(buf, "\t"), *b = strtok(NULL, "\t"), *c = strtok(NULL, "\t"), *d = strtok(NULL, "\t");
    if (!a || !b || !c || !d) continue;
    snprintf(rows[n].file, sizeof rows[n].file, "%s", a);
    rows[n].line = atoi(b);
    snprintf(rows[n].key, sizeof rows[n].key, "%s", c);
    snprintf(rows[n].sub, sizeof rows[n].sub, "%s", d);
    n++;
  }
  fclose(f);
  return n;
}

static row g_rows[256];

TEST(invalid_corpus) {
  int n = read_table(g_rows, 256);
  CHECK("expected.tsv readable", n > 0);
  CHECK_LE("at least 30 invalid files (negated count)", -(double)n, -30.0);
  int good = 0;
  for (int i = 0; i < n; i++) {
    char path[1200], want[1700], what[300];
    snprintf(path, sizeof path, "%.1000s/%.127s", g_dir, g_rows[i].file);
    cosrod_scenario *sc = NULL;
    cosrod_status st = COSROD_OK;
    sc = cosrod_scenario_load(path, NULL, 0, &st);
    snprintf(want, sizeof want, "%.1200s:%d: %.399s: ", path, g_rows[i].line, g_rows[i].key);
    int ok = st == COSROD_ERR_PARSE && sc == NULL && strncmp(cosrod_last_error(), want, strlen(want)) == 0 &&
             strstr(cosrod_last_error() + strlen(want), g_rows[i].sub) != NULL && strchr(cosrod_last_error(), '\n') == NULL;
    if (!ok)
      NOTE("%s: got '%s' (status %d), want prefix '%s' and '%s'", g_rows[i].file, cosrod_last_error(), (int)st, want,
           g_rows[i].sub);
    snprintf(what, sizeof what, "%.127s -> line %d, key %.60s", g_rows[i].file, g_rows[i].line,
             g_rows[i].key);
    CHECK(what, ok);
    good += ok;
    cosrod_scenario_free(sc);
  }
  CHECK_NEAR("all corpus files rejected as expected", good, n, 0);
}

TEST(corpus_complete) {
  int n = read_table(g_rows, 256);
  DIR *d = opendir(g_dir);
  CHECK("corpus directory", d != NULL);
  if (!d) return;
  int files = 0, missing = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 5, ".yaml")) continue;
    files++;
    int found = 0;
    for (int i = 0; i < n; i++) found |= !strcmp(g_rows[i].file, e->d_name);
    if (!found) {
      missing++;
      NOTE("no expectation for %s", e->d_name);
    }
  }
  closedir(d);
  CHECK_NEAR("every .yaml in invalid/ has a row in expected.tsv", missing, 0, 0);
  CHECK_NEAR("rows = files", n, files, 0);
}

static const th_case cases[] = {TH_CASE(invalid_corpus), TH_CASE(corpus_complete)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
