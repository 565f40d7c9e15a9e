// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, fixed-step API: cosrod_sim_step advances a
 * dynamic simulation by h for interactive and real-time use.  It is
 * cosrod_sim_advance(sim, t + h) (sim_advance.c): the first call starts the
 * integrator at t = 0 (after start_from_equilibrium if asked), every call
 * lands on t + h, copies the state into the sim and evaluates the rods there
 * (cosrod_sim_state, cosrod_sim_rod_data, cosrod_sim_tip,
 * cosrod_sim_energy_now read it).  With galpha and a fixed step solver.h >= h
 * one call is one step of size h: constant cost (one Newton solve with the
 * Jacobian and LU reused while Newton converges fast) and no allocation. */
#include <math.h>

#include "sim/sim_internal.h"

cosrod_status cosrod_sim_step(cosrod_sim *s, double h) {
  if (!s || !(h > 0.0) || !isfinite(h)) return COSROD_ERR_INVALID;
  cosrod_status st = cosrod_sim_advance(s, s->t_now + h);
  if (st == COSROD_OK) s->h_last = h;
  return st;
}
