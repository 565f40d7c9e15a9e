// SPDX-License-Identifier: Apache-2.0
/* Tangent (directional derivative) of the multibody right-hand side, for
 * every model: joints in both formulations, absolute bodies ([L] eq. 40 /
 * eq. 23) and rotational bushings.  mbs_tan_eval gives ydot' = f_y(t, y) dy
 * at the point of the last cosrod_mbs_rhs, by the product rule applied to
 * each stage of body_eval.c (exactly as coded, also off the manifolds):
 *   1. dR_b = sum_k dR/dr_k dr_k; twists: w' from the state, from (r, rdot)'
 *      for absolute bodies, or, null-space joints (J w = 0, w_ind = nu):
 *      w_dep' = -J_d^-1 (J' w + J_ind nu');
 *   2. rows: g', J', gamma' of the two primitives (body_joint.c);
 *   3. forces: loads, bushings (translational and the quaternion rotational
 *      spring, Spurrier-Klumpp for directors), gyroscopic torque;
 *   4. multipliers: S lambda = b, S = J M^-1 J^T:
 *        lambda' = S^-1 (b' - J' M^-1 J^T lambda - J M^-1 J'^T lambda),
 *        hc' = -J'^T lambda - J^T lambda';
 *      null space ([L] eq. 11): wdot = beta + T nudot, J beta = -gamma,
 *        T^T (M wdot - h) = 0, T = [I; -J_d^-1 J_i] gives T' = -P J_d^-1 J' T
 *        and, with mu = J_d^-T (M wdot - h)_dep,
 *        A nudot' = T^T (h' - M beta' + J'^T mu),  J_d beta'_dep = -(J' wdot + gamma')_dep;
 *      absolute quaternion: eq. 40 differentiated; absolute directors: the
 *        15 x 15 system of eq. 23, x' = D^-1 (rhs' - D' x) (body_tangent_abs.c);
 *   5. kinematics: rdot' = T_r(r) Omega' + T_r'(r) Omega.
 * The dense Jacobian (cosrod_mbs_jac) is n such tangents with dy = e_j. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "body_tangent.h"

mbs_tan *mbs_tan_create(const cosrod_mbs *m) {
  mbs_tan *tn = calloc(1, sizeof *tn);
  if (!tn) return NULL;
  size_t nb = m->nb, nw = (size_t)m->nw, nc = (size_t)m->nc;
  tn->dRdr = calloc(81 * nb + 1, sizeof(double));
  tn->dR = calloc(9 * nb + 1, sizeof(double));
  tn->dw = calloc(nw + 1, sizeof(double));
  tn->dh = calloc(nw + 1, sizeof(double));
  tn->dht = calloc(nw + 1, sizeof(double));
  tn->htot = calloc(nw + 1, sizeof(double));
  tn->wd = calloc(nw + 1, sizeof(double));
  tn->lam = calloc(nc + 1, sizeof(double));
  tn->dJ = calloc(nc * nw + 1, sizeof(double));
  tn->dg = calloc(nc + 1, sizeof(double));
  tn->dgam = calloc(nc + 1, sizeof(double));
  tn->dgt = calloc(nc + 1, sizeof(double));
  tn->v1 = calloc(nw + nc + 1, sizeof(double));
  tn->v2 = calloc(nw + nc + 1, sizeof(double));
  tn->x15 = calloc(15 * nb + 1, sizeof(double));
  tn->D15 = calloc(nb + 1, sizeof *tn->D15);
  tn->pact = calloc(nb + 1, sizeof(int));
  tn->js = calloc(2 * m->nj + 1, sizeof *tn->js);
  tn->mass = calloc(nw + 1, sizeof(double));
  tn->minv = calloc(nw + 1, sizeof(double));
  tn->bs = calloc(2 * m->nbu + 1, sizeof *tn->bs);
  tn->act = calloc(nb + 1, sizeof(int));
  int ok = tn->pact && tn->act && tn->js && tn->bs && tn->mass && tn->minv && tn->dRdr && tn->dR && tn->dw &&
           tn->dh && tn->dht && tn->htot && tn->wd && tn->lam && tn->dJ && tn->dg && tn->dgam && tn->dgt &&
           tn->v1 && tn->v2 && tn->x15 && tn->D15;
  for (size_t i = 0; ok && i < nb; ++i)
    if (m->bodies[i].absolute && m->bodies[i].param == COSROD_BODY_DIRECTORS)
      ok = (tn->D15[i] = cosrod_dense_create(15, NULL)) != NULL;
  if (ok && nc && m->joint_form == COSROD_JOINTS_NULLSPACE)
    ok = (tn->JdT = cosrod_dense_create((int)nc, NULL)) != NULL;
  if (!ok) {
    mbs_tan_free(tn, nb);
    return NULL;
  }
  for (size_t j = 0; j < nw; ++j) {
    const mbs_body *b = &m->bodies[j / 6];
    tn->mass[j] = j % 6 < 3 ? b->mass : b->inertia[j % 6 - 3];
    tn->minv[j] = 1.0 / tn->mass[j];
  }
  return tn;
}

void mbs_tan_free(mbs_tan *tn, size_t nb) {
  if (!tn) return;
  free(tn->dRdr), free(tn->dR), free(tn->dw), free(tn->dh), free(tn->dht), free(tn->htot), free(tn->wd);
  free(tn->lam), free(tn->dJ), free(tn->dg), free(tn->dgam), free(tn->dgt), free(tn->v1), free(tn->v2),
      free(tn->x15);
  if (tn->D15)
    for (size_t i = 0; i < nb; ++i) cosrod_dense_free(tn->D15[i]);
  free(tn->D15);
  free(tn->pact), free(tn->act), free(tn->js), free(tn->bs), free(tn->mass), free(tn->minv);
  cosrod_dense_free(tn->JdT);
  free(tn);
}

/* ---- driver ----------------------------------------------------------------- */

/* After cosrod_mbs_rhs(t, y): save the base point and factor what the
 * tangents need.  Returns 0 or -1. */
int mbs_tan_prepare(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y) {
  mbs_tan *tn = d->tan;
  int nw = m->nw, nc = m->nc;
  memcpy(tn->htot, d->tmp, (size_t)nw * sizeof(double));
  memcpy(tn->wd, d->wd, (size_t)nw * sizeof(double));
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    static const double E3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double D[27];
    for (int c = 0; c < 3; ++c) { /* d(R e_c)/dr -> rows 3c .. 3c + 2 of d vec(R)/dr */
      mbs_dR_apply(b, y + b->qoff + 3, E3[c], 0, D);
      for (int k = 0; k < b->nr; ++k)
        for (int a = 0; a < 3; ++a) tn->dRdr[81 * i + (3 * c + a) + 9 * k] = D[a + 3 * k];
    }
  }
  for (size_t j = 0; j < m->nj; ++j)
    for (int k = 0; k < 2; ++k)
      mbs_tside_values(m, d, y, m->joints[j].body[k], m->joints[j].at[k], &tn->js[2 * j + k]);
  for (size_t j = 0; j < m->nbu; ++j)
    for (int k = 0; k < 2; ++k)
      mbs_tside_values(m, d, y, m->bushings[j].body[k], m->bushings[j].at[k], &tn->bs[2 * j + k]);
  if (m->joint_form == COSROD_JOINTS_MULTIPLIERS) {
    memcpy(tn->lam, d->lam, (size_t)nc * sizeof(double));
  } else if (nc > 0) {
    /* mu = J_d^-T (M wdot - h_tot)_dep */
    for (int i = 0; i < nc; ++i) {
      int j = d->cur_dep[i];
      const mbs_body *b = &m->bodies[j / 6];
      double mj = j % 6 < 3 ? b->mass : b->inertia[j % 6 - 3];
      tn->lam[i] = mj * tn->wd[j] - tn->htot[j];
      for (int k = 0; k < nc; ++k) cosrod_dense_set(tn->JdT, i, k, d->Jc[k + nc * j]);
    }
    if (cosrod_dense_factor(tn->JdT) != COSROD_OK) return -1;
    cosrod_dense_solve(tn->JdT, tn->lam);
  }
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    if (!tn->D15[i]) continue;
    const double *r = y + b->qoff + 3, *rd = y + b->voff + 3;
    double mu[3];
    for (int k = 0; k < 3; ++k) mu[k] = d->h[6 * i + 3 + k] + d->hc[6 * i + 3 + k];
    cosrod_dense *D = tn->D15[i];
    cosrod_dense_zero(D);
    for (int k = 0; k < 3; ++k)
      for (int a = 0; a < 3; ++a) cosrod_dense_set(D, 3 * k + a, 3 * k + a, b->euler[k]);
    mbs_d15_constraints(D->data, r);
    mbs_d15_rhs(tn->x15 + 15 * i, r, rd, mu);
    if (cosrod_dense_factor(D) != COSROD_OK) return -1;
    cosrod_dense_solve(D, tn->x15 + 15 * i);
  }
  return 0;
}

/* 1. R_b' = sum_k dR/dr_k dr_k and the flag of a nonzero position tangent. */
static void tan_rotations(const cosrod_mbs *m, mbs_tan *tn, const double *dy) {
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    const double *dr = dy + b->qoff + 3, *G = tn->dRdr + 81 * i;
    double *dR = tn->dR + 9 * i;
    memset(dR, 0, 9 * sizeof *dR);
    int pa = dy[b->qoff] != 0.0 || dy[b->qoff + 1] != 0.0 || dy[b->qoff + 2] != 0.0;
    for (int k = 0; k < b->nr; ++k)
      if (dr[k] != 0.0) {
        pa = 1;
        for (int a = 0; a < 9; ++a) dR[a] += G[a + 9 * k] * dr[k];
      }
    tn->pact[i] = pa;
  }
}

/* 1./2. Twist tangents w', the activity flags and the joint-row tangents. */
static void tan_twists(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, const double *dy) {
  mbs_tan *tn = d->tan;
  int nw = m->nw, nc = m->nc, nd = m->ndof;
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    memset(tn->dw, 0, (size_t)nw * sizeof(double));
    for (int k = 0; k < nd; ++k) tn->dw[d->cur_ind[k]] = dy[m->nq + k];
    if (nc > 0) {
      int anyp = 0;
      for (size_t i = 0; i < m->nb; ++i) anyp |= tn->pact[i];
      if (anyp) { /* J' (independent of w'; 0 for velocity columns) */
        for (size_t j = 0; j < 2 * m->nj; ++j) mbs_tside_tangent(m, d, dy, &tn->js[j], 0);
        mbs_tan_rows(m, d, 1);
      } else {
        memset(tn->dJ, 0, (size_t)nc * (size_t)nw * sizeof(double));
      }
      for (int i = 0; i < nc; ++i) {
        double s = 0.0;
        for (int j = 0; j < nw; ++j)
          s += (anyp ? tn->dJ[i + nc * j] * d->w[j] : 0.0) + d->Jc[i + nc * j] * tn->dw[j];
        tn->v1[i] = s;
      }
      cosrod_dense_solve(d->S, tn->v1);
      for (int i = 0; i < nc; ++i) tn->dw[d->cur_dep[i]] = -tn->v1[i];
    }
  } else {
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      cosrod_vec3_copy(tn->dw + 6 * i, dy + b->voff);
      if (b->absolute)
        mbs_omega_from_rate_tan(b, y + b->qoff + 3, y + b->voff + 3, dy + b->qoff + 3, dy + b->voff + 3,
                                tn->dw + 6 * i + 3);
      else
        cosrod_vec3_copy(tn->dw + 6 * i + 3, dy + b->voff + 3);
    }
  }
  for (size_t i = 0; i < m->nb; ++i) {
    int a = tn->pact[i];
    for (int k = 0; k < 6 && !a; ++k) a = tn->dw[6 * i + k] != 0.0;
    tn->act[i] = a;
  }
  if (nc > 0) {
    for (size_t j = 0; j < 2 * m->nj; ++j) mbs_tside_tangent(m, d, dy, &tn->js[j], 1);
    int anyp = 0;
    for (size_t i = 0; i < m->nb; ++i) anyp |= tn->pact[i];
    if (m->joint_form == COSROD_JOINTS_MULTIPLIERS && !anyp) { /* velocity column: J' = 0, g' = 0 */
      memset(tn->dJ, 0, (size_t)nc * (size_t)nw * sizeof(double));
      memset(tn->dg, 0, (size_t)nc * sizeof(double));
    }
    /* null space: J' done above; multipliers: J', g' for position columns */
    mbs_tan_rows(m, d, m->joint_form == COSROD_JOINTS_NULLSPACE || !anyp ? 2 : 3);
  }
}

/* 4. Null space: nudot' from A nudot' = T^T (h' - M beta' + J'^T mu). */
static void tan_dynamics_nullspace(const cosrod_mbs *m, cosrod_mbs_data *d, double *dydot) {
  mbs_tan *tn = d->tan;
  int nw = m->nw, nc = m->nc, nd = m->ndof;
  const double *lam = tn->lam;
  double *v1 = tn->v1, *v2 = tn->v2;
  double *beta = v2; /* beta' (nw) */
  memset(beta, 0, (size_t)nw * sizeof(double));
  if (nc > 0) {
    for (int i = 0; i < nc; ++i) {
      double s = tn->dgam[i];
      for (int j = 0; j < nw; ++j) s += tn->dJ[i + nc * j] * tn->wd[j];
      v1[i] = s;
    }
    cosrod_dense_solve(d->S, v1);
    for (int i = 0; i < nc; ++i) beta[d->cur_dep[i]] = -v1[i];
  }
  /* v1 (nw) = h_tot' - M beta' + J'^T mu */
  for (int j = 0; j < nw; ++j) {
    double s = tn->dht[j] - tn->mass[j] * beta[j];
    for (int i = 0; i < nc; ++i) s += tn->dJ[i + nc * j] * lam[i];
    v1[j] = s;
  }
  double *nud = dydot + m->nq;
  for (int k = 0; k < nd; ++k) {
    const double *Tk = d->T + (size_t)nw * (size_t)k;
    double s = 0.0;
    for (int j = 0; j < nw; ++j) s += Tk[j] * v1[j];
    nud[k] = s;
  }
  if (nd > 0) cosrod_dense_solve(d->A, nud);
}

/* 4. Multipliers and absolute bodies: wdot' from lambda' and hc'. */
static void tan_dynamics_multipliers(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y,
                                     const double *dy, double *dydot) {
  mbs_tan *tn = d->tan;
  int nw = m->nw, nc = m->nc;
  const double *lam = tn->lam;
  double *v1 = tn->v1, *v2 = tn->v2;
  /* minv, and hc' = -J'^T lambda - J^T lambda' */
  double *dhc = v2;
  memset(dhc, 0, (size_t)nw * sizeof(double));
  if (nc > 0) {
    double *jl = dhc, *djl = v1 + nc; /* J^T lambda, J'^T lambda (nw each; v1 holds nw + nc) */
    for (int j = 0; j < nw; ++j) {
      double s = 0.0, u = 0.0;
      for (int i = 0; i < nc; ++i) s += d->Jc[i + nc * j] * lam[i], u += tn->dJ[i + nc * j] * lam[i];
      jl[j] = s, djl[j] = u;
    }
    double *rhs = v1; /* (nc) b' - S' lambda */
    for (int i = 0; i < nc; ++i) {
      double s = tn->dgam[i], gd = tn->dgt[i];
      for (int j = 0; j < nw; ++j) {
        double mi = tn->minv[j];
        double dJij = tn->dJ[i + nc * j], Jij = d->Jc[i + nc * j];
        s += dJij * mi * tn->htot[j] + Jij * mi * tn->dht[j];
        s -= dJij * mi * jl[j] + Jij * mi * djl[j];
        gd += dJij * d->w[j] + Jij * tn->dw[j];
      }
      rhs[i] = s + 2.0 * m->bg_r * gd + m->bg_omega * m->bg_omega * tn->dg[i];
    }
    cosrod_dense_solve(d->S, rhs);
    for (int j = 0; j < nw; ++j) {
      double s = 0.0;
      for (int i = 0; i < nc; ++i) s += tn->dJ[i + nc * j] * lam[i] + d->Jc[i + nc * j] * rhs[i];
      dhc[j] = -s;
    }
  }
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    double *vd = dydot + b->voff;
    for (int k = 0; k < 3; ++k) vd[k] = (tn->dht[6 * i + k] + dhc[6 * i + k]) / b->mass;
    if (b->absolute) {
      double mu[3], dmu[3];
      for (int k = 0; k < 3; ++k) {
        mu[k] = d->h[6 * i + 3 + k] + d->hc[6 * i + 3 + k];
        dmu[k] = tn->dh[6 * i + 3 + k] + dhc[6 * i + 3 + k];
      }
      mbs_abs_accel_tan(b, tn->x15 + 15 * i, tn->D15[i], y + b->qoff + 3, y + b->voff + 3, mu,
                        dy + b->qoff + 3, dy + b->voff + 3, dmu, vd + 3);
    } else {
      for (int k = 0; k < 3; ++k) vd[3 + k] = (tn->dht[6 * i + 3 + k] + dhc[6 * i + 3 + k]) / b->inertia[k];
    }
  }
}

/* 5. Kinematic equations: rdot' = T_r(r) Omega' + T_r'(r) Omega. */
static void tan_kinematics(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *dy, const double *y,
                           double *dydot) {
  const mbs_tan *tn = d->tan;
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    const double *r = y + b->qoff + 3, *dr = dy + b->qoff + 3, *Om = d->w + 6 * i + 3,
                 *dOm = tn->dw + 6 * i + 3;
    double *out = dydot + b->qoff + 3, tmp[9];
    cosrod_vec3_copy(dydot + b->qoff, tn->dw + 6 * i);
    if (b->absolute) {
      memcpy(out, dy + b->voff + 3, (size_t)b->nr * sizeof(double));
    } else if (b->param != COSROD_BODY_EULER313) { /* bilinear in (r, Omega) */
      mbs_rate_from_omega(b, dr, Om, out);
      mbs_rate_from_omega(b, r, dOm, tmp);
      for (int k = 0; k < b->nr; ++k) out[k] += tmp[k];
    } else { /* [L] eq. 66 */
      double s2 = sin(r[1]), c2 = cos(r[1]), s3 = sin(r[2]), c3 = cos(r[2]);
      double A = (s3 * Om[0] + c3 * Om[1]) / s2;
      double dA = (-A * c2 * dr[1] + (c3 * Om[0] - s3 * Om[1]) * dr[2] + s3 * dOm[0] + c3 * dOm[1]) / s2;
      out[0] = dA;
      out[1] = (-s3 * Om[0] - c3 * Om[1]) * dr[2] + c3 * dOm[0] - s3 * dOm[1];
      out[2] = s2 * A * dr[1] - c2 * dA + dOm[2];
    }
  }
}

/* dydot = f_y dy at the point prepared by mbs_tan_prepare. */
void mbs_tan_eval(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, const double *dy,
                  double *dydot) {
  tan_rotations(m, d->tan, dy);
  tan_twists(m, d, y, dy);
  mbs_tan_forces(m, d, t, y, dy);
  if (m->joint_form == COSROD_JOINTS_NULLSPACE)
    tan_dynamics_nullspace(m, d, dydot);
  else
    tan_dynamics_multipliers(m, d, y, dy, dydot);
  tan_kinematics(m, d, dy, y, dydot);
}

/* Dense Jacobian of every model by n tangents (column j: dy = e_j). */
int mbs_jac_tangent(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J) {
  int n = m->n;
  if (cosrod_mbs_rhs(m, d, t, y, d->f0)) return -1;
  if (mbs_tan_prepare(m, d, y)) {
    snprintf(d->msg, sizeof d->msg, "bodies: singular matrix in the Jacobian at t = %.9g", t);
    return -1;
  }
  double *e = d->y1;
  memset(e, 0, (size_t)n * sizeof *e);
  for (int j = 0; j < n; ++j) {
    e[j] = 1.0;
    mbs_tan_eval(m, d, t, y, e, J + (size_t)n * (size_t)j);
    e[j] = 0.0;
  }
  for (size_t k = 0; k < (size_t)n * (size_t)n; ++k)
    if (!isfinite(J[k])) {
      snprintf(d->msg, sizeof d->msg, "bodies: non-finite Jacobian at t = %.9g", t);
      return -1;
    }
  return 0;
}
