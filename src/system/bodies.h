// SPDX-License-Identifier: Apache-2.0
/* Scenario bodies and joints -> multibody model (module system, private). */
#ifndef COSROD_SYSTEM_BODIES_H
#define COSROD_SYSTEM_BODIES_H

#include <stddef.h>

#include "cosrod/body.h"
#include "cosrod/scenario.h"
#include "rod/rod_hooks.h"

/* Build the multibody model of sc's bodies, joints (bushing joints become
 * bushings) and gravity.  solver.formulation nullspace -> null-space bodies
 * and joints; absolute -> absolute bodies ([L] eq. 40 / 23) and joint
 * multipliers (with solver.baumgarte when stabilisation is baumgarte); dae
 * is not supported for bodies.  On failure NULL and one line
 * "FILE:LINE: key: problem" in err; *status set. */
cosrod_mbs *cosrod_sim_bodies_create(const cosrod_scenario *sc, cosrod_status *status, char *err,
                                     size_t errlen);

/* The same, skipping the bodies driven by motion keyframes (kinematic
 * bodies, carried rods only): bmap (sc->nbodies) receives each scenario
 * body's index in the model or -1.  bmap NULL: motion bodies are refused. */
#define COSROD_SIM_MAX_BODIES 1024
/* The body module's joint type of a scenario joint (not a bushing). */
cosrod_joint_type sim_joint_type(cosrod_sc_joint_type t);
/* Keyframes k (n rows of dim values) as rows (t, values) for
 * cosrod_keyframes_eval; NULL if none or no memory (caller frees). */
double *sim_keyframe_rows(const cosrod_sc_keyframes *k, int dim);
/* Motion of keyframe body sb at t from its rows pos, rot (sim_keyframe_rows;
 * the initial pose at rest where a part has no keyframes): position x,
 * orientation q, velocity v, spatial angular velocity w = 2 Im(q̇ q̄),
 * acceleration a, angular acceleration al = 2 Im(q̈ q̄) (q̇ q̄ is pure for
 * unit q).  All outputs are written. */
void sim_keyframe_motion(const cosrod_sc_body *sb, const double *pos, const double *rot, double t, double x[3],
                         double q[4], double v[3], double w[3], double a[3], double al[3]);
cosrod_mbs *cosrod_sim_bodies_create_map(const cosrod_scenario *sc, int *bmap, cosrod_status *status, char *err,
                                         size_t errlen);

#endif
