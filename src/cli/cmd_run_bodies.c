/* `cosrod run` for scenarios with rigid bodies and no rods (SPEC §5, §8):
 * cosrod_sim_bodies_run writes the output directory; this prints the summary
 * and maps the outcome to the exit status (0 ok, 1 failed, 2 invalid input,
 * 130 / 143 / 129 interrupted by SIGINT / SIGTERM / SIGHUP, as rod runs). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"

int cosrod_cmd_run_bodies(const cosrod_scenario *sc, const char *file, const char *dir, int quiet);

static volatile sig_atomic_t g_stop_bodies = 0;

static const int STOP_SIGNALS_BODIES[3] = {SIGINT, SIGTERM, SIGHUP};

static void on_stop_bodies(int sig) {
  g_stop_bodies = sig;
  signal(sig, SIG_DFL); /* a second one ends the process */
}

int cosrod_cmd_run_bodies(const cosrod_scenario *sc, const char *file, const char *dir, int quiet) {
  if (!dir) dir = sc->output.dir ? sc->output.dir : "out";
  struct sigaction sa, old[3];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_bodies;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++) sigaction(STOP_SIGNALS_BODIES[i], &sa, &old[i]);
  g_stop_bodies = 0;
  cosrod_sim_bodies_result res;
  char err[1024];
  cosrod_status st = cosrod_sim_bodies_run(sc, file, dir, &g_stop_bodies, &res, err, sizeof err);
  for (int i = 0; i < 3; i++) sigaction(STOP_SIGNALS_BODIES[i], &old[i], NULL);
  if (st == COSROD_ERR_PARSE) {
    fprintf(stderr, "%s\n", err);
    return 2;
  }
  if (st == COSROD_OK) {
    if (!quiet) {
      printf("%s: t = %g s in %.2f s wall time (%ld steps, %ld rejected, %ld f)\n",
             sc->title && sc->title[0] ? sc->title : file, res.t_reached, res.wall_time, res.stats.nsteps,
             res.stats.nreject, res.stats.nfev);
      printf("  %zu bodies, %zu joints; energy balance %.12g J -> %.12g J\n", sc->nbodies, sc->njoints,
             res.energy_balance0, res.energy_balance);
      printf("  output: %s/ (summary.json, bodies.csv, joints.csv, energy.csv, steps.csv)\n", dir);
    }
    return 0;
  }
  if (st == COSROD_ERR_INTERRUPTED && g_stop_bodies) {
    int sig = (int)g_stop_bodies;
    fprintf(stderr, "cosrod run: interrupted by %s at t = %g s; files up to then are in %s/\n",
            sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT", res.t_reached, dir);
    return 128 + sig;
  }
  fprintf(stderr, "cosrod run: %s: the run failed at t = %g s: %s; files up to t = %g s are in %s/\n", file,
          isfinite(res.t_failed) ? res.t_failed : res.t_reached, res.message, res.t_reached, dir);
  return 1;
}
