// SPDX-License-Identifier: Apache-2.0
/* Stop signals of `cosrod run` (see cli_signals.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_signals.h"

#include <string.h>

volatile sig_atomic_t cli_stop_flag = 0;

static const int STOP_SIGNALS[3] = {SIGINT, SIGTERM, SIGHUP};

static void on_stop_signal(int sig) {
  cli_stop_flag = sig;
  signal(sig, SIG_DFL); /* a second one ends the process */
}

void cli_stop_install(cli_stop_handlers *h) {
  cli_stop_flag = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++) sigaction(STOP_SIGNALS[i], &sa, &h->old[i]);
}

void cli_stop_restore(const cli_stop_handlers *h) {
  for (int i = 0; i < 3; i++) sigaction(STOP_SIGNALS[i], &h->old[i], NULL);
}

const char *cli_stop_signal_name(int sig) {
  return sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}
