// SPDX-License-Identifier: Apache-2.0
/* The recorder's restart checkpoints (include/cosrod/record.h): at an
 * output time where one is due (output.checkpoint: every simulated seconds
 * and / or wall seconds; default the wall-clock interval of the file
 * checkpoints) the files are published (cosrod_output_checkpoint) and then
 * DIR/checkpoint.bin is written atomically: a temporary file, fsync, rename
 * over the previous one.  A kill at any point leaves the previous record
 * intact and files published at or after it, which a resume cuts back to
 * the record's rows.  A new run's first record (its first frame, t = 0, so
 * that a run killed early restarts from its beginning) is taken at that
 * frame but written only FIRST_DELAY of wall time after the start (at the
 * next step or frame), or when the run ends other than finished: writing
 * it (publishing every file, the record, an fsync) costs ~0.3 ms, as much
 * as the rest of a short run's output, and a run that finishes within
 * FIRST_DELAY removes the record anyway.
 *
 * checkpoint.bin (native byte order and doubles; a record of another
 * machine or cosrod version is refused):
 *   magic "CRRSTRT1", uint32 byte-order mark 0x01020304, uint32 layout 1,
 *   uint64 digest of the scenario (FNV-1a of its canonical YAML without
 *   output.dir and output.checkpoint), uint64 digest of the cosrod version
 *   and layout, uint64 lengths of the five parts, then the parts: the
 *   canonical YAML, the scenario file name, the simulation's restart data
 *   (cosrod_sim_restart_save, doubles), the output position
 *   (cosrod_output_position, bytes), the recorder's own numbers (doubles:
 *   next checkpoint time, wall seconds of the run so far, the byte lengths
 *   of its own files (record_resume_own.c), the next contact VTK frame and
 *   the contact summary: largest penetration and its ratio to the radius,
 *   missed pairs, tracked flag), and an FNV-1a checksum of everything
 *   before it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cosrod/version.h"
#include "record_internal.h"
#include "core/error.h"

#define CK_MAGIC "CRRSTRT1"
#define CK_BOM 0x01020304u
#define CK_LAYOUT 2u /* 2: the recorder's own files and contact summary in the record */
#define CK_NREC (2 + RECORD_NOWN + 5)
#define CK_NAME "checkpoint.bin"
#define FIRST_DELAY 0.05 /* [s]: the first record's write costs <= 1 % of a run that pays it */

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}
#define FNV0 0xcbf29ce484222325ull

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Is line (up to '\n') of the canonical YAML a key a resume may change:
 * output.dir (the run's folder is given) and output.checkpoint (with its
 * two sub-keys)? sect: the current top-level section. */
static int volatile_line(const char *l, const char *sect) {
  if (strcmp(sect, "output")) return 0;
  return !strncmp(l, "  dir:", 6) || !strncmp(l, "  checkpoint:", 13) || !strncmp(l, "    every:", 10) ||
         !strncmp(l, "    wall:", 9);
}

/* FNV-1a of the YAML text without the volatile lines. */
static uint64_t scenario_digest(const char *y) {
  uint64_t h = FNV0;
  char sect[64] = "";
  while (*y) {
    const char *e = strchr(y, '\n');
    size_t n = e ? (size_t)(e - y) + 1 : strlen(y);
    if (y[0] != ' ' && y[0] != '-') {
      size_t k = 0;
      while (k + 1 < sizeof sect && y[k] && y[k] != ':' && y[k] != '\n') sect[k] = y[k], k++;
      sect[k] = '\0';
    }
    if (!volatile_line(y, sect)) h = fnv(h, y, n);
    y += n;
  }
  return h;
}

static uint64_t version_digest(void) {
  char v[128];
  snprintf(v, sizeof v, "cosrod %s restart layout %u double %zu", COSROD_VERSION_STRING, CK_LAYOUT,
           sizeof(double));
  return fnv(FNV0, v, strlen(v));
}

/* The scenario as canonical YAML (malloc'ed), or NULL. */
static char *scenario_yaml(const cosrod_scenario *sc) {
  char *yaml = NULL;
  size_t len = 0;
  FILE *ym = open_memstream(&yaml, &len);
  if (!ym) return NULL;
  int bad = cosrod_scenario_to_yaml(sc, ym) != COSROD_OK;
  fclose(ym);
  if (bad) {
    free(yaml);
    return NULL;
  }
  return yaml;
}

const char *record_resume_refusal(const cosrod_scenario *sc, const cosrod_sim *sim) {
  (void)sim;
  if (sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC) return "only dynamic runs can be resumed";
  return NULL;
}

cosrod_status record_ckpt_setup(cosrod_recorder *r, const char *scenario_file, double wall_default,
                                int resuming) {
  if (!resuming) { /* a new run: an older run's record must not outlive it */
    char *old = malloc(strlen(r->dir) + 32);
    if (!old) return COSROD_ERR_NOMEM;
    sprintf(old, "%s/" CK_NAME, r->dir);
    remove(old);
    free(old);
  }
  r->ck_on = record_resume_refusal(r->sc, r->sim) == NULL;
  if (!r->ck_on) return COSROD_OK;
  r->ck_first = !resuming; /* a new run's first frame (t = 0) gets a record at once */
  r->ck_every = r->sc->output.checkpoint_every;
  r->ck_wall = r->sc->output.checkpoint_wall;
  if (!(r->ck_every > 0.0) && !(r->ck_wall > 0.0)) r->ck_wall = wall_default;
  r->ck_next = r->ck_every > 0.0 ? 0.0 : INFINITY;
  r->ck_last = r->ck_start = now_s();
  r->ck_yaml = scenario_yaml(r->sc);
  r->ck_file = strdup(scenario_file ? scenario_file : "");
  r->ck_nsim = cosrod_sim_restart_size(r->sim);
  r->ck_sim = malloc(r->ck_nsim * sizeof *r->ck_sim);
  r->ck_npos = cosrod_output_position(r->out, NULL, 0);
  r->ck_pos = malloc(r->ck_npos + 1);
  r->ck_path = malloc(strlen(r->dir) + 32);
  r->ck_tmp = malloc(strlen(r->dir) + 32);
  r->ck_rec = malloc(CK_NREC * sizeof *r->ck_rec);
  if (!r->ck_yaml || !r->ck_file || !r->ck_sim || !r->ck_pos || !r->ck_path || !r->ck_tmp || !r->ck_rec)
    return COSROD_ERR_NOMEM;
  sprintf(r->ck_path, "%s/" CK_NAME, r->dir);
  sprintf(r->ck_tmp, "%s/." CK_NAME ".tmp", r->dir);
  remove(r->ck_tmp);
  return COSROD_OK;
}

void record_ckpt_free(cosrod_recorder *r) {
  free(r->ck_yaml);
  free(r->ck_file);
  free(r->ck_sim);
  free(r->ck_pos);
  free(r->ck_path);
  free(r->ck_tmp);
  free(r->ck_rec);
}

/* Test hook: COSROD_TEST_CHECKPOINT_PAUSE=seconds pauses the writer half-way
 * through the temporary file (a kill there must leave the previous record). */
static void test_pause(void) {
  const char *p = getenv("COSROD_TEST_CHECKPOINT_PAUSE");
  double s = p ? strtod(p, NULL) : 0.0;
  if (!(s > 0.0)) return;
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

static int put(FILE *f, uint64_t *h, const void *p, size_t n) {
  *h = fnv(*h, p, n);
  return fwrite(p, 1, n, f) == n ? 0 : -1;
}

/* The recorder's own numbers at the frame of a record (r->ck_rec). */
static void take_rec(cosrod_recorder *r) {
  double *rec = r->ck_rec;
  rec[0] = r->ck_next, rec[1] = now_s() - r->ck_start + r->ck_wall0;
  memcpy(rec + 2, r->ck_own, sizeof r->ck_own);
  double *c = rec + 2 + RECORD_NOWN;
  c[0] = (double)r->vframe, c[1] = r->cpen, c[2] = r->cpen_r, c[3] = (double)r->cmissed, c[4] = r->ctracked;
}

static cosrod_status write_record(cosrod_recorder *r) {
  const double *rec = r->ck_rec;
  FILE *f = fopen(r->ck_tmp, "wb");
  if (!f) return COSROD_ERR_IO;
  uint64_t h = FNV0;
  const uint32_t head[2] = {CK_BOM, CK_LAYOUT};
  const uint64_t dig[2] = {scenario_digest(r->ck_yaml), version_digest()};
  const uint64_t len[5] = {strlen(r->ck_yaml), strlen(r->ck_file), r->ck_nsim, r->ck_npos, CK_NREC};
  int bad = put(f, &h, CK_MAGIC, 8) || put(f, &h, head, sizeof head) || put(f, &h, dig, sizeof dig) ||
            put(f, &h, len, sizeof len) || put(f, &h, r->ck_yaml, len[0]) || put(f, &h, r->ck_file, len[1]);
  if (!bad) {
    fflush(f);
    test_pause();
  }
  bad = bad || put(f, &h, r->ck_sim, len[2] * sizeof(double)) || put(f, &h, r->ck_pos, len[3]) ||
        put(f, &h, rec, CK_NREC * sizeof *rec) || fwrite(&h, sizeof h, 1, f) != 1;
  bad = bad || fflush(f) != 0 || fsync(fileno(f)) != 0;
  bad = fclose(f) != 0 || bad;
  if (bad || rename(r->ck_tmp, r->ck_path) != 0) {
    remove(r->ck_tmp);
    return COSROD_ERR_IO;
  }
  return COSROD_OK;
}

/* Publish the files, then write the record taken (ck_sim, ck_pos, ck_own). */
static cosrod_status publish_record(cosrod_recorder *r) {
  cosrod_status st = cosrod_output_checkpoint(r->out); /* the files first: the record never names rows not published */
  if (st != COSROD_OK) return st;
  if (write_record(r) != COSROD_OK) {
    snprintf(r->err, sizeof r->err, "cannot write %s", r->ck_path);
    cosrod_output_add_warning(r->out, r->err);
    r->err[0] = '\0'; /* a missing restart record is a warning, not a failed run */
  }
  return COSROD_OK;
}

cosrod_status record_ckpt_frame(cosrod_recorder *r, const cosrod_sim *sim, double t) {
  if (!r->ck_on) return COSROD_OK;
  const double eps = 1e-9 * r->ck_every; /* output times k * every land on the multiples up to rounding */
  const double now = now_s();
  const int due_t = r->ck_every > 0.0 && t >= r->ck_next - eps;
  const int due_w = (r->ck_wall > 0.0 && now - r->ck_last >= r->ck_wall) || (r->ck_held && now - r->ck_start >= FIRST_DELAY);
  const int first = r->ck_first && !due_t && !due_w; /* taken now, written later (record_ckpt_poll) */
  if (!due_t && !due_w && !first) return COSROD_OK;
  r->ck_first = r->ck_held = 0;
  if (r->ck_every > 0.0)
    while (r->ck_next <= t + eps) r->ck_next = (floor(r->ck_next / r->ck_every + 0.5) + 1.0) * r->ck_every;
  r->ck_last = now;
  cosrod_status st = cosrod_sim_restart_save(sim, r->ck_sim, r->ck_nsim);
  if (st != COSROD_OK) return COSROD_OK; /* not at a frame of cosrod_sim_run (e.g. a stepping loop) */
  cosrod_output_position(r->out, r->ck_pos, r->ck_npos); /* the committed rows: as published below */
  if (record_own_mark(r) != COSROD_OK) {
    snprintf(r->err, sizeof r->err, "cannot write %s", r->ck_path);
    cosrod_output_add_warning(r->out, r->err);
    r->err[0] = '\0';
    return COSROD_OK;
  }
  take_rec(r);
  r->ck_held = first;
  return first ? COSROD_OK : publish_record(r);
}

cosrod_status record_ckpt_poll(cosrod_recorder *r, int always) {
  if (!r->ck_held || (!always && now_s() - r->ck_start < FIRST_DELAY)) return COSROD_OK;
  r->ck_held = 0;
  return publish_record(r);
}

/* ---- reading ---------------------------------------------------------------- */

static int run_finished(const char *dir);

typedef struct ck_data {
  uint64_t dig[2], len[5];
  char *yaml, *file;
  double *sim;
  unsigned char *pos;
  double rec[CK_NREC];
} ck_data;

static void ck_free(ck_data *d) {
  free(d->yaml);
  free(d->file);
  free(d->sim);
  free(d->pos);
}

static int get(FILE *f, uint64_t *h, void *p, size_t n) {
  if (fread(p, 1, n, f) != n) return -1;
  *h = fnv(*h, p, n);
  return 0;
}

static cosrod_status ck_read(const char *dir, ck_data *d, char *msg, size_t len) {
  memset(d, 0, sizeof *d);
  char path[4200];
  snprintf(path, sizeof path, "%s/" CK_NAME, dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, len,
             "%s: no restart checkpoint (%s); a dynamic run writes one at its "
             "output times (output.checkpoint)",
             dir, CK_NAME);
    return COSROD_ERR_INVALID;
  }
  uint64_t h = FNV0, hf = 0;
  char magic[8];
  uint32_t head[2];
  int bad = get(f, &h, magic, 8) || memcmp(magic, CK_MAGIC, 8) || get(f, &h, head, sizeof head) ||
            head[0] != CK_BOM;
  if (!bad && head[1] != CK_LAYOUT) {
    snprintf(msg, len, "%s: restart layout %u of an older cosrod (this one reads layout %u); rerun the scenario",
             path, head[1], CK_LAYOUT);
    fclose(f);
    return COSROD_ERR_INVALID;
  }
  bad = bad || get(f, &h, d->dig, sizeof d->dig) ||
            get(f, &h, d->len, sizeof d->len) || d->len[0] > (1u << 30) || d->len[1] > 65536 ||
            d->len[2] > (1u << 30) || d->len[3] > (1u << 30) || d->len[4] != CK_NREC;
  if (!bad) {
    d->yaml = calloc(d->len[0] + 1, 1);
    d->file = calloc(d->len[1] + 1, 1);
    d->sim = malloc((d->len[2] + 1) * sizeof *d->sim);
    d->pos = malloc(d->len[3] + 1);
    bad = !d->yaml || !d->file || !d->sim || !d->pos || get(f, &h, d->yaml, d->len[0]) ||
          get(f, &h, d->file, d->len[1]) || get(f, &h, d->sim, d->len[2] * sizeof *d->sim) ||
          get(f, &h, d->pos, d->len[3]) || get(f, &h, d->rec, sizeof d->rec) ||
          fread(&hf, sizeof hf, 1, f) != 1 || hf != h;
  }
  fclose(f);
  if (bad) {
    snprintf(msg, len, "%s: not a restart checkpoint of this machine and cosrod version, or damaged", path);
    ck_free(d);
    return COSROD_ERR_INVALID;
  }
  if (d->dig[1] != version_digest()) {
    snprintf(msg, len, "%s: written by another cosrod version (this is %s); rerun the scenario", path,
             COSROD_VERSION_STRING);
    ck_free(d);
    return COSROD_ERR_INVALID;
  }
  return COSROD_OK;
}

cosrod_status cosrod_recorder_checkpoint_scenario(const char *dir, char **yaml, char **file, char *msg,
                                                  size_t msglen) {
  char tmp[8];
  if (!msg || !msglen) msg = tmp, msglen = sizeof tmp;
  msg[0] = '\0';
  if (!dir || !yaml || !file) return COSROD_ERR_INVALID;
  *yaml = *file = NULL;
  if (run_finished(dir)) {
    snprintf(msg, msglen, "%s: the run finished (summary.json status ok): nothing to resume", dir);
    return COSROD_ERR_INVALID;
  }
  ck_data d;
  cosrod_status st = ck_read(dir, &d, msg, msglen);
  if (st != COSROD_OK) return st;
  *yaml = d.yaml;
  *file = d.file;
  d.yaml = d.file = NULL;
  ck_free(&d);
  return COSROD_OK;
}

/* The first line where the canonical texts a (checkpoint) and b differ, as
 * "key.path: value (checkpoint: value)" into msg; list items are numbered
 * from 0 under their key. */
static void name_change(const char *a, const char *b, char *msg, size_t len) {
  char path[8][64];
  int depth[8], idx[8], n = 0;
  char sect[64] = "";
  const char *la = a, *lb = b;
  while (*la || *lb) {
    int na = (int)strcspn(la, "\n"), nb = (int)strcspn(lb, "\n");
    if (la[0] != ' ' && la[0] != '-') {
      size_t k = 0;
      while (k + 1 < sizeof sect && la[k] && la[k] != ':' && la[k] != '\n') sect[k] = la[k], k++;
      sect[k] = '\0';
    }
    int ind = (int)strspn(la, " "), item = la[ind] == '-', eff = ind + (item ? 2 : 0);
    while (n > 0 && depth[n - 1] >= ind) n--;
    if (item && n > 0) idx[n - 1]++;
    const char *key = la + eff;
    int kl = (int)strcspn(key, ":\n");
    const int differ =
        (na != nb || strncmp(la, lb, (size_t)na)) && !(volatile_line(la, sect) && volatile_line(lb, sect));
    if (differ) {
      char kp[600] = "";
      for (int i = 0; i < n; i++) {
        size_t l = strlen(kp);
        snprintf(kp + l, sizeof kp - l, "%s.", path[i]);
        if (idx[i] >= 0) {
          l = strlen(kp);
          snprintf(kp + l, sizeof kp - l, "%d.", idx[i]);
        }
      }
      const char *va = la + eff + kl, *vb = lb + (int)strspn(lb, " -");
      vb += strcspn(vb, ":\n");
      va += *va == ':' ? 1 + strspn(va + 1, " ") : 0;
      vb += *vb == ':' ? 1 + strspn(vb + 1, " ") : 0;
      /* a longer line is cut: the message names the key first */
      const int w = snprintf(msg, len, "%.300s%.*s: %.*s (checkpoint: %.*s)", kp, kl > 100 ? 100 : kl, key,
               (int)strcspn(vb, "\n") > 200 ? 200 : (int)strcspn(vb, "\n"), vb,
               (int)strcspn(va, "\n") > 200 ? 200 : (int)strcspn(va, "\n"), va);
      (void)w;
      return;
    }
    if (n < 8 && key[kl] == ':' && (key[kl + 1] == '\n' || key[kl + 1] == '\0')) { /* a parent key */
      snprintf(path[n], sizeof path[n], "%.*s", kl > 63 ? 63 : kl, key);
      depth[n] = eff;
      idx[n] = -1;
      n++;
    }
    la += na + (la[na] == '\n');
    lb += nb + (lb[nb] == '\n');
  }
  snprintf(msg, len, "the scenario text differs");
}

/* Did the run in dir finish (summary.json status "ok")? */
static int run_finished(const char *dir) {
  char path[4200], buf[4096];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *s = strstr(buf, "\"status\"");
  if (!s) return 0;
  s += 8;
  s += strspn(s, " :");
  return !strncmp(s, "\"ok\"", 4);
}

static cosrod_recorder *recorder_resume(cosrod_sim *sim, const char *dir, double checkpoint_every,
                                        cosrod_status *status, char *msg, size_t msglen) {
  msg[0] = '\0';
  cosrod_status st = COSROD_ERR_INVALID;
  cosrod_recorder *r = NULL;
  ck_data d = {0};
  char *yaml = NULL;
  const cosrod_scenario *sc = sim ? cosrod_sim_scenario(sim) : NULL;
  const char *why = sc && dir ? record_resume_refusal(sc, sim) : "no simulation or directory";
  if (why) {
    snprintf(msg, msglen, "%s: %s", dir ? dir : "resume", why);
    goto out;
  }
  if (run_finished(dir)) {
    snprintf(msg, msglen, "%s: the run finished (summary.json status ok): nothing to resume", dir);
    goto out;
  }
  if ((st = ck_read(dir, &d, msg, msglen)) != COSROD_OK) goto out;
  st = COSROD_ERR_INVALID;
  if (!(yaml = scenario_yaml(sc))) {
    st = COSROD_ERR_NOMEM;
    goto out;
  }
  if (scenario_digest(yaml) != d.dig[0]) {
    char what[600];
    name_change(d.yaml, yaml, what, sizeof what);
    snprintf(msg, msglen, "%s: the scenario changed since the checkpoint: %s", dir, what);
    goto out;
  }
  if (cosrod_sim_restart_load(sim, d.sim, d.len[2]) != COSROD_OK) {
    snprintf(msg, msglen, "%s/" CK_NAME ": the restart data do not fit this simulation", dir);
    goto out;
  }
  r = record_create_impl(sim, dir, d.file[0] ? d.file : NULL, checkpoint_every, d.pos, d.len[3], d.rec + 2,
                         &st, msg, msglen);
  if (r) {
    const double *c = d.rec + 2 + RECORD_NOWN;
    r->ck_next = d.rec[0];
    r->ck_wall0 = d.rec[1];
    r->vframe = (size_t)c[0], r->cpen = c[1], r->cpen_r = c[2], r->cmissed = (long)c[3], r->ctracked = (int)c[4];
  }
out:
  ck_free(&d);
  free(yaml);
  if (status) *status = r ? COSROD_OK : st;
  return r;
}

cosrod_recorder *cosrod_recorder_resume(cosrod_sim *sim, const char *dir, double checkpoint_every,
                                        cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  cosrod_recorder *obj = recorder_resume(sim, dir, checkpoint_every, &st, msg, sizeof msg);
  return cosrod_error_result(obj, status, st, msg);
}
