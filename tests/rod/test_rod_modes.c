// SPDX-License-Identifier: Apache-2.0
/* Small-amplitude eigenfrequencies of the linearised null-space system about
 * the straight stress-free rubber rod ([LLA] Test 1 data, [LA] §4d): free–free
 * axial modes (jπ/L)√(E/ρ), free–free torsional modes (jπ/L)√(G/ρ) and the
 * first cantilever bending modes (Euler–Bernoulli βL = 1.8751, 4.6941), with
 * second-order convergence in N.  The Jacobian is a dense central FD of the
 * right-hand side (the system is linear to O(h²) about the rest state); about
 * the straight rod the axial, torsional and the two bending–shear families
 * decouple, so each family's sub-block is solved with LAPACK dgeev. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>

#include "rod_test_util.h"

static const double E = 5e6, RHO = 1100.0, NU = 0.5, R = 5e-3, L = 1.0;

static cosrod_rod *rubber(int N, int cantilever, double kappa) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N, def.length = L, def.E = E, def.poisson = NU, def.density = RHO, def.radius = R;
  def.shear_correction[0] = def.shear_correction[1] = kappa;
  if (cantilever) def.ends[0].kind = COSROD_END_CLAMPED;
  return cosrod_rod_create(&def, NULL);
}

/* dense Jacobian (n x n column-major) of the null-space RHS at y */
static double *dense_jac(const cosrod_rod *rod, const double *y, int n) {
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  double *J = malloc(sizeof(double) * (size_t)n * (size_t)n);
  double *yy = malloc(sizeof(double) * (size_t)n * 3), *fp = yy + n, *fm = yy + 2 * n;
  memcpy(yy, y, sizeof(double) * (size_t)n);
  for (int j = 0; j < n; ++j) {
    double h = 1e-7;
    yy[j] = y[j] + h;
    cosrod_rod_rhs_nullspace(rod, d, 0.0, yy, fp);
    yy[j] = y[j] - h;
    cosrod_rod_rhs_nullspace(rod, d, 0.0, yy, fm);
    yy[j] = y[j];
    for (int i = 0; i < n; ++i) J[i + (size_t)n * j] = (fp[i] - fm[i]) / (2.0 * h);
  }
  free(yy);
  cosrod_rod_data_free(d);
  return J;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Sorted distinct positive frequencies |Im λ| (> tol) of the sub-matrix of J
 * on index set idx (m entries); returns their count, written to w. */
static int sub_freqs(const double *J, int n, const int *idx, int m, double *w) {
  double *A = malloc(sizeof(double) * (size_t)m * (size_t)m), *wr = malloc(sizeof(double) * (size_t)m),
         *wi = malloc(sizeof(double) * (size_t)m);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) A[i + (size_t)m * j] = J[idx[i] + (size_t)n * idx[j]];
  LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', m, A, m, wr, wi, NULL, 1, NULL, 1);
  int c = 0;
  for (int i = 0; i < m; ++i)
    if (wi[i] > 1e-3) w[c++] = wi[i]; /* rigid-body modes: |Im λ| ~ 1e-5 from FD noise */
  qsort(w, (size_t)c, sizeof(double), cmpd);
  free(A), free(wr), free(wi);
  return c;
}

typedef enum family { AXIAL, TORSION, BENDING } family;

/* index set of a family in y = (q, ν) for a rod along e3 with frame identity */
static int family_idx(const cosrod_rod *rod, family f, int *idx) {
  int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod), m = 0;
  int comp_x = f == AXIAL ? 2 : 0, comp_p = f == TORSION ? 3 : 2, comp_om = f == TORSION ? 2 : 1;
  for (int pass = 0; pass < 2; ++pass) {
    for (int n = 0; n <= N; ++n) {
      if (f == TORSION || cosrod_rod_vertex_ndof(rod, n) != 3) continue;
      idx[m++] = pass == 0 ? cosrod_rod_qindex_vertex(rod, n) + comp_x
                           : nq + cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n) + comp_x;
    }
    for (int k = 0; k < N; ++k) {
      if (f == AXIAL) continue;
      idx[m++] = pass == 0 ? cosrod_rod_qindex_segment(rod, k) + comp_p
                           : nq + cosrod_rod_vindex_segment(rod, COSROD_FORM_NULLSPACE, k) + comp_om;
    }
  }
  return m;
}

/* first two frequencies of a family for N segments */
static void two_freqs(int N, int cantilever, family f, double out[2]) {
  cosrod_rod *rod = rubber(N, cantilever, 1.0);
  int n = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = malloc(sizeof(double) * (size_t)n);
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  double *J = dense_jac(rod, y, n);
  int *idx = malloc(sizeof(int) * (size_t)n);
  double *w = malloc(sizeof(double) * (size_t)n);
  int m = family_idx(rod, f, idx);
  int c = sub_freqs(J, n, idx, m, w);
  out[0] = c > 0 ? w[0] : 0.0;
  out[1] = c > 1 ? w[1] : 0.0;
  free(w), free(idx), free(J), free(y);
  cosrod_rod_free(rod);
}

static void convergence(const char *label, int cantilever, family f, const double exact[2]) {
  const int Ns[3] = {8, 16, 32};
  double e[3][2];
  for (int i = 0; i < 3; ++i) {
    double w[2];
    two_freqs(Ns[i], cantilever, f, w);
    for (int j = 0; j < 2; ++j) e[i][j] = fabs(w[j] - exact[j]) / exact[j];
    NOTE("%s N = %2d: ω1 = %.6g (exact %.6g), ω2 = %.6g (exact %.6g) 1/s", label, Ns[i], w[0], exact[0], w[1],
         exact[1]);
  }
  for (int j = 0; j < 2; ++j) {
    double o = log2(e[1][j] / e[2][j]);
    char what[128];
    snprintf(what, sizeof what, "%s mode %d: rel. error at N = 32 (%.2e, %.2e, %.2e)", label, j + 1, e[0][j],
             e[1][j], e[2][j]);
    /* second order: (jπΔs/L)²/24 ~ 2e-3 for mode 2 at N = 32 */
    CHECK_LE(what, e[2][j], 5e-3);
    snprintf(what, sizeof what, "%s mode %d: observed order between N = 16 and 32", label, j + 1);
    CHECK_CLOSE(what, o, 2.0, 0.0, 0.25);
  }
}

TEST(axial_free_free) {
  double c = sqrt(E / RHO), ex[2] = {RT_PI / L * c, 2 * RT_PI / L * c};
  convergence("axial free-free", 0, AXIAL, ex);
}

TEST(torsion_free_free) {
  double c = sqrt(E / (2 * (1 + NU)) / RHO), ex[2] = {RT_PI / L * c, 2 * RT_PI / L * c};
  convergence("torsion free-free", 0, TORSION, ex);
}

TEST(bending_cantilever) {
  double c = sqrt(E * R * R / 4.0 / RHO) / (L * L);
  double ex[2] = {1.8751040687 * 1.8751040687 * c, 4.6940911330 * 4.6940911330 * c};
  convergence("bending cantilever", 1, BENDING, ex);
}

/* Highest eigenfrequency of the whole linearised system (N = 10, κ = 0.89)
 * next to the pure-shear frequency √(κGA/(ρI)) = 14683 1/s of [LA] eq. 29. */
TEST(highest_frequency_vs_shear) {
  cosrod_rod *rod = rubber(10, 0, 0.89);
  int n = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = malloc(sizeof(double) * (size_t)n);
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  double *J = dense_jac(rod, y, n);
  int *idx = malloc(sizeof(int) * (size_t)n);
  double *w = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i) idx[i] = i;
  int c = sub_freqs(J, n, idx, n, w);
  double G = E / (2 * (1 + NU)), A = RT_PI * R * R, Iz = RT_PI * R * R * R * R / 4;
  double ws = sqrt(0.89 * G * A / (RHO * Iz));
  NOTE("N = 10: highest eigenfrequency %.1f 1/s, pure shear √(κGA/(ρI)) = %.1f 1/s", w[c - 1], ws);
  CHECK_NEAR("pure-shear reference value ([LA] §4d: 14683)", ws, 14683.0, 10.0);
  /* the highest discrete mode is a shear mode: rotation of the segments
   * against the translation of the vertices; it lies above the pure-shear
   * frequency (the vertex translations add stiffness) and within a factor 2 */
  CHECK("highest frequency in [ω_shear, 2 ω_shear]", w[c - 1] >= ws && w[c - 1] <= 2 * ws);
  free(w), free(idx), free(J), free(y);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(axial_free_free), TH_CASE(torsion_free_free),
                                TH_CASE(bending_cantilever), TH_CASE(highest_frequency_vs_shear)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
