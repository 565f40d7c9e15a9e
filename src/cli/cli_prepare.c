// SPDX-License-Identifier: Apache-2.0
/* The one validation path of `check` and `run`: both load the
 * scenario, estimate its memory and refuse it above the limit, and create
 * the simulation (cosrod_sim_prepare) — `check` then frees it unrun.  So an
 * input that passes `check` cannot fail `run` with exit 2. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_prepare.h"

int cli_parse_size(const char *s, double *bytes) {
  if (!s || !*s) return -1;
  char *end;
  double v = strtod(s, &end);
  if (end == s || !(v > 0) || !isfinite(v)) return -1;
  double mul = 1.0;
  switch (toupper((unsigned char)*end)) {
    case 'K':
      mul = 1e3;
      end++;
      break;
    case 'M':
      mul = 1e6;
      end++;
      break;
    case 'G':
      mul = 1e9;
      end++;
      break;
    case 'T':
      mul = 1e12;
      end++;
      break;
    default:
      break;
  }
  if (toupper((unsigned char)*end) == 'B') end++;
  if (*end) return -1;
  *bytes = v * mul;
  return 0;
}

double cli_memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return 0.0;
  char line[256];
  double kb = 0.0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
  fclose(f);
  return kb * 1024.0;
}

static int prepare(const char *cmd, const char *file, const char *text, size_t len, const char *const *sets,
                   size_t nsets, const char *limit_arg, cosrod_scenario **scp, cosrod_sim **simp,
                   cosrod_sim_estimate *est);

int cli_prepare(const char *cmd, const char *file, const char *const *sets, size_t nsets,
                const char *limit_arg, cosrod_scenario **scp, cosrod_sim **simp, cosrod_sim_estimate *est) {
  return prepare(cmd, file, NULL, 0, sets, nsets, limit_arg, scp, simp, est);
}

int cli_prepare_text(const char *cmd, const char *file, const char *text, size_t len, const char *const *sets,
                     size_t nsets, const char *limit_arg, cosrod_scenario **scp, cosrod_sim **simp,
                     cosrod_sim_estimate *est) {
  return prepare(cmd, file, text, len, sets, nsets, limit_arg, scp, simp, est);
}

static int prepare(const char *cmd, const char *file, const char *text, size_t len, const char *const *sets,
                   size_t nsets, const char *limit_arg, cosrod_scenario **scp, cosrod_sim **simp,
                   cosrod_sim_estimate *est) {
  *scp = NULL;
  *simp = NULL;
  double limit = 0.0;
  if (limit_arg) {
    if (cli_parse_size(limit_arg, &limit) != 0) {
      fprintf(stderr, "cosrod %s: --memory-limit needs a size such as 4G or 512M, not '%s'\n", cmd,
              limit_arg);
      return 2;
    }
  } else {
    limit = cli_memory_available();
  }
  cosrod_status st = COSROD_OK;
  *scp = text ? cosrod_scenario_parse(text, len, file, sets, nsets, &st) : cosrod_scenario_load(file, sets, nsets, &st);
  if (!*scp) {
    fprintf(stderr, "%s\n", cosrod_last_error()); /* up to SC_MAX_ERRORS lines */
    return st == COSROD_ERR_NOMEM ? 1 : 2;
  }
  char w[1024]; /* plausibility warnings: printed by check and run alike */
  for (size_t i = 0; cosrod_scenario_warning(*scp, i, w, sizeof w) == 0; i++)
    fprintf(stderr, "cosrod %s: warning: %s\n", cmd, w);
  *simp = cosrod_sim_prepare(*scp, limit, est, &st);
  if (!*simp) {
    const char *err = cosrod_last_error();
    if (strcmp(err, cosrod_strerror(st)) != 0)
      fprintf(stderr, "%s\n", err);
    else /* e.g. an allocation without a key to blame: still name the file */
      fprintf(stderr, "%s: %s while creating the simulation\n", file, cosrod_strerror(st));
    return st == COSROD_ERR_NOMEM ? 1 : 2; /* *scp stays for the caller (summary.json) */
  }
  return 0;
}
