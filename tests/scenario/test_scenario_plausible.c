// SPDX-License-Identifier: Apache-2.0
/* Plausibility warnings (src/scenario/scenario_plausible.c): the unit slips
 * a new user makes pass the loader but are named with their key, line and a
 * suggestion; sound scenarios (a steel rod in SI) get none. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "harness.h"

/* A 10 m hose: material, section and shape from the arguments. */
static cosrod_scenario *hose(const char *material, const char *section, const char *shape_length) {
  char text[2048];
  snprintf(text, sizeof text,
           "cosrod: 1\n"
           "materials:\n"
           "  m: %s\n"
           "rods:\n"
           "  - name: hose\n"
           "    %s\n"
           "    segments: 10\n"
           "    material: m\n"
           "    section: %s\n"
           "    shape: {type: arc, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 1, 0], radius: 2.0,\n"
           "            angle_deg: 360}\n"
           "    ends: {start: {type: clamped}}\n"
           "analysis: {type: dynamic, t_end: 0.1}\n",
           material, shape_length, section);
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, strlen(text), "hose.yaml", NULL, 0, &st);
  if (st != COSROD_OK) NOTE("parse: %s", cosrod_last_error());
  CHECK("a plausibility problem is no error", st == COSROD_OK);
  return sc;
}

static int has(const cosrod_scenario *sc, const char *a, const char *b) {
  char w[1024];
  for (size_t i = 0; cosrod_scenario_warning(sc, i, w, sizeof w) == 0; i++)
    if (strstr(w, a) && (!b || strstr(w, b))) {
      NOTE("%s", w);
      return 1;
    }
  return 0;
}

TEST(sound_scenario_has_no_warning) {
  /* steel, r = 5 mm, length = the arc's 4π m */
  cosrod_scenario *sc = hose("{E: 2.1e11, poisson: 0.3, density: 7850}", "{shape: circle, radius: 5.0e-3}", "");
  CHECK("no warnings", sc && cosrod_scenario_nwarnings(sc) == 0);
  char w[64] = "x";
  CHECK("warning 0: -1 and an empty text", sc && cosrod_scenario_warning(sc, 0, w, sizeof w) == -1 && !w[0]);
  cosrod_scenario_free(sc);
}

TEST(unit_slips_are_named) {
  /* E in GPa, density in g/cm^3, a 1.5 m radius, 10 m for a 4π = 12.57 m arc */
  cosrod_scenario *sc = hose("{E: 210, poisson: 0.3, density: 7.85}", "{shape: circle, radius: 1.5}", "length: 10.0");
  CHECK("four warnings", sc && cosrod_scenario_nwarnings(sc) == 4);
  CHECK("E: key, line 3, the GPa suggestion", sc && has(sc, "hose.yaml:3: materials.m.E: 210 Pa", "2.1e+11 Pa"));
  CHECK("density: the g/cm^3 suggestion", sc && has(sc, "materials.m.density: 7.85 kg/m^3", "7850 kg/m^3"));
  CHECK("section: not slender, radius/length 0.1", sc && has(sc, "hose.yaml:9: rods.0.section", "radius/length = 0.15 > 0.1"));
  /* 4π·2/10 - 1 = 25.66 % */
  CHECK("shape: arc length 12.5664 m, strain 25.7 %", sc && has(sc, "rods.0.shape: the initial shape has arc length 12.5664 m", "25.7 %"));
  cosrod_scenario_free(sc);
  /* just inside the ranges: no warning (E 1e4 Pa, density 10 kg/m^3,
   * r/L = 1.25/12.56 = 0.0995, the arc 0.05 % longer than length) */
  sc = hose("{E: 1.0e4, poisson: 0.3, density: 10}", "{shape: circle, radius: 1.25}", "length: 12.56");
  CHECK("at the limits: none", sc && cosrod_scenario_nwarnings(sc) == 0);
  if (sc)
    for (size_t i = 0; i < cosrod_scenario_nwarnings(sc); i++) has(sc, "", NULL);
  cosrod_scenario_free(sc);
  sc = hose("{E: 1.3e12, poisson: 0.3, density: 2.4e4}", "{shape: circle, radius: 5.0e-3}", "");
  CHECK("above: E and density", sc && has(sc, "E: 1.3e+12 Pa is above", NULL) && has(sc, "density: 24000 kg/m^3 is above", NULL));
  cosrod_scenario_free(sc);
}

/* A point load at a percentage of the length: the vertex nearest to that arc
 * length, wherever the grid puts its vertices. */
static long load_vertex(const char *at, const char *grid_or_segments, const char *set, char *err) {
  char text[1024];
  snprintf(text, sizeof text,
           "cosrod: 1\n"
           "rods:\n"
           "  - name: beam\n"
           "    length: 1.0\n"
           "    %s\n"
           "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
           "    section: {shape: circle, radius: 0.01}\n"
           "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: pinned}, end: {type: pinned}}\n"
           "    loads: [{type: force, at: %s, value: [0, 0, -1]}]\n"
           "analysis: {type: static}\n",
           grid_or_segments, at);
  cosrod_scenario *sc = NULL;
  const char *sets[] = {set};
  err[0] = '\0';
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, strlen(text), "beam.yaml", sets, set ? 1 : 0, &st);
  snprintf(err, 512, "%s", cosrod_last_error());
  long v = st == COSROD_OK ? sc->rods[0].loads[0].vertex : -1;
  cosrod_scenario_free(sc);
  return v;
}

TEST(point_load_at_percentage) {
  char err[512];
  CHECK("50% of 4 segments: vertex 2", load_vertex("50%", "segments: 4", NULL, err) == 2);
  CHECK("--set segments=20 keeps it at midspan: vertex 10",
        load_vertex("50%", "segments: 4", "rods.0.segments=20", err) == 10);
  CHECK("a vertex index moves with the grid (2 of 20 is L/10)",
        load_vertex("2", "segments: 4", "rods.0.segments=20", err) == 2);
  CHECK("25% of 10: the nearer of s = 0.2, 0.3: vertex 2 (s = 0.25 is equidistant: the first)",
        load_vertex("25%", "segments: 10", NULL, err) == 2);
  CHECK("26% of 10: vertex 3", load_vertex("26%", "segments: 10", NULL, err) == 3);
  CHECK("100%: the end vertex", load_vertex("100%", "segments: 4", NULL, err) == 4);
  CHECK("non-uniform grid [0, 0.1, 0.5, 1]: 45% is vertex 2",
        load_vertex("45%", "grid: [0, 0.1, 0.5, 1]", NULL, err) == 2);
  CHECK("150%: refused", load_vertex("150%", "segments: 4", NULL, err) == -1 &&
                             strstr(err, "beam.yaml:10: rods.0.loads.0.at: expected a percentage of the length"));
  NOTE("%s", err);
  CHECK("x%: refused", load_vertex("x%", "segments: 4", NULL, err) == -1 && strstr(err, "rods.0.loads.0.at"));
}

/* The rigid-bodies guide names the frame of an end clamped to a body `orientation`: the
 * loader takes it as `frame` (the same quaternion, normalised). */
TEST(orientation_alias_of_frame) {
  const char *dir = getenv("COSROD_EXAMPLES");
  char path[1024];
  snprintf(path, sizeof path, "%s/cable-pendulum.yaml", dir ? dir : "examples");
  const char *a[] = {"rods.0.ends.end.frame=[0, 0, 0, 2]"}, *b[] = {"rods.0.ends.end.orientation=[0, 0, 0, 2]"},
             *both[] = {"rods.0.ends.end.frame=[1, 0, 0, 0]", "rods.0.ends.end.orientation=[1, 0, 0, 0]"},
             *pin[] = {"rods.0.ends.end.type=pinned", "rods.0.ends.end.orientation=[1, 0, 0, 0]"};
  cosrod_scenario *sa = NULL, *sb = NULL, *sc = NULL;
  cosrod_status st = COSROD_OK;
  sa = cosrod_scenario_load(path, a, 1, &st);
  CHECK("frame: loads", st == COSROD_OK);
  sb = cosrod_scenario_load(path, b, 1, &st);
  if (st != COSROD_OK) NOTE("%s", cosrod_last_error());
  CHECK("orientation: loads", st == COSROD_OK);
  CHECK("the same end frame (0, 0, 0, 1)", sa && sb && sb->rods[0].ends[1].has_frame &&
                                               !memcmp(sa->rods[0].ends[1].frame, sb->rods[0].ends[1].frame,
                                                       sizeof sa->rods[0].ends[1].frame) &&
                                               sb->rods[0].ends[1].frame[3] == 1.0);
  sc = cosrod_scenario_load(path, both, 2, &st);
  CHECK("both: refused, naming orientation", st != COSROD_OK && !sc && strstr(cosrod_last_error(), "rods.0.ends.end.orientation: the same as 'frame'"));
  sc = cosrod_scenario_load(path, pin, 2, &st);
  CHECK("a pinned end: no frame", st != COSROD_OK && !sc && strstr(cosrod_last_error(), "rods.0.ends.end.orientation: only a clamped end"));
  cosrod_scenario_free(sa);
  cosrod_scenario_free(sb);
}

/* Explicit integrators on hose-on-floor: one warning on solver.integrator with
 * the step estimate 2 / omega, omega = sqrt(k / rhoA), k the contact law's
 * documented automatic stiffness max(4 EI / ds^4, rhoA g / (0.01 r)); none
 * for an implicit integrator or without contact. */
TEST(explicit_integrator_with_contact_warns) {
  const char *dir = getenv("COSROD_EXAMPLES");
  char path[1024], w[1024];
  snprintf(path, sizeof path, "%s/hose-on-floor.yaml", dir ? dir : "examples");
  const double PI = 3.14159265358979323846, r = 0.01, rhoA = 1100 * PI * r * r, EI = 5e6 * PI * pow(r, 4) / 4;
  const double ds = 2.0 / 40, k = fmax(4 * EI / pow(ds, 4), rhoA * 9.81 / (0.01 * r)), h = 2.0 / sqrt(k / rhoA);
  const char *names[] = {"dopri5", "dop853", "radau5", "galpha"};
  for (int i = 0; i < 4; i++) {
    char set[64];
    snprintf(set, sizeof set, "solver.integrator=%s", names[i]);
    const char *sets[] = {set};
    cosrod_scenario *sc = NULL;
    cosrod_status st = COSROD_OK;
    sc = cosrod_scenario_load(path, sets, 1, &st);
    CHECK("hose-on-floor loads", st == COSROD_OK);
    if (st != COSROD_OK) continue;
    int found = 0;
    for (size_t j = 0; cosrod_scenario_warning(sc, j, w, sizeof w) == 0; j++)
      if (strstr(w, "solver.integrator") && strstr(w, "contact stiffness")) {
        found++;
        const char *p = strstr(w, "2/omega = ");
        double hw = p ? strtod(p + 10, NULL) : 0.0;
        NOTE("%s: %s", names[i], w);
        NOTE("step estimate %.4g s, reference 2 sqrt(rhoA/k) = %.4g s (k = %.4g N/m per m)", hw, h, k);
        CHECK_NEAR("step estimate 2/omega (3 digits printed)", hw, h, 5e-3 * h);
        CHECK("one line", !strchr(w, '\n'));
      }
    CHECK(i < 2 ? "explicit: warned once" : "implicit: no warning", found == (i < 2 ? 1 : 0));
    cosrod_scenario_free(sc);
  }
  snprintf(path, sizeof path, "%s/catenary.yaml", dir ? dir : "examples");
  const char *dp[] = {"solver.integrator=dopri5"};
  cosrod_scenario *sc = NULL;
  int warned = 0;
  CHECK("catenary loads", (sc = cosrod_scenario_load(path, dp, 1, NULL)) != NULL);
  for (size_t j = 0; sc && cosrod_scenario_warning(sc, j, w, sizeof w) == 0; j++) warned |= !!strstr(w, "contact stiffness");
  CHECK("no contact: no contact-stiffness warning with dopri5", sc && !warned);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(sound_scenario_has_no_warning), TH_CASE(unit_slips_are_named),
                                TH_CASE(point_load_at_percentage), TH_CASE(orientation_alias_of_frame),
                                TH_CASE(explicit_integrator_with_contact_warns)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
