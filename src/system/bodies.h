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
