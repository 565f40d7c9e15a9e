// SPDX-License-Identifier: Apache-2.0
/* Simulation driver (module sim): a validated scenario (cosrod_scenario)
 * -> rods, formulation, stabilisation, integrator -> a run from 0 to t_end
 * with output every `every` seconds (dense output), energy accounting and
 * statistics ([manual: modelling guide, integrators, command line, output reference]).
 *
 * Global state.  The states of all rods are stacked into one vector y.
 * Two layouts:
 *   NODE   (default) each rod's unknowns in the rod's node-interleaved banded
 *          ordering (cosrod_rod_order_fill: per vertex / segment its
 *          position, velocity and, for the DAE form, multiplier together),
 *          so every formulation has a Jacobian with N-independent
 *          bandwidths; rods follow one another (block diagonal).
 *   SPLIT  (absolute formulation with radau5 / rodas / seulex) y = (q of all
 *          rods, v of all rods), second-order structure m1 = m2 = nq so the
 *          implicit methods use Hairer's M1 reduction; bandwidths of the rod.
 * Jacobians are analytic (module rod): SPLIT the blocks da/dq, da/dv
 * (cosrod_rod_jac); NODE the whole Jacobian in the banded ordering
 * (cosrod_rod_jac_full_band; DAE mass-matrix form cosrod_rod_jac_dae_mass_band;
 * ida's residual Jacobian dF/dy + cj dF/dy').
 *
 * Formulations: nullspace (ODE), absolute (ODE, projection or Baumgarte),
 * dae: with ida the residual of [LA] eq. (14); with the mass-matrix methods
 * (radau5, rodas, seulex) the index-1 system M y' = f with
 * M = diag(I, I, 0) and algebraic equations 0 = λ_post(q, v) - λ (the
 * multipliers of [LLA] eq. 28), i.e. the absolute ODE plus its multipliers.
 *
 * Energy balance ([manual: command line, output reference], energy.csv): the dissipated energy and the work
 * of external loads (incl. moving prescribed ends) are the time integrals of
 * the rod's dissipation rate and external power, integrated with Simpson's
 * rule on the method's dense output over every accepted step (and over the
 * partial step up to an output time), so the balance is exact up to the
 * integration error.  The impulsive work at a velocity jump of a prescribed
 * end (a kink of linear keyframes, or the end of the keyframes), which no
 * power integral sees, is booked at the breakpoint (below) as the jump of
 * the mechanical energy between the one-sided limits (½ m_0 Δ|v_0|²).
 *
 * Breakpoints: every time in (0, t_end) where the right-hand side is not
 * smooth -- keyframe times of prescribed ends and the ends of `ramp` and
 * `active` load windows -- ends a piece of the run: the method is restarted
 * there with a fresh step-size selection and never steps over it, and each
 * piece sees the one-sided limits of the right-hand side at its ends.  The
 * statistics are summed over the pieces.
 *
 * Static analyses (module statics, [LLA] eqs. 31-32): `static` follows the
 * continuation over the pseudo-time [0, 1] with frames (velocities 0) at the
 * output pseudo-times and the increment observer at every converged increment; `modes` solves the equilibrium
 * at t = 0 and the lowest eigenpairs (cosrod_sim_mode); `buckling` the critical load factors of the loads at
 * t = 1 (cosrod_sim_load_factor); all three for one or several independent rods.  `start_from_equilibrium` replaces
 * the initial positions of every rod by its static equilibrium under the t = 0 loads plus the `preload` loads
 * (which are off for t >= 0), at rest.
 *
 * Rods, Kirchhoff rods ([LA] §3-4), rigid bodies with rod ends attached to
 * them, joints and bushings ([L] §5) run through cosrod_sim in every
 * analysis; rigid bodies without rods run through cosrod_sim_bodies_run.
 * Combinations that are not supported are refused by cosrod_sim_create
 * with one line naming the scenario key (a clear error, never a silent
 * ignore), e.g. baumgarte with the null-space formulation, formulation dae
 * with galpha, a joint on a keyframe-driven body in modal analyses.
 *
 * Nothing is allocated after cosrod_sim_create. */
#ifndef COSROD_SIM_H
#define COSROD_SIM_H

#include "cosrod/export.h"

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "cosrod/integrate.h"
#include "cosrod/rod.h"
#include "cosrod/scenario.h"
#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cosrod_sim cosrod_sim; /* opaque */

/* Energy terms [J] at the current time ([manual: command line, output reference]). */
typedef struct cosrod_sim_energy {
  double kinetic, elastic, gravity;
  double external_work; /* ∫ external power dt since t = 0 */
  double dissipated;    /* ∫ dissipation rate dt since t = 0 (>= 0) */
  double balance;       /* kinetic + elastic + gravity + dissipated - external_work */
} cosrod_sim_energy;

/* Callbacks during cosrod_sim_run (all optional).  Return 0 to go on, > 0 to
 * stop the run (status COSROD_ERR_INTERRUPTED), < 0 fatal (ERR_CALLBACK). */
typedef struct cosrod_sim_observer {
  /* At t = 0 and at every output time.  The rods' data (cosrod_sim_rod_data)
   * are evaluated at (t, state) and cosrod_sim_energy is valid. */
  int (*frame)(void *user, const cosrod_sim *sim, double t);
  /* Every attempted step [t, t + h]. */
  int (*step)(void *user, const cosrod_sim *sim, double t, double h, int accepted);
  void *user;
  /* If non-NULL, polled after every step: a non-zero value stops the run
   * like a callback returning > 0 (for a SIGINT handler).  Also polled inside
   * long steps (band LU, Jacobian assembly; cosrod_interrupt_install). */
  const volatile sig_atomic_t *stop;
  /* Static analysis: after every converged increment (also t = 0).  Frames
   * are at t = 0 and the output pseudo-times k * output.every only (an output
   * time inside an increment is landed on by a separate solve, before the
   * increment's callback), plus the last converged state of a failed run. */
  int (*increment)(void *user, const cosrod_sim *sim, double t, long iterations, double residual);
} cosrod_sim_observer;

/* Build the simulation of scenario sc (sc must outlive the sim).  On failure
 * NULL; *status (may be NULL) is COSROD_ERR_UNSUPPORTED for features not in
 * this build, COSROD_ERR_INVALID for a model the rod rejects, ERR_NOMEM;
 * cosrod_last_error() is one line "FILE:LINE: key.path: problem" (status.h). */
COSROD_API cosrod_sim *cosrod_sim_create(const cosrod_scenario *sc, cosrod_status *status);
COSROD_API void cosrod_sim_free(cosrod_sim *sim);

/* Integrate from 0 to sc->analysis.t_end.  Returns OK, ERR_INTERRUPTED
 * (stopped by the observer / stop flag) or the integrator's failure status;
 * then cosrod_sim_message / cosrod_sim_fail_time say why and when, and the
 * state is the last accepted one (cosrod_sim_t, cosrod_sim_tip).  May be
 * called once. */
COSROD_API cosrod_status cosrod_sim_run(cosrod_sim *sim, const cosrod_sim_observer *obs);

/* Fixed-step API for interactive and real-time use: advance a dynamic
 * simulation by h > 0 [s], i.e. cosrod_sim_advance(sim, t + h) (the first
 * call starts at t = 0, after start_from_equilibrium if asked).  After the
 * call the state (cosrod_sim_state, cosrod_sim_t), the rods' data
 * (cosrod_sim_rod_data, cosrod_sim_tip) and the energies
 * (cosrod_sim_energy_now) are those at the new time.  With `integrator: galpha` and a fixed step `solver.h` >= h, one call
 * is one generalized-α step: constant cost, no allocation.  Other
 * integrators take their own steps up to t + h.  Returns the integrator's
 * status (message in cosrod_sim_message); ERR_INVALID for h <= 0, a static
 * analysis, or after cosrod_sim_run.  Not combinable with cosrod_sim_run. */
COSROD_API cosrod_status cosrod_sim_step(cosrod_sim *sim, double h);

/* Energy accounting of dynamic runs (default on): the dissipated energy and
 * the external work are integrated over every accepted step by Simpson's
 * rule on the dense output, i.e. two extra evaluations of every rod per step
 * when the model has damping, loads or moving ends.  on = 0 skips this
 * quadrature (benchmarks, runs without energy output): cosrod_sim_energy's
 * external_work, dissipated and balance are then NaN for such models
 * (kinetic, elastic, gravity stay valid; a model without damping, loads and
 * moving ends keeps its exact zeros).  Call before cosrod_sim_run. */
COSROD_API void cosrod_sim_set_energy_accounting(cosrod_sim *sim, int on);

/* Monitor of silent wrong answers (dynamic runs, at every frame; see
 * src/sim/sim_monitor.c).  Energy scale S = max over the frames of
 * max(kinetic, elastic, |gravity - gravity(0)|, |external work|, dissipated,
 * S_0), S_0 a floor known up front from the model that does not vanish at
 * rest: the largest of the work of gravity over the rods' size Σ ρA L |g| L,
 * the static deflection energy of the largest load in the stiffest response
 * of its rod (½ F² L / EA), the kinetic energy ½ m (v + ω ℓ)² of the fastest
 * prescribed motion (keyframes of ends, bodies, obstacles) and the elastic
 * energy of a relative round-off of 1e-12 in every segment.
 *   - balance drift |B(t) - B(0)| > COSROD_SIM_DRIFT_WARN * S: a warning;
 *   - max | |p_k| - 1 | > COSROD_SIM_PNORM_WARN: a warning;
 *   - blow-up: drift > S(t) / 2 while S(t) > COSROD_SIM_BLOWUP_GROWTH times
 *     the largest scale of the frames before with a drift below the warning
 *     level (at least S_0 and the work the largest load can supply over its
 *     rod's length, F L or M 2π): the run fails with COSROD_ERR_DIVERGED and a message naming the
 *     likely cause (explicit method at its stability limit, absolute
 *     formulation without projection, steps too large). */
#define COSROD_SIM_DRIFT_WARN 1e-2
#define COSROD_SIM_PNORM_WARN 1e-3
#define COSROD_SIM_BLOWUP_GROWTH 1e2

/* Warnings of the last run (after cosrod_sim_run): count and the i-th text
 * ("" out of range). */
COSROD_API size_t cosrod_sim_nwarnings(const cosrod_sim *sim);
COSROD_API const char *cosrod_sim_warning(const cosrod_sim *sim, size_t i);
/* ---- one validation for check and run (sim_check.c) ----------------------- */

/* Resource estimate of a scenario, made before anything of size N is
 * allocated: memory of the run and output volume. */
typedef struct cosrod_sim_estimate {
  long ny;             /* unknowns of the global state */
  int ml, mu;          /* Jacobian bandwidths assumed */
  double state_bytes;  /* state-size vectors of the method and the driver [bytes] */
  double matrix_bytes; /* band storage: Jacobians and factorised iteration matrices [bytes] */
  double model_bytes;  /* the rods' own per-segment data [bytes] */
  double total_bytes;  /* sum of the three [bytes] */
  double frame_bytes;  /* output written per frame (CSV tables + VTK) [bytes] */
  size_t nframes;      /* frames including t = 0 */
  double output_bytes; /* frame_bytes * nframes (steps.csv not included) [bytes] */
  size_t max_rod;      /* the rod with the most segments (key of a refusal) */
} cosrod_sim_estimate;

/* Estimate memory and output volume of a run of sc into *est (nothing allocated). */
COSROD_API cosrod_status cosrod_sim_estimate_resources(const cosrod_scenario *sc, cosrod_sim_estimate *est);
/* The linear solver of the run's implicit method, one line (solver.linear_solver
 * resolved: "sparse (KLU): n = .., nnz = ..; coupled band (ml, mu)" or
 * "band (ml, mu)" with the reason), "" before creation. */
COSROD_API const char *cosrod_sim_linear_solver(const cosrod_sim *sim);
/* Two lines "estimate: memory ~... / output ~..." on f. */
COSROD_API void cosrod_sim_estimate_print(const cosrod_sim_estimate *est, FILE *f);
/* The path `check` and `run` share: estimate (into *est, may be NULL),
 * refuse when the memory estimate exceeds mem_limit bytes (<= 0: no limit;
 * ERR_INVALID, message "FILE:LINE: rods.R.segments: needs ~X GB ..."), then
 * cosrod_sim_create with its checks.  Failures as cosrod_sim_create. */
COSROD_API cosrod_sim *cosrod_sim_prepare(const cosrod_scenario *sc, double mem_limit, cosrod_sim_estimate *est,
                                          cosrod_status *status);
/* ---- stepping (embedding in a loop; sim_advance.c) ------------------------
 * Dynamic analyses only, instead of cosrod_sim_run (not both).  The first
 * advance starts at t = 0 (after start_from_equilibrium if asked); every call
 * integrates from the current time to t_next (> current; equal: no-op) with
 * the step clipped to land on t_next, then the rods' data and the energy
 * terms are evaluated there (cosrod_sim_rod_data, cosrod_sim_energy_now,
 * cosrod_sim_state, cosrod_sim_t).  The observer of cosrod_sim_set_observer
 * sees every step (its frame callback is not called) and its stop flag
 * interrupts (ERR_INTERRUPTED, state at the last accepted step).  Failures
 * as cosrod_sim_run.  No allocation.  ERR_INVALID: t_next not finite or
 * before the current time, after cosrod_sim_run (except one stopped with
 * ERR_INTERRUPTED: advance continues from its last accepted state), or a
 * static / modal analysis. */
COSROD_API cosrod_status cosrod_sim_advance(cosrod_sim *sim, double t_next);
/* Observer used by cosrod_sim_advance (NULL: none; must outlive the calls). */
COSROD_API void cosrod_sim_set_observer(cosrod_sim *sim, const cosrod_sim_observer *obs);
/* Replace the current state by y (cosrod_sim_ny values, the layout of
 * cosrod_sim_state) at time t >= 0, e.g. one saved earlier: the integrator
 * restarts there (history, step size and counters reset), the
 * energy integrals continue.  Dynamic analyses, not after cosrod_sim_run.
 * ERR_INVALID (t or y not finite), or the rod's status if y cannot be
 * evaluated (then nothing changed). */
COSROD_API cosrod_status cosrod_sim_set_state(cosrod_sim *sim, double t, const double *y);

/* ---- restart data (resumable runs; sim_resume.c) -------------------------
 * What a dynamic run needs to continue from an output time: the state y
 * there, the step size to try next, the energy accounts (external work,
 * dissipation, contact dissipation, impulsive work of breakpoints), the
 * bodies' null-space partition, the friction anchors of contact, the
 * monitor's state and the solver counters, as cosrod_sim_restart_size
 * doubles (layout private, versioned; same build and scenario only).
 * save: inside the frame callback of cosrod_sim_run (ERR_INVALID elsewhere).
 * load: into a new simulation of the same scenario before cosrod_sim_run,
 * which then continues from the saved time (no start_from_equilibrium, no
 * frame at that time again, output times after it only): the method is
 * restarted there with the saved step, so the run agrees with an
 * uninterrupted one to the integrator's tolerance (not bitwise), and the
 * counters continue (those of the resumed part differ from an uninterrupted
 * run's by the restart).  Saved with the state: the rigid bodies' null-space
 * partition (the coordinates of nu in y) and the friction anchors of contact
 * (those of the step across the saved time).
 * ERR_INVALID: wrong size, version or ny, non-finite state, time outside
 * [0, t_end], a static analysis, or after the run / advance started. */
COSROD_API size_t cosrod_sim_restart_size(const cosrod_sim *sim);
COSROD_API cosrod_status cosrod_sim_restart_save(const cosrod_sim *sim, double *buf, size_t n);
COSROD_API cosrod_status cosrod_sim_restart_load(cosrod_sim *sim, const double *buf, size_t n);

/* User load callback of rod r (cosrod_rod_load_fn: adds spatial vertex
 * forces and material segment moments at every evaluation; fn NULL removes
 * it), for dynamic runs and cosrod_sim_advance; set before the run.  Its
 * work enters external_work; the analytic Jacobians treat its forces as
 * constant, and the start_from_equilibrium solve does not see it.
 * ERR_INVALID: r out of range, or after the run / advance started. */
COSROD_API cosrod_status cosrod_sim_set_load_fn(cosrod_sim *sim, size_t r, cosrod_rod_load_fn fn, void *user);

/* ---- queries ------------------------------------------------------------- */
COSROD_API const cosrod_scenario *cosrod_sim_scenario(const cosrod_sim *sim);
COSROD_API size_t cosrod_sim_nrods(const cosrod_sim *sim);
COSROD_API const cosrod_rod *cosrod_sim_rod(const cosrod_sim *sim, size_t r);
/* Data of rod r from the last evaluation at an output time (frame callback)
 * or, after cosrod_sim_run, at the last accepted state. */
COSROD_API const cosrod_rod_data *cosrod_sim_rod_data(const cosrod_sim *sim, size_t r);
/* The contact evaluation of the last evaluation of every rod (as rod data:
 * valid in the frame callback), or NULL without `contact:` ([manual: contact]). */
COSROD_API const struct cosrod_contact_data *cosrod_sim_contact_data(const cosrod_sim *sim);
/* Rigid bodies of a simulation with rods (scenario bodies, in order; rod
 * ends attached to them, [manual: rigid bodies]): their number (0 without bodies) and the
 * pose of body b at the last evaluation (a frame: the current output time):
 * centre of mass x (3) [m], unit quaternion q (4), material angular velocity
 * Omega (3) [1/s]; any output may be NULL (sim_couple.c). */
COSROD_API size_t cosrod_sim_nbodies(const cosrod_sim *sim);
COSROD_API cosrod_status cosrod_sim_body(const cosrod_sim *sim, size_t b, double x[3], double q[4], double Omega[3]);
/* Its velocity v (3, spatial) [m/s] at the last evaluation. */
COSROD_API cosrod_status cosrod_sim_body_velocity(const cosrod_sim *sim, size_t b, double v[3]);
/* Body b's inertia ellipsoid (semi-axes [m] and the unit quaternion of its
 * axes in the body frame, cosrod_mbs_body_ellipsoid) for drawing;
 * ERR_UNSUPPORTED for a keyframe-driven body. */
COSROD_API cosrod_status cosrod_sim_body_ellipsoid(const cosrod_sim *sim, size_t b, double semi[3], double q_axes[4]);
/* Joints (not bushings) of a simulation with rods and bodies, in scenario
 * order, and their reactions at the last evaluation (a frame): R (6 njoints),
 * force and moment on the joint's first body, spatial, moment about its joint
 * point (joints.csv). */
COSROD_API size_t cosrod_sim_njoints(const cosrod_sim *sim);
COSROD_API cosrod_status cosrod_sim_joint_reactions(const cosrod_sim *sim, double *R);
/* Energy terms at the time of the last frame (or the end of the run). */
COSROD_API cosrod_sim_energy cosrod_sim_energy_now(const cosrod_sim *sim);
/* Tip x_N (3) [m] of rod r at the last evaluated time. */
COSROD_API void cosrod_sim_tip(const cosrod_sim *sim, size_t r, double tip[3]);
/* Size of the global state and the state itself (last accepted / frame). */
COSROD_API int cosrod_sim_ny(const cosrod_sim *sim);
COSROD_API const double *cosrod_sim_state(const cosrod_sim *sim);
/* Time of the last accepted step (or of the last frame). */
COSROD_API double cosrod_sim_t(const cosrod_sim *sim);
/* Size of the last accepted step [s] (NaN before the first). */
COSROD_API double cosrod_sim_h_last(const cosrod_sim *sim);
COSROD_API const cosrod_integrate_stats *cosrod_sim_stats(const cosrod_sim *sim);
COSROD_API const char *cosrod_sim_message(const cosrod_sim *sim); /* "" if none */
/* A warning about the input found at creation, "FILE:LINE: key: warning: ..."
 * (e.g. a Kirchhoff rod's initial state moved onto its constraints); "" if none. */
COSROD_API const char *cosrod_sim_input_warning(const cosrod_sim *sim);
/* Energy dissipated by contact damping and friction over the accepted steps
 * so far [J] (part of cosrod_sim_energy's dissipated; Simpson's rule on the
 * contact's dissipated power as the energy balance); 0 without contact. */
COSROD_API double cosrod_sim_contact_dissipated(const cosrod_sim *sim);
COSROD_API double cosrod_sim_fail_time(const cosrod_sim *sim);    /* NaN if none */
COSROD_API const char *cosrod_sim_integrator_name(const cosrod_sim *sim);
/* The time integrator's choice: with `solver.integrator: auto` the method
 * the rules chose at creation ("statics" for static, modal and buckling
 * analyses) and one line why (the rules and the estimates they used; see
 * the integrators guide, "auto"); otherwise the scenario's method and
 * "solver.integrator: NAME given".  Switches of auto during the run (a
 * struggling method replaced by the next candidate from the last accepted
 * state): their number and the i-th as one line ("" out of range). */
COSROD_API const char *cosrod_sim_solver_chosen(const cosrod_sim *sim);
COSROD_API const char *cosrod_sim_solver_reason(const cosrod_sim *sim);
COSROD_API size_t cosrod_sim_nswitches(const cosrod_sim *sim);
COSROD_API const char *cosrod_sim_switch(const cosrod_sim *sim, size_t i);
/* 1 if the global state uses the SPLIT layout (M1 reduction), 0 for NODE. */
COSROD_API int cosrod_sim_split_layout(const cosrod_sim *sim);
/* Jacobian bandwidths given to the integrator (NODE: of the whole J; SPLIT:
 * of the v-block, *ml_q / *mu_q of the q-blocks); any pointer may be NULL. */
COSROD_API void cosrod_sim_bandwidth(const cosrod_sim *sim, int *ml, int *mu, int *ml_q, int *mu_q);
/* Modal and buckling analysis results after cosrod_sim_run: number of
 * modes, and mode i: omega [rad/s] (negative: unstable direction), frequency
 * [Hz] (buckling: both the critical load factor) and the shape ((N_r+1) x 6
 * per vertex dx, dy, dz, rx, ry, rz of its rod r = cosrod_sim_mode_rod, see
 * cosrod_statics_modes; the shapes are contiguous: mode i at mode 0's shape
 * + i cosrod_sim_mode_stride, >= (N+1) 6; the rod vertex on a rigid body
 * moves with the body, see cosrod_sim_mode_body).  The linearisation
 * point is the rod data after the run (cosrod_sim_rod_data; buckling: the
 * initial configuration, about whose unloaded equilibrium it linearises). */
COSROD_API int cosrod_sim_nmodes(const cosrod_sim *sim);
COSROD_API void cosrod_sim_mode(const cosrod_sim *sim, int i, double *omega, double *freq_hz, const double **shape);
COSROD_API size_t cosrod_sim_mode_rod(const cosrod_sim *sim, int i);
COSROD_API size_t cosrod_sim_mode_stride(const cosrod_sim *sim);
/* The rigid body b's part of mode i (modal and buckling analyses of rods
 * with bodies; scenario body order): d the displacement of its centre of
 * mass (m per unit modal amplitude), r its rotation vector (rad, spatial
 * components: the pose turns by exp(r)), in the normalisation of the
 * mode's vector (modes: mass-normalised with the bodies' mass and inertia;
 * buckling: unit length).  Zeros for a body that is not an unknown of the
 * analysis.  ERR_INVALID for a bad i or b or another analysis. */
COSROD_API cosrod_status cosrod_sim_mode_body(const cosrod_sim *sim, int i, size_t b, double d[3], double r[3]);
/* Rod r's part of mode i ((N_r+1) x 6 per vertex dx, dy, dz, rx, ry, rz, in
 * the normalisation of cosrod_sim_mode): for r = cosrod_sim_mode_rod(i) the
 * shape of cosrod_sim_mode; for another rod its own part where the rods are
 * coupled (rods with rigid bodies, a buckling analysis of several rods),
 * else *shape = NULL (the rods' modes are separate: rod r does not move in
 * mode i).  ERR_INVALID for a bad i or r, shape NULL or another analysis. */
COSROD_API cosrod_status cosrod_sim_mode_rod_shape(const cosrod_sim *sim, int i, size_t r, const double **shape);
/* Buckling analyses: the critical load factor of mode i (the loads at t = 1
 * times it buckle the rods; NAN for other analyses). */
COSROD_API double cosrod_sim_load_factor(const cosrod_sim *sim, int i);
/* Mode i's type ("bending-1", "bending-2", "torsion", "axial", see
 * cosrod_statics_mode_kinds) and degenerate group (0-based; a round
 * section's bending pair shares one).  analysis.count counts groups (distinct
 * frequencies): nmodes is the number of modes in the first count groups. */
COSROD_API void cosrod_sim_mode_info(const cosrod_sim *sim, int i, const char **type, int *group);
/* Support reactions of rod r at the current frame (call from the frame
 * observer): R (2 x 6) per end the force (N) and moment (N m), spatial, the
 * support exerts on the rod; supported (2) 0 free, 1 force, 2 force and
 * moment (cosrod_statics_end_reactions).  Static and modal analyses: at the
 * equilibrium of the pseudo-time path (no inertia); dynamic runs: with the
 * inertia of the prescribed end vertices (m ẍ_e - f). */
COSROD_API cosrod_status cosrod_sim_reactions(const cosrod_sim *sim, size_t r, double R[12], int supported[2]);
/* Static arc-length runs (analysis.control: arc-length; src/sim/sim_static_arc.c):
 * the pseudo-time t of frames and increments is the normalised arc length of
 * the path.  During the frame / increment callbacks: the current step's load
 * factor λ, displacement [m] of the monitored vertex (the first point load's
 * vertex, else the end N) from its initial position, stability index of
 * the stiffness (-1 singular) and critical flag (0 none, 1 limit point,
 * 2 bifurcation point inside the step).  Returns 0 (nothing set) if the
 * run is not an arc-length run. */
COSROD_API int cosrod_sim_arc_step(const cosrod_sim *sim, double *load_factor, double *displacement, int *index,
                                   int *critical);
/* Critical points found (limit: λ the extremum of the interpolated path;
 * bifurcation: located by bisection of the stability index), with their arc length t and
 * displacement; type "limit" or "bifurcation". */
COSROD_API size_t cosrod_sim_ncritical(const cosrod_sim *sim);
COSROD_API cosrod_status cosrod_sim_critical(const cosrod_sim *sim, size_t i, const char **type, double *t,
                                             double *load_factor, double *displacement);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_SIM_H */
