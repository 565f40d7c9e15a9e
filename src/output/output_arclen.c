// SPDX-License-Identifier: Apache-2.0
/* increments.csv rows and summary.json critical points of static arc-length
 * runs (cosrod_output_config.arc_length). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "output_internal.h"

const char out_increments_arc_header[] =
    "t,iterations,residual,load_factor,displacement,stability_index,critical\n";

cosrod_status cosrod_output_write_increment_arc(cosrod_output *out, double t, long iterations,
                                                double residual, double load_factor, double displacement,
                                                int stability_index, int critical) {
  if (!out || out->closed || !out->arc_length) return COSROD_ERR_INVALID;
  if (out->h5) {
    const double r[7] = {t, (double)iterations, residual, load_factor, displacement, stability_index, critical};
    return out_h5_committed_row(out, OF_INCREMENTS, r, 7);
  }
  out_file *f = &out->f[OF_INCREMENTS];
  if (!f->fp) return COSROD_OK;
  LOCALE_ENTER(out);
  const size_t cap = sizeof out->line;
  size_t pos = (size_t)out_fmt(out->line, t);
  pos += (size_t)snprintf(out->line + pos, 24, ",%ld", iterations);
  pos = out_append_num(out->line, pos, cap, residual);
  pos = out_append_num(out->line, pos, cap, load_factor);
  pos = out_append_num(out->line, pos, cap, displacement);
  pos += (size_t)snprintf(out->line + pos, 32, ",%d,%d\n", stability_index, critical);
  cosrod_status st = out_file_put(out, f, out->line, 1);
  if (st == COSROD_OK) out_file_commit(f);
  LOCALE_LEAVE();
  return st;
}

void cosrod_output_add_critical_point(cosrod_output *out, const char *type, double t, double load_factor,
                                      double displacement) {
  if (!out || out->closed || !type) return;
  if (out->ncrit >= OUT_MAX_CRITICAL) {
    out_warn(out, "more than %d critical points: summary.json lists the first %d (increments.csv has all)",
             OUT_MAX_CRITICAL, OUT_MAX_CRITICAL);
    return;
  }
  struct out_critical *c = &out->crit[out->ncrit++];
  snprintf(c->type, sizeof c->type, "%s", type);
  c->t = t;
  c->load_factor = load_factor;
  c->displacement = displacement;
}
