// SPDX-License-Identifier: Apache-2.0
/* Private numerics of radau5 (no control decisions): the stage systems of
 * the 3-stage Radau IIA collocation method (order 5) for M y' = f(t, y),
 * after Hairer & Wanner, Solving ODEs II, §IV.8 and §VII.8.
 *
 * One step from (t0, y0) with size h solves the collocation system for the
 * stage increments Z = (z_1, z_2, z_3), z_i ≈ y(t0 + c_i h) - y0:
 *     (A^-1 ⊗ M) Z = h F(Z),   F(Z)_i = f(t0 + c_i h, y0 + z_i),
 * y1 = y0 + z_3 (stiffly accurate).  The simplified Newton iteration runs in
 * W = (T^-1 ⊗ I) Z (radau5_coef.h): one real system ((γ/h) M - J, lsys.c)
 * and one complex system (((α + iβ)/h) M - J, radau5_cplx.c) per iteration.
 *
 * This file offers the pieces; WHEN to call them (how many iterations, when
 * to stop, when to refresh J or refactor, which step size) is the caller's.
 * Counters: radau5_stages_factor counts one ndecomp per real + complex pair,
 * radau5_stages_solve one nsolve per real + complex pair, radau5_stages_residual
 * three nfev (through cosrod_step_call_f), the error estimate one nsolve per
 * solve.  nnewton, nsteps, naccept, nreject, nconvfail are the caller's.
 * Nothing here allocates except create. */
#ifndef COSROD_INTEGRATE_RADAU5_STAGES_H
#define COSROD_INTEGRATE_RADAU5_STAGES_H

#include "integrate/lsys.h"
#include "integrate/radau5_cplx.h"

typedef struct radau5_stages {
  int n;
  cosrod_lsys *L; /* J, M and the real matrix (γ/h) M - J (owned) */
  radau5_cplx *C; /* the complex matrix ((α + iβ)/h) M - J (owned) */
  double *z[3];   /* (n) stage increments z_i */
  double *w[3];   /* (n) transformed increments W = (T^-1 ⊗ I) Z */
  double *g[3];   /* (n) Newton right-hand sides, then the increments ΔW (after solve) */
  double *f0;     /* (n) f(t0, y0): the caller fills it (radau5_stages_eval_f0) */
  double *y_start; /* (n) y0 of the step whose polynomial is stored */
  double *poly;    /* (3n) b1, b2, b3 of the stored collocation polynomial */
  double poly_h;   /* its step size (0: none stored) */
  double *scale;   /* (n) error / increment scale of the current attempt */
  double *work, *work2; /* (n) scratch */
  int index2_begin; /* components [index2_begin, index3_begin) are index 2, [index3_begin, n) index 3 */
  int index3_begin;
} radau5_stages;

/* Allocate for ctx->problem (sparse shape with KLU allowed; index ranges from
 * nind1/nind2/nind3).  ERR_INVALID (bandwidths) / ERR_NOMEM with a message. */
cosrod_status radau5_stages_create(radau5_stages **out, cosrod_step_ctx *ctx);
void radau5_stages_free(radau5_stages *S);

/* S->f0 <- f(ctx->t, ctx->y).  OK, or ERR_CALLBACK / ERR_NONFINITE with a
 * message naming `where` ("initial point", "accepted point"). */
cosrod_status radau5_stages_eval_f0(radau5_stages *S, cosrod_step_ctx *ctx, const char *where);

/* J at (ctx->t, ctx->y) with S->f0 = f there (analytic or finite differences,
 * counts njev).  A non-finite entry is ERR_NONFINITE (message); a failed
 * callback ERR_CALLBACK. */
cosrod_status radau5_stages_jacobian(radau5_stages *S, cosrod_step_ctx *ctx);

/* Factor (γ/h) M - J and ((α + iβ)/h) M - J with the current J (counts one
 * ndecomp).  OK, ERR_SINGULAR, ERR_NONFINITE or ERR_INTERRUPTED (no message). */
cosrod_status radau5_stages_factor(radau5_stages *S, cosrod_step_ctx *ctx, double h);

/* S->scale[i] = atol_i + rtol_i |y0_i| for the given tolerance arrays (n),
 * divided by |h| for index-2 and by h² for index-3 components (HW II §VII.8:
 * their local errors carry the factors 1/h, 1/h²). */
void radau5_stages_set_scale(radau5_stages *S, const double *rtol, const double *atol, const double *y0,
                             double h);

/* Starting values Z, W for a step of size h: from the stored collocation
 * polynomial u of the previous step (continued to t0 + c_i h, evaluated
 * without cancellation) when have_poly != 0 and S->poly_h != 0, else zero
 * (HW II §IV.8 "starting values"). */
void radau5_stages_predict(radau5_stages *S, double h, int have_poly);

/* Newton right-hand sides into S->g: (T^-1 ⊗ I) F(Z) - (Λ/h ⊗ M) W, with F
 * evaluated at the current Z (three f evaluations).  Returns the f
 * callback's code (0, > 0 recoverable, < 0 fatal; message by the wrapper). */
int radau5_stages_residual(radau5_stages *S, cosrod_step_ctx *ctx, double t0, const double *y0, double h);

/* S->g <- ΔW: solve the real system for g[0], the complex one for
 * (g[1], g[2]) with the current factorisations (counts one nsolve). */
void radau5_stages_solve(radau5_stages *S, cosrod_step_ctx *ctx);

/* Scaled RMS norm of ΔW (S->g) over all 3n entries with S->scale. */
double radau5_stages_increment_norm(const radau5_stages *S);

/* W += ΔW, Z = (T ⊗ I) W. */
void radau5_stages_apply_increment(radau5_stages *S);

/* Embedded error estimate of the converged stages (HW II (8.19)): with
 * γ0 = 1/γ,  err = (I - hγ0 J)^-1 (γ0 h f(t0, y0) + Σ e_i z_i)
 *               = ((γ/h) M - J)^-1 (f(t0, y0) - M u'(t0)),
 * the defect of the new collocation polynomial u at t0, filtered by the real
 * iteration matrix (one nsolve).  The estimate vector is left in S->g[0];
 * returns its scaled RMS norm with S->scale (NaN/Inf if not finite).
 * Uses S->f0 and S->work, S->work2 (M u'(t0) stays in S->work2 for refine). */
double radau5_stages_error(radau5_stages *S, cosrod_step_ctx *ctx, double h);

/* The refined estimate of HW II (8.20): the estimate err of the last
 * radau5_stages_error call (S->g[0]) is replaced by
 * ((γ/h) M - J)^-1 (f(t0, y0 + err) - M u'(t0)), which damps the stiff
 * components (one f, one nsolve).  Returns its scaled RMS norm; *rc receives
 * the f callback's code (on rc != 0 the first estimate's norm is returned
 * unchanged and S->g[0] may be overwritten). */
double radau5_stages_error_refine(radau5_stages *S, cosrod_step_ctx *ctx, double t0, const double *y0,
                                  double err_first, int *rc);

/* Store the collocation polynomial of the accepted step (b = V^-1 Z), y0 and
 * h for dense output and the next prediction; call before y0 is overwritten
 * by y1 = y0 + z_3. */
void radau5_stages_store_polynomial(radau5_stages *S, const double *y0, double h);

/* Dense output of the stored polynomial, u(θ) = y0 + θ (b1 + θ (b2 + θ b3)),
 * θ = (t - t_old)/h_last: out[k] = u_{idx[k]} (k < nidx), or all n if idx is
 * NULL.  ERR_INVALID for an index out of range. */
cosrod_status radau5_stages_dense(const radau5_stages *S, double theta, const int *idx, int nidx,
                                  double *out);

#endif /* COSROD_INTEGRATE_RADAU5_STAGES_H */
