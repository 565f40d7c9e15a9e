// SPDX-License-Identifier: Apache-2.0
/* Rods attached to rigid bodies (module system, private; couple.c). */
#ifndef COSROD_SYSTEM_COUPLE_H
#define COSROD_SYSTEM_COUPLE_H

#include "cosrod/body.h"
#include "cosrod/sim.h"
#include "cosrod/status.h"

typedef struct sys_system sys_system; /* the assembled system (system_model.h) */

typedef struct sim_couple sim_couple;

/* After the rods are built: the multibody model of the dynamic bodies, the
 * attachments (checked against the rods' initial ends: ERR_PARSE with err
 * "FILE:LINE: key: problem") and the rods' end callbacks.  No-op without
 * bodies. */
cosrod_status sim_couple_create(sys_system *s, char *err, size_t errlen);
/* The attached ends of twin rods (rods[r] a copy of rod r, e.g. with its
 * preloads) follow the bodies like the sim's rods (after create). */
cosrod_status sim_couple_attach_twins(sys_system *s, cosrod_rod **rods);
void sim_couple_free(sys_system *s);
/* Size of the bodies' block of y (0 without dynamic bodies). */
int sim_couple_n(const sys_system *s);
/* The bodies' null-space partition (restart data, sim_resume.c): its size
 * (dependent + independent twist indices; 0 without dynamic bodies), the
 * partition in use into idx, and replaced by idx (-1: not a partition). */
int sim_couple_npart(const sys_system *s);
void sim_couple_partition(const sys_system *s, double *idx);
int sim_couple_set_partition(sys_system *s, const int *idx);
/* Layout (NODE ordering, rods placed one after the other from position
 * pos): place the bodies that go before (e = 0) or after (e = 1) rod r's
 * block, i.e. next to the first rod end they touch; returns the next free
 * position.  Bodies with joints in null-space form share one block (their
 * quasi-velocities are global); bodies attached to no rod go last. */
int sim_couple_place(sys_system *s, size_t r, int e, int pos);
/* After the rods are placed: the remaining bodies, the bodies' initial
 * state into y0, dae_id 1, and the bandwidths s->m->ml, s->m->mu widened to the
 * coupled structure; allocates the Jacobian scratch (COSROD_ERR_NOMEM). */
cosrod_status sim_couple_layout(sys_system *s, double *y0, double *dae_id);
/* galpha (LIE layout, lie_layout.c): place the dynamic bodies' q at qpos
 * (after the rods' q) and their ν last; returns the number of the bodies'
 * q entries.  Increment of their q (0 or -1); whether they need the
 * projection hook (joints, absolute bodies). */
int sim_couple_lie_place(sys_system *s, int qpos);
int sim_couple_lie_increment(const sys_system *s, const double *q, const double *w, double *qn);
int sim_couple_lie_project(const sys_system *s);
/* Banded finite-difference Jacobian of sim_rhs (cosrod_ode_problem.jac
 * signature; bandwidths s->m->ml, s->m->mu; allocation-free). */
int sim_couple_jac_fd(double t, const double *y, double *J, int ldj, void *user);
/* Analytic Jacobian of sim_rhs in the coupled band (couple_jac.c; same
 * signature): set up at creation (0; -1: not available for this layout or
 * no memory: use sim_couple_jac_fd), the callback, its release, and how many
 * evaluations fell back to finite differences (Kirchhoff rods, an entry
 * outside the band). */
int sim_couple_jac_init(sys_system *s);
/* galpha's LIE layout: the same set-up (0 or -1); sim_couple_jac_assemble
 * then adds only the coupling and body blocks (the rods' own blocks are the
 * caller's), in the LIE positions (map, mmap) */
int sim_couple_jac_init_lie(sys_system *s);
/* The multibody Jacobian of the last assembly (nm x nm, column-major, the
 * model's (q, v) ordering), or NULL. */
const double *sim_couple_jac_mbs(const sys_system *s);
int sim_couple_jac(double t, const double *y, double *J, int ldj, void *user);
void sim_couple_jac_free(sim_couple *cp);
long sim_couple_jac_fallbacks(const sys_system *s);
/* Structure of the coupled Jacobian for the sparse pattern (linsolve.c;
 * see couple.c): unit ranges, attachment windows, units joined. */
int sim_couple_nunits(const sys_system *s);
int sim_couple_nattach(const sys_system *s);
/* Number of contact shapes on dynamic bodies (their windows cover whole rods). */
int sim_couple_body_contact(const sys_system *s);
int sim_couple_structure(const sys_system *s, int *ulo, int *uhi, int *aunit, int *alo, int *ahi, int *nat,
                         int *inter);
/* Around the rods' evaluation at (t, y): body poses for the rod ends
 * (before), the rods' reactions on the bodies and the bodies' right-hand
 * side into ydot (after; ydot may be NULL).  0 or -1 (s->d->msg set). */
int sim_couple_rhs_begin(sys_system *s, double t, const double *y);
int sim_couple_rhs_end(sys_system *s, double t, double *ydot);
/* After rods evaluated through sim_couple_rhs_begin: add the bodies' load
 * power and the power of the rods' wrenches on them to *rW, their
 * dissipation to *rD (either may be NULL), keep their energies. */
void sim_couple_energy(sys_system *s, double t, double *rW, double *rD);
/* Add the kept body energies (minus the attached end vertices' kinetic energy). */
void sim_couple_energy_terms(const sys_system *s, double *kinetic, double *elastic, double *gravity);
/* Projection of the bodies' block of y after an accepted step: 0,
 * COSROD_PROJECT_NEW_COORDINATES after a re-partition of the joints'
 * null-space coordinates, or -1. */
int sim_couple_project(sys_system *s, double t, double *y);

/* Static analyses (sim_couple_static.c): on = 1 makes the dynamic bodies'
 * poses at rest come from y + off (7 per body in model order: x, q) in the
 * evaluations through sim_couple_rhs_begin; sim_couple_static_pose sets
 * them from xq at t (kinematic bodies from their keyframes) in either mode;
 * the model index of scenario body b (-1: kinematic); the dynamic bodies'
 * multibody state at rest at the poses xq, into y (layout of the dynamic
 * run; ERR_SINGULAR at an euler-angle body's gimbal lock). */
void sim_couple_static_mode(sys_system *s, int on, int off);
void sim_couple_static_pose(sys_system *s, double t, const double *xq);
/* Body b's pose (x, q) at the last evaluation or sim_couple_static_pose
 * (keyframe bodies: their keyframes at that time). */
void sim_couple_body_pose(const sys_system *s, size_t b, double x[3], double q[4]);
int sim_couple_model_index(const sys_system *s, size_t b);
/* Pose (x, unit q) of keyframe body b at t from its keyframes. */
void sim_couple_keyframe_pose(const sys_system *s, size_t b, double t, double x[3], double q[4]);
cosrod_status sim_couple_set_rest(sys_system *s, const double *xq, double *y);
/* Kirchhoff rods on bodies (couple_kirchhoff.c): the attachments
 * (rod, end, scenario body, model body or -1), the acceleration given to
 * attachment i's rod end, the spatial acceleration of attachment i's body
 * point after a right-hand side (work: sim_couple_nm doubles), a free
 * body's translation by dx and velocity change dv in y (-1 if the body is
 * kinematic or has joints), whether it is such a body. */
size_t sim_couple_natt(const sys_system *s);
void sim_couple_att(const sys_system *s, size_t i, size_t *rod, int *end, int *body, int *mb);
void sim_couple_set_acc(sys_system *s, size_t i, const double acc[3]);
int sim_couple_att_accel(sys_system *s, size_t i, double *work, double acc[3]);
int sim_couple_translate(sys_system *s, int body, const double dx[3], const double dv[3], double *y);
int sim_couple_movable(const sys_system *s, int body);
int sim_couple_nm(const sys_system *s);

/* The bodies as the analyses report them (couple_access.c): scenario
 * bodies (0 without), body b's spatial velocity v and angular velocity w at
 * the last evaluation (either may be NULL), the multibody model of the
 * dynamic bodies (NULL if none), the joint reactions of the last evaluation
 * (as cosrod_mbs_joint_reactions; the model must exist). */
size_t sim_couple_nbodies(const sys_system *s);
void sim_couple_body_twist(const sys_system *s, size_t b, double v[3], double w[3]);
const cosrod_mbs *sim_couple_mbs(const sys_system *s);
cosrod_status sim_couple_joint_reactions(const sys_system *s, double *R);

#endif
