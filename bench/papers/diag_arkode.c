// SPDX-License-Identifier: Apache-2.0
/* Independent cross-check of the one-step step counts: SUNDIALS ARKODE
 * (ARKStep, fully implicit SDIRK, Newton, dense linear solver, difference
 * quotient Jacobian) on exactly the right-hand side cosrod_sim hands to its
 * integrators.  If ARKODE's stiffly accurate DIRK methods also need thousands
 * of steps on perf-rubber, the step counts are a property of the problem, not
 * of cosrod's RADAU5/RODAS/SEULEX.
 *   diag_arkode SCENARIO [--set k=v]... TOL [ORDER 3|4|5] */
#include <arkode/arkode_arkstep.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "sim/sim_hooks.h"

static int fi(realtype t, N_Vector y, N_Vector yd, void *u) {
  const cosrod_ode_problem *p = u;
  return p->f(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yd), p->user);
}

int main(int argc, char **argv) {
  const char *sets[32];
  size_t nsets = 0;
  int a = 2;
  while (a + 1 < argc && !strcmp(argv[a], "--set") && nsets < 32) {
    sets[nsets++] = argv[a + 1];
    a += 2;
  }
  if (a >= argc) {
    fprintf(stderr, "usage: %s SCENARIO [--set k=v]... TOL [ORDER]\n", argv[0]);
    return 2;
  }
  double tol = atof(argv[a]);
  int order = a + 1 < argc ? atoi(argv[a + 1]) : 4;
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(argv[1], sets, nsets, NULL))) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  int n = p->n;
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  N_Vector y = N_VNew_Serial(n, ctx);
  memcpy(N_VGetArrayPointer(y), cosrod_sim_state(sim), sizeof(double) * (size_t)n);
  void *mem = ARKStepCreate(NULL, fi, 0.0, y, ctx);
  ARKStepSetUserData(mem, (void *)p);
  ARKStepSStolerances(mem, tol, tol);
  ARKStepSetOrder(mem, order);
  ARKStepSetMaxNumSteps(mem, 1000000);
  SUNMatrix A = SUNDenseMatrix(n, n, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  ARKStepSetLinearSolver(mem, LS, A);
  double T = cosrod_sim_scenario(sim)->analysis.t_end, t = 0.0;
  int flag = ARKStepEvolve(mem, T, y, &t, ARK_NORMAL);
  long ns = 0, ne = 0, nc = 0, nfe = 0, nfi = 0, nje = 0, nni = 0;
  ARKStepGetNumSteps(mem, &ns);
  ARKStepGetNumErrTestFails(mem, &ne);
  ARKStepGetNumNonlinSolvConvFails(mem, &nc);
  ARKStepGetNumRhsEvals(mem, &nfe, &nfi);
  ARKStepGetNumJacEvals(mem, &nje);
  ARKStepGetNumNonlinSolvIters(mem, &nni);
  printf(
      "arkode DIRK order %d tol %.0e: flag %d t %.4g  accepted steps %ld  error-test fails %ld  Newton conv "
      "fails %ld  nfi %ld  njev %ld  Newton its %ld  mean h %.3e\n",
      order, tol, flag, t, ns, ne, nc, nfi, nje, nni, t / (double)ns);
  ARKStepFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  SUNContext_Free(&ctx);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return 0;
}
