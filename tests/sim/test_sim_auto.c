// SPDX-License-Identifier: Apache-2.0
/* solver.integrator: auto (src/sim/sim_auto.c, sim_auto_switch.c):
 *   - the rules on hand-made features of each class (static, a fixed step
 *     given, formulation dae, contact, bodies only, non-stiff, stiff
 *     undamped, stiff overdamped): the first candidate and that every
 *     fallback can run the same problem;
 *   - the stiff end of the spectrum from the probe's power iterations on
 *     a rubber rod against the closed-form frequency of its stiffest mode,
 *     the shear-rotation oscillation of a segment: w^2 = k G A / (rho I)
 *     (the shear force k G A gamma turns the segment's rotational inertia
 *     rho I; the axial mode 2 c / ds and the pendulum are 10x and 10^4x
 *     slower);
 *   - the choice on small models of each class through cosrod_sim_create;
 *   - a struggle: the first candidate (dopri5) stopped by a tiny
 *     max_steps, the run completes with the next (radau5) from the last
 *     accepted state, reports the switch, and its tip agrees with a
 *     radau5 run of the whole interval within both runs' tolerances. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sim/sim_auto.h"
#include "sim_test_util.h"

static sim_auto_features base(void) {
  sim_auto_features f;
  memset(&f, 0, sizeof f);
  f.dynamic = 1;
  f.nrods = 1;
  f.t_end = 1.0;
  f.every = 0.01;
  f.rtol = 1e-4;
  f.atol = 1e-6;
  f.rho_user = -1.0; /* solver.rho_inf not given */
  return f;
}

static int is_dae_capable(cosrod_sc_integrator m) {
  return m == COSROD_SC_INTEGRATOR_RADAU5 || m == COSROD_SC_INTEGRATOR_RODAS ||
         m == COSROD_SC_INTEGRATOR_SEULEX || m == COSROD_SC_INTEGRATOR_IDA;
}

TEST(auto_rules_classes) {
  sim_auto_choice c;
  sim_auto_features f = base();
  f.dynamic = 0;
  sim_auto_rules(&f, &c);
  CHECK("static: statics solver", c.statics == 1);

  f = base();
  f.h_user = 1e-3;
  sim_auto_rules(&f, &c);
  CHECK("h given: galpha", c.method[0] == COSROD_SC_INTEGRATOR_GALPHA);
  CHECK_NEAR("h given: that fixed step", c.h, 1e-3, 0.0);

  f = base();
  f.dae = 1;
  f.lam_max = 1e7;
  sim_auto_rules(&f, &c);
  CHECK("dae: candidates", c.n >= 2);
  for (int i = 0; i < c.n; i++) CHECK("dae: every candidate solves the DAE", is_dae_capable(c.method[i]));

  f = base();
  f.nrods = 0;
  f.nbodies = 1;
  f.lam_max = 20.0; /* a spinning top: |lambda| ~ its spin rate */
  sim_auto_rules(&f, &c);
  CHECK("bodies only: explicit",
        c.method[0] == COSROD_SC_INTEGRATOR_DOPRI5 || c.method[0] == COSROD_SC_INTEGRATOR_DOP853);
  CHECK("bodies only: implicit fallback", c.n >= 2 && c.method[1] == COSROD_SC_INTEGRATOR_RADAU5);

  /* an undamped steel rod: lam_max 1e6 1/s over 2 s, 1e6 explicit steps */
  f = base();
  f.lam_max = 1e6;
  f.t_end = 2.0;
  sim_auto_rules(&f, &c);
  CHECK("stiff undamped: galpha", c.method[0] == COSROD_SC_INTEGRATOR_GALPHA && c.h == 0.0);
  CHECK("stiff undamped: rho_inf < 1 damps the unresolved modes", c.rho_inf < 1.0);
  CHECK("stiff undamped: an implicit fallback", c.n >= 2 && c.method[1] == COSROD_SC_INTEGRATOR_RADAU5);
  sim_auto_features u = f; /* solver.rho_inf given: kept, with a fixed step too */
  u.rho_user = 0.9;
  sim_auto_rules(&u, &c);
  CHECK_NEAR("stiff undamped: the user's rho_inf", c.rho_inf, 0.9, 0.0);
  CHECK("the reason gives it", strstr(c.reason, "rho_inf 0.9") != NULL);
  u.h_user = 1e-3;
  sim_auto_rules(&u, &c);
  CHECK_NEAR("h given: the user's rho_inf", c.rho_inf, 0.9, 0.0);
  u.rho_user = 0.0;
  sim_auto_rules(&u, &c);
  CHECK_NEAR("h given: rho_inf 0 (given) is not 'unset'", c.rho_inf, 0.0, 0.0);

  /* the same rod with Kelvin-Voigt damping tau = 1e-4 s: lam tau = 100 */
  /* moderately stiff (the undamped rubber rod over 1 s: ~1.6e4 explicit steps) */
  sim_auto_features g = base();
  g.lam_max = 1.56e4;
  sim_auto_rules(&g, &c);
  CHECK("moderately stiff undamped: galpha at a tighter rtol",
        c.method[0] == COSROD_SC_INTEGRATOR_GALPHA && c.rtol[0] < g.rtol && c.h == 0.0);
  CHECK("moderately stiff undamped: radau5 fallback at the user's rtol",
        c.n >= 2 && c.method[1] == COSROD_SC_INTEGRATOR_RADAU5 && c.rtol[1] == g.rtol);
  g.rtol = 1e-8; /* second order at 1e-10: radau5 */
  sim_auto_rules(&g, &c);
  CHECK("moderately stiff undamped, tight rtol: radau5", c.method[0] == COSROD_SC_INTEGRATOR_RADAU5);
  g.rtol = base().rtol;
  /* Kirchhoff rods: nothing that factorises their dense Jacobian at every step */
  g.kirchhoff = 1;
  sim_auto_rules(&g, &c);
  CHECK("moderately stiff Kirchhoff: galpha", c.method[0] == COSROD_SC_INTEGRATOR_GALPHA && c.h == 0.0);
  CHECK("moderately stiff Kirchhoff: explicit fallback", c.n >= 2 && c.method[1] == COSROD_SC_INTEGRATOR_DOP853);
  g.rtol = 1e-8;
  sim_auto_rules(&g, &c);
  CHECK("moderately stiff Kirchhoff, tight rtol: dop853", c.method[0] == COSROD_SC_INTEGRATOR_DOP853);
  g.lam_max = 1e6; /* past 5e4 explicit steps: galpha even at a tight rtol */
  sim_auto_rules(&g, &c);
  CHECK("stiff Kirchhoff, tight rtol: galpha", c.method[0] == COSROD_SC_INTEGRATOR_GALPHA);
  g.rtol = 1e-4;
  g.tau = 1e-3; /* lam tau = 1e3: overdamped stiff end, still no rodas on a dense Jacobian */
  sim_auto_rules(&g, &c);
  CHECK("damped stiff Kirchhoff: galpha", c.method[0] == COSROD_SC_INTEGRATOR_GALPHA);
  CHECK("damped stiff Kirchhoff: radau5 fallback", c.n >= 2 && c.method[1] == COSROD_SC_INTEGRATOR_RADAU5);

  f.tau = 1e-4;
  sim_auto_rules(&f, &c);
  CHECK("stiff overdamped: rodas", c.method[0] == COSROD_SC_INTEGRATOR_RODAS);

  /* a short run of a soft rod: few explicit steps */
  f = base();
  f.lam_max = 1e3;
  f.t_end = 0.1;
  sim_auto_rules(&f, &c);
  CHECK("non-stiff: explicit", c.method[0] == COSROD_SC_INTEGRATOR_DOPRI5);
  f.rtol = 1e-10;
  sim_auto_rules(&f, &c);
  CHECK("non-stiff, tight rtol: dop853", c.method[0] == COSROD_SC_INTEGRATOR_DOP853);
  for (int i = 0; i < c.n; i++) NOTE("candidate %d: %s", i, cosrod_sc_integrator_name(c.method[i]));
}

static const char *RUBBER =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - {length: 1.0, segments: 10, material: {E: 5.0e6, poisson: 0.5, density: 1100},\n"
    "     section: {shape: circle, radius: 5.0e-3},\n"
    "     shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]},\n"
    "     ends: {start: {type: pinned}}}\n"
    "analysis: {type: dynamic, t_end: 0.01}\n"
    "solver: {rtol: 1.0e-6, atol: 1.0e-6}\n";

TEST(auto_probe_stiffest_mode) {
  char err[512];
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_scenario_parse(RUBBER, strlen(RUBBER), "rubber.yaml", NULL, 0, &st);
  CHECK("parses", st == COSROD_OK);
  if (st != COSROD_OK) return;
  sim_auto_features f;
  st = sim_auto_features_of(sc, &f, err, sizeof err);
  CHECK("features", st == COSROD_OK);
  const double r = 5e-3, G = 5e6 / 3.0, rho = 1100.0;
  const double w = sqrt(G * (r * r) / (rho * r * r * r * r / 4.0)); /* sqrt(k G A / (rho I)), k = 1 */
  NOTE("lam_max %.4g 1/s, shear-rotation mode %.4g rad/s", f.lam_max, w);
  /* the probe finds the stiffest mode, not the axial (2c/ds ~ 1350) or pendulum one */
  CHECK("lam_max of the stiffest mode", f.lam_max > 0.5 * w && f.lam_max < 2.0 * w);
  CHECK("undamped", f.tau == 0.0);
  cosrod_scenario_free(sc);
}

/* The choice through cosrod_sim_create on small models of each class. */
static void expect_choice(const char *text, const char *const *sets, size_t nsets, const char *want) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(text, "auto.yaml", sets, nsets, &sc);
  if (!sim) return;
  NOTE("chosen %s: %s", cosrod_sim_solver_chosen(sim), cosrod_sim_solver_reason(sim));
  CHECK("the expected choice", strcmp(cosrod_sim_solver_chosen(sim), want) == 0);
  CHECK("a reason", strlen(cosrod_sim_solver_reason(sim)) > 10);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(auto_choice_of_models) {
  char stat[2048];
  snprintf(stat, sizeof stat, "%s", RUBBER);
  char *a = strstr(stat, "analysis: {type: dynamic, t_end: 0.01}");
  if (a) memcpy(a, "analysis: {type: static}              ", 39);
  expect_choice(stat, NULL, 0, "statics");
  expect_choice(RUBBER, NULL, 0, "dopri5"); /* 0.01 s of a soft rod */
  const char *lng[] = {"analysis.t_end=10", "rods.0.material.E=2.1e11", "rods.0.material.density=7850"};
  expect_choice(RUBBER, lng, 3, "galpha"); /* 10 s of an undamped steel rod */
  const char *kv[] = {"analysis.t_end=10", "rods.0.material.E=2.1e11", "rods.0.material.density=7850",
                      "rods.0.damping.kelvin_voigt.tau_shear=1e-3",
                      "rods.0.damping.kelvin_voigt.tau_bulk=1e-3"};
  expect_choice(RUBBER, kv, 5, "rodas");
  const char *dae[] = {"solver.formulation=dae", "rods.0.model=kirchhoff-inextensible"};
  expect_choice(RUBBER, dae, 2, "radau5");
  /* inextensible steel Kirchhoff rod over 0.2 s: lam_max ~1e5 1/s, ~2e4 explicit steps */
  const char *kir[] = {"analysis.t_end=0.2", "rods.0.material.E=2.1e11", "rods.0.material.density=7850",
                       "rods.0.model=kirchhoff-inextensible"};
  expect_choice(RUBBER, kir, 4, "galpha");
}

/* A given solver.rho_inf reaches the galpha that auto runs: auto on an
 * undamped steel rod (galpha at the user's tolerances) with rho_inf 1 takes
 * the same steps to the same state as galpha named with rho_inf 1, and not
 * those of its own rho_inf 0.5 (rho_inf 1 dissipates nothing: the
 * step-size sequence and the state differ at the first step that sees
 * the stiff modes). */
static int run_tip(const char *const *sets, size_t n, double tip[3], long *steps) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(RUBBER, "rho.yaml", sets, n, &sc);
  int ok = sim && cosrod_sim_run(sim, NULL) == COSROD_OK;
  if (ok) {
    cosrod_sim_tip(sim, 0, tip);
    *steps = cosrod_sim_stats(sim)->nsteps;
    NOTE("%s: %s; %ld steps", cosrod_sim_solver_chosen(sim), cosrod_sim_solver_reason(sim), *steps);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return ok;
}

TEST(auto_keeps_the_given_rho_inf) {
  const char *a1[] = {"analysis.t_end=0.1", "rods.0.material.E=2.1e11", "rods.0.material.density=7850",
                      "solver.rtol=1e-4", "solver.rho_inf=1"};
  const char *g1[] = {"analysis.t_end=0.1", "rods.0.material.E=2.1e11", "rods.0.material.density=7850",
                      "solver.rtol=1e-4", "solver.rho_inf=1", "solver.integrator=galpha"};
  const char *a0[] = {"analysis.t_end=0.1", "rods.0.material.E=2.1e11", "rods.0.material.density=7850",
                      "solver.rtol=1e-4"};
  double ta1[3], tg1[3], ta0[3];
  long na1 = 0, ng1 = 0, na0 = 0;
  int ok = run_tip(a1, 5, ta1, &na1) && run_tip(g1, 6, tg1, &ng1) && run_tip(a0, 4, ta0, &na0);
  CHECK("the runs complete", ok);
  if (!ok) return;
  CHECK("auto with rho_inf 1: galpha's steps", na1 == ng1);
  CHECK_VEC("auto with rho_inf 1: galpha's state", ta1, tg1, 3, 0.0, 0.0);
  CHECK("auto's own rho_inf is another run", na0 != na1 || ta0[2] != ta1[2]);
}

TEST(auto_switch_on_struggle) {
  cosrod_scenario *sc;
  const char *sets[] = {
      "solver.max_steps=100"}; /* dopri5 needs ~200 steps to 0.01 s, radau5 fewer than 100 */
  cosrod_sim *sim = sim_test_parse(RUBBER, "auto.yaml", sets, 1, &sc);
  if (!sim) return;
  CHECK("first choice dopri5", strcmp(cosrod_sim_solver_chosen(sim), "dopri5") == 0);
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("the run completes", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("%s: %s", cosrod_status_name(st), cosrod_sim_message(sim));
  CHECK_NEAR("to t_end", cosrod_sim_t(sim), 0.01, 1e-12);
  CHECK("one switch", cosrod_sim_nswitches(sim) == 1);
  NOTE("switch: %s", cosrod_sim_switch(sim, 0));
  CHECK("reported: from dopri5 to radau5", strstr(cosrod_sim_switch(sim, 0), "dopri5") &&
                                               strstr(cosrod_sim_switch(sim, 0), "switched to radau5"));
  CHECK("now radau5", strcmp(cosrod_sim_integrator_name(sim), "radau5") == 0);
  int warned = 0;
  for (size_t i = 0; i < cosrod_sim_nwarnings(sim); i++)
    warned |= strstr(cosrod_sim_warning(sim, i), "switched") != NULL;
  CHECK("a warning", warned);
  double tip[3], ref[3];
  cosrod_sim_tip(sim, 0, tip);
  cosrod_scenario *sc2;
  const char *rs[] = {"solver.integrator=radau5", "solver.rtol=1e-10", "solver.atol=1e-10"};
  cosrod_sim *r = sim_test_parse(RUBBER, "ref.yaml", rs, 3, &sc2);
  if (r && cosrod_sim_run(r, NULL) == COSROD_OK) {
    cosrod_sim_tip(r, 0, ref);
    /* both runs at rtol 1e-8 on positions ~1 m over a few hundred steps: 1e-6 m */
    CHECK_VEC("tip as radau5 alone", tip, ref, 3, 0.0, 1e-6);
  }
  cosrod_sim_free(r);
  cosrod_scenario_free(sc2);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Frames after a switch reach the caller's observer: one per output time. */
typedef struct frames {
  int n;
  double t[16];
} frames;

static int count_frame(void *user, const cosrod_sim *sim, double t) {
  (void)sim;
  frames *f = user;
  if (f->n < 16) f->t[f->n] = t;
  f->n++;
  return 0;
}

TEST(auto_switch_keeps_frames) {
  cosrod_scenario *sc;
  const char *sets[] = {"solver.max_steps=100", "output.every=0.0025"}; /* switch near t = 0.005 */
  cosrod_sim *sim = sim_test_parse(RUBBER, "auto.yaml", sets, 2, &sc);
  if (!sim) return;
  frames f = {0};
  cosrod_sim_observer obs = {0};
  obs.frame = count_frame;
  obs.user = &f;
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("the run completes", st == COSROD_OK);
  CHECK("one switch", cosrod_sim_nswitches(sim) == 1);
  NOTE("%d frames, last at t = %g", f.n, f.n ? f.t[f.n < 16 ? f.n - 1 : 15] : -1.0);
  CHECK("a frame at t = 0, 0.0025, ..., 0.01 (5)", f.n == 5);
  for (int k = 0; k < f.n && k < 5; k++) CHECK_NEAR("frame time", f.t[k], 0.0025 * k, 1e-12);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

int main(int argc, char **argv) {
  static const th_case cases[] = {TH_CASE(auto_rules_classes), TH_CASE(auto_probe_stiffest_mode),
                                  TH_CASE(auto_choice_of_models), TH_CASE(auto_keeps_the_given_rho_inf),
                                  TH_CASE(auto_switch_on_struggle),
                                  TH_CASE(auto_switch_keeps_frames)};
  return th_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
