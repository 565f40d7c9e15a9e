// SPDX-License-Identifier: Apache-2.0
/* The rod's interface to other modules (not installed, not exported):
 * what the coupling of rods to rigid bodies (src/sim) and the statics of
 * Kirchhoff rods (src/statics) need beyond include/cosrod/rod.h -- the end
 * motion supplied by a body, the keyframe evaluation shared with
 * keyframe-driven bodies, the Kirchhoff constraint matrix and end
 * mobility, and the end sensitivities of a coupled Jacobian.  Linked from
 * the module's static library (cosrod_rod); libcosrod.so hides them. */
#ifndef COSROD_ROD_HOOKS_H
#define COSROD_ROD_HOOKS_H

#include "cosrod/rod.h"

/* End motion callback: the pose of a supported end e (0 start, 1 end) at
 * time t supplied by the caller instead of keyframes (e.g. a rigid body
 * carrying the end, src/system/couple.c): centroid x, xd, xdd (3) and frame
 * p, pd, pdd (4, unit p); every output is non-NULL.  Used by
 * cosrod_rod_end_motion, so by every evaluation, packing and projection. */
typedef void (*cosrod_rod_end_fn)(void *user, int e, double t, double x[3], double xd[3], double xdd[3],
                       double p[4], double pd[4], double pdd[4]);
/* Install (fn NULL: remove) the end motion callback of end e of a created
 * rod whose end e is pinned or clamped (rod_hooks.c); ERR_INVALID otherwise. */
cosrod_status cosrod_rod_set_end_fn(cosrod_rod *rod, int e, cosrod_rod_end_fn fn, void *user);

/* Derivatives of the load callback's vertex forces (e.g. contact,
 * src/sim/sim_contact.c): ADD dF_n/dx_m to the 3x3 column-major block
 * K + n * stride + 9 (m - n + 1) and dF_n/dxdot_m to the block at the same
 * place + 27, for |m - n| <= 1 (the rod's band; couplings beyond it are not
 * representable here and are left out).  Called by the analytic Jacobians
 * after the evaluation at the same state (so after the load callback).
 * Returns 0, or nonzero (treated as a callback failure). */
typedef int (*cosrod_rod_load_jac_fn)(void *user, double t, int N, double *K, size_t stride);
void cosrod_rod_set_load_jac_fn(cosrod_rod *rod, cosrod_rod_load_jac_fn fn, void *user);
/* The load callback's forces are reactions of the environment (contact), not
 * applied loads: the load factor of a static continuation (arc-length)
 * scales the loads and gravity but not them.  Their vertex forces of the last
 * evaluation are in cosrod_rod_data.fcb. */
void cosrod_rod_set_load_fn_reaction(cosrod_rod *rod, int reaction);
/* A rod of a static analysis (on != 0): its prescribed ends have no rates
 * (a keyframe's pseudo-time rate is not a velocity), so every evaluation —
 * kinetic energy, external power, load callbacks, reactions — sees them at
 * rest, as the statics shell (cosrod_rod_static_create) does. */
void cosrod_rod_set_at_rest(cosrod_rod *rod, int on);
int cosrod_rod_load_fn_reaction(const cosrod_rod *rod);

/* Keyframe motion as of prescribed ends (linear / slerp, or C¹ cubic if
 * cubic != 0; held before the first and after the last keyframe): pos
 * (npos x 4) rows (t, x, y, z) and rot (nrot x 5) rows (t, q0..q3).  Writes
 * X, XD, XDD (3) only if npos > 0 and P, PD, PDD (4) only if nrot > 0 (so
 * callers preset the values of a missing part).  Also used by bodies driven
 * by keyframes (src/system/couple.c). */
cosrod_status cosrod_keyframes_eval(const double *pos, int npos, const double *rot, int nrot, int cubic,
                                    double t, double X[3], double XD[3], double XDD[3], double P[4],
                                    double PD[4], double PDD[4]);

/* Dense constraint Jacobian in the NULLSPACE velocity coordinates at
 * positions q (nq, prescribed ends at t): G (m N x nv, column-major, ldg >=
 * m N), row m k + a = ∂ġ_{k,a}/∂ν, i.e. -Rᵀ_a on vertex k, +Rᵀ_a on vertex
 * k+1 (projected on a slide axis), (c x ·)_a on Ω_k.  Also the linearisation
 * of g in the minimal coordinates (δx, δθ) of statics.  ERR_UNSUPPORTED for
 * a Cosserat rod.  Uses d. */
cosrod_status cosrod_rod_kirchhoff_gmatrix(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *q,
                                           double *G, int ldg);

/* End e (0 start, 1 end) of fixed position attached to a movable support
 * (a rigid body): the end vertex enters S = G A⁺ Gᵀ with the inverse mass
 * W (3x3 spatial, row-major; NULL: fixed support again), the accelerations
 * put its share -W (Gᵀλ)_e on d->xdd of the end vertex (the end's given
 * acceleration minus it), and the projection moves it by -W (Gᵀλ)_e,
 * accumulated per call and taken by cosrod_rod_kirchhoff_take_end_shift
 * (position dx [m], velocity dv [m/s]; zeroed by taking).  ERR_UNSUPPORTED
 * for a Cosserat rod or a free or sliding end. */
cosrod_status cosrod_rod_kirchhoff_set_end_mobility(const cosrod_rod *rod, cosrod_rod_data *d, int e,
                                                    const double W[9]);
void cosrod_rod_kirchhoff_take_end_shift(cosrod_rod_data *d, int e, double dx[3], double dv[3]);
/* Constraint force of the rod on its end vertex e, -(Gᵀλ)_e [N] (spatial),
 * from the last evaluation (zero for a Cosserat rod). */
cosrod_status cosrod_rod_kirchhoff_end_force(const cosrod_rod *rod, const cosrod_rod_data *d, int e, double f[3]);

/* Sensitivities to the prescribed pose E = (x_e, ẋ_e, p_e, ṗe) (3, 3, 4, 4)
 * of end e (pinned / clamped; e.g. a rod end attached to a rigid body),
 * for the analytic Jacobian of a coupled system.  Indices are into the rod's
 * state vector of the form (ABSOLUTE or NULLSPACE, Cosserat rods). */
typedef struct cosrod_rod_end_jac {
  int nr;              /* rows of the right-hand side that depend on E */
  int row[8];          /* (nr) their indices */
  double G[8 * 14];    /* (nr x 14, ld 8) ∂f[row]/∂E */
  int nc;              /* state entries the end's support reaction depends on */
  int col[16];         /* (nc) their indices */
  double Hy[6 * 16];   /* (6 x nc, ld 6) ∂(F, M)/∂y[col]: reaction force [N], moment [N m] */
  double He[6 * 14];   /* (6 x 14, ld 6) ∂(F, M)/∂E */
} cosrod_rod_end_jac;

/* Fill J at the state of the last cosrod_rod_jac / cosrod_rod_jac_full_band
 * call with d (which must come just before: the force derivatives are
 * read from d's Jacobian workspace).  The reaction is that of
 * cosrod_statics_end_reactions without inertia.  COSROD_ERR_UNSUPPORTED for
 * DAE forms, Kirchhoff rods, ends that are not fixed in position or a
 * sliding neighbour vertex. */
cosrod_status cosrod_rod_jac_end(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, int e,
                                 cosrod_rod_end_jac *J);

#endif /* COSROD_ROD_HOOKS_H */
