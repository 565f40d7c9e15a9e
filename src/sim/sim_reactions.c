// SPDX-License-Identifier: Apache-2.0
/* Support reactions of the simulation's rods at the current frame
 * (reactions.csv): static and modal analyses through the statics solver
 * (damping-free model, gravity on the pseudo-time path, no inertia),
 * dynamic runs from the rod data of the frame with the inertia of the
 * prescribed end vertices (cosrod_statics_end_reactions); and the contact
 * state of the last evaluation. */
#include <string.h>

#include "cosrod/sim.h"
#include "cosrod/statics.h"
#include "cosrod/vec3.h"
#include "sim/sim_internal.h"

cosrod_status cosrod_sim_reactions(const cosrod_sim *s, size_t r, double R[12], int supported[2]) {
  if (!s || !R || r >= s->sys.m->nrods) return COSROD_ERR_INVALID;
  if (s->analysis != COSROD_SC_ANALYSIS_DYNAMIC && s->stat && s->stat[0] && s->qsys) {
    /* the system's reactions (all rods) at the frame state; rod r's part
     * (arc-length: loads times λ, ends at t = 1) */
    sim_static_y_to_q(s, s->sys.d->y, s->qsys);
    cosrod_status st = s->arc ? cosrod_statics_reactions_at(s->stat[0], 1.0, s->arc_lambda, s->qsys, s->rsys, s->ssys)
                              : cosrod_statics_reactions(s->stat[0], s->t_frame, s->qsys, s->rsys, s->ssys);
    if (st != COSROD_OK) return st;
    memcpy(R, s->rsys + 12 * r, 12 * sizeof *R);
    if (supported) memcpy(supported, s->ssys + 2 * r, 2 * sizeof *supported);
    return COSROD_OK;
  }
  cosrod_status st = cosrod_statics_end_reactions(s->sys.m->rods[r], s->sys.d->data[r], 1.0, 1, R, supported);
  if (st == COSROD_OK && cosrod_rod_kirchhoff_m(s->sys.m->rods[r]) > 0) /* Kirchhoff: minus the constraint force on the end */
    for (int e = 0; e < 2; e++) {
      int sup[2];
      double R2[12], fc[3];
      cosrod_statics_end_reactions(s->sys.m->rods[r], s->sys.d->data[r], 1.0, 0, R2, sup);
      if (!sup[e]) continue;
      cosrod_rod_kirchhoff_end_force(s->sys.m->rods[r], s->sys.d->data[r], e, fc);
      cosrod_vec3_sub(R + 6 * e, R + 6 * e, fc);
    }
  return st;
}

/* The contact state of the last evaluation (system/contact_element.c). */
const cosrod_contact_data *cosrod_sim_contact_data(const cosrod_sim *sim) {
  return sim ? sim_contact_data(sim->sys.d->contact) : NULL;
}
