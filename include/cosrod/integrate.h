// SPDX-License-Identifier: Apache-2.0
/* Time integrators (module integrate): one interface for Hairer–Wanner's
 * one-step codes (dopri5, dop853, radau5, rodas, seulex) and the SUNDIALS
 * adapters (ida, cvode).
 *
 * Layers (as GSL odeiv2, see STYLE.md):
 *   1. problem    cosrod_ode_problem: dimension, f, optional Jacobian (dense
 *                 or banded), mass matrix, DAE index / residual, second-order
 *                 structure, projection hook, user pointer.  Read-only for
 *                 the integrator; must outlive it.
 *   2. step type  cosrod_step_type: a vtable, one file per method exporting
 *                 one pointer (cosrod_step_dopri5, ...).  `step` attempts ONE
 *                 step and decides accept/reject and the next h itself
 *                 (each method has its own controller), using the shared
 *                 helpers below (error norm, standard step-size factor).
 *   3. driver     cosrod_integrator: owns the loop from t0 to t_end, clips h
 *                 to hmax and t_end, checks max_steps, tiny steps and NaN/Inf,
 *                 calls the projection hook after accepted steps, the output
 *                 callback at requested output times (dense output) and an
 *                 optional step-history callback.
 *
 * Callbacks return int: 0 ok, > 0 recoverable (the method retries with a
 * smaller step), < 0 fatal (the run stops with COSROD_ERR_CALLBACK).
 *
 * Units: t, h in the problem's time unit; y in the problem's units; rtol
 * dimensionless, atol in the units of y.  Array shapes are given as (n) etc.
 *
 * Typical use:
 *     cosrod_ode_problem p = {0};
 *     p.n = n; p.f = my_rhs; p.jac = my_jac; p.user = &model;
 *     p.jac_banded = 1; p.jac_ml = p.jac_mu = 10;           // optional
 *     cosrod_integrate_options o = cosrod_integrate_default_options();
 *     o.rtol = o.atol = 1e-6;
 *     cosrod_status st;
 *     cosrod_integrator *it = cosrod_integrator_create(cosrod_step_type_by_name("radau5"), &p, &o, &st);
 *     cosrod_output_spec out = {.t_out = times, .n_out = nt, .output = write_row, .user = &file};
 *     st = cosrod_integrate(it, 0.0, y0, t_end, &out, y_end);
 *     if (st != COSROD_OK)
 *       fprintf(stderr, "%s at t = %g\n", cosrod_integrator_message(it), cosrod_integrator_fail_time(it));
 *     cosrod_integrate_stats_print(stdout, "radau5", cosrod_integrator_stats(it), 0);
 *     cosrod_integrator_free(it); */
#ifndef COSROD_INTEGRATE_H
#define COSROD_INTEGRATE_H

#include "cosrod/export.h"

#include <stddef.h>
#include <stdio.h>

#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* 1. Problem                                                               */
/* ======================================================================== */

/* Right-hand side: ydot (n) <- f(t, y (n)).  For a mass-matrix problem this is
 * the right-hand side of M y' = f(t, y). */
typedef int (*cosrod_ode_rhs)(double t, const double *y, double *ydot, void *user);

/* Jacobian of f with respect to y at (t, y).  The integrator zeroes J before
 * the call; the callback writes only the non-zero entries (unless the
 * problem sets jac_fills: then the callback writes every stored entry, zeros
 * included, and J is not zeroed first).  Storage (0-based,
 * column-major, leading dimension ldj):
 *   dense  (jac_banded == 0):  J(i,j) = J[i + j*ldj]
 *   banded (jac_banded != 0):  J(i,j) = J[j*ldj + mu + i - j]  for -mu <= i-j <= ml
 *     (LAPACK band layout without the fill-in rows, as dgbmv / Hairer's FJAC).
 *     A cosrod_band E with the same bandwidths can be passed as
 *     (E->data + E->ml, E->ld), so the callback fills E in place.
 * Which rows are supplied and the bandwidths depend on the second-order
 * structure, see cosrod_ode_problem.m1.  Use cosrod_jac_set() to write. */
typedef int (*cosrod_ode_jac)(double t, const double *y, double *J, int ldj, void *user);

/* Constant mass matrix M for M y' = f(t, y).  M is zeroed before the call,
 * storage as for the Jacobian (dense or banded with mass_ml, mass_mu).
 * With second-order structure (m1 > 0) only the lower-right
 * (n-m1) x (n-m1) block is supplied (the upper-left block is the identity). */
typedef int (*cosrod_ode_mass)(double *M, int ldm, void *user);

/* DAE residual for residual-based solvers (ida): r (n) <- F(t, y, yp). */
typedef int (*cosrod_dae_res)(double t, const double *y, const double *yp, double *r, void *user);

/* Residual Jacobian J = dF/dy + cj dF/dyp (n x n), zeroed before the call,
 * storage as for cosrod_ode_jac (dense, or banded with jac_ml, jac_mu). */
typedef int (*cosrod_dae_res_jac)(double t, double cj, const double *y, const double *yp, double *J, int ldj,
                                  void *user);

/* Projection hook, called by the driver after each accepted step of a
 * one-step method; may modify y (n) in place (e.g. p <- p/|p|).  The method
 * is told that y changed (cosrod_step_ctx.y_modified) and re-evaluates what
 * it caches (FSAL derivative).  Returns 0, COSROD_PROJECT_NEW_COORDINATES
 * (y was converted to new coordinates, e.g. a new null-space partition:
 * y_modified = 2, methods with a history of derivatives restart it), or
 * anything else on failure. */
typedef int (*cosrod_ode_project)(double t, double *y, void *user);
#define COSROD_PROJECT_NEW_COORDINATES 2

/* Explicit time derivative of f: ft (n) <- d f / d t at (t, y) (Rosenbrock
 * methods need it for non-autonomous problems, see time_dependent). */
typedef int (*cosrod_ode_dfdt)(double t, const double *y, double *ft, void *user);

/* Lie-group second-order structure (galpha), y = (q (lie_nq), v (nv = n - lie_nq)),
 * q̇ = B(q) v with v a velocity in the tangent space (e.g. the rod's null-space
 * form: q = (x, p), v = (ẋ, Ω), ṗ = ½ p Ω).
 * Increment: qnew (lie_nq) <- q ⊕ w for a tangent vector w (nv), i.e. the
 * configuration reached from q along the velocity w over unit time
 * (x + w_x; p ∘ exp(½ w_Ω) for a material angular velocity).  qnew may not
 * alias q.  NULL means the vector space: qnew = q + w (lie_nq == nv). */
typedef int (*cosrod_ode_increment)(const double *q, const double *w, double *qnew, void *user);
/* Tangent Jacobians of the accelerations a = f_v(t, q, v) (the last nv
 * components of f) at (t, y):
 *   K(i, j) = d a_i(q ⊕ ε e_j, v) / d ε at ε = 0   (minus the tangent stiffness M⁻¹ K_T)
 *   C(i, j) = d a_i / d v_j                        (minus the damping M⁻¹ C_T)
 * both nv x nv, banded with (lie_ml, lie_mu) in LAPACK band layout without
 * fill-in rows: entry (i, j) at K[j*ld + lie_mu + i - j]; zeroed before the
 * call. */
typedef int (*cosrod_ode_jac_tangent)(double t, const double *y, double *K, double *C, int ld, void *user);

/* Sparse tangent Jacobians (galpha; see cosrod_ode_problem.jac_tangent_sp):
 * Kx, Cx (nnz) <- the values of K and C of cosrod_ode_jac_tangent at (t, y)
 * in the order of the nv x nv CSC pattern of tangent_pattern (both matrices
 * on the same pattern); zeroed before the call. */
typedef int (*cosrod_ode_jac_tangent_sparse)(double t, const double *y, double *Kx, double *Cx, void *user);

/* Sparse Jacobian of f (see cosrod_ode_problem.jac_sparse): Jx (nnz) <- the
 * values of d f / d y at (t, y) in the order of the problem's CSC pattern
 * (entry k is row jac_rowind[k] of the column whose range holds k); zeroed
 * before the call. */
typedef int (*cosrod_ode_jac_sparse)(double t, const double *y, double *Jx, void *user);
/* Pattern that grows during the run (see cosrod_ode_problem.jac_pattern):
 * returns the pattern's version (a counter, never decreasing) and sets
 * *colptr, *rowind to the current pattern. */
typedef long (*cosrod_ode_jac_pattern)(void *user, const int **colptr, const int **rowind);

/* Problem description.  Zero-initialise (cosrod_ode_problem p = {0};) and
 * fill what applies: all optional fields are 0/NULL by default.
 *
 * Second-order structure (Hairer's M1/M2, as in RADAU5, RODAS, SEULEX):
 *   m1 > 0 declares that the first m1 components satisfy
 *       y'_i = y_{i+m2},  i = 0 .. m1-1,
 *   (m2 defaults to m1 when 0; m1 must be a multiple of m2 and m1 + m2 <= n).
 *   f must still return the full vector (ydot_i = y_{i+m2} for i < m1), but
 *   the Jacobian callback supplies only the lower rows: the (n-m1) x n matrix
 *       J(i,j) = d f_{m1+i} / d y_j,   i = 0 .. n-m1-1,  j = 0 .. n-1.
 *   Dense: J[i + j*ldj], ldj >= n-m1.
 *   Banded: the columns form blocks; q-block k = 0 .. m1/m2-1 holds columns
 *   j = k*m2 + c (c = 0 .. m2-1) with bandwidths (jac_ml_q, jac_mu_q); the
 *   v-block holds columns j = m1 + c (c = 0 .. n-m1-1) with bandwidths
 *   (jac_ml, jac_mu).  Within its block, local entry (i, c) is stored at
 *       J[j*ldj + mu_b + i - c]     (mu_b = the block's upper bandwidth),
 *   ldj >= max(jac_ml_q + jac_mu_q, jac_ml + jac_mu) + 1.
 *   cosrod_jac_set2() does this indexing.  For the rod's absolute formulation
 *   (q' = v, v' = f(q, v)) take m1 = m2 = n/2.
 *
 * DAE index (radau5): the components are ordered index-1 first, then index-2,
 *   then index-3 variables; nind1 + nind2 + nind3 == n, or all three 0 which
 *   means nind1 = n (an ODE or index-1 DAE).  Used for radau5's
 *   index-dependent scaling of the error estimate. */
typedef struct cosrod_ode_problem {
  int n;            /* dimension (>= 1) */
  cosrod_ode_rhs f; /* required except for residual-only problems (ida) */
  void *user;       /* passed to every callback */

  /* Jacobian of f (optional: implicit methods use finite differences otherwise). */
  cosrod_ode_jac jac;
  int jac_banded;         /* 0 dense, 1 banded (bandwidths below; also used by the FD Jacobian) */
  int jac_ml, jac_mu;     /* lower/upper bandwidth (m1 == 0: of the whole J; m1 > 0: of the v-block) */
  int jac_ml_q, jac_mu_q; /* m1 > 0 and banded: bandwidths of each q-block */

  /* Second-order structure (see above); 0 = none. */
  int m1, m2;

  /* Constant mass matrix (optional; NULL = identity). */
  cosrod_ode_mass mass;
  int mass_banded;      /* 0 dense, 1 banded */
  int mass_ml, mass_mu; /* bandwidths of M (of the lower-right block when m1 > 0) */

  /* DAE index information (radau5); see above. */
  int nind1, nind2, nind3;

  /* Residual form F(t, y, y') = 0 for ida (optional).  If f is given too, a
   * method that needs a residual and has none uses F = M y' - f. */
  cosrod_dae_res res;
  cosrod_dae_res_jac res_jac;
  const double *dae_id; /* (n) 1.0 for differential, 0.0 for algebraic components, or NULL */

  /* Projection after accepted steps (optional, one-step methods). */
  cosrod_ode_project project;

  /* Explicit time dependence (Rosenbrock methods: rodas).  0 (default, as
   * Hairer's IFCN = 0): f does not depend on t explicitly, d f / d t = 0.
   * 1: f depends on t; rodas takes d f / d t from dfdt if given, else by a
   * forward difference (one extra f per Jacobian).  Set it for time-varying
   * loads or prescribed motions, or rodas loses order (it stays convergent).
   * Other methods evaluate f at the right times and ignore both fields. */
  int time_dependent;
  cosrod_ode_dfdt dfdt; /* optional d f / d t (n); used when time_dependent != 0 */

  /* 0 (default): the integrator zeroes J before every call of jac.  1: jac
   * writes every entry of the storage it is given, zeros included -- dense:
   * all n x n (m1 > 0: (n - m1) x n) entries; banded: rows 0 .. ml + mu of
   * every column (m1 > 0: rows 0 .. ml_q + mu_q of each q-block column) --
   * so the integrator skips the zeroing (a memset of ldj x n doubles per
   * Jacobian).  Rows of the column beyond the band (ldj larger) are never
   * read.  Only for an analytic jac; the finite-difference Jacobian is
   * always zeroed first.  Before the first call J holds zeros, afterwards the
   * previous Jacobian. */
  int jac_fills;

  /* Lie-group second-order structure (galpha; see cosrod_ode_increment):
   * lie_nq > 0 declares y = (q (lie_nq), v (n - lie_nq)); jac_tangent is
   * required by galpha, increment optional (NULL: vector space). */
  int lie_nq;
  cosrod_ode_increment increment;
  cosrod_ode_jac_tangent jac_tangent;
  int lie_ml, lie_mu; /* bandwidths of the tangent Jacobians K, C */

  /* Sparse Jacobian shape (optional).  jac_sparse != 0 gives the pattern of
   * the n x n Jacobian in compressed sparse column form (cosrod/sparse.h):
   * the rows of column j are jac_rowind[jac_colptr[j] .. jac_colptr[j+1]-1],
   * strictly ascending; both arrays must outlive the integrator.  Methods
   * with COSROD_STEP_SPARSE (rodas, seulex, radau5, ida, cvode) then solve their
   * linear systems with KLU (when cosrod_sparse_available()), taking the
   * values from jac_sp, else from finite differences grouped by the pattern
   * (Curtis-Powell-Reid); the pattern must hold every entry that can be
   * non-zero.  Only for m1 == 0 and no mass matrix or a diagonal one (banded,
   * mass_ml = mass_mu = 0; not for ida's residual form).  Every other method and
   * shape uses the dense / banded description above, so give both. */
  int jac_sparse;
  const int *jac_colptr; /* (n + 1) */
  const int *jac_rowind; /* (jac_colptr[n]) */
  cosrod_ode_jac_sparse jac_sp;
  /* Growing pattern (optional, with jac_sp): a jac_sp evaluation may find
   * non-zero entries outside the pattern (e.g. contact between parts that
   * were far apart); it fills the entries it has and remembers the others.
   * After each jac_sp evaluation the sparse methods call jac_pattern, which
   * adds the remembered entries (the pattern only grows) and returns its
   * version; when that changed, the method rebuilds its sparse structures
   * (KLU symbolic analysis, SUNDIALS' matrix and KLU solver) on the new
   * pattern, counts it in stats.npattern and evaluates jac_sp again, without
   * restarting the integration.  jac_colptr / jac_rowind then describe the
   * initial pattern only and may be freed when it grows; the methods take
   * the current one from jac_pattern.
   * Without jac_pattern (or with a method that ignores it) the entries
   * outside stay out of the Jacobian. */
  cosrod_ode_jac_pattern jac_pattern;

  /* Sparse tangent Jacobians (optional, galpha with lie_nq > 0): when both
   * are given and KLU is built in (cosrod_sparse_available()), galpha takes
   * K and C from jac_tangent_sp on the nv x nv CSC pattern of
   * tangent_pattern instead of the bands of jac_tangent, and factorises its
   * iteration matrix S = I - γ'' C - β'' K with KLU (the pattern plus the
   * diagonal).  tangent_pattern returns the pattern's version and the
   * current pattern, as jac_pattern: an evaluation may find entries outside
   * it (e.g. contact between rods that were apart), fill the ones it has and
   * remember the others; galpha calls tangent_pattern after each evaluation
   * and, when the version changed, rebuilds its symbolic analysis (counted
   * in stats.npattern) and evaluates again.  The initial pattern is the one
   * returned by the first call.  jac_tangent stays required (the methods'
   * band description). */
  cosrod_ode_jac_tangent_sparse jac_tangent_sp;
  cosrod_ode_jac_pattern tangent_pattern;
} cosrod_ode_problem;

/* Write a Jacobian entry (i, j) into J with leading dimension ldj, dense or
 * banded with upper bandwidth mu (m1 == 0 storage described above). */
static inline void cosrod_jac_set(double *J, int ldj, int banded, int mu, int i, int j, double v) {
  if (banded)
    J[(size_t)j * (size_t)ldj + (size_t)(mu + i - j)] = v;
  else
    J[(size_t)i + (size_t)j * (size_t)ldj] = v;
}

/* Write entry d f_{m1+i} / d y_j of the reduced Jacobian of a second-order
 * problem (m1 > 0) into J; i = 0 .. n-m1-1 (local row), j = 0 .. n-1. */
static inline void cosrod_jac_set2(double *J, int ldj, const cosrod_ode_problem *p, int i, int j, double v) {
  if (!p->jac_banded) {
    J[(size_t)i + (size_t)j * (size_t)ldj] = v;
    return;
  }
  int m2 = p->m2 > 0 ? p->m2 : p->m1;
  int c = j < p->m1 ? j % m2 : j - p->m1;
  int mu = j < p->m1 ? p->jac_mu_q : p->jac_mu;
  J[(size_t)j * (size_t)ldj + (size_t)(mu + i - c)] = v;
}

/* ======================================================================== */
/* Options and statistics                                                   */
/* ======================================================================== */

/* Step-size controller choice for methods that offer several (radau5, rodas). */
typedef enum cosrod_controller_kind {
  COSROD_CONTROLLER_DEFAULT = 0,   /* the method's default */
  COSROD_CONTROLLER_CLASSICAL = 1, /* standard  hnew = h * fac(err) */
  COSROD_CONTROLLER_GUSTAFSSON = 2 /* predictive (Gustafsson 1994) */
} cosrod_controller_kind;

/* Options.  Start from cosrod_integrate_default_options() and change fields.
 * Method-specific knobs: 0 means "the method's default" (documented with
 * each method); a method ignores knobs that do not apply to it. */
typedef struct cosrod_integrate_options {
  double rtol, atol;      /* scalar tolerances (default 1e-6, 1e-6) */
  const double *rtol_vec; /* (n) per-component rtol, or NULL (copied at create) */
  const double *atol_vec; /* (n) per-component atol, or NULL (copied at create) */
  double h0;              /* initial step; 0 = the method's own choice */
  double hmax;            /* maximal |h|; 0 = |t_end - t0| */
  long max_steps;         /* maximal number of attempted steps per evolve call (default 100000) */

  /* Step-size control (0 = default). */
  double safety;  /* safety factor of the step-size controller */
  double fac_min; /* lower bound on hnew/h */
  double fac_max; /* upper bound on hnew/h */
  double beta;    /* PI (Lund) stabilisation exponent (explicit methods); 0 = default, < 0 means none */
  cosrod_controller_kind controller;

  /* Implicit methods (0 = default). */
  int max_newton;     /* Newton iterations per step (radau5) */
  double newton_tol;  /* stopping tolerance of the Newton iteration (radau5) */
  double jac_reuse;   /* recompute J only if the Newton contraction (radau5) or the seulex
                         convergence measure exceeds this; < 0: every step */
  double keep_h_lo;   /* keep h and the LU if keep_h_lo <= hnew/h <= keep_h_hi (radau5) */
  double keep_h_hi;
  int max_columns;    /* extrapolation: max columns (seulex) */
  int linalg_backend; /* 0 own band/dense LU, 1 LAPACK (cosrod_linalg_backend); ida / cvode with a
                         banded analytic Jacobian: 2 = SUNDIALS' own band matrix and solver */
  int threads;        /* banded linear systems of rodas, seulex, radau5 (real and complex system)
                         and galpha: >= 2 factor and solve systems of order >= 2000 by the
                         partitioned SPIKE solver (cosrod/band_spike.h) on that many threads and
                         partitions; <= 1 (default 0) the serial band LU */
  int suppress_alg;   /* rodas, ida: 1 = the algebraic components (dae_id 0, else the zero rows of M) are
                         left out of the local error test (SUNDIALS IDA's IDASetSuppressAlg): in an
                         index-1 DAE they follow from the differential ones.  0 (default): all */
  int dae_init;       /* ida: consistent initial values (IDACalcIC) at init.  0 = automatic: when no
                         consistent y' is known (residual or mass-matrix problem without yp0);
                         1 = always compute the algebraic y and the differential y' from the
                         differential y (components told by dae_id, else by zero columns of M);
                         2 = compute all of y from y' (yp0); -1 = never (y, yp0 are consistent) */

  /* Explicit methods: stiffness detection (Hairer's dopri5/dop853). */
  long stiff_test;    /* test every so many steps (0 = method default); < 0 never */
  int stiff_continue; /* 0 (default): stop with ERR_STIFF; 1: count in stats.nstiff, go on */

  /* Generalized-α (galpha). */
  double rho_inf; /* spectral radius at infinity in [0, 1]; < 0 = default 0.8 (set by the defaults) */
  int galpha_scheme; /* COSROD_GALPHA_CHUNG_HULBERT (default), _HHT, _NEWMARK (see galpha.c) */
  int fixed_step;    /* 1: constant step h0 (galpha; needs h0 > 0), no error control */
  int galpha_realtime; /* with fixed_step: bounded work per step — at most max_newton iterations, the
                          last (finite) iterate accepted, no step halving; at most jac_budget
                          tangent Jacobians per step (0: only when none is valid) */
  int jac_budget;

  double uround; /* unit roundoff; 0 = DBL_EPSILON/2 ~ 1.1e-16 */
} cosrod_integrate_options;

/* Generalized-α variants (cosrod_integrate_options.galpha_scheme), all from rho_inf:
 *   CHUNG_HULBERT  α_m = (2ρ∞ - 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1)   (Chung & Hulbert 1993, eq. 25)
 *   HHT            α_m = 0, α_f = (1 - ρ∞)/(1 + ρ∞), ρ∞ in [1/2, 1]  (Hilber, Hughes & Taylor 1977)
 *   NEWMARK        α_m = α_f = 0 (average acceleration γ = ½, β = ¼ when ρ∞ = 1; else
 *                  γ = ½ + (1 - ρ∞)/(1 + ρ∞), β = ¼(γ + ½)², first order)
 * with γ = ½ - α_m + α_f, β = ¼(1 - α_m + α_f)² for the first two. */
enum { COSROD_GALPHA_CHUNG_HULBERT = 0, COSROD_GALPHA_HHT = 1, COSROD_GALPHA_NEWMARK = 2 };

/* Defaults: rtol = atol = 1e-6, max_steps = 100000, rho_inf = -1 (method
 * default), everything else 0. */
COSROD_API cosrod_integrate_options cosrod_integrate_default_options(void);

/* Counters (reset by cosrod_integrator_init). */
typedef struct cosrod_integrate_stats {
  long nfev;        /* evaluations of f (or of the residual), incl. those for FD Jacobians */
  long njev;        /* Jacobian evaluations (analytic or by finite differences) */
  long nsteps;      /* attempted steps (accepted + rejected, as Hairer's NSTEP) */
  long naccept;     /* accepted steps */
  long nreject;     /* steps rejected by the error test (or a recoverable callback failure),
                       the ones before the first accepted step included */
  long nconvfail;   /* attempts that failed for convergence, not accuracy (not in nreject):
                       radau5 Newton divergence, rodas singular matrix, seulex unstable or
                       diverging extrapolation rows / singular matrix, ida / cvode
                       nonlinear-solver step failures; 0 for explicit methods.  nsteps =
                       naccept + nreject + nconvfail */
  long ndecomp;     /* LU decompositions (radau5: one real+complex pair counts 1, as Hairer) */
  long nsolve;      /* forward/back substitutions */
  long nnewton;     /* Newton iterations */
  long nstiff;      /* stiffness detections (dopri5/dop853) */
  long nproject;    /* calls of the projection hook */
  long nfail_rhs;   /* recoverable callback failures (step retried) */
  long npattern;    /* sparse pattern rebuilds (cosrod_ode_problem.jac_pattern) */
  double wall_time; /* seconds spent in cosrod_integrator_evolve */
} cosrod_integrate_stats;

/* Printers: a table header / row (fixed width) or CSV header / row. */
COSROD_API void cosrod_integrate_stats_print_header(FILE *out, int csv);
COSROD_API void cosrod_integrate_stats_print(FILE *out, const char *label, const cosrod_integrate_stats *s, int csv);

/* ======================================================================== */
/* 2. Step types (for method implementers)                                  */
/* ======================================================================== */

/* Capability flags of a step type. */
enum {
  COSROD_STEP_EXPLICIT = 1u << 0,     /* explicit method (no Jacobian) */
  COSROD_STEP_IMPLICIT = 1u << 1,     /* uses the Jacobian / linear solves */
  COSROD_STEP_MASS = 1u << 2,         /* supports a mass matrix (M y' = f) */
  COSROD_STEP_DAE = 1u << 3,          /* supports singular M (index-1 DAE) */
  COSROD_STEP_DAE_INDEX23 = 1u << 4,  /* supports index-2/3 variables (radau5) */
  COSROD_STEP_BANDED = 1u << 5,       /* exploits a banded Jacobian */
  COSROD_STEP_SECOND_ORDER = 1u << 6, /* accepts m1/m2 problems (the reduced Jacobian) */
  COSROD_STEP_PROJECTION = 1u << 7,   /* one-step method: the projection hook may be used */
  COSROD_STEP_DENSE = 1u << 8,        /* has dense output */
  COSROD_STEP_RESIDUAL = 1u << 9,     /* can use the residual form (ida) */
  COSROD_STEP_OWN_CLIP = 1u << 10,    /* the method itself stops at t_end (driver does not clip h) */
  COSROD_STEP_M1_REDUCTION = 1u << 11, /* solves the halved Newton system of an m1/m2 problem
                                         (Hairer's M1 option); without it a method expands the
                                         reduced Jacobian to the full (dense) one */
  COSROD_STEP_SPARSE = 1u << 12        /* uses the sparse Jacobian shape (jac_sparse) with KLU */
};

/* End of the interval: no step taken to reach t_end is shorter than this fraction of the step
 * the method proposed (so of the step before it with fixed steps): a rest t_end - t between h and
 * (1 + F) h is covered by two equal steps, and a step ending within rounding distance of t_end
 * ends there (cosrod_step_to_end; driver and radau5's own end logic).  F = 0.2 is the smallest
 * step ratio the standard controller takes after an accepted step (fac_min, HNW I (4.13)), so
 * the end of the interval shortens a step no more than the controller would.  A tiny last step
 * would amplify the error of index-2/3 components by powers of 1/h (HW II §VII.4). */
#define COSROD_LAST_STEP_MIN_FRACTION 0.2

/* Shared state between the driver and a method, owned by the integrator.
 * The driver sets t, y, h, t_end, hmax, y_modified; the method's step updates
 * t, y, h, t_old, h_last on acceptance. */
typedef struct cosrod_step_ctx {
  const cosrod_ode_problem *problem;
  const cosrod_integrate_options *opts; /* the integrator's copy */
  int n;
  const double *rtol; /* (n) per-component tolerances (expanded from scalars) */
  const double *atol; /* (n) */
  cosrod_integrate_stats *stats;

  const double *yp0;  /* (n) initial derivative given to cosrod_integrator_init, or NULL */
  double t0;          /* start of the integration (init) */
  double t;           /* time of the last accepted step */
  double *y;          /* (n) state at t (method updates it on acceptance) */
  double h;           /* signed step to attempt next (driver clips; method proposes) */
  double t_end;       /* end of the current evolve call */
  double dir;         /* +1 or -1, sign of t_end - t0 */
  double hmax;        /* > 0, bound on |h| */
  double uround;      /* unit roundoff */
  double clip_factor; /* driver: if (t + clip_factor*h - t_end)*dir > 0, h = t_end - t (driver default
                         1.0; a method may set its own in alloc) */

  double t_old;   /* start of the last accepted step: dense output valid on [t_old, t] */
  double h_last;  /* size of the last accepted step (t - t_old) */
  int last;       /* set by the driver when the attempted step reaches t_end */
  int y_modified; /* set by the driver when projection (or the user) changed y after the last step
                     (2: new coordinates, COSROD_PROJECT_NEW_COORDINATES); the method must discard
                     cached derivatives and clear it */
  int first;      /* 1 until the method's reset has run (driver) */
  int nonfinite;  /* set (by cosrod_step_call_f or the method) when f or the error estimate was
                     NaN/Inf since the last accepted step; the driver then reports ERR_NONFINITE
                     instead of ERR_STEP_TOO_SMALL / ERR_MAX_STEPS */

  char *msg; /* failure message buffer (msg_size bytes); write with cosrod_step_fail() */
  size_t msg_size;
  double t_fail; /* time of failure */
} cosrod_step_ctx;

typedef struct cosrod_step_type {
  const char *name; /* e.g. "dopri5" */
  int order;        /* classical order of the propagated solution */
  unsigned flags;   /* COSROD_STEP_* */
  /* Allocate the method state for this problem (all workspace sized here).
   * May refuse unsupported problems with ERR_UNSUPPORTED (write a message). */
  cosrod_status (*alloc)(void **state, cosrod_step_ctx *ctx);
  /* Prepare integration from (ctx->t, ctx->y): first f evaluation etc.; if
   * ctx->h == 0 choose the initial step.
   * Called by the first evolve after cosrod_integrator_init (and again when
   * the direction of integration reverses), when t_end, dir and hmax are set. */
  cosrod_status (*reset)(void *state, cosrod_step_ctx *ctx);
  /* Attempt one step of size ctx->h from (ctx->t, ctx->y).  On acceptance set
   * *accepted = 1, advance ctx->t/ctx->y, set ctx->t_old, ctx->h_last, prepare
   * dense output, and set ctx->h to the proposed next step.  On rejection set
   * *accepted = 0, leave t and y, set ctx->h to the retry step.  Counters
   * nsteps/naccept/nreject/nconvfail are kept by the method, with the
   * meaning documented in cosrod_integrate_stats.  Return != OK only for a definite failure
   * (ERR_NEWTON, ERR_SINGULAR, ERR_CALLBACK, ERR_STIFF, ...), with a message. */
  cosrod_status (*step)(void *state, cosrod_step_ctx *ctx, int *accepted);
  /* Dense output at t in [ctx->t_old, ctx->t]: out[k] = y_{idx[k]}(t) for
   * k < nidx, or all n components if idx == NULL (out: (nidx) or (n)).
   * Valid from an accepted step until the next step attempt.  Must not
   * allocate or change the solution; may evaluate f lazily (dop853's extra
   * stages, counted in nfev). */
  cosrod_status (*dense)(void *state, cosrod_step_ctx *ctx, double t, const int *idx, int nidx, double *out);
  void (*free)(void *state);
} cosrod_step_type;

/* The methods.  Each is defined in its own file; a method that is not built
 * (e.g. SUNDIALS adapters when SUNDIALS is absent) has no definition, so use
 * cosrod_step_type_by_name() in code that must link without it. */
COSROD_API extern const cosrod_step_type *const cosrod_step_dopri5;
COSROD_API extern const cosrod_step_type *const cosrod_step_dop853;
COSROD_API extern const cosrod_step_type *const cosrod_step_radau5;
COSROD_API extern const cosrod_step_type *const cosrod_step_rodas;
COSROD_API extern const cosrod_step_type *const cosrod_step_seulex;
COSROD_API extern const cosrod_step_type *const cosrod_step_ida;
COSROD_API extern const cosrod_step_type *const cosrod_step_cvode;
COSROD_API extern const cosrod_step_type *const cosrod_step_galpha;
COSROD_API extern const cosrod_step_type *const cosrod_step_odex;

/* Method by name ("dopri5", ...); NULL if unknown or not built. */
COSROD_API const cosrod_step_type *cosrod_step_type_by_name(const char *name);
/* The methods built into this library: count, and the i-th (NULL if out of range). */
COSROD_API size_t cosrod_step_type_count(void);
COSROD_API const cosrod_step_type *cosrod_step_type_at(size_t i);

/* ---- shared helpers for methods ---------------------------------------- */

/* Call f (counts nfev).  Returns the callback's code (0, > 0 recoverable,
 * < 0 fatal) and writes a message on failure; a NaN/Inf in ydot is reported
 * as recoverable (> 0) — the method should reject the step and shrink h. */
COSROD_API int cosrod_step_call_f(cosrod_step_ctx *ctx, double t, const double *y, double *ydot);
/* Evaluate the Jacobian (counts njev): analytic if given, else by finite
 * differences (dense, or banded with column grouping; costs nfev).  A NaN/Inf
 * entry of an analytic J (or a non-finite f in the differences) returns > 0
 * with ctx->nonfinite set and a message: the method should stop with
 * ERR_NONFINITE, a smaller step does not change J at this point.  J is
 * zeroed first (not for an analytic jac when the problem sets jac_fills).  Storage as documented for
 * cosrod_ode_jac (including the reduced m1 > 0 form).  fy: (n) = f(t, y) already evaluated.  work: (2n). */
COSROD_API int cosrod_step_call_jac(cosrod_step_ctx *ctx, double t, const double *y, const double *fy, double *J,
                                    int ldj, double *work);
/* Record a failure: message (printf-style) and time; returns status. */
COSROD_API cosrod_status cosrod_step_fail(cosrod_step_ctx *ctx, cosrod_status status, double t, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Hairer's scale sk_i = atol_i + rtol_i * max(|y0_i|, |y1_i|) (y1 may be
 * NULL: max over y0 only).  rtol, atol, y0, y1, sk: (n). */
COSROD_API void cosrod_integrate_scale(int n, const double *rtol, const double *atol, const double *y0, const double *y1,
                                       double *sk);
/* Weighted RMS norm sqrt( (1/n) sum (e_i / sk_i)^2 ). */
COSROD_API double cosrod_integrate_wrms(int n, const double *e, const double *sk);
/* Both in one pass with the ctx tolerances: the error norm of dopri5/dop853. */
COSROD_API double cosrod_integrate_err_norm(const cosrod_step_ctx *ctx, const double *e, const double *y0,
                                            const double *y1);
/* The same over the components with skip[i] == 0 only (the RMS over those;
 * skip NULL: all, as cosrod_integrate_err_norm). */
COSROD_API double cosrod_integrate_err_norm_skip(const cosrod_step_ctx *ctx, const double *e, const double *y0,
                                                 const double *y1, const unsigned char *skip);

/* Standard step-size factor q = hnew/h = safety * err^-expo clamped to
 * [fac_min, fac_max] (q = fac_max if err == 0; HNW I (4.13)).  err is the
 * scaled error norm (accept iff err <= 1), expo = 1/(order of the error
 * estimate + 1); all constants from the caller. */
COSROD_API double cosrod_control_standard(double err, double expo, double safety, double fac_min, double fac_max);

/* End of the interval for the signed step *h proposed at ctx->t towards ctx->t_end, with
 * clip_factor as in cosrod_step_ctx: returns 1 and sets *h = t_end - t when t + clip_factor h
 * passes t_end or stops within 100 roundings of it (max(|t|, |t_end|) 100 u, so that no step of
 * rounding size follows); sets *h to half the rest when the rest is below (1 + F)|h| (the last two
 * steps equal, F = COSROD_LAST_STEP_MIN_FRACTION) and returns 0; otherwise leaves *h, returns 0.  Used
 * by the driver and by methods with COSROD_STEP_OWN_CLIP. */
COSROD_API int cosrod_step_to_end(const cosrod_step_ctx *ctx, double clip_factor, double *h);

/* ======================================================================== */
/* 3. Driver                                                                */
/* ======================================================================== */

typedef struct cosrod_integrator cosrod_integrator;

/* Output callback: state y (n) at time t.  Return 0 to continue, > 0 to stop
 * the integration early (status ERR_INTERRUPTED, state kept), < 0 fatal
 * (ERR_CALLBACK). */
typedef int (*cosrod_output_fn)(double t, const double *y, void *user);
/* Step history: attempted step [t, t + h], accepted or not. */
typedef int (*cosrod_step_fn)(double t, double h, int accepted, void *user);

/* What the driver reports during evolve (all optional; zero-initialise). */
typedef struct cosrod_output_spec {
  const double *t_out; /* (n_out) output times, monotone in the integration direction; those in
                          (t0, t_end] are reported via dense output (t0 itself if include_t0) */
  size_t n_out;
  int every_step; /* 1: also report after every accepted step */
  int include_t0; /* 1: report the initial state (once, at the start) */
  cosrod_output_fn output;
  cosrod_step_fn step_history;
  void *user; /* passed to output and step_history */
} cosrod_output_spec;

/* Create an integrator for a method and a problem (problem must outlive it).
 * Options are copied (NULL = defaults).  Returns NULL and sets *status
 * (if non-NULL) on failure: ERR_INVALID, ERR_UNSUPPORTED (the problem needs a
 * capability the method lacks: mass matrix, DAE, projection), ERR_NOMEM;
 * cosrod_last_error() says why in one line, e.g. "rodas: rtol = atol = 0
 * for component 2: ..." (status.h).  Tolerances: rtol_i, atol_i finite,
 * >= 0 and not both 0 (init also refuses atol_i = 0 with y0_i = 0). */
COSROD_API cosrod_integrator *cosrod_integrator_create(const cosrod_step_type *type, const cosrod_ode_problem *problem,
                                                       const cosrod_integrate_options *opts, cosrod_status *status);
COSROD_API void cosrod_integrator_free(cosrod_integrator *integ);

/* Set the initial state (t0, y0 (n)), reset the statistics and the method.
 * yp0 (n) is an optional initial derivative for residual solvers (NULL).
 * ERR_INVALID (t0 not finite, or atol_i + rtol_i |y0_i| = 0) or
 * ERR_NONFINITE (NaN/Inf in y0 or yp0), with a message. */
COSROD_API cosrod_status cosrod_integrator_init(cosrod_integrator *integ, double t0, const double *y0,
                                                const double *yp0);
/* Integrate from the current state to t_end (continuing a previous call is
 * allowed).  Returns OK, or a failure status; then the state stays at the
 * last accepted step and cosrod_integrator_message() says what and when. */
COSROD_API cosrod_status cosrod_integrator_evolve(cosrod_integrator *integ, double t_end, const cosrod_output_spec *out);
/* init + evolve; y_end (n) receives the final (or last accepted) state if non-NULL. */
COSROD_API cosrod_status cosrod_integrate(cosrod_integrator *integ, double t0, const double *y0, double t_end,
                                          const cosrod_output_spec *out, double *y_end);

/* Set the step to attempt next (after init: the initial step, overriding
 * options.h0 for this start; 0 = the method's own guess).  For a driver that
 * restarts the method at a discontinuity with its own initial-step estimate. */
COSROD_API cosrod_status cosrod_integrator_set_step(cosrod_integrator *integ, double h);

COSROD_API double cosrod_integrator_t(const cosrod_integrator *integ);        /* time of the last accepted step */
COSROD_API const double *cosrod_integrator_y(const cosrod_integrator *integ); /* (n) state there */
COSROD_API double cosrod_integrator_h(const cosrod_integrator *integ);        /* next proposed step */
/* Dense output at t inside the last accepted step (see cosrod_step_type.dense). */
COSROD_API cosrod_status cosrod_integrator_dense(cosrod_integrator *integ, double t, const int *idx, int nidx,
                                                 double *out);
COSROD_API const cosrod_integrate_stats *cosrod_integrator_stats(const cosrod_integrator *integ);
COSROD_API const char *cosrod_integrator_message(const cosrod_integrator *integ);  /* "" if none */
COSROD_API double cosrod_integrator_fail_time(const cosrod_integrator *integ);     /* time of the failure */
COSROD_API cosrod_status cosrod_integrator_status(const cosrod_integrator *integ); /* of the last evolve */
COSROD_API const cosrod_step_type *cosrod_integrator_type(const cosrod_integrator *integ);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_INTEGRATE_H */
