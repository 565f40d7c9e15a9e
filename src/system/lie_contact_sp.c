// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, galpha with rod-rod and self-contact (rods without
 * bodies): sparse tangent Jacobians K, C (cosrod_ode_problem.jac_tangent_sp,
 * tangent_pattern) with the contact's cross blocks, which the rods' bands
 * of sim_lie_jac_tangent_rods leave out (Newton then stalls at every
 * contact between rods).
 *
 * Pattern (nv x nv, the ν part of the LIE layout, lie_layout.c): each
 * rod's ν-ν band (lie_ml, lie_mu) within its block, plus 3 x 3 vertex
 * blocks (rows: ν = ẋ of vertex i, columns: ẋ of vertex j).  It starts as
 * the bands and grows: a contact block found outside is remembered by the
 * evaluation (its entries left out) and its vertex pair with the neighbours
 * (i-1..i+1 x j-1..j+1, both orders, so that a contact point sliding by a
 * segment stays inside) is added when galpha asks for the pattern; galpha
 * then rebuilds KLU's analysis and evaluates again (stats.npattern).
 *
 * Values (at the contact of the last right-hand side until the pattern
 * first grows, as the band path, then at y).  The rods' own blocks (the contact blocks of neighbouring vertices
 * of one rod included, through the rod's load Jacobian) from
 * sim_lie_jac_tangent_rods; the cross blocks from the contact's analytic
 * vertex blocks (cosrod_contact_blocks: K_b = ∂F_i/∂x_j, D_b = ∂F_i/∂ẋ_j)
 * as in the first-order form (contact_jac_sp.c), in galpha's tangent
 * coordinates: a vertex position moves additively (x ⊕ w = x + w_x, B = I,
 * lie_layout.c) and its velocity is the ν component itself, so with the
 * translational equation m_i ẍ_i = F_i + ... ([LLA] eq. 25)
 *   K(ẋ_i, ẋ_j) = K_b / m_i,   C(ẋ_i, ẋ_j) = D_b / m_i,   m_i = ρA ds_i. */
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/rod.h"
#include "cosrod/sparse.h"
#include "system/contact_jac_sp.h"
#include "system/system_model.h"

struct sim_lie_sp {
  int nv, nnz, ml, mu, ld;
  int *cp, *ri;       /* current pattern (nv + 1), (nnz) */
  int *own0, *own1;   /* (nv) first and last ν index of the rod block of each ν */
  int *blk, nblk, cblk; /* extra vertex blocks (row0, col0) of ν, sorted, unique */
  int *pend, npend, cpend; /* blocks found outside since the last pattern call */
  long version;
  int *pos;           /* (nv ld) pattern position of each band entry, -1 outside */
  double *Kb, *Cb;    /* (nv ld) band scratch */
  int **gv;           /* (nrods) (N + 1) ν index of vertex n's ẋ, -1: not free */
  double **minv;      /* (nrods) (N + 1) 1 / m_n */
};

void sim_lie_sp_free(sys_system *s) {
  sim_lie_sp *P = s->d->lsp;
  if (!P) return;
  for (size_t r = 0; r < s->m->nrods; r++) {
    if (P->gv) free(P->gv[r]);
    if (P->minv) free(P->minv[r]);
  }
  free(P->gv), free(P->minv), free(P->cp), free(P->ri), free(P->own0), free(P->own1);
  free(P->blk), free(P->pend), free(P->pos), free(P->Kb), free(P->Cb);
  free(P);
  s->d->lsp = NULL;
}

/* The CSC pattern from the bands and the blocks, and the band positions. */
static int build(sim_lie_sp *P) {
  const int nv = P->nv;
  /* entries (column, row): the bands, then 9 per block; sorted, unique */
  size_t cap = (size_t)nv * (size_t)P->ld + 9 * (size_t)P->nblk, m = 0;
  int *e = malloc(2 * (cap ? cap : 1) * sizeof *e);
  int *cp = malloc((size_t)(nv + 1) * sizeof *cp);
  if (!e || !cp) return free(e), free(cp), -1;
  for (int j = 0; j < nv; j++)
    for (int i = j - P->mu; i <= j + P->ml; i++)
      if (i >= P->own0[j] && i <= P->own1[j]) e[2 * m] = j, e[2 * m + 1] = i, m++;
  for (int b = 0; b < P->nblk; b++)
    for (int c = 0; c < 3; c++)
      for (int a = 0; a < 3; a++) e[2 * m] = P->blk[2 * b + 1] + c, e[2 * m + 1] = P->blk[2 * b] + a, m++;
  const size_t u = sim_pairs_sort_unique(e, m);
  int *ri = malloc((u ? u : 1) * sizeof *ri);
  if (!ri) return free(e), free(cp), -1;
  memset(cp, 0, (size_t)(nv + 1) * sizeof *cp);
  for (size_t k = 0; k < u; k++) cp[e[2 * k] + 1]++, ri[k] = e[2 * k + 1];
  for (int j = 0; j < nv; j++) cp[j + 1] += cp[j];
  free(e);
  free(P->cp), free(P->ri);
  P->cp = cp, P->ri = ri, P->nnz = (int)u;
  for (int j = 0; j < nv; j++)
    for (int d = 0; d < P->ld; d++) {
      const int i = j - P->mu + d;
      P->pos[(size_t)j * (size_t)P->ld + (size_t)d] = i >= 0 && i < nv ? sim_csc_find(cp, ri, i, j) : -1;
    }
  return 0;
}

/* Append the vertex block (row0, col0) to list *l (2 ints each; grows by 2). */
static int push(int **l, int *n, int *c, int r0, int c0) {
  if (*n == *c) {
    const int cap = *c ? 2 * *c : 16;
    int *p = realloc(*l, 2 * (size_t)cap * sizeof *p);
    if (!p) return -1;
    *l = p, *c = cap;
  }
  (*l)[2 * *n] = r0, (*l)[2 * *n + 1] = c0, (*n)++;
  return 0;
}

int sim_lie_sp_supported(const sys_system *s) {
  const sys_def *def = s->m->def;
  if (!s->m->lie || !s->d->contact || s->d->cpl || s->d->lie_fd || s->d->lie_cj || !cosrod_sparse_available())
    return 0;
  if (!(def->contact.rods && s->m->nrods >= 2) && !def->contact.self) return 0;
  const char *env = getenv("COSROD_CONTACT_BAND"); /* benchmarks: the band path for comparison */
  return def->linear_solver != SYS_LINSOLVE_BAND && !(env && !strcmp(env, "1"));
}

/* Per rod: ν index of each vertex's ẋ and 1 / m_n. */
static int vertex_maps(sys_system *s, sim_lie_sp *P) {
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    const int N = cosrod_rod_nseg(rod), vo = s->m->lie_voff_r[r], nvr = s->m->ny_r[r] - cosrod_rod_nq(rod);
    for (int i = 0; i < nvr; i++) P->own0[vo + i] = vo, P->own1[vo + i] = vo + nvr - 1;
    double rhoA;
    cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
    const double *w = cosrod_rod_vertex_weight(rod);
    P->gv[r] = malloc((size_t)(N + 1) * sizeof **P->gv);
    P->minv[r] = malloc((size_t)(N + 1) * sizeof **P->minv);
    if (!P->gv[r] || !P->minv[r]) return -1;
    for (int n = 0; n <= N; n++) {
      P->gv[r][n] = cosrod_rod_vertex_ndof(rod, n) == 3 ? vo + cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n) : -1;
      P->minv[r][n] = 1.0 / (rhoA * w[n]);
    }
  }
  return 0;
}

int sim_lie_sp_setup(sys_system *s) {
  if (!sim_lie_sp_supported(s)) return 0;
  sim_lie_sp *P = calloc(1, sizeof *P);
  if (!P) return -1;
  s->d->lsp = P;
  const size_t nr = s->m->nrods;
  P->nv = s->m->ny - s->m->nq_tot;
  P->ml = s->m->ml, P->mu = s->m->mu, P->ld = P->ml + P->mu + 1;
  const size_t nb = (size_t)P->nv * (size_t)P->ld;
  P->own0 = malloc((size_t)P->nv * sizeof *P->own0), P->own1 = malloc((size_t)P->nv * sizeof *P->own1);
  P->pos = malloc(nb * sizeof *P->pos), P->Kb = malloc(nb * sizeof *P->Kb), P->Cb = malloc(nb * sizeof *P->Cb);
  P->gv = calloc(nr, sizeof *P->gv), P->minv = calloc(nr, sizeof *P->minv);
  if (!P->own0 || !P->own1 || !P->pos || !P->Kb || !P->Cb || !P->gv || !P->minv || vertex_maps(s, P) != 0 ||
      build(P) != 0) {
    sim_lie_sp_free(s);
    return -1;
  }
  return 1;
}

int sim_lie_sp_nnz(const sys_system *s) { return s->d->lsp ? s->d->lsp->nnz : 0; }

/* 1 if the 3 x 3 block at (r0, c0) is in the pattern. */
static int has_block(const sim_lie_sp *P, int r0, int c0) {
  for (int c = 0; c < 3; c++)
    for (int a = 0; a < 3; a++)
      if (sim_csc_find(P->cp, P->ri, r0 + a, c0 + c) < 0) return 0;
  return 1;
}

long sim_lie_sp_pattern(void *user, const int **colptr, const int **rowind) {
  sys_system *s = user;
  sim_lie_sp *P = s->d->lsp;
  if (P->npend > 0) {
    const int n0 = P->nblk;
    for (int k = 0; k < P->npend; k++) {
      const int r0 = P->pend[2 * k], c0 = P->pend[2 * k + 1];
      if (!has_block(P, r0, c0) && push(&P->blk, &P->nblk, &P->cblk, r0, c0) != 0) break;
    }
    P->npend = 0;
    if (P->nblk > n0) {
      P->nblk = (int)sim_pairs_sort_unique(P->blk, (size_t)P->nblk);
      if (build(P) == 0) P->version++; /* without memory: the blocks stay out this time */
    }
  }
  *colptr = P->cp, *rowind = P->ri;
  return P->version;
}

/* The vertex pair (a, i) - (b, j) outside the pattern: its blocks with the
 * neighbours, both orders, for the next pattern call. */
static void remember(sys_system *s, sim_lie_sp *P, int a, int i, int b, int j) {
  for (int o = 0; o < 2; o++)
    for (int di = -1; di <= 1; di++)
      for (int dj = -1; dj <= 1; dj++) {
        const int ra = o ? b : a, rb = o ? a : b, vi = (o ? j : i) + di, vj = (o ? i : j) + dj;
        if (vi < 0 || vj < 0 || vi > cosrod_rod_nseg(s->m->rods[ra]) || vj > cosrod_rod_nseg(s->m->rods[rb])) continue;
        const int r0 = P->gv[ra][vi], c0 = P->gv[rb][vj];
        if (r0 >= 0 && c0 >= 0) push(&P->pend, &P->npend, &P->cpend, r0, c0); /* no memory: stays out */
      }
}

int sim_lie_sp_tangent(double t, const double *y, double *Kx, double *Cx, void *user) {
  sys_system *s = user;
  sim_lie_sp *P = s->d->lsp;
  /* the contact at y once far blocks are in (the rods' band path reads the contact of the last right-hand
   * side, and before that galpha takes the band path bit for bit: see galpha_sparse.c) */
  if (P->version > 0) sim_contact_prepare_all(s, sim_tclamp(s, t), y);
  const size_t nb = (size_t)P->nv * (size_t)P->ld;
  memset(P->Kb, 0, nb * sizeof *P->Kb);
  memset(P->Cb, 0, nb * sizeof *P->Cb);
  int rc = sim_lie_jac_tangent_rods(t, y, P->Kb, P->Cb, P->ld, s);
  if (rc != 0) return rc;
  for (size_t k = 0; k < nb; k++)
    if (P->pos[k] >= 0) Kx[P->pos[k]] += P->Kb[k], Cx[P->pos[k]] += P->Cb[k];
  const cosrod_contact_data *d = sim_contact_data(s->d->contact);
  if (!d) return 0;
  const cosrod_contact_block *b = cosrod_contact_blocks(d);
  for (size_t k = 0, n = cosrod_contact_nblocks(d); k < n; k++, b++) {
    if (b->rod_i == b->rod_j && abs(b->vertex_j - b->vertex_i) <= 1) continue; /* in the rod's band */
    const int r0 = P->gv[b->rod_i][b->vertex_i], c0 = P->gv[b->rod_j][b->vertex_j];
    if (r0 < 0 || c0 < 0) continue; /* a prescribed or sliding vertex */
    const double mi = P->minv[b->rod_i][b->vertex_i];
    int out = 0;
    for (int c = 0; c < 3; c++)
      for (int a = 0; a < 3; a++) {
        const int p = sim_csc_find(P->cp, P->ri, r0 + a, c0 + c);
        if (p >= 0)
          Kx[p] += mi * b->K[a + 3 * c], Cx[p] += mi * b->D[a + 3 * c];
        else if (b->K[a + 3 * c] != 0.0 || b->D[a + 3 * c] != 0.0)
          out = 1;
      }
    if (out) remember(s, P, b->rod_i, b->vertex_i, b->rod_j, b->vertex_j);
  }
  return 0;
}
