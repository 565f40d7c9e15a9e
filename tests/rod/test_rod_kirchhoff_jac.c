// SPDX-License-Identifier: Apache-2.0
/* The analytic Jacobian of the Kirchhoff DAE right-hand side
 * (cosrod_rod_kirchhoff_jac_dae_band) against central differences of
 * cosrod_rod_kirchhoff_rhs_dae itself, region by region (the blocks of
 * rod_kirchhoff_jac.c): kinematic rows, acceleration rows in the (q, v)
 * columns (blocks 1 + 3) and in the λ_K columns (block 2), the λ_post rows
 * (block 5) and the constraint rows g̈ (block 4), for extensible and
 * inextensible rods, free / pinned / clamped / clamped-sliding start, damped and
 * undamped, with and without Baumgarte terms, at states that are NOT on the
 * constraints (random rates and multipliers: the identities hold anywhere).
 *
 * Tolerance per entry (i, j), derived from the difference itself: with
 * h_j = cbrt(eps) max(|y_j|, 1) the central quotient D(h) has the truncation
 * error h² f'''/6, estimated by (D(2h) - D(h))/3 (the h⁴ terms are
 * smaller by h²), and the rounding error eps T_i / h, where T_i bounds the
 * size of the terms that f_i sums: T_i = |f_i| + Σ_j |J_ij| max(|y_j|, 1)
 * (first-order size of the summands), times c = 64 for the length of the
 * evaluation chain.  Allowed: 2 |D(2h) - D(h)|/3 + 64 eps T_i/h_j.  Outside
 * the declared band the analytic value is 0 and D(h) must be within the
 * same tolerance. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rod_test_util.h"

enum { R_KIN, R_ACC, R_LAM, R_CON, NREG };
static const char *reg_name[NREG + 1] = {"kinematic rows (block 1)", "acceleration rows, (q, v) columns (1 + 3)",
                                         "lambda_post rows (block 5)", "constraint rows g'' (block 4)",
                                         "acceleration rows, lambda_K columns (block 2)"};

static int region(int i, int j, int nq, int N) {
  if (i < nq) return R_KIN;
  if (i < 2 * nq) return j >= 2 * nq + N ? NREG : R_ACC;
  if (i < 2 * nq + N) return R_LAM;
  return R_CON;
}

/* One rod, one state: max over the entries of each region of |A - D(h)| /
 * tolerance; returns the largest ratio. */
static double compare(cosrod_rod *rod, cosrod_rod_data *d, const double *y0, const char *label) {
  const int nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod), ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  int ml, mu;
  int *perm = malloc(sizeof(int) * (size_t)ny);
  CHECK("node ordering", cosrod_rod_order_fill(rod, COSROD_FORM_DAE, perm, NULL, &ml, &mu) == COSROD_OK);
  const int ld = ml + mu + 1;
  double *Jb = calloc((size_t)ld * (size_t)ny, sizeof *Jb), *y = malloc(sizeof(double) * (size_t)ny);
  double *f0 = malloc(sizeof(double) * (size_t)ny), *fp = malloc(sizeof(double) * (size_t)ny);
  double *fm = malloc(sizeof(double) * (size_t)ny), *D1 = malloc(sizeof(double) * (size_t)ny * (size_t)ny);
  double *D2 = malloc(sizeof(double) * (size_t)ny * (size_t)ny), *A = calloc((size_t)ny * (size_t)ny, sizeof *A);
  double *T = calloc((size_t)ny, sizeof *T);
  for (int i = 0; i < ld * ny; ++i) Jb[i] = NAN; /* must be overwritten (zeroed) */
  cosrod_status st = cosrod_rod_kirchhoff_jac_dae_band(rod, d, 0.0, y0, perm, Jb, ld, ml, mu);
  CHECK(label, st == COSROD_OK);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < ny; ++i) {
      int pi = perm[i], pj = perm[j];
      if (pi - pj <= ml && pj - pi <= mu) A[i + (size_t)ny * j] = Jb[(size_t)pj * ld + (size_t)(mu + pi - pj)];
    }
  cosrod_rod_kirchhoff_rhs_dae(rod, d, 0.0, y0, f0);
  const double cb = cbrt(DBL_EPSILON);
  double *hs = malloc(sizeof(double) * (size_t)ny);
  for (int j = 0; j < ny; ++j) {
    hs[j] = cb * fmax(fabs(y0[j]), 1.0);
    for (int l = 1; l <= 2; ++l) {
      double h = l * hs[j], *D = l == 1 ? D1 : D2;
      for (int i = 0; i < ny; ++i) y[i] = y0[i];
      y[j] = y0[j] + h;
      cosrod_rod_kirchhoff_rhs_dae(rod, d, 0.0, y, fp);
      y[j] = y0[j] - h;
      cosrod_rod_kirchhoff_rhs_dae(rod, d, 0.0, y, fm);
      for (int i = 0; i < ny; ++i) D[i + (size_t)ny * j] = (fp[i] - fm[i]) / (2.0 * h);
    }
  }
  for (int i = 0; i < ny; ++i) {
    T[i] = fabs(f0[i]);
    for (int j = 0; j < ny; ++j) T[i] += fabs(A[i + (size_t)ny * j]) * fmax(fabs(y0[j]), 1.0);
  }
  double worst[NREG + 1] = {0}, amax[NREG + 1] = {0}, worst_all = 0.0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < ny; ++i) {
      size_t e = i + (size_t)ny * j;
      double tol = 2.0 * fabs(D2[e] - D1[e]) / 3.0 + 64.0 * DBL_EPSILON * T[i] / hs[j];
      double r = fabs(A[e] - D1[e]) / tol;
      if (!(r <= 1e300)) r = 1e300; /* NaN: fail */
      int g = region(i, j, nq, N);
      if (r > worst[g]) worst[g] = r;
      if (fabs(A[e]) > amax[g]) amax[g] = fabs(A[e]);
      if (r > worst_all) worst_all = r;
    }
  for (int g = 0; g <= NREG; ++g) {
    char what[240];
    snprintf(what, sizeof what, "%s: %s, |A - D| / tol (max |A| %.3g)", label, reg_name[g], amax[g]);
    CHECK_LE(what, worst[g], 1.0);
  }
  free(perm), free(Jb), free(y), free(f0), free(fp), free(fm), free(D1), free(D2), free(A), free(T), free(hs);
  return worst_all;
}

/* State off the constraints: q perturbed from the initial shape (1e-2),
 * random rates; multipliers random (lam_scale) or zero. */
static void off_state(const cosrod_rod *rod, th_rng *r, double lam_scale, double *y) {
  int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE), nq = cosrod_rod_nq(rod);
  cosrod_rod_initial_state(rod, COSROD_FORM_DAE, y);
  for (int i = 0; i < nq; ++i) y[i] += 0.01 * th_rng_normal(r);
  for (int i = nq; i < 2 * nq; ++i) y[i] = th_rng_normal(r);
  for (int i = 2 * nq; i < ny; ++i) y[i] = lam_scale * th_rng_normal(r);
}

/* ends: 0 free, 1 pinned, 2 clamped (rt_helix_rod), 3 clamped sliding along
 * a skew axis (a vertex with one coordinate: the slide-axis row and column
 * transforms) */
static cosrod_rod *make_rod(cosrod_rod_model model, int ends, int damped) {
  if (ends < 3) return rt_helix_rod(model, 5, ends, damped);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 5;
  def.model = model;
  def.shape = COSROD_SHAPE_HELIX;
  def.shape_radius = 0.3;
  def.pitch = 0.4;
  def.turns = 0.6;
  def.gravity[2] = -9.81;
  if (damped) {
    def.damping = COSROD_DAMPING_KELVIN_VOIGT;
    def.tau_shear = def.tau_bulk = 0.01;
  }
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[0].slides = 1;
  def.ends[0].slide_axis[0] = 0.6;
  def.ends[0].slide_axis[1] = 0.8;
  return cosrod_rod_create(&def, NULL);
}

static void run_case(cosrod_rod_model model, int ends, int damped, int baum, th_rng *rng) {
  cosrod_rod *rod = make_rod(model, ends, damped);
  CHECK("rod", rod != NULL);
  if (ends == 3) CHECK("sliding start: one coordinate", cosrod_rod_vertex_ndof(rod, 0) == 1);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  if (baum) d->baumgarte_omega = 30.0, d->baumgarte_r = 20.0;
  int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  double *y = malloc(sizeof(double) * (size_t)ny);
  for (int lam = 0; lam < 2; ++lam) {
    off_state(rod, rng, lam ? 1.0 : 0.0, y);
    char label[160];
    snprintf(label, sizeof label, "%s, start %s, %s%s, lambda_K %s",
             model == COSROD_MODEL_KIRCHHOFF_EXTENSIBLE ? "extensible" : "inextensible",
             ends == 0   ? "free"
             : ends == 1 ? "pinned"
             : ends == 2 ? "clamped"
                         : "clamped sliding", damped ? "damped" : "undamped",
             baum ? ", Baumgarte" : "", lam ? "random" : "zero");
    compare(rod, d, y, label);
  }
  free(y);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

TEST(kjac_extensible) {
  th_rng rng;
  th_rng_seed(&rng, 21);
  for (int ends = 0; ends < 3; ++ends)
    for (int damped = 0; damped < 2; ++damped) run_case(COSROD_MODEL_KIRCHHOFF_EXTENSIBLE, ends, damped, 0, &rng);
}

TEST(kjac_inextensible) {
  th_rng rng;
  th_rng_seed(&rng, 22);
  for (int ends = 0; ends < 3; ++ends)
    for (int damped = 0; damped < 2; ++damped)
      run_case(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, ends, damped, 0, &rng);
}

TEST(kjac_baumgarte) {
  th_rng rng;
  th_rng_seed(&rng, 23);
  run_case(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, 2, 1, 1, &rng);
  run_case(COSROD_MODEL_KIRCHHOFF_EXTENSIBLE, 1, 0, 1, &rng);
}

TEST(kjac_sliding_end) {
  th_rng rng;
  th_rng_seed(&rng, 24);
  run_case(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, 3, 1, 0, &rng);
  run_case(COSROD_MODEL_KIRCHHOFF_EXTENSIBLE, 3, 0, 0, &rng);
}

static const th_case cases[] = {TH_CASE(kjac_extensible), TH_CASE(kjac_inextensible), TH_CASE(kjac_baumgarte),
                                TH_CASE(kjac_sliding_end)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
