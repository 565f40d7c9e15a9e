// SPDX-License-Identifier: Apache-2.0
/* Narrow phase: signed distance functions of the obstacle shapes and closest
 * points of segments.
 *
 * Every shape is described in its local frame by its signed distance
 * sdf(p) (negative inside), its gradient n = grad sdf (the outward unit normal
 * at the closest surface point q) and its Hessian.  With d = p - q(p) and
 * |d| = |sdf|, grad sdf = d/sdf and the Hessian is (I - n n^T)(I - dq/dp)/sdf:
 * it vanishes on flat faces (dq/dp = I - n n^T), is (I - e e^T - n n^T)/|d|
 * next to an edge or a cylinder axis of direction e, and (I - n n^T)/|d| next to
 * a point (sphere centre, box corner, capsule end).  The box and the finite
 * cylinder use the "rounded-box" construction: outside, the distance is the
 * norm of the positive parts of the per-axis excesses; inside, the largest
 * (negative) excess.  These are the standard closest-feature constructions of
 * Ericson, Real-Time Collision Detection (2005), ch. 5, written here from that
 * description.
 *
 * A segment p(t) = a + t (b - a) against a convex shape: sdf is convex, so
 * phi(t) = sdf(p(t)) is a convex function on [0, 1]; its minimiser is found by
 * Newton on phi'(t) = n . (b - a) with phi'' = (b - a)^T H (b - a), safeguarded
 * by bisection on the sign of phi' (piecewise-flat sdf such as box faces give
 * phi'' = 0, where the bisection takes over).
 *
 * Segment-segment closest points: minimise |p0 + s d1 - q0 - u d2|^2 over the
 * unit square; the unconstrained stationary point from the 2x2 normal
 * equations, clamped to [0, 1] in s, u re-solved for the clamped s and
 * re-clamped, s re-solved for a clamped u (Ericson §5.1.9).  Parallel or
 * degenerate segments (a e - b^2 <= eps a e) take s = 0 and the optimal u,
 * which is one minimising pair. */
#include <float.h>
#include <math.h>

#include "contact/contact_internal.h"
#include "cosrod/quat.h"

static double clamp01(double t) { return t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t); }

static double sdf_plane(const cosrod_shape *s, const double p[3], double g[3], double H[9]) {
  (void)s;
  cosrod_vec3_set(g, 0.0, 0.0, 1.0);
  m3_zero(H);
  return p[2];
}

/* Distance from a point: value |p - c| - R, normal, (I - n n^T)/|p - c|. */
static double sdf_point(const double d[3], double R, double g[3], double H[9]) {
  double n = cosrod_vec3_norm(d);
  m3_zero(H);
  if (n <= 0.0) {
    cosrod_vec3_set(g, 0.0, 0.0, 1.0); /* any direction: the centre */
    return -R;
  }
  for (int k = 0; k < 3; ++k) g[k] = d[k] / n;
  m3_identity_add(H, 1.0 / n);
  m3_outer_add(H, -1.0 / n, g, g);
  return n - R;
}

static double sdf_sphere(const cosrod_shape *s, const double p[3], double g[3], double H[9]) {
  return sdf_point(p, s->radius, g, H);
}

static double sdf_capsule(const cosrod_shape *s, const double p[3], double g[3], double H[9]) {
  double h = s->half_length;
  double z = p[2] < -h ? -h : (p[2] > h ? h : p[2]);
  double d[3] = {p[0], p[1], p[2] - z};
  double phi = sdf_point(d, s->radius, g, H);
  if (p[2] > -h && p[2] < h) { /* next to the axis: remove the axial direction */
    double rho = cosrod_vec3_norm(d);
    if (rho > 0.0) H[8] -= 1.0 / rho;
  }
  return phi;
}

static double sdf_cylinder(const cosrod_shape *s, const double p[3], double g[3], double H[9]) {
  double rho = hypot(p[0], p[1]);
  double u[3] = {1.0, 0.0, 0.0};
  if (rho > 0.0) cosrod_vec3_set(u, p[0] / rho, p[1] / rho, 0.0);
  double ez[3] = {0.0, 0.0, 1.0};
  double q1 = rho - s->radius;
  /* (I - e_z e_z^T - u u^T) / rho: curvature of the mantle */
  double C[9];
  m3_zero(C);
  if (rho > 0.0) {
    m3_identity_add(C, 1.0 / rho);
    m3_outer_add(C, -1.0 / rho, ez, ez);
    m3_outer_add(C, -1.0 / rho, u, u);
  }
  if (s->half_length <= 0.0) { /* infinite */
    cosrod_vec3_copy(g, u);
    for (int i = 0; i < 9; ++i) H[i] = C[i];
    return q1;
  }
  double sz = p[2] >= 0.0 ? 1.0 : -1.0;
  double q2 = fabs(p[2]) - s->half_length;
  double ec[3] = {0.0, 0.0, sz};
  m3_zero(H);
  if (q1 > 0.0 && q2 > 0.0) { /* next to the rim */
    double phi = hypot(q1, q2);
    for (int k = 0; k < 3; ++k) g[k] = (q1 * u[k] + q2 * ec[k]) / phi;
    m3_outer_add(H, 1.0 / phi, u, u);
    m3_outer_add(H, 1.0 / phi, ec, ec);
    m3_outer_add(H, -1.0 / phi, g, g);
    for (int i = 0; i < 9; ++i) H[i] += q1 / phi * C[i];
    return phi;
  }
  if (q1 >= q2) { /* mantle (outside or deepest inside) */
    cosrod_vec3_copy(g, u);
    for (int i = 0; i < 9; ++i) H[i] = C[i];
    return q1;
  }
  cosrod_vec3_copy(g, ec); /* cap */
  return q2;
}

static double sdf_box(const cosrod_shape *s, const double p[3], double g[3], double H[9]) {
  double q[3], w[3] = {0.0, 0.0, 0.0};
  int active[3] = {0, 0, 0}, nact = 0, kmax = 0;
  for (int k = 0; k < 3; ++k) {
    double sg = p[k] >= 0.0 ? 1.0 : -1.0;
    q[k] = fabs(p[k]) - s->half[k];
    if (q[k] > 0.0) {
      w[k] = sg * q[k];
      active[k] = 1;
      ++nact;
    }
    if (q[k] > q[kmax]) kmax = k;
  }
  m3_zero(H);
  if (nact == 0) { /* inside: the nearest face */
    cosrod_vec3_zero(g);
    g[kmax] = p[kmax] >= 0.0 ? 1.0 : -1.0;
    return q[kmax];
  }
  double phi = cosrod_vec3_norm(w);
  for (int k = 0; k < 3; ++k) g[k] = w[k] / phi;
  if (nact > 1) { /* edge or corner: (P - n n^T) / phi on the active axes */
    for (int k = 0; k < 3; ++k) H[4 * k] = active[k] / phi;
    m3_outer_add(H, -1.0 / phi, g, g);
  }
  return phi;
}

const contact_sdf_fn cosrod_contact_sdf_table[COSROD_SHAPE_COUNT] = {
    [COSROD_SHAPE_PLANE] = sdf_plane,       [COSROD_SHAPE_SPHERE] = sdf_sphere,
    [COSROD_SHAPE_CYLINDER] = sdf_cylinder, [COSROD_SHAPE_CAPSULE] = sdf_capsule,
    [COSROD_SHAPE_BOX] = sdf_box,           [COSROD_SHAPE_MESH] = cosrod_contact_sdf_mesh,
};

void cosrod_pose_identity(cosrod_pose *pose) {
  cosrod_vec3_zero(pose->position);
  cosrod_quat_identity(pose->q);
  cosrod_vec3_zero(pose->v);
  cosrod_vec3_zero(pose->omega);
}

double cosrod_shape_sdf(double grad[3], double hess[9], const cosrod_shape *shape, const cosrod_pose *pose,
                        const double p[3]) {
  double d[3], pl[3], gl[3], Hl[9];
  cosrod_vec3_sub(d, p, pose->position);
  cosrod_quat_rotate_inv(pl, pose->q, d);
  double phi = cosrod_contact_sdf_table[shape->type](shape, pl, gl, Hl);
  if (grad) cosrod_quat_rotate(grad, pose->q, gl);
  if (hess) { /* R Hl R^T */
    double R[9], T[9];
    cosrod_quat_to_matrix(R, pose->q);
    for (int c = 0; c < 3; ++c) m3_vec(T + 3 * c, Hl, (double[3]){R[c], R[3 + c], R[6 + c]});
    for (int c = 0; c < 3; ++c) m3_vec(hess + 3 * c, R, T + 3 * c);
  }
  return phi;
}

/* phi'(t) and phi''(t) of the restriction of sdf to the segment. */
static double seg_phi(double *d1, double *d2, const cosrod_shape *sh, const cosrod_pose *pose,
                      const double a[3], const double e[3], double t) {
  double p[3], g[3], H[9], He[3];
  for (int k = 0; k < 3; ++k) p[k] = a[k] + t * e[k];
  double phi = cosrod_shape_sdf(g, H, sh, pose, p);
  m3_vec(He, H, e);
  *d1 = cosrod_vec3_dot(g, e);
  *d2 = cosrod_vec3_dot(e, He);
  return phi;
}

double cosrod_shape_segment_closest(double *t, const cosrod_shape *shape, const cosrod_pose *pose,
                                    const double a[3], const double b[3]) {
  double e[3], d1, d2;
  cosrod_vec3_sub(e, b, a);
  if (shape->type == COSROD_SHAPE_MESH) {
    double al[3], bl[3], da[3], db[3];
    cosrod_vec3_sub(da, a, pose->position);
    cosrod_vec3_sub(db, b, pose->position);
    cosrod_quat_rotate_inv(al, pose->q, da);
    cosrod_quat_rotate_inv(bl, pose->q, db);
    return cosrod_contact_mesh_segment_closest(t, shape->mesh, al, bl);
  }
  double phi0 = seg_phi(&d1, &d2, shape, pose, a, e, 0.0);
  if (d1 >= 0.0) {
    *t = 0.0;
    return phi0;
  }
  double phi1 = seg_phi(&d1, &d2, shape, pose, a, e, 1.0);
  if (d1 <= 0.0) {
    *t = 1.0;
    return phi1;
  }
  double lo = 0.0, hi = 1.0, tt = 0.5;
  for (int it = 0; it < 200 && hi - lo > 1e-15; ++it) {
    seg_phi(&d1, &d2, shape, pose, a, e, tt);
    if (d1 > 0.0)
      hi = tt;
    else if (d1 < 0.0)
      lo = tt;
    else
      break;
    double tn = d2 > 0.0 ? tt - d1 / d2 : -1.0;
    if (!(tn > lo && tn < hi)) tn = 0.5 * (lo + hi);
    if (fabs(tn - tt) <= 1e-15) {
      tt = tn;
      break;
    }
    tt = tn;
  }
  *t = tt;
  return seg_phi(&d1, &d2, shape, pose, a, e, tt);
}

double cosrod_segment_segment_closest(double *s, double *u, const double p0[3], const double p1[3],
                                      const double q0[3], const double q1[3]) {
  double d1[3], d2[3], r[3];
  cosrod_vec3_sub(d1, p1, p0);
  cosrod_vec3_sub(d2, q1, q0);
  cosrod_vec3_sub(r, p0, q0);
  double a = cosrod_vec3_dot(d1, d1), e = cosrod_vec3_dot(d2, d2), f = cosrod_vec3_dot(d2, r);
  double ss = 0.0, uu = 0.0;
  double tiny = DBL_EPSILON * DBL_EPSILON;
  if (a <= tiny && e <= tiny) {
    ss = uu = 0.0;
  } else if (a <= tiny) {
    uu = clamp01(f / e);
  } else {
    double c = cosrod_vec3_dot(d1, r);
    if (e <= tiny) {
      ss = clamp01(-c / a);
    } else {
      double b = cosrod_vec3_dot(d1, d2), den = a * e - b * b;
      ss = den > 1e-14 * a * e ? clamp01((b * f - c * e) / den) : 0.0;
      uu = (b * ss + f) / e;
      if (uu < 0.0) {
        uu = 0.0;
        ss = clamp01(-c / a);
      } else if (uu > 1.0) {
        uu = 1.0;
        ss = clamp01((b - c) / a);
      }
    }
  }
  *s = ss;
  *u = uu;
  double dd[3];
  for (int k = 0; k < 3; ++k) dd[k] = p0[k] + ss * d1[k] - q0[k] - uu * d2[k];
  return cosrod_vec3_norm(dd);
}
