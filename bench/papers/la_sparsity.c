// SPDX-License-Identifier: Apache-2.0
/* [LA] Fig. 4: sparsity patterns for a rod of N segments (perf-rubber.yaml,
 * rods.0.segments = N, default 10), printed as "# name rows cols nq" followed by
 * one "i,j,value" line per entry with |value| > 1e-12 max|A|:
 *   (c) jac_absolute   d(qdot, vdot)/d(q, v) of cosrod_rod_rhs_absolute
 *   (d) jac_nullspace  d(qdot, nudot)/d(q, nu) of cosrod_rod_rhs_nullspace
 *       (both by central differences of today's right-hand sides, dense)
 *   (a) mass_constraint  [M G^T; G 0] of the inextensible Kirchhoff rod in
 *       cosrod's interleaved q = (x_0, p_1/2, x_1, ...) of a straight free
 *       rod (all vertices kept; perf-rubber's clamped end removes x_0): M = diag(m_n I3 at
 *       the vertices, the 4x4 quaternion inertia 4 Q(p)^T diag(0, I) Q(p) of
 *       [LLA] eq. 28 with I = (1, 1, 2)), G = dg/dq by central differences of
 *       the constraints g_k = (Im(conj(p) dx p) - ds e3, |p|^2 - 1) ([LA] §2)
 *       at the initial state.  cosrod itself never assembles this matrix: it
 *       solves with the Schur complement G A^+ G^T (band, rod_kirchhoff.c);
 *   (b) mass_constraint_inverse  its inverse (dense LU in this program).
 * Usage: la_sparsity EXAMPLES_DIR [N] > la-fig4.txt */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"

typedef int (*rhs_fn)(const cosrod_rod *, cosrod_rod_data *, double, const double *, double *);

static void dump(const char *name, const double *A, int nr, int nc, int nq) {
  double amax = 0.0;
  for (int k = 0; k < nr * nc; ++k) amax = fmax(amax, fabs(A[k]));
  printf("# %s %d %d %d\n", name, nr, nc, nq);
  for (int i = 0; i < nr; ++i)
    for (int j = 0; j < nc; ++j)
      if (fabs(A[(size_t)i * nc + j]) > 1e-12 * amax) printf("%d,%d,%.6e\n", i, j, A[(size_t)i * nc + j]);
}

/* row-major Jacobian of f at y by central differences */
static void jac_fd(const cosrod_rod *rod, cosrod_rod_data *d, rhs_fn f, double *y, int n, double *J) {
  double *fp = malloc(sizeof(double) * (size_t)n), *fm = malloc(sizeof(double) * (size_t)n);
  for (int j = 0; j < n; ++j) {
    double yj = y[j], h = 1e-6 * fmax(1.0, fabs(yj));
    y[j] = yj + h, f(rod, d, 0.0, y, fp);
    y[j] = yj - h, f(rod, d, 0.0, y, fm);
    y[j] = yj;
    for (int i = 0; i < n; ++i) J[(size_t)i * n + j] = (fp[i] - fm[i]) / (2 * h);
  }
  free(fp), free(fm);
}

/* Kirchhoff constraints of segment k (4 values) from interleaved q */
static void kirch_g(const double *q, int N, double ds, double *g) {
  for (int k = 0; k < N; ++k) {
    const double *x0 = q + 7 * k, *p = q + 7 * k + 3, *x1 = q + 7 * k + 7;
    double dx[3] = {x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]}, c[3];
    double pc[4] = {p[0], -p[1], -p[2], -p[3]}, v[4] = {0, dx[0], dx[1], dx[2]}, t[4], r[4];
    cosrod_quat_mul(t, pc, v);
    cosrod_quat_mul(r, t, p);
    c[0] = r[1], c[1] = r[2], c[2] = r[3] - ds;
    memcpy(g + 4 * k, c, sizeof c);
    g[4 * k + 3] = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - 1.0;
  }
}

/* in-place Gauss-Jordan inverse with partial pivoting (row-major n x n) */
static int invert(double *A, int n) {
  double *B = calloc((size_t)n * n, sizeof *B);
  for (int i = 0; i < n; ++i) B[(size_t)i * n + i] = 1.0;
  for (int c = 0; c < n; ++c) {
    int pr = c;
    for (int r = c + 1; r < n; ++r)
      if (fabs(A[(size_t)r * n + c]) > fabs(A[(size_t)pr * n + c])) pr = r;
    if (fabs(A[(size_t)pr * n + c]) < 1e-300) return free(B), -1;
    for (int k = 0; k < n && pr != c; ++k) {
      double t = A[(size_t)c * n + k];
      A[(size_t)c * n + k] = A[(size_t)pr * n + k], A[(size_t)pr * n + k] = t;
      t = B[(size_t)c * n + k], B[(size_t)c * n + k] = B[(size_t)pr * n + k], B[(size_t)pr * n + k] = t;
    }
    double piv = A[(size_t)c * n + c];
    for (int k = 0; k < n; ++k) A[(size_t)c * n + k] /= piv, B[(size_t)c * n + k] /= piv;
    for (int r = 0; r < n; ++r) {
      double f = A[(size_t)r * n + c];
      if (r == c || f == 0.0) continue;
      for (int k = 0; k < n; ++k) A[(size_t)r * n + k] -= f * A[(size_t)c * n + k], B[(size_t)r * n + k] -= f * B[(size_t)c * n + k];
    }
  }
  memcpy(A, B, sizeof(double) * (size_t)n * n);
  free(B);
  return 0;
}

static void mass_constraint(const double *q, int N, double ds) {
  int nq = 7 * N + 3, nc = 4 * N, n = nq + nc;
  double *A = calloc((size_t)n * n, sizeof *A), *g0 = malloc(sizeof(double) * nc), *g1 = malloc(sizeof(double) * nc);
  double *qq = malloc(sizeof(double) * nq);
  memcpy(qq, q, sizeof(double) * nq);
  for (int v = 0; v <= N; ++v)
    for (int i = 0; i < 3; ++i) A[(size_t)(7 * v + i) * n + 7 * v + i] = 1.0;
  static const double I[3] = {1.0, 1.0, 2.0};
  for (int k = 0; k < N; ++k) { /* 4 Q^T diag(0, I) Q, Q(p) = left multiplication by conj(p) */
    const double *p = q + 7 * k + 3;
    double Q[16] = {p[0], p[1], p[2], p[3], -p[1], p[0], p[3], -p[2], -p[2], -p[3], p[0], p[1], -p[3], p[2], -p[1], p[0]};
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        double s = 0.0;
        for (int r = 1; r < 4; ++r) s += Q[4 * r + a] * I[r - 1] * Q[4 * r + b];
        A[(size_t)(7 * k + 3 + a) * n + 7 * k + 3 + b] = 4.0 * s;
      }
  }
  for (int j = 0; j < nq; ++j) { /* G column j by central differences */
    double h = 1e-7;
    qq[j] = q[j] + h, kirch_g(qq, N, ds, g1);
    qq[j] = q[j] - h, kirch_g(qq, N, ds, g0);
    qq[j] = q[j];
    for (int i = 0; i < nc; ++i) {
      double gij = (g1[i] - g0[i]) / (2 * h);
      A[(size_t)(nq + i) * n + j] = gij, A[(size_t)j * n + nq + i] = gij;
    }
  }
  dump("mass_constraint", A, n, n, nq);
  if (invert(A, n) == 0) dump("mass_constraint_inverse", A, n, n, nq);
  else fprintf(stderr, "la_sparsity: mass-constraint matrix singular\n");
  free(A), free(g0), free(g1), free(qq);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: la_sparsity EXAMPLES_DIR [N] > la-fig4.txt\n");
    return 2;
  }
  char path[1024], seg[64];
  int N = argc > 2 ? atoi(argv[2]) : 10;
  snprintf(path, sizeof path, "%s/perf-rubber.yaml", argv[1]);
  snprintf(seg, sizeof seg, "rods.0.segments=%d", N);
  const char *sets[1] = {seg};
  cosrod_scenario *sc = cosrod_scenario_load(path, sets, 1, NULL);
  cosrod_status st;
  cosrod_sim *sim = sc ? cosrod_sim_create(sc, &st) : NULL;
  if (!sim) {
    fprintf(stderr, "%s\n", cosrod_last_error());
    return 1;
  }
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, &st);
  static const cosrod_rod_form forms[2] = {COSROD_FORM_ABSOLUTE, COSROD_FORM_NULLSPACE};
  static const rhs_fn fns[2] = {cosrod_rod_rhs_absolute, cosrod_rod_rhs_nullspace};
  static const char *names[2] = {"jac_absolute", "jac_nullspace"};
  for (int f = 0; f < 2; ++f) {
    int n = cosrod_rod_ny(rod, forms[f]);
    double *y = malloc(sizeof(double) * n), *J = malloc(sizeof(double) * (size_t)n * n);
    cosrod_rod_initial_state(rod, forms[f], y);
    jac_fd(rod, d, fns[f], y, n, J);
    dump(names[f], J, n, n, cosrod_rod_nq(rod));
    free(y), free(J);
  }
  /* (a), (b): a straight free rod of N segments of length 1/N along e1, all
   * frames p = (cos pi/4, 0, sin pi/4, 0) (d3 = e1), interleaved q */
  double *q = calloc((size_t)7 * N + 3, sizeof *q);
  for (int v = 0; v <= N; ++v) q[7 * v] = (double)v / N;
  for (int k = 0; k < N; ++k) q[7 * k + 3] = q[7 * k + 5] = sqrt(0.5);
  mass_constraint(q, N, 1.0 / N);
  free(q);
  cosrod_rod_data_free(d);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return 0;
}
