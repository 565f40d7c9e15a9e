// SPDX-License-Identifier: Apache-2.0
/* The kinetic energy each formulation reports is the one its equations
 * conserve, also off the constraint manifold (|p| != 1), so that the energy
 * balance and the energy defect of projection ([LA] §4, Fig. 5) measure the
 * method and not the definition:
 *   ABSOLUTE   T_R = ½ Σ ρΔs ṗᵀ μ(p) ṗ   ([LLA] eq. 27)
 *   NULLSPACE  T_R = ½ Σ Ωᵀ Ī Ω           ([L] Lemma 4.2), independent of |p|.
 * Reference: the time derivative of the total energy along the exact flow,
 * dE/dt = ∇E · f, by central differences along f (independent of the
 * force code), must vanish for an undamped, unloaded rod. */
#include "rod_test_util.h"

static double total_energy(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, const double *y) {
  cosrod_rod_eval(rod, d, form, 0.0, y);
  const cosrod_rod_energy *e = &d->energy;
  return e->kinetic_trans + e->kinetic_rot + e->shear_ext + e->bend_tors + e->gravity;
}

/* Random large-deformation state with |p_k| in [0.9, 1.1] and random velocities. */
static void random_state(th_rng *r, const cosrod_rod *rod, cosrod_rod_form form, double *y) {
  int N = cosrod_rod_nseg(rod);
  double s[64], x[3 * 65], p[4 * 64], xd[3 * 65], Om[3 * 64];
  rt_grid(r, N, 1.0, s);
  rt_config(r, N, s, 0.2, 0.8, x, p, xd, Om);
  for (int k = 0; k < N; ++k) {
    double sc = th_rng_uniform(r, 0.9, 1.1);
    for (int j = 0; j < 4; ++j) p[4 * k + j] *= sc;
  }
  cosrod_rod_pack(rod, form, 0.0, x, p, xd, Om, y);
}

TEST(energy_conserved_off_manifold_both_forms) {
  th_rng r;
  th_rng_seed(&r, 2026);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 8;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  const cosrod_rod_form forms[2] = {COSROD_FORM_ABSOLUTE, COSROD_FORM_NULLSPACE};
  const char *names[2] = {"absolute", "nullspace"};
  for (int fi = 0; fi < 2; ++fi) {
    int ny = cosrod_rod_ny(rod, forms[fi]);
    double *y = calloc((size_t)ny, sizeof *y), *f = calloc((size_t)ny, sizeof *f),
           *yp = calloc((size_t)ny, sizeof *yp);
    double worst = 0.0;
    for (int trial = 0; trial < 20; ++trial) {
      random_state(&r, rod, forms[fi], y);
      if (forms[fi] == COSROD_FORM_ABSOLUTE)
        cosrod_rod_rhs_absolute(rod, d, 0.0, y, f);
      else
        cosrod_rod_rhs_nullspace(rod, d, 0.0, y, f);
      /* power scale: |Σ F·v| of the elastic forces ~ E_elastic * |f| / |y| */
      cosrod_rod_eval(rod, d, forms[fi], 0.0, y);
      double scale = fabs(d->energy.shear_ext) + fabs(d->energy.bend_tors) + d->energy.kinetic_trans +
                     d->energy.kinetic_rot;
      double fn = 0.0, yn = 0.0;
      for (int i = 0; i < ny; ++i) fn = fmax(fn, fabs(f[i])), yn = fmax(yn, fabs(y[i]));
      double eps = 1e-6 * yn / fn;
      for (int i = 0; i < ny; ++i) yp[i] = y[i] + eps * f[i];
      double Ep = total_energy(rod, d, forms[fi], yp);
      for (int i = 0; i < ny; ++i) yp[i] = y[i] - eps * f[i];
      double Em = total_energy(rod, d, forms[fi], yp);
      double dEdt = (Ep - Em) / (2.0 * eps);
      /* relative to the energy turnover rate scale * fn / yn */
      worst = fmax(worst, fabs(dEdt) / (scale * fn / yn));
    }
    char what[160];
    /* central differences with a relative step 1e-6: truncation ~1e-12, roundoff ~1e-16/1e-6 = 1e-10 */
    snprintf(what, sizeof what, "%s: |dE/dt| / (E |f|/|y|) along the flow, |p| in [0.9, 1.1], 20 states",
             names[fi]);
    CHECK_LE(what, worst, 1e-7);
    free(y), free(f), free(yp);
  }
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

/* Projection p <- p/|p| leaves Ω, hence the null-space rotational kinetic
 * energy, unchanged; in the absolute form ṗ is rescaled with p and T_R changes
 * by a factor (see [LA] eq. 27). */
TEST(nullspace_projection_keeps_rotational_energy) {
  th_rng r;
  th_rng_seed(&r, 7);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 6;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = calloc((size_t)ny, sizeof *y);
  random_state(&r, rod, COSROD_FORM_NULLSPACE, y);
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, 0.0, y);
  double before = d->energy.kinetic_rot;
  cosrod_rod_project(rod, COSROD_FORM_NULLSPACE, y);
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, 0.0, y);
  double after = d->energy.kinetic_rot;
  CHECK("rotational energy is positive", before > 0.0);
  /* Ī from the getter equals ρΔs (πr⁴/4, πr⁴/4, πr⁴/2) of the default rubber rod (r = 5e-3, ρ = 1100) */
  const double *Ib = cosrod_rod_segment_inertia(rod), *ds = cosrod_rod_seg_length(rod);
  double I1 = RT_PI * pow(5e-3, 4) / 4.0, err = 0.0;
  for (int k = 0; k < 6; ++k) {
    err = fmax(err, fabs(Ib[3 * k] - 1100.0 * ds[k] * I1) / (1100.0 * ds[k] * I1));
    err = fmax(err, fabs(Ib[3 * k + 2] - 1100.0 * ds[k] * 2.0 * I1) / (1100.0 * ds[k] * 2.0 * I1));
  }
  CHECK_LE("segment inertias ρΔs(I1, I2, J), relative error", err, 1e-14);
  double Tref = 0.0, x[3 * 7], p[4 * 6], Om[3 * 6];
  cosrod_rod_unpack(rod, COSROD_FORM_NULLSPACE, 0.0, y, x, p, NULL, Om);
  for (int k = 0; k < 6; ++k)
    for (int i = 0; i < 3; ++i) Tref += 0.5 * Ib[3 * k + i] * Om[3 * k + i] * Om[3 * k + i];
  CHECK_REL("null-space T_R = ½ Σ ΩᵀĪΩ", before, Tref, 1e-14);
  /* identical Ω before and after: equal up to rounding */
  CHECK_REL("null-space T_R before vs after projection", after, before, 1e-14);
  free(y);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(energy_conserved_off_manifold_both_forms),
                                TH_CASE(nullspace_projection_keeps_rotational_energy)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
