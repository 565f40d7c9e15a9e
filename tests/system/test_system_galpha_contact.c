// SPDX-License-Identifier: Apache-2.0
/* galpha with rod-rod contact: sparse tangents with the contact's cross
 * blocks (lie_contact_sp.c, galpha_sparse.c).
 *   - tangent = differences: two crossing rods pressed into each other
 *     (rod-rod contact with friction, moving): the sparse K, C equal central
 *     differences of the same right-hand side in galpha's tangent
 *     coordinates, K(:, j) = (f_v(q ⊕ h e_j, v) - f_v(q ⊕ -h e_j, v)) / 2h,
 *     C(:, j) = (f_v(q, v + h e_j) - f_v(q, v - h e_j)) / 2h, column by
 *     column to 1e-6 of the column's largest entry, with no difference entry
 *     outside the pattern and non-zero entries between the rods.  Tolerance:
 *     h = 1e-7 (m, rad, m/s, rad/s); truncation h² |f'''| / 6 relative to
 *     |f'| is (h / ℓ)² / 6 with ℓ the shortest length over which the forces
 *     vary, the contact's penetration scale ~1e-4 m here: ~2e-7; round-off
 *     ε |f| / h relative to |f'| ~ |f| / ℓ is ε ℓ / h ~ 2e-13;
 *   - rods-crossing (hose b falls across hose a on the floor, frictionless),
 *     0.2 s: galpha with the sparse tangents has fewer Newton failures than
 *     with the rods' bands (COSROD_CONTACT_BAND=1: the cross blocks left
 *     out); its vertex positions agree with radau5's: both are convergent
 *     approximations accepted with local errors <= 1 in their scaled norms,
 *     so the RMS of |x1 - x2| / (atol + rtol max(|x|, D)) is at most n1 + n2
 *     (accepted steps; D = the largest RMS displacement, galpha's motion
 *     scale);
 *   - the contact forces between the rods are equal and opposite at the end
 *     state: for free rods Σ_n m_n ẍ_n over rod r = M_r g + its floor forces
 *     + the rod-rod force on r (internal forces cancel in pairs), so F_ab
 *     (from a's sum) + F_ba (from b's) = 0, and F_ab = the sum of the rod-rod
 *     contact points' forces on a; to 1e-9 of the rods' weight (round-off of
 *     the accelerations: ε |internal force| per vertex, internal forces ~
 *     the weight here, 42 vertices: ~1e-14 of the weight);
 *   - two hoses on the floor that never touch each other (rod-rod and
 *     self-contact on): the pattern never grows and galpha takes the band
 *     path with the same values, so the run equals the band run
 *     (COSROD_CONTACT_BAND=1, the path before the sparse tangents) bit for
 *     bit; without rod-rod and self-contact no sparse tangents at all. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "cosrod/contact.h"
#include "cosrod/sparse.h"
#include "sim/sim_hooks.h"
#include "sim_test_util.h"
#include "system/system_model.h"
#include "crossing_rods.h"

static const char *CROSS = CROSSING_RODS_YAML(galpha);

/* K, C at y on the (grown) pattern; returns the pattern. */
static long eval_tangent(sys_system *s, const double *y, double **Kx, double **Cx, const int **cp, const int **ri) {
  const cosrod_ode_problem *p = &s->m->prob;
  const int nv = s->m->ny - s->m->nq_tot;
  long v0 = p->tangent_pattern(s, cp, ri), v = v0;
  for (int pass = 0; pass < 3; pass++) {
    const int nnz = (*cp)[nv];
    free(*Kx), free(*Cx);
    *Kx = calloc((size_t)nnz, sizeof **Kx), *Cx = calloc((size_t)nnz, sizeof **Cx);
    CHECK("tangent evaluates", p->jac_tangent_sp(0.0, y, *Kx, *Cx, s) == 0);
    v = p->tangent_pattern(s, cp, ri);
    if (v == v0) break;
    v0 = v;
  }
  return v;
}

/* max over columns of |A - A_fd| / column max, differences outside the
 * pattern, cross-rod entries; col(j, sign, fp) gives f at the perturbed state. */
static void compare(sys_system *s, const double *y, int kc, const double *Ax, const int *cp, const int *ri) {
  const int n = s->m->ny, nq = s->m->nq_tot, nv = n - nq, v1 = s->m->lie_voff_r[1];
  const double h = 1e-7;
  double *yp = malloc((size_t)n * sizeof *yp), *f1 = malloc((size_t)n * sizeof *f1), *f2 = malloc((size_t)n * sizeof *f2);
  double *w = calloc((size_t)nv, sizeof *w), worst = 0, outside = 0;
  int ncross = 0;
  for (int j = 0; j < nv; j++) {
    for (int sg = 0; sg < 2; sg++) {
      double *f = sg ? f2 : f1, e = sg ? -h : h;
      memcpy(yp, y, (size_t)n * sizeof *yp);
      if (kc) {
        w[j] = e;
        sim_lie_increment(y, w, yp, s);
        w[j] = 0.0;
      } else {
        yp[nq + j] += e;
      }
      sim_rhs(0.0, yp, f, s);
    }
    double scale = 0;
    for (int i = 0; i < nv; i++) scale = fmax(scale, fabs(f1[nq + i] - f2[nq + i]) / (2 * h));
    int k = cp[j];
    for (int i = 0; i < nv; i++) {
      const double d = (f1[nq + i] - f2[nq + i]) / (2 * h);
      if (!(k < cp[j + 1] && ri[k] == i)) {
        outside = fmax(outside, fabs(d) / (scale + 1e-300));
        continue;
      }
      const double a = Ax[k++];
      if (scale > 0) worst = fmax(worst, fabs(a - d) / scale);
      if ((i < v1) != (j < v1) && a != 0.0) ncross++;
    }
  }
  NOTE("%s: max |A - A_fd| / column max %.3g, FD outside the pattern %.3g, %d non-zero entries between the rods",
       kc ? "K" : "C", worst, outside, ncross);
  CHECK("tangent = central differences (1e-6 of the column max)", worst < 1e-6);
  CHECK("no difference entry outside the pattern (1e-6 of the column max)", outside < 1e-6);
  CHECK("entries between the rods present", ncross > 0);
  free(yp), free(f1), free(f2), free(w);
}

TEST(sparse_tangent_equals_differences) {
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(CROSS, "cross.yaml", NULL, 0, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return;
  NOTE("%s", cosrod_sim_linear_solver(sim));
  if (!cosrod_sparse_available()) {
    CHECK("without KLU: the bands", !s->m->prob.jac_tangent_sp);
    cosrod_sim_free(sim), cosrod_scenario_free(sc);
    return;
  }
  CHECK("galpha with rod-rod contact: sparse tangents", s->m->prob.jac_tangent_sp && s->m->prob.tangent_pattern);
  if (s->m->prob.jac_tangent_sp) {
    const int n = s->m->ny, nq = s->m->nq_tot;
    double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f), *Kx = NULL, *Cx = NULL;
    memcpy(y, s->d->y0, (size_t)n * sizeof *y);
    for (int i = nq; i < n; i++) y[i] += 0.01 * sin(1.3 * i); /* moving: friction slides */
    sim_rhs(0.0, y, f, s);
    const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
    size_t nrr = 0;
    for (size_t k = 0; k < cosrod_contact_npoints(d); k++) nrr += cosrod_contact_points(d)[k].other_kind == 1;
    CHECK("rod-rod contact active", nrr > 0);
    const int *cp = NULL, *ri = NULL;
    long v = eval_tangent(s, y, &Kx, &Cx, &cp, &ri);
    NOTE("pattern version %ld, nnz %d", v, cp[n - nq]);
    CHECK("the pattern grew to hold the contact", v >= 1);
    compare(s, y, 1, Kx, cp, ri);
    compare(s, y, 0, Cx, cp, ri);
    free(y), free(f), free(Kx), free(Cx);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

typedef struct run_out {
  double *y, dmax;
  long naccept, nconvfail, npattern;
  int ok, nx;
} run_out;

/* Σ_n m_n ẍ_n - M g - floor forces of rod r (the rod-rod force on it) at the sim's state; also the sum
 * of the rod-rod contact points' forces on r into pts. */
static void rod_force(cosrod_sim *sim, sys_system *s, size_t r, const double *f, double F[3], double pts[3]) {
  const cosrod_rod *rod = s->m->rods[r];
  double rhoA;
  cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
  const double *w = cosrod_rod_vertex_weight(rod), g[3] = {0, 0, -9.81};
  const int N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod);
  for (int c = 0; c < 3; c++) F[c] = pts[c] = 0.0;
  for (int v = 0; v <= N; v++) {
    const int iv = s->m->map[s->m->off_r[r] + nq + cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, v)];
    for (int c = 0; c < 3; c++) F[c] += rhoA * w[v] * (f[iv + c] - g[c]);
  }
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  const cosrod_contact_point *p = cosrod_contact_points(d);
  for (size_t k = 0; k < cosrod_contact_npoints(d); k++, p++) {
    if (p->rod != (int)r) continue;
    for (int c = 0; c < 3; c++) {
      const double fk = p->fn * p->normal[c] + p->ft[c];
      if (p->other_kind == 0)
        F[c] -= fk;
      else
        pts[c] += fk;
    }
  }
}

static run_out run(const char *integ, int band, int forces) {
  run_out o = {0};
  char set[64];
  snprintf(set, sizeof set, "solver.integrator=%s", integ);
  const char *sets[] = {set, "analysis.t_end=0.2", "output.every=0.05"};
  if (band) setenv("COSROD_CONTACT_BAND", "1", 1);
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_load("rods-crossing", sets, 3, &sc);
  unsetenv("COSROD_CONTACT_BAND");
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return o;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  const cosrod_integrate_stats *S = cosrod_sim_stats(sim);
  o.naccept = S->naccept, o.nconvfail = S->nconvfail, o.npattern = S->npattern, o.ok = st == COSROD_OK;
  NOTE("%s%s: %s; %ld steps, %ld accepted, %ld rejected, %ld Newton failures, %ld Jacobians, %ld pattern rebuilds",
       integ, band ? " (bands)" : "", cosrod_sim_linear_solver(sim), S->nsteps, S->naccept, S->nreject,
       S->nconvfail, S->njev, S->npattern);
  const int n = s->m->ny;
  o.y = malloc((size_t)n * sizeof *o.y);
  memcpy(o.y, cosrod_sim_state(sim), (size_t)n * sizeof *o.y);
  if (forces && o.ok) {
    double *f = malloc((size_t)n * sizeof *f), Fa[3], Fb[3], Pa[3], Pb[3];
    sim_rhs(cosrod_sim_t(sim), o.y, f, s);
    rod_force(sim, s, 0, f, Fa, Pa);
    rod_force(sim, s, 1, f, Fb, Pb);
    double M = 0, sum = 0, dp = 0, fa = 0;
    for (size_t r = 0; r < 2; r++) {
      double rhoA;
      cosrod_rod_constants(s->m->rods[r], NULL, NULL, NULL, NULL, &rhoA, NULL);
      M += rhoA * 1.0; /* 1 m hoses */
    }
    for (int c = 0; c < 3; c++)
      sum += (Fa[c] + Fb[c]) * (Fa[c] + Fb[c]), dp += (Fa[c] - Pa[c]) * (Fa[c] - Pa[c]), fa += Fa[c] * Fa[c];
    const double W = M * 9.81;
    NOTE("rod-rod force on a (%.9g, %.9g, %.9g) N, on b (%.9g, %.9g, %.9g) N; |F_ab + F_ba| = %.3g N, "
         "|F_ab - points| = %.3g N (weight %.4g N)",
         Fa[0], Fa[1], Fa[2], Fb[0], Fb[1], Fb[2], sqrt(sum), sqrt(dp), W);
    CHECK("rods in contact at the end (force > 1 % of the weight)", sqrt(fa) > 0.01 * W);
    CHECK("equal and opposite (1e-9 of the weight)", sqrt(sum) < 1e-9 * W);
    CHECK("= the contact points' forces (1e-9 of the weight)", sqrt(dp) < 1e-9 * W);
    free(f);
  }
  /* motion scale D: RMS displacement of q from the start */
  double d = 0;
  for (int i = 0; i < s->m->nq_tot; i++) d += (o.y[i] - s->d->y0[i]) * (o.y[i] - s->d->y0[i]);
  o.dmax = sqrt(d / s->m->nq_tot);
  /* the vertex positions (the layouts of galpha and radau5 differ), rod by rod */
  double *x = malloc((size_t)n * sizeof *x);
  int m = 0;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    for (int v = 0; v <= cosrod_rod_nseg(rod); v++)
      for (int c = 0; c < 3; c++) x[m++] = o.y[s->m->map[s->m->off_r[r] + cosrod_rod_qindex_vertex(rod, v) + c]];
  }
  free(o.y), o.y = x, o.nx = m;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return o;
}

TEST(galpha_rods_crossing) {
  if (!cosrod_sparse_available()) {
    NOTE("no KLU: galpha keeps the bands");
    return;
  }
  run_out sp = run("galpha", 0, 1), bd = run("galpha", 1, 0), rr = run("radau5", 0, 0);
  if (sp.ok && bd.ok) {
    NOTE("Newton failures: bands %ld -> sparse tangents %ld", bd.nconvfail, sp.nconvfail);
    CHECK("fewer Newton failures with the cross blocks (at most half)", 2 * sp.nconvfail <= bd.nconvfail);
    CHECK("the pattern grew when the rods met", sp.npattern >= 1);
  }
  if (sp.ok && rr.ok) {
    const double rtol = 1e-4, atol = 1e-6, D = sp.dmax;
    double rms = 0, mx = 0;
    const int m = sp.nx;
    for (int i = 0; i < m; i++) {
      const double e = fabs(sp.y[i] - rr.y[i]) / (atol + rtol * fmax(fmax(fabs(sp.y[i]), fabs(rr.y[i])), D));
      rms += e * e, mx = fmax(mx, e);
    }
    rms = sqrt(rms / m);
    NOTE("galpha vs radau5 vertex positions: scaled RMS %.3g, max %.3g (bound %ld)", rms, mx, sp.naccept + rr.naccept);
    CHECK("galpha = radau5 within the tolerances' bound", rms <= (double)(sp.naccept + rr.naccept));
  }
  free(sp.y), free(bd.y), free(rr.y);
}

/* Two hoses on the floor 0.3 m apart (no rod-rod contact ever), one with a bend (self-contact on, no far pair). */
static const char *APART =
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
    "    shape: {type: straight, start: [-0.2, 0, 0.012], direction: [1, 0, 0.05], normal: [-0.05, 0, 1]}\n"
    "  - name: b\n"
    "    length: 0.4\n"
    "    segments: 8\n"
    "    material: rubber\n"
    "    section: {shape: circle, radius: 1.0e-2}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [-0.2, 0.3, 0.03], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "obstacles:\n"
    "  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: 0.1}\n"
    "solver: {formulation: nullspace, integrator: galpha}\n";

/* Final state and stats of APART with the sparse tangents or the bands (COSROD_CONTACT_BAND=1). */
static double *apart(int band, const char *set, int *n, cosrod_integrate_stats *st, int *sparse) {
  const char *sets[] = {set};
  if (band) setenv("COSROD_CONTACT_BAND", "1", 1);
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = sim_test_parse(APART, "apart.yaml", sets, set ? 1 : 0, &sc);
  unsetenv("COSROD_CONTACT_BAND");
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (!s) return NULL;
  *sparse = s->m->prob.jac_tangent_sp != NULL;
  CHECK("run ok", cosrod_sim_run(sim, NULL) == COSROD_OK);
  *n = s->m->ny;
  *st = *cosrod_sim_stats(sim);
  double *y = malloc((size_t)*n * sizeof *y);
  memcpy(y, cosrod_sim_state(sim), (size_t)*n * sizeof *y);
  NOTE("%s: %s; %ld steps, %ld Newton failures, %ld pattern rebuilds", band ? "bands" : "default",
       cosrod_sim_linear_solver(sim), st->nsteps, st->nconvfail, st->npattern);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return y;
}

TEST(without_far_contact_bit_identical) {
  int n1 = 0, n2 = 0, sp1 = 0, sp2 = 0;
  cosrod_integrate_stats a, b;
  double *y1 = apart(0, NULL, &n1, &a, &sp1), *y2 = apart(1, NULL, &n2, &b, &sp2);
  if (y1 && y2) {
    CHECK("sparse tangents set up (rod-rod and self-contact on)", sp1 == cosrod_sparse_available());
    CHECK("the band run has none", !sp2);
    CHECK("the pattern never grew", a.npattern == 0);
    CHECK("same steps", a.nsteps == b.nsteps && a.naccept == b.naccept && a.nfev == b.nfev && a.njev == b.njev);
    CHECK("the same final state bit for bit", n1 == n2 && memcmp(y1, y2, (size_t)n1 * sizeof *y1) == 0);
  }
  free(y1), free(y2);
  /* without rod-rod and self-contact: no sparse tangents at all */
  cosrod_scenario *sc = NULL;
  const char *sets[] = {"contact.rods=false", "contact.self=false"};
  cosrod_sim *sim = sim_test_parse(APART, "apart.yaml", sets, 2, &sc);
  sys_system *s = sim ? sim_system_of(sim) : NULL;
  if (s) {
    NOTE("contact.rods, self false: %s", cosrod_sim_linear_solver(sim));
    CHECK("no rod-rod or self-contact: the bands", !s->m->prob.jac_tangent_sp && !s->m->prob.tangent_pattern);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(sparse_tangent_equals_differences), TH_CASE(galpha_rods_crossing),
                                TH_CASE(without_far_contact_bit_identical)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
