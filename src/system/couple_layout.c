// SPDX-License-Identifier: Apache-2.0
/* Rods attached to rigid bodies: the bodies' place in the state layouts
 * (NODE: each unit next to the first rod end it touches; LIE: after the
 * rods' q and ν), their Lie increment and projection need, the banded
 * finite-difference Jacobian and the coupled structure for the sparse
 * pattern (model and right-hand side: couple.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "system/bodies.h"
#include "system/couple.h"
#include "system/couple_internal.h"
#include "system/system_model.h"

int sim_couple_n(const sys_system *s) { return s->d->cpl ? s->d->cpl->nm : 0; }

static int place_unit(sim_couple *cp, int u, int pos) {
  for (int k = cp->ent0[u]; k < cp->ent0[u + 1]; k++) cp->mmap[cp->ent[k]] = pos++;
  cp->blk_placed[u] = 1;
  return pos;
}

int sim_couple_place(sys_system *s, size_t r, int e, int pos) {
  sim_couple *cp = s->d->cpl;
  if (!cp || !cp->m) return pos;
  for (int u = 0; u < cp->nblk; u++)
    if (!cp->blk_placed[u] && cp->blk_r[u] == (int)r && cp->blk_e[u] == e) pos = place_unit(cp, u, pos);
  return pos;
}

cosrod_status sim_couple_layout(sys_system *s, double *y0, double *dae_id) {
  sim_couple *cp = s->d->cpl;
  if (!cp) return COSROD_OK;
  cp->jw = malloc(3 * (size_t)s->m->ny * sizeof *cp->jw);
  if (!cp->jw) return COSROD_ERR_NOMEM;
  if (!cp->m) return COSROD_OK;
  int pos = s->m->ny; /* the units not placed yet go last */
  for (int u = 0; u < cp->nblk; u++)
    if (!cp->blk_placed[u]) pos -= cp->ent0[u + 1] - cp->ent0[u];
  for (int u = 0; u < cp->nblk; u++)
    if (!cp->blk_placed[u]) pos = place_unit(cp, u, pos);
  for (int i = 0; i < cp->nm; i++) {
    y0[cp->mmap[i]] = cp->ym[i];
    dae_id[cp->mmap[i]] = 1.0;
  }
  /* bandwidths of the coupled structure: each unit is dense; a unit couples
   * with the rod entries next to each end attached to it (the first / last
   * nodes of the rod's banded block; NB entries: ~2x what an end touches); bodies joined
   * by joints or bushings couple with each other */
  const int NB = s->m->form == COSROD_FORM_DAE ? 48 : 24; /* an end touches ~14 entries: its segment (rate, p) and the next vertex (DAE: with the multipliers) */
  int ml = s->m->ml, mu = s->m->mu;
  int lo_all = s->m->ny, hi_all = -1;
  int inter = 0; /* joints / bushings between two bodies couple their units (and the rod ends on them) */
  for (size_t j = 0; j < s->m->def->njoints; j++) inter |= s->m->def->joints[j].body[0] >= 0 && s->m->def->joints[j].body[1] >= 0;
  inter &= cp->nblk > 1;
  for (int u = 0; u < cp->nblk; u++) {
    int lo = s->m->ny, hi = -1;
    for (int k = cp->ent0[u]; k < cp->ent0[u + 1]; k++) {
      int p = cp->mmap[cp->ent[k]];
      if (p < lo) lo = p;
      if (p > hi) hi = p;
    }
    if (hi - lo > ml) ml = hi - lo;
    if (hi - lo > mu) mu = hi - lo;
    if (lo < lo_all) lo_all = lo;
    if (hi > hi_all) hi_all = hi;
    for (size_t i = 0; i < cp->na; ++i) {
      const sim_attach *a = &cp->att[i];
      int mb = cp->bmap[a->body];
      if (mb < 0 || (cp->nblk > 1 && mb != u && !inter)) continue;
      int r0 = s->m->qoff_r[a->rod], r1 = r0 + s->m->ny_r[a->rod] - 1;
      if (a->end == 0 && r1 > r0 + NB - 1) r1 = r0 + NB - 1;
      if (a->end == 1 && r0 < r1 - NB + 1) r0 = r1 - NB + 1;
      int d = hi - r0 > r1 - lo ? hi - r0 : r1 - lo;
      if (d > ml) ml = d;
      if (d > mu) mu = d;
    }
  }
  if (inter && hi_all - lo_all > ml) ml = hi_all - lo_all;
  if (inter && hi_all - lo_all > mu) mu = hi_all - lo_all;
  s->mb->ml = ml;
  s->mb->mu = mu;
  return COSROD_OK;
}

/* galpha's LIE layout (lie_layout.c) for the dynamic bodies: the bodies'
 * positions q_b (nq of the multibody model) at qpos (after the rods' q),
 * their velocities ν_b at the end of y (after the rods' ν), and the
 * increment of the multibody model (cosrod_mbs_increment, body_galpha.c:
 * R³ x SO(3) per null-space body in every parametrisation, the vector space
 * for absolute bodies, T w + ½ Ṫ w for null-space joints).  Returns the
 * number of q entries of the bodies. */
int sim_couple_lie_place(sys_system *s, int qpos) {
  sim_couple *cp = s->d->cpl;
  if (!cp || !cp->m) return 0;
  const int nq = cosrod_mbs_nq(cp->m), vpos = s->m->ny - (cp->nm - nq);
  for (int i = 0; i < nq; i++) cp->mmap[i] = qpos + i;
  for (int i = nq; i < cp->nm; i++) cp->mmap[i] = vpos + i - nq;
  for (int u = 0; u < cp->nblk; u++) cp->blk_placed[u] = 1;
  cp->lie_nb = (int)cosrod_mbs_nbodies(cp->m);
  cp->lie_q0 = qpos;
  cp->lie_w0 = vpos; /* offset in y; in w (ν part only) after subtracting nq_tot */
  return nq;
}

int sim_couple_lie_increment(const sys_system *s, const double *q, const double *w, double *qn) {
  const sim_couple *cp = s->d->cpl;
  if (!cp || cp->lie_nb == 0) return 0;
  return cosrod_mbs_increment(cp->m, cp->d, q + cp->lie_q0, w + cp->lie_w0 - s->m->nq_tot, qn + cp->lie_q0);
}

/* galpha: the bodies need the projection hook (joint constraints, absolute
 * bodies' internal constraints; body_galpha.c). */
int sim_couple_lie_project(const sys_system *s) {
  const sim_couple *cp = s->d->cpl;
  if (!cp || !cp->m) return 0;
  if (cosrod_mbs_nconstr(cp->m) > 0) return 1;
  const int L = (int)cosrod_mbs_nbodies(cp->m);
  return cp->nm - cosrod_mbs_nq(cp->m) != 6 * L; /* absolute bodies carry the rates ṙ */
}

/* Banded finite-difference Jacobian of the coupled right-hand side (band
 * s->m->ml, s->m->mu; storage J[j ldj + mu + i - j]) with Curtis-Powell-Reid
 * column grouping (columns ml + mu + 1 apart share one evaluation) and
 * Hairer's increment d_j = sqrt(u max(1e-5, |y_j|)) (HW II §IV.8).  Given
 * to SUNDIALS: CVODE's own difference quotients scale the increment with
 * the error weights, ~atol |h| u for entries near zero, which loses every
 * digit against the stiff rod forces. */
int sim_couple_jac_fd(double t, const double *y, double *J, int ldj, void *user) {
  sys_system *s = user;
  const int n = s->m->ny, ml = s->m->ml, mu = s->m->mu, stride = ml + mu + 1;
  double *yp = s->d->cpl->jw, *f0 = yp + n, *f1 = f0 + n;
  const double u = 2.220446049250313e-16;
  int rc = sim_rhs(t, y, f0, s);
  if (rc != 0) return rc;
  memcpy(yp, y, (size_t)n * sizeof *yp);
  for (int g = 0; g < stride && g < n; g++) {
    for (int j = g; j < n; j += stride) yp[j] = y[j] + sqrt(u * fmax(1e-5, fabs(y[j])));
    if ((rc = sim_rhs(t, yp, f1, s)) != 0) return rc;
    for (int j = g; j < n; j += stride) {
      double d = yp[j] - y[j];
      yp[j] = y[j];
      int i0 = j - mu > 0 ? j - mu : 0, i1 = j + ml < n - 1 ? j + ml : n - 1;
      double *col = J + (size_t)j * (size_t)ldj + mu - j;
      for (int i = i0; i <= i1; i++) col[i] = (f1[i] - f0[i]) / d;
    }
  }
  return 0;
}

/* Structure of the coupled Jacobian for a sparse pattern (linsolve.c),
 * as sim_couple_layout bounds it: unit u of the dynamic bodies occupies
 * y[ulo[u] .. uhi[u]] (dense); attachment k couples unit aunit[k] with the
 * rod entries y[alo[k] .. ahi[k]] next to its end (both ways); *inter = 1
 * when joints or bushings join two bodies (their units couple).  Arrays
 * sized sim_couple_nunits / sim_couple_nattach; returns the number of
 * units (0 without dynamic bodies). */
int sim_couple_nunits(const sys_system *s) { return s->d->cpl && s->d->cpl->m ? s->d->cpl->nblk : 0; }
/* Shapes on dynamic bodies with contact: each couples its body's unit to
 * every rod (a contact can occur anywhere along a rod). */
int sim_couple_body_contact(const sys_system *s) {
  const sim_couple *cp = s->d->cpl;
  int n = 0;
  if (!cp || !cp->m || !s->d->contact) return 0;
  for (size_t k = 0; k < s->m->def->contact.nobstacles; k++) {
    const int b = s->m->def->contact.obstacles[k].body;
    n += b >= 0 && cp->bmap[b] >= 0;
  }
  return n;
}

int sim_couple_nattach(const sys_system *s) {
  return s->d->cpl ? (int)s->d->cpl->na + sim_couple_body_contact(s) * (int)s->m->nrods : 0;
}
int sim_couple_structure(const sys_system *s, int *ulo, int *uhi, int *aunit, int *alo, int *ahi, int *nat,
                         int *inter) {
  const sim_couple *cp = s->d->cpl;
  *nat = 0;
  *inter = 0;
  if (!cp || !cp->m) return 0;
  const int NB = s->m->form == COSROD_FORM_DAE ? 48 : 24; /* as sim_couple_layout */
  for (int u = 0; u < cp->nblk; u++) {
    ulo[u] = s->m->ny, uhi[u] = -1;
    for (int k = cp->ent0[u]; k < cp->ent0[u + 1]; k++) {
      int p = cp->mmap[cp->ent[k]];
      if (p < ulo[u]) ulo[u] = p;
      if (p > uhi[u]) uhi[u] = p;
    }
  }
  for (size_t i = 0; i < cp->na; ++i) {
    const sim_attach *a = &cp->att[i];
    int mb = cp->bmap[a->body];
    if (mb < 0) continue;
    int r0 = s->m->qoff_r[a->rod], r1 = r0 + s->m->ny_r[a->rod] - 1;
    if (a->end == 0 && r1 > r0 + NB - 1) r1 = r0 + NB - 1;
    if (a->end == 1 && r0 < r1 - NB + 1) r0 = r1 - NB + 1;
    aunit[*nat] = cp->nblk == 1 ? 0 : mb;
    alo[*nat] = r0;
    ahi[*nat] = r1;
    (*nat)++;
  }
  for (size_t k = 0; s->d->contact && k < s->m->def->contact.nobstacles; k++) { /* shapes on bodies: whole rods */
    const int b = s->m->def->contact.obstacles[k].body, mb = b >= 0 ? cp->bmap[b] : -1;
    if (mb < 0) continue;
    for (size_t r = 0; r < s->m->nrods; r++) {
      aunit[*nat] = cp->nblk == 1 ? 0 : mb;
      alo[*nat] = s->m->qoff_r[r];
      ahi[*nat] = s->m->qoff_r[r] + s->m->ny_r[r] - 1;
      (*nat)++;
    }
  }
  for (size_t j = 0; j < s->m->def->njoints; j++)
    *inter |= s->m->def->joints[j].body[0] >= 0 && s->m->def->joints[j].body[1] >= 0;
  *inter &= cp->nblk > 1;
  return cp->nblk;
}
