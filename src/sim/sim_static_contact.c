// SPDX-License-Identifier: Apache-2.0
/* Rod-rod and self-contact in static analyses: the statics solver of all
 * rods gets the coupling hooks of statics_coupling.h.
 *   before each residual: every rod's vertex positions at q are stored in
 *     the contact (sim_contact_prepare), so that the first rod's load
 *     callback evaluates the contact of all rods at the same state (else a
 *     rod sees the others at their previous trial state and the residual is
 *     not a function of q);
 *   analytic tangent: the contact blocks dF_i/dx_j between vertices of
 *     different rods or more than one vertex apart on one rod (the load
 *     Jacobian callback adds those within a segment) enter J through the
 *     vertices' free coordinates; the finite-difference tangent sees them
 *     by itself on the full-width band.
 * The pairs of the narrow phase change with q: the blocks are those of the
 * evaluation at q, so the pattern follows every Newton iteration. */
#include <stdlib.h>

#include "sim/sim_internal.h"
#include "statics/statics_coupling.h"
#include "system/contact_element.h"

typedef struct sim_rrstat {
  struct sim_contact *c;
  cosrod_rod **rods;
  int nrods;
  double *y; /* (max ny) one rod's (q, ν = 0) */
} sim_rrstat;

static void pre(void *user, const cosrod_statics *s, double t, const double *q) {
  sim_rrstat *h = user;
  for (int r = 0; r < h->nrods; r++) {
    const int nq = cosrod_rod_nq(h->rods[r]), ny = cosrod_rod_ny(h->rods[r], COSROD_FORM_NULLSPACE);
    for (int i = 0; i < ny; i++) h->y[i] = i < nq ? q[cosrod_statics_qoffset(s, r) + i] : 0.0;
    sim_contact_prepare(h->c, (size_t)r, h->rods[r], COSROD_FORM_NULLSPACE, t, h->y);
  }
}

static void jac(void *user, cosrod_statics *s, cosrod_band *J) {
  const sim_rrstat *h = user;
  const cosrod_contact_data *d = sim_contact_data(h->c);
  if (!d) return;
  const cosrod_contact_block *b = cosrod_contact_blocks(d);
  for (size_t i = 0, nb = cosrod_contact_nblocks(d); i < nb; i++, b++) {
    const int o = b->vertex_j - b->vertex_i;
    if (b->rod_i == b->rod_j && o >= -1 && o <= 1) continue; /* in the rod's band (load Jacobian) */
    statics_coupling_add(s, J, b->rod_i, b->vertex_i, b->rod_j, b->vertex_j, b->K);
  }
}

static cosrod_status setup(cosrod_sim *s, cosrod_statics *st, cosrod_rod **rods) {
  if (!s->rrstat) {
    sim_rrstat *h = calloc(1, sizeof *h);
    if (!h) return COSROD_ERR_NOMEM;
    s->rrstat = h;
    h->c = s->sys.d->contact, h->rods = rods, h->nrods = (int)s->sys.m->nrods;
    int nymax = 1;
    for (int r = 0; r < h->nrods; r++) {
      int ny = cosrod_rod_ny(rods[r], COSROD_FORM_NULLSPACE);
      if (ny > nymax) nymax = ny;
    }
    if (!(h->y = malloc((size_t)nymax * sizeof *h->y))) return COSROD_ERR_NOMEM;
  }
  return statics_set_coupling(st, pre, jac, s->rrstat);
}

cosrod_status sim_static_contact_setup(cosrod_sim *s, cosrod_statics *st, cosrod_rod **rods, const char *what,
                                       char *err, size_t errlen) {
  const sys_def *def = s->sys.m->def;
  if (!st || !s->sys.d->contact || !(def->contact.rods || def->contact.self)) return COSROD_OK;
  cosrod_status c = setup(s, st, rods);
  if (c == COSROD_ERR_DIMENSION)
    sim_set_err(err, errlen, s->sc, "contact", "%s: more than %d unknowns for the dense tangent (no KLU, or forced)", what,
                STATICS_COUPLING_MAXN);
  else if (c != COSROD_OK)
    sim_set_err(err, errlen, s->sc, "contact", "%s: %s", what, cosrod_strerror(c));
  return c;
}

void sim_static_contact_free(cosrod_sim *s) {
  sim_rrstat *h = s->rrstat;
  if (h) free(h->y);
  free(h);
  s->rrstat = NULL;
}
