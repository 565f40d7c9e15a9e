// SPDX-License-Identifier: Apache-2.0
/* Private helpers of the implicit integrators for a sparse Jacobian shape
 * (cosrod_ode_problem.jac_sparse): the Jacobian values on the CSC pattern,
 * analytic (jac_sp) or by finite differences with Curtis-Powell-Reid column
 * groups, and the KLU system E = fac M - J of rodas / seulex / radau5 (lsys.c
 * delegates here when the method allows the sparse shape).  Everything is
 * allocated by create; eval, factor and solve do not allocate (except KLU's
 * re-pivoting, see cosrod/sparse.h, and a pattern that grows: update). */
#ifndef COSROD_INTEGRATE_LSYS_SPARSE_H
#define COSROD_INTEGRATE_LSYS_SPARSE_H

#include "cosrod/integrate.h"
#include "cosrod/sparse.h"

/* Pattern of J and its column groups. */
typedef struct cosrod_sparse_jac {
  int n, nnz;
  const int *colptr, *rowind; /* the problem's pattern (n + 1), (nnz) */
  int ngroup;                 /* Curtis-Powell-Reid groups = f evaluations per FD Jacobian */
  int *gptr;                  /* (ngroup + 1) */
  int *gcol;                  /* (n) columns of group g at gcol[gptr[g] .. gptr[g + 1]) */
} cosrod_sparse_jac;

/* 1 if the problem's sparse shape can be used (jac_sparse, valid pattern,
 * m1 == 0, no mass matrix or a diagonal one (banded 0/0, e.g. the DAE forms'
 * diag(1, ..., 0)), KLU built in). */
int cosrod_sparse_jac_usable(const cosrod_ode_problem *p);
/* Groups for the pattern (none when the problem has jac_sp); ERR_INVALID
 * (bad pattern), ERR_NOMEM. */
cosrod_status cosrod_sparse_jac_init(cosrod_sparse_jac *sj, const cosrod_ode_problem *p);
void cosrod_sparse_jac_free(cosrod_sparse_jac *sj);
/* Jx (nnz) <- d f / d y at (t, y) (counts njev; FD costs ngroup f
 * evaluations with Hairer's increments sqrt(u max(1e-5, |y_j|)), as the
 * banded differences).  fy (n) = f(t, y); work (2n).  Returns as
 * cosrod_step_call_jac. */
int cosrod_sparse_jac_eval(const cosrod_sparse_jac *sj, cosrod_step_ctx *ctx, double t, const double *y,
                           const double *fy, double *Jx, double *work);

/* E = fac M - J (M diagonal or I) on the pattern of J plus the diagonal. */
typedef struct cosrod_lsys_sparse {
  cosrod_sparse_jac sj;
  double *Jx; /* (nnz of J) */
  cosrod_sparse *E;
  int *jpos;    /* (nnz of J) position of each J entry in E */
  int *dpos;    /* (n) position of E's diagonal entries */
  double *work; /* (2n) */
  int cap;      /* capacity of Jx, jpos */
  long version; /* the problem's pattern version (jac_pattern) E was built for */
} cosrod_lsys_sparse;

cosrod_status cosrod_lsys_sparse_create(cosrod_lsys_sparse **out, const cosrod_ode_problem *p);
void cosrod_lsys_sparse_free(cosrod_lsys_sparse *S);
/* J's values; with a growing pattern (cosrod_ode_problem.jac_pattern) that
 * changed at this evaluation, E is rebuilt and J evaluated again. */
int cosrod_lsys_sparse_jac(cosrod_lsys_sparse *S, cosrod_step_ctx *ctx, double t, const double *y,
                           const double *fy);
/* After a jac_sp evaluation: 0 if the problem's pattern is unchanged, 1 if it
 * grew and E (its pattern, KLU's symbolic analysis) was rebuilt for it
 * (counts stats.npattern; allocates), -1 on failure (reported). */
int cosrod_lsys_sparse_update(cosrod_lsys_sparse *S, cosrod_step_ctx *ctx);
/* As update for a pattern given by the caller (version v, cp, ri), e.g.
 * galpha's tangent pattern (S created from a problem whose n and pattern
 * are the tangent's). */
int cosrod_lsys_sparse_repattern(cosrod_lsys_sparse *S, cosrod_step_ctx *ctx, long v, const int *cp,
                                 const int *ri);
/* E = fac diag(mdiag) - J (mdiag (n) or NULL: I).  ERR_SINGULAR / ERR_NONFINITE (E not
 * finite) / ERR_INTERRUPTED as cosrod_lsys_factor. */
cosrod_status cosrod_lsys_sparse_factor(cosrod_lsys_sparse *S, double fac, const double *mdiag);
void cosrod_lsys_sparse_solve(cosrod_lsys_sparse *S, double *b);

#endif /* COSROD_INTEGRATE_LSYS_SPARSE_H */
