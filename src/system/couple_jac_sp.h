// SPDX-License-Identifier: Apache-2.0
/* Entry adder of the analytic coupled Jacobian (couple_jac.c): the
 * coupled band, or the values of the sparse CSC pattern (linsolve.c) in
 * pattern order (couple_jac_sp.c).  CSC positions are cached once in
 * the order of the adds (checked against (i, j), re-found on a mismatch), so
 * the time loop neither searches nor allocates. */
#ifndef COSROD_SYSTEM_COUPLE_JAC_SP_H
#define COSROD_SYSTEM_COUPLE_JAC_SP_H

#include <stddef.h>

#include "cosrod/sim.h"

typedef struct sys_system sys_system; /* the assembled system (system_model.h) */

typedef struct sim_cjac_sp sim_cjac_sp;

typedef struct sim_jadd {
  double *J; /* band (ld ldj, ml, mu), or NULL: CSC */
  int ldj, ml, mu;
  double *Jx;      /* CSC values (pattern order) */
  sim_cjac_sp *sp; /* CSC pattern, cached positions, rod scratch bands */
  int k;           /* next cached position */
  int overflow;    /* a non-zero outside the band / pattern */
} sim_jadd;

void sim_jadd_csc(sim_jadd *A, int i, int j, double v);

static inline void sim_jadd_add(sim_jadd *A, int i, int j, double v) {
  if (!A->J) {
    sim_jadd_csc(A, i, j, v);
    return;
  }
  if (v == 0.0) return;
  if (i - j > A->ml || j - i > A->mu) {
    A->overflow = 1;
    return;
  }
  A->J[(size_t)j * (size_t)A->ldj + (size_t)(A->mu + i - j)] += v;
}

/* Analytic assembly through A (couple_jac.c): 0, or the failing code;
 * *fallback = 1 when the analytic Jacobian does not apply (Kirchhoff rods, an
 * entry outside the band / pattern). */
int sim_couple_jac_assemble(sys_system *s, double t, const double *y, sim_jadd *A, int *fallback);
/* Rod r's own band (at the gathered state s->d->yl) into the CSC values. */
int sim_couple_jac_sp_rod(sys_system *s, size_t r, double tc, sim_jadd *A);
/* Sparse analytic Jacobian (cosrod_ode_problem.jac_sp) on the pattern
 * (colptr, rowind) of linsolve.c: set up (0, or -1: not available, keep
 * the grouped differences), the callback, the release. */
int sim_couple_jac_sp_init(sys_system *s, const int *colptr, const int *rowind);
int sim_couple_jac_sp(double t, const double *y, double *Jx, void *user);
/* cosrod_ode_problem.jac_pattern with rod-rod / self-contact between rods on
 * bodies: the contact's grown pattern (sim_contact_jac_sp_pattern), the
 * cached positions redone when it grew; the version, -1 without memory. */
long sim_couple_jac_sp_pattern(void *user, const int **colptr, const int **rowind);
void sim_couple_jac_sp_free(sim_cjac_sp *sp);

/* Analytic body <-> rod contact blocks of shapes on bodies
 * (couple_contact_jac.c): workspace (NULL without such shapes, without
 * memory, or with COSROD_BODY_CONTACT_JAC=fd), its release, and the two
 * phases of one Jacobian after the attachments: phase 0 adds the contact's
 * d(F_b, M_b)/dy_m to dF (nbm x 6 x nm), phase 1 (after the structural adds)
 * adds the rod rows of the body columns and the body rows of the rod columns
 * through B.  P, D as in couple_jac.c.  0, or 1: not applicable at this
 * evaluation (a contact on a vertex that is not a free 3-dof vertex): the
 * caller uses central differences. */
struct sim_ccj;
struct sim_ccj *sim_ccj_create(const sys_system *s);
void sim_ccj_free(struct sim_ccj *c);
int sim_ccj_assemble(sys_system *s, struct sim_ccj *c, int phase, sim_jadd *B, const double *P, const double *D,
                     double *dF);
/* 1 when the last assembly left the body-contact entries to differences. */
int sim_couple_jac_contact_fd(const sys_system *s);

#endif
