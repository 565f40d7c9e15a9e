// SPDX-License-Identifier: Apache-2.0
/* Output module: one stream (a CSV file or the .pvd index) written through
 * its temporary name DIR/.name.tmp with committed/safe byte counts, and
 * published by truncation or prefix copy plus rename(2); the protocol is
 * described in output.c.  Split from output.c; declarations in
 * output_internal.h. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "output_internal.h"

int out_file_enabled(const out_file *f) { return f->fp != NULL && f->error == 0; }

/* Record an I/O failure on stream f. */
cosrod_status out_file_io_error(cosrod_output *out, out_file *f, int err) {
  if (!err) err = EIO;
  if (!f->error) {
    f->error = err;
    out_warn(out, "%s: write failed (%s)", f->final_path, strerror(err));
  }
  return out_fail(out, COSROD_ERR_IO, "%s: write failed (%s)", f->final_path, strerror(err));
}

/* Write one row (or any text) to a stream; counts bytes. */
cosrod_status out_file_put(cosrod_output *out, out_file *f, const char *s, int is_row) {
  if (f->error) return out_fail(out, COSROD_ERR_IO, "%s: write failed earlier", f->final_path);
  size_t n = strlen(s);
  if (fwrite(s, 1, n, f->fp) != n) return out_file_io_error(out, f, errno);
  f->bytes += (long)n;
  if (is_row) f->rows++;
  return COSROD_OK;
}

void out_file_commit(out_file *f) {
  f->committed = f->bytes;
  f->rows_committed = f->rows;
}

/* Discard uncommitted bytes of a stream (flush, truncate, reposition). */
cosrod_status out_file_rollback(cosrod_output *out, out_file *f) {
  if (!f->fp || f->error || f->bytes == f->committed) return COSROD_OK;
  if (fflush(f->fp) != 0) return out_file_io_error(out, f, errno);
  if (ftruncate(fileno(f->fp), (off_t)f->committed) != 0) return out_file_io_error(out, f, errno);
  if (fseek(f->fp, f->committed, SEEK_SET) != 0) return out_file_io_error(out, f, errno);
  f->bytes = f->committed;
  f->rows = f->rows_committed;
  return COSROD_OK;
}

void out_count_nonfinite(cosrod_output *out, const double *v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!isfinite(v[i])) out->nonfinite_frame++;
}

/* fflush; on success everything committed so far is on disk. */
cosrod_status out_file_flush(cosrod_output *out, out_file *f) {
  if (!out_file_enabled(f)) return f->error ? COSROD_ERR_IO : COSROD_OK;
  if (fflush(f->fp) != 0) return out_file_io_error(out, f, errno);
  f->safe = f->committed;
  f->rows_safe = f->rows_committed;
  return COSROD_OK;
}

/* Copy the committed prefix of f's temporary file plus the footer to
 * path_b ("DIR/.name.ckpt") and rename it onto the final name. */
cosrod_status out_file_checkpoint(cosrod_output *out, out_file *f) {
  if (!f->fp || f->error) return f->error ? COSROD_ERR_IO : COSROD_OK;
  if (fflush(f->fp) != 0) return out_file_io_error(out, f, errno);
  size_t n = strlen(f->tmp_path);
  if (n + 8 > out->path_cap) return COSROD_ERR_INTERNAL;
  memcpy(out->path_b, f->tmp_path, n - 4); /* ".name.tmp" -> ".name.ckpt" */
  memcpy(out->path_b + n - 4, ".ckpt", 6);
  FILE *src = fopen(f->tmp_path, "rb");
  FILE *dst = src ? fopen(out->path_b, "wb") : NULL;
  int ok = src && dst;
  char buf[8192];
  long left = f->committed;
  while (ok && left > 0) {
    size_t want = left < (long)sizeof buf ? (size_t)left : sizeof buf;
    size_t got = fread(buf, 1, want, src);
    ok = got == want && fwrite(buf, 1, got, dst) == got;
    left -= (long)got;
  }
  if (ok && f->footer) ok = fputs(f->footer, dst) != EOF;
  int err = errno;
  if (src) fclose(src);
  if (dst && fclose(dst) != 0) ok = 0;
  if (ok && rename(out->path_b, f->final_path) != 0) {
    err = errno;
    ok = 0;
  }
  if (!ok) {
    remove(out->path_b);
    out_warn(out, "%s: checkpoint failed (%s)", f->final_path, strerror(err ? err : EIO));
    return out_fail(out, COSROD_ERR_IO, "%s: checkpoint failed (%s)", f->final_path,
                    strerror(err ? err : EIO));
  }
  return COSROD_OK;
}

/* After a write error: close, cut the temporary file back to the bytes
 * known to be on disk (whole rows of finished output times) and append the
 * footer; returns 1 if that worked and the file can be published. */
static int salvage_stream(cosrod_output *out, out_file *f) {
  fclose(f->fp); /* may fail again: what it writes is cut off below */
  f->fp = NULL;
  if (truncate(f->tmp_path, (off_t)f->safe) != 0) return 0;
  if (f->footer) {
    FILE *fp = fopen(f->tmp_path, "a");
    int ok = fp && fputs(f->footer, fp) != EOF;
    if (fp && fclose(fp) != 0) ok = 0;
    if (!ok) return 0;
  }
  f->rows_committed = f->rows_safe;
  out_warn(out, "%s: kept the %ld rows written before the error", f->final_path, f->rows_safe);
  return 1;
}

cosrod_status out_file_publish(cosrod_output *out, out_file *f) {
  if (!f->fp) return COSROD_OK;
  cosrod_status st = COSROD_OK;
  if (!f->error) st = out_file_rollback(out, f);
  if (!f->error && f->footer && fputs(f->footer, f->fp) == EOF) st = out_file_io_error(out, f, errno);
  if (!f->error && fflush(f->fp) != 0) st = out_file_io_error(out, f, errno);
  if (f->error) {
    st = COSROD_ERR_IO;
    if (!salvage_stream(out, f)) {
      if (f->fp) fclose(f->fp);
      f->fp = NULL;
      remove(f->tmp_path);
      out_warn(out, "%s: not published after the write error", f->final_path);
      return st;
    }
  } else {
    int rc = fclose(f->fp);
    f->fp = NULL;
    if (rc != 0) {
      st = out_file_io_error(out, f, errno);
      remove(f->tmp_path);
      return st;
    }
  }
  if (rename(f->tmp_path, f->final_path) != 0) {
    int err = errno;
    remove(f->tmp_path);
    out_warn(out, "%s: cannot rename (%s)", f->final_path, strerror(err));
    return out_fail(out, COSROD_ERR_IO, "%s: cannot rename (%s)", f->final_path, strerror(err));
  }
  f->published = 1;
  return st;
}
