// SPDX-License-Identifier: Apache-2.0
/* Buckling under non-conservative loads (see statics_buckling.c for the
 * conservative case and the common pencil): the non-symmetric pencil
 * K(μ) φ = -Δ G(μ) φ iterated on the load factor. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "statics/statics_internal.h"

/* ---- non-conservative loads (moments, follower loads, load callback) ----
 * K(μ) is not symmetric, and the singularity of K itself, not of its
 * symmetric part, is the static instability (e.g. Greenhill's shaft under a
 * dead axial torque, 2πEI/L for ball-jointed ends: the adjacent equilibrium
 * EI e3 × u'' + T u' = 0).  Newton-like iteration on the load factor: about
 * the equilibrium at μ_i, the non-symmetric pencil
 *   K(μ_i) φ = -Δ G(μ_i) φ   (LAPACK dggev on the deflated coordinates),
 * μ_{i+1} = μ_i + Δ_min (the real Δ of least |Δ| with μ + Δ > 0), until
 * |Δ| <= 1e-9 μ: there K(μ) is singular, whatever the rotation chart.  The
 * further critical factors: estimates μ* + Δ_j of the last linearisation,
 * each refined by the same iteration from the equilibrium there (roots
 * above the midpoint to the next lower estimate), e.g. Greenhill's second
 * factor T_2(N) = 2 T_1(N/2) of the discrete shaft (the linearised estimate
 * was 1 % off at N = 40). */

/* C = S Vᵀ B V S (m x m, B not symmetric); W (n x m) scratch. */
static void project_full(int n, int m, const double *V, const double *d, const double *B, double *W,
                         double *C) {
  statics_buckling_project(n, m, V, d, B, W, C, 0);
}

typedef struct ns_work {
  double *A, *Gp, *ar, *ai, *be, *VR, *qa, *qb, *qc, *qd;
  int *order;
} ns_work;

/* The pencil K(μ) φ = -Δ G(μ) φ about the equilibrium qa at μ (G by
 * central differences with step eps), solved (dggev; eigenvectors in
 * w->VR); w->order[0 .. *nreal) the real, finite Δ with μ + Δ > floor (>= 0)
 * by |Δ|.  B, W, X: (n x n) scratch. */
static cosrod_status ns_pencil(cosrod_statics *s, double t, double mu, double floor, double eps, ns_work *w,
                               int m, const double *Vm, const double *dm, double *B, double *W, double *X,
                               int *nreal) {
  const int n = statics_buckling_n(s);
  const size_t nq = (size_t)s->nq;
  cosrod_status st = statics_jacobian(s, t, mu, w->qa, s->J);
  if (st != COSROD_OK) return st;
  statics_buckling_pencil_K(s, w->qa, s->J, X, 0);
  project_full(n, m, Vm, dm, X, W, w->A);
  for (int side = 0; side < 2; ++side) {
    const double mus = side == 0 ? mu + eps : mu - eps;
    double *qs = side == 0 ? w->qb : w->qc;
    memcpy(qs, w->qa, sizeof(double) * nq);
    st = statics_buckling_reach(s, t, mu, mus, qs, X);
    if (st == COSROD_OK) st = statics_jacobian(s, t, mus, qs, s->J);
    if (st != COSROD_OK) return st;
    statics_buckling_pencil_K(s, qs, s->J, side == 0 ? B : X, 0);
  }
  for (size_t i = 0; i < (size_t)n * (size_t)n; ++i) B[i] = (X[i] - B[i]) / (2.0 * eps); /* -G */
  project_full(n, m, Vm, dm, B, W, w->Gp);
  lapack_int info =
      LAPACKE_dggev(LAPACK_COL_MAJOR, 'N', 'V', m, w->A, m, w->Gp, m, w->ar, w->ai, w->be, NULL, 1, w->VR, m);
  if (info != 0) return COSROD_ERR_INTERNAL;
  int nr = 0;
  for (int i = 0; i < m; ++i) {
    if (!(fabs(w->be[i]) > 1e-12 * (fabs(w->ar[i]) + fabs(w->ai[i])))) continue;
    /* real: Im Δ relative to μ + |Δ| (not to |Δ|, which vanishes at the root) */
    const double dl = w->ar[i] / w->be[i];
    if (fabs(w->ai[i] / w->be[i]) > 1e-6 * (fabs(mu) + fabs(dl))) continue;
    if (!(mu + dl > floor) || !isfinite(dl)) continue;
    int k = nr++;
    while (k > 0 && fabs(w->ar[w->order[k - 1]] / w->be[w->order[k - 1]]) > fabs(dl))
      w->order[k] = w->order[k - 1], --k;
    w->order[k] = i;
  }
  *nreal = nr;
  return COSROD_OK;
}

/* Mode φ = V_m D^{-1/2} y of eigenvector i of the last pencil into out (nv). */
static void ns_mode(const cosrod_statics *s, const double *q0, const ns_work *w, int i, int m,
                    const double *Vm, const double *dm, double *phi, double *out) {
  const int n = statics_buckling_n(s);
  memset(phi, 0, sizeof(double) * (size_t)n);
  for (int jj = 0; jj < m; ++jj) {
    const double c = w->VR[(size_t)i * m + jj] / sqrt(dm[jj]);
    const double *v = Vm + (size_t)jj * n;
    for (int k = 0; k < n; ++k) phi[k] += c * v[k];
  }
  statics_buckling_store_mode(s, q0, phi, out);
}

/* Newton-like iteration of the pencil from the equilibrium w->qa at *mu:
 * μ += Δ_min (μ + Δ > floor) until |Δ_min| <= 1e-9 μ (K(μ) singular); w->qa
 * follows.  The
 * first iteration may only re-estimate ε (first: the very first solve, at
 * μ = 0 with the fixed ε).  ERR_CONVERGENCE if no real Δ or no root in 40
 * iterations; *imin the eigenvector index of the root's Δ. */
static cosrod_status ns_iterate(cosrod_statics *s, double t, double *mu, double floor, int first, ns_work *w,
                                int m, const double *Vm, const double *dm, double *B, double *W, double *X,
                                int *nreal, int *imin) {
  double eps = first ? BUCKLING_EPS : BUCKLING_REL * 0.05 * *mu;
  for (int it = 0; it < 40; ++it) {
    cosrod_status st = ns_pencil(s, t, *mu, floor, eps, w, m, Vm, dm, B, W, X, nreal);
    if (st != COSROD_OK) return st;
    if (*nreal == 0) return COSROD_ERR_CONVERGENCE;
    *imin = w->order[0];
    const double d1 = w->ar[*imin] / w->be[*imin];
    if ((it >= 1 || !first) && fabs(d1) <= 1e-9 * (*mu + fabs(d1))) return COSROD_OK; /* K(μ) singular */
    if (it == 0 && first) { /* first estimate: redo at μ = 0 with ε relative to it */
      eps = BUCKLING_REL * fabs(d1);
      continue;
    }
    st = statics_buckling_reach(s, t, *mu, *mu + d1, w->qa, X);
    if (st != COSROD_OK) return st;
    *mu += d1;
    eps = BUCKLING_REL * fmax(fabs(d1), 0.05 * *mu);
  }
  return COSROD_ERR_CONVERGENCE;
}

cosrod_status statics_buckling_nonsym(cosrod_statics *s, double t, const double *q0, int count,
                                      double *lambda, double *minimal, int m, const double *Vm,
                                      const double *dm, double *B, double *W, double *X, int *nfound) {
  const int n = s->nv;
  const size_t mm = (size_t)m * (size_t)m, nq = (size_t)s->nq;
  ns_work w;
  cosrod_status st = COSROD_OK;
  w.A = malloc(sizeof(double) * mm), w.Gp = malloc(sizeof(double) * mm), w.VR = malloc(sizeof(double) * mm);
  w.ar = malloc(sizeof(double) * (size_t)m), w.ai = malloc(sizeof(double) * (size_t)m);
  w.be = malloc(sizeof(double) * (size_t)m);
  w.qa = malloc(sizeof(double) * nq), w.qb = malloc(sizeof(double) * nq), w.qc = malloc(sizeof(double) * nq);
  w.qd = malloc(sizeof(double) * nq);
  w.order = malloc(sizeof(int) * (size_t)m);
  double *est = malloc(sizeof(double) * (size_t)count);
  if (!w.A || !w.Gp || !w.VR || !w.ar || !w.ai || !w.be || !w.qa || !w.qb || !w.qc || !w.qd || !w.order ||
      !est) {
    st = COSROD_ERR_NOMEM;
    goto out;
  }
  memcpy(w.qa, q0, sizeof(double) * nq);
  double mu = 0.0;
  int nreal = 0, imin = 0;
  st = ns_iterate(s, t, &mu, 0.0, 1, &w, m, Vm, dm, B, W, X, &nreal, &imin);
  if (st == COSROD_ERR_INTERRUPTED || st == COSROD_ERR_CALLBACK || st == COSROD_ERR_NOMEM ||
      st == COSROD_ERR_INTERNAL || nreal == 0)
    goto out; /* else keep the last linearisation */
  st = COSROD_OK;
  /* critical factors μ + Δ_j of the last linearisation (Δ_j > -μ,
   * ascending by value): the first exact, the others estimates */
  int *order = w.order;
  for (int a = 1; a < nreal; ++a)
    for (int b = a; b > 0 && w.ar[order[b]] / w.be[order[b]] < w.ar[order[b - 1]] / w.be[order[b - 1]]; --b) {
      int tmp = order[b];
      order[b] = order[b - 1], order[b - 1] = tmp;
    }
  int f = 0;
  for (int a = 0; a < nreal && f < count; ++a, ++f) {
    const int i = order[a];
    est[f] = lambda[f] = mu + w.ar[i] / w.be[i];
    if (minimal) ns_mode(s, q0, &w, i, m, Vm, dm, W, minimal + (size_t)f * n);
  }
  *nfound = f;
  /* the further factors refined like the first: the same iteration from
   * the equilibrium at their estimate (from the state at μ*), with roots
   * only above the midpoint to the next lower estimate, kept if it
   * converges nearer to its own estimate than half the gap to the other
   * estimates (else it found another factor: the estimate stands) */
  memcpy(w.qd, w.qa, sizeof(double) * nq);
  const double mu_star = mu;
  for (int j = 0; j < f; ++j) {
    if (fabs(est[j] - mu_star) <= 1e-9 * mu_star) continue; /* the converged root (or its partner) */
    double gap = INFINITY, below = 0.0;
    for (int k = 0; k < f; ++k)
      if (fabs(est[k] - est[j]) > 1e-6 * est[j]) {
        gap = fmin(gap, fabs(est[k] - est[j]));
        if (est[k] < est[j]) below = fmax(below, est[k]);
      }
    double mj = est[j];
    memcpy(w.qa, w.qd, sizeof(double) * nq);
    st = statics_buckling_reach(s, t, mu_star, mj, w.qa, X);
    if (st == COSROD_OK)
      st = ns_iterate(s, t, &mj, 0.5 * (below + est[j]), 0, &w, m, Vm, dm, B, W, X, &nreal, &imin);
    if (st == COSROD_ERR_INTERRUPTED || st == COSROD_ERR_CALLBACK || st == COSROD_ERR_NOMEM) goto out;
    if (st == COSROD_OK && fabs(mj - est[j]) < 0.5 * gap) {
      lambda[j] = mj;
      if (minimal) ns_mode(s, q0, &w, imin, m, Vm, dm, W, minimal + (size_t)j * n);
    }
    st = COSROD_OK;
  }
  /* ascending again (a refined factor may pass an estimate) */
  for (int a = 1; a < f; ++a)
    for (int b = a; b > 0 && lambda[b] < lambda[b - 1]; --b) {
      double tl = lambda[b];
      lambda[b] = lambda[b - 1], lambda[b - 1] = tl;
      if (minimal) {
        double *r0 = minimal + (size_t)(b - 1) * n, *r1 = minimal + (size_t)b * n;
        memcpy(W, r0, sizeof(double) * (size_t)n);
        memcpy(r0, r1, sizeof(double) * (size_t)n);
        memcpy(r1, W, sizeof(double) * (size_t)n);
      }
    }
out:
  free(w.A), free(w.Gp), free(w.VR), free(w.ar), free(w.ai), free(w.be), free(w.qa), free(w.qb), free(w.qc);
  free(w.qd), free(w.order), free(est);
  return st;
}
