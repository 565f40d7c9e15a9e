// SPDX-License-Identifier: Apache-2.0
/* Rods attached to rigid bodies in the statics system (module system,
 * private; static_blocks.c): one rigid block per dynamic body and the
 * joints' constraint rows (joint_static.c), shared with the analyses on
 * them (src/sim/sim_couple_static.c). */
#ifndef COSROD_SYSTEM_STATIC_BLOCKS_H
#define COSROD_SYSTEM_STATIC_BLOCKS_H

#include "system/joint_static.h"
#include "system/system_model.h"

struct sim_cstat {
  cosrod_statics_blocks blk;
  int nb;            /* dynamic bodies (blocks, model order) */
  int *body;         /* (nb) scenario index of block k */
  int *place, *att;  /* (nb), (3 nattach) */
  double *mass;      /* (nb x 6) */
  double *q;         /* (nq of the system) start_from_equilibrium: the solver's state */
  double *xq;        /* (nb x 7) scratch */
  int cap;           /* modes: eigenpairs computed */
  double *om, *phi;  /* modes: (cap), (cap x ndof) */
  double *pr;        /* modes: (max rod nv) a rod's part of a mode in its own layout */
  sim_cjs *cj;       /* joints: constraint rows, multipliers after the poses */
};

/* The blocks of the dynamic bodies and the joint rows (after sim_couple_create). */
cosrod_status sim_couple_static_blocks_setup(sys_system *s);

#endif /* COSROD_SYSTEM_STATIC_BLOCKS_H */
