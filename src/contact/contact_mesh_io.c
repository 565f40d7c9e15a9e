// SPDX-License-Identifier: Apache-2.0
/* Mesh files: STL (ascii or binary, told apart by the binary size
 * 84 + 50 n) and OBJ (`v` and `f` records, polygons fanned, i/t/n index forms
 * and negative indices).  STL stores every triangle with its own corners;
 * exactly coincident corners are welded so that edges can be matched by
 * cosrod_mesh_create.  Errors name the file and, for parse errors, the line. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact_internal.h"
#include "cosrod/vec3.h"
#include "core/error.h"

/* ---- file readers -------------------------------------------------------- */

typedef struct soup {
  double *v; /* corners or vertices (n x 3) */
  int nv, capv;
  int *t;
  int nt, capt;
} soup;

static int soup_vertex(soup *s, const double p[3]) {
  if (s->nv == s->capv) {
    int c = s->capv ? 2 * s->capv : 64;
    double *v = realloc(s->v, (size_t)c * 3 * sizeof(double));
    if (!v) return 0;
    s->v = v;
    s->capv = c;
  }
  cosrod_vec3_copy(s->v + 3 * s->nv++, p);
  return 1;
}

static int soup_tri(soup *s, int a, int b, int c) {
  if (s->nt == s->capt) {
    int n = s->capt ? 2 * s->capt : 64;
    int *t = realloc(s->t, (size_t)n * 3 * sizeof(int));
    if (!t) return 0;
    s->t = t;
    s->capt = n;
  }
  s->t[3 * s->nt] = a;
  s->t[3 * s->nt + 1] = b;
  s->t[3 * s->nt + 2] = c;
  ++s->nt;
  return 1;
}

static const double *weld_base;
static int weld_cmp(const void *x, const void *y) {
  const double *a = weld_base + 3 * *(const int *)x, *b = weld_base + 3 * *(const int *)y;
  for (int k = 0; k < 3; ++k)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

/* Merge exactly coincident corners (STL). */
static int soup_weld(soup *s) {
  int n = s->nv, *ord = malloc((size_t)n * sizeof(int)), *map = malloc((size_t)n * sizeof(int));
  double *v = malloc((size_t)n * 3 * sizeof(double));
  if (!ord || !map || !v) {
    free(ord);
    free(map);
    free(v);
    return 0;
  }
  for (int i = 0; i < n; ++i) ord[i] = i;
  weld_base = s->v;
  qsort(ord, (size_t)n, sizeof(int), weld_cmp);
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || weld_cmp(ord + i - 1, ord + i) != 0) cosrod_vec3_copy(v + 3 * m++, s->v + 3 * ord[i]);
    map[ord[i]] = m - 1;
  }
  for (int i = 0; i < 3 * s->nt; ++i) s->t[i] = map[s->t[i]];
  free(s->v);
  s->v = v;
  s->nv = s->capv = m;
  free(ord);
  free(map);
  return 1;
}

static int read_stl_binary(soup *s, FILE *f, uint32_t n) {
  unsigned char rec[50];
  for (uint32_t i = 0; i < n; ++i) {
    if (fread(rec, 1, 50, f) != 50) return 0;
    for (int c = 0; c < 3; ++c) {
      float xyz[3];
      memcpy(xyz, rec + 12 + 12 * c, 12);
      if (!soup_vertex(s, (double[3]){xyz[0], xyz[1], xyz[2]})) return 0;
    }
    if (!soup_tri(s, s->nv - 3, s->nv - 2, s->nv - 1)) return 0;
  }
  return 1;
}

/* ASCII STL: "vertex x y z" lines, three per facet. Returns 0 and sets *bad. */
static int read_stl_ascii(soup *s, FILE *f, int *bad, const char **what) {
  char line[512];
  int lineno = 0, corners = 0;
  while (fgets(line, sizeof line, f)) {
    ++lineno;
    char *p = line;
    while (isspace((unsigned char)*p)) ++p;
    if (strncmp(p, "vertex", 6) == 0) {
      double x[3];
      if (sscanf(p + 6, "%lf %lf %lf", x, x + 1, x + 2) != 3 || !isfinite(x[0] + x[1] + x[2])) {
        *bad = lineno;
        *what = "expected 'vertex x y z' with three finite numbers";
        return 0;
      }
      if (!soup_vertex(s, x)) return 0;
      if (++corners == 3) {
        if (!soup_tri(s, s->nv - 3, s->nv - 2, s->nv - 1)) return 0;
        corners = 0;
      }
    } else if (strncmp(p, "endloop", 7) == 0 && corners != 0) {
      *bad = lineno;
      *what = "facet with other than 3 vertices";
      return 0;
    } else if (*p && strncmp(p, "solid", 5) && strncmp(p, "facet", 5) && strncmp(p, "outer", 5) &&
               strncmp(p, "endloop", 7) && strncmp(p, "endfacet", 8) && strncmp(p, "endsolid", 8)) {
      *bad = lineno;
      *what = "unknown ascii STL keyword";
      return 0;
    }
  }
  return 1;
}

/* OBJ: "v x y z" and "f i j k ..." (1-based, negative = relative, i/t/n
 * forms); polygons are fanned into triangles; other records ignored. */
static int read_obj(soup *s, FILE *f, int *bad, const char **what) {
  char line[4096];
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    ++lineno;
    char *p = line;
    while (isspace((unsigned char)*p)) ++p;
    if (p[0] == 'v' && isspace((unsigned char)p[1])) {
      double x[3];
      if (sscanf(p + 1, "%lf %lf %lf", x, x + 1, x + 2) != 3 || !isfinite(x[0] + x[1] + x[2])) {
        *bad = lineno;
        *what = "expected 'v x y z' with three finite numbers";
        return 0;
      }
      if (!soup_vertex(s, x)) return 0;
    } else if (p[0] == 'f' && isspace((unsigned char)p[1])) {
      int idx[3], n = 0;
      char *q = p + 1;
      for (;;) {
        while (isspace((unsigned char)*q)) ++q;
        if (!*q) break;
        char *end;
        long i = strtol(q, &end, 10);
        if (end == q || i == 0 || (i > 0 && i > s->nv) || (i < 0 && -i > s->nv)) {
          *bad = lineno;
          *what = "face index missing or out of range";
          return 0;
        }
        int vi = i > 0 ? (int)i - 1 : s->nv + (int)i;
        while (*end && !isspace((unsigned char)*end)) ++end; /* skip /t/n */
        q = end;
        if (n < 2)
          idx[n] = vi;
        else {
          idx[2] = vi;
          if (!soup_tri(s, idx[0], idx[1], idx[2])) return 0;
          idx[1] = vi;
        }
        ++n;
      }
      if (n < 3) {
        *bad = lineno;
        *what = "face with fewer than 3 vertices";
        return 0;
      }
    }
  }
  return 1;
}

static int ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  if (n < m) return 0;
  for (size_t i = 0; i < m; ++i)
    if (tolower((unsigned char)s[n - m + i]) != suf[i]) return 0;
  return 1;
}

static cosrod_mesh *mesh_load(const char *path, int require_closed, char *err, size_t errlen) {
  int is_stl = ends_with(path, ".stl"), is_obj = ends_with(path, ".obj");
  if (!is_stl && !is_obj) {
    snprintf(err, errlen, "%s: unknown mesh format (expected .stl or .obj)", path);
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open mesh file", path);
    return NULL;
  }
  soup s = {0};
  int ok = 1, bad = 0;
  const char *what = "read error";
  if (is_obj) {
    ok = read_obj(&s, f, &bad, &what);
  } else {
    unsigned char head[84];
    size_t got = fread(head, 1, 84, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    uint32_t n = 0;
    if (got == 84) memcpy(&n, head + 80, 4);
    if (got == 84 && size == 84 + 50 * (long)n) {
      fseek(f, 84, SEEK_SET);
      ok = read_stl_binary(&s, f, n);
      if (ok) ok = soup_weld(&s);
    } else {
      fseek(f, 0, SEEK_SET);
      if (got < 5 || strncmp((const char *)head, "solid", 5) != 0) {
        ok = 0;
        bad = 1;
        what = "neither binary STL (size does not match the triangle count) nor ascii STL ('solid' missing)";
      } else {
        ok = read_stl_ascii(&s, f, &bad, &what);
        if (ok) ok = soup_weld(&s);
      }
    }
  }
  fclose(f);
  cosrod_mesh *m = NULL;
  if (!ok) {
    if (bad > 0)
      snprintf(err, errlen, "%s:%d: %s", path, bad, what);
    else
      snprintf(err, errlen, "%s: %s", path, what);
  } else {
    m = cosrod_mesh_create(s.v, s.nv, s.t, s.nt, require_closed, path, NULL);
    if (!m && err && errlen) snprintf(err, errlen, "%s", cosrod_last_error());
  }
  free(s.v);
  free(s.t);
  return m;
}

/* The file is unreadable (ERR_IO) or not a valid mesh (ERR_PARSE); the
 * message says which. */
cosrod_mesh *cosrod_mesh_load(const char *path, int require_closed, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  cosrod_mesh *obj = mesh_load(path, require_closed, msg, sizeof msg);
  st = strstr(msg, "cannot open") || strstr(msg, "read error") ? COSROD_ERR_IO : COSROD_ERR_PARSE;
  return cosrod_error_result(obj, status, st, msg);
}

