// SPDX-License-Identifier: Apache-2.0
/* Pose Jacobian of the bodies (cosrod_mbs_pose_jac, body_pose_jac.c) against
 * central differences of cosrod_mbs_body_state (x, q, v, Omega in the user
 * frame) for every parametrisation, null-space and absolute body forms, a
 * full inertia tensor (principal axes != user frame) and a spherical joint
 * in both joint formulations, at random states. */
#include <stdio.h>

#include "body_test_util.h"

static cosrod_mbs *model(cosrod_body_param param, cosrod_body_form bf, cosrod_joint_form jf, int joint) {
  static cosrod_body_def b[2];
  static cosrod_joint_def j;
  memset(b, 0, sizeof b);
  memset(&j, 0, sizeof j);
  for (int i = 0; i < 2; ++i) {
    b[i].mass = 1.5 + i;
    b[i].full_tensor = 1; /* principal axes rotated against the user frame */
    double T[9] = {0.5, 0.05, -0.02, 0.05, 0.6, 0.03, -0.02, 0.03, 0.7};
    memcpy(b[i].tensor, T, sizeof T);
    double th[3] = {0.3 + i, 0.9, -0.4 + i};
    cosrod_quat_from_euler313(b[i].quaternion, th);
    cosrod_vec3_set(b[i].omega, 0.4, -1.0 + i, 0.7);
    b[i].param = param;
  }
  b[1].position[0] = 1.0;
  cosrod_mbs_def def = {0};
  def.nbodies = 2, def.bodies = b;
  cosrod_vec3_set(def.gravity, 0.0, 0.0, -9.81);
  def.body_form = bf;
  def.joint_form = jf;
  if (joint) { /* body 1's point at [-0.5, 0, 0] is body 0's centre */
    j.type = COSROD_JOINT_SPHERICAL;
    j.body[0] = 0, j.body[1] = 1;
    cosrod_vec3_set(j.at[0], 0.0, 0.0, 0.0);
    double qc[4], r[3], mr[3] = {-1.0, 0.0, 0.0};
    cosrod_quat_conj(qc, b[1].quaternion);
    cosrod_quat_rotate(r, qc, mr);
    cosrod_vec3_copy(j.at[1], r);
    def.njoints = 1, def.joints = &j;
  }
  cosrod_status st;
  cosrod_mbs *m = cosrod_mbs_create(&def, &st);
  if (!m) NOTE("create: %s", cosrod_last_error());
  return m;
}

static void pose(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, size_t b, const double *qref,
                 double o[13]) {
  cosrod_mbs_body_state(m, d, y, b, o, o + 3, o + 7, o + 10);
  if (qref && cosrod_quat_dot(o + 3, qref) < 0)
    for (int k = 3; k < 7; ++k) o[k] = -o[k];
}

static void check(cosrod_body_param param, cosrod_body_form bf, cosrod_joint_form jf, int joint) {
  cosrod_mbs *m = model(param, bf, jf, joint);
  CHECK("create", m != NULL);
  if (!m) return;
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  const int n = cosrod_mbs_n(m), nb = (int)cosrod_mbs_nbodies(m);
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  double *P = calloc((size_t)nb * 13 * (size_t)n, sizeof *P);
  th_rng rng;
  th_rng_seed(&rng, 5);
  double worst = 0.0;
  for (int trial = 0; trial < 3; ++trial) {
    cosrod_mbs_initial_state(m, y);
    /* the joint must hold for the null-space partition: perturb velocities only then */
    if (!joint)
      for (int k = 0; k < cosrod_mbs_nq(m); ++k) y[k] += th_rng_uniform(&rng, -0.05, 0.05);
    for (int k = cosrod_mbs_nq(m); k < n; ++k) y[k] += th_rng_uniform(&rng, -1.0, 1.0);
    const double t = 0.2;
    CHECK("pose jac", cosrod_mbs_pose_jac(m, d, t, y, P) == 0);
    for (int b = 0; b < nb; ++b) {
      double o0[13], op[13], om[13];
      pose(m, d, y, (size_t)b, NULL, o0);
      for (int j = 0; j < n; ++j) {
        /* central differences, h = 1e-6: truncation ~1e-12, round-off ~1e-10 */
        const double h = 1e-6;
        memcpy(yp, y, (size_t)n * sizeof *yp);
        yp[j] = y[j] + h;
        pose(m, d, yp, (size_t)b, o0 + 3, op);
        yp[j] = y[j] - h;
        pose(m, d, yp, (size_t)b, o0 + 3, om);
        for (int i = 0; i < 13; ++i) {
          double fd = (op[i] - om[i]) / (2.0 * h),
                 a = P[13 * ((size_t)n * (size_t)b + (size_t)j) + (size_t)i];
          double e = fabs(a - fd) / (1.0 + fabs(fd));
          if (e > worst) worst = e;
        }
      }
    }
  }
  NOTE("param %d, body form %d, joint form %d (%s): worst |analytic - fd| / (1 + |fd|) = %.3g", (int)param,
       (int)bf, (int)jf, joint ? "spherical" : "none", worst);
  /* 1e-7: the differences are good to ~1e-9; a wrong term is O(1) */
  CHECK_LE("pose Jacobian = central differences", worst, 1e-7);
  free(y), free(yp), free(P);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
}

TEST(pose_jac_matches_fd) {
  for (int param = 0; param < 3; ++param)
    for (int bf = 0; bf < 2; ++bf) /* absolute bodies go with multipliers */
      check((cosrod_body_param)param, (cosrod_body_form)bf,
            bf ? COSROD_JOINTS_MULTIPLIERS : COSROD_JOINTS_NULLSPACE, 0);
}
TEST(pose_jac_matches_fd_joint) {
  for (int param = 0; param < 3; ++param)
    for (int jf = 0; jf < 3;
         ++jf) /* null-space bodies with both joint forms, absolute bodies with multipliers */
      check((cosrod_body_param)param, jf == 2 ? COSROD_BODY_ABSOLUTE : COSROD_BODY_NULLSPACE,
            jf == 0 ? COSROD_JOINTS_NULLSPACE : COSROD_JOINTS_MULTIPLIERS, 1);
}

static const th_case cases[] = {
    TH_CASE(pose_jac_matches_fd),
    TH_CASE(pose_jac_matches_fd_joint),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
