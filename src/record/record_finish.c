// SPDX-License-Identifier: Apache-2.0
/* The end of a recorded run (include/cosrod/record.h): modes / buckling
 * shapes (the bodies' part: record_mode_bodies.c), critical points, warnings,
 * summary.json, joints.csv in place. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/rod.h"
#include "cosrod/scenario.h"
#include "record_internal.h"
#include "record_scene.h"

/* modes.csv or buckling.csv (one row per mode and vertex), vtk/modes.pvd +
 * mode_<k>.vtp and the data of plots/modes.png or plots/buckling.png: the
 * shapes about the equilibrium at t = 0 (buckling: about the unloaded
 * state), each mode of its rod and, for coupled rods, of every other rod
 * that moves in it. */
static cosrod_status write_modes(cosrod_recorder *r, const cosrod_sim *sim, int buckling) {
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
  for (size_t k = 0; k < nrods; k++) {
    const cosrod_rod *rod = cosrod_sim_rod(sim, k);
    rn[k] = (size_t)cosrod_rod_nseg(rod);
    rs[k] = cosrod_rod_grid(rod);
    rx[k] = cosrod_sim_rod_data(sim, k)->x;
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
  /* the other rods' parts of a mode of coupled rods where they move: largest
   * entry above 1e-6 of the listed rod's (below: round-off of separate rods) */
  const double **others = calloc((size_t)count * nrods + 1, sizeof *others);
  if (!others) {
    free(fr), free(types), free(groups), free(mrod), free(rn), free(rs), free(rx);
    return COSROD_ERR_NOMEM;
  }
  for (int i = 0; i < count; i++)
    for (size_t k = 0; k < nrods; k++) {
      const double *o = NULL;
      if (k == mrod[i] || cosrod_sim_mode_rod_shape(sim, i, k, &o) != COSROD_OK || !o) continue;
      double own = 0.0, big = 0.0;
      for (size_t j = 0; j < 6 * (rn[mrod[i]] + 1); j++) own = fmax(own, fabs(shapes[(size_t)i * m.stride + j]));
      for (size_t j = 0; j < 6 * (rn[k] + 1); j++) big = fmax(big, fabs(o[j]));
      if (big > 1e-6 * own) others[(size_t)i * nrods + k] = o;
    }
  m.rod_shapes = others;
  cosrod_status st = cosrod_output_write_modes(r->out, &m);
  free(fr), free(types), free(groups), free(mrod), free(rn), free(rs), free(rx), free(others);
  return st;
}

/* summary.json's view of the run: ok / interrupted / failed with a message */
static void outcome(cosrod_recorder *r, const cosrod_sim *sim, cosrod_status run_st, const char *interrupted_by,
                    cosrod_output_result *res) {
  if (run_st == COSROD_OK) {
    res->run = COSROD_RUN_OK;
    r->msg[0] = '\0';
    return;
  }
  if (run_st == COSROD_ERR_INTERRUPTED && interrupted_by) {
    res->run = COSROD_RUN_INTERRUPTED;
    snprintf(r->msg, sizeof r->msg, "interrupted by %s", interrupted_by);
    res->message = r->msg;
    return;
  }
  res->run = COSROD_RUN_FAILED;
  if (r->out_status != COSROD_OK)
    snprintf(r->msg, sizeof r->msg, "writing the output failed: %s", cosrod_output_error(r->out));
  else
    snprintf(r->msg, sizeof r->msg, "%s", cosrod_sim_message(sim));
  res->message = r->msg;
  res->t_failed = cosrod_sim_fail_time(sim);
  res->last_state = cosrod_sim_state(sim);
  res->nlast_state = (size_t)cosrod_sim_ny(sim);
}

cosrod_status cosrod_recorder_finish(cosrod_recorder *r, const cosrod_sim *sim, cosrod_status run_st,
                                     double wall_time, const char *interrupted_by, cosrod_record_end *end) {
  const cosrod_scenario *sc = r->sc;
  const int buckling = sc->analysis.type == COSROD_SC_ANALYSIS_BUCKLING;
  if (run_st == COSROD_OK && (sc->analysis.type == COSROD_SC_ANALYSIS_MODES || buckling)) {
    cosrod_status mst = write_modes(r, sim, buckling);
    if (mst != COSROD_OK) r->out_status = run_st = mst;
  }
  for (size_t k = 0; k < r->nrods; k++) cosrod_sim_tip(sim, k, r->tips + 3 * k);
  cosrod_output_result res = cosrod_output_default_result();
  res.code = run_st;
  res.wall_time = wall_time + r->ck_wall0; /* a resumed run: plus the wall time up to its checkpoint */
  res.stats = cosrod_sim_stats(sim);
  res.t_reached = cosrod_sim_t(sim);
  res.h_last = cosrod_sim_h_last(sim);
  res.last_tips = r->tips;
  res.output_wall_time = r->t_out;
  outcome(r, sim, run_st, interrupted_by, &res);
  for (size_t i = 0; i < cosrod_sim_ncritical(sim); i++) { /* arc-length: limit / bifurcation points */
    const char *ty = NULL;
    double ct = 0.0, cl = 0.0, cd = 0.0;
    if (cosrod_sim_critical(sim, i, &ty, &ct, &cl, &cd) == COSROD_OK)
      cosrod_output_add_critical_point(r->out, ty, ct, cl, cd);
  }
  record_contact_summary(r, sim); /* summary.json "contact" and its warnings (record_contact.c) */
  const char *sw[4];
  size_t nsw = cosrod_sim_nswitches(sim);
  for (size_t i = 0; i < nsw && i < 4; i++) sw[i] = cosrod_sim_switch(sim, i);
  cosrod_output_set_solver(r->out, cosrod_sim_solver_chosen(sim), cosrod_sim_solver_reason(sim), nsw < 4 ? nsw : 4,
                           sw);
  char pw[1024]; /* the scenario's plausibility warnings (unit slips, not slender, shape length) */
  for (size_t i = 0; cosrod_scenario_warning(r->sc, i, pw, sizeof pw) == 0; i++) cosrod_output_add_warning(r->out, pw);
  if (cosrod_sim_input_warning(sim)[0]) cosrod_output_add_warning(r->out, cosrod_sim_input_warning(sim));
  for (size_t i = 0; i < cosrod_sim_nwarnings(sim); i++) cosrod_output_add_warning(r->out, cosrod_sim_warning(sim, i));
  /* a run that did not finish writes a held first record (to be resumed; a
   * failure to publish the files is in the output's warnings) */
  if (res.run != COSROD_RUN_OK) (void)record_ckpt_poll(r, 1);
  /* the contact files first: plots/contact.png reads contact_forces.csv */
  cosrod_status cct = record_contact_close(r, 1);
  int jbad = 0; /* joints.csv in place before the output's close publishes summary.json */
  if (r->jf) {
    jbad = fclose(r->jf) != 0;
    r->jf = NULL;
    if (jbad || rename(r->jtmp, r->jfin) != 0) {
      jbad = 1;
      snprintf(r->err, sizeof r->err, "cannot write %s", r->jfin);
      cosrod_output_add_warning(r->out, r->err);
    }
  }
  cosrod_status cst = cosrod_output_close(r->out, &res);
  if ((cct != COSROD_OK || jbad) && cst == COSROD_OK) cst = COSROD_ERR_IO;
  if (cst == COSROD_OK && res.run == COSROD_RUN_OK && r->ck_path) remove(r->ck_path); /* nothing left to resume */
  const int modal = sc->analysis.type == COSROD_SC_ANALYSIS_MODES || buckling;
  cosrod_status bst = record_mode_bodies(r, sim, run_st == COSROD_OK && modal, buckling);
  if (bst != COSROD_OK && cst == COSROD_OK) cst = bst;
  int view_written = 0;
  if (cst == COSROD_OK) record_write_view(r->dir, sc, &view_written, r->view_note, sizeof r->view_note);
  if (end) {
    end->view_written = view_written;
    end->view_note = r->view_note;
    end->run = res.run;
    end->status = run_st;
    end->message = r->msg;
    end->t_failed = res.t_failed;
  }
  return cst;
}
