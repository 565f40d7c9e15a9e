// SPDX-License-Identifier: Apache-2.0
/* Rigid multibody systems (module body, [L]): bodies, gravity, loads,
 * spring-damper bushings and joints, in the parametrisations and
 * formulations of [L].
 *
 * Model / data split (STYLE §3): cosrod_mbs is the constant model built once
 * from a cosrod_mbs_def; cosrod_mbs_data is the mutable workspace of one
 * evaluation thread (all memory allocated by _create, nothing in the time
 * loop).  Every kernel takes (const cosrod_mbs *, cosrod_mbs_data *).
 *
 * Conventions.  SI units.  Each body has its centre of mass x (spatial,
 * [m]), a rotation R whose columns are the PRINCIPAL axes d^1, d^2, d^3 of
 * inertia (if a full tensor is given, the principal axes are computed and
 * all body-frame inputs/outputs are converted: see cosrod_body_def), the
 * translational velocity v = xdot (spatial, [m/s]) and the material angular
 * velocity Omega (principal body frame, [1/s], R^T Rdot = E(Omega)).
 *
 * Rotation parametrisations ([L] §3, §4, §7):
 *   quaternion  p (4),     |p| = 1 internal constraint,  R = R(p) (eq. 26)
 *   directors   d (9),     R = (d^1|d^2|d^3) column-major, 6 constraints (eq. 19)
 *   euler313    th (3),    R = Rz(th1) Rx(th2) Rz(th3), no constraint (eq. 66),
 *                          singular at sin th2 = 0 (gimbal lock: fatal failure)
 * Body formulations:
 *   NULLSPACE  velocities (v, Omega): pdot = 1/2 p Omega (eq. 42, the pull-back
 *              T_p = Dphi^# T_d of Lemma 5.1, eq. 53), Rdot = R E(Omega) (eq. 25),
 *              thdot = T_th(th) Omega (eq. 66); J Omegadot = mu - Omega x J Omega.
 *   ABSOLUTE   velocities (v, rdot) of the redundant coordinates, index-0
 *              forms eq. 40 (quaternion) and eq. 23 (directors, 15x15 LU).
 *              Euler angles always use (th, Omega).
 * Joint formulations (joints couple the bodies; bushings and loads do not):
 *   NULLSPACE    independent quasi-velocities nu = selected components of the
 *                body twists w = (v_1, Omega_1, ..., v_L, Omega_L) (coordinate
 *                partitioning at t = 0, as [L] Example C: nu = (xdot_1,
 *                Omega_1, Omega_2), re-chosen by the projection hook when
 *                J_d becomes ill-conditioned); w = T(q) nu with J T = 0,
 *                T^T M T nudot = T^T (h - M Tdot nu).  Needs body NULLSPACE.
 *   MULTIPLIERS  all body velocities are states; the joint multipliers solve
 *                [M J^T; J 0] [wdot; lambda] = [h; -gamma - baumgarte] (handles
 *                closed loops; with body ABSOLUTE the resulting constraint
 *                forces enter eq. 40 / eq. 23 as applied forces).
 * Joint constraints ([L] §5, Table 2) between side 0 (body a) and side 1
 * (body b or ground) are built from two primitives: s.(c_b - c_a) = 0 with a
 * side-0-fixed unit vector s and the joint points c, and (R_a u).(R_b w) = 0:
 *   spherical 3, revolute 5, prismatic 5, cylindrical 4, universal 4,
 *   planar 3, fixed 6 constraints.
 *
 * State vector y (n): positions first, then velocities:
 *   [x_1, r_1, ..., x_L, r_L | velocities]
 *   r_b: 4 (quaternion), 9 (directors), 3 (euler) entries;
 *   velocities: NULLSPACE joints: nu (ndof); otherwise per body (v_b, Omega_b)
 *   (6) or, body ABSOLUTE, (v_b, rdot_b) (3 + nr).
 * Offsets: cosrod_mbs_pos_offset / cosrod_mbs_vel_offset. */
#ifndef COSROD_BODY_H
#define COSROD_BODY_H

#include "cosrod/export.h"

#include <stddef.h>

#include "cosrod/integrate.h"
#include "cosrod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cosrod_body_param {
  COSROD_BODY_QUATERNION = 0,
  COSROD_BODY_DIRECTORS = 1,
  COSROD_BODY_EULER313 = 2
} cosrod_body_param;

typedef enum cosrod_body_form { COSROD_BODY_NULLSPACE = 0, COSROD_BODY_ABSOLUTE = 1 } cosrod_body_form;

typedef enum cosrod_joint_form {
  COSROD_JOINTS_NULLSPACE = 0,
  COSROD_JOINTS_MULTIPLIERS = 1
} cosrod_joint_form;

typedef enum cosrod_joint_type {
  COSROD_JOINT_SPHERICAL = 0,
  COSROD_JOINT_REVOLUTE,
  COSROD_JOINT_PRISMATIC,
  COSROD_JOINT_CYLINDRICAL,
  COSROD_JOINT_UNIVERSAL,
  COSROD_JOINT_PLANAR,
  COSROD_JOINT_FIXED
} cosrod_joint_type;

typedef enum cosrod_body_load_kind {
  COSROD_BODY_LOAD_FORCE = 0,
  COSROD_BODY_LOAD_MOMENT = 1
} cosrod_body_load_kind;
typedef enum cosrod_body_load_frame {
  COSROD_BODY_LOAD_SPATIAL = 0,
  COSROD_BODY_LOAD_BODY = 1
} cosrod_body_load_frame;
typedef enum cosrod_body_load_profile {
  COSROD_BODY_LOAD_CONSTANT = 0,
  COSROD_BODY_LOAD_RAMP = 1,  /* 0 before t0, linear to 1 on [t0, t1], 1 after */
  COSROD_BODY_LOAD_ACTIVE = 2 /* 1 on [t0, t1], 0 elsewhere */
} cosrod_body_load_profile;

/* A rigid body.  "Body frame" below is the user's frame (in which points and
 * the tensor are given); if full_tensor is set the internal frame is the
 * principal frame R_int = R_user Q (Q: principal axes in the user's frame). */
typedef struct cosrod_body_def {
  const char *name;     /* used in messages (may be NULL) */
  double mass;          /* [kg] > 0 */
  double inertia[3];    /* principal moments about the centre of mass [kg m^2] (full_tensor == 0) */
  int full_tensor;      /* 1: use tensor[] instead of inertia[] */
  double tensor[9];     /* symmetric inertia tensor in the body frame [kg m^2], column-major */
  double position[3];   /* centre of mass [m] */
  double quaternion[4]; /* orientation of the body frame (unit, scalar first) */
  double velocity[3];   /* of the centre of mass [m/s] */
  double omega[3];      /* angular velocity [1/s]: body-frame components, or spatial if omega_spatial */
  int omega_spatial;    /* 1: omega[] has spatial components */
  cosrod_body_param param;
} cosrod_body_def;

/* A force or moment on a body, value(t) = value * profile(t). */
typedef struct cosrod_body_load_def {
  int body;
  cosrod_body_load_kind kind;
  cosrod_body_load_frame frame; /* SPATIAL: dead load; BODY: follower (body-frame components) */
  double at[3];    /* force: point of application in the body frame [m] (from the centre of mass) */
  double value[3]; /* [N] or [N m] */
  cosrod_body_load_profile profile;
  double t0, t1; /* [s] */
} cosrod_body_load_def;

/* Spring-damper bushing between point at[0] of body[0] and point at[1] of
 * body[1] (body index -1 = ground, at[] then spatial; COSROD_MBS_KIN(k): a
 * kinematic frame, at[] in it): force
 * -k (c0 - c1) - c (c0dot - c1dot) on body 0 at c0 (opposite on body 1), and
 * a rotational spring-damper -k_rot theta - c_rot (omega_0 - omega_1) on
 * body 0 with theta the rotation vector of R_0 R_0(0)^T (R_1 R_1(0)^T)^T. */
/* Kinematic (prescribed-motion) frames: side index COSROD_MBS_KIN(k) =
 * -2 - k of a bushing or joint names frame k of cosrod_mbs_def.kin_fn, a
 * rheonomic side (e.g. a body driven by keyframes): its pose at t is the
 * callback's, not a state; at[] (and a joint's axes given in it) are then in
 * that frame.  Joints on such a frame need MULTIPLIERS: g(q, t) with its
 * explicit time derivative in the velocity constraint and the frame's
 * acceleration in gamma ([L] eq. 4).  Callback: centre x (3), unit
 * quaternion q (4, scalar first), velocity v (3), spatial angular velocity
 * w (3), acceleration a (3) and spatial angular acceleration al (3) of
 * frame k at t. */
#define COSROD_MBS_KIN(k) (-2 - (k))
typedef void (*cosrod_mbs_kin_fn)(void *user, int k, double t, double x[3], double q[4], double v[3],
                                  double w[3], double a[3], double al[3]);

typedef struct cosrod_bushing_def {
  int body[2];
  double at[2][3];     /* [m] */
  double k, c;         /* [N/m], [N s/m] */
  double k_rot, c_rot; /* [N m/rad], [N m s/rad] */
} cosrod_bushing_def;

/* A joint between body[0] (side a, must be a body) and body[1] (side b, a
 * body, -1 = ground or COSROD_MBS_KIN(k), MULTIPLIERS only; either order).  at[k]: joint point in body k's frame (ground:
 * spatial).  axis: unit axis in body[0]'s frame (revolute, prismatic,
 * cylindrical, planar: the normal, universal: first axis); axis2: universal
 * second axis in body[1]'s frame (must be orthogonal to axis at t = 0).
 * The initial relative orientation is kept by the rotational constraints. */
typedef struct cosrod_joint_def {
  cosrod_joint_type type;
  int body[2];
  double at[2][3];
  double axis[3];
  double axis2[3];
} cosrod_joint_def;

/* One constraint row of a joint ([L] Table 2), with a = side 0 and b =
 * side 1 (ground: identity), c = x + R ρ the joint points:
 *   kind 0  g = (R_a u)·(c_b - c_a)   (translations),
 *   kind 1  g = (R_a u)·(R_b w)       (relative rotations);
 * u in a's frame, w in b's frame. */
typedef struct cosrod_joint_row {
  int kind;
  double u[3], w[3];
} cosrod_joint_row;

/* The rows of a joint of the given type (at most 6, returned count):
 * axis (unit, a's frame; spherical and fixed: any unit vector), axis2
 * (universal: b's frame), Rba = R_b0ᵀ R_a0 (3 x 3 column-major) the initial
 * relative orientation, whose side-b images w = Rba v of side-a vectors
 * keep it.  The one table of cosrod_mbs (body.c) and of the statics system
 * (src/sim/sim_couple_joint_static.c). */
COSROD_API int cosrod_joint_rows(cosrod_joint_type type, const double axis[3], const double axis2[3], const double Rba[9],
                                 cosrod_joint_row rows[6]);

typedef struct cosrod_mbs_def {
  size_t nbodies;
  const cosrod_body_def *bodies;
  size_t nloads;
  const cosrod_body_load_def *loads;
  size_t nbushings;
  const cosrod_bushing_def *bushings;
  size_t njoints;
  const cosrod_joint_def *joints;
  double gravity[3]; /* [m/s^2] */
  cosrod_body_form body_form;
  cosrod_joint_form joint_form;
  double baumgarte_omega, baumgarte_r; /* MULTIPLIERS: gddot + 2 r gdot + omega^2 g = 0; 0, 0 = none */
  /* kinematic frames (bushing sides COSROD_MBS_KIN(k), k < nkin); kin_free
   * (may be NULL) releases kin_user with the model (ownership passes to
   * cosrod_mbs_create, also when it fails) */
  size_t nkin;
  cosrod_mbs_kin_fn kin_fn;
  void *kin_user;
  void (*kin_free)(void *user);
} cosrod_mbs_def;

typedef struct cosrod_mbs cosrod_mbs;
typedef struct cosrod_mbs_data cosrod_mbs_data;

/* Build the model.  Validates the definition (masses, inertias, indices,
 * axes) and the initial joint configuration (the joint constraints must hold
 * to 1e-8 relative; velocities are made consistent by projection onto the
 * velocity constraint).  On failure NULL, *status (may be NULL) and the
 * one-line cosrod_last_error() (status.h). */
COSROD_API cosrod_mbs *cosrod_mbs_create(const cosrod_mbs_def *def, cosrod_status *status);
COSROD_API void cosrod_mbs_free(cosrod_mbs *m);

/* Workspace of one evaluation thread of m (NULL when out of memory, status
 * and cosrod_last_error() as in status.h); _free releases it. */
COSROD_API cosrod_mbs_data *cosrod_mbs_data_create(const cosrod_mbs *m, cosrod_status *status);
COSROD_API void cosrod_mbs_data_free(cosrod_mbs_data *d);

/* Sizes. */
COSROD_API int cosrod_mbs_n(const cosrod_mbs *m);       /* state dimension */
COSROD_API int cosrod_mbs_nq(const cosrod_mbs *m);      /* position block length (y[0 .. nq-1]) */
COSROD_API int cosrod_mbs_ndof(const cosrod_mbs *m);    /* mechanical degrees of freedom 6L - nc */
COSROD_API int cosrod_mbs_nconstr(const cosrod_mbs *m); /* joint constraints nc */
COSROD_API size_t cosrod_mbs_nbodies(const cosrod_mbs *m);
COSROD_API int cosrod_mbs_pos_offset(const cosrod_mbs *m, size_t b); /* of x_b in y */
COSROD_API int cosrod_mbs_vel_offset(const cosrod_mbs *m, size_t b); /* of v_b in y, or -1 (NULLSPACE joints) */
COSROD_API cosrod_body_param cosrod_mbs_body_param(const cosrod_mbs *m, size_t b);

/* Initial state y0 (n). */
COSROD_API void cosrod_mbs_initial_state(const cosrod_mbs *m, double *y0);

/* Right-hand side ydot (n) = f(t, y (n)).  Returns 0, or -1 (fatal: gimbal
 * lock of an euler-angle body, singular joint partition or non-finite
 * forces; cosrod_mbs_data_message says what, where and when). */
COSROD_API int cosrod_mbs_rhs(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *ydot);

/* Extra wrench on body b used by every later evaluation with d (rhs, joint
 * reactions): spatial force F [N] at the centre of mass and spatial torque
 * tau [N m] about it (e.g. the reactions of rods attached to the body);
 * zero after cosrod_mbs_data_create.  cosrod_mbs_jac treats it as a
 * constant spatial wrench (the body components of tau move with R_b); not
 * in cosrod_mbs_power (the caller accounts for its power). */
COSROD_API void cosrod_mbs_set_wrench(cosrod_mbs_data *d, size_t b, const double F[3], const double tau[3]);

/* Analytic dense Jacobian J (n x n, column-major, ld n) of f for every
 * model: closed-form partials for null-space bodies without joints,
 * gravity, loads and translational bushings (body_jac.c); joints in both
 * formulations, absolute bodies ([L] eq. 40 / 23) and rotational bushings
 * by n exact directional derivatives of the right-hand side
 * (body_tangent.c).  Returns 0 or -1 (as rhs). */
COSROD_API int cosrod_mbs_jac(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J);

/* Derivative of every body's pose in the user frame (as
 * cosrod_mbs_body_state: x, q, v, Omega; 13 rows) with respect to y:
 * P (nb x 13 x n), body b's block column-major 13 x n at P + 13 n b.
 * Exact tangents of the parametrisation and of the twists (as
 * cosrod_mbs_jac); evaluates f at (t, y).  Returns 0 or -1 (as rhs). */
COSROD_API int cosrod_mbs_pose_jac(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *P);

/* Dense Jacobian J (n x n, column-major, ld n) of f by central differences
 * of the whole right-hand side (step h relative to max(1, |y_j|)); the
 * implicit integrators use their own finite differences otherwise. */
COSROD_API int cosrod_mbs_jac_fd(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J,
                                 double h);

/* Projection after an accepted step ([L] §6): quaternion p <- p/|p| (and
 * pdot tangential, eq. 63); directors by Spurrier-Klumpp (§6 (P), (V));
 * joint positions by Gauss-Newton onto g = 0 (and, MULTIPLIERS, the body
 * velocities onto the velocity constraint).  Returns 0 or -1. */
COSROD_API int cosrod_mbs_project(const cosrod_mbs *m, cosrod_mbs_data *d, double t, double *y);

/* Fill an integrate.h problem (n, f, project, and the analytic dense
 * Jacobian cosrod_mbs_jac) for d; d must outlive the
 * problem.  Sets time_dependent if some load has a profile. */
COSROD_API void cosrod_mbs_ode_problem(cosrod_ode_problem *p, cosrod_mbs_data *d);

/* generalized-α (body_galpha.c): the Lie-group structure of the model on
 * top of cosrod_mbs_ode_problem: lie_nq = nq, the increment q ⊕ w
 * (null-space bodies on R³ x SO(3); absolute bodies on the vector space;
 * null-space joints through w -> T(q) w + ½ Ṫ(q, w) w) and the tangent
 * Jacobians K, C from cosrod_mbs_jac (dense). */
COSROD_API void cosrod_mbs_lie_problem(cosrod_ode_problem *p, cosrod_mbs_data *d);
/* qn (nq) <- q (nq) ⊕ w (n - nq); qn must not alias q.  0 or -1 (gimbal lock,
 * singular joint partition). */
COSROD_API int cosrod_mbs_increment(const cosrod_mbs *m, cosrod_mbs_data *d, const double *q, const double *w, double *qn);

/* Pose and twist of body b in the USER body frame: x (3), q (4, unit,
 * scalar first), v (3) spatial, Omega (3) body frame. */
COSROD_API void cosrod_mbs_body_state(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, size_t b, double x[3],
                                      double q[4], double v[3], double Omega[3]);

/* Energies at (t, y): kinetic, gravity potential (-m g.x summed), elastic
 * (bushing springs) [J]. */
COSROD_API void cosrod_mbs_energy(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *kinetic,
                                  double *gravity, double *elastic);

/* Power [W] of the applied loads (external work rate) and of the bushing
 * dampers (dissipation rate, >= 0) at (t, y). */
COSROD_API void cosrod_mbs_power(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *p_ext,
                                 double *p_diss);

/* Joint reactions at (t, y): for each joint the force and moment (6) that the
 * joint exerts on body[0], spatial frame, moment about body[0]'s joint point.
 * R (6 njoints). */
COSROD_API int cosrod_mbs_joint_reactions(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *R);

/* Joint constraint residuals: position g (nc) and velocity gdot (nc). */
COSROD_API void cosrod_mbs_constraints(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, double *g,
                                       double *gdot);

/* Last failure message ("" if none). */
COSROD_API const char *cosrod_mbs_data_message(const cosrod_mbs_data *d);

/* Number of changes of the null-space partition since the last
 * cosrod_mbs_ode_problem (the projection hook re-partitions when the
 * dependent block J_d becomes ill-conditioned and converts nu so that the
 * motion is unchanged; dense output inside that step still uses the previous
 * partition). */
COSROD_API long cosrod_mbs_data_repartitions(const cosrod_mbs_data *d);
/* The null-space partition in use: the nconstr dependent and ndof
 * independent twist indices (the meaning of nu in y; restart data of a
 * resumed run): index k < nconstr of dep, else of ind (k - nconstr).  set:
 * replaces it (no re-partition pending), -1 if dep and ind are not together
 * a permutation of the twist indices. */
COSROD_API int cosrod_mbs_data_partition(const cosrod_mbs_data *d, int k);
COSROD_API int cosrod_mbs_data_set_partition(cosrod_mbs_data *d, const int *dep, const int *ind);

/* Semi-axes a (3) [m] of the uniform solid ellipsoid with this mass [kg]
 * and principal inertias [kg m^2] (I_1 = m (a_2^2 + a_3^2) / 5, ...); the
 * inertia ellipsoid drawn for a body in the VTK output (body_shape.c). */
COSROD_API void cosrod_body_inertia_ellipsoid(double mass, const double inertia[3], double semi[3]);

/* Inertia ellipsoid of body b: semi-axes (3) along the principal axes, and
 * q_axes (4, may be NULL): the rotation from the user body frame to the
 * principal axes (identity unless a full tensor was given). */
COSROD_API void cosrod_mbs_body_ellipsoid(const cosrod_mbs *m, size_t b, double semi[3], double q_axes[4]);

/* Name of a parametrisation ("quaternion", "directors", "euler-angles"). */
COSROD_API const char *cosrod_body_param_name(cosrod_body_param p);

#ifdef __cplusplus
}
#endif
#endif /* COSROD_BODY_H */
