// SPDX-License-Identifier: Apache-2.0
/* HDF5 output (output.format: hdf5; [manual: command line, output
 * reference]): DIR/run.h5 holds every table of the CSV path as a chunked,
 * extendible 2-D dataset of doubles (rows x columns, the CSV columns in the
 * same order, attributes "columns" and "units"), and vtk/cosrod.vtkhdf the
 * rods as a VTKHDF UnstructuredGrid time series for ParaView.  Rows are
 * appended to preallocated buffers in the time loop and written to the file
 * when a buffer is full, at checkpoints and at close (no allocation after
 * the first output time).  Only compiled with COSROD_HAVE_HDF5. */
#ifndef COSROD_OUTPUT_HDF5_H
#define COSROD_OUTPUT_HDF5_H
#include <stddef.h>
#include <stdint.h>

#include "cosrod/output.h"

struct cosrod_output;

/* One appendable dataset and its row buffer. */
typedef struct out_h5tab {
  char name[32];      /* dataset name (summary.json "files") */
  int64_t ds;         /* dataset id (hid_t), < 0: not created */
  size_t ncols;       /* columns per row (1: a 1-D dataset if rank1) */
  size_t esize;       /* bytes per element: 8 (double, int64) or 1 (uint8) */
  int64_t mtype;      /* memory type id */
  int rank1;          /* 1-D dataset */
  unsigned char *buf; /* cap rows */
  size_t cap, n, ncommit; /* rows: capacity, held, committed (a frame ended) */
  uint64_t written;       /* rows in the dataset */
} out_h5tab;

#define OUT_H5_NTAB 16 /* >= OF_PVD */
/* Table ids beyond the CSV streams (OF_*): joints / contacts / user tables. */
#define OUT_H5_MAX_EXTRA 8

typedef struct out_vtkhdf out_vtkhdf;

typedef struct out_h5 {
  const void *lib;      /* const out_h5lib * */
  int64_t file;         /* run.h5 */
  int swmr;             /* SWMR writing started (after the first flush) */
  char *path;           /* the file's current name: DIR/run.h5, or DIR/.run.h5.tmp until a resumed
                           output is published (output_hdf5_resume.c) */
  char *fin;            /* DIR/run.h5 */
  int64_t src;          /* resumed: the killed run's run.h5 (read), until published; else -1 */
  int64_t src_vtk;      /* resumed with vtk: its vtk/cosrod.vtkhdf (read), until published; else -1 */
  uint64_t src_extra[OUT_H5_MAX_EXTRA]; /* resumed: rows of the extra tables at the checkpoint */
  out_h5tab t[OUT_H5_NTAB]; /* by OF_* index (OF_PVD unused) */
  out_h5tab extra[OUT_H5_MAX_EXTRA];
  size_t nextra;
  out_vtkhdf *vtk;      /* vtk/cosrod.vtkhdf or NULL */
  int failed;           /* an HDF5 call failed: no more writes */
  long vtk_steps;       /* steps in vtk/cosrod.vtkhdf once closed */
} out_h5;

/* output_hdf5.c: open run.h5 (and the VTKHDF file when vtk is on) and create
 * the datasets of the enabled tables; OK or an error message in err. */
cosrod_status out_h5_open(struct cosrod_output *out, const cosrod_output_config *cfg, char *err, size_t cap);
/* Reserve k rows of table i (an OF_* index), returns their storage or NULL. */
double *out_h5_rows(struct cosrod_output *out, int i, size_t k);
/* Table rows of a frame: commit (frame_end) or discard (failed frame). */
void out_h5_commit(struct cosrod_output *out);
void out_h5_rollback(struct cosrod_output *out);
/* Write the committed rows and flush the file (checkpoints); SWMR from the
 * first flush on, so a killed run leaves a readable file. */
cosrod_status out_h5_flush(struct cosrod_output *out);
/* Write the rows, close both files (vtkhdf renamed into place). */
cosrod_status out_h5_close(struct cosrod_output *out);
/* The summary's text (json_path: written, not yet renamed into place) as
 * run.h5's attribute "summary". */
cosrod_status out_h5_attach_summary(struct cosrod_output *out, const char *json_path);
/* Release without closing properly (abandoned run). */
void out_h5_free(struct cosrod_output *out);
/* Reserve k rows in table t (committed rows written when full). */
void *out_h5tab_reserve(struct cosrod_output *out, out_h5tab *t, size_t k);
/* Create an appendable dataset at loc (a file or group id). */
cosrod_status out_h5tab_create(struct cosrod_output *out, out_h5tab *t, int64_t loc, const char *name,
                               size_t ncols, int esize_type, const char *columns, const char *units);
/* Write t's committed rows (extend the dataset). */
cosrod_status out_h5tab_write(struct cosrod_output *out, out_h5tab *t);
void out_h5tab_free(struct cosrod_output *out, out_h5tab *t);
/* String attribute on an object. */
cosrod_status out_h5_attr_str(struct cosrod_output *out, int64_t obj, const char *name, const char *value);

/* output_hdf5_rows.c: the writers' rows (CSV columns, same order). */
cosrod_status out_h5_rod(struct cosrod_output *out, size_t rod, const cosrod_output_rod_frame *fr);
cosrod_status out_h5_body(struct cosrod_output *out, size_t body, const double x[3], const double q[4],
                          const double Om[3], const double v[3], double kinetic, double potential);
cosrod_status out_h5_energy(struct cosrod_output *out, const double v[6]);
cosrod_status out_h5_reaction(struct cosrod_output *out, size_t rod, int end, const double F[3], const double M[3]);
/* a row of table tab (steps, increments, modes) committed at once */
cosrod_status out_h5_committed_row(struct cosrod_output *out, int tab, const double *v, size_t n);

/* output_vtkhdf.c */
cosrod_status out_vtkhdf_open(struct cosrod_output *out, char *err, size_t cap);
cosrod_status out_vtkhdf_rod(struct cosrod_output *out, size_t rod, const cosrod_output_rod_frame *fr);
cosrod_status out_vtkhdf_frame_end(struct cosrod_output *out);
void out_vtkhdf_rollback(struct cosrod_output *out);
cosrod_status out_vtkhdf_close(struct cosrod_output *out);
void out_vtkhdf_free(struct cosrod_output *out, int keep);

/* output_hdf5_resume.c: positions and resumed outputs.  The checkpoint's
 * row counts of every table (OF_* tables, extras, the VTKHDF tables with its
 * point / cell / step totals). */
#define OUT_H5_VTK_MAXTAB 40
typedef struct out_h5_pos {
  int64_t rows[OUT_H5_NTAB], extra[OUT_H5_MAX_EXTRA], nextra;
  int64_t vtk, vtkrows[OUT_H5_VTK_MAXTAB], vtktot[3];
} out_h5_pos;
void out_h5_position(const struct cosrod_output *out, out_h5_pos *p);
/* Resume: open the killed run's files and copy their rows up to the
 * position into the new files (the extras when the caller adds them). */
cosrod_status out_h5_resume(struct cosrod_output *out, const out_h5_pos *p, char *msg, size_t len);
cosrod_status out_h5_resume_extra(struct cosrod_output *out, size_t k);
/* Copy rows [0, rows) of dataset `path` of file src into t (committed). */
cosrod_status out_h5_copy_rows(struct cosrod_output *out, out_h5tab *t, int64_t src, const char *path,
                               uint64_t rows, char *msg, size_t len);
/* After a flush: the new files replace the killed run's (rename), the sources are closed. */
cosrod_status out_h5_publish(struct cosrod_output *out);
/* output_vtkhdf.c: rows and totals for the position; resumed copy; flush. */
void out_vtkhdf_position(const struct cosrod_output *out, int64_t *rows, int64_t tot[3]);
cosrod_status out_vtkhdf_resume(struct cosrod_output *out, int64_t src, const int64_t *rows, const int64_t tot[3],
                                char *msg, size_t len);
cosrod_status out_vtkhdf_flush(struct cosrod_output *out);
/* vtk/cosrod.vtkhdf's current and final names. */
const char *out_vtkhdf_path(const struct cosrod_output *out, int final);
cosrod_status out_vtkhdf_publish(struct cosrod_output *out);

/* output_xdmf.c: vtk/cosrod.xdmf2, an XDMF 2 index of the VTKHDF file's
 * steps for ParaView < 5.12: written whole to tmp and renamed to fin when
 * from == 0 (or *tail <= 0), else steps [from, nsteps) appended over the
 * closing tags at byte *tail; *tail is then where the closing tags start. */
typedef struct out_xdmf_array {
  const char *name; /* dataset in PointData (cell = 0) or CellData (cell = 1) */
  int cell;
  size_t ncomp;  /* components per row */
  uint64_t rows; /* rows in the dataset */
} out_xdmf_array;
typedef struct out_xdmf_in {
  const char *tmp, *fin;
  int64_t steps[6]; /* datasets: Steps/Values, NumberOfPoints, NumberOfCells, Steps/PointOffsets,
                       Steps/CellOffsets, Steps/ConnectivityIdOffsets */
  uint64_t nsteps, npoints, nconn; /* rows of Steps/Values, Points, Connectivity */
  uint64_t from;                   /* steps the index on disk already names */
  const out_xdmf_array *arrays;
  size_t narrays;
} out_xdmf_in;
cosrod_status out_xdmf_write(struct cosrod_output *out, const out_xdmf_in *in, int64_t *tail);

/* element kinds of out_h5tab_create */
enum { OUT_H5_F64 = 0, OUT_H5_I64 = 1, OUT_H5_U8 = 2 };

#endif
