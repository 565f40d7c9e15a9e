// SPDX-License-Identifier: Apache-2.0
/* The bodies of a simulation as the public interface shows them (sim.h):
 * pose, twist, inertia ellipsoid, joint reactions of the last evaluation
 * (through the system's accessors, system/couple.h). */
#include "cosrod/body.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "sim/sim_internal.h"

size_t cosrod_sim_nbodies(const cosrod_sim *s) { return s ? sim_couple_nbodies(&s->sys) : 0; }

cosrod_status cosrod_sim_body(const cosrod_sim *s, size_t b, double x[3], double q[4], double Omega[3]) {
  if (!s || b >= sim_couple_nbodies(&s->sys)) return COSROD_ERR_INVALID;
  double xb[3], qb[4];
  sim_couple_body_pose(&s->sys, b, xb, qb);
  if (x) cosrod_vec3_copy(x, xb);
  if (q) cosrod_quat_copy(q, qb);
  if (Omega) { /* material components */
    double qc[4], w[3];
    sim_couple_body_twist(&s->sys, b, NULL, w);
    cosrod_quat_conj(qc, qb);
    cosrod_quat_rotate(Omega, qc, w);
  }
  return COSROD_OK;
}

cosrod_status cosrod_sim_body_velocity(const cosrod_sim *s, size_t b, double v[3]) {
  if (!s || b >= sim_couple_nbodies(&s->sys) || !v) return COSROD_ERR_INVALID;
  sim_couple_body_twist(&s->sys, b, v, NULL);
  return COSROD_OK;
}

cosrod_status cosrod_sim_body_ellipsoid(const cosrod_sim *s, size_t b, double semi[3], double q_axes[4]) {
  if (!s || b >= sim_couple_nbodies(&s->sys) || !semi || !q_axes) return COSROD_ERR_INVALID;
  int mb = sim_couple_model_index(&s->sys, b);
  const cosrod_mbs *m = sim_couple_mbs(&s->sys);
  if (!m || mb < 0) return COSROD_ERR_UNSUPPORTED; /* a kinematic (keyframe) body */
  cosrod_mbs_body_ellipsoid(m, (size_t)mb, semi, q_axes);
  return COSROD_OK;
}

size_t cosrod_sim_njoints(const cosrod_sim *s) {
  if (!s || !sim_couple_mbs(&s->sys)) return 0;
  size_t n = 0;
  for (size_t j = 0; j < s->sc->njoints; ++j) n += s->sc->joints[j].type != COSROD_SC_JOINT_BUSHING;
  return n;
}

cosrod_status cosrod_sim_joint_reactions(const cosrod_sim *s, double *R) {
  if (!s || !R || !s->sys.d->cpl) return COSROD_ERR_INVALID;
  if (s->sys.d->cst && s->analysis != COSROD_SC_ANALYSIS_DYNAMIC) return sim_couple_static_joint_reactions(s, R);
  if (!sim_couple_mbs(&s->sys) || cosrod_sim_njoints(s) == 0) return COSROD_OK;
  return sim_couple_joint_reactions(&s->sys, R);
}
