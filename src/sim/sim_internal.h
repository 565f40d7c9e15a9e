// SPDX-License-Identifier: Apache-2.0
/* Private state of the analyses on the assembled system (module sim):
 * dynamic runs with breakpoints, the monitor, static / modal / buckling
 * analyses and the scenario -> rod translation.  struct cosrod_sim holds the
 * system (system/system_model.h: const model + run data) and the
 * analyses' own fields. */
#ifndef COSROD_SIM_INTERNAL_H
#define COSROD_SIM_INTERNAL_H

#include "sim/sim_auto.h"
#include "sim/sim_hooks.h"
#include "sim/sim_translate.h"
#include "system/system_model.h"

#define SIM_NWARN 4      /* warnings kept by a simulation (cosrod_sim_warning) */
#define SIM_WARN_LEN 400 /* and their length */

struct cosrod_sim {
  sys_system sys;            /* the assembled system: const model (sys.m) + run data (sys.d) */
  struct sys_model sysm;     /* their storage (reached through sys only) */
  struct sys_data sysd;
  const cosrod_scenario *sc; /* the analyses' input; the system reads its definition (sys.m->def) only */
  struct sim_auto *au; /* solver.integrator: auto (sim/sim_auto.c), NULL otherwise */
  int rebuild;         /* 1 while sim_auto.c re-creates the sim in place (a switch of method) */
  int analysis;          /* the scenario's analysis type (the system reads def->analysis) */
  cosrod_statics **stat; /* (nrods) statics solvers (static / modes: of rods; equilibrium: of srods) */
  cosrod_integrate_stats sstats; /* static / modes: the statics counters in integrator terms */
  cosrod_statics *land;          /* static: solver landing on output times between increments */
  struct sim_rrstat *rrstat;     /* static: rod-rod / self-contact hooks of the solvers (sim_static_contact.c) */
  double *qprev, *qland;         /* static: (nq) last converged state, landing state */
  double *qeq;                   /* start_from_equilibrium of several rods in rod-rod contact: (sum nq) the
                                    rods' q of the one solver in stat[0] (NULL: one solver per rod) */
  double tprev;                  /* static: pseudo-time of qprev */
  size_t iout;                   /* static: next output time (index into tout) */
  double out_tol;                /* |t - tout| below which t is that output time */
  cosrod_statics_stats lstats;   /* static: landing work */
  cosrod_status land_failed;     /* static: status of a failed landing (OK if none) */
  /* static arc-length runs and keyframe paths (sim_static_arc.c) */
  int arc;                      /* control: arc-length */
  double arc_lambda, arc_disp;  /* load factor and monitored displacement of the current step */
  int arc_index, arc_critical;  /* stability index, critical point (0/1/2) of the current step */
  int arc_rod, arc_vertex;      /* monitored rod and vertex (first point load's, else rod 0's N) */
  double *arc_x, *arc_x0;       /* ((N+1) x 3) scratch, initial vertex positions of arc_rod */
  size_t ncrit;                 /* critical points recorded (at most SIM_MAX_CRIT) */
  struct sim_critical {
    int type; /* 1 limit, 2 bifurcation */
    double t, lambda, disp;
  } crit[64];
  double *kstops;               /* path: keyframes: the keyframe times (increments land on them) */
  int nkstops;
  int nmodes;
  double *omega, *freq, *shapes; /* modes: (nmodes), (nmodes), (nmodes x (N+1) x 6) */
  int nmodes_cap, nmodes_req;    /* modes: computed (count, <= ndof), modes asked (count) */
  int *mode_kind, *mode_group;   /* modes: (nmodes_cap) cosrod_mode_kind, degenerate group from 0 */
  double *mode_min;              /* modes: (nmodes_cap x nv) minimal-coordinate vectors */
  double *tout;
  size_t nout;
  cosrod_integrate_options opts;
  cosrod_integrator *integ;
  const cosrod_sim_observer *obs;
  /* energy accounting: integrals of external power and dissipation over
   * [0, acc.t] (Simpson per step, sim_run.c), one value so that a method
   * switch (sim_auto_switch.c) and a checkpoint (sim_resume.c) carry it whole */
  struct sim_accounts {
    double t, W, D;           /* end of the integrated interval, external work, dissipation [J] */
    double rW_prev, rD_prev;  /* rates at t */
    double cD, cD_prev, cD_mid; /* contact's share of D, its rate at t and at the last Simpson midpoint */
    double impulsive_work;    /* part of W from velocity jumps at breakpoints [J] */
  } acc;
  int need_rates;             /* 0: no damping, loads or moving ends: both rates vanish identically;
                                 -1: they do not, but the accounting is off (cosrod_sim_set_energy_accounting) */
  cosrod_sim_energy energy;
  /* breakpoints (sim/sim_breaks.c): times in (0, t_end) where the right-hand side is not smooth */
  double *brk;                      /* (nbrk) increasing */
  size_t nbrk;
  double *bwork;                    /* (3 ny) restart: initial-step estimate scratch (if nbrk > 0) */
  cosrod_integrate_stats dstats;    /* dynamic: statistics of all pieces */
  cosrod_integrate_stats dstats_done; /* dynamic: of the pieces finished */
  /* monitor of silent wrong answers (sim_monitor.c) */
  struct sim_monitor_state {
    long n;                 /* frames seen */
    double bal0, G0;        /* balance and gravity energy of the first frame */
    double scale, drift;    /* max energy scale, max |balance drift| [J] */
    double drift_signed;    /* that drift with its sign (< 0: energy lost) [J] */
    double ref;             /* max energy scale of the frames before the drift warning level */
    double pdev;            /* max | |p_k| - 1 | over frames and segments */
    double t_drift, t_pdev; /* when the maxima were reached */
  } mon;
  int diverged;                     /* a frame detected a blow-up (message in msg) */
  size_t nwarn;
  char warn[SIM_NWARN][SIM_WARN_LEN];
  double t_now, h_last, t_fail;
  double t_frame; /* time of the last frame (-inf before the first) */
  int ran;
  int frame_rc; /* static runs: what the last frame callback returned */
  int stepping; /* cosrod_sim_advance / cosrod_sim_step: the integrator is initialised at (t_now, y) */
  int resumed;                /* cosrod_sim_restart_load: the run continues from (t_resume, y0) (sim_resume.c) */
  int lin_switch;             /* a run's accepted step met far self-contact on the band: switch to the sparse
                                 contact path at the end of the step (sim_breaks.c, system/linsolve.c) */
  double t_resume, h_resume;  /* its time and the step to try first */
  /* static / modes / buckling of several rods (sim_static.c): the statics
   * system's q is the rods' q concatenated (rod r at qoff_r[r]); the state y
   * holds rod r's (q, 0) at off_r[r] */
  int nq_sys;           /* sum of the rods' nq */
  double *qsys;         /* (nq_sys) scratch */
  double *rsys;         /* (nrods x 12) scratch: reactions of every rod */
  int *ssys;            /* (nrods x 2) */
  size_t shape_stride;  /* doubles per mode in shapes: (max N + 1) x 6 */
  size_t *mode_rod;     /* (nmodes_cap) rod of each mode */
  double *mode_lam;     /* (nmodes_cap) buckling: critical load factors */
  double *rw_omega, *rw_freq, *rw_shapes, *rw_min; /* per-rod scratch of the modal analysis */
  int *rw_kind;
};


/* sim.c: build the sim of sc into the zeroed s (cosrod_sim_create after the
 * auto choice; sim_auto.c's rebuild with s->rebuild set: on failure the
 * contents are released and s is not freed), and release everything s owns
 * except s->au and s itself. */
cosrod_sim *sim_build(cosrod_sim *s, const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen);
void sim_release(cosrod_sim *s);

/* sim_breaks.c: collect the breakpoints in (0, T) of the scenario (allocates s->brk). */
cosrod_status sim_breaks_collect(cosrod_sim *s, double T);
/* sim_breaks.c: integrate to T piece by piece between the breakpoints
 * (restart of the method at each), with the energy accounting closed across
 * them; spec: the output spec of the whole run (include_t0 honoured once).
 * The one entry of every start: y_switch NULL: a run from 0 with s->sys.d->y0, or a
 * resumed one from (t_resume, y0) (s->resumed); else sim_auto_switch.c's
 * continuation from (t_switch, y_switch) after a change of method, past a
 * breakpoint at t_switch, its statistics added to s->dstats_done. */
cosrod_status sim_evolve_pieces(cosrod_sim *s, double T, cosrod_output_spec *spec, double t_switch,
                                const double *y_switch);
/* sim_resume.c: a resumed run's start at (t_resume, y0) inside the current
 * piece (seg_lo / seg_hi set): the energy rates there. */
cosrod_status sim_resume_begin(cosrod_sim *s);
/* sim_breaks.c: s->dstats = the finished pieces + the integrator's current counters. */
void sim_stats_sync(cosrod_sim *s);

/* sim_monitor.c: forget what the monitor saw (start of a run). */
void sim_monitor_reset(cosrod_sim *s);
/* sim_monitor.c: a frame at t (rod data and s->energy valid): track the
 * balance drift, |p| and blow-up.  Returns -1 on a blow-up (s->sys.d->msg,
 * s->t_fail, s->diverged set), else 0. */
int sim_monitor_frame(cosrod_sim *s, double t);
/* sim_monitor.c: a warning if the equilibrium at fixed load that ss
 * describes (cosrod_statics_equilibrium_at) is unstable (what: e.g. "the
 * static equilibrium at t = 0"). */
void sim_warn_unstable(cosrod_sim *s, const cosrod_statics_stats *ss, const char *what);
/* sim_monitor.c: after a dynamic run: the warnings beyond the thresholds. */
void sim_monitor_finish(cosrod_sim *s);

/* sim_run.c: step-history callback of dynamic runs (energy accounting,
 * observer, stop flag); sim_static_run.c: start_from_equilibrium's initial
 * state into y0. */
int sim_step_cb(double t, double h, int accepted, void *user);
/* Whether absolute rods take the NODE layout instead of SPLIT for the
 * contact's sparse Jacobian (rod-rod / self-contact, a method with a sparse
 * path; sim.c); also for the memory estimate (sim_check.c). */
int sim_contact_node_layout(const cosrod_scenario *sc, const cosrod_step_type *type);
cosrod_status equilibrium_start(cosrod_sim *s);
/* start_from_equilibrium: rod r's state at rest at its equilibrium q (nq)
 * into y0 (quaternions and Kirchhoff constraints projected, the DAE
 * multipliers); message set on failure. */
cosrod_status sim_rod_rest_state(cosrod_sim *s, size_t r, const double *q);
/* After the equilibrium state is in y0: y = y0, its evaluation (work and
 * dissipation baselines) and energies; ERR_NONFINITE with s->sys.d->msg set. */
cosrod_status sim_equilibrium_state_ready(cosrod_sim *s);
/* sim_static_run.c: a static run (load stepping, landing on output
 * times, or arc-length / keyframe paths through sim_static_arc.c). */
cosrod_status sim_run_static(cosrod_sim *s);
/* sim_static_run.c: a converged static state q (nq_sys) at t made a frame;
 * the failure message of a statics call. */
int static_frame(cosrod_sim *s, double t, const double *q);
void stats_from_statics(cosrod_sim *s, const cosrod_statics_stats *ss);
cosrod_status static_failure(cosrod_sim *s, cosrod_status st, const cosrod_statics_stats *ss, const char *what);
/* sim_static.c: buffers of static / modal / buckling analyses of the
 * sim's rods (after rods, ny_r, off_r, qoff_r and stat[0] are set), the
 * conversions between the statics system's q and the state y, the modal
 * and the buckling analysis, cleanup. */
cosrod_status sim_static_alloc(cosrod_sim *s);
void sim_static_q_to_y(const cosrod_sim *s, const double *q, double *y);
void sim_static_y_to_q(const cosrod_sim *s, const double *y, double *q);
cosrod_status sim_run_modes(cosrod_sim *s);
cosrod_status sim_run_buckling(cosrod_sim *s);
/* Modal runs (sim_static.c): keep the first count of nm modes sorted by ω,
 * degenerate groups renumbered; returns the number kept. */
int sim_mode_select(cosrod_sim *s, int nm, int count);
/* Largest null-space nv of the rods (the scratch of sim_mode_listing). */
int sim_max_rod_nv(const cosrod_sim *s);
/* Listing of mode i (phi: ndof of s->stat[0], about q): the rod with the
 * largest (unweighted) share of phi into *rod, its vertex table into row i of
 * s->shapes and its type into s->mode_kind[i]; pr (sim_max_rod_nv) scratch. */
cosrod_status sim_mode_listing(cosrod_sim *s, const double *q, int i, const double *phi, double *pr, size_t *rod);
void sim_static_free(cosrod_sim *s);
/* sim_mode_body.c: where the bodies' part starts in a mode's row of
 * s->shapes (6 per scenario body after the vertex table), and mode i's body
 * part from phi about q, with rod r's vertices on bodies set to the bodies'
 * rigid motion (after its vertex table is written). */
size_t sim_mode_body_offset(const cosrod_sim *s);
/* Where rod r's own part of a mode starts in a mode's row of s->shapes
 * (modes of coupled rods: after the listed rod's table, one (N_r + 1) x 6
 * table per rod); 0 when the rows hold the listed rod only. */
size_t sim_mode_rod_offset(const cosrod_sim *s, size_t r);
/* Rod r's vertices on bodies in its vertex table v: the rigid motion of the
 * bodies (whose part of the mode row `row` is filled). */
void sim_mode_body_attach(const cosrod_sim *s, const double *q, const double *row, double *v, size_t r);
void sim_mode_body_fill(cosrod_sim *s, const double *q, int i, const double *phi, size_t r);

/* sim_static_arc.c: static analyses.  Set-up of arc-length control and
 * keyframe paths after the solver options o are filled (before the
 * solvers are created: keyframe stops, gravity ramp), the arc-length run,
 * the gravity scale of the energy of a static frame at t (ramped gravity,
 * load factor; 1 for modes) and its application to s->energy. */
cosrod_status sim_static_setup(cosrod_sim *s, cosrod_statics_options *o);
/* Rod-rod and self-contact in the statics solver st of all rods (the rods
 * it was created with): the coupling hooks (sim_static_contact.c); a no-op
 * without them.  ERR_DIMENSION above the dense tangent's size. */
/* The contact hooks on statics solver st (when rod-rod or self contact is
 * on); a failure is reported in err as "contact: WHAT: problem". */
cosrod_status sim_static_contact_setup(cosrod_sim *s, cosrod_statics *st, cosrod_rod **rods, const char *what,
                                       char *err, size_t errlen);
void sim_static_contact_free(cosrod_sim *s);
cosrod_status sim_run_static_arc(cosrod_sim *s);
void sim_static_scale_gravity(cosrod_sim *s, double t);
void sim_static_arc_free(cosrod_sim *s);

/* sim_couple_static.c: rods attached to rigid bodies in static and modal
 * analyses and start_from_equilibrium: after sim_static_alloc the modal
 * arrays; the modal analysis; the dynamic run's equilibrium start
 * (start_from_equilibrium: sim_couple_static_setup after sim_couple_create,
 * the coupled solver in stat[0]; sim_couple_static_start); the joint
 * reactions from the multipliers of the current state (joint_static.c). */
cosrod_status sim_couple_static_setup(cosrod_sim *s, char *err, size_t errlen);
cosrod_status sim_couple_static_alloc(cosrod_sim *s);
cosrod_status sim_couple_static_modes(cosrod_sim *s);
cosrod_status sim_couple_static_joint_reactions(const cosrod_sim *s, double *R);
cosrod_status sim_couple_static_start(cosrod_sim *s);
/* sim_translate.c: one scenario rod -> its rod model (NULL with err set). */
cosrod_rod *sim_build_rod(const cosrod_scenario *sc, size_t r, int with_preload, cosrod_status *st, char *err,
                          size_t errlen);
int sim_rod_time_dependent(const cosrod_sc_rod *sr);

/* sim_enums.c: scenario enums -> rod model enums (explicit tables; a
 * scenario value left unmapped fails to compile). */
cosrod_rod_model sim_enum_model(cosrod_sc_model m);
cosrod_curvature sim_enum_curvature(cosrod_sc_curvature c);
cosrod_section_shape sim_enum_section(cosrod_sc_section_shape s);
cosrod_damping_kind sim_enum_damping(cosrod_sc_damping_kind d);
cosrod_shape_kind sim_enum_shape(cosrod_sc_shape_kind k);
cosrod_reference_kind sim_enum_reference(cosrod_sc_reference r);
cosrod_end_kind sim_enum_end(cosrod_sc_end_type e);
cosrod_load_kind sim_enum_load(cosrod_sc_load_type t);
cosrod_load_frame sim_enum_frame(cosrod_sc_frame f);
cosrod_profile sim_enum_profile(cosrod_sc_profile p);
/* sim_enums.c: scenario enums -> the system definition's enums. */
cosrod_body_param sim_enum_body_param(cosrod_sc_parametrisation p);
cosrod_body_load_kind sim_enum_body_load(cosrod_sc_load_type t);
cosrod_body_load_frame sim_enum_body_frame(cosrod_sc_frame f);
cosrod_body_load_profile sim_enum_body_profile(cosrod_sc_profile p);
cosrod_joint_type sim_enum_joint(cosrod_sc_joint_type t);
sys_analysis sim_enum_analysis(cosrod_sc_analysis_type a);
cosrod_rod_form sim_enum_formulation(cosrod_sc_formulation f);
sys_stabilisation sim_enum_stabilisation(cosrod_sc_stabilisation s);
sys_linear_solver sim_enum_linear_solver(cosrod_sc_linear_solver l);

/* sim_translate_sys.c: the scenario's system definition (NULL: no memory;
 * it borrows names and keyframes from sc, which must outlive it) and its
 * release; one obstacle's definition. */
sys_def *sim_sys_def_create(const cosrod_scenario *sc);
void sim_sys_def_free(const sys_def *d);
void sim_obstacle_of(const cosrod_sc_obstacle *ob, sys_obstacle *o);
/* sim_translate_sys.c: the scenario error "FILE:LINE: key: problem". */
void sim_set_err(char *err, size_t errlen, const cosrod_scenario *sc, const char *key, const char *fmt, ...);
/* sim_translate_sys.c: scenario checks of what the system does not take:
 * Kirchhoff rod r's input (ERR_INVALID with err set) and what is not
 * supported for Kirchhoff rods (ERR_UNSUPPORTED); rods on rigid bodies in
 * static and modal analyses and start_from_equilibrium (joints on keyframe
 * bodies, bodies without rods; ERR_UNSUPPORTED with err set). */
cosrod_status sim_kirchhoff_check(const cosrod_scenario *sc, size_t r, char *err, size_t errlen);
cosrod_status sim_kirchhoff_refuse(const cosrod_scenario *sc, char *err, size_t errlen);
cosrod_status sim_couple_static_check(const cosrod_scenario *sc, char *err, size_t errlen);

#endif /* COSROD_SIM_INTERNAL_H */
