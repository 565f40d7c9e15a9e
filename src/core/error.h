// SPDX-License-Identifier: Apache-2.0
/* The calling thread's constructor message (cosrod_last_error in
 * include/cosrod/status.h), set by the library's constructors.  Module
 * internal: not exported from libcosrod.so. */
#ifndef COSROD_CORE_ERROR_H
#define COSROD_CORE_ERROR_H

#include "cosrod/status.h"

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define COSROD_PRINTF_(f, a) __attribute__((format(printf, f, a)))
#else
#define COSROD_PRINTF_(f, a)
#endif

/* Capacity of the message (longer ones are cut). */
#define COSROD_ERROR_MAX 4096

/* Clear the message (a constructor's first action). */
void cosrod_error_clear(void);

/* Set the message (printf format). */
void cosrod_error_set(const char *fmt, ...) COSROD_PRINTF_(1, 2);

/* A constructor's failure: *status = code (status may be NULL), the message
 * from fmt; returns NULL (`return cosrod_error_fail(...)`). */
void *cosrod_error_fail(cosrod_status *status, cosrod_status code, const char *fmt, ...) COSROD_PRINTF_(3, 4);

/* The end of a constructor built on a function that writes its message
 * into a buffer: obj != NULL: *status = OK, message cleared; obj == NULL:
 * *status = code (ERR_INTERNAL if code is OK), the message msg, or when msg
 * is empty the one already set (a failed inner constructor's), or else
 * cosrod_strerror(code).  Returns obj. */
void *cosrod_error_result(void *obj, cosrod_status *status, cosrod_status code, const char *msg);

#endif /* COSROD_CORE_ERROR_H */
