// SPDX-License-Identifier: Apache-2.0
/* Single rigid bodies in every parametrisation and formulation of [L]
 * against closed-form solutions:
 *   - torque-free symmetric body (I1 = I2 = A, I3 = C): Omega_perp rotates in
 *     the body frame at lambda = (C - A)/A Omega3, d3 keeps the cone angle
 *     cos(theta) = C Omega3/|L| about the fixed L and precesses about it at
 *     |L|/A (Landau-Lifshitz §33);
 *   - tennis racket ([L] Ex. B): the medial-axis component flips sign every
 *     half period 2 K(k)/omega of the Jacobi elliptic solution (Landau-
 *     Lifshitz §37), K by the arithmetic-geometric mean;
 *   - Euler angles: gimbal lock is a failure naming body and time;
 *   - a full inertia tensor: principal axes and user-frame outputs. */
#include <stdio.h>

#include "body_test_util.h"

typedef struct combo {
  cosrod_body_param param;
  cosrod_body_form form;
} combo;

static const combo COMBOS[5] = {{COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE},
                                {COSROD_BODY_DIRECTORS, COSROD_BODY_NULLSPACE},
                                {COSROD_BODY_EULER313, COSROD_BODY_NULLSPACE},
                                {COSROD_BODY_QUATERNION, COSROD_BODY_ABSOLUTE},
                                {COSROD_BODY_DIRECTORS, COSROD_BODY_ABSOLUTE}};

static cosrod_mbs *single(const cosrod_body_def *b, cosrod_body_form form) {
  cosrod_mbs_def def = {0};
  def.nbodies = 1;
  def.bodies = b;
  def.body_form = form;
  def.joint_form = form == COSROD_BODY_ABSOLUTE ? COSROD_JOINTS_MULTIPLIERS : COSROD_JOINTS_NULLSPACE;
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) NOTE("create: %s", cosrod_last_error());
  return m;
}

TEST(torque_free_symmetric_precession) {
  const double A = 3.0, C = 5.0, T = 2.0;
  cosrod_body_def b = {0};
  b.name = "disc";
  b.mass = 2.0;
  b.inertia[0] = A, b.inertia[1] = A, b.inertia[2] = C;
  double th0[3] = {0.3, 0.7, -0.2};
  cosrod_quat_from_euler313(b.quaternion, th0);
  b.omega[0] = 1.5, b.omega[1] = -0.5, b.omega[2] = 4.0;
  b.velocity[0] = 0.1;
  for (int c = 0; c < 5; ++c) {
    b.param = COMBOS[c].param;
    cosrod_mbs *m = single(&b, COMBOS[c].form);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
    CHECK("integrate", run_mbs(m, d, "dop853", T, 1e-11, y, NULL) == COSROD_OK);
    double x[3], q[4], v[3], Om[3];
    cosrod_mbs_body_state(m, d, y, 0, x, q, v, Om);
    /* body-frame closed form */
    double lam = (C - A) / A * b.omega[2], cl = cos(lam * T), sl = sin(lam * T);
    double Om_ref[3] = {b.omega[0] * cl - b.omega[1] * sl, b.omega[0] * sl + b.omega[1] * cl, b.omega[2]};
    NOTE("%s/%s: Omega(T) = (%.12g, %.12g, %.12g), ref (%.12g, %.12g, %.12g)",
         cosrod_body_param_name(b.param), COMBOS[c].form ? "absolute" : "nullspace", Om[0], Om[1], Om[2],
         Om_ref[0], Om_ref[1], Om_ref[2]);
    CHECK_VEC("Omega(T) vs closed form", Om, Om_ref, 3, 0.0, 1e-7);
    /* spatial: L fixed, d3 on its cone, precessing at |L|/A */
    double JO0[3] = {A * b.omega[0], A * b.omega[1], C * b.omega[2]}, L[3], d30[3], d3[3], e3[3] = {0, 0, 1};
    cosrod_quat_rotate(L, b.quaternion, JO0);
    double Ln = cosrod_vec3_norm(L), Lh[3];
    cosrod_vec3_scale(Lh, 1.0 / Ln, L);
    cosrod_quat_rotate(d30, b.quaternion, e3);
    cosrod_quat_rotate(d3, q, e3);
    CHECK_NEAR("cone angle cos = C Omega3/|L|", cosrod_vec3_dot(d3, Lh), C * b.omega[2] / Ln, 1e-8);
    double prot[4], d3ref[3];
    cosrod_quat_from_axis_angle(prot, Lh, Ln / A * T);
    cosrod_quat_rotate(d3ref, prot, d30);
    CHECK_VEC("d3(T) precessed about L at |L|/A", d3, d3ref, 3, 0.0, 1e-7);
    double xref[3] = {0.1 * T, 0, 0};
    CHECK_VEC("centre of mass moves uniformly", x, xref, 3, 0.0, 1e-9);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

/* K(k) = pi / (2 AGM(1, k')), given k'^2 */
static double ellip_K_from_kc2(double kc2) {
  double a = 1.0, g = sqrt(kc2);
  for (int i = 0; i < 60 && fabs(a - g) > 1e-16 * a; ++i) {
    double an = 0.5 * (a + g);
    g = sqrt(a * g);
    a = an;
  }
  return COSROD_QUAT_PI / (2.0 * a);
}

typedef struct zc {
  double tprev, wprev;
  int have;
  double times[16];
  int n;
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
} zc;

static int zc_out(double t, const double *y, void *user) {
  zc *z = user;
  double Om[3];
  cosrod_mbs_body_state(z->m, z->d, y, 0, NULL, NULL, NULL, Om);
  if (z->have && (z->wprev > 0) != (Om[0] > 0) && z->n < 16)
    z->times[z->n++] = z->tprev + (t - z->tprev) * z->wprev / (z->wprev - Om[0]);
  z->tprev = t, z->wprev = Om[0], z->have = 1;
  return 0;
}

TEST(tennis_racket_flip_period) {
  /* [L] Ex. B: I = (41.6, 11.6, 50), Omega(0) = (50, 1e-3, 1e-3) */
  cosrod_body_def b = {0};
  b.name = "racket";
  b.mass = 1.0;
  b.inertia[0] = 41.6, b.inertia[1] = 11.6, b.inertia[2] = 50.0;
  double th0[3] = {COSROD_QUAT_PI / 3, COSROD_QUAT_PI / 4, COSROD_QUAT_PI / 2};
  cosrod_quat_from_euler313(b.quaternion, th0);
  b.omega[0] = 50.0, b.omega[1] = 1e-3, b.omega[2] = 1e-3;
  /* Landau labels: small I1 (ours 2), medial I2 (ours 1), large I3 (ours 3) */
  double I1 = 11.6, I2 = 41.6, I3 = 50.0, w1 = 1e-3, w2 = 50.0, w3 = 1e-3;
  double M2m2EI1 = I2 * (I2 - I1) * w2 * w2 + I3 * (I3 - I1) * w3 * w3; /* M^2 - 2 E I1 */
  double kc2num = -I1 * (I2 - I1) * (I3 - I1) * w1 * w1 + I3 * (I3 - I2) * (I3 - I1) * w3 * w3;
  double kc2 = kc2num / ((I3 - I2) * M2m2EI1);
  CHECK("M^2 > 2 E I2 case", kc2 > 0);
  double omega = sqrt((I3 - I2) * M2m2EI1 / (I1 * I2 * I3));
  double half = 2.0 * ellip_K_from_kc2(kc2) / omega;
  NOTE("closed form: k'^2 = %.6g, half period (flip interval) = %.9g s", kc2, half);
  for (int c = 0; c < 5; ++c) {
    b.param = COMBOS[c].param;
    cosrod_mbs *m = single(&b, COMBOS[c].form);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
    enum { NT = 20001 };
    double *tt = malloc(NT * sizeof *tt);
    for (int i = 0; i < NT; ++i) tt[i] = 2.0 * i / (NT - 1);
    zc z = {0};
    z.m = m, z.d = d;
    run_out ro = {zc_out, &z, tt, NT};
    CHECK("integrate", run_mbs(m, d, "dop853", 2.0, 1e-12, y, &ro) == COSROD_OK);
    CHECK("at least three sign changes of Omega1", z.n >= 3);
    if (z.n >= 3) {
      NOTE("%s/%s: sign changes at %.6f %.6f %.6f", cosrod_body_param_name(b.param),
           COMBOS[c].form ? "absolute" : "nullspace", z.times[0], z.times[1], z.times[2]);
      CHECK_REL("flip interval 1 vs 2K/omega", z.times[1] - z.times[0], half, 2e-3);
      CHECK_REL("flip interval 2 vs 2K/omega", z.times[2] - z.times[1], half, 2e-3);
    }
    free(tt);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

TEST(euler_gimbal_lock_is_reported) {
  /* spin about d1 from theta2 = 0.3: theta2 passes 0 at t = 0.3/2 */
  cosrod_body_def b = {0};
  b.name = "spinner";
  b.mass = 1.0;
  b.inertia[0] = b.inertia[1] = b.inertia[2] = 1.0;
  double th0[3] = {0.0, 0.3, 0.0};
  cosrod_quat_from_euler313(b.quaternion, th0);
  b.omega[0] = -2.0;
  b.param = COSROD_BODY_EULER313;
  cosrod_mbs *m = single(&b, COSROD_BODY_NULLSPACE);
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  double y[12]; /* (x, th | v, Omega) */
  cosrod_status st = run_mbs(m, d, "dopri5", 1.0, 1e-8, y, NULL);
  CHECK("integration fails", st != COSROD_OK);
  const char *msg = cosrod_mbs_data_message(d);
  NOTE("message: %s", msg);
  CHECK("message names the body", strstr(msg, "spinner") != NULL);
  CHECK("message says gimbal lock", strstr(msg, "gimbal lock") != NULL);
  const char *at = strstr(msg, "t = ");
  CHECK("message has the time", at != NULL);
  /* reported at the end of the first accepted step past the lock at t = 0.15 */
  if (at) CHECK("time of gimbal lock in [0.15, 0.15 + hmax]", atof(at + 4) >= 0.15 && atof(at + 4) <= 0.17);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
  /* at t = 0 creation fails */
  double th1[3] = {0.4, 0.0, 0.0};
  cosrod_quat_from_euler313(b.quaternion, th1);
  cosrod_mbs_def def = {0};
  def.nbodies = 1, def.bodies = &b;
  CHECK("create fails at gimbal lock", cosrod_mbs_create(&def, &st) == NULL);
  CHECK("create message", strstr(cosrod_last_error(), "gimbal lock") != NULL && strstr(cosrod_last_error(), "spinner") != NULL);
}

TEST(full_tensor_principal_axes) {
  /* a tensor diag(1, 2, 2.5) rotated by Q0: the body must behave like the
   * principal body with orientation q Q0, and report in the user frame */
  double Q0[4], ax[3] = {1, 2, 3};
  cosrod_quat_from_axis_angle(Q0, ax, 0.8);
  double Rq[9], Dg[3] = {1, 2, 2.5};
  cosrod_quat_to_matrix(Rq, Q0);
  cosrod_body_def b = {0}, bp = {0};
  b.name = "tensor";
  b.mass = 1.0;
  b.full_tensor = 1;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += Rq[i + 3 * k] * Dg[k] * Rq[j + 3 * k];
      b.tensor[i + 3 * j] = s;
    }
  cosrod_quat_identity(b.quaternion);
  double omu[3] = {0.3, 2.0, -1.0}; /* user frame */
  cosrod_vec3_copy(b.omega, omu);
  bp.name = "principal";
  bp.mass = 1.0;
  cosrod_vec3_copy(bp.inertia, Dg);
  cosrod_quat_copy(bp.quaternion, Q0);
  cosrod_quat_rotate_inv(bp.omega, Q0, omu);
  cosrod_mbs *m = single(&b, COSROD_BODY_NULLSPACE), *mp = single(&bp, COSROD_BODY_NULLSPACE);
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL), *dp = cosrod_mbs_data_create(mp, NULL);
  double y[13], yp[13];
  CHECK("run tensor", run_mbs(m, d, "dop853", 3.0, 1e-11, y, NULL) == COSROD_OK);
  CHECK("run principal", run_mbs(mp, dp, "dop853", 3.0, 1e-11, yp, NULL) == COSROD_OK);
  double q[4], qp[4], Om[3], Omp[3], R1[9], R2[9], Rp[9];
  cosrod_mbs_body_state(m, d, y, 0, NULL, q, NULL, Om);
  cosrod_mbs_body_state(mp, dp, yp, 0, NULL, qp, NULL, Omp);
  /* user frame of the tensor body = principal frame * Q0^T */
  cosrod_quat_to_matrix(R1, q);
  cosrod_quat_to_matrix(Rp, qp);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += Rp[i + 3 * k] * Rq[j + 3 * k];
      R2[i + 3 * j] = s;
    }
  CHECK_VEC("user-frame rotation", R1, R2, 9, 0.0, 1e-8);
  double Omu[3];
  cosrod_quat_rotate(Omu, Q0, Omp);
  CHECK_VEC("user-frame Omega", Om, Omu, 3, 0.0, 1e-8);
  cosrod_mbs_data_free(d);
  cosrod_mbs_data_free(dp);
  cosrod_mbs_free(m);
  cosrod_mbs_free(mp);
}

typedef struct eb {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  double tprev, pprev, work;
  int have;
} eb;

static int eb_out(double t, const double *y, void *user) {
  eb *e = user;
  double pe, pd;
  cosrod_mbs_power(e->m, e->d, t, y, &pe, &pd);
  double p = pe - pd;
  if (e->have) e->work += 0.5 * (t - e->tprev) * (p + e->pprev);
  e->tprev = t, e->pprev = p, e->have = 1;
  return 0;
}

/* loads (ramped body-frame force at a point, active spatial moment) and a
 * damped translational + rotational bushing to ground, gravity: the change
 * of kinetic + gravity + spring energy equals the work of the loads minus
 * the damper dissipation (trapezoidal rule on a 1e-4 grid of the powers) */
TEST(energy_balance_loads_and_bushings) {
  cosrod_body_def b = {0};
  b.name = "box";
  b.mass = 3.0;
  b.inertia[0] = 0.5, b.inertia[1] = 0.7, b.inertia[2] = 0.9;
  double th0[3] = {0.2, 1.1, 0.4}; /* away from euler-angle gimbal lock */
  cosrod_quat_from_euler313(b.quaternion, th0);
  b.omega[0] = 1.0, b.omega[2] = -2.0;
  b.velocity[1] = 0.5;
  cosrod_body_load_def l[2] = {{0}, {0}};
  l[0].body = 0, l[0].kind = COSROD_BODY_LOAD_FORCE, l[0].frame = COSROD_BODY_LOAD_BODY;
  cosrod_vec3_set(l[0].at, 0.2, 0.0, 0.1);
  cosrod_vec3_set(l[0].value, 0.0, 4.0, 1.0);
  l[0].profile = COSROD_BODY_LOAD_RAMP, l[0].t0 = 0.1, l[0].t1 = 0.6;
  l[1].body = 0, l[1].kind = COSROD_BODY_LOAD_MOMENT, l[1].frame = COSROD_BODY_LOAD_SPATIAL;
  cosrod_vec3_set(l[1].value, 0.3, 0.0, 0.5);
  /* active on the whole run: a jump of the power inside a quadrature
   * interval would cost h |jump| / 2 in the trapezoidal work */
  l[1].profile = COSROD_BODY_LOAD_ACTIVE, l[1].t0 = 0.0, l[1].t1 = 3.0;
  cosrod_bushing_def bu = {0};
  bu.body[0] = 0, bu.body[1] = -1;
  cosrod_vec3_set(bu.at[0], 0.1, 0.1, 0.0);
  cosrod_vec3_set(bu.at[1], 0.0, 0.0, 0.2);
  bu.k = 50.0, bu.c = 0.8, bu.k_rot = 4.0, bu.c_rot = 0.1;
  for (int c = 0; c < 5; ++c) {
    b.param = COMBOS[c].param;
    cosrod_mbs_def def = {0};
    def.nbodies = 1, def.bodies = &b, def.nloads = 2, def.loads = l, def.nbushings = 1, def.bushings = &bu;
    def.gravity[2] = -9.81;
    def.body_form = COMBOS[c].form;
    def.joint_form =
        COMBOS[c].form == COSROD_BODY_ABSOLUTE ? COSROD_JOINTS_MULTIPLIERS : COSROD_JOINTS_NULLSPACE;
    cosrod_status st;
    cosrod_mbs *m = cosrod_mbs_create(&def, &st);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    int n = cosrod_mbs_n(m);
    double *y0 = calloc((size_t)n, sizeof *y0), *y = calloc((size_t)n, sizeof *y);
    cosrod_mbs_initial_state(m, y0);
    double k0, g0, e0, k1, g1, e1;
    cosrod_mbs_energy(m, d, 0.0, y0, &k0, &g0, &e0);
    enum { NT = 30001 };
    double *tt = malloc(NT * sizeof *tt);
    for (int i = 0; i < NT; ++i) tt[i] = 3.0 * i / (NT - 1);
    eb e = {0};
    e.m = m, e.d = d;
    eb_out(0.0, y0, &e); /* the driver reports t > t0 only */
    run_out ro = {eb_out, &e, tt, NT};
    CHECK("integrate", run_mbs(m, d, "dop853", 3.0, 1e-11, y, &ro) == COSROD_OK);
    cosrod_mbs_energy(m, d, 3.0, y, &k1, &g1, &e1);
    double dE = (k1 + g1 + e1) - (k0 + g0 + e0);
    NOTE("%s/%s: dE = %.10g, work - dissipation = %.10g (elastic %.4g -> %.4g)",
         cosrod_body_param_name(b.param), COMBOS[c].form ? "absolute" : "nullspace", dE, e.work, e0, e1);
    CHECK_NEAR("energy balance", dE, e.work, 1e-6 * (fabs(k0) + fabs(e.work) + 1.0));
    free(tt), free(y0), free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

/* [L] §6 projections on drifted absolute states: quaternion eq. 63 (|p| = 1,
 * <p, pdot> = 0) and directors by Spurrier-Klumpp (P), (V): R in SO(3) and
 * Rdot tangent (rows: d_m . d_n' + d_m' . d_n = 0), the angular velocity
 * Omega = axial(R^T Rdot) kept to first order in the drift. */
TEST(projection_of_drifted_absolute_states) {
  th_rng rng;
  th_rng_seed(&rng, 3);
  cosrod_body_def b = {0};
  b.name = "b";
  b.mass = 1.0;
  b.inertia[0] = 1.0, b.inertia[1] = 2.0, b.inertia[2] = 2.5;
  double th0[3] = {0.4, 1.2, -0.7};
  cosrod_quat_from_euler313(b.quaternion, th0);
  b.omega[0] = 0.3, b.omega[1] = -1.1, b.omega[2] = 0.8;
  for (int param = 0; param < 2; ++param) {
    b.param = (cosrod_body_param)param;
    cosrod_mbs *m = single(&b, COSROD_BODY_ABSOLUTE);
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    int n = cosrod_mbs_n(m), nr = param ? 9 : 4;
    double *y = calloc((size_t)n, sizeof *y);
    cosrod_mbs_initial_state(m, y);
    double *r = y + 3, *rd = y + 3 + nr + 3;
    for (int k = 0; k < nr; ++k) {
      r[k] += th_rng_uniform(&rng, -1e-3, 1e-3);
      rd[k] += th_rng_uniform(&rng, -1e-3, 1e-3);
    }
    CHECK("project", cosrod_mbs_project(m, d, 0.0, y) == 0);
    if (param == 0) {
      CHECK_NEAR("|p| = 1", cosrod_quat_norm(r), 1.0, 1e-15);
      CHECK_NEAR("<p, pdot> = 0", cosrod_quat_dot(r, rd), 0.0, 1e-15);
    } else {
      double RtR[9], G = 0.0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          RtR[i + 3 * j] = cosrod_vec3_dot(r + 3 * i, r + 3 * j);
          /* rows d_i = (R[i], R[i+3], R[i+6]) */
          double a = 0.0;
          for (int k = 0; k < 3; ++k) a += r[i + 3 * k] * rd[j + 3 * k] + rd[i + 3 * k] * r[j + 3 * k];
          G = fmax(G, fabs(a));
        }
      double I9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
      CHECK_VEC("R^T R = I", RtR, I9, 9, 0.0, 1e-15);
      CHECK_LE("velocity tangent (G_d ddot = 0)", G, 1e-14);
    }
    double Om[3];
    cosrod_mbs_body_state(m, d, y, 0, NULL, NULL, NULL, Om);
    CHECK_VEC("Omega kept to the drift size", Om, b.omega, 3, 0.0, 1e-2);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

static const th_case cases[] = {
    TH_CASE(projection_of_drifted_absolute_states), TH_CASE(energy_balance_loads_and_bushings),
    TH_CASE(torque_free_symmetric_precession),      TH_CASE(tennis_racket_flip_period),
    TH_CASE(euler_gimbal_lock_is_reported),         TH_CASE(full_tensor_principal_axes)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
