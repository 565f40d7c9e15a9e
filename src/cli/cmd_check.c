/* `cosrod check FILE [--set key.path=value]...`: load and validate a scenario
 * (SPEC §8).  Exit 0 and a short summary on stdout when valid; exit 2 and one
 * line "FILE:LINE: key: problem" on stderr when not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"

int cosrod_cmd_check(int argc, char **argv);

int cosrod_cmd_check(int argc, char **argv) {
  const char *file = NULL;
  const char **sets = calloc((size_t)argc + 1, sizeof *sets);
  size_t nsets = 0;
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
    } else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
      quiet = 1;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr,
              "cosrod check: unknown option '%s'\nusage: cosrod check FILE [--set key.path=value]...\n",
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
  char err[1024];
  cosrod_scenario *sc = NULL;
  cosrod_status st = cosrod_scenario_load(file, sets, nsets, &sc, err, sizeof err);
  free(sets);
  if (st != COSROD_OK) {
    fprintf(stderr, "%s\n", err[0] ? err : cosrod_strerror(st));
    return 2;
  }
  if (!quiet) {
    cosrod_scenario_print(sc, stdout);
    printf("ok\n");
  }
  cosrod_scenario_free(sc);
  return 0;
}
