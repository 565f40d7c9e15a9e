// SPDX-License-Identifier: Apache-2.0
/* Helpers shared by the integrator tests: the method registration table
 * and a one-call runner.
 *
 * TO REGISTER A METHOD: add one line to itest_methods[] in itest.c.  Methods
 * that are not built (cosrod_step_type_by_name returns NULL) are skipped. */
#ifndef COSROD_TESTS_INTEGRATE_ITEST_H
#define COSROD_TESTS_INTEGRATE_ITEST_H

#include "cosrod/integrate.h"
#include "problems.h"

typedef struct itest_method {
  const char *name;
  int fixed_order;  /* order observed with fixed steps on the linear problem, 0 = not tested */
  double err_scale; /* multiplies every end-value error bound (1 = the bounds in problems.c) */
} itest_method;

extern const itest_method itest_methods[];
extern const size_t itest_method_count;

/* Published counts of the original codes (Hairer & Wanner); -1 = not given. */
typedef struct itest_counts {
  const char *method, *problem;
  double rtol, atol;
  long nfev, njev, nsteps, naccept, nreject, ndecomp;
} itest_counts;
extern const itest_counts itest_reference_counts[];
extern const size_t itest_reference_count;

/* Runs the reference row c (problem c->problem at c->rtol, c->atol) with T:
 * CHECKs status OK and NOTEs our counts beside the original's (a yardstick
 * of efficiency, compared in test_work_precision.c, not a target to match).
 * y_end (the problem's n) and stats receive the end value and the counts.
 * Returns the status.  In itest_check.c (needs the test harness). */
cosrod_status itest_check_reference_row(const itest_counts *c, const cosrod_step_type *T, double *y_end,
                                        cosrod_integrate_stats *stats);

/* Does the method apply to the problem (class and capabilities)? */
int itest_applies(const cosrod_step_type *T, const itest_problem *P);

/* Integrate P with T from t0 to t_end; opts may be NULL (then rtol = P->tol,
 * atol = P->tol * P->atol_per_rtol).  y_end (n), stats optional.  Returns
 * the status; the message is copied to msg (if non-NULL, msg_size bytes). */
cosrod_status itest_run(const cosrod_step_type *T, const itest_problem *P,
                        const cosrod_integrate_options *opts, const cosrod_output_spec *out, double *y_end,
                        cosrod_integrate_stats *stats, char *msg, size_t msg_size);

#endif /* COSROD_TESTS_INTEGRATE_ITEST_H */
