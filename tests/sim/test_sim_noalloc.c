// SPDX-License-Identifier: Apache-2.0
/* No allocation in the time loop (STYLE.md §6) for the simulation driver:
 * linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so every
 * allocation by cosrod's static module libraries is counted.  After
 * cosrod_sim_create, cosrod_sim_run (integration, dense output, energy
 * quadrature, frames, static continuation) must allocate nothing; the
 * creation itself must allocate (the counter works). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "harness.h"

#include "alloc_count.h"

static int frames;
static int on_frame(void *user, const cosrod_sim *sim, double t) {
  (void)user, (void)t;
  cosrod_sim_energy e = cosrod_sim_energy_now(sim);
  frames += e.kinetic >= 0;
  return 0;
}

static void check_run(const char *name, const char *const *sets, size_t nsets) {
  char path[1024];
  const char *dir = getenv("COSROD_EXAMPLES");
  snprintf(path, sizeof path, "%s/%s.yaml", dir ? dir : "examples", name);
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, sets, nsets, NULL))) {
    NOTE("%s", cosrod_last_error());
    CHECK("scenario loads", 0);
    return;
  }
  long before = g_allocs;
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  CHECK("create", sim != NULL);
  CHECK("creation allocates (the counter works)", g_allocs > before);
  if (sim) {
    frames = 0;
    cosrod_sim_observer obs = {on_frame, NULL, NULL, NULL, NULL};
    before = g_allocs;
    st = cosrod_sim_run(sim, &obs);
    long n = g_allocs - before;
    NOTE("%s: %d frames, %ld steps, %ld allocations during the run", name, frames,
         cosrod_sim_stats(sim)->nsteps, n);
    CHECK("run ok", st == COSROD_OK);
    CHECK("no allocation during the run", n == 0);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(dynamic_runs_do_not_allocate) {
  /* dopri5, null-space, projection */
  check_run("rubber-pendulum", (const char *const[]){"analysis.t_end=0.02", "output.every=0.005"}, 2);
  /* radau5, absolute + Baumgarte, M1 layout, analytic Jacobian */
  check_run("perf-rubber", (const char *const[]){"analysis.t_end=0.05", "output.every=0.01"}, 2);
  /* rodas and seulex on the same */
  check_run("perf-rubber", (const char *const[]){"analysis.t_end=0.05", "solver.integrator=rodas"}, 2);
  check_run("perf-rubber", (const char *const[]){"analysis.t_end=0.05", "solver.integrator=seulex"}, 2);
  /* DAE as mass-matrix problem, node layout */
  check_run("convergence", (const char *const[]){"analysis.t_end=0.02", "output.every=0.01"}, 2);
  /* null-space with radau5 (node layout, no M1), moving load off */
  check_run("kv-cantilever",
            (const char *const[]){"analysis.t_end=0.05", "analysis.start_from_equilibrium=false",
                                  "rods.0.loads.0.preload=false", "rods.0.loads.0.active=[0, 0.02]"},
            4);
  /* restart at the breakpoint t = 0.02 (end of the load window): the DAE mass form (multipliers
   * recomputed) and ida (re-initialised, own restart step) */
  check_run("kv-cantilever",
            (const char *const[]){"analysis.t_end=0.03", "analysis.start_from_equilibrium=false",
                                  "rods.0.loads.0.preload=false", "rods.0.loads.0.active=[0, 0.02]",
                                  "solver.formulation=dae"},
            5);
  if (cosrod_step_type_by_name("ida"))
    check_run("kv-cantilever",
              (const char *const[]){"analysis.t_end=0.03", "analysis.start_from_equilibrium=false",
                                    "rods.0.loads.0.preload=false", "rods.0.loads.0.active=[0, 0.02]",
                                    "solver.integrator=ida"},
              5);
  /* ida and cvode on our band matrix and LU (node layout, analytic band Jacobian with jac_fills) */
  if (cosrod_step_type_by_name("ida")) {
    check_run("perf-rubber", (const char *const[]){"analysis.t_end=0.05", "solver.integrator=ida"}, 2);
    check_run("perf-rubber", (const char *const[]){"analysis.t_end=0.05", "solver.integrator=cvode"}, 2);
  }
  /* Kirchhoff rods: Schur complement, projection (dopri5); dense FD Jacobian (radau5) */
  check_run("stiffness",
            (const char *const[]){"analysis.t_end=0.02", "output.every=0.01",
                                  "rods.0.model=kirchhoff-inextensible"},
            3);
  check_run("stiffness",
            (const char *const[]){"analysis.t_end=0.02", "rods.0.model=kirchhoff-extensible",
                                  "solver.integrator=radau5", "solver.formulation=absolute"},
            4);
}

/* Rods attached to rigid bodies (sim_couple.c): free body + bushing and a
 * keyframe-driven body (radau5 with the coupled banded FD Jacobian, rodas,
 * galpha). */
TEST(rods_with_bodies_do_not_allocate) {
  check_run("robot-arm-hose", (const char *const[]){"analysis.t_end=0.3", "output.every=0.1"}, 2);
  check_run("cable-pendulum",
            (const char *const[]){"analysis.t_end=0.05", "output.every=0.01", "solver.integrator=rodas"}, 3);
  check_run("cable-pendulum", /* galpha: bodies in the LIE layout, dense FD tangents */
            (const char *const[]){"analysis.t_end=0.05", "output.every=0.01", "solver.integrator=galpha"}, 3);
  /* Kirchhoff rods on bodies (sim_couple_kirchhoff.c): the coupled solve
   * and projection, ODE form (dopri5) and DAE (radau5 mass matrix, ida) */
  check_run("cable-pendulum",
            (const char *const[]){"analysis.t_end=0.01", "output.every=0.005", "solver.integrator=dopri5",
                                  "rods.0.model=kirchhoff-inextensible"},
            4);
  check_run("cable-pendulum",
            (const char *const[]){"analysis.t_end=0.02", "output.every=0.01", "solver.formulation=dae",
                                  "rods.0.model=kirchhoff-inextensible"},
            4);
  if (cosrod_step_type_by_name("ida"))
    check_run("cable-pendulum",
              (const char *const[]){"analysis.t_end=0.02", "output.every=0.01", "solver.formulation=dae",
                                    "solver.integrator=ida", "rods.0.model=kirchhoff-inextensible"},
              5);
}

TEST(static_and_equilibrium_runs_do_not_allocate) {
  check_run("omega-twist", NULL, 0);
  check_run("kv-cantilever", (const char *const[]){"analysis.t_end=0.05"}, 1);
  check_run("snap-through", NULL, 0);  /* arc-length control (workspace reserved at creation) */
  check_run("assembly-path", NULL, 0); /* keyframe path */
  /* rods attached to bodies (sim_couple_static.c): static continuation and equilibrium start */
  check_run("hanging-body-modes", (const char *const[]){"analysis={type: static}"}, 1);
  check_run("hanging-body-modes",
            (const char *const[]){"analysis={type: dynamic, t_end: 0.02, start_from_equilibrium: true}"}, 1);
}

/* Fixed-step API: 10^5 galpha steps of cosrod_sim_step (Newton, Jacobian
 * and LU updates, the rod evaluation after each step) without allocation. */
TEST(sim_step_does_not_allocate) {
  char path[1024];
  const char *dir = getenv("COSROD_EXAMPLES");
  snprintf(path, sizeof path, "%s/rubber-pendulum.yaml", dir ? dir : "examples");
  const char *sets[] = {"solver.integrator=galpha", "solver.h=1e-4", "analysis.t_end=100"};
  cosrod_scenario *sc = NULL;
  if (!(sc = cosrod_scenario_load(path, sets, 3, NULL))) {
    NOTE("%s", cosrod_last_error());
    CHECK("scenario loads", 0);
    return;
  }
  cosrod_status st;
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  CHECK("create", sim != NULL);
  if (sim) {
    long before = g_allocs;
    st = COSROD_OK;
    int k = 0;
    for (; k < 100000 && st == COSROD_OK; k++) st = cosrod_sim_step(sim, 1e-4);
    long n = g_allocs - before;
    NOTE("%d steps to t = %g, %ld Jacobians, %ld allocations", k, cosrod_sim_t(sim), cosrod_sim_stats(sim)->njev, n);
    CHECK("10^5 steps ok", st == COSROD_OK && k == 100000);
    CHECK("no allocation in 10^5 steps", n == 0);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(sim_step_does_not_allocate),
    TH_CASE(dynamic_runs_do_not_allocate),
    TH_CASE(rods_with_bodies_do_not_allocate),
    TH_CASE(static_and_equilibrium_runs_do_not_allocate),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
