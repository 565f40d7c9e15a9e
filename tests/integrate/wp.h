// SPDX-License-Identifier: Apache-2.0
/* Work–precision points and curves of the integrators (shared by
 * tests/integrate/test_work_precision.c and bench/integrators/work_precision.c).
 *
 * A point is one run of a method on a test problem (problems.h) from t0 to
 * t_end at rtol, atol = rtol * atol_per_rtol (the problem's tolerance
 * convention), with
 *   error = max_i |y_i - ref_i| / (|ref_i| + atol/rtol)
 * at t_end against the published reference solution (reference_solutions.c):
 * the relative error with the absolute floor atol/rtol of the tolerance, i.e.
 * itest_scaled_error() times rtol, a measure that does not depend on the
 * tolerance level; and
 *   work  = nfev + n * njev + ndecomp
 * (f-evaluations; a Jacobian priced as the n f-evaluations of its finite-
 * difference approximation, the default when no analytic Jacobian is given;
 * an LU decomposition priced as one f-evaluation, about its cost for the
 * small n <= 28 of these problems).  nfev alone is reported beside it.
 *
 * The acceptance rule of a new point against a stored curve is wp_compare(). */
#ifndef COSROD_TESTS_INTEGRATE_WP_H
#define COSROD_TESTS_INTEGRATE_WP_H

#include <stddef.h>
#include <stdio.h>

#include "problems.h"

typedef struct wp_point {
  char method[24], problem[24];
  int n;
  double rtol, atol, err;
  long nfev, njev, nsteps, naccept, nreject, ndecomp;
  double wall;     /* seconds per run (mean over repeats), NAN if not timed */
  char status[32]; /* "ok" or the status name */
} wp_point;

/* The problems of the work–precision study, in order. */
extern const char *const wp_problems[];
extern const size_t wp_problem_count;

/* Does the study run this method on this problem?  Stiff problems: implicit
 * methods only; Arenstorf: explicit methods only; Pleiades: all. */
int wp_method_runs(const cosrod_step_type *T, const itest_problem *P);

/* The error measure above. */
double wp_error(const itest_problem *P, const double *y);
/* work = nfev + n njev + ndecomp */
double wp_work(const wp_point *p);
/* Which work measure a comparison uses. */
typedef enum { WP_WORK_TOTAL = 0, WP_WORK_NFEV = 1 } wp_work_kind;
double wp_work_of(const wp_point *p, wp_work_kind k);

/* Run T on P at rtol (default options otherwise, max_steps 2e6) and fill *pt.
 * min_wall > 0: repeat the run until at least min_wall seconds passed and
 * store the mean wall time, else wall = NAN.  Returns the status. */
cosrod_status wp_run(const cosrod_step_type *T, const itest_problem *P, double rtol, double min_wall,
                     wp_point *pt);

/* CSV with the header line wp_csv_header. */
extern const char wp_csv_header[];
void wp_csv_write(FILE *f, const wp_point *p);
/* Read a CSV written by wp_csv_write (header first) into pts (at most max).
 * Returns the number of points, or -1 with a message "PATH:LINE: problem". */
int wp_csv_read(const char *path, wp_point *pts, int max, char *msg, size_t msg_size);

/* Comparison of a point (err, work) with the curve of the stored points of
 * the same method and problem (status ok only).
 * The curve is the polyline through those points in the order of decreasing
 * rtol, each segment interpolated linearly in log(error)-log(work);
 * work_ref(err) is the work where the curve reaches the error err.  Where the
 * curve folds back (error not monotone in rtol) and several segments reach
 * err, the largest of their works is taken: the original did spend that work
 * for that accuracy, and so every original point lies on its own curve
 * (ratio 1).  An err outside the curve's error range takes the work of the
 * nearest end point: more accurate than the most accurate stored point ->
 * that point's work (a strict reference: more accuracy for no more work);
 * less accurate than the least accurate one -> that point's work (a lenient
 * reference).  ratio = work / work_ref.
 * Returns the number of curve points (0: no curve, nothing written). */
typedef struct wp_cmp {
  double work_ref, ratio;
  int where; /* 0 inside the error range, -1 more accurate than it, +1 less accurate */
} wp_cmp;
int wp_compare(const wp_point *curve, int ncurve, const char *method, const char *problem, double err,
               double work, wp_work_kind kind, wp_cmp *out);

#endif /* COSROD_TESTS_INTEGRATE_WP_H */
