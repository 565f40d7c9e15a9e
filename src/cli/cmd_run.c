/* `cosrod run FILE [-o DIR] [--set key.path=value]... [--quiet]` (SPEC §8).
 *
 * Scenario (loader) -> cosrod_sim (driver) -> cosrod_output (files).  Order
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
#include "cli_scene.h"
#include "cli_signals.h"
#include "cosrod/output.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"

int cosrod_cmd_run(int argc, char **argv);
int cosrod_cmd_run_bodies(const cosrod_scenario *sc, const char *file, const char *dir, int quiet); /* cmd_run_bodies.c */

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct run_ctx {
  cosrod_output *out;
  double **s_mid; /* (nrods) segment midpoints (N) */
  double t_end;
  double wall0, last_draw;
  int progress; /* 1: may draw (terminal, not quiet) */
  int drawn;    /* a bar is on screen */
  cosrod_status out_status;
  FILE *jf;        /* joints.csv (rods with bodies and joints), written as DIR/.joints.csv.tmp */
  int *jidx;       /* (njoints) scenario index of each joint */
  double *jR;      /* (6 njoints) */
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
  cosrod_status st = cosrod_output_frame_begin(c->out, t);
  for (size_t r = 0; st == COSROD_OK && r < cosrod_sim_nrods(sim); r++) {
    const cosrod_rod *rod = cosrod_sim_rod(sim, r);
    const cosrod_rod_data *d = cosrod_sim_rod_data(sim, r);
    cosrod_output_rod_frame fr = {0};
    fr.n = (size_t)cosrod_rod_nseg(rod);
    fr.s_vertices = cosrod_rod_grid(rod);
    fr.x = d->x;
    fr.s_segments = c->s_mid[r];
    fr.p = d->p;
    fr.gamma = d->Gamma;
    fr.F = d->F;
    fr.K = d->K;
    fr.M = d->M;
    st = cosrod_output_write_rod(c->out, r, &fr);
  }
  for (size_t r = 0; st == COSROD_OK && r < cosrod_sim_nrods(sim); r++) { /* reactions.csv */
    double R[12];
    int sup[2];
    st = cosrod_sim_reactions(sim, r, R, sup);
    for (int e = 0; st == COSROD_OK && e < 2; e++)
      if (sup[e]) st = cosrod_output_write_reaction(c->out, r, e, R + 6 * e, R + 6 * e + 3);
  }
  for (size_t b = 0; st == COSROD_OK && b < cosrod_sim_nbodies(sim); b++) { /* bodies.csv */
    double x[3], q[4], Om[3], v[3], ke, pe;
    st = cosrod_sim_body(sim, b, x, q, Om);
    if (st == COSROD_OK) st = cosrod_sim_body_velocity(sim, b, v);
    if (st == COSROD_OK) {
      const cosrod_scenario *sc = cosrod_sim_scenario(sim);
      cosrod_sc_body_energy(&sc->bodies[b], sc->gravity, x, v, Om, &ke, &pe);
      st = cosrod_output_write_body(c->out, b, x, q, Om, v, ke, pe);
    }
  }
  if (st == COSROD_OK && c->jf && cosrod_sim_joint_reactions(sim, c->jR) == COSROD_OK) { /* joints.csv */
    for (size_t j = 0; j < cosrod_sim_njoints(sim); j++) {
      const double *r = c->jR + 6 * j;
      fprintf(c->jf, "%.15g,%d,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g\n", t, c->jidx[j], r[0], r[1], r[2], r[3],
              r[4], r[5]);
    }
    if (ferror(c->jf)) st = COSROD_ERR_IO;
  }
  if (st == COSROD_OK) {
    cosrod_sim_energy e = cosrod_sim_energy_now(sim);
    cosrod_output_energy oe = {e.kinetic, e.elastic, e.gravity, e.external_work, e.dissipated};
    st = cosrod_output_write_energy(c->out, &oe);
  }
  if (st == COSROD_OK) st = cosrod_output_frame_end(c->out);
  if (st != COSROD_OK) {
    c->out_status = st;
    return -1;
  }
  return 0;
}

static int on_step(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  run_ctx *c = user;
  cosrod_status st = cosrod_output_write_step(c->out, t, h, accepted);
  if (st == COSROD_OK) st = cosrod_output_checkpoint_poll(c->out); /* also between output times */
  if (st != COSROD_OK) {
    c->out_status = st;
    return -1;
  }
  if (accepted) draw_progress(c, sim, t + h, h, 0);
  return 0;
}

static int on_increment(void *user, const cosrod_sim *sim, double t, long iterations, double residual) {
  run_ctx *c = user;
  double lf, disp;
  int idx, crit;
  cosrod_status st = cosrod_sim_arc_step(sim, &lf, &disp, &idx, &crit) /* arc-length: the path columns */
                         ? cosrod_output_write_increment_arc(c->out, t, iterations, residual, lf, disp, idx, crit)
                         : cosrod_output_write_increment(c->out, t, iterations, residual);
  if (st == COSROD_OK) st = cosrod_output_checkpoint_poll(c->out);
  if (st != COSROD_OK) {
    c->out_status = st;
    return -1;
  }
  draw_progress(c, sim, t, NAN, 0);
  return 0;
}

/* modes.csv or buckling.csv (one row per mode and vertex), vtk/modes.pvd +
 * mode_<k>.vtp and the data of plots/modes.png or plots/buckling.png: the
 * shapes about the equilibrium at t = 0 (buckling: about the unloaded
 * state), each mode of its rod. */
static cosrod_status write_modes(run_ctx *c, const cosrod_sim *sim, int buckling) {
  const size_t nrods = cosrod_sim_nrods(sim);
  int count = cosrod_sim_nmodes(sim);
  double *fr = malloc(((size_t)count + 1) * 3 * sizeof *fr);
  const char **types = calloc((size_t)count + 1, sizeof *types);
  int *groups = calloc((size_t)count + 1, sizeof *groups);
  size_t *mrod = calloc((size_t)count + 1, sizeof *mrod), *rn = calloc(nrods + 1, sizeof *rn);
  const double **rs = calloc(nrods + 1, sizeof *rs), **rx = calloc(nrods + 1, sizeof *rx);
  if (!fr || !types || !groups || !mrod || !rn || !rs || !rx) {
    free(fr), free(types), free(groups), free(mrod), free(rn), free(rs), free(rx);
    return COSROD_ERR_NOMEM;
  }
  const double *shapes = NULL;
  for (int i = 0; i < count; i++) {
    const double *sh;
    cosrod_sim_mode(sim, i, fr + count + i, fr + i, &sh);
    cosrod_sim_mode_info(sim, i, types + i, groups + i);
    fr[2 * count + i] = cosrod_sim_load_factor(sim, i);
    mrod[i] = cosrod_sim_mode_rod(sim, i);
    if (i == 0) shapes = sh; /* the shapes are contiguous, cosrod_sim_mode_stride apart */
  }
  for (size_t r = 0; r < nrods; r++) {
    const cosrod_rod *rod = cosrod_sim_rod(sim, r);
    rn[r] = (size_t)cosrod_rod_nseg(rod);
    rs[r] = cosrod_rod_grid(rod);
    rx[r] = cosrod_sim_rod_data(sim, r)->x;
  }
  cosrod_output_modes m = {0};
  m.count = count;
  m.freq_hz = fr;
  m.omega = fr + count;
  m.shapes = shapes ? shapes : fr; /* count = 0: nothing is read */
  m.type = types;
  m.group = buckling ? NULL : groups;
  m.mode_rod = mrod;
  m.rod_n = rn;
  m.rod_s = rs;
  m.rod_x = rx;
  m.stride = cosrod_sim_mode_stride(sim);
  m.load_factor = buckling ? fr + 2 * count : NULL;
  cosrod_status st = cosrod_output_write_modes(c->out, &m);
  free(fr), free(types), free(groups), free(mrod), free(rn), free(rs), free(rx);
  return st;
}

#define RUN_USAGE "usage: cosrod run FILE [-o DIR] [--set key.path=value]... [--memory-limit SIZE] [--quiet]\n"
#define RUN_HELP                                                                                    \
  RUN_USAGE                                                                                         \
  "  -o DIR              output directory (default: output.dir of FILE)\n"                          \
  "  --set k.p=v         override a key before validation, e.g. --set rods.0.segments=20\n"         \
  "  --memory-limit SIZE refuse a run whose memory estimate exceeds SIZE (e.g. 4G, 512M;\n"        \
  "                      default: the available memory, MemAvailable of /proc/meminfo)\n"          \
  "  --quiet, -q         print nothing but errors\n"                                                \
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

int cosrod_cmd_run(int argc, char **argv) {
  const char *file = NULL, *dir = NULL, *limit = NULL;
  int quiet = 0, rc = 0;
  const char **sets = calloc((size_t)argc + 1, sizeof *sets);
  size_t nsets = 0;
  if (!sets) {
    fprintf(stderr, "cosrod run: out of memory\n");
    return 1;
  }
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--set") || !strcmp(a, "-s")) {
      if (i + 1 >= argc) {
        free(sets);
        return usage_error("--set needs key.path=value", NULL);
      }
      sets[nsets++] = argv[++i];
    } else if (!strncmp(a, "--set=", 6)) {
      sets[nsets++] = a + 6;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (i + 1 >= argc) {
        free(sets);
        return usage_error("-o needs a directory", NULL);
      }
      dir = argv[++i];
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(a, "--memory-limit")) {
      if (i + 1 >= argc) {
        free(sets);
        return usage_error("--memory-limit needs a size such as 4G", NULL);
      }
      limit = argv[++i];
    } else if (!strncmp(a, "--memory-limit=", 15)) {
      limit = a + 15;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      free(sets);
      printf("%s", RUN_HELP);
      return 0;
    } else if (a[0] == '-' && a[1] != '\0') {
      free(sets);
      return usage_error("unknown option", a);
    } else if (!file) {
      file = a;
    } else {
      free(sets);
      return usage_error("more than one FILE:", a);
    }
  }
  if (!file) {
    free(sets);
    return usage_error("no scenario FILE given", NULL);
  }

  /* 1. input: the same path as `check` (cli_prepare); nothing is written
   * before this has succeeded, except the summary.json of an allocation failure */
  cosrod_status st = COSROD_OK;
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = NULL;
  cosrod_sim_estimate est;
  int prc = cli_prepare("run", file, sets, nsets, limit, &sc, &sim, &est);
  free(sets);
  if (prc != 0) {
    if (prc == 1 && sc) write_nomem_summary(dir ? dir : sc->output.dir ? sc->output.dir : "out", sc, file, &est);
    cosrod_scenario_free(sc);
    return prc;
  }
  if (!sim) { /* rigid bodies without rods (validated by cli_prepare) */
    rc = cosrod_cmd_run_bodies(sc, file, dir, quiet);
    cosrod_scenario_free(sc);
    return rc;
  }
  if (cosrod_sim_input_warning(sim)[0]) fprintf(stderr, "%s\n", cosrod_sim_input_warning(sim));
  if (!dir) dir = sc->output.dir ? sc->output.dir : "out";

  /* 2. output directory */
  size_t nrods = cosrod_sim_nrods(sim);
  run_ctx c = {0};
  const char **names = calloc(nrods, sizeof *names);
  c.s_mid = calloc(nrods, sizeof *c.s_mid);
  double *tips = calloc(nrods * 3, sizeof *tips);
  if (!names || !c.s_mid || !tips) {
    fprintf(stderr, "cosrod run: out of memory\n");
    rc = 1;
    goto cleanup;
  }
  for (size_t r = 0; r < nrods; r++) {
    const cosrod_rod *rod = cosrod_sim_rod(sim, r);
    int N = cosrod_rod_nseg(rod);
    const double *s = cosrod_rod_grid(rod);
    names[r] = sc->rods[r].name;
    c.s_mid[r] = malloc((size_t)N * sizeof **c.s_mid);
    if (!c.s_mid[r]) {
      fprintf(stderr, "cosrod run: out of memory\n");
      rc = 1;
      goto cleanup;
    }
    for (int k = 0; k < N; k++) c.s_mid[r][k] = 0.5 * (s[k] + s[k + 1]);
  }
  cosrod_output_config cfg = cosrod_output_default_config();
  char oerr[1024] = "";
  cfg.vtk = sc->output.vtk;
  cfg.plots = sc->output.plots;
  cfg.nrods = nrods;
  cfg.rod_names = names;
  const char *bnames[64];
  if (sc->nbodies > 0 && sc->nbodies <= 64) { /* rods with bodies: bodies.csv (else body0, ...) */
    for (size_t b = 0; b < sc->nbodies; b++) bnames[b] = sc->bodies[b].name;
    cfg.body_names = bnames;
  }
  double *radius = calloc(nrods + 1, sizeof *radius); /* VTK point data "radius" */
  for (size_t r = 0; radius && r < nrods; r++) radius[r] = cli_section_radius(&sc->rods[r].section);
  cfg.rod_radius = radius;
  cfg.nbodies = cosrod_sim_nbodies(sim);
  cfg.title = sc->title;
  cfg.scenario_file = file;
  int analysis = (int)sc->analysis.type;
  const int buckling = analysis == COSROD_SC_ANALYSIS_BUCKLING;
  cfg.analysis = analysis == COSROD_SC_ANALYSIS_STATIC  ? "static"
                 : analysis == COSROD_SC_ANALYSIS_MODES ? "modes"
                 : buckling                             ? "buckling"
                                                        : "dynamic";
  if (analysis == COSROD_SC_ANALYSIS_STATIC) cfg.files = COSROD_OUTPUT_DEFAULT | COSROD_OUTPUT_INCREMENTS;
  if (analysis == COSROD_SC_ANALYSIS_MODES || buckling) cfg.files = COSROD_OUTPUT_DEFAULT | COSROD_OUTPUT_MODES;
  cfg.files = (cfg.files ? cfg.files : COSROD_OUTPUT_DEFAULT) | COSROD_OUTPUT_REACTIONS;
  if (sc->output.fields != COSROD_SC_FIELDS_DEFAULT) { /* output.fields / output.steps */
    static const unsigned map[8][2] = {
        {COSROD_SC_FIELD_TIP, COSROD_OUTPUT_TIP},           {COSROD_SC_FIELD_CENTERLINE, COSROD_OUTPUT_CENTERLINE},
        {COSROD_SC_FIELD_FRAMES, COSROD_OUTPUT_FRAMES},     {COSROD_SC_FIELD_STRAINS, COSROD_OUTPUT_STRAINS},
        {COSROD_SC_FIELD_CURVATURES, COSROD_OUTPUT_CURVATURES}, {COSROD_SC_FIELD_ENERGY, COSROD_OUTPUT_ENERGY},
        {COSROD_SC_FIELD_STEPS, COSROD_OUTPUT_STEPS},       {COSROD_SC_FIELD_REACTIONS, COSROD_OUTPUT_REACTIONS}};
    unsigned files = cfg.files ? cfg.files & (COSROD_OUTPUT_INCREMENTS | COSROD_OUTPUT_MODES) : 0;
    for (int k = 0; k < 8; k++)
      if (sc->output.fields & map[k][0]) files |= map[k][1];
    if (sc->nbodies > 0) files |= COSROD_OUTPUT_BODIES;
    cfg.files = files;
    /* no energy.csv: skip the dissipation / external work quadrature */
    if (!(sc->output.fields & COSROD_SC_FIELD_ENERGY)) cosrod_sim_set_energy_accounting(sim, 0);
  }
  if (cfg.nbodies > 0) cfg.files = (cfg.files ? cfg.files : COSROD_OUTPUT_DEFAULT) | COSROD_OUTPUT_BODIES;
  cfg.integrator = cosrod_sim_integrator_name(sim);
  cfg.t_end = sc->analysis.t_end;
  cfg.arc_length = analysis == COSROD_SC_ANALYSIS_STATIC && sc->analysis.arc_length;
  /* a long run publishes complete files every 30 s of wall time, also
   * between output times (COSROD_CHECKPOINT_EVERY: an internal override for tests) */
  cfg.checkpoint_every = 30.0;
  const char *ce = getenv("COSROD_CHECKPOINT_EVERY");
  if (ce && strtod(ce, NULL) > 0.0) cfg.checkpoint_every = strtod(ce, NULL);
  cfg.errbuf = oerr;
  cfg.errbuf_size = sizeof oerr;
  c.out = cosrod_output_create(dir, &cfg, &st);
  free(radius); /* copied by cosrod_output_create */
  if (!c.out) {
    fprintf(stderr, "cosrod run: cannot write the output directory %s: %s\n", dir,
            oerr[0] ? oerr : cosrod_strerror(st));
    rc = 1;
    goto cleanup;
  }

  char jtmp[4200] = "", jfin[4200] = "";
  if (cosrod_sim_njoints(sim) > 0) {
    size_t nj = cosrod_sim_njoints(sim), k = 0;
    c.jidx = calloc(nj, sizeof *c.jidx);
    c.jR = calloc(6 * nj, sizeof *c.jR);
    snprintf(jtmp, sizeof jtmp, "%s/.joints.csv.tmp", dir);
    snprintf(jfin, sizeof jfin, "%s/joints.csv", dir);
    c.jf = c.jidx && c.jR ? fopen(jtmp, "w") : NULL;
    if (!c.jf) {
      fprintf(stderr, "cosrod run: cannot write %s\n", jtmp);
      rc = 1;
      goto cleanup;
    }
    for (size_t j = 0; j < sc->njoints; j++)
      if (sc->joints[j].type != COSROD_SC_JOINT_BUSHING) c.jidx[k++] = (int)j;
    fprintf(c.jf, "t,joint,Fx,Fy,Fz,Mx,My,Mz\n");
  }

  /* run */
  c.t_end = sc->analysis.t_end;
  c.progress = !quiet && isatty(STDERR_FILENO);
  c.wall0 = wall_now();
  cli_stop_handlers handlers;
  cli_stop_install(&handlers);
  cosrod_sim_observer obs = {on_frame, on_step, &c, &cli_stop_flag, on_increment};
  cosrod_status run_st = cosrod_sim_run(sim, &obs);
  if (run_st == COSROD_OK && (analysis == COSROD_SC_ANALYSIS_MODES || buckling)) {
    cosrod_status mst = write_modes(&c, sim, buckling);
    if (mst != COSROD_OK) {
      c.out_status = mst;
      run_st = mst;
    }
  }
  cli_stop_restore(&handlers);
  double wall = wall_now() - c.wall0;
  if (run_st == COSROD_OK) draw_progress(&c, sim, c.t_end, cosrod_sim_h_last(sim), 1);
  clear_progress(&c);

  /* 3. close: files valid whatever happened */
  for (size_t r = 0; r < nrods; r++) cosrod_sim_tip(sim, r, tips + 3 * r);
  cosrod_output_result res = cosrod_output_default_result();
  char msg[1024];
  res.code = run_st;
  res.wall_time = wall;
  res.stats = cosrod_sim_stats(sim);
  res.t_reached = cosrod_sim_t(sim);
  res.h_last = cosrod_sim_h_last(sim);
  res.last_tips = tips;
  if (run_st == COSROD_OK) {
    res.run = COSROD_RUN_OK;
  } else if (run_st == COSROD_ERR_INTERRUPTED && cli_stop_flag) {
    res.run = COSROD_RUN_INTERRUPTED;
    snprintf(msg, sizeof msg, "interrupted by %s", cli_stop_signal_name(cli_stop_flag));
    res.message = msg;
  } else {
    res.run = COSROD_RUN_FAILED;
    if (c.out_status != COSROD_OK)
      snprintf(msg, sizeof msg, "writing the output failed: %s", cosrod_output_error(c.out));
    else
      snprintf(msg, sizeof msg, "%s", cosrod_sim_message(sim));
    res.message = msg;
    res.t_failed = cosrod_sim_fail_time(sim);
    res.last_state = cosrod_sim_state(sim);
    res.nlast_state = (size_t)cosrod_sim_ny(sim);
  }
  for (size_t i = 0; i < cosrod_sim_ncritical(sim); i++) { /* arc-length: limit / bifurcation points */
    const char *ty = NULL;
    double ct = 0.0, cl = 0.0, cd = 0.0;
    if (cosrod_sim_critical(sim, i, &ty, &ct, &cl, &cd) == COSROD_OK) cosrod_output_add_critical_point(c.out, ty, ct, cl, cd);
  }
  if (cosrod_sim_input_warning(sim)[0]) /* printed at creation; kept in summary.json */
    cosrod_output_add_warning(c.out, cosrod_sim_input_warning(sim));
  for (size_t i = 0; i < cosrod_sim_nwarnings(sim); i++) {
    cosrod_output_add_warning(c.out, cosrod_sim_warning(sim, i));
    fprintf(stderr, "cosrod run: warning: %s\n", cosrod_sim_warning(sim, i));
  }
  cosrod_status cst = cosrod_output_close(c.out, &res);
  if (cst != COSROD_OK) fprintf(stderr, "cosrod run: %s\n", cosrod_output_error(c.out));
  const cosrod_integrate_stats *s = cosrod_sim_stats(sim);
  const char *tu = analysis == COSROD_SC_ANALYSIS_DYNAMIC ? " s" : ""; /* static: pseudo-time */
  if (res.run == COSROD_RUN_OK) {
    if (!quiet) {
      cosrod_sim_energy e = cosrod_sim_energy_now(sim);
      if (analysis == COSROD_SC_ANALYSIS_DYNAMIC)
        printf("%s: t = %g s in %.2f s wall time (%s: %ld steps, %ld rejected of which %ld Newton failures, %ld "
               "f, %ld Jacobians)\n",
               sc->title && sc->title[0] ? sc->title : file, cosrod_sim_t(sim), wall,
               cosrod_sim_integrator_name(sim), s->nsteps, s->nreject, s->nconvfail, s->nfev, s->njev);
      else
        printf(
            "%s: %s analysis to t = %g in %.2f s wall time (%ld increments, %ld rejected, %ld Newton "
            "iterations)\n",
            sc->title && sc->title[0] ? sc->title : file,
            analysis == COSROD_SC_ANALYSIS_STATIC ? "static" : buckling ? "buckling" : "modal", cosrod_sim_t(sim), wall, s->naccept,
            s->nreject, s->nnewton);
      for (int i = 0; i < cosrod_sim_nmodes(sim) && i < 10; i++) {
        double om, fr;
        const char *ty = NULL;
        int gr = 0;
        cosrod_sim_mode(sim, i, &om, &fr, NULL);
        cosrod_sim_mode_info(sim, i, &ty, &gr);
        if (buckling)
          printf("  buckling mode %d: critical load factor %.9g (%s), %s\n", i + 1, cosrod_sim_load_factor(sim, i),
                 names[cosrod_sim_mode_rod(sim, i)], ty);
        else
          printf("  mode %d: %.6g Hz (omega %.6g 1/s), %s, frequency %d%s%s\n", i + 1, fr, om, ty, gr + 1,
                 nrods > 1 ? ", " : "", nrods > 1 ? names[cosrod_sim_mode_rod(sim, i)] : "");
      }
      for (size_t i = 0; i < cosrod_sim_ncritical(sim); i++) {
        const char *ty = NULL;
        double ct = 0.0, cl = 0.0, cd = 0.0;
        cosrod_sim_critical(sim, i, &ty, &ct, &cl, &cd);
        printf("  %s point at t = %.6g: load factor %.6g, displacement %.6g m\n", ty, ct, cl, cd);
      }
      for (size_t r = 0; r < nrods; r++)
        printf("  tip of %s: (%.6g, %.6g, %.6g) m\n", names[r], tips[3 * r], tips[3 * r + 1],
               tips[3 * r + 2]);
      printf("  energy: kinetic %.6g J, elastic %.6g J, gravity %.6g J, dissipated %.6g J, balance %.9g J\n",
             e.kinetic, e.elastic, e.gravity, e.dissipated, e.balance);
      printf("  output: %s/ (summary.json, *.csv%s%s)\n", dir, sc->output.vtk ? ", vtk/cosrod.pvd" : "",
             sc->output.plots ? ", plots/*.png" : "");
    }
    rc = cst == COSROD_OK ? 0 : 1;
  } else if (res.run == COSROD_RUN_INTERRUPTED) {
    fprintf(stderr, "cosrod run: interrupted by %s at t = %g%s; files up to then are in %s/\n",
            cli_stop_signal_name(cli_stop_flag), cosrod_sim_t(sim), tu, dir);
    rc = 128 + cli_stop_flag;
  } else {
    fprintf(stderr, "cosrod run: %s: the run failed at t = %g%s: %s; files up to t = %g%s are in %s/\n", file,
            isfinite(res.t_failed) ? res.t_failed : cosrod_sim_t(sim), tu, res.message, cosrod_sim_t(sim), tu,
            dir);
    if (run_st == COSROD_ERR_MAX_STEPS)
      fprintf(stderr, "cosrod run: hint: raise solver.max_steps (--set solver.max_steps=...)%s\n",
              cosrod_sim_stats(sim)->njev == 0
                  ? ", or take an implicit integrator (radau5, rodas) if the rod is stiff"
                  : "");
    rc = 1;
  }
  cli_write_view_after_run(dir, sc, quiet); /* scene.json, view.html (SPEC §12) */

cleanup:
  if (c.jf && (fclose(c.jf) != 0 || rename(jtmp, jfin) != 0)) {
    fprintf(stderr, "cosrod run: cannot write %s\n", jfin);
    if (rc == 0) rc = 1;
  }
  free(c.jidx);
  free(c.jR);
  cosrod_output_free(c.out);
  if (c.s_mid)
    for (size_t r = 0; r < nrods; r++) free(c.s_mid[r]);
  free(c.s_mid);
  free(names);
  free(tips);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return rc;
}
