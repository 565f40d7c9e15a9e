// SPDX-License-Identifier: Apache-2.0
/* System bodies and joints -> multibody model (module system, private). */
#ifndef COSROD_SYSTEM_BODIES_H
#define COSROD_SYSTEM_BODIES_H

#include <stddef.h>

#include "cosrod/body.h"
#include "rod/rod_hooks.h"
#include "system/system_def.h"

#define COSROD_SIM_MAX_BODIES 1024
/* Build the multibody model of d's bodies, joints (bushing joints become
 * bushings) and gravity, skipping the bodies driven by motion keyframes
 * (kinematic bodies, carried rods only): bmap (d->nbodies) receives each
 * definition body's index in the model or -1; bmap NULL: motion bodies are
 * refused.  formulation nullspace -> null-space bodies and joints; absolute
 * -> absolute bodies ([L] eq. 40 / 23) and joint multipliers (with the
 * Baumgarte parameters when stabilisation is baumgarte); dae is not
 * supported for bodies without rods.  Bushings and joints on keyframe
 * bodies keep a pointer to d in the model (d must outlive it).  On failure
 * NULL and one line "FILE:LINE: key: problem" in err; *status set. */
cosrod_mbs *cosrod_sim_bodies_create_map(const sys_def *d, int *bmap, cosrod_status *status, char *err,
                                         size_t errlen);
/* Point masses carried by a definition body (the rods' end vertices on it):
 * their mass m, first moment S = sum m_i a_i and second moment
 * J = sum m_i (|a_i|^2 I - a_i a_i^T) about the body's centre, in the body
 * frame (J column-major). */
typedef struct sim_body_extra {
  double m, S[3], J[9];
} sim_body_extra;
/* cosrod_sim_bodies_create_map with the point masses extra (d->nbodies, or
 * NULL: none) lumped into each dynamic body: mass m_b + m, centre moved by
 * c = S / (m_b + m) (shift, d->nbodies x 3, body frame; may be NULL) and
 * the inertia tensor about the new centre; every body point of the model
 * (joints, bushings, force loads) is then measured from the new centre.
 * The point masses' weight is already applied by their owners (the rods'
 * end reactions), so the model carries a compensating dead force -m g at
 * S / m. */
cosrod_mbs *cosrod_sim_bodies_create_mass(const sys_def *d, int *bmap, const sim_body_extra *extra, double *shift,
                                          cosrod_status *status, char *err, size_t errlen);
/* Keyframes k (n rows of dim values) as rows (t, values) for
 * cosrod_keyframes_eval; NULL if none or no memory (caller frees). */
double *sim_keyframe_rows(const sys_keyframes *k, int dim);
/* Motion of keyframe body sb at t from its rows pos, rot (sim_keyframe_rows;
 * the initial pose at rest where a part has no keyframes): position x,
 * orientation q, velocity v, spatial angular velocity w = 2 Im(q̇ q̄),
 * acceleration a, angular acceleration al = 2 Im(q̈ q̄) (q̇ q̄ is pure for
 * unit q).  All outputs are written. */
void sim_keyframe_motion(const sys_body *sb, const double *pos, const double *rot, double t, double x[3],
                         double q[4], double v[3], double w[3], double a[3], double al[3]);

#endif
