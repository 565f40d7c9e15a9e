// SPDX-License-Identifier: Apache-2.0
/* Banded node ordering of the whole rod state (rod_order.c) and the whole
 * Jacobian assembled in it (cosrod_rod_jac_full_band):
 *  - the ordering is a permutation, and the bandwidths it reports equal the
 *    documented table (rod.h) and the measured pattern of the assembly, for
 *    N = 3, 10, 50 (independent of N), every formulation, damped or not and
 *    every end type; the native ordering's bandwidth grows with N;
 *  - the permuted band Jacobian equals the native-ordering analytic Jacobian
 *    (cosrod_rod_jac_band, the existing blocks incl. the rectangular
 *    coupling blocks) entry by entry, and a dense central-difference
 *    Jacobian of the right-hand side / residual to <= 1e-6;
 *  - RADAU5 with the banded permuted Jacobian (general path, m1 = 0) follows
 *    the same trajectory as with the dense native one.
 * The rig (random non-uniform rods and large-deformation states) is the one
 * of test_rod_jac.c (rod_jac_test_util.c). */
#include <math.h>
#include <stdio.h>

#include "cosrod/band.h"
#include "cosrod/integrate.h"
#include "rod_jac_test_util.h"

static const char *CURV[] = {"sine-2", "sine-4", "tangent-2", "tangent-4", "angle"};
static const char *FORM[] = {"absolute", "nullspace", "dae", "dae-mass"};

/* Documented bandwidths (rod.h table): [form][damped] = {ml, mu}. */
static const int DOC_BW[3][2][2] = {{{13, 21}, {17, 21}}, {{12, 19}, {15, 19}}, {{14, 23}, {18, 23}}};

/* ---- ordering and bandwidths ------------------------------------------------- */

typedef struct ends_case {
  const char *name;
  cosrod_end_kind e0, e1;
  int s0, s1;
} ends_case;

static const ends_case ENDS[] = {
    {"free/free", COSROD_END_FREE, COSROD_END_FREE, 0, 0},
    {"pinned/sliding-pinned", COSROD_END_PINNED, COSROD_END_PINNED, 0, 1},
    {"clamped/free", COSROD_END_CLAMPED, COSROD_END_FREE, 0, 0},
    {"prescribed/clamped-sliding", COSROD_END_PRESCRIBED, COSROD_END_CLAMPED, 0, 1},
    {"clamped/clamped", COSROD_END_CLAMPED, COSROD_END_CLAMPED, 0, 0},
};

TEST(ordering_is_a_node_permutation) {
  /* perm is a bijection with inverse iperm, keeps every sub-block (x_n,
   * rate_n, p_k, rate_k, λ_k) contiguous and in order, and places the nodes
   * along the rod: all unknowns of vertex n before segment n before vertex
   * n + 1. */
  int bad = 0, total = 0;
  for (int f = 0; f < 3; ++f)
    for (size_t e = 0; e < sizeof ENDS / sizeof ENDS[0]; ++e) {
      cosrod_rod_def def = cosrod_rod_def_default();
      def.nseg = 7;
      def.ends[0].kind = ENDS[e].e0, def.ends[1].kind = ENDS[e].e1;
      def.ends[0].slides = ENDS[e].s0, def.ends[1].slides = ENDS[e].s1;
      def.ends[0].slide_axis[0] = def.ends[1].slide_axis[2] = 1.0;
      cosrod_rod *rod = cosrod_rod_create(&def, NULL);
      cosrod_status st;
      cosrod_rod_order *o = cosrod_rod_order_create(rod, (cosrod_rod_form)f, &st);
      if (!o) {
        CHECK("order created", 0);
        cosrod_rod_free(rod);
        continue;
      }
      int ny = cosrod_rod_order_ny(o), N = 7, nq = cosrod_rod_nq(rod);
      const int *pm = cosrod_rod_order_perm(o), *ip = cosrod_rod_order_iperm(o);
      total++;
      int ok = ny == cosrod_rod_ny(rod, (cosrod_rod_form)f);
      for (int i = 0; i < ny && ok; ++i) ok = pm[i] >= 0 && pm[i] < ny && ip[pm[i]] == i;
      /* node positions: last banded index used by vertex n < first of segment n < first of vertex n+1 */
      int prev = -1;
      for (int n = 0; n <= N && ok; ++n) {
        int nd = cosrod_rod_vertex_ndof(rod, n);
        if (nd) {
          int iq = cosrod_rod_qindex_vertex(rod, n),
              iv = nq + cosrod_rod_vindex_vertex(rod, (cosrod_rod_form)f, n);
          for (int j = 0; j < nd; ++j) ok &= pm[iv + j] == prev + 1 + j && pm[iq + j] == prev + 1 + nd + j;
          prev += 2 * nd;
        }
        if (n == N) break;
        int iq = cosrod_rod_qindex_segment(rod, n),
            iv = nq + cosrod_rod_vindex_segment(rod, (cosrod_rod_form)f, n);
        int nr = f == COSROD_FORM_NULLSPACE ? 3 : 4;
        if (f == COSROD_FORM_DAE) ok &= pm[2 * nq + n] == ++prev;
        for (int j = 0; j < nr; ++j) ok &= pm[iv + j] == prev + 1 + j;
        for (int j = 0; j < 4; ++j) ok &= pm[iq + j] == prev + 1 + nr + j;
        prev += nr + 4;
      }
      ok &= prev == ny - 1;
      /* round trip of a vector */
      double *a = malloc(sizeof(double) * 3 * (size_t)ny), *b = a + ny, *c = b + ny;
      for (int i = 0; i < ny; ++i) a[i] = i + 0.5;
      cosrod_rod_order_to_banded(o, a, b);
      cosrod_rod_order_to_native(o, b, c);
      for (int i = 0; i < ny; ++i) ok &= c[i] == a[i] && b[pm[i]] == a[i];
      free(a);
      if (!ok) {
        bad++;
        NOTE("%s %s: ordering wrong", FORM[f], ENDS[e].name);
      }
      cosrod_rod_order_free(o);
      cosrod_rod_free(rod);
    }
  NOTE("%d orderings checked", total);
  CHECK("every ordering is a bijection with the documented node layout", bad == 0 && total == 15);
  cosrod_rod_order_free(NULL); /* no-op */
  CHECK("order of a NULL rod refused", cosrod_rod_order_create(NULL, COSROD_FORM_DAE, NULL) == NULL);
}

TEST(bandwidths_independent_of_N) {
  /* For every formulation, damping on/off, end combination and N = 3, 10,
   * 50: the bandwidths returned by the ordering (block coupling table) equal
   * the measured structural pattern of the analytic assembly in that
   * ordering (every entry written, zero or not) and the documented values;
   * the native ordering's full bandwidth grows with N (reported). */
  static const int NS[3] = {3, 10, 50};
  int mism_doc = 0, mism_meas = 0, count = 0;
  for (int f = 0; f < 3; ++f)
    for (int dmp = 0; dmp < 2; ++dmp) {
      int nat[3][2] = {{0}};
      for (size_t e = 0; e < sizeof ENDS / sizeof ENDS[0]; ++e)
        for (int in = 0; in < 3; ++in) {
          cosrod_rod_def def = cosrod_rod_def_default();
          def.nseg = NS[in];
          def.shape = COSROD_SHAPE_HELIX, def.shape_radius = 0.2, def.pitch = 0.1, def.turns = 0.7;
          if (dmp) def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 0.01, def.tau_bulk = 0.02;
          def.ends[0].kind = ENDS[e].e0, def.ends[1].kind = ENDS[e].e1;
          def.ends[0].slides = ENDS[e].s0, def.ends[1].slides = ENDS[e].s1;
          def.ends[0].slide_axis[0] = def.ends[1].slide_axis[2] = 1.0;
          cosrod_rod *rod = cosrod_rod_create(&def, NULL);
          cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
          int ny = cosrod_rod_ny(rod, (cosrod_rod_form)f);
          int *pm = malloc(sizeof(int) * (size_t)ny);
          int ml, mu, mml, mmu;
          cosrod_status s1 = cosrod_rod_order_fill(rod, (cosrod_rod_form)f, pm, NULL, &ml, &mu);
          cosrod_status s2 =
              cosrod_rod_jac_full_pattern_bandwidth(rod, d, (cosrod_rod_form)f, pm, &mml, &mmu);
          count++;
          if (s1 != COSROD_OK || s2 != COSROD_OK || ml != mml || mu != mmu) {
            mism_meas++;
            NOTE("%s damped=%d %s N=%d: order (%d, %d) vs measured (%d, %d)", FORM[f], dmp, ENDS[e].name,
                 NS[in], ml, mu, mml, mmu);
          }
          if (ml != DOC_BW[f][dmp][0] || mu != DOC_BW[f][dmp][1]) {
            mism_doc++;
            NOTE("%s damped=%d %s N=%d: (%d, %d), documented (%d, %d)", FORM[f], dmp, ENDS[e].name, NS[in],
                 ml, mu, DOC_BW[f][dmp][0], DOC_BW[f][dmp][1]);
          }
          if (e == 0 && in < 2) {
            cosrod_rod_jac_full_pattern_bandwidth(rod, d, (cosrod_rod_form)f, NULL, &nat[in][0], &nat[in][1]);
          }
          free(pm);
          cosrod_rod_data_free(d);
          cosrod_rod_free(rod);
        }
      NOTE("%s damped=%d: banded (%d, %d); native ordering free/free N=3: (%d, %d), N=10: (%d, %d)", FORM[f],
           dmp, DOC_BW[f][dmp][0], DOC_BW[f][dmp][1], nat[0][0], nat[0][1], nat[1][0], nat[1][1]);
      char w[120];
      snprintf(w, sizeof w, "%s damped=%d: native full bandwidth grows with N (N=10 > N=3)", FORM[f], dmp);
      CHECK(w, nat[1][0] > nat[0][0] && nat[1][1] > nat[0][1]);
    }
  NOTE("%d rods (3 formulations x 2 dampings x 5 end pairs x N = 3, 10, 50)", count);
  CHECK("order bandwidths == measured pattern bandwidths (all cases)", mism_meas == 0 && count == 90);
  CHECK("order bandwidths == documented table, independent of N (all cases)", mism_doc == 0);
}

/* ---- Jacobian entries -------------------------------------------------------- */

/* modes: 0 ABSOLUTE, 1 NULLSPACE, 2 DAE residual, 3 DAE as M y' = f (mass form) */
enum { MODE_DAE_MASS = 3 };

typedef struct fd_ctx {
  int form;
  const double *y, *yp;
  int wrt_yp;
} fd_ctx;

static void any_rhs(rig *g, const double *v, double *out, void *ctx) {
  fd_ctx *c = ctx;
  switch (c->form) {
    case COSROD_FORM_ABSOLUTE:
      cosrod_rod_rhs_absolute(g->rod, g->d, 0.5, v, out);
      break;
    case COSROD_FORM_NULLSPACE:
      cosrod_rod_rhs_nullspace(g->rod, g->d, 0.5, v, out);
      break;
    case MODE_DAE_MASS: /* f = (v, a, λ_post - λ), as the simulation driver's DAE right-hand side */
      cosrod_rod_rhs_absolute(g->rod, g->d, 0.5, v, out);
      for (int k = 0; k < g->N; ++k) out[2 * g->nq + k] = g->d->lambda[k] - v[2 * g->nq + k];
      break;
    default:
      if (c->wrt_yp)
        cosrod_rod_res_dae(g->rod, g->d, 0.5, c->y, v, out);
      else
        cosrod_rod_res_dae(g->rod, g->d, 0.5, v, c->yp, out);
      break;
  }
}

/* One rod case, one formulation: *eq = max |J_perm - J_native| / max |J_native|
 * over all entries, *efd = max row-relative error of J_perm vs dense FD. */
static void check_case(const rod_case *c, int mode, const char *label, double *eq_w, double *fd_w) {
  rig g;
  rig_make(&g, c);
  if (!g.rod) return;
  const cosrod_rod_form form = mode == MODE_DAE_MASS ? COSROD_FORM_DAE : (cosrod_rod_form)mode;
  double *y = rig_state(&g, form, c->seed + 500);
  int ny = cosrod_rod_ny(g.rod, form);
  double *yp = calloc((size_t)ny, sizeof(double));
  th_rng r;
  th_rng_seed(&r, c->seed + 501);
  for (int i = 0; i < ny; ++i) yp[i] = th_rng_normal(&r);
  const double cj = 37.5;
  /* native reference: the existing analytic assembly, one full-width block */
  cosrod_band *Nat = cosrod_band_create(ny, ny - 1, ny - 1, NULL);
  cosrod_status s0;
  double eqa = 0.0; /* mass form: its ABSOLUTE rows vs the existing ABSOLUTE Jacobian */
  if (mode == MODE_DAE_MASS) {
    s0 = cosrod_rod_jac_dae_mass_band(g.rod, g.d, 0.5, y, NULL, Nat->data + Nat->ml, Nat->ld, ny - 1, ny - 1);
    cosrod_band *A = cosrod_band_create(2 * g.nq, 2 * g.nq - 1, 2 * g.nq - 1, NULL);
    if (s0 == COSROD_OK)
      s0 = cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, NULL, 0.0, 0, 0, A);
    double am = 0.0;
    for (int j = 0; j < 2 * g.nq; ++j)
      for (int i = 0; i < 2 * g.nq; ++i) {
        am = fmax(am, fabs(cosrod_band_get(A, i, j)));
        eqa = fmax(eqa, fabs(cosrod_band_get(A, i, j) - cosrod_band_get(Nat, i, j)));
      }
    eqa /= am;
    cosrod_band_free(A);
  } else {
    s0 = cosrod_rod_jac_band(g.rod, g.d, form, 0.5, y, yp, cj, 0, 0, Nat);
  }
  /* banded ordering */
  cosrod_rod_order *o = cosrod_rod_order_create(g.rod, form, NULL);
  int ml, mu;
  cosrod_rod_order_bandwidth(o, &ml, &mu);
  const int *pm = cosrod_rod_order_perm(o);
  cosrod_band *P = cosrod_band_create(ny, ml, mu, NULL);
  for (size_t i = 0; i < (size_t)P->ld * (size_t)ny; ++i) P->data[i] = 1e300; /* must be overwritten */
  cosrod_status s1 =
      mode == MODE_DAE_MASS
          ? cosrod_rod_jac_dae_mass_band(g.rod, g.d, 0.5, y, pm, P->data + P->ml, P->ld, ml, mu)
          : cosrod_rod_jac_full_band(g.rod, g.d, form, 0.5, y, yp, cj, pm, P->data + P->ml, P->ld, ml, mu);
  char w[200];
  snprintf(w, sizeof w, "%s %s: native and permuted assembly status OK", FORM[mode], label);
  CHECK(w, s0 == COSROD_OK && s1 == COSROD_OK);
  double gmax = 0.0, eq = 0.0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < ny; ++i) gmax = fmax(gmax, fabs(cosrod_band_get(Nat, i, j)));
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < ny; ++i) {
      int a = pm[i], b = pm[j];
      double v = (a - b <= ml && b - a <= mu) ? cosrod_band_get(P, a, b) : 0.0;
      eq = fmax(eq, fabs(v - cosrod_band_get(Nat, i, j)));
    }
  eq /= gmax;
  /* dense FD reference in the native ordering (DAE: dF/dy + cj dF/dy') */
  double *D = malloc(sizeof(double) * (size_t)ny * (size_t)ny);
  fd_ctx cy = {mode, y, yp, 0};
  dense_fd(&g, any_rhs, &cy, y, ny, ny, 0, ny, D);
  if (mode == COSROD_FORM_DAE) {
    double *Dp = malloc(sizeof(double) * (size_t)ny * (size_t)ny);
    fd_ctx cp = {mode, y, yp, 1};
    dense_fd(&g, any_rhs, &cp, yp, ny, ny, 0, ny, Dp);
    for (size_t i = 0; i < (size_t)ny * (size_t)ny; ++i) D[i] += cj * Dp[i];
    free(Dp);
  }
  double dmax = 0.0, efd = 0.0;
  for (size_t i = 0; i < (size_t)ny * (size_t)ny; ++i) dmax = fmax(dmax, fabs(D[i]));
  for (int i = 0; i < ny; ++i) {
    double rs = 0.0, re = 0.0;
    for (int j = 0; j < ny; ++j) {
      int a = pm[i], b = pm[j];
      double v = (a - b <= ml && b - a <= mu) ? cosrod_band_get(P, a, b) : 0.0, f = D[i + (size_t)ny * j];
      rs = fmax(rs, fabs(f));
      re = fmax(re, fabs(v - f));
    }
    efd = fmax(efd, re / fmax(rs, 1e-8 * dmax));
  }
  snprintf(w, sizeof w, "%s %s: permuted band == native analytic (max abs diff / max |J|), ml %d mu %d",
           FORM[mode], label, ml, mu);
  CHECK_LE(w, eq, 1e-12);
  if (mode == MODE_DAE_MASS) {
    snprintf(w, sizeof w, "%s %s: (q, v) rows == ABSOLUTE analytic Jacobian (cosrod_rod_jac_band)",
             FORM[mode], label);
    CHECK_LE(w, eqa, 1e-12);
  }
  snprintf(w, sizeof w, "%s %s: permuted band vs dense FD (row-relative)", FORM[mode], label);
  CHECK_LE(w, efd, 1e-6);
  *eq_w = fmax(*eq_w, eq);
  *fd_w = fmax(*fd_w, efd);
  free(D), free(y), free(yp);
  cosrod_band_free(Nat), cosrod_band_free(P);
  cosrod_rod_order_free(o);
  rig_free(&g);
}

/* Tolerances: the permuted assembly performs the same floating-point
 * operations as the native one (only the destination differs), so 1e-12 of
 * max |J| only allows for nothing but roundoff-free equality in practice;
 * the FD measure is that of test_rod_jac.c (central differences, h ~ 6e-6:
 * truncation + roundoff ~1e-10 of a row's scale; 1e-6 catches any wrong or
 * missing term, which is O(1) relative). */
static void check_form(int mode, uint64_t seed) {
  double eq = 0.0, efd = 0.0;
  for (int cv = 0; cv < 5; ++cv) {
    rod_case c = {(cosrod_curvature)cv, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 0, 1, 1, 5, seed + cv};
    char label[80];
    snprintf(label, sizeof label, "%s damped clamped/sliding loads", CURV[cv]);
    check_case(&c, mode, label, &eq, &efd);
  }
  rod_case c2 = {COSROD_CURV_TANGENT2, 1, COSROD_END_PRESCRIBED, COSROD_END_FREE, 0, 0, 1, 4, seed + 10};
  check_case(&c2, mode, "tangent-2 damped prescribed/free loads", &eq, &efd);
  rod_case c3 = {COSROD_CURV_SINE4, 1, COSROD_END_PINNED, COSROD_END_CLAMPED, 0, 0, 0, 3, seed + 11};
  check_case(&c3, mode, "sine-4 damped pinned/clamped", &eq, &efd);
  rod_case c4 = {COSROD_CURV_ANGLE, 1, COSROD_END_FREE, COSROD_END_PRESCRIBED, 0, 1, 1, 4, seed + 12};
  check_case(&c4, mode, "angle damped free/prescribed-sliding loads", &eq, &efd);
  rod_case c5 = {COSROD_CURV_TANGENT4, 0, COSROD_END_CLAMPED, COSROD_END_FREE, 0, 0, 1, 5, seed + 13};
  check_case(&c5, mode, "tangent-4 undamped clamped/free loads", &eq, &efd);
  NOTE("%s: worst permuted-vs-native %.2e, worst vs FD %.2e", FORM[mode], eq, efd);
}

TEST(nullspace_permuted_jacobian) { check_form(COSROD_FORM_NULLSPACE, 600); }
TEST(dae_permuted_jacobian) { check_form(COSROD_FORM_DAE, 700); }
TEST(absolute_permuted_jacobian) { check_form(COSROD_FORM_ABSOLUTE, 800); }
TEST(dae_mass_form_permuted_jacobian) { check_form(MODE_DAE_MASS, 850); }

TEST(too_narrow_band_reported) {
  rod_case c = {COSROD_CURV_TANGENT2, 1, COSROD_END_FREE, COSROD_END_FREE, 0, 0, 0, 6, 900};
  rig g;
  rig_make(&g, &c);
  if (!g.rod) return;
  double *y = rig_state(&g, COSROD_FORM_NULLSPACE, 901);
  int ny = cosrod_rod_ny(g.rod, COSROD_FORM_NULLSPACE), ml, mu;
  int *pm = malloc(sizeof(int) * (size_t)ny);
  cosrod_rod_order_fill(g.rod, COSROD_FORM_NULLSPACE, pm, NULL, &ml, &mu);
  double *J = malloc(sizeof(double) * (size_t)(ml + mu + 1) * (size_t)ny);
  cosrod_status s1 = cosrod_rod_jac_full_band(g.rod, g.d, COSROD_FORM_NULLSPACE, 0.5, y, NULL, 0.0, pm, J,
                                              ml + mu, ml - 1, mu);
  cosrod_status s2 = cosrod_rod_jac_full_band(g.rod, g.d, COSROD_FORM_NULLSPACE, 0.5, y, NULL, 0.0, pm, J,
                                              ml + mu + 1, ml, mu);
  CHECK("ml - 1: ERR_DIMENSION; documented (ml, mu): OK", s1 == COSROD_ERR_DIMENSION && s2 == COSROD_OK);
  free(J), free(pm), free(y);
  rig_free(&g);
}

/* ---- integration ---------------------------------------------------------- */

typedef struct ictx {
  cosrod_rod *rod;
  cosrod_rod_data *d;
  const cosrod_rod_order *o;
  int mass; /* 0: NULLSPACE ODE; 1: DAE as M y' = f (f = (v, a, λ_post - λ)) */
  int ny, nq, N, ml, mu;
  double *yn, *fn;   /* (ny) native scratch */
  cosrod_band *full; /* (ny, ny-1, ny-1) native full Jacobian for the dense path */
  long njac;
} ictx;

static int rhs(ictx *c, double t, const double *y, double *ydot) {
  if (!c->mass) return cosrod_rod_rhs_nullspace(c->rod, c->d, t, y, ydot);
  int rc = cosrod_rod_rhs_absolute(c->rod, c->d, t, y, ydot);
  for (int k = 0; k < c->N; ++k) ydot[2 * c->nq + k] = c->d->lambda[k] - y[2 * c->nq + k];
  return rc;
}
static cosrod_status jac(ictx *c, double t, const double *y, const int *perm, double *J, int ldj, int ml,
                         int mu) {
  return c->mass ? cosrod_rod_jac_dae_mass_band(c->rod, c->d, t, y, perm, J, ldj, ml, mu)
                 : cosrod_rod_jac_full_band(c->rod, c->d, COSROD_FORM_NULLSPACE, t, y, NULL, 0.0, perm, J,
                                            ldj, ml, mu);
}
static int f_native(double t, const double *y, double *ydot, void *user) { return rhs(user, t, y, ydot); }
static int jac_native_dense(double t, const double *y, double *J, int ldj, void *user) {
  ictx *c = user;
  c->njac++;
  if (jac(c, t, y, NULL, c->full->data + c->full->ml, c->full->ld, c->ny - 1, c->ny - 1) != COSROD_OK)
    return -1;
  for (int j = 0; j < c->ny; ++j)
    for (int i = 0; i < c->ny; ++i) J[i + (size_t)ldj * j] = cosrod_band_get(c->full, i, j);
  return 0;
}
static int f_banded(double t, const double *yb, double *fb, void *user) {
  ictx *c = user;
  cosrod_rod_order_to_native(c->o, yb, c->yn);
  int rc = rhs(c, t, c->yn, c->fn);
  cosrod_rod_order_to_banded(c->o, c->fn, fb);
  return rc;
}
static int jac_banded(double t, const double *yb, double *J, int ldj, void *user) {
  ictx *c = user;
  c->njac++;
  cosrod_rod_order_to_native(c->o, yb, c->yn);
  return jac(c, t, c->yn, cosrod_rod_order_perm(c->o), J, ldj, c->ml, c->mu) == COSROD_OK ? 0 : -1;
}
/* M = diag(1 (2 nq), 0 (N)) in the native ordering, permuted in the banded one */
static int mass_native(double *M, int ldm, void *user) {
  ictx *c = user;
  for (int i = 0; i < c->ny; ++i) cosrod_jac_set(M, ldm, 0, 0, i, i, i < 2 * c->nq ? 1.0 : 0.0);
  return 0;
}
static int mass_banded(double *M, int ldm, void *user) {
  ictx *c = user;
  const int *pm = cosrod_rod_order_perm(c->o);
  for (int i = 0; i < c->ny; ++i) cosrod_jac_set(M, ldm, 1, 0, pm[i], pm[i], i < 2 * c->nq ? 1.0 : 0.0);
  return 0;
}

static cosrod_status integrate(ictx *c, int banded, const double *y0, double tend, double *yend,
                               cosrod_integrate_stats *st) {
  cosrod_ode_problem p = {0};
  p.n = c->ny, p.user = c;
  p.f = banded ? f_banded : f_native;
  p.jac = banded ? jac_banded : jac_native_dense;
  p.jac_banded = banded;
  p.jac_ml = c->ml, p.jac_mu = c->mu;
  if (c->mass) {
    p.mass = banded ? mass_banded : mass_native;
    p.mass_banded = banded;
    p.mass_ml = p.mass_mu = 0;
  }
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-7;
  cosrod_status s;
  cosrod_integrator *I = cosrod_integrator_create(cosrod_step_type_by_name("radau5"), &p, &o, &s);
  if (!I) return s;
  s = cosrod_integrate(I, 0.0, y0, tend, NULL, yend);
  *st = *cosrod_integrator_stats(I);
  cosrod_integrator_free(I);
  return s;
}

/* A damped, pinned, gravity-loaded rod in a random bent state (N = 8), 5 ms
 * with RADAU5 at rtol = atol = 1e-7: once in the native ordering with the
 * dense analytic Jacobian, once in the banded ordering with the band
 * Jacobian (general path, no m1; DAE: banded diagonal mass matrix).  Same
 * equations, so the runs differ only by the roundoff of the two LU
 * factorisations; end states must agree far inside the tolerance (1e-6 of
 * max |y|, a 10 x rtol margin in case the step sequences diverge) with step
 * counts within 10 %. */
static void radau5_case(int mass) {
  enum { N = 8 };
  const cosrod_rod_form form = mass ? COSROD_FORM_DAE : COSROD_FORM_NULLSPACE;
  th_rng r;
  th_rng_seed(&r, 991);
  double s[N + 1], x[3 * (N + 1)], p[4 * N], xd[3 * (N + 1)], Om[3 * N];
  rt_grid(&r, N, 1.0, s);
  rt_config(&r, N, s, 0.05, 0.3, x, p, xd, Om);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.grid = s, def.ngrid = N + 1;
  def.reference = COSROD_REFERENCE_STRAIGHT;
  def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 1e-3, def.tau_bulk = 1e-3;
  def.gravity[2] = -9.81;
  def.ends[0].kind = COSROD_END_PINNED;
  ictx c = {0};
  c.mass = mass;
  c.rod = cosrod_rod_create(&def, NULL);
  c.d = cosrod_rod_data_create(c.rod, NULL);
  cosrod_rod_order *o = cosrod_rod_order_create(c.rod, form, NULL);
  c.o = o;
  c.ny = cosrod_rod_ny(c.rod, form);
  c.nq = cosrod_rod_nq(c.rod);
  c.N = N;
  cosrod_rod_order_bandwidth(o, &c.ml, &c.mu);
  int n = c.ny;
  double *buf = malloc(sizeof(double) * 6 * (size_t)n);
  double *y0 = buf, *y0b = buf + n, *yd = buf + 2 * n, *ybb = buf + 3 * n, *yb = buf + 4 * n;
  c.yn = malloc(sizeof(double) * 2 * (size_t)n);
  c.fn = c.yn + n;
  c.full = cosrod_band_create(n, n - 1, n - 1, NULL);
  for (int i = 0; i < 3 * (N + 1); ++i) xd[i] *= 0.1;
  for (int i = 0; i < 3 * N; ++i) Om[i] *= 0.1;
  cosrod_rod_pack(c.rod, form, 0.0, x, p, xd, Om, y0);
  if (mass) { /* consistent multipliers λ = λ_post(q, v) */
    cosrod_rod_project(c.rod, form, y0);
    cosrod_rod_lambda(c.rod, c.d, form, 0.0, y0, y0 + 2 * c.nq);
  }
  cosrod_rod_order_to_banded(o, y0, y0b);
  cosrod_integrate_stats sd, sb;
  c.njac = 0;
  cosrod_status st1 = integrate(&c, 0, y0, 0.005, yd, &sd);
  long njd = c.njac;
  c.njac = 0;
  cosrod_status st2 = integrate(&c, 1, y0b, 0.005, ybb, &sb);
  long njb = c.njac;
  CHECK("both runs reach t_end", st1 == COSROD_OK && st2 == COSROD_OK);
  cosrod_rod_order_to_native(o, ybb, yb);
  double diff = 0.0, sc = 0.0, moved = 0.0;
  for (int i = 0; i < n; ++i) {
    diff = fmax(diff, fabs(yb[i] - yd[i]));
    sc = fmax(sc, fabs(yd[i]));
    moved = fmax(moved, fabs(yd[i] - y0[i]));
  }
  NOTE(
      "%s: ny %d, band (%d, %d); dense native: %ld steps %ld f %ld J %ld LU; banded permuted: %ld steps %ld "
      "f "
      "%ld J %ld LU; max |y_end - y0| = %.3e of max |y| = %.3e",
      mass ? "dae (mass form)" : "nullspace", n, c.ml, c.mu, sd.nsteps, sd.nfev, sd.njev, sd.ndecomp,
      sb.nsteps, sb.nfev, sb.njev, sb.ndecomp, moved, sc);
  CHECK("analytic Jacobians used in both runs (callback calls == njev > 0)",
        njd > 0 && njd == sd.njev && njb == sb.njev);
  CHECK("the state moved (a non-trivial trajectory)", moved > 1e-3 * sc);
  CHECK_LE("end state banded-permuted vs dense-native, max |diff| / max |y|", diff / sc, 1e-6);
  CHECK_LE("step counts differ by <= 10 %", fabs((double)sb.nsteps - (double)sd.nsteps),
           0.1 * (double)sd.nsteps);
  free(buf), free(c.yn);
  cosrod_band_free(c.full);
  cosrod_rod_order_free(o);
  cosrod_rod_data_free(c.d);
  cosrod_rod_free(c.rod);
}

TEST(radau5_nullspace_banded_permuted_vs_dense_native) { radau5_case(0); }
TEST(radau5_dae_mass_banded_permuted_vs_dense_native) { radau5_case(1); }

static const th_case cases[] = {TH_CASE(ordering_is_a_node_permutation),
                                TH_CASE(bandwidths_independent_of_N),
                                TH_CASE(nullspace_permuted_jacobian),
                                TH_CASE(dae_permuted_jacobian),
                                TH_CASE(absolute_permuted_jacobian),
                                TH_CASE(dae_mass_form_permuted_jacobian),
                                TH_CASE(too_narrow_band_reported),
                                TH_CASE(radau5_nullspace_banded_permuted_vs_dense_native),
                                TH_CASE(radau5_dae_mass_banded_permuted_vs_dense_native)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
