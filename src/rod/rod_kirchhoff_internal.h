// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff constraints of a rod, shared by rod_kirchhoff.c (workspace,
 * blocks and the Schur complement S = G A⁺ Gᵀ, accelerations, the index-1
 * DAE, movable ends) and rod_kirchhoff_project.c (residuals, projection,
 * the constraint matrix G). */
#ifndef COSROD_ROD_KIRCHHOFF_INTERNAL_H
#define COSROD_ROD_KIRCHHOFF_INTERNAL_H

#include "cosrod/band.h"
#include "rod/rod_internal.h"

struct rod_kirchhoff_work {
  int m;           /* constraints per segment */
  cosrod_band *S;  /* (m N) Schur complement G A⁺ Gᵀ, half bandwidths 2m - 1 */
  double *Rt;      /* (N x 9) row-major Rᵀ_k (unnormalised: Rᵀ v = Im(p̄ v p)) */
  double *Jr;      /* (N x 12) rotation block, 3 rows x nr (nr = 4 ABSOLUTE, 3 NULLSPACE), row stride 4 */
  double *Br;      /* (N x 12) A⁺_r J_rᵀ, nr rows x 3, row stride 3 */
  double *rhs;     /* (m N) right-hand side / multipliers */
  double *gtl;     /* ((N+1) x 3) vertex part of Gᵀλ (spatial) */
  double *xs, *ps; /* ((N+1) x 3), (N x 4) positions (full) and quaternions */
  double *vs, *rs; /* ((N+1) x 3), (N x 4) vertex velocities (full) and rotation rates */
  int singular_seg;
  double singular_t;
  /* ends attached to a movable support (a rigid body, sim_couple_kirchhoff.c):
   * the end vertex of a fixed-position end gets the inverse mass mob[e] (3x3,
   * spatial, row-major) in S and in the corrections; its correction goes to
   * d->xdd (accelerations) or is accumulated in dxe / dve (projection) */
  int mob_on[2];
  double mob[2][9];
  double dxe[2][3], dve[2][3];
};

/* Blocks Rᵀ_k, J_r, A⁺_r J_rᵀ of segment k at the positions x (full) and
 * quaternion p. */
void rod_kirchhoff_seg_blocks(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, cosrod_rod_form form,
                              int k, const double *x, const double *p);
/* Assemble S from the blocks of every segment and factor it; 0, or -1 at a
 * kinematic singularity (kw->singular_* set at time t). */
int rod_kirchhoff_assemble_factor(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, cosrod_rod_form form,
                                  double t);
/* Gᵀλ: vertex part into kw->gtl ((N+1) x 3, spatial). */
void rod_kirchhoff_g_transpose(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, const double *lam);
/* base[...] -= A⁺ Gᵀ λ (after rod_kirchhoff_g_transpose); see rod_kirchhoff.c.
 * Returns the largest vertex change. */
double rod_kirchhoff_apply_correction(const cosrod_rod *rod, struct rod_kirchhoff_work *kw,
                                      cosrod_rod_form form, const double *lam, double *base, const int *voff,
                                      const int *roff, int quat_from_angle, double *xsp, double (*eshift)[3]);

#endif
