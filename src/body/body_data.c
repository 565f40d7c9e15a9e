// SPDX-License-Identifier: Apache-2.0
/* Multibody data (mutable workspace, sized once from the model) and the
 * model's size and layout queries (include/cosrod/body.h); the model and
 * its initial state are built in body.c. */
#include <stdlib.h>
#include <string.h>

#include "body_internal.h"
#include "core/error.h"

void cosrod_mbs_data_free(cosrod_mbs_data *d) {
  if (!d) return;
  free(d->kin);
  free(d->gt);
  free(d->R);
  free(d->w);
  free(d->wd);
  free(d->h);
  free(d->hc);
  free(d->hext);
  free(d->Jc);
  free(d->gam);
  free(d->g);
  free(d->lam);
  free(d->T);
  free(d->bias);
  free(d->tmp);
  free(d->tmp2);
  cosrod_dense_free(d->S);
  cosrod_dense_free(d->A);
  cosrod_dense_free(d->D15);
  free(d->y1);
  free(d->f0);
  free(d->f1);
  free(d->dfj);
  free(d->Jbuf);
  free(d->dep), free(d->ind), free(d->dep_old), free(d->ind_old), free(d->dep_new), free(d->ind_new);
  free(d->iw);
  free(d->wsave);
  mbs_tan_free(d->tan, d->m->nb);
  free(d);
}

cosrod_mbs_data *cosrod_mbs_data_create(const cosrod_mbs *m, cosrod_status *status) {
  cosrod_error_clear();
  if (!m) return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_mbs_data_create: no model (NULL)");
  cosrod_mbs_data *d = calloc(1, sizeof *d);
  if (!d) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_mbs_data_create: out of memory");
  size_t nw = (size_t)m->nw, nc = (size_t)m->nc, nd = (size_t)m->ndof, n = (size_t)m->n;
  size_t big = nw * (nd > nc ? nd : nc) + nw + 1;
  d->m = m;
  d->R = calloc(9 * m->nb + 1, sizeof(double));
  d->w = calloc(nw + 1, sizeof(double));
  d->wd = calloc(nw + 1, sizeof(double));
  d->h = calloc(nw + 1, sizeof(double));
  d->hc = calloc(nw + 1, sizeof(double));
  d->hext = calloc(nw + 1, sizeof(double));
  d->Jc = calloc(nc * nw + 1, sizeof(double));
  d->gam = calloc(nc + 1, sizeof(double));
  d->gt = calloc(nc + 1, sizeof(double));
  d->g = calloc(nc + 1, sizeof(double));
  d->lam = calloc(nc + 1, sizeof(double));
  d->T = calloc(nw * nd + 1, sizeof(double));
  d->bias = calloc(nw + 1, sizeof(double));
  d->tmp = calloc(nw + nc + 16, sizeof(double));
  d->tmp2 = calloc(big, sizeof(double));
  d->S = nc ? cosrod_dense_create((int)nc, NULL) : NULL;
  d->A = nd ? cosrod_dense_create((int)nd, NULL) : NULL;
  d->D15 = cosrod_dense_create(15, NULL);
  d->y1 = calloc(n + 1, sizeof(double));
  d->f0 = calloc(n + 1, sizeof(double));
  d->f1 = calloc(n + 1, sizeof(double));
  d->dfj = calloc(3 * n + 1, sizeof(double));
  d->Jbuf = calloc(n * n + 1, sizeof(double));
  d->kin = calloc(MBS_KIN_N * m->nkin + 1, sizeof(double));
  d->dep = calloc(nc + 1, sizeof(int)), d->dep_old = calloc(nc + 1, sizeof(int));
  d->dep_new = calloc(nc + 1, sizeof(int));
  d->ind = calloc(nd + 1, sizeof(int)), d->ind_old = calloc(nd + 1, sizeof(int));
  d->ind_new = calloc(nd + 1, sizeof(int));
  d->iw = calloc(nw + nc + 2, sizeof(int));
  d->wsave = calloc(nw + 1, sizeof(double));
  d->tan = mbs_tan_create(m);
  if (!d->R || !d->w || !d->wd || !d->h || !d->hc || !d->hext || !d->Jc || !d->gam || !d->gt || !d->g ||
      !d->lam || !d->T || !d->bias || !d->tmp || !d->tmp2 || (nc && !d->S) || (nd && !d->A) || !d->D15 ||
      !d->y1 || !d->f0 || !d->f1 || !d->dfj || !d->Jbuf || !d->kin || !d->dep || !d->dep_old || !d->dep_new ||
      !d->ind || !d->ind_old || !d->ind_new || !d->iw || !d->wsave || !d->tan) {
    cosrod_mbs_data_free(d);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_mbs_data_create: out of memory (%zu bodies)", m->nb);
  }
  mbs_partition_reset(m, d);
  cosrod_error_clear();
  if (status) *status = COSROD_OK;
  return d;
}

int cosrod_mbs_n(const cosrod_mbs *m) { return m->n; }
int cosrod_mbs_nq(const cosrod_mbs *m) { return m->nq; }
int cosrod_mbs_ndof(const cosrod_mbs *m) { return m->ndof; }
int cosrod_mbs_nconstr(const cosrod_mbs *m) { return m->nc; }
size_t cosrod_mbs_nbodies(const cosrod_mbs *m) { return m->nb; }
int cosrod_mbs_pos_offset(const cosrod_mbs *m, size_t b) { return m->bodies[b].qoff; }
int cosrod_mbs_vel_offset(const cosrod_mbs *m, size_t b) { return m->bodies[b].voff; }
cosrod_body_param cosrod_mbs_body_param(const cosrod_mbs *m, size_t b) { return m->bodies[b].param; }
const char *cosrod_mbs_data_message(const cosrod_mbs_data *d) { return d->msg; }
const char *cosrod_body_param_name(cosrod_body_param p) {
  switch (p) {
    case COSROD_BODY_QUATERNION:
      return "quaternion";
    case COSROD_BODY_DIRECTORS:
      return "directors";
    case COSROD_BODY_EULER313:
      return "euler-angles";
  }
  return "?";
}
