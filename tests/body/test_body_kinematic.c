// SPDX-License-Identifier: Apache-2.0
/* Bushings on kinematic (prescribed-motion) frames, cosrod_mbs_def.kin_fn
 * (body.h, COSROD_MBS_KIN): a rheonomic side whose pose comes from the
 * callback at t.  References independent of the body module: a 1-DOF ODE
 * integrated here by RK4, Galilean invariance against a ground bushing,
 * the energy balance with the power of the driven side, the Jacobian's
 * finite-difference twin. */
#include <stdio.h>

#include "body_test_kin.h"

/* the driven frame: x = x0 + V t + A sin(W t) e_z, rotating at w about z */
typedef struct drive {
  double x0[3], V[3], A, W, w;
} drive;

static void drive_fn(void *user, int k, double t, double x[3], double q[4], double v[3], double w[3], double a[3],
                     double al[3]) {
  const drive *dr = user;
  (void)k;
  for (int i = 0; i < 3; ++i) x[i] = dr->x0[i] + dr->V[i] * t, v[i] = dr->V[i], a[i] = al[i] = 0.0;
  x[2] += dr->A * sin(dr->W * t);
  v[2] += dr->A * dr->W * cos(dr->W * t);
  a[2] = -dr->A * dr->W * dr->W * sin(dr->W * t);
  double th = dr->w * t;
  q[0] = cos(0.5 * th), q[1] = q[2] = 0.0, q[3] = sin(0.5 * th);
  cosrod_vec3_set(w, 0.0, 0.0, dr->w);
}

/* One body on a bushing to kinematic frame 0 (or ground if kin == 0). */
static cosrod_mbs *model(drive *dr, int kin, double k, double c, double krot, double crot, const double g[3],
                         const double v0[3], cosrod_body_param param) {
  cosrod_body_def b = {0};
  b.mass = 2.0;
  b.inertia[0] = 0.1, b.inertia[1] = 0.15, b.inertia[2] = 0.2;
  cosrod_vec3_copy(b.position, dr->x0);
  b.position[0] += 0.3;
  double th[3] = {0.3, 0.9, -0.4}; /* away from the euler-angle gimbal lock */
  cosrod_quat_from_euler313(b.quaternion, th);
  if (v0) cosrod_vec3_copy(b.velocity, v0);
  b.param = param;
  cosrod_bushing_def bu = {0};
  bu.body[0] = kin ? COSROD_MBS_KIN(0) : -1, bu.body[1] = 0; /* kinematic side first: swapped */
  cosrod_vec3_set(bu.at[0], 0.3, 0.0, 0.0);
  if (!kin) cosrod_vec3_add(bu.at[0], bu.at[0], dr->x0);
  bu.k = k, bu.c = c, bu.k_rot = krot, bu.c_rot = crot;
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.bodies = &b;
  def.nbushings = 1, def.bushings = &bu;
  cosrod_vec3_copy(def.gravity, g);
  if (kin) def.nkin = 1, def.kin_fn = drive_fn, def.kin_user = dr;
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) NOTE("create: %s", cosrod_last_error());
  return m;
}

/* m z'' = -k (z - zb) - c (z' - zb'), zb = A sin(W t), by RK4 (step h) */
static double rk4_z(double m, double k, double c, double A, double W, double T, double h) {
  double z = 0.0, v = 0.0, t = 0.0;
#define ACC(tt, zz, vv) ((-k * ((zz)-A * sin(W * (tt))) - c * ((vv)-A * W * cos(W * (tt)))) / m)
  int n = (int)lround(T / h);
  for (int i = 0; i < n; ++i) {
    double k1z = v, k1v = ACC(t, z, v);
    double k2z = v + 0.5 * h * k1v, k2v = ACC(t + 0.5 * h, z + 0.5 * h * k1z, v + 0.5 * h * k1v);
    double k3z = v + 0.5 * h * k2v, k3v = ACC(t + 0.5 * h, z + 0.5 * h * k2z, v + 0.5 * h * k2v);
    double k4z = v + h * k3v, k4v = ACC(t + h, z + h * k3z, v + h * k3v);
    z += h / 6.0 * (k1z + 2 * k2z + 2 * k3z + k4z);
    v += h / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
    t += h;
  }
#undef ACC
  return z;
}

TEST(bushing_under_shaken_base_matches_1dof_ode) {
  drive dr = {{0.0, 0.0, 1.0}, {0, 0, 0}, 0.05, 7.0, 0.0};
  const double g0[3] = {0, 0, 0}, T = 3.0, k = 50.0, c = 0.8;
  double zr = rk4_z(2.0, k, c, dr.A, dr.W, T, 1e-4);
  const char *meth[3] = {"dop853", "rodas", "radau5"};
  for (int f = 0; f < 2; ++f)
    for (int i = 0; i < 3; ++i) {
      cosrod_mbs *m = model(&dr, 1, k, c, 0.0, 0.0, g0, NULL, f ? COSROD_BODY_DIRECTORS : COSROD_BODY_QUATERNION);
      CHECK("create", m != NULL);
      if (!m) return;
      cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
      double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
      CHECK("run", run_mbs(m, d, meth[i], T, 1e-11, y, NULL) == COSROD_OK);
      double z = y[2] - 1.0;
      NOTE("%s, %s: z(T) = %.12g, RK4 of the 1-DOF ODE %.12g, error %.3g", meth[i], f ? "directors" : "quaternion",
           z, zr, fabs(z - zr));
      CHECK_LE("z(T) matches the 1-DOF ODE", fabs(z - zr), 1e-8);
      CHECK_LE("no sideways motion", fabs(y[0] - 0.3) + fabs(y[1]), 1e-10);
      free(y);
      cosrod_mbs_data_free(d);
      cosrod_mbs_free(m);
    }
}

/* base at constant velocity V, body starting with V: the motion on the
 * ground bushing, shifted by V t (translational and rotational springs) */
TEST(galilean_invariance_of_a_bushing_on_a_moving_base) {
  drive dr = {{0.0, 0.0, 1.0}, {0.4, -0.3, 0.2}, 0.0, 0.0, 0.0}, dg = dr;
  cosrod_vec3_zero(dg.V);
  const double g[3] = {0, 0, -9.81}, T = 2.0;
  double V[3] = {0.4, -0.3, 0.2};
  double w0[3] = {0.0, 0.0, 0.0};
  cosrod_mbs *mk = model(&dr, 1, 80.0, 0.5, 3.0, 0.05, g, V, COSROD_BODY_QUATERNION);
  cosrod_mbs *mg = model(&dg, 0, 80.0, 0.5, 3.0, 0.05, g, w0, COSROD_BODY_QUATERNION);
  CHECK("create", mk && mg);
  if (!mk || !mg) return;
  cosrod_mbs_data *dk, *dgd;
  double *yk, *yg;
  CHECK("moving and ground runs", kin_pair_run(mk, mg, T, &dk, &dgd, &yk, &yg));
  double e = 0.0;
  for (int i = 0; i < 3; ++i) e = fmax(e, fabs(yk[i] - V[i] * T - yg[i]));
  for (int i = 3; i < 7; ++i) e = fmax(e, fabs(yk[i] - yg[i]));
  double sag = fabs(yg[2] - 1.0);
  NOTE("|x_moving - V T - x_ground| and quaternion difference: %.3g (sag %.4g m)", e, sag);
  CHECK("the body moved", sag > 1e-2);
  CHECK_LE("Galilean invariance", e, 1e-9);
  free(yk), free(yg);
  cosrod_mbs_data_free(dk), cosrod_mbs_data_free(dgd);
  cosrod_mbs_free(mk), cosrod_mbs_free(mg);
}

/* energy balance on a turntable: E(T) - E(0) = int (P_ext - P_diss) dt with
 * P_ext the power of the driven side (Simpson on a fine output grid) */
TEST(energy_balance_on_a_turntable) {
  drive dr = {{0.0, 0.0, 1.0}, {0, 0, 0}, 0.02, 5.0, 2.0};
  const double g[3] = {0, 0, -9.81}, T = 2.0;
  for (int f = 0; f < 2; ++f) {
    cosrod_mbs *m = model(&dr, 1, 60.0, 0.4, 2.0, 0.03, g, NULL, f ? COSROD_BODY_EULER313 : COSROD_BODY_QUATERNION);
    CHECK("create", m != NULL);
    if (!m) return;
    kin_balance r = kin_balance_run(m, "dop853", T, 1e-12, 4001);
    CHECK("run", r.ok);
    NOTE("%s: E(T) - E(0) = %.12g J, work of the driven side - dissipation = %.12g J (max power %.3g W)",
         f ? "euler313" : "quaternion", r.dE, r.W, r.pmax);
    CHECK("the base does work", r.pmax > 1e-2);
    CHECK_LE("energy balance", fabs(r.dE - r.W), 1e-8 * fmax(1.0, r.pmax * T));
    cosrod_mbs_free(m);
  }
}

/* analytic Jacobian (translational: body_jac.c; rotational: tangents) vs fd */
TEST(jacobian_with_a_kinematic_side_matches_fd) {
  drive dr = {{0.1, 0.2, 1.0}, {0.3, 0.0, -0.1}, 0.05, 3.0, 1.5};
  const double g[3] = {0, 0, -9.81};
  for (int rot = 0; rot < 2; ++rot)
    for (int param = 0; param < 3; ++param) {
      cosrod_mbs *m = model(&dr, 1, 40.0, 0.6, rot ? 3.0 : 0.0, rot ? 0.1 : 0.0, g, NULL, (cosrod_body_param)param);
      CHECK("create", m != NULL);
      if (!m) return;
      double e = kin_jac_error(m, 0.37, 0.05);
      NOTE("%s bushing, %s: max |J - J_fd| / max |J| = %.3g", rot ? "rotational" : "translational",
           cosrod_body_param_name((cosrod_body_param)param), e);
      CHECK("evaluated", e >= 0.0);
      CHECK_LE("relative error", e, 1e-6);
      cosrod_mbs_free(m);
    }
}

static int freed;
static void count_free(void *user) {
  (void)user;
  ++freed;
}

TEST(invalid_kinematic_sides_are_refused) {
  drive dr = {{0, 0, 0}, {0, 0, 0}, 0.0, 0.0, 0.0};
  cosrod_body_def b = {0};
  b.mass = 1.0;
  b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.1;
  cosrod_quat_identity(b.quaternion);
  cosrod_bushing_def bu = {0};
  bu.body[0] = 0, bu.body[1] = COSROD_MBS_KIN(1); /* only frame 0 exists */
  bu.k = 1.0;
  cosrod_joint_def j = {0};
  j.type = COSROD_JOINT_SPHERICAL, j.body[0] = 0, j.body[1] = COSROD_MBS_KIN(0);
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.bodies = &b;
  def.nbushings = 1, def.bushings = &bu;
  def.nkin = 1, def.kin_fn = drive_fn, def.kin_user = &dr, def.kin_free = count_free;
  cosrod_status st;
  freed = 0;
  CHECK("a bushing on a missing frame", cosrod_mbs_create(&def, &st) == NULL);
  NOTE("%s", cosrod_last_error());
  CHECK("kin_user released", freed == 1);
  def.nbushings = 0, def.njoints = 1, def.joints = &j;
  CHECK("a joint on a kinematic frame (bushings only)", cosrod_mbs_create(&def, &st) == NULL);
  NOTE("%s", cosrod_last_error());
  CHECK("kin_user released", freed == 2);
}

static const th_case cases[] = {TH_CASE(bushing_under_shaken_base_matches_1dof_ode),
                                TH_CASE(galilean_invariance_of_a_bushing_on_a_moving_base),
                                TH_CASE(energy_balance_on_a_turntable),
                                TH_CASE(jacobian_with_a_kinematic_side_matches_fd),
                                TH_CASE(invalid_kinematic_sides_are_refused)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
