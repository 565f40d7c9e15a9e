// SPDX-License-Identifier: Apache-2.0
/* Analytic Jacobian of the Kirchhoff DAE right-hand side ([LA] eq. 14,
 * Fig. 4a; cosrod_rod_kirchhoff_rhs_dae), banded in the node ordering.
 *
 * y = (q, v, λ, λ_K) -> f = (v, a, λ_post - λ, g̈) with
 *     a      = a0(q, v) - A⁺(p) Gᵀ(q) λ_K,
 *     λ_post = <p, F_p>/|p|² - <J_rᵀλ_K, p>/|p|²,
 *     g̈_k   = G_k(q) a + h_k(q, v)   (+ 2 r ġ_k + ω² g_k, Baumgarte).
 * Blocks, per segment k (p = p_k, Δx = x_{k+1} - x_k, λ = λ_K,k padded to 3):
 * 1. ∂(v, a0, <p, F_p>/|p|² - λ)/∂(q, v, λ): the Cosserat mass-matrix DAE
 *    assembly of rod_jac.c (KIND_DAEM; the constrained strains have no
 *    elastic or viscous coefficients in a Kirchhoff rod).
 * 2. ∂a/∂λ_K = -A⁺Gᵀ: vertices ∓W_n R(p) e_a, rotation -μ♯(p) J_rᵀ e_a.
 * 3. ∂(-A⁺Gᵀλ)/∂q at fixed λ: f = R(p)λ = Im(p λ p̄) on the vertices,
 *    ∂f/∂p = 2 R2(p, ·)λ; on the rotation -μ♯(p)u, u = J_rᵀλ = -2 Δx p λ,
 *    ∂u/∂p = -2 Q(Δx)Qr(λ), ∂u/∂Δx = -2 Qr(pλ)_{:,im}, plus the derivative
 *    of μ♯(p)u at fixed u ([L] eq. 39).
 * 4. Constraint rows: g̈_k = Σ_a Im(...)_a terms, ∂g̈_k/∂y = G_k ∂a/∂y (the
 *    assembled rows of vertices k, k+1 and segment k, read back from the
 *    band: this gives -S = -G A⁺Gᵀ in the λ_K columns) + the derivatives
 *    at fixed accelerations of G_k(q) a + h_k(q, v), every term of the form
 *    Im(ā X b) with a, b ∈ {p, ṗ, p̈} and X ∈ {Δx, Δẋ, Δẍ}.
 * 5. λ_post rows: the F_p part from 1; -s/|p|², s = 2 λ·Im(p̄ Δx p),
 *    ∂s/∂p = 2 uᵀ, ∂s/∂Δx = 2 f.
 * Bodies attached to the ends (movable supports) are not covered. */
#include <string.h>

#include "cosrod/band.h"
#include "rod/rod_jac_internal.h"
#include "rod/rod_kirchhoff_internal.h"

typedef struct kdst {
  double *J;
  int ldj, ml, mu, ny;
  const int *perm;
  int overflow;
} kdst;

static inline int pidx(const kdst *s, int i) { return s->perm ? s->perm[i] : i; }

static inline void addp(kdst *s, int pi, int pj, double v) {
  if (pi - pj > s->ml || pj - pi > s->mu) {
    if (v != 0.0) s->overflow = 1;
    return;
  }
  s->J[(size_t)pj * (size_t)s->ldj + (size_t)(s->mu + pi - pj)] += v;
}

static inline double getp(const kdst *s, int pi, int pj) {
  if (pi - pj > s->ml || pj - pi > s->mu) return 0.0;
  return s->J[(size_t)pj * (size_t)s->ldj + (size_t)(s->mu + pi - pj)];
}

/* Add sc B (nr x nc, column-major) at native (gi, gj).  vi >= 0: the rows are
 * the spatial 3 of vertex vi, reduced to its nd coordinates (slide: axisᵀ);
 * vj >= 0: the columns are the spatial 3 of vertex vj, likewise. */
static void put(kdst *s, const cosrod_rod *rod, int gi, int vi, int nr, int gj, int vj, int nc, double sc,
                const double *B) {
  double T[48];
  int r2 = nr, c2 = nc;
  for (int i = 0; i < nr * nc; ++i) T[i] = sc * B[i];
  if (vi >= 0) {
    if (rod->nd[vi] == 0) return;
    if (rod->nd[vi] == 1) {
      const double *ax = rod->end[vi == 0 ? 0 : 1].axis;
      for (int c = 0; c < nc; ++c) T[c] = ax[0] * T[3 * c] + ax[1] * T[3 * c + 1] + ax[2] * T[3 * c + 2];
      r2 = 1;
    }
  }
  if (vj >= 0) {
    if (rod->nd[vj] == 0) return;
    if (rod->nd[vj] == 1) {
      const double *ax = rod->end[vj == 0 ? 0 : 1].axis;
      for (int r = 0; r < r2; ++r) T[r] = T[r] * ax[0] + T[r + r2] * ax[1] + T[r + 2 * r2] * ax[2];
      c2 = 1;
    }
  }
  for (int c = 0; c < c2; ++c)
    for (int r = 0; r < r2; ++r) addp(s, pidx(s, gi + r), pidx(s, gj + c), T[r + r2 * c]);
}

/* Blocks 2, 3 and the λ_K part of 5 for segment k (kw blocks at the state). */
static void lambda_terms(kdst *s, const cosrod_rod *rod, const cosrod_rod_data *d, const double *y, int k) {
  const struct rod_kirchhoff_work *kw = d->kw;
  const int nq = rod->nq, N = rod->N, m = kw->m, iq = rod->qs[k], gl = 2 * nq + N + m * k;
  const double *p = d->p + 4 * k, *Ib = rod->Ib + 3 * k, *Rt = kw->Rt + 9 * k, *Jr = kw->Jr + 12 * k;
  const double *Br = kw->Br + 12 * k;
  double lam[3] = {0.0, 0.0, 0.0}, dx[3], f[3] = {0.0, 0.0, 0.0}, u[4] = {0.0, 0.0, 0.0, 0.0};
  for (int a = 0; a < m; ++a) lam[a] = y[gl + a];
  cosrod_vec3_sub(dx, d->x + 3 * (k + 1), d->x + 3 * k);
  double Rm[9], Dfp[12], R[9];
  for (int a = 0; a < m; ++a) {
    cosrod_vec3_axpy(f, lam[a], Rt + 3 * a);
    for (int i = 0; i < 3; ++i) Rm[i + 3 * a] = Rt[3 * a + i];
    for (int j = 0; j < 4; ++j) u[j] += lam[a] * Jr[4 * a + j];
  }
  for (int j = 0; j < 4; ++j) { /* ∂(R(p)λ)/∂p_j = 2 R2(p, e_j) λ */
    double e[4] = {0.0, 0.0, 0.0, 0.0};
    e[j] = 1.0;
    m_R2(R, p, e);
    for (int i = 0; i < 3; ++i) Dfp[i + 3 * j] = 2.0 * (R[i] * lam[0] + R[i + 3] * lam[1] + R[i + 6] * lam[2]);
  }
  /* vertices: a_{k+1} -= W f, a_k += W f */
  for (int o = 0; o < 2; ++o) {
    int n = k + o;
    if (!rod->nd[n]) continue;
    double sc = (o ? -1.0 : 1.0) / rod->mv[n];
    put(s, rod, nq + rod->qv[n], n, 3, iq, -1, 4, sc, Dfp);
    put(s, rod, nq + rod->qv[n], n, 3, gl, -1, m, sc, Rm);
  }
  /* rotation: ṗ-accelerations -= μ♯(p) u */
  double X[16], Ms[16], Du[16], QL[16], QR[16], lq[4] = {0.0, lam[0], lam[1], lam[2]}, dq[4], pl[4];
  cosrod_quat_mass_sharp(Ms, p, Ib);
  rod_jac_dmusharp(X, p, Ib, u);
  cosrod_quat_pure(dq, dx);
  m_qL(QL, dq);
  m_qR(QR, lq);
  mm(Du, QL, QR, 4, 4, 4);
  mma(X, -2.0, Ms, Du, 4, 4, 4);
  put(s, rod, nq + iq, -1, 4, iq, -1, 4, -1.0, X);
  cosrod_quat_mul(pl, p, lq);
  m_qR(QR, pl);
  double Y[12];
  mm(Y, Ms, QR + 4, 4, 4, 3); /* μ♯ ∂u/∂Δx = -2 Y */
  for (int o = 0; o < 2; ++o)
    if (rod->nd[k + o]) put(s, rod, nq + iq, -1, 4, rod->qv[k + o], k + o, 3, o ? 2.0 : -2.0, Y);
  double Bc[12];
  for (int a = 0; a < m; ++a)
    for (int j = 0; j < 4; ++j) Bc[j + 4 * a] = Br[3 * j + a];
  put(s, rod, nq + iq, -1, 4, gl, -1, m, -1.0, Bc);
  /* λ_post row: -s/|p|², s = 2 λ·Im(p̄ Δx p) */
  const double n2 = cosrod_quat_norm2(p);
  double sv = 0.0, row[4], jp[3];
  for (int a = 0; a < m; ++a) {
    jp[a] = cosrod_quat_dot(Jr + 4 * a, p);
    sv += lam[a] * jp[a];
  }
  for (int j = 0; j < 4; ++j) row[j] = -2.0 * u[j] / n2 + 2.0 * sv * p[j] / (n2 * n2);
  put(s, rod, 2 * nq + k, -1, 1, iq, -1, 4, 1.0, row);
  for (int o = 0; o < 2; ++o)
    if (rod->nd[k + o]) put(s, rod, 2 * nq + k, -1, 1, rod->qv[k + o], k + o, 3, o ? -2.0 / n2 : 2.0 / n2, f);
  put(s, rod, 2 * nq + k, -1, 1, gl, -1, m, -1.0 / n2, jp);
}

/* Accumulate the derivatives of c Im(ā X b) (3-vector) w.r.t. the slots:
 * ia, ib in {0: p, 1: ṗ, -1: held fixed}, iX in {0: Δx, 1: Δẋ, -1: fixed}
 * into Lq[ia] (3x4) and Lx[iX] (3x3):
 *   ∂/∂a = Im rows of Qr(X b) C,  ∂/∂X = Im block of Q(ā)Qr(b),  ∂/∂b = Im rows of Q(ā X). */
static void trilin(double c, const double a[4], int ia, const double X[3], int iX, const double b[4], int ib,
                   double Lq[2][12], double Lx[2][9]) {
  double Xq[4], Z[4], ac[4], T[16], T2[16], M[16];
  cosrod_quat_pure(Xq, X);
  if (ia >= 0) {
    cosrod_quat_mul(Z, Xq, b);
    m_qR(T, Z);
    m_conjc(T, 4);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) Lq[ia][i + 3 * j] += c * T[i + 1 + 4 * j];
  }
  cosrod_quat_conj(ac, a);
  if (iX >= 0) {
    m_qL(T, ac);
    m_qR(T2, b);
    mm(M, T, T2, 4, 4, 4);
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) Lx[iX][i + 3 * j] += c * M[i + 1 + 4 * (j + 1)];
  }
  if (ib >= 0) {
    cosrod_quat_mul(Z, ac, Xq);
    m_qL(T, Z);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) Lq[ib][i + 3 * j] += c * T[i + 1 + 4 * j];
  }
}

/* Block 4: the m constraint rows of segment k.  acc: the accelerations of
 * the state (xdd spatial ((N+1) x 3), pdd (N x 4)). */
static void constraint_rows(kdst *s, const cosrod_rod *rod, const cosrod_rod_data *d, int k, const double *xdd,
                            const double *pdd) {
  const struct rod_kirchhoff_work *kw = d->kw;
  const int nq = rod->nq, N = rod->N, m = kw->m, iq = rod->qs[k];
  const double *p = d->p + 4 * k, *pd = d->pd + 4 * k, *Rt = kw->Rt + 9 * k, *Jr = kw->Jr + 12 * k;
  const double *pa = pdd + 4 * k;
  double dx[3], dxd[3], dxdd[3];
  cosrod_vec3_sub(dx, d->x + 3 * (k + 1), d->x + 3 * k);
  cosrod_vec3_sub(dxd, d->xd + 3 * (k + 1), d->xd + 3 * k);
  cosrod_vec3_sub(dxdd, xdd + 3 * (k + 1), xdd + 3 * k);
  for (int a = 0; a < m; ++a) {
    const int pr = pidx(s, 2 * nq + N + m * k + a);
    /* G_k row a times the assembled acceleration rows */
    for (int o = 0; o < 2; ++o) {
      int n = k + o, nd = rod->nd[n];
      if (!nd) continue;
      double sg = o ? 1.0 : -1.0, cf[3];
      if (nd == 3) {
        for (int i = 0; i < 3; ++i) cf[i] = sg * Rt[3 * a + i];
      } else {
        cf[0] = sg * cosrod_vec3_dot(Rt + 3 * a, rod->end[n == 0 ? 0 : 1].axis);
      }
      for (int i = 0; i < nd; ++i) {
        int pi = pidx(s, nq + rod->qv[n] + i);
        int c0 = pi - s->ml > 0 ? pi - s->ml : 0, c1 = pi + s->mu < s->ny - 1 ? pi + s->mu : s->ny - 1;
        for (int c = c0; c <= c1; ++c) {
          double v = getp(s, pi, c);
          if (v != 0.0) addp(s, pr, c, cf[i] * v);
        }
      }
    }
    for (int j = 0; j < 4; ++j) {
      int pi = pidx(s, nq + iq + j);
      int c0 = pi - s->ml > 0 ? pi - s->ml : 0, c1 = pi + s->mu < s->ny - 1 ? pi + s->mu : s->ny - 1;
      for (int c = c0; c <= c1; ++c) {
        double v = getp(s, pi, c);
        if (v != 0.0) addp(s, pr, c, Jr[4 * a + j] * v);
      }
    }
  }
  /* at fixed accelerations: Im(p̄Δẍp) + 2Im(p̄Δx p̈) + 4Im(p̄Δẋṗ) + 2Im(ṗ̄Δxṗ)
   * (+ 2r (Im(p̄Δẋp) + 2Im(p̄Δxṗ)) + ω² Im(p̄Δxp)) */
  double Lq[2][12], Lx[2][9];
  memset(Lq, 0, sizeof Lq);
  memset(Lx, 0, sizeof Lx);
  trilin(1.0, p, 0, dxdd, -1, p, 0, Lq, Lx);
  trilin(2.0, p, 0, dx, 0, pa, -1, Lq, Lx);
  trilin(4.0, p, 0, dxd, 1, pd, 1, Lq, Lx);
  trilin(2.0, pd, 1, dx, 0, pd, 1, Lq, Lx);
  const double om = d->baumgarte_omega, br = d->baumgarte_r;
  if (br != 0.0) {
    trilin(2.0 * br, p, 0, dxd, 1, p, 0, Lq, Lx);
    trilin(4.0 * br, p, 0, dx, 0, pd, 1, Lq, Lx);
  }
  if (om != 0.0) trilin(om * om, p, 0, dx, 0, p, 0, Lq, Lx);
  const int gr = 2 * nq + N + m * k;
  double B[12];
  for (int v = 0; v < 2; ++v) { /* v = 0: positions, 1: rates */
    for (int j = 0; j < 4; ++j)
      for (int a = 0; a < m; ++a) B[a + m * j] = Lq[v][a + 3 * j];
    put(s, rod, gr, -1, m, v * nq + iq, -1, 4, 1.0, B);
    for (int j = 0; j < 3; ++j)
      for (int a = 0; a < m; ++a) B[a + m * j] = Lx[v][a + 3 * j];
    for (int o = 0; o < 2; ++o)
      if (rod->nd[k + o]) put(s, rod, gr, -1, m, v * nq + rod->qv[k + o], k + o, 3, o ? 1.0 : -1.0, B);
  }
}

cosrod_status cosrod_rod_kirchhoff_jac_dae_band(const cosrod_rod *rod, cosrod_rod_data *d, double t,
                                                const double *y, const int *perm, double *J, int ldj, int ml,
                                                int mu) {
  if (!rod || !d || !y || !J) return COSROD_ERR_INVALID;
  struct rod_kirchhoff_work *kw = d->kw;
  if (!kw || rod->model == COSROD_MODEL_COSSERAT) return COSROD_ERR_INVALID;
  if (kw->mob_on[0] || kw->mob_on[1]) return COSROD_ERR_UNSUPPORTED;
  const int N = rod->N, nq = rod->nq, ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  /* the accelerations of the state (d->work: scratch of 3 (2 nq + N) >= ny) */
  double *f = d->work;
  int rc = cosrod_rod_kirchhoff_rhs_dae(rod, d, t, y, f);
  if (rc != 0) return rc > 0 ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK;
  memcpy(kw->xs, d->xdd, sizeof(double) * 3 * (size_t)(N + 1));
  for (int k = 0; k < N; ++k) memcpy(kw->rs + 4 * k, f + nq + rod->qs[k], 4 * sizeof(double));
  /* block 1 (zeroes the band first) */
  cosrod_rod_jac_block b = {J, ldj, ml, mu, 0, 0, ny, ny};
  cosrod_status st = rod_jac_run(rod, d, KIND_KDAEM, t, y, NULL, 0.0, 1, &b, 0, NULL, NULL, perm);
  if (st != COSROD_OK) return st;
  kdst s = {J, ldj, ml, mu, ny, perm, 0};
  for (int k = 0; k < N; ++k) lambda_terms(&s, rod, d, y, k);
  for (int k = 0; k < N; ++k) constraint_rows(&s, rod, d, k, kw->xs, kw->rs);
  return s.overflow ? COSROD_ERR_DIMENSION : COSROD_OK;
}
