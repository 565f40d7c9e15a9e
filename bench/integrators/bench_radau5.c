// SPDX-License-Identifier: Apache-2.0
/* RADAU5 time split: where the time goes (f, Jacobian, LU decompositions,
 * solves, the rest) on the standard stiff problems and on a long banded
 * chain, and what the M1 (second-order) reduction saves there.
 *
 * The wall time of a whole run is measured with the plain callbacks (best of
 * several repeats); the shares are estimated from unit costs measured in
 * loops: nfev x (one f call), njev x (one Jacobian call), ndecomp x (one real +
 * one complex LU of the order and bandwidths radau5 factors) and nsolve x
 * (one real + one complex solve).  "rest" is the remainder (Newton vector
 * operations, assembly of E and of the M1 reduction, error estimate,
 * control).
 *
 * Usage: bench_radau5 [--quick] */
#define _POSIX_C_SOURCE 200809L
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"
#include "cosrod/dense.h"
#include "itest.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- long chain with hardening springs (as in test_radau5.c) -------------- */
enum { NCH = 500 };
static const double K = 1e4, K3 = 1e5, C = 5.0;
typedef struct chain {
  int interleaved;
  cosrod_ode_problem p;
} chain;
static double sp(double d) { return K * d + K3 * d * d * d; }
static double dsp(double d) { return K + 3.0 * K3 * d * d; }
static double cq(const double *y, int i, int il) { return i < 0 || i >= NCH ? 0.0 : (il ? y[2 * i] : y[i]); }
static int chain_f(double t, const double *y, double *f, void *u) {
  (void)t;
  const chain *c = u;
  const int il = c->interleaved;
  for (int i = 0; i < NCH; i++) {
    double q = cq(y, i, il), v = il ? y[2 * i + 1] : y[NCH + i];
    double a = sp(cq(y, i + 1, il) - q) - sp(q - cq(y, i - 1, il)) - C * v;
    if (il) {
      f[2 * i] = v;
      f[2 * i + 1] = a;
    } else {
      f[i] = v;
      f[NCH + i] = a;
    }
  }
  return 0;
}
static int chain_jac(double t, const double *y, double *J, int ld, void *u) {
  (void)t;
  const chain *c = u;
  const int il = c->interleaved;
  for (int i = 0; i < NCH; i++) {
    double q = cq(y, i, il);
    double kr = dsp(cq(y, i + 1, il) - q), kl = dsp(q - cq(y, i - 1, il));
    if (il) {
      int rq = 2 * i, rv = 2 * i + 1;
      cosrod_jac_set(J, ld, 1, 1, rq, rv, 1.0);
      cosrod_jac_set(J, ld, 1, 1, rv, rq, -(kl + kr));
      if (i > 0) cosrod_jac_set(J, ld, 1, 1, rv, rq - 2, kl);
      if (i < NCH - 1) cosrod_jac_set(J, ld, 1, 1, rv, rq + 2, kr);
      cosrod_jac_set(J, ld, 1, 1, rv, rv, -C);
    } else {
      cosrod_jac_set2(J, ld, &c->p, i, i, -(kl + kr));
      if (i > 0) cosrod_jac_set2(J, ld, &c->p, i, i - 1, kl);
      if (i < NCH - 1) cosrod_jac_set2(J, ld, &c->p, i, i + 1, kr);
      cosrod_jac_set2(J, ld, &c->p, i, NCH + i, -C);
    }
  }
  return 0;
}
static void chain_setup(chain *c, int interleaved) {
  memset(c, 0, sizeof *c);
  c->interleaved = interleaved;
  cosrod_ode_problem *p = &c->p;
  p->n = 2 * NCH;
  p->f = chain_f;
  p->jac = chain_jac;
  p->user = c;
  p->jac_banded = 1;
  if (interleaved) {
    p->jac_ml = 3;
    p->jac_mu = 1;
  } else {
    p->m1 = p->m2 = NCH;
    p->jac_ml_q = p->jac_mu_q = 1;
    p->jac_ml = p->jac_mu = 0;
  }
}
static void chain_y0(int interleaved, double *y) {
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < NCH; i++) {
    double q = 0.1 * sin(pi * (i + 1) / (NCH + 1)) + 0.02 * sin(5.0 * pi * (i + 1) / (NCH + 1));
    double v = 0.3 * cos(2.0 * pi * (i + 1) / (NCH + 1));
    if (interleaved) {
      y[2 * i] = q;
      y[2 * i + 1] = v;
    } else {
      y[i] = q;
      y[NCH + i] = v;
    }
  }
}

/* ---- unit costs ----------------------------------------------------------- */
static double min_unit_time = 0.05;

/* seconds per call of f and of the Jacobian at (t, y) */
static void cb_cost(const cosrod_ode_problem *p, double t, const double *y, double *tf, double *tj) {
  static double f[4096], J[4096 * 8];
  int ld = p->jac_banded ? (p->m1 > 0 ? 3 : p->jac_ml + p->jac_mu + 1) : p->n;
  long reps = 0;
  double t0 = now(), dt;
  do {
    for (int k = 0; k < 100; k++) p->f(t, y, f, p->user);
    reps += 100;
  } while ((dt = now() - t0) < min_unit_time);
  *tf = dt / reps;
  *tj = 0.0;
  if (!p->jac || (size_t)ld * (size_t)p->n > sizeof J / sizeof J[0]) return;
  reps = 0;
  t0 = now();
  do {
    for (int k = 0; k < 20; k++) {
      memset(J, 0, sizeof(double) * (size_t)ld * (size_t)p->n);
      p->jac(t, y, J, ld, p->user);
    }
    reps += 20;
  } while ((dt = now() - t0) < min_unit_time);
  *tj = dt / reps;
}

/* seconds per real + complex LU pair and per real + complex solve pair */
typedef struct unit_cost {
  double dec, sol;
} unit_cost;
static unit_cost la_cost(int n, int banded, int ml, int mu) {
  unit_cost u = {0.0, 0.0};
  static double re[4096], im[4096];
  if (n > 4096) return u;
  cosrod_band *B = banded ? cosrod_band_create(n, ml, mu, NULL) : NULL;
  cosrod_zband *Z = banded ? cosrod_zband_create(n, ml, mu, NULL) : NULL;
  cosrod_dense *D = banded ? NULL : cosrod_dense_create(n, NULL);
  cosrod_zdense *ZD = banded ? NULL : cosrod_zdense_create(n, NULL);
  long reps = 0, sreps = 0;
  double tdec = 0.0, tsol = 0.0;
  while (tdec < min_unit_time) {
    /* diagonally dominant matrix with the given structure (assembly not timed) */
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        if (banded && (i - j > ml || j - i > mu)) continue;
        double a = (i == j) ? 10.0 + (double)(ml + mu) : sin(1.0 + i + 3.0 * j);
        if (banded) {
          cosrod_band_set(B, i, j, a);
          cosrod_zband_set(Z, i, j, a + 0.5 * I * (i == j));
        } else {
          cosrod_dense_set(D, i, j, a);
          cosrod_zdense_set(ZD, i, j, a + 0.5 * I * (i == j));
        }
      }
    double t1 = now();
    if (banded) {
      cosrod_band_factor(B);
      cosrod_zband_factor(Z);
    } else {
      cosrod_dense_factor(D);
      cosrod_zdense_factor(ZD);
    }
    tdec += now() - t1;
    reps++;
  }
  for (int i = 0; i < n; i++) re[i] = im[i] = cos((double)i);
  double t1 = now();
  do {
    for (int k = 0; k < 10; k++) {
      if (banded) {
        cosrod_band_solve(B, re);
        cosrod_zband_solve_split(Z, re, im);
      } else {
        cosrod_dense_solve(D, re);
        cosrod_zdense_solve_split(ZD, re, im);
      }
    }
    sreps += 10;
  } while ((tsol = now() - t1) < min_unit_time);
  cosrod_band_free(B);
  cosrod_zband_free(Z);
  cosrod_dense_free(D);
  cosrod_zdense_free(ZD);
  u.dec = tdec / reps;
  u.sol = tsol / sreps;
  return u;
}

/* ---- one measurement ------------------------------------------------------ */
static void measure(const char *label, const cosrod_ode_problem *p, double t0, const double *y0, double t1,
                    double rtol, double atol, int la_n, int la_banded, int la_ml, int la_mu, int repeats) {
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = rtol;
  o.atol = atol;
  const cosrod_step_type *T = cosrod_step_type_by_name("radau5");
  cosrod_integrator *it = cosrod_integrator_create(T, p, &o, NULL);
  if (!it) {
    printf("%-26s create failed\n", label);
    return;
  }
  static double yend[4096];
  double best = 1e300;
  cosrod_status st = COSROD_OK;
  for (int r = 0; r < repeats; r++) {
    /* each sample: as many runs as fit in 20 ms, averaged */
    int n = 0;
    double a = now(), dt;
    do {
      st = cosrod_integrate(it, t0, y0, t1, NULL, yend);
      n++;
    } while ((dt = now() - a) < 0.02);
    best = fmin(best, dt / n);
  }
  const cosrod_integrate_stats *s = cosrod_integrator_stats(it);
  double uf, uj;
  cb_cost(p, t0, y0, &uf, &uj);
  unit_cost u = la_cost(la_n, la_banded, la_ml, la_mu);
  double tf = uf * (double)s->nfev, tj = uj * (double)s->njev;
  double tdec = u.dec * (double)s->ndecomp, tsol = u.sol * (double)s->nsolve;
  double rest = best - tf - tj - tdec - tsol;
  printf("%-24s %-4s %7.1e %9.3e  %5.1f%% %5.1f%% %5.1f%% %5.1f%% %5.1f%%  %6ld %5ld %5ld %5ld %6ld\n", label,
         st == COSROD_OK ? "ok" : "FAIL", rtol, best, 100 * tf / best, 100 * tj / best, 100 * tdec / best,
         100 * tsol / best, 100 * rest / best, s->nfev, s->njev, s->nsteps, s->ndecomp, s->nsolve);
  cosrod_integrator_free(it);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  int repeats = quick ? 2 : 7;
  min_unit_time = quick ? 0.01 : 0.05;
  printf("RADAU5 time split: wall time of one run (best of %d) and estimated shares\n", repeats);
  printf("%-24s %-4s %7s %9s  %6s %6s %6s %6s %6s  %6s %5s %5s %5s %6s\n", "problem", "st", "rtol", "wall[s]",
         "f", "jac", "LU", "solve", "rest", "nfev", "njev", "steps", "dec", "nsolve");
  const char *names[3] = {"vdp", "robertson", "hires"};
  const double tols[2] = {1e-4, 1e-8};
  for (int k = 0; k < 3; k++) {
    const itest_problem *P = itest_problem_by_name(names[k]);
    cosrod_ode_problem p;
    memset(&p, 0, sizeof p);
    P->setup(&p);
    for (int j = 0; j < 2; j++)
      measure(names[k], &p, P->t0, P->y0, P->t_end, tols[j], tols[j] * P->atol_per_rtol, P->n, 0, 0, 0,
              repeats);
  }
  static double y0[2 * NCH];
  chain c;
  chain_setup(&c, 0);
  chain_y0(0, y0);
  measure("chain n=1000 M1 band", &c.p, 0.0, y0, 0.5, 1e-6, 1e-6, NCH, 1, 1, 1, repeats);
  chain_setup(&c, 1);
  chain_y0(1, y0);
  measure("chain n=1000 full band", &c.p, 0.0, y0, 0.5, 1e-6, 1e-6, 2 * NCH, 1, 3, 1, repeats);
  return 0;
}
