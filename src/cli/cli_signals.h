// SPDX-License-Identifier: Apache-2.0
/* Stop signals of `cosrod run` (rods and bodies-only runs alike): SIGINT,
 * SIGTERM and SIGHUP set one flag, polled by the driver; a second signal
 * ends the process; exit status 128 + the signal. */
#ifndef COSROD_CLI_SIGNALS_H
#define COSROD_CLI_SIGNALS_H

#include <signal.h>

typedef struct cli_stop_handlers {
  struct sigaction old[3];
} cli_stop_handlers;

/* The flag: 0, or the signal that asked to stop. */
extern volatile sig_atomic_t cli_stop_flag;

/* Clear the flag and install the handlers (the previous ones into *h). */
void cli_stop_install(cli_stop_handlers *h);
/* Put the previous handlers back. */
void cli_stop_restore(const cli_stop_handlers *h);
/* "SIGINT", "SIGTERM" or "SIGHUP". */
const char *cli_stop_signal_name(int sig);

#endif
