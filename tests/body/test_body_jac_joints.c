// SPDX-License-Identifier: Apache-2.0
/* Analytic Jacobian of the multibody right-hand side for joints (every type,
 * both joint formulations), absolute bodies ([L] eq. 40 / eq. 23) and
 * rotational bushings (body_tangent.c) against central differences of the
 * right-hand side (cosrod_mbs_jac_fd, h = 1e-6 relative) on random states
 * off the constraint manifolds.  Central differences have truncation error
 * O(h^2 |f'''|) ~ 1e-12 and round-off O(eps |f| / h) ~ 1e-10 |f|; with |f|
 * up to ~1e2 for these states the differences are good to ~1e-8 of max |J|,
 * so the bound 1e-6 relative ([manual: modelling guide]) leaves margin while a wrong term
 * (O(1) relative) fails it.  Each case: 2 bodies, body 0 on a spherical
 * joint to ground, the joint under test between bodies 0 and 1, gravity,
 * a body-frame force, a spatial moment, a translational + rotational bushing. */
#include <stdio.h>

#include "body_test_util.h"

typedef struct combo {
  cosrod_body_param param;
  cosrod_body_form bf;
  cosrod_joint_form jf;
} combo;

static const combo combos[] = {
    {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE},
    {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_MULTIPLIERS},
    {COSROD_BODY_QUATERNION, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS},
    {COSROD_BODY_DIRECTORS, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE},
    {COSROD_BODY_DIRECTORS, COSROD_BODY_NULLSPACE, COSROD_JOINTS_MULTIPLIERS},
    {COSROD_BODY_DIRECTORS, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS},
    {COSROD_BODY_EULER313, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE},
    {COSROD_BODY_EULER313, COSROD_BODY_NULLSPACE, COSROD_JOINTS_MULTIPLIERS},
};
#define NCOMBO (sizeof combos / sizeof combos[0])

static const char *form_name(const combo *c) {
  if (c->bf == COSROD_BODY_ABSOLUTE) return "absolute bodies, multipliers";
  return c->jf == COSROD_JOINTS_NULLSPACE ? "null-space joints" : "multipliers";
}

static void rot_apply(double r[3], const double q[4], const double v[3]) { cosrod_quat_rotate(r, q, v); }

/* jt < 0: no joints (bushings only). */
static cosrod_mbs *model(int jt, const combo *c) {
  static cosrod_body_def b[2];
  static cosrod_body_load_def l[2];
  static cosrod_bushing_def bu;
  static cosrod_joint_def j[2];
  memset(b, 0, sizeof b);
  memset(l, 0, sizeof l);
  memset(&bu, 0, sizeof bu);
  memset(j, 0, sizeof j);
  for (int i = 0; i < 2; ++i) {
    b[i].mass = 1.5 + i;
    cosrod_vec3_set(b[i].inertia, 0.4 + 0.1 * i, 0.6, 0.7 + 0.2 * i);
    double th[3] = {0.3 + i, 0.9 + 0.3 * i, -0.4 + i};
    cosrod_quat_from_euler313(b[i].quaternion, th);
    b[i].param = c->param;
  }
  /* body 0 hangs from ground at (0, 0, 1) by its point (0.1, 0.2, 0.5) */
  double a0[3] = {0.1, 0.2, 0.5}, a1[3] = {-0.2, 0.1, -0.4}, p0[3] = {0.3, -0.2, 0.1}, r[3];
  cosrod_vec3_set(j[0].at[1], 0.0, 0.0, 1.0);
  cosrod_vec3_copy(j[0].at[0], a0);
  rot_apply(r, b[0].quaternion, a0);
  cosrod_vec3_sub(b[0].position, j[0].at[1], r);
  j[0].type = COSROD_JOINT_SPHERICAL, j[0].body[0] = 0, j[0].body[1] = -1;
  /* joint under test: point p0 of body 0 coincides with point a1 of body 1 */
  double c0[3], r1[3];
  rot_apply(r, b[0].quaternion, p0);
  cosrod_vec3_add(c0, b[0].position, r);
  rot_apply(r1, b[1].quaternion, a1);
  cosrod_vec3_sub(b[1].position, c0, r1);
  j[1].type = (cosrod_joint_type)(jt < 0 ? 0 : jt);
  j[1].body[0] = 0, j[1].body[1] = 1;
  cosrod_vec3_copy(j[1].at[0], p0);
  cosrod_vec3_copy(j[1].at[1], a1);
  cosrod_vec3_set(j[1].axis, 0.6, 0.0, 0.8);
  { /* universal: second axis (body 1 frame) orthogonal to the first in space */
    double as[3], bs[3], e[3] = {0.0, 1.0, 0.0}, qc[4];
    rot_apply(as, b[0].quaternion, j[1].axis);
    cosrod_vec3_cross(bs, as, e);
    cosrod_vec3_normalise(bs, bs);
    cosrod_quat_conj(qc, b[1].quaternion);
    rot_apply(j[1].axis2, qc, bs);
  }
  for (int i = 0; i < 2; ++i) {
    cosrod_vec3_set(b[i].velocity, 0.1, -0.2 * i, 0.05);
    cosrod_vec3_set(b[i].omega, 0.5, -0.3 + i, 0.8);
  }
  l[0].body = 1, l[0].kind = COSROD_BODY_LOAD_FORCE, l[0].frame = COSROD_BODY_LOAD_BODY;
  cosrod_vec3_set(l[0].at, 0.1, -0.2, 0.3);
  cosrod_vec3_set(l[0].value, 1.0, -2.0, 0.5);
  l[1].body = 0, l[1].kind = COSROD_BODY_LOAD_MOMENT, l[1].frame = COSROD_BODY_LOAD_SPATIAL;
  cosrod_vec3_set(l[1].value, 0.3, 0.2, -0.7);
  l[0].profile = l[1].profile = COSROD_BODY_LOAD_RAMP, l[0].t1 = l[1].t1 = 1.0;
  bu.body[0] = 1, bu.body[1] = jt < 0 ? 0 : -1;
  cosrod_vec3_set(bu.at[0], 0.2, 0.1, 0.0);
  cosrod_vec3_set(bu.at[1], -0.1, 0.0, 0.3);
  bu.k = 30.0, bu.c = 0.7, bu.k_rot = 5.0, bu.c_rot = 0.4;
  cosrod_mbs_def def = {0};
  def.nbodies = 2, def.bodies = b, def.nloads = 2, def.loads = l, def.nbushings = 1, def.bushings = &bu;
  def.njoints = jt < 0 ? 0 : 2, def.joints = j;
  cosrod_vec3_set(def.gravity, 0.0, 0.0, -9.81);
  def.body_form = c->bf, def.joint_form = c->jf;
  if (c->jf == COSROD_JOINTS_MULTIPLIERS) def.baumgarte_omega = 20.0, def.baumgarte_r = 0.7;
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) NOTE("create: %s", cosrod_last_error());
  return m;
}

/* max over trials of max |J - J_fd| / max |J_fd| */
static double jac_error(cosrod_mbs *m, unsigned seed) {
  th_rng rng;
  th_rng_seed(&rng, seed);
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  int n = cosrod_mbs_n(m), nq = cosrod_mbs_nq(m);
  double *y = calloc((size_t)n, sizeof *y), *Ja = calloc((size_t)n * n, sizeof *Ja),
         *Jf = calloc((size_t)n * n, sizeof *Jf);
  double worst = 0.0;
  for (int trial = 0; trial < 3; ++trial) {
    cosrod_mbs_initial_state(m, y);
    for (int k = 0; k < nq; ++k) y[k] += th_rng_uniform(&rng, -0.03, 0.03); /* off the manifold */
    for (int k = nq; k < n; ++k) y[k] = th_rng_uniform(&rng, -2.0, 2.0);
    double t = 0.4;
    int ra = cosrod_mbs_jac(m, d, t, y, Ja), rf = cosrod_mbs_jac_fd(m, d, t, y, Jf, 1e-6);
    CHECK("analytic Jacobian evaluates", ra == 0);
    CHECK("fd Jacobian evaluates", rf == 0);
    if (ra || rf) {
      NOTE("%s", cosrod_mbs_data_message(d));
      worst = INFINITY;
      break;
    }
    double jmax = 0.0, emax = 0.0;
    int kw = 0;
    for (int k = 0; k < n * n; ++k) {
      jmax = fmax(jmax, fabs(Jf[k]));
      if (fabs(Ja[k] - Jf[k]) > emax) emax = fabs(Ja[k] - Jf[k]), kw = k;
    }
    if (emax / jmax > 1e-6) NOTE("  worst entry (%d, %d): %.9g vs fd %.9g", kw % n, kw / n, Ja[kw], Jf[kw]);
    worst = fmax(worst, emax / jmax);
  }
  free(y), free(Ja), free(Jf);
  cosrod_mbs_data_free(d);
  return worst;
}

static void check_joint(int jt, const char *name) {
  for (size_t c = 0; c < NCOMBO; ++c) {
    cosrod_mbs *m = model(jt, &combos[c]);
    CHECK("create", m != NULL);
    if (!m) continue;
    double e = jac_error(m, 100u + (unsigned)c + 17u * (unsigned)(jt + 1));
    NOTE("%s, %s, %s: max |J - J_fd| / max |J| = %.3g", name, cosrod_body_param_name(combos[c].param),
         form_name(&combos[c]), e);
    CHECK_LE("relative error", e, 1e-6);
    cosrod_mbs_free(m);
  }
}

TEST(jacobian_spherical) { check_joint(COSROD_JOINT_SPHERICAL, "spherical"); }
TEST(jacobian_revolute) { check_joint(COSROD_JOINT_REVOLUTE, "revolute"); }
TEST(jacobian_prismatic) { check_joint(COSROD_JOINT_PRISMATIC, "prismatic"); }
TEST(jacobian_cylindrical) { check_joint(COSROD_JOINT_CYLINDRICAL, "cylindrical"); }
TEST(jacobian_universal) { check_joint(COSROD_JOINT_UNIVERSAL, "universal"); }
TEST(jacobian_planar) { check_joint(COSROD_JOINT_PLANAR, "planar"); }
TEST(jacobian_fixed) { check_joint(COSROD_JOINT_FIXED, "fixed"); }
/* no joints: absolute bodies and the rotational bushing between two bodies */
TEST(jacobian_bushings_absolute_bodies) { check_joint(-1, "no joints"); }

/* radau5 with the analytic Jacobian reaches the dop853 solution of a model
 * with joints (multipliers and null space), absolute bodies and bushings */
TEST(radau5_with_tangent_jacobian) {
  static const combo cc[3] = {{COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_NULLSPACE},
                              {COSROD_BODY_QUATERNION, COSROD_BODY_NULLSPACE, COSROD_JOINTS_MULTIPLIERS},
                              {COSROD_BODY_DIRECTORS, COSROD_BODY_ABSOLUTE, COSROD_JOINTS_MULTIPLIERS}};
  for (int c = 0; c < 3; ++c) {
    cosrod_mbs *m = model(COSROD_JOINT_REVOLUTE, &cc[c]);
    CHECK("create", m != NULL);
    if (!m) continue;
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    cosrod_ode_problem p;
    cosrod_mbs_ode_problem(&p, d);
    CHECK("adapter sets the analytic Jacobian", p.jac != NULL);
    int n = cosrod_mbs_n(m);
    double *yr = calloc((size_t)n, sizeof *yr), *yi = calloc((size_t)n, sizeof *yi);
    CHECK("dop853", run_mbs(m, d, "dop853", 0.5, 1e-11, yr, NULL) == COSROD_OK);
    CHECK("radau5", run_mbs(m, d, "radau5", 0.5, 1e-9, yi, NULL) == COSROD_OK);
    double e = 0.0;
    for (size_t b = 0; b < 2; ++b) {
      int o = cosrod_mbs_pos_offset(m, b);
      for (int k = 0; k < 3; ++k) e = fmax(e, fabs(yi[o + k] - yr[o + k]));
    }
    NOTE("%s, %s: radau5 vs dop853 max centre difference %.3g", cosrod_body_param_name(cc[c].param),
         form_name(&cc[c]), e);
    CHECK_LE("positions agree", e, 1e-6);
    free(yr), free(yi);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

static const th_case cases[] = {TH_CASE(jacobian_spherical),
                                TH_CASE(jacobian_revolute),
                                TH_CASE(jacobian_prismatic),
                                TH_CASE(jacobian_cylindrical),
                                TH_CASE(jacobian_universal),
                                TH_CASE(jacobian_planar),
                                TH_CASE(jacobian_fixed),
                                TH_CASE(jacobian_bushings_absolute_bodies),
                                TH_CASE(radau5_with_tangent_jacobian)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
