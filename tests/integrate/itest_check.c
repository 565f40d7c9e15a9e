// SPDX-License-Identifier: Apache-2.0
/* Reference-count check shared by the integrator tests (uses the test
 * harness, so it is not part of the benchmarks' copy of itest.c). */
#include <stdio.h>

#include "harness.h"
#include "itest.h"

cosrod_status itest_check_reference_row(const itest_counts *c, const cosrod_step_type *T, double *y_end,
                                        cosrod_integrate_stats *stats) {
  const itest_problem *P = itest_problem_by_name(c->problem);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = c->rtol;
  o.atol = c->atol;
  cosrod_integrate_stats s;
  cosrod_status st = itest_run(T, P, &o, NULL, y_end, &s, NULL, 0);
  char what[200];
  snprintf(what, sizeof what, "%s on %s rtol %g: status OK", c->method, c->problem, c->rtol);
  CHECK(what, st == COSROD_OK);
  NOTE(
      "%s on %s rtol %g: nfev %ld/%ld njev %ld/%ld steps %ld/%ld accepted %ld/%ld rejected %ld/%ld decomp "
      "%ld/%ld (ours/original)",
      c->method, c->problem, c->rtol, s.nfev, c->nfev, s.njev, c->njev, s.nsteps, c->nsteps, s.naccept,
      c->naccept, s.nreject, c->nreject, s.ndecomp, c->ndecomp);
  /* The counts are noted, not checked: the acceptance of the methods is by efficiency, the
   * work-precision criterion of test_work_precision.c (within a factor 1.5 in work of the
   * original's curve at equal achieved accuracy), not by sameness of the counts. */
  if (stats) *stats = s;
  return st;
}
