// SPDX-License-Identifier: Apache-2.0
/* Hardening of the integrator API, found by driving it directly:
 * one TEST per item, each failed before the fix.
 *   - tolerances whose error weight atol_i + rtol_i |y0_i| vanishes are
 *     refused (create: rtol_i = atol_i = 0; init: atol_i = 0 with y0_i = 0);
 *   - a NaN right-hand side at t0 is ERR_NONFINITE after a few f calls;
 *   - a non-finite Jacobian is reported as such;
 *   - every argument failure of create / init / evolve / dense sets a message;
 *   - ida / cvode count attempted steps in nsteps;
 *   - convergence failures are counted in nconvfail apart from error-test
 *     rejections.
 * radau5 is left out of the method-level items (NaN at t0, non-finite J): its
 * rewrite hardens it in tests/integrate/test_radau5.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "itest.h"

#define FOR_EACH_METHOD(T, M)                                      \
  for (size_t mi_ = 0; mi_ < itest_method_count; mi_++)            \
    for (const itest_method *M = &itest_methods[mi_]; M; M = NULL) \
      for (const cosrod_step_type *T = cosrod_step_type_by_name(M->name); T; T = NULL)

/* y_i' = -y_i (n = 2), analytic Jacobian. */
static int decay_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -y[0];
  f[1] = -y[1];
  return 0;
}
static int decay_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)u;
  J[0] = -1.0;
  J[1 + ld] = -1.0;
  return 0;
}
static cosrod_ode_problem decay_problem(void) {
  cosrod_ode_problem p = {0};
  p.n = 2;
  p.f = decay_f;
  p.jac = decay_jac;
  return p;
}

TEST(hardening_zero_error_weight_refused) {
  cosrod_ode_problem p = decay_problem();
  char what[200];
  FOR_EACH_METHOD(T, M) {
    /* create: rtol = atol = 0 (before the fix: "h = 0" in dopri5, ERR_SINGULAR after ~2000 f in rodas) */
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 0.0;
    cosrod_status st = COSROD_OK;
    cosrod_integrator *it = cosrod_integrator_create(T, &p, &o, &st);
    NOTE("%s, rtol = atol = 0: %s", T->name, cosrod_last_error());
    snprintf(what, sizeof what, "%s: rtol = atol = 0 refused at create (ERR_INVALID)", T->name);
    CHECK(what, it == NULL && st == COSROD_ERR_INVALID);
    snprintf(what, sizeof what, "%s: ... with a message naming the tolerances", T->name);
    CHECK(what, strstr(cosrod_last_error(), "atol") != NULL);
    cosrod_integrator_free(it);
    /* per component: only component 1 has both 0 */
    const double atol_vec[2] = {1e-6, 0.0};
    o.rtol = 0.0;
    o.atol_vec = atol_vec;
    it = cosrod_integrator_create(T, &p, &o, &st);
    snprintf(what, sizeof what, "%s: atol_vec[1] = rtol = 0 refused, message names component 1", T->name);
    CHECK(what, it == NULL && st == COSROD_ERR_INVALID &&
                    strstr(cosrod_last_error(), "component 1") != NULL);
    cosrod_integrator_free(it);
    /* init: pure relative tolerance with y0_1 = 0 has a zero weight; y0_1 != 0 is fine */
    o = cosrod_integrate_default_options();
    o.atol = 0.0;
    o.rtol = 1e-6;
    it = cosrod_integrator_create(T, &p, &o, &st);
    snprintf(what, sizeof what, "%s: atol = 0, rtol > 0 accepted at create", T->name);
    CHECK(what, it != NULL && st == COSROD_OK && cosrod_last_error()[0] == '\0');
    if (!it) continue;
    const double y0_zero[2] = {1.0, 0.0}, y0_ok[2] = {1.0, 2.0};
    st = cosrod_integrator_init(it, 0.0, y0_zero, NULL);
    snprintf(what, sizeof what, "%s: atol = 0 with y0[1] = 0 refused at init, message names y0[1]", T->name);
    CHECK(what, st == COSROD_ERR_INVALID && strstr(cosrod_integrator_message(it), "y0[1]") != NULL);
    double y[2];
    st = cosrod_integrate(it, 0.0, y0_ok, 1.0, NULL, y);
    snprintf(what, sizeof what, "%s: atol = 0 with y0 != 0 integrates (y(1) = y0 e^-1 to 1e-4 relative)",
             T->name);
    CHECK(what, st == COSROD_OK && fabs(y[1] - 2.0 * exp(-1.0)) < 1e-4 * 2.0 * exp(-1.0));
    cosrod_integrator_free(it);
  }
}

/* f is NaN everywhere: the first evaluation at t0 already is. */
static int nan_everywhere(double t, const double *y, double *f, void *u) {
  (void)t, (void)y, (void)u;
  f[0] = f[1] = NAN;
  return 0;
}
TEST(hardening_nan_rhs_at_t0) {
  cosrod_ode_problem p = decay_problem();
  p.f = nan_everywhere;
  const double y0[2] = {1.0, 1.0};
  char what[200];
  FOR_EACH_METHOD(T, M) {
    cosrod_integrator *it = cosrod_integrator_create(T, &p, NULL, NULL);
    cosrod_status st = cosrod_integrate(it, 0.0, y0, 1.0, NULL, NULL);
    const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
    NOTE("%s: %s after %ld f calls: %s", T->name, cosrod_status_name(st), s->nfev,
         cosrod_integrator_message(it));
    snprintf(what, sizeof what, "%s: ERR_NONFINITE", T->name);
    CHECK(what, st == COSROD_ERR_NONFINITE);
    /* rodas used to halve h and call f at t0 again ~1000 times */
    snprintf(what, sizeof what, "%s: at most 5 f calls", T->name);
    CHECK_LE(what, (double)s->nfev, 5.0);
    snprintf(what, sizeof what, "%s: message names the right-hand side, failure at t0", T->name);
    CHECK(what, strstr(cosrod_integrator_message(it), "right-hand side") != NULL &&
                    cosrod_integrator_fail_time(it) == 0.0);
    cosrod_integrator_free(it);
  }
}

/* Finite f, NaN in the Jacobian. */
static int nan_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)u;
  J[0] = -1.0;
  J[1 + ld] = NAN;
  return 0;
}
TEST(hardening_nonfinite_jacobian) {
  cosrod_ode_problem p = decay_problem();
  p.jac = nan_jac;
  const double y0[2] = {1.0, 1.0};
  char what[200];
  int ran = 0;
  FOR_EACH_METHOD(T, M) {
    if (!(T->flags & COSROD_STEP_IMPLICIT)) continue;
    ran++;
    cosrod_integrator *it = cosrod_integrator_create(T, &p, NULL, NULL);
    cosrod_status st = cosrod_integrate(it, 0.0, y0, 1.0, NULL, NULL);
    const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
    NOTE("%s: %s after %ld Jacobians: %s", T->name, cosrod_status_name(st), s->njev,
         cosrod_integrator_message(it));
    /* rodas / seulex used to report "singular 5 times in a row" (ERR_SINGULAR) */
    snprintf(what, sizeof what, "%s: ERR_NONFINITE with a message naming the Jacobian", T->name);
    CHECK(what, st == COSROD_ERR_NONFINITE && strstr(cosrod_integrator_message(it), "Jacobian") != NULL);
    snprintf(what, sizeof what, "%s: stops at the first Jacobian", T->name);
    CHECK(what, s->njev == 1);
    cosrod_integrator_free(it);
  }
  CHECK("at least one implicit method", ran > 0);
}

TEST(hardening_failures_have_messages) {
  const cosrod_step_type *T = cosrod_step_type_by_name("dopri5");
  const cosrod_step_type *S = cosrod_step_type_by_name("seulex");
  CHECK("dopri5 and seulex built", T && S);
  if (!T || !S) return;
  cosrod_status st = COSROD_OK;
  cosrod_ode_problem p = decay_problem();
  cosrod_integrate_options o = cosrod_integrate_default_options();
  char what[200];
  /* create: each refusal leaves a message */
  struct {
    const char *what;
    cosrod_ode_problem p;
    cosrod_integrate_options o;
    const cosrod_step_type *T;
  } bad[6];
  for (int k = 0; k < 6; k++) {
    bad[k].p = p;
    bad[k].o = o;
    bad[k].T = T;
  }
  bad[0].what = "n = 0";
  bad[0].p.n = 0;
  bad[1].what = "no f";
  bad[1].p.f = NULL;
  bad[2].what = "negative rtol";
  bad[2].o.rtol = -1.0;
  bad[3].what = "h0 = NaN";
  bad[3].o.h0 = NAN;
  bad[4].what = "m1 = n";
  bad[4].p.m1 = 2;
  bad[5].what = "seulex max_columns = 2 (method's own check)";
  bad[5].o.max_columns = 2;
  bad[5].T = S;
  for (int k = 0; k < 6; k++) {
    cosrod_integrator *it = cosrod_integrator_create(bad[k].T, &bad[k].p, &bad[k].o, &st);
    NOTE("create with %s: %s: \"%s\"", bad[k].what, cosrod_status_name(st),
         cosrod_last_error());
    snprintf(what, sizeof what, "create with %s: NULL, ERR_INVALID and a message", bad[k].what);
    CHECK(what, it == NULL && st == COSROD_ERR_INVALID && cosrod_last_error()[0] != '\0');
    cosrod_integrator_free(it);
  }
  /* init and evolve */
  cosrod_integrator *it = cosrod_integrator_create(T, &p, NULL, &st);
  CHECK("valid create", it != NULL && cosrod_last_error()[0] == '\0');
  if (!it) return;
  st = cosrod_integrator_evolve(it, 1.0, NULL);
  NOTE("evolve before init: %s", cosrod_integrator_message(it));
  CHECK("evolve before init: ERR_INVALID with a message",
        st == COSROD_ERR_INVALID && strstr(cosrod_integrator_message(it), "init") != NULL);
  const double ynan[2] = {1.0, NAN}, y0[2] = {1.0, 1.0};
  st = cosrod_integrator_init(it, 0.0, ynan, NULL);
  NOTE("NaN in y0: %s", cosrod_integrator_message(it));
  CHECK("NaN in y0: ERR_NONFINITE with a message naming y0[1]",
        st == COSROD_ERR_NONFINITE && strstr(cosrod_integrator_message(it), "y0[1]") != NULL);
  st = cosrod_integrator_init(it, INFINITY, y0, NULL);
  CHECK("t0 = inf: ERR_INVALID with a message",
        st == COSROD_ERR_INVALID && strstr(cosrod_integrator_message(it), "t0") != NULL);
  st = cosrod_integrator_init(it, 0.0, y0, NULL);
  CHECK("valid init", st == COSROD_OK && cosrod_integrator_message(it)[0] == '\0');
  st = cosrod_integrator_evolve(it, INFINITY, NULL);
  NOTE("t_end = inf: %s", cosrod_integrator_message(it));
  CHECK("t_end = inf: ERR_INVALID with a message naming t_end",
        st == COSROD_ERR_INVALID && strstr(cosrod_integrator_message(it), "t_end") != NULL);
  st = cosrod_integrator_evolve(it, 0.5, NULL);
  CHECK("then a valid evolve", st == COSROD_OK);
  double out[2];
  st = cosrod_integrator_dense(it, 0.75, NULL, 2, out);
  CHECK("dense output outside the last step: ERR_INVALID with a message",
        st == COSROD_ERR_INVALID && strstr(cosrod_integrator_message(it), "outside") != NULL);
  cosrod_integrator_free(it);
}

/* ida / cvode: nsteps = attempted steps = naccept + nreject (it used to be
 * naccept).  Van der Pol at rtol 1e-6 has error-test failures. */
TEST(hardening_sundials_nsteps_counts_attempts) {
  const itest_problem *P = itest_problem_by_name("vdp");
  const char *names[2] = {"ida", "cvode"};
  int ran = 0;
  char what[200];
  for (int m = 0; m < 2; m++) {
    const cosrod_step_type *T = cosrod_step_type_by_name(names[m]);
    if (!T) continue;
    ran++;
    cosrod_integrate_stats s;
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 1e-6;
    cosrod_status st = itest_run(T, P, &o, NULL, NULL, &s, NULL, 0);
    NOTE("%s: nsteps %ld, naccept %ld, nreject %ld, nconvfail %ld", T->name, s.nsteps, s.naccept, s.nreject,
         s.nconvfail);
    snprintf(what, sizeof what, "%s: status OK with rejected steps", T->name);
    CHECK(what, st == COSROD_OK && s.nreject > 0);
    snprintf(what, sizeof what, "%s: nsteps = naccept + nreject + nconvfail", T->name);
    CHECK(what, s.nsteps == s.naccept + s.nreject + s.nconvfail);
  }
  CHECK("ida and cvode both ran (SUNDIALS is a required dependency of the test suite)", ran == 2);
}

/* y' = y on [0, 10]: for rodas the matrix 1/(h γ) - 1 is exactly 0 at h = 4
 * (γ = 1/4), so the first attempt with h0 = 4 is a singular-matrix retry. */
static int grow_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = y[0];
  return 0;
}
static int grow_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)u, (void)ld;
  J[0] = 1.0;
  return 0;
}
TEST(hardening_convergence_failures_counted) {
  /* seulex on Van der Pol rtol 1e-4: besides accepted and error-test-rejected attempts there are
     unstable / diverging extrapolations (step halved), counted in nconvfail */
  const cosrod_step_type *S = cosrod_step_type_by_name("seulex");
  const cosrod_step_type *R = cosrod_step_type_by_name("rodas");
  CHECK("seulex and rodas built", S && R);
  if (!S || !R) return;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-4;
  cosrod_integrate_stats s;
  cosrod_status st = itest_run(S, itest_problem_by_name("vdp"), &o, NULL, NULL, &s, NULL, 0);
  NOTE("seulex vdp 1e-4: nsteps %ld = naccept %ld + nreject %ld + nconvfail %ld", s.nsteps, s.naccept,
       s.nreject, s.nconvfail);
  CHECK("seulex: status OK", st == COSROD_OK);
  CHECK("seulex: nsteps = naccept + nreject + nconvfail", s.nsteps == s.naccept + s.nreject + s.nconvfail);

  cosrod_ode_problem p = {0};
  p.n = 1;
  p.f = grow_f;
  p.jac = grow_jac;
  o = cosrod_integrate_default_options();
  o.h0 = 4.0;
  o.rtol = o.atol = 1e-6;
  cosrod_integrator *it = cosrod_integrator_create(R, &p, &o, NULL);
  const double y0 = 1.0;
  double y1;
  st = cosrod_integrate(it, 0.0, &y0, 10.0, NULL, &y1);
  const cosrod_integrate_stats *r = cosrod_integrator_stats(it);
  NOTE("rodas y' = y, h0 = 4: nsteps %ld, nconvfail %ld, y(10) = %.10g", r->nsteps, r->nconvfail, y1);
  CHECK("rodas: status OK, y(10) = e^10 to 1e-4 relative",
        st == COSROD_OK && fabs(y1 - exp(10.0)) < 1e-4 * exp(10.0));
  CHECK("rodas: the singular first attempt is a convergence failure", r->nconvfail == 1);
  cosrod_integrator_free(it);
}

static const th_case cases[] = {
    TH_CASE(hardening_zero_error_weight_refused),
    TH_CASE(hardening_nan_rhs_at_t0),
    TH_CASE(hardening_nonfinite_jacobian),
    TH_CASE(hardening_failures_have_messages),
    TH_CASE(hardening_sundials_nsteps_counts_attempts),
    TH_CASE(hardening_convergence_failures_counted),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
