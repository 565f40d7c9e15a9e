// SPDX-License-Identifier: Apache-2.0
/* The rods of an HDF5 run as one VTKHDF file, DIR/vtk/cosrod.vtkhdf, which
 * ParaView opens directly (VTKHDF "UnstructuredGrid" with a "Steps" group,
 * format version 2.0: ParaView >= 5.12 / VTK >= 9.3 read its time series),
 * written after Kitware's published VTKHDF file-format specification:
 *
 *   /VTKHDF                 attributes Version = [2, 0], Type = "UnstructuredGrid"
 *     NumberOfPoints, NumberOfCells, NumberOfConnectivityIds   (one per step: one part per step)
 *     Points (P x 3), Connectivity, Offsets (cells + 1 per step), Types (uint8, VTK_LINE = 3)
 *     PointData/  s, K (3), M (3), radius,       vertex quantities (as the .vtp files)
 *                 section_half_widths (2), section_inner_radius
 *     CellData/   s, Gamma (3), F (3), q (4)     segment quantities, one line cell per segment
 *     Steps/      attribute NumberOfSteps; Values (output times), PartOffsets,
 *                 NumberOfParts, PointOffsets, CellOffsets, ConnectivityIdOffsets,
 *                 PointDataOffsets/<name>, CellDataOffsets/<name>
 *
 * Every step stores all rods (points and cells concatenated, rod by rod in
 * the order written); connectivity is local to the step's points.  Written
 * under vtk/.cosrod.vtkhdf.tmp and renamed at the first checkpoint (or at
 * close); from the first checkpoint on in SWMR mode like run.h5, so that a
 * killed run leaves a readable file up to its last checkpoint (and a resumed
 * run copies it, output_hdf5_resume.c).  vtk/cosrod.xdmf2 indexes its steps
 * for older ParaView (output_xdmf.c).  Rigid bodies stay in the .vtp/.pvd
 * series. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_h5lib.h"
#include "output_hdf5.h"
#include "output_internal.h"

enum { PD_S, PD_K, PD_M, PD_RADIUS, PD_HW, PD_IR, PD_COUNT };
enum { CD_S, CD_GAMMA, CD_F, CD_Q, CD_COUNT };
enum {
  T_NPTS, T_NCELLS, T_NCONN, T_POINTS, T_CONN, T_OFFS, T_TYPES,
  T_PD, T_CD = T_PD + PD_COUNT,
  T_VALUES = T_CD + CD_COUNT, T_PARTOFF, T_NPARTS, T_PTOFF, T_CELLOFF, T_CONNOFF,
  T_PDO, T_CDO = T_PDO + PD_COUNT, T_COUNT = T_CDO + CD_COUNT
};
static const char *const pd_names[PD_COUNT] = {"s", "K", "M", "radius", "section_half_widths",
                                               "section_inner_radius"};
static const size_t pd_ncomp[PD_COUNT] = {1, 3, 3, 1, 2, 1};
static const char *const cd_names[CD_COUNT] = {"s", "Gamma", "F", "q"};
static const size_t cd_ncomp[CD_COUNT] = {1, 3, 3, 4};

struct out_vtkhdf {
  hid_t file, g[6]; /* VTKHDF, PointData, CellData, Steps, Steps/PointDataOffsets, Steps/CellDataOffsets */
  out_h5tab t[T_COUNT];
  char *tmp, *fin, *xtmp, *xfin; /* the VTKHDF file's, its XDMF index's (output_xdmf.c) names */
  int swmr, published;         /* SWMR writing started (first flush); renamed to fin (first flush) */
  int64_t P, C;                /* points, cells of the current step */
  int64_t totP, totC, nsteps;  /* committed */
  uint64_t xsteps;             /* steps the XDMF index on disk names */
  int64_t xtail;               /* where its closing tags start (0: not written) */
};

#define LIB(out) ((const out_h5lib *)(out)->h5->lib)

cosrod_status out_vtkhdf_open(cosrod_output *out, char *err, size_t cap) {
  const out_h5lib *L = LIB(out);
  out_vtkhdf *v = calloc(1, sizeof *v);
  if (!v) return COSROD_ERR_NOMEM;
  out->h5->vtk = v;
  v->file = -1;
  for (int i = 0; i < 6; i++) v->g[i] = -1;
  for (int i = 0; i < T_COUNT; i++) v->t[i].ds = -1;
  size_t n = strlen(out->vtkdir) + 32;
  v->tmp = malloc(n);
  v->fin = malloc(n);
  v->xtmp = malloc(n);
  v->xfin = malloc(n);
  if (!v->tmp || !v->fin || !v->xtmp || !v->xfin) return COSROD_ERR_NOMEM;
  snprintf(v->tmp, n, "%s/.cosrod.vtkhdf.tmp", out->vtkdir);
  snprintf(v->fin, n, "%s/cosrod.vtkhdf", out->vtkdir);
  snprintf(v->xtmp, n, "%s/.cosrod.xdmf2.tmp", out->vtkdir);
  snprintf(v->xfin, n, "%s/cosrod.xdmf2", out->vtkdir);
  hid_t fapl = L->H5Pcreate(L->P_CLS_FILE_ACCESS_ID);
  if (fapl >= 0 && L->H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST) >= 0) /* SWMR needs it */
    v->file = L->H5Fcreate(v->tmp, OUT_H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (fapl >= 0) L->H5Pclose(fapl);
  if (v->file < 0) {
    snprintf(err, cap, "%s: cannot create the HDF5 file", v->tmp);
    return COSROD_ERR_IO;
  }
  static const char *const gnames[6] = {"VTKHDF", "VTKHDF/PointData", "VTKHDF/CellData", "VTKHDF/Steps",
                                        "VTKHDF/Steps/PointDataOffsets", "VTKHDF/Steps/CellDataOffsets"};
  for (int i = 0; i < 6; i++) {
    v->g[i] = L->H5Gcreate2(v->file, gnames[i], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (v->g[i] < 0) {
      snprintf(err, cap, "%s: cannot create group %s", v->tmp, gnames[i]);
      return COSROD_ERR_IO;
    }
  }
  /* Version: two integers [major, minor]; Type: a fixed-length ASCII string */
  hsize_t two = 2;
  const int64_t ver[2] = {2, 0};
  hid_t sp = L->H5Screate_simple(1, &two, NULL), a = -1;
  if (sp >= 0) a = L->H5Acreate2(v->g[0], "Version", L->T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
  int ok = a >= 0 && L->H5Awrite(a, L->T_NATIVE_INT64, ver) >= 0;
  if (a >= 0) L->H5Aclose(a);
  if (sp >= 0) L->H5Sclose(sp);
  cosrod_status st = ok ? out_h5_attr_str(out, v->g[0], "Type", "UnstructuredGrid") : COSROD_ERR_IO;
  static const char *const top[7] = {"NumberOfPoints", "NumberOfCells", "NumberOfConnectivityIds", "Points",
                                     "Connectivity",   "Offsets",       "Types"};
  for (int i = 0; i < 7 && st == COSROD_OK; i++)
    st = out_h5tab_create(out, &v->t[i], v->g[0], top[i], i == T_POINTS ? 3 : 1,
                          i == T_POINTS ? OUT_H5_F64 : i == T_TYPES ? OUT_H5_U8 : OUT_H5_I64, NULL, NULL);
  for (int i = 0; i < PD_COUNT && st == COSROD_OK; i++) {
    if ((i == PD_RADIUS && !out->rod_radius) || ((i == PD_HW || i == PD_IR) && !out->rod_sections)) continue;
    st = out_h5tab_create(out, &v->t[T_PD + i], v->g[1], pd_names[i], pd_ncomp[i], OUT_H5_F64, NULL, NULL);
    if (st == COSROD_OK) st = out_h5tab_create(out, &v->t[T_PDO + i], v->g[4], pd_names[i], 1, OUT_H5_I64, NULL, NULL);
  }
  for (int i = 0; i < CD_COUNT && st == COSROD_OK; i++) {
    st = out_h5tab_create(out, &v->t[T_CD + i], v->g[2], cd_names[i], cd_ncomp[i], OUT_H5_F64, NULL, NULL);
    if (st == COSROD_OK) st = out_h5tab_create(out, &v->t[T_CDO + i], v->g[5], cd_names[i], 1, OUT_H5_I64, NULL, NULL);
  }
  static const char *const steps[6] = {"Values",      "PartOffsets", "NumberOfParts",
                                       "PointOffsets", "CellOffsets", "ConnectivityIdOffsets"};
  for (int i = 0; i < 6 && st == COSROD_OK; i++)
    st = out_h5tab_create(out, &v->t[T_VALUES + i], v->g[3], steps[i], 1, i == 0 ? OUT_H5_F64 : OUT_H5_I64, NULL,
                          NULL);
  if (st != COSROD_OK && !err[0]) snprintf(err, cap, "%s: cannot create the VTKHDF datasets", v->tmp);
  return st;
}

static void *res(cosrod_output *out, int i, size_t k) { return out_h5tab_reserve(out, &out->h5->vtk->t[i], k); }

/* The group of table i (its path in the file). */
static const char *group_of(int i) {
  if (i < T_PD) return "VTKHDF";
  if (i < T_CD) return "VTKHDF/PointData";
  if (i < T_VALUES) return "VTKHDF/CellData";
  if (i < T_PDO) return "VTKHDF/Steps";
  if (i < T_CDO) return "VTKHDF/Steps/PointDataOffsets";
  return "VTKHDF/Steps/CellDataOffsets";
}

const char *out_vtkhdf_path(const cosrod_output *out, int final) {
  const out_vtkhdf *v = out->h5->vtk;
  return final || v->published ? v->fin : v->tmp;
}

void out_vtkhdf_position(const cosrod_output *out, int64_t *rows, int64_t tot[3]) {
  const out_vtkhdf *v = out->h5->vtk;
  for (int i = 0; i < OUT_H5_VTK_MAXTAB; i++)
    rows[i] = i < T_COUNT && v->t[i].ds >= 0 ? (int64_t)(v->t[i].written + v->t[i].ncommit) : -1;
  tot[0] = v->totP, tot[1] = v->totC, tot[2] = v->nsteps;
}

cosrod_status out_vtkhdf_resume(cosrod_output *out, int64_t src, const int64_t *rows, const int64_t tot[3], char *msg,
                                size_t len) {
  out_vtkhdf *v = out->h5->vtk;
  for (int i = 0; i < T_COUNT; i++) {
    if ((rows[i] >= 0) != (v->t[i].ds >= 0)) {
      snprintf(msg, len, "%s: the checkpoint's VTKHDF tables do not fit this run", v->fin);
      return COSROD_ERR_INVALID;
    }
    if (v->t[i].ds < 0) continue;
    char path[96];
    snprintf(path, sizeof path, "%s/%s", group_of(i), v->t[i].name);
    cosrod_status st = out_h5_copy_rows(out, &v->t[i], src, path, (uint64_t)rows[i], msg, len);
    if (st != COSROD_OK) return st;
  }
  v->totP = tot[0], v->totC = tot[1], v->nsteps = tot[2];
  return COSROD_OK;
}

cosrod_status out_vtkhdf_flush(cosrod_output *out) {
  out_vtkhdf *v = out->h5->vtk;
  const out_h5lib *L = LIB(out);
  if (!v->swmr) {
    if (L->H5Fstart_swmr_write(v->file) < 0) return COSROD_ERR_IO;
    v->swmr = 1;
  }
  cosrod_status st = COSROD_OK;
  for (int i = 0; i < T_COUNT && st == COSROD_OK; i++) st = out_h5tab_write(out, &v->t[i]);
  if (st == COSROD_OK && L->H5Fflush(v->file, H5F_SCOPE_GLOBAL) < 0) st = COSROD_ERR_IO;
  return st;
}

/* vtk/cosrod.xdmf2 for the rows written so far (a warning if it fails: the
 * VTKHDF file does not depend on it). */
static void write_xdmf(cosrod_output *out) {
  out_vtkhdf *v = out->h5->vtk;
  out_xdmf_array a[PD_COUNT + CD_COUNT];
  size_t na = 0;
  for (int i = 0; i < PD_COUNT + CD_COUNT; i++) {
    const out_h5tab *t = &v->t[T_PD + i];
    if (t->ds < 0) continue;
    a[na++] = (out_xdmf_array){.name = t->name, .cell = i >= PD_COUNT, .ncomp = t->ncols, .rows = t->written};
  }
  const out_xdmf_in in = {.tmp = v->xtmp,
                          .fin = v->xfin,
                          .steps = {v->t[T_VALUES].ds, v->t[T_NPTS].ds, v->t[T_NCELLS].ds, v->t[T_PTOFF].ds,
                                    v->t[T_CELLOFF].ds, v->t[T_CONNOFF].ds},
                          .nsteps = v->t[T_VALUES].written,
                          .npoints = v->t[T_POINTS].written,
                          .nconn = v->t[T_CONN].written,
                          .from = v->xsteps,
                          .arrays = a,
                          .narrays = na};
  if (out_xdmf_write(out, &in, &v->xtail) == COSROD_OK) {
    v->xsteps = in.nsteps;
  } else {
    v->xsteps = 0, v->xtail = 0; /* written whole at the next checkpoint */
    out_warn(out, "%s: write failed", v->xfin);
  }
}

cosrod_status out_vtkhdf_publish(cosrod_output *out) {
  out_vtkhdf *v = out->h5->vtk;
  if (!v->published) {
    if (rename(v->tmp, v->fin) != 0) return out_fail(out, COSROD_ERR_IO, "%s: cannot rename to %s", v->tmp, v->fin);
    v->published = 1;
  }
  write_xdmf(out); /* after every checkpoint's flush: the steps the file on disk holds */
  return COSROD_OK;
}

cosrod_status out_vtkhdf_rod(cosrod_output *out, size_t rod, const cosrod_output_rod_frame *fr) {
  out_vtkhdf *v = out->h5->vtk;
  const size_t N = fr->n;
  if (v->P == 0 && v->C == 0) { /* first rod of the step: the leading offset */
    int64_t *o = res(out, T_OFFS, 1);
    if (!o) return COSROD_ERR_IO;
    o[0] = 0;
  }
  double *x = res(out, T_POINTS, N + 1), *s = res(out, T_PD + PD_S, N + 1), *K = res(out, T_PD + PD_K, N + 1),
         *M = res(out, T_PD + PD_M, N + 1), *r = out->rod_radius ? res(out, T_PD + PD_RADIUS, N + 1) : NULL;
  double *cs = res(out, T_CD + CD_S, N), *G = res(out, T_CD + CD_GAMMA, N), *F = res(out, T_CD + CD_F, N),
         *q = res(out, T_CD + CD_Q, N);
  int64_t *conn = res(out, T_CONN, 2 * N), *offs = res(out, T_OFFS, N);
  unsigned char *ty = res(out, T_TYPES, N);
  const cosrod_output_section *sec = out->rod_sections ? out->rod_sections + rod : NULL;
  double *hw = sec ? res(out, T_PD + PD_HW, N + 1) : NULL, *ir = sec ? res(out, T_PD + PD_IR, N + 1) : NULL;
  if (!x || !s || !K || !M || (out->rod_radius && !r) || (sec && (!hw || !ir)) || !cs || !G || !F || !q || !conn ||
      !offs || !ty)
    return COSROD_ERR_IO;
  for (size_t i = 0; sec && i <= N; i++) {
    hw[2 * i] = sec->half_width[0];
    hw[2 * i + 1] = sec->half_width[1];
    ir[i] = sec->inner_radius;
  }
  memcpy(x, fr->x, 3 * (N + 1) * sizeof *x);
  memcpy(s, fr->s_vertices, (N + 1) * sizeof *s);
  memcpy(K, fr->K, 3 * (N + 1) * sizeof *K);
  memcpy(M, fr->M, 3 * (N + 1) * sizeof *M);
  for (size_t i = 0; r && i <= N; i++) r[i] = out->rod_radius[rod];
  memcpy(cs, fr->s_segments, N * sizeof *cs);
  memcpy(G, fr->gamma, 3 * N * sizeof *G);
  memcpy(F, fr->F, 3 * N * sizeof *F);
  memcpy(q, fr->p, 4 * N * sizeof *q);
  for (size_t i = 0; i < N; i++) {
    conn[2 * i] = v->P + (int64_t)i;
    conn[2 * i + 1] = v->P + (int64_t)i + 1;
    offs[i] = 2 * (v->C + (int64_t)i + 1);
    ty[i] = 3; /* VTK_LINE */
  }
  v->P += (int64_t)N + 1;
  v->C += (int64_t)N;
  return COSROD_OK;
}

cosrod_status out_vtkhdf_frame_end(cosrod_output *out) {
  out_vtkhdf *v = out->h5->vtk;
  if (v->P == 0) return COSROD_OK; /* no rods */
  const int64_t per_step[] = {v->P, v->C, 2 * v->C};
  for (int i = 0; i < 3; i++) {
    int64_t *p = res(out, T_NPTS + i, 1);
    if (!p) return COSROD_ERR_IO;
    *p = per_step[i];
  }
  double *tv = res(out, T_VALUES, 1);
  if (!tv) return COSROD_ERR_IO;
  *tv = out->t_frame;
  const int64_t offs[5] = {v->nsteps, 1, v->totP, v->totC, 2 * v->totC};
  for (int i = 0; i < 5; i++) {
    int64_t *p = res(out, T_PARTOFF + i, 1);
    if (!p) return COSROD_ERR_IO;
    *p = offs[i];
  }
  for (int i = 0; i < PD_COUNT + CD_COUNT; i++) {
    if (v->t[T_PDO + i].ds < 0) continue;
    int64_t *p = res(out, T_PDO + i, 1);
    if (!p) return COSROD_ERR_IO;
    *p = i < PD_COUNT ? v->totP : v->totC;
  }
  v->totP += v->P;
  v->totC += v->C;
  v->nsteps++;
  v->P = v->C = 0;
  for (int i = 0; i < T_COUNT; i++) v->t[i].ncommit = v->t[i].n;
  return COSROD_OK;
}

void out_vtkhdf_rollback(cosrod_output *out) {
  out_vtkhdf *v = out->h5->vtk;
  for (int i = 0; i < T_COUNT; i++) v->t[i].n = v->t[i].ncommit;
  v->P = v->C = 0;
}

cosrod_status out_vtkhdf_close(cosrod_output *out) {
  out_vtkhdf *v = out->h5->vtk;
  const out_h5lib *L = LIB(out);
  out_vtkhdf_rollback(out);
  cosrod_status st = COSROD_OK;
  for (int i = 0; i < T_COUNT && st == COSROD_OK; i++) st = out_h5tab_write(out, &v->t[i]);
  if (st == COSROD_OK) write_xdmf(out);
  /* SWMR writers cannot add attributes: after SWMR the file is closed and reopened for it */
  const int reopen = v->swmr;
  hid_t f = -1, g = v->g[3];
  if (reopen) {
    for (int i = 0; i < T_COUNT; i++) out_h5tab_free(out, &v->t[i]);
    for (int i = 5; i >= 0; i--)
      if (v->g[i] >= 0) L->H5Gclose(v->g[i]), v->g[i] = -1;
    if (v->file >= 0 && L->H5Fclose(v->file) < 0) st = COSROD_ERR_IO;
    v->file = -1;
    f = L->H5Fopen(out_vtkhdf_path(out, 0), OUT_H5F_ACC_RDWR, H5P_DEFAULT);
    g = f >= 0 ? L->H5Gopen2(f, "VTKHDF/Steps", H5P_DEFAULT) : -1;
  }
  hid_t sp = L->H5Screate(H5S_SCALAR), a = -1;
  if (sp >= 0 && g >= 0) a = L->H5Acreate2(g, "NumberOfSteps", L->T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (st == COSROD_OK && !(a >= 0 && L->H5Awrite(a, L->T_NATIVE_INT64, &v->nsteps) >= 0)) st = COSROD_ERR_IO;
  if (a >= 0) L->H5Aclose(a);
  if (sp >= 0) L->H5Sclose(sp);
  if (reopen && g >= 0) L->H5Gclose(g);
  if (reopen && f >= 0 && L->H5Fclose(f) < 0) st = COSROD_ERR_IO;
  out->h5->vtk_steps = (long)v->nsteps;
  out_vtkhdf_free(out, st == COSROD_OK);
  if (st != COSROD_OK) out_warn(out, "vtk/cosrod.vtkhdf: write failed");
  return st;
}

void out_vtkhdf_free(cosrod_output *out, int keep) {
  out_vtkhdf *v = out->h5->vtk;
  if (!v) return;
  const out_h5lib *L = LIB(out);
  for (int i = 0; i < T_COUNT; i++) out_h5tab_free(out, &v->t[i]);
  for (int i = 5; i >= 0; i--)
    if (v->g[i] >= 0) L->H5Gclose(v->g[i]);
  int ok = v->file < 0 || L->H5Fclose(v->file) >= 0;
  if (v->tmp && !v->published) {
    if (keep && ok && v->fin) {
      if (rename(v->tmp, v->fin) != 0) remove(v->tmp);
    } else {
      remove(v->tmp);
    }
  }
  free(v->tmp);
  free(v->fin);
  free(v->xtmp);
  free(v->xfin);
  free(v);
  out->h5->vtk = NULL;
}
