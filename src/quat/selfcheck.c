// SPDX-License-Identifier: Apache-2.0
/* Quick self-check of the quaternion module (`cosrod selfcheck`).
 *
 * Evaluates a handful of identities from [LLA] §2 and [L] §4–6 on fixed
 * pseudo-random quaternions and prints the largest error of each.  The full
 * verification lives in tests/quat; this is a smoke test for installed builds. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "cosrod/quat.h"

#define NSAMPLES 200

/* Small deterministic generator (splitmix64), uniform in [-1, 1). */
static double urand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return 2.0 * ((double)(z >> 11) * (1.0 / 9007199254740992.0)) - 1.0;
}

static void rand_unit(double p[4], uint64_t *s) {
  do {
    cosrod_quat_set(p, urand(s), urand(s), urand(s), urand(s));
  } while (cosrod_quat_norm2(p) < 1e-2);
  cosrod_quat_normalise(p, p);
}

static double det3(const double R[9]) {
  return R[0] * (R[4] * R[8] - R[7] * R[5]) - R[3] * (R[1] * R[8] - R[7] * R[2]) +
         R[6] * (R[1] * R[5] - R[4] * R[2]);
}

static int report(FILE *log, const char *what, double err, double tol) {
  int ok = err <= tol;
  if (log) fprintf(log, "  %-44s max error %9.2e  (tol %.0e)  %s\n", what, err, tol, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

int cosrod_quat_selfcheck(FILE *log) {
  uint64_t s = 20110101u;
  double e_orth = 0, e_det = 0, e_sand = 0, e_mass = 0, e_sk = 0, e_pinv = 0, e_eul = 0, e_jac = 0;
  const double inertia[3] = {0.7, 1.3, 2.0};
  for (int n = 0; n < NSAMPLES; ++n) {
    double p[4], R[9], w[3], a[3], b[4], c[4], q[4];
    rand_unit(p, &s);
    cosrod_quat_to_matrix(R, p);
    /* R^T R = I, det R = 1 */
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double g = 0.0;
        for (int k = 0; k < 3; ++k) g += R[k + 3 * i] * R[k + 3 * j];
        e_orth = fmax(e_orth, fabs(g - (i == j ? 1.0 : 0.0)));
      }
    e_det = fmax(e_det, fabs(det3(R) - 1.0));
    /* R(p) w = Im(p w conj p) */
    cosrod_vec3_set(w, urand(&s), urand(&s), urand(&s));
    cosrod_quat_rotate(a, p, w);
    cosrod_quat_mul_pure(b, p, w);
    cosrod_quat_mul_conj(c, b, p);
    for (int i = 0; i < 3; ++i) e_sand = fmax(e_sand, fabs(a[i] - c[i + 1]));
    /* mu mu# = I - p p^T */
    double mu[16], mus[16];
    cosrod_quat_mass(mu, p, inertia);
    cosrod_quat_mass_sharp(mus, p, inertia);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double g = 0.0;
        for (int k = 0; k < 4; ++k) g += mu[i + 4 * k] * mus[k + 4 * j];
        e_mass = fmax(e_mass, fabs(g - ((i == j ? 1.0 : 0.0) - p[i] * p[j])));
      }
    /* Spurrier–Klumpp recovers +-p */
    cosrod_quat_from_matrix(q, R);
    double dm = 0.0, dp = 0.0;
    for (int i = 0; i < 4; ++i) {
      dm = fmax(dm, fabs(q[i] - p[i]));
      dp = fmax(dp, fabs(q[i] + p[i]));
    }
    e_sk = fmax(e_sk, fmin(dm, dp));
    /* D phi^# D phi = I (4x4) */
    double D[36], P[36];
    cosrod_quat_dphi(D, p);
    cosrod_quat_dphi_pinv(P, p);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double g = 0.0;
        for (int k = 0; k < 9; ++k) g += P[i + 4 * k] * D[k + 9 * j];
        e_pinv = fmax(e_pinv, fabs(g - (i == j ? 1.0 : 0.0)));
      }
    /* 3-1-3 Euler angles round trip, th2 in [0.1, pi - 0.1] */
    double th[3] = {3.0 * urand(&s), 1.5707963267948966 + 1.4 * urand(&s), 3.0 * urand(&s)}, th2[3];
    cosrod_quat_from_euler313(q, th);
    cosrod_quat_to_euler313(th2, q);
    for (int i = 0; i < 3; ++i) e_eul = fmax(e_eul, fabs(th2[i] - th[i]));
    /* d(R^T v)/dp against central differences (R quadratic: only rounding error) */
    double J[12], Jfd[12];
    cosrod_quat_dRTv_dp(J, p, w);
    cosrod_quat_dRTv_dp_fd(Jfd, p, w, 1e-5);
    for (int i = 0; i < 12; ++i) e_jac = fmax(e_jac, fabs(J[i] - Jfd[i]));
  }
  if (log) fprintf(log, "quaternion module self-check (%d random unit quaternions):\n", NSAMPLES);
  int nfail = 0;
  nfail += report(log, "R(p)^T R(p) = I", e_orth, 1e-14);
  nfail += report(log, "det R(p) = 1", e_det, 1e-14);
  nfail += report(log, "R(p) w = p w conj(p)", e_sand, 1e-14);
  nfail += report(log, "mu(p) mu#(p) = I - p p^T", e_mass, 1e-13);
  nfail += report(log, "Spurrier-Klumpp(R(p)) = +-p", e_sk, 1e-14);
  nfail += report(log, "Dphi#(p) Dphi(p) = I", e_pinv, 1e-14);
  nfail += report(log, "euler313(quat(th)) = th", e_eul, 1e-12);
  nfail += report(log, "d(R^T v)/dp = central differences", e_jac, 1e-9);
  if (log) fprintf(log, "%s\n", nfail ? "self-check FAILED" : "all identities hold");
  return nfail;
}
