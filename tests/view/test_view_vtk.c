// SPDX-License-Identifier: Apache-2.0
/* VTK point data for ParaView's Tube filter (output.h rod_radius): the
 * section radius on every point, axial strain and force averaged from the
 * segments onto the vertices, bending curvature |K1, K2| and twist K3. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cosrod/output.h"
#include "harness.h"

/* The n values of <DataArray Name="name"> in text (returns how many read). */
static int read_array(const char *text, const char *name, double *v, int n) {
  char key[64];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  const char *p = strstr(text, key);
  if (!p) return 0;
  p = strchr(p, '>') + 1;
  int k = 0;
  char *end;
  while (k < n) {
    double x = strtod(p, &end);
    if (end == p) break;
    v[k++] = x;
    p = end;
  }
  return k;
}

TEST(vtk_point_scalars_for_tubes) {
  char tmpl[] = "/tmp/cosrod_vtkr_XXXXXX";
  CHECK("tmp", mkdtemp(tmpl) != NULL);
  cosrod_output_config cfg = cosrod_output_default_config();
  const double radius[1] = {0.0125};
  cfg.nrods = 1;
  cfg.plots = 0;
  cfg.rod_radius = radius;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(tmpl, &cfg, &st);
  CHECK("created", out != NULL);
  double sv[3] = {0, 0.5, 1}, x[9] = {0, 0, 0, 0, 0.5, 0, 0, 1, 0}, sm[2] = {0.25, 0.75};
  double p[8] = {1, 0, 0, 0, 1, 0, 0, 0}, g[6] = {0, 0, 0.01, 0, 0, 0.03}, F[6] = {0, 0, 2, 0, 0, 6};
  double K[9] = {3, 4, 0.1, 0, 0, 0.2, 0.6, 0.8, 0.3}, M[9] = {0};
  cosrod_output_rod_frame fr = {2, sv, x, sm, p, g, F, K, M};
  CHECK("frame", cosrod_output_frame_begin(out, 0.0) == COSROD_OK && cosrod_output_write_rod(out, 0, &fr) == COSROD_OK &&
                     cosrod_output_frame_end(out) == COSROD_OK);
  cosrod_output_result res = cosrod_output_default_result();
  CHECK("closed", cosrod_output_close(out, &res) == COSROD_OK);
  cosrod_output_free(out);
  char path[256];
  snprintf(path, sizeof path, "%s/vtk/rod0_000000.vtp", tmpl);
  FILE *f = fopen(path, "r");
  CHECK("vtp written", f != NULL);
  if (!f) return;
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  double v[3];
  CHECK("radius: 3 points", read_array(text, "radius", v, 3) == 3);
  for (int k = 0; k < 3; k++) CHECK_NEAR("radius", v[k], 0.0125, 0.0);
  CHECK("axial_strain", read_array(text, "axial_strain", v, 3) == 3);
  CHECK_NEAR("ends take their segment's, the middle the mean", v[0] + 10 * v[1] + 100 * v[2], 0.01 + 0.2 + 3.0, 1e-14);
  CHECK("axial_force", read_array(text, "axial_force", v, 3) == 3);
  CHECK_NEAR("F3 at the vertices 2, 4, 6", v[0] + 10 * v[1] + 100 * v[2], 2 + 40 + 600, 1e-12);
  CHECK("bending_curvature", read_array(text, "bending_curvature", v, 3) == 3);
  CHECK_NEAR("|K1, K2| = 5, 0, 1", v[0] + 10 * v[1] + 100 * v[2], 5 + 0 + 100, 1e-12);
  CHECK("twist", read_array(text, "twist", v, 3) == 3);
  CHECK_NEAR("K3", v[2], 0.3, 1e-15);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
  CHECK("cleanup", system(cmd) == 0);
}

static const th_case cases[] = {TH_CASE(vtk_point_scalars_for_tubes)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
