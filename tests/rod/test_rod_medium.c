// SPDX-License-Identifier: Apache-2.0
/* Medium damping (rod_medium.c) against closed forms: a free straight rod in
 * rigid translation and in rigid spin about its axis has no strain, so
 * ρA v̇ = -c_t v and ρJ Ω̇3 = -c_r Ω3 exactly (lumped masses ρA δs_n, segment
 * inertias ρΔs J): v(t) = v0 exp(-c_t t/(ρA)), Ω3(t) = Ω0 exp(-c_r t/(ρJ)).
 * Integrated with classical RK4 written here (error ~h⁴); plus the
 * dissipation rate against its closed form c_t L |v|² + c_r L Ω², and the
 * energy balance E(T) + ∫(D - P) - E(0) of a deforming rod with medium
 * damping closing with the method's order. */
#include <math.h>
#include <stdio.h>

#include "rod_test_util.h"

typedef int (*rhs_fn)(const cosrod_rod *, cosrod_rod_data *, double, const double *, double *);

static double total_energy(const cosrod_rod_data *d) {
  const cosrod_rod_energy *e = &d->energy;
  return e->kinetic_trans + e->kinetic_rot + e->shear_ext + e->bend_tors + e->gravity;
}

/* RK4 from y (ny) over [0, T] in n steps, in place; *zd = ∫ (D - P) dt by the
 * same RK4 stages. */
static void rk4(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double *y, int ny, double T,
                int n, double *zd) {
  rhs_fn f = form == COSROD_FORM_NULLSPACE ? cosrod_rod_rhs_nullspace : cosrod_rod_rhs_absolute;
  double *k = malloc(sizeof(double) * (size_t)ny * 5), *yt = k + 4 * (size_t)ny;
  double h = T / n, t = 0.0, z = 0.0;
  for (int s = 0; s < n; ++s) {
    double zk[4];
    static const double c[4] = {0.0, 0.5, 0.5, 1.0};
    for (int st = 0; st < 4; ++st) {
      for (int i = 0; i < ny; ++i) yt[i] = y[i] + (st ? c[st] * h * k[(size_t)(st - 1) * ny + i] : 0.0);
      f(rod, d, t + c[st] * h, yt, k + (size_t)st * ny);
      zk[st] = d->energy.dissipation_rate - d->energy.external_power;
    }
    for (int i = 0; i < ny; ++i)
      y[i] += h / 6.0 * (k[i] + 2.0 * k[ny + i] + 2.0 * k[2 * (size_t)ny + i] + k[3 * (size_t)ny + i]);
    z += h / 6.0 * (zk[0] + 2.0 * zk[1] + 2.0 * zk[2] + zk[3]);
    t += h;
  }
  *zd = z;
  free(k);
}

static cosrod_rod_def free_rod(double ct, double cr) {
  cosrod_rod_def def = cosrod_rod_def_default(); /* rubber, r = 5 mm, L = 1 m, straight along e3 */
  def.nseg = 5;
  def.gravity[0] = def.gravity[1] = def.gravity[2] = 0.0;
  def.medium_translational = ct;
  def.medium_rotational = cr;
  return def;
}

static void rigid_decay(cosrod_rod_form form, const char *label) {
  const double r = 5e-3, rho = 1100.0, pi = 3.14159265358979323846;
  const double rhoA = rho * pi * r * r, rhoJ = rho * 0.5 * pi * r * r * r * r;
  const double rate_t = 1.3, rate_r = 0.7; /* 1/s */
  cosrod_rod_def def = free_rod(rate_t * rhoA, rate_r * rhoJ);
  const double v0[3] = {0.3, -0.2, 0.5}, Om0 = 2.0;
  def.velocity[0] = v0[0], def.velocity[1] = v0[1], def.velocity[2] = v0[2];
  def.omega[2] = Om0;
  cosrod_status st;
  cosrod_rod *rod = cosrod_rod_create(&def, &st);
  CHECK("rod created", rod != NULL);
  if (!rod) return;
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int ny = cosrod_rod_ny(rod, form), N = cosrod_rod_nseg(rod);
  double *y = calloc((size_t)ny, sizeof *y);
  cosrod_rod_initial_state(rod, form, y);
  /* dissipation rate at t = 0: c_t L |v0|² + c_r L Ω0² (L = 1) */
  cosrod_rod_eval(rod, d, form, 0.0, y);
  double D0 = def.medium_translational * cosrod_vec3_norm2(v0) + def.medium_rotational * Om0 * Om0;
  char w[160];
  snprintf(w, sizeof w, "%s: dissipation rate at t = 0 vs c_t L|v|^2 + c_r L Omega^2", label);
  CHECK_REL(w, d->energy.dissipation_rate, D0, 1e-12);
  const double T = 1.0;
  double z;
  rk4(rod, d, form, y, ny, T, 10000, &z);
  cosrod_rod_eval(rod, d, form, T, y);
  double ev = 0.0, eo = 0.0, vref[3], f = exp(-rate_t * T), fo = exp(-rate_r * T);
  cosrod_vec3_scale(vref, f, v0);
  for (int n = 0; n <= N; ++n)
    for (int j = 0; j < 3; ++j) ev = fmax(ev, fabs(d->xd[3 * n + j] - vref[j]));
  for (int k = 0; k < N; ++k) {
    eo = fmax(eo, fabs(d->Omega[3 * k + 2] - Om0 * fo));
    eo = fmax(eo, fmax(fabs(d->Omega[3 * k]), fabs(d->Omega[3 * k + 1])));
  }
  NOTE("%s: v(1) = %.15g (closed form %.15g), Omega3(1) = %.15g (closed form %.15g)", label, d->xd[2],
       vref[2], d->Omega[2], Om0 * fo);
  /* RK4 with h = 1e-4 (below the stability limit ~2e-4 of the shear modes) and rates ~1: relative error ~(h
   * rate)^4 / 120 ~ 1e-15; 1e-9 leaves room for roundoff */
  snprintf(w, sizeof w, "%s: max |v_n(1) - v0 exp(-c_t/(rho A))| / |v0|", label);
  CHECK(w, isfinite(ev) && isfinite(eo));
  CHECK_LE(w, ev / sqrt(cosrod_vec3_norm2(v0)), 1e-9);
  snprintf(w, sizeof w, "%s: max |Omega_k(1) - Omega0 exp(-c_r/(rho J)) e3| / Omega0", label);
  CHECK_LE(w, eo / Om0, 1e-9);
  /* energy: ½ m |v|² decays with exp(-2 rate); the integrated dissipation closes the balance */
  double E1 = total_energy(d), E0 = 0.5 * rhoA * cosrod_vec3_norm2(v0) + 0.5 * rhoJ * Om0 * Om0;
  snprintf(w, sizeof w, "%s: E(1) + dissipated - E(0) relative to E(0)", label);
  CHECK_LE(w, fabs(E1 + z - E0) / E0, 1e-9);
  free(y);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

TEST(rigid_translation_and_spin_decay_nullspace) { rigid_decay(COSROD_FORM_NULLSPACE, "nullspace"); }
TEST(rigid_translation_and_spin_decay_absolute) { rigid_decay(COSROD_FORM_ABSOLUTE, "absolute"); }

/* A deforming rod (arc, initial velocity and spin about a transverse axis,
 * gravity): the balance error E(T) + ∫(D - P) - E(0) of RK4 falls like h⁴
 * (ratio 16 when halving h), so the dissipation rate is the exact power of
 * the medium forces. */
TEST(energy_balance_deforming_rod) {
  cosrod_rod_def def = free_rod(0.05, 3e-6);
  def.shape = COSROD_SHAPE_ARC;
  def.shape_radius = 0.8;
  def.arc_angle = 1.0;
  def.gravity[2] = -9.81;
  def.velocity[0] = 0.4;
  def.omega[0] = 3.0;
  cosrod_status st;
  cosrod_rod *rod = cosrod_rod_create(&def, &st);
  CHECK("rod created", rod != NULL);
  if (!rod) return;
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y0 = calloc((size_t)ny, sizeof *y0), *y = calloc((size_t)ny, sizeof *y);
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y0);
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, 0.0, y0);
  double E0 = total_energy(d), err[2], Dtot = 0.0;
  const double T = 0.05;
  for (int i = 0; i < 2; ++i) {
    memcpy(y, y0, sizeof(double) * (size_t)ny);
    double z;
    rk4(rod, d, COSROD_FORM_NULLSPACE, y, ny, T, 4000 << i, &z);
    cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, T, y);
    err[i] = fabs(total_energy(d) + z - E0);
    Dtot = z;
  }
  NOTE("dissipated %.6e J of |E0| %.6e J; balance errors %.3e, %.3e (ratio %.1f)", Dtot, fabs(E0), err[0],
       err[1], err[0] / err[1]);
  CHECK("medium dissipates a visible share (> 1e-4 of the kinetic energy)",
        Dtot > 1e-4 * 0.5 * 0.0864 * 0.16);
  CHECK_LE("balance error (h = T/8000 = 6.25e-6) relative to the dissipated energy", err[1] / Dtot, 1e-6);
  CHECK("balance error falls at least like h^3.5 (ratio >= 11)", err[0] / err[1] >= 11.0 || err[1] < 1e-15);
  free(y0);
  free(y);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {
    TH_CASE(rigid_translation_and_spin_decay_nullspace),
    TH_CASE(rigid_translation_and_spin_decay_absolute),
    TH_CASE(energy_balance_deforming_rod),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
