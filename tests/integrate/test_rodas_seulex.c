// SPDX-License-Identifier: Apache-2.0
/* Mass-matrix paths of rodas and seulex (lsys.c): every storage combination
 * (dense full M; diagonal M banded or dense; with and without the M1
 * reduction; banded J with dense M).
 *
 * Reference: a test problem y' = g(y) is rewritten as M y' = M g(y) with the
 * Jacobian M g'(y).  Both methods are invariant under this change in exact
 * arithmetic (every linear system becomes M (fac I - J) u = M r, the error
 * norms are unchanged), so the solution must equal the run without M up to
 * roundoff, with the same number of steps, and the end value must meet the
 * problem's bound against its exact solution. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "itest.h"

enum { NMAX = 32 };
typedef struct mw {
  cosrod_ode_problem base;
  int full;               /* dense full M (m1 == 0, dense J) */
  double Md[NMAX * NMAX]; /* full M, column-major n x n */
  double mdiag[NMAX];     /* diagonal of the (n - m1) block */
  int mass_banded;
} mw;

static int mw_f(double t, const double *y, double *f, void *u) {
  const mw *w = u;
  const int n = w->base.n, m1 = w->base.m1;
  int rc = w->base.f(t, y, f, w->base.user);
  if (rc) return rc;
  if (w->full) {
    double tmp[NMAX];
    for (int i = 0; i < n; i++) {
      tmp[i] = 0.0;
      for (int j = 0; j < n; j++) tmp[i] += w->Md[i + j * n] * f[j];
    }
    memcpy(f, tmp, sizeof(double) * (size_t)n);
  } else {
    for (int i = 0; i < n - m1; i++) f[m1 + i] *= w->mdiag[i];
  }
  return 0;
}

static int mw_jac(double t, const double *y, double *J, int ld, void *u) {
  const mw *w = u;
  const cosrod_ode_problem *b = &w->base;
  const int n = b->n, m1 = b->m1, nm1 = n - m1, m2 = b->m2 > 0 ? b->m2 : m1;
  int rc = b->jac(t, y, J, ld, b->user);
  if (rc) return rc;
  if (w->full) { /* J <- M J (dense n x n) */
    double tmp[NMAX * NMAX];
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = 0; k < n; k++) s += w->Md[i + k * n] * J[k + j * ld];
        tmp[i + j * n] = s;
      }
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) J[i + j * ld] = tmp[i + j * n];
    return 0;
  }
  for (int j = 0; j < n; j++) {
    if (!b->jac_banded) {
      for (int i = 0; i < nm1; i++) J[i + j * ld] *= w->mdiag[i];
      continue;
    }
    int c, ml, mu;
    if (m1 == 0)
      c = j, ml = b->jac_ml, mu = b->jac_mu;
    else if (j < m1)
      c = j % m2, ml = b->jac_ml_q, mu = b->jac_mu_q;
    else
      c = j - m1, ml = b->jac_ml, mu = b->jac_mu;
    for (int i = c - mu < 0 ? 0 : c - mu; i <= c + ml && i < nm1; i++) J[j * ld + mu + i - c] *= w->mdiag[i];
  }
  return 0;
}

/* M in the storage the problem declares (dense, or banded with mass_mu). */
static int mw_mass(double *M, int ld, void *u) {
  const mw *w = u;
  const int n = w->base.n, nm1 = n - w->base.m1, banded = w->mass_banded;
  if (w->full) {
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        if (w->Md[i + j * n] != 0.0) cosrod_jac_set(M, ld, banded, 1, i, j, w->Md[i + j * n]);
  } else {
    for (int i = 0; i < nm1; i++) cosrod_jac_set(M, ld, banded, 0, i, i, w->mdiag[i]);
  }
  return 0;
}

/* Run `method` on problem `name` with and without the mass matrix. */
static void check_mass(const char *method, const char *name, int full, int mass_banded) {
  const cosrod_step_type *T = cosrod_step_type_by_name(method);
  const itest_problem *P = itest_problem_by_name(name);
  CHECK("method and problem exist", T && P);
  if (!T || !P) return;
  static mw w;
  memset(&w, 0, sizeof w);
  P->setup(&w.base);
  const int n = P->n, nm1 = n - w.base.m1;
  w.full = full;
  w.mass_banded = mass_banded;
  if (full) {
    for (int i = 0; i < n; i++) w.Md[i + i * n] = 2.0 + 0.25 * i;
    for (int i = 0; i + 1 < n; i++) w.Md[i + (i + 1) * n] = w.Md[i + 1 + i * n] = 0.5; /* SPD, tridiagonal */
  }
  for (int i = 0; i < nm1; i++) w.mdiag[i] = 1.0 + 0.1 * i;
  cosrod_ode_problem pm = w.base;
  pm.f = mw_f;
  pm.jac = mw_jac;
  pm.user = &w;
  pm.mass = mw_mass;
  pm.mass_banded = mass_banded;
  pm.mass_ml = full ? 1 : 0;
  pm.mass_mu = full ? 1 : 0;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = P->tol;
  o.atol = P->tol * P->atol_per_rtol;
  double y0[NMAX], ym[NMAX], yp[NMAX], ex[NMAX];
  memcpy(y0, P->y0, sizeof(double) * (size_t)n);
  char what[200];
  cosrod_status st = COSROD_OK;
  cosrod_integrator *it = cosrod_integrator_create(T, &pm, &o, &st);
  snprintf(what, sizeof what, "%s on %s with M (full %d, banded %d): created", method, name, full,
           mass_banded);
  CHECK(what, it != NULL);
  if (!it) return;
  st = cosrod_integrate(it, P->t0, y0, P->t_end, NULL, ym);
  cosrod_integrate_stats sm = *cosrod_integrator_stats(it);
  cosrod_integrator_free(it);
  cosrod_integrate_stats sp;
  itest_run(T, P, &o, NULL, yp, &sp, NULL, 0);
  P->exact(P->t_end, ex);
  double diff = itest_max_error(n, ym, yp), e = itest_scaled_error(n, ym, ex, o.rtol, o.atol);
  NOTE("%s on %s, M full %d banded %d: |y_M - y| = %.2e, end error %.3g tol units, steps %ld (without M %ld)",
       method, name, full, mass_banded, diff, e, sm.nsteps, sp.nsteps);
  snprintf(what, sizeof what, "%s on %s with M: status OK", method, name);
  CHECK(what, st == COSROD_OK);
  /* equivalent systems: only roundoff differs (|y| ~ 1, ~1e3 steps x 1e-16 x condition ~ 10) */
  snprintf(what, sizeof what, "%s on %s: max |y_M - y_without_M|", method, name);
  CHECK_LE(what, diff, 1e-9);
  snprintf(what, sizeof what, "%s on %s: same number of steps with and without M", method, name);
  CHECK(what, sm.nsteps == sp.nsteps);
  /* a-priori bound of the global error (itest_global_bound); |y_i| <= 1 on the linear problem
   * (rotation of (1, 0); 1.5 e^-t - e^-2t and e^-2t) */
  const double bound = itest_global_bound(P, itest_method_by_name(method), o.rtol, o.atol, sm.naccept, 1.0);
  snprintf(what, sizeof what, "%s on %s with M: max end error vs exact <= G sqrt(n) naccept sk_max", method,
           name);
  CHECK(what, bound > 0.0);
  CHECK_LE(what, itest_max_error(n, ym, ex), bound);
}

TEST(mass_dense_full) {
  check_mass("rodas", "linear", 1, 0);
  check_mass("seulex", "linear", 1, 0);
}
TEST(mass_banded_tridiagonal_with_dense_jacobian) {
  check_mass("rodas", "linear", 1, 1);
  check_mass("seulex", "linear", 1, 1);
}
TEST(mass_banded_diagonal_m1_banded) {
  check_mass("rodas", "chain", 0, 1);
  check_mass("seulex", "chain", 0, 1);
}
TEST(mass_dense_diagonal_m1_dense) {
  check_mass("rodas", "chain_dense", 0, 0);
  check_mass("seulex", "chain_dense", 0, 0);
}
TEST(mass_banded_interleaved) {
  check_mass("rodas", "chain_banded", 0, 1);
  check_mass("seulex", "chain_banded", 0, 1);
}
TEST(mass_dense_with_banded_jacobian) {
  check_mass("rodas", "chain_banded", 0, 0);
  check_mass("seulex", "chain_banded", 0, 0);
}

/* A singular iteration matrix at every step size (M = 0 and f = 0, so
 * fac M - J = 0): both methods must stop with ERR_SINGULAR and a message
 * after five halvings, not loop until h underflows. */
static int zero_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)y, (void)u;
  f[0] = f[1] = 0.0;
  return 0;
}
static int zero_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)J, (void)ld, (void)u;
  return 0;
}
static int zero_mass(double *M, int ld, void *u) {
  (void)M, (void)ld, (void)u;
  return 0;
}
TEST(singular_matrix_fails_cleanly) {
  const char *names[2] = {"rodas", "seulex"};
  for (int m = 0; m < 2; m++) {
    cosrod_ode_problem p = {0};
    p.n = 2;
    p.f = zero_f;
    p.jac = zero_jac;
    p.mass = zero_mass;
    cosrod_status st = COSROD_OK;
    cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(names[m]), &p, NULL, &st);
    double y0[2] = {1.0, 2.0}, y[2];
    st = cosrod_integrate(it, 0.0, y0, 1.0, NULL, y);
    const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
    NOTE("%s: %s after %ld attempts: %s", names[m], cosrod_status_name(st), s->nsteps,
         cosrod_integrator_message(it));
    char what[120];
    snprintf(what, sizeof what, "%s: ERR_SINGULAR", names[m]);
    CHECK(what, st == COSROD_ERR_SINGULAR);
    /* the number of singular matrices in a row before giving up is the
     * documented policy (README: 4 = h, h/2, h/4, h/8 for radau5, rodas and
     * seulex); every attempt is a convergence failure (integrate.h) */
    const long want = 4;
    snprintf(what, sizeof what, "%s: gave up after %ld attempts, all convergence failures", names[m], want);
    CHECK(what, s->nsteps == want && s->nconvfail == want && s->naccept == 0 && s->nreject == 0);
    snprintf(what, sizeof what, "%s: message names the singular matrix", names[m]);
    CHECK(what, strstr(cosrod_integrator_message(it), "singular") != NULL);
    snprintf(what, sizeof what, "%s: state kept at t0", names[m]);
    CHECK(what, cosrod_integrator_t(it) == 0.0 && y[0] == 1.0 && y[1] == 2.0);
    cosrod_integrator_free(it);
  }
}

/* The LAPACK backend (dgetrf/dgbtrf) gives the same run as the own LU: same
 * step counts, end values equal to roundoff (pivoting is the same partial
 * pivoting; differences come only from the operation order). */
TEST(lapack_backend_same_run) {
  const char *methods[2] = {"rodas", "seulex"}, *problems[3] = {"vdp", "chain", "chain_banded"};
  char what[160];
  for (int m = 0; m < 2; m++)
    for (int q = 0; q < 3; q++) {
      const itest_problem *P = itest_problem_by_name(problems[q]);
      const cosrod_step_type *T = cosrod_step_type_by_name(methods[m]);
      double y0[NMAX], y1[NMAX];
      cosrod_integrate_stats s0, s1;
      cosrod_integrate_options o = cosrod_integrate_default_options();
      o.rtol = P->tol;
      o.atol = P->tol * P->atol_per_rtol;
      itest_run(T, P, &o, NULL, y0, &s0, NULL, 0);
      o.linalg_backend = 1;
      cosrod_status st = itest_run(T, P, &o, NULL, y1, &s1, NULL, 0);
      double d = itest_max_error(P->n, y0, y1);
      NOTE("%s on %s: own vs LAPACK: |dy| = %.2e, steps %ld / %ld", methods[m], problems[q], d, s0.nsteps,
           s1.nsteps);
      snprintf(what, sizeof what, "%s on %s: LAPACK status OK", methods[m], problems[q]);
      CHECK(what, st == COSROD_OK);
      snprintf(what, sizeof what, "%s on %s: same number of steps", methods[m], problems[q]);
      CHECK(what, s0.nsteps == s1.nsteps);
      /* relative to |y| ~ 1 (VdP: |y2| ~ 1): roundoff over ~1e3 steps */
      snprintf(what, sizeof what, "%s on %s: end values equal to roundoff", methods[m], problems[q]);
      CHECK_LE(what, d, 1e-9);
    }
}

static const th_case cases[] = {
    TH_CASE(mass_dense_full),
    TH_CASE(mass_banded_tridiagonal_with_dense_jacobian),
    TH_CASE(mass_banded_diagonal_m1_banded),
    TH_CASE(mass_dense_diagonal_m1_dense),
    TH_CASE(mass_banded_interleaved),
    TH_CASE(mass_dense_with_banded_jacobian),
    TH_CASE(singular_matrix_fails_cleanly),
    TH_CASE(lapack_backend_same_run),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
