// SPDX-License-Identifier: Apache-2.0
/* `cosrod run FILE [-o DIR] [--set key.path=value]... [--quiet]` ([manual: command line, output reference]),
 * `cosrod run --resume DIR [FILE]` ([manual: long runs]): the scenario of DIR's
 * restart checkpoint (or FILE, refused with exit 2 if it differs), the
 * simulation restarted there and the files appended (cosrod_recorder_resume).
 *
 * Scenario (loader) -> cosrod_sim (driver) -> cosrod_recorder (files); this
 * file keeps the arguments, the progress bar, the printed summary and the
 * exit status.  Order
 * matters for the exit-status contract:
 *   1. load + validate the scenario, build the simulation: any problem is
 *      invalid input, one line "FILE:LINE: key: problem", exit 2, and the
 *      output directory is not touched;
 *   2. create the output directory and run; every output time becomes one
 *      frame (rods, energy), every attempted step a row of steps.csv;
 *   3. close the output whatever happened: files are renamed into place
 *      complete, summary.json says ok / failed (reason, time, last state) /
 *      interrupted.  Exit 0, 1 (solver failure or I/O error) or 128 + the
 *      signal for an interrupted run, as a shell reports a killed process:
 *      130 (SIGINT, Ctrl-C), 143 (SIGTERM: timeout, batch schedulers), 129
 *      (SIGHUP: the terminal closed).
 * SIGINT, SIGTERM and SIGHUP set a flag polled by the driver after every
 * step; the run then ends like a failure, with complete files and status
 * "interrupted".  A second signal kills the process the usual way.
 * Progress bar on stderr only if it is a terminal, the run takes more than
 * a second and --quiet is not given. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_prepare.h"
#include "cli_signals.h"
#include "cosrod/output.h"
#include "cosrod/record.h"
#include "cosrod/rod.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"

int cosrod_cmd_run(int argc, char **argv);

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct run_ctx {
  cosrod_recorder *rec;
  double t_end;
  double wall0, last_draw;
  int progress; /* 1: may draw (terminal, not quiet) */
  int drawn;    /* a bar is on screen */
} run_ctx;

static void draw_progress(run_ctx *c, const cosrod_sim *sim, double t, double h, int force) {
  double now = wall_now(), el = now - c->wall0;
  if (!c->progress || el < 1.0 || (!force && now - c->last_draw < 0.1)) return;
  c->last_draw = now;
  double frac = c->t_end > 0 ? t / c->t_end : 1.0;
  if (frac < 0) frac = 0;
  if (frac > 1) frac = 1;
  char bar[31];
  int filled = (int)(frac * 30.0);
  for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
  bar[30] = '\0';
  char eta[32] = "?";
  if (frac > 1e-6) {
    double rest = el * (1.0 - frac) / frac;
    if (rest < 120)
      snprintf(eta, sizeof eta, "%.0fs", rest);
    else if (rest < 7200)
      snprintf(eta, sizeof eta, "%.0fmin", rest / 60);
    else
      snprintf(eta, sizeof eta, "%.1fh", rest / 3600);
  }
  if (isfinite(h))
    fprintf(stderr, "\r[%s] t = %.4g/%g s  steps %ld  h %.2e  ETA %s \033[K", bar, t, c->t_end,
            cosrod_sim_stats(sim)->nsteps, h, eta);
  else
    fprintf(stderr, "\r[%s] t = %.4g/%g  increments %ld  ETA %s \033[K", bar, t, c->t_end,
            cosrod_sim_stats(sim)->naccept, eta);
  fflush(stderr);
  c->drawn = 1;
}

static void clear_progress(run_ctx *c) {
  if (c->drawn) {
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    c->drawn = 0;
  }
}

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  run_ctx *c = user;
  return cosrod_recorder_frame(c->rec, sim, t);
}

static int on_step(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  run_ctx *c = user;
  if (cosrod_recorder_step(c->rec, t, h, accepted) != 0) return -1;
  if (accepted) draw_progress(c, sim, t + h, h, 0);
  return 0;
}

static int on_increment(void *user, const cosrod_sim *sim, double t, long iterations, double residual) {
  run_ctx *c = user;
  if (cosrod_recorder_increment(c->rec, sim, t, iterations, residual) != 0) return -1;
  draw_progress(c, sim, t, NAN, 0);
  return 0;
}

#define RUN_USAGE                                                                                      \
  "usage: cosrod run FILE [-o DIR] [--set key.path=value]... [--memory-limit SIZE] [--quiet]\n"          \
  "       cosrod run --resume DIR [FILE] [--set key.path=value]... [--quiet]\n"
#define RUN_HELP                                                                                    \
  RUN_USAGE                                                                                         \
  "  -o DIR              output directory (default: output.dir of FILE)\n"                          \
  "  --set k.p=v         override a key before validation, e.g. --set rods.0.segments=20\n"         \
  "  --memory-limit SIZE refuse a run whose memory estimate exceeds SIZE (e.g. 4G, 512M;\n"        \
  "                      default: the available memory, MemAvailable of /proc/meminfo)\n"          \
  "  --quiet, -q         print nothing but errors\n"                                                \
  "  --resume DIR        continue the run in DIR from its last checkpoint (DIR/checkpoint.bin);\n"   \
  "                      the scenario is the checkpoint's, or FILE (+ --set) if given, which must\n" \
  "                      not differ from it (output.dir and output.checkpoint may)\n"                \
  "`cosrod check FILE` validates exactly as run does and prints the estimate; see cosrod help.\n"

static int usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "cosrod run: %s%s%s\n" RUN_USAGE, msg, arg ? " " : "", arg ? arg : "");
  return 2;
}

/* The simulation could not be allocated although the estimate fit: a
 * summary.json saying so (no frames), so a batch job leaves a trace. */
static void write_nomem_summary(const char *dir, const cosrod_scenario *sc, const char *file,
                                const cosrod_sim_estimate *est) {
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.vtk = 0;
  cfg.plots = 0;
  cfg.title = sc->title;
  cfg.scenario_file = file;
  cfg.t_end = sc->analysis.t_end;
  cosrod_status st;
  cosrod_output *out = cosrod_output_create(dir, &cfg, &st);
  if (!out) return;
  char msg[256];
  snprintf(msg, sizeof msg, "out of memory while creating the simulation (estimate ~%.3g GB)",
           est->total_bytes / 1e9);
  cosrod_output_result res = cosrod_output_default_result();
  res.code = COSROD_ERR_NOMEM;
  res.run = COSROD_RUN_FAILED;
  res.message = msg;
  res.t_reached = 0.0;
  if (cosrod_output_close(out, &res) == COSROD_OK)
    fprintf(stderr, "cosrod run: %s/summary.json says why\n", dir);
  cosrod_output_free(out);
}

/* The printed summary of a finished run (stdout). */
static void print_ok(const cosrod_scenario *sc, const cosrod_sim *sim, const char *file, const char *dir,
                     double wall) {
  const cosrod_integrate_stats *s = cosrod_sim_stats(sim);
  const int analysis = (int)sc->analysis.type, buckling = analysis == COSROD_SC_ANALYSIS_BUCKLING;
  const size_t nrods = cosrod_sim_nrods(sim);
  cosrod_sim_energy e = cosrod_sim_energy_now(sim);
  const int modal = analysis == COSROD_SC_ANALYSIS_MODES || buckling;
  /* integrate.h: nconvfail (convergence failures) is not part of nreject (error-test rejections) */
  if (analysis == COSROD_SC_ANALYSIS_DYNAMIC)
    printf("%s: t = %g s in %.2f s wall time (%s: %ld steps: %ld accepted, %ld rejected by the error test, "
           "%ld Newton failures; %ld f, %ld Jacobians)\n",
           sc->title && sc->title[0] ? sc->title : file, cosrod_sim_t(sim), wall, cosrod_sim_integrator_name(sim),
           s->nsteps, s->naccept, s->nreject, s->nconvfail, s->nfev, s->njev);
  else if (modal) /* only what the analysis computed: the modes */
    printf("%s: %s analysis in %.2f s wall time\n", sc->title && sc->title[0] ? sc->title : file,
           buckling ? "buckling" : "modal", wall);
  else
    printf("%s: %s analysis to t = %g in %.2f s wall time (%ld increments, %ld rejected, %ld Newton "
           "iterations)\n",
           sc->title && sc->title[0] ? sc->title : file,
           analysis == COSROD_SC_ANALYSIS_STATIC ? "static" : buckling ? "buckling" : "modal", cosrod_sim_t(sim),
           wall, s->naccept, s->nreject, s->nnewton);
  double om_max = 0.0; /* the scale of round-off in ω */
  for (int i = 0; i < cosrod_sim_nmodes(sim); i++) {
    double om;
    cosrod_sim_mode(sim, i, &om, NULL, NULL);
    om_max = fmax(om_max, fabs(om));
  }
  for (int i = 0; i < cosrod_sim_nmodes(sim) && i < 10; i++) {
    double om, fr;
    const char *ty = NULL;
    int gr = 0;
    const char *rname = sc->rods[cosrod_sim_mode_rod(sim, i)].name;
    cosrod_sim_mode(sim, i, &om, &fr, NULL);
    cosrod_sim_mode_info(sim, i, &ty, &gr);
    if (buckling)
      printf("  buckling mode %d: critical load factor %.9g (%s), %s\n", i + 1, cosrod_sim_load_factor(sim, i),
             rname, ty);
    else if (fabs(om) < 1e-4 * om_max) /* ω = 0 to round-off (of either sign): a rigid-body mode */
      printf("  mode %d: rigid-body mode (omega = 0 to round-off: |omega| %.3g 1/s), %s\n", i + 1, fabs(om),
             rname);
    else if (om < 0.0) /* ω² < 0: the equilibrium is unstable */
      printf("  mode %d: omega^2 = %.6g 1/s^2 < 0 (the equilibrium is unstable), %s, %s\n", i + 1, -om * om, ty,
             rname);
    else
      printf("  mode %d: %.6g Hz (omega %.6g 1/s), %s, frequency %d%s%s\n", i + 1, fr, om, ty, gr + 1,
             nrods > 1 ? ", " : "", nrods > 1 ? rname : "");
  }
  for (size_t i = 0; i < cosrod_sim_ncritical(sim); i++) {
    const char *ty = NULL;
    double ct = 0.0, cl = 0.0, cd = 0.0;
    cosrod_sim_critical(sim, i, &ty, &ct, &cl, &cd);
    printf("  %s point at t = %.6g: load factor %.6g, displacement %.6g m\n", ty, ct, cl, cd);
  }
  for (size_t r = 0; r < nrods && !modal; r++) {
    double tip[3];
    cosrod_sim_tip(sim, r, tip);
    printf("  tip of %s: (%.6g, %.6g, %.6g) m\n", sc->rods[r].name, tip[0], tip[1], tip[2]);
  }
  if (!modal)
    printf("  energy: kinetic %.6g J, elastic %.6g J, gravity %.6g J, dissipated %.6g J, balance %.9g J\n",
           e.kinetic, e.elastic, e.gravity, e.dissipated, e.balance);
  if (sc->output.format == COSROD_SC_FORMAT_HDF5)
    printf("  output: %s/ (summary.json, run.h5%s)\n", dir, sc->output.vtk ? ", vtk/cosrod.vtkhdf" : "");
  else
    printf("  output: %s/ (summary.json, *.csv%s%s)\n", dir, sc->output.vtk ? ", vtk/cosrod.pvd" : "",
           sc->output.plots ? ", plots/*.png" : "");
}

/* The exit status of a recorded run, with its message on stdout / stderr. */
static int report_end(const cosrod_scenario *sc, const cosrod_sim *sim, const char *file, const char *dir,
                      int quiet, double wall, const cosrod_record_end *end) {
  const char *tu = sc->analysis.type == COSROD_SC_ANALYSIS_DYNAMIC ? " s" : ""; /* static: pseudo-time */
  if (!end->view_written && end->view_note && end->view_note[0]) /* why there is no view.html */
    fprintf(stderr, "cosrod run: note: %s\n", end->view_note);
  if (end->run == COSROD_RUN_OK) {
    if (!quiet) print_ok(sc, sim, file, dir, wall);
    if (end->view_written && !quiet)
      printf("  view: %s/view.html (open in a browser)%s%s\n", dir, end->view_note[0] ? "; " : "", end->view_note);
    return 0;
  }
  if (end->run == COSROD_RUN_INTERRUPTED) {
    fprintf(stderr, "cosrod run: interrupted by %s at t = %g%s; files up to then are in %s/\n",
            cli_stop_signal_name(cli_stop_flag), cosrod_sim_t(sim), tu, dir);
    return 128 + cli_stop_flag;
  }
  fprintf(stderr, "cosrod run: %s: the run failed at t = %g%s: %s; files up to t = %g%s are in %s/\n", file,
          isfinite(end->t_failed) ? end->t_failed : cosrod_sim_t(sim), tu, end->message, cosrod_sim_t(sim), tu,
          dir);
  if (end->status == COSROD_ERR_MAX_STEPS)
    fprintf(stderr, "cosrod run: hint: raise solver.max_steps (--set solver.max_steps=...)%s\n",
            cosrod_sim_stats(sim)->njev == 0 ? ", or take an implicit integrator (radau5, rodas) if the rod is stiff"
                                             : "");
  return 1;
}

/* The command line of `run`; -1 when it is complete, otherwise the exit
 * code (usage error 2, --help 0). */
typedef struct run_args {
  const char *file, *dir, *limit, *resume;
  int quiet;
  const char **sets;
  size_t nsets;
} run_args;

static int parse_run_args(int argc, char **argv, run_args *r) {
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--set") || !strcmp(a, "-s")) {
      if (i + 1 >= argc) return usage_error("--set needs key.path=value", NULL);
      r->sets[r->nsets++] = argv[++i];
    } else if (!strncmp(a, "--set=", 6)) {
      r->sets[r->nsets++] = a + 6;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (i + 1 >= argc) return usage_error("-o needs a directory", NULL);
      r->dir = argv[++i];
    } else if (!strcmp(a, "--resume")) {
      if (i + 1 >= argc) return usage_error("--resume needs the output directory of the run", NULL);
      r->resume = argv[++i];
    } else if (!strncmp(a, "--resume=", 9)) {
      r->resume = a + 9;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      r->quiet = 1;
    } else if (!strcmp(a, "--memory-limit")) {
      if (i + 1 >= argc) return usage_error("--memory-limit needs a size such as 4G", NULL);
      r->limit = argv[++i];
    } else if (!strncmp(a, "--memory-limit=", 15)) {
      r->limit = a + 15;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("%s", RUN_HELP);
      return 0;
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage_error("unknown option", a);
    } else if (!r->file) {
      r->file = a;
    } else {
      return usage_error("more than one FILE:", a);
    }
  }
  if (!r->file && !r->resume) return usage_error("no scenario FILE given", NULL);
  if (r->resume && r->dir) return usage_error("--resume continues in its own directory: no -o", NULL);
  return -1;
}

int cosrod_cmd_run(int argc, char **argv) {
  run_args ra = {0};
  int rc = 0;
  ra.sets = calloc((size_t)argc + 1, sizeof *ra.sets);
  if (!ra.sets) {
    fprintf(stderr, "cosrod run: out of memory\n");
    return 1;
  }
  const int prc0 = parse_run_args(argc, argv, &ra);
  if (prc0 >= 0) {
    free(ra.sets);
    return prc0;
  }
  const char *file = ra.file, *dir = ra.dir, *limit = ra.limit, *resume = ra.resume;
  const char **sets = ra.sets;
  const size_t nsets = ra.nsets;
  const int quiet = ra.quiet;

  /* 1. input: the same path as `check` (cli_prepare); nothing is written
   * before this has succeeded, except the summary.json of an allocation failure */
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = NULL;
  cosrod_sim_estimate est;
  char *ck_yaml = NULL, *ck_file = NULL;
  int prc;
  if (resume && !file) { /* the scenario stored in the checkpoint */
    char msg[1200];
    if (cosrod_recorder_checkpoint_scenario(resume, &ck_yaml, &ck_file, msg, sizeof msg) != COSROD_OK) {
      fprintf(stderr, "cosrod run: %s\n", msg);
      free(sets);
      return 2;
    }
    file = ck_file[0] ? ck_file : "checkpoint.bin";
    prc = cli_prepare_text("run", file, ck_yaml, strlen(ck_yaml), sets, nsets, limit, &sc, &sim, &est);
  } else {
    prc = cli_prepare("run", file, sets, nsets, limit, &sc, &sim, &est);
  }
  free(sets);
  free(ck_yaml);
  if (resume) dir = resume;
  if (prc != 0) {
    if (prc == 1 && sc) write_nomem_summary(dir ? dir : sc->output.dir ? sc->output.dir : "out", sc, file, &est);
    cosrod_scenario_free(sc);
    free(ck_file);
    return prc;
  }
  if (cosrod_sim_input_warning(sim)[0]) fprintf(stderr, "%s\n", cosrod_sim_input_warning(sim));
  if (!quiet && sc->solver.integrator == COSROD_SC_INTEGRATOR_AUTO) /* the choice of auto, one line */
    printf("solver: %s (auto: %s)\n", cosrod_sim_solver_chosen(sim), cosrod_sim_solver_reason(sim));
  if (!dir) dir = sc->output.dir ? sc->output.dir : "out";

  /* 2. output directory */
  run_ctx c = {0};
  /* a long run publishes complete files every 30 s of wall time, also
   * between output times (COSROD_CHECKPOINT_EVERY: an internal override for tests) */
  double every = 30.0;
  const char *ce = getenv("COSROD_CHECKPOINT_EVERY");
  if (ce && strtod(ce, NULL) > 0.0) every = strtod(ce, NULL);
  c.rec = resume ? cosrod_recorder_resume(sim, dir, every, &st) : cosrod_recorder_create(sim, dir, file, every, &st);
  if (!c.rec) {
    fprintf(stderr, "cosrod run: %s\n", cosrod_last_error());
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    free(ck_file);
    return resume && st == COSROD_ERR_INVALID ? 2 : 1; /* a refused resume is bad input */
  }
  if (resume && !quiet) printf("cosrod run: resuming %s from its checkpoint at t = %.9g s\n", dir, cosrod_sim_t(sim));

  /* run */
  c.t_end = sc->analysis.t_end;
  c.progress = !quiet && isatty(STDERR_FILENO);
  c.wall0 = wall_now();
  cli_stop_handlers handlers;
  cli_stop_install(&handlers);
  cosrod_sim_observer obs = {on_frame, on_step, &c, &cli_stop_flag, on_increment};
  cosrod_status run_st = cosrod_sim_run(sim, &obs);
  cli_stop_restore(&handlers);
  double wall = wall_now() - c.wall0;
  if (run_st == COSROD_OK) draw_progress(&c, sim, c.t_end, cosrod_sim_h_last(sim), 1);
  clear_progress(&c);

  /* 3. close: files valid whatever happened */
  for (size_t i = 0; i < cosrod_sim_nwarnings(sim); i++)
    fprintf(stderr, "cosrod run: warning: %s\n", cosrod_sim_warning(sim, i));
  cosrod_record_end end;
  cosrod_status cst = cosrod_recorder_finish(c.rec, sim, run_st,
                                             wall, cli_stop_flag ? cli_stop_signal_name(cli_stop_flag) : NULL, &end);
  if (cst != COSROD_OK) fprintf(stderr, "cosrod run: %s\n", cosrod_recorder_error(c.rec));
  /* the printed wall time includes closing the files and the plots */
  rc = report_end(sc, sim, file, dir, quiet, wall_now() - c.wall0, &end);
  if (rc == 0 && cst != COSROD_OK) rc = 1;
  cosrod_recorder_free(c.rec);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  free(ck_file);
  return rc;
}
