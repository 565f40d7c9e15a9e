// SPDX-License-Identifier: Apache-2.0
/* Scenario keys obstacles: and contact: ([manual: contact]): every shape of the manual's
 * example read into the plain structs with its pose (checked by the signed
 * distance of points whose distance is known by construction), defaults,
 * and one `FILE:LINE: key.path: problem` message per kind of bad input. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "harness.h"
#include "scenario/scenario_contact.h"

static cosrod_sc_contact *parse(const char *text, char *err, size_t errlen) {
  cosrod_sc_contact *s = NULL;
  cosrod_status st = cosrod_sc_contact_parse(text, strlen(text), "dir/scen.yaml", &s, err, errlen);
  if (st != COSROD_OK) NOTE("%s", err);
  return s;
}

static const char *SPEC_EXAMPLE =
    "cosrod: 1\n"
    "bodies:\n"
    "  - {name: box, mass: 1, inertia: [1, 1, 1]}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "  - {name: post, shape: sphere, center: [0.5, 0, 0.2], radius: 0.05}\n"
    "  - {name: pulley, shape: cylinder, center: [0, 0, 1], axis: [0, 1, 0], radius: 0.1, length: 0.05}\n"
    "  - {name: clip, shape: capsule, a: [0, -0.1, 0.5], b: [0, 0.1, 0.5], radius: 0.01, body: box}\n"
    "  - {name: block, shape: box, center: [1, 0, 0.1], size: [0.2, 0.2, 0.2], orientation: [1, 0, 0, 0]}\n"
    "  - name: wall\n"
    "    shape: plane\n"
    "    normal: [1, 0, 0]\n"
    "    point: [2, 0, 0]\n"
    "    motion: {position: [[0, 2, 0, 0], [1, 3, 0, 0]]}\n"
    "contact:\n"
    "  stiffness: auto\n"
    "  damping: auto\n"
    "  friction: {static: 0.5, kinetic: 0.4}\n"
    "  rods: true\n"
    "  self: false\n";

static double sdf(const cosrod_sc_obstacle *o, double x, double y, double z) {
  double p[3] = {x, y, z};
  return cosrod_shape_sdf(NULL, NULL, &o->shape, &o->pose, p);
}

TEST(spec_example) {
  char err[512];
  cosrod_sc_contact *s = parse(SPEC_EXAMPLE, err, sizeof err);
  CHECK("parsed", s != NULL);
  if (!s) return;
  CHECK("6 obstacles, contact enabled", s->nobstacles == 6 && s->enabled);
  const cosrod_sc_obstacle *o = s->obstacles;
  CHECK_NEAR("floor: z = 0.3 is 0.3 above", sdf(o + 0, 1, 2, 0.3), 0.3, 1e-15);
  CHECK_NEAR("post: 0.1 above the centre is 0.05 out", sdf(o + 1, 0.5, 0, 0.3), 0.05, 1e-15);
  CHECK_NEAR("pulley (axis y): (0.3, 0, 1) is 0.2 from the mantle", sdf(o + 2, 0.3, 0, 1), 0.2, 1e-15);
  CHECK_NEAR("pulley: (0, 0.125, 1) is 0.1 beyond the cap (half length 0.025)", sdf(o + 2, 0, 0.125, 1), 0.1,
             1e-15);
  CHECK_NEAR("clip: (0, 0.2, 0.5) is 0.09 beyond the end b", sdf(o + 3, 0, 0.2, 0.5), 0.09, 1e-15);
  CHECK("clip on body 'box' (index 0), others on none", o[3].body == 0 && o[0].body == -1 && !o[3].body_shape);
  CHECK_NEAR("block: (1, 0, 0.5) is 0.3 above the top face", sdf(o + 4, 1, 0, 0.5), 0.3, 1e-15);
  CHECK_NEAR("wall (normal x): (2.5, 0, 0) is 0.5 out", sdf(o + 5, 2.5, 0, 0), 0.5, 1e-15);
  CHECK("wall moves by keyframes", o[5].has_motion && o[5].motion_position.n == 2);
  CHECK("law: auto stiffness and damping, friction 0.5 / 0.4",
        s->law.stiffness == 0 && s->law.damping == 0 && s->law.mu_static == 0.5 && s->law.mu_kinetic == 0.4);
  CHECK("rods on, self off", s->rods == 1 && s->self == 0);
  CHECK_NEAR("moment reference of the block = its centre", o[4].reference[0], 1.0, 0.0);
  cosrod_sc_contact_free(s);
}

TEST(defaults_and_absent) {
  char err[512];
  cosrod_sc_contact *s = parse("cosrod: 1\nrods: []\n", err, sizeof err);
  CHECK("no contact keys: disabled", s && !s->enabled && s->nobstacles == 0);
  cosrod_sc_contact_free(s);
  s = parse("cosrod: 1\ncontact:\n", err, sizeof err);
  CHECK("contact: alone -> defaults (rods, self on, frictionless, auto)",
        s && s->enabled && s->rods && s->self && s->law.mu_static == 0 && s->law.stiffness == 0);
  cosrod_sc_contact_free(s);
  s = parse("cosrod: 1\ncontact: {stiffness: 2.0e5, damping: none, friction: {static: 0.3}}\n", err,
            sizeof err);
  CHECK("numbers, damping none = -1, kinetic defaults to static",
        s && s->law.stiffness == 2e5 && s->law.damping == -1 && s->law.mu_kinetic == 0.3);
  cosrod_sc_contact_free(s);
}

static void expect_error(const char *text, const char *want) {
  char err[512] = "";
  cosrod_sc_contact *s = parse(text, err, sizeof err);
  char lab[256];
  snprintf(lab, sizeof lab, "error contains '%s'", want);
  CHECK(lab, s == NULL && strstr(err, want) != NULL);
  cosrod_sc_contact_free(s);
}

TEST(invalid_inputs) {
  const char *h = "cosrod: 1\ncontact: {}\nobstacles:\n";
  char t[512];
  snprintf(t, sizeof t, "%s  - {name: s, shape: sphere, center: [0, 0, 0], radius: -1}\n", h);
  expect_error(t, "dir/scen.yaml:4: obstacles.0.radius: ");
  snprintf(t, sizeof t, "%s  - {name: s, shape: spher, radius: 1}\n", h);
  expect_error(t, "dir/scen.yaml:4: obstacles.0.shape: ");
  snprintf(t, sizeof t, "%s  - {name: s, shape: sphere, radius: 1, size: [1, 1, 1]}\n", h);
  expect_error(t, "dir/scen.yaml:4: obstacles.0.size: not used by shape sphere");
  snprintf(t, sizeof t, "%s  - {name: s, shape: sphere, radius: 1, sise: [1, 1, 1]}\n", h);
  expect_error(t, "obstacles.0.sise: unknown key (did you mean 'size'?)");
  snprintf(t, sizeof t, "%s  - {name: s, shape: sphere, radius: 1, orientation: [1, 0, 0, 0]}\n", h);
  expect_error(t, "obstacles.0.orientation: not used by shape sphere");
  snprintf(t, sizeof t, "%s  - {name: p, shape: plane, normal: [0, 0, 0]}\n", h);
  expect_error(t, "obstacles.0.normal: must be a nonzero vector");
  snprintf(t, sizeof t, "%s  - {name: p, shape: plane}\n", h);
  expect_error(t, "obstacles.0.normal: missing");
  snprintf(t, sizeof t,
           "%s  - {name: a, shape: sphere, radius: 1}\n  - {name: a, shape: sphere, radius: 2}\n", h);
  expect_error(t, "dir/scen.yaml:5: obstacles.1.name: duplicate obstacle name 'a'");
  snprintf(t, sizeof t,
           "%s  - {name: c, shape: capsule, a: [0, 0, 0], b: [0, 0, 1], radius: 1, body: nobody}\n", h);
  expect_error(t, "obstacles.0.body: no body named 'nobody'");
  snprintf(t, sizeof t, "%s  - {name: m, shape: mesh, file: missing.stl}\n", h);
  expect_error(t, "obstacles.0.file: dir/missing.stl: cannot open mesh file");
  expect_error("cosrod: 1\ncontact: {friction: {static: 0.3, kinetic: 0.5}}\n",
               "dir/scen.yaml:2: contact.friction.kinetic: 0.5 exceeds the static coefficient 0.3");
  expect_error("cosrod: 1\ncontact: {stiffness: soft}\n", "contact.stiffness: expected auto or a number");
  expect_error("cosrod: 1\ncontact: {stifness: 1}\n",
               "contact.stifness: unknown key (did you mean 'stiffness'?)");
  expect_error("cosrod: 1\ncontact: {quadrature: 9}\n", "contact.quadrature: ");
  expect_error("cosrod: 1\nobstacles:\n  - {name: f, shape: plane, normal: [0, 0, 1]}\n",
               "dir/scen.yaml:2: obstacles: no effect without a contact: section");
}

TEST(mesh_file_relative_to_scenario) {
  /* a closed tetrahedron next to a scenario in the current directory */
  FILE *f = fopen("contact_tet.obj", "w");
  fprintf(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\n");
  fclose(f);
  f = fopen("contact_open.obj", "w");
  fprintf(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n");
  fclose(f);
  const char *ok = "cosrod: 1\ncontact: {}\nobstacles:\n  - {name: t, shape: mesh, file: contact_tet.obj}\n";
  cosrod_sc_contact *s = NULL;
  char err[512];
  cosrod_status st = cosrod_sc_contact_parse(ok, strlen(ok), "scen.yaml", &s, err, sizeof err);
  if (st) NOTE("%s", err);
  CHECK("closed mesh accepted, path kept",
        st == COSROD_OK && s && !strcmp(s->obstacles[0].file, "contact_tet.obj"));
  cosrod_sc_contact_free(s);
  const char *bad =
      "cosrod: 1\ncontact: {}\nobstacles:\n  - {name: t, shape: mesh, file: contact_open.obj}\n";
  st = cosrod_sc_contact_parse(bad, strlen(bad), "scen.yaml", &s, err, sizeof err);
  NOTE("%s", err);
  CHECK("open mesh refused: FILE:LINE: key: the mesh's message",
        st == COSROD_ERR_PARSE &&
            strstr(err, "scen.yaml:4: obstacles.0.file: contact_open.obj: not a closed manifold"));
}

/* Through the main loader: a full scenario with obstacles, a body shape
 * and contact settings; --set reaches the new keys; the print lists them;
 * errors are the loader's one line. */
static const char *FULL =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: hose\n"
    "    length: 1.0\n"
    "    segments: 10\n"
    "    material: {E: 1.0e7, poisson: 0.5, density: 1000}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    shape: {type: straight, start: [0, 0, 0.1], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "bodies:\n"
    "  - name: crate\n"
    "    mass: 2\n"
    "    inertia: [1, 1, 1]\n"
    "    position: [0.5, 0, 0.5]\n"
    "    shape: {type: box, size: [0.2, 0.4, 0.6]}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 2]}\n"
    "  - {name: clip, shape: capsule, a: [0, -0.1, 0], b: [0, 0.1, 0], radius: 0.01, body: crate}\n"
    "  - name: pusher\n"
    "    shape: sphere\n"
    "    center: [1, 0, 0.3]\n"
    "    radius: 0.05\n"
    "    motion: {position: [[0, 1, 0, 0.3], [1, 0, 0, 0.3]], interpolation: cubic}\n"
    "contact:\n"
    "  friction: {static: 0.6, kinetic: 0.5}\n"
    "  self: false\n"
    "analysis: {type: dynamic, t_end: 1}\n";

TEST(main_loader) {
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(FULL, strlen(FULL), "dir/full.yaml", NULL, 0, &st);
  if (st) NOTE("%s", cosrod_last_error());
  CHECK("parsed", st == COSROD_OK && sc);
  if (!sc) return;
  const cosrod_sc_contact *c = &sc->contact;
  CHECK("3 obstacles + 1 body shape", c->enabled && c->nobstacles == 4);
  const cosrod_sc_obstacle *o = c->obstacles;
  CHECK("floor normal normalised", o[0].axis[2] == 1.0 && o[0].body == -1);
  CHECK("clip on the crate", o[1].body == 0 && !o[1].body_shape);
  CHECK("pusher keyframed, cubic", o[2].has_motion && o[2].motion_cubic && o[2].motion_position.n == 2);
  CHECK("body shape appended, named after the body", o[3].body_shape && o[3].body == 0 &&
                                                         !strcmp(o[3].name, "crate") &&
                                                         o[3].shape.type == COSROD_SHAPE_BOX);
  CHECK("body points at its shape", sc->bodies[0].has_shape && sc->bodies[0].shape_obstacle == 3);
  double p[3] = {0, 0, 0.5}; /* 0.3 above the top face of the crate's box in its frame */
  CHECK_NEAR("box half-sizes in the body frame", cosrod_shape_sdf(NULL, NULL, &o[3].shape, &o[3].pose, p), 0.2,
             1e-15);
  CHECK("friction, self off, rods on", c->law.mu_static == 0.6 && c->law.mu_kinetic == 0.5 && !c->self && c->rods);
  char *buf = NULL;
  size_t blen = 0;
  FILE *m = open_memstream(&buf, &blen);
  cosrod_scenario_print(sc, m);
  fclose(m);
  NOTE("%s", buf);
  CHECK("print lists obstacles, body shape and contact",
        strstr(buf, "obstacle floor: plane") && strstr(buf, "obstacle clip: capsule") &&
            strstr(buf, "on body crate") && strstr(buf, "body shape crate: box") &&
            strstr(buf, "contact: stiffness auto, damping auto, friction 0.6/0.5, rods on, self off"));
  free(buf);
  cosrod_scenario_free(sc);
  const char *sets[] = {"contact.stiffness=3.0e4", "obstacles.0.normal=[0, 1, 0]"};
  sc = cosrod_scenario_parse(FULL, strlen(FULL), "dir/full.yaml", sets, 2, &st);
  CHECK("--set reaches contact and obstacles",
        st == COSROD_OK && sc->contact.law.stiffness == 3e4 && sc->contact.obstacles[0].axis[1] == 1.0);
  cosrod_scenario_free(sc);
  const char *bad[][2] = {
      {"contact.friction.static=-1", "--set contact.friction.static: must be >= 0"},
      {"bodies.0.shape.type=plane", "bodies.0.shape.type: a body cannot be a half-space"},
      {"bodies.0.shape.size=[1, 1]", "bodies.0.shape.size: "},
      {"bodies.0.shape.radius=1", "bodies.0.shape.radius: not used by shape box"},
      {"bodies.0.shape.normal=[0, 0, 1]", "bodies.0.shape.normal: unknown key"},
      {"obstacles.1.body=truck", "obstacles.1.body: no body named 'truck'"},
      {"obstacles.2.motion.position=[[1, 0, 0, 0], [0, 1, 1, 1]]", "obstacles.2.motion.position"},
      {"contact=", NULL}};
  for (size_t i = 0; bad[i][1]; i++) {
    const char *one[] = {bad[i][0]};
    sc = cosrod_scenario_parse(FULL, strlen(FULL), "dir/full.yaml", one, 1, &st);
    char lab[1024];
    snprintf(lab, sizeof lab, "--set %s -> '%s' (got '%s')", bad[i][0], bad[i][1], cosrod_last_error());
    CHECK(lab, st == COSROD_ERR_PARSE && !sc && strstr(cosrod_last_error(), bad[i][1]) && !strchr(cosrod_last_error(), '\n'));
  }
  /* a body shape or obstacles without contact: */
  const char *nocontact = "cosrod: 1\nbodies:\n  - {name: b, mass: 1, inertia: [1, 1, 1], shape: {type: sphere, "
                          "radius: 1}}\nanalysis: {t_end: 1}\n";
  sc = cosrod_scenario_parse(nocontact, strlen(nocontact), "x.yaml", NULL, 0, &st);
  CHECK("body shape without contact: refused with its line",
        st == COSROD_ERR_PARSE && strstr(cosrod_last_error(), "x.yaml:3: bodies.0.shape: no effect without a contact: section"));
}

static const th_case cases[] = {TH_CASE(spec_example), TH_CASE(defaults_and_absent), TH_CASE(invalid_inputs),
                                TH_CASE(mesh_file_relative_to_scenario), TH_CASE(main_loader)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
