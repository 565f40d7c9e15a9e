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
#include "cli_scene.h"
#include "cli_signals.h"

int cosrod_cmd_run_bodies(const cosrod_scenario *sc, const char *file, const char *dir, int quiet);

int cosrod_cmd_run_bodies(const cosrod_scenario *sc, const char *file, const char *dir, int quiet) {
  if (!dir) dir = sc->output.dir ? sc->output.dir : "out";
  cli_stop_handlers handlers;
  cli_stop_install(&handlers);
  cosrod_sim_bodies_result res;
  char err[1024];
  cosrod_status st = cosrod_sim_bodies_run(sc, file, dir, &cli_stop_flag, &res, err, sizeof err);
  cli_stop_restore(&handlers);
  if (st == COSROD_ERR_PARSE) {
    fprintf(stderr, "%s\n", err);
    return 2;
  }
  cli_write_view_after_run(dir, sc, quiet); /* scene.json, view.html (SPEC §12) */
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
  if (st == COSROD_ERR_INTERRUPTED && cli_stop_flag) {
    int sig = (int)cli_stop_flag;
    fprintf(stderr, "cosrod run: interrupted by %s at t = %g s; files up to then are in %s/\n",
            cli_stop_signal_name(sig), res.t_reached, dir);
    return 128 + sig;
  }
  fprintf(stderr, "cosrod run: %s: the run failed at t = %g s: %s; files up to t = %g s are in %s/\n", file,
          isfinite(res.t_failed) ? res.t_failed : res.t_reached, res.message, res.t_reached, dir);
  return 1;
}
