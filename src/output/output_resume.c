// SPDX-License-Identifier: Apache-2.0
/* Output module: resuming a run (cosrod_output_position, the `resume` of
 * cosrod_output_config; output.h).  The position is what a checkpoint
 * published: the data rows of every stream, the frame count (the next VTK
 * frame index), the last output time and the summaries kept over the frames
 * (energy balance, non-finite values, the centerline plot's frame times,
 * tips).  A resumed output starts every stream from its final-named file
 * cut to the position's rows (the header lines plus that many rows; a later
 * checkpoint, or the close of the killed run, may have published more), so
 * the continued files hold neither duplicate nor missing rows.  HDF5 output:
 * the position also holds every table's row count, and the tables are
 * copied into new files (output_hdf5_resume.c). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "output_internal.h"

#define POS_MAGIC 0x43525053u /* "SPRC" */
#define POS_VERSION 2u

typedef struct out_position {
  uint32_t magic, version, nstreams, pad;
  uint64_t nrods, nbodies, nframes, nsnap, snap_stride;
  int64_t rows[OF_COUNT];
  int64_t on[OF_COUNT];
  int64_t nenergy, nonfinite;
  double t_last, bal0, bal_last, bal_maxdev, bal_scale, t_nonfinite;
  double snap_t[OUT_SNAP_CAP];
  out_h5_pos h5; /* HDF5 output: the tables' rows */
} out_position;

static size_t pos_size(size_t nrods, size_t nbodies) {
  return sizeof(out_position) + (3 * nrods + 3 * nbodies) * sizeof(double) + nrods;
}

size_t cosrod_output_position(const cosrod_output *out, void *buf, size_t cap) {
  if (!out) return 0;
  size_t need = pos_size(out->nrods, out->nbodies);
  if (!buf || cap < need) return need;
  out_position p;
  memset(&p, 0, sizeof p);
  p.magic = POS_MAGIC;
  p.version = POS_VERSION;
  p.nstreams = OF_COUNT;
  p.nrods = out->nrods;
  p.nbodies = out->nbodies;
  p.nframes = out->nframes;
  p.nsnap = out->nsnap;
  p.snap_stride = out->snap_stride;
  for (int i = 0; i < OF_COUNT; ++i) {
    p.on[i] = out->f[i].fp != NULL;
    p.rows[i] = out->f[i].rows_committed;
  }
  if (out->h5) out_h5_position(out, &p.h5);
  p.nenergy = out->nenergy;
  p.nonfinite = out->nonfinite;
  p.t_last = out->t_last;
  p.bal0 = out->bal0;
  p.bal_last = out->bal_last;
  p.bal_maxdev = out->bal_maxdev;
  p.bal_scale = out->bal_scale;
  p.t_nonfinite = out->t_nonfinite;
  memcpy(p.snap_t, out->snap_t, sizeof p.snap_t);
  unsigned char *b = buf;
  memcpy(b, &p, sizeof p);
  b += sizeof p;
  memcpy(b, out->tips, 3 * out->nrods * sizeof(double));
  b += 3 * out->nrods * sizeof(double);
  memcpy(b, out->body_x, 3 * out->nbodies * sizeof(double));
  b += 3 * out->nbodies * sizeof(double);
  memcpy(b, out->react_ends, out->nrods);
  return need;
}

/* Lines of text s. */
static long count_lines(const char *s) {
  long n = 0;
  for (; *s; ++s) n += *s == '\n';
  return n;
}

/* Stream f from its final name: `head` header lines and `rows` data lines
 * copied into a new temporary file, left open for appending. */
static cosrod_status resume_stream(out_file *f, long head, long rows, char *msg, size_t len) {
  FILE *src = fopen(f->final_path, "rb");
  if (!src) {
    snprintf(msg, len, "%s: cannot read (%s)", f->final_path, strerror(errno));
    return COSROD_ERR_IO;
  }
  f->fp = fopen(f->tmp_path, "w");
  if (!f->fp) {
    snprintf(msg, len, "%s: cannot write (%s)", f->tmp_path, strerror(errno));
    fclose(src);
    return COSROD_ERR_IO;
  }
  long want = head + rows, lines = 0, bytes = 0;
  int c;
  while (lines < want && (c = getc(src)) != EOF) {
    if (putc(c, f->fp) == EOF) break;
    bytes++;
    lines += c == '\n';
  }
  fclose(src);
  if (lines < want) {
    snprintf(msg, len, "%s: holds %ld rows, the checkpoint needs %ld (the file was changed)", f->final_path,
             lines > head ? lines - head : 0, rows);
    return COSROD_ERR_IO;
  }
  if (fflush(f->fp) != 0) {
    snprintf(msg, len, "%s: cannot write (%s)", f->tmp_path, strerror(errno));
    return COSROD_ERR_IO;
  }
  f->bytes = f->committed = f->safe = bytes;
  f->rows = f->rows_committed = f->rows_safe = rows;
  return COSROD_OK;
}

cosrod_status out_resume(cosrod_output *out, const cosrod_output_config *cfg, char *msg, size_t len) {
  out_position p;
  if (!cfg->resume || cfg->resume_size != pos_size(out->nrods, out->nbodies)) {
    snprintf(msg, len, "output: the checkpoint's output position does not fit this run");
    return COSROD_ERR_INVALID;
  }
  memcpy(&p, cfg->resume, sizeof p);
  if (p.magic != POS_MAGIC || p.version != POS_VERSION || p.nstreams != OF_COUNT || p.nrods != out->nrods ||
      p.nbodies != out->nbodies || p.nsnap > OUT_SNAP_CAP || p.snap_stride == 0) {
    snprintf(msg, len, "output: the checkpoint's output position does not fit this run");
    return COSROD_ERR_INVALID;
  }
  if (out->h5) {
    cosrod_status st = out_h5_resume(out, &p.h5, msg, len);
    if (st != COSROD_OK) return st;
  }
  for (int i = 0; i < OF_COUNT; ++i) {
    out_file *f = &out->f[i];
    /* HDF5: the tables are in run.h5, the bodies' .vtp series stays a stream */
    int on = i == OF_PVD ? out->vtk && (!out->h5 || out->nbodies > 0) : (out->files & (1u << i)) != 0 && !out->h5;
    if (on != (p.on[i] != 0)) {
      snprintf(msg, len, "output: %s: the checkpoint's run %s it", f->name, on ? "did not write" : "wrote");
      return COSROD_ERR_INVALID;
    }
    if (!on) continue;
    cosrod_status st = resume_stream(f, count_lines(out_table_header(out, i)), (long)p.rows[i], msg, len);
    if (st != COSROD_OK) return st;
  }
  out->nframes = (size_t)p.nframes;
  out->nsnap = (size_t)p.nsnap;
  out->snap_stride = (size_t)p.snap_stride;
  memcpy(out->snap_t, p.snap_t, sizeof p.snap_t);
  out->nenergy = (long)p.nenergy;
  out->nonfinite = (long)p.nonfinite;
  out->t_last = p.t_last;
  out->bal0 = p.bal0;
  out->bal_last = p.bal_last;
  out->bal_maxdev = p.bal_maxdev;
  out->bal_scale = p.bal_scale;
  out->t_nonfinite = p.t_nonfinite;
  const unsigned char *b = (const unsigned char *)cfg->resume + sizeof p;
  memcpy(out->tips, b, 3 * out->nrods * sizeof(double));
  b += 3 * out->nrods * sizeof(double);
  memcpy(out->body_x, b, 3 * out->nbodies * sizeof(double));
  b += 3 * out->nbodies * sizeof(double);
  memcpy(out->react_ends, b, out->nrods);
  return COSROD_OK;
}
