// SPDX-License-Identifier: Apache-2.0
/* Shared rig of the rod Jacobian tests (test_rod_jac.c, test_rod_order.c):
 * random non-uniform rods with every curvature variant, damping, end type
 * and load kind, large-deformation states in every formulation, and a dense
 * central-difference reference Jacobian of any vector function of the state.
 * Implemented in rod_jac_test_util.c (link it into the test). */
#ifndef COSROD_ROD_JAC_TEST_UTIL_H
#define COSROD_ROD_JAC_TEST_UTIL_H

#include <stdint.h>

#include "rod_test_util.h"

typedef struct rod_case {
  cosrod_curvature curv;
  int damped;
  cosrod_end_kind end0, end1;
  int slide0, slide1;
  int loads; /* 1: follower + spatial + distributed loads */
  int N;
  uint64_t seed;
} rod_case;

typedef struct rig {
  cosrod_rod *rod;
  cosrod_rod_data *d;
  int N, nq;
  double *x, *p, *xd, *Om, *s, *pts;
  cosrod_rod_load ld[6];
  double pos[2][8], rot[2][10];
} rig;

/* Non-zero: rig_make adds medium damping c_t = 0.8 N s/m^2, c_r = 2e-4 N s
 * (rod_medium.c) to every rod it makes (default 0). */
extern int rig_medium_damping;

/* Create the rod of case c with its reference and current configuration
 * (random, seeded by c->seed) in g; CHECK-fails if the rod is refused. */
void rig_make(rig *g, const rod_case *c);
void rig_free(rig *g);
/* y of the formulation at the rig's state (t = 0.5), calloc'ed (ny); non-unit
 * p (|p| in 0.95..1.05) and <p, ṗ> != 0 so that the normal / Baumgarte terms
 * matter. */
double *rig_state(rig *g, cosrod_rod_form form, uint64_t seed);

/* Generic function for the dense FD reference: out = f(y) (rows), given y. */
typedef void (*vec_fn)(rig *g, const double *y, double *out, void *ctx);

/* Central differences of f (nout rows) with respect to y[c0 .. c0+nc-1]
 * (y: (ny)), step h0 * max(1, |y_j|); D: (nout x nc) column-major. */
void dense_fd_h(rig *g, vec_fn f, void *ctx, const double *y, int ny, int nout, int c0, int nc, double *D,
                double h0);
/* dense_fd_h with h0 = eps^(1/3) ~ 6.06e-6. */
void dense_fd(rig *g, vec_fn f, void *ctx, const double *y, int ny, int nout, int c0, int nc, double *D);

#endif
