// SPDX-License-Identifier: Apache-2.0
/* Output folder policy (output_clean.c): after close the folder
 * holds only this run's files under cosrod's names.  An earlier modal run's
 * modes.csv / modes.pvd / mode_*.vtp, an earlier longer run's extra VTK
 * frames, a second rod's frames and stale plots are removed; this run's
 * files and foreign files (notes.txt, vtk/other.vtp) stay. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cosrod/output.h"
#include "fixture.h"
#include "harness.h"
#include "outtest.h"

#define N1 4

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

TEST(previous_run_files_removed_at_close) {
  char *dir = ot_mkdtemp("clean");
  char vtk[1024], plots[1024];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  snprintf(plots, sizeof plots, "%s/plots", dir);
  mkdir(vtk, 0777);
  mkdir(plots, 0777);
  /* an earlier modal run with 3 modes, and an earlier longer run of two rods */
  put(ot_path(dir, "modes.csv"), "mode,freq\n1,2\n");
  put(ot_path(dir, "increments.csv"), "t\n0\n");
  put(ot_path(vtk, "modes.pvd"), "<x/>\n");
  put(ot_path(vtk, "mode_001.vtp"), "<x/>\n");
  put(ot_path(vtk, "mode_003.vtp"), "<x/>\n");
  put(ot_path(vtk, "rod0_000007.vtp"), "<x/>\n");
  put(ot_path(vtk, "rod1_000001.vtp"), "<x/>\n");
  put(ot_path(plots, "modes.png"), "png");
  put(ot_path(plots, "modes.gp"), "gp");
  /* foreign files */
  put(ot_path(dir, "notes.txt"), "mine\n");
  put(ot_path(vtk, "other.vtp"), "<x/>\n");

  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.vtk = 1;
  cfg.plots = 0;
  cfg.nrods = 1;
  cfg.t_end = 1;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  CHECK("create", out != NULL);
  if (!out) return;
  fx_rod r;
  fx_rod_alloc(&r, N1);
  for (int f = 0; f < 3; ++f) {
    cosrod_output_frame_begin(out, fx_time(f));
    fx_rod_fill(&r, f, 0);
    cosrod_output_rod_frame fr = fx_rod_frame(&r);
    cosrod_output_write_rod(out, 0, &fr);
    cosrod_output_energy e = fx_energy(f);
    cosrod_output_write_energy(out, &e);
    st = cosrod_output_frame_end(out);
  }
  CHECK("frames written", st == COSROD_OK);
  /* before close nothing of the earlier run is gone (a crash keeps it) */
  CHECK("modes.csv still there before close", ot_exists(ot_path(dir, "modes.csv")));
  cosrod_output_result res = cosrod_output_default_result();
  res.run = COSROD_RUN_OK;
  CHECK("close", cosrod_output_close(out, &res) == COSROD_OK);
  cosrod_output_free(out);
  CHECK("stale modes.csv removed", !ot_exists(ot_path(dir, "modes.csv")));
  CHECK("stale increments.csv removed", !ot_exists(ot_path(dir, "increments.csv")));
  CHECK("stale modes.pvd removed", !ot_exists(ot_path(vtk, "modes.pvd")));
  CHECK("stale mode_001.vtp, mode_003.vtp removed",
        !ot_exists(ot_path(vtk, "mode_001.vtp")) && !ot_exists(ot_path(vtk, "mode_003.vtp")));
  CHECK("frame 7 of the longer run removed", !ot_exists(ot_path(vtk, "rod0_000007.vtp")));
  CHECK("second rod's frame removed", !ot_exists(ot_path(vtk, "rod1_000001.vtp")));
  CHECK("stale plots removed",
        !ot_exists(ot_path(plots, "modes.png")) && !ot_exists(ot_path(plots, "modes.gp")));
  CHECK("this run's frames 0..2 kept",
        ot_exists(ot_path(vtk, "rod0_000000.vtp")) && ot_exists(ot_path(vtk, "rod0_000002.vtp")));
  CHECK("this run's tables kept", ot_exists(ot_path(dir, "centerline.csv")) &&
                                      ot_exists(ot_path(dir, "summary.json")) &&
                                      ot_exists(ot_path(vtk, "cosrod.pvd")));
  CHECK("foreign files kept", ot_exists(ot_path(dir, "notes.txt")) && ot_exists(ot_path(vtk, "other.vtp")));
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(previous_run_files_removed_at_close)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
