// SPDX-License-Identifier: Apache-2.0
/* The recorder (include/cosrod/record.h): which files a scenario asks for
 * (output.*, analysis type) and one frame / step / increment of a
 * simulation -> the output module's writers.  joints.csv (the joints'
 * reaction wrenches) is written here directly, as DIR/.joints.csv.tmp
 * renamed into place when the run is finished. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/record.h"
#include "cosrod/rod.h"
#include "cosrod/scenario.h"
#include "record_internal.h"
#include "core/error.h"
#include "record_scene.h"

static void set_msg(char *msg, size_t len, const char *text) {
  if (msg && len) snprintf(msg, len, "%s", text);
}

/* The files of an analysis: cosrod_output's bits from analysis.type and
 * output.fields.  The energy accounting stays on whatever is written: the
 * monitor of silent wrong answers (src/sim/sim_monitor.c) judges the energy
 * balance, and energies that are not written must not count as non-finite. */
static unsigned files_of(const cosrod_scenario *sc, size_t nbodies) {
  const int analysis = (int)sc->analysis.type;
  const int buckling = analysis == COSROD_SC_ANALYSIS_BUCKLING;
  unsigned files = 0;
  if (analysis == COSROD_SC_ANALYSIS_STATIC) files = COSROD_OUTPUT_DEFAULT | COSROD_OUTPUT_INCREMENTS;
  if (analysis == COSROD_SC_ANALYSIS_MODES || buckling) files = COSROD_OUTPUT_DEFAULT | COSROD_OUTPUT_MODES;
  files = (files ? files : COSROD_OUTPUT_DEFAULT) | COSROD_OUTPUT_REACTIONS;
  if (sc->output.fields != COSROD_SC_FIELDS_DEFAULT) { /* output.fields / output.steps */
    static const unsigned map[8][2] = {
        {COSROD_SC_FIELD_TIP, COSROD_OUTPUT_TIP},
        {COSROD_SC_FIELD_CENTERLINE, COSROD_OUTPUT_CENTERLINE},
        {COSROD_SC_FIELD_FRAMES, COSROD_OUTPUT_FRAMES},
        {COSROD_SC_FIELD_STRAINS, COSROD_OUTPUT_STRAINS},
        {COSROD_SC_FIELD_CURVATURES, COSROD_OUTPUT_CURVATURES},
        {COSROD_SC_FIELD_ENERGY, COSROD_OUTPUT_ENERGY},
        {COSROD_SC_FIELD_STEPS, COSROD_OUTPUT_STEPS},
        {COSROD_SC_FIELD_REACTIONS, COSROD_OUTPUT_REACTIONS}};
    unsigned f = files & (COSROD_OUTPUT_INCREMENTS | COSROD_OUTPUT_MODES);
    for (int k = 0; k < 8; k++)
      if (sc->output.fields & map[k][0]) f |= map[k][1];
    if (sc->nbodies > 0) f |= COSROD_OUTPUT_BODIES;
    files = f;
  }
  if (nbodies > 0) files = (files ? files : COSROD_OUTPUT_DEFAULT) | COSROD_OUTPUT_BODIES;
  if (sc->nrods == 0) /* rigid bodies alone: no rod files */
    files &= COSROD_OUTPUT_ENERGY | COSROD_OUTPUT_BODIES | COSROD_OUTPUT_STEPS | COSROD_OUTPUT_INCREMENTS |
             COSROD_OUTPUT_MODES;
  return files;
}

static const char *analysis_name(const cosrod_scenario *sc) {
  switch (sc->analysis.type) {
    case COSROD_SC_ANALYSIS_STATIC:
      return "static";
    case COSROD_SC_ANALYSIS_MODES:
      return "modes";
    case COSROD_SC_ANALYSIS_BUCKLING:
      return "buckling";
    default:
      return "dynamic";
  }
}

/* joints.csv: header, scenario index of every joint (bushings are not joints) */
static cosrod_status open_joints(cosrod_recorder *r, const cosrod_sim *sim, const char *dir) {
  const cosrod_scenario *sc = r->sc;
  size_t nj = cosrod_sim_njoints(sim), k = 0;
  if (nj == 0) return COSROD_OK;
  r->jidx = calloc(nj, sizeof *r->jidx);
  r->jR = calloc(6 * nj, sizeof *r->jR);
  size_t len = strlen(dir) + 32;
  r->jtmp = malloc(len);
  r->jfin = malloc(len);
  if (!r->jidx || !r->jR || !r->jtmp || !r->jfin) return COSROD_ERR_NOMEM;
  for (size_t j = 0; j < sc->njoints; j++)
    if (sc->joints[j].type != COSROD_SC_JOINT_BUSHING) r->jidx[k++] = (int)j;
  if (sc->output.format == COSROD_SC_FORMAT_HDF5) { /* a table of run.h5 */
    r->jtab = cosrod_output_add_table(r->out, "joints", "t,joint,Fx,Fy,Fz,Mx,My,Mz", "s,-,N,N,N,N m,N m,N m");
    return r->jtab >= 0 ? COSROD_OK : COSROD_ERR_IO;
  }
  snprintf(r->jtmp, len, "%s/.joints.csv.tmp", dir);
  snprintf(r->jfin, len, "%s/joints.csv", dir);
  r->jf = fopen(r->jtmp, "w");
  if (!r->jf) return COSROD_ERR_IO;
  fprintf(r->jf, "t,joint,Fx,Fy,Fz,Mx,My,Mz\n");
  return ferror(r->jf) ? COSROD_ERR_IO : COSROD_OK;
}

static cosrod_recorder *recorder_create(cosrod_sim *sim, const char *dir, const char *scenario_file,
                                        double checkpoint_every, cosrod_status *status, char *msg,
                                        size_t msglen) {
  return record_create_impl(sim, dir, scenario_file, checkpoint_every, NULL, 0, NULL, status, msg, msglen);
}

cosrod_recorder *record_create_impl(cosrod_sim *sim, const char *dir, const char *scenario_file,
                                    double checkpoint_every, const void *pos, size_t npos, const double *own,
                                    cosrod_status *status, char *msg, size_t msglen) {
  cosrod_status st = COSROD_OK;
  set_msg(msg, msglen, "");
  cosrod_recorder *r = calloc(1, sizeof *r);
  const cosrod_scenario *sc = cosrod_sim_scenario(sim);
  const size_t nrods = cosrod_sim_nrods(sim);
  if (!r) goto nomem;
  r->jtab = -1;
  r->dir = malloc(strlen(dir) + 1);
  if (!r->dir) goto nomem;
  strcpy(r->dir, dir);
  r->sc = sc;
  r->sim = sim;
  r->nrods = nrods;
  r->names = calloc(nrods + 1, sizeof *r->names);
  r->bnames = calloc(sc->nbodies + 1, sizeof *r->bnames);
  r->s_mid = calloc(nrods + 1, sizeof *r->s_mid);
  r->tips = calloc(3 * nrods + 1, sizeof *r->tips);
  r->reac = calloc(12 * nrods + 1, sizeof *r->reac);
  r->sup = calloc(2 * nrods + 1, sizeof *r->sup);
  if (!r->names || !r->bnames || !r->s_mid || !r->tips || !r->reac || !r->sup) goto nomem;
  for (size_t k = 0; k < nrods; k++) {
    const cosrod_rod *rod = cosrod_sim_rod(sim, k);
    int N = cosrod_rod_nseg(rod);
    const double *s = cosrod_rod_grid(rod);
    r->names[k] = sc->rods[k].name;
    r->s_mid[k] = malloc((size_t)N * sizeof **r->s_mid);
    if (!r->s_mid[k]) goto nomem;
    for (int i = 0; i < N; i++) r->s_mid[k][i] = 0.5 * (s[i] + s[i + 1]);
  }
  for (size_t b = 0; b < sc->nbodies; b++) r->bnames[b] = sc->bodies[b].name;
  cosrod_output_config cfg = cosrod_output_default_config();
  cfg.vtk = sc->output.vtk;
  cfg.plots = sc->output.plots;
  cfg.nrods = nrods;
  cfg.rod_names = r->names;
  cfg.nbodies = cosrod_sim_nbodies(sim);
  if (sc->nbodies > 0) cfg.body_names = r->bnames;
  if (nrods == 0 && cfg.nbodies > 0) { /* bodies alone: drawn as inertia ellipsoids in the VTK files */
    r->semi = calloc(7 * cfg.nbodies, sizeof *r->semi);
    if (!r->semi) goto nomem;
    for (size_t b = 0; b < cfg.nbodies; b++)
      if (cosrod_sim_body_ellipsoid(sim, b, r->semi + 3 * b, r->semi + 3 * cfg.nbodies + 4 * b) != COSROD_OK)
        r->semi[3 * cfg.nbodies + 4 * b] = 1.0; /* keyframe body: a point, identity axes */
    cfg.body_semi_axes = r->semi;
    cfg.body_axes = r->semi + 3 * cfg.nbodies;
  }
  cfg.title = sc->title;
  cfg.scenario_file = scenario_file;
  cfg.analysis = analysis_name(sc);
  cfg.files = files_of(sc, cfg.nbodies);
  cfg.integrator = cosrod_sim_integrator_name(sim);
  cfg.t_end = sc->analysis.t_end;
  cfg.arc_length = sc->analysis.type == COSROD_SC_ANALYSIS_STATIC && sc->analysis.arc_length;
  cfg.checkpoint_every = checkpoint_every > 0.0 ? checkpoint_every : 30.0;
  cfg.format = sc->output.format == COSROD_SC_FORMAT_HDF5 ? COSROD_OUTPUT_FORMAT_HDF5 : COSROD_OUTPUT_FORMAT_CSV;
  cfg.resume = pos;
  cfg.resume_size = npos;
  double *radius = calloc(nrods + 1, sizeof *radius); /* VTK point data "radius" (copied by output) */
  if (!radius) goto nomem;
  cosrod_output_section *sections = calloc(nrods + 1, sizeof *sections); /* VTK section arrays (copied) */
  if (!sections) {
    free(radius);
    goto nomem;
  }
  for (size_t k = 0; k < nrods; k++) {
    radius[k] = record_rod_radius(&sc->rods[k], NULL);
    record_rod_section(&sc->rods[k], sections + k);
  }
  cfg.rod_radius = radius;
  cfg.rod_sections = sections;
  char *yaml = NULL; /* run.h5 keeps the scenario (as cosrod reads it back) */
  size_t yaml_len = 0;
  if (cfg.format == COSROD_OUTPUT_FORMAT_HDF5) {
    FILE *ym = open_memstream(&yaml, &yaml_len);
    if (ym) {
      if (cosrod_scenario_to_yaml(sc, ym) != COSROD_OK) yaml_len = 0;
      fclose(ym);
    }
    cfg.scenario_text = yaml && yaml_len ? yaml : NULL;
  }
  r->out = cosrod_output_create(dir, &cfg, &st);
  free(radius);
  free(sections);
  free(yaml);
  if (!r->out) {
    if (msg && msglen)
      snprintf(msg, msglen, "cannot write the output directory %s: %s", dir, cosrod_last_error());
    goto fail;
  }
  if (pos && record_own_stash(dir) != COSROD_OK) { /* a resume: the killed run's own files kept aside */
    st = COSROD_ERR_IO;
    if (msg && msglen) snprintf(msg, msglen, "cannot rename the temporary files in %s", dir);
    goto fail;
  }
  st = open_joints(r, sim, dir);
  if (st != COSROD_OK) {
    if (msg && msglen) snprintf(msg, msglen, "cannot write %s", r->jtmp ? r->jtmp : "joints.csv");
    goto fail;
  }
  st = record_contact_open(r, dir);
  if (st != COSROD_OK) {
    if (msg && msglen) snprintf(msg, msglen, "cannot write %s", r->ctmp ? r->ctmp : "contacts.csv");
    goto fail;
  }
  if (pos && own && (st = record_own_restore(r, own, msg, msglen)) != COSROD_OK) goto fail;
  if (record_ckpt_setup(r, scenario_file, cfg.checkpoint_every, pos != NULL) != COSROD_OK) goto nomem;
  if (status) *status = COSROD_OK;
  return r;
nomem:
  st = COSROD_ERR_NOMEM;
  set_msg(msg, msglen, "out of memory");
fail:
  cosrod_recorder_free(r);
  if (status) *status = st;
  return NULL;
}

cosrod_recorder *cosrod_recorder_create(cosrod_sim *sim, const char *dir, const char *scenario_file,
                                        double checkpoint_every, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  if (!sim || !dir || !*dir)
    return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_recorder_create: %s",
                             sim ? "no output directory" : "no simulation (NULL)");
  cosrod_recorder *obj = recorder_create(sim, dir, scenario_file, checkpoint_every, &st, msg, sizeof msg);
  return cosrod_error_result(obj, status, st, msg);
}

void cosrod_recorder_free(cosrod_recorder *r) {
  if (!r) return;
  if (r->jf) { /* not finished: the temporary file goes */
    fclose(r->jf);
    remove(r->jtmp);
  }
  record_contact_free(r);
  record_ckpt_free(r);
  cosrod_output_free(r->out);
  for (size_t k = 0; r->s_mid && k < r->nrods; k++) free(r->s_mid[k]);
  free(r->s_mid);
  free(r->names);
  free(r->bnames);
  free(r->tips);
  free(r->reac);
  free(r->sup);
  free(r->semi);
  free(r->jidx);
  free(r->jR);
  free(r->jtmp);
  free(r->jfin);
  free(r->dir);
  free(r);
}

const char *cosrod_recorder_error(const cosrod_recorder *r) {
  if (!r) return "";
  if (r->err[0]) return r->err;
  return r->out ? cosrod_output_error(r->out) : "";
}

static cosrod_status frame_rods(cosrod_recorder *r, const cosrod_sim *sim) {
  cosrod_status st = COSROD_OK;
  for (size_t k = 0; st == COSROD_OK && k < cosrod_sim_nrods(sim); k++) {
    const cosrod_rod *rod = cosrod_sim_rod(sim, k);
    const cosrod_rod_data *d = cosrod_sim_rod_data(sim, k);
    cosrod_output_rod_frame fr = {0};
    fr.n = (size_t)cosrod_rod_nseg(rod);
    fr.s_vertices = cosrod_rod_grid(rod);
    fr.x = d->x;
    fr.s_segments = r->s_mid[k];
    fr.p = d->p;
    fr.gamma = d->Gamma;
    fr.F = d->F;
    fr.K = d->K;
    fr.M = d->M;
    st = cosrod_output_write_rod(r->out, k, &fr);
  }
  r->have_reac = 0;
  for (size_t k = 0; st == COSROD_OK && k < cosrod_sim_nrods(sim); k++) { /* reactions.csv */
    double *R = r->reac + 12 * k;
    int *sup = r->sup + 2 * k;
    st = cosrod_sim_reactions(sim, k, R, sup);
    for (int e = 0; st == COSROD_OK && e < 2; e++)
      if (sup[e]) st = cosrod_output_write_reaction(r->out, k, e, R + 6 * e, R + 6 * e + 3);
  }
  r->have_reac = st == COSROD_OK;
  return st;
}

static cosrod_status frame_bodies(cosrod_recorder *r, const cosrod_sim *sim, double t) {
  cosrod_status st = COSROD_OK;
  for (size_t b = 0; st == COSROD_OK && b < cosrod_sim_nbodies(sim); b++) { /* bodies.csv */
    double x[3], q[4], Om[3], v[3], ke, pe;
    st = cosrod_sim_body(sim, b, x, q, Om);
    if (st == COSROD_OK) st = cosrod_sim_body_velocity(sim, b, v);
    if (st == COSROD_OK) {
      cosrod_sc_body_energy(&r->sc->bodies[b], r->sc->gravity, x, v, Om, &ke, &pe);
      st = cosrod_output_write_body(r->out, b, x, q, Om, v, ke, pe);
    }
  }
  if (st == COSROD_OK && r->jtab >= 0 && cosrod_sim_joint_reactions(sim, r->jR) == COSROD_OK) { /* run.h5 */
    for (size_t j = 0; j < cosrod_sim_njoints(sim) && st == COSROD_OK; j++) {
      double row[8] = {t, r->jidx[j]};
      memcpy(row + 2, r->jR + 6 * j, 6 * sizeof *row);
      st = cosrod_output_table_row(r->out, r->jtab, row);
    }
  }
  if (st == COSROD_OK && r->jf && cosrod_sim_joint_reactions(sim, r->jR) == COSROD_OK) { /* joints.csv */
    for (size_t j = 0; j < cosrod_sim_njoints(sim); j++) {
      const double *w = r->jR + 6 * j;
      char num[8][32];
      cosrod_output_format_number(num[0], t);
      for (int c = 0; c < 6; c++) cosrod_output_format_number(num[c + 1], w[c]);
      fprintf(r->jf, "%s,%d,%s,%s,%s,%s,%s,%s\n", num[0], r->jidx[j], num[1], num[2], num[3], num[4], num[5],
              num[6]);
    }
    if (ferror(r->jf)) {
      st = COSROD_ERR_IO;
      snprintf(r->err, sizeof r->err, "cannot write %s", r->jtmp);
    }
  }
  return st;
}

static int frame_impl(cosrod_recorder *r, const cosrod_sim *sim, double t) {
  cosrod_status st = cosrod_output_frame_begin(r->out, t);
  if (st == COSROD_OK) st = frame_rods(r, sim);
  if (st == COSROD_OK) st = frame_bodies(r, sim, t);
  if (st == COSROD_OK && cosrod_recorder_contacts(r, t, cosrod_sim_contact_data(sim), NULL) != 0) st = COSROD_ERR_IO;
  if (st == COSROD_OK) {
    cosrod_sim_energy e = cosrod_sim_energy_now(sim);
    cosrod_output_energy oe = {e.kinetic, e.elastic, e.gravity, e.external_work, e.dissipated};
    st = cosrod_output_write_energy(r->out, &oe);
  }
  if (st == COSROD_OK) st = cosrod_output_frame_end(r->out);
  if (st == COSROD_OK) st = record_ckpt_frame(r, sim, t); /* checkpoint.bin when due (record_resume.c) */
  if (st != COSROD_OK) {
    r->out_status = st;
    return -1;
  }
  return 0;
}

cosrod_status cosrod_recorder_reactions(const cosrod_recorder *r, size_t rod, double R[12], int supported[2]) {
  if (!r || !r->have_reac || rod >= r->nrods) return COSROD_ERR_INVALID;
  memcpy(R, r->reac + 12 * rod, 12 * sizeof *R);
  supported[0] = r->sup[2 * rod], supported[1] = r->sup[2 * rod + 1];
  return COSROD_OK;
}

static int step_impl(cosrod_recorder *r, double t, double h, int accepted) {
  if (accepted) record_contact_track(r, r->sim, cosrod_sim_t(r->sim)); /* summary.json "contact" */
  cosrod_status st = cosrod_output_write_step(r->out, t, h, accepted);
  if (st == COSROD_OK) st = cosrod_output_checkpoint_poll(r->out); /* also between output times */
  if (st == COSROD_OK) st = record_ckpt_poll(r, 0);                 /* a held first record when due */
  if (st != COSROD_OK) {
    r->out_status = st;
    return -1;
  }
  return 0;
}

static int increment_impl(cosrod_recorder *r, const cosrod_sim *sim, double t, long iterations, double residual) {
  record_contact_track(r, sim, t); /* summary.json "contact" */
  double lf, disp;
  int idx, crit;
  cosrod_status st = cosrod_sim_arc_step(sim, &lf, &disp, &idx, &crit) /* arc-length: the path columns */
                         ? cosrod_output_write_increment_arc(r->out, t, iterations, residual, lf, disp, idx, crit)
                         : cosrod_output_write_increment(r->out, t, iterations, residual);
  if (st == COSROD_OK) st = cosrod_output_checkpoint_poll(r->out);
  if (st == COSROD_OK) st = record_ckpt_poll(r, 0);
  if (st != COSROD_OK) {
    r->out_status = st;
    return -1;
  }
  return 0;
}

/* The public entry points accumulate their wall time in r->t_out (the cost
 * of output: quantities derived from the state, formatting, writing). */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
int cosrod_recorder_frame(cosrod_recorder *r, const cosrod_sim *sim, double t) {
  double t0 = now_s();
  int rc = frame_impl(r, sim, t);
  r->t_out += now_s() - t0;
  return rc;
}
int cosrod_recorder_step(cosrod_recorder *r, double t, double h, int accepted) {
  double t0 = now_s();
  int rc = step_impl(r, t, h, accepted);
  r->t_out += now_s() - t0;
  return rc;
}
int cosrod_recorder_increment(cosrod_recorder *r, const cosrod_sim *sim, double t, long iterations,
                              double residual) {
  double t0 = now_s();
  int rc = increment_impl(r, sim, t, iterations, residual);
  r->t_out += now_s() - t0;
  return rc;
}

static int obs_frame(void *user, const cosrod_sim *sim, double t) {
  return cosrod_recorder_frame(user, sim, t);
}
static int obs_step(void *user, const cosrod_sim *sim, double t, double h, int accepted) {
  (void)sim;
  return cosrod_recorder_step(user, t, h, accepted);
}
static int obs_increment(void *user, const cosrod_sim *sim, double t, long iterations, double residual) {
  return cosrod_recorder_increment(user, sim, t, iterations, residual);
}

cosrod_sim_observer cosrod_recorder_observer(cosrod_recorder *r, const volatile sig_atomic_t *stop) {
  cosrod_sim_observer obs = {obs_frame, obs_step, r, stop, obs_increment};
  return obs;
}
