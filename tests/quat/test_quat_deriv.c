// SPDX-License-Identifier: Apache-2.0
/* Derivatives: angular velocity, Euler-map differential D phi and its
 * pseudo-inverse ([L] §5, eq. 48, Lemma 5.1), d(R v)/dp, d(R^T v)/dp and the
 * Hessian of a^T R(p) b (for the rod Jacobians), Euler-angle rates ([L] eq. 65).
 *
 * References: finite differences (R(p) is quadratic in p, so central
 * differences are exact up to rounding, error ~ eps |R| / h), the printed
 * matrix of [L] eq. 48 typed in here, and LAPACK least squares for the
 * Moore–Penrose inverse. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "harness.h"
#include "quat_test_util.h"

#define NS 300

static void rand_unit(th_rng *r, double p[4]) {
  rand_quat(r, p);
  cosrod_quat_normalise(p, p);
}

static double maxabs(const double *a, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) e = fmax(e, fabs(a[i]));
  return e;
}

/* axial vector of the (nearly) skew 3x3 column-major matrix S */
static void axial(double w[3], const double S[9]) {
  w[0] = 0.5 * (S[5] - S[7]);
  w[1] = 0.5 * (S[6] - S[2]);
  w[2] = 0.5 * (S[1] - S[3]);
}

static void transpose3(double At[9], const double A[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) At[j + 3 * i] = A[i + 3 * j];
}

/* p(t) = p0 exp(t Om / 2): material angular velocity exactly Om */
static void body_motion(double p[4], const double p0[4], const double Om[3], double t) {
  double w[3] = {t * Om[0], t * Om[1], t * Om[2]}, e[4];
  cosrod_quat_from_rotvec(e, w);
  cosrod_quat_mul(p, p0, e);
}

TEST(omega_matches_RtRdot_fd) {
  th_rng rng;
  th_rng_seed(&rng, 201);
  const double h = 1e-4;
  double e_mat = 0, e_sp = 0, e_exact = 0;
  for (int n = 0; n < NS; ++n) {
    double p0[4], Om[3], p[4], pp[4], pm[4], Rp[9], Rm[9], R[9], Rt[9], Rd[9], S[9], w[3], pd[4], Om2[3];
    rand_unit(&rng, p0);
    for (int i = 0; i < 3; ++i) Om[i] = th_rng_uniform(&rng, -3, 3);
    double t = th_rng_uniform(&rng, 0, 1);
    body_motion(p, p0, Om, t);
    body_motion(pp, p0, Om, t + h);
    body_motion(pm, p0, Om, t - h);
    /* pdot by central differences of the quaternion curve */
    for (int i = 0; i < 4; ++i) pd[i] = (pp[i] - pm[i]) / (2 * h);
    cosrod_quat_omega(Om2, p, pd);
    e_exact = fmax(e_exact, maxdiff(Om2, Om, 3));
    /* R^T Rdot by central differences of R(p(t)) (independent of p-dot) */
    cosrod_quat_to_matrix(R, p);
    cosrod_quat_to_matrix(Rp, pp);
    cosrod_quat_to_matrix(Rm, pm);
    for (int i = 0; i < 9; ++i) Rd[i] = (Rp[i] - Rm[i]) / (2 * h);
    transpose3(Rt, R);
    matmul(S, Rt, Rd, 3, 3, 3);
    axial(w, S);
    e_mat = fmax(e_mat, maxdiff(Om2, w, 3));
    /* spatial: Rdot R^T = E(omega), omega = R Om */
    double om[3], om2[3];
    matmul(S, Rd, Rt, 3, 3, 3);
    axial(om, S);
    cosrod_quat_omega_spatial(om2, p, pd);
    e_sp = fmax(e_sp, maxdiff(om, om2, 3));
  }
  /* truncation h^2/6 |Om|^3 ~ 1e-8 * 27 * 5 / 6 ~ 2e-7 worst case, rounding eps/h ~ 1e-12 */
  CHECK_LE("max |2 Im(conj p pdot_fd) - Om| (exact Om)", e_exact, 3e-7);
  CHECK_LE("max |2 Im(conj p pdot) - axial(R^T Rdot)| (both by FD)", e_mat, 3e-7);
  CHECK_LE("max |2 Im(pdot conj p) - axial(Rdot R^T)|", e_sp, 3e-7);
}

TEST(dRv_dp_matches_fd) {
  th_rng rng;
  th_rng_seed(&rng, 202);
  double e = 0, e_unit = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], v[3], J[12], Jfd[12];
    rand_quat(&rng, p); /* general p: R quadratic everywhere */
    rand_vec(&rng, v);
    cosrod_quat_dRv_dp(J, p, v);
    cosrod_quat_dRv_dp_fd(Jfd, p, v, 1e-5);
    e = fmax(e, maxdiff(J, Jfd, 12) / (cosrod_quat_norm2(p) * cosrod_vec3_norm(v)));
    rand_unit(&rng, p);
    cosrod_quat_dRv_dp(J, p, v);
    cosrod_quat_dRv_dp_fd(Jfd, p, v, 1e-5);
    e_unit = fmax(e_unit, maxdiff(J, Jfd, 12) / cosrod_vec3_norm(v));
  }
  /* central differences of a quadratic: only rounding, ~ eps |R v| / h ~ 1e-11 */
  CHECK_LE("max |d(Rv)/dp - FD| / (|p|^2 |v|), general p", e, 1e-9);
  CHECK_LE("max |d(Rv)/dp - FD| / |v|, unit p", e_unit, 1e-9);
}

TEST(dRTv_dp_matches_fd) {
  th_rng rng;
  th_rng_seed(&rng, 203);
  double e = 0, e_J = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], v[3], J[12], Jfd[12], JR[12];
    rand_quat(&rng, p);
    rand_vec(&rng, v);
    cosrod_quat_dRTv_dp(J, p, v);
    cosrod_quat_dRTv_dp_fd(Jfd, p, v, 1e-5);
    e = fmax(e, maxdiff(J, Jfd, 12) / (cosrod_quat_norm2(p) * cosrod_vec3_norm(v)));
    /* R(p)^T = R(conj p): so d(R(p)^T v)/dp = d(R(q) v)/dq at q = conj p, times diag(1,-1,-1,-1) */
    double pc[4];
    cosrod_quat_conj(pc, p);
    cosrod_quat_dRv_dp(JR, pc, v);
    for (int i = 3; i < 12; ++i) JR[i] = -JR[i];
    e_J = fmax(e_J, maxdiff(J, JR, 12));
  }
  CHECK_LE("max |d(R^T v)/dp - FD| / (|p|^2 |v|)", e, 1e-9);
  CHECK_LE("d(R(p)^T v)/dp = d(R(conj p) v)/dp via conjugation", e_J, 1e-14);
}

TEST(dphi_matches_eq48_and_fd) {
  th_rng rng;
  th_rng_seed(&rng, 204);
  double e_fd = 0, e_48 = 0, e_hom = 0, e_56 = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], D[36], Dfd[36], R[9], Dp[9], DtD[16], Dt[36];
    rand_quat(&rng, p);
    double n2 = cosrod_quat_norm2(p);
    cosrod_quat_dphi(D, p);
    cosrod_quat_dphi_fd(Dfd, p, 1e-5);
    e_fd = fmax(e_fd, maxdiff(D, Dfd, 36) / n2);
    /* [L] eq. 48 as printed (row-major, factor 2 outside) */
    const double a = p[0], b = p[1], c = p[2], d = p[3];
    double L48[36] = {a, b,  -c, -d, d, c, b, a, -c, d, -a, b,  -d, c, b, -a, a,  -b,
                      c, -d, b,  a,  d, c, c, d, a,  b, -b, -a, d,  c, a, -b, -c, d};
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 4; ++j) e_48 = fmax(e_48, fabs(D[i + 9 * j] - 2.0 * L48[4 * i + j]));
    /* Euler's theorem for the quadratic phi: D phi(p) p = 2 phi(p) */
    matmul(Dp, D, p, 9, 4, 1);
    cosrod_quat_to_matrix(R, p);
    for (int i = 0; i < 9; ++i) e_hom = fmax(e_hom, fabs(Dp[i] - 2.0 * R[i]) / n2);
    /* [L] eq. 56: D phi^T D phi = 4 (2 |p|^2 I + p p^T) */
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 4; ++j) Dt[j + 4 * i] = D[i + 9 * j];
    matmul(DtD, Dt, D, 4, 9, 4);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        e_56 = fmax(e_56, fabs(DtD[i + 4 * j] - 4.0 * ((i == j ? 2.0 * n2 : 0.0) + p[i] * p[j])) / n2);
  }
  CHECK_LE("max |D phi - FD| / |p|^2", e_fd, 1e-9);
  CHECK_LE("D phi equals the printed [L] eq. 48", e_48, 0.0);
  CHECK_LE("max |D phi(p) p - 2 phi(p)| / |p|^2", e_hom, 1e-14);
  CHECK_LE("max |D phi^T D phi - 4(2|p|^2 I + p p^T)| / |p|^2 ([L] eq. 56)", e_56, 1e-13);
}

TEST(dphi_pinv_matches_lapack_lstsq) {
  th_rng rng;
  th_rng_seed(&rng, 205);
  double e = 0, e_left = 0;
  int bad = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], D[36], P[36], A[36], B[81];
    rand_quat(&rng, p);
    double s = pow(10.0, th_rng_uniform(&rng, -1, 1));
    for (int i = 0; i < 4; ++i) p[i] *= s;
    cosrod_quat_dphi(D, p);
    if (cosrod_quat_dphi_pinv(P, p) != COSROD_OK) bad++;
    /* Numerical reference: X = argmin |D X - I_9| by QR (LAPACK dgels) = (D^T D)^-1 D^T */
    memcpy(A, D, sizeof A);
    memset(B, 0, sizeof B);
    for (int i = 0; i < 9; ++i) B[i + 9 * i] = 1.0;
    if (LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', 9, 4, 9, A, 9, B, 9) != 0) bad++;
    double scale = 0.0, diff = 0.0;
    for (int m = 0; m < 9; ++m)
      for (int i = 0; i < 4; ++i) {
        scale = fmax(scale, fabs(B[i + 9 * m]));
        diff = fmax(diff, fabs(P[i + 4 * m] - B[i + 9 * m]));
      }
    e = fmax(e, diff / scale);
    /* left inverse: P D = I_4 */
    double PD[16], I4[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    matmul(PD, P, D, 4, 9, 4);
    e_left = fmax(e_left, maxdiff(PD, I4, 16));
  }
  CHECK("pinv and dgels succeed for every sample", bad == 0);
  /* cond(D phi) = sqrt(3/2) (eq. 56): QR reference accurate to ~1e-15 relative */
  CHECK_LE("max |closed-form pinv - LAPACK lstsq| / max|pinv|, |p| in [0.1, 10]*N(0,1)", e, 1e-13);
  CHECK_LE("max |D phi# D phi - I|", e_left, 1e-14);
  double z[4] = {0, 0, 0, 0}, P[36];
  CHECK("pinv(0) -> ERR_SINGULAR", cosrod_quat_dphi_pinv(P, z) == COSROD_ERR_SINGULAR);
}

TEST(dphi_maps_tangent_vectors) {
  /* [L] eq. 53: D phi(p) tau_p^n = tau_d^n and tau_p^n = D phi#(p) tau_d^n, with
   * tau_p^n the columns of T(p) and tau_d^n = d(phi)/d(Om_n): the director velocities
   * ddot^k = R (e_n x e_k) of a unit material angular velocity e_n. */
  th_rng rng;
  th_rng_seed(&rng, 206);
  double e_fw = 0, e_bw = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], D[36], P[36], T[12], R[9];
    rand_unit(&rng, p);
    cosrod_quat_dphi(D, p);
    cosrod_quat_dphi_pinv(P, p);
    cosrod_quat_tmat(T, p);
    cosrod_quat_to_matrix(R, p);
    for (int m = 0; m < 3; ++m) {
      double taud[9], Dt[9], Pt[4];
      for (int k = 0; k < 3; ++k) {
        double em[3] = {0, 0, 0}, ek[3] = {0, 0, 0}, c[3];
        em[m] = 1.0;
        ek[k] = 1.0;
        cosrod_vec3_cross(c, em, ek);
        matmul(taud + 3 * k, R, c, 3, 3, 1);
      }
      matmul(Dt, D, T + 4 * m, 9, 4, 1);
      e_fw = fmax(e_fw, maxdiff(Dt, taud, 9));
      matmul(Pt, P, taud, 4, 9, 1);
      e_bw = fmax(e_bw, maxdiff(Pt, T + 4 * m, 4));
    }
  }
  CHECK_LE("max |D phi(p) tau_p^n - tau_d^n|", e_fw, 1e-14);
  CHECK_LE("max |D phi#(p) tau_d^n - tau_p^n|", e_bw, 1e-14);
}

TEST(aRb_hessian) {
  th_rng rng;
  th_rng_seed(&rng, 207);
  double e_val = 0, e_g1 = 0, e_g2 = 0, e_sym = 0, e_fd = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], a[3], b[3], H[16], Hp[4], Rb[3], J[12], g[4];
    rand_quat(&rng, p);
    rand_vec(&rng, a);
    rand_vec(&rng, b);
    cosrod_quat_aRb_hess(H, a, b);
    double sc = cosrod_quat_norm2(p) * cosrod_vec3_norm(a) * cosrod_vec3_norm(b);
    /* s = a^T R(p) b = 1/2 p^T H p */
    cosrod_quat_rotate(Rb, p, b);
    matmul(Hp, H, p, 4, 4, 1);
    e_val = fmax(e_val, fabs(cosrod_vec3_dot(a, Rb) - 0.5 * cosrod_quat_dot(p, Hp)) / sc);
    /* gradient H p = (d(R b)/dp)^T a = (d(R^T a)/dp)^T b */
    cosrod_quat_dRv_dp(J, p, b);
    for (int j = 0; j < 4; ++j) g[j] = J[3 * j] * a[0] + J[3 * j + 1] * a[1] + J[3 * j + 2] * a[2];
    e_g1 = fmax(e_g1, maxdiff(g, Hp, 4) / sc * cosrod_quat_norm(p));
    cosrod_quat_dRTv_dp(J, p, a);
    for (int j = 0; j < 4; ++j) g[j] = J[3 * j] * b[0] + J[3 * j + 1] * b[1] + J[3 * j + 2] * b[2];
    e_g2 = fmax(e_g2, maxdiff(g, Hp, 4) / sc * cosrod_quat_norm(p));
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) e_sym = fmax(e_sym, fabs(H[i + 4 * j] - H[j + 4 * i]));
    /* H = d/dp of the gradient, by central differences of (d(R^T a)/dp)^T b */
    for (int j = 0; j < 4; ++j) {
      double pp[4], pm[4], Jp[12], Jm[12];
      const double h = 1e-5;
      cosrod_quat_copy(pp, p);
      cosrod_quat_copy(pm, p);
      pp[j] += h;
      pm[j] -= h;
      cosrod_quat_dRTv_dp(Jp, pp, a);
      cosrod_quat_dRTv_dp(Jm, pm, a);
      for (int i = 0; i < 4; ++i) {
        double gp = Jp[3 * i] * b[0] + Jp[3 * i + 1] * b[1] + Jp[3 * i + 2] * b[2];
        double gm = Jm[3 * i] * b[0] + Jm[3 * i + 1] * b[1] + Jm[3 * i + 2] * b[2];
        e_fd = fmax(e_fd,
                    fabs((gp - gm) / (2 * h) - H[i + 4 * j]) / (cosrod_vec3_norm(a) * cosrod_vec3_norm(b)));
      }
    }
  }
  CHECK_LE("max |a^T R(p) b - 1/2 p^T H p| / (|p|^2 |a||b|)", e_val, 1e-14);
  CHECK_LE("max |H p - (d(Rb)/dp)^T a| / (|p||a||b|)", e_g1, 1e-14);
  CHECK_LE("max |H p - (d(R^T a)/dp)^T b| / (|p||a||b|)", e_g2, 1e-14);
  CHECK_LE("H symmetric", e_sym, 0.0);
  /* the gradient is linear in p: central differences exact up to eps |g| / h ~ 1e-10 */
  CHECK_LE("max |H - FD of gradient| / (|a||b|)", e_fd, 1e-8);
}

TEST(mass_gyro_matches_fd_definition) {
  /* [L] eq. 33: 1/2 grad_p(pd^T mu(p) pd) - (grad_p(mu(p) pd)) pd = 8 Q(pd) I Q(pd)^T p */
  th_rng rng;
  th_rng_seed(&rng, 208);
  double e = 0;
  const double h = 1e-5;
  for (int n = 0; n < NS; ++n) {
    double p[4], pd[4], In[3], g[4], ref[4] = {0, 0, 0, 0};
    rand_quat(&rng, p);
    rand_quat(&rng, pd);
    for (int k = 0; k < 3; ++k) In[k] = th_rng_uniform(&rng, 0.1, 10.0);
    cosrod_quat_mass_gyro(g, p, pd, In);
    for (int j = 0; j < 4; ++j) {
      double pp[4], pm[4], mp[16], mm[16], vp[4], vm[4];
      cosrod_quat_copy(pp, p);
      cosrod_quat_copy(pm, p);
      pp[j] += h;
      pm[j] -= h;
      cosrod_quat_mass(mp, pp, In);
      cosrod_quat_mass(mm, pm, In);
      matmul(vp, mp, pd, 4, 4, 1);
      matmul(vm, mm, pd, 4, 4, 1);
      /* d(mu pd)/dp_j */
      double dmv[4];
      for (int i = 0; i < 4; ++i) dmv[i] = (vp[i] - vm[i]) / (2 * h);
      /* 1/2 d/dp_j (pd^T mu pd) = 1/2 pd^T dmv */
      ref[j] += 0.5 * cosrod_quat_dot(pd, dmv);
      /* - sum_j (d(mu pd)/dp_j) pd_j */
      for (int i = 0; i < 4; ++i) ref[i] -= dmv[i] * pd[j];
    }

    e = fmax(e, maxdiff(g, ref, 4) / (40.0 * cosrod_quat_norm(p) * cosrod_quat_norm2(pd)));
  }
  /* mu is quadratic in p: central differences exact up to rounding eps |mu| / h */
  CHECK_LE("max |mass_gyro - FD of the definition| (rel)", e, 1e-9);
}

TEST(euler313_rates_fd) {
  th_rng rng;
  th_rng_seed(&rng, 209);
  const double h = 1e-5;
  double e = 0;
  for (int n = 0; n < NS; ++n) {
    double th[3] = {th_rng_uniform(&rng, -3, 3), th_rng_uniform(&rng, 0.1, 3.0), th_rng_uniform(&rng, -3, 3)};
    double thd[3], B[9], Om[3], tp[3], tm[3], p[4], pp[4], pm[4], pd[4], Om2[3];
    rand_vec(&rng, thd);
    cosrod_quat_euler313_rates(B, th);
    matmul(Om, B, thd, 3, 3, 1);
    for (int i = 0; i < 3; ++i) {
      tp[i] = th[i] + h * thd[i];
      tm[i] = th[i] - h * thd[i];
    }
    cosrod_quat_from_euler313(p, th);
    cosrod_quat_from_euler313(pp, tp);
    cosrod_quat_from_euler313(pm, tm);
    for (int i = 0; i < 4; ++i) pd[i] = (pp[i] - pm[i]) / (2 * h);
    cosrod_quat_omega(Om2, p, pd);
    e = fmax(e, maxdiff(Om, Om2, 3) / (1.0 + maxabs(thd, 3)));
  }
  /* truncation h^2 |thd|^3 ~ 1e-10 * 30, rounding eps / h ~ 1e-11 */
  CHECK_LE("max |B(th) thd - 2 Im(conj p pdot)| ([L] eq. 65)", e, 1e-8);
}

static const th_case cases[] = {
    TH_CASE(omega_matches_RtRdot_fd),
    TH_CASE(dRv_dp_matches_fd),
    TH_CASE(dRTv_dp_matches_fd),
    TH_CASE(dphi_matches_eq48_and_fd),
    TH_CASE(dphi_pinv_matches_lapack_lstsq),
    TH_CASE(dphi_maps_tangent_vectors),
    TH_CASE(aRb_hessian),
    TH_CASE(mass_gyro_matches_fd_definition),
    TH_CASE(euler313_rates_fd),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
