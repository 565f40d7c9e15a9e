// SPDX-License-Identifier: Apache-2.0
/* No allocation in the time loop (DEVELOPERS brief, STYLE.md §6).
 *
 * This binary is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * so every allocation made by cosrod's own code (the static module libraries
 * linked here) goes through the counters below.  After the objects are
 * created, evaluating the rod (forces, right-hand sides, residual, analytic
 * Jacobians, stiffness) and integrating it with each method must not
 * allocate at all: the reference count is exactly 0.  The creation phase is
 * checked to allocate (count > 0), which shows the counter works. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/integrate.h"
#include "cosrod/rod.h"
#include "harness.h"

#include "alloc_count.h"

/* A damped, loaded, clamped-free rod bent by gravity and a follower tip load. */
static cosrod_rod *make_rod(int N) {
  static cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, -1, {0.01, 0.0, 0.0}, COSROD_PROFILE_RAMP, 0.0, 0.05};
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.curvature = COSROD_CURV_TANGENT2;
  def.damping = COSROD_DAMPING_KELVIN_VOIGT;
  def.tau_shear = def.tau_bulk = 1e-3;
  def.direction[0] = 0, def.direction[1] = 1, def.direction[2] = 0;
  def.normal[0] = 0, def.normal[1] = 0, def.normal[2] = 1;
  def.gravity[2] = -9.81;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.nloads = 1;
  def.loads = &load;
  return cosrod_rod_create(&def, NULL);
}

TEST(rod_evaluation_does_not_allocate) {
  long before = g_allocs;
  cosrod_rod *rod = make_rod(20);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  long created = g_allocs - before; /* allocations made inside libcosrod's create functions */
  int nq = cosrod_rod_nq(rod);
  int nyA = cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE), nyN = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE),
      nyD = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  double *yA = calloc((size_t)nyA, sizeof *yA), *fA = calloc((size_t)nyA, sizeof *fA);
  double *yN = calloc((size_t)nyN, sizeof *yN), *fN = calloc((size_t)nyN, sizeof *fN);
  double *yD = calloc((size_t)nyD, sizeof *yD), *ypD = calloc((size_t)nyD, sizeof *ypD),
         *rD = calloc((size_t)nyD, sizeof *rD);
  int mlq, muq, mlv, muv;
  cosrod_rod_bandwidth(rod, COSROD_FORM_ABSOLUTE, &mlq, &muq, &mlv, &muv);
  int ldj = (mlq + muq > mlv + muv ? mlq + muq : mlv + muv) + 1;
  double *J = calloc((size_t)ldj * (size_t)(2 * nq), sizeof *J);
  cosrod_band *K = cosrod_band_create(nq, 10, 10, NULL);
  cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, yA);
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, yN);
  cosrod_rod_initial_state(rod, COSROD_FORM_DAE, yD);

  before = g_allocs;
  double acc = 0.0;
  for (int it = 0; it < 50; it++) {
    double t = 0.001 * it;
    cosrod_rod_eval(rod, d, COSROD_FORM_ABSOLUTE, t, yA);
    cosrod_rod_rhs_absolute(rod, d, t, yA, fA);
    cosrod_rod_rhs_nullspace(rod, d, t, yN, fN);
    cosrod_rod_res_dae(rod, d, t, yD, ypD, rD);
    cosrod_rod_jac_second_order(rod, d, t, yA, J, ldj, mlq, muq, mlv, muv);
    cosrod_rod_stiffness(rod, d, t, yA, K);
    acc += fA[nyA - 1] + fN[nyN - 1] + rD[0] + J[ldj] + K->data[K->ld * 3];
  }
  long during = g_allocs - before;
  CHECK("cosrod_rod_create/data_create allocate: the counter sees the library's allocations", created > 0);
  CHECK("results are finite", isfinite(acc));
  CHECK_LE("allocations in 50 x (eval, 3 right-hand sides, Jacobian, stiffness)", (double)during, 0.0);
  free(yA), free(fA), free(yN), free(fN), free(yD), free(ypD), free(rD), free(J);
  cosrod_band_free(K);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

typedef struct rod_ctx {
  const cosrod_rod *rod;
  cosrod_rod_data *d;
  int nq;
  cosrod_ode_problem *p;
} rod_ctx;

static int rhs(double t, const double *y, double *ydot, void *user) {
  rod_ctx *c = user;
  return cosrod_rod_rhs_absolute(c->rod, c->d, t, y, ydot);
}
static int jac(double t, const double *y, double *J, int ldj, void *user) {
  rod_ctx *c = user;
  return cosrod_rod_jac_second_order(c->rod, c->d, t, y, J, ldj, c->p->jac_ml_q, c->p->jac_mu_q, c->p->jac_ml,
                                     c->p->jac_mu) == COSROD_OK
             ? 0
             : -1;
}
static int project(double t, double *y, void *user) {
  (void)t;
  rod_ctx *c = user;
  return cosrod_rod_project(c->rod, COSROD_FORM_ABSOLUTE, y) == COSROD_OK ? 0 : -1;
}
static int out_fn(double t, const double *y, void *user) {
  (void)t;
  *(double *)user += y[0];
  return 0;
}

/* Each one-step method integrates the rod (analytic banded second-order
 * Jacobian, projection, dense output at 20 output times) without allocating
 * after cosrod_integrator_create / init. */
TEST(integration_loop_does_not_allocate) {
  const char *methods[] = {"radau5", "rodas", "seulex", "dopri5", "dop853", "odex"};
  cosrod_rod *rod = make_rod(10);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE);
  double *y0 = calloc((size_t)ny, sizeof *y0);
  cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, y0);
  cosrod_ode_problem p = {0};
  rod_ctx c = {rod, d, cosrod_rod_nq(rod), &p};
  p.n = ny;
  p.f = rhs;
  p.jac = jac;
  p.user = &c;
  p.jac_banded = 1;
  p.m1 = p.m2 = c.nq;
  cosrod_rod_bandwidth(rod, COSROD_FORM_ABSOLUTE, &p.jac_ml_q, &p.jac_mu_q, &p.jac_ml, &p.jac_mu);
  p.time_dependent = 1;
  p.project = project;
  double tout[20];
  for (int i = 0; i < 20; i++) tout[i] = 0.005 * (i + 1);
  for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
    const cosrod_step_type *T = cosrod_step_type_by_name(methods[m]);
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 1e-4;
    o.stiff_continue = 1;
    double sum = 0.0;
    cosrod_output_spec out = {tout, 20, 0, 0, out_fn, NULL, &sum};
    cosrod_status st;
    cosrod_integrator *I = cosrod_integrator_create(T, &p, &o, &st);
    if (!I) {
      CHECK(methods[m], 0);
      continue;
    }
    cosrod_integrator_init(I, 0.0, y0, NULL);
    long before = g_allocs;
    st = cosrod_integrator_evolve(I, 0.1, &out);
    long during = g_allocs - before;
    const cosrod_integrate_stats *s = cosrod_integrator_stats(I);
    NOTE("%s: %s, %ld steps, %ld f, %ld Jacobians", methods[m], cosrod_strerror(st), s->nsteps, s->nfev,
         s->njev);
    char what[96];
    snprintf(what, sizeof what, "%s reaches t = 0.1 with finite output", methods[m]);
    CHECK(what, st == COSROD_OK && isfinite(sum));
    snprintf(what, sizeof what, "%s: allocations during evolve (%ld steps)", methods[m], s->nsteps);
    CHECK_LE(what, (double)during, 0.0);
    cosrod_integrator_free(I);
  }
  free(y0);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

/* The sparse shape (KLU): a chain of M stiff springs whose two ends hang on
 * one extra unknown placed last (the band would be full).  cosrod's own
 * code must not allocate in the loop; KLU's numeric object is allocated by
 * the shared libklu at the first factorisation (and at a re-pivoting), which
 * the wrapped counters do not see -- documented in cosrod/sparse.h. */
enum { HM = 30, HN = HM + 1 };
static int hub_rhs(double t, const double *y, double *f, void *user) {
  (void)t, (void)user;
  for (int i = 0; i < HM; i++) {
    double l = i > 0 ? y[i - 1] : y[HM], r = i < HM - 1 ? y[i + 1] : y[HM];
    f[i] = 300.0 * (l - 2.0 * y[i] + r) - y[i] * y[i] * y[i];
  }
  f[HM] = 300.0 * (y[0] + y[HM - 1] - 2.0 * y[HM]);
  return 0;
}

TEST(sparse_integration_loop_does_not_allocate) {
  static int cp[HN + 1], ri[3 * HN + 4];
  int e = 0;
  cp[0] = 0;
  for (int j = 0; j < HN; j++) {
    if (j < HM) {
      for (int i = j - 1; i <= j + 1; i++)
        if (i >= 0 && i < HM) ri[e++] = i;
      if (j == 0 || j == HM - 1) ri[e++] = HM;
    } else {
      ri[e++] = 0, ri[e++] = HM - 1, ri[e++] = HM;
    }
    cp[j + 1] = e;
  }
  cosrod_ode_problem p = {0};
  p.n = HN;
  p.f = hub_rhs;
  p.jac_banded = 1;
  p.jac_ml = p.jac_mu = HN - 1;
  p.jac_sparse = 1;
  p.jac_colptr = cp;
  p.jac_rowind = ri;
  const char *methods[] = {"radau5", "rodas", "seulex"};
  double y0[HN];
  for (int i = 0; i < HN; i++) y0[i] = sin(0.3 * i);
  for (size_t m = 0; m < 3; m++) {
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 1e-6;
    cosrod_status st;
    cosrod_integrator *I = cosrod_integrator_create(cosrod_step_type_by_name(methods[m]), &p, &o, &st);
    if (!I) {
      CHECK(methods[m], 0);
      continue;
    }
    cosrod_integrator_init(I, 0.0, y0, NULL);
    long before = g_allocs;
    st = cosrod_integrator_evolve(I, 0.2, NULL);
    long during = g_allocs - before;
    const cosrod_integrate_stats *s = cosrod_integrator_stats(I);
    char what[96];
    snprintf(what, sizeof what, "%s (sparse) reaches t = 0.2 (%ld steps, %ld LU)", methods[m], s->nsteps,
             s->ndecomp);
    CHECK(what, st == COSROD_OK && s->ndecomp > 2);
    snprintf(what, sizeof what, "%s (sparse): cosrod allocations during evolve", methods[m]);
    CHECK_LE(what, (double)during, 0.0);
    cosrod_integrator_free(I);
  }
}

static const th_case cases[] = {TH_CASE(rod_evaluation_does_not_allocate),
                                TH_CASE(integration_loop_does_not_allocate),
                                TH_CASE(sparse_integration_loop_does_not_allocate)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
