// SPDX-License-Identifier: Apache-2.0
/* Multibody model construction and state layout (see include/cosrod/body.h;
 * projection and the integrator adapter are in body_project.c).  A full inertia tensor is
 * diagonalised by cyclic Jacobi rotations; the internal body frame is the
 * principal frame R_int = R_user Q. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_internal.h"
#include "core/error.h"

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

/* C = A B (3x3 column-major, no aliasing) */
static void mat_mul(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[i + 3 * j] = A[i] * B[3 * j] + A[i + 3] * B[3 * j + 1] + A[i + 6] * B[3 * j + 2];
}

/* Eigen-decomposition of a symmetric 3x3 S = Q diag(ev) Q^T by cyclic Jacobi;
 * Q proper (det +1). */
static void sym_eig3(const double S[9], double ev[3], double Q[9]) {
  double A[9];
  memcpy(A, S, sizeof A);
  for (int i = 0; i < 9; ++i) Q[i] = (i % 4 == 0) ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 50; ++sweep) {
    double off = fabs(A[3]) + fabs(A[6]) + fabs(A[7]);
    if (off < 1e-300) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        double apq = A[p + 3 * q];
        if (fabs(apq) < 1e-300) continue;
        double th = 0.5 * (A[q + 3 * q] - A[p + 3 * p]) / apq;
        double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1.0));
        double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) { /* A <- A G */
          double akp = A[k + 3 * p], akq = A[k + 3 * q];
          A[k + 3 * p] = c * akp - s * akq;
          A[k + 3 * q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) { /* A <- G^T A */
          double apk = A[p + 3 * k], aqk = A[q + 3 * k];
          A[p + 3 * k] = c * apk - s * aqk;
          A[q + 3 * k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          double qkp = Q[k + 3 * p], qkq = Q[k + 3 * q];
          Q[k + 3 * p] = c * qkp - s * qkq;
          Q[k + 3 * q] = s * qkp + c * qkq;
        }
      }
  }
  for (int k = 0; k < 3; ++k) ev[k] = A[4 * k];
  double det = Q[0] * (Q[4] * Q[8] - Q[7] * Q[5]) - Q[3] * (Q[1] * Q[8] - Q[7] * Q[2]) +
               Q[6] * (Q[1] * Q[5] - Q[4] * Q[2]);
  if (det < 0)
    for (int k = 0; k < 3; ++k) Q[6 + k] = -Q[6 + k];
}

static void fail(cosrod_status *st, char *err, size_t errlen, cosrod_status code, const char *fmt, ...) {
  if (st) *st = code;
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
}

void cosrod_mbs_free(cosrod_mbs *m) {
  if (!m) return;
  if (m->kin_free) m->kin_free(m->kin_user);
  free(m->bodies);
  free(m->loads);
  free(m->bushings);
  free(m->joints);
  free(m->rows);
  free(m->dep);
  free(m->ind);
  free(m);
}

/* Add the constraint rows of joint j ([L] Table 2). */
/* The rows of joint j (cosrod_joint_rows, body_joint.c) appended to m->rows. */
static int add_rows(cosrod_mbs *m, int j, const double *Rb0, const double *Ra0, const double axis[3],
                    const double ax2[3]) {
  mbs_joint *jt = &m->joints[j];
  jt->row0 = m->nc;
  double Ra0T[9], Rba[9];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) Ra0T[i + 3 * k] = Rb0[k + 3 * i]; /* R_b0^T */
  mat_mul(Rba, Ra0T, Ra0);
  cosrod_joint_row rr[6];
  const int n = cosrod_joint_rows(jt->type, axis, ax2, Rba, rr);
  for (int i = 0; i < n; ++i) {
    mbs_row *o = &m->rows[m->nc + i];
    o->kind = rr[i].kind;
    o->joint = j;
    cosrod_vec3_copy(o->u, rr[i].u);
    cosrod_vec3_copy(o->w, rr[i].w);
  }
  m->nc += n;
  jt->nrows = n;
  return n;
}

static const char *body_name(const cosrod_mbs *m, int b) {
  return b <= -2 ? "kinematic frame" : b < 0 ? "ground" : m->bodies[b].name;
}

/* Bodies: mass, principal inertia and frame, parametrisation, offsets and
 * the initial pose and twist in the internal frame. */
static int add_bodies(cosrod_mbs *m, const cosrod_mbs_def *def, cosrod_status *st, char *err, size_t errlen) {
  size_t nb = m->nb;
  int off = 0;
  for (size_t i = 0; i < nb; ++i) {
    const cosrod_body_def *bd = &def->bodies[i];
    mbs_body *b = &m->bodies[i];
    if (bd->name)
      snprintf(b->name, sizeof b->name, "%s", bd->name);
    else
      snprintf(b->name, sizeof b->name, "%zu", i);
    if (!(bd->mass > 0.0) || !isfinite(bd->mass)) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "body '%s': mass must be positive", b->name);
      return -1;
    }
    b->mass = bd->mass;
    if (bd->full_tensor) {
      sym_eig3(bd->tensor, b->inertia, b->Q);
    } else {
      for (int k = 0; k < 3; ++k) b->inertia[k] = bd->inertia[k];
      for (int k = 0; k < 9; ++k) b->Q[k] = (k % 4 == 0) ? 1.0 : 0.0;
    }
    double tr = b->inertia[0] + b->inertia[1] + b->inertia[2];
    for (int k = 0; k < 3; ++k) {
      if (!(b->inertia[k] > 0.0) || b->inertia[k] > 0.5 * tr * (1.0 + 1e-12)) {
        fail(st, err, errlen, COSROD_ERR_INVALID,
             "body '%s': principal inertias must be positive and satisfy the triangle inequality", b->name);
        return -1;
      }
      b->euler[k] = 0.5 * tr - b->inertia[k];
    }
    b->param = bd->param;
    b->nr = b->param == COSROD_BODY_QUATERNION ? 4 : b->param == COSROD_BODY_DIRECTORS ? 9 : 3;
    b->absolute = (m->body_form == COSROD_BODY_ABSOLUTE && b->param != COSROD_BODY_EULER313);
    b->nv = b->absolute ? 3 + b->nr : 6;
    b->qoff = off;
    off += 3 + b->nr;
    /* initial pose, internal frame */
    double qu[4], Ru[9];
    if (cosrod_quat_normalise(qu, bd->quaternion) == 0.0) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "body '%s': zero orientation quaternion", b->name);
      return -1;
    }
    cosrod_quat_to_matrix(Ru, qu);
    mat_mul(b->R0, Ru, b->Q);
    cosrod_vec3_copy(b->x0, bd->position);
    cosrod_vec3_copy(b->v0, bd->velocity);
    double om[3];
    if (bd->omega_spatial)
      matT_vec(b->om0, b->R0, bd->omega);
    else {
      matT_vec(om, b->Q, bd->omega);
      cosrod_vec3_copy(b->om0, om);
    }
    double p[4];
    cosrod_quat_from_matrix(p, b->R0);
    cosrod_quat_normalise(p, p);
    if (b->param == COSROD_BODY_QUATERNION)
      memcpy(b->r0, p, sizeof p);
    else if (b->param == COSROD_BODY_DIRECTORS)
      memcpy(b->r0, b->R0, sizeof b->R0);
    else if (cosrod_quat_to_euler313(b->r0, p) != COSROD_OK) {
      fail(st, err, errlen, COSROD_ERR_KINEMATIC,
           "body '%s': euler-angles at gimbal lock (theta2 = 0 or pi) at t = 0", b->name);
      return -1;
    }
  }
  m->nq = off;
  m->nw = 6 * (int)nb;
  return 0;
}

/* Applied loads ([L] §5): body, kind, frame and time profile. */
static int add_loads(cosrod_mbs *m, const cosrod_mbs_def *def, cosrod_status *st, char *err, size_t errlen) {
  size_t nb = m->nb;
  for (size_t i = 0; i < m->nl; ++i) {
    const cosrod_body_load_def *ld = &def->loads[i];
    mbs_load *l = &m->loads[i];
    if (ld->body < 0 || (size_t)ld->body >= nb) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "load %zu: body index %d out of range", i, ld->body);
      return -1;
    }
    const mbs_body *b = &m->bodies[ld->body];
    l->body = ld->body;
    l->kind = ld->kind;
    l->frame = ld->frame;
    l->profile = ld->profile;
    l->t0 = ld->t0;
    l->t1 = ld->t1;
    if (l->profile == COSROD_BODY_LOAD_RAMP && !(l->t1 > l->t0)) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "load %zu: ramp needs t1 > t0", i);
      return -1;
    }
    matT_vec(l->at, b->Q, ld->at);
    if (l->frame == COSROD_BODY_LOAD_BODY)
      matT_vec(l->value, b->Q, ld->value);
    else
      cosrod_vec3_copy(l->value, ld->value);
    if (l->profile != COSROD_BODY_LOAD_CONSTANT) m->time_dependent = 1;
  }
  return 0;
}

/* Bushings: the sides in the internal frames (ground first: swapped). */
static int add_bushings(cosrod_mbs *m, const cosrod_mbs_def *def, cosrod_status *st, char *err,
                        size_t errlen) {
  size_t nb = m->nb;
  for (size_t i = 0; i < m->nbu; ++i) {
    cosrod_bushing_def bsw = def->bushings[i];
    if (bsw.body[0] < 0) { /* ground first: swap the sides (the force law is symmetric) */
      bsw.body[0] = def->bushings[i].body[1], bsw.body[1] = def->bushings[i].body[0];
      memcpy(bsw.at[0], def->bushings[i].at[1], sizeof bsw.at[0]);
      memcpy(bsw.at[1], def->bushings[i].at[0], sizeof bsw.at[1]);
    }
    const cosrod_bushing_def *bd = &bsw;
    mbs_bushing *bu = &m->bushings[i];
    for (int s = 0; s < 2; ++s) {
      int b = bd->body[s];
      if (b < -1 - (int)m->nkin || b >= (int)nb || (s == 0 && b < 0)) {
        fail(st, err, errlen, COSROD_ERR_INVALID, "bushing %zu: invalid body index %d", i, b);
        return -1;
      }
      bu->body[s] = b;
      if (b >= 0) {
        matT_vec(bu->at[s], m->bodies[b].Q, bd->at[s]);
        cosrod_quat_from_matrix(s ? bu->qb0 : bu->qa0, m->bodies[b].R0);
        cosrod_quat_normalise(s ? bu->qb0 : bu->qa0, s ? bu->qb0 : bu->qa0);
      } else if (b <= -2) { /* kinematic frame: at and qb0 in its frame at t = 0 */
        double x[3], v[3], w[3], a[3], al[3];
        cosrod_vec3_copy(bu->at[s], bd->at[s]);
        m->kin_fn(m->kin_user, -2 - b, 0.0, x, bu->qb0, v, w, a, al);
        m->time_dependent = 1;
      } else {
        cosrod_vec3_copy(bu->at[s], bd->at[s]);
        cosrod_quat_identity(s ? bu->qb0 : bu->qa0);
      }
    }
    if (bd->k < 0 || bd->c < 0 || bd->k_rot < 0 || bd->c_rot < 0) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "bushing %zu: negative stiffness or damping", i);
      return -1;
    }
    bu->k = bd->k;
    bu->c = bd->c;
    bu->k_rot = bd->k_rot;
    bu->c_rot = bd->c_rot;
  }
  return 0;
}

/* Joints: sides, axes in the internal frames and the constraint rows. */
static int add_joints(cosrod_mbs *m, const cosrod_mbs_def *def, cosrod_status *st, char *err, size_t errlen) {
  size_t nb = m->nb;
  for (size_t j = 0; j < m->nj; ++j) {
    const cosrod_joint_def *jd = &def->joints[j];
    mbs_joint *jt = &m->joints[j];
    int b0 = jd->body[0], b1 = jd->body[1];
    const int lo = -1 - (int)m->nkin;
    if (b0 < lo || b0 >= (int)nb || b1 < lo || b1 >= (int)nb || b0 == b1 || (b0 < 0 && b1 < 0)) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "joint %zu: invalid bodies (%d, %d)", j, b0, b1);
      return -1;
    }
    const int kin = b0 <= -2 ? b0 : b1 <= -2 ? b1 : 0; /* a kinematic side: g(q, t) */
    if (kin && m->joint_form != COSROD_JOINTS_MULTIPLIERS) {
      fail(
          st, err, errlen, COSROD_ERR_INVALID,
          "joint %zu: a side on a kinematic (prescribed-motion) frame needs the multiplier joint formulation",
          j);
      return -1;
    }
    if ((int)jd->type < 0 || jd->type > COSROD_JOINT_FIXED) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "joint %zu: unknown type", j);
      return -1;
    }
    jt->type = jd->type;
    double axis[3], ax2[3];
    static const double ez[3] = {0, 0, 1};
    const double *ain =
        (jd->type == COSROD_JOINT_SPHERICAL || jd->type == COSROD_JOINT_FIXED) ? ez : jd->axis;
    if (cosrod_vec3_norm(ain) == 0.0 ||
        (jd->type == COSROD_JOINT_UNIVERSAL && cosrod_vec3_norm(jd->axis2) == 0.0)) {
      fail(st, err, errlen, COSROD_ERR_INVALID, "joint %zu: zero axis", j);
      return -1;
    }
    const double *Ra0, *Rb0;
    static const double Id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    double Rk0[9]; /* rotation of the kinematic side at t = 0 */
    if (kin) {
      double x[3], q[4], v[3], w[3], a[3], al[3];
      m->kin_fn(m->kin_user, -2 - kin, 0.0, x, q, v, w, a, al);
      cosrod_quat_normalise(q, q);
      cosrod_quat_to_matrix(Rk0, q);
      m->time_dependent = 1;
    }
    const double *Rg = kin ? Rk0 : Id; /* frame of a non-body side (ground, kinematic) at t = 0 */
    if (b0 >= 0) {
      jt->body[0] = b0, jt->body[1] = b1, jt->swapped = 0;
      matT_vec(jt->at[0], m->bodies[b0].Q, jd->at[0]);
      if (b1 >= 0)
        matT_vec(jt->at[1], m->bodies[b1].Q, jd->at[1]);
      else
        cosrod_vec3_copy(jt->at[1], jd->at[1]);
      Ra0 = m->bodies[b0].R0;
      Rb0 = b1 >= 0 ? m->bodies[b1].R0 : Rg;
      matT_vec(axis, m->bodies[b0].Q, ain); /* user body frame -> internal */
      if (b1 >= 0)
        matT_vec(ax2, m->bodies[b1].Q, jd->axis2);
      else
        cosrod_vec3_copy(ax2, jd->axis2);
    } else { /* ground or kinematic frame first: side a is body b1 */
      jt->body[0] = b1, jt->body[1] = b0, jt->swapped = 1;
      matT_vec(jt->at[0], m->bodies[b1].Q, jd->at[1]);
      cosrod_vec3_copy(jt->at[1], jd->at[0]);
      Ra0 = m->bodies[b1].R0;
      Rb0 = Rg;
      if (jd->type == COSROD_JOINT_UNIVERSAL) {
        matT_vec(axis, m->bodies[b1].Q, jd->axis2);
        cosrod_vec3_copy(ax2, ain);
      } else {
        double sp[3];
        mat_vec(sp, Rg, ain);    /* side-b frame -> spatial */
        matT_vec(axis, Ra0, sp); /* spatial -> internal frame of a */
        cosrod_vec3_zero(ax2);
      }
    }
    cosrod_vec3_normalise(axis, axis);
    if (cosrod_vec3_norm(ax2) > 0) cosrod_vec3_normalise(ax2, ax2);
    add_rows(m, (int)j, Rb0, Ra0, axis, ax2);
  }
  return 0;
}

/* Consistent initial twists at the raw initial state in d (multiplier form):
 * w <- w - M^-1 J^T (J M^-1 J^T)^-1 (J w + g_t).  Returns 1 or 0. */
static int consistent_twists(cosrod_mbs *m, cosrod_mbs_data *d, cosrod_status *st, char *err, size_t errlen) {
  size_t nb = m->nb;
  int ok = 1;
  const int nc = m->nc;
  if (nc <= 0) return ok;
  memset(d->tmp, 0, (size_t)m->nw * sizeof(double));
  double save_r = m->bg_r, save_o = m->bg_omega;
  m->bg_r = m->bg_omega = 0.0;
  /* with h = 0, gamma = 0: lambda = S^-1 (J M^-1 0 + 0) -> use rhs = -J w */
  for (int i = 0; i < m->nc; ++i) d->gam[i] = 0.0, d->g[i] = 0.0;
  double *Jw = calloc((size_t)nc, sizeof *Jw);
  if (!Jw) ok = 0;
  for (int i = 0; ok && i < m->nc; ++i) {
    double s = 0.0;
    for (int j = 0; j < m->nw; ++j) s += d->Jc[i + m->nc * j] * d->w[j];
    Jw[i] = s;
  }
  /* multiplier solve with gamma := J w + g_t gives hc = -J^T S^-1 (J w + g_t) */
  for (int i = 0; ok && i < m->nc; ++i) Jw[i] += d->gt[i];
  if (ok) {
    memcpy(d->gam, Jw, (size_t)m->nc * sizeof(double));
    if (mbs_solve_multipliers(m, d)) {
      fail(st, err, errlen, COSROD_ERR_KINEMATIC, "joints: redundant or singular joint constraints at t = 0");
      ok = 0;
    }
  }
  if (ok)
    for (size_t i = 0; i < nb; ++i)
      for (int k = 0; k < 6; ++k) {
        double mk = k < 3 ? m->bodies[i].mass : m->bodies[i].inertia[k - 3];
        double dw = d->hc[6 * i + k] / mk;
        if (k < 3)
          m->bodies[i].v0[k] += dw;
        else
          m->bodies[i].om0[k - 3] += dw;
      }
  free(Jw);
  m->bg_r = save_r, m->bg_omega = save_o;
  return ok;
}

/* Initial checks with a scratch data object: constraint residuals, consistent
 * twists and (null space) the partition.  Returns 0 or -1. */
static int initial_checks(cosrod_mbs *m, cosrod_status *st, char *err, size_t errlen) {
  size_t nb = m->nb;
  cosrod_mbs_data *d = NULL;
  int ndof_save = m->ndof;
  cosrod_joint_form jf = m->joint_form;
  m->joint_form = COSROD_JOINTS_MULTIPLIERS; /* evaluate J at the raw initial twists */
  int nsave = m->n;
  m->n = m->nq + m->nw;
  {
    int vo = m->nq;
    for (size_t i = 0; i < nb; ++i) m->bodies[i].voff = vo, vo += 6;
  }
  int *abs_flags = calloc(nb, sizeof *abs_flags);
  if (!abs_flags) {
    fail(st, err, errlen, COSROD_ERR_NOMEM, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < nb; ++i) abs_flags[i] = m->bodies[i].absolute, m->bodies[i].absolute = 0;
  d = cosrod_mbs_data_create(m, NULL);
  double *y = d ? calloc((size_t)m->n + 1, sizeof *y) : NULL;
  int ok = d && y;
  if (ok) {
    for (size_t i = 0; i < nb; ++i) {
      const mbs_body *b = &m->bodies[i];
      cosrod_vec3_copy(y + b->qoff, b->x0);
      memcpy(y + b->qoff + 3, b->r0, (size_t)b->nr * sizeof(double));
      cosrod_vec3_copy(y + b->voff, b->v0);
      cosrod_vec3_copy(y + b->voff + 3, b->om0);
    }
    mbs_kinematics(m, d, 0.0, y);
    double scale = 1.0;
    for (size_t j = 0; j < m->nj; ++j)
      for (int s = 0; s < 2; ++s) scale = fmax(scale, cosrod_vec3_norm(m->joints[j].at[s]));
    for (int i = 0; i < m->nc; ++i)
      if (fabs(d->g[i]) > 1e-8 * scale) {
        const mbs_joint *jt = &m->joints[m->rows[i].joint];
        fail(st, err, errlen, COSROD_ERR_INVALID,
             "joint %d (%s - %s): initial positions violate the joint constraint (residual %.3g)",
             m->rows[i].joint, body_name(m, jt->body[0]), body_name(m, jt->body[1]), d->g[i]);
        ok = 0;
        break;
      }
    if (ok && m->nc > 0) ok = consistent_twists(m, d, st, err, errlen);
    if (ok && jf == COSROD_JOINTS_NULLSPACE && m->nc > 0 &&
        mbs_partition_select(m->nc, m->nw, d->Jc, d->tmp2, d->iw, m->dep, m->ind)) {
      fail(st, err, errlen, COSROD_ERR_KINEMATIC, "joints: redundant or singular joint constraints at t = 0");
      ok = 0;
    }
    if (ok && jf == COSROD_JOINTS_NULLSPACE && m->nc == 0)
      for (int k = 0; k < m->nw; ++k) m->ind[k] = k;
  } else {
    fail(st, err, errlen, COSROD_ERR_NOMEM, "out of memory");
  }
  free(y);
  cosrod_mbs_data_free(d);
  d = NULL;
  for (size_t i = 0; i < nb; ++i) m->bodies[i].absolute = abs_flags[i];
  free(abs_flags);
  m->joint_form = jf;
  m->ndof = ndof_save;
  m->n = nsave;
  if (jf == COSROD_JOINTS_NULLSPACE)
    for (size_t i = 0; i < nb; ++i) m->bodies[i].voff = -1;
  else {
    int vo = m->nq;
    for (size_t i = 0; i < nb; ++i) m->bodies[i].voff = vo, vo += m->bodies[i].nv;
  }
  return ok ? 0 : -1;
}

static cosrod_mbs *mbs_create(const cosrod_mbs_def *def, cosrod_status *st, char *err, size_t errlen) {
  if (st) *st = COSROD_OK;
  if (err && errlen) err[0] = '\0';
  if (!def || def->nbodies == 0 || (def->nkin && !def->kin_fn)) {
    if (def && def->kin_free) def->kin_free(def->kin_user);
    fail(st, err, errlen, COSROD_ERR_INVALID, "bodies: at least one body is needed");
    return NULL;
  }
  cosrod_mbs *m = calloc(1, sizeof *m);
  if (!m) {
    if (def->kin_free) def->kin_free(def->kin_user);
    fail(st, err, errlen, COSROD_ERR_NOMEM, "out of memory");
    return NULL;
  }
  m->nkin = def->nkin, m->kin_fn = def->kin_fn, m->kin_user = def->kin_user, m->kin_free = def->kin_free;
  size_t nb = def->nbodies;
  m->nb = nb;
  m->nl = def->nloads;
  m->nbu = def->nbushings;
  m->nj = def->njoints;
  m->bodies = calloc(nb, sizeof *m->bodies);
  m->loads = calloc(m->nl + 1, sizeof *m->loads);
  m->bushings = calloc(m->nbu + 1, sizeof *m->bushings);
  m->joints = calloc(m->nj + 1, sizeof *m->joints);
  m->rows = calloc(6 * m->nj + 1, sizeof *m->rows);
  m->dep = calloc(6 * m->nj + 1, sizeof *m->dep);
  m->ind = calloc(6 * nb + 1, sizeof *m->ind);
  if (!m->bodies || !m->loads || !m->bushings || !m->joints || !m->rows || !m->dep || !m->ind) {
    fail(st, err, errlen, COSROD_ERR_NOMEM, "out of memory");
    goto bad;
  }
  cosrod_vec3_copy(m->gravity, def->gravity);
  m->body_form = def->body_form;
  m->joint_form = def->joint_form;
  m->bg_omega = def->baumgarte_omega;
  m->bg_r = def->baumgarte_r;
  if (m->joint_form == COSROD_JOINTS_NULLSPACE && m->body_form == COSROD_BODY_ABSOLUTE) {
    fail(st, err, errlen, COSROD_ERR_INVALID,
         "solver: null-space joints need the null-space body formulation (absolute bodies use multipliers)");
    goto bad;
  }
  if (add_bodies(m, def, st, err, errlen) || add_loads(m, def, st, err, errlen) ||
      add_bushings(m, def, st, err, errlen) || add_joints(m, def, st, err, errlen))
    goto bad;
  m->ndof = m->nw - m->nc;
  if (m->ndof < 0) {
    fail(st, err, errlen, COSROD_ERR_INVALID, "joints: more constraints (%d) than body coordinates (%d)",
         m->nc, m->nw);
    goto bad;
  }
  if (m->joint_form == COSROD_JOINTS_NULLSPACE) {
    m->n = m->nq + m->ndof;
  } else {
    int vo = m->nq;
    for (size_t i = 0; i < nb; ++i) {
      m->bodies[i].voff = vo;
      vo += m->bodies[i].nv;
    }
    m->n = vo;
  }
  if (initial_checks(m, st, err, errlen)) goto bad;
  return m;
bad:
  cosrod_mbs_free(m);
  return NULL;
}

cosrod_mbs *cosrod_mbs_create(const cosrod_mbs_def *def, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  cosrod_mbs *obj = mbs_create(def, &st, msg, sizeof msg);
  return cosrod_error_result(obj, status, st, msg);
}

void cosrod_mbs_initial_state(const cosrod_mbs *m, double *y) {
  for (size_t i = 0; i < m->nb; ++i) {
    const mbs_body *b = &m->bodies[i];
    cosrod_vec3_copy(y + b->qoff, b->x0);
    memcpy(y + b->qoff + 3, b->r0, (size_t)b->nr * sizeof(double));
    if (m->joint_form == COSROD_JOINTS_MULTIPLIERS) {
      cosrod_vec3_copy(y + b->voff, b->v0);
      if (b->absolute)
        mbs_rate_from_omega(b, b->r0, b->om0, y + b->voff + 3);
      else
        cosrod_vec3_copy(y + b->voff + 3, b->om0);
    }
  }
  if (m->joint_form == COSROD_JOINTS_NULLSPACE)
    for (int k = 0; k < m->ndof; ++k) {
      int j = m->ind[k];
      const mbs_body *b = &m->bodies[j / 6];
      y[m->nq + k] = j % 6 < 3 ? b->v0[j % 6] : b->om0[j % 6 - 3];
    }
}

void cosrod_mbs_body_state(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, size_t i, double x[3],
                           double q[4], double v[3], double Omega[3]) {
  const mbs_body *b = &m->bodies[i];
  mbs_kinematics(m, d, d->t, y);
  if (x) cosrod_vec3_copy(x, y + b->qoff);
  if (q) { /* user frame: R_user = R_int Q^T */
    double qi[4], qQ[4];
    mbs_quat_of(b, y + b->qoff + 3, qi);
    cosrod_quat_from_matrix(qQ, b->Q);
    cosrod_quat_normalise(qQ, qQ);
    cosrod_quat_mul_conj(q, qi, qQ);
    if (q[0] < 0)
      for (int k = 0; k < 4; ++k) q[k] = -q[k];
  }
  if (v) cosrod_vec3_copy(v, d->w + 6 * i);
  if (Omega) mat_vec(Omega, b->Q, d->w + 6 * i + 3);
}
