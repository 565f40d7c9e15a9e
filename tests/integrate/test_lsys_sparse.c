// SPDX-License-Identifier: Apache-2.0
/* The sparse Jacobian shape (cosrod_ode_problem.jac_sparse) of the implicit
 * integrators: E = fac I - J formed on the CSC pattern plus the diagonal and
 * solved by KLU against a dense Gaussian elimination written here; rodas and
 * seulex on a "hub + chain" problem (a chain whose two ends are coupled to
 * one extra unknown placed last, as a body attached to both ends of a rod:
 * the band is full; radau5 also solves its complex system by KLU) with the
 * sparse shape against the same problem with the
 * full band.  The finite-difference Jacobians are bitwise equal (same
 * increments, and every f_i depends on one column of each group), so the
 * runs differ only by the round-off of the two LU factorisations: the same
 * step sequence, and states equal to 1e-10 relative.  Measured (rodas, FD,
 * 89 steps): 1.8e-11 between KLU and our band LU, 3.7e-12 between KLU and
 * LAPACK's band LU -- the spread of round-off between LU codes (~1e-14 per
 * solve), carried through the step-size control; 8e-16 with the analytic
 * Jacobian.  A wrong pattern entry or formation gives O(1e-3) or worse.
 * The same with a diagonal mass matrix diag(1, .., 1, 0) (the hub equation
 * algebraic, index 1: the DAE forms of the simulation driver): E = fac M - J
 * on the sparse path against the band path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "cosrod/sparse.h"
#include "harness.h"
#include "integrate/lsys_sparse.h"

enum { M = 40, NH = M + 1 }; /* chain y_0 .. y_{M-1}, hub y_M */
static const double K = 400.0;

static int hub_rhs(double t, const double *y, double *f, void *user) {
  (void)t, (void)user;
  const double h = y[M];
  for (int i = 0; i < M; i++) {
    double l = i > 0 ? y[i - 1] : h, r = i < M - 1 ? y[i + 1] : h;
    f[i] = K * (l - 2.0 * y[i] + r) - y[i] * y[i] * y[i];
  }
  f[M] = K * (y[0] + y[M - 1] - 2.0 * h) - h * h * h + 0.1 * sin(3.0 * h);
  return 0;
}

/* pattern: tridiagonal chain, hub row/column at the chain's ends, hub diagonal */
static int hub_cp[NH + 1], hub_ri[3 * NH + 4];
static void hub_pattern(void) {
  int e = 0;
  hub_cp[0] = 0;
  for (int j = 0; j < NH; j++) {
    if (j < M) {
      for (int i = j - 1; i <= j + 1; i++)
        if (i >= 0 && i < M) hub_ri[e++] = i;
      if (j == 0 || j == M - 1) hub_ri[e++] = M;
    } else {
      hub_ri[e++] = 0, hub_ri[e++] = M - 1, hub_ri[e++] = M;
    }
    hub_cp[j + 1] = e;
  }
}

/* analytic Jacobian in the pattern's order */
static int hub_jac_sp(double t, const double *y, double *Jx, void *user) {
  (void)t, (void)user;
  const double h = y[M];
  for (int j = 0; j < NH; j++)
    for (int k = hub_cp[j]; k < hub_cp[j + 1]; k++) {
      int i = hub_ri[k];
      double v;
      if (i == M && j == M)
        v = -2.0 * K - 3.0 * h * h + 0.3 * cos(3.0 * h);
      else if (i == j)
        v = -2.0 * K - 3.0 * y[i] * y[i];
      else
        v = K; /* every off-diagonal coupling is a spring */
      Jx[k] = v;
    }
  return 0;
}
static int hub_jac_dense(double t, const double *y, double *J, int ldj, void *user) {
  double Jx[3 * NH + 4];
  hub_jac_sp(t, y, Jx, user);
  for (int j = 0; j < NH; j++)
    for (int k = hub_cp[j]; k < hub_cp[j + 1]; k++) J[hub_ri[k] + (size_t)j * ldj] = Jx[k];
  return 0;
}

/* x <- A^-1 b by Gaussian elimination with partial pivoting (A: n x n col-major, destroyed). */
static void gauss_solve(int n, double *A, double *b) {
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int i = c + 1; i < n; i++)
      if (fabs(A[i + (size_t)c * n]) > fabs(A[p + (size_t)c * n])) p = i;
    for (int j = 0; j < n; j++) {
      double t = A[c + (size_t)j * n];
      A[c + (size_t)j * n] = A[p + (size_t)j * n], A[p + (size_t)j * n] = t;
    }
    double t = b[c];
    b[c] = b[p], b[p] = t;
    for (int i = c + 1; i < n; i++) {
      double l = A[i + (size_t)c * n] / A[c + (size_t)c * n];
      for (int j = c; j < n; j++) A[i + (size_t)j * n] -= l * A[c + (size_t)j * n];
      b[i] -= l * b[c];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= A[i + (size_t)j * n] * b[j];
    b[i] = s / A[i + (size_t)i * n];
  }
}

TEST(lsys_sparse_formation_vs_dense) {
  CHECK("KLU built in (libsuitesparse-dev)", cosrod_sparse_available());
  if (!cosrod_sparse_available()) return;
  /* a pattern without some diagonal entries (E gains them) and with a dense
   * last row / column; random values */
  enum { N = 30 };
  int cp[N + 1], ri[N * N], e = 0;
  cp[0] = 0;
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) {
      int in =
          (abs(i - j) <= 2 && !(i == j && j % 4 == 1)) || i == N - 1 || j == N - 1 || (i == 3 && j == 20);
      if (in) ri[e++] = i;
    }
    cp[j + 1] = e;
  }
  cosrod_ode_problem p = {0};
  p.n = N;
  p.f = hub_rhs; /* unused here */
  p.jac_sparse = 1;
  p.jac_colptr = cp;
  p.jac_rowind = ri;
  cosrod_lsys_sparse *S = NULL;
  CHECK("create", cosrod_lsys_sparse_create(&S, &p) == COSROD_OK && S);
  if (!S) return;
  int nodiag = 0; /* columns 1, 5, .., 25 (29 has its diagonal through the dense last row) */
  for (int j = 1; j < N - 1; j += 4) nodiag++;
  CHECK("E = J's pattern + the 7 missing diagonal entries", nodiag == 7 && S->E->nnz == e + nodiag);
  double A[N * N], b[N], x[N], md[N], worst = 0.0;
  for (int j = 0; j < N; j++) md[j] = j % 3 == 2 ? 0.0 : 1.0 + 0.1 * j; /* round 2: diagonal M with zeros */
  unsigned s = 12345u;
  for (int round = 0; round < 3; round++) {
    const double fac = round == 0 ? 2.5 : (round == 1 ? 1e3 : 0.01);
    for (int k = 0; k < e; k++) {
      s = s * 1103515245u + 12345u;
      S->Jx[k] = ((s >> 8) & 0xffff) / 32768.0 - 1.0;
    }
    memset(A, 0, sizeof A);
    for (int j = 0; j < N; j++) {
      A[j + j * N] = round == 2 ? fac * md[j] : fac;
      for (int k = cp[j]; k < cp[j + 1]; k++) A[ri[k] + j * N] -= S->Jx[k];
    }
    for (int i = 0; i < N; i++) b[i] = x[i] = sin(1.0 + i);
    CHECK("factor", cosrod_lsys_sparse_factor(S, fac, round == 2 ? md : NULL) == COSROD_OK);
    cosrod_lsys_sparse_solve(S, x);
    gauss_solve(N, A, b);
    for (int i = 0; i < N; i++) worst = fmax(worst, fabs(x[i] - b[i]) / (1.0 + fabs(b[i])));
  }
  /* |x - b| <= cond(E) n u |x|, cond(E) < 1e3 for these draws: 1e-11 */
  CHECK_LE("KLU solve of fac M - J vs dense elimination, fac = 2.5, 1e3 (M = I), 0.01 (M diagonal)", worst, 1e-11);
  cosrod_lsys_sparse_free(S);
}

static void hub_y0(double *y) {
  for (int i = 0; i < M; i++) y[i] = sin(3.14159 * (i + 0.5) / M) + 0.3 * cos(0.7 * i);
  y[M] = 0.8;
}

/* DAE variant: M = diag(1, .., 1, 0), the hub row algebraic (banded 0/0) */
static int hub_mass(double *Mb, int ldm, void *user) {
  (void)ldm, (void)user;
  for (int i = 0; i < M; i++) Mb[i] = 1.0;
  Mb[M] = 0.0;
  return 0;
}

/* consistent hub value of the DAE: Newton on f_M(y, h) = 0 */
static void hub_consistent(double *y) {
  double f[NH];
  for (int it = 0; it < 50; it++) {
    hub_rhs(0.0, y, f, NULL);
    const double h = y[M], dg = -2.0 * K - 3.0 * h * h + 0.3 * cos(3.0 * h);
    y[M] -= f[M] / dg;
    if (fabs(f[M]) < 1e-14) break;
  }
}

static int run_ex(const char *method, int sparse, int analytic, int dae, double *y, cosrod_integrate_stats *st) {
  cosrod_ode_problem p = {0};
  p.n = NH;
  p.f = hub_rhs;
  if (dae) p.mass = hub_mass, p.mass_banded = 1, p.mass_ml = p.mass_mu = 0;
  p.jac_banded = 1; /* the full band: hub last */
  p.jac_ml = p.jac_mu = NH - 1;
  if (analytic) p.jac = hub_jac_dense, p.jac_banded = 0;
  if (sparse) {
    p.jac_sparse = 1;
    p.jac_colptr = hub_cp;
    p.jac_rowind = hub_ri;
    if (analytic) p.jac_sp = hub_jac_sp;
  }
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-7;
  cosrod_status s;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name(method), &p, &o, &s);
  if (!it) return -1;
  hub_y0(y);
  if (dae) hub_consistent(y);
  s = cosrod_integrate(it, 0.0, y, 0.5, NULL, y);
  *st = *cosrod_integrator_stats(it);
  cosrod_integrator_free(it);
  return s == COSROD_OK ? 0 : -1;
}

static void compare_ex(const char *method, int analytic, int dae) {
  hub_pattern();
  double yb[NH], ys[NH];
  cosrod_integrate_stats sb, ss;
  CHECK("band run", run_ex(method, 0, analytic, dae, yb, &sb) == 0);
  CHECK("sparse run", run_ex(method, 1, analytic, dae, ys, &ss) == 0);
  double d = 0.0, ymax = 0.0;
  for (int i = 0; i < NH; i++) d = fmax(d, fabs(ys[i] - yb[i])), ymax = fmax(ymax, fabs(yb[i]));
  NOTE("%s%s%s: steps %ld / %ld, nfev %ld / %ld (band / sparse), max|y| %.3g", method,
       analytic ? " (analytic J)" : "", dae ? " (DAE, diagonal M)" : "", sb.nsteps, ss.nsteps, sb.nfev, ss.nfev, ymax);
  CHECK("the solution moved (not a trivial comparison)", fabs(yb[M] - 0.8) > 1e-3);
  CHECK_LE("max |y_sparse - y_band| / max |y|", d / ymax, 1e-10);
  CHECK("same accepted steps", sb.naccept == ss.naccept);
  CHECK("same rejected steps", sb.nreject == ss.nreject);
  CHECK("same Jacobians", sb.njev == ss.njev);
  if (!analytic) /* band FD: NH evaluations per Jacobian (stride >= n); sparse: the CPR groups */
    CHECK("fewer f evaluations with the groups", ss.nfev < sb.nfev);
}

static void compare(const char *method, int analytic) { compare_ex(method, analytic, 0); }

TEST(rodas_sparse_equals_band) { compare("rodas", 0); }
TEST(dae_mass_sparse_equals_band) { /* E = fac M - J with a singular diagonal M, real and complex (radau5) */
  compare_ex("rodas", 0, 1);
  compare_ex("seulex", 0, 1);
  compare_ex("radau5", 0, 1);
}
TEST(rodas_sparse_analytic_equals_dense) { compare("rodas", 1); }
TEST(seulex_sparse_equals_band) { compare("seulex", 0); }
TEST(radau5_sparse_equals_band) { compare("radau5", 0); } /* real and complex KLU */

TEST(sparse_groups_of_hub_chain) {
  hub_pattern();
  cosrod_ode_problem p = {0};
  p.n = NH;
  p.jac_sparse = 1;
  p.jac_colptr = hub_cp;
  p.jac_rowind = hub_ri;
  cosrod_sparse_jac sj;
  CHECK("init", cosrod_sparse_jac_init(&sj, &p) == COSROD_OK);
  /* chain columns group with stride 3; the hub column and the two end columns
   * share the hub row: an optimal colouring needs 4 or 5, the band needs NH */
  NOTE("groups %d for n = %d", sj.ngroup, NH);
  CHECK_LE("groups", sj.ngroup, 5);
  CHECK("groups >= 3 (tridiagonal core)", sj.ngroup >= 3);
  cosrod_sparse_jac_free(&sj);
}

static const th_case cases[] = {
    TH_CASE(lsys_sparse_formation_vs_dense),     TH_CASE(rodas_sparse_equals_band),
    TH_CASE(rodas_sparse_analytic_equals_dense), TH_CASE(seulex_sparse_equals_band),
    TH_CASE(radau5_sparse_equals_band),          TH_CASE(sparse_groups_of_hub_chain),
    TH_CASE(dae_mass_sparse_equals_band),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
