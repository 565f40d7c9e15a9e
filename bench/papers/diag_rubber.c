// SPDX-License-Identifier: Apache-2.0
/* Diagnostics of the perf-rubber step counts ([LLA] §4, Table 2; findings in
 * findings.md): builds the simulation of a scenario exactly as `cosrod run`
 * does (cosrod_sim), then runs its integrator problem with modified
 * tolerances / Jacobians, computes the spectrum of the full Jacobian (LAPACK
 * dgeev on a central-difference Jacobian) and probes the nonlinearity.
 *
 *   diag_rubber SCENARIO [--set k=v]... eig T     spectrum at time T (reference
 *       solution by radau5 1e-9), with each eigenvector's weight on the groups
 *       qx (vertex positions), qp (quaternions), vx, vp (their rates)
 *   diag_rubber SCENARIO [--set k=v]... run METHOD TOL [opts]
 *       counts, mean/min/max accepted h of a run on the sim's problem; opts:
 *       fdjac      dense FD Jacobian instead of the analytic one
 *       loose=G    atol = 1e30 on the groups named in G (qx qp vx vp)
 *       probe      one METHOD step of h = 1..16 ms from the reference solution
 *                  at t = 0.5, 1, ..., 10: max error / TOL per group
 *       linprobe   the same on the problem linearised at t = 1
 *       ieprobe    implicit Euler with full Newton (FD J every iteration) at
 *                  t = 1: residual per iteration, largest components
 *       jprobe     largest changes of the Jacobian along the reference
 *                  solution over 2..16 ms from t = 1
 *   DIAG_STIFF_STOP=1 in the environment: explicit methods stop at Hairer's
 *   stiffness detection (default: go on).  Groups need the SPLIT layout
 *   (absolute formulation with radau5/rodas/seulex). */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "cosrod/rod.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "sim/sim_hooks.h"

typedef struct {
  const cosrod_ode_problem *p;
  int n;
} fdctx;

/* Central-difference dense Jacobian (n x n, column major) of p->f. */
static void jac_fd(const cosrod_ode_problem *p, double t, const double *y, double *J) {
  int n = p->n;
  double *yy = malloc(sizeof(double) * n), *f1 = malloc(sizeof(double) * n), *f2 = malloc(sizeof(double) * n);
  memcpy(yy, y, sizeof(double) * n);
  for (int j = 0; j < n; j++) {
    double h = 1e-7 * fmax(1e-3, fabs(y[j]));
    yy[j] = y[j] + h;
    p->f(t, yy, f1, p->user);
    yy[j] = y[j] - h;
    p->f(t, yy, f2, p->user);
    yy[j] = y[j];
    for (int i = 0; i < n; i++) J[i + (size_t)j * n] = (f1[i] - f2[i]) / (2 * h);
  }
  free(yy);
  free(f1);
  free(f2);
}

/* group of component i of the SPLIT state: 0 qx, 1 qp, 2 vx, 3 vp */
static int *groups(const cosrod_sim *sim) {
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  int nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod), n = cosrod_sim_ny(sim);
  int *g = malloc(sizeof(int) * 2 * (size_t)n);
  for (int i = 0; i < n; i++) g[i] = -1;
  if (!cosrod_sim_split_layout(sim)) return g; /* groups only for the SPLIT layout */
  for (int k = 0; k < N; k++) {
    int o = cosrod_rod_qindex_segment(rod, k);
    for (int c = 0; c < 4; c++) g[o + c] = 1, g[nq + o + c] = 3;
  }
  for (int v = 0; v <= N; v++) {
    int o = cosrod_rod_qindex_vertex(rod, v), nd = cosrod_rod_vertex_ndof(rod, v);
    for (int c = 0; c < nd; c++) g[o + c] = 0, g[nq + o + c] = 2;
  }
  return g;
}
static const char *GNAME[4] = {"qx", "qp", "vx", "vp"};

static int run_to(const cosrod_ode_problem *p, const char *method, double tol, double t0, const double *y0,
                  double t1, double *y1, cosrod_integrate_stats *st, const double *atolv, cosrod_step_fn cb,
                  void *cbu) {
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = tol;
  o.atol = tol;
  o.atol_vec = atolv;
  o.max_steps = 10000000;
  o.stiff_continue = getenv("DIAG_STIFF_STOP") ? 0 : 1;
  cosrod_status s;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), p, &o, &s);
  if (!it) return -1;
  cosrod_output_spec out = {0};
  out.step_history = cb;
  out.user = cbu;
  s = cosrod_integrate(it, t0, y0, t1, &out, y1);
  if (st) *st = *cosrod_integrator_stats(it);
  if (s != COSROD_OK) fprintf(stderr, "%s: %s\n", method, cosrod_integrator_message(it));
  cosrod_integrator_free(it);
  return s == COSROD_OK ? 0 : -1;
}

typedef struct {
  long nacc, nrej;
  double hsum;
  double hmin, hmax;
} hist;
static int step_cb(double t, double h, int acc, void *u) {
  hist *H = u;
  (void)t;
  if (acc) {
    H->nacc++;
    H->hsum += h;
    if (h < H->hmin) H->hmin = h;
    if (h > H->hmax) H->hmax = h;
  } else
    H->nrej++;
  return 0;
}

/* Linearised problem y' = f0 + J0 (y - y0) (dense J0, n x n column major). */
typedef struct {
  int n;
  const double *J0, *f0, *y0;
} linp;
static int lin_f(double t, const double *y, double *yd, void *u) {
  const linp *L = u;
  (void)t;
  for (int i = 0; i < L->n; i++) yd[i] = L->f0[i];
  for (int j = 0; j < L->n; j++) {
    double d = y[j] - L->y0[j];
    for (int i = 0; i < L->n; i++) yd[i] += L->J0[i + (size_t)j * L->n] * d;
  }
  return 0;
}
static int lin_jac(double t, const double *y, double *J, int ldj, void *u) {
  const linp *L = u;
  (void)t;
  (void)y;
  for (int j = 0; j < L->n; j++)
    for (int i = 0; i < L->n; i++) J[i + (size_t)j * ldj] = L->J0[i + (size_t)j * L->n];
  return 0;
}

static int cmp_ev(const void *a, const void *b) {
  const double *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

static void eig(const cosrod_sim *sim, const cosrod_ode_problem *p, double T) {
  int n = p->n;
  double *y = malloc(sizeof(double) * n);
  memcpy(y, cosrod_sim_state(sim), sizeof(double) * n);
  if (T > 0) run_to(p, "radau5", 1e-9, 0.0, cosrod_sim_state(sim), T, y, NULL, NULL, NULL, NULL);
  double *J = malloc(sizeof(double) * n * n), *wr = malloc(sizeof(double) * n),
         *wi = malloc(sizeof(double) * n), *V = malloc(sizeof(double) * n * n);
  jac_fd(p, T, y, J);
  int *g = groups(sim);
  lapack_int info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'V', n, J, n, wr, wi, NULL, n, V, n);
  printf("# eigenvalues of the full %dx%d Jacobian at t = %g (info %d)\n", n, n, T, (int)info);
  printf("# %14s %14s   weight of eigenvector in qx qp vx vp\n", "Re", "Im");
  double *rows = malloc(sizeof(double) * 7 * n);
  for (int k = 0; k < n; k++) {
    double w[4] = {0, 0, 0, 0};
    /* eigenvector k (complex pairs: columns k, k+1 = re, im) */
    int kr = k, ki = -1;
    if (wi[k] != 0.0) {
      if (wi[k] > 0)
        ki = k + 1;
      else
        kr = k - 1, ki = k;
    }
    double tot = 0;
    for (int i = 0; i < n; i++) {
      double a = V[i + (size_t)kr * n], b = ki >= 0 ? V[i + (size_t)ki * n] : 0.0;
      double m = a * a + b * b;
      if (g[i] >= 0) w[g[i]] += m;
      tot += m;
    }
    rows[7 * k] = wr[k];
    rows[7 * k + 1] = wi[k];
    for (int c = 0; c < 4; c++) rows[7 * k + 2 + c] = w[c] / tot;
  }
  qsort(rows, n, sizeof(double) * 7, cmp_ev);
  for (int k = 0; k < n; k++)
    printf("%16.6e %14.6e   %.2f %.2f %.2f %.2f\n", rows[7 * k], rows[7 * k + 1], rows[7 * k + 2],
           rows[7 * k + 3], rows[7 * k + 4], rows[7 * k + 5]);
  free(rows);
  free(g);
  free(J);
  free(wr);
  free(wi);
  free(V);
  free(y);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SCENARIO [--set k=v]... eig T | run METHOD TOL [fdjac] [loose=G] [probe]\n",
            argv[0]);
    return 2;
  }
  const char *sets[32];
  size_t nsets = 0;
  int a = 2;
  while (a + 1 < argc && strcmp(argv[a], "--set") == 0 && nsets < 32) {
    sets[nsets++] = argv[a + 1];
    a += 2;
  }
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(argv[1], sets, nsets, NULL))) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  cosrod_ode_problem p = *cosrod_sim_problem(sim);
  int n = p.n;
  if (a < argc && strcmp(argv[a], "eig") == 0) {
    eig(sim, &p, a + 1 < argc ? atof(argv[a + 1]) : 0.0);
  } else if (a + 2 < argc && strcmp(argv[a], "run") == 0) {
    const char *method = argv[a + 1];
    double tol = atof(argv[a + 2]);
    double *atolv = NULL;
    int probe = 0;
    int *g = groups(sim);
    for (int k = a + 3; k < argc; k++) {
      if (strcmp(argv[k], "fdjac") == 0) {
        p.jac = NULL;
        p.jac_banded = 0;
      } else if (strncmp(argv[k], "loose=", 6) == 0) {
        if (!atolv) {
          atolv = malloc(sizeof(double) * n);
          for (int i = 0; i < n; i++) atolv[i] = tol;
        }
        for (int c = 0; c < 4; c++)
          if (strstr(argv[k] + 6, GNAME[c]))
            for (int i = 0; i < n; i++)
              if (g[i] == c) atolv[i] = 1e30;
      } else if (strcmp(argv[k], "probe") == 0)
        probe = 1;
      else if (strcmp(argv[k], "jprobe") == 0)
        probe = 4;
      else if (strcmp(argv[k], "ieprobe") == 0)
        probe = 3;
      else if (strcmp(argv[k], "linprobe") == 0)
        probe = 2;
    }
    double T = cosrod_sim_scenario(sim)->analysis.t_end;
    double *y = malloc(sizeof(double) * n);
    hist H = {0, 0, 0, 1e300, 0};
    cosrod_integrate_stats s;
    run_to(&p, method, tol, 0.0, cosrod_sim_state(sim), T, y, &s, atolv, step_cb, &H);
    printf(
        "%-8s tol %.0e: nfev %ld njev %ld nsteps %ld acc %ld rej %ld newton %ld  mean h %.3e "
        "[%.2e, %.2e]  wall %.3f s\n",
        method, tol, s.nfev, s.njev, s.nsteps, s.naccept, s.nreject, s.nnewton, H.hsum / (double)H.nacc,
        H.hmin, H.hmax, s.wall_time);
    if (probe == 2) { /* linearised problem at t = 1 */
      double *y0 = malloc(sizeof(double) * n), *f0 = malloc(sizeof(double) * n),
             *J0 = malloc(sizeof(double) * n * n), *y1 = malloc(sizeof(double) * n),
             *yr = malloc(sizeof(double) * n);
      run_to(&p, "radau5", 1e-11, 0.0, cosrod_sim_state(sim), 1.0, y0, NULL, NULL, NULL, NULL);
      p.f(1.0, y0, f0, p.user);
      jac_fd(&p, 1.0, y0, J0);
      linp L = {n, J0, f0, y0};
      cosrod_ode_problem lp = {0};
      lp.n = n;
      lp.f = lin_f;
      lp.jac = lin_jac;
      lp.user = &L;
      printf("# linearised problem at t = 1: one step of %s vs radau5 1e-12, max scaled error per group\n",
             method);
      for (double h = 1e-3; h <= 6.4e-2 * 1.01; h *= 2) {
        cosrod_integrate_options o = cosrod_integrate_default_options();
        o.rtol = o.atol = 1e20;
        o.h0 = h;
        o.hmax = h;
        cosrod_status ss;
        cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &lp, &o, &ss);
        cosrod_integrate(it, 1.0, y0, 1.0 + h, NULL, y1);
        cosrod_integrator_free(it);
        run_to(&lp, "radau5", 1e-12, 1.0, y0, 1.0 + h, yr, NULL, NULL, NULL, NULL);
        double e[4] = {0, 0, 0, 0};
        for (int i = 0; i < n; i++) {
          double sk = tol + tol * fmax(fabs(y0[i]), fabs(yr[i]));
          double r = fabs(y1[i] - yr[i]) / sk;
          if (g[i] >= 0 && r > e[g[i]]) e[g[i]] = r;
        }
        printf("lin %.1e  %9.2e %9.2e %9.2e %9.2e\n", h, e[0], e[1], e[2], e[3]);
      }
      free(y0);
      free(f0);
      free(J0);
      free(y1);
      free(yr);
    }
    if (probe == 3) { /* implicit Euler with full Newton (J by FD every iteration) at t = 1 */
      double *y0 = malloc(sizeof(double) * n), *y1 = malloc(sizeof(double) * n),
             *fv = malloc(sizeof(double) * n), *A = malloc(sizeof(double) * n * n),
             *r = malloc(sizeof(double) * n);
      lapack_int *ipiv = malloc(sizeof(lapack_int) * n);
      run_to(&p, "radau5", 1e-11, 0.0, cosrod_sim_state(sim), 1.0, y0, NULL, NULL, NULL, NULL);
      for (double h = 2e-3; h <= 6.4e-2 * 1.01; h *= 2) {
        memcpy(y1, y0, sizeof(double) * n);
        printf("implicit Euler h = %.1e: |residual| per Newton iteration:", h);
        for (int it = 0; it < 12; it++) {
          p.f(1.0 + h, y1, fv, p.user);
          double rn = 0;
          for (int i = 0; i < n; i++) {
            r[i] = -(y1[i] - y0[i] - h * fv[i]);
            rn = fmax(rn, fabs(r[i]));
          }
          printf(" %.1e", rn);
          if (it == 1 && h > 1.5e-2 && h < 1.7e-2) {
            printf(" [largest residual comps after step 1:");
            for (int q = 0; q < 8; q++) {
              int im = 0;
              for (int i = 1; i < n; i++)
                if (fabs(r[i]) > fabs(r[im])) im = i;
              printf(" %d:%s=%.1e", im, g[im] >= 0 ? GNAME[g[im]] : "?", r[im]);
              r[im] = 0; /* destroys r: stop after the print */
            }
            printf("]");
            break;
          }
          if (rn < 1e-13 || !(rn < 1e10)) break;
          jac_fd(&p, 1.0 + h, y1, A);
          for (size_t k = 0; k < (size_t)n * n; k++) A[k] *= -h;
          for (int i = 0; i < n; i++) A[i + (size_t)i * n] += 1.0;
          LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, r, n);
          for (int i = 0; i < n; i++) y1[i] += r[i];
          if (it == 0 && h > 1.5e-2 && h < 1.7e-2) { /* first Newton step vs the true change */
            double *yt = malloc(sizeof(double) * n);
            run_to(&p, "radau5", 1e-11, 1.0, y0, 1.0 + h, yt, NULL, NULL, NULL, NULL);
            printf("\n   first Newton step vs true change y(t+h) - y(t), largest deviations:");
            double *dv = malloc(sizeof(double) * n);
            for (int i = 0; i < n; i++) dv[i] = y1[i] - yt[i];
            for (int q = 0; q < 8; q++) {
              int im = 0;
              for (int i = 1; i < n; i++)
                if (fabs(dv[i]) > fabs(dv[im])) im = i;
              printf("\n     %d:%s step %.3e true %.3e", im, g[im] >= 0 ? GNAME[g[im]] : "?", y1[im] - y0[im],
                     yt[im] - y0[im]);
              dv[im] = 0;
            }
            printf("\n   ");
            free(dv);
            free(yt);
          }
        }
        printf("\n");
      }
      free(y0);
      free(y1);
      free(fv);
      free(A);
      free(r);
      free(ipiv);
    }
    if (probe == 4) { /* change of the Jacobian along the reference solution over h */
      double *y0 = malloc(sizeof(double) * n), *y1 = malloc(sizeof(double) * n),
             *J0 = malloc(sizeof(double) * n * n), *J1 = malloc(sizeof(double) * n * n);
      run_to(&p, "radau5", 1e-11, 0.0, cosrod_sim_state(sim), 1.0, y0, NULL, NULL, NULL, NULL);
      jac_fd(&p, 1.0, y0, J0);
      for (double h = 2e-3; h <= 1.7e-2; h *= 2) {
        run_to(&p, "radau5", 1e-11, 1.0, y0, 1.0 + h, y1, NULL, NULL, NULL, NULL);
        jac_fd(&p, 1.0 + h, y1, J1);
        printf(
            "h = %.1e: largest |J(t+h) - J(t)| entries (row group/index, col group/index, J(t), J(t+h)):\n",
            h);
        for (int q = 0; q < 8; q++) {
          size_t im = 0;
          for (size_t k = 1; k < (size_t)n * n; k++)
            if (fabs(J1[k] - J0[k]) > fabs(J1[im] - J0[im])) im = k;
          int i = (int)(im % (size_t)n), j = (int)(im / (size_t)n);
          printf("   %s[%d] / %s[%d]: %.3e -> %.3e\n", g[i] >= 0 ? GNAME[g[i]] : "?", i,
                 g[j] >= 0 ? GNAME[g[j]] : "?", j, J0[im], J1[im]);
          J1[im] = J0[im];
        }
      }
      free(y0);
      free(y1);
      free(J0);
      free(J1);
    }
    if (probe == 1) {
      /* local error of one step of size h from states on a reference path */
      double *y0 = malloc(sizeof(double) * n), *y1 = malloc(sizeof(double) * n),
             *yr = malloc(sizeof(double) * n);
      memcpy(y0, cosrod_sim_state(sim), sizeof(double) * n);
      double t = 0.0;
      printf("# t h  max scaled local error per group (qx qp vx vp), argmax component\n");
      for (int k = 1; k <= 20; k++) {
        double t1 = 0.5 * k;
        run_to(&p, "radau5", 1e-11, t, y0, t1, y0, NULL, NULL, NULL, NULL);
        t = t1;
        for (double h = 1e-3; h <= 2e-2 * 1.01; h *= 2) {
          cosrod_integrate_options o = cosrod_integrate_default_options();
          o.rtol = o.atol = 1e20;
          o.h0 = h;
          o.hmax = h;
          cosrod_status ss;
          cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &ss);
          cosrod_integrate(it, t, y0, t + h, NULL, y1);
          cosrod_integrator_free(it);
          run_to(&p, "radau5", 1e-12, t, y0, t + h, yr, NULL, NULL, NULL, NULL);
          double e[4] = {0, 0, 0, 0};
          int im[4] = {0, 0, 0, 0};
          for (int i = 0; i < n; i++) {
            double sk = tol + tol * fmax(fabs(y0[i]), fabs(yr[i]));
            double r = fabs(y1[i] - yr[i]) / sk;
            if (g[i] >= 0 && r > e[g[i]]) e[g[i]] = r, im[g[i]] = i;
          }
          printf("%5.2f %.1e  %9.2e %9.2e %9.2e %9.2e   (%d %d %d %d)\n", t, h, e[0], e[1], e[2], e[3], im[0],
                 im[1], im[2], im[3]);
        }
      }
      free(y0);
      free(y1);
      free(yr);
    }
    free(y);
    free(g);
    free(atolv);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return 0;
}
