// SPDX-License-Identifier: Apache-2.0
/* Joints between rigid bodies in the statics system (joint_static.c). */
#ifndef COSROD_SYSTEM_JOINT_STATIC_H
#define COSROD_SYSTEM_JOINT_STATIC_H

#include "system/system_model.h"

typedef struct sim_cjs sim_cjs;

/* The constraint rows of the scenario's joints (bushings excluded) between
 * the dynamic bodies (blocks) and ground; NULL with *st = COSROD_OK when
 * there are none. */
sim_cjs *sim_cjs_create(const sys_system *s, cosrod_status *st);
void sim_cjs_free(sim_cjs *j);
int sim_cjs_nrows(const sim_cjs *j);
const double *sim_cjs_h(const sim_cjs *j); /* (nrows) FD steps of the multipliers */
/* Adds -Gᵀλ (spatial force, spatial moment about x_b) to the block rows rb
 * (6 per block), writes g into rb + 6 nb and the rows' length scales into
 * scale + 2 nb; qb: poses (7 nb) then λ (nrows). */
void sim_cjs_residual(const sim_cjs *j, const double *qb, int nb, double *rb, double *scale);
/* Joint reactions from the multipliers in qb: per non-bushing joint (R, 6
 * njoints) the force and moment on its first side, spatial, moment about its
 * joint point (as cosrod_sim_joint_reactions). */
void sim_cjs_reactions(const sim_cjs *j, const double *qb, int nb, size_t njoints, double *R);

#endif
