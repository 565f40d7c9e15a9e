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

#include "system/system_internal.h"

/* Index maps, bandwidths and the state buffers (maxny: largest rod state). */
cosrod_status sim_layout_create(cosrod_sim *s, int maxny, char *err, size_t errlen) {
  const sys_def *def = s->def;
  size_t n = (size_t)s->ny;
  s->map = malloc(n * sizeof *s->map);
  s->perm = malloc(n * sizeof *s->perm);
  s->yl = malloc((size_t)maxny * sizeof *s->yl);
  s->ypl = malloc((size_t)maxny * sizeof *s->ypl);
  s->fl = malloc((size_t)maxny * sizeof *s->fl);
  s->y = calloc(n, sizeof *s->y);
  s->y0 = calloc(n, sizeof *s->y0);
  s->yd = calloc(n, sizeof *s->yd);
  s->dae_id = malloc(n * sizeof *s->dae_id);
  if (!s->map || !s->perm || !s->yl || !s->ypl || !s->fl || !s->y || !s->y0 || !s->yd || !s->dae_id)
    return COSROD_ERR_NOMEM;

  /* layout */
  if (s->lie) {
    cosrod_status st = sim_galpha_layout(s);
    if (st != COSROD_OK) {
      sys_set_err(err, errlen, def, "rods", "no galpha layout (%s)", cosrod_strerror(st));
      return st;
    }
  } else if (s->split) {
    int nq_tot = 0;
    for (size_t r = 0; r < s->nrods; r++) nq_tot += cosrod_rod_nq(s->rods[r]);
    int qb = 0;
    for (size_t r = 0; r < s->nrods; r++) {
      int nq = cosrod_rod_nq(s->rods[r]);
      int *m = s->map + s->off_r[r];
      s->qoff_r[r] = qb;
      for (int i = 0; i < nq; i++) {
        m[i] = qb + i;
        m[nq + i] = nq_tot + qb + i;
      }
      qb += nq;
      int mlq, muq, mlv, muv;
      cosrod_rod_bandwidth(s->rods[r], s->form, &mlq, &muq, &mlv, &muv);
      if (mlq > s->ml_q) s->ml_q = mlq;
      if (muq > s->mu_q) s->mu_q = muq;
      if (mlv > s->ml) s->ml = mlv;
      if (muv > s->mu) s->mu = muv;
    }
    s->prob.m1 = s->prob.m2 = nq_tot;
    s->nq_tot = nq_tot;
  } else {
    /* the rod's node-interleaved ordering (cosrod_rod_order_fill): its
     * Jacobian is banded with N-independent bandwidths; rods follow one
     * another, so map = base + perm */
    int pos = 0;
    for (size_t r = 0; r < s->nrods; r++) {
      pos = sim_couple_place(s, r, 0, pos); /* bodies next to the rod end they touch */
      int *m = s->map + s->off_r[r], ml, mu;
      cosrod_status st = cosrod_rod_order_fill(s->rods[r], s->form, m, NULL, &ml, &mu);
      if (st != COSROD_OK) {
        sys_set_err(err, errlen, def, "rods", "no banded ordering for rod %zu (%s)", r, cosrod_strerror(st));
        return COSROD_ERR_INTERNAL;
      }
      for (int i = 0; i < s->ny_r[r]; i++) {
        s->perm[s->off_r[r] + i] = m[i];
        m[i] += pos;
      }
      s->qoff_r[r] = pos; /* NODE: global position of the rod's block */
      if (ml > s->ml) s->ml = ml;
      if (mu > s->mu) s->mu = mu;
      pos += s->ny_r[r];
      pos = sim_couple_place(s, r, 1, pos);
    }
  }
  if (sim_couple_layout(s, s->y0, s->dae_id) != COSROD_OK) return COSROD_ERR_NOMEM;
  if (s->ml > s->ny - 1) s->ml = s->ny - 1;
  if (s->mu > s->ny - 1) s->mu = s->ny - 1;
  return COSROD_OK;
}

/* Differential / algebraic components and the initial state y0 (= y). */
cosrod_status sim_initial_state(cosrod_sim *s, char *err, size_t errlen) {
  const sys_def *def = s->def;
  size_t n = (size_t)s->ny;
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod *rod = s->rods[r];
    int nq = cosrod_rod_nq(rod);
    cosrod_status st = cosrod_rod_initial_state(rod, s->form, s->yl);
    if (st == COSROD_OK) st = cosrod_rod_project(rod, s->form, s->yl);
    /* Kirchhoff: multipliers after the projection onto the constraints (sim_kirchhoff_setup) */
    if (st == COSROD_OK && s->form == COSROD_FORM_DAE && cosrod_rod_kirchhoff_m(rod) == 0)
      st = cosrod_rod_lambda(rod, s->data[r], s->form, 0.0, s->yl, s->yl + 2 * nq);
    if (st != COSROD_OK) {
      char key[32];
      snprintf(key, sizeof key, "rods.%zu", r);
      sys_set_err(err, errlen, def, key, "no initial state (%s)", cosrod_strerror(st));
      return st;
    }
    sim_scatter(s, r, s->yl, s->y0);
    for (int i = 0; i < s->ny_r[r]; i++)
      s->dae_id[s->map[s->off_r[r] + i]] =
          (s->form == COSROD_FORM_DAE && i >= 2 * nq && i < s->ny_r[r]) ? 0.0 : 1.0; /* λ (, λ_K) */
  }
  memcpy(s->y, s->y0, n * sizeof *s->y);
  return COSROD_OK;
}

/* The integrator problem s->prob on the layout (time_dep: the right-hand
 * side depends on t), then the Kirchhoff, linear-solver and Kirchhoff-body
 * set-ups. */
cosrod_status sim_problem_create(cosrod_sim *s, int time_dep, char *err, size_t errlen) {
  const sys_def *def = s->def;
  const cosrod_step_type *type = s->type;
  cosrod_status st0;
  cosrod_ode_problem *p = &s->prob;
  p->n = s->ny;
  p->user = s;
  p->jac_banded = 1;
  p->jac_ml = s->ml;
  p->jac_mu = s->mu;
  p->jac_ml_q = s->ml_q;
  p->jac_mu_q = s->mu_q;
  p->time_dependent = time_dep;
  p->jac = s->split ? sim_jac_split : sim_jac_node; /* analytic */
  if (s->cpl) { /* bodies: the analytic coupled Jacobian (system/couple_jac.c); COSROD_COUPLE_JAC=fd (benchmarks):
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
  p->jac_fills = s->nrods == 1;
  if (s->dae_res) {
    p->res = sim_res;
    p->res_jac = sim_res_jac;
    p->dae_id = s->dae_id;
  } else {
    p->f = sim_rhs;
  }
  if (s->dae_mass) {
    p->mass = sim_mass;
    p->mass_banded = 1;
    p->mass_ml = p->mass_mu = 0;
  }
  /* galpha: only onto Kirchhoff constraints, joints and absolute bodies (its quaternions stay unit without) */
  if (def->stabilisation == SYS_STAB_PROJECTION && (type->flags & COSROD_STEP_PROJECTION) &&
      (!s->lie || sim_has_kirchhoff(s) || sim_couple_lie_project(s)))
    p->project = sim_project;
  if ((st0 = sim_kirchhoff_setup(s, err, errlen)) != COSROD_OK) return st0;
  if ((st0 = sim_linsolve_setup(s, err, errlen)) != COSROD_OK) return st0;
  if ((st0 = sim_couple_kirch_setup(s, err, errlen)) != COSROD_OK) return st0;
  return COSROD_OK;
}
