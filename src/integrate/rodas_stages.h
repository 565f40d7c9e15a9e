// SPDX-License-Identifier: Apache-2.0
/* Private numerics of rodas (no control decisions): the stages, error
 * estimate and dense output of the stiffly accurate Rosenbrock method RODAS
 * of order 4(3) with 6 stages and γ = 1/4 (Hairer & Wanner, Solving ODEs II,
 * §IV.7, coefficients in rodas_coef.h) for M y' = f(t, y) with a constant,
 * possibly singular (index-1 DAE) mass matrix M (§VI.4).
 *
 * One step in the transformed variables u_i = h Σ γ_ij k_j (HW II (7.4')):
 *   (1/(hγ) M − J) u_i = f(t + c_i h, y + Σ_{j<i} a_ij u_j)
 *                        + M Σ_{j<i} (C_ij/h) u_j + d_i h f_t,
 * with J = ∂f/∂y and f_t = ∂f/∂t at (t, y) (f_t only for a time-dependent
 * problem: dfdt or a forward difference).  Stiffly accurate: stage 6 is
 * evaluated at y + Σ a_5j u_j + u_5, y1 = (that) + u_6, and u_6 is the error
 * estimate (the embedded order-3 result is the stage-6 argument).
 * Dense output of order 3:
 *   y(t + θh) = (1−θ) y0 + θ (y1 + (1−θ)(Σ h2j u_j + θ Σ h3j u_j)).
 *
 * When to evaluate J, the step size and acceptance are the caller's.
 * Counters: rodas_stages_factor counts one ndecomp per call, each stage solve
 * one nsolve, f (also the f_t difference) nfev, J njev. */
#ifndef COSROD_INTEGRATE_RODAS_STAGES_H
#define COSROD_INTEGRATE_RODAS_STAGES_H

#include "integrate/lsys.h"

typedef struct rodas_stages {
  int n;
  cosrod_lsys *L;          /* J, M and E = 1/(hγ) M − J (owned) */
  double *dy0;             /* (n) f(t, y) at the start of the step */
  double *fx;              /* (n) ∂f/∂t there (time-dependent problems) */
  double *k[6];            /* (n) stage solutions u_1 .. u_6; k[5] = u_6 is the error estimate */
  double *ys, *ynew, *rhs; /* (n) stage argument, new solution y1, right-hand side */
  double *mu;              /* (n) scratch */
  double *cont;            /* (4n) dense output: y0, y1, a, b */
  double t_old, h_old;     /* the step the dense output belongs to (h_old = 0: none) */
} rodas_stages;

/* Allocate for ctx->problem (sparse shape allowed).  ERR_INVALID (message) /
 * ERR_NOMEM. */
cosrod_status rodas_stages_create(rodas_stages **out, cosrod_step_ctx *ctx);
void rodas_stages_free(rodas_stages *S);

/* f (into dy0), J and, for a time-dependent problem, f_t (into fx) at
 * (ctx->t, ctx->y).  Returns the callbacks' code (0, > 0 recoverable — with
 * ctx->nonfinite set when a value was NaN/Inf —, < 0 fatal; messages by the
 * wrappers). */
int rodas_stages_jacobian(rodas_stages *S, cosrod_step_ctx *ctx);

/* Factor E = 1/(hγ) M − J (counts one ndecomp).  OK, ERR_SINGULAR,
 * ERR_NONFINITE or ERR_INTERRUPTED (no message). */
cosrod_status rodas_stages_factor(rodas_stages *S, cosrod_step_ctx *ctx, double h);

/* The six stages from (t, y) with step h (after rodas_stages_jacobian at
 * (t, y) and rodas_stages_factor(h)): S->ynew = y1, S->k[5] = error vector.
 * Returns the f callback's code (0, > 0 recoverable, < 0 fatal). */
int rodas_stages_compute(rodas_stages *S, cosrod_step_ctx *ctx, double t, const double *y, double h);

/* Store the dense-output coefficients of the computed step (t, y, h) (call
 * before y is overwritten by S->ynew). */
void rodas_stages_store_dense(rodas_stages *S, double t, const double *y, double h);

/* Dense output at t in the stored step: out[k] = y_{idx[k]}(t) (all n if idx
 * is NULL).  ERR_INVALID if no step is stored. */
cosrod_status rodas_stages_dense(const rodas_stages *S, double t, const int *idx, int nidx, double *out);

#endif /* COSROD_INTEGRATE_RODAS_STAGES_H */
