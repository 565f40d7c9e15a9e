// SPDX-License-Identifier: Apache-2.0
/* [L] §7 benchmark, Figs. 13-16: accuracy vs right-hand-side evaluations of
 * the rigid-body formulations (null-space vs absolute index-0, quaternion vs
 * directors vs Euler angles) on the shipped examples:
 *   A heavy-top.yaml      T = 60 (Fig. 13 explicit: dopri5, dop853, odex;
 *                         Fig. 14 implicit: radau5, seulex, cvode (BDF,
 *                         without the projection hook, which it does not take)
 *                         and cvode-proj (CVODE with CVodeSetProjFn projecting
 *                         after every step, cvode_proj.c; if built with SUNDIALS)
 *   B tennis-racket.yaml  Omega(0) = (50, 1e-1, 1e-1), T = 0.4 and
 *                         (50, 1e-5, 1e-5), T = 1.0 (Fig. 15, dopri5)
 *   C two-body-joint.yaml T = 4 (Fig. 16, dopri5) and T = 1 (C-T1)
 * Error: max-norm of the difference of (x, R, v, omega = R Omega) of every
 * body at T to a reference (null-space quaternions, dop853, 1e-13), as [L]
 * measures positions and velocities.  ABSTOL = RELTOL = tol as in [L].
 * Usage: lang_bodies EXAMPLES_DIR [--quick | --bdf] > lang-figs.csv
 *   --quick: T(A) = 10, tolerances 1e-4, 1e-6 only;
 *   --bdf: only the Fig. 14 rows of cvode and cvode-proj (T = 60). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/body.h"
#include "cosrod/integrate.h"
#include "cosrod/quat.h"
#include "cosrod/scenario.h"
#include "sim/sim_translate.h"
#ifdef LANG_CVODE_PROJ
#include "cvode_proj.h"
#endif

typedef struct form {
  const char *name, *formulation, *param;
} form;

static const form FORMS[5] = {{"nullspace-quaternion", "nullspace", "quaternion"},
                              {"nullspace-directors", "nullspace", "directors"},
                              {"absolute-quaternion", "absolute", "quaternion"},
                              {"absolute-directors", "absolute", "directors"},
                              {"euler-angles", "nullspace", "euler-angles"}};

/* (x, R, v, omega) of every body: 18 numbers per body */
static void observe(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, double *o) {
  for (size_t b = 0; b < cosrod_mbs_nbodies(m); ++b) {
    double x[3], q[4], v[3], Om[3], R[9], om[3];
    cosrod_mbs_body_state(m, d, y, b, x, q, v, Om);
    cosrod_quat_to_matrix(R, q);
    cosrod_quat_rotate(om, q, Om);
    memcpy(o + 18 * b, x, sizeof x);
    memcpy(o + 18 * b + 3, R, sizeof R);
    memcpy(o + 18 * b + 12, v, sizeof v);
    memcpy(o + 18 * b + 15, om, sizeof om);
  }
}

/* run one configuration; obs (18 nb) at T; returns status */
static cosrod_status run(const char *path, const char *const *sets, size_t nsets, const char *method,
                         double tol, double *obs, long *nfev, long *nsteps) {
  char err[512];
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, sets, nsets, NULL))) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return COSROD_ERR_PARSE;
  }
  cosrod_status st;
  cosrod_mbs *m = cosrod_sim_bodies_create(sc, &st, err, sizeof err);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    cosrod_scenario_free(sc);
    return st;
  }
  cosrod_mbs_data *d = cosrod_mbs_data_create(m, NULL);
  cosrod_ode_problem p;
  cosrod_mbs_ode_problem(&p, d);
  /* the SUNDIALS BDF codes take no projection hook: run them unprojected */
  if (!strcmp(method, "cvode")) p.project = NULL;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = tol;
  o.max_steps = 5000000;
  cosrod_integrator *it =
      strcmp(method, "cvode-proj") ? cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &st) : NULL;
  int n = cosrod_mbs_n(m);
  double *y0 = calloc((size_t)n, sizeof *y0), *y = calloc((size_t)n, sizeof *y);
  cosrod_mbs_initial_state(m, y0);
  if (!strcmp(method, "cvode-proj")) {
#ifdef LANG_CVODE_PROJ
    long npj = 0;
    cosrod_mbs_initial_state(m, y0);
    st = cvode_proj_run(&p, y0, sc->analysis.t_end, tol, y, nfev, nsteps, &npj) ? COSROD_ERR_CALLBACK : COSROD_OK;
    if (st == COSROD_OK) observe(m, d, y, obs);
#else
    st = COSROD_ERR_UNSUPPORTED;
#endif
  } else if (it) {
    st = cosrod_integrate(it, 0.0, y0, sc->analysis.t_end, NULL, y);
    *nfev = cosrod_integrator_stats(it)->nfev;
    *nsteps = cosrod_integrator_stats(it)->nsteps;
    if (st == COSROD_OK) observe(m, d, y, obs);
  }
  cosrod_integrator_free(it);
  free(y0), free(y);
  cosrod_mbs_data_free(d);
  cosrod_mbs_free(m);
  cosrod_scenario_free(sc);
  return st;
}

static void experiment(const char *label, const char *path, const char *const *extra, size_t nextra,
                       const char *const *methods, size_t nm, const double *tols, size_t nt) {
  const char *sets[16];
  char sf[64], sp[64], sp2[64];
  double ref[36], obs[36];
  long nf, ns;
  size_t k = 0;
  for (; k < nextra; ++k) sets[k] = extra[k];
  if (run(path, sets, k, "dop853", 1e-13, ref, &nf, &ns) != COSROD_OK) {
    fprintf(stderr, "%s: reference failed\n", label);
    return;
  }
  for (size_t f = 0; f < 5; ++f) {
    size_t q = k;
    snprintf(sf, sizeof sf, "solver.formulation=%s", FORMS[f].formulation);
    snprintf(sp, sizeof sp, "bodies.0.parametrisation=%s", FORMS[f].param);
    snprintf(sp2, sizeof sp2, "bodies.1.parametrisation=%s", FORMS[f].param);
    sets[q++] = sf;
    sets[q++] = sp;
    if (strstr(path, "two-body")) sets[q++] = sp2;
    for (size_t mi = 0; mi < nm; ++mi)
      for (size_t ti = 0; ti < nt; ++ti) {
        cosrod_status st = run(path, sets, q, methods[mi], tols[ti], obs, &nf, &ns);
        double e = NAN;
        if (st == COSROD_OK) {
          e = 0.0;
          int nobs = strstr(path, "two-body") ? 36 : 18;
          for (int i = 0; i < nobs; ++i) e = fmax(e, fabs(obs[i] - ref[i]));
        }
        printf("%s,%s,%s,%.0e,%s,%ld,%ld,%.6e\n", label, methods[mi], FORMS[f].name, tols[ti],
               st == COSROD_OK ? "ok" : cosrod_status_name(st), nf, ns, e);
        fflush(stdout);
      }
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: lang_bodies EXAMPLES_DIR [--quick] > lang-figs.csv\n");
    return 2;
  }
  int quick = argc > 2 && !strcmp(argv[2], "--quick");
  int bdf = argc > 2 && !strcmp(argv[2], "--bdf"); /* only the A-fig14 rows of cvode and cvode-proj */
  char pa[1024], pb[1024], pc[1024];
  snprintf(pa, sizeof pa, "%s/heavy-top.yaml", argv[1]);
  snprintf(pb, sizeof pb, "%s/tennis-racket.yaml", argv[1]);
  snprintf(pc, sizeof pc, "%s/two-body-joint.yaml", argv[1]);
  static const double tols_full[8] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
  static const double tols_quick[2] = {1e-4, 1e-6};
  const double *tols = quick ? tols_quick : tols_full;
  size_t nt = quick ? 2 : 8;
  printf("example,integrator,formulation,tol,status,nfev,nsteps,error\n");
  const char *expl[3] = {"dopri5", "dop853", "odex"}, *impl[4] = {"radau5", "seulex", "cvode", "cvode-proj"},
             *dp[1] = {"dopri5"};
  const char *a_sets[1] = {quick ? "analysis.t_end=10" : "analysis.t_end=60"};
  if (bdf) {
    experiment("A-fig14", pa, a_sets, 1, impl + 2, 2, tols, nt);
    return 0;
  }
  experiment("A-fig13", pa, a_sets, 1, expl, 3, tols, nt);
  experiment("A-fig14", pa, a_sets, 1, impl, 4, tols, nt);
  const char *b1[2] = {"bodies.0.angular_velocity=[50, 0.1, 0.1]", "analysis.t_end=0.4"};
  const char *b2[2] = {"bodies.0.angular_velocity=[50, 1.0e-5, 1.0e-5]", "analysis.t_end=1.0"};
  experiment("B-fig15a", pb, b1, 2, dp, 1, tols, nt);
  experiment("B-fig15b", pb, b2, 2, dp, 1, tols, nt);
  experiment("C-fig16", pc, NULL, 0, dp, 1, tols, nt);
  /* the motion of C is almost chaotic: errors at T = 4 saturate at the size
   * of the solution; T = 1 shows the convergence */
  const char *c1[1] = {"analysis.t_end=1.0"};
  experiment("C-T1", pc, c1, 1, dp, 1, tols, nt);
  return 0;
}
