// SPDX-License-Identifier: Apache-2.0
/* Modal analysis of a rod about an equilibrium (or the stress-free initial
 * state): small vibrations δ(t) = φ e^{iωt} of M δ̈ + K δ = 0 in the minimal
 * coordinates of statics.c (δx per vertex, material rotation vector δθ per
 * segment, the tangent space of the quaternion constraints).
 *
 * K = -∂r/∂δ is the tangent stiffness (statics_jacobian: the rod's analytic
 * static stiffness pulled back to the chart, no diagonal shift); it is the Hessian
 * of the energy in the chart p exp(δθ/2) at an equilibrium under dead loads
 * and symmetric there.  Elsewhere (non-equilibrium states, follower loads)
 * its symmetric part (K + Kᵀ)/2 is used.  M is the lumped, diagonal mass of
 * the null-space formulation: ρAδs_n per vertex coordinate ([LLA] eq. 27)
 * and ρΔs (I1, I2, J) per segment ([L] Lemma 4.2; Ω = δθ̇ at rest).
 * With D = M^{-1/2}, A = D K D is symmetric banded (half bandwidth 8) and
 * shift-and-invert subspace iteration on its banded LU (modes_eig.c) gives
 * its lowest eigenpairs; φ = D z is mass-normalised. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statics/statics_internal.h"

#define MODES_TWO_PI 6.283185307179586476925286766559

static void mass_diag(const cosrod_rod_view *rv, double *m) {
  for (int n = 0; n <= rv->N; ++n)
    for (int j = 0; j < rv->nd[n]; ++j) m[rv->vv_ns[n] + j] = rv->mv[n];
  for (int k = 0; k < rv->N; ++k)
    for (int j = 0; j < 3; ++j) m[rv->vs_ns[k] + j] = rv->Ib[3 * k + j];
}

/* Map a minimal-coordinate vector phi (nv) to per-vertex (dx, rx) rows out ((N+1) x 6). */
static void to_vertices(const cosrod_rod_view *rv, const double *q, const double *phi, double *out) {
  const int N = rv->N;
  memset(out, 0, sizeof(double) * 6 * (size_t)(N + 1));
  for (int n = 0; n <= N; ++n) {
    int nd = rv->nd[n];
    double *o = out + 6 * n;
    if (nd == 3) {
      cosrod_vec3_copy(o, phi + rv->vv_ns[n]);
    } else if (nd == 1) {
      cosrod_vec3_scale(o, phi[rv->vv_ns[n]], rv->end[n == 0 ? 0 : 1].axis);
    }
  }
  for (int k = 0; k < N; ++k) {
    double w[3];
    cosrod_quat_rotate(w, q + rv->qs[k], phi + rv->vs_ns[k]);
    /* vertex k (left end of segment k) and k+1 */
    for (int side = 0; side < 2; ++side) {
      int n = k + side;
      double wt;
      if (n == 0 || n == N) {
        int e = n == 0 ? 0 : 1;
        wt = rv->end[e].fixrot ? 0.0 : 1.0;
      } else {
        wt = 0.5;
      }
      cosrod_vec3_axpy(out + 6 * n + 3, wt, w);
    }
  }
}

cosrod_status cosrod_statics_mode_shape(const cosrod_rod *rod, const double *q, const double *phi,
                                        double *shape) {
  if (!rod || !q || !phi || !shape) return COSROD_ERR_INVALID;
  cosrod_rod_view rv;
  cosrod_rod_view_get(rod, &rv);
  to_vertices(&rv, q, phi, shape);
  return COSROD_OK;
}

void statics_scaled_stiffness(const cosrod_band *J, const double *m, int nv, int kd, cosrod_band *A) {
  for (int j = 0; j < nv; ++j) {
    int ilo = j - kd < 0 ? 0 : j - kd;
    for (int i = ilo; i <= j; ++i) {
      double kij = 0.0, kji = 0.0;
      if (cosrod_band_in_band(J, i, j)) kij = -cosrod_band_get(J, i, j);
      if (cosrod_band_in_band(J, j, i)) kji = -cosrod_band_get(J, j, i);
      double a = 0.5 * (kij + kji) / sqrt(m[i] * m[j]);
      cosrod_band_set(A, i, j, a);
      cosrod_band_set(A, j, i, a);
    }
  }
}

cosrod_status cosrod_statics_modes(const cosrod_rod *rod, double t, const double *q, int count, double *omega,
                                   double *freq_hz, double *shapes, double *minimal) {
  if (!rod || !q || count < 1) return COSROD_ERR_INVALID;
  cosrod_rod_view view;
  cosrod_rod_view_get(rod, &view);
  const cosrod_rod_view *rv = &view;
  const int nv = rv->nv_ns;
  if (count > nv) return COSROD_ERR_INVALID;
  cosrod_status st;
  cosrod_statics *s = cosrod_statics_create(rod, NULL, &st);
  if (!s) return st;
  const int kd = s->ml > s->mu ? s->ml : s->mu;
  cosrod_band *A = cosrod_band_create(nv, kd, kd, NULL);
  double *m = calloc((size_t)nv, sizeof(double));
  double *w = calloc((size_t)nv, sizeof(double));
  double *z = calloc((size_t)nv * (size_t)count, sizeof(double));
  double *vtx = calloc(6 * (size_t)(rv->N + 1), sizeof(double));
  if (!A || !m || !w || !z || !vtx) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  st = statics_jacobian(s, t, 1.0, q, s->J); /* J = dr/dδ = -K */
  if (st != COSROD_OK) goto done;
  mass_diag(rv, m);
  statics_scaled_stiffness(s->J, m, nv, kd, A);
  if (cosrod_rod_model_of(rod) != COSROD_MODEL_COSSERAT) { /* on the constraints' tangent space */
    st = statics_kirchhoff_modes(s, t, q, m, count, w, z); /* with the multipliers' geometric stiffness */
  } else {
    st = statics_band_eig_lowest(A, count, w, z);
    if (st != COSROD_OK && st != COSROD_ERR_NOMEM) st = COSROD_ERR_INTERNAL;
  }
  if (st != COSROD_OK) goto done;
  for (int c = 0; c < count; ++c) {
    double lam = w[c];
    double om = lam >= 0.0 ? sqrt(lam) : -sqrt(-lam);
    if (omega) omega[c] = om;
    if (freq_hz) freq_hz[c] = fabs(om) / MODES_TWO_PI;
    double *phi = z + (size_t)c * nv;
    for (int i = 0; i < nv; ++i) phi[i] /= sqrt(m[i]);
    to_vertices(rv, q, phi, vtx);
    /* sign convention on the vertex table (what users see) */
    double big = 0.0;
    for (int i = 0; i < 6 * (rv->N + 1); ++i)
      if (fabs(vtx[i]) > fabs(big)) big = vtx[i];
    double sg = big < 0.0 ? -1.0 : 1.0;
    if (shapes)
      for (int i = 0; i < 6 * (rv->N + 1); ++i) shapes[(size_t)c * 6 * (rv->N + 1) + i] = sg * vtx[i];
    if (minimal)
      for (int i = 0; i < nv; ++i) minimal[(size_t)c * nv + i] = sg * phi[i];
  }
  st = COSROD_OK;
done:
  cosrod_band_free(A);
  free(m);
  free(w);
  free(z);
  free(vtx);
  cosrod_statics_free(s);
  return st;
}
