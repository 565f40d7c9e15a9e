// SPDX-License-Identifier: Apache-2.0
/* SUNDIALS adapters: return flags of IDA / CVODE mapped to cosrod status
 * codes and messages, the error handler that captures SUNDIALS' messages,
 * and the counters (meaning of each in sundials.c). */
#include <stdio.h>

#include <cvode/cvode.h>
#include <ida/ida.h>

#include "integrate/sundials_band.h"
#include "integrate/sundials_internal.h"

/* ---------------------------------------------------------------- error handler */

void sun_on_error(int code, const char *module, const char *function, char *msg, void *ud) {
  sun_state *s = ud;
  if (code == IDA_WARNING || code == CV_WARNING) return; /* warnings are not failures; stay quiet */
  snprintf(s->sunmsg, sizeof s->sunmsg, "%s %s: %s", module ? module : "", function ? function : "",
           msg ? msg : "");
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
cosrod_status sun_fail_flag(sun_state *s, int flag, double t, const char *what) {
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
cosrod_status sun_fail_setup(sun_state *s, const char *what, int flag) {
  cosrod_status st = flag == IDA_MEM_FAIL || flag == CV_MEM_FAIL ? COSROD_ERR_NOMEM : COSROD_ERR_INVALID;
  return cosrod_step_fail(s->ctx, st, s->ctx->t, "%s: %s failed (%d): %s", s->name, what, flag,
                          s->sunmsg[0] ? s->sunmsg : "no SUNDIALS message");
}

void sun_update_stats(sun_state *s) {
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
