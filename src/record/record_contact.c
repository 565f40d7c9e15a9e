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
 * Written as DIR/.NAME.tmp and renamed into place when the run is finished,
 * as joints.csv. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

cosrod_status record_contact_open(cosrod_recorder *r, const char *dir) {
  if (!r->sc->contact.enabled) return COSROD_OK;
  r->cf = open_tmp(dir, "contacts.csv", &r->ctmp, &r->cfin);
  if (!r->cf) return r->ctmp ? COSROD_ERR_IO : COSROD_ERR_NOMEM;
  fputs("t,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state\n", r->cf);
  r->of = open_tmp(dir, "obstacles.csv", &r->otmp, &r->ofin);
  if (!r->of) return r->otmp ? COSROD_ERR_IO : COSROD_ERR_NOMEM;
  fputs("t,obstacle,Fx,Fy,Fz,Mx,My,Mz\n", r->of);
  return ferror(r->cf) || ferror(r->of) ? COSROD_ERR_IO : COSROD_OK;
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
  close_one(&r->cf, r->ctmp, r->cfin, keep, &bad);
  close_one(&r->of, r->otmp, r->ofin, keep, &bad);
  if (bad) snprintf(r->err, sizeof r->err, "cannot write %s", r->cfin);
  return bad ? COSROD_ERR_IO : COSROD_OK;
}

void record_contact_free(cosrod_recorder *r) {
  record_contact_close(r, 0);
  free(r->ctmp);
  free(r->cfin);
  free(r->otmp);
  free(r->ofin);
}

int cosrod_recorder_contacts(cosrod_recorder *r, double t, const cosrod_contact_data *d, const double *ref) {
  if (!r || !r->cf || !d) return 0;
  const cosrod_sc_contact *c = &r->sc->contact;
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t i = 0; i < cosrod_contact_npoints(d); i++, p++) {
    fprintf(r->cf, "%.15g,%d,%d,", t, p->rod, p->segment);
    if (p->other_kind == 0 && (size_t)p->other < c->nobstacles)
      fputs(c->obstacles[p->other].name, r->cf);
    else
      fprintf(r->cf, "%d:%d", p->other, p->other_segment);
    fprintf(r->cf, ",%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%s\n", p->point[0],
            p->point[1], p->point[2], p->normal[0], p->normal[1], p->normal[2], p->gap, p->fn, p->ft[0], p->ft[1],
            p->ft[2], p->slip ? "slip" : "stick");
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
    fprintf(r->of, "%.15g,%s,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g\n", t, c->obstacles[k].name, F[0], F[1], F[2],
            M[0], M[1], M[2]);
  }
  if (ferror(r->cf) || ferror(r->of)) {
    snprintf(r->err, sizeof r->err, "cannot write %s", ferror(r->cf) ? r->ctmp : r->otmp);
    r->out_status = COSROD_ERR_IO;
    return -1;
  }
  return 0;
}
