// SPDX-License-Identifier: Apache-2.0
/* Analytic Jacobians of the rod right-hand sides and residual, assembled
 * directly into band storage in the interleaved ordering ([LLA] §3.4,
 * Table 1; [LA] §4; [L] Lemma 4.2).
 *
 * Two stages, both O(N) and allocation-free (workspace d->jacw):
 *
 * 1. Force derivatives (shared by all formulations).  The generalised forces
 *    fx_n (vertices, 3) and ψ_k (segments, 4) of rod_eval_forces are
 *    differentiated by hand w.r.t. the full variables x_n, ẋ_n, p_k, ṗ_k:
 *    - segment kernel ([LLA] eq. 23): Γ = R(p)ᵀa - e3, a = Δx/Δs,
 *      Γ̇ = R(p)ᵀȧ + Ṙᵀa, F = C_Γ(Γ-Γ0) + V_ΓΓ̇;  fs = R(p)F,  fq = 2 Δx p F.
 *      ∂Γ/∂Δx = Rᵀ/Δs, ∂Γ/∂p = ∂(Rᵀa)/∂p, ∂Γ̇/∂ṗ = ∂Γ/∂p,
 *      ∂Γ̇/∂p = ∂(Rᵀȧ)/∂p + ∂(Rᵀa)/∂p|_{p=ṗ} (R is quadratic in p),
 *      ∂Γ̇/∂Δx = Ṙᵀ/Δs with Ṙ = dR(p)[ṗ].
 *    - vertex kernel ([LLA] eq. 26): chain rule through W = p̄₋p₊, Ẇ,
 *      K = αζ(c) Im W, K̇ = α(ζ'ċ Im W + ζ Im Ẇ), M = C_K(K-K0) + V_K K̇,
 *      Q = wα(ζ'<M, Im W> | ζM), fp = -p₋Q, fm = -p₊Q̄ (needs ζ'').
 *    - clamped / prescribed ends: ghost g = pe p̄ pe ([LLA] Remark 3.1),
 *      ∂g/∂p = Q(pe)Qr(pe)C (also the force pull-back), ∂ġ/∂p from ṗe.
 *    - loads: material point / distributed forces R(p)f, moments 2 p M̂
 *      with M̂ = R(p)ᵀm for spatial moments.  Gravity and dead loads are
 *      constant; the user load callback is NOT differentiated (treated as
 *      constant in the Jacobian).
 * 2. Formulation-specific assembly: left transforms of the rows
 *    (ABSOLUTE: 1/m, μ♯(p) [L] eq. 39; NULLSPACE: Ī⁻¹Tᵀ(p); DAE: -1),
 *    right transforms of the columns (sliding vertex: axis; NULLSPACE:
 *    ṗ = ½pΩ), and the local terms (derivative of μ♯(p)F at fixed F, of the
 *    Baumgarte / normal term p r/|p|², of the inertia term
 *    8ṗ(Ī Im(p̄ṗ)), of Ω×ĪΩ, of μ(p)p̈ + λp and of the constraint rows).
 * Every small block is added straight into the band columns of the
 * destination blocks (cosrod_rod_jac_block), optionally through a row /
 * column permutation (cosrod_rod_jac_full_band: the whole Jacobian in the
 * node ordering of rod_order.c, whose bandwidth does not grow with N). */
#include "cosrod/band.h"
#include "cosrod/status.h"
#include "core/par.h"
#include "rod/rod_jac_internal.h"

size_t rod_jac_work_size(const cosrod_rod *rod) {
  return (size_t)(rod->N + 1) * VTX_STRIDE + (size_t)rod->N * SEG_STRIDE + 2 * (size_t)rod->nq +
         (size_t)rod->N + 8;
}

/* ---- destinations ------------------------------------------------------------ */

typedef struct jsink {
  int nb;
  const cosrod_rod_jac_block *b;
  int overflow;
  int measure;     /* 1: record the bandwidths instead of writing */
  int mlx, mux;    /* measured */
  const int *perm; /* NULL, or (ny) row/column permutation (rod_order.c): global index i -> perm[i];
                      maps every emitted block by its first row / column (the blocks are the
                      contiguous sub-blocks x_n, rate_n, p_k, rate_k, λ_k, kept in order by perm) */
  int zc[4];       /* per block: columns [0, zc) are zeroed (lazily, just ahead of the first write, so that
                      a large band is zeroed and filled while in cache) */
} jsink;

/* Zero the band of columns [c0, c1) of block T. */
static void zero_cols(const cosrod_rod_jac_block *T, int c0, int c1) {
  const size_t h = (size_t)(T->ml + T->mu + 1);
  if ((size_t)T->ldj == h)
    memset(T->J + (size_t)c0 * h, 0, sizeof(double) * h * (size_t)(c1 - c0));
  else
    for (int c = c0; c < c1; ++c) memset(T->J + (size_t)c * (size_t)T->ldj, 0, sizeof(double) * h);
}

/* Make sure columns < c of block t are zeroed (a few more ahead). */
static void zero_upto(jsink *s, int t, int c) {
  const cosrod_rod_jac_block *T = &s->b[t];
  int e = c + 64;
  if (e > T->nc) e = T->nc;
  zero_cols(T, s->zc[t], e);
  s->zc[t] = e;
}

/* Add the nr x nc column-major block B (ld nr) at global (gi, gj).  Inlined
 * so that the block sizes are constants at each call site. */
RJ_INLINE void emit(jsink *s, int gi, int gj, int nr, int nc, const double *B) {
  if (s->perm) {
    gi = s->perm[gi];
    gj = s->perm[gj];
  }
  for (int t = 0; t < s->nb; ++t) {
    const cosrod_rod_jac_block *T = &s->b[t];
    int i0 = gi - T->r0, j0 = gj - T->c0;
    if (i0 >= T->nr || j0 >= T->nc || i0 + nr <= 0 || j0 + nc <= 0) continue;
    if (!s->measure && j0 + nc > s->zc[t]) zero_upto(s, t, j0 + nc < T->nc ? j0 + nc : T->nc);
    if (s->measure) {
      for (int c = 0; c < nc; ++c)
        for (int r = 0; r < nr; ++r) {
          int i = i0 + r, j = j0 + c;
          if (i < 0 || j < 0 || i >= T->nr || j >= T->nc) continue;
          if (i - j > s->mlx) s->mlx = i - j;
          if (j - i > s->mux) s->mux = j - i;
        }
      continue;
    }
    if (i0 >= 0 && j0 >= 0 && i0 + nr <= T->nr && j0 + nc <= T->nc && i0 + nr - 1 - j0 <= T->ml &&
        j0 + nc - 1 - i0 <= T->mu) {
      for (int c = 0; c < nc; ++c) {
        double *col = T->J + (size_t)(j0 + c) * (size_t)T->ldj + (size_t)(T->mu + i0 - j0 - c);
        const double *bc = B + nr * c;
        for (int r = 0; r < nr; ++r) col[r] += bc[r];
      }
      continue;
    }
    for (int c = 0; c < nc; ++c)
      for (int r = 0; r < nr; ++r) {
        int i = i0 + r, j = j0 + c;
        if (i < 0 || j < 0 || i >= T->nr || j >= T->nc) continue;
        if (i - j > T->ml || j - i > T->mu) {
          if (B[r + nr * c] != 0.0) s->overflow = 1;
          continue;
        }
        T->J[(size_t)j * (size_t)T->ldj + (size_t)(T->mu + i - j)] += B[r + nr * c];
      }
  }
}
static inline void emit1(jsink *s, int gi, int gj, double v) { emit(s, gi, gj, 1, 1, &v); }

/* Column transform of a vertex: nd = 3 identity, nd = 1 the slide axis. */
static void emit_vcol(jsink *s, const cosrod_rod *rod, int gi, int nr, int m, int gj, const double *B) {
  int nd = rod->nd[m];
  if (nd == 3) {
    emit(s, gi, gj, nr, 3, B);
  } else if (nd == 1) {
    const double *ax = rod->end[m == 0 ? 0 : 1].axis;
    double c[4];
    for (int r = 0; r < nr; ++r) c[r] = B[r] * ax[0] + B[r + nr] * ax[1] + B[r + 2 * nr] * ax[2];
    emit(s, gi, gj, nr, 1, c);
  }
}

/* Row transform of a vertex block (3 x nc) into L B: nd = 3 scale, nd = 1 axisᵀ scale. */
static int vrow(const cosrod_rod *rod, int n, double sc, const double *B, int nc, double *out) {
  if (rod->nd[n] == 3) {
    for (int i = 0; i < 3 * nc; ++i) out[i] = sc * B[i];
    return 3;
  }
  const double *ax = rod->end[n == 0 ? 0 : 1].axis;
  for (int c = 0; c < nc; ++c) out[c] = sc * (ax[0] * B[3 * c] + ax[1] * B[3 * c + 1] + ax[2] * B[3 * c + 2]);
  return 1;
}

/* ---- stage 2: assembly ------------------------------------------------------- */


/* Emit all rows belonging to vertices: L = sc P (sc = 1/m, or -1). rowoff is
 * added to the q index for the row; colq/colv: offsets of the q and rate
 * columns; ns: rate columns of segments through ṗ = ½ p Ω. */
static void emit_vertex_rows(jsink *s, const cosrod_rod *rod, const cosrod_rod_data *d, int kind, int damped,
                             int nv) {
  const int N = rod->N, nq = rod->nq;
  double *wv = d->jacw;
  const int rowoff = kind == KIND_STIFF ? 0 : nq;
  for (int n = nv; n <= nv; ++n) {
    if (!rod->nd[n]) continue;
    double sc = (kind == KIND_ABS || kind == KIND_NS) ? 1.0 / rod->mv[n] : -1.0;
    int gi = rowoff + (kind == KIND_NS ? rod->vv_ns[n] : rod->qv[n]);
    double B[16];
    int nr = 0;
    for (int o = 0; o < 3; ++o) {
      int m = n - 1 + o;
      if (m < 0 || m > N || !rod->nd[m]) continue;
      nr = vrow(rod, n, sc, VXq(wv, n, o), 3, B);
      emit_vcol(s, rod, gi, nr, m, rod->qv[m], B);
      if (damped && kind != KIND_STIFF) {
        nr = vrow(rod, n, sc, VXv(wv, n, o), 3, B);
        emit_vcol(s, rod, gi, nr, m, nq + (kind == KIND_NS ? rod->vv_ns[m] : rod->qv[m]), B);
      }
    }
    for (int o = 0; o < 2; ++o) {
      int k = n - 1 + o;
      if (k < 0 || k >= N) continue;
      nr = vrow(rod, n, sc, VPq(wv, n, o), 4, B);
      if (kind == KIND_NS && damped) { /* ∂/∂p += ∂/∂ṗ ½Qr(Ω); ∂/∂Ω = ∂/∂ṗ T(p) */
        double Bv[16], Rq[16], C[16], QL[16];
        vrow(rod, n, sc, VPv(wv, n, o), 4, Bv);
        m_qRv(Rq, d->Omega + 3 * k);
        mma(B, 0.5, Bv, Rq, nr, 4, 4);
        emit(s, gi, rod->qs[k], nr, 4, B);
        m_qL(QL, d->p + 4 * k);
        mm(C, Bv, QL + 4, nr, 4, 3);
        for (int i = 0; i < 3 * nr; ++i) C[i] *= 0.5;
        emit(s, gi, nq + rod->vs_ns[k], nr, 3, C);
        continue;
      }
      emit(s, gi, rod->qs[k], nr, 4, B);
      if (damped && kind != KIND_STIFF) {
        nr = vrow(rod, n, sc, VPv(wv, n, o), 4, B);
        emit(s, gi, nq + rod->qs[k], nr, 4, B);
      }
    }
  }
}

/* Segment rows with a left transform L (lr x 4): columns x, ẋ, p, ṗ.  For
 * kind NS the rate columns go through ṗ = ½ p Ω.  Local terms are added by
 * the caller. */
static void emit_segment_row(jsink *s, const cosrod_rod *rod, const cosrod_rod_data *d, int kind, int damped,
                             int k, int gi, const double *L, int lr) {
  const int N = rod->N, nq = rod->nq;
  double *ws = d->jacw + (size_t)(N + 1) * VTX_STRIDE;
  double B[16], C[16];
  for (int o = 0; o < 2; ++o) {
    int m = k + o;
    if (!rod->nd[m]) continue;
    mm(B, L, SXq(ws, k, o), lr, 4, 3);
    emit_vcol(s, rod, gi, lr, m, rod->qv[m], B);
    if (damped && kind != KIND_STIFF) {
      mm(B, L, SXv(ws, k, o), lr, 4, 3);
      emit_vcol(s, rod, gi, lr, m, nq + (kind == KIND_NS ? rod->vv_ns[m] : rod->qv[m]), B);
    }
  }
  for (int o = 0; o < 3; ++o) {
    int j = k - 1 + o;
    if (j < 0 || j >= N) continue;
    int rate = damped || o == 1; /* the self block always has rate terms (inertia) */
    mm(B, L, SPq(ws, k, o), lr, 4, 4);
    if (kind == KIND_STIFF) {
      emit(s, gi, rod->qs[j], lr, 4, B);
      continue;
    }
    if (kind == KIND_NS) {
      if (damped) {
        double Rq[16], QL[16], Lv[16];
        mm(Lv, L, SPv(ws, k, o), lr, 4, 4);
        m_qRv(Rq, d->Omega + 3 * j);
        mma(B, 0.5, Lv, Rq, lr, 4, 4);
        m_qL(QL, d->p + 4 * j);
        mm(C, Lv, QL + 4, lr, 4, 3);
        for (int i = 0; i < 3 * lr; ++i) C[i] *= 0.5;
        emit(s, gi, nq + rod->vs_ns[j], lr, 3, C);
      }
      emit(s, gi, rod->qs[j], lr, 4, B);
      continue;
    }
    emit(s, gi, rod->qs[j], lr, 4, B);
    if (rate) {
      mm(B, L, SPv(ws, k, o), lr, 4, 4);
      emit(s, gi, nq + rod->qs[j], lr, 4, B);
    }
  }
}

/* Fold the inertia term F_p = ψ - 8 ṗ (Ī Im(p̄ṗ)) into the self blocks of segment k. */
static void fold_inertia(const cosrod_rod *rod, cosrod_rod_data *d, int k) {
  double *ws = d->jacw + (size_t)(rod->N + 1) * VTX_STRIDE;
  const double *p = d->p + 4 * k, *pd = d->pd + 4 * k, *Ib = rod->Ib + 3 * k;
  double o[4], e[3], QLd[16], M3[12], T[16];
  cosrod_quat_conj_mul(o, p, pd);
  e[0] = Ib[0] * o[1], e[1] = Ib[1] * o[2], e[2] = Ib[2] * o[3];
  m_qL(QLd, pd);
  /* ∂g/∂p = 8 Q(ṗ)_{:,im} Ī Im rows(Qr(ṗ) C) */
  m_qR(T, pd);
  m_conjc(T, 4);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) M3[i + 3 * j] = Ib[i] * T[i + 1 + 4 * j];
  mma(SPq(ws, k, 1), -8.0, QLd + 4, M3, 4, 3, 4);
  /* ∂g/∂ṗ = 8 Qr(e) + 8 Q(ṗ)_{:,im} Ī Im rows(Q(p̄)) */
  double pc[4];
  cosrod_quat_conj(pc, p);
  m_qL(T, pc);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) M3[i + 3 * j] = Ib[i] * T[i + 1 + 4 * j];
  mma(SPv(ws, k, 1), -8.0, QLd + 4, M3, 4, 3, 4);
  m_qRv(T, e);
  madd(SPv(ws, k, 1), -8.0, T, 16);
}

/* Kinematic rows of vertex n (seg = 0) or segment n (seg = 1): q' = v
 * (ABSOLUTE), cj q - v (DAE), ẋ = ν and ṗ = ½ p Ω (NULLSPACE). */
static void emit_kinematic_rows(jsink *s, const cosrod_rod *rod, const cosrod_rod_data *d, int kind,
                                double cj, int seg, int n) {
  const int nq = rod->nq;
  if (kind == KIND_NS) {
    if (!seg) {
      for (int j = 0; j < rod->nd[n]; ++j) emit1(s, rod->qv[n] + j, nq + rod->vv_ns[n] + j, 1.0);
      return;
    }
    double T[16], C[12]; /* ṗ = ½ p Ω */
    m_qRv(T, d->Omega + 3 * n);
    for (int i = 0; i < 16; ++i) T[i] *= 0.5;
    emit(s, rod->qs[n], rod->qs[n], 4, 4, T);
    m_qL(T, d->p + 4 * n);
    for (int i = 0; i < 12; ++i) C[i] = 0.5 * T[4 + i];
    emit(s, rod->qs[n], nq + rod->vs_ns[n], 4, 3, C);
    return;
  }
  if (kind != KIND_ABS && kind != KIND_DAE) return;
  const int i0 = seg ? rod->qs[n] : rod->qv[n], len = seg ? 4 : rod->nd[n];
  const double sg = kind == KIND_DAE ? -1.0 : 1.0;
  for (int i = i0; i < i0 + len; ++i) emit1(s, i, nq + i, sg);
  if (kind == KIND_DAE)
    for (int i = i0; i < i0 + len; ++i) emit1(s, i, i, cj);
}

/* Rows of segment k (momentum rows with their left transform and local
 * terms; DAE constraint row; mass-form multiplier row). */
static void emit_segment(jsink *s, const cosrod_rod *rod, cosrod_rod_data *d, int kind, int damped,
                         const double *y, const double *yp, double cj, int lam_rows, int k) {
  const int nq = rod->nq;
  const double *p = d->p + 4 * k, *pd = d->pd + 4 * k, *Ib = rod->Ib + 3 * k;
  const double *psi = d->fp + 4 * k;
  const int iq = rod->qs[k];
  double L[16], X[16], T[16];
  if (kind == KIND_ABS) {
    fold_inertia(rod, d, k);
    cosrod_quat_mass_sharp(L, p, Ib);
    emit_segment_row(s, rod, d, kind, damped, k, nq + iq, L, 4);
    /* local: ∂(μ♯(p)F)/∂p at fixed F, F = F_p */
    double Fp[4], tq[4];
    {
      double e[3], r[4];
      cosrod_quat_conj_mul(tq, p, pd);
      e[0] = Ib[0] * tq[1], e[1] = Ib[1] * tq[2], e[2] = Ib[2] * tq[3];
      cosrod_quat_mul_pure(r, pd, e);
      for (int i = 0; i < 4; ++i) Fp[i] = psi[i] - 8.0 * r[i];
    }
    const double n2 = cosrod_quat_norm2(p);
    rod_jac_dmusharp(X, p, Ib, Fp);
    /* p r / n2 */
    const double om = d->baumgarte_omega, br = d->baumgarte_r;
    double r = -cosrod_quat_norm2(pd), pdp = cosrod_quat_dot(p, pd);
    r -= 2.0 * br * pdp + 0.5 * om * om * (n2 - 1.0);
    double Xv[16];
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        double drp = -2.0 * br * pd[j] - om * om * p[j], drv = -2.0 * pd[j] - 2.0 * br * p[j];
        X[i + 4 * j] += (i == j ? r / n2 : 0.0) + p[i] * drp / n2 - 2.0 * r * p[i] * p[j] / (n2 * n2);
        Xv[i + 4 * j] = p[i] * drv / n2;
      }
    emit(s, nq + iq, iq, 4, 4, X);
    emit(s, nq + iq, nq + iq, 4, 4, Xv);
    if (lam_rows) { /* λ_post = <p, F_p>/|p|² - λ: row 2 nq + k */
      double Lr[4], g[4], lam = cosrod_quat_dot(p, Fp) / n2;
      for (int i = 0; i < 4; ++i) Lr[i] = p[i] / n2, g[i] = (Fp[i] - 2.0 * lam * p[i]) / n2;
      emit_segment_row(s, rod, d, kind, damped, k, 2 * nq + k, Lr, 1);
      emit(s, 2 * nq + k, iq, 1, 4, g);
      emit1(s, 2 * nq + k, 2 * nq + k, -1.0);
    }
  } else if (kind == KIND_NS) {
    /* Ω̇ = Ī⁻¹ (½ Im(p̄ψ) - Ω × ĪΩ) */
    double pc[4];
    cosrod_quat_conj(pc, p);
    m_qL(T, pc);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) L[i + 3 * j] = 0.5 * T[i + 1 + 4 * j] / Ib[i];
    int gi = nq + rod->vs_ns[k];
    emit_segment_row(s, rod, d, kind, damped, k, gi, L, 3);
    m_qR(T, psi);
    m_conjc(T, 4);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) X[i + 3 * j] = 0.5 * T[i + 1 + 4 * j] / Ib[i];
    emit(s, gi, iq, 3, 4, X);
    const double *Om = d->Omega + 3 * k;
    double IO[3] = {Ib[0] * Om[0], Ib[1] * Om[1], Ib[2] * Om[2]};
    /* ∂(Ω × ĪΩ)/∂Ω = [Ω]× Ī - [ĪΩ]× */
    double Sx[9] = {0, Om[2], -Om[1], -Om[2], 0, Om[0], Om[1], -Om[0], 0};
    double Sy[9] = {0, IO[2], -IO[1], -IO[2], 0, IO[0], IO[1], -IO[0], 0};
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) X[i + 3 * j] = -(Sx[i + 3 * j] * Ib[j] - Sy[i + 3 * j]) / Ib[i];
    emit(s, gi, gi, 3, 3, X);
  } else if (kind == KIND_DAE) {
    fold_inertia(rod, d, k);
    for (int i = 0; i < 16; ++i) L[i] = (i % 5 == 0) ? -1.0 : 0.0;
    emit_segment_row(s, rod, d, kind, damped, k, nq + iq, L, 4);
    const double *pdd = yp + nq + iq, lam = y[2 * nq + k];
    /* ∂(μ(p) p̈)/∂p = 4 Qr(Ī Im(p̄p̈)) + 4 Q(p)_{:,im} Ī Im rows(Qr(p̈) C) */
    double tq[4], e[3], M3[12], QL[16];
    cosrod_quat_conj_mul(tq, p, pdd);
    e[0] = Ib[0] * tq[1], e[1] = Ib[1] * tq[2], e[2] = Ib[2] * tq[3];
    m_qRv(X, e);
    for (int i = 0; i < 16; ++i) X[i] *= 4.0;
    m_qR(T, pdd);
    m_conjc(T, 4);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) M3[i + 3 * j] = Ib[i] * T[i + 1 + 4 * j];
    m_qL(QL, p);
    mma(X, 4.0, QL + 4, M3, 4, 3, 4);
    for (int i = 0; i < 4; ++i) X[5 * i] += lam;
    emit(s, nq + iq, iq, 4, 4, X);
    cosrod_quat_mass(X, p, Ib);
    for (int i = 0; i < 16; ++i) X[i] *= cj;
    emit(s, nq + iq, nq + iq, 4, 4, X);
    emit(s, nq + iq, 2 * nq + k, 4, 1, p);
    /* constraint row <p, p̈> + |ṗ|² */
    double c1[4], c2[4];
    for (int i = 0; i < 4; ++i) c1[i] = pdd[i], c2[i] = 2.0 * pd[i] + cj * p[i];
    emit(s, 2 * nq + k, iq, 1, 4, c1);
    emit(s, 2 * nq + k, nq + iq, 1, 4, c2);
  } else { /* stiffness: -∂ψ/∂p + λ I */
    for (int i = 0; i < 16; ++i) L[i] = (i % 5 == 0) ? -1.0 : 0.0;
    emit_segment_row(s, rod, d, kind, 0, k, iq, L, 4);
    double lam = cosrod_quat_dot(p, psi) / cosrod_quat_norm2(p);
    for (int i = 0; i < 4; ++i) emit1(s, iq + i, iq + i, lam);
  }
}

/* One pass along the rod over the nodes [n0, n1) (vertex n, then segment n),
 * so that a destination in the node ordering is written while it is in
 * cache.  Every row belongs to one node and gets all its terms from it. */
static int assemble(jsink *s, const cosrod_rod *rod, cosrod_rod_data *d, int kind, const double *y,
                    const double *yp, double cj, int lam_rows, int n0, int n1) {
  const int N = rod->N, nq = rod->nq;
  const int damped = rod->has_damping && kind != KIND_STIFF;
  for (int n = n0; n < n1; ++n) {
    /* interrupt poll every 2048 nodes (one volatile read; status.h) */
    if ((n & 2047) == 2047 && !s->measure && cosrod_interrupt_pending()) return 1;
    emit_kinematic_rows(s, rod, d, kind, cj, 0, n);
    emit_vertex_rows(s, rod, d, kind, damped, n);
    if (kind == KIND_DAE)
      for (int j = 0; j < rod->nd[n]; ++j)
        emit1(s, nq + rod->qv[n] + j, nq + rod->qv[n] + j, cj * rod->mv[n]);
    if (n == N) break;
    emit_kinematic_rows(s, rod, d, kind, cj, 1, n);
    emit_segment(s, rod, d, kind, damped, y, yp, cj, lam_rows, n);
  }
  return 0;
}

/* ---- parallel assembly (rods of >= the threshold of segments) ----------------
 * The nodes are cut into nb contiguous blocks, one sink each.  The rows of a
 * node are written by its block only, each entry with the same terms in the
 * same order as the serial pass, so the result is bit-identical; the lazy
 * zeroing (which would clear columns other blocks write) is replaced by
 * zeroing the destinations first, by column ranges. */
enum { PAR_MAX_BLOCKS = 64 };

typedef struct {
  const jsink *proto;
  const cosrod_rod *rod;
  cosrod_rod_data *d;
  const double *y, *yp;
  double cj;
  int kind, lam_rows, nb;
  int stop[PAR_MAX_BLOCKS], overflow[PAR_MAX_BLOCKS];
} pasm_ctx;

static void pasm_zero(void *vc, int b0, int b1) {
  const pasm_ctx *c = vc;
  for (int t = 0; t < c->proto->nb; ++t) {
    const cosrod_rod_jac_block *T = &c->proto->b[t];
    const long long nc = T->nc;
    zero_cols(T, (int)(nc * b0 / c->nb), (int)(nc * b1 / c->nb));
  }
}

static void pasm_nodes(void *vc, int b0, int b1) {
  pasm_ctx *c = vc;
  const long long nn = c->rod->N + 1;
  for (int b = b0; b < b1; ++b) {
    jsink s = *c->proto;
    for (int t = 0; t < s.nb; ++t) s.zc[t] = s.b[t].nc;
    c->stop[b] = assemble(&s, c->rod, c->d, c->kind, c->y, c->yp, c->cj, c->lam_rows, (int)(nn * b / c->nb),
                          (int)(nn * (b + 1) / c->nb));
    c->overflow[b] = s.overflow;
  }
}

/* The assembly on nt threads; 1 if interrupted. */
static int assemble_par(jsink *s, const cosrod_rod *rod, cosrod_rod_data *d, int kind, const double *y,
                        const double *yp, double cj, int lam_rows, int nt) {
  pasm_ctx c = {s, rod, d, y, yp, cj, kind, lam_rows, nt < PAR_MAX_BLOCKS ? nt : PAR_MAX_BLOCKS, {0}, {0}};
  cosrod_par_for(nt, c.nb, pasm_zero, &c);
  cosrod_par_for(nt, c.nb, pasm_nodes, &c);
  int stop = 0;
  for (int b = 0; b < c.nb; ++b) stop |= c.stop[b], s->overflow |= c.overflow[b];
  for (int t = 0; t < s->nb; ++t) s->zc[t] = s->b[t].nc;
  return stop;
}

/* ---- public API ------------------------------------------------------------- */

cosrod_status rod_jac_run(const cosrod_rod *rod, cosrod_rod_data *d, int kind, double t, const double *y,
                         const double *yp, double cj, int nblk, const cosrod_rod_jac_block *blk, int measure,
                         int *ml, int *mu, const int *perm) {
  if (!rod || !d || !y || nblk < 0 || nblk > 4 || (nblk > 0 && !blk)) return COSROD_ERR_INVALID;
  if (!d->jacw) return COSROD_ERR_NOMEM;
  if (kind == KIND_DAE && !yp) return COSROD_ERR_INVALID;
  /* Kirchhoff rods: the constrained Jacobians are dense, not provided (rod.h);
   * the static stiffness is the elastic part only (constraints by the caller) */
  if (kind == KIND_KDAEM) {
    if (rod->model == COSROD_MODEL_COSSERAT) return COSROD_ERR_INVALID;
    kind = KIND_DAEM;
  } else if (rod->model != COSROD_MODEL_COSSERAT && !measure && kind != KIND_STIFF) {
    return COSROD_ERR_UNSUPPORTED;
  }
  const int nq = rod->nq;
  int nyr, nyc;
  switch (kind) {
    case KIND_ABS:
      nyr = nyc = 2 * nq;
      break;
    case KIND_NS:
      nyr = nyc = nq + rod->nv_ns;
      break;
    case KIND_DAE:
    case KIND_DAEM:
      nyr = nyc = cosrod_rod_ny(rod, COSROD_FORM_DAE); /* Kirchhoff: + λ_K */
      break;
    default:
      nyr = nyc = nq;
      break;
  }
  for (int b = 0; b < nblk; ++b) {
    const cosrod_rod_jac_block *B = &blk[b];
    if (B->nr < 1 || B->nc < 1 || B->r0 < 0 || B->c0 < 0 || B->r0 + B->nr > nyr || B->c0 + B->nc > nyc ||
        B->ml < 0 || B->mu < 0)
      return COSROD_ERR_DIMENSION;
    if (!measure && (!B->J || B->ldj < B->ml + B->mu + 1)) return COSROD_ERR_DIMENSION;
  }
  /* evaluate the forces at the state (for STIFF: q with zero rates) */
  const double *ye = y;
  cosrod_rod_form form = kind == KIND_NS    ? COSROD_FORM_NULLSPACE
                         : kind == KIND_DAE ? COSROD_FORM_DAE
                                            : COSROD_FORM_ABSOLUTE;
  if (kind == KIND_STIFF) {
    double *yy = d->jacw + (size_t)(rod->N + 1) * VTX_STRIDE + (size_t)rod->N * SEG_STRIDE;
    memcpy(yy, y, sizeof(double) * (size_t)nq);
    memset(yy + nq, 0, sizeof(double) * (size_t)nq);
    ye = yy;
  }
  int cb;
  cosrod_status st = rod_eval_forces(rod, d, form, t, ye, &cb);
  if (st != COSROD_OK) return st;
  const int damped = rod->has_damping && kind != KIND_STIFF;
  rod_jac_force_derivs(rod, d, t, damped);
  jsink s = {nblk, blk, 0, measure, 0, 0, perm, {0, 0, 0, 0}};
  const int akind = kind == KIND_DAEM ? KIND_ABS : kind, lam_rows = kind == KIND_DAEM;
  const int nt = measure ? 1 : rod_par_threads(rod, d);
  /* interrupted: the blocks are left partly written */
  if (nt > 1 ? assemble_par(&s, rod, d, akind, y, yp, cj, lam_rows, nt)
             : assemble(&s, rod, d, akind, y, yp, cj, lam_rows, 0, rod->N + 1))
    return COSROD_ERR_INTERRUPTED;
  if (!measure) /* columns never written */
    for (int b = 0; b < nblk; ++b)
      if (s.zc[b] < blk[b].nc) zero_cols(&blk[b], s.zc[b], blk[b].nc);
  if (measure) {
    *ml = s.mlx;
    *mu = s.mux;
    return COSROD_OK;
  }
  return s.overflow ? COSROD_ERR_DIMENSION : COSROD_OK;
}
