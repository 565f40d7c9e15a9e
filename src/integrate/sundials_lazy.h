// SPDX-License-Identifier: Apache-2.0
/* SUNDIALS opened on first use (COSROD_LAZY_SUNDIALS; module-internal).
 * libcosrod is not linked against SUNDIALS (nor, through its KLU linear
 * solver, SuiteSparse): their nine libraries cost more CPU at every process
 * start than a small run (bench/results/output-and-startup.md), and only
 * the ida and cvode methods use them.  Every SUNDIALS function the adapters
 * call is a pointer of cosrod_sun_fns, filled by sun_lazy_load (dlopen of
 * the libraries' sonames) before the first call; the macros below make the
 * adapters' calls go through it.  The header includes every SUNDIALS header
 * that declares one of them first, so a later include of those is empty.
 * Without COSROD_LAZY_SUNDIALS the calls are linked directly and
 * sun_lazy_load only returns 0. */
#ifndef COSROD_INTEGRATE_SUNDIALS_LAZY_H
#define COSROD_INTEGRATE_SUNDIALS_LAZY_H
#include <stddef.h>

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#ifdef COSROD_HAVE_SUNDIALS_KLU
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#endif

/* Loads SUNDIALS once (thread-safe); 0 when every function is there, else
 * -1 and msg (size len, may be NULL) says what is missing. */
int sun_lazy_load(char *msg, size_t len);

#ifdef COSROD_LAZY_SUNDIALS
/* every SUNDIALS function the adapters call */
#define SUN_LAZY_LIST(X) \
  X(CVode) X(CVodeCreate) X(CVodeFree) X(CVodeGetCurrentStep) X(CVodeGetCurrentTime) \
  X(CVodeGetDky) X(CVodeGetLastStep) X(CVodeGetNumErrTestFails) X(CVodeGetNumJacEvals) X(CVodeGetNumLinSolvSetups) \
  X(CVodeGetNumNonlinSolvIters) X(CVodeGetNumStepSolveFails) X(CVodeGetNumSteps) X(CVodeInit) X(CVodeReInit) \
  X(CVodeSStolerances) X(CVodeSVtolerances) X(CVodeSetErrHandlerFn) X(CVodeSetInitStep) X(CVodeSetJacFn) \
  X(CVodeSetLinSysFn) X(CVodeSetLinearSolver) X(CVodeSetMaxNonlinIters) X(CVodeSetMaxNumSteps) X(CVodeSetMaxStep) \
  X(CVodeSetStopTime) X(CVodeSetUserData) X(CVodeWFtolerances) X(IDACalcIC) X(IDACreate) \
  X(IDAFree) X(IDAGetConsistentIC) X(IDAGetCurrentStep) X(IDAGetCurrentTime) X(IDAGetDky) \
  X(IDAGetLastStep) X(IDAGetNumErrTestFails) X(IDAGetNumJacEvals) X(IDAGetNumLinSolvSetups) X(IDAGetNumNonlinSolvIters) \
  X(IDAGetNumStepSolveFails) X(IDAGetNumSteps) X(IDAInit) X(IDAReInit) X(IDASStolerances) \
  X(IDASVtolerances) X(IDASetErrHandlerFn) X(IDASetId) X(IDASetSuppressAlg) X(IDASetInitStep) X(IDASetJacFn) \
  X(IDASetLinearSolver) X(IDASetMaxNonlinIters) X(IDASetMaxNumSteps) X(IDASetMaxStep) X(IDASetStopTime) \
  X(IDASetUserData) X(IDASolve) X(IDAWFtolerances) X(N_VConst) X(N_VDestroy) \
  X(N_VGetArrayPointer) X(N_VNew_Serial) X(SUNBandMatrix) X(SUNBandMatrix_Column) X(SUNBandMatrix_Columns) \
  X(SUNBandMatrix_Data) X(SUNBandMatrix_LDim) X(SUNBandMatrix_StoredUpperBandwidth) X(SUNContext_Create) X(SUNContext_Free) \
  X(SUNDenseMatrix) X(SUNDenseMatrix_Column) X(SUNDenseMatrix_Columns) X(SUNDenseMatrix_Data) X(SUNDenseMatrix_LData) \
  X(SUNDenseMatrix_Rows) X(SUNLinSolFree) X(SUNLinSolFreeEmpty) X(SUNLinSolNewEmpty) X(SUNLinSol_Band) \
  X(SUNLinSol_Dense) X(SUNMatDestroy) X(SUNMatFreeEmpty) X(SUNMatNewEmpty) X(SUNMatZero)
#ifdef COSROD_HAVE_SUNDIALS_KLU
#define SUN_LAZY_KLU_LIST(X) \
  X(SUNLinSol_KLU) X(SUNLinSol_KLUReInit) X(SUNSparseMatrix) X(SUNSparseMatrix_Reallocate)
#else
#define SUN_LAZY_KLU_LIST(X)
#endif

#define SUN_LAZY_MEMBER(f) __typeof__(f) *f;
struct sun_lazy_fns {
  SUN_LAZY_LIST(SUN_LAZY_MEMBER)
  SUN_LAZY_KLU_LIST(SUN_LAZY_MEMBER)
};
extern struct sun_lazy_fns cosrod_sun_fns;

#ifndef SUN_LAZY_IMPL
#define CVode (cosrod_sun_fns.CVode)
#define CVodeCreate (cosrod_sun_fns.CVodeCreate)
#define CVodeFree (cosrod_sun_fns.CVodeFree)
#define CVodeGetCurrentStep (cosrod_sun_fns.CVodeGetCurrentStep)
#define CVodeGetCurrentTime (cosrod_sun_fns.CVodeGetCurrentTime)
#define CVodeGetDky (cosrod_sun_fns.CVodeGetDky)
#define CVodeGetLastStep (cosrod_sun_fns.CVodeGetLastStep)
#define CVodeGetNumErrTestFails (cosrod_sun_fns.CVodeGetNumErrTestFails)
#define CVodeGetNumJacEvals (cosrod_sun_fns.CVodeGetNumJacEvals)
#define CVodeGetNumLinSolvSetups (cosrod_sun_fns.CVodeGetNumLinSolvSetups)
#define CVodeGetNumNonlinSolvIters (cosrod_sun_fns.CVodeGetNumNonlinSolvIters)
#define CVodeGetNumStepSolveFails (cosrod_sun_fns.CVodeGetNumStepSolveFails)
#define CVodeGetNumSteps (cosrod_sun_fns.CVodeGetNumSteps)
#define CVodeInit (cosrod_sun_fns.CVodeInit)
#define CVodeReInit (cosrod_sun_fns.CVodeReInit)
#define CVodeSStolerances (cosrod_sun_fns.CVodeSStolerances)
#define CVodeSVtolerances (cosrod_sun_fns.CVodeSVtolerances)
#define CVodeSetErrHandlerFn (cosrod_sun_fns.CVodeSetErrHandlerFn)
#define CVodeSetInitStep (cosrod_sun_fns.CVodeSetInitStep)
#define CVodeSetJacFn (cosrod_sun_fns.CVodeSetJacFn)
#define CVodeSetLinSysFn (cosrod_sun_fns.CVodeSetLinSysFn)
#define CVodeSetLinearSolver (cosrod_sun_fns.CVodeSetLinearSolver)
#define CVodeSetMaxNonlinIters (cosrod_sun_fns.CVodeSetMaxNonlinIters)
#define CVodeSetMaxNumSteps (cosrod_sun_fns.CVodeSetMaxNumSteps)
#define CVodeSetMaxStep (cosrod_sun_fns.CVodeSetMaxStep)
#define CVodeSetStopTime (cosrod_sun_fns.CVodeSetStopTime)
#define CVodeSetUserData (cosrod_sun_fns.CVodeSetUserData)
#define CVodeWFtolerances (cosrod_sun_fns.CVodeWFtolerances)
#define IDACalcIC (cosrod_sun_fns.IDACalcIC)
#define IDACreate (cosrod_sun_fns.IDACreate)
#define IDAFree (cosrod_sun_fns.IDAFree)
#define IDAGetConsistentIC (cosrod_sun_fns.IDAGetConsistentIC)
#define IDAGetCurrentStep (cosrod_sun_fns.IDAGetCurrentStep)
#define IDAGetCurrentTime (cosrod_sun_fns.IDAGetCurrentTime)
#define IDAGetDky (cosrod_sun_fns.IDAGetDky)
#define IDAGetLastStep (cosrod_sun_fns.IDAGetLastStep)
#define IDAGetNumErrTestFails (cosrod_sun_fns.IDAGetNumErrTestFails)
#define IDAGetNumJacEvals (cosrod_sun_fns.IDAGetNumJacEvals)
#define IDAGetNumLinSolvSetups (cosrod_sun_fns.IDAGetNumLinSolvSetups)
#define IDAGetNumNonlinSolvIters (cosrod_sun_fns.IDAGetNumNonlinSolvIters)
#define IDAGetNumStepSolveFails (cosrod_sun_fns.IDAGetNumStepSolveFails)
#define IDAGetNumSteps (cosrod_sun_fns.IDAGetNumSteps)
#define IDAInit (cosrod_sun_fns.IDAInit)
#define IDAReInit (cosrod_sun_fns.IDAReInit)
#define IDASStolerances (cosrod_sun_fns.IDASStolerances)
#define IDASVtolerances (cosrod_sun_fns.IDASVtolerances)
#define IDASetErrHandlerFn (cosrod_sun_fns.IDASetErrHandlerFn)
#define IDASetId (cosrod_sun_fns.IDASetId)
#define IDASetSuppressAlg (cosrod_sun_fns.IDASetSuppressAlg)
#define IDASetInitStep (cosrod_sun_fns.IDASetInitStep)
#define IDASetJacFn (cosrod_sun_fns.IDASetJacFn)
#define IDASetLinearSolver (cosrod_sun_fns.IDASetLinearSolver)
#define IDASetMaxNonlinIters (cosrod_sun_fns.IDASetMaxNonlinIters)
#define IDASetMaxNumSteps (cosrod_sun_fns.IDASetMaxNumSteps)
#define IDASetMaxStep (cosrod_sun_fns.IDASetMaxStep)
#define IDASetStopTime (cosrod_sun_fns.IDASetStopTime)
#define IDASetUserData (cosrod_sun_fns.IDASetUserData)
#define IDASolve (cosrod_sun_fns.IDASolve)
#define IDAWFtolerances (cosrod_sun_fns.IDAWFtolerances)
#define N_VConst (cosrod_sun_fns.N_VConst)
#define N_VDestroy (cosrod_sun_fns.N_VDestroy)
#define N_VGetArrayPointer (cosrod_sun_fns.N_VGetArrayPointer)
#define N_VNew_Serial (cosrod_sun_fns.N_VNew_Serial)
#define SUNBandMatrix (cosrod_sun_fns.SUNBandMatrix)
#define SUNBandMatrix_Column (cosrod_sun_fns.SUNBandMatrix_Column)
#define SUNBandMatrix_Columns (cosrod_sun_fns.SUNBandMatrix_Columns)
#define SUNBandMatrix_Data (cosrod_sun_fns.SUNBandMatrix_Data)
#define SUNBandMatrix_LDim (cosrod_sun_fns.SUNBandMatrix_LDim)
#define SUNBandMatrix_StoredUpperBandwidth (cosrod_sun_fns.SUNBandMatrix_StoredUpperBandwidth)
#define SUNContext_Create (cosrod_sun_fns.SUNContext_Create)
#define SUNContext_Free (cosrod_sun_fns.SUNContext_Free)
#define SUNDenseMatrix (cosrod_sun_fns.SUNDenseMatrix)
#define SUNDenseMatrix_Column (cosrod_sun_fns.SUNDenseMatrix_Column)
#define SUNDenseMatrix_Columns (cosrod_sun_fns.SUNDenseMatrix_Columns)
#define SUNDenseMatrix_Data (cosrod_sun_fns.SUNDenseMatrix_Data)
#define SUNDenseMatrix_LData (cosrod_sun_fns.SUNDenseMatrix_LData)
#define SUNDenseMatrix_Rows (cosrod_sun_fns.SUNDenseMatrix_Rows)
#define SUNLinSolFree (cosrod_sun_fns.SUNLinSolFree)
#define SUNLinSolFreeEmpty (cosrod_sun_fns.SUNLinSolFreeEmpty)
#define SUNLinSolNewEmpty (cosrod_sun_fns.SUNLinSolNewEmpty)
#define SUNLinSol_Band (cosrod_sun_fns.SUNLinSol_Band)
#define SUNLinSol_Dense (cosrod_sun_fns.SUNLinSol_Dense)
#define SUNMatDestroy (cosrod_sun_fns.SUNMatDestroy)
#define SUNMatFreeEmpty (cosrod_sun_fns.SUNMatFreeEmpty)
#define SUNMatNewEmpty (cosrod_sun_fns.SUNMatNewEmpty)
#define SUNMatZero (cosrod_sun_fns.SUNMatZero)
#ifdef COSROD_HAVE_SUNDIALS_KLU
#define SUNLinSol_KLU (cosrod_sun_fns.SUNLinSol_KLU)
#define SUNLinSol_KLUReInit (cosrod_sun_fns.SUNLinSol_KLUReInit)
#define SUNSparseMatrix (cosrod_sun_fns.SUNSparseMatrix)
#define SUNSparseMatrix_Reallocate (cosrod_sun_fns.SUNSparseMatrix_Reallocate)
#endif
#endif /* SUN_LAZY_IMPL */
#endif /* COSROD_LAZY_SUNDIALS */
#endif
