// SPDX-License-Identifier: Apache-2.0
/* Analytic Jacobian of the multibody right-hand side (body_jac.c) against
 * its finite-difference twin on random states (off the constraint manifold:
 * |p| != 1, directors not orthonormal) for every parametrisation, with
 * gravity, all load kinds and translational bushings ([manual: modelling guide]: <= 1e-6
 * relative). */
#include <stdio.h>

#include "body_test_util.h"

static cosrod_mbs *model(cosrod_body_param param, cosrod_joint_form jf, int with_joint) {
  static cosrod_body_def b[2];
  static cosrod_body_load_def l[4];
  static cosrod_bushing_def bu[2];
  static cosrod_joint_def j;
  memset(b, 0, sizeof b);
  memset(l, 0, sizeof l);
  memset(bu, 0, sizeof bu);
  memset(&j, 0, sizeof j);
  for (int i = 0; i < 2; ++i) {
    b[i].mass = 1.5 + i;
    b[i].inertia[0] = 0.4 + 0.1 * i, b[i].inertia[1] = 0.6, b[i].inertia[2] = 0.7;
    double th[3] = {0.3 + i, 0.9, -0.4 + i};
    cosrod_quat_from_euler313(b[i].quaternion, th);
    b[i].param = param;
  }
  b[1].position[0] = 1.0;
  for (int k = 0; k < 4; ++k) {
    l[k].body = k % 2;
    l[k].kind = k < 2 ? COSROD_BODY_LOAD_FORCE : COSROD_BODY_LOAD_MOMENT;
    l[k].frame = (k % 2) ? COSROD_BODY_LOAD_BODY : COSROD_BODY_LOAD_SPATIAL;
    cosrod_vec3_set(l[k].at, 0.1 * k, -0.2, 0.3);
    cosrod_vec3_set(l[k].value, 1.0 + k, -2.0, 0.5 * k);
    l[k].profile = COSROD_BODY_LOAD_RAMP, l[k].t0 = 0.0, l[k].t1 = 1.0;
  }
  bu[0].body[0] = 0, bu[0].body[1] = 1;
  cosrod_vec3_set(bu[0].at[0], 0.2, 0.1, 0.0);
  cosrod_vec3_set(bu[0].at[1], -0.1, 0.0, 0.3);
  bu[0].k = 30.0, bu[0].c = 0.7;
  bu[1].body[0] = -1, bu[1].body[1] = 1; /* ground first */
  cosrod_vec3_set(bu[1].at[0], 0.0, 0.0, 1.0);
  cosrod_vec3_set(bu[1].at[1], 0.1, 0.2, -0.1);
  bu[1].k = 10.0, bu[1].c = 0.3;
  cosrod_mbs_def def = {0};
  def.nbodies = 2, def.bodies = b, def.nloads = 4, def.loads = l, def.nbushings = 2, def.bushings = bu;
  cosrod_vec3_set(def.gravity, 0.0, 0.0, -9.81);
  def.joint_form = jf;
  if (with_joint) {
    j.type = COSROD_JOINT_SPHERICAL;
    j.body[0] = 0, j.body[1] = -1;
    def.njoints = 1, def.joints = &j;
  }
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) NOTE("create: %s", cosrod_last_error());
  return m;
}

TEST(analytic_jacobian_matches_fd) {
  th_rng rng;
  th_rng_seed(&rng, 11);
  for (int param = 0; param < 3; ++param)
    for (int jf = 0; jf < 2; ++jf) {
      cosrod_mbs *m = model((cosrod_body_param)param, (cosrod_joint_form)jf, 0);
      CHECK("create", m != NULL);
      if (!m) continue;
      cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
      int n = cosrod_mbs_n(m);
      double *y = calloc((size_t)n, sizeof *y), *Ja = calloc((size_t)n * n, sizeof *Ja),
             *Jf = calloc((size_t)n * n, sizeof *Jf);
      double worst = 0.0;
      for (int trial = 0; trial < 5; ++trial) {
        cosrod_mbs_initial_state(m, y);
        for (int k = 0; k < n; ++k) y[k] += th_rng_uniform(&rng, -0.05, 0.05); /* off the manifold */
        for (int k = cosrod_mbs_nq(m); k < n; ++k) y[k] = th_rng_uniform(&rng, -3.0, 3.0);
        double t = 0.4;
        CHECK("analytic", cosrod_mbs_jac(m, d, t, y, Ja) == 0);
        CHECK("fd", cosrod_mbs_jac_fd(m, d, t, y, Jf, 1e-6) == 0);
        double jmax = 0.0, emax = 0.0;
        int kw = 0;
        for (int k = 0; k < n * n; ++k) {
          jmax = fmax(jmax, fabs(Jf[k]));
          if (fabs(Ja[k] - Jf[k]) > emax) emax = fabs(Ja[k] - Jf[k]), kw = k;
        }
        if (trial == 0) NOTE("worst entry (%d, %d): %.9g vs fd %.9g", kw % n, kw / n, Ja[kw], Jf[kw]);
        worst = fmax(worst, emax / jmax);
      }
      NOTE("%s, %s joints form: max |J - J_fd| / max |J| = %.3g",
           cosrod_body_param_name((cosrod_body_param)param), jf ? "multiplier" : "null-space", worst);
      CHECK_LE("relative error", worst, 1e-6);
      free(y), free(Ja), free(Jf);
      cosrod_mbs_data_free(d);
      cosrod_mbs_free(m);
    }
}

/* radau5 and rodas with the analytic Jacobian reach the dop853 solution */
TEST(implicit_integrators_with_analytic_jacobian) {
  cosrod_mbs *m = model(COSROD_BODY_QUATERNION, COSROD_JOINTS_NULLSPACE, 0);
  CHECK("create", m != NULL);
  if (!m) return;
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  CHECK("adapter sets the analytic Jacobian", p.jac != NULL);
  int n = cosrod_mbs_n(m);
  double *yr = calloc((size_t)n, sizeof *yr), *yi = calloc((size_t)n, sizeof *yi);
  CHECK("dop853", run_mbs(m, d, "dop853", 1.0, 1e-12, yr, NULL) == COSROD_OK);
  const char *meth[2] = {"radau5", "rodas"};
  for (int k = 0; k < 2; ++k) {
    CHECK("implicit run", run_mbs(m, d, meth[k], 1.0, 1e-10, yi, NULL) == COSROD_OK);
    double e = 0.0;
    for (int i = 0; i < cosrod_mbs_nq(m); ++i) e = fmax(e, fabs(yi[i] - yr[i]));
    NOTE("%s: max position difference to dop853 %.3g", meth[k], e);
    CHECK_LE("positions agree", e, 1e-7);
  }
  free(yr), free(yi);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
}

static const th_case cases[] = {TH_CASE(implicit_integrators_with_analytic_jacobian),
                                TH_CASE(analytic_jacobian_matches_fd)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
