// SPDX-License-Identifier: Apache-2.0
/* Acceptance of the integrators by efficiency (work–precision), not by
 * sameness of their counts.
 *
 * The yardstick is bench/results/work-precision-original.csv: the runs of the
 * implementation before the clean-room rewrite of the step, order and Newton
 * control, whose counts equal those of Hairer & Wanner's codes (RADAU5,
 * RODAS, SEULEX, DOPRI5, DOP853), so its achieved errors stand for the
 * originals' accuracy (see work-precision-original.md there).
 *
 * Criterion, for every method and problem of the study (wp.c) at rtol
 * 1e-4 ... 1e-8: the current run's point (error at t_end against the
 * published reference, work = nfev + n njev + ndecomp, wp.h) lies on or below
 * the original curve within a factor 1.5 in work at equal achieved accuracy:
 * work <= 1.5 work_ref(error), work_ref from wp_compare() (log–log
 * interpolation along the original curve; an error outside the curve's range
 * compares with the nearest end point).  The original curve covers rtol 1e-4
 * ... 1e-10, so a current run more accurate than the original at the same
 * rtol still finds the original's work for that accuracy.  Only rtol down to
 * 1e-8 is run here, to keep the test fast in every build (under 1 s of
 * integration in an optimised build); bench/integrators/work_precision.c
 * covers 1e-10.
 *
 * Each point must also finish with status OK.  A method the registry lacks
 * fails its case (all five are built into every configuration). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "itest.h"
#include "wp.h"

enum { MAXPTS = 1024 };
static const double FACTOR = 1.5; /* the acceptance factor in work */
static wp_point orig[MAXPTS];
static int norig = -1;

/* The stored curve, read once from the source tree (COSROD_SOURCE_DIR is set by CTest). */
static int load_original(void) {
  if (norig >= 0) return norig;
  const char *src = getenv("COSROD_SOURCE_DIR");
  char path[1024], msg[1200];
  snprintf(path, sizeof path, "%s/bench/results/work-precision-original.csv", src ? src : ".");
  norig = wp_csv_read(path, orig, MAXPTS, msg, sizeof msg);
  if (norig < 0) NOTE("%s", msg);
  CHECK("the original work-precision curve is readable", norig > 0);
  return norig;
}

static void check_method(const char *name) {
  const cosrod_step_type *T = cosrod_step_type_by_name(name);
  char what[200];
  snprintf(what, sizeof what, "%s is in the registry", name);
  CHECK(what, T != NULL);
  if (!T || load_original() <= 0) return;
  int pairs = 0;
  for (size_t ip = 0; ip < wp_problem_count; ip++) {
    const itest_problem *P = itest_problem_by_name(wp_problems[ip]);
    if (!wp_method_runs(T, P)) continue;
    pairs++;
    double worst = 0.0;
    for (int k = 0; k <= 4; k++) {
      double rtol = pow(10.0, -4.0 - k);
      wp_point pt;
      cosrod_status st = wp_run(T, P, rtol, 0.0, &pt);
      snprintf(what, sizeof what, "%s on %s rtol %.0e: status OK", name, P->name, rtol);
      CHECK(what, st == COSROD_OK);
      if (st != COSROD_OK) continue;
      wp_cmp a, b;
      int nc = wp_compare(orig, norig, name, P->name, pt.err, wp_work(&pt), WP_WORK_TOTAL, &a);
      snprintf(what, sizeof what, "%s on %s: original curve has rtol 1e-4 ... 1e-10 (7 points)", name,
               P->name);
      CHECK(what, nc >= 7);
      if (nc == 0) break;
      wp_compare(orig, norig, name, P->name, pt.err, (double)pt.nfev, WP_WORK_NFEV, &b);
      NOTE(
          "%s on %s rtol %.0e: error %.3e work %.0f (nfev %ld njev %ld ndecomp %ld); original work at this "
          "error %.0f: ratio %.3f%s, nfev ratio %.3f",
          name, P->name, rtol, pt.err, wp_work(&pt), pt.nfev, pt.njev, pt.ndecomp, a.work_ref, a.ratio,
          a.where < 0   ? " (more accurate than the original curve: vs its most accurate point)"
          : a.where > 0 ? " (less accurate than the original curve: vs its least accurate point)"
                        : "",
          b.ratio);
      worst = fmax(worst, a.ratio);
    }
    snprintf(what, sizeof what, "%s on %s: worst work ratio at equal accuracy (rtol 1e-4 ... 1e-8)", name,
             P->name);
    CHECK_LE(what, worst, FACTOR);
  }
  snprintf(what, sizeof what, "%s: at least two problems compared", name);
  CHECK(what, pairs >= 2);
}

TEST(wp_radau5) { check_method("radau5"); }
TEST(wp_rodas) { check_method("rodas"); }
TEST(wp_seulex) { check_method("seulex"); }
TEST(wp_dopri5) { check_method("dopri5"); }
TEST(wp_dop853) { check_method("dop853"); }

/* The comparison rule itself, on a hand-made curve (method "m", problem
 * "p"): points (rtol, error, work) = (1e-2, 1e-2, 100), (1e-3, 1e-4, 1000),
 * (1e-4, 1e-3, 2000) -- the last folds back (less accurate at more work). */
TEST(wp_compare_rule) {
  wp_point c[4];
  memset(c, 0, sizeof c);
  const double r[4] = {1e-2, 1e-3, 1e-4, 1e-5}, e[4] = {1e-2, 1e-4, 1e-3, 1e-6}, w[4] = {100, 1000, 2000, 0};
  for (int i = 0; i < 3; i++) {
    snprintf(c[i].method, sizeof c[i].method, "m");
    snprintf(c[i].problem, sizeof c[i].problem, "p");
    snprintf(c[i].status, sizeof c[i].status, "ok");
    c[i].n = 1, c[i].rtol = r[i], c[i].err = e[i], c[i].nfev = (long)w[i];
  }
  c[3] = c[0]; /* a failed run is not part of the curve */
  c[3].rtol = r[3], c[3].err = e[3];
  snprintf(c[3].status, sizeof c[3].status, "ERR_NEWTON");
  wp_cmp a;
  CHECK("three curve points", wp_compare(c, 4, "m", "p", 1e-3, 316.2277660168379, WP_WORK_NFEV, &a) == 3);
  /* error 1e-3 is reached by segment 1 (100 -> 1000, log-midpoint 316.2) and at the fold point
   * (2000): the larger work counts */
  CHECK_REL("fold: the larger work at equal error", a.work_ref, 2000.0, 1e-12);
  wp_compare(c, 4, "m", "p", 1e-3 * sqrt(10.0), 100.0, WP_WORK_NFEV, &a);
  /* between 1e-2 and 1e-3 only segment 1 reaches: log-log interpolation 100 * 10^(0.25) */
  CHECK_REL("log-log interpolation on one segment", a.work_ref, 100.0 * pow(10.0, 0.25), 1e-12);
  CHECK("inside the range", a.where == 0);
  wp_compare(c, 4, "m", "p", 1e-6, 1500.0, WP_WORK_NFEV, &a);
  CHECK("more accurate than the curve: nearest end point", a.where == -1 && a.work_ref == 1000.0);
  CHECK_REL("ratio = work / work_ref", a.ratio, 1.5, 1e-15);
  wp_compare(c, 4, "m", "p", 1.0, 50.0, WP_WORK_NFEV, &a);
  CHECK("less accurate than the curve: nearest end point", a.where == 1 && a.work_ref == 100.0);
  CHECK("no curve for another method", wp_compare(c, 4, "x", "p", 1e-3, 1.0, WP_WORK_NFEV, &a) == 0);
}

static const th_case cases[] = {
    TH_CASE(wp_radau5), TH_CASE(wp_rodas),  TH_CASE(wp_seulex),
    TH_CASE(wp_dopri5), TH_CASE(wp_dop853), TH_CASE(wp_compare_rule),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
