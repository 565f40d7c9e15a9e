// SPDX-License-Identifier: Apache-2.0
/* Friction over a cylinder and rod-rod contact in runs ([manual: contact]),
 * against closed forms:
 *  - capstan (Euler-Eytelwein): a rope wrapped by theta over a fixed
 *    cylinder of radius R, pulled tangentially by T_a at one end and T_b at
 *    the other, holds while T_b / T_a < e^{mu theta} and slips beyond.  The
 *    rope is a thin stiff rod (r = 1 mm, E = 1 GPa) on a helix of small pitch
 *    (the ends of a full wrap pass beside each other) with both ends free
 *    and the two end forces ramped together (the ratio is constant from the
 *    start over [0, T/2], held to T, so the friction state follows one ratio).  Tolerance of the
 *    onset: the polygon of segments subtending dphi = theta/N carries
 *    per-vertex ratios exp(mu dphi)(1 + O(mu^3 dphi^3)), a relative error
 *    below mu^3 theta dphi^2 < 0.012 for N = 12 per pi; the bending
 *    stiffness shifts the balance by about EI / (R^2 T_a) = 0.8 %; the
 *    penalty compliance (k = 1e7 N/m per m: penetration below 7e-5 m =
 *    7e-4 R) changes the wrap radius, not the angle.  So T_b / T_a =
 *    0.95 e^{mu theta} must hold (the middle moves less than the rope's
 *    elastic stretch T_b L / EA + the polygon's settling r + the friction
 *    springs' stretch mu q / k_t, q <= T_b / R) and 1.05 e^{mu theta} must
 *    slip (moves more than five times that), for
 *    theta = pi/2, pi and 2 pi;
 *  - two simply supported rods (one end sliding axially: no membrane force)
 *    crossing at their midpoints, touching, the
 *    upper one under a distributed load q: compatibility of the midpoint
 *    deflections (Euler-Bernoulli, P L^3 / (48 EI) and 5 q L^4 / (384 EI))
 *    gives the contact force P = 5 q L / 16 on the lower rod, read from the
 *    pinned ends' reactions of each rod (an independent path: the lower
 *    rod's supports carry P, the upper rod's q L - P, equal and opposite
 *    contact forces), to 2 % (discretisation, the penetration's relief
 *    P / (K) against the deflection); the penetration stays below the rod-rod
 *    law's static value for P (cosrod_contact_penalty_inverse with the
 *    point stiffness k l) plus 10 %, and the energy balance closes to 1 %
 *    of the work of the load. */
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
#define run_text(text) sim_text_run_start((text), "capstan.yaml", NULL, 0)
#define run_free sim_text_run_free

/* Rope on a helix of radius rho = R + r around the y axis, start at
 * (-rho, 0, 0) going up: tangent t(phi) = ((r sin phi, c, r cos phi) with the
 * in-plane part scaled) / n, c = pitch / 2 pi. */
static void tangent(double t[3], double rho, double c, double phi) {
  double n = sqrt(rho * rho + c * c);
  t[0] = rho * sin(phi) / n, t[1] = c / n, t[2] = rho * cos(phi) / n;
}

static double capstan_run(double theta, double mu, double ratio, double T, double *creep_bound) {
  const int N = (int)ceil(12 * theta / PI);
  /* vertices on rho / cos(dphi / 2): the chords' midpoints touch the drum (no initial overlap) */
  const double R = 0.1, r = 1e-3, rho = (R + r) / cos(0.5 * theta / N), pitch = theta > 1.5 * PI ? 8 * r : 0.0;
  const double c = pitch / (2 * PI), Ta = 10.0, Tb = ratio * Ta;
  double ta[3], tb[3];
  tangent(ta, rho, c, 0.0);
  tangent(tb, rho, c, theta);
  char shape[400], text[3000];
  if (pitch > 0)
    snprintf(shape, sizeof shape,
             "{type: helix, radius: %.15g, pitch: %.15g, turns: %.15g, start: [%.15g, 0, 0], direction: [0, %.15g, "
             "%.15g], normal: [1, 0, 0]}",
             rho, pitch, theta / (2 * PI), -rho, c, rho);
  else
    snprintf(shape, sizeof shape,
             "{type: arc, radius: %.15g, angle_deg: %.15g, start: [%.15g, 0, 0], direction: [0, 0, 1], normal: [1, "
             "0, 0]}",
             rho, theta * 180 / PI, -rho);
  snprintf(text, sizeof text,
           "cosrod: 1\ngravity: [0, 0, 0]\nrods:\n  - name: rope\n    segments: %d\n"
           "    material: {E: 1.0e9, poisson: 0.3, density: 1000}\n    section: {shape: circle, radius: %g}\n"
           "    damping: {kelvin_voigt: {tau_shear: 1.0e-4, tau_bulk: 1.0e-4}}\n    shape: %s\n"
           "    loads:\n"
           "      - {type: force, at: start, value: [%.15g, %.15g, %.15g], ramp: [0, %g]}\n"
           "      - {type: force, at: end, value: [%.15g, %.15g, %.15g], ramp: [0, %g]}\n"
           "obstacles:\n  - {name: drum, shape: cylinder, center: [0, 0, 0], axis: [0, 1, 0], radius: %g}\n"
           "contact: {stiffness: 1.0e7, friction: {static: %g, kinetic: %g}, self: false}\n"
           "analysis: {type: dynamic, t_end: %g}\nsolver: {integrator: radau5, rtol: 1.0e-5, atol: 1.0e-8}\n",
           N, r, shape, -Ta * ta[0], -Ta * ta[1], -Ta * ta[2], 0.5 * T, Tb * tb[0], Tb * tb[1], Tb * tb[2], 0.5 * T, R, mu, mu, T);
  run Rn = run_text(text);
  double moved = NAN;
  if (Rn.st == COSROD_OK) {
    /* the middle vertex's displacement from its initial place on the helix */
    const cosrod_rod_data *d = cosrod_sim_rod_data(Rn.sim, 0);
    double phi = 0.5 * theta, x0[3] = {-rho * cos(phi), pitch * 0.5 * theta / (2 * PI), rho * sin(phi)};
    const double *x = d->x + 3 * (N / 2);
    moved = sqrt((x[0] - x0[0]) * (x[0] - x0[0]) + (x[1] - x0[1]) * (x[1] - x0[1]) + (x[2] - x0[2]) * (x[2] - x0[2]));
  } else {
    moved = INFINITY; /* the rope left: counted as slip (noted above) */
  }
  /* held: the middle moves by the rope's elastic stretch (at most T_b L / EA), the settling of the
   * polygon onto the drum (below r) and the friction springs' stretch (mu q / k_t, q <= T_b / R) */
  *creep_bound = Tb * rho * theta / (1.0e9 * PI * r * r) + r + mu * (Tb / R) / 1.0e7;
  run_free(&Rn);
  return moved;
}

/* One wrap angle per test case (they run in parallel). */
static void capstan_holds_below_and_slips_above(double th) {
  const double mu = 0.3;
  {
    double e = exp(mu * th), bound;
    double hold = capstan_run(th, mu, 0.95 * e, 0.02, &bound);
    NOTE("theta = %.4f: T_b/T_a = 0.95 e^(mu theta) = %.4f: middle moved %.3g m (bound %.3g m)", th, 0.95 * e,
         hold, bound);
    CHECK("holds below e^(mu theta)", hold < bound);
    double b2;
    double slip = capstan_run(th, mu, 1.05 * e, 0.02, &b2);
    NOTE("theta = %.4f: T_b/T_a = 1.05 e^(mu theta) = %.4f: middle moved %.3g m (5 x bound %.3g m)", th, 1.05 * e,
         slip, 5 * b2);
    CHECK("slips above e^(mu theta)", slip > 5 * b2);
  }
}

TEST(capstan_quarter_wrap) { capstan_holds_below_and_slips_above(0.5 * PI); }
TEST(capstan_half_wrap) { capstan_holds_below_and_slips_above(PI); }
TEST(capstan_full_wrap) { capstan_holds_below_and_slips_above(2 * PI); }

TEST(crossing_rods_pressed_together) {
  const double L = 1.0, r = 0.005, E = 2.1e11, q = 100.0;
  const int N = 20;
  char text[3000];
  snprintf(text, sizeof text,
           "cosrod: 1\ngravity: [0, 0, 0]\nrods:\n"
           "  - name: lower\n    length: %g\n    segments: %d\n    material: {E: %g, poisson: 0.3, density: 7850}\n"
           "    section: {shape: circle, radius: %g}\n    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"
           "    shape: {type: straight, start: [-0.5, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: pinned}, end: {type: pinned, slides_along: [1, 0, 0]}}\n"
           "  - name: upper\n    length: %g\n    segments: %d\n    material: {E: %g, poisson: 0.3, density: 7850}\n"
           "    section: {shape: circle, radius: %g}\n    damping: {kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}\n"
           "    shape: {type: straight, start: [0, -0.5, %.15g], direction: [0, 1, 0], normal: [0, 0, 1]}\n"
           "    ends: {start: {type: pinned}, end: {type: pinned, slides_along: [0, 1, 0]}}\n"
           "    loads: [{type: distributed_force, value: [0, 0, %g], ramp: [0, 0.2]}]\n"
           "contact: {stiffness: 1.0e7}\n"
           "analysis: {type: dynamic, t_end: 0.4}\nsolver: {integrator: radau5, rtol: 1.0e-5, atol: 1.0e-8}\n",
           L, N, E, r, L, N, E, r, 2 * r, -q);
  run R = run_text(text);
  CHECK("runs", R.st == COSROD_OK);
  if (R.st == COSROD_OK) {
    double Ra[12], Rb[12];
    int sa[2], sb[2];
    cosrod_sim_reactions(R.sim, 0, Ra, sa);
    cosrod_sim_reactions(R.sim, 1, Rb, sb);
    double Pa = -(Ra[2] + Ra[8]), Pb = Rb[2] + Rb[8], ref = 5 * q * L / 16;
    NOTE("lower rod's supports carry %.6g N (contact force down on it), upper rod's %.6g N: q L - P = %.6g; "
         "5 q L / 16 = %.6g N",
         -Pa, Pb, q * L - ref, ref);
    CHECK_NEAR("contact force on the lower rod = 5 q L / 16", -Pa, ref, 0.02 * ref);
    CHECK_NEAR("upper rod's supports carry q L - P (equal and opposite)", Pb + (-Pa), q * L, 1e-3 * q * L);
    const cosrod_contact_data *d = cosrod_sim_contact_data(R.sim);
    double gmin = 1.0;
    const cosrod_contact_point *p = d ? cosrod_contact_points(d) : NULL;
    for (size_t i = 0; d && i < cosrod_contact_npoints(d); i++) gmin = fmin(gmin, p[i].gap);
    double ds = L / N, pen = cosrod_contact_penalty_inverse(1.0e7 * ds, 0.01 * r, ref);
    NOTE("min gap %.4g m; law's static penetration for P with K = k ds: %.4g m", gmin, pen);
    CHECK("no interpenetration beyond the law's static penetration + 10 %", -gmin <= 1.1 * pen);
    cosrod_sim_energy e = cosrod_sim_energy_now(R.sim);
    double wl = fabs(e.external_work);
    NOTE("energy: kinetic %.3g, elastic %.6g, dissipated %.6g, external work %.6g, balance %.3g J", e.kinetic,
         e.elastic, e.dissipated, e.external_work, e.balance);
    CHECK("energy balance closes to 1 % of the load's work", fabs(e.balance) <= 0.01 * wl);
    CHECK("at rest (kinetic below 1e-6 of the work)", e.kinetic <= 1e-6 * wl);
  }
  run_free(&R);
}

static const th_case cases[] = {TH_CASE(capstan_quarter_wrap), TH_CASE(capstan_half_wrap),
                                TH_CASE(capstan_full_wrap), TH_CASE(crossing_rods_pressed_together)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
