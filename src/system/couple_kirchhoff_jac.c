// SPDX-License-Identifier: Apache-2.0
/* Jacobian of the coupled Kirchhoff DAE with rods on rigid bodies
 * (couple_kirchhoff.c), in the coupled band (s->m->ml, s->m->mu; storage
 * J[j ldj + mu + i - j]).
 *
 * The coupled right-hand side at y: body poses -> rods with the end poses E
 * and the end accelerations z (z = the body points' accelerations) -> end
 * reactions -> body wrenches -> bodies.  Split the columns:
 * - coupling columns: the body unknowns and every rod unknown whose column
 *   reaches a body row within the band (the coupled band bounds every
 *   dependence, couple_layout.c).  A column outside this set changes no body
 *   row, hence neither E (body unknowns only) nor z (the body rows and
 *   unknowns only), nor another rod;
 * - the other columns: at frozen (E, z) the coupled column IS the rod's own
 *   column, assembled analytically (cosrod_rod_kirchhoff_jac_dae_band; the
 *   Cosserat DAE rods cosrod_rod_jac_dae_mass_band) at the rods' data of
 *   the coupled evaluation at y.
 * The coupling columns (the end segments, the end multipliers, the bodies:
 * a fixed number per attachment, independent of N) are central differences
 * of the coupled right-hand side, δ_j = cbrt(u) max(|y_j|, 1e-3) (truncation
 * O(δ²) ~ u^(2/3), rounding u/δ ~ u^(2/3) relative), Curtis-Powell-Reid
 * grouped (columns ml + mu + 1 apart share an evaluation): 2 (ml + mu + 1)
 * right-hand sides at most, against ml + mu + 1 of the forward differences
 * of the whole band whose O(sqrt(u)) error in the stiff rod columns turns a
 * Rosenbrock method into a low-order W-method (bench/results/kirchhoff-dae-rodas.md).
 * COSROD_KIRCHHOFF_JAC=fd keeps those forward differences. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "system/couple_internal.h"
#include "system/system_model.h"

struct sim_kjac {
  int ny;
  unsigned char *cc; /* (ny) 1: coupling column */
  double *w;         /* (4 ny) perturbed y, f(y), f(y + d), f(y - d) */
};

void sim_couple_kirch_jac_free(sys_system *s) {
  struct sim_kjac *k = s->d->kjac;
  if (!k) return;
  free(k->cc);
  free(k->w);
  free(k);
  s->d->kjac = NULL;
}

int sim_couple_kirch_jac_init(sys_system *s) {
  const sim_couple *cp = s->d->cpl;
  const int n = s->m->ny, ml = s->m->ml, mu = s->m->mu;
  if (!cp) return -1;
  struct sim_kjac *k = calloc(1, sizeof *k);
  if (!k) return -1;
  s->d->kjac = k;
  k->ny = n;
  k->cc = calloc((size_t)n, 1);
  k->w = calloc(4 * (size_t)n, sizeof *k->w);
  if (!k->cc || !k->w) return -1;
  for (int b = 0; b < cp->nm; b++) { /* body row i: the columns j with j - mu <= i <= j + ml */
    const int i = cp->mmap[b];
    for (int j = i - ml > 0 ? i - ml : 0; j <= i + mu && j < n; j++) k->cc[j] = 1;
  }
  return 0;
}

/* The rods' analytic bands at the data of the coupled evaluation at y. */
static int rod_bands(sys_system *s, double t, const double *y, double *J, int ldj) {
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    sim_gather(s, r, y, s->d->yl);
    double *Jr = J + (size_t)s->m->qoff_r[r] * (size_t)ldj;
    const int *perm = s->m->perm + s->m->off_r[r];
    cosrod_status st;
    if (cosrod_rod_kirchhoff_m(rod) > 0) {
      /* the end mobility only changes the end vertex's acceleration, whose
       * columns (end multipliers, end segment) are coupling columns */
      sim_couple_kirch_mobility(s, r, 0);
      st = cosrod_rod_kirchhoff_jac_dae_band(rod, s->d->data[r], t, s->d->yl, perm, Jr, ldj, s->m->ml, s->m->mu);
      sim_couple_kirch_mobility(s, r, 1);
    } else {
      st = cosrod_rod_jac_dae_mass_band(rod, s->d->data[r], t, s->d->yl, perm, Jr, ldj, s->m->ml, s->m->mu);
    }
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  }
  return 0;
}

int sim_couple_kirch_jac(double t, const double *y, double *J, int ldj, void *user) {
  sys_system *s = user;
  struct sim_kjac *k = s->d->kjac;
  const int n = s->m->ny, ml = s->m->ml, mu = s->m->mu, w = ml + mu + 1;
  double *yq = k->w, *f0 = yq + n, *fp = f0 + n, *fm = fp + n;
  const double c3 = cbrt(DBL_EPSILON);
  for (int j = 0; j < n; ++j) memset(J + (size_t)j * (size_t)ldj, 0, (size_t)w * sizeof *J);
  int rc = sim_rhs(t, y, f0, s); /* body poses, z and the rods' data at y */
  if (rc != 0) return rc;
  if ((rc = rod_bands(s, sim_tclamp(s, t), y, J, ldj)) != 0) return rc;
  memcpy(yq, y, (size_t)n * sizeof *yq);
  for (int g = 0; g < w && g < n; g++) {
    int any = 0;
    for (int j = g; j < n; j += w) any |= k->cc[j];
    if (!any) continue;
    for (int j = g; j < n; j += w)
      if (k->cc[j]) yq[j] = y[j] + c3 * fmax(fabs(y[j]), 1e-3);
    if ((rc = sim_rhs(t, yq, fp, s)) != 0) return rc;
    for (int j = g; j < n; j += w)
      if (k->cc[j]) yq[j] = y[j] - (yq[j] - y[j]);
    if ((rc = sim_rhs(t, yq, fm, s)) != 0) return rc;
    for (int j = g; j < n; j += w) {
      if (!k->cc[j]) continue;
      const double d2 = ((y[j] + c3 * fmax(fabs(y[j]), 1e-3)) - y[j]) + (y[j] - yq[j]); /* the representable 2δ */
      yq[j] = y[j];
      const int i0 = j - mu > 0 ? j - mu : 0, i1 = j + ml < n - 1 ? j + ml : n - 1;
      double *col = J + (size_t)j * (size_t)ldj + mu - j;
      for (int i = i0; i <= i1; i++) col[i] = (fp[i] - fm[i]) / d2;
    }
  }
  return 0;
}

/* ida: F = M y' - f(y), ∂F/∂y + cj ∂F/∂y' = -J + cj M. */
int sim_couple_kirch_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ldj,
                             void *user) {
  (void)yp;
  sys_system *s = user;
  const int n = s->m->ny, ml = s->m->ml, mu = s->m->mu;
  int rc = sim_couple_kirch_jac(t, y, J, ldj, user);
  if (rc != 0) return rc;
  for (int j = 0; j < n; j++) {
    double *col = J + (size_t)j * (size_t)ldj;
    for (int i = 0; i < ml + mu + 1; i++) col[i] = -col[i];
    col[mu] += cj * s->m->dae_id[j];
  }
  return 0;
}
