// SPDX-License-Identifier: Apache-2.0
/* Input a new user gets wrong, through `cosrod check` and `cosrod run`:
 * plausibility warnings (unit slips) are printed by both with the key and a
 * suggestion and do not stop the run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "outtest.h"

#define CLI_TEST_TAG "input"
#include "cli_test_util.h"

/* Write text to DIR.yaml; returns the path (static buffer). */
static const char *write_yaml(const char *dir, const char *text) {
  static char path[600];
  snprintf(path, sizeof path, "%s.yaml", dir);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return path;
}

static const char *SLIP =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  steel: {E: 210, poisson: 0.3, density: 7.85}\n"
    "rods:\n"
    "  - name: beam\n"
    "    length: 1.0\n"
    "    segments: 4\n"
    "    material: steel\n"
    "    section: {shape: circle, radius: 1.0}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends: {start: {type: clamped}}\n"
    "analysis: {type: static}\n"
    "output: {vtk: false, plots: false}\n";

TEST(plausibility_warnings_check_and_run) {
  char *dir = ot_mkdtemp("input");
  const char *yaml = write_yaml(dir, SLIP);
  const char *chk[] = {"check", yaml, NULL};
  char *err = NULL;
  int rc = cli_run_text(chk, &err);
  NOTE("check: exit %d; %s", rc, err ? err : "");
  CHECK("check: exit 0 (warnings are no errors)", rc == 0);
  CHECK("check: E with line and suggestion",
        err && strstr(err, "cosrod check: warning: ") && strstr(err, ".yaml:4: materials.steel.E: 210 Pa") &&
            strstr(err, "2.1e+11 Pa"));
  CHECK("check: density", err && strstr(err, "materials.steel.density: 7.85 kg/m^3"));
  CHECK("check: section not slender", err && strstr(err, "rods.0.section: radius 1 m on a rod of length 1 m"));
  free(err);
  const char *run[] = {"run", yaml, "-o", dir, "-q", NULL};
  rc = cli_run_text(run, &err);
  CHECK("run: the same warnings", err && strstr(err, "cosrod run: warning: ") && strstr(err, "materials.steel.E"));
  char *sum = ot_read(ot_path(dir, "summary.json"), NULL);
  CHECK("summary.json warnings: E, density, section", sum && strstr(sum, "materials.steel.E: 210 Pa") &&
                                                          strstr(sum, "materials.steel.density") &&
                                                          strstr(sum, "rods.0.section"));
  free(sum);
  free(err);
  remove(yaml);
  ot_rmtree(dir);
  free(dir);
}

/* Two rods, the first clamped, the second (line 12) with no support: a
 * static analysis is refused before anything is written, naming the rod
 * and the six free directions; with the second rod pinned it is accepted. */
static const char *TWO_RODS =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials: {steel: {E: 2.1e11, poisson: 0.3, density: 7850}}\n"
    "rods:\n"
    "  - name: held\n"
    "    length: 1.0\n"
    "    material: steel\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends: {start: {type: clamped}}\n"
    "    segments: 4\n"
    "  - name: loose\n"
    "    length: 1.0\n"
    "    material: steel\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    shape: {type: straight, start: [0, 1, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    segments: 4\n"
    "analysis: {type: static}\n"
    "output: {vtk: false, plots: false}\n";

TEST(static_without_support_refused) {
  char *dir = ot_mkdtemp("input");
  const char *yaml = write_yaml(dir, TWO_RODS);
  const char *chk[] = {"check", yaml, NULL};
  char *err = NULL;
  int rc = cli_run_text(chk, &err);
  NOTE("check: exit %d; %s", rc, err ? err : "");
  CHECK("check: exit 2", rc == 2);
  CHECK("one line FILE:LINE: rods.1: naming the rod and the free directions",
        err && strstr(err, ".yaml:12: rods.1: rod 'loose' is not supported") &&
            strstr(err, "translations along x, y, z and rotations about x, y, z are free"));
  free(err);
  const char *run[] = {"run", yaml, "-o", dir, "-q", NULL};
  rc = cli_run_text(run, &err);
  CHECK("run: exit 2, nothing written", rc == 2 && !ot_exists(ot_path(dir, "summary.json")));
  free(err);
  const char *dyn[] = {"check", yaml, "--set", "analysis={type: dynamic, t_end: 0.1}", NULL};
  rc = cli_run_text(dyn, &err);
  CHECK("dynamic: accepted (free flight)", rc == 0);
  free(err);
  const char *pin[] = {"check", yaml, "--set", "rods.1.ends.start.type=pinned", NULL};
  rc = cli_run_text(pin, &err);
  CHECK("the second rod pinned: accepted", rc == 0);
  free(err);
  remove(yaml);
  ot_rmtree(dir);
  free(dir);
}

/* The printed summary says only what the analysis computed: a modal run
 * (the hanging body on a cable, whose lowest mode is the pendulum's
 * rigid-body swing about the pin at ω = 0 to round-off) prints its modes,
 * no tip, energy or increment line and no negative ω; a dynamic run's step
 * counts add up as integrate.h defines them (nconvfail not in nreject). */
TEST(summary_prints_what_was_computed) {
  char *dir = ot_mkdtemp("input");
  char out[640];
  snprintf(out, sizeof out, "%s.out", dir);
  const char *modal[] = {"run", ex("hanging-body-modes"), "-o", dir, "--set", "output.plots=false", NULL};
  int rc = cli_wait(cli_spawn(modal, out, "/dev/null"));
  char *o = ot_read(out, NULL);
  NOTE("%s", o ? o : "");
  CHECK("modal: exit 0", rc == 0);
  CHECK("modal: the analysis line and the modes", o && strstr(o, "modal analysis in ") && strstr(o, "  mode 2: "));
  CHECK("modal: no tip, energy or increments", o && !strstr(o, "tip of") && !strstr(o, "energy:") &&
                                                   !strstr(o, "increments"));
  CHECK("modal: no negative omega", o && !strstr(o, "omega -"));
  free(o);
  const char *dyn[] = {"run", ex("rubber-pendulum"), "-o", dir, "--set", "output.plots=false", "--set",
                       "analysis.t_end=0.1", NULL};
  rc = cli_wait(cli_spawn(dyn, out, "/dev/null"));
  o = ot_read(out, NULL);
  long ns = -1, na = -1, nr = -1, nc = -1;
  const char *p = o ? strstr(o, "(dopri5: ") : NULL;
  int got = p ? sscanf(p, "(dopri5: %ld steps: %ld accepted, %ld rejected by the error test, %ld Newton failures",
                       &ns, &na, &nr, &nc)
              : 0;
  NOTE("%ld steps, %ld accepted, %ld rejected, %ld Newton failures", ns, na, nr, nc);
  CHECK("dynamic: the four counts printed", rc == 0 && got == 4);
  /* integrate.h: nsteps = naccept + nreject + nconvfail (+ rejections before the first accepted step) */
  CHECK("dynamic: accepted + rejected + Newton failures <= steps", got == 4 && na + nr + nc <= ns && na > 0);
  CHECK("dynamic: an explicit method has no Newton failures", got == 4 && nc == 0);
  free(o);
  remove(out);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(plausibility_warnings_check_and_run),
                                TH_CASE(static_without_support_refused),
                                TH_CASE(summary_prints_what_was_computed)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
