// SPDX-License-Identifier: Apache-2.0
/* Load types, ends and references in statics: pure bending by a tip moment
 * (dead and follower) gives uniform curvature M/EI at every vertex; a
 * follower tip force stays normal to the tip; a sliding end under an axial
 * force stretches by F L / EA; a stress-free helix is an equilibrium (zero
 * iterations) and a precurved quarter circle matches Castigliano; equilibrium_at by load continuation (start
 * from equilibrium far beyond the linear range) matches a ramped solve; the stiffness agrees with the
 * directional derivative of the residual and is symmetric at an equilibrium. */
#include <stdio.h>

#include "cosrod/band.h"
#include "statics_test_util.h"

static const double E = 2.1e11, R = 5e-3;

static double EI_circle(void) { return E * ST_PI * R * R * R * R / 4.0; }

/* solve from t = 0 to 1 with the default options; returns status */
static cosrod_status solve(const cosrod_rod *rod, double *q, cosrod_statics_stats *stats) {
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, stats);
  cosrod_statics_free(s);
  return st;
}

/* A tip moment T about the spatial e2 (dead) or the material d2 (follower)
 * bends the cantilever (along e3, d2 = e2) into a circle: pure bending,
 * F = 0, TL/EI = 2 rad.  The work conjugate of the vertex curvature K(φ) of a
 * relative rotation φ is T = M dK/dφ δs, so the couples satisfy
 *   angle variant (K = φ/δs):           M = T exactly,
 *   tangent-2 (K = 2 tan(φ/2)/δs):      M (1 + (K δs/2)²) = T,
 * at every interior vertex (an identity of the discrete equilibrium,
 * independent of the solver). */
static void pure_bending(cosrod_load_frame frame, cosrod_curvature cv) {
  cosrod_rod_def def = st_cantilever(12, 1.0, R, 0);
  def.curvature = cv;
  const double T = 2.0 * EI_circle();
  cosrod_rod_load load = {COSROD_LOAD_MOMENT, frame, -1, {0, T, 0}, COSROD_PROFILE_RAMP, 0.0, 1.0};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = calloc((size_t)ny, sizeof(double));
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  cosrod_statics_stats stats;
  cosrod_status st = solve(rod, y, &stats);
  CHECK("solve OK", st == COSROD_OK);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, 1.0, y);
  const double *w = cosrod_rod_vertex_weight(rod);
  double ek = 0.0, ef = 0.0;
  for (int n = 1; n < 12; ++n) {
    double M = d->M[3 * n + 1], K = d->K[3 * n + 1];
    double Tn = cv == COSROD_CURV_ANGLE ? M : M * (1.0 + 0.25 * K * K * w[n] * w[n]);
    ek = fmax(ek, fabs(Tn - T) / T);
  }
  for (int k = 0; k < 12; ++k) ef = fmax(ef, cosrod_vec3_norm(d->F + 3 * k));
  NOTE("%s moment, %s: increments %ld, max |T_n - T|/T = %.2e, max |F| = %.2e N", frame ? "follower" : "dead",
       cosrod_curvature_name(cv), stats.increments, ek, ef);
  /* scaled residual 1e-9 of the couples: relative error ~1e-9 */
  CHECK_LE("conjugate torque at every interior vertex = applied moment (relative)", ek, 1e-7);
  CHECK_LE("no stress resultant (N)", ef, 1e-7 * T);
  double tip[3];
  cosrod_quat_director(tip, d->p + 4 * 11, 2);
  NOTE("tip tangent (%.4f, %.4f, %.4f)", tip[0], tip[1], tip[2]);
  CHECK_LE("the rod is bent far (tip tangent turned by > 1 rad)", tip[2], cos(1.0));
  cosrod_rod_data_free(d);
  free(y);
  cosrod_rod_free(rod);
}

TEST(pure_bending_dead_moment) {
  pure_bending(COSROD_FRAME_SPATIAL, COSROD_CURV_ANGLE);
  pure_bending(COSROD_FRAME_SPATIAL, COSROD_CURV_TANGENT2);
}
TEST(pure_bending_follower_moment) {
  pure_bending(COSROD_FRAME_MATERIAL, COSROD_CURV_ANGLE);
  pure_bending(COSROD_FRAME_MATERIAL, COSROD_CURV_TANGENT2);
}

/* A follower tip force along the tip's d1: at equilibrium the force on the
 * last vertex is normal to the last segment (material frame), and the clamp
 * reaction balances it: the generalised force on x_N vanishes. */
TEST(follower_force_stays_material) {
  cosrod_rod_def def = st_cantilever(16, 1.0, R, 0);
  const double P = 2.0 * EI_circle(); /* PL²/EI = 2: large deflection */
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, -1, {P, 0, 0}, COSROD_PROFILE_RAMP, 0.0, 1.0};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = calloc((size_t)ny, sizeof(double));
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  cosrod_statics_stats stats;
  cosrod_status st = solve(rod, y, &stats);
  CHECK("solve OK", st == COSROD_OK);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, 1.0, y);
  double d1[3];
  cosrod_quat_director(d1, d->p + 4 * 15, 0);
  double c = cosrod_vec3_dot(d1, d->fload + 3 * 16) / P;
  NOTE("increments %ld, tip load . d1 / P = %.12f, tip x = %.4f, z = %.4f", stats.increments, c, d->x[48],
       d->x[50]);
  CHECK_CLOSE("load follows d1 of the last segment", c, 1.0, 0.0, 1e-12);
  CHECK_LE("tip rotated far (d1 no longer e1)", d1[0], 0.9);
  cosrod_rod_data_free(d);
  free(y);
  cosrod_rod_free(rod);
}

/* Pinned start, end pinned in a guide along e3 (slides_along), axial tip
 * force F: uniform stretch, ΔL = F L / EA exactly (linear law in Γ3). */
TEST(sliding_end_axial_force) {
  cosrod_rod_def def = st_cantilever(10, 1.0, R, 0);
  def.ends[0].kind = COSROD_END_PINNED;
  def.ends[1].kind = COSROD_END_PINNED;
  def.ends[1].slides = 1;
  def.ends[1].slide_axis[2] = 1.0;
  const double EA = E * ST_PI * R * R, F = 1e-3 * EA;
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 0, F}, COSROD_PROFILE_RAMP, 0.0, 1.0};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  double *q = st_initial_q(rod);
  cosrod_statics_stats stats;
  cosrod_status st = solve(rod, q, &stats);
  CHECK("solve OK", st == COSROD_OK);
  double x[33], p[40];
  st_unpack_x(rod, 1.0, q, x, p);
  NOTE("increments %ld, elongation %.10e, F L / EA = %.10e", stats.increments, x[32] - 1.0, F / EA);
  CHECK_CLOSE("elongation = F L / EA", x[32] - 1.0, F / EA, 1e-7, 0.0);
  CHECK_LE("tip stays on the axis (x)", fabs(x[30]), 1e-15);
  free(q);
  cosrod_rod_free(rod);
}

/* A stress-free precurved rod (helix, reference initial) without loads is an
 * equilibrium: zero Newton iterations. */
TEST(precurved_stress_free_helix) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 24;
  def.shape = COSROD_SHAPE_HELIX;
  def.shape_radius = 0.1, def.pitch = 0.05, def.turns = 1.5;
  def.length = 0.0;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.gravity[2] = 0.0;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  double *q = st_initial_q(rod);
  cosrod_statics_stats stats;
  cosrod_status st = solve(rod, q, &stats);
  CHECK("helix solve OK", st == COSROD_OK);
  NOTE("helix: newton %ld", stats.newton);
  CHECK_LE("stress-free helix: zero Newton iterations", (double)stats.newton, 0.0);
  free(q);
  cosrod_rod_free(rod);
}

/* Precurved (stress-free) quarter-circle cantilever, radius Rc, clamped at
 * one end, small tip load P towards the centre direction of the clamp's
 * radius (Castigliano, M(θ) = P Rc cos θ): δ = π P Rc³ / (4 EI); axial and
 * shear parts ~(r/Rc)² ~ 3e-5.  Second order in N. */
TEST(precurved_quarter_circle_castigliano) {
  const double Rc = 1.0, EI = EI_circle();
  const double P = 1e-5 * 4.0 * EI / (ST_PI * Rc * Rc * Rc); /* δ = 1e-5 Rc */
  int Ns[2] = {16, 32};
  double err[2];
  for (int i = 0; i < 2; ++i) {
    cosrod_rod_def def = st_cantilever(Ns[i], 0.0, R, 0);
    def.shape = COSROD_SHAPE_ARC;
    def.shape_radius = Rc, def.arc_angle = 0.5 * ST_PI;
    def.direction[0] = 0, def.direction[1] = 1, def.direction[2] = 0;
    def.normal[0] = -1, def.normal[1] = 0, def.normal[2] = 0; /* centre at (-Rc, 0, 0), tip at (-Rc, Rc, 0) */
    cosrod_rod_load load = {
        COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, -P, 0}, COSROD_PROFILE_RAMP, 0, 1};
    def.nloads = 1;
    def.loads = &load;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    double *q = st_initial_q(rod), *q0 = st_initial_q(rod);
    cosrod_statics_stats stats;
    CHECK("solve OK", solve(rod, q, &stats) == COSROD_OK);
    int N = Ns[i];
    double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)),
           *x0 = malloc(sizeof(double) * 3 * (size_t)(N + 1));
    double *p = malloc(sizeof(double) * 4 * (size_t)N);
    st_unpack_x(rod, 1.0, q, x, p);
    st_unpack_x(rod, 0.0, q0, x0, p);
    double dy = x0[3 * N + 1] - x[3 * N + 1], ref = ST_PI * P * Rc * Rc * Rc / (4.0 * EI);
    err[i] = fabs(dy - ref) / ref;
    NOTE("N = %d: tip (%.6f, %.6f), deflection %.6e, Castigliano %.6e, rel. error %.2e", N, x0[3 * N],
         x0[3 * N + 1], dy, ref, err[i]);
    free(x), free(x0), free(p), free(q), free(q0);
    cosrod_rod_free(rod);
  }
  CHECK_CLOSE("observed order 16 -> 32", log2(err[0] / err[1]), 2.0, 0.0, 0.3);
  CHECK_LE("relative error at N = 32", err[1], 2e-3);
}

/* start_from_equilibrium far beyond the linear range ([LLT] §3): a tip
 * force active only at t = 0 with P L² / EI = 3; plain Newton from the
 * straight rod fails, equilibrium_at continues in the load factor; the
 * result equals the ramped continuation's final state. */
TEST(equilibrium_at_large_preload) {
  const double P = 3.0 * EI_circle();
  cosrod_rod_def def = st_cantilever(16, 1.0, R, 0);
  cosrod_rod_load l0 = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {P, 0, 0}, COSROD_PROFILE_ACTIVE, 0.0, 0.0};
  def.nloads = 1;
  def.loads = &l0;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *qa = st_initial_q(rod);
  cosrod_statics_stats sa;
  cosrod_status st = cosrod_statics_equilibrium_at(s, 0.0, qa, &sa);
  CHECK("equilibrium_at OK", st == COSROD_OK);
  NOTE("equilibrium_at: newton %ld, rejected %ld", sa.newton, sa.rejected);

  cosrod_rod_def def2 = def;
  cosrod_rod_load l1 = l0;
  l1.profile = COSROD_PROFILE_RAMP, l1.t0 = 0.0, l1.t1 = 1.0;
  def2.loads = &l1;
  cosrod_rod *rod2 = cosrod_rod_create(&def2, NULL);
  double *qb = st_initial_q(rod2);
  cosrod_statics_stats sb;
  st = solve(rod2, qb, &sb);
  CHECK("ramped solve OK", st == COSROD_OK);
  double xa[51], xb[51], pa[64], pb[64];
  st_unpack_x(rod, 0.0, qa, xa, pa);
  st_unpack_x(rod2, 1.0, qb, xb, pb);
  NOTE("tip: equilibrium_at (%.6f, %.6f), ramp (%.6f, %.6f)", xa[48], xa[50], xb[48], xb[50]);
  CHECK_LE("tip deflection beyond the linear range (> 0.5 L)", 0.5, xa[48]);
  /* both converged to scaled residual 1e-9: same state to ~1e-9 L */
  CHECK_VEC("same equilibrium (vertex positions, m)", xa, xb, 51, 0.0, 1e-8);
  free(qa);
  free(qb);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  cosrod_rod_free(rod2);
}

/* The stiffness K = -dr/dδ agrees with the directional derivative of the
 * residual along random directions, and is symmetric at an equilibrium
 * under dead loads (Hessian of the energy in the chart). */
TEST(stiffness_directional_and_symmetric) {
  cosrod_rod_def def = st_cantilever(10, 1.0, R, 0);
  def.gravity[0] = -9.81 * 100.0;
  def.curvature = COSROD_CURV_SINE4;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  cosrod_statics_stats stats;
  CHECK("solve OK", cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &stats) == COSROD_OK);
  size_t nv = (size_t)cosrod_statics_ndof(s), nq = (size_t)cosrod_rod_nq(rod);
  cosrod_band *K = cosrod_band_create((int)nv, 8, 8, NULL);
  CHECK("stiffness OK", cosrod_statics_stiffness(s, 1.0, q, K) == COSROD_OK);
  double asym = 0.0, kmax = 0.0;
  for (int j = 0; j < (int)nv; ++j)
    for (int i = j; i < (int)nv && i <= j + 8; ++i) {
      asym = fmax(asym, fabs(cosrod_band_get(K, i, j) - cosrod_band_get(K, j, i)));
      kmax = fmax(kmax, fabs(cosrod_band_get(K, i, j)));
    }
  NOTE("max |K - K^T| / max |K| = %.2e", asym / kmax);
  /* FD truncation ~h^2 ~ 4e-11 relative plus the residual tolerance */
  CHECK_LE("symmetric at the equilibrium (relative)", asym / kmax, 1e-7);
  /* directional derivative with a larger step (independent FD): random δ */
  th_rng rng;
  th_rng_seed(&rng, 7);
  double *dl = calloc(nv, sizeof(double)), *qp = calloc(nq, sizeof(double)), *qm = calloc(nq, sizeof(double));
  double *rp = calloc(nv, sizeof(double)), *rm = calloc(nv, sizeof(double));
  double *Kd = calloc(nv, sizeof(double));
  for (size_t i = 0; i < nv; ++i) dl[i] = 1e-4 * th_rng_normal(&rng);
  cosrod_band_matvec(K, dl, Kd);
  memcpy(qp, q, sizeof(double) * nq);
  memcpy(qm, q, sizeof(double) * nq);
  cosrod_statics_apply(s, qp, dl);
  for (size_t i = 0; i < nv; ++i) dl[i] = -dl[i];
  cosrod_statics_apply(s, qm, dl);
  cosrod_statics_residual(s, 1.0, qp, rp, NULL);
  cosrod_statics_residual(s, 1.0, qm, rm, NULL);
  double err = 0.0, ref = 0.0;
  for (size_t i = 0; i < nv; ++i) {
    double fd = -(rp[i] - rm[i]) / 2.0; /* K δ ≈ -(r(q+δ) - r(q-δ))/2 */
    err = fmax(err, fabs(fd - Kd[i]));
    ref = fmax(ref, fabs(Kd[i]));
  }
  NOTE("max |K d - FD| / max |K d| = %.2e", err / ref);
  /* central difference with |δ| ~ 1e-4: O(|δ|²) ~ 1e-8 relative, plus the
   * curvature of the chart (p exp(δ/2) vs p exp(-δ/2) symmetric: 2nd order) */
  CHECK_LE("directional derivative agrees (relative)", err / ref, 1e-6);
  free(dl), free(qp), free(qm), free(rp), free(rm), free(Kd);
  cosrod_band_free(K);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* Analytic stiffness (the rod's K_q pulled back to the chart, plus the
 * torque term) against its finite-difference twin at random non-equilibrium
 * states: every curvature variant, clamped / prescribed / sliding ends,
 * gravity, dead and follower forces and moments. */
TEST(stiffness_analytic_vs_fd) {
  th_rng rng;
  th_rng_seed(&rng, 11);
  cosrod_curvature cv[5] = {COSROD_CURV_SINE2, COSROD_CURV_SINE4, COSROD_CURV_TANGENT2, COSROD_CURV_TANGENT4,
                            COSROD_CURV_ANGLE};
  double worst = 0.0;
  for (int c = 0; c < 5; ++c) {
    cosrod_rod_def def = cosrod_rod_def_default();
    def.nseg = 7;
    def.curvature = cv[c];
    def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = def.tau_bulk = 0.01; /* ignored in statics */
    def.gravity[0] = 1.0, def.gravity[2] = -9.81;
    def.ends[0].kind = c % 2 ? COSROD_END_CLAMPED : COSROD_END_PINNED;
    def.ends[1].kind = c >= 3 ? COSROD_END_PINNED : COSROD_END_FREE;
    def.ends[1].slides = c >= 3, def.ends[1].slide_axis[2] = 1.0;
    double rot[10] = {0, 1, 0, 0, 0, 1, cos(0.3), sin(0.3), 0, 0};
    if (c == 2) {
      def.ends[0].kind = COSROD_END_PRESCRIBED;
      def.ends[0].nrot = 2;
      def.ends[0].rot = rot;
    }
    cosrod_rod_load loads[4] = {
        {COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, 3, {0.01, -0.02, 0.03}, COSROD_PROFILE_CONSTANT, 0, 0},
        {COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, 4, {0.001, 0.002, -0.001}, COSROD_PROFILE_CONSTANT, 0, 0},
        {COSROD_LOAD_MOMENT,
         COSROD_FRAME_MATERIAL,
         -1,
         {-0.001, 0.001, 0.002},
         COSROD_PROFILE_CONSTANT,
         0,
         0},
        {COSROD_LOAD_DISTRIBUTED,
         COSROD_FRAME_MATERIAL,
         0,
         {0.01, 0.0, -0.01},
         COSROD_PROFILE_CONSTANT,
         0,
         0}};
    def.nloads = 4;
    def.loads = loads;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    cosrod_statics_options oa = cosrod_statics_default_options(), of = oa;
    of.jacobian = COSROD_STATICS_JAC_FD;
    cosrod_statics *sa = cosrod_statics_create(rod, &oa, NULL), *sf = cosrod_statics_create(rod, &of, NULL);
    int nv = cosrod_statics_ndof(sa);
    double *q = st_initial_q(rod), *dl = calloc((size_t)nv, sizeof(double));
    for (int i = 0; i < nv; ++i) dl[i] = 0.05 * th_rng_normal(&rng); /* a bent, twisted, strained state */
    cosrod_statics_apply(sa, q, dl);
    cosrod_band *Ka = cosrod_band_create(nv, 8, 8, NULL), *Kf = cosrod_band_create(nv, 8, 8, NULL);
    CHECK("analytic stiffness OK", cosrod_statics_stiffness(sa, 0.5, q, Ka) == COSROD_OK);
    CHECK("FD stiffness OK", cosrod_statics_stiffness(sf, 0.5, q, Kf) == COSROD_OK);
    double err = 0.0, big = 0.0;
    for (int j = 0; j < nv; ++j)
      for (int i = j - 8; i <= j + 8; ++i) {
        if (i < 0 || i >= nv) continue;
        err = fmax(err, fabs(cosrod_band_get(Ka, i, j) - cosrod_band_get(Kf, i, j)));
        big = fmax(big, fabs(cosrod_band_get(Kf, i, j)));
      }
    NOTE("%s: max |K_analytic - K_fd| / max |K| = %.2e", cosrod_curvature_name(cv[c]), err / big);
    worst = fmax(worst, err / big);
    cosrod_band_free(Ka);
    cosrod_band_free(Kf);
    free(q);
    free(dl);
    cosrod_statics_free(sa);
    cosrod_statics_free(sf);
    cosrod_rod_free(rod);
  }
  /* [manual: modelling guide]: analytic Jacobians agree with finite differences to <= 1e-6 */
  CHECK_LE("worst relative difference", worst, 1e-6);
}

/* Two uncoupled rods in one solver (one pseudo-time path, concatenated
 * unknowns): each ends at its own single-rod equilibrium. */
TEST(system_of_two_rods) {
  cosrod_rod_def da = st_cantilever(12, 1.0, R, 0);
  const double P = 2.0 * EI_circle();
  cosrod_rod_load la = {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {P, 0, 0}, COSROD_PROFILE_RAMP, 0, 1};
  da.nloads = 1, da.loads = &la;
  cosrod_rod_def db = st_cantilever(9, 0.7, 2.0 * R, 0);
  db.curvature = COSROD_CURV_SINE4;
  db.start[1] = 1.0;
  db.ends[1].kind = COSROD_END_PINNED, db.ends[1].slides = 1, db.ends[1].slide_axis[0] = 1.0;
  cosrod_rod_load lb = {
      COSROD_LOAD_MOMENT, COSROD_FRAME_MATERIAL, -1, {0, 50.0, 0}, COSROD_PROFILE_RAMP, 0, 1};
  db.nloads = 1, db.loads = &lb;
  db.gravity[2] = -9.81;
  const cosrod_rod *rods[2] = {cosrod_rod_create(&da, NULL), cosrod_rod_create(&db, NULL)};
  cosrod_status st;
  cosrod_statics *sys = cosrod_statics_create_system(rods, 2, NULL, &st);
  CHECK("system created", sys != NULL && st == COSROD_OK);
  int nqa = cosrod_rod_nq(rods[0]), nqb = cosrod_rod_nq(rods[1]);
  CHECK("sizes and offsets",
        cosrod_statics_nrods(sys) == 2 && cosrod_statics_nq(sys) == nqa + nqb &&
            cosrod_statics_qoffset(sys, 1) == nqa &&
            cosrod_statics_voffset(sys, 1) == cosrod_rod_nv(rods[0], COSROD_FORM_NULLSPACE) &&
            cosrod_statics_qoffset(sys, 2) == -1);
  double *q = calloc((size_t)(nqa + nqb), sizeof(double));
  double *qa = st_initial_q(rods[0]), *qb = st_initial_q(rods[1]);
  memcpy(q, qa, sizeof(double) * (size_t)nqa);
  memcpy(q + nqa, qb, sizeof(double) * (size_t)nqb);
  cosrod_statics_stats ss, sa, sb;
  CHECK("system solve OK", cosrod_statics_solve(sys, q, 0.0, 1.0, NULL, NULL, &ss) == COSROD_OK);
  CHECK("rod A alone OK", solve(rods[0], qa, &sa) == COSROD_OK);
  CHECK("rod B alone OK", solve(rods[1], qb, &sb) == COSROD_OK);
  NOTE("increments: system %ld, A %ld, B %ld; Newton: system %ld, A %ld, B %ld", ss.increments, sa.increments,
       sb.increments, ss.newton, sa.newton, sb.newton);
  double xa[39], xs[39], xb[30], xsb[30], p[64];
  st_unpack_x(rods[0], 1.0, qa, xa, p);
  st_unpack_x(rods[0], 1.0, q, xs, p);
  st_unpack_x(rods[1], 1.0, qb, xb, p);
  st_unpack_x(rods[1], 1.0, q + nqa, xsb, p);
  /* both at scaled residual <= 1e-9: positions agree to ~1e-9 L */
  CHECK_VEC("rod A: system = single solve (m)", xs, xa, 39, 0.0, 1e-8);
  CHECK_VEC("rod B: system = single solve (m)", xsb, xb, 30, 0.0, 1e-8);
  CHECK_LE("rod B's sliding end moved along e1", 1e-3, fabs(xb[27] - 0.0));
  free(q), free(qa), free(qb);
  cosrod_statics_free(sys);
  cosrod_rod_free((cosrod_rod *)rods[0]);
  cosrod_rod_free((cosrod_rod *)rods[1]);
}

/* Simply supported beam (pinned at s = 0, pinned in a guide along its axis
 * at s = L) under a small uniform load: midspan deflection
 * 5 q L⁴/(384 EI) + q L²/(8 κ G A).  The straight rod can spin freely about
 * its axis (a rigid null mode of K): the solve must neither fail on the
 * singular stiffness nor report a false critical point. */
TEST(simply_supported_beam_null_mode) {
  const double q = 1e-5 * 384.0 * EI_circle() / 5.0; /* deflection 1e-5 L */
  const double G = E / 2.6, A = ST_PI * R * R;
  const double ref = 5.0 * q / (384.0 * EI_circle()) + q / (8.0 * G * A);
  int Ns[2] = {16, 32};
  double err[2];
  for (int i = 0; i < 2; ++i) {
    cosrod_rod_def def = st_cantilever(Ns[i], 1.0, R, 0);
    def.ends[0].kind = COSROD_END_PINNED;
    def.ends[1].kind = COSROD_END_PINNED;
    def.ends[1].slides = 1, def.ends[1].slide_axis[2] = 1.0;
    cosrod_rod_load load = {
        COSROD_LOAD_DISTRIBUTED, COSROD_FRAME_SPATIAL, 0, {q, 0, 0}, COSROD_PROFILE_RAMP, 0, 1};
    def.nloads = 1, def.loads = &load;
    cosrod_rod *rod = cosrod_rod_create(&def, NULL);
    double *qq = st_initial_q(rod);
    cosrod_statics_stats stats;
    cosrod_status st = solve(rod, qq, &stats);
    CHECK("solve OK (no false critical point)", st == COSROD_OK && stats.critical == 0);
    int N = Ns[i];
    double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
    st_unpack_x(rod, 1.0, qq, x, p);
    err[i] = fabs(x[3 * (N / 2)] - ref) / ref;
    NOTE("N = %d: midspan deflection %.8e, beam theory %.8e, rel. error %.2e, rejected %ld", N,
         x[3 * (N / 2)], ref, err[i], stats.rejected);
    free(x), free(p), free(qq);
    cosrod_rod_free(rod);
  }
  CHECK_CLOSE("observed order 16 -> 32", log2(err[0] / err[1]), 2.0, 0.0, 0.2);
  CHECK_LE("relative error at N = 32", err[1], 2e-3);
}

static const th_case cases[] = {TH_CASE(simply_supported_beam_null_mode),
                                TH_CASE(system_of_two_rods),
                                TH_CASE(stiffness_analytic_vs_fd),
                                TH_CASE(pure_bending_dead_moment),
                                TH_CASE(pure_bending_follower_moment),
                                TH_CASE(follower_force_stays_material),
                                TH_CASE(sliding_end_axial_force),
                                TH_CASE(precurved_stress_free_helix),
                                TH_CASE(precurved_quarter_circle_castigliano),
                                TH_CASE(equilibrium_at_large_preload),
                                TH_CASE(stiffness_directional_and_symmetric)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
