// SPDX-License-Identifier: Apache-2.0
/* Self-contact in runs: a clamped rod twisted past Greenhill's critical twist
 * (examples/plectoneme.yaml is the long version of the second test).
 *
 * Reference: Greenhill's problem for a rod with both ends built in, at a fixed
 * end distance (so no axial force in the straight state).  The transverse
 * deflection w = u + i v of the straight rod under the axial twisting moment
 * M and tension T obeys EI w'''' - i M w''' - T w'' = 0 (Timoshenko & Gere,
 * Theory of Elastic Stability, 2nd ed. 1961, ch. 2, buckling of a shaft under
 * torque; Greenhill, Proc. Inst. Mech. Eng. 1883).  With w = w' = 0 at both
 * ends and the roots i a1/L, i a2/L, a1,2 = L (m +- sqrt(m^2 - T/EI)),
 * m = M/(2 EI), the determinant vanishes when
 *     a1 a2 sin((a1 - a2)/2) = 2 (a1 - a2) sin(a1/2) sin(a2/2);
 * for T -> 0 (a2 -> 0) this becomes tan(x) = x, x = M L/(2 EI), whose first
 * root x = 4.4934 gives M_cr L / EI = 8.9868 = 2.8606 pi.  The straight rod
 * twisted by Phi carries M = GJ Phi / L, so Phi_cr = 8.9868 EI / GJ
 * (= 8.9868 (1 + nu) for a circular section).
 *
 *  - greenhill_threshold: twisted to 0.85 Phi_cr the rod stays straight (the
 *    deflection under a tiny imperfection load P at mid-span stays within
 *    10 w0, w0 = P L^3 / (192 EI) its untwisted static deflection; the twist
 *    amplifies it by about 1/(1 - (Phi/Phi_cr)^2) = 3.6 and the dynamic
 *    overshoot at most doubles it); twisted to 1.15 Phi_cr it buckles: the
 *    deflection grows past 100 w0 and keeps growing after the twist stops.
 *  - loop_with_self_contact: twisted to 1.5 Phi_cr, then the ends brought
 *    from L to 0.6 L: a loop forms (writhe |Wr| > 1/2, the Gauss integral
 *    evaluated in the test) and touches itself (active self-contact); the
 *    distance between non-neighbouring segments (arc gap >= pi r, the
 *    exclusion of the contact module) never drops below 2r - (eps + 0.005) r
 *    with the default (automatic) contact stiffness: eps = 0.1
 *    (COSROD_CONTACT_PAIR_PEN) is the penetration under the bending force
 *    EI / R^2 of the tightest loop, R = max(r, ds), and 0.005 r half the
 *    onset (src/contact/contact_law.c); the loop's contact force here is
 *    below that scale (EI / ds^2 = 2.5 N, ds = 6.25 r); the
 *    energy balance closes: work of the twisting end = elastic + kinetic +
 *    dissipated, to 10 rtol times the energy scale (the integrator's local
 *    error is below rtol relative to the state and the energies are
 *    quadratic in it). */
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

#include "test_sim_contact_self_scenario.h"

/* Exact distance between segments [p0, p1] and [q0, q1] (clamped closest
 * parameters, Lumelsky 1985). */
static double seg_dist(const double *p0, const double *p1, const double *q0, const double *q1) {
  double d1[3], d2[3], r[3];
  for (int k = 0; k < 3; k++) d1[k] = p1[k] - p0[k], d2[k] = q1[k] - q0[k], r[k] = p0[k] - q0[k];
  double a = 0, e = 0, b = 0, c = 0, f = 0;
  for (int k = 0; k < 3; k++) a += d1[k] * d1[k], e += d2[k] * d2[k], b += d1[k] * d2[k], c += d1[k] * r[k],
                              f += d2[k] * r[k];
  double den = a * e - b * b, s = den > 1e-14 * a * e ? fmin(fmax((b * f - c * e) / den, 0), 1) : 0;
  double t = (b * s + f) / e;
  if (t < 0) t = 0, s = fmin(fmax(-c / a, 0), 1);
  else if (t > 1) t = 1, s = fmin(fmax((b - c) / a, 0), 1);
  double m = 0;
  for (int k = 0; k < 3; k++) {
    double dk = r[k] + s * d1[k] - t * d2[k];
    m += dk * dk;
  }
  return sqrt(m);
}

/* Writhe of the centreline, Gauss double integral by the midpoint rule over
 * segment pairs. */
static double writhe(const double *x, int N) {
  double W = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      if (i == j) continue;
      double ti[3], tj[3], r[3], cr[3];
      for (int k = 0; k < 3; k++) {
        ti[k] = x[3 * i + 3 + k] - x[3 * i + k];
        tj[k] = x[3 * j + 3 + k] - x[3 * j + k];
        r[k] = 0.5 * (x[3 * i + k] + x[3 * i + 3 + k] - x[3 * j + k] - x[3 * j + 3 + k]);
      }
      cr[0] = ti[1] * tj[2] - ti[2] * tj[1], cr[1] = ti[2] * tj[0] - ti[0] * tj[2], cr[2] = ti[0] * tj[1] - ti[1] * tj[0];
      double R = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
      W += (cr[0] * r[0] + cr[1] * r[1] + cr[2] * r[2]) / (R * R * R);
    }
  return W / (4 * PI);
}

typedef struct watch {
  double T1, lat_end_twist, lat_max, lat_last, dmin, wr;
  int N, gap_min; /* non-neighbour pairs: |i - j| >= gap_min */
  sim_test_bal bal;
} watch;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  watch *w = user;
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  double lat = 0;
  for (int i = 0; i <= w->N; i++) lat = fmax(lat, hypot(d->x[3 * i + 1], d->x[3 * i + 2]));
  if (t <= w->T1 + 1e-9) w->lat_end_twist = lat;
  w->lat_max = fmax(w->lat_max, lat);
  w->lat_last = lat;
  for (int i = 0; i < w->N; i++)
    for (int j = i + w->gap_min; j < w->N; j++)
      w->dmin = fmin(w->dmin, seg_dist(d->x + 3 * i, d->x + 3 * i + 3, d->x + 3 * j, d->x + 3 * j + 3));
  w->wr = writhe(d->x, w->N);
  return sim_test_on_bal(&w->bal, sim, t);
}

/* Run the scenario with the watch observer; returns the sim (or NULL). */
static cosrod_sim *run_watch(const char *text, watch *w, cosrod_scenario **sc) {
  cosrod_sim_observer obs = {.frame = on_frame, .user = w};
  cosrod_status st;
  cosrod_sim *sim = sim_test_run(text, "plectoneme.yaml", NULL, 0, &obs, sc, &st);
  if (st != COSROD_OK) {
    cosrod_sim_free(sim);
    cosrod_scenario_free(*sc);
    return NULL;
  }
  return sim;
}

TEST(greenhill_threshold) {
  const int N = 40;
  const double P = 1e-6, EI = E * PI * pow(RAD, 4) / 4, w0 = P * pow(LEN, 3) / (192 * EI);
  double Pcr = phi_crit();
  NOTE("tan x = x: x = %.6f; M_cr L/EI = %.6f = %.5f pi; Phi_cr = %.6f rad (%.4f turns)", tan_root(),
       2 * tan_root(), 2 * tan_root() / PI, Pcr, Pcr / (2 * PI));
  CHECK_NEAR("M_cr L / EI = 8.9868 (Timoshenko & Gere: 2.86 pi)", 2 * tan_root(), 8.9868, 1e-4);
  const double fac[2] = {0.85, 1.15};
  for (int v = 0; v < 2; v++) {
    static char text[16000];
    scenario(text, sizeof text, fac[v] * Pcr, 1.0, 0, 0, P, N, 3.0);
    watch w = {.T1 = 1.0, .N = N, .gap_min = N, .dmin = 1e9};
    cosrod_scenario *sc = NULL;
    cosrod_sim *sim = run_watch(text, &w, &sc);
    if (!sim) continue;
    NOTE("Phi = %.2f Phi_cr: lateral deflection at the end of the twist %.3g m, largest %.3g m, at t_end %.3g m "
         "(w0 = %.3g m)",
         fac[v], w.lat_end_twist, w.lat_max, w.lat_last, w0);
    if (fac[v] < 1) {
      CHECK("below Phi_cr the rod stays straight (deflection <= 10 w0)", w.lat_max <= 10 * w0);
    } else {
      CHECK("above Phi_cr it buckles (deflection >= 100 w0)", w.lat_last >= 100 * w0);
      CHECK("and the deflection grows after the twist stops", w.lat_last >= 10 * w.lat_end_twist);
    }
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
}

TEST(loop_with_self_contact) {
  const int N = 32;
  static char text[16000];
  scenario(text, sizeof text, 1.5 * phi_crit(), 1.0, 0.4, 2.5, 1e-4, N, 3.0);
  /* non-neighbour pairs: arc gap (j - i - 1) ds >= pi r */
  int gap = 1 + (int)ceil(PI * RAD / (LEN / N));
  watch w = {.T1 = 1.0, .N = N, .gap_min = gap, .dmin = 1e9};
  cosrod_scenario *sc = NULL;
  cosrod_sim *sim = run_watch(text, &w, &sc);
  if (!sim) return;
  const cosrod_contact_data *d = cosrod_sim_contact_data(sim);
  int self = 0;
  for (size_t i = 0; d && i < cosrod_contact_npoints(d); i++) self += cosrod_contact_points(d)[i].other_kind == 1;
  cosrod_sim_energy e = cosrod_sim_energy_now(sim);
  const double lim = (2.0 - COSROD_CONTACT_PAIR_PEN - 0.005) * RAD;
  NOTE("writhe at t_end %.3f, self-contacts %d, min distance of non-neighbour axes %.6g m (2r = %.3g, limit %.4g)",
       w.wr, self, w.dmin, 2 * RAD, lim);
  NOTE("end work %.6g J = elastic %.6g + kinetic %.3g + dissipated %.6g J; balance drift %.3g J (bound %.3g J)",
       e.external_work, e.elastic, e.kinetic, e.dissipated, w.bal.drift, 10 * RTOL * w.bal.scale);
  CHECK("a loop forms (|writhe| > 1/2)", fabs(w.wr) > 0.5);
  CHECK("the loop touches itself (self-contact active)", self > 0);
  CHECK("non-neighbour axes stay >= 2r - (eps + 0.005) r apart (auto stiffness)", w.dmin >= lim);
  CHECK("the twisting end did work", e.external_work > 0.1);
  CHECK("energy balance closes to 10 rtol of the energy scale", w.bal.drift <= 10 * RTOL * w.bal.scale);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {TH_CASE(greenhill_threshold), TH_CASE(loop_with_self_contact)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
