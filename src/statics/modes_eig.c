/* Lowest eigenpairs of a symmetric band matrix by shift-and-invert subspace
 * iteration with Rayleigh–Ritz projection (K.-J. Bathe, Finite Element
 * Procedures, 1996, §11.6): with p = min(n, max(2 count, count + 8)) vectors,
 *   Y = (A - σ I)⁻¹ X            (one banded LU, p solves per iteration),
 *   Y <- orthonormal basis of Y  (modified Gram–Schmidt, twice),
 *   H = Yᵀ A Y,  H V = V Θ       (LAPACK dsyev, p x p),
 *   X = Y V,
 * until every wanted Ritz pair has ‖A x - θ x‖ <= 1e-10 max(|θ_count|, ‖A‖ 1e-6).
 * The i-th Ritz vector converges like |λ_i - σ| / |λ_{p+1} - σ| per iteration.
 * σ = -1e-8 ‖A‖∞ just below zero keeps A - σI regular with rigid (zero)
 * modes; the pairs found are those nearest σ, i.e. the lowest ones when A
 * has at most a few small negative eigenvalues (a pre-buckled state).
 * Cost O(n kd p) per iteration and O(n p) memory, against O(n² kd) time
 * and O(n²) memory of the dense tridiagonal reduction (dsbevx with
 * vectors): N = 640 (n = 3843) in well under a second. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "statics/statics_internal.h"

/* Orthonormalise the p columns of Y (n x p) in place; a column that
 * vanishes against the previous ones is replaced by a unit vector. */
static void orthonormalise(int n, int p, double *Y) {
  for (int pass = 0; pass < 2; ++pass)
    for (int j = 0; j < p; ++j) {
      double *yj = Y + (size_t)j * n;
      for (int i = 0; i < j; ++i) {
        const double *yi = Y + (size_t)i * n;
        double d = 0.0;
        for (int k = 0; k < n; ++k) d += yi[k] * yj[k];
        for (int k = 0; k < n; ++k) yj[k] -= d * yi[k];
      }
      double nr = 0.0;
      for (int k = 0; k < n; ++k) nr += yj[k] * yj[k];
      nr = sqrt(nr);
      if (!(nr > 1e-300)) {
        memset(yj, 0, sizeof(double) * (size_t)n);
        yj[(j * 7919) % n] = 1.0;
        --j; /* re-orthogonalise the replacement */
        continue;
      }
      for (int k = 0; k < n; ++k) yj[k] /= nr;
    }
}

cosrod_status statics_band_eig_lowest(const cosrod_band *A, int count, double *w, double *z) {
  const int n = A->n;
  if (count < 1 || count > n) return COSROD_ERR_INVALID;
  int p = 2 * count > count + 8 ? 2 * count : count + 8;
  if (p > n) p = n;
  cosrod_status st = COSROD_OK;
  cosrod_band *S = cosrod_band_create(n, A->ml, A->mu);
  double *X = calloc((size_t)n * (size_t)p, sizeof(double));
  double *AY = calloc((size_t)n * (size_t)p, sizeof(double));
  double *H = calloc((size_t)p * (size_t)p, sizeof(double));
  double *th = calloc((size_t)p, sizeof(double));
  double *tmp = calloc((size_t)n * (size_t)p, sizeof(double));
  if (!S || !X || !AY || !H || !th || !tmp) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  const double anorm = cosrod_band_norm_inf(A);
  const double sigma = -1e-8 * (anorm > 0.0 ? anorm : 1.0);
  cosrod_band_copy(S, A);
  cosrod_band_scale_add_identity(S, 1.0, -sigma);
  st = cosrod_band_factor(S);
  if (st != COSROD_OK) goto done;
  /* start: deterministic pseudo-random vectors (no structure that a mode
   * could be orthogonal to) */
  unsigned long long seed = 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < (size_t)n * (size_t)p; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    X[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
  }
  int converged = 0;
  for (int it = 0; it < 300 && !converged; ++it) {
    st = cosrod_band_solve_multi(S, p, X, n); /* X <- (A - σI)⁻¹ X */
    if (st != COSROD_OK) goto done;
    orthonormalise(n, p, X);
    for (int j = 0; j < p; ++j) cosrod_band_matvec(A, X + (size_t)j * n, AY + (size_t)j * n);
    for (int j = 0; j < p; ++j)
      for (int i = 0; i <= j; ++i) {
        double d = 0.0;
        const double *xi = X + (size_t)i * n, *ay = AY + (size_t)j * n;
        for (int k = 0; k < n; ++k) d += xi[k] * ay[k];
        H[(size_t)j * p + i] = H[(size_t)i * p + j] = d;
      }
    if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'U', p, H, p, th) != 0) {
      st = COSROD_ERR_INTERNAL;
      goto done;
    }
    /* Ritz vectors X V and A X V */
    for (int pass = 0; pass < 2; ++pass) {
      double *src = pass == 0 ? X : AY;
      for (int j = 0; j < p; ++j) {
        double *o = tmp + (size_t)j * n;
        memset(o, 0, sizeof(double) * (size_t)n);
        for (int i = 0; i < p; ++i) {
          const double v = H[(size_t)j * p + i];
          const double *si = src + (size_t)i * n;
          for (int k = 0; k < n; ++k) o[k] += v * si[k];
        }
      }
      memcpy(src, tmp, sizeof(double) * (size_t)n * (size_t)p);
    }
    double scale = fmax(fabs(th[count - 1]), 1e-6 * anorm), rmax = 0.0;
    for (int j = 0; j < count; ++j) {
      double r2 = 0.0;
      const double *x = X + (size_t)j * n, *ax = AY + (size_t)j * n;
      for (int k = 0; k < n; ++k) r2 += (ax[k] - th[j] * x[k]) * (ax[k] - th[j] * x[k]);
      rmax = fmax(rmax, sqrt(r2));
    }
    converged = p == n || rmax <= 1e-10 * scale;
  }
  if (!converged) {
    st = COSROD_ERR_CONVERGENCE;
    goto done;
  }
  memcpy(w, th, sizeof(double) * (size_t)count);
  memcpy(z, X, sizeof(double) * (size_t)n * (size_t)count);
done:
  cosrod_band_free(S);
  free(X);
  free(AY);
  free(H);
  free(th);
  free(tmp);
  return st;
}
