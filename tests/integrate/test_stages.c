// SPDX-License-Identifier: Apache-2.0
/* The numerics kept for the rewritten integrators, without any step control:
 * radau5_stages (Radau IIA stage systems, error estimate (HW II (8.19)),
 * collocation dense output), seulex_tableau (linearly implicit Euler sweep,
 * Aitken–Neville tableau, dense output) and rodas_stages (Rosenbrock stages,
 * embedded estimate, dense output).  Orders are observed from one step of
 * size h and h/2 from the same point on
 *     y1' = a y1 + cos t (a = -2),  y2' = -y2^2,   y(0) = (1, 1),
 * exact y1 = (1 + a/(a²+1)) e^{at} + (sin t − a cos t)/(a²+1), y2 = 1/(1 + t).
 * Expected local orders (HW II §IV.5, §IV.7–IV.9): Radau IIA (order 5) step
 * error O(h^6), estimate O(h^4), collocation polynomial O(h^4) between the
 * nodes (stage order 3); RODAS (order 4) O(h^5), u_6 O(h^4), dense output of
 * order 3: O(h^4); extrapolated Euler T_jj (order j) O(H^{j+1}).  Observed
 * exponents log2(e(h)/e(h/2)) carry O(h) corrections: ±0.5 is allowed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "harness.h"
#include "integrate/radau5_stages.h"
#include "integrate/rodas_stages.h"
#include "integrate/seulex_tableau.h"

static const double A = -2.0;

static int rhs(double t, const double *y, double *f, void *u) {
  (void)u;
  f[0] = A * y[0] + cos(t);
  f[1] = -y[1] * y[1];
  return 0;
}
static int jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  J[0] = A;
  J[1 + ld] = -2.0 * y[1];
  return 0;
}
static void exact(double t, double *y) {
  y[0] = (1.0 + A / (A * A + 1.0)) * exp(A * t) + (sin(t) - A * cos(t)) / (A * A + 1.0);
  y[1] = 1.0 / (1.0 + t);
}

/* A context as the driver would set it up (tolerances 1e-6). */
typedef struct fixture {
  cosrod_ode_problem p;
  cosrod_integrate_options o;
  cosrod_integrate_stats st;
  double rtol[2], atol[2], y[2];
  char msg[256];
  cosrod_step_ctx c;
} fixture;

static void fixture_init(fixture *x, int time_dependent) {
  memset(x, 0, sizeof *x);
  x->p.n = 2;
  x->p.f = rhs;
  x->p.jac = jac;
  x->p.time_dependent = time_dependent;
  x->o = cosrod_integrate_default_options();
  x->rtol[0] = x->rtol[1] = x->atol[0] = x->atol[1] = 1e-6;
  x->y[0] = x->y[1] = 1.0;
  cosrod_step_ctx *c = &x->c;
  c->problem = &x->p;
  c->opts = &x->o;
  c->n = 2;
  c->rtol = x->rtol;
  c->atol = x->atol;
  c->stats = &x->st;
  c->y = x->y;
  c->dir = 1.0;
  c->hmax = 1.0;
  c->uround = 0.5 * 2.220446049250313e-16;
  c->msg = x->msg;
  c->msg_size = sizeof x->msg;
}

static double observed(double e_h, double e_h2) { return log2(fabs(e_h) / fabs(e_h2)); }

/* One converged Radau IIA step of size h from (0, y): y1 error (component 1),
 * estimate norm, dense-output error at θ = 1/2 (max over components). */
static void radau5_one_step(radau5_stages *S, fixture *x, double h, double *e_y1, double *est, double *e_dense) {
  double ex[2], out[2];
  CHECK("factor OK", radau5_stages_factor(S, &x->c, h) == COSROD_OK);
  radau5_stages_set_scale(S, x->rtol, x->atol, x->y, h);
  radau5_stages_predict(S, h, 0);
  for (int it = 0; it < 20; it++) { /* contraction O(h): 20 iterations reach roundoff */
    CHECK("residual OK", radau5_stages_residual(S, &x->c, 0.0, x->y, h) == 0);
    radau5_stages_solve(S, &x->c);
    radau5_stages_apply_increment(S);
  }
  exact(h, ex);
  *e_y1 = x->y[0] + S->z[2][0] - ex[0];
  *est = radau5_stages_error(S, &x->c, h);
  radau5_stages_store_polynomial(S, x->y, h);
  CHECK("dense OK", radau5_stages_dense(S, 0.5, NULL, 0, out) == COSROD_OK);
  exact(0.5 * h, ex);
  *e_dense = fmax(fabs(out[0] - ex[0]), fabs(out[1] - ex[1]));
}

TEST(radau5_stages_orders) {
  fixture x;
  fixture_init(&x, 0);
  radau5_stages *S = NULL;
  CHECK("create", radau5_stages_create(&S, &x.c) == COSROD_OK);
  if (!S) return;
  CHECK("f0", radau5_stages_eval_f0(S, &x.c, "initial point") == COSROD_OK);
  CHECK("J", radau5_stages_jacobian(S, &x.c) == COSROD_OK);
  double e1, est1, d1, e2, est2, d2;
  radau5_one_step(S, &x, 0.1, &e1, &est1, &d1);
  radau5_one_step(S, &x, 0.05, &e2, &est2, &d2);
  NOTE("radau5: y1 errors %.3e %.3e, estimates %.3e %.3e, dense errors %.3e %.3e", e1, e2, est1, est2, d1, d2);
  CHECK_NEAR("step error O(h^6)", observed(e1, e2), 6.0, 0.5);
  CHECK_NEAR("estimate O(h^4)", observed(est1, est2), 4.0, 0.5);
  CHECK_NEAR("collocation polynomial O(h^4)", observed(d1, d2), 4.0, 0.5);
  CHECK("one ndecomp per real + complex pair", x.st.ndecomp == 2);
  double out[2];
  radau5_stages_dense(S, 0.0, NULL, 0, out);
  CHECK_NEAR("dense at θ = 0 is y0", out[0], x.y[0], 0.0);
  int bad = 5;
  CHECK("dense refuses an index out of range", radau5_stages_dense(S, 0.5, &bad, 1, out) == COSROD_ERR_INVALID);
  radau5_stages_free(S);
}

/* Synthetic first column T_j1 = 1 + Σ_{k=1}^{4} c_k (1/n_j)^k for every row:
 * the 4 Aitken–Neville steps of row 5 remove all 4 terms, T_55 = 1 to
 * roundoff. */
TEST(seulex_tableau_extrapolation_exact) {
  int nseq[6] = {0, 2, 3, 4, 6, 8};
  seulex_tableau *T = NULL;
  CHECK("create", seulex_tableau_create(&T, 1, 5, nseq) == COSROD_OK);
  if (!T) return;
  const double c[4] = {0.7, -1.3, 2.1, 0.4};
  for (int r = 1; r <= 5; r++) {
    double v = 1.0, h = 1.0 / nseq[r], hk = 1.0;
    for (int k = 0; k < 4; k++) v += c[k] * (hk *= h);
    seulex_tableau_row(T, T->tab, r)[0] = v;
    seulex_tableau_extrapolate(T, T->tab, 1, r);
  }
  CHECK_NEAR("T_55 = 1", seulex_tableau_row(T, T->tab, 1)[0], 1.0, 1e-13);
  int bad[4] = {0, 2, 2, 3};
  seulex_tableau *U = NULL;
  CHECK("non-increasing sequence refused", seulex_tableau_create(&U, 1, 3, bad) == COSROD_ERR_INVALID && !U);
  seulex_tableau_free(T);
}

/* Rows 1..j of one basic step H from (0, y): error of T_jj (max norm). */
static void seulex_rows(seulex_tableau *T, cosrod_lsys *L, fixture *x, const double *f0, double H, int rows,
                        double *err) {
  double ex[2];
  exact(H, ex);
  for (int j = 1; j <= rows; j++) {
    CHECK("factor OK", seulex_sweep_factor(L, &x->c, T, j, H) == COSROD_OK);
    CHECK("first substep OK", seulex_sweep_first(T, L, &x->c, j, 0.0, x->y, f0, H) == 0);
    CHECK("sweep OK", seulex_sweep_finish(T, L, &x->c, j, 0.0, H) == 0);
    seulex_tableau_extrapolate(T, T->tab, 1, j);
    const double *b = seulex_tableau_row(T, T->tab, 1);
    err[j] = fmax(fabs(b[0] - ex[0]), fabs(b[1] - ex[1]));
  }
}

TEST(seulex_tableau_orders) {
  for (int td = 0; td <= 1; td++) {
    fixture x;
    fixture_init(&x, td);
    int nseq[6] = {0, 2, 3, 4, 6, 8};
    seulex_tableau *T = NULL;
    cosrod_lsys *L = NULL;
    CHECK("create", seulex_tableau_create(&T, 2, 5, nseq) == COSROD_OK &&
                        cosrod_lsys_create_ex(&L, &x.c, 1) == COSROD_OK);
    if (!T || !L) return;
    double f0[2], ea[6], eb[6], out[2];
    rhs(0.0, x.y, f0, NULL);
    CHECK("J", cosrod_lsys_jac(L, &x.c, 0.0, x.y, f0) == 0);
    seulex_rows(T, L, &x, f0, 0.05, 4, ea);
    seulex_rows(T, L, &x, f0, 0.025, 4, eb);
    char what[96];
    for (int j = 1; j <= 4; j++) {
      NOTE("seulex (time_dependent %d) T_%d%d errors %.3e (H = 0.05), %.3e (H = 0.025)", td, j, j, ea[j], eb[j]);
      snprintf(what, sizeof what, "time_dependent %d: T_%d%d error O(H^%d)", td, j, j, j + 1);
      CHECK_NEAR(what, observed(ea[j], eb[j]), j + 1.0, 0.5);
    }
    /* dense output interpolates both ends exactly */
    double y1[2];
    memcpy(y1, seulex_tableau_row(T, T->tab, 1), sizeof y1);
    seulex_dense_prepare(T, 4, x.y, y1);
    CHECK("prepared for column 4", T->dense_column == 4);
    seulex_dense_eval(T, y1, 0.0, NULL, 0, out);
    CHECK_NEAR("dense at θ = 0 is y0", fmax(fabs(out[0] - x.y[0]), fabs(out[1] - x.y[1])), 0.0, 1e-14);
    seulex_dense_eval(T, y1, 1.0, NULL, 0, out);
    CHECK_NEAR("dense at θ = 1 is y1", fmax(fabs(out[0] - y1[0]), fabs(out[1] - y1[1])), 0.0, 0.0);
    seulex_tableau_free(T);
    cosrod_lsys_free(L);
  }
}

TEST(rodas_stages_orders) {
  fixture x;
  fixture_init(&x, 1);
  rodas_stages *R = NULL;
  CHECK("create", rodas_stages_create(&R, &x.c) == COSROD_OK);
  if (!R) return;
  CHECK("mass", cosrod_lsys_load_mass(R->L, &x.c) == 0);
  CHECK("f, J, f_t", rodas_stages_jacobian(R, &x.c) == 0);
  double e[2], est[2], d[2], ex[2], out[2];
  for (int k = 0; k < 2; k++) {
    const double h = k ? 0.05 : 0.1;
    CHECK("factor OK", rodas_stages_factor(R, &x.c, h) == COSROD_OK);
    CHECK("stages OK", rodas_stages_compute(R, &x.c, 0.0, x.y, h) == 0);
    exact(h, ex);
    e[k] = fmax(fabs(R->ynew[0] - ex[0]), fabs(R->ynew[1] - ex[1]));
    est[k] = cosrod_integrate_err_norm(&x.c, R->k[5], x.y, R->ynew);
    rodas_stages_store_dense(R, 0.0, x.y, h);
    CHECK("dense OK", rodas_stages_dense(R, 0.5 * h, NULL, 0, out) == COSROD_OK);
    exact(0.5 * h, ex);
    d[k] = fmax(fabs(out[0] - ex[0]), fabs(out[1] - ex[1]));
  }
  NOTE("rodas: y1 errors %.3e %.3e, estimates %.3e %.3e, dense errors %.3e %.3e", e[0], e[1], est[0], est[1], d[0],
       d[1]);
  CHECK_NEAR("step error O(h^5)", observed(e[0], e[1]), 5.0, 0.5);
  CHECK_NEAR("estimate u_6 O(h^4)", observed(est[0], est[1]), 4.0, 0.5);
  CHECK_NEAR("dense output O(h^4)", observed(d[0], d[1]), 4.0, 0.5);
  rodas_stages_free(R);
}

static const th_case cases[] = {
    TH_CASE(radau5_stages_orders),
    TH_CASE(seulex_tableau_extrapolation_exact),
    TH_CASE(seulex_tableau_orders),
    TH_CASE(rodas_stages_orders),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
