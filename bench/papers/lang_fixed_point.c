// SPDX-License-Identifier: Apache-2.0
/* [L] Example A with the paper's unknowns: the heavy top as a body rotating
 * about a fixed point, rotational unknowns only, written here from [L] §3-4
 * (not with cosrod's body module), beside cosrod's model of the same top
 * (examples/heavy-top.yaml: a body on a spherical joint to ground at its
 * centre of mass, with the extra translational unknowns and the joint).
 *
 * Fixed-point models (inertia about the pivot I = (50, 42, 10) kg m^2,
 * m g L = 11.09 * 9.81 N m, centre of mass at L d3, L = 1 m):
 *   null-space quaternion, 7 unknowns (p, Omega):
 *     pdot = p o (0, Omega) / 2,  I Omegadot = -Omega x I Omega + tau,
 *     tau = L e3 x R^T (-m g e3);
 *   absolute quaternion, 8 unknowns (p, pdot), index 0 on |p| = 1:
 *     Omega = 2 Im(conj(p) pdot), pddot = -|Omega|^2 p / 4 + p o (0, Omegadot) / 2.
 * Projection after each accepted step onto |p| = 1 (and <p, pdot> = 0), as
 * [L] eq. 63.  Error at T = 60 s: max norm of (x, R, v, omega = R Omega),
 * x = L R e3, v = omega x x (what bench/papers/lang_bodies.c measures),
 * against the fixed-point null-space model with dop853 at 1e-13; cosrod's
 * runs against the same reference (the two references are compared first).
 * Usage: lang_fixed_point EXAMPLES_DIR [--quick] > lang-fixed-point.csv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_bench.h"
#include "cosrod/quat.h"

static const double IN[3] = {50.0, 42.0, 10.0}, MGL = 11.09 * 9.81, LEN = 1.0;

/* a o b for quaternions (scalar first) */
static void qmul(double r[4], const double a[4], const double b[4]) {
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

/* R^T e3 = third row of R(p) */
static void rt_e3(double r[3], const double p[4]) {
  r[0] = 2 * (p[1] * p[3] - p[0] * p[2]);
  r[1] = 2 * (p[2] * p[3] + p[0] * p[1]);
  r[2] = p[0] * p[0] - p[1] * p[1] - p[2] * p[2] + p[3] * p[3];
}

/* Euler's equations about the pivot: Omegadot */
static void euler(double Od[3], const double p[4], const double O[3]) {
  double g[3], IO[3] = {IN[0] * O[0], IN[1] * O[1], IN[2] * O[2]};
  rt_e3(g, p); /* tau = L e3 x (-m g R^T e3) = -m g L (e3 x g) */
  double tau[3] = {MGL * g[1], -MGL * g[0], 0.0};
  Od[0] = (tau[0] - (O[1] * IO[2] - O[2] * IO[1])) / IN[0];
  Od[1] = (tau[1] - (O[2] * IO[0] - O[0] * IO[2])) / IN[1];
  Od[2] = (tau[2] - (O[0] * IO[1] - O[1] * IO[0])) / IN[2];
}

static int f_null(double t, const double *y, double *yd, void *u) {
  (void)t, (void)u;
  double w[4] = {0.0, y[4], y[5], y[6]};
  qmul(yd, y, w);
  for (int i = 0; i < 4; ++i) yd[i] *= 0.5;
  euler(yd + 4, y, y + 4);
  return 0;
}

static void omega_abs(double O[3], const double *p, const double *pd) {
  double c[4] = {p[0], -p[1], -p[2], -p[3]}, r[4];
  qmul(r, c, pd);
  O[0] = 2 * r[1], O[1] = 2 * r[2], O[2] = 2 * r[3];
}

static int f_abs(double t, const double *y, double *yd, void *u) {
  (void)t, (void)u;
  double O[3], Od[3], w[4], r[4];
  omega_abs(O, y, y + 4);
  euler(Od, y, O);
  w[0] = 0.0, w[1] = Od[0], w[2] = Od[1], w[3] = Od[2];
  qmul(r, y, w);
  double o2 = O[0] * O[0] + O[1] * O[1] + O[2] * O[2];
  for (int i = 0; i < 4; ++i) yd[i] = y[4 + i], yd[4 + i] = 0.5 * r[i] - 0.25 * o2 * y[i];
  return 0;
}

static int proj_null(double t, double *y, void *u) {
  (void)t, (void)u;
  double n = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
  for (int i = 0; i < 4; ++i) y[i] /= n;
  return 0;
}

static int proj_abs(double t, double *y, void *u) {
  proj_null(t, y, u);
  double c = y[0] * y[4] + y[1] * y[5] + y[2] * y[6] + y[3] * y[7];
  for (int i = 0; i < 4; ++i) y[4 + i] -= c * y[i];
  return 0;
}

/* (x, R, v, omega) from p and Omega */
static void observe(double o[18], const double p[4], const double O[3]) {
  double pn[4], n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
  for (int i = 0; i < 4; ++i) pn[i] = p[i] / n;
  double R[9], e3[3] = {0.0, 0.0, LEN}, x[3], om[3];
  cosrod_quat_to_matrix(R, pn);
  cosrod_quat_rotate(x, pn, e3);
  cosrod_quat_rotate(om, pn, O);
  memcpy(o, x, sizeof x);
  memcpy(o + 3, R, sizeof R);
  o[12] = om[1] * x[2] - om[2] * x[1], o[13] = om[2] * x[0] - om[0] * x[2], o[14] = om[0] * x[1] - om[1] * x[0];
  memcpy(o + 15, om, sizeof om);
}

/* fixed-point model run: form 0 null-space (7), 1 absolute (8) */
static int run_fp(int form, const char *method, double tol, double T, double o[18], long *nfev) {
  double p0[4] = {sqrt(3.0) / 2, 0.5, 0.0, 0.0}, y[8], y0[8];
  memcpy(y0, p0, sizeof p0);
  if (form == 0) {
    y0[4] = 0.0, y0[5] = 0.0, y0[6] = 20.0;
  } else { /* pdot = p o (0, Omega) / 2 */
    double w[4] = {0.0, 0.0, 0.0, 20.0};
    qmul(y0 + 4, p0, w);
    for (int i = 4; i < 8; ++i) y0[i] *= 0.5;
  }
  cosrod_ode_problem pr;
  memset(&pr, 0, sizeof pr);
  pr.n = form == 0 ? 7 : 8;
  pr.f = form == 0 ? f_null : f_abs;
  pr.project = form == 0 ? proj_null : proj_abs;
  cosrod_integrate_options op = cosrod_integrate_default_options();
  op.rtol = op.atol = tol;
  op.max_steps = 5000000;
  cosrod_status st;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &pr, &op, &st);
  if (!it) return 1;
  st = cosrod_integrate(it, 0.0, y0, T, NULL, y);
  *nfev = cosrod_integrator_stats(it)->nfev;
  cosrod_integrator_free(it);
  if (st != COSROD_OK) return 1;
  double O[3];
  if (form == 0) memcpy(O, y + 4, sizeof O);
  else omega_abs(O, y, y + 4);
  observe(o, y, O);
  return 0;
}

/* cosrod's model (examples/heavy-top.yaml), formulation null-space / absolute quaternion */
static int run_cosrod(const char *path, const char *form, const char *method, double tol, double T, double o[18],
                      long *nfev, int *n) {
  char sf[64], st_[64];
  snprintf(sf, sizeof sf, "solver.formulation=%s", form);
  snprintf(st_, sizeof st_, "analysis.t_end=%g", T);
  const char *sets[2] = {sf, st_};
  body_bench b;
  if (body_bench_open(&b, path, sets, 2)) return 1;
  *n = b.n;
  cosrod_integrate_stats s;
  int rc = 1;
  if (body_bench_integrate(&b, method, tol, tol, T, &s, NULL) == COSROD_OK) {
    double x[3], q[4], v[3], Om[3];
    cosrod_mbs_body_state(b.m, b.d, b.y, 0, x, q, v, Om);
    observe(o, q, Om);
    /* cosrod's own x, v of the centre of mass (the observe() ones are L R e3, omega x x) */
    memcpy(o, x, sizeof x);
    memcpy(o + 12, v, sizeof v);
    *nfev = s.nfev;
    rc = 0;
  }
  body_bench_close(&b);
  return rc;
}

static double dist(const double *a, const double *b) {
  double e = 0.0;
  for (int i = 0; i < 18; ++i) e = fmax(e, fabs(a[i] - b[i]));
  return e;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: lang_fixed_point EXAMPLES_DIR [--quick] > lang-fixed-point.csv\n");
    return 2;
  }
  int quick = argc > 2 && !strcmp(argv[2], "--quick");
  double T = quick ? 10.0 : 60.0;
  char path[1024];
  snprintf(path, sizeof path, "%s/heavy-top.yaml", argv[1]);
  double ref[18], rc[18], o[18];
  long nf;
  int n;
  if (run_fp(0, "dop853", 1e-13, T, ref, &nf) || run_cosrod(path, "nullspace", "dop853", 1e-13, T, rc, &nf, &n))
    return 1;
  printf("# T = %g s; |fixed-point reference - cosrod reference| (both dop853 1e-13) = %.3e\n", T, dist(ref, rc));
  printf("model,unknowns,integrator,tol,nfev,error\n");
  static const char *meth[3] = {"dopri5", "dop853", "odex"};
  static const double tf[7] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10}, tq[3] = {1e-4, 1e-6, 1e-8};
  const double *tols = quick ? tq : tf;
  int nt = quick ? 3 : 7;
  for (int mi = 0; mi < 3; ++mi)
    for (int k = 0; k < nt; ++k) {
      for (int form = 0; form < 2; ++form) {
        if (run_fp(form, meth[mi], tols[k], T, o, &nf) == 0)
          printf("fixed-point-%s,%d,%s,%.0e,%ld,%.3e\n", form ? "absolute" : "nullspace", form ? 8 : 7, meth[mi],
                 tols[k], nf, dist(o, ref));
        if (run_cosrod(path, form ? "absolute" : "nullspace", meth[mi], tols[k], T, o, &nf, &n) == 0)
          printf("cosrod-%s,%d,%s,%.0e,%ld,%.3e\n", form ? "absolute" : "nullspace", n, meth[mi], tols[k], nf,
                 dist(o, ref));
        fflush(stdout);
      }
    }
  return 0;
}
