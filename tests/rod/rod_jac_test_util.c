// SPDX-License-Identifier: Apache-2.0
/* Shared rig of the rod Jacobian tests; see rod_jac_test_util.h. */
#include "rod_jac_test_util.h"

int rig_medium_damping = 0;

void rig_make(rig *g, const rod_case *c) {
  th_rng r;
  th_rng_seed(&r, c->seed);
  int N = c->N;
  g->N = N;
  g->s = malloc(sizeof(double) * (size_t)(N + 1));
  g->x = malloc(sizeof(double) * 3 * (size_t)(N + 1));
  g->xd = malloc(sizeof(double) * 3 * (size_t)(N + 1));
  g->pts = malloc(sizeof(double) * 3 * (size_t)(N + 1));
  g->p = malloc(sizeof(double) * 4 * (size_t)N);
  g->Om = malloc(sizeof(double) * 3 * (size_t)N);
  rt_grid(&r, N, 1.0, g->s);
  /* reference shape: a random polyline (non-zero K0, Γ0) */
  rt_config(&r, N, g->s, 0.05, 0.4, g->pts, g->p, NULL, NULL);
  rt_config(&r, N, g->s, 0.2, 1.2, g->x, g->p, g->xd, g->Om);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.grid = g->s, def.ngrid = N + 1;
  def.shape = COSROD_SHAPE_POLYLINE, def.points = g->pts, def.npoints = N + 1;
  def.reference = COSROD_REFERENCE_INITIAL;
  def.curvature = c->curv;
  def.gravity[0] = 1.0, def.gravity[2] = -9.81;
  def.poisson = 0.3;
  if (c->damped) def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 0.01, def.tau_bulk = 0.02;
  if (rig_medium_damping) def.medium_translational = 0.8, def.medium_rotational = 2e-4;
  def.ends[0].kind = c->end0, def.ends[1].kind = c->end1;
  def.ends[0].slides = c->slide0, def.ends[1].slides = c->slide1;
  def.ends[0].slide_axis[0] = 0.6, def.ends[0].slide_axis[1] = 0.8;
  def.ends[1].slide_axis[1] = 1.0;
  for (int e = 0; e < 2; ++e)
    if ((e == 0 ? c->end0 : c->end1) == COSROD_END_PRESCRIBED) {
      /* moving keyframes near the state's end frame: ẋe, ṗe != 0 at t = 0.5 */
      int k = e == 0 ? 0 : N - 1, n = e == 0 ? 0 : N;
      double q1[4], ax[3] = {0.3, -0.5, 0.8}, er[4];
      cosrod_quat_from_axis_angle(er, ax, 0.3);
      cosrod_quat_mul(q1, g->p + 4 * k, er);
      const double *xe = g->x + 3 * n, *q0 = g->p + 4 * k;
      double P[8] = {0.0, xe[0], xe[1], xe[2], 1.0, xe[0] + 0.1, xe[1] - 0.2, xe[2] + 0.05};
      double Rr[10] = {0.0, q0[0], q0[1], q0[2], q0[3], 1.0, q1[0], q1[1], q1[2], q1[3]};
      memcpy(g->pos[e], P, sizeof P);
      memcpy(g->rot[e], Rr, sizeof Rr);
      def.ends[e].npos = 2, def.ends[e].pos = g->pos[e];
      def.ends[e].nrot = 2, def.ends[e].rot = g->rot[e];
    }
  int nl = 0;
  if (c->loads) {
    cosrod_rod_load L0 = {COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, N / 2, {3.0, -2.0, 5.0}, 0, 0, 0};
    cosrod_rod_load L1 = {COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, 0, {1.0, 2.0, -1.0}, 0, 0, 0};
    cosrod_rod_load L2 = {COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, 1, {0.2, -0.1, 0.3}, 0, 0, 0};
    cosrod_rod_load L3 = {COSROD_LOAD_MOMENT, COSROD_FRAME_MATERIAL, -1, {0.1, 0.05, -0.2}, 0, 0, 0};
    cosrod_rod_load L4 = {COSROD_LOAD_DISTRIBUTED, COSROD_FRAME_MATERIAL, 0, {0.5, 1.0, -2.0}, 0, 0, 0};
    cosrod_rod_load L5 = {
        COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0.5, 0.0, 1.0}, COSROD_PROFILE_RAMP, 0.0, 1.0};
    g->ld[nl++] = L0, g->ld[nl++] = L1, g->ld[nl++] = L2, g->ld[nl++] = L3, g->ld[nl++] = L4,
    g->ld[nl++] = L5;
  }
  def.nloads = nl, def.loads = g->ld;
  cosrod_status st;
  g->rod = cosrod_rod_create(&def, &st);
  if (!g->rod) {
    CHECK("rod created", 0);
    return;
  }
  g->d = cosrod_rod_data_create(g->rod, NULL);
  g->nq = cosrod_rod_nq(g->rod);
  /* Clamped ends: rotate the state's frames (rigidly from the left, so the
   * relative rotations stay moderate) until the end segment is 0.3 rad from
   * the clamped frame; the ghost doubles that angle, and a random frame could
   * put it near 2π where ζ blows up.  If both ends are clamped, the
   * correction for end 1 is spread geodesically along the rod. */
  for (int e = 0; e < 2; ++e) {
    if ((e == 0 ? c->end0 : c->end1) != COSROD_END_CLAMPED) continue;
    int k = e == 0 ? 0 : N - 1;
    double pe[4], ax[3] = {-0.4, 0.7, 0.2}, er[4], want[4], D[4];
    cosrod_rod_end_motion(g->rod, e, 0.5, NULL, NULL, NULL, pe, NULL, NULL);
    cosrod_quat_from_axis_angle(er, ax, 0.3);
    cosrod_quat_mul(want, pe, er);
    cosrod_quat_mul_conj(D, want, g->p + 4 * k);
    if (D[0] < 0) D[0] = -D[0], D[1] = -D[1], D[2] = -D[2], D[3] = -D[3];
    int spread = e == 1 && c->end0 == COSROD_END_CLAMPED;
    if (spread && N == 1) continue;
    double w[3];
    cosrod_quat_to_rotvec(w, D);
    for (int j = 0; j < N; ++j) {
      double sc = spread ? (double)j / (N - 1) : 1.0, wj[3] = {sc * w[0], sc * w[1], sc * w[2]}, Dj[4];
      cosrod_quat_from_rotvec(Dj, wj);
      cosrod_quat_mul(g->p + 4 * j, Dj, g->p + 4 * j);
    }
  }
}

void rig_free(rig *g) {
  cosrod_rod_data_free(g->d);
  cosrod_rod_free(g->rod);
  free(g->s), free(g->x), free(g->xd), free(g->pts), free(g->p), free(g->Om);
}

/* y of the formulation at the rig's state; non-unit p (|p| in 0.95..1.05)
 * and <p, ṗ> != 0 so that the normal / Baumgarte terms matter. */
double *rig_state(rig *g, cosrod_rod_form form, uint64_t seed) {
  int ny = cosrod_rod_ny(g->rod, form);
  double *y = calloc((size_t)ny, sizeof(double));
  cosrod_rod_pack(g->rod, form, 0.5, g->x, g->p, g->xd, g->Om, y);
  th_rng r;
  th_rng_seed(&r, seed);
  for (int k = 0; k < g->N; ++k) {
    int iq = cosrod_rod_qindex_segment(g->rod, k);
    /* the angle variant's ζ(c) is undefined for c = Re(p̄₋p₊) > 1: keep |p| = 1 there */
    double sc = cosrod_rod_curvature(g->rod) == COSROD_CURV_ANGLE ? 1.0 : th_rng_uniform(&r, 0.95, 1.05);
    for (int i = 0; i < 4; ++i) y[iq + i] *= sc;
    if (form != COSROD_FORM_NULLSPACE)
      for (int i = 0; i < 4; ++i) y[g->nq + iq + i] += 0.1 * th_rng_normal(&r);
  }
  if (form == COSROD_FORM_DAE)
    for (int k = 0; k < g->N; ++k) y[2 * g->nq + k] = th_rng_normal(&r);
  return y;
}

void dense_fd_h(rig *g, vec_fn f, void *ctx, const double *y, int ny, int nout, int c0, int nc,
                double *D /* nout x nc */, double h0) {
  double *yy = malloc(sizeof(double) * (size_t)ny), *fp = malloc(sizeof(double) * (size_t)nout),
         *fm = malloc(sizeof(double) * (size_t)nout);
  memcpy(yy, y, sizeof(double) * (size_t)ny);
  for (int j = 0; j < nc; ++j) {
    double h = h0 * fmax(1.0, fabs(y[c0 + j]));
    yy[c0 + j] = y[c0 + j] + h;
    f(g, yy, fp, ctx);
    yy[c0 + j] = y[c0 + j] - h;
    f(g, yy, fm, ctx);
    yy[c0 + j] = y[c0 + j];
    double hh = (y[c0 + j] + h) - (y[c0 + j] - h);
    for (int i = 0; i < nout; ++i) D[i + (size_t)nout * j] = (fp[i] - fm[i]) / hh;
  }
  free(yy), free(fp), free(fm);
}

void dense_fd(rig *g, vec_fn f, void *ctx, const double *y, int ny, int nout, int c0, int nc, double *D) {
  dense_fd_h(g, f, ctx, y, ny, nout, c0, nc, D, 6.0554544523933395e-06);
}
