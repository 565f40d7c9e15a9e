/* RADAU5: the implicit Runge–Kutta method Radau IIA of order 5 (3 stages,
 * stiffly accurate, L-stable) for M y' = f(t, y), after Hairer–Wanner,
 * Solving ODEs II, §IV.8 (and ch. VII for DAEs of index 2 and 3).
 *
 * Per step, with stage increments Z = (z1, z2, z3), z_i ~ y(t + c_i h) - y0:
 *   - collocation equations (A^-1 ⊗ M) Z = h F(Z), solved by the simplified
 *     Newton iteration in the transformed variables W = (T^-1 ⊗ I) Z, where
 *     T^-1 A^-1 T = diag(γ, [[α, -β], [β, α]]) (HW II §IV.8): one real
 *     system with E1 = (γ/h) M - J and one complex system with
 *     E2 = ((α + iβ)/h) M - J per iteration, J = ∂f/∂y kept across steps;
 *   - starting values extrapolated from the previous collocation polynomial;
 *   - Newton control (HW II §IV.8): contraction θ_k from successive
 *     increments, stop when η_k ||ΔW_k|| <= κ·tol with η = θ/(1-θ) (Hairer's
 *     FNEWT), early abandonment if the predicted residual after the
 *     remaining iterations is too large, step halved on divergence;
 *   - error estimate (HW II §IV.8) from the embedded formula of order
 *     3 with γ0 = 1/γ: err = E1^-1 (f(t0, y0) + (1/h) M Σ d_i z_i), refined
 *     by one more f evaluation after a rejected or on the first step;
 *   - step size: hnew = h fac err^(-1/4), fac = min(0.9, 0.9 (1 + 2 NIT) /
 *     (NEWT + 2 NIT)), 0.2 <= hnew/h <= 8, Gustafsson's predictive
 *     controller (HW II (8.25)) by default; J is recomputed only if the last
 *     Newton contraction θ exceeded THET = 0.001; h and the LU are kept if
 *     1 <= hnew/h <= 1.2;
 *   - internal tolerances rtol' = 0.1 rtol^(2/3), atol' = rtol' atol / rtol;
 *     index-2 variables' scale divided by |h|, index-3 by h² (HW II ch. VII);
 *   - dense output: the collocation polynomial (order 3) in Newton form
 *     through y0, y0 + z1, y0 + z2, y1.
 * Second-order structure (m1 > 0, y'_i = y_{i+m2} for i < m1): the first m1
 * rows of both linear systems are eliminated (Hairer's M1/M2 reduction),
 * leaving (n-m1)-dimensional real and complex systems with the matrix
 *   fac M_v - J_v - sum_k fac^(k-mm) J_q,k        (mm = m1/m2 q-blocks).
 * Linear algebra: cosrod_dense/zdense, or cosrod_band/zband when the
 * Jacobian (and the mass matrix, if any) is banded.
 *
 * Counters follow Hairer's code: nsteps counts every attempt that reaches
 * the Newton iteration, nreject only error-test rejections after the first
 * accepted step (Newton failures are in nsteps only), ndecomp one real +
 * complex factorisation pair, nsolve one per Newton iteration (real +
 * complex pair) and one per error-estimate solve. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/dense.h"
#include "cosrod/integrate.h"

/* ---- method coefficients (Radau IIA, s = 3) ------------------------------ */
/* Nodes c1 = (4 - √6)/10, c2 = (4 + √6)/10, c3 = 1. */
#define R5_SQ6 2.44948974278317809819728407470589
static const double R5_C1 = (4.0 - R5_SQ6) / 10.0;
static const double R5_C2 = (4.0 + R5_SQ6) / 10.0;
static const double R5_C1M1 = (4.0 - R5_SQ6) / 10.0 - 1.0;
static const double R5_C2M1 = (4.0 + R5_SQ6) / 10.0 - 1.0;
static const double R5_C1MC2 = -R5_SQ6 / 5.0;
/* Error-estimate weights d_i = e_i / γ0 of the embedded formula (HW II §IV.8). */
static const double R5_DD1 = -(13.0 + 7.0 * R5_SQ6) / 3.0;
static const double R5_DD2 = (-13.0 + 7.0 * R5_SQ6) / 3.0;
static const double R5_DD3 = -1.0 / 3.0;
/* Eigenvalues of A^-1: γ (real) and α ± iβ; γ = 30/(6 + 81^(1/3) - 9^(1/3)). */
static const double R5_GAMMA = 3.637834252744495732;
static const double R5_ALPHA = 2.681082873627752134;
static const double R5_BETA = 3.050430199247410569;
/* T: columns = real eigenvector of A^-1 (unit length) and the real and
 * imaginary parts of the eigenvector for α - iβ (third component 1), so that
 * T^-1 A^-1 T = [[γ,0,0],[0,α,-β],[0,β,α]].  Computed in long double from A
 * (tests check the similarity); TI = T^-1. */
static const double R5_T[3][3] = {
    {0.0912323948708929427241, -0.141255295020954208416, -0.0300291941051474244924},
    {0.241717932707107019001, 0.204129352293799931997, 0.382942112757261937732},
    {0.966048182615092936184, 1.0, 0.0}};
static const double R5_TI[3][3] = {
    {4.32557989006315535231, 0.339199251815809869708, 0.541770539935874871282},
    {-4.17871859155190472851, -0.32768282076106238724, 0.476623554500550451838},
    {-0.502872634945786876708, 2.57192694985560542939, -0.596039204828224925144}};

typedef struct radau5_state {
  int n;
  int m1, m2, mm, nr; /* second-order structure; nr = n - m1 rows of the reduced systems */
  /* Jacobian storage (cosrod_ode_jac layout) */
  double *jac;
  int ldj, jac_banded;
  int ml, mu, mlq, muq;
  /* constant mass matrix (of the lower block when m1 > 0), NULL = identity */
  double *mass;
  int ldm, mass_banded, mml, mmu;
  /* iteration matrices (dense or banded) */
  int banded, mle, mue;
  cosrod_dense *e1d;
  cosrod_zdense *e2d;
  cosrod_band *e1b;
  cosrod_zband *e2b;
  /* vectors (n) */
  double *z1, *z2, *z3; /* stage increments */
  double *w1, *w2, *w3; /* transformed increments (Hairer's F) */
  double *g1, *g2, *g3; /* stage f values / Newton right-hand sides */
  double *f0;           /* f(t, y) at the last accepted point */
  double *cont;         /* (4n) dense output: y1, then the divided differences */
  double *scal;         /* error scale */
  double *iscal;        /* 1 / scal */
  double *rtl, *atl;    /* internal tolerances rtol', atol' */
  double *tmp, *tmp2, *tmp3;
  double complex *ztmp; /* (n) column scratch for the banded assembly */
  double *jwork;        /* (2n) FD Jacobian workspace */
  /* parameters */
  int nit, pred;
  double fnewt, thet, quot1, quot2, safe, fac_min, fac_max;
  int nind1, nind2, nind3;
  /* control state */
  int first, reject, caljac, need_jac, need_f0, have_lu, nsing;
  double h_lu, hold, hacc, erracc, faccon, theta;
} radau5_state;

/* ---- storage access ------------------------------------------------------ */

/* Column j (global) of the stored Jacobian: rows lo..hi (local rows of the
 * reduced Jacobian when m1 > 0) hold J(i, j) = jac[off + i]. */
typedef struct jcolumn {
  ptrdiff_t off;
  int lo, hi;
} jcolumn;
static inline jcolumn jcol(const radau5_state *s, int j) {
  jcolumn c = {(ptrdiff_t)j * s->ldj, 0, s->nr - 1};
  if (!s->jac_banded) return c;
  int cc = j, ml = s->ml, mu = s->mu;
  if (s->m1 > 0) {
    if (j < s->m1) {
      cc = j % s->m2;
      ml = s->mlq;
      mu = s->muq;
    } else {
      cc = j - s->m1;
    }
  }
  c.off += mu - cc;
  if (cc - mu > c.lo) c.lo = cc - mu;
  if (cc + ml < c.hi) c.hi = cc + ml;
  return c;
}

/* Column j of the mass matrix (lower block when m1 > 0, local indices):
 * rows lo..hi hold M(i, j) = mass[off + i]. */
static inline jcolumn mcol(const radau5_state *s, int j) {
  jcolumn c = {(ptrdiff_t)j * s->ldm, 0, s->nr - 1};
  if (!s->mass_banded) return c;
  c.off += s->mmu - j;
  if (j - s->mmu > c.lo) c.lo = j - s->mmu;
  if (j + s->mml < c.hi) c.hi = j + s->mml;
  return c;
}

/* out (n) <- M x (n); out must not alias x. */
static void mass_mv(const radau5_state *s, const double *x, double *out) {
  const int m1 = s->m1, nr = s->nr;
  for (int i = 0; i < m1; i++) out[i] = x[i];
  double *o = out + m1;
  for (int i = 0; i < nr; i++) o[i] = 0.0;
  for (int j = 0; j < nr; j++) {
    jcolumn c = mcol(s, j);
    const double xj = x[m1 + j], *m = s->mass + c.off;
    for (int i = c.lo; i <= c.hi; i++) o[i] += m[i] * xj;
  }
}

/* ---- linear algebra ---------------------------------------------------- */

/* Column c of the (reduced) iteration matrix fac M - J, accumulated into
 * e (real) or z (complex) with e[r] = E(r, c): -J_v(:, c), for c < m2 the
 * q-blocks -sum_k fac^(k-mm) J_q,k(:, c), then fac M(:, c). */
static void e_column_real(const radau5_state *s, double fac, int c, double *e) {
  jcolumn jc = jcol(s, s->m1 + c);
  const double *J = s->jac + jc.off;
  for (int r = jc.lo; r <= jc.hi; r++) e[r] -= J[r];
  if (s->m1 > 0 && c < s->m2) {
    double coef = 1.0;
    const double inv = 1.0 / fac;
    for (int k = s->mm - 1; k >= 0; k--) {
      coef *= inv;
      jcolumn qc = jcol(s, k * s->m2 + c);
      const double *Q = s->jac + qc.off;
      for (int r = qc.lo; r <= qc.hi; r++) e[r] -= coef * Q[r];
    }
  }
  if (s->mass) {
    jcolumn mc = mcol(s, c);
    const double *M = s->mass + mc.off;
    for (int r = mc.lo; r <= mc.hi; r++) e[r] += fac * M[r];
  } else {
    e[c] += fac;
  }
}
static void e_column_cplx(const radau5_state *s, double complex fac, int c, double complex *e) {
  jcolumn jc = jcol(s, s->m1 + c);
  const double *J = s->jac + jc.off;
  for (int r = jc.lo; r <= jc.hi; r++) e[r] -= J[r];
  if (s->m1 > 0 && c < s->m2) {
    double complex coef = 1.0;
    const double complex inv = 1.0 / fac;
    for (int k = s->mm - 1; k >= 0; k--) {
      coef *= inv;
      jcolumn qc = jcol(s, k * s->m2 + c);
      const double *Q = s->jac + qc.off;
      for (int r = qc.lo; r <= qc.hi; r++) e[r] -= coef * Q[r];
    }
  }
  if (s->mass) {
    jcolumn mc = mcol(s, c);
    const double *M = s->mass + mc.off;
    for (int r = mc.lo; r <= mc.hi; r++) e[r] += fac * M[r];
  } else {
    e[c] += fac;
  }
}

/* Assemble and factor E1 = (γ/h) M - J and E2 = ((α+iβ)/h) M - J. */
static cosrod_status decompose(radau5_state *s, double h) {
  const int nr = s->nr;
  const double fac1 = R5_GAMMA / h;
  const double complex fac2 = (R5_ALPHA + R5_BETA * I) / h;
  cosrod_status st1, st2;
  if (s->banded) {
    cosrod_band_zero(s->e1b);
    cosrod_zband_zero(s->e2b);
    for (int c = 0; c < nr; c++) {
      /* E(r, c) = col[r - c] */
      double *col1 = cosrod_band_col(s->e1b, c);
      double complex *col2 = cosrod_zband_col(s->e2b, c);
      int rlo = c - s->mue > 0 ? c - s->mue : 0;
      int rhi = c + s->mle < nr - 1 ? c + s->mle : nr - 1;
      /* accumulate rows rlo..rhi in scratch vectors, then copy into the band */
      double *e = s->tmp3;
      double complex *z = s->ztmp;
      for (int r = rlo; r <= rhi; r++) e[r] = 0.0, z[r] = 0.0;
      e_column_real(s, fac1, c, e);
      e_column_cplx(s, fac2, c, z);
      for (int r = rlo; r <= rhi; r++) {
        col1[r - c] = e[r];
        col2[r - c] = z[r];
      }
    }
    st1 = cosrod_band_factor(s->e1b);
    st2 = st1 == COSROD_OK ? cosrod_zband_factor(s->e2b) : st1;
  } else {
    for (int c = 0; c < nr; c++) {
      double *col1 = cosrod_dense_col(s->e1d, c);
      double complex *col2 = s->e2d->data + (size_t)c * (size_t)nr;
      for (int r = 0; r < nr; r++) col1[r] = 0.0, col2[r] = 0.0;
      e_column_real(s, fac1, c, col1);
      e_column_cplx(s, fac2, c, col2);
    }
    s->e1d->factored = 0;
    s->e2d->factored = 0;
    st1 = cosrod_dense_factor(s->e1d);
    st2 = st1 == COSROD_OK ? cosrod_zdense_factor(s->e2d) : st1;
  }
  return st1 != COSROD_OK ? st1 : st2;
}

/* Solve (fac1 M - J) x = r in place, r: (n).  With m1 > 0 the first m1
 * equations fac1 x_i - x_{i+m2} = r_i are eliminated (Horner over the
 * q-blocks), the reduced system is solved for x_v, then x_q by back
 * substitution. */
static void solve_real(radau5_state *s, double h, double *r) {
  const int m1 = s->m1, m2 = s->m2, mm = s->mm;
  const double inv = h / R5_GAMMA; /* 1/fac */
  if (m1 > 0) {
    double *rv = r + m1;
    for (int c = 0; c < m2; c++) {
      double sum = 0.0;
      for (int k = mm - 1; k >= 0; k--) {
        int j = k * m2 + c;
        sum = (r[j] + sum) * inv;
        jcolumn jc = jcol(s, j);
        const double *J = s->jac + jc.off;
        for (int i = jc.lo; i <= jc.hi; i++) rv[i] += J[i] * sum;
      }
    }
  }
  if (s->banded)
    cosrod_band_solve(s->e1b, r + m1);
  else
    cosrod_dense_solve(s->e1d, r + m1);
  if (m1 > 0) {
    for (int k = mm - 1; k >= 0; k--)
      for (int c = 0; c < m2; c++) r[k * m2 + c] = (r[k * m2 + c] + r[(k + 1) * m2 + c]) * inv;
  }
}

/* Solve (fac2 M - J)(x + i y) = re + i im in place, fac2 = (α + iβ)/h; the
 * reduction works on split real/imaginary parts with 1/fac2 = ur + i ui. */
static void solve_cplx(radau5_state *s, double h, double *re, double *im) {
  const int m1 = s->m1, m2 = s->m2, mm = s->mm;
  const double den = R5_ALPHA * R5_ALPHA + R5_BETA * R5_BETA;
  const double ur = h * R5_ALPHA / den, ui = -h * R5_BETA / den;
  if (m1 > 0) {
    double *rv = re + m1, *iv = im + m1;
    for (int c = 0; c < m2; c++) {
      double sr = 0.0, si = 0.0;
      for (int k = mm - 1; k >= 0; k--) {
        int j = k * m2 + c;
        double a = re[j] + sr, b = im[j] + si;
        sr = a * ur - b * ui;
        si = a * ui + b * ur;
        jcolumn jc = jcol(s, j);
        const double *J = s->jac + jc.off;
        for (int i = jc.lo; i <= jc.hi; i++) {
          rv[i] += J[i] * sr;
          iv[i] += J[i] * si;
        }
      }
    }
  }
  if (s->banded)
    cosrod_zband_solve_split(s->e2b, re + m1, im + m1);
  else
    cosrod_zdense_solve_split(s->e2d, re + m1, im + m1);
  if (m1 > 0) {
    for (int k = mm - 1; k >= 0; k--) {
      for (int c = 0; c < m2; c++) {
        int j = k * m2 + c, jn = (k + 1) * m2 + c;
        double a = re[j] + re[jn], b = im[j] + im[jn];
        re[j] = a * ur - b * ui;
        im[j] = a * ui + b * ur;
      }
    }
  }
}

/* ---- allocation ---------------------------------------------------------- */

static void radau5_free(void *vs) {
  radau5_state *s = vs;
  if (!s) return;
  cosrod_dense_free(s->e1d);
  cosrod_zdense_free(s->e2d);
  cosrod_band_free(s->e1b);
  cosrod_zband_free(s->e2b);
  free(s->jac);
  free(s->mass);
  free(s->ztmp);
  double **vec[] = {&s->z1,  &s->z2,  &s->z3,   &s->w1,   &s->w2,   &s->w3,    &s->g1,
                    &s->g2,  &s->g3,  &s->f0,   &s->cont, &s->scal, &s->iscal, &s->rtl,
                    &s->atl, &s->tmp, &s->tmp2, &s->tmp3, &s->jwork};
  for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++) free(*vec[k]);
  free(s);
}

static int imax(int a, int b) { return a > b ? a : b; }

static cosrod_status radau5_alloc(void **state, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  const cosrod_integrate_options *o = ctx->opts;
  const int n = ctx->n;
  *state = NULL;
  radau5_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  s->n = n;
  s->m1 = p->m1 > 0 ? p->m1 : 0;
  s->m2 = s->m1 > 0 ? (p->m2 > 0 ? p->m2 : s->m1) : 0;
  s->mm = s->m1 > 0 ? s->m1 / s->m2 : 0;
  s->nr = n - s->m1;
  s->jac_banded = p->jac_banded != 0;
  s->ml = p->jac_ml;
  s->mu = p->jac_mu;
  s->mlq = p->jac_ml_q;
  s->muq = p->jac_mu_q;
  if (s->jac_banded && s->m1 > 0 && (s->mlq < 0 || s->muq < 0)) {
    radau5_free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "radau5: negative q-block bandwidths");
  }
  if (s->jac_banded)
    s->ldj = (s->m1 > 0 ? imax(s->mlq + s->muq, s->ml + s->mu) : s->ml + s->mu) + 1;
  else
    s->ldj = s->nr;
  s->jac = calloc((size_t)s->ldj * (size_t)n, sizeof(double));

  const int nr = s->nr;
  if (p->mass) {
    s->mass_banded = p->mass_banded != 0;
    s->mml = p->mass_ml;
    s->mmu = p->mass_mu;
    if (s->mass_banded && (s->mml < 0 || s->mmu < 0)) {
      radau5_free(s);
      return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "radau5: negative mass bandwidths");
    }
    s->ldm = s->mass_banded ? s->mml + s->mmu + 1 : nr;
    s->mass = calloc((size_t)s->ldm * (size_t)nr, sizeof(double));
  }
  /* banded iteration matrices when every matrix is banded */
  s->banded = s->jac_banded && (!p->mass || s->mass_banded);
  if (s->banded) {
    s->mle = s->ml;
    s->mue = s->mu;
    if (s->m1 > 0) {
      s->mle = imax(s->mle, s->mlq);
      s->mue = imax(s->mue, s->muq);
    }
    if (p->mass) {
      s->mle = imax(s->mle, s->mml);
      s->mue = imax(s->mue, s->mmu);
    }
    if (s->mle > nr - 1) s->mle = nr - 1;
    if (s->mue > nr - 1) s->mue = nr - 1;
    s->e1b = cosrod_band_create(nr, s->mle, s->mue);
    s->e2b = cosrod_zband_create(nr, s->mle, s->mue);
  } else {
    s->e1d = cosrod_dense_create(nr);
    s->e2d = cosrod_zdense_create(nr);
  }
  size_t nb = sizeof(double) * (size_t)n;
  double **vec[] = {&s->z1, &s->z2,   &s->z3,    &s->w1,  &s->w2,  &s->w3,  &s->g1,   &s->g2,  &s->g3,
                    &s->f0, &s->scal, &s->iscal, &s->rtl, &s->atl, &s->tmp, &s->tmp2, &s->tmp3};
  int ok = s->jac && (!p->mass || s->mass) && (s->banded ? (s->e1b && s->e2b) : (s->e1d && s->e2d));
  for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++) {
    *vec[k] = calloc(1, nb);
    ok = ok && *vec[k];
  }
  s->cont = calloc(4, nb);
  s->jwork = calloc(2, nb);
  s->ztmp = calloc((size_t)n, sizeof(double complex));
  if (!ok || !s->cont || !s->jwork || !s->ztmp) {
    radau5_free(s);
    return COSROD_ERR_NOMEM;
  }
  cosrod_linalg_backend be = o->linalg_backend == 1 ? COSROD_LINALG_LAPACK : COSROD_LINALG_OWN;
  if (s->banded) {
    cosrod_band_set_backend(s->e1b, be);
    cosrod_zband_set_backend(s->e2b, be);
  } else {
    cosrod_dense_set_backend(s->e1d, be);
    cosrod_zdense_set_backend(s->e2d, be);
  }

  /* parameters (Hairer's defaults where the option is 0) */
  s->nit = o->max_newton > 0 ? o->max_newton : 7;
  s->thet = o->jac_reuse != 0.0 ? o->jac_reuse : 0.001;
  s->quot1 = o->keep_h_lo > 0.0 ? o->keep_h_lo : 1.0;
  s->quot2 = o->keep_h_hi > 0.0 ? o->keep_h_hi : 1.2;
  s->safe = o->safety > 0.0 ? o->safety : 0.9;
  s->fac_min = o->fac_min > 0.0 ? o->fac_min : 0.2;
  s->fac_max = o->fac_max > 0.0 ? o->fac_max : 8.0;
  s->pred = o->controller != COSROD_CONTROLLER_CLASSICAL;
  if (p->nind1 || p->nind2 || p->nind3) {
    s->nind1 = p->nind1;
    s->nind2 = p->nind2;
    s->nind3 = p->nind3;
  } else {
    s->nind1 = n;
  }
  *state = s;
  return COSROD_OK;
}

/* Internal tolerances and Newton tolerance; mass matrix; initial step. */
static cosrod_status radau5_reset(void *vs, cosrod_step_ctx *ctx) {
  radau5_state *s = vs;
  const cosrod_ode_problem *p = ctx->problem;
  const int n = s->n;
  const double u = ctx->uround;
  for (int i = 0; i < n; i++) {
    double rt = ctx->rtol[i], at = ctx->atol[i];
    if (!(rt > 10.0 * u) || !(at > 0.0))
      return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t,
                              "radau5: needs rtol > 10 uround and atol > 0 (component %d: rtol %g, atol %g)",
                              i, rt, at);
    double r2 = 0.1 * pow(rt, 2.0 / 3.0);
    s->rtl[i] = r2;
    s->atl[i] = r2 * (at / rt);
  }
  if (ctx->opts->newton_tol > 0.0)
    s->fnewt = ctx->opts->newton_tol;
  else
    s->fnewt = fmax(10.0 * u / s->rtl[0], fmin(0.03, sqrt(s->rtl[0])));
  if (s->mass) {
    memset(s->mass, 0, sizeof(double) * (size_t)s->ldm * (size_t)s->nr);
    int rc = p->mass(s->mass, s->ldm, p->user);
    if (rc != 0)
      return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t, "radau5: mass-matrix callback returned %d",
                              rc);
  }
  int rc = cosrod_step_call_f(ctx, ctx->t, ctx->y, s->f0);
  if (rc > 0 && !ctx->nonfinite)
    cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t, "radau5: f failed (%d) at the initial point t = %.17g",
                     rc, ctx->t);
  if (rc != 0) return COSROD_ERR_CALLBACK;
  double h = fabs(ctx->h);
  if (h <= 10.0 * u) h = 1e-6;
  if (h > ctx->hmax) h = ctx->hmax;
  ctx->h = ctx->dir * h;
  s->first = 1;
  s->reject = 0;
  s->caljac = 0;
  s->need_jac = 1;
  s->need_f0 = 0;
  s->have_lu = 0;
  s->nsing = 0;
  s->h_lu = 0.0;
  s->hold = ctx->h;
  s->hacc = ctx->h;
  s->erracc = 1e-2;
  s->faccon = 1.0;
  s->theta = fabs(s->thet);
  memcpy(s->cont, ctx->y, sizeof(double) * (size_t)n);
  memset(s->cont + n, 0, sizeof(double) * 3 * (size_t)n);
  return COSROD_OK;
}

/* Error scale at the start of a step: atol' + rtol' |y|, divided by |h| for
 * index-2 and by h² for index-3 components. */
static void compute_scale(radau5_state *s, const double *y, double h) {
  const int n = s->n;
  const double ah = fabs(h);
  for (int i = 0; i < n; i++) s->scal[i] = s->atl[i] + s->rtl[i] * fabs(y[i]);
  for (int i = s->nind1; i < s->nind1 + s->nind2; i++) s->scal[i] /= ah;
  for (int i = s->nind1 + s->nind2; i < n; i++) s->scal[i] /= ah * ah;
  for (int i = 0; i < n; i++) s->iscal[i] = 1.0 / s->scal[i];
}

static double scaled_rms(const radau5_state *s, const double *e) {
  double sum = 0.0;
  for (int i = 0; i < s->n; i++) {
    double r = e[i] * s->iscal[i];
    sum += r * r;
  }
  return sum;
}

/* Error estimate (HW II §IV.8): err (>= 1e-10, NaN if non-finite); *fatal
 * is set when f failed fatally in the refinement. */
static double estimate_error(radau5_state *s, cosrod_step_ctx *ctx, double t, const double *y, double h,
                             int *fatal) {
  const int n = s->n;
  const double h1 = R5_DD1 / h, h2 = R5_DD2 / h, h3 = R5_DD3 / h;
  double *e = s->tmp, *f2 = s->tmp2, *ysh = s->tmp3;
  *fatal = 0;
  for (int i = 0; i < n; i++) e[i] = h1 * s->z1[i] + h2 * s->z2[i] + h3 * s->z3[i];
  if (s->mass) {
    mass_mv(s, e, f2);
  } else {
    memcpy(f2, e, sizeof(double) * (size_t)n);
  }
  for (int i = 0; i < n; i++) e[i] = f2[i] + s->f0[i];
  solve_real(s, h, e);
  ctx->stats->nsolve++;
  double err = fmax(sqrt(scaled_rms(s, e) / n), 1e-10);
  if (err >= 1.0 && (s->first || s->reject)) {
    for (int i = 0; i < n; i++) ysh[i] = y[i] + e[i];
    int rc = cosrod_step_call_f(ctx, t, ysh, e);
    if (rc < 0) {
      *fatal = 1;
      return err;
    }
    if (rc > 0) return err; /* keep the first estimate: the step is rejected */
    for (int i = 0; i < n; i++) e[i] += f2[i];
    solve_real(s, h, e);
    ctx->stats->nsolve++;
    err = fmax(sqrt(scaled_rms(s, e) / n), 1e-10);
  }
  return err;
}

/* ---- one step ---------------------------------------------------------- */

/* Reject the attempt and retry with h * fac (Newton trouble). */
static void newton_retry(radau5_state *s, cosrod_step_ctx *ctx, double h, double fac) {
  s->reject = 1;
  s->need_jac = !s->caljac;
  ctx->h = h * fac;
}

static cosrod_status radau5_step(void *vs, cosrod_step_ctx *ctx, int *accepted) {
  radau5_state *s = vs;
  const int n = s->n;
  const double dir = ctx->dir, t = ctx->t;
  double *y = ctx->y;
  double h = ctx->h;
  *accepted = 0;

  if (ctx->y_modified) {
    s->need_f0 = 1;
    ctx->y_modified = 0;
  }
  if (s->need_f0) {
    int rc = cosrod_step_call_f(ctx, t, y, s->f0);
    if (rc != 0)
      return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t,
                              "radau5: f failed (%d) at the accepted point t = %.17g", rc, t);
    s->need_f0 = 0;
  }
  /* last step: reach t_end exactly (Hairer: x + h >= xend, 1.0001 on the first step).
   * The slack of a few ulps makes h = t_end - t (set after the previous step)
   * count as the last step even when t + h rounds to just below t_end, which
   * would otherwise leave a sub-ulp remainder (a spurious "step too small"). */
  int last = 0;
  const double slack = 4.0 * DBL_EPSILON * fmax(fabs(t), fabs(ctx->t_end));
  if ((t + h * (s->first ? 1.0001 : 1.0) - ctx->t_end) * dir >= -slack) {
    h = ctx->t_end - t;
    last = 1;
  }
  ctx->h = h;

  if (s->need_jac) {
    int rc = cosrod_step_call_jac(ctx, t, y, s->f0, s->jac, s->ldj, s->jwork);
    if (rc != 0)
      return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t,
                              "radau5: Jacobian evaluation failed (%d) at t = %.17g", rc, t);
    s->need_jac = 0;
    s->caljac = 1;
    s->have_lu = 0;
  }
  if (!s->have_lu || h != s->h_lu) {
    cosrod_status st = decompose(s, h);
    ctx->stats->ndecomp++;
    if (st != COSROD_OK) {
      s->have_lu = 0;
      if (++s->nsing >= 5)
        return cosrod_step_fail(ctx, COSROD_ERR_SINGULAR, t,
                                "radau5: iteration matrix singular 5 times (t = %.17g, h = %g)", t, h);
      newton_retry(s, ctx, h, 0.5);
      return COSROD_OK;
    }
    s->have_lu = 1;
    s->h_lu = h;
  }

  /* ---- simplified Newton iteration ---- */
  ctx->stats->nsteps++;
  compute_scale(s, y, h);
  if (s->first) {
    memset(s->z1, 0, sizeof(double) * (size_t)n);
    memset(s->z2, 0, sizeof(double) * (size_t)n);
    memset(s->z3, 0, sizeof(double) * (size_t)n);
    memset(s->w1, 0, sizeof(double) * (size_t)n);
    memset(s->w2, 0, sizeof(double) * (size_t)n);
    memset(s->w3, 0, sizeof(double) * (size_t)n);
  } else {
    /* extrapolate the last collocation polynomial to the new nodes */
    const double c3q = h / s->hold, c1q = R5_C1 * c3q, c2q = R5_C2 * c3q;
    const double *a1 = s->cont + n, *a2 = s->cont + 2 * n, *a3 = s->cont + 3 * n;
    for (int i = 0; i < n; i++) {
      double z1 = c1q * (a1[i] + (c1q - R5_C2M1) * (a2[i] + (c1q - R5_C1M1) * a3[i]));
      double z2 = c2q * (a1[i] + (c2q - R5_C2M1) * (a2[i] + (c2q - R5_C1M1) * a3[i]));
      double z3 = c3q * (a1[i] + (c3q - R5_C2M1) * (a2[i] + (c3q - R5_C1M1) * a3[i]));
      s->z1[i] = z1, s->z2[i] = z2, s->z3[i] = z3;
      s->w1[i] = R5_TI[0][0] * z1 + R5_TI[0][1] * z2 + R5_TI[0][2] * z3;
      s->w2[i] = R5_TI[1][0] * z1 + R5_TI[1][1] * z2 + R5_TI[1][2] * z3;
      s->w3[i] = R5_TI[2][0] * z1 + R5_TI[2][1] * z2 + R5_TI[2][2] * z3;
    }
  }
  const double fac1 = R5_GAMMA / h, alphn = R5_ALPHA / h, betan = R5_BETA / h;
  const int nit = s->nit;
  int newt = 0;
  double dynold = 0.0, thqold = 0.0;
  s->faccon = pow(fmax(s->faccon, ctx->uround), 0.8);
  s->theta = fabs(s->thet);
  for (;;) {
    if (newt >= nit) {
      newton_retry(s, ctx, h, 0.5);
      return COSROD_OK;
    }
    double *ys = s->tmp;
    int rc = 0;
    for (int i = 0; i < n; i++) ys[i] = y[i] + s->z1[i];
    rc = cosrod_step_call_f(ctx, t + R5_C1 * h, ys, s->g1);
    if (rc == 0) {
      for (int i = 0; i < n; i++) ys[i] = y[i] + s->z2[i];
      rc = cosrod_step_call_f(ctx, t + R5_C2 * h, ys, s->g2);
    }
    if (rc == 0) {
      for (int i = 0; i < n; i++) ys[i] = y[i] + s->z3[i];
      rc = cosrod_step_call_f(ctx, t + h, ys, s->g3);
    }
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc > 0) {
      newton_retry(s, ctx, h, 0.5);
      return COSROD_OK;
    }
    /* right-hand sides: T^-1 F(Z) - (Λ/h ⊗ M) W */
    for (int i = 0; i < n; i++) {
      double a1 = s->g1[i], a2 = s->g2[i], a3 = s->g3[i];
      s->g1[i] = R5_TI[0][0] * a1 + R5_TI[0][1] * a2 + R5_TI[0][2] * a3;
      s->g2[i] = R5_TI[1][0] * a1 + R5_TI[1][1] * a2 + R5_TI[1][2] * a3;
      s->g3[i] = R5_TI[2][0] * a1 + R5_TI[2][1] * a2 + R5_TI[2][2] * a3;
    }
    if (s->mass) {
      double *v = s->tmp2, *mv = s->tmp3;
      for (int i = 0; i < n; i++) v[i] = fac1 * s->w1[i];
      mass_mv(s, v, mv);
      for (int i = 0; i < n; i++) s->g1[i] -= mv[i];
      for (int i = 0; i < n; i++) v[i] = alphn * s->w2[i] - betan * s->w3[i];
      mass_mv(s, v, mv);
      for (int i = 0; i < n; i++) s->g2[i] -= mv[i];
      for (int i = 0; i < n; i++) v[i] = betan * s->w2[i] + alphn * s->w3[i];
      mass_mv(s, v, mv);
      for (int i = 0; i < n; i++) s->g3[i] -= mv[i];
    } else {
      for (int i = 0; i < n; i++) {
        double w1 = s->w1[i], w2 = s->w2[i], w3 = s->w3[i];
        s->g1[i] -= fac1 * w1;
        s->g2[i] -= alphn * w2 - betan * w3;
        s->g3[i] -= betan * w2 + alphn * w3;
      }
    }
    solve_real(s, h, s->g1);
    solve_cplx(s, h, s->g2, s->g3);
    ctx->stats->nsolve++;
    ctx->stats->nnewton++;
    newt++;
    double dyno = 0.0;
    for (int i = 0; i < n; i++) {
      double w = s->iscal[i], r1 = s->g1[i] * w, r2 = s->g2[i] * w, r3 = s->g3[i] * w;
      dyno += r1 * r1 + r2 * r2 + r3 * r3;
    }
    dyno = sqrt(dyno / (3.0 * n));
    if (!isfinite(dyno)) {
      ctx->nonfinite = 1;
      newton_retry(s, ctx, h, 0.5);
      return COSROD_OK;
    }
    /* convergence rate, early abandonment */
    if (newt > 1 && newt < nit) {
      double thq = dyno / dynold;
      s->theta = newt == 2 ? thq : sqrt(thq * thqold);
      thqold = thq;
      if (s->theta < 0.99) {
        s->faccon = s->theta / (1.0 - s->theta);
        double dyth = s->faccon * dyno * pow(s->theta, nit - 1 - newt) / s->fnewt;
        if (dyth >= 1.0) {
          double qnewt = fmax(1e-4, fmin(20.0, dyth));
          newton_retry(s, ctx, h, 0.8 * pow(qnewt, -1.0 / (4.0 + nit - 1 - newt)));
          return COSROD_OK;
        }
      } else {
        newton_retry(s, ctx, h, 0.5);
        return COSROD_OK;
      }
    }
    dynold = fmax(dyno, ctx->uround);
    for (int i = 0; i < n; i++) {
      double w1 = s->w1[i] + s->g1[i], w2 = s->w2[i] + s->g2[i], w3 = s->w3[i] + s->g3[i];
      s->w1[i] = w1, s->w2[i] = w2, s->w3[i] = w3;
      s->z1[i] = R5_T[0][0] * w1 + R5_T[0][1] * w2 + R5_T[0][2] * w3;
      s->z2[i] = R5_T[1][0] * w1 + R5_T[1][1] * w2 + R5_T[1][2] * w3;
      s->z3[i] = R5_T[2][0] * w1 + R5_T[2][1] * w2 + R5_T[2][2] * w3;
    }
    if (s->faccon * dyno <= s->fnewt) break;
  }

  /* ---- error estimate and step-size control ---- */
  int fatal = 0;
  double err = estimate_error(s, ctx, t, y, h, &fatal);
  if (fatal) return COSROD_ERR_CALLBACK;
  if (!isfinite(err)) {
    ctx->nonfinite = 1;
    newton_retry(s, ctx, h, 0.5);
    return COSROD_OK;
  }
  const double fac = fmin(s->safe, s->safe * (1.0 + 2.0 * nit) / (newt + 2.0 * nit));
  double q = cosrod_control_standard(err, 0.25, fac, s->fac_min, s->fac_max);
  if (err < 1.0) {
    /* accepted */
    s->first = 0;
    ctx->stats->naccept++;
    if (s->pred) {
      if (ctx->stats->naccept > 1) {
        double qg =
            cosrod_control_gustafsson(err, h, s->erracc, s->hacc, 0.25, s->safe, s->fac_min, s->fac_max);
        q = fmin(q, qg);
      }
      s->hacc = h;
      s->erracc = fmax(1e-2, err);
    }
    double hnew = h * q;
    /* new solution and the collocation polynomial in Newton form:
     * u(s) = y1 + s (a1 + (s - c2 + 1)(a2 + (s - c1 + 1) a3)), s = (t - t1)/h */
    double *c0 = s->cont, *a1 = s->cont + n, *a2 = s->cont + 2 * n, *a3 = s->cont + 3 * n;
    for (int i = 0; i < n; i++) {
      double z1 = s->z1[i], z2 = s->z2[i], z3 = s->z3[i];
      y[i] += z3;
      c0[i] = y[i];
      a1[i] = (z2 - z3) / R5_C2M1;
      double ak = (z1 - z2) / R5_C1MC2;
      double acont3 = (ak - z1 / R5_C1) / R5_C2;
      a2[i] = (ak - a1[i]) / R5_C1M1;
      a3[i] = a2[i] - acont3;
    }
    ctx->t_old = t;
    ctx->h_last = h;
    ctx->t = last ? ctx->t_end : t + h;
    s->hold = h;
    s->caljac = 0;
    s->need_f0 = 1;
    s->nsing = 0;
    *accepted = 1;
    if (fabs(hnew) > ctx->hmax) hnew = dir * ctx->hmax;
    if (s->reject && fabs(hnew) > fabs(h)) hnew = h;
    s->reject = 0;
    s->need_jac = !(s->theta <= s->thet);
    if (last) {
      ctx->h = fabs(hnew) < fabs(h) ? hnew : h;
      return COSROD_OK;
    }
    double hn = hnew;
    if ((ctx->t + hnew / s->quot1 - ctx->t_end) * dir >= 0.0) {
      hn = ctx->t_end - ctx->t;
    } else {
      double qt = hnew / h;
      if (s->theta <= s->thet && qt >= s->quot1 && qt <= s->quot2) hn = h;
    }
    ctx->h = hn;
    return COSROD_OK;
  }
  /* rejected */
  if (ctx->stats->naccept >= 1) ctx->stats->nreject++;
  double hn = s->first ? 0.1 * h : h * q;
  s->reject = 1;
  s->need_jac = !s->caljac;
  ctx->h = hn;
  return COSROD_OK;
}

/* Dense output: the collocation polynomial of the last accepted step. */
static cosrod_status radau5_dense(void *vs, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  const radau5_state *s = vs;
  const int n = s->n;
  const double sv = (t - ctx->t) / ctx->h_last;
  const double *c0 = s->cont, *a1 = s->cont + n, *a2 = s->cont + 2 * n, *a3 = s->cont + 3 * n;
  int cnt = idx ? nidx : n;
  for (int k = 0; k < cnt; k++) {
    int i = idx ? idx[k] : k;
    if (i < 0 || i >= n) return COSROD_ERR_INVALID;
    out[k] = c0[i] + sv * (a1[i] + (sv - R5_C2M1) * (a2[i] + (sv - R5_C1M1) * a3[i]));
  }
  return COSROD_OK;
}

static const cosrod_step_type radau5_type = {
    "radau5",
    5,
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_DAE_INDEX23 | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE |
        COSROD_STEP_OWN_CLIP,
    radau5_alloc,
    radau5_reset,
    radau5_step,
    radau5_dense,
    radau5_free};

const cosrod_step_type *const cosrod_step_radau5 = &radau5_type;
