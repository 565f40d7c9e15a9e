// SPDX-License-Identifier: Apache-2.0
/* The discrete Cosserat rod (module rod): [LLA] §3, [LA] §2–4, [L] §4, [manual: modelling guide, theory].
 *
 * A staggered grid s_0 < s_1 < ... < s_N (material arc length, m) carries the
 * centroids x_n (vertices, n = 0..N) and the unit quaternions p_{k+1/2}
 * (segments, k = 0..N-1; "segment k" below).  Strains Γ live on segments,
 * curvatures K on vertices ([LLA] eqs. 23, 26).  Forces are the exact
 * gradients of the discrete potential and dissipation functions (variational
 * discretisation, any grid).
 *
 * Model / data split (MuJoCo style): a cosrod_rod is built once from a
 * cosrod_rod_def and is constant afterwards; every evaluation writes into a
 * mutable cosrod_rod_data (workspace + results).  Nothing is allocated after
 * creation; all evaluations cost O(N).
 *
 * State layout ([manual: modelling guide]): q is interleaved (x_0, p_{1/2}, x_1, ..., p_{N-1/2},
 * x_N); a vertex fixed by a boundary condition is removed, a vertex that slides
 * along an axis keeps one coordinate ξ (x = x_presc(t) + ξ a).  Per formulation
 *   ABSOLUTE   y = (q, v),    v = dq/dt                         size nq + nq
 *   NULLSPACE  y = (q, ν),    ν = (ẋ_n | ξ̇_n, Ω_{k+1/2})        size nq + nv
 *              (ν interleaved like q, 3 (or 1) per vertex, 3 per segment)
 *   DAE        y = (q, v, λ), λ = one multiplier per segment     size 2 nq + N
 *              (Kirchhoff rods: + m multipliers λ_K per segment, size 2 nq + (1 + m) N)
 * Index maps (cosrod_rod_qindex_*, cosrod_rod_vindex_*) say where a vertex or
 * segment lives.  Units: SI; quaternions scalar first, Hamilton product. */
#ifndef COSROD_ROD_H
#define COSROD_ROD_H

#include "cosrod/export.h"
#include "cosrod/profile.h"

#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cosrod_band;

/* ---- definition ---------------------------------------------------------- */

/* Discrete curvature variants ([LLA] eq. 26 and appendix). */
typedef enum cosrod_curvature {
  COSROD_CURV_SINE2 = 0, /* (i)   ζ = 1                     ~ 2 sin(φ/2) */
  COSROD_CURV_SINE4,     /* (ii)  ζ = sqrt(2/(1+cos θ))     ~ 4 sin(φ/4) */
  COSROD_CURV_TANGENT2,  /* (iii) ζ = 1/cos θ               ~ 2 tan(φ/2)  (default) */
  COSROD_CURV_TANGENT4,  /* (iv)  ζ = 2/(1+cos θ)           ~ 4 tan(φ/4) */
  COSROD_CURV_ANGLE      /* (v)   ζ = θ/sin θ               ~ φ */
} cosrod_curvature;

/* Name ("sine-2", ...) and parsing; parse returns -1 for an unknown name. */
COSROD_API const char *cosrod_curvature_name(cosrod_curvature c);
COSROD_API int cosrod_curvature_parse(const char *name);

typedef enum cosrod_section_shape {
  COSROD_SECTION_CIRCLE = 0, /* radius */
  COSROD_SECTION_RECTANGLE,  /* width (along d1) x height (along d2), optional torsion constant */
  COSROD_SECTION_CUSTOM      /* area, I1, I2, J given */
} cosrod_section_shape;

typedef enum cosrod_damping_kind {
  COSROD_DAMPING_NONE = 0,
  COSROD_DAMPING_KELVIN_VOIGT, /* retardation times τ_S, τ_B ([LLT] eq. 4, [manual: theory]) */
  COSROD_DAMPING_COEFFICIENTS  /* V_Γ, V_K given directly (F = ... + V_Γ Γ̇, M = ... + V_K K̇) */
} cosrod_damping_kind;

typedef enum cosrod_shape_kind {
  COSROD_SHAPE_STRAIGHT = 0, /* along direction */
  COSROD_SHAPE_ARC,          /* radius, angle: bends towards normal (K = (0, 1/R, 0)) */
  COSROD_SHAPE_HELIX,        /* radius, pitch, turns: d1 = normal points to the axis */
  COSROD_SHAPE_POLYLINE      /* points; frames by parallel transport of normal */
} cosrod_shape_kind;

/* Rod model ([LA] §2–4, [LLA] Remark 3.4, [manual: modelling guide]): the Kirchhoff models are
 * the Cosserat rod with the shear (and extension) strains of every segment
 * constrained, Δs (Γ_i - Γ0_i) = 0 for i in {1, 2} (extensible) or
 * {1, 2, 3} (inextensible); their multipliers are the constrained components
 * of the stress resultant F (N).  See the Kirchhoff section below. */
typedef enum cosrod_rod_model {
  COSROD_MODEL_COSSERAT = 0,
  COSROD_MODEL_KIRCHHOFF_EXTENSIBLE,  /* Γ1 = Γ2 = 0 (no shear) */
  COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE /* Γ = Γ0 (no shear, no extension) */
} cosrod_rod_model;

typedef enum cosrod_reference_kind {
  COSROD_REFERENCE_INITIAL = 0, /* K0, Γ0 from the discrete initial shape (stress-free) */
  COSROD_REFERENCE_STRAIGHT     /* K0 = 0, Γ0 = 0 */
} cosrod_reference_kind;

typedef enum cosrod_end_kind {
  COSROD_END_FREE = 0,
  COSROD_END_PINNED,    /* centroid fixed or following position keyframes (or sliding), rotation free */
  COSROD_END_CLAMPED,   /* centroid and frame fixed (ghost quaternion, [LLA] Remark 3.1) */
  COSROD_END_PRESCRIBED /* like clamped, centroid/frame follow keyframes */
} cosrod_end_kind;

/* One rod end.  Keyframe arrays are owned by the caller and copied at
 * creation.  Without keyframes a pinned/clamped/prescribed end keeps its
 * initial centroid / frame (from the initial shape). */
typedef struct cosrod_rod_end {
  cosrod_end_kind kind;
  int slides; /* 1: translation along slide_axis released (a state coordinate ξ) */
  double slide_axis[3];
  int npos;          /* prescribed / pinned centroid keyframes, linear interpolation */
  const double *pos; /* (npos x 4) rows (t, x, y, z), increasing t */
  int nrot;          /* prescribed orientation keyframes, slerp (no shortest-arc flip) */
  const double *rot; /* (nrot x 5) rows (t, q0, q1, q2, q3), unit quaternions */
  int cubic;         /* 1: C¹ cubic keyframe interpolation instead of linear / slerp: Catmull–Rom
                        Hermite positions, normalised Hermite quaternions, zero velocity at the
                        first and last keyframe (src/rod/rod_keyframes.c) */
} cosrod_rod_end;

typedef enum cosrod_load_kind {
  COSROD_LOAD_FORCE = 0,  /* point force (N) at a vertex */
  COSROD_LOAD_MOMENT,     /* point moment (N m) at a vertex (acts on the adjacent segment(s)) */
  COSROD_LOAD_DISTRIBUTED /* force per length (N/m) along the whole rod */
} cosrod_load_kind;

typedef enum cosrod_load_frame {
  COSROD_FRAME_SPATIAL = 0, /* dead load, components in (e1, e2, e3) */
  COSROD_FRAME_MATERIAL     /* follower load, components in (d1, d2, d3) */
} cosrod_load_frame;

/* A load.  vertex: 0..N, or -1 for the end vertex N (ignored for distributed).
 * A material point force uses the frame of segment n-1/2 (segment 0 at n = 0);
 * a point moment at an interior vertex is split half/half between the two
 * adjacent segments, at an end vertex it acts on the end segment. */
typedef struct cosrod_rod_load {
  cosrod_load_kind kind;
  cosrod_load_frame frame;
  int vertex;
  double value[3];
  cosrod_profile profile;
  double t0, t1;
} cosrod_rod_load;

/* User load callback: ADD spatial forces f ((N+1) x 3, N) on the vertices and
 * material moments m (N x 3, N m) on the segments at time t, given x
 * ((N+1) x 3), xdot ((N+1) x 3), p (N x 4) and Omega (N x 3).  Returns 0 ok,
 * > 0 recoverable, < 0 fatal (SUNDIALS convention). */
typedef int (*cosrod_rod_load_fn)(void *user, double t, int N, const double *x, const double *xdot,
                                  const double *p, const double *Omega, double *f, double *m);

typedef struct cosrod_rod_def {
  /* grid */
  int nseg;           /* N >= 1 (ignored when grid != NULL) */
  double length;      /* stress-free length L (m); <= 0: the length of the shape */
  const double *grid; /* optional (N+1) increasing material coordinates s_0..s_N; N = ngrid - 1 */
  int ngrid;

  /* material and section */
  double E, G, poisson; /* Pa; G <= 0 means G = E / (2 (1 + poisson)) */
  double density;       /* kg/m^3 */
  cosrod_section_shape section;
  double radius, width, height, torsion_constant; /* m, m, m, m^4 (0 = I1 + I2) */
  double area, I1, I2, J;                         /* custom section (m^2, m^4) */
  double shear_correction[2];                     /* κ1, κ2 (default 1, 1) */
  /* Overrides (used when > 0): effective stiffnesses (N, N m^2) and inertias
   * (kg/m, kg m). */
  double EA, GA1, GA2, EI1, EI2, GJ;
  double rhoA, rhoI1, rhoI2, rhoJ;

  cosrod_curvature curvature;

  /* damping */
  cosrod_damping_kind damping;
  double tau_shear, tau_bulk;          /* s (Kelvin–Voigt) */
  double visc_gamma[3], visc_kappa[3]; /* V_Γ (N s), V_K (N m^2 s), viscous convention (V = 2c of [LLA]) */
  /* external (medium) damping, with any of the above: force -c_t ẋ per
   * length on the centreline (N s/m^2), material moment -c_r Ω per length on
   * the cross-sections (N s); rod_medium.c */
  double medium_translational, medium_rotational;

  /* initial shape (the geometric shape has its own arc length, mapped
   * linearly onto [s_0, s_N]) */
  cosrod_shape_kind shape;
  double start[3];     /* x at s_0 */
  double direction[3]; /* d3 at s_0 (default e3) */
  double normal[3];    /* d1 at s_0 (default e1; orthogonalised) */
  double shape_radius; /* arc / helix radius (m) */
  double arc_angle;    /* arc angle (rad) */
  double pitch;        /* helix rise per turn (m) */
  double turns;        /* helix turns */
  int npoints;         /* polyline: npoints points (npoints x 3); N+1 = vertices exactly */
  const double *points;
  double velocity[3]; /* initial uniform velocity (m/s) */
  double omega[3];    /* initial uniform material angular velocity (1/s) */

  cosrod_reference_kind reference;

  cosrod_rod_end ends[2]; /* [0] at s_0, [1] at s_N */

  /* loads */
  double gravity[3]; /* m/s^2 */
  int nloads;
  const cosrod_rod_load *loads;
  cosrod_rod_load_fn load_fn;
  void *load_user;

  cosrod_rod_model model; /* default COSSERAT */
} cosrod_rod_def;

/* Defaults: N = 10, L = 1, circle r = 5e-3, rubber (E = 5e6, ν = 0.5,
 * ρ = 1100), κ = (1, 1), tangent-2, no damping, straight along e3 with
 * d1 = e1 from the origin, reference initial, both ends free, no loads. */
COSROD_API cosrod_rod_def cosrod_rod_def_default(void);

/* ---- model --------------------------------------------------------------- */

typedef struct cosrod_rod cosrod_rod;

typedef enum cosrod_rod_form {
  COSROD_FORM_ABSOLUTE = 0, /* index-0 ODE in (q, v), [LLA] eqs. 28-29 */
  COSROD_FORM_NULLSPACE,    /* ODE in (q, ν), ṗ = ½ p Ω, [L] Lemma 4.2 */
  COSROD_FORM_DAE           /* index-1 residual in (q, v, λ), [LA] eq. 14 */
} cosrod_rod_form;

/* Build a rod; NULL and *status set on invalid input or no memory.  status may be NULL. */
COSROD_API cosrod_rod *cosrod_rod_create(const cosrod_rod_def *def, cosrod_status *status);
COSROD_API void cosrod_rod_free(cosrod_rod *rod);
/* Replace the user load callback of a created rod (fn NULL: none); as
 * cosrod_rod_def.load_fn / load_user (rod_hooks.c). */
COSROD_API void cosrod_rod_set_load_fn(cosrod_rod *rod, cosrod_rod_load_fn fn, void *user);

COSROD_API int cosrod_rod_nseg(const cosrod_rod *rod);                     /* N */
COSROD_API int cosrod_rod_nq(const cosrod_rod *rod);                       /* size of q */
COSROD_API int cosrod_rod_nv(const cosrod_rod *rod, cosrod_rod_form form); /* size of v or ν */
COSROD_API int cosrod_rod_ny(const cosrod_rod *rod, cosrod_rod_form form); /* size of y */
/* Offset in q of vertex n (0..N) / segment k (0..N-1); -1 if the vertex is
 * removed.  ndof: 0 removed, 1 sliding, 3 free. */
COSROD_API int cosrod_rod_qindex_vertex(const cosrod_rod *rod, int n);
COSROD_API int cosrod_rod_qindex_segment(const cosrod_rod *rod, int k);
COSROD_API int cosrod_rod_vertex_ndof(const cosrod_rod *rod, int n);
/* Offset of vertex n / segment k in the velocity part (v or ν; relative to
 * the start of that part, i.e. add nq for y). */
COSROD_API int cosrod_rod_vindex_vertex(const cosrod_rod *rod, cosrod_rod_form form, int n);
COSROD_API int cosrod_rod_vindex_segment(const cosrod_rod *rod, cosrod_rod_form form, int k);
/* Material grid s (N+1), segment lengths Δs (N), trapezoidal weights δs (N+1). */
COSROD_API const double *cosrod_rod_grid(const cosrod_rod *rod);
COSROD_API const double *cosrod_rod_seg_length(const cosrod_rod *rod);
COSROD_API const double *cosrod_rod_vertex_weight(const cosrod_rod *rod);
/* (N x 3) reduced rotational inertias Ī_k = ρΔs_k (I1, I2, J) of the segments (kg m²). */
COSROD_API const double *cosrod_rod_segment_inertia(const cosrod_rod *rod);
/* Effective constants: C_Γ = (κ1GA, κ2GA, EA), C_K = (EI1, EI2, GJ),
 * V_Γ, V_K, rhoA, rho I = (ρI1, ρI2, ρJ); any pointer may be NULL. */
COSROD_API void cosrod_rod_constants(const cosrod_rod *rod, double CG[3], double CK[3], double VG[3], double VK[3],
                                     double *rhoA, double rhoI[3]);
COSROD_API cosrod_curvature cosrod_rod_curvature(const cosrod_rod *rod);
/* Reference strains Γ0 (N x 3) and curvatures K0 ((N+1) x 3; rows 0, N used only at clamped ends). */
COSROD_API const double *cosrod_rod_gamma0(const cosrod_rod *rod);
COSROD_API const double *cosrod_rod_kappa0(const cosrod_rod *rod);

/* Initial state y (ny) of the formulation: the initial shape with the def's
 * initial velocity / angular velocity; λ = 0 for DAE (use cosrod_rod_lambda). */
COSROD_API cosrod_status cosrod_rod_initial_state(const cosrod_rod *rod, cosrod_rod_form form, double *y);
/* Pack full vertex positions x ((N+1) x 3), quaternions p (N x 4), and
 * optionally vertex velocities xdot ((N+1) x 3) and material angular velocities
 * Omega (N x 3) (NULL = 0) into y.  Removed vertices are ignored; a sliding
 * vertex keeps the component along its axis relative to the prescribed point. */
COSROD_API cosrod_status cosrod_rod_pack(const cosrod_rod *rod, cosrod_rod_form form, double t, const double *x,
                                         const double *p, const double *xdot, const double *Omega, double *y);
/* Unpack y into full x ((N+1) x 3) and p (N x 4), including prescribed
 * values at time t; xdot ((N+1) x 3) and Omega (N x 3) may be NULL. */
COSROD_API cosrod_status cosrod_rod_unpack(const cosrod_rod *rod, cosrod_rod_form form, double t, const double *y,
                                           double *x, double *p, double *xdot, double *Omega);
/* Projection onto the constraints ([LA] eq. 27): p <- p/|p| and, for
 * ABSOLUTE and DAE, ṗ <- ṗ - <p, ṗ> p.  In place on y. */
COSROD_API cosrod_status cosrod_rod_project(const cosrod_rod *rod, cosrod_rod_form form, double *y);
/* Prescribed end data at time t: centroid x, ẋ, ẍ (3) and frame p, ṗ, p̈ (4)
 * of end e (0 = start, 1 = end); any output may be NULL. */
COSROD_API cosrod_status cosrod_rod_end_motion(const cosrod_rod *rod, int e, double t, double x[3], double xd[3],
                                               double xdd[3], double p[4], double pd[4], double pdd[4]);

/* ---- data ---------------------------------------------------------------- */

/* Energies (J) and powers (W) of the last evaluation. */
typedef struct cosrod_rod_energy {
  double kinetic_trans, kinetic_rot; /* ½ Σ m_n |ẋ_n|²; ½ Σ ρΔs ṗᵀμ(p)ṗ (NULLSPACE: ½ Σ Ωᵀ Ī Ω) */
  double shear_ext, bend_tors;       /* elastic, [LLA] eqs. 23, 24 (with Γ0, K0) */
  double gravity;                    /* -Σ m_n <g, x_n> */
  double dissipation_rate;           /* Σ Δs Γ̇ᵀV_ΓΓ̇ + Σ w K̇ᵀV_K K̇  (>= 0) */
  double external_power;             /* power of loads (not gravity) and of moving prescribed ends */
} cosrod_rod_energy;

/* Mutable workspace and results; arrays are (rows x cols) row-major. */
typedef struct cosrod_rod_data {
  int N;
  double *x, *xd;             /* (N+1) x 3 positions, velocities */
  double *p, *pd;             /* N x 4 quaternions and their time derivatives */
  double *Omega;              /* N x 3 material angular velocities Im(2 p̄ ṗ) */
  double *Gamma, *Gammad, *F; /* N x 3 strains, strain rates, stress resultants (material) */
  double *K, *Kd, *M; /* (N+1) x 3 curvatures, rates, couples (material; rows 0, N zero at free ends) */
  double *fx;         /* (N+1) x 3 total generalised force on vertices (internal + loads + gravity) */
  double *fp;         /* N x 4 total generalised quaternion force on segments (without inertia terms) */
  double *fload;      /* (N+1) x 3 spatial load forces (loads + callback, without gravity) */
  double *mload;      /* N x 3 material load moments on segments (loads + callback) */
  double *xdd;        /* (N+1) x 3 vertex accelerations of the last ODE RHS (incl. prescribed) */
  double *lambda;     /* N Lagrange multipliers of the last RHS */
  cosrod_rod_energy energy;
  double baumgarte_omega, baumgarte_r; /* ABSOLUTE only; 0 = off */
  long nrhs;                           /* number of evaluations */
  int nonfinite;                       /* count of evaluations that produced NaN/Inf */
  /* internal */
  double fe[2][4]; /* generalised forces on the prescribed end frames */
  double pe[2][4], ped[2][4], pedd[2][4], xe[2][3], xed[2][3], xedd[2][3];
  double *work; /* scratch for the FD Jacobians */
  struct rod_kirchhoff_work *kw; /* Kirchhoff constraint workspace (rod_kirchhoff.c); NULL for Cosserat */
  double *jacw; /* workspace of the analytic Jacobians (rod_jac.c) */
  int nthreads;  /* threads of the evaluations (cosrod_rod_data_set_threads; default 1) */
  double *parw;  /* per-segment / per-vertex kernel results of the force stage (rod_eval_stage.c) */
  double *fcb;   /* (N+1) x 3 the load callback's forces alone (a reaction callback: rod_hooks.h) */
} cosrod_rod_data;

/* Workspace and results of one evaluation thread of rod (NULL when out of
 * memory, status and cosrod_last_error() as in status.h); _free releases it. */
COSROD_API cosrod_rod_data *cosrod_rod_data_create(const cosrod_rod *rod, cosrod_status *status);
COSROD_API void cosrod_rod_data_free(cosrod_rod_data *d);

/* Threads for the evaluations through d (force stage and accelerations run
 * over contiguous segment blocks for rods of at least
 * cosrod_rod_parallel_min_segments() segments): nthreads >= 1, or 0 for
 * OpenMP's default (OMP_NUM_THREADS, else the number of cores).  Results are
 * bit-identical for every thread count.  Without OpenMP the count is 1.
 * COSROD_ERR_INVALID for d == NULL or nthreads < 0. */
COSROD_API cosrod_status cosrod_rod_data_set_threads(cosrod_rod_data *d, int nthreads);

/* The smallest number of segments evaluated in parallel (2000; below it the
 * evaluations use one thread whatever cosrod_rod_data_set_threads said). */
COSROD_API int cosrod_rod_parallel_min_segments(void);

/* ---- evaluation ---------------------------------------------------------- */

/* Kinematics, strains, curvatures, F, M, all generalised forces and the
 * energies at (t, y); the common stage of every formulation. */
COSROD_API cosrod_status cosrod_rod_eval(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                         const double *y);

/* ABSOLUTE right-hand side ydot = (v, a), y, ydot: (2 nq).  [LLA] eq. 29 via
 * the explicit inverse of the mass-constraint block (eq. 28), with optional
 * Baumgarte terms (d->baumgarte_omega, d->baumgarte_r).  Returns 0, or > 0 on
 * NaN/Inf (recoverable). */
COSROD_API int cosrod_rod_rhs_absolute(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                                       double *ydot);
/* NULLSPACE right-hand side ydot = (q̇, ν̇), (nq + nv):  ẋ, ṗ = ½ p Ω,
 * m ẍ = f, ρΔs I Ω̇ = ½ Im(p̄ ψ) - Ω x ρΔs I Ω. */
COSROD_API int cosrod_rod_rhs_nullspace(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                                        double *ydot);
/* DAE residual ([LA] eq. 14), y = (q, v, λ), yp its derivative (λ' unused):
 * r = (q' - v,  M v' + Gᵀλ - F(q, v, t),  <p, p̈> + |ṗ|²), size 2 nq + N. */
COSROD_API int cosrod_rod_res_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y, const double *yp,
                                  double *res);
/* Lagrange multipliers λ (N) of the quaternion constraints g = (|p|² - 1)/2 at
 * (t, y) by the post-processing formula λ = <p, F_p>/|p|² (F_p including the
 * gyroscopic terms), for any formulation (for DAE the λ of y is ignored). */
COSROD_API cosrod_status cosrod_rod_lambda(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                           const double *y, double *lambda);

/* ---- Kirchhoff models (rod_kirchhoff.c) -------------------------------------
 * Constraints per segment k ([LA] §3–4): g_k = Δs_k E(Γ_k - Γ0_k) with
 * Δs Γ = Im(p̄ Δx p) - Δs e3 and E selecting components {1, 2} (extensible)
 * or {1, 2, 3} (inextensible), next to the quaternion normalisation.  The
 * elastic and viscous shear (and axial) terms are dropped (C_Γ, V_Γ = 0 in
 * those components); the multipliers λ_k are the constrained components of
 * the stress resultant F_k (N, material frame), written into d->F.
 *
 * Index-1 accelerations (ABSOLUTE and NULLSPACE): with A⁺ the inverse mass
 * of the Cosserat formulation (1/m on vertex coordinates; the tangential
 * inverse μ⁺(p) of [LLA] eq. 28 on ṗ, resp. Ī⁻¹ on Ω) and a0 the Cosserat
 * accelerations, the mass-constraint system [M Gᵀ; G 0] is solved through
 * its Schur complement S = G A⁺ Gᵀ (block tridiagonal, m x m blocks: a band
 * matrix of bandwidth 2m - 1, factorised by the banded LU):
 *     S λ = G a0 + ġ-terms (+ Baumgarte),   a = a0 - A⁺ Gᵀ λ.
 * A rank-deficient G ([LA] §4(a), e.g. a straight inextensible rod fixed at
 * both ends) shows as a pivot of S below 1e-10 of its largest diagonal: the
 * right-hand side returns 1 (recoverable: a wild trial stage of an
 * explicit method, NaN included, looks the same), the projection returns
 * ERR_SINGULAR, and cosrod_rod_kirchhoff_singular names the segment and time.  The Jacobians of the constrained right-hand
 * sides are dense (λ couples the whole rod) and not provided analytically:
 * cosrod_rod_jac* return ERR_UNSUPPORTED for Kirchhoff rods, except
 * cosrod_rod_stiffness (the elastic part, exact at a stress-free unloaded
 * state where the multipliers vanish).
 *
 * Index-1 DAE form ([LA] eq. 14, Fig. 4a; cosrod_rod_kirchhoff_rhs_dae): the
 * multipliers are unknowns, y = (q, v, λ (N), λ_K (m N)) (ny = 2 nq + (1 + m) N,
 * the (q, v) part in the ABSOLUTE layout; λ_K of segment k at 2 nq + N + m k),
 * and every equation is local, so the Jacobian is banded in the node ordering
 * (cosrod_rod_order_fill puts λ_K_k after λ_k) and assembled analytically
 * by cosrod_rod_kirchhoff_jac_dae_band, O(N).  cosrod_rod_res_dae returns
 * r = M y' - f of that form, cosrod_rod_lambda (DAE) the consistent (λ, λ_K)
 * ((1 + m) N values), cosrod_rod_kirchhoff_project (DAE) projects (q, v) and
 * then sets the multipliers consistent. */

/* The rod model (Cosserat, extensible or inextensible Kirchhoff). */
COSROD_API cosrod_rod_model cosrod_rod_model_of(const cosrod_rod *rod);
/* Constraints per segment m: 0 (Cosserat), 2 (extensible), 3 (inextensible). */
COSROD_API int cosrod_rod_kirchhoff_m(const cosrod_rod *rod);
/* Max constraint residuals at (t, y) (any layout; DAE: its (q, v) part):
 * positions max_k |g_k| (m) and velocities max_k |ġ_k| (m/s); either
 * pointer may be NULL.  Uses d. */
COSROD_API cosrod_status cosrod_rod_kirchhoff_residual(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form,
                                                       double t, const double *y, double *gpos, double *gvel);
/* Orthogonal projection onto the constraint manifold ([LA] eqs. 26-27):
 * first p <- p/|p| (and ṗ tangential), then positions by simplified Newton
 * with S = G A⁺ Gᵀ kept constant (at most `maxit` iterations, stopping at
 * |g| <= 8 eps Δs), p renormalised after each, then velocities
 * v <- v - A⁺Gᵀ S⁻¹ ġ (exact, one solve).  *moved (may be NULL): the largest
 * position change of a vertex (m).  ERR_SINGULAR at a kinematic
 * singularity; for DAE the (q, v) part as ABSOLUTE, then the multipliers
 * (cosrod_rod_lambda, one right-hand side).  In place on y; no allocation. */
COSROD_API cosrod_status cosrod_rod_kirchhoff_project(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form,
                                                      double t, double *y, int maxit, double *moved);
/* Mass-matrix form M y' = f(t, y) of the Kirchhoff DAE, M = diag(1 (2 nq),
 * 0 ((1 + m) N)), y and f (2 nq + (1 + m) N):
 *     f = (v,  a0 - A⁺Gᵀλ_K,  λ_post - λ,  G (a0 - A⁺Gᵀλ_K) + h)
 * with a0 the ABSOLUTE accelerations of the unconstrained rod (Baumgarte
 * terms of d added to the last rows if set) and h the velocity terms of g̈.
 * d->F holds λ_K afterwards.  0, > 0 on NaN/Inf (recoverable), < 0 for a
 * Cosserat rod. */
COSROD_API int cosrod_rod_kirchhoff_rhs_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                                            double *f);
/* Analytic Jacobian ∂f/∂y of cosrod_rod_kirchhoff_rhs_dae at (t, y), written
 * into the band J (column j at J + j ldj, entry (i, j) at row mu + i - j;
 * ldj >= ml + mu + 1) in the ordering perm (NULL: native; else e.g. the node
 * ordering of cosrod_rod_order_fill, whose ml, mu it needs); the band is
 * zeroed first.  Load callbacks are held constant, as in cosrod_rod_jac.
 * ERR_UNSUPPORTED for an end attached to a movable support
 * (cosrod_rod_kirchhoff_set_end_mobility), ERR_INVALID for a Cosserat rod,
 * ERR_DIMENSION if the band is too narrow.  Uses d (evaluates f). */
COSROD_API cosrod_status cosrod_rod_kirchhoff_jac_dae_band(const cosrod_rod *rod, cosrod_rod_data *d, double t,
                                                           const double *y, const int *perm, double *J, int ldj,
                                                           int ml, int mu);
/* Segment (0..N-1) and time of the last kinematic singularity met by d, or
 * -1 if none. */
COSROD_API int cosrod_rod_kirchhoff_singular(const cosrod_rod_data *d, double *t);

/* ---- Jacobians ------------------------------------------------------------ */

/* Half bandwidths of the q-q (and v-v) blocks: 10 for ABSOLUTE/DAE, and for
 * NULLSPACE 10 (q-q) and 8 (ν-ν). */
COSROD_API void cosrod_rod_bandwidth(const cosrod_rod *rod, cosrod_rod_form form, int *ml_q, int *mu_q, int *ml_v,
                                     int *mu_v);
/* Finite-difference twin of the analytic Jacobians: one square block of the
 * Jacobian of the ABSOLUTE or NULLSPACE right-hand side,
 *   J(i, j) = d ydot[r0 + i] / d y[c0 + j],  i, j = 0 .. J->n - 1,
 * written into the band of J (entries outside J's band are not computed; J
 * is zeroed first).  Central differences, columns grouped by the bandwidth of
 * J: 2 (ml + mu + 1) right-hand sides, independent of N.  Uses d as
 * workspace and leaves it evaluated at y.  Typical blocks (second-order
 * structure, cosrod_ode_problem.m1): ABSOLUTE da/dq = (r0 = nq, c0 = 0),
 * da/dv = (nq, nq), J->n = nq; NULLSPACE dq'/dq = (0, 0) with n = nq and
 * dν'/dν = (nq, nq) with n = nv (the rectangular blocks dq'/dν, dν'/dq are not
 * covered).  ERR_UNSUPPORTED for DAE, ERR_CALLBACK if the RHS fails. */
COSROD_API cosrod_status cosrod_rod_jac_fd(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                           const double *y, int r0, int c0, struct cosrod_band *J);

/* ---- analytic Jacobians (rod_jac.c) ---------------------------------------
 * Hand-differentiated force kernels ([LLA] eqs. 23, 26, 28-29, Remark 3.1;
 * [L] Lemma 4.2; [LA] eq. 14), assembled directly into band storage in the
 * interleaved ordering: O(N), no allocation (workspace d->jacw).  Covers every
 * curvature variant, damping, all end types (free, pinned, sliding, clamped /
 * prescribed via the ghost quaternion), gravity, dead and follower loads
 * (material forces R(p)f and moments; spatial moments R(p)ᵀm).  NOT
 * differentiated: the user load callback (its forces are treated as constant)
 * and the explicit time dependence (prescribed ends, load profiles).
 *
 * Jacobians (rows: components of ydot resp. of the residual; columns: y):
 *   ABSOLUTE   J = ∂(v, a)/∂(q, v), a including the Baumgarte terms
 *              (d->baumgarte_omega, d->baumgarte_r);
 *   NULLSPACE  J = ∂(q̇, ν̇)/∂(q, ν) (ṗ = ½pΩ, Ω̇ = Ī⁻¹(½Im(p̄ψ) - Ω×ĪΩ));
 *   DAE        J = ∂F/∂y + cj ∂F/∂y' of cosrod_rod_res_dae (IDA's form).
 * Structural half bandwidths in the interleaved ordering (measured, see
 * cosrod_rod_jac_pattern_bandwidth): ABSOLUTE / DAE q-q and v-v blocks 10
 * (as [LLA] §3.4); NULLSPACE ν-ν 8, dq̇/dq 3 (block diagonal); smaller when
 * ends remove or reduce vertex coordinates.  The full Jacobians in the
 * y = (q, v[, λ]) ordering couple the halves at offset ~nq (e.g. ABSOLUTE
 * ml = nq + 10, mu = nq); use blocks (or the second-order form) instead. */

/* A destination block: rows r0 .. r0+nr-1 of the Jacobian, columns
 * c0 .. c0+nc-1, stored in LAPACK band layout without fill-in rows:
 *     entry (r0 + i, c0 + j) at J[j*ldj + mu + i - j],  -mu <= i - j <= ml,
 * ldj >= ml + mu + 1 (a cosrod_band B: J = B->data + B->ml, ldj = B->ld).
 * nr != nc is allowed (rectangular blocks). */
typedef struct cosrod_rod_jac_block {
  double *J;
  int ldj;
  int ml, mu;
  int r0, c0;
  int nr, nc;
} cosrod_rod_jac_block;

/* Fill up to 4 blocks of the Jacobian of `form` at (t, y) in one pass (each
 * block's band is zeroed first; blocks should not overlap).  yp and cj are
 * used by DAE only (yp: (2 nq + N), may be NULL otherwise).  Leaves d
 * evaluated at y.  ERR_DIMENSION if a block is outside the Jacobian or a
 * non-zero entry falls inside a block but outside its band (the other
 * entries are still written); ERR_CALLBACK if the load callback fails;
 * ERR_INTERRUPTED when the installed interrupt flag (status.h) is set at one
 * of the polls every 2048 nodes (the blocks are then incomplete). */
COSROD_API cosrod_status cosrod_rod_jac(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                        const double *y, const double *yp, double cj, int nblk,
                                        const cosrod_rod_jac_block *blk);
/* Square block J->n x J->n at (r0, c0) into a cosrod_band (zeroed first,
 * including the fill-in rows): the analytic twin of cosrod_rod_jac_fd. */
COSROD_API cosrod_status cosrod_rod_jac_band(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                             const double *y, const double *yp, double cj, int r0, int c0,
                                             struct cosrod_band *J);
/* ABSOLUTE in the reduced second-order form of cosrod_ode_problem with
 * m1 = m2 = nq: J = [∂a/∂q  ∂a/∂v] (nq x 2 nq), q-block columns with
 * bandwidths (ml_q, mu_q), v-block with (ml_v, mu_v), i.e. local entry (i, c)
 * of block b at J[(b nq + c) ldj + mu_b + i - c]; ldj >= max(ml_q + mu_q,
 * ml_v + mu_v) + 1.  Exactly what the integrators' jac callback receives. */
COSROD_API cosrod_status cosrod_rod_jac_second_order(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                                                     double *J, int ldj, int ml_q, int mu_q, int ml_v, int mu_v);
/* Static stiffness matrix (nq x nq, band, K->n = nq, bandwidth 10):
 *     K(q) = -∂Φ/∂q + Σ_k λ_k ∂²g_k/∂q²,   g_k = (|p_k|² - 1)/2,
 * where Φ(q) is the generalised force at zero velocities (vertex rows:
 * internal + gravity + loads, projected on the slide axis for sliding
 * vertices; quaternion rows: ψ_k = -∂V/∂p_k + load moments) and
 * λ_k = <p_k, ψ_k>/|p_k|² the multipliers of the static equilibrium
 * Φ = Gᵀλ; the Hessian term is λ_k I on the p_k diagonal block.  K is the
 * Hessian of the Lagrangian V - W + λᵀg, symmetric for conservative loads;
 * for modal analysis restrict it to the tangent space (Ker G).  q: (nq)
 * (e.g. the first half of an ABSOLUTE y); t for prescribed ends and load
 * profiles.  Uses d (left evaluated at (q, 0)). */
COSROD_API cosrod_status cosrod_rod_stiffness(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *q,
                                              struct cosrod_band *K);
/* Structural bandwidths (ml, mu) of the block (r0, c0, nr, nc) of the
 * Jacobian of `form` (or of the stiffness matrix if stiffness != 0) for this
 * rod: every entry the analytic assembly writes, zero or not (rate columns
 * only with damping).  Evaluates at the initial state (uses d). */
COSROD_API cosrod_status cosrod_rod_jac_pattern_bandwidth(const cosrod_rod *rod, cosrod_rod_data *d,
                                                          cosrod_rod_form form, int stiffness, int r0, int c0, int nr,
                                                          int nc, int *ml, int *mu);

/* ---- banded ordering of the whole state (rod_order.c) ----------------------
 * The native y orderings above put the velocity (and λ) half after q, so the
 * Jacobian of the WHOLE y couples i and i ± nq: in LAPACK band storage its
 * bandwidths grow with N (e.g. DAE ml = 143, mu = 73 at N = 10) and a banded
 * LU costs O(N nq²).  Implicit integrators that need the whole Jacobian (no
 * second-order reduction: NULLSPACE and DAE, or ABSOLUTE without m1) should
 * instead integrate a permuted state, node by node along the rod:
 *
 *   vertex n  : (rate_n, x_n)          rate_n = ẋ_n (NULLSPACE ν, ABSOLUTE/DAE v)
 *   segment k : ([λ_k,] rate_k, p_k)   rate_k = Ω_k (NULLSPACE) or ṗ_k; λ_k DAE only
 *   y_banded  = (vertex 0, segment 0, vertex 1, ..., segment N-1, vertex N)
 *
 * (each vertex block with its 3 or 1 (sliding) or 0 (removed) coordinates).
 * Every equation couples only a vertex with its two segments and a segment
 * with its two vertices and neighbour segments, so the whole Jacobian is
 * banded with half bandwidths independent of N.  Rates first: of the
 * periodic node orderings, the natural (x, rate, p, rate) and this one give
 * the least ml + mu, and this one the smaller ml (banded LU with pivoting
 * costs ~ n ml (ml + mu) flops).  Structural bandwidths (ml, mu) of the full
 * Jacobian (ABSOLUTE: ∂(q̇, v̇)/∂y; NULLSPACE: ∂(q̇, ν̇)/∂y; DAE: the larger
 * of the residual Jacobian ∂F/∂y + cj ∂F/∂y' (alone (18, 22) / (14, 22))
 * and the mass-matrix form's ∂f/∂y, cosrod_rod_jac_dae_mass_band) in this
 * ordering, for every N >= 2 and every end type:
 *
 *                 damped     undamped
 *   ABSOLUTE      (17, 21)   (13, 21)
 *   NULLSPACE     (15, 19)   (12, 19)
 *   DAE           (18, 23)   (14, 23)
 *
 * (the values returned are the exact structural ones for the given rod;
 * only N = 1 has smaller ones.)  Permutation
 * convention: perm[i] = position in the banded ordering of native component
 * i, iperm[perm[i]] = i; y_banded[perm[i]] = y_native[i].  The same
 * permutation applies to ẏ / f / residuals, y', tolerances, dae_id and the
 * diagonal of a mass matrix. */

/* Fill perm and iperm (each (ny), iperm may be NULL) and the structural
 * bandwidths ml, mu (may be NULL) of the whole Jacobian of `form` in the
 * banded ordering.  O(N), no allocation, no evaluation. */
COSROD_API cosrod_status cosrod_rod_order_fill(const cosrod_rod *rod, cosrod_rod_form form, int *perm, int *iperm,
                                               int *ml, int *mu);

/* The same as an object (arrays allocated once at creation). */
typedef struct cosrod_rod_order cosrod_rod_order;
COSROD_API cosrod_rod_order *cosrod_rod_order_create(const cosrod_rod *rod, cosrod_rod_form form, cosrod_status *status);
COSROD_API void cosrod_rod_order_free(cosrod_rod_order *o);
COSROD_API cosrod_rod_form cosrod_rod_order_form(const cosrod_rod_order *o);
COSROD_API int cosrod_rod_order_ny(const cosrod_rod_order *o);
COSROD_API const int *cosrod_rod_order_perm(const cosrod_rod_order *o);  /* (ny) native -> banded */
COSROD_API const int *cosrod_rod_order_iperm(const cosrod_rod_order *o); /* (ny) banded -> native */
COSROD_API void cosrod_rod_order_bandwidth(const cosrod_rod_order *o, int *ml, int *mu);
/* yb[perm[i]] = y[i] (to_banded) and y[i] = yb[perm[i]] (to_native), (ny);
 * no aliasing. */
COSROD_API void cosrod_rod_order_to_banded(const cosrod_rod_order *o, const double *y, double *yb);
COSROD_API void cosrod_rod_order_to_native(const cosrod_rod_order *o, const double *yb, double *y);

/* The whole Jacobian of `form` at (t, y) (y, yp in the NATIVE ordering; yp
 * and cj for DAE only) assembled analytically straight into band storage in
 * the ordering perm ((ny), from cosrod_rod_order_fill / _perm for this rod
 * and form; NULL = the native ordering; any other permutation must keep
 * each sub-block x_n, rate_n, p_k, rate_k, λ_k contiguous and in order):
 * entry (perm[i], perm[j]) = ∂row_i/∂y_j at
 *     J[perm[j]*ldj + mu + perm[i] - perm[j]],   ldj >= ml + mu + 1
 * (LAPACK band layout without fill-in rows, as the integrators' jac callback
 * with m1 = 0; a cosrod_band B: J = B->data + B->ml, ldj = B->ld).  The band
 * (ml + mu + 1 entries of each of the ny columns) is zeroed first.  Same
 * coverage as cosrod_rod_jac (including NULLSPACE ∂q̇/∂q = ∂(½pΩ)/∂p,
 * ∂q̇/∂ν = T(p) and DAE ∂F/∂y + cj ∂F/∂y').  O(N), no allocation.
 * ERR_DIMENSION if (ml, mu) are smaller than the structure needs (the
 * entries inside the band are still written). */
COSROD_API cosrod_status cosrod_rod_jac_full_band(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form,
                                                  double t, const double *y, const double *yp, double cj,
                                                  const int *perm, double *J, int ldj, int ml, int mu);
/* DAE run as a mass-matrix problem M y' = f(t, y) (radau5 / rodas / seulex):
 * y = (q, v, λ) in the DAE layout, f = (v, a(q, v), λ_post(q, v) - λ) with a
 * the ABSOLUTE accelerations (cosrod_rod_rhs_absolute, incl. Baumgarte terms
 * if set in d) and λ_post = <p, F_p>/|p|² (d->lambda after that RHS,
 * cosrod_rod_lambda), M = diag(1 (2 nq), 0 (N)).  Whole ∂f/∂y (ny = 2 nq + N)
 * into band storage in the ordering perm, as cosrod_rod_jac_full_band. */
COSROD_API cosrod_status cosrod_rod_jac_dae_mass_band(const cosrod_rod *rod, cosrod_rod_data *d, double t,
                                                      const double *y, const int *perm, double *J, int ldj, int ml,
                                                      int mu);
/* Measured twin of the bandwidths of cosrod_rod_order_fill: every entry the
 * analytic assembly writes in the ordering perm (NULL = native), zero or
 * not, at the initial state (uses d); DAE: the larger of the residual
 * Jacobian and the mass-matrix form. */
COSROD_API cosrod_status cosrod_rod_jac_full_pattern_bandwidth(const cosrod_rod *rod, cosrod_rod_data *d,
                                                               cosrod_rod_form form, const int *perm, int *ml, int *mu);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_ROD_H */
