// SPDX-License-Identifier: Apache-2.0
/* Simulation driver tests: the [manual: examples] rod examples run through cosrod_sim
 * (shortened horizons via --set overrides) with checks of the energy
 * balance, dissipation, cross-method agreement of the tip, the Jacobian band
 * of the global layouts, stop / failure paths and unsupported features. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "sim/sim_hooks.h"
#include "harness.h"
#include "sim_test_util.h"

/* Load examples/<name>.yaml with overrides; NULL on failure (reported). */
static cosrod_scenario *load(const char *name, const char *const *sets, size_t nsets) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.yaml", sim_test_examples_dir(), name);
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, sets, nsets, &st);
  if (st != COSROD_OK) NOTE("load %s: %s", path, cosrod_last_error());
  CHECK("scenario loads", st == COSROD_OK);
  return sc;
}

/* Per-frame record of a run. */
#define MAXF 512
typedef struct rec {
  int n;
  double t[MAXF];
  cosrod_sim_energy e[MAXF];
  double tip[MAXF][3];
  long steps;
  int stop_after; /* step callback asks to stop after this many steps (0 = never) */
} rec;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  rec *r = user;
  if (r->n < MAXF) {
    r->t[r->n] = t;
    r->e[r->n] = cosrod_sim_energy_now(sim);
    cosrod_sim_tip(sim, 0, r->tip[r->n]);
    r->n++;
  }
  return 0;
}

static int on_step(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  rec *r = user;
  (void)sim, (void)t, (void)h, (void)accepted;
  r->steps++;
  return (r->stop_after > 0 && r->steps >= r->stop_after) ? 1 : 0;
}

/* Run; returns the status, fills rec. */
static cosrod_status run(cosrod_scenario *sc, rec *r) {
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) {
    NOTE("create: %s", cosrod_last_error());
    CHECK("sim created", 0);
    return st;
  }
  cosrod_sim_observer obs = {on_frame, on_step, r, NULL, NULL};
  st = cosrod_sim_run(sim, &obs);
  if (st != COSROD_OK) NOTE("run: %s (t = %g)", cosrod_sim_message(sim), cosrod_sim_t(sim));
  cosrod_sim_free(sim);
  return st;
}

static double max_balance_drift(const rec *r) {
  double m = 0.0;
  for (int i = 1; i < r->n; i++) m = fmax(m, fabs(r->e[i].balance - r->e[0].balance));
  return m;
}

/* Undamped rubber pendulum ([LLA] Test 1): the balance is constant up to the
 * integration error, which must shrink with rtol.  Energy scale: the rod
 * (m = 0.086 kg) falls ~5 cm in 0.1 s, |gravity energy change| ~ 4e-2 J. */
TEST(pendulum_balance_shrinks_with_rtol) {
  const char *sets_lo[] = {"analysis.t_end=0.1", "output.every=0.01", "solver.rtol=1e-5", "solver.atol=1e-5"};
  const char *sets_hi[] = {"analysis.t_end=0.1", "output.every=0.01", "solver.rtol=1e-9", "solver.atol=1e-9"};
  cosrod_scenario *lo = load("rubber-pendulum", sets_lo, 4), *hi = load("rubber-pendulum", sets_hi, 4);
  if (!lo || !hi) goto out;
  static rec rl, rh;
  memset(&rl, 0, sizeof rl);
  memset(&rh, 0, sizeof rh);
  CHECK("run rtol 1e-5", run(lo, &rl) == COSROD_OK);
  CHECK("run rtol 1e-9", run(hi, &rh) == COSROD_OK);
  CHECK("11 frames (t = 0, 0.01, ..., 0.1)", rh.n == 11 && rl.n == 11);
  double dl = max_balance_drift(&rl), dh = max_balance_drift(&rh);
  double dE = fabs(rh.e[rh.n - 1].gravity - rh.e[0].gravity);
  NOTE("balance drift: rtol 1e-5 %.3e J, rtol 1e-9 %.3e J; gravity energy change %.3e J", dl, dh, dE);
  CHECK("the pendulum moves (gravity energy changes by > 1e-2 J)", dE > 1e-2);
  /* undamped, no loads: nothing dissipated, no external work */
  CHECK_NEAR("dissipated = 0", rh.e[rh.n - 1].dissipated, 0.0, 1e-14);
  CHECK_NEAR("external work = 0", rh.e[rh.n - 1].external_work, 0.0, 1e-14);
  /* tolerance proportionality: 4 decades of rtol must buy at least 2 decades
   * of balance; at 1e-9 the drift is below 1e-7 of the energy exchanged */
  CHECK_LE("drift(1e-9) <= drift(1e-5) / 100", dh, dl / 100.0);
  CHECK_LE("drift(1e-9) <= 1e-7 * energy change", dh, 1e-7 * dE);
out:
  cosrod_scenario_free(lo);
  cosrod_scenario_free(hi);
}

/* The tip after 0.1 s computed by three independent paths: dopri5 on the
 * null-space ODE, radau5 on the absolute ODE with M1 reduction (a different
 * formulation, method and state layout), and dop853 on the null-space ODE. */
TEST(pendulum_tip_agrees_across_methods) {
  const char *a[] = {"analysis.t_end=0.1", "output.every=0.05", "solver.rtol=1e-10", "solver.atol=1e-10"};
  const char *b[] = {"analysis.t_end=0.1",
                     "output.every=0.05",
                     "solver.rtol=1e-9",
                     "solver.atol=1e-9",
                     "solver.integrator=radau5",
                     "solver.formulation=absolute",
                     "solver.stabilisation=projection"};
  const char *c[] = {"analysis.t_end=0.1", "output.every=0.05", "solver.rtol=1e-10", "solver.atol=1e-10",
                     "solver.integrator=dop853"};
  cosrod_scenario *sa = load("rubber-pendulum", a, 4), *sb = load("rubber-pendulum", b, 7),
                  *sc = load("rubber-pendulum", c, 5);
  if (!sa || !sb || !sc) goto out;
  static rec ra, rb, rc;
  memset(&ra, 0, sizeof ra);
  memset(&rb, 0, sizeof rb);
  memset(&rc, 0, sizeof rc);
  CHECK("dopri5 runs", run(sa, &ra) == COSROD_OK);
  CHECK("radau5 absolute runs", run(sb, &rb) == COSROD_OK);
  CHECK("dop853 runs", run(sc, &rc) == COSROD_OK);
  if (ra.n != 3 || rb.n != 3 || rc.n != 3) {
    CHECK("3 frames each", 0);
    goto out;
  }
  NOTE("tip(0.1) dopri5 (%.9f %.9f %.9f) radau5 (%.9f %.9f %.9f)", ra.tip[2][0], ra.tip[2][1], ra.tip[2][2],
       rb.tip[2][0], rb.tip[2][1], rb.tip[2][2]);
  /* start: tip at (0, 1, 0) */
  CHECK_NEAR("tip y at t = 0", ra.tip[0][1], 1.0, 1e-14);
  /* rtol 1e-9..1e-10 on a short horizon: the runs agree to far below the
   * tolerances (measured 5e-15 m; at t = 0.3 s 4e-13 m, and 7e-10 m for
   * radau5 at rtol 1e-6), so 1e-8 m (2e-7 of the 4.9 cm the tip has fallen)
   * catches any formulation or layout error */
  CHECK_VEC("tip radau5/absolute vs dopri5/nullspace", rb.tip[2], ra.tip[2], 3, 0.0, 1e-8);
  CHECK_VEC("tip dop853 vs dopri5", rc.tip[2], ra.tip[2], 3, 0.0, 1e-8);
  /* small-time limit: the free end first falls like a free body,
   * z ~ -g t^2/2 = -0.049 at t = 0.1, slowed by bending; it must be
   * below zero and not faster than free fall */
  CHECK("tip falls", ra.tip[2][2] < -1e-3);
  CHECK_LE("tip not faster than free fall", -ra.tip[2][2], 0.5 * 9.81 * 0.01 * (1 + 1e-9));
out:
  cosrod_scenario_free(sa);
  cosrod_scenario_free(sb);
  cosrod_scenario_free(sc);
}

/* Damped runs lose mechanical energy monotonically and the balance closes
 * (perf-rubber: absolute + Baumgarte + radau5 with the M1 reduction). */
TEST(perf_rubber_damped_balance) {
  const char *sets[] = {"analysis.t_end=0.2", "output.every=0.01", "solver.rtol=1e-7", "solver.atol=1e-7"};
  cosrod_scenario *sc = load("perf-rubber", sets, 4);
  if (!sc) return;
  static rec r;
  memset(&r, 0, sizeof r);
  CHECK("run", run(sc, &r) == COSROD_OK);
  int mono = 1;
  for (int i = 1; i < r.n; i++) {
    double m0 = r.e[i - 1].kinetic + r.e[i - 1].elastic + r.e[i - 1].gravity;
    double m1 = r.e[i].kinetic + r.e[i].elastic + r.e[i].gravity;
    if (m1 > m0 + 1e-9) mono = 0;
    if (r.e[i].dissipated < r.e[i - 1].dissipated) mono = 0;
  }
  double D = r.e[r.n - 1].dissipated, drift = max_balance_drift(&r);
  NOTE("perf-rubber 0.2 s: dissipated %.4e J, balance drift %.3e J", D, drift);
  CHECK("21 frames", r.n == 21);
  CHECK("mechanical energy non-increasing, dissipated non-decreasing (1e-9 J slack)", mono);
  CHECK("energy is dissipated (> 1e-6 J)", D > 1e-6);
  /* the balance closes to far below the dissipated energy */
  CHECK_LE("balance drift <= 1e-3 * dissipated", drift, 1e-3 * D);
  cosrod_scenario_free(sc);
}

/* kv-cantilever without the static pre-load (not in this build): the tip
 * force acts on [0, 0.05] s, then the damped beam swings freely.  Work is
 * done only while the force acts; afterwards the mechanical energy decays
 * monotonically and the balance closes. */
TEST(kv_cantilever_pulse_damped) {
  const char *sets[] = {"analysis.t_end=0.3",
                        "output.every=0.01",
                        "analysis.start_from_equilibrium=false",
                        "rods.0.loads.0.preload=false",
                        "rods.0.loads.0.active=[0, 0.05]",
                        "rods.0.segments=10",
                        "solver.rtol=1e-7",
                        "solver.atol=1e-9"};
  cosrod_scenario *sc = load("kv-cantilever", sets, 8);
  if (!sc) return;
  static rec r;
  memset(&r, 0, sizeof r);
  CHECK("run", run(sc, &r) == COSROD_OK);
  int mono = 1, i5 = -1;
  for (int i = 0; i < r.n; i++)
    if (i5 < 0 && r.t[i] >= 0.05 - 1e-12) i5 = i;
  for (int i = i5 + 1; i < r.n; i++) {
    double m0 = r.e[i - 1].kinetic + r.e[i - 1].elastic, m1 = r.e[i].kinetic + r.e[i].elastic;
    if (m1 > m0 * (1 + 1e-7) + 1e-12) mono = 0;
  }
  double W = r.e[r.n - 1].external_work, D = r.e[r.n - 1].dissipated, drift = max_balance_drift(&r);
  NOTE("kv-cantilever: work %.4e J, dissipated %.4e J, balance drift %.3e J", W, D, drift);
  CHECK("frame at t = 0.05", i5 > 0);
  CHECK("the force does work", W > 1e-7);
  /* the step across the switch-off at t = 0.05 sees a discontinuous power,
   * so the quadrature there is only first order: 1e-5 of the work */
  CHECK_NEAR("no work after the pulse", r.e[r.n - 1].external_work, r.e[i5].external_work, 1e-5 * W);
  CHECK("energy decays monotonically after the pulse", mono);
  CHECK("energy is dissipated", D > 1e-3 * W);
  CHECK_LE("balance drift <= 1e-4 * work", drift, 1e-4 * W);
  cosrod_scenario_free(sc);
}

/* convergence example (dae via radau5's mass-matrix form) vs the null-space
 * ODE with dopri5: same tip at t = 0.05. */
TEST(convergence_dae_vs_nullspace) {
  const char *a[] = {"analysis.t_end=0.05", "output.every=0.05", "solver.rtol=1e-8", "solver.atol=1e-8"};
  const char *b[] = {
      "analysis.t_end=0.05",          "output.every=0.05",       "solver.rtol=1e-10", "solver.atol=1e-10",
      "solver.formulation=nullspace", "solver.integrator=dopri5"};
  cosrod_scenario *sa = load("convergence", a, 4), *sb = load("convergence", b, 6);
  if (!sa || !sb) goto out;
  static rec ra, rb;
  memset(&ra, 0, sizeof ra);
  memset(&rb, 0, sizeof rb);
  CHECK("dae radau5 runs", run(sa, &ra) == COSROD_OK);
  CHECK("nullspace dopri5 runs", run(sb, &rb) == COSROD_OK);
  if (ra.n == 2 && rb.n == 2) {
    NOTE("tip dae (%.9f %.9f %.9f)", ra.tip[1][0], ra.tip[1][1], ra.tip[1][2]);
    CHECK_VEC("tip dae vs nullspace", ra.tip[1], rb.tip[1], 3, 0.0, 1e-6);
    CHECK_LE("dae balance drift", max_balance_drift(&ra), 1e-3 * (ra.e[1].dissipated + 1e-6));
  } else {
    CHECK("2 frames each", 0);
  }
out:
  cosrod_scenario_free(sa);
  cosrod_scenario_free(sb);
}

/* The SUNDIALS paths: the DAE residual with ida ([LA] eq. 14, node layout
 * with λ next to its segment) and the null-space ODE with cvode agree with
 * dopri5 at t = 0.05 (BDF at rtol 1e-8: 1e-6 m is 1e-4 of the tip's fall). */
TEST(sundials_paths_agree) {
  if (!cosrod_step_type_by_name("ida") || !cosrod_step_type_by_name("cvode")) {
    CHECK("ida and cvode built (SUNDIALS is a required dependency of the test suite)", 0);
    return;
  }
  const char *a[] = {"analysis.t_end=0.05", "output.every=0.05", "solver.rtol=1e-8", "solver.atol=1e-8",
                     "solver.integrator=ida"};
  const char *b[] = {
      "analysis.t_end=0.05",          "output.every=0.05",       "solver.rtol=1e-10", "solver.atol=1e-10",
      "solver.formulation=nullspace", "solver.integrator=dopri5"};
  cosrod_scenario *sa = load("convergence", a, 5), *sb = load("convergence", b, 6), *sc = NULL;
  if (!sa || !sb) goto out;
  static rec ra, rb;
  memset(&ra, 0, sizeof ra);
  memset(&rb, 0, sizeof rb);
  CHECK("ida (dae residual) runs", run(sa, &ra) == COSROD_OK);
  CHECK("dopri5 runs", run(sb, &rb) == COSROD_OK);
  if (ra.n == 2 && rb.n == 2) {
    CHECK_VEC("tip ida vs dopri5", ra.tip[1], rb.tip[1], 3, 0.0, 1e-6);
    CHECK_LE("ida balance closes", fabs(ra.e[1].balance - ra.e[0].balance), 1e-3 * ra.e[1].dissipated);
  } else {
    CHECK("2 frames each", 0);
  }
  sc = load("rubber-pendulum",
            (const char *const[]){"analysis.t_end=0.05", "output.every=0.05", "solver.integrator=cvode"}, 3);
  static rec rv, rd;
  memset(&rv, 0, sizeof rv);
  memset(&rd, 0, sizeof rd);
  CHECK("cvode (nullspace) runs", sc && run(sc, &rv) == COSROD_OK);
  cosrod_scenario_free(sc);
  sc = load("rubber-pendulum", (const char *const[]){"analysis.t_end=0.05", "output.every=0.05"}, 2);
  CHECK("dopri5 runs", sc && run(sc, &rd) == COSROD_OK);
  if (rv.n == 2 && rd.n == 2) CHECK_VEC("tip cvode vs dopri5", rv.tip[1], rd.tip[1], 3, 0.0, 1e-6);
out:
  cosrod_scenario_free(sa);
  cosrod_scenario_free(sb);
  cosrod_scenario_free(sc);
}

/* analysis: static, [LLA] Test 2 (omega twist, output.every 0.25): frames at
 * t = 0, 0.25, 0.5, 0.75, 1 and the increment observer for t = 0 and each of
 * the 25 converged increments; at t = 1 the centerline lies in the
 * plane x1 = 0 and is symmetric about the midpoint: x_n and x_{N-n} mirror
 * in y about 0.5 L (the ends sit at y = 0.5 L both) and agree in z. */
static int on_frame_static(void *user, const cosrod_sim *sim, double t) {
  rec *r = user;
  if (r->n < MAXF) {
    r->t[r->n] = t;
    r->e[r->n] = cosrod_sim_energy_now(sim);
    cosrod_sim_tip(sim, 0, r->tip[r->n]);
    r->n++;
  }
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  if (t == 1.0) {
    double asym = 0, off = 0;
    for (int n = 0; n <= d->N; n++) {
      const double *a = d->x + 3 * n, *b = d->x + 3 * (d->N - n);
      asym = fmax(asym, fmax(fabs(a[1] - 0.5 - (0.5 - b[1])), fabs(a[2] - b[2])));
      off = fmax(off, fabs(a[0]));
    }
    r->tip[MAXF - 1][0] = asym;
    r->tip[MAXF - 1][1] = off;
    r->tip[MAXF - 1][2] = d->x[3 * (d->N / 2) + 2];
  }
  return 0;
}

static int on_increment(void *user, const cosrod_sim *sim, double t, long it, double res) {
  rec *r = user;
  (void)sim, (void)t, (void)it;
  r->steps++;
  r->e[MAXF - 1].balance = fmax(r->e[MAXF - 1].balance, res);
  return 0;
}

TEST(static_omega_twist) {
  cosrod_scenario *sc = load("omega-twist", NULL, 0);
  if (!sc) return;
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) NOTE("%s", cosrod_last_error());
  CHECK("create", sim != NULL);
  if (sim) {
    static rec r;
    memset(&r, 0, sizeof r);
    cosrod_sim_observer obs = {on_frame_static, NULL, &r, NULL, on_increment};
    st = cosrod_sim_run(sim, &obs);
    CHECK("run", st == COSROD_OK);
    NOTE("%d frames, %ld increments; at t = 1: asymmetry %.3e m, |x1| %.3e m, z midpoint %.4f m", r.n,
         r.steps, r.tip[MAXF - 1][0], r.tip[MAXF - 1][1], r.tip[MAXF - 1][2]);
    CHECK("5 frames (t = 0, 0.25, ..., 1), 26 increments (t = 0 and 25)", r.n == 5 && r.steps == 26);
    for (int i = 0; i < 5 && i < r.n; i++) CHECK_NEAR("frame at t = i / 4 exactly", r.t[i], 0.25 * i, 0.0);
    CHECK_NEAR("last frame at t = 1", r.t[r.n - 1], 1.0, 0.0);
    /* Newton converged to the solver's 1e-9 scaled residual; positions to
     * ~1e-9 m */
    CHECK_LE("symmetric about the midpoint", r.tip[MAXF - 1][0], 1e-8);
    CHECK_LE("in the plane x1 = 0", r.tip[MAXF - 1][1], 1e-8);
    CHECK("the rod bulges out of the line (|z_mid| > 0.1 L)", fabs(r.tip[MAXF - 1][2]) > 0.1);
    CHECK_LE("residuals below the tolerance", r.e[MAXF - 1].balance, 1e-9);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* analysis: modes of a clamped-free rubber rod without gravity: the lowest
 * bending frequencies against Euler-Bernoulli, omega_k = beta_k^2
 * sqrt(EI / (rho A L^4)) with beta_1 L = 1.8751, beta_2 L = 4.6941; the
 * discretisation error is O(1/N^2) (~1 % for the first mode at N = 20, a
 * few % for the second; shear adds < 0.1 % for this slenderness), and
 * the two bending planes are degenerate for a circular section. */
TEST(modes_cantilever) {
  static const char yaml[] =
      "cosrod: 1\n"
      "rods:\n"
      "  - length: 1.0\n"
      "    segments: 20\n"
      "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
      "    section: {shape: circle, radius: 5.0e-3}\n"
      "    ends: {start: {type: clamped}, end: {type: free}}\n"
      "analysis: {type: modes, count: 4}\n"; /* count = modes reported: two bending pairs */
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(yaml, sizeof yaml - 1, "modes.yaml", NULL, 0, &st);
  if (st != COSROD_OK) NOTE("%s", cosrod_last_error());
  CHECK("parse", st == COSROD_OK);
  if (!sc) return;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  CHECK("create", sim != NULL);
  if (sim) {
    st = cosrod_sim_run(sim, NULL);
    CHECK("run", st == COSROD_OK);
    CHECK("4 modes", cosrod_sim_nmodes(sim) == 4);
    if (cosrod_sim_nmodes(sim) == 4) {
      double w[4];
      for (int i = 0; i < 4; i++) cosrod_sim_mode(sim, i, &w[i], NULL, NULL);
      const double PI = 3.14159265358979323846, r = 5e-3;
      double EI = 5e6 * PI * r * r * r * r / 4, rhoA = 1100 * PI * r * r, s = sqrt(EI / rhoA);
      double w1 = 1.8751 * 1.8751 * s, w2 = 4.6941 * 4.6941 * s;
      NOTE("omega %.5f %.5f %.5f %.5f; Euler-Bernoulli %.5f %.5f", w[0], w[1], w[2], w[3], w1, w2);
      CHECK_REL("first bending mode", w[0], w1, 0.02);
      CHECK_REL("degenerate pair", w[1], w[0], 1e-6);
      CHECK_REL("second bending mode", w[2], w2, 0.05);
      CHECK_REL("degenerate pair (2)", w[3], w[2], 1e-6);
    }
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* start_from_equilibrium: with the tip force kept on for t >= 0 (no
 * preload), the equilibrium start is a rest state of the dynamics: the
 * kinetic energy stays at the integration-error level.  With the preload
 * (the kv-cantilever example), the beam starts deflected at rest, then
 * swings and dissipates. */
TEST(start_from_equilibrium) {
  const char *a[] = {"analysis.t_end=0.2", "output.every=0.02", "rods.0.loads.0.preload=false",
                     "solver.rtol=1e-8", "solver.atol=1e-10"};
  const char *b[] = {"analysis.t_end=0.2", "output.every=0.02"};
  cosrod_scenario *sa = load("kv-cantilever", a, 5), *sb = load("kv-cantilever", b, 2);
  if (!sa || !sb) goto out;
  static rec ra, rb;
  memset(&ra, 0, sizeof ra);
  memset(&rb, 0, sizeof rb);
  CHECK("run with constant force", run(sa, &ra) == COSROD_OK);
  CHECK("run with preload", run(sb, &rb) == COSROD_OK);
  if (ra.n == 11 && rb.n == 11) {
    double kmax = 0;
    for (int i = 0; i < ra.n; i++) kmax = fmax(kmax, ra.e[i].kinetic);
    NOTE("constant force: elastic %.4e J, max kinetic %.3e J; preload: tip x(0) %.5f m, x(0.2) %.5f m",
         ra.e[0].elastic, kmax, rb.tip[0][0], rb.tip[10][0]);
    CHECK("deflected (elastic energy > 1e-4 J)", ra.e[0].elastic > 1e-4);
    CHECK_LE("stays at rest: kinetic <= 1e-8 elastic", kmax, 1e-8 * ra.e[0].elastic);
    CHECK_NEAR("same equilibrium with and without preload", rb.tip[0][0], ra.tip[0][0], 1e-12);
    CHECK("starts at rest", rb.e[0].kinetic == 0.0);
    CHECK("released: the tip moves back", rb.tip[10][0] < rb.tip[0][0] - 1e-3);
    CHECK("dissipates", rb.e[10].dissipated > 0);
  } else {
    CHECK("11 frames each", 0);
  }
out:
  cosrod_scenario_free(sa);
  cosrod_scenario_free(sb);
}

/* [LLT] §3: the Kelvin-Voigt cantilever released from its static pre-load
 * (start_from_equilibrium) for tau = 0.01, 0.02, 0.04 s.  Damping ratios
 * from the logarithmic decrement between the first two maxima of the tip
 * displacement scale 1 : 2 : 4 (viscous damping proportional to tau; the
 * paper's linear-range statement; the large first swing and N = 10 leave a
 * few per cent), and the first period matches the linear estimate
 * 2 pi / 3.57 s = 1.76 s to 5 %. */
static double kv_zeta(const char *tau, double *period) {
  char s1[64], s2[64];
  snprintf(s1, sizeof s1, "rods.0.damping.kelvin_voigt.tau_shear=%s", tau);
  snprintf(s2, sizeof s2, "rods.0.damping.kelvin_voigt.tau_bulk=%s", tau);
  const char *sets[] = {"analysis.t_end=2.0",
                        "output.every=0.005",
                        "rods.0.segments=10",
                        "solver.rtol=1e-6",
                        "solver.atol=1e-8",
                        s1,
                        s2};
  cosrod_scenario *sc = load("kv-cantilever", sets, 7);
  if (!sc) return NAN;
  static rec r;
  memset(&r, 0, sizeof r);
  double z = NAN;
  if (run(sc, &r) == COSROD_OK && r.n > 3) {
    /* first interior maximum of the tip x1 (parabolic refinement) */
    for (int i = 1; i + 1 < r.n; i++) {
      double a = r.tip[i - 1][0], b = r.tip[i][0], c = r.tip[i + 1][0];
      if (b > a && b >= c && r.t[i] > 0.5) {
        double den = a - 2 * b + c, off = den != 0 ? 0.5 * (a - c) / den : 0;
        double peak = b - 0.25 * (a - c) * off, tp = r.t[i] + off * (r.t[i + 1] - r.t[i]);
        double delta = log(r.tip[0][0] / peak);
        z = delta / sqrt(4 * 3.14159265358979323846 * 3.14159265358979323846 + delta * delta);
        *period = tp;
        NOTE("tau %s: x(0) %.5f m, next maximum %.5f m at t = %.4f s, zeta %.5f", tau, r.tip[0][0], peak, tp,
             z);
        break;
      }
    }
  }
  cosrod_scenario_free(sc);
  return z;
}

TEST(kv_cantilever_damping_ratios) {
  double T1 = NAN, T2 = NAN, T4 = NAN;
  double z1 = kv_zeta("0.01", &T1), z2 = kv_zeta("0.02", &T2), z4 = kv_zeta("0.04", &T4);
  CHECK("three decrements", isfinite(z1) && isfinite(z2) && isfinite(z4));
  CHECK_REL("zeta(0.02) / zeta(0.01) = 2", z2 / z1, 2.0, 0.05);
  CHECK_REL("zeta(0.04) / zeta(0.01) = 4", z4 / z1, 4.0, 0.1);
  CHECK_REL("first period (linear estimate 1.76 s)", T1, 2 * 3.14159265358979323846 / 3.57, 0.05);
}

/* [LA] Fig. 2: spatial convergence of the damped rubber pendulum
 * (convergence example, absolute formulation with radau5 and the analytic
 * Jacobian; the time error at rtol 1e-8 is far below the discretisation
 * error).  The centerline at t = 0.2 s on the common vertices
 * s = 0, 0.1, ..., 1 for N = 10, 20, 40, 80: successive differences shrink
 * by 4 per doubling (order 2; measured 3.7 and 3.9 -> slopes 1.9 / 1.95). */
typedef struct cv_rec {
  double x[11][3];
} cv_rec;

static int cv_frame(void *user, const cosrod_sim *sim, double t) {
  cv_rec *c = user;
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  if (t > 0)
    for (int k = 0; k <= 10; k++)
      for (int j = 0; j < 3; j++) c->x[k][j] = d->x[3 * (k * d->N / 10) + j];
  return 0;
}

TEST(convergence_order_in_N) {
  static cv_rec c[4];
  int Ns[4] = {10, 20, 40, 80};
  for (int i = 0; i < 4; i++) {
    char seg[64];
    snprintf(seg, sizeof seg, "rods.0.segments=%d", Ns[i]);
    const char *sets[] = {seg,
                          "analysis.t_end=0.2",
                          "output.every=0.2",
                          "solver.rtol=1e-8",
                          "solver.atol=1e-8",
                          "solver.formulation=absolute"};
    cosrod_scenario *sc = load("convergence", sets, 6);
    if (!sc) return;
    cosrod_status st;
    cosrod_sim *sim = cosrod_sim_create(sc, &st);
    CHECK("create", sim != NULL);
    if (sim) {
      cosrod_sim_observer obs = {cv_frame, NULL, &c[i], NULL, NULL};
      CHECK("run", cosrod_sim_run(sim, &obs) == COSROD_OK);
    }
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  double dif[3];
  for (int i = 0; i < 3; i++) {
    dif[i] = 0;
    for (int k = 0; k <= 10; k++)
      for (int j = 0; j < 3; j++) dif[i] = fmax(dif[i], fabs(c[i].x[k][j] - c[i + 1].x[k][j]));
  }
  double s1 = log2(dif[0] / dif[1]), s2 = log2(dif[1] / dif[2]);
  NOTE("max |x_N - x_2N|: N = 10 %.3e, 20 %.3e, 40 %.3e m; slopes %.3f %.3f", dif[0], dif[1], dif[2], s1, s2);
  CHECK_NEAR("order 2 (10 -> 20 -> 40)", s1, 2.0, 0.2);
  CHECK_NEAR("order 2 (20 -> 40 -> 80)", s2, 2.0, 0.15);
}

/* Several rods are stacked block-diagonally: two copies of the rubber
 * pendulum side by side give exactly the tips of the single rod (and twice
 * its energies), in the node layout (dopri5, null-space) and in the M1
 * layout (radau5, absolute with the analytic Jacobian). */
static const char TWO_RODS[] =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "rods:\n"
    "  - {name: a, length: 1.0, segments: 6, material: rubber, section: {shape: circle, radius: 5.0e-3},\n"
    "     shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]},\n"
    "     ends: {start: {type: pinned}, end: {type: free}}}\n"
    "  - {name: b, length: 1.0, segments: 6, material: rubber, section: {shape: circle, radius: 5.0e-3},\n"
    "     shape: {type: straight, start: [2, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]},\n"
    "     ends: {start: {type: pinned}, end: {type: free}}}\n"
    "analysis: {type: dynamic, t_end: 0.05}\n"
    "solver: {integrator: dopri5, rtol: 1.0e-8, atol: 1.0e-8}\n"
    "output: {every: 0.05}\n";

typedef struct two_rec {
  double tip[2][3];
  cosrod_sim_energy e;
} two_rec;

static int two_frame(void *user, const cosrod_sim *sim, double t) {
  two_rec *r = user;
  if (t > 0) {
    for (size_t k = 0; k < cosrod_sim_nrods(sim); k++) cosrod_sim_tip(sim, k, r->tip[k]);
    r->e = cosrod_sim_energy_now(sim);
  }
  return 0;
}

static int run_text(const char *text, size_t len, const char *const *sets, size_t nsets, two_rec *r) {
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_parse(text, len, "two.yaml", sets, nsets, NULL))) {
    NOTE("%s", cosrod_last_error());
    return -1;
  }
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  int rc = -1;
  if (sim) {
    cosrod_sim_observer obs = {two_frame, NULL, r, NULL, NULL};
    rc = cosrod_sim_run(sim, &obs) == COSROD_OK ? 0 : -1;
  } else {
    NOTE("%s", cosrod_last_error());
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return rc;
}

TEST(several_rods_stacked) {
  const char *one_set[] = {
      "rods=[{name: a, length: 1.0, segments: 6, material: rubber, section: {shape: circle, "
      "radius: 5.0e-3}, shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], "
      "normal: [0, 0, 1]}, ends: {start: {type: pinned}, end: {type: free}}}]"};
  const char *m1[] = {"solver.integrator=radau5", "solver.formulation=absolute"};
  for (int v = 0; v < 2; v++) {
    two_rec two, one;
    memset(&two, 0, sizeof two);
    memset(&one, 0, sizeof one);
    const char *sets2[3] = {v ? m1[0] : "solver.integrator=dopri5",
                            v ? m1[1] : "solver.formulation=nullspace", NULL};
    const char *sets1[3] = {sets2[0], sets2[1], one_set[0]};
    CHECK("two rods run", run_text(TWO_RODS, sizeof TWO_RODS - 1, sets2, 2, &two) == 0);
    CHECK("one rod runs", run_text(TWO_RODS, sizeof TWO_RODS - 1, sets1, 3, &one) == 0);
    NOTE("%s: tips a (%.9f %.9f %.9f) b-2e1 (%.9f %.9f %.9f)", v ? "radau5 M1" : "dopri5 node", two.tip[0][0],
         two.tip[0][1], two.tip[0][2], two.tip[1][0] - 2, two.tip[1][1], two.tip[1][2]);
    double b[3] = {two.tip[1][0] - 2.0, two.tip[1][1], two.tip[1][2]};
    /* the stacked system is integrated with one error norm, so the two
     * runs take different steps: agreement to the tolerance level */
    CHECK_VEC("rod a = single rod", two.tip[0], one.tip[0], 3, 0.0, 1e-7);
    CHECK_VEC("rod b = rod a shifted by 2 e1", b, two.tip[0], 3, 0.0, 1e-12);
    CHECK_REL("energies add up", two.e.kinetic, 2 * one.e.kinetic, 1e-6);
  }
}

/* A prescribed end moving (constant velocity, and turning about e2 at
 * constant rate by slerp) drags a damped rod under gravity: the balance
 * kinetic + elastic + gravity + dissipated - external_work stays constant
 * (the power of the moving end is integrated by Simpson on the dense output)
 * to 1e-5 of the work done.  (Kinks of linear keyframes would be velocity
 * jumps of the prescribed vertex: impulsive work the power integral cannot
 * see, so this path has none inside [0, t_end].) */
TEST(prescribed_end_work_balance) {
  static const char yaml[] =
      "cosrod: 1\n"
      "gravity: [0, 0, -9.81]\n"
      "rods:\n"
      "  - length: 0.5\n"
      "    segments: 8\n"
      "    material: {E: 1.0e6, poisson: 0.4, density: 1000}\n"
      "    section: {shape: circle, radius: 5.0e-3}\n"
      "    damping: {kelvin_voigt: {tau_shear: 0.002, tau_bulk: 0.002}}\n"
      "    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
      "    ends:\n"
      "      start: {type: prescribed, position: [[0, 0, 0, 0], [1, 0.5, 0, 0.25]],\n"
      "              orientation: [[0, 0.5, -0.5, -0.5, -0.5],\n"
      "                            [1, 0.608158190482584, -0.608158190482584, -0.360754231228061,\n"
      "                             -0.360754231228061]]}\n"
      "      end: {type: free}\n"
      "analysis: {type: dynamic, t_end: 0.2}\n"
      "solver: {integrator: radau5, formulation: absolute, rtol: 1.0e-8, atol: 1.0e-8}\n"
      "output: {every: 0.01}\n";
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse(yaml, sizeof yaml - 1, "driven.yaml", NULL, 0, &st);
  if (st != COSROD_OK) NOTE("%s", cosrod_last_error());
  CHECK("parse", st == COSROD_OK);
  if (!sc) return;
  static rec r;
  memset(&r, 0, sizeof r);
  CHECK("run", run(sc, &r) == COSROD_OK);
  if (r.n == 21) {
    double wmax = 0;
    for (int i = 0; i < r.n; i++) wmax = fmax(wmax, fabs(r.e[i].external_work));
    double drift = max_balance_drift(&r);
    NOTE("max |external work| %.4e J, dissipated %.4e J, balance drift %.3e J", wmax, r.e[20].dissipated,
         drift);
    CHECK("the moving end does work", wmax > 1e-6);
    CHECK("energy is dissipated", r.e[20].dissipated > 0);
    CHECK_LE("balance constant to 1e-5 of the work", drift, 1e-5 * wmax);
  } else {
    CHECK("21 frames", 0);
  }
  cosrod_scenario_free(sc);
}

/* The band given to the integrator covers every non-zero of the Jacobian:
 * a dense finite-difference Jacobian of the global right-hand side, on a
 * randomly perturbed state, has exact zeros outside [-ml, mu] (an f_i that
 * does not depend on y_j is bitwise unchanged by perturbing y_j). */
static void check_band(const char *name, const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load(name, sets, nsets, &sc);
  if (!sim) return;
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  int n = p->n, ml, mu, mlq, muq;
  cosrod_sim_bandwidth(sim, &ml, &mu, &mlq, &muq);
  double *y = malloc((size_t)n * sizeof *y), *f0 = malloc((size_t)n * sizeof *y),
         *f1 = malloc((size_t)n * sizeof *y);
  th_rng rng;
  th_rng_seed(&rng, 7);
  memcpy(y, cosrod_sim_state(sim), (size_t)n * sizeof *y);
  for (int i = 0; i < n; i++) y[i] += 1e-2 * th_rng_uniform(&rng, -1, 1);
  long outside = 0, inside_nz = 0;
  p->f(0.01, y, f0, p->user);
  for (int j = 0; j < n; j++) {
    double yj = y[j];
    y[j] = yj + 1e-6;
    p->f(0.01, y, f1, p->user);
    y[j] = yj;
    for (int i = p->m1; i < n; i++) {
      if (f1[i] == f0[i]) continue;
      int lo, up, d;
      if (p->m1 > 0) { /* SPLIT: band of the v-rows against the q- or v-columns */
        int c = j < p->m1 ? j : j - p->m1;
        d = (i - p->m1) - c;
        lo = j < p->m1 ? mlq : ml;
        up = j < p->m1 ? muq : mu;
      } else {
        d = i - j;
        lo = ml;
        up = mu;
      }
      if (d > lo || -d > up)
        outside++;
      else
        inside_nz++;
    }
  }
  NOTE("%s: n = %d, ml = %d, mu = %d (q: %d %d), non-zeros in band %ld, outside %ld", name, n, ml, mu, mlq,
       muq, inside_nz, outside);
  CHECK("no Jacobian entry outside the band", outside == 0);
  CHECK("band is used (non-zeros found)", inside_nz > n);
  /* and the band is narrow: independent of N */
  CHECK_LE("lower bandwidth <= 30", ml, 30);
  CHECK_LE("upper bandwidth <= 30", mu, 30);
  free(y);
  free(f0);
  free(f1);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(band_nullspace_node_layout) {
  /* damped (Kelvin-Voigt), clamped, null-space */
  check_band("kv-cantilever",
             (const char *const[]){"analysis.start_from_equilibrium=false", "rods.0.loads.0.preload=false",
                                   "rods.0.segments=12"},
             3);
  /* undamped, pinned, null-space */
  check_band("rubber-pendulum", (const char *const[]){"solver.integrator=radau5", "rods.0.segments=11"}, 2);
  /* absolute, SPLIT layout (M1), damped, clamped end */
  check_band("perf-steel", (const char *const[]){"solver.integrator=radau5", "rods.0.segments=12"}, 2);
}

/* The M1 (split) layout is used exactly by the methods that solve the halved
 * Newton system (COSROD_STEP_M1_REDUCTION: radau5, rodas, seulex); every other
 * method, cvode included, gets the node layout, whose Jacobian bandwidth does
 * not grow with N (a cvode run on the split layout would expand the reduced
 * Jacobian into a dense matrix: ~1 ms per step at N = 10). */
TEST(layout_follows_m1_reduction) {
  const char *methods[] = {"radau5", "rodas", "seulex", "dopri5", "cvode"};
  for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
    const cosrod_step_type *T = cosrod_step_type_by_name(methods[m]);
    CHECK(methods[m], T != NULL); /* every method is built where the suite runs */
    if (!T) continue;
    int width[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
      char integ[64], seg[64];
      snprintf(integ, sizeof integ, "solver.integrator=%s", methods[m]);
      snprintf(seg, sizeof seg, "rods.0.segments=%d", k == 0 ? 9 : 30);
      const char *sets[] = {integ, seg};
      cosrod_scenario *sc;
      cosrod_sim *sim = sim_test_load("perf-rubber", sets, 2, &sc);
      if (!sim) return;
      int ml, mu, mlq, muq;
      cosrod_sim_bandwidth(sim, &ml, &mu, &mlq, &muq);
      width[k] = ml + mu;
      char what[128];
      int want_split = (T->flags & COSROD_STEP_M1_REDUCTION) != 0;
      snprintf(what, sizeof what, "%s, N = %s: %s layout", methods[m], seg + 16,
               want_split ? "split" : "node");
      CHECK(what, cosrod_sim_split_layout(sim) == want_split);
      cosrod_sim_free(sim);
      cosrod_scenario_free(sc);
    }
    char what[128];
    snprintf(what, sizeof what, "%s: Jacobian bandwidth ml + mu at N = 30 equals that at N = 9 (%d)",
             methods[m], width[0]);
    CHECK(what, width[0] == width[1] && width[0] > 0);
  }
  CHECK("radau5, rodas and seulex solve the halved system; cvode and dopri5 do not",
        (cosrod_step_radau5->flags & COSROD_STEP_M1_REDUCTION) &&
            (cosrod_step_rodas->flags & COSROD_STEP_M1_REDUCTION) &&
            (cosrod_step_seulex->flags & COSROD_STEP_M1_REDUCTION) &&
            !(cosrod_step_dopri5->flags & COSROD_STEP_M1_REDUCTION) &&
            (!cosrod_step_type_by_name("cvode") ||
             !(cosrod_step_type_by_name("cvode")->flags & COSROD_STEP_M1_REDUCTION)));
}

TEST(band_absolute_node_and_dae_layouts) {
  /* absolute with cvode-like (non-M1) methods uses the node layout: take dopri5 */
  check_band("perf-rubber", (const char *const[]){"solver.integrator=dopri5", "rods.0.segments=9"}, 2);
  check_band("convergence", (const char *const[]){"rods.0.segments=8"}, 1); /* dae, mass-matrix form */
}

/* The analytic Jacobian of the SPLIT layout (reduced second-order form,
 * [LLA] eq. 29 differentiated by the rod module) against central differences
 * of the global right-hand side on a perturbed state.  Central differences
 * with step 1e-6 have a truncation error ~1e-12 times the third derivative:
 * 1e-6 of the largest entry is ample. */
static void check_jac_split(const char *name, const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load(name, sets, nsets, &sc);
  if (!sim) return;
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  CHECK("split layout with an analytic Jacobian",
        cosrod_sim_split_layout(sim) && p->jac != NULL && p->m1 > 0);
  int n = p->n, m1 = p->m1, nr = n - m1;
  int wq = p->jac_ml_q + p->jac_mu_q, wv = p->jac_ml + p->jac_mu;
  int ldj = (wq > wv ? wq : wv) + 1;
  double *J = calloc((size_t)ldj * (size_t)n, sizeof *J);
  double *y = malloc((size_t)n * sizeof *y), *fp = malloc((size_t)n * sizeof *y),
         *fm = malloc((size_t)n * sizeof *y);
  th_rng rng;
  th_rng_seed(&rng, 11);
  memcpy(y, cosrod_sim_state(sim), (size_t)n * sizeof *y);
  for (int i = 0; i < n; i++) y[i] += 1e-2 * th_rng_uniform(&rng, -1, 1);
  CHECK("jac callback ok", p->jac(0.01, y, J, ldj, p->user) == 0);
  double maxJ = 0, maxerr = 0;
  for (int j = 0; j < n; j++) {
    double yj = y[j], h = 1e-6 * fmax(1.0, fabs(yj));
    y[j] = yj + h;
    p->f(0.01, y, fp, p->user);
    y[j] = yj - h;
    p->f(0.01, y, fm, p->user);
    y[j] = yj;
    int c = j < m1 ? j : j - m1, ml = j < m1 ? p->jac_ml_q : p->jac_ml, mu = j < m1 ? p->jac_mu_q : p->jac_mu;
    for (int i = 0; i < nr; i++) {
      double fd = (fp[m1 + i] - fm[m1 + i]) / (2 * h);
      double an = (i - c <= ml && c - i <= mu) ? J[(size_t)j * (size_t)ldj + (size_t)(mu + i - c)] : 0.0;
      maxJ = fmax(maxJ, fabs(fd));
      maxerr = fmax(maxerr, fabs(fd - an));
    }
  }
  NOTE("%s: n = %d, max |J| %.3e, max |analytic - FD| %.3e", name, n, maxJ, maxerr);
  CHECK_LE("analytic = FD to 1e-6 relative", maxerr, 1e-6 * maxJ);
  free(J);
  free(y);
  free(fp);
  free(fm);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(analytic_jacobian_split_layout) {
  check_jac_split("perf-steel", (const char *const[]){"rods.0.segments=7"}, 1);
  check_jac_split("perf-rubber", NULL, 0);
}

/* The analytic Jacobians of the NODE layout against central differences of
 * the global right-hand side (or of ida's residual, J = dF/dy + cj dF/dy')
 * on a perturbed state; entries outside the band must vanish.  Tolerance as
 * for the SPLIT layout: 1e-6 of the largest entry. */
static void check_jac_node(const char *name, const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load(name, sets, nsets, &sc);
  if (!sim) return;
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  int res = p->res != NULL;
  CHECK("node layout with an analytic Jacobian",
        !cosrod_sim_split_layout(sim) && (res ? p->res_jac != NULL : p->jac != NULL));
  int n = p->n, ml = p->jac_ml, mu = p->jac_mu, ldj = ml + mu + 1;
  double *J = calloc((size_t)ldj * (size_t)n, sizeof *J);
  double *y = malloc((size_t)n * sizeof *y), *yp = malloc((size_t)n * sizeof *y);
  double *fp = malloc((size_t)n * sizeof *y), *fm = malloc((size_t)n * sizeof *y);
  th_rng rng;
  th_rng_seed(&rng, 5);
  memcpy(y, cosrod_sim_state(sim), (size_t)n * sizeof *y);
  for (int i = 0; i < n; i++) {
    y[i] += 1e-2 * th_rng_uniform(&rng, -1, 1);
    yp[i] = th_rng_uniform(&rng, -1, 1);
  }
  const double cj = 37.0;
  int rc = res ? p->res_jac(0.01, cj, y, yp, J, ldj, p->user) : p->jac(0.01, y, J, ldj, p->user);
  CHECK("jac callback ok", rc == 0);
  double maxJ = 0, maxerr = 0;
  for (int j = 0; j < n; j++) {
    double yj = y[j], ypj = yp[j], h = 1e-6 * fmax(1.0, fabs(yj));
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      double *f = sgn > 0 ? fp : fm;
      y[j] = yj + sgn * h;
      if (res) {
        yp[j] = ypj + sgn * cj * h; /* d/dy + cj d/dy' along one direction */
        p->res(0.01, y, yp, f, p->user);
      } else {
        p->f(0.01, y, f, p->user);
      }
    }
    y[j] = yj;
    yp[j] = ypj;
    for (int i = 0; i < n; i++) {
      double fd = (fp[i] - fm[i]) / (2 * h);
      double an = (i - j <= ml && j - i <= mu) ? J[(size_t)j * (size_t)ldj + (size_t)(mu + i - j)] : 0.0;
      maxJ = fmax(maxJ, fabs(fd));
      maxerr = fmax(maxerr, fabs(fd - an));
    }
  }
  NOTE("%s: n = %d, band (%d, %d), max |J| %.3e, max |analytic - FD| %.3e", name, n, ml, mu, maxJ, maxerr);
  CHECK_LE("analytic = FD to 1e-6 relative", maxerr, 1e-6 * maxJ);
  free(J);
  free(y);
  free(yp);
  free(fp);
  free(fm);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(analytic_jacobian_node_layout) {
  /* null-space, damped, clamped (radau5 without M1) */
  check_jac_node("kv-cantilever", (const char *const[]){"rods.0.segments=6", "solver.integrator=radau5"}, 2);
  /* absolute with Baumgarte, pinned, damped (node layout with cvode-like methods: dopri5 here) */
  check_jac_node("perf-rubber", (const char *const[]){"rods.0.segments=5", "solver.integrator=dopri5"}, 2);
  /* DAE as mass-matrix problem (radau5) */
  check_jac_node("convergence", (const char *const[]){"rods.0.segments=5"}, 1);
  /* DAE residual (ida) */
  if (cosrod_step_type_by_name("ida"))
    check_jac_node("convergence", (const char *const[]){"rods.0.segments=5", "solver.integrator=ida"}, 2);
}

/* The observer stops the run (as SIGINT does): ERR_INTERRUPTED before t_end. */
TEST(stop_from_observer) {
  const char *sets[] = {"analysis.t_end=1.0"};
  cosrod_scenario *sc = load("rubber-pendulum", sets, 1);
  if (!sc) return;
  static rec r;
  memset(&r, 0, sizeof r);
  r.stop_after = 20;
  cosrod_status st = run(sc, &r);
  CHECK("interrupted", st == COSROD_ERR_INTERRUPTED);
  CHECK("stopped after 20 steps", r.steps == 20);
  CHECK("frames before t_end", r.n >= 1 && r.t[r.n - 1] < 1.0);
  cosrod_scenario_free(sc);
}

/* A stop flag (the SIGINT path) set before the run stops after one step. */
TEST(stop_flag) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("rubber-pendulum", (const char *const[]){"analysis.t_end=1.0"}, 1, &sc);
  if (!sim) return;
  static volatile sig_atomic_t flag = 1;
  cosrod_sim_observer obs = {NULL, NULL, NULL, &flag, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("interrupted", st == COSROD_ERR_INTERRUPTED);
  CHECK_LE("stopped early", cosrod_sim_t(sim), 0.01);
  CHECK("at most one step (the flag is polled at t = 0 already)", cosrod_sim_stats(sim)->nsteps <= 1);
  /* an interrupted run is continued by cosrod_sim_advance (sim.h) */
  flag = 0;
  CHECK("advance after the interrupted run", cosrod_sim_advance(sim, 0.05) == COSROD_OK);
  CHECK_NEAR("at the requested time", cosrod_sim_t(sim), 0.05, 0.0);
  double tip[3];
  cosrod_sim_tip(sim, 0, tip);
  CHECK("tip finite", isfinite(tip[0]) && isfinite(tip[1]) && isfinite(tip[2]));
  CHECK("a second run is refused", cosrod_sim_run(sim, NULL) == COSROD_ERR_INVALID);
  flag = 1; /* the next call of the test starts stopped again */
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* Solver failure: max_steps = 5 -> ERR_MAX_STEPS with a message, the time
 * and the last accepted state (tip finite). */
TEST(failure_max_steps) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("rubber-pendulum", (const char *const[]){"solver.max_steps=5"}, 1, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  double tip[3];
  cosrod_sim_tip(sim, 0, tip);
  NOTE("failure: %s; t_fail %g, t %g", cosrod_sim_message(sim), cosrod_sim_fail_time(sim), cosrod_sim_t(sim));
  CHECK("max steps", st == COSROD_ERR_MAX_STEPS);
  CHECK("message", strlen(cosrod_sim_message(sim)) > 0);
  CHECK("t reached in [0, 0.01)", cosrod_sim_t(sim) >= 0 && cosrod_sim_t(sim) < 0.01);
  CHECK("failure time known", isfinite(cosrod_sim_fail_time(sim)));
  CHECK("tip finite", isfinite(tip[0]) && isfinite(tip[1]) && isfinite(tip[2]));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static void expect_unsupported(const char *name, const char *const *sets, size_t nsets, const char *key) {
  cosrod_scenario *sc = load(name, sets, nsets);
  if (!sc) return;
  cosrod_status st = COSROD_OK;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  NOTE("%s: %s", name, cosrod_last_error());
  CHECK("refused", sim == NULL && st == COSROD_ERR_UNSUPPORTED);
  char want[128];
  snprintf(want, sizeof want, ": %s: ", key);
  CHECK("message names the key", strstr(cosrod_last_error(), want) != NULL);
  CHECK("message starts with the file name", strstr(cosrod_last_error(), ".yaml:") != NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(unsupported_features_are_errors) {
  /* rigid bodies without rods run (a system with zero rods), not in the DAE formulation */
  expect_unsupported("heavy-top", (const char *const[]){"solver.formulation=dae", "solver.integrator=radau5"}, 2,
                     "solver.formulation");
  expect_unsupported("rubber-pendulum", (const char *const[]){"solver.stabilisation=baumgarte"}, 1,
                     "solver.stabilisation");
}

static const th_case cases[] = {
    TH_CASE(pendulum_balance_shrinks_with_rtol),
    TH_CASE(pendulum_tip_agrees_across_methods),
    TH_CASE(perf_rubber_damped_balance),
    TH_CASE(kv_cantilever_pulse_damped),
    TH_CASE(convergence_dae_vs_nullspace),
    TH_CASE(sundials_paths_agree),
    TH_CASE(static_omega_twist),
    TH_CASE(modes_cantilever),
    TH_CASE(start_from_equilibrium),
    TH_CASE(kv_cantilever_damping_ratios),
    TH_CASE(convergence_order_in_N),
    TH_CASE(several_rods_stacked),
    TH_CASE(prescribed_end_work_balance),
    TH_CASE(band_nullspace_node_layout),
    TH_CASE(band_absolute_node_and_dae_layouts),
    TH_CASE(analytic_jacobian_split_layout),
    TH_CASE(layout_follows_m1_reduction),
    TH_CASE(analytic_jacobian_node_layout),
    TH_CASE(stop_from_observer),
    TH_CASE(stop_flag),
    TH_CASE(failure_max_steps),
    TH_CASE(unsupported_features_are_errors),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
