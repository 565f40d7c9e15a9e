// SPDX-License-Identifier: Apache-2.0
/* SUNDIALS adapters behind the cosrod step-type interface (SUNDIALS 6.x):
 *
 *   ida    variable-order (1-5), variable-step BDF in fixed-leading-coefficient
 *          form for F(t, y, y') = 0 (IDA; Brenan-Campbell-Petzold, "Numerical
 *          solution of IVPs in DAEs", ch. 3).  The residual is the problem's
 *          `res` (the rod's `dae` formulation, [LA] eq. 14) or, for an ODE
 *          M y' = f(t, y), F = M y' - f (M = I without a mass matrix); index-1
 *          DAEs.  Iteration matrix dF/dy + cj dF/dy' (res_jac), or
 *          cj M - df/dy from the problem's Jacobian, or SUNDIALS' difference
 *          quotients (dense or banded with column grouping).  Consistent
 *          initial values by IDACalcIC (options.dae_init).
 *   cvode  BDF (orders 1-5) with Newton iteration for y' = f(t, y) (CVODE),
 *          Jacobian df/dy from the problem or by difference quotients.
 *
 * Both run in one-step mode (IDA_ONE_STEP / CV_ONE_STEP) with the stop time
 * set to the driver's t_end, so the framework's driver owns the loop: each
 * `step` call is one successful SUNDIALS step (its internal error-test and
 * convergence failures are retried inside), dense output comes from the
 * Nordsieck / modified-divided-difference history (IDAGetDky / CVodeGetDky)
 * on [t_n - h_used, t_n].
 *
 * Linear algebra: with the problem's own banded Jacobian (res_jac / jac,
 * m1 = 0), our band matrix and LU wrapped as a SUNMatrix / SUNLinearSolver
 * (sundials_band.c): the Jacobian is written straight into our
 * band, IDA's iteration matrix dF/dy + cj dF/dy' (or cj M - df/dy) is built
 * in place, CVODE's I - gamma df/dy by our linear-system function from a
 * saved df/dy that is re-evaluated only when CVODE asks (jok false), and the
 * LU runs only in the solver's setup, i.e. when SUNDIALS calls for it.
 * options.linalg_backend: 0 our LU, 1 LAPACK dgbtrf on the same band, 2
 * SUNDIALS' own SUNBandMatrix + SUNLinSol_Band (the previous path, kept for
 * comparison).  Otherwise SUNDenseMatrix + SUNLinSol_Dense, or SUNBandMatrix +
 * SUNLinSol_Band when the problem declares a banded Jacobian.  Our banded
 * layout J[j*ldj + mu + i - j] is written in place into SUNDIALS' band
 * storage (column j at data + j*ldim, diagonal at row smu = mu + ml): passing
 * data + (smu - mu) with ldj = ldim maps both layouts onto each other.  With
 * second-order structure (m1 > 0) the reduced Jacobian is accepted
 * (COSROD_STEP_SECOND_ORDER) and expanded into a dense matrix (the identity
 * blocks lie m2 off the diagonal, so the structure is not exploited).
 *
 * Callbacks follow the same convention as SUNDIALS (0 ok, > 0 recoverable,
 * < 0 fatal) and map directly.  SUNDIALS' error messages are captured by an
 * error handler (nothing is printed) and appended to our failure message.
 *
 * Statistics: nfev counts every call of f / res (including SUNDIALS'
 * difference quotients), njev = Jacobian evaluations, naccept = successful
 * steps, nreject = error-test failures, nconvfail = nonlinear-solver step
 * failures, nsteps = naccept + nreject + nconvfail (attempted steps),
 * ndecomp = linear-solver setups, nnewton = nsolve = nonlinear iterations.
 *
 * Files: this one holds the lifecycle and the step type (alloc / free,
 * reset, step, dense output); the callbacks SUNDIALS calls are in
 * sundials_callbacks.c, flag mapping, messages and counters in
 * sundials_status.c, the shared state in sundials_internal.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "cosrod/integrate.h"
#include "integrate/sundials_band.h"
#include "integrate/sundials_internal.h"

#ifdef COSROD_HAVE_SUNDIALS_KLU
#define SUN_SPARSE_FLAG COSROD_STEP_SPARSE /* sundials_sparse.c */
#else
#define SUN_SPARSE_FLAG 0u
#endif

/* ---------------------------------------------------------------- alloc / free */

static void sun_free(void *state) {
  sun_state *s = state;
  if (!s) return;
  if (s->mem) {
    if (s->kind == KIND_IDA)
      IDAFree(&s->mem);
    else
      CVodeFree(&s->mem);
  }
  if (s->LS) SUNLinSolFree(s->LS);
  if (s->A) SUNMatDestroy(s->A);
  N_Vector *vs[] = {&s->y, &s->yp, &s->tmp, &s->atol, &s->id, &s->ypic};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++)
    if (*vs[k]) N_VDestroy(*vs[k]);
  if (s->sunctx) SUNContext_Free(&s->sunctx);
  free(s->jred);
  cosrod_band_free(s->jsave);
#ifdef COSROD_HAVE_SUNDIALS_KLU
  sun_sparse_free(s);
#endif
  free(s->mass);
  free(s);
}

/* Read the constant mass matrix into a list of non-zeros of the full matrix
 * (identity block first when m1 > 0); reports its bandwidths. */
static cosrod_status read_mass(sun_state *s, int *mlm, int *mum) {
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  const int n = s->n, m1 = p->m1, nb = n - m1;
  const int ld = p->mass_banded ? p->mass_ml + p->mass_mu + 1 : nb;
  if (p->mass_banded && (p->mass_ml < 0 || p->mass_mu < 0))
    return cosrod_step_fail(c, COSROD_ERR_INVALID, c->t, "%s: negative mass-matrix bandwidth", s->name);
  double *M = calloc((size_t)ld * (size_t)nb, sizeof(double));
  s->mass = malloc(sizeof(mass_entry) * ((size_t)m1 + (size_t)ld * (size_t)nb));
  if (!M || !s->mass) {
    free(M);
    return COSROD_ERR_NOMEM;
  }
  int rc = p->mass(M, ld, p->user);
  if (rc != 0) {
    free(M);
    return cosrod_step_fail(c, COSROD_ERR_CALLBACK, c->t, "%s: mass-matrix callback returned %d", s->name,
                            rc);
  }
  int k = 0;
  *mlm = *mum = 0;
  for (int i = 0; i < m1; i++) s->mass[k++] = (mass_entry){i, i, 1.0};
  for (int j = 0; j < nb; j++) {
    int lo = 0, hi = nb - 1;
    if (p->mass_banded) {
      lo = j - p->mass_mu > 0 ? j - p->mass_mu : 0;
      hi = j + p->mass_ml < nb - 1 ? j + p->mass_ml : nb - 1;
    }
    for (int i = lo; i <= hi; i++) {
      double v = p->mass_banded ? M[(size_t)j * (size_t)ld + (size_t)(p->mass_mu + i - j)]
                                : M[(size_t)i + (size_t)j * (size_t)ld];
      if (v == 0.0) continue;
      if (!isfinite(v)) {
        free(M);
        return cosrod_step_fail(c, COSROD_ERR_NONFINITE, c->t, "%s: mass matrix entry (%d, %d) is %g",
                                s->name, m1 + i, m1 + j, v);
      }
      s->mass[k++] = (mass_entry){m1 + i, m1 + j, v};
      if (i - j > *mlm) *mlm = i - j;
      if (j - i > *mum) *mum = j - i;
    }
  }
  s->nmass = k;
  free(M);
  return COSROD_OK;
}

/* The Jacobian's structure: banded (*ml, *mu) or dense, the mass matrix of
 * IDA without a residual, the reduced Jacobian of second-order problems. */
static cosrod_status sun_structure(sun_state *s, int kind, int *ml, int *mu) {
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  const int n = s->n;
  int mlm = 0, mum = 0;
  *ml = *mu = 0;
  if (kind == KIND_IDA && !s->residual && p->mass) {
    cosrod_status st = read_mass(s, &mlm, &mum);
    if (st != COSROD_OK) return st;
  }
  if (s->residual) {
    s->banded = p->jac_banded;
    *ml = p->jac_ml, *mu = p->jac_mu;
  } else if (p->m1 > 0) {
    s->banded = 0; /* identity blocks m2 off the diagonal: expand into a dense matrix */
    if (p->jac) {
      s->reduced = 1;
      const int nr = n - p->m1;
      s->ldred = nr;
      if (p->jac_banded) {
        int a = p->jac_ml_q + p->jac_mu_q, b = p->jac_ml + p->jac_mu;
        s->ldred = (a > b ? a : b) + 1;
      }
      s->jred = malloc(sizeof(double) * (size_t)s->ldred * (size_t)n);
      if (!s->jred)
        return COSROD_ERR_NOMEM;
    }
  } else {
    s->banded = p->jac_banded;
    *ml = p->jac_ml > mlm ? p->jac_ml : mlm;
    *mu = p->jac_mu > mum ? p->jac_mu : mum;
  }
  if (s->banded && (*ml >= n || *mu >= n)) {
    /* a callback writing our band layout needs the storage to hold its upper bandwidth */
    int user_band = s->residual ? p->res_jac != NULL : p->jac != NULL;
    if (user_band && *mu >= n) {
      return cosrod_step_fail(c, COSROD_ERR_INVALID, c->t, "%s: banded Jacobian with jac_mu = %d >= n = %d",
                              s->name, p->jac_mu, n);
    }
    if (*ml >= n) *ml = n - 1;
    if (*mu >= n) *mu = n - 1;
  }
  return COSROD_OK;
}

/* Context, vectors, matrix and linear solver: ours for a problem's own
 * banded Jacobian, KLU for a sparse one, else SUNDIALS' band or dense. */
static cosrod_status sun_linear(sun_state *s, int kind, int ml, int mu) {
  const cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  const int n = s->n;
  if (SUNContext_Create(NULL, &s->sunctx) != 0) {
    s->sunctx = NULL;
    return COSROD_ERR_NOMEM;
  }
  s->y = N_VNew_Serial(n, s->sunctx);
  s->yp = N_VNew_Serial(n, s->sunctx);
  s->tmp = N_VNew_Serial(n, s->sunctx);
  /* our band matrix and LU when the problem's own banded Jacobian fills it (SUNDIALS' difference
   * quotients need its band matrix; linalg_backend 2 keeps SUNDIALS' band solver for comparison) */
  s->own = s->banded && (s->residual ? p->res_jac != NULL : p->jac != NULL) && c->opts->linalg_backend != 2;
  s->covers = s->own && p->jac_fills && ml == p->jac_ml && mu == p->jac_mu;
  int sparse = 0;
#ifdef COSROD_HAVE_SUNDIALS_KLU
  sparse = sun_sparse_usable(s); /* the problem's sparse shape: SUNSparseMatrix + SUNLinSol_KLU */
  if (sparse) {
    s->own = s->covers = 0;
    if (!s->y) return COSROD_ERR_NOMEM;
    cosrod_status st = sun_sparse_create(s);
    if (st != COSROD_OK) return st;
  }
#endif
  if (sparse)
    ;
  else if (s->own)
    s->A = sunband_matrix(n, ml, mu, c->opts->linalg_backend == 1 ? COSROD_LINALG_LAPACK : COSROD_LINALG_OWN,
                          s->sunctx);
  else
    s->A = s->banded ? SUNBandMatrix(n, mu, ml, s->sunctx) : SUNDenseMatrix(n, n, s->sunctx);
  if (s->own && kind == KIND_CVODE && !(s->jsave = cosrod_band_create(n, ml, mu, NULL)))
    return COSROD_ERR_NOMEM;
  if (!s->y || !s->yp || !s->tmp || !s->A)
    return COSROD_ERR_NOMEM;
  N_VConst(0.0, s->y);
  N_VConst(0.0, s->yp);
  if (sparse)
    ;
  else if (s->own)
    s->LS = sunband_solver(s->sunctx);
  else
    s->LS = s->banded ? SUNLinSol_Band(s->y, s->A, s->sunctx) : SUNLinSol_Dense(s->y, s->A, s->sunctx);
  if (!s->LS)
    return COSROD_ERR_NOMEM;
  return COSROD_OK;
}

/* Tolerances: scalar rtol with scalar or vector atol, else error weights. */
static cosrod_status sun_tolerances(sun_state *s) {
  const cosrod_step_ctx *c = s->ctx;
  const int n = s->n;
  int rt_same = 1, at_same = 1;
  for (int i = 1; i < n; i++) {
    rt_same &= c->rtol[i] == c->rtol[0];
    at_same &= c->atol[i] == c->atol[0];
  }
  s->wf_tol = !rt_same;
  if (rt_same && !at_same) {
    s->atol = N_VNew_Serial(n, s->sunctx);
    if (!s->atol)
      return COSROD_ERR_NOMEM;
    memcpy(nv(s->atol), c->atol, sizeof(double) * (size_t)n);
  }
  return COSROD_OK;
}

static cosrod_status sun_ida_setup(sun_state *s) {
  const cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  const int n = s->n;
  const cosrod_integrate_options *o = c->opts;
  int flag;
  s->mem = IDACreate(s->sunctx);
  if (!s->mem)
    return COSROD_ERR_NOMEM;
  IDASetErrHandlerFn(s->mem, sun_on_error, s);
  if ((flag = IDAInit(s->mem, sun_ida_res, 0.0, s->y, s->yp)) != IDA_SUCCESS)
    return sun_fail_setup(s, "IDAInit", flag);
  IDASetUserData(s->mem, s);
  if (s->wf_tol)
    flag = IDAWFtolerances(s->mem, sun_ewt);
  else if (s->atol)
    flag = IDASVtolerances(s->mem, c->rtol[0], s->atol);
  else
    flag = IDASStolerances(s->mem, c->rtol[0], c->atol[0]);
  if (flag != IDA_SUCCESS)
    return sun_fail_setup(s, "IDA tolerances", flag);
  if ((flag = IDASetLinearSolver(s->mem, s->LS, s->A)) != IDALS_SUCCESS)
    return sun_fail_setup(s, "IDASetLinearSolver", flag);
#ifdef COSROD_HAVE_SUNDIALS_KLU
  if (s->sp)
    IDASetJacFn(s->mem, sun_ida_jac_sparse);
  else
#endif
  if ((s->residual && p->res_jac) || (!s->residual && p->jac)) IDASetJacFn(s->mem, sun_ida_jac);
  IDASetMaxNumSteps(s->mem, o->max_steps > 0 ? o->max_steps : 100000);
  if (o->max_newton > 0) IDASetMaxNonlinIters(s->mem, o->max_newton);
  /* differential / algebraic components for IDACalcIC */
  s->id = N_VNew_Serial(n, s->sunctx);
  s->ypic = N_VNew_Serial(n, s->sunctx);
  if (!s->id || !s->ypic)
    return COSROD_ERR_NOMEM;
  double *id = nv(s->id);
  for (int i = 0; i < n; i++) id[i] = 1.0;
  if (p->dae_id) {
    for (int i = 0; i < n; i++) id[i] = p->dae_id[i] != 0.0 ? 1.0 : 0.0;
  } else if (s->mass) {
    for (int i = 0; i < n; i++) id[i] = 0.0;
    for (int k = 0; k < s->nmass; k++) id[s->mass[k].j] = 1.0;
  }
  IDASetId(s->mem, s->id);
  if (o->suppress_alg) IDASetSuppressAlg(s->mem, SUNTRUE); /* the id = 0 components out of the error test */
  return COSROD_OK;
}

static cosrod_status sun_cvode_setup(sun_state *s) {
  const cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  const cosrod_integrate_options *o = c->opts;
  int flag;
  s->mem = CVodeCreate(CV_BDF, s->sunctx);
  if (!s->mem)
    return COSROD_ERR_NOMEM;
  CVodeSetErrHandlerFn(s->mem, sun_on_error, s);
  if ((flag = CVodeInit(s->mem, sun_cv_rhs, 0.0, s->y)) != CV_SUCCESS)
    return sun_fail_setup(s, "CVodeInit", flag);
  CVodeSetUserData(s->mem, s);
  if (s->wf_tol)
    flag = CVodeWFtolerances(s->mem, sun_ewt);
  else if (s->atol)
    flag = CVodeSVtolerances(s->mem, c->rtol[0], s->atol);
  else
    flag = CVodeSStolerances(s->mem, c->rtol[0], c->atol[0]);
  if (flag != CV_SUCCESS)
    return sun_fail_setup(s, "CVODE tolerances", flag);
  if ((flag = CVodeSetLinearSolver(s->mem, s->LS, s->A)) != CVLS_SUCCESS)
    return sun_fail_setup(s, "CVodeSetLinearSolver", flag);
#ifdef COSROD_HAVE_SUNDIALS_KLU
  if (s->sp)
    CVodeSetJacFn(s->mem, sun_cv_jac_sparse);
  else
#endif
  if (s->own)
    CVodeSetLinSysFn(s->mem, sun_cv_linsys);
  else if (p->jac)
    CVodeSetJacFn(s->mem, sun_cv_jac);
  CVodeSetMaxNumSteps(s->mem, o->max_steps > 0 ? o->max_steps : 100000);
  if (o->max_newton > 0) CVodeSetMaxNonlinIters(s->mem, o->max_newton);
  return COSROD_OK;
}

static cosrod_status sun_alloc(void **state, cosrod_step_ctx *c, int kind) {
  const cosrod_ode_problem *p = c->problem;
  sun_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  *state = s;
  s->kind = kind;
  s->name = kind == KIND_IDA ? "ida" : "cvode";
  s->ctx = c;
  s->n = c->n;
  cosrod_status st = COSROD_OK;
  char why[600];
  if (sun_lazy_load(why, sizeof why) != 0) {
    st = cosrod_step_fail(c, COSROD_ERR_UNSUPPORTED, c->t, "%s: %s", s->name, why);
    goto fail;
  }
  if (kind == KIND_CVODE && !p->f) {
    st = cosrod_step_fail(c, COSROD_ERR_UNSUPPORTED, c->t, "cvode needs the right-hand side f (y' = f)");
    goto fail;
  }
  s->residual = kind == KIND_IDA && p->res != NULL;
  int ml, mu;
  st = sun_structure(s, kind, &ml, &mu);
  if (st == COSROD_OK) st = sun_linear(s, kind, ml, mu);
  if (st == COSROD_OK) st = sun_tolerances(s);
  if (st == COSROD_OK) st = kind == KIND_IDA ? sun_ida_setup(s) : sun_cvode_setup(s);
  if (st == COSROD_OK) return COSROD_OK;

fail:
  sun_free(s);
  *state = NULL;
  return st;
}

static cosrod_status ida_alloc(void **state, cosrod_step_ctx *c) { return sun_alloc(state, c, KIND_IDA); }
static cosrod_status cvode_alloc(void **state, cosrod_step_ctx *c) { return sun_alloc(state, c, KIND_CVODE); }

/* ---------------------------------------------------------------- reset / step / dense */

/* IDACalcIC after IDAReInit at (c->t, c->y, s->yp).  tout1 only sets its
 * pseudo step 0.001 |tout1 - t| and thus cj in the Newton matrix dF/dy +
 * cj dF/dy'; the result does not depend on it, but a huge span (Robertson to
 * 1e11) makes cj tiny and the differential corrections (dy'/cj) drown the
 * test in roundoff.  Take a span of 1000 h0, or at most 1 (relative to |t|)
 * time unit.  When its Newton iteration fails, the pseudo step is too long
 * for the problem's fast modes (a steel rod clamped to a body that starts
 * moving: converged with 1e-7 s, not with 5e-5 s): restart from the same
 * values with a span 100 times shorter, at most 4 attempts in all. */
static cosrod_status sun_calc_ic(sun_state *s, int calc_ic) {
  cosrod_step_ctx *c = s->ctx;
  const int n = s->n;
  double span = fabs(c->t_end - c->t), cap = c->h != 0.0 ? 1000.0 * fabs(c->h) : fmax(1.0, fabs(c->t));
  span = fmin(span, cap);
  int flag = 0;
  double *yp_start = nv(s->ypic); /* the y' IDAReInit had */
  memcpy(yp_start, nv(s->yp), sizeof(double) * (size_t)n);
  for (int attempt = 0; attempt < 4; attempt++, span *= 1e-2) {
    if (attempt > 0) { /* the values before the failed attempt */
      memcpy(nv(s->y), c->y, sizeof(double) * (size_t)n);
      memcpy(nv(s->yp), yp_start, sizeof(double) * (size_t)n);
      flag = IDAReInit(s->mem, c->t, s->y, s->yp);
      if (flag != IDA_SUCCESS) return sun_fail_setup(s, "IDAReInit", flag);
    }
    flag = IDACalcIC(s->mem, calc_ic == 2 ? IDA_Y_INIT : IDA_YA_YDP_INIT, c->t + c->dir * span);
    sun_update_stats(s);
    if (flag >= 0 || (flag != IDA_CONV_FAIL && flag != IDA_LINESEARCH_FAIL && flag != IDA_NO_RECOVERY)) break;
  }
  if (flag < 0) return sun_fail_flag(s, flag, c->t, "IDACalcIC (consistent initial values)");
  IDAGetConsistentIC(s->mem, s->y, s->yp);
  memcpy(c->y, nv(s->y), sizeof(double) * (size_t)n);
  return COSROD_OK;
}

/* (Re)start the solver at (ctx->t, y); y' from yp0, f, or IDACalcIC. */
static cosrod_status sun_restart(sun_state *s, const double *yp0, int calc_ic) {
  cosrod_step_ctx *c = s->ctx;
  const int n = s->n;
  int flag;
  s->base = *c->stats;
  s->jsave_ok = 0;
  s->cb_fatal = 0;
  s->jac_nonfinite = 0;
  s->sunmsg[0] = '\0';
  memcpy(nv(s->y), c->y, sizeof(double) * (size_t)n);
  if (s->kind == KIND_CVODE) {
    flag = CVodeReInit(s->mem, c->t, s->y);
    if (flag != CV_SUCCESS) return sun_fail_setup(s, "CVodeReInit", flag);
  } else {
    if (yp0) {
      memcpy(nv(s->yp), yp0, sizeof(double) * (size_t)n);
    } else if (!s->residual && !s->mass) {
      int rc = cosrod_step_call_f(c, c->t, c->y, nv(s->yp));
      if (rc != 0) {
        if (rc < 0) return COSROD_ERR_CALLBACK; /* message written by cosrod_step_call_f */
        return cosrod_step_fail(c, c->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK, c->t,
                                "%s: right-hand side failed (%d) at the initial point t = %.17g", s->name, rc,
                                c->t);
      }
    } else {
      N_VConst(0.0, s->yp);
    }
    flag = IDAReInit(s->mem, c->t, s->y, s->yp);
    if (flag != IDA_SUCCESS) return sun_fail_setup(s, "IDAReInit", flag);
  }
  s->hmax_set = c->hmax;
  if (s->kind == KIND_IDA) {
    IDASetMaxStep(s->mem, c->hmax);
    IDASetInitStep(s->mem, c->h);
    IDASetStopTime(s->mem, c->t_end);
  } else {
    CVodeSetMaxStep(s->mem, c->hmax);
    CVodeSetInitStep(s->mem, c->h);
    CVodeSetStopTime(s->mem, c->t_end);
  }
  if (s->kind == KIND_IDA && calc_ic > 0) return sun_calc_ic(s, calc_ic);
  return COSROD_OK;
}

static cosrod_status sun_reset(void *state, cosrod_step_ctx *c) {
  sun_state *s = state;
  int calc_ic = 0;
  if (s->kind == KIND_IDA) {
    const cosrod_ode_problem *p = c->problem;
    calc_ic = c->opts->dae_init;
    if (calc_ic == 0) calc_ic = (c->yp0 == NULL && (s->residual || p->mass)) ? 1 : -1;
  }
  /* h == 0: SUNDIALS estimates the initial step */
  cosrod_status st = sun_restart(s, c->yp0, calc_ic);
  if (st != COSROD_OK) return st;
  /* the driver needs a non-zero proposal; SUNDIALS chooses its own first step (OWN_CLIP) */
  if (c->h == 0.0) c->h = c->t_end - c->t;
  return COSROD_OK;
}

static cosrod_status sun_step(void *state, cosrod_step_ctx *c, int *accepted) {
  sun_state *s = state;
  *accepted = 0;
  int flag;
  if (c->y_modified) {
    /* y was changed from outside (projection hook): restart from it, keeping y' */
    if (s->kind == KIND_IDA) IDAGetDky(s->mem, c->t, 1, s->yp);
    cosrod_status st = sun_restart(s, nv(s->yp), -1);
    if (st != COSROD_OK) return st;
    c->y_modified = 0;
  }
  s->cb_fatal = 0;
  s->jac_nonfinite = 0;
  s->sunmsg[0] = '\0';
  double tret = c->t, tcur = c->t, hlast = 0.0, hcur = 0.0;
  if (s->kind == KIND_IDA) {
    if (c->hmax != s->hmax_set) IDASetMaxStep(s->mem, c->hmax);
    IDASetStopTime(s->mem, c->t_end); /* tstop is cleared after each stop: set it every call */
    flag = IDASolve(s->mem, c->t_end, &tret, s->y, s->yp, IDA_ONE_STEP);
    IDAGetCurrentTime(s->mem, &tcur);
  } else {
    if (c->hmax != s->hmax_set) CVodeSetMaxStep(s->mem, c->hmax);
    CVodeSetStopTime(s->mem, c->t_end);
    flag = CVode(s->mem, c->t_end, s->y, &tret, CV_ONE_STEP);
    CVodeGetCurrentTime(s->mem, &tcur);
  }
  s->hmax_set = c->hmax;
  sun_update_stats(s);
  if (flag < 0) {
    /* the state stays at the last successful step (SUNDIALS' tcur) */
    return sun_fail_flag(s, flag, tcur, s->kind == KIND_IDA ? "IDASolve" : "CVode");
  }
  if (s->kind == KIND_IDA) {
    IDAGetLastStep(s->mem, &hlast);
    IDAGetCurrentStep(s->mem, &hcur);
  } else {
    CVodeGetLastStep(s->mem, &hlast);
    CVodeGetCurrentStep(s->mem, &hcur);
  }
  *accepted = 1;
  c->t_old = tcur - hlast;
  c->h_last = tret - c->t_old;
  c->t = tret;
  memcpy(c->y, nv(s->y), sizeof(double) * (size_t)s->n);
  c->h = hcur != 0.0 ? hcur : hlast;
  if (c->nonfinite && 0.1 * fabs(c->h) <= fabs(c->t) * c->uround) {
    /* SUNDIALS creeps up to a point beyond which f / res is NaN or Inf: the step it accepted was
     * fine, but the next one would be below roundoff; say why instead of "step too small" */
    char why[256] = "";
    if (c->msg && c->msg[0]) snprintf(why, sizeof why, "%s", c->msg);
    return cosrod_step_fail(c, COSROD_ERR_NONFINITE, c->t,
                            "%s: non-finite values just beyond t = %.17g; step size reduced to %g (%s)",
                            s->name, c->t, c->h, why);
  }
  return COSROD_OK;
}

static cosrod_status sun_dense(void *state, cosrod_step_ctx *c, double t, const int *idx, int nidx,
                               double *out) {
  sun_state *s = state;
  s->sunmsg[0] = '\0';
  int flag = s->kind == KIND_IDA ? IDAGetDky(s->mem, t, 0, s->tmp) : CVodeGetDky(s->mem, t, 0, s->tmp);
  if (flag < 0)
    return cosrod_step_fail(c, COSROD_ERR_INVALID, t, "%s: dense output at t = %.17g failed (%d): %s",
                            s->name, t, flag, s->sunmsg);
  const double *v = nv(s->tmp);
  if (!idx) {
    memcpy(out, v, sizeof(double) * (size_t)s->n);
  } else {
    for (int k = 0; k < nidx; k++) out[k] = v[idx[k]];
  }
  return COSROD_OK;
}

/* ---------------------------------------------------------------- step types */

static const cosrod_step_type ida_type = {"ida",
                                          5,
                                          COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE |
                                              COSROD_STEP_BANDED | COSROD_STEP_SECOND_ORDER |
                                              COSROD_STEP_DENSE | COSROD_STEP_RESIDUAL | COSROD_STEP_OWN_CLIP |
                                              SUN_SPARSE_FLAG,
                                          ida_alloc,
                                          sun_reset,
                                          sun_step,
                                          sun_dense,
                                          sun_free};

static const cosrod_step_type cvode_type = {"cvode",
                                            5,
                                            COSROD_STEP_IMPLICIT | COSROD_STEP_BANDED |
                                                COSROD_STEP_SECOND_ORDER | COSROD_STEP_DENSE |
                                                COSROD_STEP_OWN_CLIP | SUN_SPARSE_FLAG,
                                            cvode_alloc,
                                            sun_reset,
                                            sun_step,
                                            sun_dense,
                                            sun_free};

const cosrod_step_type *const cosrod_step_ida = &ida_type;
const cosrod_step_type *const cosrod_step_cvode = &cvode_type;
