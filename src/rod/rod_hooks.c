/* Hooks that can change on a created rod: the user load callback. */
#include "rod/rod_internal.h"

void cosrod_rod_set_load_fn(cosrod_rod *rod, cosrod_rod_load_fn fn, void *user) {
  if (!rod) return;
  rod->load_fn = fn;
  rod->load_user = user;
}
