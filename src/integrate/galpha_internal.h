// SPDX-License-Identifier: Apache-2.0
/* Generalized-α (galpha.c): the method's state, shared with its dense
 * output (galpha_dense.c). */
#ifndef COSROD_GALPHA_INTERNAL_H
#define COSROD_GALPHA_INTERNAL_H

#include "cosrod/band.h"
#include "cosrod/integrate.h"

/* The LU of S is kept while |h - h_LU| <= LU_KEEP |h_LU|: simplified Newton
 * converges with an iteration matrix of a nearby h (HW II §IV.8: the
 * matrix is "not recomputed if the step size is only slightly changed";
 * the stiff part of S scales with h², so S(h_LU)⁻¹ S(h) - I is at most
 * about 2 LU_KEEP, and the contraction rate θ measured in Newton refreshes
 * J (and the LU) when that is too slow). */
#define LU_KEEP 0.2

/* Sparse tangents (galpha_sparse.c). */
typedef struct galpha_sparse galpha_sparse;

typedef struct galpha_state {
  int n, nq, nv;
  double am, af, gam, bet; /* α_m, α_f, γ, β */
  int fixed;
  double safety, fac_min, fac_max, kappa, jac_reuse, keep_lo, keep_hi;
  int max_newton, gustafsson;
  int realtime, jac_budget; /* opts.galpha_realtime: bounded work per step */
  int njac_step, stale;     /* Jacobians of this step; K, C due for a refresh (realtime) */
  cosrod_band *K, *C, *S;
  struct cosrod_band_spike *spike; /* partitioned LU of S (threads >= 2, nv large: lsys.c's rule), or NULL */
  galpha_sparse *sp;         /* sparse K, C and S (jac_tangent_sp), or NULL: the bands */
  double *vd, *a;           /* (nv) v̇_n, a_n */
  double *vd1, *a1, *dq;    /* (nv) v̇_{n+1}, a_{n+1}, Δq_n */
  double *x, *w;            /* (nv) Newton correction, tangent scratch */
  double *y1, *f, *yold;    /* (n) trial state, f, state at t_n */
  double *vdold, *wq;       /* (nv) v̇ at t_n, h Δq of the last step (dense output) */
  double *qe;               /* (nq) scratch */
  double *qref;             /* (nq) q at the (re)start */
  double dmax;              /* max over the steps of ||q - qref||_rms (motion scale of the error test) */
  double *aacc, *aprev;     /* (nv) a_n as accepted (for h_old), a_{n-1} (for h_old) */
  int have_aprev;
  int have_jac, lu_ok;      /* K, C valid (for the current y); S factored for lu_h */
  int jac_fresh;            /* K, C evaluated for the current step (at its predicted end) */
  double lu_h, eta_old;
  double h_acc, err_acc;    /* h and max(err, 1e-2) of the last accepted step (0: none yet) */
  double hcap; /* bound on |h| after a Newton failure (0 = none) */
  int reject;
  double h_old;
} galpha_state;

/* q_new = q ⊕ w through the problem's increment (0 or the callback's status). */
int galpha_increment(const cosrod_step_ctx *ctx, const double *q, const double *w, double *qnew);
/* 1 if the problem gives sparse tangents (jac_tangent_sp, tangent_pattern) and KLU is built in. */
int galpha_sparse_wanted(const cosrod_ode_problem *p);
/* K, C on the problem's tangent pattern and the KLU system of S (ERR_NOMEM, ERR_INVALID pattern). */
cosrod_status galpha_sparse_create(galpha_sparse **out, const cosrod_ode_problem *p, int nv, int ml, int mu);
/* 1 while the pattern is its first version and within the bands (ml, mu): galpha takes the band path
 * with the values copied by galpha_sparse_to_band. */
int galpha_sparse_banded(const galpha_sparse *g);
void galpha_sparse_to_band(const galpha_sparse *g, cosrod_band *K, cosrod_band *C);
void galpha_sparse_free(galpha_sparse *g);
/* K, C at (t, y); a grown pattern rebuilds the system and evaluates again.
 * Returns as cosrod_ode_jac_tangent (0, > 0 recoverable, < 0 fatal). */
int galpha_sparse_jac(galpha_sparse *g, cosrod_step_ctx *ctx, double t, const double *y);
/* S = I - gpp C - bpp K and its LU (statuses as cosrod_lsys_sparse_factor). */
cosrod_status galpha_sparse_factor(galpha_sparse *g, double gpp, double bpp);
void galpha_sparse_solve(galpha_sparse *g, double *b);
/* Dense output at t inside the last step (galpha_dense.c). */
cosrod_status galpha_dense(void *s_, cosrod_step_ctx *ctx, double t, const int *idx, int nidx, double *out);

#endif /* COSROD_GALPHA_INTERNAL_H */
