// SPDX-License-Identifier: Apache-2.0
/* Sign of the determinant from KLU's factors (cosrod_sparse_det_sign),
 * against the determinant of the same matrix by Gaussian elimination with
 * partial pivoting written here (dense, small n): random sparse matrices
 * whose pivoting and block triangular ordering permute rows and columns,
 * and a symmetric tridiagonal family whose determinant changes sign as a
 * shift passes its eigenvalues (closed form: eigenvalues of tridiag(-1, 2,
 * -1) are 2 - 2 cos(k pi / (n + 1)); det(T - s I) < 0 for an odd number
 * of them below s). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sparse.h"
#include "harness.h"

enum { NMAX = 12 };

static double dense_det(int n, double *a) { /* a (n x n, column-major), destroyed */
  double det = 1.0;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(a[i + n * k]) > fabs(a[p + n * k])) p = i;
    if (a[p + n * k] == 0.0) return 0.0;
    if (p != k) {
      det = -det;
      for (int j = 0; j < n; j++) {
        double t = a[k + n * j];
        a[k + n * j] = a[p + n * j], a[p + n * j] = t;
      }
    }
    det *= a[k + n * k];
    for (int i = k + 1; i < n; i++) {
      double f = a[i + n * k] / a[k + n * k];
      for (int j = k; j < n; j++) a[i + n * j] -= f * a[k + n * j];
    }
  }
  return det;
}

/* CSC of the dense a (entries != 0) into A's pattern; returns the matrix. */
static cosrod_sparse *from_dense(int n, const double *a) {
  int colptr[NMAX + 1], rowind[NMAX * NMAX], nz = 0;
  for (int j = 0; j < n; j++) {
    colptr[j] = nz;
    for (int i = 0; i < n; i++)
      if (a[i + n * j] != 0.0) rowind[nz++] = i;
  }
  colptr[n] = nz;
  cosrod_status st;
  cosrod_sparse *A = cosrod_sparse_create(n, colptr, rowind, &st);
  if (!A) return NULL;
  for (int j = 0, k = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      if (a[i + n * j] != 0.0) A->data[k++] = a[i + n * j];
  return A;
}

TEST(det_sign_random) {
  if (!cosrod_sparse_available()) {
    NOTE("KLU not built in: cosrod_sparse_det_sign returns 0");
    CHECK("no KLU: 0", cosrod_sparse_det_sign(NULL, NULL) == 0);
    return;
  }
  unsigned seed = 12345u;
  int agree = 0, tried = 0;
  for (int trial = 0; trial < 200; trial++) {
    const int n = 3 + trial % (NMAX - 2);
    double a[NMAX * NMAX], b[NMAX * NMAX];
    for (int k = 0; k < n * n; k++) {
      seed = seed * 1103515245u + 12345u;
      const double u = (double)((seed >> 8) & 0xffff) / 65536.0;
      a[k] = u < 0.6 ? 0.0 : 4.0 * u - 3.0; /* sparse, both signs */
    }
    for (int i = 0; i < n; i++) /* a permuted diagonal keeps most matrices regular */
      a[i + n * ((i * 5 + trial) % n)] += (trial & 1) ? -1.5 : 1.5;
    memcpy(b, a, sizeof(double) * (size_t)(n * n));
    const double det = dense_det(n, b);
    cosrod_sparse *A = from_dense(n, a);
    int work[NMAX];
    if (A && fabs(det) > 1e-8 && cosrod_sparse_factor(A) == COSROD_OK) {
      tried++;
      agree += cosrod_sparse_det_sign(A, work) == (det > 0 ? 1 : -1);
    }
    cosrod_sparse_free(A);
  }
  NOTE("%d of %d regular random matrices: KLU's determinant sign agrees with elimination", agree, tried);
  CHECK("enough regular matrices", tried >= 150);
  CHECK("every sign agrees", agree == tried);
}

TEST(det_sign_shifted_tridiagonal) {
  if (!cosrod_sparse_available()) return;
  const double PI = 3.14159265358979323846;
  const int n = 9;
  for (int m = 0; m <= n; m++) { /* shift between the m-th and (m+1)-th eigenvalue */
    const double lo = m == 0 ? -1.0 : 2 - 2 * cos(m * PI / (n + 1)), hi = m == n ? 5.0 : 2 - 2 * cos((m + 1) * PI / (n + 1));
    const double s = 0.5 * (lo + hi);
    double a[NMAX * NMAX] = {0};
    for (int i = 0; i < n; i++) {
      a[i + n * i] = 2.0 - s;
      if (i > 0) a[i + n * (i - 1)] = a[i - 1 + n * i] = -1.0;
    }
    cosrod_sparse *A = from_dense(n, a);
    int work[NMAX];
    const int ok = A && cosrod_sparse_factor(A) == COSROD_OK;
    const int sg = ok ? cosrod_sparse_det_sign(A, work) : 0;
    CHECK("det(T - s I) sign = (-1)^(eigenvalues below s)", sg == ((m % 2) ? -1 : 1));
    cosrod_sparse_free(A);
  }
}

static const th_case cases[] = {TH_CASE(det_sign_random), TH_CASE(det_sign_shifted_tridiagonal)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
