// SPDX-License-Identifier: Apache-2.0
/* Helpers shared by the end-to-end tests of the `cosrod` command: example
 * paths, starting the binary (path from CMake: COSROD_CLI) as a child
 * process, its exit status.  Static functions; include once per test file
 * after harness.h and outtest.h.  Define CLI_TEST_TAG (a short string) before
 * including to name this file's temporary stderr file. */
#ifndef COSROD_CLI_TEST_UTIL_H
#define COSROD_CLI_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "outtest.h"

#ifndef COSROD_CLI
#error "COSROD_CLI (path of the cosrod binary) must be defined"
#endif

#ifndef CLI_TEST_TAG
#define CLI_TEST_TAG "cli"
#endif

/* Path of examples/<name>.yaml ($COSROD_EXAMPLES overrides the directory);
 * four rotating buffers, so up to four results can be alive at once. */
static inline const char *ex(const char *name) {
  static char buf[4][1024];
  static int k = 0;
  const char *dir = getenv("COSROD_EXAMPLES");
  char *b = buf[k++ % 4];
  snprintf(b, sizeof buf[0], "%s/%s.yaml", dir ? dir : "examples", name);
  return b;
}

/* Start cosrod with args (NULL-terminated, without argv[0]); stdout and
 * stderr to the files out and err.  Returns the pid. */
static inline pid_t cli_spawn(const char *const *args, const char *out, const char *err) {
  const char *argv[64];
  int n = 0;
  argv[n++] = COSROD_CLI;
  for (; *args && n < 63; args++) argv[n++] = *args;
  argv[n] = NULL;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) _exit(99);
    execv(COSROD_CLI, (char *const *)argv);
    _exit(98);
  }
  return pid;
}

/* Wait for pid: its exit status, 128 + signal if killed, -1 on error. */
static inline int cli_wait(pid_t pid) {
  int ws = 0;
  if (pid < 0 || waitpid(pid, &ws, 0) < 0) return -1;
  if (WIFEXITED(ws)) return WEXITSTATUS(ws);
  if (WIFSIGNALED(ws)) return 128 + WTERMSIG(ws);
  return -1;
}

/* Run cosrod to completion, stdout to /dev/null, stderr to a temporary file
 * (removed); *err_text gets its text (malloc'd, may be NULL).  Exit status. */
static inline int cli_run_text(const char *const *args, char **err_text) {
  char errf[128];
  snprintf(errf, sizeof errf, "/tmp/cosrod_%s_%ld.err", CLI_TEST_TAG, (long)getpid());
  int rc = cli_wait(cli_spawn(args, "/dev/null", errf));
  *err_text = ot_read(errf, NULL);
  remove(errf);
  return rc;
}

/* Run cosrod (see cli_run_text); on a nonzero exit its stderr is NOTEd. */
static inline int cli_run(const char *const *args) {
  char *e = NULL;
  int rc = cli_run_text(args, &e);
  if (rc != 0 && e && e[0]) NOTE("stderr: %s", e);
  free(e);
  return rc;
}

/* Run cosrod (see cli_run_text); its stderr into err (cap bytes, may be
 * NULL), not NOTEd: the caller decides. */
static inline int cli_run_err(const char *const *args, char *err, size_t cap) {
  char *e = NULL;
  int rc = cli_run_text(args, &e);
  if (err && cap) snprintf(err, cap, "%s", e ? e : "");
  free(e);
  return rc;
}

#endif
