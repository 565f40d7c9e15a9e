// SPDX-License-Identifier: Apache-2.0
/* The assembled system's state layouts and integrator problem (module
 * system; the steps of cosrod_sim_create after the rods and the bodies'
 * coupling exist).
 *
 * Layouts of the global state y (one index map per rod: map[i] = position
 * in y of the rod's component i; see include/cosrod/sim.h):
 *   LIE   (galpha)  all rods' q, the bodies' q, then all ν (lie_layout.c);
 *   SPLIT (M1 reduction of absolute rods without bodies) all q, then all v;
 *   NODE  (every other case) each rod in its node-interleaved banded
 *         ordering, rods one after the other, each dynamic body next to the
 *         first rod end it touches (couple.c), so the Jacobian stays banded.
 * Then the differential / algebraic flags and the consistent initial state,
 * and the integrator problem: callbacks (callbacks.c), analytic or
 * finite-difference Jacobian, projection, Kirchhoff set-up (kirchhoff.c),
 * the linear solver (linsolve.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/system_model.h"

/* Index maps, bandwidths and the state buffers (maxny: largest rod state). */
cosrod_status sim_layout_create(sys_system *s, int maxny, char *err, size_t errlen) {
  const sys_def *def = s->m->def;
  size_t n = (size_t)s->m->ny;
  s->mb->map = malloc(n * sizeof *s->m->map);
  s->mb->perm = malloc(n * sizeof *s->m->perm);
  s->d->yl = malloc((size_t)maxny * sizeof *s->d->yl);
  s->d->ypl = malloc((size_t)maxny * sizeof *s->d->ypl);
  s->d->fl = malloc((size_t)maxny * sizeof *s->d->fl);
  s->d->y = calloc(n, sizeof *s->d->y);
  s->d->y0 = calloc(n, sizeof *s->d->y0);
  s->d->yd = calloc(n, sizeof *s->d->yd);
  s->mb->dae_id = malloc(n * sizeof *s->m->dae_id);
  if (!s->m->map || !s->m->perm || !s->d->yl || !s->d->ypl || !s->d->fl || !s->d->y || !s->d->y0 || !s->d->yd || !s->m->dae_id)
    return COSROD_ERR_NOMEM;

  /* layout */
  if (s->m->lie) {
    cosrod_status st = sim_galpha_layout(s);
    if (st != COSROD_OK) {
      sys_set_err(err, errlen, def, "rods", "no galpha layout (%s)", cosrod_strerror(st));
      return st;
    }
  } else if (s->m->split) {
    int nq_tot = 0;
    for (size_t r = 0; r < s->m->nrods; r++) nq_tot += cosrod_rod_nq(s->m->rods[r]);
    int qb = 0;
    for (size_t r = 0; r < s->m->nrods; r++) {
      int nq = cosrod_rod_nq(s->m->rods[r]);
      int *m = s->m->map + s->m->off_r[r];
      s->mb->qoff_r[r] = qb;
      for (int i = 0; i < nq; i++) {
        m[i] = qb + i;
        m[nq + i] = nq_tot + qb + i;
      }
      qb += nq;
      int mlq, muq, mlv, muv;
      cosrod_rod_bandwidth(s->m->rods[r], s->m->form, &mlq, &muq, &mlv, &muv);
      if (mlq > s->m->ml_q) s->mb->ml_q = mlq;
      if (muq > s->m->mu_q) s->mb->mu_q = muq;
      if (mlv > s->m->ml) s->mb->ml = mlv;
      if (muv > s->m->mu) s->mb->mu = muv;
    }
    s->mb->prob.m1 = s->mb->prob.m2 = nq_tot;
    s->mb->nq_tot = nq_tot;
  } else {
    /* the rod's node-interleaved ordering (cosrod_rod_order_fill): its
     * Jacobian is banded with N-independent bandwidths; rods follow one
     * another, so map = base + perm */
    int pos = 0;
    for (size_t r = 0; r < s->m->nrods; r++) {
      pos = sim_couple_place(s, r, 0, pos); /* bodies next to the rod end they touch */
      int *m = s->m->map + s->m->off_r[r], ml, mu;
      cosrod_status st = cosrod_rod_order_fill(s->m->rods[r], s->m->form, m, NULL, &ml, &mu);
      if (st != COSROD_OK) {
        sys_set_err(err, errlen, def, "rods", "no banded ordering for rod %zu (%s)", r, cosrod_strerror(st));
        return COSROD_ERR_INTERNAL;
      }
      for (int i = 0; i < s->m->ny_r[r]; i++) {
        s->mb->perm[s->m->off_r[r] + i] = m[i];
        m[i] += pos;
      }
      s->mb->qoff_r[r] = pos; /* NODE: global position of the rod's block */
      if (ml > s->m->ml) s->mb->ml = ml;
      if (mu > s->m->mu) s->mb->mu = mu;
      pos += s->m->ny_r[r];
      pos = sim_couple_place(s, r, 1, pos);
    }
  }
  if (sim_couple_layout(s, s->d->y0, s->m->dae_id) != COSROD_OK) return COSROD_ERR_NOMEM;
  if (s->m->ml > s->m->ny - 1) s->mb->ml = s->m->ny - 1;
  if (s->m->mu > s->m->ny - 1) s->mb->mu = s->m->ny - 1;
  return COSROD_OK;
}

/* Differential / algebraic components and the initial state y0 (= y). */
cosrod_status sim_initial_state(sys_system *s, char *err, size_t errlen) {
  const sys_def *def = s->m->def;
  size_t n = (size_t)s->m->ny;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    int nq = cosrod_rod_nq(rod);
    cosrod_status st = cosrod_rod_initial_state(rod, s->m->form, s->d->yl);
    if (st == COSROD_OK) st = cosrod_rod_project(rod, s->m->form, s->d->yl);
    /* Kirchhoff: multipliers after the projection onto the constraints (sim_kirchhoff_setup) */
    if (st == COSROD_OK && s->m->form == COSROD_FORM_DAE && cosrod_rod_kirchhoff_m(rod) == 0)
      st = cosrod_rod_lambda(rod, s->d->data[r], s->m->form, 0.0, s->d->yl, s->d->yl + 2 * nq);
    if (st != COSROD_OK) {
      char key[32];
      snprintf(key, sizeof key, "rods.%zu", r);
      sys_set_err(err, errlen, def, key, "no initial state (%s)", cosrod_strerror(st));
      return st;
    }
    sim_scatter(s, r, s->d->yl, s->d->y0);
    for (int i = 0; i < s->m->ny_r[r]; i++)
      s->m->dae_id[s->m->map[s->m->off_r[r] + i]] =
          (s->m->form == COSROD_FORM_DAE && i >= 2 * nq && i < s->m->ny_r[r]) ? 0.0 : 1.0; /* λ (, λ_K) */
  }
  memcpy(s->d->y, s->d->y0, n * sizeof *s->d->y);
  return COSROD_OK;
}

/* The integrator problem s->m->prob on the layout (time_dep: the right-hand
 * side depends on t), then the Kirchhoff, linear-solver and Kirchhoff-body
 * set-ups. */
cosrod_status sim_problem_create(sys_system *s, int time_dep, char *err, size_t errlen) {
  const sys_def *def = s->m->def;
  const cosrod_step_type *type = s->m->type;
  cosrod_status st0;
  cosrod_ode_problem *p = &s->mb->prob;
  p->n = s->m->ny;
  p->user = s;
  p->jac_banded = 1;
  p->jac_ml = s->m->ml;
  p->jac_mu = s->m->mu;
  p->jac_ml_q = s->m->ml_q;
  p->jac_mu_q = s->m->mu_q;
  p->time_dependent = time_dep;
  p->jac = s->m->split ? sim_jac_split : sim_jac_node; /* analytic */
  if (s->d->cpl) { /* bodies: the analytic coupled Jacobian (system/couple_jac.c); COSROD_COUPLE_JAC=fd (benchmarks):
                  * banded finite differences (SUNDIALS: ours, with Hairer's increments, sim_couple_jac_fd) */
    const char *cj = getenv("COSROD_COUPLE_JAC");
    int fd = (cj && !strcmp(cj, "fd")) || sim_couple_jac_init(s) != 0;
    p->jac = !fd ? sim_couple_jac
             : (!strcmp(type->name, "cvode") || !strcmp(type->name, "ida")) ? sim_couple_jac_fd
                                                                          : NULL;
  }
  /* one rod: its blocks (SPLIT) / its whole band (NODE) cover J's band, and
   * cosrod_rod_jac zeroes each block's band itself; several rods leave the
   * band entries between the rods' diagonal blocks to the integrator's zeroing */
  p->jac_fills = s->m->nrods == 1;
  if (s->m->dae_res) {
    p->res = sim_res;
    p->res_jac = sim_res_jac;
    p->dae_id = s->m->dae_id;
  } else {
    p->f = sim_rhs;
  }
  if (s->m->dae_mass) {
    p->mass = sim_mass;
    p->mass_banded = 1;
    p->mass_ml = p->mass_mu = 0;
  }
  /* galpha: only onto Kirchhoff constraints, joints and absolute bodies (its quaternions stay unit without) */
  if (def->stabilisation == SYS_STAB_PROJECTION && (type->flags & COSROD_STEP_PROJECTION) &&
      (!s->m->lie || sim_has_kirchhoff(s) || sim_couple_lie_project(s)))
    p->project = sim_project;
  if ((st0 = sim_kirchhoff_setup(s, err, errlen)) != COSROD_OK) return st0;
  if ((st0 = sim_linsolve_setup(s, err, errlen)) != COSROD_OK) return st0;
  if ((st0 = sim_couple_kirch_setup(s, err, errlen)) != COSROD_OK) return st0;
  return COSROD_OK;
}
