// SPDX-License-Identifier: Apache-2.0
/* Partitioned (SPIKE) solver for real and complex band matrices (module linalg): the
 * band is cut into p diagonal blocks that are factorised in parallel, the
 * coupling is resolved through a small reduced system of order
 * (p-1)(ml+mu), and the solution is recovered in parallel.  Algorithm of
 * A. H. Sameh and D. J. Kuck, "On stable parallel linear system solvers",
 * J. ACM 25 (1978), and E. Polizzi and A. H. Sameh, "A parallel hybrid
 * banded system solver: the SPIKE algorithm", Parallel Computing 32 (2006);
 * see src/linalg/spike_core.c.
 *
 * No pivoting across partitions: every diagonal block must be
 * non-singular.  When a block is singular, produces non-finite values, its
 * spikes exceed the growth limit (a sign of a nearly singular block, see
 * spike_core.c), or the reduced system is singular, factor() falls back to
 * the global banded LU with partial pivoting of the matrix itself
 * (cosrod_band_factor) and solve() uses that; cosrod_band_spike_fell_back
 * tells.
 *
 * Results do not depend on the number of threads (the partitions are fixed
 * at create; threads only distribute them); they do depend on the number of
 * partitions, at the level of rounding errors.
 *
 * Ownership: _create allocates everything; factor and solve never allocate. */
#ifndef COSROD_BAND_SPIKE_H
#define COSROD_BAND_SPIKE_H

#include "cosrod/export.h"

#include "cosrod/band.h"
#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cosrod_band_spike cosrod_band_spike;

/* Solver for n x n band matrices with bandwidths ml, mu (as the matrices
 * given to factor) cut into `partitions` blocks (>= 1; reduced so that every
 * block has at least ml + mu + 1 rows; 1 means the global LU).  Threads 1.
 * NULL on invalid arguments (ERR_INVALID) or out of memory (ERR_NOMEM). */
COSROD_API cosrod_band_spike *cosrod_band_spike_create(int n, int ml, int mu, int partitions,
                                                       cosrod_status *status);
/* _free(NULL) is a no-op. */
COSROD_API void cosrod_band_spike_free(cosrod_band_spike *S);
/* Threads of factor and solve (>= 1; 1 without OpenMP); ERR_INVALID otherwise. */
COSROD_API cosrod_status cosrod_band_spike_set_threads(cosrod_band_spike *S, int nthreads);
/* Partitions actually used (after the reduction at create). */
COSROD_API int cosrod_band_spike_partitions(const cosrod_band_spike *S);
/* Rows of partition i (0 <= i < partitions; else 0); *first_row (if not
 * NULL) <- its first row. */
COSROD_API int cosrod_band_spike_block(const cosrod_band_spike *S, int i, int *first_row);
/* Factor the unfactored A (same n, ml, mu as at create, else ERR_DIMENSION;
 * ERR_INVALID if A is factored).  The blocks and the fallback use A's backend.
 * SPIKE path: A is only read and must stay unchanged until the last solve.
 * Fallback path: A is factorised in place by cosrod_band_factor and its
 * status is returned.  ERR_INTERRUPTED as cosrod_band_factor. */
COSROD_API cosrod_status cosrod_band_spike_factor(cosrod_band_spike *S, cosrod_band *A);
/* 1 if the last factor() used the global LU (fallback or one partition). */
COSROD_API int cosrod_band_spike_fell_back(const cosrod_band_spike *S);
/* Largest |entry| of the spikes of the last factor() (0 with one partition). */
COSROD_API double cosrod_band_spike_growth(const cosrod_band_spike *S);
/* Solve A x = b in place (b: (n)); ERR_INVALID if not factored. */
COSROD_API cosrod_status cosrod_band_spike_solve(cosrod_band_spike *S, double *b);

/* ---- complex band matrices (cosrod_zband): the same solver, same
 * partitioning and fallback rule (src/linalg/spike_core.c). ---- */
typedef struct cosrod_zband_spike cosrod_zband_spike;

/* As cosrod_band_spike_create, for complex matrices; also allocates the
 * (n) workspace of _solve_split. */
COSROD_API cosrod_zband_spike *cosrod_zband_spike_create(int n, int ml, int mu, int partitions,
                                                         cosrod_status *status);
/* _free(NULL) is a no-op. */
COSROD_API void cosrod_zband_spike_free(cosrod_zband_spike *S);
/* As cosrod_band_spike_set_threads. */
COSROD_API cosrod_status cosrod_zband_spike_set_threads(cosrod_zband_spike *S, int nthreads);
/* Partitions actually used. */
COSROD_API int cosrod_zband_spike_partitions(const cosrod_zband_spike *S);
/* As cosrod_band_spike_factor: A only read on the SPIKE path (unchanged
 * until the last solve), factorised in place by cosrod_zband_factor on the
 * fallback path. */
COSROD_API cosrod_status cosrod_zband_spike_factor(cosrod_zband_spike *S, cosrod_zband *A);
/* 1 if the last factor() used the global LU. */
COSROD_API int cosrod_zband_spike_fell_back(const cosrod_zband_spike *S);
/* Largest |re| + |im| of the spike entries of the last factor(). */
COSROD_API double cosrod_zband_spike_growth(const cosrod_zband_spike *S);
/* Solve A x = b in place (b: (n) complex); ERR_INVALID if not factored. */
COSROD_API cosrod_status cosrod_zband_spike_solve(cosrod_zband_spike *S, double _Complex *b);
/* The same with b split into real and imaginary parts re, im: (n) each. */
COSROD_API cosrod_status cosrod_zband_spike_solve_split(cosrod_zband_spike *S, double *re, double *im);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_BAND_SPIKE_H */
