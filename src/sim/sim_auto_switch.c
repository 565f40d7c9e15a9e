// SPDX-License-Identifier: Apache-2.0
/* solver.integrator: auto, part 2: the switch to the next candidate when
 * the method struggles (sim_auto.c chose the candidates).
 *
 * The sim is re-created in place (sim_release, sim_build into the same
 * struct: the observer, the caller and the problem's user pointer keep
 * their cosrod_sim *) with the next candidate's solver, and the run goes on
 * from the last accepted state: the rods' own state vectors carry over
 * between layouts (same formulation: sim_gather / sim_scatter through the
 * old and the new index maps); with rigid bodies only a candidate with the
 * same layout is taken (the whole state copied).  The energy integrals,
 * the statistics, the monitor's history and the output times continue;
 * each switch becomes a warning and a line of summary.json's solver.switches;
 * the user's load callbacks are set again on the new rods.
 * Allocation happens only at a switch (rare, outside the time loop). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

static int struggled(cosrod_status st) {
  return st == COSROD_ERR_MAX_STEPS || st == COSROD_ERR_STEP_TOO_SMALL || st == COSROD_ERR_NEWTON ||
         st == COSROD_ERR_NONFINITE || st == COSROD_ERR_CONVERGENCE || st == COSROD_ERR_SINGULAR;
}

/* What survives the re-creation. */
typedef struct carry {
  const cosrod_sim_observer *obs;
  int need_rates;
  struct sim_accounts acc; /* t and the rates at t are re-evaluated at the switch */
  struct sim_monitor_state mon;
  double t_frame;
  cosrod_integrate_stats stats;
  size_t nwarn;
  char warn[SIM_NWARN][SIM_WARN_LEN];
} carry;

static void save(const cosrod_sim *s, carry *c) {
  c->obs = s->obs;
  c->need_rates = s->need_rates;
  c->acc = s->acc, c->mon = s->mon, c->t_frame = s->t_frame;
  c->stats = s->dstats;
  c->nwarn = s->nwarn;
  memcpy(c->warn, s->warn, sizeof c->warn);
}

static void restore(cosrod_sim *s, const carry *c) {
  s->ran = 1;
  s->obs = c->obs;
  s->need_rates = c->need_rates;
  s->acc = c->acc, s->mon = c->mon, s->t_frame = c->t_frame;
  s->dstats_done = s->dstats = c->stats;
  s->nwarn = c->nwarn;
  memcpy(s->warn, c->warn, sizeof s->warn);
}

/* The layout facts a state copy needs. */
typedef struct shape {
  int lie, split, form, ny;
} shape;

static shape shape_of(const cosrod_sim *s) {
  shape h = {s->sys.m->lie, s->sys.m->split, (int)s->sys.m->form, s->sys.m->ny};
  return h;
}

/* Can a state of layout a become one of layout b (see the file comment)? */
static int convertible(const cosrod_sim *s, shape a, shape b) {
  if (a.form != b.form) return 0;
  if (a.lie == b.lie && a.split == b.split && a.ny == b.ny) return 1;
  return s->sc->nbodies == 0;
}

/* The next candidate after the current one whose sim builds and whose
 * layout takes the current state; -1 if none. */
static int next_candidate(cosrod_sim *s, shape cur) {
  sim_auto *a = s->au;
  const int was = a->cur;
  for (int i = was + 1; i < a->c.n; i++) {
    sim_auto_apply(a, i);
    cosrod_status st;
    cosrod_sim *n = cosrod_sim_create(&a->sc, &st);
    int ok = n && convertible(s, cur, shape_of(n));
    cosrod_sim_free(n);
    if (ok) return i;
  }
  sim_auto_apply(a, was);
  return -1;
}

/* One switch: returns the continued run's status, or st unchanged if no
 * candidate is left (*done = 1). */
static cosrod_status switch_once(cosrod_sim *s, cosrod_status st, double T, cosrod_output_spec *spec,
                                 int *done) {
  sim_auto *a = s->au;
  const shape old = shape_of(s);
  const char *from = cosrod_sc_integrator_name(a->c.method[a->cur]);
  const int i = next_candidate(s, old);
  if (i < 0) {
    *done = 1;
    return st;
  }
  const double t = cosrod_integrator_t(s->integ);
  int nl = 0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) nl += s->sys.m->ny_r[r];
  double *yg = malloc((size_t)s->sys.m->ny * sizeof *yg), *yl = malloc(((size_t)nl + 1) * sizeof *yl);
  if (!yg || !yl) {
    free(yg), free(yl);
    *done = 1;
    return st;
  }
  memcpy(yg, cosrod_integrator_y(s->integ), (size_t)s->sys.m->ny * sizeof *yg);
  for (size_t r = 0, o = 0; r < s->sys.m->nrods; o += (size_t)s->sys.m->ny_r[r], r++) sim_gather(&s->sys, r, yg, yl + o);
  carry c;
  sim_stats_sync(s);
  save(s, &c);
  char why[320];
  snprintf(why, sizeof why, "%.200s", s->sys.d->msg[0] ? s->sys.d->msg : cosrod_strerror(st));
  /* re-create in place */
  sim_auto *keep = s->au;
  sim_release(s);
  memset(s, 0, sizeof *s);
  s->au = keep;
  s->rebuild = 1;
  cosrod_status bst = COSROD_OK;
  cosrod_sim *b = sim_build(s, &a->sc, &bst, NULL, 0);
  s->rebuild = 0;
  if (!b) { /* cannot happen: next_candidate built the same sim */
    free(yg), free(yl);
    *done = 1;
    return bst;
  }
  restore(s, &c);
  for (size_t r = 0; r < a->nload && r < s->sys.m->nrods; r++)
    if (a->load_fn[r]) cosrod_rod_set_load_fn(s->sys.m->rods[r], a->load_fn[r], a->load_user[r]);
  const shape now = shape_of(s);
  if (old.lie == now.lie && old.split == now.split && old.ny == now.ny)
    memcpy(s->sys.d->yd, yg, (size_t)s->sys.m->ny * sizeof *yg);
  else
    for (size_t r = 0, o = 0; r < s->sys.m->nrods; o += (size_t)s->sys.m->ny_r[r], r++) sim_scatter(&s->sys, r, yl + o, s->sys.d->yd);
  free(yg), free(yl);
  const char *to = cosrod_sc_integrator_name(a->c.method[i]);
  snprintf(a->chosen, sizeof a->chosen, "%s", to);
  if (a->nswitch < SIM_AUTO_MAXSWITCH)
    snprintf(a->sw[a->nswitch++], sizeof a->sw[0],
             "t = %.6g s: %s struggled (%.200s); switched to %s from the last accepted state", t, from, why,
             to);
  if (s->nwarn < sizeof s->warn / sizeof s->warn[0])
    snprintf(s->warn[s->nwarn++], sizeof s->warn[0], "solver.integrator auto: %.280s", a->sw[a->nswitch - 1]);
  s->t_fail = NAN;
  s->h_last = NAN;
  s->acc.t = s->t_now = t;
  if (sim_eval_all(&s->sys, t, s->sys.d->yd, &s->acc.rW_prev, &s->acc.rD_prev) != COSROD_OK) return COSROD_ERR_NONFINITE;
  spec->t_out = s->tout;
  spec->n_out = s->nout;
  spec->user = s;
  spec->include_t0 = 0;
  return sim_evolve_pieces(s, T, spec, t, s->sys.d->yd);
}

cosrod_status sim_auto_recover(cosrod_sim *s, cosrod_status st, double T, cosrod_output_spec *spec) {
  int done = 0;
  while (s->au && !done && struggled(st) && !s->diverged && s->au->cur + 1 < s->au->c.n)
    st = switch_once(s, st, T, spec, &done);
  return st;
}
