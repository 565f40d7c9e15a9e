/* Internal state of the statics solver, shared by statics.c and modes.c. */
#ifndef COSROD_STATICS_INTERNAL_H
#define COSROD_STATICS_INTERNAL_H

#include "cosrod/band.h"
#include "cosrod/statics.h"
#include "rod/rod_internal.h"

struct cosrod_statics {
  const cosrod_rod *rod;
  struct cosrod_rod quiet; /* shallow copy of *rod with damping off (rates are zero in statics) */
  cosrod_statics_options opt;
  int N, nq, nv, ny;
  int ml, mu;               /* half bandwidths of the stiffness (8, 8) */
  cosrod_rod_data *d;       /* evaluation workspace */
  double *y;                /* (ny) (q, ν = 0) */
  double *r, *r2, *dv;      /* (nv) residuals, increment */
  double *rpl, *rmi;        /* (nv) FD residuals */
  double *hcol;             /* (nv) FD steps */
  double *qc, *qw, *qt;     /* (nq) converged, working, FD-perturbed states */
  double *q0;               /* (nq) start of a correction */
  double *qw2, *qbest;      /* (nq) line-search trial and best */
  double *qprev;            /* (nq) previous converged state (second-order predictor) */
  double *wnorm;            /* (nv) weights 1/Δs_min (translations), 1 (rotations) */
  cosrod_band *Kq;          /* (nq x nq, bandwidth 10) the rod's static stiffness */
  double *T;                /* (N x 4 x 3) tangent maps of the segment charts */
  int *bq, *bv, *bnq, *bnv; /* (2N+1) block offsets / sizes in q and in the chart */
  double *rbest;            /* (nv) residual of qbest */
  cosrod_band *J;           /* (nv x nv) dr/dδ, then its LU */
  double floorF, floorM;    /* residual scale floors (N, N m) */
  double hx, hth;           /* FD steps (m, rad) */
  long nnewton, njac, nres;
  double eta;        /* line-search acceptance |s(α)| <= eta |s(0)| */
  double step_noise; /* roundoff level of a weighted Newton step */
};

/* Residual at pseudo-time t with load factor mu (1 = full loads). */
cosrod_status statics_residual(cosrod_statics *s, double t, double mu, const double *q, double *r,
                               double *scaled);
/* J = dr/dδ at (t, mu, q). */
cosrod_status statics_jacobian(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J);

#endif /* COSROD_STATICS_INTERNAL_H */
