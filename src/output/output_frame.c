// SPDX-License-Identifier: Apache-2.0
/* Output module: output-time frames (begin/end, commit of all streams
 * together, the frame's .vtp files), checkpoints and the close that
 * publishes every file (protocol in output.c).  Split from output.c;
 * declarations in output_internal.h. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "output_internal.h"

/* ---- frames --------------------------------------------------------------- */

cosrod_status cosrod_output_frame_begin(cosrod_output *out, double t) {
  if (!out || out->closed) return COSROD_ERR_INVALID;
  if (out->in_frame)
    return out_fail(out, COSROD_ERR_INVALID, "output: frame at t = %g not finished", out->t_frame);
  if (!isfinite(t) || !(t > out->t_last))
    return out_fail(out, COSROD_ERR_INVALID, "output: output time %g does not follow %g", t, out->t_last);
  out->in_frame = 1;
  out->t_frame = t;
  memset(out->rod_done, 0, out->nrods);
  memset(out->body_done, 0, out->nbodies);
  out->energy_done = 0;
  out->nonfinite_frame = 0;
  return COSROD_OK;
}

static int is_frame_stream(int i) { return i != OF_STEPS && i != OF_INCREMENTS && i != OF_MODES; }

static void discard_frame(cosrod_output *out) {
  for (int i = 0; i < OF_COUNT; ++i)
    if (is_frame_stream(i)) out_file_rollback(out, &out->f[i]);
  if (out->h5) out_h5_rollback(out);
  if (out->vtk) {
    for (size_t k = 0; k < out->nrods; ++k)
      if (out->rod_done[k]) {
        out_vtk_path(out, out->path_a, k, out->nframes, 1);
        remove(out->path_a);
      }
  }
  out->in_frame = 0;
}

/* Publish the pending .vtp files of the frame and list them in the .pvd. */
static cosrod_status publish_vtk_frame(cosrod_output *out) {
  out_file *pvd = &out->f[OF_PVD];
  cosrod_status st = COSROD_OK;
  char tnum[32], base[64];
  out_fmt(tnum, out->t_frame);
  for (size_t k = 0; k <= out->nrods; ++k) {
    int bodies = k == out->nrods;
    if (bodies && out->nbodies == 0) break;
    if (!bodies && out->h5) continue; /* HDF5: the rods are in vtk/cosrod.vtkhdf */
    size_t id = bodies ? (size_t)-1 : k;
    out_vtk_path(out, out->path_a, id, out->nframes, 1);
    out_vtk_path(out, out->path_b, id, out->nframes, 0);
    if (out->vtk_error) {
      remove(out->path_a);
      continue;
    }
    if (rename(out->path_a, out->path_b) != 0) {
      out_warn(out, "%s: cannot rename (%s)", out->path_b, strerror(errno));
      st = out_fail(out, COSROD_ERR_IO, "%s: cannot rename (%s)", out->path_b, strerror(errno));
      remove(out->path_a);
      continue;
    }
    if (!out_file_enabled(pvd)) continue;
    out_vtk_base(base, sizeof base, id, out->nframes);
    /* <DataSet timestep="t" part="k" name="..." file="rod0_000003.vtp"/> */
    if (fprintf(pvd->fp, "    <DataSet timestep=\"%s\" group=\"\" part=\"%zu\" name=\"", tnum, k) < 0)
      return out_file_io_error(out, pvd, errno);
    out_xml_escaped(pvd->fp, bodies ? "bodies" : out->rod_names[k]);
    if (fprintf(pvd->fp, "\" file=\"%s\"/>\n", base) < 0) return out_file_io_error(out, pvd, errno);
    pvd->rows++;
    pvd->bytes = ftell(pvd->fp); /* the .pvd is small: ftell is fine here */
  }
  return st;
}

cosrod_status cosrod_output_frame_end(cosrod_output *out) {
  if (!out || out->closed) return COSROD_ERR_INVALID;
  if (!out->in_frame) return out_fail(out, COSROD_ERR_INVALID, "output: frame_end without frame_begin");
  LOCALE_ENTER(out);
  for (size_t k = 0; k < out->nrods; ++k)
    if (!out->rod_done[k]) {
      discard_frame(out);
      LOCALE_LEAVE();
      return out_fail(out, COSROD_ERR_INVALID, "output: t = %g: rod %zu (%s) not written; frame discarded",
                      out->t_frame, k, out->rod_names[k]);
    }
  for (size_t k = 0; k < out->nbodies; ++k)
    if (!out->body_done[k]) {
      discard_frame(out);
      LOCALE_LEAVE();
      return out_fail(out, COSROD_ERR_INVALID, "output: t = %g: body %zu (%s) not written; frame discarded",
                      out->t_frame, k, out->body_names[k]);
    }
  /* Flush the CSV streams; the output time is committed only if every one
   * took it (otherwise it is discarded everywhere, so the files agree). */
  cosrod_status io = COSROD_OK;
  for (int i = 0; i < OF_PVD; ++i) {
    if (!is_frame_stream(i) || !out->f[i].fp) continue;
    if (out->f[i].error)
      io = COSROD_ERR_IO; /* failed earlier */
    else if (fflush(out->f[i].fp) != 0)
      io = out_file_io_error(out, &out->f[i], errno);
  }
  if (io == COSROD_OK && out->h5 && out->h5->vtk) io = out_vtkhdf_frame_end(out);
  if (io == COSROD_OK && out->h5) out_h5_commit(out);
  if (io != COSROD_OK) {
    char msg[sizeof out->err];
    memcpy(msg, out->err, sizeof msg);
    discard_frame(out);
    memcpy(out->err, msg, sizeof msg);
    LOCALE_LEAVE();
    return io;
  }
  /* VTK: the bodies file, then rename the frame's files and list them in
   * the .pvd (a VTK failure stops VTK output but not the run). */
  cosrod_status st = COSROD_OK;
  if (out->vtk && out->nbodies > 0 && !out->vtk_error) {
    out_vtk_path(out, out->path_a, (size_t)-1, out->nframes, 1);
    cosrod_status s2 = out_vtk_bodies(out, out->path_a, out->t_frame, out->body_x_frame, out->body_q_frame,
                                      out->body_om_frame);
    if (s2 != COSROD_OK) st = s2;
  }
  if (out->vtk) {
    cosrod_status s2 = publish_vtk_frame(out);
    if (s2 != COSROD_OK) st = s2;
  }
  for (int i = 0; i < OF_COUNT; ++i) {
    if (is_frame_stream(i)) out_file_commit(&out->f[i]);
    cosrod_status s2 = out_file_flush(out, &out->f[i]); /* row streams too: marks their rows safe */
    if (s2 != COSROD_OK && out->f[i].fp) st = s2;
  }
  memcpy(out->tips, out->tips_frame, 3 * out->nrods * sizeof *out->tips);
  memcpy(out->body_x, out->body_x_frame, 3 * out->nbodies * sizeof *out->body_x);
  if (out->energy_done) {
    if (out->nenergy == 0) out->bal0 = out->bal_frame;
    out->nenergy++;
    out->bal_last = out->bal_frame;
    double dev = fabs(out->bal_frame - out->bal0);
    if (dev > out->bal_maxdev || isnan(dev)) out->bal_maxdev = dev;
    if (out->scale_frame > out->bal_scale) out->bal_scale = out->scale_frame;
  }
  if (out->nonfinite_frame > 0) {
    if (out->nonfinite == 0) out->t_nonfinite = out->t_frame;
    out->nonfinite += out->nonfinite_frame;
  }
  out->t_last = out->t_frame;
  if (out->nframes % out->snap_stride == 0) {
    if (out->nsnap == OUT_SNAP_CAP) { /* keep every other one, double the stride */
      for (size_t i = 0; 2 * i < OUT_SNAP_CAP; ++i) out->snap_t[i] = out->snap_t[2 * i];
      out->nsnap = OUT_SNAP_CAP / 2;
      out->snap_stride *= 2;
    }
    if (out->nframes % out->snap_stride == 0) out->snap_t[out->nsnap++] = out->t_frame;
  }
  out->nframes++;
  out->in_frame = 0;
  if (out->checkpoint_every > 0 && out_elapsed(&out->t_ckpt) >= out->checkpoint_every) {
    LOCALE_LEAVE();
    cosrod_status s2 = cosrod_output_checkpoint(out);
    return st != COSROD_OK ? st : s2;
  }
  LOCALE_LEAVE();
  return st;
}

/* ---- publishing ----------------------------------------------------------- */

cosrod_status cosrod_output_checkpoint(cosrod_output *out) {
  if (!out || out->closed) return COSROD_ERR_INVALID;
  LOCALE_ENTER(out);
  cosrod_status st = COSROD_OK;
  for (int i = 0; i < OF_COUNT; ++i) {
    cosrod_status s2 = out_file_checkpoint(out, &out->f[i]);
    if (s2 != COSROD_OK) st = s2;
  }
  if (out->h5) {
    cosrod_status s2 = out_h5_flush(out);
    if (s2 != COSROD_OK) st = s2;
  }
  cosrod_output_result res = cosrod_output_default_result();
  res.run = COSROD_RUN_RUNNING;
  cosrod_status s2 = out_write_summary(out, COSROD_RUN_RUNNING, &res);
  if (s2 != COSROD_OK) st = s2;
  clock_gettime(CLOCK_MONOTONIC, &out->t_ckpt);
  LOCALE_LEAVE();
  return st;
}

cosrod_status cosrod_output_checkpoint_poll(cosrod_output *out) {
  if (!out || out->closed || out->in_frame || !(out->checkpoint_every > 0)) return COSROD_OK;
  if (out_elapsed(&out->t_ckpt) < out->checkpoint_every) return COSROD_OK;
  return cosrod_output_checkpoint(out);
}

cosrod_status cosrod_output_close(cosrod_output *out, const cosrod_output_result *res) {
  if (!out || out->closed) return COSROD_ERR_INVALID;
  cosrod_output_result def = cosrod_output_default_result();
  if (!res) res = &def;
  cosrod_output_run run = res->run;
  if (run != COSROD_RUN_OK && run != COSROD_RUN_FAILED && run != COSROD_RUN_INTERRUPTED)
    run = COSROD_RUN_FAILED;
  LOCALE_ENTER(out);
  if (out->in_frame) discard_frame(out);
  cosrod_status st = COSROD_OK;
  char first_err[512] = "";
  for (int i = 0; i < OF_COUNT; ++i) {
    cosrod_status s2 = out_file_publish(out, &out->f[i]);
    if (s2 != COSROD_OK && st == COSROD_OK) {
      st = s2;
      memcpy(first_err, out->err, sizeof first_err);
    }
  }
  if (out->h5) { /* rows and the VTKHDF file; the summary attribute comes with summary.json */
    cosrod_status s2 = out_h5_close(out);
    if (s2 != COSROD_OK && st == COSROD_OK) {
      st = s2;
      memcpy(first_err, out->err, sizeof first_err);
    }
  }
  out->closed = 1;
  if (out->nonfinite > 0)
    out_warn(out, "%ld non-finite values written (first at t = %g), as nan/inf in CSV and VTK",
             out->nonfinite, out->t_nonfinite);
  if (out->vtk_error) out_warn(out, "vtk: writing stopped after an error; see the messages above");
  out_remove_previous_run(out); /* output_clean.c: only this run's files stay */
  if (out->plots) out_make_plots(out);
  /* summary.json last: run.h5 gets its text as an attribute before the rename
   * (a failure there is reported; the summary is published regardless) */
  cosrod_status s2 = out_write_summary_tmp(out, run, res);
  cosrod_status att = s2 == COSROD_OK && out->h5 ? out_h5_attach_summary(out, out->path_a) : COSROD_OK;
  if (s2 == COSROD_OK) s2 = out_publish_summary(out);
  if (s2 == COSROD_OK) s2 = att;
  if (st != COSROD_OK)
    memcpy(out->err, first_err, sizeof first_err); /* report the first failure */
  else
    st = s2;
  LOCALE_LEAVE();
  return st;
}
