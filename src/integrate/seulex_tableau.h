// SPDX-License-Identifier: Apache-2.0
/* Private numerics of seulex (no control decisions): the linearly implicit
 * Euler sweep, the Aitken–Neville extrapolation tableau and the dense output
 * of the extrapolated linearly implicit Euler method (Hairer & Wanner,
 * Solving ODEs II, §IV.9; HNW I §II.9 for the tableau), for M y' = f(t, y)
 * with a constant, possibly singular mass matrix (HW II §VI.5).
 *
 * Row j of the tableau for a basic step H from (t0, y0) uses n_j substeps of
 * h_j = H/n_j (HW II (9.3)):
 *     (M/h_j − J) Δ_i = f(t_i, y_i),   y_{i+1} = y_i + Δ_i,   T_{j1} = y_{n_j},
 * with one Jacobian J for the whole basic step.  For a problem with explicit
 * time dependence (problem->time_dependent) f is taken at the end of each
 * substep, t_i = t0 + (i+1) h_j; otherwise at its start, t_i = t0 + i h_j.
 * The step-number sequence n_j is the caller's (given to create).
 *
 * WHICH rows to build, when to stop, what to accept, the next order and step
 * size, when to refresh J and what to do after a failure are the caller's.
 * Counters: seulex_sweep_factor counts one ndecomp per successful
 * factorisation, each substep solve one nsolve, f evaluations nfev (through
 * cosrod_step_call_f).  Nothing here allocates except create. */
#ifndef COSROD_INTEGRATE_SEULEX_TABLEAU_H
#define COSROD_INTEGRATE_SEULEX_TABLEAU_H

#include "integrate/lsys.h"

enum { SEULEX_TABLEAU_MAX_ROWS = 32 };

typedef struct seulex_tableau {
  int n;
  int rows;                              /* capacity: rows 1 .. rows */
  int nseq[SEULEX_TABLEAU_MAX_ROWS + 1]; /* n_j, j = 1 .. rows (index 0 unused) */
  double *tab;       /* (rows x n) solution tableau, row j at seulex_tableau_row(T, T->tab, j) */
  double *kept;      /* last j increments Δ of row j (dense output) */
  double *derivs;    /* (rows x n) d_1 .. d_c of the dense output */
  double *deriv_tab; /* (rows x n) tableau of one derivative */
  double *y_sub;     /* (n) current substep value y_i of the sweep */
  double *f_sub;     /* (n) f at y_sub for the next substep */
  double *delta;     /* (n) last increment Δ_i of the sweep */
  int dense_column;  /* column c the dense output was prepared for (0: not prepared) */
} seulex_tableau;

/* Allocate for dimension n and rows 1 .. rows (2 <= rows <=
 * SEULEX_TABLEAU_MAX_ROWS) with the step numbers nseq[1 .. rows] (nseq[0]
 * ignored; strictly increasing, n_j >= j: row j keeps its last j increments
 * for the dense output).  ERR_INVALID, ERR_NOMEM (no message). */
cosrod_status seulex_tableau_create(seulex_tableau **out, int n, int rows, const int *nseq);
void seulex_tableau_free(seulex_tableau *T);

/* Row j (1-based) of a (rows x n) array base (T->tab, T->derivs, T->deriv_tab). */
double *seulex_tableau_row(const seulex_tableau *T, double *base, int j);

/* Factor E = M/h_j − J (the lsys's current J and M) for row j of a basic step
 * H, h_j = H/n_j.  OK (counts one ndecomp), ERR_SINGULAR / ERR_NONFINITE, or
 * ERR_INTERRUPTED (the interrupt flag is set; no message written). */
cosrod_status seulex_sweep_factor(cosrod_lsys *L, cosrod_step_ctx *ctx, const seulex_tableau *T, int j,
                                  double H);

/* First substep of row j (after seulex_sweep_factor): Δ_0 = E^-1 f(t_0, y0)
 * (f0 = f(t0, y0) is used for an autonomous problem, a new f at t0 + h_j
 * otherwise), y_1 = y0 + Δ_0 into T->y_sub, Δ_0 stays in T->delta, and, if
 * n_j > 1, the next substep's f into T->f_sub: f(t_1, y_1) for an autonomous
 * problem, f(t_2, y_1) (the substep's end) otherwise.  Returns the f callback's code (0,
 * > 0 recoverable, < 0 fatal).  A check of the first substep can run between
 * this and seulex_sweep_finish. */
int seulex_sweep_first(seulex_tableau *T, cosrod_lsys *L, cosrod_step_ctx *ctx, int j, double t0,
                       const double *y0, const double *f0, double H);

/* Substeps 1 .. n_j − 1 of row j; T_{j1} = y_{n_j} into row j of T->tab.
 * Returns the f callback's code. */
int seulex_sweep_finish(seulex_tableau *T, cosrod_lsys *L, cosrod_step_ctx *ctx, int j, double t0, double H);

/* Aitken–Neville for a sequence whose error expands in powers of h (HW II
 * (9.5), HNW I (9.10) with exponent 1):
 *     T_{j,l+1} = T_{jl} + (T_{jl} − T_{j−1,l}) / (n_j/n_{j−l} − 1).
 * On entry row r of base holds the new first-column value and rows lo .. r−1
 * the values left by the previous call (r−1); on return row lo + m holds the
 * value extrapolated r − lo − m times, i.e. for lo = 1 row 1 holds T_rr and
 * row 2 T_{r,r−1}.  Call with r = lo first (no-op), then r = lo + 1, ... */
void seulex_tableau_extrapolate(const seulex_tableau *T, double *base, int lo, int r);

/* Local error estimate of column r >= 2 after seulex_tableau_extrapolate(T,
 * T->tab, 1, r): RMS of (T_rr − T_{r,r−1})_i / weight_i (weight (n), e.g.
 * atol + rtol |y0| by cosrod_integrate_scale).  +Inf (and ctx->nonfinite = 1)
 * if not finite. */
double seulex_tableau_error(const seulex_tableau *T, cosrod_step_ctx *ctx, const double *weight);

/* Dense output of an accepted basic step (t0, y0) -> (t0 + H, y1) whose value
 * was taken from column c (2 <= c <= rows; rows 1 .. c built in this basic
 * step, no sweep since): HW II §IV.9 "dense output" (after Hairer & Ostermann
 * 1990).  The k-th backward difference of the last substeps of row r
 * approximates h_r^k y^(k)(t1); the scaled derivatives d_k = H^k y^(k)(t1)/k!
 * are extrapolated over the rows r >= k, and the polynomial in s = θ − 1
 *     P(s) = y1 + Σ_{k=1}^{c} d_k s^k,    d_c fixed by P(−1) = y0,
 * interpolates y0, y1 and c − 1 derivatives at t1.  No f evaluations.
 * prepare builds d_1 .. d_c (uses the tableau's kept increments; must run
 * before the next sweep); eval: out[q] = P_{idx[q]}(θ − 1) (all n if idx is
 * NULL). */
void seulex_dense_prepare(seulex_tableau *T, int c, const double *y0, const double *y1);
void seulex_dense_eval(const seulex_tableau *T, const double *y1, double theta, const int *idx, int nidx,
                       double *out);

#endif /* COSROD_INTEGRATE_SEULEX_TABLEAU_H */
