// SPDX-License-Identifier: Apache-2.0
/* Shared helpers of the kinematic-frame tests (test_body_kinematic*.c):
 * the energy balance of a run and the Jacobian against its fd twin. */
#ifndef BODY_TEST_KIN_H
#define BODY_TEST_KIN_H

#include "body_test_util.h"

typedef struct kin_balance {
  double dE;   /* E(T) - E(0) [J] */
  double W;    /* int (P_ext - P_diss) dt by Simpson on NO outputs [J] */
  double pmax; /* max |P_ext - P_diss| [W] */
  double gmax; /* max joint residual |g| on the outputs [m] */
  int ok;      /* run ok, all outputs */
} kin_balance;

typedef struct kin_bal_ctx {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  double *pw, gmax;
  size_t i;
} kin_bal_ctx;

static inline int kin_bal_out(double t, const double *y, void *user) {
  kin_bal_ctx *b = user;
  double pe, pd, g[64], gd[64];
  cosrod_mbs_power(b->m, b->d, t, y, &pe, &pd);
  b->pw[b->i++] = pe - pd;
  if (cosrod_mbs_nconstr(b->m) <= 64) {
    cosrod_mbs_constraints(b->m, b->d, y, g, gd);
    for (int i = 0; i < cosrod_mbs_nconstr(b->m); ++i) b->gmax = fmax(b->gmax, fabs(g[i]));
  }
  return 0;
}

static inline double kin_energy(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y) {
  double ek, eg, ee;
  cosrod_mbs_energy(m, d, t, y, &ek, &eg, &ee);
  return ek + eg + ee;
}

/* Run m over [0, T] with `method` (tol) and the power on NO (odd) equally
 * spaced outputs: E(T) - E(0) against the integrated power. */
static inline kin_balance kin_balance_run(const cosrod_mbs *m, const char *method, double T, double tol, int NO) {
  kin_balance r = {0};
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL), *d2 = cosrod_mbs_data_create(m, NULL);
  int n = cosrod_mbs_n(m);
  double *to = malloc((size_t)NO * sizeof *to), *pw = calloc((size_t)NO, sizeof *pw);
  double *y = calloc((size_t)n, sizeof *y), *y0 = calloc((size_t)n, sizeof *y0);
  for (int i = 0; i < NO; ++i) to[i] = T * i / (NO - 1);
  kin_bal_ctx b = {m, d2, pw, 0.0, 0};
  run_out ro = {kin_bal_out, &b, to + 1, (size_t)NO - 1}; /* (t0, T]: t0 below */
  cosrod_mbs_initial_state(m, y0);
  kin_bal_out(0.0, y0, &b);
  r.ok = run_mbs(m, d, method, T, tol, y, &ro) == COSROD_OK && b.i == (size_t)NO;
  double h = T / (NO - 1);
  for (int i = 0; i + 2 < NO; i += 2) r.W += h / 3.0 * (pw[i] + 4 * pw[i + 1] + pw[i + 2]);
  for (int i = 0; i < NO; ++i) r.pmax = fmax(r.pmax, fabs(pw[i]));
  r.dE = kin_energy(m, d, T, y) - kin_energy(m, d, 0.0, y0);
  r.gmax = b.gmax;
  free(to), free(pw), free(y), free(y0);
  cosrod_mbs_data_free(d), cosrod_mbs_data_free(d2);
  return r;
}

/* max |J - J_fd| / max |J_fd| at (t, y0 + 0.03..0.05 sin(1.7 i + 0.3)), or -1 */
static inline double kin_jac_error(const cosrod_mbs *m, double t, double amp) {
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  int n = cosrod_mbs_n(m);
  double *y = calloc((size_t)n, sizeof *y), *Ja = calloc((size_t)(n * n), sizeof *Ja),
         *Jf = calloc((size_t)(n * n), sizeof *Jf);
  cosrod_mbs_initial_state(m, y);
  for (int i = 0; i < n; ++i) y[i] += amp * sin(1.7 * i + 0.3);
  double e = -1.0;
  if (cosrod_mbs_jac(m, d, t, y, Ja) == 0 && cosrod_mbs_jac_fd(m, d, t, y, Jf, 1e-6) == 0) {
    double s = 0.0;
    e = 0.0;
    for (int i = 0; i < n * n; ++i) e = fmax(e, fabs(Ja[i] - Jf[i])), s = fmax(s, fabs(Jf[i]));
    e /= s;
  }
  free(y), free(Ja), free(Jf);
  cosrod_mbs_data_free(d);
  return e;
}

/* Run two models (a moving-frame one and its ground twin) to T with dop853
 * at 1e-12: final states yk, yg (allocated, caller frees); 1 if both ran. */
static inline int kin_pair_run(const cosrod_mbs *mk, const cosrod_mbs *mg, double T, cosrod_mbs_data **dk,
                               cosrod_mbs_data **dg, double **yk, double **yg) {
  *dk = cosrod_mbs_data_create(mk, NULL), *dg = cosrod_mbs_data_create(mg, NULL);
  int n = cosrod_mbs_n(mk);
  *yk = calloc((size_t)n, sizeof **yk), *yg = calloc((size_t)n, sizeof **yg);
  return run_mbs(mk, *dk, "dop853", T, 1e-12, *yk, NULL) == COSROD_OK &&
         run_mbs(mg, *dg, "dop853", T, 1e-12, *yg, NULL) == COSROD_OK;
}

#endif
