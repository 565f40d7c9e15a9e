// SPDX-License-Identifier: Apache-2.0
/* CVODE (BDF) with CVodeSetProjFn projection after every step, for the
 * rigid-body benchmarks of bench/papers ([L] Fig. 14). */
#ifndef COSROD_BENCH_CVODE_PROJ_H
#define COSROD_BENCH_CVODE_PROJ_H

#include "cosrod/integrate.h"

/* Integrates p (f, optional jac, project) from y0 at t = 0 to T with
 * rtol = atol = tol into y (n); counts of f calls (incl. none for the
 * Jacobian when p->jac is set), steps and projections.  0 or -1. */
int cvode_proj_run(const cosrod_ode_problem *p, const double *y0, double T, double tol, double *y, long *nfev,
                   long *nsteps, long *nproj);

#endif
