/* Linearised buckling about an equilibrium (e.g. Bathe, Finite Element
 * Procedures, 1996, §6.8.2): with the tangent stiffness K_0 at the
 * equilibrium of the unloaded state (load factor μ = 0 on gravity, loads and
 * the load callback) and K_ε at the equilibrium under a small share ε = 1e-4
 * of the loads, the stiffness is extrapolated linearly in the load factor,
 * K(λ) = K_0 + λ G with G = (K_ε - K_0)/ε ≈ dK/dμ (the geometric stiffness of
 * the prebuckling stresses), and the critical factors solve
 *     K_0 φ = -λ G φ,
 * i.e. with θ = 1/λ the symmetric-definite pencil -G φ = θ K_0 φ.  The small
 * ε keeps the prebuckling rotations out of G: at μ = 1 their effect on the
 * stiff shear/extension terms (∝ GA/Δs θ², quadratic in the load) would
 * grow with N and swamp the geometric stiffness of a deep strip.  Hence the
 * classical (Euler, Prandtl) values, without prebuckling deflections;
 * (LAPACK dsygv on the dense symmetric parts; K_0 + 1e-12 max|diag| I lifts
 * rigid null modes such as the spin of a column pinned at both ends, whose
 * θ = 0 gives λ = ∞).  The critical loads are λ_i times the loads, for the
 * positive λ in ascending order.  Exact for the buckling of straight
 * columns and strips, whose prebuckling state does not rotate (K_1 - K_0 is
 * then the geometric stiffness of the axial force or bending moment). */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "statics/statics_internal.h"

/* reference load factor of the loaded state (see the top comment) */
#define BUCKLING_EPS 1e-4

static void dense_sym_K(const cosrod_band *J, double *K, int n) {
  /* K = -sym(J) (J = dr/dδ) */
  memset(K, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (cosrod_band_in_band(J, i, j)) {
        double v = -cosrod_band_get(J, i, j);
        K[(size_t)j * n + i] += 0.5 * v;
        K[(size_t)i * n + j] += 0.5 * v;
      }
}

cosrod_status cosrod_statics_buckling(cosrod_statics *s, double t, const double *q, int count, double *lambda,
                                      double *minimal) {
  if (!s || !q || !lambda || count < 1 || count > s->nv) return COSROD_ERR_INVALID;
  if (s->kkt) return COSROD_ERR_UNSUPPORTED; /* Kirchhoff rods: KKT stiffness, not done yet */
  const int n = s->nv, nq = s->nq;
  cosrod_status st = COSROD_OK;
  double *q1 = malloc(sizeof(double) * (size_t)nq), *q0 = malloc(sizeof(double) * (size_t)nq);
  double *K0 = malloc(sizeof(double) * (size_t)n * (size_t)n), *B = malloc(sizeof(double) * (size_t)n * (size_t)n);
  double *th = malloc(sizeof(double) * (size_t)n);
  if (!q1 || !q0 || !K0 || !B || !th) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  memcpy(q0, q, sizeof(double) * (size_t)nq);
  st = statics_correct_at(s, t, 0.0, q0); /* the unloaded equilibrium */
  if (st != COSROD_OK) goto done;
  memcpy(q1, q0, sizeof(double) * (size_t)nq);
  st = statics_correct_at(s, t, BUCKLING_EPS, q1);
  if (st != COSROD_OK) goto done;
  st = statics_jacobian(s, t, BUCKLING_EPS, q1, s->J);
  if (st != COSROD_OK) goto done;
  dense_sym_K(s->J, B, n); /* K_1 */
  st = statics_jacobian(s, t, 0.0, q0, s->J);
  if (st != COSROD_OK) goto done;
  dense_sym_K(s->J, K0, n);
  double dmax = 0.0;
  for (int i = 0; i < n; ++i) dmax = fmax(dmax, fabs(K0[(size_t)i * n + i]));
  for (size_t i = 0; i < (size_t)n * (size_t)n; ++i) B[i] = (K0[i] - B[i]) / BUCKLING_EPS; /* -dK/dμ */
  for (int i = 0; i < n; ++i) K0[(size_t)i * n + i] += 1e-12 * dmax;
  if (LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'U', n, B, n, K0, n, th) != 0) {
    st = COSROD_ERR_INTERNAL;
    goto done;
  }
  /* λ = 1/θ for θ > 0: the largest θ first */
  int found = 0;
  for (int i = n - 1; i >= 0 && found < count; --i) {
    if (!(th[i] > 1e-12)) break;
    lambda[found] = 1.0 / th[i];
    if (minimal) {
      const double *v = B + (size_t)i * n;
      double big = 0.0, nr = 0.0;
      for (int k = 0; k < n; ++k) {
        nr += v[k] * v[k];
        if (fabs(v[k]) > fabs(big)) big = v[k];
      }
      double sc = (big < 0.0 ? -1.0 : 1.0) / sqrt(nr);
      for (int k = 0; k < n; ++k) minimal[(size_t)found * n + k] = sc * v[k];
    }
    ++found;
  }
  for (int i = found; i < count; ++i) lambda[i] = INFINITY;
  st = found > 0 ? COSROD_OK : COSROD_ERR_CONVERGENCE;
done:
  free(q1);
  free(q0);
  free(K0);
  free(B);
  free(th);
  return st;
}
