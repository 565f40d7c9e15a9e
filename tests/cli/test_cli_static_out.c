// SPDX-License-Identifier: Apache-2.0
/* Output of static and modal runs end to end through the `cosrod` command
 * ([LLA] Test 2): omega-twist field files exactly at the output
 * pseudo-times t = 0, 0.25, ..., 1 with the continuation's increments
 * unchanged by them, symmetry and planarity from centerline.csv, the
 * centerline figure; modal runs: vtk/modes.pvd + mode_<k>.vtp (well-formed,
 * frequencies equal to modes.csv, the cantilever's first mode shape) and
 * plots/modes.png; the output module's choice of snapshot times. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cosrod/output.h"
#include "harness.h"
#include "outtest.h"

#define CLI_TEST_TAG "statout"
#include "cli_test_util.h"

static const double PI = 3.14159265358979323846;

/* Is gnuplot on the PATH? */
static int have_gnuplot(void) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char dir[1024];
  while (*path) {
    size_t n = strcspn(path, ":");
    if (n > 0 && n < sizeof dir - 10) {
      memcpy(dir, path, n);
      dir[n] = '\0';
      strcat(dir, "/gnuplot"); /* not ot_path: its rotating buffers hold the callers' paths */
      if (access(dir, X_OK) == 0) return 1;
    }
    path += n;
    if (*path == ':') path++;
  }
  return 0;
}

/* A PNG file: signature and more than a header's worth of bytes. */
static int is_png(const char *path) {
  size_t len = 0;
  char *d = ot_read(path, &len);
  int ok = d && len > 1000 && !memcmp(d, "\x89PNG\r\n\x1a\n", 8);
  free(d);
  return ok;
}

static long count_substr(const char *text, const char *what) {
  long n = 0;
  for (const char *p = text; p && (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
  return n;
}

/* ---- omega twist ---------------------------------------------------------- */

#define NV 11 /* vertices of the example (N = 10) */

typedef struct omega_out {
  long nc, ni;
  double *c;   /* centerline rows (nc x 7) */
  double *inc; /* increments rows (ni x 3) */
} omega_out;

static int run_omega(const char *dir, const char *const *extra, omega_out *o) {
  const char *args[32] = {"run", ex("omega-twist"), "-o", dir, "-q"};
  int n = 5;
  for (; extra && *extra && n < 30; extra++) args[n++] = *extra;
  args[n] = NULL;
  int rc = cli_run(args);
  char *h = NULL;
  o->nc = ot_csv_read(ot_path(dir, "centerline.csv"), &h, &o->c, 7);
  free(h);
  o->ni = ot_csv_read(ot_path(dir, "increments.csv"), &h, &o->inc, 3);
  free(h);
  return rc;
}

static void omega_free(omega_out *o) {
  free(o->c);
  free(o->inc);
}

/* Field rows exactly at t = 0, 0.25, 0.5, 0.75, 1; at most 25 increments;
 * the half-turn symmetry about the midpoint at every output time and the
 * plane x1 = 0 at t = 1, read back from centerline.csv. */
TEST(omega_fields_at_output_times) {
  char *dir = ot_mkdtemp("omega_q");
  omega_out o = {0};
  const char *extra[] = {"--set", "output.plots=false", NULL};
  int rc = run_omega(dir, extra, &o);
  CHECK("exit 0", rc == 0);
  CHECK("centerline.csv: 5 output times x 11 vertices", o.nc == 5 * NV);
  int exact = o.nc == 5 * NV;
  for (long r = 0; exact && r < o.nc; r++)
    exact = o.c[7 * r] == 0.25 * (double)(r / NV) && o.c[7 * r + 2] == (double)(r % NV);
  CHECK("rows at t = 0, 0.25, 0.5, 0.75, 1 exactly, vertices 0..10 in order", exact);
  /* the other field files: same output times */
  static const char *const files[4] = {"frames.csv", "strains.csv", "curvatures.csv", "energy.csv"};
  static const int ncol[4] = {8, 10, 10, 7}, per_t[4] = {NV - 1, NV - 1, NV, 1};
  for (int f = 0; f < 4; f++) {
    char *h = NULL;
    double *d = NULL;
    long rows = ot_csv_read(ot_path(dir, files[f]), &h, &d, ncol[f]);
    int ok = rows == 5L * per_t[f];
    for (long r = 0; ok && r < rows; r++)
      ok = d[(size_t)ncol[f] * (size_t)r] == 0.25 * (double)(r / per_t[f]);
    NOTE("%s: %ld rows", files[f], rows);
    CHECK(files[f], ok);
    free(h);
    free(d);
  }
  /* increments: t = 0 plus at most 25 ([LLA] Test 2), increasing, to 1 */
  NOTE("increments.csv: %ld rows", o.ni);
  CHECK_LE("converged increments (rows - 1) <= 25", (double)(o.ni - 1), 25.0);
  CHECK("at least one increment", o.ni >= 2);
  int incr = o.ni >= 2 && o.inc[0] == 0.0 && o.inc[3 * (o.ni - 1)] == 1.0;
  for (long r = 1; incr && r < o.ni; r++) incr = o.inc[3 * r] > o.inc[3 * (r - 1)];
  CHECK("increments from t = 0 to t = 1, increasing", incr);
  /* symmetry: x_{N-n} = (-x1, L - x2, x3)(x_n) (half turn about the vertical
   * axis through the midpoint, which maps the boundary data and gravity onto
   * themselves); Newton's scaled residual 1e-9 over stiffnesses ~EI/L^2
   * gives ~1e-9 m, 1e-7 m leaves room for conditioning */
  double sym = 0.0, x1 = 0.0;
  for (long k = 0; exact && k < 5; k++) {
    const double *c = o.c + 7 * NV * k;
    for (int n = 0; n < NV; n++) {
      const double *a = c + 7 * n + 4, *b = c + 7 * (NV - 1 - n) + 4;
      sym = fmax(sym, fmax(fabs(a[0] + b[0]), fmax(fabs(a[1] - (1.0 - b[1])), fabs(a[2] - b[2]))));
      if (k == 4) x1 = fmax(x1, fabs(a[0]));
    }
  }
  CHECK_LE("symmetric about the midpoint at every output time (m)", sym, 1e-7);
  CHECK_LE("t = 1: centerline in the plane x1 = 0 (m)", x1, 1e-7);
  double x1mid = 0.0; /* and not trivially so: out of the plane in between */
  for (int n = 0; exact && n < NV; n++) x1mid = fmax(x1mid, fabs(o.c[7 * (3 * NV + n) + 4]));
  CHECK("t = 0.75: the loop leaves the plane x1 = 0 (> 1 cm)", x1mid > 0.01);
  /* the .pvd lists the 5 output times */
  char *pvd = ot_read(ot_path(ot_path(dir, "vtk"), "cosrod.pvd"), NULL);
  char err[256] = "";
  CHECK("cosrod.pvd well-formed", pvd && xml_wellformed(pvd, err, sizeof err));
  CHECK("cosrod.pvd: 5 datasets, t = 0.25 and 1 among them", pvd && count_substr(pvd, "<DataSet") == 5 &&
                                                                 strstr(pvd, "timestep=\"0.25\"") &&
                                                                 strstr(pvd, "timestep=\"1\""));
  free(pvd);
  omega_free(&o);
  ot_rmtree(dir);
  free(dir);
}

/* The output grid does not change the continuation: increments.csv is
 * identical with every = 0.25 and with the default (the nominal increments),
 * and the states landed on at 0.25 and 0.75 agree with those that a finer
 * continuation (100 increments, which reach the quarters as increments)
 * finds: both solve the same equilibrium equations to the scaled residual
 * 1e-9 (positions ~1e-9 m; 1e-7 m allows for conditioning). */
TEST(omega_output_grid_leaves_the_path_alone) {
  char *d1 = ot_mkdtemp("omega_a"), *d2 = ot_mkdtemp("omega_b"), *d3 = ot_mkdtemp("omega_c");
  omega_out a = {0}, b = {0}, c = {0};
  const char *ea[] = {"--set", "output.plots=false", "--set", "output.vtk=false", NULL};
  const char *eb[] = {"--set", "output.plots=false", "--set", "output.vtk=false",
                      "--set", "output.every=0.04",  NULL};
  const char *ec[] = {"--set", "output.plots=false",      "--set", "output.vtk=false",
                      "--set", "analysis.increments=100", NULL};
  CHECK("every 0.25: exit 0", run_omega(d1, ea, &a) == 0);
  CHECK("every 0.04: exit 0", run_omega(d2, eb, &b) == 0);
  CHECK("100 increments: exit 0", run_omega(d3, ec, &c) == 0);
  NOTE("increments: %ld and %ld rows; frames %ld and %ld rows", a.ni, b.ni, a.nc / NV, b.nc / NV);
  CHECK("every 0.04: a frame per nominal increment (26)", b.nc == 26 * NV);
  int same = a.ni == b.ni && a.ni > 0;
  for (long i = 0; same && i < 3 * a.ni; i++) same = a.inc[i] == b.inc[i];
  CHECK("increments.csv identical (t, iterations, residual)", same);
  CHECK("100 increments: 101 increment rows, 5 output times", c.ni == 101 && c.nc == 5 * NV);
  if (a.nc == 5 * NV && c.nc == 5 * NV) {
    double dmax = 0.0;
    for (long i = 0; i < 5 * NV; i++)
      for (int k = 4; k < 7; k++) dmax = fmax(dmax, fabs(a.c[7 * i + k] - c.c[7 * i + k]));
    CHECK_LE("landed states = states of the finer continuation (m)", dmax, 1e-7);
  }
  omega_free(&a);
  omega_free(&b);
  omega_free(&c);
  ot_rmtree(d1);
  ot_rmtree(d2);
  ot_rmtree(d3);
  free(d1);
  free(d2);
  free(d3);
}

/* plots/centerline.png from centerline.csv: one curve per output time with a
 * legend entry (the script), a PNG when gnuplot exists. */
TEST(omega_centerline_png) {
  char *dir = ot_mkdtemp("omega_png");
  omega_out o = {0};
  CHECK("exit 0", run_omega(dir, NULL, &o) == 0);
  const char *plots = ot_path(dir, "plots");
  char *gp = ot_read(ot_path(plots, "centerline.gp"), NULL);
  CHECK("centerline.gp written", gp != NULL);
  static const char *const tt[5] = {"'t = 0'", "'t = 0.25'", "'t = 0.5'", "'t = 0.75'", "'t = 1'"};
  for (int k = 0; gp && k < 5; k++)
    CHECK("a legend entry per output time, once per panel", count_substr(gp, tt[k]) == 4);
  CHECK("(x2, x3) and (x1, x2) projections",
        gp && strstr(gp, "(x2, x3) plane") && strstr(gp, "(x1, x2) plane"));
  if (have_gnuplot()) {
    CHECK("centerline.png is a non-empty PNG", is_png(ot_path(plots, "centerline.png")));
    CHECK("no gnuplot.log (gnuplot succeeded)", !ot_exists(ot_path(plots, "gnuplot.log")));
  } else {
    NOTE("gnuplot not found: script only");
  }
  free(gp);
  omega_free(&o);
  ot_rmtree(dir);
  free(dir);
}

/* A static run that fails (a shallow clamped arch under a load far beyond
 * its snap-through load: load control stops at the limit point) exits 1 and
 * ends its field files with the last converged increment (t_reached of
 * summary.json, the last row of increments.csv), although that is no output
 * time; before it only t = 0 (the first output time, 0.25, is not reached). */
TEST(static_failure_ends_with_last_converged_state) {
  static const char yaml[] =
      "cosrod: 1\n"
      "title: shallow arch snap-through\n"
      "materials: {steel: {E: 2.1e11, poisson: 0.3, density: 7850}}\n"
      "rods:\n"
      "  - name: arch\n"
      "    segments: 20\n"
      "    material: steel\n"
      "    section: {shape: circle, radius: 2.0e-3}\n"
      "    shape: {type: arc, radius: 1.0, angle_deg: 28.64788975654116, start: [0, 0, 0],\n"
      "            direction: [0.9689124217106447, 0, 0.24740395925452294],\n"
      "            normal: [0.24740395925452294, 0, -0.9689124217106447]}\n"
      "    ends: {start: {type: clamped}, end: {type: clamped}}\n"
      "    loads: [{type: force, at: 10, value: [0, 0, -2000], frame: spatial, ramp: [0, 1]}]\n"
      "analysis: {type: static, increments: 20}\n"
      "output: {every: 0.25, vtk: false, plots: false}\n";
  char *dir = ot_mkdtemp("arch");
  char file[600];
  snprintf(file, sizeof file, "%s.yaml", dir);
  FILE *fp = fopen(file, "w");
  CHECK("scenario written", fp && fputs(yaml, fp) >= 0);
  if (fp) fclose(fp);
  const char *args[] = {"run", file, "-o", dir, "-q", NULL};
  int rc = cli_run(args);
  CHECK("exit 1 (the solver failed)", rc == 1);
  char *h = NULL;
  double *c = NULL, *inc = NULL;
  long nc = ot_csv_read(ot_path(dir, "centerline.csv"), &h, &c, 7);
  free(h);
  long ni = ot_csv_read(ot_path(dir, "increments.csv"), &h, &inc, 3);
  free(h);
  char *text = ot_read(ot_path(dir, "summary.json"), NULL);
  char err[256] = "";
  jnode *j = text ? json_parse(text, err, sizeof err) : NULL;
  const jnode *tr = j ? json_get(j, "t_reached") : NULL;
  const jnode *stn = j ? json_get(j, "status") : NULL;
  double t_reached = tr && tr->type == J_NUM ? tr->num : NAN;
  NOTE("centerline rows %ld, increments %ld, t_reached %.17g", nc, ni, t_reached);
  CHECK("summary: failed", stn && stn->type == J_STR && !strcmp(stn->str, "failed"));
  CHECK("stopped inside (0, 0.25)", t_reached > 0.0 && t_reached < 0.25);
  CHECK("centerline: t = 0 and the last converged state (2 x 21 rows)", nc == 42);
  if (nc == 42 && ni >= 2) {
    CHECK_NEAR("first frame at t = 0", c[0], 0.0, 0.0);
    CHECK_NEAR("last frame at t_reached", c[7 * 21], t_reached, 0.0);
    CHECK_NEAR("= the last row of increments.csv", inc[3 * (ni - 1)], t_reached, 0.0);
    /* the load vertex has moved down under the load (deflection > 0.1 mm) */
    CHECK("last frame is the loaded state", c[7 * 21 + 7 * 10 + 6] < c[7 * 10 + 6] - 1e-4);
  }
  json_free(j);
  free(text);
  free(c);
  free(inc);
  remove(file);
  ot_rmtree(dir);
  free(dir);
}

/* ---- modes ---------------------------------------------------------------- */

/* The rubber rod of LLA Test 1 clamped at s = 0, free at s = L, no gravity:
 * a slender cantilever (L / r = 200). */
static int run_modes(const char *dir, int plots) {
  const char *args[] = {"run",
                        ex("rubber-pendulum"),
                        "-o",
                        dir,
                        "-q",
                        "--set",
                        "analysis={type: modes, count: 4}", /* count = modes reported: 2 pairs */
                        "--set",
                        plots ? "output.plots=true" : "output.plots=false",
                        "--set",
                        "gravity=[0, 0, 0]",
                        "--set",
                        "rods.0.ends.start.type=clamped",
                        NULL};
  return cli_run(args);
}

/* The numbers of a <DataArray Name="name" ...>...</DataArray> (after the
 * first occurrence of the name attribute); count returned, at most cap. */
static int data_array(const char *xml, const char *name, double *v, int cap) {
  char key[96];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  const char *p = xml ? strstr(xml, key) : NULL;
  if (!p || !(p = strchr(p, '>'))) return -1;
  const char *end = strstr(p, "</DataArray>");
  int n = 0;
  p++;
  while (end && p < end) {
    char *q;
    double x = strtod(p, &q);
    if (q == p) break;
    if (n < cap) v[n] = x;
    n++;
    p = q;
  }
  return n;
}

/* modes.pvd lists the `count` files with the frequencies of modes.csv; every
 * .vtp is well-formed XML with 11 points, displacement and rotation arrays of
 * 11 tuples equal to modes.csv's dx..rz, FieldData frequency_hz / omega equal
 * to modes.csv (exactly: both are written to round-trip), and points = the
 * linearisation state (centerline.csv at t = 0). */
TEST(modes_vtk_files) {
  char *dir = ot_mkdtemp("modes_vtk");
  int rc = run_modes(dir, 1);
  CHECK("exit 0", rc == 0);
  char *h = NULL;
  double *m = NULL, *c = NULL;
  long nm = ot_csv_read(ot_path(dir, "modes.csv"), &h, &m, 11);
  free(h);
  long nc = ot_csv_read(ot_path(dir, "centerline.csv"), &h, &c, 7);
  free(h);
  CHECK("modes.csv: 4 modes x 11 vertices; centerline at t = 0", nm == 4 * NV && nc == NV);
  const char *vtk = ot_path(dir, "vtk");
  char *pvd = ot_read(ot_path(vtk, "modes.pvd"), NULL);
  char err[256] = "";
  CHECK("modes.pvd well-formed", pvd && xml_wellformed(pvd, err, sizeof err));
  if (err[0]) NOTE("modes.pvd: %s", err);
  CHECK("modes.pvd lists 4 datasets", pvd && count_substr(pvd, "<DataSet") == 4);
  for (int k = 0; k < 4 && nm == 4 * NV && nc == NV && pvd; k++) {
    char file[32], key[64];
    snprintf(file, sizeof file, "mode_%03d.vtp", k + 1);
    snprintf(key, sizeof key, "file=\"%s\"", file);
    const char *e = strstr(pvd, key);
    const char *fa = e ? strstr(e, "frequency_hz=\"") : NULL;
    double f_pvd = fa ? strtod(fa + 14, NULL) : NAN;
    snprintf(key, sizeof key, "timestep=\"%d\"", k + 1);
    CHECK("pvd entry: timestep = mode number", e && strstr(pvd, key) && strstr(pvd, key) < e);
    const double *row0 = m + 11 * NV * k;
    CHECK("pvd frequency_hz = modes.csv", f_pvd == row0[1]);
    char *x = ot_read(ot_path(vtk, file), NULL);
    err[0] = '\0';
    CHECK("mode .vtp well-formed", x && xml_wellformed(x, err, sizeof err));
    if (err[0]) NOTE("%s: %s", file, err);
    double fv[1], ov[1], mv[1], d[64], r[64], pts[64];
    CHECK("FieldData mode = k", data_array(x, "mode", mv, 1) == 1 && mv[0] == k + 1);
    CHECK("FieldData frequency_hz, omega = modes.csv", data_array(x, "frequency_hz", fv, 1) == 1 &&
                                                           data_array(x, "omega", ov, 1) == 1 &&
                                                           fv[0] == row0[1] && ov[0] == row0[2]);
    CHECK("11 points", x && strstr(x, "NumberOfPoints=\"11\""));
    int nd = data_array(x, "displacement", d, 64), nr = data_array(x, "rotation", r, 64),
        np = data_array(x, "Points", pts, 64);
    CHECK("displacement, rotation, points: 11 x 3 numbers each",
          nd == 3 * NV && nr == 3 * NV && np == 3 * NV);
    int same = nd == 3 * NV && nr == 3 * NV && np == 3 * NV;
    for (int n = 0; same && n < NV; n++)
      for (int j = 0; j < 3; j++)
        same = d[3 * n + j] == row0[11 * n + 5 + j] && r[3 * n + j] == row0[11 * n + 8 + j] &&
               pts[3 * n + j] == c[7 * n + 4 + j];
    CHECK("displacement / rotation = modes.csv, points = centerline at t = 0", same);
    free(x);
  }
  if (have_gnuplot())
    CHECK("plots/modes.png is a non-empty PNG", is_png(ot_path(ot_path(dir, "plots"), "modes.png")));
  /* summary.json: every mode with its frequency, type and degenerate group
   * (the round cantilever's two bending pairs: groups 1, 1, 2, 2) */
  char *sum = ot_read(ot_path(dir, "summary.json"), NULL);
  CHECK("summary.json lists 4 modes with frequency_hz",
        sum && count_substr(sum, "\"frequency_hz\"") == 4 && count_substr(sum, "\"mode\": 4") == 1);
  CHECK("bending types, two of each plane",
        sum && count_substr(sum, "\"type\": \"bending-1\"") == 2 && count_substr(sum, "\"type\": \"bending-2\"") == 2);
  CHECK("groups 1, 1, 2, 2", sum && count_substr(sum, "\"group\": 1") == 2 && count_substr(sum, "\"group\": 2") == 2);
  free(sum);
  free(pvd);
  free(m);
  free(c);
  ot_rmtree(dir);
  free(dir);
}

/* The first mode of the cantilever in its VTK file: zero at the clamped
 * root, growing monotonically to the largest displacement at the tip,
 * transverse (the rod lies along e2), and the Euler-Bernoulli shape
 * cosh bx - cos bx - sig (sinh bx - sin bx), b = 1.8751 / L, normalised at
 * the tip; with N = 10 the discrete shape differs by O(1/N^2) (measured
 * 1.4e-3 of the tip value; bound 1e-2), shear is negligible (L / r = 200). */
TEST(modes_vtk_cantilever_first_mode) {
  char *dir = ot_mkdtemp("modes_shape");
  CHECK("exit 0", run_modes(dir, 0) == 0);
  char *x = ot_read(ot_path(ot_path(dir, "vtk"), "mode_001.vtp"), NULL);
  double d[64], s[64];
  int nd = data_array(x, "displacement", d, 64), ns = data_array(x, "s", s, 64);
  CHECK("displacement and s read", nd == 3 * NV && ns == NV);
  if (nd == 3 * NV && ns == NV) {
    double mag[NV], ax = 0.0;
    for (int n = 0; n < NV; n++) {
      mag[n] = sqrt(d[3 * n] * d[3 * n] + d[3 * n + 2] * d[3 * n + 2]);
      ax = fmax(ax, fabs(d[3 * n + 1]));
    }
    CHECK_NEAR("root (clamped) does not move", mag[0] + fabs(d[1]), 0.0, 0.0);
    int mono = 1;
    for (int n = 1; n < NV; n++) mono = mono && mag[n] > mag[n - 1];
    CHECK("|d| grows monotonically from root to tip (tip largest)", mono);
    /* axial motion is second order for a bending mode: roundoff-level */
    CHECK_LE("axial (e2) component / tip displacement", ax / mag[NV - 1], 1e-6);
    const double b = 1.8751040687119611, L = s[NV - 1];
    double sig = (cosh(b) + cos(b)) / (sinh(b) + sin(b)), err = 0.0;
    double tip = cosh(b) - cos(b) - sig * (sinh(b) - sin(b));
    for (int n = 0; n < NV; n++) {
      double z = b * s[n] / L, w = (cosh(z) - cos(z) - sig * (sinh(z) - sin(z))) / tip;
      err = fmax(err, fabs(mag[n] / mag[NV - 1] - w));
    }
    CHECK_LE("shape = Euler-Bernoulli first mode (max error / tip)", err, 1e-2);
    /* and the frequency in its field data: omega = (b/L)^2 sqrt(EI / rhoA) */
    double f[1];
    double r = 5e-3, E = 5e6, rho = 1100, EI = E * PI * pow(r, 4) / 4, rhoA = rho * PI * r * r;
    double f_eb = b * b / (L * L) * sqrt(EI / rhoA) / (2 * PI);
    CHECK("frequency_hz read", data_array(x, "frequency_hz", f, 1) == 1);
    CHECK_REL("frequency = Euler-Bernoulli (N = 10: O(1/N^2), measured 0.8 %, bound 2 %)", f[0], f_eb, 2e-2);
  }
  free(x);
  ot_rmtree(dir);
  free(dir);
}

/* ---- snapshot times of the centerline figure (output module) -------------- */

/* 200 frames at t = 0..199: the script shows 6 of them, the first and the
 * last included and evenly spread (gaps 199/5 ~ 40 frames, within the
 * stride of the recorded frames: bound 30..50); 5 frames: all of them. */
static void snap_times(int nframes, double *got, int *ngot) {
  char *dir = ot_mkdtemp("snap");
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.nrods = 1;
  cfg.gnuplot = "/nonexistent/gnuplot"; /* scripts only */
  cfg.vtk = 0;
  cfg.t_end = nframes - 1;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  CHECK("create", out != NULL);
  double sv[2] = {0, 1}, x[6] = {0, 0, 0, 0, 0, 1}, sm[1] = {0.5}, p[4] = {1, 0, 0, 0}, z3[3] = {0},
         z6[6] = {0};
  cosrod_output_rod_frame fr = {1, sv, x, sm, p, z3, z3, z6, z6};
  cosrod_output_energy e = {0};
  for (int i = 0; out && i < nframes; i++) {
    cosrod_output_frame_begin(out, (double)i);
    cosrod_output_write_rod(out, 0, &fr);
    cosrod_output_write_energy(out, &e);
    CHECK("frame", cosrod_output_frame_end(out) == COSROD_OK);
  }
  if (out) cosrod_output_close(out, NULL);
  cosrod_output_free(out);
  char *gp = ot_read(ot_path(ot_path(dir, "plots"), "centerline.gp"), NULL);
  *ngot = 0;
  /* legend entries of the first panel: "title 't = <t> s'" */
  const char *q = gp;
  const char *panel_end = gp ? strstr(gp, "set title 'top view") : NULL;
  while (q && (q = strstr(q, "title 't = ")) != NULL && q < panel_end && *ngot < 16) {
    got[(*ngot)++] = strtod(q + 11, NULL);
    q += 11;
  }
  free(gp);
  ot_rmtree(dir);
  free(dir);
}

TEST(centerline_snapshot_times) {
  double t[16];
  int n;
  snap_times(200, t, &n);
  CHECK("200 frames: 6 curves", n == 6);
  if (n == 6) {
    CHECK("first t = 0, last t = 199", t[0] == 0.0 && t[5] == 199.0);
    for (int i = 1; i < 6; i++) {
      CHECK_LE("gap >= 30 frames", 30.0, t[i] - t[i - 1]);
      CHECK_LE("gap <= 50 frames", t[i] - t[i - 1], 50.0);
    }
  }
  snap_times(5, t, &n);
  CHECK("5 frames: all 5 curves, t = 0..4", n == 5 && t[0] == 0 && t[4] == 4);
}

static const th_case cases[] = {TH_CASE(omega_fields_at_output_times),
                                TH_CASE(omega_output_grid_leaves_the_path_alone),
                                TH_CASE(omega_centerline_png),
                                TH_CASE(modes_vtk_files),
                                TH_CASE(static_failure_ends_with_last_converged_state),
                                TH_CASE(modes_vtk_cantilever_first_mode),
                                TH_CASE(centerline_snapshot_times)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
