// SPDX-License-Identifier: Apache-2.0
/* galpha (generalized-α) on the linear single-degree-of-freedom oscillator
 * x'' + 2 ζ ω x' + ω² x = 0 (lie_nq = 1, vector space, no increment):
 *   - spectral radius and period elongation: the numerical solution of the
 *     undamped oscillator with the fixed step h satisfies a three-term
 *     recurrence whose principal roots λ = ρ e^{±i Ω̄} are fitted from the
 *     computed x_n and compared with the roots of the closed-form
 *     characteristic polynomial of the scheme (Chung & Hulbert 1993, §3,
 *     written out below from the defining equations), for several h ω and
 *     ρ∞, Chung–Hulbert, HHT and Newmark; for ρ∞ = 1 also with the
 *     trapezoidal values ρ = 1, Ω̄ = 2 atan(Ω/2) and for Ω -> ∞ with ρ∞;
 *   - second-order convergence of the fixed step on a damped oscillator
 *     against the exact solution;
 *   - second order also when the step size changes every step (h, 2h, h,
 *     ...: the shift of the algorithmic acceleration to the new h);
 *   - the adaptive step meets the tolerance (final state and dense output
 *     against the exact solution). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "harness.h"

typedef struct {
  double w, zeta;
} osc;

static int osc_f(double t, const double *y, double *yd, void *user) {
  (void)t;
  const osc *o = user;
  yd[0] = y[1];
  yd[1] = -o->w * o->w * y[0] - 2.0 * o->zeta * o->w * y[1];
  return 0;
}

static int osc_jt(double t, const double *y, double *K, double *C, int ld, void *user) {
  (void)t, (void)y, (void)ld;
  const osc *o = user;
  K[0] = -o->w * o->w;
  C[0] = -2.0 * o->zeta * o->w;
  return 0;
}

static cosrod_ode_problem osc_problem(osc *o) {
  cosrod_ode_problem p = {0};
  p.n = 2;
  p.f = osc_f;
  p.user = o;
  p.lie_nq = 1;
  p.jac_tangent = osc_jt;
  return p;
}

/* α_m, α_f, γ, β of the schemes (integrate.h) -- written out independently. */
static void params(int scheme, double r, double *am, double *af, double *g, double *b) {
  if (scheme == COSROD_GALPHA_CHUNG_HULBERT) {
    *am = (2 * r - 1) / (r + 1);
    *af = r / (r + 1);
  } else if (scheme == COSROD_GALPHA_HHT) {
    *am = 0;
    *af = (1 - r) / (1 + r);
  } else {
    *am = *af = 0;
    *g = 0.5 + (1 - r) / (1 + r);
    *b = 0.25 * (*g + 0.5) * (*g + 0.5);
    return;
  }
  *g = 0.5 - *am + *af;
  *b = 0.25 * (1 - *am + *af) * (1 - *am + *af);
}

/* Characteristic polynomial of the undamped oscillator under the scheme:
 * with x_n = X λ^n, v_n = V λ^n, a_n = A λ^n and v̇_n = -ω² x_n,
 *   ((1-α_m) λ + α_m) A = -ω² ((1-α_f) λ + α_f) X,
 *   (λ - 1) V = h ((1-γ) + γ λ) A,
 *   (λ - 1) X = h V + h² ((½-β) + β λ) A
 * => P(λ) = ((1-α_m) λ + α_m)(λ-1)² + Ω² ((1-α_f) λ + α_f)((1-γ) + γ λ + ((½-β) + β λ)(λ-1)).
 * Coefficients c[0..3] of λ^0..λ^3; roots by Durand–Kerner. */
static void char_roots(int scheme, double r, double Om, double complex z[3]) {
  double am, af, g, b;
  params(scheme, r, &am, &af, &g, &b);
  double O2 = Om * Om;
  /* A(λ) = (1-am) λ + am; (λ-1)² = λ² - 2λ + 1 */
  double c[4] = {0, 0, 0, 0};
  double A1 = 1 - am, A0 = am;
  c[3] += A1;
  c[2] += -2 * A1 + A0;
  c[1] += A1 - 2 * A0;
  c[0] += A0;
  /* B(λ) = (1-af) λ + af; Q(λ) = β λ² + (γ + ½ - 2β) λ + (1 - γ - ½ + β) */
  double B1 = 1 - af, B0 = af;
  double Q2 = b, Q1 = g + 0.5 - 2 * b, Q0 = 0.5 - g + b;
  c[3] += O2 * B1 * Q2;
  c[2] += O2 * (B1 * Q1 + B0 * Q2);
  c[1] += O2 * (B1 * Q0 + B0 * Q1);
  c[0] += O2 * B0 * Q0;
  z[0] = 0.4 + 0.9 * I;
  z[1] = cpow(z[0], 2);
  z[2] = cpow(z[0], 3);
  for (int it = 0; it < 500; it++)
    for (int i = 0; i < 3; i++) {
      double complex p = ((c[3] * z[i] + c[2]) * z[i] + c[1]) * z[i] + c[0];
      double complex d = c[3];
      for (int j = 0; j < 3; j++)
        if (j != i) d *= z[i] - z[j];
      z[i] -= p / d;
    }
}

/* Principal root: the complex root with the smallest |arg| > 0 (the
 * oscillating pair; the spurious root is real). */
static void principal(const double complex z[3], double *rho, double *arg) {
  double best = 10.0;
  for (int i = 0; i < 3; i++) {
    double a = fabs(carg(z[i]));
    if (a > 1e-12 && a < best && fabs(cimag(z[i])) > 1e-14) {
      best = a;
      *rho = cabs(z[i]);
    }
  }
  *arg = best;
}

/* Run nsteps fixed steps of the undamped oscillator (ω = 1, h = Om) and fit
 * x_{n+1} = p1 x_n - p2 x_{n-1} over steps burn .. nsteps-1 (least squares). */
static void measure(int scheme, double r, double Om, int burn, int nsteps, double *rho, double *arg) {
  osc o = {1.0, 0.0};
  cosrod_ode_problem p = osc_problem(&o);
  cosrod_integrate_options opt = cosrod_integrate_default_options();
  opt.fixed_step = 1;
  opt.h0 = Om;
  opt.rho_inf = r;
  opt.galpha_scheme = scheme;
  opt.rtol = opt.atol = 1e-12;
  opt.max_steps = nsteps + 10;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_galpha, &p, &opt, &st);
  CHECK("integrator created", it != NULL);
  if (!it) return;
  double y0[2] = {1.0, 0.3}, x[1200];
  cosrod_integrator_init(it, 0.0, y0, NULL);
  x[0] = y0[0];
  for (int k = 1; k <= nsteps && k < 1200; k++) {
    st = cosrod_integrator_evolve(it, k * Om, NULL);
    x[k] = cosrod_integrator_y(it)[0];
  }
  CHECK("fixed-step run ok", st == COSROD_OK);
  /* normal equations, rows scaled to unit size */
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (int k = burn; k < nsteps; k++) {
    double s = 1.0 / (fabs(x[k]) + fabs(x[k - 1]) + fabs(x[k + 1]) + 1e-300);
    double u = x[k] * s, v = -x[k - 1] * s, w = x[k + 1] * s;
    a11 += u * u, a12 += u * v, a22 += v * v, b1 += u * w, b2 += v * w;
  }
  double det = a11 * a22 - a12 * a12;
  double p1 = (b1 * a22 - a12 * b2) / det, p2 = (a11 * b2 - a12 * b1) / det;
  *rho = sqrt(p2);
  *arg = acos(p1 / (2.0 * *rho));
  cosrod_integrator_free(it);
}

static void check_scheme(int scheme, const char *name, const double *rhos, int nr) {
  const double Oms[] = {0.05, 0.2, 0.6, 1.2};
  char what[160];
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < 4; j++) {
      double complex z[3];
      char_roots(scheme, rhos[i], Oms[j], z);
      double rho_c = 0, arg_c = 0, rho_n = 0, arg_n = 0;
      principal(z, &rho_c, &arg_c);
      measure(scheme, rhos[i], Oms[j], 300, 600, &rho_n, &arg_n);
      /* the fit is exact up to round-off once the spurious root (|λ3| <= 0.7
       * here, 0.7^300 ~ 1e-46) has decayed: tolerance 1e-8 */
      snprintf(what, sizeof what, "%s rho_inf %.2f hw %.2f: spectral radius", name, rhos[i], Oms[j]);
      CHECK_NEAR(what, rho_n, rho_c, 1e-8);
      snprintf(what, sizeof what, "%s rho_inf %.2f hw %.2f: period elongation", name, rhos[i], Oms[j]);
      CHECK_NEAR(what, Oms[j] / arg_n - 1.0, Oms[j] / arg_c - 1.0, 1e-7);
      NOTE("%s rho_inf %.2f hw %.2f: rho %.10f (closed form %.10f), elongation %.3e (%.3e)", name, rhos[i],
           Oms[j], rho_n, rho_c, Oms[j] / arg_n - 1.0, Oms[j] / arg_c - 1.0);
    }
}

TEST(galpha_spectral_chung_hulbert) {
  const double rhos[] = {1.0, 0.8, 0.5, 0.0};
  check_scheme(COSROD_GALPHA_CHUNG_HULBERT, "generalized-alpha", rhos, 4);
  /* ρ∞ = 1: trapezoidal rule values (no dissipation, Ω̄ = 2 atan(Ω/2)) */
  for (double Om = 0.1; Om < 2.0; Om *= 2.0) {
    double rho_n, arg_n;
    measure(COSROD_GALPHA_CHUNG_HULBERT, 1.0, Om, 5, 400, &rho_n, &arg_n);
    CHECK_NEAR("rho_inf = 1: no numerical dissipation", rho_n, 1.0, 1e-10);
    CHECK_NEAR("rho_inf = 1: trapezoidal phase 2 atan(hw/2)", arg_n, 2.0 * atan(Om / 2.0), 1e-10);
  }
  /* Ω -> ∞: the closed-form roots tend to ρ∞ (the design property) */
  for (double r = 0.0; r <= 1.0; r += 0.25) {
    double complex z[3];
    char_roots(COSROD_GALPHA_CHUNG_HULBERT, r, 1e7, z);
    double m = fmax(cabs(z[0]), fmax(cabs(z[1]), cabs(z[2])));
    CHECK_NEAR("spectral radius at h w = 1e7 tends to rho_inf", m, r, 2e-3);
  }
}

TEST(galpha_spectral_hht_newmark) {
  const double rh[] = {1.0, 0.7, 0.5};
  check_scheme(COSROD_GALPHA_HHT, "HHT", rh, 3);
  const double rn[] = {1.0, 0.8};
  check_scheme(COSROD_GALPHA_NEWMARK, "Newmark", rn, 2);
}

/* Damped oscillator, exact solution. */
static void osc_exact(double w, double z, double t, double x0, double v0, double *x, double *v) {
  double wd = w * sqrt(1 - z * z), e = exp(-z * w * t);
  double A = x0, B = (v0 + z * w * x0) / wd;
  *x = e * (A * cos(wd * t) + B * sin(wd * t));
  *v = -z * w * *x + e * wd * (-A * sin(wd * t) + B * cos(wd * t));
}

TEST(galpha_second_order_fixed_step) {
  osc o = {2.0 * 3.14159265358979323846, 0.05};
  cosrod_ode_problem p = osc_problem(&o);
  const double rhos[] = {1.0, 0.8, 0.3};
  for (int i = 0; i < 3; i++) {
    double err[3];
    for (int k = 0; k < 3; k++) {
      cosrod_integrate_options opt = cosrod_integrate_default_options();
      opt.fixed_step = 1;
      opt.h0 = 0.01 / (1 << k);
      opt.rho_inf = rhos[i];
      opt.rtol = opt.atol = 1e-12;
      cosrod_status st;
      cosrod_integrator *it = cosrod_integrator_create(cosrod_step_galpha, &p, &opt, &st);
      double y0[2] = {1.0, 0.0}, y[2];
      st = cosrod_integrate(it, 0.0, y0, 3.0, NULL, y);
      CHECK("run ok", st == COSROD_OK);
      double xe, ve;
      osc_exact(o.w, o.zeta, 3.0, 1.0, 0.0, &xe, &ve);
      err[k] = fabs(y[0] - xe) + fabs(y[1] - ve) / o.w;
      cosrod_integrator_free(it);
    }
    double ord1 = log2(err[0] / err[1]), ord2 = log2(err[1] / err[2]);
    NOTE("rho_inf %.1f: errors %.3e %.3e %.3e, orders %.3f %.3f", rhos[i], err[0], err[1], err[2], ord1, ord2);
    CHECK_NEAR("observed order 2 (h -> h/2)", ord1, 2.0, 0.1);
    CHECK_NEAR("observed order 2 (h/2 -> h/4)", ord2, 2.0, 0.05);
  }
}

/* Steps alternating between d and 2 d (fixed step h0 = 2 d, every other
 * evolve ends d after the last): with a_n tied to the step it was computed
 * with (a_n ≈ v̇(t_n + (α_m - α_f) h)), alternating steps would leave an
 * O(h) error in a and a first-order method; the error must fall 4x per
 * halving of d. */
TEST(galpha_second_order_alternating_steps) {
  osc o = {2.0 * 3.14159265358979323846, 0.05};
  cosrod_ode_problem p = osc_problem(&o);
  const double rhos[] = {0.8, 0.5, 0.0};
  for (int i = 0; i < 3; i++) {
    double err[3];
    for (int k = 0; k < 3; k++) {
      const double d = 0.004 / (1 << k);
      cosrod_integrate_options opt = cosrod_integrate_default_options();
      opt.fixed_step = 1;
      opt.h0 = 2.0 * d;
      opt.rho_inf = rhos[i];
      opt.rtol = opt.atol = 1e-12;
      opt.max_steps = 100000;
      cosrod_status st;
      cosrod_integrator *it = cosrod_integrator_create(cosrod_step_galpha, &p, &opt, &st);
      double y0[2] = {1.0, 0.0};
      cosrod_integrator_init(it, 0.0, y0, NULL);
      const int ncyc = (int)lround(1.5 / (3.0 * d)); /* T = 1.5 */
      for (int c = 0; c < ncyc && st == COSROD_OK; c++) {
        st = cosrod_integrator_evolve(it, (3 * c + 1) * d, NULL);
        if (st == COSROD_OK) st = cosrod_integrator_evolve(it, (3 * c + 3) * d, NULL);
      }
      CHECK("run ok", st == COSROD_OK);
      CHECK("steps alternate d, 2d", cosrod_integrator_stats(it)->naccept == 2 * ncyc);
      double xe, ve, T = cosrod_integrator_t(it);
      const double *y = cosrod_integrator_y(it);
      osc_exact(o.w, o.zeta, T, 1.0, 0.0, &xe, &ve);
      err[k] = fabs(y[0] - xe) + fabs(y[1] - ve) / o.w;
      cosrod_integrator_free(it);
    }
    double ord1 = log2(err[0] / err[1]), ord2 = log2(err[1] / err[2]);
    NOTE("rho_inf %.1f alternating d, 2d: errors %.3e %.3e %.3e, orders %.3f %.3f", rhos[i], err[0], err[1], err[2],
         ord1, ord2);
    CHECK_NEAR("observed order 2 under step changes (d -> d/2)", ord1, 2.0, 0.15);
    CHECK_NEAR("observed order 2 under step changes (d/2 -> d/4)", ord2, 2.0, 0.1);
  }
}

typedef struct {
  const osc *o;
  double maxerr;
  int n;
} dense_check;

static int check_out(double t, const double *y, void *user) {
  dense_check *d = user;
  double xe, ve;
  osc_exact(d->o->w, d->o->zeta, t, 1.0, 0.0, &xe, &ve);
  d->maxerr = fmax(d->maxerr, fabs(y[0] - xe));
  d->n++;
  return 0;
}

TEST(galpha_adaptive_tolerance) {
  osc o = {2.0 * 3.14159265358979323846, 0.02};
  cosrod_ode_problem p = osc_problem(&o);
  const double tols[] = {1e-4, 1e-6};
  double tout[100];
  for (int k = 0; k < 100; k++) tout[k] = 0.05 * (k + 1);
  long steps[2];
  double errs[2];
  for (int i = 0; i < 2; i++) {
    cosrod_integrate_options opt = cosrod_integrate_default_options();
    opt.rtol = opt.atol = tols[i];
    cosrod_status st;
    cosrod_integrator *it = cosrod_integrator_create(cosrod_step_galpha, &p, &opt, &st);
    dense_check d = {&o, 0.0, 0};
    cosrod_output_spec out = {.t_out = tout, .n_out = 100, .output = check_out, .user = &d};
    double y0[2] = {1.0, 0.0}, y[2];
    st = cosrod_integrate(it, 0.0, y0, 5.0, &out, y);
    CHECK("adaptive run ok", st == COSROD_OK);
    CHECK("100 outputs", d.n == 100);
    steps[i] = cosrod_integrator_stats(it)->naccept;
    /* error per step control: each step's local error <= tol, so the global
     * error is at most ~ nsteps tol (phase errors add up) */
    NOTE("tol %.0e: %ld steps, max dense-output error %.3e", tols[i], steps[i], d.maxerr);
    CHECK_LE("dense output error within 2 nsteps tol", d.maxerr, 2.0 * (double)steps[i] * tols[i]);
    errs[i] = d.maxerr;
    cosrod_integrator_free(it);
  }
  /* local error O(h³): 100x tighter tolerance -> ~100^(1/3) = 4.6x more steps */
  double ratio = (double)steps[1] / (double)steps[0];
  CHECK("step count grows like tol^(-1/3)", ratio > 3.0 && ratio < 7.0);
  /* global error ~ nsteps tol ~ tol^(2/3): 100x tighter -> 0.046x the error */
  double eratio = errs[1] / errs[0];
  NOTE("error ratio %.4f (predicted 0.046)", eratio);
  CHECK("global error scales like tol^(2/3)", eratio > 0.02 && eratio < 0.1);
}

static const th_case cases[] = {TH_CASE(galpha_spectral_chung_hulbert), TH_CASE(galpha_spectral_hht_newmark),
                                TH_CASE(galpha_second_order_fixed_step), TH_CASE(galpha_second_order_alternating_steps),
                                TH_CASE(galpha_adaptive_tolerance)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
