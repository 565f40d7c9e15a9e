// SPDX-License-Identifier: Apache-2.0
/* Hooks that can change on a created rod: the user load callback and the
 * end motion callbacks. */
#include "rod/rod_internal.h"

void cosrod_rod_set_load_fn_reaction(cosrod_rod *rod, int reaction) { rod->load_fn_reaction = reaction != 0; }
int cosrod_rod_load_fn_reaction(const cosrod_rod *rod) { return rod->load_fn && rod->load_fn_reaction; }

void cosrod_rod_set_at_rest(cosrod_rod *rod, int on) { rod->at_rest = on != 0; }

void cosrod_rod_set_load_jac_fn(cosrod_rod *rod, cosrod_rod_load_jac_fn fn, void *user) {
  rod->load_jac_fn = fn;
  rod->load_jac_user = user;
}

void cosrod_rod_set_load_fn(cosrod_rod *rod, cosrod_rod_load_fn fn, void *user) {
  if (!rod) return;
  rod->load_fn = fn;
  rod->load_user = user;
}

cosrod_status cosrod_rod_set_end_fn(cosrod_rod *rod, int e, cosrod_rod_end_fn fn, void *user) {
  if (!rod || e < 0 || e > 1 || !rod->end[e].fixpos) return COSROD_ERR_INVALID;
  rod->end[e].fn = fn;
  rod->end[e].fn_user = user;
  return COSROD_OK;
}
