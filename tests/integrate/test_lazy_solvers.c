// SPDX-License-Identifier: Apache-2.0
/* SUNDIALS and KLU are opened on first use (COSROD_LAZY_SOLVERS;
 * integrate/sundials_lazy.c, linalg/klu_lazy.c): a process maps neither
 * before it creates a sparse LU or an ida / cvode integrator, and the first
 * use loads them and computes the right answer.  (Before, libcosrod and the
 * module libraries were linked against them and every process mapped them
 * from its start.)  The KLU case comes first: in the grouped sanitizer runs
 * both cases share one process, and SUNDIALS' KLU solver maps libklu. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "cosrod/sparse.h"
#include "harness.h"

/* A = [[4, 1, 0], [1, 3, 0], [0, 0, 2]], b = (1, 2, 3): by Cramer's rule on
 * the 2 x 2 block (det 11) x = (1/11, 7/11, 3/2).  Tolerance: LU with
 * partial pivoting is backward stable, |dx| / |x| <= c n u cond(A) with
 * cond_2(A) = (7 + sqrt 5) / (7 - sqrt 5) ~ 1.94 (eigenvalues (7 +- sqrt 5) / 2
 * and 2), n = 3, u = 1.1e-16: with c = 10, 1e-14. */
TEST(klu_loaded_on_first_use) {
  if (!cosrod_sparse_available()) {
    NOTE("built without KLU: nothing to load");
    return;
  }
  CHECK("no libklu before the first sparse LU", th_mapped("libklu") == 0);
  CHECK("available before loading (does not load)", cosrod_sparse_available() == 1 && th_mapped("libklu") == 0);
  const int colptr[4] = {0, 2, 4, 5}, rowind[5] = {0, 1, 0, 1, 2};
  cosrod_status st;
  cosrod_sparse *A = cosrod_sparse_create(3, colptr, rowind, &st);
  CHECK("created", A != NULL && st == COSROD_OK);
  if (!A) return;
  const double v[5] = {4, 1, 1, 3, 2};
  memcpy(A->data, v, sizeof v);
  double b[3] = {1, 2, 3};
  CHECK("factored", cosrod_sparse_factor(A) == COSROD_OK);
  CHECK("solved", cosrod_sparse_solve(A, b) == COSROD_OK);
  CHECK_REL("x0", b[0], 1.0 / 11.0, 1e-14);
  CHECK_REL("x1", b[1], 7.0 / 11.0, 1e-14);
  CHECK_REL("x2", b[2], 1.5, 1e-14);
  CHECK("libklu mapped now", th_mapped("libklu") == 1);
  cosrod_sparse_free(A);
}

static int decay(double t, const double *y, double *ydot, void *user) {
  (void)t, (void)user;
  ydot[0] = -y[0];
  return 0;
}

/* y' = -y, y(0) = 1 on [0, 1] with ida and cvode: y(1) = exp(-1).  Bound:
 * the problem is contractive (|Phi(t, s)| = exp(-(t - s)) <= 1), so the end
 * error is at most the sum of the local errors, and each accepted step's
 * local error passed the weighted test |le| <= rtol |y| + atol <= rtol +
 * atol; with nsteps steps: |y(1) - exp(-1)| <= nsteps (rtol + atol) (the
 * argument assumes the BDF error estimate bounds the local error, true
 * asymptotically). */
TEST(sundials_loaded_on_first_use) {
  const cosrod_step_type *ida = cosrod_step_type_by_name("ida"), *cvode = cosrod_step_type_by_name("cvode");
  if (!ida || !cvode) {
    NOTE("built without SUNDIALS: nothing to load");
    return;
  }
  CHECK("no SUNDIALS library before the first ida / cvode", th_mapped("libsundials") == 0);
  const cosrod_step_type *types[2] = {ida, cvode};
  for (int k = 0; k < 2; k++) {
    cosrod_ode_problem p;
    memset(&p, 0, sizeof p);
    p.n = 1;
    p.f = decay;
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = 1e-8, o.atol = 1e-10;
    cosrod_status st;
    cosrod_integrator *it = cosrod_integrator_create(types[k], &p, &o, &st);
    CHECK("created", it != NULL);
    if (!it) continue;
    const double y0 = 1.0, yp0 = -1.0;
    st = cosrod_integrator_init(it, 0.0, &y0, &yp0);
    if (st == COSROD_OK) st = cosrod_integrator_evolve(it, 1.0, NULL);
    CHECK(k ? "cvode ran" : "ida ran", st == COSROD_OK);
    const double y1 = cosrod_integrator_y(it)[0];
    const long n = cosrod_integrator_stats(it)->nsteps;
    NOTE("%s: y(1) = %.15g, exp(-1) = %.15g, %ld steps", k ? "cvode" : "ida", y1, exp(-1.0), n);
    CHECK_LE("y(1) within nsteps (rtol + atol) of exp(-1)", fabs(y1 - exp(-1.0)), (double)n * (o.rtol + o.atol));
    cosrod_integrator_free(it);
  }
  CHECK("SUNDIALS' IDA and CVODE mapped now", th_mapped("libsundials_ida") == 1 && th_mapped("libsundials_cvode") == 1);
}

static const th_case cases[] = {TH_CASE(klu_loaded_on_first_use), TH_CASE(sundials_loaded_on_first_use)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
