/* Scenario keys obstacles: and contact: ([manual: contact]): every shape of the manual's
 * example read into the plain structs with its pose (checked by the signed
 * distance of points whose distance is known by construction), defaults,
 * and one `FILE:LINE: key.path: problem` message per kind of bad input. */
#include <math.h>
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
  CHECK("clip on body 'box'", !strcmp(o[3].body, "box"));
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
  expect_error(t, "obstacles.0.size: unknown key");
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

static const th_case cases[] = {TH_CASE(spec_example), TH_CASE(defaults_and_absent), TH_CASE(invalid_inputs),
                                TH_CASE(mesh_file_relative_to_scenario)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
