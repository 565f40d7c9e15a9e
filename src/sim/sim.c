// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, part 1: scenario -> rods -> state layout -> integrator
 * problem (system/callbacks.c: the callbacks it hands the integrator; sim_run.c:
 * the runs).
 *
 * See include/cosrod/sim.h for the design (state layouts, formulations,
 * energy accounting).  Equations: the rod right-hand sides are [LLA] eq. (29)
 * (absolute, via eq. 28), [L] Lemma 4.2 (null-space) and [LA] eq. (14) (DAE);
 * projection [LA] eq. (27); Baumgarte g'' + 2 r g' + omega^2 g = 0.
 *
 * Every rod keeps its own state vector layout (rod.h); the global vector y
 * is a permutation of the stacked rod vectors given by one index map per rod
 * (map[i] = position in y of the rod's component i).  The callbacks gather
 * a rod's components, call the rod and scatter the result: O(ny) extra work
 * per evaluation and no allocation.  The rods' definitions come from
 * sim_translate.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sparse.h"
#include "sim/sim_internal.h"
#include "core/error.h"
#include "core/par.h"

/* ---- create / free -------------------------------------------------------- */

static cosrod_sim *fail_create(cosrod_sim *s, cosrod_status *status, cosrod_status st) {
  if (status) *status = st;
  if (s && s->rebuild) { /* sim_auto.c's in-place rebuild: the caller keeps the struct */
    sim_release(s);
    return NULL;
  }
  cosrod_sim_free(s);
  return NULL;
}

/* Output times k * every in (0, T], T always included (every = T / 100 if
 * not given; static runs: the scenario's default is 1 / increments). */
static cosrod_status make_output_times(cosrod_sim *s, double T, char *err, size_t errlen) {
  const cosrod_scenario *sc = s->sc;
  double every = sc->output.every > 0 ? sc->output.every : T / 100.0;
  double nf = floor(T / every * (1.0 + 1e-12));
  if (!(nf < 1e8)) {
    sim_set_err(err, errlen, sc, "output.every", "too many output times (%g)", nf);
    return COSROD_ERR_INVALID;
  }
  size_t nk = (size_t)nf;
  s->tout = malloc((nk + 2) * sizeof *s->tout);
  if (!s->tout) return COSROD_ERR_NOMEM;
  s->nout = 0;
  for (size_t k = 1; k <= nk; k++) {
    double tk = (double)k * every;
    if (tk > T) tk = T;
    if (s->nout == 0 || tk > s->tout[s->nout - 1]) s->tout[s->nout++] = tk;
  }
  if (s->nout == 0 || T - s->tout[s->nout - 1] > 1e-9 * every)
    s->tout[s->nout++] = T;
  else
    s->tout[s->nout - 1] = T;
  s->out_tol = 1e-9 * every;
  return COSROD_OK;
}

/* static / modes / buckling: every rod's (q, 0) in the ABSOLUTE layout one
 * after the other (no integrator), one statics solver of [LLA] eqs. 31-32
 * for all rods (uncoupled: cosrod_statics_create_system; sim_static.c). */
static cosrod_sim *create_static(cosrod_sim *s, cosrod_status *status, char *err, size_t errlen) {
  const cosrod_scenario *sc = s->sc;
  const size_t nr = s->sys.m->nrods;
  s->sys.mb->form = COSROD_FORM_ABSOLUTE;
  s->sys.mb->rods = calloc(nr, sizeof *s->sys.m->rods);
  s->sys.d->data = calloc(nr, sizeof *s->sys.d->data);
  s->sys.mb->ny_r = calloc(nr, sizeof *s->sys.m->ny_r);
  s->sys.mb->off_r = calloc(nr, sizeof *s->sys.m->off_r);
  s->sys.mb->qoff_r = calloc(nr, sizeof *s->sys.m->qoff_r);
  s->stat = calloc(nr, sizeof *s->stat); /* stat[0]: the system of all rods */
  if (!s->sys.m->rods || !s->sys.d->data || !s->sys.m->ny_r || !s->sys.m->off_r || !s->sys.m->qoff_r || !s->stat)
    return fail_create(s, status, COSROD_ERR_NOMEM);
  cosrod_status st = COSROD_OK;
  int n = 0, nq = 0, nymax = 0;
  for (size_t r = 0; r < nr; r++) {
    s->sys.mb->rods[r] = sim_build_rod(sc, r, 0, &st, err, errlen);
    if (!s->sys.m->rods[r]) return fail_create(s, status, st);
    s->sys.d->data[r] = cosrod_rod_data_create(s->sys.m->rods[r], NULL);
    if (!s->sys.d->data[r]) return fail_create(s, status, COSROD_ERR_NOMEM);
    cosrod_rod_data_set_threads(s->sys.d->data[r], sc->solver.threads);
    s->sys.mb->ny_r[r] = cosrod_rod_ny(s->sys.m->rods[r], s->sys.m->form);
    s->sys.mb->off_r[r] = n;
    s->sys.mb->qoff_r[r] = nq;
    n += s->sys.m->ny_r[r];
    nq += cosrod_rod_nq(s->sys.m->rods[r]);
    if (s->sys.m->ny_r[r] > nymax) nymax = s->sys.m->ny_r[r];
  }
  s->sys.mb->ny = n;
  if ((st = sim_contact_create(&s->sys.d->contact, s->sys.m->def, s->sys.m->rods, nr, err, errlen)) != COSROD_OK)
    return fail_create(s, status, st);
  if (sc->nbodies > 0) { /* rods attached to rigid bodies: body poses after the rods (sim_couple_static.c) */
    st = sim_couple_static_create(&s->sys, err, errlen);
    if (s->sys.d->cpl) s->need_rates = 1; /* the bodies' loads and bushings do work and dissipate */
    if (st == COSROD_OK) st = sim_couple_kirch_create(&s->sys); /* Kirchhoff ends: the bodies' mobility in their λ */
    if (st != COSROD_OK) return fail_create(s, status, st);
    s->sys.mb->ny = n += s->sys.m->nbq;
  }
  s->sys.mb->map = malloc((size_t)n * sizeof *s->sys.m->map);
  s->sys.d->yl = malloc((size_t)nymax * sizeof *s->sys.d->yl);
  s->sys.d->ypl = malloc((size_t)nymax * sizeof *s->sys.d->ypl);
  s->sys.d->fl = malloc((size_t)nymax * sizeof *s->sys.d->fl);
  s->sys.d->y = calloc((size_t)n, sizeof *s->sys.d->y);
  s->sys.d->y0 = calloc((size_t)n, sizeof *s->sys.d->y0);
  s->sys.d->yd = calloc((size_t)n, sizeof *s->sys.d->yd);
  if (!s->sys.m->map || !s->sys.d->yl || !s->sys.d->ypl || !s->sys.d->fl || !s->sys.d->y || !s->sys.d->y0 || !s->sys.d->yd)
    return fail_create(s, status, COSROD_ERR_NOMEM);
  for (int i = 0; i < n; i++) s->sys.mb->map[i] = i;
  for (size_t r = 0; r < nr && st == COSROD_OK; r++) {
    st = cosrod_rod_initial_state(s->sys.m->rods[r], s->sys.m->form, s->sys.d->y0 + s->sys.m->off_r[r]);
    if (st == COSROD_OK) st = cosrod_rod_project(s->sys.m->rods[r], s->sys.m->form, s->sys.d->y0 + s->sys.m->off_r[r]);
    if (st != COSROD_OK) {
      char key[32];
      snprintf(key, sizeof key, "rods.%zu", r);
      sim_set_err(err, errlen, sc, key, "no initial state (%s)", cosrod_strerror(st));
      return fail_create(s, status, st);
    }
  }
  sim_couple_static_initial(&s->sys, s->sys.d->y0);
  memcpy(s->sys.d->y, s->sys.d->y0, (size_t)n * sizeof *s->sys.d->y);
  cosrod_statics_options o = cosrod_statics_default_options();
  if (s->analysis == COSROD_SC_ANALYSIS_STATIC && sc->analysis.increments > 0)
    o.increments = (int)sc->analysis.increments;
  /* static analysis: gravity follows the pseudo-time (ramp) unless `gravity: constant` */
  if (s->analysis == COSROD_SC_ANALYSIS_STATIC) o.gravity_ramp = !sc->analysis.gravity_constant;
  st = sim_static_setup(s, &o); /* arc-length control, keyframe path (sim_static_arc.c) */
  if (st != COSROD_OK) return fail_create(s, status, st);
  s->stat[0] = cosrod_statics_create_coupled((const cosrod_rod *const *)s->sys.m->rods, (int)nr, sim_couple_static_blocks(&s->sys), &o, &st);
  if (!s->stat[0]) {
    sim_set_err(err, errlen, sc, "analysis", "no static solver for these rods (%s)", cosrod_strerror(st));
    return fail_create(s, status, st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED);
  }
  if (s->arc && cosrod_statics_arclength_reserve(s->stat[0]) != COSROD_OK) /* no allocation in the run */
    return fail_create(s, status, COSROD_ERR_NOMEM);
  if (s->analysis == COSROD_SC_ANALYSIS_STATIC) {
    /* output pseudo-times and the landing solver (one increment from the
     * last converged state before an output time to it) */
    st = make_output_times(s, sc->analysis.t_end, err, errlen);
    if (st != COSROD_OK) return fail_create(s, status, st);
    cosrod_statics_options ol = o;
    ol.increments = 1;
    s->land = cosrod_statics_create_coupled((const cosrod_rod *const *)s->sys.m->rods, (int)nr, sim_couple_static_blocks(&s->sys), &ol, &st);
    s->qprev = malloc((size_t)n * sizeof *s->qprev);
    s->qland = malloc((size_t)n * sizeof *s->qland);
    if (!s->land || !s->qprev || !s->qland) return fail_create(s, status, COSROD_ERR_NOMEM);
  }
  const char *what = "rod-rod and self-contact in statics";
  if ((st = sim_static_contact_setup(s, s->stat[0], s->sys.mb->rods, what, err, errlen)) == COSROD_OK)
    st = sim_static_contact_setup(s, s->land, s->sys.mb->rods, what, err, errlen);
  if (st != COSROD_OK) return fail_create(s, status, st);
  if (sim_static_alloc(s) != COSROD_OK || sim_couple_static_alloc(s) != COSROD_OK)
    return fail_create(s, status, COSROD_ERR_NOMEM);
  if (sim_eval_all(&s->sys, 0.0, s->sys.d->y0, NULL, NULL) != COSROD_OK) {
    if (!sim_kirchhoff_explain(&s->sys, err, errlen)) /* a Kirchhoff rod's kinematic singularity */
      sim_set_err(err, errlen, sc, "rods", "the initial state cannot be evaluated");
    return fail_create(s, status, COSROD_ERR_NONFINITE);
  }
  s->energy = sim_energy_from_data(&s->sys, 0.0, 0.0);
  if (status) *status = COSROD_OK;
  return s;
}

/* Rigid bodies without rods: dynamic analyses of free bodies (keyframe
 * bodies carry rods; the DAE formulation has no body form). */
static cosrod_status refuse_bodies_alone(const cosrod_scenario *sc, char *err, size_t errlen) {
  for (size_t i = 0; i < sc->nbodies; i++)
    if (sc->bodies[i].has_motion) {
      char key[48];
      snprintf(key, sizeof key, "bodies.%zu.motion", i);
      sim_set_err(err, errlen, sc, key, "a body driven by keyframes carries rods (no rods in this scenario)");
      return COSROD_ERR_UNSUPPORTED;
    }
  if (sc->nbodies > 0 && sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC) {
    sim_set_err(err, errlen, sc, "analysis.type", "rigid bodies without rods: only dynamic analysis");
    return COSROD_ERR_UNSUPPORTED;
  }
  if (sc->solver.formulation == COSROD_SC_FORMULATION_DAE) {
    sim_set_err(err, errlen, sc, "solver.formulation", "rigid bodies need nullspace or absolute (not dae)");
    return COSROD_ERR_UNSUPPORTED;
  }
  return COSROD_OK;
}

/* The combinations cosrod_sim_create refuses: a clear error, not a silent ignore. */
static cosrod_status create_checks(const cosrod_scenario *sc, char *err, size_t errlen) {
  if (sc->nbodies > 0 || sc->njoints > 0) { /* rods with rigid bodies (system/couple.c) */
    const char *why = NULL, *key = "bodies";
    if (sim_couple_static_check(sc, err, errlen) != COSROD_OK) /* static / modes / equilibrium start */
      return COSROD_ERR_UNSUPPORTED;
    else if (sc->solver.stabilisation == COSROD_SC_STAB_BAUMGARTE && sc->solver.formulation == COSROD_SC_FORMULATION_NULLSPACE)
      why = "baumgarte applies to formulation absolute only", key = "solver.stabilisation";
    if (why) {
      sim_set_err(err, errlen, sc, key, "%s", why);
      return COSROD_ERR_UNSUPPORTED;
    }
  }
  if (sc->nrods == 0 && refuse_bodies_alone(sc, err, errlen) != COSROD_OK) return COSROD_ERR_UNSUPPORTED;
  if (sc->nrods == 0 && sc->nbodies == 0) {
    sim_set_err(err, errlen, sc, "rods", "nothing to simulate (no rods)");
    return COSROD_ERR_UNSUPPORTED;
  }
  for (size_t r = 0; r < sc->nrods; r++) {
    cosrod_status kst = sim_kirchhoff_check(sc, r, err, errlen);
    if (kst == COSROD_OK) kst = sim_kirchhoff_refuse(sc, err, errlen);
    if (kst != COSROD_OK) return kst;
  }
  return COSROD_OK;
}

/* Absolute rods with rod-rod or self-contact and a method with a sparse
 * path: the NODE layout instead of SPLIT, whose halved (m1) Newton system is
 * banded only, so that the contact's sparse Jacobian with the cross-rod
 * blocks (system/contact_jac_sp.c) applies as in the null-space form. */
int sim_contact_node_layout(const cosrod_scenario *sc, const cosrod_step_type *type) {
  const char *env = getenv("COSROD_CONTACT_BAND");
  if (!sc->contact.enabled || !((sc->contact.rods && sc->nrods >= 2) || sc->contact.self) ||
      !(type->flags & COSROD_STEP_SPARSE) || !cosrod_sparse_available() ||
      sc->solver.linear_solver == COSROD_SC_LINSOLVE_BAND || (env && !strcmp(env, "1")))
    return 0;
  for (size_t r = 0; r < sc->nrods; r++)
    if (sc->rods[r].model != COSROD_SC_MODEL_COSSERAT) return 0; /* Kirchhoff: dense in the ODE forms */
  return 1;
}

/* Dynamic runs: the rods' form and the layout flags (lie, dae_res,
 * dae_mass, baumgarte, split) from the formulation and the method. */
static cosrod_status choose_form(cosrod_sim *s, const char *iname, char *err, size_t errlen) {
  const cosrod_scenario *sc = s->sc;
  const cosrod_step_type *type = s->sys.m->type;
  switch (sc->solver.formulation) {
    case COSROD_SC_FORMULATION_ABSOLUTE:
      s->sys.mb->form = COSROD_FORM_ABSOLUTE;
      break;
    case COSROD_SC_FORMULATION_DAE:
      s->sys.mb->form = COSROD_FORM_DAE;
      break;
    default:
      s->sys.mb->form = COSROD_FORM_NULLSPACE;
      break;
  }
  /* galpha integrates the null-space form on the rotation group whatever the
   * formulation (system/lie_layout.c); Baumgarte does not apply, projection only
   * with Kirchhoff rods (system/lie_kirchhoff.c) */
  s->sys.mb->lie = strcmp(type->name, "galpha") == 0;
  if (s->sys.m->lie) s->sys.mb->form = COSROD_FORM_NULLSPACE;
  int is_res = (type->flags & COSROD_STEP_RESIDUAL) != 0;
  if (s->sys.m->form == COSROD_FORM_DAE) {
    if (is_res)
      s->sys.mb->dae_res = 1;
    else if ((type->flags & COSROD_STEP_MASS) && (type->flags & COSROD_STEP_DAE))
      s->sys.mb->dae_mass = 1;
    else {
      sim_set_err(err, errlen, sc, "solver.integrator",
              "formulation dae needs ida or a DAE method with mass matrix (radau5, rodas, seulex), not %s",
              iname);
      return COSROD_ERR_UNSUPPORTED;
    }
  }
  if (sc->solver.stabilisation == COSROD_SC_STAB_BAUMGARTE && !s->sys.m->lie) {
    if (s->sys.m->form != COSROD_FORM_ABSOLUTE) {
      sim_set_err(err, errlen, sc, "solver.stabilisation", "baumgarte applies to formulation absolute only");
      return COSROD_ERR_UNSUPPORTED;
    }
    s->sys.mb->baumgarte = 1;
  }
  s->sys.mb->split = s->sys.m->form == COSROD_FORM_ABSOLUTE && (type->flags & COSROD_STEP_M1_REDUCTION) &&
                     sc->nbodies == 0 && !sim_contact_node_layout(sc, type);

  return COSROD_OK;
}

/* start_from_equilibrium of several rods in rod-rod contact (no bodies):
 * one solver of all preloaded twins in stat[0] with the contact hooks, the
 * same coupled system a static analysis of the scenario solves. */
static cosrod_status equilibrium_all_setup(cosrod_sim *s, char *err, size_t errlen) {
  const size_t nr = s->sys.m->nrods;
  size_t nq = 0;
  for (size_t r = 0; r < nr; r++) nq += (size_t)cosrod_rod_nq(s->sys.m->srods[r]);
  s->stat = calloc(nr, sizeof *s->stat);
  s->qeq = malloc(nq * sizeof *s->qeq);
  if (!s->stat || !s->qeq) return COSROD_ERR_NOMEM;
  cosrod_status st = COSROD_OK;
  s->stat[0] = cosrod_statics_create_coupled((const cosrod_rod *const *)s->sys.m->srods, (int)nr, NULL, NULL, &st);
  if (!s->stat[0]) {
    sim_set_err(err, errlen, s->sc, "analysis.start_from_equilibrium", "no static solver for these rods (%s)",
                cosrod_strerror(st));
    return st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED;
  }
  return sim_static_contact_setup(s, s->stat[0], s->sys.mb->srods, "rod-rod contact in the equilibrium", err, errlen);
}

/* Dynamic runs: the rods and their data, the bodies' coupling, the
 * preloaded twins and statics solvers of start_from_equilibrium; *maxny
 * the largest rod state, *time_dep whether f depends on t. */
static cosrod_status create_rods(cosrod_sim *s, int *maxny, int *time_dep, char *err, size_t errlen) {
  const cosrod_scenario *sc = s->sc;
  s->sys.mb->rods = calloc(s->sys.m->nrods, sizeof *s->sys.m->rods);
  s->sys.d->data = calloc(s->sys.m->nrods, sizeof *s->sys.d->data);
  s->sys.mb->ny_r = calloc(s->sys.m->nrods, sizeof *s->sys.m->ny_r);
  s->sys.mb->off_r = calloc(s->sys.m->nrods, sizeof *s->sys.m->off_r);
  s->sys.mb->qoff_r = calloc(s->sys.m->nrods, sizeof *s->sys.m->qoff_r);
  if (!s->sys.m->rods || !s->sys.d->data || !s->sys.m->ny_r || !s->sys.m->off_r || !s->sys.m->qoff_r)
    return COSROD_ERR_NOMEM;
  *maxny = 0, *time_dep = 0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    cosrod_status st = COSROD_OK;
    s->sys.mb->rods[r] = sim_build_rod(sc, r, 0, &st, err, errlen);
    if (!s->sys.m->rods[r]) return st;
    s->sys.d->data[r] = cosrod_rod_data_create(s->sys.m->rods[r], NULL);
    if (!s->sys.d->data[r]) return COSROD_ERR_NOMEM;
    cosrod_rod_data_set_threads(s->sys.d->data[r], sc->solver.threads);
    if (s->sys.m->baumgarte) {
      s->sys.d->data[r]->baumgarte_omega = sc->solver.baumgarte_omega;
      s->sys.d->data[r]->baumgarte_r = sc->solver.baumgarte_r;
    }
    s->sys.mb->ny_r[r] = cosrod_rod_ny(s->sys.m->rods[r], s->sys.m->form);
    s->sys.mb->off_r[r] = s->sys.m->ny;
    s->sys.mb->ny += s->sys.m->ny_r[r];
    if (s->sys.m->ny_r[r] > *maxny) *maxny = s->sys.m->ny_r[r];
    *time_dep |= sim_rod_time_dependent(&sc->rods[r]);
    const cosrod_sc_rod *sr = &sc->rods[r];
    int loaded = 0;
    for (size_t i = 0; i < sr->nloads; i++) loaded |= sr->loads[i].profile != COSROD_SC_PROFILE_PRELOAD;
    s->need_rates |= sr->damping.kind != COSROD_SC_DAMPING_NONE || sr->damping.medium_translational > 0 ||
                     sr->damping.medium_rotational > 0 || loaded || sim_rod_time_dependent(sr) ||
                     sr->ends[0].type == COSROD_SC_END_PRESCRIBED ||
                     sr->ends[1].type == COSROD_SC_END_PRESCRIBED;
  }
  {
    cosrod_status st = sim_contact_create(&s->sys.d->contact, s->sys.m->def, s->sys.m->rods, s->sys.m->nrods, err, errlen);
    if (st != COSROD_OK) return st;
    if (s->sys.d->contact) s->need_rates = 1; /* contact damping and friction dissipate */
  }
  if (sc->nbodies > 0) {
    cosrod_status st = sim_couple_create(&s->sys, err, errlen);
    if (st != COSROD_OK) return st;
    s->need_rates = 1; /* the bodies' loads and bushings do work and dissipate */
    s->sys.mb->ny += sim_couple_n(&s->sys);
    *time_dep = 1;
    if ((st = sim_couple_kirch_create(&s->sys)) != COSROD_OK) return st;
  }
  if (sc->analysis.start_from_equilibrium) { /* the rods with their preloads */
    s->sys.mb->srods = calloc(s->sys.m->nrods, sizeof *s->sys.m->srods);
    if (!s->sys.m->srods) return COSROD_ERR_NOMEM;
    for (size_t r = 0; r < s->sys.m->nrods; r++) {
      cosrod_status st = COSROD_OK;
      if (!(s->sys.mb->srods[r] = sim_build_rod(sc, r, 1, &st, err, errlen))) return st;
    }
    sim_contact_attach(s->sys.d->contact, s->sys.m->srods, s->sys.m->nrods); /* the equilibrium sees the contact too */
  }
  if (sc->analysis.start_from_equilibrium && sc->nbodies > 0) { /* with bodies: one coupled solver (sim_couple_static.c) */
    cosrod_status st = sim_couple_static_setup(s, err, errlen);
    if (st != COSROD_OK) return st;
    /* one solver, all rods */
    st = sim_static_contact_setup(s, s->stat[0], s->sys.mb->srods, "rod-rod and self-contact in the equilibrium",
                                  err, errlen);
    if (st != COSROD_OK) return st;
  } else if (sc->analysis.start_from_equilibrium) {
    if (s->sys.d->contact && s->sys.m->def->contact.rods && s->sys.m->nrods > 1)
      return equilibrium_all_setup(s, err, errlen); /* rod-rod contact: one solver of all rods */
    s->stat = calloc(s->sys.m->nrods, sizeof *s->stat);
    if (!s->stat) return COSROD_ERR_NOMEM;
    for (size_t r = 0; r < s->sys.m->nrods; r++) {
      cosrod_status st = COSROD_OK;
      s->stat[r] = cosrod_statics_create(s->sys.m->srods[r], NULL, &st);
      if (!s->stat[r]) {
        sim_set_err(err, errlen, sc, "analysis.start_from_equilibrium", "no static solver for rod %zu (%s)", r,
                cosrod_strerror(st));
        return st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED;
      }
    }
    if (s->sys.m->nrods == 1) { /* self-contact: the distant blocks in the one rod's tangent */
      cosrod_status st = sim_static_contact_setup(s, s->stat[0], s->sys.mb->srods, "self-contact in the equilibrium",
                                                  err, errlen);
      if (st != COSROD_OK) return st;
    }
  }
  return COSROD_OK;
}

static cosrod_sim *sim_create(const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!sc) {
    if (status) *status = COSROD_ERR_INVALID;
    return NULL;
  }
  cosrod_status cst = create_checks(sc, err, errlen);
  if (cst != COSROD_OK) {
    if (status) *status = cst;
    return NULL;
  }
  /* solver.integrator: auto: the method and its settings from the problem
   * (sim_auto.c); the sim then runs a copy of sc with the choice filled in */
  sim_auto *au = NULL;
  if (sc->solver.integrator == COSROD_SC_INTEGRATOR_AUTO) {
    au = sim_auto_create(sc, &cst, err, errlen);
    if (!au) {
      if (status) *status = cst;
      return NULL;
    }
  }
  cosrod_sim *s = calloc(1, sizeof *s);
  if (!s) {
    sim_auto_free(au);
    return fail_create(s, status, COSROD_ERR_NOMEM);
  }
  s->au = au;
  return sim_build(s, au ? sim_auto_scenario(au) : sc, status, err, errlen);
}

static cosrod_sim *build(cosrod_sim *s, const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen);

cosrod_sim *sim_build(cosrod_sim *s, const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen) {
  s->sys.m = s->sys.mb = &s->sysm; /* the constructors write the model through sys.mb */
  s->sys.d = &s->sysd;
  cosrod_sim *b = build(s, sc, status, err, errlen);
  if (b) b->sys.mb = NULL; /* fixed from here on */
  return b;
}

static cosrod_sim *build(cosrod_sim *s, const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen) {
  cosrod_status cst;
  const char *iname = cosrod_sc_integrator_name(sc->solver.integrator);
  const cosrod_step_type *type = cosrod_step_type_by_name(iname);
  if (!type) {
    sim_set_err(err, errlen, sc, "solver.integrator", "integrator '%s' is not built into this library", iname);
    return fail_create(s, status, COSROD_ERR_UNSUPPORTED);
  }
  s->sc = sc;
  if (!(s->sys.mb->def = sim_sys_def_create(sc))) return fail_create(s, status, COSROD_ERR_NOMEM);
  s->sys.mb->type = type;
  s->t_fail = NAN;
  s->h_last = NAN;
  s->sys.d->seg_lo = -INFINITY;
  s->sys.d->seg_hi = INFINITY;
  s->sys.mb->nrods = sc->nrods;
  s->analysis = (int)sc->analysis.type;
  if (s->analysis != COSROD_SC_ANALYSIS_DYNAMIC) return create_static(s, status, err, errlen);
  if ((cst = choose_form(s, iname, err, errlen)) != COSROD_OK) return fail_create(s, status, cst);
  int maxny, time_dep;
  if ((cst = create_rods(s, &maxny, &time_dep, err, errlen)) != COSROD_OK) return fail_create(s, status, cst);
  if ((cst = sim_layout_create(&s->sys, maxny, err, errlen)) != COSROD_OK) return fail_create(s, status, cst);
  if ((cst = sim_initial_state(&s->sys, err, errlen)) != COSROD_OK) return fail_create(s, status, cst);
  if ((cst = sim_problem_create(&s->sys, time_dep, err, errlen)) != COSROD_OK) return fail_create(s, status, cst);
  const cosrod_ode_problem *p = &s->sys.m->prob;

  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = sc->solver.rtol;
  o.atol = sc->solver.atol;
  o.h0 = sc->solver.h0;
  o.hmax = sc->solver.hmax;
  o.max_steps = sc->solver.max_steps;
  o.threads = cosrod_par_resolve(sc->solver.threads); /* banded solves (SPIKE) of long rods */
  o.stiff_continue = 1; /* a stiff rod is no reason to stop an explicit run */
  /* DAE form: the multipliers follow from the differential state (index 1);
   * rodas' and ida's estimates on them did not shrink with h on rods with an
   * elastic axial mode on moving bodies (bench/results/kirchhoff-dae-rodas.md) */
  o.suppress_alg = s->sys.m->form == COSROD_FORM_DAE;
  s->opts = o;
  sim_kirchhoff_options(&s->sys, &s->opts); /* system/kirchhoff.c */
  if (s->sys.m->lie) sim_galpha_problem(&s->sys, &s->opts);
  cosrod_status st = COSROD_OK;
  s->integ = cosrod_integrator_create(type, p, &s->opts, &st);
  if (!s->integ) {
    sim_set_err(err, errlen, sc, "solver.integrator", "%s cannot integrate this problem (%s)", iname,
            cosrod_strerror(st));
    return fail_create(s, status, st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED);
  }

  st = make_output_times(s, sc->analysis.t_end, err, errlen);
  if (st == COSROD_OK) st = sim_breaks_collect(s, sc->analysis.t_end);
  if (st != COSROD_OK) return fail_create(s, status, st);

  /* energies at t = 0 */
  if (sim_eval_all(&s->sys, 0.0, s->sys.d->y0, &s->acc.rW_prev, &s->acc.rD_prev) != COSROD_OK) {
    sim_set_err(err, errlen, sc, "rods", "the initial state cannot be evaluated");
    return fail_create(s, status, COSROD_ERR_NONFINITE);
  }
  s->energy = sim_energy_from_data(&s->sys, 0.0, 0.0);
  if (status) *status = COSROD_OK;
  return s;
}

cosrod_sim *cosrod_sim_create(const cosrod_scenario *sc, cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  if (!sc) return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_sim_create: no scenario (NULL)");
  cosrod_sim *obj = sim_create(sc, &st, msg, sizeof msg);
  return cosrod_error_result(obj, status, st, msg);
}

void cosrod_sim_free(cosrod_sim *s) {
  if (!s) return;
  sim_release(s);
  sim_auto_free(s->au);
  free(s);
}

void sim_release(cosrod_sim *s) {
  s->sys.mb = &s->sysm; /* the destructor releases the model */
  s->sys.m = &s->sysm;
  s->sys.d = &s->sysd;
  cosrod_integrator_free(s->integ);
  sim_linsolve_free(&s->sys);
  sim_couple_static_free(&s->sys);
  sim_couple_kirch_free(&s->sys);
  sim_couple_free(&s->sys);
  sim_contact_free(s->sys.d->contact);
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    if (s->stat) cosrod_statics_free(s->stat[r]);
    if (s->sys.m->srods) cosrod_rod_free(s->sys.m->srods[r]);
  }
  free(s->stat);
  cosrod_statics_free(s->land);
  sim_static_contact_free(s);
  free(s->qprev);
  free(s->qland);
  free(s->qeq);
  free(s->sys.m->srods);
  sim_static_free(s);
  free(s->omega);
  free(s->freq);
  free(s->shapes);
  free(s->mode_kind);
  free(s->mode_group);
  free(s->mode_min);
  sim_static_arc_free(s);
  for (size_t r = 0; s->sys.m->rods && r < s->sys.m->nrods; r++) {
    if (s->sys.d->data) cosrod_rod_data_free(s->sys.d->data[r]);
    cosrod_rod_free(s->sys.m->rods[r]);
  }
  free(s->sys.m->rods);
  free(s->sys.d->data);
  free(s->sys.m->ny_r);
  free(s->sys.m->off_r);
  free(s->sys.m->qoff_r);
  free(s->sys.m->map);
  free(s->sys.m->perm);
  free(s->sys.d->yl);
  free(s->sys.d->ypl);
  free(s->sys.d->fl);
  free(s->sys.d->y);
  free(s->sys.d->y0);
  free(s->sys.d->yd);
  free(s->sys.m->dae_id);
  free(s->tout);
  free(s->brk);
  free(s->bwork);
  free(s->sys.d->kwork);
  sim_galpha_free(&s->sys);
  sim_sys_def_free(s->sys.m->def);
}
