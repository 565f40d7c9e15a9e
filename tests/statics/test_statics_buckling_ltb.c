// SPDX-License-Identifier: Apache-2.0
/* Buckling (cosrod_statics_buckling) of modes that couple bending and
 * torsion.  Greenhill's shaft under a dead axial torque (the non-symmetric
 * path: moments are non-conservative), see greenhill_twisted_shaft.
 * Prandtl's lateral–torsional buckling of a narrow cantilever strip under a
 * dead end force in its stiff plane, P_cr L² / √(EI₂ GJ) = 2 j, j the
 * first zero of the Bessel function J_{-1/4} (= 4.0126, computed here from
 * the power series).  The classical value neglects the prebuckling
 * deflection, which raises P_cr by ~(1 - EI₂/EI₁)^{-1/2}: with EI₁ = 1e4 EI₂
 * that is 5e-5, below the tolerance of the extrapolant (2e-4). */
#include <stdio.h>

#include "statics_test_util.h"

/* J_ν(x) by its power series (x <= 5: 40 terms are plenty). */
static double bessel_j(double nu, double x) {
  double sum = 0.0, h = 0.5 * x;
  for (int m = 0; m < 40; ++m) sum += (m % 2 ? -1.0 : 1.0) * pow(h, 2 * m + nu) / (tgamma(m + 1.0) * tgamma(m + nu + 1.0));
  return sum;
}

/* first zero of J_{-1/4} by bisection on [1, 3] */
static double prandtl_constant(void) {
  double a = 1.0, b = 3.0, fa = bessel_j(-0.25, a);
  for (int it = 0; it < 200; ++it) {
    double c = 0.5 * (a + b), fc = bessel_j(-0.25, c);
    if ((fc < 0.0) == (fa < 0.0))
      a = c, fa = fc;
    else
      b = c;
  }
  return 2.0 * 0.5 * (a + b);
}

/* Strip along e3, clamped at s = 0, deep along d2 (EI1 = 1e4 EI2: strong
 * bending about d1), unit dead force along d2 = e2 at the free end: λ_1 =
 * P_cr (N).  Stiffnesses given directly (EI2 = 1, GJ = 0.5 N m², shear and
 * extension 1e6 N, the ratio to EI2 of a 2 x 20 mm steel strip). */
static double prandtl_lambda(int N) {
  cosrod_rod_def def = st_cantilever(N, 1.0, 0.01, 1);
  def.EI1 = 1e4;
  def.EI2 = 1.0;
  def.GJ = 0.5;
  def.EA = 1e6;
  def.GA1 = def.GA2 = def.EA;
  cosrod_rod_load load = {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 1.0, 0}, COSROD_PROFILE_CONSTANT, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod), lam[2] = {NAN, NAN};
  cosrod_status st = cosrod_statics_buckling(s, 1.0, q, 2, lam, NULL);
  if (st != COSROD_OK) lam[0] = NAN;
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return lam[0];
}

TEST(prandtl_lateral_torsional) {
  const double c = prandtl_constant(), ref = c * sqrt(1.0 * 0.5);
  NOTE("Prandtl constant 2 j_{-1/4,1} = %.6f", c);
  CHECK_CLOSE("series zero vs the published 4.0126", c, 4.0126, 1e-4, 0.0);
  const int Ns[3] = {16, 32, 64};
  double P[3];
  for (int i = 0; i < 3; ++i) {
    P[i] = prandtl_lambda(Ns[i]);
    NOTE("N = %2d: P_cr %.8f N, Prandtl %.8f N, rel. error %.3e", Ns[i], P[i], ref, (P[i] - ref) / ref);
  }
  const double order = log2((P[1] - P[0]) / (P[2] - P[1])), ext = P[2] + (P[2] - P[1]) / 3.0;
  NOTE("self-convergence order %.3f, extrapolated %.8f N (rel. %.2e)", order, ext, (ext - ref) / ref);
  CHECK_CLOSE("P_cr at N = 64 vs Prandtl (5e-4)", P[2], ref, 5e-4, 0.0);
  CHECK_CLOSE("order 2 (self-convergence N = 16, 32, 64)", order, 2.0, 0.0, 0.15);
  CHECK_CLOSE("extrapolated P_cr vs Prandtl (2e-4)", ext, ref, 2e-4, 0.0);
}

/* Round shaft along e3, pinned at s = 0, pinned and sliding along e3 at
 * s = L, unit dead torques -e3 / +e3 on the end segments: λ_1 = M_cr (N m). */
static double greenhill_lambda(int N, double *second, double *third) {
  cosrod_rod_def def = st_cantilever(N, 1.0, 5e-3, 0);
  def.ends[0].kind = COSROD_END_PINNED;
  def.ends[1].kind = COSROD_END_PINNED;
  def.ends[1].slides = 1;
  def.ends[1].slide_axis[2] = 1.0;
  cosrod_rod_load loads[2] = {
      {COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, 0, {0, 0, -1.0}, COSROD_PROFILE_CONSTANT, 0, 1},
      {COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, -1, {0, 0, 1.0}, COSROD_PROFILE_CONSTANT, 0, 1}};
  def.nloads = 2;
  def.loads = loads;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod), lam[4] = {NAN, NAN, NAN, NAN};
  cosrod_status st = cosrod_statics_buckling(s, 1.0, q, 4, lam, NULL);
  if (st != COSROD_OK) lam[0] = lam[1] = lam[2] = lam[3] = NAN;
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  if (second) *second = lam[1];
  if (third) *third = lam[2];
  return lam[0];
}

/* Greenhill: a shaft with ball-jointed ends under a dead axial torque T
 * buckles at T_k = 2π k EI / L (adjacent equilibrium i EI w'' + T w' = 0
 * with w = u1 + i u2, w(0) = w(L) = 0: exp(i T L / EI) = 1; Timoshenko &
 * Gere, Theory of Elastic Stability, §2.13, no axial force).  Each factor
 * is a degenerate pair (the two bending planes of the round shaft), so
 * factors 1, 2 are T_1 and 3, 4 are T_2 = 2 T_1: the non-symmetric pencil's
 * higher factors are refined like the first (statics_buckling.c).  The
 * discrete second mode is two copies of the first mode of half the shaft
 * (the midpoint at w = 0 acts as a pin), so T_2(N) = 2 T_1(N/2) exactly in
 * the discrete model: an independent check of the refined root (the
 * linearised estimate of the pencil about T_1 was 1348.10 at N = 40, 1 %
 * off the discrete root 1361.52). */
TEST(greenhill_twisted_shaft) {
  const double EI = 2.1e11 * ST_PI * pow(5e-3, 4) / 4.0, ref = 2.0 * ST_PI * EI, ref2 = 2.0 * ref;
  const int Ns[3] = {10, 20, 40};
  double M[3], M3[3];
  for (int i = 0; i < 3; ++i) {
    double m2;
    M[i] = greenhill_lambda(Ns[i], &m2, &M3[i]);
    NOTE("N = %2d: M_cr %.8f N m (second %.8f), Greenhill %.8f N m, rel. error %.3e; third %.8f vs 2nd Greenhill "
         "%.8f, rel. error %.3e",
         Ns[i], M[i], m2, ref, (M[i] - ref) / ref, M3[i], ref2, (M3[i] - ref2) / ref2);
  }
  const double order = log2((M[1] - M[0]) / (M[2] - M[1])), ext = M[2] + (M[2] - M[1]) / 3.0;
  NOTE("self-convergence order %.3f, extrapolated %.8f N m (rel. %.2e)", order, ext, (ext - ref) / ref);
  /* the error is ≈ θ²/2 with θ = 2π/N the turn of the buckled shape per
   * segment at T_cr (T Δs / EI): 1.23e-2 at N = 40 */
  CHECK_CLOSE("M_cr at N = 40 vs Greenhill (1.5e-2)", M[2], ref, 1.5e-2, 0.0);
  CHECK_CLOSE("order 2 (self-convergence N = 10, 20, 40)", order, 2.0, 0.0, 0.15);
  CHECK_CLOSE("extrapolated M_cr vs Greenhill (3e-4)", ext, ref, 3e-4, 0.0);
  /* T_2(N) = 2 T_1(N/2): both roots to the iteration's 1e-9 of μ */
  for (int i = 1; i < 3; ++i) {
    NOTE("N = %d: third %.10f, 2 x first of N = %d %.10f", Ns[i], M3[i], Ns[i - 1], 2.0 * M[i - 1]);
    CHECK_CLOSE("T_2(N) = 2 T_1(N/2) (discrete second Greenhill factor)", M3[i], 2.0 * M[i - 1], 1e-8, 0.0);
  }
  /* and the closed form 4π EI/L: error ≈ θ²/2, θ = 4π/N = 0.31 at N = 40 */
  CHECK_CLOSE("second Greenhill factor at N = 40 vs 4 pi EI / L (6e-2)", M3[2], ref2, 6e-2, 0.0);
}

static const th_case cases[] = {TH_CASE(prandtl_lateral_torsional), TH_CASE(greenhill_twisted_shaft)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
