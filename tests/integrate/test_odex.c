// SPDX-License-Identifier: Apache-2.0
/* ODEX tests (GBS extrapolation, src/integrate/odex.c): the order 2K of the
 * extrapolated value T_{K-1,K-1} with fixed steps, the order of the dense
 * output, accuracy against closed forms (harmonic oscillator) and published
 * references (Arenstorf period, Pleiades), the meaning of the counters, the
 * shared controller (extrap_control) against hand-computed values, and the
 * option checks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "integrate/extrap_control.h"
#include "itest.h"

static const cosrod_step_type *odex(void) { return cosrod_step_type_by_name("odex"); }

/* ---- harmonic oscillator y'' = -y: y = (cos t, -sin t) ------------------ */
static int osc_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = y[1];
  f[1] = -y[0];
  return 0;
}
static void osc_problem(cosrod_ode_problem *p) {
  memset(p, 0, sizeof *p);
  p->n = 2;
  p->f = osc_f;
}

/* Fixed steps h with K columns on the oscillator over [0, 4]: max error at
 * the step ends, and max error of the dense output at 3 interior points of
 * every step. */
typedef struct dense_err {
  cosrod_integrator *it;
  double h, t_prev, err_dense;
} dense_err;
static int fixed_out(double t, const double *y, void *u) {
  (void)y;
  dense_err *d = u;
  if (t > 0.0) {
    for (int q = 1; q <= 3; q++) {
      double tq = d->t_prev + 0.25 * q * (t - d->t_prev), yd[2];
      if (cosrod_integrator_dense(d->it, tq, NULL, 2, yd) != COSROD_OK) d->err_dense = INFINITY;
      d->err_dense = fmax(d->err_dense, fmax(fabs(yd[0] - cos(tq)), fabs(yd[1] + sin(tq))));
    }
  }
  d->t_prev = t;
  return 0;
}
static void fixed_run(int K, double h, double *err_end, double *err_dense, cosrod_integrate_stats *s) {
  cosrod_ode_problem p;
  osc_problem(&p);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.fixed_step = 1;
  o.h0 = h;
  o.max_columns = K;
  cosrod_integrator *it = cosrod_integrator_create(odex(), &p, &o, NULL);
  dense_err d = {it, h, 0.0, 0.0};
  cosrod_output_spec out = {0};
  out.every_step = 1;
  out.include_t0 = 1;
  out.output = fixed_out;
  out.user = &d;
  const double y0[2] = {1.0, 0.0};
  double y[2];
  cosrod_status st = cosrod_integrate(it, 0.0, y0, 4.0, &out, y);
  *err_end = st == COSROD_OK ? fmax(fabs(y[0] - cos(4.0)), fabs(y[1] + sin(4.0))) : INFINITY;
  *err_dense = d.err_dense;
  if (s) *s = *cosrod_integrator_stats(it);
  cosrod_integrator_free(it);
}

/* T_{K-1,K-1} of the GBS method without smoothing has order 2K (HNW I
 * Theorem 9.2 with Aitken–Neville in h^2): the error ratio between h = 0.5
 * and 0.25 is 2^(2K), tolerance 0.35 as the conformance suite's
 * fixed-step test.  The dense output (HNW I §II.9, degree 2K + 3 through
 * 2K extrapolated midpoint derivatives) has local error O(h^(2K)) and so,
 * like the steps, global order 2K; checked to 0.5 (pre-asymptotic). */
TEST(odex_fixed_step_order) {
  char what[200];
  for (int K = 1; K <= 4; K++) {
    double e[2], d[2];
    for (int r = 0; r < 2; r++) fixed_run(K, 0.5 / (1 << r), &e[r], &d[r], NULL);
    double p = log2(e[0] / e[1]), pd = log2(d[0] / d[1]);
    NOTE("K = %d: step-end errors %.3e %.3e (order %.2f), dense %.3e %.3e (order %.2f)", K, e[0], e[1], p,
         d[0], d[1], pd);
    snprintf(what, sizeof what, "K = %d columns: observed order of T_{K-1,K-1}", K);
    CHECK_NEAR(what, p, 2.0 * K, 0.35);
    snprintf(what, sizeof what, "K = %d columns: observed order of the dense output", K);
    CHECK_NEAR(what, pd, 2.0 * K, 0.5);
  }
}

/* Counters: with fixed steps and K = 2 columns (n = 2, 6) a step costs
 * 1 + 5 evaluations for the columns and 1 for f(y1) (the next step's f(y0)),
 * plus f(y0) once at the start: nfev = 1 + 7 N; every step accepted. */
TEST(odex_counters) {
  double e, d;
  cosrod_integrate_stats s;
  fixed_run(2, 0.25, &e, &d, &s);
  NOTE("nfev %ld, nsteps %ld, naccept %ld, nreject %ld", s.nfev, s.nsteps, s.naccept, s.nreject);
  CHECK("16 steps of 0.25 to t = 4", s.naccept == 16 && s.nsteps == 16 && s.nreject == 0);
  CHECK("nfev = 1 + 7 per step", s.nfev == 1 + 7 * 16);
  CHECK("explicit: no Jacobians, decompositions or Newton iterations",
        s.njev == 0 && s.ndecomp == 0 && s.nsolve == 0 && s.nnewton == 0 && s.nconvfail == 0);
}

/* Harmonic oscillator over 10 periods with error control: the global error
 * of a tolerance-controlled method grows linearly with time for this
 * problem (phase error), bound 100 tol at rtol = atol = 1e-10 (ten periods,
 * a few tol per period); dense output at 1000 times within the same bound. */
typedef struct osc_acc {
  double max_err;
  long count;
} osc_acc;
static int osc_out(double t, const double *y, void *u) {
  osc_acc *a = u;
  a->max_err = fmax(a->max_err, fmax(fabs(y[0] - cos(t)), fabs(y[1] + sin(t))));
  a->count++;
  return 0;
}
TEST(odex_harmonic_oscillator) {
  cosrod_ode_problem p;
  osc_problem(&p);
  const double T = 20.0 * 3.14159265358979323846, tol = 1e-10;
  enum { NOUT = 1000 };
  double tout[NOUT];
  for (int i = 0; i < NOUT; i++) tout[i] = T * (i + 0.5) / NOUT;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  cosrod_integrator *it = cosrod_integrator_create(odex(), &p, &o, NULL);
  osc_acc a = {0.0, 0};
  cosrod_output_spec out = {0};
  out.t_out = tout;
  out.n_out = NOUT;
  out.output = osc_out;
  out.user = &a;
  const double y0[2] = {1.0, 0.0};
  double y[2];
  cosrod_status st = cosrod_integrate(it, 0.0, y0, T, &out, y);
  const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
  double e = fmax(fabs(y[0] - 1.0), fabs(y[1]));
  NOTE("10 periods at tol 1e-10: end error %.3e, dense max error %.3e at %ld points, nfev %ld, %ld steps "
       "(%ld rejected)",
       e, a.max_err, a.count, s->nfev, s->nsteps, s->nreject);
  CHECK("status OK", st == COSROD_OK);
  CHECK_LE("end error <= 100 tol", e, 100.0 * tol);
  CHECK("every output time reported", a.count == NOUT);
  CHECK_LE("dense output error <= 100 tol", a.max_err, 100.0 * tol);
  cosrod_integrator_free(it);
}

/* Arenstorf orbit (HNW I §II.0): y(T) = y(0) after one period T; Pleiades
 * (HNW I §II.10) against the Test Set reference at t = 3.  No growth bound is derived for these
 * orbits, so the check is tolerance proportionality (HNW I §II.4): odex propagates T_kk and
 * estimates with T_k,k-1 (local extrapolation), alpha = 1 (itest.c); from rtol = atol = 1e-8 to
 * 1e-10 the observed exponent lies within 1 +- 1/2, i.e. the constant of e = C tol may change by
 * at most one decade over these two decades (as in test_conformance.c, 1/4 per four decades). */
TEST(odex_arenstorf_pleiades) {
  const char *names[2] = {"arenstorf", "pleiades"};
  char what[200];
  const itest_method *M = itest_method_by_name("odex");
  for (int k = 0; k < 2; k++) {
    const itest_problem *P = itest_problem_by_name(names[k]);
    double e[2];
    for (int j = 0; j < 2; j++) {
      cosrod_integrate_options o = cosrod_integrate_default_options();
      o.rtol = o.atol = j == 0 ? 1e-8 : 1e-10;
      double y[28];
      cosrod_integrate_stats s;
      cosrod_status st = itest_run(odex(), P, &o, NULL, y, &s, NULL, 0);
      e[j] = itest_max_error(P->n, y, P->yref);
      NOTE("%s at %g: max end error %.3e, nfev %ld, steps %ld (%ld rejected)", P->name, o.rtol, e[j], s.nfev,
           s.nsteps, s.nreject);
      snprintf(what, sizeof what, "%s at %g: status OK", P->name, o.rtol);
      CHECK(what, st == COSROD_OK);
    }
    const double alpha = log(e[1] / e[0]) / log(1e-2);
    NOTE("%s: observed exponent %.3f", P->name, alpha);
    snprintf(what, sizeof what, "%s: exponent >= alpha_lo - 1/2", P->name);
    CHECK_LE(what, M->alpha_lo - 0.5, alpha);
    snprintf(what, sizeof what, "%s: exponent <= alpha_hi + 1/2", P->name);
    CHECK_LE(what, alpha, M->alpha_hi + 0.5);
  }
}

/* The shared controller against hand-computed values (extrap_control.h). */
TEST(extrap_control_formulas) {
  const int nseq[6] = {2, 6, 10, 14, 18, 22};
  const double work[6] = {2, 7, 16, 29, 46, 67};
  cosrod_extrap_ctrl c;
  cosrod_extrap_ctrl_init(&c, 6, 2, nseq, work);
  /* H_j / H = (0.38 / err)^(1/(2j+1)) */
  CHECK_NEAR("column 2, err = 0.38: factor 1", cosrod_extrap_step_factor(&c, 2, 0.38), 1.0, 1e-15);
  CHECK_NEAR("column 2, err = 0.38 * 2^-5: factor 2", cosrod_extrap_step_factor(&c, 2, 0.38 / 32.0), 2.0,
             1e-14);
  CHECK_NEAR("err = 0: fac_max", cosrod_extrap_step_factor(&c, 3, 0.0), 4.0, 0.0);
  CHECK_NEAR("huge err: fac_min", cosrod_extrap_step_factor(&c, 1, 1e30), 0.02, 0.0);
  /* monitor with target k = 3: column 2 rejects iff err > ((n3 n4)/n0^2)^2 = (14*18/4)^2 = 3969 */
  CHECK("k = 3, column 1: continue regardless", cosrod_extrap_monitor(&c, 1, 3, 1e6) == COSROD_EXTRAP_CONTINUE);
  CHECK("column 2, err 0.9: accept", cosrod_extrap_monitor(&c, 2, 3, 0.9) == COSROD_EXTRAP_ACCEPT);
  CHECK("column 2, err 3968: continue", cosrod_extrap_monitor(&c, 2, 3, 3968.0) == COSROD_EXTRAP_CONTINUE);
  CHECK("column 2, err 3970: reject", cosrod_extrap_monitor(&c, 2, 3, 3970.0) == COSROD_EXTRAP_REJECT);
  /* column 3 rejects iff err > (n4/n0)^2 = 81 */
  CHECK("column 3, err 80: continue", cosrod_extrap_monitor(&c, 3, 3, 80.0) == COSROD_EXTRAP_CONTINUE);
  CHECK("column 3, err 82: reject", cosrod_extrap_monitor(&c, 3, 3, 82.0) == COSROD_EXTRAP_REJECT);
  CHECK("column 4, err 1.1: reject", cosrod_extrap_monitor(&c, 4, 3, 1.1) == COSROD_EXTRAP_REJECT);
  CHECK("NaN: reject", cosrod_extrap_monitor(&c, 2, 3, NAN) == COSROD_EXTRAP_REJECT);
  /* order choice: accepted at column 3 with W_2 = 16/1 and W_3 = 29/2 = 14.5 < 0.9 W_2 = 14.4? no:
   * keep 3; with W_3 = 29/2.5 = 11.6 < 14.4: one column more, H factor 2.5 * 46/29 */
  int k;
  double hf;
  c.hfac[2] = 1.0, c.hfac[3] = 2.0;
  cosrod_extrap_next(&c, 3, 3, 1, 0, &k, &hf);
  CHECK("W_3 = 14.5 vs 0.9 W_2 = 14.4: stay at column 3", k == 3);
  CHECK_NEAR("... with H_3", hf, 2.0, 0.0);
  c.hfac[3] = 2.5;
  cosrod_extrap_next(&c, 3, 3, 1, 0, &k, &hf);
  CHECK("W_3 = 11.6 < 14.4: column 4", k == 4);
  CHECK_NEAR("... with H_3 A_4 / A_3", hf, 2.5 * 46.0 / 29.0, 1e-15);
  cosrod_extrap_next(&c, 3, 3, 1, 1, &k, &hf);
  CHECK("after a rejection: no increase of k, H clamped to 1", k == 3 && hf == 1.0);
  /* W_2 = 16/1 < W_3 = 29/1.5: lower */
  c.hfac[3] = 1.5;
  cosrod_extrap_next(&c, 3, 3, 1, 0, &k, &hf);
  CHECK("W_2 < W_3: column 2", k == 2);
  CHECK_NEAR("... with H_2", hf, 1.0, 0.0);
}

/* Option checks: max_columns outside [5, 16] (with error control) and a
 * fixed step without h0 are refused with a message. */
TEST(odex_options) {
  cosrod_ode_problem p;
  osc_problem(&p);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  cosrod_status st;
  o.max_columns = 4;
  CHECK("max_columns = 4 refused", cosrod_integrator_create(odex(), &p, &o, &st) == NULL && st != COSROD_OK);
  CHECK("message names max_columns", strstr(cosrod_last_error(), "max_columns") != NULL);
  o.max_columns = 17;
  CHECK("max_columns = 17 refused", cosrod_integrator_create(odex(), &p, &o, &st) == NULL);
  o.max_columns = 0;
  o.fixed_step = 1;
  CHECK("fixed_step without h0 refused", cosrod_integrator_create(odex(), &p, &o, &st) == NULL);
  CHECK("message names h0", strstr(cosrod_last_error(), "h0") != NULL);
}

static const th_case cases[] = {
    TH_CASE(odex_fixed_step_order),  TH_CASE(odex_counters),          TH_CASE(odex_harmonic_oscillator),
    TH_CASE(odex_arenstorf_pleiades), TH_CASE(extrap_control_formulas), TH_CASE(odex_options),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
