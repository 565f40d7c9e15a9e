// SPDX-License-Identifier: Apache-2.0
/* Two damped steel cantilevers crossing at right angles, rod a along x
 * clamped at the origin, rod b along y clamped at (LA, -LB, 2R) so that its
 * tip rests on a's tip, loaded there by -P along z; rod-rod contact on, no
 * gravity: the set-up of the rod-rod statics and initial-equilibrium tests
 * (two-spring reference k = 3EI/L^3 each, Euler-Bernoulli). */
#ifndef COSROD_TEST_CROSSING_CANTILEVERS_H
#define COSROD_TEST_CROSSING_CANTILEVERS_H
#include <stdio.h>

static const double E = 2.1e11, R = 0.01, LA = 1.0, LB = 0.8, P = 100.0;

/* The scenario with Na, Nb segments and the analysis section (YAML text). */
static void crossing_cantilevers_text(char *text, size_t len, int Na, int Nb, const char *analysis) {
  snprintf(text, len,
           "cosrod: 1\ngravity: [0, 0, 0]\nmaterials:\n  steel: {E: %g, poisson: 0.3, density: 7850}\nrods:\n"
           "  - name: a\n    length: %g\n    segments: %d\n    material: steel\n"
           "    section: {shape: circle, radius: %g}\n"
           "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"
           "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: clamped}}\n"
           "  - name: b\n    length: %g\n    segments: %d\n    material: steel\n"
           "    section: {shape: circle, radius: %g}\n"
           "    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"
           "    shape: {type: straight, start: [%g, %g, %g], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: clamped}}\n"
           "    loads: [{type: force, at: end, value: [0, 0, %g]}]\n"
           "contact: {rods: true}\n%s",
           E, LA, Na, R, LB, Nb, R, LA, -LB, 2 * R, -P, analysis);
}

#endif
