// SPDX-License-Identifier: Apache-2.0
/* Joints ([L] §5): heavy top on a spherical joint ([L] Ex. A) with its
 * invariants, null-space velocity constraints at round-off for every joint
 * type ([L] eq. 10), a double pendulum of two bars on revolute joints
 * against a minimal-coordinate (Lagrange) implementation written here, and
 * joint reactions of a hanging chain against its weight. */
#include <stdio.h>

#include "body_test_dp.h"
#include "body_test_util.h"

typedef struct cfg {
  cosrod_body_param param;
  cosrod_body_form bform;
  cosrod_joint_form jform;
  const char *name;
} cfg;

static const cfg CFGS[6] = {
    {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE,
     "quaternion nullspace/nullspace"},
    {COSROD_BODY_DIRECTORS, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "directors nullspace/nullspace"},
    {COSROD_BODY_EULER313, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "euler nullspace/nullspace"},
    {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_MULTIPLIERS,
     "quaternion nullspace/multipliers"},
    {COSROD_BODY_QUATERNION, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS,
     "quaternion absolute/multipliers"},
    {COSROD_BODY_DIRECTORS, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS,
     "directors absolute/multipliers"}};

static cosrod_mbs *build(cosrod_mbs_def *def, const cfg *c, cosrod_body_def *bodies) {
  for (size_t i = 0; i < def->nbodies; ++i) bodies[i].param = c->param;
  def->bodies = bodies;
  def->body_form = c->bform;
  def->joint_form = c->jform;
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(def, &st);
  if (!m) NOTE("%s: create failed: %s", c->name, cosrod_last_error());
  return m;
}

/* [L] Ex. A as examples/heavy-top.yaml: pivot inertia (50, 42, 10) (or a
 * symmetric (50, 50, 10)), m L = 11.09 with L = 1, p(0) = (cos pi/6, sin pi/6,
 * 0, 0), Omega = (0, 0, 20). */
static void heavy_top(int symmetric, double T, double tol) {
  const double m = 11.09, L = 1.0, g = 9.81;
  cosrod_body_def b = {0};
  b.name = "top";
  b.mass = m;
  b.inertia[0] = 50.0 - m * L * L;
  b.inertia[1] = (symmetric ? 50.0 : 42.0) - m * L * L;
  b.inertia[2] = 10.0;
  cosrod_quat_set(b.quaternion, cos(COSROD_QUAT_PI / 6), sin(COSROD_QUAT_PI / 6), 0, 0);
  double e3[3] = {0, 0, L};
  cosrod_quat_rotate(b.position, b.quaternion, e3);
  b.omega[2] = 20.0;
  cosrod_joint_def j = {0};
  j.type = COSROD_JOINT_SPHERICAL;
  j.body[0] = 0, j.body[1] = -1;
  j.at[0][2] = -L;
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.njoints = 1, def.joints = &j;
  def.gravity[2] = -g;
  double d3ref[3] = {0, 0, 0}, o[3] = {0, 0, 0}, Ipiv[3] = {50.0, symmetric ? 50.0 : 42.0, 10.0};
  for (int c = 0; c < 6; ++c) {
    cosrod_mbs *mb = build(&def, &CFGS[c], &b);
    CHECK("create", mb != NULL);
    if (!mb) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(mb, NULL);
    int n = cosrod_mbs_n(mb);
    double *y0 = calloc((size_t)n, sizeof *y0), *y = calloc((size_t)n, sizeof *y);
    cosrod_mbs_initial_state(mb, y0);
    double ek0, eg0, ek, eg, L0[3], L1[3], x[3], q[4], v[3], Om[3];
    cosrod_mbs_energy(mb, d, 0.0, y0, &ek0, &eg0, NULL);
    body_momentum(mb, d, y0, 0, b.inertia, m, o, L0);
    cosrod_mbs_body_state(mb, d, y0, 0, x, q, v, Om);
    double d3[3], Lb0 = Ipiv[2] * Om[2];
    CHECK("integrate", run_mbs(mb, d, "dop853", T, tol, y, NULL) == COSROD_OK);
    cosrod_mbs_energy(mb, d, T, y, &ek, &eg, NULL);
    body_momentum(mb, d, y, 0, b.inertia, m, o, L1);
    cosrod_mbs_body_state(mb, d, y, 0, x, q, v, Om);
    double ez[3] = {0, 0, 1};
    cosrod_quat_rotate(d3, q, ez);
    double E0 = ek0 + eg0, E1 = ek + eg;
    NOTE("%s: E %.12g -> %.12g, Lz %.12g -> %.12g, d3(T) = (%.9f, %.9f, %.9f)", CFGS[c].name, E0, E1, L0[2],
         L1[2], d3[0], d3[1], d3[2]);
    CHECK_NEAR("energy conserved", E1, E0, 1e-7 * fabs(E0));
    CHECK_NEAR("vertical angular momentum conserved", L1[2], L0[2], 1e-7 * cosrod_vec3_norm(L0));
    if (symmetric)
      CHECK_NEAR("L . d3 = I3 Omega3 conserved (symmetric top)", Ipiv[2] * Om[2], Lb0, 1e-7 * fabs(Lb0));
    double pv[3], piv[3], bq[3] = {0, 0, -L};
    cosrod_quat_rotate(pv, q, bq);
    cosrod_vec3_add(piv, x, pv);
    CHECK_VEC("pivot stays at the origin", piv, o, 3, 0.0, 1e-9);
    if (c == 0)
      cosrod_vec3_copy(d3ref, d3);
    else
      CHECK_VEC("d3(T) agrees with quaternion null space", d3, d3ref, 3, 0.0, 2e-6);
    free(y0);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(mb);
  }
}

TEST(heavy_top_invariants_all_formulations) { heavy_top(0, 3.0, 1e-11); }
TEST(symmetric_heavy_top_two_momenta) { heavy_top(1, 3.0, 1e-11); }

/* two bodies with one joint of each type, nu random: J T nu = 0 */
TEST(nullspace_velocity_constraint_roundoff) {
  th_rng rng;
  th_rng_seed(&rng, 7);
  for (int type = COSROD_JOINT_SPHERICAL; type <= COSROD_JOINT_FIXED; ++type)
    for (int param = 0; param < 3; ++param) {
      cosrod_body_def b[2] = {{0}, {0}};
      for (int i = 0; i < 2; ++i) {
        b[i].mass = 1.0 + i;
        b[i].inertia[0] = 2.0, b[i].inertia[1] = 3.0, b[i].inertia[2] = 4.0;
        double th[3] = {0.3 + i, 0.8 + 0.2 * i, -0.4 * i};
        cosrod_quat_from_euler313(b[i].quaternion, th);
        b[i].param = (cosrod_body_param)param;
      }
      cosrod_joint_def j = {0};
      j.type = (cosrod_joint_type)type;
      j.body[0] = 0, j.body[1] = 1;
      double rho0[3] = {1, 2, -3}, rho1[3] = {5, -6, -7}, a[3], b0[3];
      cosrod_vec3_copy(j.at[0], rho0);
      cosrod_vec3_copy(j.at[1], rho1);
      /* x1 = x0 + R0 rho0 - R1 rho1 (joint points coincide) */
      cosrod_quat_rotate(a, b[0].quaternion, rho0);
      cosrod_quat_rotate(b0, b[1].quaternion, rho1);
      cosrod_vec3_sub(b[1].position, a, b0);
      cosrod_vec3_set(j.axis, 0.0, 0.6, 0.8);
      /* universal: second axis (body 1 frame) orthogonal to the first in space */
      double ax_s[3], t[3], ax2s[3];
      cosrod_quat_rotate(ax_s, b[0].quaternion, j.axis);
      cosrod_vec3_set(t, 1, 0, 0);
      cosrod_vec3_cross(ax2s, ax_s, t);
      cosrod_vec3_normalise(ax2s, ax2s);
      cosrod_quat_rotate_inv(j.axis2, b[1].quaternion, ax2s);
      cosrod_mbs_def def = {0};
      def.nbodies = 2, def.bodies = b, def.njoints = 1, def.joints = &j;
      cosrod_status st;
      cosrod_mbs *m = cosrod_mbs_create(&def, &st);
      CHECK("create", m != NULL);
      if (!m) {
        NOTE("type %d: %s", type, cosrod_last_error());
        continue;
      }
      static const int NC[7] = {3, 5, 5, 4, 4, 3, 6};
      CHECK("constraint count (Table 2)", cosrod_mbs_nconstr(m) == NC[type]);
      cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
      int n = cosrod_mbs_n(m), nq = cosrod_mbs_nq(m), nc = cosrod_mbs_nconstr(m);
      double *y = calloc((size_t)n, sizeof *y), g[6], gd[6];
      cosrod_mbs_initial_state(m, y);
      double worst = 0.0;
      for (int trial = 0; trial < 20; ++trial) {
        for (int k = nq; k < n; ++k) y[k] = th_rng_uniform(&rng, -10.0, 10.0);
        cosrod_mbs_constraints(m, d, y, g, gd);
        double vmax = 0.0;
        for (int k = nq; k < n; ++k) vmax = fmax(vmax, fabs(y[k]));
        for (int i = 0; i < nc; ++i) worst = fmax(worst, fabs(gd[i]) / (vmax * 10.0));
      }
      NOTE("type %d, %s: max |gdot| / (|nu| |rho|) = %.3g", type, cosrod_body_param_name(b[0].param), worst);
      CHECK_LE("velocity constraint at round-off", worst, 1e-14);
      free(y);
      cosrod_mbs_data_free(d);
      cosrod_mbs_free(m);
    }
}

/* ---- double pendulum (minimal-coordinate reference: body_test_dp.h) ---- */

TEST(double_pendulum_vs_minimal_coordinates) {
  dp p = {2.0, 0.8, 2.0 * 0.8 * 0.8 / 12, 9.81};
  double s0[4] = {1.2, -0.5, 0.3, 1.0}, s[4];
  memcpy(s, s0, sizeof s);
  const double T = 2.0;
  dp_rk4(&p, s, T, 40000);
  NOTE("minimal coordinates: phi(T) = (%.10f, %.10f)", s[0], s[1]);
  for (int c = 0; c < 6; ++c) {
    if (c == 2) continue; /* euler angles: gimbal lock at phi + pi = 0 mod pi not excluded */
    cosrod_body_def b[2];
    cosrod_joint_def j[2];
    dp_bodies(&p, s0, b, j);
    cosrod_mbs_def def = {0};
    def.nbodies = 2, def.njoints = 2, def.joints = j;
    def.gravity[2] = -p.g;
    cosrod_mbs *m = build(&def, &CFGS[c], b);
    CHECK("create", m != NULL);
    if (!m) continue;
    CHECK("2 degrees of freedom", cosrod_mbs_ndof(m) == 2);
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
    CHECK("integrate", run_mbs(m, d, "dop853", T, 1e-11, y, NULL) == COSROD_OK);
    double phi[2];
    for (int i = 0; i < 2; ++i) {
      double q[4], d3[3], ez[3] = {0, 0, 1};
      cosrod_mbs_body_state(m, d, y, (size_t)i, NULL, q, NULL, NULL);
      cosrod_quat_rotate(d3, q, ez);
      phi[i] = atan2(d3[1], -d3[2]);
    }
    NOTE("%s: phi(T) = (%.10f, %.10f)", CFGS[c].name, phi[0], phi[1]);
    CHECK_NEAR("phi1(T)", phi[0], s[0], 1e-7);
    CHECK_NEAR("phi2(T)", phi[1], s[1], 1e-7);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

TEST(hanging_chain_joint_reactions) {
  dp p = {2.0, 0.8, 2.0 * 0.8 * 0.8 / 12, 9.81};
  double s0[4] = {0, 0, 0, 0};
  for (int c = 0; c < 6; ++c) {
    if (c == 2) continue;
    cosrod_body_def b[2];
    cosrod_joint_def j[2];
    dp_bodies(&p, s0, b, j);
    cosrod_mbs_def def = {0};
    def.nbodies = 2, def.njoints = 2, def.joints = j;
    def.gravity[2] = -p.g;
    cosrod_mbs *m = build(&def, &CFGS[c], b);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y), R[12];
    cosrod_mbs_initial_state(m, y);
    CHECK("reactions", cosrod_mbs_joint_reactions(m, d, 0.0, y, R) == 0);
    double F1[3] = {0, 0, 2 * p.m * p.g}, F2[3] = {0, 0, p.m * p.g}, z[3] = {0, 0, 0};
    CHECK_VEC("ground joint carries both bars", R, F1, 3, 0.0, 1e-9);
    CHECK_VEC("middle joint carries the lower bar", R + 6, F2, 3, 0.0, 1e-9);
    CHECK_VEC("no moments", R + 3, z, 3, 0.0, 1e-9);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

typedef struct eo {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  double e0, worst;
} eo;

static int eo_out(double t, const double *y, void *user) {
  eo *e = user;
  double k, g, el;
  cosrod_mbs_energy(e->m, e->d, t, y, &k, &g, &el);
  e->worst = fmax(e->worst, fabs(k + g + el - e->e0));
  return 0;
}

/* A slider on a prismatic joint along an arm that spins on a revolute joint:
 * the dependent block J_d of the partition chosen at t = 0 becomes singular
 * after a quarter turn; the hook re-partitions.  No gravity or damping: the
 * energy is constant at every dense output, and the null-space run agrees
 * with the multiplier run. */
TEST(slider_on_spinning_arm_repartitions) {
  cosrod_body_def b[2] = {{0}, {0}};
  b[0].name = "arm", b[0].mass = 2.0;
  cosrod_vec3_set(b[0].inertia, 0.1, 0.2, 0.25);
  b[0].omega[2] = 3.0;
  b[1].name = "slider", b[1].mass = 0.5;
  cosrod_vec3_set(b[1].inertia, 0.02, 0.03, 0.04);
  cosrod_vec3_set(b[1].position, 0.5, 0.0, 0.0);
  cosrod_vec3_set(b[1].velocity, 0.2, 1.5, 0.0);
  b[1].omega[2] = 3.0;
  cosrod_quat_identity(b[0].quaternion);
  cosrod_quat_identity(b[1].quaternion);
  cosrod_joint_def j[2] = {{0}, {0}};
  j[0].type = COSROD_JOINT_REVOLUTE, j[0].body[0] = 0, j[0].body[1] = -1;
  cosrod_vec3_set(j[0].axis, 0, 0, 1);
  j[1].type = COSROD_JOINT_PRISMATIC, j[1].body[0] = 1, j[1].body[1] = 0;
  cosrod_vec3_set(j[1].at[1], 0.5, 0, 0);
  cosrod_vec3_set(j[1].axis, 1, 0, 0);
  double xs[2][3];
  for (int c = 0; c < 2; ++c) {
    cosrod_mbs_def def = {0};
    def.nbodies = 2, def.bodies = b, def.njoints = 2, def.joints = j;
    def.joint_form = c ? COSROD_JOINTS_MULTIPLIERS : COSROD_JOINTS_NULLSPACE;
    cosrod_status st;
    cosrod_mbs *m = cosrod_mbs_create(&def, &st);
    CHECK("create", m != NULL);
    if (!m) continue;
    CHECK("2 degrees of freedom", cosrod_mbs_ndof(m) == 2);
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
    cosrod_mbs_initial_state(m, y);
    eo e = {m, d, 0, 0};
    cosrod_mbs_energy(m, d, 0, y, &e.e0, NULL, NULL);
    enum { NT = 301 };
    double tt[NT];
    for (int i = 0; i < NT; ++i) tt[i] = 3.0 * i / (NT - 1);
    run_out ro = {eo_out, &e, tt, NT};
    CHECK("integrate", run_mbs(m, d, "dopri5", 3.0, 1e-10, y, &ro) == COSROD_OK);
    NOTE("%s: energy %.10g, max deviation at outputs %.3g, repartitions %ld",
         c ? "multipliers" : "null space", e.e0, e.worst, cosrod_mbs_data_repartitions(d));
    if (c == 0) CHECK("the partition changed", cosrod_mbs_data_repartitions(d) >= 1);
    CHECK_LE("energy at every output", e.worst, 1e-7 * e.e0);
    cosrod_mbs_body_state(m, d, y, 1, xs[c], NULL, NULL, NULL);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
  CHECK_VEC("null space agrees with multipliers", xs[0], xs[1], 3, 0.0, 1e-6);
}

/* Reaction of the heavy top's pivot against Newton's law for the centre of
 * mass: F = m (a - g) with a = vdot from the right-hand side (multiplier
 * form, where v is a state), at states along the motion; the spherical
 * joint transmits no moment about the pivot. */
TEST(heavy_top_reaction_newton) {
  const double m = 11.09, g = 9.81;
  cosrod_body_def b = {0};
  b.name = "top";
  b.mass = m;
  b.inertia[0] = 50.0 - m, b.inertia[1] = 42.0 - m, b.inertia[2] = 10.0;
  cosrod_quat_set(b.quaternion, cos(COSROD_QUAT_PI / 6), sin(COSROD_QUAT_PI / 6), 0, 0);
  double e3[3] = {0, 0, 1};
  cosrod_quat_rotate(b.position, b.quaternion, e3);
  b.omega[2] = 20.0;
  cosrod_joint_def j = {0};
  j.type = COSROD_JOINT_SPHERICAL;
  j.body[0] = 0, j.body[1] = -1;
  j.at[0][2] = -1.0;
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.bodies = &b, def.njoints = 1, def.joints = &j;
  def.gravity[2] = -g;
  def.joint_form = COSROD_JOINTS_MULTIPLIERS;
  cosrod_status st;
  cosrod_mbs *mb = cosrod_mbs_create(&def, &st);
  CHECK("create", mb != NULL);
  if (!mb) return;
  cosrod_mbs_data *d = cosrod_mbs_data_create(mb, NULL);
  int n = cosrod_mbs_n(mb), vo = cosrod_mbs_vel_offset(mb, 0);
  double *y = calloc((size_t)n, sizeof *y), *f = calloc((size_t)n, sizeof *f), R[6];
  for (int k = 0; k < 4; ++k) {
    if (k == 0)
      cosrod_mbs_initial_state(mb, y);
    else
      CHECK("integrate", run_mbs(mb, d, "dop853", 0.3 * k, 1e-10, y, NULL) == COSROD_OK);
    CHECK("rhs", cosrod_mbs_rhs(mb, d, 0.0, y, f) == 0);
    CHECK("reactions", cosrod_mbs_joint_reactions(mb, d, 0.0, y, R) == 0);
    double Fn[3] = {m * f[vo], m * f[vo + 1], m * (f[vo + 2] + g)}, z[3] = {0, 0, 0};
    NOTE("t = %.1f: F = (%.6f, %.6f, %.6f), m (a - g) = (%.6f, %.6f, %.6f)", 0.3 * k, R[0], R[1], R[2], Fn[0],
         Fn[1], Fn[2]);
    CHECK_VEC("F = m (a - g)", R, Fn, 3, 1e-10, 1e-10);
    CHECK_VEC("no moment about the pivot", R + 3, z, 3, 0.0, 1e-8 * cosrod_vec3_norm(R));
  }
  free(y), free(f);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(mb);
}

static const th_case cases[] = {TH_CASE(heavy_top_reaction_newton),
                                TH_CASE(slider_on_spinning_arm_repartitions),
                                TH_CASE(heavy_top_invariants_all_formulations),
                                TH_CASE(symmetric_heavy_top_two_momenta),
                                TH_CASE(nullspace_velocity_constraint_roundoff),
                                TH_CASE(double_pendulum_vs_minimal_coordinates),
                                TH_CASE(hanging_chain_joint_reactions)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
