// SPDX-License-Identifier: Apache-2.0
/* The definition of an assembled system (module system, private): rods'
 * attachments, rigid bodies, joints, bushings, contact and the settings the
 * system depends on, in the system's own terms.  Filled by the one
 * translation from a scenario (src/sim/sim_translate_sys.c); the system never
 * sees the scenario's types.  Arrays of keyframes and names are borrowed
 * from the translation's input and must outlive the definition. */
#ifndef COSROD_SYSTEM_DEF_H
#define COSROD_SYSTEM_DEF_H

#include <stddef.h>

#include "cosrod/body.h"
#include "cosrod/contact.h"
#include "cosrod/rod.h"

/* The analysis the system is assembled for (its layouts, refusals and
 * statics blocks depend on it). */
typedef enum sys_analysis {
  SYS_ANALYSIS_DYNAMIC,
  SYS_ANALYSIS_STATIC,
  SYS_ANALYSIS_MODES,
  SYS_ANALYSIS_BUCKLING
} sys_analysis;

/* Constraint stabilisation after steps. */
typedef enum sys_stabilisation { SYS_STAB_PROJECTION, SYS_STAB_BAUMGARTE, SYS_STAB_NONE } sys_stabilisation;

/* Linear solver of implicit methods with bodies or contact (linsolve.c). */
typedef enum sys_linear_solver { SYS_LINSOLVE_AUTO, SYS_LINSOLVE_BAND, SYS_LINSOLVE_SPARSE } sys_linear_solver;

/* Keyframes: n times t and n x dim values (row-major), borrowed. */
typedef struct sys_keyframes {
  size_t n;
  const double *t;
  const double *values;
} sys_keyframes;

/* A rod end's attachment to a body (body -1: none). */
typedef struct sys_end {
  int body;        /* index into bodies, or -1 */
  double at[3];    /* attachment point in the body frame [m] */
  int has_frame;   /* the end frame in the body frame is given */
  double frame[4]; /* that frame (unit quaternion) */
} sys_end;

/* What the system needs of a rod beyond its model (cosrod_rod). */
typedef struct sys_rod {
  double length;          /* stress-free length [m] */
  double radius;          /* contact radius of the section [m] */
  double tension;         /* estimated largest tension [N] for the contact's auto wrap stiffness */
  int kirchhoff;          /* a Kirchhoff (constrained) rod */
  const char *model_name; /* for messages */
  sys_end ends[2];
} sys_rod;

/* A rigid body: its definition (include/cosrod/body.h: mass, principal
 * inertia, initial pose and velocity with material ω, parametrisation),
 * loads (body index unused) and, for a body driven by keyframes
 * (kinematic), its motion. */
typedef struct sys_body {
  cosrod_body_def body;
  size_t nloads;
  const cosrod_body_load_def *loads;
  int has_motion;
  sys_keyframes motion_position;    /* (dim 3) */
  sys_keyframes motion_orientation; /* (dim 4) unit quaternions */
  int motion_cubic;
} sys_body;

/* A joint (bushing 0, type) or a bushing (bushing 1: spring-damper). */
typedef struct sys_joint {
  int bushing;
  cosrod_joint_type type;
  int body[2]; /* -1: ground */
  double at[2][3], axis[3], axis2[3];
  double stiffness, damping, stiffness_rot, damping_rot;
} sys_joint;

/* An obstacle or a body's collision shape. */
typedef struct sys_obstacle {
  cosrod_shape shape;
  const char *file; /* mesh: its file, else NULL */
  cosrod_pose pose;
  int body;       /* carrying body, or -1 */
  int body_shape; /* the shape of body `body` (messages) */
  int has_motion;
  sys_keyframes motion_position, motion_orientation;
  int motion_cubic;
} sys_obstacle;

typedef struct sys_contact {
  int enabled;
  cosrod_contact_law law;
  int rods, self, quadrature;
  size_t nobstacles;
  const sys_obstacle *obstacles;
} sys_contact;

/* The error "FILE:LINE: key: problem" of the translation's input. */
typedef void (*sys_error_fn)(const void *ctx, const char *key, const char *problem, char *err, size_t errlen);

typedef struct sys_def {
  double gravity[3];
  sys_analysis analysis;
  int start_from_equilibrium;
  double t_end;
  cosrod_rod_form formulation;
  sys_stabilisation stabilisation;
  double baumgarte_omega, baumgarte_r;
  int galpha;      /* integrator generalized-α */
  double h;        /* its fixed step (0: adaptive) */
  double rho_inf;  /* its spectral radius at infinity */
  int realtime;    /* galpha real-time mode (fixed step h): Newton iterations and Jacobians per step */
  int rt_newton_max, rt_jac_budget;
  sys_linear_solver linear_solver;
  size_t nrods;
  const sys_rod *rods;
  size_t nbodies;
  const sys_body *bodies;
  size_t njoints;
  const sys_joint *joints;
  sys_contact contact;
  sys_error_fn error;
  const void *error_ctx;
} sys_def;

/* The error of key with the problem in err (nothing if err is NULL). */
static inline void sys_error(const sys_def *d, const char *key, const char *problem, char *err, size_t errlen) {
  if (err && errlen) d->error(d->error_ctx, key, problem, err, errlen);
}

/* system_err.c: the error of key with the problem (printf format) in err. */
void sys_set_err(char *err, size_t errlen, const sys_def *d, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif /* COSROD_SYSTEM_DEF_H */
