// SPDX-License-Identifier: Apache-2.0
/* [L] Fig. 15a measured: why the absolute (index-0) formulations of the
 * tennis racket (examples/tennis-racket.yaml, Omega(0) = (50, 0.1, 0.1),
 * T = 0.4 s, dopri5) lose accuracy against the null-space ones.
 *
 * For null-space and absolute quaternions, with and without the projection
 * hook of [L] §6 (eq. 63), at TOL = 1e-4 ... 1e-8: the error at T against
 * dop853 1e-13 (max norm of R and omega = R Omega), f evaluations, and the
 * invariants the exact flow keeps: the spatial angular momentum
 * h = R I Omega (no torque) and the kinetic energy, as the max over the
 * accepted steps of |h - h0| / |h0| and |E - E0| / E0; for the absolute form
 * also the drift of the unit-quaternion constraint before each projection,
 * max ||p| - 1| and max |<p, pdot>| / |pdot| (the velocity-level invariant).
 * The error is also split into the rotation R and the body angular velocity
 * Omega: for the free body Euler's equations for Omega do not involve the
 * attitude, and the null-space form integrates them as they are; the
 * absolute form gets Omega = 2 Im(conj(p) pdot) from the attitude and its
 * rate, which rotate at |Omega|/2.
 * Usage: lang_fig15a EXAMPLES_DIR > lang-fig15a.csv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_bench.h"
#include "cosrod/quat.h"

static const double INERTIA[3] = {41.6, 11.6, 50.0};

typedef struct probe {
  const cosrod_mbs *m;
  cosrod_mbs_data *d;
  cosrod_ode_project inner;
  int absolute, nq;
  double h0[3], e0;
  double dp, dpv, dh, de; /* maxima over the accepted steps */
} probe;

static void invariants(probe *pr, const double *y, double h[3], double *e) {
  double x[3], q[4], v[3], Om[3], IOm[3];
  cosrod_mbs_body_state(pr->m, pr->d, y, 0, x, q, v, Om);
  for (int i = 0; i < 3; ++i) IOm[i] = INERTIA[i] * Om[i];
  cosrod_quat_rotate(h, q, IOm);
  *e = 0.5 * (Om[0] * IOm[0] + Om[1] * IOm[1] + Om[2] * IOm[2]);
}

/* after every accepted step: constraint drift (before the projection), then
 * the projection (if any), then the invariants of the projected state */
static probe *g_probe; /* the hook's user pointer is the model's (shared with f) */

static int probe_hook(double t, double *y, void *user) {
  probe *pr = g_probe;
  if (pr->absolute) {
    const double *p = y + 3, *pd = y + pr->nq + 3;
    double np = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    double npd = sqrt(pd[0] * pd[0] + pd[1] * pd[1] + pd[2] * pd[2] + pd[3] * pd[3]);
    double c = p[0] * pd[0] + p[1] * pd[1] + p[2] * pd[2] + p[3] * pd[3];
    pr->dp = fmax(pr->dp, fabs(np - 1.0));
    if (npd > 0) pr->dpv = fmax(pr->dpv, fabs(c) / npd);
  }
  int rc = pr->inner ? pr->inner(t, y, user) : 0;
  double h[3], e;
  invariants(pr, y, h, &e);
  double dh = sqrt((h[0] - pr->h0[0]) * (h[0] - pr->h0[0]) + (h[1] - pr->h0[1]) * (h[1] - pr->h0[1]) +
                   (h[2] - pr->h0[2]) * (h[2] - pr->h0[2]));
  pr->dh = fmax(pr->dh, dh / sqrt(pr->h0[0] * pr->h0[0] + pr->h0[1] * pr->h0[1] + pr->h0[2] * pr->h0[2]));
  pr->de = fmax(pr->de, fabs(e - pr->e0) / pr->e0);
  return rc;
}

/* one run; obs = (R, omega, Omega) at T (15 numbers) */
static int run(const char *path, const char *form, const char *method, double tol, double rtol, int project,
               double *obs, long *nfev, probe *pr) {
  char sf[64];
  snprintf(sf, sizeof sf, "solver.formulation=%s", form);
  const char *sets[4] = {"bodies.0.angular_velocity=[50, 0.1, 0.1]", "analysis.t_end=0.4",
                         "bodies.0.parametrisation=quaternion", sf};
  body_bench b;
  if (body_bench_open(&b, path, sets, 4)) return 1;
  cosrod_mbs *m = b.m;
  cosrod_mbs_data *d = b.d;
  cosrod_ode_problem *p = &b.p;
  memset(pr, 0, sizeof *pr);
  pr->m = m, pr->d = d, pr->inner = project ? p->project : NULL;
  pr->absolute = !strcmp(form, "absolute"), pr->nq = cosrod_mbs_nq(m);
  invariants(pr, b.y0, pr->h0, &pr->e0);
  p->project = probe_hook;
  g_probe = pr;
  cosrod_integrate_stats s;
  int rc = 1;
  if (body_bench_integrate(&b, method, rtol, tol, 0.4, &s, NULL) == COSROD_OK) {
    double x[3], q[4], v[3], Om[3];
    cosrod_mbs_body_state(m, d, b.y, 0, x, q, v, Om);
    cosrod_quat_to_matrix(obs, q);
    cosrod_quat_rotate(obs + 9, q, Om);
    memcpy(obs + 12, Om, sizeof Om);
    *nfev = s.nfev;
    rc = 0;
  }
  body_bench_close(&b);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: lang_fig15a EXAMPLES_DIR > lang-fig15a.csv\n");
    return 2;
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/tennis-racket.yaml", argv[1]);
  double ref[15], obs[15];
  long nf = 0;
  probe pr;
  if (run(path, "nullspace", "dop853", 1e-13, 1e-13, 1, ref, &nf, &pr)) return 1;
  printf("formulation,projection,error_control,tol,nfev,error,error_R,error_Omega_body,max_rel_dh,max_rel_dE,max_abs_norm_p_minus_1,max_p_dot_pdot_rel\n");
  static const char *forms[2] = {"nullspace", "absolute"};
  static const double tols[5] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
  /* error_control: mixed = rtol = atol = TOL (as [L] and lang_bodies);
   * absolute = atol = TOL, rtol = 1e-6 TOL (weights independent of |y_i|) */
  for (int f = 0; f < 2; ++f)
    for (int ec = 0; ec < 2; ++ec)
    for (int proj = 1; proj >= 0; --proj)
      for (int k = 0; k < 5; ++k) {
        if (ec == 1 && proj == 0) continue;
        if (run(path, forms[f], "dopri5", tols[k], ec ? 1e-6 * tols[k] : tols[k], proj, obs, &nf, &pr)) {
          printf("%s-quaternion,%s,%s,%.0e,,failed,,,,\n", forms[f], proj ? "yes" : "no", ec ? "absolute" : "mixed",
                 tols[k]);
          continue;
        }
        double e = 0.0, eR = 0.0, eO = 0.0;
        for (int i = 0; i < 12; ++i) e = fmax(e, fabs(obs[i] - ref[i]));
        for (int i = 0; i < 9; ++i) eR = fmax(eR, fabs(obs[i] - ref[i]));
        for (int i = 12; i < 15; ++i) eO = fmax(eO, fabs(obs[i] - ref[i]));
        printf("%s-quaternion,%s,%s,%.0e,%ld,%.3e,%.3e,%.3e,%.3e,%.3e,%.3e,%.3e\n", forms[f], proj ? "yes" : "no",
               ec ? "absolute" : "mixed", tols[k], nf, e, eR, eO,
               pr.dh, pr.de, pr.dp, pr.dpv);
        fflush(stdout);
      }
  return 0;
}
