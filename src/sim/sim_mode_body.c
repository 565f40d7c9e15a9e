// SPDX-License-Identifier: Apache-2.0
/* The rigid bodies' part of modal and buckling modes ([manual: output
 * reference], modes_bodies.csv).
 *
 * A mode of rods with rigid bodies is one vector φ of the coupled statics
 * system (system/static_blocks.c): per body block its centre displacement
 * δx (spatial, m) and its rotation δθ (material components, p <- p
 * exp(δθ/2); statics.h cosrod_statics_blocks).  Each mode's row of
 * s->shapes holds the listed rod's vertex table ((N_max + 1) x 6) and then,
 * at sim_mode_body_offset, 6 numbers per scenario body: δx and the spatial
 * rotation vector ω = R(p) δθ (zeros for a body that is not an unknown of
 * the analysis).
 *
 * The rod vertex that sits on a body is no unknown of the rod (its motion
 * is the body's), so the rod's vertex table has zeros there; it is set to
 * the rigid motion of the attachment point x_a = x_b + R(p) a (a: the
 * attachment point in the body frame): d_a = δx + ω × (x_a − x_b), and its
 * rotation ω where the end is clamped to the body (a pinned end's vertex
 * keeps its segment's rotation).  Modes of coupled rods (with bodies, or a
 * buckling analysis of several rods) hold every rod's own table too, between
 * the listed rod's and the bodies' part (sim_mode_rod_offset,
 * cosrod_sim_mode_rod_shape). */
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "sim/sim_internal.h"
#include "system/static_blocks.h"

size_t sim_mode_body_offset(const cosrod_sim *s) { return s->shape_stride - 6 * s->sc->nbodies; }

void sim_mode_body_fill(cosrod_sim *s, const double *q, int i, const double *phi, size_t r) {
  double *row = s->shapes + (size_t)i * s->shape_stride;
  double *bp = row + sim_mode_body_offset(s);
  memset(bp, 0, 6 * s->sc->nbodies * sizeof *bp);
  const struct sim_cstat *c = s->sys.d->cst;
  if (!c || !s->stat || !s->stat[0]) return;
  const cosrod_statics *st = s->stat[0];
  for (int k = 0; k < c->nb; ++k) {
    const int vo = cosrod_statics_block_voffset(st, k), qo = cosrod_statics_block_qoffset(st, k);
    if (vo < 0 || qo < 0) continue;
    double *o = bp + 6 * (size_t)c->body[k];
    cosrod_vec3_copy(o, phi + vo);
    cosrod_quat_rotate(o + 3, q + qo + 3, phi + vo + 3);
  }
  sim_mode_body_attach(s, q, row, row, r); /* the listed rod's vertices on bodies */
}

size_t sim_mode_rod_offset(const cosrod_sim *s, size_t r) {
  size_t nmax = 0, sum = 0, off = 0;
  for (size_t k = 0; k < s->sys.m->nrods; k++) {
    const size_t n = (size_t)cosrod_rod_nseg(s->sys.m->rods[k]);
    if (n > nmax) nmax = n;
    if (k == r) off = sum;
    sum += 6 * (n + 1);
  }
  const size_t base = 6 * (nmax + 1);
  return r < s->sys.m->nrods && s->shape_stride == base + sum + 6 * s->sc->nbodies ? base + off : 0;
}

void sim_mode_body_attach(const cosrod_sim *s, const double *q, const double *row, double *vt, size_t r) {
  const struct sim_cstat *c = s->sys.d->cst;
  if (!c || !s->stat || !s->stat[0]) return;
  const cosrod_statics *st = s->stat[0];
  const double *bp = row + sim_mode_body_offset(s);
  /* the rod's vertices on bodies: the bodies' rigid motion there */
  const int N = cosrod_rod_nseg(s->sys.m->rods[r]);
  for (int e = 0; e < 2; ++e) {
    const cosrod_sc_end *end = &s->sc->rods[r].ends[e];
    if (end->body < 0) continue;
    int k = 0;
    while (k < c->nb && c->body[k] != end->body) ++k;
    if (k == c->nb) continue; /* a body that is not an unknown (prescribed): the vertex stays */
    const int qo = cosrod_statics_block_qoffset(st, k);
    const double *o = bp + 6 * (size_t)end->body;
    double arm[3], w[3], *v = vt + 6 * (size_t)(e == 0 ? 0 : N);
    cosrod_quat_rotate(arm, q + qo + 3, end->at); /* x_a − x_b */
    cosrod_vec3_cross(w, o + 3, arm);
    for (int j = 0; j < 3; ++j) v[j] = o[j] + w[j];
    if (end->type == COSROD_SC_END_CLAMPED) cosrod_vec3_copy(v + 3, o + 3);
  }
}

cosrod_status cosrod_sim_mode_body(const cosrod_sim *s, int i, size_t b, double d[3], double r[3]) {
  if (!s || !s->ran || i < 0 || i >= s->nmodes || b >= s->sc->nbodies || !s->shapes ||
      (s->analysis != COSROD_SC_ANALYSIS_MODES && s->analysis != COSROD_SC_ANALYSIS_BUCKLING))
    return COSROD_ERR_INVALID;
  const double *o = s->shapes + (size_t)i * s->shape_stride + sim_mode_body_offset(s) + 6 * b;
  if (d) cosrod_vec3_copy(d, o);
  if (r) cosrod_vec3_copy(r, o + 3);
  return COSROD_OK;
}

cosrod_status cosrod_sim_mode_rod_shape(const cosrod_sim *s, int i, size_t r, const double **shape) {
  if (!s || !s->ran || i < 0 || i >= s->nmodes || r >= s->sys.m->nrods || !s->shapes || !shape ||
      (s->analysis != COSROD_SC_ANALYSIS_MODES && s->analysis != COSROD_SC_ANALYSIS_BUCKLING))
    return COSROD_ERR_INVALID;
  const double *row = s->shapes + (size_t)i * s->shape_stride;
  const size_t off = sim_mode_rod_offset(s, r);
  *shape = r == s->mode_rod[i] ? row : off ? row + off : NULL;
  return COSROD_OK;
}
