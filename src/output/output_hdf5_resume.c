// SPDX-License-Identifier: Apache-2.0
/* Resuming a run with HDF5 output (output_hdf5.h, output_resume.c).
 *
 * A checkpoint publishes every table's committed rows (out_h5_flush: SWMR
 * writes and a flush, so run.h5 and vtk/cosrod.vtkhdf on disk are readable
 * after a kill up to that point) and records their row counts
 * (out_h5_position).  A resumed output writes NEW files under temporary
 * names (DIR/.run.h5.tmp, vtk/.cosrod.vtkhdf.tmp), copies rows [0, count)
 * of every table from the killed run's files into them (the recorder's
 * extra tables when it adds them), and only at its first flush (or close)
 * renames them over the old files.  A kill during the copy leaves the old
 * files and the checkpoint as they were, so the run can be resumed again;
 * rows the killed run wrote after its checkpoint are not copied, so the
 * continued tables hold neither duplicate nor missing rows. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_h5lib.h"
#include "output_hdf5.h"
#include "output_internal.h"

#define LIB(out) ((const out_h5lib *)(out)->h5->lib)

static uint64_t committed(const out_h5tab *t) { return t->ds >= 0 ? t->written + t->ncommit : 0; }

void out_h5_position(const cosrod_output *out, out_h5_pos *p) {
  memset(p, 0, sizeof *p);
  const out_h5 *h = out->h5;
  for (size_t i = 0; i < OUT_H5_NTAB; i++) p->rows[i] = h->t[i].ds >= 0 ? (int64_t)committed(&h->t[i]) : -1;
  p->nextra = (int64_t)h->nextra;
  for (size_t i = 0; i < h->nextra; i++) p->extra[i] = (int64_t)committed(&h->extra[i]);
  p->vtk = h->vtk != NULL;
  if (h->vtk) out_vtkhdf_position(out, p->vtkrows, p->vtktot);
}

cosrod_status out_h5_copy_rows(cosrod_output *out, out_h5tab *t, int64_t src, const char *path, uint64_t rows,
                               char *msg, size_t len) {
  const out_h5lib *L = LIB(out);
  if (rows == 0) return COSROD_OK;
  hid_t ds = L->H5Dopen2((hid_t)src, path, H5P_DEFAULT), fs = ds >= 0 ? L->H5Dget_space(ds) : -1;
  hsize_t dims[2] = {0, 0};
  const int rank = t->rank1 ? 1 : 2;
  int ok = fs >= 0 && L->H5Sget_simple_extent_ndims(fs) == rank && L->H5Sget_simple_extent_dims(fs, dims, NULL) == rank &&
           (rank == 1 || dims[1] == t->ncols);
  if (!ok || dims[0] < rows) {
    snprintf(msg, len, "%s: %s %s (the checkpoint needs %llu rows)", out->h5->path, path,
             !ok ? "is missing or has another shape" : "holds fewer rows", (unsigned long long)rows);
    if (fs >= 0) L->H5Sclose(fs);
    if (ds >= 0) L->H5Dclose(ds);
    return COSROD_ERR_INVALID;
  }
  const size_t block = t->cap > 0 ? t->cap : 1;
  for (uint64_t r0 = 0; r0 < rows && ok; r0 += block) {
    const hsize_t k = rows - r0 < block ? rows - r0 : block;
    void *dst = out_h5tab_reserve(out, t, (size_t)k);
    hsize_t start[2] = {r0, 0}, count[2] = {k, t->ncols};
    hid_t ms = dst ? L->H5Screate_simple(rank, count, NULL) : -1;
    ok = ms >= 0 && L->H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
         L->H5Dread(ds, (hid_t)t->mtype, ms, fs, H5P_DEFAULT, dst) >= 0;
    if (ms >= 0) L->H5Sclose(ms);
    t->ncommit = t->n;
  }
  L->H5Sclose(fs);
  L->H5Dclose(ds);
  if (!ok) snprintf(msg, len, "%s: cannot copy %s from the killed run's file", out->h5->path, path);
  return ok ? COSROD_OK : COSROD_ERR_IO;
}

/* The killed run's file at path, opened for reading.  A writer killed while
 * it wrote with SWMR leaves the file marked as open for SWMR writing (SWMR
 * read opens it); one closed properly opens plainly; one killed while its
 * close reopened the file to add the final attributes (no SWMR there) leaves
 * the superblock's write flag set over data that was complete and closed:
 * the file-access property "clear_status_flags" (the one HDF5's h5clear tool
 * sets) lets a reader open it without writing to it. */
static int64_t open_source(const out_h5lib *L, const char *path) {
  hid_t f = L->H5Fopen(path, OUT_H5F_ACC_RDONLY | OUT_H5F_ACC_SWMR_READ, H5P_DEFAULT);
  if (f < 0) f = L->H5Fopen(path, OUT_H5F_ACC_RDONLY, H5P_DEFAULT); /* closed properly (interrupted run) */
  if (f < 0) {
    hid_t fapl = L->H5Pcreate(L->P_CLS_FILE_ACCESS_ID);
    hbool_t clear = 1;
    if (fapl >= 0 && L->H5Pset(fapl, "clear_status_flags", &clear) >= 0)
      f = L->H5Fopen(path, OUT_H5F_ACC_RDONLY, fapl);
    if (fapl >= 0) L->H5Pclose(fapl);
  }
  return f;
}

cosrod_status out_h5_resume(cosrod_output *out, const out_h5_pos *p, char *msg, size_t len) {
  out_h5 *h = out->h5;
  const out_h5lib *L = LIB(out);
  if (p->nextra < 0 || p->nextra > OUT_H5_MAX_EXTRA || (p->vtk != 0) != (h->vtk != NULL)) {
    snprintf(msg, len, "output: the checkpoint's HDF5 tables do not fit this run");
    return COSROD_ERR_INVALID;
  }
  for (size_t i = 0; i < OUT_H5_NTAB; i++)
    if ((p->rows[i] >= 0) != (h->t[i].ds >= 0)) {
      snprintf(msg, len, "output: %s: the checkpoint's run %s it", h->t[i].ds >= 0 ? h->t[i].name : "a table",
               h->t[i].ds >= 0 ? "did not write" : "wrote");
      return COSROD_ERR_INVALID;
    }
  h->src = open_source(L, h->fin);
  if (h->src < 0) {
    snprintf(msg, len, "%s: cannot open the killed run's HDF5 file", h->fin);
    return COSROD_ERR_IO;
  }
  for (size_t i = 0; i < OUT_H5_NTAB; i++) {
    if (h->t[i].ds < 0) continue;
    cosrod_status st = out_h5_copy_rows(out, &h->t[i], h->src, h->t[i].name, (uint64_t)p->rows[i], msg, len);
    if (st != COSROD_OK) return st;
  }
  for (int64_t i = 0; i < p->nextra; i++) h->src_extra[i] = (uint64_t)p->extra[i];
  if (h->vtk) {
    const char *vp = out_vtkhdf_path(out, 1);
    h->src_vtk = open_source(L, vp);
    if (h->src_vtk < 0) {
      snprintf(msg, len, "%s: cannot open the killed run's VTKHDF file", vp);
      return COSROD_ERR_IO;
    }
    cosrod_status st = out_vtkhdf_resume(out, h->src_vtk, p->vtkrows, p->vtktot, msg, len);
    if (st != COSROD_OK) return st;
  }
  return COSROD_OK;
}

cosrod_status out_h5_resume_extra(cosrod_output *out, size_t k) {
  out_h5 *h = out->h5;
  char msg[512];
  cosrod_status st = out_h5_copy_rows(out, &h->extra[k], h->src, h->extra[k].name, h->src_extra[k], msg, sizeof msg);
  if (st != COSROD_OK) out_fail(out, st, "%s", msg);
  return st;
}

cosrod_status out_h5_publish(cosrod_output *out) {
  out_h5 *h = out->h5;
  const out_h5lib *L = LIB(out);
  cosrod_status st = COSROD_OK;
  if (h->src >= 0) L->H5Fclose((hid_t)h->src);
  if (h->src_vtk >= 0) L->H5Fclose((hid_t)h->src_vtk);
  h->src = h->src_vtk = -1;
  if (strcmp(h->path, h->fin) != 0) {
    if (rename(h->path, h->fin) != 0) return out_fail(out, COSROD_ERR_IO, "%s: cannot rename to %s", h->path, h->fin);
    free(h->path);
    h->path = strdup(h->fin);
    if (!h->path) st = COSROD_ERR_NOMEM;
  }
  if (h->vtk) {
    cosrod_status s2 = out_vtkhdf_publish(out);
    if (st == COSROD_OK) st = s2;
  }
  return st;
}
