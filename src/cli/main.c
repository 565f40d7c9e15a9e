// SPDX-License-Identifier: Apache-2.0
/* The `cosrod` command-line program (manual: Command line): run, check, help, --version,
 * selfcheck.  Exit status: 0 success, 1 the run failed (solver failure, I/O
 * error; the files stay valid), 2 invalid input, 128 + signal when interrupted
 * (130 SIGINT, 143 SIGTERM, 129 SIGHUP). */
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/status.h"
#include "cosrod/version.h"

int cosrod_cmd_check(int argc, char **argv); /* cmd_check.c */
int cosrod_cmd_run(int argc, char **argv);   /* cmd_run.c */
int cosrod_cmd_view(int argc, char **argv);  /* cmd_view.c */
int cosrod_cmd_sweep(int argc, char **argv); /* cmd_sweep.c */
int cosrod_cmd_help_key(const char *arg);     /* cmd_help.c */

static void usage(FILE *f) {
  fprintf(f,
          "usage: cosrod COMMAND [ARGS]\n"
          "\n"
          "commands:\n"
          "  run FILE [-o DIR] [--set key.path=value]... [--quiet] [--memory-limit SIZE]\n"
          "                run a scenario; results in DIR (default: output.dir of the file)\n"
          "  run --resume DIR [FILE]\n"
          "                continue a killed run in DIR from its last checkpoint\n"
          "  check FILE [--set key.path=value]...\n"
          "                validate a scenario as run does and print the estimated memory\n"
          "  view DIR [--open]\n"
          "                write DIR/view.html, a 3D viewer of the run for the browser\n"
          "  sweep FILE --param KEY=V1,V2,... -o DIR\n"
          "                one run per parameter combination (cosrod sweep --help)\n"
          "  help KEY      the scenario key KEY (e.g. rods.0.section.radius, solver.integrator,\n"
          "                a section such as analysis, or a bare key name); the sections:\n"
          "                materials, rods, bodies, joints, obstacles, contact, gravity,\n"
          "                analysis, solver, output (contact: obstacles, bodies.N.shape,\n"
          "                contact; contacts.csv in the manual's output reference)\n"
          "  help --reference\n"
          "                every scenario key (the manual's scenario reference, Markdown)\n"
          "  selfcheck     check quaternion identities numerically\n"
          "  --version     print the version\n"
          "\n"
          "exit status: 0 success, 1 the run failed (files stay valid, summary.json says why),\n"
          "2 invalid input (one line FILE:LINE: key: problem), 130 / 143 / 129 interrupted\n"
          "(SIGINT / SIGTERM / SIGHUP; the files stay valid).\n"
          "\n"
          "The manual (make docs; build/docs/html/index.html) has Getting started, the\n"
          "tutorials, the modelling guide and the scenario and output references.\n");
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
    if (argc > 2) return cosrod_cmd_help_key(argv[2]);
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "check") == 0) return cosrod_cmd_check(argc - 2, argv + 2);
  if (strcmp(argv[1], "run") == 0) return cosrod_cmd_run(argc - 2, argv + 2);
  if (strcmp(argv[1], "view") == 0) return cosrod_cmd_view(argc - 2, argv + 2);
  if (strcmp(argv[1], "sweep") == 0) return cosrod_cmd_sweep(argc - 2, argv + 2);
  if (strcmp(argv[1], "selfcheck") == 0) return cosrod_quat_selfcheck(stdout) == 0 ? 0 : 1;
  fprintf(stderr, "cosrod: unknown command '%s' (try 'cosrod help')\n", argv[1]);
  return 2;
}
