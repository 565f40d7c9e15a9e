// SPDX-License-Identifier: Apache-2.0
/* view.html writer (include/cosrod/view.h): the files inlined as JSON
 * strings, '<' escaped so no file closes the script, steps.csv left out,
 * frames decimated to the data budget (every k-th output time and the
 * last), no summary.json refused (a page that says so where other files of a
 * run are there); a page written again keeps its viewer part and rewrites
 * only the data in place (same inode), and is then byte for byte the page
 * written afresh, also when the data shrinks or grows; a foreign page, or
 * one with a second link, is replaced whole. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cosrod/view.h"
#include "harness.h"

static void put(const char *dir, const char *name, const char *text) {
  char p[4200];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  fputs(text, f);
  fclose(f);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *b = malloc((size_t)n + 1);
  size_t got = fread(b, 1, (size_t)n, f);
  b[got] = '\0';
  fclose(f);
  return b;
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
  return n;
}

/* An output directory with `nt` output times of a 1-segment rod. */
static char *fixture(int nt) {
  char tmpl[] = "/tmp/cosrod_view_XXXXXX";
  char *dir = mkdtemp(tmpl) ? strdup(tmpl) : NULL;
  put(dir, "summary.json", "{\"title\": \"a </script> title\", \"status\": \"ok\"}\n");
  put(dir, "steps.csv", "t,h,accepted\n0,0.1,1\n");
  char *cl = malloc(64 * (size_t)nt + 64);
  strcpy(cl, "t,rod,vertex,s,x,y,z\n");
  for (int i = 0; i < nt; i++) {
    char row[128];
    snprintf(row, sizeof row, "%d.5,0,0,0,0,0,0\n%d.5,0,1,1,1,0,0\n", i, i);
    strcat(cl, row);
  }
  put(dir, "centerline.csv", cl);
  free(cl);
  return dir;
}

static void cleanup(char *dir) {
  const char *names[] = {"summary.json", "steps.csv", "centerline.csv", "view.html"};
  char p[4200];
  for (size_t i = 0; i < 4; i++) snprintf(p, sizeof p, "%s/%s", dir, names[i]), remove(p);
  rmdir(dir);
  free(dir);
}

TEST(view_inlines_files) {
  if (!cosrod_view_available()) {
    th_note("viewer not built (no node / npm): only the refusal is checked");
    char msg[256];
    CHECK("refused", cosrod_view_write("/tmp", NULL, 0, msg, sizeof msg) == COSROD_ERR_UNSUPPORTED);
    CHECK("says why", strstr(msg, "not built") != NULL);
    return;
  }
  char *dir = fixture(10), msg[512], p[4200];
  CHECK("written", cosrod_view_write(dir, NULL, 0, msg, sizeof msg) == COSROD_OK);
  CHECK("no note", msg[0] == '\0');
  snprintf(p, sizeof p, "%s/view.html", dir);
  char *html = slurp(p);
  CHECK("html", html && strncmp(html, "<!DOCTYPE html>", 15) == 0);
  CHECK("summary inlined, '<' escaped", strstr(html, "a \\u003c/script> title") != NULL);
  CHECK("one data script, one code script, closed once each", count(html, "</script>") == 2);
  CHECK("steps.csv not inlined", strstr(html, "steps.csv") == NULL);
  CHECK("all 10 times", count(html, ".5,0,1,1,1,0,0\\n") == 10);
  free(html);
  cleanup(dir);
}

TEST(view_decimates_to_budget) {
  if (!cosrod_view_available()) return;
  char *dir = fixture(10), msg[512], p[4200];
  /* centerline.csv: 21 + 10 * 28 = 301 bytes; budget 100 -> stride ceil(301/100) = 4:
   * times 0, 4, 8 and the last, 9 */
  CHECK("written", cosrod_view_write(dir, NULL, 100, msg, sizeof msg) == COSROD_OK);
  th_note("note: %s", msg);
  CHECK("note says every 4-th of 10", strstr(msg, "every 4-th of the 10 output times") != NULL);
  CHECK("note says 4 frames are shown", strstr(msg, "(and the last), 4 frames") != NULL);
  snprintf(p, sizeof p, "%s/view.html", dir);
  char *html = slurp(p);
  CHECK("4 times kept", count(html, ",0,1,1,1,0,0\\n") == 4);
  CHECK("t = 0.5, 4.5, 8.5, 9.5", strstr(html, "\\n0.5,0,0") && strstr(html, "\\n4.5,0,0") &&
                                      strstr(html, "\\n8.5,0,0") && strstr(html, "\\n9.5,0,0") &&
                                      !strstr(html, "\\n1.5,0,0") && !strstr(html, "\\n5.5,0,0"));
  CHECK("the note reaches the page", strstr(html, "every 4-th") != NULL);
  free(html);
  cleanup(dir);
}

TEST(view_refuses_non_output_dir) {
  if (!cosrod_view_available()) return;
  char tmpl[] = "/tmp/cosrod_view_XXXXXX", msg[512];
  CHECK("tmp dir", mkdtemp(tmpl) != NULL);
  CHECK("no summary.json: refused", cosrod_view_write(tmpl, NULL, 0, msg, sizeof msg) == COSROD_ERR_IO);
  CHECK("message names summary.json", strstr(msg, "no summary.json") != NULL);
  rmdir(tmpl);
}

/* Files of a run without summary.json (copied without it): the page is
 * written (its data without summary.json, so it shows the loader's
 * message), and the call reports the missing file. */
TEST(view_without_summary_writes_a_page_that_says_so) {
  if (!cosrod_view_available()) return;
  char tmpl[] = "/tmp/cosrod_view_XXXXXX", msg[512], p[4200];
  CHECK("tmp dir", mkdtemp(tmpl) != NULL);
  put(tmpl, "centerline.csv", "t,rod,vertex,s,x,y,z\n0,0,0,0,0,0,0\n0,0,1,1,1,0,0\n");
  CHECK("no summary.json: reported", cosrod_view_write(tmpl, NULL, 0, msg, sizeof msg) == COSROD_ERR_IO);
  th_note("message: %s", msg);
  CHECK("message names summary.json and the page", strstr(msg, "no summary.json") && strstr(msg, "view.html says so"));
  snprintf(p, sizeof p, "%s/view.html", tmpl);
  char *html = slurp(p);
  CHECK("page written", html != NULL);
  CHECK("with the run's files, without summary.json", html && strstr(html, "\"centerline.csv\":") &&
                                                         !strstr(html, "\"summary.json\":"));
  free(html);
  remove(p);
  snprintf(p, sizeof p, "%s/centerline.csv", tmpl);
  remove(p);
  rmdir(tmpl);
}

static long inode(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (long)sb.st_ino : -1;
}

/* The page at path equals a page written afresh (to DIR/fresh.html, which
 * does not exist before). */
static int same_as_fresh(const char *dir, const char *path) {
  char fresh[4200];
  snprintf(fresh, sizeof fresh, "%s/fresh.html", dir);
  remove(fresh);
  if (cosrod_view_write(dir, fresh, 0, NULL, 0) != COSROD_OK) return 0;
  char *a = slurp(path), *b = slurp(fresh);
  int same = a && b && strcmp(a, b) == 0;
  free(a), free(b);
  remove(fresh);
  return same;
}

TEST(view_rewrite_in_place) {
  if (!cosrod_view_available()) return;
  char *dir = fixture(10), p[4200], p2[4200];
  snprintf(p, sizeof p, "%s/view.html", dir);
  snprintf(p2, sizeof p2, "%s/view2.html", dir);
  CHECK("written", cosrod_view_write(dir, NULL, 0, NULL, 0) == COSROD_OK);
  long ino = inode(p);
  put(dir, "centerline.csv", "t,rod,vertex,s,x,y,z\n0.5,0,0,0,0,0,0\n0.5,0,1,1,1,0,0\n");
  CHECK("written again (less data)", cosrod_view_write(dir, NULL, 0, NULL, 0) == COSROD_OK);
  CHECK("in place: same inode", inode(p) == ino);
  CHECK("equals the page written afresh", same_as_fresh(dir, p));
  char *one = slurp(p);
  CHECK("one time left", one && count(one, ",0,1,1,1,0,0\\n") == 1);
  free(one);
  /* a second link: replaced whole, the other name keeps the old page */
  CHECK("linked", link(p, p2) == 0);
  char *old = slurp(p2);
  char *cl = malloc(1024);
  strcpy(cl, "t,rod,vertex,s,x,y,z\n");
  for (int i = 0; i < 12; i++) {
    char row[128];
    snprintf(row, sizeof row, "%d.5,0,0,0,0,0,0\n%d.5,0,1,1,1,0,0\n", i, i);
    strcat(cl, row);
  }
  put(dir, "centerline.csv", cl);
  free(cl);
  CHECK("written with a second link", cosrod_view_write(dir, NULL, 0, NULL, 0) == COSROD_OK);
  CHECK("replaced: a new inode", inode(p) != ino);
  char *kept = slurp(p2);
  CHECK("the other link kept the old page", old && kept && strcmp(old, kept) == 0);
  free(old), free(kept);
  remove(p2);
  CHECK("equals the page written afresh (12 times)", same_as_fresh(dir, p));
  /* more data again, in place (the file grows) */
  ino = inode(p);
  put(dir, "energy.csv", "t,kinetic\n0.5,1\n1.5,2\n");
  CHECK("written with more data", cosrod_view_write(dir, NULL, 0, NULL, 0) == COSROD_OK);
  CHECK("in place", inode(p) == ino);
  CHECK("equals the page written afresh (grown)", same_as_fresh(dir, p));
  /* a foreign page under the name: replaced whole */
  put(dir, "view.html", "<!DOCTYPE html>\n<html>another page</html>\n");
  CHECK("written over a foreign page", cosrod_view_write(dir, NULL, 0, NULL, 0) == COSROD_OK);
  CHECK("equals the page written afresh (foreign)", same_as_fresh(dir, p));
  snprintf(p2, sizeof p2, "%s/energy.csv", dir);
  remove(p2);
  cleanup(dir);
}

static const th_case cases[] = {TH_CASE(view_inlines_files), TH_CASE(view_decimates_to_budget), TH_CASE(view_rewrite_in_place),
                                TH_CASE(view_refuses_non_output_dir),
                                TH_CASE(view_without_summary_writes_a_page_that_says_so)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
