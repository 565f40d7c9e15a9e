// SPDX-License-Identifier: Apache-2.0
/* The driver's interface for tests and benchmarks (not installed, not
 * exported; linked from the module's static library cosrod_sim). */
#ifndef COSROD_SIM_HOOKS_H
#define COSROD_SIM_HOOKS_H

#include "cosrod/integrate.h"
#include "cosrod/sim.h"

/* The integrator problem of a created simulation (e.g. to compare the
 * analytic Jacobian with finite differences, or to drive a method by hand). */
const cosrod_ode_problem *cosrod_sim_problem(const cosrod_sim *sim);

/* The assembled system of a created simulation (system/system_model.h),
 * for the tests of the system's module-internal functions. */
struct sys_system *sim_system_of(cosrod_sim *sim);

#endif /* COSROD_SIM_HOOKS_H */
