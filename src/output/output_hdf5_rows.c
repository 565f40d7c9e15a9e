// SPDX-License-Identifier: Apache-2.0
/* The time-loop writers' HDF5 side (output_hdf5.h): each fills rows of
 * doubles, in the CSV's column order, into the table's preallocated buffer
 * (a copy per value; no formatting, no allocation after the first frame). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "output_internal.h"

static cosrod_status nomem(cosrod_output *out) {
  return out->h5->failed ? COSROD_ERR_IO : out_fail(out, COSROD_ERR_NOMEM, "output: out of memory (HDF5 rows)");
}

/* rows t, rod, index, s, a[0..na), b[0..nb) of n entries */
static cosrod_status rod_rows(cosrod_output *out, int tab, size_t rod, size_t n, const double *s, const double *a,
                              size_t na, const double *b, size_t nb) {
  if (!(out->files & (1u << tab))) return COSROD_OK;
  const size_t nc = 4 + na + nb;
  double *r = out_h5_rows(out, tab, n);
  if (!r) return nomem(out);
  for (size_t i = 0; i < n; i++, r += nc) {
    r[0] = out->t_frame;
    r[1] = (double)rod;
    r[2] = (double)i;
    r[3] = s[i];
    memcpy(r + 4, a + na * i, na * sizeof *r);
    if (nb) memcpy(r + 4 + na, b + nb * i, nb * sizeof *r);
  }
  return COSROD_OK;
}

cosrod_status out_h5_rod(cosrod_output *out, size_t rod, const cosrod_output_rod_frame *fr) {
  const size_t N = fr->n;
  cosrod_status st = rod_rows(out, OF_CENTERLINE, rod, N + 1, fr->s_vertices, fr->x, 3, NULL, 0);
  if (st == COSROD_OK) st = rod_rows(out, OF_FRAMES, rod, N, fr->s_segments, fr->p, 4, NULL, 0);
  if (st == COSROD_OK) st = rod_rows(out, OF_STRAINS, rod, N, fr->s_segments, fr->gamma, 3, fr->F, 3);
  if (st == COSROD_OK) st = rod_rows(out, OF_CURVATURES, rod, N + 1, fr->s_vertices, fr->K, 3, fr->M, 3);
  if (st == COSROD_OK && (out->files & COSROD_OUTPUT_TIP)) {
    double *r = out_h5_rows(out, OF_TIP, 2);
    if (!r) return nomem(out);
    for (size_t e = 0; e < 2; e++, r += 10) {
      r[0] = out->t_frame;
      r[1] = (double)rod;
      r[2] = (double)e;
      memcpy(r + 3, fr->x + 3 * (e ? N : 0), 3 * sizeof *r);
      memcpy(r + 6, fr->p + 4 * (e ? N - 1 : 0), 4 * sizeof *r);
    }
  }
  if (st == COSROD_OK && out->h5->vtk) st = out_vtkhdf_rod(out, rod, fr);
  return st;
}

/* one row of n doubles: t (if t_first) then v */
static cosrod_status one_row(cosrod_output *out, int tab, const double *v, size_t n, int commit) {
  if (!(out->files & (1u << tab))) return COSROD_OK;
  double *r = out_h5_rows(out, tab, 1);
  if (!r) return nomem(out);
  memcpy(r, v, n * sizeof *r);
  if (commit) out->h5->t[tab].ncommit = out->h5->t[tab].n; /* rows outside frames */
  return COSROD_OK;
}

cosrod_status out_h5_body(cosrod_output *out, size_t body, const double x[3], const double q[4],
                          const double Om[3], const double v[3], double kinetic, double potential) {
  double r[17] = {out->t_frame, (double)body};
  memcpy(r + 2, x, 3 * sizeof *r);
  memcpy(r + 5, q, 4 * sizeof *r);
  memcpy(r + 9, Om, 3 * sizeof *r);
  memcpy(r + 12, v, 3 * sizeof *r);
  r[15] = kinetic;
  r[16] = potential;
  return one_row(out, OF_BODIES, r, 17, 0);
}

cosrod_status out_h5_energy(cosrod_output *out, const double v[6]) {
  double r[7] = {out->t_frame};
  memcpy(r + 1, v, 6 * sizeof *r);
  return one_row(out, OF_ENERGY, r, 7, 0);
}

cosrod_status out_h5_reaction(cosrod_output *out, size_t rod, int end, const double F[3], const double M[3]) {
  double r[9] = {out->t_frame, (double)rod, (double)end};
  memcpy(r + 3, F, 3 * sizeof *r);
  memcpy(r + 6, M, 3 * sizeof *r);
  return one_row(out, OF_REACTIONS, r, 9, 0);
}

cosrod_status out_h5_committed_row(cosrod_output *out, int tab, const double *v, size_t n) {
  return one_row(out, tab, v, n, 1);
}
