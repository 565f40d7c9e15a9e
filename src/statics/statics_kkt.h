// SPDX-License-Identifier: Apache-2.0
/* The KKT data of a Kirchhoff rod part in statics (statics_kirchhoff.c: the
 * method; statics_kirchhoff_couple.c: several ends on one rigid block). */
#ifndef COSROD_STATICS_KKT_H
#define COSROD_STATICS_KKT_H

#include "cosrod/band.h"

#include "statics/statics_internal.h"

struct statics_kkt {
  int m, N;
  int *ov, *os, *ol;   /* (N+1), (N), (N) offsets of x_n, θ_k, λ̂_k in the part's block */
  double *lam;         /* (N x 3) λ̄_k (N, material; zero in unconstrained components) */
  double *sig;         /* (N) σ_k (N/m) */
  double *dir;         /* (N x 9) directors d_a = R e_a of the last residual (row a at 3a) */
  double *c;           /* (N x 3) c_k = Rᵀ Δx of the last residual */
  cosrod_band *S;      /* (m N) G M⁻¹ Gᵀ */
  double *rhs;         /* (m N) */
  int frozen;          /* 1: the residual uses lam as is (FD stiffness) */
  const double *er[2]; /* end rows of the least squares (statics_kirchhoff_end_row), or NULL */
  double em[2];        /* their masses (kg) */
  double *wcol;        /* (2 x 3 x m N) S⁻¹ U_e of the ends (statics_kirchhoff_couple) */
};

#endif
