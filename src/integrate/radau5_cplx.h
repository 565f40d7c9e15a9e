// SPDX-License-Identifier: Apache-2.0
/* Private helper of radau5.c: the complex linear system of the transformed
 * Newton iteration (HW II §IV.8, the 2x2 block of Λ written as one complex
 * eigenvalue)
 *
 *     E2 u = r,   E2 = fac M - J,   fac = (α + iβ)/h,
 *
 * for every problem shape lsys.c handles (dense or banded J, optional mass
 * matrix, second-order structure y'_i = y_{i+m2} for i < m1 reduced to an
 * (n-m1) system, see lsys.h for the elimination formulas; here they run in
 * complex arithmetic), and for lsys's sparse shape (complex KLU on the
 * pattern of its E).  J and M are read from the cosrod_lsys that owns them
 * (its real matrix serves the real eigenvalue γ).  Everything is allocated by
 * create; factor and solve never allocate. */
#ifndef COSROD_INTEGRATE_RADAU5_CPLX_H
#define COSROD_INTEGRATE_RADAU5_CPLX_H

#include <complex.h>

#include "cosrod/sparse.h"
#include "integrate/lsys.h"

typedef struct radau5_cplx {
  const cosrod_lsys *L;  /* shape, J and M (not owned) */
  cosrod_zdense *Ed;     /* E2 when L is dense */
  cosrod_zband *Eb;      /* E2 when L is banded (bandwidths of L's real matrix) */
  struct cosrod_zband_spike *spike; /* partitioned solver of Eb when L uses one (same partitions), else NULL */
  double complex fac;    /* fac of the last factorisation */
  double complex *carry; /* (max(m1, 1)) eliminated q-block unknowns */
  cosrod_sparse *Es;     /* E2 on the pattern of L's sparse E when L is sparse (complex KLU) */
  long es_version;       /* L's pattern version Es was built for (rebuilt when it grew) */
  double *zw;            /* (2n) interleaved right-hand side of the sparse solve */
} radau5_cplx;

/* Allocate for L (the sizes of L's real matrix) with the given backend.
 * ERR_NOMEM. */
cosrod_status radau5_cplx_create(radau5_cplx **out, const cosrod_lsys *L, cosrod_linalg_backend backend);
void radau5_cplx_free(radau5_cplx *C);
/* Form E2 = fac M - J (reduced) from L's current J and M and factor it:
 * OK, ERR_SINGULAR or ERR_NONFINITE. */
cosrod_status radau5_cplx_factor(radau5_cplx *C, double complex fac);
/* Solve E2 (re + i im) = (re + i im) in place; re, im: (n). */
void radau5_cplx_solve(radau5_cplx *C, double *re, double *im);

#endif /* COSROD_INTEGRATE_RADAU5_CPLX_H */
