// SPDX-License-Identifier: Apache-2.0
/* Micro-benchmark of the rod right-hand sides ([LLA] Table 1, [manual: benchmarks]):
 * ns per call and per segment (median over repetitions of timed batches) for
 * N = 10, 100, 1000, 10000, each formulation (absolute, nullspace, dae
 * residual) and each curvature variant, plus the FD band Jacobian of the
 * absolute formulation (da/dq and da/dv) for reference, and the analytic
 * Jacobians (rod_jac.c) of each formulation and curvature: ABSOLUTE the
 * second-order form [da/dq da/dv] (what RADAU5/RODAS/SEULEX get with
 * m1 = m2 = nq), NULLSPACE the square blocks dq'/dq and dν'/dν, DAE the
 * momentum rows [dF/dq  dF/dv + cj dF/dv'] (the blocks whose band storage is
 * O(N); the rectangular coupling blocks have bandwidths that grow with N in
 * LAPACK storage).  The papers report 1.06e-5 s for f and 1.02e-4 s for the
 * Jacobian at N = 10 (2.19 GHz Opteron).
 * Last section (alone with --order): the WHOLE Jacobian of the nullspace,
 * dae (residual, cj = 1e3) and absolute formulations assembled in band
 * storage in the node ordering of rod_order.c (cosrod_rod_jac_full_band,
 * bandwidths independent of N) and the banded LU (cosrod_band_factor) of the
 * iteration matrix (1e3 I - J, dae: J itself), against the banded LU in the
 * native ordering (bandwidth ~ nq) for the small N.
 *
 * Usage: bench_rod [--quick] [--N n] [--form absolute|nullspace|dae] [--curv name]
 *        [--calls n] [--jac]   (--calls: run exactly n calls of one
 *                       configuration and exit, e.g. under valgrind
 *                       --tool=callgrind; with --jac the analytic Jacobian
 *                       instead of the right-hand side; see callgrind.sh)
 * The state is a damped rubber rod, pinned at s = 0, bent and twisted, with
 * random velocities, so every term of the force code is exercised. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"
#include "cosrod/quat.h"
#include "cosrod/rod.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct bench_case {
  cosrod_rod *rod;
  cosrod_rod_data *d;
  cosrod_rod_form form;
  double *y, *yp, *out;
  double *J; /* analytic Jacobian blocks (band storage, bandwidth 10) */
  cosrod_rod_jac_block blk[2];
} bench_case;

static int make_case(bench_case *B, int N, cosrod_rod_form form, cosrod_curvature cv) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.curvature = cv;
  def.shape = COSROD_SHAPE_HELIX, def.shape_radius = 0.2, def.pitch = 0.1, def.turns = 0.7;
  def.length = 1.0;
  def.reference = COSROD_REFERENCE_STRAIGHT;
  def.damping = COSROD_DAMPING_COEFFICIENTS; /* perf-rubber: V = 2c */
  def.visc_gamma[0] = def.visc_gamma[1] = 0.2, def.visc_gamma[2] = 400.0;
  def.visc_kappa[0] = def.visc_kappa[1] = 4e-4, def.visc_kappa[2] = 1.6e-5;
  def.gravity[2] = -9.81;
  def.ends[0].kind = COSROD_END_PINNED;
  B->rod = cosrod_rod_create(&def, NULL);
  if (!B->rod) return -1;
  B->d = cosrod_rod_data_create(B->rod, NULL);
  B->form = form;
  int ny = cosrod_rod_ny(B->rod, form);
  B->y = calloc((size_t)ny, sizeof(double));
  B->yp = calloc((size_t)ny, sizeof(double));
  B->out = calloc((size_t)ny, sizeof(double));
  cosrod_rod_initial_state(B->rod, form, B->y);
  unsigned s = 12345u;
  for (int i = cosrod_rod_nq(B->rod); i < ny; ++i) {
    s = s * 1103515245u + 12345u;
    B->y[i] = ((double)(s >> 8) / 16777216.0 - 0.5) * 0.2;
    B->yp[i] = B->y[i];
  }
  if (form != COSROD_FORM_NULLSPACE) cosrod_rod_project(B->rod, form, B->y);
  /* analytic Jacobian destinations: two square band blocks, ld 21 */
  int nq = cosrod_rod_nq(B->rod), nv = cosrod_rod_nv(B->rod, form);
  B->J = calloc((size_t)21 * (size_t)(nq + nv), sizeof(double));
  if (form == COSROD_FORM_NULLSPACE) {
    cosrod_rod_jac_block a = {B->J, 21, 10, 10, 0, 0, nq, nq},
                         b = {B->J + 21 * (size_t)nq, 21, 8, 8, nq, nq, nv, nv};
    B->blk[0] = a, B->blk[1] = b;
  } else {
    cosrod_rod_jac_block a = {B->J, 21, 10, 10, nq, 0, nq, nq},
                         b = {B->J + 21 * (size_t)nq, 21, 10, 10, nq, nq, nq, nq};
    B->blk[0] = a, B->blk[1] = b;
  }
  return 0;
}

static inline void call_jac(bench_case *B) {
  if (B->form == COSROD_FORM_ABSOLUTE) {
    int nq = cosrod_rod_nq(B->rod);
    cosrod_rod_jac_second_order(B->rod, B->d, 0.0, B->y, B->J, 21, 10, 10, 10, 10);
    (void)nq;
  } else {
    cosrod_rod_jac(B->rod, B->d, B->form, 0.0, B->y, B->yp, 100.0, 2, B->blk);
  }
}

static void free_case(bench_case *B) {
  free(B->y), free(B->yp), free(B->out), free(B->J);
  cosrod_rod_data_free(B->d);
  cosrod_rod_free(B->rod);
}

static inline void call(bench_case *B) {
  switch (B->form) {
    case COSROD_FORM_ABSOLUTE:
      cosrod_rod_rhs_absolute(B->rod, B->d, 0.0, B->y, B->out);
      break;
    case COSROD_FORM_NULLSPACE:
      cosrod_rod_rhs_nullspace(B->rod, B->d, 0.0, B->y, B->out);
      break;
    default:
      cosrod_rod_res_dae(B->rod, B->d, 0.0, B->y, B->yp, B->out);
      break;
  }
}

/* median ns per call over reps batches of >= ~2 ms each */
static double time_fn(bench_case *B, int reps, void (*fn)(bench_case *)) {
  int batch = 1;
  for (;;) {
    double t0 = now();
    for (int i = 0; i < batch; ++i) fn(B);
    double dt = now() - t0;
    if (dt > 2e-3 || batch > (1 << 24)) break;
    batch *= 2;
  }
  double *ts = malloc(sizeof(double) * (size_t)reps);
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    for (int i = 0; i < batch; ++i) fn(B);
    ts[r] = (now() - t0) / batch * 1e9;
  }
  qsort(ts, (size_t)reps, sizeof(double), cmp);
  double m = ts[reps / 2];
  free(ts);
  return m;
}

static void call_rhs(bench_case *B) { call(B); }
static void call_jac_fn(bench_case *B) { call_jac(B); }
static double time_rhs(bench_case *B, int reps) { return time_fn(B, reps, call_rhs); }

static double time_jac(bench_case *B, int reps) {
  int nq = cosrod_rod_nq(B->rod);
  cosrod_band *Jq = cosrod_band_create(nq, 10, 10, NULL), *Jv = cosrod_band_create(nq, 10, 10, NULL);
  double *ts = malloc(sizeof(double) * (size_t)reps);
  int batch = 1;
  for (;;) {
    double t0 = now();
    for (int i = 0; i < batch; ++i) {
      cosrod_rod_jac_fd(B->rod, B->d, COSROD_FORM_ABSOLUTE, 0.0, B->y, nq, 0, Jq);
      cosrod_rod_jac_fd(B->rod, B->d, COSROD_FORM_ABSOLUTE, 0.0, B->y, nq, nq, Jv);
    }
    if (now() - t0 > 2e-3 || batch > (1 << 20)) break;
    batch *= 2;
  }
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    for (int i = 0; i < batch; ++i) {
      cosrod_rod_jac_fd(B->rod, B->d, COSROD_FORM_ABSOLUTE, 0.0, B->y, nq, 0, Jq);
      cosrod_rod_jac_fd(B->rod, B->d, COSROD_FORM_ABSOLUTE, 0.0, B->y, nq, nq, Jv);
    }
    ts[r] = (now() - t0) / batch * 1e9;
  }
  qsort(ts, (size_t)reps, sizeof(double), cmp);
  double m = ts[reps / 2];
  free(ts);
  cosrod_band_free(Jq);
  cosrod_band_free(Jv);
  return m;
}

static const char *form_name(cosrod_rod_form f) {
  return f == COSROD_FORM_ABSOLUTE ? "absolute" : f == COSROD_FORM_NULLSPACE ? "nullspace" : "dae";
}

/* ---- whole Jacobian in the banded node ordering + banded LU ---------------- */

typedef struct order_case {
  bench_case *B;
  const int *perm;
  cosrod_band *J, *E; /* Jacobian (ml, mu) and iteration matrix */
} order_case;

static order_case *g_oc;

static void call_full_jac(bench_case *B) {
  order_case *o = g_oc;
  cosrod_rod_jac_full_band(B->rod, B->d, B->form, 0.0, B->y, B->yp, 1e3, o->perm, o->J->data + o->J->ml,
                           o->J->ld, o->J->ml, o->J->mu);
}

static void call_lu(bench_case *B) {
  order_case *o = g_oc;
  if (B->form == COSROD_FORM_DAE)
    cosrod_band_copy(o->E, o->J);
  else
    cosrod_band_set_combination(o->E, -1.0, o->J, 1e3, NULL);
  cosrod_band_factor(o->E);
}

/* ns per full Jacobian and per LU in the ordering perm (NULL: native). */
static int time_order(bench_case *B, const int *perm, int ml, int mu, int reps, double *tj, double *tlu) {
  int ny = cosrod_rod_ny(B->rod, B->form);
  order_case o = {B, perm, cosrod_band_create(ny, ml, mu, NULL), cosrod_band_create(ny, ml, mu, NULL)};
  if (!o.J || !o.E) {
    cosrod_band_free(o.J), cosrod_band_free(o.E);
    return -1;
  }
  g_oc = &o;
  *tj = time_fn(B, reps, call_full_jac);
  *tlu = time_fn(B, reps, call_lu);
  int bad = o.E->factored != 1;
  cosrod_band_free(o.J), cosrod_band_free(o.E);
  return bad ? -1 : 0;
}

static int bench_order(int quick, int onlyN) {
  const int Ns[4] = {10, 100, 1000, 10000};
  const cosrod_rod_form forms[3] = {COSROD_FORM_NULLSPACE, COSROD_FORM_DAE, COSROD_FORM_ABSOLUTE};
  int reps = quick ? 5 : 11;
  printf(
      "\n# whole Jacobian in band storage, node ordering (cosrod_rod_jac_full_band), and banded LU\n"
      "# (cosrod_band_factor of 1e3 I - J; dae: of J with cj = 1e3), tangent-2, damped, pinned;\n"
      "# 'native' = the same in the rod's (q, v[, lambda]) ordering (bandwidth ~ nq)\n");
  printf("%-6s %-10s %-7s %6s %4s %4s %12s %10s %12s %10s\n", "N", "form", "order", "ny", "ml", "mu", "J ns",
         "J ns/seg", "LU ns", "LU ns/seg");
  for (int f = 0; f < 3; ++f)
    for (int in = 0; in < 4; ++in) {
      int N = Ns[in];
      if (onlyN && N != onlyN) continue;
      bench_case B;
      if (make_case(&B, N, forms[f], COSROD_CURV_TANGENT2)) return 1;
      int ny = cosrod_rod_ny(B.rod, B.form);
      int *perm = malloc(sizeof(int) * (size_t)ny), ml, mu;
      cosrod_rod_order_fill(B.rod, B.form, perm, NULL, &ml, &mu);
      double tj, tlu;
      if (time_order(&B, perm, ml, mu, reps, &tj, &tlu)) return 1;
      printf("%-6d %-10s %-7s %6d %4d %4d %12.0f %10.1f %12.0f %10.1f\n", N, form_name(B.form), "banded", ny,
             ml, mu, tj, tj / N, tlu, tlu / N);
      if (N <= (quick ? 10 : 100)) {
        int nml, nmu;
        cosrod_rod_jac_full_pattern_bandwidth(B.rod, B.d, B.form, NULL, &nml, &nmu);
        if (time_order(&B, NULL, nml, nmu, reps, &tj, &tlu)) return 1;
        printf("%-6d %-10s %-7s %6d %4d %4d %12.0f %10.1f %12.0f %10.1f\n", N, form_name(B.form), "native",
               ny, nml, nmu, tj, tj / N, tlu, tlu / N);
      }
      free(perm);
      free_case(&B);
    }
  return 0;
}

int main(int argc, char **argv) {
  int quick = 0, onlyN = 0, onlyform = -1, onlycurv = -1;
  long calls = 0;
  int jac = 0, order = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--jac"))
      jac = 1;
    else if (!strcmp(argv[i], "--order"))
      order = 1;
    else if (!strcmp(argv[i], "--N") && i + 1 < argc)
      onlyN = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
      calls = atol(argv[++i]);
    else if (!strcmp(argv[i], "--form") && i + 1 < argc) {
      ++i;
      onlyform = !strcmp(argv[i], "absolute") ? 0 : !strcmp(argv[i], "nullspace") ? 1 : 2;
    } else if (!strcmp(argv[i], "--curv") && i + 1 < argc) {
      onlycurv = cosrod_curvature_parse(argv[++i]);
    } else {
      fprintf(stderr, "usage: %s [--quick] [--N n] [--form f] [--curv c] [--calls n] [--jac] [--order]\n",
              argv[0]);
      return 2;
    }
  }
  if (calls > 0) { /* fixed number of calls of one configuration (for callgrind) */
    bench_case B;
    if (make_case(&B, onlyN > 0 ? onlyN : 10,
                  onlyform >= 0 ? (cosrod_rod_form)onlyform : COSROD_FORM_ABSOLUTE,
                  onlycurv >= 0 ? (cosrod_curvature)onlycurv : COSROD_CURV_TANGENT2))
      return 1;
    for (long i = 0; i < calls; ++i) jac ? call_jac(&B) : call(&B);
    free_case(&B);
    return 0;
  }
  if (order) return bench_order(quick, onlyN);
  int reps = quick ? 5 : 21;
  const int Ns[4] = {10, 100, 1000, 10000};
  printf("# rod right-hand side cost (median of %d batches)\n", reps);
  printf("%-6s %-10s %-10s %12s %12s\n", "N", "form", "curvature", "ns/call", "ns/segment");
  for (int in = 0; in < 4; ++in) {
    int N = Ns[in];
    if (onlyN && N != onlyN) continue;
    for (int f = 0; f < 3; ++f) {
      if (onlyform >= 0 && f != onlyform) continue;
      for (int c = 0; c < 5; ++c) {
        if (onlycurv >= 0 && c != onlycurv) continue;
        bench_case B;
        if (make_case(&B, N, (cosrod_rod_form)f, (cosrod_curvature)c)) return 1;
        double ns = time_rhs(&B, reps);
        printf("%-6d %-10s %-10s %12.1f %12.2f\n", N, form_name((cosrod_rod_form)f),
               cosrod_curvature_name((cosrod_curvature)c), ns, ns / N);
        free_case(&B);
      }
    }
  }
  printf("\n# FD band Jacobian of the absolute formulation (da/dq and da/dv, 2 x 2 x 21 RHS calls)\n");
  printf("%-6s %12s %12s\n", "N", "ns/call", "ns/segment");
  for (int in = 0; in < (quick ? 2 : 3); ++in) {
    int N = Ns[in];
    if (onlyN && N != onlyN) continue;
    bench_case B;
    if (make_case(&B, N, COSROD_FORM_ABSOLUTE, COSROD_CURV_TANGENT2)) return 1;
    double ns = time_jac(&B, quick ? 3 : 7);
    printf("%-6d %12.1f %12.2f\n", N, ns, ns / N);
    free_case(&B);
  }
  printf(
      "\n# analytic Jacobians (rod_jac.c; absolute: [da/dq da/dv], nullspace: dq'/dq + dnu'/dnu,\n"
      "# dae: momentum rows dF/dq + (dF/dv + cj dF/dv')), and the ratio to f of the same form\n");
  printf("%-6s %-10s %-10s %12s %12s %8s\n", "N", "form", "curvature", "ns/call", "ns/segment", "J/f");
  for (int in = 0; in < 4; ++in) {
    int N = Ns[in];
    if (onlyN && N != onlyN) continue;
    for (int f = 0; f < 3; ++f) {
      if (onlyform >= 0 && f != onlyform) continue;
      for (int c = 0; c < 5; ++c) {
        if (onlycurv >= 0 && c != onlycurv) continue;
        bench_case B;
        if (make_case(&B, N, (cosrod_rod_form)f, (cosrod_curvature)c)) return 1;
        double nf = time_rhs(&B, reps), ns = time_fn(&B, reps, call_jac_fn);
        printf("%-6d %-10s %-10s %12.1f %12.2f %8.1f\n", N, form_name((cosrod_rod_form)f),
               cosrod_curvature_name((cosrod_curvature)c), ns, ns / N, ns / nf);
        free_case(&B);
      }
    }
  }
  printf("\n# [LLA] (2.19 GHz Opteron, N = 10): f 1.06e-5 s, Jacobian 1.02e-4 s\n");
  return bench_order(quick, onlyN);
}
