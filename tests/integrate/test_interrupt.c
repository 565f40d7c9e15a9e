// SPDX-License-Identifier: Apache-2.0
/* Interrupt flag inside long steps: a banded linear system
 * y' = A y of n = 20000 (A diagonal-dominant, negative definite) whose
 * Jacobian callback sets the installed flag on its first call, as a signal
 * arriving during the Jacobian would.  radau5, rodas and seulex must stop in
 * forming / factoring the first iteration matrix (polls in lsys.c and the
 * LU) and report ERR_INTERRUPTED, not a
 * singular matrix or a failed step, with the state at t0; with the flag
 * clear the same problem integrates to t_end (reference: the exact
 * solution of the decoupled diagonal y_i' = -d_i y_i when the coupling is
 * zero, see the check). */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "harness.h"

enum { NY = 20000 };

static volatile sig_atomic_t g_flag;
static int g_set_in_jac; /* counting hook: set the flag on the first Jacobian call */
static long g_jac_calls;

static double diag(int i) { return 1.0 + (i % 5); }

static long g_rhs_calls, g_set_at_rhs; /* set the flag in the g_set_at_rhs-th f call (0: never) */

static int rhs(double t, const double *y, double *yd, void *user) {
  (void)t, (void)user;
  if (++g_rhs_calls == g_set_at_rhs) g_flag = 1;
  for (int i = 0; i < NY; ++i) yd[i] = -diag(i) * y[i];
  return 0;
}

/* LAPACK band storage, ml = mu = 1 (structural off-diagonals kept zero). */
static int jac(double t, const double *y, double *J, int ldj, void *user) {
  (void)t, (void)y, (void)user;
  if (g_jac_calls++ == 0 && g_set_in_jac) g_flag = 1;
  for (int j = 0; j < NY; ++j) J[(size_t)j * (size_t)ldj + 1] = -diag(j);
  return 0;
}

static void run(const char *method, int set_flag) {
  cosrod_ode_problem p = {0};
  p.n = NY;
  p.f = rhs;
  p.jac = jac;
  p.jac_banded = 1;
  p.jac_ml = p.jac_mu = 1;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-6;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &st);
  CHECK("integrator created", it != NULL);
  if (!it) return;
  double *y0 = malloc(NY * sizeof *y0), *y = malloc(NY * sizeof *y);
  for (int i = 0; i < NY; ++i) y0[i] = 1.0;
  g_flag = 0;
  g_jac_calls = 0;
  g_set_in_jac = set_flag;
  const volatile sig_atomic_t *prev = cosrod_interrupt_install(&g_flag);
  st = cosrod_integrate(it, 0.0, y0, 1.0, NULL, y);
  cosrod_interrupt_install(prev);
  char what[160];
  if (set_flag) {
    snprintf(what, sizeof what, "%s: flag set in the Jacobian -> ERR_INTERRUPTED (got %s)", method,
             cosrod_status_name(st));
    CHECK(what, st == COSROD_ERR_INTERRUPTED);
    const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
    snprintf(what, sizeof what, "%s: one Jacobian, no accepted step", method);
    CHECK(what, g_jac_calls == 1 && s->naccept == 0);
    CHECK_NEAR("state stays at t0", cosrod_integrator_t(it), 0.0, 0.0);
    const char *msg = cosrod_integrator_message(it);
    NOTE("%s: %s", method, msg);
    snprintf(what, sizeof what, "%s: message says the iteration matrix was interrupted", method);
    CHECK(what, strstr(msg, "interrupted in the iteration matrix") != NULL);
  } else {
    snprintf(what, sizeof what, "%s: flag clear -> OK", method);
    CHECK(what, st == COSROD_OK);
    /* y_i(1) = exp(-d_i); global error of a 1e-6 tolerance run: < 1e-4 */
    double err = 0.0;
    for (int i = 0; i < NY; ++i) err = fmax(err, fabs(y[i] - exp(-diag(i))));
    snprintf(what, sizeof what, "%s: max |y(1) - exp(-d)|", method);
    CHECK_LE(what, err, 1e-4);
  }
  free(y0), free(y);
  cosrod_integrator_free(it);
}

/* Explicit methods: a step is 6 (dopri5), 12 (dop853) or 7-150 (odex) evaluations; a flag
 * set in the 3rd evaluation (inside the first step) stops the run right after
 * it, not at the end of the step. */
static void run_explicit(const char *method) {
  cosrod_ode_problem p = {0};
  p.n = NY;
  p.f = rhs;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-6;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &st);
  CHECK("integrator created", it != NULL);
  if (!it) return;
  double *y0 = malloc(NY * sizeof *y0), *y = malloc(NY * sizeof *y);
  for (int i = 0; i < NY; ++i) y0[i] = 1.0;
  g_flag = 0;
  g_rhs_calls = 0;
  long f_at_init = 0;
  const volatile sig_atomic_t *prev = cosrod_interrupt_install(&g_flag);
  st = cosrod_integrator_init(it, 0.0, y0, NULL);
  f_at_init = g_rhs_calls;
  g_set_at_rhs = f_at_init + 3;
  if (st == COSROD_OK) st = cosrod_integrator_evolve(it, 1.0, NULL);
  cosrod_interrupt_install(prev);
  char what[160];
  NOTE("%s: %s after %ld f calls (flag set in call %ld): %s", method, cosrod_status_name(st), g_rhs_calls,
       g_set_at_rhs, cosrod_integrator_message(it));
  snprintf(what, sizeof what, "%s: ERR_INTERRUPTED", method);
  CHECK(what, st == COSROD_ERR_INTERRUPTED);
  snprintf(what, sizeof what, "%s: stopped right after the evaluation that saw the flag", method);
  CHECK_NEAR(what, (double)g_rhs_calls, (double)g_set_at_rhs, 0.0);
  snprintf(what, sizeof what, "%s: state stays at t0", method);
  CHECK_NEAR(what, cosrod_integrator_t(it), 0.0, 0.0);
  g_set_at_rhs = 0;
  free(y0);
  free(y);
  cosrod_integrator_free(it);
}

TEST(dopri5_interrupted_in_a_step) { run_explicit("dopri5"); }
TEST(dop853_interrupted_in_a_step) { run_explicit("dop853"); }
TEST(odex_interrupted_in_a_step) { run_explicit("odex"); }
TEST(radau5_interrupted_in_lu) { run("radau5", 1), run("radau5", 0); }
TEST(rodas_interrupted_in_lu) { run("rodas", 1), run("rodas", 0); }
TEST(seulex_interrupted_in_lu) { run("seulex", 1), run("seulex", 0); }

static const th_case cases[] = {
    TH_CASE(dopri5_interrupted_in_a_step),
    TH_CASE(dop853_interrupted_in_a_step),
    TH_CASE(odex_interrupted_in_a_step),
    TH_CASE(radau5_interrupted_in_lu),
    TH_CASE(rodas_interrupted_in_lu),
    TH_CASE(seulex_interrupted_in_lu),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
