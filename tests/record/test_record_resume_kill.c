// SPDX-License-Identifier: Apache-2.0
/* Resume after a kill, for the systems beyond a single rod (record.h, sim.h
 * restart data): rigid bodies without rods (free, on joints, after a change
 * of the null-space partition) and a rod sliding with friction (contact).
 * Each scenario is recorded once uninterrupted; a second run is a child
 * process that ends with _exit at t_stop (as a kill leaves its files:
 * temporary files unpublished, nothing closed), and a third continues that
 * run's folder from its last checkpoint (cosrod_recorder_resume).  The
 * resumed run must reach the uninterrupted run's final state and energy
 * accounts to the integrator's tolerance, and every CSV file must hold the
 * uninterrupted run's rows: the same sequence of times (column t), so no
 * duplicate and no missing row.
 *
 * Bound on the final state.  Both runs integrate the same ODE from the same
 * checkpoint state (the resumed one restarts the method there) with
 * error-per-step control at tol = atol + rtol |y| (HNW I §II.4); with
 * tolerance proportionality each run's global error is C tol, C the error
 * amplification over the remaining time T.  For a rigid body spinning at
 * |Ω| the linearised Euler equations grow at most at the rate
 * λ <= |Ω| max|I_i - I_j| / min I_k, a damped sliding contact at λ <= 0; each
 * case states λ T and asserts |difference| <= 2 exp(λ T) tol per
 * component (the bound of each case is in its comment).  A state restored
 * at the wrong time or in the wrong coordinates differs by the motion over
 * one output interval, orders of magnitude above it.  COSROD_TEST_KEEP=1
 * keeps the folders (printed by the mkdtemp check). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cosrod/record.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"

typedef struct kcase {
  const char *text;    /* scenario */
  double t_stop;       /* the killed run ends after its frame at t_stop */
  double t_resume;     /* its last checkpoint */
  double rtol, atol;   /* the scenario's solver tolerances */
  double amp;          /* exp(λ T): error amplification over the rest of the run */
  const char *files[8]; /* CSV files compared row by row (NULL-terminated) */
} kcase;

static cosrod_scenario *parse(const char *text) {
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_scenario_parse(text, strlen(text), "kill.yaml", NULL, 0, &st);
  if (!sc) fprintf(stderr, "%s\n", cosrod_last_error());
  return sc;
}

/* The t column (first field of every data line) of DIR/NAME; count in *n. */
static double *times(const char *dir, const char *name, long *n) {
  char p[1280];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  *n = -1;
  FILE *f = fopen(p, "r");
  if (!f) return NULL;
  size_t cap = 1024;
  double *t = malloc(cap * sizeof *t);
  char line[4096];
  long k = 0;
  int head = 1;
  while (t && fgets(line, sizeof line, f)) {
    if (head) { /* the header line */
      head = 0;
      continue;
    }
    if ((size_t)k == cap) {
      double *u = realloc(t, 2 * cap * sizeof *t);
      if (!u) break;
      t = u, cap *= 2;
    }
    t[k++] = strtod(line, NULL);
  }
  fclose(f);
  *n = k;
  return t;
}

typedef struct stop_ctx {
  cosrod_recorder *rec;
  double t_stop;
} stop_ctx;

static int frame_cb(void *user, const cosrod_sim *sim, double t) {
  stop_ctx *c = user;
  if (cosrod_recorder_frame(c->rec, sim, t) != 0) return -1;
  if (t >= c->t_stop - 1e-12) _exit(0); /* as a kill: nothing closed, nothing published */
  return 0;
}
static int step_cb(void *user, const cosrod_sim *sim, double t, double h, int acc) {
  (void)sim;
  return cosrod_recorder_step(((stop_ctx *)user)->rec, t, h, acc);
}

/* Run sim into rec to the end and finish; final state into y (ny), energy into e. */
static int run_to_end(cosrod_sim *sim, cosrod_recorder *rec, double *y, cosrod_sim_energy *e) {
  stop_ctx c = {rec, INFINITY};
  cosrod_sim_observer obs = {frame_cb, step_cb, &c, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  memcpy(y, cosrod_sim_state(sim), (size_t)cosrod_sim_ny(sim) * sizeof *y);
  *e = cosrod_sim_energy_now(sim);
  e->elastic = cosrod_sim_contact_dissipated(sim); /* (the contact's share of the dissipation, compared below) */
  cosrod_status fs = cosrod_recorder_finish(rec, sim, st, 0.0, NULL, NULL);
  return st == COSROD_OK && fs == COSROD_OK ? 0 : -1;
}

static void kill_case(const kcase *kc) {
  char base[] = "/tmp/cosrod_rkill_XXXXXX";
  CHECK("mkdtemp", mkdtemp(base) != NULL);
  if (getenv("COSROD_TEST_KEEP")) NOTE("folders in %s", base);
  char dA[600], dB[600];
  snprintf(dA, sizeof dA, "%s/a", base);
  snprintf(dB, sizeof dB, "%s/b", base);
  cosrod_scenario *sc = parse(kc->text);
  CHECK("scenario", sc != NULL);
  if (!sc) return;
  cosrod_status st;
  /* uninterrupted */
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  CHECK("sim", sim != NULL);
  if (!sim) {
    NOTE("%s", cosrod_last_error());
    cosrod_scenario_free(sc);
    return;
  }
  const int ny = cosrod_sim_ny(sim);
  double *yA = calloc((size_t)ny, sizeof *yA), *yB = calloc((size_t)ny, sizeof *yB);
  cosrod_sim_energy eA, eB;
  cosrod_recorder *rec = cosrod_recorder_create(sim, dA, "kill.yaml", 0.0, &st);
  CHECK("recorder A", rec != NULL);
  CHECK("uninterrupted run", rec && run_to_end(sim, rec, yA, &eA) == 0);
  cosrod_recorder_free(rec);
  cosrod_sim_free(sim);
  /* killed at t_stop (a child process) */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    sim = cosrod_sim_create(sc, &st);
    rec = sim ? cosrod_recorder_create(sim, dB, "kill.yaml", 0.0, &st) : NULL;
    if (!rec) _exit(3);
    stop_ctx c = {rec, kc->t_stop};
    cosrod_sim_observer obs = {frame_cb, step_cb, &c, NULL, NULL};
    cosrod_sim_run(sim, &obs);
    _exit(4); /* ran to the end: t_stop missed */
  }
  int ws = 0;
  CHECK("killed run", pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
  /* resumed */
  sim = cosrod_sim_create(sc, &st);
  rec = cosrod_recorder_resume(sim, dB, 0.0, &st);
  CHECK("resume", rec != NULL);
  if (!rec) NOTE("refused: %s", cosrod_last_error());
  if (rec) {
    CHECK_NEAR("continues from the last checkpoint", cosrod_sim_t(sim), kc->t_resume, 1e-12);
    CHECK("resumed run", run_to_end(sim, rec, yB, &eB) == 0);
    cosrod_recorder_free(rec);
    double worst = 0.0;
    int iw = 0;
    for (int i = 0; i < ny; i++) {
      const double tol = kc->atol + kc->rtol * fabs(yA[i]), r = fabs(yB[i] - yA[i]) / tol;
      if (r > worst) worst = r, iw = i;
    }
    NOTE("state: worst difference %.3g tolerance units (component %d; bound %.3g)", worst, iw, 2.0 * kc->amp);
    CHECK("final state to the integrator's tolerance", worst <= 2.0 * kc->amp);
    const double ew = kc->atol + kc->rtol * fabs(eA.external_work), ed = kc->atol + kc->rtol * fabs(eA.dissipated);
    CHECK_NEAR("external work", eB.external_work, eA.external_work, 2.0 * kc->amp * ew);
    CHECK_NEAR("dissipated", eB.dissipated, eA.dissipated, 2.0 * kc->amp * ed);
    CHECK_NEAR("dissipated by contact (friction)", eB.elastic, eA.elastic,
               2.0 * kc->amp * (kc->atol + kc->rtol * fabs(eA.elastic)));
    for (int k = 0; kc->files[k]; k++) {
      long na, nb;
      double *ta = times(dA, kc->files[k], &na), *tb = times(dB, kc->files[k], &nb);
      int same = ta && tb && na == nb && na > 0;
      for (long i = 0; same && i < na; i++) same = ta[i] == tb[i];
      NOTE("%s: %ld rows, uninterrupted %ld", kc->files[k], nb, na);
      CHECK("the uninterrupted run's rows (times), no duplicate or missing row", same);
      free(ta);
      free(tb);
    }
  }
  cosrod_sim_free(sim);
  free(yA);
  free(yB);
  cosrod_scenario_free(sc);
  char cmd[700];
  snprintf(cmd, sizeof cmd, getenv("COSROD_TEST_KEEP") ? "true %s" : "rm -rf %s", base);
  CHECK("cleanup", system(cmd) == 0);
}

/* The heavy top ([L] Example A) without a joint: a free unsymmetric body
 * spinning about its largest axis, I = (38.91, 30.91, 10), |Ω| = 20 1/s,
 * dopri5 at 1e-7.  λ <= 20 (38.91 - 10) / 10 = 58 1/s over-estimates the
 * stable spin; with the rest of the run T = 0.06 s, exp(λ T) = 32. */
TEST(free_body) {
  const kcase kc = {"cosrod: 1\n"
                    "gravity: [0, 0, -9.81]\n"
                    "bodies:\n"
                    "  - {name: top, mass: 11.09, inertia: [38.91, 30.91, 10.0], position: [0, 0, 0],\n"
                    "     orientation: {euler313: [0, 1.0471975511965976, 0]}, velocity: [0, 0, 1],\n"
                    "     angular_velocity: [0.5, 0, 20], parametrisation: quaternion}\n"
                    "analysis: {type: dynamic, t_end: 0.2}\n"
                    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-7, atol: 1.0e-7}\n"
                    "output: {every: 0.01, vtk: false, plots: false, checkpoint: {every: 0.07}}\n",
                    0.17,
                    0.14,
                    1e-7,
                    1e-7,
                    32.0,
                    {"bodies.csv", "energy.csv", NULL}};
  kill_case(&kc);
}

/* The heavy top ([L] Example A) on its spherical joint (null-space form:
 * three independent velocities of a partition of the twist), rest of the
 * run T = 0.06 s; λ as for the free body: exp(λ T) = 32. */
TEST(heavy_top) {
  const kcase kc = {"cosrod: 1\n"
                    "gravity: [0, 0, -9.81]\n"
                    "bodies:\n"
                    "  - {name: top, mass: 11.09, inertia: [38.91, 30.91, 10.0],\n"
                    "     position: [0, -0.8660254037844386, 0.5],\n"
                    "     orientation: {euler313: [0, 1.0471975511965976, 0]}, velocity: [0, 0, 0],\n"
                    "     angular_velocity: [0, 0, 20], parametrisation: quaternion}\n"
                    "joints:\n"
                    "  - {type: spherical, bodies: [top, ground], at: [[0, 0, -1], [0, 0, 0]]}\n"
                    "analysis: {type: dynamic, t_end: 0.2}\n"
                    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-7, atol: 1.0e-7}\n"
                    "output: {every: 0.01, vtk: false, plots: false, checkpoint: {every: 0.07}}\n",
                    0.17,
                    0.14,
                    1e-7,
                    1e-7,
                    32.0,
                    {"bodies.csv", "energy.csv", "joints.csv", NULL}};
  kill_case(&kc);
}

/* Two bodies on a spherical joint and a bushing ([L] Example C,
 * examples/two-body-joint.yaml), dopri5 at 1e-7: the fast tumbling re-partitions
 * the null-space coordinates before the checkpoint at t = 0.06.  |Ω| <= 30 1/s,
 * λ <= 30 (50 - 11.6) / 11.6 = 100 1/s (the bushing's sqrt(k / m) = 32 1/s is
 * below it); rest of the run T = 0.04 s: exp(λ T) = 55. */
TEST(two_bodies) {
  const kcase kc = {"cosrod: 1\n"
                    "gravity: [0, 0, 0]\n"
                    "bodies:\n"
                    "  - {name: b1, mass: 10, inertia: [41.6, 11.6, 50.0], position: [0, 0, 0],\n"
                    "     orientation: {euler313: [0, 1.0471975511965976, 0]}, velocity: [0, 0, 0],\n"
                    "     angular_velocity: [3, 2, 1]}\n"
                    "  - {name: b2, mass: 20, inertia: [41.6, 11.6, 50.0],\n"
                    "     position: [-4, 0.5358983848622465, 8.928203230275509],\n"
                    "     orientation: {euler313: [0, 1.0471975511965976, 0]},\n"
                    "     velocity: [25, -302.1236650439298, -77.29353802500759],\n"
                    "     angular_velocity: [24, 15, 12]}\n"
                    "joints:\n"
                    "  - {type: spherical, bodies: [b1, b2], at: [[1, 2, -3], [5, -6, -7]]}\n"
                    "  - {type: bushing, bodies: [b1, ground], at: [[0, 0, 0], [0, 0, 0]], stiffness: 1.0e4}\n"
                    "analysis: {type: dynamic, t_end: 0.1}\n"
                    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-7, atol: 1.0e-7}\n"
                    "output: {every: 0.005, vtk: false, plots: false, checkpoint: {every: 0.03}}\n",
                    0.08,
                    0.06,
                    1e-7,
                    1e-7,
                    55.0,
                    {"bodies.csv", "energy.csv", "joints.csv", NULL}};
  kill_case(&kc);
}

/* A slider on a prismatic joint along an arm that spins on a revolute joint
 * (tests/body/test_body_joints.c): the null-space partition chosen at t = 0
 * becomes singular near a quarter turn and is changed at t = 0.86, before the
 * checkpoint at 0.9; the resumed run must continue in the new partition.
 * |Ω| = 3 1/s, λ <= 3 (0.25 - 0.1) / 0.1 = 4.5 1/s (the slider's
 * centrifugal drift grows at ω = 3 1/s), rest of the run T = 0.3 s:
 * exp(λ T) = 3.9; we take 4. */
TEST(slider_repartitioned) {
  const kcase kc = {"cosrod: 1\n"
                    "gravity: [0, 0, 0]\n"
                    "bodies:\n"
                    "  - {name: arm, mass: 2.0, inertia: [0.1, 0.2, 0.25], position: [0, 0, 0],\n"
                    "     angular_velocity: [0, 0, 3]}\n"
                    "  - {name: slider, mass: 0.5, inertia: [0.02, 0.03, 0.04], position: [0.5, 0, 0],\n"
                    "     velocity: [0.2, 1.5, 0], angular_velocity: [0, 0, 3]}\n"
                    "joints:\n"
                    "  - {type: revolute, bodies: [arm, ground], at: [[0, 0, 0], [0, 0, 0]], axis: [0, 0, 1]}\n"
                    "  - {type: prismatic, bodies: [slider, arm], at: [[0, 0, 0], [0.5, 0, 0]], axis: [1, 0, 0]}\n"
                    "analysis: {type: dynamic, t_end: 1.2}\n"
                    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-7, atol: 1.0e-7}\n"
                    "output: {every: 0.02, vtk: false, plots: false, checkpoint: {every: 0.3}}\n",
                    1.0,
                    0.9,
                    1e-7,
                    1e-7,
                    4.0,
                    {"bodies.csv", "energy.csv", "joints.csv", NULL}};
  kill_case(&kc);
}

/* A damped rubber rod pulled along the floor by a tip force of 1 N against
 * Coulomb friction (weight 1.7 N, μ_k = 0.4: it slides; the anchors of
 * its contact points are dragged along and must be those of the
 * checkpoint), radau5 at 1e-6.  The sliding motion is neutrally stable
 * (friction is a constant force along the slip) and the contact's normal
 * and the rod's modes are damped, so λ <= 0: exp(λ T) <= 1; the restart
 * adds one local error per tolerance: we take 2. */
TEST(rod_sliding_on_floor) {
  const kcase kc = {"cosrod: 1\n"
                    "gravity: [0, 0, -9.81]\n"
                    "rods:\n"
                    "  - name: bar\n"
                    "    length: 0.5\n"
                    "    segments: 10\n"
                    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
                    "    section: {shape: circle, radius: 0.01}\n"
                    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
                    "    shape: {type: straight, start: [0, 0, 0.0099], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
                    "    loads:\n"
                    "      - {type: force, at: end, value: [1.0, 0, 0]}\n"
                    "obstacles:\n"
                    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
                    "contact:\n"
                    "  friction: {static: 0.5, kinetic: 0.4}\n"
                    "analysis: {type: dynamic, t_end: 0.2}\n"
                    "solver: {formulation: nullspace, integrator: radau5, rtol: 1.0e-6, atol: 1.0e-6}\n"
                    "output: {every: 0.01, vtk: false, plots: false, checkpoint: {every: 0.06}}\n",
                    0.15,
                    0.12,
                    1e-6,
                    1e-6,
                    2.0,
                    {"centerline.csv", "energy.csv", "contacts.csv", "contact_forces.csv", "obstacles.csv", NULL}};
  kill_case(&kc);
}

int main(int argc, char **argv) {
  static const th_case cases[] = {TH_CASE(free_body), TH_CASE(heavy_top), TH_CASE(two_bodies),
                                  TH_CASE(slider_repartitioned),
                                  TH_CASE(rod_sliding_on_floor)};
  return TH_MAIN(argc, argv, cases);
}
