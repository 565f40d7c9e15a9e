// SPDX-License-Identifier: Apache-2.0
/* contacts.csv and obstacles.csv ([manual: contact]) of a run with `contact:`:
 *   contacts.csv  t,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state
 *                 one row per active contact point of the frame (other: the
 *                 obstacle's or body's name, or `rod:segment` of the other rod;
 *                 normal from the other towards the rod; state stick / slip);
 *   obstacles.csv t,obstacle,Fx,Fy,Fz,Mx,My,Mz
 *                 one row per obstacle and body shape: the resultant that the
 *                 rods exert on it, spatial frame, moment about its reference
 *                 (centre / point / position, or the body's centre of mass).
 *   contact_forces.csv t,active,Fn_NAME,Ft_NAME,n_NAME,...[,Fn_rods,Ft_rods,n_rods]
 *                 one row per output time: the number of active contact
 *                 points and, per obstacle / body shape NAME (and `rods`: all
 *                 rod-rod and self-contact points, when contact.rods or
 *                 contact.self), the sum of the normal forces Fn, the sum of
 *                 the friction magnitudes |Ft| and the count of its points in
 *                 contacts.csv (the data of plots/contact.png).
 *   vtk/contacts.pvd, vtk/contacts_<frame>.vtp (output.vtk): per output time
 *                 the contact points as vertices with point data normal,
 *                 force (= Fn n + Ft, on the rod), friction, Fn, gap, slip,
 *                 rod, segment (ParaView: Glyph by force);
 * Rows formatted by the output module (cosrod_output_contact_row /
 * _obstacle_row, src/output/output_contact.c), so that they round-trip like
 * every other CSV.  Written as DIR/.NAME.tmp and renamed into place when the run is finished,
 * as joints.csv. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/output.h"
#include "cosrod/record.h"
#include "record_internal.h"

static FILE *open_tmp(const char *dir, const char *name, char **tmp, char **fin) {
  size_t len = strlen(dir) + strlen(name) + 8;
  *tmp = malloc(len);
  *fin = malloc(len);
  if (!*tmp || !*fin) return NULL;
  snprintf(*tmp, len, "%s/.%s.tmp", dir, name);
  snprintf(*fin, len, "%s/%s", dir, name);
  return fopen(*tmp, "w");
}

static const char pvd_head[] = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
                               "byte_order=\"LittleEndian\">\n  <Collection>\n";

static cosrod_status vtk_open(cosrod_recorder *r, const char *dir) {
  size_t len = strlen(dir) + 48;
  r->vtmp = malloc(len), r->vfin = malloc(len), r->vpath = malloc(len);
  r->vloc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (!r->vtmp || !r->vfin || !r->vpath || r->vloc == (locale_t)0) return COSROD_ERR_NOMEM;
  snprintf(r->vtmp, len, "%s/vtk/.contacts.pvd.tmp", dir);
  snprintf(r->vfin, len, "%s/vtk/contacts.pvd", dir);
  snprintf(r->vpath, len, "%s/vtk/", dir);
  r->vf = fopen(r->vtmp, "w");
  if (!r->vf) return COSROD_ERR_IO;
  fputs(pvd_head, r->vf);
  return ferror(r->vf) ? COSROD_ERR_IO : COSROD_OK;
}

cosrod_status record_contact_open(cosrod_recorder *r, const char *dir) {
  if (!r->sc->contact.enabled) return COSROD_OK;
  if (r->sc->output.vtk) {
    cosrod_status st = vtk_open(r, dir);
    if (st != COSROD_OK) return st;
  }
  r->cf = open_tmp(dir, "contacts.csv", &r->ctmp, &r->cfin);
  if (!r->cf) return r->ctmp ? COSROD_ERR_IO : COSROD_ERR_NOMEM;
  fputs(COSROD_OUTPUT_CONTACTS_HEADER, r->cf);
  r->of = open_tmp(dir, "obstacles.csv", &r->otmp, &r->ofin);
  if (!r->of) return r->otmp ? COSROD_ERR_IO : COSROD_ERR_NOMEM;
  fputs(COSROD_OUTPUT_OBSTACLES_HEADER, r->of);
  const cosrod_sc_contact *c = &r->sc->contact;
  r->ftot = calloc(3 * (c->nobstacles + 1), sizeof *r->ftot);
  if (!r->ftot) return COSROD_ERR_NOMEM;
  r->ff = open_tmp(dir, "contact_forces.csv", &r->ftmp, &r->ffin);
  if (!r->ff) return r->ftmp ? COSROD_ERR_IO : COSROD_ERR_NOMEM;
  fputs("t,active", r->ff);
  for (size_t k = 0; k < c->nobstacles; k++)
    fprintf(r->ff, ",Fn_%s,Ft_%s,n_%s", c->obstacles[k].name, c->obstacles[k].name, c->obstacles[k].name);
  fputs(c->rods || c->self ? ",Fn_rods,Ft_rods,n_rods\n" : "\n", r->ff);
  return ferror(r->cf) || ferror(r->of) || ferror(r->ff) ? COSROD_ERR_IO : COSROD_OK;
}

static void close_one(FILE **f, const char *tmp, const char *fin, int keep, int *bad) {
  if (!*f) return;
  int b = fclose(*f) != 0;
  *f = NULL;
  if (!keep) {
    remove(tmp);
    return;
  }
  if (b || rename(tmp, fin) != 0) *bad = 1;
}

cosrod_status record_contact_close(cosrod_recorder *r, int keep) {
  int bad = 0;
  if (r->vf && keep) fputs("  </Collection>\n</VTKFile>\n", r->vf);
  close_one(&r->vf, r->vtmp, r->vfin, keep, &bad);
  close_one(&r->cf, r->ctmp, r->cfin, keep, &bad);
  close_one(&r->of, r->otmp, r->ofin, keep, &bad);
  close_one(&r->ff, r->ftmp, r->ffin, keep, &bad);
  if (bad) snprintf(r->err, sizeof r->err, "cannot write %s", r->cfin);
  return bad ? COSROD_ERR_IO : COSROD_OK;
}

void record_contact_free(cosrod_recorder *r) {
  record_contact_close(r, 0);
  free(r->ctmp);
  free(r->cfin);
  free(r->otmp);
  free(r->ofin);
  free(r->ftmp);
  free(r->ffin);
  free(r->ftot);
  free(r->vtmp);
  free(r->vfin);
  free(r->vpath);
  if (r->vloc != (locale_t)0) freelocale(r->vloc);
  r->vloc = (locale_t)0;
}

/* One DataArray of the contact points: ncomp values per point from get. */
typedef void (*vtk_get)(const cosrod_contact_point *p, double *v);
static void get_normal(const cosrod_contact_point *p, double *v) { memcpy(v, p->normal, 3 * sizeof *v); }
static void get_force(const cosrod_contact_point *p, double *v) {
  for (int i = 0; i < 3; i++) v[i] = p->fn * p->normal[i] + p->ft[i];
}
static void get_friction(const cosrod_contact_point *p, double *v) { memcpy(v, p->ft, 3 * sizeof *v); }
static void get_fn(const cosrod_contact_point *p, double *v) { v[0] = p->fn; }
static void get_gap(const cosrod_contact_point *p, double *v) { v[0] = p->gap; }
static void get_slip(const cosrod_contact_point *p, double *v) { v[0] = p->slip; }
static void get_rod(const cosrod_contact_point *p, double *v) { v[0] = p->rod; }
static void get_seg(const cosrod_contact_point *p, double *v) { v[0] = p->segment; }

static void vtk_array(FILE *f, const char *name, int ncomp, int integer, const cosrod_contact_point *p, size_t n,
                      vtk_get get) {
  fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">",
          integer ? "Int32" : "Float64", name, ncomp);
  for (size_t i = 0; i < n; i++) {
    double v[3];
    get(p + i, v);
    for (int c = 0; c < ncomp; c++)
      if (integer)
        fprintf(f, " %d", (int)v[c]);
      else
        fprintf(f, " %.17g", v[c]);
  }
  fputs(" </DataArray>\n", f);
}

static void get_point(const cosrod_contact_point *p, double *v) { memcpy(v, p->point, 3 * sizeof *v); }

/* vtk/contacts_<frame>.vtp and its line in contacts.pvd. */
static int vtk_frame(cosrod_recorder *r, double t, const cosrod_contact_data *d) {
  const cosrod_contact_point *p = cosrod_contact_points(d);
  const size_t n = cosrod_contact_npoints(d);
  char name[40], path[4096];
  snprintf(name, sizeof name, "contacts_%06zu.vtp", r->vframe++);
  size_t lp = strlen(r->vpath), ln = strlen(name);
  if (lp + ln + 1 > sizeof path) return -1;
  memcpy(path, r->vpath, lp);
  memcpy(path + lp, name, ln + 1);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  locale_t saved = uselocale(r->vloc);
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
          "  <PolyData>\n    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"0\" "
          "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n      <Points>\n",
          n, n);
  vtk_array(f, "point", 3, 0, p, n, get_point);
  fputs("      </Points>\n      <Verts>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">", f);
  for (size_t i = 0; i < n; i++) fprintf(f, " %zu", i);
  fputs(" </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">", f);
  for (size_t i = 0; i < n; i++) fprintf(f, " %zu", i + 1);
  fputs(" </DataArray>\n      </Verts>\n      <PointData Vectors=\"force\" Scalars=\"Fn\">\n", f);
  vtk_array(f, "force", 3, 0, p, n, get_force);
  vtk_array(f, "normal", 3, 0, p, n, get_normal);
  vtk_array(f, "friction", 3, 0, p, n, get_friction);
  vtk_array(f, "Fn", 1, 0, p, n, get_fn);
  vtk_array(f, "gap", 1, 0, p, n, get_gap);
  vtk_array(f, "slip", 1, 1, p, n, get_slip);
  vtk_array(f, "rod", 1, 1, p, n, get_rod);
  vtk_array(f, "segment", 1, 1, p, n, get_seg);
  fputs("      </PointData>\n    </Piece>\n  </PolyData>\n</VTKFile>\n", f);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  fprintf(r->vf, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n", t, name);
  uselocale(saved);
  return bad || ferror(r->vf) ? -1 : 0;
}

/* The row of contact_forces.csv at t: totals per obstacle (index k) and of
 * the rod-rod / self-contact points (index nobstacles). */
static int totals_row(cosrod_recorder *r, double t, const cosrod_contact_data *d) {
  const cosrod_sc_contact *c = &r->sc->contact;
  const size_t no = c->nobstacles, n = cosrod_contact_npoints(d);
  const cosrod_contact_point *p = cosrod_contact_points(d);
  memset(r->ftot, 0, 3 * (no + 1) * sizeof *r->ftot);
  for (size_t i = 0; i < n; i++) {
    size_t g = p[i].other_kind == 0 && (size_t)p[i].other < no ? (size_t)p[i].other : no;
    r->ftot[3 * g] += p[i].fn;
    r->ftot[3 * g + 1] += sqrt(p[i].ft[0] * p[i].ft[0] + p[i].ft[1] * p[i].ft[1] + p[i].ft[2] * p[i].ft[2]);
    r->ftot[3 * g + 2] += 1.0;
  }
  char num[40];
  cosrod_output_format_number(num, t);
  fprintf(r->ff, "%s,%zu", num, n);
  const size_t ng = no + (c->rods || c->self ? 1 : 0);
  for (size_t g = 0; g < ng; g++) {
    for (int j = 0; j < 2; j++) {
      cosrod_output_format_number(num, r->ftot[3 * g + j]);
      fprintf(r->ff, ",%s", num);
    }
    fprintf(r->ff, ",%.0f", r->ftot[3 * g + 2]);
  }
  fputc('\n', r->ff);
  return ferror(r->ff) ? -1 : 0;
}

int cosrod_recorder_contacts(cosrod_recorder *r, double t, const cosrod_contact_data *d, const double *ref) {
  if (!r || !r->cf || !d) return 0;
  const cosrod_sc_contact *c = &r->sc->contact;
  const cosrod_contact_point *p = cosrod_contact_points(d);
  char line[1024], other[48];
  int bad = 0;
  for (size_t i = 0; i < cosrod_contact_npoints(d); i++, p++) {
    cosrod_output_contact row;
    row.rod = p->rod, row.segment = p->segment;
    if (p->other_kind == 0 && (size_t)p->other < c->nobstacles) {
      row.other = c->obstacles[p->other].name;
    } else {
      snprintf(other, sizeof other, "%d:%d", p->other, p->other_segment);
      row.other = other;
    }
    memcpy(row.point, p->point, sizeof row.point);
    memcpy(row.normal, p->normal, sizeof row.normal);
    row.gap = p->gap, row.fn = p->fn, row.slip = p->slip;
    memcpy(row.ft, p->ft, sizeof row.ft);
    int n = cosrod_output_contact_row(r->out, line, sizeof line, t, &row); /* output_contact.c */
    if (n < 0 || fputs(line, r->cf) == EOF) bad = 1;
  }
  for (size_t k = 0; k < c->nobstacles; k++) {
    double F[3], M[3];
    cosrod_pose pose;
    cosrod_contact_obstacle_wrench(d, (int)k, F, M);
    if (ref) { /* M about ref = M about the pose's origin + (origin - ref) x F */
      cosrod_contact_get_pose(d, (int)k, &pose);
      double a[3] = {pose.position[0] - ref[3 * k], pose.position[1] - ref[3 * k + 1],
                     pose.position[2] - ref[3 * k + 2]};
      M[0] += a[1] * F[2] - a[2] * F[1];
      M[1] += a[2] * F[0] - a[0] * F[2];
      M[2] += a[0] * F[1] - a[1] * F[0];
    }
    int n = cosrod_output_obstacle_row(r->out, line, sizeof line, t, c->obstacles[k].name, F, M);
    if (n < 0 || fputs(line, r->of) == EOF) bad = 1;
  }
  if (r->vf && vtk_frame(r, t, d) != 0) bad = 1;
  if (totals_row(r, t, d) != 0) bad = 1;
  if (bad || ferror(r->cf) || ferror(r->of)) {
    snprintf(r->err, sizeof r->err, "cannot write %s", ferror(r->of) ? r->otmp : r->ctmp);
    r->out_status = COSROD_ERR_IO;
    return -1;
  }
  return 0;
}

/* Penetration beyond this fraction of the radius is a summary.json warning:
 * the automatic law keeps a rod resting under its weight at <= 0.015 r
 * (src/contact/contact_law.c) and a 5 cm drop of a hose reaches 0.11 r, so a
 * quarter of the radius means a load or an impact the
 * penalty does not carry (raise contact.stiffness or refine). */
#define PEN_WARN 0.25

void record_contact_track(cosrod_recorder *r, const cosrod_sim *sim, double t) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  if (!r || !d) return;
  size_t missed = 0;
  double pr = 0.0, pen = 0.0;
  cosrod_contact_warnings(d, &missed, &pr);
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t i = 0, n = cosrod_contact_npoints(d); i < n; i++) pen = pen > -p[i].gap ? pen : -p[i].gap;
  if (pen > r->cpen) r->cpen = pen;
  if (pr > r->cpen_r) r->cpen_r = pr;
  if ((long)missed > r->cmissed) r->cmissed = (long)missed; /* the most in one evaluation */
  (void)t;
  r->ctracked = 1;
}

void record_contact_summary(cosrod_recorder *r, const cosrod_sim *sim) {
  if (!r || !r->sc->contact.enabled) return;
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  record_contact_track(r, sim, cosrod_sim_t(sim));
  cosrod_output_contact_summary s;
  s.contacts_end = d ? (long)cosrod_contact_npoints(d) : 0;
  s.max_penetration = r->cpen, s.max_penetration_radius = r->cpen_r;
  s.missed = r->cmissed, s.dissipated = cosrod_sim_contact_dissipated(sim);
  cosrod_output_set_contact_summary(r->out, &s);
  char w[300];
  if (r->cpen_r > PEN_WARN) {
    snprintf(w, sizeof w,
             "contact: penetration up to %.3g of the radius (%.3g m) beyond %.2g: raise contact.stiffness or refine "
             "the rod",
             r->cpen_r, r->cpen, PEN_WARN);
    cosrod_output_add_warning(r->out, w);
  }
  if (r->cmissed > 0) {
    snprintf(w, sizeof w,
             "contact: up to %ld segment-obstacle pairs per evaluation penetrate between their Gauss points (a "
             "feature thinner than the Gauss spacing, a chord cutting into a curved obstacle, or tunnelling): raise "
             "contact.quadrature or refine the rod",
             r->cmissed);
    cosrod_output_add_warning(r->out, w);
  }
}
