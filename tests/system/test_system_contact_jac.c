// SPDX-License-Identifier: Apache-2.0
/* Sparse Jacobians of contact (contact_jac_sp.c, couple_jac_sp.c):
 *   - two crossing rods pressed into each other (active rod-rod contact,
 *     with rod-rod friction): the assembled sparse Jacobian equals central
 *     differences of the right-hand side, column by column, to 1e-6 of the
 *     column's largest entry (central differences with h = 1e-5 |y| + 1e-8:
 *     round-off eps |f| / h and truncation h^2 f''' both ~1e-9 relative
 *     here; measured 5.8e-8), including the entries between the two rods
 *     (present and non-zero), and the differences have no entry outside the
 *     pattern;
 *   - a rod lying on a free box-shaped body (on a bushing), moving, and a
 *     rod sliding with friction over a cylinder mounted off the centre of
 *     mass of a free body: the coupled sparse Jacobian, analytic including
 *     the contact's body <-> rod blocks (couple_contact_jac.c; the analytic
 *     path is checked to be taken), equals central differences to the same
 *     1e-6 (measured: see the NOTE lines);
 *   - auto picks the sparse path (cosrod_sim_linear_solver says so), and
 *     band without rod-rod and self-contact. */
#include <math.h>
#include <stdlib.h>

#include "cosrod/sparse.h"
#include "sim_test_util.h"
#include "system/contact_jac_sp.h"
#include "system/couple_jac_sp.h"
#include "system/linsolve.h"
#include "sim/sim_hooks.h"
#include "system/system_model.h"
#include "crossing_rods.h"

static const char *CROSS = CROSSING_RODS_YAML(radau5);

/* Compare the sparse Jacobian of s at y with central differences of f,
 * column by column (see the file comment); b0: first row/column of the
 * "other" block whose entries against the rest must be present. */
static void compare_fd(sys_system *s, const double *y, int b0, int b1, const char *what) {
  const int *cp = NULL, *ri = NULL;
  sim_linsolve_pattern(s, &cp, &ri);
  const int n = s->m->ny, nnz = cp[n];
  double *yp = malloc((size_t)n * sizeof *yp), *f1 = malloc((size_t)n * sizeof *f1);
  double *f2 = malloc((size_t)n * sizeof *f2), *Jx = malloc((size_t)nnz * sizeof *Jx);
  const double t = 0.0;
  CHECK("Jacobian evaluates", s->m->prob.jac_sp(t, y, Jx, s) == 0);
  double worst = 0, outside = 0, crossmax = 0, wa = 0, wd = 0, cworst = 0;
  int wi = -1, wj = -1, ncross = 0;
  for (int j = 0; j < n; j++) {
    double h = 1e-5 * fabs(y[j]) + 1e-8;
    for (int i = 0; i < n; i++) yp[i] = y[i];
    yp[j] = y[j] + h;
    sim_rhs(t, yp, f1, s);
    yp[j] = y[j] - h;
    sim_rhs(t, yp, f2, s);
    double scale = 0;
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(f1[i] - f2[i]) / (2 * h));
    int k = cp[j];
    for (int i = 0; i < n; i++) {
      double d = (f1[i] - f2[i]) / (2 * h), a = 0;
      if (k < cp[j + 1] && ri[k] == i)
        a = Jx[k++];
      else {
        outside = fmax(outside, fabs(d) / (scale + 1e-300));
        continue;
      }
      if (scale > 0 && fabs(a - d) / scale > worst) {
        worst = fabs(a - d) / scale;
        wi = i, wj = j, wa = a, wd = d;
      }
      const int ib = i >= b0 && i <= b1, jb = j >= b0 && j <= b1;
      if (ib != jb && a != 0.0) ncross++, crossmax = fmax(crossmax, fabs(a));
      if (ib != jb && scale > 0) cworst = fmax(cworst, fabs(a - d) / scale);
    }
  }
  NOTE(
      "%s: max |J - J_fd| / column max = %.3g at (%d, %d) (analytic %.9g, differences %.9g); FD outside the "
      "pattern %.3g; %d non-zero coupling entries (max %.3g), their max |J - J_fd| / column max %.3g",
      what, worst, wi, wj, wa, wd, outside, ncross, crossmax, cworst);
  CHECK("sparse Jacobian = central differences (1e-6 of the column max)", worst < 1e-6);
  CHECK("no difference entry outside the pattern (1e-6 of the column max)", outside < 1e-6);
  CHECK("coupling entries present", ncross > 0);
  free(yp), free(f1), free(f2), free(Jx);
}

TEST(sparse_jacobian_equals_differences) {
  /* (absolute rods without bodies run in the SPLIT layout of the M1 reduction: band) */
  const char *sets[] = {"solver.formulation=nullspace", "solver.integrator=radau5"};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(CROSS, "cross.yaml", sets, 2, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  NOTE("%s", cosrod_sim_linear_solver(sim));
  if (!cosrod_sparse_available()) { /* a build without KLU keeps the band */
    CHECK("without KLU: band", !s->m->prob.jac_sparse);
    cosrod_sim_free(sim), cosrod_scenario_free(sc);
    return;
  }
  const int *cp = NULL, *ri = NULL;
  int have = sim_linsolve_pattern(s, &cp, &ri);
  CHECK("auto: sparse with the contact pattern", have && s->m->prob.jac_sparse && s->m->prob.jac_sp);
  if (have && s->m->prob.jac_sp) {
    const int n = s->m->ny;
    double *y = malloc((size_t)n * sizeof *y);
    /* a moving state: the initial one with velocities (so friction slides) */
    for (int i = 0; i < n; i++) y[i] = s->d->y0[i];
    for (size_t r = 0; r < s->m->nrods; r++) {
      int nq = cosrod_rod_nq(s->m->rods[r]);
      for (int i = nq; i < s->m->ny_r[r]; i++) y[s->m->map[s->m->off_r[r] + i]] += 0.01 * sin(1.3 * i + r);
    }
    double f[1000];
    sim_rhs(0.0, y, f, s);
    size_t npts = cosrod_contact_npoints(cosrod_sim_contact_data(sim)), nrr = 0;
    const cosrod_contact_point *pt = cosrod_contact_points(cosrod_sim_contact_data(sim));
    for (size_t k = 0; k < npts; k++) nrr += pt[k].other_kind == 1;
    CHECK("rod-rod contact active", nrr > 0);
    compare_fd(s, y, s->m->qoff_r[1], n - 1, "rods a, b");
    NOTE("cross entries dropped (outside the pattern): %ld", sim_contact_jac_sp_dropped(s));
    free(y);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

/* A rod lying across a free box-shaped body on a bushing. */
static const char *ONBODY =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 0.4\n"
    "    segments: 8\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [-0.1, 0.01, 0.0098], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "bodies:\n"
    "  - name: block\n"
    "    mass: 0.5\n"
    "    inertia: [1.0e-3, 2.0e-3, 2.5e-3]\n"
    "    position: [0.05, 0, -0.02]\n"
    "    velocity: [0.01, 0.02, 0.03]\n"
    "    angular_velocity: [0.1, -0.2, 0.3]\n"
    "    shape: {type: box, size: [0.3, 0.1, 0.04]}\n"
    "joints:\n"
    "  - {type: bushing, bodies: [block, ground], at: [[0, 0, 0], [0.05, 0, -0.02]], stiffness: 1.0e4, "
    "stiffness_rot: 50}\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: 0.01}\n"
    "solver: {formulation: nullspace, integrator: radau5}\n";

/* A rod across a cylinder fixed to a free body away from its centre of
 * mass, with friction. */
static const char *ONCYL =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 0.4\n"
    "    segments: 8\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [-0.1, 0.01, -0.0002], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "bodies:\n"
    "  - name: drum\n"
    "    mass: 0.5\n"
    "    inertia: [1.0e-3, 2.0e-3, 2.5e-3]\n"
    "    position: [0.05, 0, -0.06]\n"
    "    orientation: {quaternion: [0.9950041652780258, 0.0, 0.0, 0.09983341664682815]}\n"
    "    velocity: [0.01, 0.02, 0.03]\n"
    "    angular_velocity: [0.1, -0.2, 0.3]\n"
    "    shape: {type: cylinder, center: [0.01, 0, 0.02], axis: [0, 1, 0], radius: 0.03, length: 0.2}\n"
    "joints:\n"
    "  - {type: bushing, bodies: [drum, ground], at: [[0, 0, 0], [0.05, 0, -0.06]], stiffness: 1.0e4, "
    "stiffness_rot: 50}\n"
    "contact: {friction: {static: 0.5, kinetic: 0.4}}\n"
    "analysis: {type: dynamic, t_end: 0.01}\n"
    "solver: {formulation: nullspace, integrator: radau5}\n";

static void body_case(const char *yaml, const char *name) {
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(yaml, name, NULL, 0, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  NOTE("%s", cosrod_sim_linear_solver(sim));
  if (!cosrod_sparse_available()) {
    CHECK("without KLU: band", !s->m->prob.jac_sparse);
    cosrod_sim_free(sim), cosrod_scenario_free(sc);
    return;
  }
  CHECK("auto: sparse for a contact shape on a body", s->m->prob.jac_sparse && s->m->prob.jac_sp);
  if (s->m->prob.jac_sparse && s->m->prob.jac_sp) {
    const int n = s->m->ny;
    double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f);
    for (int i = 0; i < n; i++) y[i] = s->d->y0[i];
    int nq = cosrod_rod_nq(s->m->rods[0]);
    for (int i = nq; i < s->m->ny_r[0]; i++) y[s->m->map[s->m->off_r[0] + i]] += 0.01 * sin(1.3 * i);
    sim_rhs(0.0, y, f, s);
    const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
    CHECK("rod touches the body", d && cosrod_contact_npoints(d) > 0);
    compare_fd(s, y, s->m->qoff_r[0], s->m->qoff_r[0] + s->m->ny_r[0] - 1, name);
    CHECK("body <-> rod contact blocks analytic (no differences)", !sim_couple_jac_contact_fd(s));
    free(y), free(f);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(body_contact_jacobian_equals_differences) {
  body_case(ONBODY, "box-body.yaml");
  body_case(ONCYL, "cylinder-body.yaml");
}

/* Global index of component c of vertex n's position (w = 0) or velocity (w = 1) in y, -1 if not free. */
static int vindex(const sys_system *s, int r, int n, int c, int w) {
  const cosrod_rod *rod = s->m->rods[r];
  if (cosrod_rod_vertex_ndof(rod, n) != 3) return -1;
  const int *map = s->m->map + s->m->off_r[r];
  return w ? map[cosrod_rod_nq(rod) + cosrod_rod_vindex_vertex(rod, s->m->form, n) + c]
           : map[cosrod_rod_qindex_vertex(rod, n) + c];
}

static int in_pattern(const int *cp, const int *ri, int i, int j) {
  for (int k = cp[j]; k < cp[j + 1]; k++)
    if (ri[k] == i) return 1;
  return 0;
}

/* The grid broad phase of the pattern (contact_jac_sp.c) against all segment
 * pairs written here: every pair of segments of the two rods whose gap is
 * within the margin 0.1 L_max has the velocity rows of one's vertices in the
 * position and velocity columns of the other's (both orders). */
TEST(pattern_holds_every_pair_within_the_margin) {
  const char *sets[] = {"solver.formulation=nullspace", "solver.integrator=radau5"};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(CROSS, "cross.yaml", sets, 2, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  const int *cp = NULL, *ri = NULL;
  if (!cosrod_sparse_available() || !sim_linsolve_pattern(s, &cp, &ri)) {
    CHECK("without KLU: no pattern", !cosrod_sparse_available());
    cosrod_sim_free(sim), cosrod_scenario_free(sc);
    return;
  }
  const double *xa = cosrod_sim_rod_data(sim, 0)->x, *xb = cosrod_sim_rod_data(sim, 1)->x, margin = 0.1 * 0.4;
  int within = 0, beyond = 0, missing = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      double u, w;
      double gap =
          cosrod_segment_segment_closest(&u, &w, xa + 3 * i, xa + 3 * i + 3, xb + 3 * j, xb + 3 * j + 3) -
          0.02;
      if (gap > margin) {
        beyond++;
        continue;
      }
      within++;
      for (int p = 0; p < 2; p++)
        for (int q = 0; q < 2; q++)
          for (int o = 0; o < 2; o++) { /* rows of rod o's vertex, columns of the other's */
            const int ra = o, na = o ? j + q : i + p, rb = 1 - o, nb = o ? i + p : j + q;
            for (int a = 0; a < 3; a++)
              for (int c = 0; c < 3; c++)
                for (int t = 0; t < 2; t++) {
                  const int row = vindex(s, ra, na, a, 1), col = vindex(s, rb, nb, c, t);
                  if (row >= 0 && col >= 0 && !in_pattern(cp, ri, row, col)) missing++;
                }
          }
    }
  NOTE("segment pairs within the margin %d, beyond %d; entries missing %d", within, beyond, missing);
  CHECK("pairs on both sides of the margin", within > 0 && beyond > 0);
  CHECK("every pair within the margin in the pattern", missing == 0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(auto_band_without_rod_contact) {
  const char *sets[] = {"contact.rods=false", "contact.self=false"};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(CROSS, "cross.yaml", sets, 2, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  NOTE("%s", cosrod_sim_linear_solver(sim));
  CHECK("band", !s->m->prob.jac_sparse && !strncmp(cosrod_sim_linear_solver(sim), "band", 4));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(sparse_jacobian_equals_differences), TH_CASE(body_contact_jacobian_equals_differences),
    TH_CASE(pattern_holds_every_pair_within_the_margin), TH_CASE(auto_band_without_rod_contact)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
