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

/* Exponent checks that need a setting of their own (test_conformance.c), each settled by a
 * derivation and a measurement (tolerances 100 c, c, c / 100 around the centre c; steps = accepted
 * steps; err/tol = end error in tolerance units):
 *  - Pre-asymptotic runs: the window assumes e = C tol^alpha with C varying by less than a decade,
 *    which fails while the run is short or the error grows nonlinearly; moving the centre c down
 *    to where err/tol has settled gives the theoretical exponent.
 *     . rodas on pleiades (and its second-order form): err/tol 9.3, 4.1, 1.9 at 1e-5, 1e-6,
 *       1e-7 (the close encounters amplify the larger errors), then 0.94, 0.72, 0.80, 1.08 at
 *       1e-8 .. 1e-11 with steps 1072/3350/10554 (x3.15 per two decades = tol^(-1/4), rodas's
 *       err ~ h^4 control): exponent 1.29 around 1e-7; around 1e-9 0.92 (pleiades_m1 1.06).
 *     . dop853 on linear: 6/8/13 steps around 1e-6, err/tol 0.003, 0.10, 0.21 (|h lambda| ~ 1.6
 *       per step: the local error is not yet its leading term); around 1e-8: 8/13/20 steps, err/tol
 *       0.10, 0.21, 0.34, exponent 0.86.
 *     . odex on linear: err/tol 8e-3 at 1e-4, then 1e-3 .. 2e-4 from 1e-6 to 1e-10 (6-7 steps: odex
 *       answers a smaller tol with a higher order at nearly the same H, and at 1e-4 the low first
 *       orders leave the error further below the estimate); around 1e-8 the exponent is 1.18.
 *  - Order from the steps (order_steps = 1): rodas on hires.  rodas accepts on the error per step
 *    (rodas.c step_ratio: err ~ h^4, the factor err^(-1/4); an error per unit step would give
 *    p/q = 4/3), so its documented criterion holds.  But on HIRES the steps grow as tol^(-0.34)
 *    (94/370/2103 at 1e-4/1e-6/1e-8; 5209, 12301 at 1e-9, 1e-10): the embedded estimate behaves
 *    like h^3 there, not h^4 — the order reduction of Rosenbrock methods on the stiff components
 *    (HW II §VI.3: terms of lower order in h on the components in quasi-equilibrium) — while the
 *    global error stays of order 4 in h.  So alpha = p s with s the measured step exponent: 4 x
 *    0.34 = 1.35 (observed 1.30).  What theory fixes here is the method's order: e ~ N^-p with
 *    N the steps, i.e. p_obs = log(e(100 c) / e(c / 100)) / log(N(c / 100) / N(100 c)) within p
 *    +- 1 / log10(N(c / 100) / N(100 c)) (the same one decade of C as the exponent window);
 *    measured p_obs = 3.86. */
static const struct {
  const char *method, *problem;
  double centre;
  int order_steps;
} exponent_settings[] = {
    {"rodas", "pleiades", 1e-9, 0}, {"rodas", "pleiades_m1", 1e-9, 0}, {"dop853", "linear", 1e-8, 0},
    {"odex", "linear", 1e-8, 0},    {"rodas", "hires", 0.0, 1},
};

double itest_exponent_setting(const char *method, const itest_problem *P, int *order_steps) {
  *order_steps = 0;
  for (size_t i = 0; i < sizeof exponent_settings / sizeof exponent_settings[0]; i++)
    if (strcmp(exponent_settings[i].method, method) == 0 &&
        strcmp(exponent_settings[i].problem, P->name) == 0) {
      *order_steps = exponent_settings[i].order_steps;
      return exponent_settings[i].centre > 0.0 ? exponent_settings[i].centre : P->tol;
    }
  return P->tol;
}

/* Found when the calibrated end-value bounds were replaced by the exponent check and not settled
 * by a derivation; kept open, the check fails once the cause is fixed.
 *  - ida on hires: exponent 1.38 around 1e-6 (err/tol 13, 2.2, 0.39).  The window q/(q+1) holds at
 *    a fixed BDF order; IDA's order rises from its low first orders as tol falls, and its choices
 *    are erratic: at rtol 1e-8 the end error is 2.5e-11 or 1.0e-10 for rtol values one rounding
 *    apart (1e-8 and 1e-4 / 10^4), err/tol 0.39 .. 8.9 between 1e-6 and 1e-10.  Not our code
 *    (SUNDIALS); no exponent can be asserted from three runs.
 *  - seulex on chain_stiff: exponent 0.73 around 1e-6 (20/24/25 steps, err/tol 0.13, 0.26, 1.54).
 *    With the default 12 columns the run answers tol with the order at nearly constant H (16 .. 26
 *    steps from 1e-3 to 1e-11), and err/tol swings between neighbouring tolerances (0.023 at 1e-7,
 *    1.54 at 1e-8, 0.46, 1.32, 0.043 at 1e-9 .. 1e-11).  With the order bounded (max_columns 8) the
 *    steps grow (23/44/87 at 1e-7/1e-9/1e-11) and err/tol is flat, 0.52 .. 0.79 from 1e-7 to 1e-11
 *    (test_conformance.seulex_bounded_order), but at 1.5x the f evaluations at 1e-11.  Cause (a
 *    property of the method, test_conformance.seulex_estimate_band): the end error is made by the
 *    last 4-5 large steps, dominated by the slowest excited chain mode (lambda ~ -69); the 12-column
 *    steps put it at z = H lambda = -1.05 .. -1.73, where the subdiagonal estimate of the
 *    extrapolated linearly implicit Euler method passes through zero and the error changes sign and
 *    exceeds the estimate 1.4-2.7x, so the end error is a sum of local errors of changing sign.
 *    Control changes tried (a hysteresis on lowering the order, a cost model with the LU and the
 *    solves weighted separately, a more cautious estimate from the column ratios) only reshuffle
 *    the scatter: none keeps err/tol within a decade from 1e-3 to 1e-12. */
static const struct {
  const char *method, *problem;
  int side;
  const char *reason;
} exponent_findings[] = {
    {"ida", "hires", +1,
     "exponent 1.38: erratic variable BDF order (err/tol 13, 2.2, 0.39; x4 for one rounding of rtol)"},
    {"seulex", "chain_stiff", -1,
     "exponent 0.73: the subdiagonal estimate turns near z = -1.5, where 12 columns put the slowest "
     "mode (err/tol 0.023 at 1e-7, 1.54 at 1e-8); flat with max_columns 8"},
};

const char *itest_exponent_finding(const char *method, const char *problem, int *side) {
  for (size_t i = 0; i < sizeof exponent_findings / sizeof exponent_findings[0]; i++)
    if (strcmp(exponent_findings[i].method, method) == 0 &&
        strcmp(exponent_findings[i].problem, problem) == 0) {
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
