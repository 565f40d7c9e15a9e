// SPDX-License-Identifier: Apache-2.0
/* C¹ cubic keyframe interpolation of prescribed ends (rod_keyframes.c):
 * the motion passes through the keyframes, its velocity is continuous at
 * them (linear keyframes: a jump), the interior velocities are the
 * Catmull–Rom tangents, the first / last velocities 0, and the returned
 * derivatives agree with central finite differences of the returned values. */
#include <math.h>
#include <stdio.h>

#include "cosrod/rod.h"
#include "harness.h"

/* Non-uniform keyframe times on purpose. */
static const double POS[4 * 4] = {0.0, 1.0, 0.0, 0.0,  //
                                  0.4, 1.0, 0.2, 0.1,  //
                                  1.0, 0.8, 0.5, 0.1,  //
                                  1.3, 0.7, 0.5, -0.2};
/* unit quaternions (normalised at creation), consecutive ones not antipodal */
static const double ROT[4 * 5] = {0.0, 1.0, 0.0, 0.0,  0.0,  //
                                  0.4, 0.9, 0.3, 0.1,  0.0,  //
                                  1.0, 0.6, 0.5, 0.4,  0.2,  //
                                  1.3, 0.2, 0.6, -0.3, 0.7};

static cosrod_rod *make(int cubic) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 4;
  def.direction[0] = 1.0, def.direction[1] = 0.0, def.direction[2] = 0.0;
  def.normal[0] = 0.0, def.normal[2] = 1.0;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_PRESCRIBED;
  def.ends[1].npos = 4;
  def.ends[1].pos = POS;
  def.ends[1].nrot = 4;
  def.ends[1].rot = ROT;
  def.ends[1].cubic = cubic;
  cosrod_status st;
  cosrod_rod *rod = cosrod_rod_create(&def, &st);
  if (!rod) NOTE("create: %s", cosrod_strerror(st));
  CHECK("rod created", rod != NULL);
  return rod;
}

static void motion(const cosrod_rod *rod, double t, double x[3], double xd[3], double xdd[3], double p[4],
                   double pd[4], double pdd[4]) {
  cosrod_rod_end_motion(rod, 1, t, x, xd, xdd, p, pd, pdd);
}

static double dist(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

TEST(cubic_positions_c1_through_keyframes) {
  cosrod_rod *rod = make(1), *lin = make(0);
  if (!rod || !lin) goto out;
  double x[3], xd[3], xdd[3], p[4], pd[4], pdd[4];
  double through = 0.0, jump = 0.0, jump_lin = 0.0, tangent = 0.0;
  const double eps = 1e-8;
  for (int k = 0; k < 4; k++) {
    double tk = POS[4 * k];
    motion(rod, tk, x, xd, xdd, p, pd, pdd);
    through = fmax(through, dist(x, POS + 4 * k + 1, 3));
    double a[3], ad[3], b[3], bd[3];
    motion(rod, tk - eps, a, ad, xdd, p, pd, pdd);
    motion(rod, tk + eps, b, bd, xdd, p, pd, pdd);
    jump = fmax(jump, dist(ad, bd, 3));
    /* interior: the Catmull–Rom tangent (P_{k+1} - P_{k-1}) / (t_{k+1} - t_{k-1}); ends: 0 */
    double m[3] = {0, 0, 0};
    if (k > 0 && k < 3)
      for (int j = 0; j < 3; j++)
        m[j] = (POS[4 * (k + 1) + 1 + j] - POS[4 * (k - 1) + 1 + j]) / (POS[4 * (k + 1)] - POS[4 * (k - 1)]);
    tangent = fmax(tangent, fmax(dist(ad, m, 3), dist(bd, m, 3)));
    motion(lin, tk - eps, a, ad, xdd, p, pd, pdd);
    motion(lin, tk + eps, b, bd, xdd, p, pd, pdd);
    if (k > 0 && k < 3) jump_lin = fmax(jump_lin, dist(ad, bd, 3));
  }
  CHECK_LE("passes through the keyframes: max |x(t_k) - P_k|", through, 1e-15);
  /* |ẍ| <= ~10 here: a C¹ velocity changes by <= 2 eps * 10 across t_k */
  CHECK_LE("velocity continuous at the keyframes: max |ẋ(t_k+) - ẋ(t_k-)|", jump, 1e-5);
  CHECK_LE("velocity = Catmull–Rom tangent (0 at the first and last keyframe)", tangent, 1e-5);
  NOTE("linear keyframes: velocity jump %.3g m/s at interior keyframes", jump_lin);
  CHECK("linear keyframes jump (the difference is real)", jump_lin > 0.1);
  /* derivatives vs central differences at points inside the intervals */
  double e1 = 0.0, e2 = 0.0;
  const double h = 1e-5;
  for (double t = 0.05; t < 1.3; t += 0.1) {
    double xm[3], xp[3], vm[3], vp[3], d1[3], d2[3];
    motion(rod, t, x, xd, xdd, p, pd, pdd);
    motion(rod, t - h, xm, vm, d1, p, pd, pdd);
    motion(rod, t + h, xp, vp, d2, p, pd, pdd);
    for (int j = 0; j < 3; j++) {
      e1 = fmax(e1, fabs((xp[j] - xm[j]) / (2 * h) - xd[j]));
      e2 = fmax(e2, fabs((vp[j] - vm[j]) / (2 * h) - xdd[j]));
    }
  }
  /* central differences: error ~ h² |x'''| / 6 + u |x| / h ~ 1e-9 */
  CHECK_LE("ẋ = central difference of x", e1, 1e-7);
  CHECK_LE("ẍ = central difference of ẋ", e2, 1e-6);
  /* outside the keyframe range: held at the first / last keyframe, at rest */
  motion(rod, 2.0, x, xd, xdd, p, pd, pdd);
  CHECK_LE("after the last keyframe: x = P_3", dist(x, POS + 13, 3), 0.0);
  CHECK_LE("after the last keyframe: at rest", fabs(xd[0]) + fabs(xd[1]) + fabs(xd[2]), 0.0);
out:
  cosrod_rod_free(rod);
  cosrod_rod_free(lin);
}

TEST(cubic_orientations_c1_unit_through_keyframes) {
  cosrod_rod *rod = make(1);
  if (!rod) return;
  double x[3], xd[3], xdd[3], p[4], pd[4], pdd[4];
  double through = 0.0, jump = 0.0, unit = 0.0, tang = 0.0, e1 = 0.0, e2 = 0.0;
  const double eps = 1e-8, h = 1e-5;
  for (int k = 0; k < 4; k++) {
    double q[4], nq = 0.0;
    for (int j = 0; j < 4; j++) nq += ROT[5 * k + 1 + j] * ROT[5 * k + 1 + j];
    for (int j = 0; j < 4; j++) q[j] = ROT[5 * k + 1 + j] / sqrt(nq);
    motion(rod, ROT[5 * k], x, xd, xdd, p, pd, pdd);
    through = fmax(through, dist(p, q, 4));
    double a[4], ad[4], b[4], bd[4];
    motion(rod, ROT[5 * k] - eps, x, xd, xdd, a, ad, pdd);
    motion(rod, ROT[5 * k] + eps, x, xd, xdd, b, bd, pdd);
    jump = fmax(jump, dist(ad, bd, 4));
  }
  for (double t = 0.05; t < 1.3; t += 0.1) {
    double pm[4], pp[4], dm[4], dp[4];
    motion(rod, t, x, xd, xdd, p, pd, pdd);
    motion(rod, t - h, x, xd, xdd, pm, dm, pdd);
    double pdd_t[4];
    motion(rod, t, x, xd, xdd, p, pd, pdd_t);
    motion(rod, t + h, x, xd, xdd, pp, dp, pdd);
    unit = fmax(unit, fabs(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]) - 1.0));
    tang = fmax(tang, fabs(p[0] * pd[0] + p[1] * pd[1] + p[2] * pd[2] + p[3] * pd[3]));
    for (int j = 0; j < 4; j++) {
      e1 = fmax(e1, fabs((pp[j] - pm[j]) / (2 * h) - pd[j]));
      e2 = fmax(e2, fabs((dp[j] - dm[j]) / (2 * h) - pdd_t[j]));
    }
  }
  CHECK_LE("passes through the keyframes: max |p(t_k) - q_k|", through, 1e-15);
  CHECK_LE("angular velocity continuous at the keyframes: max |ṗ(t_k+) - ṗ(t_k-)|", jump, 1e-5);
  CHECK_LE("unit quaternions: max | |p| - 1 |", unit, 1e-15);
  CHECK_LE("ṗ tangent to the sphere: max |p·ṗ|", tang, 1e-14);
  CHECK_LE("ṗ = central difference of p", e1, 1e-7);
  CHECK_LE("p̈ = central difference of ṗ", e2, 1e-5);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(cubic_positions_c1_through_keyframes),
                                TH_CASE(cubic_orientations_c1_unit_through_keyframes)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
