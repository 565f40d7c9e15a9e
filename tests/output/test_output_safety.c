// SPDX-License-Identifier: Apache-2.0
/* Crash safety and error handling of the output module: a failed,
 * interrupted, abandoned or killed run never leaves a truncated file under a
 * final name; checkpoints publish complete prefixes; unwritable directories
 * and a full disk (RLIMIT_FSIZE) give ERR_IO naming the file; non-finite
 * values are written as documented; frame protocol errors are rejected. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cosrod/output.h"
#include "fixture.h"
#include "harness.h"
#include "outtest.h"

#define N1 4

static cosrod_output *open_run(const char *dir, unsigned files, int vtk, double ckpt) {
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.files = files;
  cfg.vtk = vtk;
  cfg.plots = 0;
  cfg.nrods = 1;
  cfg.t_end = 10;
  cfg.checkpoint_every = ckpt;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  CHECK("create succeeds", out && st == COSROD_OK);
  return out;
}

/* One complete frame f of a single rod with N1 segments, plus energy. */
static cosrod_status put_frame(cosrod_output *out, fx_rod *r, int f) {
  cosrod_status st = cosrod_output_frame_begin(out, fx_time(f));
  fx_rod_fill(r, f, 0);
  cosrod_output_rod_frame fr = fx_rod_frame(r);
  if (st == COSROD_OK) st = cosrod_output_write_rod(out, 0, &fr);
  cosrod_output_energy e = fx_energy(f);
  if (st == COSROD_OK) st = cosrod_output_write_energy(out, &e);
  if (st == COSROD_OK) st = cosrod_output_frame_end(out);
  return st;
}

/* Data rows of a CSV file if every row is complete, else -1 (missing: -2). */
static long csv_rows(const char *dir, const char *name, int ncol) {
  if (!ot_exists(ot_path(dir, name))) return -2;
  char *h;
  double *d;
  long n = ot_csv_read(ot_path(dir, name), &h, &d, ncol);
  free(h);
  free(d);
  return n;
}

static int tmp_files(const char *dir) {
  char vtk[1024];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  return ot_count_suffix(dir, ".tmp") + ot_count_suffix(dir, ".ckpt") + ot_count_suffix(vtk, ".tmp");
}

static jnode *summary(const char *dir) {
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  if (!text) return NULL;
  char err[128];
  jnode *j = json_parse(text, err, sizeof err);
  if (!j) NOTE("summary.json: %s", err);
  free(text);
  return j;
}

static int str_is(const jnode *n, const char *s) { return n && n->type == J_STR && !strcmp(n->str, s); }

/* The solver fails in the middle of an output time: close(FAILED) keeps the
 * three finished output times, drops the half-written fourth, and
 * summary.json says why, when, and what the last state looked like. */
TEST(failure_mid_frame_keeps_complete_frames) {
  char *dir = ot_mkdtemp("fail");
  cosrod_output *out = open_run(dir, 0, 1, 0);
  fx_rod r;
  fx_rod_alloc(&r, N1);
  for (int f = 0; f < 3; ++f) CHECK("frame written", put_frame(out, &r, f) == COSROD_OK);
  for (int i = 0; i < 5; ++i) cosrod_output_write_step(out, 0.1 * i, 0.1, 1);
  cosrod_output_frame_begin(out, fx_time(3));
  cosrod_output_rod_frame fr = fx_rod_frame(&r);
  cosrod_output_write_rod(out, 0, &fr); /* rows of the 4th output time, never finished */
  cosrod_output_write_step(out, 0.5, 1e-12, 0);
  double state[6] = {1, -7.5, 2, NAN, 0, 3};
  double tips[3] = {0.1, 0.2, 0.3};
  cosrod_output_result res = cosrod_output_default_result();
  res.run = COSROD_RUN_FAILED;
  res.code = COSROD_ERR_STEP_TOO_SMALL;
  res.t_reached = 0.55;
  res.t_failed = 0.5500001;
  res.h_last = 1e-12;
  res.last_state = state;
  res.nlast_state = 6;
  res.last_tips = tips;
  CHECK("close returns OK (the files are fine)", cosrod_output_close(out, &res) == COSROD_OK);
  cosrod_output_free(out);
  CHECK_NEAR("centerline.csv rows = 3 finished outputs x 5 vertices", csv_rows(dir, "centerline.csv", 7), 15,
             0);
  CHECK_NEAR("strains.csv rows = 3 x 4 segments", csv_rows(dir, "strains.csv", 10), 12, 0);
  CHECK_NEAR("energy.csv rows", csv_rows(dir, "energy.csv", 7), 3, 0);
  CHECK_NEAR("steps.csv keeps every step row (incl. the rejected one)", csv_rows(dir, "steps.csv", 3), 6, 0);
  char vtk[1024];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  CHECK_NEAR(".vtp files of finished outputs only", ot_count_suffix(vtk, ".vtp"), 3, 0);
  CHECK_NEAR("temporary files left", tmp_files(dir), 0, 0);
  char *pvd = ot_read(ot_path(vtk, "cosrod.pvd"), NULL);
  char err[128];
  CHECK("pvd well-formed", pvd && xml_wellformed(pvd, err, sizeof err));
  free(pvd);
  jnode *j = summary(dir);
  CHECK("status failed", str_is(json_get(j, "status"), "failed"));
  CHECK("reason ERR_STEP_TOO_SMALL", str_is(json_get(j, "reason"), "ERR_STEP_TOO_SMALL"));
  CHECK("message = strerror", str_is(json_get(j, "message"), cosrod_strerror(COSROD_ERR_STEP_TOO_SMALL)));
  CHECK_NEAR("t_failed", json_get(j, "t_failed") ? json_get(j, "t_failed")->num : -1, 0.5500001, 0);
  CHECK_NEAR("t_reached", json_get(j, "t_reached") ? json_get(j, "t_reached")->num : -1, 0.55, 0);
  CHECK_NEAR("outputs", json_get(j, "outputs") ? json_get(j, "outputs")->num : -1, 3, 0);
  const jnode *ls = json_get(j, "last_state");
  CHECK_NEAR("last_state.max_abs = max |finite y_i|",
             json_get(ls, "max_abs") ? json_get(ls, "max_abs")->num : -1, 7.5, 0);
  CHECK_NEAR("last_state.nonfinite", json_get(ls, "nonfinite") ? json_get(ls, "nonfinite")->num : -1, 1, 0);
  const jnode *lt = json_get(ls, "tips");
  CHECK("last_state.tips = given tips",
        lt && lt->n == 1 && lt->items[0]->n == 3 && lt->items[0]->items[2]->num == 0.3);
  /* summary tips are the last finished output time's x_N */
  const jnode *rods = json_get(j, "rods");
  const jnode *tip = rods && rods->n == 1 ? json_get(rods->items[0], "tip") : NULL;
  double want = fx_val(2, 0, N1, 1);
  CHECK("rods[0].tip = x_N of output 3", tip && tip->n == 3 && tip->items[0]->num == want);
  json_free(j);
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

TEST(interrupted_run) {
  char *dir = ot_mkdtemp("int");
  cosrod_output *out = open_run(dir, 0, 0, 0);
  fx_rod r;
  fx_rod_alloc(&r, N1);
  for (int f = 0; f < 2; ++f) put_frame(out, &r, f);
  cosrod_output_result res = cosrod_output_default_result();
  res.run = COSROD_RUN_INTERRUPTED;
  CHECK("close OK", cosrod_output_close(out, &res) == COSROD_OK);
  cosrod_output_free(out);
  jnode *j = summary(dir);
  CHECK("status interrupted", str_is(json_get(j, "status"), "interrupted"));
  CHECK("reason ERR_INTERRUPTED", str_is(json_get(j, "reason"), "ERR_INTERRUPTED"));
  CHECK_NEAR("t_reached = last output", json_get(j, "t_reached") ? json_get(j, "t_reached")->num : -1,
             fx_time(1), 0);
  CHECK_NEAR("centerline rows", csv_rows(dir, "centerline.csv", 7), 10, 0);
  CHECK_NEAR("temporary files left", tmp_files(dir), 0, 0);
  json_free(j);
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

static void put_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  fputs(text, fp);
  fclose(fp);
}

/* free() without close abandons the run: final names keep what they had
 * (here: files of a "previous run"), the temporary files are deleted. */
TEST(abandon_leaves_previous_files) {
  char *dir = ot_mkdtemp("aband");
  const char *prev_csv = "t,rod,vertex,s,x,y,z\n0,0,0,0,1,2,3\n";
  const char *prev_sum = "{\"status\": \"ok\"}\n";
  put_text(ot_path(dir, "centerline.csv"), prev_csv);
  put_text(ot_path(dir, "summary.json"), prev_sum);
  cosrod_output *out = open_run(dir, 0, 1, 0);
  fx_rod r;
  fx_rod_alloc(&r, N1);
  for (int f = 0; f < 3; ++f) put_frame(out, &r, f);
  cosrod_output_frame_begin(out, fx_time(3));
  cosrod_output_rod_frame fr = fx_rod_frame(&r);
  cosrod_output_write_rod(out, 0, &fr);
  cosrod_output_free(out);
  char *a = ot_read(ot_path(dir, "centerline.csv"), NULL), *b = ot_read(ot_path(dir, "summary.json"), NULL);
  CHECK("centerline.csv unchanged", a && !strcmp(a, prev_csv));
  CHECK("summary.json unchanged", b && !strcmp(b, prev_sum));
  CHECK("frames.csv never published", !ot_exists(ot_path(dir, "frames.csv")));
  CHECK_NEAR("temporary files left", tmp_files(dir), 0, 0);
  free(a);
  free(b);
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

/* A hard crash (the process dies without close or free): only the
 * documented ".name.tmp" files exist, holding complete finished outputs;
 * the next run in the same directory overwrites them and leaves none. */
TEST(hard_crash_leaves_only_temp_files) {
  char *dir = ot_mkdtemp("crash");
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    cosrod_output_config cfg = cosrod_output_default_config();
    cfg.plots = 0;
    cfg.nrods = 1;
    cosrod_status st;
    cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
    fx_rod r;
    fx_rod_alloc(&r, N1);
    for (int f = 0; f < 2; ++f) put_frame(out, &r, f);
    cosrod_output_frame_begin(out, fx_time(2));
    cosrod_output_rod_frame fr = fx_rod_frame(&r);
    cosrod_output_write_rod(out, 0, &fr);
    _exit(0); /* like SIGKILL: no close, no free, no stdio flush */
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK("child ran", WIFEXITED(status));
  CHECK("no final centerline.csv", !ot_exists(ot_path(dir, "centerline.csv")));
  CHECK("no summary.json", !ot_exists(ot_path(dir, "summary.json")));
  CHECK_NEAR("temp centerline holds the 2 finished outputs (complete rows)",
             csv_rows(dir, ".centerline.csv.tmp", 7), 10, 0);
  CHECK("the unfinished .vtp temp exists", ot_exists(ot_path(dir, "vtk/.rod0_000002.vtp.tmp")));
  cosrod_output *out = open_run(dir, 0, 1, 0);
  fx_rod r;
  fx_rod_alloc(&r, N1);
  put_frame(out, &r, 0);
  CHECK("close OK", cosrod_output_close(out, NULL) == COSROD_OK);
  cosrod_output_free(out);
  CHECK_NEAR("next run: centerline rows", csv_rows(dir, "centerline.csv", 7), 5, 0);
  CHECK_NEAR("next run: temporary files left", tmp_files(dir), 0, 0);
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

/* A checkpoint publishes complete copies up to the last finished output
 * time and summary.json "running"; abandoning afterwards keeps them. */
TEST(checkpoint_publishes_complete_prefix) {
  char *dir = ot_mkdtemp("ckpt");
  cosrod_output *out = open_run(dir, 0, 1, 0);
  fx_rod r;
  fx_rod_alloc(&r, N1);
  for (int f = 0; f < 2; ++f) put_frame(out, &r, f);
  cosrod_output_frame_begin(out, fx_time(2));
  cosrod_output_rod_frame fr = fx_rod_frame(&r);
  cosrod_output_write_rod(out, 0, &fr); /* unfinished: not in the checkpoint */
  CHECK("checkpoint OK", cosrod_output_checkpoint(out) == COSROD_OK);
  CHECK_NEAR("centerline.csv after checkpoint", csv_rows(dir, "centerline.csv", 7), 10, 0);
  CHECK_NEAR("energy.csv after checkpoint", csv_rows(dir, "energy.csv", 7), 2, 0);
  char vtk[1024], err[128];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  char *pvd = ot_read(ot_path(vtk, "cosrod.pvd"), NULL);
  CHECK("checkpoint pvd well-formed", pvd && xml_wellformed(pvd, err, sizeof err));
  int nds = 0;
  for (const char *p = pvd ? strstr(pvd, "<DataSet") : NULL; p; p = strstr(p + 1, "<DataSet")) nds++;
  CHECK_NEAR("checkpoint pvd lists 2 outputs", nds, 2, 0);
  free(pvd);
  jnode *j = summary(dir);
  CHECK("summary status running", str_is(json_get(j, "status"), "running"));
  json_free(j);
  CHECK("frame continues after the checkpoint", cosrod_output_frame_end(out) == COSROD_OK);
  put_frame(out, &r, 3);
  cosrod_output_free(out); /* abandon */
  CHECK_NEAR("abandoned: centerline.csv = the checkpoint", csv_rows(dir, "centerline.csv", 7), 10, 0);
  CHECK_NEAR("temporary files left", tmp_files(dir), 0, 0);
  /* automatic checkpoints: every frame_end with a tiny interval */
  out = open_run(dir, 0, 0, 1e-9);
  for (int f = 0; f < 3; ++f) {
    put_frame(out, &r, f);
    CHECK_NEAR("auto checkpoint: centerline rows after each output", csv_rows(dir, "centerline.csv", 7),
               5.0 * (f + 1), 0);
  }
  cosrod_output_close(out, NULL);
  cosrod_output_free(out);
  CHECK_NEAR("closed: centerline rows", csv_rows(dir, "centerline.csv", 7), 15, 0);
  CHECK_NEAR("temporary files left", tmp_files(dir), 0, 0);
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

TEST(unwritable_directory_is_err_io) {
  char *dir = ot_mkdtemp("unw");
  const char *file = ot_path(dir, "plain-file");
  put_text(file, "x");
  char sub[1024];
  snprintf(sub, sizeof sub, "%s/out", file); /* a directory below a regular file */
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.nrods = 1;
  cosrod_status st = COSROD_OK;
  cosrod_output *out = cosrod_output_create(sub, &cfg, &st);
  CHECK("create returns NULL", out == NULL);
  CHECK("status ERR_IO", st == COSROD_ERR_IO);
  CHECK("message names the path", strstr(cosrod_last_error(), sub) != NULL);
  NOTE("message: %s", cosrod_last_error());
  /* a read-only file system (independent of root privileges) */
  out = cosrod_output_create("/proc/self/cosrod-out", &cfg, &st);
  CHECK("/proc: NULL and ERR_IO", out == NULL && st == COSROD_ERR_IO);
  CHECK("/proc: message names the path", strstr(cosrod_last_error(), "/proc/self/cosrod-out") != NULL);
  NOTE("message: %s", cosrod_last_error());
  ot_rmtree(dir);
  free(dir);
}

/* Invalid configuration: nothing is created (the directory stays absent). */
TEST(invalid_config_creates_nothing) {
  char *base = ot_mkdtemp("inv");
  const char *dir = ot_path(base, "never");
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.files = 0x8000u;
  cosrod_status st;
  CHECK("bad file bits: NULL", cosrod_output_create(dir, &cfg, &st) == NULL && st == COSROD_ERR_INVALID);
  cfg = cosrod_output_default_config();
  cfg.checkpoint_every = NAN;
  CHECK("NaN checkpoint interval: NULL",
        cosrod_output_create(dir, &cfg, &st) == NULL && st == COSROD_ERR_INVALID);
  CHECK("NULL dir: ERR_INVALID", cosrod_output_create(NULL, &cfg, &st) == NULL && st == COSROD_ERR_INVALID);
  CHECK("directory not created", !ot_exists(dir));
  cosrod_output_free(NULL); /* no-op */
  ot_rmtree(base);
  free(base);
}

/* Disk full, simulated by a file-size limit: the writes fail with ERR_IO
 * naming the file; close cuts the failed file back to the output times that
 * were on disk before the error and publishes it, every file holds the same
 * complete output times, and summary.json records the failure. */
TEST(disk_full_is_err_io) {
  char *dir = ot_mkdtemp("full");
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit old, lim;
  getrlimit(RLIMIT_FSIZE, &old);
  lim = old;
  lim.rlim_cur = 12000;
  CHECK("setrlimit", setrlimit(RLIMIT_FSIZE, &lim) == 0);
  cosrod_output *out = open_run(dir, COSROD_OUTPUT_CENTERLINE | COSROD_OUTPUT_ENERGY, 0, 0);
  fx_rod r;
  fx_rod_alloc(&r, 30); /* ~2 KB per output in centerline.csv */
  cosrod_status st = COSROD_OK;
  int f;
  for (f = 0; f < 50 && st == COSROD_OK; ++f) {
    st = cosrod_output_frame_begin(out, fx_time(f));
    fx_rod_fill(&r, f, 0);
    cosrod_output_rod_frame fr = fx_rod_frame(&r);
    if (st == COSROD_OK) st = cosrod_output_write_rod(out, 0, &fr);
    cosrod_output_energy e = fx_energy(f);
    if (st == COSROD_OK) st = cosrod_output_write_energy(out, &e);
    if (st == COSROD_OK) st = cosrod_output_frame_end(out);
  }
  NOTE("failed at output %d: %s", f - 1, cosrod_output_error(out));
  CHECK("a write failed with ERR_IO", st == COSROD_ERR_IO);
  CHECK("message names centerline.csv", strstr(cosrod_output_error(out), "centerline.csv") != NULL);
  cosrod_output_result res = cosrod_output_default_result();
  res.run = COSROD_RUN_FAILED;
  res.code = st;
  res.message = cosrod_output_error(out);
  cosrod_status cst = cosrod_output_close(out, &res);
  CHECK("close reports ERR_IO", cst == COSROD_ERR_IO);
  NOTE("close: %s", cosrod_output_error(out));
  cosrod_output_free(out);
  setrlimit(RLIMIT_FSIZE, &old);
  /* the output times finished before the failure were flushed: they are kept */
  long done = f - 1;
  CHECK("at least one output finished before the failure", done >= 1);
  CHECK_NEAR("centerline.csv: complete rows of the finished outputs", csv_rows(dir, "centerline.csv", 7),
             31.0 * done, 0);
  CHECK_NEAR("energy.csv: the same output times", csv_rows(dir, "energy.csv", 7), (double)done, 0);
  jnode *j = summary(dir);
  CHECK("summary.json parses", j != NULL);
  const jnode *w = json_get(j, "warnings");
  int found = 0;
  for (size_t i = 0; w && i < w->n; ++i) found |= strstr(w->items[i]->str, "centerline.csv") != NULL;
  CHECK("summary warning names centerline.csv", found);
  CHECK("status failed", str_is(json_get(j, "status"), "failed"));
  CHECK_NEAR("temporary files left", tmp_files(dir), 0, 0);
  json_free(j);
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

/* Non-finite values: CSV/VTK get nan, inf, -inf (strtod reads them back),
 * JSON gets null, and summary.json warns with the count. */
TEST(nonfinite_values_as_documented) {
  char *dir = ot_mkdtemp("nan");
  cosrod_output *out = open_run(dir, 0, 1, 0);
  fx_rod r;
  fx_rod_alloc(&r, N1);
  CHECK("frame 0", put_frame(out, &r, 0) == COSROD_OK);
  cosrod_output_frame_begin(out, 1.0);
  fx_rod_fill(&r, 1, 0);
  r.x[3 * N1 + 0] = NAN;
  r.x[3 * N1 + 1] = INFINITY;
  r.x[3 * N1 + 2] = -INFINITY;
  cosrod_output_rod_frame fr = fx_rod_frame(&r);
  CHECK("write_rod with NaN/Inf OK", cosrod_output_write_rod(out, 0, &fr) == COSROD_OK);
  cosrod_output_energy e = {NAN, 1, 2, 3, 4};
  CHECK("write_energy with NaN OK", cosrod_output_write_energy(out, &e) == COSROD_OK);
  CHECK("frame_end OK", cosrod_output_frame_end(out) == COSROD_OK);
  CHECK("close OK", cosrod_output_close(out, NULL) == COSROD_OK);
  cosrod_output_free(out);
  char *h;
  double *d;
  long rows = ot_csv_read(ot_path(dir, "centerline.csv"), &h, &d, 7);
  CHECK_NEAR("centerline rows", rows, 10, 0);
  if (rows == 10) {
    const double *last = d + 9 * 7;
    CHECK("x = nan reads back as NaN", isnan(last[4]));
    CHECK("y = inf reads back as +Inf", isinf(last[5]) && last[5] > 0);
    CHECK("z = -inf reads back as -Inf", isinf(last[6]) && last[6] < 0);
  }
  free(h);
  free(d);
  char *text = ot_read(ot_path(dir, "centerline.csv"), NULL);
  CHECK("no \"-nan\" token", text && !strstr(text, "-nan"));
  free(text);
  jnode *j = summary(dir);
  CHECK("summary.json parses", j != NULL);
  const jnode *rods = json_get(j, "rods");
  const jnode *tip = rods && rods->n == 1 ? json_get(rods->items[0], "tip") : NULL;
  CHECK("non-finite tip components are null",
        tip && tip->n == 3 && tip->items[0]->type == J_NULL && tip->items[2]->type == J_NULL);
  const jnode *w = json_get(j, "warnings");
  CHECK("warning counts 4 non-finite values", w && w->n >= 1 && strstr(w->items[0]->str, "4 non-finite"));
  const jnode *bf = json_get(json_get(j, "energy"), "balance_final");
  CHECK("balance_final = null", bf && bf->type == J_NULL);
  json_free(j);
  text = ot_read(ot_path(dir, "vtk/rod0_000001.vtp"), NULL);
  char err[128];
  CHECK("vtp with nan still well-formed", text && xml_wellformed(text, err, sizeof err));
  free(text);
  fx_rod_free(&r);
  ot_rmtree(dir);
  free(dir);
}

TEST(frame_protocol_errors) {
  char *dir = ot_mkdtemp("proto");
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.files = COSROD_OUTPUT_CENTERLINE;
  cfg.plots = 0;
  cfg.nrods = 2;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  fx_rod r;
  fx_rod_alloc(&r, N1);
  fx_rod_fill(&r, 0, 0);
  cosrod_output_rod_frame fr = fx_rod_frame(&r);
  CHECK("write_rod outside a frame", cosrod_output_write_rod(out, 0, &fr) == COSROD_ERR_INVALID);
  CHECK("frame_end without begin", cosrod_output_frame_end(out) == COSROD_ERR_INVALID);
  CHECK("frame 0 begin", cosrod_output_frame_begin(out, 0.0) == COSROD_OK);
  CHECK("begin twice", cosrod_output_frame_begin(out, 0.1) == COSROD_ERR_INVALID);
  CHECK("rod 0", cosrod_output_write_rod(out, 0, &fr) == COSROD_OK);
  CHECK("rod 0 twice", cosrod_output_write_rod(out, 0, &fr) == COSROD_ERR_INVALID);
  CHECK("rod 2 out of range", cosrod_output_write_rod(out, 2, &fr) == COSROD_ERR_INVALID);
  cosrod_output_rod_frame bad = fr;
  bad.K = NULL;
  CHECK("NULL array", cosrod_output_write_rod(out, 1, &bad) == COSROD_ERR_INVALID);
  CHECK("missing rod 1: frame discarded", cosrod_output_frame_end(out) == COSROD_ERR_INVALID);
  NOTE("%s", cosrod_output_error(out));
  CHECK("frames after discard", cosrod_output_frames(out) == 0);
  CHECK("frame 0 again", cosrod_output_frame_begin(out, 0.0) == COSROD_OK);
  cosrod_output_write_rod(out, 0, &fr);
  cosrod_output_write_rod(out, 1, &fr);
  CHECK("frame 0 end", cosrod_output_frame_end(out) == COSROD_OK);
  CHECK("t not increasing", cosrod_output_frame_begin(out, 0.0) == COSROD_ERR_INVALID);
  CHECK("t NaN", cosrod_output_frame_begin(out, NAN) == COSROD_ERR_INVALID);
  CHECK("frame 1", cosrod_output_frame_begin(out, 1.0) == COSROD_OK);
  fx_rod r2;
  fx_rod_alloc(&r2, N1 + 1);
  cosrod_output_rod_frame fr2 = fx_rod_frame(&r2);
  CHECK("N changes: ERR_DIMENSION", cosrod_output_write_rod(out, 0, &fr2) == COSROD_ERR_DIMENSION);
  double x[3] = {0}, q[4] = {1, 0, 0, 0};
  CHECK("body index without bodies", cosrod_output_write_body(out, 0, x, q, x, x, 0.0, 0.0) == COSROD_ERR_INVALID);
  CHECK("disabled steps.csv: no-op OK", cosrod_output_write_step(out, 0.0, 0.1, 1) == COSROD_OK);
  CHECK("close with an open frame", cosrod_output_close(out, NULL) == COSROD_OK);
  CHECK("close twice", cosrod_output_close(out, NULL) == COSROD_ERR_INVALID);
  CHECK("write after close", cosrod_output_write_step(out, 0.0, 0.1, 1) == COSROD_ERR_INVALID);
  cosrod_output_free(out);
  CHECK_NEAR("centerline rows = 1 output x 2 rods x 5 vertices", csv_rows(dir, "centerline.csv", 7), 10, 0);
  CHECK("steps.csv not written", !ot_exists(ot_path(dir, "steps.csv")));
  CHECK_NEAR("temporary files left", tmp_files(dir), 0, 0);
  fx_rod_free(&r);
  fx_rod_free(&r2);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {
    TH_CASE(failure_mid_frame_keeps_complete_frames), TH_CASE(interrupted_run),
    TH_CASE(abandon_leaves_previous_files),           TH_CASE(hard_crash_leaves_only_temp_files),
    TH_CASE(checkpoint_publishes_complete_prefix),    TH_CASE(unwritable_directory_is_err_io),
    TH_CASE(invalid_config_creates_nothing),          TH_CASE(disk_full_is_err_io),
    TH_CASE(nonfinite_values_as_documented),          TH_CASE(frame_protocol_errors),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
