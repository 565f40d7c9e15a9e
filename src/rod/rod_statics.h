// SPDX-License-Identifier: Apache-2.0
/* The rod's interface to statics (not installed, not exported): what the
 * static solver (src/statics) reads of a created rod beyond
 * include/cosrod/rod.h, without knowing struct cosrod_rod.
 *
 *  - cosrod_rod_view_get: a read-only view of the discretisation, the
 *    layout of q and of the NULLSPACE velocities ν, the masses and the
 *    stiffness constants (pointers into the rod, valid while it lives);
 *  - cosrod_rod_has_loads, cosrod_rod_dead_loads: which loads act now;
 *  - cosrod_rod_static_create: a shell sharing the rod's arrays that leaves
 *    out every velocity-dependent force (rates are zero in statics), for
 *    cosrod_rod_data_create / cosrod_rod_eval / cosrod_rod_stiffness; a
 *    snapshot of the rod's callbacks at the time of the call.
 *    cosrod_rod_static_force_only makes it evaluate a Kirchhoff rod as a
 *    Cosserat rod (statics adds the constraint forces itself).
 * Linked from the module's static library (cosrod_rod); libcosrod.so hides
 * them. */
#ifndef COSROD_ROD_STATICS_H
#define COSROD_ROD_STATICS_H

#include "cosrod/rod.h"

/* One end's support as the rod discretises it. */
typedef struct cosrod_rod_end_view {
  cosrod_end_kind kind;
  int fixpos;     /* centroid prescribed (pinned, clamped, prescribed) */
  int fixrot;     /* frame prescribed (clamped, prescribed): ghost quaternion */
  int slides;     /* one translational coordinate ξ along axis */
  double axis[3]; /* slide axis (unit) */
} cosrod_rod_end_view;

typedef struct cosrod_rod_view {
  int N;                    /* segments */
  int nq, nv_ns;            /* sizes of q and of ν (NULLSPACE) */
  const double *s;          /* (N+1) grid */
  const double *ds;         /* (N) Δs */
  const double *mv;         /* (N+1) vertex masses ρA δs_n */
  const double *Ib;         /* (N x 3) segment inertias ρΔs (I1, I2, J) */
  const double *G0;         /* (N x 3) reference strains Γ0 */
  const double *x_init;     /* ((N+1) x 3) initial centroids */
  const int *qv, *qs;       /* (N+1), (N) offsets in q */
  const int *nd;            /* (N+1) vertex dofs 0/1/3 */
  const int *vv_ns, *vs_ns; /* (N+1), (N) offsets in ν */
  double CG[3], CK[3];      /* stiffness constants C_Γ, C_K */
  double gravity[3];        /* m/s² */
  cosrod_rod_end_view end[2];
} cosrod_rod_view;

/* Fill v from rod. */
void cosrod_rod_view_get(const cosrod_rod *rod, cosrod_rod_view *v);
/* 1 if spatial loads or a load callback act on rod, else 0. */
int cosrod_rod_has_loads(const cosrod_rod *rod);
/* 1 if every load on rod is a spatial force and there is no load callback
 * (dead loads: their stiffness is zero at any load factor), else 0. */
int cosrod_rod_dead_loads(const cosrod_rod *rod);

/* The damping-free shell of rod (NULL: no memory); free with
 * cosrod_rod_static_free (never cosrod_rod_free: the arrays are rod's). */
cosrod_rod *cosrod_rod_static_create(const cosrod_rod *rod);
void cosrod_rod_static_force_only(cosrod_rod *shell);
void cosrod_rod_static_free(cosrod_rod *shell);

#endif /* COSROD_ROD_STATICS_H */
