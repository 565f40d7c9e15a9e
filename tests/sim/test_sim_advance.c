// SPDX-License-Identifier: Apache-2.0
/* Stepping interface (sim_advance.c): cosrod_sim_advance continues from the
 * current state, cosrod_sim_set_state restarts from a saved one, and neither
 * allocates (linked with -Wl,--wrap=malloc,... as test_sim_noalloc).
 * References: cosrod_sim_run of the same scenario (same integrator and
 * tolerance 1e-8: the two step sequences differ only in where the steps are
 * clipped, so the solutions agree to the integration error), and the energy
 * balance of [manual: command line, output reference] (conserved up to the integration error). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "harness.h"

#include "alloc_count.h"

static cosrod_scenario *load(const char *name, const char *const *sets, size_t nsets) {
  char path[1024];
  const char *dir = getenv("COSROD_EXAMPLES");
  snprintf(path, sizeof path, "%s/%s.yaml", dir ? dir : "examples", name);
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, sets, nsets, NULL))) NOTE("%s", cosrod_last_error());
  return sc;
}

static cosrod_sim *make(const cosrod_scenario *sc) {
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  if (!sim) NOTE("%s", cosrod_last_error());
  return sim;
}

/* run: tips at the frames (at most 64) */
typedef struct tips {
  int n;
  double t[64], x[64][3], balance[64];
} tips;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  tips *tp = user;
  if (tp->n < 64) {
    tp->t[tp->n] = t;
    cosrod_sim_tip(sim, 0, tp->x[tp->n]);
    tp->balance[tp->n] = cosrod_sim_energy_now(sim).balance;
    tp->n++;
  }
  return 0;
}

/* rubber pendulum (dopri5) and the damped, loaded cantilever (radau5, from its
 * static equilibrium): advancing to each output time gives the run's frames
 * within the integration error, the energy balance stays as conserved as the
 * run's, and nothing is allocated after create. */
static void check_against_run(const char *name, const char *const *sets, size_t nsets, double tol) {
  cosrod_scenario *sc = load(name, sets, nsets);
  CHECK("scenario loads", sc != NULL);
  if (!sc) return;
  cosrod_sim *ref = make(sc), *sim = make(sc);
  CHECK("create", ref && sim);
  if (ref && sim) {
    tips tp = {0};
    cosrod_sim_observer obs = {on_frame, NULL, &tp, NULL, NULL};
    CHECK("reference run", cosrod_sim_run(ref, &obs) == COSROD_OK);
    CHECK("advance after run refused", cosrod_sim_advance(ref, 1.0) == COSROD_ERR_INVALID);
    long before = g_allocs;
    double maxd = 0.0, maxb = 0.0, b0 = NAN;
    for (int k = 1; k < tp.n; k++) {
      cosrod_status st = cosrod_sim_advance(sim, tp.t[k]);
      if (st != COSROD_OK) {
        CHECK("advance ok", 0);
        break;
      }
      if (k == 1) b0 = tp.balance[0];
      double x[3];
      cosrod_sim_tip(sim, 0, x);
      for (int i = 0; i < 3; i++) maxd = fmax(maxd, fabs(x[i] - tp.x[k][i]));
      maxb = fmax(maxb, fabs(cosrod_sim_energy_now(sim).balance - b0));
      CHECK("time lands on t_next", cosrod_sim_t(sim) == tp.t[k]);
    }
    CHECK("advance to the current time is a no-op", cosrod_sim_advance(sim, cosrod_sim_t(sim)) == COSROD_OK);
    long n = g_allocs - before;
    double maxb_run = 0.0;
    for (int k = 1; k < tp.n; k++) maxb_run = fmax(maxb_run, fabs(tp.balance[k] - tp.balance[0]));
    NOTE(
        "%s: %d frames, %ld steps, max |tip - run| = %.3g m, balance drift %.3g J (run %.3g J), %ld "
        "allocations",
        name, tp.n, cosrod_sim_stats(sim)->nsteps, maxd, maxb, maxb_run, n);
    CHECK_NEAR("tip vs run", maxd, 0.0, tol);
    CHECK("balance drift within 10x the run's + 1e-9 J", maxb <= 10.0 * maxb_run + 1e-9);
    CHECK("no allocation while advancing", n == 0);
  }
  cosrod_sim_free(ref);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(advance_follows_run_without_allocating) {
  check_against_run("rubber-pendulum", (const char *const[]){"analysis.t_end=0.2", "output.every=0.01"}, 2,
                    1e-6);
  check_against_run("kv-cantilever", (const char *const[]){"analysis.t_end=0.3", "output.every=0.01"}, 2,
                    1e-6);
}

TEST(set_state_restarts_exactly_and_validates) {
  cosrod_scenario *sc = load("rubber-pendulum", (const char *const[]){"analysis.t_end=0.1"}, 1);
  CHECK("scenario loads", sc != NULL);
  if (!sc) return;
  cosrod_sim *a = make(sc), *b = make(sc);
  CHECK("create", a && b);
  if (a && b) {
    int ny = cosrod_sim_ny(a);
    double *saved = malloc((size_t)ny * sizeof *saved), *bad = malloc((size_t)ny * sizeof *bad);
    CHECK("advance a", cosrod_sim_advance(a, 0.03) == COSROD_OK);
    memcpy(saved, cosrod_sim_state(a), (size_t)ny * sizeof *saved);
    CHECK("advance a further", cosrod_sim_advance(a, 0.06) == COSROD_OK);
    CHECK("backwards refused", cosrod_sim_advance(a, 0.05) == COSROD_ERR_INVALID);
    CHECK("NaN time refused", cosrod_sim_advance(a, NAN) == COSROD_ERR_INVALID);
    memcpy(bad, saved, (size_t)ny * sizeof *bad);
    bad[ny / 2] = NAN;
    CHECK("NaN state refused", cosrod_sim_set_state(a, 0.03, bad) == COSROD_ERR_INVALID);
    CHECK("negative time refused", cosrod_sim_set_state(a, -1.0, saved) == COSROD_ERR_INVALID);
    CHECK("state unchanged by a refused set", cosrod_sim_t(a) == 0.06);
    long before = g_allocs;
    CHECK("set a", cosrod_sim_set_state(a, 0.03, saved) == COSROD_OK);
    CHECK("set b (fresh sim)", cosrod_sim_set_state(b, 0.03, saved) == COSROD_OK);
    CHECK("t after set", cosrod_sim_t(a) == 0.03);
    CHECK("advance a", cosrod_sim_advance(a, 0.08) == COSROD_OK);
    CHECK("advance b", cosrod_sim_advance(b, 0.08) == COSROD_OK);
    CHECK("set_state / advance allocate nothing", g_allocs == before);
    int same = 1;
    for (int i = 0; i < ny; i++) same &= cosrod_sim_state(a)[i] == cosrod_sim_state(b)[i];
    CHECK("restarts from the same state agree bit for bit", same);
    CHECK("run after advance refused", cosrod_sim_run(b, NULL) == COSROD_ERR_INVALID);
    free(saved);
    free(bad);
  }
  cosrod_sim_free(a);
  cosrod_sim_free(b);
  cosrod_scenario_free(sc);
  /* static analyses have no stepping */
  sc = load("omega-twist", NULL, 0);
  cosrod_sim *s = sc ? make(sc) : NULL;
  CHECK("static sim", s != NULL);
  if (s) CHECK("advance refused for a static analysis", cosrod_sim_advance(s, 0.5) == COSROD_ERR_INVALID);
  cosrod_sim_free(s);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(advance_follows_run_without_allocating),
    TH_CASE(set_state_restarts_exactly_and_validates),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
