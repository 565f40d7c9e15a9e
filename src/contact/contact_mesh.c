// SPDX-License-Identifier: Apache-2.0
/* Triangle meshes: checks, normals, the bounding-volume hierarchy and the
 * signed distance used by the narrow phase (files: contact_mesh_io.c).
 *
 * A mesh is
 * a closed, consistently oriented 2-manifold when every undirected edge is
 * used exactly twice, once in each direction.
 *
 * Signed distance: the closest point over all triangles (point-triangle by
 * Voronoi regions, Ericson, Real-Time Collision Detection §5.1.5), signed by
 * the angle-weighted pseudo-normal of the closest feature (face normal, the sum
 * of the two face normals of an edge, the angle-weighted vertex normal), which
 * gives the correct inside/outside sign for closed meshes (Baerentzen and
 * Aanaes, "Signed distance computation using the angle weighted
 * pseudonormal", IEEE TVCG 2005).  Gradient and Hessian follow the feature as
 * for the analytic shapes (contact_shape.c): 0 on faces, the edge and vertex
 * forms elsewhere.  The search is a linear scan with bounding-box culling of
 * the triangles (meshes of clips and parts: hundreds of triangles). */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact_internal.h"
#include "cosrod/vec3.h"
#include "core/error.h"

struct cosrod_mesh {
  int nv, nt;
  double *v;    /* (nv x 3) */
  int *t;       /* (nt x 3) */
  double *fn;   /* (nt x 3) face normals */
  double *en;   /* (nt x 3 x 3) edge pseudo-normals, edge k = (t_k, t_{k+1}) */
  double *vn;   /* (nv x 3) vertex pseudo-normals */
  double *tbox; /* (nt x 6) triangle bounding boxes lo, hi */
  /* bounding-volume hierarchy: node boxes (nn x 6), children or leaf ranges;
   * tri_order (nt) lists the triangles leaf by leaf */
  int nn;
  double *nbox;
  int *nleft, *nright, *nfirst, *ncount, *tri_order;
  double lo[3], hi[3];
  int closed;
};

void cosrod_mesh_free(cosrod_mesh *m) {
  if (!m) return;
  free(m->v);
  free(m->t);
  free(m->fn);
  free(m->en);
  free(m->vn);
  free(m->tbox);
  free(m->nbox);
  free(m->nleft);
  free(m->nright);
  free(m->nfirst);
  free(m->ncount);
  free(m->tri_order);
  free(m);
}

int cosrod_mesh_ntriangles(const cosrod_mesh *m) { return m->nt; }
int cosrod_mesh_is_closed(const cosrod_mesh *m) { return m->closed; }
int cosrod_mesh_nvertices(const cosrod_mesh *m) { return m->nv; }
const double *cosrod_mesh_vertices(const cosrod_mesh *m) { return m->v; }
const int *cosrod_mesh_triangles(const cosrod_mesh *m) { return m->t; }
void cosrod_contact_mesh_bounds(const cosrod_mesh *m, double lo[3], double hi[3]) {
  cosrod_vec3_copy(lo, m->lo);
  cosrod_vec3_copy(hi, m->hi);
}

typedef struct edge_rec {
  int a, b, tri, k; /* a < b; k = edge index in tri; dir = 1 when stored a->b */
  int dir;
} edge_rec;

static int edge_cmp(const void *x, const void *y) {
  const edge_rec *e = x, *f = y;
  if (e->a != f->a) return e->a < f->a ? -1 : 1;
  if (e->b != f->b) return e->b < f->b ? -1 : 1;
  return 0;
}

/* ---- bounding-volume hierarchy --------------------------------------------
 * A binary tree of triangle boxes, split at the median centroid along the
 * longest axis of the centroids' box, leaves of at most 4 triangles (Ericson,
 * Real-Time Collision Detection, ch. 6).  Closest-point queries descend the
 * nearer child first and prune nodes whose box is farther than the best
 * distance found: O(log T) per query for well-shaped meshes. */
static const double *bvh_tbox;
static int bvh_axis;
static int bvh_cmp(const void *x, const void *y) {
  const double *a = bvh_tbox + 6 * *(const int *)x, *b = bvh_tbox + 6 * *(const int *)y;
  double ca = a[bvh_axis] + a[3 + bvh_axis], cb = b[bvh_axis] + b[3 + bvh_axis];
  return ca < cb ? -1 : (ca > cb ? 1 : 0);
}

static int bvh_node(cosrod_mesh *m, int first, int count) {
  int id = m->nn++;
  double *bx = m->nbox + 6 * id, clo[3], chi[3];
  for (int k = 0; k < 3; ++k) {
    bx[k] = clo[k] = DBL_MAX;
    bx[3 + k] = chi[k] = -DBL_MAX;
  }
  for (int i = first; i < first + count; ++i) {
    const double *tb = m->tbox + 6 * m->tri_order[i];
    for (int k = 0; k < 3; ++k) {
      double c = 0.5 * (tb[k] + tb[3 + k]);
      bx[k] = fmin(bx[k], tb[k]);
      bx[3 + k] = fmax(bx[3 + k], tb[3 + k]);
      clo[k] = fmin(clo[k], c);
      chi[k] = fmax(chi[k], c);
    }
  }
  m->nfirst[id] = first;
  m->ncount[id] = count;
  m->nleft[id] = m->nright[id] = -1;
  if (count <= 4) return id;
  int ax = 0;
  for (int k = 1; k < 3; ++k)
    if (chi[k] - clo[k] > chi[ax] - clo[ax]) ax = k;
  bvh_tbox = m->tbox;
  bvh_axis = ax;
  qsort(m->tri_order + first, (size_t)count, sizeof(int), bvh_cmp);
  int half = count / 2;
  int l = bvh_node(m, first, half);
  int r = bvh_node(m, first + half, count - half);
  m->nleft[id] = l;
  m->nright[id] = r;
  return id;
}

static int bvh_build(cosrod_mesh *m, const char *name, char *err, size_t errlen) {
  int cap = 2 * m->nt;
  m->nbox = malloc((size_t)cap * 6 * sizeof(double));
  m->nleft = malloc((size_t)cap * sizeof(int));
  m->nright = malloc((size_t)cap * sizeof(int));
  m->nfirst = malloc((size_t)cap * sizeof(int));
  m->ncount = malloc((size_t)cap * sizeof(int));
  m->tri_order = malloc((size_t)m->nt * sizeof(int));
  if (!m->nbox || !m->nleft || !m->nright || !m->nfirst || !m->ncount || !m->tri_order) {
    snprintf(err, errlen, "%s: out of memory", name);
    return 0;
  }
  for (int i = 0; i < m->nt; ++i) m->tri_order[i] = i;
  m->nn = 0;
  bvh_node(m, 0, m->nt);
  return 1;
}

/* Normals, pseudo-normals, boxes and the manifold check. */
static int mesh_finish(cosrod_mesh *m, int require_closed, const char *name, char *err, size_t errlen) {
  int nt = m->nt;
  m->fn = calloc((size_t)nt * 3, sizeof(double));
  m->en = calloc((size_t)nt * 9, sizeof(double));
  m->vn = calloc((size_t)m->nv * 3, sizeof(double));
  m->tbox = calloc((size_t)nt * 6, sizeof(double));
  edge_rec *E = calloc((size_t)nt * 3, sizeof(edge_rec));
  if (!m->fn || !m->en || !m->vn || !m->tbox || !E) {
    free(E);
    snprintf(err, errlen, "%s: out of memory", name);
    return 0;
  }
  for (int k = 0; k < 3; ++k) {
    m->lo[k] = DBL_MAX;
    m->hi[k] = -DBL_MAX;
  }
  for (int i = 0; i < nt; ++i) {
    const int *t = m->t + 3 * i;
    const double *A = m->v + 3 * t[0], *B = m->v + 3 * t[1], *C = m->v + 3 * t[2];
    double ab[3], ac[3], n[3];
    cosrod_vec3_sub(ab, B, A);
    cosrod_vec3_sub(ac, C, A);
    cosrod_vec3_cross(n, ab, ac);
    double len = cosrod_vec3_norm(n);
    if (!(len > 0.0)) {
      free(E);
      snprintf(err, errlen, "%s: triangle %d is degenerate (zero area)", name, i + 1);
      return 0;
    }
    for (int k = 0; k < 3; ++k) m->fn[3 * i + k] = n[k] / len;
    for (int c = 0; c < 3; ++c) { /* angle-weighted vertex normals */
      const double *P = m->v + 3 * t[c], *Q = m->v + 3 * t[(c + 1) % 3], *R = m->v + 3 * t[(c + 2) % 3];
      double u[3], w[3];
      cosrod_vec3_sub(u, Q, P);
      cosrod_vec3_sub(w, R, P);
      double ang =
          acos(fmax(-1.0, fmin(1.0, cosrod_vec3_dot(u, w) / (cosrod_vec3_norm(u) * cosrod_vec3_norm(w)))));
      for (int k = 0; k < 3; ++k) m->vn[3 * t[c] + k] += ang * m->fn[3 * i + k];
      int a = t[c], b = t[(c + 1) % 3];
      E[3 * i + c] = (edge_rec){a < b ? a : b, a < b ? b : a, i, c, a < b};
    }
    for (int k = 0; k < 3; ++k) {
      double lo = fmin(A[k], fmin(B[k], C[k])), hi = fmax(A[k], fmax(B[k], C[k]));
      m->tbox[6 * i + k] = lo;
      m->tbox[6 * i + 3 + k] = hi;
      m->lo[k] = fmin(m->lo[k], lo);
      m->hi[k] = fmax(m->hi[k], hi);
    }
  }
  for (int i = 0; i < m->nv; ++i) {
    double *n = m->vn + 3 * i, l = cosrod_vec3_norm(n);
    if (l > 0.0) cosrod_vec3_scale(n, 1.0 / l, n);
  }
  for (int i = 0; i < 3 * nt; ++i) /* boundary edges: the face normal */
    cosrod_vec3_copy(m->en + 3 * i, m->fn + 3 * (i / 3));
  qsort(E, (size_t)nt * 3, sizeof(edge_rec), edge_cmp);
  int closed = 1, bad = -1;
  for (int i = 0; i < 3 * nt;) {
    int j = i;
    while (j < 3 * nt && edge_cmp(E + i, E + j) == 0) ++j;
    if (j - i != 2 || E[i].dir == E[i + 1].dir) {
      closed = 0;
      if (bad < 0) bad = i;
    } else {
      double s[3];
      cosrod_vec3_add(s, m->fn + 3 * E[i].tri, m->fn + 3 * E[i + 1].tri);
      double l = cosrod_vec3_norm(s);
      if (l > 0.0) cosrod_vec3_scale(s, 1.0 / l, s);
      cosrod_vec3_copy(m->en + 3 * (3 * E[i].tri + E[i].k), s);
      cosrod_vec3_copy(m->en + 3 * (3 * E[i + 1].tri + E[i + 1].k), s);
    }
    i = j;
  }
  m->closed = closed;
  if (!closed && require_closed) {
    int n = 0;
    while (bad + n < 3 * nt && edge_cmp(E + bad, E + bad + n) == 0) ++n;
    snprintf(err, errlen,
             "%s: not a closed manifold: edge between vertices %d and %d (triangle %d) is used by %d "
             "triangle(s)%s",
             name, E[bad].a + 1, E[bad].b + 1, E[bad].tri + 1, n,
             n == 2 ? " with the same orientation" : " (need 2)");
    free(E);
    return 0;
  }
  free(E);
  return bvh_build(m, name, err, errlen);
}

static cosrod_mesh *mesh_create(const double *vertices, int nv, const int *triangles, int nt,
                                int require_closed, const char *name, char *err, size_t errlen) {
  if (nv < 3 || nt < 1) {
    snprintf(err, errlen, "%s: empty mesh (%d vertices, %d triangles)", name, nv, nt);
    return NULL;
  }
  for (int i = 0; i < 3 * nt; ++i)
    if (triangles[i] < 0 || triangles[i] >= nv) {
      snprintf(err, errlen, "%s: triangle %d refers to vertex %d of %d", name, i / 3 + 1, triangles[i] + 1,
               nv);
      return NULL;
    }
  cosrod_mesh *m = calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->nv = nv;
  m->nt = nt;
  m->v = malloc((size_t)nv * 3 * sizeof(double));
  m->t = malloc((size_t)nt * 3 * sizeof(int));
  if (!m->v || !m->t) {
    cosrod_mesh_free(m);
    snprintf(err, errlen, "%s: out of memory", name);
    return NULL;
  }
  memcpy(m->v, vertices, (size_t)nv * 3 * sizeof(double));
  memcpy(m->t, triangles, (size_t)nt * 3 * sizeof(int));
  if (!mesh_finish(m, require_closed, name, err, errlen)) {
    cosrod_mesh_free(m);
    return NULL;
  }
  return m;
}

cosrod_mesh *cosrod_mesh_create(const double *vertices, int nv, const int *triangles, int nt, int require_closed,
                                const char *name, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  cosrod_mesh *obj = mesh_create(vertices, nv, triangles, nt, require_closed, name, msg, sizeof msg);
  st = strstr(msg, "out of memory") ? COSROD_ERR_NOMEM : COSROD_ERR_INVALID;
  return cosrod_error_result(obj, status, st, msg);
}

/* ---- distances ----------------------------------------------------------- */

int cosrod_contact_point_triangle(double q[3], const double p[3], const double a[3], const double b[3],
                                  const double c[3]) {
  double ab[3], ac[3], ap[3], bp[3], cp[3];
  cosrod_vec3_sub(ab, b, a);
  cosrod_vec3_sub(ac, c, a);
  cosrod_vec3_sub(ap, p, a);
  double d1 = cosrod_vec3_dot(ab, ap), d2 = cosrod_vec3_dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    cosrod_vec3_copy(q, a);
    return 4;
  }
  cosrod_vec3_sub(bp, p, b);
  double d3 = cosrod_vec3_dot(ab, bp), d4 = cosrod_vec3_dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) {
    cosrod_vec3_copy(q, b);
    return 5;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    double v = d1 / (d1 - d3);
    for (int k = 0; k < 3; ++k) q[k] = a[k] + v * ab[k];
    return 1;
  }
  cosrod_vec3_sub(cp, p, c);
  double d5 = cosrod_vec3_dot(ab, cp), d6 = cosrod_vec3_dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) {
    cosrod_vec3_copy(q, c);
    return 6;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    double w = d2 / (d2 - d6);
    for (int k = 0; k < 3; ++k) q[k] = a[k] + w * ac[k];
    return 3;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int k = 0; k < 3; ++k) q[k] = b[k] + w * (c[k] - b[k]);
    return 2;
  }
  double den = 1.0 / (va + vb + vc), v = vb * den, w = vc * den;
  for (int k = 0; k < 3; ++k) q[k] = a[k] + v * ab[k] + w * ac[k];
  return 0;
}

static double box_dist2(const double *box, const double p[3]) {
  double s = 0.0;
  for (int k = 0; k < 3; ++k) {
    double e = fmax(box[k] - p[k], fmax(0.0, p[k] - box[3 + k]));
    s += e * e;
  }
  return s;
}

double cosrod_contact_sdf_mesh(const cosrod_shape *shape, const double p[3], double g[3], double H[9]) {
  const cosrod_mesh *m = shape->mesh;
  double best = DBL_MAX, qb[3] = {0, 0, 0};
  int ib = 0, fb = 0;
  int stack[128], sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    int nd = stack[--sp];
    if (box_dist2(m->nbox + 6 * nd, p) >= best) continue;
    if (m->nleft[nd] >= 0) { /* nearer child on top */
      int a = m->nleft[nd], b = m->nright[nd];
      if (box_dist2(m->nbox + 6 * a, p) < box_dist2(m->nbox + 6 * b, p)) {
        int t = a;
        a = b;
        b = t;
      }
      if (sp + 2 <= 128) {
        stack[sp++] = a;
        stack[sp++] = b;
        continue;
      }
    }
    int nfirst = m->nfirst[nd], nlast = nfirst + m->ncount[nd];
    for (int o = nfirst; o < nlast; ++o) {
      int i = m->tri_order[o];
      if (box_dist2(m->tbox + 6 * i, p) >= best) continue;
      const int *t = m->t + 3 * i;
      double q[3], d[3];
      int feat = cosrod_contact_point_triangle(q, p, m->v + 3 * t[0], m->v + 3 * t[1], m->v + 3 * t[2]);
      cosrod_vec3_sub(d, p, q);
      double d2 = cosrod_vec3_dot(d, d);
      if (d2 < best) {
        best = d2;
        ib = i;
        fb = feat;
        cosrod_vec3_copy(qb, q);
      }
    }
  }
  const int *t = m->t + 3 * ib;
  /* pseudo-normal of the feature; edges 1 = ab, 2 = bc, 3 = ca are edge k = fb - 1 */
  const double *N =
      fb == 0 ? m->fn + 3 * ib : (fb <= 3 ? m->en + 3 * (3 * ib + fb - 1) : m->vn + 3 * t[fb - 4]);
  double d[3], dist = sqrt(best);
  cosrod_vec3_sub(d, p, qb);
  double sg = cosrod_vec3_dot(d, N) >= 0.0 ? 1.0 : -1.0;
  m3_zero(H);
  if (fb == 0 || !(dist > 0.0)) {
    cosrod_vec3_copy(g, m->fn + 3 * ib);
    if (fb != 0) cosrod_vec3_copy(g, N);
    return sg * dist;
  }
  for (int k = 0; k < 3; ++k) g[k] = sg * d[k] / dist;
  m3_identity_add(H, sg / dist);
  m3_outer_add(H, -sg / dist, g, g);
  if (fb <= 3) { /* edge: remove the edge direction */
    const double *A = m->v + 3 * t[fb - 1], *B = m->v + 3 * t[fb % 3];
    double e[3];
    cosrod_vec3_sub(e, B, A);
    cosrod_vec3_scale(e, 1.0 / cosrod_vec3_norm(e), e);
    m3_outer_add(H, -sg / dist, e, e);
  }
  return sg * dist;
}

/* Unsigned distance of segment [a, b] from triangle (A, B, C). */
static double seg_tri(double *t, const double a[3], const double b[3], const double *A, const double *B,
                      const double *C, const double *n) {
  double e[3];
  cosrod_vec3_sub(e, b, a);
  double da = cosrod_vec3_dot(n, a) - cosrod_vec3_dot(n, A),
         db = cosrod_vec3_dot(n, b) - cosrod_vec3_dot(n, A);
  if ((da <= 0.0 && db >= 0.0) || (da >= 0.0 && db <= 0.0)) { /* crosses the plane: inside the triangle? */
    double tt = da == db ? 0.0 : da / (da - db), p[3], q[3], d[3];
    for (int k = 0; k < 3; ++k) p[k] = a[k] + tt * e[k];
    cosrod_contact_point_triangle(q, p, A, B, C);
    cosrod_vec3_sub(d, p, q);
    if (cosrod_vec3_dot(d, d) <= 1e-28 * (1.0 + cosrod_vec3_dot(p, p))) {
      *t = tt;
      return 0.0;
    }
  }
  double best = DBL_MAX, q[3], d[3];
  const double *P[3] = {A, B, C};
  for (int k = 0; k < 3; ++k) {
    double s, u;
    double dist = cosrod_segment_segment_closest(&s, &u, a, b, P[k], P[(k + 1) % 3]);
    if (dist < best) {
      best = dist;
      *t = s;
    }
  }
  for (int k = 0; k < 2; ++k) {
    const double *p = k ? b : a;
    cosrod_contact_point_triangle(q, p, A, B, C);
    cosrod_vec3_sub(d, p, q);
    double dist = cosrod_vec3_norm(d);
    if (dist < best) {
      best = dist;
      *t = k;
    }
  }
  return best;
}

double cosrod_contact_mesh_segment_closest(double *t, const cosrod_mesh *m, const double a[3],
                                           const double b[3]) {
  double best = DBL_MAX;
  *t = 0.0;
  for (int i = 0; i < m->nt; ++i) {
    const int *tr = m->t + 3 * i;
    double tt = 0.0,
           d = seg_tri(&tt, a, b, m->v + 3 * tr[0], m->v + 3 * tr[1], m->v + 3 * tr[2], m->fn + 3 * i);
    if (d < best) {
      best = d;
      *t = tt;
    }
  }
  return best;
}
