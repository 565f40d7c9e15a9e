// SPDX-License-Identifier: Apache-2.0
/* The integrators' banded systems on threads (lsys.c): with
 * cosrod_integrate_options.threads = 2, rodas, seulex and radau5 factor and
 * solve their real banded iteration matrices of order >= 2000 by the
 * partitioned SPIKE solver (cosrod/band_spike.h).  Problem: the heat
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/integrate.h"
#include "harness.h"

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

TEST(rodas_two_threads) { check_method("rodas"); }
TEST(seulex_two_threads) { check_method("seulex"); }
TEST(radau5_two_threads) { check_method("radau5"); }

static const th_case cases[] = {
    TH_CASE(rodas_two_threads),
    TH_CASE(seulex_two_threads),
    TH_CASE(radau5_two_threads),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
