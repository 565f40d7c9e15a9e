// SPDX-License-Identifier: Apache-2.0
/* Formulations of the discrete rod: absolute vs null-space accelerations,
 * Lagrange multipliers vs the index-1 system solved densely with LAPACK,
 * the DAE residual, Baumgarte terms, projection, packing and sizes. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>

#include "rod_test_util.h"

#define NMAX 12

typedef struct fixture {
  cosrod_rod *rod;
  cosrod_rod_data *d;
  double s[NMAX + 1], x[3 * (NMAX + 1)], p[4 * NMAX], xd[3 * (NMAX + 1)], Om[3 * NMAX];
  double rot0[10], pos0[8];
  int N;
} fixture;

/* config 0 free-free, 1 clamped start (frame = p_{1/2} rotated 0.3 rad) and
 * sliding pinned end, 2 prescribed moving start. Damped, with gravity and loads. */
static void fx_make(fixture *F, uint64_t seed, cosrod_curvature cv, int config) {
  th_rng r;
  th_rng_seed(&r, seed);
  int N = F->N = 8;
  rt_grid(&r, N, 1.1, F->s);
  rt_config(&r, N, F->s, 0.2, 1.2, F->x, F->p, F->xd, F->Om);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.grid = F->s, def.ngrid = N + 1, def.curvature = cv;
  def.reference = COSROD_REFERENCE_STRAIGHT;
  def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 0.02, def.tau_bulk = 0.01;
  def.gravity[2] = -9.81;
  cosrod_rod_load loads[2] = {
      {COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, -1, {0.3, -0.2, 1.0}, COSROD_PROFILE_CONSTANT, 0, 0},
      {COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, 3, {0.01, 0.02, -0.03}, COSROD_PROFILE_RAMP, 0.0, 1.0}};
  def.nloads = 2, def.loads = loads;
  double u[3], e[4];
  rt_rand_unit3(&r, u), rt_quat_axis(e, u, 0.3);
  if (config == 1) {
    /* clamped start: frame from direction / normal = d3, d1 of p_{1/2} e */
    double q[4], d1[3], d3[3];
    cosrod_quat_mul(q, F->p, e);
    cosrod_quat_director(d1, q, 0), cosrod_quat_director(d3, q, 2);
    cosrod_vec3_copy(def.direction, d3), cosrod_vec3_copy(def.normal, d1);
    def.ends[0].kind = COSROD_END_CLAMPED;
    def.ends[1].kind = COSROD_END_PINNED, def.ends[1].slides = 1;
    def.ends[1].slide_axis[0] = 0.0, def.ends[1].slide_axis[1] = 0.6, def.ends[1].slide_axis[2] = 0.8;
  } else if (config == 2) {
    F->pos0[0] = 0.0, F->pos0[4] = 1.0;
    for (int j = 0; j < 3; ++j) F->pos0[1 + j] = F->x[j], F->pos0[5 + j] = F->x[j] + 0.3;
    F->rot0[0] = 0.0, F->rot0[5] = 1.0;
    cosrod_quat_copy(F->rot0 + 1, F->p);
    cosrod_quat_mul(F->rot0 + 6, F->p, e);
    def.ends[0].kind = COSROD_END_PRESCRIBED;
    def.ends[0].npos = 2, def.ends[0].pos = F->pos0, def.ends[0].nrot = 2, def.ends[0].rot = F->rot0;
  }
  F->rod = cosrod_rod_create(&def, NULL);
  F->d = F->rod ? cosrod_rod_data_create(F->rod, NULL) : NULL;
}

static void fx_free(fixture *F) {
  cosrod_rod_data_free(F->d);
  cosrod_rod_free(F->rod);
}

/* Both ODE formulations on the same physical state: identical vertex
 * accelerations, and p̈ = ½ ṗ Ω + ½ p Ω̇ with ṗ = ½ p Ω. */
TEST(absolute_vs_nullspace_accelerations) {
  for (int cv = 0; cv < 5; ++cv)
    for (int config = 0; config < 3; ++config) {
      fixture F;
      fx_make(&F, 77 + 3 * (uint64_t)cv + (uint64_t)config, (cosrod_curvature)cv, config);
      CHECK("rod created", F.rod != NULL);
      if (!F.rod) return;
      cosrod_rod *rod = F.rod;
      int N = F.N, nq = cosrod_rod_nq(rod);
      double ya[2 * 7 * (NMAX + 1)], yn[2 * 7 * (NMAX + 1)], fa[2 * 7 * (NMAX + 1)], fn[2 * 7 * (NMAX + 1)];
      double t = 0.4;
      cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, t, F.x, F.p, F.xd, F.Om, ya);
      cosrod_rod_pack(rod, COSROD_FORM_NULLSPACE, t, F.x, F.p, F.xd, F.Om, yn);
      int ra = cosrod_rod_rhs_absolute(rod, F.d, t, ya, fa);
      int rn = cosrod_rod_rhs_nullspace(rod, F.d, t, yn, fn);
      CHECK("both right-hand sides return 0", ra == 0 && rn == 0);
      double emax = 0.0, amax = 0.0;
      for (int n = 0; n <= N; ++n) {
        int nd = cosrod_rod_vertex_ndof(rod, n);
        int ia = nq + cosrod_rod_vindex_vertex(rod, COSROD_FORM_ABSOLUTE, n);
        int in = nq + cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n);
        for (int j = 0; j < nd; ++j) {
          emax = fmax(emax, fabs(fa[ia + j] - fn[in + j]));
          amax = fmax(amax, fabs(fa[ia + j]));
        }
      }
      for (int k = 0; k < N; ++k) {
        const double *p = F.p + 4 * k, *Om = F.Om + 3 * k;
        const double *Omd = fn + nq + cosrod_rod_vindex_segment(rod, COSROD_FORM_NULLSPACE, k);
        double pd[4], a[4], b[4];
        cosrod_quat_pdot(pd, p, Om);
        cosrod_quat_mul_pure(a, pd, Om);
        cosrod_quat_mul_pure(b, p, Omd);
        const double *pdd = fa + nq + cosrod_rod_qindex_segment(rod, k);
        for (int j = 0; j < 4; ++j) {
          emax = fmax(emax, fabs(pdd[j] - 0.5 * (a[j] + b[j])));
          amax = fmax(amax, fabs(pdd[j]));
        }
      }
      char what[96];
      snprintf(what, sizeof what, "%s config %d: max |a_abs - a_ns| / max |a|",
               cosrod_curvature_name((cosrod_curvature)cv), config);
      /* both are exact algebraic rearrangements; accelerations ~1e4 from
       * stiff shear; roundoff of the explicit inverse: 1e-12 relative */
      CHECK_LE(what, emax / amax, 1e-12);
      fx_free(&F);
    }
}

/* Independent reference for one segment: the 5x5 index-1 system
 * [ρΔs μ(p)  p; pᵀ 0] (p̈, λ) = (ψ + ½∂p(ṗᵀMṗ) - ∂p(Mṗ)ṗ, -|ṗ|²), with the
 * inertia terms by central differences of μ(p) (quat module) and LAPACK dgesv. */
static void index1_reference(const double p[4], const double pd[4], const double Ib[3], const double psi[4],
                             double pdd[4], double *lambda) {
  double mu[16], mp[16], mm[16], F[4];
  cosrod_quat_mass(mu, p, Ib);
  double h = 1e-5;
  for (int i = 0; i < 4; ++i) {
    double pp[4], pm[4];
    cosrod_quat_copy(pp, p), cosrod_quat_copy(pm, p);
    pp[i] += h, pm[i] -= h;
    cosrod_quat_mass(mp, pp, Ib), cosrod_quat_mass(mm, pm, Ib);
    double tp = 0.0, tm = 0.0;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) tp += pd[a] * mp[a + 4 * b] * pd[b], tm += pd[a] * mm[a + 4 * b] * pd[b];
    F[i] = psi[i] + 0.5 * (tp - tm) / (2.0 * h);
  }
  double pp[4], pm[4];
  for (int i = 0; i < 4; ++i) pp[i] = p[i] + h * pd[i], pm[i] = p[i] - h * pd[i];
  cosrod_quat_mass(mp, pp, Ib), cosrod_quat_mass(mm, pm, Ib);
  for (int i = 0; i < 4; ++i) {
    double s = 0.0;
    for (int b = 0; b < 4; ++b) s += (mp[i + 4 * b] - mm[i + 4 * b]) / (2.0 * h) * pd[b];
    F[i] -= s;
  }
  double A[25], rhs[5];
  lapack_int ipiv[5];
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) A[i + 5 * j] = mu[i + 4 * j];
    A[i + 5 * 4] = p[i];
    A[4 + 5 * i] = p[i];
    rhs[i] = F[i];
  }
  A[24] = 0.0;
  rhs[4] = -cosrod_quat_norm2(pd);
  LAPACKE_dgesv(LAPACK_COL_MAJOR, 5, 1, A, 5, ipiv, rhs, 5);
  for (int i = 0; i < 4; ++i) pdd[i] = rhs[i];
  *lambda = rhs[4];
}

TEST(lambda_and_accel_vs_index1_system) {
  for (int cv = 0; cv < 5; cv += 2)
    for (int config = 0; config < 3; ++config) {
      fixture F;
      fx_make(&F, 300 + 3 * (uint64_t)cv + (uint64_t)config, (cosrod_curvature)cv, config);
      cosrod_rod *rod = F.rod;
      int N = F.N, nq = cosrod_rod_nq(rod);
      double y[2 * 7 * (NMAX + 1)], f[2 * 7 * (NMAX + 1)], lam_ns[NMAX], lam_abs[NMAX];
      double t = 0.3;
      cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, t, F.x, F.p, F.xd, F.Om, y);
      cosrod_rod_rhs_absolute(rod, F.d, t, y, f);
      for (int k = 0; k < N; ++k) lam_abs[k] = F.d->lambda[k];
      double ynn[2 * 7 * (NMAX + 1)];
      cosrod_rod_pack(rod, COSROD_FORM_NULLSPACE, t, F.x, F.p, F.xd, F.Om, ynn);
      cosrod_rod_lambda(rod, F.d, COSROD_FORM_NULLSPACE, t, ynn, lam_ns);
      cosrod_rod_eval(rod, F.d, COSROD_FORM_ABSOLUTE, t, y);
      double el = 0.0, lm = 0.0, ea = 0.0, am = 0.0, en = 0.0;
      double Ib[3], rhoI[3];
      cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, NULL, rhoI);
      for (int k = 0; k < N; ++k) {
        double ds = cosrod_rod_seg_length(rod)[k];
        for (int j = 0; j < 3; ++j) Ib[j] = rhoI[j] * ds;
        int iq = cosrod_rod_qindex_segment(rod, k);
        double pdd[4], lam;
        index1_reference(y + iq, y + nq + iq, Ib, F.d->fp + 4 * k, pdd, &lam);
        el = fmax(el, fabs(lam - lam_abs[k]));
        en = fmax(en, fabs(lam - lam_ns[k]));
        lm = fmax(lm, fabs(lam));
        for (int j = 0; j < 4; ++j) ea = fmax(ea, fabs(pdd[j] - f[nq + iq + j])), am = fmax(am, fabs(pdd[j]));
      }
      char what[128];
      const char *nm = cosrod_curvature_name((cosrod_curvature)cv);
      /* FD of μ(p) with h = 1e-5 (exact for the quadratic μ up to roundoff
       * ~1e-11 relative); LU of the 5x5 block: 1e-8 relative */
      snprintf(what, sizeof what, "%s config %d: λ (absolute RHS) vs index-1 solve, rel", nm, config);
      CHECK_LE(what, el / lm, 1e-8);
      snprintf(what, sizeof what, "%s config %d: λ (nullspace post-processing) vs index-1 solve, rel", nm,
               config);
      CHECK_LE(what, en / lm, 1e-8);
      snprintf(what, sizeof what, "%s config %d: p̈ (absolute) vs index-1 solve, rel", nm, config);
      CHECK_LE(what, ea / am, 1e-8);
      fx_free(&F);
    }
}

/* DAE residual vanishes at (q, v, λ), (v, a) from the absolute RHS; and is
 * sensitive to λ. */
TEST(dae_residual_consistent) {
  fixture F;
  fx_make(&F, 555, COSROD_CURV_TANGENT2, 2);
  cosrod_rod *rod = F.rod;
  int N = F.N, nq = cosrod_rod_nq(rod), ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  CHECK("DAE size 2 nq + N", ny == 2 * nq + N);
  double y[2 * 7 * (NMAX + 1) + NMAX], yp[2 * 7 * (NMAX + 1) + NMAX], f[2 * 7 * (NMAX + 1)],
      res[2 * 7 * (NMAX + 1) + NMAX];
  double t = 0.2;
  cosrod_rod_pack(rod, COSROD_FORM_DAE, t, F.x, F.p, F.xd, F.Om, y);
  cosrod_rod_rhs_absolute(rod, F.d, t, y, f);
  for (int k = 0; k < N; ++k) y[2 * nq + k] = F.d->lambda[k];
  for (int i = 0; i < 2 * nq; ++i) yp[i] = f[i];
  for (int k = 0; k < N; ++k) yp[2 * nq + k] = 0.0;
  cosrod_rod_res_dae(rod, F.d, t, y, yp, res);
  double rm = 0.0, fm = 0.0;
  for (int i = 0; i < ny; ++i) rm = fmax(rm, fabs(res[i]));
  for (int k = 0; k < 4 * N; ++k) fm = fmax(fm, fabs(F.d->fp[k]));
  /* residual entries are differences of forces ~ fm (M p̈ against F_p with
   * accelerations up to ~1e5 from the stiff shear springs): 1e-10 relative */
  CHECK_LE("max |DAE residual| / max |ψ| at the index-0 solution", rm / fm, 1e-10);
  y[2 * nq + 3] += 1.0;
  cosrod_rod_res_dae(rod, F.d, t, y, yp, res);
  int iq = cosrod_rod_qindex_segment(rod, 3);
  double dr[4];
  for (int j = 0; j < 4; ++j) dr[j] = res[nq + iq + j];
  CHECK_VEC("residual responds to λ with G^T = p", dr, y + iq, 4, 1e-9, 1e-9);
  fx_free(&F);
}

/* Baumgarte: <p, p̈> + |ṗ|² + 2r<p, ṗ> + ω² (|p|²-1)/2 = 0 off the manifold. */
TEST(baumgarte_constraint_dynamics) {
  fixture F;
  fx_make(&F, 556, COSROD_CURV_SINE4, 0);
  cosrod_rod *rod = F.rod;
  int N = F.N, nq = cosrod_rod_nq(rod);
  double y[2 * 7 * (NMAX + 1)], f[2 * 7 * (NMAX + 1)];
  cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, 0.0, F.x, F.p, F.xd, F.Om, y);
  th_rng r;
  th_rng_seed(&r, 9);
  for (int k = 0; k < N; ++k) {
    int iq = cosrod_rod_qindex_segment(rod, k);
    for (int j = 0; j < 4; ++j)
      y[iq + j] *= 1.0 + 0.01 * th_rng_normal(&r), y[nq + iq + j] += 0.1 * th_rng_normal(&r);
  }
  F.d->baumgarte_omega = 100.0, F.d->baumgarte_r = 80.0;
  cosrod_rod_rhs_absolute(rod, F.d, 0.0, y, f);
  double em = 0.0, sc = 0.0;
  for (int k = 0; k < N; ++k) {
    int iq = cosrod_rod_qindex_segment(rod, k);
    const double *p = y + iq, *pd = y + nq + iq, *pdd = f + nq + iq;
    double g = 0.5 * (cosrod_quat_norm2(p) - 1.0);
    double terms[4] = {cosrod_quat_dot(p, pdd), cosrod_quat_norm2(pd), 2.0 * 80.0 * cosrod_quat_dot(p, pd),
                       1e4 * g};
    em = fmax(em, fabs(terms[0] + terms[1] + terms[2] + terms[3]));
    /* <p, p̈> cancels the tangential part of p̈ (|p̈| ~ 1e7 here: ψ/(ρΔs I)) */
    sc = fmax(sc, sqrt(cosrod_quat_norm2(pdd) * cosrod_quat_norm2(p)) + fabs(terms[1]) + fabs(terms[2]) +
                      fabs(terms[3]));
  }
  /* roundoff of the explicit inverse relative to |p||p̈|: 1e-13 */
  CHECK_LE("max |g'' + 2r g' + ω² g| / scale", em / sc, 1e-13);
  F.d->baumgarte_omega = F.d->baumgarte_r = 0.0;
  fx_free(&F);
}

TEST(projection_and_packing) {
  fixture F;
  fx_make(&F, 557, COSROD_CURV_TANGENT4, 1);
  cosrod_rod *rod = F.rod;
  int N = F.N, nq = cosrod_rod_nq(rod);
  /* clamped start removes x_0; sliding end keeps 1 coordinate */
  CHECK("nq = 4N + 3(N-1) + 1 = 7N - 2 (clamped start, sliding end)", nq == 7 * N - 2);
  CHECK("nullspace nv = 3N + 3(N-1) + 1", cosrod_rod_nv(rod, COSROD_FORM_NULLSPACE) == 6 * N - 2);
  CHECK("end vertex has 1 dof, start vertex 0",
        cosrod_rod_vertex_ndof(rod, N) == 1 && cosrod_rod_vertex_ndof(rod, 0) == 0);
  double y[2 * 7 * (NMAX + 1)], x[3 * (NMAX + 1)], p[4 * NMAX], xd[3 * (NMAX + 1)], Om[3 * NMAX];
  double t = 0.0;
  /* place the sliding end on its line: pack keeps only the axial component */
  cosrod_rod_pack(rod, COSROD_FORM_NULLSPACE, t, F.x, F.p, F.xd, F.Om, y);
  cosrod_rod_unpack(rod, COSROD_FORM_NULLSPACE, t, y, x, p, xd, Om);
  CHECK_VEC("unpack(pack) interior vertices", x + 3, F.x + 3, 3 * (N - 1), 0, 1e-15);
  CHECK_VEC("unpack(pack) quaternions", p, F.p, 4 * N, 0, 1e-15);
  CHECK_VEC("unpack(pack) angular velocities", Om, F.Om, 3 * N, 0, 1e-15);
  double xe[3];
  cosrod_rod_end_motion(rod, 0, t, xe, NULL, NULL, NULL, NULL, NULL);
  CHECK_VEC("clamped start vertex at its prescribed place", x, xe, 3, 0, 1e-15);
  /* projection */
  cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, t, F.x, F.p, F.xd, F.Om, y);
  for (int k = 0; k < N; ++k) {
    int iq = cosrod_rod_qindex_segment(rod, k);
    for (int j = 0; j < 4; ++j) y[iq + j] *= 1.1, y[nq + iq + j] += 0.05 * (j + 1);
  }
  cosrod_rod_project(rod, COSROD_FORM_ABSOLUTE, y);
  double en = 0.0, ev = 0.0;
  for (int k = 0; k < N; ++k) {
    int iq = cosrod_rod_qindex_segment(rod, k);
    en = fmax(en, fabs(cosrod_quat_norm(y + iq) - 1.0));
    ev = fmax(ev, fabs(cosrod_quat_dot(y + iq, y + nq + iq)));
    CHECK_VEC("projection keeps the direction of p", y + iq, F.p + 4 * k, 4, 0, 1e-15);
  }
  CHECK_LE("max ||p| - 1| after projection", en, 1e-15);
  CHECK_LE("max |<p, ṗ>| after projection", ev, 1e-15);
  fx_free(&F);
}

static const th_case cases[] = {TH_CASE(absolute_vs_nullspace_accelerations),
                                TH_CASE(lambda_and_accel_vs_index1_system), TH_CASE(dae_residual_consistent),
                                TH_CASE(baumgarte_constraint_dynamics), TH_CASE(projection_and_packing)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
