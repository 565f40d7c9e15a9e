// SPDX-License-Identifier: Apache-2.0
/* Joints on kinematic (prescribed-motion) frames in the multiplier
 * formulation (body.h COSROD_MBS_KIN: g(q, t), g_t in the velocity
 * constraint, the frame's acceleration in gamma, [L] eq. 4).  References:
 * Galilean invariance against a ground hinge, the closed-form period of a
 * physical pendulum under a constantly accelerated pivot, the energy
 * balance with the constraint power of the driven side, the Jacobian's
 * finite-difference twin. */
#include <stdio.h>

#include "body_test_kin.h"

/* the driven frame: x = x0 + V t + a t^2 / 2, rotating at w about z */
typedef struct drive {
  double x0[3], V[3], A[3], w;
} drive;

static void drive_fn(void *user, int k, double t, double x[3], double q[4], double v[3], double w[3], double a[3],
                     double al[3]) {
  const drive *dr = user;
  (void)k;
  for (int i = 0; i < 3; ++i) {
    x[i] = dr->x0[i] + dr->V[i] * t + 0.5 * dr->A[i] * t * t;
    v[i] = dr->V[i] + dr->A[i] * t;
    a[i] = dr->A[i], al[i] = 0.0;
  }
  double th = dr->w * t;
  q[0] = cos(0.5 * th), q[1] = q[2] = 0.0, q[3] = sin(0.5 * th);
  cosrod_vec3_set(w, 0.0, 0.0, dr->w);
}

static const double MASS = 1.5, D = 0.4, IX = 0.02, IY = 0.03, IZ = 0.01, G = 9.81;

/* a pendulum: CM d below the pivot (turned th0 about x), hinged at its
 * point (0, 0, d) to kinematic frame 0 at its origin (kin) or to ground
 * at x0 (revolute about x, or spherical) */
static cosrod_mbs *pendulum(drive *dr, int kin, cosrod_joint_type type, double th0, const double v0[3],
                            cosrod_body_param param, cosrod_body_form bf, double offset) {
  cosrod_body_def b = {0};
  b.mass = MASS;
  b.inertia[0] = IX, b.inertia[1] = IY, b.inertia[2] = IZ;
  double p[4] = {cos(0.5 * th0), sin(0.5 * th0), 0.0, 0.0}, rz[3] = {0.0, 0.0, -D}, r[3];
  cosrod_quat_copy(b.quaternion, p);
  cosrod_quat_rotate(r, p, rz);
  cosrod_vec3_add(b.position, dr->x0, r);
  b.position[1] += offset; /* pivot off the frame's axis (turntable) */
  if (v0) cosrod_vec3_copy(b.velocity, v0);
  b.param = param;
  cosrod_joint_def j = {0};
  j.type = type;
  j.body[0] = 0, j.body[1] = kin ? COSROD_MBS_KIN(0) : -1;
  cosrod_vec3_set(j.at[0], 0.0, 0.0, D);
  cosrod_vec3_set(j.at[1], 0.0, offset, 0.0);
  if (!kin) cosrod_vec3_add(j.at[1], j.at[1], dr->x0);
  cosrod_vec3_set(j.axis, 1.0, 0.0, 0.0);
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.bodies = &b;
  def.njoints = 1, def.joints = &j;
  cosrod_vec3_set(def.gravity, 0.0, 0.0, -G);
  def.body_form = bf;
  def.joint_form = COSROD_JOINTS_MULTIPLIERS;
  if (kin) def.nkin = 1, def.kin_fn = drive_fn, def.kin_user = dr;
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) NOTE("create: %s", cosrod_last_error());
  return m;
}

/* pivot at constant velocity V, body starting with V: the ground pendulum
 * shifted by V t */
TEST(galilean_invariance_of_a_pendulum_on_a_moving_frame) {
  drive dr = {{0.1, 0.0, 1.0}, {0.4, -0.3, 0.2}, {0, 0, 0}, 0.0}, dg = dr;
  cosrod_vec3_zero(dg.V);
  const double T = 2.0;
  const cosrod_joint_type types[2] = {COSROD_JOINT_REVOLUTE, COSROD_JOINT_SPHERICAL};
  for (int ty = 0; ty < 2; ++ty)
    for (int bf = 0; bf < 2; ++bf) {
      double w0[3] = {0, 0, 0};
      cosrod_mbs *mk = pendulum(&dr, 1, types[ty], 0.6, dr.V, COSROD_BODY_QUATERNION, (cosrod_body_form)bf, 0.0);
      cosrod_mbs *mg = pendulum(&dg, 0, types[ty], 0.6, w0, COSROD_BODY_QUATERNION, (cosrod_body_form)bf, 0.0);
      CHECK("create", mk && mg);
      if (!mk || !mg) return;
      cosrod_mbs_data *dk, *dd;
      double *yk, *yg;
      CHECK("moving and ground runs", kin_pair_run(mk, mg, T, &dk, &dd, &yk, &yg));
      double xk[3], qk[4], vk[3], ok[3], xg[3], qg[4], vg[3], og[3], e = 0.0;
      cosrod_mbs_body_state(mk, dk, yk, 0, xk, qk, vk, ok);
      cosrod_mbs_body_state(mg, dd, yg, 0, xg, qg, vg, og);
      for (int i = 0; i < 3; ++i)
        e = fmax(e, fmax(fabs(xk[i] - dr.V[i] * T - xg[i]), fabs(vk[i] - dr.V[i] - vg[i])));
      for (int i = 0; i < 4; ++i) e = fmax(e, fabs(qk[i] - qg[i]));
      NOTE("%s, %s bodies: max |moving - (ground + V t)| (x, v, q) = %.3g", ty ? "spherical" : "revolute",
           bf ? "absolute" : "null-space", e);
      CHECK_LE("Galilean invariance", e, 1e-8);
      free(yk), free(yg);
      cosrod_mbs_data_free(dk), cosrod_mbs_data_free(dd);
      cosrod_mbs_free(mk), cosrod_mbs_free(mg);
    }
}

/* swing angle about x from the pivot (frame origin) to the CM */
typedef struct swing {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  const drive *dr;
  double tprev, thprev, t0, t1;
  int ncross;
} swing;

static int on_swing(double t, const double *y, void *user) {
  swing *s = user;
  double x[3], q[4], v[3], Om[3], xp[3], vp[3], w[3], a[3], al[3];
  cosrod_mbs_body_state(s->m, s->d, y, 0, x, q, v, Om);
  drive_fn((void *)s->dr, 0, t, xp, q, vp, w, a, al);
  double th = atan2(x[1] - xp[1], -(x[2] - xp[2]));
  if (s->tprev > 0.0 && th * s->thprev < 0.0 && s->thprev != 0.0) {
    double tc = s->tprev + (t - s->tprev) * s->thprev / (s->thprev - th);
    if (s->ncross++ == 0) s->t0 = tc;
    s->t1 = tc;
  }
  s->tprev = t, s->thprev = th;
  return 0;
}

/* pivot accelerated upwards at a: T = 2 pi sqrt(I_pivot / (m d (g + a)))
 * (1 + th0^2 / 16) (small amplitude th0) */
TEST(pendulum_period_under_an_accelerated_pivot) {
  const double th0 = 0.01, acc[2] = {0.0, 4.0};
  for (int k = 0; k < 2; ++k)
    for (int bf = 0; bf < 2; ++bf) {
      drive dr = {{0.0, 0.0, 1.0}, {0, 0, 0}, {0, 0, acc[k]}, 0.0};
      cosrod_mbs *m = pendulum(&dr, 1, COSROD_JOINT_REVOLUTE, th0, NULL, COSROD_BODY_QUATERNION,
                               (cosrod_body_form)bf, 0.0);
      CHECK("create", m != NULL);
      if (!m) return;
      cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL), *d2 = cosrod_mbs_data_create(m, NULL);
      double Tc = 2.0 * 3.14159265358979323846 * sqrt((IX + MASS * D * D) / (MASS * D * (G + acc[k]))) * (1.0 + th0 * th0 / 16.0);
      double T = 5.2 * Tc;
      enum { NO = 20000 };
      double *to = malloc(NO * sizeof *to);
      for (int i = 0; i < NO; ++i) to[i] = T * (i + 1) / NO;
      swing s = {m, d2, &dr, 0.0, 0.0, 0.0, 0.0, 0};
      run_out ro = {on_swing, &s, to, NO};
      double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
      CHECK("run", run_mbs(m, d, "dop853", T, 1e-12, y, &ro) == COSROD_OK);
      double Tm = 2.0 * (s.t1 - s.t0) / (s.ncross - 1);
      NOTE("a = %g, %s bodies: period %.10g s, closed form %.10g s, relative error %.3g (%d crossings)", acc[k],
           bf ? "absolute" : "null-space", Tm, Tc, fabs(Tm - Tc) / Tc, s.ncross);
      CHECK("ten crossings", s.ncross >= 10);
      CHECK_LE("period", fabs(Tm - Tc) / Tc, 2e-6);
      free(to), free(y);
      cosrod_mbs_data_free(d), cosrod_mbs_data_free(d2);
      cosrod_mbs_free(m);
    }
}

/* a hinge on a turntable spinning at w about z (hinge axis horizontal,
 * off the spin axis): joint residuals with projection, and the energy
 * balance E(T) - E(0) = int P_ext dt (P_ext: the constraint power of the
 * driven side, -lambda.(J w)) */
TEST(hinge_on_a_turntable_residuals_and_energy_balance) {
  drive dr = {{0.0, 0.0, 1.0}, {0, 0, 0}, {0, 0, 0}, 2.0};
  const double T = 3.0;
  const char *meth[2] = {"dop853", "radau5"};
  for (int bf = 0; bf < 2; ++bf)
    for (int mi = 0; mi < 2; ++mi) {
      cosrod_mbs *m = pendulum(&dr, 1, COSROD_JOINT_REVOLUTE, 0.5, NULL, COSROD_BODY_QUATERNION,
                               (cosrod_body_form)bf, 0.3);
      CHECK("create", m != NULL);
      if (!m) return;
      kin_balance r = kin_balance_run(m, meth[mi], T, 1e-11, 6001);
      CHECK("run", r.ok);
      NOTE("%s, %s bodies: max |g| %.3g m, E(T) - E(0) = %.10g J, work of the turntable %.10g J (max power %.3g W)",
           meth[mi], bf ? "absolute" : "null-space", r.gmax, r.dE, r.W, r.pmax);
      CHECK("the turntable does work", r.pmax > 1e-2);
      CHECK_LE("joint residual (dense output between projected steps, rtol 1e-11)", r.gmax, 1e-8);
      CHECK_LE("energy balance", fabs(r.dE - r.W), 1e-7 * fmax(1.0, r.pmax * T));
      cosrod_mbs_free(m);
    }
}

/* analytic Jacobian (tangents with the rheonomic terms) vs central differences */
TEST(jacobian_with_a_kinematic_joint_matches_fd) {
  drive dr = {{0.1, 0.2, 1.0}, {0.3, 0.0, -0.1}, {0.5, -0.2, 1.0}, 1.5};
  const cosrod_joint_type types[3] = {COSROD_JOINT_REVOLUTE, COSROD_JOINT_SPHERICAL, COSROD_JOINT_PRISMATIC};
  for (int ty = 0; ty < 3; ++ty)
    for (int bf = 0; bf < 2; ++bf)
      for (int param = 0; param < 2; ++param) {
        cosrod_mbs *m = pendulum(&dr, 1, types[ty], 0.4, NULL, (cosrod_body_param)param, (cosrod_body_form)bf, 0.2);
        CHECK("create", m != NULL);
        if (!m) return;
        double e = kin_jac_error(m, 0.37, 0.03);
        NOTE("joint type %d, %s bodies, %s: max |J - J_fd| / max |J| = %.3g", ty, bf ? "absolute" : "null-space",
             cosrod_body_param_name((cosrod_body_param)param), e);
        CHECK("evaluated", e >= 0.0);
        CHECK_LE("relative error", e, 1e-6);
        cosrod_mbs_free(m);
      }
}

/* the null-space joint formulation refuses a kinematic side */
TEST(nullspace_joints_refuse_a_kinematic_side) {
  drive dr = {{0, 0, 1}, {0, 0, 0}, {0, 0, 0}, 0.0};
  cosrod_body_def b = {0};
  b.mass = 1.0;
  b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.1;
  cosrod_quat_identity(b.quaternion);
  cosrod_vec3_set(b.position, 0, 0, 0.6);
  cosrod_joint_def j = {0};
  j.type = COSROD_JOINT_SPHERICAL, j.body[0] = 0, j.body[1] = COSROD_MBS_KIN(0);
  cosrod_vec3_set(j.at[0], 0, 0, 0.4);
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.bodies = &b;
  def.njoints = 1, def.joints = &j;
  def.nkin = 1, def.kin_fn = drive_fn, def.kin_user = &dr;
  cosrod_status st;
  CHECK("refused", cosrod_mbs_create(&def, &st) == NULL);
  NOTE("%s", cosrod_last_error());
  CHECK("says why", strstr(cosrod_last_error(), "multiplier") != NULL);
  def.joint_form = COSROD_JOINTS_MULTIPLIERS;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  CHECK("multipliers take it", m != NULL);
  cosrod_mbs_free(m);
}

static const th_case cases[] = {TH_CASE(galilean_invariance_of_a_pendulum_on_a_moving_frame),
                                TH_CASE(pendulum_period_under_an_accelerated_pivot),
                                TH_CASE(hinge_on_a_turntable_residuals_and_energy_balance),
                                TH_CASE(jacobian_with_a_kinematic_joint_matches_fd),
                                TH_CASE(nullspace_joints_refuse_a_kinematic_side)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
