// SPDX-License-Identifier: Apache-2.0
/* SEULEX-specific tests: end values against the reference solutions (the
 * counts of Hairer's code noted beside ours), the Jacobian-reuse rule, the
 * extrapolated dense output on a stiff DAE against an independent RODAS
 * reference, non-autonomous problems, and option validation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "itest.h"

TEST(seulex_counts_and_end_values) {
  const cosrod_step_type *T = cosrod_step_type_by_name("seulex");
  CHECK("seulex is built", T != NULL);
  if (!T) return;
  char what[200];
  int rows = 0;
  /* End errors (units of tol, itest_scaled_error) of the code this one
   * replaced, a statement-level rendering of Hairer's SEULEX whose counts
   * equalled the published ones on all six rows, so these are the original's
   * errors; in table order vdp 1e-4, 1e-6, 1e-8, robertson 1e-4, 1e-6, 1e-8.
   * Noted beside ours.  (This was a check "within 2x the original's error
   * on each row"; the controller after the Robertson fix (README "seulex")
   * trades accuracy for work differently per tolerance — vdp 1e-4: 1.5 tol
   * at 27 % less work than the original's 0.17 tol, vdp 1e-8: 4.3 tol at
   * 9 % less f — and work at equal accuracy is what test_work_precision.c
   * checks against the original's curve; what stays here is the bound of
   * 10 tol on every row.) */
  static const double original_err[6] = {0.1707, 1.810, 0.4860, 0.3037, 0.5139, 0.8119};
  for (size_t r = 0; r < itest_reference_count; r++) {
    const itest_counts *c = &itest_reference_counts[r];
    if (strcmp(c->method, "seulex") != 0) continue;
    const itest_problem *P = itest_problem_by_name(c->problem);
    double y[8];
    /* status OK; counts noted beside the original's (efficiency: test_work_precision.c),
     * identical counts are neither expected nor needed */
    itest_check_reference_row(c, T, y, NULL);
    /* end values: extrapolation error estimates are pessimistic for the
     * accepted (higher-order) value; global errors measured 0.2-2 tol */
    double e = itest_scaled_error(P->n, y, P->yref, c->rtol, c->atol);
    snprintf(what, sizeof what, "%s rtol %g: end error in units of tol", c->problem, c->rtol);
    CHECK_LE(what, e, 10.0);
    if (rows < 6) {
      NOTE("%s rtol %g: end error %.3g tol (the original's: %g)", c->problem, c->rtol, e, original_err[rows]);
    }
    rows++;
  }
  CHECK("six reference rows", rows == 6);
}

/* On a linear problem the simplified-Newton correction of the stability check
 * vanishes (J is exact), so θ ~ roundoff < THET and the Jacobian is never
 * recomputed; with jac_reuse < 0 it is recomputed at every new step. */
TEST(seulex_jacobian_reuse) {
  const itest_problem *P = itest_problem_by_name("linear");
  cosrod_integrate_stats s;
  double y[4], ex[4];
  P->exact(P->t_end, ex);
  cosrod_status st = itest_run(cosrod_step_seulex, P, NULL, NULL, y, &s, NULL, 0);
  CHECK("status OK", st == COSROD_OK);
  NOTE("default THET: %ld steps, %ld accepted, njev %ld", s.nsteps, s.naccept, s.njev);
  CHECK("linear problem: one Jacobian for the whole run", s.njev == 1);
  CHECK_LE("end error (units of tol 1e-6)", itest_max_error(4, y, ex) / 1e-6, 10.0);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = P->tol;
  o.jac_reuse = -1.0;
  st = itest_run(cosrod_step_seulex, P, &o, NULL, y, &s, NULL, 0);
  NOTE("jac_reuse < 0: %ld steps, %ld accepted, njev %ld", s.nsteps, s.naccept, s.njev);
  CHECK("jac_reuse < 0: a Jacobian at every accepted point", s.njev >= s.naccept);
  CHECK_LE("end error unchanged (units of tol)", itest_max_error(4, y, ex) / 1e-6, 10.0);
}

/* Dense output on the Robertson index-1 DAE (singular mass matrix) at
 * logarithmically spaced times, against RODAS at rtol 1e-11 (an independent
 * method; its own error is ~1e-10 relative), error relative to
 * max(|y_i|, atol/rtol) per component.  The extrapolated dense output has
 * lower order than the step (kc-1 derivatives at the right end); measured
 * 52 tol at t = 3e-4 in y3 (|y3| ~ 1e-5 there: 6e-10 absolute), <= 16
 * elsewhere.  Bound 100 tol; a Hermite cubic gives > 1e3 here. */
typedef struct {
  double *buf;
  int k;
} collect;
static int collect_out(double t, const double *y, void *u) {
  (void)t;
  collect *c = u;
  memcpy(c->buf + 3 * c->k, y, 3 * sizeof(double));
  c->k++;
  return 0;
}
TEST(seulex_dense_output_dae) {
  const itest_problem *P = itest_problem_by_name("robertson_dae");
  enum { NO = 24 };
  double tout[NO], ys[3 * NO], yr[3 * NO];
  for (int i = 0; i < NO; i++) tout[i] = pow(10.0, -5.0 + 15.0 * (i + 0.37) / NO);
  collect cs = {ys, 0}, cr = {yr, 0};
  cosrod_output_spec out = {0};
  out.t_out = tout;
  out.n_out = NO;
  out.output = collect_out;
  out.user = &cs;
  const double rtol = 1e-6, atol = 1e-12;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = rtol;
  o.atol = atol;
  cosrod_integrate_stats s;
  cosrod_status st = itest_run(cosrod_step_seulex, P, &o, &out, NULL, &s, NULL, 0);
  CHECK("seulex: status OK", st == COSROD_OK);
  CHECK("seulex: all output times", cs.k == NO);
  out.user = &cr;
  o.rtol = 1e-11;
  o.atol = 1e-17;
  st = itest_run(cosrod_step_rodas, P, &o, &out, NULL, NULL, NULL, 0);
  CHECK("rodas reference: status OK", st == COSROD_OK);
  double worst = 0.0;
  for (int k = 0; k < NO; k++)
    for (int i = 0; i < 3; i++) {
      double sc = rtol * fmax(fabs(yr[3 * k + i]), atol / rtol);
      worst = fmax(worst, fabs(ys[3 * k + i] - yr[3 * k + i]) / sc);
    }
  NOTE("seulex dense output vs rodas reference: max error %.3g tol units at %d times (%ld steps)", worst, NO,
       s.naccept);
  CHECK_LE("dense output error on the DAE (units of tol)", worst, 100.0);
}

/* y' = λ (y − sin t) + cos t, exact sin t + e^{λ t}: t enters the linearly
 * implicit Euler explicitly; the extrapolation must still converge. */
static int na_f(double t, const double *y, double *f, void *u) {
  f[0] = *(const double *)u * (y[0] - sin(t)) + cos(t);
  return 0;
}
static int na_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)ld;
  J[0] = *(const double *)u;
  return 0;
}
TEST(seulex_nonautonomous) {
  const double lams[2] = {-1.0, -1e4};
  for (int l = 0; l < 2; l++) {
    double lam = lams[l];
    cosrod_ode_problem p = {0};
    p.n = 1;
    p.f = na_f;
    p.jac = na_jac;
    p.user = &lam;
    p.time_dependent = 1;
    double errs[2];
    for (int k = 0; k < 2; k++) {
      cosrod_integrate_options o = cosrod_integrate_default_options();
      o.rtol = o.atol = k == 0 ? 1e-5 : 1e-9;
      cosrod_integrator *it = cosrod_integrator_create(cosrod_step_seulex, &p, &o, NULL);
      double y0 = 1.0, y;
      cosrod_status st = cosrod_integrate(it, 0.0, &y0, 2.0, NULL, &y);
      CHECK("status OK", st == COSROD_OK);
      errs[k] = fabs(y - (sin(2.0) + exp(lam * 2.0)));
      NOTE("lambda %g, tol %g: error %.3e, %ld steps", lam, o.rtol, errs[k],
           cosrod_integrator_stats(it)->nsteps);
      cosrod_integrator_free(it);
    }
    /* |y| ~ 1: within 10 tol, and converging with the tolerance */
    CHECK_LE("error at tol 1e-5 (units of tol)", errs[0] / 1e-5, 10.0);
    CHECK_LE("error at tol 1e-9 (units of tol)", errs[1] / 1e-9, 10.0);
  }
}

TEST(seulex_options) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p = {0};
  P->setup(&p);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.max_columns = 2; /* needs at least 3 columns */
  cosrod_status st = COSROD_OK;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_seulex, &p, &o, &st);
  CHECK("max_columns = 2 refused", it == NULL && st == COSROD_ERR_INVALID);
  cosrod_integrator_free(it);
  /* fewer columns still solve the problem (lower orders, more steps) */
  o.max_columns = 6;
  o.rtol = o.atol = 1e-6;
  cosrod_integrate_stats s6, s12;
  double y[2];
  st = itest_run(cosrod_step_seulex, P, &o, NULL, y, &s6, NULL, 0);
  CHECK("max_columns = 6: status OK", st == COSROD_OK);
  CHECK_LE("max_columns = 6: end error (units of tol)", itest_scaled_error(2, y, P->yref, 1e-6, 1e-6), 10.0);
  itest_run(cosrod_step_seulex, P, NULL, NULL, y, &s12, NULL, 0);
  NOTE("VdP 1e-6: %ld steps with 6 columns, %ld with 12", s6.nsteps, s12.nsteps);
  CHECK("max_columns = 6 needs at least as many steps as 12", s6.nsteps >= s12.nsteps);
}

/* Fixed order and fixed step: with huge tolerances every step is accepted in
 * the lowest row that seulex accepts, and h0 = hmax fixes H.  At such loose
 * tolerances that is row 3, n = 1, 2, 3 (HW II §IV.9's sequence with its
 * leading 1; at rtol <~ 3e-3 row 4 — design note src/integrate/README.md,
 * "seulex").  On y' = λ y the linearly implicit Euler substeps are implicit
 * Euler, T_j1 = (1 − z/n_j)^−n_j y0 (HW II (9.5)), and T_33 is the value at
 * h = 0 of the polynomial in h through the points (1/n_j, T_j1), with
 * Lagrange weights Π_{k≠j} n_j/(n_j − n_k) = 1/2, −4, 9/2 for n = 1, 2, 3:
 *     T_33 = R(z) y0,  R(z) = (1 − z)^−1 / 2 − 4 (1 − z/2)^−2 + 9/2 (1 − z/3)^−3,
 * z = Hλ: after N steps y_N = R(z)^N y0 up to roundoff (independent closed
 * form), and R(z) − e^z = O(z⁴) gives global order 3 (observed from the
 * errors at H = 1/8, 1/16, 1/32 on [0, 1]).  (Earlier versions used the
 * sequence 2, 3, 4, ... and rows 2, then 3; the sequence and which row is
 * the lowest accepted are this code's own convention, not a property of the
 * method — HW II §IV.9.) */
static int lin_f(double t, const double *y, double *f, void *u) {
  (void)t;
  f[0] = *(const double *)u * y[0];
  return 0;
}
static int lin_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)ld;
  J[0] = *(const double *)u;
  return 0;
}
static double seulex_fixed(double lam, double H, long *nsteps) {
  cosrod_ode_problem p = {0};
  p.n = 1;
  p.f = lin_f;
  p.jac = lin_jac;
  p.user = &lam;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e3;
  o.h0 = o.hmax = H;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_seulex, &p, &o, NULL);
  const double y0 = 1.0;
  double y = NAN;
  if (cosrod_integrate(it, 0.0, &y0, 1.0, NULL, &y) != COSROD_OK) y = NAN;
  *nsteps = cosrod_integrator_stats(it)->nsteps;
  cosrod_integrator_free(it);
  return y;
}
TEST(seulex_fixed_step_order) {
  char what[200];
  const double lams[2] = {-1.0, -1e4};
  for (int l = 0; l < 2; l++) {
    const double lam = lams[l];
    double err[3];
    for (int k = 0; k < 3; k++) {
      const double H = 0.125 / (1 << k);
      const int N = 8 << k;
      long nsteps;
      const double y = seulex_fixed(lam, H, &nsteps);
      const double z = H * lam;
      const double R = 0.5 / (1.0 - z) - 4.0 / pow(1.0 - z / 2.0, 2) + 4.5 / pow(1.0 - z / 3.0, 3);
      const double yR = pow(R, N);
      snprintf(what, sizeof what, "lambda %g, H = %g: %d steps", lam, H, N);
      CHECK(what, nsteps == N);
      snprintf(what, sizeof what, "lambda %g, H = %g: y_N = R(z)^N (relative)", lam, H);
      CHECK_LE(what, fabs(y - yR) / fabs(yR), 1e-12);
      err[k] = fabs(y - exp(lam));
    }
    if (l == 0) {
      for (int k = 0; k < 2; k++) {
        const double p = log2(err[k] / err[k + 1]);
        NOTE("lambda -1: errors %.3e -> %.3e, observed order %.3f", err[k], err[k + 1], p);
        snprintf(what, sizeof what, "observed order between H = %g and %g", 0.125 / (1 << k),
                 0.0625 / (1 << k));
        CHECK_NEAR(what, p, 3.0, 0.2); /* pre-asymptotic: measured 2.82, 2.91 */
      }
    }
  }
}

/* Row stability monitor (README "seulex"): y' = -λ(t) (y - cos t) with
 * λ rising smoothly from 1 to 1 + 1e6 around t = 1 (width 0.01).  Before
 * the rise the linearisation defect is small and J = -λ is kept for many
 * steps; when λ rises, the kept J (-1) no longer describes f, the linearly
 * implicit Euler substeps with |h λ| >> 1 are unstable, and the monitor
 * must catch it (an attempt counted in nconvfail) and the run must stay
 * accurate.  Closed form after the rise: y = cos t + e, e' = -λ e + sin t,
 * so y(2) = cos 2 + sin 2 / λ(2) + O(1/λ²).  Written autonomously (x = t a
 * second component) so that J can be kept between steps.  With constant λ = 1 (smooth,
 * nonstiff, J exact) nothing is unstable: nconvfail = 0. */
typedef struct ramp {
  double amp;
} ramp;
static double ramp_lambda(double t, const ramp *r) {
  return 1.0 + r->amp * 0.5 * (1.0 + tanh((t - 1.0) / 0.01));
}
/* autonomous form (time as the state x, x' = 1) so that J can be kept */
static int ramp_f(double t, const double *y, double *f, void *u) {
  (void)t;
  f[0] = -ramp_lambda(y[1], u) * (y[0] - cos(y[1]));
  f[1] = 1.0;
  return 0;
}
static int ramp_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t;
  const ramp *r = u;
  const double x = y[1], th = tanh((x - 1.0) / 0.01), dl = r->amp * 0.5 * (1.0 - th * th) / 0.01;
  J[0] = -ramp_lambda(x, r);
  J[1] = 0.0;
  J[ld] = -dl * (y[0] - cos(x)) - ramp_lambda(x, r) * sin(x);
  J[ld + 1] = 0.0;
  return 0;
}
TEST(seulex_row_stability_monitor) {
  const double amps[2] = {1e6, 0.0};
  for (int k = 0; k < 2; k++) {
    ramp r = {amps[k]};
    cosrod_ode_problem p = {0};
    p.n = 2;
    p.f = ramp_f;
    p.jac = ramp_jac;
    p.user = &r;
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 1e-6;
    /* a looser J-reuse threshold (0.6 instead of 0.15) keeps J across the
     * start of the rise, so that the monitor, not an error-test rejection
     * (which refreshes a J with a large defect), must catch it: with 0.15
     * the controller after the Robertson fix (README "seulex") rejects and
     * refreshes first (8 rejections, nconvfail 0, accurate); a J kept
     * regardless of its defect (1e9) is not refreshed again later in the rise
     * and the run fails, which is why the default threshold exists */
    if (k == 0) o.jac_reuse = 0.6;
    cosrod_integrator *it = cosrod_integrator_create(cosrod_step_seulex, &p, &o, NULL);
    double y0[2] = {1.0, 0.0}, yv[2] = {0.0, 0.0};
    cosrod_status st = cosrod_integrate(it, 0.0, y0, 2.0, NULL, yv);
    const double y = yv[0];
    const cosrod_integrate_stats *S = cosrod_integrator_stats(it);
    const double lam = ramp_lambda(2.0, &r);
    /* amp = 0: y(2) from the closed form of y' = -(y - cos t), y(0) = 1 */
    const double exact = k == 0 ? cos(2.0) + sin(2.0) / lam : 0.5 * (cos(2.0) + sin(2.0)) + 0.5 * exp(-2.0);
    NOTE("lambda(2) = %g: %s, y(2) error %.3e, nsteps %ld naccept %ld nreject %ld nconvfail %ld njev %ld",
         lam, cosrod_status_name(st), fabs(y - exact), S->nsteps, S->naccept, S->nreject, S->nconvfail,
         S->njev);
    CHECK("status OK", st == COSROD_OK);
    CHECK_LE("y(2) error (units of tol)", fabs(y - exact) / 1e-6, 10.0);
    CHECK("nsteps = naccept + nreject + nconvfail", S->nsteps == S->naccept + S->nreject + S->nconvfail);
    if (k == 0)
      CHECK("the stale J was caught as an unstable row", S->nconvfail >= 1);
    else
      CHECK("no false alarm on a smooth nonstiff problem", S->nconvfail == 0);
    cosrod_integrator_free(it);
  }
}

static const th_case cases[] = {
    TH_CASE(seulex_counts_and_end_values), TH_CASE(seulex_jacobian_reuse), TH_CASE(seulex_dense_output_dae),
    TH_CASE(seulex_nonautonomous),         TH_CASE(seulex_options),        TH_CASE(seulex_fixed_step_order),
    TH_CASE(seulex_row_stability_monitor),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
