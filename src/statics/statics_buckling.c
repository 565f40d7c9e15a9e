// SPDX-License-Identifier: Apache-2.0
/* Buckling about an equilibrium (e.g. Bathe, Finite Element Procedures,
 * 1996, §6.8.2).  The loads at pseudo-time t (gravity, loads, the load
 * callback) are scaled by a load factor μ; K(μ) is the tangent stiffness at
 * the equilibrium under μ times the loads, followed from the unloaded
 * equilibrium μ = 0.  A critical factor is a μ where K(μ) turns singular.
 *
 * Estimates: the linearisation K(λ) ≈ K_0 + λ G, G = dK/dμ by the central
 * difference (K(ε) - K(-ε)) / (2ε) (exact for K quadratic in μ: the O(μ²)
 * prebuckling-rotation terms of the stiff shear/extension energy, ∝ GA/Δs θ²,
 * drop out), K_0 φ = -λ G φ; two passes, ε = 1e-4 then 0.02 |λ|_min.
 * Segment rotations in spatial components (dense_K), so that matrices of
 * states whose frames have rotated are comparable.
 *
 * The pencil: K_0 = V D Vᵀ (dsyev on the dense symmetric part); rigid null
 * modes (D_i <= 1e-13 max D, e.g. the spin of a shaft pinned at both ends)
 * are deflated, not shifted (a shift of 1e-12 max D is of the order of the
 * bending energy of soft modes: it made clamped–free Euler converge at order
 * 1.5 and Prandtl's strip buckle 10x too low); on the rest
 *   C = D^{-1/2} V_mᵀ (-G) V_m D^{-1/2},   C y = θ y,   θ = 1/λ.
 * A null mode that the loads destabilise (a column standing on a pin) is a
 * mechanism: λ = 0.
 *
 * Refinement (conservative loads, K symmetric): each estimate is refined to
 * the root of ρ_j(μ), the j-th eigenvalue of D^{-1/2} V_mᵀ K(μ) V_m D^{-1/2}
 * (secant / Illinois regula falsi, refine_root): independent of the rotation
 * chart, which any linearisation K_0 + μ G is not (the material chart misses
 * the frame rotation of a twisted shaft, the spatial one that of a bent
 * strip), and including the prebuckling deflections (none for straight
 * columns).  Non-conservative loads: statics_buckling_nonsym.c. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "statics/statics_internal.h"

/* K = -sym(J) (J = dr/dδ, dense n x n) in spatial rotation coordinates:
 * the chart p exp(δθ/2) of segment k is exp(R(p) δθ / 2) p, so with
 * δθ = R(p)ᵀ δθ_s the segment rows and columns become R K Rᵀ.  Stiffness
 * matrices of states whose frames have rotated (the twist of a shaft, the
 * bending of a strip) are thereby in the same coordinates; in material
 * ones their difference would carry the frame rotation itself. */
static void dense_K(const cosrod_statics *s, const double *q, const cosrod_band *J, double *K, int sym) {
  const int n = s->nv;
  memset(K, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (cosrod_band_in_band(J, i, j)) {
        double v = -cosrod_band_get(J, i, j);
        if (!sym) {
          K[(size_t)j * n + i] = v;
          continue;
        }
        K[(size_t)j * n + i] += 0.5 * v;
        K[(size_t)i * n + j] += 0.5 * v;
      }
  for (int r = 0; r <= s->nparts; ++r) {
    const statics_part *pt = r < s->nparts ? &s->part[r] : NULL;
    const int nk = pt ? pt->rv.N : s->nblk; /* rigid blocks last: their δθ like a segment's */
    for (int k = 0; k < nk; ++k) {
      const double *p = pt ? q + pt->q0 + pt->rv.qs[k] : q + s->nq_rods + 7 * k + 3;
      const int o = pt ? pt->v0 + pt->os[k] : s->bv0[k] + 3;
      double v[3], w[3];
      for (int j = 0; j < n; ++j) { /* rows: R K */
        for (int a = 0; a < 3; ++a) v[a] = K[(size_t)j * n + o + a];
        cosrod_quat_rotate(w, p, v);
        for (int a = 0; a < 3; ++a) K[(size_t)j * n + o + a] = w[a];
      }
      for (int i = 0; i < n; ++i) { /* columns: K Rᵀ */
        for (int a = 0; a < 3; ++a) v[a] = K[(size_t)(o + a) * n + i];
        cosrod_quat_rotate(w, p, v);
        for (int a = 0; a < 3; ++a) K[(size_t)(o + a) * n + i] = w[a];
      }
    }
  }
}

/* Size of the matrices of the pencil: nv, or the reduced nr with multipliers. */
int statics_buckling_n(const cosrod_statics *s) { return s->bred ? s->bred->nr : s->nv; }

/* The pencil's K: dense_K, with multipliers reduced to the constraints'
 * tangent space (statics_buckling_kkt.c; the singular case is left to the
 * Cholesky there: a zero matrix, no critical factor). */
void statics_buckling_pencil_K(cosrod_statics *s, const double *q, const cosrod_band *J, double *K, int sym) {
  if (!s->bred) {
    dense_K(s, q, J, K, sym);
    return;
  }
  dense_K(s, q, J, s->bred->F, 0);
  if (statics_bred_reduce(s, s->bred->F, K, sym) != COSROD_OK)
    memset(K, 0, sizeof(double) * (size_t)statics_buckling_n(s) * (size_t)statics_buckling_n(s));
}

static void dense_sym_K(cosrod_statics *s, const double *q, const cosrod_band *J, double *K) {
  statics_buckling_pencil_K(s, q, J, K, 1);
}

/* -G = -dK/dμ at μ = 0 by the central difference (K(-ε) - K(+ε)) / (2ε)
 * into B, both states corrected from q0 (the unloaded equilibrium); qw (nq)
 * and W (n x n) are scratch. */
static cosrod_status load_derivative(cosrod_statics *s, double t, double eps, const double *q0, double *qw,
                                     double *W, double *B) {
  const int n = statics_buckling_n(s);
  for (int side = 0; side < 2; ++side) {
    double mu = side == 0 ? eps : -eps;
    memcpy(qw, q0, sizeof(double) * (size_t)s->nq);
    cosrod_status st = statics_correct_at(s, t, mu, qw);
    if (st == COSROD_OK) st = statics_jacobian(s, t, mu, qw, s->J);
    if (st != COSROD_OK) return st;
    dense_sym_K(s, qw, s->J, side == 0 ? B : W);
  }
  for (size_t i = 0; i < (size_t)n * (size_t)n; ++i) B[i] = (W[i] - B[i]) / (2.0 * eps);
  return COSROD_OK;
}

/* C = S Vᵀ B V S on the m kept columns V (n x m, from column z0 of the
 * eigenvectors V0), S = diag(d^{-1/2}); W (n x m) scratch; C (m x m).
 * sym: B symmetric (the upper triangle computed and mirrored). */
void statics_buckling_project(int n, int m, const double *V, const double *d, const double *B, double *W,
                              double *C, int sym) {
  for (int j = 0; j < m; ++j) { /* W = B V */
    double *w = W + (size_t)j * n;
    memset(w, 0, sizeof(double) * (size_t)n);
    for (int k = 0; k < n; ++k) {
      const double v = V[(size_t)j * n + k];
      if (v == 0.0) continue;
      const double *b = B + (size_t)k * n;
      for (int i = 0; i < n; ++i) w[i] += b[i] * v;
    }
  }
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < (sym ? j + 1 : m); ++i) {
      const double *vi = V + (size_t)i * n, *wj = W + (size_t)j * n;
      double c = 0.0;
      for (int k = 0; k < n; ++k) c += vi[k] * wj[k];
      c /= sqrt(d[i] * d[j]);
      C[(size_t)j * m + i] = c;
      if (sym) C[(size_t)i * m + j] = c;
    }
}

static void project(int n, int m, const double *V, const double *d, const double *B, double *W, double *C) {
  statics_buckling_project(n, m, V, d, B, W, C, 1);
}

/* ρ_j(μ): the j-th lowest eigenvalue of D^{-1/2} V_mᵀ K(μ) V_m D^{-1/2} (1 at
 * μ = 0 for every j), K(μ) at the equilibrium under μ times the loads,
 * reached from qw at mu_from (in place); y (m) its eigenvector. */
static cosrod_status rho_at(cosrod_statics *s, double t, double mu_from, double mu, double *qw, int n, int m,
                            const double *Vm, const double *dm, int j, double *B, double *W, double *C,
                            double *th, double *rho, double *y) {
  cosrod_status st = statics_buckling_reach(s, t, mu_from, mu, qw, W); /* W: scratch until project() */
  if (st == COSROD_OK) st = statics_jacobian(s, t, mu, qw, s->J);
  if (st != COSROD_OK) return st;
  dense_sym_K(s, qw, s->J, B);
  project(n, m, Vm, dm, B, W, C);
  /* only the j-th eigenpair (MRRR: O(m²) after the tridiagonal reduction) */
  lapack_int found = 0, isuppz[2];
  if (LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'V', 'I', 'U', m, C, m, 0.0, 0.0, j + 1, j + 1, 0.0, &found, th, y, m,
                     isuppz) != 0 ||
      found != 1)
    return COSROD_ERR_INTERNAL;
  *rho = th[0];
  return COSROD_OK;
}

/* The critical factor of mode j as the root of ρ_j(μ) (the singularity of
 * K(μ) along the prebuckling path, independent of the rotation chart, unlike
 * the linearisation K_0 + μ G, which in any chart misses either the frame
 * rotation of a twisted shaft or that of a bent strip): secant / regula
 * falsi (Illinois) from (0, 1) and the linearised estimate lam, steps capped
 * at 4x; the equilibria continue from the last one below the root.  On
 * return *lam is the root (unchanged if an equilibrium fails: the
 * linearised estimate stands), y (m) the null vector there. */
static void refine_root(cosrod_statics *s, double t, const double *q0, double *qa, double *qw, int n, int m,
                        const double *Vm, const double *dm, int j, double *B, double *W, double *C,
                        double *th, double *lam, double *y) {
  const size_t nq = (size_t)s->nq;
  double lo = 0.0, flo = 1.0, p0 = 0.0, f0 = 1.0, hi = INFINITY, fhi = NAN, x = *lam;
  int last = 0; /* Illinois: which end the previous step replaced (-1 lo, +1 hi) */
  memcpy(qa, q0, sizeof(double) * nq);
  for (int it = 0; it < 60; ++it) {
    double fx;
    memcpy(qw, qa, sizeof(double) * nq);
    if (rho_at(s, t, lo, x, qw, n, m, Vm, dm, j, B, W, C, th, &fx, y) != COSROD_OK) {
      hi = x, fhi = NAN; /* no equilibrium there: beyond the root (or a fold) */
    } else if (fx > 0.0) {
      p0 = lo, f0 = flo;
      lo = x, flo = fx;
      memcpy(qa, qw, sizeof(double) * nq);
      if (last == -1 && isfinite(fhi)) fhi *= 0.5;
      last = -1;
      *lam = x;
    } else {
      hi = x, fhi = fx;
      if (last == 1) flo *= 0.5;
      last = 1;
      *lam = x;
    }
    if (isfinite(hi) && hi - lo <= 1e-10 * hi) break;
    const double xold = x;
    if (!isfinite(hi)) { /* secant through the last two points below the root, at most 4x on */
      x = f0 > flo ? lo + flo * (lo - p0) / (f0 - flo) : 4.0 * lo;
      if (!(x > lo) || x > 4.0 * lo) x = 4.0 * lo;
    } else if (isfinite(fhi)) { /* regula falsi (Illinois) */
      x = lo + flo * (hi - lo) / (flo - fhi);
      if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    } else {
      x = 0.5 * (lo + hi);
    }
    if (fabs(x - xold) <= 1e-10 * fabs(xold) && isfinite(fhi)) { /* converged secant step */
      *lam = x;
      break;
    }
  }
}

/* A mode φ (n = bn, spatial rotation coordinates) into out (nv): unit length,
 * largest entry positive, segment rotations back to material ones at q0. */
void statics_buckling_store_mode(const cosrod_statics *s, const double *q0, const double *phi, double *out) {
  const int n = s->nv;
  if (s->bred) { /* reduced coordinates: φ = Z0 y */
    statics_bred_expand(s, phi);
    phi = s->bred->e;
  }
  double big = 0.0, nr = 0.0;
  for (int k = 0; k < n; ++k) {
    nr += phi[k] * phi[k];
    if (fabs(phi[k]) > fabs(big)) big = phi[k];
  }
  const double sc = (big < 0.0 ? -1.0 : 1.0) / sqrt(nr);
  for (int k = 0; k < n; ++k) out[k] = sc * phi[k];
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *pt = &s->part[r];
    for (int k = 0; k < pt->rv.N; ++k) {
      double *th3 = out + pt->v0 + pt->os[k], w[3];
      cosrod_quat_rotate_inv(w, q0 + pt->q0 + pt->rv.qs[k], th3);
      memcpy(th3, w, sizeof w);
    }
  }
  for (int b = 0; b < s->nblk; ++b) { /* rigid blocks */
    double *th3 = out + s->bv0[b] + 3, w[3];
    cosrod_quat_rotate_inv(w, q0 + s->nq_rods + 7 * b + 3, th3);
    memcpy(th3, w, sizeof w);
  }
}

/* The equilibrium at μ_to from q (at μ_from), in up to 64 sub-steps. */
cosrod_status statics_buckling_reach(cosrod_statics *s, double t, double mu_from, double mu_to, double *q,
                                     double *qw) {
  for (int k = 1; k <= 64; k *= 2) {
    memcpy(qw, q, sizeof(double) * (size_t)s->nq);
    cosrod_status st = COSROD_OK;
    for (int i = 1; i <= k && st == COSROD_OK; ++i)
      st = statics_correct_at(s, t, mu_from + (mu_to - mu_from) * i / k, qw);
    if (st == COSROD_OK) {
      memcpy(q, qw, sizeof(double) * (size_t)s->nq);
      return COSROD_OK;
    }
    if (st == COSROD_ERR_INTERRUPTED || st == COSROD_ERR_CALLBACK) return st;
  }
  return COSROD_ERR_CONVERGENCE;
}

/* Mechanisms: a rigid motion of the unloaded rods (the null space Z of K_0,
 * the first z0 columns of V, n x n) that the loads destabilise buckles at
 * λ = 0 (e.g. a column standing on a pin): the eigenpairs of Zᵀ(-G)Z
 * (z0 x z0, B = -G) with a positive value, at most count, into lambda and
 * minimal.  Gz (z0 x z0), gz (z0), W (n) scratch.  Returns the number
 * found, -1 if LAPACK fails. */
static int mechanisms(const cosrod_statics *s, const double *q0, int n, int z0, const double *V,
                      const double *B, double *Gz, double *gz, double *W, int count, double *lambda,
                      double *minimal) {
  const int nvo = s->nv;
  int found = 0;
  double bmax = 0.0;
  for (int i = 0; i < n; ++i) bmax = fmax(bmax, fabs(B[(size_t)i * n + i]));
  for (int a = 0; a < z0; ++a)
    for (int b = 0; b <= a; ++b) {
      const double *va = V + (size_t)a * n, *vb = V + (size_t)b * n;
      double g = 0.0;
      for (int k = 0; k < n; ++k) {
        const double *bk = B + (size_t)k * n;
        double bv = 0.0;
        for (int i = 0; i < n; ++i) bv += bk[i] * va[i];
        g += vb[k] * bv;
      }
      Gz[(size_t)a * z0 + b] = Gz[(size_t)b * z0 + a] = g;
    }
  if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'U', z0, Gz, z0, gz) != 0) return -1;
  for (int a = z0 - 1; a >= 0 && found < count; --a) {
    if (!(gz[a] > 1e-9 * bmax)) break;
    lambda[found] = 0.0;
    if (minimal) {
      double *phi = W;
      memset(phi, 0, sizeof(double) * (size_t)n);
      for (int b = 0; b < z0; ++b)
        for (int k = 0; k < n; ++k) phi[k] += Gz[(size_t)a * z0 + b] * V[(size_t)b * n + k];
      statics_buckling_store_mode(s, q0, phi, minimal + (size_t)found * nvo);
    }
    ++found;
  }
  return found;
}

/* Sort lambda[0 .. found) ascending with the modes (nv each) of minimal. */
static void sort_modes(int found, int nvo, double *lambda, double *minimal) {
  for (int f = 1; f < found; ++f)
    for (int g = f; g > 0 && lambda[g] < lambda[g - 1]; --g) {
      double tl = lambda[g];
      lambda[g] = lambda[g - 1], lambda[g - 1] = tl;
      if (minimal)
        for (int k = 0; k < nvo; ++k) {
          double tv = minimal[(size_t)g * nvo + k];
          minimal[(size_t)g * nvo + k] = minimal[(size_t)(g - 1) * nvo + k],
                                    minimal[(size_t)(g - 1) * nvo + k] = tv;
        }
    }
}

cosrod_status cosrod_statics_buckling(cosrod_statics *s, double t, const double *q, int count, double *lambda,
                                      double *minimal) {
  if (!s || !q || !lambda || count < 1 || count > s->nv) return COSROD_ERR_INVALID;
  /* multipliers (joints, Kirchhoff rods' constraints): on their tangent space */
  const int nvo = s->nv, nq = s->nq, mult = statics_mult_indices(s, NULL) > 0;
  int n = nvo; /* the pencil's size: nv, or nr on the constraints' tangent space */
  const size_t nn = (size_t)n * (size_t)n;
  cosrod_status st = COSROD_OK;
  double *q1 = malloc(sizeof(double) * (size_t)nq), *q0 = malloc(sizeof(double) * (size_t)nq);
  double *V = malloc(sizeof(double) * nn), *B = malloc(sizeof(double) * nn), *W = malloc(sizeof(double) * nn);
  double *C = malloc(sizeof(double) * nn), *d = malloc(sizeof(double) * (size_t)n);
  double *th = malloc(sizeof(double) * (size_t)n), *qw = malloc(sizeof(double) * (size_t)nq);
  double *yv = malloc(sizeof(double) * (size_t)n);
  if (!q1 || !q0 || !V || !B || !W || !C || !d || !th || !qw || !yv) {
    st = COSROD_ERR_NOMEM;
    goto done;
  }
  memcpy(q0, q, sizeof(double) * (size_t)nq);
  st = statics_correct_at(s, t, 0.0, q0); /* the unloaded equilibrium */
  if (st == COSROD_OK) st = statics_jacobian(s, t, 0.0, q0, s->J);
  if (st != COSROD_OK) goto done;
  if (mult) { /* the tangent space of the constraints there (statics_buckling_kkt.c) */
    dense_K(s, q0, s->J, V, 0);
    st = statics_bred_create(s, V);
    if (st != COSROD_OK) goto done;
    n = s->bred->nr;
  }
  dense_sym_K(s, q0, s->J, V);
  if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'U', n, V, n, d) != 0) {
    st = COSROD_ERR_INTERNAL;
    goto done;
  }
  /* keep the columns z0 .. n-1 (ascending D: the null modes come first;
   * a negative D, an unstable unloaded state, is deflated as well) */
  int z0 = 0;
  while (z0 < n && !(d[z0] > BUCKLING_NULL * d[n - 1])) ++z0;
  const int m = n - z0;
  const double *Vm = V + (size_t)z0 * n, *dm = d + z0;
  if (m == 0) {
    st = COSROD_ERR_SINGULAR;
    goto done;
  }
  if (!(mult ? s->dead_red : s->dead_loads)) { /* non-conservative loads: the non-symmetric pencil */
    int nf = 0;
    st = statics_buckling_nonsym(s, t, q0, count, lambda, minimal, m, Vm, dm, B, W, C, &nf);
    if (st != COSROD_OK) goto done;
    for (int i = nf; i < count; ++i) lambda[i] = INFINITY;
    st = nf > 0 ? COSROD_OK : COSROD_ERR_CONVERGENCE;
    goto done;
  }
  double eps = BUCKLING_EPS;
  for (int pass = 0; pass < 2; ++pass) {
    st = load_derivative(s, t, eps, q0, q1, W, B);
    if (st != COSROD_OK) goto done;
    project(n, m, Vm, dm, B, W, C);
    if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'U', m, C, m, th) != 0) {
      st = COSROD_ERR_INTERNAL;
      goto done;
    }
    const double thmax = fmax(fabs(th[0]), fabs(th[m - 1]));
    if (pass == 1 || !(thmax > 0.0)) break;
    eps = BUCKLING_REL / thmax;
  }
  /* mechanisms: a rigid motion of the unloaded rods (null space Z of K_0)
   * that the loads destabilise buckles at λ = 0 (e.g. a column standing on
   * a pin): the eigenpairs of Zᵀ(-G)Z (z0 x z0) with a positive value */
  int found = 0;
  if (z0 > 0) { /* th has n >= m + z0 entries; C is free until the refinement */
    found = mechanisms(s, q0, n, z0, V, B, C, th + m, W, count, lambda, minimal);
    if (found < 0) {
      st = COSROD_ERR_INTERNAL;
      goto done;
    }
  }
  const int nmech = found;
  /* λ = 1/θ for θ > 0: the largest θ first (the linearised estimates) */
  const double thmax = fmax(fabs(th[0]), fabs(th[m - 1]));
  for (int i = m - 1; i >= 0 && found < count; --i) {
    if (!(th[i] > 1e-9 * thmax)) break;
    lambda[found++] = 1.0 / th[i];
  }
  /* each refined to the root of ρ_j (j-th lowest eigenvalue of K(μ) on the
   * elastic modes) */
  for (int f = nmech; f < found; ++f) {
    /* a degenerate partner (a round section's second plane) starts from the first's root */
    if (f > nmech && fabs(lambda[f] - lambda[f - 1]) <= 1e-6 * lambda[f]) lambda[f] = lambda[f - 1];
    refine_root(s, t, q0, q1, qw, n, m, Vm, dm, f - nmech, B, W, C, th, lambda + f, yv);
    if (minimal) {
      double *phi = W; /* φ = V_m D^{-1/2} y */
      memset(phi, 0, sizeof(double) * (size_t)n);
      for (int jj = 0; jj < m; ++jj) {
        const double c = yv[jj] / sqrt(dm[jj]);
        const double *v = Vm + (size_t)jj * n;
        for (int k = 0; k < n; ++k) phi[k] += c * v[k];
      }
      statics_buckling_store_mode(s, q0, phi, minimal + (size_t)f * nvo);
    }
  }
  /* sort ascending (refinement may reorder close modes) */
  sort_modes(found, nvo, lambda, minimal);
  for (int i = found; i < count; ++i) lambda[i] = INFINITY;
  st = found > 0 ? COSROD_OK : COSROD_ERR_CONVERGENCE;
done:
  statics_bred_free(s);
  free(q1);
  free(q0);
  free(V);
  free(B);
  free(W);
  free(C);
  free(d);
  free(th);
  free(qw);
  free(yv);
  return st;
}
