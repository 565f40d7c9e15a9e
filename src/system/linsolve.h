// SPDX-License-Identifier: Apache-2.0
/* Linear solver selection for rods attached to bodies: band or sparse (KLU)
 * with the coupled Jacobian's pattern (module system, private; linsolve.c). */
#ifndef COSROD_SYSTEM_LINSOLVE_H
#define COSROD_SYSTEM_LINSOLVE_H

#include <stddef.h>

#include "cosrod/integrate.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"
#include "system/system_def.h"

typedef struct sys_system sys_system; /* the assembled system (system_model.h) */

typedef struct sim_linsolve sim_linsolve;

/* After the layout and the problem's band description: resolve
 * solver.linear_solver, build the pattern when there are dynamic bodies,
 * and set s->m->prob's sparse shape if sparse.  ERR_UNSUPPORTED with err
 * "FILE:LINE: solver.linear_solver: ..." (sparse without KLU), ERR_NOMEM. */
cosrod_status sim_linsolve_setup(sys_system *s, char *err, size_t errlen);
void sim_linsolve_free(sys_system *s);
/* The coupled pattern (also built for the band, for tests): 1 if there is one. */
int sim_linsolve_pattern(const sys_system *s, const int **colptr, const int **rowind);
/* The values of the sparse Jacobian on that pattern at (t, y) (the
 * problem's jac_sp, for benchmarks): 0, -1 without a sparse Jacobian, or
 * the callback's code. */
int sim_linsolve_jac_values(sys_system *s, double t, const double *y, double *Jx);
/* The solver chosen, as cosrod_sim_linear_solver reports it ("" before setup). */
const char *sim_linsolve_desc(const sys_system *s);
/* 1 if the band was kept for self-contact that had no far pair at the start
 * and the contact (as last evaluated) now has a block outside the band: the
 * run should switch (sim_linsolve_switch). */
int sim_linsolve_far_contact(const sys_system *s);
/* Switch to the sparse contact path with the pattern of state y at t (sets
 * s->m->prob's sparse shape; the caller re-creates the integrator). */
cosrod_status sim_linsolve_switch(sys_system *s, double t, const double *y);

/* Resource estimate (sim_check.c): the matrix bytes of a run with bodies
 * when it would take the sparse path (ny unknowns, nbu of them the bodies',
 * rod band rows rod_rows, estimated coupled band ml, mu; auto as
 * sim_linsolve_setup with the chain width bounded by the rods' band and a
 * 13-unknown body); else band_bytes unchanged. */
double sim_linsolve_estimate(const sys_def *def, const cosrod_step_type *type, double ny, double nbu,
                             int rod_rows, int ml, int mu, double band_bytes);

#endif
