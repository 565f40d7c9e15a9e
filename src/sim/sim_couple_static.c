// SPDX-License-Identifier: Apache-2.0
/* Static and modal analyses and start_from_equilibrium with rods attached
 * to rigid bodies ([manual: rigid bodies]): the analyses on the statics system whose
 * rigid blocks and joint rows the system provides (system/static_blocks.c):
 * the modal arrays and the modal analysis, the coupled equilibrium start of
 * dynamic runs, the joint reactions of static frames. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "system/static_blocks.h"

/* modes: after sim_static_alloc, the system's arrays (min(count, ndof) pairs). */
cosrod_status sim_couple_static_alloc(cosrod_sim *s) {
  struct sim_cstat *c = s->sys.d->cst;
  if (!c || s->analysis != COSROD_SC_ANALYSIS_MODES) return COSROD_OK;
  /* modes: the dimension of the constraints' null space (joints and Kirchhoff
   * rods; ndof counts the multipliers too) */
  const int ndof = cosrod_statics_ndof(s->stat[0]) - 2 * cosrod_statics_nmult(s->stat[0]);
  long cap = s->sc->analysis.count;
  c->cap = cap < ndof ? (int)cap : ndof;
  free(s->rw_kind); /* sim_mode_select's keys */
  s->rw_kind = malloc((size_t)c->cap * sizeof *s->rw_kind);
  c->om = malloc((size_t)c->cap * sizeof *c->om);
  c->phi = malloc((size_t)c->cap * (size_t)cosrod_statics_ndof(s->stat[0]) * sizeof *c->phi);
  c->pr = malloc((size_t)sim_max_rod_nv(s) * sizeof *c->pr);
  free(s->omega), free(s->freq), free(s->shapes), free(s->mode_kind), free(s->mode_group), free(s->mode_rod);
  s->omega = malloc((size_t)c->cap * sizeof *s->omega);
  s->freq = malloc((size_t)c->cap * sizeof *s->freq);
  s->shapes = malloc((size_t)c->cap * s->shape_stride * sizeof *s->shapes);
  s->mode_kind = malloc((size_t)c->cap * sizeof *s->mode_kind);
  s->mode_group = malloc((size_t)c->cap * sizeof *s->mode_group);
  s->mode_rod = malloc((size_t)c->cap * sizeof *s->mode_rod);
  if (!c->om || !c->phi || !c->pr || !s->rw_kind || !s->omega || !s->freq || !s->shapes || !s->mode_kind || !s->mode_group || !s->mode_rod)
    return COSROD_ERR_NOMEM;
  s->nmodes = s->nmodes_cap = c->cap;
  return COSROD_OK;
}

cosrod_status sim_couple_static_modes(cosrod_sim *s) {
  struct sim_cstat *c = s->sys.d->cst;
  double *q = s->sys.d->yd; /* (ny >= nq_sys) */
  sim_static_y_to_q(s, s->sys.d->y0, q);
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  cosrod_status st = cosrod_statics_equilibrium_at(s->stat[0], 0.0, q, &ss);
  stats_from_statics(s, &ss);
  if (st != COSROD_OK) {
    return static_failure(s, st, &ss, "static equilibrium (rods with rigid bodies) at t = 0");
  }
  sim_warn_unstable(s, &ss, "modes (equilibrium at t = 0)");
  int rc = static_frame(s, 0.0, q);
  if (rc == 0 && s->obs && s->obs->increment)
    rc = s->obs->increment(s->obs->user, s, 0.0, ss.max_iterations, ss.residual);
  if (rc != 0) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "stopped by the observer");
    return rc > 0 ? COSROD_ERR_INTERRUPTED : COSROD_ERR_CALLBACK;
  }
  const int nv = cosrod_statics_ndof(s->stat[0]);
  double *pr = c->pr;
  st = cosrod_statics_modes_system(s->stat[0], 0.0, q, c->cap, c->om, c->phi);
  if (st != COSROD_OK) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "modal analysis of the rods with rigid bodies failed (%s%s)", cosrod_strerror(st),
             st == COSROD_ERR_SINGULAR ? ": redundant joint constraints" : "");
    s->t_fail = 0.0;
    return st;
  }
  cosrod_statics_mode_groups(c->cap, c->om, 1e-6, s->mode_group);
  for (int i = 0; i < c->cap; ++i) {
    size_t rbest;
    st = sim_mode_listing(s, q, i, c->phi + (size_t)i * (size_t)nv, pr, &rbest);
    if (st != COSROD_OK) return st;
    s->omega[i] = c->om[i];
    s->freq[i] = fabs(c->om[i]) / (2.0 * 3.14159265358979323846);
    s->mode_rod[i] = rbest;
  }
  s->nmodes = sim_mode_select(s, c->cap, s->nmodes_req);
  return COSROD_OK;
}

/* start_from_equilibrium (dynamic runs): the coupled solver of the
 * (damped, dynamic) rods and the dynamic bodies, full gravity and the t = 0
 * loads (cosrod_statics_equilibrium_at), in stat[0]. */
cosrod_status sim_couple_static_setup(cosrod_sim *s, char *err, size_t errlen) {
  cosrod_status st = sim_couple_static_blocks_setup(&s->sys);
  if (st != COSROD_OK) return st;
  int nq = 7 * s->sys.d->cst->nb + sim_cjs_nrows(s->sys.d->cst->cj);
  for (size_t r = 0; r < s->sys.m->nrods; r++) nq += cosrod_rod_nq(s->sys.m->rods[r]);
  s->sys.d->cst->q = malloc((size_t)nq * sizeof *s->sys.d->cst->q);
  s->stat = calloc(s->sys.m->nrods, sizeof *s->stat);
  if (!s->sys.d->cst->q || !s->stat) return COSROD_ERR_NOMEM;
  /* the rods with their preloads (s->sys.m->srods), their ends on the bodies like the sim's rods' */
  if ((st = sim_couple_attach_twins(&s->sys, s->sys.m->srods)) != COSROD_OK) return st;
  s->stat[0] = cosrod_statics_create_coupled((const cosrod_rod *const *)s->sys.m->srods, (int)s->sys.m->nrods,
                                             sim_couple_static_blocks(&s->sys), NULL, &st);
  if (!s->stat[0]) {
    cosrod_scenario_format_error(s->sc, "analysis.start_from_equilibrium", "no static solver for these rods and bodies",
                                 err, errlen);
    return st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED;
  }
  return COSROD_OK;
}

/* start_from_equilibrium: the rods' q and the bodies' poses at the static
 * equilibrium under the t = 0 loads, everything at rest. */
cosrod_status sim_couple_static_start(cosrod_sim *s) {
  struct sim_cstat *c = s->sys.d->cst;
  cosrod_statics *ss0 = s->stat[0];
  double *q = c->q;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    sim_gather(&s->sys, r, s->sys.d->y0, s->sys.d->yl);
    memcpy(q + cosrod_statics_qoffset(ss0, (int)r), s->sys.d->yl, (size_t)cosrod_rod_nq(s->sys.m->rods[r]) * sizeof *q);
  }
  if (c->nb > 0) {
    double *qb = q + cosrod_statics_block_qoffset(ss0, 0);
    memcpy(qb, c->xq, 7 * (size_t)c->nb * sizeof *q);
    for (int i = 0; i < sim_cjs_nrows(c->cj); ++i) qb[7 * c->nb + i] = 0.0; /* multipliers */
  }
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  cosrod_status st = cosrod_statics_equilibrium_at(ss0, 0.0, q, &ss);
  if (st != COSROD_OK) return static_failure(s, st, &ss, "static equilibrium of the rods with rigid bodies at t = 0");
  sim_warn_unstable(s, &ss, "start_from_equilibrium");
  const double *qb = c->nb > 0 ? q + cosrod_statics_block_qoffset(ss0, 0) : NULL;
  if (qb) sim_couple_static_pose(&s->sys, 0.0, qb); /* the rod ends at the bodies' equilibrium poses, at rest */
  for (size_t r = 0; r < s->sys.m->nrods; r++)
    if ((st = sim_rod_rest_state(s, r, q + cosrod_statics_qoffset(ss0, (int)r))) != COSROD_OK) return st;
  if (qb && (st = sim_couple_set_rest(&s->sys, qb, s->sys.d->y0)) != COSROD_OK) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "the bodies' equilibrium poses have no state in their parametrisation (%s)",
             cosrod_strerror(st));
    s->t_fail = 0.0;
    return st;
  }
  /* Kirchhoff rods on bodies: the coupled projection (ends and bodies to
   * round-off) and its DAE multipliers (system/couple_kirchhoff.c) */
  if (s->sys.d->kcp && sim_couple_kirch_project(0.0, s->sys.d->y0, &s->sys) < 0) {
    if (!s->sys.d->msg[0]) snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "no consistent state at the equilibrium of the rods on bodies");
    s->t_fail = 0.0;
    return COSROD_ERR_CONVERGENCE;
  }
  return sim_equilibrium_state_ready(s);
}

cosrod_status sim_couple_static_joint_reactions(const cosrod_sim *s, double *R) {
  const size_t nj = cosrod_sim_njoints(s);
  if (nj == 0) return COSROD_OK;
  const double *qb = s->sys.d->y + s->sys.m->ny - s->sys.m->nbq; /* poses, then the multipliers */
  sim_cjs_reactions(s->sys.d->cst->cj, qb, s->sys.d->cst->nb, nj, R);
  return COSROD_OK;
}
