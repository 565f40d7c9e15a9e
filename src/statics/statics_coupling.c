// SPDX-License-Identifier: Apache-2.0
/* Loads coupling distant vertices (statics_coupling.h).  The minimal
 * coordinate of a vertex is its position (3 free), its slide ξ along an
 * axis a (x = x_0 + ξ a), or none; the residual row is the vertex force f
 * or a·f, so dr_i/dδ_j = A_iᵀ K A_j with A = I or a.  The blocks of rod-rod
 * pairs lie anywhere in the matrix.  Two tangents:
 *   sparse (statics_sparse.c, KLU): the rods' band plus the coupling blocks
 *     as triplets, O(nnz) memory; the stability index is the parity of the
 *     negative eigenvalues (sign of det K);
 *   dense: the band widened to n - 1 (the banded LU and LDLᵀ, O(n³) per
 *     factorisation, O(n²) memory, bounded by STATICS_COUPLING_MAXN); its
 *     index under conservative loads is the inertia (it also counts a
 *     double eigenvalue crossing zero), and modes and buckling see the
 *     coupling.
 * The dense tangent is used up to STATICS_COUPLING_DENSE unknowns or
 * without KLU.  Measured on two crossing steel cantilevers pressed together
 * (the rod-rod statics test, CPU time of the whole static run with its
 * output): 250 unknowns 0.55 s both, 970: 0.89 s sparse / 0.92 s dense,
 * 1930: 0.99 / 1.46 s, 2900: 1.29 / 3.40 s (memory 28 / 204 MB): the
 * sparse tangent is never slower, the dense one is kept where it costs the
 * same for its exact index and its modes and buckling with the coupling,
 * and so that small models keep their results to the last digit.  The
 * environment variable COSROD_STATICS_TANGENT = dense / sparse forces one
 * (reference runs and benchmarks). */
#include <stdlib.h>
#include <string.h>

#include "cosrod/sparse.h"
#include "statics/statics_coupling.h"
#include "statics/statics_internal.h"

/* 1: the sparse tangent for n unknowns. */
static int use_sparse(int n) {
  if (!cosrod_sparse_available()) return 0;
  const char *e = getenv("COSROD_STATICS_TANGENT");
  if (e && strcmp(e, "dense") == 0) return 0;
  if (e && strcmp(e, "sparse") == 0) return 1;
  return n > STATICS_COUPLING_DENSE;
}

static cosrod_status set_sparse(cosrod_statics *s) {
  if (!s->sp && !(s->sp = statics_sparse_create(s->nv))) return COSROD_ERR_NOMEM;
  return COSROD_OK;
}

cosrod_status statics_set_coupling(cosrod_statics *s, statics_pre_fn pre, statics_jac_fn jac, void *user) {
  if (use_sparse(s->nv)) {
    cosrod_status st = set_sparse(s);
    if (st == COSROD_OK) s->cpl_pre = pre, s->cpl_jac = jac, s->cpl_user = user;
    return st;
  }
  if (s->nv > STATICS_COUPLING_MAXN) return COSROD_ERR_DIMENSION;
  const int w = s->nv > 1 ? s->nv - 1 : 1;
  if (s->ml < w || s->mu < w) {
    cosrod_band *J = cosrod_band_create(s->nv, w, w, NULL);
    double *ldl = calloc((size_t)s->nv * (size_t)(w + 1), sizeof(double));
    if (!J || !ldl) {
      cosrod_band_free(J);
      free(ldl);
      return COSROD_ERR_NOMEM;
    }
    cosrod_band_free(s->J);
    free(s->ldl);
    s->J = J, s->ldl = ldl, s->ml = s->mu = w;
  }
  s->cpl_pre = pre, s->cpl_jac = jac, s->cpl_user = user;
  return COSROD_OK;
}

/* Rows (indices, weights) of vertex n of part p: up to 3 coordinates. */
static int vertex_map(const statics_part *p, int n, int idx[3], double A[3][3]) {
  const cosrod_rod_view *rv = &p->rv;
  const int nd = rv->nd[n];
  for (int j = 0; j < nd; ++j) {
    idx[j] = p->v0 + p->ov[n] + j;
    for (int c = 0; c < 3; ++c)
      A[j][c] = nd == 3 ? (double)(c == j) : rv->end[n == 0 ? 0 : 1].axis[c];
  }
  return nd;
}

void statics_coupling_add(const cosrod_statics *s, cosrod_band *J, int ri, int vi, int rj, int vj, const double *K) {
  if (ri < 0 || rj < 0 || ri >= s->nparts || rj >= s->nparts) return;
  int ii[3], jj[3];
  double Ai[3][3], Aj[3][3];
  const int ni = vertex_map(&s->part[ri], vi, ii, Ai), nj = vertex_map(&s->part[rj], vj, jj, Aj);
  for (int a = 0; a < ni; ++a)
    for (int b = 0; b < nj; ++b) {
      double v = 0.0;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) v += Ai[a][r] * K[r + 3 * c] * Aj[b][c];
      if (v == 0.0) continue;
      if (cosrod_band_in_band(J, ii[a], jj[b]))
        cosrod_band_add(J, ii[a], jj[b], v);
      else if (s->sp && J == s->J)
        statics_sparse_add(s->sp, ii[a], jj[b], v);
    }
}

cosrod_status statics_factor(cosrod_statics *s) {
  return s->sp ? statics_sparse_factor(s->sp, s->J) : cosrod_band_factor(s->J);
}

void statics_solve(cosrod_statics *s, double *b) {
  if (s->sp)
    statics_sparse_solve(s->sp, b);
  else
    cosrod_band_solve(s->J, b);
}
