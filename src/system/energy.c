// SPDX-License-Identifier: Apache-2.0
/* The assembled system's evaluation and energies (module system): every
 * rod (and the bodies they are attached to) at one state, the external
 * power and dissipation rate, and the energy terms of that evaluation. */
#include "system/system_model.h"

cosrod_status sim_eval_all(sys_system *s, double t, const double *y, double *rW, double *rD) {
  double W = 0.0, D = 0.0;
  t = sim_tclamp(s, t);
  if (sim_couple_kirch_prime(s, t, y) != 0) return COSROD_ERR_NONFINITE; /* Kirchhoff rods on bodies: their end accelerations */
  sim_couple_rhs_begin(s, t, y);
  sim_contact_prepare_all(s, t, y);
  for (size_t r = 0; r < s->m->nrods; r++) {
    sim_gather(s, r, y, s->d->yl);
    cosrod_status st = cosrod_rod_eval(s->m->rods[r], s->d->data[r], s->m->form, t, s->d->yl);
    if (st != COSROD_OK) return st;
    W += s->d->data[r]->energy.external_power;
    D += s->d->data[r]->energy.dissipation_rate;
  }
  sim_couple_energy(s, t, &W, &D);
  sim_contact_rates(s->d->contact, &W, &D); /* contact forces: not external work (contact_element.c) */
  if (rW) *rW = W;
  if (rD) *rD = D;
  return COSROD_OK;
}

/* Energy terms from the rods' last evaluation plus the given integrals. */
cosrod_sim_energy sim_energy_from_data(sys_system *s, double W, double D) {
  cosrod_sim_energy e = {0};
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod_energy *re = &s->d->data[r]->energy;
    e.kinetic += re->kinetic_trans + re->kinetic_rot;
    e.elastic += re->shear_ext + re->bend_tors;
    e.gravity += re->gravity;
  }
  sim_couple_energy_terms(s, &e.kinetic, &e.elastic, &e.gravity);
  e.elastic += sim_contact_energy(s->d->contact); /* penalty potential */
  e.external_work = W;
  e.dissipated = D;
  e.balance = e.kinetic + e.elastic + e.gravity + e.dissipated - e.external_work;
  return e;
}
