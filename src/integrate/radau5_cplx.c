// SPDX-License-Identifier: Apache-2.0
/* Complex iteration matrix of radau5 (see radau5_cplx.h). */
#include "integrate/radau5_cplx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band_spike.h"
#include "integrate/lsys_sparse.h"

/* Entries of one stored column: v[i] is the entry of local row i for
 * lo <= i <= hi (rows outside are zero). */
typedef struct col_span {
  const double *v;
  int lo, hi;
} col_span;

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

/* Column j (global, 0 .. n-1) of the stored (reduced) Jacobian. */
static col_span jac_column(const cosrod_lsys *L, int j) {
  col_span s = {L->J + (size_t)j * (size_t)L->ldj, 0, L->nm1 - 1};
  if (!L->banded) return s;
  const int in_q = j < L->m1;
  const int c = in_q ? j % L->m2 : j - L->m1; /* column inside its block */
  const int mu = in_q ? L->muq : L->mu, ml = in_q ? L->mlq : L->ml;
  s.v += mu - c; /* entry (i, c) at offset mu + i - c */
  s.lo = imax(0, c - mu);
  s.hi = imin(L->nm1 - 1, c + ml);
  return s;
}

/* Column c of the stored mass block (order nm1). */
static col_span mass_column(const radau5_cplx *C, int c) {
  const cosrod_lsys *L = C->L;
  col_span s = {L->M + (size_t)c * (size_t)L->ldm, 0, L->nm1 - 1};
  if (!L->mass_banded) return s;
  s.v += L->mass_mu - c;
  s.lo = imax(0, c - L->mass_mu);
  s.hi = imin(L->nm1 - 1, c + L->mass_ml);
  return s;
}

void radau5_cplx_free(radau5_cplx *C) {
  if (!C) return;
  cosrod_zdense_free(C->Ed);
  cosrod_zband_free(C->Eb);
  cosrod_zband_spike_free(C->spike);
  cosrod_sparse_free(C->Es);
  free(C->zw);
  free(C->carry);
  free(C);
}

cosrod_status radau5_cplx_create(radau5_cplx **out, const cosrod_lsys *L, cosrod_linalg_backend backend) {
  *out = NULL;
  radau5_cplx *C = calloc(1, sizeof *C);
  if (!C) return COSROD_ERR_NOMEM;
  C->L = L;
  C->carry = calloc((size_t)imax(L->m1, 1), sizeof *C->carry);
  int ok = C->carry != NULL;
  if (ok && L->S) { /* sparse shape (lsys_sparse.c): m1 == 0, no or a diagonal mass matrix (L->M, n) */
    C->Es = cosrod_sparse_create_complex(L->n, L->S->E->colptr, L->S->E->rowind, NULL);
    C->es_version = L->S->version;
    C->zw = malloc(2 * (size_t)L->n * sizeof *C->zw);
    ok = C->Es && C->zw;
  } else if (ok && L->banded) {
    C->Eb = cosrod_zband_create(L->nm1, L->Eb->ml, L->Eb->mu, NULL);
    ok = C->Eb && cosrod_zband_set_backend(C->Eb, backend) == COSROD_OK;
    if (ok && L->spike) { /* the complex SPIKE with the real one's partitions and threads */
      C->spike = cosrod_zband_spike_create(L->nm1, L->Eb->ml, L->Eb->mu, L->spike_threads, NULL);
      ok = C->spike && cosrod_zband_spike_set_threads(C->spike, L->spike_threads) == COSROD_OK;
    }
  } else if (ok) {
    C->Ed = cosrod_zdense_create(L->nm1, NULL);
    ok = C->Ed && cosrod_zdense_set_backend(C->Ed, backend) == COSROD_OK;
  }
  if (!ok) {
    radau5_cplx_free(C);
    return COSROD_ERR_NOMEM;
  }
  *out = C;
  return COSROD_OK;
}

/* Accumulate column c of E2 = fac M - J_v - sum_k fac^-(K-k) J_k into e,
 * entry of row r at e[r + shift] (dense: shift 0; band: the column pointer
 * and shift -c). */
static void assemble_column(const radau5_cplx *C, double complex fac, int c, double complex *e, int shift) {
  const cosrod_lsys *L = C->L;
  col_span jv = jac_column(L, L->m1 + c);
  for (int r = jv.lo; r <= jv.hi; r++) e[r + shift] -= jv.v[r];
  if (c < L->m2) {
    /* q-blocks enter the first m2 columns with weight fac^-(K-k) */
    double complex weight = 1.0;
    for (int k = L->nblk - 1; k >= 0; k--) {
      weight /= fac;
      col_span jq = jac_column(L, k * L->m2 + c);
      for (int r = jq.lo; r <= jq.hi; r++) e[r + shift] -= weight * jq.v[r];
    }
  }
  if (L->has_mass) {
    col_span m = mass_column(C, c);
    for (int r = m.lo; r <= m.hi; r++) e[r + shift] += fac * m.v[r];
  } else {
    e[c + shift] += fac;
  }
}

cosrod_status radau5_cplx_factor(radau5_cplx *C, double complex fac) {
  if (cosrod_interrupt_pending()) return COSROD_ERR_INTERRUPTED; /* before forming E (lsys.c) */
  const int nm1 = C->L->nm1;
  C->fac = fac;
  if (C->L->S) { /* fac M (diagonal) minus J, on E's pattern (lsys_sparse.c) */
    const cosrod_lsys_sparse *S = C->L->S;
    if (!C->Es || C->es_version != S->version) { /* the pattern grew: new structure, symbolic analysis */
      cosrod_sparse_free(C->Es);
      C->Es = cosrod_sparse_create_complex(nm1, S->E->colptr, S->E->rowind, NULL);
      if (!C->Es) return COSROD_ERR_NOMEM;
      C->es_version = S->version;
    }
    const double *md = C->L->has_mass ? C->L->M : NULL;
    double *e = C->Es->data;
    memset(e, 0, 2 * (size_t)C->Es->nnz * sizeof *e);
    for (int j = 0; j < nm1; j++) {
      const double mj = md ? md[j] : 1.0;
      e[2 * S->dpos[j]] = mj * creal(fac), e[2 * S->dpos[j] + 1] = mj * cimag(fac);
    }
    for (int k = 0; k < S->sj.nnz; k++) e[2 * S->jpos[k]] -= S->Jx[k];
    for (int k = 0; k < 2 * C->Es->nnz; k++)
      if (!isfinite(e[k])) return COSROD_ERR_NONFINITE;
    cosrod_status st = cosrod_sparse_factor(C->Es);
    return st == COSROD_ERR_NOMEM ? st : (st != COSROD_OK ? COSROD_ERR_SINGULAR : COSROD_OK);
  }
  if (C->Eb) {
    cosrod_zband *E = C->Eb;
    E->factored = 0;
    E->singular_col = -1;
    if (cosrod_lsys_zero_polled(E->data, E->n, (size_t)E->ld * sizeof(double complex)))
      return COSROD_ERR_INTERRUPTED;
    for (int c = 0; c < nm1; c++) assemble_column(C, fac, c, cosrod_zband_col(C->Eb, c), -c);
    return C->spike ? cosrod_zband_spike_factor(C->spike, C->Eb) : cosrod_zband_factor(C->Eb);
  }
  for (int c = 0; c < nm1; c++) {
    double complex *col = C->Ed->data + (size_t)c * (size_t)nm1;
    for (int r = 0; r < nm1; r++) col[r] = 0.0;
    assemble_column(C, fac, c, col, 0);
  }
  return cosrod_zdense_factor(C->Ed);
}

void radau5_cplx_solve(radau5_cplx *C, double *re, double *im) {
  const cosrod_lsys *L = C->L;
  if (C->L->S) {
    for (int i = 0; i < L->n; i++) C->zw[2 * i] = re[i], C->zw[2 * i + 1] = im[i];
    cosrod_sparse_solve(C->Es, C->zw);
    for (int i = 0; i < L->n; i++) re[i] = C->zw[2 * i], im[i] = C->zw[2 * i + 1];
    return;
  }
  const int m1 = L->m1, m2 = L->m2, K = L->nblk;
  const double complex fac = C->fac;
  double *rv = re + m1, *iv = im + m1;
  if (m1 > 0) {
    /* forward elimination of fac u_k - u_{k+1} = r_k: a_k = (r_k + a_{k+1})/fac,
     * then r_v += sum_k J_k a_k */
    double complex *a = C->carry;
    for (int k = K - 1; k >= 0; k--)
      for (int c = 0; c < m2; c++) {
        const int j = k * m2 + c;
        const double complex next = k == K - 1 ? 0.0 : a[j + m2];
        a[j] = (re[j] + I * im[j] + next) / fac;
      }
    for (int j = 0; j < m1; j++) {
      col_span jq = jac_column(L, j);
      const double ar = creal(a[j]), ai = cimag(a[j]);
      for (int r = jq.lo; r <= jq.hi; r++) {
        rv[r] += jq.v[r] * ar;
        iv[r] += jq.v[r] * ai;
      }
    }
  }
  if (C->spike)
    cosrod_zband_spike_solve_split(C->spike, rv, iv);
  else if (C->Eb)
    cosrod_zband_solve_split(C->Eb, rv, iv);
  else
    cosrod_zdense_solve_split(C->Ed, rv, iv);
  if (m1 > 0) {
    /* back substitution u_k = (r_k + u_{k+1})/fac, u_K = u_v[0 : m2] */
    for (int k = K - 1; k >= 0; k--)
      for (int c = 0; c < m2; c++) {
        const int j = k * m2 + c, jn = j + m2;
        const double complex u = (re[j] + I * im[j] + re[jn] + I * im[jn]) / fac;
        re[j] = creal(u);
        im[j] = cimag(u);
      }
  }
}
