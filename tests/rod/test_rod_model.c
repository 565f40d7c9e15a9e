// SPDX-License-Identifier: Apache-2.0
/* Rod model construction: section and material constants ([manual: theory]), Kelvin–
 * Voigt coefficients ([LLT] eq. 4), overrides, invalid input, callback errors. */
#include <math.h>
#include <stdio.h>

#include "rod_test_util.h"

TEST(constants_from_material_and_section) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.section = COSROD_SECTION_RECTANGLE, def.width = 0.02, def.height = 0.01;
  def.E = 2e9, def.poisson = 0.25, def.density = 900;
  def.shear_correction[0] = 0.8, def.shear_correction[1] = 0.7;
  def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 0.01, def.tau_bulk = 0.03;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  double CG[3], CK[3], VG[3], VK[3], rhoA, rhoI[3];
  cosrod_rod_constants(rod, CG, CK, VG, VK, &rhoA, rhoI);
  double A = 2e-4, I1 = 0.02 * 1e-6 / 12.0, I2 = 0.01 * 8e-6 / 12.0, G = 2e9 / 2.5;
  double wantCG[3] = {0.8 * G * A, 0.7 * G * A, 2e9 * A}, wantCK[3] = {2e9 * I1, 2e9 * I2, G * (I1 + I2)};
  CHECK_VEC("C_Γ = (κ1 GA, κ2 GA, EA)", CG, wantCG, 3, 1e-14, 0);
  CHECK_VEC("C_K = (EI1, EI2, GJ), J = I1 + I2", CK, wantCK, 3, 1e-14, 0);
  double tE = ((1 - 2 * 0.25) * 0.03 + 2 * 1.25 * 0.01) / 3.0;
  double wantVG[3] = {0.01 * wantCG[0], 0.01 * wantCG[1], tE * wantCG[2]};
  double wantVK[3] = {tE * wantCK[0], tE * wantCK[1], 0.01 * wantCK[2]};
  CHECK_VEC("V_Γ = (τS κ1GA, τS κ2GA, τE EA)", VG, wantVG, 3, 1e-14, 0);
  CHECK_VEC("V_K = (τE EI1, τE EI2, τS GJ)", VK, wantVK, 3, 1e-14, 0);
  CHECK_REL("ρA", rhoA, 900 * A, 1e-14);
  double wantI[3] = {900 * I1, 900 * I2, 900 * (I1 + I2)};
  CHECK_VEC("ρ(I1, I2, J)", rhoI, wantI, 3, 1e-14, 0);
  cosrod_rod_free(rod);
  /* overrides (measured cable data) win */
  def = cosrod_rod_def_default();
  def.EI1 = 1.2e-3, def.GJ = 8e-4, def.rhoA = 0.12;
  rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_constants(rod, NULL, CK, NULL, NULL, &rhoA, NULL);
  CHECK_REL("EI1 override", CK[0], 1.2e-3, 0);
  CHECK_REL("GJ override", CK[2], 8e-4, 0);
  CHECK_REL("EI2 from material (circle r = 5 mm, E = 5 MPa)", CK[1], 5e6 * RT_PI * pow(5e-3, 4) / 4, 1e-14);
  CHECK_REL("rhoA override", rhoA, 0.12, 0);
  cosrod_rod_free(rod);
}

TEST(grid_weights) {
  double s[4] = {0.0, 0.1, 0.4, 1.0};
  cosrod_rod_def def = cosrod_rod_def_default();
  def.grid = s, def.ngrid = 4;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  double wantw[4] = {0.05, 0.2, 0.45, 0.3}, wantds[3] = {0.1, 0.3, 0.6};
  CHECK_VEC("trapezoidal weights δs_n", cosrod_rod_vertex_weight(rod), wantw, 4, 1e-15, 1e-16);
  CHECK_VEC("segment lengths Δs", cosrod_rod_seg_length(rod), wantds, 3, 1e-15, 1e-16);
  CHECK("free-free nq = 7N + 3", cosrod_rod_nq(rod) == 24);
  cosrod_rod_free(rod);
}

TEST(invalid_definitions_rejected) {
  cosrod_status st;
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 0;
  CHECK("N = 0 rejected", cosrod_rod_create(&def, &st) == NULL && st == COSROD_ERR_INVALID);
  def = cosrod_rod_def_default();
  double s[3] = {0.0, 0.5, 0.5};
  def.grid = s, def.ngrid = 3;
  CHECK("non-increasing grid rejected", cosrod_rod_create(&def, &st) == NULL && st == COSROD_ERR_INVALID);
  def = cosrod_rod_def_default();
  def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = -1.0;
  CHECK("negative retardation time rejected",
        cosrod_rod_create(&def, &st) == NULL && st == COSROD_ERR_INVALID);
  def = cosrod_rod_def_default();
  double rot[10] = {0, 1, 0, 0, 0, 1, -1, 0, 0, 0};
  def.ends[0].kind = COSROD_END_PRESCRIBED, def.ends[0].nrot = 2, def.ends[0].rot = rot;
  CHECK("antipodal slerp keyframes rejected",
        cosrod_rod_create(&def, &st) == NULL && st == COSROD_ERR_INVALID);
  def = cosrod_rod_def_default();
  def.radius = 0.0;
  CHECK("zero section rejected", cosrod_rod_create(&def, &st) == NULL && st == COSROD_ERR_INVALID);
  cosrod_rod_free(NULL); /* no-ops: a crash or a sanitizer report fails the test */
  cosrod_rod_data_free(NULL);
}

static int failing_load(void *user, double t, int N, const double *x, const double *xd, const double *p,
                        const double *Om, double *f, double *m) {
  (void)t, (void)N, (void)x, (void)xd, (void)p, (void)Om, (void)f, (void)m;
  return *(const int *)user;
}

TEST(callback_status_propagates) {
  for (int code = -1; code <= 1; code += 2) {
    cosrod_rod_def def = cosrod_rod_def_default();
    def.load_fn = failing_load, def.load_user = &code;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    double y[256], yd[256];
    cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
    int r1 = cosrod_rod_rhs_nullspace(rod, d, 0.0, y, yd);
    cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, y);
    int r2 = cosrod_rod_rhs_absolute(rod, d, 0.0, y, yd);
    char what[96];
    snprintf(what, sizeof what, "callback returning %d: both RHS return %d", code, code);
    CHECK(what, r1 == code && r2 == code);
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
}

static const th_case cases[] = {TH_CASE(constants_from_material_and_section), TH_CASE(grid_weights),
                                TH_CASE(invalid_definitions_rejected), TH_CASE(callback_status_propagates)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
