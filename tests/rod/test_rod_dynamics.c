// SPDX-License-Identifier: Apache-2.0
/* Rod dynamics: energy conservation / balance along RK4 trajectories (4th
 * order in h), prescribed ends consistent in time, loads. */
#include <math.h>
#include <stdio.h>

#include "rod_test_util.h"

typedef int (*rhs_fn)(const cosrod_rod *, cosrod_rod_data *, double, const double *, double *);

static double total_energy(const cosrod_rod_data *d) {
  const cosrod_rod_energy *e = &d->energy;
  return e->kinetic_trans + e->kinetic_rot + e->shear_ext + e->bend_tors + e->gravity;
}

/* Classical RK4 on y' = f(t, y) augmented with z' = D - P (dissipated minus
 * external work); returns the energy balance error E(T) + z(T) - E(0). */
static double rk4_balance(const cosrod_rod *rod, cosrod_rod_form form, const double *y0, int ny, double T,
                          int nsteps, double *E0out) {
  rhs_fn f = form == COSROD_FORM_NULLSPACE ? cosrod_rod_rhs_nullspace : cosrod_rod_rhs_absolute;
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  double *y = malloc(sizeof(double) * (size_t)ny * 6);
  double *k1 = y + ny, *k2 = y + 2 * ny, *k3 = y + 3 * ny, *k4 = y + 4 * ny, *yt = y + 5 * ny;
  memcpy(y, y0, sizeof(double) * (size_t)ny);
  double h = T / nsteps, t = 0.0, z = 0.0;
  cosrod_rod_eval(rod, d, form, 0.0, y);
  double E0 = total_energy(d);
  for (int s = 0; s < nsteps; ++s) {
    double z1, z2, z3, z4;
    f(rod, d, t, y, k1);
    z1 = d->energy.dissipation_rate - d->energy.external_power;
    for (int i = 0; i < ny; ++i) yt[i] = y[i] + 0.5 * h * k1[i];
    f(rod, d, t + 0.5 * h, yt, k2);
    z2 = d->energy.dissipation_rate - d->energy.external_power;
    for (int i = 0; i < ny; ++i) yt[i] = y[i] + 0.5 * h * k2[i];
    f(rod, d, t + 0.5 * h, yt, k3);
    z3 = d->energy.dissipation_rate - d->energy.external_power;
    for (int i = 0; i < ny; ++i) yt[i] = y[i] + h * k3[i];
    f(rod, d, t + h, yt, k4);
    z4 = d->energy.dissipation_rate - d->energy.external_power;
    for (int i = 0; i < ny; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    z += h / 6.0 * (z1 + 2.0 * z2 + 2.0 * z3 + z4);
    t = (s + 1) * h;
  }
  cosrod_rod_eval(rod, d, form, t, y);
  double E1 = total_energy(d);
  if (E0out) *E0out = z;
  free(y);
  cosrod_rod_data_free(d);
  return E1 + z - E0;
}

/* Rubber rod (LLA Test 1 data), N = 5, pinned at x_0, horizontal, gravity,
 * with a random initial velocity field so that all modes move. */
static cosrod_rod *test_rod(cosrod_curvature cv, int damped, int loaded, cosrod_rod_def *def, double *keys) {
  *def = cosrod_rod_def_default();
  def->nseg = 5;
  def->curvature = cv;
  def->direction[0] = 0, def->direction[1] = 1, def->direction[2] = 0;
  def->normal[0] = 0, def->normal[1] = 0, def->normal[2] = 1;
  def->gravity[2] = -9.81;
  def->ends[0].kind = COSROD_END_PINNED;
  if (damped) def->damping = COSROD_DAMPING_KELVIN_VOIGT, def->tau_shear = 1e-5, def->tau_bulk = 2e-5;
  static cosrod_rod_load loads[3] = {
      {COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, -1, {0.05, 0.02, 0.1}, COSROD_PROFILE_RAMP, 0.0, 0.004},
      {COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, 2, {0.001, -0.002, 0.0015}, COSROD_PROFILE_CONSTANT, 0, 0},
      {COSROD_LOAD_DISTRIBUTED, COSROD_FRAME_MATERIAL, 0, {0.0, 0.1, 0.05}, COSROD_PROFILE_CONSTANT, 0, 0}};
  if (loaded) {
    def->nloads = 3, def->loads = loads;
    /* moving prescribed start: translation and rotation keyframes */
    def->ends[0].kind = COSROD_END_PRESCRIBED;
    double q0[4] = {0.5, -0.5, -0.5, -0.5}, e[4] = {cos(0.05), sin(0.05) * 0.6, 0.0, sin(0.05) * 0.8}, q1[4];
    cosrod_quat_mul(q1, q0, e);
    double k[4 * 2 + 5 * 2] = {0.0,   0,     0,     0,     1.0, 0.1,   -0.2,  0.3,   0.0,
                               q0[0], q0[1], q0[2], q0[3], 1.0, q1[0], q1[1], q1[2], q1[3]};
    memcpy(keys, k, sizeof k);
    def->ends[0].npos = 2, def->ends[0].pos = keys;
    def->ends[0].nrot = 2, def->ends[0].rot = keys + 8;
  }
  return cosrod_rod_create(def, NULL);
}

static void perturbed_state(const cosrod_rod *rod, cosrod_rod_form form, double *y, uint64_t seed) {
  th_rng r;
  th_rng_seed(&r, seed);
  int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod);
  double x[3 * 6], p[4 * 5], xd[3 * 6], Om[3 * 5];
  cosrod_rod_initial_state(rod, form, y);
  cosrod_rod_unpack(rod, form, 0.0, y, x, p, NULL, NULL);
  for (int i = 0; i < 3 * (N + 1); ++i) xd[i] = 0.05 * th_rng_normal(&r);
  for (int i = 0; i < 3 * N; ++i) Om[i] = 0.5 * th_rng_normal(&r);
  cosrod_rod_pack(rod, form, 0.0, x, p, xd, Om, y);
  (void)nq;
}

/* Undamped, unloaded: the energy error of RK4 converges at 4th order. */
TEST(energy_rk4_fourth_order) {
  for (int form = 0; form < 2; ++form)
    for (int cv = 1; cv < 5; cv += 3) {
      cosrod_rod_def def;
      double keys[18];
      cosrod_rod *rod = test_rod((cosrod_curvature)cv, 0, 0, &def, keys);
      int ny = cosrod_rod_ny(rod, (cosrod_rod_form)form);
      double y0[128];
      perturbed_state(rod, (cosrod_rod_form)form, y0, 11);
      /* T = 2 ms; h ω_shear = 0.62, 0.31, 0.16 (ω ~ 1.56e4/s) */
      double e[3];
      for (int i = 0; i < 3; ++i)
        e[i] = fabs(rk4_balance(rod, (cosrod_rod_form)form, y0, ny, 2e-3, 50 << i, NULL));
      double o1 = log2(e[0] / e[1]), o2 = log2(e[1] / e[2]);
      NOTE("%s %s: |ΔE| = %.3e %.3e %.3e J, observed orders %.2f %.2f", form ? "nullspace" : "absolute",
           cosrod_curvature_name((cosrod_curvature)cv), e[0], e[1], e[2], o1, o2);
      char what[128];
      /* RK4 is 4th order; the energy error is even O(h^5) here because the
       * leading error term of RK4 is energy-neutral for (linearised)
       * oscillations.  Require at least 3.5 on both pairs. */
      snprintf(what, sizeof what, "%s %s: observed orders %.2f, %.2f >= 3.5", form ? "nullspace" : "absolute",
               cosrod_curvature_name((cosrod_curvature)cv), o1, o2);
      CHECK(what, o1 >= 3.5 && o2 >= 3.5);
      snprintf(what, sizeof what, "%s %s: finest |ΔE| (J)", form ? "nullspace" : "absolute",
               cosrod_curvature_name((cosrod_curvature)cv));
      /* kinetic energy ~1e-4 J (ẋ ~ 0.05 m/s on 0.086 kg): 1e-10 J is 1e-6 of it */
      CHECK_LE(what, e[2], 1e-10);
      cosrod_rod_free(rod);
    }
}

/* Damped, loaded, moving prescribed end: E(T) - E(0) + ∫(D - P) dt -> 0 at
 * 4th order, and is small relative to the dissipated energy. */
TEST(energy_balance_damped_loaded) {
  for (int form = 0; form < 2; ++form) {
    cosrod_rod_def def;
    double keys[18];
    cosrod_rod *rod = test_rod(COSROD_CURV_TANGENT2, 1, 1, &def, keys);
    CHECK("rod created", rod != NULL);
    int ny = cosrod_rod_ny(rod, (cosrod_rod_form)form);
    double y0[128];
    perturbed_state(rod, (cosrod_rod_form)form, y0, 12);
    double e[3], zi = 0.0;
    /* h = 4e-5 .. 1e-5; damping τ = 1e-5 s keeps h λ inside RK4's stability region */
    for (int i = 0; i < 3; ++i)
      e[i] = fabs(rk4_balance(rod, (cosrod_rod_form)form, y0, ny, 2e-3, 50 << i, &zi));
    double o1 = log2(e[0] / e[1]), o2 = log2(e[1] / e[2]);
    NOTE("%s: balance error %.3e %.3e %.3e J, ∫(D - P) dt = %.3e J, orders %.2f %.2f",
         form ? "nullspace" : "absolute", e[0], e[1], e[2], zi, o1, o2);
    char what[128];
    snprintf(what, sizeof what, "%s: orders of the balance error %.2f, %.2f >= 3.5",
             form ? "nullspace" : "absolute", o1, o2);
    CHECK(what, o1 >= 3.5 && o2 >= 3.5);
    snprintf(what, sizeof what, "%s: finest balance error / |∫(D - P) dt|", form ? "nullspace" : "absolute");
    CHECK_LE(what, e[2] / fabs(zi), 1e-6);
    cosrod_rod_free(rod);
  }
}

/* Prescribed motion: velocities and accelerations are the time derivatives
 * of the keyframe interpolation (central differences, h = 1e-6); the slerp
 * path stays on S^3 and hits the keyframes. */
TEST(prescribed_end_motion_consistent) {
  double q0[4] = {0.5, -0.5, -0.5, -0.5}, q1[4] = {-0.5, 0.5, -0.5, -0.5};
  double keys[3 * 4 + 3 * 5] = {0.0,   0,     0,     0,     1.0,   0.5,   0,     0,     3.0,
                                0.5,   1.0,   -1.0,  0.0,   q0[0], q0[1], q0[2], q0[3], 1.0,
                                q1[0], q1[1], q1[2], q1[3], 2.5,   1.0,   0.0,   0.0,   0.0};
  cosrod_rod_def def = cosrod_rod_def_default();
  def.ends[1].kind = COSROD_END_PRESCRIBED;
  def.ends[1].npos = 3, def.ends[1].pos = keys;
  def.ends[1].nrot = 3, def.ends[1].rot = keys + 12;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  double ex = 0, ev = 0, ep = 0, epd = 0, en = 0;
  double tt[5] = {0.3, 0.77, 1.4, 2.2, 2.9};
  for (int i = 0; i < 5; ++i) {
    double t = tt[i], h = 1e-6;
    double x[3], xd[3], xdd[3], p[4], pd[4], pdd[4], xp[3], xm[3], pp[4], pm[4], pdp[4], pdm[4];
    cosrod_rod_end_motion(rod, 1, t, x, xd, xdd, p, pd, pdd);
    cosrod_rod_end_motion(rod, 1, t + h, xp, NULL, NULL, pp, pdp, NULL);
    cosrod_rod_end_motion(rod, 1, t - h, xm, NULL, NULL, pm, pdm, NULL);
    for (int j = 0; j < 3; ++j)
      ex = fmax(ex, fabs((xp[j] - xm[j]) / (2 * h) - xd[j])), ev = fmax(ev, fabs(xdd[j]));
    for (int j = 0; j < 4; ++j) {
      ep = fmax(ep, fabs((pp[j] - pm[j]) / (2 * h) - pd[j]));
      epd = fmax(epd, fabs((pdp[j] - pdm[j]) / (2 * h) - pdd[j]));
    }
    en = fmax(en, fabs(cosrod_quat_norm(p) - 1.0));
  }
  /* central differences: O(h^2) ~ 1e-12 truncation, roundoff 1e-16/h = 1e-10 */
  CHECK_LE("max |FD(x) - ẋ| (m/s)", ex, 1e-8);
  CHECK_LE("ẍ = 0 for linear keyframes", ev, 0.0);
  CHECK_LE("max |FD(p) - ṗ|", ep, 1e-8);
  CHECK_LE("max |FD(ṗ) - p̈|", epd, 1e-8);
  CHECK_LE("slerp stays on S^3", en, 1e-14);
  double p[4], x[3];
  cosrod_rod_end_motion(rod, 1, 1.0, x, NULL, NULL, p, NULL, NULL);
  CHECK_VEC("orientation hits keyframe 2 (no shortest-arc flip)", p, q1, 4, 0, 1e-14);
  CHECK_VEC("position hits keyframe 2", x, keys + 5, 3, 0, 1e-14);
  cosrod_rod_free(rod);
}

/* Boundary conditions along a trajectory: removed coordinates stay at their
 * prescribed values, a sliding end moves only along its axis. */
TEST(ends_keep_values) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 6;
  def.gravity[0] = 3.0, def.gravity[2] = -9.81;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_PINNED, def.ends[1].slides = 1, def.ends[1].slide_axis[2] = 1.0;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double y[128], k[128], x[21], x0[21];
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  cosrod_rod_unpack(rod, COSROD_FORM_NULLSPACE, 0.0, y, x0, NULL, NULL, NULL);
  for (int s = 0; s < 200; ++s) { /* explicit Euler is enough to move things */
    cosrod_rod_rhs_nullspace(rod, d, 0.0, y, k);
    for (int i = 0; i < ny; ++i) y[i] += 2e-5 * k[i];
    cosrod_rod_project(rod, COSROD_FORM_NULLSPACE, y);
  }
  cosrod_rod_unpack(rod, COSROD_FORM_NULLSPACE, 0.0, y, x, NULL, NULL, NULL);
  CHECK_VEC("clamped x_0 unchanged", x, x0, 3, 0, 0.0);
  CHECK_VEC("sliding x_N: x, y unchanged", x + 18, x0 + 18, 2, 0, 0.0);
  CHECK("sliding x_N moved along e3", fabs(x[20] - x0[20]) > 1e-9);
  CHECK("interior vertex moved", fabs(x[9] - x0[9]) > 1e-9);
  /* clamped curvature at vertex 0 non-zero once the rod bends */
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, 0.0, y);
  CHECK("clamped end carries a bending moment", fabs(d->M[1]) + fabs(d->M[0]) > 0.0);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

static int user_load(void *user, double t, int N, const double *x, const double *xd, const double *p,
                     const double *Om, double *f, double *m) {
  (void)t, (void)N, (void)x, (void)xd, (void)p, (void)Om, (void)m;
  const double *v = user;
  f[3 * 2 + 0] += v[0], f[3 * 2 + 1] += v[1], f[3 * 2 + 2] += v[2];
  return 0;
}

/* Loads on a straight stress-free rod at rest (no gravity): accelerations
 * are load / lumped mass exactly (internal forces vanish). */
TEST(loads_initial_accelerations) {
  for (int form = 0; form < 2; ++form) {
    cosrod_rod_def def = cosrod_rod_def_default();
    def.nseg = 4;
    double Fv[3] = {0.3, -0.1, 0.2}, Mv[3] = {1e-3, -2e-3, 5e-4}, qv[3] = {0.0, 0.5, 0.25}, uv[3] = {1, 2, 3};
    cosrod_rod_load loads[4] = {
        {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {Fv[0], Fv[1], Fv[2]}, COSROD_PROFILE_RAMP, 0.0, 2.0},
        {COSROD_LOAD_MOMENT,
         COSROD_FRAME_MATERIAL,
         4,
         {Mv[0], Mv[1], Mv[2]},
         COSROD_PROFILE_ACTIVE,
         0.0,
         1.0},
        {COSROD_LOAD_DISTRIBUTED,
         COSROD_FRAME_SPATIAL,
         0,
         {qv[0], qv[1], qv[2]},
         COSROD_PROFILE_CONSTANT,
         0,
         0},
        {COSROD_LOAD_MOMENT,
         COSROD_FRAME_SPATIAL,
         2,
         {Mv[0], Mv[1], Mv[2]},
         COSROD_PROFILE_ACTIVE,
         2.0,
         3.0}};
    def.nloads = 4, def.loads = loads;
    def.load_fn = user_load, def.load_user = uv;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    cosrod_rod_form fm = (cosrod_rod_form)form;
    int nq = cosrod_rod_nq(rod), N = 4;
    double y[64], k[64];
    cosrod_rod_initial_state(rod, fm, y);
    double t = 0.5; /* ramp at 1/4, moment active, second moment inactive */
    if (form)
      cosrod_rod_rhs_nullspace(rod, d, t, y, k);
    else
      cosrod_rod_rhs_absolute(rod, d, t, y, k);
    double rhoA, rhoI[3];
    cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, rhoI);
    const double *w = cosrod_rod_vertex_weight(rod), *ds = cosrod_rod_seg_length(rod);
    double emax = 0.0;
    for (int n = 0; n <= N; ++n) {
      double want[3];
      for (int j = 0; j < 3; ++j) {
        want[j] = qv[j] / rhoA;
        if (n == N) want[j] += 0.25 * Fv[j] / (rhoA * w[n]);
        if (n == 2) want[j] += uv[j] / (rhoA * w[n]);
      }
      const double *a = k + nq + cosrod_rod_vindex_vertex(rod, fm, n);
      for (int j = 0; j < 3; ++j) emax = fmax(emax, fabs(a[j] - want[j]) / (1.0 + fabs(want[j])));
    }
    CHECK_LE(form ? "nullspace: vertex accelerations = load / mass"
                  : "absolute: vertex accelerations = load / mass",
             emax, 1e-10);
    /* material tip moment: Ω̇ = M / (ρΔs I) on the last segment (rod along e3, frame = identity) */
    double Omd[3];
    if (form) {
      cosrod_vec3_copy(Omd, k + nq + cosrod_rod_vindex_segment(rod, fm, N - 1));
    } else {
      const double *pdd = k + nq + cosrod_rod_qindex_segment(rod, N - 1),
                   *p = y + cosrod_rod_qindex_segment(rod, N - 1);
      cosrod_quat_omega(Omd, p, pdd); /* at rest Ω̇ = 2 Im(p̄ p̈) */
    }
    double want[3] = {Mv[0] / (rhoI[0] * ds[N - 1]), Mv[1] / (rhoI[1] * ds[N - 1]),
                      Mv[2] / (rhoI[2] * ds[N - 1])};
    CHECK_VEC(form ? "nullspace: Ω̇ of the tip segment = M / (ρΔs I)"
                   : "absolute: Ω̇ of the tip segment = M / (ρΔs I)",
              Omd, want, 3, 1e-10, 0.0);
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
}

/* A follower (material) tip force turns with the rod: rotating the whole rod
 * by r rotates the tip acceleration by R(r); a dead load does not. */
TEST(follower_load_rotates_with_frame) {
  double errf = 0.0, diffd = 0.0;
  for (int frame = 0; frame < 2; ++frame) {
    cosrod_rod_def def = cosrod_rod_def_default();
    def.nseg = 3;
    cosrod_rod_load l = {
        COSROD_LOAD_FORCE, (cosrod_load_frame)frame, -1, {0.2, 0.1, -0.3}, COSROD_PROFILE_CONSTANT, 0, 0};
    def.nloads = 1, def.loads = &l;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    double y[64], k[64], x[12], p[12], x2[12], p2[12];
    cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
    cosrod_rod_unpack(rod, COSROD_FORM_NULLSPACE, 0.0, y, x, p, NULL, NULL);
    cosrod_rod_rhs_nullspace(rod, d, 0.0, y, k);
    double a0[3];
    cosrod_vec3_copy(a0, d->xdd + 9);
    double rq[4] = {cos(0.4), sin(0.4) * 0.48, sin(0.4) * 0.6, sin(0.4) * 0.64};
    for (int n = 0; n < 4; ++n) cosrod_quat_rotate(x2 + 3 * n, rq, x + 3 * n);
    for (int s = 0; s < 3; ++s) cosrod_quat_mul(p2 + 4 * s, rq, p + 4 * s);
    cosrod_rod_pack(rod, COSROD_FORM_NULLSPACE, 0.0, x2, p2, NULL, NULL, y);
    cosrod_rod_rhs_nullspace(rod, d, 0.0, y, k);
    double ra[3];
    cosrod_quat_rotate(ra, rq, a0);
    for (int j = 0; j < 3; ++j) {
      if (frame == 1)
        errf = fmax(errf, fabs(d->xdd[9 + j] - ra[j]) / cosrod_vec3_norm(ra));
      else
        diffd = fmax(diffd, fabs(d->xdd[9 + j] - a0[j]) / cosrod_vec3_norm(a0));
    }
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
  CHECK_LE("follower: tip acceleration rotates with the rod (rel)", errf, 1e-12);
  CHECK_LE("dead load: tip acceleration unchanged by the rotation (rel)", diffd, 1e-12);
}

static const th_case cases[] = {
    TH_CASE(energy_rk4_fourth_order),          TH_CASE(energy_balance_damped_loaded),
    TH_CASE(prescribed_end_motion_consistent), TH_CASE(ends_keep_values),
    TH_CASE(loads_initial_accelerations),      TH_CASE(follower_load_rotates_with_frame)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
