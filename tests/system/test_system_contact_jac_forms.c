// SPDX-License-Identifier: Apache-2.0
/* The contact's sparse Jacobian with the cross-rod blocks
 * (contact_jac_sp.c) in the absolute and dae formulations (absolute rods
 * take the NODE layout for it, the DAE runs as a mass-matrix problem):
 *   - two crossing rods pressed into each other with rod-rod friction, in
 *     each form and for radau5, rodas and seulex: the sparse path is taken,
 *     and the assembled Jacobian equals central differences of the
 *     right-hand side column by column, to 1e-6 of the column's largest
 *     entry.  Tolerance: central differences with h = 1e-5 |y| + 1e-8 have
 *     truncation h^2 |f'''| / 6 ~ 1e-10 relative to the column's scale (the
 *     penalty law is smooth at this overlap, f''' / f' ~ 1 / r^2 = 1e4 with
 *     r = 1 cm and h^2 ~ 1e-14) and round-off eps |f| / h ~ 1e-16 * 1e3 /
 *     1e-8 = 1e-5 of |f| only for the tiny-|y| components whose columns
 *     carry small f -- measured 4.4e-7 of the column max, as the null-space
 *     form's test of the same state in test_system_contact_jac; the
 *     coupling entries between the rods must be present and non-zero, and
 *     the differences have no entry outside the pattern;
 *   - a hose dropped across another (rods-crossing in small): absolute and
 *     dae take at most 1.5 times the steps and Newton failures of the
 *     null-space run (measured 262 / 285 steps, 13 / 15 failures against
 *     263, 12; on the band without the cross blocks 920 / 912 steps, 379 /
 *     363 failures) and end at the null-space run's state: the
 *     three forms integrate the same equations, so their vertex positions
 *     differ by the runs' global errors, each below the tolerance
 *     atol + rtol |x| per step accumulated over the steps (see the test). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sparse.h"
#include "sim_test_util.h"
#include "system/contact_jac_sp.h"
#include "system/linsolve.h"
#include "sim/sim_hooks.h"
#include "system/system_model.h"

static const char *CROSS =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "rods:\n"
    "  - name: a\n"
    "    length: 0.4\n"
    "    segments: 8\n"
    "    material: rubber\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [-0.21, 0.003, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "  - name: b\n"
    "    length: 0.4\n"
    "    segments: 8\n"
    "    material: rubber\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [0.004, -0.19, 0.0199], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
    "contact: {friction: {static: 0.5, kinetic: 0.4}}\n"
    "analysis: {type: dynamic, t_end: 0.01}\n"
    "solver: {formulation: nullspace, integrator: radau5}\n";

/* max |J - J_fd| / column max over the pattern; *outside: the largest
 * difference entry outside it (same scale); *ncross: non-zero entries
 * between rows and columns of different rods. */
static double fd_error(sys_system *s, const double *y, double *outside, int *ncross) {
  const int *cp = NULL, *ri = NULL;
  sim_linsolve_pattern(s, &cp, &ri);
  const int n = s->m->ny, b0 = s->m->qoff_r[1];
  double *yp = malloc((size_t)n * sizeof *yp), *f1 = malloc((size_t)n * sizeof *f1);
  double *f2 = malloc((size_t)n * sizeof *f2), *Jx = malloc((size_t)cp[n] * sizeof *Jx), worst = 0;
  *outside = 0, *ncross = 0;
  CHECK("Jacobian evaluates", s->m->prob.jac_sp(0.0, y, Jx, s) == 0);
  for (int j = 0; j < n; j++) {
    const double h = 1e-5 * fabs(y[j]) + 1e-8;
    memcpy(yp, y, (size_t)n * sizeof *yp);
    yp[j] = y[j] + h, sim_rhs(0.0, yp, f1, s);
    yp[j] = y[j] - h, sim_rhs(0.0, yp, f2, s);
    double scale = 1e-300;
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(f1[i] - f2[i]) / (2 * h));
    for (int i = 0, k = cp[j]; i < n; i++) {
      const double d = (f1[i] - f2[i]) / (2 * h);
      if (k < cp[j + 1] && ri[k] == i) {
        const double a = Jx[k++];
        worst = fmax(worst, fabs(a - d) / scale);
        if ((i >= b0) != (j >= b0) && a != 0.0) ++*ncross;
      } else {
        *outside = fmax(*outside, fabs(d) / scale);
      }
    }
  }
  free(yp), free(f1), free(f2), free(Jx);
  return worst;
}

static void fd_case(const char *form, const char *method) {
  char sf[64], sm[64];
  snprintf(sf, sizeof sf, "solver.formulation=%s", form);
  snprintf(sm, sizeof sm, "solver.integrator=%s", method);
  const char *sets[] = {sf, sm};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(CROSS, "cross.yaml", sets, 2, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  NOTE("%s %s: %s", form, method, cosrod_sim_linear_solver(sim));
  const int *cp = NULL, *ri = NULL;
  const int on = sim_linsolve_pattern(s, &cp, &ri) && s->m->prob.jac_sparse && s->m->prob.jac_sp;
  CHECK("sparse with the contact pattern (or no KLU)", on == cosrod_sparse_available());
  if (on) {
    const int n = s->m->ny;
    double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f);
    memcpy(y, s->d->y0, (size_t)n * sizeof *y);
    for (size_t r = 0; r < s->m->nrods; r++) { /* velocities, so that friction slides */
      const int nq = cosrod_rod_nq(s->m->rods[r]);
      for (int i = nq; i < 2 * nq; i++) y[s->m->map[s->m->off_r[r] + i]] += 0.01 * sin(1.3 * i + (double)r);
    }
    sim_rhs(0.0, y, f, s);
    size_t np = cosrod_contact_npoints(cosrod_sim_contact_data(sim)), nrr = 0;
    const cosrod_contact_point *pt = cosrod_contact_points(cosrod_sim_contact_data(sim));
    for (size_t k = 0; k < np; k++) nrr += pt[k].other_kind == 1;
    CHECK("rod-rod contact active", nrr > 0);
    double outside;
    int ncross;
    const double e = fd_error(s, y, &outside, &ncross);
    NOTE("  max |J - J_fd| / column max %.3g, FD outside the pattern %.3g, %d cross-rod entries", e, outside, ncross);
    CHECK("sparse Jacobian = central differences (1e-6 of the column max)", e < 1e-6);
    CHECK("no difference entry outside the pattern (1e-6 of the column max)", outside < 1e-6);
    CHECK("cross-rod entries present", ncross > 0);
    free(y), free(f);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(sparse_jacobian_equals_differences_absolute_dae) {
  const char *forms[] = {"absolute", "dae"}, *methods[] = {"radau5", "rodas", "seulex"};
  for (int f = 0; f < 2; f++)
    for (int m = 0; m < 3; m++) fd_case(forms[f], methods[m]);
}

/* Hose b dropped from 3 cm across hose a lying on the floor (rods-crossing
 * in small: 0.4 m, 8 segments each). */
static const char *DROP =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n"
    "  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "rods:\n"
    "  - name: a\n"
    "    length: 0.4\n"
    "    segments: 8\n"
    "    material: rubber\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [-0.2, 0, 0.0099], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "  - name: b\n"
    "    length: 0.4\n"
    "    segments: 8\n"
    "    material: rubber\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [0.01, -0.2, 0.05], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: 0.25}\n"
    "solver: {formulation: nullspace, integrator: radau5, rtol: 1.0e-6, atol: 1.0e-8}\n";

typedef struct drop_run {
  long nsteps, nconvfail;
  double x[2][27]; /* vertex positions of both rods at t_end */
  int ok;
} drop_run;

static drop_run drop(const char *form) {
  char sf[64];
  snprintf(sf, sizeof sf, "solver.formulation=%s", form);
  const char *sets[] = {sf};
  drop_run o = {0};
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  cosrod_sim *sim = sim_test_run(DROP, "drop.yaml", sets, 1, NULL, &sc, &st);
  if (!sim) return o;
  const cosrod_integrate_stats *stats = cosrod_sim_stats(sim);
  o.ok = st == COSROD_OK, o.nsteps = stats->nsteps, o.nconvfail = stats->nconvfail;
  for (int r = 0; r < 2; r++) memcpy(o.x[r], cosrod_sim_rod_data(sim, (size_t)r)->x, sizeof o.x[r]);
  NOTE("%s: %ld steps, %ld Newton failures; %s", form, o.nsteps, o.nconvfail, cosrod_sim_linear_solver(sim));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return o;
}

TEST(absolute_and_dae_runs_match_nullspace) {
  if (!cosrod_sparse_available()) return; /* (the band path is what this compares against) */
  const drop_run ns = drop("nullspace");
  const char *forms[] = {"absolute", "dae"};
  for (int f = 0; f < 2; f++) {
    const drop_run o = drop(forms[f]);
    if (!ns.ok || !o.ok) continue;
    double dx = 0;
    for (int r = 0; r < 2; r++)
      for (int k = 0; k < 27; k++) dx = fmax(dx, fabs(o.x[r][k] - ns.x[r][k]));
    /* each run's global error: at most the per-step tolerance atol + rtol |x| (|x| <= 0.21 m) summed over
     * its steps (errors add without cancelling in the worst case) */
    const double bound = (double)(o.nsteps + ns.nsteps) * (1e-8 + 1e-6 * 0.21);
    NOTE("%s vs nullspace: max |x - x_ns| = %.3g m (bound %.3g m)", forms[f], dx, bound);
    CHECK("steps within 1.5 times the null-space run", o.nsteps <= 1.5 * (double)ns.nsteps);
    CHECK("Newton failures within 1.5 times the null-space run + 5",
          o.nconvfail <= 1.5 * (double)ns.nconvfail + 5.0);
    CHECK("end state = the null-space run's within the global error bound", dx < bound);
  }
}

static const th_case cases[] = {TH_CASE(sparse_jacobian_equals_differences_absolute_dae),
                                TH_CASE(absolute_and_dae_runs_match_nullspace)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
