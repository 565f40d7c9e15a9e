/* Buckling (cosrod_statics_buckling) of a mode that couples bending and
 * torsion: Prandtl's lateral–torsional buckling of a narrow cantilever strip
 * under a dead end force in its stiff plane, P_cr L² / √(EI₂ GJ) = 2 j, j the
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
  const int Ns[3] = {20, 40, 80};
  double P[3];
  for (int i = 0; i < 3; ++i) {
    P[i] = prandtl_lambda(Ns[i]);
    NOTE("N = %2d: P_cr %.8f N, Prandtl %.8f N, rel. error %.3e", Ns[i], P[i], ref, (P[i] - ref) / ref);
  }
  const double order = log2((P[1] - P[0]) / (P[2] - P[1])), ext = P[2] + (P[2] - P[1]) / 3.0;
  NOTE("self-convergence order %.3f, extrapolated %.8f N (rel. %.2e)", order, ext, (ext - ref) / ref);
  CHECK_CLOSE("P_cr at N = 80 vs Prandtl (5e-4)", P[2], ref, 5e-4, 0.0);
  CHECK_CLOSE("order 2 (self-convergence N = 20, 40, 80)", order, 2.0, 0.0, 0.15);
  CHECK_CLOSE("extrapolated P_cr vs Prandtl (2e-4)", ext, ref, 2e-4, 0.0);
}

static const th_case cases[] = {TH_CASE(prandtl_lateral_torsional)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
