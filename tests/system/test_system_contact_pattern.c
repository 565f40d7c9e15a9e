// SPDX-License-Identifier: Apache-2.0
/* A sparse Jacobian pattern that grows with the contacts (contact_jac_sp.c,
 * cosrod_ode_problem.jac_pattern): hose b falls from 25 cm across hose a
 * lying on the floor (rod-rod contact starts at t ~ 0.2 s; at t = 0 the gap
 * 0.23 m is beyond the pattern's margin 0.1 L, so the initial pattern is the
 * rods' bands alone: no entry couples a and b).
 *   - the evaluations find the rod-rod blocks outside the pattern (counted:
 *     sim_contact_jac_sp_dropped > 0: without growth they would be left out
 *     of the Jacobian, as before), the pattern grows (stats.npattern >= 1;
 *     the integrator rebuilds its KLU analysis) and at t_end every active
 *     rod-rod block lies inside the grown pattern and outside the initial one;
 *   - radau5, rodas and ida (SUNDIALS' KLU, reinitialised without restarting
 *     the history): the trajectory equals the reference run whose pattern
 *     holds every segment pair from the start (COSROD_CONTACT_PATTERN=all:
 *     the full contact Jacobian, never grown): both runs solve the same ODE
 *     with the same error control and differ only in the Newton matrices,
 *     so their states differ by at most their two global errors; each is
 *     bounded by the sum of the local errors it accepted (each at most 1 in
 *     the scaled norm sc_i = atol + rtol |y_i| of the error test), so the
 *     RMS of |y1 - y2|_i / sc_i is at most n1 + n2 (accepted steps);
 *   - seulex and cvode: the same growth checks on the grown run alone
 *     (seulex's estimate is that of its lower-order extrapolation row, which
 *     does not bound its own global error: against radau5 it differs by
 *     ~2.6e2 scaled units here, so no trajectory bound is claimed). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>

#include "cosrod/sparse.h"
#include "sim/sim_hooks.h"
#include "sim_test_util.h"
#include "system/contact_jac_sp.h"
#include "system/linsolve.h"
#include "system/system_model.h"

static const char *DROP =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "rods:\n"
    "  - name: a\n"
    "    length: 0.5\n"
    "    segments: 10\n"
    "    material: rubber\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [-0.25, 0, 0.0099], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "  - name: b\n"
    "    length: 0.5\n"
    "    segments: 10\n"
    "    material: rubber\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [0.05, -0.25, 0.25], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: 0.3}\n"
    "solver: {formulation: nullspace, rtol: 1.0e-5, atol: 1.0e-7}\n"
    "output: {every: 0.05}\n";

static const double RTOL = 1e-5, ATOL = 1e-7;

/* Entries of the pattern in rows of rod ra and columns of rod rb. */
static int cross_entries(const sys_system *s, const int *cp, const int *ri, int ra, int rb) {
  const int r0 = s->m->qoff_r[ra], r1 = r0 + s->m->ny_r[ra], c0 = s->m->qoff_r[rb], c1 = c0 + s->m->ny_r[rb];
  int m = 0;
  for (int j = c0; j < c1; j++)
    for (int k = cp[j]; k < cp[j + 1]; k++) m += ri[k] >= r0 && ri[k] < r1;
  return m;
}

typedef struct run_out {
  double *y;
  long naccept, npattern, dropped;
  int ok, n;
} run_out;

static run_out run(const char *integ, int all, int check_growth) {
  run_out o = {0};
  char set[64];
  snprintf(set, sizeof set, "solver.integrator=%s", integ);
  const char *sets[] = {set};
  if (all) setenv("COSROD_CONTACT_PATTERN", "all", 1);
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(DROP, "drop.yaml", sets, 1, &sc);
  unsetenv("COSROD_CONTACT_PATTERN");
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return o;
  NOTE("%s, pattern %s: %s", integ, all ? "all pairs" : "grown", cosrod_sim_linear_solver(sim));
  const int *cp = NULL, *ri = NULL, n = s->m->ny;
  CHECK("sparse contact pattern", sim_linsolve_pattern(s, &cp, &ri) && s->m->prob.jac_sp);
  int *cp0 = NULL, *ri0 = NULL;
  if (cp && check_growth) { /* a copy of the initial pattern */
    cp0 = malloc((size_t)(n + 1) * sizeof *cp0), ri0 = malloc((size_t)cp[n] * sizeof *ri0);
    memcpy(cp0, cp, (size_t)(n + 1) * sizeof *cp0), memcpy(ri0, ri, (size_t)cp[n] * sizeof *ri0);
    CHECK("initially no entry couples the rods", cross_entries(s, cp0, ri0, 0, 1) == 0);
  }
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  const cosrod_integrate_stats *stats = cosrod_sim_stats(sim);
  o.naccept = stats->naccept, o.npattern = stats->npattern, o.dropped = sim_contact_jac_sp_dropped(s);
  o.ok = st == COSROD_OK, o.n = n;
  o.y = malloc((size_t)n * sizeof *o.y);
  memcpy(o.y, cosrod_sim_state(sim), (size_t)n * sizeof *o.y);
  NOTE("  accepted steps %ld, njev %ld, ndecomp %ld, pattern rebuilds %ld, entries seen outside %ld",
       o.naccept, stats->njev, stats->ndecomp, o.npattern, o.dropped);
  if (cp0 && sim_linsolve_pattern(s, &cp, &ri)) {
    const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
    const cosrod_contact_block *b = cosrod_contact_blocks(d);
    size_t nrr = 0, inside = 0, before = 0;
    for (size_t k = 0, nb = cosrod_contact_nblocks(d); k < nb; k++, b++) {
      if (b->rod_i == b->rod_j) continue;
      const cosrod_rod *ra = s->m->rods[b->rod_i], *rb = s->m->rods[b->rod_j];
      const int row = s->m->map[s->m->off_r[b->rod_i] + cosrod_rod_nq(ra) +
                                cosrod_rod_vindex_vertex(ra, s->m->form, b->vertex_i)];
      const int col = s->m->map[s->m->off_r[b->rod_j] + cosrod_rod_qindex_vertex(rb, b->vertex_j)];
      int in = 0, in0 = 0;
      for (int k2 = cp[col]; k2 < cp[col + 1]; k2++) in += ri[k2] == row;
      for (int k2 = cp0[col]; k2 < cp0[col + 1]; k2++) in0 += ri0[k2] == row;
      nrr++, inside += in, before += in0;
    }
    NOTE("  rod-rod blocks at t_end %zu: in the grown pattern %zu, in the initial one %zu; nnz %d -> %d", nrr,
         inside, before, cp0[n], cp[n]);
    CHECK("rod-rod contact active at t_end", nrr > 0);
    CHECK("all of them inside the grown pattern", inside == nrr);
    CHECK("none of them in the initial pattern", before == 0);
    CHECK("the evaluations met them outside the pattern", o.dropped > 0);
    CHECK("the pattern grew (rebuilds counted)", o.npattern >= 1);
  }
  free(cp0), free(ri0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return o;
}

static void same_trajectory(const char *integ, int compare) {
  if (!cosrod_sparse_available()) {
    NOTE("no KLU: nothing to grow");
    return;
  }
  run_out g = run(integ, 0, 1), f = {0};
  if (compare) f = run(integ, 1, 0);
  if (g.ok && f.ok) {
    CHECK("reference never grows", f.npattern == 0);
    double rms = 0, mx = 0;
    const int n = g.n;
    for (int i = 0; i < n; i++) {
      const double e = fabs(g.y[i] - f.y[i]) / (ATOL + RTOL * fmax(fabs(g.y[i]), fabs(f.y[i])));
      rms += e * e, mx = fmax(mx, e);
    }
    rms = n ? sqrt(rms / n) : 0;
    const double bound = (double)(g.naccept + f.naccept);
    NOTE("%s: scaled difference grown vs all-pairs pattern: RMS %.3g, max %.3g (bound %.0g)", integ, rms, mx,
         bound);
    CHECK("same trajectory to the tolerance bound", rms <= bound);
  }
  free(g.y), free(f.y);
}

TEST(radau5_grown_pattern) { same_trajectory("radau5", 1); }
TEST(ida_grown_pattern) { same_trajectory("ida", 1); }
TEST(rodas_grown_pattern) { same_trajectory("rodas", 1); }
TEST(seulex_grown_pattern) { same_trajectory("seulex", 0); }
TEST(cvode_grown_pattern) { same_trajectory("cvode", 0); }

static const th_case cases[] = {TH_CASE(radau5_grown_pattern), TH_CASE(ida_grown_pattern),
                                TH_CASE(rodas_grown_pattern), TH_CASE(seulex_grown_pattern),
                                TH_CASE(cvode_grown_pattern)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
