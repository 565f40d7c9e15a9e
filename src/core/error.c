// SPDX-License-Identifier: Apache-2.0
/* The per-thread constructor message (cosrod_last_error). */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[COSROD_ERROR_MAX];

const char *cosrod_last_error(void) { return last_error; }

void cosrod_error_clear(void) { last_error[0] = '\0'; }

static void set_v(const char *fmt, va_list ap) {
  if (vsnprintf(last_error, sizeof last_error, fmt, ap) < 0) last_error[0] = '\0';
}

void cosrod_error_set(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  set_v(fmt, ap);
  va_end(ap);
}

void *cosrod_error_fail(cosrod_status *status, cosrod_status code, const char *fmt, ...) {
  if (status) *status = code;
  va_list ap;
  va_start(ap, fmt);
  set_v(fmt, ap);
  va_end(ap);
  if (!last_error[0]) snprintf(last_error, sizeof last_error, "%s", cosrod_strerror(code));
  return NULL;
}

void *cosrod_error_result(void *obj, cosrod_status *status, cosrod_status code, const char *msg) {
  if (obj) {
    if (status) *status = COSROD_OK;
    last_error[0] = '\0';
    return obj;
  }
  if (code == COSROD_OK) code = COSROD_ERR_INTERNAL;
  if (status) *status = code;
  if (msg && msg[0])
    snprintf(last_error, sizeof last_error, "%s", msg);
  else if (!last_error[0])
    snprintf(last_error, sizeof last_error, "%s", cosrod_strerror(code));
  return NULL;
}
