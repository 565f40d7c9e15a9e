// SPDX-License-Identifier: Apache-2.0
/* The integrators' banded systems on threads (lsys.c): with
 * cosrod_integrate_options.threads = 2, rodas, seulex and radau5 factor and
 * solve their real banded iteration matrices of order >= 2000 by the
 * partitioned SPIKE solver (cosrod/band_spike.h); radau5's complex system
 * and galpha's band system (wave equation below) follow the same rule.  Problem: the heat
 * equation y_i' = c (y_{i-1} - 2 y_i + y_{i+1}), y_0 = y_{n+1} = 0, n = 2100,
 * c = (n+1)^2 / pi^2, from y_i(0) = sin(pi i/(n+1)) + sin(3 pi i/(n+1)) to t = 1.
 * Exact solution: each sine mode k is an eigenvector of the difference
 * operator with eigenvalue lambda_k = -4 c sin^2(k pi / (2(n+1))) (about -1 and
 * -9 here, the stiffest -4c = -1.8e6).
 * Bound: the problem is contractive (the operator is symmetric negative
 * definite, log-norm < 0), so the global error is at most the sum of the
 * local errors, each kept below tol by the step-size control in the weighted
 * norm: |y_i - y_exact,i| <= naccept * (atol + rtol |y_exact,i|) for the
 * serial and the threaded run alike.  The threaded run must also differ from
 * the serial one (SPIKE rounds differently from the global LU, so equality to
 * the last bit would mean the partitioned solver was not used) by far less
 * than the tolerance. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/band_spike.h"
#include "cosrod/integrate.h"
#include "harness.h"
#include "integrate/radau5_coef.h"
#include "integrate/radau5_cplx.h"

enum { NY = 2100 };
static const double PI = 3.14159265358979323846;

static double coef(void) { return (double)(NY + 1) * (NY + 1) / (PI * PI); }

static int rhs(double t, const double *y, double *yd, void *user) {
  (void)t, (void)user;
  const double c = coef();
  for (int i = 0; i < NY; ++i) {
    const double l = i > 0 ? y[i - 1] : 0.0, r = i + 1 < NY ? y[i + 1] : 0.0;
    yd[i] = c * (l - 2.0 * y[i] + r);
  }
  return 0;
}

/* LAPACK band storage, ml = mu = 1: J(i, j) at J[j * ldj + mu + i - j]. */
static int jac(double t, const double *y, double *J, int ldj, void *user) {
  (void)t, (void)y, (void)user;
  const double c = coef();
  for (int j = 0; j < NY; ++j) {
    double *col = J + (size_t)j * (size_t)ldj;
    if (j > 0) col[0] = c;      /* row j - 1 */
    col[1] = -2.0 * c;          /* row j */
    if (j + 1 < NY) col[2] = c; /* row j + 1 */
  }
  return 0;
}

static double exact(int i, double t) {
  double y = 0.0;
  for (int k = 1; k <= 3; k += 2) {
    const double s = sin(k * PI / (2.0 * (NY + 1)));
    y += sin(k * PI * (i + 1) / (NY + 1)) * exp(-4.0 * coef() * s * s * t);
  }
  return y;
}

static int run(const char *method, int threads, double *y, long *naccept) {
  cosrod_ode_problem p = {0};
  p.n = NY, p.f = rhs, p.jac = jac, p.jac_banded = 1, p.jac_ml = p.jac_mu = 1;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-8;
  o.threads = threads;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &st);
  if (!it) return -1;
  double *y0 = malloc(NY * sizeof *y0);
  for (int i = 0; i < NY; ++i) y0[i] = exact(i, 0.0);
  st = cosrod_integrate(it, 0.0, y0, 1.0, NULL, y);
  *naccept = cosrod_integrator_stats(it)->naccept;
  free(y0);
  cosrod_integrator_free(it);
  return st == COSROD_OK ? 0 : -1;
}

static void check_method(const char *method) {
  double *ys = malloc(NY * sizeof *ys), *yt = malloc(NY * sizeof *yt);
  long ns = 0, nt = 0;
  char what[200];
  snprintf(what, sizeof what, "%s: serial and 2-thread runs reach t = 1", method);
  CHECK(what, run(method, 1, ys, &ns) == 0 && run(method, 2, yt, &nt) == 0);
  double es = 0.0, et = 0.0, d = 0.0;
  for (int i = 0; i < NY; ++i) {
    const double ye = exact(i, 1.0), w = 1e-8 + 1e-8 * fabs(ye);
    es = fmax(es, fabs(ys[i] - ye) / w);
    et = fmax(et, fabs(yt[i] - ye) / w);
    d = fmax(d, fabs(yt[i] - ys[i]) / w);
  }
  NOTE("%s: error/tol serial %.3g (%ld steps), 2 threads %.3g (%ld steps), difference %.3g tol", method, es, ns,
       et, nt, d);
  snprintf(what, sizeof what, "%s: serial error within naccept tol", method);
  CHECK(what, es <= (double)ns);
  snprintf(what, sizeof what, "%s: 2-thread error within naccept tol", method);
  CHECK(what, et <= (double)nt);
  snprintf(what, sizeof what, "%s: the 2-thread run took the partitioned solver (differs at rounding)", method);
  CHECK(what, d > 0.0 && d < 1e-2);
  free(ys), free(yt);
}

/* radau5's complex system E2 = fac I - J, fac = (alpha + i beta)/h, on the
 * heat-equation Jacobian: with 2 threads radau5_cplx solves it by the
 * complex SPIKE, serially by the complex band LU.  J is symmetric with the
 * eigenvalues lambda_k = -4 c sin^2(k pi / (2(n+1))) in (-4c, 0), so E2 is
 * normal with the singular values |fac - lambda_k| (all >= |fac| as
 * Re fac > 0 >= lambda_k): ||E2||_2 and kappa_2 are known exactly.  Each
 * solution's normwise backward error eta = ||r||_2 / (||E2||_2 ||x||_2 +
 * ||b||_2) is measured, and (Higham, Thm 7.1, any subordinate norm) the two
 * solutions differ by at most 2 kappa_2 (eta_1 + eta_2) relative, eta
 * including the residual's evaluation error (w + 3) 2u (w = 4 terms per
 * row, 2u per complex multiply-add) times ||E2||_2-relative. */
static double cplx_solve(int threads, double h, const double *br, const double *bi, double *xr, double *xi,
                         int *spike_used) {
  cosrod_ode_problem p = {0};
  p.n = NY, p.f = rhs, p.jac = jac, p.jac_banded = 1, p.jac_ml = p.jac_mu = 1;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.threads = threads;
  cosrod_step_ctx ctx = {0};
  ctx.problem = &p, ctx.opts = &o, ctx.n = NY;
  cosrod_lsys *L = NULL;
  radau5_cplx *C = NULL;
  CHECK("lsys created", cosrod_lsys_create(&L, &ctx) == COSROD_OK);
  jac(0.0, NULL, L->J, L->ldj, NULL);
  CHECK("complex system created", radau5_cplx_create(&C, L, COSROD_LINALG_OWN) == COSROD_OK);
  const double complex fac = (RADAU5_ALPHA + I * RADAU5_BETA) / h;
  CHECK("complex system factored", radau5_cplx_factor(C, fac) == COSROD_OK);
  *spike_used = C->spike != NULL && !cosrod_zband_spike_fell_back(C->spike);
  for (int i = 0; i < NY; ++i) xr[i] = br[i], xi[i] = bi[i];
  radau5_cplx_solve(C, xr, xi);
  /* eta in the 2-norm, residual r = b - (fac x - J x) */
  const double c = coef();
  double rr = 0.0, xx = 0.0, bb = 0.0;
  for (int i = 0; i < NY; ++i) {
    const double complex x = xr[i] + I * xi[i];
    const double complex l = i > 0 ? xr[i - 1] + I * xi[i - 1] : 0.0, r = i + 1 < NY ? xr[i + 1] + I * xi[i + 1] : 0.0;
    const double complex res = br[i] + I * bi[i] - (fac * x - c * (l - 2.0 * x + r));
    rr += creal(res * conj(res)), xx += creal(x * conj(x)), bb += br[i] * br[i] + bi[i] * bi[i];
  }
  const double smax = cabs(fac + 4.0 * c); /* max_k |fac - lambda_k| < |fac + 4c| */
  radau5_cplx_free(C);
  cosrod_lsys_free(L);
  return sqrt(rr) / (smax * sqrt(xx) + sqrt(bb));
}

TEST(radau5_complex_system_spike) {
  double *br = malloc(4 * NY * sizeof *br), *bi = br + NY, *x1r = br + 2 * NY, *x1i = br + 3 * NY;
  double *x2r = malloc(2 * NY * sizeof *x2r), *x2i = x2r + NY;
  unsigned s = 12345u;
  for (int i = 0; i < 2 * NY; ++i) {
    s = s * 1103515245u + 12345u;
    br[i] = (double)(s >> 8) / 16777216.0 - 0.5;
  }
  for (double h = 1e-4; h <= 1.1e-1; h *= 1e3) {
    int sp1 = 0, sp2 = 0;
    const double e1 = cplx_solve(1, h, br, bi, x1r, x1i, &sp1), e2 = cplx_solve(2, h, br, bi, x2r, x2i, &sp2);
    const double complex fac = (RADAU5_ALPHA + I * RADAU5_BETA) / h;
    const double kappa = cabs(fac + 4.0 * coef()) / cabs(fac), ev = 7.0 * 2.0 * DBL_EPSILON / 2.0;
    double d = 0.0, xn = 0.0;
    for (int i = 0; i < NY; ++i) {
      d += (x2r[i] - x1r[i]) * (x2r[i] - x1r[i]) + (x2i[i] - x1i[i]) * (x2i[i] - x1i[i]);
      xn += x1r[i] * x1r[i] + x1i[i] * x1i[i];
    }
    d = sqrt(d / xn);
    const double bound = 2.0 * kappa * (e1 + e2 + 2.0 * ev);
    NOTE("h = %g: kappa_2 %.3g, eta serial %.3g, 2 threads %.3g, |x2 - x1|/|x1| %.3g (bound %.3g)", h, kappa, e1, e2,
         d, bound);
    CHECK("serial: complex band LU (no SPIKE)", sp1 == 0);
    CHECK("2 threads: the complex SPIKE factorised E2", sp2 == 1);
    CHECK_LE("SPIKE vs serial complex LU / 2 kappa (eta1 + eta2)", d / bound, 1.0);
    CHECK("SPIKE rounds differently from the global LU (the path ran)", d > 0.0);
  }
  free(br);
  free(x2r);
}

/* galpha on the wave equation q'' = c (q_{i-1} - 2 q_i + q_{i+1}) (same
 * operator, lie_nq = NY, vector space): modes k = 1, 3 of frequency
 * omega_k = sqrt(-lambda_k) (about 1 and 3), exact
 * q_i = sum_k sin(k pi (i+1)/(n+1)) cos(omega_k t).  The undamped system is
 * unitary in its energy norm and galpha's numerical dissipation only
 * damps, so the global error stays below the sum of the local errors the
 * step control keeps near tol: |q_i - q_exact,i| <= naccept (atol + rtol
 * |q_exact,i|), serial and 2 threads alike; the runs differ at rounding
 * level (SPIKE vs global LU of S = I - gamma'' C - beta'' K). */
static int wave_f(double t, const double *y, double *yd, void *user) {
  (void)t, (void)user;
  const double c = coef();
  for (int i = 0; i < NY; ++i) {
    const double l = i > 0 ? y[i - 1] : 0.0, r = i + 1 < NY ? y[i + 1] : 0.0;
    yd[i] = y[NY + i];
    yd[NY + i] = c * (l - 2.0 * y[i] + r);
  }
  return 0;
}

static int wave_tangent(double t, const double *y, double *K, double *C, int ld, void *user) {
  (void)t, (void)y, (void)C, (void)user;
  return jac(0.0, NULL, K, ld, NULL);
}

static double wave_exact(int i, double t) {
  double y = 0.0;
  for (int k = 1; k <= 3; k += 2) {
    const double s = sin(k * PI / (2.0 * (NY + 1)));
    y += sin(k * PI * (i + 1) / (NY + 1)) * cos(2.0 * sqrt(coef()) * s * t);
  }
  return y;
}

static int wave_run(int threads, double *y, long *naccept) {
  cosrod_ode_problem p = {0};
  p.n = 2 * NY, p.f = wave_f, p.lie_nq = NY, p.jac_tangent = wave_tangent, p.lie_ml = p.lie_mu = 1;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-6;
  o.threads = threads;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name("galpha"), &p, &o, &st);
  if (!it) return -1;
  double *y0 = calloc(2 * NY, sizeof *y0);
  for (int i = 0; i < NY; ++i) y0[i] = wave_exact(i, 0.0);
  st = cosrod_integrate(it, 0.0, y0, 1.0, NULL, y);
  *naccept = cosrod_integrator_stats(it)->naccept;
  free(y0);
  cosrod_integrator_free(it);
  return st == COSROD_OK ? 0 : -1;
}

TEST(galpha_two_threads) {
  double *ys = malloc(2 * NY * sizeof *ys), *yt = malloc(2 * NY * sizeof *yt);
  long ns = 0, nt = 0;
  CHECK("galpha: serial and 2-thread runs reach t = 1", wave_run(1, ys, &ns) == 0 && wave_run(2, yt, &nt) == 0);
  double es = 0.0, et = 0.0, d = 0.0;
  for (int i = 0; i < NY; ++i) {
    const double ye = wave_exact(i, 1.0), w = 1e-6 + 1e-6 * fabs(ye);
    es = fmax(es, fabs(ys[i] - ye) / w);
    et = fmax(et, fabs(yt[i] - ye) / w);
    d = fmax(d, fabs(yt[i] - ys[i]) / w);
  }
  NOTE("galpha: error/tol serial %.3g (%ld steps), 2 threads %.3g (%ld steps), difference %.3g tol", es, ns, et, nt,
       d);
  CHECK("galpha: serial error within naccept tol", es <= (double)ns);
  CHECK("galpha: 2-thread error within naccept tol", et <= (double)nt);
  CHECK("galpha: the 2-thread run took the partitioned solver (differs at rounding)", d > 0.0 && d < 1e-2);
  free(ys), free(yt);
}

TEST(rodas_two_threads) { check_method("rodas"); }
TEST(seulex_two_threads) { check_method("seulex"); }
TEST(radau5_two_threads) { check_method("radau5"); }

static const th_case cases[] = {
    TH_CASE(rodas_two_threads),
    TH_CASE(seulex_two_threads),
    TH_CASE(radau5_two_threads),
    TH_CASE(radau5_complex_system_spike),
    TH_CASE(galpha_two_threads),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
