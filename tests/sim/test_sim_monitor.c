// SPDX-License-Identifier: Apache-2.0
/* The monitor of silent wrong answers (sim_monitor.c): a blow-up is a
 * failure naming its likely cause, the balance and |p| drifts of an
 * unprojected absolute run are warnings, an accurate run has none. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "harness.h"

static const char *examples_dir(void) {
  const char *e = getenv("COSROD_EXAMPLES");
  return e ? e : "examples";
}

/* Run a scenario (file text or example name) with overrides; returns the
 * status and leaves the finished simulation in *simp (free it). */
static cosrod_status run_case_obs(const char *text, const char *example, const char *const *sets,
                                  size_t nsets, cosrod_sim **simp, cosrod_scenario **scp,
                                  const cosrod_sim_observer *obs) {
  char path[1024];
  cosrod_status st;
  *simp = NULL;
  *scp = NULL;
  if (text) {
    *scp = cosrod_scenario_parse(text, strlen(text), "monitor.yaml", sets, nsets, &st);
  } else {
    snprintf(path, sizeof path, "%s/%s.yaml", examples_dir(), example);
    *scp = cosrod_scenario_load(path, sets, nsets, &st);
  }
  if (st != COSROD_OK) {
    NOTE("load: %s", cosrod_last_error());
    CHECK("scenario loads", 0);
    return st;
  }
  *simp = cosrod_sim_create(*scp, &st);
  if (!*simp) {
    NOTE("create: %s", cosrod_last_error());
    CHECK("sim created", 0);
    return st;
  }
  return cosrod_sim_run(*simp, obs);
}

static cosrod_status run_case(const char *text, const char *example, const char *const *sets, size_t nsets,
                              cosrod_sim **simp, cosrod_scenario **scp) {
  return run_case_obs(text, example, sets, nsets, simp, scp, NULL);
}

/* Undamped steel cantilever (r = 1 mm, clamped, gravity) with dopri5 at
 * rtol = atol = 1e-3: the step-size control sits at the stability limit of
 * the stiff axial / shear modes and the energy explodes (before the monitor: 0.019 J
 * -> 8e6 J reported "ok"). */
static const char *CANTILEVER =
    "cosrod: 1\n"
    "title: undamped steel cantilever\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  steel: {E: 2.1e11, poisson: 0.2, density: 7850}\n"
    "rods:\n"
    "  - name: string\n"
    "    length: 1.0\n"
    "    segments: 10\n"
    "    material: steel\n"
    "    section: {shape: circle, radius: 1.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
    "    ends: {start: {type: clamped}, end: {type: free}}\n"
    "analysis: {type: dynamic, t_end: 1.0}\n"
    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-3, atol: 1.0e-3}\n"
    "output: {dir: out/monitor, every: 0.01, vtk: false, plots: false}\n";

TEST(dopri5_blowup_is_a_failure) {
  cosrod_sim *sim;
  cosrod_scenario *sc;
  cosrod_status st = run_case(CANTILEVER, NULL, NULL, 0, &sim, &sc);
  if (sim) {
    const char *msg = cosrod_sim_message(sim);
    cosrod_sim_energy e = cosrod_sim_energy_now(sim);
    NOTE("%s: %s (t = %g); kinetic %.3g J, elastic %.3g J", cosrod_status_name(st), msg,
         cosrod_sim_fail_time(sim), e.kinetic, e.elastic);
    CHECK("status ERR_DIVERGED", st == COSROD_ERR_DIVERGED);
    CHECK("message names the explicit method at its stability limit", strstr(msg, "explicit method") != NULL);
    CHECK("failure time reported", cosrod_sim_fail_time(sim) > 0.0 && cosrod_sim_fail_time(sim) <= 1.0);
    /* the reference: gravity can supply at most ρA L g L = 0.242 J over
     * the rod's length; the monitor stops beyond 100 times that */
    double mgl = 7850.0 * 3.14159265358979 * 1e-6 * 9.81;
    CHECK_LE("the energy at the failure exceeds 100 ρA L g L", 100.0 * mgl,
             fabs(e.kinetic) + fabs(e.elastic));
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  /* the same rod with radau5 is healthy: no failure, no warning */
  const char *sets[] = {"solver.integrator=radau5", "analysis.t_end=0.1"};
  st = run_case(CANTILEVER, NULL, sets, 2, &sim, &sc);
  CHECK("radau5: ok", st == COSROD_OK);
  CHECK("radau5: no warnings", sim && cosrod_sim_nwarnings(sim) == 0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Rubber pendulum, formulation absolute without stabilisation, dopri5 at
 * 1e-3, 2 s: |p| drifts by ~0.1 and the balance by ~15 % of the energy
 * scale: both warnings.  With projection (same tolerance) or at 1e-4 the
 * drifts stay below the thresholds: no warnings. */
TEST(absolute_without_projection_warns) {
  const char *base[] = {"solver.formulation=absolute",
                        "solver.stabilisation=none",
                        "solver.rtol=1e-3",
                        "solver.atol=1e-3",
                        "analysis.t_end=2",
                        "output.every=0.01"};
  cosrod_sim *sim;
  cosrod_scenario *sc;
  cosrod_status st = run_case(NULL, "rubber-pendulum", base, 6, &sim, &sc);
  CHECK("run ok (a warning is not a failure)", st == COSROD_OK);
  size_t nw = sim ? cosrod_sim_nwarnings(sim) : 0;
  int drift = 0, pnorm = 0;
  for (size_t i = 0; i < nw; i++) {
    NOTE("warning: %s", cosrod_sim_warning(sim, i));
    drift |= strstr(cosrod_sim_warning(sim, i), "energy balance drift") != NULL;
    pnorm |= strstr(cosrod_sim_warning(sim, i), "unit quaternions drifted") != NULL;
  }
  CHECK("balance drift warning", drift);
  CHECK("|p| drift warning", pnorm);
  CHECK("out of range: empty text", sim && strcmp(cosrod_sim_warning(sim, nw), "") == 0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);

  const char *proj[] = {"solver.formulation=absolute",
                        "solver.stabilisation=projection",
                        "solver.rtol=1e-3",
                        "solver.atol=1e-3",
                        "analysis.t_end=2",
                        "output.every=0.01"};
  st = run_case(NULL, "rubber-pendulum", proj, 6, &sim, &sc);
  CHECK("projection: ok", st == COSROD_OK);
  CHECK("projection: no warnings", sim && cosrod_sim_nwarnings(sim) == 0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Near rest the scale must not vanish: the rubber rod of [LLA] Test 1
 * pinned and hanging straight down, released unstretched, only sags under
 * its weight (kinetic and elastic energy ~1e-3 J) while gravity can supply
 * ρA L g L = 0.847 J over its length.  dopri5 at 1e-4 leaves a balance drift
 * of ~9e-4 J: 44 % of the motion's energy (the old scale: "the solution is
 * not accurate"), 0.1 % of ρA L g L: no warning. */
TEST(near_rest_judged_against_gravity_scale) {
  const char *sets[] = {"rods.0.shape.direction=[0,0,-1]", "rods.0.shape.normal=[1,0,0]", "analysis.t_end=2",
                        "solver.rtol=1e-4", "solver.atol=1e-4"};
  cosrod_sim *sim;
  cosrod_scenario *sc;
  cosrod_status st = run_case(NULL, "rubber-pendulum", sets, 5, &sim, &sc);
  CHECK("run ok", st == COSROD_OK);
  cosrod_sim_energy e = sim ? cosrod_sim_energy_now(sim) : (cosrod_sim_energy){0};
  NOTE("kinetic %.3g J, elastic %.3g J", e.kinetic, e.elastic);
  CHECK_LE("the motion's energy is small: kinetic + elastic < 1e-2 J", e.kinetic + e.elastic, 1e-2);
  for (size_t i = 0; sim && i < cosrod_sim_nwarnings(sim); i++)
    NOTE("warning: %s", cosrod_sim_warning(sim, i));
  CHECK("no warning", sim && cosrod_sim_nwarnings(sim) == 0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Damped steel wire (r = 0.5 mm, Kelvin–Voigt τ = 1e-4 s, L = 1 m, N = 10) without gravity,
 * both ends clamped: a run at rest whose energies are round-off. */
static const char *REST =
    "cosrod: 1\n"
    "title: wire at rest\n"
    "materials:\n"
    "  steel: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
    "rods:\n"
    "  - name: wire\n"
    "    length: 1.0\n"
    "    segments: 10\n"
    "    material: steel\n"
    "    section: {shape: circle, radius: 5.0e-4}\n"
    "    damping:\n"
    "      kelvin_voigt: {tau_shear: 1.0e-4, tau_bulk: 1.0e-4}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends: {start: {type: clamped}, end: {type: clamped}}\n"
    "analysis: {type: dynamic, t_end: 0.5}\n"
    "solver: {integrator: rodas, rtol: 1.0e-6, atol: 1.0e-6}\n"
    "output: {dir: out/monitor, every: 0.01, vtk: false, plots: false}\n";

typedef struct peaks {
  long n;
  double bal0, drift, motion, work; /* max |B - B(0)|, max kinetic + elastic, max |external work| */
} peaks;

static int track(void *user, const cosrod_sim *sim, double t) {
  (void)t;
  peaks *p = user;
  cosrod_sim_energy e = cosrod_sim_energy_now(sim);
  if (p->n++ == 0) p->bal0 = e.balance;
  p->drift = fmax(p->drift, fabs(e.balance - p->bal0));
  p->motion = fmax(p->motion, fabs(e.kinetic) + fabs(e.elastic));
  p->work = fmax(p->work, fabs(e.external_work));
  return 0;
}

/* Without gravity, loads or moving ends the energies at rest are round-off (1e-26 .. 1e-22 J) and
 * the monitor judged their drift against nothing: rodas warned "drift 5.1e-26 J = 100 % of the
 * energy scale 5.1e-26 J", seulex with the end prescribed at rest stopped at t = 0.01 s with a
 * "blow-up" 1.4e-26 J -> 4.5e-23 J.  The scale's floor (sim_monitor.c) at rest is the elastic
 * energy of a relative round-off δ = 1e-12 in every segment, S_r = ½ (δ X)² EA Σ 1/Δs with X = L =
 * 1 m: EA = E π r² = 1.649e5 N, Σ 1/Δs = N² / L = 100 /m, S_r = 8.25e-18 J.  Reference: the drift
 * stays below the warning level 1e-2 S_r and kinetic + elastic below S_r (round-off). */
TEST(rest_without_gravity_no_warning) {
  const double EA = 2.1e11 * 3.14159265358979323846 * 5e-4 * 5e-4, Sr = 0.5 * 1e-24 * EA * 100.0;
  static const char *cases_[][2] = {
      {"solver.integrator=rodas", "rods.0.ends.end={type: clamped}"},
      {"solver.integrator=seulex", "rods.0.ends.end={type: prescribed, position: [[0, 1, 0, 0]]}"},
      {"solver.integrator=radau5", "rods.0.ends.end={type: prescribed, position: [[0, 1, 0, 0]]}"}};
  for (size_t c = 0; c < sizeof cases_ / sizeof cases_[0]; c++) {
    cosrod_sim *sim;
    cosrod_scenario *sc;
    peaks p = {0};
    cosrod_sim_observer obs = {track, NULL, &p, NULL, NULL};
    cosrod_status st = run_case_obs(REST, NULL, cases_[c], 2, &sim, &sc, &obs);
    NOTE("%s, %s: %s, %zu warnings, max drift %.3g J, max kinetic + elastic %.3g J (S_r = %.3g J) %s",
         cases_[c][0], cases_[c][1], cosrod_status_name(st), sim ? cosrod_sim_nwarnings(sim) : 0, p.drift,
         p.motion, Sr, sim ? cosrod_sim_message(sim) : "");
    for (size_t i = 0; sim && i < cosrod_sim_nwarnings(sim); i++)
      NOTE("warning: %s", cosrod_sim_warning(sim, i));
    CHECK("run ok to t_end (51 frames)", st == COSROD_OK && p.n == 51);
    CHECK("no warning", sim && cosrod_sim_nwarnings(sim) == 0);
    CHECK_LE("kinetic + elastic at round-off: <= S_r", p.motion, Sr);
    CHECK_LE("drift below the warning level 1e-2 S_r", p.drift, 1e-2 * Sr);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

/* The floor must not hide a real inaccuracy: the same wire with a free tip under a step force
 * F = 1e-6 N along e2 (static tip deflection δ_st = F L³ / 3EI = 3.2e-5 m, far above round-off).
 * Reference: undamped, the tip's step response is Σ c_i (1 - cos ω_i t) with c_i >= 0, Σ c_i = δ_st,
 * so the peak external work F y_tip is at most 2 F δ_st = 2 F² L³ / 3EI = 6.47e-11 J, and at
 * t = π / ω_1 = 0.69 s (ω_1 = 1.875² √(EI / ρA L⁴) = 4.54 rad/s, inside t_end = 1.02 s) at least
 * 2 F c_1, c_1 = 4 F L³ / ((β_1 L)⁴ EI) = 0.971 δ_st (the cantilever's first mode, β_1 L = 1.875).
 * The Kelvin–Voigt damping (ζ_1 = ω_1 τ / 2 = 2e-4) and the N = 10 discretisation move it by
 * about 1 %: the accurate run (rtol = atol = 1e-9) has its peak in [0.95, 1.01] of 2 F² L³ / 3EI and
 * no warning; at rtol = atol = 1e-3 radau5's balance drifts by more than the energy of the motion
 * and the warning stays (the floor, 8.25e-18 J here, is far below the 6e-11 J of the motion). */
TEST(small_load_drift_still_warned) {
  const double PI = 3.14159265358979323846, F = 1e-6, EI = 2.1e11 * PI * pow(5e-4, 4) / 4.0;
  const double Wpeak = 2.0 * F * F / (3.0 * EI);
  const char *tol[] = {"1e-9", "1e-3"};
  for (int k = 0; k < 2; k++) {
    char sr[64], sa[64];
    snprintf(sr, sizeof sr, "solver.rtol=%s", tol[k]);
    snprintf(sa, sizeof sa, "solver.atol=%s", tol[k]);
    const char *sets[] = {"solver.integrator=radau5",
                          "rods.0.ends.end={type: free}",
                          "analysis.t_end=1.02",
                          "rods.0.loads=[{type: force, at: end, value: [0, 1.0e-6, 0]}]",
                          sr,
                          sa};
    cosrod_sim *sim;
    cosrod_scenario *sc;
    peaks p = {0};
    cosrod_sim_observer obs = {track, NULL, &p, NULL, NULL};
    cosrod_status st = run_case_obs(REST, NULL, sets, 6, &sim, &sc, &obs);
    int drift = 0;
    for (size_t i = 0; sim && i < cosrod_sim_nwarnings(sim); i++) {
      NOTE("warning: %s", cosrod_sim_warning(sim, i));
      drift |= strstr(cosrod_sim_warning(sim, i), "energy balance drift") != NULL;
    }
    NOTE("tol %s: %s, peak external work %.4g J (2 F² L³ / 3EI = %.4g J), max drift %.3g J", tol[k],
         cosrod_status_name(st), p.work, Wpeak, p.drift);
    CHECK("run ok", st == COSROD_OK);
    if (k == 0) {
      CHECK("accurate run: no warning", sim && cosrod_sim_nwarnings(sim) == 0);
      CHECK_LE("peak external work >= 0.95 * 2 F² L³ / 3EI", 0.95 * Wpeak, p.work);
      CHECK_LE("peak external work <= 1.01 * 2 F² L³ / 3EI", p.work, 1.01 * Wpeak);
    } else {
      CHECK("rtol = atol = 1e-3: the balance drift warning stays", drift);
    }
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

/* Energy lost to generalized-alpha's numerical damping: the pulsed undamped
 * steel cantilever (r = 1 cm, N = 20, 50 N at the tip for 2 ms, no
 * gravity) puts part of the pulse's work into modes with h w >> 1, which
 * rho_inf = 0.5 damps in a few steps: the balance falls by more than 1 % of
 * the work and the warning names that cause and rho_inf.  With rho_inf = 1
 * (no numerical dissipation: with a constant step the method keeps the
 * energy of a linear system exactly, Hughes, The Finite Element Method,
 * 2000, §9.3) what is left is the integration error of the adaptive steps
 * under rtol 1e-4 (measured 1.2 % of the work against 12.8 % at 0.5): at
 * least four times smaller, and a warning, if any, does not blame the
 * damping. */
TEST(galpha_damping_named_in_the_warning) {
  const char *rho[] = {"solver.rho_inf=0.5", "solver.rho_inf=1"};
  double drift[2] = {0.0, 0.0};
  for (int k = 0; k < 2; k++) {
    const char *sets[] = {"solver.integrator=galpha",
                          "solver.rtol=1e-4",
                          "solver.atol=1e-6",
                          "gravity=[0, 0, 0]",
                          "rods.0.section.radius=0.01",
                          "rods.0.segments=20",
                          "analysis.t_end=0.2",
                          "rods.0.loads=[{type: force, at: end, value: [0, 0, -50.0], frame: spatial, active: [0, "
                          "0.002]}]",
                          rho[k]};
    cosrod_sim *sim;
    cosrod_scenario *sc;
    peaks p = {0};
    cosrod_sim_observer obs = {track, NULL, &p, NULL, NULL};
    cosrod_status st = run_case_obs(CANTILEVER, NULL, sets, 9, &sim, &sc, &obs);
    CHECK("run ok", st == COSROD_OK);
    int named = 0, warned = 0;
    for (size_t i = 0; sim && i < cosrod_sim_nwarnings(sim); i++) {
      const char *w = cosrod_sim_warning(sim, i);
      NOTE("%s: %s", rho[k], w);
      warned |= strstr(w, "energy balance drift") != NULL;
      named |= strstr(w, "energy lost: generalized-alpha (rho_inf") != NULL;
    }
    drift[k] = p.drift / p.work;
    NOTE("%s: max drift %.3g J of the pulse's work %.3g J", rho[k], p.drift, p.work);
    if (k == 0) {
      CHECK("rho_inf 0.5: drift above 1 % of the work", drift[k] > 1e-2);
      CHECK("rho_inf 0.5: the warning names galpha's damping", warned && named);
      for (size_t i = 0; sim && i < cosrod_sim_nwarnings(sim); i++)
        if (strstr(cosrod_sim_warning(sim, i), "energy lost"))
          CHECK("... and its rho_inf", strstr(cosrod_sim_warning(sim, i), "(rho_inf 0.5)") != NULL);
    } else {
      CHECK("rho_inf 1: no numerical damping blamed", !named && (!warned || drift[k] > 1e-2));
    }
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  CHECK_LE("rho_inf 1 keeps the energy: drift at least 4x smaller", 4.0 * drift[1], drift[0]);
}

static const th_case cases[] = {
    TH_CASE(dopri5_blowup_is_a_failure), TH_CASE(absolute_without_projection_warns),
    TH_CASE(near_rest_judged_against_gravity_scale), TH_CASE(rest_without_gravity_no_warning),
    TH_CASE(small_load_drift_still_warned), TH_CASE(galpha_damping_named_in_the_warning)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
