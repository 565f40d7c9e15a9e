// SPDX-License-Identifier: Apache-2.0
/* Modal analysis of a Kirchhoff rod ([LA] §3-4): small vibrations of
 * M δ̈ + K δ = 0 on the tangent space of the shear (and extension)
 * constraints, G δ = 0 (cosrod_rod_kirchhoff_gmatrix, minimal coordinates
 * (δx, δθ) of statics.c).  In the mass-scaled coordinates u = M^{1/2} δ
 * the constraint is (G D) u = 0, D = M^{-1/2}; an orthonormal basis Z of
 * its null space (the last columns of Q in the QR factorisation of
 * (G D)ᵀ, LAPACK dgeqrf/dorgqr) turns the problem into the symmetric
 * eigenproblem (Zᵀ D K D Z) y = ω² y (dsyevd); u = Z y.  K is the rod
 * block of the KKT stiffness (statics_kirchhoff_modes): the Hessian of the
 * Lagrangian, elastic stiffness with the constrained strains dropped plus
 * the multipliers' geometric stiffness Σλ∇²g of a loaded equilibrium.  Dense, O(nv³):
 * meant for N up to a few hundred.  Allocates (not in a time loop). */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statics/statics_internal.h"

cosrod_status statics_null_basis(int n, int nc, double *A) {
  double *tau = calloc((size_t)nc + 1, sizeof(double));
  if (!tau) return COSROD_ERR_NOMEM;
  cosrod_status st = COSROD_ERR_INTERNAL;
  if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, nc, A, n, tau) != 0) goto done;
  /* rank check: |R_ii| against the largest (a singular G: [LA] §4(a)) */
  double rmax = 0.0;
  for (int i = 0; i < nc; ++i) rmax = fmax(rmax, fabs(A[(size_t)i * n + i]));
  st = COSROD_ERR_SINGULAR;
  for (int i = 0; i < nc; ++i)
    if (!(fabs(A[(size_t)i * n + i]) > 1e-10 * rmax)) goto done;
  st = LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, nc, A, n, tau) != 0 ? COSROD_ERR_INTERNAL : COSROD_OK;
done:
  free(tau);
  return st;
}

cosrod_status statics_modes_kirchhoff(const cosrod_rod *rod, double t, const double *q, const cosrod_band *J,
                                      const double *m, int count, double *w, double *z) {
  cosrod_rod_view view;
  cosrod_rod_view_get(rod, &view);
  const cosrod_rod_view *rv = &view;
  const int nv = rv->nv_ns, nc = cosrod_rod_kirchhoff_m(rod) * rv->N;
  const int r = nv - nc;
  if (nc <= 0 || r < count) return COSROD_ERR_INVALID;
  cosrod_status st = COSROD_ERR_NOMEM;
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  double *gt = calloc((size_t)nv * (size_t)nv, sizeof(double)); /* (G D)ᵀ, then Q (nv x nv) */
  double *G = calloc((size_t)nc * (size_t)nv, sizeof(double));
  double *A = calloc((size_t)nv * (size_t)nv, sizeof(double));
  double *AZ = calloc((size_t)nv * (size_t)r, sizeof(double));
  double *B = calloc((size_t)r * (size_t)r, sizeof(double));
  double *ev = calloc((size_t)r, sizeof(double));
  if (!d || !gt || !G || !A || !AZ || !B || !ev) goto done;
  st = cosrod_rod_kirchhoff_gmatrix(rod, d, t, q, G, nc);
  if (st != COSROD_OK) goto done;
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nc; ++i) gt[(size_t)i * nv + j] = G[(size_t)j * nc + i] / sqrt(m[j]);
  st = statics_null_basis(nv, nc, gt);
  if (st != COSROD_OK) goto done;
  st = COSROD_ERR_INTERNAL;
  const double *Z = gt + (size_t)nc * nv; /* nv x r */
  /* A = D ((K + Kᵀ)/2) D with K = -J */
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nv; ++i) {
      double kij = cosrod_band_in_band(J, i, j) ? -cosrod_band_get(J, i, j) : 0.0;
      double kji = cosrod_band_in_band(J, j, i) ? -cosrod_band_get(J, j, i) : 0.0;
      A[(size_t)j * nv + i] = 0.5 * (kij + kji) / sqrt(m[i] * m[j]);
    }
  for (int c = 0; c < r; ++c)
    for (int i = 0; i < nv; ++i) {
      double s = 0.0;
      for (int k = 0; k < nv; ++k) s += A[(size_t)k * nv + i] * Z[(size_t)c * nv + k];
      AZ[(size_t)c * nv + i] = s;
    }
  for (int c = 0; c < r; ++c)
    for (int b = 0; b < r; ++b) {
      double s = 0.0;
      for (int i = 0; i < nv; ++i) s += Z[(size_t)b * nv + i] * AZ[(size_t)c * nv + i];
      B[(size_t)c * r + b] = s;
    }
  if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', r, B, r, ev) != 0) goto done;
  for (int c = 0; c < count; ++c) {
    w[c] = ev[c];
    for (int i = 0; i < nv; ++i) {
      double s = 0.0;
      for (int b = 0; b < r; ++b) s += Z[(size_t)b * nv + i] * B[(size_t)c * r + b];
      z[(size_t)c * nv + i] = s;
    }
  }
  st = COSROD_OK;
done:
  cosrod_rod_data_free(d);
  free(gt);
  free(G);
  free(A);
  free(AZ);
  free(B);
  free(ev);
  return st;
}
