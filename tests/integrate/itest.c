// SPDX-License-Identifier: Apache-2.0
/* Method registration table and runner for the integrator tests. */
#include "itest.h"

#include <stdio.h>
#include <string.h>

/* ONE LINE PER METHOD: name, fixed-step order on the linear problem (0 = skip),
 * scale of the end-value error bounds. */
const itest_method itest_methods[] = {
    {"dopri5", 5, 1.0},
    {"dop853", 8, 1.0},
    /* odex: the order varies with the controller, fixed-step orders 2K of T_{K-1,K-1} in test_odex.c */
    {"odex", 0, 1.0},
    {"radau5", 5, 1.0},
    {"rodas", 4, 1.0},
    /* seulex: the extrapolated dense output (Hairer-Ostermann, kc-1 derivatives at the right end) is one
     * order below the step: 8.3e-5 = 2.8x the chain bound (Hh*omega ~ 2 per step); end values stay
     * within 1x (measured <= 0.15 of the bounds).  Fixed-step order: test_seulex.c (fixed order 3,
     * against the closed-form stability function of T_33) */
    {"seulex", 0, 3.5},
    /* SUNDIALS BDF (orders 1-5, error per step, no fixed-step mode): the global errors exceed the
     * one-step codes' bounds by up to 2.3x (ida, dense output on the chain) and 18x (cvode,
     * Arenstorf at rtol 1e-7: BDF3-5 are not stable near the imaginary axis); margin ~1.7x */
    {"ida", 0, 5.0},
    {"cvode", 0, 30.0},
};
const size_t itest_method_count = sizeof itest_methods / sizeof itest_methods[0];

/* Counts of Hairer & Wanner's original codes RADAU5, RODAS, SEULEX, DOPRI5 and
 * DOP853 on these problems with an analytic Jacobian, one call to t_end, as
 * published with the codes' test runs (nfev / njev / nsteps / naccept /
 * nreject / ndecomp; -1 = not published).  A yardstick of efficiency, noted
 * beside ours; the acceptance criterion is test_work_precision.c. */
const itest_counts itest_reference_counts[] = {
    {"dopri5", "arenstorf", 1e-7, 1e-7, 1442, -1, 240, 216, 22, -1},
    {"dop853", "arenstorf", 1e-7, 1e-7, 1361, -1, 116, 83, 32, -1},
    {"radau5", "vdp", 1e-4, 1e-4, 2253, 162, 281, 245, 7, 252},
    {"radau5", "vdp", 1e-6, 1e-6, 3965, 308, 501, 489, 8, 410},
    {"radau5", "vdp", 1e-8, 1e-8, 8247, 480, 1054, 1045, 7, 844},
    {"rodas", "vdp", 1e-4, 1e-4, 1951, 311, 328, 311, 14, 328},
    {"rodas", "vdp", 1e-6, 1e-6, 6420, 1060, 1072, 1060, 9, 1072},
    {"rodas", "vdp", 1e-8, 1e-8, 30058, 5003, 5011, 5003, 5, 5011},
    {"seulex", "vdp", 1e-4, 1e-4, 3244, 89, 139, 108, 20, 678},
    {"seulex", "vdp", 1e-6, 1e-6, 6301, 125, 154, 134, 12, 949},
    {"seulex", "vdp", 1e-8, 1e-8, 10520, 137, 151, 140, 5, 1093},
    {"radau5", "robertson", 1e-4, 1e-10, 994, 128, 138, 136, 2, 138},
    {"radau5", "robertson", 1e-6, 1e-12, 1953, 251, 262, 261, 1, 261},
    {"radau5", "robertson", 1e-8, 1e-14, 4033, 395, 537, 535, 2, 415},
    {"rodas", "robertson", 1e-4, 1e-10, 845, 140, 141, 140, 1, 141},
    {"rodas", "robertson", 1e-6, 1e-12, 2477, 412, 413, 412, 1, 413},
    {"rodas", "robertson", 1e-8, 1e-14, 8459, 1409, 1410, 1409, 1, 1410},
    {"seulex", "robertson", 1e-4, 1e-10, 819, 46, 51, 51, 0, 231},
    {"seulex", "robertson", 1e-6, 1e-12, 2109, 68, 74, 73, 1, 417},
    {"seulex", "robertson", 1e-8, 1e-14, 3934, 86, 86, 86, 0, 584},
};
const size_t itest_reference_count = sizeof itest_reference_counts / sizeof itest_reference_counts[0];

int itest_applies(const cosrod_step_type *T, const itest_problem *P) {
  if ((P->cls & ITP_STIFF) && !(T->flags & COSROD_STEP_IMPLICIT)) return 0;
  if ((T->flags & P->requires) != P->requires) return 0;
  /* an implicit method must read the Jacobian layout (as the driver checks) */
  cosrod_ode_problem p;
  memset(&p, 0, sizeof p);
  P->setup(&p);
  if ((T->flags & COSROD_STEP_IMPLICIT) && p.m1 > 0 && !(T->flags & COSROD_STEP_SECOND_ORDER)) return 0;
  if ((T->flags & COSROD_STEP_IMPLICIT) && p.jac_banded && !(T->flags & COSROD_STEP_BANDED)) return 0;
  return 1;
}

cosrod_status itest_run(const cosrod_step_type *T, const itest_problem *P,
                        const cosrod_integrate_options *opts, const cosrod_output_spec *out, double *y_end,
                        cosrod_integrate_stats *stats, char *msg, size_t msg_size) {
  cosrod_ode_problem prob;
  memset(&prob, 0, sizeof prob);
  P->setup(&prob);
  cosrod_integrate_options o;
  if (opts) {
    o = *opts;
  } else {
    o = cosrod_integrate_default_options();
    o.rtol = P->tol;
    o.atol = P->tol * P->atol_per_rtol;
  }
  cosrod_status st = COSROD_OK;
  if (stats) memset(stats, 0, sizeof *stats);
  cosrod_integrator *it = cosrod_integrator_create(T, &prob, &o, &st);
  if (!it) {
    if (msg) snprintf(msg, msg_size, "create failed: %s", cosrod_strerror(st));
    return st;
  }
  st = cosrod_integrate(it, P->t0, P->y0, P->t_end, out, y_end);
  if (stats) *stats = *cosrod_integrator_stats(it);
  if (msg) snprintf(msg, msg_size, "%s", cosrod_integrator_message(it));
  cosrod_integrator_free(it);
  return st;
}
