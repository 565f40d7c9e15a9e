// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff rods as constrained Cosserat rods (rod_kirchhoff.c, [LA] §3–4):
 * the constrained accelerations keep g̈ = 0 (checked by central differences
 * of the constraints g_k = Im(p̄Δxp) - Δs(Γ0 + e3), written here, along the
 * quadratic path of the state), both formulations agree, the projection
 * lands on g = ġ = 0 to round-off, and a kinematic singularity is reported. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "rod_test_util.h"

#define NK 6
#define NYK (2 * 7 * (NK + 1) + NK)

/* Constraints of every segment (3 components; the model uses the first m). */
static void constraints(const cosrod_rod *rod, const double *x, const double *p, double *g) {
  int N = cosrod_rod_nseg(rod);
  const double *ds = cosrod_rod_seg_length(rod), *G0 = cosrod_rod_gamma0(rod);
  for (int k = 0; k < N; ++k) {
    double dx[4] = {0.0, x[3 * k + 3] - x[3 * k], x[3 * k + 4] - x[3 * k + 1], x[3 * k + 5] - x[3 * k + 2]};
    double t[4], c[4];
    cosrod_quat_conj_mul(t, p + 4 * k, dx);
    cosrod_quat_mul(c, t, p + 4 * k);
    for (int a = 0; a < 3; ++a) g[3 * k + a] = c[a + 1] - ds[k] * (G0[3 * k + a] + (a == 2 ? 1.0 : 0.0));
  }
}

/* Random state near the initial shape: positions and frames perturbed,
 * random velocities; then projected onto the constraints. */
static void random_state(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, th_rng *r,
                         double *y) {
  int ny = cosrod_rod_ny(rod, form), nq = cosrod_rod_nq(rod);
  cosrod_rod_initial_state(rod, form, y);
  for (int i = 0; i < nq; ++i) y[i] += 0.01 * th_rng_normal(r);
  for (int i = nq; i < ny; ++i) y[i] = th_rng_normal(r);
  cosrod_status st = cosrod_rod_kirchhoff_project(rod, d, form, 0.0, y, 20, NULL);
  CHECK("random state projected", st == COSROD_OK);
}

/* max |g̈| by central differences along x(τ) = x + τẋ + ½τ²ẍ, p(τ) likewise,
 * over the m constrained components; *scale: max |Rᵀ Δẍ| (the size of the
 * acceleration terms). */
static double gddot_fd(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, const double *y,
                       const double *ydot, int m, double *scale) {
  int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod);
  double x[3 * (NK + 1)], p[4 * NK], xd[3 * (NK + 1)], Om[3 * NK], xdd[3 * (NK + 1)], pd[4 * NK], pdd[4 * NK];
  cosrod_rod_unpack(rod, form, 0.0, y, x, p, xd, Om);
  for (int i = 0; i < 3 * (N + 1); ++i) xdd[i] = d->xdd[i];
  for (int k = 0; k < N; ++k) {
    cosrod_quat_pdot(pd + 4 * k, p + 4 * k, Om + 3 * k);
    if (form == COSROD_FORM_NULLSPACE) {
      const double *Omd = ydot + nq + cosrod_rod_vindex_segment(rod, form, k);
      double a[4], b[4];
      cosrod_quat_mul_pure(a, pd + 4 * k, Om + 3 * k);
      cosrod_quat_mul_pure(b, p + 4 * k, Omd);
      for (int j = 0; j < 4; ++j) pdd[4 * k + j] = 0.5 * (a[j] + b[j]);
    } else {
      cosrod_quat_copy(pdd + 4 * k, ydot + nq + cosrod_rod_qindex_segment(rod, k));
    }
  }
  /* g̈ = d²/dτ² g(q + τ q̇) (velocity terms, central second difference)
   * + d/dε g(q + ε q̈) (acceleration terms, central first difference):
   * both O(h²) accurate with small constants, unlike one quadratic path
   * whose τ² q̈ displacement is large for the stiff accelerations */
  double amax = 0.0;
  for (int i = 0; i < 3 * (N + 1); ++i) amax = fmax(amax, fabs(xdd[i]));
  for (int i = 0; i < 4 * N; ++i) amax = fmax(amax, fabs(pdd[i]));
  const double tau = 1e-4, eps = 1e-6 / amax;
  double g[5][3 * NK];
  for (int s = 0; s < 5; ++s) {
    double xs[3 * (NK + 1)], ps[4 * NK];
    double cv = s < 3 ? (s - 1) * tau : 0.0, ca = s == 3 ? eps : s == 4 ? -eps : 0.0;
    for (int i = 0; i < 3 * (N + 1); ++i) xs[i] = x[i] + cv * xd[i] + ca * xdd[i];
    for (int i = 0; i < 4 * N; ++i) ps[i] = p[i] + cv * pd[i] + ca * pdd[i];
    constraints(rod, xs, ps, g[s]);
  }
  double emax = 0.0, sc = 0.0;
  for (int k = 0; k < N; ++k) {
    double dxdd[3];
    for (int j = 0; j < 3; ++j) dxdd[j] = xdd[3 * k + 3 + j] - xdd[3 * k + j];
    double c[3];
    cosrod_quat_rotate_inv(c, p + 4 * k, dxdd);
    for (int a = 0; a < m; ++a) {
      int i = 3 * k + a;
      double gdd = (g[2][i] - 2.0 * g[1][i] + g[0][i]) / (tau * tau) + (g[3][i] - g[4][i]) / (2.0 * eps);
      emax = fmax(emax, fabs(gdd));
      sc = fmax(sc, fabs(c[a]));
    }
  }
  *scale = sc;
  return emax;
}

TEST(accelerations_keep_constraints) {
  th_rng r;
  th_rng_seed(&r, 11);
  for (int model = 1; model <= 2; ++model)
    for (int ends = 0; ends < 3; ++ends)
      for (int fm = 0; fm < 2; ++fm) {
        cosrod_rod_form form = fm ? COSROD_FORM_NULLSPACE : COSROD_FORM_ABSOLUTE;
        cosrod_rod *rod = rt_helix_rod((cosrod_rod_model)model, NK, ends, ends == 1);
        cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
        CHECK("rod and data created", rod && d);
        if (!rod || !d) return;
        double y[NYK], yd[NYK], sc;
        random_state(rod, d, form, &r, y);
        int rc = form == COSROD_FORM_NULLSPACE ? cosrod_rod_rhs_nullspace(rod, d, 0.0, y, yd)
                                               : cosrod_rod_rhs_absolute(rod, d, 0.0, y, yd);
        CHECK("rhs returns 0", rc == 0);
        double e = gddot_fd(rod, d, form, y, yd, cosrod_rod_kirchhoff_m(rod), &sc);
        char what[128];
        snprintf(what, sizeof what, "model %d ends %d %s: max |g''| / max |R^T dx''| (FD)", model, ends,
                 fm ? "nullspace" : "absolute");
        /* truncation O(τ²|q̇|⁴) ~ 1e-8 and round-off eps |g|/τ² ~ 1e-8
         * relative to the acceleration terms (measured: 1e-10..2e-8) */
        CHECK_LE(what, e / sc, 1e-7);
        cosrod_rod_data_free(d);
        cosrod_rod_free(rod);
      }
}

/* Both formulations give the same physical accelerations and multipliers. */
TEST(absolute_and_nullspace_agree) {
  th_rng r;
  th_rng_seed(&r, 5);
  for (int model = 1; model <= 2; ++model) {
    cosrod_rod *rod = rt_helix_rod((cosrod_rod_model)model, NK, 2, 0);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod);
    double yn[NYK], ya[NYK], fn[NYK], fa[NYK], x[3 * (NK + 1)], p[4 * NK], xd[3 * (NK + 1)], Om[3 * NK];
    random_state(rod, d, COSROD_FORM_NULLSPACE, &r, yn);
    cosrod_rod_unpack(rod, COSROD_FORM_NULLSPACE, 0.0, yn, x, p, xd, Om);
    cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, 0.0, x, p, xd, Om, ya);
    cosrod_rod_rhs_nullspace(rod, d, 0.0, yn, fn);
    double Fn[3 * NK], Fa[3 * NK];
    for (int i = 0; i < 3 * N; ++i) Fn[i] = d->F[i];
    cosrod_rod_rhs_absolute(rod, d, 0.0, ya, fa);
    for (int i = 0; i < 3 * N; ++i) Fa[i] = d->F[i];
    double emax = 0.0, amax = 0.0, fmx = 0.0, femax = 0.0;
    for (int n = 1; n <= N; ++n)
      for (int j = 0; j < 3; ++j) {
        double an = fn[nq + cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n) + j];
        double aa = fa[nq + cosrod_rod_vindex_vertex(rod, COSROD_FORM_ABSOLUTE, n) + j];
        emax = fmax(emax, fabs(an - aa));
        amax = fmax(amax, fabs(aa));
      }
    for (int i = 0; i < 3 * N; ++i) {
      femax = fmax(femax, fabs(Fn[i] - Fa[i]));
      fmx = fmax(fmx, fabs(Fa[i]));
    }
    char what[96];
    snprintf(what, sizeof what, "model %d: vertex accelerations, relative difference", model);
    CHECK_LE(what, emax / amax, 1e-9);
    snprintf(what, sizeof what, "model %d: multipliers F, relative difference", model);
    CHECK_LE(what, femax / fmx, 1e-9);
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
}

/* Projection of a state perturbed like one step's drift (1e-6): with 3
 * simplified Newton iterations (linear rate ~ the perturbation) g and ġ
 * vanish to round-off; for the inextensible model every segment has its
 * rest length to round-off. */
TEST(projection_onto_constraints) {
  th_rng r;
  th_rng_seed(&r, 3);
  for (int fm = 0; fm < 2; ++fm)
    for (int model = 1; model <= 2; ++model) {
      cosrod_rod_form form = fm ? COSROD_FORM_NULLSPACE : COSROD_FORM_ABSOLUTE;
      cosrod_rod *rod = rt_helix_rod((cosrod_rod_model)model, NK, 1, 0);
      cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
      int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod), ny = cosrod_rod_ny(rod, form);
      double y[NYK];
      cosrod_rod_initial_state(rod, form, y);
      for (int i = 0; i < nq; ++i) y[i] += 1e-6 * th_rng_normal(&r);
      for (int i = nq; i < ny; ++i) y[i] = th_rng_normal(&r);
      double g0, gv0, g1, gv1, moved;
      cosrod_rod_kirchhoff_residual(rod, d, form, 0.0, y, &g0, &gv0);
      cosrod_status st = cosrod_rod_kirchhoff_project(rod, d, form, 0.0, y, 3, &moved);
      CHECK("projection OK", st == COSROD_OK);
      cosrod_rod_kirchhoff_residual(rod, d, form, 0.0, y, &g1, &gv1);
      const double *ds = cosrod_rod_seg_length(rod);
      char what[96];
      snprintf(what, sizeof what, "form %d model %d: |g| after 3 iterations (from %.2g)", fm, model, g0);
      /* round-off of Im(p̄Δxp) with coordinates of size 1: a few eps */
      CHECK_LE(what, g1, 1e-15);
      snprintf(what, sizeof what, "form %d model %d: |g'| after projection (from %.2g)", fm, model, gv0);
      CHECK_LE(what, gv1, 1e-13 * gv0);
      CHECK("moved, by less than the perturbation allows", moved > 0.0 && moved < 1e-5);
      if (model == 2) {
        double x[3 * (NK + 1)], p[4 * NK], emax = 0.0;
        cosrod_rod_unpack(rod, form, 0.0, y, x, p, NULL, NULL);
        for (int k = 0; k < N; ++k) {
          double dx = x[3 * k + 3] - x[3 * k], dy = x[3 * k + 4] - x[3 * k + 1],
                 dz = x[3 * k + 5] - x[3 * k + 2];
          const double *G0 = cosrod_rod_gamma0(rod) + 3 * k;
          double l0 = ds[k] * sqrt(G0[0] * G0[0] + G0[1] * G0[1] + (1 + G0[2]) * (1 + G0[2]));
          emax = fmax(emax, fabs(sqrt(dx * dx + dy * dy + dz * dz) - l0) / l0);
        }
        snprintf(what, sizeof what, "form %d: segment lengths at rest length (relative)", fm);
        CHECK_LE(what, emax, 1e-14);
      }
      cosrod_rod_data_free(d);
      cosrod_rod_free(rod);
    }
}

/* [LA] §4(a): a straight inextensible rod fixed at both ends has a
 * rank-deficient constraint Jacobian (the axial rows sum to zero). */
TEST(kinematic_singularity_reported) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = NK;
  def.model = COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_PINNED;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  double y[NYK], yd[NYK], t;
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  CHECK("no singularity recorded before", cosrod_rod_kirchhoff_singular(d, &t) == -1);
  int rc = cosrod_rod_rhs_nullspace(rod, d, 0.25, y, yd);
  CHECK("rhs fails (recoverable, the integrator retries)", rc > 0);
  CHECK("projection fails",
        cosrod_rod_kirchhoff_project(rod, d, COSROD_FORM_NULLSPACE, 0.25, y, 3, NULL) == COSROD_ERR_SINGULAR);
  int k = cosrod_rod_kirchhoff_singular(d, &t);
  CHECK("segment named", k >= 0 && k < NK);
  CHECK_NEAR("time recorded", t, 0.25, 0.0);
  /* the extensible model of the same rod is regular */
  cosrod_rod_free(rod);
  cosrod_rod_data_free(d);
  def.model = COSROD_MODEL_KIRCHHOFF_EXTENSIBLE;
  rod = cosrod_rod_create(&def, NULL);
  d = cosrod_rod_data_create(rod, NULL);
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  CHECK("extensible: rhs OK", cosrod_rod_rhs_nullspace(rod, d, 0.25, y, yd) == 0);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

/* A vertical inextensible rod hanging at rest from a pinned top is in exact
 * equilibrium: zero accelerations, and the multiplier of segment k (the
 * axial force F3) carries the weight of the vertices below it,
 * F3_k = g Σ_{n>k} ρA δs_n (a free-body balance of the lower part). */
TEST(hanging_rod_multipliers_are_tensions) {
  for (int fm = 0; fm < 2; ++fm) {
    cosrod_rod_form form = fm ? COSROD_FORM_NULLSPACE : COSROD_FORM_ABSOLUTE;
    cosrod_rod_def def = cosrod_rod_def_default();
    def.nseg = NK;
    def.model = COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE;
    def.direction[2] = -1.0; /* hanging along -e3 from the origin */
    def.gravity[2] = -9.81;
    def.ends[0].kind = COSROD_END_PINNED;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod), ny = cosrod_rod_ny(rod, form);
    double y[NYK], yd[NYK];
    cosrod_rod_initial_state(rod, form, y);
    CHECK("rhs OK", (fm ? cosrod_rod_rhs_nullspace(rod, d, 0.0, y, yd)
                        : cosrod_rod_rhs_absolute(rod, d, 0.0, y, yd)) == 0);
    double amax = 0.0;
    for (int i = nq; i < ny; ++i) amax = fmax(amax, fabs(yd[i]));
    char what[96];
    snprintf(what, sizeof what, "form %d: max |acceleration| at equilibrium (m/s^2)", fm);
    CHECK_LE(what, amax, 1e-12);
    double rhoA;
    cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
    const double *w = cosrod_rod_vertex_weight(rod);
    double emax = 0.0, below = 0.0;
    for (int k = N - 1; k >= 0; --k) {
      below += 9.81 * rhoA * w[k + 1];
      emax = fmax(emax, fabs(d->F[3 * k + 2] - below) / below);
      emax = fmax(emax, fabs(d->F[3 * k]) + fabs(d->F[3 * k + 1]));
    }
    snprintf(what, sizeof what, "form %d: F3 = weight below, F1 = F2 = 0 (relative)", fm);
    CHECK_LE(what, emax, 1e-12);
    /* the same through cosrod_rod_eval (the output path) */
    for (int i = 0; i < 3 * N; ++i) d->F[i] = 0.0;
    cosrod_rod_eval(rod, d, form, 0.0, y);
    CHECK_NEAR("cosrod_rod_eval fills F3 of segment 0", d->F[2], below, 1e-12 * below);
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
}

/* Undamped inextensible pendulum (the rubber rod of [LA] Fig. 6: pinned,
 * horizontal, gravity), classical RK4 with h = 1e-4 s and the projection
 * (3 simplified Newton iterations) after each of 10^4 steps: the
 * constraints stay at round-off, every segment at its rest length, and the
 * energy changes only by the RK4 error of the smooth swing (~(hω)^4 with
 * ω ~ 10 1/s: 1e-12; measured 5e-14) plus the projection's O(drift) change:
 * bound 1e-10 of the gravity energy. */
TEST(pendulum_projected_rk4_10k_steps) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 10;
  def.model = COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE;
  def.direction[0] = 0, def.direction[1] = 1, def.direction[2] = 0;
  def.normal[0] = 0, def.normal[1] = 0, def.normal[2] = 1;
  def.gravity[2] = -9.81;
  def.ends[0].kind = COSROD_END_PINNED;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  const cosrod_rod_form form = COSROD_FORM_NULLSPACE;
  int ny = cosrod_rod_ny(rod, form), N = cosrod_rod_nseg(rod);
  double y[160], k1[160], k2[160], k3[160], k4[160], yt[160];
  cosrod_rod_initial_state(rod, form, y);
  cosrod_rod_eval(rod, d, form, 0.0, y);
  const cosrod_rod_energy *e = &d->energy;
  double E0 = e->kinetic_trans + e->kinetic_rot + e->shear_ext + e->bend_tors + e->gravity;
  const double h = 1e-4;
  double gmax = 0.0, gvmax = 0.0, lmax = 0.0, dEmax = 0.0, Vmax = 0.0;
  const double *ds = cosrod_rod_seg_length(rod);
  int failed = 0;
  for (int step = 0; step < 10000 && !failed; ++step) {
    double t = step * h;
    failed |= cosrod_rod_rhs_nullspace(rod, d, t, y, k1);
    for (int i = 0; i < ny; ++i) yt[i] = y[i] + 0.5 * h * k1[i];
    failed |= cosrod_rod_rhs_nullspace(rod, d, t + 0.5 * h, yt, k2);
    for (int i = 0; i < ny; ++i) yt[i] = y[i] + 0.5 * h * k2[i];
    failed |= cosrod_rod_rhs_nullspace(rod, d, t + 0.5 * h, yt, k3);
    for (int i = 0; i < ny; ++i) yt[i] = y[i] + h * k3[i];
    failed |= cosrod_rod_rhs_nullspace(rod, d, t + h, yt, k4);
    for (int i = 0; i < ny; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    cosrod_status pst = cosrod_rod_kirchhoff_project(rod, d, form, t + h, y, 3, NULL);
    if (pst != COSROD_OK) NOTE("projection at step %d: %s", step, cosrod_strerror(pst));
    failed |= pst != COSROD_OK;
    double gp, gv;
    cosrod_rod_kirchhoff_residual(rod, d, form, t + h, y, &gp, &gv);
    gmax = fmax(gmax, gp);
    gvmax = fmax(gvmax, gv);
    double x[33];
    cosrod_rod_unpack(rod, form, t + h, y, x, yt, NULL, NULL);
    for (int k = 0; k < N; ++k) {
      double dx = x[3 * k + 3] - x[3 * k], dy = x[3 * k + 4] - x[3 * k + 1], dz = x[3 * k + 5] - x[3 * k + 2];
      lmax = fmax(lmax, fabs(sqrt(dx * dx + dy * dy + dz * dz) - ds[k]) / ds[k]);
    }
    cosrod_rod_eval(rod, d, form, t + h, y);
    double E = e->kinetic_trans + e->kinetic_rot + e->shear_ext + e->bend_tors + e->gravity;
    dEmax = fmax(dEmax, fabs(E - E0));
    Vmax = fmax(Vmax, fabs(e->gravity));
  }
  CHECK("10^4 steps without failure", !failed);
  CHECK_LE("max |g| after projection over 10^4 steps (m)", gmax, 1e-15);
  CHECK_LE("max |g'| after projection over 10^4 steps (m/s)", gvmax, 1e-13);
  CHECK_LE("max relative segment length error", lmax, 1e-14);
  CHECK_LE("max |E - E0| / max |V_gravity|", dEmax / Vmax, 1e-10);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {
    TH_CASE(hanging_rod_multipliers_are_tensions), TH_CASE(pendulum_projected_rk4_10k_steps),
    TH_CASE(accelerations_keep_constraints),       TH_CASE(absolute_and_nullspace_agree),
    TH_CASE(projection_onto_constraints),          TH_CASE(kinematic_singularity_reported)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
