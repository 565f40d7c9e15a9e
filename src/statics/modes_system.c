/* Modal analysis of a coupled system of rods and rigid blocks (statics.h,
 * cosrod_statics_modes_system): as modes.c for one rod, K φ = ω² M φ in the
 * system's minimal coordinates, with K = -∂r/∂δ of the whole system (the
 * coupled band, statics_jacobian), symmetrised, and M diagonal: the rods'
 * lumped masses (ρAδs_n per vertex coordinate, ρΔs (I1, I2, J) per segment)
 * and the blocks' (m, m, m, J1, J2, J3) (δθ material, so Ω = δθ̇ at rest
 * and the rotational kinetic energy is ½ δθ̇ᵀ J δθ̇ with the principal J).
 * A = M^{-1/2} K M^{-1/2} is banded (the coupled bandwidth); its lowest
 * eigenpairs by shift-and-invert subspace iteration (modes_eig.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statics/statics_internal.h"

cosrod_status cosrod_statics_modes_system(cosrod_statics *s, double t, const double *q, int count, double *omega,
                                          double *minimal) {
  if (!s || !q || count < 1 || count > s->nv) return COSROD_ERR_INVALID;
  if (s->kkt || (s->nblk > 0 && s->blk.nmult > 0)) return COSROD_ERR_UNSUPPORTED;
  const int nv = s->nv, kd = s->ml > s->mu ? s->ml : s->mu;
  cosrod_status st;
  cosrod_band *A = cosrod_band_create(nv, kd, kd);
  double *m = calloc((size_t)nv, sizeof(double));
  double *w = calloc((size_t)count, sizeof(double));
  double *z = calloc((size_t)nv * (size_t)count, sizeof(double));
  if (!A || !m || !w || !z) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  st = statics_jacobian(s, t, 1.0, q, s->J); /* J = dr/dδ = -K */
  if (st != COSROD_OK) goto done;
  statics_lumped_mass(s, m);
  for (int i = 0; i < nv; ++i)
    if (!(m[i] > 0.0)) {
      st = COSROD_ERR_INVALID;
      goto done;
    }
  statics_scaled_stiffness(s->J, m, nv, kd, A);
  st = statics_band_eig_lowest(A, count, w, z);
  if (st != COSROD_OK) {
    if (st != COSROD_ERR_NOMEM) st = COSROD_ERR_INTERNAL;
    goto done;
  }
  for (int c = 0; c < count; ++c) {
    double lam = w[c], *phi = z + (size_t)c * nv, big = 0.0;
    if (omega) omega[c] = lam >= 0.0 ? sqrt(lam) : -sqrt(-lam);
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
  return st;
}
