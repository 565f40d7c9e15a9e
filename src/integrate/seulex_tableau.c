// SPDX-License-Identifier: Apache-2.0
/* Linearly implicit Euler sweep, extrapolation tableau and dense output of
 * seulex (see seulex_tableau.h; HW II §IV.9).  No control decisions here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/seulex_tableau.h"

/* Storage of the last r increments of row r (r = 1 .. rows). */
static double *kept_increments(const seulex_tableau *T, int r) {
  return T->kept + (size_t)(r * (r - 1) / 2) * (size_t)T->n;
}

double *seulex_tableau_row(const seulex_tableau *T, double *base, int j) {
  return base + (size_t)(j - 1) * (size_t)T->n;
}

void seulex_tableau_free(seulex_tableau *T) {
  if (!T) return;
  free(T->tab);
  free(T->kept);
  free(T);
}

cosrod_status seulex_tableau_create(seulex_tableau **out, int n, int rows, const int *nseq) {
  *out = NULL;
  if (n < 1 || rows < 2 || rows > SEULEX_TABLEAU_MAX_ROWS || !nseq) return COSROD_ERR_INVALID;
  for (int j = 1; j <= rows; j++)
    if (nseq[j] < j || (j > 1 && nseq[j] <= nseq[j - 1])) return COSROD_ERR_INVALID;
  seulex_tableau *T = calloc(1, sizeof *T);
  if (!T) return COSROD_ERR_NOMEM;
  T->n = n;
  T->rows = rows;
  for (int j = 1; j <= rows; j++) T->nseq[j] = nseq[j];
  const size_t nb = (size_t)n, nkept = (size_t)(rows * (rows + 1) / 2);
  T->tab = calloc((size_t)rows * nb + 3 * nb, sizeof(double));
  T->kept = calloc((nkept + 2 * (size_t)rows) * nb, sizeof(double));
  if (!T->tab || !T->kept) {
    seulex_tableau_free(T);
    return COSROD_ERR_NOMEM;
  }
  T->y_sub = T->tab + (size_t)rows * nb;
  T->f_sub = T->y_sub + nb;
  T->delta = T->f_sub + nb;
  T->derivs = T->kept + nkept * nb;
  T->deriv_tab = T->derivs + (size_t)rows * nb;
  *out = T;
  return COSROD_OK;
}

cosrod_status seulex_sweep_factor(cosrod_lsys *L, cosrod_step_ctx *ctx, const seulex_tableau *T, int j,
                                  double H) {
  cosrod_status st = cosrod_lsys_factor(L, T->nseq[j] / H);
  if (st == COSROD_OK) ctx->stats->ndecomp++;
  return st;
}

/* Solve for the increment of substep i (f already in T->delta), keep it when
 * it is one of the last j of the row, advance y_sub; then f for substep i + 1
 * unless i is the last.  Returns the f code. */
static int substep(seulex_tableau *T, cosrod_lsys *L, cosrod_step_ctx *ctx, int j, int i, double t0, double hj) {
  const int n = T->n, nsub = T->nseq[j];
  const size_t bytes = sizeof(double) * (size_t)n;
  const int shift = ctx->problem->time_dependent ? 1 : 0; /* f at the substep's end */
  cosrod_lsys_solve(L, T->delta);
  ctx->stats->nsolve++;
  if (i >= nsub - j) memcpy(kept_increments(T, j) + (size_t)(i - (nsub - j)) * (size_t)n, T->delta, bytes);
  for (int c = 0; c < n; c++) T->y_sub[c] += T->delta[c];
  if (i == nsub - 1) return 0;
  return cosrod_step_call_f(ctx, t0 + (i + 1 + shift) * hj, T->y_sub, T->f_sub);
}

int seulex_sweep_first(seulex_tableau *T, cosrod_lsys *L, cosrod_step_ctx *ctx, int j, double t0,
                       const double *y0, const double *f0, double H) {
  const size_t bytes = sizeof(double) * (size_t)T->n;
  const double hj = H / T->nseq[j];
  T->dense_column = 0;
  memcpy(T->y_sub, y0, bytes);
  if (!ctx->problem->time_dependent) {
    memcpy(T->delta, f0, bytes);
  } else {
    int rc = cosrod_step_call_f(ctx, t0 + hj, T->y_sub, T->delta);
    if (rc != 0) return rc;
  }
  return substep(T, L, ctx, j, 0, t0, hj);
}

int seulex_sweep_finish(seulex_tableau *T, cosrod_lsys *L, cosrod_step_ctx *ctx, int j, double t0, double H) {
  const size_t bytes = sizeof(double) * (size_t)T->n;
  const int nsub = T->nseq[j];
  const double hj = H / nsub;
  for (int i = 1; i < nsub; i++) {
    memcpy(T->delta, T->f_sub, bytes);
    int rc = substep(T, L, ctx, j, i, t0, hj);
    if (rc != 0) return rc;
  }
  memcpy(seulex_tableau_row(T, T->tab, j), T->y_sub, bytes);
  return 0;
}

void seulex_tableau_extrapolate(const seulex_tableau *T, double *base, int lo, int r) {
  const int n = T->n;
  for (int l = r; l > lo; l--) {
    const double ratio = (double)T->nseq[r] / (double)T->nseq[l - 1] - 1.0;
    const double *hi = seulex_tableau_row(T, base, l);
    double *below = seulex_tableau_row(T, base, l - 1);
    for (int i = 0; i < n; i++) below[i] = hi[i] + (hi[i] - below[i]) / ratio;
  }
}

double seulex_tableau_error(const seulex_tableau *T, cosrod_step_ctx *ctx, const double *weight) {
  const int n = T->n;
  const double *best = seulex_tableau_row(T, T->tab, 1), *next = seulex_tableau_row(T, T->tab, 2);
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    double e = (best[i] - next[i]) / weight[i];
    sum += e * e;
  }
  if (!isfinite(sum)) {
    ctx->nonfinite = 1;
    return INFINITY;
  }
  return sqrt(sum / n);
}

/* ∇^(k−1) Δ_last = Σ_q (−1)^q C(k−1, q) Δ_{last−q} over the kept increments
 * of row r (k ≤ r), times scale, into out. */
static void backward_difference(const seulex_tableau *T, int r, int k, double scale, double *out) {
  const int n = T->n;
  const double *kept = kept_increments(T, r);
  double binom = 1.0;
  for (int i = 0; i < n; i++) out[i] = 0.0;
  for (int q = 0; q < k; q++) {
    const double cf = (q % 2 ? -binom : binom) * scale;
    const double *d = kept + (size_t)(r - 1 - q) * (size_t)n;
    for (int i = 0; i < n; i++) out[i] += cf * d[i];
    binom *= (double)(k - 1 - q) / (double)(q + 1);
  }
}

/* d_k = H^k y^(k)(t1)/k! ≈ n_r^k/k! ∇^k y_{n_r}, extrapolated over rows
 * r = k .. c; d_c from P(−1) = y0. */
void seulex_dense_prepare(seulex_tableau *T, int c, const double *y0, const double *y1) {
  const int n = T->n;
  double factorial = 1.0;
  for (int k = 1; k < c; k++) {
    factorial *= k;
    for (int r = k; r <= c; r++) {
      backward_difference(T, r, k, pow((double)T->nseq[r], k) / factorial,
                          seulex_tableau_row(T, T->deriv_tab, r));
      seulex_tableau_extrapolate(T, T->deriv_tab, k, r);
    }
    memcpy(seulex_tableau_row(T, T->derivs, k), seulex_tableau_row(T, T->deriv_tab, k),
           sizeof(double) * (size_t)n);
  }
  /* P(−1) = y1 + Σ_{k<c} d_k (−1)^k + d_c (−1)^c = y0 */
  double *last = seulex_tableau_row(T, T->derivs, c);
  for (int i = 0; i < n; i++) {
    double rest = y0[i] - y1[i];
    for (int k = 1; k < c; k++) rest -= (k % 2 ? -1.0 : 1.0) * seulex_tableau_row(T, T->derivs, k)[i];
    last[i] = c % 2 ? -rest : rest;
  }
  T->dense_column = c;
}

void seulex_dense_eval(const seulex_tableau *T, const double *y1, double theta, const int *idx, int nidx,
                       double *out) {
  const int c = T->dense_column;
  const double sv = theta - 1.0;
  const int m = idx ? nidx : T->n;
  for (int q = 0; q < m; q++) {
    const int i = idx ? idx[q] : q;
    double poly = 0.0; /* Horner in s */
    for (int k = c; k >= 1; k--) poly = (poly + seulex_tableau_row(T, T->derivs, k)[i]) * sv;
    out[q] = y1[i] + poly;
  }
}
