/* Stiffness detection of Hairer's explicit codes (HNW I §II.10, as in DOPRI5
 * and DOP853), shared by dopri5.c and dop853.c.
 *
 * Every `every` accepted steps (and then at every step while a detection is
 * pending) the estimate h·λ ≈ |h| ‖k_last − k_prev‖ / ‖y1 − y_stage‖ is
 * compared with the method's stability-boundary threshold (3.25 for DOPRI5,
 * 6.1 for DOP853).  Fifteen positive tests in a row mean "stiff"; six
 * negative ones in a row reset the count. */
#ifndef COSROD_INTEGRATE_STIFFNESS_H
#define COSROD_INTEGRATE_STIFFNESS_H

#include <math.h>

#include "cosrod/integrate.h"

typedef struct stiff_detector {
  long every;    /* test every so many accepted steps; 0 = never */
  int stop;      /* 1: a detection stops the run with ERR_STIFF */
  double thresh; /* h·λ above this counts as a positive test */
  int iasti;     /* consecutive positive tests */
  int nonsti;    /* consecutive negative tests */
} stiff_detector;

/* Set up from the options (stiff_test, stiff_continue) with the method's threshold. */
static inline void stiff_detector_init(stiff_detector *sd, const cosrod_integrate_options *o, double thresh) {
  sd->every = o->stiff_test > 0 ? o->stiff_test : (o->stiff_test < 0 ? 0 : 1000);
  sd->stop = !o->stiff_continue;
  sd->thresh = thresh;
  sd->iasti = sd->nonsti = 0;
}

/* Run the test after an accepted step (naccept already counted).  k_last,
 * k_prev: the two stage derivatives at the step end; y1: the new solution;
 * ys: the stage point of k_prev (all (n)).  Returns 1 when the detection
 * fires (counted in stats->nstiff); the caller stops if sd->stop. */
static inline int stiff_detector_test(stiff_detector *sd, cosrod_step_ctx *ctx, double h,
                                      const double *k_last, const double *k_prev, const double *y1,
                                      const double *ys) {
  if (sd->every <= 0 || (ctx->stats->naccept % sd->every != 0 && sd->iasti == 0)) return 0;
  double num = 0.0, den = 0.0;
  for (int i = 0; i < ctx->n; i++) {
    num += (k_last[i] - k_prev[i]) * (k_last[i] - k_prev[i]);
    den += (y1[i] - ys[i]) * (y1[i] - ys[i]);
  }
  if (!(den > 0.0)) return 0;
  if (fabs(h) * sqrt(num / den) > sd->thresh) {
    sd->nonsti = 0;
    if (++sd->iasti == 15) {
      ctx->stats->nstiff++;
      sd->iasti = 0;
      return 1;
    }
  } else if (++sd->nonsti == 6) {
    sd->iasti = 0;
  }
  return 0;
}

#endif /* COSROD_INTEGRATE_STIFFNESS_H */
