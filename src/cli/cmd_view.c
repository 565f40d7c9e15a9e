// SPDX-License-Identifier: Apache-2.0
/* `cosrod view DIR [--open] [-o FILE] [--max-mb N]` ([manual: command line]): write
 * DIR/view.html, the self-contained browser viewer of a run, and with
 * --open start the system's browser on it.  Also the step that writes
 * scene.json and view.html after `cosrod run`. */
#define _POSIX_C_SOURCE 200809L
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cosrod/view.h"

extern char **environ;

int cosrod_cmd_view(int argc, char **argv);

#define VIEW_USAGE "usage: cosrod view DIR [--open] [-o FILE] [--max-mb N]\n"
#define VIEW_HELP                                                                                      \
  VIEW_USAGE                                                                                           \
  "  writes DIR/view.html: one self-contained page (data and code inlined, opens from file://\n"      \
  "  without a server or network) with the rods as tubes, bodies, time slider, mode shapes,\n"        \
  "  colouring by strain / curvature / twist / axial force / speed, summary and plots.\n"             \
  "  --open       open the page in the system browser (xdg-open, $BROWSER)\n"                        \
  "  -o FILE      write the page to FILE instead\n"                                                   \
  "  --max-mb N   data budget of the page in MB (default 64): beyond it every k-th output\n"          \
  "               time is kept and the page says so\n"                                                \
  "cosrod run writes DIR/view.html itself when the output is at most 1 GB.\n"

static void cli_spawn(const char *prog, const char *arg) {
  pid_t pid;
  char *args[] = {(char *)prog, (char *)arg, NULL};
  if (posix_spawnp(&pid, prog, NULL, NULL, args, environ) == 0) {
    int st;
    waitpid(pid, &st, 0);
  }
}

static int open_browser(const char *path) {
  const char *browser = getenv("BROWSER");
  const char *progs[] = {browser && browser[0] ? browser : NULL, "xdg-open", "sensible-browser", "open"};
  for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
    if (!progs[i]) continue;
    char probe[512];
    snprintf(probe, sizeof probe, "command -v '%s' >/dev/null 2>&1", progs[i]);
    if (system(probe) != 0) continue;
    cli_spawn(progs[i], path);
    return 0;
  }
  fprintf(stderr, "cosrod view: no browser found (xdg-open, $BROWSER): open %s yourself\n", path);
  return 1;
}

int cosrod_cmd_view(int argc, char **argv) {
  const char *dir = NULL, *html = NULL;
  int open = 0;
  double mb = 0.0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--open")) {
      open = 1;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      html = argv[++i];
    } else if (!strcmp(a, "--max-mb") && i + 1 < argc) {
      char *end;
      mb = strtod(argv[++i], &end);
      if (*end || !(mb > 0.0) || mb > 1e6) {
        fprintf(stderr, "cosrod view: --max-mb needs a positive number of MB, got '%s'\n" VIEW_USAGE, argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("%s", VIEW_HELP);
      return 0;
    } else if (a[0] == '-') {
      fprintf(stderr, "cosrod view: unknown option %s\n" VIEW_USAGE, a);
      return 2;
    } else if (!dir) {
      dir = a;
    } else {
      fprintf(stderr, "cosrod view: more than one DIR: %s\n" VIEW_USAGE, a);
      return 2;
    }
  }
  if (!dir) {
    fprintf(stderr, "cosrod view: no output directory given\n" VIEW_USAGE);
    return 2;
  }
  char msg[1024], path[4200];
  cosrod_status st = cosrod_view_write(dir, html, (size_t)(mb * 1048576.0), msg, sizeof msg);
  if (st != COSROD_OK) {
    fprintf(stderr, "cosrod view: %s\n", msg[0] ? msg : cosrod_strerror(st));
    return st == COSROD_ERR_IO && strstr(msg, "summary.json") ? 2 : 1;
  }
  snprintf(path, sizeof path, "%s", html ? html : dir);
  if (!html) snprintf(path, sizeof path, "%s/view.html", dir);
  if (msg[0]) fprintf(stderr, "cosrod view: note: %s\n", msg);
  printf("%s\n", path);
  return open ? open_browser(path) : 0;
}
