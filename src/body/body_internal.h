// SPDX-License-Identifier: Apache-2.0
/* Private structures of the body module (see include/cosrod/body.h). */
#ifndef COSROD_BODY_INTERNAL_H
#define COSROD_BODY_INTERNAL_H

#include <stdio.h>

#include "cosrod/body.h"
#include "cosrod/dense.h"
#include "cosrod/quat.h"
#include "cosrod/vec3.h"

#define MBS_NAME_MAX 64
/* Euler 3-1-3 angles are treated as locked when |sin th2| < this (the rates
 * grow like 1/sin th2, so integrators stall shortly before). */
#define COSROD_BODY_GIMBAL_TOL 1e-4

typedef struct mbs_body {
  char name[MBS_NAME_MAX];
  double mass;       /* [kg] */
  double inertia[3]; /* principal moments (internal frame) [kg m^2] */
  double euler[3];   /* Euler-tensor values E_k = tr/2 - I_k ([L] eq. 18) */
  double Q[9];       /* principal axes in the user frame (columns): R_int = R_user Q */
  cosrod_body_param param;
  int nr;       /* rotation coordinates: 4, 9, 3 */
  int qoff;     /* offset of x in y; r follows at qoff + 3 */
  int voff;     /* offset of v in y (-1 with NULLSPACE joints); rate follows at voff + 3 */
  int nv;       /* velocity entries of this body in y: 6 or 3 + nr */
  int absolute; /* 1: (v, rdot) state ([L] eq. 40 / 23) */
  double x0[3], r0[9], v0[3], om0[3]; /* initial state, internal frame (om0 material) */
  double R0[9];                       /* initial rotation (internal) */
} mbs_body;

/* One scalar joint constraint ([L] §5): kind 0: s.(c_b - c_a), s = R_a u;
 * kind 1: (R_a u).(R_b w) (w spatial for ground). */
typedef struct mbs_row {
  int kind;
  int joint;
  double u[3];
  double w[3];
} mbs_row;

typedef struct mbs_joint {
  cosrod_joint_type type;
  int body[2];     /* side a (a body), side b (body or -1) */
  double at[2][3]; /* points in the internal frames (ground: spatial) */
  int swapped;     /* 1 if sides were swapped (definition had ground first) */
  int row0, nrows;
} mbs_joint;

typedef struct mbs_load {
  int body;
  cosrod_body_load_kind kind;
  cosrod_body_load_frame frame;
  double at[3], value[3]; /* internal frame where body-fixed */
  cosrod_body_load_profile profile;
  double t0, t1;
} mbs_load;

typedef struct mbs_bushing {
  int body[2];
  double at[2][3];
  double k, c, k_rot, c_rot;
  double qa0[4], qb0[4]; /* initial unit quaternions of the internal frames (ground: 1) */
} mbs_bushing;

struct cosrod_mbs {
  size_t nb;
  mbs_body *bodies;
  size_t nl;
  mbs_load *loads;
  size_t nbu;
  mbs_bushing *bushings;
  size_t nj;
  mbs_joint *joints;
  int nc; /* constraint rows */
  mbs_row *rows;
  double gravity[3];
  cosrod_body_form body_form;
  cosrod_joint_form joint_form;
  double bg_omega, bg_r;
  int nq, n, nw, ndof;
  int *dep; /* (nc) dependent twist components at t = 0 (NULLSPACE joints) */
  int *ind; /* (ndof) independent twist components = nu at t = 0 */
  int time_dependent;
  size_t nkin; /* kinematic frames (cosrod_mbs_def.kin_fn) */
  cosrod_mbs_kin_fn kin_fn;
  void *kin_user;
  void (*kin_free)(void *user);
};

struct cosrod_mbs_data {
  const cosrod_mbs *m;
  double t;
  double *R;            /* (nb x 9) rotation matrices (internal frames) */
  double *w;            /* (nw) twists (v, Omega) per body */
  double *wd;           /* (nw) twist rates */
  double *h;            /* (nw) applied force F and material torque mu per body */
  double *hc;           /* (nw) constraint forces -J^T lambda */
  double *hext;         /* (nw) caller wrenches per body: spatial force, spatial torque about the
                           centre of mass (cosrod_mbs_set_wrench; rods attached to bodies) */
  double *Jc;           /* (nc x nw) column-major constraint Jacobian */
  double *gam;          /* (nc) gamma = Jdot w (+ the kinematic sides' J_b wdot_b) */
  double *gt;           /* (nc) dg/dt of rows with a kinematic side: J w + gt = 0 */
  double *g;            /* (nc) position residual */
  double *lam;          /* (nc) multipliers */
  double *T;            /* (nw x ndof) null-space matrix, column-major */
  double *bias;         /* (nw) Tdot nu */
  double *tmp;          /* (nw + nc + 16) scratch */
  double *tmp2;         /* (nw x max(ndof, nc)) scratch */
  cosrod_dense *S;      /* (nc) J M^-1 J^T or J_d */
  cosrod_dense *A;      /* (ndof) T^T M T */
  cosrod_dense *D15;    /* (15) director mass-constraint matrix ([L] eq. 23) */
  double *y1, *f0, *f1; /* (n) finite-difference scratch */
  double *dfj;          /* (3 x n) force derivative scratch (body_jac.c) */
  double *Jbuf;         /* (n x n) analytic Jacobian for the integrator adapter */
  double *kin;          /* (nkin x MBS_KIN_N) kinematic frames at d->t (mbs_kin_update) */
  /* null-space partition in use (copied from the model; changed by the
   * projection hook when J_d becomes ill-conditioned).  After a change at
   * t_switch, evaluations at t < t_switch (dense output inside the step just
   * accepted) still use the previous partition. */
  int *dep, *ind;         /* (nc), (ndof) current */
  int *dep_old, *ind_old; /* previous, valid while pending */
  int *dep_new, *ind_new; /* candidate */
  int pending;
  double t_switch;
  int *iw;                      /* (nw + nc + 2) partition scratch */
  double *wsave;                /* (nw) twists before a re-partition */
  const int *cur_dep, *cur_ind; /* the partition used by the current evaluation */
  long nrepartition;            /* number of changes of the partition */
  char msg[256];
  struct mbs_tan *tan; /* tangent workspace (body_tangent.c) */
};

/* body_kin.c: per-body parametrisation kernels */
void mbs_rotation(const mbs_body *b, const double *r, double R[9]);
int mbs_omega_from_rate(const mbs_body *b, const double *r, const double *rdot, double Om[3]);
int mbs_rate_from_omega(const mbs_body *b, const double *r, const double Om[3], double *rdot);
int mbs_abs_accel(const mbs_body *b, const double *r, const double *rdot, const double mu[3], double *rddot,
                  cosrod_dense *D15);
void mbs_project_body(const mbs_body *b, double *r, double *rdot);
void mbs_rotate_body(const mbs_body *b, double *r, const double dth[3]);
void mbs_quat_of(const mbs_body *b, const double *r, double q[4]);

/* body_joint.c */
void mbs_joint_rows(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y, int with_gamma);
int mbs_partition_select(int nc, int nw, const double *Jc, double *A, int *iw, int *dep, int *ind);
double mbs_partition_quality(const cosrod_mbs *m, cosrod_mbs_data *d, const int *dep);
int mbs_repartition(const cosrod_mbs *m, cosrod_mbs_data *d, double t, double *y);
void mbs_partition_reset(const cosrod_mbs *m, cosrod_mbs_data *d);
int mbs_nullspace(const cosrod_mbs *m, cosrod_mbs_data *d);
int mbs_solve_multipliers(const cosrod_mbs *m, cosrod_mbs_data *d);

/* body_jac.c: d(R a)/dr or d(R^T a)/dr (3 x nr); dp/dth of Euler 3-1-3 (4 x 3) */
void mbs_dR_apply(const mbs_body *b, const double *r, const double a[3], int transpose, double *D);
void mbs_dp_dth(double P[12], const double th[3]);

/* body_tangent.c: directional derivative of the right-hand side */
typedef struct mbs_tan mbs_tan;
mbs_tan *mbs_tan_create(const cosrod_mbs *m);
void mbs_tan_free(mbs_tan *tn, size_t nb);
int mbs_tan_prepare(const cosrod_mbs *m, cosrod_mbs_data *d, const double *y);
void mbs_tan_eval(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, const double *dy,
                  double *dydot);
int mbs_jac_tangent(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, double *J);
/* Unit quaternion of body i's internal frame (mbs_quat_of) and its tangent
 * for the direction dy (body_tangent.c). */
void mbs_quat_tan(const cosrod_mbs *m, const double *y, const double *dy, int i, double q[4], double dq[4]);
/* The twist tangents of the last mbs_tan_eval: (nw) v', Omega' per body. */
const double *mbs_tan_dw(const cosrod_mbs_data *d);

/* body_tangent_abs.c: tangents of the absolute formulations (eq. 40, eq. 23) */
void mbs_omega_from_rate_tan(const mbs_body *b, const double *r, const double *rd, const double *dr,
                             const double *drd, double dOm[3]);
void mbs_d15_constraints(double *A, const double *r); /* constraint block of the eq. 23 matrix (15 x 15) */
void mbs_d15_rhs(double rhs[15], const double *r, const double *rd, const double mu[3]);
void mbs_abs_accel_tan(const mbs_body *b, const double *x15, const cosrod_dense *D15, const double *r,
                       const double *rd, const double mu[3], const double *dr, const double *drd,
                       const double dmu[3], double *out);

/* body_eval.c */
int mbs_kinematics(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y);
void mbs_forces(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y);
double mbs_profile(cosrod_body_load_profile p, double t0, double t1, double t);
/* Kinematic frame of side i <= -2 at d->t: x (0..2), q (3..6), v (7..9),
 * spatial w (10..12), R (13..21, column-major), a (22..24), spatial
 * angular acceleration (25..27). */
#define MBS_KIN_N 28
void mbs_kin_update(const cosrod_mbs *m, cosrod_mbs_data *d, double t);
static inline const double *mbs_kin(const cosrod_mbs_data *d, int i) { return d->kin + MBS_KIN_N * (-2 - i); }

#endif
