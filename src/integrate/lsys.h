// SPDX-License-Identifier: Apache-2.0
/* Private helper of the implicit integrators (rodas, seulex; usable by
 * radau5 for its real system): the linear systems
 *
 *     E u = r,    E = fac * M - J,
 *
 * of linearly implicit / Rosenbrock / simplified-Newton steps (fac = 1/(h γ)
 * for RODAS, 1/h_j for SEULEX), for every problem shape cosrod_ode_problem
 * declares: dense or banded Jacobian, optional constant mass matrix (dense or
 * banded), and second-order structure y'_i = y_{i+m2} (i < m1), which is
 * reduced to an (n-m1) system as in HW II §IV.8 ("problems with special
 * structure", Hairer's M1/M2 option):
 *
 *   with K = m1/m2 q-blocks u_0..u_{K-1} (m2 each) and the v-part u_v (n-m1):
 *     fac u_k - u_{k+1} = r_k  (u_K := first m2 entries of u_v)
 *   =>  u_k = a_k + u_v[0:m2] / fac^{K-k},  a_{K-1} = r_{K-1}/fac,
 *       a_k = (r_k + a_{k+1})/fac, and
 *     (fac M_v - J_v - sum_k J_k / fac^{K-k}) u_v = r_v + sum_k J_k a_k,
 *   J_k the (n-m1) x m2 q-block columns of the reduced Jacobian (added to the
 *   first m2 columns).  Back substitution: u_{K-1} = (r_{K-1} + u_v[0:m2])/fac,
 *   u_k = (r_k + u_{k+1})/fac.
 *
 * Storage of J and M is the callback storage documented in
 * cosrod/integrate.h; E is a cosrod_dense or cosrod_band of order n - m1 with
 * bandwidths max(J, J_k, M).  Everything is allocated by create; jac, factor,
 * solve and mass_mult never allocate.  The caller counts decompositions and
 * solves (the originals count them differently). */
#ifndef COSROD_INTEGRATE_LSYS_H
#define COSROD_INTEGRATE_LSYS_H

#include "cosrod/band.h"
#include "cosrod/dense.h"
#include "cosrod/integrate.h"

typedef struct cosrod_lsys {
  int n, m1, m2, nm1; /* nm1 = n - m1: order of E */
  int nblk;           /* K = m1 / m2 q-blocks (0 if m1 == 0) */
  int banded;         /* J banded */
  int ml, mu;         /* J bandwidths (v-block when m1 > 0) */
  int mlq, muq;       /* q-block bandwidths (m1 > 0, banded) */
  int has_mass, mass_banded;
  int mass_ml, mass_mu; /* M bandwidths as stored by the callback (may exceed nm1 - 1) */
  double *J;            /* Jacobian in callback storage, (ldj x n) */
  int ldj;
  double *M; /* mass matrix (its nm1 x nm1 part) in callback storage, (ldm x nm1) or NULL */
  int ldm;
  cosrod_dense *Ed; /* E when dense */
  cosrod_band *Eb;  /* E when banded */
  struct cosrod_band_spike *spike; /* partitioned solver of Eb (opts->threads >= 2, large), else NULL */
  int spike_threads;               /* its partitions = threads (radau5's complex system follows) */
  double fac;       /* fac of the last factor() */
  double *work;     /* (2n) FD Jacobian workspace */
  double *tmp;      /* (n) */
  struct cosrod_lsys_sparse *S; /* sparse shape with KLU (lsys_sparse.c), else NULL */
} cosrod_lsys;

/* Allocate for ctx->problem (shapes, bandwidths) with ctx->opts->linalg_backend;
 * ERR_INVALID for inconsistent bandwidths, ERR_NOMEM. */
cosrod_status cosrod_lsys_create(cosrod_lsys **out, const cosrod_step_ctx *ctx);
/* As cosrod_lsys_create; allow_sparse != 0 (methods with COSROD_STEP_SPARSE
 * that never read J or E directly, or handle the sparse case: rodas, seulex,
 * radau5) uses the problem's sparse
 * shape when cosrod_sparse_jac_usable (lsys_sparse.h): J and E are then
 * sparse, the band / dense storage is not allocated. */
cosrod_status cosrod_lsys_create_ex(cosrod_lsys **out, const cosrod_step_ctx *ctx, int allow_sparse);
void cosrod_lsys_free(cosrod_lsys *L);
/* Partitions (= threads) of the SPIKE solver for a banded system of order n
 * with the requested cosrod_integrate_options.threads, or 0 for the serial
 * band LU (fewer than 2 threads, no OpenMP, or n below the threshold of
 * lsys.c).  Used by lsys, radau5's complex system and galpha alike. */
int cosrod_lsys_spike_threads(int n, int threads);
/* Read the constant mass matrix (no-op without one); returns the callback's code. */
int cosrod_lsys_load_mass(cosrod_lsys *L, cosrod_step_ctx *ctx);
/* J <- d f / d y at (t, y) (analytic or finite differences, counted by
 * cosrod_step_call_jac); fy (n) = f(t, y).  Returns the callback's code. */
int cosrod_lsys_jac(cosrod_lsys *L, cosrod_step_ctx *ctx, double t, const double *y, const double *fy);
/* Form E = fac M - J (reduced) and factor it.  ERR_SINGULAR / ERR_NONFINITE
 * when the LU fails (the caller shrinks h); ERR_INTERRUPTED when the
 * installed interrupt flag (status.h) is set before or during the LU. */
cosrod_status cosrod_lsys_factor(cosrod_lsys *L, double fac);
/* memset of ncols columns of col_bytes each, polling the interrupt flag
 * (status.h) every 2048 columns: 1 if interrupted (partly zeroed), else 0.
 * Zeroing a band of ~10^8 entries takes seconds on first touch. */
int cosrod_lsys_zero_polled(void *data, int ncols, size_t col_bytes);
/* Solve E u = r in place, b: (n) r on entry, u on return. */
void cosrod_lsys_solve(cosrod_lsys *L, double *b);
/* y <- M x for the full n-vector (identity rows for i < m1 or without M);
 * x, y: (n), must not alias. */
void cosrod_lsys_mass_mult(const cosrod_lsys *L, const double *x, double *y);
/* alg[i] = 1 where row i of M is zero (an algebraic equation), else 0; all 0
 * without a mass matrix.  After cosrod_lsys_load_mass. */
void cosrod_lsys_mass_zero_rows(const cosrod_lsys *L, unsigned char *alg);

#endif /* COSROD_INTEGRATE_LSYS_H */
