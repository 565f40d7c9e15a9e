/* Simulation driver, Kirchhoff rods ([LA] §3–4, SPEC §4; the constraint
 * stage itself is src/rod/rod_kirchhoff.c): input checks, what the driver
 * supports for them, the consistent initial state and the projection hook.
 *
 * - Keys that only make sense for a Cosserat rod (shear_correction, viscous
 *   coefficients of constrained strains) are input errors (also found by
 *   the scenario loader).  Kelvin–Voigt damping is accepted: its shear /
 *   axial parts are dropped with the constrained strains, its bending and
 *   torsion parts remain; stiffness overrides of constrained strains are
 *   unused.
 * - Formulations absolute and nullspace; dae is refused (no residual form
 *   with the Kirchhoff multipliers yet).  Static, modal and
 *   start_from_equilibrium analyses are refused for Kirchhoff rods.
 * - The constrained right-hand side has a dense Jacobian (the multipliers
 *   couple the whole rod): implicit methods get the integrators' dense
 *   finite-difference Jacobian instead of the analytic banded one.
 * - The initial state is projected onto the constraints (positions by
 *   Newton, then velocities, cosrod_rod_kirchhoff_project); a move of more
 *   than 1e-9 L is reported by cosrod_sim_input_warning. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

static void kerr(char *err, size_t errlen, const cosrod_scenario *sc, const char *key, const char *fmt, ...) {
  char problem[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  if (err && errlen) cosrod_scenario_format_error(sc, key, problem, err, errlen);
}

static int is_kirchhoff(const cosrod_sc_rod *sr) { return sr->model != COSROD_SC_MODEL_COSSERAT; }

cosrod_status sim_kirchhoff_check(const cosrod_scenario *sc, size_t r, char *err, size_t errlen) {
  const cosrod_sc_rod *sr = &sc->rods[r];
  if (!is_kirchhoff(sr)) return COSROD_OK;
  const char *mname = cosrod_sc_model_name(sr->model);
  int inext = sr->model == COSROD_SC_MODEL_KIRCHHOFF_INEXTENSIBLE;
  char key[96];
  if (sr->shear_correction[0] != 1.0 || sr->shear_correction[1] != 1.0) {
    snprintf(key, sizeof key, "rods.%zu.shear_correction", r);
    kerr(err, errlen, sc, key, "only for cosserat rods (a %s rod has no shear)", mname);
    return COSROD_ERR_INVALID;
  }
  if (sr->damping.kind == COSROD_SC_DAMPING_COEFFICIENTS) {
    /* V_gamma = (shear 1, shear 2, extension) */
    for (int k = 0; k < (inext ? 3 : 2); k++)
      if (sr->damping.V_gamma[k] != 0.0) {
        snprintf(key, sizeof key, "rods.%zu.damping", r);
        kerr(err, errlen, sc, key, "viscous %s coefficient of a constrained strain in a %s rod (must be 0)",
             k < 2 ? "shear" : "extension", mname);
        return COSROD_ERR_INVALID;
      }
  }
  return COSROD_OK;
}

cosrod_status sim_kirchhoff_refuse(const cosrod_scenario *sc, char *err, size_t errlen) {
  for (size_t r = 0; r < sc->nrods; r++) {
    const cosrod_sc_rod *sr = &sc->rods[r];
    if (!is_kirchhoff(sr)) continue;
    char key[64];
    snprintf(key, sizeof key, "rods.%zu.model", r);
    const char *mname = cosrod_sc_model_name(sr->model);
    if (sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC) {
      kerr(err, errlen, sc, key, "%s rods: only dynamic analyses are supported yet", mname);
      return COSROD_ERR_UNSUPPORTED;
    }
    if (sc->analysis.start_from_equilibrium) {
      kerr(err, errlen, sc, key, "%s rods: start_from_equilibrium is not supported yet", mname);
      return COSROD_ERR_UNSUPPORTED;
    }
    if (sc->solver.formulation == COSROD_SC_FORMULATION_DAE) {
      kerr(err, errlen, sc, key, "%s rods: formulation dae is not supported yet (use absolute or nullspace)",
           mname);
      return COSROD_ERR_UNSUPPORTED;
    }
  }
  return COSROD_OK;
}

int sim_has_kirchhoff(const cosrod_sim *s) {
  for (size_t r = 0; r < s->nrods; r++)
    if (cosrod_rod_model_of(s->rods[r]) != COSROD_MODEL_COSSERAT) return 1;
  return 0;
}

cosrod_status sim_kirchhoff_setup(cosrod_sim *s, char *err, size_t errlen) {
  if (!sim_has_kirchhoff(s)) return COSROD_OK;
  cosrod_ode_problem *p = &s->prob;
  /* dense finite-difference Jacobian for implicit methods (see above) */
  p->jac = NULL;
  p->jac_banded = 0;
  p->jac_fills = 0;
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod *rod = s->rods[r];
    if (cosrod_rod_model_of(rod) == COSROD_MODEL_COSSERAT) continue;
    sim_gather(s, r, s->y0, s->yl);
    double moved = 0.0;
    cosrod_status st = cosrod_rod_kirchhoff_project(rod, s->data[r], s->form, 0.0, s->yl, 50, &moved);
    char key[64];
    snprintf(key, sizeof key, "rods.%zu", r);
    if (st != COSROD_OK) {
      double ts;
      int k = cosrod_rod_kirchhoff_singular(s->data[r], &ts);
      if (k >= 0)
        kerr(err, errlen, s->sc, key,
             "no consistent initial state: kinematic singularity at t = 0 near segment %d "
             "(rank-deficient constraint Jacobian, [LA] 4(a))",
             k);
      else
        kerr(err, errlen, s->sc, key, "no consistent initial state (%s)", cosrod_strerror(st));
      return st;
    }
    double gp, gv;
    cosrod_rod_kirchhoff_residual(rod, s->data[r], s->form, 0.0, s->yl, &gp, &gv);
    double L = cosrod_rod_grid(rod)[cosrod_rod_nseg(rod)] - cosrod_rod_grid(rod)[0];
    if (!(gp <= 1e-9 * L)) {
      kerr(err, errlen, s->sc, key, "no consistent initial state (constraint residual %.3g m)", gp);
      return COSROD_ERR_CONVERGENCE;
    }
    if (moved > 1e-9 * L && !s->input_warn[0]) {
      char problem[200];
      snprintf(problem, sizeof problem,
               "warning: initial state moved by up to %.3g m onto the %s constraints", moved,
               cosrod_sc_model_name(s->sc->rods[r].model));
      cosrod_scenario_format_error(s->sc, key, problem, s->input_warn, sizeof s->input_warn);
    }
    sim_scatter(s, r, s->yl, s->y0);
  }
  memcpy(s->y, s->y0, (size_t)s->ny * sizeof *s->y);
  return COSROD_OK;
}

void sim_kirchhoff_failure(cosrod_sim *s, size_t r) {
  double ts;
  int k = cosrod_rod_kirchhoff_singular(s->data[r], &ts);
  if (k < 0 || ts != ts) return;
  snprintf(s->msg, sizeof s->msg,
           "kinematic singularity of rod %zu at t = %.17g near segment %d: rank-deficient constraint "
           "Jacobian ([LA] 4(a))",
           r, ts, k);
}

const char *cosrod_sim_input_warning(const cosrod_sim *s) { return s ? s->input_warn : ""; }
