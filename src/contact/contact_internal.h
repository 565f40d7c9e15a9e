// SPDX-License-Identifier: Apache-2.0
/* Internal declarations of the contact module (not installed). */
#ifndef COSROD_CONTACT_INTERNAL_H
#define COSROD_CONTACT_INTERNAL_H

#include "cosrod/contact.h"

/* Signed distance in the shape's local frame: value, gradient g[3] and
 * Hessian H[9] (column-major), both always written. */
typedef double (*contact_sdf_fn)(const cosrod_shape *shape, const double p[3], double g[3], double H[9]);

/* The narrow-phase table, indexed by cosrod_shape_type. */
extern const contact_sdf_fn cosrod_contact_sdf_table[COSROD_SHAPE_COUNT];

double cosrod_contact_sdf_mesh(const cosrod_shape *shape, const double p[3], double g[3], double H[9]);
/* Minimum unsigned distance from segment [a, b] (local frame) to the mesh. */
double cosrod_contact_mesh_segment_closest(double *t, const cosrod_mesh *mesh, const double a[3],
                                           const double b[3]);
/* Local bounding box of a mesh. */
void cosrod_contact_mesh_bounds(const cosrod_mesh *mesh, double lo[3], double hi[3]);

/* Closest point on triangle (a, b, c) to p: writes q and returns the feature:
 * 0 face interior, 1..3 edge (ab, bc, ca), 4..6 vertex (a, b, c). */
int cosrod_contact_point_triangle(double q[3], const double p[3], const double a[3], const double b[3],
                                  const double c[3]);

/* 3x3 helpers (column-major). */
static inline void m3_zero(double A[9]) {
  for (int i = 0; i < 9; ++i) A[i] = 0.0;
}
/* A = alpha (I - sum of outer products is done by callers) */
static inline void m3_outer_add(double A[9], double alpha, const double a[3], const double b[3]) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) A[r + 3 * c] += alpha * a[r] * b[c];
}
static inline void m3_identity_add(double A[9], double alpha) {
  A[0] += alpha;
  A[4] += alpha;
  A[8] += alpha;
}
static inline void m3_vec(double y[3], const double A[9], const double x[3]) {
  double t0 = A[0] * x[0] + A[3] * x[1] + A[6] * x[2];
  double t1 = A[1] * x[0] + A[4] * x[1] + A[7] * x[2];
  double t2 = A[2] * x[0] + A[5] * x[1] + A[8] * x[2];
  y[0] = t0;
  y[1] = t1;
  y[2] = t2;
}
/* C = A B (C must not alias) */
static inline void m3_mul(double C[9], const double A[9], const double B[9]) {
  for (int c = 0; c < 3; ++c) m3_vec(C + 3 * c, A, B + 3 * c);
}
/* y = A^T x */
static inline void m3_tvec(double y[3], const double A[9], const double x[3]) {
  double t0 = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
  double t1 = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
  double t2 = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
  y[0] = t0;
  y[1] = t1;
  y[2] = t2;
}

/* Per-rod effective parameters. */
typedef struct contact_rod_m {
  int nv, nseg;
  double radius, k, delta, c, kt, excl; /* law after "auto"; self-exclusion arc [m] */
  double krr, crr;                      /* rod-rod / self-contact stiffness and damping per length */
  double *sref;                         /* (nv) */
  int seg0;                             /* global index of segment 0 */
  size_t slot0;                         /* first friction slot: (seg * nobs + obstacle) * nq + point */
} contact_rod_m;

struct cosrod_contact_model {
  int nrods, nobs, nq, nseg;
  contact_rod_m *rods;
  cosrod_contact_obstacle *obs;
  double mu_s, mu_k;
  double vstick; /* rod-rod friction regularisation velocity [m/s] */
  int rods_contact, self_contact;
  double margin, rmax;
  double gx[8], gw[8]; /* Gauss points on [0, 1] and weights */
  size_t nslots;
};

struct cosrod_contact_data {
  cosrod_pose *pose; /* (nobs) */
  double *wrench;    /* (nobs x 6) F, M */
  /* friction slots (nslots): committed anchor (obstacle frame) and state
   * (0 none, 1 stick, 2 slip), and the trial of the last evaluation */
  double *anchor, *trial_anchor;
  unsigned char *state, *trial_state;
  /* broad phase over all segments (nseg) */
  int *cell;   /* (nseg x 3) */
  double *box; /* (nseg x 6) inflated AABB */
  int *bucket; /* (nbucket + 1) starts */
  int *entry;  /* (nseg) segments sorted by bucket */
  size_t nbucket;
  double h; /* cell size */
  /* results */
  cosrod_contact_block *blocks;
  size_t nblocks, capblocks;
  cosrod_contact_pose_block *pblocks;
  size_t npblocks, cappblocks;
  cosrod_contact_point *points;
  size_t npoints, cappoints;
  double energy, power;
  size_t ncand, nactive;
  size_t nmissed; /* segment-obstacle pairs penetrating between the Gauss points only */
  double max_pen; /* max penetration / radius */
  int want_jac;
};

/* contact_eval.c */
int cosrod_contact_obstacles(const cosrod_contact_model *m, cosrod_contact_data *d, const double *const *x,
                             const double *const *v, double *const *f);
int cosrod_contact_pair(const cosrod_contact_model *m, cosrod_contact_data *d, int ra, int i, int rb, int j,
                        const double *const *x, const double *const *v, double *const *f);
cosrod_contact_block *cosrod_contact_block_push(cosrod_contact_data *d);
cosrod_contact_point *cosrod_contact_point_push(cosrod_contact_data *d);
cosrod_contact_pose_block *cosrod_contact_pose_block_push(cosrod_contact_data *d);
/* contact_broad.c */
int cosrod_contact_broad_rods(const cosrod_contact_model *m, cosrod_contact_data *d, const double *const *x,
                              const double *const *v, double *const *f);

#endif /* COSROD_CONTACT_INTERNAL_H */
