// SPDX-License-Identifier: Apache-2.0
/* The monitor of silent wrong answers runs whatever output.fields asks for:
 * the damped steel string of examples/perf-steel.yaml ([LLA] §4) with
 * generalized-alpha at a fixed h = 10 ms in the null-space formulation
 * blows up near t = 2.4 s (the energy grows from the 0.24 J gravity can
 * supply over the rod's length to > 20 J).  With the default fields the run
 * fails with ERR_DIVERGED; with `fields: [tip]` it must fail the same way
 * (before: energy accounting was switched off with energy.csv, the monitor
 * was blind and the run ended "ok" with the tip 0.7 m off).  The healthy
 * damped run with `fields: [tip]` (h = 2 ms) writes no non-finite value and
 * must not warn about any (before: "202 non-finite values written",
 * counted in the energies it did not write). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "outtest.h"

#define CLI_TEST_TAG "monitor"
#include "cli_test_util.h"

static int run_string(const char *dir, const char *h, const char *fields, char **err) {
  char hs[64], fs[64];
  snprintf(hs, sizeof hs, "solver.h=%s", h);
  snprintf(fs, sizeof fs, "output.fields=%s", fields);
  const char *args[] = {"run",   ex("perf-steel"), "-o",    dir, "-q",
                        "--set", "solver.integrator=galpha",   "--set", "solver.formulation=nullspace",
                        "--set", hs, "--set", fs, "--set", "analysis.t_end=4",
                        "--set", "output.plots=false", "--set", "output.vtk=false", NULL};
  return cli_run_text(args, err);
}

TEST(blowup_fails_with_tip_only) {
  const char *fields[] = {"[tip]", "[tip,energy]", "[centerline]"};
  for (int k = 0; k < 3; k++) {
    char *dir = ot_mkdtemp("monitor");
    char *err = NULL;
    int rc = run_string(dir, "1e-2", fields[k], &err);
    char *sum = ot_read(ot_path(dir, "summary.json"), NULL);
    NOTE("fields %s: exit %d; stderr: %s", fields[k], rc, err ? err : "");
    CHECK("blow-up: exit 1", rc == 1);
    CHECK("summary.json: failed, ERR_DIVERGED, blow-up",
          sum && strstr(sum, "\"status\": \"failed\"") && strstr(sum, "ERR_DIVERGED") && strstr(sum, "blow-up"));
    free(sum);
    free(err);
    ot_rmtree(dir);
    free(dir);
  }
}

TEST(healthy_tip_only_run_has_no_nonfinite_warning) {
  char *dir = ot_mkdtemp("monitor");
  char *err = NULL;
  int rc = run_string(dir, "2e-3", "[tip]", &err);
  NOTE("exit %d; stderr: %s", rc, err ? err : "");
  CHECK("exit 0", rc == 0);
  CHECK("no non-finite warning", err && !strstr(err, "non-finite"));
  CHECK("no warning at all", err && !strstr(err, "warning"));
  char *sum = ot_read(ot_path(dir, "summary.json"), NULL);
  CHECK("summary.json: status ok, no nonfinite", sum && strstr(sum, "\"status\": \"ok\"") && !strstr(sum, "non-finite"));
  CHECK("only tip.csv of the rod files", ot_exists(ot_path(dir, "tip.csv")) && !ot_exists(ot_path(dir, "energy.csv")) &&
                                             !ot_exists(ot_path(dir, "centerline.csv")));
  free(sum);
  free(err);
  ot_rmtree(dir);
  free(dir);
}

static const th_case cases[] = {TH_CASE(blowup_fails_with_tip_only),
                                TH_CASE(healthy_tip_only_run_has_no_nonfinite_warning)};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
