// SPDX-License-Identifier: Apache-2.0
/* Linearised buckling (cosrod_statics_buckling) against closed forms:
 * Euler's loads π² EI/(k L)² of a steel column for the four support cases
 * (clamped–free k = 2, pinned–pinned 1, clamped–pinned 0.6992, clamped–
 * clamped 0.5; the top end slides along the axis where it is supported),
 * converging at order 2 in N (self-convergence), the
 * Richardson extrapolant within 1e-3 of Euler; a round column's first two modes are a
 * degenerate pair. */
#include <stdio.h>

#include "statics_test_util.h"

static const double E = 2.1e11, RAD = 5e-3;

typedef enum { CF, PP, CP, CC } support;

/* Critical factor of a unit compressive tip force (so λ = P_cr in N). */
static double euler_lambda(support sp, int N, double *lambda2) {
  cosrod_rod_def def = st_cantilever(N, 1.0, RAD, 0);
  def.ends[0].kind = sp == PP ? COSROD_END_PINNED : COSROD_END_CLAMPED;
  def.ends[1].kind = sp == CF ? COSROD_END_FREE : sp == CC ? COSROD_END_CLAMPED : COSROD_END_PINNED;
  if (sp != CF) {
    def.ends[1].slides = 1;
    def.ends[1].slide_axis[2] = 1.0;
  }
  cosrod_rod_load load = {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 0, -1.0}, COSROD_PROFILE_CONSTANT, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod), lam[2] = {NAN, NAN};
  cosrod_status st = cosrod_statics_buckling(s, 1.0, q, 2, lam, NULL);
  if (st != COSROD_OK) lam[0] = lam[1] = NAN;
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  if (lambda2) *lambda2 = lam[1];
  return lam[0];
}

static void euler_case(const char *label, support sp, double k, int check_order) {
  const double EI = E * ST_PI * RAD * RAD * RAD * RAD / 4.0, Pcr = ST_PI * ST_PI * EI / (k * k);
  const int Ns[3] = {10, 20, 40};
  double err[3], sgn[3];
  for (int i = 0; i < 3; ++i) {
    double l2, l1 = euler_lambda(sp, Ns[i], &l2);
    err[i] = fabs(l1 - Pcr) / Pcr;
    sgn[i] = l1 >= Pcr ? 1.0 : -1.0;
    NOTE("%s N = %2d: P_cr %.8f N (second %.8f), Euler %.8f N, rel. error %.3e", label, Ns[i], l1, l2, Pcr,
         err[i]);
    CHECK_CLOSE("round section: the two planes buckle together", l2, l1, 1e-6, 0.0);
  }
  /* self-convergence: order from the differences P_10 - P_20, P_20 - P_40
   * (independent of the limit), and the Richardson extrapolant
   * P_40 + (P_40 - P_20)/3 against Euler: the shearable, extensible rod
   * differs from Euler–Bernoulli by O(P/GA, P/EA) ~ 1e-4..5e-4 here */
  const double Pe = Pcr;
  double P[3];
  for (int i = 0; i < 3; ++i) P[i] = Pe * (1.0 + sgn[i] * err[i]);
  const double order = log2((P[1] - P[0]) / (P[2] - P[1])), ext = P[2] + (P[2] - P[1]) / 3.0;
  NOTE("%s: self-convergence order %.3f, extrapolated %.6f N (rel. to Euler %.2e)", label, order, ext,
       (ext - Pe) / Pe);
  if (check_order) CHECK_CLOSE("order 2 (self-convergence N = 10, 20, 40)", order, 2.0, 0.0, 0.15);
  CHECK_CLOSE("extrapolated critical load = Euler's", ext, Pe, 1e-3, 0.0);
  /* the discretisation error scales with (π / (k N))²: 1e-3 / k² at N = 40 */
  CHECK_LE("error at N = 40 below 1e-3 / k²", err[2], 1e-3 / (k * k));
}

/* clamped-free: order 2 since the rigid-mode shift of K_0 (1e-12 max|diag|,
 * of the order of the soft bending energy at N = 40) was replaced by deflation */
TEST(euler_clamped_free) { euler_case("clamped-free", CF, 2.0, 1); }
TEST(euler_pinned_pinned) { euler_case("pinned-pinned", PP, 1.0, 1); }
/* k = 0.69915 (4.4934 / π: tan(βL) = βL) */
TEST(euler_clamped_pinned) { euler_case("clamped-pinned", CP, 3.14159265358979 / 4.49340945790906, 1); }
TEST(euler_clamped_clamped) { euler_case("clamped-clamped", CC, 0.5, 1); }

static const th_case cases[] = {TH_CASE(euler_clamped_free), TH_CASE(euler_pinned_pinned),
                                TH_CASE(euler_clamped_pinned), TH_CASE(euler_clamped_clamped)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
