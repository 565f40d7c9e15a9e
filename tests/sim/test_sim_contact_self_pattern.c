// SPDX-License-Identifier: Apache-2.0
/* A single rod coiling into self contact from a straight start switches to
 * the sparse solver when the first far self-contact block appears
 * (linsolve.c, sim_breaks.c): the twisted clamped rod of
 * test_sim_contact_self.c (1.5 Phi_cr, ends brought from L to 0.6 L; straight
 * at t = 0, so no far self-contact pair is a candidate and the run starts
 * on the band).
 *   - the run starts on the band and is on KLU with the contact pattern at
 *     t_end, switched at an accepted step (t_switch > 0); at t_end every
 *     active far self-contact block (vertices more than one apart, outside
 *     the band's contact blocks) lies inside the pattern;
 *   - the trajectory equals the reference run whose pattern holds every
 *     segment pair from the start (COSROD_CONTACT_PATTERN=all): both solve
 *     the same ODE with the same error control and differ only in the Newton
 *     matrices, so their states differ by at most their two global errors,
 *     each bounded by the sum of its accepted local errors (each <= 1 in the
 *     scaled norm atol + rtol |y| of the error test): the RMS of the scaled
 *     difference is at most n1 + n2 (accepted steps);
 *   - Newton iterations: before t_switch the run and the band run
 *     (COSROD_CONTACT_BAND=1: the banded solver throughout, far blocks left
 *     out) are the same computation; from then on the band run's simplified
 *     Newton iterates with a matrix missing the contact's far blocks, so it
 *     needs more iterations per accepted step (both counted from t_switch
 *     to t_end). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/rod.h"
#include "cosrod/sparse.h"
#include "harness.h"
#include "sim/sim_hooks.h"
#include "sim_test_util.h"
#include "system/contact_jac_sp.h"
#include "system/linsolve.h"
#include "system/system_model.h"
#include "test_sim_contact_self_scenario.h"

/* t_end shortly after the loop closes (the switch comes at t ~ 2.3 s) */
static const double ATOL = 1e-7, T_END = 2.6;

typedef struct mark {
  double t_from; /* count from this time (the band run), or (< 0) from the switch to the sparse path */
  double t_grow; /* the time counting started (< 0: not yet) */
  long newton_at, accept_at;
} mark;

static int on_step(void *user, const cosrod_sim *sim, double t, double h, int acc) {
  (void)h, (void)acc;
  mark *m = user;
  const cosrod_integrate_stats *st = cosrod_sim_stats(sim);
  if (m->t_grow < 0 && (m->t_from < 0 ? !strncmp(cosrod_sim_linear_solver(sim), "sparse", 6) : t >= m->t_from))
    m->t_grow = t, m->newton_at = st->nnewton, m->accept_at = st->naccept;
  return 0;
}

typedef struct run_out {
  double *y, t_grow, newton_after;
  long naccept, nnewton, npattern, dropped;
  int ok, n;
} run_out;

/* Far self-contact blocks at t_end: count, inside (cp, ri). */
static void far_blocks(const cosrod_sim *sim, const sys_system *s, const int *cp, const int *ri, int nfar[2]) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  const cosrod_contact_block *b = d ? cosrod_contact_blocks(d) : NULL;
  const cosrod_rod *rod = s->m->rods[0];
  for (size_t k = 0, nb = d ? cosrod_contact_nblocks(d) : 0; k < nb; k++, b++) {
    if (b->rod_i != b->rod_j || abs(b->vertex_j - b->vertex_i) <= 1) continue;
    if (cosrod_rod_vertex_ndof(rod, b->vertex_i) != 3 || cosrod_rod_vertex_ndof(rod, b->vertex_j) != 3) continue;
    const int row = s->m->map[cosrod_rod_nq(rod) + cosrod_rod_vindex_vertex(rod, s->m->form, b->vertex_i)];
    const int col = s->m->map[cosrod_rod_qindex_vertex(rod, b->vertex_j)];
    int in = 0;
    for (int k2 = cp[col]; k2 < cp[col + 1]; k2++) in += ri[k2] == row;
    nfar[0]++, nfar[1] += in;
  }
}

/* mode 0: switched (default), 1: all pairs from the start, 2: band.  t_grow
 * (band run) is the time from which its Newton iterations are counted. */
static run_out run(int mode, double t_grow) {
  static char text[16000];
  run_out o = {.t_grow = -1};
  scenario(text, sizeof text, 1.5 * phi_crit(), 1.0, 0.4, 2.5, 1e-4, 32, T_END);
  if (mode == 1) setenv("COSROD_CONTACT_PATTERN", "all", 1);
  if (mode == 2) setenv("COSROD_CONTACT_BAND", "1", 1);
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(text, "coil.yaml", NULL, 0, &sc);
  unsetenv("COSROD_CONTACT_PATTERN"), unsetenv("COSROD_CONTACT_BAND");
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return o;
  const char *mname[] = {"switched", "all pairs", "band"};
  NOTE("%s: %s", mname[mode], cosrod_sim_linear_solver(sim));
  const int *cp = NULL, *ri = NULL, n = s->m->ny;
  const int sparse = sim_linsolve_pattern(s, &cp, &ri) && s->m->prob.jac_sp;
  CHECK(mode == 1 ? "all pairs: sparse contact pattern from the start" : "starts on the banded solver",
        mode == 1 ? sparse : !sparse);
  mark m = {.t_from = mode == 2 ? t_grow : -1.0, .t_grow = -1.0};
  cosrod_sim_observer obs = {.step = on_step, .user = &m};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const cosrod_integrate_stats *stats = cosrod_sim_stats(sim);
  o.naccept = stats->naccept, o.nnewton = stats->nnewton, o.npattern = stats->npattern;
  o.dropped = s->d->ccj ? sim_contact_jac_sp_dropped(s) : 0;
  o.ok = st == COSROD_OK, o.n = n, o.t_grow = m.t_grow;
  o.newton_after = m.t_grow >= 0 && o.naccept > m.accept_at
                       ? (double)(o.nnewton - m.newton_at) / (double)(o.naccept - m.accept_at)
                       : NAN;
  o.y = malloc((size_t)n * sizeof *o.y);
  memcpy(o.y, cosrod_sim_state(sim), (size_t)n * sizeof *o.y);
  NOTE("  accepted %ld, Newton %ld (per accepted step from t = %.4g s: %.3f), njev %ld, ndecomp %ld, pattern "
       "rebuilds %ld, entries met outside %ld; %s",
       o.naccept, o.nnewton, o.t_grow, o.newton_after, stats->njev, stats->ndecomp, o.npattern, o.dropped,
       cosrod_sim_linear_solver(sim));
  if (mode == 0) {
    const int on = sim_linsolve_pattern(s, &cp, &ri) && s->m->prob.jac_sp;
    CHECK("switched to the sparse contact path at an accepted step", on && o.t_grow > 0.0);
    int nfar[2] = {0, 0};
    if (on) far_blocks(sim, s, cp, ri, nfar);
    NOTE("  far self-contact blocks at t_end %d: in the pattern %d (nnz %d)", nfar[0], nfar[1], on ? cp[n] : 0);
    CHECK("far self-contact active at t_end", nfar[0] > 0);
    CHECK("all of them inside the pattern", nfar[1] == nfar[0]);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return o;
}

TEST(coil_grows_pattern) {
  if (!cosrod_sparse_available()) {
    NOTE("no KLU: the band path");
    return;
  }
  run_out g = run(0, 0), f = run(1, 0), b = run(2, g.t_grow);
  if (g.ok && f.ok) {
    CHECK("reference never grows", f.npattern == 0);
    double rms = 0, mx = 0;
    for (int i = 0; i < g.n; i++) {
      const double e = fabs(g.y[i] - f.y[i]) / (ATOL + RTOL * fmax(fabs(g.y[i]), fabs(f.y[i])));
      rms += e * e, mx = fmax(mx, e);
    }
    rms = g.n ? sqrt(rms / g.n) : 0;
    const double bound = (double)(g.naccept + f.naccept);
    NOTE("scaled difference switched vs all-pairs pattern: RMS %.3g, max %.3g (bound %.0f)", rms, mx, bound);
    CHECK("same trajectory to the tolerance bound", rms <= bound);
  }
  if (g.ok && b.ok) {
    NOTE("Newton iterations per accepted step from the switch (t = %.4g s): switched %.3f, band %.3f", g.t_grow,
         g.newton_after, b.newton_after);
    CHECK("with the far blocks Newton needs fewer iterations per step", g.newton_after < b.newton_after);
  }
  free(g.y), free(f.y), free(b.y);
}

static const th_case cases[] = {TH_CASE(coil_grows_pattern)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
