// SPDX-License-Identifier: Apache-2.0
/* Buckling with multipliers (rigid blocks joined by joints, statics.h
 * cosrod_statics_blocks.nmult): the critical factors are those of the
 * stiffness on the tangent space of the constraints, the Hessian of the
 * Lagrangian H = K + ∇²(λᵀg) (the KKT Jacobian's u-u block, -J_uu) on
 * null G (G = ∂g/∂δ, the multiplier rows J_λu = -J_uλᵀ).  With Z0 an
 * orthonormal basis of null G0 at the unloaded equilibrium (QR of G0ᵀ,
 * statics_null_basis, as the Kirchhoff modes) and at another state
 *   Z = P Z0,  P = I - Gᵀ(GGᵀ)⁻¹G   (a basis of null G near Z0),
 * the reduced stiffness K_r = Zᵀ H Z is singular exactly where the
 * constrained problem is critical, whatever the basis; statics_buckling.c
 * runs its pencil and refinement on K_r in place of K.  Dense like it
 * (O(nv² nr) per matrix).  Kirchhoff rods' multipliers ([LA] §3-4,
 * interleaved in δ: statics_mult_indices) are rows of G like the joints'. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statics/statics_internal.h"

void statics_bred_free(cosrod_statics *s) {
  statics_bred *b = s->bred;
  if (!b) return;
  free(b->Z0), free(b->F), free(b->G), free(b->C), free(b->L), free(b->Z), free(b->FZ), free(b->e);
  free(b->cidx), free(b->isc);
  free(b);
  s->bred = NULL;
}

static int is_mult(const statics_bred *b, int i) { return b->isc[i]; }

/* G (nm x nv, row-major) from F: the average of F_uλᵀ and -F_λu. */
static void gather_G(statics_bred *b, const double *F) {
  const int nv = b->nv;
  for (int a = 0; a < b->nm; ++a)
    for (int j = 0; j < nv; ++j)
      b->G[(size_t)a * nv + j] =
          is_mult(b, j) ? 0.0 : 0.5 * (F[(size_t)b->cidx[a] * nv + j] - F[(size_t)j * nv + b->cidx[a]]);
}

cosrod_status statics_bred_create(cosrod_statics *s, const double *F) {
  statics_bred *b = calloc(1, sizeof *b);
  if (!b) return COSROD_ERR_NOMEM;
  s->bred = b;
  const int nv = s->nv, nm = statics_mult_indices(s, NULL), nu = nv - nm;
  b->nv = nv, b->nm = nm, b->nr = nu - nm;
  b->cidx = calloc((size_t)nm + 1, sizeof(int));
  b->isc = calloc((size_t)nv, 1);
  if (!b->cidx || !b->isc) return COSROD_ERR_NOMEM;
  statics_mult_indices(s, b->cidx);
  for (int a = 0; a < nm; ++a) b->isc[b->cidx[a]] = 1;
  const size_t nr = (size_t)(b->nr > 0 ? b->nr : 1);
  b->Z0 = calloc((size_t)nv * nr, sizeof(double));
  b->F = calloc((size_t)nv * (size_t)nv, sizeof(double));
  b->G = calloc((size_t)nm * (size_t)nv, sizeof(double));
  b->C = calloc((size_t)nm * nr, sizeof(double));
  b->L = calloc((size_t)nm * (size_t)nm, sizeof(double));
  b->Z = calloc((size_t)nv * nr, sizeof(double));
  b->FZ = calloc((size_t)nv * nr, sizeof(double));
  b->e = calloc((size_t)nv, sizeof(double));
  double *A = calloc((size_t)nu * (size_t)nu, sizeof(double)); /* G_uᵀ, then Q */
  int *map = malloc(sizeof(int) * (size_t)nu);
  cosrod_status st = COSROD_ERR_NOMEM;
  if (!b->Z0 || !b->F || !b->G || !b->C || !b->L || !b->Z || !b->FZ || !b->e || !A || !map) goto done;
  st = COSROD_ERR_SINGULAR;
  if (b->nr < 1) goto done;
  for (int i = 0, k = 0; i < nv; ++i)
    if (!is_mult(b, i)) map[k++] = i;
  gather_G(b, F);
  for (int a = 0; a < nm; ++a)
    for (int k = 0; k < nu; ++k) A[(size_t)a * nu + k] = b->G[(size_t)a * nv + map[k]];
  st = statics_null_basis(nu, nm, A);
  if (st != COSROD_OK) goto done;
  for (int c = 0; c < b->nr; ++c)
    for (int k = 0; k < nu; ++k) b->Z0[(size_t)c * nv + map[k]] = A[(size_t)(nm + c) * nu + k];
done:
  free(A);
  free(map);
  return st;
}

cosrod_status statics_bred_reduce(cosrod_statics *s, const double *F, double *K, int sym) {
  statics_bred *b = s->bred;
  const int nv = b->nv, nm = b->nm, nr = b->nr;
  gather_G(b, F);
  /* C = G Z0, L = chol(G Gᵀ), C <- (GGᵀ)⁻¹ C, Z = Z0 - Gᵀ C */
  for (int c = 0; c < nr; ++c)
    for (int a = 0; a < nm; ++a) {
      double d = 0.0;
      const double *g = b->G + (size_t)a * nv, *z = b->Z0 + (size_t)c * nv;
      for (int k = 0; k < nv; ++k) d += g[k] * z[k];
      b->C[(size_t)c * nm + a] = d;
    }
  for (int a = 0; a < nm; ++a)
    for (int a2 = 0; a2 <= a; ++a2) {
      double d = 0.0;
      for (int k = 0; k < nv; ++k) d += b->G[(size_t)a * nv + k] * b->G[(size_t)a2 * nv + k];
      b->L[(size_t)a2 * nm + a] = d;
    }
  if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', nm, b->L, nm) != 0 ||
      LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', nm, nr, b->L, nm, b->C, nm) != 0)
    return COSROD_ERR_SINGULAR;
  memcpy(b->Z, b->Z0, sizeof(double) * (size_t)nv * (size_t)nr);
  for (int c = 0; c < nr; ++c)
    for (int a = 0; a < nm; ++a) {
      const double v = b->C[(size_t)c * nm + a];
      const double *g = b->G + (size_t)a * nv;
      double *z = b->Z + (size_t)c * nv;
      for (int k = 0; k < nv; ++k) z[k] -= v * g[k];
    }
  /* FZ = F Z (Z is 0 at the multiplier rows: the λ columns of F drop out) */
  for (int c = 0; c < nr; ++c) {
    double *o = b->FZ + (size_t)c * nv;
    const double *z = b->Z + (size_t)c * nv;
    memset(o, 0, sizeof(double) * (size_t)nv);
    for (int k = 0; k < nv; ++k) {
      if (z[k] == 0.0) continue;
      const double *f = F + (size_t)k * nv;
      for (int i = 0; i < nv; ++i) o[i] += f[i] * z[k];
    }
  }
  for (int c = 0; c < nr; ++c)
    for (int r = 0; r < nr; ++r) {
      double d = 0.0;
      const double *z = b->Z + (size_t)r * nv, *fz = b->FZ + (size_t)c * nv;
      for (int k = 0; k < nv; ++k)
        if (!is_mult(b, k)) d += z[k] * fz[k];
      K[(size_t)c * nr + r] = d;
    }
  if (sym)
    for (int c = 0; c < nr; ++c)
      for (int r = 0; r < c; ++r) {
        const double v = 0.5 * (K[(size_t)c * nr + r] + K[(size_t)r * nr + c]);
        K[(size_t)c * nr + r] = K[(size_t)r * nr + c] = v;
      }
  return COSROD_OK;
}

void statics_bred_expand(const cosrod_statics *s, const double *y) {
  const statics_bred *b = s->bred;
  memset(b->e, 0, sizeof(double) * (size_t)b->nv);
  for (int c = 0; c < b->nr; ++c) {
    const double *z = b->Z0 + (size_t)c * b->nv;
    for (int k = 0; k < b->nv; ++k) b->e[k] += y[c] * z[k];
  }
}
