// SPDX-License-Identifier: Apache-2.0
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
 * vectors): N = 640 (n = 3843) in well under a second.
 *
 * Constrained (statics_band_eig_lowest_kkt): the eigenpairs of A on the
 * null space of linear constraints B u = 0, the band holding the KKT
 * matrix [A Bᵀ; B 0] with the multiplier rows / columns at cidx.  The
 * shifted solve [A - σI, Bᵀ; B, 0] (y; μ) = (x; 0) is the inverse of the
 * projected Zᵀ(A - σI)Z (Z a basis of null B) applied to x, so y lies in
 * null B and the iteration is the one above on Zᵀ A Z without forming Z;
 * the residual is measured projected, P (A x - θ x) with
 * P = I - Bᵀ(BBᵀ)⁻¹B: B (nc x n) stored dense but each row used on its
 * band columns only, BBᵀ by banded Cholesky (rows sorted by index: joint
 * rows, and the Kirchhoff rods' m per segment, whose neighbours alone
 * overlap), O(n kd) per projection. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "statics/statics_internal.h"

typedef struct eig_con {
  int nc;
  const char *isc; /* (n) 1 at a multiplier index */
  const double *B; /* (nc x wb) row a: its columns lo[a] .. hi[a] - 1 (0 at multiplier columns) */
  const int *lo, *hi; /* (nc) */
  int wb;
  const double *L; /* ((kb + 1) x nc) banded Cholesky factor of B Bᵀ (LAPACK 'L' band storage) */
  int kb;          /* its bandwidth */
  double *tmp;     /* (nc) */
} eig_con;

/* v <- P v (and 0 at the multiplier entries); nothing without constraints. */
static void project(const eig_con *c, int n, double *v) {
  if (!c || c->nc == 0) return;
  for (int i = 0; i < n; ++i)
    if (c->isc[i]) v[i] = 0.0;
  for (int a = 0; a < c->nc; ++a) {
    double d = 0.0;
    const double *b = c->B + (size_t)a * c->wb;
    for (int k = c->lo[a]; k < c->hi[a]; ++k) d += b[k - c->lo[a]] * v[k];
    c->tmp[a] = d;
  }
  LAPACKE_dpbtrs_work(LAPACK_COL_MAJOR, 'L', c->nc, c->kb, 1, c->L, c->kb + 1, c->tmp, c->nc);
  for (int a = 0; a < c->nc; ++a) {
    const double *b = c->B + (size_t)a * c->wb;
    for (int k = c->lo[a]; k < c->hi[a]; ++k) v[k] -= c->tmp[a] * b[k - c->lo[a]];
  }
}

/* Orthonormalise the p columns of Y (n x p) in place; a column that
 * vanishes against the previous ones is replaced by a (projected) unit vector. */
static void orthonormalise(int n, int p, double *Y, const eig_con *c) {
  for (int pass = 0; pass < 2; ++pass)
    for (int j = 0, tries = 0; j < p; ++j) {
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
      if (!(nr > 1e-300) && tries < n) {
        memset(yj, 0, sizeof(double) * (size_t)n);
        yj[((j + tries++) * 7919) % n] = 1.0;
        project(c, n, yj);
        --j; /* re-orthogonalise the replacement */
        continue;
      }
      for (int k = 0; k < n; ++k) yj[k] /= nr;
    }
}

static cosrod_status eig_lowest(const cosrod_band *A, const eig_con *c, int count, double *w, double *z) {
  const int n = A->n, nfree = n - 2 * (c ? c->nc : 0); /* dim null B: the u entries less the rows */
  if (count < 1 || count > nfree) return COSROD_ERR_INVALID;
  int p = 2 * count > count + 8 ? 2 * count : count + 8;
  if (p > nfree) p = nfree;
  cosrod_status st = COSROD_OK;
  cosrod_band *S = cosrod_band_create(n, A->ml, A->mu, NULL);
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
  for (int i = 0; i < n; ++i)
    if (!c || !c->isc[i]) cosrod_band_add(S, i, i, -sigma);
  st = cosrod_band_factor(S);
  if (st != COSROD_OK) goto done;
  /* start: deterministic pseudo-random vectors (no structure that a mode
   * could be orthogonal to) */
  unsigned long long seed = 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < (size_t)n * (size_t)p; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    X[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
  }
  for (int j = 0; c && j < p; ++j) project(c, n, X + (size_t)j * n);
  int converged = 0;
  for (int it = 0; it < 300 && !converged; ++it) {
    st = cosrod_band_solve_multi(S, p, X, n); /* X <- (A - σI)⁻¹ X */
    if (st != COSROD_OK) goto done;
    for (int j = 0; c && j < p; ++j) /* drop the multipliers μ (and the roundoff off null B) */
      project(c, n, X + (size_t)j * n);
    orthonormalise(n, p, X, c);
    for (int j = 0; j < p; ++j) {
      double *ay = AY + (size_t)j * n;
      cosrod_band_matvec(A, X + (size_t)j * n, ay);
      for (int i = 0; c && i < n; ++i)
        if (c->isc[i]) ay[i] = 0.0; /* B x = 0: the rows of A alone */
    }
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
      double r2 = 0.0, *r = tmp; /* P (A x - θ x) */
      const double *x = X + (size_t)j * n, *ax = AY + (size_t)j * n;
      for (int k = 0; k < n; ++k) r[k] = ax[k] - th[j] * x[k];
      project(c, n, r);
      for (int k = 0; k < n; ++k) r2 += r[k] * r[k];
      rmax = fmax(rmax, sqrt(r2));
    }
    converged = p == nfree || rmax <= 1e-10 * scale;
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

cosrod_status statics_band_eig_lowest(const cosrod_band *A, int count, double *w, double *z) {
  return eig_lowest(A, NULL, count, w, z);
}

static int cmp_int(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

cosrod_status statics_band_eig_lowest_kkt(const cosrod_band *A, int nc, const int *cidx, int count, double *w,
                                          double *z) {
  const int n = A->n;
  if (nc == 0) return eig_lowest(A, NULL, count, w, z);
  if (nc < 0 || 2 * nc >= n || !cidx) return COSROD_ERR_INVALID;
  cosrod_status st = COSROD_OK;
  char *isc = calloc((size_t)n, 1);
  const int wb = A->ml + A->mu + 1;
  double *B = calloc((size_t)nc * (size_t)wb, sizeof(double));
  double *t = calloc((size_t)nc, sizeof(double)), *L = NULL;
  int *lo = calloc(3 * (size_t)nc, sizeof(int)), *hi = lo + nc, *ci = lo + 2 * nc;
  if (!isc || !B || !t || !lo) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  memcpy(ci, cidx, sizeof(int) * (size_t)nc);
  qsort(ci, (size_t)nc, sizeof(int), cmp_int);
  for (int a = 0; a < nc; ++a) {
    if (ci[a] < 0 || ci[a] >= n || isc[ci[a]]) {
      st = COSROD_ERR_INVALID;
      goto done;
    }
    isc[ci[a]] = 1;
  }
  for (int a = 0; a < nc; ++a) {
    lo[a] = ci[a] - A->ml < 0 ? 0 : ci[a] - A->ml;
    hi[a] = ci[a] + A->mu + 1 > n ? n : ci[a] + A->mu + 1;
    for (int j = lo[a]; j < hi[a]; ++j)
      if (!isc[j] && cosrod_band_in_band(A, ci[a], j)) B[(size_t)a * wb + j - lo[a]] = cosrod_band_get(A, ci[a], j);
  }
  int kb = 0; /* the bandwidth of B Bᵀ: rows whose column ranges overlap */
  for (int a = 0; a < nc; ++a)
    for (int b = 0; b < a - kb; ++b)
      if (lo[a] < hi[b] && lo[b] < hi[a]) kb = a - b;
  const int ld = kb + 1;
  L = calloc((size_t)ld * (size_t)nc, sizeof(double));
  if (!L) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  /* B Bᵀ and its Cholesky factor; a rank-deficient B (redundant constraints) is singular */
  double dmax = 0.0;
  for (int b = 0; b < nc; ++b)
    for (int a = b; a <= b + kb && a < nc; ++a) {
      double d = 0.0;
      const int k0 = lo[a] > lo[b] ? lo[a] : lo[b], k1 = hi[a] < hi[b] ? hi[a] : hi[b];
      const double *ba = B + (size_t)a * wb, *bb = B + (size_t)b * wb;
      for (int k = k0; k < k1; ++k) d += ba[k - lo[a]] * bb[k - lo[b]];
      L[(size_t)b * ld + (a - b)] = d;
      if (a == b) dmax = fmax(dmax, d);
    }
  if (LAPACKE_dpbtrf_work(LAPACK_COL_MAJOR, 'L', nc, kb, L, ld) != 0) {
    st = COSROD_ERR_SINGULAR;
    goto done;
  }
  for (int a = 0; a < nc; ++a) /* pivots relative to the largest row: a (near) dependent row */
    if (!(L[(size_t)a * ld] * L[(size_t)a * ld] > 1e-12 * dmax)) {
      st = COSROD_ERR_SINGULAR;
      goto done;
    }
  eig_con c = {nc, isc, B, lo, hi, wb, L, kb, t};
  st = eig_lowest(A, &c, count, w, z);
done:
  free(isc);
  free(B);
  free(L);
  free(t);
  free(lo);
  return st;
}
