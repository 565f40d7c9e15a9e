// SPDX-License-Identifier: Apache-2.0
/* vtk/cosrod.xdmf2: an XDMF 2 index of vtk/cosrod.vtkhdf, so that ParaView
 * 5.10/5.11 (VTK 9.1/9.2, whose VTKHDF reader knows neither format 2.0 nor
 * time steps) opens the rods with their time series.  Written after the
 * published XDMF model and format (xdmf.org, "XDMF Model and Format"):
 *
 *   Domain / Grid (Collection, Temporal) / one Uniform Grid per output time:
 *     Time Value = Steps/Values[i]
 *     Topology Polyline, NodesPerElement 2: Connectivity[ConnectivityIdOffsets[i] ...]
 *     Geometry XYZ:                         Points[PointOffsets[i] ...]
 *     Attributes (Center Node / Cell):      PointData/<a>, CellData/<a> rows of step i
 *
 * every array a HyperSlab (start, stride, count per dimension) of the VTKHDF
 * file's dataset, whose dimensions are given as its rows when the index is
 * written; a later (killed) writer may have appended rows after them, which
 * the hyperslabs do not reach.  The index only points into the VTKHDF file:
 * no data is copied.  It is written whole (temporary file, then rename) when
 * the VTKHDF file is first published; at each later checkpoint and at close
 * the new steps' grids are appended over the closing tags (one write of the
 * grids plus the tags), so that the cost is linear in the steps and the index
 * never names a step the file on disk does not hold.
 *
 * Xdmf2 only: ParaView 5.11's Xdmf3 readers (the default for .xdmf / .xmf)
 * read no HyperSlab item (empty grid); the extension .xdmf2 is claimed by
 * the Xdmf2 reader alone, so that ParaView opens the file without asking. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_h5lib.h"
#include "output_hdf5.h"
#include "output_internal.h"

#define LIB(out) ((const out_h5lib *)(out)->h5->lib)
enum { BLOCK = 128 }; /* steps read from the file at a time (6 kB on the stack) */

/* rows [r0, r0 + k) of the 1-D dataset ds into buf (memory type mt) */
static int read_rows(const out_h5lib *L, int64_t ds, hid_t mt, hsize_t r0, hsize_t k, void *buf) {
  hid_t fs = L->H5Dget_space((hid_t)ds), ms = L->H5Screate_simple(1, &k, NULL);
  int ok = fs >= 0 && ms >= 0 && L->H5Sselect_hyperslab(fs, H5S_SELECT_SET, &r0, NULL, &k, NULL) >= 0 &&
           L->H5Dread((hid_t)ds, mt, ms, fs, H5P_DEFAULT, buf) >= 0;
  if (ms >= 0) L->H5Sclose(ms);
  if (fs >= 0) L->H5Sclose(fs);
  return ok;
}

/* A HyperSlab DataItem: rows [start, start + count) of the dataset path
 * (total rows, ncomp components per row) in cosrod.vtkhdf. */
static void hyperslab(FILE *f, int64_t start, int64_t count, size_t ncomp, uint64_t total, const char *path,
                      int integer) {
  const char *nt = integer ? "Int" : "Float";
  if (ncomp == 1)
    fprintf(f,
            "<DataItem ItemType=\"HyperSlab\" Dimensions=\"%lld\" NumberType=\"%s\" Precision=\"8\">"
            "<DataItem Dimensions=\"3 1\" Format=\"XML\">%lld 1 %lld</DataItem>"
            "<DataItem Dimensions=\"%llu\" NumberType=\"%s\" Precision=\"8\" "
            "Format=\"HDF\">cosrod.vtkhdf:%s</DataItem>"
            "</DataItem>",
            (long long)count, nt, (long long)start, (long long)count, (unsigned long long)total, nt, path);
  else
    fprintf(
        f,
        "<DataItem ItemType=\"HyperSlab\" Dimensions=\"%lld %zu\" NumberType=\"%s\" Precision=\"8\">"
        "<DataItem Dimensions=\"3 2\" Format=\"XML\">%lld 0 1 1 %lld %zu</DataItem>"
        "<DataItem Dimensions=\"%llu %zu\" NumberType=\"%s\" Precision=\"8\" Format=\"HDF\">cosrod.vtkhdf:%s"
        "</DataItem></DataItem>",
        (long long)count, ncomp, nt, (long long)start, (long long)count, ncomp, (unsigned long long)total,
        ncomp, nt, path);
}

/* One Uniform grid: step i at time t with n = (points, cells) from the
 * offsets off = (point, cell, connectivity id) of the step. */
static void grid(FILE *f, const out_xdmf_in *in, uint64_t i, double t, const int64_t n[2],
                 const int64_t off[3]) {
  fprintf(f, "<Grid Name=\"step%llu\" GridType=\"Uniform\"><Time Value=\"%.17g\"/>\n", (unsigned long long)i,
          t);
  fprintf(f, "<Topology TopologyType=\"Polyline\" NumberOfElements=\"%lld\" NodesPerElement=\"2\">",
          (long long)n[1]);
  hyperslab(f, off[2], 2 * n[1], 1, in->nconn, "/VTKHDF/Connectivity", 1);
  fputs("</Topology>\n<Geometry GeometryType=\"XYZ\">", f);
  hyperslab(f, off[0], n[0], 3, in->npoints, "/VTKHDF/Points", 0);
  fputs("</Geometry>\n", f);
  for (size_t k = 0; k < in->narrays; k++) {
    const out_xdmf_array *a = &in->arrays[k];
    const char *type = a->ncomp == 1 ? "Scalar" : a->ncomp == 3 ? "Vector" : "Matrix";
    char path[96];
    snprintf(path, sizeof path, "/VTKHDF/%s/%s", a->cell ? "CellData" : "PointData", a->name);
    fprintf(f, "<Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"%s\">", a->name, type,
            a->cell ? "Cell" : "Node");
    hyperslab(f, off[a->cell ? 1 : 0], n[a->cell ? 1 : 0], a->ncomp, a->rows, path, 0);
    fputs("</Attribute>\n", f);
  }
  fputs("</Grid>\n", f);
}

/* Grids of steps [r0, r1) read from the Steps tables, then the closing tags. */
static int grids(FILE *f, const out_h5lib *L, const out_xdmf_in *in, uint64_t r0, uint64_t r1) {
  double t[BLOCK];
  int64_t v[5][BLOCK]; /* NumberOfPoints, NumberOfCells, PointOffsets, CellOffsets, ConnectivityIdOffsets */
  int ok = 1;
  for (; r0 < r1 && ok; r0 += BLOCK) {
    const hsize_t k = r1 - r0 < BLOCK ? r1 - r0 : BLOCK;
    ok = read_rows(L, in->steps[0], L->T_NATIVE_DOUBLE, r0, k, t);
    for (int j = 0; j < 5 && ok; j++) ok = read_rows(L, in->steps[j + 1], L->T_NATIVE_INT64, r0, k, v[j]);
    for (hsize_t i = 0; i < k && ok; i++) {
      const int64_t n[2] = {v[0][i], v[1][i]}, off[3] = {v[2][i], v[3][i], v[4][i]};
      grid(f, in, r0 + i, t[i], n, off);
    }
  }
  return ok;
}

static const char CLOSE[] = "</Grid>\n</Domain></Xdmf>\n";

/* The whole index: written to tmp, renamed to fin. */
static cosrod_status write_all(const out_h5lib *L, const out_xdmf_in *in, int64_t *tail) {
  FILE *f = fopen(in->tmp, "w");
  if (!f) return COSROD_ERR_IO;
  fputs(
      "<?xml version=\"1.0\" ?>\n<!-- the rods of vtk/cosrod.vtkhdf for ParaView 5.10/5.11 (Xdmf2 reader);"
      " ParaView >= 5.12 opens cosrod.vtkhdf itself -->\n<Xdmf Version=\"2.0\"><Domain>\n"
      "<Grid Name=\"rods\" GridType=\"Collection\" CollectionType=\"Temporal\">\n",
      f);
  int ok = grids(f, L, in, 0, in->nsteps);
  *tail = (int64_t)ftell(f);
  fputs(CLOSE, f);
  ok = !ferror(f) && ok && *tail > 0;
  if (fclose(f) != 0) ok = 0;
  if (!ok || rename(in->tmp, in->fin) != 0) {
    remove(in->tmp);
    return COSROD_ERR_IO;
  }
  return COSROD_OK;
}

/* Steps [from, nsteps) appended: their grids and the closing tags, formatted
 * in memory, written with one pwrite over the old closing tags at *tail (the
 * file stays a complete document before and after it; the new text is
 * longer than the tags it replaces). */
static cosrod_status append(const out_h5lib *L, const out_xdmf_in *in, int64_t *tail) {
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) return COSROD_ERR_NOMEM;
  int ok = grids(m, L, in, in->from, in->nsteps);
  const size_t body = (size_t)ftell(m);
  fputs(CLOSE, m);
  ok = !ferror(m) && ok;
  if (fclose(m) != 0) ok = 0;
  int fd = ok ? open(in->fin, O_WRONLY) : -1;
  size_t done = 0;
  while (fd >= 0 && done < len) {
    const ssize_t w = pwrite(fd, buf + done, len - done, (off_t)(*tail + (int64_t)done));
    if (w <= 0) break;
    done += (size_t)w;
  }
  ok = fd >= 0 && done == len;
  if (fd >= 0 && close(fd) != 0) ok = 0;
  free(buf);
  if (!ok) return COSROD_ERR_IO;
  *tail += (int64_t)body;
  return COSROD_OK;
}

cosrod_status out_xdmf_write(cosrod_output *out, const out_xdmf_in *in, int64_t *tail) {
  const out_h5lib *L = LIB(out);
  if (in->from == 0 || *tail <= 0) return write_all(L, in, tail);
  return in->nsteps > in->from ? append(L, in, tail) : COSROD_OK;
}
