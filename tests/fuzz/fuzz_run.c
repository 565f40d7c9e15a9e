// SPDX-License-Identifier: Apache-2.0
/* libFuzzer target: load -> check -> a few steps of a run (`make fuzz
 * FUZZ_TARGET=fuzz_run`), and a replay test over the examples and
 * tests/fuzz/regress_run/.
 *
 * Input: YAML text.  An accepted scenario small enough to step quickly (at
 * most 40 segments in all, 6 bodies, 4 obstacles) is built with
 * cosrod_sim_create; a dynamic one is advanced by 3 steps of
 * h = min(t_end, 1e-3) / 3 with solver.max_steps capped at 400, other
 * analyses are only built.  Invariants (a broken one traps): creation
 * fails only with a status and a message; after an accepted step the time
 * is the requested one and the state is finite; after a failed step the
 * sim names a reason and refuses no further query. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/scenario.h"
#include "cosrod/sim.h"

static void require(int cond) {
  if (!cond) __builtin_trap();
}

static int small_enough(const cosrod_scenario *sc) {
  size_t seg = 0;
  for (size_t i = 0; i < sc->nrods; i++) seg += sc->rods[i].segments;
  return seg <= 40 && sc->nbodies <= 6 && sc->contact.nobstacles <= 4;
}

/* Returns 1 when the input was stepped (for the replay's count). */
static int run_one(const uint8_t *data, size_t size) {
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_parse((const char *)data, size, "fuzz.yaml", NULL, 0, &st);
  if (st != COSROD_OK) {
    require(sc == NULL && cosrod_last_error()[0] != '\0');
    return 0;
  }
  int stepped = 0;
  if (small_enough(sc)) {
    if (sc->solver.max_steps > 400) sc->solver.max_steps = 400;
    cosrod_status cst = COSROD_OK;
    cosrod_sim *sim = cosrod_sim_create(sc, &cst);
    if (!sim) {
      require(cst != COSROD_OK);
      require(cst == COSROD_ERR_NOMEM || cosrod_last_error()[0] != '\0');
    } else if (sc->analysis.type == COSROD_SC_ANALYSIS_DYNAMIC) {
      double h = fmin(sc->analysis.t_end, 1e-3) / 3.0;
      int ny = cosrod_sim_ny(sim);
      require(ny >= 0);
      for (int k = 0; k < 3; k++) {
        double t0 = cosrod_sim_t(sim);
        cosrod_status s = cosrod_sim_step(sim, h);
        if (s != COSROD_OK) {
          require(cosrod_sim_message(sim) != NULL && cosrod_sim_message(sim)[0] != '\0');
          break;
        }
        require(fabs(cosrod_sim_t(sim) - (t0 + h)) <= 1e-9 * (1.0 + fabs(t0 + h)));
        const double *y = cosrod_sim_state(sim);
        for (int i = 0; i < ny; i++) require(isfinite(y[i]));
        stepped = 1;
      }
      cosrod_sim_energy_now(sim);
    }
    cosrod_sim_free(sim);
  }
  cosrod_scenario_free(sc);
  return stepped;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  run_one(data, size);
  return 0;
}

#ifdef COSROD_FUZZ_REPLAY_MAIN
#include "fuzz_replay.h"

TEST(replay_run) {
  int stepped = 0;
  int ne = fuzz_replay_dir("examples", run_one, &stepped);
  int nr = fuzz_replay_dir("tests/fuzz/regress_run", run_one, NULL);
  NOTE("replayed %d examples (%d small enough and stepped), %d regression inputs", ne, stepped, nr);
  CHECK("examples replayed", ne >= 25);
  CHECK("some examples stepped (the target reaches the integrators)", stepped >= 5);
}

static const th_case cases[] = {TH_CASE(replay_run)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
#endif
