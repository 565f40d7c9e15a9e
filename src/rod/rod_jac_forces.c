// SPDX-License-Identifier: Apache-2.0
/* Rod Jacobian, stage 1: hand derivatives of the generalised forces fx_n
 * (vertices) and ψ_k (segments) of rod_eval_forces w.r.t. x, ẋ, p, ṗ, shared
 * by all formulations (see the design comment in rod_jac.c; [LLA] eqs. 23,
 * 26, Remark 3.1). */
#include "core/par.h"
#include "rod/rod_jac_internal.h"

/* ---- stage 1: force derivatives -------------------------------------------- */

/* Segment k: adds ∂fx_k, ∂fx_{k+1}, ∂ψ_k w.r.t. x_k, x_{k+1}, p_k (and rates). */
static void seg_deriv(const cosrod_rod *rod, const cosrod_rod_data *d, int k, double *wv, double *ws,
                      int damped) {
  const double *p = d->p + 4 * k, *pd = d->pd + 4 * k, *F = d->F + 3 * k;
  const double ids = 1.0 / rod->ds[k];
  double u[3], a[3];
  cosrod_vec3_sub(u, d->x + 3 * (k + 1), d->x + 3 * k);
  cosrod_vec3_scale(a, ids, u);
  const double *C = rod->CG, *V = rod->VG;
  double R[9], RT[9], JG[12];
  m_R2(R, p, p);
  memcpy(RT, R, sizeof R);
  m_T(RT, 3);
  cosrod_quat_dRTv_dp(JG, p, a);
  /* dF/du (3x3), dF/dp (3x4); rates */
  double Fu[9], Fp[12], Fud[9], Fpd[12];
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) Fu[i + 3 * j] = C[i] * RT[i + 3 * j] * ids;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) Fp[i + 3 * j] = C[i] * JG[i + 3 * j];
  if (damped) {
    double Rd[9], ad[3], J1[12], J2[12];
    m_R2(Rd, p, pd); /* Ṙ/2 */
    cosrod_vec3_sub(ad, d->xd + 3 * (k + 1), d->xd + 3 * k);
    cosrod_vec3_scale(ad, ids, ad);
    cosrod_quat_dRTv_dp(J1, pd, a);
    cosrod_quat_dRTv_dp(J2, p, ad);
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        Fu[i + 3 * j] += V[i] * 2.0 * Rd[j + 3 * i] * ids;
        Fud[i + 3 * j] = V[i] * RT[i + 3 * j] * ids;
      }
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) {
        Fp[i + 3 * j] += V[i] * (J1[i + 3 * j] + J2[i + 3 * j]);
        Fpd[i + 3 * j] = V[i] * JG[i + 3 * j];
      }
  }
  /* fs = R F */
  double Au[9], Ap[12];
  mm(Au, R, Fu, 3, 3, 3);
  mm(Ap, R, Fp, 3, 3, 4);
  {
    double JF[12];
    cosrod_quat_dRv_dp(JF, p, F);
    madd(Ap, 1.0, JF, 12);
  }
  /* fq = 2 u p F */
  double up[4], pF[4], E[12], Bu[12], Bp[16], QL[16], QR[16];
  {
    double uq[4] = {0.0, u[0], u[1], u[2]};
    cosrod_quat_mul(up, uq, p);
    cosrod_quat_mul_pure(pF, p, F);
    m_qL(QL, up);
    for (int i = 0; i < 12; ++i) E[i] = 2.0 * QL[4 + i];
    m_qR(QR, pF);
    for (int i = 0; i < 12; ++i) Bu[i] = 2.0 * QR[4 + i];
    mma(Bu, 1.0, E, Fu, 4, 3, 3);
    double Qu[16], QF[16];
    m_qL(Qu, uq);
    m_qRv(QF, F);
    mm(Bp, Qu, QF, 4, 4, 4);
    for (int i = 0; i < 16; ++i) Bp[i] *= 2.0;
    mma(Bp, 1.0, E, Fp, 4, 3, 4);
  }
  madd(VXq(wv, k, 1), -1.0, Au, 9);
  madd(VXq(wv, k, 2), 1.0, Au, 9);
  madd(VXq(wv, k + 1, 0), 1.0, Au, 9);
  madd(VXq(wv, k + 1, 1), -1.0, Au, 9);
  madd(VPq(wv, k, 1), 1.0, Ap, 12);
  madd(VPq(wv, k + 1, 0), -1.0, Ap, 12);
  madd(SXq(ws, k, 0), -1.0, Bu, 12);
  madd(SXq(ws, k, 1), 1.0, Bu, 12);
  madd(SPq(ws, k, 1), 1.0, Bp, 16);
  if (damped) {
    double Aud[9], Apd[12], Bud[12], Bpd[16];
    mm(Aud, R, Fud, 3, 3, 3);
    mm(Apd, R, Fpd, 3, 3, 4);
    mm(Bud, E, Fud, 4, 3, 3);
    mm(Bpd, E, Fpd, 4, 3, 4);
    madd(VXv(wv, k, 1), -1.0, Aud, 9);
    madd(VXv(wv, k, 2), 1.0, Aud, 9);
    madd(VXv(wv, k + 1, 0), 1.0, Aud, 9);
    madd(VXv(wv, k + 1, 1), -1.0, Aud, 9);
    madd(VPv(wv, k, 1), 1.0, Apd, 12);
    madd(VPv(wv, k + 1, 0), -1.0, Apd, 12);
    madd(SXv(ws, k, 0), -1.0, Bud, 12);
    madd(SXv(ws, k, 1), 1.0, Bud, 12);
    madd(SPv(ws, k, 1), 1.0, Bpd, 16);
  }
}

/* Vertex kernel derivatives: blocks ∂fp/∂p₊ (Gpp), ∂fp/∂p₋ (Gpm), ∂fm/∂p₊
 * (Gmp), ∂fm/∂p₋ (Gmm), and the rate blocks (suffix d, only if damped).
 * M is the couple of this vertex (d->M, damping included); vtx_blocks: rod_jac_internal.h. */
static void vtx_deriv(cosrod_curvature cv, const double pm[4], const double pp[4], const double pmd[4],
                      const double ppd[4], double alpha, double w, const double M[3], const double CK[3],
                      const double VK[3], int damped, vtx_blocks *b) {
  double W[4], Wd[4] = {0.0, 0.0, 0.0, 0.0};
  cosrod_quat_conj_mul(W, pm, pp);
  if (damped) {
    double t[4];
    cosrod_quat_conj_mul(Wd, pmd, pp);
    cosrod_quat_conj_mul(t, pm, ppd);
    rq_axpy(Wd, 1.0, t);
  }
  double z, z1, z2;
  zeta2(cv, W[0], &z, &z1, &z2);
  /* dK/dW (3x4) */
  double KW[12] = {0}, MW[12], MWd[12];
  for (int i = 0; i < 3; ++i) {
    KW[i] = alpha * z1 * W[i + 1];
    KW[i + 3 * (i + 1)] = alpha * z;
  }
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) MW[i + 3 * j] = CK[i] * KW[i + 3 * j];
  if (damped) {
    for (int i = 0; i < 3; ++i) {
      MW[i] += VK[i] * alpha * (z2 * Wd[0] * W[i + 1] + z1 * Wd[i + 1]);
      MW[i + 3 * (i + 1)] += VK[i] * alpha * z1 * Wd[0];
    }
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) MWd[i + 3 * j] = VK[i] * KW[i + 3 * j];
  }
  /* Q = wα (ζ'<M, Im W> | ζ M): dQ/dW = ∂Q/∂W|_M + ∂Q/∂M dM/dW */
  const double wa = w * alpha;
  double QM[12], QW[16] = {0}, QWd[16];
  for (int i = 0; i < 3; ++i) {
    QM[4 * i] = wa * z1 * W[i + 1];
    QM[1 + 4 * i] = QM[2 + 4 * i] = QM[3 + 4 * i] = 0.0;
    QM[i + 1 + 4 * i] = wa * z;
  }
  QW[0] = wa * z2 * (M[0] * W[1] + M[1] * W[2] + M[2] * W[3]);
  for (int i = 0; i < 3; ++i) {
    QW[4 * (i + 1)] = wa * z1 * M[i];
    QW[i + 1] = wa * z1 * M[i];
  }
  mma(QW, 1.0, QM, MW, 4, 3, 4);
  if (damped) mm(QWd, QM, MWd, 4, 3, 4);
  double Qv[4] = {wa * z1 * (M[0] * W[1] + M[1] * W[2] + M[2] * W[3]), wa * z * M[0], wa * z * M[1],
                  wa * z * M[2]};
  /* ∂W/∂p₊ = Q(p̄₋), ∂W/∂p₋ = Qr(p₊) C; rates: Q(conj ṗ₋), Qr(ṗ₊) C */
  double Lm[16], Rp[16], Ap[16], Am[16], Bp[16], Bm[16];
  {
    double pmc[4];
    cosrod_quat_conj(pmc, pm);
    m_qL(Lm, pmc);
    m_qR(Rp, pp);
    m_conjc(Rp, 4);
  }
  mm(Ap, QW, Lm, 4, 4, 4);
  mm(Am, QW, Rp, 4, 4, 4);
  if (damped) {
    double L2[16], R2[16], pmdc[4];
    cosrod_quat_conj(pmdc, pmd);
    m_qL(L2, pmdc);
    m_qR(R2, ppd);
    m_conjc(R2, 4);
    mma(Ap, 1.0, QWd, L2, 4, 4, 4);
    mma(Am, 1.0, QWd, R2, 4, 4, 4);
    mm(Bp, QWd, Lm, 4, 4, 4);
    mm(Bm, QWd, Rp, 4, 4, 4);
  }
  /* fp = -p₋ Q, fm = -p₊ Q̄ */
  double Qpm[16], Qppc[16], T[16];
  m_qL(Qpm, pm);
  m_qL(Qppc, pp);
  m_conjc(Qppc, 4);
  mm(b->pp, Qpm, Ap, 4, 4, 4);
  mm(b->pm, Qpm, Am, 4, 4, 4);
  m_qR(T, Qv);
  madd(b->pm, 1.0, T, 16);
  mm(b->mm, Qppc, Am, 4, 4, 4);
  mm(b->mp, Qppc, Ap, 4, 4, 4);
  {
    double Qc[4] = {Qv[0], -Qv[1], -Qv[2], -Qv[3]};
    m_qR(T, Qc);
    madd(b->mp, 1.0, T, 16);
  }
  for (int i = 0; i < 16; ++i)
    b->pp[i] = -b->pp[i], b->pm[i] = -b->pm[i], b->mm[i] = -b->mm[i], b->mp[i] = -b->mp[i];
  if (damped) {
    mm(b->ppd, Qpm, Bp, 4, 4, 4);
    mm(b->pmd, Qpm, Bm, 4, 4, 4);
    mm(b->mpd, Qppc, Bp, 4, 4, 4);
    mm(b->mmd, Qppc, Bm, 4, 4, 4);
    for (int i = 0; i < 16; ++i)
      b->ppd[i] = -b->ppd[i], b->pmd[i] = -b->pmd[i], b->mpd[i] = -b->mpd[i], b->mmd[i] = -b->mmd[i];
  }
}

void rod_jac_end_vtx_blocks(const cosrod_rod *rod, const cosrod_rod_data *d, int e, int damped, vtx_blocks *b) {
  const int N = rod->N, k = e == 0 ? 0 : N - 1, n = e == 0 ? 0 : N;
  double g[4], gd[4];
  const double *p = d->p + 4 * k, *pd = d->pd + 4 * k;
  rod_ghost(g, gd, d->pe[e], d->ped[e], p, pd);
  memset(b, 0, sizeof *b);
  if (e == 0)
    vtx_deriv(rod->curv, g, p, gd, pd, 2.0 / rod->ds[k], rod->w[n], d->M + 3 * n, rod->CK, rod->VK, damped, b);
  else
    vtx_deriv(rod->curv, p, g, pd, gd, 2.0 / rod->ds[k], rod->w[n], d->M + 3 * n, rod->CK, rod->VK, damped, b);
}

/* Clamped end e: the kernel couples the ghost g(p) = pe p̄ pe with p = p_k.
 * own = blocks of the force on p (fp at e = 0, fm at e = 1), gh = blocks of
 * the force on the ghost, pulled back with Gm = ∂g/∂p. */
static void ghost_deriv(const cosrod_rod_data *d, int e, const vtx_blocks *b, int damped, double Dp[16],
                        double Dpd[16]) {
  const double *pe = d->pe[e], *ped = d->ped[e];
  double A[16], B[16], Gm[16], Gd[16];
  m_qL(A, pe);
  m_qR(B, pe);
  mm(Gm, A, B, 4, 4, 4);
  m_conjc(Gm, 4);
  if (damped) {
    double A2[16], B2[16];
    m_qL(A2, ped);
    m_qR(B2, ped);
    mm(Gd, A2, B, 4, 4, 4);
    mma(Gd, 1.0, A, B2, 4, 4, 4);
    m_conjc(Gd, 4);
  }
  /* e = 0: pm = g, pp = p: own force fp, ghost force fm.
   * e = 1: pm = p, pp = g: own force fm, ghost force fp. */
  const double *own_p = e == 0 ? b->pp : b->mm, *own_g = e == 0 ? b->pm : b->mp;
  const double *gh_p = e == 0 ? b->mp : b->pm, *gh_g = e == 0 ? b->mm : b->pp;
  const double *own_pd = e == 0 ? b->ppd : b->mmd, *own_gd = e == 0 ? b->pmd : b->mpd;
  const double *gh_pd = e == 0 ? b->mpd : b->pmd, *gh_gd = e == 0 ? b->mmd : b->ppd;
  double T[16];
  /* d/dp = own_p + own_g Gm + own_gd Gd + Gm (gh_p + gh_g Gm + gh_gd Gd) */
  memcpy(T, gh_p, sizeof T);
  mma(T, 1.0, gh_g, Gm, 4, 4, 4);
  if (damped) mma(T, 1.0, gh_gd, Gd, 4, 4, 4);
  madd(Dp, 1.0, own_p, 16);
  mma(Dp, 1.0, own_g, Gm, 4, 4, 4);
  if (damped) mma(Dp, 1.0, own_gd, Gd, 4, 4, 4);
  mma(Dp, 1.0, Gm, T, 4, 4, 4);
  if (damped) {
    memcpy(T, gh_pd, sizeof T);
    mma(T, 1.0, gh_gd, Gm, 4, 4, 4);
    madd(Dpd, 1.0, own_pd, 16);
    mma(Dpd, 1.0, own_gd, Gm, 4, 4, 4);
    mma(Dpd, 1.0, Gm, T, 4, 4, 4);
  }
}

static double profile_factor(const cosrod_rod_load *l, double t) {
  return cosrod_profile_value(l->profile, l->t0, l->t1, t);
}

/* The kernel blocks of interior vertex n (1 <= n < N). */
static void vtx_at(const cosrod_rod *rod, const cosrod_rod_data *d, int n, int damped, vtx_blocks *b) {
  vtx_deriv(rod->curv, d->p + 4 * (n - 1), d->p + 4 * n, d->pd + 4 * (n - 1), d->pd + 4 * n, 2.0 / rod->w[n],
            rod->w[n], d->M + 3 * n, rod->CK, rod->VK, damped, b);
}

/* ---- the segment and vertex loops over segment blocks (N >= the threshold) --
 * Block b of nb holds the segments [N b / nb, N (b + 1) / nb).  Every entry
 * gets the same terms in the same order as in the serial loops, so the result
 * is bit-identical for every thread count:
 * - seg_deriv(k) also adds to vertices k and k + 1, so the first segment of
 *   every block but the first is done serially afterwards; the vertex blocks
 *   it shares (VXq(k0, 1), VXq(k0 + 1, 1) and rates) then sum the same two
 *   terms onto zero, in the serial order at k0 and swapped at k0 + 1, which
 *   is exact (IEEE addition is commutative);
 * - the vertex kernels are gathered per segment k: pp, pm of vertex k, then
 *   mm, mp of vertex k + 1 (the serial loop's order), so a block computes the
 *   kernel of its last vertex k1 once more for its neighbour. */
typedef struct {
  const cosrod_rod *rod;
  const cosrod_rod_data *d;
  double *wv, *ws;
  int nb, damped;
} fd_ctx;

static int fd_start(int N, int nb, int b) { return (int)((long long)N * b / nb); }

static void fd_zero(void *vc, int b0, int b1) {
  const fd_ctx *c = vc;
  const size_t len = (size_t)(c->rod->N + 1) * VTX_STRIDE + (size_t)c->rod->N * SEG_STRIDE;
  const size_t i0 = len * (size_t)b0 / (size_t)c->nb, i1 = len * (size_t)b1 / (size_t)c->nb;
  memset(c->wv + i0, 0, sizeof(double) * (i1 - i0));
}

static void fd_segments(void *vc, int b0, int b1) {
  const fd_ctx *c = vc;
  const int N = c->rod->N;
  for (int b = b0; b < b1; ++b)
    for (int k = fd_start(N, c->nb, b) + (b > 0); k < fd_start(N, c->nb, b + 1); ++k)
      seg_deriv(c->rod, c->d, k, c->wv, c->ws, c->damped);
}

static void fd_add_vtx(double *ws, int k, int o0, const double *A, const double *B, int damped,
                       const double *Ad, const double *Bd) {
  madd(SPq(ws, k, o0), 1.0, A, 16);
  madd(SPq(ws, k, 1), 1.0, B, 16);
  if (damped) {
    madd(SPv(ws, k, o0), 1.0, Ad, 16);
    madd(SPv(ws, k, 1), 1.0, Bd, 16);
  }
}

static void fd_vertices(void *vc, int b0, int b1) {
  const fd_ctx *c = vc;
  const int N = c->rod->N;
  vtx_blocks bl[2];
  for (int b = b0; b < b1; ++b) {
    const int k0 = fd_start(N, c->nb, b), k1 = fd_start(N, c->nb, b + 1);
    if (k0 >= 1 && k0 < N) vtx_at(c->rod, c->d, k0, c->damped, &bl[k0 & 1]);
    for (int k = k0; k < k1; ++k) {
      const vtx_blocks *v = &bl[k & 1], *w = &bl[(k + 1) & 1];
      if (k >= 1) fd_add_vtx(c->ws, k, 0, v->pm, v->pp, c->damped, v->pmd, v->ppd);
      if (k + 1 < N) {
        vtx_at(c->rod, c->d, k + 1, c->damped, &bl[(k + 1) & 1]);
        fd_add_vtx(c->ws, k, 2, w->mp, w->mm, c->damped, w->mpd, w->mmd);
      }
    }
  }
}

/* Stage 1 (d evaluated at the state). */
void rod_jac_force_derivs(const cosrod_rod *rod, cosrod_rod_data *d, double t, int damped) {
  const int N = rod->N, nt = rod_par_threads(rod, d);
  double *wv = d->jacw, *ws = d->jacw + (size_t)(N + 1) * VTX_STRIDE;
  vtx_blocks b;
  if (nt > 1) {
    fd_ctx c = {rod, d, wv, ws, nt, damped};
    cosrod_par_for(nt, nt, fd_zero, &c);
    cosrod_par_for(nt, nt, fd_segments, &c);
    for (int i = 1; i < nt; ++i) /* the first segments of the blocks */
      if (fd_start(N, nt, i) < fd_start(N, nt, i + 1)) seg_deriv(rod, d, fd_start(N, nt, i), wv, ws, damped);
    cosrod_par_for(nt, nt, fd_vertices, &c);
  } else {
    memset(wv, 0, sizeof(double) * ((size_t)(N + 1) * VTX_STRIDE + (size_t)N * SEG_STRIDE));
    for (int k = 0; k < N; ++k) seg_deriv(rod, d, k, wv, ws, damped);
    for (int n = 1; n < N; ++n) {
      vtx_at(rod, d, n, damped, &b);
      madd(SPq(ws, n - 1, 1), 1.0, b.mm, 16);
      madd(SPq(ws, n - 1, 2), 1.0, b.mp, 16);
      madd(SPq(ws, n, 0), 1.0, b.pm, 16);
      madd(SPq(ws, n, 1), 1.0, b.pp, 16);
      if (damped) {
        madd(SPv(ws, n - 1, 1), 1.0, b.mmd, 16);
        madd(SPv(ws, n - 1, 2), 1.0, b.mpd, 16);
        madd(SPv(ws, n, 0), 1.0, b.pmd, 16);
        madd(SPv(ws, n, 1), 1.0, b.ppd, 16);
      }
    }
  }
  for (int e = 0; e < 2; ++e) {
    if (!rod->end[e].fixrot) continue;
    int k = e == 0 ? 0 : N - 1, n = e == 0 ? 0 : N;
    double g[4], gd[4];
    rod_ghost(g, gd, d->pe[e], d->ped[e], d->p + 4 * k, d->pd + 4 * k);
    const double *p = d->p + 4 * k, *pd = d->pd + 4 * k;
    if (e == 0)
      vtx_deriv(rod->curv, g, p, gd, pd, 2.0 / rod->ds[k], rod->w[n], d->M + 3 * n, rod->CK, rod->VK, damped,
                &b);
    else
      vtx_deriv(rod->curv, p, g, pd, gd, 2.0 / rod->ds[k], rod->w[n], d->M + 3 * n, rod->CK, rod->VK, damped,
                &b);
    ghost_deriv(d, e, &b, damped, SPq(ws, k, 1), SPv(ws, k, 1));
  }
  /* loads */
  for (int i = 0; i < rod->nloads; ++i) {
    const cosrod_rod_load *l = &rod->loads[i];
    if (l->frame != COSROD_FRAME_MATERIAL && l->kind != COSROD_LOAD_MOMENT) continue; /* dead force */
    double s = profile_factor(l, t);
    if (s == 0.0) continue;
    double val[3], J[12];
    cosrod_vec3_scale(val, s, l->value);
    int n = l->vertex;
    switch (l->kind) {
      case COSROD_LOAD_FORCE: {
        int k = n == 0 ? 0 : n - 1;
        cosrod_quat_dRv_dp(J, d->p + 4 * k, val);
        madd(VPq(wv, n, k == n ? 1 : 0), 1.0, J, 12);
        break;
      }
      case COSROD_LOAD_MOMENT: {
        if (l->frame == COSROD_FRAME_MATERIAL) break; /* via mload below */
        int ka = n == 0 ? 0 : n - 1, kb = n == N ? N - 1 : n;
        double sc = ka == kb ? 1.0 : 0.5;
        int kk[2] = {ka, kb};
        for (int j = 0; j < (ka == kb ? 1 : 2); ++j) {
          const double *p = d->p + 4 * kk[j];
          double QL[16];
          cosrod_quat_dRTv_dp(J, p, val);
          m_qL(QL, p);
          mma(SPq(ws, kk[j], 1), 2.0 * sc, QL + 4, J, 4, 3, 4);
        }
        break;
      }
      default:
        for (int k = 0; k < N; ++k) {
          cosrod_quat_dRv_dp(J, d->p + 4 * k, val);
          double h = 0.5 * rod->ds[k];
          madd(VPq(wv, k, 1), h, J, 12);
          madd(VPq(wv, k + 1, 0), h, J, 12);
        }
        break;
    }
  }
  if (damped && (rod->cmed_t > 0.0 || rod->cmed_r > 0.0)) rod_medium_jac(rod, d, wv, ws);
  if (rod->nloads > 0 || rod->load_fn) {
    for (int k = 0; k < N; ++k) { /* ψ += 2 p M̂: ∂/∂p at fixed M̂ */
      double T[16];
      m_qRv(T, d->mload + 3 * k);
      madd(SPq(ws, k, 1), 2.0, T, 16);
    }
  }
  /* the load callback's own derivatives (rod_hooks.h: VXq blocks, VXv at + 27) */
  if (rod->load_fn && rod->load_jac_fn) rod->load_jac_fn(rod->load_jac_user, t, N, wv, VTX_STRIDE);
}

