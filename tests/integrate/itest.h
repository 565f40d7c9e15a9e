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
  int fixed_order; /* order observed with fixed steps on the linear problem, 0 = not tested */
  /* Tolerance proportionality (HNW I §II.4): the global error behaves like C tol^alpha for
   * tol -> 0, alpha in [alpha_lo, alpha_hi] derived in itest.c from the method's error control. */
  double alpha_lo, alpha_hi;
  /* The controller holds its error estimate at est_c tol^est_exp (radau5's internal tolerance;
   * 1, 1 for the others): the local error of an accepted step is at most that (asymptotically). */
  double est_c, est_exp;
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

/* Tolerance the method's error estimate is held at, for the user's tolerance tol. */
double itest_est_tol(const itest_method *M, double tol);

/* A-priori bound on the max-norm global error at t_end (HNW I §II.3, Theorem 3.4, "Lady
 * Windermere's fan"): the global error is the sum of the local errors transported by the flow,
 * |e|_2 <= sum_n G |le_n|_2, with G = P->growth the bound of the flow's amplification in the
 * 2-norm.  The controller accepts a step when the weighted RMS norm of its estimate is <= 1 with
 * weights sk_i = atol' + rtol' |y_i| (the estimate's tolerances, itest_est_tol), so
 * |le_n|_2 <= sqrt(n) max_i sk_i.  With naccept steps and |y_i| <= ymax along the solution:
 *   |e|_max <= |e|_2 <= G sqrt(n) naccept (atol' + rtol' ymax).
 * Returns 0 when the problem has no derived growth bound (P->growth == 0). */
double itest_global_bound(const itest_problem *P, const itest_method *M, double rtol, double atol,
                          long naccept, double ymax);

/* Findings: (method, problem) pairs whose observed exponent lies outside [alpha_lo - 1/4,
 * alpha_hi + 1/4] (test_conformance.c), with the measured exponents and the diagnosis.  Returns
 * the row's reason or NULL; *side = +1 above the window (over-accurate at small tol), -1 below. */
const char *itest_exponent_finding(const char *method, const char *problem, int *side);

/* Centre c of the exponent check of method on P (tolerances 100 c, c, c / 100; P->tol unless the
 * run is pre-asymptotic there) and whether the check is the method's order from the step counts
 * (*order_steps = 1) instead of the exponent; derivations in itest.c. */
double itest_exponent_setting(const char *method, const itest_problem *P, int *order_steps);

/* Method table row of a method name, or NULL. */
const itest_method *itest_method_by_name(const char *name);

#endif /* COSROD_TESTS_INTEGRATE_ITEST_H */
