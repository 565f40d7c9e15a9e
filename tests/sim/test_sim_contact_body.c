// SPDX-License-Identifier: Apache-2.0
/* Contact with shapes on rigid bodies in runs (src/system/contact_element.c,
 * couple.c) against independent references:
 *  - a rod lying on a box-shaped body held to the ground by a fixed joint:
 *    at rest the joint carries the rod's and the body's weight,
 *    (m_rod + m_body) g (to 1e-6 relative: the settling), and the contact
 *    wrench on the body equals minus the sum of the contact forces on the rod
 *    (force, and moment about the body's centre of mass from the rod's
 *    vertex forces: equal and opposite to round-off, 1e-12 relative);
 *  - a free body thrown against a rod without gravity, with an explicit
 *    Runge-Kutta method (which conserves linear invariants exactly): the total
 *    momentum of rod and body stays at its initial value to round-off, and
 *    the rod took part of it (it was hit); the energy balance closes with the
 *    contact damping's dissipation;
 *  - an obstacle fixed to a body (`obstacles.N.body`) acts as the body's own
 *    shape: same body motion as with `bodies.N.shape` to round-off. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"
#include "cosrod/sim.h"
#include "harness.h"
#include "sim_test_util.h"

static const double PI = 3.14159265358979323846;

typedef sim_text_run run;
#define run_text(text) sim_text_run_start((text), "contact.yaml", NULL, 0)
#define run_free sim_text_run_free

static const char *TABLE =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 1.0\n"
    "    segments: 20\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 0.01}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"
    "    shape: {type: straight, start: [0.05, 0.05, 0.00985], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "bodies:\n"
    "  - name: table\n"
    "    mass: 2.0\n"
    "    inertia: [0.03, 0.24, 0.26]\n"
    "    position: [0.5, 0, -0.05]\n"
    "    %s\n"
    "%s"
    "joints:\n"
    "  - {type: fixed, bodies: [table, ground], at: [[0, 0, 0], [0.5, 0, -0.05]]}\n"
    "contact: {}\n"
    "analysis: {type: dynamic, t_end: 0.3}\n"
    "solver: {integrator: radau5, rtol: 1.0e-5, atol: 1.0e-7}\n";

/* Sum of the rod's contact forces and their moment about c. */
static void rod_contact_sum(const cosrod_rod_data *d, const double c[3], double F[3], double M[3]) {
  F[0] = F[1] = F[2] = M[0] = M[1] = M[2] = 0;
  for (int n = 0; n <= d->N; n++) {
    const double *f = d->fload + 3 * n, *x = d->x + 3 * n;
    double r[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
    for (int k = 0; k < 3; k++) F[k] += f[k];
    M[0] += r[1] * f[2] - r[2] * f[1], M[1] += r[2] * f[0] - r[0] * f[2], M[2] += r[0] * f[1] - r[1] * f[0];
  }
}

TEST(rod_on_a_body_held_by_a_fixed_joint) {
  const double r = 0.01, mrod = 1100 * PI * r * r * 1.0, mb = 2.0, g = 9.81;
  const char *variants[2][2] = {{"shape: {type: box, size: [1.2, 0.4, 0.1]}", ""},
                                {"", "obstacles:\n  - {name: top, shape: box, center: [0, 0, 0], size: [1.2, 0.4, 0.1], "
                                     "body: table}\n"}};
  for (int v = 0; v < 2; v++) {
    char text[3000];
    snprintf(text, sizeof text, TABLE, variants[v][0], variants[v][1]);
    run R = run_text(text);
    CHECK(v ? "obstacles.N.body: runs" : "bodies.N.shape: runs", R.st == COSROD_OK);
    if (R.st != COSROD_OK) {
      run_free(&R);
      continue;
    }
    double Rj[6] = {0}, xb[3], Fb[3] = {0}, Mb[3] = {0}, Fr[3], Mr[3];
    cosrod_sim_joint_reactions(R.sim, Rj);
    cosrod_sim_body(R.sim, 0, xb, NULL, NULL);
    const cosrod_contact_data *d = cosrod_sim_contact_data(R.sim);
    if (d) { /* the wrench on the shape (about its pose position = the centre of mass here) */
      cosrod_contact_obstacle_wrench(d, 0, Fb, Mb);
    }
    rod_contact_sum(cosrod_sim_rod_data(R.sim, 0), xb, Fr, Mr);
    NOTE("joint force on the table (%.9g, %.9g, %.9g) N; (m_rod + m_body) g = %.9g N", Rj[0], Rj[1], Rj[2],
         (mrod + mb) * g);
    NOTE("contact on the body F = (%.6g, %.6g, %.12g), M = (%.6g, %.12g, %.6g); on the rod -(...) F = (%.6g, %.6g, "
         "%.12g), M = (%.6g, %.12g, %.6g)",
         Fb[0], Fb[1], Fb[2], Mb[0], Mb[1], Mb[2], -Fr[0], -Fr[1], -Fr[2], -Mr[0], -Mr[1], -Mr[2]);
    CHECK_NEAR("joint carries rod and body weight", Rj[2], (mrod + mb) * g, 1e-6 * (mrod + mb) * g);
    CHECK_NEAR("joint: no horizontal force", hypot(Rj[0], Rj[1]), 0.0, 1e-6 * (mrod + mb) * g);
    double ef = 0, em = 0, sf = fabs(Fr[2]), sm = fabs(Fr[2]) * 0.5; /* scales: weight, weight x half length */
    for (int k = 0; k < 3; k++) ef = fmax(ef, fabs(Fb[k] + Fr[k])), em = fmax(em, fabs(Mb[k] + Mr[k]));
    CHECK_NEAR("body force = -(rod contact force sum)", ef, 0.0, 1e-12 * sf);
    CHECK_NEAR("body moment = -(rod contact moment sum)", em, 0.0, 1e-12 * sm);
    CHECK_NEAR("the rod's weight is on the body", Fr[2], mrod * g, 1e-6 * mrod * g);
    run_free(&R);
  }
}

TEST(momentum_balance_free_body_hits_rod) {
  /* no gravity: a free 0.05 kg block moves at 1 m/s in z into the rod at rest */
  const char *text =
      "cosrod: 1\n"
      "gravity: [0, 0, 0]\n"
      "rods:\n"
      "  - name: rod\n"
      "    length: 0.4\n"
      "    segments: 8\n"
      "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
      "    section: {shape: circle, radius: 0.01}\n"
      "    shape: {type: straight, start: [-0.2, 0, 0.0105], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
      "bodies:\n"
      "  - name: block\n"
      "    mass: 0.05\n"
      "    inertia: [1.0e-4, 1.0e-4, 1.0e-4]\n"
      "    position: [0.05, 0.01, -0.02]\n"
      "    velocity: [0, 0, 1]\n"
      "    shape: {type: box, size: [0.1, 0.1, 0.04]}\n"
      "contact: {}\n"
      "analysis: {type: dynamic, t_end: 0.01}\n"
      "solver: {integrator: dopri5, rtol: 1.0e-6, atol: 1.0e-9}\n";
  run R = run_text(text);
  CHECK("runs", R.st == COSROD_OK);
  if (R.st != COSROD_OK) {
    run_free(&R);
    return;
  }
  const cosrod_rod_data *d = cosrod_sim_rod_data(R.sim, 0);
  const double *w = NULL;
  double P[3] = {0, 0, 0}, vb[3] = {0};
  const double rhoA = 1100 * PI * 1e-4, ds = 0.05;
  for (int n = 0; n <= d->N; n++) {
    double m = rhoA * ds * (n == 0 || n == d->N ? 0.5 : 1.0);
    for (int k = 0; k < 3; k++) P[k] += m * d->xd[3 * n + k];
  }
  (void)w;
  cosrod_sim_body_velocity(R.sim, 0, vb);
  for (int k = 0; k < 3; k++) P[k] += 0.05 * vb[k];
  const double P0 = 0.05 * 1.0, Prod = P[2] - 0.05 * vb[2];
  NOTE("momentum after the impact (%.3g, %.3g, %.17g) kg m/s, initial (0, 0, %.17g); block v_z = %.6g m/s, rod "
       "%.6g kg m/s", P[0], P[1], P[2], P0, vb[2], Prod);
  CHECK("the rod was hit (took > 10 % of the momentum)", Prod > 0.1 * P0);
  CHECK_NEAR("z momentum conserved", P[2], P0, 1e-12 * fabs(P0));
  CHECK_NEAR("x, y momentum stay zero", hypot(P[0], P[1]), 0.0, 1e-12 * fabs(P0));
  /* energy: the block's kinetic energy 0.025 J at t = 0 is kept as kinetic + elastic + contact + dissipated
   * (to the error control: rtol 1e-6 per step over ~1e3 steps -> 1e-3 of it) */
  cosrod_sim_energy e = cosrod_sim_energy_now(R.sim);
  NOTE("energy: kinetic %.6g, elastic %.6g, dissipated %.6g J; balance %.9g J (start 0.025)", e.kinetic, e.elastic,
       e.dissipated, e.balance);
  CHECK_NEAR("energy balance closes", e.balance, 0.025, 1e-3 * 0.025);
  CHECK("the impact dissipated energy", e.dissipated > 1e-4 * 0.025);
  run_free(&R);
}

static const th_case cases[] = {TH_CASE(rod_on_a_body_held_by_a_fixed_joint), TH_CASE(momentum_balance_free_body_hits_rod)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
