// SPDX-License-Identifier: Apache-2.0
/* Own SUNMatrix / SUNLinearSolver over cosrod_band (see sundials_band.h).
 *
 * SUNDIALS' generic matrix and solver objects are a content pointer plus a
 * table of operations (SUNDIALS user guide, "Description of the
 * SUNMatrix / SUNLinearSolver modules"): a direct solver provides gettype,
 * getid, initialize, setup, solve, lastflag, space and free; IDA's and
 * CVODE's linear-solver interfaces use the matrix operations zero (IDA, before
 * the Jacobian), clone (CVODE's saved Jacobian, at CVodeSetLinearSolver),
 * copy / scaleaddi (CVODE's own linear-system function, not used with ours),
 * and destroy.  The operations here map onto the band module: zero marks the
 * band as zero (lazy), setup is cosrod_band_factor, solve cosrod_band_solve. */
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>

#include "cosrod/status.h"
#include "integrate/sundials_band.h"
#include "integrate/sundials_lazy.h" /* the SUNDIALS calls through cosrod_sun_fns */

typedef struct band_content {
  cosrod_band *B; /* NULL until first used (clones) */
  int n, ml, mu;
  cosrod_linalg_backend backend;
  int zero_pending; /* SUNMatZero was called and the entries are not zeroed yet */
} band_content;

typedef struct solver_content {
  cosrod_status last; /* status of the last setup */
  long lastflag;      /* 0, or 1 + the column of a bad pivot */
} solver_content;

static SUNMatrix_ID mat_getid(SUNMatrix A) {
  (void)A;
  return SUNMATRIX_CUSTOM;
}

static band_content *bc(SUNMatrix A) { return A->content; }

/* The band of A, allocated on first use, with a pending zero carried out
 * unless the caller overwrites the whole band (covers). */
static cosrod_band *materialize(SUNMatrix A, int covers) {
  band_content *c = bc(A);
  if (!c->B) {
    c->B = cosrod_band_create(c->n, c->ml, c->mu, NULL); /* zeroed */
    if (!c->B) return NULL;
    c->B->backend = c->backend;
    c->zero_pending = 0;
  }
  if (c->zero_pending && !covers) cosrod_band_zero(c->B);
  c->zero_pending = 0;
  c->B->factored = 0;
  return c->B;
}

static void mat_destroy(SUNMatrix A) {
  if (!A) return;
  if (A->content) {
    cosrod_band_free(bc(A)->B);
    free(A->content);
    A->content = NULL;
  }
  SUNMatFreeEmpty(A);
}

static SUNMatrix mat_new(int n, int ml, int mu, cosrod_linalg_backend backend, SUNContext sunctx);

static SUNMatrix mat_clone(SUNMatrix A) {
  const band_content *c = bc(A);
  return mat_new(c->n, c->ml, c->mu, c->backend, A->sunctx);
}

static int mat_zero(SUNMatrix A) {
  if (bc(A)->B) bc(A)->zero_pending = 1; /* an unallocated band is zero already */
  return SUNMAT_SUCCESS;
}

static int same_shape(SUNMatrix A, SUNMatrix B) {
  if (!sunband_is(A) || !sunband_is(B)) return 0;
  const band_content *a = bc(A), *b = bc(B);
  return a->n == b->n && a->ml == b->ml && a->mu == b->mu;
}

/* B <- A */
static int mat_copy(SUNMatrix A, SUNMatrix B) {
  if (!same_shape(A, B)) return SUNMAT_ILL_INPUT;
  if (!bc(A)->B || bc(A)->zero_pending) {
    if (!materialize(B, 1)) return SUNMAT_MEM_FAIL;
    bc(B)->zero_pending = 1;
    return SUNMAT_SUCCESS;
  }
  cosrod_band *src = materialize(A, 0), *dst = materialize(B, 1);
  if (!src || !dst) return SUNMAT_MEM_FAIL;
  return cosrod_band_copy(dst, src) == COSROD_OK ? SUNMAT_SUCCESS : SUNMAT_ILL_INPUT;
}

/* A <- c A + B */
static int mat_scaleadd(realtype c, SUNMatrix A, SUNMatrix B) {
  if (!same_shape(A, B)) return SUNMAT_ILL_INPUT;
  cosrod_band *a = materialize(A, 0), *b = materialize(B, 0);
  if (!a || !b) return SUNMAT_MEM_FAIL;
  return cosrod_band_scale_add(a, c, 1.0, b) == COSROD_OK ? SUNMAT_SUCCESS : SUNMAT_ILL_INPUT;
}

/* A <- c A + I */
static int mat_scaleaddi(realtype c, SUNMatrix A) {
  cosrod_band *a = materialize(A, 0);
  if (!a) return SUNMAT_MEM_FAIL;
  cosrod_band_scale_add_identity(a, c, 1.0);
  return SUNMAT_SUCCESS;
}

/* y <- A x (A not factored) */
static int mat_matvec(SUNMatrix A, N_Vector x, N_Vector y) {
  const band_content *c = bc(A);
  if (c->B && c->B->factored) return SUNMAT_ILL_INPUT;
  cosrod_band *a = materialize(A, 0);
  if (!a) return SUNMAT_MEM_FAIL;
  return cosrod_band_matvec(a, N_VGetArrayPointer(x), N_VGetArrayPointer(y)) == COSROD_OK ? SUNMAT_SUCCESS
                                                                                          : SUNMAT_ILL_INPUT;
}

static int mat_space(SUNMatrix A, long *lenrw, long *leniw) {
  const band_content *c = bc(A);
  *lenrw = c->B ? (long)c->B->ld * (long)c->n + (long)c->n : 0;
  *leniw = c->B ? (long)c->n + 4 : 4;
  return SUNMAT_SUCCESS;
}

static SUNMatrix mat_new(int n, int ml, int mu, cosrod_linalg_backend backend, SUNContext sunctx) {
  SUNMatrix A = SUNMatNewEmpty(sunctx);
  if (!A) return NULL;
  band_content *c = calloc(1, sizeof *c);
  if (!c) {
    SUNMatFreeEmpty(A);
    return NULL;
  }
  c->n = n;
  c->ml = ml < n - 1 ? ml : n - 1;
  c->mu = mu < n - 1 ? mu : n - 1;
  c->backend = backend;
  A->content = c;
  A->ops->getid = mat_getid;
  A->ops->clone = mat_clone;
  A->ops->destroy = mat_destroy;
  A->ops->zero = mat_zero;
  A->ops->copy = mat_copy;
  A->ops->scaleadd = mat_scaleadd;
  A->ops->scaleaddi = mat_scaleaddi;
  A->ops->matvec = mat_matvec;
  A->ops->space = mat_space;
  return A;
}

SUNMatrix sunband_matrix(int n, int ml, int mu, cosrod_linalg_backend backend, SUNContext sunctx) {
  if (n < 1 || ml < 0 || mu < 0) return NULL;
  SUNMatrix A = mat_new(n, ml, mu, backend, sunctx);
  if (A && !materialize(A, 1)) {
    mat_destroy(A);
    return NULL;
  }
  return A;
}

int sunband_is(SUNMatrix A) { return A && A->ops && A->ops->getid == mat_getid && A->content; }

cosrod_band *sunband_band(SUNMatrix A) { return sunband_is(A) ? bc(A)->B : NULL; }

cosrod_band *sunband_begin_fill(SUNMatrix A, int covers) { return materialize(A, covers); }

/* ---------------------------------------------------------------- solver */

static SUNLinearSolver_Type ls_gettype(SUNLinearSolver S) {
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID ls_getid(SUNLinearSolver S) {
  (void)S;
  return SUNLINEARSOLVER_CUSTOM;
}

static int ls_initialize(SUNLinearSolver S) {
  solver_content *c = S->content;
  c->last = COSROD_OK;
  c->lastflag = 0;
  return SUNLS_SUCCESS;
}

static int ls_setup(SUNLinearSolver S, SUNMatrix A) {
  solver_content *c = S->content;
  c->lastflag = 0;
  if (!sunband_is(A)) {
    c->last = COSROD_ERR_INVALID;
    return SUNLS_ILL_INPUT;
  }
  cosrod_band *B = materialize(A, 0);
  if (!B) {
    c->last = COSROD_ERR_NOMEM;
    return SUNLS_MEM_FAIL;
  }
  c->last = cosrod_band_factor(B);
  if (c->last == COSROD_OK) return SUNLS_SUCCESS;
  c->lastflag = B->singular_col + 1;
  if (c->last == COSROD_ERR_SINGULAR || c->last == COSROD_ERR_NONFINITE) return SUNLS_LUFACT_FAIL;
  return SUNLS_PACKAGE_FAIL_UNREC; /* interrupted */
}

/* x <- A^{-1} b with the factors of the last setup (tol unused: direct). */
static int ls_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, realtype tol) {
  (void)tol;
  solver_content *c = S->content;
  const cosrod_band *B = sunband_band(A);
  if (!B || !B->factored) {
    c->lastflag = 0;
    return SUNLS_MEM_NULL;
  }
  double *xv = N_VGetArrayPointer(x);
  const double *bv = N_VGetArrayPointer(b);
  if (xv != bv) memcpy(xv, bv, sizeof(double) * (size_t)B->n);
  return cosrod_band_solve(B, xv) == COSROD_OK ? SUNLS_SUCCESS : SUNLS_PACKAGE_FAIL_UNREC;
}

static sunindextype ls_lastflag(SUNLinearSolver S) { return ((solver_content *)S->content)->lastflag; }

static int ls_space(SUNLinearSolver S, long *lenrw, long *leniw) {
  (void)S;
  *lenrw = 0;
  *leniw = 2;
  return SUNLS_SUCCESS;
}

static int ls_free(SUNLinearSolver S) {
  if (!S) return SUNLS_SUCCESS;
  free(S->content);
  S->content = NULL;
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

SUNLinearSolver sunband_solver(SUNContext sunctx) {
  SUNLinearSolver S = SUNLinSolNewEmpty(sunctx);
  if (!S) return NULL;
  solver_content *c = calloc(1, sizeof *c);
  if (!c) {
    SUNLinSolFreeEmpty(S);
    return NULL;
  }
  S->content = c;
  S->ops->gettype = ls_gettype;
  S->ops->getid = ls_getid;
  S->ops->initialize = ls_initialize;
  S->ops->setup = ls_setup;
  S->ops->solve = ls_solve;
  S->ops->lastflag = ls_lastflag;
  S->ops->space = ls_space;
  S->ops->free = ls_free;
  return S;
}

cosrod_status sunband_solver_status(SUNLinearSolver S) {
  return S && S->content ? ((solver_content *)S->content)->last : COSROD_ERR_INVALID;
}
