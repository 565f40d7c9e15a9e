// SPDX-License-Identifier: Apache-2.0
/* Internal to the SUNDIALS adapters (not installed): the state shared by
 *   sundials.c           lifecycle and step type: alloc / free, reset, step,
 *                        dense output (design comment there);
 *   sundials_callbacks.c what SUNDIALS calls back: IDA residual and iteration
 *                        matrix, CVODE right-hand side, Jacobian and linear
 *                        system, error weights (with the Jacobian / matrix glue);
 *   sundials_status.c    SUNDIALS return flags -> cosrod status and messages,
 *                        the error handler, and the counters;
 *   sundials_band.c      our SUNMatrix / SUNLinearSolver over cosrod_band. */
#ifndef COSROD_INTEGRATE_SUNDIALS_INTERNAL_H
#define COSROD_INTEGRATE_SUNDIALS_INTERNAL_H

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "integrate/sundials_lazy.h" /* the SUNDIALS calls through cosrod_sun_fns */

#include "cosrod/band.h"
#include "cosrod/integrate.h"

enum { KIND_IDA = 0, KIND_CVODE = 1 };

/* One non-zero of the (full, n x n) mass matrix. */
typedef struct mass_entry {
  int i, j;
  double v;
} mass_entry;

typedef struct sun_state {
  int kind;
  const char *name;
  cosrod_step_ctx *ctx;
  int n;
  SUNContext sunctx;
  void *mem;
  N_Vector y, yp, tmp, atol, id;
  N_Vector ypic; /* ida: the y' before IDACalcIC, for its retries (sundials.c, sun_calc_ic) */
  SUNMatrix A;
  SUNLinearSolver LS;
  int banded;       /* A is banded: a SUNBandMatrix, or ours (own) */
  int residual;     /* ida: the problem's res is used (else F = M y' - f) */
  int reduced;      /* m1 > 0: the Jacobian callback fills the reduced buffer jred */
  double *jred;     /* (ldred x n) reduced Jacobian of a second-order problem */
  int ldred;        /* its leading dimension */
  mass_entry *mass; /* (nmass) non-zeros of M, or NULL for M = I */
  int nmass;
  int wf_tol;                  /* per-component rtol: own error-weight function */
  double hmax_set;             /* last value passed to Set*MaxStep */
  int cb_fatal;                /* a callback returned < 0 during the current solver call */
  double t_cb_fatal;           /* ... at this time */
  int jac_nonfinite;           /* the Jacobian had a NaN/Inf entry during the current solver call */
  cosrod_integrate_stats base; /* counters before the last (Re)Init */
  char sunmsg[384];            /* last SUNDIALS error message */

  /* our band matrix and solver (sundials_band.c) */
  int own;            /* A is our band matrix, solved by our band LU */
  int covers;         /* own: the Jacobian callback writes every band entry (jac_fills, same bandwidths) */
  cosrod_band *jsave; /* cvode + own: df/dy of the last Jacobian evaluation (reused while CVODE says jok) */
  int jsave_ok;       /* jsave holds a Jacobian */

  /* sparse shape with SUNDIALS' KLU (sundials_sparse.c; COSROD_HAVE_SUNDIALS_KLU) */
  struct cosrod_lsys_sparse *sp; /* pattern, groups, J values; NULL if not sparse */
  double *fsp;                   /* (n) ida: f(t, y) for the differences */
} sun_state;

static inline double *nv(N_Vector v) { return N_VGetArrayPointer(v); }

/* ---- callbacks (sundials_callbacks.c); user data is the sun_state */

/* IDA residual F(t, y, y'): the problem's res, or M y' - f (M = I without a mass matrix). */
int sun_ida_res(sunrealtype t, N_Vector yy, N_Vector ypv, N_Vector rr, void *ud);
/* IDA iteration matrix dF/dy + cj dF/dy' (res_jac), or cj M - df/dy (jac). */
int sun_ida_jac(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector ypv, N_Vector rr, SUNMatrix A, void *ud,
                N_Vector t1, N_Vector t2, N_Vector t3);
/* CVODE right-hand side y' = f(t, y). */
int sun_cv_rhs(sunrealtype t, N_Vector yy, N_Vector ydot, void *ud);
/* CVODE Jacobian df/dy from the problem's jac. */
int sun_cv_jac(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, void *ud, N_Vector t1, N_Vector t2,
               N_Vector t3);
/* CVODE linear system I - gamma df/dy on our band matrix (own), from a saved df/dy. */
int sun_cv_linsys(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, sunbooleantype jok,
                  sunbooleantype *jcur, sunrealtype gamma, void *ud, N_Vector t1, N_Vector t2, N_Vector t3);
/* Sparse shape (sundials_sparse.c, built with SUNDIALS' KLU module): usable
 * for this problem (ODE form, no mass matrix, valid pattern); create A (a
 * SUNSparseMatrix) and LS (SUNLinSol_KLU) after s->y; the Jacobian callbacks
 * (CVODE: df/dy; IDA: cj I - df/dy); free the pattern data. */
int sun_sparse_usable(const sun_state *s);
cosrod_status sun_sparse_create(sun_state *s);
int sun_cv_jac_sparse(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, void *ud, N_Vector t1, N_Vector t2,
                      N_Vector t3);
int sun_ida_jac_sparse(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector ypv, N_Vector rr, SUNMatrix A,
                       void *ud, N_Vector t1, N_Vector t2, N_Vector t3);
void sun_sparse_free(sun_state *s);
/* Error weights for per-component rtol (both solvers). */
int sun_ewt(N_Vector yy, N_Vector ewt, void *ud);

/* ---- status, messages, counters (sundials_status.c) */

/* SUNDIALS error handler: keeps the message in s->sunmsg (nothing printed). */
void sun_on_error(int code, const char *module, const char *function, char *msg, void *ud);
/* Failure of a solver call (IDASolve, CVode, IDACalcIC) at time t: status and message. */
cosrod_status sun_fail_flag(sun_state *s, int flag, double t, const char *what);
/* Setup-time failure of a SUNDIALS call (out of memory or bad input). */
cosrod_status sun_fail_setup(sun_state *s, const char *what, int flag);
/* ctx->stats <- s->base + SUNDIALS' counters since the last (Re)Init. */
void sun_update_stats(sun_state *s);

#endif /* COSROD_INTEGRATE_SUNDIALS_INTERNAL_H */
