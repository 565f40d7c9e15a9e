// SPDX-License-Identifier: Apache-2.0
/* Arc-length continuation of the statics solver, shared by its two files:
 * statics_arclen.c (the path: predictor, corrector, landing, driver) and
 * statics_arclen_critical.c (limit and bifurcation points on a step, branch
 * switching).  See statics_arclen.c for the method. */
#ifndef COSROD_STATICS_ARCLEN_H
#define COSROD_STATICS_ARCLEN_H

#include "cosrod/statics.h"
#include "statics/statics_internal.h"

typedef struct arc_ws {
  cosrod_statics *s;
  double t;        /* fixed pseudo-time */
  double psi2;     /* ψ² (weighted norm units) */
  double lref2;    /* square of the normalising length */
  double *tu;      /* (nv) tangent, displacement part (unit in the normalised norm with tl) */
  double tl;       /* tangent, λ part */
  double *a, *b;   /* (nv) the two solutions of a bordered iteration */
  double *sec;     /* (nv) chart secant of a step */
  double *g;       /* (nv) ∂r/∂λ */
  double *qc, *qw; /* (nq) converged and working states */
  double *qx;      /* (nq) interpolated state (critical point, landing) */
} arc_ws;

/* Weighted inner product of displacement parts (unnormalised). */
double statics_arc_wdot(const cosrod_statics *s, const double *x, const double *y);
/* Tangent at a converged (q, λ) with s->J factored there: v = -J⁻¹ ∂r/∂λ into
 * w->a, its squared weighted norm (with the λ part) into *n2. */
cosrod_status statics_arc_tangent_raw(arc_ws *w, double lambda, const double *q, double *n2);
/* Normal-plane corrector from the predicted (q, *lambda) (in place). */
cosrod_status statics_arc_correct(arc_ws *w, double *q, double *lambda, int *iters, double *res);
/* Moves the solver's Newton, Jacobian and residual counts into st. */
void statics_arc_add_counts(cosrod_statics *s, cosrod_statics_stats *st);
/* A limit point or bifurcation inside the step qc (λ = lc) -> qw (λ = lw);
 * see statics_arclen_critical.c. */
cosrod_status statics_arc_find_critical(arc_ws *w, double lc, double lw, double dls, double h, double d1,
                                        int neg_c, int *neg_n, double *tn2, double s_path,
                                        cosrod_statics_arc_point *pt, double *th,
                                        cosrod_statics_stats *stats);
/* Branch switching at the first bifurcation; see statics_arclen_critical.c. */
cosrod_status statics_arc_switch_branch(arc_ws *w, const cosrod_statics_arc_options *o,
                                        const cosrod_statics_arc_point *pt, double th, int neg_c, double *lw,
                                        double *h, int *neg_n, double *arc_next_switch, double *arc_max,
                                        int *switch_now, cosrod_statics_stats *stats);

#endif
