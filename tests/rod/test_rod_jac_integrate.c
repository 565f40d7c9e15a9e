// SPDX-License-Identifier: Apache-2.0
/* The analytic second-order Jacobian of the ABSOLUTE formulation plugged into
 * the stiff integrators exactly as cosrod_ode_problem describes it (m1 = m2 =
 * nq, banded q- and v-blocks): RADAU5 and RODAS with the analytic Jacobian
 * reach the same end state as with their internal finite-difference
 * Jacobian, and spend no right-hand sides on Jacobians. */
#include <math.h>
#include <stdio.h>

#include "cosrod/integrate.h"
#include "rod_test_util.h"

typedef struct ctx {
  cosrod_rod *rod;
  cosrod_rod_data *d;
  long njac;
} ctx;

static int f_abs(double t, const double *y, double *ydot, void *user) {
  ctx *c = user;
  return cosrod_rod_rhs_absolute(c->rod, c->d, t, y, ydot);
}

static int jac_abs(double t, const double *y, double *J, int ldj, void *user) {
  ctx *c = user;
  c->njac++;
  return cosrod_rod_jac_second_order(c->rod, c->d, t, y, J, ldj, 10, 10, 10, 10) == COSROD_OK ? 0 : -1;
}

static void run(const char *method, int analytic, ctx *c, const double *y0, int n, double tend, double *yend,
                cosrod_integrate_stats *st) {
  cosrod_ode_problem p = {0};
  p.n = n, p.f = f_abs, p.user = c;
  p.jac = analytic ? jac_abs : NULL;
  p.jac_banded = 1;
  p.jac_ml = p.jac_mu = p.jac_ml_q = p.jac_mu_q = 10;
  p.m1 = p.m2 = n / 2;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-7;
  cosrod_status s;
  cosrod_integrator *I = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &s);
  CHECK("integrator created", I != NULL);
  if (!I) return;
  s = cosrod_integrate(I, 0.0, y0, tend, NULL, yend);
  char w[120];
  snprintf(w, sizeof w, "%s (%s Jacobian) reaches t_end", method, analytic ? "analytic" : "FD");
  CHECK(w, s == COSROD_OK);
  *st = *cosrod_integrator_stats(I);
  cosrod_integrator_free(I);
}

TEST(stiff_integrators_with_analytic_jacobian) {
  enum { N = 8 };
  th_rng r;
  th_rng_seed(&r, 91);
  double s[N + 1], x[3 * (N + 1)], p[4 * N], xd[3 * (N + 1)], Om[3 * N];
  rt_grid(&r, N, 1.0, s);
  rt_config(&r, N, s, 0.05, 0.3, x, p, xd, Om);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.grid = s, def.ngrid = N + 1;
  def.reference = COSROD_REFERENCE_STRAIGHT;
  def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 1e-3, def.tau_bulk = 1e-3;
  def.gravity[2] = -9.81;
  def.ends[0].kind = COSROD_END_PINNED;
  ctx c = {cosrod_rod_create(&def, NULL), NULL, 0};
  c.d = cosrod_rod_data_create(c.rod, NULL);
  int n = cosrod_rod_ny(c.rod, COSROD_FORM_ABSOLUTE);
  double *y0 = malloc(sizeof(double) * 3 * (size_t)n), *ya = y0 + n, *yf = y0 + 2 * n;
  for (int i = 0; i < 3 * (N + 1); ++i) xd[i] *= 0.1;
  for (int i = 0; i < 3 * N; ++i) Om[i] *= 0.1;
  cosrod_rod_pack(c.rod, COSROD_FORM_ABSOLUTE, 0.0, x, p, xd, Om, y0);
  /* pinned at the first vertex of the random configuration */
  const char *methods[] = {"radau5", "rodas"};
  for (int m = 0; m < 2; ++m) {
    cosrod_integrate_stats sa, sf;
    c.njac = 0;
    run(methods[m], 1, &c, y0, n, 0.005, ya, &sa);
    long nj = c.njac;
    run(methods[m], 0, &c, y0, n, 0.005, yf, &sf);
    double diff = 0.0, sc = 0.0;
    for (int i = 0; i < n; ++i) {
      diff = fmax(diff, fabs(ya[i] - yf[i]));
      sc = fmax(sc, fabs(yf[i]));
    }
    char w[160];
    NOTE("%s: analytic J: %ld steps, %ld f, %ld J; FD J: %ld steps, %ld f, %ld J", methods[m], sa.nsteps,
         sa.nfev, sa.njev, sf.nsteps, sf.nfev, sf.njev);
    snprintf(w, sizeof w, "%s: analytic Jacobian used (callback calls == njev > 0)", methods[m]);
    CHECK(w, nj > 0 && nj == sa.njev);
    /* both runs solve to rtol = atol = 1e-7 along nearly the same step
     * sequence; the end states agree to a few times the tolerance */
    snprintf(w, sizeof w, "%s: end state analytic vs FD Jacobian, max |diff| / max |y|", methods[m]);
    CHECK_LE(w, diff / sc, 1e-5);
    /* FD Jacobians cost f evaluations, the analytic one none */
    snprintf(w, sizeof w, "%s: fewer f evaluations with the analytic Jacobian", methods[m]);
    CHECK(w, sa.nfev < sf.nfev);
  }
  free(y0);
  cosrod_rod_data_free(c.d);
  cosrod_rod_free(c.rod);
}

static const th_case cases[] = {TH_CASE(stiff_integrators_with_analytic_jacobian)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
