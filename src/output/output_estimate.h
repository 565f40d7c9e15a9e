// SPDX-License-Identifier: Apache-2.0
/* Expected CSV volume of one output time (for `cosrod check`'s estimate):
 * bytes per row of each file as measured on the examples with the number
 * format of out_fmt (about 18 characters per value, 7 for short ones), per
 * segment / vertex / rod, from the scenario's output.fields.  steps.csv is
 * not counted (one row per step, unknown before the run). */
#ifndef COSROD_OUTPUT_ESTIMATE_H
#define COSROD_OUTPUT_ESTIMATE_H
#include "cosrod/scenario.h"

static inline double out_estimate_frame_bytes(const cosrod_scenario *sc, double nseg) {
  const unsigned f = sc->output.fields;
  const double nrods = (double)sc->nrods, nvtx = nseg + nrods;
  double b = 0.0;
  if (f & COSROD_SC_FIELD_CENTERLINE) b += 80.0 * nvtx;  /* t,rod,vertex,s,x,y,z */
  if (f & COSROD_SC_FIELD_FRAMES) b += 102.0 * nseg;     /* t,rod,segment,s,q0..q3 */
  if (f & COSROD_SC_FIELD_STRAINS) b += 156.0 * nseg;    /* t,rod,segment,s,Gamma1..3,F1..3 */
  if (f & COSROD_SC_FIELD_CURVATURES) b += 138.0 * nvtx; /* t,rod,vertex,s,K1..3,M1..3 */
  if (f & COSROD_SC_FIELD_TIP) b += 2.0 * 127.0 * nrods; /* both ends of each rod */
  if (f & COSROD_SC_FIELD_ENERGY) b += 110.0;            /* one row */
  if (f & COSROD_SC_FIELD_REACTIONS) b += 140.0 * nrods; /* one supported end per rod assumed */
  return b;
}
#endif
