// SPDX-License-Identifier: Apache-2.0
/* Reusable integrator test problems (shared by the conformance suite, the
 * failure-mode tests and bench/integrators).
 *
 * Each problem carries its right-hand side, analytic Jacobian (dense, and
 * banded / second-order where meaningful), initial values, end time and a
 * reference solution at the end time (published values, an exact solution,
 * or invariants).  The published reference values and their sources are in
 * reference_solutions.c. */
#ifndef COSROD_TESTS_INTEGRATE_PROBLEMS_H
#define COSROD_TESTS_INTEGRATE_PROBLEMS_H

#include "cosrod/integrate.h"

/* Problem classes. */
enum {
  ITP_NONSTIFF = 1u << 0,  /* explicit methods are expected to solve it */
  ITP_STIFF = 1u << 1,     /* only implicit methods (explicit ones detect stiffness) */
  ITP_EXACT = 1u << 2,     /* exact(t) is available at every t (dense-output tests) */
  ITP_INVARIANTS = 1u << 3 /* checked through invariants(), no reference end value */
};

typedef struct itest_problem {
  const char *name;
  unsigned cls;      /* ITP_* */
  unsigned requires; /* COSROD_STEP_* capabilities a method needs (mass, DAE, projection) */
  int n;
  double t0, t_end;
  const double *y0;   /* (n) */
  const double *yref; /* (n) reference at t_end, or NULL (exact or invariants) */
  /* exact solution y (n) at t, or NULL */
  void (*exact)(double t, double *y);
  /* invariants of y (n) written to inv (ninv), or NULL */
  int ninv;
  void (*invariants)(const double *y, double *inv);
  double atol_per_rtol; /* atol = atol_per_rtol * rtol in tests (Robertson, OREGO 1e-6; HIRES 1e-4; else 1) */
  double tol;           /* rtol used by the conformance suite */
  /* bound G on the amplification of a perturbation by the flow, from any t to t_end, in the
     2-norm (derived in problems.c; 0 where none is derived: then the end values are checked by
     their tolerance proportionality only, itest_global_bound) */
  double growth;
  /* fill a cosrod_ode_problem (variant 0: dense Jacobian; variants with
   * banded / second-order structure for some problems) */
  void (*setup)(cosrod_ode_problem *p);
} itest_problem;

size_t itest_problem_count(void);
const itest_problem *itest_problem_at(size_t i);
const itest_problem *itest_problem_by_name(const char *name);

/* Scaled max error  max_i |y_i - ref_i| / (atol + rtol |ref_i|)  (in units of the tolerance). */
double itest_scaled_error(int n, const double *y, const double *ref, double rtol, double atol);
/* Max abs error. */
double itest_max_error(int n, const double *y, const double *ref);

/* Reference solutions at t_end of vdp (and at t = 1), robertson, hires, orego, pleiades and
 * arenstorf (published values, sources in reference_solutions.c). */
extern const double itest_ref_vdp[2], itest_ref_vdp_t1[2], itest_ref_robertson[3], itest_ref_hires[8],
    itest_ref_orego[3], itest_ref_pleiades[28], itest_ref_arenstorf[4];

/* Exported constants of some problems (for specific tests). */
#define ITEST_ARENSTORF_T 17.0652165601579625588917206249
#define ITEST_CHAIN_N 10 /* masses in the spring chain (n = 20) */

#endif /* COSROD_TESTS_INTEGRATE_PROBLEMS_H */
