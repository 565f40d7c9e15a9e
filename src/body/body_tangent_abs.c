// SPDX-License-Identifier: Apache-2.0
/* Tangents of the absolute body formulations of [L] for body_tangent.c:
 * Omega(r, rdot) (quaternion Omega = 2 Im(conj(p) pdot) / |p|^2, directors
 * the axial vector of R^T Rdot, eq. 15), the index-0 quaternion
 * acceleration of eq. 40 differentiated by the product rule, and the
 * director system of eq. 23, D x = rhs, as x' = D^-1 (rhs' - D' x) with the
 * factored D of the base point. */
#include <math.h>
#include <string.h>

#include "body_internal.h"

static inline double ddot(const double a[3], const double da[3], const double b[3], const double db[3]) {
  return cosrod_vec3_dot(da, b) + cosrod_vec3_dot(a, db);
}

/* Omega' of an absolute body from (r, rdot)' (mbs_omega_from_rate). */
void mbs_omega_from_rate_tan(const mbs_body *b, const double *r, const double *rd, const double *dr,
                             const double *drd, double dOm[3]) {
  if (b->param == COSROD_BODY_QUATERNION) {
    double n2 = cosrod_quat_norm2(r), dn2 = 2.0 * cosrod_quat_dot(r, dr), t[4], u[4], Om[3];
    cosrod_quat_conj_mul(t, r, rd);
    for (int k = 0; k < 3; ++k) Om[k] = 2.0 * t[k + 1] / n2;
    cosrod_quat_conj_mul(t, dr, rd);
    cosrod_quat_conj_mul(u, r, drd);
    for (int k = 0; k < 3; ++k) dOm[k] = 2.0 * (t[k + 1] + u[k + 1]) / n2 - Om[k] * dn2 / n2;
    return;
  }
  const double *d1 = r, *d2 = r + 3, *d3 = r + 6, *e1 = rd, *e2 = rd + 3, *e3 = rd + 6;
  const double *f1 = dr, *f2 = dr + 3, *f3 = dr + 6, *g1 = drd, *g2 = drd + 3, *g3 = drd + 6;
  dOm[0] = 0.5 * (ddot(d3, f3, e2, g2) - ddot(d2, f2, e3, g3));
  dOm[1] = 0.5 * (ddot(d1, f1, e3, g3) - ddot(d3, f3, e1, g1));
  dOm[2] = 0.5 * (ddot(d2, f2, e1, g1) - ddot(d1, f1, e2, g2));
}

/* Constraint block of the eq. 23 matrix for directors r (rows 9..14 and
 * the symmetric columns; the diagonal block is left alone). */
void mbs_d15_constraints(double *A, const double *r) {
  static const int pm[6] = {0, 1, 2, 0, 2, 1}, pn[6] = {0, 1, 2, 1, 0, 2};
  for (int c = 0; c < 6; ++c) {
    int mm = pm[c], nn = pn[c];
    for (int k = 0; k < 3; ++k) {
      if (mm == nn) {
        A[(9 + c) + 15 * (mm + 3 * k)] = r[mm + 3 * k];
        A[(mm + 3 * k) + 15 * (9 + c)] = r[mm + 3 * k];
      } else {
        A[(9 + c) + 15 * (mm + 3 * k)] = r[nn + 3 * k];
        A[(9 + c) + 15 * (nn + 3 * k)] = r[mm + 3 * k];
        A[(mm + 3 * k) + 15 * (9 + c)] = r[nn + 3 * k];
        A[(nn + 3 * k) + 15 * (9 + c)] = r[mm + 3 * k];
      }
    }
  }
}

/* Right-hand side of eq. 23 (mbs_abs_accel) for (r, rdot, mu). */
void mbs_d15_rhs(double rhs[15], const double *r, const double *rd, const double mu[3]) {
  static const int pm[6] = {0, 1, 2, 0, 2, 1}, pn[6] = {0, 1, 2, 1, 0, 2};
  const double *d1 = r, *d2 = r + 3, *d3 = r + 6;
  for (int i = 0; i < 3; ++i) {
    rhs[i] = 0.5 * (mu[2] * d2[i] - mu[1] * d3[i]);
    rhs[3 + i] = 0.5 * (-mu[2] * d1[i] + mu[0] * d3[i]);
    rhs[6 + i] = 0.5 * (mu[1] * d1[i] - mu[0] * d2[i]);
  }
  for (int c = 0; c < 6; ++c) {
    double gii = 0.0;
    for (int k = 0; k < 3; ++k) gii += rd[pm[c] + 3 * k] * rd[pn[c] + 3 * k];
    rhs[9 + c] = -(pm[c] == pn[c] ? 1.0 : 2.0) * gii;
  }
}

/* rddot' of an absolute body for (r, rdot, mu)' (mbs_abs_accel). */
void mbs_abs_accel_tan(const mbs_body *b, const double *x, const cosrod_dense *D15, const double *r,
                       const double *rd, const double mu[3], const double *dr, const double *drd,
                       const double dmu[3], double *out) {
  if (b->param == COSROD_BODY_QUATERNION) {
    const double *I3 = b->inertia;
    double n2 = cosrod_quat_norm2(r), dn2 = 2.0 * cosrod_quat_dot(r, dr);
    double psi[4], dpsi[4], t[4], u[4], w[3], dw[3];
    /* psi = 2 p mu / n2 + 8 pdot (I Im(conj(pdot) p)) */
    cosrod_quat_mul_pure(psi, r, mu);
    cosrod_quat_mul_pure(t, dr, mu);
    cosrod_quat_mul_pure(u, r, dmu);
    for (int k = 0; k < 4; ++k) {
      dpsi[k] = 2.0 * (t[k] + u[k]) / n2 - 2.0 * psi[k] * dn2 / (n2 * n2);
      psi[k] *= 2.0 / n2;
    }
    cosrod_quat_conj_mul(t, rd, r);
    cosrod_quat_conj_mul(u, drd, r);
    double u2[4];
    cosrod_quat_conj_mul(u2, rd, dr);
    for (int k = 0; k < 3; ++k) {
      w[k] = 8.0 * I3[k] * t[k + 1];
      dw[k] = 8.0 * I3[k] * (u[k + 1] + u2[k + 1]);
    }
    cosrod_quat_mul_pure(t, rd, w);
    for (int k = 0; k < 4; ++k) psi[k] += t[k];
    cosrod_quat_mul_pure(t, drd, w);
    cosrod_quat_mul_pure(u, rd, dw);
    for (int k = 0; k < 4; ++k) dpsi[k] += t[k] + u[k];
    /* a = p (s I^-1 Im(conj(p) psi)), s = 1 / (4 n2^2) */
    double s = 0.25 / (n2 * n2), ds = -0.5 * dn2 / (n2 * n2 * n2);
    cosrod_quat_conj_mul(t, r, psi);
    cosrod_quat_conj_mul(u, dr, psi);
    cosrod_quat_conj_mul(u2, r, dpsi);
    for (int k = 0; k < 3; ++k) {
      w[k] = s * t[k + 1] / I3[k];
      dw[k] = (ds * t[k + 1] + s * (u[k + 1] + u2[k + 1])) / I3[k];
    }
    cosrod_quat_mul_pure(t, dr, w);
    cosrod_quat_mul_pure(u, r, dw);
    double v2 = cosrod_quat_norm2(rd), dv2 = 2.0 * cosrod_quat_dot(rd, drd);
    for (int k = 0; k < 4; ++k) out[k] = t[k] + u[k] - dv2 * r[k] - v2 * dr[k];
    return;
  }
  /* directors: x' = D^-1 (rhs' - D' x) */
  double rhs[15], a[15], Dd[225];
  mbs_d15_rhs(rhs, dr, rd, mu); /* psi bilinear in (r, mu) */
  mbs_d15_rhs(a, r, rd, dmu);
  for (int k = 0; k < 9; ++k) rhs[k] += a[k];
  static const int pm[6] = {0, 1, 2, 0, 2, 1}, pn[6] = {0, 1, 2, 1, 0, 2};
  for (int c = 0; c < 6; ++c) { /* g^II quadratic in rdot */
    double g = 0.0;
    for (int k = 0; k < 3; ++k)
      g += drd[pm[c] + 3 * k] * rd[pn[c] + 3 * k] + rd[pm[c] + 3 * k] * drd[pn[c] + 3 * k];
    rhs[9 + c] = -(pm[c] == pn[c] ? 1.0 : 2.0) * g;
  }
  memset(Dd, 0, sizeof Dd);
  mbs_d15_constraints(Dd, dr);
  for (int i = 0; i < 15; ++i) {
    double s = 0.0;
    for (int j = 0; j < 15; ++j) s += Dd[i + 15 * j] * x[j];
    rhs[i] -= s;
  }
  cosrod_dense_solve(D15, rhs);
  memcpy(out, rhs, 9 * sizeof *out);
}
