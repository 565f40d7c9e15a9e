// SPDX-License-Identifier: Apache-2.0
/* Contact in the simulation driver (src/system/contact_element.c): the scenario's
 * `contact:` and obstacles as a load of every rod (cosrod_rod_load_fn) with
 * its band Jacobian blocks (cosrod_rod_load_jac_fn), friction commits after
 * accepted steps, and the contact's energy terms. */
#ifndef COSROD_SIM_CONTACT_H
#define COSROD_SIM_CONTACT_H

#include <stddef.h>

#include "cosrod/contact.h"
#include "cosrod/rod.h"
#include "system/system_def.h"

struct sim_contact;

/* Build the contact model of the definition's rods (built rods, in order)
 * and obstacles and install the load callbacks on the rods.  *out NULL when
 * the definition has no contact.  ERR_UNSUPPORTED (err: FILE:LINE: key: problem)
 * for what is not wired yet. */
cosrod_status sim_contact_create(struct sim_contact **out, const sys_def *d, cosrod_rod **rods, size_t nrods,
                                 char *err, size_t errlen);
void sim_contact_free(struct sim_contact *c);
/* Several rods: store rod r's state from its part yl of y before the rods of
 * an evaluation are evaluated, so that rod-rod contact sees every rod at the
 * same state (a no-op for one rod). */
void sim_contact_prepare(struct sim_contact *c, size_t r, const cosrod_rod *rod, cosrod_rod_form form, double t,
                         const double *yl);
/* Install the callbacks on another set of the same rods (e.g. statics rods). */
void sim_contact_attach(struct sim_contact *c, cosrod_rod **rods, size_t nrods);
/* After an accepted step / converged increment, with the rods last evaluated
 * at the accepted state: friction anchors follow. */
void sim_contact_commit(struct sim_contact *c);
/* A frame at a time inside the last accepted step (dense output after the
 * commit): inside = 1 puts back the friction state that step used (the
 * anchors before the commit), so the frame's friction forces are those of
 * the step's own law; inside = 0 restores the committed state. */
void sim_contact_frame_inside_step(struct sim_contact *c, int inside);
/* Energy of the last evaluation: correct the rods' summed external power W
 * and dissipation rate D (the callback's forces were counted as external
 * loads: remove them, add the work of moving obstacles and the contact's
 * dissipation); the contact potential [J]. */
void sim_contact_rates(const struct sim_contact *c, double *W, double *D);
double sim_contact_energy(const struct sim_contact *c);
const cosrod_contact_data *sim_contact_data(const struct sim_contact *c);
/* The committed friction anchors (restart data, sim/sim_resume.c): size in
 * doubles (0 for NULL), save into b (before_commit: those before the last
 * commit, which the steps up to the last accepted one used: the state of a
 * frame inside that step), load from b (-1: not valid). */
size_t sim_contact_state_size(const struct sim_contact *c);
void sim_contact_state_save(const struct sim_contact *c, double *b, int before_commit);
int sim_contact_state_load(struct sim_contact *c, const double *b);
/* Shapes on rigid bodies: the bodies' poses of each evaluation, spatial
 * (x (nb x 3), q (nb x 4), v (nb x 3), w (nb x 3); set by the coupling before
 * the rods are evaluated), and the wrench of the rods' contact on body b
 * (force, moment about its centre of mass xb) ADDED to F[6].  shift (or
 * NULL): per body the model's centre from the body's own (body frame), the
 * shapes' positions are moved by -shift once. */
void sim_contact_bind_bodies(struct sim_contact *c, const double *bx, const double *bq, const double *bv,
                             const double *bw, const double *shift);
void sim_contact_body_wrench(const struct sim_contact *c, int body, const double xb[3], double F[6]);
/* Pose and velocity at t of an obstacle: fixed, or moved by its keyframes
 * (the pose in the body frame for a body-fixed one).  The one evaluation of
 * keyframed obstacles, shared by runs (which pack the rows once) and the
 * recorder (through sim/sim_translate.h).  0, or -1 (no memory). */
int sim_sys_obstacle_pose(const sys_obstacle *o, double t, cosrod_pose *P);

#endif
