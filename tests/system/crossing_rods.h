// SPDX-License-Identifier: Apache-2.0
/* Two damped rubber rods crossing at right angles, b lying on a with 1e-4 m
 * of overlap (centre distance 0.0199 m against 2 r = 0.02 m), with Coulomb
 * friction: the rod-rod contact set-up of the sparse-Jacobian tests.  The
 * integrator is a parameter (a bare word, e.g. radau5). */
#ifndef COSROD_TEST_CROSSING_RODS_H
#define COSROD_TEST_CROSSING_RODS_H

#define CROSSING_RODS_ROD(NAME, START, DIR)                                   \
  "  - name: " NAME "\n"                                                      \
  "    length: 0.4\n"                                                         \
  "    segments: 8\n"                                                         \
  "    material: rubber\n"                                                    \
  "    section: {shape: circle, radius: 1.0e-2}\n"                            \
  "    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}\n"        \
  "    shape: {type: straight, start: " START ", direction: " DIR ", normal: [0, 0, 1]}\n"

#define CROSSING_RODS_YAML(INTEGRATOR)                                        \
  "cosrod: 1\n"                                                               \
  "gravity: [0, 0, -9.81]\n"                                                  \
  "materials:\n"                                                              \
  "  rubber: {E: 5.0e6, poisson: 0.5, density: 1100}\n"                       \
  "rods:\n" CROSSING_RODS_ROD("a", "[-0.21, 0.003, 0]", "[1, 0, 0]")          \
      CROSSING_RODS_ROD("b", "[0.004, -0.19, 0.0199]", "[0, 1, 0]")           \
  "contact: {friction: {static: 0.5, kinetic: 0.4}}\n"                        \
  "analysis: {type: dynamic, t_end: 0.01}\n"                                  \
  "solver: {formulation: nullspace, integrator: " #INTEGRATOR "}\n"

#endif
