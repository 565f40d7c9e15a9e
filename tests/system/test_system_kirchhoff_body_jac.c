// SPDX-License-Identifier: Apache-2.0
/* Jacobian of the Kirchhoff DAE form with a rod on a rigid body
 * (couple_kirchhoff_jac.c) against fourth-order central differences of the
 * coupled right-hand side (cosrod_sim_problem: f and jac), entrywise over
 * the whole matrix (outside the band it must be zero): extensible and
 * inextensible, clamped and pinned on a free body, damped and undamped.
 * The state is the initial one moved by a fixed deterministic perturbation
 * of every entry (multipliers included), so that no term vanishes. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "sim/sim_hooks.h"
#include "sim_test_util.h"

/* Rubber rod clamped at the origin, its lower end on a 1 kg body. */
static const char *HANG =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    model: kirchhoff-extensible\n"
    "    length: 0.5\n"
    "    segments: 4\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: box, at: [0, 0, 0.1]}\n"
    "bodies:\n"
    "  - {name: box, mass: 1.0, inertia: [0.01, 0.012, 0.005], position: [0, 0, -0.6],\n"
    "     velocity: [0.1, -0.2, 0.05], angular_velocity: [0.3, -0.5, 0.7]}\n"
    "analysis: {type: dynamic, t_end: 1.0}\n"
    "solver: {formulation: dae, integrator: radau5}\n";

/* Largest |J - J_fd| / allowed over all entries. */
static void compare(const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(HANG, "hang-kdae.yaml", sets, nsets, &sc);
  if (!sim) return;
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  const int n = p->n, ml = p->jac_ml, mu = p->jac_mu, ldj = ml + mu + 1;
  CHECK("Jacobian callback set", p->jac != NULL && p->jac_banded && p->f != NULL);
  double *y = malloc((size_t)n * sizeof *y), *yp = malloc((size_t)n * sizeof *yp);
  double *f[4], *Jb = calloc((size_t)ldj * (size_t)n, sizeof *Jb), *col = malloc((size_t)n * sizeof *col);
  for (int k = 0; k < 4; k++) f[k] = malloc((size_t)n * sizeof *f[k]);
  if (!y || !yp || !f[0] || !f[1] || !f[2] || !f[3] || !Jb || !col || !p->jac || !p->f) goto done;
  memcpy(y, cosrod_sim_state(sim), (size_t)n * sizeof *y);
  for (int i = 0; i < n; i++) y[i] += 2e-3 * sin(1.7 * i + 0.3) * fmax(1.0, fabs(y[i])); /* off equilibrium */
  int rc = p->jac(0.1, y, Jb, ldj, p->user);
  CHECK("jac ok", rc == 0);
  memcpy(yp, y, (size_t)n * sizeof *yp);
  double worst = 0.0, wa = 0.0, wf = 0.0;
  int wi = -1, wj = -1;
  const double u = DBL_EPSILON, c3 = cbrt(DBL_EPSILON);
  /* T_i bounds the size of the terms f_i sums (first-order size of the
   * summands, as in test_rod_kirchhoff_jac.c): |f_i| + sum_j |J_ij| s_j with
   * s_j = max(|y_j|, 1e-3), the scale of the coupling differences' step */
  double *T = calloc((size_t)n, sizeof *T), *f0 = malloc((size_t)n * sizeof *f0);
  if (!T || !f0) goto done2;
  rc |= p->f(0.1, y, f0, p->user);
  for (int i = 0; i < n; i++) T[i] = fabs(f0[i]);
  for (int j = 0; j < n; j++)
    for (int i = j - mu < 0 ? 0 : j - mu; i <= j + ml && i < n; i++)
      T[i] += fabs(Jb[(size_t)j * (size_t)ldj + (size_t)(mu + i - j)]) * fmax(fabs(y[j]), 1e-3);
  for (int j = 0; j < n; j++) {
    /* reference: fourth-order central differences, h = 1e-5 max(1, |y_j|):
     * truncation h^4 |f^(5)| / 30 ~ 1e-17 of the column; rounding
     * (8 + 8 + 1 + 1) u T_i / (12 h) */
    const double h = 1e-5 * fmax(1.0, fabs(y[j])), hs[4] = {h, -h, 2 * h, -2 * h};
    for (int k = 0; k < 4; k++) {
      yp[j] = y[j] + hs[k];
      rc |= p->f(0.1, yp, f[k], p->user);
    }
    /* the implementation's coupling columns: second-order central
     * differences with step d = cbrt(u) max(|y_j|, 1e-3), whose truncation
     * (d^2/6 times the third derivative) is measured here as the distance of
     * the same quotient to the reference, less its rounding (analytic
     * columns are more accurate than that) */
    const double dj = c3 * fmax(fabs(y[j]), 1e-3);
    yp[j] = y[j] + dj;
    rc |= p->f(0.1, yp, f0, p->user);
    for (int i = 0; i < n; i++) col[i] = f0[i];
    yp[j] = y[j] - dj;
    rc |= p->f(0.1, yp, f0, p->user);
    yp[j] = y[j];
    for (int i = 0; i < n; i++) {
      const double ref = (8.0 * (f[0][i] - f[1][i]) - (f[2][i] - f[3][i])) / (12.0 * h);
      const double d2 = (col[i] - f0[i]) / (2.0 * dj), rnd = 64.0 * u * T[i] / dj;
      double a = (i - j <= ml && j - i <= mu) ? Jb[(size_t)j * (size_t)ldj + (size_t)(mu + i - j)] : 0.0;
      /* allowed: twice that truncation plus the rounding of both sides,
       * 64 u T_i / d (64 bounds the length of the evaluation chain, as in
       * the rod's Jacobian test) and 1.5 u T_i / h */
      double tol = 2.0 * fmax(fabs(d2 - ref) - rnd, 0.0) + rnd + 1.5 * u * T[i] / h + 1e-300;
      double e = fabs(a - ref) / tol;
      if (e > worst) worst = e, wi = i, wj = j, wa = a, wf = ref;
    }
  }
  CHECK("rhs ok", rc == 0);
  NOTE("n = %d, band (%d, %d): worst entry (%d, %d): error / allowed = %.3g (%.9g vs %.9g)", n, ml, mu, wi, wj,
       worst, wa, wf);
  /* a missing or wrong block is O(1e-3 .. 1) of its column; the forward
   * differences of the whole band (COSROD_KIRCHHOFF_JAC=fd: no callback,
   * differenced inside the integrator) are sqrt(u) ~ 1e-8 relative */
  CHECK_LE("Jacobian = differences (error / allowed)", worst, 1.0);
done2:
  free(T), free(f0);
done:
  free(y), free(yp), free(Jb), free(col);
  for (int k = 0; k < 4; k++) free(f[k]);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

#define SETS(...) \
  (const char *const[]){__VA_ARGS__}, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *)
#define KV "rods.0.damping={kelvin_voigt: {tau_shear: 0.02, tau_bulk: 0.02}}"

TEST(ext_clamped_undamped) { compare(NULL, 0); }
TEST(ext_clamped_damped) { compare(SETS(KV)); }
TEST(ext_pinned_damped) { compare(SETS(KV, "rods.0.ends.end.type=pinned")); }
TEST(inext_clamped_damped) { compare(SETS(KV, "rods.0.model=kirchhoff-inextensible")); }
TEST(inext_pinned_undamped) { compare(SETS("rods.0.model=kirchhoff-inextensible", "rods.0.ends.end.type=pinned")); }
/* 12 segments: the band (60) no longer reaches the clamped start from the
 * body rows, so the rod's own analytic columns are checked in the coupled
 * system too */
TEST(ext_clamped_damped_n12) { compare(SETS(KV, "rods.0.segments=12")); }
TEST(inext_pinned_damped_n12) {
  compare(SETS(KV, "rods.0.model=kirchhoff-inextensible", "rods.0.ends.end.type=pinned", "rods.0.segments=12"));
}
TEST(inext_pinned_damped) { compare(SETS(KV, "rods.0.model=kirchhoff-inextensible", "rods.0.ends.end.type=pinned")); }

/* A run: the damped steel rod (2 segments, extensible, Kelvin-Voigt 1e-3 s)
 * clamped on a free 0.1 kg body pulled by 1 N (test_sim_couple_mass.c), DAE,
 * rtol = atol = 1e-8, over the first 5 ms.  rodas (a Rosenbrock method:
 * exact J needed for its order and stability) took 2784 steps with the
 * forward-difference J (COSROD_KIRCHHOFF_JAC=fd), 114 with this one; 500
 * separates them with a factor > 4 either way.  Agreement with radau5
 * (insensitive to J): each keeps its local error below atol + rtol |y|
 * <= 2e-8 (|tip| < 1 m) per step and the damped problem contracts errors,
 * so 10x that for the difference of the two (2e-7 m). */

/* integ, then the model and t_end overrides (NULL: the scenario's) */
static int pulled_run(const char *integ, const char *model, const char *tend, double tip[3], long *nsteps) {
  cosrod_scenario *sc;
  /* the pulled assembly of sim_test_util.h: an extensible Kirchhoff rod,
   * damped, in the DAE form, over 5 ms */
  const char *sets[] = {"rods.0.model=kirchhoff-extensible",
                        "rods.0.damping.kelvin_voigt.tau_shear=1.0e-3",
                        "rods.0.damping.kelvin_voigt.tau_bulk=1.0e-3",
                        "analysis.t_end=0.005",
                        "solver.formulation=dae",
                        "solver.max_steps=100000",
                        "output.every=0.005",
                        integ,
                        model ? model : integ,
                        tend ? tend : integ};
  cosrod_sim *sim = sim_test_parse(sim_test_pulled(), "pulled-kdae.yaml", sets, 10, &sc);
  if (!sim) return 0;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run OK", st == COSROD_OK);
  cosrod_sim_tip(sim, 0, tip);
  *nsteps = cosrod_sim_stats(sim)->nsteps;
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK;
}

TEST(rodas_pulled_body_rod) {
  double tr[3], ta[3];
  long nr = 0, na = 0;
  if (!pulled_run("solver.integrator=radau5", NULL, NULL, ta, &na) ||
      !pulled_run("solver.integrator=rodas", NULL, NULL, tr, &nr))
    return;
  double dmax = 0.0;
  for (int i = 0; i < 3; ++i) dmax = fmax(dmax, fabs(tr[i] - ta[i]));
  NOTE("rodas %ld steps, radau5 %ld steps, tip difference %.3g m (tip x %.9g)", nr, na, dmax, tr[0]);
  CHECK("tip has moved (m)", fabs(tr[0] - 0.25) > 1e-5); /* ~ F t² / (2 M) = 5e-5 m */
  CHECK_LE("rodas steps (forward-difference J: 2784)", (double)nr, 500.0);
  CHECK_LE("rodas tip vs radau5 (m)", dmax, 2e-7);
}

/* The same inextensible, over the whole 0.2 s: rodas took 8143 steps, every
 * one accepted, with the forward-difference J, 142 with this one (radau5
 * 119); 1000 separates them by a factor 7 and 8.  Agreement bound as above;
 * the tip moves by ~ F t² / (2 M) = 0.09 m (M = 0.22 kg). */
TEST(rodas_pulled_body_rod_inextensible) {
  double tr[3], ta[3];
  long nr = 0, na = 0;
  const char *m = "rods.0.model=kirchhoff-inextensible", *te = "analysis.t_end=0.2";
  if (!pulled_run("solver.integrator=radau5", m, te, ta, &na) || !pulled_run("solver.integrator=rodas", m, te, tr, &nr))
    return;
  double dmax = 0.0;
  for (int i = 0; i < 3; ++i) dmax = fmax(dmax, fabs(tr[i] - ta[i]));
  NOTE("rodas %ld steps, radau5 %ld steps, tip difference %.3g m (tip x %.9g)", nr, na, dmax, tr[0]);
  CHECK("tip has moved (m)", fabs(tr[0] - 0.25) > 1e-5);
  CHECK_LE("rodas steps (forward-difference J: 8143)", (double)nr, 1000.0);
  CHECK_LE("rodas tip vs radau5 (m)", dmax, 2e-7);
}

static const th_case cases[] = {
    TH_CASE(rodas_pulled_body_rod), TH_CASE(rodas_pulled_body_rod_inextensible),
    TH_CASE(ext_clamped_undamped), TH_CASE(ext_clamped_damped),   TH_CASE(ext_pinned_damped),
    TH_CASE(inext_clamped_damped), TH_CASE(inext_pinned_undamped), TH_CASE(inext_pinned_damped),
    TH_CASE(ext_clamped_damped_n12), TH_CASE(inext_pinned_damped_n12),
};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
