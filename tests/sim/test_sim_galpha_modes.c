// SPDX-License-Identifier: Apache-2.0
/* galpha on rods, modal and error-control checks:
 *   - an undamped clamped steel rod started from the sum of two modal shapes
 *     (cosrod_statics_modes: the first bending mode and the 10th with h ω =
 *     2.5, at rest): the response projected on the 24 lowest shapes (least
 *     squares; the linear response stays in the span of the two) follows the closed-form
 *     generalized-α recurrence: the high mode decays at the spectral radius
 *     ρ(h ω_k) per step and the first mode keeps its amplitude within the
 *     predicted per-period loss ρ(h ω_1)^(T_1/h), for ρ∞ = 0.5 and 0;
 *   - the adaptive step (error estimate of galpha.c) on the rubber pendulum
 *     (0.5 s): the tip error against dop853 at 1e-12 decreases with rtol =
 *     atol from 1e-4 to 1e-7 (looser: h is held by Newton's convergence on
 *     the unresolved shear modes, ~50 steps, not by the estimate). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/rod.h"
#include "cosrod/sim.h"
#include "cosrod/statics.h"
#include "harness.h"
#include "sim_test_util.h"

/* Steel rod (L = 1, r = 0.01), clamped at s = 0, no loads, no gravity. */
static const char *STEEL =
    "cosrod: 1\n"
    "rods:\n"
    "  - length: 1.0\n"
    "    segments: 20\n"
    "    material: {E: 2.1e11, poisson: 0.3, density: 7850}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
    "    ends: {start: {type: clamped}}\n"
    "analysis: {type: dynamic, t_end: 10.0}\n"
    "solver: {integrator: galpha, h: 1.0e-3, rho_inf: 0.5, rtol: 1.0e-6, atol: 1.0e-9}\n"
    "output: {every: 1.0, vtk: false, plots: false}\n";

/* Closed-form characteristic polynomial of Chung–Hulbert generalized-α for
 * an undamped mode at Ω = h ω, written out from the defining equations (see
 * tests/integrate/test_galpha.c): P(λ) = A(λ)(λ-1)² + Ω² B(λ) Q(λ),
 * A = (1-α_m) λ + α_m, B = (1-α_f) λ + α_f, Q = β λ² + (γ+½-2β) λ + (½-γ+β).
 * c[0..3]: coefficients of λ^0..λ^3. */
static void ch_poly(double r, double Om, double c[4]) {
  double am = (2 * r - 1) / (r + 1), af = r / (r + 1), g = 0.5 - am + af, b = 0.25 * (1 - am + af) * (1 - am + af);
  double O2 = Om * Om;
  c[3] = (1 - am) + O2 * (1 - af) * b;
  c[2] = -2 * (1 - am) + am + O2 * ((1 - af) * (g + 0.5 - 2 * b) + af * b);
  c[1] = (1 - am) - 2 * am + O2 * ((1 - af) * (0.5 - g + b) + af * (g + 0.5 - 2 * b));
  c[0] = am + O2 * af * (0.5 - g + b);
}

/* Roots of c3 λ³ + c2 λ² + c1 λ + c0 (Durand–Kerner). */
static void cubic_roots(const double c[4], double complex z[3]) {
  z[0] = 0.4 + 0.9 * I;
  z[1] = z[0] * z[0];
  z[2] = z[1] * z[0];
  for (int it = 0; it < 500; it++)
    for (int i = 0; i < 3; i++) {
      double complex p = ((c[3] * z[i] + c[2]) * z[i] + c[1]) * z[i] + c[0], d = c[3];
      for (int j = 0; j < 3; j++)
        if (j != i) d *= z[i] - z[j];
      z[i] -= p / d;
    }
}

/* Spectral radius of the oscillating (principal) pair at Ω. */
static double principal_rho(double r, double Om) {
  double c[4];
  double complex z[3];
  ch_poly(r, Om, c);
  cubic_roots(c, z);
  double best = -1.0;
  for (int i = 0; i < 3; i++)
    if (fabs(cimag(z[i])) > 1e-12 && cabs(z[i]) > best) best = cabs(z[i]);
  return best;
}

/* δ = minimal coordinates of the rod state q against q0: δx per vertex, the
 * material rotation vector log(p0⁻¹ p) per segment (the chart of
 * cosrod_statics_apply), in the rod's null-space ν ordering. */
static void rod_delta(const cosrod_rod *rod, const double *q0, const double *q, double *d) {
  const int N = cosrod_rod_nseg(rod);
  for (int n = 0; n <= N; n++) {
    int iq = cosrod_rod_qindex_vertex(rod, n), iv = cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n);
    for (int k = 0; k < cosrod_rod_vertex_ndof(rod, n); k++) d[iv + k] = q[iq + k] - q0[iq + k];
  }
  for (int k = 0; k < N; k++) {
    const double *a = q0 + cosrod_rod_qindex_segment(rod, k), *b = q + cosrod_rod_qindex_segment(rod, k);
    /* e = conj(a) ∘ b */
    double e0 = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    double e1 = a[0] * b[1] - a[1] * b[0] - a[2] * b[3] + a[3] * b[2];
    double e2 = a[0] * b[2] + a[1] * b[3] - a[2] * b[0] - a[3] * b[1];
    double e3 = a[0] * b[3] - a[1] * b[2] + a[2] * b[1] - a[3] * b[0];
    double s = sqrt(e1 * e1 + e2 * e2 + e3 * e3), f = s > 1e-300 ? 2.0 * atan2(s, e0) / s : 2.0;
    double *o = d + cosrod_rod_vindex_segment(rod, COSROD_FORM_NULLSPACE, k);
    o[0] = f * e1, o[1] = f * e2, o[2] = f * e3;
  }
}

/* Least-squares modal coordinates e (m) of d (n) on the m columns phi
 * (m x n row-major): normal equations G e = phi d, G = phi phiᵀ by Cholesky
 * (work: m x m). */
static void project(const double *phi, int m, int n, const double *d, double *e, double *G) {
  for (int i = 0; i < m; i++) {
    double b = 0;
    for (int k = 0; k < n; k++) b += phi[(size_t)i * n + k] * d[k];
    e[i] = b;
    for (int j = 0; j <= i; j++) {
      double a = 0;
      for (int k = 0; k < n; k++) a += phi[(size_t)i * n + k] * phi[(size_t)j * n + k];
      for (int l = 0; l < j; l++) a -= G[i * m + l] * G[j * m + l];
      G[i * m + j] = i == j ? sqrt(a) : a / G[j * m + j];
    }
  }
  for (int i = 0; i < m; i++) {
    for (int l = 0; l < i; l++) e[i] -= G[i * m + l] * e[l];
    e[i] /= G[i * m + i];
  }
  for (int i = m - 1; i >= 0; i--) {
    for (int l = i + 1; l < m; l++) e[i] -= G[l * m + i] * e[l];
    e[i] /= G[i * m + i];
  }
}

/* Fit x_{k+3} = a2 x_{k+2} + a1 x_{k+1} + a0 x_k over k = k0 .. k1-4 (rows
 * scaled to unit size, normal equations, Cramer) and return the roots of
 * λ³ - a2 λ² - a1 λ - a0. */
static void fit_recurrence(const double *x, int k0, int k1, double complex z[3]) {
  double A[3][3] = {{0}}, b[3] = {0};
  for (int k = k0; k + 3 < k1; k++) {
    double s = 1.0 / (fabs(x[k]) + fabs(x[k + 1]) + fabs(x[k + 2]) + fabs(x[k + 3]) + 1e-300);
    double r[3] = {x[k + 2] * s, x[k + 1] * s, x[k] * s}, y = x[k + 3] * s;
    for (int i = 0; i < 3; i++) {
      b[i] += r[i] * y;
      for (int j = 0; j < 3; j++) A[i][j] += r[i] * r[j];
    }
  }
  double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
               A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  double a[3];
  for (int c = 0; c < 3; c++) {
    double M[3][3];
    memcpy(M, A, sizeof M);
    for (int i = 0; i < 3; i++) M[i][c] = b[i];
    a[c] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
            M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
           det;
  }
  double c[4] = {-a[2], -a[1], -a[0], 1.0};
  cubic_roots(c, z);
}

enum { NMODE = 24, KHIGH = 9, NSTEP = 1500 };

TEST(galpha_two_mode_decay) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(STEEL, "inline.yaml", NULL, 0, &sc);
  if (!sim) return;
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0); /* valid while its sim lives */
  const int nq = cosrod_rod_nq(rod), nv = cosrod_rod_nv(rod, COSROD_FORM_NULLSPACE), ny = cosrod_sim_ny(sim);
  CHECK("state = (q, nu) of the one rod", ny == nq + nv);
  double *q0 = malloc(sizeof(double) * (size_t)ny), *y = malloc(sizeof(double) * (size_t)ny);
  double *phi = malloc(sizeof(double) * (size_t)(NMODE * nv)), *d = malloc(sizeof(double) * (size_t)nv);
  double *x1 = malloc(sizeof(double) * NSTEP), *xk = malloc(sizeof(double) * NSTEP);
  double om[NMODE], eta[NMODE], G[NMODE * NMODE];
  memcpy(q0, cosrod_sim_state(sim), sizeof(double) * (size_t)ny);
  CHECK("modes of the stress-free rod",
        cosrod_statics_modes(rod, 0.0, q0, NMODE, om, NULL, NULL, phi) == COSROD_OK);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  /* the high mode: the 10th (the second of the 5th bending pair); h ω_k = 2.5 */
  const int km = KHIGH;
  const double h = 2.5 / om[km], T1 = 2.0 * 3.14159265358979323846 / om[0];
  NOTE("omega_1 = %.4f, omega_%d = %.4f rad/s, h = %.4e s (h w1 = %.4f)", om[0], km + 1, om[km], h, h * om[0]);
  const double rhos[2] = {0.5, 0.0};
  for (int m = 0; m < 2; m++) {
    char hs[64], rs[64];
    snprintf(hs, sizeof hs, "solver.h=%.17g", h);
    snprintf(rs, sizeof rs, "solver.rho_inf=%g", rhos[m]);
    const char *sets[] = {hs, rs};
    sim = sim_test_parse(STEEL, "inline.yaml", sets, 2, &sc);
    if (!sim) break;
    rod = cosrod_sim_rod(sim, 0); /* the same rod model, owned by this sim */
    cosrod_sim_set_energy_accounting(sim, 0);
    /* q = q0 ⊕ (a1 φ1 + ak φk), at rest; a1 φ1 moves the tip by ~1 mm */
    const double a1 = 1e-3, ak = 2e-4;
    for (int i = 0; i < nv; i++) d[i] = a1 * phi[i] + ak * phi[(size_t)km * nv + i];
    memcpy(y, q0, sizeof(double) * (size_t)ny);
    for (int n = 0; n <= cosrod_rod_nseg(rod); n++) {
      int iq = cosrod_rod_qindex_vertex(rod, n), iv = cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n);
      for (int k = 0; k < cosrod_rod_vertex_ndof(rod, n); k++) y[iq + k] += d[iv + k];
    }
    for (int k = 0; k < cosrod_rod_nseg(rod); k++) {
      const double *w = d + cosrod_rod_vindex_segment(rod, COSROD_FORM_NULLSPACE, k);
      double *p = y + cosrod_rod_qindex_segment(rod, k), th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      double c = cos(0.5 * th), s = th > 0 ? sin(0.5 * th) / th : 0.5;
      double e[4] = {c, s * w[0], s * w[1], s * w[2]}, o[4];
      o[0] = p[0] * e[0] - p[1] * e[1] - p[2] * e[2] - p[3] * e[3];
      o[1] = p[0] * e[1] + p[1] * e[0] + p[2] * e[3] - p[3] * e[2];
      o[2] = p[0] * e[2] - p[1] * e[3] + p[2] * e[0] + p[3] * e[1];
      o[3] = p[0] * e[3] + p[1] * e[2] - p[2] * e[1] + p[3] * e[0];
      memcpy(p, o, sizeof o);
    }
    for (int i = nq; i < ny; i++) y[i] = 0.0;
    CHECK("initial state set", cosrod_sim_set_state(sim, 0.0, y) == COSROD_OK);
    int ns = 0;
    for (; ns < NSTEP; ns++) {
      if (cosrod_sim_step(sim, h) != COSROD_OK) break;
      rod_delta(rod, q0, cosrod_sim_state(sim), d);
      project(phi, NMODE, nv, d, eta, G);
      x1[ns] = eta[0], xk[ns] = eta[km];
    }
    CHECK("all steps", ns == NSTEP);
    NOTE("  steps %ld rejected %ld convfail %ld newton %ld jac %ld", cosrod_sim_stats(sim)->naccept, cosrod_sim_stats(sim)->nreject, cosrod_sim_stats(sim)->nconvfail, cosrod_sim_stats(sim)->nnewton, cosrod_sim_stats(sim)->njev);
    if (ns < NSTEP) break;
    /* high mode: the three roots of its recurrence over steps 2..30 (the
     * amplitude falls from 2e-4 to ~1e-9: above the O(a1²) nonlinear
     * coupling) against the closed-form roots */
    double complex zf[3], zc[3];
    double c[4];
    fit_recurrence(xk, 2, 30, zf);
    ch_poly(rhos[m], h * om[km], c);
    cubic_roots(c, zc);
    double rf = 0, rc = principal_rho(rhos[m], h * om[km]), af = 0, ac = 0;
    for (int i = 0; i < 3; i++) {
      if (cimag(zf[i]) > 1e-9) rf = cabs(zf[i]), af = carg(zf[i]);
      if (cimag(zc[i]) > 1e-12) ac = carg(zc[i]);
    }
    NOTE("rho_inf %g: mode %d at h w = 2.5: spectral radius per step %.7f (closed form %.7f), phase per step %.7f "
         "(%.7f)", rhos[m], km + 1, rf, rc, af, ac);
    NOTE("  amplitude of mode %d after 30 steps: %.3e (start %.1e)", km + 1, fabs(xk[30]), ak);
    /* linear theory up to the nonlinear coupling of the modes (second order
     * in the amplitudes, ~1e-6 relative) and the Newton tolerance: measured
     * agreement ~1e-6; tolerance 1e-4 */
    CHECK_NEAR("high mode decays at the closed-form per-step spectral radius", rf, rc, 1e-4);
    CHECK_NEAR("high mode's numerical phase per step as the closed form", af, ac, 1e-4);
    /* first mode: amplitude over the first and the last period (sinusoid at
     * the numerical frequency ω1 of the closed form fitted by least squares;
     * the high mode has decayed) against ρ(h ω1)^(steps between the windows) */
    const int P = (int)floor(T1 / h), ka = 40, kb = NSTEP - P - 1;
    double complex z1[3];
    ch_poly(rhos[m], h * om[0], c);
    cubic_roots(c, z1);
    double arg = 0, r1 = 0;
    for (int i = 0; i < 3; i++)
      if (cimag(z1[i]) > 1e-12) arg = carg(z1[i]), r1 = cabs(z1[i]);
    double amp[2];
    for (int w = 0; w < 2; w++) { /* least-squares a cos(arg k) + b sin(arg k) on the decay-compensated window */
      const int k0 = w ? kb : ka;
      double cc = 0, cs = 0, ss = 0, cx = 0, sx = 0;
      for (int k = 0; k < P; k++) {
        double co = cos(arg * k), si = sin(arg * k), xv = x1[k0 + k] * pow(r1, -(double)k);
        cc += co * co, cs += co * si, ss += si * si, cx += co * xv, sx += si * xv;
      }
      double det = cc * ss - cs * cs, a = (cx * ss - cs * sx) / det, b = (cc * sx - cs * cx) / det;
      amp[w] = sqrt(a * a + b * b);
    }
    double ratio = amp[1] / amp[0], pred = pow(r1, (double)(kb - ka));
    double per_period = 1.0 - pow(r1, T1 / h);
    NOTE("  mode 1: h w1 %.4f, rho %.10f, loss per period %.3e; amplitude ratio over %.3f s %.6f (predicted %.6f)",
         h * om[0], r1, per_period, (kb - ka) * h, ratio, pred);
    /* within one period's worth of the predicted loss (measured: ~1e-6) */
    CHECK_NEAR("first mode keeps its amplitude as predicted (within one period's loss)", ratio, pred, per_period);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
    sim = NULL;
  }
  if (sim) {
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  free(q0), free(y), free(phi), free(d), free(x1), free(xk);
}

static double tip_error(const char *const *sets, size_t nsets, const double ref[3], long *steps) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_load("rubber-pendulum", sets, nsets, &sc);
  if (!sim) return NAN;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  double tip[3];
  cosrod_sim_tip(sim, 0, tip);
  if (steps) *steps = cosrod_sim_stats(sim)->naccept;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  if (!ref) return tip[0];
  return sqrt(pow(tip[0] - ref[0], 2) + pow(tip[1] - ref[1], 2) + pow(tip[2] - ref[2], 2));
}

TEST(galpha_adaptive_tip_error_vs_rtol) {
  double ref[3];
  cosrod_scenario *sc;
  const char *rs[] = {"analysis.t_end=0.5", "output.every=0.5", "solver.integrator=dop853", "solver.rtol=1e-12",
                      "solver.atol=1e-12"};
  cosrod_sim *sim = sim_test_load("rubber-pendulum", rs, 5, &sc);
  if (!sim) return;
  CHECK("reference ok", cosrod_sim_run(sim, NULL) == COSROD_OK);
  cosrod_sim_tip(sim, 0, ref);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  const char *tols[4] = {"1e-4", "1e-5", "1e-6", "1e-7"};
  double err[4];
  long steps[4];
  for (int i = 0; i < 4; i++) {
    char rt[32], at[32];
    snprintf(rt, sizeof rt, "solver.rtol=%s", tols[i]);
    snprintf(at, sizeof at, "solver.atol=%s", tols[i]);
    const char *gs[] = {"analysis.t_end=0.5", "output.every=0.5", "solver.integrator=galpha", "solver.h=0", rt, at};
    err[i] = tip_error(gs, 6, ref, &steps[i]);
    NOTE("rtol = atol = %s: %ld steps, tip error %.3e m", tols[i], steps[i], err[i]);
  }
  for (int i = 0; i + 1 < 4; i++) {
    /* local error O(h³) per step at tol: a global error ~ tol^(2/3), i.e.
     * 4.6x smaller per decade; at least 2x (the pendulum's tip moves ~0.5 m) */
    CHECK("tip error decreases with rtol (at least 2x per decade)", err[i + 1] < 0.5 * err[i]);
    CHECK("more steps at a tighter rtol", steps[i + 1] > steps[i]);
  }
  /* the tolerance is met in the order of magnitude: the global error is
   * within a few hundred local tolerances (steps x tol) */
  for (int i = 0; i < 4; i++) CHECK_LE("tip error <= steps x tol", err[i], (double)steps[i] * atof(tols[i]));
}

static const th_case cases[] = {TH_CASE(galpha_two_mode_decay), TH_CASE(galpha_adaptive_tip_error_vs_rtol)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
