// SPDX-License-Identifier: Apache-2.0
/* Analytic rod Jacobians (rod_jac.c) against finite-difference twins:
 * cosrod_rod_jac_fd for the square ABSOLUTE / NULLSPACE blocks and a dense
 * central-difference reference (this file) for the rectangular NULLSPACE
 * blocks, the DAE residual Jacobian and the static stiffness.  Every entry
 * inside the band is compared (including the zeros outside the pattern) and
 * the full Jacobian is checked to vanish outside the band.
 *
 * Error measure: per row i, max_j |J_an - J_fd| / max(max_j |J_fd(i, j)|, 1e-8
 * max |J_fd|); the largest over all rows must be <= 1e-6.  Central differences
 * with h ~ 6e-6 have truncation ~h² ~ 4e-11 and roundoff ~eps |f| / h ~ 1e-10
 * relative to a row's scale here, so 1e-6 leaves margin without hiding a
 * missing term (a wrong term is O(1) relative). */
#include <math.h>
#include <stdio.h>

#include "cosrod/band.h"
#include "rod_jac_test_util.h"

typedef int (*rhs_fn)(const cosrod_rod *, cosrod_rod_data *, double, const double *, double *);

/* max over rows of the row-relative error between band A and dense D (n x n,
 * column-major) inside A's band; *out = max |D| outside A's band. */
static double band_err(const cosrod_band *A, const double *D, int nr, int nc, double *out) {
  double gmax = 0.0;
  for (int j = 0; j < nc; ++j)
    for (int i = 0; i < nr; ++i) gmax = fmax(gmax, fabs(D[i + (size_t)nr * j]));
  double err = 0.0;
  *out = 0.0;
  for (int i = 0; i < nr; ++i) {
    double rs = 0.0, re = 0.0;
    for (int j = 0; j < nc; ++j) {
      double v = D[i + (size_t)nr * j];
      if (i - j <= A->ml && j - i <= A->mu) {
        rs = fmax(rs, fabs(v));
        re = fmax(re, fabs(cosrod_band_get(A, i, j) - v));
      } else {
        *out = fmax(*out, fabs(v) / (gmax > 0 ? gmax : 1.0));
      }
    }
    if (re / fmax(rs, 1e-8 * gmax) > 1e-6)
      for (int j = 0; j < nc; ++j)
        if (i - j <= A->ml && j - i <= A->mu &&
            fabs(cosrod_band_get(A, i, j) - D[i + (size_t)nr * j]) > 1e-6 * rs)
          NOTE("row %d col %d: %.10e vs %.10e (row scale %.3e)", i, j, cosrod_band_get(A, i, j),
               D[i + (size_t)nr * j], rs);
    err = fmax(err, re / fmax(rs, 1e-8 * gmax));
  }
  return err;
}

/* two bands compared entry by entry over the whole band of A (B same or wider) */
static double band_vs_band(const cosrod_band *A, const cosrod_band *B) {
  int n = A->n;
  double gmax = 0.0, err = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = j - A->mu; i <= j + A->ml; ++i)
      if (i >= 0 && i < n) gmax = fmax(gmax, fabs(cosrod_band_get(B, i, j)));
  for (int i = 0; i < n; ++i) {
    double rs = 0.0, re = 0.0;
    for (int j = i - A->ml; j <= i + A->mu; ++j) {
      if (j < 0 || j >= n) continue;
      double b = cosrod_band_get(B, i, j);
      rs = fmax(rs, fabs(b));
      re = fmax(re, fabs(cosrod_band_get(A, i, j) - b));
    }
    if (re / fmax(rs, 1e-8 * gmax) > 1e-6) {
      for (int j = i - A->ml; j <= i + A->mu; ++j)
        if (j >= 0 && j < n && fabs(cosrod_band_get(A, i, j) - cosrod_band_get(B, i, j)) > 1e-6 * rs)
          NOTE("row %d col %d: %.10e vs %.10e (row scale %.3e)", i, j, cosrod_band_get(A, i, j),
               cosrod_band_get(B, i, j), rs);
    }
    err = fmax(err, re / fmax(rs, 1e-8 * gmax));
  }
  return err;
}

/* Without damping the accelerations are exactly quadratic in the velocities
 * (inertia / centripetal terms), so a central difference with a large step
 * (h = 1) is exact up to roundoff eps |a| / h: far less noisy than the FD twin's
 * h ~ 6e-6 on rows whose accelerations are ~1e6 larger than their rate
 * derivatives.  Compares the velocity block (rows r0.., cols c0.., n x n). */
static double undamped_rate_err(rig *g, vec_fn f, const double *y, int ny, int r0, int c0, int n,
                                const cosrod_band *A) {
  double *D = malloc(sizeof(double) * (size_t)ny * (size_t)n), *E = malloc(sizeof(double) * (size_t)n * n);
  dense_fd_h(g, f, NULL, y, ny, ny, c0, n, D, 1.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) E[i + (size_t)n * j] = D[r0 + i + (size_t)ny * j];
  double out, e = band_err(A, E, n, n, &out);
  free(D), free(E);
  return e;
}

static void abs_rhs(rig *g, const double *y, double *out, void *ctx) {
  (void)ctx;
  cosrod_rod_rhs_absolute(g->rod, g->d, 0.5, y, out);
}
static void ns_rhs(rig *g, const double *y, double *out, void *ctx) {
  (void)ctx;
  cosrod_rod_rhs_nullspace(g->rod, g->d, 0.5, y, out);
}

static const char *CURV[] = {"sine-2", "sine-4", "tangent-2", "tangent-4", "angle"};

/* ---- ABSOLUTE ------------------------------------------------------------- */

static void check_absolute(const rod_case *c, const char *label, double *worst) {
  rig g;
  rig_make(&g, c);
  if (!g.rod) return;
  g.d->baumgarte_omega = 3.0, g.d->baumgarte_r = 2.0;
  double *y = rig_state(&g, COSROD_FORM_ABSOLUTE, c->seed + 100);
  int nq = g.nq;
  int mlq, muq, mlv, muv;
  cosrod_rod_bandwidth(g.rod, COSROD_FORM_ABSOLUTE, &mlq, &muq, &mlv, &muv);
  cosrod_band *Ja = cosrod_band_create(nq, mlq, muq, NULL), *Jf = cosrod_band_create(nq, mlq, muq, NULL);
  cosrod_band *Va = cosrod_band_create(nq, mlv, muv, NULL), *Vf = cosrod_band_create(nq, mlv, muv, NULL);
  cosrod_status s1 = cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, NULL, 0.0, nq, 0, Ja);
  cosrod_status s2 = cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, NULL, 0.0, nq, nq, Va);
  cosrod_rod_jac_fd(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, nq, 0, Jf);
  cosrod_rod_jac_fd(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, nq, nq, Vf);
  double eq = band_vs_band(Ja, Jf), ev = band_vs_band(Va, Vf);
  if (!c->damped) ev = undamped_rate_err(&g, abs_rhs, y, 2 * nq, nq, nq, nq, Va);
  char w[200];
  snprintf(w, sizeof w, "%s: absolute status OK", label);
  CHECK(w, s1 == COSROD_OK && s2 == COSROD_OK);
  snprintf(w, sizeof w, "%s: absolute da/dq vs FD twin (row-relative)", label);
  CHECK_LE(w, eq, 1e-6);
  snprintf(w, sizeof w, "%s: absolute da/dv vs FD twin (row-relative)", label);
  CHECK_LE(w, ev, 1e-6);
  *worst = fmax(*worst, fmax(eq, ev));
  free(y);
  cosrod_band_free(Ja), cosrod_band_free(Jf), cosrod_band_free(Va), cosrod_band_free(Vf);
  rig_free(&g);
}

TEST(absolute_all_curvatures_damped_clamped_sliding_loads) {
  double worst = 0.0;
  for (int cv = 0; cv < 5; ++cv) {
    rod_case c = {(cosrod_curvature)cv, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 0, 1, 1, 7, 11u + cv};
    char label[64];
    snprintf(label, sizeof label, "%s damped clamped/sliding loads", CURV[cv]);
    check_absolute(&c, label, &worst);
  }
  NOTE("absolute: worst row-relative error over the curvature variants %.2e", worst);
}

TEST(absolute_end_types) {
  double worst = 0.0;
  const rod_case cs[] = {
      {COSROD_CURV_TANGENT2, 0, COSROD_END_FREE, COSROD_END_FREE, 0, 0, 0, 6, 21},
      {COSROD_CURV_TANGENT2, 1, COSROD_END_PINNED, COSROD_END_CLAMPED, 0, 0, 1, 6, 22},
      {COSROD_CURV_ANGLE, 1, COSROD_END_PRESCRIBED, COSROD_END_PRESCRIBED, 0, 0, 1, 5, 23},
      {COSROD_CURV_SINE4, 1, COSROD_END_PINNED, COSROD_END_PRESCRIBED, 1, 1, 0, 5, 24},
      {COSROD_CURV_TANGENT4, 1, COSROD_END_CLAMPED, COSROD_END_CLAMPED, 1, 0, 1, 1, 25},
      {COSROD_CURV_SINE2, 1, COSROD_END_CLAMPED, COSROD_END_FREE, 0, 0, 1, 2, 26},
  };
  const char *names[] = {"free/free undamped",        "pinned/clamped",
                         "prescribed/prescribed",     "sliding/prescribed+slide",
                         "clamped+slide/clamped N=1", "clamped/free N=2"};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; ++i) check_absolute(&cs[i], names[i], &worst);
  NOTE("absolute end types: worst %.2e", worst);
}

/* Baumgarte terms of p̈ (r = -|ṗ|² - 2β<p,ṗ> - ω²(|p|²-1)/2) on a soft, thick
 * rod where they dominate the quaternion rows (in the stiff rods above they
 * are invisible next to the elastic terms): ω = 1e3, β = 30. */
TEST(absolute_baumgarte_terms) {
  enum { N = 5 };
  th_rng r;
  th_rng_seed(&r, 81);
  double s[N + 1], x[3 * (N + 1)], p[4 * N], xd[3 * (N + 1)], Om[3 * N];
  rt_grid(&r, N, 1.0, s);
  rt_config(&r, N, s, 0.2, 0.8, x, p, xd, Om);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.grid = s, def.ngrid = N + 1;
  def.reference = COSROD_REFERENCE_STRAIGHT;
  def.E = 10.0, def.radius = 0.1, def.density = 1000.0;
  def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 0.01, def.tau_bulk = 0.01;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int nq = cosrod_rod_nq(rod);
  double y[256];
  cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, 0.0, x, p, xd, Om, y);
  for (int k = 0; k < N; ++k) {
    int iq = cosrod_rod_qindex_segment(rod, k);
    for (int i = 0; i < 4; ++i) y[iq + i] *= 1.0 + 0.02 * (k - 2), y[nq + iq + i] += 0.3 * th_rng_normal(&r);
  }
  double errs[2][2];
  for (int b = 0; b < 2; ++b) {
    d->baumgarte_omega = b ? 1e3 : 0.0, d->baumgarte_r = b ? 30.0 : 0.0;
    cosrod_band *A = cosrod_band_create(nq, 10, 10, NULL), *F = cosrod_band_create(nq, 10, 10, NULL);
    for (int blk = 0; blk < 2; ++blk) {
      cosrod_rod_jac_band(rod, d, COSROD_FORM_ABSOLUTE, 0.0, y, NULL, 0.0, nq, blk * nq, A);
      cosrod_rod_jac_fd(rod, d, COSROD_FORM_ABSOLUTE, 0.0, y, nq, blk * nq, F);
      errs[b][blk] = band_vs_band(A, F);
    }
    cosrod_band_free(A), cosrod_band_free(F);
  }
  /* the terms matter: the analytic da/dq changes by O(ω²) when they are on */
  CHECK_LE("Baumgarte on: da/dq vs FD twin", errs[1][0], 1e-6);
  CHECK_LE("Baumgarte on: da/dv vs FD twin", errs[1][1], 1e-6);
  CHECK_LE("Baumgarte off: da/dq vs FD twin", errs[0][0], 1e-6);
  CHECK_LE("Baumgarte off: da/dv vs FD twin", errs[0][1], 1e-6);
  cosrod_band *A0 = cosrod_band_create(nq, 10, 10, NULL), *A1 = cosrod_band_create(nq, 10, 10, NULL);
  d->baumgarte_omega = 0.0, d->baumgarte_r = 0.0;
  cosrod_rod_jac_band(rod, d, COSROD_FORM_ABSOLUTE, 0.0, y, NULL, 0.0, nq, 0, A0);
  d->baumgarte_omega = 1e3, d->baumgarte_r = 30.0;
  cosrod_rod_jac_band(rod, d, COSROD_FORM_ABSOLUTE, 0.0, y, NULL, 0.0, nq, 0, A1);
  double ch = 0.0, mx = 0.0;
  for (int j = 0; j < nq; ++j)
    for (int i = j - 10; i <= j + 10; ++i)
      if (i >= 0 && i < nq) {
        ch = fmax(ch, fabs(cosrod_band_get(A1, i, j) - cosrod_band_get(A0, i, j)));
        mx = fmax(mx, fabs(cosrod_band_get(A1, i, j)));
      }
  CHECK_LE("Baumgarte terms are a visible part of da/dq (change / max |J| >= 0.1)", 0.1, ch / mx);
  cosrod_band_free(A0), cosrod_band_free(A1);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

/* The reduced second-order form (m1 = m2 = nq) equals the two blocks. */
TEST(absolute_second_order_form) {
  rod_case c = {COSROD_CURV_TANGENT2, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 0, 1, 1, 8, 31};
  rig g;
  rig_make(&g, &c);
  double *y = rig_state(&g, COSROD_FORM_ABSOLUTE, 5);
  int nq = g.nq, mlq = 10, muq = 10, mlv = 10, muv = 10, ldj = 21;
  double *J = calloc((size_t)ldj * 2 * (size_t)nq, sizeof(double));
  cosrod_band *A = cosrod_band_create(nq, 10, 10, NULL), *V = cosrod_band_create(nq, 10, 10, NULL);
  cosrod_status st = cosrod_rod_jac_second_order(g.rod, g.d, 0.5, y, J, ldj, mlq, muq, mlv, muv);
  cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, NULL, 0.0, nq, 0, A);
  cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, NULL, 0.0, nq, nq, V);
  double diff = 0.0, mx = 0.0;
  for (int j = 0; j < 2 * nq; ++j) {
    int c0 = j < nq ? j : j - nq;
    for (int i = c0 - 10; i <= c0 + 10; ++i) {
      if (i < 0 || i >= nq) continue;
      double a = j < nq ? cosrod_band_get(A, i, c0) : cosrod_band_get(V, i, c0);
      double b = J[(size_t)j * (size_t)ldj + (size_t)(10 + i - c0)];
      diff = fmax(diff, fabs(a - b));
      mx = fmax(mx, fabs(a));
    }
  }
  CHECK("second-order form: status OK", st == COSROD_OK);
  CHECK("second-order form: Jacobian not trivial", mx > 1.0);
  /* the same arithmetic writes both: identical up to summation order */
  CHECK_LE("second-order form vs square blocks: max |diff| / max |J|", diff / mx, 1e-14);
  free(J), free(y);
  cosrod_band_free(A), cosrod_band_free(V);
  rig_free(&g);
}

/* ---- NULLSPACE ------------------------------------------------------------ */

static void check_nullspace(const rod_case *c, const char *label, double *worst) {
  rig g;
  rig_make(&g, c);
  if (!g.rod) return;
  double *y = rig_state(&g, COSROD_FORM_NULLSPACE, c->seed + 200);
  int nq = g.nq, nv = cosrod_rod_nv(g.rod, COSROD_FORM_NULLSPACE), ny = nq + nv;
  char w[200];
  /* square blocks against the FD twin */
  cosrod_band *Qa = cosrod_band_create(nq, 10, 10, NULL), *Qf = cosrod_band_create(nq, 10, 10, NULL);
  cosrod_band *Va = cosrod_band_create(nv, 8, 8, NULL), *Vf = cosrod_band_create(nv, 8, 8, NULL);
  cosrod_status s1 = cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_NULLSPACE, 0.5, y, NULL, 0.0, 0, 0, Qa);
  cosrod_status s2 = cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_NULLSPACE, 0.5, y, NULL, 0.0, nq, nq, Va);
  cosrod_rod_jac_fd(g.rod, g.d, COSROD_FORM_NULLSPACE, 0.5, y, 0, 0, Qf);
  cosrod_rod_jac_fd(g.rod, g.d, COSROD_FORM_NULLSPACE, 0.5, y, nq, nq, Vf);
  double e1 = band_vs_band(Qa, Qf), e2 = band_vs_band(Va, Vf);
  if (!c->damped) e2 = undamped_rate_err(&g, ns_rhs, y, ny, nq, nq, nv, Va);
  snprintf(w, sizeof w, "%s: nullspace status OK", label);
  CHECK(w, s1 == COSROD_OK && s2 == COSROD_OK);
  snprintf(w, sizeof w, "%s: nullspace dq'/dq vs FD twin", label);
  CHECK_LE(w, e1, 1e-6);
  snprintf(w, sizeof w, "%s: nullspace dν'/dν vs FD twin", label);
  CHECK_LE(w, e2, 1e-6);
  /* rectangular blocks dq'/dν (nq x nv) and dν'/dq (nv x nq) against dense FD,
   * stored with bandwidths wide enough for the offset between q and ν */
  double *D = malloc(sizeof(double) * (size_t)ny * (size_t)ny);
  dense_fd(&g, ns_rhs, NULL, y, ny, ny, 0, ny, D);
  int ml = ny, mu = ny;
  double *Jr = calloc((size_t)(ml + mu + 1) * (size_t)ny, sizeof(double));
  cosrod_rod_jac_block b[2] = {{Jr, ml + mu + 1, ml, mu, 0, nq, nq, nv},
                               {Jr + (size_t)(ml + mu + 1) * (size_t)nv, ml + mu + 1, ml, mu, nq, 0, nv, nq}};
  cosrod_status s3 = cosrod_rod_jac(g.rod, g.d, COSROD_FORM_NULLSPACE, 0.5, y, NULL, 0.0, 2, b);
  double e3 = 0.0;
  for (int blk = 0; blk < 2; ++blk) {
    const cosrod_rod_jac_block *B = &b[blk];
    double gmax = 0.0;
    for (int j = 0; j < B->nc; ++j)
      for (int i = 0; i < B->nr; ++i) gmax = fmax(gmax, fabs(D[(B->r0 + i) + (size_t)ny * (B->c0 + j)]));
    for (int i = 0; i < B->nr; ++i) {
      double rs = 0.0, re = 0.0;
      for (int j = 0; j < B->nc; ++j) {
        double f = D[(B->r0 + i) + (size_t)ny * (B->c0 + j)];
        double a = B->J[(size_t)j * (size_t)B->ldj + (size_t)(B->mu + i - j)];
        rs = fmax(rs, fabs(f));
        re = fmax(re, fabs(a - f));
      }
      e3 = fmax(e3, re / fmax(rs, 1e-8 * gmax));
    }
  }
  snprintf(w, sizeof w, "%s: nullspace rectangular blocks dq'/dν, dν'/dq vs dense FD", label);
  CHECK(w, s3 == COSROD_OK);
  CHECK_LE(w, e3, 1e-6);
  *worst = fmax(*worst, fmax(fmax(e1, e2), e3));
  free(D), free(Jr), free(y);
  cosrod_band_free(Qa), cosrod_band_free(Qf), cosrod_band_free(Va), cosrod_band_free(Vf);
  rig_free(&g);
}

TEST(nullspace_all_curvatures_and_ends) {
  double worst = 0.0;
  for (int cv = 0; cv < 5; ++cv) {
    rod_case c = {(cosrod_curvature)cv, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 0, 1, 1, 6, 41u + cv};
    char label[64];
    snprintf(label, sizeof label, "%s damped clamped/sliding loads", CURV[cv]);
    check_nullspace(&c, label, &worst);
  }
  rod_case c2 = {COSROD_CURV_TANGENT2, 1, COSROD_END_PRESCRIBED, COSROD_END_FREE, 0, 0, 1, 5, 47};
  check_nullspace(&c2, "prescribed/free", &worst);
  rod_case c3 = {COSROD_CURV_SINE4, 0, COSROD_END_FREE, COSROD_END_CLAMPED, 0, 0, 0, 4, 48};
  check_nullspace(&c3, "free/clamped undamped", &worst);
  NOTE("nullspace: worst row-relative error %.2e", worst);
}

/* ---- DAE ------------------------------------------------------------------ */

typedef struct dae_ctx {
  const double *y, *yp;
  int wrt_yp;
} dae_ctx;

static void dae_res(rig *g, const double *v, double *out, void *ctx) {
  dae_ctx *c = ctx;
  if (c->wrt_yp)
    cosrod_rod_res_dae(g->rod, g->d, 0.5, c->y, v, out);
  else
    cosrod_rod_res_dae(g->rod, g->d, 0.5, v, c->yp, out);
}

static void check_dae(const rod_case *c, const char *label, double *worst) {
  rig g;
  rig_make(&g, c);
  if (!g.rod) return;
  double *y = rig_state(&g, COSROD_FORM_DAE, c->seed + 300);
  int nq = g.nq, ny = 2 * nq + g.N;
  double *yp = malloc(sizeof(double) * (size_t)ny);
  th_rng r;
  th_rng_seed(&r, c->seed + 301);
  for (int i = 0; i < ny; ++i) yp[i] = th_rng_normal(&r);
  const double cj = 37.5;
  double *Dy = malloc(sizeof(double) * (size_t)ny * (size_t)ny),
         *Dp = malloc(sizeof(double) * (size_t)ny * ny);
  dae_ctx cy = {y, yp, 0}, cp = {y, yp, 1};
  dense_fd(&g, dae_res, &cy, y, ny, ny, 0, ny, Dy);
  dense_fd(&g, dae_res, &cp, yp, ny, ny, 0, ny, Dp);
  for (size_t i = 0; i < (size_t)ny * ny; ++i) Dy[i] += cj * Dp[i];
  int ml, mu;
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_DAE, 0, 0, 0, ny, ny, &ml, &mu);
  cosrod_band *J = cosrod_band_create(ny, ml, mu, NULL);
  cosrod_status st = cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_DAE, 0.5, y, yp, cj, 0, 0, J);
  double out, e = band_err(J, Dy, ny, ny, &out);
  char w[200];
  snprintf(w, sizeof w, "%s: DAE dF/dy + cj dF/dy' (full, ml %d mu %d) status OK", label, ml, mu);
  CHECK(w, st == COSROD_OK);
  snprintf(w, sizeof w, "%s: DAE residual Jacobian vs dense FD", label);
  CHECK_LE(w, e, 1e-6);
  snprintf(w, sizeof w, "%s: DAE FD entries outside the measured band (relative)", label);
  CHECK_LE(w, out, 1e-9);
  *worst = fmax(*worst, e);
  cosrod_band_free(J);
  free(Dy), free(Dp), free(y), free(yp);
  rig_free(&g);
}

TEST(dae_residual_jacobian) {
  double worst = 0.0;
  for (int cv = 0; cv < 5; ++cv) {
    rod_case c = {(cosrod_curvature)cv, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 0, 1, 1, 5, 51u + cv};
    char label[64];
    snprintf(label, sizeof label, "%s damped clamped/sliding loads", CURV[cv]);
    check_dae(&c, label, &worst);
  }
  rod_case c2 = {COSROD_CURV_TANGENT2, 1, COSROD_END_PRESCRIBED, COSROD_END_PINNED, 0, 0, 1, 4, 57};
  check_dae(&c2, "prescribed/pinned", &worst);
  NOTE("DAE: worst row-relative error %.2e", worst);
}

/* ---- medium damping (rod_medium.c) ----------------------------------------- */

/* Medium damping alone (its rate terms are the only ones besides inertia)
 * and with Kelvin–Voigt, every formulation, free / clamped / prescribed ends. */
TEST(medium_damping_all_formulations) {
  double worst = 0.0;
  rod_case c1 = {COSROD_CURV_TANGENT2, 0, COSROD_END_FREE, COSROD_END_FREE, 0, 0, 0, 6, 61};
  rod_case c2 = {COSROD_CURV_SINE4, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 0, 1, 1, 5, 62};
  rod_case c3 = {COSROD_CURV_ANGLE, 0, COSROD_END_PRESCRIBED, COSROD_END_FREE, 0, 0, 1, 5, 63};
  rig_medium_damping = 1;
  check_absolute(&c1, "medium free/free", &worst);
  check_absolute(&c2, "medium + KV clamped/sliding loads", &worst);
  check_absolute(&c3, "medium prescribed/free", &worst);
  check_nullspace(&c1, "medium free/free", &worst);
  check_nullspace(&c2, "medium + KV clamped/sliding loads", &worst);
  check_nullspace(&c3, "medium prescribed/free", &worst);
  check_dae(&c1, "medium free/free", &worst);
  check_dae(&c3, "medium prescribed/free", &worst);
  rig_medium_damping = 0;
  NOTE("medium damping: worst row-relative error %.2e", worst);
}

/* ---- static stiffness ------------------------------------------------------ */

/* Φ(q) at zero velocity: vertex rows P fx, quaternion rows ψ - λ p with the
 * multiplier frozen at its value at the base point (so that -∂/∂q of it is
 * -∂Φ/∂q + λ I, the definition of cosrod_rod_stiffness). */
typedef struct stiff_ctx {
  const double *lam;
} stiff_ctx;

static void gen_force(rig *g, const double *q, double *out, void *ctx) {
  stiff_ctx *c = ctx;
  int nq = g->nq, N = g->N;
  double *y = calloc(2 * (size_t)nq, sizeof(double));
  memcpy(y, q, sizeof(double) * (size_t)nq);
  cosrod_rod_eval(g->rod, g->d, COSROD_FORM_ABSOLUTE, 0.5, y);
  for (int n = 0; n <= N; ++n) {
    int nd = cosrod_rod_vertex_ndof(g->rod, n), iq = cosrod_rod_qindex_vertex(g->rod, n);
    if (nd == 3)
      for (int j = 0; j < 3; ++j) out[iq + j] = g->d->fx[3 * n + j];
    else if (nd == 1) {
      double ax[3] = {0.0, 1.0, 0.0};
      if (n == 0) ax[0] = 0.6, ax[1] = 0.8;
      out[iq] = cosrod_vec3_dot(ax, g->d->fx + 3 * n);
    }
  }
  for (int k = 0; k < N; ++k) {
    int iq = cosrod_rod_qindex_segment(g->rod, k);
    for (int i = 0; i < 4; ++i) out[iq + i] = g->d->fp[4 * k + i] - (c ? c->lam[k] * q[iq + i] : 0.0);
  }
  free(y);
}

TEST(static_stiffness) {
  double worst = 0.0, asym_worst = 0.0;
  for (int cv = 0; cv < 5; ++cv) {
    rod_case c = {(cosrod_curvature)cv, 1, COSROD_END_CLAMPED, COSROD_END_PINNED, 1, 1, cv % 2, 6, 61u + cv};
    rig g;
    rig_make(&g, &c);
    double *y = rig_state(&g, COSROD_FORM_ABSOLUTE, 62 + cv);
    int nq = g.nq, N = g.N;
    double *lam = malloc(sizeof(double) * (size_t)N), *f0 = malloc(sizeof(double) * (size_t)nq);
    gen_force(&g, y, f0, NULL);
    for (int k = 0; k < N; ++k) {
      int iq = cosrod_rod_qindex_segment(g.rod, k);
      lam[k] = cosrod_quat_dot(y + iq, f0 + iq) / cosrod_quat_dot(y + iq, y + iq);
    }
    stiff_ctx sc = {lam};
    double *D = malloc(sizeof(double) * (size_t)nq * (size_t)nq);
    dense_fd(&g, gen_force, &sc, y, nq, nq, 0, nq, D);
    for (size_t i = 0; i < (size_t)nq * nq; ++i) D[i] = -D[i];
    cosrod_band *K = cosrod_band_create(nq, 10, 10, NULL);
    cosrod_status st = cosrod_rod_stiffness(g.rod, g.d, 0.5, y, K);
    double out, e = band_err(K, D, nq, nq, &out);
    char w[160];
    snprintf(w, sizeof w, "%s: stiffness status OK", CURV[cv]);
    CHECK(w, st == COSROD_OK);
    snprintf(w, sizeof w, "%s: stiffness vs FD of the generalised force", CURV[cv]);
    CHECK_LE(w, e, 1e-6);
    snprintf(w, sizeof w, "%s: stiffness FD outside bandwidth 10", CURV[cv]);
    CHECK_LE(w, out, 1e-9);
    worst = fmax(worst, e);
    if (!c.loads) { /* conservative (gravity only): K symmetric */
      double as = 0.0, mx = 0.0;
      for (int j = 0; j < nq; ++j)
        for (int i = j; i <= j + 10 && i < nq; ++i) {
          as = fmax(as, fabs(cosrod_band_get(K, i, j) - cosrod_band_get(K, j, i)));
          mx = fmax(mx, fabs(cosrod_band_get(K, i, j)));
        }
      /* exact Hessian: symmetric up to roundoff of sums of O(max|K|) terms */
      snprintf(w, sizeof w, "%s: conservative stiffness symmetric, max |K-Kᵀ| / max |K|", CURV[cv]);
      CHECK_LE(w, as / mx, 1e-12);
      asym_worst = fmax(asym_worst, as / mx);
    }
    cosrod_band_free(K);
    free(D), free(lam), free(f0), free(y);
    rig_free(&g);
  }
  NOTE("stiffness: worst error %.2e, worst asymmetry %.2e", worst, asym_worst);
}

/* ---- bandwidths -------------------------------------------------------------- */

TEST(bandwidths_measured) {
  rod_case c = {COSROD_CURV_TANGENT2, 1, COSROD_END_FREE, COSROD_END_FREE, 0, 0, 1, 10, 71};
  rig g;
  rig_make(&g, &c);
  int nq = g.nq, nv = cosrod_rod_nv(g.rod, COSROD_FORM_NULLSPACE), N = g.N;
  int ml, mu;
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0, nq, 0, nq, nq, &ml, &mu);
  NOTE("absolute da/dq: ml %d mu %d", ml, mu);
  CHECK("absolute da/dq structural bandwidth 10/10 ([LLA] §3.4)", ml == 10 && mu == 10);
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0, nq, nq, nq, nq, &ml, &mu);
  NOTE("absolute da/dv (damped): ml %d mu %d", ml, mu);
  CHECK("absolute da/dv structural bandwidth 10/10", ml == 10 && mu == 10);
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0, 0, 0, 2 * nq, 2 * nq, &ml, &mu);
  NOTE("absolute full (y order): ml %d mu %d (nq = %d)", ml, mu, nq);
  CHECK("absolute full: ml = nq + 10, mu = nq", ml == nq + 10 && mu == nq);
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_NULLSPACE, 0, 0, 0, nq, nq, &ml, &mu);
  NOTE("nullspace dq'/dq: ml %d mu %d", ml, mu);
  CHECK("nullspace dq'/dq block diagonal: 3/3", ml == 3 && mu == 3);
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_NULLSPACE, 0, nq, nq, nv, nv, &ml, &mu);
  NOTE("nullspace dν'/dν: ml %d mu %d", ml, mu);
  CHECK("nullspace dν'/dν: 8/8", ml == 8 && mu == 8);
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_NULLSPACE, 0, 0, 0, nq + nv, nq + nv, &ml, &mu);
  NOTE("nullspace full (y order): ml %d mu %d (nq %d, nv %d)", ml, mu, nq, nv);
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_DAE, 0, 0, 0, 2 * nq + N, 2 * nq + N, &ml, &mu);
  NOTE("DAE full (y order): ml %d mu %d", ml, mu);
  cosrod_rod_jac_pattern_bandwidth(g.rod, g.d, COSROD_FORM_ABSOLUTE, 1, 0, 0, nq, nq, &ml, &mu);
  NOTE("stiffness: ml %d mu %d", ml, mu);
  CHECK("stiffness bandwidth 10/10", ml == 10 && mu == 10);
  /* a too narrow band is reported */
  double *y = rig_state(&g, COSROD_FORM_ABSOLUTE, 72);
  cosrod_band *J = cosrod_band_create(nq, 9, 9, NULL);
  CHECK("bandwidth 9 < 10: ERR_DIMENSION", cosrod_rod_jac_band(g.rod, g.d, COSROD_FORM_ABSOLUTE, 0.5, y, NULL,
                                                               0.0, nq, 0, J) == COSROD_ERR_DIMENSION);
  cosrod_band_free(J);
  free(y);
  rig_free(&g);
}

static const th_case cases[] = {TH_CASE(absolute_all_curvatures_damped_clamped_sliding_loads),
                                TH_CASE(absolute_end_types),
                                TH_CASE(absolute_second_order_form),
                                TH_CASE(absolute_baumgarte_terms),
                                TH_CASE(nullspace_all_curvatures_and_ends),
                                TH_CASE(dae_residual_jacobian),
                                TH_CASE(medium_damping_all_formulations),
                                TH_CASE(static_stiffness),
                                TH_CASE(bandwidths_measured)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
