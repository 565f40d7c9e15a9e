// SPDX-License-Identifier: Apache-2.0
/* The scenario error "FILE:LINE: key: problem" of a check of the system's
 * model against its scenario (shared by the system and the analyses). */
#include <stdarg.h>
#include <stdio.h>

#include "system/system_internal.h"

void sim_set_err(char *err, size_t errlen, const cosrod_scenario *sc, const char *key, const char *fmt,
                    ...) {
  char problem[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  if (err && errlen) cosrod_scenario_format_error(sc, key, problem, err, errlen);
}
