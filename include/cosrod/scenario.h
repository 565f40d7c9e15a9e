// SPDX-License-Identifier: Apache-2.0
/* Scenario files ([manual: scenario reference]): YAML schema version 1 -> validated description.
 *
 * cosrod_scenario_load() reads a scenario file, applies `--set key.path=value`
 * overrides, validates every key and returns a plain in-memory description
 * with all defaults filled in and derived quantities (section constants,
 * stiffness, inertia and viscous coefficients) resolved.  Nothing here
 * depends on the rod model or the integrators; a driver converts the
 * description into their definition structs.
 *
 * Errors are one line "FILE:LINE: key.path: problem" ([manual: command line, output reference]), e.g.
 *   examples/x.yaml:12: rods.0.segmnets: unknown key (did you mean 'segments'?)
 * LINE is 0 for values that came from --set (the message then ends in
 * "(from --set)").
 *
 * Units are SI throughout: lengths m, times s, masses kg, moduli Pa,
 * densities kg/m^3, forces N, moments N m, angles rad unless a key says _deg.
 * Vectors are spatial components unless a field says "material".
 * Quaternions are scalar-first (q0, q1, q2, q3) and stored normalised. */
#ifndef COSROD_SCENARIO_H
#define COSROD_SCENARIO_H

#include "cosrod/export.h"

#include <stddef.h>
#include <stdio.h>

#include "cosrod/contact.h"
#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Schema version understood by this loader (`cosrod: 1`). */
#define COSROD_SC_SCHEMA_VERSION 1
/* Longest name (rod, body, material) including the terminating NUL. */
#define COSROD_SC_NAME_MAX 64
/* Upper bound on segments per rod: more is an input error, not an OOM. */
#define COSROD_SC_MAX_SEGMENTS 1000000
/* Largest scenario file read (bytes). */
#define COSROD_SC_MAX_FILE_SIZE (32L * 1024 * 1024)

typedef enum cosrod_sc_model {
  COSROD_SC_MODEL_COSSERAT,
  COSROD_SC_MODEL_KIRCHHOFF_EXTENSIBLE,
  COSROD_SC_MODEL_KIRCHHOFF_INEXTENSIBLE
} cosrod_sc_model;

/* Discrete curvature variants, [LLA] eq. (26): (i) .. (v). */
typedef enum cosrod_sc_curvature {
  COSROD_SC_CURVATURE_SINE2,    /* "sine-2"    (i)  */
  COSROD_SC_CURVATURE_SINE4,    /* "sine-4"    (ii) */
  COSROD_SC_CURVATURE_TANGENT2, /* "tangent-2" (iii), default */
  COSROD_SC_CURVATURE_TANGENT4, /* "tangent-4" (iv) */
  COSROD_SC_CURVATURE_ANGLE     /* "angle"     (v)  */
} cosrod_sc_curvature;

typedef enum cosrod_sc_section_shape {
  COSROD_SC_SECTION_CIRCLE,
  COSROD_SC_SECTION_RECTANGLE,
  COSROD_SC_SECTION_CUSTOM,
  COSROD_SC_SECTION_TUBE /* hollow circle: outer_radius, inner_radius (hoses, pipes) */
} cosrod_sc_section_shape;

typedef enum cosrod_sc_damping_kind {
  COSROD_SC_DAMPING_NONE,
  COSROD_SC_DAMPING_KELVIN_VOIGT, /* retardation times, [LLT] eq. (4) */
  COSROD_SC_DAMPING_COEFFICIENTS  /* explicit viscous coefficients */
} cosrod_sc_damping_kind;

typedef enum cosrod_sc_shape_kind {
  COSROD_SC_SHAPE_STRAIGHT,
  COSROD_SC_SHAPE_ARC,
  COSROD_SC_SHAPE_HELIX,
  COSROD_SC_SHAPE_POLYLINE
} cosrod_sc_shape_kind;

typedef enum cosrod_sc_reference {
  COSROD_SC_REFERENCE_INITIAL, /* stress-free = initial shape (default) */
  COSROD_SC_REFERENCE_STRAIGHT /* stress-free = straight, untwisted */
} cosrod_sc_reference;

typedef enum cosrod_sc_end_type {
  COSROD_SC_END_FREE,
  COSROD_SC_END_PINNED,
  COSROD_SC_END_CLAMPED,
  COSROD_SC_END_PRESCRIBED
} cosrod_sc_end_type;

typedef enum cosrod_sc_load_type {
  COSROD_SC_LOAD_FORCE,            /* point force at a vertex [N] */
  COSROD_SC_LOAD_MOMENT,           /* point moment at a vertex [N m] */
  COSROD_SC_LOAD_DISTRIBUTED_FORCE /* force per length on the whole rod [N/m] */
} cosrod_sc_load_type;

typedef enum cosrod_sc_frame {
  COSROD_SC_FRAME_SPATIAL, /* dead load, spatial components */
  COSROD_SC_FRAME_MATERIAL /* follower load, components in (d1, d2, d3) */
} cosrod_sc_frame;

typedef enum cosrod_sc_profile {
  COSROD_SC_PROFILE_CONSTANT,
  COSROD_SC_PROFILE_RAMP,   /* 0 before t0, linear to 1 on [t0, t1], 1 after */
  COSROD_SC_PROFILE_ACTIVE, /* 1 on [t0, t1], 0 elsewhere */
  COSROD_SC_PROFILE_PRELOAD /* only in the initial static equilibrium, 0 for t >= 0 */
} cosrod_sc_profile;

typedef enum cosrod_sc_parametrisation {
  COSROD_SC_PARAM_QUATERNION,
  COSROD_SC_PARAM_DIRECTORS,
  COSROD_SC_PARAM_EULER_ANGLES
} cosrod_sc_parametrisation;

typedef enum cosrod_sc_joint_type {
  COSROD_SC_JOINT_SPHERICAL,
  COSROD_SC_JOINT_REVOLUTE,
  COSROD_SC_JOINT_PRISMATIC,
  COSROD_SC_JOINT_CYLINDRICAL,
  COSROD_SC_JOINT_PLANAR,
  COSROD_SC_JOINT_BUSHING, /* linear spring-damper between the two points */
  COSROD_SC_JOINT_UNIVERSAL,
  COSROD_SC_JOINT_FIXED
} cosrod_sc_joint_type;

typedef enum cosrod_sc_analysis_type {
  COSROD_SC_ANALYSIS_DYNAMIC,
  COSROD_SC_ANALYSIS_STATIC,
  COSROD_SC_ANALYSIS_MODES,
  COSROD_SC_ANALYSIS_BUCKLING /* critical load factors of the loads at t = 1 (count: how many) */
} cosrod_sc_analysis_type;

typedef enum cosrod_sc_formulation {
  COSROD_SC_FORMULATION_NULLSPACE,
  COSROD_SC_FORMULATION_ABSOLUTE,
  COSROD_SC_FORMULATION_DAE
} cosrod_sc_formulation;

typedef enum cosrod_sc_stabilisation {
  COSROD_SC_STAB_PROJECTION,
  COSROD_SC_STAB_BAUMGARTE,
  COSROD_SC_STAB_NONE
} cosrod_sc_stabilisation;

typedef enum cosrod_sc_integrator {
  COSROD_SC_INTEGRATOR_RADAU5,
  COSROD_SC_INTEGRATOR_RODAS,
  COSROD_SC_INTEGRATOR_SEULEX,
  COSROD_SC_INTEGRATOR_DOPRI5,
  COSROD_SC_INTEGRATOR_DOP853,
  COSROD_SC_INTEGRATOR_IDA,
  COSROD_SC_INTEGRATOR_CVODE,
  COSROD_SC_INTEGRATOR_GALPHA, /* generalized-α on the rotation group (formulation nullspace) */
  COSROD_SC_INTEGRATOR_ODEX,   /* explicit Gragg-Bulirsch-Stoer extrapolation (integrate/odex.c) */
  COSROD_SC_INTEGRATOR_AUTO    /* chosen from the problem at creation (sim/sim_auto.c; the default) */
} cosrod_sc_integrator;

/* An elastic material.  E, G, poisson and density are all filled in:
 * G = E / (2 (1 + poisson)) when poisson was given, poisson = E/(2G) - 1
 * when G was given. */
typedef struct cosrod_sc_material {
  char name[COSROD_SC_NAME_MAX]; /* "" for an inline material */
  double E;                      /* Young's modulus [Pa] */
  double G;                      /* shear modulus [Pa] */
  double poisson;                /* Poisson ratio, 0 <= nu <= 0.5 */
  double density;                /* [kg/m^3] */
  int line;
} cosrod_sc_material;

/* Cross-section ([manual: theory]).  Given values are kept; area, I1, I2, J are the
 * resolved constants. */
typedef struct cosrod_sc_section {
  cosrod_sc_section_shape shape;
  double radius;           /* circle [m] */
  double outer_radius, inner_radius; /* tube [m], 0 <= inner < outer */
  double width, height;    /* rectangle [m]: width along d1, height along d2 */
  double torsion_constant; /* rectangle: J if given, else 0 (J = I1 + I2) */
  double area;             /* [m^2] */
  double I1, I2, J;        /* second moments about d1, d2 and polar [m^4] */
} cosrod_sc_section;

/* Damping.  V_gamma and V_kappa are the resolved viscous matrices (diagonal)
 * of [manual: theory]: F_visc = V_gamma Gamma_dot [N s], M_visc = V_kappa K_dot
 * [N m^2 s].  For coefficients, `convention: lla` means the values are
 * [LLA]'s c (V = 2c); the default `convention: viscous` means V = value. */
typedef struct cosrod_sc_damping {
  cosrod_sc_damping_kind kind;
  double tau_shear, tau_bulk; /* Kelvin-Voigt retardation times [s] */
  double tau_extension;       /* tau_E = ((1-2nu) tau_B + 2(1+nu) tau_S)/3 [s] */
  double shear[2], extension; /* coefficients as given */
  double bending[2], torsion;
  int lla_convention; /* 1 if the given coefficients are [LLA]'s c */
  double V_gamma[3];  /* (shear 1, shear 2, extension) [N s] */
  double V_kappa[3];  /* (bending 1, bending 2, torsion) [N m^2 s] */
  /* damping.medium (with any kind, also alone): force -c_t ẋ and material
   * moment -c_r Ω per length of the surrounding medium */
  double medium_translational; /* c_t [N s/m^2] (0: none) */
  double medium_rotational;    /* c_r [N s] (0: none) */
  /* damping.variant: reading of the discrete dissipation of [LLA] §3.2 on
   * the equidistant grid (see cosrod_sc_damping_variant); V_gamma/V_kappa
   * above already include its factor. damping.rotary_inertia: 1 adds the
   * rigid-cylinder term rhoA Δs²/12 to rhoI1, rhoI2 ([LLA] §3.3). */
  int variant;
  int rotary_inertia;
} cosrod_sc_damping;

/* Readings of the discrete dissipation ([LLA] eqs. 9-10, §3.2, [LLT] eq. 4);
 * all but LLA need a uniform grid.  Factors on V_Γ, V_K (Δs = L/N):
 *   LLA        1      rates of eqs. (23), (26), midpoint / trapezoidal weights
 *   NO_DS      Δs²    rates without 1/Δs (2/δs): rates of Δs Γ, δs K
 *   NO_DS_SE   Δs², 1 as NO_DS for shear/extension only
 *   BUSHING    Δs     rates without 1/Δs and without quadrature weights
 *   NO_WEIGHT  1/Δs   rates of (23), (26) without quadrature weights
 *   SHEAR_E    E/G on the shear and torsion terms (Kelvin-Voigt only: τ_S E) */
typedef enum cosrod_sc_damping_variant {
  COSROD_SC_DAMPING_LLA = 0,
  COSROD_SC_DAMPING_NO_DS,
  COSROD_SC_DAMPING_NO_DS_SE,
  COSROD_SC_DAMPING_BUSHING,
  COSROD_SC_DAMPING_NO_WEIGHT,
  COSROD_SC_DAMPING_SHEAR_E
} cosrod_sc_damping_variant;

/* Initial shape.  direction = d3 and normal = d1 at s = 0 (unit, orthogonal
 * to 1e-6).  straight: along direction.  arc: in the plane of direction and
 * normal, bending towards normal.  helix: right-handed, initial tangent =
 * direction, axis at distance radius on the normal side and perpendicular to
 * normal, rising `pitch` per turn (length turns * hypot(2 pi radius, pitch)).
 * polyline: start and direction come from the points; frames by parallel
 * transport of normal. */
typedef struct cosrod_sc_shape {
  cosrod_sc_shape_kind kind;
  double start[3];     /* position of s = 0 [m] */
  double direction[3]; /* unit tangent d3 at s = 0 */
  double normal[3];    /* unit d1 at s = 0 (arc: bends towards it) */
  double radius;       /* arc, helix [m] */
  double angle_deg;    /* arc: total angle [deg] */
  double pitch;        /* helix: rise per turn along `direction` [m] */
  double turns;        /* helix: number of turns */
  size_t npoints;      /* polyline: number of points */
  double *points;      /* polyline: (npoints x 3) [m], row-major */
  double length;       /* arc length of the shape [m]; 0 for straight */
} cosrod_sc_shape;

/* Keyframes for a prescribed end: (n) times, strictly increasing, and
 * (n x dim) values, dim = 3 (positions [m]) or 4 (unit quaternions).
 * Between keyframes positions are interpolated linearly and quaternions by
 * slerp between the two stored quaternions exactly as given (no sign flip
 * to the shorter arc: [LLA] Test 2 relies on p_N(1) = -(1,-1,1,1)/2);
 * consecutive quaternions are never antipodal.  Before the first / after the
 * last keyframe the value is held constant. */
typedef struct cosrod_sc_keyframes {
  size_t n;
  double *t;      /* (n) [s] */
  double *values; /* (n x dim), row-major */
} cosrod_sc_keyframes;

typedef struct cosrod_sc_end {
  cosrod_sc_end_type type;
  int slides;                      /* 1 if slides_along was given */
  double slides_along[3];          /* unit spatial axis of a released translation */
  int body;                        /* index into bodies, or -1 (fixed in space) */
  double at[3];                    /* with body: attachment point, body material frame [m] */
  cosrod_sc_keyframes position;    /* prescribed or pinned: centroid keyframes (n = 0: none) */
  cosrod_sc_keyframes orientation; /* prescribed: frame keyframes, slerp (n = 0: none) */
  int cubic;                       /* prescribed or moving pinned: interpolation: cubic (C¹), else linear */
  int line;
  int has_frame;   /* clamped to a body: `frame` given */
  double frame[4]; /* the end frame in the body frame (unit quaternion; else the initial relative frame) */
} cosrod_sc_end;

typedef struct cosrod_sc_load {
  cosrod_sc_load_type type;
  cosrod_sc_frame frame;
  cosrod_sc_profile profile;
  double value[3]; /* [N], [N m] or [N/m] */
  double t0, t1;   /* ramp / active interval [s] */
  long vertex;     /* point loads: vertex index 0..N ("start" = 0, "end" = N); -1 distributed */
  int line;
} cosrod_sc_load;

typedef struct cosrod_sc_rod {
  char name[COSROD_SC_NAME_MAX];
  cosrod_sc_model model;
  double length;   /* stress-free length [m] */
  size_t segments; /* N, 1 <= N <= COSROD_SC_MAX_SEGMENTS */
  int grid_given;  /* 1 if `grid` was given, 0 if uniform from `segments` */
  double *grid;    /* (segments + 1) arc-length coordinates s_0 < ... < s_N [m] */
  cosrod_sc_material material; /* all zero when not given (has_material 0) */
  int has_material;            /* 0: `material` omitted, every stiffness and inertia value given */
  cosrod_sc_section section;
  double shear_correction[2]; /* kappa1, kappa2 (default 1, 1) */
  /* Resolved stiffness: EA, kappa1 GA, kappa2 GA [N]; EI1, EI2, GJ [N m^2];
   * each replaced by rod.stiffness.<key> when given. */
  double EA, GA1, GA2, EI1, EI2, GJ;
  /* Resolved inertia: rhoA [kg/m]; rhoI1, rhoI2, rhoJ [kg m]. */
  double rhoA, rhoI1, rhoI2, rhoJ;
  unsigned stiffness_overridden; /* bit k set: k-th of EA,GA1,GA2,EI1,EI2,GJ given */
  unsigned inertia_overridden;   /* bit k set: k-th of rhoA,rhoI1,rhoI2,rhoJ given */
  cosrod_sc_curvature curvature;
  cosrod_sc_damping damping;
  cosrod_sc_shape shape;
  cosrod_sc_reference reference;
  cosrod_sc_end ends[2]; /* [0] start (s = 0), [1] end (s = L) */
  size_t nloads;
  cosrod_sc_load *loads; /* (nloads) */
  int line;
} cosrod_sc_rod;

/* A force or moment on a rigid body (bodies.N.loads). */
typedef struct cosrod_sc_body_load {
  cosrod_sc_load_type type;  /* force or moment */
  cosrod_sc_frame frame;     /* spatial (dead) or material (body frame, follower) */
  cosrod_sc_profile profile; /* constant, ramp or active */
  double value[3];           /* [N] or [N m] */
  double at[3];              /* force: point in the body frame from the centre of mass [m] */
  double t0, t1;             /* ramp / active interval [s] */
  int line;
} cosrod_sc_body_load;

typedef struct cosrod_sc_body {
  char name[COSROD_SC_NAME_MAX];
  double mass;                /* [kg] */
  double inertia[3];          /* principal moments about the centre of mass [kg m^2] */
  double position[3];         /* centre of mass [m] */
  int orientation_euler;      /* 1 if given as euler313 */
  double euler313[3];         /* 3-1-3 angles (phi, theta, psi) [rad], if given */
  double quaternion[4];       /* unit orientation (resolved from either form) */
  double velocity[3];         /* [m/s] */
  double angular_velocity[3]; /* Omega, material components [1/s] */
  cosrod_sc_parametrisation parametrisation;
  size_t nloads;
  cosrod_sc_body_load *loads; /* (nloads) */
  /* motion: the body is driven by keyframes (a kinematic body: no loads,
   * joints or bushings; it carries the rod ends attached to it) */
  int has_motion;
  cosrod_sc_keyframes motion_position;    /* centre of mass (n = 0: stays at position) */
  cosrod_sc_keyframes motion_orientation; /* unit quaternions (n = 0: keeps orientation) */
  int motion_cubic;                       /* interpolation: cubic (C¹), else linear / slerp */
  int has_shape;        /* `shape:` given: a collision shape (contact.obstacles[shape_obstacle]) */
  size_t shape_obstacle; /* its index in cosrod_scenario.contact.obstacles */
  int line;
} cosrod_sc_body;

/* Kinetic energy ½ m |v|² + ½ Σ I_k Ω_k² (Ω material, principal axes) and
 * gravitational potential -m g·x [J] of body b at position x, velocity v
 * (spatial) and angular velocity Omega (bodies.csv). */
static inline void cosrod_sc_body_energy(const cosrod_sc_body *b, const double g[3], const double x[3],
                                         const double v[3], const double Omega[3], double *kinetic,
                                         double *potential) {
  double k = 0.0, p = 0.0;
  for (int i = 0; i < 3; ++i) {
    k += b->mass * v[i] * v[i] + b->inertia[i] * Omega[i] * Omega[i];
    p -= b->mass * g[i] * x[i];
  }
  *kinetic = 0.5 * k;
  *potential = p;
}

typedef struct cosrod_sc_joint {
  cosrod_sc_joint_type type;
  int body[2];               /* body indices; -1 = ground */
  double at[2][3];           /* joint point in each body's material frame (ground: spatial) [m] */
  double axis[3];            /* unit axis in body[0]'s frame (revolute, prismatic, cylindrical,
                                planar: plane normal) */
  double stiffness, damping; /* bushing: k [N/m], c [N s/m] */
  double stiffness_rot, damping_rot; /* bushing: rotational k [N m/rad], c [N m s/rad] (default 0) */
  double axis2[3];           /* universal: unit second axis in body[1]'s frame, orthogonal to axis */
  int line;
} cosrod_sc_joint;

typedef struct cosrod_sc_analysis {
  cosrod_sc_analysis_type type;
  double t_end;               /* dynamic: final time [s] (static: 1, pseudo-time) */
  long increments;            /* static: number of pseudo-time increments (default 25) */
  long count;                 /* modes: number of modes reported, each pair member and rigid-body
                                 mode counted (default 10); buckling: number of critical load
                                 factors (default 3) */
  int start_from_equilibrium; /* dynamic: start from the static equilibrium of t = 0 loads */
  int gravity_constant;       /* static: 1 = gravity at its full value from t = 0 (`gravity: constant`);
                                 0 (default, `gravity: ramp`): ramped with the pseudo-time, 0 at t = 0 */
  int arc_length;             /* static: 1 = `control: arc-length` (the pseudo-time is the arc length of the
                                 path in (state, load factor); every load times the load factor λ) */
  long max_steps;             /* static, arc-length: steps before giving up (default 2000) */
  int switch_branch;          /* static, arc-length: 1 = at the first bifurcation point switch to the
                                 crossing branch along the critical mode (`switch_branch: true`) */
  int keyframe_path;          /* static: 1 = `path: keyframes` (the pseudo-time is the keyframe time of the
                                 prescribed ends, t_end their last keyframe; gravity and loads at full
                                 value from t = 0) */
  int line;
} cosrod_sc_analysis;

/* Linear solver of the implicit methods with rods attached to bodies
 * (solver.linear_solver): auto = sparse when the coupled band is much wider
 * than the rods' own band (a star, bodies joined to each other), band
 * otherwise. */
typedef enum cosrod_sc_linear_solver {
  COSROD_SC_LINSOLVE_AUTO = 0,
  COSROD_SC_LINSOLVE_BAND = 1,
  COSROD_SC_LINSOLVE_SPARSE = 2
} cosrod_sc_linear_solver;

typedef struct cosrod_sc_solver {
  cosrod_sc_formulation formulation;     /* default nullspace */
  cosrod_sc_stabilisation stabilisation; /* default projection */
  double baumgarte_omega, baumgarte_r;   /* [1/s], default 100, 100 */
  cosrod_sc_integrator integrator;       /* default auto */
  double rtol, atol;                     /* default 1e-6, 1e-6 */
  double h0;                             /* initial step [s]; 0 = automatic (default) */
  double hmax;                           /* largest step [s]; 0 = unlimited (default) */
  long max_steps;                        /* default 100000 */
  double rho_inf;                        /* galpha: spectral radius at infinity [0, 1], default 0.8 */
  int rho_inf_given;                     /* 1 if rho_inf was given (auto then keeps it, else takes its own) */
  double h;                              /* galpha: fixed step [s]; 0 = adaptive under rtol/atol (default) */
  /* solver.realtime (galpha): fixed step h, at most rt_newton_max Newton
   * iterations and rt_jac_budget tangent Jacobians per step, the last
   * iterate accepted (realtime = 0: off, the default) */
  int realtime, rt_newton_max, rt_jac_budget;
  cosrod_sc_linear_solver linear_solver; /* default auto */
  int threads; /* threads of the rod evaluations; 0 = OpenMP's default, default 1 */
  int line;
} cosrod_sc_solver;

typedef struct cosrod_sc_output {
  char *dir;      /* output directory (default "out") */
  double every;   /* output interval [s]; default t_end/100 (static: every increment) */
  int vtk, plots; /* default 1, 1 */
  unsigned fields; /* COSROD_SC_FIELD_* bits written (default: all but tip) */
  int format;      /* COSROD_SC_FORMAT_CSV (default) or _HDF5 (DIR/run.h5, vtk/cosrod.vtkhdf) */
  /* output.checkpoint: restart checkpoints of dynamic runs (0 = not set):
   * every `checkpoint_every` seconds of simulated time and / or every
   * `checkpoint_wall` seconds of wall time (neither set: the caller's
   * wall-clock default, 30 s for cosrod run) */
  double checkpoint_every, checkpoint_wall;
  int line;
} cosrod_sc_output;
enum { COSROD_SC_FORMAT_CSV = 0, COSROD_SC_FORMAT_HDF5 = 1 };

/* output.fields: which files are written (tip.csv: every rod end's position
 * and frame; steps.csv also switched by output.steps: false). */
enum {
  COSROD_SC_FIELD_TIP = 1u << 0,
  COSROD_SC_FIELD_CENTERLINE = 1u << 1,
  COSROD_SC_FIELD_FRAMES = 1u << 2,
  COSROD_SC_FIELD_STRAINS = 1u << 3,
  COSROD_SC_FIELD_CURVATURES = 1u << 4,
  COSROD_SC_FIELD_ENERGY = 1u << 5,
  COSROD_SC_FIELD_STEPS = 1u << 6,
  COSROD_SC_FIELD_REACTIONS = 1u << 7,
  COSROD_SC_FIELDS_DEFAULT = 0xFEu /* everything but tip (the files of [manual: command line, output reference]) */
};

/* An obstacle ([manual: contact], `obstacles:`) or a body's collision shape
 * (`bodies.N.shape`, then body_shape = 1, name = the body's name).  Local e_z
 * is the plane normal and the cylinder / capsule axis; the pose is spatial,
 * or in the body frame (about the centre of mass) when body >= 0. */
typedef struct cosrod_sc_obstacle {
  char name[COSROD_SC_NAME_MAX];
  cosrod_shape shape;  /* type and dimensions (mesh: shape.mesh NULL, the file is loaded by the user) */
  char *file;          /* mesh: path resolved against the scenario's directory, else NULL */
  char *file_given;    /* mesh: the path as written in the scenario, else NULL */
  cosrod_pose pose;    /* position and orientation (v = omega = 0) */
  double axis[3];      /* plane normal / cylinder / capsule axis (unit) */
  double given[4];     /* as written: plane normal / cylinder axis (3), box / mesh orientation (4) */
  double a[3], b[3];   /* capsule: the axis end points as given */
  double reference[3]; /* moment reference of obstacles.csv: center / point / position */
  int body;            /* index into bodies (pose in its frame), or -1 */
  int body_shape;      /* 1: the shape of body `body` (bodies.N.shape), 0: listed under obstacles */
  int has_motion;      /* moved by keyframes (body -1 only) */
  cosrod_sc_keyframes motion_position;    /* (n = 0: stays) */
  cosrod_sc_keyframes motion_orientation; /* unit quaternions (n = 0: keeps) */
  int motion_cubic;                       /* interpolation: cubic (C¹), else linear / slerp */
  int line;
} cosrod_sc_obstacle;

/* `contact:` (absent: enabled = 0, no contact at all) and the obstacles. */
typedef struct cosrod_sc_contact {
  int enabled;            /* `contact:` present */
  cosrod_contact_law law; /* 0 = auto (stiffness, onset, damping, tangent_stiffness); damping none = -1 */
  int rods, self;         /* rod-rod and self-contact (default 1, 1) */
  int quadrature;         /* Gauss points per segment against obstacles (0 = default 2) */
  size_t nobstacles;      /* listed obstacles first, then the bodies' shapes */
  cosrod_sc_obstacle *obstacles;
  int line;
} cosrod_sc_contact;

typedef struct cosrod_sc_lines cosrod_sc_lines; /* private: key path -> line */

typedef struct cosrod_scenario {
  char *file;  /* file name used in messages */
  int version; /* schema version (1) */
  char *title; /* "" when absent */
  double gravity[3];
  size_t nmaterials;
  cosrod_sc_material *materials; /* (nmaterials) named materials */
  size_t nrods;
  cosrod_sc_rod *rods; /* (nrods) */
  size_t nbodies;
  cosrod_sc_body *bodies; /* (nbodies) */
  size_t njoints;
  cosrod_sc_joint *joints; /* (njoints) */
  cosrod_sc_analysis analysis;
  cosrod_sc_solver solver;
  cosrod_sc_output output;
  cosrod_sc_lines *lines_;
  cosrod_sc_contact contact; /* obstacles, body shapes and contact settings ([manual: contact]) */
} cosrod_scenario;

/* Read and validate a scenario file.  `sets` are nsets strings "key.path=value"
 * (the value is a YAML scalar or flow collection) applied before validation;
 * missing keys are created.  Returns the new scenario (free with
 * cosrod_scenario_free), or NULL with *status (may be NULL) COSROD_ERR_PARSE
 * (invalid input), COSROD_ERR_IO or COSROD_ERR_NOMEM and cosrod_last_error()
 * "FILE:LINE: key.path: problem" (one line per error found, status.h). */
COSROD_API cosrod_scenario *cosrod_scenario_load(const char *path, const char *const *sets, size_t nsets,
                                                 cosrod_status *status);

/* As cosrod_scenario_load for text in memory (len bytes, need not be
 * NUL-terminated); `file` is the name used in messages. */
COSROD_API cosrod_scenario *cosrod_scenario_parse(const char *text, size_t len, const char *file,
                                                  const char *const *sets, size_t nsets, cosrod_status *status);

/* Release a scenario (NULL is a no-op). */
COSROD_API void cosrod_scenario_free(cosrod_scenario *sc);

/* YAML line of a key path such as "rods.0.segments", or of its nearest
 * ancestor present in the file when the key was defaulted; 0 if unknown or
 * from --set. */
COSROD_API int cosrod_scenario_line(const cosrod_scenario *sc, const char *key_path);

/* Format "FILE:LINE: key.path: problem" for a later (e.g. model) error about
 * a key of this scenario.  Returns the length snprintf would write. */
COSROD_API int cosrod_scenario_format_error(const cosrod_scenario *sc, const char *key_path, const char *problem,
                                            char *buf, size_t buflen);

/* Plausibility warnings (not errors): values the loader accepts that are
 * probably a unit slip (material constants outside the range of engineering
 * materials in SI units), a section that is not slender (radius / length >
 * 0.1), an initial shape whose arc length differs from `length` by more than
 * 0.1 %.  cosrod_scenario_warning writes the i-th as one line "FILE:LINE:
 * key: problem; suggestion" into buf; -1 if i >= cosrod_scenario_nwarnings. */
COSROD_API size_t cosrod_scenario_nwarnings(const cosrod_scenario *sc);
COSROD_API int cosrod_scenario_warning(const cosrod_scenario *sc, size_t i, char *buf, size_t len);

/* Names used in the file for enum values (e.g. "tangent-2"); "?" if out of range. */
/* Radius of the circle that circumscribes a section [m] (circle: its radius,
 * tube: the outer one, rectangle: half the diagonal, area only: the radius of
 * the circle of that area); for drawing tubes and for contact. */
COSROD_API double cosrod_sc_section_radius(const cosrod_sc_section *s);
COSROD_API const char *cosrod_sc_curvature_name(cosrod_sc_curvature c);
/* "plane", "sphere", "cylinder", "capsule", "box", "mesh"; "?" if out of range. */
COSROD_API const char *cosrod_sc_shape_type_name(cosrod_shape_type t);
COSROD_API const char *cosrod_sc_integrator_name(cosrod_sc_integrator i);
COSROD_API const char *cosrod_sc_model_name(cosrod_sc_model m);

/* ---- builder: a scenario from function calls (scenario_build.c) ----------
 * Values go to key paths of the file schema ("rods.0.segments",
 * "solver.integrator"); cosrod_sc_builder_finish validates them exactly as
 * a file (same defaults, checks and messages), an error being one line
 * "key.path: problem" instead of "FILE:LINE: key.path: problem".  Later
 * calls on the same key replace earlier ones.  Example:
 *   cosrod_sc_builder *b = cosrod_sc_builder_create(NULL);
 *   cosrod_sc_builder_material(b, "rubber", 5e6, 0.5, 1100);
 *   long r = cosrod_sc_builder_add_rod(b, "rod");
 *   cosrod_sc_builder_set_num(b, "rods.0.length", 1.0);
 *   cosrod_sc_builder_set_str(b, "rods.0.material", "rubber");
 *   cosrod_sc_builder_rod_set(b, r, "section", "{shape: circle, radius: 5e-3}");
 *   cosrod_sc_builder_end(b, r, 0, COSROD_SC_END_PINNED);
 *   cosrod_sc_builder_set_num(b, "analysis.t_end", 2.0);
 *   cosrod_scenario *sc = cosrod_sc_builder_finish(b, &st);  // else cosrod_last_error()
 * The setters return ERR_INVALID for bad arguments (NULL key, rod index out
 * of range), ERR_NOMEM; values themselves are checked by finish. */
typedef struct cosrod_sc_builder cosrod_sc_builder; /* opaque */
/* An empty builder; NULL when out of memory (status.h). */
COSROD_API cosrod_sc_builder *cosrod_sc_builder_create(cosrod_status *status);
COSROD_API void cosrod_sc_builder_free(cosrod_sc_builder *b);
/* key = value given as YAML text (a scalar or flow collection: "{shape: circle, radius: 0.01}") */
COSROD_API cosrod_status cosrod_sc_builder_set(cosrod_sc_builder *b, const char *key, const char *yaml_value);
COSROD_API cosrod_status cosrod_sc_builder_set_num(cosrod_sc_builder *b, const char *key, double v);
COSROD_API cosrod_status cosrod_sc_builder_set_int(cosrod_sc_builder *b, const char *key, long v);
COSROD_API cosrod_status cosrod_sc_builder_set_bool(cosrod_sc_builder *b, const char *key, int v);
COSROD_API cosrod_status cosrod_sc_builder_set_vec(cosrod_sc_builder *b, const char *key, const double *v, size_t n);
COSROD_API cosrod_status cosrod_sc_builder_set_str(cosrod_sc_builder *b, const char *key, const char *s);
/* materials.<name> = {E, poisson, density} */
COSROD_API cosrod_status cosrod_sc_builder_material(cosrod_sc_builder *b, const char *name, double E, double poisson,
                                                    double density);
/* A new rod (name NULL: default "rodK"); its index, -1 on failure. */
COSROD_API long cosrod_sc_builder_add_rod(cosrod_sc_builder *b, const char *name);
/* rods.<rod>.<key> = value (YAML text) */
COSROD_API cosrod_status cosrod_sc_builder_rod_set(cosrod_sc_builder *b, long rod, const char *key, const char *yaml_value);
/* End 0 (start) or 1 (end) of a rod: its type. */
COSROD_API cosrod_status cosrod_sc_builder_end(cosrod_sc_builder *b, long rod, int end, cosrod_sc_end_type type);
/* A load on a rod (vertex ignored for distributed forces); its index in the rod's loads, -1 on failure. */
COSROD_API long cosrod_sc_builder_add_load(cosrod_sc_builder *b, long rod, cosrod_sc_load_type type, long vertex,
                                           const double value[3], cosrod_sc_frame frame);
/* Validate and build; NULL with *status (ERR_PARSE, ERR_NOMEM, ERR_INVALID)
 * and cosrod_last_error() "key.path: problem" (status.h). */
COSROD_API cosrod_scenario *cosrod_sc_builder_finish(const cosrod_sc_builder *b, cosrod_status *status);

/* Write sc as a scenario file (schema version 1) that cosrod_scenario_load
 * reads back to the same scenario: every value as given or resolved
 * (defaults written out), numbers round-trip exactly (scenario_yaml.c).
 * COSROD_ERR_IO if writing failed. */
COSROD_API cosrod_status cosrod_scenario_to_yaml(const cosrod_scenario *sc, FILE *f);

/* Short human-readable summary (title, rods, bodies, analysis, solver). */
COSROD_API void cosrod_scenario_print(const cosrod_scenario *sc, FILE *f);

/* One key of the scenario schema (the loader's own table, scenario_keys.c):
 * section path (N a list index, NAME a material name, "" the top level), key,
 * type, SI unit, default, allowed values, an example value and its meaning. */
typedef struct cosrod_sc_keyinfo {
  const char *section, *key, *type, *unit, *def, *allowed, *example, *doc;
} cosrod_sc_keyinfo;
/* Number of keys in the schema table, and key i (NULL past the end). */
COSROD_API size_t cosrod_sc_key_count(void);
COSROD_API const cosrod_sc_keyinfo *cosrod_sc_key_at(size_t i);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_SCENARIO_H */
