// SPDX-License-Identifier: Apache-2.0
/* Support reactions (cosrod_statics_reactions) against global equilibrium:
 * the supports' forces balance the applied forces plus the weight, and their
 * moments (with the reaction forces acting at the end vertices) balance the
 * moments of the loads about the origin, to the Newton tolerance — for a
 * clamped cantilever under a dead tip force, a follower force, a tip moment
 * and gravity, a clamped–pinned arch, a sliding end, and with gravity
 * ramped (half the weight at t = 1/2).  The applied side is summed
 * independently from the evaluated loads (fload per vertex, material mload
 * per segment rotated to space) and m_n g. */
#include <stdio.h>

#include "statics_test_util.h"

typedef struct balance {
  double force[3], moment[3]; /* residual sums */
  double fscale, mscale;      /* magnitudes of the largest terms */
} balance;

/* Solve to t_end and sum reactions + applied loads at t_end. */
static cosrod_status solve_balance(const cosrod_rod_def *def, int ramp, double t_end, balance *b, double R[12]) {
  cosrod_rod *rod = cosrod_rod_create(def, NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.gravity_ramp = ramp;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, t_end, NULL, NULL, NULL);
  int sup[2];
  if (st == COSROD_OK) st = cosrod_statics_reactions(s, t_end, q, R, sup);
  /* applied side, independently of the statics module */
  const int N = cosrod_rod_nseg(rod);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = calloc((size_t)ny, sizeof(double));
  memcpy(y, q, sizeof(double) * (size_t)cosrod_rod_nq(rod));
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, t_end, y);
  const double gs = ramp ? t_end : 1.0;
  memset(b, 0, sizeof *b);
  const double *w = cosrod_rod_vertex_weight(rod);
  for (int n = 0; n <= N; ++n) {
    double f[3], c[3];
    cosrod_vec3_copy(f, d->fload + 3 * n);
    /* weight m_n g with m_n = ρ A δs_n */
    double A = def->section == COSROD_SECTION_CIRCLE ? ST_PI * def->radius * def->radius : def->width * def->height;
    for (int j = 0; j < 3; ++j) f[j] += gs * def->density * A * w[n] * def->gravity[j];
    cosrod_vec3_cross(c, d->x + 3 * n, f);
    cosrod_vec3_add(b->force, b->force, f);
    cosrod_vec3_add(b->moment, b->moment, c);
    b->fscale = fmax(b->fscale, cosrod_vec3_norm(f));
    b->mscale = fmax(b->mscale, cosrod_vec3_norm(c));
  }
  for (int k = 0; k < N; ++k) {
    double m[3];
    cosrod_quat_rotate(m, d->p + 4 * k, d->mload + 3 * k);
    cosrod_vec3_add(b->moment, b->moment, m);
    b->mscale = fmax(b->mscale, cosrod_vec3_norm(m));
  }
  for (int e = 0; e < 2; ++e) {
    double c[3];
    const double *xe = d->x + 3 * (e == 0 ? 0 : N);
    cosrod_vec3_cross(c, xe, R + 6 * e);
    cosrod_vec3_add(b->force, b->force, R + 6 * e);
    cosrod_vec3_add(b->moment, b->moment, c);
    cosrod_vec3_add(b->moment, b->moment, R + 6 * e + 3);
    b->fscale = fmax(b->fscale, cosrod_vec3_norm(R + 6 * e));
    b->mscale = fmax(b->mscale, fmax(cosrod_vec3_norm(c), cosrod_vec3_norm(R + 6 * e + 3)));
  }
  free(y);
  cosrod_rod_data_free(d);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return st;
}

/* Newton tolerance 1e-9 of the force/moment scales; 1e-8 leaves room for
 * N residual rows summed */
static void check_balance(const char *label, const cosrod_rod_def *def, int ramp, double t_end, double R[12]) {
  balance b;
  cosrod_status st = solve_balance(def, ramp, t_end, &b, R);
  NOTE("%s: %s; start R_F (%.6g, %.6g, %.6g) R_M (%.6g, %.6g, %.6g); end R_F (%.6g, %.6g, %.6g) R_M (%.6g, "
       "%.6g, %.6g)",
       label, cosrod_status_name(st), R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8], R[9], R[10], R[11]);
  NOTE("  |sum F| = %.2e (scale %.3g N), |sum M| = %.2e (scale %.3g N m)", cosrod_vec3_norm(b.force), b.fscale,
       cosrod_vec3_norm(b.moment), b.mscale);
  CHECK("solved", st == COSROD_OK);
  CHECK_LE("force balance", cosrod_vec3_norm(b.force), 1e-8 * b.fscale);
  CHECK_LE("moment balance about the origin", cosrod_vec3_norm(b.moment), 1e-8 * b.mscale);
}

static const double E = 2.1e11, RAD = 5e-3;
static double EI(void) { return E * ST_PI * RAD * RAD * RAD * RAD / 4.0; }

TEST(cantilever_dead_force_moment_gravity) {
  cosrod_rod_def def = st_cantilever(16, 1.0, RAD, 0);
  def.gravity[0] = 9.81 * 200.0; /* large deflection from the weight too */
  cosrod_rod_load loads[2] = {
      {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0.5 * EI(), 0.3 * EI(), -0.2 * EI()}, COSROD_PROFILE_RAMP, 0, 1},
      {COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, -1, {0.0, 0.4 * EI(), 0.1 * EI()}, COSROD_PROFILE_RAMP, 0, 1}};
  def.nloads = 2;
  def.loads = loads;
  double R[12];
  check_balance("cantilever, dead force + moment + gravity", &def, 0, 1.0, R);
  CHECK("free end carries nothing", cosrod_vec3_norm(R + 6) == 0.0 && cosrod_vec3_norm(R + 9) == 0.0);
}

TEST(cantilever_follower_force) {
  cosrod_rod_def def = st_cantilever(16, 1.0, RAD, 0);
  cosrod_rod_load load = {COSROD_LOAD_FORCE, COSROD_FRAME_MATERIAL, -1, {2.0 * EI(), 0, 0}, COSROD_PROFILE_RAMP, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  double R[12];
  check_balance("cantilever, follower force", &def, 0, 1.0, R);
  /* the clamp force is minus the (rotated) follower force: |R_F| = 2 EI */
  CHECK_CLOSE("|R_F| = |P|", cosrod_vec3_norm(R), 2.0 * EI(), 1e-9, 0.0);
}

/* A quarter-circle arch clamped at the start, pinned at the end, under a
 * distributed dead load and gravity. */
TEST(arch_clamped_pinned) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 20;
  def.E = E, def.poisson = 0.3, def.density = 7850.0;
  def.section = COSROD_SECTION_CIRCLE, def.radius = RAD;
  def.shape = COSROD_SHAPE_ARC;
  def.shape_radius = 1.0;
  def.arc_angle = 0.5 * ST_PI;
  def.length = 0.5 * ST_PI;
  def.direction[0] = 0, def.direction[1] = 0, def.direction[2] = 1;
  def.normal[0] = 1, def.normal[1] = 0, def.normal[2] = 0;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_PINNED;
  def.gravity[2] = -9.81;
  cosrod_rod_load load = {COSROD_LOAD_DISTRIBUTED, COSROD_FRAME_SPATIAL, 0, {0.0, 50.0, -100.0}, COSROD_PROFILE_RAMP, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  double R[12];
  check_balance("arch clamped-pinned, distributed load + gravity", &def, 0, 1.0, R);
  CHECK("pinned end: no moment", cosrod_vec3_norm(R + 9) == 0.0);
}

/* Pinned start, end pinned in a guide along e3 under an axial force: the
 * guide carries nothing along its axis; the pin carries -F. */
TEST(sliding_end_guide) {
  cosrod_rod_def def = st_cantilever(10, 1.0, RAD, 0);
  def.ends[0].kind = COSROD_END_PINNED;
  def.ends[1].kind = COSROD_END_PINNED;
  def.ends[1].slides = 1;
  def.ends[1].slide_axis[2] = 1.0;
  const double F = 1e-3 * E * ST_PI * RAD * RAD;
  cosrod_rod_load load = {COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 0, F}, COSROD_PROFILE_RAMP, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  double R[12];
  check_balance("sliding end", &def, 0, 1.0, R);
  CHECK_CLOSE("pin force = -F", R[2], -F, 1e-9, 0.0);
  CHECK_LE("guide force along its axis = 0", fabs(R[8]), 1e-9 * F);
}

/* Gravity ramped: at t = 1/2 the clamp carries half the weight. */
TEST(gravity_ramp_half_weight) {
  cosrod_rod_def def = st_cantilever(12, 1.0, RAD, 0);
  def.gravity[0] = -9.81;
  double R[12];
  check_balance("cantilever, gravity ramped, t = 1/2", &def, 1, 0.5, R);
  const double W = 7850.0 * ST_PI * RAD * RAD * 1.0 * 9.81;
  CHECK_CLOSE("clamp force = half the weight", R[0], 0.5 * W, 1e-9, 0.0);
}

static const th_case cases[] = {TH_CASE(cantilever_dead_force_moment_gravity), TH_CASE(cantilever_follower_force),
                                TH_CASE(arch_clamped_pinned), TH_CASE(sliding_end_guide),
                                TH_CASE(gravity_ramp_half_weight)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
