// SPDX-License-Identifier: Apache-2.0
/* Test problems for the integrators; see problems.h.
 *
 * The reference solutions at the end times, with their published sources,
 * are in reference_solutions.c.  Exact solutions and invariants:
 *  - Arenstorf orbit: periodic, y(T) = y(0) (HNW I §II.0).
 *  - Linear system and spring chain: exact solutions derived here (block
 *    triangular system; modal decomposition of the chain, eigenvectors
 *    sin(i j pi/(N+1))).
 *  - Rigid body: invariants (kinetic energy, spatial angular momentum, |p|). */
#include "problems.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* ---------------------------------------------------------------- Van der Pol */
static const double VDP_EPS = 1e-6;
static int vdp_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = y[1];
  f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / VDP_EPS;
  return 0;
}
static int vdp_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  J[0 + 0 * ld] = 0.0;
  J[1 + 0 * ld] = (-2.0 * y[0] * y[1] - 1.0) / VDP_EPS;
  J[0 + 1 * ld] = 1.0;
  J[1 + 1 * ld] = (1.0 - y[0] * y[0]) / VDP_EPS;
  return 0;
}
/* second-order form: m1 = 1, the Jacobian is the single row d f_1 / d(y0, y1) */
static int vdp_jac_m1(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  J[0 + 0 * ld] = (-2.0 * y[0] * y[1] - 1.0) / VDP_EPS;
  J[0 + 1 * ld] = (1.0 - y[0] * y[0]) / VDP_EPS;
  return 0;
}
static void vdp_setup(cosrod_ode_problem *p) {
  p->n = 2;
  p->f = vdp_f;
  p->jac = vdp_jac;
}
/* the same problem, declared second order (m1 = m2 = 1) */
static void vdp_m1_setup(cosrod_ode_problem *p) {
  vdp_setup(p);
  p->jac = vdp_jac_m1;
  p->m1 = 1;
  p->m2 = 1;
}
static const double vdp_y0[2] = {2.0, 0.0};

/* ---------------------------------------------------------------- Robertson */
static int rob_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  f[2] = 3e7 * y[1] * y[1];
  f[1] = -f[0] - f[2];
  return 0;
}
static int rob_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  J[0 + 0 * ld] = -0.04;
  J[0 + 1 * ld] = 1e4 * y[2];
  J[0 + 2 * ld] = 1e4 * y[1];
  J[2 + 0 * ld] = 0.0;
  J[2 + 1 * ld] = 6e7 * y[1];
  J[2 + 2 * ld] = 0.0;
  J[1 + 0 * ld] = 0.04;
  J[1 + 1 * ld] = -1e4 * y[2] - 6e7 * y[1];
  J[1 + 2 * ld] = -1e4 * y[1];
  return 0;
}
static void rob_setup(cosrod_ode_problem *p) {
  p->n = 3;
  p->f = rob_f;
  p->jac = rob_jac;
}
/* index-1 DAE: y1' = f1, y2' = f2, 0 = y1 + y2 + y3 - 1, M = diag(1, 1, 0) */
static int robdae_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  f[1] = 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] * y[1];
  f[2] = y[0] + y[1] + y[2] - 1.0;
  return 0;
}
static int robdae_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  J[0 + 0 * ld] = -0.04;
  J[0 + 1 * ld] = 1e4 * y[2];
  J[0 + 2 * ld] = 1e4 * y[1];
  J[1 + 0 * ld] = 0.04;
  J[1 + 1 * ld] = -1e4 * y[2] - 6e7 * y[1];
  J[1 + 2 * ld] = -1e4 * y[1];
  J[2 + 0 * ld] = 1.0;
  J[2 + 1 * ld] = 1.0;
  J[2 + 2 * ld] = 1.0;
  return 0;
}
static int robdae_mass(double *M, int ld, void *u) {
  (void)u;
  M[0 + 0 * ld] = 1.0;
  M[1 + 1 * ld] = 1.0;
  return 0;
}
static int robdae_res(double t, const double *y, const double *yp, double *r, void *u) {
  double f[3];
  robdae_f(t, y, f, u);
  r[0] = yp[0] - f[0];
  r[1] = yp[1] - f[1];
  r[2] = -f[2];
  return 0;
}
static int robdae_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ld,
                          void *u) {
  (void)yp;
  robdae_jac(t, y, J, ld, u);
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++) J[i + j * ld] = -J[i + j * ld];
  J[0 + 0 * ld] += cj;
  J[1 + 1 * ld] += cj;
  return 0;
}
static const double robdae_id[3] = {1.0, 1.0, 0.0};
static void robdae_setup(cosrod_ode_problem *p) {
  p->n = 3;
  p->f = robdae_f;
  p->jac = robdae_jac;
  p->mass = robdae_mass;
  p->res = robdae_res;
  p->res_jac = robdae_res_jac;
  p->dae_id = robdae_id;
}
static const double rob_y0[3] = {1.0, 0.0, 0.0};

/* ---------------------------------------------------------------- HIRES */
static int hires_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
  f[1] = 1.71 * y[0] - 8.75 * y[1];
  f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
  f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
  f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
  f[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
  f[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
  f[7] = -f[6];
  return 0;
}
static int hires_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
#define JJ(i, j) J[(i) + (j)*ld]
  JJ(0, 0) = -1.71, JJ(0, 1) = 0.43, JJ(0, 2) = 8.32;
  JJ(1, 0) = 1.71, JJ(1, 1) = -8.75;
  JJ(2, 2) = -10.03, JJ(2, 3) = 0.43, JJ(2, 4) = 0.035;
  JJ(3, 1) = 8.32, JJ(3, 2) = 1.71, JJ(3, 3) = -1.12;
  JJ(4, 4) = -1.745, JJ(4, 5) = 0.43, JJ(4, 6) = 0.43;
  JJ(5, 3) = 0.69, JJ(5, 4) = 1.71, JJ(5, 5) = -0.43 - 280.0 * y[7], JJ(5, 6) = 0.69,
        JJ(5, 7) = -280.0 * y[5];
  JJ(6, 5) = 280.0 * y[7], JJ(6, 6) = -1.81, JJ(6, 7) = 280.0 * y[5];
  JJ(7, 5) = -280.0 * y[7], JJ(7, 6) = 1.81, JJ(7, 7) = -280.0 * y[5];
#undef JJ
  return 0;
}
static void hires_setup(cosrod_ode_problem *p) {
  p->n = 8;
  p->f = hires_f;
  p->jac = hires_jac;
}
static const double hires_y0[8] = {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057};

/* ---------------------------------------------------------------- OREGO
 * Oregonator (Field & Noyes), HW II §IV.10: s = 77.27, w = 0.161,
 * q = 8.375e-6, y(0) = (1, 2, 3), t in [0, 360]. */
static const double OR_S = 77.27, OR_W = 0.161, OR_Q = 8.375e-6;
static int orego_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = OR_S * (y[1] + y[0] * (1.0 - OR_Q * y[0] - y[1]));
  f[1] = (y[2] - (1.0 + y[0]) * y[1]) / OR_S;
  f[2] = OR_W * (y[0] - y[2]);
  return 0;
}
static int orego_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  J[0 + 0 * ld] = OR_S * (1.0 - 2.0 * OR_Q * y[0] - y[1]);
  J[0 + 1 * ld] = OR_S * (1.0 - y[0]);
  J[1 + 0 * ld] = -y[1] / OR_S;
  J[1 + 1 * ld] = -(1.0 + y[0]) / OR_S;
  J[1 + 2 * ld] = 1.0 / OR_S;
  J[2 + 0 * ld] = OR_W;
  J[2 + 2 * ld] = -OR_W;
  return 0;
}
static void orego_setup(cosrod_ode_problem *p) {
  p->n = 3;
  p->f = orego_f;
  p->jac = orego_jac;
}
static const double orego_y0[3] = {1.0, 2.0, 3.0};

/* ---------------------------------------------------------------- Arenstorf */
static const double AR_MU = 0.012277471;
static int aren_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  const double mu = AR_MU, mup = 1.0 - mu;
  double r1 = (y[0] + mu) * (y[0] + mu) + y[1] * y[1];
  double r2 = (y[0] - mup) * (y[0] - mup) + y[1] * y[1];
  r1 = r1 * sqrt(r1);
  r2 = r2 * sqrt(r2);
  f[0] = y[2];
  f[1] = y[3];
  f[2] = y[0] + 2.0 * y[3] - mup * (y[0] + mu) / r1 - mu * (y[0] - mup) / r2;
  f[3] = y[1] - 2.0 * y[2] - mup * y[1] / r1 - mu * y[1] / r2;
  return 0;
}
static void aren_setup(cosrod_ode_problem *p) {
  p->n = 4;
  p->f = aren_f;
}
static const double aren_y0[4] = {0.994, 0.0, 0.0, -2.00158510637908252240537862224};

/* ---------------------------------------------------------------- Pleiades */
static int plei_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  const double *x = y, *yy = y + 7;
  for (int i = 0; i < 14; i++) f[i] = y[14 + i];
  for (int i = 0; i < 7; i++) {
    double ax = 0.0, ay = 0.0;
    for (int j = 0; j < 7; j++) {
      if (j == i) continue;
      double dx = x[j] - x[i], dy = yy[j] - yy[i];
      double r2 = dx * dx + dy * dy, r3 = r2 * sqrt(r2);
      ax += (j + 1) * dx / r3;
      ay += (j + 1) * dy / r3;
    }
    f[14 + i] = ax;
    f[21 + i] = ay;
  }
  return 0;
}
/* d f / d y for rows 14..27 (accelerations) w.r.t. positions; velocity block 0.
 * With `reduced` the rows are stored from 0 (m1 = 14 form). */
static void plei_jac_rows(const double *y, double *J, int ld, int row0) {
  const double *x = y, *yy = y + 7;
  for (int i = 0; i < 7; i++) {
    for (int j = 0; j < 7; j++) {
      if (j == i) continue;
      double dx = x[j] - x[i], dy = yy[j] - yy[i];
      double r2 = dx * dx + dy * dy, r = sqrt(r2), r3 = r2 * r, r5 = r3 * r2;
      double m = j + 1;
      double axx = m * (1.0 / r3 - 3.0 * dx * dx / r5); /* d(ax_i)/d(x_j) */
      double axy = m * (-3.0 * dx * dy / r5);           /* d(ax_i)/d(y_j) = d(ay_i)/d(x_j) */
      double ayy = m * (1.0 / r3 - 3.0 * dy * dy / r5);
      int rx = row0 + i, ry = row0 + 7 + i;
      J[rx + (size_t)j * ld] += axx;
      J[rx + (size_t)i * ld] -= axx;
      J[rx + (size_t)(7 + j) * ld] += axy;
      J[rx + (size_t)(7 + i) * ld] -= axy;
      J[ry + (size_t)j * ld] += axy;
      J[ry + (size_t)i * ld] -= axy;
      J[ry + (size_t)(7 + j) * ld] += ayy;
      J[ry + (size_t)(7 + i) * ld] -= ayy;
    }
  }
}
static int plei_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  for (int i = 0; i < 14; i++) J[i + (size_t)(14 + i) * ld] = 1.0;
  plei_jac_rows(y, J, ld, 14);
  return 0;
}
static int plei_jac_m1(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)u;
  plei_jac_rows(y, J, ld, 0);
  return 0;
}
static void plei_setup(cosrod_ode_problem *p) {
  p->n = 28;
  p->f = plei_f;
  p->jac = plei_jac;
}
/* the same problem, declared second order (m1 = m2 = 14) */
static void plei_m1_setup(cosrod_ode_problem *p) {
  plei_setup(p);
  p->jac = plei_jac_m1;
  p->m1 = 14;
  p->m2 = 14;
}
static const double plei_y0[28] = {3, 3, -1, -3, 2, -2,   2,    3, -3, 2, 0,     0, -4, 4,
                                   0, 0, 0,  0,  0, 1.75, -1.5, 0, 0,  0, -1.25, 1, 0,  0};

/* ---------------------------------------------------------------- linear system
 * y0' = -y1, y1' = y0 (rotation, |lambda| = 1); y2' = -y2 + y3, y3' = -2 y3
 * (triangular, decaying).  Exact: rotation by t, and
 * y3 = y3(0) e^{-2t}, y2 = (y2(0) + y3(0)) e^{-t} - y3(0) e^{-2t}. */
static const double lin_y0[4] = {1.0, 0.0, 0.5, 1.0};
static int lin_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  f[0] = -y[1];
  f[1] = y[0];
  f[2] = -y[2] + y[3];
  f[3] = -2.0 * y[3];
  return 0;
}
static int lin_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)u;
  J[0 + 1 * ld] = -1.0;
  J[1 + 0 * ld] = 1.0;
  J[2 + 2 * ld] = -1.0;
  J[2 + 3 * ld] = 1.0;
  J[3 + 3 * ld] = -2.0;
  return 0;
}
static void lin_exact(double t, double *y) {
  const double *a = lin_y0;
  y[0] = a[0] * cos(t) - a[1] * sin(t);
  y[1] = a[0] * sin(t) + a[1] * cos(t);
  y[3] = a[3] * exp(-2.0 * t);
  y[2] = (a[2] + a[3]) * exp(-t) - a[3] * exp(-2.0 * t);
}
static void lin_setup(cosrod_ode_problem *p) {
  p->n = 4;
  p->f = lin_f;
  p->jac = lin_jac;
}

/* ---------------------------------------------------------------- rigid body
 * y = (p0..p3, W1..W3): torque-free Euler equations I W' = (I W) x W and
 * p' = 1/2 p * (0, W) (scalar-first Hamilton product); projection p <- p/|p|.
 * Invariants: kinetic energy, the spatial angular momentum R(p) I W, |p|. */
static const double RB_I[3] = {2.0, 1.0, 0.5};
static int rb_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  const double *p = y, *w = y + 4;
  f[0] = 0.5 * (-p[1] * w[0] - p[2] * w[1] - p[3] * w[2]);
  f[1] = 0.5 * (p[0] * w[0] + p[2] * w[2] - p[3] * w[1]);
  f[2] = 0.5 * (p[0] * w[1] + p[3] * w[0] - p[1] * w[2]);
  f[3] = 0.5 * (p[0] * w[2] + p[1] * w[1] - p[2] * w[0]);
  f[4] = (RB_I[1] - RB_I[2]) * w[1] * w[2] / RB_I[0];
  f[5] = (RB_I[2] - RB_I[0]) * w[2] * w[0] / RB_I[1];
  f[6] = (RB_I[0] - RB_I[1]) * w[0] * w[1] / RB_I[2];
  return 0;
}
static int rb_project(double t, double *y, void *u) {
  (void)t, (void)u;
  double s = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
  for (int i = 0; i < 4; i++) y[i] /= s;
  return 0;
}
static void rb_invariants(const double *y, double *inv) {
  const double *p = y, *w = y + 4;
  double m[3] = {RB_I[0] * w[0], RB_I[1] * w[1], RB_I[2] * w[2]};
  /* R(p) m with R the rotation matrix of the unit quaternion p (scalar first) */
  double p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
  double R[3][3] = {
      {p0 * p0 + p1 * p1 - p2 * p2 - p3 * p3, 2 * (p1 * p2 - p0 * p3), 2 * (p1 * p3 + p0 * p2)},
      {2 * (p1 * p2 + p0 * p3), p0 * p0 - p1 * p1 + p2 * p2 - p3 * p3, 2 * (p2 * p3 - p0 * p1)},
      {2 * (p1 * p3 - p0 * p2), 2 * (p2 * p3 + p0 * p1), p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3}};
  inv[0] = 0.5 * (RB_I[0] * w[0] * w[0] + RB_I[1] * w[1] * w[1] + RB_I[2] * w[2] * w[2]);
  for (int i = 0; i < 3; i++) inv[1 + i] = R[i][0] * m[0] + R[i][1] * m[1] + R[i][2] * m[2];
  inv[4] = sqrt(p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3);
}
static void rb_setup(cosrod_ode_problem *p) {
  p->n = 7;
  p->f = rb_f;
  p->project = rb_project;
}
/* near the unstable middle axis (I2) so that the motion is non-trivial */
static const double rb_y0[7] = {1.0, 0.0, 0.0, 0.0, 0.1, 2.0, 0.1};

/* ---------------------------------------------------------------- spring chain
 * N unit masses between two walls, springs of stiffness K, damping C:
 * q_i'' = K (q_{i+1} - 2 q_i + q_{i-1}) - C q_i',  q_0 = q_{N+1} = 0.
 * Exact solution by modes s_j(i) = sin(i j pi/(N+1)), omega_j^2 =
 * 4K sin^2(j pi/(2(N+1))), each a damped oscillator (under- or overdamped).
 * Variant "chain" (K = 100, C = 0.5, non-stiff): y = (q_1..q_N, v_1..v_N),
 *   m1 = m2 = N, reduced banded Jacobian: q-block d f/dq tridiagonal (1, 1),
 *   v-block -C I (0, 0).  "chain_dense": the same with a dense reduced
 *   Jacobian.  "chain_banded": interleaved y = (q_1, v_1, q_2, v_2, ...), full
 *   banded Jacobian with ml = 3, mu = 1.
 * Variant "chain_stiff" (K = 1e8, C = 1e6, t_end = 0.1): every mode is
 *   overdamped; eigenvalues -C (fast, 1e6) and -omega_j^2/C (slow, -8 ... -390):
 *   stiff, with the banded second-order structure of the rod's absolute
 *   formulation (the M1 path under stiffness). */
enum { CN = ITEST_CHAIN_N };
typedef struct chain_par {
  double K, C;
  cosrod_ode_problem layout; /* the Jacobian callback needs the layout description */
} chain_par;
static chain_par chain_soft = {100.0, 0.5, {0}}, chain_soft_dense = {100.0, 0.5, {0}},
                 chain_hard = {1e8, 1e6, {0}};
static double ch_q0(int i) { return sin(PI * (i + 1) / (CN + 1)) + 0.3 * sin(3.0 * PI * (i + 1) / (CN + 1)); }
static double ch_v0(int i) { return 0.5 * sin(2.0 * PI * (i + 1) / (CN + 1)); }
static void chain_exact_qv(const chain_par *cp, double t, double *q, double *v) {
  const double K = cp->K, C = cp->C;
  for (int i = 0; i < CN; i++) q[i] = v[i] = 0.0;
  for (int j = 1; j <= CN; j++) {
    double a0 = 0.0, b0 = 0.0;
    for (int i = 0; i < CN; i++) {
      double s = sin(PI * (i + 1) * j / (CN + 1));
      a0 += ch_q0(i) * s;
      b0 += ch_v0(i) * s;
    }
    a0 *= 2.0 / (CN + 1);
    b0 *= 2.0 / (CN + 1);
    double sn = sin(j * PI / (2.0 * (CN + 1)));
    double w2 = 4.0 * K * sn * sn;
    double disc = 0.25 * C * C - w2, a, ad;
    if (disc < 0.0) {
      double wd = sqrt(-disc);
      double A = a0, B = (b0 + 0.5 * C * a0) / wd;
      double e = exp(-0.5 * C * t), c = cos(wd * t), s = sin(wd * t);
      a = e * (A * c + B * s);
      ad = e * ((-0.5 * C) * (A * c + B * s) + (-A * wd * s + B * wd * c));
    } else {
      /* roots l1 (slow) and l2 (fast) of l^2 + C l + w2, l1 from l1 l2 = w2 without cancellation */
      double l2 = -0.5 * C - sqrt(disc), l1 = w2 / l2;
      double B = (b0 - l1 * a0) / (l2 - l1), A = a0 - B;
      double e1 = exp(l1 * t), e2 = exp(l2 * t);
      a = A * e1 + B * e2;
      ad = l1 * A * e1 + l2 * B * e2;
    }
    for (int i = 0; i < CN; i++) {
      double m = sin(PI * (i + 1) * j / (CN + 1));
      q[i] += a * m;
      v[i] += ad * m;
    }
  }
}
static double ch_acc(const chain_par *cp, const double *q, const double *v, int i) {
  double ql = i > 0 ? q[i - 1] : 0.0, qr = i < CN - 1 ? q[i + 1] : 0.0;
  return cp->K * (qr - 2.0 * q[i] + ql) - cp->C * v[i];
}
static int chain_f(double t, const double *y, double *f, void *u) {
  (void)t;
  const chain_par *cp = u;
  for (int i = 0; i < CN; i++) f[i] = y[CN + i];
  for (int i = 0; i < CN; i++) f[CN + i] = ch_acc(cp, y, y + CN, i);
  return 0;
}
/* reduced (m1 = N) Jacobian, dense or banded, written with cosrod_jac_set2 */
static int chain_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y;
  const chain_par *cp = u;
  const cosrod_ode_problem *p = &cp->layout;
  for (int i = 0; i < CN; i++) {
    cosrod_jac_set2(J, ld, p, i, i, -2.0 * cp->K);
    if (i > 0) cosrod_jac_set2(J, ld, p, i, i - 1, cp->K);
    if (i < CN - 1) cosrod_jac_set2(J, ld, p, i, i + 1, cp->K);
    cosrod_jac_set2(J, ld, p, i, CN + i, -cp->C);
  }
  return 0;
}
static void chain_setup_common(cosrod_ode_problem *p, int banded, chain_par *cp) {
  memset(p, 0, sizeof *p);
  p->n = 2 * CN;
  p->f = chain_f;
  p->jac = chain_jac;
  p->m1 = CN;
  p->m2 = CN;
  p->jac_banded = banded;
  p->jac_ml_q = 1;
  p->jac_mu_q = 1;
  p->jac_ml = 0;
  p->jac_mu = 0;
  p->user = cp;
  cp->layout = *p;
}
static void chain_setup(cosrod_ode_problem *p) { chain_setup_common(p, 1, &chain_soft); }
static void chain_dense_setup(cosrod_ode_problem *p) { chain_setup_common(p, 0, &chain_soft_dense); }
static void chain_stiff_setup(cosrod_ode_problem *p) { chain_setup_common(p, 1, &chain_hard); }
static void chain_exact(double t, double *y) { chain_exact_qv(&chain_soft, t, y, y + CN); }
static void chain_stiff_exact(double t, double *y) { chain_exact_qv(&chain_hard, t, y, y + CN); }
static double chain_y0_store[2 * CN];
static double chain_il_y0_store[2 * CN];

/* interleaved: y[2i] = q_i, y[2i+1] = v_i */
static int chain_il_f(double t, const double *y, double *f, void *u) {
  (void)t, (void)u;
  double q[CN], v[CN];
  for (int i = 0; i < CN; i++) q[i] = y[2 * i], v[i] = y[2 * i + 1];
  for (int i = 0; i < CN; i++) {
    f[2 * i] = v[i];
    f[2 * i + 1] = ch_acc(&chain_soft, q, v, i);
  }
  return 0;
}
static int chain_il_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t, (void)y, (void)u;
  const int mu = 1;
  const double K = chain_soft.K, C = chain_soft.C;
  for (int i = 0; i < CN; i++) {
    int rq = 2 * i, rv = 2 * i + 1;
    cosrod_jac_set(J, ld, 1, mu, rq, rv, 1.0);
    cosrod_jac_set(J, ld, 1, mu, rv, rq, -2.0 * K);
    if (i > 0) cosrod_jac_set(J, ld, 1, mu, rv, rq - 2, K);
    if (i < CN - 1) cosrod_jac_set(J, ld, 1, mu, rv, rq + 2, K);
    cosrod_jac_set(J, ld, 1, mu, rv, rv, -C);
  }
  return 0;
}
static void chain_il_setup(cosrod_ode_problem *p) {
  p->n = 2 * CN;
  p->f = chain_il_f;
  p->jac = chain_il_jac;
  p->jac_banded = 1;
  p->jac_ml = 3;
  p->jac_mu = 1;
}
static void chain_il_exact(double t, double *y) {
  double q[CN], v[CN];
  chain_exact_qv(&chain_soft, t, q, v);
  for (int i = 0; i < CN; i++) y[2 * i] = q[i], y[2 * i + 1] = v[i];
}

/* ---------------------------------------------------------------- table */
#define ROW(nm, cl, rq, nn, te, y0_, ref, ex, ninv_, inv, apr, tl, gr, set)                          \
  {                                                                                                  \
    .name = nm, .cls = cl, .requires = rq, .n = nn, .t0 = 0.0, .t_end = te, .y0 = y0_, .yref = ref,  \
    .exact = ex, .ninv = ninv_, .invariants = inv, .atol_per_rtol = apr, .tol = tl, .growth = gr,     \
    .setup = set                                                                                     \
  }
/* name, class, required capabilities, n, t_end, y0, reference, exact, invariants, atol/rtol, tol,
 * growth G of perturbations in the 2-norm (problems.h), setup.
 * G derived:
 *  - linear: the rotation block is an isometry; the triangular block [[-1, 1], [0, -2]] has the
 *    logarithmic 2-norm -3/2 + sqrt(1/2) < 0 (largest eigenvalue of its symmetric part), so it
 *    contracts (HNW I §I.10, Theorem 10.6): G = 1.
 *  - spring chains: the error of a linear problem solves the homogeneous equation, whose energy
 *    |v|^2 + K q.Lq (L = tridiag(-1, 2, -1), eigenvalues 4 sin^2(j pi/(2(N+1)))) does not increase
 *    with damping C >= 0.  Between that norm and the 2-norm of (q, v):
 *    G = sqrt(max(1, K lmax) / min(1, K lmin)) = 2 sqrt(K) sin(N pi/(2(N+1))) (K lmin >= 1 here):
 *    19.797 for K = 100, 1.9797e4 for K = 1e8 (rounded up below).
 *  - the nonlinear problems: no bound derived (0); the orbits' G is large and unknown. */
static itest_problem table[] = {
    ROW("vdp", ITP_STIFF, 0, 2, 2.0, vdp_y0, itest_ref_vdp, NULL, 0, NULL, 1.0, 1e-6, 0.0, vdp_setup),
    ROW("vdp_m1", ITP_STIFF, 0, 2, 2.0, vdp_y0, itest_ref_vdp, NULL, 0, NULL, 1.0, 1e-6, 0.0, vdp_m1_setup),
    ROW("robertson", ITP_STIFF, 0, 3, 1e11, rob_y0, itest_ref_robertson, NULL, 0, NULL, 1e-6, 1e-6, 0.0,
        rob_setup),
    ROW("robertson_dae", ITP_STIFF, COSROD_STEP_MASS | COSROD_STEP_DAE, 3, 1e11, rob_y0, itest_ref_robertson,
        NULL, 0, NULL, 1e-6, 1e-6, 0.0, robdae_setup),
    ROW("hires", ITP_STIFF, 0, 8, 321.8122, hires_y0, itest_ref_hires, NULL, 0, NULL, 1e-4, 1e-6, 0.0,
        hires_setup),
    ROW("orego", ITP_STIFF, 0, 3, 360.0, orego_y0, itest_ref_orego, NULL, 0, NULL, 1e-6, 1e-6, 0.0,
        orego_setup),
    ROW("arenstorf", ITP_NONSTIFF, 0, 4, ITEST_ARENSTORF_T, aren_y0, itest_ref_arenstorf, NULL, 0, NULL, 1.0,
        1e-7, 0.0, aren_setup),
    ROW("pleiades", ITP_NONSTIFF, 0, 28, 3.0, plei_y0, itest_ref_pleiades, NULL, 0, NULL, 1.0, 1e-7, 0.0,
        plei_setup),
    ROW("pleiades_m1", ITP_NONSTIFF, 0, 28, 3.0, plei_y0, itest_ref_pleiades, NULL, 0, NULL, 1.0, 1e-7, 0.0,
        plei_m1_setup),
    ROW("linear", ITP_NONSTIFF | ITP_EXACT, 0, 4, 5.0, lin_y0, NULL, lin_exact, 0, NULL, 1.0, 1e-6, 1.0,
        lin_setup),
    ROW("rigid_body", ITP_NONSTIFF | ITP_INVARIANTS, COSROD_STEP_PROJECTION, 7, 10.0, rb_y0, NULL, NULL, 5,
        rb_invariants, 1.0, 1e-6, 0.0, rb_setup),
    ROW("chain", ITP_NONSTIFF | ITP_EXACT, 0, 2 * CN, 2.0, chain_y0_store, NULL, chain_exact, 0, NULL, 1.0,
        1e-6, 19.8, chain_setup),
    ROW("chain_dense", ITP_NONSTIFF | ITP_EXACT, 0, 2 * CN, 2.0, chain_y0_store, NULL, chain_exact, 0, NULL,
        1.0, 1e-6, 19.8, chain_dense_setup),
    ROW("chain_stiff", ITP_STIFF | ITP_EXACT, 0, 2 * CN, 0.1, chain_y0_store, NULL, chain_stiff_exact, 0,
        NULL, 1.0, 1e-6, 19800.0, chain_stiff_setup),
    ROW("chain_banded", ITP_NONSTIFF | ITP_EXACT, 0, 2 * CN, 2.0, chain_il_y0_store, NULL, chain_il_exact, 0,
        NULL, 1.0, 1e-6, 19.8, chain_il_setup),
};
#undef ROW

static void init_tables(void) {
  static int done = 0;
  if (done) return;
  chain_exact(0.0, chain_y0_store);
  chain_il_exact(0.0, chain_il_y0_store);
  done = 1;
}

size_t itest_problem_count(void) { return sizeof table / sizeof table[0]; }
const itest_problem *itest_problem_at(size_t i) {
  init_tables();
  return i < itest_problem_count() ? &table[i] : NULL;
}
const itest_problem *itest_problem_by_name(const char *name) {
  init_tables();
  for (size_t i = 0; i < itest_problem_count(); i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

double itest_scaled_error(int n, const double *y, const double *ref, double rtol, double atol) {
  double m = 0.0;
  for (int i = 0; i < n; i++) m = fmax(m, fabs(y[i] - ref[i]) / (atol + rtol * fabs(ref[i])));
  return m;
}
double itest_max_error(int n, const double *y, const double *ref) {
  double m = 0.0;
  for (int i = 0; i < n; i++) m = fmax(m, fabs(y[i] - ref[i]));
  return m;
}
