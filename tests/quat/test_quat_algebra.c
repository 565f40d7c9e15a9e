// SPDX-License-Identifier: Apache-2.0
/* Quaternion algebra, Euler map, quaternion mass, conversions and slerp
 * ([LLA] §2, [L] §4 and §6–7).
 *
 * References are computed independently in this file: the Euler map from
 * [LLA] eq. 1 as a matrix formula (the library uses the director components of
 * [L] eqs. 27–28), products written out from [L] eq. 30, Rodrigues' formula,
 * elementary rotation matrices for the 3-1-3 angles, LAPACK for eigenvalues.
 * Random inputs use fixed seeds; each check reduces hundreds of samples to one
 * maximum error.  Unless stated otherwise tolerances are a small multiple of
 * the rounding error of the operations involved (double eps = 2.2e-16, O(10)
 * flops on O(1) numbers). */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "harness.h"
#include "quat_test_util.h"

#define NS 500

static const double PI = COSROD_QUAT_PI;

static void rand_unit(th_rng *r, double p[4]) {
  rand_quat(r, p);
  double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
  for (int i = 0; i < 4; ++i) p[i] /= n;
}

/* Reference Hamilton product, written out from [L] eq. 30 (components). */
static void ref_mul(double r[4], const double p[4], const double q[4]) {
  r[0] = p[0] * q[0] - (p[1] * q[1] + p[2] * q[2] + p[3] * q[3]);
  r[1] = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2];
  r[2] = p[0] * q[2] + p[2] * q[0] + p[3] * q[1] - p[1] * q[3];
  r[3] = p[0] * q[3] + p[3] * q[0] + p[1] * q[2] - p[2] * q[1];
}

static void ref_conj(double r[4], const double p[4]) {
  r[0] = p[0];
  r[1] = -p[1];
  r[2] = -p[2];
  r[3] = -p[3];
}

/* Reference Euler map [LLA] eq. 1: (2 p0^2 - |p|^2) I + 2 p^ p^T + 2 p0 E(p^), column-major. */
static void ref_R(double R[9], const double p[4]) {
  double n2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3];
  double E[9] = {0, p[3], -p[2], -p[3], 0, p[1], p[2], -p[1], 0};
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i)
      R[i + 3 * j] =
          (i == j ? 2 * p[0] * p[0] - n2 : 0.0) + 2 * p[i + 1] * p[j + 1] + 2 * p[0] * E[i + 3 * j];
}

static double det3(const double R[9]) {
  return R[0] * (R[4] * R[8] - R[7] * R[5]) - R[3] * (R[1] * R[8] - R[7] * R[2]) +
         R[6] * (R[1] * R[5] - R[4] * R[2]);
}

/* min over the sign of max_i |q_i -+ p_i| */
static double dist_pm(const double q[4], const double p[4]) {
  double dm = 0.0, dp = 0.0;
  for (int i = 0; i < 4; ++i) {
    dm = fmax(dm, fabs(q[i] - p[i]));
    dp = fmax(dp, fabs(q[i] + p[i]));
  }
  return fmin(dm, dp);
}

/* ---- products -------------------------------------------------------------- */

TEST(quat_mul_unit_table) {
  /* Hamilton's rules i^2 = j^2 = k^2 = ijk = -1, ij = k, jk = i, ki = j, ji = -k: exact. */
  double one[4] = {1, 0, 0, 0}, i[4] = {0, 1, 0, 0}, j[4] = {0, 0, 1, 0}, k[4] = {0, 0, 0, 1};
  double r[4], t[4], m1[4] = {-1, 0, 0, 0}, mk[4] = {0, 0, 0, -1};
  cosrod_quat_mul(r, i, i);
  CHECK_VEC("i i = -1", r, m1, 4, 0, 0);
  cosrod_quat_mul(r, j, j);
  CHECK_VEC("j j = -1", r, m1, 4, 0, 0);
  cosrod_quat_mul(r, k, k);
  CHECK_VEC("k k = -1", r, m1, 4, 0, 0);
  cosrod_quat_mul(t, i, j);
  cosrod_quat_mul(r, t, k);
  CHECK_VEC("i j k = -1", r, m1, 4, 0, 0);
  cosrod_quat_mul(r, i, j);
  CHECK_VEC("i j = k", r, k, 4, 0, 0);
  cosrod_quat_mul(r, j, k);
  CHECK_VEC("j k = i", r, i, 4, 0, 0);
  cosrod_quat_mul(r, k, i);
  CHECK_VEC("k i = j", r, j, 4, 0, 0);
  cosrod_quat_mul(r, j, i);
  CHECK_VEC("j i = -k", r, mk, 4, 0, 0);
  cosrod_quat_mul(r, one, k);
  CHECK_VEC("1 k = k", r, k, 4, 0, 0);
}

TEST(quat_mul_algebra_random) {
  th_rng rng;
  th_rng_seed(&rng, 101);
  double e_ref = 0, e_assoc = 0, e_norm = 0, e_conj = 0, e_cm = 0, e_mc = 0, e_pure = 0, e_alias = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], q[4], s[4], r[4], r2[4], t[4], u[4], pc[4], qc[4], w[3], pw[4];
    rand_quat(&rng, p);
    rand_quat(&rng, q);
    rand_quat(&rng, s);
    rand_vec(&rng, w);
    cosrod_quat_mul(r, p, q);
    ref_mul(r2, p, q);
    e_ref = fmax(e_ref, maxdiff(r, r2, 4));
    /* (pq)s = p(qs) */
    cosrod_quat_mul(t, r, s);
    cosrod_quat_mul(u, q, s);
    cosrod_quat_mul(u, p, u);
    e_assoc =
        fmax(e_assoc, maxdiff(t, u, 4) / (cosrod_quat_norm(p) * cosrod_quat_norm(q) * cosrod_quat_norm(s)));
    /* |pq| = |p||q| */
    e_norm = fmax(e_norm, fabs(cosrod_quat_norm(r) / (cosrod_quat_norm(p) * cosrod_quat_norm(q)) - 1.0));
    /* conj(pq) = conj(q) conj(p) */
    cosrod_quat_conj(t, r);
    ref_conj(pc, p);
    ref_conj(qc, q);
    ref_mul(u, qc, pc);
    e_conj = fmax(e_conj, maxdiff(t, u, 4));
    /* conj_mul, mul_conj, mul_pure against products with explicit conjugates */
    cosrod_quat_conj_mul(t, p, q);
    ref_mul(u, pc, q);
    e_cm = fmax(e_cm, maxdiff(t, u, 4));
    cosrod_quat_mul_conj(t, p, q);
    ref_mul(u, p, qc);
    e_mc = fmax(e_mc, maxdiff(t, u, 4));
    cosrod_quat_mul_pure(t, p, w);
    cosrod_quat_pure(pw, w);
    ref_mul(u, p, pw);
    e_pure = fmax(e_pure, maxdiff(t, u, 4));
    /* aliasing: r = p q written into p's storage */
    cosrod_quat_copy(t, p);
    cosrod_quat_mul(t, t, q);
    cosrod_quat_copy(u, q);
    cosrod_quat_mul(u, p, u);
    e_alias = fmax(e_alias, fmax(maxdiff(t, r, 4), maxdiff(u, r, 4)));
  }
  /* normal components: |pq| ~ O(10); 8 flops per component -> 1e-14 absolute */
  CHECK_LE("max |pq - ref(pq)|", e_ref, 1e-14);
  CHECK_LE("max |(pq)s - p(qs)| / (|p||q||s|)", e_assoc, 2e-15);
  CHECK_LE("max | |pq|/(|p||q|) - 1 |", e_norm, 1e-15);
  CHECK_LE("max |conj(pq) - conj(q) conj(p)|", e_conj, 1e-14);
  CHECK_LE("max |conj_mul(p,q) - conj(p) q|", e_cm, 1e-14);
  CHECK_LE("max |mul_conj(p,q) - p conj(q)|", e_mc, 1e-14);
  CHECK_LE("max |mul_pure(p,w) - p (0|w)|", e_pure, 1e-14);
  CHECK_LE("aliased mul(p,p,q), mul(q,p,q) = pq (bitwise same ops)", e_alias, 0.0);
}

TEST(quat_inverse_normalise) {
  th_rng rng;
  th_rng_seed(&rng, 102);
  int nbad = 0;
  double e_inv = 0, e_unit = 0, e_ret = 0, one[4] = {1, 0, 0, 0};
  for (int n = 0; n < NS; ++n) {
    double p[4], pi[4] = {0, 0, 0, 0}, r[4], u[4];
    rand_quat(&rng, p);
    double s = pow(10.0, th_rng_uniform(&rng, -3, 3));
    for (int i = 0; i < 4; ++i) p[i] *= s;
    nbad += !(cosrod_quat_inverse(pi, p) == COSROD_OK);
    cosrod_quat_mul(r, p, pi);
    e_inv = fmax(e_inv, maxdiff(r, one, 4));
    cosrod_quat_mul(r, pi, p);
    e_inv = fmax(e_inv, maxdiff(r, one, 4));
    double np = cosrod_quat_normalise(u, p);
    e_unit = fmax(e_unit, fabs(cosrod_quat_norm(u) - 1.0));
    e_ret = fmax(e_ret, fabs(np / sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]) - 1.0));
  }
  CHECK("inverse returns OK for every nonzero p", nbad == 0);
  /* relative rounding of a few flops, independent of the scale 1e-3..1e3 */
  CHECK_LE("max |p p^-1 - 1|, |p^-1 p - 1|", e_inv, 1e-15);
  CHECK_LE("max | |normalise(p)| - 1 |", e_unit, 1e-15);
  CHECK_LE("normalise returns |p| (rel)", e_ret, 1e-15);
  double z[4] = {0, 0, 0, 0}, r[4] = {7, 7, 7, 7};
  CHECK("inverse(0) -> ERR_SINGULAR", cosrod_quat_inverse(r, z) == COSROD_ERR_SINGULAR);
  CHECK("inverse(0) leaves output untouched", r[0] == 7 && r[3] == 7);
  CHECK_NEAR("normalise(0) returns 0", cosrod_quat_normalise(r, z), 0.0, 0.0);
  CHECK_VEC("normalise(0) = identity", r, one, 4, 0, 0);
  double v[3] = {1, 2, 3}, pv[4], back[3];
  cosrod_quat_pure(pv, v);
  cosrod_quat_im(back, pv);
  CHECK("pure embedding has zero real part", pv[0] == 0.0);
  CHECK_VEC("Im(pure(v)) = v", back, v, 3, 0, 0);
}

/* ---- Euler map ------------------------------------------------------------- */

TEST(euler_map_orthonormal_det1) {
  th_rng rng;
  th_rng_seed(&rng, 103);
  double e_orth = 0, e_det = 0, e_ref = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], R[9], Rr[9], RtR[9], Rt[9];
    rand_unit(&rng, p);
    cosrod_quat_to_matrix(R, p);
    ref_R(Rr, p);
    e_ref = fmax(e_ref, maxdiff(R, Rr, 9));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Rt[j + 3 * i] = R[i + 3 * j];
    matmul(RtR, Rt, R, 3, 3, 3);
    double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    e_orth = fmax(e_orth, maxdiff(RtR, I3, 9));
    e_det = fmax(e_det, fabs(det3(R) - 1.0));
  }
  /* entries of R are quadratic in unit p: rounding ~ 4 eps per entry, RtR/det a few more */
  CHECK_LE("max |R(p) - ref [LLA] eq.1|", e_ref, 4e-16 * 4);
  CHECK_LE("max |R^T R - I| (unit p)", e_orth, 4e-15);
  CHECK_LE("max |det R - 1| (unit p)", e_det, 4e-15);
}

TEST(euler_map_homogeneous) {
  th_rng rng;
  th_rng_seed(&rng, 104);
  double e_hom = 0, e_ref = 0, e_neg = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], lp[4], R[9], Rl[9], Rr[9], lam = th_rng_uniform(&rng, -3, 3);
    rand_quat(&rng, p);
    for (int i = 0; i < 4; ++i) lp[i] = lam * p[i];
    cosrod_quat_to_matrix(R, p);
    cosrod_quat_to_matrix(Rl, lp);
    ref_R(Rr, p);
    double sc = cosrod_quat_norm2(p);
    e_ref = fmax(e_ref, maxdiff(R, Rr, 9) / sc);
    for (int i = 0; i < 9; ++i) e_hom = fmax(e_hom, fabs(Rl[i] - lam * lam * R[i]) / (lam * lam * sc));
    for (int i = 0; i < 4; ++i) lp[i] = -p[i];
    cosrod_quat_to_matrix(Rl, lp);
    e_neg = fmax(e_neg, maxdiff(Rl, R, 9));
  }
  /* relative to |p|^2 (the size of R(p)) */
  CHECK_LE("max |R(p) - ref| / |p|^2 (general p)", e_ref, 2e-15);
  CHECK_LE("max |R(lam p) - lam^2 R(p)| / (lam^2 |p|^2)", e_hom, 2e-15);
  CHECK_LE("R(-p) = R(p) exactly", e_neg, 0.0);
}

TEST(rotate_matches_sandwich) {
  th_rng rng;
  th_rng_seed(&rng, 105);
  double e_fw = 0, e_bw = 0, e_re = 0, e_mat = 0, e_dir = 0, e_alias = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], pc[4], w[3], wq[4], t[4], s[4], r[3], R[9], Rw[3], d[3];
    rand_quat(&rng, p); /* general, non-unit p: stretched rotation */
    rand_vec(&rng, w);
    ref_conj(pc, p);
    cosrod_quat_pure(wq, w);
    double sc = cosrod_quat_norm2(p) * cosrod_vec3_norm(w);
    /* forward: R(p) w = p w conj(p) */
    ref_mul(t, p, wq);
    ref_mul(s, t, pc);
    cosrod_quat_rotate(r, p, w);
    e_re = fmax(e_re, fabs(s[0]) / sc);
    for (int i = 0; i < 3; ++i) e_fw = fmax(e_fw, fabs(r[i] - s[i + 1]) / sc);
    cosrod_quat_to_matrix(R, p);
    matmul(Rw, R, w, 3, 3, 1);
    e_mat = fmax(e_mat, maxdiff(Rw, r, 3) / sc);
    /* backward: R(p)^T w = conj(p) w p */
    ref_mul(t, pc, wq);
    ref_mul(s, t, p);
    cosrod_quat_rotate_inv(r, p, w);
    for (int i = 0; i < 3; ++i) e_bw = fmax(e_bw, fabs(r[i] - s[i + 1]) / sc);
    /* directors d^k = R e_k = p e_k conj(p) */
    for (int k = 0; k < 3; ++k) {
      double ek[4] = {0, 0, 0, 0};
      ek[k + 1] = 1.0;
      ref_mul(t, p, ek);
      ref_mul(s, t, pc);
      cosrod_quat_director(d, p, k);
      for (int i = 0; i < 3; ++i) e_dir = fmax(e_dir, fabs(d[i] - s[i + 1]) / cosrod_quat_norm2(p));
    }
    /* aliasing rotate(w, p, w) */
    cosrod_quat_rotate(r, p, w);
    cosrod_quat_rotate(w, p, w);
    e_alias = fmax(e_alias, maxdiff(w, r, 3));
  }
  CHECK_LE("max |R(p)w - Im(p w conj p)| / (|p|^2 |w|)", e_fw, 2e-15);
  CHECK_LE("max |Re(p w conj p)| / (|p|^2 |w|) (is pure)", e_re, 2e-15);
  CHECK_LE("max |R(p)^T w - Im(conj p w p)| / (|p|^2 |w|)", e_bw, 2e-15);
  CHECK_LE("max |rotate(p,w) - R(p) w| / (|p|^2 |w|)", e_mat, 2e-15);
  CHECK_LE("max |d^k - p e_k conj p| / |p|^2", e_dir, 2e-15);
  CHECK_LE("aliased rotate(w,p,w) identical", e_alias, 0.0);
}

TEST(axis_angle_rodrigues_rotvec) {
  th_rng rng;
  th_rng_seed(&rng, 106);
  double e_rod = 0, e_ax = 0, e_ang = 0, e_rv = 0, e_rvn = 0;
  for (int n = 0; n < NS; ++n) {
    double ax[3], u[3], w[3], p[4], r[3], ref[3], c[3], ax2[3], ang2;
    rand_vec(&rng, ax);
    rand_vec(&rng, w);
    double a = th_rng_uniform(&rng, 0.0, 2 * PI);
    cosrod_quat_from_axis_angle(p, ax, a);
    double nu = sqrt(cosrod_vec3_dot(ax, ax));
    for (int i = 0; i < 3; ++i) u[i] = ax[i] / nu;
    /* Rodrigues ([L] after eq. 29): cos a w + sin a u x w + (1 - cos a) <u,w> u */
    c[0] = u[1] * w[2] - u[2] * w[1];
    c[1] = u[2] * w[0] - u[0] * w[2];
    c[2] = u[0] * w[1] - u[1] * w[0];
    double uw = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
    for (int i = 0; i < 3; ++i) ref[i] = cos(a) * w[i] + sin(a) * c[i] + (1 - cos(a)) * uw * u[i];
    cosrod_quat_rotate(r, p, w);
    e_rod = fmax(e_rod, maxdiff(r, ref, 3) / cosrod_vec3_norm(w));
    cosrod_quat_to_axis_angle(ax2, &ang2, p);
    e_ax = fmax(e_ax, maxdiff(ax2, u, 3));
    e_ang = fmax(e_ang, fabs(ang2 - a));
    /* rotation vector of size in [1e-10, pi): exp/log round trip up to sign of p */
    double th = pow(10.0, th_rng_uniform(&rng, -10, log10(PI - 1e-3)));
    double wv[3], wv2[3], q[4];
    for (int i = 0; i < 3; ++i) wv[i] = th * u[i];
    cosrod_quat_from_rotvec(q, wv);
    e_rvn = fmax(e_rvn, fabs(cosrod_quat_norm(q) - 1.0));
    for (int i = 0; i < 4; ++i) q[i] = -q[i]; /* antipode: same rotation, same vector */
    cosrod_quat_to_rotvec(wv2, q);
    e_rv = fmax(e_rv, maxdiff(wv2, wv, 3) / th);
  }
  /* angle from atan2 of O(1) quantities: a few eps times pi */
  CHECK_LE("max |R(p)w - Rodrigues| / |w|", e_rod, 4e-15);
  CHECK_LE("max |axis - u| (to_axis_angle)", e_ax, 1e-13);
  CHECK_LE("max |angle - a| (to_axis_angle)", e_ang, 1e-14);
  CHECK_LE("max | |exp(w/2)| - 1 |", e_rvn, 5e-16);
  CHECK_LE("max |log(-exp(w/2)) - w| / |w|, |w| in [1e-10, pi)", e_rv, 1e-14);
  double z[3] = {0, 0, 0}, p[4], one[4] = {1, 0, 0, 0}, wv[3];
  cosrod_quat_from_axis_angle(p, z, 1.0);
  CHECK_VEC("zero axis -> identity", p, one, 4, 0, 0);
  cosrod_quat_to_rotvec(wv, one);
  CHECK_VEC("log(1) = 0", wv, z, 3, 0, 0);
}

/* ---- Q(p), T(p), mass -------------------------------------------------------- */

TEST(qmat_left_right_products) {
  th_rng rng;
  th_rng_seed(&rng, 107);
  double e_l = 0, e_r = 0, e_orth = 0, e_tr = 0, e_lit = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], q[4], pq[4], Q[16], Qr[16], QtQ[16], Qt[16], Qc[16], pc[4], v[4];
    rand_quat(&rng, p);
    rand_quat(&rng, q);
    ref_mul(pq, p, q);
    cosrod_quat_qmat(Q, p);
    cosrod_quat_qmat_right(Qr, q);
    matmul(v, Q, q, 4, 4, 1);
    e_l = fmax(e_l, maxdiff(v, pq, 4));
    matmul(v, Qr, p, 4, 4, 1);
    e_r = fmax(e_r, maxdiff(v, pq, 4));
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) Qt[j + 4 * i] = Q[i + 4 * j];
    matmul(QtQ, Qt, Q, 4, 4, 4);
    double n2 = cosrod_quat_norm2(p);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) e_orth = fmax(e_orth, fabs(QtQ[i + 4 * j] - (i == j ? n2 : 0.0)) / n2);
    ref_conj(pc, p);
    cosrod_quat_qmat(Qc, pc);
    e_tr = fmax(e_tr, maxdiff(Qc, Qt, 16));
    /* literal matrix of [L] eq. 30 / [LLA] eq. 13 (row-major as printed) */
    double lit[16] = {p[0], -p[1], -p[2], -p[3], p[1], p[0],  -p[3], p[2],
                      p[2], p[3],  p[0],  -p[1], p[3], -p[2], p[1],  p[0]};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) e_lit = fmax(e_lit, fabs(Q[i + 4 * j] - lit[4 * i + j]));
  }
  CHECK_LE("max |Q(p) q - p q|", e_l, 1e-14);
  CHECK_LE("max |Qr(q) p - p q|", e_r, 1e-14);
  CHECK_LE("max |Q^T Q - |p|^2 I| / |p|^2", e_orth, 2e-15);
  CHECK_LE("Q(conj p) = Q(p)^T exactly", e_tr, 0.0);
  CHECK_LE("Q(p) equals the printed matrix of [L] eq. 30", e_lit, 0.0);
}

TEST(tmat_identities) {
  th_rng rng;
  th_rng_seed(&rng, 108);
  double e_tw = 0, e_ttpi = 0, e_cols = 0, e_pdot = 0, e_tapp = 0, e_om = 0, e_tan = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], w[3], pi[4], T[12], Q[16], r[4], s[4], wq[4], pc[4], tt[3], pd[4], om[3];
    rand_quat(&rng, p);
    rand_vec(&rng, w);
    rand_quat(&rng, pi);
    cosrod_quat_tmat(T, p);
    cosrod_quat_qmat(Q, p);
    for (int i = 0; i < 12; ++i) e_cols = fmax(e_cols, fabs(T[i] - 0.5 * Q[4 + i]));
    /* T(p) w = 1/2 p w  ([L] eq. 43) */
    matmul(r, T, w, 4, 3, 1);
    cosrod_quat_pure(wq, w);
    ref_mul(s, p, wq);
    for (int i = 0; i < 4; ++i) e_tw = fmax(e_tw, fabs(r[i] - 0.5 * s[i]));
    cosrod_quat_pdot(pd, p, w);
    e_pdot = fmax(e_pdot, maxdiff(pd, r, 4));
    /* T(p)^T pi = 1/2 Im(conj(p) pi) */
    for (int k = 0; k < 3; ++k) {
      double acc = 0.0;
      for (int i = 0; i < 4; ++i) acc += T[i + 4 * k] * pi[i];
      tt[k] = acc;
    }
    ref_conj(pc, p);
    ref_mul(s, pc, pi);
    for (int k = 0; k < 3; ++k) e_ttpi = fmax(e_ttpi, fabs(tt[k] - 0.5 * s[k + 1]));
    cosrod_quat_tmat_T_apply(om, p, pi);
    e_tapp = fmax(e_tapp, maxdiff(om, tt, 3));
    /* unit p: omega(p, 1/2 p w) = w and <p, pdot> = 0 */
    double u[4];
    cosrod_quat_normalise(u, p);
    cosrod_quat_pdot(pd, u, w);
    cosrod_quat_omega(om, u, pd);
    e_om = fmax(e_om, maxdiff(om, w, 3));
    e_tan = fmax(e_tan, fabs(cosrod_quat_dot(u, pd)));
  }
  CHECK_LE("T(p) = 1/2 (last three columns of Q(p))", e_cols, 0.0);
  CHECK_LE("max |T(p) w - 1/2 p w|", e_tw, 1e-14);
  CHECK_LE("max |pdot(p, w) - T(p) w|", e_pdot, 1e-14);
  CHECK_LE("max |T(p)^T pi - 1/2 Im(conj p pi)|", e_ttpi, 1e-14);
  CHECK_LE("max |tmat_T_apply - T^T pi|", e_tapp, 1e-14);
  CHECK_LE("max |2 Im(conj p (1/2 p w)) - w| (unit p)", e_om, 1e-14);
  CHECK_LE("max |<p, 1/2 p w>| (tangential)", e_tan, 1e-15);
}

TEST(mass_tangential_inverse) {
  th_rng rng;
  th_rng_seed(&rng, 109);
  int nbad = 0;
  double e_mm = 0, e_mm2 = 0, e_app = 0, e_sapp = 0, e_hom = 0, e_sym = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], In[3], mu[16], mus[16], P[16], P2[16], v[4], a[4], b[4];
    rand_unit(&rng, p);
    for (int k = 0; k < 3; ++k) In[k] = pow(10.0, th_rng_uniform(&rng, -2, 2));
    cosrod_quat_mass(mu, p, In);
    nbad += !(cosrod_quat_mass_sharp(mus, p, In) == COSROD_OK);
    matmul(P, mu, mus, 4, 4, 4);
    matmul(P2, mus, mu, 4, 4, 4);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double want = (i == j ? 1.0 : 0.0) - p[i] * p[j];
        e_mm = fmax(e_mm, fabs(P[i + 4 * j] - want));
        e_mm2 = fmax(e_mm2, fabs(P2[i + 4 * j] - want));
        e_sym = fmax(e_sym, fabs(mu[i + 4 * j] - mu[j + 4 * i]));
      }
    /* mat-vec forms */
    rand_quat(&rng, v);
    double lp[4], lam = th_rng_uniform(&rng, 0.2, 3.0), mul[16];
    matmul(a, mu, v, 4, 4, 1);
    cosrod_quat_mass_apply(b, p, In, v);
    double Imax = fmax(In[0], fmax(In[1], In[2])), Imin = fmin(In[0], fmin(In[1], In[2]));
    e_app = fmax(e_app, maxdiff(a, b, 4) / (4 * Imax * cosrod_quat_norm(v)));
    for (int i = 0; i < 4; ++i) lp[i] = lam * p[i];
    cosrod_quat_mass_sharp(mus, lp, In);
    matmul(a, mus, v, 4, 4, 1);
    cosrod_quat_mass_sharp_apply(b, lp, In, v);
    e_sapp = fmax(e_sapp, maxdiff(a, b, 4) * 4 * Imin * lam * lam / cosrod_quat_norm(v));
    /* mu(lam p) = lam^2 mu(p) */
    cosrod_quat_mass(mul, lp, In);
    for (int i = 0; i < 16; ++i)
      e_hom = fmax(e_hom, fabs(mul[i] - lam * lam * mu[i]) / (4 * Imax * lam * lam));
  }
  CHECK("mass_sharp returns OK for every sample", nbad == 0);
  /* The inertias span 1e-2..1e2, so mu mu# involves ratios up to 1e4: rounding grows with
   * cond ~ Imax/Imin -> tolerance 1e-11 on an O(1) result */
  CHECK_LE("max |mu mu# - (I - p p^T)| (unit p)", e_mm, 1e-11);
  CHECK_LE("max |mu# mu - (I - p p^T)| (unit p)", e_mm2, 1e-11);
  CHECK_LE("mu symmetric", e_sym, 0.0);
  CHECK_LE("max |mu v - mass_apply| / (4 Imax |v|)", e_app, 1e-15);
  CHECK_LE("max |mu# v - mass_sharp_apply| * 4 Imin |p|^2 / |v|", e_sapp, 1e-14);
  CHECK_LE("max |mu(lam p) - lam^2 mu(p)| / (4 Imax lam^2)", e_hom, 2e-15);
  double z[4] = {0, 0, 0, 0}, In[3] = {1, 2, 3}, I0[3] = {1, 0, 3}, M[16], p[4] = {1, 0, 0, 0};
  CHECK("mass_sharp(0) -> ERR_SINGULAR", cosrod_quat_mass_sharp(M, z, In) == COSROD_ERR_SINGULAR);
  CHECK("mass_sharp with I2 = 0 -> ERR_SINGULAR", cosrod_quat_mass_sharp(M, p, I0) == COSROD_ERR_SINGULAR);
}

TEST(mass_eigenvectors_qmat) {
  th_rng rng;
  th_rng_seed(&rng, 110);
  int nbad = 0;
  double e_vec = 0, e_eig = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], In[3], mu[16], Q[16], A[16], ev[4];
    rand_unit(&rng, p);
    for (int k = 0; k < 3; ++k) In[k] = th_rng_uniform(&rng, 0.1, 10.0);
    cosrod_quat_mass(mu, p, In);
    cosrod_quat_qmat(Q, p);
    double lam[4] = {0.0, 4 * In[0], 4 * In[1], 4 * In[2]};
    for (int k = 0; k < 4; ++k) {
      double r[4];
      matmul(r, mu, Q + 4 * k, 4, 4, 1);
      for (int i = 0; i < 4; ++i) e_vec = fmax(e_vec, fabs(r[i] - lam[k] * Q[i + 4 * k]) / 40.0);
    }
    /* eigenvalues by LAPACK (independent) against sorted {0, 4 I1, 4 I2, 4 I3} */
    memcpy(A, mu, sizeof A);
    int info = (int)LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'U', 4, A, 4, ev);
    nbad += !(info == 0);
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j)
        if (lam[j] < lam[i]) {
          double t = lam[i];
          lam[i] = lam[j];
          lam[j] = t;
        }
    for (int i = 0; i < 4; ++i) e_eig = fmax(e_eig, fabs(ev[i] - lam[i]) / 40.0);
  }
  CHECK("LAPACK dsyev info = 0 for every sample", nbad == 0);
  /* relative to the largest possible eigenvalue 40 */
  CHECK_LE("max |mu Q_k - lam_k Q_k| / 40, lam = (0, 4I1, 4I2, 4I3)", e_vec, 2e-15);
  CHECK_LE("max |eig(mu) - sort(0, 4I)| / 40 (LAPACK dsyev)", e_eig, 1e-14);
}

TEST(mass_kinetic_energy_and_gyro) {
  th_rng rng;
  th_rng_seed(&rng, 111);
  double e_T = 0, e_g = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], In[3], Om[3], pd[4], mu[16], mpd[4], g[4], g2[4];
    rand_unit(&rng, p);
    rand_vec(&rng, Om);
    for (int k = 0; k < 3; ++k) In[k] = th_rng_uniform(&rng, 0.1, 10.0);
    cosrod_quat_pdot(pd, p, Om);
    cosrod_quat_mass(mu, p, In);
    matmul(mpd, mu, pd, 4, 4, 1);
    double T4 = cosrod_quat_dot(pd, mpd);
    double T3 = In[0] * Om[0] * Om[0] + In[1] * Om[1] * Om[1] + In[2] * Om[2] * Om[2];
    e_T = fmax(e_T, fabs(T4 - T3) / T3);
    /* gyro term 8 Q(pdot) I Q(pdot)^T p with explicit matrices */
    double Qd[16], Qt[16], IQtp[4];
    cosrod_quat_qmat(Qd, pd);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) Qt[j + 4 * i] = Qd[i + 4 * j];
    matmul(IQtp, Qt, p, 4, 4, 1);
    IQtp[0] = 0.0;
    for (int k = 0; k < 3; ++k) IQtp[k + 1] *= 8.0 * In[k];
    matmul(g2, Qd, IQtp, 4, 4, 1);

    cosrod_quat_mass_gyro(g, p, pd, In);
    e_g = fmax(e_g, maxdiff(g, g2, 4) / (8 * 10 * cosrod_quat_norm2(pd)));
  }
  CHECK_LE("max |pdot^T mu pdot - Om^T I Om| / (Om^T I Om)", e_T, 1e-14);
  CHECK_LE("max |mass_gyro - 8 Q(pd) I Q(pd)^T p| (rel)", e_g, 1e-15);
}

TEST(project_onto_sphere) {
  th_rng rng;
  th_rng_seed(&rng, 112);
  int nbad = 0;
  double e_n = 0, e_t = 0, e_v = 0;
  for (int n = 0; n < NS; ++n) {
    double p[4], pd[4], p0[4], pd0[4];
    rand_quat(&rng, p);
    rand_quat(&rng, pd);
    cosrod_quat_copy(p0, p);
    cosrod_quat_copy(pd0, pd);
    nbad += !(cosrod_quat_project(p, pd) == COSROD_OK);
    e_n = fmax(e_n, fabs(cosrod_quat_norm(p) - 1.0));
    e_t = fmax(e_t, fabs(cosrod_quat_dot(p, pd)) / cosrod_quat_norm(pd0));
    /* the removed part is along p: pd0 - pd = <p, pd0> p */
    double c = cosrod_quat_dot(p, pd0);
    for (int i = 0; i < 4; ++i) e_v = fmax(e_v, fabs(pd0[i] - pd[i] - c * p[i]) / cosrod_quat_norm(pd0));
  }
  CHECK("project returns OK for every sample", nbad == 0);
  CHECK_LE("max | |p| - 1 | after projection", e_n, 1e-15);
  CHECK_LE("max |<p, pdot>| / |pdot| after projection", e_t, 1e-15);
  CHECK_LE("max |pdot0 - pdot - <p,pdot0> p| / |pdot0|", e_v, 1e-15);
  double z[4] = {0, 0, 0, 0};
  CHECK("project(0) -> ERR_SINGULAR", cosrod_quat_project(z, NULL) == COSROD_ERR_SINGULAR);
}

/* ---- Spurrier–Klumpp ---------------------------------------------------------- */

TEST(spurrier_klumpp_random) {
  th_rng rng;
  th_rng_seed(&rng, 113);
  int nbad = 0;
  double e_pm = 0, e_unit = 0;
  int branch[4] = {0, 0, 0, 0}, pivot_ok = 1;
  for (int n = 0; n < NS; ++n) {
    double p[4], R[9], q[4];
    rand_unit(&rng, p);
    cosrod_quat_to_matrix(R, p);
    nbad += !(cosrod_quat_from_matrix(q, R) == COSROD_OK);
    e_pm = fmax(e_pm, dist_pm(q, p));
    e_unit = fmax(e_unit, fabs(cosrod_quat_norm(q) - 1.0));
    /* the branch is decided by the largest |p_n| (trace <-> p0, R_nn <-> p_n) */
    int m = 0;
    for (int k = 1; k < 4; ++k)
      if (fabs(p[k]) > fabs(p[m])) m = k;
    branch[m]++;
    if (!(q[m] > 0.0)) pivot_ok = 0;
  }
  CHECK("from_matrix returns OK for every sample", nbad == 0);
  NOTE("branches taken: p0 %d, p1 %d, p2 %d, p3 %d", branch[0], branch[1], branch[2], branch[3]);
  CHECK("every Spurrier-Klumpp branch exercised >= 50 times",
        branch[0] >= 50 && branch[1] >= 50 && branch[2] >= 50 && branch[3] >= 50);
  CHECK("pivot component positive", pivot_ok);
  /* pivot >= 1/2, so each component is a rounded O(1) ratio: a few eps */
  CHECK_LE("max min|q -+ p| over random rotations", e_pm, 1e-15);
  CHECK_LE("max | |q| - 1 |", e_unit, 1e-15);
}

TEST(spurrier_klumpp_near_pi) {
  th_rng rng;
  th_rng_seed(&rng, 114);
  double e_pm = 0, e_R = 0;
  for (int n = 0; n < NS; ++n) {
    double u[3], p[4], R[9], q[4], Rq[9];
    rand_vec(&rng, u);
    /* angle pi - eps, eps in [0, 1e-8] (and exactly pi for n % 10 == 0); both signs */
    double eps = (n % 10 == 0) ? 0.0 : th_rng_uniform(&rng, 0.0, 1e-8);
    double a = (n % 2 ? 1.0 : -1.0) * (PI - eps);
    cosrod_quat_from_axis_angle(p, u, a);
    cosrod_quat_to_matrix(R, p);
    cosrod_quat_from_matrix(q, R);
    e_pm = fmax(e_pm, dist_pm(q, p));
    cosrod_quat_to_matrix(Rq, q);
    e_R = fmax(e_R, maxdiff(Rq, R, 9));
  }
  /* near pi the p0 branch is never used; pivots are >= 1/2, so no loss of accuracy */
  CHECK_LE("max min|q -+ p| for angles within 1e-8 of pi", e_pm, 1e-15);
  CHECK_LE("max |R(q) - R|", e_R, 2e-15);
  /* near identity too */
  double p[4] = {1, 1e-9, -2e-9, 3e-9}, R[9], q[4];
  cosrod_quat_normalise(p, p);
  cosrod_quat_to_matrix(R, p);
  cosrod_quat_from_matrix(q, R);
  CHECK_VEC("near identity recovered", q, p, 4, 0, 1e-16);
}

TEST(spurrier_klumpp_perturbed_frame) {
  th_rng rng;
  th_rng_seed(&rng, 115);
  double worst = 0.0;
  const double delta = 1e-6;
  for (int n = 0; n < NS; ++n) {
    double p[4], R[9], q[4];
    rand_unit(&rng, p);
    cosrod_quat_to_matrix(R, p);
    for (int i = 0; i < 9; ++i) R[i] += delta * th_rng_uniform(&rng, -1, 1);
    cosrod_quat_from_matrix(q, R);
    cosrod_quat_normalise(q, q);
    /* the projected frame is within O(delta) of the drifted one ([L] §6: works near SO(3)) */
    worst = fmax(worst, dist_pm(q, p) / delta);
  }
  /* each quaternion component is a linear combination of at most 4 entries
   * divided by 4 * pivot >= 2, plus the pivot's own perturbation: <= ~2 delta */
  CHECK_LE("max min|q -+ p| / delta for frames perturbed by delta = 1e-6", worst, 2.0);
  double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, NAN}, q[4] = {5, 5, 5, 5};
  CHECK("NaN frame -> ERR_NONFINITE", cosrod_quat_from_matrix(q, R) == COSROD_ERR_NONFINITE);
  CHECK("output untouched", q[0] == 5.0);
}

/* ---- slerp ------------------------------------------------------------------- */

TEST(slerp_great_circle) {
  th_rng rng;
  th_rng_seed(&rng, 116);
  int nbad = 0;
  double e_end = 0, e_unit = 0, e_speed = 0, e_plane = 0;
  for (int n = 0; n < NS; ++n) {
    double q0[4], q1[4], r[4];
    rand_unit(&rng, q0);
    rand_unit(&rng, q1);
    double th = acos(fmax(-1.0, fmin(1.0, cosrod_quat_dot(q0, q1))));
    if (th > PI - 1e-3) continue;
    cosrod_quat_slerp(r, 0.0, q0, q1);
    e_end = fmax(e_end, maxdiff(r, q0, 4));
    cosrod_quat_slerp(r, 1.0, q0, q1);
    e_end = fmax(e_end, maxdiff(r, q1, 4));
    double t = th_rng_uniform(&rng, -0.5, 1.5); /* includes extrapolation */
    nbad += !(cosrod_quat_slerp(r, t, q0, q1) == COSROD_OK);
    e_unit = fmax(e_unit, fabs(cosrod_quat_norm(r) - 1.0));
    /* constant speed along the great circle: <r, q0> = cos(t th), <r, q1> = cos((1-t) th) */
    e_speed = fmax(e_speed, fabs(cosrod_quat_dot(r, q0) - cos(t * th)));
    e_speed = fmax(e_speed, fabs(cosrod_quat_dot(r, q1) - cos((1 - t) * th)));
    /* stays in span{q0, q1}: residual of the projection */
    double g = cosrod_quat_dot(q0, q1), a0 = cosrod_quat_dot(r, q0), a1 = cosrod_quat_dot(r, q1);
    double det = 1 - g * g, c0 = (a0 - g * a1) / det, c1 = (a1 - g * a0) / det, res[4];
    if (det < 1e-6) continue;
    for (int i = 0; i < 4; ++i) res[i] = r[i] - c0 * q0[i] - c1 * q1[i];
    e_plane = fmax(e_plane, cosrod_quat_norm(res));
  }
  CHECK("slerp returns OK for every sample", nbad == 0);
  /* extrapolation (t < 0, t > 1) uses coefficients up to ~1/sin(th) with cancellation,
   * so the norm error is a few eps times that; th <= pi - 1e-3 here */
  CHECK_LE("slerp(0) = q0, slerp(1) = q1", e_end, 1e-15);
  CHECK_LE("max | |slerp| - 1 |, t in [-0.5, 1.5]", e_unit, 1e-14);
  CHECK_LE("max |<r,q0> - cos(t th)|, |<r,q1> - cos((1-t) th)|", e_speed, 1e-14);
  CHECK_LE("max distance of slerp from span{q0, q1}", e_plane, 1e-13);
  /* tiny angles: no 0/0, matches normalised linear interpolation to O(th^2) */
  double q0[4] = {1, 0, 0, 0}, q1[4], r[4], ax[3] = {1, 2, 3}, want[4];
  cosrod_quat_from_axis_angle(q1, ax, 1e-12);
  cosrod_quat_slerp(r, 0.3, q0, q1);
  cosrod_quat_from_axis_angle(want, ax, 0.3e-12);
  CHECK_VEC("slerp over 1e-12 rad", r, want, 4, 0, 1e-16);
  cosrod_quat_slerp(r, 0.3, q0, q0);
  CHECK_VEC("slerp(q0, q0) = q0", r, q0, 4, 0, 0);
  double mq0[4] = {-1, 0, 0, 0};
  CHECK("antipodal endpoints -> ERR_INVALID", cosrod_quat_slerp(r, 0.5, q0, mq0) == COSROD_ERR_INVALID);
}

TEST(slerp_lla_test2_boundary) {
  /* [LLA] Test 2: p_0(t) = slerp(t, a, b), a = (1,-1,-1,-1)/2, b = (1,-1,1,1)/2 turns the frame about
   * e2 by pi: p_0(t) = (cos(t pi/2) + sin(t pi/2) e2) a.  p_N uses -b and turns by -pi;
   * R(p_0(1)) = R(p_N(1)). */
  double a[4] = {0.5, -0.5, -0.5, -0.5}, b[4] = {0.5, -0.5, 0.5, 0.5}, mb[4] = {-0.5, 0.5, -0.5, -0.5};
  double e0 = 0, eN = 0;
  for (int n = 0; n <= 100; ++n) {
    double t = n / 100.0, r[4], rot[4], want[4];
    cosrod_quat_slerp(r, t, a, b);
    double ax[3] = {0, 1, 0};
    cosrod_quat_from_axis_angle(rot, ax, t * PI);
    ref_mul(want, rot, a);
    e0 = fmax(e0, maxdiff(r, want, 4));
    cosrod_quat_slerp(r, t, a, mb);
    cosrod_quat_from_axis_angle(rot, ax, -t * PI);
    ref_mul(want, rot, a);
    eN = fmax(eN, maxdiff(r, want, 4));
  }
  CHECK_LE("p_0(t) = rot(e2, t pi) a", e0, 1e-15);
  CHECK_LE("p_N(t) = rot(e2, -t pi) a", eN, 1e-15);
  double R0[9], RN[9];
  cosrod_quat_to_matrix(R0, b);
  cosrod_quat_to_matrix(RN, mb);
  CHECK_MAT("R(p_0(1)) = R(p_N(1))", R0, RN, 3, 3, 3, 3, 0, 0);
}

TEST(reflect_is_slerp_extrapolation) {
  /* ghost quaternion of a clamped end ([LLA] Remark 3.1): slerp(2, a, b) = b conj(a) b */
  th_rng rng;
  th_rng_seed(&rng, 119);
  double e_sl = 0, e_prod = 0;
  for (int n = 0; n < NS; ++n) {
    double a[4], b[4], r[4], s[4], ac[4], t[4], u[4];
    rand_unit(&rng, a);
    rand_unit(&rng, b);
    if (cosrod_quat_dot(a, b) < -0.9) continue; /* slerp needs a != -b; keep sin(th) >= 0.4 */
    cosrod_quat_reflect(r, a, b);
    cosrod_quat_slerp(s, 2.0, a, b);
    e_sl = fmax(e_sl, maxdiff(r, s, 4));
    rand_quat(&rng, a);
    rand_quat(&rng, b);
    cosrod_quat_reflect(r, a, b);
    ref_conj(ac, a);
    ref_mul(t, b, ac);
    ref_mul(u, t, b);
    e_prod = fmax(e_prod, maxdiff(r, u, 4) / (cosrod_quat_norm(a) * cosrod_quat_norm2(b)));
  }
  /* slerp at t = 2 uses sin(2 th)/sin(th) with sin(th) >= 0.4: a few eps */
  CHECK_LE("max |reflect(a,b) - slerp(2,a,b)| (unit a, b)", e_sl, 1e-14);
  CHECK_LE("max |reflect(a,b) - b conj(a) b| / (|a||b|^2) (general a, b)", e_prod, 1e-14);
}

/* ---- 3-1-3 Euler angles --------------------------------------------------------- */

static void rotz(double M[9], double a) {
  double c = cos(a), s = sin(a), m[9] = {c, s, 0, -s, c, 0, 0, 0, 1};
  memcpy(M, m, sizeof m);
}
static void rotx(double M[9], double a) {
  double c = cos(a), s = sin(a), m[9] = {1, 0, 0, 0, c, s, 0, -s, c};
  memcpy(M, m, sizeof m);
}

TEST(euler313_roundtrip) {
  th_rng rng;
  th_rng_seed(&rng, 117);
  int nbad = 0;
  double e_rt = 0, e_R = 0;
  for (int n = 0; n < NS; ++n) {
    double th[3] = {th_rng_uniform(&rng, -PI, PI), th_rng_uniform(&rng, 1e-3, PI - 1e-3),
                    th_rng_uniform(&rng, -PI, PI)};
    double p[4], th2[3], R[9], A[9], B[9], C[9], AB[9], ref[9];
    cosrod_quat_from_euler313(p, th);
    nbad += !(cosrod_quat_to_euler313(th2, p) == COSROD_OK);
    for (int i = 0; i < 3; ++i) e_rt = fmax(e_rt, fabs(th2[i] - th[i]));
    /* R = Rz(th1) Rx(th2) Rz(th3) ([L] §7) */
    rotz(A, th[0]);
    rotx(B, th[1]);
    rotz(C, th[2]);
    matmul(AB, A, B, 3, 3, 3);
    matmul(ref, AB, C, 3, 3, 3);
    cosrod_quat_to_matrix(R, p);
    e_R = fmax(e_R, maxdiff(R, ref, 9));
  }
  CHECK("to_euler313 returns OK for every sample away from gimbal lock", nbad == 0);
  /* th2 >= 1e-3: th1, th3 come from atan2 of components >= sin(5e-4): error ~ eps/5e-4 */
  CHECK_LE("max |euler313(quat(th)) - th|, th2 in [1e-3, pi-1e-3]", e_rt, 1e-12);
  CHECK_LE("max |R(quat(th)) - Rz Rx Rz|", e_R, 2e-15);
  /* heavy top [L] Ex. A: th = (0, pi/3, 0) <-> p = (sqrt(3)/2, 1/2, 0, 0) */
  double th[3] = {0, PI / 3, 0}, p[4], want[4] = {sqrt(3.0) / 2, 0.5, 0, 0};
  cosrod_quat_from_euler313(p, th);
  CHECK_VEC("heavy top p(0)", p, want, 4, 0, 5e-16);
  /* antipode gives the same angles */
  double mp[4] = {-p[0], -p[1], -p[2], -p[3]}, t2[3];
  cosrod_quat_to_euler313(t2, mp);
  CHECK_VEC("euler313(-p) = th", t2, th, 3, 0, 1e-15);
}

TEST(euler313_gimbal_lock) {
  th_rng rng;
  th_rng_seed(&rng, 118);
  double e_R = 0;
  int all_flagged = 1;
  for (int n = 0; n < 200; ++n) {
    double th[3] = {th_rng_uniform(&rng, -PI, PI), (n % 2) ? PI : 0.0, th_rng_uniform(&rng, -PI, PI)};
    if (n % 4 == 0) th[1] = 1e-14;
    double p[4], th2[3], R[9], R2[9], q[4];
    cosrod_quat_from_euler313(p, th);
    if (cosrod_quat_to_euler313(th2, p) != COSROD_ERR_KINEMATIC) all_flagged = 0;
    if (th2[2] != 0.0) all_flagged = 0;
    cosrod_quat_from_euler313(q, th2);
    cosrod_quat_to_matrix(R, p);
    cosrod_quat_to_matrix(R2, q);
    e_R = fmax(e_R, maxdiff(R, R2, 9));
  }
  CHECK("gimbal lock reported as ERR_KINEMATIC with th3 = 0", all_flagged);
  /* th2 = 1e-14 itself is replaced by a nearby angle: R differs by O(1e-14) */
  CHECK_LE("angles returned at gimbal lock reproduce R", e_R, 1e-13);
}

TEST(selfcheck_passes) {
  int nfail = cosrod_quat_selfcheck(stdout);
  CHECK("cosrod_quat_selfcheck reports 0 failures", nfail == 0);
  CHECK("selfcheck with NULL log", cosrod_quat_selfcheck(NULL) == 0);
}

static const th_case cases[] = {
    TH_CASE(quat_mul_unit_table),
    TH_CASE(quat_mul_algebra_random),
    TH_CASE(quat_inverse_normalise),
    TH_CASE(euler_map_orthonormal_det1),
    TH_CASE(euler_map_homogeneous),
    TH_CASE(rotate_matches_sandwich),
    TH_CASE(axis_angle_rodrigues_rotvec),
    TH_CASE(qmat_left_right_products),
    TH_CASE(tmat_identities),
    TH_CASE(mass_tangential_inverse),
    TH_CASE(mass_eigenvectors_qmat),
    TH_CASE(mass_kinetic_energy_and_gyro),
    TH_CASE(project_onto_sphere),
    TH_CASE(spurrier_klumpp_random),
    TH_CASE(spurrier_klumpp_near_pi),
    TH_CASE(spurrier_klumpp_perturbed_frame),
    TH_CASE(slerp_great_circle),
    TH_CASE(slerp_lla_test2_boundary),
    TH_CASE(reflect_is_slerp_extrapolation),
    TH_CASE(euler313_roundtrip),
    TH_CASE(euler313_gimbal_lock),
    TH_CASE(selfcheck_passes),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
