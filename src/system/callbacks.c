// SPDX-License-Identifier: Apache-2.0
/* Simulation driver: the integrator callbacks of the rods' state (split from
 * sim.c): right-hand side f (every rod, with the rod-body coupling of
 * couple.c around it), the DAE residual and mass matrix, the analytic
 * Jacobians in the SPLIT ([LLA] eq. 29 blocks) and NODE (the rods' banded
 * orderings) layouts, and the projection after steps. */
#include <string.h>

#include "system/system_model.h"

int sim_rhs(double t, const double *y, double *ydot, void *user) {
  sys_system *s = user;
  if (sim_couple_kirch_outer(s)) return sim_couple_kirch_rhs(t, y, ydot, s); /* Kirchhoff rods on bodies */
  t = sim_tclamp(s, t);
  sim_couple_rhs_begin(s, t, y);
  sim_contact_prepare_all(s, t, y);
  const cosrod_rod_form form = sys_eval_form(s);
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    cosrod_rod_data *d = s->d->data[r];
    sim_gather(s, r, y, s->d->yl);
    int rc;
    if (form == COSROD_FORM_NULLSPACE) {
      rc = cosrod_rod_rhs_nullspace(rod, d, t, s->d->yl, s->d->fl);
    } else if (form == COSROD_FORM_DAE && cosrod_rod_kirchhoff_m(rod) > 0) {
      rc = cosrod_rod_kirchhoff_rhs_dae(rod, d, t, s->d->yl, s->d->fl); /* kirchhoff.c */
    } else {
      rc = cosrod_rod_rhs_absolute(rod, d, t, s->d->yl, s->d->fl);
      if (rc == 0 && form == COSROD_FORM_DAE) {
        /* algebraic rows: 0 = λ_post(q, v) - λ */
        int nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod);
        for (int k = 0; k < N; k++) s->d->fl[2 * nq + k] = d->lambda[k] - s->d->yl[2 * nq + k];
      }
    }
    if (rc != 0) {
      sim_kirchhoff_failure(s, r); /* named if the run ends here */
      return rc;
    }
    sim_scatter(s, r, s->d->fl, ydot);
  }
  return sim_couple_rhs_end(s, t, ydot);
}

int sim_res(double t, const double *y, const double *yp, double *res, void *user) {
  sys_system *s = user;
  t = sim_tclamp(s, t);
  sim_contact_prepare_all(s, t, y);
  for (size_t r = 0; r < s->m->nrods; r++) {
    sim_gather(s, r, y, s->d->yl);
    sim_gather(s, r, yp, s->d->ypl);
    int rc = cosrod_rod_res_dae(s->m->rods[r], s->d->data[r], t, s->d->yl, s->d->ypl, s->d->fl);
    if (rc != 0) return rc;
    sim_scatter(s, r, s->d->fl, res);
  }
  return 0;
}

int sim_mass(double *M, int ldm, void *user) {
  sys_system *s = user;
  for (int i = 0; i < s->m->ny; i++) cosrod_jac_set(M, ldm, 1, 0, i, i, s->m->dae_id[i]);
  return 0;
}

/* Analytic Jacobian in the SPLIT layout (reduced second-order form, m1 =
 * nq_tot): per rod the blocks da/dq and da/dv of [LLA] eq. (29), written at
 * the rod's offset on the diagonal of each block. */
int sim_jac_split(double t, const double *y, double *J, int ldj, void *user) {
  sys_system *s = user;
  t = sim_tclamp(s, t);
  sim_contact_prepare_all(s, t, y);
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    int nq = cosrod_rod_nq(rod), o = s->m->qoff_r[r];
    sim_gather(s, r, y, s->d->yl);
    cosrod_rod_jac_block b[2] = {
        {J + (size_t)o * (size_t)ldj, ldj, s->m->ml_q, s->m->mu_q, nq, 0, nq, nq},
        {J + (size_t)(s->m->nq_tot + o) * (size_t)ldj, ldj, s->m->ml, s->m->mu, nq, nq, nq, nq},
    };
    cosrod_status st = cosrod_rod_jac(rod, s->d->data[r], COSROD_FORM_ABSOLUTE, t, s->d->yl, NULL, 0.0, 2, b);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  }
  return 0;
}

/* Analytic Jacobian in the NODE layout: per rod the whole Jacobian in its
 * banded ordering (cosrod_rod_jac_full_band; DAE as a mass-matrix problem:
 * cosrod_rod_jac_dae_mass_band), written at the rod's block on the
 * diagonal (the rod's perm: s->m->perm, = map - the block offset). */
int sim_jac_node(double t, const double *y, double *J, int ldj, void *user) {
  sys_system *s = user;
  t = sim_tclamp(s, t);
  sim_contact_prepare_all(s, t, y);
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    int o = s->m->qoff_r[r];
    sim_gather(s, r, y, s->d->yl);
    double *Jr = J + (size_t)o * (size_t)ldj;
    cosrod_status st = s->m->form == COSROD_FORM_DAE && cosrod_rod_kirchhoff_m(rod) > 0
                           ? cosrod_rod_kirchhoff_jac_dae_band(rod, s->d->data[r], t, s->d->yl,
                                                               s->m->perm + s->m->off_r[r], Jr, ldj, s->m->ml,
                                                               s->m->mu)
                       : s->m->form == COSROD_FORM_DAE
                           ? cosrod_rod_jac_dae_mass_band(rod, s->d->data[r], t, s->d->yl, s->m->perm + s->m->off_r[r],
                                                          Jr, ldj, s->m->ml, s->m->mu)
                           : cosrod_rod_jac_full_band(rod, s->d->data[r], s->m->form, t, s->d->yl, NULL, 0.0,
                                                      s->m->perm + s->m->off_r[r], Jr, ldj, s->m->ml, s->m->mu);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  }
  return 0;
}

/* Residual Jacobian dF/dy + cj dF/dy' of the DAE (ida), NODE layout.
 * Kirchhoff rods: F = M y' - f, so -J_f + cj M from their analytic J_f. */
int sim_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ldj,
                       void *user) {
  sys_system *s = user;
  t = sim_tclamp(s, t);
  sim_contact_prepare_all(s, t, y);
  for (size_t r = 0; r < s->m->nrods; r++) {
    int o = s->m->qoff_r[r];
    sim_gather(s, r, y, s->d->yl);
    sim_gather(s, r, yp, s->d->ypl);
    const cosrod_rod *rod = s->m->rods[r];
    if (cosrod_rod_kirchhoff_m(rod) > 0) {
      double *Jr = J + (size_t)o * (size_t)ldj;
      const int nr = s->m->ny_r[r], ml = s->m->ml, mu = s->m->mu;
      cosrod_status st = cosrod_rod_kirchhoff_jac_dae_band(rod, s->d->data[r], t, s->d->yl,
                                                           s->m->perm + s->m->off_r[r], Jr, ldj, ml, mu);
      if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
      for (int j = 0; j < nr; j++)
        for (int i = j - mu > 0 ? j - mu : 0; i <= j + ml && i < nr; i++)
          Jr[(size_t)j * (size_t)ldj + (size_t)(mu + i - j)] *= -1.0;
      for (int i = 0; i < nr; i++) Jr[(size_t)i * (size_t)ldj + (size_t)mu] += cj * s->m->dae_id[o + i];
      continue;
    }
    cosrod_status st =
        cosrod_rod_jac_full_band(s->m->rods[r], s->d->data[r], COSROD_FORM_DAE, t, s->d->yl, s->d->ypl, cj,
                                 s->m->perm + s->m->off_r[r], J + (size_t)o * (size_t)ldj, ldj, s->m->ml, s->m->mu);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  }
  return 0;
}

int sim_project(double t, double *y, void *user) {
  sys_system *s = user;
  if (s->d->kcp) return sim_couple_kirch_project(t, y, s); /* Kirchhoff rods on bodies */
  const int prc = sim_couple_project(s, t, y); /* 0, COSROD_PROJECT_NEW_COORDINATES or -1 */
  if (prc < 0) return -1;
  sim_couple_rhs_begin(s, sim_tclamp(s, t), y);
  for (size_t r = 0; r < s->m->nrods; r++) {
    sim_gather(s, r, y, s->d->yl);
    /* Kirchhoff rods: also onto their constraints, 3 simplified Newton iterations */
    if (cosrod_rod_kirchhoff_project(s->m->rods[r], s->d->data[r], s->m->form, t, s->d->yl, 3, NULL) != COSROD_OK) {
      sim_kirchhoff_failure(s, r);
      return -1;
    }
    sim_scatter(s, r, s->d->yl, y);
  }
  if (strncmp(s->d->msg, "kinematic singularity", 21) == 0) s->d->msg[0] = '\0'; /* passed: not pending */
  return prc;
}
