// SPDX-License-Identifier: Apache-2.0
/* Sparse (KLU) Jacobian of rods without bodies whose rod-rod or self-contact
 * couples vertices outside the rods' bands (module system, private;
 * contact_jac_sp.c). */
#ifndef COSROD_SYSTEM_CONTACT_JAC_SP_H
#define COSROD_SYSTEM_CONTACT_JAC_SP_H

#include "cosrod/sim.h"
#include "cosrod/status.h"

typedef struct sys_system sys_system; /* the assembled system (system_model.h) */

typedef struct sim_cjac_contact sim_cjac_contact;

/* Sort m integer pairs e[2k], e[2k + 1] (lexicographically) and drop the
 * repeated ones in place; returns the number left (contact_jac_sp.c). */
size_t sim_pairs_sort_unique(int *e, size_t m);

/* Position of entry (i, j) in a CSC pattern (colptr cp, sorted row indices
 * ri per column), -1 if not stored: binary search (set-up and pattern
 * growth; the value loops use positions found once). */
static inline int sim_csc_find(const int *cp, const int *ri, int i, int j) {
  int lo = cp[j], hi = cp[j + 1] - 1;
  while (lo <= hi) {
    const int m = lo + (hi - lo) / 2;
    if (ri[m] == i) return m;
    if (ri[m] < i)
      lo = m + 1;
    else
      hi = m - 1;
  }
  return -1;
}

/* Build the pattern (the rods' bands plus the vertex blocks of candidate
 * segment pairs, see contact_jac_sp.c) into *colptr, *rowind (malloc'd, the
 * caller owns them; *rowind moves when the pattern grows) and the value
 * workspace.  Returns 1 with the pattern (the bands alone when no pair of
 * two or more rods is a candidate yet), 0 when the band holds everything for
 * now (no rod-rod or far self-contact pair; nothing allocated), -1 on failure. */
int sim_contact_jac_sp_init(sys_system *s, int **colptr, int **rowind, int *nnz);
/* 1 if the layout has the contact pattern (rods without bodies in the
 * NODE layout of any form but ida's DAE residual, no Kirchhoff rods, rod-rod
 * or self-contact on). */
int sim_contact_jac_sp_supported(const sys_system *s);
/* cosrod_ode_problem.jac_sp: the analytic values on the pattern. */
int sim_contact_jac_sp(double t, const double *y, double *Jx, void *user);
/* cosrod_ode_problem.jac_pattern: adds the blocks the evaluations found
 * outside the pattern (with their neighbours; the arrays grow in place or
 * move) and returns the pattern's version. */
long sim_contact_jac_sp_pattern(void *user, const int **colptr, const int **rowind);
/* Rods on bodies (the coupled pattern of linsolve.c in *colptr, *rowind,
 * nnz entries): the workspace, and the candidate pairs' blocks with their
 * neighbours merged into the pattern (the arrays grow in place or move;
 * *nnz updated).  0, or -1 (nothing merged; no workspace left). */
int sim_contact_jac_sp_init_cpl(sys_system *s, int **colptr, int **rowind, int *nnz);
/* Adds the rod-rod and far self-contact blocks of the last evaluation
 * (outside the rods' bands) to the values Jx on the pattern; blocks outside
 * it are remembered for jac_pattern. */
void sim_contact_jac_sp_cross(sys_system *s, double *Jx);
void sim_contact_jac_sp_free(sys_system *s);
/* Contact Jacobian entries that fell outside the pattern at an evaluation so far
 * (left out there; added by jac_pattern). */
long sim_contact_jac_sp_dropped(const sys_system *s);

#endif
