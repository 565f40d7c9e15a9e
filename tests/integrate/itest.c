// SPDX-License-Identifier: Apache-2.0
/* Method registration table and runner for the integrator tests. */
#include "itest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ONE LINE PER METHOD: name, fixed-step order on the linear problem (0 = skip), exponent range
 * [alpha_lo, alpha_hi] of tolerance proportionality, estimate tolerance est_c tol^est_exp.
 *
 * Exponents (HNW I §II.4): a controller that holds an estimate of size h^(q+1) at tol takes
 * h ~ tol^(1/(q+1)); a method of order p then has the global error ~ h^p = tol^(p/(q+1)).
 *  - dopri5 (p 5, estimate of the embedded order 4, q = 4), dop853 (p 8, estimate O(h^8)
 *    [HNW I §II.10], q = 7), rodas (p 4, embedded order 3), and the extrapolation codes odex and
 *    seulex (T_kk of order k propagated, |T_kk - T_k,k-1| = O(H^k) estimated): local
 *    extrapolation, p = q + 1, alpha = 1 ("tolerance proportional").
 *  - radau5 (p 5, estimate (8.19) of HW II §IV.8 O(h^4), q = 3) holds it at the internal
 *    tolerance tol' = 0.1 tol^(2/3) (src/integrate README "radau5"): h ~ tol^(1/6), alpha = 5/6.
 *  - ida / cvode (BDF of variable order q = 1..5, the estimate is the local error of the
 *    propagated solution): alpha = q/(q+1) in [1/2, 5/6]. */
const itest_method itest_methods[] = {
    {"dopri5", 5, 1.0, 1.0, 1.0, 1.0},
    {"dop853", 8, 1.0, 1.0, 1.0, 1.0},
    /* odex: the order varies with the controller, fixed-step orders 2K of T_{K-1,K-1} in test_odex.c */
    {"odex", 0, 1.0, 1.0, 1.0, 1.0},
    {"radau5", 5, 5.0 / 6.0, 5.0 / 6.0, 0.1, 2.0 / 3.0},
    {"rodas", 4, 1.0, 1.0, 1.0, 1.0},
    /* seulex: fixed-step order in test_seulex.c (fixed order 3, against the closed-form stability
     * function of T_33) */
    {"seulex", 0, 1.0, 1.0, 1.0, 1.0},
    {"ida", 0, 0.5, 5.0 / 6.0, 1.0, 1.0},
    {"cvode", 0, 0.5, 5.0 / 6.0, 1.0, 1.0},
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

/* Found when the calibrated end-value bounds were replaced by the exponent check (100 tol, tol,
 * tol/100 of test_conformance.c); kept open here, not hidden by a wider window.  Below the
 * window (-1): the assumption behind the window (the constant of e = C tol^alpha varies by less
 * than a decade over four decades) fails for runs of a few steps, where the last step alone
 * moves C: the end-of-interval rule (cosrod_step_to_end) changed dop853's end error on the
 * linear problem at 1e-4 (6 steps) from 5.7e-6 to 3.5e-7 and seulex's on chain_stiff at 1e-8
 * from 1.2e-8 to 4.1e-8. */
static const struct {
  const char *method, *problem;
  int side;
  const char *reason;
} exponent_findings[] = {
    {"rodas", "hires", +1,
     "exponent 1.30: steps 94/370/2103 grow faster than tol^(-1/4) (x5.7 for the last two decades): the "
     "embedded estimate is of reduced order on the stiff components"},
    {"rodas", "pleiades", +1, "exponent 1.29: err/tol 9.3, 1.9, 0.73: pre-asymptotic at 1e-5 (close encounters)"},
    {"rodas", "pleiades_m1", +1, "the same problem as pleiades (second-order form)"},
    {"ida", "hires", +1, "exponent 1.38: variable order, low BDF orders at 1e-4 (err/tol 13, 2.2, 0.39)"},
    {"odex", "linear", +1, "exponent 1.46: 6-7 steps; the order rises as tol falls, err/tol 8e-3, 1e-3, 2e-4"},
    {"dop853", "linear", -1, "exponent 0.53: 6/8/13 steps, err/tol 3.5e-3, 0.12, 0.27 (the last step moves C)"},
    {"seulex", "chain_stiff", -1, "exponent 0.73: 20/24/25 steps, err/tol 0.35, 0.68, 4.1 (order 0.6 in the "
                                  "last two decades)"},
};

const char *itest_exponent_finding(const char *method, const char *problem, int *side) {
  for (size_t i = 0; i < sizeof exponent_findings / sizeof exponent_findings[0]; i++)
    if (strcmp(exponent_findings[i].method, method) == 0 && strcmp(exponent_findings[i].problem, problem) == 0) {
      *side = exponent_findings[i].side;
      return exponent_findings[i].reason;
    }
  return NULL;
}

const itest_method *itest_method_by_name(const char *name) {
  for (size_t i = 0; i < itest_method_count; i++)
    if (strcmp(itest_methods[i].name, name) == 0) return &itest_methods[i];
  return NULL;
}

double itest_est_tol(const itest_method *M, double tol) { return M->est_c * pow(tol, M->est_exp); }

double itest_global_bound(const itest_problem *P, const itest_method *M, double rtol, double atol,
                          long naccept, double ymax) {
  if (P->growth <= 0.0) return 0.0;
  /* the estimate's tolerances: rtol' = est_tol(rtol), atol' = atol rtol'/rtol (ratio kept) */
  const double r = itest_est_tol(M, rtol), a = atol * (r / rtol);
  return P->growth * sqrt((double)P->n) * (double)naccept * (a + r * ymax);
}

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
