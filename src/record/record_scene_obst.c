// SPDX-License-Identifier: Apache-2.0
/* scene.json's obstacles and body shapes ([manual: contact]) for the viewer:
 *   "obstacles": [{"name", "shape", the shape's fields, "body": name | null,
 *                  "motion": null | {"t", "position", "orientation"}}]
 * and "shape": {"shape", the shape's fields} in a body's entry.  Fields per
 * shape: plane point, normal; sphere center, radius; cylinder center, axis,
 * radius, length (null: infinite); capsule a, b, radius; box center, size,
 * orientation [w, x, y, z]; mesh vertices [[x, y, z], ...], triangles
 * [[i, j, k], ...] (0-based).  A free obstacle's fields are spatial at t = 0
 * (keyframed: at its pose of t = 0; "motion" samples its pose, the position
 * of its reference point and the orientation of its frame, at the keyframes,
 * and between them for cubic interpolation, so that T(t) T(0)^-1 moves the
 * t = 0 geometry); a shape on a body (an obstacle with "body" or a body's own
 * "shape") has its fields in the body frame about the centre of mass. */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/contact.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "record_scene.h"
#include "sim/sim_translate.h"

static void put_v(FILE *f, const char *key, const double *v, int n) {
  fprintf(f, ", \"%s\": [", key);
  for (int i = 0; i < n; i++) fprintf(f, "%s%.17g", i ? ", " : "", v[i]);
  fputc(']', f);
}

/* The shape's fields at pose P, starting with ", ". */
static void put_fields(FILE *f, const cosrod_sc_obstacle *o, const cosrod_pose *P) {
  const cosrod_shape *s = &o->shape;
  double ez[3] = {0, 0, 1}, n[3];
  cosrod_quat_rotate(n, P->q, ez);
  switch (s->type) {
    case COSROD_SHAPE_PLANE:
      put_v(f, "point", P->position, 3);
      put_v(f, "normal", n, 3);
      break;
    case COSROD_SHAPE_SPHERE:
      put_v(f, "center", P->position, 3);
      fprintf(f, ", \"radius\": %.17g", s->radius);
      break;
    case COSROD_SHAPE_CYLINDER:
      put_v(f, "center", P->position, 3);
      put_v(f, "axis", n, 3);
      fprintf(f, ", \"radius\": %.17g", s->radius);
      if (s->half_length > 0)
        fprintf(f, ", \"length\": %.17g", 2.0 * s->half_length);
      else
        fputs(", \"length\": null", f);
      break;
    case COSROD_SHAPE_CAPSULE: {
      double a[3], b[3];
      for (int k = 0; k < 3; k++) {
        a[k] = P->position[k] - s->half_length * n[k];
        b[k] = P->position[k] + s->half_length * n[k];
      }
      put_v(f, "a", a, 3);
      put_v(f, "b", b, 3);
      fprintf(f, ", \"radius\": %.17g", s->radius);
      break;
    }
    case COSROD_SHAPE_BOX: {
      double size[3] = {2.0 * s->half[0], 2.0 * s->half[1], 2.0 * s->half[2]};
      put_v(f, "center", P->position, 3);
      put_v(f, "size", size, 3);
      put_v(f, "orientation", P->q, 4);
      break;
    }
    default: { /* mesh: loaded again (validated by the loader; empty if it went away) */
      cosrod_mesh *m = o->file ? cosrod_mesh_load(o->file, 0, NULL) : NULL;
      int nv = m ? cosrod_mesh_nvertices(m) : 0, nt = m ? cosrod_mesh_ntriangles(m) : 0;
      const double *v = m ? cosrod_mesh_vertices(m) : NULL;
      const int *t = m ? cosrod_mesh_triangles(m) : NULL;
      fputs(", \"vertices\": [", f);
      for (int i = 0; i < nv; i++) {
        double w[3];
        cosrod_quat_rotate(w, P->q, v + 3 * i);
        fprintf(f, "%s[%.17g, %.17g, %.17g]", i ? ", " : "", w[0] + P->position[0], w[1] + P->position[1],
                w[2] + P->position[2]);
      }
      fputs("], \"triangles\": [", f);
      for (int i = 0; i < nt; i++) fprintf(f, "%s[%d, %d, %d]", i ? ", " : "", t[3 * i], t[3 * i + 1], t[3 * i + 2]);
      fputc(']', f);
      cosrod_mesh_free(m);
    }
  }
}

int record_obstacle_pose(const cosrod_sc_obstacle *o, double t, cosrod_pose *P) {
  return sim_obstacle_pose(o, t, P); /* the runs' own evaluation (src/system/contact_element.c) */
}

/* Sample times of a keyframed obstacle: the union of its keyframe times,
 * plus 8 subdivisions of each interval when cubic; returns the count (at
 * most cap). */
static size_t motion_times(const cosrod_sc_obstacle *o, double *ts, size_t cap) {
  const cosrod_sc_keyframes *kf[2] = {&o->motion_position, &o->motion_orientation};
  size_t n = 0;
  for (int j = 0; j < 2; j++)
    for (size_t i = 0; i < kf[j]->n && n < cap; i++) ts[n++] = kf[j]->t[i];
  for (size_t i = 1; i < n; i++) /* insertion sort, then unique */
    for (size_t k = i; k > 0 && ts[k - 1] > ts[k]; k--) {
      double x = ts[k];
      ts[k] = ts[k - 1];
      ts[k - 1] = x;
    }
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (u == 0 || ts[i] != ts[u - 1]) ts[u++] = ts[i];
  if (!o->motion_cubic || u < 2) return u;
  size_t m = u + 7 * (u - 1);
  if (m > cap) return u;
  for (size_t i = u - 1, w = m - 1;; i--) { /* spread from the back */
    ts[w] = ts[i];
    if (i == 0) break;
    for (int s = 7; s >= 1; s--) ts[w - 8 + (size_t)s] = ts[i - 1] + (ts[i] - ts[i - 1]) * s / 8.0;
    w -= 8;
  }
  return m;
}

static void put_motion(FILE *f, const cosrod_sc_obstacle *o) {
  size_t cap = 8 * (o->motion_position.n + o->motion_orientation.n) + 1;
  double *ts = malloc(cap * sizeof *ts);
  size_t n = ts ? motion_times(o, ts, cap) : 0;
  cosrod_pose P;
  fputs(", \"motion\": {\"t\": [", f);
  for (size_t i = 0; i < n; i++) fprintf(f, "%s%.17g", i ? ", " : "", ts[i]);
  fputs("], \"position\": [", f);
  for (size_t i = 0; i < n; i++) {
    record_obstacle_pose(o, ts[i], &P);
    fprintf(f, "%s[%.17g, %.17g, %.17g]", i ? ", " : "", P.position[0], P.position[1], P.position[2]);
  }
  fputs("], \"orientation\": [", f);
  for (size_t i = 0; i < n; i++) {
    record_obstacle_pose(o, ts[i], &P);
    fprintf(f, "%s[%.17g, %.17g, %.17g, %.17g]", i ? ", " : "", P.q[0], P.q[1], P.q[2], P.q[3]);
  }
  fputs("]}", f);
  free(ts);
}

void record_scene_obstacles(FILE *f, const cosrod_scenario *sc) {
  fputs(",\n  \"obstacles\": [", f);
  int first = 1;
  for (size_t i = 0; i < sc->contact.nobstacles; i++) {
    const cosrod_sc_obstacle *o = &sc->contact.obstacles[i];
    if (o->body_shape) continue;
    cosrod_pose P;
    record_obstacle_pose(o, 0.0, &P);
    fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
    first = 0;
    record_json_str(f, o->name);
    fprintf(f, ", \"shape\": \"%s\"", cosrod_sc_shape_type_name(o->shape.type));
    put_fields(f, o, &P);
    fputs(", \"body\": ", f);
    if (o->body >= 0)
      record_json_str(f, sc->bodies[o->body].name);
    else
      fputs("null", f);
    if (o->has_motion)
      put_motion(f, o);
    else
      fputs(", \"motion\": null", f);
    fputc('}', f);
  }
  fputs(first ? "]" : "\n  ]", f);
}

void record_scene_body_shape(FILE *f, const cosrod_scenario *sc, size_t b) {
  const cosrod_sc_body *B = &sc->bodies[b];
  if (!B->has_shape) return;
  const cosrod_sc_obstacle *o = &sc->contact.obstacles[B->shape_obstacle];
  fprintf(f, ", \"shape\": {\"shape\": \"%s\"", cosrod_sc_shape_type_name(o->shape.type));
  put_fields(f, o, &o->pose);
  fputc('}', f);
}
