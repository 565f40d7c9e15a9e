// SPDX-License-Identifier: Apache-2.0
/* Internal state of the statics solver, shared by statics.c (lifecycle),
 * statics_stiffness.c (residual, stiffness), statics_path.c (continuation)
 * and modes.c.
 * A solver covers one or several (uncoupled) rods: their minimal
 * coordinates and positions are concatenated, rod r at offsets q0 / v0. */
#ifndef COSROD_STATICS_INTERNAL_H
#define COSROD_STATICS_INTERNAL_H

#include "cosrod/band.h"
#include "cosrod/statics.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"
#include "rod/rod_hooks.h"
#include "rod/rod_statics.h"

/* Scales and maxima of a part's residual between part_eval and part_finish (statics_stiffness.c). */
typedef struct statics_pres {
  double SF, SM, rf, rm, Fmax, Mmax, xmax, dsmax;
} statics_pres;

typedef struct statics_part {
  const cosrod_rod *rod;
  cosrod_rod_view rv;       /* the rod's discretisation and layout (rod_statics.h) */
  cosrod_rod *quiet;        /* damping-free shell of rod (rates are zero in statics; rod_statics.h) */
  cosrod_rod_data *d;       /* evaluation workspace */
  double *y;                /* (nq + nv) (q, ν = 0) of this rod */
  cosrod_band *Kq;          /* (nq x nq, bandwidth 10) the rod's static stiffness */
  double *T;                /* (N x 4 x 3) tangent maps of the segment charts */
  int *bq, *bv, *bnq, *bnv; /* (2N+1) block offsets / sizes in q and in the chart */
  int q0, v0;               /* offsets in the system's q and δ */
  int nq, nv;               /* sizes */
  double floorF, floorM;    /* residual scale floors (N, N m) */
  double dsmin, hx;         /* smallest Δs (m), FD step for positions (m) */
  double step_noise;        /* roundoff level of a weighted Newton step */
  const int *ov, *os;       /* (N+1), (N) offsets of vertex / segment unknowns in this rod's block of δ
                               (rv.vv_ns / vs_ns; Kirchhoff rods: with the multipliers interleaved) */
  struct statics_kkt *kkt;  /* Kirchhoff constraints (statics_kirchhoff.c), NULL for a Cosserat rod */
  statics_pres pr;          /* the last residual's scales (statics_stiffness.c) */
} statics_part;

struct cosrod_statics {
  int nparts;
  statics_part *part; /* (nparts) */
  cosrod_statics_options opt;
  int nq, nv;           /* system sizes */
  int ml, mu;           /* half bandwidths of the stiffness (8, 8) */
  double *r, *r2, *dv;  /* (nv) residuals, increment */
  double *rpl, *rmi;    /* (nv) FD residuals */
  double *hcol;         /* (nv) FD steps (m, rad) */
  double *wnorm;        /* (nv) weights 1/Δs_min (translations), 1 (rotations) */
  double *rbest;        /* (nv) residual of qbest */
  double *qc, *qw, *qt; /* (nq) converged, working, FD-perturbed states */
  double *q0;           /* (nq) start of a correction */
  double *qw2, *qbest;  /* (nq) line-search trial and best */
  double *qprev;        /* (nq) previous converged state (second-order predictor) */
  cosrod_band *J;       /* (nv x nv) dr/dδ, then its LU */
  double *ldl;          /* (nv x (max(ml, mu) + 1)) banded LDLᵀ of the stability monitor */
  double *kdiag;        /* (nv) |diagonal| of K before the LDLᵀ */
  double hth;           /* FD step for rotations (rad) */
  double eta;           /* line-search acceptance |s(α)| <= eta |s(0)| */
  double step_noise;    /* roundoff level of a weighted Newton step (max over rods) */
  double sc_min;        /* smallest scaled residual of the last correct() (+inf: none finite) */
  double excess;        /* convergence measure of the last residual (<= 1: converged, see statics_residual) */
  int dead_loads;       /* 1: only gravity and spatial forces (their stiffness is 0 at any scale) */
  int kkt;              /* 1: some rod is a Kirchhoff rod (KKT unknowns, statics_kirchhoff.c) */
  double *arcbuf;       /* (5 nv + 3 nq) arc-length workspace (statics_arclen.c), or NULL */
  double *ptcbuf;       /* (4 nv + 2 nq) pseudo-transient continuation workspace (statics_ptc.c) */
  long nnewton, njac, nres;
  /* rigid blocks (statics_blocks.c; nblk = 0 without) */
  int nblk, nq_rods;    /* blocks, their q offset (after the rods) */
  int *bv0;             /* (nblk) offsets of the blocks in δ */
  cosrod_statics_blocks blk; /* the definition, arrays owned (copies) */
  const struct cosrod_rod_data **bdata; /* (nparts) the parts' data for the residual callback */
  double *rb, *sb;      /* (6 nblk + nmult), (2 nblk + nmult) block rows and scales */
  int mv0, mplace;      /* multipliers (blk.nmult): offset in δ, rod place after whose blocks they go */
  double blen, blim;    /* blocks: FD / weight length of δx (smallest Δs of the attached rods), trust region of δx (m) */
  int dead_red;         /* 1: dead loads but for the multipliers (their reduced stiffness is symmetric) */
  struct statics_bred *bred; /* buckling with multipliers: the reduction (statics_buckling_kkt.c), else NULL */
  struct statics_kcouple *kcpl; /* Kirchhoff ends sharing a block (statics_kirchhoff_couple.c), NULL without */
  /* loads coupling distant vertices (statics_coupling.c), NULL without */
  void (*cpl_pre)(void *user, const cosrod_statics *s, double t, const double *q);
  void (*cpl_jac)(void *user, cosrod_statics *s, cosrod_band *J);
  void *cpl_user;
  struct statics_sparse *sp; /* sparse tangent of the coupling (statics_sparse.c), NULL: banded s->J */
};

/* Sparse tangent (statics_sparse.c): the band s->J plus out-of-band triplets. */
typedef struct statics_sparse statics_sparse;
statics_sparse *statics_sparse_create(int n);
void statics_sparse_free(statics_sparse *p);
void statics_sparse_reset(statics_sparse *p);
void statics_sparse_add(statics_sparse *p, int i, int j, double v);
cosrod_status statics_sparse_factor(statics_sparse *p, const cosrod_band *J);
void statics_sparse_solve(statics_sparse *p, double *b);
/* 1 if det K < 0 (K = -J, factored), 0 if > 0, -1 if unknown (zero pivot). */
int statics_sparse_det_negative(statics_sparse *p);
void statics_sparse_mark_coupled(statics_sparse *p);
int statics_sparse_is_coupled(const statics_sparse *p, int j);
long statics_sparse_nnz(const statics_sparse *p);
/* Factor the tangent s->J (band LU, or with s->sp its KLU LU with the
 * coupling triplets) and solve with it (statics_coupling.c). */
cosrod_status statics_factor(cosrod_statics *s);
void statics_solve(cosrod_statics *s, double *b);

/* Residual at pseudo-time t with load factor mu (1 = full loads). */
cosrod_status statics_residual(cosrod_statics *s, double t, double mu, const double *q, double *r,
                               double *scaled);
/* J = dr/dδ at (t, mu, q). */
cosrod_status statics_jacobian(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J);

/* dr/dδ with a relative diagonal shift for rigid null modes: the matrix the
 * Newton and predictor solves factor. */
cosrod_status statics_solve_jacobian(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J);

/* The `count` lowest eigenpairs of the symmetric band matrix A (unfactored):
 * w (count) ascending, z (n x count) orthonormal columns (modes_eig.c).
 * ERR_CONVERGENCE if the subspace iteration does not converge. */
cosrod_status statics_band_eig_lowest(const cosrod_band *A, int count, double *w, double *z);
/* The same on the null space of constraints: A holds the symmetric KKT
 * band [A Bᵀ; B 0], the multiplier rows / columns at cidx (nc); z has 0 at
 * them.  At most n - 2 nc pairs (the dimension of null B); ERR_SINGULAR if B is rank deficient (or the
 * shifted KKT matrix singular). */
cosrod_status statics_band_eig_lowest_kkt(const cosrod_band *A, int nc, const int *cidx, int count, double *w,
                                          double *z);

/* A = D sym(K) D with K = -J and D = diag(m)^(-1/2), both triangles of the
 * symmetric band A (half bandwidth kd): the mass-scaled stiffness of the
 * modal eigenproblem (modes.c, modes_system.c). */
void statics_scaled_stiffness(const cosrod_band *J, const double *m, int nv, int kd, cosrod_band *A);

/* Newton correction of q (in place) to the equilibrium at (t, μ). */
cosrod_status statics_correct_at(cosrod_statics *s, double t, double mu, double *q);
/* modes_kirchhoff.c: the lowest `count` eigenpairs of a Kirchhoff rod on the
 * tangent space of its constraints, from the chart Jacobian J = -K (band,
 * statics_jacobian) and the lumped masses m (nv): eigenvalues ω² into w
 * (count), mass-scaled eigenvectors u = M^{1/2} φ into z (nv x count), as
 * LAPACK's dsbevx in modes.c.  ERR_SINGULAR if G is rank deficient. */
cosrod_status statics_modes_kirchhoff(const cosrod_rod *rod, double t, const double *q, const cosrod_band *J,
                                      const double *m, int count, double *w, double *z);

/* Orthonormal basis of the null space of G (nc x n, full row rank): A
 * (n x n, column-major) holds Gᵀ in its first nc columns on entry, Q of
 * the QR factorisation of Gᵀ on return, whose columns nc .. n-1 span
 * null G (modes_kirchhoff.c).  ERR_SINGULAR if G is rank deficient
 * (|R_ii| <= 1e-10 max |R_jj|). */
cosrod_status statics_null_basis(int n, int nc, double *A);

/* ---- buckling with multipliers (statics_buckling_kkt.c) -------------------
 * The stiffness on the tangent space of the constraints: with F = -J in
 * spatial rotation coordinates (dense, nv x nv) and G = F_uλᵀ = -F_λu (the
 * multiplier rows), Z0 an orthonormal basis of null G at the unloaded
 * equilibrium and Z = (I - Gᵀ(GGᵀ)⁻¹G) Z0 its projection onto null G at
 * another state, the reduced K_r = Zᵀ F_uu Z (nr x nr, nr = nv - 2 nmult). */
typedef struct statics_bred {
  int nv, nm, nr;
  int *cidx;     /* (nm) the multipliers' indices in δ (statics_mult_indices) */
  char *isc;     /* (nv) 1 at a multiplier */
  double *Z0;    /* (nv x nr) 0 at the multiplier rows */
  double *F;     /* (nv x nv) scratch: the full matrix */
  double *G, *C; /* (nm x nv), (nm x nr) */
  double *L;     /* (nm x nm) */
  double *Z, *FZ; /* (nv x nr) */
  double *e;     /* (nv) an expanded vector */
} statics_bred;
/* s->bred for the multipliers of s from F at the unloaded equilibrium. */
cosrod_status statics_bred_create(cosrod_statics *s, const double *F);
void statics_bred_free(cosrod_statics *s);

/* ---- the buckling pencil (statics_buckling.c), shared with the
 * non-conservative case (statics_buckling_nonsym.c) ---------------------- */
#define BUCKLING_EPS 1e-4   /* load factor of the first estimate */
#define BUCKLING_REL 0.02   /* second pass: ε relative to the smallest |λ| */
#define BUCKLING_NULL 1e-13 /* rigid null modes: D_i <= this max D */
/* Size of the pencil's matrices: nv, or the reduced nr with multipliers. */
int statics_buckling_n(const cosrod_statics *s);
/* The pencil's K = -J (sym: its symmetric part) at q, dense (n x n, n =
 * statics_buckling_n), in spatial rotation coordinates. */
void statics_buckling_pencil_K(cosrod_statics *s, const double *q, const cosrod_band *J, double *K, int sym);
/* C = S Vᵀ B V S (m x m) on the m columns V (n x m), S = diag(d^{-1/2});
 * W (n x m) scratch; sym: B symmetric. */
void statics_buckling_project(int n, int m, const double *V, const double *d, const double *B, double *W,
                              double *C, int sym);
/* A mode φ (n) into out (nv): unit length, largest entry positive, segment
 * rotations back to material ones at q0. */
void statics_buckling_store_mode(const cosrod_statics *s, const double *q0, const double *phi, double *out);
/* The equilibrium at μ_to from q (at μ_from) in up to 64 sub-steps; qw (nq) scratch. */
cosrod_status statics_buckling_reach(cosrod_statics *s, double t, double mu_from, double mu_to, double *q,
                                     double *qw);
/* Critical factors under non-conservative loads (statics_buckling_nonsym.c)
 * on the m deflated columns Vm, dm of K_0; B, W, X (n x n) scratch; the
 * number found into *nfound. */
cosrod_status statics_buckling_nonsym(cosrod_statics *s, double t, const double *q0, int count,
                                      double *lambda, double *minimal, int m, const double *Vm,
                                      const double *dm, double *B, double *W, double *X, int *nfound);
/* K (nr x nr) from the full F (s->bred->F may be passed); sym: symmetrised. */
cosrod_status statics_bred_reduce(cosrod_statics *s, const double *F, double *K, int sym);
/* s->bred->e = Z0 y (nv) for y (nr). */
void statics_bred_expand(const cosrod_statics *s, const double *y);

/* ---- Kirchhoff rods (statics_kirchhoff.c) ----------------------------------
 * The part's block of δ interleaves the scaled multipliers λ̂_k (m per
 * segment) after the segment rotation δθ_k; the residual gets the
 * constraint forces -Gᵀλ and the rows σ_k g_k, the stiffness the KKT
 * blocks.  Cosserat rods: init sets ov/os to the rod's layout, the rest is
 * not called. */
/* After part_init: layout, workspace, the force-only model copy; grows *ml,
 * *mu to the KKT bandwidth. */
cosrod_status statics_kirchhoff_init(statics_part *p, int *ml, int *mu);
/* Size of the part's block of δ: nv_ns (+ m N for a Kirchhoff rod). */
int statics_kirchhoff_block(const statics_part *p);
void statics_kirchhoff_free(statics_part *p);
/* FD steps (1: the multiplier columns are set analytically) and weights (0). */
void statics_kirchhoff_weights(const statics_part *p, double *hcol, double *wnorm);
/* prepare: with the unconstrained residual in r (the part's block, after
 * the blocks' rows): the geometry and the least-squares multipliers (unless
 * frozen).  residual (part_finish): r -= Gᵀλ, constraint rows; updates the
 * scales and maxima; *gsc max |g_k|/Δs_k, *gex its excess. */
cosrod_status statics_kirchhoff_prepare(statics_part *p, const double *r);
/* After every part's prepare: the multipliers of the Kirchhoff ends that
 * share a block, whose force row couples them (Woodbury on the parts'
 * factored S); init after the parts and blocks (statics.c), free. */
cosrod_status statics_kirchhoff_couple(cosrod_statics *s);
cosrod_status statics_kirchhoff_couple_init(cosrod_statics *s);
void statics_kirchhoff_couple_free(cosrod_statics *s);
cosrod_status statics_kirchhoff_residual(statics_part *p, double tol, double *r, double *SF, double *SM,
                                         double *Fmax, double *rf, double *rm, double *gsc, double *gex);
/* J = dr/dδ of a system with Kirchhoff rods (statics_jacobian dispatches). */
cosrod_status statics_kirchhoff_jacobian(cosrod_statics *s, double t, double mu, const double *q,
                                         cosrod_band *J);
/* Stability monitor of a KKT matrix J (unfactored): turns the lower band
 * w (ld, the symmetric part of -J, negative_eigenvalues) into
 * H + ρ (σG)ᵀ(σG) with identity multiplier rows, whose inertia is that of
 * the reduced stiffness ZᵀHZ plus m N positive eigenvalues for ρ large. */
void statics_kirchhoff_penalise(const cosrod_statics *s, const cosrod_band *J, double *w, int ld);
/* The constraint force on supported end vertices added to R (2 x 6). */
void statics_kirchhoff_reactions(const statics_part *p, double R[12]);
/* The constraint force -(Gᵀλ) of the last residual on end vertex e
 * (spatial: +Rλ̄_0 at the start, -Rλ̄_{N-1} at the end; zero for a Cosserat
 * rod): what a rigid block carrying that end takes besides the rod's
 * generalised vertex force. */
void statics_kirchhoff_end_force(const statics_part *p, int e, double f[3]);
/* The least-squares multipliers of the next residual take end e's vertex
 * as a point of mass m with the free (constraint-less) force row fr (3,
 * spatial; kept by pointer): the force row of a rigid block carrying that
 * end alone among Kirchhoff ends.  fr = NULL: the end is not a row. */
void statics_kirchhoff_end_row(statics_part *p, int e, const double *fr, double m);
/* Modes of a one-rod solver s holding a Kirchhoff rod, s->J = statics_jacobian
 * at (t, q): the rod block (Hessian of the Lagrangian, with the multipliers'
 * geometric stiffness) to statics_modes_kirchhoff. */
cosrod_status statics_kirchhoff_modes(cosrod_statics *s, double t, const double *q, const double *m, int count,
                                      double *w, double *z);
/* The multiplier unknowns of s in δ: the Kirchhoff rods' λ̂ (interleaved,
 * rod by rod) and the blocks' nmult rows; their indices into idx (or NULL),
 * returns their number. */
int statics_mult_indices(const cosrod_statics *s, int *idx);
/* The analytic stiffness and its FD twin of statics_stiffness.c. */
cosrod_status statics_stiffness_analytic(cosrod_statics *s, double t, const double *q, cosrod_band *J);
cosrod_status statics_stiffness_fd(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J);
/* statics_path.c, for the arc-length solver: the trust region of a step δ
 * (nv, in place), chart coordinates of qa relative to q, the stiffness at
 * (t, μ, q) factored into s->J with its stability index *neg (see
 * factor_at; -1 singular), and the Newton corrector at fixed (t, μ). */
void statics_limit_step(const cosrod_statics *s, double *dv);
void statics_chart_diff(const cosrod_statics *s, const double *q, const double *qa, double *delta);
cosrod_status statics_factor_index(cosrod_statics *s, double t, double mu, const double *q, int *neg);
cosrod_status statics_equilibrium_mu(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res);

/* statics_ptc.c: pseudo-transient continuation to the equilibrium at
 * (t, μ) from q (in place): the fallback of the continuation for a
 * mechanism that must swing far to a stable equilibrium.  OK with *iters and
 * *res as the corrector; q undefined on failure. */
cosrod_status statics_ptc(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res);
/* The same from an unstable equilibrium q, disturbed first: downhill to an
 * equilibrium (the out-of-balance force grows along much of the fall). */
cosrod_status statics_ptc_descend(cosrod_statics *s, double t, double mu, double *q, int *iters, double *res);
/* The lumped diagonal mass of the system's minimal coordinates (nv): the
 * rods' ρAδs_n per vertex coordinate and ρΔs (I1, I2, J) per segment, the
 * blocks' (m, m, m, J1, J2, J3); 0 on multiplier rows (modes, PTC). */
void statics_lumped_mass(const cosrod_statics *s, double *m);

/* ---- rigid blocks (statics_blocks.c) --------------------------------------
 * Copy of the definition and scratch (before the rods are placed); offsets of
 * the blocks placed before rod r (r = nparts: the rest) from v, returning
 * the next offset; bandwidth widening (after the rods are placed); weights
 * and FD steps; poses before and rows after the rods' evaluation (scaled
 * norm and convergence excess maxima updated); the chart operations. */
cosrod_status statics_blocks_init(cosrod_statics *s, const cosrod_statics_blocks *blk);
double statics_blocks_mult_work(const cosrod_statics *s, const double *dv, const double *r);
int statics_blocks_place(cosrod_statics *s, int r, int v);
void statics_blocks_band(cosrod_statics *s);
void statics_blocks_weights(cosrod_statics *s);
cosrod_status statics_blocks_pose(cosrod_statics *s, double t, const double *q);
cosrod_status statics_blocks_eval(cosrod_statics *s, double t, double mu, const double *q);
cosrod_status statics_blocks_residual(cosrod_statics *s, const double *q, double *r, double *sc, double *ex);
void statics_blocks_apply(const cosrod_statics *s, double *q, const double *delta);
void statics_blocks_chart_diff(const cosrod_statics *s, const double *q, const double *qa, double *delta);
void statics_blocks_limit(const cosrod_statics *s, const double *dv, double *c);
void statics_blocks_free(cosrod_statics *s);
/* statics_solve_jacobian: a block pivot without stiffness of its own (a
 * body pinned to a rod end rotates freely about the pin while gravity is
 * off) gets the shift 1e-12 of the largest stiffness of its kind (force /
 * torque rows) in the system, as the relative shift of the rods' null modes. */
void statics_blocks_shift(cosrod_statics *s, cosrod_band *J);

#endif /* COSROD_STATICS_INTERNAL_H */
