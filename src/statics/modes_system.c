// SPDX-License-Identifier: Apache-2.0
/* Modal analysis of a coupled system of rods and rigid blocks (statics.h,
 * cosrod_statics_modes_system): as modes.c for one rod, K φ = ω² M φ in the
 * system's minimal coordinates, with K = -∂r/∂δ of the whole system (the
 * coupled band, statics_jacobian), symmetrised, and M diagonal: the rods'
 * lumped masses (ρAδs_n per vertex coordinate, ρΔs (I1, I2, J) per segment)
 * and the blocks' (m, m, m, J1, J2, J3) (δθ material, so Ω = δθ̇ at rest
 * and the rotational kinetic energy is ½ δθ̇ᵀ J δθ̇ with the principal J).
 * A = M^{-1/2} K M^{-1/2} is banded (the coupled bandwidth); its lowest
 * eigenpairs by shift-and-invert subspace iteration (modes_eig.c).
 *
 * Multipliers (blk.nmult, joints between blocks): the modes of
 * H φ = ω² M φ on the tangent space G φ = 0 of the constraints, H the
 * Hessian of the Lagrangian (the stiffness block of the KKT Jacobian
 * -J_uu = K + ∇²(λᵀg), λ the equilibrium multipliers) and G = J_λu
 * (= -J_uλᵀ).  In u = M^{1/2} φ the band holds the KKT matrix
 * [A, c(GD)ᵀ; c GD, 0] (D = M^{-1/2}, c a scale matching the rows to A,
 * the constraints symmetrised from both off-diagonal blocks), and
 * statics_band_eig_lowest_kkt iterates its shifted solves, which stay in
 * null(GD): banded, as without multipliers.  At most nv - 2 nmult pairs
 * (nv counts the multipliers); the multipliers' entries of the modes are 0.
 * Kirchhoff rods ([LA] §3-4) add their scaled multipliers λ̂_k, interleaved
 * after δθ_k (statics_kirchhoff.c), as rows of the same kind: the KKT
 * Jacobian's u-u block is the Lagrangian's Hessian with their geometric
 * stiffness Σλ∇²g, their rows σ_k G_k (any row scale leaves null G as it
 * is), mass zero; statics_mult_indices lists both kinds. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "statics/statics_internal.h"

/* The multiplier rows and columns (isc[i] = 1) of the mass-scaled KKT
 * matrix A (statics_scaled_stiffness filled the rest): G D, G from J_λu and
 * -J_uλᵀ averaged (kkt_scale scales them); zero λλ block. */
static void kkt_rows(const cosrod_band *J, const double *m, const char *isc, int kd, cosrod_band *A) {
  const int n = J->n;
  for (int i = 0; i < n; ++i) {
    if (!isc[i]) continue;
    for (int j = i - kd < 0 ? 0 : i - kd; j <= i + kd && j < n; ++j) {
      const double g =
          isc[j] ? 0.0 : 0.5 * (cosrod_band_get_checked(J, i, j) - cosrod_band_get_checked(J, j, i)) / sqrt(m[j]);
      cosrod_band_set(A, i, j, g);
      cosrod_band_set(A, j, i, g);
    }
  }
}

/* The multiplier rows and columns times c = max |A_uu| / max |G D|. */
static void kkt_scale(const char *isc, int kd, cosrod_band *A) {
  const int n = A->n;
  double amax = 0.0, gmax = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = j - kd < 0 ? 0 : j - kd; i <= j + kd && i < n; ++i) {
      if (!isc[i] && !isc[j]) amax = fmax(amax, fabs(cosrod_band_get(A, i, j)));
      if (isc[i] && !isc[j]) gmax = fmax(gmax, fabs(cosrod_band_get(A, i, j)));
    }
  const double c = gmax > 0.0 && amax > 0.0 ? amax / gmax : 1.0;
  for (int i = 0; i < n; ++i) {
    if (!isc[i]) continue;
    for (int j = i - kd < 0 ? 0 : i - kd; j <= i + kd && j < n; ++j) {
      if (isc[j]) continue;
      cosrod_band_set(A, i, j, c * cosrod_band_get(A, i, j));
      cosrod_band_set(A, j, i, c * cosrod_band_get(A, j, i));
    }
  }
}

/* Mass of block b with the rod end vertices it carries (their lumped mass
 * m_v, prescribed by the block and carried by no unknown of the rod): the
 * vertex at a (material) from the block's centre moves by δx - R [a]ₓ δθ, so
 *   M_b = diag(m, m, m, J) + Σ m_v Bᵀ B,  B = [I, -R [a]ₓ];
 * its Cholesky factor L (6 x 6, lower, column-major).  The parts' data hold
 * the residual at q. */
static cosrod_status block_mass(const cosrod_statics *s, const double *q, int b, double L[36]) {
  memset(L, 0, 36 * sizeof(double));
  for (int j = 0; j < 6; ++j) L[7 * j] = s->blk.mass[6 * b + j];
  const double *x = q + s->nq_rods + 7 * b, *p = x + 3;
  for (int a = 0; a < s->blk.nattach; ++a) {
    if (s->blk.att_block[a] != b) continue;
    const statics_part *pt = &s->part[s->blk.att_rod[a]];
    const cosrod_rod_view *rv = &pt->rv;
    const int n = s->blk.att_end[a] ? rv->N : 0;
    if (rv->nd[n] > 0) continue; /* a vertex with unknowns of its own keeps its mass there */
    double d[3], am[3], B[18]; /* B (3 x 6, column-major) */
    cosrod_vec3_sub(d, pt->d->x + 3 * n, x); /* the vertex of the last residual (at q) */
    cosrod_quat_rotate_inv(am, p, d);
    memset(B, 0, sizeof B);
    for (int k = 0; k < 3; ++k) {
      double e[3] = {0.0, 0.0, 0.0}, ax[3], w[3];
      e[k] = 1.0;
      B[3 * k + k] = 1.0;
      cosrod_vec3_cross(ax, am, e); /* [a]ₓ e_k */
      cosrod_quat_rotate(w, p, ax);
      for (int i = 0; i < 3; ++i) B[9 + 3 * k + i] = -w[i];
    }
    for (int j = 0; j < 6; ++j)
      for (int i = 0; i < 6; ++i)
        for (int k = 0; k < 3; ++k) L[6 * j + i] += rv->mv[n] * B[3 * i + k] * B[3 * j + k];
  }
  return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', 6, L, 6) == 0 ? COSROD_OK : COSROD_ERR_INVALID;
}

/* v (6) <- L⁻¹ v (tr = 0) or L⁻ᵀ v (tr = 1). */
static void block_solve(const double L[36], int tr, double *v) {
  if (!tr)
    for (int i = 0; i < 6; ++i) {
      for (int k = 0; k < i; ++k) v[i] -= L[6 * k + i] * v[k];
      v[i] /= L[7 * i];
    }
  else
    for (int i = 5; i >= 0; --i) {
      for (int k = i + 1; k < 6; ++k) v[i] -= L[6 * i + k] * v[k];
      v[i] /= L[7 * i];
    }
}

/* A <- T A Tᵀ with T = L⁻¹ on the rows and columns v0 .. v0 + 5 of a block
 * (A held them unscaled; kd: A's half bandwidth, 5 wider than the stiffness). */
static void block_transform(cosrod_band *A, int v0, const double L[36], int kd) {
  const int n = A->n;
  for (int pass = 0; pass < 2; ++pass) /* rows, then columns */
    for (int o = v0 - kd + 5 < 0 ? 0 : v0 - kd + 5; o < v0 + kd + 1 && o < n; ++o) {
      double v[6];
      for (int k = 0; k < 6; ++k)
        v[k] = pass ? cosrod_band_get_checked(A, o, v0 + k) : cosrod_band_get_checked(A, v0 + k, o);
      block_solve(L, 0, v);
      for (int k = 0; k < 6; ++k) {
        if (!cosrod_band_in_band(A, pass ? o : v0 + k, pass ? v0 + k : o)) continue;
        cosrod_band_set(A, pass ? o : v0 + k, pass ? v0 + k : o, v[k]);
      }
    }
}

cosrod_status cosrod_statics_modes_system(cosrod_statics *s, double t, const double *q, int count, double *omega,
                                          double *minimal) {
  const int nm = s ? statics_mult_indices(s, NULL) : 0;
  if (!s || !q || count < 1 || count > s->nv - 2 * nm) return COSROD_ERR_INVALID;
  const int nv = s->nv, kd = s->ml > s->mu ? s->ml : s->mu, ka = kd + (s->nblk > 0 ? 5 : 0);
  cosrod_status st;
  cosrod_band *A = cosrod_band_create(nv, ka, ka, NULL); /* blocks: their 6 x 6 mass mixes 6 rows */
  double *m = calloc((size_t)nv, sizeof(double));
  double *w = calloc((size_t)count, sizeof(double));
  double *z = calloc((size_t)nv * (size_t)count, sizeof(double));
  double *Lb = calloc(36 * (size_t)s->nblk + 1, sizeof(double));
  int *cidx = calloc((size_t)nm + 1, sizeof(int));
  char *isc = calloc((size_t)nv, 1);
  if (!A || !m || !w || !z || !Lb || !cidx || !isc) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  st = statics_jacobian(s, t, 1.0, q, s->J); /* J = dr/dδ = -K */
  if (st == COSROD_OK && s->nblk > 0) st = statics_residual(s, t, 1.0, q, s->r, NULL); /* vertices at q */
  if (st != COSROD_OK) goto done;
  statics_lumped_mass(s, m);
  for (int b = 0; b < s->nblk && st == COSROD_OK; ++b) {
    for (int j = 0; j < 6; ++j) m[s->bv0[b] + j] = 1.0; /* block_transform scales them */
    st = block_mass(s, q, b, Lb + 36 * b);
  }
  if (st != COSROD_OK) goto done;
  statics_mult_indices(s, cidx);
  for (int i = 0; i < nm; ++i) {
    isc[cidx[i]] = 1;
    m[cidx[i]] = 1.0; /* no mass: placeholder for the scaling below */
  }
  for (int i = 0; i < nv; ++i)
    if (!(m[i] > 0.0)) {
      st = COSROD_ERR_INVALID;
      goto done;
    }
  statics_scaled_stiffness(s->J, m, nv, kd, A);
  if (nm > 0) kkt_rows(s->J, m, isc, kd, A);
  for (int b = 0; b < s->nblk; ++b) block_transform(A, s->bv0[b], Lb + 36 * b, ka);
  if (nm > 0) kkt_scale(isc, ka, A);
  st = statics_band_eig_lowest_kkt(A, nm, cidx, count, w, z);
  if (st != COSROD_OK) {
    if (st != COSROD_ERR_NOMEM && st != COSROD_ERR_SINGULAR) st = COSROD_ERR_INTERNAL;
    goto done;
  }
  for (int c = 0; c < count; ++c) {
    double lam = w[c], *phi = z + (size_t)c * nv, big = 0.0;
    if (omega) omega[c] = lam >= 0.0 ? sqrt(lam) : -sqrt(-lam);
    for (int i = 0; i < nm; ++i) phi[cidx[i]] = 0.0;
    for (int b = 0; b < s->nblk; ++b) block_solve(Lb + 36 * b, 1, phi + s->bv0[b]); /* φ_b = L⁻ᵀ u_b */
    for (int i = 0; i < nv; ++i) {
      phi[i] /= sqrt(m[i]);
      if (fabs(phi[i]) > fabs(big)) big = phi[i];
    }
    if (minimal)
      for (int i = 0; i < nv; ++i) minimal[(size_t)c * nv + i] = big < 0.0 ? -phi[i] : phi[i];
  }
done:
  cosrod_band_free(A);
  free(m);
  free(w);
  free(z);
  free(Lb);
  free(cidx);
  free(isc);
  return st;
}
