// SPDX-License-Identifier: Apache-2.0
/* Output rows: the time-loop writers of the CSV streams (centerline, frames,
 * strains, curvatures, energy, steps, increments) and of the mode files
 * (modes.csv, vtk/modes.pvd), formatting into the fixed line buffer only
 * ([manual: command line, output reference]). Stream lifecycle and publishing live in output.c. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output_internal.h"

/* ---- writers -------------------------------------------------------------- */

static size_t row_start(cosrod_output *out, double t) {
  int n = out_fmt(out->line, t);
  return (size_t)n;
}

static size_t append_index(char *line, size_t pos, size_t idx) {
  char d[24];
  int n = 0;
  do d[n++] = (char)('0' + (int)(idx % 10)); /* ",%zu" without printf */
  while ((idx /= 10) != 0);
  line[pos++] = ',';
  while (n > 0) line[pos++] = d[--n];
  line[pos] = '\0';
  return pos;
}

static cosrod_status end_row(cosrod_output *out, out_file *f, size_t pos) {
  out->line[pos++] = '\n';
  out->line[pos] = '\0';
  return out_file_put(out, f, out->line, 1);
}

cosrod_status cosrod_output_write_rod(cosrod_output *out, size_t rod, const cosrod_output_rod_frame *fr) {
  if (!out || out->closed || !fr) return COSROD_ERR_INVALID;
  if (!out->in_frame) return out_fail(out, COSROD_ERR_INVALID, "output: write_rod outside a frame");
  if (rod >= out->nrods) return out_fail(out, COSROD_ERR_INVALID, "output: rod index %zu out of range", rod);
  if (out->rod_done[rod])
    return out_fail(out, COSROD_ERR_INVALID, "output: rod %zu written twice at t = %g", rod, out->t_frame);
  if (fr->n < 1 || !fr->s_vertices || !fr->x || !fr->s_segments || !fr->p || !fr->gamma || !fr->F || !fr->K ||
      !fr->M)
    return out_fail(out, COSROD_ERR_INVALID, "output: rod %zu: missing array or N < 1", rod);
  if (out->rod_n[rod] && out->rod_n[rod] != fr->n)
    return out_fail(out, COSROD_ERR_DIMENSION, "output: rod %zu: N = %zu, earlier %zu", rod, fr->n,
                    out->rod_n[rod]);
  LOCALE_ENTER(out);
  const size_t N = fr->n, cap = sizeof out->line;
  const double t = out->t_frame;
  cosrod_status st = out->h5 ? out_h5_rod(out, rod, fr) : COSROD_OK; /* HDF5: no CSV stream is open */
  out_file *f = &out->f[OF_CENTERLINE];
  for (size_t n = 0; n <= N && st == COSROD_OK && out_file_enabled(f); ++n) {
    size_t pos = row_start(out, t);
    pos = append_index(out->line, append_index(out->line, pos, rod), n);
    pos = out_append_num(out->line, pos, cap, fr->s_vertices[n]);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, fr->x[3 * n + i]);
    st = end_row(out, f, pos);
  }
  f = &out->f[OF_FRAMES];
  for (size_t n = 0; n < N && st == COSROD_OK && out_file_enabled(f); ++n) {
    size_t pos = row_start(out, t);
    pos = append_index(out->line, append_index(out->line, pos, rod), n);
    pos = out_append_num(out->line, pos, cap, fr->s_segments[n]);
    for (int i = 0; i < 4; ++i) pos = out_append_num(out->line, pos, cap, fr->p[4 * n + i]);
    st = end_row(out, f, pos);
  }
  f = &out->f[OF_STRAINS];
  for (size_t n = 0; n < N && st == COSROD_OK && out_file_enabled(f); ++n) {
    size_t pos = row_start(out, t);
    pos = append_index(out->line, append_index(out->line, pos, rod), n);
    pos = out_append_num(out->line, pos, cap, fr->s_segments[n]);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, fr->gamma[3 * n + i]);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, fr->F[3 * n + i]);
    st = end_row(out, f, pos);
  }
  f = &out->f[OF_CURVATURES];
  for (size_t n = 0; n <= N && st == COSROD_OK && out_file_enabled(f); ++n) {
    size_t pos = row_start(out, t);
    pos = append_index(out->line, append_index(out->line, pos, rod), n);
    pos = out_append_num(out->line, pos, cap, fr->s_vertices[n]);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, fr->K[3 * n + i]);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, fr->M[3 * n + i]);
    st = end_row(out, f, pos);
  }
  f = &out->f[OF_TIP];
  for (size_t e = 0; e < 2 && st == COSROD_OK && out_file_enabled(f); ++e) {
    const double *x = fr->x + 3 * (e ? N : 0), *p = fr->p + 4 * (e ? N - 1 : 0);
    size_t pos = row_start(out, t);
    pos = append_index(out->line, append_index(out->line, pos, rod), e);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, x[i]);
    for (int i = 0; i < 4; ++i) pos = out_append_num(out->line, pos, cap, p[i]);
    st = end_row(out, f, pos);
  }
  if (st == COSROD_OK && out->vtk && !out->vtk_error && !out->h5) { /* HDF5: vtk/cosrod.vtkhdf */
    out_vtk_path(out, out->path_a, rod, out->nframes, 1);
    if (out_vtk_rod(out, out->path_a, rod, t, fr) != COSROD_OK) {
      out->vtk_error = 1; /* warning recorded; the CSV files go on */
      remove(out->path_a);
    }
  }
  if (st == COSROD_OK) {
    out_count_nonfinite(out, fr->s_vertices, N + 1);
    out_count_nonfinite(out, fr->x, 3 * (N + 1));
    out_count_nonfinite(out, fr->s_segments, N);
    out_count_nonfinite(out, fr->p, 4 * N);
    out_count_nonfinite(out, fr->gamma, 3 * N);
    out_count_nonfinite(out, fr->F, 3 * N);
    out_count_nonfinite(out, fr->K, 3 * (N + 1));
    out_count_nonfinite(out, fr->M, 3 * (N + 1));
    memcpy(out->tips_frame + 3 * rod, fr->x + 3 * N, 3 * sizeof(double));
    out->rod_n[rod] = N;
    out->rod_done[rod] = 1;
  }
  LOCALE_LEAVE();
  return st;
}

cosrod_status cosrod_output_write_body(cosrod_output *out, size_t body, const double x[3], const double q[4],
                                       const double Omega[3], const double v[3], double kinetic, double potential) {
  if (!out || out->closed || !x || !q || !Omega || !v) return COSROD_ERR_INVALID;
  if (!out->in_frame) return out_fail(out, COSROD_ERR_INVALID, "output: write_body outside a frame");
  if (body >= out->nbodies)
    return out_fail(out, COSROD_ERR_INVALID, "output: body index %zu out of range", body);
  if (out->body_done[body])
    return out_fail(out, COSROD_ERR_INVALID, "output: body %zu written twice at t = %g", body, out->t_frame);
  LOCALE_ENTER(out);
  cosrod_status st = out->h5 ? out_h5_body(out, body, x, q, Omega, v, kinetic, potential) : COSROD_OK;
  out_file *f = &out->f[OF_BODIES];
  if (out_file_enabled(f)) {
    const size_t cap = sizeof out->line;
    size_t pos = append_index(out->line, row_start(out, out->t_frame), body);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, x[i]);
    for (int i = 0; i < 4; ++i) pos = out_append_num(out->line, pos, cap, q[i]);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, Omega[i]);
    for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, v[i]);
    pos = out_append_num(out->line, pos, cap, kinetic);
    pos = out_append_num(out->line, pos, cap, potential);
    st = end_row(out, f, pos);
  }
  if (st == COSROD_OK) {
    out_count_nonfinite(out, x, 3);
    out_count_nonfinite(out, q, 4);
    out_count_nonfinite(out, Omega, 3);
    out_count_nonfinite(out, v, 3);
    const double e[2] = {kinetic, potential};
    out_count_nonfinite(out, e, 2);
    memcpy(out->body_x_frame + 3 * body, x, 3 * sizeof(double));
    memcpy(out->body_q_frame + 4 * body, q, 4 * sizeof(double));
    memcpy(out->body_om_frame + 3 * body, Omega, 3 * sizeof(double));
    out->body_done[body] = 1;
  }
  LOCALE_LEAVE();
  return st;
}

cosrod_status cosrod_output_write_energy(cosrod_output *out, const cosrod_output_energy *e) {
  if (!out || out->closed || !e) return COSROD_ERR_INVALID;
  if (!out->in_frame) return out_fail(out, COSROD_ERR_INVALID, "output: write_energy outside a frame");
  if (out->energy_done)
    return out_fail(out, COSROD_ERR_INVALID, "output: energy written twice at t = %g", out->t_frame);
  /* [manual: command line, output reference]: balance = kinetic + elastic + gravity + dissipated - external_work */
  double bal = e->kinetic + e->elastic + e->gravity + e->dissipated - e->external_work;
  LOCALE_ENTER(out);
  out_file *f = &out->f[OF_ENERGY];
  const double v[6] = {e->kinetic, e->elastic, e->gravity, e->external_work, e->dissipated, bal};
  cosrod_status st = out->h5 ? out_h5_energy(out, v) : COSROD_OK;
  if (out_file_enabled(f)) {
    size_t pos = row_start(out, out->t_frame);
    for (int i = 0; i < 6; ++i) pos = out_append_num(out->line, pos, sizeof out->line, v[i]);
    st = end_row(out, f, pos);
  }
  if (st == COSROD_OK) {
    out_count_nonfinite(out, v, 5);
    out->energy_done = 1;
    out->bal_frame = bal;
    double scale = 0.0;
    for (int i = 0; i < 5; ++i)
      if (fabs(v[i]) > scale) scale = fabs(v[i]);
    out->scale_frame = scale;
  }
  LOCALE_LEAVE();
  return st;
}

/* A single-row stream: the row is committed at once. */
static cosrod_status put_committed_row(cosrod_output *out, out_file *f, size_t pos) {
  cosrod_status st = end_row(out, f, pos);
  if (st == COSROD_OK) out_file_commit(f);
  return st;
}

cosrod_status cosrod_output_write_step(cosrod_output *out, double t, double h, int accepted) {
  if (!out || out->closed) return COSROD_ERR_INVALID;
  if (out->h5) {
    const double r[3] = {t, h, accepted ? 1.0 : 0.0};
    return out_h5_committed_row(out, OF_STEPS, r, 3);
  }
  out_file *f = &out->f[OF_STEPS];
  if (!f->fp) return COSROD_OK;
  LOCALE_ENTER(out);
  size_t pos = row_start(out, t);
  pos = out_append_num(out->line, pos, sizeof out->line, h);
  pos += (size_t)snprintf(out->line + pos, 8, ",%d", accepted ? 1 : 0);
  cosrod_status st = put_committed_row(out, f, pos);
  LOCALE_LEAVE();
  return st;
}

cosrod_status cosrod_output_write_increment(cosrod_output *out, double t, long iterations, double residual) {
  if (!out || out->closed) return COSROD_ERR_INVALID;
  if (out->h5) {
    const double r[3] = {t, (double)iterations, residual};
    return out_h5_committed_row(out, OF_INCREMENTS, r, 3);
  }
  out_file *f = &out->f[OF_INCREMENTS];
  if (!f->fp) return COSROD_OK;
  LOCALE_ENTER(out);
  size_t pos = row_start(out, t);
  pos += (size_t)snprintf(out->line + pos, 24, ",%ld", iterations);
  pos = out_append_num(out->line, pos, sizeof out->line, residual);
  cosrod_status st = put_committed_row(out, f, pos);
  LOCALE_LEAVE();
  return st;
}

cosrod_status cosrod_output_write_mode(cosrod_output *out, int mode, double frequency_hz, double omega,
                                       size_t rod, size_t vertex, const double dx[3], const double rx[3]) {
  if (!out || out->closed || !dx || !rx) return COSROD_ERR_INVALID;
  if (out->h5) { /* the CSV's columns: buckling has no omega */
    double r[11] = {mode, frequency_hz, omega, (double)rod, (double)vertex, dx[0], dx[1], dx[2], rx[0], rx[1], rx[2]};
    if (out->buckling) memmove(r + 2, r + 3, 8 * sizeof *r);
    return out_h5_committed_row(out, OF_MODES, r, out->buckling ? 10 : 11);
  }
  out_file *f = &out->f[OF_MODES];
  if (!f->fp) return COSROD_OK;
  LOCALE_ENTER(out);
  const size_t cap = sizeof out->line;
  size_t pos = (size_t)snprintf(out->line, 24, "%d", mode);
  pos = out_append_num(out->line, pos, cap, frequency_hz); /* buckling: the load factor */
  if (!out->buckling) pos = out_append_num(out->line, pos, cap, omega);
  pos = append_index(out->line, append_index(out->line, pos, rod), vertex);
  for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, dx[i]);
  for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, rx[i]);
  cosrod_status st = put_committed_row(out, f, pos);
  LOCALE_LEAVE();
  return st;
}

/* ---- modes ---------------------------------------------------------------- */

/* Rename the finished temporary file path_a onto DIR/vtk/<base>. */
static cosrod_status publish_mode_file(cosrod_output *out, const char *base) {
  snprintf(out->path_b, out->path_cap, "%s/%s", out->vtkdir, base);
  if (rename(out->path_a, out->path_b) != 0) {
    int err = errno;
    remove(out->path_a);
    out_warn(out, "%s: cannot rename (%s)", out->path_b, strerror(err));
    return out_fail(out, COSROD_ERR_IO, "%s: cannot rename (%s)", out->path_b, strerror(err));
  }
  return COSROD_OK;
}

static cosrod_status write_modes_pvd(cosrod_output *out, const cosrod_output_modes *m) {
  snprintf(out->path_a, out->path_cap, "%s/.%s.tmp", out->vtkdir, COSROD_OUTPUT_MODES_PVD_NAME);
  FILE *fp = fopen(out->path_a, "w");
  if (!fp) {
    int err = errno;
    out_warn(out, "%s: cannot open (%s)", out->path_a, strerror(err));
    return out_fail(out, COSROD_ERR_IO, "%s: cannot open (%s)", out->path_a, strerror(err));
  }
  fputs(m->load_factor ? "<?xml version=\"1.0\"?>\n<!-- cosrod buckling modes: timestep = mode number; the critical "
                         "load factor as attribute here and as FieldData in each file; apply Warp By Vector "
                         "(displacement) -->\n"
                       : "<?xml version=\"1.0\"?>\n<!-- cosrod mode shapes: timestep = mode number; frequency_hz and "
                         "omega [rad/s] as attributes here and as FieldData in each file; apply Warp By Vector "
                         "(displacement) -->\n",
        fp);
  fputs("<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n  <Collection>\n", fp);
  for (int k = 0; k < m->count; ++k) {
    char f[32], w[32], base[64];
    size_t rod, N;
    const double *s, *x, *sh;
    out_mode_geom(m, k, &rod, &N, &s, &x, &sh);
    out_mode_base(base, sizeof base, k);
    if (m->load_factor) {
      out_fmt(f, m->load_factor[k]);
      fprintf(fp, "    <DataSet timestep=\"%d\" group=\"\" part=\"%zu\" file=\"%s\" load_factor=\"%s\"/>\n", k + 1,
              rod, base, f);
    } else {
      out_fmt(f, m->freq_hz[k]);
      out_fmt(w, m->omega[k]);
      fprintf(fp,
              "    <DataSet timestep=\"%d\" group=\"\" part=\"%zu\" file=\"%s\" frequency_hz=\"%s\" "
              "omega=\"%s\"/>\n",
              k + 1, rod, base, f, w);
    }
  }
  fputs("  </Collection>\n</VTKFile>\n", fp);
  int bad = ferror(fp);
  if (fclose(fp) != 0) bad = 1;
  if (bad) {
    remove(out->path_a);
    out_warn(out, "%s: write failed", out->path_a);
    return out_fail(out, COSROD_ERR_IO, "%s: write failed", out->path_a);
  }
  return publish_mode_file(out, COSROD_OUTPUT_MODES_PVD_NAME);
}

cosrod_status cosrod_output_write_modes(cosrod_output *out, const cosrod_output_modes *m) {
  if (!out || out->closed || !m || m->count < 0 || !m->shapes || out->nmodes > 0) return COSROD_ERR_INVALID;
  if (m->load_factor ? !out->buckling : (out->buckling || !m->freq_hz || !m->omega)) return COSROD_ERR_INVALID;
  if (m->mode_rod) {
    if (!m->rod_n || !m->rod_s || !m->rod_x) return COSROD_ERR_INVALID;
    for (int k = 0; k < m->count; ++k) {
      size_t r = m->mode_rod[k];
      if (r >= out->nrods || m->rod_n[r] < 1 || !m->rod_s[r] || !m->rod_x[r] || m->stride < (m->rod_n[r] + 1) * 6)
        return COSROD_ERR_INVALID;
    }
  } else if (m->n < 1 || !m->s || !m->x || m->rod >= out->nrods) {
    return COSROD_ERR_INVALID;
  }
  LOCALE_ENTER(out);
  cosrod_status st = COSROD_OK;
  size_t nmax = 1;
  for (int k = 0; k < m->count; ++k) {
    size_t rod, N;
    const double *s, *x, *sh;
    out_mode_geom(m, k, &rod, &N, &s, &x, &sh);
    if (N > nmax) nmax = N;
    const double a = m->load_factor ? m->load_factor[k] : m->freq_hz[k], b = m->load_factor ? 0.0 : m->omega[k];
    for (size_t n = 0; n <= N && st == COSROD_OK; ++n)
      st = cosrod_output_write_mode(out, k + 1, a, b, rod, n, sh + 6 * n, sh + 6 * n + 3);
    for (size_t r = 0; m->mode_rod && m->rod_shapes && r < out->nrods && st == COSROD_OK; ++r) {
      const double *o = m->rod_shapes[(size_t)k * out->nrods + r]; /* coupled rods: the others' parts */
      for (size_t n = 0; o && r != rod && n <= m->rod_n[r] && st == COSROD_OK; ++n)
        st = cosrod_output_write_mode(out, k + 1, a, b, r, n, o + 6 * n, o + 6 * n + 3);
    }
  }
  const size_t cnt = (size_t)m->count + 1;
  out->mode_s = malloc(cnt * (nmax + 1) * sizeof *out->mode_s);
  out->mode_nk = malloc(cnt * sizeof *out->mode_nk);
  out->mode_rod = malloc(cnt * sizeof *out->mode_rod);
  out->mode_freq = malloc(cnt * sizeof *out->mode_freq);
  out->mode_omega = malloc(cnt * sizeof *out->mode_omega);
  out->mode_type = malloc(cnt * sizeof *out->mode_type);
  out->mode_group = malloc(cnt * sizeof *out->mode_group);
  if (st == COSROD_OK && (!out->mode_s || !out->mode_nk || !out->mode_rod || !out->mode_freq || !out->mode_omega ||
                          !out->mode_type || !out->mode_group))
    st = COSROD_ERR_NOMEM;
  if (st == COSROD_OK) {
    for (int k = 0; k < m->count; ++k) {
      size_t rod, N;
      const double *s, *x, *sh;
      out_mode_geom(m, k, &rod, &N, &s, &x, &sh);
      memcpy(out->mode_s + (size_t)k * (nmax + 1), s, (N + 1) * sizeof *out->mode_s);
      out->mode_nk[k] = N;
      out->mode_rod[k] = rod;
      out->mode_freq[k] = m->load_factor ? m->load_factor[k] : m->freq_hz[k];
      out->mode_omega[k] = m->load_factor ? 0.0 : m->omega[k];
      snprintf(out->mode_type[k], sizeof out->mode_type[k], "%s", m->type && m->type[k] ? m->type[k] : "");
      out->mode_group[k] = m->group ? m->group[k] : -1;
    }
    out->mode_n = nmax;
    out->nmodes = m->count;
  }
  if (st == COSROD_OK && out->vtk && m->count > 0) {
    char base[64];
    for (int k = 0; k < m->count && st == COSROD_OK; ++k) {
      out_mode_base(base, sizeof base, k);
      snprintf(out->path_a, out->path_cap, "%s/.%s.tmp", out->vtkdir, base);
      st = out_vtk_mode(out, out->path_a, m, k);
      if (st == COSROD_OK)
        st = publish_mode_file(out, base);
      else
        remove(out->path_a);
    }
    if (st == COSROD_OK) st = write_modes_pvd(out, m);
  }
  LOCALE_LEAVE();
  return st;
}
