// SPDX-License-Identifier: Apache-2.0
/* Order and step-size control of extrapolation methods (internal; shared by
 * odex and meant for seulex).  Written from the method descriptions of
 * Hairer–Nørsett–Wanner I §II.9 ("Order and step size control") and
 * Deuflhard (1983, 1985): choose the number of columns by the work per unit
 * step, and the step from the error estimates of the tableau's subdiagonal.
 *
 * A method supplies its step-number sequence n_j, the cost A_j of a step that
 * stops after column j (0-based, any unit: f evaluations, or f + LU + solves),
 * and the power gamma of the step in the asymptotic error expansion of its
 * base method (2 for the GBS midpoint rule, 1 for the linearly implicit
 * Euler method).  Then with the Aitken–Neville tableau T_{j,k}:
 *   - T_{j,j-1} has order gamma*j, so err_j = ||T_{j,j} - T_{j,j-1}|| ~ H^(gamma*j + 1)
 *     (0-based j >= 1) and the step that would give err_j = rho is
 *         H_j = H * (rho / err_j)^(1/(gamma*j + 1))          (HNW I (4.12)-(4.13), §II.9)
 *   - work per unit step W_j = A_j / H_j;  the next number of columns is the
 *     one with the smallest W_j (HNW I §II.9; Deuflhard 1983 §3).
 *   - convergence monitor in the order window {k-1, k, k+1} around the target
 *     column k: with the error model of the Aitken–Neville tableau,
 *     err(T_{j,j-1}) ~ |c_j| prod_{i=1..j} (H / n_i)^gamma, each further
 *     column divides the error by roughly (n_{j+1} / n_0)^gamma (assuming the
 *     coefficient ratio |c_{j+1} / c_j| H^gamma ~ n_0^gamma, the progress the
 *     first column makes; HNW I §II.9).  So err_{k-1} > ((n_k n_{k+1}) / n_0^2)^gamma
 *     says that not even column k+1 will reach err <= 1: reject at once, and
 *     likewise err_k > (n_{k+1} / n_0)^gamma.
 * Constants (defaults of cosrod_extrap_ctrl_init, see the design note in
 * src/integrate/README.md for their sources):
 *   rho = 0.38   error target: HNW I §II.4 recommends the safety factor
 *                (0.38)^(1/(q+1)) (of the error) among its four choices; with the
 *                column-dependent exponent this is the natural form.
 *   fac_min = 0.02, fac_max = 4: bounds of H_new / H.  HNW I §II.4 recommends
 *                facmax in [1.5, 5]; the lower bound only catches a wild estimate
 *                in column 1 (exponent 1/3).
 *   order_up = 0.9: raise the number of columns only if W_j < 0.9 W_{j-1}, a
 *                10 % hysteresis so that the order does not oscillate (own
 *                choice, bench/results/odex.md).
 * After a rejection the next step may not grow (HNW I §II.4: facmax = 1
 * right after a rejected step) and the order may not increase.
 * Early acceptance (err_{k-1} <= 1) only from column jmin_accept on (odex:
 * kmin - 1, seulex: kmin; README); a target raised to kmin takes that
 * column's own step when it was computed. */
#ifndef COSROD_INTEGRATE_EXTRAP_CONTROL_H
#define COSROD_INTEGRATE_EXTRAP_CONTROL_H

#define COSROD_EXTRAP_KMAX 16

enum { COSROD_EXTRAP_CONTINUE = 0, COSROD_EXTRAP_ACCEPT = 1, COSROD_EXTRAP_REJECT = 2 };

typedef struct cosrod_extrap_ctrl {
  int kmax;                         /* columns 0 .. kmax-1 (>= 4 for the window) */
  int gamma;                        /* error expansion in powers of h^gamma */
  double nseq[COSROD_EXTRAP_KMAX];  /* step numbers n_j */
  double work[COSROD_EXTRAP_KMAX];  /* A_j: cost of a step ending with column j */
  double rho;                       /* error target of the step-size formula [0.38] */
  double fac_min, fac_max;          /* bounds of H_new / H [0.02, 4] */
  double order_up;                  /* raise the order if W_j < order_up W_{j-1} [0.9] */
  int kmin;                         /* smallest target column [2] */
  int jmin_accept;                  /* lowest column whose err <= 1 accepts the step [1] */
  int predict_raise;                /* order raise: H_{j+1} also from a predicted err_{j+1} [0] */
  int observed;                     /* monitor: also the last step's row ratios [0] (seulex) */
  int predictive;                   /* Gustafsson's predictive step when larger [0] (seulex) */
  double pred_cap;                  /* ... but at most pred_cap times the standard one [1.5] */
  /* of the current step: */
  double err[COSROD_EXTRAP_KMAX];  /* err_j, j >= 1 */
  double hfac[COSROD_EXTRAP_KMAX]; /* H_j / H */
  double h_cur; /* H of the current step (cosrod_extrap_begin) */
  int j_cur;    /* last column with an error estimate in it */
  /* of the last step that computed an error estimate: */
  double prev_err[COSROD_EXTRAP_KMAX];
  double h_prev;
  int j_prev;
} cosrod_extrap_ctrl;

/* Set the sequence, the costs (kmax entries each) and the default constants. */
void cosrod_extrap_ctrl_init(cosrod_extrap_ctrl *c, int kmax, int gamma, const int *nseq, const double *work);

/* Start a step of size H: the errors of the last step that computed one
 * are kept for `observed` and `predictive`.  Call before the first
 * cosrod_extrap_monitor of every attempt. */
void cosrod_extrap_begin(cosrod_extrap_ctrl *c, double H);

/* H_j / H for column j >= 1 with error err_j (clamped to [fac_min, fac_max]). */
double cosrod_extrap_step_factor(const cosrod_extrap_ctrl *c, int j, double err);

/* Record err_j of column j >= 1 (in the step aiming at column k, 1 <= k-1,
 * k+1 <= kmax-1) and decide: ACCEPT (err_j <= 1 in the window), REJECT
 * (err_j not finite, or the monitor predicts no convergence by column k+1,
 * or column k+1 failed) or CONTINUE with column j+1. */
int cosrod_extrap_monitor(cosrod_extrap_ctrl *c, int j, int k, double err);

/* Next target column and H_next / H after a step that ended with column j
 * (accepted or rejected).  no_increase: the previous step was rejected (no
 * growth of H or k).  The target stays in [2, kmax-2]. */
void cosrod_extrap_next(const cosrod_extrap_ctrl *c, int j, int k, int accepted, int no_increase, int *k_next,
                        double *hfac_next);

/* Target column for a first step at relative tolerance rtol: the column
 * whose order gamma*j + gamma comes closest to the number of digits asked,
 * -log10(rtol) + 1 (own rule; the controller corrects it within a few steps). */
int cosrod_extrap_initial_column(const cosrod_extrap_ctrl *c, double rtol);

/* Starting step size, HNW I §II.4 ("Starting step size", steps (a)-(f)), for
 * a method of order `order` at (ctx->t, ctx->y) with f0 = f(t, y), norms
 * weighted with sk = atol + rtol |y0|: d0 = ||y0||, d1 = ||f0||; h0 = 0.01
 * d0/d1 (1e-6 if d0 or d1 < 1e-5); one explicit Euler step to y0 + h0 f0 and
 * d2 = ||f(t + h0, .) - f0|| / h0; h1 = (0.01 / max(d1, d2))^(1/(order+1))
 * (max(1e-6, 1e-3 h0) if max(d1, d2) <= 1e-15); h = min(100 h0, h1, hmax),
 * signed with ctx->dir.  One f evaluation; work (2n).  A recoverable
 * failure of f at the Euler point gives h = 0.1 h0; returns ERR_CALLBACK
 * for a fatal one. */
struct cosrod_step_ctx;
int cosrod_extrap_initial_step(struct cosrod_step_ctx *ctx, int order, const double *f0, double *work,
                               double *h);

#endif /* COSROD_INTEGRATE_EXTRAP_CONTROL_H */
