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
 * (sundials_band.c; issue 12): the Jacobian is written straight into our
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
 * ndecomp = linear-solver setups, nnewton = nsolve = nonlinear iterations. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "cosrod/integrate.h"
#include "integrate/sundials_band.h"

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
} sun_state;

/* ---------------------------------------------------------------- helpers */

static double *nv(N_Vector v) { return N_VGetArrayPointer(v); }

static void on_sundials_error(int code, const char *module, const char *function, char *msg, void *ud) {
  sun_state *s = ud;
  if (code == IDA_WARNING || code == CV_WARNING) return; /* warnings are not failures; stay quiet */
  snprintf(s->sunmsg, sizeof s->sunmsg, "%s %s: %s", module ? module : "", function ? function : "",
           msg ? msg : "");
}

/* Callback return code bookkeeping: remember fatal failures (message already
 * written to ctx->msg by the caller), count recoverable ones. */
static int cb_result(sun_state *s, int rc, double t) {
  if (rc < 0) {
    s->cb_fatal = 1;
    s->t_cb_fatal = t;
    return -1;
  }
  return rc > 0 ? 1 : 0;
}

/* Pointer and leading dimension to pass to a user callback that fills the
 * whole n x n matrix A in our layout (banded with upper bandwidth mu). */
static double *user_view(SUNMatrix A, int banded, int mu, int *ld) {
  if (sunband_is(A)) {
    cosrod_band *B = sunband_band(A);
    *ld = B->ld;
    return B->data + (B->smu - mu);
  }
  if (banded) {
    *ld = (int)SUNBandMatrix_LDim(A);
    return SUNBandMatrix_Data(A) + (SUNBandMatrix_StoredUpperBandwidth(A) - mu);
  }
  *ld = (int)SUNDenseMatrix_Rows(A);
  return SUNDenseMatrix_Data(A);
}

/* A(i, j) += v through the accessors (the entry must lie inside the band). */
static void mat_add(SUNMatrix A, int banded, int i, int j, double v) {
  if (sunband_is(A))
    cosrod_band_add(sunband_band(A), i, j, v);
  else if (banded)
    SUNBandMatrix_Column(A, j)[i - j] += v;
  else
    SUNDenseMatrix_Column(A, j)[i] += v;
}

static void mat_negate(SUNMatrix A, int banded) {
  if (sunband_is(A)) {
    cosrod_band_scale_add_identity(sunband_band(A), -1.0, 0.0);
    return;
  }
  sunindextype len = banded ? SUNBandMatrix_LDim(A) * SUNBandMatrix_Columns(A) : SUNDenseMatrix_LData(A);
  double *d = banded ? SUNBandMatrix_Data(A) : SUNDenseMatrix_Data(A);
  for (sunindextype k = 0; k < len; k++) d[k] = -d[k];
}

/* Expand the reduced Jacobian of a second-order problem (m1 > 0) into the
 * dense n x n matrix A (zeroed): rows i < m1 hold the identity at column
 * i + m2, rows m1 + i the supplied rows. */
static void expand_reduced(const sun_state *s, SUNMatrix A) {
  const cosrod_ode_problem *p = s->ctx->problem;
  const int n = s->n, m1 = p->m1, m2 = p->m2 > 0 ? p->m2 : p->m1, nr = n - m1;
  for (int i = 0; i < m1; i++) SUNDenseMatrix_Column(A, i + m2)[i] = 1.0;
  for (int j = 0; j < n; j++) {
    double *col = SUNDenseMatrix_Column(A, j);
    const double *src = s->jred + (size_t)j * (size_t)s->ldred;
    if (!p->jac_banded) {
      for (int i = 0; i < nr; i++) col[m1 + i] = src[i];
      continue;
    }
    int c = j < m1 ? j % m2 : j - m1;
    int mu = j < m1 ? p->jac_mu_q : p->jac_mu, ml = j < m1 ? p->jac_ml_q : p->jac_ml;
    int lo = c - mu > 0 ? c - mu : 0, hi = c + ml < nr - 1 ? c + ml : nr - 1;
    for (int i = lo; i <= hi; i++) col[m1 + i] = src[mu + i - c];
  }
}

/* As check_jac_finite for our band matrix B: the band rows only (the
 * fill-in rows belong to the LU). */
static int check_band_finite(sun_state *s, const cosrod_band *B, double t) {
  for (int j = 0; j < s->n; j++) {
    const double *col = B->data + (size_t)j * (size_t)B->ld + B->ml;
    /* exponent field all ones (NaN, Inf): adding 1 to it carries into the sign bit */
    uint64_t bad = 0;
    for (int r = 0; r <= B->ml + B->mu; r++) {
      uint64_t u;
      memcpy(&u, col + r, sizeof u);
      bad |= (u & 0x7FF0000000000000u) + 0x0010000000000000u;
    }
    if (!(bad & 0x8000000000000000u)) continue;
    for (int r = 0; r <= B->ml + B->mu; r++) {
      if (isfinite(col[r])) continue;
      long k = (long)j * B->ld + B->ml + r;
      s->ctx->nonfinite = 1;
      s->jac_nonfinite = 1;
      cosrod_step_fail(s->ctx, COSROD_ERR_NONFINITE, t,
                       "%s: Jacobian entry %ld of the band matrix is %g at t = %.17g", s->name, k, col[r], t);
      return -1;
    }
  }
  return 0;
}

/* NaN/Inf in the Jacobian the user wrote into A: message, and -1 (fatal:
 * a smaller step evaluates the same J); 0 if all entries are finite. */
static int check_jac_finite(sun_state *s, SUNMatrix A, double t) {
  const double *d;
  long len;
  if (s->own) return check_band_finite(s, sunband_band(A), t);
  if (s->banded) {
    d = SUNBandMatrix_Data(A);
    len = (long)SUNBandMatrix_LDim(A) * (long)s->n;
  } else {
    d = SUNDenseMatrix_Data(A);
    len = (long)SUNDenseMatrix_Rows(A) * (long)SUNDenseMatrix_Columns(A);
  }
  for (long k = 0; k < len; k++) {
    if (!isfinite(d[k])) {
      s->ctx->nonfinite = 1;
      s->jac_nonfinite = 1;
      cosrod_step_fail(s->ctx, COSROD_ERR_NONFINITE, t,
                       "%s: Jacobian entry %ld of the %s matrix is %g at t = %.17g", s->name, k,
                       s->banded ? "band" : "dense", d[k], t);
      return -1;
    }
  }
  return 0;
}

/* A <- df/dy at (t, y) from the problem's Jacobian callback. */
static int fill_jac_f(sun_state *s, double t, const double *y, SUNMatrix A) {
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  int rc;
  if (sunband_is(A))
    sunband_begin_fill(A, s->covers);
  else
    SUNMatZero(A);
  if (s->reduced) {
    memset(s->jred, 0, sizeof(double) * (size_t)s->ldred * (size_t)s->n);
    rc = p->jac(t, y, s->jred, s->ldred, p->user);
    if (rc == 0) expand_reduced(s, A);
  } else {
    int ld;
    double *J = user_view(A, s->banded, p->jac_mu, &ld);
    rc = p->jac(t, y, J, ld, p->user);
  }
  if (rc < 0)
    cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "Jacobian callback returned %d (fatal) at t = %.17g", rc, t);
  if (rc > 0) c->stats->nfail_rhs++;
  if (rc == 0) return check_jac_finite(s, A, t);
  return cb_result(s, rc, t);
}

/* ---------------------------------------------------------------- callbacks */

static int ida_res(sunrealtype t, N_Vector yy, N_Vector ypv, N_Vector rr, void *ud) {
  sun_state *s = ud;
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  const double *y = nv(yy), *yp = nv(ypv);
  double *r = nv(rr);
  const int n = s->n;
  if (s->residual) {
    c->stats->nfev++;
    int rc = p->res(t, y, yp, r, p->user);
    if (rc < 0)
      cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "residual returned %d (fatal) at t = %.17g", rc, t);
    if (rc > 0) c->stats->nfail_rhs++;
    if (rc != 0) return cb_result(s, rc, t);
    for (int i = 0; i < n; i++) {
      if (!isfinite(r[i])) {
        c->nonfinite = 1;
        c->stats->nfail_rhs++;
        cosrod_step_fail(c, COSROD_ERR_NONFINITE, t, "residual component %d is %g at t = %.17g", i, r[i], t);
        return 1;
      }
    }
    return 0;
  }
  int rc = cosrod_step_call_f(c, t, y, r);
  if (rc != 0) return cb_result(s, rc, t);
  if (!s->mass) {
    for (int i = 0; i < n; i++) r[i] = yp[i] - r[i];
  } else {
    for (int i = 0; i < n; i++) r[i] = -r[i];
    for (int k = 0; k < s->nmass; k++) r[s->mass[k].i] += s->mass[k].v * yp[s->mass[k].j];
  }
  return 0;
}

static int ida_jac(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector ypv, N_Vector rr, SUNMatrix A,
                   void *ud, N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)rr, (void)t1, (void)t2, (void)t3;
  sun_state *s = ud;
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  if (s->residual) {
    if (s->own)
      sunband_begin_fill(A, s->covers); /* IDA's SUNMatZero was lazy */
    else
      SUNMatZero(A);
    int ld;
    double *J = user_view(A, s->banded, p->jac_mu, &ld);
    int rc = p->res_jac(t, cj, nv(yy), nv(ypv), J, ld, p->user);
    if (rc < 0)
      cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "residual Jacobian returned %d (fatal) at t = %.17g", rc,
                       t);
    if (rc > 0) c->stats->nfail_rhs++;
    if (rc == 0) return check_jac_finite(s, A, t);
    return cb_result(s, rc, t);
  }
  int rc = fill_jac_f(s, t, nv(yy), A);
  if (rc != 0) return rc;
  if (s->own && !s->mass) { /* cj I - df/dy in one pass */
    cosrod_band_scale_add_identity(sunband_band(A), -1.0, cj);
    return 0;
  }
  mat_negate(A, s->banded); /* -df/dy */
  if (!s->mass) {
    for (int i = 0; i < s->n; i++) mat_add(A, s->banded, i, i, cj);
  } else {
    for (int k = 0; k < s->nmass; k++) mat_add(A, s->banded, s->mass[k].i, s->mass[k].j, cj * s->mass[k].v);
  }
  return 0;
}

static int cv_rhs(sunrealtype t, N_Vector yy, N_Vector ydot, void *ud) {
  sun_state *s = ud;
  return cb_result(s, cosrod_step_call_f(s->ctx, t, nv(yy), nv(ydot)), t);
}

static int cv_jac(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, void *ud, N_Vector t1, N_Vector t2,
                  N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  return fill_jac_f(ud, t, nv(yy), A);
}

/* CVODE's iteration matrix A = I - gamma df/dy with our band matrix (own):
 * df/dy is evaluated into jsave only when CVODE says the saved one is stale
 * (jok false), then combined with the identity in one pass; the LU follows in
 * our linear solver's setup.  (CVODE's default would zero A, evaluate into it,
 * copy it to a saved matrix and scale it, and copy back when reusing.) */
static int cv_linsys(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, sunbooleantype jok,
                     sunbooleantype *jcur, sunrealtype gamma, void *ud, N_Vector t1, N_Vector t2,
                     N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  sun_state *s = ud;
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  cosrod_band *J = s->jsave;
  *jcur = SUNFALSE;
  if (!jok || !s->jsave_ok) {
    s->jsave_ok = 0;
    if (!s->covers) cosrod_band_zero(J);
    int rc = p->jac(t, nv(yy), J->data + (J->smu - p->jac_mu), J->ld, p->user);
    if (rc < 0)
      cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "Jacobian callback returned %d (fatal) at t = %.17g", rc,
                       t);
    if (rc > 0) c->stats->nfail_rhs++;
    if (rc != 0) return cb_result(s, rc, t);
    if (check_band_finite(s, J, t) != 0) return -1;
    s->jsave_ok = 1;
    *jcur = SUNTRUE;
  }
  cosrod_band_set_combination(sunband_begin_fill(A, 1), -gamma, J, 1.0, NULL);
  return 0;
}

/* Error weights 1 / (rtol_i |y_i| + atol_i) for per-component rtol (both solvers). */
static int ewt_fn(N_Vector yy, N_Vector ewt, void *ud) {
  sun_state *s = ud;
  const double *y = nv(yy);
  double *w = nv(ewt);
  for (int i = 0; i < s->n; i++) {
    double d = s->ctx->rtol[i] * fabs(y[i]) + s->ctx->atol[i];
    if (!(d > 0.0)) return -1;
    w[i] = 1.0 / d;
  }
  return 0;
}

/* ---------------------------------------------------------------- status mapping */

static const char *flag_name(int kind, int flag) {
  if (kind == KIND_IDA) {
    switch (flag) {
      case IDA_TOO_MUCH_WORK:
        return "IDA_TOO_MUCH_WORK";
      case IDA_TOO_MUCH_ACC:
        return "IDA_TOO_MUCH_ACC";
      case IDA_ERR_FAIL:
        return "IDA_ERR_FAIL";
      case IDA_CONV_FAIL:
        return "IDA_CONV_FAIL";
      case IDA_LINIT_FAIL:
        return "IDA_LINIT_FAIL";
      case IDA_LSETUP_FAIL:
        return "IDA_LSETUP_FAIL";
      case IDA_LSOLVE_FAIL:
        return "IDA_LSOLVE_FAIL";
      case IDA_RES_FAIL:
        return "IDA_RES_FAIL";
      case IDA_REP_RES_ERR:
        return "IDA_REP_RES_ERR";
      case IDA_CONSTR_FAIL:
        return "IDA_CONSTR_FAIL";
      case IDA_FIRST_RES_FAIL:
        return "IDA_FIRST_RES_FAIL";
      case IDA_LINESEARCH_FAIL:
        return "IDA_LINESEARCH_FAIL";
      case IDA_NO_RECOVERY:
        return "IDA_NO_RECOVERY";
      case IDA_NLS_INIT_FAIL:
        return "IDA_NLS_INIT_FAIL";
      case IDA_NLS_SETUP_FAIL:
        return "IDA_NLS_SETUP_FAIL";
      case IDA_NLS_FAIL:
        return "IDA_NLS_FAIL";
      case IDA_MEM_FAIL:
        return "IDA_MEM_FAIL";
      case IDA_ILL_INPUT:
        return "IDA_ILL_INPUT";
      case IDA_BAD_EWT:
        return "IDA_BAD_EWT";
      case IDA_BAD_T:
        return "IDA_BAD_T";
      default:
        return "IDA error";
    }
  }
  switch (flag) {
    case CV_TOO_MUCH_WORK:
      return "CV_TOO_MUCH_WORK";
    case CV_TOO_MUCH_ACC:
      return "CV_TOO_MUCH_ACC";
    case CV_ERR_FAILURE:
      return "CV_ERR_FAILURE";
    case CV_CONV_FAILURE:
      return "CV_CONV_FAILURE";
    case CV_LINIT_FAIL:
      return "CV_LINIT_FAIL";
    case CV_LSETUP_FAIL:
      return "CV_LSETUP_FAIL";
    case CV_LSOLVE_FAIL:
      return "CV_LSOLVE_FAIL";
    case CV_RHSFUNC_FAIL:
      return "CV_RHSFUNC_FAIL";
    case CV_FIRST_RHSFUNC_ERR:
      return "CV_FIRST_RHSFUNC_ERR";
    case CV_REPTD_RHSFUNC_ERR:
      return "CV_REPTD_RHSFUNC_ERR";
    case CV_UNREC_RHSFUNC_ERR:
      return "CV_UNREC_RHSFUNC_ERR";
    case CV_NLS_INIT_FAIL:
      return "CV_NLS_INIT_FAIL";
    case CV_NLS_SETUP_FAIL:
      return "CV_NLS_SETUP_FAIL";
    case CV_NLS_FAIL:
      return "CV_NLS_FAIL";
    case CV_MEM_FAIL:
      return "CV_MEM_FAIL";
    case CV_ILL_INPUT:
      return "CV_ILL_INPUT";
    case CV_BAD_T:
      return "CV_BAD_T";
    case CV_TOO_CLOSE:
      return "CV_TOO_CLOSE";
    default:
      return "CVODE error";
  }
}

static cosrod_status flag_status(const sun_state *s, int flag) {
  const int ida = s->kind == KIND_IDA;
  if (s->jac_nonfinite) return COSROD_ERR_NONFINITE;
  if (s->own && sunband_solver_status(s->LS) == COSROD_ERR_INTERRUPTED) return COSROD_ERR_INTERRUPTED;
  if (s->cb_fatal) return COSROD_ERR_CALLBACK;
  if (ida) {
    switch (flag) {
      case IDA_TOO_MUCH_WORK:
        return COSROD_ERR_MAX_STEPS;
      case IDA_TOO_MUCH_ACC:
      case IDA_ERR_FAIL:
        return s->ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_STEP_TOO_SMALL;
      case IDA_CONV_FAIL:
      case IDA_NLS_FAIL:
      case IDA_NLS_SETUP_FAIL:
        return s->ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_NEWTON;
      case IDA_LSETUP_FAIL:
      case IDA_LSOLVE_FAIL:
        return COSROD_ERR_SINGULAR;
      case IDA_RES_FAIL:
      case IDA_REP_RES_ERR:
      case IDA_FIRST_RES_FAIL:
        return s->ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK;
      case IDA_LINESEARCH_FAIL:
      case IDA_NO_RECOVERY:
      case IDA_CONSTR_FAIL:
        return COSROD_ERR_CONVERGENCE;
      case IDA_MEM_FAIL:
        return COSROD_ERR_NOMEM;
      case IDA_ILL_INPUT:
      case IDA_BAD_EWT:
      case IDA_BAD_T:
      case IDA_BAD_K:
      case IDA_BAD_DKY:
        return COSROD_ERR_INVALID;
      default:
        return COSROD_ERR_INTERNAL;
    }
  }
  switch (flag) {
    case CV_TOO_MUCH_WORK:
      return COSROD_ERR_MAX_STEPS;
    case CV_TOO_MUCH_ACC:
    case CV_ERR_FAILURE:
      return s->ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_STEP_TOO_SMALL;
    case CV_CONV_FAILURE:
    case CV_NLS_FAIL:
    case CV_NLS_SETUP_FAIL:
      return s->ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_NEWTON;
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL:
      return COSROD_ERR_SINGULAR;
    case CV_RHSFUNC_FAIL:
    case CV_FIRST_RHSFUNC_ERR:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
      return s->ctx->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_CALLBACK;
    case CV_MEM_FAIL:
      return COSROD_ERR_NOMEM;
    case CV_ILL_INPUT:
    case CV_BAD_T:
    case CV_BAD_K:
    case CV_BAD_DKY:
    case CV_TOO_CLOSE:
      return COSROD_ERR_INVALID;
    default:
      return COSROD_ERR_INTERNAL;
  }
}

/* Failure status with a message: what SUNDIALS said, and the callback's own
 * message (ctx->msg) if one was written during the call. */
static cosrod_status fail_flag(sun_state *s, int flag, double t, const char *what) {
  cosrod_step_ctx *c = s->ctx;
  char cbmsg[256] = "";
  if (c->msg && c->msg[0]) snprintf(cbmsg, sizeof cbmsg, "%s; ", c->msg);
  cosrod_status st = flag_status(s, flag);
  /* the failure time is that of the failing callback if there was one, else SUNDIALS' current time */
  double t_fail = st == COSROD_ERR_CALLBACK && s->cb_fatal ? s->t_cb_fatal : t;
  return cosrod_step_fail(c, st, t_fail, "%s: %s returned %s (%d) at t = %.17g: %s%s", s->name, what,
                          flag_name(s->kind, flag), flag, t, cbmsg,
                          s->sunmsg[0] ? s->sunmsg : "no SUNDIALS message");
}

/* Setup-time failure of a SUNDIALS call (out of memory or bad input). */
static cosrod_status fail_setup(sun_state *s, const char *what, int flag) {
  cosrod_status st = flag == IDA_MEM_FAIL || flag == CV_MEM_FAIL ? COSROD_ERR_NOMEM : COSROD_ERR_INVALID;
  return cosrod_step_fail(s->ctx, st, s->ctx->t, "%s: %s failed (%d): %s", s->name, what, flag,
                          s->sunmsg[0] ? s->sunmsg : "no SUNDIALS message");
}

static void update_stats(sun_state *s) {
  long nst = 0, nje = 0, netf = 0, nsf = 0, nset = 0, nni = 0;
  if (s->kind == KIND_IDA) {
    IDAGetNumSteps(s->mem, &nst);
    IDAGetNumJacEvals(s->mem, &nje);
    IDAGetNumErrTestFails(s->mem, &netf);
    IDAGetNumStepSolveFails(s->mem, &nsf);
    IDAGetNumLinSolvSetups(s->mem, &nset);
    IDAGetNumNonlinSolvIters(s->mem, &nni);
  } else {
    CVodeGetNumSteps(s->mem, &nst);
    CVodeGetNumJacEvals(s->mem, &nje);
    CVodeGetNumErrTestFails(s->mem, &netf);
    CVodeGetNumStepSolveFails(s->mem, &nsf);
    CVodeGetNumLinSolvSetups(s->mem, &nset);
    CVodeGetNumNonlinSolvIters(s->mem, &nni);
  }
  cosrod_integrate_stats *st = s->ctx->stats;
  st->nsteps = s->base.nsteps + nst + netf + nsf; /* attempted steps, as the header says */
  st->naccept = s->base.naccept + nst;
  st->njev = s->base.njev + nje;
  st->nreject = s->base.nreject + netf;
  st->nconvfail = s->base.nconvfail + nsf; /* steps failed by the nonlinear solver */
  st->ndecomp = s->base.ndecomp + nset;
  st->nnewton = s->base.nnewton + nni;
  st->nsolve = s->base.nsolve + nni;
}

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
  N_Vector *vs[] = {&s->y, &s->yp, &s->tmp, &s->atol, &s->id};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++)
    if (*vs[k]) N_VDestroy(*vs[k]);
  if (s->sunctx) SUNContext_Free(&s->sunctx);
  free(s->jred);
  cosrod_band_free(s->jsave);
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

static cosrod_status sun_alloc(void **state, cosrod_step_ctx *c, int kind) {
  const cosrod_ode_problem *p = c->problem;
  const int n = c->n;
  sun_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  *state = s;
  s->kind = kind;
  s->name = kind == KIND_IDA ? "ida" : "cvode";
  s->ctx = c;
  s->n = n;
  cosrod_status st = COSROD_OK;
  int flag;

  if (kind == KIND_CVODE && !p->f) {
    st = cosrod_step_fail(c, COSROD_ERR_UNSUPPORTED, c->t, "cvode needs the right-hand side f (y' = f)");
    goto fail;
  }
  s->residual = kind == KIND_IDA && p->res != NULL;

  /* matrix structure */
  int ml = 0, mu = 0, mlm = 0, mum = 0;
  if (kind == KIND_IDA && !s->residual && p->mass) {
    st = read_mass(s, &mlm, &mum);
    if (st != COSROD_OK) goto fail;
  }
  if (s->residual) {
    s->banded = p->jac_banded;
    ml = p->jac_ml, mu = p->jac_mu;
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
      if (!s->jred) {
        st = COSROD_ERR_NOMEM;
        goto fail;
      }
    }
  } else {
    s->banded = p->jac_banded;
    ml = p->jac_ml > mlm ? p->jac_ml : mlm;
    mu = p->jac_mu > mum ? p->jac_mu : mum;
  }
  if (s->banded && (ml >= n || mu >= n)) {
    /* a callback writing our band layout needs the storage to hold its upper bandwidth */
    int user_band = s->residual ? p->res_jac != NULL : p->jac != NULL;
    if (user_band && mu >= n) {
      st = cosrod_step_fail(c, COSROD_ERR_INVALID, c->t, "%s: banded Jacobian with jac_mu = %d >= n = %d",
                            s->name, p->jac_mu, n);
      goto fail;
    }
    if (ml >= n) ml = n - 1;
    if (mu >= n) mu = n - 1;
  }

  if (SUNContext_Create(NULL, &s->sunctx) != 0) {
    s->sunctx = NULL;
    st = COSROD_ERR_NOMEM;
    goto fail;
  }
  s->y = N_VNew_Serial(n, s->sunctx);
  s->yp = N_VNew_Serial(n, s->sunctx);
  s->tmp = N_VNew_Serial(n, s->sunctx);
  /* our band matrix and LU when the problem's own banded Jacobian fills it (SUNDIALS' difference
   * quotients need its band matrix; linalg_backend 2 keeps SUNDIALS' band solver for comparison) */
  s->own = s->banded && (s->residual ? p->res_jac != NULL : p->jac != NULL) && c->opts->linalg_backend != 2;
  s->covers = s->own && p->jac_fills && ml == p->jac_ml && mu == p->jac_mu;
  if (s->own)
    s->A = sunband_matrix(n, ml, mu, c->opts->linalg_backend == 1 ? COSROD_LINALG_LAPACK : COSROD_LINALG_OWN,
                          s->sunctx);
  else
    s->A = s->banded ? SUNBandMatrix(n, mu, ml, s->sunctx) : SUNDenseMatrix(n, n, s->sunctx);
  if (s->own && kind == KIND_CVODE && !(s->jsave = cosrod_band_create(n, ml, mu))) {
    st = COSROD_ERR_NOMEM;
    goto fail;
  }
  if (!s->y || !s->yp || !s->tmp || !s->A) {
    st = COSROD_ERR_NOMEM;
    goto fail;
  }
  N_VConst(0.0, s->y);
  N_VConst(0.0, s->yp);
  if (s->own)
    s->LS = sunband_solver(s->sunctx);
  else
    s->LS = s->banded ? SUNLinSol_Band(s->y, s->A, s->sunctx) : SUNLinSol_Dense(s->y, s->A, s->sunctx);
  if (!s->LS) {
    st = COSROD_ERR_NOMEM;
    goto fail;
  }

  /* tolerances: scalar rtol with scalar or vector atol, else error weights */
  int rt_same = 1, at_same = 1;
  for (int i = 1; i < n; i++) {
    rt_same &= c->rtol[i] == c->rtol[0];
    at_same &= c->atol[i] == c->atol[0];
  }
  s->wf_tol = !rt_same;
  if (rt_same && !at_same) {
    s->atol = N_VNew_Serial(n, s->sunctx);
    if (!s->atol) {
      st = COSROD_ERR_NOMEM;
      goto fail;
    }
    memcpy(nv(s->atol), c->atol, sizeof(double) * (size_t)n);
  }

  const cosrod_integrate_options *o = c->opts;
  if (kind == KIND_IDA) {
    s->mem = IDACreate(s->sunctx);
    if (!s->mem) {
      st = COSROD_ERR_NOMEM;
      goto fail;
    }
    IDASetErrHandlerFn(s->mem, on_sundials_error, s);
    if ((flag = IDAInit(s->mem, ida_res, 0.0, s->y, s->yp)) != IDA_SUCCESS) {
      st = fail_setup(s, "IDAInit", flag);
      goto fail;
    }
    IDASetUserData(s->mem, s);
    if (s->wf_tol)
      flag = IDAWFtolerances(s->mem, ewt_fn);
    else if (s->atol)
      flag = IDASVtolerances(s->mem, c->rtol[0], s->atol);
    else
      flag = IDASStolerances(s->mem, c->rtol[0], c->atol[0]);
    if (flag != IDA_SUCCESS) {
      st = fail_setup(s, "IDA tolerances", flag);
      goto fail;
    }
    if ((flag = IDASetLinearSolver(s->mem, s->LS, s->A)) != IDALS_SUCCESS) {
      st = fail_setup(s, "IDASetLinearSolver", flag);
      goto fail;
    }
    if ((s->residual && p->res_jac) || (!s->residual && p->jac)) IDASetJacFn(s->mem, ida_jac);
    IDASetMaxNumSteps(s->mem, o->max_steps > 0 ? o->max_steps : 100000);
    if (o->max_newton > 0) IDASetMaxNonlinIters(s->mem, o->max_newton);
    /* differential / algebraic components for IDACalcIC */
    s->id = N_VNew_Serial(n, s->sunctx);
    if (!s->id) {
      st = COSROD_ERR_NOMEM;
      goto fail;
    }
    double *id = nv(s->id);
    for (int i = 0; i < n; i++) id[i] = 1.0;
    if (p->dae_id) {
      for (int i = 0; i < n; i++) id[i] = p->dae_id[i] != 0.0 ? 1.0 : 0.0;
    } else if (s->mass) {
      for (int i = 0; i < n; i++) id[i] = 0.0;
      for (int k = 0; k < s->nmass; k++) id[s->mass[k].j] = 1.0;
    }
    IDASetId(s->mem, s->id);
  } else {
    s->mem = CVodeCreate(CV_BDF, s->sunctx);
    if (!s->mem) {
      st = COSROD_ERR_NOMEM;
      goto fail;
    }
    CVodeSetErrHandlerFn(s->mem, on_sundials_error, s);
    if ((flag = CVodeInit(s->mem, cv_rhs, 0.0, s->y)) != CV_SUCCESS) {
      st = fail_setup(s, "CVodeInit", flag);
      goto fail;
    }
    CVodeSetUserData(s->mem, s);
    if (s->wf_tol)
      flag = CVodeWFtolerances(s->mem, ewt_fn);
    else if (s->atol)
      flag = CVodeSVtolerances(s->mem, c->rtol[0], s->atol);
    else
      flag = CVodeSStolerances(s->mem, c->rtol[0], c->atol[0]);
    if (flag != CV_SUCCESS) {
      st = fail_setup(s, "CVODE tolerances", flag);
      goto fail;
    }
    if ((flag = CVodeSetLinearSolver(s->mem, s->LS, s->A)) != CVLS_SUCCESS) {
      st = fail_setup(s, "CVodeSetLinearSolver", flag);
      goto fail;
    }
    if (s->own)
      CVodeSetLinSysFn(s->mem, cv_linsys);
    else if (p->jac)
      CVodeSetJacFn(s->mem, cv_jac);
    CVodeSetMaxNumSteps(s->mem, o->max_steps > 0 ? o->max_steps : 100000);
    if (o->max_newton > 0) CVodeSetMaxNonlinIters(s->mem, o->max_newton);
  }
  return COSROD_OK;

fail:
  sun_free(s);
  *state = NULL;
  return st;
}

static cosrod_status ida_alloc(void **state, cosrod_step_ctx *c) { return sun_alloc(state, c, KIND_IDA); }
static cosrod_status cvode_alloc(void **state, cosrod_step_ctx *c) { return sun_alloc(state, c, KIND_CVODE); }

/* ---------------------------------------------------------------- reset / step / dense */

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
    if (flag != CV_SUCCESS) return fail_setup(s, "CVodeReInit", flag);
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
    if (flag != IDA_SUCCESS) return fail_setup(s, "IDAReInit", flag);
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
  if (s->kind == KIND_IDA && calc_ic > 0) {
    /* tout1 only sets IDACalcIC's pseudo step 0.001 |tout1 - t| and thus cj in the Newton matrix
     * dF/dy + cj dF/dy'; the result does not depend on it, but a huge span (Robertson to 1e11) makes
     * cj tiny and the differential corrections (dy'/cj) drown the test in roundoff.  Take a span of
     * 1000 h0, or at most 1 (relative to |t|) time unit. */
    double span = fabs(c->t_end - c->t), cap = c->h != 0.0 ? 1000.0 * fabs(c->h) : fmax(1.0, fabs(c->t));
    double tout1 = c->t + c->dir * fmin(span, cap);
    flag = IDACalcIC(s->mem, calc_ic == 2 ? IDA_Y_INIT : IDA_YA_YDP_INIT, tout1);
    update_stats(s);
    if (flag < 0) return fail_flag(s, flag, c->t, "IDACalcIC (consistent initial values)");
    IDAGetConsistentIC(s->mem, s->y, s->yp);
    memcpy(c->y, nv(s->y), sizeof(double) * (size_t)n);
  }
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
  update_stats(s);
  if (flag < 0) {
    /* the state stays at the last successful step (SUNDIALS' tcur) */
    return fail_flag(s, flag, tcur, s->kind == KIND_IDA ? "IDASolve" : "CVode");
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
                                              COSROD_STEP_DENSE | COSROD_STEP_RESIDUAL | COSROD_STEP_OWN_CLIP,
                                          ida_alloc,
                                          sun_reset,
                                          sun_step,
                                          sun_dense,
                                          sun_free};

static const cosrod_step_type cvode_type = {"cvode",
                                            5,
                                            COSROD_STEP_IMPLICIT | COSROD_STEP_BANDED |
                                                COSROD_STEP_SECOND_ORDER | COSROD_STEP_DENSE |
                                                COSROD_STEP_OWN_CLIP,
                                            cvode_alloc,
                                            sun_reset,
                                            sun_step,
                                            sun_dense,
                                            sun_free};

const cosrod_step_type *const cosrod_step_ida = &ida_type;
const cosrod_step_type *const cosrod_step_cvode = &cvode_type;
