// SPDX-License-Identifier: Apache-2.0
/* The analytic coupled Jacobian (couple_jac.c) as values of the sparse
 * pattern of linsolve.c (cosrod_ode_problem.jac_sp), for KLU
 * (SuiteSparse KLU).  The same assembly writes through the CSC adder
 * (sim_couple_jac_sp.h): each rod's own band goes to a scratch band of the
 * rod's bandwidths (cosrod_rod_order_fill) and is scattered by positions
 * found at set-up; the coupling and body entries take positions cached in
 * the order of the adds on the first evaluation (a structural order: every
 * entry is added, zero or not).  Where the analytic Jacobian does not apply
 * (Kirchhoff rods at run time, an entry outside the pattern) the values come
 * from finite differences grouped by the pattern (Curtis, Powell & Reid
 * 1974) with the increments of sim_couple_jac_fd. */
#include "system/couple_jac_sp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/rod.h"
#include "cosrod/sparse.h"
#include "system/contact_jac_sp.h"
#include "system/couple_internal.h"
#include "system/system_model.h"

struct sim_cjac_sp {
  int n, nc;          /* rods, columns */
  long version;       /* of a growing pattern (rod-rod contact: contact_jac_sp.c) */
  const int *cp, *ri; /* pattern (owned by sim_linsolve) */
  int *rml, *rmu;     /* (nrods) the rods' own bandwidths */
  double *Jr;         /* scratch band of the largest rod */
  int **rpos;         /* (nrods) positions of the rod band entries (ny_r x (rml + rmu + 1)), -1 outside */
  int *pos, *pij;     /* (cap), (2 cap) cached positions of the other adds and their (i, j) */
  int cap, npos;      /* capacity, positions cached */
  int ng, *gptr, *gcol; /* column groups of the fallback differences */
  int *bcol, *bflag;     /* (n) contact shapes on bodies: rod columns to difference, their flags */
};

void sim_couple_jac_sp_free(sim_cjac_sp *sp) {
  if (!sp) return;
  if (sp->rpos)
    for (int r = 0; sp->rml && r < sp->n && sp->rpos[r]; r++) free(sp->rpos[r]);
  free(sp->rpos);
  free(sp->rml);
  free(sp->rmu);
  free(sp->Jr);
  free(sp->pos);
  free(sp->pij);
  free(sp->gptr);
  free(sp->gcol);
  free(sp->bcol);
  free(sp->bflag);
  free(sp);
}

/* Position of (i, j) in the pattern (set-up and cache misses only). */
static int find(const sim_cjac_sp *sp, int i, int j) { return sim_csc_find(sp->cp, sp->ri, i, j); }

void sim_jadd_csc(sim_jadd *A, int i, int j, double v) {
  sim_cjac_sp *sp = A->sp;
  const int k = A->k++;
  int p;
  if (k < sp->npos && sp->pij[2 * k] == i && sp->pij[2 * k + 1] == j) {
    p = sp->pos[k];
  } else {
    p = find(sp, i, j);
    if (k < sp->cap) {
      sp->pos[k] = p, sp->pij[2 * k] = i, sp->pij[2 * k + 1] = j;
      if (k >= sp->npos) sp->npos = k + 1;
    }
  }
  if (p >= 0) A->Jx[p] += v;
  else if (v != 0.0) A->overflow = 1;
}

int sim_couple_jac_sp_rod(sys_system *s, size_t r, double tc, sim_jadd *A) {
  sim_cjac_sp *sp = A->sp;
  const int ml = sp->rml[r], mu = sp->rmu[r], ld = ml + mu + 1, ny = s->m->ny_r[r];
  memset(sp->Jr, 0, (size_t)ld * (size_t)ny * sizeof *sp->Jr);
  cosrod_status st = cosrod_rod_jac_full_band(s->m->rods[r], s->d->data[r], s->m->form, tc, s->d->yl, NULL, 0.0,
                                              s->m->perm + s->m->off_r[r], sp->Jr, ld, ml, mu);
  if (st != COSROD_OK) return st;
  const int *pos = sp->rpos[r];
  for (size_t k = 0; k < (size_t)ld * (size_t)ny; k++) {
    if (pos[k] >= 0) A->Jx[pos[k]] += sp->Jr[k];
    else if (sp->Jr[k] != 0.0) return COSROD_ERR_DIMENSION; /* outside the pattern: fall back */
  }
  return COSROD_OK;
}

/* Column groups of the fallback differences on the pattern (a colouring). */
static int groups(sim_cjac_sp *sp) {
  const int n = sp->nc;
  int *colour = malloc((size_t)n * sizeof *colour);
  if (!colour) return -1;
  free(sp->gptr);
  sp->ng = cosrod_sparse_colour(n, sp->cp, sp->ri, colour);
  sp->gptr = sp->ng > 0 ? calloc((size_t)sp->ng + 1, sizeof *sp->gptr) : NULL;
  if (!sp->gptr) {
    free(colour);
    return -1;
  }
  for (int j = 0; j < n; j++) sp->gptr[colour[j] + 1]++;
  for (int g = 0; g < sp->ng; g++) sp->gptr[g + 1] += sp->gptr[g];
  for (int j = 0; j < n; j++) sp->gcol[sp->gptr[colour[j]]++] = j;
  for (int g = sp->ng; g > 0; g--) sp->gptr[g] = sp->gptr[g - 1];
  sp->gptr[0] = 0;
  free(colour);
  return 0;
}

/* Positions of rod r's band entries in the pattern (-1 outside). */
static void rod_positions(sys_system *s, sim_cjac_sp *sp, size_t r) {
  const int ny = s->m->ny_r[r], q0 = s->m->qoff_r[r], ml = sp->rml[r], mu = sp->rmu[r], ld = ml + mu + 1;
  for (int j = 0; j < ny; j++)
    for (int d = 0; d < ld; d++) {
      const int i = j - mu + d;
      sp->rpos[r][(size_t)j * ld + d] = i >= 0 && i < ny ? find(sp, q0 + i, q0 + j) : -1;
    }
}

int sim_couple_jac_sp_init(sys_system *s, const int *colptr, const int *rowind) {
  sim_couple *cp = s->d->cpl;
  if (!cp || !cp->cj || s->m->prob.jac != sim_couple_jac) return -1;
  sim_cjac_sp *sp = calloc(1, sizeof *sp);
  if (!sp) return -1;
  cp->cjs = sp;
  const int n = s->m->ny, nm = cp->nm;
  sp->n = (int)s->m->nrods, sp->nc = n;
  sp->cp = colptr, sp->ri = rowind;
  sp->rml = calloc(s->m->nrods + 1, sizeof *sp->rml);
  sp->rmu = calloc(s->m->nrods + 1, sizeof *sp->rmu);
  sp->rpos = calloc(s->m->nrods + 1, sizeof *sp->rpos);
  if (!sp->rml || !sp->rmu || !sp->rpos) goto fail;
  size_t big = 1;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const int ny = s->m->ny_r[r];
    int *tmp = malloc((size_t)(ny + 1) * sizeof *tmp);
    if (!tmp) goto fail;
    cosrod_status st = cosrod_rod_order_fill(s->m->rods[r], s->m->form, tmp, NULL, &sp->rml[r], &sp->rmu[r]);
    free(tmp);
    if (st != COSROD_OK) goto fail;
    const int ml = sp->rml[r], mu = sp->rmu[r], ld = ml + mu + 1;
    const size_t sz = (size_t)ld * (size_t)ny;
    if (sz > big) big = sz;
    if (!(sp->rpos[r] = malloc(sz * sizeof **sp->rpos))) goto fail;
    rod_positions(s, sp, r);
  }
  sp->Jr = malloc(big * sizeof *sp->Jr);
  /* adds besides the rod bands: per attachment nr (<= 8) x nm and nc (<= 16) x nm, the body block */
  sp->cap = (int)cp->na * 24 * nm + nm * nm + 1;
  sp->pos = malloc((size_t)sp->cap * sizeof *sp->pos);
  sp->pij = malloc(2 * (size_t)sp->cap * sizeof *sp->pij);
  sp->gcol = malloc((size_t)n * sizeof *sp->gcol);
  sp->bcol = malloc((size_t)n * sizeof *sp->bcol);
  sp->bflag = calloc((size_t)n, sizeof *sp->bflag);
  if (!sp->Jr || !sp->pos || !sp->pij || !sp->gcol || !sp->bcol || !sp->bflag || groups(sp) != 0) goto fail;
  return 0;
fail:
  sim_couple_jac_sp_free(sp);
  cp->cjs = NULL;
  return -1;
}

/* Grouped forward differences on the pattern (increments of sim_couple_jac_fd). */
static int sp_fd(sys_system *s, double t, const double *y, double *Jx) {
  const sim_cjac_sp *sp = s->d->cpl->cjs;
  const int n = s->m->ny;
  double *yp = s->d->cpl->jw, *f0 = yp + n, *f1 = f0 + n;
  const double u = 2.220446049250313e-16;
  int rc = sim_rhs(t, y, f0, s);
  if (rc != 0) return rc;
  memcpy(yp, y, (size_t)n * sizeof *yp);
  memset(Jx, 0, (size_t)sp->cp[n] * sizeof *Jx);
  for (int g = 0; g < sp->ng; g++) {
    for (int m = sp->gptr[g]; m < sp->gptr[g + 1]; m++) {
      const int j = sp->gcol[m];
      yp[j] = y[j] + sqrt(u * fmax(1e-5, fabs(y[j])));
    }
    if ((rc = sim_rhs(t, yp, f1, s)) != 0) return rc;
    for (int m = sp->gptr[g]; m < sp->gptr[g + 1]; m++) {
      const int j = sp->gcol[m];
      const double d = yp[j] - y[j];
      yp[j] = y[j];
      for (int k = sp->cp[j]; k < sp->cp[j + 1]; k++) Jx[k] = (f1[sp->ri[k]] - f0[sp->ri[k]]) / d;
    }
  }
  return 0;
}

/* Contact shapes on bodies where the analytic blocks (couple_contact_jac.c)
 * do not apply (COSROD_BODY_CONTACT_JAC=fd, a contact on a vertex that is not
 * a free 3-dof vertex): the contact's body <-> rod entries by central
 * differences of f (h = eps^(1/3) max(|y_j|, 1e-2): error ~1e-10 of the
 * column's scale, below the forward differences' ~1e-8): every body column
 * whole (the obstacle's pose moves with the body: rod rows and body rows),
 * and the body rows of the position and velocity columns of the rod
 * vertices on segments touching a body shape (the wrench on the body).
 * Cost: 2 (body unknowns + 6 x touching vertices) evaluations of f; the rest
 * of the Jacobian stays analytic. */
static int body_contact_fd(sys_system *s, double t, const double *y, double *Jx) {
  sim_cjac_sp *sp = s->d->cpl->cjs;
  sim_couple *cp = s->d->cpl;
  const int n = s->m->ny, nm = cp->nm;
  double *yp = cp->jw, *f0 = yp + n, *f1 = f0 + n;
  const double u = 2.220446049250313e-16;
  int rc = sim_rhs(t, y, f0, s);
  if (rc != 0) return rc;
  /* the touching vertices' x, v columns, from the contact points of the evaluation at y (listed first:
   * the perturbed evaluations below replace the points) */
  const cosrod_contact_data *d = sim_contact_data(s->d->contact);
  const cosrod_contact_point *pt = d ? cosrod_contact_points(d) : NULL;
  int nb = 0;
  for (size_t k = 0, npt = d ? cosrod_contact_npoints(d) : 0; k < npt; k++) {
    const cosrod_contact_point *p = pt + k;
    if (p->other_kind != 0 || s->m->def->contact.obstacles[p->other].body < 0) continue;
    const cosrod_rod *rod = s->m->rods[p->rod];
    const int *map = s->m->map + s->m->off_r[p->rod], nq = cosrod_rod_nq(rod);
    for (int v = p->segment; v <= p->segment + 1; v++) {
      if (cosrod_rod_vertex_ndof(rod, v) != 3) continue;
      const int qi = cosrod_rod_qindex_vertex(rod, v), vi = cosrod_rod_vindex_vertex(rod, s->m->form, v);
      for (int c = 0; c < 3; c++)
        for (int w = 0; w < 2; w++) {
          const int j = w ? map[nq + vi + c] : map[qi + c];
          if (!sp->bflag[j]) sp->bflag[j] = 1, sp->bcol[nb++] = j;
        }
    }
  }
  memcpy(yp, y, (size_t)n * sizeof *yp);
  for (int m = 0; m < nm + nb; m++) { /* the body columns whole, then the body rows of the rod columns */
    const int whole = m < nm, j = whole ? cp->mmap[m] : sp->bcol[m - nm];
    const double hj = cbrt(u) * fmax(1e-2, fabs(y[j]));
    yp[j] = y[j] + hj;
    const double h2 = yp[j] - (y[j] - hj);
    rc = sim_rhs(t, yp, f1, s);
    yp[j] = y[j] - hj;
    if (rc == 0) rc = sim_rhs(t, yp, f0, s);
    yp[j] = y[j];
    if (rc != 0) break;
    if (whole)
      for (int q = sp->cp[j]; q < sp->cp[j + 1]; q++) Jx[q] = (f1[sp->ri[q]] - f0[sp->ri[q]]) / h2;
    else
      for (int b = 0; b < nm; b++) {
        const int i = cp->mmap[b], q = find(sp, i, j);
        if (q >= 0) Jx[q] = (f1[i] - f0[i]) / h2;
      }
  }
  for (int k = 0; k < nb; k++) sp->bflag[sp->bcol[k]] = 0;
  return rc != 0 ? rc : sim_rhs(t, y, f0, s); /* leave the evaluation at y */
}

int sim_couple_jac_sp(double t, const double *y, double *Jx, void *user) {
  sys_system *s = user;
  sim_cjac_sp *sp = s->d->cpl->cjs;
  sim_jadd A = {NULL, 0, 0, 0, Jx, sp, 0, 0};
  memset(Jx, 0, (size_t)sp->cp[s->m->ny] * sizeof *Jx);
  int fb, rc = sim_couple_jac_assemble(s, t, y, &A, &fb);
  if (rc != 0) return rc;
  if (fb) return sp_fd(s, t, y, Jx); /* (the differences hold the rod-rod blocks in the pattern) */
  rc = sim_couple_jac_contact_fd(s) ? body_contact_fd(s, t, y, Jx) : 0;
  if (rc == 0 && s->d->ccj) sim_contact_jac_sp_cross(s, Jx); /* rod-rod / far self-contact blocks */
  return rc;
}

long sim_couple_jac_sp_pattern(void *user, const int **colptr, const int **rowind) {
  sys_system *s = user;
  sim_cjac_sp *sp = s->d->cpl->cjs;
  const long v = sim_contact_jac_sp_pattern(user, colptr, rowind);
  if (v != sp->version) { /* grown: the positions again, the cached ones void */
    sp->cp = *colptr, sp->ri = *rowind, sp->version = v, sp->npos = 0;
    for (size_t r = 0; r < s->m->nrods; r++) rod_positions(s, sp, r);
    if (groups(sp) != 0) return -1;
  }
  return v;
}
