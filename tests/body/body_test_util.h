// SPDX-License-Identifier: Apache-2.0
/* Shared helpers of the body tests: integrate a multibody model with one of
 * our integrators and read back poses. */
#ifndef BODY_TEST_UTIL_H
#define BODY_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/body.h"
#include "cosrod/integrate.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "harness.h"

typedef struct run_out {
  int (*fn)(double t, const double *y, void *user);
  void *user;
  const double *t_out;
  size_t n_out;
} run_out;

/* Integrate from the initial state to T with `method` at rtol = atol = tol;
 * y (n) receives the final state.  Returns the status. */
static inline cosrod_status run_mbs(const cosrod_mbs *m, cosrod_mbs_data *d, const char *method, double T,
                                    double tol, double *y, const run_out *ro) {
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  o.max_steps = 2000000;
  o.hmax = T / 50; /* reports (e.g. gimbal lock) within T/50 of the event */
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &st);
  if (!it) return st;
  double *y0 = malloc((size_t)cosrod_mbs_n(m) * sizeof *y0);
  cosrod_mbs_initial_state(m, y0);
  cosrod_output_spec out = {0};
  if (ro) {
    out.output = ro->fn;
    out.user = ro->user;
    out.t_out = ro->t_out;
    out.n_out = ro->n_out;
  }
  st = cosrod_integrate(it, 0.0, y0, T, ro ? &out : NULL, y);
  if (st != COSROD_OK) NOTE("integrator: %s", cosrod_integrator_message(it));
  free(y0);
  cosrod_integrator_free(it);
  return st;
}

/* Spatial angular momentum of body b about the point o. */
static inline void body_momentum(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, size_t b,
                                 const double inertia[3], double mass, const double o[3], double L[3]) {
  double x[3], q[4], v[3], Om[3], JO[3], r[3], mv[3];
  cosrod_mbs_body_state(m, d, y, b, x, q, v, Om);
  for (int k = 0; k < 3; ++k) JO[k] = inertia[k] * Om[k];
  cosrod_quat_rotate(L, q, JO);
  cosrod_vec3_sub(r, x, o);
  cosrod_vec3_scale(mv, mass, v);
  cosrod_vec3_cross(r, r, mv);
  cosrod_vec3_add(L, L, r);
}

#endif
