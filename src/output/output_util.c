// SPDX-License-Identifier: Apache-2.0
/* Output module: small shared helpers of the writers (number formatting,
 * warnings and failures, timing, run names, XML escaping); split from
 * output.c, declarations in output_internal.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "output_internal.h"

int out_fmt(char *buf, double v) {
  if (isnan(v)) return (int)(memcpy(buf, "nan", 4), 3);
  if (isinf(v)) return v > 0 ? (int)(memcpy(buf, "inf", 4), 3) : (int)(memcpy(buf, "-inf", 5), 4);
  /* %.15g when it reads back exactly (short forms of 0.1, 1/4, ...), else
   * %.17g, which always does; trying %.16g too costs more than it saves. */
  int n = out_fmt_shortest(buf, v); /* output_fmt.c: the same text without printf / strtod */
  if (n >= 0) return n;
  n = out_fmt_fast(buf, v, 15);
  if (n < 0) n = snprintf(buf, 32, "%.15g", v);
  if (strtod(buf, NULL) != v) {
    n = out_fmt_fast(buf, v, 17);
    if (n < 0) n = snprintf(buf, 32, "%.17g", v);
  }
  return n;
}

size_t out_append_num(char *line, size_t pos, size_t cap, double v) {
  char num[32];
  int n = out_fmt(num, v);
  if (pos + (size_t)n + 2 >= cap) return pos; /* cannot happen: rows are short */
  line[pos++] = ',';
  memcpy(line + pos, num, (size_t)n);
  pos += (size_t)n;
  line[pos] = '\0';
  return pos;
}

void out_warn(cosrod_output *out, const char *fmt, ...) {
  char msg[OUT_WARNING_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  for (size_t i = 0; i < out->nwarn; ++i)
    if (strcmp(out->warnings[i], msg) == 0) return;
  if (out->nwarn < OUT_MAX_WARNINGS) memcpy(out->warnings[out->nwarn++], msg, sizeof msg);
}

cosrod_status out_fail(cosrod_output *out, cosrod_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->err, sizeof out->err, fmt, ap);
  va_end(ap);
  return st;
}

double out_elapsed(const struct timespec *since) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - since->tv_sec) + 1e-9 * (double)(now.tv_nsec - since->tv_nsec);
}

const char *out_run_name(cosrod_output_run run) {
  switch (run) {
    case COSROD_RUN_OK:
      return "ok";
    case COSROD_RUN_FAILED:
      return "failed";
    case COSROD_RUN_INTERRUPTED:
      return "interrupted";
    default:
      return "running";
  }
}

void out_xml_escaped(FILE *fp, const char *s) {
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
      case '&':
        fputs("&amp;", fp);
        break;
      case '<':
        fputs("&lt;", fp);
        break;
      case '>':
        fputs("&gt;", fp);
        break;
      case '"':
        fputs("&quot;", fp);
        break;
      case '\'':
        fputs("&apos;", fp);
        break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
          fputc('?', fp); /* not allowed in XML 1.0 */
        else
          fputc(c, fp);
    }
  }
}
