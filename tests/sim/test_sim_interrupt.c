// SPDX-License-Identifier: Apache-2.0
/* End to end: a SIGINT arriving ~0.5 s into a large run (N = 20000
 * segments, radau5, null-space formulation; one step takes seconds) stops
 * cosrod_sim_run with ERR_INTERRUPTED within seconds (the stop flag is
 * polled inside the LU and the Jacobian assembly, not only between steps).
 * The latency is measured and reported; the bound (10 s) only guards
 * against hanging on a loaded machine, it is not a speed target.  The
 * deterministic checks of the polls are in test_linalg_lu_interrupt,
 * test_rod_jac_interrupt and test_integrate_interrupt. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "cosrod/sim.h"
#include "harness.h"

static volatile sig_atomic_t g_stop;
static volatile sig_atomic_t g_alarm;

static void on_sigint(int sig) { g_stop = sig; }
static void on_alarm(int sig) {
  (void)sig;
  g_alarm = 1;
  raise(SIGINT); /* as a user's Ctrl-C */
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double g_t_signal;
static int on_step(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  (void)user, (void)sim, (void)t, (void)h, (void)accepted;
  return 0;
}

TEST(sigint_stops_large_run_quickly) {
  char path[1024];
  const char *dir = getenv("COSROD_EXAMPLES");
  snprintf(path, sizeof path, "%s/perf-steel.yaml", dir ? dir : "examples");
  const char *sets[] = {"rods.0.segments=20000",     "solver.formulation=nullspace",
                        "solver.stabilisation=none", "analysis.t_end=1",
                        "output.every=0.5",          "output.plots=false"};
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, sets, 6, NULL))) NOTE("%s", cosrod_last_error());
  CHECK("scenario loads", sc != NULL);
  if (!sc) return;
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  CHECK("sim created", sim != NULL);
  if (!sim) {
    NOTE("%s", cosrod_last_error());
    cosrod_scenario_free(sc);
    return;
  }
  struct sigaction sa, old_int, old_alrm;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, &old_int);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, &old_alrm);
  g_stop = 0;
  struct itimerval tv = {{0, 0}, {0, 500000}}; /* SIGALRM -> SIGINT after 0.5 s */
  cosrod_sim_observer obs = {NULL, on_step, NULL, &g_stop, NULL};
  double t0 = now();
  setitimer(ITIMER_REAL, &tv, NULL);
  st = cosrod_sim_run(sim, &obs);
  double t1 = now();
  g_t_signal = t0 + 0.5;
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGALRM, &old_alrm, NULL);
  NOTE("run ended after %.3f s (signal at 0.5 s): latency %.3f s; t reached %.3g s; %s", t1 - t0,
       t1 - g_t_signal, cosrod_sim_t(sim), cosrod_sim_message(sim));
  CHECK("the signal arrived", g_alarm && g_stop == SIGINT);
  CHECK("status ERR_INTERRUPTED", st == COSROD_ERR_INTERRUPTED);
  CHECK("stopped before t_end", cosrod_sim_t(sim) < 1.0);
  CHECK_LE("latency after the signal (s), guard only", t1 - g_t_signal, 10.0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(sigint_stops_large_run_quickly),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
