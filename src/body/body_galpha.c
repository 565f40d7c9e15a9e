// SPDX-License-Identifier: Apache-2.0
/* Lie-group structure of a multibody model for the generalized-α
 * integrator (cosrod_step_galpha; Arnold & Brüls, Multibody Syst. Dyn. 18
 * (2007) [AB07]; Brüls, Cardona & Arnold, Mech. Mach. Theory 48 (2012)
 * [BCA12]): y = (q (nq), v (n - nq)) with q̇ = B(q) v, v̇ = f_v(t, q, v).
 *
 * Increment q ⊕ w (the configuration reached from q along the velocity w in
 * unit time), per body:
 *   x <- x + w_v                                  (R³)
 *   null-space bodies, w_Ω material (SO(3), [AB07] §2):
 *     quaternion  p <- p ∘ exp(½ w_Ω)              (|p| kept to round-off)
 *     directors   R <- R exp(E(w_Ω))               (orthonormality kept)
 *     euler-angles th <- th(R(th) exp(E(w_Ω)))     (the same rotation, read back
 *                                                   in the continuous branch)
 *   absolute bodies ([L] eq. 40 / 23, velocities ṙ): r <- r + w_ṙ, the
 *     vector-space generalized-α of Chung & Hulbert with the internal
 *     constraints restored by the projection hook after each step ([L] §6).
 * Null-space joints (one global ν, twists w = T(q) ν): the twist of the
 * increment is the second-order Taylor polynomial of the motion with
 * constant ν,
 *   W = T(q) w + ½ Ṫ(q, w) w     (Ṫ ν = [0; -J_d⁻¹ γ], body_eval.c),
 * applied per body as above.  The exponential with W = T w alone would make
 * the local error O(h²) (first order); with the Ṫ term the retraction
 * agrees with the constant-ν flow to O(|w|³), so the scheme keeps second
 * order and the joint constraints drift by O(h³) per step; the projection
 * hook (Gauss-Newton onto g = 0, body_project.c) removes that drift.
 * Joints with multipliers keep the per-body twists (v, Ω) or (v, ṙ) as
 * states: the multipliers are eliminated in the right-hand side
 * ([M J^T; J 0], index-1 form, body_joint.c) and the position and velocity
 * constraints are restored by the projection hook.
 *
 * Tangent Jacobians (cosrod_ode_jac_tangent) from the analytic dense
 * Jacobian J of f (cosrod_mbs_jac): q̇ = B(q) v is linear in v, so
 * B = ∂q̇/∂v = J_qv, and d(q ⊕ ε e_j)/dε at 0 = B e_j for every increment
 * above; hence K = J_vq J_qv and C = J_vv (dense nv x nv). */
#include <math.h>
#include <string.h>

#include "body_internal.h"

/* r <- r ⊕ a for a null-space body (a: material rotation increment). */
static void rotate(const mbs_body *b, const double *r, const double a[3], double *ro) {
  double e[4];
  switch (b->param) {
    case COSROD_BODY_QUATERNION:
      cosrod_quat_from_rotvec(e, a);
      cosrod_quat_mul(ro, r, e);
      break;
    case COSROD_BODY_DIRECTORS: {
      double E[9];
      cosrod_quat_from_rotvec(e, a);
      cosrod_quat_to_matrix(E, e);
      for (int j = 0; j < 3; ++j) /* column j of R E */
        for (int i = 0; i < 3; ++i)
          ro[i + 3 * j] = r[i] * E[3 * j] + r[i + 3] * E[1 + 3 * j] + r[i + 6] * E[2 + 3 * j];
      break;
    }
    default:
      memcpy(ro, r, 3 * sizeof *ro);
      mbs_rotate_body(b, ro, a);
      break;
  }
}

int cosrod_mbs_increment(const cosrod_mbs *m, cosrod_mbs_data *d, const double *q, const double *w, double *qn) {
  const int nq = m->nq;
  const double *tw = NULL; /* (nw) twists of the increment (null-space joints) */
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    double *ys = d->y1;
    memcpy(ys, q, (size_t)nq * sizeof *ys);
    memcpy(ys + nq, w, (size_t)(m->n - nq) * sizeof *ys);
    if (mbs_kinematics(m, d, d->t, ys)) return -1;
    for (int i = 0; i < m->nw; ++i) d->wd[i] = d->w[i] + 0.5 * d->bias[i];
    tw = d->wd;
  }
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    const double *wb = tw ? tw + 6 * i : w + (b->voff - nq);
    const double *xb = q + b->qoff;
    double *xo = qn + b->qoff;
    for (int k = 0; k < 3; ++k) xo[k] = xb[k] + wb[k];
    if (b->absolute)
      for (int k = 0; k < b->nr; ++k) xo[3 + k] = xb[3 + k] + wb[3 + k];
    else
      rotate(b, xb + 3, wb + 3, xo + 3);
  }
  return 0;
}

static int lie_increment(const double *q, const double *w, double *qn, void *user) {
  cosrod_mbs_data *d = user;
  return cosrod_mbs_increment(d->m, d, q, w, qn);
}

static int lie_jac_tangent(double t, const double *y, double *K, double *C, int ld, void *user) {
  cosrod_mbs_data *d = user;
  const cosrod_mbs *m = d->m;
  const int n = m->n, nq = m->nq, nv = n - nq, mu = nv - 1;
  const double *J = d->Jbuf;
  if (cosrod_mbs_jac(m, d, t, y, d->Jbuf)) return -1;
#define JA(i, j) J[(size_t)(j) * (size_t)n + (size_t)(i)]
  for (int c = 0; c < nv; ++c) {
    double *Kc = K + (size_t)c * (size_t)ld + (size_t)(mu - c), *Cc = C + (size_t)c * (size_t)ld + (size_t)(mu - c);
    for (int i = 0; i < nv; ++i) {
      double s = 0.0;
      for (int j = 0; j < nq; ++j) s += JA(nq + i, j) * JA(j, nq + c);
      Kc[i] = s;
      Cc[i] = JA(nq + i, nq + c);
    }
  }
#undef JA
  return 0;
}

void cosrod_mbs_lie_problem(cosrod_ode_problem *p, cosrod_mbs_data *d) {
  const cosrod_mbs *m = d->m;
  p->lie_nq = m->nq;
  p->increment = lie_increment;
  p->jac_tangent = lie_jac_tangent;
  p->lie_ml = p->lie_mu = m->n - m->nq - 1; /* dense */
}
