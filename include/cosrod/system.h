// SPDX-License-Identifier: Apache-2.0
/* The assembled mechanical system (module system): rods, rigid bodies,
 * attachments of rod ends to bodies, joints and bushings as one set of
 * equations for the analyses of module sim (include/cosrod/sim.h).
 *
 * What the system owns (src/system/):
 *   layout.c          the state layouts of the global y (one index map per
 *                     rod): NODE (each rod in its banded node ordering, each
 *                     dynamic body next to the first rod end it touches, so a
 *                     chain stays banded), SPLIT (all q, then all v: the M1
 *                     reduction of absolute rods without bodies), LIE
 *                     (galpha: all q, then all ν; lie_layout.c,
 *                     lie_kirchhoff.c with the Lie increment); the initial
 *                     state and the integrator problem;
 *   callbacks.c       right-hand side f, DAE residual, mass matrix, analytic
 *                     Jacobians of the rods (SPLIT blocks, NODE band),
 *                     projection after steps;
 *   energy.c          evaluation of every rod and body at one state, external
 *                     power, dissipation rate and the energy terms;
 *   system_def.h      the system's definition: rods' attachments, bodies,
 *                     joints, bushings, contact and settings in the system's
 *                     own terms (filled by module sim's translation from a
 *                     scenario, src/sim/sim_translate_sys.c; the system
 *                     never sees a scenario type);
 *   bodies.c          the definition's bodies, joints and bushings ->
 *                     multibody model;
 *   couple*.c         rods attached to bodies: end poses from the bodies, the
 *                     rods' end reactions on them ([LLA] Remark 3.1), the
 *                     analytic coupled Jacobian (band or sparse values,
 *                     couple_jac*.c), placement in the layouts, Kirchhoff rods
 *                     on bodies (the Schur complement of [LA] eq. 14 with the
 *                     ends' mobility, couple_kirchhoff.c);
 *   linsolve.c        band or sparse (KLU) linear solver and the sparse
 *                     pattern of the coupled Jacobian;
 *   kirchhoff.c       Kirchhoff rods: input checks, consistent initial state,
 *                     the residual Jacobian by grouped differences;
 *   static_blocks.c,  the rigid blocks and joint rows ([L] §5, multipliers:
 *   joint_static.c    a KKT system) the statics solver adds to the rods'
 *                     equilibrium equations ([LLA] eqs. 31-32).
 * A bodies-only model is a system with zero rods.  The module-internal
 * interface is src/system/system_model.h: a system is a const model
 * (struct sys_model: definition, rods, layout, index maps, bandwidths, the
 * integrator problem; written only by its constructors) and the run's data
 * (struct sys_data: rod data, state buffers and scratch, the coupling,
 * linear-solver and contact objects); the analyses hold one next to their
 * own state.
 *
 * Force elements (the seam for contact and other interactions).  A force
 * element adds generalised forces on rod vertices that may depend on the
 * positions and velocities of vertices of any rod (contact with obstacles,
 * rod-rod and self contact, springs between rods).  It is described by the
 * callbacks below; the system gives it the vertex positions x_i and
 * velocities ẋ_i of every rod and receives
 *   forces     F_i added to the vertex loads of each rod.  The rods apply
 *              them in every formulation and layout like their other vertex
 *              loads (the load hook of include/cosrod/rod.h, applied in
 *              cosrod_rod_rhs_* and the statics residual), so the element
 *              never sees a layout;
 *   blocks     ∂F_a/∂x_b and ∂F_a/∂ẋ_b (3x3) for vertex pairs (a, b).  The
 *              system maps vertex b's position and velocity to their places
 *              in y through the rod's index maps (cosrod_rod_qindex_vertex,
 *              cosrod_rod_vindex_vertex, then the layout's map) and scales
 *              the rows by the vertex's inverse mass; blocks of one rod lie in
 *              its band, blocks between rods (and far apart on one rod) leave
 *              the band and need the sparse pattern;
 *   energy     the element's potential (added to the elastic energy) and its
 *              dissipation rate (integrated into the dissipated energy);
 *   commit     called once per accepted step or converged increment (e.g. the
 *              stick anchors of friction).
 * How a new force element is added to the system:
 *   1. implement the callbacks of cosrod_force_element;
 *   2. forces: evaluate the element once per state before the rods are
 *      evaluated (couple.c sim_couple_rhs_begin is the pre-pass every
 *      evaluation path goes through: callbacks.c sim_rhs, energy.c
 *      sim_eval_all; lie_layout.c, kirchhoff.c and couple_kirchhoff.c call
 *      sim_rhs) and let each rod's load hook add its vertices' F_i;
 *   3. Jacobian blocks: add them through the coupled Jacobian's entry adder
 *      (couple_jac_sp.h sim_jadd_add: the band or the sparse values) in
 *      couple_jac.c sim_couple_jac_assemble, and for rods without bodies in
 *      callbacks.c sim_jac_node / sim_jac_split after the rods' own blocks;
 *      an entry outside the band sets the adder's overflow flag, which falls
 *      back to finite differences;
 *   4. pattern: enlarge the sparse pattern in linsolve.c build_pattern by
 *      the element's possible vertex pairs, so that linsolve.c chooses the
 *      sparse solver when they leave the band;
 *   5. energy: add the potential and the dissipation rate in energy.c
 *      (sim_eval_all, sim_energy_from_data); commit from the analyses' step
 *      and increment callbacks (src/sim/sim_run.c sim_step_cb, static_frame).
 *
 * Conventions: SI units; arrays of 3-vectors row-interleaved (x[3 i + k]);
 * 3x3 blocks column-major (A[r + 3 c]). */
#ifndef COSROD_SYSTEM_H
#define COSROD_SYSTEM_H

#include "cosrod/export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Adds one 3x3 block pair of a force element: ∂F/∂x (Kx) and ∂F/∂ẋ (Cv),
 * column-major, of the force on vertex ia of rod ra with respect to vertex ib
 * of rod rb (either may be NULL: zero). */
typedef void (*cosrod_force_block_fn)(void *ctx, size_t ra, int ia, size_t rb, int ib, const double Kx[9],
                                      const double Cv[9]);

/* A force element (see above).  x[r], v[r]: rod r's (N_r + 1) x 3 vertex
 * positions and velocities; f[r]: the forces to add to them.  Callbacks
 * return 0, or non-zero to fail the evaluation; jacobian and commit may be
 * NULL (jacobian NULL: the system's finite differences). */
typedef struct cosrod_force_element {
  const char *name; /* for messages */
  void *user;
  int (*forces)(void *user, double t, size_t nrods, const double *const *x, const double *const *v,
                double *const *f, double *potential, double *dissipation);
  int (*jacobian)(void *user, double t, size_t nrods, const double *const *x, const double *const *v,
                  cosrod_force_block_fn add, void *ctx);
  void (*commit)(void *user, double t);
} cosrod_force_element;

#ifdef __cplusplus
}
#endif

#endif /* COSROD_SYSTEM_H */
