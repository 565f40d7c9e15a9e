// SPDX-License-Identifier: Apache-2.0
/* Linear systems E = fac*M - J of the implicit integrators, dense or banded,
 * with the second-order (M1) reduction; see lsys.h for the formulas
 * (HW II §IV.8, special structure y'_i = y_{i+m2}). */
#include "integrate/lsys.h"

#include "integrate/lsys_sparse.h"

#include "cosrod/band_spike.h"
#include "core/par.h"

#include <stdlib.h>
#include <string.h>

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

void cosrod_lsys_free(cosrod_lsys *L) {
  if (!L) return;
  free(L->J);
  free(L->M);
  free(L->work);
  cosrod_lsys_sparse_free(L->S);
  cosrod_dense_free(L->Ed);
  cosrod_band_free(L->Eb);
  cosrod_band_spike_free(L->spike);
  free(L);
}

/* Banded E of order >= LSYS_SPIKE_MIN_N with threads != 1: the partitioned
 * SPIKE solver, one partition per thread.  The order is chosen from
 * bench/linalg/bench_spike on an idle 2-core machine (bench/results/spike.md):
 * 2 threads factor and solve 1.38-1.52x faster than the serial LU from
 * n = 1200 up (rod shapes of galpha and rodas); 2000 leaves a margin for the
 * fork-join cost (~10 us) against a factorisation of ~0.15 ms there.
 * Results then depend on the thread count at the rounding level (the
 * partitions are the threads). */
#define LSYS_SPIKE_MIN_N 2000
int cosrod_lsys_spike_threads(int n, int threads) {
  if (threads < 2 || n < LSYS_SPIKE_MIN_N) return 0;
  const int nt = cosrod_par_resolve(threads); /* 1 without OpenMP */
  return nt >= 2 ? nt : 0;
}

static int lsys_spike_create(cosrod_lsys *L, int threads) {
  const int nt = cosrod_lsys_spike_threads(L->nm1, threads);
  if (nt == 0) return 1;
  L->spike = cosrod_band_spike_create(L->nm1, L->Eb->ml, L->Eb->mu, nt, NULL);
  L->spike_threads = nt;
  return L->spike && cosrod_band_spike_set_threads(L->spike, nt) == COSROD_OK;
}

cosrod_status cosrod_lsys_create(cosrod_lsys **out, const cosrod_step_ctx *ctx) {
  return cosrod_lsys_create_ex(out, ctx, 0);
}

cosrod_status cosrod_lsys_create_ex(cosrod_lsys **out, const cosrod_step_ctx *ctx, int allow_sparse) {
  const cosrod_ode_problem *p = ctx->problem;
  *out = NULL;
  cosrod_lsys *L = calloc(1, sizeof *L);
  if (!L) return COSROD_ERR_NOMEM;
  const int n = ctx->n;
  L->n = n;
  if (allow_sparse && cosrod_sparse_jac_usable(p)) { /* m1 == 0, no or a diagonal mass matrix */
    L->nm1 = n;
    L->work = calloc((size_t)3 * (size_t)n, sizeof(double));
    L->tmp = L->work ? L->work + 2 * n : NULL;
    if (p->mass) { /* diagonal, stored as a band with ml = mu = 0 (ldm = 1) */
      L->has_mass = L->mass_banded = 1;
      L->ldm = 1;
      L->M = calloc((size_t)n, sizeof(double));
    }
    cosrod_status st = L->work && (!p->mass || L->M) ? cosrod_lsys_sparse_create(&L->S, p) : COSROD_ERR_NOMEM;
    if (st != COSROD_OK) {
      cosrod_lsys_free(L);
      return st;
    }
    *out = L;
    return COSROD_OK;
  }
  L->m1 = p->m1 > 0 ? p->m1 : 0;
  L->m2 = L->m1 > 0 ? (p->m2 > 0 ? p->m2 : L->m1) : 0;
  L->nm1 = n - L->m1;
  L->nblk = L->m1 > 0 ? L->m1 / L->m2 : 0;
  L->banded = p->jac_banded != 0;
  const int nm1 = L->nm1;
  if (L->banded) {
    if (p->jac_ml < 0 || p->jac_mu < 0 || (L->m1 > 0 && (p->jac_ml_q < 0 || p->jac_mu_q < 0))) {
      free(L);
      return COSROD_ERR_INVALID;
    }
    L->ml = p->jac_ml;
    L->mu = p->jac_mu;
    L->mlq = L->m1 > 0 ? p->jac_ml_q : 0;
    L->muq = L->m1 > 0 ? p->jac_mu_q : 0;
    L->ldj = L->m1 > 0 ? imax(L->mlq + L->muq, L->ml + L->mu) + 1 : L->ml + L->mu + 1;
  } else {
    L->ml = L->mu = nm1 - 1;
    L->ldj = nm1;
  }
  L->has_mass = p->mass != NULL;
  if (L->has_mass) {
    L->mass_banded = p->mass_banded != 0;
    if (L->mass_banded) {
      if (p->mass_ml < 0 || p->mass_mu < 0) {
        free(L);
        return COSROD_ERR_INVALID;
      }
      /* kept as stored (entry (i, j) at row mass_mu + i - j even when the
       * bandwidths exceed nm1 - 1); every loop clamps to the matrix */
      L->mass_ml = p->mass_ml;
      L->mass_mu = p->mass_mu;
      L->ldm = p->mass_ml + p->mass_mu + 1;
    } else {
      L->mass_ml = L->mass_mu = nm1 - 1;
      L->ldm = nm1;
    }
  }
  L->J = calloc((size_t)L->ldj * (size_t)n, sizeof(double));
  L->work = calloc((size_t)3 * (size_t)n, sizeof(double));
  L->tmp = L->work ? L->work + 2 * n : NULL;
  if (L->has_mass) L->M = calloc((size_t)L->ldm * (size_t)nm1, sizeof(double));
  int ok = L->J && L->work && (!L->has_mass || L->M);
  if (ok) {
    cosrod_linalg_backend be = ctx->opts->linalg_backend == 1 ? COSROD_LINALG_LAPACK : COSROD_LINALG_OWN;
    if (L->banded) {
      int eml = imax(L->ml, L->mlq), emu = imax(L->mu, L->muq);
      if (L->has_mass) eml = imax(eml, L->mass_ml), emu = imax(emu, L->mass_mu);
      L->Eb = cosrod_band_create(nm1, imin(eml, nm1 - 1), imin(emu, nm1 - 1), NULL);
      ok = L->Eb != NULL;
      if (ok) cosrod_band_set_backend(L->Eb, be);
      if (ok) ok = lsys_spike_create(L, ctx->opts->threads);
    } else {
      L->Ed = cosrod_dense_create(nm1, NULL);
      ok = L->Ed != NULL;
      if (ok) cosrod_dense_set_backend(L->Ed, be);
    }
  }
  if (!ok) {
    cosrod_lsys_free(L);
    return COSROD_ERR_NOMEM;
  }
  *out = L;
  return COSROD_OK;
}

int cosrod_lsys_load_mass(cosrod_lsys *L, cosrod_step_ctx *ctx) {
  if (!L->has_mass) return 0;
  memset(L->M, 0, sizeof(double) * (size_t)L->ldm * (size_t)L->nm1);
  const cosrod_ode_problem *p = ctx->problem;
  int rc = p->mass(L->M, L->ldm, p->user);
  if (rc != 0)
    cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t, "mass-matrix callback returned %d at t = %.17g", rc,
                     ctx->t);
  return rc;
}

int cosrod_lsys_jac(cosrod_lsys *L, cosrod_step_ctx *ctx, double t, const double *y, const double *fy) {
  if (L->S) return cosrod_lsys_sparse_jac(L->S, ctx, t, y, fy);
  return cosrod_step_call_jac(ctx, t, y, fy, L->J, L->ldj, L->work);
}

/* Mass-matrix entry M(i, j) of the nm1 x nm1 part (0 outside its band). */
static inline double mass_at(const cosrod_lsys *L, int i, int j) {
  if (!L->mass_banded) return L->M[(size_t)i + (size_t)j * (size_t)L->ldm];
  if (i - j > L->mass_ml || j - i > L->mass_mu) return 0.0;
  return L->M[(size_t)j * (size_t)L->ldm + (size_t)(L->mass_mu + i - j)];
}

void cosrod_lsys_mass_zero_rows(const cosrod_lsys *L, unsigned char *alg) {
  memset(alg, 0, (size_t)L->n);
  if (!L->has_mass) return;
  const int m1 = L->m1, nm1 = L->nm1;
  unsigned char *a = alg + m1; /* the first m1 rows are the identity's */
  for (int i = 0; i < nm1; i++) a[i] = 1;
  for (int j = 0; j < nm1; j++) {
    int lo = L->mass_banded ? imax(0, j - L->mass_mu) : 0;
    int hi = L->mass_banded ? imin(nm1 - 1, j + L->mass_ml) : nm1 - 1;
    for (int i = lo; i <= hi; i++)
      if (mass_at(L, i, j) != 0.0) a[i] = 0;
  }
}

int cosrod_lsys_zero_polled(void *data, int ncols, size_t col_bytes) {
  for (int c0 = 0; c0 < ncols; c0 += 2048) {
    if (cosrod_interrupt_pending()) return 1;
    const int nc = ncols - c0 < 2048 ? ncols - c0 : 2048;
    memset((char *)data + (size_t)c0 * col_bytes, 0, (size_t)nc * col_bytes);
  }
  return 0;
}

cosrod_status cosrod_lsys_factor(cosrod_lsys *L, double fac) {
  const int nm1 = L->nm1, m1 = L->m1, m2 = L->m2, K = L->nblk;
  const size_t ldj = (size_t)L->ldj;
  L->fac = fac;
  if (L->S) return cosrod_lsys_sparse_factor(L->S, fac, L->has_mass ? L->M : NULL);
  /* forming E (zeroing, copying J) takes ~1 s at N = 10^6: poll before it */
  if (cosrod_interrupt_pending()) return COSROD_ERR_INTERRUPTED;
  /* s_k = 1 / fac^(K-k) for the q-blocks */
  if (!L->banded) {
    cosrod_dense *E = L->Ed;
    double *e = E->data;
    for (int c = 0; c < nm1; c++) {
      const double *jc = L->J + (size_t)(m1 + c) * ldj;
      double *ec = e + (size_t)c * (size_t)nm1;
      for (int i = 0; i < nm1; i++) ec[i] = -jc[i];
    }
    double s = 1.0;
    for (int k = K - 1; k >= 0; k--) {
      s /= fac;
      for (int c = 0; c < m2; c++) {
        const double *jc = L->J + (size_t)(k * m2 + c) * ldj;
        double *ec = e + (size_t)c * (size_t)nm1;
        for (int i = 0; i < nm1; i++) ec[i] -= s * jc[i];
      }
    }
    if (L->has_mass) {
      for (int c = 0; c < nm1; c++) {
        int lo = L->mass_banded ? imax(0, c - L->mass_mu) : 0;
        int hi = L->mass_banded ? imin(nm1 - 1, c + L->mass_ml) : nm1 - 1;
        for (int i = lo; i <= hi; i++) e[(size_t)c * (size_t)nm1 + (size_t)i] += fac * mass_at(L, i, c);
      }
    } else {
      for (int i = 0; i < nm1; i++) e[(size_t)i * (size_t)nm1 + (size_t)i] += fac;
    }
    E->factored = 0;
    return cosrod_dense_factor(E);
  }
  cosrod_band *E = L->Eb;
  E->factored = 0;
  E->singular_col = -1;
  if (cosrod_lsys_zero_polled(E->data, E->n, (size_t)E->ld * sizeof(double))) return COSROD_ERR_INTERRUPTED;
  for (int c = 0; c < nm1; c++) {
    const double *jc = L->J + (size_t)(m1 + c) * ldj + (size_t)L->mu;
    double *ec = cosrod_band_col(E, c);
    int lo = imax(-c, -L->mu), hi = imin(nm1 - 1 - c, L->ml);
    for (int r = lo; r <= hi; r++) ec[r] = -jc[r];
  }
  double s = 1.0;
  for (int k = K - 1; k >= 0; k--) {
    s /= fac;
    for (int c = 0; c < m2; c++) {
      const double *jc = L->J + (size_t)(k * m2 + c) * ldj + (size_t)L->muq;
      double *ec = cosrod_band_col(E, c);
      int lo = imax(-c, -L->muq), hi = imin(nm1 - 1 - c, L->mlq);
      for (int r = lo; r <= hi; r++) ec[r] -= s * jc[r];
    }
  }
  if (L->has_mass) {
    for (int c = 0; c < nm1; c++) {
      double *ec = cosrod_band_col(E, c);
      int lo = imax(-c, -L->mass_mu), hi = imin(nm1 - 1 - c, L->mass_ml);
      for (int r = lo; r <= hi; r++) ec[r] += fac * mass_at(L, c + r, c);
    }
  } else {
    for (int c = 0; c < nm1; c++) cosrod_band_col(E, c)[0] += fac;
  }
  return L->spike ? cosrod_band_spike_factor(L->spike, E) : cosrod_band_factor(E);
}

void cosrod_lsys_solve(cosrod_lsys *L, double *b) {
  const int m1 = L->m1, m2 = L->m2, K = L->nblk, nm1 = L->nm1;
  const double fac = L->fac;
  const size_t ldj = (size_t)L->ldj;
  if (L->S) {
    cosrod_lsys_sparse_solve(L->S, b);
    return;
  }
  double *rv = b + m1;
  if (m1 > 0) {
    /* a_k (stored in tmp) and r_v += sum_k J_k a_k */
    double *a = L->tmp;
    for (int k = K - 1; k >= 0; k--)
      for (int c = 0; c < m2; c++) {
        double next = k == K - 1 ? 0.0 : a[(k + 1) * m2 + c];
        a[k * m2 + c] = (b[k * m2 + c] + next) / fac;
      }
    for (int k = 0; k < K; k++)
      for (int c = 0; c < m2; c++) {
        double ac = a[k * m2 + c];
        if (ac == 0.0) continue;
        const double *jc = L->J + (size_t)(k * m2 + c) * ldj;
        if (L->banded) {
          int lo = imax(0, c - L->muq), hi = imin(nm1 - 1, c + L->mlq);
          for (int i = lo; i <= hi; i++) rv[i] += jc[L->muq + i - c] * ac;
        } else {
          for (int i = 0; i < nm1; i++) rv[i] += jc[i] * ac;
        }
      }
  }
  if (L->spike)
    cosrod_band_spike_solve(L->spike, rv);
  else if (L->banded)
    cosrod_band_solve(L->Eb, rv);
  else
    cosrod_dense_solve(L->Ed, rv);
  if (m1 > 0) {
    for (int k = K - 1; k >= 0; k--) {
      const double *next = k == K - 1 ? rv : b + (k + 1) * m2;
      for (int c = 0; c < m2; c++) b[k * m2 + c] = (b[k * m2 + c] + next[c]) / fac;
    }
  }
}

void cosrod_lsys_mass_mult(const cosrod_lsys *L, const double *x, double *y) {
  const int m1 = L->m1, nm1 = L->nm1;
  if (!L->has_mass) {
    memcpy(y, x, sizeof(double) * (size_t)L->n);
    return;
  }
  memcpy(y, x, sizeof(double) * (size_t)m1);
  const double *xv = x + m1;
  double *yv = y + m1;
  for (int i = 0; i < nm1; i++) yv[i] = 0.0;
  for (int j = 0; j < nm1; j++) {
    double xj = xv[j];
    if (xj == 0.0) continue;
    int lo = L->mass_banded ? imax(0, j - L->mass_mu) : 0;
    int hi = L->mass_banded ? imin(nm1 - 1, j + L->mass_ml) : nm1 - 1;
    for (int i = lo; i <= hi; i++) yv[i] += mass_at(L, i, j) * xj;
  }
}
