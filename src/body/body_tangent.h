// SPDX-License-Identifier: Apache-2.0
/* Shared by the tangent of the multibody right-hand side (body_tangent.c:
 * workspace and driver; body_tangent_stages.c: side points, joint rows and
 * forces): the workspace, one side of a joint or bushing and the small
 * product-rule helpers. */
#ifndef COSROD_BODY_TANGENT_H
#define COSROD_BODY_TANGENT_H

#include "body_internal.h"

/* One side of a joint or bushing: values at the base point (set once per
 * Jacobian by mbs_tan_prepare) and tangents (per direction). */
typedef struct tside {
  int body;
  const double *R, *dR;                      /* rotation and its tangent (ground: I, 0) */
  double at[3];                              /* body-fixed point (ground: spatial) */
  double x[3], r[3], c[3], v[3], om[3];      /* values: centre, lever R at, point, v, R Omega */
  double dx[3], dr[3], dc[3], dv[3], dom[3]; /* tangents */
} tside;

struct mbs_tan {
  double *dRdr;        /* (nb x 81) d vec(R_b) / d r_b, (9 x nr) column-major */
  double *dR;          /* (nb x 9) R_b' */
  double *dw;          /* (nw) w' */
  double *dh;          /* (nw) applied-force tangent h' */
  double *dht;         /* (nw) h_tot' = h' + gyroscopic' */
  double *htot;        /* (nw) h_tot at the base point */
  double *wd;          /* (nw) wdot at the base point */
  double *lam;         /* (nc) lambda (MULTIPLIERS) or mu (NULLSPACE) */
  double *dJ;          /* (nc x nw) J' */
  double *dg, *dgam;   /* (nc) g', gamma' */
  double *dgt;         /* (nc) g_t' (rows with a kinematic side) */
  double *v1, *v2;     /* (nw + nc) scratch */
  double *x15;         /* (nb x 15) director solutions [rddot; multipliers] */
  cosrod_dense **D15;  /* (nb) LU of the eq. 23 matrix (absolute director bodies) */
  cosrod_dense *JdT;   /* (nc) LU of J_d^T (NULLSPACE) */
  int *pact, *act;     /* (nb) body has a nonzero position tangent / any tangent */
  double *mass, *minv; /* (nw) diagonal of M (m, m, m, I1, I2, I3 per body) and its inverse */
  tside *js;           /* (2 nj) joint sides */
  tside *bs;           /* (2 nbu) bushing sides */
};

static inline void mat_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  double b = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  double c = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

static inline void matT_vec(double r[3], const double R[9], const double v[3]) {
  double a = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  double b = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  double c = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
  cosrod_vec3_set(r, a, b, c);
}

/* (a x b)' = a' x b + a x b' */
static inline void dcross(double r[3], const double a[3], const double da[3], const double b[3],
                          const double db[3]) {
  double t[3], u[3];
  cosrod_vec3_cross(t, da, b);
  cosrod_vec3_cross(u, a, db);
  cosrod_vec3_add(r, t, u);
}

static inline double ddot(const double a[3], const double da[3], const double b[3], const double db[3]) {
  return cosrod_vec3_dot(da, b) + cosrod_vec3_dot(a, db);
}

/* (R^T b)' = R'^T b + R^T b' */
static inline void dmatT(double r[3], const double R[9], const double dR[9], const double b[3],
                         const double db[3]) {
  double t[3], u[3];
  matT_vec(t, dR, b);
  matT_vec(u, R, db);
  cosrod_vec3_add(r, t, u);
}

/* Stage 1/3: values of side s at the base point (body -1: ground, <= -2:
 * kinematic frame) and its tangents for direction dy (velocities if vel). */
void mbs_tside_values(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *y, int body,
                      const double at[3], tside *s);
void mbs_tside_tangent(const cosrod_mbs *m, const cosrod_mbs_data *d, const double *dy, tside *s, int vel);
/* Stage 2: row tangents (mode 1: g' and J'; 2: gamma'; 3: both). */
void mbs_tan_rows(const cosrod_mbs *m, cosrod_mbs_data *d, int mode);
/* Stage 3: applied-force tangent h' and h_tot' (gyroscopic term included). */
void mbs_tan_forces(const cosrod_mbs *m, cosrod_mbs_data *d, double t, const double *y, const double *dy);

#endif
