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
  const long ours[6] = {s.nfev, s.njev, s.nsteps, s.naccept, s.nreject, s.ndecomp};
  const long orig[6] = {c->nfev, c->njev, c->nsteps, c->naccept, c->nreject, c->ndecomp};
  static const char *names[6] = {"nfev", "njev", "nsteps", "naccept", "nreject", "ndecomp"};
  /* The count tolerance: 10 % (and +-2 absolute for small counts such as the rejections).  Our
   * methods are written from the method descriptions, not translated, so identical counts are
   * neither expected nor needed; the same step-size and Newton control gives counts within 10 %. */
  for (int k = 0; k < 6; k++) {
    if (orig[k] < 0) continue;
    snprintf(what, sizeof what, "%s on %s rtol %g: %s within 10%% of the original", c->method, c->problem,
             c->rtol, names[k]);
    CHECK_CLOSE(what, (double)ours[k], (double)orig[k], 0.10, 2.0);
  }
  if (stats) *stats = s;
  return st;
}
