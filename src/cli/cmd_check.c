// SPDX-License-Identifier: Apache-2.0
/* `cosrod check FILE [--set key.path=value]... [--memory-limit SIZE]`: load
 * and validate a scenario ([manual: command line, output reference]) through the same path as `run`
 * (cli_prepare: loader, resource estimate and memory limit, creation of the
 * simulation, which is freed unrun).  Exit 0 and a short summary with the
 * estimate on stdout when valid; exit 2 and one line "FILE:LINE: key:
 * problem" on stderr when not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_prepare.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"

int cosrod_cmd_check(int argc, char **argv);

int cosrod_cmd_check(int argc, char **argv) {
  const char *file = NULL;
  const char **sets = calloc((size_t)argc + 1, sizeof *sets);
  size_t nsets = 0;
  const char *limit = NULL;
  int quiet = 0;
  if (!sets) {
    fprintf(stderr, "cosrod check: out of memory\n");
    return 2;
  }
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--set") && i + 1 < argc) {
      sets[nsets++] = argv[++i];
    } else if (!strcmp(argv[i], "--set")) {
      fprintf(stderr, "cosrod check: --set needs key.path=value\n");
      free(sets);
      return 2;
    } else if (!strncmp(argv[i], "--set=", 6)) {
      sets[nsets++] = argv[i] + 6;
    } else if (!strcmp(argv[i], "--memory-limit") && i + 1 < argc) {
      limit = argv[++i];
    } else if (!strncmp(argv[i], "--memory-limit=", 15)) {
      limit = argv[i] + 15;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      printf("usage: cosrod check FILE [--set key.path=value]... [--memory-limit SIZE] [--quiet]\n"
             "validates FILE as `cosrod run` does before integrating and prints a summary\n"
             "with the estimated memory and output volume (see cosrod help)\n");
      free(sets);
      return 0;
    } else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
      quiet = 1;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr,
              "cosrod check: unknown option '%s'\nusage: cosrod check FILE [--set key.path=value]... [--memory-limit SIZE]\n",
              argv[i]);
      free(sets);
      return 2;
    } else if (!file) {
      file = argv[i];
    } else {
      fprintf(stderr, "cosrod check: more than one FILE ('%s')\n", argv[i]);
      free(sets);
      return 2;
    }
  }
  if (!file) {
    fprintf(stderr, "usage: cosrod check FILE [--set key.path=value]...\n");
    free(sets);
    return 2;
  }
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = NULL;
  cosrod_sim_estimate est;
  int rc = cli_prepare("check", file, sets, nsets, limit, &sc, &sim, &est);
  free(sets);
  if (rc == 0 && !quiet) {
    cosrod_scenario_print(sc, stdout);
    if (sim) cosrod_sim_estimate_print(&est, stdout); /* NULL: rigid bodies only */
    if (sim && sc->nbodies > 0) printf("linear solver: %s\n", cosrod_sim_linear_solver(sim));
    printf("ok\n");
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return rc;
}
