// SPDX-License-Identifier: Apache-2.0
/* modes_bodies.csv / buckling_bodies.csv ([manual: output reference]): the
 * rigid bodies' part of each mode of a modal or buckling run with bodies,
 *   mode,body,dx,dy,dz,rx,ry,rz
 * one row per mode (numbered as in modes.csv / buckling.csv) and scenario
 * body (index as in bodies.csv): the displacement of its centre of mass and
 * its spatial rotation vector (cosrod_sim_mode_body), in the normalisation
 * of modes.csv.  Written as DIR/.NAME.tmp and renamed into place; a file of
 * that name an earlier run left is removed when this run writes none. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "cosrod/output.h"
#include "record_internal.h"

static char *join(const char *dir, const char *pre, const char *name, const char *post) {
  size_t n = strlen(dir) + strlen(pre) + strlen(name) + strlen(post) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s%s", dir, pre, name, post);
  return p;
}

static cosrod_status write_rows(FILE *f, const cosrod_sim *sim) {
  fputs("mode,body,dx,dy,dz,rx,ry,rz\n", f);
  const size_t nb = cosrod_sim_nbodies(sim);
  for (int i = 0; i < cosrod_sim_nmodes(sim); ++i)
    for (size_t b = 0; b < nb; ++b) {
      double d[3], r[3];
      if (cosrod_sim_mode_body(sim, i, b, d, r) != COSROD_OK) return COSROD_ERR_INTERNAL;
      const double v[6] = {d[0], d[1], d[2], r[0], r[1], r[2]};
      fprintf(f, "%d,%zu", i + 1, b);
      for (int c = 0; c < 6; ++c) { /* the output module's format: exact, C locale */
        char num[32];
        cosrod_output_format_number(num, v[c]);
        fprintf(f, ",%s", num);
      }
      fputc('\n', f);
    }
  return ferror(f) ? COSROD_ERR_IO : COSROD_OK;
}

cosrod_status record_mode_bodies(cosrod_recorder *r, const cosrod_sim *sim, int write, int buckling) {
  static const char *const names[2] = {"modes_bodies.csv", "buckling_bodies.csv"};
  write = write && cosrod_sim_nbodies(sim) > 0 && cosrod_sim_nmodes(sim) > 0;
  for (int k = 0; k < 2; ++k) { /* an earlier run's file this run does not write */
    if (write && k == buckling) continue;
    char *p = join(r->dir, "", names[k], "");
    if (!p) return COSROD_ERR_NOMEM;
    remove(p);
    free(p);
  }
  if (!write) return COSROD_OK;
  char *tmp = join(r->dir, ".", names[buckling], ".tmp"), *fin = join(r->dir, "", names[buckling], "");
  cosrod_status st = tmp && fin ? COSROD_OK : COSROD_ERR_NOMEM;
  FILE *f = st == COSROD_OK ? fopen(tmp, "w") : NULL;
  if (st == COSROD_OK && !f) st = COSROD_ERR_IO;
  if (f) {
    st = write_rows(f, sim);
    if (fclose(f) != 0 && st == COSROD_OK) st = COSROD_ERR_IO;
    if (st == COSROD_OK && rename(tmp, fin) != 0) st = COSROD_ERR_IO;
    if (st != COSROD_OK) remove(tmp);
  }
  if (st != COSROD_OK) snprintf(r->err, sizeof r->err, "cannot write %s", fin ? fin : names[buckling]);
  free(tmp);
  free(fin);
  return st;
}
