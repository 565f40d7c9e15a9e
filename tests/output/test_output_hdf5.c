// SPDX-License-Identifier: Apache-2.0
/* HDF5 output (output.format: hdf5, src/output/output_hdf5.c), read back
 * with the HDF5 library itself (this test links it; the module opens it by
 * dlopen): every table holds the written doubles bit for bit, in the CSV's
 * rows and columns (the same run in CSV format, parsed by strtod, gives the
 * identical array), a discarded frame leaves no rows, and a run killed with
 * SIGKILL at a random moment leaves run.h5 readable (SWMR read) with every
 * row up to its last checkpoint intact. */
#define _POSIX_C_SOURCE 200809L
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cosrod/output.h"
#include "fixture.h"
#include "harness.h"
#include "outtest.h"

static const size_t NSEG[2] = {3, 5};

static cosrod_output *open_run(const char *dir, int format, double ckpt) {
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.files = COSROD_OUTPUT_CENTERLINE | COSROD_OUTPUT_FRAMES | COSROD_OUTPUT_STRAINS | COSROD_OUTPUT_CURVATURES |
              COSROD_OUTPUT_ENERGY | COSROD_OUTPUT_STEPS | COSROD_OUTPUT_TIP;
  cfg.vtk = 0;
  cfg.plots = 0;
  cfg.nrods = 2;
  cfg.t_end = 10;
  cfg.format = format;
  cfg.checkpoint_every = ckpt;
  cfg.scenario_text = "cosrod: 1\ntitle: test\n";
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  if (!out) NOTE("create: %s", cosrod_last_error());
  CHECK("create succeeds", out && st == COSROD_OK);
  return out;
}

static cosrod_status put_frame(cosrod_output *out, fx_rod *r, int f, int drop_rod1) {
  cosrod_status st = cosrod_output_frame_begin(out, fx_time(f));
  for (int k = 0; k < 2 && st == COSROD_OK; k++) {
    if (k == 1 && drop_rod1) break;
    fx_rod_fill(&r[k], f, k);
    cosrod_output_rod_frame fr = fx_rod_frame(&r[k]);
    st = cosrod_output_write_rod(out, (size_t)k, &fr);
  }
  cosrod_output_energy e = fx_energy(f);
  if (st == COSROD_OK) st = cosrod_output_write_energy(out, &e);
  if (st == COSROD_OK) st = cosrod_output_frame_end(out);
  if (st == COSROD_OK) st = cosrod_output_write_step(out, fx_time(f), fx_val(f, 7, 0, 0), f % 3 != 0);
  return st;
}

/* Dataset `name` of the file as rows x ncol doubles (malloc'd); rows or -1. */
static long h5_table(hid_t file, const char *name, int ncol, double **data, char **columns) {
  hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
  if (ds < 0) return -1;
  hid_t sp = H5Dget_space(ds);
  hsize_t dims[2] = {0, 0};
  int rank = H5Sget_simple_extent_dims(sp, dims, NULL);
  H5Sclose(sp);
  long rows = rank == 2 && dims[1] == (hsize_t)ncol ? (long)dims[0] : -1;
  *data = malloc((size_t)(rows > 0 ? rows : 1) * (size_t)ncol * sizeof **data);
  if (rows > 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data) < 0) rows = -1;
  if (columns) {
    *columns = NULL;
    hid_t a = H5Aopen(ds, "columns", H5P_DEFAULT);
    if (a >= 0) {
      hid_t ty = H5Aget_type(a);
      size_t n = H5Tget_size(ty);
      *columns = calloc(n + 1, 1);
      H5Aread(a, ty, *columns);
      H5Tclose(ty);
      H5Aclose(a);
    }
  }
  H5Dclose(ds);
  return rows;
}

static int same_bits(const double *a, const double *b, size_t n) { return memcmp(a, b, n * sizeof *a) == 0; }

/* Frames 0..nf-1 (frame `bad` discarded: rod 1 missing), in both formats;
 * the HDF5 tables equal the values written and the parsed CSV files. */
TEST(hdf5_roundtrip_exact) {
  char *dh = ot_mkdtemp("h5"), *dc = ot_mkdtemp("h5csv");
  const int nf = 40, bad = 17;
  fx_rod r[2];
  for (int k = 0; k < 2; k++) fx_rod_alloc(&r[k], NSEG[k]);
  for (int fmt = 0; fmt < 2; fmt++) {
    cosrod_output *out = open_run(fmt ? dh : dc, fmt ? COSROD_OUTPUT_FORMAT_HDF5 : COSROD_OUTPUT_FORMAT_CSV, 0.0);
    if (!out) return;
    for (int f = 0, g = 0; f < nf; f++, g++) {
      cosrod_status st = put_frame(out, r, g, f == bad);
      CHECK("a frame without rod 1 is refused", (f == bad) == (st != COSROD_OK));
      if (f == bad) g--; /* the next frame reuses the discarded frame's data and time */
    }
    CHECK("close", cosrod_output_close(out, NULL) == COSROD_OK);
    cosrod_output_free(out);
  }
  const int nfo = nf - 1;
  CHECK("no CSV table in an HDF5 run", !ot_exists(ot_path(dh, "centerline.csv")));
  hid_t file = H5Fopen(ot_path(dh, "run.h5"), H5F_ACC_RDONLY, H5P_DEFAULT);
  CHECK("run.h5 opens", file >= 0);
  if (file < 0) return;
  static const struct {
    const char *name, *hdr;
    int ncol;
  } tabs[] = {{"centerline", "t,rod,vertex,s,x,y,z", 7},
              {"frames", "t,rod,segment,s,q0,q1,q2,q3", 8},
              {"strains", "t,rod,segment,s,Gamma1,Gamma2,Gamma3,F1,F2,F3", 10},
              {"curvatures", "t,rod,vertex,s,K1,K2,K3,M1,M2,M3", 10},
              {"energy", "t,kinetic,elastic,gravity,external_work,dissipated,balance", 7},
              {"steps", "t,h,accepted", 3},
              {"tip", "t,rod,end,x,y,z,q0,q1,q2,q3", 10}};
  for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++) {
    double *h = NULL, *c = NULL;
    char *cols = NULL, *hdr = NULL, csv[64];
    long nh = h5_table(file, tabs[i].name, tabs[i].ncol, &h, &cols);
    snprintf(csv, sizeof csv, "%s.csv", tabs[i].name);
    long nc = ot_csv_read(ot_path(dc, csv), &hdr, &c, tabs[i].ncol);
    NOTE("%s: %ld HDF5 rows, %ld CSV rows", tabs[i].name, nh, nc);
    CHECK("same row count as the CSV file", nh > 0 && nh == nc);
    CHECK("columns attribute = the CSV header", cols && hdr && !strcmp(cols, hdr) && !strcmp(cols, tabs[i].hdr));
    CHECK("HDF5 = CSV bit for bit", nh > 0 && nh == nc && same_bits(h, c, (size_t)nh * (size_t)tabs[i].ncol));
    if (!strcmp(tabs[i].name, "centerline") && nh == (long)(nfo * 10)) { /* 4 + 6 vertices per frame */
      int ok = 1;
      for (int f = 0, row = 0; f < nfo; f++)
        for (int k = 0; k < 2; k++)
          for (size_t v = 0; v <= NSEG[k]; v++, row++) {
            const double *x = h + 7 * row;
            ok &= x[0] == fx_time(f) && x[1] == k && x[2] == (double)v;
            double s = fx_val(f, k, (int)v, 0), want[3] = {fx_val(f, k, (int)v, 1), fx_val(f, k, (int)v, 2),
                                                          fx_val(f, k, (int)v, 3)};
            ok &= same_bits(x + 3, &s, 1) && same_bits(x + 4, want, 3);
          }
      CHECK("centerline rows = the values written (the discarded frame left none)", ok);
    }
    free(h), free(c), free(cols), free(hdr);
  }
  hid_t a = H5Aopen(file, "summary", H5P_DEFAULT);
  CHECK("summary attribute at close", a >= 0);
  if (a >= 0) H5Aclose(a);
  H5Fclose(file);
  for (int k = 0; k < 2; k++) fx_rod_free(&r[k]);
  ot_rmtree(dh), ot_rmtree(dc);
  free(dh), free(dc);
}

/* A child writes frames and a checkpoint every 4th frame, reporting each
 * checkpoint's frame count on a pipe; it is killed (SIGKILL) at a random
 * moment after a random number of checkpoints.  run.h5 must open (SWMR
 * read) and hold every frame up to the last reported checkpoint exactly;
 * rows after it are either exact or the fill value 0 (extended, not yet
 * written). */
TEST(hdf5_killed_run_readable) {
  srand((unsigned)time(NULL) ^ (unsigned)getpid());
  for (int trial = 0; trial < 3; trial++) {
    char *d = ot_mkdtemp("h5kill");
    int fd[2];
    if (pipe(fd) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      fx_rod r[2];
      for (int k = 0; k < 2; k++) fx_rod_alloc(&r[k], NSEG[k]);
      cosrod_output *out = open_run(d, COSROD_OUTPUT_FORMAT_HDF5, 0.0);
      for (int f = 0; out && f < 1000000; f++) {
        if (put_frame(out, r, f, 0) != COSROD_OK) _exit(3);
        if (f % 4 == 3) {
          if (cosrod_output_checkpoint(out) != COSROD_OK) _exit(4);
          int n = f + 1;
          if (write(fd[1], &n, sizeof n) != (ssize_t)sizeof n) _exit(5);
        }
      }
      _exit(0);
    }
    close(fd[1]);
    int want = 3 + rand() % 40, got = 0, n = 0;
    while (got < want && read(fd[0], &n, sizeof n) == (ssize_t)sizeof n) got++;
    struct timespec ts = {0, (long)(rand() % 3000) * 1000L};
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    int ws;
    waitpid(pid, &ws, 0);
    while (read(fd[0], &n, sizeof n) == (ssize_t)sizeof n) got++; /* checkpoints reported before the kill */
    close(fd[0]);
    CHECK("the child was killed, not finished", WIFSIGNALED(ws));
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
    hid_t file = H5Fopen(ot_path(d, "run.h5"), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
    H5Pclose(fapl);
    CHECK("run.h5 of a killed run opens (SWMR read)", file >= 0);
    if (file >= 0) {
      double *h = NULL;
      long rows = h5_table(file, "centerline", 7, &h, NULL);
      const long per = 10, safe = (long)n * per;
      NOTE("trial %d: killed after %d checkpoints (%d frames): %ld rows on disk, %ld guaranteed", trial, got, n,
           rows, safe);
      CHECK("every checkpointed frame is on disk", rows >= safe);
      int ok = rows >= 0;
      for (long row = 0; ok && row < rows; row++) {
        long f = row / per, w = row % per;
        int k = w < 4 ? 0 : 1;
        long v = k ? w - 4 : w;
        const double *x = h + 7 * row;
        int exact = x[0] == fx_time((int)f) && x[1] == k && x[2] == (double)v;
        double want = fx_val((int)f, k, (int)v, 2);
        exact = exact && same_bits(x + 5, &want, 1);
        int fill = x[0] == 0.0 && x[1] == 0.0 && x[3] == 0.0 && x[6] == 0.0;
        ok = exact || (row >= safe && fill);
        if (!ok) NOTE("row %ld: t = %g, rod %g, vertex %g", row, x[0], x[1], x[2]);
      }
      CHECK("rows are exact (or unwritten fill after the last checkpoint)", ok);
      free(h);
      H5Fclose(file);
    }
    ot_rmtree(d);
    free(d);
  }
}

/* Without a working HDF5 the format is refused at create with a message. */
TEST(hdf5_available) { CHECK("this build writes HDF5", cosrod_output_hdf5_available() == 1); }

int main(int argc, char **argv) {
  static const th_case cases[] = {TH_CASE(hdf5_roundtrip_exact), TH_CASE(hdf5_killed_run_readable),
                                  TH_CASE(hdf5_available)};
  return TH_MAIN(argc, argv, cases);
}
