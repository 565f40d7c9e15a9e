// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff rods in the DAE formulation through cosrod_sim ([LA] eq. 14,
 * Fig. 4a; rod_kirchhoff.c): radau5 / rodas (mass matrix, projection) and
 * ida (residual) follow the ODE-form trajectory of a tightly integrated
 * DOP853 reference, stay on the constraints, and bad input fails cleanly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

typedef struct dae_result {
  double tip[3], gpos, gvel;
  long nsteps;
} dae_result;

/* The steel cantilever example (inextensible, N = 10) to t = 0.01 s with
 * the given formulation / integrator / tolerance; constraint residuals of
 * the final state. */
static int run_cantilever(const char *form, const char *integ, double tol, dae_result *res) {
  char f[64], in[64], rt[64], at[64];
  snprintf(f, sizeof f, "solver.formulation=%s", form);
  snprintf(in, sizeof in, "solver.integrator=%s", integ);
  snprintf(rt, sizeof rt, "solver.rtol=%g", tol);
  snprintf(at, sizeof at, "solver.atol=%g", 1e-3 * tol);
  const char *sets[] = {f,
                        in,
                        rt,
                        at,
                        "rods.0.segments=10",
                        "analysis.t_end=0.01",
                        "output.every=0.01",
                        "solver.max_steps=1000000"};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("steel-cantilever", sets, 8, &sc);
  if (!sim) return 0;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run OK", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("%s/%s: %s", form, integ, cosrod_sim_message(sim));
  cosrod_sim_tip(sim, 0, res->tip);
  res->nsteps = cosrod_sim_stats(sim)->nsteps;
  /* the rod's native state from the node-ordered global one (one rod) */
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  cosrod_rod_form rf = strcmp(form, "dae") == 0        ? COSROD_FORM_DAE
                       : strcmp(form, "absolute") == 0 ? COSROD_FORM_ABSOLUTE
                                                       : COSROD_FORM_NULLSPACE;
  int ny = cosrod_sim_ny(sim);
  CHECK("state size of the rod", ny == cosrod_rod_ny(rod, rf));
  int *perm = malloc(sizeof(int) * (size_t)ny);
  double *y = malloc(sizeof(double) * (size_t)ny);
  cosrod_rod_order_fill(rod, rf, perm, NULL, NULL, NULL);
  const double *yg = cosrod_sim_state(sim);
  for (int i = 0; i < ny; ++i) y[i] = yg[perm[i]];
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  cosrod_rod_kirchhoff_residual(rod, d, rf, cosrod_sim_t(sim), y, &res->gpos, &res->gvel);
  cosrod_rod_data_free(d);
  free(perm);
  free(y);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

/* Tip of the DAE runs vs the ODE-form reference (DOP853, rtol 1e-10): the
 * difference is the integration error, so it is bounded by a multiple of
 * the tolerance times the tip displacement scale (|z| ~ 3e-4 m at t = 0.01);
 * with projection (radau5, rodas) the constraints hold to round-off, ida
 * (no projection, tol 1e-6) drifts at most by the tolerance times the segment length. */
TEST(dae_trajectories_match_ode_form) {
  dae_result ref, r;
  if (!run_cantilever("nullspace", "dop853", 1e-10, &ref)) return;
  double z = fabs(ref.tip[2]);
  NOTE("reference tip z = %.12g m (%ld steps)", ref.tip[2], ref.nsteps);
  CHECK("tip has moved", z > 1e-5);
  const char *integ[3] = {"radau5", "rodas", "ida"};
  for (int i = 0; i < 3; ++i) {
    const double tol = i < 2 ? 1e-8 : 1e-6; /* ida (BDF) needs ~7e4 steps at 1e-8 on this undamped rod */
    if (!run_cantilever("dae", integ[i], tol, &r)) continue;
    double dz = fabs(r.tip[2] - ref.tip[2]);
    NOTE("%s (dae, tol %g): tip z %.12g, |dz| %.3g m = %.3g |z|, %ld steps; |g| %.3g m, |g'| %.3g m/s",
         integ[i], tol, r.tip[2], dz, dz / z, r.nsteps, r.gpos, r.gvel);
    char what[96];
    snprintf(what, sizeof what, "%s: tip z within 100 tol |z| of the reference", integ[i]);
    CHECK_LE(what, dz, 100.0 * tol * z);
    if (i < 2) {
      CHECK_LE("projected: positions on the constraints (1e-14 m)", r.gpos, 1e-14);
      CHECK_LE("projected: velocities on the constraints (1e-11 m/s)", r.gvel, 1e-11);
    } else {
      CHECK_LE("ida: constraint drift below tol * segment length (m)", r.gpos, tol * 0.1);
    }
  }
}

/* ida on the undamped rubber pendulum ([LA] Fig. 6 rod, N = 10) at tol
 * 1e-3: with its own banded residual Jacobian (analytic; with
 * COSROD_KIRCHHOFF_JAC=fd differences with small steps: the same 36 steps) it
 * follows a DOP853 reference (tol 1e-10) to the tolerance in a few dozen
 * steps; SUNDIALS' difference quotients (steps ~ atol) took 2211 steps with
 * 732 Newton failures. */
TEST(ida_rubber_pendulum) {
  double tip[2][3];
  long steps = 0;
  for (int i = 0; i < 2; ++i) {
    const char *sets[] = {"rods.0.model=kirchhoff-inextensible",
                          i ? "solver.formulation=dae" : "solver.formulation=nullspace",
                          i ? "solver.integrator=ida" : "solver.integrator=dop853",
                          i ? "solver.rtol=1e-3" : "solver.rtol=1e-10",
                          i ? "solver.atol=1e-3" : "solver.atol=1e-10",
                          "analysis.t_end=0.2",
                          "output.every=0.2"};
    cosrod_scenario *sc;
    cosrod_sim *sim = sim_test_load("stiffness", sets, 7, &sc);
    if (!sim) return;
    cosrod_status st = cosrod_sim_run(sim, NULL);
    CHECK("run OK", st == COSROD_OK);
    cosrod_sim_tip(sim, 0, tip[i]);
    steps = cosrod_sim_stats(sim)->nsteps;
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  double e =
      sqrt(pow(tip[1][0] - tip[0][0], 2) + pow(tip[1][1] - tip[0][1], 2) + pow(tip[1][2] - tip[0][2], 2));
  NOTE("ida tol 1e-3: %ld steps, tip error %.3g m (reference tip z %.9g)", steps, e, tip[0][2]);
  CHECK_LE("tip within 10 tol of the reference (m)", e, 1e-2);
  CHECK("few steps (< 200)", steps < 200);
}

/* Creation errors: one message, no crash. */
static void expect_refused(const char *const *sets, size_t n, const char *needle) {
  cosrod_scenario *sc;
  char path[1024];
  snprintf(path, sizeof path, "%s/steel-cantilever.yaml", sim_test_examples_dir());
  /* refused by the loader (which validates like `cosrod check`) or at creation */
  cosrod_sim *sim = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, sets, n, &st);
  if (st == COSROD_OK) {
    sim = cosrod_sim_create(sc, &st);
  } else {
    sc = NULL;
  }
  NOTE("%s", cosrod_last_error());
  CHECK("refused", sim == NULL && st != COSROD_OK);
  size_t lp = strlen(path);
  /* a key of the file: "FILE:LINE: key: problem"; an override: "--set key: problem" */
  CHECK("message starts with FILE:LINE: or --set KEY:",
        (strncmp(cosrod_last_error(), path, lp) == 0 && cosrod_last_error()[lp] == ':') || strncmp(cosrod_last_error(), "--set ", 6) == 0);
  CHECK("one line", strchr(cosrod_last_error(), '\n') == NULL);
  char what[160];
  snprintf(what, sizeof what, "message contains '%s'", needle);
  CHECK(what, strstr(cosrod_last_error(), needle) != NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(dae_bad_input_is_clean) {
  const char *a[] = {"solver.formulation=dae", "solver.integrator=dopri5"};
  expect_refused(a, 2, "cannot solve the index-1 DAE");
  const char *b[] = {"solver.formulation=dae", "solver.integrator=radau5", "rods.0.ends.end.type=clamped"};
  expect_refused(b, 3, "kinematic singularity at t = 0 near segment");
  const char *c[] = {"solver.formulation=dae", "solver.integrator=ida", "rods.0.shear_correction=[0.9, 0.9]"};
  expect_refused(c, 3, "only for cosserat rods");
  const char *e[] = {"solver.formulation=dae", "solver.integrator=radau5", "solver.stabilisation=baumgarte"};
  expect_refused(e, 3, "baumgarte applies to formulation absolute only");
}

/* An implicit method on an ODE form of a Kirchhoff rod (dense Jacobian)
 * warns and points to formulation dae; dae itself and explicit methods do not. */
TEST(ode_form_implicit_method_warns) {
  const char *forms[3] = {"solver.formulation=nullspace", "solver.formulation=dae",
                          "solver.formulation=nullspace"};
  const char *integ[3] = {"solver.integrator=radau5", "solver.integrator=radau5", "solver.integrator=dopri5"};
  for (int i = 0; i < 3; ++i) {
    const char *sets[] = {forms[i], integ[i]};
    cosrod_scenario *sc;
    cosrod_sim *sim = sim_test_load("steel-cantilever", sets, 2, &sc);
    if (!sim) continue;
    const char *w = cosrod_sim_input_warning(sim);
    NOTE("%s %s: '%s'", forms[i], integ[i], w);
    if (i == 0)
      CHECK("warning names formulation dae", strstr(w, "formulation: dae gives a banded") != NULL);
    else
      CHECK("no warning", w[0] == '\0');
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

static const th_case cases[] = {TH_CASE(dae_trajectories_match_ode_form), TH_CASE(dae_bad_input_is_clean),
                                TH_CASE(ode_form_implicit_method_warns), TH_CASE(ida_rubber_pendulum)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
