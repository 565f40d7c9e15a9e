// SPDX-License-Identifier: Apache-2.0
/* The assembled mechanical system (module system, private): the state of
 * rods, rigid bodies, attachments, joints and bushings, its layouts (node,
 * split, Lie) and the integrator callbacks on it.  The struct still carries
 * the analyses' fields (module sim) next to the system's: it is shared by
 * both modules until the system has its own model + data (see system.h). */
#ifndef COSROD_SYSTEM_INTERNAL_H
#define COSROD_SYSTEM_INTERNAL_H

#include "cosrod/sim.h"
#include "cosrod/statics.h"
#include "rod/rod_hooks.h"
#include "system/contact_element.h"
#include "system/couple.h"
#include "system/linsolve.h"
#include "system/system_def.h"

struct cosrod_sim {
  const cosrod_scenario *sc; /* the analyses' input (module sim); the system reads def only */
  const sys_def *def;        /* the system's definition (translated from sc; owned, fixed after creation) */
  struct sim_auto *au; /* solver.integrator: auto (sim/sim_auto.c), NULL otherwise */
  int rebuild;         /* 1 while sim_auto.c re-creates the sim in place (a switch of method) */
  size_t nrods;
  cosrod_rod **rods;
  cosrod_rod_data **data;
  int analysis;          /* module sim: the scenario's analysis type (the system reads def->analysis) */
  cosrod_rod **srods;    /* (nrods) start_from_equilibrium: the rods with their preloads */
  cosrod_statics **stat; /* (nrods) statics solvers (static / modes: of rods; equilibrium: of srods) */
  cosrod_integrate_stats sstats; /* static / modes: the statics counters in integrator terms */
  cosrod_statics *land;          /* static: solver landing on output times between increments */
  double *qprev, *qland;         /* static: (nq) last converged state, landing state */
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
  cosrod_rod_form form;          /* form of the rod state vectors */
  int split;                     /* SPLIT layout (M1 reduction) */
  int dae_mass;                  /* DAE as M y' = f with algebraic λ equations */
  int dae_res;                   /* DAE via the residual (ida) */
  int baumgarte;
  int ny;
  int *ny_r;   /* (nrods) rod state sizes */
  int *off_r;  /* (nrods) offsets into map */
  int *qoff_r; /* (nrods) SPLIT: offset of the rod's q in the q part; NODE: of the rod's block */
  int nq_tot;  /* SPLIT: size of the q part */
  int *map;    /* (ny) */
  int *perm;   /* (ny) NODE: per rod its local banded ordering (map - block offset) */
  double *yl;  /* (max ny_r) gathered rod state */
  double *ypl; /* (max ny_r) gathered derivative */
  double *fl;  /* (max ny_r) rod result */
  double *y;   /* (ny) current state (frame / final) */
  double *y0;  /* (ny) initial state */
  double *yd;  /* (ny) dense-output scratch */
  double *dae_id;
  double *tout;
  size_t nout;
  int ml, mu, ml_q, mu_q;
  cosrod_ode_problem prob;
  cosrod_integrate_options opts;
  const cosrod_step_type *type;
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
  double seg_lo, seg_hi;            /* callbacks evaluate at t clamped to [seg_lo, seg_hi]: one-sided
                                       limits at the ends of the current piece (±inf: no clamp) */
  double *bwork;                    /* (3 ny) restart: initial-step estimate scratch (if nbrk > 0) */
  double *kwork;                    /* (4 ny) Kirchhoff DAE with ida: residual Jacobian scratch (kirchhoff.c) */
  cosrod_integrate_stats dstats;    /* dynamic: statistics of all pieces */
  cosrod_integrate_stats dstats_done; /* dynamic: of the pieces finished */
  /* monitor of silent wrong answers (sim_monitor.c) */
  struct sim_monitor_state {
    long n;                 /* frames seen */
    double bal0, G0;        /* balance and gravity energy of the first frame */
    double scale, drift;    /* max energy scale, max |balance drift| [J] */
    double ref;             /* max energy scale of the frames before the drift warning level */
    double pdev;            /* max | |p_k| - 1 | over frames and segments */
    double t_drift, t_pdev; /* when the maxima were reached */
  } mon;
  int diverged;                     /* a frame detected a blow-up (message in msg) */
  size_t nwarn;
  char warn[4][320];
  double t_now, h_last, t_fail;
  double t_frame; /* time of the last frame (-inf before the first) */
  int ran;
  int frame_rc; /* static runs: what the last frame callback returned */
  int stepping; /* cosrod_sim_advance / cosrod_sim_step: the integrator is initialised at (t_now, y) */
  int resumed;                /* cosrod_sim_restart_load: the run continues from (t_resume, y0) (sim_resume.c) */
  double t_resume, h_resume;  /* its time and the step to try first */
  char msg[512];
  char input_warn[512]; /* kirchhoff.c: a warning about the input ("" if none) */
  /* galpha (lie_layout.c): LIE layout y = (q of all rods, q of the bodies,
   * ν of all rods, ν of the bodies) of the null-space form; ml, mu are the
   * tangent Jacobians' bandwidths */
  int lie;
  int *lie_perm, *lie_iperm; /* (ny) per rod: native -> node ordering and back (rod-local) */
  int *lie_voff_r;           /* (nrods) offset of the rod's ν in the ν part */
  int *lie_bc0, *lie_bcn;    /* (ny) per rod, q rows: first ν column and count of B = ∂q̇/∂ν */
  double *lie_jac;           /* one rod's whole Jacobian, node ordering, band (lie_jml, lie_jmu) */
  double *lie_b;             /* (3 max nq) one rod's B = ∂q̇/∂ν per q row (bcn entries), from lie_jac */
  int lie_jml, lie_jmu;
  double *lie_fd; /* Kirchhoff rods: finite-difference work (lie_kirchhoff.c), NULL otherwise */
  struct sim_couple *cpl; /* rods attached to rigid bodies (couple.c), NULL without bodies */
  struct sim_linsolve *lin; /* linear solver choice and sparse pattern (linsolve.c) */
  struct sim_contact *contact; /* contact and obstacles (contact_element.c), NULL without `contact:` */
  struct sim_cjac_contact *ccj; /* sparse Jacobian of rod-rod / self-contact without bodies (contact_jac_sp.c) */
  struct sim_kcouple *kcp; /* Kirchhoff rods attached to dynamic bodies (couple_kirchhoff.c), or NULL */
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
  /* static / modes / start_from_equilibrium with rigid bodies (sim_couple_static.c) */
  struct sim_cstat *cst; /* NULL without bodies */
  int nbq;               /* static analyses: 7 per dynamic body (x, q) at the end of y and of the statics q */
};

/* Gather rod r's components of the global y into yl (ny_r) and back. */
static inline void sim_gather(const cosrod_sim *s, size_t r, const double *y, double *yl) {
  const int *m = s->map + s->off_r[r];
  for (int i = 0; i < s->ny_r[r]; i++) yl[i] = y[m[i]];
}

static inline void sim_scatter(const cosrod_sim *s, size_t r, const double *yl, double *y) {
  const int *m = s->map + s->off_r[r];
  for (int i = 0; i < s->ny_r[r]; i++) y[m[i]] = yl[i];
}

/* The time at which the callbacks evaluate the rods: t clamped to the
 * current piece, so that a piece [a, b] between breakpoints sees the
 * right-hand side's one-sided limits at a and b (sim/sim_breaks.c). */
static inline double sim_tclamp(const cosrod_sim *s, double t) {
  return t < s->seg_lo ? s->seg_lo : t > s->seg_hi ? s->seg_hi : t;
}

/* callbacks.c: the right-hand side callback of ODE and mass-matrix problems
 * (also usable for the DAE form: differential rows f, algebraic rows λ_post - λ). */
int sim_rhs(double t, const double *y, double *ydot, void *user);
/* The other integrator callbacks of the rods' state (callbacks.c). */
int sim_res(double t, const double *y, const double *yp, double *res, void *user);
int sim_mass(double *M, int ldm, void *user);
int sim_jac_split(double t, const double *y, double *J, int ldj, void *user);
int sim_jac_node(double t, const double *y, double *J, int ldj, void *user);
int sim_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ldj, void *user);
int sim_project(double t, double *y, void *user);

/* energy.c: evaluate every rod at (t, y) (ny); summed external power and
 * dissipation rate in *rW, *rD (may be NULL). */
cosrod_status sim_eval_all(cosrod_sim *s, double t, const double *y, double *rW, double *rD);
/* energy.c: energy terms from the rods' last evaluation plus the integrals W, D. */
void sim_energy_from_data(cosrod_sim *s, double W, double D);

/* contact_element.c: before the rods of an evaluation at (t, y): every rod's
 * state to the contact (rod-rod contact at one state; no-op for one rod). */
void sim_contact_prepare_all(cosrod_sim *s, double t, const double *y);

/* kirchhoff.c: Kirchhoff rods.  Whether any rod is one, the problem setup
 * and consistent initial state (after the problem and y0 are built), and
 * the failure message of rod r after its right-hand side or projection
 * failed (kinematic singularity). */
int sim_has_kirchhoff(const cosrod_sim *s);
cosrod_status sim_kirchhoff_setup(cosrod_sim *s, char *err, size_t errlen);
/* Banded residual Jacobian of s->prob.res by grouped differences (ida; kirchhoff.c). */
int sim_res_jac_fd(double t, double cj, const double *y, const double *yp, double *J, int ldj, void *user);
void sim_kirchhoff_failure(cosrod_sim *s, size_t r);
/* After a failed evaluation of the initial state of a static / modal run:
 * 1 and a message naming the rod and segment if it is a Kirchhoff rod's
 * kinematic singularity, else 0. */
int sim_kirchhoff_explain(const cosrod_sim *s, char *err, size_t errlen);
/* kirchhoff.c: integrator options for Kirchhoff rods (s->opts, before the integrator is created). */
void sim_kirchhoff_options(cosrod_sim *s);
/* lie_layout.c: LIE layout (map, qoff_r, nq_tot, bandwidths), problem
 * fields and options for galpha, cleanup. */
cosrod_status sim_galpha_layout(cosrod_sim *s);
void sim_galpha_problem(cosrod_sim *s);
void sim_galpha_free(cosrod_sim *s);
int sim_lie_increment(const double *q, const double *w, double *qn, void *user);
/* lie_kirchhoff.c: galpha with Kirchhoff rods (dense FD tangent
 * Jacobians; sets ml = mu = nv - 1) */
cosrod_status sim_galpha_kirchhoff_layout(cosrod_sim *s);
int sim_lie_jac_tangent_fd(double t, const double *y, double *K, double *C, int ld, void *user);
/* couple_kirchhoff.c: Kirchhoff rods attached to dynamic bodies.
 * create: after sim_couple_create (the ends' mobilities; nothing without
 * such rods); setup: after sim_kirchhoff_setup (ida residual with bodies,
 * the coupled consistent initial state); outer: sim_rhs must go through
 * sim_couple_kirch_rhs (the coupled constraint solve); prime: the end
 * accelerations at (t, y) before an evaluation of the rods (0 or -1);
 * project: the projection hook with bodies. */
cosrod_status sim_couple_kirch_create(cosrod_sim *s);
cosrod_status sim_couple_kirch_setup(cosrod_sim *s, char *err, size_t errlen);
void sim_couple_kirch_free(cosrod_sim *s);
int sim_couple_kirch_outer(const cosrod_sim *s);
int sim_couple_kirch_rhs(double t, const double *y, double *ydot, cosrod_sim *s);
int sim_couple_kirch_prime(cosrod_sim *s, double t, const double *y);
int sim_couple_kirch_project(double t, double *y, cosrod_sim *s);
/* DAE: the multipliers in y consistent with its (q, v) at t (no-op without
 * Kirchhoff rods on bodies); 0 or -1. */
int sim_couple_kirch_lambda(cosrod_sim *s, double t, double *y);
/* static_blocks.c: rods attached to rigid bodies in the statics system of
 * static and modal analyses and start_from_equilibrium (the input's
 * refusals: sim/sim_translate_sys.c): the coupling (sim_couple_create, blocks; s->nbq) after the rods are
 * built and s->ny is their size, the bodies' initial poses into y; the
 * blocks of the statics system (NULL without bodies); cleanup; the elastic
 * energy of the bushings' springs at the bodies' poses xq (model order, 7
 * each). */
cosrod_status sim_couple_static_create(cosrod_sim *s, char *err, size_t errlen);
void sim_couple_static_initial(const cosrod_sim *s, double *y);
const cosrod_statics_blocks *sim_couple_static_blocks(const cosrod_sim *s);
void sim_couple_static_free(cosrod_sim *s);
double sim_couple_static_bushing_energy(const cosrod_sim *s, const double *xq);
/* layout.c: the steps of creation after the rods and the bodies' coupling
 * exist (s->ny, ny_r, off_r set): index maps, bandwidths and state buffers
 * (maxny: largest rod state), the initial state y0 (= y) with the DAE
 * flags, the integrator problem s->prob (time_dep: f depends on t) with the
 * Kirchhoff, linear-solver and Kirchhoff-body set-ups.  Status with err
 * set; the caller frees on failure. */
cosrod_status sim_layout_create(cosrod_sim *s, int maxny, char *err, size_t errlen);
cosrod_status sim_initial_state(cosrod_sim *s, char *err, size_t errlen);
cosrod_status sim_problem_create(cosrod_sim *s, int time_dep, char *err, size_t errlen);

#endif /* COSROD_SYSTEM_INTERNAL_H */
