// SPDX-License-Identifier: Apache-2.0
/* DIR/scene.json: what the viewer needs of the model and the output files
 * do not carry: gravity, each rod's cross-section ([manual: theory]; the tube radius
 * drawn), each body's mass and principal inertias (drawn as the inertia
 * ellipsoid), the joints (type, anchor points, axes) and the rod ends
 * attached to bodies (the viewer moves a clamped body with its rod end in
 * a mode shape); vtk/tubes.py, a ParaView state for tubes. */
#define _XOPEN_SOURCE 700
#include "record_scene.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/view.h"

void record_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

double record_rod_radius(const cosrod_sc_rod *R, int *derived) {
  const cosrod_sc_section *s = &R->section;
  const int none = s->shape == COSROD_SC_SECTION_CIRCLE && s->radius == 0.0 && s->area == 0.0;
  const double EI = sqrt(R->EI1 * R->EI2);
  if (derived) *derived = 0;
  if (!none || !(R->EA > 0.0) || !(EI > 0.0)) return cosrod_sc_section_radius(s);
  if (derived) *derived = 1;
  return 2.0 * sqrt(EI / R->EA); /* solid circle: I / A = r^2 / 4 */
}

void record_rod_section(const cosrod_sc_rod *R, cosrod_output_section *o) {
  const cosrod_sc_section *s = &R->section;
  double r = record_rod_radius(R, &o->radius_derived);
  o->shape = COSROD_OUTPUT_SECTION_CIRCLE;
  o->half_width[0] = o->half_width[1] = r;
  o->inner_radius = 0.0;
  if (s->shape == COSROD_SC_SECTION_RECTANGLE) {
    o->shape = COSROD_OUTPUT_SECTION_RECTANGLE;
    o->half_width[0] = 0.5 * s->width;
    o->half_width[1] = 0.5 * s->height;
  } else if (s->shape == COSROD_SC_SECTION_TUBE) {
    o->shape = COSROD_OUTPUT_SECTION_TUBE;
    o->inner_radius = s->inner_radius;
  }
}

static void put_section(FILE *f, const cosrod_sc_rod *R) {
  const cosrod_sc_section *s = &R->section;
  int derived;
  double r = record_rod_radius(R, &derived);
  if (derived) { /* no section given: the display radius from the stiffnesses */
    fprintf(f, "{\"shape\": \"circle\", \"radius\": %.17g, \"area\": 0, \"derived\": \"2 sqrt(EI / EA)\"}", r);
    return;
  }
  switch (s->shape) {
  case COSROD_SC_SECTION_RECTANGLE:
    fprintf(f, "{\"shape\": \"rectangle\", \"width\": %.17g, \"height\": %.17g, \"area\": %.17g}", s->width,
            s->height, s->area);
    break;
  case COSROD_SC_SECTION_TUBE:
    fprintf(f, "{\"shape\": \"tube\", \"outer_radius\": %.17g, \"inner_radius\": %.17g, \"area\": %.17g}",
            s->outer_radius, s->inner_radius, s->area);
    break;
  case COSROD_SC_SECTION_CIRCLE:
    fprintf(f, "{\"shape\": \"circle\", \"radius\": %.17g, \"area\": %.17g}", s->radius, s->area);
    break;
  default: /* custom: a circle of the same area */
    fprintf(f, "{\"shape\": \"circle\", \"radius\": %.17g, \"area\": %.17g, \"custom\": true}",
            cosrod_sc_section_radius(s), s->area);
  }
}

static const char *joint_kind(cosrod_sc_joint_type t) {
  static const char *const names[] = {"spherical", "revolute", "prismatic", "cylindrical",
                                      "planar",    "bushing",  "universal", "fixed"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}

static void put_vec(FILE *f, const char *key, const double v[3]) {
  fprintf(f, ", \"%s\": [%.17g, %.17g, %.17g]", key, v[0], v[1], v[2]);
}

/* "ends": the rod ends attached to a body (type pinned / clamped, body index, point in the body frame). */
static void put_ends(FILE *f, const cosrod_sc_rod *R) {
  fprintf(f, ", \"ends\": [");
  for (int e = 0; e < 2; e++) {
    const cosrod_sc_end *E = &R->ends[e];
    static const char *const types[] = {"free", "pinned", "clamped", "prescribed"};
    fprintf(f, "%s{\"type\": \"%s\", \"body\": %d", e ? ", " : "", (unsigned)E->type < 4 ? types[E->type] : "free",
            E->body);
    if (E->body >= 0) put_vec(f, "at", E->at);
    fprintf(f, "}");
  }
  fprintf(f, "]");
}

static void put_joint(FILE *f, const cosrod_sc_joint *J) {
  fprintf(f, "{\"type\": %d, \"kind\": \"%s\", \"bodies\": [%d, %d], \"at\": [[%.17g, %.17g, %.17g], [%.17g, %.17g, %.17g]]",
          (int)J->type, joint_kind(J->type), J->body[0], J->body[1], J->at[0][0], J->at[0][1], J->at[0][2], J->at[1][0],
          J->at[1][1], J->at[1][2]);
  if (J->type == COSROD_SC_JOINT_REVOLUTE || J->type == COSROD_SC_JOINT_PRISMATIC ||
      J->type == COSROD_SC_JOINT_CYLINDRICAL || J->type == COSROD_SC_JOINT_PLANAR ||
      J->type == COSROD_SC_JOINT_UNIVERSAL)
    put_vec(f, "axis", J->axis);
  if (J->type == COSROD_SC_JOINT_UNIVERSAL) put_vec(f, "axis2", J->axis2);
  fprintf(f, "}");
}

/* Whether the file at path holds exactly text[0..n). */
static int same_content(const char *path, const char *text, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char buf[4096];
  size_t at = 0, got;
  int same = 1;
  while (same && (got = fread(buf, 1, sizeof buf, f)) > 0) {
    same = at + got <= n && memcmp(buf, text + at, got) == 0;
    at += got;
  }
  same = same && at == n && !ferror(f);
  fclose(f);
  return same;
}

/* scene.json's text, written to a memory stream; kept as it is when the
 * file already holds it (a run repeated into its folder): replacing a file
 * by rename makes ext4 write the old one out at once, which costs a short
 * run's CPU. */
int record_write_scene(const char *dir, const cosrod_scenario *sc) {
  char path[4200], tmp[4300], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/scene.json", dir);
  snprintf(tmp, sizeof tmp, "%s/.scene.json.tmp", dir);
  FILE *f = open_memstream(&text, &len);
  if (!f) return -1;
  fprintf(f, "{\n  \"gravity\": [%.17g, %.17g, %.17g],\n  \"rods\": [", sc->gravity[0], sc->gravity[1],
          sc->gravity[2]);
  for (size_t r = 0; r < sc->nrods; r++) {
    fprintf(f, "%s\n    {\"name\": ", r ? "," : "");
    record_json_str(f, sc->rods[r].name);
    fprintf(f, ", \"section\": ");
    put_section(f, &sc->rods[r]);
    put_ends(f, &sc->rods[r]);
    fprintf(f, "}");
  }
  fprintf(f, "\n  ],\n  \"bodies\": [");
  for (size_t b = 0; b < sc->nbodies; b++) {
    const cosrod_sc_body *B = &sc->bodies[b];
    fprintf(f, "%s\n    {\"name\": ", b ? "," : "");
    record_json_str(f, B->name);
    fprintf(f, ", \"mass\": %.17g, \"inertia\": [%.17g, %.17g, %.17g], \"keyframes\": %s", B->mass, B->inertia[0],
            B->inertia[1], B->inertia[2], B->has_motion ? "true" : "false");
    record_scene_body_shape(f, sc, b);
    fputc('}', f);
  }
  fprintf(f, "\n  ],\n  \"joints\": [");
  for (size_t j = 0; j < sc->njoints; j++) {
    fprintf(f, "%s\n    ", j ? "," : "");
    put_joint(f, &sc->joints[j]);
  }
  fprintf(f, "\n  ]");
  if (sc->contact.enabled) record_scene_obstacles(f, sc);
  fprintf(f, "\n}\n");
  int bad = ferror(f) != 0;
  if (fclose(f) != 0 || !text) bad = 1;
  if (!bad && !same_content(path, text, len)) {
    FILE *o = fopen(tmp, "w");
    bad = !o || fwrite(text, 1, len, o) != len;
    if (o && fclose(o) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
      remove(tmp);
      bad = 1;
    }
  }
  free(text);
  return bad ? -1 : 0;
}


int record_write_paraview_state(const char *dir) {
  char pvd[4200], path[4200], full[PATH_MAX];
  snprintf(pvd, sizeof pvd, "%s/vtk/cosrod.pvd", dir);
  if (!realpath(pvd, full)) return 0; /* no VTK output */
  snprintf(path, sizeof path, "%s/vtk/tubes.py", dir);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f,
          "# ParaView state written by cosrod run: the rods as tubes of their section radius\n"
          "# (point data 'radius'), coloured by axial force; Play animates.\n"
          "# ParaView: File > Load State > tubes.py; or: paraview --state=tubes.py\n"
          "from paraview.simple import *\n"
          "reader = PVDReader(registrationName='cosrod.pvd', FileName=r'%s')\n"
          "tubes = Tube(registrationName='tubes', Input=reader)\n"
          "tubes.Scalars = ['POINTS', 'radius']\n"
          "tubes.VaryRadius = 'By Absolute Scalar'\n"
          "tubes.NumberofSides = 24\n"
          "tubes.Capping = 1\n"
          "view = GetActiveViewOrCreate('RenderView')\n"
          "shown = Show(tubes, view)\n"
          "ColorBy(shown, ('POINTS', 'axial_force'))\n"
          "shown.RescaleTransferFunctionToDataRange(True, False)\n"
          "shown.SetScalarBarVisibility(view, True)\n"
          "GetAnimationScene().UpdateAnimationUsingDataTimeSteps()\n"
          "view.ResetCamera()\n"
          "Render()\n",
          full);
  int bad = ferror(f) != 0;
  return fclose(f) != 0 || bad ? -1 : 0;
}

void record_write_view(const char *dir, const cosrod_scenario *sc, int *written, char *note, size_t n) {
  *written = 0;
  note[0] = '\0';
  if (record_write_scene(dir, sc) != 0) {
    snprintf(note, n, "cannot write %s/scene.json", dir);
    return;
  }
  if (record_write_paraview_state(dir) != 0) snprintf(note, n, "cannot write %s/vtk/tubes.py", dir);
  if (!cosrod_view_available()) return;
  size_t bytes = cosrod_view_data_bytes(dir);
  if (bytes > COSROD_VIEW_AUTO_MAX_BYTES) {
    snprintf(note, n,
             "the output is %.0f MB (> %.0f MB), view.html not written: cosrod view %s writes it with frames decimated",
             (double)bytes / 1048576.0, (double)COSROD_VIEW_AUTO_MAX_BYTES / 1048576.0, dir);
    return;
  }
  char msg[1024];
  if (cosrod_view_write(dir, NULL, 0, msg, sizeof msg) != COSROD_OK) {
    snprintf(note, n, "view.html not written: %s", msg);
    return;
  }
  *written = 1;
  snprintf(note, n, "%s", msg);
}
