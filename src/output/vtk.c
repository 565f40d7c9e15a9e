/* VTK XML PolyData (.vtp, ASCII) for ParaView: one file per rod and output
 * time, DIR/vtk/rod<k>_<frame>.vtp, and one for all rigid bodies,
 * DIR/vtk/bodies_<frame>.vtp; DIR/vtk/cosrod.pvd lists them with their times
 * (output.c; `part` = rod index, bodies = nrods).
 *
 * Rod file: points = the centerline vertices x_0..x_N; one line cell per
 * segment (x_{n-1}, x_n), so segment quantities are cell data.
 *   PointData: s, K (3), M (3)                       vertex quantities
 *   CellData:  s, Gamma (3), F (3), q (4), d1, d2, d3  segment quantities,
 *              directors d^k = R(p/|p|) e_k ([LLA] eq. 1)
 *   FieldData: TimeValue, rod
 * Bodies file: one vertex cell per body; PointData q (4), Omega (3), d1, d2, d3.
 * Mode file (analysis: modes), DIR/vtk/mode_<k>.vtp, listed in modes.pvd:
 *   points = the centerline about which the rod was linearised, lines as above;
 *   PointData: s, displacement (dx, dy, dz), rotation (rx, ry, rz) of the
 *              mass-normalised mode shape (cosrod_statics_modes, = modes.csv);
 *   FieldData: mode, frequency_hz, omega, warp_scale (a Warp By Vector
 *              factor showing the largest displacement as 0.1 L), rod.
 * Non-finite numbers are written as nan/inf like the CSV files. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cosrod/quat.h"
#include "output_internal.h"

void out_vtk_base(char *buf, size_t cap, size_t rod, size_t frame) {
  if (rod == (size_t)-1)
    snprintf(buf, cap, "bodies_%06zu.vtp", frame);
  else
    snprintf(buf, cap, "rod%zu_%06zu.vtp", rod, frame);
}

void out_vtk_path(const cosrod_output *out, char *buf, size_t rod, size_t frame, int tmp) {
  char base[64];
  out_vtk_base(base, sizeof base, rod, frame);
  snprintf(buf, out->path_cap, "%s/%s%s%s", out->vtkdir, tmp ? "." : "", base, tmp ? ".tmp" : "");
}

static void put_num(FILE *fp, double v, char sep) {
  char b[32];
  out_fmt(b, v);
  fputs(b, fp);
  fputc(sep, fp);
}

/* One tuple as an indented line, written with a single fwrite. */
static void put_tuple(FILE *fp, const double *v, int ncomp) {
  char line[16 + 4 * 33];
  size_t pos = 10;
  memset(line, ' ', pos);
  for (int c = 0; c < ncomp; ++c) {
    pos += (size_t)out_fmt(line + pos, v[c]);
    line[pos++] = c + 1 < ncomp ? ' ' : '\n';
  }
  fwrite(line, 1, pos, fp);
}

/* <DataArray> of ntuples x ncomp (<= 4) doubles, tuple i at v + i*stride. */
static void put_array(FILE *fp, const char *name, int ncomp, const double *v, size_t ntuples, size_t stride) {
  fprintf(fp, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n",
          name, ncomp);
  for (size_t i = 0; i < ntuples; ++i) put_tuple(fp, v + i * stride, ncomp);
  fputs("        </DataArray>\n", fp);
}

/* Director k (0, 1, 2) of each quaternion (ntuples x 4 at q). */
static void put_directors(FILE *fp, const double *q, size_t ntuples) {
  static const char *const names[3] = {"d1", "d2", "d3"};
  for (int k = 0; k < 3; ++k) {
    fprintf(fp,
            "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"3\" format=\"ascii\">\n",
            names[k]);
    for (size_t i = 0; i < ntuples; ++i) {
      double p[4], d[3];
      double nrm = cosrod_quat_norm(q + 4 * i);
      for (int j = 0; j < 4; ++j) p[j] = nrm > 0.0 ? q[4 * i + j] / nrm : NAN;
      cosrod_quat_director(d, p, k);
      put_tuple(fp, d, 3);
    }
    fputs("        </DataArray>\n", fp);
  }
}

static void put_header(FILE *fp, double t, long rod, size_t npoints, size_t nverts, size_t nlines) {
  fputs("<?xml version=\"1.0\"?>\n", fp);
  fputs("<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n",
        fp);
  fputs("  <PolyData>\n", fp);
  fputs("    <FieldData>\n", fp);
  fputs("      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">", fp);
  put_num(fp, t, '<');
  fputs("/DataArray>\n", fp);
  if (rod >= 0)
    fprintf(fp,
            "      <DataArray type=\"Int64\" Name=\"rod\" NumberOfTuples=\"1\" "
            "format=\"ascii\">%ld</DataArray>\n",
            rod);
  fputs("    </FieldData>\n", fp);
  fprintf(
      fp,
      "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"%zu\" NumberOfStrips=\"0\" "
      "NumberOfPolys=\"0\">\n",
      npoints, nverts, nlines);
}

static void put_points(FILE *fp, const double *x, size_t n) {
  fputs("      <Points>\n", fp);
  put_array(fp, "Points", 3, x, n, 3);
  fputs("      </Points>\n", fp);
}

static void put_footer(FILE *fp) { fputs("    </Piece>\n  </PolyData>\n</VTKFile>\n", fp); }

void out_mode_base(char *buf, size_t cap, int k) { snprintf(buf, cap, "mode_%03d.vtp", k + 1); }

/* One Float64 FieldData value. */
static void put_field(FILE *fp, const char *name, double v) {
  fprintf(fp, "      <DataArray type=\"Float64\" Name=\"%s\" NumberOfTuples=\"1\" format=\"ascii\">", name);
  put_num(fp, v, '<');
  fputs("/DataArray>\n", fp);
}

static cosrod_status finish(cosrod_output *out, FILE *fp, const char *path) {
  int bad = ferror(fp);
  int err = errno;
  if (fclose(fp) != 0) bad = 1, err = errno;
  if (!bad) return COSROD_OK;
  out->vtk_error = 1;
  out_warn(out, "%s: write failed (%s)", path, strerror(err ? err : EIO));
  return out_fail(out, COSROD_ERR_IO, "%s: write failed (%s)", path, strerror(err ? err : EIO));
}

cosrod_status out_vtk_rod(cosrod_output *out, const char *path, size_t rod, double t,
                          const cosrod_output_rod_frame *fr) {
  FILE *fp = fopen(path, "w");
  if (!fp) {
    int err = errno;
    out->vtk_error = 1;
    out_warn(out, "%s: cannot open (%s)", path, strerror(err));
    return out_fail(out, COSROD_ERR_IO, "%s: cannot open (%s)", path, strerror(err));
  }
  const size_t N = fr->n;
  put_header(fp, t, (long)rod, N + 1, 0, N);
  fputs("      <PointData Vectors=\"K\">\n", fp);
  put_array(fp, "s", 1, fr->s_vertices, N + 1, 1);
  put_array(fp, "K", 3, fr->K, N + 1, 3);
  put_array(fp, "M", 3, fr->M, N + 1, 3);
  fputs("      </PointData>\n", fp);
  fputs("      <CellData Vectors=\"d3\">\n", fp);
  put_array(fp, "s", 1, fr->s_segments, N, 1);
  put_array(fp, "Gamma", 3, fr->gamma, N, 3);
  put_array(fp, "F", 3, fr->F, N, 3);
  put_array(fp, "q", 4, fr->p, N, 4);
  put_directors(fp, fr->p, N);
  fputs("      </CellData>\n", fp);
  put_points(fp, fr->x, N + 1);
  fputs("      <Lines>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", fp);
  for (size_t n = 1; n <= N; ++n) fprintf(fp, "          %zu %zu\n", n - 1, n);
  fputs("        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", fp);
  for (size_t n = 1; n <= N; ++n) fprintf(fp, "          %zu\n", 2 * n);
  fputs("        </DataArray>\n      </Lines>\n", fp);
  put_footer(fp);
  return finish(out, fp, path);
}

cosrod_status out_vtk_bodies(cosrod_output *out, const char *path, double t, const double *x, const double *q,
                             const double *Om) {
  FILE *fp = fopen(path, "w");
  if (!fp) {
    int err = errno;
    out->vtk_error = 1;
    out_warn(out, "%s: cannot open (%s)", path, strerror(err));
    return out_fail(out, COSROD_ERR_IO, "%s: cannot open (%s)", path, strerror(err));
  }
  const size_t nb = out->nbodies;
  put_header(fp, t, -1, nb, nb, 0);
  fputs("      <PointData Vectors=\"d3\">\n", fp);
  put_array(fp, "q", 4, q, nb, 4);
  put_array(fp, "Omega", 3, Om, nb, 3);
  put_directors(fp, q, nb);
  fputs("      </PointData>\n", fp);
  put_points(fp, x, nb);
  fputs("      <Verts>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b) fprintf(fp, "          %zu\n", b);
  fputs("        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b) fprintf(fp, "          %zu\n", b + 1);
  fputs("        </DataArray>\n      </Verts>\n", fp);
  put_footer(fp);
  return finish(out, fp, path);
}

cosrod_status out_vtk_mode(cosrod_output *out, const char *path, const cosrod_output_modes *m, int k) {
  FILE *fp = fopen(path, "w");
  if (!fp) {
    int err = errno;
    out_warn(out, "%s: cannot open (%s)", path, strerror(err));
    return out_fail(out, COSROD_ERR_IO, "%s: cannot open (%s)", path, strerror(err));
  }
  size_t rod, N;
  const double *ms, *mx, *sh;
  out_mode_geom(m, k, &rod, &N, &ms, &mx, &sh);
  /* a Warp By Vector factor that shows the largest displacement as 10 % of
   * the rod length (1 if the mode does not displace the centerline) */
  double dmax = 0.0;
  for (size_t n = 0; n <= N; ++n)
    for (int c = 0; c < 3; ++c) dmax = fmax(dmax, fabs(sh[6 * n + c]));
  double len = fabs(ms[N] - ms[0]);
  double warp = dmax > 0.0 && isfinite(dmax) ? 0.1 * len / dmax : 1.0;
  fputs("<?xml version=\"1.0\"?>\n", fp);
  fputs("<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n",
        fp);
  fputs("  <PolyData>\n    <FieldData>\n", fp);
  fprintf(
      fp,
      "      <DataArray type=\"Int64\" Name=\"mode\" NumberOfTuples=\"1\" format=\"ascii\">%d</DataArray>\n",
      k + 1);
  if (m->load_factor) {
    put_field(fp, "load_factor", m->load_factor[k]);
  } else {
    put_field(fp, "frequency_hz", m->freq_hz[k]);
    put_field(fp, "omega", m->omega[k]);
  }
  put_field(fp, "warp_scale", warp);
  fprintf(
      fp,
      "      <DataArray type=\"Int64\" Name=\"rod\" NumberOfTuples=\"1\" format=\"ascii\">%zu</DataArray>\n",
      rod);
  fputs("    </FieldData>\n", fp);
  fprintf(fp,
          "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"0\" NumberOfLines=\"%zu\" NumberOfStrips=\"0\" "
          "NumberOfPolys=\"0\">\n",
          N + 1, N);
  fputs("      <PointData Vectors=\"displacement\">\n", fp);
  put_array(fp, "s", 1, ms, N + 1, 1);
  put_array(fp, "displacement", 3, sh, N + 1, 6);
  put_array(fp, "rotation", 3, sh + 3, N + 1, 6);
  fputs("      </PointData>\n", fp);
  put_points(fp, mx, N + 1);
  fputs("      <Lines>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", fp);
  for (size_t n = 1; n <= N; ++n) fprintf(fp, "          %zu %zu\n", n - 1, n);
  fputs("        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", fp);
  for (size_t n = 1; n <= N; ++n) fprintf(fp, "          %zu\n", 2 * n);
  fputs("        </DataArray>\n      </Lines>\n", fp);
  put_footer(fp);
  int bad = ferror(fp);
  int err = errno;
  if (fclose(fp) != 0) bad = 1, err = errno;
  if (!bad) return COSROD_OK;
  out_warn(out, "%s: write failed (%s)", path, strerror(err ? err : EIO));
  return out_fail(out, COSROD_ERR_IO, "%s: write failed (%s)", path, strerror(err ? err : EIO));
}
