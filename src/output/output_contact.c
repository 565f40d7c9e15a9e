// SPDX-License-Identifier: Apache-2.0
/* Rows of contacts.csv and obstacles.csv ([manual: output reference]) with
 * the output module's number format (out_fmt: "%.15g" when it reads back
 * exactly, else "%.17g"; nan / inf / -inf), in the C locale, so that they
 * round-trip like every other CSV of a run.  The recorder owns the two files
 * (written as DIR/.NAME.tmp and renamed when the run is finished) and puts
 * these rows into them:
 *   contacts.csv  t,rod,segment,other,px,py,pz,nx,ny,nz,gap,Fn,Ftx,Fty,Ftz,state
 *   obstacles.csv t,obstacle,Fx,Fy,Fz,Mx,My,Mz */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "output_internal.h"

/* Append text at pos (NULL-safe); (size_t)-1 when it does not fit. */
static size_t put_text(char *buf, size_t pos, size_t cap, const char *s) {
  size_t n = strlen(s);
  if (pos == (size_t)-1 || pos + n + 1 > cap) return (size_t)-1;
  memcpy(buf + pos, s, n + 1);
  return pos + n;
}

static size_t put_num(char *buf, size_t pos, size_t cap, double v, int comma) {
  char num[40];
  int n = out_fmt(num + comma, v);
  if (comma) num[0] = ',';
  num[n + comma] = '\0';
  return put_text(buf, pos, cap, num);
}

/* A name must not break the CSV: a comma, quote or line break is refused. */
static int plain_name(const char *s) { return s && s[0] && !s[strcspn(s, ",\"\r\n")]; }

static int row_begin(locale_t *saved, const cosrod_output *out) {
  *saved = out && out->cloc != (locale_t)0 ? uselocale(out->cloc) : (locale_t)0;
  return 0;
}

static int row_end(locale_t saved, size_t pos) {
  if (saved != (locale_t)0) uselocale(saved);
  return pos == (size_t)-1 ? -1 : (int)pos;
}

int cosrod_output_contact_row(const cosrod_output *out, char *buf, size_t cap, double t,
                              const cosrod_output_contact *c) {
  if (!buf || !c || cap == 0 || !plain_name(c->other)) return -1;
  locale_t saved;
  row_begin(&saved, out);
  char ints[48];
  snprintf(ints, sizeof ints, ",%d,%d,", c->rod, c->segment);
  size_t pos = put_num(buf, 0, cap, t, 0);
  pos = put_text(buf, pos, cap, ints);
  pos = put_text(buf, pos, cap, c->other);
  for (int i = 0; i < 3; i++) pos = put_num(buf, pos, cap, c->point[i], 1);
  for (int i = 0; i < 3; i++) pos = put_num(buf, pos, cap, c->normal[i], 1);
  pos = put_num(buf, pos, cap, c->gap, 1);
  pos = put_num(buf, pos, cap, c->fn, 1);
  for (int i = 0; i < 3; i++) pos = put_num(buf, pos, cap, c->ft[i], 1);
  pos = put_text(buf, pos, cap, c->slip ? ",slip\n" : ",stick\n");
  return row_end(saved, pos);
}

int cosrod_output_obstacle_row(const cosrod_output *out, char *buf, size_t cap, double t, const char *name,
                               const double F[3], const double M[3]) {
  if (!buf || !F || !M || cap == 0 || !plain_name(name)) return -1;
  locale_t saved;
  row_begin(&saved, out);
  size_t pos = put_num(buf, 0, cap, t, 0);
  pos = put_text(buf, pos, cap, ",");
  pos = put_text(buf, pos, cap, name);
  for (int i = 0; i < 3; i++) pos = put_num(buf, pos, cap, F[i], 1);
  for (int i = 0; i < 3; i++) pos = put_num(buf, pos, cap, M[i], 1);
  pos = put_text(buf, pos, cap, "\n");
  return row_end(saved, pos);
}

void cosrod_output_set_contact_summary(cosrod_output *out, const cosrod_output_contact_summary *s) {
  if (!out || !s) return;
  out->contact = *s;
  out->has_contact = 1;
}

int cosrod_output_format_number(char *buf, double v) { return out_fmt(buf, v); }

void cosrod_output_set_solver(cosrod_output *out, const char *chosen, const char *reason, size_t nswitch,
                              const char *const *switches) {
  if (!out || !chosen) return;
  snprintf(out->solver_chosen, sizeof out->solver_chosen, "%.30s", chosen);
  snprintf(out->solver_reason, sizeof out->solver_reason, "%.390s", reason ? reason : "");
  out->nswitch = 0;
  for (size_t i = 0; i < nswitch && i < sizeof out->switches / sizeof out->switches[0]; i++)
    snprintf(out->switches[out->nswitch++], sizeof out->switches[0], "%.390s", switches[i]);
}
