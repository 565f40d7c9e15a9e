// SPDX-License-Identifier: Apache-2.0
/* Tests specific to the SUNDIALS adapters (ida, cvode; src/integrate/sundials.c)
 * beyond the conformance suite: statistics on VdP and Robertson, the three
 * ways to give ida a DAE (residual + Jacobian, residual with SUNDIALS'
 * difference quotients, mass matrix M y' = f), consistent initial values
 * (IDACalcIC in both modes), banded Jacobians in our layout written into
 * SUNDIALS' band storage (against dense and difference quotients),
 * per-component tolerances, dense output across evolve calls, and failure
 * modes with SUNDIALS' messages.  References: problems.c (published values,
 * exact solutions) and closed forms derived here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "itest.h"

static const cosrod_step_type *method(const char *name) {
  const cosrod_step_type *T = cosrod_step_type_by_name(name);
  CHECK(name, T != NULL);
  return T;
}

typedef struct run_out {
  cosrod_status st;
  double t, t_fail;
  double y[32];
  cosrod_integrate_stats s;
  char msg[512];
} run_out;

static run_out run(const cosrod_step_type *T, const cosrod_ode_problem *p, const cosrod_integrate_options *o,
                   double t0, const double *y0, const double *yp0, double t_end,
                   const cosrod_output_spec *out) {
  run_out r;
  memset(&r, 0, sizeof r);
  cosrod_integrator *it = cosrod_integrator_create(T, p, o, &r.st);
  if (!it) {
    snprintf(r.msg, sizeof r.msg, "create failed");
    return r;
  }
  r.st = cosrod_integrator_init(it, t0, y0, yp0);
  if (r.st == COSROD_OK) r.st = cosrod_integrator_evolve(it, t_end, out);
  r.t = cosrod_integrator_t(it);
  r.t_fail = cosrod_integrator_fail_time(it);
  memcpy(r.y, cosrod_integrator_y(it), sizeof(double) * (size_t)p->n);
  r.s = *cosrod_integrator_stats(it);
  snprintf(r.msg, sizeof r.msg, "%s", cosrod_integrator_message(it));
  cosrod_integrator_free(it);
  return r;
}

/* Bound on the end error of the spring chain (problems.c: K = 100, C = 0.5,
 * ITEST_CHAIN_N masses, exact modal solution) in tol units, from the
 * accumulation of local errors (HNW I, section II.3, "Lady Windermere's fan"):
 * e(T) = sum_k Phi(T, t_k) le_k.  In modal coordinates the chain is a set of
 * damped oscillators a'' + C a' + w_j^2 a = 0 (w_j = 2 sqrt(K) sin(j pi /
 * (2 (N + 1))), orthogonal sine transform), for which the energy norm
 * (w_j^2 a^2 + a'^2)^(1/2) does not grow; so in the Euclidean norm
 * |Phi| <= kappa = max(w_max, 1) / min(w_min, 1).  An accepted step's local
 * error passed the weighted-RMS test, |le_k|_2 <= sqrt(n) (rtol Y + atol)
 * with Y the largest |y_i| along the exact solution (sampled below), and the
 * scaled end error divides by at least atol.  With nsteps accepted steps:
 * e <= kappa nsteps sqrt(n) (rtol Y + atol) / atol.  The argument assumes the
 * method's error estimate bounds its local error (asymptotically true for
 * BDF's estimate); it holds for any correct step control, whatever the
 * step sequence. */
static double chain_bound(const itest_problem *P, long nsteps, double rtol, double atol) {
  enum { N = ITEST_CHAIN_N, n = 2 * N };
  const double PI_ = 3.14159265358979323846, K = 100.0;
  double wmax = 2.0 * sqrt(K) * sin(N * PI_ / (2.0 * (N + 1))), wmin = 2.0 * sqrt(K) * sin(PI_ / (2.0 * (N + 1)));
  double kappa = fmax(wmax, 1.0) / fmin(wmin, 1.0), Y = 0.0, y[n];
  for (int k = 0; k <= 400; k++) {
    P->exact(P->t0 + (P->t_end - P->t0) * k / 400.0, y);
    for (int i = 0; i < n; i++) Y = fmax(Y, fabs(y[i]));
  }
  return kappa * (double)nsteps * sqrt((double)n) * (rtol * Y + atol) / atol;
}

static cosrod_integrate_options opts(double rtol, double atol) {
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

static void note_stats(const char *label, const run_out *r) {
  NOTE("%s: %s, nfev %ld njev %ld nsteps %ld naccept %ld nreject %ld ndecomp %ld nnewton %ld nfail_rhs %ld",
       label, cosrod_status_name(r->st), r->s.nfev, r->s.njev, r->s.nsteps, r->s.naccept, r->s.nreject,
       r->s.ndecomp, r->s.nnewton, r->s.nfail_rhs);
  if (r->st != COSROD_OK) NOTE("  message: %s", r->msg);
}

/* ---------------------------------------------------------------- statistics */

/* VdP (eps = 1e-6) and Robertson at rtol 1e-6: a BDF code needs a few
 * hundred to a few thousand steps (Hairer-Wanner II §IV.10 report 1000-1500
 * for DASSL/LSODE-type codes at this tolerance); the counters must be
 * mutually consistent: every step needs at least one residual and one
 * Newton iteration, each Jacobian belongs to a linear-solver setup. */
TEST(stats_vdp_robertson) {
  const char *probs[2] = {"vdp", "robertson"};
  const char *meths[2] = {"ida", "cvode"};
  char what[200];
  for (int ip = 0; ip < 2; ip++) {
    const itest_problem *P = itest_problem_by_name(probs[ip]);
    cosrod_ode_problem p = {0};
    P->setup(&p);
    cosrod_integrate_options o = opts(1e-6, 1e-6 * P->atol_per_rtol);
    for (int im = 0; im < 2; im++) {
      run_out r = run(method(meths[im]), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
      snprintf(what, sizeof what, "%s on %s", meths[im], probs[ip]);
      note_stats(what, &r);
      CHECK(what, r.st == COSROD_OK);
      double e = itest_scaled_error(P->n, r.y, P->yref, o.rtol, o.atol);
      NOTE("%s: end error %.3g tol units", what, e);
      /* measured 0.6 (Robertson) to 18 (cvode VdP); BDF global errors are a small multiple of tol */
      snprintf(what, sizeof what, "%s on %s: end error <= 100 tol units", meths[im], probs[ip]);
      CHECK_LE(what, e, 100.0);
      snprintf(what, sizeof what, "%s on %s: 200 <= nsteps <= 5000", meths[im], probs[ip]);
      CHECK(what, r.s.nsteps >= 200 && r.s.nsteps <= 5000);
      /* nsteps counts attempted steps as for the other methods (it used to be naccept) */
      snprintf(what, sizeof what, "%s on %s: nsteps == naccept + nreject", meths[im], probs[ip]);
      CHECK(what, r.s.nsteps == r.s.naccept + r.s.nreject);
      snprintf(what, sizeof what, "%s on %s: nreject < nsteps / 5", meths[im], probs[ip]);
      CHECK(what, r.s.nreject < r.s.nsteps / 5);
      snprintf(what, sizeof what, "%s on %s: nfev >= nnewton >= nsteps", meths[im], probs[ip]);
      CHECK(what, r.s.nfev >= r.s.nnewton && r.s.nnewton >= r.s.nsteps);
      snprintf(what, sizeof what, "%s on %s: 1 <= njev <= ndecomp <= nsteps", meths[im], probs[ip]);
      CHECK(what, r.s.njev >= 1 && r.s.njev <= r.s.ndecomp && r.s.ndecomp <= r.s.nsteps);
      snprintf(what, sizeof what, "%s on %s: wall time measured", meths[im], probs[ip]);
      CHECK(what, r.s.wall_time > 0.0);
    }
  }
}

/* ---------------------------------------------------------------- DAE forms */

/* Robertson as an index-1 DAE (problems.c "robertson_dae"): given as
 * (a) residual + residual Jacobian, (b) residual only (SUNDIALS' difference
 * quotients), (c) mass matrix diag(1, 1, 0) with f (residual M y' - f).  All
 * reach the published end values, and the algebraic equation y1 + y2 + y3 = 1
 * holds at the end to Newton accuracy. */
TEST(ida_robertson_dae_three_forms) {
  const itest_problem *P = itest_problem_by_name("robertson_dae");
  cosrod_integrate_options o = opts(1e-6, 1e-12);
  const char *label[3] = {"res + res_jac", "res, DQ Jacobian", "mass matrix + f + jac"};
  char what[200];
  long nfev[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    cosrod_ode_problem p = {0};
    P->setup(&p);
    if (k == 1) p.res_jac = NULL;
    if (k == 2) p.res = NULL, p.res_jac = NULL;
    run_out r = run(method("ida"), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
    note_stats(label[k], &r);
    snprintf(what, sizeof what, "ida robertson_dae (%s): status OK", label[k]);
    CHECK(what, r.st == COSROD_OK);
    double e = itest_scaled_error(3, r.y, P->yref, o.rtol, o.atol);
    /* measured 0.7 tol units: the DAE is as accurate as the ODE form */
    snprintf(what, sizeof what, "ida robertson_dae (%s): end error <= 10 tol units", label[k]);
    CHECK_LE(what, e, 10.0);
    /* the constraint is solved by Newton to ~ atol-weighted accuracy: |g| <= 1e-9 */
    snprintf(what, sizeof what, "ida robertson_dae (%s): |y1 + y2 + y3 - 1| at t = 1e11", label[k]);
    CHECK_LE(what, fabs(r.y[0] + r.y[1] + r.y[2] - 1.0), 1e-9);
    nfev[k] = r.s.nfev;
  }
  /* difference quotients cost n = 3 extra residuals per Jacobian (dense DQ) */
  CHECK("DQ Jacobian costs more residual evaluations than the analytic one", nfev[1] > nfev[0]);
}

/* Inconsistent algebraic start: y0 = (1, 0, 0.3) violates y1 + y2 + y3 = 1.
 * With dae_init = 0 (automatic: no yp0) IDACalcIC keeps the differential
 * components and moves y3 to 0; the reported initial state is the corrected
 * one, and the run ends at the published values. */
typedef struct first_out {
  int n, count;
  double t0, y0[3];
} first_out;
static int keep_first(double t, const double *y, void *user) {
  first_out *f = user;
  if (f->count++ == 0) {
    f->t0 = t;
    memcpy(f->y0, y, sizeof(double) * (size_t)f->n);
  }
  return 0;
}
TEST(ida_calcic_ya_ydp) {
  const itest_problem *P = itest_problem_by_name("robertson_dae");
  cosrod_integrate_options o = opts(1e-6, 1e-12);
  const double y0[3] = {1.0, 0.0, 0.3};
  for (int form = 0; form < 2; form++) {
    cosrod_ode_problem p = {0};
    P->setup(&p);
    if (form == 1)
      p.res = NULL, p.res_jac = NULL, p.dae_id = NULL; /* algebraic part from the zero column of M */
    first_out f = {3, 0, 0.0, {0.0}};
    cosrod_output_spec out = {0};
    out.include_t0 = 1;
    out.output = keep_first;
    out.user = &f;
    run_out r = run(method("ida"), &p, &o, 0.0, y0, NULL, P->t_end, &out);
    note_stats(form ? "calcic (mass form)" : "calcic (residual form)", &r);
    CHECK("status OK", r.st == COSROD_OK);
    CHECK("initial state reported", f.count >= 1 && f.t0 == 0.0);
    /* IDACalcIC solves the algebraic equation by Newton: y3 = 1 - y1 - y2 = 0 exactly up to roundoff */
    CHECK_NEAR("corrected algebraic y3(0)", f.y0[2], 0.0, 1e-12);
    CHECK_NEAR("differential y1(0) kept", f.y0[0], 1.0, 0.0);
    CHECK_NEAR("differential y2(0) kept", f.y0[1], 0.0, 0.0);
    CHECK_LE("end error (tol units) <= 10", itest_scaled_error(3, r.y, P->yref, o.rtol, o.atol), 10.0);
  }
}

/* IDA_Y_INIT (dae_init = 2): y from a given y'.  F = y' - A y with
 * A = [[-1, 1], [0, -2]]; y' (0) = A y* for y* = (0.7, -0.4) must return y*. */
static int lin2_res(double t, const double *y, const double *yp, double *r, void *u) {
  (void)t, (void)u;
  r[0] = yp[0] - (-y[0] + y[1]);
  r[1] = yp[1] - (-2.0 * y[1]);
  return 0;
}
TEST(ida_calcic_y_init) {
  cosrod_ode_problem p = {0};
  p.n = 2;
  p.res = lin2_res;
  cosrod_integrate_options o = opts(1e-8, 1e-10);
  o.dae_init = 2;
  const double ystar[2] = {0.7, -0.4};
  const double yp0[2] = {-ystar[0] + ystar[1], -2.0 * ystar[1]};
  const double yguess[2] = {5.0, 5.0};
  first_out f = {2, 0, 0.0, {0.0}};
  cosrod_output_spec out = {0};
  out.include_t0 = 1;
  out.output = keep_first;
  out.user = &f;
  run_out r = run(method("ida"), &p, &o, 0.0, yguess, yp0, 1.0, &out);
  note_stats("Y_INIT", &r);
  CHECK("status OK", r.st == COSROD_OK);
  /* linear residual: Newton is exact after one iteration, up to roundoff */
  CHECK_VEC("y(0) = A^-1 y'(0)", f.y0, ystar, 2, 0.0, 1e-10);
  /* exact: y1 = y1* e^-2t, y0 = (y0* + y1*) e^-t - y1* e^-2t */
  double ex[2] = {(ystar[0] + ystar[1]) * exp(-1.0) - ystar[1] * exp(-2.0), ystar[1] * exp(-2.0)};
  /* global error of BDF: a few tolerances (1e-8 relative, 1e-10 absolute) */
  CHECK_VEC("y(1) vs exact", r.y, ex, 2, 0.0, 1e-6);
}

/* IDACalcIC that cannot succeed: 0 = y1^2 + 1 has no real solution; the
 * status says why, with SUNDIALS' message, instead of printing to stderr. */
static int nosol_res(double t, const double *y, const double *yp, double *r, void *u) {
  (void)t, (void)u;
  r[0] = yp[0] + y[0];
  r[1] = y[1] * y[1] + 1.0;
  return 0;
}
TEST(ida_calcic_failure_message) {
  cosrod_ode_problem p = {0};
  p.n = 2;
  p.res = nosol_res;
  static const double id[2] = {1.0, 0.0};
  p.dae_id = id;
  cosrod_integrate_options o = opts(1e-6, 1e-8);
  const double y0[2] = {1.0, 0.5};
  run_out r = run(method("ida"), &p, &o, 0.0, y0, NULL, 1.0, NULL);
  note_stats("unsolvable constraint", &r);
  CHECK("status is a convergence failure (ERR_NEWTON or ERR_CONVERGENCE)",
        r.st == COSROD_ERR_NEWTON || r.st == COSROD_ERR_CONVERGENCE);
  CHECK("message names IDACalcIC", strstr(r.msg, "IDACalcIC") != NULL);
  CHECK("state not advanced", r.t == 0.0);
}

/* ---------------------------------------------------------------- banded */

/* The spring chain in interleaved order (problems.c "chain_banded", ml = 3,
 * mu = 1): analytic band Jacobian in our layout, SUNDIALS' band difference
 * quotients, and the same problem declared dense give the same solution
 * (to a fraction of the tolerance: only the Newton matrices differ) and
 * match the exact modal solution. */
static const itest_problem *g_chain;
static int chain_dense_jac(double t, const double *y, double *J, int ld, void *u) {
  /* evaluate the banded Jacobian into a scratch band array, copy to dense */
  enum { N = 2 * ITEST_CHAIN_N, LD = 5 };
  double B[LD * N];
  memset(B, 0, sizeof B);
  cosrod_ode_problem p = {0};
  g_chain->setup(&p);
  int rc = p.jac(t, y, B, LD, u);
  for (int j = 0; j < N; j++)
    for (int i = j - 1; i <= j + 3; i++)
      if (i >= 0 && i < N) J[i + j * ld] = B[j * LD + 1 + i - j];
  return rc;
}
TEST(banded_chain_layouts) {
  const itest_problem *P = itest_problem_by_name("chain_banded");
  g_chain = P;
  double ex[2 * ITEST_CHAIN_N];
  P->exact(P->t_end, ex);
  cosrod_integrate_options o = opts(1e-6, 1e-6);
  const char *meths[2] = {"ida", "cvode"};
  const char *label[3] = {"band analytic", "band DQ", "dense analytic"};
  char what[200];
  for (int im = 0; im < 2; im++) {
    double ys[3][2 * ITEST_CHAIN_N];
    run_out rs[3];
    for (int k = 0; k < 3; k++) {
      cosrod_ode_problem p = {0};
      P->setup(&p);
      if (k == 1) p.jac = NULL;
      if (k == 2) p.jac_banded = 0, p.jac = chain_dense_jac;
      rs[k] = run(method(meths[im]), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
      snprintf(what, sizeof what, "%s chain (%s)", meths[im], label[k]);
      note_stats(what, &rs[k]);
      CHECK(what, rs[k].st == COSROD_OK);
      memcpy(ys[k], rs[k].y, sizeof ys[k]);
      double e = itest_scaled_error(2 * ITEST_CHAIN_N, ys[k], ex, o.rtol, o.atol);
      NOTE("%s: error vs exact %.3g tol units", what, e);
      /* accumulated local errors (chain_bound); measured 51 (ida) and 190 (cvode) tol units */
      double eb = chain_bound(P, rs[k].s.naccept, o.rtol, o.atol);
      snprintf(what, sizeof what, "%s chain (%s): error vs exact <= %.3g tol units", meths[im], label[k], eb);
      CHECK_LE(what, e, eb);
    }
    /* band analytic and dense analytic: the same matrix, so the same steps (LU pivoting may differ) */
    snprintf(what, sizeof what, "%s: band and dense analytic Jacobians give the same solution", meths[im]);
    CHECK_LE(what, itest_scaled_error(2 * ITEST_CHAIN_N, ys[0], ys[2], o.rtol, o.atol), 1e-3);
    snprintf(what, sizeof what, "%s: band and dense take the same number of steps", meths[im]);
    CHECK(what, rs[0].s.nsteps == rs[2].s.nsteps);
    /* DQ band Jacobian: ml + mu + 1 = 5 residuals per Jacobian (column grouping) */
    snprintf(what, sizeof what, "%s: band DQ costs >= 5 f per Jacobian more than analytic", meths[im]);
    CHECK(what, rs[1].s.nfev - rs[1].s.nnewton >= 5 * rs[1].s.njev);
    snprintf(what, sizeof what, "%s: band DQ solution agrees with analytic to 1 tol unit", meths[im]);
    CHECK_LE(what, itest_scaled_error(2 * ITEST_CHAIN_N, ys[1], ys[0], o.rtol, o.atol), 1.0);
  }
}

/* The chain as a residual F = y' - f with a banded residual Jacobian
 * cj I - df/dy written by the callback (our band layout, ml = 3, mu = 1). */
static int chain_res(double t, const double *y, const double *yp, double *r, void *u) {
  cosrod_ode_problem p = {0};
  g_chain->setup(&p);
  int rc = p.f(t, y, r, u);
  for (int i = 0; i < 2 * ITEST_CHAIN_N; i++) r[i] = yp[i] - r[i];
  return rc;
}
static int chain_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ld, void *u) {
  (void)yp;
  cosrod_ode_problem p = {0};
  g_chain->setup(&p);
  int rc = p.jac(t, y, J, ld, u); /* df/dy in band layout, mu = 1 */
  for (int j = 0; j < 2 * ITEST_CHAIN_N; j++) {
    for (int i = j - 1; i <= j + 3; i++)
      if (i >= 0 && i < 2 * ITEST_CHAIN_N) J[j * ld + 1 + i - j] = -J[j * ld + 1 + i - j];
    J[j * ld + 1] += cj;
  }
  return rc;
}
TEST(ida_banded_residual_jacobian) {
  const itest_problem *P = itest_problem_by_name("chain_banded");
  g_chain = P;
  double ex[2 * ITEST_CHAIN_N];
  P->exact(P->t_end, ex);
  cosrod_integrate_options o = opts(1e-6, 1e-6);
  cosrod_ode_problem p = {0};
  p.n = 2 * ITEST_CHAIN_N;
  p.res = chain_res;
  p.res_jac = chain_res_jac;
  p.jac_banded = 1;
  p.jac_ml = 3;
  p.jac_mu = 1;
  /* consistent y'(0) = f(0, y0) given, so no IDACalcIC */
  double yp0[2 * ITEST_CHAIN_N];
  cosrod_ode_problem pf = {0};
  P->setup(&pf);
  pf.f(0.0, P->y0, yp0, NULL);
  run_out r = run(method("ida"), &p, &o, P->t0, P->y0, yp0, P->t_end, NULL);
  note_stats("ida chain residual (band res_jac)", &r);
  CHECK("status OK", r.st == COSROD_OK);
  double e = itest_scaled_error(2 * ITEST_CHAIN_N, r.y, ex, o.rtol, o.atol);
  NOTE("error vs exact %.3g tol units", e);
  /* accumulated local errors (chain_bound); the same BDF iteration as the f-form: measured 51 tol units */
  CHECK_LE("error vs exact <= accumulated local error bound", e, chain_bound(P, r.s.naccept, o.rtol, o.atol));
  CHECK("Jacobian evaluated by the callback", r.s.njev > 0 && r.s.nfev - r.s.nnewton < 3 * r.s.nsteps);
}

/* Our band matrix and LU (linalg_backend 0, and LAPACK dgbtrf on the same
 * band, 1) against SUNDIALS' own band matrix and solver (2) on the chain:
 * ida on F = y' - f (iteration matrix cj I - df/dy built in our band), ida
 * with the residual Jacobian written by the callback, cvode (I - gamma J
 * from the saved J by our linear-system function).  The three solve the
 * same linear systems with partial pivoting, differing in roundoff only, so
 * every counter must agree and the end states must agree to far below the
 * tolerance (bound 1e-6 tol units; measured <= 6e-8; LAPACK dgbtrf on our band
 * reproduces SUNDIALS' band solver bit for bit); all match the exact
 * modal solution as in banded_chain_layouts. */
TEST(own_band_solver_matches_sundials_band) {
  const itest_problem *P = itest_problem_by_name("chain_banded");
  g_chain = P;
  enum { N = 2 * ITEST_CHAIN_N };
  double ex[N], yp0[N];
  P->exact(P->t_end, ex);
  cosrod_ode_problem pf = {0};
  P->setup(&pf);
  pf.f(0.0, P->y0, yp0, NULL);
  const char *label[3] = {"ida f-form", "ida residual", "cvode"};
  char what[200];
  for (int k = 0; k < 3; k++) {
    cosrod_ode_problem p = {0};
    P->setup(&p);
    if (k == 1) {
      p.f = NULL;
      p.jac = NULL;
      p.res = chain_res;
      p.res_jac = chain_res_jac;
    }
    run_out r[3];
    for (int be = 0; be < 3; be++) {
      cosrod_integrate_options o = opts(1e-6, 1e-6);
      o.linalg_backend = be;
      r[be] =
          run(method(k == 2 ? "cvode" : "ida"), &p, &o, P->t0, P->y0, k == 1 ? yp0 : NULL, P->t_end, NULL);
      snprintf(what, sizeof what, "%s, linalg_backend %d", label[k], be);
      note_stats(what, &r[be]);
      CHECK(what, r[be].st == COSROD_OK);
      double e = itest_scaled_error(N, r[be].y, ex, 1e-6, 1e-6);
      double eb = chain_bound(P, r[be].s.naccept, 1e-6, 1e-6);
      snprintf(what, sizeof what, "%s, linalg_backend %d: error vs exact <= %.3g tol units (%.3g)", label[k],
               be, eb, e);
      CHECK_LE(what, e, eb);
    }
    for (int be = 0; be < 2; be++) {
      const cosrod_integrate_stats *a = &r[be].s, *b = &r[2].s;
      snprintf(what, sizeof what, "%s: backend %d and SUNDIALS' band solver take the same steps", label[k],
               be);
      CHECK(what, a->nsteps == b->nsteps && a->naccept == b->naccept && a->nreject == b->nreject &&
                      a->nfev == b->nfev && a->njev == b->njev && a->ndecomp == b->ndecomp &&
                      a->nnewton == b->nnewton);
      double d = itest_scaled_error(N, r[be].y, r[2].y, 1e-6, 1e-6);
      snprintf(what, sizeof what, "%s: backend %d vs SUNDIALS' band solver, end state (%.3g tol units)",
               label[k], be, d);
      CHECK_LE(what, d, 1e-6);
    }
  }
}

/* Declared bandwidths beyond n: a lower bandwidth >= n is clamped (same
 * matrix, so the run is identical); an upper bandwidth >= n cannot be written
 * in place into SUNDIALS' band storage and is refused at creation. */
TEST(band_wider_than_n) {
  const itest_problem *P = itest_problem_by_name("chain_banded");
  cosrod_integrate_options o = opts(1e-6, 1e-6);
  cosrod_ode_problem p = {0};
  P->setup(&p);
  run_out r0 = run(method("ida"), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
  p.jac_ml = 50; /* n = 20 */
  run_out r1 = run(method("ida"), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
  CHECK("jac_ml >= n: status OK", r1.st == COSROD_OK);
  CHECK("jac_ml >= n: same number of steps", r1.s.nsteps == r0.s.nsteps);
  CHECK_VEC("jac_ml >= n: same end values", r1.y, r0.y, 2 * ITEST_CHAIN_N, 1e-12, 1e-14);
  p.jac_ml = 3;
  p.jac_mu = 50;
  cosrod_status st = COSROD_OK;
  cosrod_integrator *it = cosrod_integrator_create(method("ida"), &p, &o, &st);
  CHECK("jac_mu >= n with a band callback: refused with ERR_INVALID", it == NULL && st == COSROD_ERR_INVALID);
  cosrod_integrator_free(it);
}

/* ---------------------------------------------------------------- tolerances */

/* atol as a vector with equal entries and rtol as a vector with equal
 * entries must reproduce the scalar run bit for bit (same error weights);
 * per-component rtol (own error-weight function) perturbed by 1e-12 gives
 * the same steps up to a few. */
TEST(tolerance_vectors) {
  const itest_problem *P = itest_problem_by_name("robertson");
  cosrod_ode_problem p = {0};
  P->setup(&p);
  const double av[3] = {1e-12, 1e-12, 1e-12}, rv[3] = {1e-6, 1e-6, 1e-6},
               rv2[3] = {1e-6, 1e-6 * (1.0 + 1e-12), 1e-6};
  const char *meths[2] = {"ida", "cvode"};
  char what[200];
  for (int im = 0; im < 2; im++) {
    cosrod_integrate_options o = opts(1e-6, 1e-12);
    run_out r0 = run(method(meths[im]), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
    o.atol_vec = av;
    run_out r1 = run(method(meths[im]), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
    o.atol_vec = NULL;
    o.rtol_vec = rv;
    run_out r2 = run(method(meths[im]), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
    o.rtol_vec = rv2;
    run_out r3 = run(method(meths[im]), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
    NOTE("%s: steps scalar %ld, atol vector %ld, rtol vector %ld, perturbed rtol vector %ld", meths[im],
         r0.s.nsteps, r1.s.nsteps, r2.s.nsteps, r3.s.nsteps);
    snprintf(what, sizeof what, "%s: vector atol == scalar (bitwise)", meths[im]);
    CHECK_VEC(what, r1.y, r0.y, 3, 0.0, 0.0);
    snprintf(what, sizeof what, "%s: equal rtol vector == scalar (bitwise)", meths[im]);
    CHECK_VEC(what, r2.y, r0.y, 3, 0.0, 0.0);
    snprintf(what, sizeof what, "%s: per-component rtol: status OK", meths[im]);
    CHECK(what, r3.st == COSROD_OK);
    snprintf(what, sizeof what, "%s: per-component rtol: steps within 5%% of scalar", meths[im]);
    CHECK_CLOSE(what, (double)r3.s.nsteps, (double)r0.s.nsteps, 0.05, 0.0);
    snprintf(what, sizeof what, "%s: per-component rtol: end error <= 10 tol units", meths[im]);
    CHECK_LE(what, itest_scaled_error(3, r3.y, P->yref, 1e-6, 1e-12), 10.0);
  }
}

/* ---------------------------------------------------------------- dense output */

/* Linear problem with an exact solution: 60 output times spread over two
 * evolve calls (0 -> 2 -> 5); every output within 50 tol of the exact
 * solution, each call ends exactly at its t_end (stop time), and a
 * backward run 0 -> -2 is as accurate. */
typedef struct dacc {
  const itest_problem *P;
  double max_err;
  int count;
} dacc;
static int dense_cb(double t, const double *y, void *user) {
  dacc *a = user;
  double ex[4];
  a->P->exact(t, ex);
  a->max_err = fmax(a->max_err, itest_max_error(4, y, ex));
  a->count++;
  return 0;
}
TEST(dense_output_two_calls_and_backward) {
  const itest_problem *P = itest_problem_by_name("linear");
  cosrod_ode_problem p = {0};
  P->setup(&p);
  const char *meths[2] = {"ida", "cvode"};
  char what[200];
  double tout[60];
  for (int i = 0; i < 60; i++) tout[i] = 5.0 * (i + 0.37) / 60.0;
  for (int im = 0; im < 2; im++) {
    cosrod_integrate_options o = opts(1e-7, 1e-7);
    cosrod_status st;
    cosrod_integrator *it = cosrod_integrator_create(method(meths[im]), &p, &o, &st);
    CHECK("created", it != NULL);
    if (!it) continue;
    dacc a = {P, 0.0, 0};
    cosrod_output_spec out = {0};
    out.t_out = tout;
    out.n_out = 60;
    out.output = dense_cb;
    out.user = &a;
    cosrod_integrator_init(it, 0.0, P->y0, NULL);
    cosrod_status s1 = cosrod_integrator_evolve(it, 2.0, &out);
    double t1 = cosrod_integrator_t(it);
    cosrod_status s2 = cosrod_integrator_evolve(it, 5.0, &out);
    double t2 = cosrod_integrator_t(it);
    snprintf(what, sizeof what, "%s: both evolve calls OK", meths[im]);
    CHECK(what, s1 == COSROD_OK && s2 == COSROD_OK);
    snprintf(what, sizeof what, "%s: stops exactly at t_end = 2 and 5", meths[im]);
    CHECK(what, t1 == 2.0 && t2 == 5.0);
    snprintf(what, sizeof what, "%s: all 60 outputs reported", meths[im]);
    CHECK(what, a.count == 60);
    NOTE("%s: max dense-output error %.3g over 60 points (tol 1e-7)", meths[im], a.max_err);
    /* BDF global error, which the interpolant inherits: measured 9 tol (ida) and 23 tol (cvode) */
    snprintf(what, sizeof what, "%s: dense output error <= 50 tol", meths[im]);
    CHECK_LE(what, a.max_err, 50.0 * 1e-7);
    /* backward: y(-2) from y(0) */
    cosrod_integrator_init(it, 0.0, P->y0, NULL);
    st = cosrod_integrator_evolve(it, -2.0, NULL);
    double ex[4];
    P->exact(-2.0, ex);
    snprintf(what, sizeof what, "%s: backward run OK, ends at -2", meths[im]);
    CHECK(what, st == COSROD_OK && cosrod_integrator_t(it) == -2.0);
    /* backward, the decaying modes grow (e^{2t}): relative error bound 50 tol on |y| ~ 60 */
    snprintf(what, sizeof what, "%s: backward y(-2) vs exact", meths[im]);
    CHECK_VEC(what, cosrod_integrator_y(it), ex, 4, 50.0 * 1e-7, 50.0 * 1e-7);
    cosrod_integrator_free(it);
  }
}

/* ---------------------------------------------------------------- failures */

/* Residual-form callbacks: a fatal residual, a fatal residual Jacobian,
 * and a residual that refuses (recoverable) a given number of times. */
typedef struct cbctl {
  double t_fatal;  /* residual fatal for t > this */
  double t_jfatal; /* Jacobian fatal for t > this */
  int refuse_left; /* recoverable refusals still to give (for t > 0.1) */
} cbctl;
static int exp_res(double t, const double *y, const double *yp, double *r, void *u) {
  cbctl *c = u;
  if (t > c->t_fatal) return -3;
  if (t > 0.1 && c->refuse_left > 0) {
    c->refuse_left--;
    return 2;
  }
  r[0] = yp[0] + y[0];
  return 0;
}
static int exp_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ld, void *u) {
  (void)y, (void)yp, (void)ld;
  cbctl *c = u;
  if (t > c->t_jfatal) return -4;
  J[0] = 1.0 + cj;
  return 0;
}
TEST(ida_callback_failures) {
  const double y0 = 1.0, yp0 = -1.0;
  cosrod_integrate_options o = opts(1e-8, 1e-10);
  cosrod_ode_problem p = {0};
  p.n = 1;
  p.res = exp_res;
  p.res_jac = exp_res_jac;

  cbctl c1 = {0.3, 1e9, 0};
  p.user = &c1;
  run_out r = run(method("ida"), &p, &o, 0.0, &y0, &yp0, 1.0, NULL);
  note_stats("fatal residual", &r);
  CHECK("fatal residual: ERR_CALLBACK", r.st == COSROD_ERR_CALLBACK);
  CHECK("fatal residual: failure time > 0.3 >= last accepted t", r.t_fail > 0.3 && r.t <= 0.3);
  CHECK("fatal residual: message has our and SUNDIALS' reason", strstr(r.msg, "IDA_RES_FAIL") &&
                                                                    strstr(r.msg, "residual returned -3") &&
                                                                    strstr(r.msg, "unrecoverabl"));
  /* the state is the last accepted one: exp(-t) to the tolerance */
  CHECK_NEAR("fatal residual: y(t_last) = exp(-t_last)", r.y[0], exp(-r.t), 1e-7);

  cbctl c2 = {1e9, 0.3, 0};
  p.user = &c2;
  r = run(method("ida"), &p, &o, 0.0, &y0, &yp0, 1.0, NULL);
  note_stats("fatal Jacobian", &r);
  CHECK("fatal Jacobian: ERR_CALLBACK", r.st == COSROD_ERR_CALLBACK);
  CHECK("fatal Jacobian: message names the Jacobian callback", strstr(r.msg, "Jacobian returned -4") != NULL);
  CHECK("fatal Jacobian: failure after t = 0.3", r.t_fail > 0.3);

  cbctl c3 = {1e9, 1e9, 3};
  p.user = &c3;
  r = run(method("ida"), &p, &o, 0.0, &y0, &yp0, 1.0, NULL);
  note_stats("recoverable residual", &r);
  CHECK("recoverable residual: status OK", r.st == COSROD_OK);
  CHECK("recoverable residual: 3 refusals counted", r.s.nfail_rhs == 3 && c3.refuse_left == 0);
  /* retried with smaller steps, accuracy unchanged: BDF global error ~ 10 tol */
  CHECK_NEAR("recoverable residual: y(1) = exp(-1)", r.y[0], exp(-1.0), 1e-6);
}

/* max_steps counts SUNDIALS steps (one per driver step) and stops with
 * ERR_MAX_STEPS at the last accepted step; the mapping of TOO_MUCH_WORK is
 * therefore never needed in one-step mode. */
TEST(max_steps_robertson) {
  const itest_problem *P = itest_problem_by_name("robertson");
  cosrod_ode_problem p = {0};
  P->setup(&p);
  const char *meths[2] = {"ida", "cvode"};
  char what[200];
  for (int im = 0; im < 2; im++) {
    cosrod_integrate_options o = opts(1e-6, 1e-12);
    o.max_steps = 40;
    run_out r = run(method(meths[im]), &p, &o, P->t0, P->y0, NULL, P->t_end, NULL);
    note_stats(meths[im], &r);
    snprintf(what, sizeof what, "%s: ERR_MAX_STEPS after exactly 40 steps, 0 < t < t_end", meths[im]);
    CHECK(what, r.st == COSROD_ERR_MAX_STEPS && r.s.nsteps == 40 && r.t > 0.0 && r.t < P->t_end);
    /* mass conservation y1 + y2 + y3 = 1 holds for every BDF step (linear invariant) */
    snprintf(what, sizeof what, "%s: state at the last accepted step conserves y1 + y2 + y3", meths[im]);
    CHECK_NEAR(what, r.y[0] + r.y[1] + r.y[2], 1.0, 1e-12);
  }
}

/* cvode does not take residual-only or mass-matrix problems. */
TEST(cvode_refuses_unsupported) {
  const itest_problem *P = itest_problem_by_name("robertson_dae");
  cosrod_ode_problem p = {0};
  P->setup(&p);
  cosrod_status st = COSROD_OK;
  cosrod_integrator *it = cosrod_integrator_create(method("cvode"), &p, NULL, &st);
  CHECK("mass matrix refused with ERR_UNSUPPORTED", it == NULL && st == COSROD_ERR_UNSUPPORTED);
  cosrod_integrator_free(it);
  p.mass = NULL;
  p.f = NULL;
  it = cosrod_integrator_create(method("cvode"), &p, NULL, &st);
  CHECK("residual-only refused", it == NULL && st != COSROD_OK);
  cosrod_integrator_free(it);
}

static const th_case cases[] = {
    TH_CASE(stats_vdp_robertson),
    TH_CASE(ida_robertson_dae_three_forms),
    TH_CASE(ida_calcic_ya_ydp),
    TH_CASE(ida_calcic_y_init),
    TH_CASE(ida_calcic_failure_message),
    TH_CASE(banded_chain_layouts),
    TH_CASE(ida_banded_residual_jacobian),
    TH_CASE(own_band_solver_matches_sundials_band),
    TH_CASE(band_wider_than_n),
    TH_CASE(tolerance_vectors),
    TH_CASE(dense_output_two_calls_and_backward),
    TH_CASE(ida_callback_failures),
    TH_CASE(max_steps_robertson),
    TH_CASE(cvode_refuses_unsupported),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
