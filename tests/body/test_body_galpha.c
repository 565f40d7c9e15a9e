// SPDX-License-Identifier: Apache-2.0
/* Generalized-α on rigid multibody models (body_galpha.c, galpha.c) with a
 * fixed step, against independent references:
 *   - heavy top ([L] Ex. A) with ρ∞ = 1: energy and the conserved momenta
 *     (vertical L_z; L.d3 for the symmetric top) bounded with O(h²)
 *     deviations, and the state at T second order in h against dop853 at
 *     1e-12, in every parametrisation and formulation;
 *   - torque-free symmetric body: Ω(T) and the precession of d3 about L
 *     at |L|/A from the closed form (Landau-Lifshitz §33), order 2;
 *   - |p| = 1 (quaternions) and RᵀR = I (directors) to round-off at every
 *     step without projection (group update);
 *   - double pendulum of two bars on revolute joints against the
 *     minimal-coordinate reference (body_test_dp.h), order 2, with the
 *     joint constraint residuals bounded at every step. */
#include <float.h>
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
    {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "quaternion nullspace/nullspace"},
    {COSROD_BODY_DIRECTORS, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "directors nullspace/nullspace"},
    {COSROD_BODY_EULER313, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "euler nullspace/nullspace"},
    {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_MULTIPLIERS, "quaternion nullspace/multipliers"},
    {COSROD_BODY_QUATERNION, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS, "quaternion absolute/multipliers"},
    {COSROD_BODY_DIRECTORS, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS, "directors absolute/multipliers"}};

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

/* galpha with a fixed step h from the initial state to T; every accepted
 * step is reported to fn (may be NULL); y (n) the final state. */
static cosrod_status run_galpha(const cosrod_mbs *m, cosrod_mbs_data *d, double T, double h, double rho,
                                int project, int (*fn)(double, const double *, void *), void *user, double *y) {
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  cosrod_mbs_lie_problem(&p, d);
  if (!project) p.project = NULL;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.fixed_step = 1;
  o.h0 = h;
  o.rho_inf = rho;
  o.max_steps = (long)(T / h) + 10;
  o.rtol = o.atol = 1e-11; /* Newton tolerance: far below the discretisation errors measured */
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_galpha, &p, &o, &st);
  if (!it) return st;
  double *y0 = malloc((size_t)cosrod_mbs_n(m) * sizeof *y0);
  cosrod_mbs_initial_state(m, y0);
  cosrod_output_spec out = {0};
  out.every_step = fn != NULL;
  out.output = fn;
  out.user = user;
  st = cosrod_integrate(it, 0.0, y0, T, &out, y);
  if (st != COSROD_OK) NOTE("galpha: %s", cosrod_integrator_message(it));
  const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
  if (s->nreject > 0) NOTE("galpha: %ld rejected steps (Newton)", (long)s->nreject);
  free(y0);
  cosrod_integrator_free(it);
  return st;
}

static double order(double e1, double e2) { return log(e1 / e2) / log(2.0); }

/* ---- heavy top ------------------------------------------------------------- */

/* [L] Ex. A as examples/heavy-top.yaml (symmetric: pivot inertia (50, 50, 10)). */
static void top_def(int symmetric, cosrod_body_def *b, cosrod_joint_def *j, cosrod_mbs_def *def) {
  const double m = 11.09, L = 1.0;
  memset(b, 0, sizeof *b);
  memset(j, 0, sizeof *j);
  memset(def, 0, sizeof *def);
  b->name = "top";
  b->mass = m;
  b->inertia[0] = 50.0 - m * L * L;
  b->inertia[1] = (symmetric ? 50.0 : 42.0) - m * L * L;
  b->inertia[2] = 10.0;
  cosrod_quat_set(b->quaternion, cos(COSROD_QUAT_PI / 6), sin(COSROD_QUAT_PI / 6), 0, 0);
  double e3[3] = {0, 0, L};
  cosrod_quat_rotate(b->position, b->quaternion, e3);
  b->omega[2] = 20.0;
  j->type = COSROD_JOINT_SPHERICAL;
  j->body[0] = 0, j->body[1] = -1;
  j->at[0][2] = -L;
  def->nbodies = 1, def->njoints = 1, def->joints = j;
  def->gravity[2] = -9.81;
}

typedef struct top_mon {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  const cosrod_body_def *b;
  double E0, Lz0, Ld30;
  double dE, dLz, dLd3, gmax, pmax; /* max deviations over the steps */
  long nsteps;
} top_mon;

static void top_invariants(top_mon *t, const double *y, double *E, double *Lz, double *Ld3) {
  double ek, eg, L[3], o[3] = {0, 0, 0}, x[3], q[4], v[3], Om[3], d3[3], ez[3] = {0, 0, 1};
  cosrod_mbs_energy(t->m, t->d, 0.0, y, &ek, &eg, NULL);
  body_momentum(t->m, t->d, y, 0, t->b->inertia, t->b->mass, o, L);
  cosrod_mbs_body_state(t->m, t->d, y, 0, x, q, v, Om);
  cosrod_quat_rotate(d3, q, ez);
  *E = ek + eg;
  *Lz = L[2];
  *Ld3 = cosrod_vec3_dot(L, d3);
}

static int top_out(double t, const double *y, void *user) {
  (void)t;
  top_mon *m = user;
  double E, Lz, Ld3, g[3], gd[3];
  top_invariants(m, y, &E, &Lz, &Ld3);
  m->dE = fmax(m->dE, fabs(E - m->E0));
  m->dLz = fmax(m->dLz, fabs(Lz - m->Lz0));
  m->dLd3 = fmax(m->dLd3, fabs(Ld3 - m->Ld30));
  cosrod_mbs_constraints(m->m, m->d, y, g, gd);
  for (int i = 0; i < 3; ++i) m->gmax = fmax(m->gmax, fabs(g[i]));
  if (cosrod_mbs_body_param(m->m, 0) == COSROD_BODY_QUATERNION)
    m->pmax = fmax(m->pmax, fabs(cosrod_quat_norm(y + 3) - 1.0));
  m->nsteps++;
  return 0;
}

/* Energy and momenta with ρ∞ = 1 over T = 2 s (about 6 nutations) at h and h/2. */
static void top_invariants_h2(int symmetric) {
  cosrod_body_def b;
  cosrod_joint_def j;
  cosrod_mbs_def def;
  top_def(symmetric, &b, &j, &def);
  const double T = 2.0, h = 1e-3;
  for (int c = 0; c < 6; ++c) {
    cosrod_mbs *m = build(&def, &CFGS[c], &b);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y), dev[2][3];
    for (int r = 0; r < 2; ++r) {
      top_mon t = {m, d, &b, 0, 0, 0, 0, 0, 0, 0, 0, 0};
      cosrod_mbs_initial_state(m, y);
      top_invariants(&t, y, &t.E0, &t.Lz0, &t.Ld30);
      CHECK("integrate", run_galpha(m, d, T, h / (1 << r), 1.0, 1, top_out, &t, y) == COSROD_OK);
      dev[r][0] = t.dE / fabs(t.E0);
      dev[r][1] = t.dLz / fabs(t.Lz0);
      dev[r][2] = t.dLd3 / fabs(t.Ld30);
      NOTE("%s, h = %g: max |dE|/E = %.3e, |dLz|/Lz = %.3e, |d(L.d3)|/(L.d3) = %.3e, max |g| = %.2e (%ld steps)",
           CFGS[c].name, h / (1 << r), dev[r][0], dev[r][1], dev[r][2], t.gmax, t.nsteps);
      CHECK_LE("pivot (joint residual) after projection", t.gmax, 1e-10);
    }
    /* O(h²): bounded oscillations that shrink 4x with h/2 */
    CHECK_LE("energy deviation small", dev[0][0], 1e-3);
    CHECK_LE("energy deviation O(h^2) (at least second order)", 2.0 - order(dev[0][0], dev[1][0]), 0.3);
    CHECK_LE("L_z deviation small", dev[0][1], 1e-3);
    CHECK_LE("L_z deviation O(h^2) (at least second order)", 2.0 - order(dev[0][1], dev[1][1]), 0.3);
    if (symmetric) {
      CHECK_LE("L.d3 deviation small", dev[0][2], 1e-3);
      /* null-space forms: Ω3 is exact in Euler's third equation, the
       * deviation comes from the joint projection and is O(h³) */
      CHECK_LE("L.d3 deviation O(h^2) (at least second order)", 2.0 - order(dev[0][2], dev[1][2]), 0.3);
    }
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

TEST(galpha_heavy_top_invariants_h2) { top_invariants_h2(0); }
TEST(galpha_symmetric_top_two_momenta_h2) { top_invariants_h2(1); }

/* d3(T) and Ω(T) of the heavy top vs dop853 at 1e-12: order 2 in h
 * (ρ∞ = 0.8, the default, and ρ∞ = 1). */
TEST(galpha_heavy_top_second_order_vs_dop853) {
  cosrod_body_def b;
  cosrod_joint_def j;
  cosrod_mbs_def def;
  top_def(0, &b, &j, &def);
  const double T = 1.0, h0 = 8e-3;
  for (int c = 0; c < 6; ++c) {
    cosrod_mbs *m = build(&def, &CFGS[c], &b);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    int n = cosrod_mbs_n(m);
    double *y = calloc((size_t)n, sizeof *y), ref[6], got[6], x[3], q[4], v[3], Om[3], ez[3] = {0, 0, 1};
    CHECK("reference", run_mbs(m, d, "dop853", T, 1e-12, y, NULL) == COSROD_OK);
    cosrod_mbs_body_state(m, d, y, 0, x, q, v, ref + 3);
    cosrod_quat_rotate(ref, q, ez);
    for (int k = 0; k < 2; ++k) {
      double rho = k ? 1.0 : 0.8, err[3];
      for (int r = 0; r < 3; ++r) {
        CHECK("integrate", run_galpha(m, d, T, h0 / (1 << r), rho, 1, NULL, NULL, y) == COSROD_OK);
        cosrod_mbs_body_state(m, d, y, 0, x, q, v, Om);
        cosrod_quat_rotate(got, q, ez);
        cosrod_vec3_copy(got + 3, Om);
        err[r] = 0.0;
        for (int i = 0; i < 6; ++i) err[r] = fmax(err[r], fabs(got[i] - ref[i]) / (i < 3 ? 1.0 : 20.0));
      }
      NOTE("%s, rho_inf %g: error at h = %g, %g, %g: %.3e %.3e %.3e (orders %.2f, %.2f)", CFGS[c].name, rho, h0,
           h0 / 2, h0 / 4, err[0], err[1], err[2], order(err[0], err[1]), order(err[1], err[2]));
      CHECK_LE("error at h0 / 4", err[2], 1e-3);
      CHECK_NEAR("second order (h0/2 -> h0/4)", order(err[1], err[2]), 2.0, 0.25);
    }
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

/* ---- torque-free symmetric body ------------------------------------------- */

TEST(galpha_torque_free_precession) {
  const double A = 3.0, C = 5.0, T = 2.0, h0 = 1e-2;
  static const cfg combos[5] = {
      {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "quaternion nullspace"},
      {COSROD_BODY_DIRECTORS, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "directors nullspace"},
      {COSROD_BODY_EULER313, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "euler-angles"},
      {COSROD_BODY_QUATERNION, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS, "quaternion absolute"},
      {COSROD_BODY_DIRECTORS, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS, "directors absolute"}};
  cosrod_body_def b = {0};
  b.name = "disc";
  b.mass = 2.0;
  b.inertia[0] = A, b.inertia[1] = A, b.inertia[2] = C;
  double th0[3] = {0.3, 0.7, -0.2};
  cosrod_quat_from_euler313(b.quaternion, th0);
  b.omega[0] = 1.5, b.omega[1] = -0.5, b.omega[2] = 4.0;
  b.velocity[0] = 0.1;
  /* closed form: Ω_perp turns in the body at λ = (C - A)/A Ω3; d3 precesses about L at |L|/A */
  double lam = (C - A) / A * b.omega[2], cl = cos(lam * T), sl = sin(lam * T);
  double Om_ref[3] = {b.omega[0] * cl - b.omega[1] * sl, b.omega[0] * sl + b.omega[1] * cl, b.omega[2]};
  double JO0[3] = {A * b.omega[0], A * b.omega[1], C * b.omega[2]}, L[3], d30[3], e3[3] = {0, 0, 1};
  cosrod_quat_rotate(L, b.quaternion, JO0);
  double Ln = cosrod_vec3_norm(L), Lh[3], prot[4], d3ref[3];
  cosrod_vec3_scale(Lh, 1.0 / Ln, L);
  cosrod_quat_rotate(d30, b.quaternion, e3);
  cosrod_quat_from_axis_angle(prot, Lh, Ln / A * T);
  cosrod_quat_rotate(d3ref, prot, d30);
  for (int c = 0; c < 5; ++c) {
    cosrod_mbs_def def = {0};
    def.nbodies = 1;
    cosrod_mbs *m = build(&def, &combos[c], &b);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y), eo[3], ed[3], cone = 0.0;
    for (int r = 0; r < 3; ++r) {
      double x[3], q[4], v[3], Om[3], d3[3], diff[3];
      CHECK("integrate", run_galpha(m, d, T, h0 / (1 << r), 1.0, 1, NULL, NULL, y) == COSROD_OK);
      cosrod_mbs_body_state(m, d, y, 0, x, q, v, Om);
      cosrod_quat_rotate(d3, q, e3);
      cosrod_vec3_sub(diff, Om, Om_ref);
      eo[r] = cosrod_vec3_norm(diff);
      cosrod_vec3_sub(diff, d3, d3ref);
      ed[r] = cosrod_vec3_norm(diff);
      cone = fabs(cosrod_vec3_dot(d3, Lh) - C * b.omega[2] / Ln);
      if (r == 2) CHECK_NEAR("centre of mass moves uniformly", x[0], 0.1 * T, 1e-12);
    }
    NOTE("%s: |Omega - ref| %.3e %.3e %.3e, |d3 - ref| %.3e %.3e %.3e, cone %.2e", combos[c].name, eo[0], eo[1],
         eo[2], ed[0], ed[1], ed[2], cone);
    CHECK_LE("Omega(T) vs closed form at h0/4", eo[2], 2e-3);
    CHECK_LE("d3(T) precessed about L at |L|/A, h0/4", ed[2], 2e-3);
    CHECK_NEAR("Omega: second order", order(eo[1], eo[2]), 2.0, 0.2);
    CHECK_NEAR("precession: second order", order(ed[1], ed[2]), 2.0, 0.2);
    CHECK_LE("cone angle cos = C Omega3/|L|", cone, 1e-4);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

/* ---- group update: unit quaternions, orthonormal directors ---------------- */

typedef struct unit_mon {
  const cosrod_mbs *m;
  double worst;
  long nsteps;
} unit_mon;

static int unit_out(double t, const double *y, void *user) {
  (void)t;
  unit_mon *u = user;
  for (size_t i = 0; i < cosrod_mbs_nbodies(u->m); ++i) {
    const double *r = y + cosrod_mbs_pos_offset(u->m, i) + 3;
    if (cosrod_mbs_body_param(u->m, i) == COSROD_BODY_QUATERNION) {
      u->worst = fmax(u->worst, fabs(sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]) - 1.0));
    } else {
      for (int a = 0; a < 3; ++a)
        for (int c = 0; c < 3; ++c) {
          double s = r[3 * a] * r[3 * c] + r[3 * a + 1] * r[3 * c + 1] + r[3 * a + 2] * r[3 * c + 2];
          u->worst = fmax(u->worst, fabs(s - (a == c)));
        }
    }
  }
  u->nsteps++;
  return 0;
}

TEST(galpha_unit_quaternion_without_projection) {
  /* tennis racket ([L] Ex. B, free) and the heavy top (null-space joint), 5000 steps, no projection hook */
  for (int param = 0; param < 2; ++param)
    for (int model = 0; model < 2; ++model) {
      cosrod_body_def b;
      cosrod_joint_def j;
      cosrod_mbs_def def;
      top_def(0, &b, &j, &def);
      if (model == 0) {
        def.njoints = 0;
        def.gravity[2] = 0.0;
        b.inertia[0] = 2.0, b.inertia[1] = 5.0, b.inertia[2] = 6.0;
        b.omega[0] = 0.01, b.omega[1] = 10.0, b.omega[2] = 0.01;
      }
      cfg c = {param ? COSROD_BODY_DIRECTORS : COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE,
               COSROD_JOINTS_NULLSPACE, param ? "directors" : "quaternion"};
      cosrod_mbs *m = build(&def, &c, &b);
      CHECK("create", m != NULL);
      if (!m) continue;
      cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
      double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
      unit_mon u = {m, 0.0, 0};
      CHECK("integrate", run_galpha(m, d, 10.0, 2e-3, 0.8, 0, unit_out, &u, y) == COSROD_OK);
      NOTE("%s, %s: max | |p| - 1 | or |R^T R - I| over %ld steps = %.2e", c.name,
           model ? "heavy top" : "tennis racket", u.nsteps, u.worst);
      CHECK("5000 steps", u.nsteps >= 5000);
      /* at most one unit of round-off per step: nsteps x DBL_EPSILON (1.1e-12) */
      CHECK_LE("unit quaternion / orthonormal directors to round-off", u.worst, (double)u.nsteps * DBL_EPSILON);
      free(y);
      cosrod_mbs_data_free(d);
      cosrod_mbs_free(m);
    }
}

/* ---- double pendulum -------------------------------------------------------- */

typedef struct dp_mon {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  double gmax, gdmax;
} dp_mon;

static int dp_out(double t, const double *y, void *user) {
  (void)t;
  dp_mon *u = user;
  double g[10], gd[10];
  cosrod_mbs_constraints(u->m, u->d, y, g, gd);
  for (int i = 0; i < cosrod_mbs_nconstr(u->m); ++i) {
    u->gmax = fmax(u->gmax, fabs(g[i]));
    u->gdmax = fmax(u->gdmax, fabs(gd[i]));
  }
  return 0;
}

TEST(galpha_double_pendulum_vs_minimal_coordinates) {
  dp p = {2.0, 0.8, 2.0 * 0.8 * 0.8 / 12, 9.81};
  double s0[4] = {1.2, -0.5, 0.3, 1.0}, s[4];
  memcpy(s, s0, sizeof s);
  const double T = 2.0, h0 = 1e-3;
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
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y), err[3];
    dp_mon u = {m, d, 0.0, 0.0};
    for (int r = 0; r < 3; ++r) {
      CHECK("integrate", run_galpha(m, d, T, h0 / (1 << r), 0.8, 1, dp_out, &u, y) == COSROD_OK);
      double phi[2];
      for (int i = 0; i < 2; ++i) {
        double q[4], d3[3], ez[3] = {0, 0, 1};
        cosrod_mbs_body_state(m, d, y, (size_t)i, NULL, q, NULL, NULL);
        cosrod_quat_rotate(d3, q, ez);
        phi[i] = atan2(d3[1], -d3[2]);
      }
      err[r] = fmax(fabs(phi[0] - s[0]), fabs(phi[1] - s[1]));
    }
    NOTE("%s: |phi(T) - ref| at h = %g, %g, %g: %.3e %.3e %.3e (orders %.2f %.2f); max |g| %.2e, |gdot| %.2e "
         "(%ld re-partitions)",
         CFGS[c].name, h0, h0 / 2, h0 / 4, err[0], err[1], err[2], order(err[0], err[1]), order(err[1], err[2]),
         u.gmax, u.gdmax, cosrod_mbs_data_repartitions(d));
    CHECK_LE("phi(T) at h0/4", err[2], 1e-3);
    CHECK_NEAR("second order", order(err[1], err[2]), 2.0, 0.25);
    CHECK_LE("joint position residuals bounded (projection)", u.gmax, 1e-10);
    CHECK_LE("joint velocity residuals bounded", u.gdmax, 1e-9);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

/* ---- re-partitioning of the null-space coordinates ------------------------ */

/* The slider on a spinning arm of test_body_joints.c: the partition chosen
 * at t = 0 becomes singular after a quarter turn and the projection hook
 * re-partitions (ν changes meaning).  The slider's position at T = 3 s
 * against dop853 at 1e-12 (multiplier form): second order in h. */
TEST(galpha_slider_repartitions) {
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
  const double T = 3.0, h0 = 4e-3;
  double xref[3];
  for (int c = 0; c < 2; ++c) {
    cosrod_mbs_def def = {0};
    def.nbodies = 2, def.bodies = b, def.njoints = 2, def.joints = j;
    def.joint_form = c ? COSROD_JOINTS_NULLSPACE : COSROD_JOINTS_MULTIPLIERS;
    cosrod_status st;
    cosrod_mbs *m = cosrod_mbs_create(&def, &st);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y), x[3], e[3];
    if (c == 0) {
      CHECK("reference", run_mbs(m, d, "dop853", T, 1e-12, y, NULL) == COSROD_OK);
      cosrod_mbs_body_state(m, d, y, 1, xref, NULL, NULL, NULL);
    }
    long nrep = 0;
    for (int r = 0; r < 3; ++r) {
      CHECK("integrate", run_galpha(m, d, T, h0 / (1 << r), 0.8, 1, NULL, NULL, y) == COSROD_OK);
      cosrod_mbs_body_state(m, d, y, 1, x, NULL, NULL, NULL);
      double dx[3];
      cosrod_vec3_sub(dx, x, xref);
      e[r] = cosrod_vec3_norm(dx);
      nrep = cosrod_mbs_data_repartitions(d);
    }
    NOTE("%s: |x_slider(T) - ref| at h = %g, %g, %g: %.3e %.3e %.3e (orders %.2f %.2f), %ld re-partitions",
         c ? "null space" : "multipliers", h0, h0 / 2, h0 / 4, e[0], e[1], e[2], order(e[0], e[1]),
         order(e[1], e[2]), nrep);
    if (c == 1) CHECK("the partition changed", nrep >= 1);
    CHECK_LE("slider position at h0/4", e[2], 1e-3);
    CHECK_NEAR("second order", order(e[1], e[2]), 2.0, 0.3);
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

/* ---- Euler angles through sin θ2 = 0 ---------------------------------------- */

typedef struct th_mon {
  double smin;
} th_mon;

static int th_out(double t, const double *y, void *user) {
  (void)t;
  th_mon *u = user;
  u->smin = fmin(u->smin, fabs(sin(y[4])));
  return 0;
}

/* The group update R(θ) exp(E(w)) read back as Euler angles continues on
 * the other branch (θ1 + π, -θ2, θ3 + π) when the motion passes sin θ2 = 0,
 * where θ̇ = T_θ Ω is singular: a body spinning about e1 through θ2 = 0 runs
 * on, and its rotation agrees with the quaternion run of the same scheme to
 * round-off and with dop853 at 1e-12 (constant Ω: exact); dopri5 on the Euler-angle ODE stops
 * there with the gimbal-lock failure. */
TEST(galpha_euler_angles_through_gimbal_lock) {
  cosrod_body_def b = {0};
  b.name = "spinner";
  b.mass = 1.0;
  b.inertia[0] = 1.0, b.inertia[1] = 2.0, b.inertia[2] = 2.5;
  double th0[3] = {0.0, 0.5, 0.0};
  cosrod_quat_from_euler313(b.quaternion, th0);
  b.omega[0] = -3.0; /* d3 sweeps through the vertical: θ2 = 0.5 - 3 t passes 0 at t = 1/6 */
  const double T = 1.0, h = 1e-3;
  double qs[3][4];
  for (int c = 0; c < 3; ++c) {
    cfg k = {c == 0 ? COSROD_BODY_EULER313 : COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE,
             COSROD_JOINTS_NULLSPACE, c == 0 ? "euler" : "quaternion"};
    cosrod_mbs_def def = {0};
    def.nbodies = 1;
    cosrod_mbs *m = build(&def, &k, &b);
    CHECK("create", m != NULL);
    if (!m) return;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    double *y = calloc((size_t)cosrod_mbs_n(m), sizeof *y);
    th_mon u = {1.0};
    if (c < 2)
      CHECK("galpha runs", run_galpha(m, d, T, h, 0.8, 1, c == 0 ? th_out : NULL, &u, y) == COSROD_OK);
    else
      CHECK("dop853 reference", run_mbs(m, d, "dop853", T, 1e-12, y, NULL) == COSROD_OK);
    cosrod_mbs_body_state(m, d, y, 0, NULL, qs[c], NULL, NULL);
    if (c == 0) {
      NOTE("euler: min |sin theta2| over the steps %.3g", u.smin);
      CHECK_LE("the motion passes sin theta2 = 0 (within one step)", u.smin, 3.0 * h);
    }
    free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
  CHECK_VEC("euler == quaternion galpha (the same rotation update)", qs[0], qs[1], 4, 0.0, 1e-12);
  {
    cfg k = {COSROD_BODY_EULER313, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE, "euler"};
    cosrod_mbs_def def = {0};
    def.nbodies = 1;
    cosrod_mbs *m = build(&def, &k, &b);
    cosrod_mbs_data *d = m ? cosrod_mbs_data_create(m, NULL) : NULL;
    double y[12]; /* x, θ, v, Ω */
    CHECK("dopri5 on the Euler-angle ODE stops at the lock", d && run_mbs(m, d, "dopri5", T, 1e-8, y, NULL) != COSROD_OK);
    if (d) NOTE("dopri5: %s", cosrod_mbs_data_message(d));
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
  /* Ω constant (rotation about a principal axis): the group update is exact */
  CHECK_VEC("vs dop853 at 1e-12", qs[0], qs[2], 4, 0.0, 1e-11);
}

static const th_case cases[] = {TH_CASE(galpha_heavy_top_invariants_h2),
                                TH_CASE(galpha_symmetric_top_two_momenta_h2),
                                TH_CASE(galpha_heavy_top_second_order_vs_dop853),
                                TH_CASE(galpha_torque_free_precession),
                                TH_CASE(galpha_unit_quaternion_without_projection),
                                TH_CASE(galpha_double_pendulum_vs_minimal_coordinates),
                                TH_CASE(galpha_slider_repartitions),
                                TH_CASE(galpha_euler_angles_through_gimbal_lock)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
