// SPDX-License-Identifier: Apache-2.0
/* Statics of Kirchhoff rods: several rod ends attached to one rigid block
 * share its force rows in the least squares of the multipliers (see
 * statics_kirchhoff.c for the method). */
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/dense.h"
#include "statics/statics_kkt.h"

/* ---- several Kirchhoff ends on one rigid block ------------------------------
 * The least squares of λ over the rods' rows and the blocks' force rows:
 * each attached end lends its block's row to its rod's S (least_squares,
 * S0 = the parts' S, block diagonal), the rows shared by P >= 2 ends of one
 * block add the cross terms U_i (1/m_b) U_jᵀ (i != j; U_i the end segment's
 * rows of Gᵀ on the end vertex: ∓d_a), so
 *     S = S0 + 𝐔 C 𝐔ᵀ,  C = (1/m_b)(J_P - I_P) ⊗ I3,  C⁻¹ = m_b (J_P/(P-1) - I_P) ⊗ I3,
 * solved by Woodbury's identity from the factored S0:
 *     λ = λ0 - W (C⁻¹ + 𝐔ᵀW)⁻¹ 𝐔ᵀλ0,  W = S0⁻¹𝐔,  λ0 = S0⁻¹ b
 * (a dense 3n x 3n capacitance matrix for the n such ends). */
struct statics_kcouple {
  int n;           /* ends on blocks carrying >= 2 Kirchhoff ends */
  int *att, *P;    /* (n) attachment index, Kirchhoff ends of its block */
  cosrod_dense *K; /* (3n) capacitance */
  double *y;       /* (3n) */
};

/* Kirchhoff ends on the block of attachment a. */
static int kirchhoff_ends_on_block(const cosrod_statics *s, int a) {
  int P = 0;
  for (int i = 0; i < s->blk.nattach; ++i)
    P += s->blk.att_block[i] == s->blk.att_block[a] && s->part[s->blk.att_rod[i]].kkt;
  return P;
}

cosrod_status statics_kirchhoff_couple_init(cosrod_statics *s) {
  int n = 0;
  for (int a = 0; a < s->blk.nattach; ++a)
    n += s->part[s->blk.att_rod[a]].kkt && kirchhoff_ends_on_block(s, a) >= 2;
  if (n == 0) return COSROD_OK;
  struct statics_kcouple *kc = calloc(1, sizeof *kc);
  if (!kc) return COSROD_ERR_NOMEM;
  s->kcpl = kc;
  kc->att = calloc((size_t)n, sizeof(int));
  kc->P = calloc((size_t)n, sizeof(int));
  kc->y = calloc(3 * (size_t)n, sizeof(double));
  kc->K = cosrod_dense_create(3 * n, NULL);
  if (!kc->att || !kc->P || !kc->y || !kc->K) return COSROD_ERR_NOMEM;
  for (int a = 0; a < s->blk.nattach; ++a) {
    const int P = kirchhoff_ends_on_block(s, a);
    if (!s->part[s->blk.att_rod[a]].kkt || P < 2) continue;
    kc->att[kc->n] = a;
    kc->P[kc->n++] = P;
  }
  return COSROD_OK;
}

void statics_kirchhoff_couple_free(cosrod_statics *s) {
  struct statics_kcouple *kc = s->kcpl;
  if (!kc) return;
  free(kc->att);
  free(kc->P);
  free(kc->y);
  cosrod_dense_free(kc->K);
  free(kc);
  s->kcpl = NULL;
}

/* End i of the coupled list: its part, end, end segment, sign of U (G on the end vertex). */
static const statics_part *kc_end(const cosrod_statics *s, int a, int *e, int *j, double *sg) {
  const statics_part *p = &s->part[s->blk.att_rod[a]];
  *e = s->blk.att_end[a];
  *j = *e == 0 ? 0 : p->kkt->N - 1;
  *sg = *e == 0 ? -1.0 : 1.0;
  return p;
}

cosrod_status statics_kirchhoff_couple(cosrod_statics *s) {
  struct statics_kcouple *kc = s->kcpl;
  if (!kc || s->part[s->blk.att_rod[kc->att[0]]].kkt->frozen) return COSROD_OK;
  const int n = kc->n;
  cosrod_dense_zero(kc->K);
  for (int i = 0; i < n; ++i) { /* W_i = S0⁻¹ U_i */
    int e, j;
    double sg;
    const statics_part *p = kc_end(s, kc->att[i], &e, &j, &sg);
    const struct statics_kkt *k = p->kkt;
    const int mN = k->m * k->N;
    for (int c = 0; c < 3; ++c) {
      double *w = k->wcol + (size_t)(3 * e + c) * (size_t)mN;
      memset(w, 0, (size_t)mN * sizeof *w);
      for (int a = 0; a < k->m; ++a) w[k->m * j + a] = sg * k->dir[9 * j + 3 * a + c];
      cosrod_band_solve(k->S, w);
    }
  }
  for (int i = 0; i < n; ++i) { /* K = C⁻¹ + 𝐔ᵀW, y = 𝐔ᵀλ0 */
    int ei, ji;
    double si;
    const statics_part *pi = kc_end(s, kc->att[i], &ei, &ji, &si);
    const struct statics_kkt *k = pi->kkt;
    const int mN = k->m * k->N, bi = s->blk.att_block[kc->att[i]];
    for (int c = 0; c < 3; ++c) {
      double v = 0.0;
      for (int a = 0; a < k->m; ++a) v += si * k->dir[9 * ji + 3 * a + c] * k->rhs[k->m * ji + a];
      kc->y[3 * i + c] = v;
    }
    for (int l = 0; l < n; ++l) {
      int el, jl;
      double sl;
      const statics_part *pl = kc_end(s, kc->att[l], &el, &jl, &sl);
      if (s->blk.att_block[kc->att[l]] == bi) {
        const double mb = s->blk.mass[6 * bi], cinv = mb * (1.0 / (kc->P[i] - 1) - (i == l ? 1.0 : 0.0));
        for (int c = 0; c < 3; ++c) cosrod_dense_add(kc->K, 3 * i + c, 3 * l + c, cinv);
      }
      if (pl != pi) continue;
      for (int c = 0; c < 3; ++c)
        for (int c2 = 0; c2 < 3; ++c2) {
          const double *w = k->wcol + (size_t)(3 * el + c2) * (size_t)mN;
          double v = 0.0;
          for (int a = 0; a < k->m; ++a) v += si * k->dir[9 * ji + 3 * a + c] * w[k->m * ji + a];
          cosrod_dense_add(kc->K, 3 * i + c, 3 * l + c2, v);
        }
    }
  }
  if (cosrod_dense_factor(kc->K) != COSROD_OK) return COSROD_ERR_SINGULAR;
  cosrod_dense_solve(kc->K, kc->y);
  for (int i = 0; i < n; ++i) { /* λ = λ0 - W z */
    int e, j;
    double sg;
    statics_part *p = &s->part[s->blk.att_rod[kc->att[i]]];
    kc_end(s, kc->att[i], &e, &j, &sg);
    struct statics_kkt *k = p->kkt;
    const int mN = k->m * k->N;
    for (int c = 0; c < 3; ++c) {
      const double *w = k->wcol + (size_t)(3 * e + c) * (size_t)mN;
      for (int q = 0; q < mN; ++q) k->rhs[q] -= w[q] * kc->y[3 * i + c];
    }
  }
  for (int i = 0; i < n; ++i) {
    struct statics_kkt *k = s->part[s->blk.att_rod[kc->att[i]]].kkt;
    for (int jj = 0; jj < k->N; ++jj)
      for (int a = 0; a < k->m; ++a) k->lam[3 * jj + a] = k->rhs[k->m * jj + a];
  }
  return COSROD_OK;
}
