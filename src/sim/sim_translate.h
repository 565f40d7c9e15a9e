// SPDX-License-Identifier: Apache-2.0
/* Scenario -> system translations used outside module sim (the recorder,
 * tests and benchmarks; sim_translate_sys.c). */
#ifndef COSROD_SIM_TRANSLATE_H
#define COSROD_SIM_TRANSLATE_H

#include <stddef.h>

#include "cosrod/body.h"
#include "cosrod/contact.h"
#include "cosrod/scenario.h"

/* The multibody model of sc's bodies, joints (bushing joints become
 * bushings) and gravity (system/bodies.h, cosrod_sim_bodies_create_map
 * without a body map: bodies driven by keyframes are refused).  On failure
 * NULL and one line "FILE:LINE: key: problem" in err; *status set. */
cosrod_mbs *cosrod_sim_bodies_create(const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen);

/* Pose and velocity at t of a scenario obstacle: fixed, or moved by its
 * keyframes (the pose in the body frame for a body-fixed one), by the runs'
 * own evaluation (system/contact_element.h, sim_sys_obstacle_pose).  0, or
 * -1 (no memory). */
int sim_obstacle_pose(const cosrod_sc_obstacle *o, double t, cosrod_pose *P);

#endif
