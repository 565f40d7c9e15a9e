// SPDX-License-Identifier: Apache-2.0
/* Projection after accepted steps ([L] §6: quaternion eq. 63, directors by
 * Spurrier-Klumpp; Gauss-Newton onto the joint constraints; velocities onto
 * the velocity constraints for multipliers), re-partitioning of the
 * null-space coordinates, and the adapter to the integrators. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "body_internal.h"

long cosrod_mbs_data_repartitions(const cosrod_mbs_data *d) { return d->nrepartition; }

int cosrod_mbs_data_partition(const cosrod_mbs_data *d, int k) {
  return k < d->m->nc ? d->dep[k] : d->ind[k - d->m->nc];
}

int cosrod_mbs_data_set_partition(cosrod_mbs_data *d, const int *dep, const int *ind) {
  const cosrod_mbs *m = d->m;
  if (m->nc + m->ndof != m->nw) return -1;
  int *seen = d->iw; /* (nw + nc + 2) scratch */
  memset(seen, 0, (size_t)m->nw * sizeof *seen);
  for (int k = 0; k < m->nw; k++) {
    int i = k < m->nc ? dep[k] : ind[k - m->nc];
    if (i < 0 || i >= m->nw || seen[i]++) return -1;
  }
  if (m->nc > 0) memcpy(d->dep, dep, (size_t)m->nc * sizeof *dep);
  if (m->ndof > 0) memcpy(d->ind, ind, (size_t)m->ndof * sizeof *ind);
  d->pending = 0;
  return 0;
}

void mbs_partition_reset(const cosrod_mbs *m, cosrod_mbs_data *d) {
  if (m->nc > 0) memcpy(d->dep, m->dep, (size_t)m->nc * sizeof *d->dep);
  if (m->ndof > 0) memcpy(d->ind, m->ind, (size_t)m->ndof * sizeof *d->ind);
  d->pending = 0;
  d->nrepartition = 0;
}

/* Projection hook, null-space joints: if J_d of the partition in use has
 * become ill-conditioned (pivot ratio below a tenth of the greedy choice at
 * the current state), switch to the new partition and convert
 * nu_new = w[ind_new] with w = T_old nu_old (the same motion). */
int mbs_repartition(const cosrod_mbs *m, cosrod_mbs_data *d, double t, double *y) {
  d->pending = 0;
  if (m->nc == 0) return 0;
  if (mbs_kinematics(m, d, t, y)) return -1;
  memcpy(d->wsave, d->w, (size_t)m->nw * sizeof *d->w);
  double qcur = mbs_partition_quality(m, d, d->dep);
  if (qcur > 0.1) return 0; /* well conditioned: keep */
  if (mbs_partition_select(m->nc, m->nw, d->Jc, d->tmp2, d->iw, d->dep_new, d->ind_new)) return 0;
  if (!memcmp(d->dep_new, d->dep, (size_t)m->nc * sizeof *d->dep)) return 0;
  double qnew = mbs_partition_quality(m, d, d->dep_new);
  if (!(qcur < 0.1 * qnew)) return 0;
  memcpy(d->dep_old, d->dep, (size_t)m->nc * sizeof *d->dep);
  memcpy(d->ind_old, d->ind, (size_t)m->ndof * sizeof *d->ind);
  memcpy(d->dep, d->dep_new, (size_t)m->nc * sizeof *d->dep);
  memcpy(d->ind, d->ind_new, (size_t)m->ndof * sizeof *d->ind);
  for (int k = 0; k < m->ndof; ++k) y[m->nq + k] = d->wsave[d->ind[k]];
  d->pending = 1;
  d->t_switch = t;
  d->nrepartition++;
  return 0;
}

/* Projection ([L] §6 and Gauss-Newton onto the joint constraints). */
int cosrod_mbs_project(const cosrod_mbs *m, cosrod_mbs_data *d, double t, double *y) {
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    if (b->param == COSROD_BODY_EULER313) { /* th2 crossed 0 or pi within the step: gimbal lock */
      double s2 = sin(y[b->qoff + 4]) * (sin(b->r0[1]) > 0 ? 1.0 : -1.0);
      if (s2 < COSROD_BODY_GIMBAL_TOL) {
        snprintf(d->msg, sizeof d->msg, "body '%s': euler-angles at gimbal lock (theta2 = %.6g) at t = %.9g",
                 b->name, y[b->qoff + 4], t);
        return -1;
      }
    }
    mbs_project_body(b, y + b->qoff + 3, b->absolute ? y + b->voff + 3 : NULL);
  }
  int nc = m->nc, nw = m->nw;
  if (nc == 0) return 0;
  for (int it = 0; it < 4; ++it) {
    if (mbs_kinematics(m, d, t, y)) return -1;
    double gmax = 0.0;
    for (int i = 0; i < nc; ++i) gmax = fmax(gmax, fabs(d->g[i]));
    if (gmax < 1e-13) break;
    /* dz = -J^T (J J^T)^-1 g */
    for (int i = 0; i < nc; ++i)
      for (int k = 0; k <= i; ++k) {
        double a = 0.0;
        for (int j = 0; j < nw; ++j) a += d->Jc[i + nc * j] * d->Jc[k + nc * j];
        cosrod_dense_set(d->S, i, k, a);
        cosrod_dense_set(d->S, k, i, a);
      }
    if (cosrod_dense_factor(d->S) != COSROD_OK) {
      snprintf(d->msg, sizeof d->msg, "joints: singular constraint projection at t = %.9g", t);
      return -1;
    }
    memcpy(d->lam, d->g, (size_t)nc * sizeof(double));
    cosrod_dense_solve(d->S, d->lam);
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      double dz[6];
      for (int k = 0; k < 6; ++k) {
        double s = 0.0;
        for (int r = 0; r < nc; ++r) s += d->Jc[r + nc * (6 * (int)i + k)] * d->lam[r];
        dz[k] = -s;
      }
      for (int k = 0; k < 3; ++k) y[b->qoff + k] += dz[k];
      mbs_rotate_body(b, y + b->qoff + 3, dz + 3);
    }
  }
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) return mbs_repartition(m, d, t, y);
  if (m->joint_form == COSROD_JOINTS_MULTIPLIERS) {
    /* twists onto J w + g_t = 0 in the mass metric */
    if (mbs_kinematics(m, d, t, y)) return -1;
    memset(d->tmp, 0, (size_t)nw * sizeof(double));
    for (int i = 0; i < nc; ++i) {
      double s = d->gt[i];
      for (int j = 0; j < nw; ++j) s += d->Jc[i + nc * j] * d->w[j];
      d->gam[i] = s;
      d->g[i] = 0.0;
    }
    double sr = m->bg_r, so = m->bg_omega;
    ((cosrod_mbs *)m)->bg_r = ((cosrod_mbs *)m)->bg_omega = 0.0;
    int bad = mbs_solve_multipliers(m, d);
    ((cosrod_mbs *)m)->bg_r = sr, ((cosrod_mbs *)m)->bg_omega = so;
    if (bad) return -1;
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      double w[6];
      for (int k = 0; k < 6; ++k) {
        double mk = k < 3 ? b->mass : b->inertia[k - 3];
        w[k] = d->w[6 * i + k] + d->hc[6 * i + k] / mk;
      }
      cosrod_vec3_copy(y + b->voff, w);
      if (b->absolute)
        mbs_rate_from_omega(b, y + b->qoff + 3, w + 3, y + b->voff + 3);
      else
        cosrod_vec3_copy(y + b->voff + 3, w + 3);
    }
  }
  return 0;
}

/* ---- adapter to integrate.h ---------------------------------------------- */

static int ode_rhs(double t, const double *y, double *ydot, void *user) {
  cosrod_mbs_data *d = user;
  return cosrod_mbs_rhs(d->m, d, t, y, ydot);
}

/* COSROD_PROJECT_NEW_COORDINATES after a re-partition (nu changed meaning) */
static int ode_project(double t, double *y, void *user) {
  cosrod_mbs_data *d = user;
  long nrep = d->nrepartition;
  int rc = cosrod_mbs_project(d->m, d, t, y);
  return rc == 0 && d->nrepartition != nrep ? COSROD_PROJECT_NEW_COORDINATES : rc;
}

/* analytic Jacobian (body_jac.c; body_tangent.c for joints, absolute bodies, rotational bushings) */
static int ode_jac(double t, const double *y, double *J, int ldj, void *user) {
  cosrod_mbs_data *d = user;
  int n = d->m->n;
  if (cosrod_mbs_jac(d->m, d, t, y, d->Jbuf)) return -1;
  for (int j = 0; j < n; ++j)
    memcpy(J + (size_t)j * (size_t)ldj, d->Jbuf + (size_t)j * (size_t)n, (size_t)n * sizeof *J);
  return 0;
}

void cosrod_mbs_ode_problem(cosrod_ode_problem *p, cosrod_mbs_data *d) {
  const cosrod_mbs *m = d->m;
  mbs_partition_reset(m, d);
  memset(p, 0, sizeof *p);
  p->n = m->n;
  p->f = ode_rhs;
  p->user = d;
  p->project = ode_project;
  p->time_dependent = m->time_dependent;
  int covered = d->Jbuf != NULL; /* analytic for every model (body_jac.c, body_tangent.c) */
  if (covered) {
    p->jac = ode_jac;
    p->jac_fills = 1;
  }
}
