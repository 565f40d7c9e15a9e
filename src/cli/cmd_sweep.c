// SPDX-License-Identifier: Apache-2.0
/* `cosrod sweep SCENARIO --param KEY=VALUES... [--jobs N] [--scheduler ADDR] -o DIR`
 * ([manual: command line]): a design study, one `cosrod run` process per member.
 *
 * The study engine is the Python module cosrod.study_cli (the engine of
 * cosrod.sweep): this command replaces itself by
 *     PYTHON -m cosrod.study_cli ARGS...
 * with the package of this build (or installation) on PYTHONPATH and
 * COSROD_CLI naming this program, so the members run the very same program.
 * One engine serves the command line, the Python API and Dask clusters (Dask
 * is Python): the table, the resume keys and the failure rows are defined
 * once.  The members are separate processes in every case, so nothing is
 * gained by running local studies from C.  PYTHON is the interpreter the
 * build found (COSROD_PYTHON overrides it); it needs python3-pandas, and
 * python3-distributed for --scheduler, python3-matplotlib for --plot. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cosrod_cmd_sweep(int argc, char **argv);

#ifndef COSROD_SWEEP_PYTHON
#define COSROD_SWEEP_PYTHON "python3"
#endif

#if defined(COSROD_SWEEP_PY_BUILD) || defined(COSROD_SWEEP_PY_INSTALL)
static int is_dir(const char *p) {
  struct stat st;
  return p && p[0] && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
#endif

/* The folder holding the cosrod package for this program: the build tree's
 * when the program is the build tree's, else PREFIX/<python dir> next to an
 * installed PREFIX/bin/cosrod (relocatable, like the library's RPATH). */
static const char *package_dir(const char *self, char *buf, size_t len) {
#if defined(COSROD_SWEEP_BUILD_DIR) && defined(COSROD_SWEEP_PY_BUILD)
  char build[PATH_MAX];
  if (realpath(COSROD_SWEEP_BUILD_DIR, build) && strncmp(self, build, strlen(build)) == 0 &&
      self[strlen(build)] == '/' && is_dir(COSROD_SWEEP_PY_BUILD))
    return COSROD_SWEEP_PY_BUILD;
#endif
#ifdef COSROD_SWEEP_PY_INSTALL
  if (COSROD_SWEEP_PY_INSTALL[0] == '/') return is_dir(COSROD_SWEEP_PY_INSTALL) ? COSROD_SWEEP_PY_INSTALL : NULL;
  const char *slash = strrchr(self, '/');
  size_t bin = slash ? (size_t)(slash - self) : 0; /* PREFIX/bin */
  while (bin > 0 && self[bin - 1] != '/') bin--;    /* PREFIX/ */
  if (bin > 0 && (size_t)snprintf(buf, len, "%.*s%s", (int)bin, self, COSROD_SWEEP_PY_INSTALL) < len &&
      is_dir(buf))
    return buf;
#endif
  (void)self;
  (void)buf;
  (void)len;
  return NULL;
}

int cosrod_cmd_sweep(int argc, char **argv) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    fprintf(stderr, "cosrod sweep: cannot find this program's path (/proc/self/exe): %s\n", strerror(errno));
    return 2;
  }
  self[n] = '\0';
  char pkgbuf[PATH_MAX];
  const char *pkg = package_dir(self, pkgbuf, sizeof pkgbuf);
  if (pkg) {
    const char *old = getenv("PYTHONPATH");
    size_t len = strlen(pkg) + (old ? strlen(old) : 0) + 2;
    char *pp = malloc(len);
    if (!pp) return 2;
    snprintf(pp, len, "%s%s%s", pkg, old && old[0] ? ":" : "", old && old[0] ? old : "");
    setenv("PYTHONPATH", pp, 1);
    free(pp);
  }
  setenv("COSROD_CLI", self, 1);
  const char *py = getenv("COSROD_PYTHON");
  if (!py || !py[0]) py = COSROD_SWEEP_PYTHON;
  char **av = calloc((size_t)argc + 4, sizeof *av);
  if (!av) return 2;
  av[0] = (char *)py;
  av[1] = "-m";
  av[2] = "cosrod.study_cli";
  for (int i = 0; i < argc; i++) av[3 + i] = argv[i];
  av[argc + 3] = NULL;
  fflush(NULL);
  execvp(py, av);
  fprintf(stderr,
          "cosrod sweep: cannot start %s (%s): the study engine is the Python package cosrod "
          "(needs python3 and python3-pandas; COSROD_PYTHON names another interpreter)\n",
          py, strerror(errno));
  free(av);
  return 2;
}
