// SPDX-License-Identifier: Apache-2.0
/* The input error "FILE:LINE: key: problem" of a check of the system
 * against its definition (the definition's error function formats it). */
#include <stdarg.h>
#include <stdio.h>

#include "system/system_def.h"

void sys_set_err(char *err, size_t errlen, const sys_def *d, const char *key, const char *fmt, ...) {
  char problem[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  if (err && errlen) d->error(d->error_ctx, key, problem, err, errlen);
}
