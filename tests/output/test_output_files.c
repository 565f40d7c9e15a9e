// SPDX-License-Identifier: Apache-2.0
/* Output files of a normal run: [manual: command line, output reference] headers, row counts, bit-exact
 * number round trip, the energy balance column, summary.json contents and
 * JSON string escaping, VTK well-formedness and the .pvd times, gnuplot PNGs.
 * References: the header strings and the balance formula are copied from
 * [manual: command line, output reference]; values are compared with the doubles that were written. */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/output.h"
#include "cosrod/version.h"
#include "fixture.h"
#include "harness.h"
#include "outtest.h"

#define NFRAMES 7
static const size_t rod_n[2] = {3, 5};

/* A complete run: 2 rods, 1 body, NFRAMES frames with energy, 11 steps,
 * 4 increments, 2 x 3 mode rows.  Returns the close status. */
static cosrod_status run_all(const char *dir, int vtk, int plots, const char *gnuplot,
                             cosrod_output_result *res) {
  const char *names[2] = {"left rod", "right \"rod\""};
  const char *bnames[1] = {"top"};
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.files = COSROD_OUTPUT_ALL;
  cfg.vtk = vtk;
  cfg.plots = plots;
  cfg.gnuplot = gnuplot;
  cfg.nrods = 2;
  cfg.rod_names = names;
  cfg.nbodies = 1;
  cfg.body_names = bnames;
  cfg.title = "files test";
  cfg.scenario_file = "examples/x.yaml";
  cfg.integrator = "radau5";
  cfg.t_end = fx_time(NFRAMES - 1);
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  if (!CHECK("create succeeds", out && st == COSROD_OK)) {
    NOTE("create: %s", cosrod_last_error());
    return st;
  }
  fx_rod r[2];
  fx_rod_alloc(&r[0], rod_n[0]);
  fx_rod_alloc(&r[1], rod_n[1]);
  int bad = 0;
  for (int f = 0; f < NFRAMES; ++f) {
    bad |= cosrod_output_frame_begin(out, fx_time(f)) != COSROD_OK;
    for (int k = 1; k >= 0; --k) { /* any order within a frame */
      fx_rod_fill(&r[k], f, k);
      if (k == 0 && f == 0) { /* [manual: examples] frame p = (1,-1,-1,-1)/2, scaled by 2: d1 = e3, d2 = e1, d3 = e2 */
        double p[4] = {1, -1, -1, -1};
        memcpy(r[0].p, p, sizeof p);
      }
      cosrod_output_rod_frame fr = fx_rod_frame(&r[k]);
      bad |= cosrod_output_write_rod(out, (size_t)k, &fr) != COSROD_OK;
    }
    double x[3] = {fx_val(f, 50, 0, 1), fx_val(f, 50, 0, 2), fx_val(f, 50, 0, 3)};
    double q[4] = {1, 0, 0, 0}, om[3] = {fx_val(f, 50, 0, 4), 0.5, -2};
    bad |= cosrod_output_write_body(out, 0, x, q, om, x, 1.0, 2.0) != COSROD_OK;
    cosrod_output_energy e = fx_energy(f);
    bad |= cosrod_output_write_energy(out, &e) != COSROD_OK;
    bad |= cosrod_output_frame_end(out) != COSROD_OK;
  }
  for (int i = 0; i < 11; ++i)
    bad |= cosrod_output_write_step(out, 0.01 * i, 0.01 * (1 + i % 3), i % 4 != 3) != COSROD_OK;
  for (int i = 0; i < 4; ++i)
    bad |= cosrod_output_write_increment(out, 0.25 * (i + 1), 3 + i, 1e-9 / (i + 1));
  for (int m = 1; m <= 2; ++m)
    for (size_t v = 0; v < 3; ++v) {
      double dx[3] = {0.1 * m, 0.2, (double)v}, rx[3] = {0, 1e-3, -1e-3};
      bad |= cosrod_output_write_mode(out, m, 1.5 * m, 3 * m, 0, v, dx, rx) != COSROD_OK;
    }
  CHECK("all writes succeed", !bad);
  if (bad) NOTE("last error: %s", cosrod_output_error(out));
  st = cosrod_output_close(out, res);
  cosrod_output_free(out);
  fx_rod_free(&r[0]);
  fx_rod_free(&r[1]);
  return st;
}

static const char *const spec_headers[][2] = {
    /* [manual: command line, output reference], verbatim */
    {"centerline.csv", "t,rod,vertex,s,x,y,z"},
    {"frames.csv", "t,rod,segment,s,q0,q1,q2,q3"},
    {"strains.csv", "t,rod,segment,s,Gamma1,Gamma2,Gamma3,F1,F2,F3"},
    {"curvatures.csv", "t,rod,vertex,s,K1,K2,K3,M1,M2,M3"},
    {"energy.csv", "t,kinetic,elastic,gravity,external_work,dissipated,balance"},
    {"bodies.csv", "t,body,x,y,z,q0,q1,q2,q3,Omega1,Omega2,Omega3,vx,vy,vz,kinetic,potential"},
    {"steps.csv", "t,h,accepted"},
    {"increments.csv", "t,iterations,residual"},
    /* modal analyses */
    {"modes.csv", "mode,frequency_hz,omega,rod,vertex,dx,dy,dz,rx,ry,rz"},
};

static int count_commas(const char *s) {
  int n = 0;
  for (; *s; ++s) n += *s == ',';
  return n;
}

TEST(headers_and_row_counts) {
  char *dir = ot_mkdtemp("hdr");
  cosrod_status st = run_all(dir, 0, 0, NULL, NULL);
  CHECK("close OK", st == COSROD_OK);
  /* rows = outputs x items ([manual: command line, output reference] long format) */
  const long nv = (long)(rod_n[0] + 1 + rod_n[1] + 1), ns = (long)(rod_n[0] + rod_n[1]);
  const long want_rows[9] = {
      NFRAMES * nv, NFRAMES * ns, NFRAMES * ns, NFRAMES * nv, NFRAMES, NFRAMES, 11, 4, 6};
  for (int i = 0; i < 9; ++i) {
    char *hdr;
    double *data;
    int ncol = count_commas(spec_headers[i][1]) + 1;
    long rows = ot_csv_read(ot_path(dir, spec_headers[i][0]), &hdr, &data, ncol);
    char what[128];
    snprintf(what, sizeof what, "%s header is exactly [manual: command line, output reference]", spec_headers[i][0]);
    CHECK(what, hdr && strcmp(hdr, spec_headers[i][1]) == 0);
    snprintf(what, sizeof what, "%s data rows (every row complete)", spec_headers[i][0]);
    CHECK_NEAR(what, (double)rows, (double)want_rows[i], 0.0);
    free(hdr);
    free(data);
  }
  CHECK("no temporary files left", ot_count_suffix(dir, ".tmp") == 0);
  CHECK("no vtk/ when vtk is off", !ot_exists(ot_path(dir, "vtk")));
  CHECK("no plots/ when plots are off", !ot_exists(ot_path(dir, "plots")));
  ot_rmtree(dir);
  free(dir);
}

/* Every number written reads back (strtod) to the identical double. */
TEST(values_round_trip) {
  char *dir = ot_mkdtemp("rt");
  run_all(dir, 0, 0, NULL, NULL);
  char *hdr;
  double *d;
  long bad = 0, checked = 0;
  /* centerline.csv and curvatures.csv: vertex rows in write order (rod 1 first, then rod 0) */
  for (int file = 0; file < 2; ++file) {
    int ncol = file == 0 ? 7 : 10;
    long rows = ot_csv_read(ot_path(dir, file == 0 ? "centerline.csv" : "curvatures.csv"), &hdr, &d, ncol);
    long r = 0;
    for (int f = 0; f < NFRAMES && rows > 0; ++f)
      for (int k = 1; k >= 0; --k)
        for (size_t n = 0; n <= rod_n[k]; ++n, ++r) {
          const double *row = d + r * ncol;
          bad += row[0] != fx_time(f) || row[1] != k || row[2] != (double)n;
          bad += row[3] != fx_val(f, k, (int)n, 0);
          for (int c = 4; c < ncol; ++c) {
            double want = fx_val(f, k, (int)n, file == 0 ? c - 3 : 31 + (c - 4));
            bad += memcmp(&row[c], &want, sizeof want) != 0; /* bitwise: -0 stays -0 */
            checked++;
          }
        }
    CHECK("vertex files: all rows present", r == rows);
    free(hdr);
    free(d);
  }
  for (int file = 0; file < 2; ++file) {
    int ncol = file == 0 ? 8 : 10;
    long rows = ot_csv_read(ot_path(dir, file == 0 ? "frames.csv" : "strains.csv"), &hdr, &d, ncol);
    long r = 0;
    for (int f = 0; f < NFRAMES && rows > 0; ++f)
      for (int k = 1; k >= 0; --k)
        for (size_t n = 0; n < rod_n[k]; ++n, ++r) {
          const double *row = d + r * ncol;
          bad += row[0] != fx_time(f) || row[1] != k || row[2] != (double)n;
          bad += row[3] != fx_val(f, k, (int)n, 10);
          for (int c = 4; c < ncol; ++c) {
            double want = fx_val(f, k, (int)n, file == 0 ? 11 + (c - 4) : 21 + (c - 4));
            if (file == 0 && f == 0 && k == 0 && n == 0) want = c == 4 ? 1.0 : -1.0;
            bad += memcmp(&row[c], &want, sizeof want) != 0;
            checked++;
          }
        }
    CHECK("segment files: all rows present", r == rows);
    free(hdr);
    free(d);
  }
  NOTE("%ld values compared bit for bit", checked);
  CHECK_NEAR("values that did not round-trip", (double)bad, 0.0, 0.0);
  ot_rmtree(dir);
  free(dir);
}

/* balance = kinetic + elastic + gravity + dissipated - external_work ([manual: command line, output reference]),
 * recomputed here from the terms as written. */
TEST(energy_balance_column) {
  char *dir = ot_mkdtemp("en");
  run_all(dir, 0, 0, NULL, NULL);
  char *hdr;
  double *d;
  long rows = ot_csv_read(ot_path(dir, "energy.csv"), &hdr, &d, 7);
  CHECK_NEAR("energy rows", (double)rows, NFRAMES, 0.0);
  double maxerr = 0.0, b0 = 0.0, maxdrift = 0.0;
  for (long r = 0; r < rows; ++r) {
    const double *e = d + 7 * r;
    cosrod_output_energy w = fx_energy((int)r);
    double want = w.kinetic + w.elastic + w.gravity + w.dissipated - w.external_work;
    CHECK("terms as written", e[1] == w.kinetic && e[2] == w.elastic && e[3] == w.gravity &&
                                  e[4] == w.external_work && e[5] == w.dissipated);
    /* identical expression in the same order: exact up to round-trip (0) */
    if (fabs(e[6] - want) > maxerr) maxerr = fabs(e[6] - want);
    if (r == 0) b0 = want;
    if (fabs(want - b0) > maxdrift) maxdrift = fabs(want - b0);
  }
  CHECK_NEAR("max |balance - (K + E + G + D - W)|", maxerr, 0.0, 0.0);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  jnode *j = json_parse(text, NULL, 0);
  const jnode *en = json_get(j, "energy");
  const jnode *md = json_get(en, "balance_max_drift");
  CHECK("summary energy.balance_max_drift present", md && md->type == J_NUM);
  if (md) CHECK_NEAR("balance_max_drift = max |balance - balance(t0)|", md->num, maxdrift, 0.0);
  json_free(j);
  free(text);
  free(hdr);
  free(d);
  ot_rmtree(dir);
  free(dir);
}

TEST(summary_json_ok) {
  char *dir = ot_mkdtemp("sum");
  cosrod_integrate_stats stats;
  memset(&stats, 0, sizeof stats);
  stats.nfev = 12555, stats.njev = 877, stats.nsteps = 1714, stats.naccept = 1600, stats.nreject = 114;
  stats.ndecomp = 1500, stats.wall_time = 0.5, stats.nconvfail = 37;
  cosrod_output_result res = cosrod_output_default_result();
  res.stats = &stats;
  res.wall_time = 1.25;
  CHECK("close OK", run_all(dir, 0, 0, NULL, &res) == COSROD_OK);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  char err[128];
  jnode *j = json_parse(text, err, sizeof err);
  if (!CHECK("summary.json parses", j != NULL)) NOTE("%s", err);
  const char *keys[] = {"version",   "title", "status", "reason", "t_end",   "t_reached",
                        "wall_time", "stats", "rods",   "files",  "warnings"};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i) {
    char what[64];
    snprintf(what, sizeof what, "key \"%s\" present", keys[i]);
    CHECK(what, json_get(j, keys[i]) != NULL);
  }
  const jnode *s = json_get(j, "status");
  CHECK("status is \"ok\"", s && s->type == J_STR && !strcmp(s->str, "ok"));
  CHECK("reason is null", json_get(j, "reason") && json_get(j, "reason")->type == J_NULL);
  const jnode *v = json_get(j, "version");
  CHECK("version is the library version", v && v->type == J_STR && !strcmp(v->str, COSROD_VERSION_STRING));
  const jnode *st = json_get(j, "stats");
  const char *sk[] = {"nfev", "njev", "nsteps", "naccept", "nreject", "ndecomp"};
  const long sv[] = {12555, 877, 1714, 1600, 114, 1500};
  for (int i = 0; i < 6; ++i) {
    const jnode *n = json_get(st, sk[i]);
    char what[64];
    snprintf(what, sizeof what, "stats.%s as given", sk[i]);
    CHECK_NEAR(what, n ? n->num : -1, (double)sv[i], 0.0);
  }
  const jnode *ncf = json_get(st, "nconvfail");
  CHECK_NEAR("stats.nconvfail (Newton failures) as given", ncf ? ncf->num : -1, 37.0, 0.0);
  const jnode *it = json_get(st, "integrator");
  CHECK("stats.integrator", it && it->type == J_STR && !strcmp(it->str, "radau5"));
  CHECK_NEAR("wall_time as given", json_get(j, "wall_time") ? json_get(j, "wall_time")->num : -1, 1.25, 0.0);
  CHECK_NEAR("t_reached = last output time", json_get(j, "t_reached")->num, fx_time(NFRAMES - 1), 0.0);
  /* final tips = x_N of the last frame, as generated */
  const jnode *rods = json_get(j, "rods");
  CHECK("two rods", rods && rods->type == J_ARR && rods->n == 2);
  for (size_t k = 0; rods && k < rods->n && k < 2; ++k) {
    const jnode *tip = json_get(rods->items[k], "tip");
    double got[3] = {NAN, NAN, NAN}, want[3];
    for (int c = 0; c < 3; ++c) {
      want[c] = fx_val(NFRAMES - 1, (int)k, (int)rod_n[k], 1 + c);
      if (tip && tip->n == 3) got[c] = tip->items[c]->num;
    }
    CHECK_VEC("rod tip = last x_N (exact)", got, want, 3, 0.0, 0.0);
    const jnode *seg = json_get(rods->items[k], "segments");
    CHECK_NEAR("rod segments", seg ? seg->num : -1, (double)rod_n[k], 0.0);
  }
  const jnode *name1 = rods && rods->n == 2 ? json_get(rods->items[1], "name") : NULL;
  CHECK("rod name with quotes round-trips", name1 && !strcmp(name1->str, "right \"rod\""));
  const jnode *files = json_get(j, "files");
  CHECK_NEAR("files.steps.csv rows", json_get(files, "steps.csv") ? json_get(files, "steps.csv")->num : -1,
             11, 0);
  CHECK("no last_state on success", json_get(j, "last_state") == NULL);
  json_free(j);
  free(text);
  ot_rmtree(dir);
  free(dir);
}

/* Titles and messages with quotes, backslashes, control characters,
 * non-ASCII and invalid UTF-8 come out as valid JSON that decodes to the
 * original (invalid bytes as U+FFFD). */
TEST(json_string_escaping) {
  char *dir = ot_mkdtemp("esc");
  const char *title = "a \"quoted\" \\ back\tslash\nnew line \x01\x1f \xce\x93 \xff end";
  const char *want = "a \"quoted\" \\ back\tslash\nnew line \x01\x1f \xce\x93 \xef\xbf\xbd end";
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.vtk = cfg.plots = 0;
  cfg.title = title;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  cosrod_output_result res = cosrod_output_default_result();
  res.run = COSROD_RUN_FAILED;
  res.code = COSROD_ERR_NEWTON;
  res.message = "Newton failed at \"t\" = 1\r\n";
  cosrod_output_close(out, &res);
  cosrod_output_free(out);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  char err[128];
  jnode *j = json_parse(text, err, sizeof err);
  if (!CHECK("summary.json parses", j != NULL)) NOTE("%s", err);
  const jnode *t = json_get(j, "title");
  CHECK("title decodes to the original", t && t->type == J_STR && !strcmp(t->str, want));
  const jnode *m = json_get(j, "message");
  CHECK("message decodes to the original", m && m->type == J_STR && !strcmp(m->str, res.message));
  const jnode *r = json_get(j, "reason");
  CHECK("reason = ERR_NEWTON", r && r->type == J_STR && !strcmp(r->str, "ERR_NEWTON"));
  json_free(j);
  free(text);
  ot_rmtree(dir);
  free(dir);
}

/* Extract the numbers of <DataArray ... Name="name" ...> in a .vtp. */
static int vtp_array(const char *text, const char *name, double *v, int max) {
  char pat[64];
  snprintf(pat, sizeof pat, "Name=\"%s\"", name);
  const char *p = strstr(text, pat);
  if (!p) return -1;
  p = strchr(p, '>') + 1;
  int n = 0;
  while (n < max) {
    char *e;
    double x = strtod(p, &e);
    if (e == p) break;
    v[n++] = x;
    p = e;
  }
  return n;
}

TEST(vtk_wellformed_and_pvd_times) {
  char *dir = ot_mkdtemp("vtk");
  run_all(dir, 1, 0, NULL, NULL);
  char vtk[1024];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  int nvtp = ot_count_suffix(vtk, ".vtp");
  CHECK_NEAR(".vtp files = frames x (rods + bodies file)", nvtp, NFRAMES * 3, 0);
  CHECK("no temporary files in vtk/", ot_count_suffix(vtk, ".tmp") == 0);
  char err[160];
  int bad = 0;
  for (int f = 0; f < NFRAMES; ++f) {
    char name[64];
    for (int k = 0; k < 3; ++k) {
      if (k < 2)
        snprintf(name, sizeof name, "rod%d_%06d.vtp", k, f);
      else
        snprintf(name, sizeof name, "bodies_%06d.vtp", f);
      char *text = ot_read(ot_path(vtk, name), NULL);
      if (!text || !xml_wellformed(text, err, sizeof err)) {
        NOTE("%s: %s", name, text ? err : "missing");
        bad++;
      }
      free(text);
    }
  }
  CHECK_NEAR("malformed or missing .vtp files", bad, 0, 0);
  /* Points of rod 1 at frame 2 = x as written; directors of rod 0, frame 0, segment 0. */
  char *text = ot_read(ot_path(vtk, "rod1_000002.vtp"), NULL);
  double pts[3 * 6], want[3 * 6];
  CHECK_NEAR("rod1 point count", vtp_array(text, "Points", pts, 18), 18, 0);
  for (int i = 0; i < 18; ++i) want[i] = fx_val(2, 1, i / 3, 1 + i % 3);
  CHECK_VEC("rod1 frame 2 points = x (exact)", pts, want, 18, 0.0, 0.0);
  CHECK("rod1 piece: 6 points, 5 line cells",
        strstr(text, "NumberOfPoints=\"6\"") && strstr(text, "NumberOfLines=\"5\""));
  free(text);
  text = ot_read(ot_path(vtk, "rod0_000000.vtp"), NULL);
  const char *dn[3] = {"d1", "d2", "d3"};
  const double de[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}; /* [manual: examples]: d1 = e3, d2 = e1, d3 = e2 */
  for (int k = 0; k < 3; ++k) {
    double d[9];
    vtp_array(text, dn[k], d, 9);
    CHECK_VEC("director of p = (1,-1,-1,-1) (unnormalised) per [manual: examples]", d, de[k], 3, 0.0, 1e-15);
  }
  free(text);
  /* .pvd: well-formed, one DataSet per file, timesteps = the frame times */
  text = ot_read(ot_path(vtk, "cosrod.pvd"), NULL);
  CHECK("cosrod.pvd is well-formed XML", text && xml_wellformed(text, err, sizeof err));
  int nds = 0, badt = 0;
  for (const char *p = text ? strstr(text, "<DataSet") : NULL; p; p = strstr(p + 1, "<DataSet")) {
    const char *ts = strstr(p, "timestep=\"");
    double t = strtod(ts + 10, NULL);
    badt += t != fx_time(nds / 3);
    nds++;
  }
  CHECK_NEAR("pvd DataSets = frames x 3", nds, NFRAMES * 3, 0);
  CHECK_NEAR("pvd timesteps differing from the frame times", badt, 0, 0);
  CHECK("rod names are XML-escaped in the pvd", text && strstr(text, "name=\"right &quot;rod&quot;\""));
  free(text);
  /* a second opinion when libxml2's checker is installed */
  if (system("command -v xmllint >/dev/null 2>&1") == 0) {
    char cmd[3300];
    snprintf(cmd, sizeof cmd, "xmllint --noout '%s/cosrod.pvd' '%s/rod0_000000.vtp' '%s/bodies_000006.vtp'",
             vtk, vtk, vtk);
    CHECK("xmllint accepts the .pvd and .vtp files", system(cmd) == 0);
  } else {
    NOTE("xmllint not installed: own checker only");
  }
  ot_rmtree(dir);
  free(dir);
}

static int is_png(const char *path) {
  size_t n = 0;
  char *b = ot_read(path, &n);
  int ok = b && n > 100 && !memcmp(b, "\x89PNG\r\n\x1a\n", 8);
  free(b);
  return ok;
}

/* On PATH? (the test then expects real PNGs, otherwise the documented warning) */
static int have_gnuplot(void) { return system("command -v gnuplot >/dev/null 2>&1") == 0; }

TEST(plots_png_or_warning) {
  char *base = ot_mkdtemp("plot");
  char *dir = malloc(strlen(base) + 32);
  sprintf(dir, "%s/it's a dir", base); /* quote and space: gnuplot's cd must cope */
  CHECK("close OK", run_all(dir, 0, 1, NULL, NULL) == COSROD_OK);
  char plots[1024];
  snprintf(plots, sizeof plots, "%s/plots", dir);
  CHECK("tip.gp, energy.gp, steps.gp, centerline.gp, bodies.gp written", ot_count_suffix(plots, ".gp") == 5);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  jnode *j = json_parse(text, NULL, 0);
  const jnode *w = json_get(j, "warnings");
  if (have_gnuplot()) {
    CHECK("tip.png is a PNG", is_png(ot_path(plots, "tip.png")));
    CHECK("energy.png is a PNG", is_png(ot_path(plots, "energy.png")));
    CHECK("steps.png is a PNG", is_png(ot_path(plots, "steps.png")));
    CHECK("centerline.png is a PNG", is_png(ot_path(plots, "centerline.png")));
    CHECK("bodies.png is a PNG", is_png(ot_path(plots, "bodies.png")));
    CHECK("no warnings", w && w->n == 0);
    if (w && w->n) NOTE("warning: %s", w->items[0]->str);
  } else {
    NOTE("gnuplot not on PATH: expecting the warning");
    CHECK("warning about gnuplot", w && w->n >= 1 && strstr(w->items[0]->str, "gnuplot not found"));
  }
  CHECK("no temporary files in plots/", ot_count_suffix(plots, ".tmp") == 0);
  json_free(j);
  free(text);
  ot_rmtree(base);
  free(base);
  free(dir);
}

/* A gnuplot that does not exist is a warning, not a failure. */
TEST(plots_missing_gnuplot_is_a_warning) {
  char *dir = ot_mkdtemp("nogp");
  CHECK("close OK", run_all(dir, 0, 1, "/nonexistent/cosrod-gnuplot", NULL) == COSROD_OK);
  char plots[1024];
  snprintf(plots, sizeof plots, "%s/plots", dir);
  CHECK("scripts still written", ot_count_suffix(plots, ".gp") == 5);
  CHECK("no PNG", ot_count_suffix(plots, ".png") == 0);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  jnode *j = json_parse(text, NULL, 0);
  const jnode *w = json_get(j, "warnings");
  CHECK("exactly one warning: gnuplot not found",
        w && w->n == 1 && strstr(w->items[0]->str, "gnuplot not found"));
  const jnode *s = json_get(j, "status");
  CHECK("status still ok", s && !strcmp(s->str, "ok"));
  json_free(j);
  free(text);
  ot_rmtree(dir);
  free(dir);
}

/* A gnuplot that runs but fails (here `false`) is a warning naming the log. */
TEST(plots_failing_gnuplot_is_a_warning) {
  char *dir = ot_mkdtemp("badgp");
  CHECK("close OK", run_all(dir, 0, 1, "false", NULL) == COSROD_OK);
  char plots[1024];
  snprintf(plots, sizeof plots, "%s/plots", dir);
  CHECK("no PNG", ot_count_suffix(plots, ".png") == 0);
  CHECK("gnuplot.log kept", ot_exists(ot_path(plots, "gnuplot.log")));
  CHECK("no temporary files in plots/", ot_count_suffix(plots, ".tmp") == 0);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  jnode *j = json_parse(text, NULL, 0);
  const jnode *w = json_get(j, "warnings");
  CHECK_NEAR("one warning per figure (tip, energy, steps, centerline, bodies)", w ? (double)w->n : -1, 5, 0);
  CHECK("warning names the script and the log",
        w && w->n >= 1 && strstr(w->items[0]->str, "tip.gp") && strstr(w->items[0]->str, "gnuplot.log"));
  json_free(j);
  free(text);
  ot_rmtree(dir);
  free(dir);
}

/* The files use '.' as decimal point even when the program runs in a
 * locale with a decimal comma (de_DE; built with localedef into a scratch
 * LOCPATH when the system has no such locale). */
TEST(c_locale_under_comma_locale) {
  char *loc = ot_mkdtemp("loc");
  int active = setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL;
  if (!active) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1", loc);
    if (system(cmd) == 0) {
      setenv("LOCPATH", loc, 1);
      active = setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL;
    }
  }
  char probe[16];
  snprintf(probe, sizeof probe, "%.1f", 1.5);
  NOTE("process locale: %s, 1.5 prints as %s", active ? "de_DE.UTF-8" : "C (no comma locale available)",
       probe);
  if (active) CHECK("the comma locale is in effect", !strcmp(probe, "1,5"));
  char *dir = ot_mkdtemp("lc");
  cosrod_output_result res = cosrod_output_default_result();
  res.wall_time = 0.5;
  CHECK("close OK", run_all(dir, 1, 0, NULL, &res) == COSROD_OK);
  setlocale(LC_NUMERIC, "C"); /* read back in C */
  char *hdr;
  double *d;
  long rows = ot_csv_read(ot_path(dir, "energy.csv"), &hdr, &d, 7);
  CHECK_NEAR("energy.csv parses in C (7 columns per row)", rows, NFRAMES, 0);
  if (rows > 0) CHECK("t column exact", d[7 * 1] == fx_time(1));
  free(hdr);
  free(d);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  jnode *j = json_parse(text, NULL, 0);
  CHECK("summary.json parses", j != NULL);
  CHECK_NEAR("wall_time 0.5 (not 0,5)", json_get(j, "wall_time") ? json_get(j, "wall_time")->num : -1, 0.5,
             0);
  json_free(j);
  free(text);
  text = ot_read(ot_path(dir, "vtk/rod0_000001.vtp"), NULL);
  char err[128];
  CHECK("vtp well-formed", text && xml_wellformed(text, err, sizeof err));
  free(text);
  ot_rmtree(dir);
  free(dir);
  ot_rmtree(loc);
  free(loc);
}

static const th_case cases[] = {
    TH_CASE(headers_and_row_counts),      TH_CASE(values_round_trip),
    TH_CASE(energy_balance_column),       TH_CASE(summary_json_ok),
    TH_CASE(json_string_escaping),        TH_CASE(vtk_wellformed_and_pvd_times),
    TH_CASE(plots_png_or_warning),        TH_CASE(plots_missing_gnuplot_is_a_warning),
    TH_CASE(c_locale_under_comma_locale), TH_CASE(plots_failing_gnuplot_is_a_warning),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
