// SPDX-License-Identifier: Apache-2.0
/* Simulation driver: restart data of dynamic runs (cosrod_sim_restart_*,
 * sim.h).  At an output time of cosrod_sim_run the frame callback may save
 * what a later run needs to continue from there: the state y at the output
 * time (dense output), the step size to try next, the energy accounts
 * (external work, dissipation, the contact's share, the impulsive work of
 * breakpoints), the monitor's maxima and the solver counters (with the
 * sparse pattern's rebuilds, stats.npattern).  A new
 * simulation of the same scenario loads it before cosrod_sim_run, which then
 * restarts the method at that time with that step (a method restart, as at
 * a breakpoint: HW I §II.6), so the continued run agrees with an
 * uninterrupted one to the integrator's tolerance, not bitwise.  With rigid
 * bodies on null-space joints the partition of the twist into dependent and
 * independent velocities (the meaning of nu in y, [L] §5) follows the state,
 * and so do the friction anchors of contact (those the step across the
 * saved time used: committed at its start). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "system/contact_element.h"

/* 2: the bodies' null-space partition and the contact's friction anchors after the state;
 * 3: the sparse pattern's rebuilds (npattern) among the counters */
enum { RS_VERSION = 3, RS_STATS = 14, RS_HEAD = 17 + RS_STATS };

size_t cosrod_sim_restart_size(const cosrod_sim *s) {
  return s ? RS_HEAD + (size_t)s->sys.m->ny + (size_t)sim_couple_npart(&s->sys) +
                 sim_contact_state_size(s->sys.d->contact)
           : 0;
}

static void stats_to(double *b, const cosrod_integrate_stats *st) {
  const long v[RS_STATS] = {st->nfev,      st->njev,      st->nsteps, st->naccept, st->nreject,
                            st->nconvfail, st->ndecomp,   st->nsolve, st->nnewton, st->nstiff,
                            st->nproject,  st->nfail_rhs, st->npattern, 0};
  for (int k = 0; k < RS_STATS; k++) b[k] = (double)v[k];
  b[RS_STATS - 1] = st->wall_time;
}

static void stats_from(cosrod_integrate_stats *st, const double *b) {
  long *v[RS_STATS - 1] = {&st->nfev,    &st->njev,      &st->nsteps,   &st->naccept,
                           &st->nreject, &st->nconvfail, &st->ndecomp,  &st->nsolve,
                           &st->nnewton, &st->nstiff,    &st->nproject, &st->nfail_rhs,
                           &st->npattern};
  memset(st, 0, sizeof *st);
  for (int k = 0; k < RS_STATS - 1; k++) *v[k] = (long)b[k];
  st->wall_time = b[RS_STATS - 1];
}

cosrod_status cosrod_sim_restart_save(const cosrod_sim *s, double *b, size_t n) {
  if (!s || !b || s->analysis != COSROD_SC_ANALYSIS_DYNAMIC || !s->ran || s->stepping)
    return COSROD_ERR_INVALID;
  if (n < cosrod_sim_restart_size(s) || !(s->t_frame == s->t_now)) return COSROD_ERR_INVALID;
  const double t = s->t_frame;
  double cD = s->acc.cD;
  if (s->sys.d->contact && s->need_rates > 0 && t != s->acc.t) {
    /* the contact's share over the partial step [t, acc_t] (Simpson as in
     * sim_run.c: the frame's evaluation at t is the last one, the midpoint's
     * rate was kept by the frame's quadrature) */
    const cosrod_contact_data *d = sim_contact_data(s->sys.d->contact);
    double ct = d ? cosrod_contact_dissipation(d) : 0.0;
    cD -= (s->acc.t - t) / 6.0 * (ct + 4.0 * s->acc.cD_mid + s->acc.cD_prev);
  }
  const double head[17] = {RS_VERSION,
                           (double)s->sys.m->ny,
                           t,
                           s->h_last,
                           s->energy.external_work,
                           s->energy.dissipated,
                           cD,
                           s->acc.impulsive_work,
                           (double)s->mon.n,
                           s->mon.bal0,
                           s->mon.G0,
                           s->mon.scale,
                           s->mon.drift,
                           s->mon.ref,
                           s->mon.pdev,
                           s->mon.t_drift,
                           s->mon.t_pdev};
  memcpy(b, head, sizeof head);
  stats_to(b + 17, &s->dstats);
  memcpy(b + RS_HEAD, s->sys.d->y, (size_t)s->sys.m->ny * sizeof *b);
  sim_couple_partition(&s->sys, b + RS_HEAD + s->sys.m->ny);
  /* a frame inside the last accepted step: the anchors that step used (committed at its start) */
  sim_contact_state_save(s->sys.d->contact, b + RS_HEAD + s->sys.m->ny + sim_couple_npart(&s->sys), t != s->acc.t);
  return COSROD_OK;
}

cosrod_status cosrod_sim_restart_load(cosrod_sim *s, const double *b, size_t n) {
  if (!s || !b || s->analysis != COSROD_SC_ANALYSIS_DYNAMIC || s->ran || s->stepping)
    return COSROD_ERR_INVALID;
  if (n != cosrod_sim_restart_size(s) || b[0] != RS_VERSION || b[1] != (double)s->sys.m->ny)
    return COSROD_ERR_INVALID;
  if (!isfinite(b[2]) || b[2] < 0.0 || b[2] > s->sc->analysis.t_end) return COSROD_ERR_INVALID;
  for (int i = 0; i < s->sys.m->ny; i++)
    if (!isfinite(b[RS_HEAD + i])) return COSROD_ERR_INVALID;
  const int np = sim_couple_npart(&s->sys); /* the partition nu of y is in */
  int *idx = malloc((size_t)(np > 0 ? np : 1) * sizeof *idx), bad = !idx;
  for (int k = 0; !bad && k < np; k++) {
    const double v = b[RS_HEAD + s->sys.m->ny + k];
    bad = !(v >= 0.0 && v < 1e6);
    if (!bad) idx[k] = (int)v;
  }
  bad = bad || sim_couple_set_partition(&s->sys, idx) != 0 ||
        sim_contact_state_load(s->sys.d->contact, b + RS_HEAD + s->sys.m->ny + np) != 0;
  free(idx);
  if (bad) return COSROD_ERR_INVALID;
  s->t_resume = b[2];
  s->h_resume = isfinite(b[3]) && b[3] > 0.0 ? b[3] : 0.0;
  s->acc.W = s->need_rates < 0 ? NAN : b[4];
  s->acc.D = s->need_rates < 0 ? NAN : b[5];
  s->acc.cD = b[6];
  s->acc.impulsive_work = b[7];
  s->mon.n = (long)b[8];
  s->mon.bal0 = b[9];
  s->mon.G0 = b[10];
  s->mon.scale = b[11];
  s->mon.drift = b[12];
  s->mon.ref = b[13];
  s->mon.pdev = b[14];
  s->mon.t_drift = b[15];
  s->mon.t_pdev = b[16];
  s->diverged = 0;
  s->nwarn = 0;
  stats_from(&s->dstats_done, b + 17);
  s->dstats = s->dstats_done;
  memcpy(s->sys.d->y0, b + RS_HEAD, (size_t)s->sys.m->ny * sizeof *b);
  memcpy(s->sys.d->y, s->sys.d->y0, (size_t)s->sys.m->ny * sizeof *s->sys.d->y);
  s->t_now = s->acc.t = s->t_resume;
  s->resumed = 1;
  return COSROD_OK;
}

cosrod_status sim_resume_begin(cosrod_sim *s) {
  s->acc.t = s->t_resume;
  double rW = 0.0, rD = 0.0;
  cosrod_status st = sim_eval_all(&s->sys, s->t_resume, s->sys.d->y0, &rW, &rD);
  if (st != COSROD_OK) return st;
  if (s->need_rates > 0) {
    s->acc.rW_prev = rW;
    s->acc.rD_prev = rD;
  }
  if (s->sys.d->contact) {
    const cosrod_contact_data *d = sim_contact_data(s->sys.d->contact);
    s->acc.cD_prev = d ? cosrod_contact_dissipation(d) : 0.0;
  }
  return COSROD_OK;
}
