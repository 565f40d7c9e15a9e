// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff rods through cosrod_sim (examples end to end, [LA] §3-4): the
 * undamped inextensible pendulum conserves energy to the integrator
 * tolerance, Kirchhoff and Cosserat solutions of a slender cantilever
 * differ like (r/L)², and a clamped-clamped straight inextensible rod fails
 * with a kinematic-singularity message naming time and segment. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

typedef struct energy_track {
  double E0, dEmax, Kmax;
  int n;
} energy_track;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  energy_track *et = user;
  cosrod_sim_energy e = cosrod_sim_energy_now(sim);
  if (et->n++ == 0) et->E0 = e.balance;
  et->dEmax = fmax(et->dEmax, fabs(e.balance - et->E0));
  et->Kmax = fmax(et->Kmax, e.kinetic);
  return 0;
}

/* [LA] Fig. 6 rod (undamped rubber, pinned, gravity) as an inextensible
 * Kirchhoff rod with DOPRI5 and projection: the energy error over 1 s (at
 * the output times, dense output) stays within the tolerance relative to
 * the largest kinetic energy (measured 5.7e-8, 1.4e-9, 1.8e-9 for tol
 * 1e-4, 1e-6, 1e-8). */
TEST(inextensible_pendulum_energy) {
  for (int i = 0; i < 3; ++i) {
    char rt[64], at[64];
    double tol = pow(10.0, -4.0 - 2.0 * i);
    snprintf(rt, sizeof rt, "solver.rtol=%g", tol);
    snprintf(at, sizeof at, "solver.atol=%g", tol);
    const char *sets[] = {"rods.0.model=kirchhoff-inextensible", rt, at, "output.every=0.01"};
    cosrod_scenario *sc;
    cosrod_sim *sim = sim_test_load("stiffness", sets, 4, &sc);
    if (!sim) return;
    energy_track et = {0};
    cosrod_sim_observer obs = {0};
    obs.frame = on_frame;
    obs.user = &et;
    cosrod_status st = cosrod_sim_run(sim, &obs);
    CHECK("run OK", st == COSROD_OK);
    char what[96];
    snprintf(what, sizeof what, "tol %g: max |E(t) - E(0)| / max kinetic", tol);
    CHECK_LE(what, et.dEmax / et.Kmax, tol);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

/* Tip z of the steel cantilever example at t = 0.3 T1(r) (T1 = 1/f1, f1 =
 * 14.47 Hz r/0.01: the same phase of the first mode for every radius) for
 * one model and radius. */
static double cantilever_tip(const char *model, double r) {
  char m[64], rs[64], te[64], ev[64];
  double T = 0.3 / (14.47 * r / 0.01);
  snprintf(te, sizeof te, "analysis.t_end=%.17g", T);
  snprintf(ev, sizeof ev, "output.every=%.17g", T);
  snprintf(m, sizeof m, "rods.0.model=%s", model);
  snprintf(rs, sizeof rs, "rods.0.section.radius=%g", r);
  int cos = strcmp(model, "cosserat") == 0;
  const char *sets[] = {m,
                        rs,
                        "rods.0.segments=10",
                        te,
                        ev,
                        cos ? "solver.integrator=radau5" : "solver.integrator=dop853",
                        /* integration error ~1e-8 of the tip, far below the
                         * (r/L)^2 ~ 3e-5 difference measured */
                        "solver.rtol=1e-8",
                        "solver.atol=1e-10"};
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("steel-cantilever", sets, 8, &sc);
  if (!sim) return NAN;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run OK", st == COSROD_OK);
  double tip[3];
  cosrod_sim_tip(sim, 0, tip);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return tip[2];
}

/* For a slender rod the Kirchhoff model is the Cosserat model without shear
 * and axial compliance, whose effect on bending is of relative size
 * EI/(κGA L²) ~ (r/L)² (Timoshenko): halving r divides the difference of
 * the tip deflections by about 4. */
TEST(kirchhoff_vs_cosserat_scales_like_r2) {
  const double r[2] = {0.02, 0.01};
  double rel[2];
  for (int i = 0; i < 2; ++i) {
    double zc = cantilever_tip("cosserat", r[i]);
    double zk = cantilever_tip("kirchhoff-inextensible", r[i]);
    double ze = cantilever_tip("kirchhoff-extensible", r[i]);
    rel[i] = fabs(zk - zc) / fabs(zc);
    NOTE("r = %g: tip z cosserat %.10g, kirchhoff-inextensible %.10g, extensible %.10g, rel. diff %.3g", r[i],
         zc, zk, ze, rel[i]);
    CHECK_LE("extensible and inextensible agree to (r/L)^2", fabs(ze - zk) / fabs(zc), 4.0 * r[i] * r[i]);
  }
  CHECK_LE("difference at r/L = 0.01 below (r/L)^2 times 10", rel[1], 10.0 * r[1] * r[1]);
  double ratio = rel[0] / rel[1];
  NOTE("ratio of relative differences for r halved: %.3f (want ~4)", ratio);
  CHECK("ratio in [3, 5]", ratio > 3.0 && ratio < 5.0);
}

/* [LA] §4(a): a straight inextensible rod clamped at both ends has a
 * rank-deficient constraint Jacobian: a clear failure naming time and segment. */
TEST(clamped_clamped_straight_rod_is_singular) {
  const char *sets[] = {"rods.0.ends.end.type=clamped"};
  cosrod_scenario *sc;
  char path[1024];
  snprintf(path, sizeof path, "%s/steel-cantilever.yaml", sim_test_examples_dir());
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, sets, 1, &st);
  CHECK("scenario loads", st == COSROD_OK);
  if (st != COSROD_OK) return;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  NOTE("%s", cosrod_last_error());
  CHECK("refused at creation", sim == NULL && st != COSROD_OK);
  CHECK("message names the singularity", strstr(cosrod_last_error(), "kinematic singularity at t = 0 near segment") != NULL);
  CHECK("message names the rod key", strstr(cosrod_last_error(), ": rods.0: ") != NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(inextensible_pendulum_energy),
                                TH_CASE(kirchhoff_vs_cosserat_scales_like_r2),
                                TH_CASE(clamped_clamped_straight_rod_is_singular)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
