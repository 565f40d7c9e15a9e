// SPDX-License-Identifier: Apache-2.0
/* Sensitivities of a rod to the prescribed pose of one end, and of that
 * end's support reaction (cosrod_rod_jac_end, rod.h): the rod side of the
 * analytic Jacobian of rods attached to rigid bodies (sim_couple_jac.c).
 *
 * The end pose E = (x_e, ẋ_e, p_e, ṗe) enters the right-hand side through
 *  - the vertex force of the neighbour vertex n1 and the segment force ψ_k of
 *    the end segment k (shear of segment k: ∂fx/∂x_e, ∂ψ/∂x_e and the rate
 *    blocks, read from the force derivatives of rod_jac_forces.c);
 *  - a clamped end's ghost frame g = pe p̄ pe ([LLA] Remark 3.1): the vertex
 *    kernel at the end couples g with p_k; with its blocks (∂(fp, fm)/∂(p₋,
 *    p₊, ṗ₋, ṗ₊)) the tangents of g, ġ, of the pulled-back force on p_k,
 *    ψ += pe f̄g pe, and of the force on pe, fe = fg p̄e p + p p̄e fg, follow by
 *    the product rule (quaternion products are bilinear).
 * The reaction (cosrod_statics_end_reactions without inertia) is F = -fx_e
 * and, clamped, M = -R(pe) ½ Im(p̄e fe); its derivatives w.r.t. the rod
 * entries near the end and w.r.t. E follow from the same blocks.  Rows are
 * left-multiplied as in rod_jac.c (ABSOLUTE 1/m and μ♯(p) [L] eq. 39;
 * NULLSPACE 1/m and Ī⁻¹Tᵀ(p)), rate columns of NULLSPACE segments go through
 * ṗ = ½ p Ω. */
#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "rod/rod_jac_internal.h"
#include "rod/rod_hooks.h"

/* a b c */
static void qmul3(double r[4], const double a[4], const double b[4], const double c[4]) {
  double t[4];
  cosrod_quat_mul(t, a, b);
  cosrod_quat_mul(r, t, c);
}
static void qacc3(double r[4], const double a[4], const double b[4], const double c[4]) {
  double t[4];
  qmul3(t, a, b, c);
  for (int i = 0; i < 4; ++i) r[i] += t[i];
}
static void mv4(double r[4], const double A[16], const double x[4]) {
  for (int i = 0; i < 4; ++i) r[i] += A[i] * x[0] + A[i + 4] * x[1] + A[i + 8] * x[2] + A[i + 12] * x[3];
}

typedef struct ghost_pt {
  const double *p, *pd, *pe, *ped; /* p_k, ṗ_k, pe, ṗe */
  double fg[4];                    /* force on the ghost */
  int e, damped;
  vtx_blocks b;
} ghost_pt;

/* Tangents of ψ_k's ghost part and of fe for the direction (dp, dpd, dpe, dped). */
static void ghost_tan(const ghost_pt *G, const double dp[4], const double dpd[4], const double dpe[4],
                      const double dped[4], double dpsi[4], double dfe[4]) {
  const double *p = G->p, *pd = G->pd, *pe = G->pe, *ped = G->ped, *fg = G->fg;
  double pc[4], pdc[4], dpc[4], dpdc[4], pec[4], dpec[4], fgc[4];
  cosrod_quat_conj(pc, p), cosrod_quat_conj(pdc, pd), cosrod_quat_conj(dpc, dp), cosrod_quat_conj(dpdc, dpd);
  cosrod_quat_conj(pec, pe), cosrod_quat_conj(dpec, dpe), cosrod_quat_conj(fgc, fg);
  /* g = pe p̄ pe, ġ = ṗe p̄ pe + pe ṗ̄ pe + pe p̄ ṗe (rod_ghost) */
  double dg[4] = {0, 0, 0, 0}, dgd[4] = {0, 0, 0, 0};
  qacc3(dg, dpe, pc, pe), qacc3(dg, pe, dpc, pe), qacc3(dg, pe, pc, dpe);
  if (G->damped) {
    qacc3(dgd, dped, pc, pe), qacc3(dgd, ped, dpc, pe), qacc3(dgd, ped, pc, dpe);
    qacc3(dgd, dpe, pdc, pe), qacc3(dgd, pe, dpdc, pe), qacc3(dgd, pe, pdc, dpe);
    qacc3(dgd, dpe, pc, ped), qacc3(dgd, pe, dpc, ped), qacc3(dgd, pe, pc, dped);
  }
  /* (p₋, p₊) = (g, p) at e = 0, (p, g) at e = 1 */
  const double *dm = G->e ? dp : dg, *dpp = G->e ? dg : dp, *dmd = G->e ? dpd : dgd, *dppd = G->e ? dgd : dpd;
  const vtx_blocks *b = &G->b;
  double dfm[4] = {0, 0, 0, 0}, dfp[4] = {0, 0, 0, 0};
  mv4(dfm, b->mm, dm), mv4(dfm, b->mp, dpp);
  mv4(dfp, b->pm, dm), mv4(dfp, b->pp, dpp);
  if (G->damped) {
    mv4(dfm, b->mmd, dmd), mv4(dfm, b->mpd, dppd);
    mv4(dfp, b->pmd, dmd), mv4(dfp, b->ppd, dppd);
  }
  const double *dfg = G->e ? dfp : dfm, *dfown = G->e ? dfm : dfp;
  double dfgc[4];
  cosrod_quat_conj(dfgc, dfg);
  /* ψ_k += f_own + pe f̄g pe */
  for (int i = 0; i < 4; ++i) dpsi[i] = dfown[i];
  qacc3(dpsi, dpe, fgc, pe), qacc3(dpsi, pe, dfgc, pe), qacc3(dpsi, pe, fgc, dpe);
  /* fe = fg p̄e p + p p̄e fg */
  for (int i = 0; i < 4; ++i) dfe[i] = 0.0;
  qacc3(dfe, dfg, pec, p), qacc3(dfe, fg, dpec, p), qacc3(dfe, fg, pec, dp);
  qacc3(dfe, dp, pec, fg), qacc3(dfe, p, dpec, fg), qacc3(dfe, p, pec, dfg);
}

/* Row transform of the segment rows: ABSOLUTE μ♯(p) (4 x 4), NULLSPACE ½ Ī⁻¹ Im Q(p̄) (3 x 4). */
static int seg_left(const cosrod_rod *rod, const cosrod_rod_data *d, int ns, int k, double L[16]) {
  const double *p = d->p + 4 * k, *Ib = rod->Ib + 3 * k;
  if (!ns) {
    cosrod_quat_mass_sharp(L, p, Ib);
    return 4;
  }
  double pc[4], T[16];
  cosrod_quat_conj(pc, p);
  m_qL(T, pc);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) L[i + 3 * j] = 0.5 * T[i + 1 + 4 * j] / Ib[i];
  return 3;
}

/* Ghost tangents of a clamped end e: columns (p_k, ṗ_k, pe, ṗe) of ψ_k's
 * ghost part (Dpsi) and of fe (Dfe), 4 x 16 each. */
static void ghost_tangents(const cosrod_rod *rod, cosrod_rod_data *d, int e, int damped, double Dpsi[64],
                           double Dfe[64]) {
  const int N = rod->N, ne = e ? N : 0, k = e ? N - 1 : 0;
  ghost_pt G;
  memset(&G, 0, sizeof G);
  G.p = d->p + 4 * k, G.pd = d->pd + 4 * k, G.pe = d->pe[e], G.ped = d->ped[e], G.e = e, G.damped = damped;
  double g[4], gd[4], K[3], Kd[3], M[3], fm[4] = {0, 0, 0, 0}, fp[4] = {0, 0, 0, 0}, V = 0.0, Dr = 0.0;
  rod_ghost(g, gd, G.pe, G.ped, G.p, G.pd);
  if (e == 0)
    rod_vtx_kernel(rod->curv, g, G.p, gd, G.pd, 2.0 / rod->ds[k], rod->w[ne], rod->K0 + 3 * ne, rod->CK,
                   rod->VK, damped, K, Kd, M, fm, fp, &V, &Dr);
  else
    rod_vtx_kernel(rod->curv, G.p, g, G.pd, gd, 2.0 / rod->ds[k], rod->w[ne], rod->K0 + 3 * ne, rod->CK,
                   rod->VK, damped, K, Kd, M, fm, fp, &V, &Dr);
  memcpy(G.fg, e ? fp : fm, sizeof G.fg);
  rod_jac_end_vtx_blocks(rod, d, e, damped, &G.b);
  static const double Z[4] = {0, 0, 0, 0};
  for (int c = 0; c < 16; ++c) {
    double u[4] = {0, 0, 0, 0};
    u[c % 4] = 1.0;
    const int w = c / 4;
    ghost_tan(&G, w == 0 ? u : Z, w == 1 ? u : Z, w == 2 ? u : Z, w == 3 ? u : Z, Dpsi + 4 * c, Dfe + 4 * c);
  }
}

/* Rows of J->G: vertex n1 (1/m, if it has unknowns: has1) and segment k (L). */
static void end_rows(const cosrod_rod *rod, const cosrod_rod_data *d, int ns, int e, int has1,
                     const double Dpsi[64], cosrod_rod_end_jac *J) {
  const int N = rod->N, nq = rod->nq, ne = e ? N : 0, n1 = e ? N - 1 : 1, k = e ? N - 1 : 0;
  double *wv = d->jacw, *ws = d->jacw + (size_t)(N + 1) * VTX_STRIDE;
  if (has1) {
    const int o = ne - n1 + 1, r0 = nq + (ns ? rod->vv_ns[n1] : rod->qv[n1]);
    const double s = 1.0 / rod->mv[n1];
    for (int i = 0; i < 3; ++i) {
      J->row[J->nr] = r0 + i;
      for (int j = 0; j < 3; ++j) {
        J->G[J->nr + 8 * j] = s * VXq(wv, n1, o)[i + 3 * j];
        J->G[J->nr + 8 * (3 + j)] = s * VXv(wv, n1, o)[i + 3 * j];
      }
      J->nr++;
    }
  }
  {
    double L[16];
    const int lr = seg_left(rod, d, ns, k, L), o = ne - k, r0 = nq + (ns ? rod->vs_ns[k] : rod->qs[k]);
    double B[16];
    mm(B, L, SXq(ws, k, o), lr, 4, 3);
    for (int i = 0; i < lr; ++i)
      for (int j = 0; j < 3; ++j) J->G[J->nr + i + 8 * j] = B[i + lr * j];
    mm(B, L, SXv(ws, k, o), lr, 4, 3);
    for (int i = 0; i < lr; ++i)
      for (int j = 0; j < 3; ++j) J->G[J->nr + i + 8 * (3 + j)] = B[i + lr * j];
    mm(B, L, Dpsi + 32, lr, 4, 4); /* pe */
    for (int i = 0; i < lr; ++i)
      for (int j = 0; j < 4; ++j) J->G[J->nr + i + 8 * (6 + j)] = B[i + lr * j];
    mm(B, L, Dpsi + 48, lr, 4, 4); /* ṗe */
    for (int i = 0; i < lr; ++i)
      for (int j = 0; j < 4; ++j) J->G[J->nr + i + 8 * (10 + j)] = B[i + lr * j];
    for (int i = 0; i < lr; ++i) J->row[J->nr + i] = r0 + i;
    J->nr += lr;
  }
}

/* ∂M/∂(p_k, ṗ_k, pe, ṗe) (3 x 16) of the reaction moment M = -R(pe) u,
 * u = ½ Im(p̄e fe), of a clamped end e from the tangents Dfe of fe. */
static void reaction_moment(const cosrod_rod_data *d, int e, const double Dfe[64], double Mp[48]) {
  const double *pe = d->pe[e], *fe = d->fe[e];
  double u[3], A[12], pec[4], T[16], Ife[12];
  cosrod_quat_tmat_T_apply(u, pe, fe);
  cosrod_quat_conj(pec, pe);
  m_qL(T, pec); /* ∂u/∂fe = ½ Im rows Q(p̄e) */
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) Ife[i + 3 * j] = 0.5 * T[i + 1 + 4 * j];
  for (int c = 0; c < 16; ++c) {
    double du[3] = {0, 0, 0}, r[3];
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) du[i] += Ife[i + 3 * j] * Dfe[j + 4 * c];
    if (c >= 8 && c < 12) { /* ∂u/∂pe at fixed fe = ½ Im(e_j̄ fe) */
      double ej[4] = {0, 0, 0, 0}, t[4];
      ej[c - 8] = 1.0;
      cosrod_quat_conj_mul(t, ej, fe);
      for (int i = 0; i < 3; ++i) du[i] += 0.5 * t[i + 1];
    }
    cosrod_quat_rotate(r, pe, du);
    for (int i = 0; i < 3; ++i) Mp[i + 3 * c] = -r[i];
  }
  cosrod_quat_dRv_dp(A, pe, u);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) Mp[i + 3 * (8 + j)] -= A[i + 3 * j];
}

/* Columns of J->Hy: x_{n1}, its rate (if has1), p_k, its rate (NULLSPACE:
 * through ṗ = ½ p Ω); Mp from reaction_moment. */
static void end_cols(const cosrod_rod *rod, const cosrod_rod_data *d, int ns, int e, int has1, const double Mp[48],
                     cosrod_rod_end_jac *J) {
  const int N = rod->N, nq = rod->nq, ne = e ? N : 0, n1 = e ? N - 1 : 1, k = e ? N - 1 : 0;
  double *wv = d->jacw;
  if (has1) {
    const int o = n1 - ne + 1, cx = rod->qv[n1], cv = nq + (ns ? rod->vv_ns[n1] : rod->qv[n1]);
    for (int j = 0; j < 3; ++j) {
      J->col[J->nc] = cx + j;
      J->col[J->nc + 3] = cv + j;
      for (int i = 0; i < 3; ++i) {
        J->Hy[i + 6 * J->nc] = -VXq(wv, ne, o)[i + 3 * j];
        J->Hy[i + 6 * (J->nc + 3)] = -VXv(wv, ne, o)[i + 3 * j];
      }
      J->nc++;
    }
    J->nc += 3;
  }
  {
    const int o = k - ne + 1;
    double Fp[12], Fv[12], Mq[12], Mv[12];
    for (int i = 0; i < 12; ++i) Fp[i] = -VPq(wv, ne, o)[i], Fv[i] = -VPv(wv, ne, o)[i];
    memcpy(Mq, Mp, sizeof Mq);
    memcpy(Mv, Mp + 12, sizeof Mv);
    const int cq = J->nc;
    for (int j = 0; j < 4; ++j) {
      J->col[cq + j] = rod->qs[k] + j;
      for (int i = 0; i < 3; ++i)
        J->Hy[i + 6 * (cq + j)] = Fp[i + 3 * j], J->Hy[3 + i + 6 * (cq + j)] = Mq[i + 3 * j];
    }
    J->nc += 4;
    const int cv = J->nc;
    if (!ns) {
      for (int j = 0; j < 4; ++j) {
        J->col[cv + j] = nq + rod->qs[k] + j;
        for (int i = 0; i < 3; ++i)
          J->Hy[i + 6 * (cv + j)] = Fv[i + 3 * j], J->Hy[3 + i + 6 * (cv + j)] = Mv[i + 3 * j];
      }
      J->nc += 4;
    } else { /* ∂/∂p += ∂/∂ṗ ½ Qr(Ω); ∂/∂Ω = ∂/∂ṗ ½ Q(p)[:, 1:3] */
      double Rq[16], QL[16];
      m_qRv(Rq, d->Omega + 3 * k);
      m_qL(QL, d->p + 4 * k);
      for (int j = 0; j < 4; ++j)
        for (int l = 0; l < 4; ++l)
          for (int i = 0; i < 3; ++i) {
            J->Hy[i + 6 * (cq + j)] += 0.5 * Fv[i + 3 * l] * Rq[l + 4 * j];
            J->Hy[3 + i + 6 * (cq + j)] += 0.5 * Mv[i + 3 * l] * Rq[l + 4 * j];
          }
      for (int j = 0; j < 3; ++j) {
        J->col[cv + j] = nq + rod->vs_ns[k] + j;
        for (int l = 0; l < 4; ++l)
          for (int i = 0; i < 3; ++i) {
            J->Hy[i + 6 * (cv + j)] += 0.5 * Fv[i + 3 * l] * QL[l + 4 * (1 + j)];
            J->Hy[3 + i + 6 * (cv + j)] += 0.5 * Mv[i + 3 * l] * QL[l + 4 * (1 + j)];
          }
      }
      J->nc += 3;
    }
  }
}

cosrod_status cosrod_rod_jac_end(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, int e,
                                 cosrod_rod_end_jac *J) {
  if (!rod || !d || !J || (e != 0 && e != 1) || !d->jacw) return COSROD_ERR_INVALID;
  if (form == COSROD_FORM_DAE || rod->model != COSROD_MODEL_COSSERAT) return COSROD_ERR_UNSUPPORTED;
  const int N = rod->N, ns = form == COSROD_FORM_NULLSPACE;
  const int ne = e ? N : 0, n1 = e ? N - 1 : 1;
  if (!rod->end[e].fixpos || (rod->nd[n1] != 0 && rod->nd[n1] != 3)) return COSROD_ERR_UNSUPPORTED;
  const int damped = rod->has_damping;
  double *wv = d->jacw;
  memset(J, 0, sizeof *J);
  const int has1 = rod->nd[n1] == 3;
  /* ghost tangents: columns (p_k, ṗ_k, pe, ṗe) of ψ_k's ghost part and of fe */
  double Dpsi[4 * 16] = {0}, Dfe[4 * 16] = {0};
  if (rod->end[e].fixrot) ghost_tangents(rod, d, e, damped, Dpsi, Dfe);
  end_rows(rod, d, ns, e, has1, Dpsi, J);
  /* reaction: F = -fx_e; M = -R(pe) u, u = ½ Im(p̄e fe) */
  double Mp[3 * 16] = {0}; /* ∂M/∂(p_k, ṗ_k, pe, ṗe) */
  if (rod->end[e].fixrot) reaction_moment(d, e, Dfe, Mp);
  end_cols(rod, d, ns, e, has1, Mp, J);
  /* ∂(F, M)/∂E */
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      J->He[i + 6 * j] = -VXq(wv, ne, 1)[i + 3 * j];
      J->He[i + 6 * (3 + j)] = -VXv(wv, ne, 1)[i + 3 * j];
    }
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 3; ++i) J->He[3 + i + 6 * (6 + j)] = Mp[i + 3 * (8 + j)];
  return COSROD_OK;
}
