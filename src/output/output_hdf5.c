// SPDX-License-Identifier: Apache-2.0
/* HDF5 tables of a run, DIR/run.h5 (see output_hdf5.h and [manual: command
 * line, output reference]).  Layout: one 2-D float64 dataset per CSV table
 * (centerline, frames, strains, curvatures, energy, bodies, steps,
 * increments, modes or buckling, reactions, tip, and the recorder's tables
 * such as joints), named like the CSV file without ".csv", rows x columns
 * with the CSV's columns in order (indices as exact doubles); attributes
 * "columns" and "units" (comma-separated).  Root attributes: format
 * ("cosrod-hdf5"), format_version, title, analysis, scenario (the scenario as
 * YAML) and, at close, summary (summary.json's text).
 *
 * Crash safety: the file is written in place.  Rows are buffered and
 * written at checkpoints, when a buffer is full and at close; from the first
 * checkpoint on the file is in SWMR mode (single writer, multiple readers,
 * HDF5 >= 1.10), whose ordered metadata writes keep the file on disk
 * readable after a kill, up to the last write: open it with
 * h5py.File(path, "r", swmr=True) (a killed run has no "summary"). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output_h5lib.h"
#include "output_hdf5.h"
#include "output_estimate.h"
#include "output_internal.h"

#define LIB(out) ((const out_h5lib *)(out)->h5->lib)
/* chunk size (the file's allocation unit: output_estimate.h counts half a
 * chunk per dataset) and row buffer size (rows reach the file in writes of
 * this size) */
#define CHUNK_BYTES OUT_H5_CHUNK_BYTES
#define BUF_BYTES 262144u

/* Record an HDF5 failure: no more HDF5 writes, the CSV-side error path. */
static cosrod_status h5_fail(cosrod_output *out, const char *what) {
  if (!out->h5->failed) out_warn(out, "%s: HDF5 %s failed", out->h5->path, what);
  out->h5->failed = 1;
  return out_fail(out, COSROD_ERR_IO, "%s: HDF5 %s failed", out->h5->path, what);
}

cosrod_status out_h5_attr_str(cosrod_output *out, int64_t obj, const char *name, const char *value) {
  const out_h5lib *L = LIB(out);
  size_t n = strlen(value ? value : "");
  hid_t ty = L->H5Tcopy(L->T_C_S1), sp = L->H5Screate(H5S_SCALAR), a = -1;
  int ok = ty >= 0 && sp >= 0 && L->H5Tset_size(ty, n > 0 ? n : 1) >= 0;
  if (ok) a = L->H5Acreate2((hid_t)obj, name, ty, sp, H5P_DEFAULT, H5P_DEFAULT);
  ok = ok && a >= 0 && L->H5Awrite(a, ty, n > 0 ? value : "") >= 0;
  if (a >= 0) L->H5Aclose(a);
  if (sp >= 0) L->H5Sclose(sp);
  if (ty >= 0) L->H5Tclose(ty);
  return ok ? COSROD_OK : h5_fail(out, "attribute");
}

static cosrod_status attr_i64(cosrod_output *out, hid_t obj, const char *name, const int64_t *v, hsize_t n) {
  const out_h5lib *L = LIB(out);
  hid_t sp = L->H5Screate_simple(1, &n, NULL), a = -1;
  if (sp >= 0) a = L->H5Acreate2(obj, name, L->T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
  int ok = a >= 0 && L->H5Awrite(a, L->T_NATIVE_INT64, v) >= 0;
  if (a >= 0) L->H5Aclose(a);
  if (sp >= 0) L->H5Sclose(sp);
  return ok ? COSROD_OK : h5_fail(out, "attribute");
}

cosrod_status out_h5tab_create(cosrod_output *out, out_h5tab *t, int64_t loc, const char *name, size_t ncols,
                               int kind, const char *columns, const char *units) {
  const out_h5lib *L = LIB(out);
  hid_t ftype = kind == OUT_H5_F64 ? L->T_IEEE_F64LE : kind == OUT_H5_I64 ? L->T_STD_I64LE : L->T_STD_U8LE;
  t->mtype = kind == OUT_H5_F64 ? L->T_NATIVE_DOUBLE : kind == OUT_H5_I64 ? L->T_NATIVE_INT64 : L->T_NATIVE_UINT8;
  t->esize = kind == OUT_H5_U8 ? 1 : 8;
  t->ncols = ncols;
  t->rank1 = ncols == 1;
  t->n = t->ncommit = 0;
  t->written = 0;
  size_t row = t->ncols * t->esize, crow = CHUNK_BYTES / row;
  if (crow < 1) crow = 1;
  t->cap = BUF_BYTES / row; /* grows (once, at the first output time) if a frame has more rows */
  t->buf = malloc(t->cap * row);
  t->ds = -1;
  snprintf(t->name, sizeof t->name, "%s", name);
  if (!t->buf) return out_fail(out, COSROD_ERR_NOMEM, "output: out of memory");
  int rank = t->rank1 ? 1 : 2;
  hsize_t dims[2] = {0, ncols}, maxd[2] = {H5S_UNLIMITED, ncols}, chunk[2] = {crow, ncols};
  hid_t sp = L->H5Screate_simple(rank, dims, maxd), dcpl = L->H5Pcreate(L->P_CLS_DATASET_CREATE_ID);
  int ok = sp >= 0 && dcpl >= 0 && L->H5Pset_chunk(dcpl, rank, chunk) >= 0;
  if (ok) t->ds = L->H5Dcreate2((hid_t)loc, name, ftype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (dcpl >= 0) L->H5Pclose(dcpl);
  if (sp >= 0) L->H5Sclose(sp);
  if (t->ds < 0) return h5_fail(out, "dataset creation");
  if (columns && out_h5_attr_str(out, t->ds, "columns", columns) != COSROD_OK) return COSROD_ERR_IO;
  if (units && out_h5_attr_str(out, t->ds, "units", units) != COSROD_OK) return COSROD_ERR_IO;
  return COSROD_OK;
}

cosrod_status out_h5tab_write(cosrod_output *out, out_h5tab *t) {
  if (t->ds < 0 || t->ncommit == 0) return COSROD_OK;
  if (out->h5->failed) return COSROD_ERR_IO;
  const out_h5lib *L = LIB(out);
  int rank = t->rank1 ? 1 : 2;
  hsize_t start[2] = {t->written, 0}, count[2] = {t->ncommit, t->ncols}, dims[2] = {t->written + t->ncommit, t->ncols};
  if (L->H5Dset_extent(t->ds, dims) < 0) return h5_fail(out, "extend");
  hid_t fs = L->H5Dget_space(t->ds), ms = L->H5Screate_simple(rank, count, NULL);
  int ok = fs >= 0 && ms >= 0 && L->H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
           L->H5Dwrite(t->ds, t->mtype, ms, fs, H5P_DEFAULT, t->buf) >= 0;
  if (ms >= 0) L->H5Sclose(ms);
  if (fs >= 0) L->H5Sclose(fs);
  if (!ok) return h5_fail(out, "write");
  size_t row = t->ncols * t->esize, rest = t->n - t->ncommit;
  if (rest) memmove(t->buf, t->buf + t->ncommit * row, rest * row);
  t->written += t->ncommit;
  t->n = rest;
  t->ncommit = 0;
  return COSROD_OK;
}

void *out_h5tab_reserve(cosrod_output *out, out_h5tab *t, size_t k) {
  if (t->ds < 0) return NULL;
  size_t row = t->ncols * t->esize;
  if (t->n + k > t->cap && out_h5tab_write(out, t) != COSROD_OK) return NULL;
  if (t->n + k > t->cap) { /* a frame larger than the buffer: only at the first output time */
    size_t cap = 2 * t->cap > t->n + k ? 2 * t->cap : t->n + k;
    unsigned char *b = realloc(t->buf, cap * row);
    if (!b) return NULL;
    t->buf = b;
    t->cap = cap;
  }
  void *p = t->buf + t->n * row;
  t->n += k;
  return p;
}

void out_h5tab_free(cosrod_output *out, out_h5tab *t) {
  if (t->ds >= 0 && out->h5 && out->h5->lib) LIB(out)->H5Dclose(t->ds);
  t->ds = -1;
  t->ncommit = t->n = 0;
  free(t->buf);
  t->buf = NULL;
}

/* ---- run.h5 tables ------------------------------------------------------- */

static const char *const table_units[OF_PVD] = {
    "s,-,-,m,m,m,m",
    "s,-,-,m,1,1,1,1",
    "s,-,-,m,1,1,1,N,N,N",
    "s,-,-,m,1/m,1/m,1/m,N m,N m,N m",
    "s,J,J,J,J,J,J",
    "s,-,m,m,m,1,1,1,1,1/s,1/s,1/s,m/s,m/s,m/s,J,J",
    "s,s,-",
    "s,-,1",
    "-,Hz,rad/s,-,-,m,m,m,rad,rad,rad",
    "s,-,-,N,N,N,N m,N m,N m",
    "s,-,-,m,m,m,1,1,1,1"};

/* "a,b,c\n" -> number of columns; copy without the newline into buf */
static size_t header_columns(const char *hdr, char *buf, size_t cap) {
  snprintf(buf, cap, "%s", hdr);
  size_t n = strlen(buf), nc = 1;
  if (n && buf[n - 1] == '\n') buf[--n] = '\0';
  for (size_t i = 0; i < n; i++) nc += buf[i] == ',';
  return nc;
}

cosrod_status out_h5_open(cosrod_output *out, const cosrod_output_config *cfg, char *err, size_t cap) {
  const out_h5lib *L = out_h5lib_get(err, cap);
  if (!L) return COSROD_ERR_UNSUPPORTED;
  out_h5 *h = calloc(1, sizeof *h);
  if (!h) return COSROD_ERR_NOMEM;
  out->h5 = h;
  h->lib = L;
  h->file = h->src = h->src_vtk = -1;
  for (size_t i = 0; i < sizeof h->t / sizeof h->t[0]; i++) h->t[i].ds = -1;
  size_t n = strlen(out->dir) + 16;
  h->path = malloc(n);
  h->fin = malloc(n);
  if (!h->path || !h->fin) return COSROD_ERR_NOMEM;
  snprintf(h->fin, n, "%s/run.h5", out->dir);
  /* a resumed run writes a new file beside the killed run's until it is published (output_hdf5_resume.c) */
  snprintf(h->path, n, cfg->resume ? "%s/.run.h5.tmp" : "%s/run.h5", out->dir);
  hid_t fapl = L->H5Pcreate(L->P_CLS_FILE_ACCESS_ID);
  if (fapl >= 0 && L->H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST) >= 0) /* SWMR needs it */
    h->file = L->H5Fcreate(h->path, OUT_H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (fapl >= 0) L->H5Pclose(fapl);
  if (h->file < 0) {
    snprintf(err, cap, "%s: cannot create the HDF5 file", h->path);
    return COSROD_ERR_IO;
  }
  const int64_t version = 1;
  cosrod_status st = out_h5_attr_str(out, h->file, "format", "cosrod-hdf5");
  if (st == COSROD_OK) st = attr_i64(out, (hid_t)h->file, "format_version", &version, 1);
  if (st == COSROD_OK) st = out_h5_attr_str(out, h->file, "title", out->title);
  if (st == COSROD_OK) st = out_h5_attr_str(out, h->file, "analysis", out->analysis);
  if (st == COSROD_OK && cfg->scenario_text) st = out_h5_attr_str(out, h->file, "scenario", cfg->scenario_text);
  for (int i = 0; i < OF_PVD && st == COSROD_OK; ++i) {
    if (!(out->files & (1u << i))) continue;
    char cols[256], name[32];
    const char *hdr = out_table_header(out, i);
    size_t nc = header_columns(hdr, cols, sizeof cols);
    snprintf(name, sizeof name, "%s", out->f[i].name);
    char *dot = strrchr(name, '.');
    if (dot) *dot = '\0';
    const char *units = table_units[i];
    if (i == OF_MODES && out->buckling) units = "-,1,-,-,m,m,m,rad,rad,rad";
    if (i == OF_INCREMENTS && out->arc_length) units = "s,-,1,1,m,-,-";
    st = out_h5tab_create(out, &h->t[i], h->file, name, nc, OUT_H5_F64, cols, units);
  }
  if (st == COSROD_OK && out->vtk) st = out_vtkhdf_open(out, err, cap);
  if (st != COSROD_OK && !err[0]) snprintf(err, cap, "%s", out->err);
  return st;
}

double *out_h5_rows(cosrod_output *out, int i, size_t k) {
  if (!out->h5 || out->h5->failed) return NULL;
  return out_h5tab_reserve(out, &out->h5->t[i], k);
}

void out_h5_commit(cosrod_output *out) {
  out_h5 *h = out->h5;
  for (size_t i = 0; i < sizeof h->t / sizeof h->t[0]; i++) h->t[i].ncommit = h->t[i].n;
  for (size_t i = 0; i < h->nextra; i++) h->extra[i].ncommit = h->extra[i].n;
}

void out_h5_rollback(cosrod_output *out) {
  out_h5 *h = out->h5;
  for (size_t i = 0; i < sizeof h->t / sizeof h->t[0]; i++) h->t[i].n = h->t[i].ncommit;
  for (size_t i = 0; i < h->nextra; i++) h->extra[i].n = h->extra[i].ncommit;
  if (h->vtk) out_vtkhdf_rollback(out);
}

static cosrod_status write_all(cosrod_output *out) {
  out_h5 *h = out->h5;
  cosrod_status st = COSROD_OK;
  for (size_t i = 0; i < sizeof h->t / sizeof h->t[0] && st == COSROD_OK; i++) st = out_h5tab_write(out, &h->t[i]);
  for (size_t i = 0; i < h->nextra && st == COSROD_OK; i++) st = out_h5tab_write(out, &h->extra[i]);
  return st;
}

cosrod_status out_h5_flush(cosrod_output *out) {
  out_h5 *h = out->h5;
  if (h->failed) return COSROD_ERR_IO;
  const out_h5lib *L = h->lib;
  if (!h->swmr) { /* every dataset and attribute exists by now: SWMR from here on */
    if (L->H5Fstart_swmr_write(h->file) < 0) return h5_fail(out, "SWMR start");
    h->swmr = 1;
  }
  cosrod_status st = write_all(out);
  if (st == COSROD_OK && L->H5Fflush(h->file, H5F_SCOPE_GLOBAL) < 0) st = h5_fail(out, "flush");
  if (st == COSROD_OK && h->vtk && out_vtkhdf_flush(out) != COSROD_OK) st = h5_fail(out, "VTKHDF flush");
  if (st == COSROD_OK) st = out_h5_publish(out); /* both files on disk: they replace a killed run's */
  return st;
}

static void close_tables(cosrod_output *out) {
  out_h5 *h = out->h5;
  for (size_t i = 0; i < sizeof h->t / sizeof h->t[0]; i++) out_h5tab_free(out, &h->t[i]);
  for (size_t i = 0; i < h->nextra; i++) out_h5tab_free(out, &h->extra[i]);
}

cosrod_status out_h5_close(cosrod_output *out) {
  out_h5 *h = out->h5;
  const out_h5lib *L = h->lib;
  cosrod_status st = h->failed ? COSROD_ERR_IO : write_all(out);
  if (h->vtk) {
    cosrod_status s2 = out_vtkhdf_close(out);
    if (st == COSROD_OK) st = s2;
  }
  close_tables(out);
  if (h->file >= 0 && L->H5Fclose(h->file) < 0 && st == COSROD_OK) st = h5_fail(out, "close");
  h->file = -1;
  if (st == COSROD_OK) st = out_h5_publish(out); /* a resumed run closed before its first checkpoint */
  return st;
}

/* SWMR writers cannot add attributes: the file is reopened for it.  The
 * text is read from json_path, the summary not yet renamed into place (so a
 * summary.json saying "ok" implies a complete run.h5). */
cosrod_status out_h5_attach_summary(cosrod_output *out, const char *json_path) {
  out_h5 *h = out->h5;
  const out_h5lib *L = h->lib;
  if (h->failed) return COSROD_ERR_IO;
  char *text = NULL;
  FILE *fp = fopen(json_path, "rb");
  long len = -1;
  if (fp && fseek(fp, 0, SEEK_END) == 0) len = ftell(fp);
  if (fp && len >= 0 && fseek(fp, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1)) != NULL) {
    if (fread(text, 1, (size_t)len, fp) != (size_t)len) len = -1;
    text[len >= 0 ? len : 0] = '\0';
  }
  if (fp) fclose(fp);
  cosrod_status st = COSROD_OK;
  if (!text || len < 0) {
    st = h5_fail(out, "summary attribute (summary.json unreadable)");
  } else {
    hid_t f = L->H5Fopen(h->path, OUT_H5F_ACC_RDWR, H5P_DEFAULT);
    st = f >= 0 ? out_h5_attr_str(out, f, "summary", text) : h5_fail(out, "reopen");
    if (f >= 0 && L->H5Fclose(f) < 0) st = h5_fail(out, "close");
  }
  free(text);
  return st;
}

void out_h5_free(cosrod_output *out) {
  out_h5 *h = out->h5;
  if (!h) return;
  if (h->vtk) out_vtkhdf_free(out, 0);
  if (h->lib) {
    const out_h5lib *L = h->lib;
    close_tables(out);
    if (h->file >= 0) L->H5Fclose(h->file);
    if (h->src >= 0) L->H5Fclose(h->src);
    if (h->src_vtk >= 0) L->H5Fclose(h->src_vtk);
  }
  if (h->path && h->fin && strcmp(h->path, h->fin) != 0) remove(h->path); /* unpublished: the old file stays */
  free(h->fin);
  free(h->path);
  free(h);
  out->h5 = NULL;
}

/* ---- public: extra tables of the caller (e.g. the recorder's joints) ----- */

int cosrod_output_add_table(cosrod_output *out, const char *name, const char *columns, const char *units) {
  /* before the first frame; a resumed output (frames counted, rows still to copy) until its first flush */
  if (!out || !out->h5 || out->closed || !name || !columns || out->h5->swmr ||
      (out->nframes > 0 && out->h5->src < 0) || out->h5->nextra >= OUT_H5_MAX_EXTRA)
    return -1;
  char cols[512];
  size_t nc = header_columns(columns, cols, sizeof cols);
  out_h5tab *t = &out->h5->extra[out->h5->nextra];
  if (out_h5tab_create(out, t, out->h5->file, name, nc, OUT_H5_F64, cols, units) != COSROD_OK) {
    out_h5tab_free(out, t);
    return -1;
  }
  if (out->h5->src >= 0 && out_h5_resume_extra(out, out->h5->nextra) != COSROD_OK) return -1;
  return (int)out->h5->nextra++;
}

cosrod_status cosrod_output_table_row(cosrod_output *out, int table, const double *row) {
  if (!out || !out->h5 || out->closed || table < 0 || (size_t)table >= out->h5->nextra || !row)
    return COSROD_ERR_INVALID;
  out_h5tab *t = &out->h5->extra[table];
  double *p = out_h5tab_reserve(out, t, 1);
  if (!p) return out->h5->failed ? COSROD_ERR_IO : COSROD_ERR_NOMEM;
  memcpy(p, row, t->ncols * sizeof *p);
  if (!out->in_frame) t->ncommit = t->n; /* rows outside a frame are committed at once */
  return COSROD_OK;
}
