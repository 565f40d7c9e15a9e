// SPDX-License-Identifier: Apache-2.0
/* Geometry shown for a rigid body (VTK output): its inertia ellipsoid, the
 * uniform solid ellipsoid of the same mass and principal inertias.  For
 * semi-axes (a1, a2, a3) a solid ellipsoid of mass m has
 *   I_1 = m (a2^2 + a3^2) / 5, I_2 = m (a1^2 + a3^2) / 5, I_3 = m (a1^2 + a2^2) / 5,
 * so a_k^2 = 5 (I_1 + I_2 + I_3 - 2 I_k) / (2 m); the triangle inequality
 * of the inertias (checked by cosrod_mbs_create) keeps a_k^2 >= 0. */
#include <math.h>

#include "body_internal.h"

void cosrod_body_inertia_ellipsoid(double mass, const double inertia[3], double semi[3]) {
  double tr = inertia[0] + inertia[1] + inertia[2];
  for (int k = 0; k < 3; ++k) {
    double a2 = 2.5 * (tr - 2.0 * inertia[k]) / mass;
    semi[k] = a2 > 0.0 ? sqrt(a2) : 0.0;
  }
}

void cosrod_mbs_body_ellipsoid(const cosrod_mbs *m, size_t i, double semi[3], double q_axes[4]) {
  const mbs_body *b = &m->bodies[i];
  cosrod_body_inertia_ellipsoid(b->mass, b->inertia, semi);
  if (q_axes) {
    cosrod_quat_from_matrix(q_axes, b->Q);
    cosrod_quat_normalise(q_axes, q_axes);
  }
}
