// SPDX-License-Identifier: Apache-2.0
/* RODAS-specific tests: the published coefficient table against the
 * Rosenbrock order conditions (HW II Table 7.1), the counts of Hairer's code
 * (noted beside ours) with end values against the reference solutions, and
 * non-autonomous problems (d f / d t by finite differences and by callback). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "integrate/rodas_coef.h"
#include "itest.h"

/* ---- coefficients -------------------------------------------------------- */

/* Convert the u-form (A, C, γ, weights m) to the classical (α, γ_ij, b):
 * Γ^-1 = diag(1/γ) − C, α = A Γ, b = m Γ (HW II (7.4')). */
enum { S = 6 };
static void classical(double alpha[S][S], double gam[S][S], double b[S], double bh[S]) {
  double A[S][S] = {{0}}, Gi[S][S] = {{0}};
  A[1][0] = A21;
  A[2][0] = A31, A[2][1] = A32;
  A[3][0] = A41, A[3][1] = A42, A[3][2] = A43;
  A[4][0] = A51, A[4][1] = A52, A[4][2] = A53, A[4][3] = A54;
  A[5][0] = A51, A[5][1] = A52, A[5][2] = A53, A[5][3] = A54, A[5][4] = 1.0;
  const double C[S][S] = {
      {0}, {C21}, {C31, C32}, {C41, C42, C43}, {C51, C52, C53, C54}, {C61, C62, C63, C64, C65}};
  for (int i = 0; i < S; i++)
    for (int j = 0; j < S; j++) Gi[i][j] = (i == j) ? 1.0 / GAMMA : (j < i ? -C[i][j] : 0.0);
  /* invert the lower-triangular Γ^-1 by forward substitution, column by column */
  for (int j = 0; j < S; j++)
    for (int i = 0; i < S; i++) {
      double r = (i == j) ? 1.0 : 0.0;
      for (int k = 0; k < i; k++) r -= Gi[i][k] * gam[k][j];
      gam[i][j] = r / Gi[i][i];
    }
  for (int i = 0; i < S; i++)
    for (int j = 0; j < S; j++) {
      double s = 0.0;
      for (int k = 0; k < S; k++) s += A[i][k] * gam[k][j];
      alpha[i][j] = s;
    }
  const double m[S] = {A51, A52, A53, A54, 1.0, 1.0}, mh[S] = {A51, A52, A53, A54, 1.0, 0.0};
  for (int j = 0; j < S; j++) {
    b[j] = bh[j] = 0.0;
    for (int k = 0; k < S; k++) b[j] += m[k] * gam[k][j], bh[j] += mh[k] * gam[k][j];
  }
}

/* Residuals of the order conditions up to order p (HW II Table 7.1). */
static int order_residuals(double alpha[S][S], double gam[S][S], const double *b, int p, double *res) {
  const double g = GAMMA;
  double beta[S][S], bp[S], ai[S];
  for (int i = 0; i < S; i++) {
    bp[i] = ai[i] = 0.0;
    for (int j = 0; j < S; j++) {
      beta[i][j] = j < i ? alpha[i][j] + gam[i][j] : 0.0;
      if (j < i) bp[i] += beta[i][j], ai[i] += alpha[i][j];
    }
  }
  int nr = 0;
  double s;
  s = 0.0;
  for (int i = 0; i < S; i++) s += b[i];
  res[nr++] = s - 1.0;
  s = 0.0;
  for (int i = 0; i < S; i++) s += b[i] * bp[i];
  res[nr++] = s - (0.5 - g);
  if (p >= 3) {
    s = 0.0;
    for (int i = 0; i < S; i++) s += b[i] * ai[i] * ai[i];
    res[nr++] = s - 1.0 / 3.0;
    s = 0.0;
    for (int i = 0; i < S; i++)
      for (int k = 0; k < S; k++) s += b[i] * beta[i][k] * bp[k];
    res[nr++] = s - (1.0 / 6.0 - g + g * g);
  }
  if (p >= 4) {
    s = 0.0;
    for (int i = 0; i < S; i++) s += b[i] * ai[i] * ai[i] * ai[i];
    res[nr++] = s - 0.25;
    s = 0.0;
    for (int i = 0; i < S; i++)
      for (int k = 0; k < S; k++) s += b[i] * ai[i] * alpha[i][k] * bp[k];
    res[nr++] = s - (1.0 / 8.0 - g / 3.0);
    s = 0.0;
    for (int i = 0; i < S; i++)
      for (int k = 0; k < S; k++) s += b[i] * beta[i][k] * ai[k] * ai[k];
    res[nr++] = s - (1.0 / 12.0 - g / 3.0);
    s = 0.0;
    for (int i = 0; i < S; i++)
      for (int k = 0; k < S; k++)
        for (int l = 0; l < S; l++) s += b[i] * beta[i][k] * beta[k][l] * bp[l];
    res[nr++] = s - (1.0 / 24.0 - g / 2.0 + 1.5 * g * g - g * g * g);
  }
  return nr;
}

TEST(rodas_coefficients_order_conditions) {
  double alpha[S][S], gam[S][S], b[S], bh[S], res[8];
  classical(alpha, gam, b, bh);
  /* The table has 16 significant digits and entries up to ~34; the
   * conditions then hold to ~1e-13.  1e-11 fails for any wrong digit beyond
   * the 11th and for a wrong sign or formula by many orders of magnitude. */
  int nr = order_residuals(alpha, gam, b, 4, res);
  double worst = 0.0;
  for (int r = 0; r < nr; r++) worst = fmax(worst, fabs(res[r]));
  CHECK_LE("order 4: max residual of the 8 conditions (y1)", worst, 1e-11);
  nr = order_residuals(alpha, gam, bh, 3, res);
  worst = 0.0;
  for (int r = 0; r < nr; r++) worst = fmax(worst, fabs(res[r]));
  CHECK_LE("order 3: max residual of the 4 conditions (embedded)", worst, 1e-11);
  /* the embedded method must NOT have order 4 (else the estimate is void) */
  nr = order_residuals(alpha, gam, bh, 4, res);
  worst = 0.0;
  for (int r = 4; r < nr; r++) worst = fmax(worst, fabs(res[r]));
  CHECK("embedded method violates an order-4 condition by > 1e-3", worst > 1e-3);
  /* nodes c_i = Σ α_ij and D_i = γ_i = Σ_j γ_ij */
  const double c[S] = {0.0, C2, C3, C4, 1.0, 1.0}, d[S] = {D1, D2, D3, D4, 0.0, 0.0};
  double ec = 0.0, ed = 0.0;
  for (int i = 0; i < S; i++) {
    double sa = 0.0, sg = 0.0;
    for (int j = 0; j < S; j++) {
      if (j < i) sa += alpha[i][j];
      if (j <= i) sg += gam[i][j];
    }
    ec = fmax(ec, fabs(sa - c[i]));
    ed = fmax(ed, fabs(sg - d[i]));
  }
  CHECK_LE("c_i = sum_j alpha_ij (max deviation)", ec, 1e-12);
  CHECK_LE("D_i = sum_j gamma_ij (max deviation)", ed, 1e-12);
  /* stiff accuracy: b = (last row of beta, gamma) */
  double sa = 0.0;
  for (int j = 0; j < S; j++)
    sa = fmax(sa, fabs(b[j] - (j < S - 1 ? alpha[S - 1][j] + gam[S - 1][j] : GAMMA)));
  CHECK_LE("stiffly accurate: b_j = alpha_6j + gamma_6j", sa, 1e-12);
}

/* ---- counts of the original and end values -------------------------------- */

TEST(rodas_counts_and_end_values) {
  const cosrod_step_type *T = cosrod_step_type_by_name("rodas");
  CHECK("rodas is built", T != NULL);
  if (!T) return;
  char what[200];
  int rows = 0;
  for (size_t r = 0; r < itest_reference_count; r++) {
    const itest_counts *c = &itest_reference_counts[r];
    if (strcmp(c->method, "rodas") != 0) continue;
    const itest_problem *P = itest_problem_by_name(c->problem);
    cosrod_integrate_stats s;
    double y[8];
    /* status OK; counts noted beside the original's (efficiency: test_work_precision.c) */
    itest_check_reference_row(c, T, y, &s);
    rows++;
    /* 6 f per accepted and 5 per rejected step (autonomous, analytic J) */
    snprintf(what, sizeof what, "%s rtol %g: nfev = 6 naccept + 5 (nsteps - naccept)", c->problem, c->rtol);
    CHECK(what, s.nfev == 6 * s.naccept + 5 * (s.nsteps - s.naccept));
    /* end values: local errors below tol accumulate; for these dissipative
     * problems the global error stays within a few tol (measured 0.04-0.6) */
    double e = itest_scaled_error(P->n, y, P->yref, c->rtol, c->atol);
    snprintf(what, sizeof what, "%s rtol %g: end error in units of tol", c->problem, c->rtol);
    CHECK_LE(what, e, 10.0);
  }
  CHECK("six reference rows", rows == 6);
}

/* ---- non-autonomous problems ------------------------------------------------
 * y' = λ (y − g(t)) + g'(t), g = sin: exact y = sin t + (y0 − 0) e^{λ t}. */
typedef struct {
  double lam;
} na_par;
static int na_f(double t, const double *y, double *f, void *u) {
  const na_par *p = u;
  f[0] = p->lam * (y[0] - sin(t)) + cos(t);
  return 0;
}
static int na_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)ld;
  J[0] = ((const na_par *)u)->lam;
  return 0;
}
static int na_dfdt(double t, const double *y, double *ft, void *u) {
  (void)y;
  ft[0] = -((const na_par *)u)->lam * cos(t) - sin(t);
  return 0;
}
static double na_run(na_par *par, int time_dependent, int with_dfdt, double tol, double h_fixed,
                     cosrod_integrate_stats *s) {
  cosrod_ode_problem p = {0};
  p.n = 1;
  p.f = na_f;
  p.jac = na_jac;
  p.user = par;
  p.time_dependent = time_dependent;
  if (with_dfdt) p.dfdt = na_dfdt;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  if (h_fixed > 0.0) o.h0 = o.hmax = h_fixed;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_rodas, &p, &o, NULL);
  const double y0 = 1.0, T = 2.0;
  double y;
  cosrod_integrate(it, 0.0, &y0, T, NULL, &y);
  if (s) *s = *cosrod_integrator_stats(it);
  cosrod_integrator_free(it);
  return fabs(y - (sin(T) + y0 * exp(par->lam * T)));
}

TEST(rodas_nonautonomous_order) {
  /* fixed steps (huge tolerance, h0 = hmax) on the non-stiff λ = -1: the
   * observed order is 4 only with the d f / d t terms (FD or callback). */
  na_par par = {-1.0};
  double e1 = na_run(&par, 1, 1, 1e3, 0.2, NULL), e2 = na_run(&par, 1, 1, 1e3, 0.1, NULL);
  double p_cb = log2(e1 / e2);
  NOTE("dfdt callback: errors %.3e (h 0.2), %.3e (h 0.1), order %.2f", e1, e2, p_cb);
  CHECK_NEAR("order with the dfdt callback (4 +- 0.35)", p_cb, 4.0, 0.35);
  e1 = na_run(&par, 1, 0, 1e3, 0.2, NULL), e2 = na_run(&par, 1, 0, 1e3, 0.1, NULL);
  double p_fd = log2(e1 / e2);
  NOTE("finite-difference df/dt: errors %.3e, %.3e, order %.2f", e1, e2, p_fd);
  CHECK_NEAR("order with finite-difference df/dt (4 +- 0.35)", p_fd, 4.0, 0.35);
  e1 = na_run(&par, 0, 0, 1e3, 0.2, NULL), e2 = na_run(&par, 0, 0, 1e3, 0.1, NULL);
  double p_no = log2(e1 / e2);
  NOTE("declared autonomous (df/dt ignored): errors %.3e, %.3e, order %.2f", e1, e2, p_no);
  /* without the γ_i h f_t terms the order conditions involving t fail: order drops clearly below 4 */
  CHECK_LE("order without df/dt drops below 3.5", p_no, 3.5);
}

TEST(rodas_nonautonomous_stiff) {
  /* stiff forcing λ = -1e4: end error within a few tol; count f per step */
  na_par par = {-1e4};
  cosrod_integrate_stats s_cb, s_fd;
  double e_cb = na_run(&par, 1, 1, 1e-6, 0.0, &s_cb), e_fd = na_run(&par, 1, 0, 1e-6, 0.0, &s_fd);
  NOTE("dfdt callback: error %.3e, %ld steps, nfev %ld; FD: error %.3e, %ld steps, nfev %ld, njev %ld", e_cb,
       s_cb.nsteps, s_cb.nfev, e_fd, s_fd.nsteps, s_fd.nfev, s_fd.njev);
  /* |y| ~ 1, tol 1e-6: a global error of 10 tol is the usual tolerance proportionality margin */
  CHECK_LE("callback: end error <= 1e-5", e_cb, 1e-5);
  CHECK_LE("finite differences: end error <= 1e-5", e_fd, 1e-5);
  CHECK("callback: nfev = 6 naccept + 5 rejected (no extra f)",
        s_cb.nfev == 6 * s_cb.naccept + 5 * (s_cb.nsteps - s_cb.naccept));
  CHECK("FD: one extra f per Jacobian",
        s_fd.nfev == 6 * s_fd.naccept + 5 * (s_fd.nsteps - s_fd.naccept) + s_fd.njev);
}

static const th_case cases[] = {
    TH_CASE(rodas_coefficients_order_conditions),
    TH_CASE(rodas_counts_and_end_values),
    TH_CASE(rodas_nonautonomous_order),
    TH_CASE(rodas_nonautonomous_stiff),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
