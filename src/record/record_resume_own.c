// SPDX-License-Identifier: Apache-2.0
/* Restart checkpoints of the files the recorder writes itself (joints.csv,
 * contacts.csv, obstacles.csv, contact_forces.csv, vtk/contacts.pvd): each
 * is written as DIR/.NAME.tmp and renamed into place when the run is
 * finished, so a killed run leaves the temporary file, an interrupted one
 * (finished with status interrupted) the published file.  A checkpoint
 * flushes and syncs them and records their byte lengths; a resume refills
 * each newly opened temporary file with that many bytes of the killed run's
 * file (the header and the rows up to the checkpoint: rows written after it
 * are cut, as the output module cuts its streams, src/output/output_resume.c). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_internal.h"

static const char *const own_tmp[RECORD_NOWN] = {".joints.csv.tmp", ".contacts.csv.tmp", ".obstacles.csv.tmp",
                                                  ".contact_forces.csv.tmp", "vtk/.contacts.pvd.tmp"};
static const char *const own_fin[RECORD_NOWN] = {"joints.csv", "contacts.csv", "obstacles.csv",
                                                  "contact_forces.csv", "vtk/contacts.pvd"};

static FILE *own_file(const cosrod_recorder *r, int k) {
  FILE *const f[RECORD_NOWN] = {r->jf, r->cf, r->of, r->ff, r->vf};
  return f[k];
}

cosrod_status record_own_stash(const char *dir) {
  char tmp[4200], keep[4220];
  for (int k = 0; k < RECORD_NOWN; k++) {
    snprintf(tmp, sizeof tmp, "%s/%s", dir, own_tmp[k]);
    snprintf(keep, sizeof keep, "%s.resume", tmp);
    if (access(keep, F_OK) == 0) continue; /* kept by an earlier resume that failed: still the killed run's */
    if (access(tmp, F_OK) == 0 && rename(tmp, keep) != 0) return COSROD_ERR_IO;
  }
  return COSROD_OK;
}

/* Copy n bytes of the file src into f (emptied first). */
static int refill(FILE *f, const char *src, long n) {
  FILE *s = fopen(src, "rb");
  if (!s) return -1;
  int bad = fflush(f) != 0 || ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0;
  char buf[8192];
  long left = n;
  while (!bad && left > 0) {
    size_t want = left < (long)sizeof buf ? (size_t)left : sizeof buf;
    size_t got = fread(buf, 1, want, s);
    if (got == 0) break;
    bad = fwrite(buf, 1, got, f) != got;
    left -= (long)got;
  }
  fclose(s);
  return bad || left > 0 || fflush(f) != 0 ? -1 : 0;
}

cosrod_status record_own_restore(cosrod_recorder *r, const double *own, char *msg, size_t len) {
  char keep[4220], fin[4200];
  for (int k = 0; k < RECORD_NOWN; k++) {
    FILE *f = own_file(r, k);
    r->ck_own[k] = own[k];
    if (!f) continue;
    if (!(own[k] > 0.0)) {
      snprintf(msg, len, "%s/%s: not in the checkpoint", r->dir, own_fin[k]);
      return COSROD_ERR_INVALID;
    }
    snprintf(keep, sizeof keep, "%s/%s.resume", r->dir, own_tmp[k]);
    snprintf(fin, sizeof fin, "%s/%s", r->dir, own_fin[k]);
    const char *src = access(keep, F_OK) == 0 ? keep : fin;
    if (refill(f, src, (long)own[k]) != 0) {
      snprintf(msg, len, "%s: holds fewer rows than the checkpoint needs, or cannot be read (%s)", src,
               errno ? strerror(errno) : "short");
      return COSROD_ERR_IO;
    }
  }
  for (int k = 0; k < RECORD_NOWN; k++) { /* all refilled: the kept copies go */
    snprintf(keep, sizeof keep, "%s/%s.resume", r->dir, own_tmp[k]);
    remove(keep);
  }
  return COSROD_OK;
}

cosrod_status record_own_mark(cosrod_recorder *r) {
  for (int k = 0; k < RECORD_NOWN; k++) {
    FILE *f = own_file(r, k);
    r->ck_own[k] = -1.0;
    if (!f) continue;
    long n;
    if (fflush(f) != 0 || fsync(fileno(f)) != 0 || (n = ftell(f)) < 0) return COSROD_ERR_IO;
    r->ck_own[k] = (double)n;
  }
  return COSROD_OK;
}
