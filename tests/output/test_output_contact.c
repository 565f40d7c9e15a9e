// SPDX-License-Identifier: Apache-2.0
/* contacts.csv / obstacles.csv rows (src/output/output_contact.c): every
 * number reads back bit for bit with strtod (including values that "%.15g"
 * would round: 0.1 + 0.2, 1/3, pi, subnormals, -0), non-finite values as
 * nan / inf / -inf, the columns in the documented order and count (16 and
 * 8), under a decimal-comma locale as in C; a name that would break the CSV
 * (comma, quote, newline, empty) and a too small buffer are refused. */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/output.h"
#include "harness.h"

/* Split a row at commas (in place); returns the field count. */
static int split(char *row, char **f, int max) {
  int n = 0;
  row[strcspn(row, "\n")] = '\0';
  for (char *p = row; n < max;) {
    f[n++] = p;
    char *c = strchr(p, ',');
    if (!c) break;
    *c = '\0';
    p = c + 1;
  }
  return n;
}

static int same_bits(double a, double b) {
  if (isnan(a)) return isnan(b);
  return memcmp(&a, &b, sizeof a) == 0;
}

static long nbad;

static void check_num(const char *text, double v) {
  double back = strtod(text, NULL);
  if (!same_bits(back, v) && nbad++ < 10) NOTE("'%s' reads back %.17g, written %.17g", text, back, v);
}

static void rows(const cosrod_output *out, const char *label) {
  const double vals[] = {0.1 + 0.2, 1.0 / 3.0, 3.14159265358979323846, -0.0, 4.9406564584124654e-324,
                         2.2250738585072014e-308, 1e300, -1.5e-7, 123456789.123456789, 0.0};
  const int nv = (int)(sizeof vals / sizeof vals[0]);
  nbad = 0;
  char line[1024], *f[32];
  for (int s = 0; s < nv; s++) {
    cosrod_output_contact c = {3, 7, "floor", {0}, {0}, 0, 0, {0}, s % 2};
    for (int i = 0; i < 3; i++) {
      c.point[i] = vals[(s + i) % nv];
      c.normal[i] = vals[(s + 3 + i) % nv];
      c.ft[i] = vals[(s + 6 + i) % nv];
    }
    c.gap = vals[(s + 1) % nv] * -1.0;
    c.fn = vals[(s + 2) % nv];
    double t = vals[(s + 5) % nv];
    int n = cosrod_output_contact_row(out, line, sizeof line, t, &c);
    CHECK("contact row written", n > 0 && (size_t)n == strlen(line) && line[n - 1] == '\n');
    if (n <= 0) continue;
    int nf = split(line, f, 32);
    if (nf != 16) {
      CHECK("16 columns", 0);
      continue;
    }
    check_num(f[0], t);
    CHECK("rod, segment, other", !strcmp(f[1], "3") && !strcmp(f[2], "7") && !strcmp(f[3], "floor"));
    for (int i = 0; i < 3; i++) check_num(f[4 + i], c.point[i]), check_num(f[7 + i], c.normal[i]);
    check_num(f[10], c.gap);
    check_num(f[11], c.fn);
    for (int i = 0; i < 3; i++) check_num(f[12 + i], c.ft[i]);
    CHECK("state", !strcmp(f[15], s % 2 ? "slip" : "stick"));
    double F[3] = {vals[s], -vals[(s + 1) % nv], vals[(s + 2) % nv]}, M[3] = {NAN, INFINITY, -INFINITY};
    n = cosrod_output_obstacle_row(out, line, sizeof line, t, "pulley", F, M);
    CHECK("obstacle row written", n > 0);
    if (n <= 0 || split(line, f, 32) != 8) {
      CHECK("8 columns", 0);
      continue;
    }
    check_num(f[0], t);
    CHECK("name", !strcmp(f[1], "pulley"));
    for (int i = 0; i < 3; i++) check_num(f[2 + i], F[i]);
    CHECK("non-finite as nan, inf, -inf", !strcmp(f[5], "nan") && !strcmp(f[6], "inf") && !strcmp(f[7], "-inf"));
  }
  NOTE("%s: %ld numbers did not read back", label, nbad);
  CHECK(label, nbad == 0);
}

TEST(rows_round_trip) {
  rows(NULL, "C locale, no output object");
  char dir[] = "/tmp/cosrod_outcontact_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK("temp dir", 0);
    return;
  }
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.vtk = 0, cfg.plots = 0;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  CHECK("output created", out != NULL);
  /* a decimal-comma locale where installed: the output object's C locale wins */
  const char *loc = setlocale(LC_NUMERIC, "de_DE.UTF-8");
  if (!loc) loc = setlocale(LC_NUMERIC, "fr_FR.UTF-8");
  NOTE("LC_NUMERIC for the second pass: %s", loc ? loc : "C (no decimal-comma locale installed)");
  if (out) rows(out, "output object's C locale");
  setlocale(LC_NUMERIC, "C");
  cosrod_output_close(out, NULL);
  cosrod_output_free(out);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK("cleanup", system(cmd) == 0);
}

TEST(bad_names_and_small_buffers) {
  char line[256];
  cosrod_output_contact c = {0, 0, "a,b", {0}, {0, 0, 1}, -1e-4, 1.0, {0}, 0};
  CHECK("comma in the other's name refused", cosrod_output_contact_row(NULL, line, sizeof line, 0.0, &c) < 0);
  c.other = "";
  CHECK("empty name refused", cosrod_output_contact_row(NULL, line, sizeof line, 0.0, &c) < 0);
  c.other = "0:12";
  CHECK("rod:segment accepted", cosrod_output_contact_row(NULL, line, sizeof line, 0.0, &c) > 0);
  CHECK("too small a buffer refused", cosrod_output_contact_row(NULL, line, 20, 0.0, &c) < 0);
  double F[3] = {1, 2, 3}, M[3] = {4, 5, 6};
  CHECK("quote in an obstacle name refused", cosrod_output_obstacle_row(NULL, line, sizeof line, 0, "a\"b", F, M) < 0);
  CHECK("obstacle row", cosrod_output_obstacle_row(NULL, line, sizeof line, 0.5, "floor", F, M) > 0 &&
                            !strcmp(line, "0.5,floor,1,2,3,4,5,6\n"));
}

static const th_case cases[] = {TH_CASE(rows_round_trip), TH_CASE(bad_names_and_small_buffers)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
