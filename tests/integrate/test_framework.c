// SPDX-License-Identifier: Apache-2.0
/* The shared integrator machinery: registry, error norm, the standard
 * step-size factor, finite-difference Jacobians (which also validate the analytic
 * Jacobians of the test problems), the driver's output handling,
 * continuation and backward integration, and the statistics printers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "itest.h"

TEST(registry) {
  const cosrod_step_type *d = cosrod_step_type_by_name("dopri5");
  CHECK("dopri5 found by name", d != NULL && strcmp(d->name, "dopri5") == 0 && d == cosrod_step_dopri5);
  CHECK("dop853 found by name", cosrod_step_type_by_name("dop853") == cosrod_step_dop853);
  CHECK("unknown name gives NULL", cosrod_step_type_by_name("rk4-nonexistent") == NULL);
  CHECK("NULL name gives NULL", cosrod_step_type_by_name(NULL) == NULL);
  size_t n = cosrod_step_type_count();
  CHECK("at least dopri5 and dop853 built", n >= 2);
  int dup = 0, bad = 0;
  for (size_t i = 0; i < n; i++) {
    const cosrod_step_type *a = cosrod_step_type_at(i);
    if (!a || !a->name || !a->alloc || !a->step || !a->dense || !a->free || !a->reset || a->order < 1) bad++;
    for (size_t j = i + 1; j < n && a; j++)
      if (strcmp(a->name, cosrod_step_type_at(j)->name) == 0) dup++;
    NOTE("method %zu: %s (order %d, flags 0x%x)", i, a ? a->name : "?", a ? a->order : 0, a ? a->flags : 0u);
  }
  CHECK("every listed method is complete", bad == 0);
  CHECK("method names unique", dup == 0);
  CHECK("index past the end gives NULL", cosrod_step_type_at(n) == NULL);
}

TEST(error_norm) {
  /* sk = atol + rtol max(|y0|, |y1|): (1e-3 + 1e-2*2, 1e-3 + 1e-2*4) = (0.021, 0.041) */
  const double e[2] = {0.0021, -0.0082}, y0[2] = {2.0, -1.0}, y1[2] = {1.0, 4.0};
  const double rt[2] = {1e-2, 1e-2}, at[2] = {1e-3, 1e-3};
  double sk[2];
  cosrod_integrate_scale(2, rt, at, y0, y1, sk);
  CHECK_NEAR("sk[0]", sk[0], 0.021, 1e-16);
  CHECK_NEAR("sk[1]", sk[1], 0.041, 1e-16);
  double want = sqrt(0.5 * ((0.0021 / 0.021) * (0.0021 / 0.021) + (0.0082 / 0.041) * (0.0082 / 0.041)));
  CHECK_REL("wrms", cosrod_integrate_wrms(2, e, sk), want, 1e-15);
  cosrod_step_ctx c;
  memset(&c, 0, sizeof c);
  c.n = 2;
  c.rtol = rt;
  c.atol = at;
  CHECK_REL("err_norm = wrms(scale)", cosrod_integrate_err_norm(&c, e, y0, y1), want, 1e-15);
  cosrod_integrate_scale(2, rt, at, y0, NULL, sk);
  CHECK_NEAR("scale without y1 uses |y0|", sk[1], 0.011, 1e-16);
  /* the norm over the components not skipped: the RMS of the first alone */
  const unsigned char skip[2] = {0, 1};
  CHECK_REL("err_norm_skip: component 0 only", cosrod_integrate_err_norm_skip(&c, e, y0, y1, skip), 0.1, 1e-14);
  CHECK_REL("err_norm_skip without a mask = err_norm", cosrod_integrate_err_norm_skip(&c, e, y0, y1, NULL), want,
            1e-15);
}

TEST(controllers) {
  /* standard: q = 0.9 err^-1/5 clamped to [0.2, 10] */
  CHECK_REL("standard, err = 0.5", cosrod_control_standard(0.5, 0.2, 0.9, 0.2, 10.0), 0.9 * pow(0.5, -0.2),
            1e-15);
  CHECK_REL("standard clamps at fac_max", cosrod_control_standard(1e-12, 0.2, 0.9, 0.2, 10.0), 10.0, 1e-15);
  CHECK_REL("standard clamps at fac_min", cosrod_control_standard(1e6, 0.2, 0.9, 0.2, 10.0), 0.2, 1e-15);
  CHECK_REL("standard, err = 0 gives fac_max", cosrod_control_standard(0.0, 0.2, 0.9, 0.2, 10.0), 10.0, 0.0);
}

/* Finite-difference Jacobians (dense, banded with grouping, reduced m1 form)
 * against the analytic Jacobians of every test problem, at two random states
 * y0 + 0.1 (1 + |y0|) U(-1, 1) (away from zeros of y, where the FD
 * truncation error f'' delta is not small relative to |J|).  The increment
 * sqrt(u max(1e-5, |y|)) ~ 1e-8 gives ~1e-7 relative accuracy on these
 * problems (Pleiades' 1/r^3 forces: 4e-6 measured): tolerance 1e-5 of the
 * largest entry; a wrong formula gives O(1). */
TEST(jacobians_fd_vs_analytic) {
  th_rng rng;
  th_rng_seed(&rng, 7);
  int nchecked = 0;
  for (size_t k = 0; k < itest_problem_count(); k++) {
    const itest_problem *P = itest_problem_at(k);
    cosrod_ode_problem p = {0};
    P->setup(&p);
    if (!p.jac) continue;
    const int n = p.n, m1 = p.m1;
    int ld;
    if (!p.jac_banded)
      ld = n - m1;
    else if (m1 > 0)
      ld =
          1 + (p.jac_ml_q + p.jac_mu_q > p.jac_ml + p.jac_mu ? p.jac_ml_q + p.jac_mu_q : p.jac_ml + p.jac_mu);
    else
      ld = p.jac_ml + p.jac_mu + 1;
    double *Ja = calloc((size_t)ld * n, sizeof(double)), *Jf = calloc((size_t)ld * n, sizeof(double));
    double *y = malloc(sizeof(double) * n), *fy = malloc(sizeof(double) * n),
           *work = malloc(sizeof(double) * 2 * n);
    double rt = 1e-6, at = 1e-6;
    double *rtv = malloc(sizeof(double) * n), *atv = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) rtv[i] = rt, atv[i] = at;
    cosrod_integrate_stats st = {0};
    cosrod_ode_problem pfd = p;
    pfd.jac = NULL;
    cosrod_step_ctx ca, cf;
    memset(&ca, 0, sizeof ca);
    ca.problem = &p;
    ca.n = n;
    ca.rtol = rtv;
    ca.atol = atv;
    ca.stats = &st;
    ca.uround = 1.1102230246251565e-16;
    cf = ca;
    cf.problem = &pfd;
    double worst = 0.0;
    for (int trial = 0; trial < 2; trial++) {
      for (int i = 0; i < n; i++)
        y[i] = P->y0[i] + 0.1 * (1.0 + fabs(P->y0[i])) * th_rng_uniform(&rng, -1, 1);
      p.f(P->t0, y, fy, p.user);
      cosrod_step_call_jac(&ca, P->t0, y, fy, Ja, ld, work);
      cosrod_step_call_jac(&cf, P->t0, y, fy, Jf, ld, work);
      double amax = 0.0, dmax = 0.0;
      for (int i = 0; i < ld * n; i++) {
        amax = fmax(amax, fabs(Ja[i]));
        dmax = fmax(dmax, fabs(Ja[i] - Jf[i]));
      }
      worst = fmax(worst, dmax / amax);
    }
    char what[160];
    snprintf(what, sizeof what, "%s: max |J_fd - J| / max |J| (%s%s)", P->name,
             p.jac_banded ? "banded" : "dense", m1 ? ", reduced m1 form" : "");
    CHECK_LE(what, worst, 1e-5);
    nchecked++;
    free(Ja), free(Jf), free(y), free(fy), free(work), free(rtv), free(atv);
  }
  CHECK("several problems have Jacobians", nchecked >= 8);
}

/* Banded FD uses column grouping: on the interleaved chain (ml = 3, mu = 1)
 * one Jacobian costs ml + mu + 1 = 5 f evaluations, not n = 20. */
TEST(fd_banded_grouping_cost) {
  const itest_problem *P = itest_problem_by_name("chain_banded");
  cosrod_ode_problem p = {0};
  P->setup(&p);
  p.jac = NULL;
  double rt[20], at[20], J[5 * 20], fy[20], work[40];
  for (int i = 0; i < 20; i++) rt[i] = at[i] = 1e-6;
  cosrod_integrate_stats st = {0};
  cosrod_step_ctx c;
  memset(&c, 0, sizeof c);
  c.problem = &p;
  c.n = 20;
  c.rtol = rt;
  c.atol = at;
  c.stats = &st;
  c.uround = 1.1e-16;
  p.f(0.0, P->y0, fy, NULL);
  cosrod_step_call_jac(&c, 0.0, P->y0, fy, J, 5, work);
  CHECK("5 f evaluations for a bandwidth-5 FD Jacobian", st.nfev == 5 && st.njev == 1);
  /* reduced m1 banded chain: q-block (1,1) needs 3 groups, v-block (0,0) needs 1 */
  const itest_problem *Q = itest_problem_by_name("chain");
  cosrod_ode_problem q = {0};
  Q->setup(&q);
  q.jac = NULL;
  c.problem = &q;
  st.nfev = 0;
  cosrod_step_call_jac(&c, 0.0, Q->y0, fy, J, 3, work);
  CHECK("reduced banded FD Jacobian: 3 + 1 f evaluations", st.nfev == 4);
}

/* Output times are hit exactly and in order, t0 reported once, every-step
 * output once per accepted step. */
typedef struct out_log {
  double t[512];
  int n;
} out_log;
static int log_out(double t, const double *y, void *u) {
  (void)y;
  out_log *l = u;
  if (l->n < 512) l->t[l->n] = t;
  l->n++;
  return 0;
}
TEST(driver_output_times) {
  const cosrod_step_type *T = cosrod_step_dopri5;
  const itest_problem *P = itest_problem_by_name("linear");
  double tout[6] = {-1.0, 0.0, 1.0, 2.5, 5.0, 7.0}; /* outside [t0, t_end] values are skipped */
  out_log l = {{0}, 0};
  cosrod_output_spec out = {0};
  out.t_out = tout;
  out.n_out = 6;
  out.include_t0 = 1;
  out.output = log_out;
  out.user = &l;
  cosrod_integrate_stats s;
  cosrod_status st = itest_run(T, P, NULL, &out, NULL, &s, NULL, 0);
  CHECK("status OK", st == COSROD_OK);
  CHECK("t0 once + 3 output times in (t0, t_end]", l.n == 4);
  CHECK("times exact and ordered", l.t[0] == 0.0 && l.t[1] == 1.0 && l.t[2] == 2.5 && l.t[3] == 5.0);
  out_log m = {{0}, 0};
  cosrod_output_spec out2 = {0};
  out2.every_step = 1;
  out2.output = log_out;
  out2.user = &m;
  itest_run(T, P, NULL, &out2, NULL, &s, NULL, 0);
  CHECK("one every-step output per accepted step", m.n == s.naccept);
  CHECK("last output at t_end exactly", m.n > 0 && m.t[m.n - 1] == P->t_end);
}

/* Continuing evolve calls, and integrating backwards to the start. */
TEST(continuation_and_backward) {
  const itest_problem *P = itest_problem_by_name("linear");
  cosrod_ode_problem p = {0};
  P->setup(&p);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-9;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_dop853, &p, &o, NULL);
  cosrod_integrator_init(it, 0.0, P->y0, NULL);
  double ex[4];
  cosrod_status s1 = cosrod_integrator_evolve(it, 2.0, NULL);
  cosrod_status s2 = cosrod_integrator_evolve(it, 5.0, NULL);
  P->exact(5.0, ex);
  CHECK("two evolve calls OK", s1 == COSROD_OK && s2 == COSROD_OK && cosrod_integrator_t(it) == 5.0);
  /* tol 1e-9 on a well-conditioned problem: error ~1e-9 */
  CHECK_LE("continued run error at t = 5", itest_max_error(4, cosrod_integrator_y(it), ex), 1e-7);
  cosrod_status s3 = cosrod_integrator_evolve(it, 0.0, NULL);
  CHECK("backward evolve to t0 OK", s3 == COSROD_OK && cosrod_integrator_t(it) == 0.0);
  CHECK_LE("back at the initial value", itest_max_error(4, cosrod_integrator_y(it), P->y0), 1e-7);
  /* dense output inside the last (backward) step */
  double yd[4];
  cosrod_integrator_evolve(it, 1.0, NULL);
  cosrod_status sd = cosrod_integrator_dense(it, 0.999, NULL, 4, yd);
  P->exact(0.999, ex);
  CHECK("dense inside the last step OK", sd == COSROD_OK);
  CHECK_LE("dense value there", itest_max_error(4, yd, ex), 1e-7);
  int idx[2] = {3, 1};
  cosrod_integrator_dense(it, 0.999, idx, 2, yd);
  CHECK("dense subset of components", fabs(yd[0] - ex[3]) < 1e-7 && fabs(yd[1] - ex[1]) < 1e-7);
  CHECK("dense outside the last step refused",
        cosrod_integrator_dense(it, 3.0, NULL, 4, yd) == COSROD_ERR_INVALID);
  cosrod_integrator_free(it);
}

TEST(stats_printer) {
  cosrod_integrate_stats s = {0};
  s.nfev = 1442, s.njev = 3, s.nsteps = 240, s.naccept = 216, s.nreject = 22, s.nconvfail = 5, s.ndecomp = 7, s.nsolve = 9;
  s.nnewton = 11, s.nstiff = 1, s.nproject = 216, s.wall_time = 0.25;
  FILE *f = tmpfile();
  CHECK("tmpfile", f != NULL);
  if (!f) return;
  cosrod_integrate_stats_print_header(f, 1);
  cosrod_integrate_stats_print(f, "dopri5", &s, 1);
  cosrod_integrate_stats_print_header(f, 0);
  cosrod_integrate_stats_print(f, "dopri5", &s, 0);
  rewind(f);
  char line[4][512];
  for (int i = 0; i < 4; i++)
    if (!fgets(line[i], sizeof line[i], f)) line[i][0] = '\0';
  fclose(f);
  CHECK("CSV header", strncmp(line[0], "label,nfev,njev,nsteps,naccept,nreject,nconvfail,ndecomp,", 57) == 0);
  CHECK("CSV row values", strncmp(line[1], "dopri5,1442,3,240,216,22,5,7,9,11,1,216,", 40) == 0);
  long v[6];
  char lab[32];
  int got = sscanf(line[3], "%31s %ld %ld %ld %ld %ld %ld", lab, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]);
  CHECK("table row parses back", got == 7 && v[0] == 1442 && v[2] == 240 && v[4] == 22 && v[5] == 5);
}

/* Step-history callback: one call per attempted step with (t, h, accepted);
 * accepted steps chain (t_next = t + h), hmax bounds every step, and the
 * counts agree with the statistics. */
typedef struct hist {
  long nacc, nrej;
  double t_expect, max_gap, max_h;
} hist;
static int hist_cb(double t, double h, int accepted, void *u) {
  hist *H = u;
  if (accepted) {
    H->max_gap = fmax(H->max_gap, fabs(t - H->t_expect));
    H->t_expect = t + h;
    H->nacc++;
  } else {
    H->nrej++;
  }
  H->max_h = fmax(H->max_h, fabs(h));
  return 0;
}
TEST(step_history_and_hmax) {
  const itest_problem *P = itest_problem_by_name("arenstorf");
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-7;
  for (int pass = 0; pass < 2; pass++) {
    hist H = {0, 0, 0.0, 0.0, 0.0};
    if (pass) o.hmax = 0.01;
    cosrod_output_spec out = {0};
    out.step_history = hist_cb;
    out.user = &H;
    cosrod_integrate_stats s;
    cosrod_status st = itest_run(cosrod_step_dopri5, P, &o, &out, NULL, &s, NULL, 0);
    CHECK("status OK", st == COSROD_OK);
    CHECK("one history call per attempted step", H.nacc + H.nrej == s.nsteps && H.nacc == s.naccept);
    /* accepted steps chain exactly up to roundoff of t + h */
    CHECK_LE("accepted steps chain: |t_k - (t_{k-1} + h_{k-1})|", H.max_gap, 1e-14);
    if (pass) {
      CHECK_LE("hmax = 0.01 bounds every step", H.max_h, 0.01);
      NOTE("with hmax = 0.01: %ld steps (at least T/0.01 = %.0f)", s.nsteps, P->t_end / 0.01);
      CHECK("hmax forces at least T/hmax steps", s.naccept >= (long)(P->t_end / 0.01));
    }
  }
}

/* Vector tolerances equal to the scalars reproduce the scalar run exactly;
 * loosening the tolerance of half of the components reduces the work. */
TEST(vector_tolerances) {
  const itest_problem *P = itest_problem_by_name("pleiades");
  double rv[28], av[28], y1[28], y2[28];
  for (int i = 0; i < 28; i++) rv[i] = av[i] = 1e-7;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-7;
  cosrod_integrate_stats s1, s2, s3;
  itest_run(cosrod_step_dopri5, P, &o, NULL, y1, &s1, NULL, 0);
  o.rtol_vec = rv;
  o.atol_vec = av;
  itest_run(cosrod_step_dopri5, P, &o, NULL, y2, &s2, NULL, 0);
  CHECK("identical counts with equal vector tolerances", s1.nfev == s2.nfev && s1.nsteps == s2.nsteps);
  CHECK_LE("identical end values", itest_max_error(28, y1, y2), 0.0);
  for (int i = 14; i < 28; i++) rv[i] = av[i] = 1e-3; /* velocities loose */
  itest_run(cosrod_step_dopri5, P, &o, NULL, y2, &s3, NULL, 0);
  NOTE("steps: all 1e-7: %ld, velocities 1e-3: %ld", s1.nsteps, s3.nsteps);
  CHECK("looser tolerances on half the components take fewer steps", s3.nsteps < s1.nsteps);
}

/* After the projection hook changes y, dopri5 re-evaluates its FSAL
 * derivative: nfev = 6 nsteps + 2 + (naccept - 1) on the rigid body. */
TEST(projection_refreshes_fsal) {
  const itest_problem *P = itest_problem_by_name("rigid_body");
  cosrod_integrate_stats s;
  cosrod_status st = itest_run(cosrod_step_dopri5, P, NULL, NULL, NULL, &s, NULL, 0);
  CHECK("status OK", st == COSROD_OK);
  NOTE("nfev %ld, nsteps %ld, naccept %ld", s.nfev, s.nsteps, s.naccept);
  CHECK("one extra f per projected step (not after the last)", s.nfev == 6 * s.nsteps + 2 + s.naccept - 1);
}

/* dop853's order-7 dense output costs 3 extra f per step that contains an
 * output time, evaluated only when asked for (the counts without output
 * stay Hairer's 11 per step + 1 per accepted + 2). */
static int count_out(double t, const double *y, void *u) {
  (void)t, (void)y;
  (*(long *)u)++;
  return 0;
}
TEST(dop853_lazy_dense_cost) {
  const itest_problem *P = itest_problem_by_name("arenstorf");
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-7;
  cosrod_integrate_stats s0, s1;
  itest_run(cosrod_step_dop853, P, &o, NULL, NULL, &s0, NULL, 0);
  CHECK("no output: nfev = 11 nsteps + naccept + 2", s0.nfev == 11 * s0.nsteps + s0.naccept + 2);
  double tout[3] = {1.0, 1.0 + 1e-9, 9.0}; /* two in one step, one elsewhere */
  long n = 0;
  cosrod_output_spec out = {0};
  out.t_out = tout;
  out.n_out = 3;
  out.output = count_out;
  out.user = &n;
  itest_run(cosrod_step_dop853, P, &o, &out, NULL, &s1, NULL, 0);
  CHECK("3 outputs", n == 3);
  CHECK("same steps with output", s1.nsteps == s0.nsteps);
  CHECK("2 steps with output cost 2 x 3 extra f", s1.nfev - s0.nfev == 6);
}

static const th_case cases[] = {
    TH_CASE(registry),
    TH_CASE(error_norm),
    TH_CASE(controllers),
    TH_CASE(jacobians_fd_vs_analytic),
    TH_CASE(fd_banded_grouping_cost),
    TH_CASE(driver_output_times),
    TH_CASE(continuation_and_backward),
    TH_CASE(stats_printer),
    TH_CASE(step_history_and_hmax),
    TH_CASE(vector_tolerances),
    TH_CASE(projection_refreshes_fsal),
    TH_CASE(dop853_lazy_dense_cost),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
