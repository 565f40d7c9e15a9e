// SPDX-License-Identifier: Apache-2.0
/* cosrod_scenario_to_yaml round trip over every example (every .yaml file in examples/)
 * and over variants that exercise the remaining branches (grid, inline
 * material given by G, rectangle and custom sections, stiffness / inertia
 * overrides, coefficient damping, arc / helix / polyline shapes, prescribed
 * keyframes, ramp / active loads, static and modal analyses) and over the
 * keys added later (tube sections, medium damping, moving pinned ends,
 * interpolation, output fields / steps, galpha rho_inf / h, static gravity,
 * preloads, Kirchhoff models, rods without material, body loads, universal /
 * fixed joints, rotational bushings): load -> write -> parse gives a scenario
 * equal in every struct field (exact doubles; see same_scenario), and
 * writing that again gives the same text (a fixpoint).  Also the builder
 * (scenario_build.c): the rubber pendulum built by calls equals the file, and
 * its error messages are the loader's with the key path first. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "harness.h"

static const char *examples_dir(void) {
  const char *d = getenv("COSROD_EXAMPLES");
  return d ? d : "examples";
}

/* to_yaml into a malloc'ed string */
static char *to_text(const cosrod_scenario *sc, size_t *len) {
  FILE *f = tmpfile();
  if (!f) return NULL;
  cosrod_status st = cosrod_scenario_to_yaml(sc, f);
  long n = ftell(f);
  char *buf = st == COSROD_OK && n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf) {
    rewind(f);
    *len = fread(buf, 1, (size_t)n, f);
    buf[*len] = '\0';
  }
  fclose(f);
  return buf;
}

static int eqd(const double *a, const double *b, size_t n) {
  return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

/* Equality of every field of the scenario struct (exact doubles) except the
 * YAML line numbers and the file name: each element struct is copied
 * (memcpy, so the calloc'ed padding is compared as the zero it is), its
 * line fields and pointers cleared, and the copies compared byte for byte;
 * the pointed-to arrays and strings are compared separately.  A field added
 * to any struct is thus compared without touching this function, and a key
 * the writer forgets fails the round trip. */
#define SAME_BYTES(T, A, B, CLEAR)                       \
  do {                                                   \
    T x_, y_;                                            \
    memcpy(&x_, (A), sizeof x_);                         \
    memcpy(&y_, (B), sizeof y_);                         \
    for (T *z_ = &x_; z_; z_ = z_ == &x_ ? &y_ : NULL) { \
      CLEAR;                                             \
    }                                                    \
    eq_ = memcmp(&x_, &y_, sizeof x_) == 0;              \
  } while (0)

static int eq_kf(const cosrod_sc_keyframes *a, const cosrod_sc_keyframes *b, size_t dim) {
  return a->n == b->n && eqd(a->t, b->t, a->n) && eqd(a->values, b->values, a->n * dim);
}

static int same_scenario(const cosrod_scenario *a, const cosrod_scenario *b, char *why, size_t wl) {
  int eq_ = 0;
#define REQ(cond, what)              \
  do {                               \
    if (!(cond)) {                   \
      snprintf(why, wl, "%s", what); \
      return 0;                      \
    }                                \
  } while (0)
  REQ(!strcmp(a->title, b->title), "title");
  SAME_BYTES(cosrod_scenario, a, b, z_->file = z_->title = NULL; z_->materials = NULL; z_->rods = NULL;
             z_->bodies = NULL; z_->joints = NULL; z_->lines_ = NULL;
             z_->analysis.line = z_->solver.line = z_->output.line = 0; z_->output.dir = NULL;
             z_->contact.obstacles = NULL; z_->contact.line = 0);
  REQ(eq_, "top level (gravity, counts, analysis, solver, output)");
  REQ(!strcmp(a->output.dir, b->output.dir), "output.dir");
  for (size_t i = 0; i < a->nmaterials; i++) {
    SAME_BYTES(cosrod_sc_material, &a->materials[i], &b->materials[i], z_->line = 0);
    REQ(eq_, "material");
  }
  for (size_t i = 0; i < a->nrods; i++) {
    const cosrod_sc_rod *p = &a->rods[i], *q = &b->rods[i];
    SAME_BYTES(
        cosrod_sc_rod, p, q, z_->line = z_->material.line = z_->ends[0].line = z_->ends[1].line = 0;
        z_->grid = NULL; z_->loads = NULL; z_->shape.points = NULL; for (int e = 0; e < 2; e++) {
          z_->ends[e].position.t = z_->ends[e].position.values = NULL;
          z_->ends[e].orientation.t = z_->ends[e].orientation.values = NULL;
        });
    REQ(eq_, "rod (scalars, material, section, stiffness, damping, shape, ends)");
    REQ(eqd(p->grid, q->grid, p->segments + 1), "grid");
    REQ(eqd(p->shape.points, q->shape.points, 3 * p->shape.npoints), "shape points");
    for (int e = 0; e < 2; e++)
      REQ(eq_kf(&p->ends[e].position, &q->ends[e].position, 3) &&
              eq_kf(&p->ends[e].orientation, &q->ends[e].orientation, 4),
          "end keyframes");
    for (size_t k = 0; k < p->nloads; k++) {
      SAME_BYTES(cosrod_sc_load, &p->loads[k], &q->loads[k], z_->line = 0);
      REQ(eq_, "load");
    }
  }
  for (size_t i = 0; i < a->nbodies; i++) {
    const cosrod_sc_body *p = &a->bodies[i], *q = &b->bodies[i];
    SAME_BYTES(cosrod_sc_body, p, q, z_->line = 0; z_->loads = NULL; z_->motion_position.t = NULL;
               z_->motion_position.values = NULL; z_->motion_orientation.t = NULL;
               z_->motion_orientation.values = NULL);
    REQ(eq_, "body");
    REQ(eq_kf(&p->motion_position, &q->motion_position, 3) &&
            eq_kf(&p->motion_orientation, &q->motion_orientation, 4),
        "body motion keyframes");
    for (size_t k = 0; k < p->nloads; k++) {
      SAME_BYTES(cosrod_sc_body_load, &p->loads[k], &q->loads[k], z_->line = 0);
      REQ(eq_, "body load");
    }
  }
  for (size_t i = 0; i < a->contact.nobstacles; i++) {
    const cosrod_sc_obstacle *p = &a->contact.obstacles[i], *q = &b->contact.obstacles[i];
    SAME_BYTES(cosrod_sc_obstacle, p, q, z_->line = 0; z_->file = z_->file_given = NULL;
               z_->motion_position.t = z_->motion_position.values = NULL;
               z_->motion_orientation.t = z_->motion_orientation.values = NULL);
    REQ(eq_, "obstacle");
    REQ(!p->file == !q->file && (!p->file || !strcmp(p->file, q->file)), "obstacle mesh file");
    REQ(eq_kf(&p->motion_position, &q->motion_position, 3) &&
            eq_kf(&p->motion_orientation, &q->motion_orientation, 4),
        "obstacle motion keyframes");
  }
  for (size_t i = 0; i < a->njoints; i++) {
    SAME_BYTES(cosrod_sc_joint, &a->joints[i], &b->joints[i], z_->line = 0);
    REQ(eq_, "joint");
  }
#undef REQ
  return 1;
}

/* text: a scenario in memory instead of the example file `name` */
static void round_trip_text(const char *name, const char *text, const char *const *sets, size_t nsets) {
  char path[1024], why[128] = "";
  snprintf(path, sizeof path, "%s/%s", examples_dir(), name);
  cosrod_scenario *a = NULL, *b = NULL, *c = NULL;
  cosrod_status st0 = COSROD_OK;
  a = text ? cosrod_scenario_parse(text, strlen(text), name, sets, nsets, &st0)
           : cosrod_scenario_load(path, sets, nsets, &st0);
  if (st0 != COSROD_OK) {
    NOTE("%s", cosrod_last_error());
    CHECK("example loads", 0);
    return;
  }
  size_t n1 = 0, n2 = 0;
  char *t1 = to_text(a, &n1);
  CHECK("to_yaml writes", t1 != NULL && n1 > 0);
  cosrod_status st = COSROD_ERR_IO;
  if (t1) b = cosrod_scenario_parse(t1, n1, name, NULL, 0, &st);
  if (st != COSROD_OK) NOTE("%s: %s\n%s", name, t1 ? cosrod_last_error() : "", t1 ? t1 : "");
  CHECK("the written file loads", st == COSROD_OK);
  if (b) {
    int same = same_scenario(a, b, why, sizeof why);
    NOTE("%s (%zu sets): %zu bytes, %s", name, nsets, n1, same ? "same scenario" : why);
    CHECK("reloads to the same scenario", same);
    char *t2 = to_text(b, &n2);
    CHECK("writing the reloaded scenario gives the same text", t2 && n1 == n2 && !memcmp(t1, t2, n1));
    if (t2 && (c = cosrod_scenario_parse(t2, n2, name, NULL, 0, NULL)) != NULL)
      CHECK("second generation equal too", same_scenario(a, c, why, sizeof why));
    free(t2);
  }
  free(t1);
  cosrod_scenario_free(a);
  cosrod_scenario_free(b);
  cosrod_scenario_free(c);
}

static void round_trip(const char *name, const char *const *sets, size_t nsets) {
  round_trip_text(name, NULL, sets, nsets);
}

TEST(every_example_round_trips) {
  DIR *d = opendir(examples_dir());
  CHECK("examples directory", d != NULL);
  if (!d) return;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l > 5 && !strcmp(e->d_name + l - 5, ".yaml")) {
      round_trip(e->d_name, NULL, 0);
      n++;
    }
  }
  closedir(d);
  NOTE("%d examples", n);
  CHECK("at least the 10 paper examples", n >= 10);
}

TEST(variants_round_trip) {
  round_trip_text(
      "grid.yaml",
      "cosrod: 1\ntitle: 'a: \"quoted\" title'\nrods:\n  - length: 1.0\n    grid: [0, 0.1, 0.35, 0.6, 1.0]\n"
      "    material: {E: 3.0e6, G: 1.1e6, density: 900}\n    section: {shape: circle, radius: 0.01}\n"
      "    ends: {start: {type: pinned}}\nanalysis: {type: dynamic, t_end: 0.3}\n",
      NULL, 0);
  round_trip("rubber-pendulum.yaml",
             (const char *const[]){
                 "rods.0.section={shape: rectangle, width: 0.01, height: 0.004}",
                 "rods.0.stiffness={EA: 123.456, GJ: 0.1}", "rods.0.inertia={rhoJ: 1.0e-7}",
                 "rods.0.damping={coefficients: {shear: [0.1, 0.2], extension: 3, bending: [1e-4, "
                 "2e-4], torsion: 1e-5, convention: lla}}",
                 "rods.0.loads=[{type: force, at: end, value: [0, 0, -0.1], ramp: [0, 0.5]}, "
                 "{type: moment, at: 3, value: [0, 0.01, 0], frame: material, active: [0.1, 0.2]}, "
                 "{type: distributed_force, value: [0.1, 0, 0]}]"},
             5);
  round_trip(
      "rubber-pendulum.yaml",
      (const char *const[]){"rods.0.section={shape: custom, area: 1e-5, I1: 1e-11, I2: 2e-11, J: 3e-11}",
                            "rods.0.shape={type: helix, radius: 0.1, pitch: 0.05, turns: 1.5, normal: [1, 0, "
                            "0], direction: [0, 0, 1]}",
                            "rods.0.reference=straight", "analysis={type: modes, count: 4}"},
      4);
  round_trip("rubber-pendulum.yaml",
             (const char *const[]){
                 "rods.0.shape={type: polyline, normal: [0, 0, 1], points: [[0, 0, 0], [0, 0.5, 0], "
                 "[0.1, 0.9, 0], [0.3, 1.2, 0.1]]}",
                 "rods.0.segments=3", "analysis={type: static, increments: 7}", "solver.h0=1e-5",
                 "solver.hmax=0.01"},
             5);
  round_trip("rubber-pendulum.yaml",
             (const char *const[]){"rods.0.shape={type: arc, radius: 0.5, angle_deg: 90, normal: [0, 0, 1], "
                                   "direction: [0, 1, 0]}",
                                   "rods.0.ends.start={type: clamped, slides_along: [0, 1, 0]}"},
             2);
}

/* Keys added after the writer was first written: each variant fails the
 * round trip (same_scenario compares every struct field) if to_yaml drops it. */
TEST(newer_keys_round_trip) {
  /* obstacles of every analytic shape (on a body, keyframed), a body shape and contact settings */
  round_trip(
      "two-body-joint.yaml",
      (const char *const[]){
          "obstacles=[{name: floor, shape: plane, point: [0, 0, -1], normal: [0, 0.3, 1]}, "
          "{name: post, shape: sphere, center: [0.5, 0, 0.2], radius: 0.05}, "
          "{name: pulley, shape: cylinder, center: [0, 0, 1], axis: [0, 1, 1], radius: 0.1, length: 0.05}, "
          "{name: bar, shape: cylinder, center: [0, 0, 1], radius: 0.1}, "
          "{name: clip, shape: capsule, a: [0, -0.1, 0.5], b: [0.3, 0.1, 0.5], radius: 0.01, body: b2}, "
          "{name: block, shape: box, center: [1, 0, 0.1], size: [0.2, 0.3, 0.1], orientation: [0.6, 0.8, 0, 0], "
          "motion: {position: [[0, 1, 0, 0.1], [2, 1, 1, 0.1]], orientation: [[0, 1, 0, 0, 0], [2, 0, 0, 0, 1]]}}]",
          "bodies.0.shape={type: capsule, a: [0, 0, -0.2], b: [0, 0, 0.2], radius: 0.05}",
          "contact={stiffness: 1.5e5, onset: 1e-4, damping: none, tangent_stiffness: 3e4, "
          "friction: {static: 0.5, kinetic: 0.4}, rods: false, quadrature: 3}"},
      3);
  /* tube section, medium damping (alone and with Kelvin-Voigt), moving pinned end with cubic interpolation,
   * prescribed end with linear interpolation, output fields / steps, solver rho_inf and h, preload */
  round_trip(
      "rubber-pendulum.yaml",
      (const char *const[]){"rods.0.section={shape: tube, outer_radius: 6e-3, inner_radius: 4e-3}",
                            "rods.0.damping={medium: {translational: 0.3, rotational: 2e-4}}",
                            "rods.0.ends.start={type: pinned, position: [[0, 0, 0, 0], [0.5, 0.1, 0, 0], "
                            "[1, 0.1, 0.2, 0]], interpolation: cubic}",
                            "output.fields=[tip, energy, reactions]", "solver.integrator=galpha",
                            "solver.rho_inf=0.35", "solver.h=1e-3"},
      7);
  round_trip(
      "rubber-pendulum.yaml",
      (const char *const[]){"rods.0.damping={kelvin_voigt: {tau_shear: 1e-3, tau_bulk: 2e-3}, medium: "
                            "{translational: 0.05}}",
                            "rods.0.ends.end={type: prescribed, orientation: [[0, 1, 0, 0, 0], [1, 0, 1, "
                            "0, 0]], interpolation: linear}",
                            "output.steps=false", "analysis.start_from_equilibrium=true",
                            "rods.0.loads=[{type: force, at: 4, value: [0, 0, 1], preload: true}]"},
      5);
  /* static analysis with constant gravity; Kirchhoff models (no shear_correction, no shear / extension
   * damping coefficients); a rod without material (all stiffness and inertia given, no section) */
  round_trip_text(
      "kirchhoff.yaml",
      "cosrod: 1\nrods:\n  - model: kirchhoff-extensible\n    length: 1\n    segments: 4\n"
      "    material: {E: 1e7, poisson: 0.3, density: 1000}\n    section: {shape: circle, radius: 0.01}\n"
      "    damping: {coefficients: {extension: 0.2, bending: [1e-4, 2e-4], torsion: 3e-5}}\n"
      "    ends: {start: {type: clamped}}\nanalysis: {type: static, increments: 5, gravity: constant}\n",
      NULL, 0);
  round_trip_text("kirchhoff.yaml",
                  "cosrod: 1\nrods:\n  - model: kirchhoff-inextensible\n    length: 1\n    segments: 4\n"
                  "    stiffness: {EA: 1e5, GA1: 2e4, GA2: 3e4, EI1: 0.01, EI2: 0.02, GJ: 0.03}\n"
                  "    inertia: {rhoA: 0.1, rhoI1: 1e-6, rhoI2: 2e-6, rhoJ: 3e-6}\n"
                  "    damping: {coefficients: {bending: [1e-4, 2e-4], torsion: 3e-5, convention: lla}}\n"
                  "    ends: {start: {type: pinned}}\nanalysis: {type: dynamic, t_end: 0.1}\n",
                  NULL, 0);
  /* a keyframe-driven body without mass / inertia (optional with motion) carrying a rod; end frame */
  round_trip_text("carry.yaml",
                  "cosrod: 1\nrods:\n  - length: 1\n    segments: 4\n"
                  "    material: {E: 1e7, poisson: 0.3, density: 1000}\n    section: {shape: circle, radius: 0.01}\n"
                  "    ends: {start: {type: clamped, body: arm, at: [0, 0, 0], frame: [0, 1, 0, 0]}}\n"
                  "bodies:\n  - {name: arm, motion: {position: [[0, 0, 0, 0], [1, 0, 0, 0.5]]}}\n"
                  "analysis: {type: dynamic, t_end: 0.1}\n",
                  NULL, 0);
  /* bodies with loads; universal, fixed, revolute and bushing joints with rotational stiffness / damping */
  round_trip(
      "two-body-joint.yaml",
      (const char *const[]){
          "bodies.0.loads=[{type: force, value: [1, 2, 3], at: [0.1, 0, 0], frame: material, ramp: [0, "
          "1]}, {type: moment, value: [0, 0, 0.5], active: [0.5, 1.5]}, {type: force, value: [0, 0, -1]}]",
          "bodies.1.orientation={quaternion: [0.5, 0.5, 0.5, 0.5]}", "bodies.1.parametrisation=directors",
          "joints.0={type: universal, bodies: [b1, b2], at: [[1, 2, -3], [5, -6, -7]], axis: [1, 0, 0], "
          "axis2: [0, 1, 0]}",
          "joints.1={type: bushing, bodies: [b1, ground], at: [[0, 0, 0], [0, 0, 0]], stiffness: 1.0e4, "
          "damping: 3, stiffness_rot: 50, damping_rot: 0.5}",
          "joints.2={type: fixed, bodies: [b2, ground], at: [[0, 0, 0], [1, 1, 1]]}",
          "joints.3={type: revolute, bodies: [b1, b2], axis: [0, 0, 1]}"},
      7);
}

/* The rubber pendulum (examples/rubber-pendulum.yaml) through the builder. */
static cosrod_sc_builder *pendulum_builder(void) {
  cosrod_sc_builder *b = cosrod_sc_builder_create(NULL);
  const double g[3] = {0, 0, -9.81}, dir[3] = {0, 1, 0}, nrm[3] = {0, 0, 1}, o[3] = {0, 0, 0};
  cosrod_sc_builder_set_str(b, "title", "Rubber pendulum, LLA Test 1");
  cosrod_sc_builder_set_vec(b, "gravity", g, 3);
  cosrod_sc_builder_material(b, "rubber", 5.0e6, 0.5, 1100);
  long r = cosrod_sc_builder_add_rod(b, "rod");
  cosrod_sc_builder_rod_set(b, r, "model", "cosserat");
  cosrod_sc_builder_set_num(b, "rods.0.length", 1.0);
  cosrod_sc_builder_set_int(b, "rods.0.segments", 10);
  cosrod_sc_builder_set_str(b, "rods.0.material", "rubber");
  cosrod_sc_builder_rod_set(b, r, "section", "{shape: circle, radius: 5.0e-3}");
  cosrod_sc_builder_rod_set(b, r, "curvature", "sine-4");
  cosrod_sc_builder_rod_set(b, r, "shape.type", "straight");
  cosrod_sc_builder_set_vec(b, "rods.0.shape.start", o, 3);
  cosrod_sc_builder_set_vec(b, "rods.0.shape.direction", dir, 3);
  cosrod_sc_builder_set_vec(b, "rods.0.shape.normal", nrm, 3);
  cosrod_sc_builder_end(b, r, 0, COSROD_SC_END_PINNED);
  cosrod_sc_builder_end(b, r, 1, COSROD_SC_END_FREE);
  cosrod_sc_builder_set(b, "analysis.type", "dynamic");
  cosrod_sc_builder_set_num(b, "analysis.t_end", 2.0);
  cosrod_sc_builder_set(b, "solver",
                        "{formulation: nullspace, stabilisation: projection, integrator: dopri5}");
  cosrod_sc_builder_set_num(b, "solver.rtol", 1e-8);
  cosrod_sc_builder_set_num(b, "solver.atol", 1e-8);
  cosrod_sc_builder_set_str(b, "output.dir", "out/rubber-pendulum");
  cosrod_sc_builder_set_num(b, "output.every", 0.01);
  cosrod_sc_builder_set_bool(b, "output.vtk", 1);
  cosrod_sc_builder_set_bool(b, "output.plots", 1);
  return b;
}

TEST(builder_equals_the_file) {
  char path[1024], why[128] = "";
  snprintf(path, sizeof path, "%s/rubber-pendulum.yaml", examples_dir());
  cosrod_scenario *ref = NULL;
  CHECK("example loads", (ref = cosrod_scenario_load(path, NULL, 0, NULL)) != NULL);
  cosrod_sc_builder *b = pendulum_builder();
  cosrod_status st;
  cosrod_scenario *sc = cosrod_sc_builder_finish(b, &st);
  if (!sc) NOTE("%s", cosrod_last_error());
  CHECK("builder finishes", sc != NULL && st == COSROD_OK);
  if (sc && ref) {
    int same = same_scenario(ref, sc, why, sizeof why);
    NOTE("builder vs file: %s", same ? "same scenario" : why);
    CHECK("built scenario equals the file's", same);
  }
  /* a load through the builder equals the same load in YAML */
  const double F[3] = {0.0, 0.0, -0.25};
  long li = cosrod_sc_builder_add_load(b, 0, COSROD_SC_LOAD_FORCE, 10, F, COSROD_SC_FRAME_MATERIAL);
  CHECK("load index 0", li == 0);
  cosrod_scenario *sl = cosrod_sc_builder_finish(b, &st), *rl = NULL;
  const char *set = "rods.0.loads=[{type: force, at: end, value: [0, 0, -0.25], frame: material}]";
  CHECK("yaml with load", (rl = cosrod_scenario_load(path, &set, 1, NULL)) != NULL);
  CHECK("built load equals the file's", sl && rl && same_scenario(rl, sl, why, sizeof why));
  cosrod_scenario_free(sl);
  cosrod_scenario_free(rl);
  cosrod_scenario_free(sc);
  cosrod_scenario_free(ref);
  cosrod_sc_builder_free(b);
}

/* The builder's messages are the loader's, with the key path instead of FILE:LINE. */
TEST(builder_errors_are_the_loaders) {
  struct {
    const char *key, *value;
  } bad[] = {
      {"rods.0.segments", "0"},          {"rods.0.segmnets", "3"}, {"solver.integrator", "rk4"},
      {"rods.0.section.radius", "-1"},   {"analysis.t_end", "-2"}, {"rods.0.material", "steel"},
      {"rods.0.ends.start.type", "fix"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cosrod_sc_builder *b = pendulum_builder();
    char err[512] = "", ferr[512] = "", set[128], path[1024];
    cosrod_sc_builder_set(b, bad[i].key, bad[i].value);
    cosrod_status st;
    cosrod_scenario *sc = cosrod_sc_builder_finish(b, &st);
    snprintf(err, sizeof err, "%s", cosrod_last_error());
    CHECK("finish refuses", sc == NULL && st == COSROD_ERR_PARSE);
    /* the same value through the file loader: --set key: problem */
    snprintf(set, sizeof set, "%s=%s", bad[i].key, bad[i].value);
    snprintf(path, sizeof path, "%s/rubber-pendulum.yaml", examples_dir());
    const char *sp = set;
    cosrod_scenario *f = NULL;
    f = cosrod_scenario_load(path, &sp, 1, NULL);
    snprintf(ferr, sizeof ferr, "%s", cosrod_last_error());
    const char *tail = !strncmp(ferr, "--set ", 6) ? ferr + 6 : NULL;
    char want[512] = "";
    if (tail) snprintf(want, sizeof want, "%s", tail);
    NOTE("builder: %s | file: %s", err, ferr);
    CHECK("starts with the key path", !strncmp(err, bad[i].key, strlen(bad[i].key)));
    CHECK("same message as the file loader", f == NULL && !strcmp(err, want));
    cosrod_scenario_free(sc);
    cosrod_scenario_free(f);
    cosrod_sc_builder_free(b);
  }
  CHECK("rod index checked", cosrod_sc_builder_end(NULL, 0, 0, COSROD_SC_END_FREE) == COSROD_ERR_INVALID);
}

static const th_case cases[] = {
    TH_CASE(builder_equals_the_file),   TH_CASE(builder_errors_are_the_loaders),
    TH_CASE(every_example_round_trips), TH_CASE(newer_keys_round_trip),
    TH_CASE(variants_round_trip),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
