// SPDX-License-Identifier: Apache-2.0
/* RADAU5-specific tests (the conformance suite covers the shared problems):
 * end values against the reference solutions on Van der Pol and Robertson
 * (the originals' counts noted beside ours), the M1/M2 second-order
 * reduction (one and two q-blocks, with a mass matrix) against the full
 * system, banded against dense iteration matrices, own against LAPACK LU, an
 * index-3 DAE (Cartesian pendulum) against the minimal-coordinate ODE, dense
 * output (interpolation and order), options (classical controller, Jacobian
 * reuse, finite-difference Jacobian), backward integration and a singular
 * iteration matrix. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "itest.h"

static const double PI = 3.14159265358979323846;

static const cosrod_step_type *radau5(void) { return cosrod_step_type_by_name("radau5"); }

typedef struct run_out {
  cosrod_status st;
  double y[64];
  cosrod_integrate_stats s;
  char msg[512];
} run_out;

static run_out run(const cosrod_ode_problem *p, const cosrod_integrate_options *o, double t0,
                   const double *y0, double t1) {
  run_out r;
  memset(&r, 0, sizeof r);
  cosrod_integrator *it = cosrod_integrator_create(radau5(), p, o, &r.st);
  if (!it) {
    snprintf(r.msg, sizeof r.msg, "create failed");
    return r;
  }
  r.st = cosrod_integrate(it, t0, y0, t1, NULL, r.y);
  r.s = *cosrod_integrator_stats(it);
  snprintf(r.msg, sizeof r.msg, "%s", cosrod_integrator_message(it));
  cosrod_integrator_free(it);
  return r;
}

static cosrod_integrate_options opts_tol(double rtol, double atol) {
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

/* max_i |a_i - b_i| / (1 + |b_i|) */
static double rel_diff(int n, const double *a, const double *b) {
  double m = 0.0;
  for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]) / (1.0 + fabs(b[i])));
  return m;
}

static int same_counts(const cosrod_integrate_stats *a, const cosrod_integrate_stats *b) {
  return a->nfev == b->nfev && a->njev == b->njev && a->nsteps == b->nsteps && a->naccept == b->naccept &&
         a->nreject == b->nreject && a->ndecomp == b->ndecomp && a->nnewton == b->nnewton;
}

static void note_stats(const char *label, const cosrod_integrate_stats *s) {
  NOTE("%-22s nfev %6ld njev %5ld steps %5ld acc %5ld rej %3ld dec %5ld sol %5ld newt %5ld", label, s->nfev,
       s->njev, s->nsteps, s->naccept, s->nreject, s->ndecomp, s->nsolve, s->nnewton);
}

/* ======================================================================== */
/* Counts of the originals (noted) and end values                          */
/* ======================================================================== */

/* Hairer's RADAU5 counts (nfev/njev/nsteps/naccept/nreject/ndecomp) at rtol
 * 1e-4, 1e-6, 1e-8: VdP eps = 1e-6 on [0, 2] (atol = rtol), Robertson on
 * [0, 1e11] (atol = 1e-6 rtol), noted beside ours: a yardstick of efficiency,
 * checked by the work-precision criterion of test_work_precision.c, not a
 * target to match.
 * End values: the published reference solutions; the global error of a
 * tolerance-proportional method at these tolerances is at most a few tol
 * (measured <= 0.6 tol units), so 10 tol units is the bound. */
static void check_counts(const char *problem, const long ref[3][6]) {
  const itest_problem *P = itest_problem_by_name(problem);
  CHECK("problem exists", P != NULL);
  if (!P) return;
  const double tols[3] = {1e-4, 1e-6, 1e-8};
  char what[160];
  for (int k = 0; k < 3; k++) {
    cosrod_ode_problem p;
    memset(&p, 0, sizeof p);
    P->setup(&p);
    cosrod_integrate_options o = opts_tol(tols[k], tols[k] * P->atol_per_rtol);
    run_out r = run(&p, &o, P->t0, P->y0, P->t_end);
    snprintf(what, sizeof what, "%s rtol %g: status OK", problem, tols[k]);
    CHECK(what, r.st == COSROD_OK);
    const long ours[6] = {r.s.nfev, r.s.njev, r.s.nsteps, r.s.naccept, r.s.nreject, r.s.ndecomp};
    NOTE("%s rtol %g: ours %ld/%ld/%ld/%ld/%ld/%ld, original %ld/%ld/%ld/%ld/%ld/%ld", problem, tols[k],
         ours[0], ours[1], ours[2], ours[3], ours[4], ours[5], ref[k][0], ref[k][1], ref[k][2], ref[k][3],
         ref[k][4], ref[k][5]);
    double e = itest_scaled_error(P->n, r.y, P->yref, tols[k], tols[k] * P->atol_per_rtol);
    snprintf(what, sizeof what, "%s rtol %g: end error in tol units", problem, tols[k]);
    CHECK_LE(what, e, 10.0);
  }
}

TEST(counts_vdp) {
  static const long ref[3][6] = {
      {2253, 162, 281, 245, 7, 252}, {3965, 308, 501, 489, 8, 410}, {8247, 480, 1054, 1045, 7, 844}};
  check_counts("vdp", ref);
}

TEST(counts_robertson) {
  static const long ref[3][6] = {
      {994, 128, 138, 136, 2, 138}, {1953, 251, 262, 261, 1, 261}, {4033, 395, 537, 535, 2, 415}};
  check_counts("robertson", ref);
}

/* Van der Pol at t = 1 through dense output (reference: reference_solutions.c).
 * The collocation polynomial has error O(h^4) between the step ends; at
 * rtol 1e-8 the solution at t = 1 (slow phase) is accurate to a few 1e-7
 * (measured), bound 1e-6 absolute. */
static int capture_out(double t, const double *y, void *user) {
  (void)t;
  memcpy(user, y, 2 * sizeof(double));
  return 0;
}
TEST(vdp_dense_at_1) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e-8, 1e-8);
  double t1 = 1.0, y1[2] = {0.0, 0.0};
  cosrod_output_spec out = {0};
  out.t_out = &t1;
  out.n_out = 1;
  out.output = capture_out;
  out.user = y1;
  cosrod_integrator *it = cosrod_integrator_create(radau5(), &p, &o, NULL);
  CHECK("created", it != NULL);
  if (!it) return;
  cosrod_status st = cosrod_integrate(it, 0.0, P->y0, 2.0, &out, NULL);
  CHECK("status OK", st == COSROD_OK);
  const double *ref = itest_ref_vdp_t1;
  CHECK_NEAR("y1(1) by dense output", y1[0], ref[0], 1e-6);
  CHECK_NEAR("y2(1) by dense output", y1[1], ref[1], 1e-6);
  cosrod_integrator_free(it);
}

/* ======================================================================== */
/* Spring chain: second-order reduction, banded vs dense, mass matrix        */
/* ======================================================================== */
/* N masses m_i between walls, hardening springs s(d) = K d + K3 d^3,
 * dampers C (stiff: K = 1e4):
 *   m_i q_i'' = s(q_{i+1} - q_i) - s(q_i - q_{i-1}) - C q_i',  q_0 = q_{N+1} = 0.
 * The cubic term makes the problem genuinely nonlinear: the Newton
 * contraction θ is then a real quantity, not rounding noise as for a linear
 * problem (where the second Newton increment is pure roundoff and Hairer's
 * θ-based decisions would depend on the order of floating-point operations).
 * Layouts (variant):
 *   M1_BAND   y = (q, v), m1 = m2 = N, reduced banded J (q-block (1,1), v-block (0,0))
 *   M1_DENSE  the same with a dense reduced J
 *   FULL_DENSE / FULL_BAND  y = (q, v), m1 = 0, the full J (banded: ml = N+1, mu = N)
 *   M1_BAND_DENSE_MASS  M1_BAND with a dense mass matrix (dense iteration matrices)
 * With `with_mass`, f_v is the force and M = diag(1.., m_i) (lower block for
 * m1 > 0; banded (0,0) when J is banded, dense otherwise); without it f_v is
 * the acceleration. */
enum { CH_N = 12 };
enum { M1_BAND, M1_DENSE, FULL_DENSE, FULL_BAND, M1_BAND_DENSE_MASS };
typedef struct chain {
  int variant, with_mass;
  cosrod_ode_problem p;
} chain;
static const double CHK = 1e4, CHK3 = 1e5, CHC = 5.0;
static double ch_mass(int i) { return 1.0 + 0.5 * sin(1.0 + i); }
static double spring(double d) { return CHK * d + CHK3 * d * d * d; }
static double dspring(double d) { return CHK + 3.0 * CHK3 * d * d; }
static double ch_q(const double *q, int i) { return i >= 0 && i < CH_N ? q[i] : 0.0; }
static double ch_force(const double *q, const double *v, int i) {
  return spring(ch_q(q, i + 1) - q[i]) - spring(q[i] - ch_q(q, i - 1)) - CHC * v[i];
}
static int ch_f(double t, const double *y, double *f, void *u) {
  (void)t;
  const chain *c = u;
  for (int i = 0; i < CH_N; i++) f[i] = y[CH_N + i];
  for (int i = 0; i < CH_N; i++) {
    double F = ch_force(y, y + CH_N, i);
    f[CH_N + i] = c->with_mass ? F : F / ch_mass(i);
  }
  return 0;
}
static int ch_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t;
  const chain *c = u;
  for (int i = 0; i < CH_N; i++) {
    double s = c->with_mass ? 1.0 : 1.0 / ch_mass(i);
    double kr = dspring(ch_q(y, i + 1) - y[i]), kl = dspring(y[i] - ch_q(y, i - 1));
    double dq[3] = {kl * s, -(kl + kr) * s, kr * s}, dv = -CHC * s;
    if (c->variant == M1_BAND || c->variant == M1_DENSE || c->variant == M1_BAND_DENSE_MASS) {
      for (int d = -1; d <= 1; d++)
        if (i + d >= 0 && i + d < CH_N) cosrod_jac_set2(J, ld, &c->p, i, i + d, dq[d + 1]);
      cosrod_jac_set2(J, ld, &c->p, i, CH_N + i, dv);
    } else {
      int banded = c->variant == FULL_BAND, mu = c->p.jac_mu;
      cosrod_jac_set(J, ld, banded, mu, i, CH_N + i, 1.0);
      for (int d = -1; d <= 1; d++)
        if (i + d >= 0 && i + d < CH_N) cosrod_jac_set(J, ld, banded, mu, CH_N + i, i + d, dq[d + 1]);
      cosrod_jac_set(J, ld, banded, mu, CH_N + i, CH_N + i, dv);
    }
  }
  return 0;
}
static int ch_mass_cb(double *M, int ld, void *u) {
  const chain *c = u;
  int m1 = c->p.m1;
  int banded = c->p.mass_banded;
  /* rows/cols of the supplied block: the lower-right N x N (m1 > 0) or all 2N */
  int off = m1 > 0 ? 0 : CH_N;
  if (m1 == 0)
    for (int i = 0; i < CH_N; i++) cosrod_jac_set(M, ld, banded, c->p.mass_mu, i, i, 1.0);
  for (int i = 0; i < CH_N; i++) cosrod_jac_set(M, ld, banded, c->p.mass_mu, off + i, off + i, ch_mass(i));
  return 0;
}
static void chain_setup(chain *c, int variant, int with_mass) {
  memset(c, 0, sizeof *c);
  c->variant = variant;
  c->with_mass = with_mass;
  cosrod_ode_problem *p = &c->p;
  p->n = 2 * CH_N;
  p->f = ch_f;
  p->jac = ch_jac;
  p->user = c;
  if (variant == M1_BAND || variant == M1_DENSE || variant == M1_BAND_DENSE_MASS) {
    p->m1 = p->m2 = CH_N;
    p->jac_banded = variant != M1_DENSE;
    p->jac_ml_q = p->jac_mu_q = 1;
    p->jac_ml = p->jac_mu = 0;
  } else if (variant == FULL_BAND) {
    p->jac_banded = 1;
    p->jac_ml = CH_N + 1;
    p->jac_mu = CH_N;
  }
  if (with_mass) {
    p->mass = ch_mass_cb;
    p->mass_banded = p->jac_banded && variant != M1_BAND_DENSE_MASS;
    p->mass_ml = p->mass_mu = 0;
  }
}
static void chain_y0(double *y) {
  for (int i = 0; i < CH_N; i++) {
    y[i] = 0.1 * sin(PI * (i + 1) / (CH_N + 1)) + 0.02 * sin(5.0 * PI * (i + 1) / (CH_N + 1));
    y[CH_N + i] = 0.3 * cos(2.0 * PI * (i + 1) / (CH_N + 1));
  }
}

/* All layouts solve the same equations with the same control decisions:
 * the counts must be identical and the end values agree to rounding (the
 * only difference is the order of floating-point operations in the
 * elimination; bound 1e-10 relative, measured in the notes).  Accuracy: the
 * m1-banded run must reach a run at rtol 1e-10 within 100 tol (internal
 * tolerance rtol' = 0.1 rtol^(2/3) = 1e-5 at rtol 1e-6; measured in the
 * notes). */
static void check_chain_layouts(int with_mass) {
  double y0[2 * CH_N];
  chain_y0(y0);
  const char *names[5] = {"m1 banded", "m1 dense", "full dense", "full banded", "m1 banded J, dense M"};
  const int nv = with_mass ? 5 : 4;
  run_out r[5];
  chain c;
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  for (int v = 0; v < nv; v++) {
    chain_setup(&c, v, with_mass);
    r[v] = run(&c.p, &o, 0.0, y0, 0.5);
    char what[120];
    snprintf(what, sizeof what, "%s: status OK", names[v]);
    CHECK(what, r[v].st == COSROD_OK);
    note_stats(names[v], &r[v].s);
  }
  double worst = 0.0;
  for (int v = 1; v < nv; v++) {
    char what[160];
    snprintf(what, sizeof what, "%s vs m1 banded: identical counts", names[v]);
    CHECK(what, same_counts(&r[v].s, &r[0].s));
    worst = fmax(worst, rel_diff(2 * CH_N, r[v].y, r[0].y));
  }
  CHECK_LE("max relative difference of the end values over the layouts", worst, 1e-10);
  chain_setup(&c, M1_BAND, with_mass);
  cosrod_integrate_options ot = opts_tol(1e-10, 1e-10);
  run_out ref = run(&c.p, &ot, 0.0, y0, 0.5);
  CHECK("reference run OK", ref.st == COSROD_OK);
  CHECK_LE("m1 banded vs rtol 1e-10 run (units of tol)", itest_max_error(2 * CH_N, r[0].y, ref.y) / 1e-6,
           100.0);
}
TEST(m1_reduction_matches_full) { check_chain_layouts(0); }
TEST(m1_reduction_matches_full_mass) { check_chain_layouts(1); }

/* The mass-matrix form (M y' = force) and the explicit form (y' = M^-1
 * force) are the same ODE: end values agree to the integration error (bound
 * 20 tol, they take slightly different rounding paths but the same steps). */
TEST(mass_matrix_vs_explicit) {
  double y0[2 * CH_N];
  chain_y0(y0);
  chain a, b;
  chain_setup(&a, M1_BAND, 1);
  chain_setup(&b, M1_BAND, 0);
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  run_out ra = run(&a.p, &o, 0.0, y0, 0.5), rb = run(&b.p, &o, 0.0, y0, 0.5);
  CHECK("both OK", ra.st == COSROD_OK && rb.st == COSROD_OK);
  note_stats("mass form", &ra.s);
  note_stats("explicit form", &rb.s);
  CHECK_LE("mass vs explicit form (units of tol)", itest_max_error(2 * CH_N, ra.y, rb.y) / 1e-6, 20.0);
}

/* Own LU vs LAPACK (dense and banded): same decisions, same counts, end
 * values to rounding (bound 1e-10 relative). */
TEST(lapack_backend_matches_own) {
  double y0[2 * CH_N];
  chain_y0(y0);
  const int variants[3] = {M1_BAND, FULL_DENSE, FULL_BAND};
  for (int k = 0; k < 3; k++) {
    chain c;
    chain_setup(&c, variants[k], 1);
    cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
    run_out own = run(&c.p, &o, 0.0, y0, 0.5);
    o.linalg_backend = 1;
    run_out lap = run(&c.p, &o, 0.0, y0, 0.5);
    char what[120];
    snprintf(what, sizeof what, "variant %d: both OK", variants[k]);
    CHECK(what, own.st == COSROD_OK && lap.st == COSROD_OK);
    snprintf(what, sizeof what, "variant %d: identical counts", variants[k]);
    CHECK(what, same_counts(&own.s, &lap.s));
    snprintf(what, sizeof what, "variant %d: end values agree to rounding", variants[k]);
    CHECK_LE(what, rel_diff(2 * CH_N, lap.y, own.y), 1e-10);
  }
}

/* ---- third-order chain: two q-blocks (m1 = 2 m2) ---------------------------
 * x' = v, v' = a, a' = -K (2 x_i - x_{i-1} - x_{i+1}) - 3 x_i - 5 v_i - 40 a_i.
 * m1 = 2N, m2 = N: the reduction eliminates two blocks (Horner in 1/fac);
 * compared with the full system (counts identical, values to rounding). */
enum { J3_N = 6 };
typedef struct jerk {
  int reduced;
  cosrod_ode_problem p;
} jerk;
static int jerk_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  const double *x = y, *v = y + J3_N, *a = y + 2 * J3_N;
  for (int i = 0; i < 2 * J3_N; i++) f[i] = y[J3_N + i];
  for (int i = 0; i < J3_N; i++) {
    double xl = i > 0 ? x[i - 1] : 0.0, xr = i < J3_N - 1 ? x[i + 1] : 0.0;
    f[2 * J3_N + i] = -50.0 * (2.0 * x[i] - xl - xr) - 3.0 * x[i] - 5.0 * v[i] - 40.0 * a[i];
  }
  return 0;
}
static int jerk_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y;
  const jerk *j = u;
  const int r0 = j->reduced ? 0 : 2 * J3_N;
  if (!j->reduced)
    for (int i = 0; i < 2 * J3_N; i++) J[i + (size_t)(J3_N + i) * ld] = 1.0;
  for (int i = 0; i < J3_N; i++) {
    double *row = J + r0 + i;
    row[(size_t)i * ld] = -103.0;
    if (i > 0) row[(size_t)(i - 1) * ld] = 50.0;
    if (i < J3_N - 1) row[(size_t)(i + 1) * ld] = 50.0;
    row[(size_t)(J3_N + i) * ld] = -5.0;
    row[(size_t)(2 * J3_N + i) * ld] = -40.0;
  }
  return 0;
}
TEST(m1_two_blocks_matches_full) {
  jerk a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.reduced = 1;
  a.p.n = b.p.n = 3 * J3_N;
  a.p.f = b.p.f = jerk_f;
  a.p.jac = b.p.jac = jerk_jac;
  a.p.user = &a;
  b.p.user = &b;
  a.p.m1 = 2 * J3_N;
  a.p.m2 = J3_N;
  double y0[3 * J3_N];
  for (int i = 0; i < 3 * J3_N; i++) y0[i] = cos(0.7 * i);
  cosrod_integrate_options o = opts_tol(1e-7, 1e-7);
  run_out ra = run(&a.p, &o, 0.0, y0, 2.0), rb = run(&b.p, &o, 0.0, y0, 2.0);
  CHECK("both OK", ra.st == COSROD_OK && rb.st == COSROD_OK);
  note_stats("m1 = 2 m2 reduced", &ra.s);
  note_stats("full", &rb.s);
  CHECK("identical counts", same_counts(&ra.s, &rb.s));
  CHECK_LE("end values agree to rounding", rel_diff(3 * J3_N, ra.y, rb.y), 1e-10);
}

/* ======================================================================== */
/* Index-3 DAE: pendulum in Cartesian coordinates                            */
/* ======================================================================== */
/* y = (x, y, u, v, lambda), unit mass and length, gravity g:
 *   x' = u, y' = v, u' = -lambda x, v' = -lambda y - g, 0 = x^2 + y^2 - 1,
 * M = diag(1, 1, 1, 1, 0); positions index 1, velocities index 2, lambda
 * index 3 (nind = 2, 2, 1).  Reference: theta'' = -g sin(theta) (x = sin,
 * y = -cos) by classical RK4 with h = 2e-4 (error ~1e-13), and
 * lambda = theta'^2 + g cos(theta). */
static const double PG = 9.81;
static int pend_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = y[2];
  f[1] = y[3];
  f[2] = -y[4] * y[0];
  f[3] = -y[4] * y[1] - PG;
  f[4] = y[0] * y[0] + y[1] * y[1] - 1.0;
  return 0;
}
static int pend_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  J[0 + 2 * ld] = 1.0;
  J[1 + 3 * ld] = 1.0;
  J[2 + 0 * ld] = -y[4];
  J[2 + 4 * ld] = -y[0];
  J[3 + 1 * ld] = -y[4];
  J[3 + 4 * ld] = -y[1];
  J[4 + 0 * ld] = 2.0 * y[0];
  J[4 + 1 * ld] = 2.0 * y[1];
  return 0;
}
static int pend_mass(double *M, int ld, void *u) {
  (void)u;
  for (int i = 0; i < 4; i++) M[i + i * ld] = 1.0;
  return 0;
}
static void theta_rhs(const double *s, double *ds) {
  ds[0] = s[1];
  ds[1] = -PG * sin(s[0]);
}
static void theta_rk4(double th0, double T, double *th) {
  const int nsteps = 10000;
  const double h = T / nsteps;
  double s[2] = {th0, 0.0}, k1[2], k2[2], k3[2], k4[2], w[2];
  for (int k = 0; k < nsteps; k++) {
    theta_rhs(s, k1);
    for (int i = 0; i < 2; i++) w[i] = s[i] + 0.5 * h * k1[i];
    theta_rhs(w, k2);
    for (int i = 0; i < 2; i++) w[i] = s[i] + 0.5 * h * k2[i];
    theta_rhs(w, k3);
    for (int i = 0; i < 2; i++) w[i] = s[i] + h * k3[i];
    theta_rhs(w, k4);
    for (int i = 0; i < 2; i++) s[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  th[0] = s[0];
  th[1] = s[1];
}
/* Max errors over the accepted step ends of a pendulum run (every_step
 * output): the reference is recomputed at each step end. */
typedef struct pend_errors {
  double th0;
  double pos, vel, lam, constraint;
  long count;
} pend_errors;
static int pend_track(double t, const double *y, void *user) {
  pend_errors *e = user;
  double th[2];
  theta_rk4(e->th0, t, th);
  const double ref[5] = {sin(th[0]), -cos(th[0]), th[1] * cos(th[0]), th[1] * sin(th[0]),
                         th[1] * th[1] + PG * cos(th[0])};
  e->pos = fmax(e->pos, fmax(fabs(y[0] - ref[0]), fabs(y[1] - ref[1])));
  e->vel = fmax(e->vel, fmax(fabs(y[2] - ref[2]), fabs(y[3] - ref[3])));
  e->lam = fmax(e->lam, fabs(y[4] - ref[4]));
  e->constraint = fmax(e->constraint, fabs(y[0] * y[0] + y[1] * y[1] - 1.0));
  e->count++;
  return 0;
}
/* Uniform steps h = T / 2^k (sums exact in binary, so no clipped last
 * step): h0 = hmax = h under rtol = atol = 1e-3, far above the local
 * errors (no rejection), Newton to 1e-13 of the tolerance scale.  Max
 * errors over the step ends of [0, T]; *uniform: every step had length h. */
static pend_errors pend_fixed(const cosrod_ode_problem *p, const double *y0, double th0, double T, double h,
                              int *uniform) {
  cosrod_integrate_options o = opts_tol(1e-3, 1e-3);
  o.h0 = o.hmax = h;
  o.newton_tol = 1e-13;
  pend_errors e;
  memset(&e, 0, sizeof e);
  e.th0 = th0;
  cosrod_output_spec out = {0};
  out.every_step = 1;
  out.output = pend_track;
  out.user = &e;
  cosrod_integrator *it = cosrod_integrator_create(radau5(), p, &o, NULL);
  cosrod_status st = cosrod_integrate(it, 0.0, y0, T, &out, NULL);
  if (!CHECK("fixed-step pendulum run OK", st == COSROD_OK)) NOTE("%s", cosrod_integrator_message(it));
  const cosrod_integrate_stats *S = cosrod_integrator_stats(it);
  note_stats("uniform steps", S);
  *uniform = S->naccept == (long)floor(T / h + 0.5) && S->nreject == 0 && S->nconvfail == 0;
  cosrod_integrator_free(it);
  return e;
}
TEST(pendulum_index3) {
  const double th0 = PI / 3.0, T = 2.0;
  cosrod_ode_problem p = {0};
  p.n = 5;
  p.f = pend_f;
  p.jac = pend_jac;
  p.mass = pend_mass;
  p.nind1 = 2;
  p.nind2 = 2;
  p.nind3 = 1;
  const double y0[5] = {sin(th0), -cos(th0), 0.0, 0.0, PG * cos(th0)};
  /* Convergence orders at fixed h: for an index-3 system in Hessenberg form
   * the s-stage Radau IIA method has global errors O(h^(2s-1)) in the
   * index-1 (position), O(h^s) in the index-2 (velocity) and O(h^(s-1)) in
   * the index-3 (lambda) components (Hairer, Lubich, Roche, LNM 1409, 1989;
   * HW II §VII.4), s = 3: orders 5, 3, 2.  The observed order between h and
   * h/2 is p + log2((1 + a h) / (1 + a h / 2)) for an error C h^p (1 + a h):
   * the allowance 0.5 admits a next-order term up to ~40 % of the leading
   * one at h.  The position errors (~1e-11 at these h) sit at the floor of
   * the Newton stopping test and the RK4 reference, below C h^5: they are
   * bounded by h times the velocity error (O(h^5) <= O(h * h^3)).  The
   * constraint is an equation of the collocation system: it holds to the
   * Newton tolerance (1e-13 of the tolerance scale 1e-3) at every step end. */
  const double hs[2] = {T / 512, T / 1024};
  double err[2][3];
  for (int k = 0; k < 2; k++) {
    int uniform = 0;
    pend_errors e = pend_fixed(&p, y0, th0, T, hs[k], &uniform);
    err[k][0] = e.pos, err[k][1] = e.vel, err[k][2] = e.lam;
    NOTE("h = T/%.0f: %ld step ends, max errors position %.3e, velocity %.3e, lambda %.3e; constraint %.3g",
         T / hs[k], e.count, e.pos, e.vel, e.lam, e.constraint);
    CHECK("uniform steps (T / h accepted, no rejection, no Newton failure)", uniform);
    CHECK_LE("max |x^2 + y^2 - 1| at the step ends", e.constraint, 1e-13);
    CHECK_LE("position error <= h * velocity error", e.pos, hs[k] * e.vel);
  }
  const double ov = log2(err[0][1] / err[1][1]), ol = log2(err[0][2] / err[1][2]);
  NOTE("observed orders: velocity %.2f (theory 3), lambda %.2f (theory 2)", ov, ol);
  CHECK_LE("velocity (index 2): observed order >= 3 - 0.5", 2.5, ov);
  CHECK_LE("lambda (index 3): observed order >= 2 - 0.5", 1.5, ol);
  /* Adaptive steps: the constraint to the Newton tolerance, the position
   * error decreasing with the tolerance (three decades: at least a factor
   * 3, far below the ~10^(3*5/6) of a tolerance-proportional code). */
  const double tols[2] = {1e-5, 1e-8};
  double err_pos[2];
  for (int k = 0; k < 2; k++) {
    cosrod_integrate_options o = opts_tol(tols[k], tols[k]);
    pend_errors e;
    memset(&e, 0, sizeof e);
    e.th0 = th0;
    cosrod_output_spec out = {0};
    out.every_step = 1;
    out.output = pend_track;
    out.user = &e;
    cosrod_integrator *it = cosrod_integrator_create(radau5(), &p, &o, NULL);
    cosrod_status st = cosrod_integrate(it, 0.0, y0, T, &out, NULL);
    char what[120];
    snprintf(what, sizeof what, "rtol %g: status OK", tols[k]);
    if (!CHECK(what, st == COSROD_OK)) NOTE("%s", cosrod_integrator_message(it));
    note_stats(what, cosrod_integrator_stats(it));
    cosrod_integrator_free(it);
    err_pos[k] = e.pos;
    NOTE("rtol %g: max errors over %ld step ends: position %.3g (%.3g tol), velocity %.3g (%.3g tol), lambda "
         "%.3g; constraint %.3g",
         tols[k], e.count, e.pos, e.pos / tols[k], e.vel, e.vel / tols[k], e.lam, e.constraint);
    snprintf(what, sizeof what, "rtol %g: max |x^2 + y^2 - 1|", tols[k]);
    CHECK_LE(what, e.constraint, tols[k]);
  }
  CHECK_LE("position error decreases with tol (1e-8 vs 1e-5)", err_pos[1], 0.3 * err_pos[0]);
  /* Without the index information lambda's error estimate (O(h^-2) too
   * large) drives h to zero: the run must fail (step too small / max steps). */
  cosrod_ode_problem q = p;
  q.nind1 = q.nind2 = q.nind3 = 0;
  cosrod_integrate_options o = opts_tol(1e-4, 1e-4);
  o.max_steps = 2000;
  run_out r = run(&q, &o, 0.0, y0, T);
  NOTE("without index information: %s: %s", cosrod_status_name(r.st), r.msg);
  CHECK("without index information the run fails", r.st != COSROD_OK);
}

/* Accepted step lengths of a run (every-step output: differences of the
 * step ends), the shortest relative to its predecessor. */
typedef struct step_lengths {
  double t, prev, min_ratio;
  long count;
} step_lengths;
static int record_steps(double t, const double *y, void *user) {
  (void)y;
  step_lengths *s = user;
  const double h = fabs(t - s->t);
  s->t = t;
  if (s->count > 0) s->min_ratio = fmin(s->min_ratio, h / s->prev);
  s->prev = h;
  s->count++;
  return 0;
}
/* Index-3 pendulum with fixed steps h = T/N that are not binary fractions:
 * the accumulated t misses T by a few roundings, and a step of that size
 * must not follow (lambda has an O(h^-2) error amplification in the last
 * step: a step of 1e-16 gave lambda errors of 1e12).  The end of the
 * interval is reached by shortening the previous step (cosrod_step_to_end,
 * README "End of the interval"): no accepted step is shorter than
 * COSROD_LAST_STEP_MIN_FRACTION of its predecessor, and lambda at T is
 * within the max lambda error of the uniform run with the longer step
 * T/512 (the error is C h^2 at these h, pendulum_index3, so it only falls
 * for N > 512). */
TEST(pendulum_last_step) {
  const double th0 = PI / 3.0, T = 2.0;
  cosrod_ode_problem p = {0};
  p.n = 5;
  p.f = pend_f;
  p.jac = pend_jac;
  p.mass = pend_mass;
  p.nind1 = 2;
  p.nind2 = 2;
  p.nind3 = 1;
  const double y0[5] = {sin(th0), -cos(th0), 0.0, 0.0, PG * cos(th0)};
  int uniform = 0;
  const pend_errors ref = pend_fixed(&p, y0, th0, T, T / 512, &uniform);
  CHECK("reference run with uniform binary steps", uniform);
  double th[2];
  theta_rk4(th0, T, th);
  const double lam_T = th[1] * th[1] + PG * cos(th[0]);
  const int Ns[6] = {600, 700, 900, 1000, 1100, 1300};
  char what[160];
  for (int k = 0; k < 6; k++) {
    cosrod_integrate_options o = opts_tol(1e-3, 1e-3);
    o.h0 = o.hmax = T / Ns[k];
    o.newton_tol = 1e-13;
    step_lengths sl = {0.0, 0.0, INFINITY, 0};
    cosrod_output_spec out = {0};
    out.every_step = 1;
    out.output = record_steps;
    out.user = &sl;
    double y[5];
    cosrod_integrator *it = cosrod_integrator_create(radau5(), &p, &o, NULL);
    cosrod_status st = cosrod_integrate(it, 0.0, y0, T, &out, y);
    cosrod_integrator_free(it);
    snprintf(what, sizeof what, "h = T/%d: status OK", Ns[k]);
    CHECK(what, st == COSROD_OK);
    const double e = fabs(y[4] - lam_T);
    NOTE("h = T/%d: %ld steps, shortest step / previous %.3g, lambda error at T %.3g (uniform T/512: %.3g)", Ns[k],
         sl.count, sl.min_ratio, e, ref.lam);
    snprintf(what, sizeof what, "h = T/%d: no step below the documented fraction of its predecessor", Ns[k]);
    /* step lengths measured as differences of step ends: relative rounding <= 4 u T / h */
    CHECK_LE(what, COSROD_LAST_STEP_MIN_FRACTION - 4.0 * DBL_EPSILON * T / o.hmax, sl.min_ratio);
    snprintf(what, sizeof what, "h = T/%d: lambda error at T <= uniform-step bound", Ns[k]);
    CHECK_LE(what, e, ref.lam);
  }
}

/* ======================================================================== */
/* Dense output                                                             */
/* ======================================================================== */
/* y' = A y with a rotation and a decaying block (the conformance "linear"
 * problem).  With fixed steps h the collocation polynomial interpolates
 * y0 and y1 exactly (to rounding) and its error inside the step is
 * O(h^4) (s + 1 for collocation with s = 3 stages; step ends are
 * superconvergent, O(h^5)), so halving h divides the max dense error by ~16. */
typedef struct dense_probe {
  const itest_problem *P;
  double max_err;
} dense_probe;
static int dense_probe_out(double t, const double *y, void *user) {
  dense_probe *d = user;
  double ex[8];
  d->P->exact(t, ex);
  d->max_err = fmax(d->max_err, itest_max_error(d->P->n, y, ex));
  return 0;
}
static double dense_error_fixed(const itest_problem *P, double h) {
  enum { NT = 500 };
  double tout[NT];
  for (int i = 0; i < NT; i++) tout[i] = P->t0 + (P->t_end - P->t0) * (i + 0.37) / NT;
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e3, 1e3);
  o.h0 = o.hmax = h;
  o.newton_tol = 1e-13;
  dense_probe d = {P, 0.0};
  cosrod_output_spec out = {0};
  out.t_out = tout;
  out.n_out = NT;
  out.output = dense_probe_out;
  out.user = &d;
  cosrod_integrator *it = cosrod_integrator_create(radau5(), &p, &o, NULL);
  cosrod_status st = cosrod_integrate(it, P->t0, P->y0, P->t_end, &out, NULL);
  CHECK("fixed-step run OK", st == COSROD_OK);
  cosrod_integrator_free(it);
  return d.max_err;
}
TEST(dense_output_order) {
  const itest_problem *P = itest_problem_by_name("linear");
  double e1 = dense_error_fixed(P, 0.25), e2 = dense_error_fixed(P, 0.125);
  double order = log2(e1 / e2);
  NOTE("dense max error %.3e (h = 0.25), %.3e (h = 0.125): order %.2f", e1, e2, order);
  /* asymptotic 4; 0.4 covers the pre-asymptotic range (measured in notes) */
  CHECK_NEAR("observed order of the dense output", order, 4.0, 0.4);
}

/* Interpolation at the step ends: u(t_old) = y(t_old), u(t) = y(t). */
TEST(dense_output_endpoints) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  cosrod_integrator *it = cosrod_integrator_create(radau5(), &p, &o, NULL);
  CHECK("created", it != NULL);
  if (!it) return;
  cosrod_integrator_init(it, 0.0, P->y0, NULL);
  double yprev[2] = {P->y0[0], P->y0[1]}, u[2], worst0 = 0.0, worst1 = 0.0;
  double t_prev = 0.0;
  for (double te = 0.05; te <= 0.5 + 1e-12; te += 0.05) {
    cosrod_integrator_evolve(it, te, NULL);
    /* the last accepted step ends at te: check u(te) and, if the step began at
     * the previous te, u(t_prev) */
    const double *y = cosrod_integrator_y(it);
    cosrod_integrator_dense(it, te, NULL, 2, u);
    worst1 = fmax(worst1, rel_diff(2, u, y));
    if (cosrod_integrator_dense(it, t_prev, NULL, 2, u) == COSROD_OK)
      worst0 = fmax(worst0, rel_diff(2, u, yprev));
    memcpy(yprev, y, sizeof yprev);
    t_prev = te;
  }
  /* a few ulp of the divided differences times |y| ~ 2 */
  CHECK_LE("max |u(t1) - y1| (relative)", worst1, 1e-14);
  CHECK_LE("max |u(t0) - y0| (relative, when the step started at the previous output)", worst0, 1e-12);
  cosrod_integrator_free(it);
}

/* ======================================================================== */
/* Options                                                                  */
/* ======================================================================== */

/* The classical controller reaches the same accuracy with different counts
 * (the predictive one avoids rejections after step-size jumps). */
TEST(classical_controller) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  run_out g = run(&p, &o, P->t0, P->y0, P->t_end);
  o.controller = COSROD_CONTROLLER_CLASSICAL;
  run_out c = run(&p, &o, P->t0, P->y0, P->t_end);
  CHECK("both OK", g.st == COSROD_OK && c.st == COSROD_OK);
  note_stats("Gustafsson", &g.s);
  note_stats("classical", &c.s);
  CHECK("the option changes the step sequence", c.s.nsteps != g.s.nsteps);
  CHECK_LE("classical: end error (tol units)", itest_scaled_error(2, c.y, P->yref, 1e-6, 1e-6), 10.0);
  CHECK_LE("Gustafsson: at most as many rejections as classical", (double)g.s.nreject, (double)c.s.nreject);
}

/* Jacobian reuse (THET): recomputing J at every step costs more Jacobians
 * (>= accepted steps) than Hairer's default reuse, same accuracy. */
TEST(jacobian_reuse) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  run_out d = run(&p, &o, P->t0, P->y0, P->t_end);
  o.jac_reuse = -1.0;
  run_out e = run(&p, &o, P->t0, P->y0, P->t_end);
  CHECK("both OK", d.st == COSROD_OK && e.st == COSROD_OK);
  note_stats("default reuse", &d.s);
  note_stats("J every step", &e.s);
  CHECK_LE("every step: njev >= naccept", (double)e.s.naccept, (double)e.s.njev);
  CHECK_LE("default: at most 90 % of the Jacobians", (double)d.s.njev, 0.9 * (double)e.s.njev);
  CHECK_LE("every step: end error (tol units)", itest_scaled_error(2, e.y, P->yref, 1e-6, 1e-6), 10.0);
}

/* Finite-difference Jacobian: same problem without the analytic Jacobian;
 * FD errors ~sqrt(u) perturb only the Newton convergence, so the step
 * sequence stays close (nsteps within 10 %) and the accuracy is the same. */
TEST(fd_jacobian) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  run_out a = run(&p, &o, P->t0, P->y0, P->t_end);
  p.jac = NULL;
  run_out f = run(&p, &o, P->t0, P->y0, P->t_end);
  CHECK("both OK", a.st == COSROD_OK && f.st == COSROD_OK);
  note_stats("analytic J", &a.s);
  note_stats("FD J", &f.s);
  CHECK_CLOSE("nsteps with FD J", (double)f.s.nsteps, (double)a.s.nsteps, 0.10, 0.0);
  CHECK_LE("FD J: end error (tol units)", itest_scaled_error(2, f.y, P->yref, 1e-6, 1e-6), 10.0);
  /* 2 extra f per Jacobian (n = 2 columns) */
  CHECK("FD J: nfev includes the Jacobian columns", f.s.nfev >= a.s.nfev + 2 * f.s.njev - 50);
}

/* The same with the reduced banded Jacobian of the chain (finite
 * differences with column grouping per block, ~4 f per Jacobian instead of
 * 2N): end values within 10 tol of the analytic-Jacobian run, nsteps within
 * 10 %. */
TEST(fd_jacobian_banded_m1) {
  double y0[2 * CH_N];
  chain_y0(y0);
  chain c;
  chain_setup(&c, M1_BAND, 0);
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  run_out a = run(&c.p, &o, 0.0, y0, 0.5);
  c.p.jac = NULL;
  run_out f = run(&c.p, &o, 0.0, y0, 0.5);
  CHECK("both OK", a.st == COSROD_OK && f.st == COSROD_OK);
  note_stats("analytic J", &a.s);
  note_stats("FD J", &f.s);
  CHECK_CLOSE("nsteps with FD J", (double)f.s.nsteps, (double)a.s.nsteps, 0.10, 0.0);
  CHECK_LE("FD vs analytic J: end values (units of tol)", itest_max_error(2 * CH_N, f.y, a.y) / 1e-6, 10.0);
}

/* Backward in time: integrate the linear problem from 5 to 0 starting at
 * the exact value.  Its rotation block (components 0, 1) is decoupled and
 * neutrally stable, so its error is a few tol (bound 10 tol); the decaying
 * block grows backwards (e^10) and is not checked. */
TEST(backward_integration) {
  const itest_problem *P = itest_problem_by_name("linear");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  double y5[4], y0[4];
  P->exact(5.0, y5);
  P->exact(0.0, y0);
  cosrod_integrate_options o = opts_tol(1e-7, 1e-7);
  run_out r = run(&p, &o, 5.0, y5, 0.0);
  CHECK("status OK", r.st == COSROD_OK);
  note_stats("backward", &r.s);
  CHECK_LE("rotation block: error at t = 0 (units of tol)", itest_max_error(2, r.y, y0) / 1e-7, 10.0);
}

/* Continuing an integration in pieces reaches the same accuracy as one call. */
TEST(evolve_in_pieces) {
  const itest_problem *P = itest_problem_by_name("robertson");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e-6, 1e-12);
  cosrod_integrator *it = cosrod_integrator_create(radau5(), &p, &o, NULL);
  CHECK("created", it != NULL);
  if (!it) return;
  cosrod_integrator_init(it, 0.0, P->y0, NULL);
  cosrod_status st = COSROD_OK;
  for (double te = 1e-3; te <= 1e11 * 1.0000001 && st == COSROD_OK; te *= 10.0)
    st = cosrod_integrator_evolve(it, te, NULL);
  CHECK("status OK", st == COSROD_OK);
  CHECK_NEAR("final time", cosrod_integrator_t(it), 1e11, 1.0);
  CHECK_LE("end error (tol units)", itest_scaled_error(3, cosrod_integrator_y(it), P->yref, 1e-6, 1e-12),
           10.0);
  cosrod_integrator_free(it);
}

/* ======================================================================== */
/* Failure: singular iteration matrix                                       */
/* ======================================================================== */
/* M = 0 and f = 0: E = (c/h) M - J = 0 is singular for every h; radau5
 * halves h and gives up with ERR_SINGULAR after the number of singular
 * decompositions in a row its design note states (README "radau5": 4, i.e.
 * h, h/2, h/4, h/8; the original code's 5 is a code detail, not a property
 * of the method), each attempt counted as a convergence failure. */
static int zero_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)y, (void)u;
  f[0] = 0.0;
  return 0;
}
static int zero_mass(double *M, int ld, void *u) {
  (void)M, (void)ld, (void)u;
  return 0;
}
TEST(singular_matrix) {
  cosrod_ode_problem p = {0};
  p.n = 1;
  p.f = zero_f;
  p.mass = zero_mass;
  const double y0[1] = {1.0};
  cosrod_integrate_options o = opts_tol(1e-6, 1e-6);
  run_out r = run(&p, &o, 0.0, y0, 1.0);
  NOTE("status %s: %s", cosrod_status_name(r.st), r.msg);
  CHECK("ERR_SINGULAR", r.st == COSROD_ERR_SINGULAR);
  CHECK("4 decompositions tried (README radau5)", r.s.ndecomp == 4);
  CHECK("every attempt a convergence failure", r.s.nsteps == 4 && r.s.nconvfail == r.s.nsteps);
  CHECK("message mentions singular", strstr(r.msg, "singular") != NULL);
  CHECK_NEAR("state kept", r.y[0], 1.0, 0.0);
}

/* Tolerances below 10 uround are refused with a message (as the original). */
TEST(invalid_tolerance) {
  const itest_problem *P = itest_problem_by_name("vdp");
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  cosrod_integrate_options o = opts_tol(1e-17, 1e-6);
  run_out r = run(&p, &o, P->t0, P->y0, P->t_end);
  NOTE("status %s: %s", cosrod_status_name(r.st), r.msg);
  CHECK("ERR_INVALID", r.st == COSROD_ERR_INVALID);
}

static const th_case cases[] = {
    TH_CASE(counts_vdp),
    TH_CASE(counts_robertson),
    TH_CASE(vdp_dense_at_1),
    TH_CASE(m1_reduction_matches_full),
    TH_CASE(m1_reduction_matches_full_mass),
    TH_CASE(mass_matrix_vs_explicit),
    TH_CASE(lapack_backend_matches_own),
    TH_CASE(m1_two_blocks_matches_full),
    TH_CASE(pendulum_index3),
    TH_CASE(pendulum_last_step),
    TH_CASE(dense_output_order),
    TH_CASE(dense_output_endpoints),
    TH_CASE(classical_controller),
    TH_CASE(jacobian_reuse),
    TH_CASE(fd_jacobian),
    TH_CASE(fd_jacobian_banded_m1),
    TH_CASE(backward_integration),
    TH_CASE(evolve_in_pieces),
    TH_CASE(singular_matrix),
    TH_CASE(invalid_tolerance),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
