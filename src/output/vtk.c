// SPDX-License-Identifier: Apache-2.0
/* VTK XML PolyData (.vtp, ASCII) for ParaView: one file per rod and output
 * time, DIR/vtk/rod<k>_<frame>.vtp, and one for all rigid bodies,
 * DIR/vtk/bodies_<frame>.vtp; DIR/vtk/cosrod.pvd lists them with their times
 * (output.c; `part` = rod index, bodies = nrods).
 *
 * Rod file: points = the centerline vertices x_0..x_N; one line cell per
 * segment (x_{n-1}, x_n), so segment quantities are cell data.
 *   PointData: s, K (3), M (3)                       vertex quantities;
 *              radius, axial_strain, axial_force, bending_curvature, twist
 *              (put_point_scalars); section_half_widths (2),
 *              section_inner_radius, section_d1 (3) (put_section)
 *   CellData:  s, Gamma (3), F (3), q (4), d1, d2, d3  segment quantities,
 *              directors d^k = R(p/|p|) e_k ([LLA] eq. 1)
 *   FieldData: TimeValue, rod, section_shape (COSROD_OUTPUT_SECTION_*),
 *              radius_derived (1: display radius from the stiffnesses)
 * Bodies file: centre, frame axes and inertia ellipsoid per body (out_vtk_bodies).
 * Mode file (analysis: modes), DIR/vtk/mode_<k>.vtp, listed in modes.pvd:
 *   points = the centerline about which the rod was linearised, lines as above;
 *   PointData: s, displacement (dx, dy, dz), rotation (rx, ry, rz) of the
 *              mass-normalised mode shape (cosrod_statics_modes, = modes.csv);
 *   FieldData: mode, frequency_hz, omega, warp_scale (a Warp By Vector
 *              factor showing the largest displacement as 0.1 L), rod.
 * Non-finite numbers are written as nan/inf like the CSV files. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
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

/* Scalars on the N + 1 points for ParaView's Tube filter and colouring:
 * radius (the section's; omitted when NaN), axial strain Gamma3 and axial
 * force F3 (segment values averaged onto the vertices, the end vertices
 * take their segment's), bending curvature |K1, K2| and twist K3. */
static void put_point_scalars(FILE *fp, double radius, const cosrod_output_rod_frame *fr) {
  const size_t N = fr->n;
  static const char *const names[5] = {"radius", "axial_strain", "axial_force", "bending_curvature", "twist"};
  for (int a = isnan(radius) ? 1 : 0; a < 5; ++a) {
    fprintf(fp, "        <DataArray type=\"Float64\" Name=\"%s\" format=\"ascii\">\n", names[a]);
    for (size_t v = 0; v <= N; ++v) {
      size_t s0 = v > 0 ? v - 1 : 0, s1 = v < N ? v : N - 1;
      double val = radius;
      if (a == 1) val = 0.5 * (fr->gamma[3 * s0 + 2] + fr->gamma[3 * s1 + 2]);
      if (a == 2) val = 0.5 * (fr->F[3 * s0 + 2] + fr->F[3 * s1 + 2]);
      if (a == 3) val = hypot(fr->K[3 * v], fr->K[3 * v + 1]);
      if (a == 4) val = fr->K[3 * v + 2];
      fputs("          ", fp);
      put_num(fp, val, '\n');
    }
    fputs("        </DataArray>\n", fp);
  }
}

/* The section shape on the N + 1 points: section_half_widths (along d1, d2),
 * section_inner_radius (tube; else 0) and section_d1, the director d1 at
 * the vertices (the adjacent segments' d1 averaged and normalised, the end
 * vertices take their segment's): ParaView glyphs or a script place the
 * section's width along it. */
static void put_section(FILE *fp, const cosrod_output_section *sec, const double *q, size_t N) {
  fputs("        <DataArray type=\"Float64\" Name=\"section_half_widths\" NumberOfComponents=\"2\" "
        "format=\"ascii\">\n", fp);
  for (size_t v = 0; v <= N; ++v) put_tuple(fp, sec->half_width, 2);
  fputs("        </DataArray>\n", fp);
  put_array(fp, "section_inner_radius", 1, &sec->inner_radius, N + 1, 0);
  fputs("        <DataArray type=\"Float64\" Name=\"section_d1\" NumberOfComponents=\"3\" format=\"ascii\">\n",
        fp);
  for (size_t v = 0; v <= N; ++v) {
    double d[3] = {0, 0, 0};
    for (size_t s = v > 0 ? v - 1 : 0; s <= (v < N ? v : N - 1); ++s) {
      double p[4], e[3], nrm = cosrod_quat_norm(q + 4 * s);
      for (int j = 0; j < 4; ++j) p[j] = nrm > 0.0 ? q[4 * s + j] / nrm : NAN;
      cosrod_quat_director(e, p, 0);
      cosrod_vec3_add(d, d, e);
    }
    double n = cosrod_vec3_norm(d);
    for (int c = 0; c < 3; ++c) d[c] = n > 0.0 ? d[c] / n : NAN;
    put_tuple(fp, d, 3);
  }
  fputs("        </DataArray>\n", fp);
}

static void put_header(FILE *fp, double t, long rod, const cosrod_output_section *sec, size_t npoints,
                       size_t nverts, size_t nlines) {
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
  if (sec)
    fprintf(fp,
            "      <DataArray type=\"Int64\" Name=\"section_shape\" NumberOfTuples=\"1\" "
            "format=\"ascii\">%d</DataArray>\n"
            "      <DataArray type=\"Int64\" Name=\"radius_derived\" NumberOfTuples=\"1\" "
            "format=\"ascii\">%d</DataArray>\n",
            sec->shape, sec->radius_derived);
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
  put_header(fp, t, (long)rod, out->rod_sections ? out->rod_sections + rod : NULL, N + 1, 0, N);
  fputs("      <PointData Vectors=\"K\" Scalars=\"radius\">\n", fp);
  put_array(fp, "s", 1, fr->s_vertices, N + 1, 1);
  put_array(fp, "K", 3, fr->K, N + 1, 3);
  put_array(fp, "M", 3, fr->M, N + 1, 3);
  put_point_scalars(fp, out->rod_radius ? out->rod_radius[rod] : NAN, fr);
  if (out->rod_sections && N > 0) put_section(fp, out->rod_sections + rod, fr->p, N);
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

/* Ellipsoid tessellation of the bodies file: VTK_NLAT latitude bands,
 * VTK_NLON meridians; points = 2 poles + (NLAT - 1) NLON, triangles =
 * 2 NLON (caps) + 2 NLON (NLAT - 2). */
#define VTK_NLAT 8
#define VTK_NLON 12
#define VTK_ELL_PTS (2 + (VTK_NLAT - 1) * VTK_NLON)
#define VTK_ELL_TRI (2 * VTK_NLON * (VTK_NLAT - 1))
#define VTK_BODY_PTS (4 + VTK_ELL_PTS)

/* Point j of body b's geometry (see out_vtk_bodies). */
static void body_point(const double *x, const double *q, const double *geom, int j, double p[3]) {
  double qn[4], nrm = cosrod_quat_norm(q);
  for (int k = 0; k < 4; ++k) qn[k] = nrm > 0.0 ? q[k] / nrm : NAN;
  double amax = fmax(geom[0], fmax(geom[1], geom[2]));
  double len = 1.5 * (amax > 0.0 ? amax : 1.0); /* frame axes stick out of the ellipsoid */
  if (j == 0) {
    cosrod_vec3_copy(p, x);
    return;
  }
  double loc[3] = {0, 0, 0}, t[3];
  if (j <= 3) { /* tip of body axis d_j */
    cosrod_quat_director(t, qn, j - 1);
    for (int k = 0; k < 3; ++k) p[k] = x[k] + len * t[k];
    return;
  }
  int e = j - 4; /* ellipsoid point: poles 0 and 1, then rings i = 1 .. NLAT-1 */
  if (e < 2) {
    loc[2] = e == 0 ? geom[2] : -geom[2];
  } else {
    int i = 1 + (e - 2) / VTK_NLON, l = (e - 2) % VTK_NLON;
    double th = COSROD_QUAT_PI * i / VTK_NLAT, ph = 2.0 * COSROD_QUAT_PI * l / VTK_NLON;
    cosrod_vec3_set(loc, geom[0] * sin(th) * cos(ph), geom[1] * sin(th) * sin(ph), geom[2] * cos(th));
  }
  double qa[4];
  cosrod_quat_mul(qa, qn, geom + 3); /* spatial <- principal axes = body frame * axes */
  cosrod_quat_rotate(t, qa, loc);
  cosrod_vec3_add(p, x, t);
}

/* Triangle k (0 .. VTK_ELL_TRI-1) of the ellipsoid, as local point indices. */
static void body_triangle(int k, int v[3]) {
  const int N = VTK_NLON;
#define RING(i, l) (2 + ((i)-1) * N + ((l) % N))
  if (k < N) { /* north cap */
    v[0] = 0, v[1] = RING(1, k), v[2] = RING(1, k + 1);
  } else if (k < 2 * N) { /* south cap */
    int l = k - N;
    v[0] = 1, v[1] = RING(VTK_NLAT - 1, l + 1), v[2] = RING(VTK_NLAT - 1, l);
  } else { /* two triangles per quad between rings i and i + 1 */
    int r = k - 2 * N, i = 1 + r / (2 * N), l = (r % (2 * N)) / 2;
    if (r % 2 == 0)
      v[0] = RING(i, l), v[1] = RING(i + 1, l), v[2] = RING(i + 1, l + 1);
    else
      v[0] = RING(i, l), v[1] = RING(i + 1, l + 1), v[2] = RING(i, l + 1);
  }
#undef RING
}

/* Bodies file.  Without geometry (cfg.body_semi_axes NULL): one point and
 * one vertex cell per body.  With it, per body b (VTK_BODY_PTS points
 * from b VTK_BODY_PTS): the centre of mass (a vertex cell), the tips of the
 * body frame axes x + L d_k, L = 1.5 max a_k (three line cells from the
 * centre), and the inertia ellipsoid (semi-axes a_k along its principal
 * axes, VTK_ELL_TRI triangles).  PointData: body, q (4), Omega (3), d1, d2,
 * d3 of the owning body; CellData: body, part (0 centre, 1..3 axis d_k, 4
 * ellipsoid surface). */
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
  const double *geom = out->body_geom;
  if (!geom) { /* centres only */
    put_header(fp, t, -1, NULL, nb, nb, 0);
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
  const size_t pp = VTK_BODY_PTS, nt = VTK_ELL_TRI;
  fputs("<?xml version=\"1.0\"?>\n", fp);
  fputs("<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n",
        fp);
  fputs("  <PolyData>\n    <FieldData>\n", fp);
  put_field(fp, "TimeValue", t);
  fputs("    </FieldData>\n", fp);
  fprintf(fp,
          "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"%zu\" NumberOfStrips=\"0\" "
          "NumberOfPolys=\"%zu\">\n",
          nb * pp, nb, 3 * nb, nt * nb);
  /* point data: per body, repeated on each of its points */
  fputs("      <PointData Vectors=\"d3\">\n", fp);
  fputs("        <DataArray type=\"Int64\" Name=\"body\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b)
    for (size_t j = 0; j < pp; ++j) fprintf(fp, "          %zu\n", b);
  fputs("        </DataArray>\n", fp);
  static const char *const names[5] = {"q", "Omega", "d1", "d2", "d3"};
  for (int a = 0; a < 5; ++a) {
    int nc = a == 0 ? 4 : 3;
    fprintf(fp, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n",
            names[a], nc);
    for (size_t b = 0; b < nb; ++b) {
      double v[4];
      if (a == 0) {
        memcpy(v, q + 4 * b, sizeof v);
      } else if (a == 1) {
        memcpy(v, Om + 3 * b, 3 * sizeof *v);
      } else {
        double p[4], nrm = cosrod_quat_norm(q + 4 * b);
        for (int j = 0; j < 4; ++j) p[j] = nrm > 0.0 ? q[4 * b + j] / nrm : NAN;
        cosrod_quat_director(v, p, a - 2);
      }
      for (size_t j = 0; j < pp; ++j) put_tuple(fp, v, nc);
    }
    fputs("        </DataArray>\n", fp);
  }
  fputs("      </PointData>\n", fp);
  /* cell data: verts (nb), lines (3 nb), polys (nt nb) in this order */
  fputs("      <CellData>\n", fp);
  for (int a = 0; a < 2; ++a) {
    fprintf(fp, "        <DataArray type=\"Int64\" Name=\"%s\" format=\"ascii\">\n", a ? "part" : "body");
    for (size_t b = 0; b < nb; ++b) fprintf(fp, "          %zu\n", a ? (size_t)0 : b);
    for (size_t b = 0; b < nb; ++b)
      for (size_t k = 0; k < 3; ++k) fprintf(fp, "          %zu\n", a ? k + 1 : b);
    for (size_t b = 0; b < nb; ++b)
      for (size_t k = 0; k < nt; ++k) fprintf(fp, "          %zu\n", a ? (size_t)4 : b);
    fputs("        </DataArray>\n", fp);
  }
  fputs("      </CellData>\n", fp);
  fputs("      <Points>\n", fp);
  fputs("        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b)
    for (int j = 0; j < (int)pp; ++j) {
      double p[3];
      body_point(x + 3 * b, q + 4 * b, geom + 7 * b, j, p);
      put_tuple(fp, p, 3);
    }
  fputs("        </DataArray>\n      </Points>\n", fp);
  fputs("      <Verts>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b) fprintf(fp, "          %zu\n", b * pp);
  fputs("        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b) fprintf(fp, "          %zu\n", b + 1);
  fputs("        </DataArray>\n      </Verts>\n", fp);
  fputs("      <Lines>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b)
    for (size_t k = 1; k <= 3; ++k) fprintf(fp, "          %zu %zu\n", b * pp, b * pp + k);
  fputs("        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", fp);
  for (size_t c = 1; c <= 3 * nb; ++c) fprintf(fp, "          %zu\n", 2 * c);
  fputs("        </DataArray>\n      </Lines>\n", fp);
  fputs("      <Polys>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", fp);
  for (size_t b = 0; b < nb; ++b)
    for (int k = 0; k < (int)nt; ++k) {
      int v[3];
      body_triangle(k, v);
      size_t o = b * pp + 4;
      fprintf(fp, "          %zu %zu %zu\n", o + (size_t)v[0], o + (size_t)v[1], o + (size_t)v[2]);
    }
  fputs("        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", fp);
  for (size_t c = 1; c <= nt * nb; ++c) fprintf(fp, "          %zu\n", 3 * c);
  fputs("        </DataArray>\n      </Polys>\n", fp);
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
