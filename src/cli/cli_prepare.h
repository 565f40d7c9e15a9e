// SPDX-License-Identifier: Apache-2.0
/* Shared by `cosrod check` and `cosrod run`: the one validation path
 * (load -> resource estimate and memory limit -> simulation creation). */
#ifndef COSROD_CLI_PREPARE_H
#define COSROD_CLI_PREPARE_H

#include <stddef.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"

/* Parse a size "3G", "512M", "2.5e9" (bytes; decimal suffixes k, M, G, T,
 * optional trailing B, as the estimate prints them).  Returns 0 on success. */
int cli_parse_size(const char *s, double *bytes);

/* MemAvailable of /proc/meminfo in bytes; 0 if unknown (then no limit). */
double cli_memory_available(void);

/* Load FILE with the --set overrides, estimate, check the limit
 * (limit_arg: --memory-limit value or NULL for the available memory) and
 * create the simulation (rods, rigid bodies or both).  Returns 0 with *scp,
 * *simp, *est set, or the exit
 * status (2 invalid input, 1 out of memory) after printing one line
 * "FILE:LINE: key: problem" on stderr; *scp is then still set if the
 * scenario was loaded (the caller frees it). */
int cli_prepare(const char *cmd, const char *file, const char *const *sets, size_t nsets,
                const char *limit_arg, cosrod_scenario **scp, cosrod_sim **simp, cosrod_sim_estimate *est);

/* As cli_prepare for scenario text (len bytes; `file` the name in messages
 * and for relative paths), e.g. the scenario stored in a checkpoint. */
int cli_prepare_text(const char *cmd, const char *file, const char *text, size_t len, const char *const *sets,
                     size_t nsets, const char *limit_arg, cosrod_scenario **scp, cosrod_sim **simp,
                     cosrod_sim_estimate *est);
#endif /* COSROD_CLI_PREPARE_H */
