// SPDX-License-Identifier: Apache-2.0
/* Equilibrium residual and tangent stiffness of the statics solver in
 * minimal coordinates (see statics.c for the chart): the residual r and its
 * scaled norm, the analytic stiffness (the rod's static stiffness pulled back
 * to the chart) and its finite-difference twin. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/statics.h"
#include "statics/statics_internal.h"

/* Residual of one rod at (t, μ) into r (its nv rows); scaled norm.
 *
 * Convergence measure *excess (<= 1: converged): the residual relative to
 * tol times its scale plus its roundoff floor,
 *   max( max|r_F| / (tol S_F + n_F), max|r_M| / (tol S_M + n_M) ).
 * The floors bound the rounding errors of the terms the residual sums: a
 * strain Γ = Rᵀ(x_{k+1} - x_k)/Δs - Γ0 carries errors ~eps |x|/Δs (positions
 * are stored to eps |x|), so a stress resultant carries eps C_Γ |x|/Δs_min,
 * and a curvature from a quaternion product eps/Δs_min, a couple eps C_K/Δs_min;
 * a vertex force differences two resultants, a segment torque two couples and
 * Δs (Γ + e3) × F:
 *   n_F = 4 eps (C_Γ,max (|x|_max/Δs_min + 1) + |F|_max),
 *   n_M = 4 eps (C_K,max / Δs_min + |M|_max) + Δs_max n_F.
 * A long stiff rod at a large load reaches this floor above tol S (the
 * roll-up at N = 80: n_F / S_F ~ 3e-9 > tol = 1e-9), where plain
 * r <= tol S would never be met and every increment would fail.
 * part_eval: the rod's rows without constraint forces and their scales
 * (pt->pr); part_finish adds a Kirchhoff rod's and measures. */
static cosrod_status part_eval(cosrod_statics *s, statics_part *pt, double t, double mu, const double *q,
                               double *r) {
  const cosrod_rod *rod = pt->rod;
  const cosrod_rod_view *rv = &pt->rv;
  cosrod_rod_data *d = pt->d;
  const int N = rv->N;
  memcpy(pt->y, q, sizeof(double) * (size_t)pt->nq);
  memset(pt->y + pt->nq, 0, sizeof(double) * (size_t)pt->nv);
  cosrod_status st = cosrod_rod_eval(pt->quiet, d, COSROD_FORM_NULLSPACE, t, pt->y);
  if (st != COSROD_OK) return st;
  const int loads = cosrod_rod_has_loads(rod), react = cosrod_rod_load_fn_reaction(rod);
  const double lf = 1.0 - mu; /* share of the external loads to remove */
  /* gravity on the pseudo-time path (options.gravity_ramp): g(t) = clamp(t, 0, 1) g */
  const double gs = s->opt.gravity_ramp ? fmin(fmax(t, 0.0), 1.0) : 1.0;
  double SF = pt->floorF, SM = pt->floorM, rf = 0.0, rm = 0.0;
  double Fmax = 0.0, Mmax = 0.0, xmax = 0.0, dsmax = 0.0;
  for (int k = 0; k < N; ++k) {
    double Fn = cosrod_vec3_norm(d->F + 3 * k);
    Fmax = fmax(Fmax, Fn);
    dsmax = fmax(dsmax, rv->ds[k]);
    SF = fmax(SF, Fn);
    SM = fmax(SM, rv->ds[k] * Fn);
    if (loads) SM = fmax(SM, mu * cosrod_vec3_norm(d->mload + 3 * k));
  }
  for (int n = 0; n <= N; ++n) {
    /* d->fx holds the full external forces (gravity, loads, reactions); the
     * residual applies μ (gs m g + f_load) + f_reaction of them */
    double fg[3], fl[3] = {0.0, 0.0, 0.0}, fr[3] = {0.0, 0.0, 0.0}, fa[3];
    cosrod_vec3_scale(fg, rv->mv[n], rv->gravity);
    if (loads) cosrod_vec3_copy(fl, d->fload + 3 * n);
    if (react) cosrod_vec3_copy(fr, d->fcb + 3 * n), cosrod_vec3_sub(fl, fl, fr);
    for (int j = 0; j < 3; ++j) fa[j] = mu * (gs * fg[j] + fl[j]) + fr[j];
    SF = fmax(SF, cosrod_vec3_norm(fa));
    double Mn = cosrod_vec3_norm(d->M + 3 * n);
    Mmax = fmax(Mmax, Mn);
    SM = fmax(SM, Mn);
    xmax = fmax(xmax, cosrod_vec3_norm(d->x + 3 * n));
    int nd = rv->nd[n];
    if (!nd) continue;
    double f[3];
    if (mu == 1.0 && gs == 1.0)
      cosrod_vec3_copy(f, d->fx + 3 * n);
    else
      for (int j = 0; j < 3; ++j) f[j] = d->fx[3 * n + j] - (fg[j] + fl[j] + fr[j]) + fa[j];
    double *rn = r + pt->ov[n];
    if (nd == 3) {
      cosrod_vec3_copy(rn, f);
    } else {
      rn[0] = cosrod_vec3_dot(f, rv->end[n == 0 ? 0 : 1].axis);
    }
    for (int j = 0; j < nd; ++j) rf = fmax(rf, fabs(rn[j]));
  }
  for (int k = 0; k < N; ++k) {
    double *rs = r + pt->os[k];
    cosrod_quat_tmat_T_apply(rs, d->p + 4 * k, d->fp + 4 * k);
    if (loads && lf != 0.0) cosrod_vec3_axpy(rs, -lf, d->mload + 3 * k);
    for (int j = 0; j < 3; ++j) rm = fmax(rm, fabs(rs[j]));
  }
  statics_pres *o = &pt->pr;
  o->SF = SF, o->SM = SM, o->rf = rf, o->rm = rm, o->Fmax = Fmax, o->Mmax = Mmax, o->xmax = xmax, o->dsmax = dsmax;
  return COSROD_OK;
}

/* After part_eval (and the blocks' rows, which a Kirchhoff rod's
 * multipliers may use): the constraint forces and rows of a Kirchhoff rod,
 * the scaled norm and the convergence measure. */
static cosrod_status part_finish(cosrod_statics *s, statics_part *pt, double *r, double *scaled, double *excess) {
  const cosrod_rod_view *rv = &pt->rv;
  statics_pres *o = &pt->pr;
  double SF = o->SF, SM = o->SM, rf = o->rf, rm = o->rm, Fmax = o->Fmax;
  const double Mmax = o->Mmax, xmax = o->xmax, dsmax = o->dsmax;
  cosrod_status st;
  double gsc = 0.0, gex = 0.0; /* Kirchhoff: constraint forces and rows (statics_kirchhoff.c) */
  if (pt->kkt && (st = statics_kirchhoff_residual(pt, s->opt.tol, r, &SF, &SM, &Fmax, &rf, &rm, &gsc, &gex)) !=
                     COSROD_OK)
    return st;
  double sc = fmax(fmax(rf / SF, rm / SM), gsc);
  if (!isfinite(sc)) return COSROD_ERR_NONFINITE;
  const double cg = fmax(rv->CG[0], fmax(rv->CG[1], rv->CG[2]));
  const double ck = fmax(rv->CK[0], fmax(rv->CK[1], rv->CK[2]));
  const double nF = 4.0 * DBL_EPSILON * (cg * (xmax / pt->dsmin + 1.0) + Fmax);
  const double nM = 4.0 * DBL_EPSILON * (ck / pt->dsmin + Mmax) + dsmax * nF;
  *scaled = sc;
  *excess = fmax(fmax(rf / (s->opt.tol * SF + nF), rm / (s->opt.tol * SM + nM)), gex);
  return COSROD_OK;
}

/* Residual of the system at (t, μ) in minimal coordinates (rods
 * concatenated); scaled norm (maximum over the rods) in *scaled, the
 * convergence measure (<= 1: converged, see part_residual) in s->excess. */
cosrod_status statics_residual(cosrod_statics *s, double t, double mu, const double *q, double *r,
                               double *scaled) {
  double sc = 0.0, ex = 0.0;
  s->nres++;
  cosrod_status bst = statics_blocks_pose(s, t, q); /* rigid blocks carry rod ends (statics_blocks.c) */
  if (bst != COSROD_OK) return bst;
  if (s->cpl_pre) s->cpl_pre(s->cpl_user, s, t, q); /* every rod's loads see all rods at q */
  for (int i = 0; i < s->nparts; ++i) {
    statics_part *pt = &s->part[i];
    cosrod_status st = part_eval(s, pt, t, mu, q + pt->q0, r + pt->v0);
    if (st != COSROD_OK) return st;
  }
  /* the blocks' rows before the Kirchhoff multipliers, which take a block's force row (statics_blocks.c) */
  if ((bst = statics_blocks_eval(s, t, mu, q)) != COSROD_OK) return bst;
  for (int i = 0; i < s->nparts && s->kkt; ++i)
    if (s->part[i].kkt && (bst = statics_kirchhoff_prepare(&s->part[i], r + s->part[i].v0)) != COSROD_OK) return bst;
  if ((bst = statics_kirchhoff_couple(s)) != COSROD_OK) return bst;
  for (int i = 0; i < s->nparts; ++i) {
    statics_part *pt = &s->part[i];
    double si = 0.0, ei = 0.0;
    cosrod_status st = part_finish(s, pt, r + pt->v0, &si, &ei);
    if (st != COSROD_OK) return st;
    sc = fmax(sc, si);
    ex = fmax(ex, ei);
  }
  if ((bst = statics_blocks_residual(s, q, r, &sc, &ex)) != COSROD_OK) return bst;
  if (scaled) *scaled = sc;
  s->excess = ex;
  return COSROD_OK;
}

/* Finite-difference twin of the static stiffness: J = dr/dδ (note the sign:
 * K = -J), central differences, columns more than ml + mu apart perturbed
 * together. */
static cosrod_status stiffness_fd(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J) {
  const int n = s->nv;
  const double *h = s->hcol;
  double *delta = s->dv;
  int ng = J->ml + J->mu + 1;
  if (ng > n) ng = n;
  cosrod_band_zero(J);
  for (int g = 0; g < ng; ++g) {
    for (int sign = 0; sign < 2; ++sign) {
      memset(delta, 0, sizeof(double) * (size_t)n);
      for (int j = g; j < n; j += ng) delta[j] = sign == 0 ? h[j] : -h[j];
      memcpy(s->qt, q, sizeof(double) * (size_t)s->nq);
      cosrod_statics_apply(s, s->qt, delta);
      cosrod_status st = statics_residual(s, t, mu, s->qt, sign == 0 ? s->rpl : s->rmi, NULL);
      if (st != COSROD_OK) return st;
    }
    for (int j = g; j < n; j += ng) {
      int ilo = j - J->mu < 0 ? 0 : j - J->mu, ihi = j + J->ml > n - 1 ? n - 1 : j + J->ml;
      double *col = cosrod_band_col(J, j);
      double ih = 0.5 / h[j];
      for (int i = ilo; i <= ihi; ++i) col[i - j] = (s->rpl[i] - s->rmi[i]) * ih;
    }
  }
  return COSROD_OK;
}

/* T(p) = ½ Q(p) [0; I3] (4 x 3, row-major): ṗ = T(p) Ω, the tangent map of
 * the chart p exp(δθ/2) at δθ = 0. */
static void tangent_map(double T[12], const double p[4]) {
  for (int c = 0; c < 3; ++c) {
    double e[3] = {0.0, 0.0, 0.0}, col[4];
    e[c] = 0.5;
    cosrod_quat_mul_pure(col, p, e);
    for (int r = 0; r < 4; ++r) T[3 * r + c] = col[r];
  }
}

/* Analytic twin: the rod's static stiffness K_q (nq x nq, Hessian of the
 * Lagrangian V - W + λᵀg, cosrod_rod_stiffness) pulled back to the chart,
 *   -∂r/∂δ = Tᵀ K_q T + C,   C = ½ [τ]ₓᵀ = -½ [τ]ₓ on each segment block,
 * with T = diag(I (vertices), T(p_k) (segments)).  Derivation: the segment
 * rows are r_k = T(p_k)ᵀ ψ_k, and differentiating T(p e^{δ/2})ᵀ ψ gives
 * -¼ (<p, ψ> δ + δ × Im(p̄ψ)) = -¼ λ δ - ½ δ × τ; Tᵀ(λ I)T = ¼ λ I cancels the
 * first part (the multiplier term of K_q), the second (zero at an
 * equilibrium) is C.  Blocks of the interleaved ordering couple only within
 * two block positions (segment–segment through a vertex curvature). */
static cosrod_status part_stiffness(statics_part *pt, double t, const double *q, cosrod_band *J) {
  const cosrod_rod_view *rv = &pt->rv;
  const int N = rv->N, v0 = pt->v0;
  memcpy(pt->y, q, sizeof(double) * (size_t)pt->nq);
  memset(pt->y + pt->nq, 0, sizeof(double) * (size_t)pt->nv);
  cosrod_status st = cosrod_rod_stiffness(pt->quiet, pt->d, t, pt->y, pt->Kq);
  if (st != COSROD_OK) return st;
  /* block table: 2N+1 positions, vertex n at 2n, segment k at 2k+1 */
  const int nb = 2 * N + 1;
  for (int b = 0; b < nb; ++b) {
    int vtx = (b % 2) == 0, idx = b / 2;
    pt->bq[b] = vtx ? (rv->nd[idx] ? rv->qv[idx] : -1) : rv->qs[idx];
    pt->bv[b] = vtx ? (rv->nd[idx] ? pt->ov[idx] : -1) : pt->os[idx];
    pt->bnq[b] = vtx ? rv->nd[idx] : 4;
    pt->bnv[b] = vtx ? rv->nd[idx] : 3;
    if (!vtx) tangent_map(pt->T + 12 * idx, q + rv->qs[idx]);
  }
  for (int bi = 0; bi < nb; ++bi) {
    if (pt->bq[bi] < 0) continue;
    for (int bj = bi - 2; bj <= bi + 2; ++bj) {
      if (bj < 0 || bj >= nb || pt->bq[bj] < 0) continue;
      double Kb[16], Tb[16];
      int ni = pt->bnq[bi], nj = pt->bnq[bj];
      for (int a = 0; a < ni; ++a)
        for (int c = 0; c < nj; ++c) {
          int i = pt->bq[bi] + a, j = pt->bq[bj] + c;
          Kb[4 * a + c] = cosrod_band_in_band(pt->Kq, i, j) ? cosrod_band_get(pt->Kq, i, j) : 0.0;
        }
      /* Tb = Kb T_j  (ni x mj) */
      int mi = pt->bnv[bi], mj = pt->bnv[bj];
      const double *Tj = (bj % 2) ? pt->T + 12 * (bj / 2) : NULL;
      const double *Ti = (bi % 2) ? pt->T + 12 * (bi / 2) : NULL;
      for (int a = 0; a < ni; ++a)
        for (int c = 0; c < mj; ++c) {
          double v = 0.0;
          if (Tj)
            for (int m = 0; m < 4; ++m) v += Kb[4 * a + m] * Tj[3 * m + c];
          else
            v = Kb[4 * a + c];
          Tb[4 * a + c] = v;
        }
      for (int a = 0; a < mi; ++a)
        for (int c = 0; c < mj; ++c) {
          double v = 0.0;
          if (Ti)
            for (int m = 0; m < 4; ++m) v += Ti[3 * m + a] * Tb[4 * m + c];
          else
            v = Tb[4 * a + c];
          /* J = dr/dδ = -K */
          cosrod_band_set(J, v0 + pt->bv[bi] + a, v0 + pt->bv[bj] + c, -v);
        }
    }
  }
  /* C = -½ [τ]ₓ (torque τ = ½ Im(p̄ψ) of the current state, d evaluated at q) */
  for (int k = 0; k < N; ++k) {
    double tau[3];
    cosrod_quat_tmat_T_apply(tau, pt->d->p + 4 * k, pt->d->fp + 4 * k);
    int o = v0 + pt->os[k];
    /* -½[τ]ₓ = ½ [[0, τ3, -τ2], [-τ3, 0, τ1], [τ2, -τ1, 0]]; J gets -C */
    cosrod_band_add(J, o + 0, o + 1, -0.5 * tau[2]);
    cosrod_band_add(J, o + 0, o + 2, 0.5 * tau[1]);
    cosrod_band_add(J, o + 1, o + 0, 0.5 * tau[2]);
    cosrod_band_add(J, o + 1, o + 2, -0.5 * tau[0]);
    cosrod_band_add(J, o + 2, o + 0, -0.5 * tau[1]);
    cosrod_band_add(J, o + 2, o + 1, 0.5 * tau[0]);
  }
  return COSROD_OK;
}

static cosrod_status stiffness_analytic(cosrod_statics *s, double t, const double *q, cosrod_band *J) {
  cosrod_band_zero(J);
  if (s->cpl_pre) s->cpl_pre(s->cpl_user, s, t, q);
  for (int r = 0; r < s->nparts; ++r) {
    cosrod_status st = part_stiffness(&s->part[r], t, q + s->part[r].q0, J);
    if (st != COSROD_OK) return st;
  }
  if (s->cpl_jac) s->cpl_jac(s->cpl_user, s, J); /* out-of-band blocks (statics_coupling.c) */
  return COSROD_OK;
}

/* The one place that chooses how dr/dδ is computed: the analytic stiffness
 * of the rod module by default; finite differences if asked for, and for a
 * partial load factor (μ != 1, the homotopy of equilibrium_at) unless all
 * loads are dead (gravity, spatial forces: no stiffness contribution), since
 * the rod's stiffness has the load derivatives at full scale only. */
cosrod_status statics_jacobian(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J) {
  s->njac++;
  if (s->kkt) return statics_kirchhoff_jacobian(s, t, mu, q, J);
  if (s->nblk > 0) return stiffness_fd(s, t, mu, q, J); /* rigid blocks: the twin of the coupled system */
  if (s->opt.jacobian == COSROD_STATICS_JAC_ANALYTIC && (mu == 1.0 || s->dead_loads))
    return stiffness_analytic(s, t, q, J);
  return stiffness_fd(s, t, mu, q, J);
}

cosrod_status statics_stiffness_analytic(cosrod_statics *s, double t, const double *q, cosrod_band *J) {
  return stiffness_analytic(s, t, q, J);
}
cosrod_status statics_stiffness_fd(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J) {
  return stiffness_fd(s, t, mu, q, J);
}

/* The matrix the Newton and predictor solves factor: dr/dδ with a relative
 * shift -1e-12 |J_ii| on the diagonal (K + 1e-12 |diag K|).  It leaves regular
 * problems unchanged in practice (Newton contraction ~1e-12 cond) and makes
 * rigid null modes solvable (a rod hanging from a pin spins freely about the
 * vertical: K is singular, the residual orthogonal to its kernel); the
 * shifted null eigenvalue stays positive for the stability monitor. */
cosrod_status statics_solve_jacobian(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J) {
  cosrod_status st = statics_jacobian(s, t, mu, q, J);
  if (st != COSROD_OK) return st;
  for (int i = 0; i < J->n; ++i) {
    double *d = cosrod_band_col(J, i);
    d[0] -= 1e-12 * fabs(d[0]);
  }
  statics_blocks_shift(s, J); /* free block rotations (a body on a pin) */
  return COSROD_OK;
}

cosrod_status cosrod_statics_residual(cosrod_statics *s, double t, const double *q, double *r,
                                      double *scaled) {
  if (!s || !q) return COSROD_ERR_INVALID;
  return statics_residual(s, t, 1.0, q, r ? r : s->r, scaled);
}

cosrod_status cosrod_statics_stiffness(cosrod_statics *s, double t, const double *q, cosrod_band *K) {
  if (!s || !q || !K) return COSROD_ERR_INVALID;
  if (K->n != s->nv || K->ml < 8 || K->mu < 8) return COSROD_ERR_DIMENSION;
  cosrod_status st = statics_jacobian(s, t, 1.0, q, K);
  if (st != COSROD_OK) return st;
  cosrod_band_scale_add_identity(K, -1.0, 0.0);
  return COSROD_OK;
}
