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
 * (nv counts the multipliers); the multipliers' entries of the modes are 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statics/statics_internal.h"

static double jget(const cosrod_band *J, int i, int j) {
  return cosrod_band_in_band(J, i, j) ? cosrod_band_get(J, i, j) : 0.0;
}

/* The multiplier rows and columns mv0 .. mv0 + nm - 1 of the mass-scaled
 * KKT matrix A (statics_scaled_stiffness filled the rest): c G D, G from
 * J_λu and -J_uλᵀ averaged, c = max |A_uu| / max |G D|; zero λλ block. */
static void kkt_rows(const cosrod_band *J, const double *m, int mv0, int nm, int kd, cosrod_band *A) {
  const int n = J->n;
  double amax = 0.0, gmax = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = j - kd < 0 ? 0 : j - kd; i <= j + kd && i < n; ++i) {
      const int ci = i >= mv0 && i < mv0 + nm, cj = j >= mv0 && j < mv0 + nm;
      if (!ci && !cj) amax = fmax(amax, fabs(cosrod_band_get(A, i, j)));
      if (ci && !cj) gmax = fmax(gmax, fabs(0.5 * (jget(J, i, j) - jget(J, j, i)) / sqrt(m[j])));
    }
  const double c = gmax > 0.0 && amax > 0.0 ? amax / gmax : 1.0;
  for (int i = mv0; i < mv0 + nm; ++i)
    for (int j = i - kd < 0 ? 0 : i - kd; j <= i + kd && j < n; ++j) {
      const double g = j >= mv0 && j < mv0 + nm ? 0.0 : c * 0.5 * (jget(J, i, j) - jget(J, j, i)) / sqrt(m[j]);
      cosrod_band_set(A, i, j, g);
      cosrod_band_set(A, j, i, g);
    }
}

cosrod_status cosrod_statics_modes_system(cosrod_statics *s, double t, const double *q, int count, double *omega,
                                          double *minimal) {
  const int nm = s && s->nblk > 0 ? s->blk.nmult : 0;
  if (!s || !q || count < 1 || count > s->nv - 2 * nm) return COSROD_ERR_INVALID;
  if (s->kkt) return COSROD_ERR_UNSUPPORTED;
  const int nv = s->nv, kd = s->ml > s->mu ? s->ml : s->mu;
  cosrod_status st;
  cosrod_band *A = cosrod_band_create(nv, kd, kd);
  double *m = calloc((size_t)nv, sizeof(double));
  double *w = calloc((size_t)count, sizeof(double));
  double *z = calloc((size_t)nv * (size_t)count, sizeof(double));
  int *cidx = calloc((size_t)nm + 1, sizeof(int));
  if (!A || !m || !w || !z || !cidx) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  st = statics_jacobian(s, t, 1.0, q, s->J); /* J = dr/dδ = -K */
  if (st != COSROD_OK) goto done;
  statics_lumped_mass(s, m);
  for (int i = 0; i < nm; ++i) {
    cidx[i] = s->mv0 + i;
    m[s->mv0 + i] = 1.0; /* no mass: placeholder for the scaling below */
  }
  for (int i = 0; i < nv; ++i)
    if (!(m[i] > 0.0)) {
      st = COSROD_ERR_INVALID;
      goto done;
    }
  statics_scaled_stiffness(s->J, m, nv, kd, A);
  if (nm > 0) kkt_rows(s->J, m, s->mv0, nm, kd, A);
  st = statics_band_eig_lowest_kkt(A, nm, cidx, count, w, z);
  if (st != COSROD_OK) {
    if (st != COSROD_ERR_NOMEM && st != COSROD_ERR_SINGULAR) st = COSROD_ERR_INTERNAL;
    goto done;
  }
  for (int c = 0; c < count; ++c) {
    double lam = w[c], *phi = z + (size_t)c * nv, big = 0.0;
    if (omega) omega[c] = lam >= 0.0 ? sqrt(lam) : -sqrt(-lam);
    for (int i = 0; i < nm; ++i) phi[s->mv0 + i] = 0.0;
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
  free(cidx);
  return st;
}
