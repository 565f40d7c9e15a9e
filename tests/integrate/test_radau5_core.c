// SPDX-License-Identifier: Apache-2.0
/* RADAU5 core tests beyond test_radau5.c: the fixed-step order of the
 * rewritten step (5, superconvergence of Radau IIA at the step ends), the
 * separate count of Newton failures (stats.nconvfail), and the hardening of
 * the failure paths: a non-finite right-hand side at t0 and a non-finite
 * Jacobian are ERR_NONFINITE, and every failure leaves a message; and the
 * coefficient tables of radau5_coef.h against the published Butcher
 * matrix. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "integrate/radau5_coef.h"
#include "itest.h"

static const cosrod_step_type *radau5(void) { return cosrod_step_type_by_name("radau5"); }

typedef struct run_out {
  cosrod_status st;
  double y[8];
  cosrod_integrate_stats s;
  char msg[512];
} run_out;

static run_out run(const cosrod_ode_problem *p, const cosrod_integrate_options *o, double t0,
                   const double *y0, double t1, const cosrod_output_spec *out) {
  run_out r;
  memset(&r, 0, sizeof r);
  cosrod_integrator *it = cosrod_integrator_create(radau5(), p, o, &r.st);
  if (!it) {
    snprintf(r.msg, sizeof r.msg, "create failed");
    return r;
  }
  r.st = cosrod_integrate(it, t0, y0, t1, out, r.y);
  r.s = *cosrod_integrator_stats(it);
  snprintf(r.msg, sizeof r.msg, "%s", cosrod_integrator_message(it));
  cosrod_integrator_free(it);
  return r;
}

/* ======================================================================== */
/* Coefficients                                                             */
/* ======================================================================== */
/* radau5_coef.h against the published Radau IIA matrix (HW II Table 5.6):
 *   A = [[(88-7√6)/360, (296-169√6)/1800, (-2+3√6)/225],
 *        [(296+169√6)/1800, (88+7√6)/360, (-2-3√6)/225],
 *        [(16-√6)/36, (16+√6)/36, 1/9]].
 * T Λ T^-1 = A^-1  <=>  A T Λ = T;  T T^-1 = I;  V V^-1 = I with
 * V_jk = c_j^k; rows of A sum to c.  Bounds: a few ulps of the sums of
 * products (entries up to 4 in T^-1, up to 26 in V^-1). */
/* out = a b for row-major 3x3 matrices given by their first entries */
static void mat3_mul(double *out, const double *a, const double *b) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      out[3 * i + j] = 0.0;
      for (int k = 0; k < 3; k++) out[3 * i + j] += a[3 * i + k] * b[3 * k + j];
    }
}
TEST(coefficients_match_butcher_table) {
  const double r6 = sqrt(6.0);
  const double A[3][3] = {
      {(88.0 - 7.0 * r6) / 360.0, (296.0 - 169.0 * r6) / 1800.0, (-2.0 + 3.0 * r6) / 225.0},
      {(296.0 + 169.0 * r6) / 1800.0, (88.0 + 7.0 * r6) / 360.0, (-2.0 - 3.0 * r6) / 225.0},
      {(16.0 - r6) / 36.0, (16.0 + r6) / 36.0, 1.0 / 9.0}};
  const double L[3][3] = {
      {RADAU5_GAMMA, 0.0, 0.0}, {0.0, RADAU5_ALPHA, -RADAU5_BETA}, {0.0, RADAU5_BETA, RADAU5_ALPHA}};
  double AT[3][3], ATL[3][3], TTi[3][3], V[3][3], VVi[3][3];
  mat3_mul(&AT[0][0], &A[0][0], &RADAU5_T[0][0]);
  mat3_mul(&ATL[0][0], &AT[0][0], &L[0][0]);
  mat3_mul(&TTi[0][0], &RADAU5_T[0][0], &RADAU5_TINV[0][0]);
  for (int j = 0; j < 3; j++)
    for (int k = 0; k < 3; k++) V[j][k] = pow(RADAU5_C[j], k + 1);
  mat3_mul(&VVi[0][0], &V[0][0], &RADAU5_VINV[0][0]);
  double e_sim = 0.0, e_inv = 0.0, e_vdm = 0.0, e_c = 0.0;
  for (int i = 0; i < 3; i++) {
    e_c = fmax(e_c, fabs(A[i][0] + A[i][1] + A[i][2] - RADAU5_C[i]));
    for (int j = 0; j < 3; j++) {
      e_sim = fmax(e_sim, fabs(ATL[i][j] - RADAU5_T[i][j]));
      e_inv = fmax(e_inv, fabs(TTi[i][j] - (i == j)));
      e_vdm = fmax(e_vdm, fabs(VVi[i][j] - (i == j)));
    }
  }
  CHECK_LE("rows of A sum to the nodes c", e_c, 1e-15);
  CHECK_LE("A T Lambda = T (T^-1 A^-1 T = Lambda)", e_sim, 1e-15);
  CHECK_LE("T T^-1 = I", e_inv, 4e-15);
  CHECK_LE("V V^-1 = I (collocation polynomial coefficients)", e_vdm, 1e-14);
  /* the error-estimate weights of HW II (8.19), γ e_i = (-13 - 7√6, -13 + 7√6, -1)/3,
   * are minus the first row of V^-1 (the slope u'(t0) of the collocation polynomial) */
  const double ge[3] = {(-13.0 - 7.0 * r6) / 3.0, (-13.0 + 7.0 * r6) / 3.0, -1.0 / 3.0};
  double e_w = 0.0;
  for (int j = 0; j < 3; j++) e_w = fmax(e_w, fabs(ge[j] + RADAU5_VINV[0][j]));
  CHECK_LE("gamma e_i = -(V^-1)_1j", e_w, 1e-14);
}

/* ======================================================================== */
/* Fixed-step order                                                         */
/* ======================================================================== */
/* y' = -2 t y², y(0) = 1: y(t) = 1/(1 + t²) (nonlinear, non-autonomous, so
 * the stage times t0 + c_i h enter).  Huge tolerances accept every step,
 * h0 = hmax = 2/N fixes h, a fresh Jacobian every step and a tiny Newton
 * tolerance solve the collocation system to roundoff.  Radau IIA with s = 3
 * has order 2s - 1 = 5 at the step ends (HW II §IV.5), so halving h divides
 * the end error by 32; 0.3 covers the pre-asymptotic range (measured in the
 * notes). */
static int decay2_f(double t, const double *y, double *f, void *u) {
  (void)u;
  f[0] = -2.0 * t * y[0] * y[0];
  return 0;
}
static int decay2_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)ld, (void)u;
  J[0] = -4.0 * t * y[0];
  return 0;
}
TEST(fixed_step_order_nonlinear) {
  cosrod_ode_problem p = {0};
  p.n = 1;
  p.f = decay2_f;
  p.jac = decay2_jac;
  const double y0[1] = {1.0}, T = 2.0, exact = 1.0 / (1.0 + T * T);
  const int steps[3] = {16, 32, 64};
  double err[3];
  for (int k = 0; k < 3; k++) {
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 1e3;
    o.h0 = o.hmax = T / steps[k];
    o.newton_tol = 1e-13;
    o.jac_reuse = -1.0;
    run_out r = run(&p, &o, 0.0, y0, T, NULL);
    char what[120];
    snprintf(what, sizeof what, "N = %d: status OK", steps[k]);
    CHECK(what, r.st == COSROD_OK);
    snprintf(what, sizeof what, "N = %d: exactly N accepted steps, no rejection", steps[k]);
    CHECK(what, r.s.naccept == steps[k] && r.s.nsteps == steps[k]);
    NOTE("N = %d: naccept %ld nsteps %ld nconvfail %ld nnewton %ld", steps[k], r.s.naccept, r.s.nsteps,
         r.s.nconvfail, r.s.nnewton);
    err[k] = fabs(r.y[0] - exact);
  }
  const double p1 = log2(err[0] / err[1]), p2 = log2(err[1] / err[2]);
  NOTE("end errors %.3e %.3e %.3e (N = 16, 32, 64): observed orders %.3f %.3f", err[0], err[1], err[2], p1,
       p2);
  CHECK_NEAR("observed order, N = 16 -> 32", p1, 5.0, 0.3);
  CHECK_NEAR("observed order, N = 32 -> 64", p2, 5.0, 0.3);
}

/* ======================================================================== */
/* Newton failures counted apart from error-test rejections                 */
/* ======================================================================== */
/* Van der Pol (ε = 1e-6) at rtol 1e-4 abandons Newton iterations in the
 * fast transitions.  Every attempt that reached Newton is accepted, rejected
 * by the error test, or abandoned by Newton; the step history sees every
 * attempt, so rejected attempts = nreject + nconvfail (integrate.h).  The
 * original codes left error rejections before the first accepted step out
 * of nreject; the rewritten control counts every one (a code detail, not a
 * property of the method), so the history's count before the first accept
 * is only reported.  Hence nreject keeps its one meaning (error-test
 * rejections) and nconvfail the other (convergence). */
typedef struct attempt_log {
  long rejected, rejected_before_first;
  long accepted;
} attempt_log;
static int log_attempt(double t, double h, int accepted, void *u) {
  (void)t, (void)h;
  attempt_log *a = u;
  if (accepted)
    a->accepted++;
  else {
    a->rejected++;
    if (a->accepted == 0) a->rejected_before_first++;
  }
  return 0;
}
TEST(newton_failures_counted_separately) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-4;
  attempt_log a = {0, 0, 0};
  cosrod_output_spec out = {0};
  out.step_history = log_attempt;
  out.user = &a;
  run_out r = run(&p, &o, P->t0, P->y0, P->t_end, &out);
  CHECK("status OK", r.st == COSROD_OK);
  NOTE(
      "nsteps %ld naccept %ld nreject %ld nconvfail %ld; history: %ld rejected (%ld before the first accept)",
      r.s.nsteps, r.s.naccept, r.s.nreject, r.s.nconvfail, a.rejected, a.rejected_before_first);
  CHECK("Newton failures occur and are counted", r.s.nconvfail > 0);
  CHECK("history: accepted attempts = naccept", a.accepted == r.s.naccept);
  CHECK("rejected attempts = nreject + nconvfail", a.rejected == r.s.nreject + r.s.nconvfail);
  CHECK("every attempt reached Newton: nsteps = accepted + rejected attempts",
        r.s.nsteps == a.accepted + a.rejected);
}

/* ======================================================================== */
/* Hardening: non-finite values and messages                                */
/* ======================================================================== */

/* f(t0) = NaN: reported as a non-finite value, not as a callback failure. */
static int nan_at_start_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = y[0] > 0.5 ? NAN : -y[0];
  return 0;
}
TEST(nan_rhs_at_t0_is_nonfinite) {
  cosrod_ode_problem p = {0};
  p.n = 1;
  p.f = nan_at_start_f;
  const double y0[1] = {1.0};
  cosrod_integrate_options o = cosrod_integrate_default_options();
  run_out r = run(&p, &o, 0.0, y0, 1.0, NULL);
  NOTE("status %s: %s", cosrod_status_name(r.st), r.msg);
  CHECK("ERR_NONFINITE", r.st == COSROD_ERR_NONFINITE);
  CHECK("message set", r.msg[0] != '\0');
  CHECK("no step attempted", r.s.nsteps == 0);
}

/* A Jacobian with a NaN entry (finite f): ERR_NONFINITE at the first
 * Jacobian, with a message naming the Jacobian, before any decomposition
 * (previously: five "singular" decompositions and ERR_SINGULAR). */
static int lin_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -y[0] + y[1];
  f[1] = -2.0 * y[1];
  return 0;
}
static int nan_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)u;
  J[0] = -1.0;
  J[(size_t)ld] = 1.0;
  J[1 + (size_t)ld] = NAN;
  return 0;
}
TEST(nan_jacobian_is_nonfinite) {
  cosrod_ode_problem p = {0};
  p.n = 2;
  p.f = lin_f;
  p.jac = nan_jac;
  const double y0[2] = {1.0, 1.0};
  cosrod_integrate_options o = cosrod_integrate_default_options();
  run_out r = run(&p, &o, 0.0, y0, 1.0, NULL);
  NOTE("status %s: %s", cosrod_status_name(r.st), r.msg);
  CHECK("ERR_NONFINITE", r.st == COSROD_ERR_NONFINITE);
  CHECK("message names the Jacobian", strstr(r.msg, "Jacobian") != NULL);
  CHECK("one Jacobian, no decomposition", r.s.njev == 1 && r.s.ndecomp == 0);
  CHECK_NEAR("state kept", r.y[0], 1.0, 0.0);
}

/* Every failure path leaves a non-empty message and the documented status. */
static int fatal_late_f(double t, const double *y, double *f, void *u) {
  (void)u;
  f[0] = -y[0];
  return t > 0.3 ? -7 : 0;
}
static int recoverable_start_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -y[0];
  return t == 0.0 ? 3 : 0;
}
static int fatal_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)J, (void)ld, (void)u;
  return -2;
}
static int decay_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -y[0];
  return 0;
}
static int failing_mass(double *M, int ld, void *u) {
  (void)M, (void)ld, (void)u;
  return -1;
}
static int zero_mass(double *M, int ld, void *u) {
  (void)M, (void)ld, (void)u;
  return 0;
}
static int zero_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)y, (void)u;
  f[0] = 0.0;
  return 0;
}
TEST(every_failure_has_a_message) {
  typedef struct failure_case {
    const char *what;
    cosrod_ode_rhs f;
    cosrod_ode_jac jac;
    cosrod_ode_mass mass;
    double rtol;
    long max_steps;
    cosrod_status want;
  } failure_case;
  const failure_case cases[] = {
      {"NaN f at t0", nan_at_start_f, NULL, NULL, 1e-6, 0, COSROD_ERR_NONFINITE},
      {"recoverable f failure at t0", recoverable_start_f, NULL, NULL, 1e-6, 0, COSROD_ERR_CALLBACK},
      {"fatal f in the Newton iteration", fatal_late_f, NULL, NULL, 1e-6, 0, COSROD_ERR_CALLBACK},
      {"fatal Jacobian callback", decay_f, fatal_jac, NULL, 1e-6, 0, COSROD_ERR_CALLBACK},
      {"mass-matrix callback failure", decay_f, NULL, failing_mass, 1e-6, 0, COSROD_ERR_CALLBACK},
      {"singular iteration matrix", zero_f, NULL, zero_mass, 1e-6, 0, COSROD_ERR_SINGULAR},
      {"rtol below 10 uround", decay_f, NULL, NULL, 1e-17, 0, COSROD_ERR_INVALID},
      /* the limit must lie below the attempts the run needs: the rewritten
       * control reaches t = 1 at rtol 1e-10 in exactly 5, so 5 tested nothing */
      {"max_steps", decay_f, NULL, NULL, 1e-10, 2, COSROD_ERR_MAX_STEPS},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const failure_case *c = &cases[k];
    cosrod_ode_problem p = {0};
    p.n = 1;
    p.f = c->f;
    p.jac = c->jac;
    p.mass = c->mass;
    const double y0[1] = {1.0};
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = c->rtol;
    if (c->max_steps) o.max_steps = c->max_steps;
    run_out r = run(&p, &o, 0.0, y0, 1.0, NULL);
    NOTE("%s: %s after %ld attempts: %s", c->what, cosrod_status_name(r.st), r.s.nsteps, r.msg);
    char what[160];
    snprintf(what, sizeof what, "%s: status %s", c->what, cosrod_status_name(c->want));
    CHECK(what, r.st == c->want);
    snprintf(what, sizeof what, "%s: message set", c->what);
    CHECK(what, r.msg[0] != '\0');
  }
}

/* ======================================================================== */
/* Banded mass matrix with bandwidths beyond the order                      */
/* ======================================================================== */
/* M y' = -y with M = diag(2, 4) given as a band matrix with mass_ml =
 * mass_mu = 3 > n - 1 (legal: the callback storage has ldm = 7 rows and
 * entry (i, j) at row mass_mu + i - j); banded Jacobian J = -I.  Exact
 * y_i(t) = y_i(0) exp(-t/m_i); the end values at t = 1 must be within the
 * usual few tol (bound 10 tol; a mass matrix read with the wrong offset
 * gives O(1) errors or a singular matrix). */
static int mdecay_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -y[0];
  f[1] = -y[1];
  return 0;
}
static int mdecay_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)u;
  cosrod_jac_set(J, ld, 1, 0, 0, 0, -1.0);
  cosrod_jac_set(J, ld, 1, 0, 1, 1, -1.0);
  return 0;
}
static int wide_band_mass(double *M, int ld, void *u) {
  (void)u;
  cosrod_jac_set(M, ld, 1, 3, 0, 0, 2.0);
  cosrod_jac_set(M, ld, 1, 3, 1, 1, 4.0);
  return 0;
}
TEST(banded_mass_wider_than_matrix) {
  cosrod_ode_problem p = {0};
  p.n = 2;
  p.f = mdecay_f;
  p.jac = mdecay_jac;
  p.jac_banded = 1;
  p.jac_ml = p.jac_mu = 0;
  p.mass = wide_band_mass;
  p.mass_banded = 1;
  p.mass_ml = p.mass_mu = 3;
  const double y0[2] = {1.0, 1.0};
  cosrod_integrate_options o = cosrod_integrate_default_options();
  run_out r = run(&p, &o, 0.0, y0, 1.0, NULL);
  if (!CHECK("status OK", r.st == COSROD_OK)) NOTE("%s: %s", cosrod_status_name(r.st), r.msg);
  const double ex[2] = {exp(-0.5), exp(-0.25)};
  const double e = itest_scaled_error(2, r.y, ex, 1e-6, 1e-6);
  NOTE("end values %.12f %.12f, exact %.12f %.12f: %.3g tol", r.y[0], r.y[1], ex[0], ex[1], e);
  CHECK_LE("end error (tol units)", e, 10.0);
}

static const th_case cases[] = {
    TH_CASE(coefficients_match_butcher_table),   TH_CASE(fixed_step_order_nonlinear),
    TH_CASE(newton_failures_counted_separately), TH_CASE(nan_rhs_at_t0_is_nonfinite),
    TH_CASE(nan_jacobian_is_nonfinite),          TH_CASE(every_failure_has_a_message),
    TH_CASE(banded_mass_wider_than_matrix),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
