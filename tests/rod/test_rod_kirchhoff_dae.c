// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff rods in the index-1 DAE form (rod_kirchhoff.c, [LA] eq. 14,
 * Fig. 4a): at a consistent state the DAE right-hand side reproduces the
 * ODE-form accelerations (the Schur-complement solve, itself checked against
 * finite differences of g in test_rod_kirchhoff.c) with vanishing algebraic
 * rows; its Jacobian, computed here by dense central differences in the
 * node ordering, has no entry outside the band that cosrod_rod_order_fill
 * declares (so column-grouped differences over the band, also written here,
 * reproduce it with ml + mu + 1 column groups, independent of N); the DAE
 * projection lands on g = ġ = 0 with consistent multipliers. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rod_test_util.h"

/* Random DAE state: (q, v) perturbed from the initial shape, random rates,
 * random multipliers; then projected (which also sets the multipliers). */
static void random_dae_state(const cosrod_rod *rod, cosrod_rod_data *d, th_rng *r, double *y) {
  int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE), nq = cosrod_rod_nq(rod);
  cosrod_rod_initial_state(rod, COSROD_FORM_DAE, y);
  for (int i = 0; i < nq; ++i) y[i] += 0.01 * th_rng_normal(r);
  for (int i = nq; i < ny; ++i) y[i] = th_rng_normal(r);
  cosrod_status st = cosrod_rod_kirchhoff_project(rod, d, COSROD_FORM_DAE, 0.0, y, 20, NULL);
  CHECK("random DAE state projected", st == COSROD_OK);
}

static const char *model_name(cosrod_rod_model m) {
  return m == COSROD_MODEL_KIRCHHOFF_EXTENSIBLE ? "extensible" : "inextensible";
}

/* DAE f at a consistent state = ODE-form (v, a); the algebraic rows vanish
 * relative to their value with the multipliers set to zero (G a0 + h). */
TEST(dae_rhs_matches_ode_form) {
  th_rng rng;
  th_rng_seed(&rng, 11);
  for (int mi = 0; mi < 2; ++mi)
    for (int ends = 0; ends < 3; ++ends)
      for (int damped = 0; damped < 2; ++damped) {
        cosrod_rod_model model = mi ? COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE : COSROD_MODEL_KIRCHHOFF_EXTENSIBLE;
        cosrod_rod *rod = rt_helix_rod(model, 7, ends, damped);
        cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
        int nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod), m = cosrod_rod_kirchhoff_m(rod);
        int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
        CHECK("DAE size 2 nq + (1 + m) N", ny == 2 * nq + (1 + m) * N);
        double *y = calloc((size_t)ny, sizeof *y), *f = calloc((size_t)ny, sizeof *f);
        double *fa = calloc((size_t)(2 * nq), sizeof *fa), *f0 = calloc((size_t)ny, sizeof *f0);
        random_dae_state(rod, d, &rng, y);
        int rca = cosrod_rod_rhs_absolute(rod, d, 0.0, y, fa); /* (q, v) of DAE = ABSOLUTE layout */
        double F[3 * 16];
        for (int i = 0; i < 3 * N; ++i) F[i] = d->F[i];
        int rcd = cosrod_rod_kirchhoff_rhs_dae(rod, d, 0.0, y, f);
        CHECK("both right-hand sides evaluate", rca == 0 && rcd == 0);
        double amax = 0.0, da = 0.0, alg = 0.0, lq = 0.0, dF = 0.0;
        for (int i = 0; i < 2 * nq; ++i) {
          amax = fmax(amax, fabs(fa[i]));
          da = fmax(da, fabs(f[i] - fa[i]));
        }
        for (int k = 0; k < N; ++k) {
          lq = fmax(lq, fabs(f[2 * nq + k]));
          for (int a = 0; a < m; ++a) dF = fmax(dF, fabs(d->F[3 * k + a] - F[3 * k + a]));
        }
        for (int i = 2 * nq + N; i < ny; ++i) alg = fmax(alg, fabs(f[i]));
        /* multipliers zeroed: the unconstrained g̈ = G a0 + h */
        for (int i = 2 * nq + N; i < ny; ++i) y[i] = 0.0;
        cosrod_rod_kirchhoff_rhs_dae(rod, d, 0.0, y, f0);
        double alg0 = 0.0;
        for (int i = 2 * nq + N; i < ny; ++i) alg0 = fmax(alg0, fabs(f0[i]));
        char what[160];
        snprintf(what, sizeof what, "%s ends %d damped %d: DAE (v, a) = ODE form (rel. to max %.3g)",
                 model_name(model), ends, damped, amax);
        CHECK_LE(what, da, 1e-10 * amax);
        snprintf(what, sizeof what, "%s ends %d damped %d: constraint rows / unconstrained g'' (%.3g)",
                 model_name(model), ends, damped, alg0);
        CHECK_LE(what, alg, 1e-10 * alg0);
        CHECK("unconstrained g'' is not small", alg0 > 1.0);
        CHECK_LE("quaternion multiplier rows vanish", lq, 1e-9 * amax);
        CHECK_LE("d->F holds the state's multipliers", dF, 1e-12 * (1.0 + amax));
        free(y);
        free(f);
        free(fa);
        free(f0);
        cosrod_rod_data_free(d);
        cosrod_rod_free(rod);
      }
}

/* DAE f with y given in the node ordering (yb), result in that ordering. */
static int f_banded(const cosrod_rod *rod, cosrod_rod_data *d, const int *perm, int ny, const double *yb,
                    double *y, double *f, double *fb) {
  for (int i = 0; i < ny; ++i) y[i] = yb[perm[i]];
  int rc = cosrod_rod_kirchhoff_rhs_dae(rod, d, 0.0, y, f);
  for (int i = 0; i < ny; ++i) fb[perm[i]] = f[i];
  return rc;
}

/* Dense central differences of the DAE f in the node ordering: every entry
 * outside the declared band is zero (to difference noise), so the
 * column-grouped differences (columns ml + mu + 1 apart perturbed together)
 * give the same band; the bandwidths do not grow with N. */
TEST(dae_jacobian_banded_vs_dense_fd) {
  th_rng rng;
  th_rng_seed(&rng, 5);
  int mlN[2] = {0, 0}, muN[2] = {0, 0};
  for (int ci = 0; ci < 4; ++ci) {
    int damped = ci & 1, big = ci >> 1, N = big ? 16 : 8;
    cosrod_rod *rod = rt_helix_rod(COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE, N, 2, damped);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE), ml, mu;
    int *perm = malloc(sizeof(int) * (size_t)ny);
    cosrod_status st = cosrod_rod_order_fill(rod, COSROD_FORM_DAE, perm, NULL, &ml, &mu);
    CHECK("node ordering", st == COSROD_OK);
    if (!damped) {
      mlN[big] = ml;
      muN[big] = mu;
    }
    double *y = calloc((size_t)ny, sizeof *y), *yb = calloc((size_t)ny, sizeof *yb);
    double *f = calloc((size_t)ny, sizeof *f), *fp = calloc((size_t)ny, sizeof *fp),
           *fm = calloc((size_t)ny, sizeof *fm);
    double *J = calloc((size_t)ny * (size_t)ny, sizeof *J), *Jg = calloc((size_t)ny * (size_t)ny, sizeof *Jg);
    random_dae_state(rod, d, &rng, y);
    for (int i = 0; i < ny; ++i) yb[perm[i]] = y[i];
    /* dense: J[i + j ny], banded indices */
    for (int j = 0; j < ny; ++j) {
      double h = 1e-6 * fmax(1.0, fabs(yb[j])), s = yb[j];
      yb[j] = s + h;
      f_banded(rod, d, perm, ny, yb, y, f, fp);
      yb[j] = s - h;
      f_banded(rod, d, perm, ny, yb, y, f, fm);
      yb[j] = s;
      for (int i = 0; i < ny; ++i) J[i + (size_t)j * ny] = (fp[i] - fm[i]) / (2.0 * h);
    }
    /* column groups */
    int w = ml + mu + 1, nf = 0;
    double *hs = calloc((size_t)ny, sizeof *hs), *ys = calloc((size_t)ny, sizeof *ys);
    for (int g = 0; g < w && g < ny; ++g) {
      for (int j = 0; j < ny; ++j) ys[j] = yb[j];
      for (int j = g; j < ny; j += w) {
        hs[j] = 1e-6 * fmax(1.0, fabs(yb[j]));
        ys[j] = yb[j] + hs[j];
      }
      f_banded(rod, d, perm, ny, ys, y, f, fp);
      for (int j = g; j < ny; j += w) ys[j] = yb[j] - hs[j];
      f_banded(rod, d, perm, ny, ys, y, f, fm);
      nf += 2;
      for (int j = g; j < ny; j += w)
        for (int i = j - mu < 0 ? 0 : j - mu; i <= j + ml && i < ny; ++i)
          Jg[i + (size_t)j * ny] = (fp[i] - fm[i]) / (2.0 * hs[j]);
    }
    double jmax = 0.0, out = 0.0, dg = 0.0;
    int mlm = 0, mum = 0;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < ny; ++i) jmax = fmax(jmax, fabs(J[i + (size_t)j * ny]));
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < ny; ++i) {
        double v = J[i + (size_t)j * ny];
        if (i - j > ml || j - i > mu)
          out = fmax(out, fabs(v));
        else
          dg = fmax(dg, fabs(v - Jg[i + (size_t)j * ny]));
        if (fabs(v) > 1e-7 * jmax) {
          if (i - j > mlm) mlm = i - j;
          if (j - i > mum) mum = j - i;
        }
      }
    NOTE(
        "N = %d damped %d: ny %d, declared (ml, mu) = (%d, %d), measured (%d, %d), %d f for the band "
        "vs %d dense; max |J| %.3g, outside band %.3g, grouped - dense %.3g",
        N, damped, ny, ml, mu, mlm, mum, nf, 2 * ny, jmax, out, dg);
    CHECK_LE("no Jacobian entry outside the declared band", out, 1e-7 * jmax);
    CHECK_LE("column-grouped FD = dense FD on the band", dg, 1e-7 * jmax);
    CHECK("band is used (measured bandwidth near the declared one)", mlm >= ml - 12 && mum >= mu - 12);
    free(perm);
    free(y);
    free(yb);
    free(f);
    free(fp);
    free(fm);
    free(J);
    free(Jg);
    free(hs);
    free(ys);
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
  CHECK("bandwidths independent of N", mlN[0] == mlN[1] && muN[0] == muN[1]);
}

/* The DAE projection: g = ġ = 0 to round-off and multipliers consistent
 * (algebraic rows of f vanish) from a perturbed state with random λ. */
TEST(dae_projection_consistent) {
  th_rng rng;
  th_rng_seed(&rng, 3);
  for (int mi = 0; mi < 2; ++mi) {
    cosrod_rod_model model = mi ? COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE : COSROD_MODEL_KIRCHHOFF_EXTENSIBLE;
    cosrod_rod *rod = rt_helix_rod(model, 9, 1, 0);
    cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
    int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE), nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod);
    double *y = calloc((size_t)ny, sizeof *y), *f = calloc((size_t)ny, sizeof *f);
    cosrod_rod_initial_state(rod, COSROD_FORM_DAE, y);
    for (int i = 0; i < nq; ++i) y[i] += 1e-3 * th_rng_normal(&rng);
    for (int i = nq; i < ny; ++i) y[i] = th_rng_normal(&rng);
    double gp0, gv0, gp, gv, moved;
    cosrod_rod_kirchhoff_residual(rod, d, COSROD_FORM_DAE, 0.0, y, &gp0, &gv0);
    cosrod_status st = cosrod_rod_kirchhoff_project(rod, d, COSROD_FORM_DAE, 0.0, y, 20, &moved);
    CHECK("projection OK", st == COSROD_OK);
    cosrod_rod_kirchhoff_residual(rod, d, COSROD_FORM_DAE, 0.0, y, &gp, &gv);
    cosrod_rod_kirchhoff_rhs_dae(rod, d, 0.0, y, f);
    double alg = 0.0, amax = 0.0;
    for (int i = nq; i < 2 * nq; ++i) amax = fmax(amax, fabs(f[i]));
    for (int i = 2 * nq; i < ny; ++i) alg = fmax(alg, fabs(f[i]));
    NOTE("%s: |g| %.3g -> %.3g m, |g'| %.3g -> %.3g m/s, algebraic rows %.3g (max |a| %.3g)",
         model_name(model), gp0, gp, gv0, gv, alg, amax);
    const double ds = cosrod_rod_seg_length(rod)[0];
    CHECK_LE("positions on the constraints", gp, 8.0 * DBL_EPSILON * ds);
    CHECK_LE("velocities on the constraints", gv, 1e-12 * (1.0 + gv0));
    CHECK_LE("multipliers consistent", alg, 1e-9 * amax);
    CHECK("the input was off the constraints", gp0 > 1e-6);
    (void)N;
    free(y);
    free(f);
    cosrod_rod_data_free(d);
    cosrod_rod_free(rod);
  }
}

static const th_case cases[] = {TH_CASE(dae_rhs_matches_ode_form), TH_CASE(dae_jacobian_banded_vs_dense_fd),
                                TH_CASE(dae_projection_consistent)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
