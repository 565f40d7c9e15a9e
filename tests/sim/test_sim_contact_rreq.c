// SPDX-License-Identifier: Apache-2.0
/* start_from_equilibrium with rod-rod contact between several rods (no
 * bodies): the equilibrium of all rods is solved together (one statics
 * solver with the contact hooks, like a static analysis) and the dynamics
 * start there at rest.  Two steel cantilevers crossing at right angles, tip
 * on tip: a (L_a = 1 m, along x) below, b (L_b = 0.8 m, along y) on it,
 * loaded by P = 100 N down at its tip (as test_sim_contact_rrstat.c).
 * References:
 *  - the static analysis of the same scenario: both solve the same
 *    equilibrium to the Newton tolerance 1e-9 (scaled residual), so tip
 *    positions and contact force agree to that tolerance times the
 *    condition of the tip stiffness relations (< 1e3): 1e-6 relative;
 *  - the two-spring closed form (Euler-Bernoulli, k = 3 EI / L^3 each):
 *    u_a = (P - k_b d) / (k_a + k_b), d the measured approach of the tips
 *    (penalty compliance), contact force k_a u_a, to 1 % at N = 10 (shear
 *    (r/L)^2 ~ 1e-4, geometric nonlinearity (u/L)^2 ~ 5e-5, discretisation
 *    O(ds^2) below 1 % at N >= 10, as measured by the static test);
 *  - at rest: the start has v = 0 and a force residual at the Newton
 *    tolerance; from there the integrator keeps every velocity within its
 *    error control, atol + rtol |v| = atol = 1e-8 m/s per accepted step
 *    (v ~ 0), so after n steps |v| <= n atol and the kinetic energy stays
 *    below 1/2 M (n atol)^2 (M the mass of both rods, n counted by the
 *    run; 4 steps: 4e-15 J), against ~0.09 J when the same run starts
 *    from the straight rods (checked too: the bound separates).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "crossing_cantilevers.h"
#include "sim_test_util.h"

static const double PI = 3.14159265358979323846;
enum { N = 10 };

static void crossing_text(char *text, size_t len, const char *analysis) {
  crossing_cantilevers_text(text, len, N, N, analysis);
}

/* Sum of the normal contact forces on rod r (z component). */
static double rod_force_z(const cosrod_sim *sim, int r) {
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  double fz = 0.0;
  if (!d) return 0.0;
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t i = 0, n = cosrod_contact_npoints(d); i < n; i++)
    if (p[i].rod == r && p[i].other_kind == 1) fz += p[i].fn * p[i].normal[2];
  return fz;
}

typedef struct frames {
  int seen0;
  double ua0, ub0, F0; /* at t = 0 */
  double ke_max;       /* over all frames */
  long nsteps;         /* accepted steps of the run */
} frames;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  frames *f = user;
  if (t == 0.0) {
    f->seen0 = 1;
    f->ua0 = -cosrod_sim_rod_data(sim, 0)->x[3 * N + 2];
    f->ub0 = -(cosrod_sim_rod_data(sim, 1)->x[3 * N + 2] - 2 * R);
    f->F0 = rod_force_z(sim, 0);
  }
  f->ke_max = fmax(f->ke_max, cosrod_sim_energy_now(sim).kinetic);
  return 0;
}

static cosrod_status run_dynamic(const char *text, frames *f) {
  cosrod_status st;
  cosrod_scenario *sc = cosrod_scenario_parse(text, strlen(text), "rreq.yaml", NULL, 0, &st);
  cosrod_sim *sim = st == COSROD_OK ? cosrod_sim_create(sc, &st) : NULL;
  if (st == COSROD_OK) {
    cosrod_sim_observer obs = {.frame = on_frame, .user = f};
    st = cosrod_sim_run(sim, &obs);
    f->nsteps = cosrod_sim_stats(sim)->naccept;
  }
  if (st != COSROD_OK) NOTE("dynamic run: %s: %s", cosrod_strerror(st), sim ? cosrod_sim_message(sim) : cosrod_last_error());
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st;
}

static const char *DYN = "analysis: {type: dynamic, t_end: 0.05, start_from_equilibrium: %s}\n"
                         "solver: {integrator: radau5, rtol: 1.0e-6, atol: 1.0e-8}\noutput: {every: 0.005}\n";

TEST(crossing_cantilevers_start_at_rest) {
  const double EI = E * PI * pow(R, 4) / 4, ka = 3 * EI / pow(LA, 3), kb = 3 * EI / pow(LB, 3);
  const double M = 7850 * PI * R * R * (LA + LB), atol = 1e-8;
  char text[4000], an[400];
  crossing_text(text, sizeof text, "analysis: {type: static, increments: 5}\n");
  sim_text_run S = sim_text_run_start(text, "rreq.yaml", NULL, 0);
  snprintf(an, sizeof an, DYN, "true");
  crossing_text(text, sizeof text, an);
  frames f = {0};
  cosrod_status std = run_dynamic(text, &f);
  CHECK("static run and dynamic run from equilibrium", S.st == COSROD_OK && std == COSROD_OK && f.seen0);
  if (S.st == COSROD_OK && std == COSROD_OK && f.seen0) {
    const double ua = -cosrod_sim_rod_data(S.sim, 0)->x[3 * N + 2];
    const double ub = -(cosrod_sim_rod_data(S.sim, 1)->x[3 * N + 2] - 2 * R);
    const double Fs = rod_force_z(S.sim, 0);
    const double ke_bound = 0.5 * M * pow((double)f.nsteps * atol, 2);
    const double ua_ref = (P - kb * (f.ub0 - f.ua0)) / (ka + kb);
    NOTE("t = 0: u_a %.10g m (static %.10g, two springs %.6g), u_b %.10g m (static %.10g); contact force on a "
         "%.10g N (static %.10g, k_a u_a,ref %.6g); max KE over 0.05 s %.3g J (bound %.3g J, %ld steps)",
         f.ua0, ua, ua_ref, f.ub0, ub, f.F0, Fs, ka * ua_ref, f.ke_max, ke_bound, f.nsteps);
    CHECK_NEAR("tip of a at t = 0 = static analysis", f.ua0, ua, 1e-6 * ua);
    CHECK_NEAR("tip of b at t = 0 = static analysis", f.ub0, ub, 1e-6 * ub);
    CHECK_NEAR("contact force at t = 0 = static analysis", f.F0, Fs, 1e-6 * fabs(Fs));
    CHECK_NEAR("tip of a at t = 0 (two springs)", f.ua0, ua_ref, 0.01 * ua_ref);
    CHECK_NEAR("contact force at t = 0 (two springs)", -f.F0, ka * ua_ref, 0.01 * ka * ua_ref);
    CHECK("kinetic energy stays ~0 (at rest)", f.ke_max <= ke_bound);
  }
  sim_text_run_free(&S);
  /* the same run from the straight rods moves: the bound above separates */
  snprintf(an, sizeof an, DYN, "false");
  crossing_text(text, sizeof text, an);
  frames g = {0};
  if (run_dynamic(text, &g) == COSROD_OK) {
    NOTE("from the straight rods: max KE %.3g J", g.ke_max);
    CHECK("without the equilibrium start the rods move", g.ke_max > 1e6 * 0.5 * M * pow((double)g.nsteps * atol, 2));
  }
}

static const th_case cases[] = {TH_CASE(crossing_cantilevers_start_at_rest)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
