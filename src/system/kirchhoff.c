// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, Kirchhoff rods ([LA] §3–4, [manual: modelling guide]; the constraint
 * stage itself is src/rod/rod_kirchhoff.c): input checks, what the driver
 * supports for them, the consistent initial state and the projection hook.
 *
 * - Keys that only make sense for a Cosserat rod (shear_correction, viscous
 *   coefficients of constrained strains) are input errors (found by the
 *   scenario loader and the translation, src/sim/sim_translate_sys.c).  Kelvin–Voigt damping is accepted: its shear /
 *   axial parts are dropped with the constrained strains, its bending and
 *   torsion parts remain; stiffness overrides of constrained strains are
 *   unused.
 * - Formulations absolute, nullspace and dae.  Static and modal analyses and
 *   start_from_equilibrium use the statics solver's KKT path
 *   (src/statics/statics_kirchhoff.c); the equilibrium is then projected
 *   like any initial state.
 * - The constrained right-hand side of the ODE forms has a dense Jacobian
 *   (the multipliers S⁻¹(G a0 + h) couple the whole rod): implicit methods
 *   get the integrators' dense finite-difference Jacobian, O(n³).  The DAE
 *   form keeps the multipliers λ_K as unknowns ([LA] Fig. 4a,
 *   cosrod_rod_kirchhoff_rhs_dae): its Jacobian is banded in the node
 *   ordering, assembled analytically (cosrod_rod_kirchhoff_jac_dae_band) for
 *   radau5 / rodas / seulex (mass matrix, sim_jac_node) and ida (residual,
 *   sim_res_jac); rods on bodies: couple_kirchhoff_jac.c.
 *   COSROD_KIRCHHOFF_JAC=fd keeps column-grouped finite differences over
 *   the band (ida: sim_res_jac_fd below): ml + mu + 1 right-hand sides, O(N).
 * - The initial state is projected onto the constraints (positions by
 *   Newton, then velocities, cosrod_rod_kirchhoff_project; DAE: then the
 *   consistent multipliers); a move of more than 1e-9 L is reported by
 *   cosrod_sim_input_warning. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/system_model.h"

/* Residual Jacobian ∂F/∂y + cj ∂F/∂y' of the DAE (ida) by column-grouped
 * forward differences over the band of the node ordering (columns ml + mu + 1
 * apart perturbed together, y_j by δ and y'_j by cj δ): ml + mu + 2
 * residuals.  SUNDIALS' own difference quotients take δ ~ 1/ewt_j, i.e. of
 * the size of atol (1e-3 m at tol 1e-3), too large for the constraint
 * geometry (732 Newton failures in 2211 steps on the rubber rod); here
 * δ = sqrt(eps) max(|y_j|, 1e-3).  Differences s->m->prob.res (with bodies:
 * the coupled residual of couple_kirchhoff.c); work: s->d->kwork (4 ny). */
int sim_res_jac_fd(double t, double cj, const double *y, const double *yp, double *J, int ldj, void *user) {
  sys_system *s = user;
  const int n = s->m->ny, ml = s->m->ml, mu = s->m->mu, w = ml + mu + 1;
  double *yq = s->d->kwork, *ypq = yq + n, *r0 = ypq + n, *r1 = r0 + n;
  const double sq = sqrt(DBL_EPSILON);
  int rc = s->m->prob.res(t, y, yp, r0, s);
  if (rc != 0) return rc;
  memcpy(yq, y, (size_t)n * sizeof *yq);
  memcpy(ypq, yp, (size_t)n * sizeof *ypq);
  for (int g = 0; g < w && g < n; g++) {
    for (int j = g; j < n; j += w) {
      double d = sq * fmax(fabs(y[j]), 1e-3);
      yq[j] = y[j] + d;
      ypq[j] = yp[j] + cj * d;
    }
    if ((rc = s->m->prob.res(t, yq, ypq, r1, s)) != 0) return rc;
    for (int j = g; j < n; j += w) {
      double d = yq[j] - y[j];
      yq[j] = y[j];
      ypq[j] = yp[j];
      int lo = j - mu > 0 ? j - mu : 0, hi = j + ml < n - 1 ? j + ml : n - 1;
      for (int i = lo; i <= hi; i++) J[(size_t)j * (size_t)ldj + (size_t)(mu + i - j)] = (r1[i] - r0[i]) / d;
    }
  }
  return 0;
}

int sim_has_kirchhoff(const sys_system *s) {
  for (size_t r = 0; r < s->m->nrods; r++)
    if (cosrod_rod_model_of(s->m->rods[r]) != COSROD_MODEL_COSSERAT) return 1;
  return 0;
}

cosrod_status sim_kirchhoff_setup(sys_system *s, char *err, size_t errlen) {
  if (!sim_has_kirchhoff(s)) return COSROD_OK;
  cosrod_ode_problem *p = &s->mb->prob;
  /* ODE forms: dense finite-difference Jacobian for implicit methods */
  /* DAE without bodies: the analytic band (sim_jac_node / sim_res_jac,
   * cosrod_rod_kirchhoff_jac_dae_band); COSROD_KIRCHHOFF_JAC=fd (benchmarks):
   * the finite differences */
  const char *kj = getenv("COSROD_KIRCHHOFF_JAC");
  if (s->m->form == COSROD_FORM_DAE && !s->d->cpl && !s->m->split && !(kj && !strcmp(kj, "fd"))) {
    p->jac = sim_jac_node;
    if (s->m->dae_res) p->res_jac = sim_res_jac;
  } else {
    p->jac = NULL;
    p->res_jac = NULL;
    p->jac_fills = 0;
  }
  p->jac_banded = s->m->form == COSROD_FORM_DAE;
  if (s->m->dae_res && !p->res_jac) {
    s->d->kwork = malloc(4 * (size_t)s->m->ny * sizeof *s->d->kwork);
    if (!s->d->kwork) return COSROD_ERR_NOMEM;
    p->res_jac = sim_res_jac_fd;
  }
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    if (cosrod_rod_model_of(rod) == COSROD_MODEL_COSSERAT) continue;
    sim_gather(s, r, s->d->y0, s->d->yl);
    double moved = 0.0;
    cosrod_status st = cosrod_rod_kirchhoff_project(rod, s->d->data[r], s->m->form, 0.0, s->d->yl, 50, &moved);
    char key[64];
    snprintf(key, sizeof key, "rods.%zu", r);
    if (st != COSROD_OK) {
      double ts;
      int k = cosrod_rod_kirchhoff_singular(s->d->data[r], &ts);
      if (k >= 0)
        sys_set_err(err, errlen, s->m->def, key,
             "no consistent initial state: kinematic singularity at t = 0 near segment %d "
             "(rank-deficient constraint Jacobian, [LA] 4(a))",
             k);
      else
        sys_set_err(err, errlen, s->m->def, key, "no consistent initial state (%s)", cosrod_strerror(st));
      return st;
    }
    double gp, gv;
    cosrod_rod_kirchhoff_residual(rod, s->d->data[r], s->m->form, 0.0, s->d->yl, &gp, &gv);
    double L = cosrod_rod_grid(rod)[cosrod_rod_nseg(rod)] - cosrod_rod_grid(rod)[0];
    if (!(gp <= 1e-9 * L)) {
      sys_set_err(err, errlen, s->m->def, key, "no consistent initial state (constraint residual %.3g m)", gp);
      return COSROD_ERR_CONVERGENCE;
    }
    if (moved > 1e-9 * L && !s->m->input_warn[0]) {
      char problem[200];
      snprintf(problem, sizeof problem,
               "warning: initial state moved by up to %.3g m onto the %s constraints", moved,
               s->m->def->rods[r].model_name);
      sys_error(s->m->def, key, problem, s->mb->input_warn, sizeof s->mb->input_warn);
    }
    sim_scatter(s, r, s->d->yl, s->d->y0);
  }
  memcpy(s->d->y, s->d->y0, (size_t)s->m->ny * sizeof *s->d->y);
  /* galpha has no DAE form (it runs the index-1 ODE form): no advice for it */
  if (s->m->form != COSROD_FORM_DAE && (s->m->type->flags & COSROD_STEP_IMPLICIT) && strcmp(s->m->type->name, "galpha") != 0 &&
      !s->m->input_warn[0]) {
    char problem[200];
    snprintf(problem, sizeof problem,
             "warning: %s on the %s form of a Kirchhoff rod uses a dense O(n^3) Jacobian; formulation: dae "
             "gives a banded O(N) one",
             s->m->type->name, s->m->form == COSROD_FORM_NULLSPACE ? "nullspace" : "absolute");
    sys_error(s->m->def, "solver.formulation", problem, s->mb->input_warn, sizeof s->mb->input_warn);
  }
  return COSROD_OK;
}

void sim_kirchhoff_options(const sys_system *s, cosrod_integrate_options *o) {
  /* DAE: a finite-difference Jacobian costs ml + mu + 1 (~60) right-hand
   * sides; keep it while Newton contracts by 0.1 (HW II §IV.8 recommend
   * THET = 0.1 for expensive Jacobians; radau5's default 0.001 recomputed it
   * in 94% of the steps of the steel cantilever, 0.1 in 3%) */
  if (s->m->form == COSROD_FORM_DAE && sim_has_kirchhoff(s) && o->jac_reuse == 0.0) o->jac_reuse = 0.1;
}

void sim_kirchhoff_failure(sys_system *s, size_t r) {
  double ts;
  int k = cosrod_rod_kirchhoff_singular(s->d->data[r], &ts);
  if (k < 0 || ts != ts) return;
  snprintf(s->d->msg, sizeof s->d->msg,
           "kinematic singularity of rod %zu at t = %.17g near segment %d: rank-deficient constraint "
           "Jacobian ([LA] 4(a))",
           r, ts, k);
}

int sim_kirchhoff_explain(const sys_system *s, char *err, size_t errlen) {
  for (size_t r = 0; r < s->m->nrods; r++) {
    double ts;
    int k = cosrod_rod_kirchhoff_singular(s->d->data[r], &ts);
    if (k < 0) continue;
    char key[64];
    snprintf(key, sizeof key, "rods.%zu", r);
    sys_set_err(err, errlen, s->m->def, key,
         "kinematic singularity of the initial state near segment %d (rank-deficient constraint Jacobian, "
         "[LA] 4(a)): e.g. a straight %s rod between two fixed points",
         k, s->m->def->rods[r].model_name);
    return 1;
  }
  return 0;
}
