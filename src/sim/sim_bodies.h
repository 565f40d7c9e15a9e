/* Scenario bodies and joints -> multibody model (module sim, private). */
#ifndef COSROD_SIM_BODIES_H
#define COSROD_SIM_BODIES_H

#include <stddef.h>

#include "cosrod/body.h"
#include "cosrod/scenario.h"

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
cosrod_mbs *cosrod_sim_bodies_create_map(const cosrod_scenario *sc, int *bmap, cosrod_status *status, char *err,
                                         size_t errlen);

#endif
