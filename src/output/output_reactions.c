// SPDX-License-Identifier: Apache-2.0
/* reactions.csv: per output time, rod and supported end the force and
 * moment the support exerts on the rod (spatial frame), from
 * cosrod_statics_end_reactions / cosrod_sim_reactions.  A frame stream like
 * centerline.csv (rows between cosrod_output_frame_begin and _end). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "output_internal.h"

cosrod_status cosrod_output_write_reaction(cosrod_output *out, size_t rod, int end, const double F[3],
                                           const double M[3]) {
  if (!out || out->closed || !F || !M || (end != 0 && end != 1)) return COSROD_ERR_INVALID;
  if (!out->in_frame) return out_fail(out, COSROD_ERR_INVALID, "output: write_reaction outside a frame");
  if (rod >= out->nrods) return out_fail(out, COSROD_ERR_INVALID, "output: rod index %zu out of range", rod);
  if (out->h5) {
    cosrod_status st = out_h5_reaction(out, rod, end, F, M);
    if (st == COSROD_OK) out->react_ends[rod] |= (unsigned char)(1u << end);
    return st;
  }
  out_file *f = &out->f[OF_REACTIONS];
  if (!out_file_enabled(f)) return f->error ? COSROD_ERR_IO : COSROD_OK;
  LOCALE_ENTER(out);
  const size_t cap = sizeof out->line;
  size_t pos = (size_t)out_fmt(out->line, out->t_frame);
  pos += (size_t)snprintf(out->line + pos, 48, ",%zu,%d", rod, end);
  for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, F[i]);
  for (int i = 0; i < 3; ++i) pos = out_append_num(out->line, pos, cap, M[i]);
  out->line[pos++] = '\n';
  out->line[pos] = '\0';
  cosrod_status st = out_file_put(out, f, out->line, 1);
  if (st == COSROD_OK) out->react_ends[rod] |= (unsigned char)(1u << end);
  LOCALE_LEAVE();
  return st;
}
