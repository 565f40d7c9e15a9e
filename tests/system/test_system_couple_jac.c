// SPDX-License-Identifier: Apache-2.0
/* Analytic Jacobian of rods attached to rigid bodies (sim_couple_jac.c)
 * against central finite differences of the coupled right-hand side
 * (cosrod_sim_problem: f and jac), entrywise over the whole matrix (also
 * outside the band, which must be zero): pinned and clamped attachments,
 * null-space and absolute formulations, damped and undamped rods, a bushing,
 * a joint, directors and Euler-angle bodies, a keyframe-driven body and both
 * ends of one rod on bodies.  The state is the initial state moved off
 * equilibrium by a fixed deterministic perturbation of every entry
 * (positions, frames, velocities), so that no term vanishes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/integrate.h"
#include "harness.h"
#include "system/couple.h"
#include "sim/sim_hooks.h"
#include "sim_test_util.h"

/* Rubber rod (E = 5 MPa) clamped at the origin, lower end on a 1 kg body. */
static const char *HANG =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 0.5\n"
    "    segments: 4\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.02, tau_bulk: 0.02}}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: box, at: [0, 0, 0.1]}\n"
    "bodies:\n"
    "  - {name: box, mass: 1.0, inertia: [0.01, 0.012, 0.005], position: [0, 0, -0.6],\n"
    "     velocity: [0.1, -0.2, 0.05], angular_velocity: [0.3, -0.5, 0.7]}\n"
    "analysis: {type: dynamic, t_end: 1.0}\n"
    "solver: {formulation: nullspace, integrator: radau5}\n";

/* A rod with both ends on bodies: one carried by keyframes, one on a bushing. */
static const char *BOTH =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: hose\n"
    "    length: 0.4\n"
    "    segments: 5\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 6.0e-3}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.002, tau_bulk: 0.002}}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: arm, at: [0.05, 0, 0]}\n"
    "      end: {type: pinned, body: b, at: [-0.05, 0, 0]}\n"
    "bodies:\n"
    "  - name: arm\n"
    "    position: [-0.05, 0, 0]\n"
    "    motion: {position: [[0, -0.05, 0, 0], [1, 0.05, 0.1, 0.2]],\n"
    "             orientation: [[0, 1, 0, 0, 0], [1, 0.9238795325112867, 0, 0, 0.3826834323650898]]}\n"
    "  - {name: b, mass: 0.2, inertia: [2.0e-4, 3.0e-4, 4.0e-4], position: [0.45, 0, 0],\n"
    "     velocity: [0, 0.3, 0.2], angular_velocity: [1, 0, 2]}\n"
    "joints:\n"
    "  - {type: bushing, bodies: [b, ground], at: [[0.05, 0, 0], [0.5, 0, 0]], stiffness: 40, damping: 0.2,\n"
    "     stiffness_rot: 0.05, damping_rot: 1.0e-3}\n"
    "analysis: {type: dynamic, t_end: 1.0}\n"
    "solver: {formulation: nullspace, integrator: radau5}\n";

/* Largest |J_an - J_fd| relative to the FD column's max norm over all
 * entries of the n x n matrix (band entries from jac, zero outside). */
static double compare(const char *text, const char *name, const char *const *sets, size_t nsets, double t) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(text, name, sets, nsets, &sc);
  if (!sim) return INFINITY;
  const cosrod_ode_problem *p = cosrod_sim_problem(sim);
  const int n = p->n, ml = p->jac_ml, mu = p->jac_mu, ldj = ml + mu + 1;
  CHECK("analytic Jacobian set", p->jac != NULL && p->jac_banded && p->m1 == 0);
  double *y = malloc((size_t)n * sizeof *y), *yp = malloc((size_t)n * sizeof *yp);
  double *f1 = malloc((size_t)n * sizeof *f1), *f2 = malloc((size_t)n * sizeof *f2);
  double *f3 = malloc((size_t)n * sizeof *f3), *f4 = malloc((size_t)n * sizeof *f4);
  double *Jb = calloc((size_t)ldj * (size_t)n, sizeof *Jb), *col = malloc((size_t)n * sizeof *col);
  double worst = INFINITY;
  if (!y || !yp || !f1 || !f2 || !f3 || !f4 || !Jb || !col || !p->jac) goto done;
  memcpy(y, cosrod_sim_state(sim), (size_t)n * sizeof *y);
  for (int i = 0; i < n; i++) y[i] += 2e-3 * sin(1.7 * i + 0.3) * fmax(1.0, fabs(y[i])); /* off equilibrium */
  int rc = p->jac(t, y, Jb, ldj, p->user);
  CHECK("jac ok", rc == 0);
  memcpy(yp, y, (size_t)n * sizeof *yp);
  worst = 0.0;
  int wi = -1, wj = -1;
  double wa = 0.0, wf = 0.0;
  for (int j = 0; j < n; j++) {
    /* fourth-order central differences, h = 1e-4 max(1, |y_j|): truncation
     * ~h^4 |f^(5)| / 30 ~ 1e-16 relative, round-off ~ u |f| / h ~ 1e-12 |f| */
    const double h = 1e-4 * fmax(1.0, fabs(y[j]));
    yp[j] = y[j] + h;
    rc |= p->f(t, yp, f1, p->user);
    yp[j] = y[j] - h;
    rc |= p->f(t, yp, f2, p->user);
    yp[j] = y[j] + 2.0 * h;
    rc |= p->f(t, yp, f3, p->user);
    yp[j] = y[j] - 2.0 * h;
    rc |= p->f(t, yp, f4, p->user);
    yp[j] = y[j];
    double cn = 0.0;
    for (int i = 0; i < n; i++)
      col[i] = (8.0 * (f1[i] - f2[i]) - (f3[i] - f4[i])) / (12.0 * h), cn = fmax(cn, fabs(col[i]));
    for (int i = 0; i < n; i++) {
      double a = (i - j <= ml && j - i <= mu) ? Jb[(size_t)j * (size_t)ldj + (size_t)(mu + i - j)] : 0.0;
      /* allowed: 1e-6 of the column, plus the round-off of the difference
       * quotient, 10 u max|f_i| / h (rows whose f is large against its
       * derivatives, e.g. the spin rates of thin segments) */
      double fm = fmax(fmax(fabs(f1[i]), fabs(f2[i])), fmax(fabs(f3[i]), fabs(f4[i])));
      double e = fabs(a - col[i]) / (1e-6 * cn + 10.0 * 2.220446049250313e-16 * fm / h + 1e-300);
      if (e > worst) worst = e, wi = i, wj = j, wa = a, wf = col[i];
    }
  }
  CHECK("rhs ok", rc == 0);
  NOTE("%s: n = %d, band (%d, %d): worst entry (%d, %d): error / allowed = %.3g (%.9g vs %.9g)", name, n, ml,
       mu, wi, wj, worst, wa, wf);
  /* allowed 1e-6 of the column: the differences are good to ~1e-9 of it
   * here (see above; the analytic side's pose map is differenced to
   * ~1e-11); a missing or wrong coupling term is O(1e-3 .. 1) of its column
   * (e.g. the body torque's pose dependence, 2e-4, before it was in
   * cosrod_mbs_jac).  Entries outside the band must be zero. */
  CHECK_LE("analytic = differences (error / allowed)", worst, 1.0);
  CHECK("no fallback to finite differences", sim_couple_jac_fallbacks(sim_system_of(sim)) == 0);
done:
  free(y), free(yp), free(f1), free(f2), free(f3), free(f4), free(Jb), free(col);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return worst;
}

#define SETS(...) \
  (const char *const[]){__VA_ARGS__}, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *)

TEST(jac_clamped_nullspace_damped) { compare(HANG, "hang.yaml", NULL, 0, 0.1); }
TEST(jac_clamped_absolute_damped) { compare(HANG, "hang.yaml", SETS("solver.formulation=absolute"), 0.1); }
TEST(jac_pinned_nullspace_damped) { compare(HANG, "hang.yaml", SETS("rods.0.ends.end.type=pinned"), 0.1); }
TEST(jac_pinned_absolute_damped) {
  compare(HANG, "hang.yaml", SETS("rods.0.ends.end.type=pinned", "solver.formulation=absolute"), 0.1);
}
/* HANG without its damping line */
static void undamped(const char *const *sets, size_t nsets) {
  char text[4096];
  const char *dl = strstr(HANG, "    damping:"), *nl = dl ? strchr(dl, '\n') : NULL;
  if (!nl) return;
  snprintf(text, sizeof text, "%.*s%s", (int)(dl - HANG), HANG, nl + 1);
  compare(text, "undamped.yaml", sets, nsets, 0.1);
}
TEST(jac_clamped_nullspace_undamped) { undamped(NULL, 0); }
TEST(jac_clamped_absolute_undamped) { undamped(SETS("solver.formulation=absolute")); }
TEST(jac_directors_body) { compare(HANG, "hang.yaml", SETS("bodies.0.parametrisation=directors"), 0.1); }
TEST(jac_euler_body_absolute) {
  /* tilted (away from gimbal lock), attached at its centre of mass */
  compare(HANG, "hang.yaml",
          SETS("bodies.0.parametrisation=euler-angles", "solver.formulation=absolute",
               "bodies.0.position=[0, 0, -0.5]", "rods.0.ends.end.at=[0, 0, 0]",
               "bodies.0.orientation={quaternion: [0.8, 0.36, 0.48, 0]}"),
          0.1);
}
/* a bushing to ground and a keyframe-driven body on the other end */
TEST(jac_bushing_and_keyframe_body) { compare(BOTH, "both.yaml", NULL, 0, 0.3); }
TEST(jac_bushing_and_keyframe_body_absolute) {
  compare(BOTH, "both.yaml", SETS("solver.formulation=absolute"), 0.3);
}
/* a second body on a spherical joint (null-space quasi-velocities; absolute: multipliers) */
static void joint_case(const char *const *sets, size_t nsets) {
  char text[4096];
  snprintf(text, sizeof text, "%s", HANG);
  char *b = strstr(text, "analysis:");
  if (!b) return;
  snprintf(b, sizeof text - (size_t)(b - text), "%s",
           "  - {name: w, mass: 0.5, inertia: [0.002, 0.002, 0.001], position: [0, 0, -0.9]}\n"
           "joints:\n"
           "  - {type: spherical, bodies: [box, w], at: [[0, 0, -0.2], [0, 0, 0.1]]}\n"
           "analysis: {type: dynamic, t_end: 1.0}\n"
           "solver: {formulation: nullspace, integrator: radau5}\n");
  compare(text, "joint.yaml", sets, nsets, 0.1);
}
TEST(jac_joint_nullspace) { joint_case(NULL, 0); }
TEST(jac_joint_absolute) { joint_case(SETS("solver.formulation=absolute")); }

static const th_case cases[] = {
    TH_CASE(jac_clamped_nullspace_damped),
    TH_CASE(jac_clamped_absolute_damped),
    TH_CASE(jac_pinned_nullspace_damped),
    TH_CASE(jac_pinned_absolute_damped),
    TH_CASE(jac_clamped_nullspace_undamped),
    TH_CASE(jac_clamped_absolute_undamped),
    TH_CASE(jac_directors_body),
    TH_CASE(jac_euler_body_absolute),
    TH_CASE(jac_bushing_and_keyframe_body),
    TH_CASE(jac_bushing_and_keyframe_body_absolute),
    TH_CASE(jac_joint_nullspace),
    TH_CASE(jac_joint_absolute),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
