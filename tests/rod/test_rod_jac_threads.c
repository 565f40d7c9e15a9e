// SPDX-License-Identifier: Apache-2.0
/* The rod Jacobian assembled over segment blocks in parallel (rod_jac.c,
 * rod_jac_forces.c) for rods of N >= cosrod_rod_parallel_min_segments():
 * every destination (whole Jacobian in the node ordering for the ABSOLUTE,
 * NULLSPACE and DAE forms, the DAE mass-matrix form, the second-order blocks,
 * the static stiffness, the Kirchhoff DAE Jacobian) is bit-identical (memcmp)
 * for 1, 2 and 3 threads, over curvature variants, damping (Kelvin-Voigt and
 * medium), every end kind and sliding ends, with and without loads.
 *
 * Why bit-identical and not a rounding bound: every band entry belongs to one
 * row, every row to one node, and a node's rows are written by one block with
 * the same terms in the same order as the serial pass; the force-derivative
 * workspace entries shared by two segments receive the same two terms onto
 * zero (IEEE addition is commutative), and the vertex kernels are gathered
 * per segment in the serial order.  A data race, a block boundary done twice
 * or not at all, or a column zeroed after it was written shows as a changed
 * bit (or a left-over NaN: the destinations are filled with NaN first).
 *
 * End to end: RODAS integrates the ABSOLUTE rod with its analytic
 * second-order Jacobian (banded, serial LU) with the rod's evaluations on 1
 * and on 2 threads; the trajectories are bit-identical (same steps, same
 * state), since f and the Jacobian are. */
#include <stdio.h>

#include "cosrod/band.h"
#include "cosrod/integrate.h"
#include "rod_jac_test_util.h"

/* Jacobian destinations compared */
enum { D_ABS, D_NS, D_DAE, D_DAEM, D_SECOND, D_STIFF, ND };
static const char *DNAME[ND] = {"absolute (node ordering)", "nullspace (node ordering)", "DAE (node ordering)",
                                "DAE mass form", "second-order blocks", "stiffness"};

typedef struct {
  double *J;
  size_t len;
  int st;
  int ld, ncol, h[2]; /* slots a column holds: h[0] in the first ncol / 2 columns, h[1] after (second order) */
} dest;

/* Destination w of rig g at its state with nthreads threads (calloc'ed band,
 * NaN-filled before the call). */
static dest assemble(rig *g, int w, int nthreads, const double *y[3]) {
  dest o = {NULL, 0, -1, 0, 0, {0, 0}};
  cosrod_rod_data_set_threads(g->d, nthreads);
  const int nq = g->nq;
  int ml = 0, mu = 0, ld;
  if (w == D_SECOND) {
    int mlq, muq, mlv, muv;
    cosrod_rod_jac_pattern_bandwidth(g->rod, g->d, COSROD_FORM_ABSOLUTE, 0, nq, 0, nq, nq, &mlq, &muq);
    cosrod_rod_jac_pattern_bandwidth(g->rod, g->d, COSROD_FORM_ABSOLUTE, 0, nq, nq, nq, nq, &mlv, &muv);
    ld = (mlq > mlv ? mlq : mlv) + (muq > muv ? muq : muv) + 1;
    o.len = (size_t)ld * 2 * (size_t)nq;
    o.J = malloc(sizeof(double) * o.len);
    for (size_t i = 0; i < o.len; ++i) o.J[i] = NAN;
    o.st = cosrod_rod_jac_second_order(g->rod, g->d, 0.5, y[0], o.J, ld, mlq, muq, mlv, muv);
    o.ld = ld, o.ncol = 2 * nq, o.h[0] = mlq + muq + 1, o.h[1] = mlv + muv + 1;
    return o;
  }
  if (w == D_STIFF) {
    cosrod_rod_jac_pattern_bandwidth(g->rod, g->d, COSROD_FORM_ABSOLUTE, 1, 0, 0, nq, nq, &ml, &mu);
    cosrod_band *K = cosrod_band_create(nq, ml, mu, NULL);
    o.st = cosrod_rod_stiffness(g->rod, g->d, 0.5, y[0], K);
    o.len = (size_t)K->ld * (size_t)nq;
    o.ld = o.h[0] = o.h[1] = K->ld, o.ncol = nq;
    o.J = malloc(sizeof(double) * o.len);
    memcpy(o.J, K->data, sizeof(double) * o.len);
    cosrod_band_free(K);
    return o;
  }
  const cosrod_rod_form form = w == D_ABS ? COSROD_FORM_ABSOLUTE : w == D_NS ? COSROD_FORM_NULLSPACE : COSROD_FORM_DAE;
  const int ny = cosrod_rod_ny(g->rod, form);
  int *perm = malloc(sizeof(int) * (size_t)ny);
  cosrod_rod_order_fill(g->rod, form, perm, NULL, &ml, &mu);
  ld = ml + mu + 1;
  o.len = (size_t)ld * (size_t)ny;
  o.ld = o.h[0] = o.h[1] = ld, o.ncol = ny;
  o.J = malloc(sizeof(double) * o.len);
  for (size_t i = 0; i < o.len; ++i) o.J[i] = NAN;
  const double *yy = y[w == D_ABS ? 0 : w == D_NS ? 1 : 2], *yp = y[2] + ny;
  if (w == D_DAEM)
    o.st = cosrod_rod_jac_dae_mass_band(g->rod, g->d, 0.5, yy, perm, o.J, ld, ml, mu);
  else
    o.st = cosrod_rod_jac_full_band(g->rod, g->d, form, 0.5, yy, yp, 3e3, perm, o.J, ld, ml, mu);
  free(perm);
  return o;
}

/* Whether a slot of the bands was left unwritten (NaN). */
static int has_nan(const dest *o) {
  for (int j = 0; j < o->ncol; ++j)
    for (int i = 0; i < o->h[j >= o->ncol / 2]; ++i)
      if (o->J[(size_t)j * (size_t)o->ld + (size_t)i] != o->J[(size_t)j * (size_t)o->ld + (size_t)i]) return 1;
  return 0;
}

static void compare_case(const rod_case *c, const char *label) {
  rig g;
  rig_make(&g, c);
  if (!g.rod) return;
  const int nd = cosrod_rod_ny(g.rod, COSROD_FORM_DAE);
  double *y[3] = {rig_state(&g, COSROD_FORM_ABSOLUTE, c->seed + 1), rig_state(&g, COSROD_FORM_NULLSPACE, c->seed + 2),
                  NULL};
  /* DAE: y and y' in one array (y' after y) */
  double *yd = rig_state(&g, COSROD_FORM_DAE, c->seed + 3);
  y[2] = realloc(yd, sizeof(double) * 2 * (size_t)nd);
  th_rng r;
  th_rng_seed(&r, c->seed + 4);
  for (int i = 0; i < nd; ++i) y[2][nd + i] = th_rng_normal(&r);
  for (int w = 0; w < ND; ++w) {
    dest ref = assemble(&g, w, 1, (const double **)y);
    char m[240];
    snprintf(m, sizeof m, "%s, %s, 1 thread: assembled, every band slot written", label, DNAME[w]);
    CHECK(m, ref.st == COSROD_OK && !has_nan(&ref));
    for (int nt = 2; nt <= 3; ++nt) {
      dest o = assemble(&g, w, nt, (const double **)y);
      snprintf(m, sizeof m, "%s, %s, %d threads: bit-identical to 1 thread", label, DNAME[w], nt);
      CHECK(m, o.st == COSROD_OK && o.len == ref.len && memcmp(o.J, ref.J, sizeof(double) * o.len) == 0);
      free(o.J);
    }
    free(ref.J);
  }
  free(y[0]), free(y[1]), free(y[2]);
  rig_free(&g);
}

TEST(cosserat_jacobians_bit_identical) {
  const int N = cosrod_rod_parallel_min_segments() + 37; /* unequal blocks for 2 and 3 threads */
  const rod_case cs[] = {
      {COSROD_CURV_SINE2, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 0, 1, 1, N, 101},
      {COSROD_CURV_TANGENT2, 1, COSROD_END_PRESCRIBED, COSROD_END_FREE, 0, 0, 1, N, 202},
      {COSROD_CURV_SINE4, 0, COSROD_END_PINNED, COSROD_END_CLAMPED, 1, 0, 0, N, 303},
      {COSROD_CURV_ANGLE, 1, COSROD_END_FREE, COSROD_END_PRESCRIBED, 0, 0, 1, N, 404},
  };
  const char *lab[] = {"sine2 damped clamped-pinned(slide) loads", "tangent2 damped prescribed-free loads",
                       "sine4 undamped pinned(slide)-clamped", "angle damped free-prescribed loads"};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; ++i) compare_case(&cs[i], lab[i]);
  rig_medium_damping = 1; /* the medium's derivatives (rod_medium.c) after the parallel loops */
  const rod_case cm = {COSROD_CURV_TANGENT4, 1, COSROD_END_CLAMPED, COSROD_END_CLAMPED, 0, 0, 1, N, 505};
  compare_case(&cm, "tangent4 damped + medium clamped-clamped loads");
  rig_medium_damping = 0;
}

TEST(kirchhoff_jacobian_bit_identical) {
  const int N = cosrod_rod_parallel_min_segments() + 37;
  const cosrod_rod_model models[2] = {COSROD_MODEL_KIRCHHOFF_EXTENSIBLE, COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE};
  for (int m = 0; m < 2; ++m) {
    cosrod_rod *rod = rt_helix_rod(models[m], N, 2, 1); /* clamped start, damped */
    CHECK("Kirchhoff rod created", rod != NULL);
    if (!rod) continue;
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    const int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE), nq = cosrod_rod_nq(rod);
    double *y = malloc(sizeof(double) * (size_t)ny);
    th_rng r;
    th_rng_seed(&r, 60 + (uint64_t)m);
    cosrod_rod_initial_state(rod, COSROD_FORM_DAE, y);
    for (int i = 0; i < nq; ++i) y[i] += 0.01 * th_rng_normal(&r);
    for (int i = nq; i < ny; ++i) y[i] = th_rng_normal(&r);
    int *perm = malloc(sizeof(int) * (size_t)ny), ml, mu;
    cosrod_rod_order_fill(rod, COSROD_FORM_DAE, perm, NULL, &ml, &mu);
    const size_t len = (size_t)(ml + mu + 1) * (size_t)ny;
    double *J[3];
    int st[3];
    for (int nt = 1; nt <= 3; ++nt) {
      cosrod_rod_data_set_threads(d, nt);
      J[nt - 1] = malloc(sizeof(double) * len);
      for (size_t i = 0; i < len; ++i) J[nt - 1][i] = NAN;
      st[nt - 1] = cosrod_rod_kirchhoff_jac_dae_band(rod, d, 0.0, y, perm, J[nt - 1], ml + mu + 1, ml, mu);
    }
    char w[160];
    snprintf(w, sizeof w, "Kirchhoff %s: 2 and 3 threads bit-identical to 1 thread",
             m ? "inextensible" : "extensible");
    CHECK(w, st[0] == COSROD_OK && st[1] == COSROD_OK && st[2] == COSROD_OK &&
                 memcmp(J[0], J[1], sizeof(double) * len) == 0 && memcmp(J[0], J[2], sizeof(double) * len) == 0);
    for (int i = 0; i < 3; ++i) free(J[i]);
    free(perm), free(y);
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
}

/* ---- end to end: RODAS with the analytic Jacobian --------------------------- */

typedef struct {
  cosrod_rod *rod;
  cosrod_rod_data *d;
  int mlq, muq, mlv, muv;
} ode_ctx;

static int f_abs(double t, const double *y, double *ydot, void *user) {
  ode_ctx *c = user;
  return cosrod_rod_rhs_absolute(c->rod, c->d, t, y, ydot);
}

static int jac_abs(double t, const double *y, double *J, int ldj, void *user) {
  ode_ctx *c = user;
  return cosrod_rod_jac_second_order(c->rod, c->d, t, y, J, ldj, c->mlq, c->muq, c->mlv, c->muv) == COSROD_OK
             ? 0
             : -1;
}

TEST(rodas_end_to_end_bit_identical) {
  const int N = cosrod_rod_parallel_min_segments() + 37;
  cosrod_rod *rod = rt_helix_rod(COSROD_MODEL_COSSERAT, N, 1, 1); /* pinned, damped, under gravity */
  CHECK("rod created", rod != NULL);
  if (!rod) return;
  ode_ctx c = {rod, cosrod_rod_data_create(rod, NULL), 0, 0, 0, 0};
  const int n = cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE), nq = cosrod_rod_nq(rod);
  cosrod_rod_jac_pattern_bandwidth(rod, c.d, COSROD_FORM_ABSOLUTE, 0, nq, 0, nq, nq, &c.mlq, &c.muq);
  cosrod_rod_jac_pattern_bandwidth(rod, c.d, COSROD_FORM_ABSOLUTE, 0, nq, nq, nq, nq, &c.mlv, &c.muv);
  double *y0 = malloc(sizeof(double) * 3 * (size_t)n), *ye[2] = {y0 + n, y0 + 2 * n};
  cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, y0);
  cosrod_ode_problem p = {0};
  p.n = n, p.f = f_abs, p.jac = jac_abs, p.user = &c;
  p.jac_banded = 1;
  p.jac_ml_q = c.mlq, p.jac_mu_q = c.muq;
  p.jac_ml = c.mlv, p.jac_mu = c.muv;
  p.m1 = p.m2 = nq;
  cosrod_integrate_stats s[2];
  for (int nt = 1; nt <= 2; ++nt) {
    cosrod_rod_data_set_threads(c.d, nt);
    cosrod_integrate_options o = cosrod_integrate_default_options();
    o.rtol = o.atol = 1e-5;
    o.threads = 1; /* serial LU: only f and the Jacobian run on threads */
    cosrod_status st;
    cosrod_integrator *I = cosrod_integrator_create(cosrod_step_type_by_name("rodas"), &p, &o, &st);
    CHECK("integrator created", I != NULL);
    if (!I) break;
    st = cosrod_integrate(I, 0.0, y0, 2e-3, NULL, ye[nt - 1]);
    CHECK("rodas reaches t_end", st == COSROD_OK);
    s[nt - 1] = *cosrod_integrator_stats(I);
    cosrod_integrator_free(I);
  }
  NOTE("N = %d: %ld steps, %ld Jacobians, %ld f", N, s[0].nsteps, s[0].njev, s[0].nfev);
  CHECK("the run used the analytic Jacobian and moved (several steps, >= 1 Jacobian)",
        s[0].nsteps >= 3 && s[0].njev >= 1 && memcmp(ye[0], y0, sizeof(double) * (size_t)n) != 0);
  CHECK("2 threads: same steps and Jacobians as 1 thread", s[1].nsteps == s[0].nsteps && s[1].njev == s[0].njev);
  CHECK("2 threads: end state bit-identical to 1 thread", memcmp(ye[0], ye[1], sizeof(double) * (size_t)n) == 0);
  free(y0);
  cosrod_rod_data_free(c.d);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(cosserat_jacobians_bit_identical), TH_CASE(kirchhoff_jacobian_bit_identical),
                                TH_CASE(rodas_end_to_end_bit_identical)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
