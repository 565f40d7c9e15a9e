// SPDX-License-Identifier: Apache-2.0
/* Medium (external viscous) damping of the discrete rod: a
 * surrounding fluid or air resists the motion of the centreline and the
 * rotation of the cross-sections, independently of the strain rates that
 * Kelvin–Voigt damping sees.
 *
 *   distributed force   f = -c_t ẋ   per length (c_t in N s/m^2),
 *   distributed moment  m = -c_r Ω   per length, material frame (c_r in N s),
 *
 * lumped like the masses: vertex n gets -c_t δs_n ẋ_n (δs_n the trapezoidal
 * weights), segment k the material moment M̂_k = -c_r Δs_k Ω_k with
 * Ω = 2 Im(p̄ṗ), entering the quaternion force as ψ_k += 2 p M̂ (as a load
 * moment, [LLA] eq. 21).  Both are -∂D/∂q̇ of the Rayleigh function
 * D = ½ Σ c_t δs_n |ẋ_n|² + ½ Σ c_r Δs_k |Ω_k|² (|p| = 1), the dissipation
 * rate is 2D.  For a free rigid motion the elastic forces vanish and, since
 * the lumped masses are ρA δs_n and the segment inertias ρΔs(I1, I2, J),
 * each velocity decays as exp(-c_t t/(ρA)) and each angular velocity
 * component as exp(-c_r t/(ρI_i)) (tests/rod/test_rod_medium.c).
 *
 * Derivatives (stage 1 workspaces, rod_jac_internal.h), with
 * w = p̄ṗ, Π = diag(0, 1, 1, 1), ψ = -4 c_r Δs p (Π w):
 *   ∂f_n/∂ẋ_n = -c_t δs_n I,
 *   ∂ψ/∂ṗ = -4 c_r Δs Q(p) Π Q(p̄),
 *   ∂ψ/∂p = -4 c_r Δs (Qr(Π w) + Q(p) Π Qr(ṗ) C),  C = diag(1, -1, -1, -1). */
#include "rod/rod_jac_internal.h"

double rod_medium_forces(const cosrod_rod *rod, cosrod_rod_data *d) {
  const int N = rod->N;
  double D = 0.0;
  if (rod->cmed_t > 0.0) {
    for (int n = 0; n <= N; ++n) {
      double c = rod->cmed_t * rod->w[n];
      const double *xd = d->xd + 3 * n;
      cosrod_vec3_axpy(d->fx + 3 * n, -c, xd);
      D += c * cosrod_vec3_norm2(xd);
    }
  }
  if (rod->cmed_r > 0.0) {
    for (int k = 0; k < N; ++k) {
      const double *p = d->p + 4 * k, *pd = d->pd + 4 * k;
      double Om[3], Mh[3], r[4];
      cosrod_quat_omega(Om, p, pd);
      cosrod_vec3_scale(Mh, -rod->cmed_r * rod->ds[k], Om);
      cosrod_quat_mul_pure(r, p, Mh);
      rq_axpy(d->fp + 4 * k, 2.0, r);
      D -= 2.0 * cosrod_quat_dot(r, pd); /* power of the moment, <ψ, ṗ> */
    }
  }
  return D;
}

void rod_medium_jac(const cosrod_rod *rod, const cosrod_rod_data *d, double *wv, double *ws) {
  const int N = rod->N;
  if (rod->cmed_t > 0.0) {
    for (int n = 0; n <= N; ++n) {
      double *B = VXv(wv, n, 1), c = rod->cmed_t * rod->w[n];
      B[0] -= c, B[4] -= c, B[8] -= c;
    }
  }
  if (rod->cmed_r > 0.0) {
    for (int k = 0; k < N; ++k) {
      const double *p = d->p + 4 * k, *pd = d->pd + 4 * k;
      const double s = -4.0 * rod->cmed_r * rod->ds[k];
      double pc[4] = {p[0], -p[1], -p[2], -p[3]}, w[4], QLp[16], QLpc[16], QRpd[16], QRw[16], T[16];
      cosrod_quat_conj_mul(w, p, pd);
      w[0] = 0.0; /* Π w */
      m_qL(QLp, p);
      m_qL(QLpc, pc);
      /* ∂ψ/∂ṗ = s Q(p) Π Q(p̄): zero the first row of Q(p̄) */
      for (int j = 0; j < 4; ++j) QLpc[4 * j] = 0.0;
      mma(SPv(ws, k, 1), s, QLp, QLpc, 4, 4, 4);
      /* ∂ψ/∂p = s (Qr(Π w) + Q(p) Π Qr(ṗ) C) */
      m_qR(QRw, w);
      madd(SPq(ws, k, 1), s, QRw, 16);
      m_qR(QRpd, pd);
      m_conjc(QRpd, 4);
      for (int j = 0; j < 4; ++j) QRpd[4 * j] = 0.0;
      mm(T, QLp, QRpd, 4, 4, 4);
      madd(SPq(ws, k, 1), s, T, 16);
    }
  }
}
