// SPDX-License-Identifier: Apache-2.0
/* The contact's sparse Jacobian with the cross-rod blocks
 * (contact_jac_sp.c) in the absolute and dae formulations (absolute rods
 * take the NODE layout for it, the DAE runs as a mass-matrix problem), and
 * for rods on a body (merged into the coupled pattern, couple_jac_sp.c):
 *   - two crossing rods pressed into each other with rod-rod friction, in
 *     each form and for radau5, rodas and seulex (and on a body in the
 *     nullspace and absolute forms): the sparse path is taken, the entries
 *     between the two rods are present, non-zero and equal to central
 *     differences of f within the differences' own error bound (see
 *     fd_error), all entries within 1e-6 of the column's largest (1e-5 on
 *     a body, see there), and the differences have no entry outside the
 *     pattern;
 *   - Kirchhoff rods in dae: the pattern (values by grouped differences)
 *     holds every difference entry, the cross-rod ones included;
 *   - a hose dropped across another (rods-crossing in small): absolute and
 *     dae take at most 1.5 times the steps and Newton failures of the
 *     null-space run (measured 262 / 285 steps, 13 / 15 failures against
 *     263, 12; on the band without the cross blocks 920 / 912 steps, 379 /
 *     363 failures) and end at the null-space run's state: the three forms
 *     integrate the same equations, so their vertex positions differ by the
 *     runs' global errors, each below the tolerance atol + rtol |x| per step
 *     accumulated over the steps (see the test). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sparse.h"
#include "sim_test_util.h"
#include "system/contact_jac_sp.h"
#include "system/linsolve.h"
#include "sim/sim_hooks.h"
#include "system/system_model.h"
#include "crossing_rods.h"

static const char *CROSS = CROSSING_RODS_YAML(radau5);

/* Central differences of f in column j with step h into d (n). */
static void central(sys_system *s, const double *y, double *yp, double *f1, double *f2, int j, double h, double *d) {
  const int n = s->m->ny;
  memcpy(yp, y, (size_t)n * sizeof *yp);
  yp[j] = y[j] + h, sim_rhs(0.0, yp, f1, s);
  yp[j] = y[j] - h, sim_rhs(0.0, yp, f2, s);
  for (int i = 0; i < n; i++) d[i] = (f1[i] - f2[i]) / (2 * h);
}

/* The largest |J - D_h| / (2 |D_h - D_2h| + 1e-8 column max) over the
 * pattern (rel != NULL: over the entries between the two rods' blocks, and
 * the largest |J - D_h| / column max over all in *rel) (D_h: central differences with h = 1e-5 |y_j| + 1e-8; its error
 * is estimated by the differences with 2 h: the truncation error c h^2
 * grows 4 times, the round-off eps |f| / h halves, so |D_h - D_2h| >= about
 * the error of D_h either way, and 2 |D_h - D_2h| bounds it; the floor
 * 1e-8 of the column's largest entry covers entries where both errors
 * vanish).  *outside: the largest difference entry outside the pattern (per
 * the column max); *ncross: non-zero entries between rows and columns of
 * the two rods' blocks (split at the second rod's first row). */
static double fd_error(sys_system *s, const double *y, double *outside, int *ncross, double *rel) {
  const int *cp = NULL, *ri = NULL;
  sim_linsolve_pattern(s, &cp, &ri);
  const int n = s->m->ny, b0 = s->m->qoff_r[1];
  double *yp = malloc((size_t)n * sizeof *yp), *f1 = malloc((size_t)n * sizeof *f1);
  double *f2 = malloc((size_t)n * sizeof *f2), *d1 = malloc((size_t)n * sizeof *d1);
  double *d2 = malloc((size_t)n * sizeof *d2), *Jx = malloc((size_t)cp[n] * sizeof *Jx), worst = 0, wrel = 0;
  *outside = 0, *ncross = 0;
  CHECK("Jacobian evaluates", s->m->prob.jac_sp(0.0, y, Jx, s) == 0);
  for (int j = 0; j < n; j++) {
    const double h = 1e-5 * fabs(y[j]) + 1e-8;
    central(s, y, yp, f1, f2, j, h, d1);
    central(s, y, yp, f1, f2, j, 2 * h, d2);
    double scale = 1e-300;
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(d1[i]));
    for (int i = 0, k = cp[j]; i < n; i++) {
      if (k < cp[j + 1] && ri[k] == i) {
        const double a = Jx[k++];
        const int cross = (i >= b0) != (j >= b0);
        if (cross || !rel) worst = fmax(worst, fabs(a - d1[i]) / (2 * fabs(d1[i] - d2[i]) + 1e-8 * scale));
        wrel = fmax(wrel, fabs(a - d1[i]) / scale);
        if (cross && a != 0.0) ++*ncross;
      } else {
        *outside = fmax(*outside, fabs(d1[i]) / scale);
      }
    }
  }
  NOTE("  max |J - D_h| / column max %.3g", wrel);
  if (rel) *rel = wrel;
  free(yp), free(f1), free(f2), free(d1), free(d2), free(Jx);
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
      for (int i = nq; i < 2 * nq; i++) { /* (an attached end's components are not in y: map < 0) */
        const int g = s->m->map[s->m->off_r[r] + i];
        if (g >= 0) y[g] += 0.01 * sin(1.3 * i + (double)r);
      }
    }
    sim_rhs(0.0, y, f, s);
    size_t np = cosrod_contact_npoints(cosrod_sim_contact_data(sim)), nrr = 0;
    const cosrod_contact_point *pt = cosrod_contact_points(cosrod_sim_contact_data(sim));
    for (size_t k = 0; k < np; k++) nrr += pt[k].other_kind == 1;
    CHECK("rod-rod contact active", nrr > 0);
    double outside;
    int ncross;
    double rel;
    const double e = fd_error(s, y, &outside, &ncross, &rel);
    NOTE("  cross entries: max |J - D_h| / its error bound %.3g; FD outside the pattern %.3g, %d cross-rod entries",
         e, outside, ncross);
    CHECK("cross-rod entries = central differences within their error bound", e < 1.0);
    CHECK("sparse Jacobian = central differences (1e-6 of the column max, as in the null-space form's test)",
          rel < 1e-6);
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

/* Kirchhoff rods (formulation dae): the contact pattern with values by
 * differences grouped on it (no analytic values); checked: the central
 * differences of f at the crossing state have no entry outside the pattern
 * (1e-6 of the column max, as above) and non-zero entries between the rods. */
TEST(kirchhoff_dae_pattern_holds_the_differences) {
  const char *sets[] = {"solver.formulation=dae", "rods.0.model=kirchhoff-extensible",
                        "rods.1.model=kirchhoff-extensible"};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(CROSS, "cross.yaml", sets, 3, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  NOTE("Kirchhoff, dae: %s", cosrod_sim_linear_solver(sim));
  const int *cp = NULL, *ri = NULL;
  const int on = sim_linsolve_pattern(s, &cp, &ri) && s->m->prob.jac_sparse && !s->m->prob.jac_sp;
  CHECK("sparse with the contact pattern, grouped differences (or no KLU)", on == cosrod_sparse_available());
  if (on) {
    const int n = s->m->ny, b0 = s->m->qoff_r[1];
    double *y = malloc((size_t)n * sizeof *y), *yp = malloc((size_t)n * sizeof *yp);
    double *f1 = malloc((size_t)n * sizeof *f1), *f2 = malloc((size_t)n * sizeof *f2);
    double *d = malloc((size_t)n * sizeof *d), outside = 0;
    memcpy(y, s->d->y0, (size_t)n * sizeof *y);
    int ncross = 0;
    for (int j = 0; j < n; j++) {
      central(s, y, yp, f1, f2, j, 1e-5 * fabs(y[j]) + 1e-8, d);
      double scale = 1e-300;
      for (int i = 0; i < n; i++) scale = fmax(scale, fabs(d[i]));
      for (int i = 0, k = cp[j]; i < n; i++) {
        if (k < cp[j + 1] && ri[k] == i) {
          k++;
          if ((i >= b0) != (j >= b0) && fabs(d[i]) > 1e-6 * scale) ncross++;
        } else {
          outside = fmax(outside, fabs(d[i]) / scale);
        }
      }
    }
    NOTE("  FD outside the pattern %.3g, %d cross-rod difference entries", outside, ncross);
    CHECK("no difference entry outside the pattern (1e-6 of the column max)", outside < 1e-6);
    CHECK("cross-rod entries in the pattern", ncross > 0);
    free(y), free(yp), free(f1), free(f2), free(d);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* CROSS with rod a clamped at its start to a block on a bushing (the
 * coupled path, couple_jac_sp.c, with the contact's blocks merged in). */
static char *on_body(const char *base) {
  const char *key = "    shape: {type: straight, start: [-0.21, 0.003, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n";
  const char *ends = "    ends: {start: {type: clamped, body: block, at: [0.02, 0, 0]}}\n";
  const char *body =
      "bodies:\n"
      "  - {name: block, mass: 0.2, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [-0.23, 0.003, 0],\n"
      "     velocity: [0.01, 0.02, 0.03], angular_velocity: [0.1, -0.2, 0.3]}\n"
      "joints:\n"
      "  - {type: bushing, bodies: [block, ground], at: [[0, 0, 0], [-0.23, 0.003, 0]], stiffness: 1.0e4, "
      "stiffness_rot: 50}\n";
  const char *at = strstr(base, key), *c = strstr(base, "contact:");
  char *out = malloc(strlen(base) + strlen(ends) + strlen(body) + 1);
  if (!out || !at || !c) return free(out), NULL;
  const size_t n1 = (size_t)(at - base) + strlen(key);
  const size_t ne = strlen(ends), nm = (size_t)(c - base) - n1, nb = strlen(body);
  memcpy(out, base, n1);
  memcpy(out + n1, ends, ne);
  memcpy(out + n1 + ne, base + n1, nm);
  memcpy(out + n1 + ne + nm, body, nb);
  strcpy(out + n1 + ne + nm + nb, c);
  return out;
}

static void body_case(const char *form) {
  char sf[64];
  snprintf(sf, sizeof sf, "solver.formulation=%s", form);
  const char *sets[] = {sf};
  char *yaml = on_body(CROSS);
  CHECK("scenario text", yaml != NULL);
  if (!yaml) return;
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(yaml, "cross-body.yaml", sets, 1, &sc);
  free(yaml);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  NOTE("on a body, %s: %s", form, cosrod_sim_linear_solver(sim));
  const int *cp = NULL, *ri = NULL;
  const int on = sim_linsolve_pattern(s, &cp, &ri) && s->m->prob.jac_sparse && s->m->prob.jac_sp;
  CHECK("auto: sparse, analytic, with the contact's blocks (or no KLU)",
        on == cosrod_sparse_available() && (!on || s->d->ccj));
  if (on) {
    const int n = s->m->ny;
    double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f);
    memcpy(y, s->d->y0, (size_t)n * sizeof *y);
    for (size_t r = 0; r < s->m->nrods; r++) {
      const int nq = cosrod_rod_nq(s->m->rods[r]);
      for (int i = nq; i < 2 * nq; i++) { /* (an attached end's components are not in y: map < 0) */
        const int g = s->m->map[s->m->off_r[r] + i];
        if (g >= 0) y[g] += 0.01 * sin(1.3 * i + (double)r);
      }
    }
    sim_rhs(0.0, y, f, s);
    double outside;
    int ncross;
    double rel;
    const double e = fd_error(s, y, &outside, &ncross, &rel);
    NOTE("  cross entries: max |J - D_h| / its error bound %.3g; FD outside the pattern %.3g, %d cross entries", e,
         outside, ncross);
    CHECK("cross-rod entries = central differences within their error bound", e < 1.0);
    /* the rest is the coupled path's Jacobian (rod bands, body blocks), unchanged here: its entries differ from
     * D_h by up to 1.4e-6 of the column max (measured, nullspace) where D_h's own error estimate is smaller,
     * so the check there is the looser 1e-5 of the column max */
    CHECK("coupled sparse Jacobian = central differences (1e-5 of the column max)", rel < 1e-5);
    CHECK("no difference entry outside the pattern (1e-6 of the column max)", outside < 1e-6);
    CHECK("cross-rod entries present", ncross > 0);
    free(y), free(f);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* (dae with bodies has no analytic coupled Jacobian: grouped differences on the same pattern) */
TEST(rods_on_a_body_sparse_jacobian_equals_differences) {
  body_case("nullspace");
  body_case("absolute");
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
                                TH_CASE(rods_on_a_body_sparse_jacobian_equals_differences),
                                TH_CASE(kirchhoff_dae_pattern_holds_the_differences),
                                TH_CASE(absolute_and_dae_runs_match_nullspace)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
