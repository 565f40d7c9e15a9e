// SPDX-License-Identifier: Apache-2.0
/* Benchmarks (never timed tests):
 *
 *   bench_galpha run SCENARIO [--set k=v]...
 *       one cosrod_sim_run without file output (energy accounting off),
 *       prints: status wall nfev njev nsteps naccept nreject nconvfail ndecomp nnewton tip_x tip_y tip_z
 *       (the tip of rod 0, or without rods the position of body 0)
 *   bench_galpha cantilever [--set k=v]...
 *       the pulsed undamped steel cantilever (L = 1, r = 0.01, steel, clamped,
 *       N = 40, 50 N tip pulse along -e3 for 2 ms, 2 s): f1 from the upward
 *       zero crossings of the first z-bending mode's coordinate (least
 *       squares of the vertex z on the 4 lowest z-bending shapes; frames
 *       every 1 ms after t = 0.05 s)
 *       against the modal analysis of the same rod; prints
 *       f_modal f_measured rel_err wall nsteps nreject nnewton njev ndecomp
 *   bench_galpha steps SCENARIO NSTEPS H [--set k=v]...
 *       NSTEPS calls of cosrod_sim_step(sim, H): wall per step.
 * wall = the integrator's own wall time (cosrod_sim_run) or the loop's
 * (steps); run several times and take the minimum on a shared machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"

static const char *STEEL_FMT =
    "cosrod: 1\n"
    "rods:\n"
    "  - length: 1.0\n"
    "    segments: 40\n"
    "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
    "    ends: {start: {type: clamped}}\n"
    "    loads:\n"
    "      - {type: force, at: end, value: [0, 0, -50.0], frame: spatial, active: [0, 0.002]}\n"
    "analysis: %s\n"
    "solver: {integrator: galpha, h: 1.0e-3, rho_inf: 0.8}\n"
    "output: {every: 1.0e-3, vtk: false, plots: false}\n";

static double now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static cosrod_sim *make(const char *file, const char *text, const char *const *sets, size_t nsets,
                        cosrod_scenario **sc) {
  cosrod_status st = COSROD_OK;
  *sc = text ? cosrod_scenario_parse(text, strlen(text), "steel.yaml", sets, nsets, &st)
             : cosrod_scenario_load(file, sets, nsets, &st);
  if (!*sc) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return NULL;
  }
  cosrod_sim *sim = cosrod_sim_create(*sc, &st);
  if (!sim) fprintf(stderr, "%s\n", cosrod_last_error());
  return sim;
}

/* The first mode's coordinate from the vertex z displacements: least
 * squares on the dz columns of the NB lowest z-bending modes (the tip pulse
 * excites modes 2, 3 with 1/6 and 1/17 of mode 1's amplitude, whose extra
 * zero crossings would spoil a count on the tip z alone). */
enum { NB = 4, NV = 41 };
typedef struct {
  double tprev, zprev, t0, t1;
  int nc, nb;
  double phi[NB][NV]; /* dz of the z-bending modes at the vertices */
  double G[NB][NB];   /* Cholesky factor of phi phi^T */
} crossings;

static void modal_setup(crossings *c, const cosrod_sim *sim) {
  c->nb = 0;
  for (int i = 0; i < cosrod_sim_nmodes(sim) && c->nb < NB; i++) {
    const double *sh;
    double om, f, nz = 0, nxy = 0;
    cosrod_sim_mode(sim, i, &om, &f, &sh);
    for (int v = 0; v < NV; v++) nz += sh[6 * v + 2] * sh[6 * v + 2], nxy += sh[6 * v] * sh[6 * v] + sh[6 * v + 1] * sh[6 * v + 1];
    if (nz < 10 * nxy) continue;
    for (int v = 0; v < NV; v++) c->phi[c->nb][v] = sh[6 * v + 2];
    c->nb++;
  }
  for (int i = 0; i < c->nb; i++)
    for (int j = 0; j <= i; j++) {
      double a = 0;
      for (int v = 0; v < NV; v++) a += c->phi[i][v] * c->phi[j][v];
      for (int k = 0; k < j; k++) a -= c->G[i][k] * c->G[j][k];
      c->G[i][j] = i == j ? sqrt(a) : a / c->G[j][j];
    }
}

static double modal_coord1(const crossings *c, const cosrod_sim *sim) {
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  double b[NB];
  for (int i = 0; i < c->nb; i++) {
    b[i] = 0;
    for (int v = 0; v < NV; v++) b[i] += c->phi[i][v] * d->x[3 * v + 2];
    for (int k = 0; k < i; k++) b[i] -= c->G[i][k] * b[k];
    b[i] /= c->G[i][i];
  }
  for (int i = c->nb - 1; i >= 0; i--) {
    for (int k = i + 1; k < c->nb; k++) b[i] -= c->G[k][i] * b[k];
    b[i] /= c->G[i][i];
  }
  return b[0];
}

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  crossings *c = user;
  double z = modal_coord1(c, sim) * (c->phi[0][NV - 1] < 0 ? -1.0 : 1.0);
  if (t > 0.05 && c->zprev < 0 && z >= 0) {
    double tc = c->tprev + (t - c->tprev) * (-c->zprev) / (z - c->zprev);
    if (c->nc == 0) c->t0 = tc;
    c->t1 = tc;
    c->nc++;
  }
  c->tprev = t;
  c->zprev = z;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s run SCENARIO | cantilever | steps SCENARIO NSTEPS H  [--set k=v]...\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  int a = 2;
  const char *file = NULL;
  long nsteps = 0;
  double H = 0;
  if (!strcmp(mode, "run") || !strcmp(mode, "steps")) file = argv[a++];
  if (!strcmp(mode, "steps")) {
    nsteps = atol(argv[a++]);
    H = atof(argv[a++]);
  }
  const char *sets[64];
  size_t ns = 0;
  for (; a + 1 < argc && ns < 64; a += 2)
    if (!strcmp(argv[a], "--set")) sets[ns++] = argv[a + 1];
  cosrod_scenario *sc = NULL;
  if (!strcmp(mode, "cantilever")) {
    char text[4096];
    snprintf(text, sizeof text, STEEL_FMT, "{type: modes, count: 6}");
    cosrod_sim *sim = make(NULL, text, NULL, 0, &sc);
    if (!sim || cosrod_sim_run(sim, NULL) != COSROD_OK) return 1;
    double om, f1;
    cosrod_sim_mode(sim, 0, &om, &f1, NULL);
    crossings c = {0};
    modal_setup(&c, sim);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    snprintf(text, sizeof text, STEEL_FMT, "{type: dynamic, t_end: 2.0}");
    sim = make(NULL, text, sets, ns, &sc);
    if (!sim) return 1;
    cosrod_sim_set_energy_accounting(sim, 0);
    cosrod_sim_observer obs = {on_frame, NULL, &c, NULL, NULL};
    clock_t c0 = clock();
    cosrod_status st = cosrod_sim_run(sim, &obs);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    const cosrod_integrate_stats *s = cosrod_sim_stats(sim);
    double f = c.nc > 1 ? (c.nc - 1) / (c.t1 - c.t0) : NAN;
    printf("%s f_modal %.5f f_galpha %.5f rel_err %.3e wall %.4f cpu %.4f steps %ld reject %ld newton %ld jac %ld lu %ld\n",
           st == COSROD_OK ? "ok" : "failed", f1, f, f / f1 - 1, s->wall_time, cpu, s->naccept, s->nreject, s->nnewton,
           s->njev, s->ndecomp);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    return 0;
  }
  cosrod_sim *sim = make(file, NULL, sets, ns, &sc);
  if (!sim) return 1;
  cosrod_sim_set_energy_accounting(sim, 0);
  if (!strcmp(mode, "steps")) {
    double w0 = now();
    cosrod_status st = COSROD_OK;
    long k = 0;
    for (; k < nsteps && st == COSROD_OK; k++) st = cosrod_sim_step(sim, H);
    double w = now() - w0;
    const cosrod_integrate_stats *s = cosrod_sim_stats(sim);
    double tip[3] = {0, 0, 0};
    if (cosrod_sim_nrods(sim) > 0) cosrod_sim_tip(sim, 0, tip);
    printf("%s steps %ld wall %.4f per_step_us %.3f rtf %.1f nnewton %ld njev %ld tip %.12g %.12g %.12g\n",
           st == COSROD_OK ? "ok" : "failed", k, w, 1e6 * w / (double)k, (double)k * H / w, s->nnewton, s->njev,
           tip[0], tip[1], tip[2]);
  } else {
    clock_t c0 = clock();
    cosrod_status st = cosrod_sim_run(sim, NULL);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    const cosrod_integrate_stats *s = cosrod_sim_stats(sim);
    double tip[3] = {0, 0, 0}, qb[4], Om[3];
    if (cosrod_sim_nrods(sim) > 0)
      cosrod_sim_tip(sim, 0, tip);
    else if (cosrod_sim_nbodies(sim) > 0) /* bodies only: the first body's position */
      cosrod_sim_body(sim, 0, tip, qb, Om);
    printf("%s wall %.4f cpu %.4f nfev %ld njev %ld nsteps %ld naccept %ld nreject %ld nconvfail %ld ndecomp %ld nnewton %ld "
           "tip %.12g %.12g %.12g\n",
           st == COSROD_OK ? "ok" : cosrod_sim_message(sim), s->wall_time, cpu, s->nfev, s->njev, s->nsteps, s->naccept,
           s->nreject, s->nconvfail, s->ndecomp, s->nnewton, tip[0], tip[1], tip[2]);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return 0;
}
