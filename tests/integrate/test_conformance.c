// SPDX-License-Identifier: Apache-2.0
/* Integrator conformance suite: every built method (itest.c's table) on every
 * test problem it applies to (problems.c): end values against published
 * references or exact solutions, error scaling with the tolerance, dense
 * output accuracy, observed order with fixed steps, invariants with the
 * projection hook, and the counts of the original codes.
 *
 * Explicit methods on the stiff problems must stop with ERR_STIFF (the
 * stiffness detection of Hairer's codes); methods lacking a capability
 * (mass matrix, projection) must be refused with ERR_UNSUPPORTED. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "itest.h"

/* Runs `fn` for each built method that has an entry in itest_methods. */
#define FOR_EACH_METHOD(T, M)                                      \
  for (size_t mi_ = 0; mi_ < itest_method_count; mi_++)            \
    for (const itest_method *M = &itest_methods[mi_]; M; M = NULL) \
      for (const cosrod_step_type *T = cosrod_step_type_by_name(M->name); T; T = NULL)

static void reference_at_end(const itest_problem *P, double *ref) {
  if (P->exact)
    P->exact(P->t_end, ref);
  else
    memcpy(ref, P->yref, sizeof(double) * (size_t)P->n);
}

/* max |y_i| over the accepted steps (for the weights of the a-priori bound) */
static int ymax_out(double t, const double *y, void *user) {
  (void)t;
  double *m = user;
  for (int i = 0; i < (int)m[1]; i++) m[0] = fmax(m[0], fabs(y[i]));
  return 0;
}

/* End values by tolerance proportionality (HNW I §II.4), no calibrated bound.  Each method runs at
 * tol 100, tol and tol / 100 (atol/rtol fixed) against the reference or exact end value:
 *  - exponent: the observed alpha = log(e(tol/100) / e(100 tol)) / log(1e-4) lies in the method's
 *    [alpha_lo, alpha_hi] (derived in itest.c) widened by DELTA = 1/4, i.e. the constant C of
 *    e = C tol^alpha may change by one decade over the four decades: C depends on a run only
 *    through the ratio of the accepted estimates to the tolerance, which the controller holds at
 *    its target (safety factor^(q+1), 0.4 ... 0.7) up to the step-size limits, and through the
 *    steps, ~tol^(-1/(q+1)), being integers;
 *  - size: at every tolerance e <= the a-priori bound of itest_global_bound (sum of the accepted
 *    local errors transported with the problem's growth G) where G is derived (problems.c). */
#define ALPHA_DELTA 0.25
static void check_problem(const char *name) {
  const itest_problem *P = itest_problem_by_name(name);
  CHECK("problem exists", P != NULL);
  if (!P) return;
  double y[64], ref[64];
  char what[240], msg[512];
  reference_at_end(P, ref);
  FOR_EACH_METHOD(T, M) {
    cosrod_integrate_stats s;
    if (!itest_applies(T, P)) {
      cosrod_status st = itest_run(T, P, NULL, NULL, y, &s, msg, sizeof msg);
      if ((P->cls & ITP_STIFF) && !(T->flags & COSROD_STEP_IMPLICIT) && !P->requires) {
        /* explicit method on a stiff problem: Hairer's stiffness detection must stop it */
        snprintf(what, sizeof what, "%s on %s: stiffness detected (ERR_STIFF)", T->name, P->name);
        CHECK(what, st == COSROD_ERR_STIFF);
        NOTE("%s on %s: %s after %ld steps: %s", T->name, P->name, cosrod_status_name(st), s.nsteps, msg);
      } else {
        snprintf(what, sizeof what, "%s on %s: refused (lacks a capability) or detected stiff", T->name,
                 P->name);
        CHECK(what, st == COSROD_ERR_UNSUPPORTED || st == COSROD_ERR_STIFF);
      }
      continue;
    }
    int order_steps = 0;
    const double centre = itest_exponent_setting(T->name, P, &order_steps);
    const double tols[3] = {100.0 * centre, centre, 0.01 * centre};
    double e[3], nacc[3];
    for (int k = 0; k < 3; k++) {
      cosrod_integrate_options o = cosrod_integrate_default_options();
      o.rtol = tols[k];
      o.atol = tols[k] * P->atol_per_rtol;
      double ym[2] = {0.0, (double)P->n};
      cosrod_output_spec out = {0};
      out.every_step = 1;
      out.output = ymax_out;
      out.user = ym;
      cosrod_status st = itest_run(T, P, &o, &out, y, &s, msg, sizeof msg);
      snprintf(what, sizeof what, "%s on %s at rtol %g: status OK", T->name, P->name, o.rtol);
      if (!CHECK(what, st == COSROD_OK)) NOTE("status %s: %s", cosrod_status_name(st), msg);
      e[k] = itest_max_error(P->n, y, ref);
      nacc[k] = (double)s.naccept;
      const double bound = itest_global_bound(P, M, o.rtol, o.atol, s.naccept, ym[0]);
      NOTE(
          "%s on %s (rtol %g, atol %g): end error %.3g (%.3g tol units), a-priori bound %.3g, nfev %ld, "
          "steps %ld (%ld rejected)",
          T->name, P->name, o.rtol, o.atol, e[k], itest_scaled_error(P->n, y, ref, o.rtol, o.atol), bound,
          s.nfev, s.nsteps, s.nreject);
      if (bound > 0.0) {
        snprintf(what, sizeof what, "%s on %s at rtol %g: end error <= G sqrt(n) naccept sk_max", T->name,
                 P->name, o.rtol);
        CHECK_LE(what, e[k], bound);
      }
    }
    const double alpha = log(e[2] / e[0]) / log(tols[2] / tols[0]);
    NOTE("%s on %s: observed exponent %.3f, theory [%.3f, %.3f]", T->name, P->name, alpha, M->alpha_lo,
         M->alpha_hi);
    if (order_steps) {
      /* e ~ N^-p (itest.c, exponent settings): the order from the accepted steps, window one decade of C */
      const double lr = log10(nacc[2] / nacc[0]), p_obs = log10(e[0] / e[2]) / lr;
      NOTE("%s on %s: steps %.0f/%.0f/%.0f, order from the steps %.3f, method order %d +- %.3f", T->name,
           P->name, nacc[0], nacc[1], nacc[2], p_obs, M->fixed_order, 1.0 / lr);
      snprintf(what, sizeof what, "%s on %s: global order from the steps within p +- 1/log10(N ratio)",
               T->name, P->name);
      CHECK_NEAR(what, p_obs, (double)M->fixed_order, 1.0 / lr);
      continue;
    }
    int side = 0;
    const char *finding = itest_exponent_finding(T->name, P->name, &side);
    if (finding) {
      /* a recorded finding (itest.c): stays visible, and this check fails once the cause is fixed */
      NOTE("FINDING %s on %s: %s", T->name, P->name, finding);
      snprintf(what, sizeof what, "%s on %s: recorded finding still present (exponent %s the window)",
               T->name, P->name, side > 0 ? "above" : "below");
      if (side > 0)
        CHECK_LE(what, M->alpha_hi + ALPHA_DELTA, alpha);
      else
        CHECK_LE(what, alpha, M->alpha_lo - ALPHA_DELTA);
      continue;
    }
    snprintf(what, sizeof what, "%s on %s: exponent of tolerance proportionality >= alpha_lo - 1/4", T->name,
             P->name);
    CHECK_LE(what, M->alpha_lo - ALPHA_DELTA, alpha);
    snprintf(what, sizeof what, "%s on %s: exponent of tolerance proportionality <= alpha_hi + 1/4", T->name,
             P->name);
    CHECK_LE(what, alpha, M->alpha_hi + ALPHA_DELTA);
  }
}

TEST(end_vdp) { check_problem("vdp"); }
TEST(end_vdp_m1) { check_problem("vdp_m1"); }
TEST(end_robertson) { check_problem("robertson"); }
TEST(end_robertson_dae) { check_problem("robertson_dae"); }
TEST(end_hires) { check_problem("hires"); }
TEST(end_arenstorf) { check_problem("arenstorf"); }
TEST(end_pleiades) { check_problem("pleiades"); }
TEST(end_pleiades_m1) { check_problem("pleiades_m1"); }
TEST(end_linear) { check_problem("linear"); }
TEST(end_chain) { check_problem("chain"); }
TEST(end_chain_dense) { check_problem("chain_dense"); }
TEST(end_chain_banded) { check_problem("chain_banded"); }
TEST(end_chain_stiff) { check_problem("chain_stiff"); }

/* Quaternion rigid body with the projection hook: |p| = 1 to roundoff after
 * every accepted step, energy and spatial angular momentum conserved to the
 * accuracy the tolerance implies. */
static int rb_out(double t, const double *y, void *user) {
  (void)t;
  double *worst = user;
  double s = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
  if (fabs(s - 1.0) > *worst) *worst = fabs(s - 1.0);
  return 0;
}
TEST(rigid_body_projection) {
  const itest_problem *P = itest_problem_by_name("rigid_body");
  double inv0[5], inv1[5], y[7];
  P->invariants(P->y0, inv0);
  char what[200];
  int ran = 0;
  FOR_EACH_METHOD(T, M) {
    if (!itest_applies(T, P)) continue;
    double worst = 0.0;
    cosrod_output_spec out = {0};
    out.every_step = 1;
    out.output = rb_out;
    out.user = &worst;
    cosrod_integrate_stats s;
    cosrod_status st = itest_run(T, P, NULL, &out, y, &s, NULL, 0);
    ran++;
    snprintf(what, sizeof what, "%s: status OK", T->name);
    CHECK(what, st == COSROD_OK);
    P->invariants(y, inv1);
    /* projection normalises after every accepted step: |p| - 1 is roundoff (a few ulp) */
    snprintf(what, sizeof what, "%s: max | |p| - 1 | over accepted steps", T->name);
    CHECK_LE(what, worst, 4e-16);
    snprintf(what, sizeof what, "%s: one projection per accepted step", T->name);
    CHECK(what, s.nproject == s.naccept);
    /* Invariant drift, derived: H(y_N) - H(y_0) = sum_n [H(y_n+1) - H(phi(y_n))] for an
     * invariant H of the flow phi, so |drift| <= naccept Lip(H) max |le_n|_2 with |le_n|_2 <=
     * sqrt(n) sk_max (itest_global_bound, no growth).  I = (2, 1, 0.5): the kinetic energy T
     * depends on W only, Lip = |I W| <= sqrt(2 I_max T); the spatial momentum R(p) I W is
     * quadratic in p (|R(p) m| = |p|^2 |m|, so by polarisation |d/dp| <= 2 |m|) and linear in W
     * (|d/dW| <= I_max |p|^2): Lip <= sqrt(4 |m|^2 + I_max^2), and the projection onto |p| = 1
     * moves y by at most the local error once more (factor 2).  |W| <= sqrt(2 T / I_min). */
    const double T0 = inv0[0], mmax = sqrt(2.0 * 2.0 * T0), ymax = fmax(1.0, sqrt(2.0 * T0 / 0.5));
    const double sk = itest_est_tol(M, P->tol) * (1.0 + ymax), per = sqrt((double)P->n) * sk;
    const double bE = (double)s.naccept * mmax * per / T0,
                 bL = 2.0 * (double)s.naccept * sqrt(4.0 * mmax * mmax + 4.0) * per;
    double dE = fabs(inv1[0] - inv0[0]) / fabs(inv0[0]);
    double dL = 0.0;
    for (int i = 1; i <= 3; i++) dL = fmax(dL, fabs(inv1[i] - inv0[i]));
    NOTE("%s: energy drift %.3g (relative, bound %.3g), angular momentum drift %.3g (bound %.3g), %ld steps",
         T->name, dE, bE, dL, bL, s.nsteps);
    snprintf(what, sizeof what, "%s: relative energy drift <= naccept Lip sqrt(n) sk_max / T", T->name);
    CHECK_LE(what, dE, bE);
    snprintf(what, sizeof what, "%s: angular momentum drift <= 2 naccept Lip sqrt(n) sk_max", T->name);
    CHECK_LE(what, dL, bL);
  }
  CHECK("at least one method supports projection", ran > 0);
}

/* Error must decrease with the tolerance: over 4 decades of tolerance at least
 * 2 decades of error (tolerance proportionality of one-step methods gives
 * err ~ tol^(p/(p+1)), i.e. >= 2.7 decades for p >= 2), monotonically. */
static void check_scaling(const char *name) {
  const itest_problem *P = itest_problem_by_name(name);
  double ref[64], y[64];
  reference_at_end(P, ref);
  char what[200];
  FOR_EACH_METHOD(T, M) {
    if (!itest_applies(T, P)) continue;
    double e[3];
    const double tols[3] = {1e-4, 1e-6, 1e-8};
    for (int k = 0; k < 3; k++) {
      cosrod_integrate_options o = cosrod_integrate_default_options();
      o.rtol = tols[k];
      o.atol = tols[k] * P->atol_per_rtol;
      itest_run(T, P, &o, NULL, y, NULL, NULL, 0);
      e[k] = itest_max_error(P->n, y, ref);
    }
    NOTE("%s on %s: errors at tol 1e-4/1e-6/1e-8: %.3g %.3g %.3g", T->name, P->name, e[0], e[1], e[2]);
    snprintf(what, sizeof what, "%s on %s: error decreases monotonically with tol", T->name, P->name);
    CHECK(what, e[2] < e[1] && e[1] < e[0]);
    snprintf(what, sizeof what, "%s on %s: err(1e-8)/err(1e-4) <= 1e-2", T->name, P->name);
    CHECK_LE(what, e[2] / e[0], 1e-2);
  }
}
TEST(tolerance_scaling_linear) { check_scaling("linear"); }
TEST(tolerance_scaling_chain) { check_scaling("chain"); }

/* Dense output between steps is as accurate as the steps: on problems with an
 * exact solution, the max error over 400 output times is at most
 * max(10 x the max error at the step ends, 5 tol) — the dense formulas have
 * order p-1 (dopri5 4, dop853 7), so between steps the error is controlled to
 * O(tol) even when the step ends happen to be more accurate — and within the
 * problem's bound. */
typedef struct dense_acc {
  const itest_problem *P;
  double max_err, ymax;
  long count;
} dense_acc;
static int dense_out(double t, const double *y, void *user) {
  dense_acc *a = user;
  double ex[64];
  a->P->exact(t, ex);
  double e = itest_max_error(a->P->n, y, ex);
  if (e > a->max_err) a->max_err = e;
  for (int i = 0; i < a->P->n; i++) a->ymax = fmax(a->ymax, fabs(y[i]));
  a->count++;
  return 0;
}
static void check_dense(const char *name) {
  const itest_problem *P = itest_problem_by_name(name);
  char what[200];
  enum { NOUT = 400 };
  double tout[NOUT];
  for (int i = 0; i < NOUT; i++) tout[i] = P->t0 + (P->t_end - P->t0) * (i + 0.5) / NOUT;
  FOR_EACH_METHOD(T, M) {
    if (!itest_applies(T, P) || !(T->flags & COSROD_STEP_DENSE)) continue;
    dense_acc grid = {P, 0.0, 0.0, 0}, steps = {P, 0.0, 0.0, 0};
    cosrod_output_spec out = {0};
    out.t_out = tout;
    out.n_out = NOUT;
    out.output = dense_out;
    out.user = &grid;
    cosrod_integrate_stats s;
    itest_run(T, P, NULL, &out, NULL, &s, NULL, 0);
    cosrod_output_spec out2 = {0};
    out2.every_step = 1;
    out2.output = dense_out;
    out2.user = &steps;
    itest_run(T, P, NULL, &out2, NULL, NULL, NULL, 0);
    NOTE("%s on %s: dense max error %.3g at %ld points, step-end max error %.3g at %ld steps", T->name,
         P->name, grid.max_err, grid.count, steps.max_err, steps.count);
    snprintf(what, sizeof what, "%s on %s: every output time reported", T->name, P->name);
    CHECK(what, grid.count == NOUT);
    snprintf(what, sizeof what, "%s on %s: dense error <= max(10 x step-end error, 5 tol)", T->name, P->name);
    CHECK_LE(what, grid.max_err, fmax(10.0 * steps.max_err, 5.0 * P->tol));
    /* a-priori bound (itest_global_bound) with one more local error for the interpolation inside
     * a step: the dense formula of order p-1 has an error O(h^p), of the estimate's order */
    const double bound = itest_global_bound(P, M, P->tol, P->tol * P->atol_per_rtol, s.naccept + 1,
                                            fmax(grid.ymax, steps.ymax));
    snprintf(what, sizeof what, "%s on %s: dense error <= G sqrt(n) (naccept + 1) sk_max", T->name, P->name);
    CHECK_LE(what, grid.max_err, bound);
  }
}
TEST(dense_output_linear) { check_dense("linear"); }
TEST(dense_output_chain) { check_dense("chain"); }

/* Dense output is continuous at the step boundaries: inside the output
 * callback after each accepted step, the dense output at the step's end
 * reproduces y there, and (one-step methods) at its start the previous y, to
 * roundoff (1e-12 relative to max(1, |y|); the polynomials are evaluated in a
 * different order than the step formula). */
typedef struct endpoint_acc {
  cosrod_integrator *it;
  int n, have_prev, one_step;
  double t_prev, y_prev[64], err_end, err_start;
} endpoint_acc;
static int endpoint_out(double t, const double *y, void *u) {
  endpoint_acc *a = u;
  double yd[64];
  if (cosrod_integrator_dense(a->it, t, NULL, a->n, yd) == COSROD_OK)
    for (int i = 0; i < a->n; i++) a->err_end = fmax(a->err_end, fabs(yd[i] - y[i]) / fmax(1.0, fabs(y[i])));
  else
    a->err_end = INFINITY;
  if (a->have_prev && a->one_step) {
    if (cosrod_integrator_dense(a->it, a->t_prev, NULL, a->n, yd) == COSROD_OK)
      for (int i = 0; i < a->n; i++)
        a->err_start = fmax(a->err_start, fabs(yd[i] - a->y_prev[i]) / fmax(1.0, fabs(a->y_prev[i])));
    else
      a->err_start = INFINITY;
  }
  a->have_prev = 1;
  a->t_prev = t;
  memcpy(a->y_prev, y, sizeof(double) * (size_t)a->n);
  return 0;
}
TEST(dense_output_endpoints) {
  char what[200];
  const char *names[2] = {"linear", "chain"};
  for (int k = 0; k < 2; k++) {
    const itest_problem *P = itest_problem_by_name(names[k]);
    cosrod_ode_problem p = {0};
    P->setup(&p);
    FOR_EACH_METHOD(T, M) {
      if (!itest_applies(T, P) || !(T->flags & COSROD_STEP_DENSE)) continue;
      cosrod_integrate_options o = cosrod_integrate_default_options();
      o.rtol = o.atol = P->tol;
      cosrod_integrator *it = cosrod_integrator_create(T, &p, &o, NULL);
      endpoint_acc a;
      memset(&a, 0, sizeof a);
      a.it = it;
      a.n = P->n;
      a.one_step = (T->flags & COSROD_STEP_PROJECTION) != 0;
      cosrod_output_spec out = {0};
      out.every_step = 1;
      out.output = endpoint_out;
      out.user = &a;
      cosrod_status st = cosrod_integrate(it, P->t0, P->y0, P->t_end, &out, NULL);
      cosrod_integrator_free(it);
      NOTE("%s on %s: dense vs step end %.2e, vs step start %.2e", T->name, P->name, a.err_end, a.err_start);
      snprintf(what, sizeof what, "%s on %s: status OK", T->name, P->name);
      CHECK(what, st == COSROD_OK);
      snprintf(what, sizeof what, "%s on %s: dense output at the step end = y", T->name, P->name);
      CHECK_LE(what, a.err_end, 1e-12);
      if (a.one_step) {
        snprintf(what, sizeof what, "%s on %s: dense output at the step start = previous y", T->name,
                 P->name);
        CHECK_LE(what, a.err_start, 1e-12);
      }
    }
  }
}

/* Order with fixed steps: huge tolerances make every step acceptable and
 * h0 = hmax fixes h; the ratio of the errors at h = 0.5 and 0.25 on the
 * linear problem (exact solution) gives the order; tolerance 0.35 covers the
 * pre-asymptotic range (dopri5 measures 4.9, dop853 8.0). */
TEST(fixed_step_order) {
  const itest_problem *P = itest_problem_by_name("linear");
  double ex[4], y[4];
  P->exact(P->t_end, ex);
  char what[200];
  int ran = 0;
  FOR_EACH_METHOD(T, M) {
    if (M->fixed_order <= 0) continue;
    double e[2];
    for (int k = 0; k < 2; k++) {
      cosrod_integrate_options o = cosrod_integrate_default_options();
      o.rtol = o.atol = 1e3;
      o.h0 = o.hmax = 0.5 / (1 << k);
      o.newton_tol = 1e-12; /* implicit methods: converge Newton fully despite the huge tolerance */
      o.stiff_test = -1;
      itest_run(T, P, &o, NULL, y, NULL, NULL, 0);
      e[k] = itest_max_error(4, y, ex);
    }
    double p = log2(e[0] / e[1]);
    ran++;
    NOTE("%s: errors %.3e (h = 0.5), %.3e (h = 0.25): observed order %.2f (expected %d)", T->name, e[0], e[1],
         p, M->fixed_order);
    snprintf(what, sizeof what, "%s: observed order", T->name);
    CHECK_NEAR(what, p, (double)M->fixed_order, 0.35);
  }
  CHECK("at least one method measured", ran > 0);
}

/* The counts of the original codes are not a target (the test that required
 * them within 10 % is replaced by the work-precision criterion of
 * test_work_precision.c: within a factor 1.5 in work at equal accuracy). */

/* seulex with its order bounded (max_columns 8) on chain_stiff: the steps grow with 1/tol and the
 * error is tolerance proportional (itest.c, findings: with the default 12 columns it is not). */
TEST(seulex_bounded_order) {
  const itest_problem *P = itest_problem_by_name("chain_stiff");
  const cosrod_step_type *T = cosrod_step_type_by_name("seulex");
  double ref[64], y[64], e[3];
  reference_at_end(P, ref);
  const double tols[3] = {1e-7, 1e-9, 1e-11};
  for (int k = 0; k < 3; k++) {
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = tols[k];
    o.max_columns = 8;
    cosrod_integrate_stats s;
    char msg[256];
    CHECK("seulex on chain_stiff, max_columns 8: status OK",
          itest_run(T, P, &o, NULL, y, &s, msg, sizeof msg) == COSROD_OK);
    e[k] = itest_max_error(P->n, y, ref);
    NOTE("rtol %g: end error %.3g (%.3g tol units), %ld steps", tols[k], e[k],
         itest_scaled_error(P->n, y, ref, o.rtol, o.atol), s.naccept);
  }
  const double alpha = log(e[2] / e[0]) / log(tols[2] / tols[0]);
  CHECK_NEAR("exponent of tolerance proportionality: 1 +- 1/4 (seulex, itest.c)", alpha, 1.0, ALPHA_DELTA);
}

/* Why seulex's end error on chain_stiff does not follow the tolerance with 12
 * columns (the finding in itest.c): the subdiagonal estimate T_jj - T_j,j-1 of
 * the extrapolated linearly implicit Euler method stops bounding the error of
 * T_jj in a band of z = H lambda around -1.5.  Computed here from the method's
 * definition, independently of seulex.c: on y' = lambda y one step H with n
 * substeps gives T_j1 = (1 - z/n_j)^(-n_j), n_j = 1, 2, 3, 4, 6, 8, 12, ...,
 * and the Aitken-Neville recursion in h (HNW I §II.9, Hairer & Wanner II
 * §IV.9) T_j,k+1 = T_jk + (T_jk - T_j-1,k)/(n_j/n_j-k - 1).  Rows 5-8: at
 * z = -1 and -1.25 the error is positive and 0.55-0.75 of the estimate (errors
 * add up with one sign and stay bounded: 8 columns, whose steps keep the slow
 * modes in this range); at z = -1.75 and -2 it is negative and 1.4-2.7 times
 * the estimate (the estimate passes through zero near -1.5).  12 columns'
 * steps put chain_stiff's slowest excited mode (lambda ~ -69) at z = -1.05 ..
 * -1.73, across the turn.  The bounds below are the computed values
 * (0.57-0.70, 1.49-2.68) rounded outward. */
static double lie_tableau_error(double z, int j, double *estimate) {
  double T[16][16];
  int n[16];
  for (int i = 0; i <= j; i++) {
    n[i] = i < 3 ? i + 1 : 2 * n[i - 2];
    T[i][0] = pow(1.0 - z / n[i], -n[i]);
    for (int k = 1; k <= i; k++)
      T[i][k] = T[i][k - 1] + (T[i][k - 1] - T[i - 1][k - 1]) / ((double)n[i] / n[i - k] - 1.0);
  }
  *estimate = fabs(T[j][j] - T[j][j - 1]);
  return T[j][j] - exp(z);
}

TEST(seulex_estimate_band) {
  static const double zs[4] = {-1.0, -1.25, -1.75, -2.0};
  char what[160];
  for (int j = 5; j <= 8; j++)
    for (int i = 0; i < 4; i++) {
      double est, err = lie_tableau_error(zs[i], j, &est);
      const int inside = i < 2;
      snprintf(what, sizeof what, "z = %g, row %d: error %s, |error| / estimate in %s", zs[i], j,
               inside ? "> 0" : "< 0", inside ? "(0.5, 0.8)" : "(1.3, 3)");
      CHECK(what, inside ? err > 0 && fabs(err) / est > 0.5 && fabs(err) / est < 0.8
                         : err < 0 && fabs(err) / est > 1.3 && fabs(err) / est < 3.0);
    }
}

static const th_case cases[] = {
    TH_CASE(end_vdp),
    TH_CASE(end_vdp_m1),
    TH_CASE(end_robertson),
    TH_CASE(end_robertson_dae),
    TH_CASE(end_hires),
    TH_CASE(end_arenstorf),
    TH_CASE(end_pleiades),
    TH_CASE(end_pleiades_m1),
    TH_CASE(end_linear),
    TH_CASE(end_chain),
    TH_CASE(end_chain_dense),
    TH_CASE(end_chain_banded),
    TH_CASE(end_chain_stiff),
    TH_CASE(seulex_bounded_order),
    TH_CASE(seulex_estimate_band),
    TH_CASE(rigid_body_projection),
    TH_CASE(tolerance_scaling_linear),
    TH_CASE(tolerance_scaling_chain),
    TH_CASE(dense_output_linear),
    TH_CASE(dense_output_chain),
    TH_CASE(dense_output_endpoints),
    TH_CASE(fixed_step_order),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
