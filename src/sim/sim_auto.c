// SPDX-License-Identifier: Apache-2.0
/* solver.integrator: auto — the time integrator chosen from the problem.
 *
 * Features (sim_auto_features_of): the analysis, constraints (formulation
 * dae, Kirchhoff rods), bodies, contact, the rods' extensional
 * Kelvin–Voigt retardation time tau, and the stiff end of the spectrum:
 * lam_max, the largest |eigenvalue| of J = df/dy at t = 0, from power
 * iterations on forward differences J v ~ (f(y0 + e v) - f(y0)) / e of a
 * probe model (dopri5's layout of the user's formulation, nothing
 * factorised; the ratios |J v| / |v| of the last iterations averaged
 * geometrically, since a conjugate pair +-i w makes them oscillate about w).
 *
 * Rules (sim_auto_rules; measured in bench/auto, documented in the
 * integrators guide, section "auto"):
 *   static, modes, buckling    the statics solver (no time integrator);
 *   solver.h given             galpha with that fixed step;
 *   formulation dae            radau5 -> rodas -> seulex (index-1 DAE with mass matrix);
 *   contact                    radau5 -> rodas;
 *   non-stiff: lam_max T <= SIM_AUTO_NONSTIFF_STEPS (an explicit method
 *     at its stability limit, |h lam| ~ 1 measured for eigenvalues near
 *     the imaginary axis, [HW II] IV.2):
 *                              dop853 (rtol < 1e-7) or dopri5 -> radau5;
 *   Kirchhoff rods, stiffer: their implicit Jacobian is dense, so the
 *     methods that factorise it at every step (rodas, radau5) are out;
 *     at rtol < 1e-7 and lam_max T <= SIM_AUTO_NONSTIFF_KIRCH the
 *     stability-limited dop853 (|h lam| ~ 4, 12 stages: half dopri5's
 *     evaluations per unit time); else
 *                              galpha at the user's rtol (few LUs) -> dop853 / radau5;
 *   overdamped stiff end (lam_max tau >= 1):
 *                              rodas at rtol SIM_AUTO_RODAS_TOL -> radau5;
 *   lam_max T < SIM_AUTO_VERYSTIFF, light or no damping:
 *                              rtol >= SIM_AUTO_GALPHA_MOD_RTOL: galpha at
 *                              rtol * SIM_AUTO_GALPHA_MOD_TOL -> radau5 -> rodas;
 *                              tighter: radau5 -> rodas;
 *   very stiff, light or no damping:
 *                              galpha (generalized-alpha on the rotation group:
 *                              numerical dissipation of the unresolved modes) -> radau5.
 * A struggle (max_steps, step size too small, Newton or non-finite
 * failures) re-creates the sim in place with the next candidate (same
 * formulation) and continues from the last accepted state
 * (sim_auto_switch.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

/* Constants of the rules, from bench/results/auto.md. */
#define SIM_AUTO_NONSTIFF_STEPS 5.0e3 /* explicit when its stability limit needs fewer steps */
#define SIM_AUTO_NONSTIFF_KIRCH 5.0e4 /* dop853 for Kirchhoff rods at a tight rtol up to here */
#define SIM_AUTO_TIGHT_RTOL 1.0e-7    /* below: the eighth-order dop853 instead of dopri5 */
#define SIM_AUTO_VERYSTIFF 1.0e5      /* galpha above, radau5 below (undamped) */
#define SIM_AUTO_ERK_BOUND 1.0    /* |h lam| dopri5 reached on an undamped rod (15 880 steps, lam T 1.56e4) */
#define SIM_AUTO_GALPHA_TOL 1.0   /* galpha's tolerance for the user's rtol */
/* galpha's tolerance for the user's rtol on moderately stiff undamped rods:
 * its estimate bounds the error per step, and the tip error of the undamped
 * rubber pendulum grows with the steps (about 0.15 nsteps rtol: 3.8e-3 m at
 * rtol 1e-4, 1.5e-4 m at 1e-6, N = 10 over 1 s), so rtol / 100 brings the
 * tip error to about the user's rtol times the length (bench/results/auto.md) */
#define SIM_AUTO_GALPHA_MOD_TOL 1.0e-2
/* ... and only from this user rtol up: below, galpha's second order needs
 * more steps than radau5's fifth (the steel cantilever at rest at rtol 1e-8:
 * galpha at 1e-10 stopped at max_steps, radau5 took 1 step) */
#define SIM_AUTO_GALPHA_MOD_RTOL 1.0e-5
#define SIM_AUTO_GALPHA_RHO 0.5   /* rho_inf: damps the unresolved modes, keeps w h < 0.3 */
#define SIM_AUTO_RODAS_TOL 1.0e-1 /* rodas' tolerance for the user's rtol */
#define SIM_AUTO_POWER_ITERS 30   /* power iterations; the last 10 averaged */

/* ---- features ------------------------------------------------------------- */

static double rod_tau(const cosrod_sc_rod *r) {
  const cosrod_sc_damping *d = &r->damping;
  if (d->kind == COSROD_SC_DAMPING_KELVIN_VOIGT) return d->tau_extension;
  if (d->kind == COSROD_SC_DAMPING_COEFFICIENTS && r->material.E > 0.0 && r->section.area > 0.0)
    return d->V_gamma[2] / (r->material.E * r->section.area);
  return 0.0;
}

/* Largest |eigenvalue| of df/dy at (0, y0) by power iteration on forward
 * differences; 0 if f fails. */
static double power_lam_max(const cosrod_ode_problem *p, const double *y0) {
  const int n = p->n;
  double *buf = malloc(4 * (size_t)n * sizeof *buf);
  if (!buf) return 0.0;
  double *f0 = buf, *v = buf + n, *w = buf + 2 * n, *y = buf + 3 * n;
  double ymax = 1.0, logsum = 0.0;
  int nlog = 0;
  if (p->f(0.0, y0, f0, p->user) != 0) goto done;
  unsigned s = 12345u; /* a fixed pseudo-random start: the result is reproducible */
  for (int i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    v[i] = ((double)((s >> 8) & 0xffff) / 65535.0) - 0.5;
    ymax = fmax(ymax, fabs(y0[i]));
  }
  for (int k = 0; k < SIM_AUTO_POWER_ITERS; k++) {
    double nv = 0.0, vmax = 0.0;
    for (int i = 0; i < n; i++) nv += v[i] * v[i], vmax = fmax(vmax, fabs(v[i]));
    nv = sqrt(nv);
    if (!(nv > 0.0)) break;
    const double e = 1e-7 * ymax / vmax;
    for (int i = 0; i < n; i++) y[i] = y0[i] + e * v[i];
    if (p->f(0.0, y, w, p->user) != 0) break;
    double nw = 0.0;
    for (int i = 0; i < n; i++) {
      w[i] = (w[i] - f0[i]) / e;
      nw += w[i] * w[i];
    }
    nw = sqrt(nw);
    if (!isfinite(nw) || !(nw > 0.0)) break;
    if (k >= SIM_AUTO_POWER_ITERS - 10) logsum += log(nw / nv), nlog++;
    for (int i = 0; i < n; i++) v[i] = w[i] / nw;
  }
done:
  free(buf);
  return nlog ? exp(logsum / nlog) : 0.0;
}

cosrod_status sim_auto_features_of(const cosrod_scenario *sc, sim_auto_features *f, char *err,
                                   size_t errlen) {
  memset(f, 0, sizeof *f);
  f->dynamic = sc->analysis.type == COSROD_SC_ANALYSIS_DYNAMIC;
  f->nrods = sc->nrods;
  f->nbodies = sc->nbodies;
  f->dae = sc->solver.formulation == COSROD_SC_FORMULATION_DAE;
  f->contact = sc->contact.enabled;
  f->h_user = sc->solver.h;
  f->rho_user = sc->solver.rho_inf_given ? sc->solver.rho_inf : -1.0;
  f->t_end = sc->analysis.t_end;
  f->every = sc->output.every > 0.0 ? sc->output.every : sc->analysis.t_end / 100.0;
  f->rtol = sc->solver.rtol;
  f->atol = sc->solver.atol;
  for (size_t r = 0; r < sc->nrods; r++) {
    f->kirchhoff |= sc->rods[r].model != COSROD_SC_MODEL_COSSERAT;
    f->tau = fmax(f->tau, rod_tau(&sc->rods[r]));
  }
  if (!f->dynamic || f->h_user > 0.0 || f->dae || f->contact) return COSROD_OK; /* no probe needed */
  cosrod_scenario probe = *sc; /* shallow: only the solver and the start differ */
  probe.solver.integrator = COSROD_SC_INTEGRATOR_DOPRI5;
  probe.solver.h = 0.0;
  probe.analysis.start_from_equilibrium = 0;
  cosrod_status st = COSROD_OK;
  cosrod_sim *ps = cosrod_sim_create(&probe, &st);
  if (!ps) { /* the run's own creation reports what is wrong; no estimate */
    f->lam_max = NAN;
    return COSROD_OK;
  }
  f->lam_max = power_lam_max(&ps->sys.m->prob, ps->sys.d->y0);
  cosrod_sim_free(ps);
  if (err && errlen) err[0] = '\0';
  return COSROD_OK;
}

/* ---- rules ---------------------------------------------------------------- */

static void cand(sim_auto_choice *c, cosrod_sc_integrator m, double rtol, double atol) {
  if (c->n >= SIM_AUTO_MAXCAND) return;
  c->method[c->n] = m;
  c->rtol[c->n] = rtol;
  c->atol[c->n] = atol;
  c->n++;
}

/* Kirchhoff rods past the common non-stiff limit (measured in
 * bench/results/auto.md: the inextensible steel cantilever at N = 10..80,
 * undamped and with Kelvin-Voigt damping, rtol 1e-4..1e-8). */
static void rules_kirchhoff(const sim_auto_features *f, double nexp, sim_auto_choice *c) {
  const double rt = f->rtol, at = f->atol;
  if (rt < SIM_AUTO_TIGHT_RTOL && nexp <= SIM_AUTO_NONSTIFF_KIRCH) {
    cand(c, COSROD_SC_INTEGRATOR_DOP853, rt, at);
    cand(c, COSROD_SC_INTEGRATOR_GALPHA, rt * SIM_AUTO_GALPHA_TOL, at * SIM_AUTO_GALPHA_TOL);
    snprintf(c->reason, sizeof c->reason,
             "Kirchhoff rods (dense implicit Jacobian), largest |lambda| %.3g 1/s, ~%.3g explicit steps "
             "(<= %.0g) at rtol %g < %g: dop853",
             f->lam_max, nexp, SIM_AUTO_NONSTIFF_KIRCH, rt, SIM_AUTO_TIGHT_RTOL);
    return;
  }
  cand(c, COSROD_SC_INTEGRATOR_GALPHA, rt * SIM_AUTO_GALPHA_TOL, at * SIM_AUTO_GALPHA_TOL);
  if (nexp <= SIM_AUTO_NONSTIFF_KIRCH)
    cand(c, COSROD_SC_INTEGRATOR_DOP853, rt, at);
  else
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
  snprintf(c->reason, sizeof c->reason,
           "Kirchhoff rods (dense implicit Jacobian), largest |lambda| %.3g 1/s, ~%.3g explicit steps: "
           "galpha, rho_inf %g, rtol %g",
           f->lam_max, nexp, c->rho_inf, rt * SIM_AUTO_GALPHA_TOL);
}

void sim_auto_rules(const sim_auto_features *f, sim_auto_choice *c) {
  memset(c, 0, sizeof *c);
  c->rho_inf = f->rho_user >= 0.0 ? f->rho_user : SIM_AUTO_GALPHA_RHO; /* the user's when given */
  const double rt = f->rtol, at = f->atol;
  if (!f->dynamic) {
    c->statics = 1;
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at); /* not used */
    snprintf(c->reason, sizeof c->reason, "static analysis: the statics solver (no time integrator)");
    return;
  }
  if (f->h_user > 0.0) {
    c->h = f->h_user;
    cand(c, COSROD_SC_INTEGRATOR_GALPHA, rt, at);
    snprintf(c->reason, sizeof c->reason, "solver.h = %g s given: generalized-alpha with that fixed step",
             f->h_user);
    return;
  }
  if (f->dae) {
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
    cand(c, COSROD_SC_INTEGRATOR_RODAS, rt, at);
    cand(c, COSROD_SC_INTEGRATOR_SEULEX, rt, at);
    snprintf(c->reason, sizeof c->reason, "formulation dae: an index-1 DAE with mass matrix (radau5)");
    return;
  }
  if (f->contact) {
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
    cand(c, COSROD_SC_INTEGRATOR_RODAS, rt, at);
    snprintf(c->reason, sizeof c->reason, "contact: stiff, non-smooth forces (radau5)");
    return;
  }
  if (!(f->lam_max >= 0.0)) { /* no estimate (the probe model could not be built) */
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
    cand(c, COSROD_SC_INTEGRATOR_RODAS, rt, at);
    snprintf(c->reason, sizeof c->reason, "no stiffness estimate: radau5, stiffly accurate and robust");
    return;
  }
  const double nexp = f->lam_max * f->t_end / SIM_AUTO_ERK_BOUND;
  if (nexp <= SIM_AUTO_NONSTIFF_STEPS) {
    cosrod_sc_integrator m = rt < SIM_AUTO_TIGHT_RTOL ? COSROD_SC_INTEGRATOR_DOP853 : COSROD_SC_INTEGRATOR_DOPRI5;
    cand(c, m, rt, at);
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
    snprintf(c->reason, sizeof c->reason,
             "non-stiff: largest |lambda| %.3g 1/s needs ~%.3g explicit steps to t_end (<= %.0g): %s",
             f->lam_max, nexp, SIM_AUTO_NONSTIFF_STEPS, cosrod_sc_integrator_name(m));
    return;
  }
  if (f->kirchhoff) {
    rules_kirchhoff(f, nexp, c);
    return;
  }
  const double zeta = f->lam_max * f->tau;
  if (zeta >= 1.0) {
    cand(c, COSROD_SC_INTEGRATOR_RODAS, rt * SIM_AUTO_RODAS_TOL, at * SIM_AUTO_RODAS_TOL);
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
    snprintf(c->reason, sizeof c->reason,
             "stiff (largest |lambda| %.3g 1/s, ~%.3g explicit steps) and overdamped at the stiff end "
             "(lambda tau = %.3g >= 1): rodas, rtol %g",
             f->lam_max, nexp, zeta, rt * SIM_AUTO_RODAS_TOL);
    return;
  }
  if (nexp < SIM_AUTO_VERYSTIFF) {
    char how[96];
    if (rt >= SIM_AUTO_GALPHA_MOD_RTOL) {
      cand(c, COSROD_SC_INTEGRATOR_GALPHA, rt * SIM_AUTO_GALPHA_MOD_TOL, at * SIM_AUTO_GALPHA_MOD_TOL);
      snprintf(how, sizeof how, ": galpha, rho_inf %g, rtol %g", c->rho_inf, rt * SIM_AUTO_GALPHA_MOD_TOL);
    } else {
      snprintf(how, sizeof how, ", rtol %g < %g: radau5", rt, SIM_AUTO_GALPHA_MOD_RTOL);
    }
    cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
    cand(c, COSROD_SC_INTEGRATOR_RODAS, rt, at);
    snprintf(c->reason, sizeof c->reason,
             "moderately stiff (largest |lambda| %.3g 1/s, ~%.3g explicit steps < %.0g), %s (lambda tau = "
             "%.3g)%s",
             f->lam_max, nexp, SIM_AUTO_VERYSTIFF, f->tau > 0.0 ? "lightly damped" : "undamped", zeta, how);
    return;
  }
  cand(c, COSROD_SC_INTEGRATOR_GALPHA, rt * SIM_AUTO_GALPHA_TOL, at * SIM_AUTO_GALPHA_TOL);
  cand(c, COSROD_SC_INTEGRATOR_RADAU5, rt, at);
  snprintf(c->reason, sizeof c->reason,
           "very stiff (largest |lambda| %.3g 1/s, ~%.3g explicit steps), %s at the stiff end (lambda tau = "
           "%.3g): "
           "galpha, rho_inf %g, rtol %g",
           f->lam_max, nexp, f->tau > 0.0 ? "lightly damped" : "undamped", zeta, c->rho_inf,
           rt * SIM_AUTO_GALPHA_TOL);
}

/* ---- the auto state ------------------------------------------------------- */

/* The copy's solver for candidate i: its method and tolerances; the
 * fallbacks of a null-space run keep the null-space form, so that the
 * rods' states carry over (sim_auto_recover). */
void sim_auto_apply(sim_auto *a, int i) {
  cosrod_sc_solver *so = &a->sc.solver;
  so->integrator = a->c.method[i];
  so->rtol = a->c.rtol[i];
  so->atol = a->c.atol[i];
  if (so->integrator == COSROD_SC_INTEGRATOR_GALPHA) {
    so->h = a->c.h;
    so->rho_inf = a->c.rho_inf;
    so->formulation = COSROD_SC_FORMULATION_NULLSPACE;
  } else {
    so->h = 0.0;
  }
  if (i > 0 && so->formulation == COSROD_SC_FORMULATION_NULLSPACE)
    so->stabilisation = COSROD_SC_STAB_PROJECTION;
  a->cur = i;
}

sim_auto *sim_auto_create(const cosrod_scenario *sc, cosrod_status *st, char *err, size_t errlen) {
  sim_auto *a = calloc(1, sizeof *a);
  if (!a) {
    *st = COSROD_ERR_NOMEM;
    return NULL;
  }
  a->user = sc;
  a->sc = *sc;
  *st = sim_auto_features_of(sc, &a->f, err, errlen);
  if (*st != COSROD_OK) {
    free(a);
    return NULL;
  }
  sim_auto_rules(&a->f, &a->c);
  sim_auto_apply(a, 0);
  snprintf(a->chosen, sizeof a->chosen, "%s",
           a->c.statics ? "statics" : cosrod_sc_integrator_name(a->c.method[0]));
  return a;
}

void sim_auto_free(sim_auto *a) {
  if (!a) return;
  free(a->load_fn);
  free(a->load_user);
  free(a);
}

cosrod_status sim_auto_note_load(sim_auto *a, size_t nrods, size_t r, cosrod_rod_load_fn fn, void *user) {
  if (!a->load_fn) {
    a->load_fn = calloc(nrods ? nrods : 1, sizeof *a->load_fn);
    a->load_user = calloc(nrods ? nrods : 1, sizeof *a->load_user);
    if (!a->load_fn || !a->load_user) return COSROD_ERR_NOMEM;
    a->nload = nrods;
  }
  if (r >= a->nload) return COSROD_ERR_INVALID;
  a->load_fn[r] = fn;
  a->load_user[r] = user;
  return COSROD_OK;
}
const cosrod_scenario *sim_auto_scenario(const sim_auto *a) { return &a->sc; }
const cosrod_scenario *sim_auto_user(const sim_auto *a) { return a->user; }
const sim_auto_choice *sim_auto_get_choice(const sim_auto *a) { return &a->c; }

/* ---- queries (sim.h) ------------------------------------------------------ */

const char *cosrod_sim_solver_chosen(const cosrod_sim *s) {
  if (!s) return "";
  if (s->au) return s->au->c.statics ? "statics" : cosrod_sc_integrator_name(s->au->c.method[0]);
  return s->analysis == COSROD_SC_ANALYSIS_DYNAMIC ? s->sys.m->type->name : "statics";
}

const char *cosrod_sim_solver_reason(const cosrod_sim *s) {
  if (!s) return "";
  if (s->au) return s->au->c.reason;
  return s->analysis == COSROD_SC_ANALYSIS_DYNAMIC
             ? "solver.integrator given in the scenario"
             : "static analysis: the statics solver (no time integrator)";
}

size_t cosrod_sim_nswitches(const cosrod_sim *s) { return s && s->au ? (size_t)s->au->nswitch : 0; }

const char *cosrod_sim_switch(const cosrod_sim *s, size_t i) {
  return s && s->au && i < (size_t)s->au->nswitch ? s->au->sw[i] : "";
}
