// SPDX-License-Identifier: Apache-2.0
/* Every independent input error of a file reported at once: the loader
 * reports each problem of independent parts (list entries, top-level
 * sections, the unknown keys of one map) as one "FILE:LINE: key: problem"
 * line, up to 20, and does not check a part that depends on a part with a
 * problem (rods after a bad material, the rest of a map after an unknown key).
 * Expected lines written by hand from the texts below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "harness.h"

static int count_lines(const char *s) {
  if (!*s) return 0;
  int n = 1;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* line k (0-based) of s into out */
static void nth_line(const char *s, int k, char *out, size_t len) {
  for (int i = 0; i < k && s; i++) {
    s = strchr(s, '\n');
    if (s) s++;
  }
  if (!s) s = "";
  size_t n = strcspn(s, "\n");
  if (n >= len) n = len - 1;
  memcpy(out, s, n);
  out[n] = '\0';
}

static const char *HEAD = "cosrod: 1\n"
                          "materials:\n"
                          "  steel: {E: 2.1e11, poisson: 0.3, density: 7850}\n";

TEST(three_independent_errors) {
  const char *src = getenv("COSROD_SOURCE_DIR");
  char path[1200], l[512];
  snprintf(path, sizeof path, "%.1000s/tests/scenario/errors/three-independent.yaml", src ? src : ".");
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, NULL, 0, &st);
  NOTE("%s", cosrod_last_error());
  CHECK("rejected as a parse error", st == COSROD_ERR_PARSE && sc == NULL);
  CHECK_NEAR("three lines", count_lines(cosrod_last_error()), 3, 0);
  static const char *const want[3] = {":12: rods.0.colour: unknown key", ":14: rods.1.length: must be > 0",
                                      ":19: solver.rtol: expected a number"};
  for (int k = 0; k < 3; k++) {
    nth_line(cosrod_last_error(), k, l, sizeof l);
    CHECK(want[k], strncmp(l, path, strlen(path)) == 0 && strstr(l, want[k]) != NULL);
  }
}

TEST(dependent_parts_not_checked) {
  char text[2048];
  cosrod_scenario *sc = NULL;
  /* a bad material: the rod that uses it is not checked (its bad length is
   * not reported); the analysis (independent) is */
  snprintf(text, sizeof text,
           "cosrod: 1\n"
           "materials:\n"
           "  steel: {E: -1, poisson: 0.3, density: 7850}\n"
           "rods:\n"
           "  - {name: a, length: -2, segments: 4, material: steel, section: {shape: circle, radius: 0.01}}\n"
           "analysis: {type: dynamic, t_end: -1}\n");
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, strlen(text), "dep.yaml", NULL, 0, &st);
  NOTE("%s", cosrod_last_error());
  CHECK("rejected", st == COSROD_ERR_PARSE && sc == NULL);
  CHECK_NEAR("two lines (material, analysis)", count_lines(cosrod_last_error()), 2, 0);
  CHECK("material E reported", strstr(cosrod_last_error(), "dep.yaml:3: materials.steel.E: must be > 0") != NULL);
  CHECK("analysis t_end reported", strstr(cosrod_last_error(), "dep.yaml:6: analysis.t_end: must be > 0") != NULL);
  CHECK("rod length (depends on the material) not reported", strstr(cosrod_last_error(), "rods.0.length") == NULL);

  /* a misspelled key: all unknown keys of the map, not the "missing" key */
  snprintf(text, sizeof text,
           "%srods:\n"
           "  - {name: a, lenght: 1, segmnets: 4, material: steel, section: {shape: circle, radius: 0.01}}\n"
           "analysis: {type: dynamic, t_end: 1}\n",
           HEAD);
  sc = cosrod_scenario_parse(text, strlen(text), "typo.yaml", NULL, 0, &st);
  NOTE("%s", cosrod_last_error());
  CHECK_NEAR("two lines (both unknown keys)", count_lines(cosrod_last_error()), 2, 0);
  CHECK("lenght reported", strstr(cosrod_last_error(), "typo.yaml:5: rods.0.lenght: unknown key (did you mean 'length'?)") != NULL);
  CHECK("segmnets reported", strstr(cosrod_last_error(), "rods.0.segmnets: unknown key (did you mean 'segments'?)") != NULL);
  CHECK("no 'missing' that follows from the typo", strstr(cosrod_last_error(), "missing") == NULL);
}

TEST(at_most_twenty) {
  /* 30 rods, each with a bad segment count: 20 lines, then the loader stops */
  size_t cap = 8192, n;
  char *text = malloc(cap);
  CHECK("alloc", text != NULL);
  if (!text) return;
  n = (size_t)snprintf(text, cap, "%srods:\n", HEAD);
  for (int i = 0; i < 30; i++)
    n += (size_t)snprintf(text + n, cap - n,
                          "  - {name: r%d, length: 1, segments: 0, material: steel, section: {shape: circle, "
                          "radius: 0.01}}\n",
                          i);
  n += (size_t)snprintf(text + n, cap - n, "analysis: {type: dynamic, t_end: 1}\n");
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, n, "many.yaml", NULL, 0, &st);
  free(text);
  CHECK("rejected", st == COSROD_ERR_PARSE && sc == NULL);
  CHECK_NEAR("20 lines", count_lines(cosrod_last_error()), 20, 0);
  char l[512];
  nth_line(cosrod_last_error(), 19, l, sizeof l);
  NOTE("%s", l);
  CHECK("the 20th is rods.19 at line 24", strncmp(l, "many.yaml:24: rods.19.segments: ", 32) == 0);
  /* five bad rods: every line whole in the message (no caller buffer to cut it) */
  text = malloc(cap);
  if (!text) return;
  n = (size_t)snprintf(text, cap, "%srods:\n", HEAD);
  for (int i = 0; i < 5; i++)
    n += (size_t)snprintf(text + n, cap - n,
                          "  - {name: r%d, length: 1, segments: 0, material: steel, section: {shape: circle, "
                          "radius: 0.01}}\n",
                          i);
  n += (size_t)snprintf(text + n, cap - n, "analysis: {type: dynamic, t_end: 1}\n");
  sc = cosrod_scenario_parse(text, n, "many.yaml", NULL, 0, &st);
  free(text);
  const char *msg = cosrod_last_error();
  NOTE("%s", msg);
  CHECK("five bad rods: rejected, text starts with the first problem",
        st == COSROD_ERR_PARSE && sc == NULL && strncmp(msg, "many.yaml:5: rods.0.segments: ", 30) == 0);
  CHECK_NEAR("... and holds all five lines", count_lines(msg), 5, 0);
  char l2[512];
  nth_line(msg, 1, l2, sizeof l2);
  CHECK("second line whole", strcmp(l2, "many.yaml:6: rods.1.segments: must be >= 1 (got 0)") == 0);
}

static const th_case cases[] = {TH_CASE(three_independent_errors), TH_CASE(dependent_parts_not_checked),
                                TH_CASE(at_most_twenty)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
