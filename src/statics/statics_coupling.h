// SPDX-License-Identifier: Apache-2.0
/* Loads coupling distant vertices of the statics unknowns (rod-rod and
 * self-contact, src/system/contact_element.c): a hook run before every
 * residual (so that every rod's load callback sees all rods at the same q)
 * and one adding the out-of-band stiffness blocks to the analytic tangent.
 * The tangent becomes sparse (KLU) or a full-width band (dense), see
 * statics_coupling.c. */
#ifndef COSROD_STATICS_COUPLING_H
#define COSROD_STATICS_COUPLING_H

#include "cosrod/band.h"
#include "cosrod/statics.h"

/* pre: before each residual / analytic stiffness at (t, q); jac: adds its
 * blocks to J = dr/dδ through statics_coupling_add. */
typedef void (*statics_pre_fn)(void *user, const cosrod_statics *s, double t, const double *q);
typedef void (*statics_jac_fn)(void *user, cosrod_statics *s, cosrod_band *J);

/* Install the hooks and the sparse tangent (or widen the band tangent and
 * the stability monitor to the full width: at most STATICS_COUPLING_DENSE
 * unknowns, or without KLU).  ERR_NOMEM, or ERR_DIMENSION when the dense
 * tangent is forced and the system has more than STATICS_COUPLING_MAXN
 * unknowns (its memory). */
#define STATICS_COUPLING_MAXN 3000
#define STATICS_COUPLING_DENSE 600
cosrod_status statics_set_coupling(cosrod_statics *s, statics_pre_fn pre, statics_jac_fn jac, void *user);
/* J += dr_(rod ri, vertex vi)/dδ_(rod rj, vertex vj) for the vertex force
 * derivative K = dF_i/dx_j (3x3 column-major), through the vertices' free
 * coordinates (3, or 1 along a slide axis, or none). */
void statics_coupling_add(const cosrod_statics *s, cosrod_band *J, int ri, int vi, int rj, int vj, const double *K);

#endif
