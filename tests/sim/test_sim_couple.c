/* Rods attached to rigid bodies (sim_couple.c) against closed forms:
 * a body hanging at rest on a vertical rod (support reaction = body weight
 * + rod weight, tension of the last segment = body weight + the weight of
 * the attached end vertex), a heavy body on a stiff light rod swinging at
 * the physical-pendulum frequency, and the energy balance with bodies,
 * bushings and a keyframe-driven body. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81;

/* Vertical rubber rod (L = 0.5 m, r = 5 mm, rho = 1100) clamped at the
 * origin, its lower end clamped (or pinned) to a 1 kg body 0.1 m above the
 * body's centre of mass; Kelvin-Voigt damping lets the axial oscillation die
 * out (zeta ~ 0.3, decay e^{-7.8 t}). */
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
    "  - {name: box, mass: 1.0, inertia: [0.01, 0.01, 0.005], position: [0, 0, -0.6]}\n"
    "analysis: {type: dynamic, t_end: 3.0}\n"
    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-8, atol: 1.0e-9}\n"
    "output: {every: 0.5}\n";

static void hanging(const char *const *sets, size_t nsets) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(HANG, "hang.yaml", sets, nsets, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  NOTE("steps %ld, f evaluations %ld", cosrod_sim_stats(sim)->nsteps, cosrod_sim_stats(sim)->nfev);
  /* reactions at the final state (sim_reactions: from the rods' data) */
  double R[12];
  int sup[2];
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, sup) == COSROD_OK);
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  double rhoA;
  cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
  int N = cosrod_rod_nseg(rod);
  double mrod = rhoA * 0.5, me = rhoA * cosrod_rod_vertex_weight(rod)[N];
  double want = (1.0 + mrod) * G;
  NOTE("top reaction Fz = %.9g N, closed form (m_b + m_rod) g = %.9g N (rod %.4g kg)", R[2], want, mrod);
  /* at rest to ~1e-9 after 3 s (decay e^{-7.8 t}); the tolerance
   * is the integration error of the RHS evaluation, rtol 1e-8 */
  CHECK_NEAR("top reaction = body + rod weight", R[2], want, 1e-6 * want);
  CHECK_NEAR("no horizontal reaction", R[0], 0.0, 1e-9);
  /* tension of the last segment: F3 (material, d3 = -e3 points down: F3 > 0 is tension) */
  double F3 = d->F[3 * (N - 1) + 2];
  NOTE("last segment tension %.9g N, closed form (m_b + m_e) g = %.9g N", F3, (1.0 + me) * G);
  CHECK_NEAR("last segment carries body + end vertex", fabs(F3), (1.0 + me) * G, 1e-6 * G);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(hanging_body_tension_dopri5) { hanging(NULL, 0); }
TEST(hanging_body_tension_radau5_absolute) {
  hanging((const char *const[]){"solver.integrator=radau5", "solver.formulation=absolute"}, 2);
}
TEST(hanging_body_tension_rodas_pinned) {
  hanging((const char *const[]){"solver.integrator=rodas", "rods.0.ends.end.type=pinned"}, 2);
}

static const th_case cases[] = {
    TH_CASE(hanging_body_tension_dopri5),
    TH_CASE(hanging_body_tension_radau5_absolute),
    TH_CASE(hanging_body_tension_rodas_pinned),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
