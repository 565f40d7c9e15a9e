// SPDX-License-Identifier: Apache-2.0
/* The assembled mechanical system (module system; declared for module sim,
 * which builds and runs it): rods, rigid bodies, attachments, joints and
 * bushings as a const model (struct sys_model: definition, rods, layouts,
 * index maps, bandwidths, the integrator problem) and the run's data
 * (struct sys_data: rod data, state buffers, scratch, the coupling,
 * linear-solver and contact objects), and the functions and integrator
 * callbacks on them.  The analyses hold a sys_system next to their own
 * fields (src/sim/sim_internal.h). */
#ifndef COSROD_SYSTEM_MODEL_H
#define COSROD_SYSTEM_MODEL_H

#include "cosrod/sim.h"
#include "cosrod/statics.h"
#include "rod/rod_hooks.h"
#include "system/contact_element.h"
#include "system/couple.h"
#include "system/linsolve.h"
#include "system/system_def.h"

/* The system's model: fixed once the system is built.  Every reader sees
 * it through sys_system.m (const); only the constructors write it, through
 * sys_system.mb (NULL after creation and before destruction). */
struct sys_model {
  const sys_def *def; /* the system's definition (translated from the scenario by module sim; owned) */
  size_t nrods;
  cosrod_rod **rods;
  cosrod_rod **srods;            /* (nrods) start_from_equilibrium: the rods with their preloads, or NULL */
  const cosrod_step_type *type;  /* the integrator the layout is built for */
  cosrod_rod_form form;          /* form of the rod state vectors */
  int split;                     /* SPLIT layout (M1 reduction) */
  int dae_mass;                  /* DAE as M y' = f with algebraic λ equations */
  int dae_res;                   /* DAE via the residual (ida) */
  int baumgarte;
  int lie;                       /* LIE layout (galpha, lie_layout.c) */
  int ny;
  int *ny_r;   /* (nrods) rod state sizes */
  int *off_r;  /* (nrods) offsets into map */
  int *qoff_r; /* (nrods) SPLIT: offset of the rod's q in the q part; NODE: of the rod's block */
  int nq_tot;  /* SPLIT: size of the q part */
  int *map;    /* (ny) */
  int *perm;   /* (ny) NODE: per rod its local banded ordering (map - block offset) */
  double *dae_id; /* (ny) 1 differential, 0 algebraic component */
  int ml, mu, ml_q, mu_q;
  cosrod_ode_problem prob;       /* the integrator problem on this system (user: the sys_system) */
  char input_warn[512];          /* kirchhoff.c: a warning about the input ("" if none) */
  /* LIE layout y = (q of all rods, q of the bodies, ν of all rods, ν of the
   * bodies) of the null-space form; ml, mu are the tangent Jacobians'
   * bandwidths */
  int *lie_perm, *lie_iperm; /* (ny) per rod: native -> node ordering and back (rod-local) */
  int *lie_voff_r;           /* (nrods) offset of the rod's ν in the ν part */
  int *lie_bc0, *lie_bcn;    /* (ny) per rod, q rows: first ν column and count of B = ∂q̇/∂ν */
  int lie_jml, lie_jmu;      /* band of one rod's whole Jacobian in node ordering */
  int nbq; /* static analyses: 7 per dynamic body (x, q) at the end of y and of the statics q */
};

/* The system's data: what changes while an analysis runs on it. */
struct sys_data {
  cosrod_rod_data **data; /* (nrods) the rods' evaluation data */
  double *yl;  /* (max ny_r) gathered rod state */
  double *ypl; /* (max ny_r) gathered derivative */
  double *fl;  /* (max ny_r) rod result */
  double *y;   /* (ny) current state (frame / final) */
  double *y0;  /* (ny) initial state (of the run, or of a resumed run) */
  double *yd;  /* (ny) dense-output scratch */
  double seg_lo, seg_hi; /* callbacks evaluate at t clamped to [seg_lo, seg_hi]: one-sided
                            limits at the ends of the current piece (±inf: no clamp) */
  double *kwork;   /* (4 ny) Kirchhoff DAE with ida: residual Jacobian scratch (kirchhoff.c) */
  double *lie_jac; /* one rod's whole Jacobian, node ordering, band (lie_jml, lie_jmu) */
  double *lie_b;   /* (3 max nq) one rod's B = ∂q̇/∂ν per q row (bcn entries), from lie_jac */
  double *lie_fd;  /* Kirchhoff rods: finite-difference work (lie_kirchhoff.c), NULL otherwise */
  double *lie_cj;  /* rods + bodies: dense coupling Jacobian (LIE positions) and a B row (lie_couple.c), or NULL */
  int *lie_ccol;   /* (ny) columns of that B row */
  struct sim_couple *cpl;       /* rods attached to rigid bodies (couple.c), NULL without bodies */
  struct sim_linsolve *lin;     /* linear solver choice and sparse pattern (linsolve.c) */
  struct sim_contact *contact;  /* contact and obstacles (contact_element.c), NULL without `contact:` */
  struct sim_cjac_contact *ccj; /* sparse Jacobian of rod-rod / self-contact without bodies (contact_jac_sp.c) */
  struct sim_lie_sp *lsp;       /* galpha: sparse tangents with rod-rod / self-contact (lie_contact_sp.c), or NULL */
  struct sim_kcouple *kcp;      /* Kirchhoff rods attached to dynamic bodies (couple_kirchhoff.c), or NULL */
  struct sim_kjac *kjac;        /* DAE Kirchhoff rods with bodies: Jacobian work (couple_kirchhoff_jac.c), or NULL */
  struct sim_cstat *cst;        /* static / modes / start_from_equilibrium with bodies (static_blocks.c), or NULL */
  char msg[512];                /* why the last evaluation, step or run failed ("" if none) */
  int eval_ode; /* 1 while couple_kirchhoff.c solves a DAE's multipliers through the rods' ODE
                   (ABSOLUTE) form: the right-hand side evaluates the rods in that form */
};

/* The assembled system as its functions and the integrator callbacks see it
 * (the problem's user pointer): the const model and the run's data. */
typedef struct sys_system {
  const struct sys_model *m;
  struct sys_model *mb; /* = m while a constructor builds or a destructor releases the model, else NULL */
  struct sys_data *d;
} sys_system;

/* Gather rod r's components of the global y into yl (ny_r) and back. */
static inline void sim_gather(const sys_system *s, size_t r, const double *y, double *yl) {
  const int *m = s->m->map + s->m->off_r[r];
  for (int i = 0; i < s->m->ny_r[r]; i++) yl[i] = y[m[i]];
}

static inline void sim_scatter(const sys_system *s, size_t r, const double *yl, double *y) {
  const int *m = s->m->map + s->m->off_r[r];
  for (int i = 0; i < s->m->ny_r[r]; i++) y[m[i]] = yl[i];
}

/* The form in which the right-hand side evaluates the rods (see eval_ode). */
static inline cosrod_rod_form sys_eval_form(const sys_system *s) {
  return s->d->eval_ode ? COSROD_FORM_ABSOLUTE : s->m->form;
}

/* The time at which the callbacks evaluate the rods: t clamped to the
 * current piece, so that a piece [a, b] between breakpoints sees the
 * right-hand side's one-sided limits at a and b (sim/sim_breaks.c). */
static inline double sim_tclamp(const sys_system *s, double t) {
  return t < s->d->seg_lo ? s->d->seg_lo : t > s->d->seg_hi ? s->d->seg_hi : t;
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
cosrod_status sim_eval_all(sys_system *s, double t, const double *y, double *rW, double *rD);
/* energy.c: energy terms from the rods' last evaluation plus the integrals W, D. */
cosrod_sim_energy sim_energy_from_data(sys_system *s, double W, double D);

/* contact_element.c: before the rods of an evaluation at (t, y): every rod's
 * state to the contact (rod-rod contact at one state; no-op for one rod). */
void sim_contact_prepare_all(sys_system *s, double t, const double *y);

/* kirchhoff.c: Kirchhoff rods.  Whether any rod is one, the problem setup
 * and consistent initial state (after the problem and y0 are built), and
 * the failure message of rod r after its right-hand side or projection
 * failed (kinematic singularity). */
int sim_has_kirchhoff(const sys_system *s);
cosrod_status sim_kirchhoff_setup(sys_system *s, char *err, size_t errlen);
/* Banded residual Jacobian of s->m->prob.res by grouped differences (ida; kirchhoff.c). */
int sim_res_jac_fd(double t, double cj, const double *y, const double *yp, double *J, int ldj, void *user);
void sim_kirchhoff_failure(sys_system *s, size_t r);
/* After a failed evaluation of the initial state of a static / modal run:
 * 1 and a message naming the rod and segment if it is a Kirchhoff rod's
 * kinematic singularity, else 0. */
int sim_kirchhoff_explain(const sys_system *s, char *err, size_t errlen);
/* kirchhoff.c: integrator options for Kirchhoff rods (s->opts, before the integrator is created). */
void sim_kirchhoff_options(const sys_system *s, cosrod_integrate_options *o);
/* lie_layout.c: LIE layout (map, qoff_r, nq_tot, bandwidths), problem
 * fields and options for galpha, cleanup. */
cosrod_status sim_galpha_layout(sys_system *s);
void sim_galpha_problem(sys_system *s, cosrod_integrate_options *o);
void sim_galpha_free(sys_system *s);
int sim_lie_increment(const double *q, const double *w, double *qn, void *user);
/* lie_kirchhoff.c: galpha with Kirchhoff rods (dense FD tangent
 * Jacobians; sets ml = mu = nv - 1) */
cosrod_status sim_galpha_kirchhoff_layout(sys_system *s);
int sim_lie_jac_tangent_fd(double t, const double *y, double *K, double *C, int ld, void *user);
/* lie_layout.c: the rods' own blocks of K, C (analytic, added into K, C). */
int sim_lie_jac_tangent_rods(double t, const double *y, double *K, double *C, int ld, void *user);
/* lie_couple.c: rods attached to bodies, analytic K, C (set-up after
 * sim_galpha_kirchhoff_layout; lie_cj stays NULL where the differences are used). */
cosrod_status sim_galpha_couple_setup(sys_system *s);
/* lie_contact_sp.c: galpha's sparse tangents K, C with the contact's cross
 * blocks (rods without bodies, rod-rod or self-contact, KLU, the linear
 * solver not band).  setup: 1 set up, 0 not applicable, -1 no memory. */
typedef struct sim_lie_sp sim_lie_sp;
int sim_lie_sp_supported(const sys_system *s);
int sim_lie_sp_setup(sys_system *s);
void sim_lie_sp_free(sys_system *s);
int sim_lie_sp_nnz(const sys_system *s);
/* cosrod_ode_problem.jac_tangent_sp and tangent_pattern */
int sim_lie_sp_tangent(double t, const double *y, double *Kx, double *Cx, void *user);
long sim_lie_sp_pattern(void *user, const int **colptr, const int **rowind);
int sim_lie_jac_tangent_couple(double t, const double *y, double *K, double *C, int ld, void *user);
/* couple_kirchhoff.c: Kirchhoff rods attached to dynamic bodies.
 * create: after sim_couple_create (the ends' mobilities; nothing without
 * such rods); setup: after sim_kirchhoff_setup (ida residual with bodies,
 * the coupled consistent initial state); outer: sim_rhs must go through
 * sim_couple_kirch_rhs (the coupled constraint solve); prime: the end
 * accelerations at (t, y) before an evaluation of the rods (0 or -1);
 * project: the projection hook with bodies. */
cosrod_status sim_couple_kirch_create(sys_system *s);
cosrod_status sim_couple_kirch_setup(sys_system *s, char *err, size_t errlen);
void sim_couple_kirch_free(sys_system *s);
int sim_couple_kirch_outer(const sys_system *s);
int sim_couple_kirch_rhs(double t, const double *y, double *ydot, sys_system *s);
int sim_couple_kirch_prime(sys_system *s, double t, const double *y);
int sim_couple_kirch_project(double t, double *y, sys_system *s);
/* DAE: the multipliers in y consistent with its (q, v) at t (no-op without
 * Kirchhoff rods on bodies); 0 or -1. */
int sim_couple_kirch_lambda(sys_system *s, double t, double *y);
/* couple_kirchhoff_jac.c: the Jacobian of the DAE form with Kirchhoff rods
 * and bodies (the rods' analytic bands, the coupling columns by central
 * differences of the coupled right-hand side) and ida's residual Jacobian
 * from it; init 0 or -1 (no memory / no bodies), free is idempotent. */
int sim_couple_kirch_jac_init(sys_system *s);
/* the preconditioning end mobilities of rod r's attachments on (1) or off (0) */
void sim_couple_kirch_mobility(sys_system *s, size_t r, int on);
void sim_couple_kirch_jac_free(sys_system *s);
int sim_couple_kirch_jac(double t, const double *y, double *J, int ldj, void *user);
int sim_couple_kirch_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ldj,
                             void *user);
/* static_blocks.c: rods attached to rigid bodies in the statics system of
 * static and modal analyses and start_from_equilibrium (the input's
 * refusals: sim/sim_translate_sys.c): the coupling (sim_couple_create, blocks; s->m->nbq) after the rods are
 * built and s->m->ny is their size, the bodies' initial poses into y; the
 * blocks of the statics system (NULL without bodies); cleanup; the elastic
 * energy of the bushings' springs at the bodies' poses xq (model order, 7
 * each). */
cosrod_status sim_couple_static_create(sys_system *s, char *err, size_t errlen);
void sim_couple_static_initial(const sys_system *s, double *y);
const cosrod_statics_blocks *sim_couple_static_blocks(const sys_system *s);
void sim_couple_static_free(sys_system *s);
double sim_couple_static_bushing_energy(const sys_system *s, const double *xq);
/* layout.c: the steps of creation after the rods and the bodies' coupling
 * exist (s->m->ny, ny_r, off_r set): index maps, bandwidths and state buffers
 * (maxny: largest rod state), the initial state y0 (= y) with the DAE
 * flags, the integrator problem s->m->prob (time_dep: f depends on t) with the
 * Kirchhoff, linear-solver and Kirchhoff-body set-ups.  Status with err
 * set; the caller frees on failure. */
cosrod_status sim_layout_create(sys_system *s, int maxny, char *err, size_t errlen);
cosrod_status sim_initial_state(sys_system *s, char *err, size_t errlen);
cosrod_status sim_problem_create(sys_system *s, int time_dep, char *err, size_t errlen);

#endif /* COSROD_SYSTEM_MODEL_H */
