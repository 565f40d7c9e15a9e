// SPDX-License-Identifier: Apache-2.0
/* Quasistatics by continuation and modal analysis (module statics):
 * [LLA] §4 eqs. 31–32 (Test 2, the omega-twist), [manual: modelling guide].
 *
 * Equilibrium ([LLA] eq. 31) of a rod at pseudo-time t: the prescribed ends
 * sit at their keyframe values at t and the loads are scaled by their time
 * profiles at t.  The unknowns are minimal coordinates (tangent space of the
 * quaternion constraints): per free vertex δx (3, m), per sliding vertex δξ
 * (1, m), per segment a material rotation vector δθ (3, rad) with the update
 * p <- p exp(δθ/2).  They are interleaved exactly like the null-space
 * velocities ν of the rod (cosrod_rod_vindex_* with COSROD_FORM_NULLSPACE),
 * so the residual r (nv = cosrod_rod_nv(rod, NULLSPACE)) has the units
 *   vertex rows: N (generalised force; for a sliding vertex its component
 *                along the axis),  segment rows: N m (material torque
 *                ½ Im(p̄ ψ) of the quaternion force ψ).
 * Rates are zero in statics: damping never contributes, whatever the rod.
 *
 * Solve: continuation in t from t_from to t_to with an Euler predictor
 * ([LLA] eq. 32 in minimal coordinates: K q' = ∂r/∂t; by default plus a
 * limited curvature term) and a full Newton corrector on r = 0 with the
 * banded tangent stiffness K = -∂r/∂δ (band LU, half bandwidths 8) and a
 * line search on the out-of-balance work.  Adaptive increments: halve and
 * retry on divergence, grow after fast convergence, failure
 * (ERR_CONVERGENCE, last converged state kept) below the minimum increment.
 * A change of the stability index of K inside an increment (limit or
 * bifurcation point, e.g. snap-through under load control; see
 * stop_at_critical) is treated like a divergence, so
 * such a solve ends just before the critical point (stats.critical = 1).
 * An equilibrium at a fixed t that plain Newton cannot reach is found by
 * continuation in a load factor on gravity, loads and the load callback.
 * A first increment that fails (a mechanism at the start, e.g. a pinned rod
 * given at an angle under gravity ramped from zero) is retried by
 * pseudo-transient continuation, (K + M/Δτ) δ = r with the lumped masses
 * and Δτ by switched evolution relaxation, which follows the overdamped
 * swing to a stable equilibrium.
 *
 * The stiffness is the rod's analytic static stiffness in the chart (or its
 * finite-difference twin, cosrod_statics_options.jacobian).
 *
 * Modes: generalised symmetric eigenproblem K φ = ω² M φ in the same minimal
 * coordinates with the lumped masses (ρAδs_n per vertex dof, ρΔs (I1, I2, J)
 * per segment), LAPACK dsbevx on M^{-1/2} K M^{-1/2}.  Kirchhoff rods: the
 * same on the tangent space of the shear (extension) constraints, K with the
 * multipliers' geometric stiffness (dense).
 *
 * One solver may hold several uncoupled rods (cosrod_statics_create_system):
 * one pseudo-time path, concatenated unknowns, block-diagonal stiffness.
 * Couplings (rods to bodies, joints) can later add off-diagonal blocks to the
 * same residual / stiffness contract. */
#ifndef COSROD_STATICS_H
#define COSROD_STATICS_H

#include "cosrod/export.h"

#include <stdio.h>

#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cosrod_rod;
struct cosrod_band;

typedef enum cosrod_statics_jacobian {
  COSROD_STATICS_JAC_ANALYTIC = 0, /* the rod's analytic static stiffness, pulled back to the chart */
  COSROD_STATICS_JAC_FD            /* central differences of the residual (twin; also differentiates
                                      the rod's load callback, which the analytic one treats as constant) */
} cosrod_statics_jacobian;

/* Options: start from cosrod_statics_default_options() and change fields.
 * Increments are fractions of the pseudo-time interval [t_from, t_to]. */
typedef struct cosrod_statics_options {
  int increments;       /* nominal number of increments; first increment 1/increments (default 25) */
  double max_increment; /* largest increment (fraction); 0 = 1/increments */
  double min_increment; /* smallest increment (fraction) before failing (default 1e-4) */
  double grow;          /* increment growth factor after fast convergence (default 2) */
  int fast_iterations;  /* <= this many Newton iterations counts as fast (default 4) */
  int max_newton;       /* Newton iterations per increment before halving (default 20) */
  double tol;           /* scaled residual tolerance (default 1e-9), see cosrod_statics_residual:
                           converged when every residual row is below tol times its scale plus
                           the roundoff floor of the internal forces it sums (4 eps (C_Γ |x|/Δs_min
                           + |F|) for forces, 4 eps (C_K/Δs_min + |M|) + Δs n_F for torques), so a
                           long stiff rod whose floor exceeds tol S still converges; an iteration
                           whose Newton step is at roundoff level (max |δx|/Δs_min,
                           |δθ| <= 1e3 eps max(1, |x|/Δs_min)) with residual <= 1e3 tol also
                           converges (stiff small-load problems hit the roundoff floor) */
  int predictor;        /* 0: previous state; 1: Euler predictor [LLA] eq. 32; 2 (default): Euler
                           plus a limited curvature term from the previous increment */
  cosrod_statics_jacobian jacobian; /* default ANALYTIC */
  const double *stops;              /* (nstops) pseudo-times the increments must land on exactly (e.g. output
                                       times 0.25, 0.5, ...), or NULL; not copied, must outlive the solver */
  int nstops;
  int stop_at_critical; /* 1 (default): a change of the stability index of K within an increment
                           (limit or bifurcation point) is treated like a divergence, so the solve
                           stops before it with ERR_CONVERGENCE (stats.critical = 1); 0: pass
                           through.  Index: under conservative loads (gravity, spatial forces)
                           the number of negative eigenvalues of K (banded LDLᵀ); with moments,
                           follower loads or a load callback (K not symmetric) the parity of
                           its negative real eigenvalues (sign of det K from the LU) */
  int gravity_ramp;     /* 1: gravity follows the pseudo-time like a ramped load, scaled by
                           clamp(t, 0, 1) (0 at t = 0, full at t >= 1: a static analysis over
                           [0, 1] starts from the unloaded rod); 0 (default): gravity at its full
                           value at every t (equilibrium_at for dynamics and modes) */
} cosrod_statics_options;

/* The default options (see the fields above). */
COSROD_API cosrod_statics_options cosrod_statics_default_options(void);

/* What a solve did (accumulated over one call). */
typedef struct cosrod_statics_stats {
  long increments;    /* converged increments (without the initial correction) */
  long rejected;      /* increments halved and retried */
  long newton;        /* Newton iterations (linear solves of the corrector) */
  long jacobians;     /* stiffness matrix evaluations (incl. predictors) */
  long residuals;     /* residual evaluations (incl. those of FD stiffness matrices) */
  int max_iterations; /* most Newton iterations in one converged increment */
  double t;           /* pseudo-time reached (last converged state) */
  double residual;    /* scaled residual there */
  double min_step;    /* smallest increment tried (pseudo-time units) */
  double wall_time;   /* seconds */
  int critical;       /* 1: the last rejections were changes of the inertia of K (a critical point) */
  double fail_residual; /* after a failure: the smallest scaled residual the failed increment (or
                           correction) reached, +inf if it never had a finite residual; 0 if no
                           increment failed */
  int unstable;       /* equilibrium_at (and solve at t_from), conservative loads with
                         stop_at_critical: the number of negative eigenvalues of K at the
                         equilibrium Newton reached from the input state (0: stable, or not judged) */
  int replaced;       /* 1: that equilibrium was unstable and a stable one, reached downhill from
                         it by the energy's gradient flow, is returned instead */
} cosrod_statics_stats;

/* Per converged increment (also once for the starting point t_from after its
 * correction): pseudo-time t, state q (nq), Newton iterations and the scaled
 * residual.  Return 0 to go on, non-zero to stop (ERR_INTERRUPTED, state kept). */
typedef int (*cosrod_statics_callback)(void *user, double t, const double *q, int iterations,
                                       double residual);

/* One-line summary (csv = 0) or a CSV header and row (csv != 0). */
COSROD_API void cosrod_statics_stats_print(FILE *out, const cosrod_statics_stats *stats, int csv);

typedef struct cosrod_statics cosrod_statics;

/* Create a solver for rod (which must outlive it); options copied (NULL =
 * defaults).  NULL and *status (may be NULL) on invalid input / no memory. */
COSROD_API cosrod_statics *cosrod_statics_create(const struct cosrod_rod *rod, const cosrod_statics_options *opt,
                                                 cosrod_status *status);
/* A solver for several (uncoupled) rods on one common pseudo-time path: the
 * state q is the concatenation of the rods' q (rod r at
 * cosrod_statics_qoffset), the minimal coordinates and the residual likewise
 * (cosrod_statics_voffset); the scaled residual is the maximum over the rods.
 * The rods (nrods >= 1) must outlive the solver. */
COSROD_API cosrod_statics *cosrod_statics_create_system(const struct cosrod_rod *const *rods, int nrods,
                                                        const cosrod_statics_options *opt, cosrod_status *status);
COSROD_API void cosrod_statics_free(cosrod_statics *s);

struct cosrod_rod_data;

/* Rigid blocks coupled to the rods (statics_blocks.c): e.g. rigid bodies
 * that carry rod ends.  Block b has the pose q_b = (x (3, m), p (4, unit
 * quaternion)) appended to the system's q after the rods' (at nq_rods + 7 b)
 * and the minimal coordinates (δx (3, m), δθ (3, rad, material: p <- p
 * exp(δθ/2))), placed in δ right before rod place[b]'s block (place[b] =
 * nrods: after the last rod), so a block next to the rod end it touches
 * keeps the stiffness banded.  Its residual rows are the force (N) and the
 * material torque Rᵀτ (N m) on the block.  The rods read the block poses
 * through their end-motion callbacks (cosrod_rod_set_end_fn); `pose` sets
 * them before every evaluation of the rods.  The stiffness of a coupled
 * system is the finite-difference twin (central differences, columns
 * grouped by the band). */
typedef struct cosrod_statics_blocks {
  int nblocks;
  const int *place;   /* (nblocks) rod index in [0, nrods] */
  const double *mass; /* (nblocks x 6) modal masses of (δx, δθ): m, m, m, J1, J2, J3 (kg, kg m²) */
  int nattach;        /* rod ends attached to blocks */
  const int *att_rod, *att_end, *att_block; /* (nattach) */
  int blocks_coupled; /* 1: blocks also act on each other (the band then spans all blocks) */
  int follower;       /* 1: some block load is a moment or follows the block (K not symmetric) */
  /* Multipliers (e.g. of joints between blocks, a KKT system [K -Gᵀ; G 0]):
   * nmult linear unknowns λ appended to q after the block poses and placed in
   * δ right after the last block; the residual callback adds -Gᵀλ to the
   * block rows and writes the constraint rows g (nmult) after them, with per
   * row a length scale (m; 1 for angles) in scale after the blocks' pairs: a
   * row converges at |g| <= (1e-3 tol + 16 eps) scale.  mult_h (nmult): the
   * finite-difference step (N or N m) of each multiplier.  Modes and buckling
   * work on the constraints' tangent space (G φ = 0; the multipliers' entries
   * of their vectors are 0). */
  int nmult;
  const double *mult_h;
  void *user;
  /* Poses qb (nblocks x 7) at pseudo-time t, before the rods are evaluated: 0 or -1
   * (also called with nblocks = 0: e.g. to move bodies that are prescribed). */
  int (*pose)(void *user, double t, const double *qb);
  /* After the rods are evaluated (d: their data, nrods): residual rows rb
   * (nblocks x 6, then nmult constraint rows) with the blocks' external
   * loads scaled by mu and their gravity by gscale mu (gscale: the gravity
   * ramp of the path), and per block the scales (nblocks x 2: force N,
   * torque N m, then nmult lengths) the rows are measured against (the
   * largest force and moment terms summed).  qb holds the poses (nblocks x 7)
   * and then the multipliers (nmult).  0 or -1. */
  int (*residual)(void *user, double t, double mu, double gscale, const double *qb,
                  const struct cosrod_rod_data *const *d, double *rb, double *scale);
} cosrod_statics_blocks;

/* A system of rods and rigid blocks (blk may be NULL: as
 * cosrod_statics_create_system).  The definition's arrays are copied.
 * Kirchhoff rods with an end on a block: the constraint force of their end
 * segment's multipliers on that end is added to the block's rows by the
 * solver (the callback writes the rods' generalised end forces only, as for
 * Cosserat rods: cosrod_statics_end_reactions); modes and buckling refuse
 * Kirchhoff rods with blocks (ERR_UNSUPPORTED). */
COSROD_API cosrod_statics *cosrod_statics_create_coupled(const struct cosrod_rod *const *rods, int nrods,
                                                         const cosrod_statics_blocks *blk, const cosrod_statics_options *opt,
                                                         cosrod_status *status);
/* Number of blocks, offset of block b in q and in the minimal coordinates (-1 for a bad b). */
COSROD_API int cosrod_statics_nblocks(const cosrod_statics *s);
COSROD_API int cosrod_statics_block_qoffset(const cosrod_statics *s, int b);
COSROD_API int cosrod_statics_block_voffset(const cosrod_statics *s, int b);
/* Modal analysis of the whole system (rods and blocks, coupled) about
 * (t, q): the `count` lowest eigenpairs of K φ = ω² M φ with the rods'
 * lumped masses and the blocks' masses (each block's 6 x 6 mass includes
 * the lumped mass of the rod end vertices it carries); omega (count, rad/s, negative
 * -sqrt(-λ) for an unstable direction), minimal (count x ndof, or NULL)
 * mass-normalised, largest entry positive.  With multipliers (blk.nmult)
 * on the constraints' null space, K the Lagrangian's Hessian, count <=
 * ndof - 2 nmult (ndof counts the multipliers), the multipliers' entries
 * 0; ERR_SINGULAR for redundant constraints.  Kirchhoff rods' constraint
 * multipliers are multipliers of the same kind (cosrod_statics_nmult
 * counts both): count <= ndof - 2 cosrod_statics_nmult. */
COSROD_API cosrod_status cosrod_statics_modes_system(cosrod_statics *s, double t, const double *q, int count, double *omega,
                                                     double *minimal);

/* Number of multiplier unknowns among the ndof: the Kirchhoff rods'
 * constraint multipliers (m per segment) and the blocks' nmult. */
COSROD_API int cosrod_statics_nmult(const cosrod_statics *s);
/* Rod r's part of a system vector phi (ndof) in the rod's own minimal
 * coordinates (nullspace layout, cosrod_rod_nv; a Kirchhoff rod's
 * multipliers dropped) into out. */
COSROD_API cosrod_status cosrod_statics_rod_minimal(const cosrod_statics *s, int r, const double *phi, double *out);
/* Number of minimal coordinates (= rows of the residual) nv of the system. */
COSROD_API int cosrod_statics_ndof(const cosrod_statics *s);
/* Size of the system's q (sum of the rods' nq), number of rods, offsets of
 * rod r in q and in the minimal coordinates (-1 for a bad r). */
COSROD_API int cosrod_statics_nq(const cosrod_statics *s);
COSROD_API int cosrod_statics_nrods(const cosrod_statics *s);
COSROD_API int cosrod_statics_qoffset(const cosrod_statics *s, int r);
COSROD_API int cosrod_statics_voffset(const cosrod_statics *s, int r);

/* Continuation from t_from to t_to (either direction).  q (nq, the position
 * part of the rod's state, cosrod_rod_initial_state's first nq entries; for
 * a system the rods' q concatenated) is
 * first corrected to the equilibrium at t_from (zero iterations if it is one;
 * if plain Newton fails there, by continuation in a load factor), then
 * followed.  On return q holds the last converged state (the input q if
 * already the correction at t_from failed).  Status: OK;
 * ERR_CONVERGENCE (increment below the minimum: a limit point, or too hard a
 * problem; stats->t says where); ERR_INTERRUPTED (callback); ERR_CALLBACK
 * (the rod's load callback failed fatally).  cb and stats may be NULL. */
COSROD_API cosrod_status cosrod_statics_solve(cosrod_statics *s, double *q, double t_from, double t_to,
                                              cosrod_statics_callback cb, void *user, cosrod_statics_stats *stats);

/* Equilibrium for the loads and ends at t, starting from q (nq, in/out):
 * Newton; if that fails, continuation in a load factor 0 -> 1 at fixed t
 * (for start_from_equilibrium).  On failure q is restored to its input.
 * stats may be NULL. */
COSROD_API cosrod_status cosrod_statics_equilibrium_at(cosrod_statics *s, double t, double *q,
                                                       cosrod_statics_stats *stats);

/* Residual r (nv, units above) at (t, q) and its scaled norm
 *   max( max_vertex |r| / S_F, max_segment |r| / S_M ),
 * S_F = max(|F_k|, |f_ext,n|, min(EI1, EI2, GJ)/L²)   (N),
 * S_M = max(|M_n|, Δs_k |F_k|, |m_ext,k|, min(EI1, EI2, GJ)/L)   (N m),
 * with the stress resultants F, couples M and external loads of the state
 * (maxima over the rod): force residuals relative to the loads and to the
 * stiffness·strain scales.  r and scaled may be NULL. */
COSROD_API cosrod_status cosrod_statics_residual(cosrod_statics *s, double t, const double *q, double *r,
                                                 double *scaled);

/* Tangent stiffness K = -∂r/∂δ (nv x nv) at (t, q) in minimal coordinates,
 * written into K (a band matrix of order nv with ml, mu >= 8; zeroed first),
 * by the method of options.jacobian.  Symmetric at an equilibrium under dead
 * loads: Tᵀ K_q T of the rod's static stiffness K_q (cosrod_rod_stiffness)
 * with T = diag(I, ½ Q(p_k)[0; I]) plus -½[τ_k]ₓ on the segment blocks (τ the
 * residual torque, zero at an equilibrium). */
COSROD_API cosrod_status cosrod_statics_stiffness(cosrod_statics *s, double t, const double *q, struct cosrod_band *K);

/* Apply a minimal-coordinate increment: q <- q ⊕ δ (x += δx, ξ += δξ,
 * p <- p exp(δθ/2), renormalised).  delta (nv). */
COSROD_API void cosrod_statics_apply(const cosrod_statics *s, double *q, const double *delta);

/* Modal analysis about (t, q) (an equilibrium, e.g. from cosrod_statics_solve,
 * or the stress-free initial state): the `count` lowest eigenpairs of
 * K φ = ω² M φ.  Outputs (any may be NULL):
 *   omega (count): ω (rad/s), ascending; a negative value -sqrt(-λ) flags an
 *                  unstable direction (λ = ω² < 0, e.g. beyond buckling);
 *   freq_hz (count): |ω| / (2π);
 *   shapes (count x (N+1) x 6) row-major: per mode and vertex (dx, dy, dz,
 *     rx, ry, rz), mass-normalised (φᵀ M φ = 1) in spatial components:
 *     d = vertex displacement (0 at fixed vertices); r = spatial rotation
 *     vector R(p) δθ of the adjacent segment(s), averaged at interior
 *     vertices, the end segment's at a free or pinned end, 0 at a clamped or
 *     prescribed end.  Sign: the largest-magnitude entry is positive.
 *   minimal (count x nv) row-major: the raw mass-normalised eigenvectors.
 * count <= nv.  ERR_INVALID on bad arguments, ERR_INTERNAL if LAPACK fails. */
COSROD_API cosrod_status cosrod_statics_modes(const struct cosrod_rod *rod, double t, const double *q, int count,
                                              double *omega, double *freq_hz, double *shapes, double *minimal);

/* Kirchhoff rods (model != COSSERAT): the statics path solves the KKT
 * system of the shear (and extension) constraints with their multipliers
 * interleaved, so ndof is nv + m N and cosrod_statics_stiffness returns the
 * KKT matrix; the state q is unchanged.  Multipliers of rod r at (t, q)
 * (the least-squares ones, exact at an equilibrium): the constrained
 * components of the stress resultant F (N x 3, material, N) are written,
 * the others left as they are.  ERR_UNSUPPORTED for a Cosserat rod;
 * ERR_SINGULAR at a kinematic singularity ([LA] §4(a)). */
COSROD_API cosrod_status cosrod_statics_kirchhoff_forces(cosrod_statics *s, int r, double t, const double *q, double *F);

/* Buckling about the equilibrium at pseudo-time t (q, nq, a starting guess
 * for the unloaded equilibrium, not changed): the `count` smallest positive
 * critical factors λ (ascending, INFINITY where fewer exist) of the loads at
 * t (gravity, loads, load callback: the critical loads are λ times them).
 * Estimates from the linearisation K_0 φ = -λ G φ (G = dK/dμ by central
 * differences; rigid null modes of K_0 deflated), each refined to the load
 * factor where the j-th eigenvalue of K(μ) along the prebuckling path
 * crosses zero (so independent of the rotation chart; includes the effect
 * of prebuckling deflections, zero for straight columns).  Under
 * non-conservative loads (moments, follower loads, a load callback: K not
 * symmetric) the non-symmetric pencil K(μ_i) φ = -Δ G(μ_i) φ is iterated
 * to Δ = 0 instead, for the first factor from μ = 0 and for each further
 * one from its estimate of the last linearisation (kept as the estimate if
 * that iteration finds another factor; no mechanism detection there).  minimal (count x
 * nv, or NULL): the buckling modes (null vectors of K there), unit length,
 * largest entry positive, material rotations at the unloaded state.  Dense
 * (O(nv³) per evaluation, ~10 evaluations per mode); ERR_CONVERGENCE if no
 * positive λ exists (the loads stabilise), ERR_SINGULAR if K_0 is zero.
 * With multipliers (blocks with joints): K is the Lagrangian's Hessian on
 * the tangent space of the constraints (their entries of `minimal` 0);
 * ERR_SINGULAR for redundant constraints. */
COSROD_API cosrod_status cosrod_statics_buckling(cosrod_statics *s, double t, const double *q, int count, double *lambda,
                                                 double *minimal);

/* The vertex table of one rod's minimal-coordinate vector phi (nv of the
 * rod, e.g. a row of cosrod_statics_buckling's `minimal` at the rod's
 * offset cosrod_statics_voffset) about q (the rod's nq): shape ((N+1) x 6)
 * per vertex (dx, dy, dz, rx, ry, rz) as the shapes of cosrod_statics_modes
 * (no normalisation, no sign change). */
COSROD_API cosrod_status cosrod_statics_mode_shape(const struct cosrod_rod *rod, const double *q, const double *phi,
                                                   double *shape);

struct cosrod_rod_data;

/* Support reactions of one rod from its data d evaluated at a state
 * (cosrod_rod_eval): R (2 x 6) per end (start, end) the force Fx, Fy, Fz (N)
 * and moment Mx, My, Mz (N m), spatial frame, that the support exerts on the
 * rod: R_F = m_e ẍ_e - f_x,e (inertia != 0; statics: 0) with gravity scaled by
 * gravity_scale (1: as in d), the component along a sliding end's guide
 * removed; R_M = -R(p_e) T(p_e)ᵀ f_e of a clamped or prescribed frame.
 * supported (2, or NULL): 0 free end (R = 0), 1 force only (pinned,
 * sliding), 2 force and moment (clamped, prescribed). */
COSROD_API cosrod_status cosrod_statics_end_reactions(const struct cosrod_rod *rod, const struct cosrod_rod_data *d,
                                                      double gravity_scale, int inertia, double R[12], int supported[2]);
/* Reactions of every rod of the solver at the equilibrium (t, q) of its
 * path (gravity as options.gravity_ramp): R (nrods x 2 x 6), supported
 * (nrods x 2, or NULL), see cosrod_statics_end_reactions. */
COSROD_API cosrod_status cosrod_statics_reactions(cosrod_statics *s, double t, const double *q, double *R, int *supported);

/* Mode types (dominant share of the kinetic energy in the rod's material
 * directions, see cosrod_statics_mode_kinds). */
typedef enum cosrod_mode_kind {
  COSROD_MODE_BENDING_1 = 0, /* bending in the d1–d3 plane (δx·d1, δθ2) */
  COSROD_MODE_BENDING_2,     /* bending in the d2–d3 plane (δx·d2, δθ1) */
  COSROD_MODE_TORSION,       /* δθ3 */
  COSROD_MODE_AXIAL          /* δx·d3 */
} cosrod_mode_kind;
/* "bending-1", "bending-2", "torsion", "axial". */
COSROD_API const char *cosrod_mode_kind_name(cosrod_mode_kind k);
/* Types of `count` modes given as minimal vectors (count x nv, e.g. the
 * `minimal` output of cosrod_statics_modes) about the state q: kind (count)
 * the largest of the four kinetic-energy shares (translations in the frame
 * of an adjacent segment with the vertex masses, material rotations with
 * the segment inertias), share (count x 4, or NULL) the shares. */
COSROD_API cosrod_status cosrod_statics_mode_kinds(const struct cosrod_rod *rod, const double *q, int count,
                                                   const double *minimal, int *kind, double *share);
/* Degenerate groups of ascending ω (count): group[c] numbers the distinct
 * frequencies from 0, consecutive ω within rel (relative) sharing one (a
 * round section's bending pairs: rel 1e-6).  Returns the number of groups. */
COSROD_API int cosrod_statics_mode_groups(int count, const double *omega, double rel, int *group);

/* ---- arc-length continuation (statics_arclen.c) ---------------------------
 * Riks / Crisfield arc-length control in the load factor λ: the equilibrium
 * r(q, λ) = 0 at the fixed pseudo-time t, every external load (gravity,
 * loads, load callback) scaled by λ (prescribed ends stay at their t
 * values), is followed as a curve in (q, λ) through limit points (snap-
 * through), with arc length Δs² = |δ|_W² + ψ² Δλ² (δ in the weighted minimal
 * coordinates δx/Δs_min, δθ; ψ such that both parts are equal on the first
 * tangent; normalised so that the tangent line from λ = 0 to 1 has length 1).
 * Predictor along the unit tangent (orientation: positive inner product with
 * the last secant); corrector on the hyperplane normal to it through the
 * predicted point (Riks), each Newton iteration two solves with the banded
 * LU (J a = -r, J b = -∂r/∂λ: the bordered system eliminated).  Adaptive
 * arc: Δs (target / iterations)^½ in [½, 2] Δs, halved on failure. */
typedef struct cosrod_statics_arc_options {
  double lambda_to;      /* target load factor (default 1): the solve ends there */
  double arc;            /* first arc length (normalised; default 1 / options.increments) */
  double arc_max;        /* largest arc (default 4 arc) */
  double arc_min;        /* smallest arc before failing (default 1e-4 arc) */
  int target_iterations; /* Newton iterations per step the arc is adapted to (default 4) */
  long max_steps;        /* converged steps before giving up (ERR_CONVERGENCE; default 2000) */
  int branch_switch;     /* 1: at the first bifurcation point switch to the crossing branch along the
                            critical mode (the step's point is then the bifurcation point itself);
                            0 (default): stay on the branch */
} cosrod_statics_arc_options;

/* The default arc-length options (see the fields above). */
COSROD_API cosrod_statics_arc_options cosrod_statics_arc_default_options(void);

/* Critical points found inside a step (detected between two converged states). */
typedef enum cosrod_statics_critical {
  COSROD_CRITICAL_NONE = 0,
  COSROD_CRITICAL_LIMIT = 1,      /* dλ/ds changes sign: a load maximum or minimum (snap-through) */
  COSROD_CRITICAL_BIFURCATION = 2 /* the stability index changes without a load extremum */
} cosrod_statics_critical;

/* One converged arc-length step: load factor, normalised arc length s from
 * the start, stability index of K after the step (number of negative
 * eigenvalues under conservative loads, else the parity of det K, see
 * options.stop_at_critical; -1 singular), the critical point inside the step
 * (critical != NONE): its load factor lambda_crit (limit: the equilibrium
 * where dλ/ds = 0 inside the step, regula falsi on the slope from the
 * extremum of the cubic Hermite interpolant of λ(s), exact to the Newton
 * tolerance; the Hermite estimate with the state interpolated in the chart
 * if that fails; bifurcation: bisection of the stability index
 * along the step to 1e-8 of it, with the equilibrium at that λ), its arc
 * length s_crit and its state q_crit (nq). */
typedef struct cosrod_statics_arc_point {
  double lambda, s;
  int index, iterations;
  double residual;
  cosrod_statics_critical critical;
  double lambda_crit, s_crit;
  const double *q_crit;
} cosrod_statics_arc_point;

/* Per converged step (also once for the start, s = 0): the point and the
 * state q (nq).  Non-zero return stops the solve (ERR_INTERRUPTED). */
typedef int (*cosrod_statics_arc_callback)(void *user, const cosrod_statics_arc_point *pt, const double *q);

/* Follow the equilibrium path at pseudo-time t from λ = 0 (q corrected to
 * the equilibrium of the unloaded rod first) until λ reaches
 * opt->lambda_to (the last point is then corrected at exactly lambda_to
 * under load control).  q (nq, in/out): the last converged state; *lambda
 * (may be NULL) its load factor.  opt NULL = defaults.  Status: OK;
 * ERR_CONVERGENCE (arc below arc_min, or max_steps; stats->t = λ reached);
 * ERR_INTERRUPTED (callback); ERR_CALLBACK.  stats: increments = steps,
 * t = the load factor reached. */
COSROD_API cosrod_status cosrod_statics_solve_arclength(cosrod_statics *s, double *q, double t,
                                                        const cosrod_statics_arc_options *opt, cosrod_statics_arc_callback cb,
                                                        void *user, double *lambda, cosrod_statics_stats *stats);

/* Allocate the arc-length workspace now (else the first solve does):
 * OK or ERR_NOMEM. */
COSROD_API cosrod_status cosrod_statics_arclength_reserve(cosrod_statics *s);

/* Reactions (as cosrod_statics_reactions) at the equilibrium (t, q) with
 * every external load scaled by the load factor lambda. */
COSROD_API cosrod_status cosrod_statics_reactions_at(cosrod_statics *s, double t, double lambda, const double *q, double *R,
                                                     int *supported);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_STATICS_H */
