/* Simulation driver, fixed-step API (issue 12): cosrod_sim_step advances a
 * dynamic simulation by h for interactive and real-time use.  The first
 * call starts the integrator at t = 0 from the initial state (without the
 * start_from_equilibrium solve of cosrod_sim_run); every call then evolves
 * to t + h without output callbacks, copies the state into the sim and
 * evaluates the rods there (cosrod_sim_state, cosrod_sim_rod_data,
 * cosrod_sim_tip, cosrod_sim_energy_now read it).  With galpha and a fixed
 * step solver.h >= h one call is one step of size h: constant cost (one
 * Newton solve with the Jacobian and LU reused while Newton converges fast)
 * and no allocation. */
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"

cosrod_status cosrod_sim_step(cosrod_sim *s, double h) {
  if (!s || !(h > 0.0) || !isfinite(h) || s->analysis != COSROD_SC_ANALYSIS_DYNAMIC || s->ran)
    return COSROD_ERR_INVALID;
  if (!s->stepping) {
    cosrod_status st = cosrod_integrator_init(s->integ, 0.0, s->y0, NULL);
    if (st != COSROD_OK) return st;
    s->stepping = 1;
    s->t_now = 0.0;
  }
  double t1 = s->t_now + h;
  cosrod_status st = cosrod_integrator_evolve(s->integ, t1, NULL);
  s->t_now = cosrod_integrator_t(s->integ);
  memcpy(s->y, cosrod_integrator_y(s->integ), (size_t)s->ny * sizeof *s->y);
  if (st != COSROD_OK) {
    snprintf(s->msg, sizeof s->msg, "%s", cosrod_integrator_message(s->integ));
    s->t_fail = cosrod_integrator_fail_time(s->integ);
  } else {
    s->h_last = h;
  }
  if (sim_eval_all(s, s->t_now, s->y, NULL, NULL) == COSROD_OK)
    sim_energy_from_data(s, s->need_rates ? NAN : 0.0, s->need_rates ? NAN : 0.0);
  return st;
}
