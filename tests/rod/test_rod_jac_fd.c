// SPDX-License-Identifier: Apache-2.0
/* Finite-difference band Jacobians of the rod right-hand sides: the grouped
 * (Curtis–Powell–Reid) band FD against a plain dense column-by-column FD,
 * the claimed bandwidths (nothing outside the band), and the symmetry of the
 * conservative stiffness between vertex coordinates. */
#include <math.h>
#include <stdio.h>

#include "cosrod/band.h"
#include "rod_test_util.h"

typedef int (*rhs_fn)(const cosrod_rod *, cosrod_rod_data *, double, const double *, double *);

static cosrod_rod *make_rod(int damped, double *s, double *x, double *p, double *xd, double *Om, int N,
                            uint64_t seed) {
  th_rng r;
  th_rng_seed(&r, seed);
  rt_grid(&r, N, 1.0, s);
  rt_config(&r, N, s, 0.2, 1.0, x, p, xd, Om);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.grid = s, def.ngrid = N + 1;
  def.reference = COSROD_REFERENCE_STRAIGHT;
  def.curvature = COSROD_CURV_SINE4;
  def.gravity[2] = -9.81;
  if (damped) def.damping = COSROD_DAMPING_KELVIN_VOIGT, def.tau_shear = 0.01, def.tau_bulk = 0.01;
  /* clamped start with the frame of the first segment, sliding pinned end */
  double d1[3], d3[3];
  cosrod_quat_director(d1, p, 0), cosrod_quat_director(d3, p, 2);
  cosrod_vec3_copy(def.direction, d3), cosrod_vec3_copy(def.normal, d1);
  cosrod_vec3_copy(def.start, x);
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_PINNED, def.ends[1].slides = 1, def.ends[1].slide_axis[1] = 1.0;
  return cosrod_rod_create(&def, NULL);
}

/* dense FD block (n x n, column-major) of rows r0.., cols c0.. */
static void dense_fd(const cosrod_rod *rod, cosrod_rod_data *d, rhs_fn f, int ny, const double *y, int r0,
                     int c0, int n, double *D) {
  double *yy = malloc(sizeof(double) * (size_t)ny * 3), *fp = yy + ny, *fm = yy + 2 * ny;
  memcpy(yy, y, sizeof(double) * (size_t)ny);
  for (int j = 0; j < n; ++j) {
    double h = 6.0554544523933395e-06 * fmax(1.0, fabs(y[c0 + j]));
    yy[c0 + j] = y[c0 + j] + h;
    f(rod, d, 0.0, yy, fp);
    yy[c0 + j] = y[c0 + j] - h;
    f(rod, d, 0.0, yy, fm);
    yy[c0 + j] = y[c0 + j];
    double hh = (y[c0 + j] + h) - (y[c0 + j] - h);
    for (int i = 0; i < n; ++i) D[i + (size_t)n * j] = (fp[r0 + i] - fm[r0 + i]) / hh;
  }
  free(yy);
}

static void compare_block(const char *label, const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form,
                          const double *y, int r0, int c0, int n, int bw) {
  rhs_fn f = form == COSROD_FORM_NULLSPACE ? cosrod_rod_rhs_nullspace : cosrod_rod_rhs_absolute;
  int ny = cosrod_rod_ny(rod, form);
  cosrod_band *J = cosrod_band_create(n, bw, bw, NULL);
  double *D = malloc(sizeof(double) * (size_t)n * (size_t)n);
  cosrod_status st = cosrod_rod_jac_fd(rod, d, form, 0.0, y, r0, c0, J);
  dense_fd(rod, d, f, ny, y, r0, c0, n, D);
  double eb = 0.0, dm = 0.0, out = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double v = D[i + (size_t)n * j];
      if (i - j <= bw && j - i <= bw) {
        eb = fmax(eb, fabs(cosrod_band_get(J, i, j) - v));
        dm = fmax(dm, fabs(v));
      } else {
        out = fmax(out, fabs(v));
      }
    }
  char what[160];
  snprintf(what, sizeof what, "%s: jac_fd returns OK", label);
  CHECK(what, st == COSROD_OK);
  /* same differences up to the grouping: only roundoff from evaluating
   * several perturbed columns at once, 1e-9 of the largest entry */
  snprintf(what, sizeof what, "%s: band FD vs dense FD, max diff / max |J|", label);
  CHECK_LE(what, eb / dm, 1e-9);
  snprintf(what, sizeof what, "%s: max |J| outside bandwidth %d", label, bw);
  CHECK_LE(what, out, 0.0);
  free(D);
  cosrod_band_free(J);
}

TEST(band_fd_vs_dense_fd) {
  enum { N = 7 };
  double s[N + 1], x[3 * (N + 1)], p[4 * N], xd[3 * (N + 1)], Om[3 * N];
  cosrod_rod *rod = make_rod(1, s, x, p, xd, Om, N, 5);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int nq = cosrod_rod_nq(rod), nv = cosrod_rod_nv(rod, COSROD_FORM_NULLSPACE);
  double y[256];
  int mlq, muq, mlv, muv;
  cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, 0.0, x, p, xd, Om, y);
  cosrod_rod_bandwidth(rod, COSROD_FORM_ABSOLUTE, &mlq, &muq, &mlv, &muv);
  CHECK("absolute bandwidth 10 ([LLA] §3.4)", mlq == 10 && muq == 10 && mlv == 10);
  compare_block("absolute da/dq", rod, d, COSROD_FORM_ABSOLUTE, y, nq, 0, nq, mlq);
  compare_block("absolute da/dv", rod, d, COSROD_FORM_ABSOLUTE, y, nq, nq, nq, mlv);
  cosrod_rod_pack(rod, COSROD_FORM_NULLSPACE, 0.0, x, p, xd, Om, y);
  cosrod_rod_bandwidth(rod, COSROD_FORM_NULLSPACE, &mlq, &muq, &mlv, &muv);
  compare_block("nullspace dq'/dq", rod, d, COSROD_FORM_NULLSPACE, y, 0, 0, nq, mlq);
  compare_block("nullspace dν'/dν", rod, d, COSROD_FORM_NULLSPACE, y, nq, nq, nv, mlv);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

/* Undamped: m_i ∂a_i/∂x_j = -∂²V/∂x_i∂x_j is symmetric over vertex coordinates. */
TEST(stiffness_symmetric_vertices) {
  enum { N = 6 };
  double s[N + 1], x[3 * (N + 1)], p[4 * N], xd[3 * (N + 1)], Om[3 * N];
  cosrod_rod *rod = make_rod(0, s, x, p, xd, Om, N, 6);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int nq = cosrod_rod_nq(rod);
  double y[256];
  cosrod_rod_pack(rod, COSROD_FORM_ABSOLUTE, 0.0, x, p, NULL, NULL, y);
  cosrod_band *J = cosrod_band_create(nq, 10, 10, NULL);
  cosrod_rod_jac_fd(rod, d, COSROD_FORM_ABSOLUTE, 0.0, y, nq, 0, J);
  const double *w = cosrod_rod_vertex_weight(rod);
  double rhoA;
  cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
  double asym = 0.0, mx = 0.0;
  for (int a = 1; a < N; ++a)
    for (int b = 1; b < N; ++b) {
      int ia = cosrod_rod_qindex_vertex(rod, a), ib = cosrod_rod_qindex_vertex(rod, b);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          int r = ia + i, c = ib + j;
          if (!cosrod_band_in_band(J, r, c)) continue;
          double kij = rhoA * w[a] * cosrod_band_get(J, r, c), kji = rhoA * w[b] * cosrod_band_get(J, c, r);
          asym = fmax(asym, fabs(kij - kji));
          mx = fmax(mx, fabs(kij));
        }
    }
  /* central FD (h ~ 6e-6): truncation ~1e-11, roundoff ~1e-11 relative */
  CHECK_LE("vertex stiffness: max |K_ij - K_ji| / max |K|", asym / mx, 1e-9);
  cosrod_band_free(J);
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(band_fd_vs_dense_fd), TH_CASE(stiffness_symmetric_vertices)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
