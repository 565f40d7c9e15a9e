// SPDX-License-Identifier: Apache-2.0
/* Sparse (KLU) Jacobian of rods without bodies with rod-rod or self-contact
 * (linsolve.c chooses it).  Contact between segments of different rods, or
 * of one rod far apart along it, couples vertices that the rods' banded
 * orderings put far apart; the band Jacobian leaves these blocks out (the
 * Newton iterations then converge slowly, or not at all with the stiff
 * rod-rod friction law).  Here the integrator gets the exact structure as a
 * CSC pattern and the analytic values:
 *   - each rod's own band (cosrod_rod_order_fill) within its block, with the
 *     contact blocks inside the band (the rod's load Jacobian hook),
 *   - for each candidate segment pair (i, j): the rows of the velocity
 *     unknowns of the vertices of i and the columns of the position and
 *     velocity unknowns of the vertices of j, and the reverse:
 *     d(xdot_n)'/dx_m = K_nm / m_n, d(xdot_n)'/dxdot_m = D_nm / m_n with the
 *     contact blocks K, D (cosrod_contact_blocks) and the vertex mass
 *     m_n = rhoA ds_n (the translational equations of a Cosserat rod in the
 *     absolute and null-space forms, [LLA] eq. 25; the DAE form as a
 *     mass-matrix problem has the absolute accelerations in these rows, M = I
 *     there; Kirchhoff rods in it also the rows λ_K next to the vertex, with
 *     values by grouped differences, linsolve.c).  Absolute rods take the NODE
 *     layout for it (sim.c), ida's DAE residual has no sparse path.
 * The pattern starts as a superset from a broad phase at the initial state
 * with a margin: pairs of segments of different rods whose gap (distance -
 * radii) is below 0.1 times the longer rod's length, and non-excluded
 * segment pairs of one rod whose gap is below 2 r (a rod already folded onto
 * itself); with none, the rods' bands alone when there are several rods
 * (rods without a far self-contact pair at t = 0 keep the band until one
 * appears: linsolve.c switches then, sim_linsolve_switch).  A contact that becomes active
 * outside it later (rods that meet after t = 0, a rod coiling into self
 * contact) is remembered by the evaluation, which leaves its blocks out, and
 * added when the integrator asks for the pattern after the evaluation
 * (cosrod_ode_problem.jac_pattern): the vertex pair with its neighbours
 * (vertices i-1..i+1 x j-1..j+1, both orders, so that a contact point that
 * slides by a segment stays inside), merged into the CSC arrays in place;
 * the row array grows by a factor 1.5 and never shrinks.  The integrator
 * then rebuilds its symbolic analysis and evaluates again (counted:
 * stats.npattern; entries seen outside: sim_contact_jac_sp_dropped).  Cost at
 * set-up: a grid broad phase (see candidates), O(S) for the self-contact
 * pairs and O(S)
 * plus the pairs within the margin for different rods (S segments of all
 * rods; bench/results/contact-pattern-setup.md); per Jacobian the rods'
 * bands (O(N)) and the active blocks (a binary search in a column each). */
#include "system/contact_jac_sp.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/rod.h"
#include "system/system_model.h"

struct sim_cjac_contact {
  int n, nnz, cap; /* cap: capacity of the row array *pri */
  int *cp, *ri;
  int **pri;       /* the owner's row array pointer (moved when the pattern grows) */
  int *pend;       /* (4 cpend) vertex pairs (rod a, vertex i, rod b, vertex j) found outside */
  int npend, cpend;
  long version;
  int *rml, *rmu; /* (nrods) */
  double *Jr;     /* scratch band of the largest rod */
  int **rpos;     /* (nrods) positions of the rod band entries, -1 outside */
  int **gx, **gv; /* (nrods) (nv x 3) global index of x_n, xdot_n components, -1: not free */
  double **minv;  /* (nrods) (nv) 1 / m_n */
  long dropped;
};

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

void sim_contact_jac_sp_free(sys_system *s) {
  sim_cjac_contact *C = s->d->ccj;
  if (!C) return;
  for (size_t r = 0; r < s->m->nrods; r++) {
    if (C->rpos) free(C->rpos[r]);
    if (C->gx) free(C->gx[r]);
    if (C->gv) free(C->gv[r]);
    if (C->minv) free(C->minv[r]);
  }
  free(C->rpos), free(C->gx), free(C->gv), free(C->minv), free(C->rml), free(C->rmu), free(C->Jr);
  free(C->pend);
  free(C);
  s->d->ccj = NULL;
}

long sim_contact_jac_sp_dropped(const sys_system *s) { return s->d->ccj ? s->d->ccj->dropped : 0; }

/* Candidate segment pairs by a uniform grid (as the contact's own broad
 * phase, contact_broad.c): each segment filed under the cell of its midpoint,
 * cell size h = l_max + 2 r_max + margin, so that two segments whose gap is
 * below the margin have midpoints at most h apart (|m_i - m_j| <= dist +
 * l_i / 2 + l_j / 2 and dist <= gap + r_i + r_j) and lie in neighbouring
 * cells; cells hashed into 2^k >= 2 S buckets by a counting sort.  Two
 * passes: self-contact (margin 2 r) and different rods (margin 0.1 L_max).
 * Cost O(S) to file plus the pairs of neighbouring cells. */
typedef struct cgrid {
  int S, nb;
  int *rod, *seg, *cell; /* (S), (S), (3 S) */
  int *bucket, *entry;   /* (nb + 1), (S) */
  double *mid;           /* (3 S) */
} cgrid;

static size_t ghash(const int c[3], int nb) {
  uint64_t h = (uint64_t)(uint32_t)c[0] * 73856093u ^ (uint64_t)(uint32_t)c[1] * 19349663u ^
               (uint64_t)(uint32_t)c[2] * 83492791u;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  return (size_t)(h & (uint64_t)(nb - 1));
}

static void grid_fill(cgrid *G, double h) {
  memset(G->bucket, 0, ((size_t)G->nb + 1) * sizeof *G->bucket);
  for (int g = 0; g < G->S; g++) {
    int *c = G->cell + 3 * g;
    for (int k = 0; k < 3; k++) c[k] = (int)floor(G->mid[3 * g + k] / h);
    G->bucket[ghash(c, G->nb) + 1]++;
  }
  for (int b = 0; b < G->nb; b++) G->bucket[b + 1] += G->bucket[b];
  for (int g = 0; g < G->S; g++) G->entry[G->bucket[ghash(G->cell + 3 * g, G->nb)]++] = g;
  for (int b = G->nb; b > 0; b--) G->bucket[b] = G->bucket[b - 1];
  G->bucket[0] = 0;
}

/* Vertex pairs of segment pair (a, i) - (b, j), both orders, appended to pr up to cap. */
static size_t emit(int *pr, size_t cap, size_t np, int a, int i, int b, int j) {
  for (int p = 0; p < 2; p++)
    for (int q = 0; q < 2; q++) {
      int e[2][4] = {{a, i + p, b, j + q}, {b, j + q, a, i + p}};
      for (int k = 0; k < 2; k++, np++)
        if (np < cap) memcpy(pr + 4 * np, e[k], sizeof e[k]);
    }
  return np;
}

/* One pass (self: same rod, else different rods) over the grid filed with cell size h. */
static size_t grid_pairs(sys_system *s, const cgrid *G, double **x, int self, double margin, int *pr,
                         size_t cap, size_t np) {
  const sys_def *def = s->m->def;
  for (int g = 0; g < G->S; g++) {
    const int a = G->rod[g], i = G->seg[g], *c = G->cell + 3 * g;
    const double ra = def->rods[a].radius, *sa = cosrod_rod_grid(s->m->rods[a]);
    for (int dz = -1; dz <= 1; dz++)
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          const int cc[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
          const size_t bk = ghash(cc, G->nb);
          for (int e = G->bucket[bk]; e < G->bucket[bk + 1]; e++) {
            const int o = G->entry[e], b = G->rod[o], j = G->seg[o], *co = G->cell + 3 * o;
            if (o <= g || co[0] != cc[0] || co[1] != cc[1] || co[2] != cc[2] || (a == b) != self) continue;
            if (self && (j < i + 2 || sa[j] - sa[i + 1] < 3.14159265358979323846 * ra))
              continue; /* exclusion */
            double u, w;
            const double dist = cosrod_segment_segment_closest(&u, &w, x[a] + 3 * i, x[a] + 3 * i + 3,
                                                               x[b] + 3 * j, x[b] + 3 * j + 3);
            if (dist - ra - def->rods[b].radius > (self && margin < INFINITY ? 2.0 * ra : margin)) continue;
            np = emit(pr, cap, np, a, i, b, j);
          }
        }
  }
  return np;
}

/* Candidate vertex pairs (rod a, vertex i) <-> (rod b, vertex j), both
 * orders, appended to pr (4 ints each) up to cap; returns the count (also
 * beyond cap, to size the array); (size_t)-1 without memory. */
static size_t candidates(sys_system *s, double **x, int *pr, size_t cap) {
  const sys_def *def = s->m->def;
  double Lmax = 0, lmax = 0, rmax = 0;
  int S = 0;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const int N = cosrod_rod_nseg(s->m->rods[r]);
    Lmax = fmax(Lmax, def->rods[r].length), rmax = fmax(rmax, def->rods[r].radius);
    for (int i = 0; i < N; i++) {
      const double *p = x[r] + 3 * i, d[3] = {p[3] - p[0], p[4] - p[1], p[5] - p[2]};
      lmax = fmax(lmax, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    }
    S += N;
  }
  cgrid G = {.S = S, .nb = 1};
  while (G.nb < 2 * S) G.nb *= 2;
  G.rod = malloc((size_t)S * sizeof *G.rod), G.seg = malloc((size_t)S * sizeof *G.seg);
  G.cell = malloc(3 * (size_t)S * sizeof *G.cell), G.entry = malloc((size_t)S * sizeof *G.entry);
  G.bucket = malloc(((size_t)G.nb + 1) * sizeof *G.bucket), G.mid = malloc(3 * (size_t)S * sizeof *G.mid);
  size_t np = (size_t)-1;
  if (!G.rod || !G.seg || !G.cell || !G.entry || !G.bucket || !G.mid) goto out;
  for (size_t r = 0, g = 0; r < s->m->nrods; r++)
    for (int i = 0; i < cosrod_rod_nseg(s->m->rods[r]); i++, g++) {
      G.rod[g] = (int)r, G.seg[g] = i;
      for (int k = 0; k < 3; k++) G.mid[3 * g + k] = 0.5 * (x[r][3 * i + k] + x[r][3 * i + 3 + k]);
    }
  np = 0;
  const char *env = getenv("COSROD_CONTACT_PATTERN"); /* all: every pair from the start (reference runs) */
  const int all = env && !strcmp(env, "all");
  for (int self = 1; self >= 0; self--) {
    if (self ? !def->contact.self : !def->contact.rods || s->m->nrods < 2) continue;
    const double margin = all ? INFINITY : self ? 2.0 * rmax : 0.1 * Lmax;
    grid_fill(&G, lmax + 2.0 * rmax + margin);
    np = grid_pairs(s, &G, x, self, margin, pr, cap, np);
  }
out:
  free(G.rod), free(G.seg), free(G.cell), free(G.entry), free(G.bucket), free(G.mid);
  return np;
}

/* Per rod: global indices of the vertices' x, xdot and 1 / m_n. */
static int vertex_maps(sys_system *s, sim_cjac_contact *C) {
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    const int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod);
    const int *map = s->m->map + s->m->off_r[r];
    double rhoA;
    cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
    const double *w = cosrod_rod_vertex_weight(rod);
    C->gx[r] = malloc(3 * (size_t)(N + 1) * sizeof **C->gx);
    C->gv[r] = malloc(3 * (size_t)(N + 1) * sizeof **C->gv);
    C->minv[r] = malloc((size_t)(N + 1) * sizeof **C->minv);
    if (!C->gx[r] || !C->gv[r] || !C->minv[r]) return -1;
    for (int n = 0; n <= N; n++) {
      const int free3 = cosrod_rod_vertex_ndof(rod, n) == 3;
      const int qi = cosrod_rod_qindex_vertex(rod, n), vi = cosrod_rod_vindex_vertex(rod, s->m->form, n);
      for (int c = 0; c < 3; c++) {
        C->gx[r][3 * n + c] = free3 ? map[qi + c] : -1;
        C->gv[r][3 * n + c] = free3 ? map[nq + vi + c] : -1;
      }
      C->minv[r][n] = 1.0 / (rhoA * w[n]);
    }
  }
  return 0;
}

static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The rows of vertex n of rod r that a contact force on it enters: its
 * velocity rows, and for a Kirchhoff rod in the DAE form the constraint rows
 * λ_K of the segments n-1, n (G_k a + h_k sees the vertex accelerations,
 * [LA] Fig. 4a); returns their count (<= 9), 0 for a vertex that is not free. */
static int vertex_rows(const sys_system *s, const sim_cjac_contact *C, int r, int n, int *rows) {
  const cosrod_rod *rod = s->m->rods[r];
  const int m = s->m->form == COSROD_FORM_DAE ? cosrod_rod_kirchhoff_m(rod) : 0, N = cosrod_rod_nseg(rod);
  int c = 0;
  if (C->gv[r][3 * n] < 0) return 0;
  for (int a = 0; a < 3; a++) rows[c++] = C->gv[r][3 * n + a];
  const int *map = s->m->map + s->m->off_r[r], base = 2 * cosrod_rod_nq(rod) + N;
  for (int k = n - 1; m > 0 && k <= n; k++)
    for (int a = 0; a < m && k >= 0 && k < N; a++) rows[c++] = map[base + m * k + a];
  return c;
}

/* CSC pattern: the rods' bands and the candidate blocks (two passes). */
static int build(sys_system *s, sim_cjac_contact *C, const int *pr, size_t np, int **colptr, int **rowind) {
  const int n = s->m->ny;
  int *cnt = calloc((size_t)n + 1, sizeof *cnt), *mark = malloc((size_t)n * sizeof *mark);
  int *cp = malloc((size_t)(n + 1) * sizeof *cp);
  int *owner = malloc((size_t)n * sizeof *owner);
  /* extra entries per column: rows of candidate vertex velocities (col -> list via a CSR of pairs) */
  int *xs = calloc((size_t)n + 1, sizeof *xs), *xr = malloc((np * 54 + 1) * sizeof *xr);
  int rc = -1, *ri = NULL;
  if (!cnt || !mark || !cp || !owner || !xs || !xr) goto out;
  for (size_t r = 0; r < s->m->nrods; r++)
    for (int i = 0; i < s->m->ny_r[r]; i++) owner[s->m->qoff_r[r] + i] = (int)r;
  for (int pass = 0; pass < 2; pass++) /* column lists of the extra rows */
    for (size_t k = 0; k < np; k++) {
      const int *e = pr + 4 * k;
      int rows[9];
      for (int a = 0, nr = vertex_rows(s, C, e[0], e[1], rows); a < nr; a++) {
        const int row = rows[a];
        for (int c = 0; c < 3; c++)
          for (int t = 0; t < 2; t++) {
            int col = (t ? C->gv : C->gx)[e[2]][3 * e[3] + c];
            if (col < 0) continue;
            if (pass == 0)
              xs[col + 1]++;
            else
              xr[cnt[col]++] = row;
          }
      }
      if (pass == 0 && k + 1 == np) {
        for (int j = 0; j < n; j++) xs[j + 1] += xs[j];
        memcpy(cnt, xs, (size_t)n * sizeof *cnt);
      }
    }
  for (int i = 0; i < n; i++) mark[i] = -1;
  for (int pass = 0; pass < 2; pass++) {
    int e = 0;
    cp[0] = 0;
    for (int j = 0; j < n; j++) {
      const int c0 = e, o = owner[j], b0 = s->m->qoff_r[o], b1 = b0 + s->m->ny_r[o] - 1;
      for (int i = imax(b0, j - C->rmu[o]); i <= imin(b1, j + C->rml[o]); i++)
        if (mark[i] != 2 * j + pass) mark[i] = 2 * j + pass, pass ? ri[e] = i : 0, e++;
      for (int k = np ? xs[j] : 0; np && k < xs[j + 1]; k++) {
        const int i = xr[k];
        if (mark[i] != 2 * j + pass) mark[i] = 2 * j + pass, pass ? ri[e] = i : 0, e++;
      }
      if (pass && e - c0 > 1) qsort(ri + c0, (size_t)(e - c0), sizeof *ri, cmp_int); /* ascending rows */
      cp[j + 1] = e;
    }
    if (pass == 0) {
      if (!(ri = malloc((size_t)(e > 0 ? e : 1) * sizeof *ri))) goto out;
      for (int i = 0; i < n; i++) mark[i] = -1;
    }
  }
  *colptr = cp, *rowind = ri, cp = NULL, ri = NULL;
  rc = 0;
out:
  free(cnt), free(mark), free(cp), free(owner), free(xs), free(xr), free(ri);
  return rc;
}

/* Positions of the rods' band entries in the pattern (-1 outside). */
static void band_positions(sys_system *s, sim_cjac_contact *C) {
  for (size_t r = 0; r < s->m->nrods; r++) {
    const int ml = C->rml[r], mu = C->rmu[r], ld = ml + mu + 1, ny = s->m->ny_r[r], q0 = s->m->qoff_r[r];
    int *pos = C->rpos[r];
    for (int j = 0; j < ny; j++)
      for (int d = 0; d < ld; d++) {
        const int i = j - mu + d;
        pos[(size_t)j * ld + d] = i >= 0 && i < ny ? sim_csc_find(C->cp, C->ri, q0 + i, q0 + j) : -1;
      }
  }
}

int sim_contact_jac_sp_supported(const sys_system *s) {
  if (!s->d->contact || s->d->cpl || s->m->split || s->m->lie || s->m->dae_res) return 0;
  if (!s->m->def->contact.rods && !s->m->def->contact.self) return 0;
  for (size_t r = 0; r < s->m->nrods; r++) /* Kirchhoff: the DAE form only (values by differences, linsolve.c) */
    if (cosrod_rod_kirchhoff_m(s->m->rods[r]) > 0 && s->m->form != COSROD_FORM_DAE) return 0;
  return 1;
}

/* The workspace (vertex maps, the rods' band positions' storage) and the
 * candidate vertex pairs at the initial state (*pr, *np); 0, or -1 without
 * memory (s->d->ccj then freed). */
static int setup(sys_system *s, int **prp, size_t *npp) {
  sim_cjac_contact *C = calloc(1, sizeof *C);
  if (!C) return -1;
  s->d->ccj = C;
  const size_t nr = s->m->nrods;
  C->rml = calloc(nr, sizeof *C->rml), C->rmu = calloc(nr, sizeof *C->rmu);
  C->rpos = calloc(nr, sizeof *C->rpos), C->gx = calloc(nr, sizeof *C->gx), C->gv = calloc(nr, sizeof *C->gv);
  C->minv = calloc(nr, sizeof *C->minv);
  double **x = calloc(nr, sizeof *x);
  int *pr = NULL, rc = -1;
  if (!C->rml || !C->rmu || !C->rpos || !C->gx || !C->gv || !C->minv || !x || vertex_maps(s, C) != 0)
    goto out;
  size_t big = 1;
  for (size_t r = 0; r < nr; r++) {
    const int N = cosrod_rod_nseg(s->m->rods[r]);
    int *tmp = malloc((size_t)s->m->ny_r[r] * sizeof *tmp);
    cosrod_status so = tmp ? cosrod_rod_order_fill(s->m->rods[r], s->m->form, tmp, NULL, &C->rml[r], &C->rmu[r])
                           : COSROD_ERR_NOMEM;
    free(tmp);
    if (so != COSROD_OK) goto out;
    big = (size_t)imax((int)big, (C->rml[r] + C->rmu[r] + 1) * s->m->ny_r[r]);
    if (!(x[r] = malloc(3 * (size_t)(N + 1) * sizeof **x))) goto out;
    sim_gather(s, r, s->d->y0, s->d->yl);
    double *p = malloc(4 * (size_t)N * sizeof *p);
    cosrod_status st =
        p ? cosrod_rod_unpack(s->m->rods[r], s->m->form, 0.0, s->d->yl, x[r], p, NULL, NULL) : COSROD_ERR_NOMEM;
    free(p);
    if (st != COSROD_OK) goto out;
  }
  size_t np = candidates(s, x, NULL, 0);
  if (np == (size_t)-1 || !(pr = malloc(4 * (np ? np : 1) * sizeof *pr))) goto out;
  candidates(s, x, pr, np);
  if (!(C->Jr = malloc(big * sizeof *C->Jr))) goto out;
  for (size_t r = 0; r < nr; r++)
    if (!(C->rpos[r] = malloc((size_t)(C->rml[r] + C->rmu[r] + 1) * (size_t)s->m->ny_r[r] * sizeof **C->rpos)))
      goto out;
  *prp = pr, *npp = np, pr = NULL;
  rc = 0;
out:
  for (size_t r = 0; x && r < nr; r++) free(x[r]);
  free(x), free(pr);
  if (rc != 0) sim_contact_jac_sp_free(s);
  return rc;
}

int sim_contact_jac_sp_init(sys_system *s, int **colptr, int **rowind, int *nnz) {
  *colptr = *rowind = NULL;
  if (!sim_contact_jac_sp_supported(s)) return 0;
  int *pr = NULL, rc = -1;
  size_t np = 0;
  if (setup(s, &pr, &np) != 0) return -1;
  sim_cjac_contact *C = s->d->ccj;
  if (np == 0 && !(s->m->def->contact.rods && s->m->nrods >= 2)) { /* no far self-contact pair yet: the band
                                                                     * (switched later) */
    rc = 0;
    goto out;
  }
  if (build(s, C, pr, np, colptr, rowind) != 0) goto out; /* no pair: the bands, grown when rods meet */
  C->n = s->m->ny, C->cp = *colptr, C->ri = *rowind, C->nnz = C->cap = (*colptr)[s->m->ny], C->pri = rowind;
  *nnz = C->nnz;
  band_positions(s, C);
  rc = 1;
out:
  free(pr);
  if (rc != 1) {
    free(*colptr), free(*rowind);
    *colptr = *rowind = NULL;
    sim_contact_jac_sp_free(s);
  }
  return rc;
}

/* A vertex pair whose block fell outside the pattern, for jac_pattern (the
 * list grows by a factor 2; without memory the block just stays out). */
static void remember(sim_cjac_contact *C, int a, int i, int b, int j) {
  for (int k = 0; k < C->npend; k++) {
    const int *e = C->pend + 4 * k;
    if (e[0] == a && e[1] == i && e[2] == b && e[3] == j) return;
  }
  if (C->npend == C->cpend) {
    const int cap = C->cpend ? 2 * C->cpend : 16;
    int *p = realloc(C->pend, 4 * (size_t)cap * sizeof *p);
    if (!p) return;
    C->pend = p, C->cpend = cap;
  }
  const int e[4] = {a, i, b, j};
  memcpy(C->pend + 4 * C->npend++, e, sizeof e);
}

static int cmp_pair(const void *a, const void *b) {
  const int *x = a, *y = b;
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

size_t sim_pairs_sort_unique(int *e, size_t m) {
  qsort(e, m, 2 * sizeof *e, cmp_pair);
  size_t u = 0;
  for (size_t k = 0; k < m; k++)
    if (!u || cmp_pair(e + 2 * k, e + 2 * (u - 1)) != 0) e[2 * u] = e[2 * k], e[2 * u + 1] = e[2 * k + 1], u++;
  return u;
}

/* New (column, row) entries of the remembered pairs with their neighbours,
 * sorted and without the ones stored; returns their count, -1 without memory. */
static int new_entries(sys_system *s, sim_cjac_contact *C, int **out) {
  int *e = malloc((size_t)C->npend * 2 * 9 * 18 * 2 * sizeof *e), m = 0;
  if (!(*out = e)) return -1;
  for (int k = 0; k < C->npend; k++)
    for (int o = 0; o < 2; o++)
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) {
          const int *pk = C->pend + 4 * k, a = pk[2 * o], b = pk[2 - 2 * o], i = pk[2 * o + 1] + di,
                    j = pk[3 - 2 * o] + dj;
          if (i < 0 || j < 0 || i > cosrod_rod_nseg(s->m->rods[a]) || j > cosrod_rod_nseg(s->m->rods[b])) continue;
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 6; c++) {
              const int row = C->gv[a][3 * i + r], col = (c < 3 ? C->gx : C->gv)[b][3 * j + c % 3];
              if (row < 0 || col < 0 || sim_csc_find(C->cp, C->ri, row, col) >= 0) continue;
              e[2 * m] = col, e[2 * m + 1] = row, m++;
            }
        }
  return (int)sim_pairs_sort_unique(e, (size_t)m);
}

long sim_contact_jac_sp_pattern(void *user, const int **colptr, const int **rowind) {
  sys_system *s = user;
  sim_cjac_contact *C = s->d->ccj;
  int *e = NULL, m = C->npend ? new_entries(s, C, &e) : 0;
  C->npend = 0;
  if (m > 0 && C->nnz + m > C->cap) { /* grow the row array by a factor (never shrinks) */
    const int cap = C->nnz + m > C->cap + C->cap / 2 ? C->nnz + m : C->cap + C->cap / 2;
    int *ri = realloc(*C->pri, (size_t)cap * sizeof *ri);
    if (!ri)
      m = 0; /* without memory: the blocks stay out, counted in dropped */
    else
      *C->pri = C->ri = ri, C->cap = cap;
  }
  if (m > 0) { /* merge column by column from the end, in place */
    int w = C->nnz + m, k = m - 1;
    for (int j = C->n - 1; j >= 0; j--) {
      int r = C->cp[j + 1] - 1;
      const int r0 = C->cp[j];
      C->cp[j + 1] = w;
      while (r >= r0 || (k >= 0 && e[2 * k] == j))
        if (k >= 0 && e[2 * k] == j && (r < r0 || e[2 * k + 1] > C->ri[r]))
          C->ri[--w] = e[2 * k + 1], k--;
        else
          C->ri[--w] = C->ri[r--];
    }
    C->nnz += m;
    band_positions(s, C);
    C->version++;
  }
  free(e);
  *colptr = C->cp, *rowind = C->ri;
  return C->version;
}

int sim_contact_jac_sp_init_cpl(sys_system *s, int **colptr, int **rowind, int *nnz) {
  int *pr = NULL;
  size_t np = 0;
  if (!s->d->contact || !(s->m->def->contact.rods || s->m->def->contact.self) || setup(s, &pr, &np) != 0) return -1;
  sim_cjac_contact *C = s->d->ccj;
  C->n = s->m->ny, C->cp = *colptr, C->ri = *rowind, C->nnz = C->cap = (*colptr)[C->n], C->pri = rowind;
  C->pend = pr, C->npend = C->cpend = (int)np; /* the candidates, merged with their neighbours */
  const int *cp, *ri;
  sim_contact_jac_sp_pattern(s, &cp, &ri);
  C->version = 0, *nnz = C->nnz;
  return 0;
}

int sim_contact_jac_sp(double t, const double *y, double *Jx, void *user) {
  sys_system *s = user;
  sim_cjac_contact *C = s->d->ccj;
  t = sim_tclamp(s, t);
  memset(Jx, 0, (size_t)C->nnz * sizeof *Jx);
  sim_contact_prepare_all(s, t, y);
  for (size_t r = 0; r < s->m->nrods; r++) { /* each rod's band (its own contact blocks included) */
    const int ml = C->rml[r], mu = C->rmu[r], ld = ml + mu + 1, ny = s->m->ny_r[r];
    sim_gather(s, r, y, s->d->yl);
    memset(C->Jr, 0, (size_t)ld * (size_t)ny * sizeof *C->Jr);
    const int *perm = s->m->perm + s->m->off_r[r];
    cosrod_status st = s->m->form == COSROD_FORM_DAE /* mass-matrix form M y' = f: ∂f/∂y */
                           ? cosrod_rod_jac_dae_mass_band(s->m->rods[r], s->d->data[r], t, s->d->yl, perm, C->Jr, ld,
                                                          ml, mu)
                           : cosrod_rod_jac_full_band(s->m->rods[r], s->d->data[r], s->m->form, t, s->d->yl, NULL,
                                                      0.0, perm, C->Jr, ld, ml, mu);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
    const int *pos = C->rpos[r];
    for (size_t k = 0; k < (size_t)ld * (size_t)ny; k++)
      if (pos[k] >= 0) Jx[pos[k]] += C->Jr[k];
  }
  sim_contact_jac_sp_cross(s, Jx);
  return 0;
}

void sim_contact_jac_sp_cross(sys_system *s, double *Jx) {
  sim_cjac_contact *C = s->d->ccj;
  const cosrod_contact_data *d = sim_contact_data(s->d->contact);
  if (!d || !C) return;
  const cosrod_contact_block *b = cosrod_contact_blocks(d);
  for (size_t k = 0, nb = cosrod_contact_nblocks(d); k < nb; k++, b++) {
    if (b->rod_i == b->rod_j && abs(b->vertex_j - b->vertex_i) <= 1) continue; /* in the band */
    const int *rx = C->gv[b->rod_i] + 3 * b->vertex_i, *cx = C->gx[b->rod_j] + 3 * b->vertex_j,
              *cv = C->gv[b->rod_j] + 3 * b->vertex_j;
    const double mi = C->minv[b->rod_i][b->vertex_i];
    if (rx[0] < 0 || cx[0] < 0) continue; /* a prescribed or sliding vertex */
    int out = 0;
    for (int c = 0; c < 3; c++)
      for (int a = 0; a < 3; a++) {
        int p = sim_csc_find(C->cp, C->ri, rx[a], cx[c]), q = sim_csc_find(C->cp, C->ri, rx[a], cv[c]);
        if (p >= 0) Jx[p] += mi * b->K[a + 3 * c];
        if (q >= 0) Jx[q] += mi * b->D[a + 3 * c];
        if ((p < 0 && b->K[a + 3 * c] != 0.0) || (q < 0 && b->D[a + 3 * c] != 0.0)) C->dropped++, out = 1;
      }
    if (out) remember(C, b->rod_i, b->vertex_i, b->rod_j, b->vertex_j);
  }
}
