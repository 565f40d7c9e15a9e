// SPDX-License-Identifier: Apache-2.0
/* Status codes shared by every cosrod module.
 *
 * One X-macro list generates the enum and the messages (cosrod_strerror).
 * Library functions return a cosrod_status; they never exit() or abort() on
 * user input.  Callbacks supplied by users follow the SUNDIALS convention:
 * 0 = ok, > 0 = recoverable (the solver retries with a smaller step),
 * < 0 = fatal. */
#ifndef COSROD_STATUS_H
#define COSROD_STATUS_H

#include "cosrod/export.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, message) — values are consecutive from 0 (COSROD_OK). */
#define COSROD_STATUS_LIST(X)                                                  \
  X(OK, "success")                                                            \
  X(ERR_NOMEM, "out of memory")                                               \
  X(ERR_INVALID, "invalid argument")                                          \
  X(ERR_DIMENSION, "dimension mismatch")                                      \
  X(ERR_SINGULAR, "singular matrix")                                          \
  X(ERR_NONFINITE, "non-finite value (NaN or Inf)")                           \
  X(ERR_STEP_TOO_SMALL, "step size too small")                                \
  X(ERR_MAX_STEPS, "too many steps")                                          \
  X(ERR_NEWTON, "repeated Newton failure")                                    \
  X(ERR_CALLBACK, "user callback failed")                                     \
  X(ERR_STIFF, "problem seems to be stiff")                                   \
  X(ERR_UNSUPPORTED, "operation not supported by this method or model")      \
  X(ERR_CONVERGENCE, "iteration did not converge")                            \
  X(ERR_KINEMATIC, "kinematic singularity")                                   \
  X(ERR_IO, "input/output error")                                             \
  X(ERR_PARSE, "invalid input file")                                          \
  X(ERR_INTERRUPTED, "interrupted")                                           \
  X(ERR_INTERNAL, "internal error")                                           \
  X(ERR_DIVERGED, "the solution blew up (energy grew by orders of magnitude)")

typedef enum cosrod_status {
#define COSROD_STATUS_ENUM_(name, msg) COSROD_##name,
  COSROD_STATUS_LIST(COSROD_STATUS_ENUM_)
#undef COSROD_STATUS_ENUM_
  COSROD_STATUS_COUNT
} cosrod_status;

/* Human-readable one-line message for a status code (never NULL). */
COSROD_API const char *cosrod_strerror(cosrod_status status);

/* Symbolic name of a status code, e.g. "ERR_SINGULAR" (never NULL). */
COSROD_API const char *cosrod_status_name(cosrod_status status);

/* Constructor failures: one convention for every function that creates an
 * object (cosrod_*_create*, cosrod_scenario_load / _parse,
 * cosrod_sc_builder_finish, cosrod_sim_prepare, cosrod_mesh_load):
 *
 *     T *cosrod_X_create(..., cosrod_status *status);
 *
 * returns the new object, or NULL on failure.  Then *status (status may be
 * NULL) is the reason as a code, and cosrod_last_error() returns one line
 * naming the problem ("FILE:LINE: key.path: problem" for scenario input,
 * "cosrod_band_create: n = 0: ..." for a bad argument).  On success *status
 * is COSROD_OK and the message "".  Why this form: the object is the
 * result, so a creation stays one expression and a caller that only needs
 * "did it work" tests for NULL; the code is there for callers that branch on
 * the reason; the message needs no caller-sized buffer (never cut short, no
 * extra pair of arguments), so a workspace allocator reports exactly like
 * the scenario loader.  The message belongs to the calling thread and stays
 * valid until the thread's next constructor call; copy it to keep it. */
COSROD_API const char *cosrod_last_error(void);

/* Interrupt polling inside long computations.  While a flag is installed for
 * the calling thread, the band LU factorisations (every 2048 columns), the
 * rod Jacobian assembly (every 2048 nodes) and the integration driver (every
 * step attempt) read *flag and return COSROD_ERR_INTERRUPTED when it is
 * non-zero (a signal handler may set it).  cosrod_sim_run / _advance install
 * their observer's stop flag for their duration.  Returns the previously
 * installed flag (restore it when done); NULL uninstalls. */
COSROD_API const volatile sig_atomic_t *cosrod_interrupt_install(const volatile sig_atomic_t *flag);

/* Non-zero when the flag installed for this thread is set. */
COSROD_API int cosrod_interrupt_pending(void);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_STATUS_H */
