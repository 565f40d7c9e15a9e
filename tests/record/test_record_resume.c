// SPDX-License-Identifier: Apache-2.0
/* Restart checkpoints and resume in process (record.h, sim.h restart data):
 * a damped cantilever under gravity and a tip force ramped over [0, 0.15]
 * (a breakpoint of the run) is recorded once uninterrupted; a second run is
 * stopped at t = 0.17 and abandoned without closing its files (as a killed
 * process leaves them, plus a half-written temporary record), then resumed
 * from its last checkpoint: t = 0.15 (output.checkpoint.every 0.05, at the
 * breakpoint itself) or t = 0.16 (every 0.04, inside the last piece).  The resumed run must reach the
 * uninterrupted run's final state and energy accounts to the integrator's tolerance and write as many rows; a
 * changed scenario is refused naming the key.
 *
 * Bound: both runs integrate the same ODE from the checkpoint's state with
 * error-per-step control at tol = atol + rtol |y| (radau5, rtol = atol =
 * 1e-6); with tolerance proportionality (HNW I §II.4) each run's global
 * error is C tol with C the error amplification over the remaining 0.15 s,
 * which for a damped cantilever (eigenvalues in the left half-plane) is
 * <= 1 plus the restart's transient, so |difference| <= 2 C tol; we allow
 * 10 tol.  A lost or doubled piece of the energy integrals (the partial
 * step at the checkpoint) or the impulsive work at the breakpoint would be
 * of the order of the tip force's work, 1e-3 J, i.e. 1e3 tolerance units. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cosrod/record.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "cosrod/sparse.h"
#include "harness.h"

static const char *SCEN =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: beam\n"
    "    length: 0.5\n"
    "    segments: %d\n"
    "    material: {E: 1.0e7, poisson: 0.5, density: 1000}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    damping: {kelvin_voigt: {tau_shear: 2.0e-3, tau_bulk: 2.0e-3}}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends: {start: {type: clamped}}\n"
    "    loads:\n"
    "      - {type: force, at: end, value: [0, 0, 0.05], ramp: [0, 0.15]}\n"
    "analysis: {type: dynamic, t_end: 0.3}\n"
    "solver: {integrator: radau5, rtol: 1.0e-6, atol: 1.0e-6}\n"
    "output: {every: 0.01, vtk: false, plots: false, checkpoint: {every: %g}}\n";

#define TOL 1e-6

static cosrod_scenario *scenario(int segments, double every) {
  char text[2048];
  snprintf(text, sizeof text, SCEN, segments, every);
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_scenario_parse(text, strlen(text), "resume.yaml", NULL, 0, &st);
  if (!sc) fprintf(stderr, "%s\n", cosrod_last_error());
  return sc;
}

static long lines(const char *dir, const char *name) {
  char p[1280];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "r");
  if (!f) return -1;
  long n = 0;
  int c;
  while ((c = getc(f)) != EOF) n += c == '\n';
  fclose(f);
  return n;
}

typedef struct stop_ctx {
  cosrod_recorder *rec;
  double t_stop;
} stop_ctx;

static int frame_then_stop(void *user, const cosrod_sim *sim, double t) {
  stop_ctx *c = user;
  if (cosrod_recorder_frame(c->rec, sim, t) != 0) return -1;
  return t >= c->t_stop ? 1 : 0;
}
static int step_cb(void *user, const cosrod_sim *sim, double t, double h, int acc) {
  (void)sim;
  return cosrod_recorder_step(((stop_ctx *)user)->rec, t, h, acc);
}

/* Run the scenario into dir (stop at t_stop, or to the end when infinite;
 * a stopped run is abandoned without closing its files); final tip and
 * energy into tip / e. */
static void record_run(cosrod_sim *sim, cosrod_recorder *rec, double t_stop, double tip[3],
                       cosrod_sim_energy *e) {
  stop_ctx c = {rec, t_stop};
  cosrod_sim_observer obs = {frame_then_stop, step_cb, &c, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK(isfinite(t_stop) ? "stopped" : "ran to the end",
        isfinite(t_stop) ? st == COSROD_ERR_INTERRUPTED : st == COSROD_OK);
  cosrod_sim_tip(sim, 0, tip);
  *e = cosrod_sim_energy_now(sim);
  if (!isfinite(t_stop)) CHECK("finish", cosrod_recorder_finish(rec, sim, st, 0.0, NULL, NULL) == COSROD_OK);
}

/* Checkpoints every `every` s, stopped at 0.17: resumed from t_resume. */
static void resume_case(double every, double t_resume) {
  char base[] = "/tmp/cosrod_resume_XXXXXX";
  CHECK("mkdtemp", mkdtemp(base) != NULL);
  char dA[600], dB[600], msg[1200] = "";
  snprintf(dA, sizeof dA, "%s/a", base);
  snprintf(dB, sizeof dB, "%s/b", base);
  cosrod_status st;
  double tipA[3], tipB[3];
  cosrod_sim_energy eA, eB;
  cosrod_scenario *sc = scenario(8, every);
  CHECK("scenario", sc != NULL);
  if (!sc) return;
  /* uninterrupted */
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  cosrod_recorder *rec = cosrod_recorder_create(sim, dA, "resume.yaml", 0.0, &st);
  CHECK("recorder A", rec != NULL);
  record_run(sim, rec, INFINITY, tipA, &eA);
  cosrod_recorder_free(rec);
  cosrod_sim_free(sim);
  /* interrupted at 0.17, files abandoned as a kill leaves them */
  sim = cosrod_sim_create(sc, &st);
  rec = cosrod_recorder_create(sim, dB, "resume.yaml", 0.0, &st);
  record_run(sim, rec, 0.17, tipB, &eB);
  cosrod_recorder_free(rec);
  cosrod_sim_free(sim);
  char p[700];
  snprintf(p, sizeof p, "%s/.checkpoint.bin.tmp", dB); /* a record half-written when the kill came */
  FILE *f = fopen(p, "wb");
  if (f) fputs("CRRSTRT1 torn", f), fclose(f);
  /* a changed scenario is refused, naming the key */
  cosrod_scenario *sc10 = scenario(10, every);
  sim = cosrod_sim_create(sc10, &st);
  rec = cosrod_recorder_resume(sim, dB, 0.0, &st);
  snprintf(msg, sizeof msg, "%s", cosrod_last_error());
  CHECK("changed scenario refused", rec == NULL && st == COSROD_ERR_INVALID);
  CHECK("names the key", strstr(msg, "rods.0.segments: 10 (checkpoint: 8)") != NULL);
  NOTE("refusal: %s", msg);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc10);
  /* resume */
  sim = cosrod_sim_create(sc, &st);
  rec = cosrod_recorder_resume(sim, dB, 0.0, &st);
  snprintf(msg, sizeof msg, "%s", cosrod_last_error());
  CHECK("resume", rec != NULL);
  if (!rec) {
    NOTE("%s", msg);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    return;
  }
  CHECK_NEAR("continues from the last checkpoint", cosrod_sim_t(sim), t_resume, 1e-12);
  CHECK("the torn record is gone", access(p, F_OK) != 0);
  record_run(sim, rec, INFINITY, tipB, &eB);
  cosrod_recorder_free(rec);
  cosrod_sim_free(sim);
  for (int k = 0; k < 3; k++) CHECK_NEAR("tip", tipB[k], tipA[k], 10.0 * (TOL + TOL * fabs(tipA[k])));
  CHECK_NEAR("external work", eB.external_work, eA.external_work,
             10.0 * (TOL + TOL * fabs(eA.external_work)));
  CHECK_NEAR("dissipated", eB.dissipated, eA.dissipated, 10.0 * (TOL + TOL * fabs(eA.dissipated)));
  CHECK_NEAR("kinetic", eB.kinetic, eA.kinetic, 10.0 * (TOL + TOL * fabs(eA.kinetic)));
  CHECK("the tip force did work", fabs(eA.external_work) > 1e-4);
  NOTE("tip z %.12g vs %.12g, W %.12g vs %.12g, D %.12g vs %.12g", tipB[2], tipA[2], eB.external_work,
       eA.external_work, eB.dissipated, eA.dissipated);
  const char *files[] = {"centerline.csv", "frames.csv", "strains.csv",
                         "curvatures.csv", "energy.csv", "reactions.csv"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    CHECK("rows as the uninterrupted run",
          lines(dB, files[i]) == lines(dA, files[i]) && lines(dA, files[i]) > 30);
  }
  CHECK_NEAR("energy.csv: 31 frames", (double)lines(dB, "energy.csv"), 32.0, 0.0);
  /* the finished run cannot be resumed again */
  sim = cosrod_sim_create(sc, &st);
  rec = cosrod_recorder_resume(sim, dB, 0.0, &st);
  snprintf(msg, sizeof msg, "%s", cosrod_last_error());
  CHECK("finished: refused", rec == NULL && st == COSROD_ERR_INVALID && strstr(msg, "nothing to resume"));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf %s", base);
  CHECK("cleanup", system(cmd) == 0);
}

/* the checkpoint at the breakpoint t = 0.15 (the restart there follows) */
TEST(resume_at_breakpoint) { resume_case(0.05, 0.15); }
/* inside a piece: a method restart at 0.16 with the saved step */
TEST(resume_inside_piece) { resume_case(0.04, 0.16); }

/* The sparse pattern's rebuilds (stats.npattern) are restart data: hose b
 * falls across hose a lying on the floor (tests/system/
 * test_system_contact_pattern.c: the rods meet at t ~ 0.2 s, beyond the
 * initial pattern, which grows then); the restart data saved at the frame
 * t = 0.25 (cosrod_sim_restart_save, as the recorder's checkpoints), the run
 * stopped there and a new simulation resumed from it.  Up to the checkpoint the interrupted run is the uninterrupted
 * one (same steps), so its count there is exact; the resumed run must load
 * it (without it in the restart data it restarted from 0) and count on. */
static const char *DROP =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "rods:\n"
    "  - {name: a, length: 0.5, segments: 10, material: rubber, section: {shape: circle, radius: 1.0e-2},\n"
    "     damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}},\n"
    "     shape: {type: straight, start: [-0.25, 0, 0.0099], direction: [1, 0, 0], normal: [0, 0, 1]}}\n"
    "  - {name: b, length: 0.5, segments: 10, material: rubber, section: {shape: circle, radius: 1.0e-2},\n"
    "     damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}},\n"
    "     shape: {type: straight, start: [0.05, -0.25, 0.25], direction: [0, 1, 0], normal: [0, 0, 1]}}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: 0.3}\n"
    "solver: {integrator: radau5, formulation: nullspace, rtol: 1.0e-5, atol: 1.0e-7}\n"
    "output: {every: 0.05}\n";

typedef struct count_ctx {
  double t_mark;
  long at_mark, first; /* npattern at the frame t_mark, at the first frame seen (-1: none) */
  double *save;        /* non-NULL: the restart data at t_mark, then stop */
  size_t nsave;
} count_ctx;

static int frame_count(void *user, const cosrod_sim *sim, double t) {
  count_ctx *k = user;
  if (k->first < 0) k->first = cosrod_sim_stats(sim)->npattern;
  if (fabs(t - k->t_mark) > 1e-12) return 0;
  k->at_mark = cosrod_sim_stats(sim)->npattern;
  if (!k->save) return 0;
  CHECK("restart data saved", cosrod_sim_restart_save(sim, k->save, k->nsave) == COSROD_OK);
  return 1;
}

static long count_run(cosrod_sim *sim, count_ctx *k, double *save, size_t nsave) {
  k->t_mark = 0.25, k->at_mark = k->first = -1, k->save = save, k->nsave = nsave;
  cosrod_sim_observer obs = {.frame = frame_count, .user = k};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK(save ? "stopped at the checkpoint" : "ran to the end", st == (save ? COSROD_ERR_INTERRUPTED : COSROD_OK));
  return cosrod_sim_stats(sim)->npattern;
}

TEST(resume_keeps_pattern_count) {
  if (!cosrod_sparse_available()) {
    NOTE("no KLU: no sparse pattern to count");
    return;
  }
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = cosrod_scenario_parse(DROP, strlen(DROP), "drop.yaml", NULL, 0, &st);
  CHECK("scenario", sc != NULL);
  if (!sc) return;
  count_ctx kA, kB, kR;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  const long nA = count_run(sim, &kA, NULL, 0);
  cosrod_sim_free(sim);
  sim = cosrod_sim_create(sc, &st);
  const size_t nb = cosrod_sim_restart_size(sim);
  double *buf = calloc(nb, sizeof *buf);
  count_run(sim, &kB, buf, nb);
  cosrod_sim_free(sim);
  sim = cosrod_sim_create(sc, &st);
  CHECK("restart data loaded", cosrod_sim_restart_load(sim, buf, nb) == COSROD_OK);
  const long n0 = cosrod_sim_stats(sim)->npattern;
  const long nR = count_run(sim, &kR, NULL, 0);
  cosrod_sim_free(sim);
  free(buf);
  NOTE("npattern: uninterrupted %ld at t = 0.25, %ld at t_end; interrupted %ld at the checkpoint; resumed %ld "
       "loaded, %ld at its first frame, %ld at t_end",
       kA.at_mark, nA, kB.at_mark, n0, kR.first, nR);
  CHECK("the rods met before the checkpoint (the pattern grew)", kA.at_mark >= 1);
  CHECK("the interrupted run is the uninterrupted one up to the checkpoint", kB.at_mark == kA.at_mark);
  CHECK("the resumed run starts from the checkpoint's count", n0 == kB.at_mark);
  CHECK("and counts on from it", kR.first >= kB.at_mark && nR >= kB.at_mark);
  cosrod_scenario_free(sc);
}

int main(int argc, char **argv) {
  static const th_case cases[] = {TH_CASE(resume_at_breakpoint), TH_CASE(resume_inside_piece),
                                  TH_CASE(resume_keeps_pattern_count)};
  return TH_MAIN(argc, argv, cases);
}
