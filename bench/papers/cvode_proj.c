// SPDX-License-Identifier: Apache-2.0
/* BDF with projection onto the constraint manifold after every step ([L]
 * Fig. 14, the BDF curve): CVODE (BDF 1-5, Newton, dense LU with the
 * problem's analytic Jacobian) driven directly with its projection interface
 * CVodeSetProjFn (SUNDIALS >= 5.3).  The projection function applies the
 * problem's hook (cosrod_mbs_project: quaternion normalisation, Spurrier-
 * Klumpp for directors, Gauss-Newton onto the joint constraints) to a copy of
 * the step's result and returns the difference as CVODE's correction.
 * cosrod's own cvode stepper does not take the hook: the integrate.h driver
 * projects after the step and would have to restart the BDF history each
 * time (IDA has no projection interface at all). */
#include "cvode_proj.h"

#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

typedef struct cp_user {
  const cosrod_ode_problem *p;
  double *tmp;
  long nfev, nproj;
} cp_user;

static int cp_rhs(sunrealtype t, N_Vector y, N_Vector yd, void *ud) {
  cp_user *u = ud;
  u->nfev++;
  return u->p->f(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yd), u->p->user);
}

static int cp_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1, N_Vector t2,
                  N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  cp_user *u = ud;
  SUNMatZero(J);
  return u->p->jac(t, N_VGetArrayPointer(y), SUNDenseMatrix_Data(J), (int)SUNDenseMatrix_Rows(J), u->p->user);
}

static int cp_proj(sunrealtype t, N_Vector ycur, N_Vector corr, sunrealtype eps, N_Vector err, void *ud) {
  (void)eps, (void)err;
  cp_user *u = ud;
  int n = u->p->n;
  const double *y = N_VGetArrayPointer(ycur);
  double *c = N_VGetArrayPointer(corr);
  memcpy(u->tmp, y, (size_t)n * sizeof *y);
  u->nproj++;
  if (u->p->project(t, u->tmp, u->p->user) != 0) return -1; /* also a change of coordinates */
  for (int i = 0; i < n; ++i) c[i] = u->tmp[i] - y[i];
  return 0;
}

int cvode_proj_run(const cosrod_ode_problem *p, const double *y0, double T, double tol, double *y, long *nfev,
                   long *nsteps, long *nproj) {
  int n = p->n, rc = -1;
  SUNContext ctx = NULL;
  if (SUNContext_Create(NULL, &ctx)) return -1;
  cp_user u = {p, NULL, 0, 0};
  N_Vector v = N_VNew_Serial(n, ctx);
  SUNMatrix A = SUNDenseMatrix(n, n, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(v, A, ctx);
  void *mem = CVodeCreate(CV_BDF, ctx);
  N_Vector w = N_VClone(v);
  u.tmp = N_VGetArrayPointer(w);
  memcpy(N_VGetArrayPointer(v), y0, (size_t)n * sizeof *y0);
  if (CVodeInit(mem, cp_rhs, 0.0, v) || CVodeSetUserData(mem, &u) || CVodeSStolerances(mem, tol, tol) ||
      CVodeSetLinearSolver(mem, LS, A) || (p->jac && CVodeSetJacFn(mem, cp_jac)) ||
      CVodeSetMaxNumSteps(mem, 5000000) || (p->project && CVodeSetProjFn(mem, cp_proj)))
    goto done;
  sunrealtype tret = 0.0;
  rc = CVode(mem, T, v, &tret, CV_NORMAL) < 0 ? -1 : 0;
  memcpy(y, N_VGetArrayPointer(v), (size_t)n * sizeof *y);
  CVodeGetNumSteps(mem, nsteps);
  *nfev = u.nfev;
  *nproj = u.nproj;
done:
  CVodeFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(w);
  N_VDestroy(v);
  SUNContext_Free(&ctx);
  return rc;
}
