// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, part 4: the monitor of silent wrong answers.
 *
 * At every frame of a dynamic run the monitor looks at three numbers that a
 * correct run keeps small (thresholds in include/cosrod/sim.h):
 *   - the energy-balance drift |B(t) - B(0)| ([manual: command line, output reference], B = kinetic +
 *     elastic + gravity + dissipated - external work) relative to the
 *     energy scale S = max over the frames of max(kinetic, elastic,
 *     |gravity - gravity(0)|, |external work|, dissipated, Σ ρA L |g| L)
 *     (the last: the work of gravity over the rods' size, a scale that does
 *     not vanish at rest);
 *   - the unit-quaternion constraint: max over segments | |p_k| - 1 | (the
 *     null-space form keeps it by construction only up to the integration
 *     error; the absolute form needs the projection or Baumgarte);
 *   - blow-up: energy created from nothing, i.e. a drift of more than half
 *     the current scale while the scale has grown by COSROD_SIM_BLOWUP_GROWTH
 *     over a reference: the largest of the scales of the healthy frames
 *     before (drift below the warning level), the initial kinetic + elastic
 *     energy and Σ ρA L |g| L (what gravity supplies over a rod length).  A blow-up ends the run
 * (COSROD_ERR_DIVERGED) with a message that names the likely cause; the drifts are warnings
 *     (cosrod_sim_warning, summary.json "warnings", stderr).
 * With the energy accounting switched off (balance NaN) only |p| is
 * watched.  Nothing is allocated. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

/* What gravity can supply over one rod length, Σ ρA L |g| L [J]: an energy
 * scale of the model that does not vanish at rest. */
static double gravity_scale(const cosrod_sim *s) {
  double g = sqrt(s->sc->gravity[0] * s->sc->gravity[0] + s->sc->gravity[1] * s->sc->gravity[1] +
                  s->sc->gravity[2] * s->sc->gravity[2]);
  double m = 0.0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    double rhoA, L = s->sc->rods[r].length;
    cosrod_rod_constants(s->sys.m->rods[r], NULL, NULL, NULL, NULL, &rhoA, NULL);
    m += rhoA * L * g * L;
  }
  return m;
}

void sim_monitor_reset(cosrod_sim *s) {
  s->mon.n = 0;
  s->mon.bal0 = s->mon.G0 = 0.0;
  s->mon.scale = s->mon.drift = s->mon.pdev = 0.0;
  /* the reference scale starts at what gravity can supply over one rod
   * length (raised by the first frame's energy and the healthy frames): a
   * run from rest that creates energy before its first healthy frame is
   * still recognised */
  s->mon.ref = gravity_scale(s);
  s->mon.t_drift = s->mon.t_pdev = 0.0;
  s->diverged = 0;
  s->nwarn = 0;
}

static double pnorm_deviation(const cosrod_sim *s) {
  double m = 0.0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const cosrod_rod_data *d = s->sys.d->data[r];
    for (int k = 0; k < d->N; k++) {
      const double *p = d->p + 4 * k;
      double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
      if (fabs(n - 1.0) > m) m = fabs(n - 1.0);
    }
  }
  return m;
}

/* The likely cause of a blow-up, for the message. */
static const char *blowup_cause(const cosrod_sim *s) {
  if (s->sys.m->form == COSROD_FORM_ABSOLUTE && !s->sys.m->prob.project && !s->sys.m->baumgarte)
    return "formulation absolute without projection (the quaternions leave |p| = 1): set "
           "solver.stabilisation: projection, or take formulation nullspace";
  if (s->sys.m->type->flags & COSROD_STEP_EXPLICIT)
    return "an explicit method at its stability limit (a stiff rod): take an implicit integrator "
           "(radau5, rodas) or a much smaller rtol";
  return "steps too large for the dynamics: take a smaller rtol / atol or an hmax";
}

int sim_monitor_frame(cosrod_sim *s, double t) {
  const cosrod_sim_energy *e = &s->energy;
  double pdev = pnorm_deviation(s);
  if (pdev > s->mon.pdev || isnan(pdev)) {
    s->mon.pdev = pdev;
    s->mon.t_pdev = t;
  }
  if (!isfinite(e->balance)) {
    s->mon.n++;
    return 0;
  }
  if (s->mon.n == 0) {
    s->mon.bal0 = e->balance;
    s->mon.G0 = e->gravity;
    s->mon.ref = fmax(s->mon.ref, fabs(e->kinetic) + fabs(e->elastic));
  }
  s->mon.n++;
  /* the scale never falls below the work of gravity over the rods' size: near
   * rest the energies of the motion vanish and the drift (integration error
   * of the whole state) would be judged against nothing */
  double scale = fmax(fmax(fmax(fabs(e->kinetic), fabs(e->elastic)),
                           fmax(fabs(e->gravity - s->mon.G0), fmax(fabs(e->external_work), fabs(e->dissipated)))),
                      gravity_scale(s));
  double drift = fabs(e->balance - s->mon.bal0);
  if (scale > s->mon.scale) s->mon.scale = scale;
  if (drift > s->mon.drift) {
    s->mon.drift = drift;
    s->mon.t_drift = t;
  }
  if (drift <= COSROD_SIM_DRIFT_WARN * scale || drift == 0.0) {
    if (scale > s->mon.ref) s->mon.ref = scale;
    return 0;
  }
  if (s->mon.ref > 0.0 && drift > 0.5 * scale && scale > COSROD_SIM_BLOWUP_GROWTH * s->mon.ref) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg,
             "blow-up at t = %.6g s: the energy grew from %.3g J to %.3g J with an energy balance drift of "
             "%.3g J (not supplied by loads or moving ends); likely cause: %s",
             t, s->mon.ref, scale, drift, blowup_cause(s));
    s->t_fail = t;
    s->diverged = 1;
    return -1;
  }
  return 0;
}

static void add_warning(cosrod_sim *s, const char *text) {
  if (s->nwarn < sizeof s->warn / sizeof s->warn[0])
    snprintf(s->warn[s->nwarn++], sizeof s->warn[0], "%s", text);
}

void sim_monitor_finish(cosrod_sim *s) {
  char w[320];
  if (s->mon.scale > 0.0 && s->mon.drift > COSROD_SIM_DRIFT_WARN * s->mon.scale && !s->diverged) {
    snprintf(w, sizeof w,
             "energy balance drift %.3g J = %.3g %% of the energy scale %.3g J (at t = %.6g s; warning above "
             "%g %%): the solution is not accurate; take a smaller rtol / atol%s",
             s->mon.drift, 100.0 * s->mon.drift / s->mon.scale, s->mon.scale, s->mon.t_drift,
             100.0 * COSROD_SIM_DRIFT_WARN,
             s->sys.m->form == COSROD_FORM_ABSOLUTE && !s->sys.m->prob.project ? " or stabilisation: projection" : "");
    add_warning(s, w);
  }
  if (s->mon.pdev > COSROD_SIM_PNORM_WARN) {
    snprintf(w, sizeof w,
             "unit quaternions drifted: max | |p| - 1 | = %.3g (at t = %.6g s; warning above %g)%s",
             s->mon.pdev, s->mon.t_pdev, COSROD_SIM_PNORM_WARN,
             s->sys.m->form == COSROD_FORM_NULLSPACE ? ": take a smaller rtol / atol"
                                              : ": take stabilisation: projection (or a stronger baumgarte)");
    add_warning(s, w);
  }
}

void sim_warn_unstable(cosrod_sim *s, const cosrod_statics_stats *ss, const char *what) {
  if (!ss || ss->unstable <= 0) return;
  char w[320];
  const char *pl = ss->unstable == 1 ? "" : "s";
  if (ss->replaced)
    snprintf(w, sizeof w,
             "%s: the equilibrium nearest the given shape is unstable (%d negative stiffness eigenvalue%s); "
             "the stable one reached downhill from it is used instead",
             what, ss->unstable, pl);
  else
    snprintf(w, sizeof w,
             "%s: the equilibrium is unstable (%d negative stiffness eigenvalue%s: no energy minimum) and "
             "no stable one was reached downhill from it; any disturbance leaves it",
             what, ss->unstable, pl);
  add_warning(s, w);
}

size_t cosrod_sim_nwarnings(const cosrod_sim *s) { return s ? s->nwarn : 0; }

const char *cosrod_sim_warning(const cosrod_sim *s, size_t i) { return s && i < s->nwarn ? s->warn[i] : ""; }
