// SPDX-License-Identifier: Apache-2.0
/* An interrupt flag (status.h) set during a static continuation with more
 * than 2048 minimal coordinates is seen by the band LU of the next Newton
 * step: cosrod_statics_solve must end with ERR_INTERRUPTED and the last
 * converged state (here the start, t = 0, q unchanged bit for bit), not
 * treat the interrupted LU as a failed increment and halve down to
 * ERR_CONVERGENCE. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/statics.h"
#include "cosrod/status.h"
#include "harness.h"
#include "statics_test_util.h"

static volatile sig_atomic_t g_flag;
static int g_calls;
static double *g_q_seen;
static int g_nq;

/* counting hook: on the first converged point raise the flag (as a signal
 * handler would), go on (return 0), remember the state */
static int on_increment(void *user, double t, const double *q, int iterations, double residual) {
  (void)user, (void)t, (void)iterations, (void)residual;
  if (g_calls++ == 0) {
    g_flag = 1;
    memcpy(g_q_seen, q, sizeof(double) * (size_t)g_nq);
  }
  return 0;
}

TEST(continuation_interrupted_in_lu) {
  cosrod_rod_def def = st_cantilever(600, 1.0, 5e-3, 0);
  def.gravity[0] = -9.81 * 50.0;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  CHECK("solver created", s != NULL);
  if (!s) return;
  NOTE("minimal coordinates: %d (> 2048: the LU polls the flag)", cosrod_statics_ndof(s));
  CHECK("more than 2048 unknowns", cosrod_statics_ndof(s) > 2048);
  double *q = st_initial_q(rod);
  g_nq = cosrod_rod_nq(rod);
  g_q_seen = calloc((size_t)g_nq, sizeof(double));
  g_flag = 0;
  g_calls = 0;
  const volatile sig_atomic_t *prev = cosrod_interrupt_install(&g_flag);
  cosrod_statics_stats stats;
  memset(&stats, 0, sizeof stats);
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, on_increment, NULL, &stats);
  cosrod_interrupt_install(prev);
  NOTE("status %s, t = %g, increments %ld, rejected %ld", cosrod_status_name(st), stats.t, stats.increments,
       stats.rejected);
  CHECK("one converged point reported (t = 0)", g_calls == 1);
  CHECK("ERR_INTERRUPTED (not ERR_CONVERGENCE)", st == COSROD_ERR_INTERRUPTED);
  CHECK_LE("no increment rejected", (double)stats.rejected, 0.0);
  CHECK("q is the last converged state", memcmp(q, g_q_seen, sizeof(double) * (size_t)g_nq) == 0);
  free(q), free(g_q_seen);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {
    TH_CASE(continuation_interrupted_in_lu),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
