// SPDX-License-Identifier: Apache-2.0
/* Own SUNMatrix and SUNLinearSolver over cosrod_band (internal to the
 * SUNDIALS adapters, sundials.c).
 *
 * The matrix wraps a cosrod_band without copying: SUNDIALS sees a
 * SUNMATRIX_CUSTOM object, the adapters write the Jacobian straight into the
 * band (our layout J[j*ld + mu + i - j] = data + (smu - mu)), and the linear
 * solver factors it in place with our band LU (or LAPACK dgbtrf, by the
 * band's backend) in `setup` and solves with the stored factors in `solve`.
 *
 * SUNMatZero is lazy: it only marks the band as zero; the zeroing is done by
 * the next operation that reads the entries, or by sunband_begin_fill unless
 * the writer covers every band entry itself (a Jacobian callback with
 * jac_fills).  So IDA's zero-before-Jacobian costs nothing when the rod's
 * Jacobian writes the whole band.  A clone allocates its band only when it
 * is first used: CVODE clones the matrix for its saved Jacobian, which stays
 * unused (and unallocated) with our own linear-system function. */
#ifndef COSROD_INTEGRATE_SUNDIALS_BAND_H
#define COSROD_INTEGRATE_SUNDIALS_BAND_H

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "cosrod/band.h"

/* n x n band matrix with bandwidths ml, mu (clamped to n - 1) and the given
 * factorisation backend; NULL if out of memory. */
SUNMatrix sunband_matrix(int n, int ml, int mu, cosrod_linalg_backend backend, SUNContext sunctx);
/* 1 if A is one of ours (made by sunband_matrix or cloned from one). */
int sunband_is(SUNMatrix A);
/* The wrapped band (entries as last written; a pending zero not carried out). */
cosrod_band *sunband_band(SUNMatrix A);
/* About to write the entries: carries out a pending SUNMatZero on the band
 * rows unless covers != 0 (the writer sets every entry of the band).  Returns
 * the band. */
cosrod_band *sunband_begin_fill(SUNMatrix A, int covers);

/* Direct linear solver for sunband matrices: setup = LU in place, solve =
 * forward/back substitution.  Setup failures: singular or non-finite pivot
 * -> SUNLS_LUFACT_FAIL (recoverable: SUNDIALS retries with a smaller step),
 * interrupted (cosrod_interrupt_pending) -> SUNLS_PACKAGE_FAIL_UNREC. */
SUNLinearSolver sunband_solver(SUNContext sunctx);
/* Status of the last setup (COSROD_OK, ERR_SINGULAR, ERR_NONFINITE,
 * ERR_INTERRUPTED, ERR_INVALID for a foreign matrix). */
cosrod_status sunband_solver_status(SUNLinearSolver S);

#endif /* COSROD_INTEGRATE_SUNDIALS_BAND_H */
