// SPDX-License-Identifier: Apache-2.0
/* Right-hand side of the multibody system (see include/cosrod/body.h).
 * Stages (as MuJoCo's forward pipeline):
 *   1. kinematics: R_b from the parametrisation, twists w_b = (v_b, Omega_b)
 *      (from the state, from (r, rdot) for the absolute formulations, or
 *      w = T(q) nu for null-space joints), joint rows J, g, gamma;
 *   2. forces: gravity, loads (profile(t)), bushings -> h_b = (F_b, mu_b);
 *   3. dynamics: Newton-Euler m vdot = F, J Omegadot = mu - Omega x J Omega
 *      ([L] eq. 25/42) with the joints by null space (T^T M T nudot =
 *      T^T (h - M Tdot nu), [L] eq. 11) or multipliers ([L] eq. 4); absolute
 *      formulations by [L] eq. 40 / 23 with the constraint forces applied;
 *   4. kinematic equations xdot = v, rdot = T_r(r) Omega. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "body_internal.h"
#include "cosrod/profile.h"

static void mat_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  double b = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  double c = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

static void matT_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  double b = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  double c = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

/* The body's profile as cosrod_profile (a switch without default: an
 * unmapped value fails to compile with -Werror=switch). */
static cosrod_profile body_profile(cosrod_body_load_profile p) {
  switch (p) {
    case COSROD_BODY_LOAD_CONSTANT: return COSROD_PROFILE_CONSTANT;
    case COSROD_BODY_LOAD_RAMP: return COSROD_PROFILE_RAMP;
    case COSROD_BODY_LOAD_ACTIVE: return COSROD_PROFILE_ACTIVE;
  }
  return COSROD_PROFILE_CONSTANT;
}

double mbs_profile(cosrod_body_load_profile p, double t0, double t1, double t) {
  return cosrod_profile_value(body_profile(p), t0, t1, t);
}

/* The kinematic frames at t (the rheonomic sides of bushings and joints). */
void mbs_kin_update(const cosrod_mbs *m, cosrod_mbs_data *d, double t) {
  for (size_t k = 0; k < m->nkin; ++k) {
    double *o = d->kin + MBS_KIN_N * k;
    m->kin_fn(m->kin_user, (int)k, t, o, o + 3, o + 7, o + 10, o + 22, o + 25);
    cosrod_quat_normalise(o + 3, o + 3);
    cosrod_quat_to_matrix(o + 13, o + 3);
  }
}

/* Stage 1.  Returns 0 or -1 (message set). */
int mbs_kinematics(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y) {
  d->t = t;
  mbs_kin_update(m, d, t);
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    const double *r = y + b->qoff + 3;
    if (b->param == COSROD_BODY_EULER313 && fabs(sin(r[1])) < COSROD_BODY_GIMBAL_TOL) {
      snprintf(d->msg, sizeof d->msg, "body '%s': euler-angles at gimbal lock (theta2 = %.6g) at t = %.9g",
               b->name, r[1], t);
      return -1;
    }
    mbs_rotation(b, r, d->R + 9 * i);
  }
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    int old = d->pending && t < d->t_switch;
    d->cur_dep = old ? d->dep_old : d->dep;
    d->cur_ind = old ? d->ind_old : d->ind;
    mbs_joint_rows(m, d, y, 0);
    if (mbs_nullspace(m, d)) {
      snprintf(d->msg, sizeof d->msg, "joints: kinematic singularity of the null-space partition at t = %.9g",
               t);
      return -1;
    }
    const double *nu = y + m->nq;
    for (int i = 0; i < m->nw; ++i) {
      double s = 0.0;
      for (int k = 0; k < m->ndof; ++k) s += d->T[i + m->nw * k] * nu[k];
      d->w[i] = s;
    }
    mbs_joint_rows(m, d, y, 1);
    /* Tdot nu = [0; -J_d^{-1} gamma] (S holds the LU of J_d) */
    memset(d->bias, 0, (size_t)m->nw * sizeof(double));
    if (m->nc > 0) {
      memcpy(d->tmp, d->gam, (size_t)m->nc * sizeof(double));
      cosrod_dense_solve(d->S, d->tmp);
      for (int i = 0; i < m->nc; ++i) d->bias[d->cur_dep[i]] = -d->tmp[i];
    }
  } else {
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      cosrod_vec3_copy(d->w + 6 * i, y + b->voff);
      if (b->absolute)
        mbs_omega_from_rate(b, y + b->qoff + 3, y + b->voff + 3, d->w + 6 * i + 3);
      else
        cosrod_vec3_copy(d->w + 6 * i + 3, y + b->voff + 3);
    }
    mbs_joint_rows(m, d, y, 1);
  }
  return 0;
}

/* Unit quaternion of body i's internal frame (1 for ground, the frame's for
 * a kinematic side). */
static void side_quat(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *y, int i, double q[4]) {
  if (i <= -2) {
    cosrod_quat_copy(q, mbs_kin(d, i) + 3);
    return;
  }
  if (i < 0) {
    cosrod_quat_identity(q);
    return;
  }
  const mbs_body *b = &m->bodies[i];
  mbs_quat_of(b, y + b->qoff + 3, q);
}

/* Point c = x + R rho and its velocity of side i (ground: rho spatial). */
static void side_point(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *y, int i,
                       const double rho[3], double r[3], double c[3], double cd[3], double om[3]) {
  if (i <= -2) { /* kinematic frame: c = x + R rho, cd = v + w x (R rho) */
    const double *k = mbs_kin(d, i);
    double t[3];
    mat_vec(r, k + 13, rho);
    cosrod_vec3_add(c, k, r);
    cosrod_vec3_copy(om, k + 10);
    cosrod_vec3_cross(t, om, r);
    cosrod_vec3_add(cd, k + 7, t);
    return;
  }
  if (i < 0) {
    cosrod_vec3_zero(r);
    cosrod_vec3_copy(c, rho);
    cosrod_vec3_zero(cd);
    cosrod_vec3_zero(om);
    return;
  }
  const double *R = d->R + 9 * i;
  mat_vec(r, R, rho);
  cosrod_vec3_add(c, y + m->bodies[i].qoff, r);
  mat_vec(om, R, d->w + 6 * i + 3);
  double t[3];
  cosrod_vec3_cross(t, om, r);
  cosrod_vec3_add(cd, d->w + 6 * i, t);
}

/* Add spatial force f at lever r (spatial) and spatial moment mo to body i. */
static void add_wrench(const cosrod_mbs *m, cosrod_mbs_data *d, int i, const double f[3], const double r[3],
                       const double mo[3]) {
  if (i < 0) return;
  (void)m;
  double t[3], u[3];
  cosrod_vec3_cross(t, r, f);
  cosrod_vec3_add(t, t, mo);
  matT_vec(u, d->R + 9 * i, t);
  double *h = d->h + 6 * i;
  cosrod_vec3_add(h, h, f);
  cosrod_vec3_add(h + 3, h + 3, u);
}

/* Bushing i: force on side 0 (f, at lever ra), torque tau (spatial), and
 * optionally elastic energy and dissipation power. */
static void bushing_eval(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, size_t i, double f[3],
                         double tau[3], double ra[3], double rb[3], double *energy, double *pdiss) {
  const mbs_bushing *bu = &m->bushings[i];
  double ca[3], cb[3], va[3], vb[3], oa[3], ob[3], dx[3], dv[3], dom[3];
  side_point(m, d, y, bu->body[0], bu->at[0], ra, ca, va, oa);
  side_point(m, d, y, bu->body[1], bu->at[1], rb, cb, vb, ob);
  cosrod_vec3_sub(dx, ca, cb);
  cosrod_vec3_sub(dv, va, vb);
  cosrod_vec3_sub(dom, oa, ob);
  for (int k = 0; k < 3; ++k) f[k] = -bu->k * dx[k] - bu->c * dv[k];
  /* q_rel = q_a q_a0^-1 q_b0 q_b^-1; V = 2 k_rot |Im q_rel|^2, spatial torque
   * on a: -2 k_rot q0 Im(q_rel) (exact gradient) */
  double qa[4], qb[4], q[4];
  side_quat(m, d, y, bu->body[0], qa);
  side_quat(m, d, y, bu->body[1], qb);
  cosrod_quat_mul_conj(q, qa, bu->qa0);
  cosrod_quat_mul(q, q, bu->qb0);
  cosrod_quat_mul_conj(q, q, qb);
  for (int k = 0; k < 3; ++k) tau[k] = -2.0 * bu->k_rot * q[0] * q[1 + k] - bu->c_rot * dom[k];
  if (energy)
    *energy =
        0.5 * bu->k * cosrod_vec3_dot(dx, dx) + 2.0 * bu->k_rot * (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (pdiss) *pdiss = bu->c * cosrod_vec3_dot(dv, dv) + bu->c_rot * cosrod_vec3_dot(dom, dom);
}

/* Load i at time t: spatial force f at lever r (spatial), spatial moment mo. */
static void load_eval(const cosrod_mbs *m, const cosrod_mbs_data *d, size_t i, double t, double f[3],
                      double r[3], double mo[3]) {
  const mbs_load *l = &m->loads[i];
  const double *R = d->R + 9 * l->body;
  double s = mbs_profile(l->profile, l->t0, l->t1, t), v[3];
  if (l->frame == COSROD_BODY_LOAD_BODY)
    mat_vec(v, R, l->value);
  else
    cosrod_vec3_copy(v, l->value);
  cosrod_vec3_scale(v, s, v);
  cosrod_vec3_zero(f);
  cosrod_vec3_zero(r);
  cosrod_vec3_zero(mo);
  if (l->kind == COSROD_BODY_LOAD_FORCE) {
    cosrod_vec3_copy(f, v);
    mat_vec(r, R, l->at);
  } else {
    cosrod_vec3_copy(mo, v);
  }
}

/* Stage 2: d->h = applied (F, mu). */
void mbs_forces(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y) {
  memset(d->h, 0, (size_t)m->nw * sizeof(double));
  for (size_t i = 0; i < m->nb; ++i)
    for (int k = 0; k < 3; ++k) d->h[6 * i + k] = m->bodies[i].mass * m->gravity[k];
  for (size_t i = 0; i < m->nl; ++i) {
    const mbs_load *l = &m->loads[i];
    if (l->kind == COSROD_BODY_LOAD_MOMENT && l->frame == COSROD_BODY_LOAD_BODY) { /* material torque as is */
      double s = mbs_profile(l->profile, l->t0, l->t1, t);
      for (int k = 0; k < 3; ++k) d->h[6 * l->body + 3 + k] += s * l->value[k];
      continue;
    }
    double f[3], r[3], mo[3];
    load_eval(m, d, i, t, f, r, mo);
    add_wrench(m, d, l->body, f, r, mo);
  }
  for (size_t i = 0; i < m->nbu; ++i) {
    double f[3], tau[3], ra[3], rb[3], mf[3], mt[3];
    bushing_eval(m, d, y, i, f, tau, ra, rb, NULL, NULL);
    add_wrench(m, d, m->bushings[i].body[0], f, ra, tau);
    cosrod_vec3_scale(mf, -1.0, f);
    cosrod_vec3_scale(mt, -1.0, tau);
    add_wrench(m, d, m->bushings[i].body[1], mf, rb, mt);
  }
  static const double zero[3] = {0.0, 0.0, 0.0};
  for (size_t i = 0; i < m->nb; ++i) add_wrench(m, d, (int)i, d->hext + 6 * i, zero, d->hext + 6 * i + 3);
}

void cosrod_mbs_set_wrench(cosrod_mbs_data *d, size_t b, const double F[3], const double tau[3]) {
  if (!d || b >= d->m->nb) return;
  cosrod_vec3_copy(d->hext + 6 * b, F);
  cosrod_vec3_copy(d->hext + 6 * b + 3, tau);
}

/* d->tmp (nw) = h + gyroscopic terms (-Omega x J Omega). */
static void total_forces(const cosrod_mbs *m, cosrod_mbs_data *d) {
  for (size_t i = 0; i < m->nb; ++i) {
    const double *I3 = m->bodies[i].inertia, *Om = d->w + 6 * i + 3;
    double JO[3] = {I3[0] * Om[0], I3[1] * Om[1], I3[2] * Om[2]}, g[3];
    cosrod_vec3_cross(g, Om, JO);
    for (int k = 0; k < 3; ++k) {
      d->tmp[6 * i + k] = d->h[6 * i + k];
      d->tmp[6 * i + 3 + k] = d->h[6 * i + 3 + k] - g[k];
    }
  }
}

static double mass_of(const cosrod_mbs *m, int j) {
  const mbs_body *b = &m->bodies[j / 6];
  return j % 6 < 3 ? b->mass : b->inertia[j % 6 - 3];
}

int cosrod_mbs_rhs(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *ydot) {
  if (mbs_kinematics(m, d, t, y)) return -1;
  mbs_forces(m, d, t, y);
  total_forces(m, d);
  int nw = m->nw;
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    int nd = m->ndof;
    double *rhs = ydot + m->nq;
    /* A = T^T M T, rhs = T^T (h - M bias) */
    for (int k = 0; k < nd; ++k) {
      const double *Tk = d->T + (size_t)nw * (size_t)k;
      double s = 0.0;
      for (int j = 0; j < nw; ++j) s += Tk[j] * (d->tmp[j] - mass_of(m, j) * d->bias[j]);
      rhs[k] = s;
      for (int l = 0; l <= k; ++l) {
        const double *Tl = d->T + (size_t)nw * (size_t)l;
        double a = 0.0;
        for (int j = 0; j < nw; ++j) a += Tk[j] * mass_of(m, j) * Tl[j];
        cosrod_dense_set(d->A, k, l, a);
        cosrod_dense_set(d->A, l, k, a);
      }
    }
    if (nd > 0) {
      if (cosrod_dense_factor(d->A) != COSROD_OK) {
        snprintf(d->msg, sizeof d->msg, "joints: singular reduced mass matrix at t = %.9g", t);
        return -1;
      }
      cosrod_dense_solve(d->A, rhs);
    }
    for (int j = 0; j < nw; ++j) {
      double s = d->bias[j];
      for (int k = 0; k < nd; ++k) s += d->T[j + (size_t)nw * (size_t)k] * rhs[k];
      d->wd[j] = s;
    }
  } else {
    if (mbs_solve_multipliers(m, d)) {
      snprintf(d->msg, sizeof d->msg, "joints: singular constraint matrix (redundant joints?) at t = %.9g",
               t);
      return -1;
    }
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      double *vd = ydot + b->voff;
      for (int k = 0; k < 3; ++k) vd[k] = (d->tmp[6 * i + k] + d->hc[6 * i + k]) / b->mass;
      if (b->absolute) {
        double mu[3];
        for (int k = 0; k < 3; ++k) mu[k] = d->h[6 * i + 3 + k] + d->hc[6 * i + 3 + k];
        if (mbs_abs_accel(b, y + b->qoff + 3, y + b->voff + 3, mu, vd + 3, d->D15)) {
          snprintf(d->msg, sizeof d->msg, "body '%s': singular director mass-constraint matrix at t = %.9g",
                   b->name, t);
          return -1;
        }
      } else {
        for (int k = 0; k < 3; ++k)
          vd[3 + k] = (d->tmp[6 * i + 3 + k] + d->hc[6 * i + 3 + k]) / b->inertia[k];
      }
      for (int k = 0; k < 6; ++k)
        d->wd[6 * i + k] = (d->tmp[6 * i + k] + d->hc[6 * i + k]) / mass_of(m, 6 * (int)i + k);
    }
  }
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    cosrod_vec3_copy(ydot + b->qoff, d->w + 6 * i);
    if (b->absolute)
      memcpy(ydot + b->qoff + 3, y + b->voff + 3, (size_t)b->nr * sizeof(double));
    else if (mbs_rate_from_omega(b, y + b->qoff + 3, d->w + 6 * i + 3, ydot + b->qoff + 3)) {
      snprintf(d->msg, sizeof d->msg, "body '%s': euler-angles at gimbal lock at t = %.9g", b->name, t);
      return -1;
    }
  }
  for (int i = 0; i < m->n; ++i)
    if (!isfinite(ydot[i])) {
      snprintf(d->msg, sizeof d->msg, "bodies: non-finite right-hand side at t = %.9g", t);
      return -1;
    }
  return 0;
}

int cosrod_mbs_jac_fd(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J,
                      double h) {
  int n = m->n;
  memcpy(d->y1, y, (size_t)n * sizeof(double));
  for (int j = 0; j < n; ++j) {
    double hj = h * fmax(1.0, fabs(y[j]));
    d->y1[j] = y[j] + hj;
    if (cosrod_mbs_rhs(m, d, t, d->y1, d->f1)) return -1;
    d->y1[j] = y[j] - hj;
    if (cosrod_mbs_rhs(m, d, t, d->y1, d->f0)) return -1;
    d->y1[j] = y[j];
    for (int i = 0; i < n; ++i) J[i + (size_t)n * (size_t)j] = (d->f1[i] - d->f0[i]) / (2.0 * hj);
  }
  return 0;
}

void cosrod_mbs_energy(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *kinetic,
                       double *gravity, double *elastic) {
  double ek = 0.0, eg = 0.0, ee = 0.0;
  if (mbs_kinematics(m, d, t, y) == 0) {
    for (size_t i = 0; i < m->nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      const double *w = d->w + 6 * i;
      ek += 0.5 * b->mass * cosrod_vec3_dot(w, w);
      for (int k = 0; k < 3; ++k) ek += 0.5 * b->inertia[k] * w[3 + k] * w[3 + k];
      eg -= b->mass * cosrod_vec3_dot(m->gravity, y + b->qoff);
    }
    for (size_t i = 0; i < m->nbu; ++i) {
      double f[3], tau[3], ra[3], rb[3], e;
      bushing_eval(m, d, y, i, f, tau, ra, rb, &e, NULL);
      ee += e;
    }
  }
  if (kinetic) *kinetic = ek;
  if (gravity) *gravity = eg;
  if (elastic) *elastic = ee;
}

void cosrod_mbs_power(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *p_ext,
                      double *p_diss) {
  double pe = 0.0, pd = 0.0;
  if (mbs_kinematics(m, d, t, y) == 0) {
    for (size_t i = 0; i < m->nl; ++i) {
      double f[3], r[3], mo[3], om[3], cd[3];
      int b = m->loads[i].body;
      load_eval(m, d, i, t, f, r, mo);
      mat_vec(om, d->R + 9 * b, d->w + 6 * b + 3);
      cosrod_vec3_cross(cd, om, r);
      cosrod_vec3_add(cd, cd, d->w + 6 * b);
      pe += cosrod_vec3_dot(f, cd) + cosrod_vec3_dot(mo, om);
    }
    for (size_t i = 0; i < m->nbu; ++i) {
      double f[3], tau[3], ra[3], rb[3], p;
      bushing_eval(m, d, y, i, f, tau, ra, rb, NULL, &p);
      pd += p;
      if (m->bushings[i].body[1] <= -2) { /* work of the kinematic side: f . c_b' + tau . w_b */
        double c[3], cd[3], om[3];
        side_point(m, d, y, m->bushings[i].body[1], m->bushings[i].at[1], rb, c, cd, om);
        pe += cosrod_vec3_dot(f, cd) + cosrod_vec3_dot(tau, om);
      }
    }
  }
  /* joints on kinematic frames: the power of their constraint forces
   * -J^T lambda on the bodies, -lambda.(J w) = lambda.g_t (rheonomic) */
  int rheo = 0;
  for (size_t j = 0; j < m->nj; ++j) rheo |= m->joints[j].body[1] <= -2;
  if (rheo && cosrod_mbs_rhs(m, d, t, y, d->f0) == 0)
    for (int i = 0; i < m->nc; ++i) {
      if (m->joints[m->rows[i].joint].body[1] > -2) continue;
      double jw = 0.0;
      for (int j = 0; j < m->nw; ++j) jw += d->Jc[i + m->nc * j] * d->w[j];
      pe -= d->lam[i] * jw;
    }
  if (p_ext) *p_ext = pe;
  if (p_diss) *p_diss = pd;
}

int cosrod_mbs_joint_reactions(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y,
                               double *Rout) {
  int nc = m->nc, nw = m->nw;
  memset(Rout, 0, 6 * m->nj * sizeof(double));
  if (nc == 0) return 0;
  double *ydot = d->f0;
  if (cosrod_mbs_rhs(m, d, t, y, ydot)) return -1;
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    /* hc = M wdot - h_tot; lambda from J J^T lambda = -J hc */
    for (int j = 0; j < nw; ++j) d->hc[j] = mass_of(m, j) * d->wd[j] - d->tmp[j];
    for (int i = 0; i < nc; ++i) {
      double s = 0.0;
      for (int j = 0; j < nw; ++j) s += d->Jc[i + nc * j] * d->hc[j];
      d->lam[i] = -s;
      for (int k = 0; k <= i; ++k) {
        double a = 0.0;
        for (int j = 0; j < nw; ++j) a += d->Jc[i + nc * j] * d->Jc[k + nc * j];
        cosrod_dense_set(d->S, i, k, a);
        cosrod_dense_set(d->S, k, i, a);
      }
    }
    if (cosrod_dense_factor(d->S) != COSROD_OK) return -1;
    cosrod_dense_solve(d->S, d->lam);
  }
  for (size_t jn = 0; jn < m->nj; ++jn) {
    const mbs_joint *jt = &m->joints[jn];
    int a = jt->body[0];
    double F[3] = {0, 0, 0}, mu[3] = {0, 0, 0};
    for (int i = jt->row0; i < jt->row0 + jt->nrows; ++i)
      for (int k = 0; k < 3; ++k) {
        F[k] -= d->Jc[i + nc * (6 * a + k)] * d->lam[i];
        mu[k] -= d->Jc[i + nc * (6 * a + 3 + k)] * d->lam[i];
      }
    double M[3], r[3], t2[3];
    mat_vec(M, d->R + 9 * a, mu);
    mat_vec(r, d->R + 9 * a, jt->at[0]);
    cosrod_vec3_cross(t2, r, F);
    cosrod_vec3_sub(M, M, t2);
    double sgn = jt->swapped ? -1.0 : 1.0;
    for (int k = 0; k < 3; ++k) {
      Rout[6 * jn + k] = sgn * F[k];
      Rout[6 * jn + 3 + k] = sgn * M[k];
    }
  }
  return 0;
}

void cosrod_mbs_constraints(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, double *g,
                            double *gdot) {
  int nc = m->nc;
  if (nc == 0) return;
  if (mbs_kinematics(m, d, d->t, y)) return;
  for (int i = 0; i < nc; ++i) {
    if (g) g[i] = d->g[i];
    if (gdot) {
      double s = 0.0;
      for (int j = 0; j < m->nw; ++j) s += d->Jc[i + nc * j] * d->w[j];
      gdot[i] = s;
    }
  }
}
