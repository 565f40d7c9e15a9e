// SPDX-License-Identifier: Apache-2.0
/* Tube sections, rods without a material (stiffness and inertia given) and
 * moving pinned ends, from scenario text through cosrod_sim:
 *  - tube: A = π(ro² - ri²), I = π(ro⁴ - ri⁴)/4, J = 2I against the rod's
 *    resolved stiffness and inertia; inner_radius = 0 equals the circle;
 *  - no material: the given values reach the rod, `check`'s summary prints
 *    them, not zeros;
 *  - pinned end on keyframes: the vertex follows the linear interpolation
 *    at every frame while its segment turns freely (rotation not held). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "harness.h"

static const double PI = 3.14159265358979323846;

static cosrod_scenario *parse(const char *rod_extra, const char *section, const char *material,
                              const char *ends, const char *const *sets, size_t nsets, char *err,
                              size_t len) {
  char text[4096];
  snprintf(text, sizeof text,
           "cosrod: 1\n"
           "title: sections\n"
           "gravity: [0, 0, -9.81]\n"
           "rods:\n"
           "  - name: hose\n"
           "    length: 1.0\n"
           "    segments: 10\n"
           "%s%s%s"
           "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends: %s\n"
           "analysis: {type: dynamic, t_end: 1.0}\n"
           "solver: {integrator: radau5, rtol: 1.0e-7, atol: 1.0e-7}\n"
           "output: {every: 0.125, vtk: false, plots: false}\n",
           material, section, rod_extra, ends);
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, strlen(text), "mem.yaml", sets, nsets, &st);
  if (err && len) snprintf(err, len, "%s", cosrod_last_error());
  if (st != COSROD_OK) NOTE("%s", err);
  return sc;
}

static const char *MAT = "    material: {E: 2.0e6, poisson: 0.45, density: 1100}\n";
static const char *FREE = "{start: {type: clamped}, end: {type: free}}";

TEST(tube_section_values) {
  char err[512];
  const double ro = 0.012, ri = 0.009, E = 2.0e6, G = E / (2 * 1.45), rho = 1100;
  cosrod_scenario *sc = parse("", "    section: {shape: tube, outer_radius: 0.012, inner_radius: 0.009}\n",
                              MAT, FREE, NULL, 0, err, sizeof err);
  CHECK("tube loads", sc != NULL);
  if (!sc) return;
  const cosrod_sc_rod *r = &sc->rods[0];
  double A = PI * (ro * ro - ri * ri), I = PI * (pow(ro, 4) - pow(ri, 4)) / 4;
  CHECK_REL("EA = E pi (ro^2 - ri^2)", r->EA, E * A, 1e-14);
  CHECK_REL("GA = G A (kappa = 1)", r->GA1, G * A, 1e-14);
  CHECK_REL("EI = E pi (ro^4 - ri^4)/4", r->EI1, E * I, 1e-14);
  CHECK_REL("GJ = G 2I", r->GJ, G * 2 * I, 1e-14);
  CHECK_REL("rhoA", r->rhoA, rho * A, 1e-14);
  CHECK_REL("rhoJ", r->rhoJ, rho * 2 * I, 1e-14);
  /* the rod built by the simulation has the same mass: sum of vertex masses = rho A L */
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_prepare(sc, 0.0, NULL, &st);
  CHECK("sim created", sim != NULL);
  if (sim) {
    const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
    const double *w = cosrod_rod_vertex_weight(rod), *Ib = cosrod_rod_segment_inertia(rod);
    double L = 0, J = 0;
    for (int n = 0; n <= cosrod_rod_nseg(rod); n++) L += w[n];
    for (int k = 0; k < cosrod_rod_nseg(rod); k++) J += Ib[3 * k + 2];
    CHECK_REL("rod: sum of segment inertias rho J ds = rho 2I L", J, rho * 2 * I * L, 1e-13);
    cosrod_sim_free(sim);
  }
  cosrod_scenario_free(sc);
  /* inner radius 0: the solid circle */
  cosrod_scenario *a = parse("", "    section: {shape: tube, outer_radius: 0.012, inner_radius: 0}\n", MAT,
                             FREE, NULL, 0, err, sizeof err);
  cosrod_scenario *b =
      parse("", "    section: {shape: circle, radius: 0.012}\n", MAT, FREE, NULL, 0, err, sizeof err);
  CHECK("both load", a && b);
  if (a && b) {
    CHECK_REL("ri = 0: EI as the circle", a->rods[0].EI1, b->rods[0].EI1, 1e-15);
    CHECK_REL("ri = 0: GJ as the circle", a->rods[0].GJ, b->rods[0].GJ, 1e-15);
    CHECK_REL("ri = 0: rhoA as the circle", a->rods[0].rhoA, b->rods[0].rhoA, 1e-15);
  }
  cosrod_scenario_free(a);
  cosrod_scenario_free(b);
  sc = parse("", "    section: {shape: tube, outer_radius: 0.01, inner_radius: 0.01}\n", MAT, FREE, NULL, 0,
             err, sizeof err);
  CHECK("inner >= outer refused",
        sc == NULL && strstr(err, "mem.yaml:9: rods.0.section.inner_radius: must be smaller"));
  cosrod_scenario_free(sc);
}

TEST(material_optional_with_overrides) {
  char err[512];
  const char *over =
      "    stiffness: {EA: 300, GA1: 100, GA2: 110, EI1: 0.02, EI2: 0.03, GJ: 0.01}\n"
      "    inertia: {rhoA: 0.2, rhoI1: 1.0e-6, rhoI2: 1.1e-6, rhoJ: 2.0e-6}\n";
  cosrod_scenario *sc = parse(over, "", "", FREE, NULL, 0, err, sizeof err);
  CHECK("no material, no section, every value given: loads", sc != NULL);
  if (!sc) return;
  CHECK("has_material = 0", sc->rods[0].has_material == 0);
  CHECK_NEAR("EI2 given", sc->rods[0].EI2, 0.03, 0);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cosrod_scenario_print(sc, f);
  fclose(f);
  NOTE("%s", buf);
  CHECK("summary shows the given EA, not E = 0", strstr(buf, "EA = 300 N") && !strstr(buf, "E = 0 Pa"));
  free(buf);
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_prepare(sc, 0.0, NULL, &st);
  CHECK("sim created", sim != NULL);
  if (sim) {
    const double *w = cosrod_rod_vertex_weight(cosrod_sim_rod(sim, 0)),
                 *Ib = cosrod_rod_segment_inertia(cosrod_sim_rod(sim, 0));
    CHECK_REL("segment inertia rhoI2 ds", Ib[1], 1.1e-6 * 0.1, 1e-13);
    CHECK_REL("vertex weight ds/2 at the end", w[10], 0.05, 1e-13);
    cosrod_sim_free(sim);
  }
  cosrod_scenario_free(sc);
  /* one value missing: material required, one line naming rods.0.material */
  const char *part =
      "    stiffness: {EA: 300, GA1: 100, GA2: 110, EI1: 0.02, EI2: 0.03}\n"
      "    inertia: {rhoA: 0.2, rhoI1: 1.0e-6, rhoI2: 1.1e-6, rhoJ: 2.0e-6}\n";
  sc = parse(part, "", "", FREE, NULL, 0, err, sizeof err);
  CHECK("GJ missing without material refused", sc == NULL && strstr(err, "rods.0.material: missing"));
  cosrod_scenario_free(sc);
  /* Kelvin-Voigt needs the Poisson ratio */
  const char *kv =
      "    stiffness: {EA: 300, GA1: 100, GA2: 110, EI1: 0.02, EI2: 0.03, GJ: 0.01}\n"
      "    inertia: {rhoA: 0.2, rhoI1: 1.0e-6, rhoI2: 1.1e-6, rhoJ: 2.0e-6}\n"
      "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n";
  sc = parse(kv, "", "", FREE, NULL, 0, err, sizeof err);
  CHECK("kelvin_voigt without material refused", sc == NULL && strstr(err, "kelvin_voigt"));
  cosrod_scenario_free(sc);
}

typedef struct pin_rec {
  int n;
  double maxdev; /* max |x_0(t) - keyframe interpolation| */
  double turn;   /* max angle of segment 0's frame from its initial frame [rad] */
  double p0[4];
} pin_rec;

static int pin_frame(void *user, const cosrod_sim *sim, double t) {
  pin_rec *r = user;
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  /* keyframes [0, (0,0,0)], [1, (0.3, 0, 0.1)] */
  double want[3] = {0.3 * t, 0.0, 0.1 * t};
  for (int j = 0; j < 3; j++) r->maxdev = fmax(r->maxdev, fabs(d->x[j] - want[j]));
  if (r->n == 0) memcpy(r->p0, d->p, sizeof r->p0);
  double c = fabs(r->p0[0] * d->p[0] + r->p0[1] * d->p[1] + r->p0[2] * d->p[2] + r->p0[3] * d->p[3]);
  r->turn = fmax(r->turn, 2.0 * acos(fmin(1.0, c)));
  r->n++;
  return 0;
}

TEST(moving_pinned_end_follows_keyframes) {
  char err[512];
  cosrod_scenario *sc =
      parse("    section: {shape: tube, outer_radius: 0.01, inner_radius: 0.007}\n", "", MAT,
            "{start: {type: pinned, position: [[0, 0, 0, 0], [1, 0.3, 0, 0.1]]}, end: {type: free}}", NULL, 0,
            err, sizeof err);
  CHECK("moving pinned end loads", sc != NULL);
  if (!sc) return;
  CHECK("two keyframes", sc->rods[0].ends[0].position.n == 2);
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_prepare(sc, 0.0, NULL, &st);
  CHECK("sim created", sim != NULL);
  if (!sim) {
    NOTE("%s", cosrod_last_error());
    cosrod_scenario_free(sc);
    return;
  }
  pin_rec r = {0};
  cosrod_sim_observer obs = {pin_frame, NULL, &r, NULL, NULL};
  st = cosrod_sim_run(sim, &obs);
  CHECK("run ok", st == COSROD_OK);
  NOTE("%d frames, max |x_0 - keyframes| %.3e m, segment 0 turned up to %.3f rad", r.n, r.maxdev, r.turn);
  CHECK("9 frames (t = 0, 0.125, ..., 1)", r.n == 9);
  /* the pinned vertex is not a state: it is the interpolation itself */
  CHECK_LE("vertex 0 on the keyframe path", r.maxdev, 1e-12);
  /* the rod hangs and swings down under gravity: a held frame would keep 0 */
  CHECK("segment 0 turns (rotation free), > 0.3 rad", r.turn > 0.3);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  /* orientation keyframes on a pinned end are not accepted */
  sc = parse("    section: {shape: tube, outer_radius: 0.01, inner_radius: 0.007}\n", "", MAT,
             "{start: {type: pinned, orientation: [[0, 1, 0, 0, 0]]}, end: {type: free}}", NULL, 0, err,
             sizeof err);
  CHECK("orientation on a pinned end refused", sc == NULL && strstr(err, "rods.0.ends.start.orientation"));
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(tube_section_values),
    TH_CASE(material_optional_with_overrides),
    TH_CASE(moving_pinned_end_follows_keyframes),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
