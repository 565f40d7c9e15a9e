// SPDX-License-Identifier: Apache-2.0
/* The [L] §7 examples shipped in examples/ (heavy-top, tennis-racket,
 * two-body-joint) through the scenario loader and sim_bodies into the
 * multibody model, integrated here: invariants of the exact solutions
 * (energy, momenta, joint constraint) and agreement of the null-space and
 * absolute formulations ([L] Ex. A, B, C). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/body.h"
#include "cosrod/integrate.h"
#include "cosrod/quat.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "cosrod/vec3.h"
#include "bodies_run_util.h"
#include "harness.h"
#include "outtest.h"
#include "sim/sim_translate.h"

static cosrod_mbs *load(const char *name, const char *set) {
  char path[1024], err[512];
  const char *dir = getenv("COSROD_EXAMPLES");
  snprintf(path, sizeof path, "%s/%s", dir ? dir : "examples", name);
  const char *sets[1] = {set};
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, set ? sets : NULL, set ? 1 : 0, NULL))) {
    NOTE("load %s: %s", path, cosrod_last_error());
    return NULL;
  }
  cosrod_status st;
  cosrod_mbs *m = cosrod_sim_bodies_create(sc, &st, err, sizeof err);
  if (!m) NOTE("bodies %s: %s", path, err);
  cosrod_scenario_free(sc);
  return m;
}

static int run(const cosrod_mbs *m, cosrod_mbs_data *d, double T, double tol, double *y) {
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  o.max_steps = 1000000;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name("dop853"), &p, &o, &st);
  if (!it) return -1;
  double *y0 = malloc((size_t)cosrod_mbs_n(m) * sizeof *y0);
  cosrod_mbs_initial_state(m, y0);
  st = cosrod_integrate(it, 0.0, y0, T, NULL, y);
  free(y0);
  cosrod_integrator_free(it);
  return st == COSROD_OK ? 0 : -1;
}

static double total_energy(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y) {
  double k, g, e;
  cosrod_mbs_energy(m, d, t, y, &k, &g, &e);
  return k + g + e;
}

TEST(heavy_top_example) {
  const char *forms[2] = {NULL, "solver.formulation=absolute"};
  double xref[3] = {0, 0, 0};
  for (int f = 0; f < 2; ++f) {
    cosrod_mbs *m = load("heavy-top.yaml", forms[f]);
    CHECK("load", m != NULL);
    if (!m) continue;
    CHECK("3 degrees of freedom (spherical joint to ground)", cosrod_mbs_ndof(m) == 3);
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    int n = cosrod_mbs_n(m);
    double *y0 = calloc((size_t)n, sizeof *y0), *y = calloc((size_t)n, sizeof *y);
    cosrod_mbs_initial_state(m, y0);
    double E0 = total_energy(m, d, 0, y0);
    CHECK("integrate 5 s", run(m, d, 5.0, 1e-10, y) == 0);
    double E1 = total_energy(m, d, 5.0, y), x[3];
    NOTE("%s: E %.12g -> %.12g", f ? "absolute" : "nullspace", E0, E1);
    CHECK_NEAR("energy", E1, E0, 1e-7 * fabs(E0));
    cosrod_mbs_body_state(m, d, y, 0, x, NULL, NULL, NULL);
    CHECK_NEAR("centre of mass stays at distance 1 from the pivot", cosrod_vec3_norm(x), 1.0, 1e-8);
    if (f == 0)
      cosrod_vec3_copy(xref, x);
    else
      CHECK_VEC("absolute agrees with null space", x, xref, 3, 0.0, 1e-6);
    free(y0), free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

TEST(tennis_racket_example) {
  cosrod_mbs *m = load("tennis-racket.yaml", NULL);
  CHECK("load", m != NULL);
  if (!m) return;
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  int n = cosrod_mbs_n(m);
  double *y = calloc((size_t)n, sizeof *y), Om[3];
  CHECK("integrate to 0.8 s", run(m, d, 0.8, 1e-11, y) == 0);
  cosrod_mbs_body_state(m, d, y, 0, NULL, NULL, NULL, Om);
  /* torque-free invariants 2T and |L|^2 with I = (41.6, 11.6, 50) */
  const double I[3] = {41.6, 11.6, 50.0}, O0[3] = {50, 1e-3, 1e-3};
  double T0 = 0, T1 = 0, L0 = 0, L1 = 0;
  for (int k = 0; k < 3; ++k) {
    T0 += I[k] * O0[k] * O0[k], T1 += I[k] * Om[k] * Om[k];
    L0 += I[k] * I[k] * O0[k] * O0[k], L1 += I[k] * I[k] * Om[k] * Om[k];
  }
  NOTE("Omega(0.8) = (%.6g, %.6g, %.6g)", Om[0], Om[1], Om[2]);
  CHECK_NEAR("kinetic energy", T1, T0, 1e-8 * T0);
  CHECK_NEAR("|L|^2", L1, L0, 1e-8 * L0);
  CHECK("d1 has flipped once by t = 0.8 (first flip near 0.39 s)", Om[0] < -40.0);
  free(y);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
}

TEST(two_body_joint_example) {
  const char *forms[2] = {NULL, "solver.formulation=absolute"};
  double xref[6];
  for (int f = 0; f < 2; ++f) {
    cosrod_mbs *m = load("two-body-joint.yaml", forms[f]);
    CHECK("load", m != NULL);
    if (!m) continue;
    CHECK("9 degrees of freedom ([L] Table 2)", cosrod_mbs_ndof(m) == 9);
    CHECK("3 joint constraints", cosrod_mbs_nconstr(m) == 3);
    cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
    int n = cosrod_mbs_n(m);
    double *y0 = calloc((size_t)n, sizeof *y0), *y = calloc((size_t)n, sizeof *y), g[3], gd[3];
    cosrod_mbs_initial_state(m, y0);
    double E0 = total_energy(m, d, 0, y0);
    CHECK("integrate 0.5 s", run(m, d, 0.5, 1e-11, y) == 0);
    double E1 = total_energy(m, d, 0.5, y);
    cosrod_mbs_constraints(m, d, y, g, gd);
    NOTE("%s: E %.12g -> %.12g, |g| = %.3g, |gdot| = %.3g", f ? "absolute" : "nullspace", E0, E1,
         fmax(fabs(g[0]), fmax(fabs(g[1]), fabs(g[2]))), fmax(fabs(gd[0]), fmax(fabs(gd[1]), fabs(gd[2]))));
    CHECK_NEAR("energy (kinetic + bushing)", E1, E0, 1e-7 * fabs(E0));
    for (int i = 0; i < 3; ++i) CHECK_LE("joint position residual", fabs(g[i]), 1e-9);
    double x[6];
    cosrod_mbs_body_state(m, d, y, 0, x, NULL, NULL, NULL);
    cosrod_mbs_body_state(m, d, y, 1, x + 3, NULL, NULL, NULL);
    if (f == 0)
      memcpy(xref, x, sizeof x);
    else
      CHECK_VEC("absolute agrees with null space", x, xref, 6, 0.0, 1e-6);
    free(y0), free(y);
    cosrod_mbs_data_free(d);
    cosrod_mbs_free(m);
  }
}

static cosrod_scenario *load_sc(const char *name, const char *const *sets, size_t nsets, char *path,
                                size_t plen) {
  const char *dir = getenv("COSROD_EXAMPLES");
  snprintf(path, plen, "%s/%s", dir ? dir : "examples", name);
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, sets, nsets, NULL))) NOTE("load: %s", cosrod_last_error());
  return sc;
}

/* a run of rigid bodies alone writes the [manual: command line, output reference] files for [L] Ex. C */
TEST(bodies_run_writes_files) {
  /* with gravity (the example has none): the potential column is not trivially 0 */
  const char *sets[] = {"analysis.t_end=0.5", "output.plots=false", "gravity=[0, 0, -9.81]"};
  char path[1024], err[512];
  cosrod_scenario *sc = load_sc("two-body-joint.yaml", sets, 3, path, sizeof path);
  CHECK("load", sc != NULL);
  if (!sc) return;
  char *dir = ot_mkdtemp("bodies");
  run_result res;
  cosrod_status st = run_to_dir(sc, path, dir, NULL, &res, err, sizeof err);
  CHECK("run ok", st == COSROD_OK);
  char *hdr = NULL;
  double *data = NULL;
  long nb = ot_csv_read(ot_path(dir, "bodies.csv"), &hdr, &data, 17);
  CHECK("bodies.csv header",
        hdr && !strcmp(hdr, "t,body,x,y,z,q0,q1,q2,q3,Omega1,Omega2,Omega3,vx,vy,vz,kinetic,potential"));
  CHECK("bodies.csv: 51 output times x 2 bodies", nb == 102);
  double *brows = data; /* kept for the energy check below */
  if (nb == 102) {
    /* first row: b1 at the origin with Omega (3, 2, 1), at rest; second: b2 with v = (25, ...) */
    CHECK_NEAR("x1(0)", data[2], 0.0, 1e-15);
    CHECK_NEAR("Omega1(0)", data[9], 3.0, 1e-12);
    CHECK_NEAR("v1(0)", data[12], 0.0, 1e-12);
    CHECK_NEAR("vx of b2 (0), the scenario's velocity", data[17 + 12], 25.0, 1e-12);
  }
  free(hdr);
  long nj = ot_csv_read(ot_path(dir, "joints.csv"), &hdr, &data, 8);
  CHECK("joints.csv header", hdr && !strcmp(hdr, "t,joint,Fx,Fy,Fz,Mx,My,Mz"));
  CHECK("joints.csv: 51 rows (the bushing is not a joint)", nj == 51);
  if (nj > 0) {
    CHECK_NEAR("joint index", data[1], 0.0, 0.0);
    /* spherical joint: no moment about the joint point */
    double mmax = 0.0, fmax_ = 0.0;
    for (long r = 0; r < nj; ++r)
      for (int k = 0; k < 3; ++k) {
        fmax_ = fmax(fmax_, fabs(data[8 * r + 2 + k]));
        mmax = fmax(mmax, fabs(data[8 * r + 5 + k]));
      }
    NOTE("max |F| = %.6g N, max |M| = %.3g N m", fmax_, mmax);
    CHECK_LE("spherical joint transmits no moment", mmax, 1e-7 * fmax_);
  }
  free(hdr), free(data);
  long ne = ot_csv_read(ot_path(dir, "energy.csv"), &hdr, &data, 7);
  CHECK("energy.csv rows", ne == 51);
  if (ne == 51) {
    double b0 = data[6], drift = 0.0;
    for (long r = 0; r < ne; ++r) drift = fmax(drift, fabs(data[7 * r + 6] - b0));
    NOTE("energy balance %.12g, max drift %.3g J", b0, drift);
    CHECK_LE("energy balance drift (relative)", drift / fabs(b0), 1e-6);
    CHECK_NEAR("elastic energy = bushing k/2 |x1|^2 = 0 at t = 0", data[2], 0.0, 1e-12);
    /* the bodies' kinetic and potential columns sum to energy.csv's kinetic
     * and gravity (cosrod_mbs_energy from the model's internal state, another
     * code path): round-off of ~1e6 J totals */
    double dk = 0.0, dp = 0.0;
    for (long r = 0; nb == 102 && r < ne; ++r) {
      const double *b1 = brows + 17 * (2 * r), *b2 = b1 + 17;
      CHECK_NEAR("frame times agree", b1[0], data[7 * r], 0.0);
      dk = fmax(dk, fabs(b1[15] + b2[15] - data[7 * r + 1]));
      dp = fmax(dp, fabs(b1[16] + b2[16] - data[7 * r + 3]));
    }
    NOTE("bodies.csv vs energy.csv: kinetic %.3g J, potential %.3g J (kinetic %.6g J)", dk, dp, data[1]);
    CHECK_LE("sum of the bodies' kinetic energies = energy.csv kinetic", dk, 1e-9 * fabs(data[1]));
    CHECK_LE("sum of the bodies' potential energies = energy.csv gravity", dp, 1e-9 * fabs(data[1]));
  }
  free(brows);
  free(hdr), free(data);
  CHECK("summary.json", ot_exists(ot_path(dir, "summary.json")));
  ot_rmtree(dir);
  free(dir);
  cosrod_scenario_free(sc);
}

TEST(bodies_run_invalid_model_writes_nothing) {
  const char *sets[] = {"bodies.1.position=[0, 0, 0]"};
  char path[1024], err[512];
  cosrod_scenario *sc = load_sc("two-body-joint.yaml", sets, 1, path, sizeof path);
  CHECK("load", sc != NULL);
  if (!sc) return;
  char *base = ot_mkdtemp("bodies_inv");
  const char *dir = ot_path(base, "out");
  run_result res;
  cosrod_status st = run_to_dir(sc, path, dir, NULL, &res, err, sizeof err);
  NOTE("message: %s", err);
  CHECK("invalid input", st == COSROD_ERR_PARSE);
  CHECK("FILE:LINE: joints: ...", strstr(err, path) == err && strstr(err, ": joints: ") != NULL);
  CHECK("names the constraint", strstr(err, "violate") != NULL);
  CHECK("nothing written", !ot_exists(dir));
  cosrod_scenario_free(sc);
  /* the dae formulation is not offered for bodies: invalid input too */
  const char *sets2[] = {"solver.formulation=dae", "solver.integrator=radau5"};
  sc = load_sc("two-body-joint.yaml", sets2, 2, path, sizeof path);
  CHECK("load dae", sc != NULL);
  if (sc) {
    st = run_to_dir(sc, path, dir, NULL, &res, err, sizeof err);
    NOTE("message: %s", err);
    CHECK("dae: invalid input", st == COSROD_ERR_PARSE && strstr(err, ": solver.formulation: ") != NULL);
    CHECK("nothing written", !ot_exists(dir));
    cosrod_scenario_free(sc);
  }
  ot_rmtree(base);
  free(base);
}

/* BDF codes cannot project after steps: the run goes on without projection */
TEST(bodies_run_with_ida_and_cvode) {
  const char *names[2] = {"solver.integrator=ida", "solver.integrator=cvode"};
  for (int k = 0; k < 2; ++k) {
    const char *sets[] = {names[k], "analysis.t_end=0.2", "output.plots=false", "solver.rtol=1e-8",
                          "solver.atol=1e-8"};
    char path[1024], err[512];
    cosrod_scenario *sc = load_sc("heavy-top.yaml", sets, 5, path, sizeof path);
    CHECK("load", sc != NULL);
    if (!sc) continue;
    char *dir = ot_mkdtemp("bodies_bdf");
    run_result res;
    cosrod_status st = run_to_dir(sc, path, dir, NULL, &res, err, sizeof err);
    NOTE("%s: status %s, balance %.9g -> %.9g", names[k], cosrod_status_name(st), res.energy_balance0,
         res.energy_balance);
    CHECK("run ok", st == COSROD_OK);
    CHECK_NEAR("energy to the tolerance", res.energy_balance, res.energy_balance0,
               1e-5 * res.energy_balance0);
    ot_rmtree(dir);
    free(dir);
    cosrod_scenario_free(sc);
  }
}

TEST(bodies_run_gimbal_lock_fails_cleanly) {
  /* euler angles, spin about d1 from theta2 = 0.3: lock at t = 0.15 */
  const char *sets[] = {"bodies.0.parametrisation=euler-angles",
                        "bodies.0.orientation={euler313: [0, 0.3, 0]}",
                        "bodies.0.angular_velocity=[-2, 0, 0]",
                        "bodies.0.inertia=[1, 1, 1]",
                        "output.plots=false",
                        "solver.hmax=0.01"};
  char path[1024], err[512];
  cosrod_scenario *sc = load_sc("tennis-racket.yaml", sets, 6, path, sizeof path);
  CHECK("load", sc != NULL);
  if (!sc) return;
  char *dir = ot_mkdtemp("bodies_lock");
  run_result res;
  cosrod_status st = run_to_dir(sc, path, dir, NULL, &res, err, sizeof err);
  NOTE("status %s, message: %s, t_failed %g", cosrod_strerror(st), res.message, res.t_failed);
  CHECK("run failed", st != COSROD_OK && st != COSROD_ERR_PARSE);
  CHECK("message names body and gimbal lock",
        strstr(res.message, "racket") && strstr(res.message, "gimbal lock"));
  CHECK("failure time just after 0.15 s", res.t_failed >= 0.15 && res.t_failed <= 0.16 + 1e-12);
  char *js = ot_read(ot_path(dir, "summary.json"), NULL);
  CHECK("summary.json says failed", js && strstr(js, "\"status\": \"failed\""));
  free(js);
  char *hdr = NULL;
  double *data = NULL;
  long nb = ot_csv_read(ot_path(dir, "bodies.csv"), &hdr, &data, 17);
  /* output every 0.005 s up to the last accepted step (hmax 0.01) before the
   * step that crossed the lock */
  NOTE("bodies.csv rows: %ld", nb);
  CHECK("bodies.csv valid up to the failure",
        nb >= 2 && data[17 * (nb - 1)] < res.t_failed && data[17 * (nb - 1)] >= res.t_failed - 0.02);
  free(hdr), free(data);
  ot_rmtree(dir);
  free(dir);
  cosrod_scenario_free(sc);
}

/* New scenario keys end to end: body loads (ramped force at a point,
 * material moment), a rotational + translational damped bushing, a universal
 * joint; energy.csv balance (kinetic + elastic + gravity + dissipated -
 * external work) stays constant to the quadrature error. */
TEST(bodies_run_loads_bushing_universal_energy_balance) {
  static const char text[] =
      "cosrod: 1\n"
      "gravity: [0, 0, -9.81]\n"
      "bodies:\n"
      "  - name: arm\n"
      "    mass: 2.0\n"
      "    inertia: [0.1, 0.2, 0.25]\n"
      "    angular_velocity: [1.0, 0.5, -1.0]\n"
      "    loads:\n"
      "      - {type: force, value: [1, 0, 2], at: [0.1, 0, 0], ramp: [0, 0.5]}\n"
      "      - {type: moment, value: [0, 0.3, 0], frame: material, ramp: [0.2, 0.6]}\n"
      "  - name: tool\n"
      "    mass: 0.5\n"
      "    inertia: [0.02, 0.03, 0.04]\n"
      "    position: [0, 0, -0.8]\n"
      "    angular_velocity: [0.0, 2.0, 0.0]\n"
      "joints:\n"
      "  - {type: bushing, bodies: [arm, ground], at: [[0, 0, 0.2], [0, 0, 0.2]], stiffness: 50, damping: "
      "0.5,\n"
      "     stiffness_rot: 3, damping_rot: 0.05}\n"
      "  - {type: universal, bodies: [arm, tool], at: [[0, 0, -0.5], [0, 0, 0.3]], axis: [1, 0, 0],\n"
      "     axis2: [0, 1, 0]}\n"
      "analysis: {type: dynamic, t_end: 1.0}\n"
      "solver: {integrator: dopri5, rtol: 1.0e-9, atol: 1.0e-9}\n"
      "output: {every: 0.01, vtk: false, plots: false}\n";
  const char *forms[2] = {"solver.formulation=nullspace", "solver.formulation=absolute"};
  for (int f = 0; f < 2; ++f) {
    char err[512] = "";
    cosrod_scenario *sc = NULL;
    const char *sets[1] = {forms[f]};
    CHECK("parse", (sc = cosrod_scenario_parse(text, sizeof text - 1, "mem.yaml", sets, 1, NULL)) != NULL);
    if (!sc) {
      NOTE("%s", cosrod_last_error());
      continue;
    }
    CHECK("two body loads", sc->bodies[0].nloads == 2);
    CHECK("universal joint", sc->joints[1].type == COSROD_SC_JOINT_UNIVERSAL);
    char *dir = ot_mkdtemp("bodies_keys");
    run_result res;
    cosrod_status st = run_to_dir(sc, "mem.yaml", dir, NULL, &res, err, sizeof err);
    if (st != COSROD_OK) NOTE("%s %s", err, res.message);
    CHECK("run ok", st == COSROD_OK);
    char *hdr = NULL;
    double *data = NULL;
    long ne = ot_csv_read(ot_path(dir, "energy.csv"), &hdr, &data, 7);
    CHECK("energy rows", ne == 101);
    if (ne == 101) {
      double b0 = data[6], drift = 0.0, scale = 0.0;
      for (long r = 0; r < ne; ++r) {
        drift = fmax(drift, fabs(data[7 * r + 6] - b0));
        scale = fmax(scale, fabs(data[7 * r + 1]) + fabs(data[7 * r + 2]) + fabs(data[7 * r + 3]));
      }
      NOTE("%s: work %.6g J, dissipated %.6g J, balance drift %.3g J (scale %.3g J)", forms[f],
           data[7 * 100 + 4], data[7 * 100 + 5], drift, scale);
      CHECK("loads did work", fabs(data[7 * 100 + 4]) > 1e-3);
      CHECK("dampers dissipated", data[7 * 100 + 5] > 1e-4);
      CHECK_LE("energy balance drift", drift, 1e-7 * scale);
    }
    free(hdr), free(data);
    ot_rmtree(dir);
    free(dir);
    cosrod_scenario_free(sc);
  }
}

/* The bodies file of the VTK series draws the inertia ellipsoid: heavy top
 * (m = 11.09, I = (38.91, 30.91, 10)), largest semi-axis from the closed
 * form of a uniform solid ellipsoid a_3^2 = 5 (I_1 + I_2 - I_3) / (2 m) =
 * 3.6722 m (the tessellation's poles lie on it); 90 points per body. */
TEST(bodies_run_vtk_inertia_ellipsoid) {
  const char *sets[] = {"analysis.t_end=0.1", "output.plots=false", "output.vtk=true"};
  char path[1024], err[512];
  cosrod_scenario *sc = load_sc("heavy-top.yaml", sets, 3, path, sizeof path);
  CHECK("load", sc != NULL);
  if (!sc) return;
  char *dir = ot_mkdtemp("bvtk");
  run_result res;
  CHECK("run ok", run_to_dir(sc, path, dir, NULL, &res, err, sizeof err) == COSROD_OK);
  char vtk[1200];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  char *text = ot_read(ot_path(vtk, "bodies_000000.vtp"), NULL);
  CHECK("bodies_000000.vtp", text != NULL);
  if (text) {
    CHECK("90 points, 1 vertex, 3 axis lines, 168 triangles",
          strstr(text, "NumberOfPoints=\"90\" NumberOfVerts=\"1\" NumberOfLines=\"3\"") &&
              strstr(text, "NumberOfPolys=\"168\""));
    const char *p = strstr(text, "Name=\"Points\"");
    double pts[270];
    int n = 0;
    if (p) {
      p = strchr(p, '>') + 1;
      while (n < 270) {
        char *e;
        double v = strtod(p, &e);
        if (e == p) break;
        pts[n++] = v;
        p = e;
      }
    }
    CHECK_NEAR("point coordinates", n, 270, 0);
    double rmax = 0.0, a3 = sqrt(5.0 * (38.91 + 30.91 - 10.0) / (2.0 * 11.09));
    for (int j = 4; j < n / 3; ++j) {
      double d2 = 0.0;
      for (int k = 0; k < 3; ++k) d2 += (pts[3 * j + k] - pts[k]) * (pts[3 * j + k] - pts[k]);
      rmax = fmax(rmax, sqrt(d2));
    }
    CHECK_NEAR("largest semi-axis = sqrt(5 (I1 + I2 - I3) / 2m)", rmax, a3, 1e-9 * a3);
  }
  free(text);
  cosrod_scenario_free(sc);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(bodies_run_vtk_inertia_ellipsoid),
                                TH_CASE(bodies_run_with_ida_and_cvode),
                                TH_CASE(bodies_run_loads_bushing_universal_energy_balance),
                                TH_CASE(bodies_run_writes_files),
                                TH_CASE(bodies_run_invalid_model_writes_nothing),
                                TH_CASE(bodies_run_gimbal_lock_fails_cleanly),
                                TH_CASE(heavy_top_example),
                                TH_CASE(tennis_racket_example),
                                TH_CASE(two_body_joint_example)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
