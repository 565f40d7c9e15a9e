/* The `cosrod` command-line program. */
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/status.h"
#include "cosrod/version.h"

int cosrod_cmd_check(int argc, char **argv); /* cmd_check.c */

static void usage(FILE *f) {
  fprintf(f,
          "usage: cosrod COMMAND [ARGS]\n"
          "\n"
          "commands:\n"
          "  check FILE [--set key.path=value]...   validate a scenario file\n"
          "  help          this text\n"
          "  selfcheck     check quaternion identities numerically and print their errors\n"
          "  --version     print the version\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
    printf("cosrod %s\n", COSROD_VERSION_STRING);
    return 0;
  }
  if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "check") == 0) return cosrod_cmd_check(argc - 2, argv + 2);
  if (strcmp(argv[1], "selfcheck") == 0) return cosrod_quat_selfcheck(stdout) == 0 ? 0 : 1;
  fprintf(stderr, "cosrod: unknown command '%s' (try 'cosrod help')\n", argv[1]);
  return 2;
}
