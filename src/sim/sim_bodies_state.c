/* The bodies of a simulation as the public interface shows them (sim.h):
 * pose, twist, inertia ellipsoid, joint reactions of the last evaluation. */
#include "cosrod/body.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "system/couple_internal.h"
#include "sim/sim_internal.h"

size_t cosrod_sim_nbodies(const cosrod_sim *s) { return s && s->cpl ? s->cpl->nb : 0; }

cosrod_status cosrod_sim_body(const cosrod_sim *s, size_t b, double x[3], double q[4], double Omega[3]) {
  if (!s || !s->cpl || b >= s->cpl->nb) return COSROD_ERR_INVALID;
  const sim_couple *cp = s->cpl;
  if (x) cosrod_vec3_copy(x, cp->bx + 3 * b);
  if (q) cosrod_quat_copy(q, cp->bq + 4 * b);
  if (Omega) { /* material components */
    double qc[4];
    cosrod_quat_conj(qc, cp->bq + 4 * b);
    cosrod_quat_rotate(Omega, qc, cp->bw + 3 * b);
  }
  return COSROD_OK;
}

cosrod_status cosrod_sim_body_velocity(const cosrod_sim *s, size_t b, double v[3]) {
  if (!s || !s->cpl || b >= s->cpl->nb || !v) return COSROD_ERR_INVALID;
  cosrod_vec3_copy(v, s->cpl->bv + 3 * b);
  return COSROD_OK;
}

cosrod_status cosrod_sim_body_ellipsoid(const cosrod_sim *s, size_t b, double semi[3], double q_axes[4]) {
  if (!s || !s->cpl || b >= s->cpl->nb || !semi || !q_axes) return COSROD_ERR_INVALID;
  int mb = s->cpl->bmap[b];
  if (!s->cpl->m || mb < 0) return COSROD_ERR_UNSUPPORTED; /* a kinematic (keyframe) body */
  cosrod_mbs_body_ellipsoid(s->cpl->m, (size_t)mb, semi, q_axes);
  return COSROD_OK;
}

size_t cosrod_sim_njoints(const cosrod_sim *s) {
  if (!s || !s->cpl || !s->cpl->m) return 0;
  size_t n = 0;
  for (size_t j = 0; j < s->sc->njoints; ++j) n += s->sc->joints[j].type != COSROD_SC_JOINT_BUSHING;
  return n;
}

cosrod_status cosrod_sim_joint_reactions(const cosrod_sim *s, double *R) {
  if (!s || !R || !s->cpl) return COSROD_ERR_INVALID;
  if (s->cst && s->analysis != COSROD_SC_ANALYSIS_DYNAMIC) return sim_couple_static_joint_reactions(s, R);
  const sim_couple *cp = s->cpl;
  if (!cp->m || cosrod_sim_njoints(s) == 0) return COSROD_OK;
  /* the rods' wrenches on the bodies of the last evaluation are set in d */
  return cosrod_mbs_joint_reactions(cp->m, cp->d, cp->t, cp->ym, R) == 0 ? COSROD_OK : COSROD_ERR_NONFINITE;
}

