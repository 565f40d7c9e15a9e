// SPDX-License-Identifier: Apache-2.0
/* Scenario loader: every example loads, values and defaults are as written in
 * the files / [manual: scenario reference], --set overrides work, the key -> line table is right,
 * and hostile input (junk, deep nesting, mutations) is rejected without a crash.
 * References are independent: values typed from [manual: examples] / the papers and
 * formulas re-derived here, not read back from the loader's own tables. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "harness.h"

#define PI_ 3.14159265358979323846

static const char *examples_dir(void) {
  const char *d = getenv("COSROD_EXAMPLES");
  return d ? d : "examples";
}

static cosrod_scenario *load_example(const char *name, const char *const *sets, size_t nsets, char *err,
                                     size_t errlen) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", examples_dir(), name);
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, sets, nsets, &st);
  if (err && errlen) snprintf(err, errlen, "%s", cosrod_last_error());
  if (st != COSROD_OK) NOTE("%s: %s", name, err);
  return sc;
}

static const char *const EXAMPLES[] = {"rubber-pendulum.yaml", "omega-twist.yaml",   "perf-rubber.yaml",
                                       "perf-steel.yaml",      "kv-cantilever.yaml", "convergence.yaml",
                                       "stiffness.yaml",       "heavy-top.yaml",     "tennis-racket.yaml",
                                       "two-body-joint.yaml"};
#define NEX (sizeof EXAMPLES / sizeof EXAMPLES[0])

/* Rotation matrix of a unit quaternion, [LLA] eq. (1), row-major. */
static void rot(const double *q, double *R) {
  double a = q[0], b = q[1], c = q[2], d = q[3];
  R[0] = a * a + b * b - c * c - d * d;
  R[1] = 2 * (b * c - a * d);
  R[2] = 2 * (b * d + a * c);
  R[3] = 2 * (b * c + a * d);
  R[4] = a * a - b * b + c * c - d * d;
  R[5] = 2 * (c * d - a * b);
  R[6] = 2 * (b * d - a * c);
  R[7] = 2 * (c * d + a * b);
  R[8] = a * a - b * b - c * c + d * d;
}

static void matmul3(const double *A, const double *B, double *C) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += A[3 * i + k] * B[3 * k + j];
      C[3 * i + j] = s;
    }
}

TEST(examples_all_load) {
  char err[512];
  size_t ok = 0;
  for (size_t i = 0; i < NEX; i++) {
    cosrod_scenario *sc = load_example(EXAMPLES[i], NULL, 0, err, sizeof err);
    if (sc) ok++;
    CHECK(EXAMPLES[i], sc != NULL);
    cosrod_scenario_free(sc);
  }
  CHECK_NEAR("all 10 [manual: examples] examples load", (double)ok, 10.0, 0.0);
}

TEST(rubber_pendulum_values) {
  char err[512];
  cosrod_scenario *sc = load_example("rubber-pendulum.yaml", NULL, 0, err, sizeof err);
  CHECK("loads", sc != NULL);
  if (!sc) return;
  const cosrod_sc_rod *r = &sc->rods[0];
  const double rad = 5e-3, E = 5e6;
  /* exact decimal inputs: compare to 1 ulp-ish; derived quantities to 1e-14 rel. */
  CHECK_REL("E [Pa] (LLA Test 1)", r->material.E, E, 1e-15);
  CHECK_REL("nu = 0.5 -> G = E/3", r->material.G, E / 3.0, 1e-14);
  CHECK_REL("density", r->material.density, 1100.0, 1e-15);
  CHECK("N = 10", r->segments == 10);
  CHECK_REL("L", r->length, 1.0, 1e-15);
  CHECK_NEAR("uniform grid s_3 = 0.3", r->grid[3], 0.3, 1e-15);
  CHECK_REL("A = pi r^2", r->section.area, PI_ * rad * rad, 1e-14);
  CHECK_REL("EI1 = E pi r^4 / 4", r->EI1, E * PI_ * pow(rad, 4) / 4, 1e-14);
  CHECK_REL("GJ = G pi r^4 / 2", r->GJ, E / 3.0 * PI_ * pow(rad, 4) / 2, 1e-14);
  CHECK_REL("rhoA", r->rhoA, 1100 * PI_ * rad * rad, 1e-14);
  CHECK("start pinned", r->ends[0].type == COSROD_SC_END_PINNED && r->ends[0].body == -1);
  CHECK("end free", r->ends[1].type == COSROD_SC_END_FREE);
  CHECK("curvature sine-4", r->curvature == COSROD_SC_CURVATURE_SINE4);
  CHECK("undamped", r->damping.kind == COSROD_SC_DAMPING_NONE);
  double dir[3] = {0, 1, 0}, nrm[3] = {0, 0, 1}, g[3] = {0, 0, -9.81};
  CHECK_VEC("direction = e2 (d3)", r->shape.direction, dir, 3, 0, 0);
  CHECK_VEC("normal = e3 (d1)", r->shape.normal, nrm, 3, 0, 0);
  CHECK_VEC("gravity", sc->gravity, g, 3, 0, 0);
  CHECK("integrator dopri5", sc->solver.integrator == COSROD_SC_INTEGRATOR_DOPRI5);
  CHECK_REL("rtol", sc->solver.rtol, 1e-8, 1e-15);
  /* defaults filled in ([manual: scenario reference] / scenario.h) */
  CHECK_NEAR("default shear correction", r->shear_correction[0] + r->shear_correction[1], 2.0, 0);
  CHECK("default reference initial", r->reference == COSROD_SC_REFERENCE_INITIAL);
  CHECK("default formulation nullspace", sc->solver.formulation == COSROD_SC_FORMULATION_NULLSPACE);
  CHECK("default max_steps", sc->solver.max_steps == 100000);
  CHECK_NEAR("default h0 = 0 (automatic)", sc->solver.h0, 0.0, 0);
  CHECK("no loads, no bodies", r->nloads == 0 && sc->nbodies == 0);
  CHECK("model name", strcmp(cosrod_sc_model_name(r->model), "cosserat") == 0);
  cosrod_scenario_free(sc);
}

TEST(damping_resolution) {
  char err[512];
  cosrod_scenario *sc = load_example("perf-rubber.yaml", NULL, 0, err, sizeof err);
  CHECK("perf-rubber loads", sc != NULL);
  if (!sc) return;
  const cosrod_sc_damping *d = &sc->rods[0].damping;
  /* [LLA] c values, V = 2c ([manual: theory]) */
  double vg[3] = {0.2, 0.2, 400.0}, vk[3] = {4e-4, 4e-4, 1.6e-5};
  CHECK_VEC("V_Gamma = 2 c_Gamma", d->V_gamma, vg, 3, 1e-15, 0);
  CHECK_VEC("V_K = 2 c_K", d->V_kappa, vk, 3, 1e-15, 0);
  CHECK("absolute + baumgarte", sc->solver.formulation == COSROD_SC_FORMULATION_ABSOLUTE &&
                                    sc->solver.stabilisation == COSROD_SC_STAB_BAUMGARTE);
  CHECK_NEAR("baumgarte omega", sc->solver.baumgarte_omega, 100, 0);
  CHECK("curvature tangent-2", sc->rods[0].curvature == COSROD_SC_CURVATURE_TANGENT2);
  cosrod_scenario_free(sc);

  /* Kelvin-Voigt with tau_S != tau_B: tau_E = ((1-2nu) tau_B + 2(1+nu) tau_S)/3 ([LLT] eq. 4) */
  const char *sets[] = {"rods.0.damping.kelvin_voigt.tau_shear=0.02"};
  sc = load_example("kv-cantilever.yaml", sets, 1, err, sizeof err);
  CHECK("kv-cantilever loads with --set", sc != NULL);
  if (!sc) return;
  const cosrod_sc_rod *r = &sc->rods[0];
  double nu = 0.3, E = 1e6, G = E / (2 * (1 + nu)), A = 1e-4, I = 1e-8 / 12;
  double tE = ((1 - 2 * nu) * 0.01 + 2 * (1 + nu) * 0.02) / 3;
  CHECK_REL("tau_E", r->damping.tau_extension, tE, 1e-14);
  double vg2[3] = {0.02 * G * A, 0.02 * G * A, tE * E * A},
         vk2[3] = {tE * E * I, tE * E * I, 0.02 * G * 2 * I};
  CHECK_VEC("V_Gamma = (tS GA, tS GA, tE EA)", r->damping.V_gamma, vg2, 3, 1e-14, 0);
  CHECK_VEC("V_K = (tE EI1, tE EI2, tS GJ), square: J = I1 + I2", r->damping.V_kappa, vk2, 3, 1e-14, 0);
  CHECK("preload at the tip vertex N = 20",
        r->nloads == 1 && r->loads[0].profile == COSROD_SC_PROFILE_PRELOAD && r->loads[0].vertex == 20);
  CHECK("start_from_equilibrium", sc->analysis.start_from_equilibrium == 1);
  cosrod_scenario_free(sc);

  /* damping.medium alone (kind stays none) and together with Kelvin-Voigt */
  const char *med[] = {"rods.0.damping={medium: {translational: 0.25, rotational: 3.0e-6}}"};
  sc = load_example("rubber-pendulum.yaml", med, 1, err, sizeof err);
  CHECK("medium alone loads", sc != NULL);
  if (!sc) return;
  CHECK("medium alone: no strain-rate damping", sc->rods[0].damping.kind == COSROD_SC_DAMPING_NONE);
  CHECK_NEAR("c_t", sc->rods[0].damping.medium_translational, 0.25, 0);
  CHECK_NEAR("c_r", sc->rods[0].damping.medium_rotational, 3.0e-6, 0);
  cosrod_scenario_free(sc);
  const char *med2[] = {"rods.0.damping.medium.rotational=0.5"};
  sc = load_example("kv-cantilever.yaml", med2, 1, err, sizeof err);
  CHECK("medium with Kelvin-Voigt loads", sc != NULL);
  if (!sc) return;
  CHECK("Kelvin-Voigt kept", sc->rods[0].damping.kind == COSROD_SC_DAMPING_KELVIN_VOIGT);
  CHECK_NEAR("c_t default 0", sc->rods[0].damping.medium_translational, 0, 0);
  CHECK_NEAR("c_r", sc->rods[0].damping.medium_rotational, 0.5, 0);
  cosrod_scenario_free(sc);
  const char *bad[] = {"rods.0.damping.medium.translational=-1"};
  sc = load_example("kv-cantilever.yaml", bad, 1, err, sizeof err);
  CHECK("negative c_t refused", sc == NULL && strstr(err, "rods.0.damping.medium.translational") != NULL);
  NOTE("%s", err);
  cosrod_scenario_free(sc);
}

TEST(bodies_orientation) {
  char err[512];
  cosrod_scenario *sc = load_example("heavy-top.yaml", NULL, 0, err, sizeof err);
  CHECK("heavy-top loads", sc != NULL);
  if (!sc) return;
  /* [L] Example A: p(0) = (sqrt(3)/2, 1/2, 0, 0); rounding of pi/3 in the file ~1e-16 */
  double q[4] = {sqrt(3.0) / 2, 0.5, 0, 0};
  CHECK_VEC("euler313 (0, pi/3, 0) -> quaternion", sc->bodies[0].quaternion, q, 4, 0, 1e-15);
  CHECK("spherical joint top-ground",
        sc->njoints == 1 && sc->joints[0].body[0] == 0 && sc->joints[0].body[1] == -1);
  /* centre of mass = pivot + R(p0) * (0, 0, L), L = 1 */
  double R[9], com[3];
  rot(sc->bodies[0].quaternion, R);
  for (int i = 0; i < 3; i++) com[i] = R[3 * i + 2];
  CHECK_VEC("body position = R(p0) e3 (consistent with the joint)", sc->bodies[0].position, com, 3, 0, 1e-15);
  cosrod_scenario_free(sc);

  sc = load_example("tennis-racket.yaml", NULL, 0, err, sizeof err);
  CHECK("tennis-racket loads", sc != NULL);
  if (!sc) return;
  /* R(q) against Rz(phi) Rx(theta) Rz(psi) built from matrices */
  double ph = PI_ / 3, th = PI_ / 4, ps = PI_ / 2;
  double Rz1[9] = {cos(ph), -sin(ph), 0, sin(ph), cos(ph), 0, 0, 0, 1};
  double Rx[9] = {1, 0, 0, 0, cos(th), -sin(th), 0, sin(th), cos(th)};
  double Rz2[9] = {cos(ps), -sin(ps), 0, sin(ps), cos(ps), 0, 0, 0, 1};
  double T[9], Rw[9], Rq[9];
  matmul3(Rz1, Rx, T);
  matmul3(T, Rz2, Rw);
  rot(sc->bodies[0].quaternion, Rq);
  CHECK_MAT("R(q(euler313)) = Rz Rx Rz (rounding ~1e-16)", Rq, Rw, 3, 3, 3, 3, 0, 1e-15);
  double qn = 0;
  for (int i = 0; i < 4; i++) qn += sc->bodies[0].quaternion[i] * sc->bodies[0].quaternion[i];
  CHECK_NEAR("|q| = 1", qn, 1.0, 1e-15);
  cosrod_scenario_free(sc);

  sc = load_example("two-body-joint.yaml", NULL, 0, err, sizeof err);
  CHECK("two-body-joint loads", sc != NULL);
  if (!sc) return;
  /* the file's x2 and xdot2 must satisfy the joint: x1 + R rho1 = x2 + R rho2 */
  rot(sc->bodies[0].quaternion, R);
  const cosrod_sc_joint *j = &sc->joints[0];
  double res = 0;
  for (int i = 0; i < 3; i++) {
    double a = sc->bodies[0].position[i], b = sc->bodies[1].position[i];
    for (int k = 0; k < 3; k++) a += R[3 * i + k] * j->at[0][k], b += R[3 * i + k] * j->at[1][k];
    res = fmax(res, fabs(a - b));
  }
  CHECK_LE("joint residual of the initial positions [m] (file rounding 1e-15)", res, 1e-13);
  CHECK("bushing to ground, k = 1e4", sc->njoints == 2 && sc->joints[1].type == COSROD_SC_JOINT_BUSHING &&
                                          sc->joints[1].body[1] == -1 && sc->joints[1].stiffness == 1e4);
  cosrod_scenario_free(sc);
}

TEST(prescribed_keyframes) {
  char err[512];
  cosrod_scenario *sc = load_example("omega-twist.yaml", NULL, 0, err, sizeof err);
  CHECK("omega-twist loads", sc != NULL);
  if (!sc) return;
  const cosrod_sc_end *e = &sc->rods[0].ends[1];
  CHECK("end prescribed with 2 + 2 keyframes",
        e->type == COSROD_SC_END_PRESCRIBED && e->position.n == 2 && e->orientation.n == 2);
  double qN1[4] = {-0.5, 0.5, -0.5, -0.5}, xN1[3] = {0, 0.5, 0};
  CHECK_VEC("p_N(1) = -(1,-1,1,1)/2 kept as given", e->orientation.values + 4, qN1, 4, 0, 1e-16);
  CHECK_VEC("x_N(1) = L/2 e2", e->position.values + 3, xN1, 3, 0, 0);
  CHECK("static, 25 increments",
        sc->analysis.type == COSROD_SC_ANALYSIS_STATIC && sc->analysis.increments == 25);
  CHECK_REL("output every 0.25 (the plot times of [LLA] Fig. 5)", sc->output.every, 0.25, 0);
  cosrod_scenario_free(sc);
  /* without output.every: every nominal increment */
  const char *sets[] = {"output={dir: out}"};
  sc = load_example("omega-twist.yaml", sets, 1, err, sizeof err);
  CHECK("omega-twist loads with output replaced", sc != NULL);
  if (!sc) return;
  CHECK_REL("static output every increment by default", sc->output.every, 1.0 / 25, 1e-15);
  cosrod_scenario_free(sc);
}

TEST(set_overrides) {
  char err[512];
  const char *sets[] = {
      "rods.0.segments=20",
      "solver.rtol=1e-4",
      "solver.h0=1.0e-5",
      "rods.0.damping.kelvin_voigt={tau_shear: 0.01, tau_bulk: 0.03}",
      "gravity=[0, 0, -1.62]",
      "rods.0.loads.0={type: force, at: 4, value: [1, 2, 3], ramp: [0, 0.5]}",
      "rods.1={length: 2, segments: 4, material: rubber, section: {shape: circle, radius: 0.01}}",
      "title=\"moon: 1.62\""};
  cosrod_scenario *sc =
      load_example("rubber-pendulum.yaml", sets, sizeof sets / sizeof sets[0], err, sizeof err);
  CHECK("loads with 8 overrides", sc != NULL);
  if (!sc) return;
  CHECK("segments 20", sc->rods[0].segments == 20);
  CHECK_NEAR("grid follows: s_20 = L", sc->rods[0].grid[20], 1.0, 1e-15);
  CHECK_REL("rtol", sc->solver.rtol, 1e-4, 1e-15);
  CHECK_REL("h0 (created)", sc->solver.h0, 1e-5, 1e-15);
  CHECK("damping created", sc->rods[0].damping.kind == COSROD_SC_DAMPING_KELVIN_VOIGT);
  CHECK_REL("tau_bulk", sc->rods[0].damping.tau_bulk, 0.03, 1e-15);
  CHECK_REL("gravity", sc->gravity[2], -1.62, 1e-15);
  CHECK("load created in a new list", sc->rods[0].nloads == 1 && sc->rods[0].loads[0].vertex == 4 &&
                                          sc->rods[0].loads[0].profile == COSROD_SC_PROFILE_RAMP);
  CHECK("second rod appended, default name rod1", sc->nrods == 2 && !strcmp(sc->rods[1].name, "rod1"));
  CHECK_REL("second rod length", sc->rods[1].length, 2.0, 1e-15);
  CHECK("quoted title", !strcmp(sc->title, "moon: 1.62"));
  CHECK("overridden keys have line 0", cosrod_scenario_line(sc, "solver.h0") == 0);
  cosrod_scenario_free(sc);

  struct {
    const char *set, *prefix;
  } bad[] = {
      {"rods.0.segments=0", "--set rods.0.segments: must be >= 1"},
      {"rods.0.segments=1e7", "--set rods.0.segments: must be <= 1000000"},
      {"solver.rtl=1e-4", "--set solver.rtl: unknown key (did you mean 'rtol'?)"},
      {"rods.3.name=x", "--set rods.3: no such list index"},
      {"rods.0.name.x=1", "--set rods.0.name.x: cannot set a key below a scalar"},
      {"solver.rtol", "--set solver.rtol: expects key.path=value"},
      {"solver..rtol=1", "--set solver..rtol: malformed key path"},
      {"solver.rtol=[1, 2", "--set solver.rtol: bad value"},
      {"solver.rtol=.nan", "--set solver.rtol: must be a finite number"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sc = load_example("rubber-pendulum.yaml", &bad[i].set, 1, err, sizeof err);
    NOTE("--set %s -> %s", bad[i].set, err);
    CHECK(bad[i].set, sc == NULL && strstr(err, bad[i].prefix) != NULL);
    cosrod_scenario_free(sc);
  }
}

/* Line of the first line of `path` containing `needle`, counted here. */
static int grep_line(const char *path, const char *needle) {
  FILE *f = fopen(path, "r");
  char buf[1024];
  int line = 0, found = 0;
  if (!f) return -1;
  while (fgets(buf, sizeof buf, f)) {
    line++;
    if (strstr(buf, needle)) {
      found = line;
      break;
    }
  }
  fclose(f);
  return found;
}

TEST(key_lines) {
  char path[1024], msg[256];
  snprintf(path, sizeof path, "%s/%s", examples_dir(), "perf-rubber.yaml");
  cosrod_scenario *sc = NULL;
  CHECK("loads", (sc = cosrod_scenario_load(path, NULL, 0, NULL)) != NULL);
  if (!sc) return;
  int seg = grep_line(path, "    segments:"), rtol = grep_line(path, "  rtol:"),
      rods = grep_line(path, "  - name: rod");
  CHECK_NEAR("line of rods.0.segments", cosrod_scenario_line(sc, "rods.0.segments"), seg, 0);
  CHECK_NEAR("line of solver.rtol", cosrod_scenario_line(sc, "solver.rtol"), rtol, 0);
  CHECK_NEAR("defaulted key falls back to its rod", cosrod_scenario_line(sc, "rods.0.shear_correction"), rods,
             0);
  CHECK_NEAR("unknown top-level key -> 0", cosrod_scenario_line(sc, "nonsense"), 0, 0);
  cosrod_scenario_format_error(sc, "rods.0.segments", "too coarse", msg, sizeof msg);
  char want[1200];
  snprintf(want, sizeof want, "%s:%d: rods.0.segments: too coarse", path, seg);
  CHECK("format_error", strcmp(msg, want) == 0);
  cosrod_scenario_free(sc);
}

TEST(defaults_and_shapes) {
  const char *text =
      "cosrod: 1\n"
      "rods:\n"
      "  - material: {E: 1.0e9, G: 4.0e8, density: 1000}\n"
      "    section: {shape: rectangle, width: 0.02, height: 0.01}\n"
      "    shape: {type: arc, radius: 2.0, angle_deg: 90, direction: [1, 0, 0], normal: [0, 1, 0]}\n"
      "  - material: {E: 1.0e9, poisson: 0.25, density: 1000}\n"
      "    grid: [0, 0.1, 0.3, 0.6, 1.0]\n"
      "    section: {shape: custom, area: 1e-4, I1: 1e-9, I2: 2e-9, J: 3e-9}\n"
      "    stiffness: {EI1: 7.5}\n"
      "    shape: {type: polyline, points: [[0, 0, 0], [3, 4, 0], [3, 4, 12]], normal: [0, 0, 1]}\n"
      "analysis: {t_end: 2}\n";
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(text, strlen(text), "mem.yaml", NULL, 0, &st);
  if (st) NOTE("%s", cosrod_last_error());
  CHECK("parses", st == COSROD_OK && sc);
  if (!sc) return;
  const cosrod_sc_rod *a = &sc->rods[0], *b = &sc->rods[1];
  CHECK_REL("arc length R * pi/2 taken as L (reference: initial)", a->length, PI_, 1e-15);
  CHECK("default 10 segments, tangent-2, integrator auto", a->segments == 10 &&
                                                      a->curvature == COSROD_SC_CURVATURE_TANGENT2 &&
                                                      sc->solver.integrator == COSROD_SC_INTEGRATOR_AUTO);
  CHECK_REL("G given -> nu = E/2G - 1", a->material.poisson, 0.25, 1e-15);
  CHECK_REL("rectangle I1 = w h^3/12 (about d1)", a->section.I1, 0.02 * 1e-6 / 12, 1e-14);
  CHECK_REL("rectangle I2 = h w^3/12", a->section.I2, 0.01 * 8e-6 / 12, 1e-14);
  CHECK_REL("rectangle J = I1 + I2", a->section.J, a->section.I1 + a->section.I2, 1e-15);
  CHECK("default output: out/<file stem>", !strcmp(sc->output.dir, "out/mem") && sc->output.vtk == 1 &&
                                                sc->output.plots == 1);
  CHECK_REL("default output every = t_end/100", sc->output.every, 0.02, 1e-15);
  CHECK("grid: N = 4, non-uniform", b->segments == 4 && b->grid_given == 1);
  CHECK_REL("grid length", b->length, 1.0, 1e-15);
  CHECK_REL("stiffness override EI1", b->EI1, 7.5, 1e-15);
  CHECK_REL("EI2 from E I2", b->EI2, 1e9 * 2e-9, 1e-15);
  CHECK("override bit of EI1 only", b->stiffness_overridden == (1u << 3));
  CHECK_REL("polyline length 5 + 12", b->shape.length, 17.0, 1e-15);
  double d0[3] = {0.6, 0.8, 0};
  CHECK_VEC("polyline direction = first tangent", b->shape.direction, d0, 3, 1e-15, 0);
  cosrod_scenario_free(sc);
}

/* An error report: 1..20 lines, each starting with prefix (one problem each). */
static int report_ok(const char *err, const char *prefix) {
  int lines = 0;
  for (const char *l = err; l; lines++) {
    if (strncmp(l, prefix, strlen(prefix)) != 0) return 0;
    l = strchr(l, '\n');
    if (l) l++;
  }
  return lines >= 1 && lines <= 20;
}

TEST(default_output_dir) {
  /* no output.dir: out/<file stem>; names that are no file name: out */
  static const char *const cases[][2] = {{"cases/my-case.yaml", "out/my-case"}, {"a.b.yml", "out/a.b"},
                                         {"/abs/path/run1", "out/run1"},        {"<input>", "out"},
                                         {".yaml", "out"},                      {"x.yaml", "out/x"}};
  const char *text = "cosrod: 1\nrods:\n  - {length: 1, material: {E: 1.0e9, poisson: 0.3, density: 1000}, section: "
                     "{shape: circle, radius: 0.01}}\nanalysis: {t_end: 1}\n";
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cosrod_scenario *sc = NULL;
    cosrod_status st = COSROD_OK;
    sc = cosrod_scenario_parse(text, strlen(text), cases[i][0], NULL, 0, &st);
    CHECK(cases[i][1], st == COSROD_OK && !strcmp(sc->output.dir, cases[i][1]));
    cosrod_scenario_free(sc);
  }
  const char *given = "cosrod: 1\nrods:\n  - {length: 1, material: {E: 1.0e9, poisson: 0.3, density: 1000}, section: "
                      "{shape: circle, radius: 0.01}}\nanalysis: {t_end: 1}\noutput: {dir: res}\n";
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(given, strlen(given), "x.yaml", NULL, 0, &st);
  CHECK("a given dir is kept", st == COSROD_OK && !strcmp(sc->output.dir, "res"));
  cosrod_scenario_free(sc);
}

TEST(hostile_input) {
  cosrod_scenario *sc = NULL;
  /* deeply nested flow sequences */
  size_t depth = 100000;
  char *deep = malloc(2 * depth + 16);
  CHECK("alloc", deep != NULL);
  if (!deep) return;
  strcpy(deep, "cosrod: ");
  size_t n = strlen(deep);
  for (size_t i = 0; i < depth; i++) deep[n++] = '[';
  for (size_t i = 0; i < depth; i++) deep[n++] = ']';
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(deep, n, "deep.yaml", NULL, 0, &st);
  free(deep);
  NOTE("%s", cosrod_last_error());
  CHECK("100000-deep nesting -> parse error",
        st == COSROD_ERR_PARSE && sc == NULL && strstr(cosrod_last_error(), "deep.yaml:1: "));

  /* random bytes: always an error, one line, never a crash */
  th_rng rng;
  th_rng_seed(&rng, 42);
  int errors = 0, oneline = 0;
  char buf[512];
  for (int it = 0; it < 300; it++) {
    size_t len = (size_t)(th_rng_u64(&rng) % sizeof buf);
    for (size_t i = 0; i < len; i++) buf[i] = (char)(th_rng_u64(&rng) & 0xff);
    sc = cosrod_scenario_parse(buf, len, "junk", NULL, 0, &st);
    errors += st == COSROD_ERR_PARSE;
    oneline += report_ok(cosrod_last_error(), "junk:");
    cosrod_scenario_free(sc);
  }
  CHECK_NEAR("300 random byte strings rejected", errors, 300, 0);
  CHECK_NEAR("... each with 'junk:LINE: key: problem' lines", oneline, 300, 0);

  /* byte mutations of a valid example: OK or 'mut:LINE: ...' lines, no crash/leak */
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", examples_dir(), "two-body-joint.yaml");
  FILE *f = fopen(path, "rb");
  CHECK("open example", f != NULL);
  if (!f) return;
  static char text[16384];
  size_t tl = fread(text, 1, sizeof text, f);
  fclose(f);
  int bad = 0, ok = 0;
  for (int it = 0; it < 400; it++) {
    char *m = malloc(tl);
    if (!m) break;
    memcpy(m, text, tl);
    for (int k = 0; k < 3; k++) {
      size_t pos = (size_t)(th_rng_u64(&rng) % tl);
      static const char pool[] = "-:[]{},.#&*!|>'\"%@` 0123456789eE\n\tabcxyz";
      m[pos] = pool[th_rng_u64(&rng) % (sizeof pool - 1)];
    }
    sc = cosrod_scenario_parse(m, tl, "mut", NULL, 0, &st);
    free(m);
    if (st == COSROD_OK)
      ok++;
    else if (st != COSROD_ERR_PARSE || !report_ok(cosrod_last_error(), "mut:"))
      bad++;
    cosrod_scenario_free(sc);
  }
  NOTE("mutations: %d accepted, %d rejected", ok, 400 - ok);
  CHECK_NEAR("mutated files: no malformed error reports", bad, 0, 0);
  cosrod_scenario_free(NULL); /* no-op */
}

static const th_case cases[] = {TH_CASE(default_output_dir), 
    TH_CASE(examples_all_load),  TH_CASE(rubber_pendulum_values), TH_CASE(damping_resolution),
    TH_CASE(bodies_orientation), TH_CASE(prescribed_keyframes),   TH_CASE(set_overrides),
    TH_CASE(key_lines),          TH_CASE(defaults_and_shapes),    TH_CASE(hostile_input)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
