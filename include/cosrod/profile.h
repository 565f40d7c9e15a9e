// SPDX-License-Identifier: Apache-2.0
/* Time profile of a load (core module, header only): the factor by which a
 * load is scaled at time t.  The one implementation used by rods
 * (cosrod_rod_load), bodies (cosrod_body_load_def) and the static blocks of
 * assembled systems; scenario profiles are converted to it by explicit
 * tables. */
#ifndef COSROD_PROFILE_H
#define COSROD_PROFILE_H

#include "cosrod/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cosrod_profile {
  COSROD_PROFILE_CONSTANT = 0,
  COSROD_PROFILE_RAMP,  /* 0 before t0, linear on [t0, t1], 1 after */
  COSROD_PROFILE_ACTIVE /* 1 on [t0, t1], 0 outside */
} cosrod_profile;

/* Factor of profile p (times t0 <= t1 in s) at time t [s]: in [0, 1]. */
static inline double cosrod_profile_value(cosrod_profile p, double t0, double t1, double t) {
  switch (p) {
    case COSROD_PROFILE_RAMP:
      if (t <= t0) return 0.0;
      if (t >= t1) return 1.0;
      return (t - t0) / (t1 - t0);
    case COSROD_PROFILE_ACTIVE:
      return (t >= t0 && t <= t1) ? 1.0 : 0.0;
    default:
      return 1.0;
  }
}

#ifdef __cplusplus
}
#endif

#endif
