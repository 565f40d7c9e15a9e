// SPDX-License-Identifier: Apache-2.0
/* The twisted clamped rod of the self-contact tests
 * (test_sim_contact_self.c, test_sim_contact_self_pattern.c): material,
 * Greenhill's critical twist and the scenario text. */
#ifndef COSROD_TEST_SIM_CONTACT_SELF_SCENARIO_H
#define COSROD_TEST_SIM_CONTACT_SELF_SCENARIO_H

#include <math.h>
#include <stdio.h>

static const double PI = 3.14159265358979323846;
static const double E = 5e6, NU = 0.5, RAD = 5e-3, LEN = 1.0, RTOL = 1e-5;

/* First positive root of tan x = x (in (pi, 3 pi / 2)), by bisection. */
static double tan_root(void) {
  double a = PI + 1e-9, b = 1.5 * PI - 1e-9;
  for (int i = 0; i < 200; i++) {
    double c = 0.5 * (a + b);
    if (tan(c) - c < 0) a = c;
    else b = c;
  }
  return 0.5 * (a + b);
}

/* Critical twist angle of the clamped-clamped rod (circular section). */
static double phi_crit(void) {
  double EI = E * PI * pow(RAD, 4) / 4, GJ = E / (2 * (1 + NU)) * PI * pow(RAD, 4) / 2;
  return 2 * tan_root() * EI / GJ;
}

/* Scenario: rod along x, start clamped, end twisted to Phi over [0, T1]
 * (smooth ramp) and moved to x = LEN - dx over [T1, T2]; imperfection P. */
static void scenario(char *buf, size_t n, double Phi, double T1, double dx, double T2, double P, int N,
                     double t_end) {
  const double a = sqrt(0.5);
  size_t o = 0;
  o += (size_t)snprintf(buf + o, n - o,
                        "cosrod: 1\ngravity: [0, 0, 0]\nrods:\n  - name: rod\n    length: %g\n    segments: %d\n"
                        "    material: {E: %g, poisson: %g, density: 1100}\n"
                        "    section: {shape: circle, radius: %g}\n"
                        "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"
                        "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
                        "    loads: [{type: force, at: %d, value: [0, 0, %g]}]\n"
                        "    ends:\n      start: {type: clamped}\n      end:\n        type: prescribed\n"
                        "        position: [[0, %g, 0, 0], [%g, %g, 0, 0]",
                        LEN, N, E, NU, RAD, N / 2, P, LEN, T1, LEN);
  for (int i = 1; dx > 0 && i <= 20; i++) {
    double u = i / 20.0, s = u - sin(2 * PI * u) / (2 * PI);
    o += (size_t)snprintf(buf + o, n - o, ", [%.9g, %.12g, 0, 0]", T1 + (T2 - T1) * u, LEN - dx * s);
  }
  o += (size_t)snprintf(buf + o, n - o, "]\n        orientation: [");
  /* frame (d1, d2, d3) = (e_z, -e_y, e_x), q0 = (0, 1, 0, 1)/sqrt2, turned
   * about e_x by phi: q = (-s, c, -s, c)/sqrt2, keyframes every pi/8 */
  int nk = (int)ceil(Phi / (PI / 8));
  for (int i = 0; i <= nk; i++) {
    double u = (double)i / nk, ph = Phi * (u - sin(2 * PI * u) / (2 * PI));
    double s = sin(ph / 2), c = cos(ph / 2);
    o += (size_t)snprintf(buf + o, n - o, "%s[%.9g, %.15g, %.15g, %.15g, %.15g]", i ? ", " : "", T1 * u, -s * a,
                          c * a, -s * a, c * a);
  }
  snprintf(buf + o, n - o,
           "]\ncontact: {}\nanalysis: {type: dynamic, t_end: %g}\n"
           "solver: {integrator: radau5, rtol: %g, atol: 1.0e-7}\noutput: {every: 0.02}\n",
           t_end, RTOL);
}

#endif
