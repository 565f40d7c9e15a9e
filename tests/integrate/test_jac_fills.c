// SPDX-License-Identifier: Apache-2.0
/* cosrod_ode_problem.jac_fills: with the flag the integrator does not zero J
 * before the analytic Jacobian callback (the callback writes every stored
 * entry).  Checked on a damped chain of masses (second-order structure
 * m1 = m2 = n/2, banded: the rod's SPLIT layout) and on its first-order form
 * (m1 = 0, banded: the NODE layout), with rodas, seulex and radau5 (and ida,
 * cvode on the first-order form):
 *   - the runs with and without the flag are identical (same J, same
 *     arithmetic: counts and final state equal exactly);
 *   - the callback sees the previous Jacobian on entry with the flag and
 *     zeros without it (the zeroing really is skipped / kept);
 *   - the final state matches the closed-form solution of the chain's
 *     modal decomposition within the tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "harness.h"

enum { M = 6 }; /* masses; state (x (M), v (M)) */
static const double K_SPRING = 50.0, C_DAMP = 0.3;
static const double PI_ = 3.14159265358979323846;

typedef struct {
  int m1;           /* 0: first-order form, M: second-order structure */
  long calls;       /* Jacobian calls */
  long saw_nonzero; /* calls that found a non-zero entry in J on entry */
  int ldj_ok;
  int ld_fill; /* extra rows of the integrator's band storage: ml for ida / cvode (LU fill-in, in place) */
} chain;

/* x'' = -K L x - c x', L = tridiag(-1, 2, -1) with fixed ends (Dirichlet). */
static int chain_f(double t, const double *y, double *yd, void *user) {
  (void)t, (void)user;
  const double *x = y, *v = y + M;
  for (int i = 0; i < M; i++) {
    double l = 2.0 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i < M - 1 ? x[i + 1] : 0.0);
    yd[i] = v[i];
    yd[M + i] = -K_SPRING * l - C_DAMP * v[i];
  }
  return 0;
}

/* Writes every band entry of the storage (zeros included), as jac_fills requires. */
static int chain_jac(double t, const double *y, double *J, int ldj, void *user) {
  (void)t, (void)y;
  chain *c = user;
  c->calls++;
  int nz = 0;
  if (c->m1 > 0) {
    /* rows: the M v-rows; q-block columns 0..M-1 with bandwidths 1/1, v-block
     * columns M..2M-1 with 0/0; ldj = 3 */
    c->ldj_ok &= ldj == 3;
    for (int j = 0; j < 2 * M; j++)
      for (int r = 0; r < (j < M ? 3 : 1); r++) nz |= J[(size_t)j * (size_t)ldj + (size_t)r] != 0.0;
    for (int j = 0; j < M; j++)
      for (int r = 0; r < 3; r++) { /* entry (i, j), i = j + r - mu (mu = 1) */
        int i = j + r - 1;
        double v = 0.0;
        if (i >= 0 && i < M) v = i == j ? -2.0 * K_SPRING : K_SPRING;
        J[(size_t)j * (size_t)ldj + (size_t)r] = v;
      }
    for (int j = M; j < 2 * M; j++) J[(size_t)j * (size_t)ldj] = -C_DAMP;
  } else {
    /* whole J (2M x 2M), bandwidths ml = mu = M: rows 0 .. 2M of every column */
    c->ldj_ok &= ldj == 2 * M + 1 + c->ld_fill;
    for (int j = 0; j < 2 * M; j++)
      for (int r = 0; r <= 2 * M; r++) nz |= J[(size_t)j * (size_t)ldj + (size_t)r] != 0.0;
    for (int j = 0; j < 2 * M; j++)
      for (int r = 0; r <= 2 * M; r++) {
        int i = j + r - M;
        double v = 0.0;
        if (i >= 0 && i < 2 * M) {
          if (i < M)
            v = j == i + M ? 1.0 : 0.0; /* x' = v */
          else if (j < M)
            v = j == i - M ? -2.0 * K_SPRING : (abs(j - (i - M)) == 1 ? K_SPRING : 0.0);
          else
            v = j == i ? -C_DAMP : 0.0;
        }
        J[(size_t)j * (size_t)ldj + (size_t)r] = v;
      }
  }
  if (nz) c->saw_nonzero++;
  return 0;
}

/* Closed form: modes sin(k π i / (M+1)), eigenvalues μ_k = 4 K sin²(k π / (2(M+1))),
 * each a damped oscillator x'' + c x' + μ x = 0 from x(0) = e_0 (first mass), v(0) = 0. */
static void chain_exact(double t, double *x) {
  for (int i = 0; i < M; i++) x[i] = 0.0;
  for (int k = 1; k <= M; k++) {
    double mu = 4.0 * K_SPRING * pow(sin(k * PI_ / (2.0 * (M + 1))), 2);
    double w = sqrt(mu - 0.25 * C_DAMP * C_DAMP), a = 0.5 * C_DAMP;
    double amp = 2.0 / (M + 1) * sin(k * PI_ * 1.0 / (M + 1)); /* projection of e_0 on mode k */
    double q = amp * exp(-a * t) * (cos(w * t) + a / w * sin(w * t));
    for (int i = 0; i < M; i++) x[i] += q * sin(k * PI_ * (i + 1) / (M + 1));
  }
}

typedef struct {
  cosrod_integrate_stats st;
  double y[2 * M];
  chain c;
  cosrod_status status;
} result;

static result run(const char *method, int m1, int fills) {
  result r;
  memset(&r, 0, sizeof r);
  r.c.m1 = m1;
  r.c.ldj_ok = 1;
  r.c.ld_fill = (!strcmp(method, "ida") || !strcmp(method, "cvode")) ? M : 0;
  cosrod_ode_problem p = {0};
  p.n = 2 * M;
  p.f = chain_f;
  p.jac = chain_jac;
  p.user = &r.c;
  p.jac_banded = 1;
  if (m1) {
    p.m1 = p.m2 = M;
    p.jac_ml_q = p.jac_mu_q = 1;
    p.jac_ml = p.jac_mu = 0;
  } else {
    p.jac_ml = p.jac_mu = M;
  }
  p.jac_fills = fills;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-8;
  cosrod_status cs;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &cs);
  if (!it) {
    r.status = cs;
    return r;
  }
  double y0[2 * M] = {1.0};
  r.status = cosrod_integrate(it, 0.0, y0, 2.0, NULL, r.y);
  r.st = *cosrod_integrator_stats(it);
  cosrod_integrator_free(it);
  return r;
}

static void check_method(const char *method, int m1) {
  char what[128];
  result a = run(method, m1, 0), b = run(method, m1, 1);
  snprintf(what, sizeof what, "%s m1 = %d: both runs ok", method, m1);
  CHECK(what, a.status == COSROD_OK && b.status == COSROD_OK);
  snprintf(what, sizeof what, "%s m1 = %d: ldj as documented", method, m1);
  CHECK(what, a.c.ldj_ok && b.c.ldj_ok);
  /* identical J and arithmetic: identical counts and bitwise identical states */
  snprintf(what, sizeof what, "%s m1 = %d: same steps with and without jac_fills", method, m1);
  CHECK(what, a.st.nsteps == b.st.nsteps && a.st.njev == b.st.njev && a.st.nfev == b.st.nfev);
  double d = 0.0;
  for (int i = 0; i < 2 * M; i++) d = fmax(d, fabs(a.y[i] - b.y[i]));
  snprintf(what, sizeof what, "%s m1 = %d: same final state", method, m1);
  CHECK_LE(what, d, 0.0);
  /* without the flag J arrives zeroed; with it, from the 2nd call on, the
   * previous Jacobian is still there (the zeroing was skipped; a linear problem
   * may need one Jacobian only, e.g. seulex m1 = 6: then vacuous, the m1 = 0
   * runs take many) */
  snprintf(what, sizeof what, "%s m1 = %d: J zeroed before every call without jac_fills", method, m1);
  CHECK(what, a.c.saw_nonzero == 0 && a.c.calls >= 1);
  snprintf(what, sizeof what, "%s m1 = %d: J not zeroed with jac_fills", method, m1);
  CHECK(what, b.c.saw_nonzero == b.c.calls - 1);
  /* against the closed form: tolerance 1e-8 over 2 s with ~3 oscillation
   * periods of the fastest mode; global error well below 1e-5 */
  double xe[M];
  chain_exact(2.0, xe);
  snprintf(what, sizeof what, "%s m1 = %d: x(2) vs closed form", method, m1);
  CHECK_VEC(what, b.y, xe, M, 0.0, 1e-5);
  NOTE("%s m1 = %d: %ld steps, %ld Jacobians", method, m1, b.st.nsteps, b.st.njev);
}

TEST(jac_fills_rodas) {
  check_method("rodas", M);
  check_method("rodas", 0);
}
TEST(jac_fills_seulex) {
  check_method("seulex", M);
  check_method("seulex", 0);
}
TEST(jac_fills_radau5) {
  check_method("radau5", M);
  check_method("radau5", 0);
}

/* ida (F = y' - f: the callback writes into our band matrix, which holds the
 * previous LU factors on entry with the flag) and cvode (into the saved
 * Jacobian of our linear-system function), first-order form only: with
 * m1 > 0 they expand into a dense matrix.  Without SUNDIALS the methods
 * must be absent from the registry. */
TEST(jac_fills_ida_cvode) {
#ifdef COSROD_TEST_SUNDIALS
  check_method("ida", 0);
  check_method("cvode", 0);
#else
  CHECK("built without SUNDIALS: no ida, no cvode",
        !cosrod_step_type_by_name("ida") && !cosrod_step_type_by_name("cvode"));
#endif
}

static const th_case cases[] = {TH_CASE(jac_fills_rodas), TH_CASE(jac_fills_seulex),
                                TH_CASE(jac_fills_radau5), TH_CASE(jac_fills_ida_cvode)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
