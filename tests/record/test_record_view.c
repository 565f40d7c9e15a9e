// SPDX-License-Identifier: Apache-2.0
/* What the recorder writes for the viewer and ParaView about sections and
 * modes ([manual: output reference]):
 *  - a rod without a section (stiffness values given) is drawn with the
 *    display radius of the solid circle with the same I / A = r^2 / 4,
 *    r = 2 sqrt(EI / EA), EI = sqrt(EI1 EI2) (closed form), marked derived in
 *    scene.json and in the VTK field data;
 *  - the VTK files carry the section shape: code, half widths along d1, d2,
 *    inner radius and d1 at the vertices (= the scenario's normal of a
 *    straight rod);
 *  - a mode of two rods hanging a rigid body moves both rods: modes.csv has
 *    rows of both, and each rod's vertex on the body moves rigidly with it
 *    (d = dx_body + w x (x_a - x_b), r = w at a clamped end: kinematics);
 *    two separate rods' modes move one rod only;
 *  - scene.json written again with the same text is left as it is (same
 *    inode: not replaced), with another text replaced by it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cosrod/record.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "record/record_scene.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = malloc((size_t)n + 1);
  size_t got = s ? fread(s, 1, (size_t)n, f) : 0;
  if (s) s[got] = '\0';
  fclose(f);
  return s;
}

/* The first k numbers of the VTK DataArray named name (k <= 8); -1 if absent. */
static int vtk_array(const char *text, const char *name, double *v, int k) {
  char key[96];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  const char *p = text ? strstr(text, key) : NULL;
  if (!p || !(p = strchr(p, '>'))) return -1;
  p++;
  for (int i = 0; i < k; i++) {
    char *end;
    v[i] = strtod(p, &end);
    if (end == p) return -1;
    p = end;
  }
  return 0;
}

static cosrod_scenario *parse(const char *text) {
  cosrod_scenario *sc = cosrod_scenario_parse(text, strlen(text), "view.yaml", NULL, 0, NULL);
  if (!sc) NOTE("%s", cosrod_last_error());
  return sc;
}

/* Recorder over sim: run it (ran = 1) or write the frame at t = 0 only. */
static int record(cosrod_sim *sim, const char *dir, int ran) {
  cosrod_status st;
  cosrod_recorder *rec = cosrod_recorder_create(sim, dir, "view.yaml", 0, &st);
  if (!rec) {
    NOTE("%s", cosrod_last_error());
    return -1;
  }
  cosrod_status run = COSROD_OK;
  if (ran) {
    cosrod_sim_observer obs = cosrod_recorder_observer(rec, NULL);
    run = cosrod_sim_run(sim, &obs);
  } else if (cosrod_recorder_frame(rec, sim, 0.0) != 0) {
    run = COSROD_ERR_IO;
  }
  cosrod_record_end end;
  cosrod_recorder_finish(rec, sim, run, 0.0, NULL, &end);
  cosrod_recorder_free(rec);
  return run == COSROD_OK ? 0 : -1;
}

static const char *ROD_STIFF =
    "cosrod: 1\n"
    "rods:\n"
    "  - name: beam\n"
    "    length: 2.0\n"
    "    segments: 4\n"
    "    stiffness: {EA: 4.0e6, GA1: 1.0e6, GA2: 1.0e6, EI1: 8.0, EI2: 2.0, GJ: 3.0}\n"
    "    inertia: {rhoA: 1.0, rhoI1: 1.0e-6, rhoI2: 1.0e-6, rhoJ: 2.0e-6}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 1, 0]}\n"
    "  - name: bar\n"
    "    length: 1.0\n"
    "    segments: 3\n"
    "    material: {E: 2.0e11, poisson: 0.3, density: 7800}\n"
    "    section: {shape: rectangle, width: 0.04, height: 0.02}\n"
    "    shape: {type: straight, start: [0, 1, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "  - name: pipe\n"
    "    length: 1.0\n"
    "    segments: 3\n"
    "    material: {E: 2.0e11, poisson: 0.3, density: 7800}\n"
    "    section: {shape: tube, outer_radius: 0.03, inner_radius: 0.02}\n"
    "    shape: {type: straight, start: [0, 2, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "gravity: [0, 0, 0]\n"
    "analysis: {type: dynamic, t_end: 1.0e-3}\n"
    "output: {vtk: true, plots: false}\n";

TEST(display_radius_and_section_arrays) {
  cosrod_scenario *sc = parse(ROD_STIFF);
  CHECK("scenario", sc != NULL);
  if (!sc) return;
  /* closed form: EI = sqrt(8 * 2) = 4, r = 2 sqrt(4 / 4e6) = 2e-3 */
  int derived = -1;
  CHECK_REL("display radius 2 sqrt(EI/EA)", record_rod_radius(&sc->rods[0], &derived), 2.0e-3, 1e-15);
  CHECK("marked derived", derived == 1);
  CHECK_REL("a rectangle keeps its half diagonal", record_rod_radius(&sc->rods[1], &derived), 0.5 * hypot(0.04, 0.02),
            1e-15);
  CHECK("a given section is not derived", derived == 0);
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) NOTE("%s", cosrod_last_error());
  CHECK("sim", sim != NULL);
  if (sim) CHECK("recorded", record(sim, "rec_view_out", 0) == 0);
  char *js = slurp("rec_view_out/scene.json");
  CHECK("scene.json: the display radius, marked derived",
        js && strstr(js, "{\"shape\": \"circle\", \"radius\": 0.002, \"area\": 0, \"derived\": \"2 sqrt(EI / EA)\"}"));
  free(js);
  double v[8];
  char *t0 = slurp("rec_view_out/vtk/rod0_000000.vtp");
  CHECK("rod 0: radius = 2e-3 at the vertices", vtk_array(t0, "radius", v, 5) == 0 && v[0] == 2.0e-3 && v[4] == 2.0e-3);
  CHECK("rod 0: radius_derived 1, section_shape circle",
        vtk_array(t0, "radius_derived", v, 1) == 0 && v[0] == 1 && vtk_array(t0, "section_shape", v + 1, 1) == 0 &&
            v[1] == COSROD_OUTPUT_SECTION_CIRCLE);
  CHECK("rod 0: half widths r, r", vtk_array(t0, "section_half_widths", v, 2) == 0 && v[0] == 2.0e-3 && v[1] == 2.0e-3);
  free(t0);
  char *t1 = slurp("rec_view_out/vtk/rod1_000000.vtp");
  CHECK("rod 1: rectangle, not derived", vtk_array(t1, "section_shape", v, 1) == 0 &&
                                             v[0] == COSROD_OUTPUT_SECTION_RECTANGLE &&
                                             vtk_array(t1, "radius_derived", v + 1, 1) == 0 && v[1] == 0);
  CHECK("rod 1: half widths 0.02 along d1, 0.01 along d2",
        vtk_array(t1, "section_half_widths", v, 2) == 0 && v[0] == 0.02 && v[1] == 0.01);
  CHECK("rod 1: inner radius 0", vtk_array(t1, "section_inner_radius", v, 1) == 0 && v[0] == 0.0);
  if (vtk_array(t1, "section_d1", v, 6) == 0) { /* the first two vertices: d1 = the scenario's normal e3 */
    const double e3[6] = {0, 0, 1, 0, 0, 1};
    CHECK_VEC("rod 1: section_d1 = normal", v, e3, 6, 0.0, 1e-12);
  } else {
    CHECK("rod 1: section_d1 present", 0);
  }
  free(t1);
  char *t2 = slurp("rec_view_out/vtk/rod2_000000.vtp");
  CHECK("rod 2: tube, outer 0.03, inner 0.02",
        vtk_array(t2, "section_shape", v, 1) == 0 && v[0] == COSROD_OUTPUT_SECTION_TUBE &&
            vtk_array(t2, "section_half_widths", v + 1, 2) == 0 && v[1] == 0.03 && v[2] == 0.03 &&
            vtk_array(t2, "section_inner_radius", v + 3, 1) == 0 && v[3] == 0.02);
  free(t2);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Two cables (8 and 6 segments) hanging one body at arms (-+0.1, 0, 0.05). */
static const char *TWO =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  nylon: {E: 2.0e9, poisson: 0.4, density: 1140}\n"
    "rods:\n"
    "  - {name: left, length: 1.0, segments: 8, material: nylon, section: {shape: circle, radius: 2.0e-3},\n"
    "     shape: {type: straight, start: [-0.1, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]},\n"
    "     ends: {start: {type: clamped}, end: {type: clamped, body: bob, at: [-0.1, 0, 0.05]}}}\n"
    "  - {name: right, length: 1.0, segments: 6, material: nylon, section: {shape: circle, radius: 2.0e-3},\n"
    "     shape: {type: straight, start: [0.1, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]},\n"
    "     ends: {start: {type: clamped}, end: {type: clamped, body: bob, at: [0.1, 0, 0.05]}}}\n"
    "bodies:\n"
    "  - {name: bob, mass: 1.0, inertia: [2.0e-3, 2.0e-3, 1.0e-3], position: [0, 0, -1.05]}\n"
    "analysis: {type: modes, count: 4}\n"
    "output: {vtk: false, plots: false}\n";

/* Rows per (mode, rod) of modes.csv (modes 1..4, rods 0..1). */
static int count_rows(const char *path, int rows[4][2]) {
  char *txt = slurp(path);
  if (!txt) return -1;
  memset(rows, 0, sizeof(int[4][2]));
  const char *p = strchr(txt, '\n');
  while (p && p[1]) {
    int mode, rod;
    double f, om;
    if (sscanf(p + 1, "%d,%lf,%lf,%d", &mode, &f, &om, &rod) == 4 && mode >= 1 && mode <= 4 && rod >= 0 && rod <= 1)
      rows[mode - 1][rod]++;
    p = strchr(p + 1, '\n');
  }
  free(txt);
  return 0;
}

TEST(modes_of_coupled_rods) {
  cosrod_scenario *sc = parse(TWO);
  CHECK("scenario", sc != NULL);
  if (!sc) return;
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) NOTE("%s", cosrod_last_error());
  CHECK("sim", sim != NULL);
  if (!sim) {
    cosrod_scenario_free(sc);
    return;
  }
  CHECK("modal run recorded", record(sim, "rec_view_modes", 1) == 0);
  const int nm = cosrod_sim_nmodes(sim);
  CHECK("4 modes", nm == 4);
  const int nseg[2] = {8, 6};
  const double arm[2][3] = {{-0.1, 0, 0.05}, {0.1, 0, 0.05}};
  for (int i = 0; i < nm; i++) {
    double d[3], w[3];
    CHECK("body part", cosrod_sim_mode_body(sim, i, 0, d, w) == COSROD_OK);
    double scale = 0.0;
    for (int r = 0; r < 2; r++) {
      const double *sh = NULL;
      CHECK("rod part", cosrod_sim_mode_rod_shape(sim, i, (size_t)r, &sh) == COSROD_OK && sh);
      if (!sh) continue;
      for (int k = 0; k < 6 * (nseg[r] + 1); k++) scale = fmax(scale, fabs(sh[k]));
      /* the end vertex on the body: dx_body + w x arm (body frame = spatial: no rotation at rest) */
      const double *v = sh + 6 * nseg[r];
      double want[3] = {d[0] + w[1] * arm[r][2] - w[2] * arm[r][1], d[1] + w[2] * arm[r][0] - w[0] * arm[r][2],
                        d[2] + w[0] * arm[r][1] - w[1] * arm[r][0]};
      CHECK_VEC("rod end moves with the body", v, want, 3, 0.0, 1e-9 * (1.0 + scale));
      CHECK_VEC("clamped rod end turns with the body", v + 3, w, 3, 0.0, 1e-9 * (1.0 + scale));
    }
    CHECK("the mode moves", scale > 0.0);
  }
  int rows[4][2];
  CHECK("modes.csv", count_rows("rec_view_modes/modes.csv", rows) == 0);
  for (int m = 0; m < 4; m++)
    CHECK("modes.csv: both rods' vertices in every mode", rows[m][0] == 9 && rows[m][1] == 7);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  /* the same rods without the body: separate modes, one rod each */
  static const char *SEP =
      "cosrod: 1\n"
      "gravity: [0, 0, -9.81]\n"
      "rods:\n"
      "  - {name: a, length: 1.0, segments: 8, material: {E: 2.0e9, poisson: 0.4, density: 1140},\n"
      "     section: {shape: circle, radius: 2.0e-3},\n"
      "     shape: {type: straight, start: [-0.1, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]},\n"
      "     ends: {start: {type: pinned}}}\n"
      "  - {name: b, length: 0.7, segments: 6, material: {E: 2.0e9, poisson: 0.4, density: 1140},\n"
      "     section: {shape: circle, radius: 2.0e-3},\n"
      "     shape: {type: straight, start: [0.1, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]},\n"
      "     ends: {start: {type: pinned}}}\n"
      "analysis: {type: modes, count: 2}\n"
      "output: {vtk: false, plots: false}\n";
  sc = parse(SEP);
  sim = sc ? cosrod_sim_create(sc, &st) : NULL;
  CHECK("separate rods", sim != NULL);
  if (sim && cosrod_sim_run(sim, NULL) == COSROD_OK) {
    for (int i = 0; i < cosrod_sim_nmodes(sim); i++) {
      const size_t own = cosrod_sim_mode_rod(sim, i);
      const double *sh = NULL;
      CHECK("own rod: its shape", cosrod_sim_mode_rod_shape(sim, i, own, &sh) == COSROD_OK && sh);
      CHECK("the other rod: none", cosrod_sim_mode_rod_shape(sim, i, 1 - own, &sh) == COSROD_OK && !sh);
    }
    const double *sh;
    CHECK("bad rod index", cosrod_sim_mode_rod_shape(sim, 0, 2, &sh) == COSROD_ERR_INVALID);
  } else {
    CHECK("separate rods: modal run", 0);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Buckling of two separate rods (one system, one eigenproblem): each mode's
 * other rod is round-off, and buckling.csv lists the mode's rod only. */
TEST(buckling_of_separate_rods_lists_one_rod) {
  static const char *BK =
      "cosrod: 1\n"
      "gravity: [0, 0, 0]\n"
      "rods:\n"
      "  - {name: pole, length: 1.0, segments: 8, material: {E: 2.1e11, poisson: 0.3, density: 7850},\n"
      "     section: {shape: circle, radius: 0.005},\n"
      "     shape: {type: straight, start: [0, 0, 0], direction: [0, 0, 1], normal: [1, 0, 0]},\n"
      "     ends: {start: {type: clamped}}, loads: [{type: force, at: end, value: [0, 0, -1.0], frame: spatial}]}\n"
      "  - {name: strut, length: 1.0, segments: 6, material: {E: 2.1e11, poisson: 0.3, density: 7850},\n"
      "     section: {shape: circle, radius: 0.005},\n"
      "     shape: {type: straight, start: [0.5, 0, 0], direction: [0, 0, 1], normal: [1, 0, 0]},\n"
      "     ends: {start: {type: pinned}, end: {type: pinned, slides_along: [0, 0, 1]}},\n"
      "     loads: [{type: force, at: end, value: [0, 0, -1.0], frame: spatial}]}\n"
      "analysis: {type: buckling, count: 4}\n"
      "output: {vtk: false, plots: false}\n";
  cosrod_scenario *sc = parse(BK);
  cosrod_status st;
  cosrod_sim *sim = sc ? cosrod_sim_create(sc, &st) : NULL;
  if (!sim) NOTE("%s", cosrod_last_error());
  CHECK("buckling sim", sim != NULL);
  if (sim) CHECK("buckling run recorded", record(sim, "rec_view_buckling", 1) == 0);
  char *txt = slurp("rec_view_buckling/buckling.csv");
  CHECK("buckling.csv", txt != NULL);
  int rows[4][2] = {{0}}, nm = sim ? cosrod_sim_nmodes(sim) : 0;
  for (const char *p = txt ? strchr(txt, '\n') : NULL; p && p[1]; p = strchr(p + 1, '\n')) {
    int mode, rod;
    double lf;
    if (sscanf(p + 1, "%d,%lf,%d", &mode, &lf, &rod) == 3 && mode >= 1 && mode <= 4 && rod >= 0 && rod <= 1)
      rows[mode - 1][rod]++;
  }
  CHECK("4 modes", nm == 4);
  for (int i = 0; i < nm && i < 4; i++) {
    const int r = (int)cosrod_sim_mode_rod(sim, i), nv = r == 0 ? 9 : 7;
    CHECK("the mode's rod only", rows[i][r] == nv && rows[i][1 - r] == 0);
  }
  free(txt);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static long inode_of(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (long)sb.st_ino : -1;
}

TEST(scene_json_kept_when_unchanged) {
  const char *yaml = "cosrod: 1\n"
                     "rods:\n"
                     "  - name: r\n"
                     "    length: 1.0\n"
                     "    segments: 4\n"
                     "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
                     "    section: {shape: circle, radius: 5.0e-3}\n"
                     "    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
                     "    ends: {start: {type: pinned}}\n"
                     "analysis: {type: dynamic, t_end: 1.0e-2}\n";
  char dir[] = "/tmp/cosrod_scene_XXXXXX", path[600];
  CHECK("mkdtemp", mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/scene.json", dir);
  cosrod_scenario *sc = parse(yaml);
  CHECK("scenario", sc != NULL);
  if (!sc) return;
  CHECK("written", record_write_scene(dir, sc) == 0);
  long ino = inode_of(path);
  char *first = slurp(path);
  CHECK("written again", record_write_scene(dir, sc) == 0);
  char *again = slurp(path);
  CHECK("same text kept: same inode", inode_of(path) == ino && first && again && strcmp(first, again) == 0);
  sc->gravity[2] = -9.81;
  CHECK("written with another gravity", record_write_scene(dir, sc) == 0);
  char *other = slurp(path);
  CHECK("replaced by the new text", other && strstr(other, "\"gravity\": [0, 0, -9.8100000000000005]") != NULL);
  free(first), free(again), free(other);
  cosrod_scenario_free(sc);
  remove(path);
  rmdir(dir);
}

static const th_case cases[] = {TH_CASE(display_radius_and_section_arrays), TH_CASE(modes_of_coupled_rods),
                                TH_CASE(buckling_of_separate_rods_lists_one_rod), TH_CASE(scene_json_kept_when_unchanged)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
