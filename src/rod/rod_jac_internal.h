// SPDX-License-Identifier: Apache-2.0
/* Internals shared by the rod Jacobian files: the per-vertex / per-segment
 * workspace layout of the force derivatives (stage 1, rod_jac_forces.c) that
 * the formulation-specific assembly (stage 2, rod_jac.c) reads, and small
 * fixed-size column-major matrix helpers. */
#ifndef COSROD_ROD_JAC_INTERNAL_H
#define COSROD_ROD_JAC_INTERNAL_H

#include <string.h>

#include "rod/rod_internal.h"

/* ---- workspace layout ------------------------------------------------------ */

enum { VTX_STRIDE = 102, SEG_STRIDE = 144 };

/* vertex n: ∂fx_n/∂x_{n-1+o} (o = 0..2), ∂/∂ẋ, ∂/∂p_{n-1+o} (o = 0, 1), ∂/∂ṗ */
static inline double *VXq(double *w, int n, int o) { return w + (size_t)n * VTX_STRIDE + 9 * o; }
static inline double *VXv(double *w, int n, int o) { return w + (size_t)n * VTX_STRIDE + 27 + 9 * o; }
static inline double *VPq(double *w, int n, int o) { return w + (size_t)n * VTX_STRIDE + 54 + 12 * o; }
static inline double *VPv(double *w, int n, int o) { return w + (size_t)n * VTX_STRIDE + 78 + 12 * o; }
/* segment k: ∂ψ_k/∂x_{k+o} (o = 0, 1), ∂/∂ẋ, ∂/∂p_{k-1+o} (o = 0..2), ∂/∂ṗ */
static inline double *SXq(double *s, int k, int o) { return s + (size_t)k * SEG_STRIDE + 12 * o; }
static inline double *SXv(double *s, int k, int o) { return s + (size_t)k * SEG_STRIDE + 24 + 12 * o; }
static inline double *SPq(double *s, int k, int o) { return s + (size_t)k * SEG_STRIDE + 48 + 16 * o; }
static inline double *SPv(double *s, int k, int o) { return s + (size_t)k * SEG_STRIDE + 96 + 16 * o; }


/* ---- small column-major matrix helpers ------------------------------------ */

/* Always inline the small products so that their sizes are compile-time
 * constants (unrolled, vectorised). */
#if defined(__GNUC__)
#define RJ_INLINE static inline __attribute__((always_inline))
#else
#define RJ_INLINE static inline
#endif

/* C (m x n) = A (m x k) B (k x n) */
RJ_INLINE void mm(double *restrict C, const double *restrict A, const double *restrict B, int m, int k,
                  int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0.0;
      for (int l = 0; l < k; ++l) s += A[i + m * l] * B[l + k * j];
      C[i + m * j] = s;
    }
}
/* C (m x n) += s A (m x k) B (k x n) */
RJ_INLINE void mma(double *restrict C, double s, const double *restrict A, const double *restrict B, int m,
                   int k, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double t = 0.0;
      for (int l = 0; l < k; ++l) t += A[i + m * l] * B[l + k * j];
      C[i + m * j] += s * t;
    }
}
RJ_INLINE void madd(double *restrict C, double s, const double *restrict A, int len) {
  for (int i = 0; i < len; ++i) C[i] += s * A[i];
}
/* Q(p): Q(p) q = p q */
static inline void m_qL(double A[16], const double p[4]) {
  A[0] = p[0], A[1] = p[1], A[2] = p[2], A[3] = p[3];
  A[4] = -p[1], A[5] = p[0], A[6] = p[3], A[7] = -p[2];
  A[8] = -p[2], A[9] = -p[3], A[10] = p[0], A[11] = p[1];
  A[12] = -p[3], A[13] = p[2], A[14] = -p[1], A[15] = p[0];
}
/* Qr(q): Qr(q) p = p q */
static inline void m_qR(double A[16], const double q[4]) {
  A[0] = q[0], A[1] = q[1], A[2] = q[2], A[3] = q[3];
  A[4] = -q[1], A[5] = q[0], A[6] = -q[3], A[7] = q[2];
  A[8] = -q[2], A[9] = q[3], A[10] = q[0], A[11] = -q[1];
  A[12] = -q[3], A[13] = -q[2], A[14] = q[1], A[15] = q[0];
}
/* Qr of the pure quaternion (0 | v) */
static inline void m_qRv(double A[16], const double v[3]) {
  double q[4] = {0.0, v[0], v[1], v[2]};
  m_qR(A, q);
}
/* A <- A C, C = diag(1, -1, -1, -1) (derivative through a conjugate) */
static inline void m_conjc(double *A, int m) {
  for (int i = m; i < 4 * m; ++i) A[i] = -A[i];
}

/* X = ∂(μ♯(p)F)/∂p at fixed F, μ♯(p)F = p (Ī⁻¹ Im(p̄F)) / (4|p|⁴) ([L] eq. 39);
 * the local term of the absolute form's rotation rows (rod_jac.c) and of the
 * Kirchhoff DAE's multiplier terms (rod_kirchhoff_jac.c). */
static inline void rod_jac_dmusharp(double X[16], const double p[4], const double Ib[3], const double F[4]) {
  double n2 = cosrod_quat_norm2(p), sc = 0.25 / (n2 * n2), tq[4], w3[3], h[4], T[16], M3[12], QL[16];
  cosrod_quat_conj_mul(tq, p, F);
  w3[0] = tq[1] / Ib[0], w3[1] = tq[2] / Ib[1], w3[2] = tq[3] / Ib[2];
  cosrod_quat_mul_pure(h, p, w3);
  m_qRv(X, w3);
  for (int i = 0; i < 16; ++i) X[i] *= sc;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) X[i + 4 * j] -= h[i] * p[j] / (n2 * n2 * n2);
  m_qR(T, F);
  m_conjc(T, 4);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) M3[i + 3 * j] = T[i + 1 + 4 * j] / Ib[i];
  m_qL(QL, p);
  mma(X, sc, QL + 4, M3, 4, 3, 4);
}
/* 3x3 R2(p, q) = (2p0q0 - <p,q>) I + p̂q̂ᵀ + q̂p̂ᵀ + p0[q̂]× + q0[p̂]×: R(p) = R2(p, p),
 * dR(p)[q] = 2 R2(p, q). */
static inline void m_R2(double R[9], const double p[4], const double q[4]) {
  double c = 2.0 * p[0] * q[0] - (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) R[i + 3 * j] = p[i + 1] * q[j + 1] + q[i + 1] * p[j + 1] + (i == j ? c : 0.0);
  double s[3] = {p[0] * q[1] + q[0] * p[1], p[0] * q[2] + q[0] * p[2], p[0] * q[3] + q[0] * p[3]};
  R[5] += s[0], R[7] -= s[0]; /* [s]×: (2,1) = s0, (1,2) = -s0 */
  R[6] += s[1], R[2] -= s[1]; /* (0,2) = s1, (2,0) = -s1 */
  R[1] += s[2], R[3] -= s[2]; /* (1,0) = s2, (0,1) = -s2 */
}
static inline void m_T(double *A, int m) { /* in-place transpose of a 3x3 (m == 3 only) */
  (void)m;
  double t;
  t = A[1], A[1] = A[3], A[3] = t;
  t = A[2], A[2] = A[6], A[6] = t;
  t = A[5], A[5] = A[7], A[7] = t;
}

/* ζ, ζ', ζ'' of the curvature variants (ζ, ζ' exactly as rod_zeta). */
static inline void zeta2(cosrod_curvature cv, double c, double *z, double *z1, double *z2) {
  rod_zeta(cv, c, z, z1);
  switch (cv) {
    case COSROD_CURV_SINE2:
      *z2 = 0.0;
      break;
    case COSROD_CURV_SINE4: {
      double u = 1.0 / (1.0 + c);
      *z2 = 0.75 * (*z) * u * u;
      break;
    }
    case COSROD_CURV_TANGENT2:
      *z2 = 2.0 / (c * c * c);
      break;
    case COSROD_CURV_TANGENT4: {
      double u = 1.0 / (1.0 + c);
      *z2 = 4.0 * u * u * u;
      break;
    }
    default: {
      double u = 1.0 - c;
      if (fabs(u) < 1e-3) {
        *z2 = 4.0 / 15.0 + u * (12.0 / 35.0 + u * (96.0 / 315.0));
      } else {
        double cc = c < -1.0 ? -1.0 : c;
        double th = acos(cc), sn = sqrt((1.0 - cc) * (1.0 + cc));
        *z2 = (th * sn * sn + 3.0 * cc * (cc * th - sn)) / (sn * sn * sn * sn * sn);
      }
      break;
    }
  }
}

/* Vertex kernel derivatives: blocks ∂fp/∂p₊ (pp), ∂fp/∂p₋ (pm), ∂fm/∂p₊
 * (mp), ∂fm/∂p₋ (mm), and the rate blocks (suffix d, only if damped). */
typedef struct vtx_blocks {
  double pp[16], pm[16], mp[16], mm[16];
  double ppd[16], pmd[16], mpd[16], mmd[16];
} vtx_blocks;

/* The blocks of the clamped end e's vertex kernel (p₋, p₊ = ghost, p_0 at e = 0;
 * p_{N-1}, ghost at e = 1), d evaluated at the state (rod_jac_end.c). */
void rod_jac_end_vtx_blocks(const cosrod_rod *rod, const cosrod_rod_data *d, int e, int damped, vtx_blocks *b);

/* Stage 1: derivatives of the generalised forces of rod_eval_forces w.r.t.
 * x, ẋ, p, ṗ into d->jacw (layout above); damped: include the rate terms. */
void rod_jac_force_derivs(const cosrod_rod *rod, cosrod_rod_data *d, double t, int damped);

/* Formulation kinds of the assembly (rod_jac.c).  KIND_DAEM: ABSOLUTE rows
 * plus the multiplier rows λ_post(q, v) - λ of the
 * DAE run as a mass-matrix problem (assembled as KIND_ABS with lam_rows).
 * KIND_KDAEM: the same rows for a Kirchhoff rod (its unconstrained part; the
 * constraint terms are added by rod_kirchhoff_jac.c). */
enum { KIND_ABS = 0, KIND_NS = 1, KIND_DAE = 2, KIND_STIFF = 3, KIND_DAEM = 4, KIND_KDAEM = 5 };

/* Stage 2 driver (rod_jac.c): forces and their derivatives at y, then the
 * Jacobian of formulation kind into the nblk destination blocks blk (or,
 * measure = 1, their bandwidths into *ml, *mu); perm: NULL or the node
 * ordering of rod_order.c. */
cosrod_status rod_jac_run(const cosrod_rod *rod, cosrod_rod_data *d, int kind, double t, const double *y,
                          const double *yp, double cj, int nblk, const cosrod_rod_jac_block *blk, int measure,
                          int *ml, int *mu, const int *perm);

#endif
