// SPDX-License-Identifier: Apache-2.0
/* Static analyses that must swing a mechanism far to its equilibrium (the
 * pseudo-transient fallback of src/statics/statics_ptc.c), against
 * closed forms:
 *  - a body on a revolute hinge started 0.1 ... 3.1 rad from hanging turns
 *    by exactly that angle about the hinge (its centre straight below the
 *    hinge point), the joint force is its weight and the top reaction the
 *    total weight;
 *  - a pinned rod given at 30, 60 or 120 degrees (no body) hangs vertically
 *    below the pin with the top tension = its weight and the tip at
 *    L + ρgL²/(2E) below the pin (uniform segments with lumped masses put
 *    the tension at each segment's midpoint: the closed form exactly);
 *  - the cable-pendulum example (30 degrees) in a static analysis: pin
 *    reaction = total weight, no horizontal force, and the moments of the
 *    weights about the pin balance (a pin passes no moment).
 * Gravity is ramped from zero (the static analysis' default), so each
 * mechanism is neutral at t = 0 and the whole swing happens within the
 * first increment. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81, PI = 3.14159265358979323846;

/* examples/<name>.yaml with the overrides sets, run (checked: "run ok");
 * NULL if it does not load. */
static cosrod_sim *load_run(const char *name, const char *const *sets, size_t nsets, cosrod_scenario **scp) {
  cosrod_sim *sim = sim_test_load(name, sets, nsets, scp);
  if (!sim) return NULL;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s: %s", cosrod_status_name(st), cosrod_sim_message(sim));
  return sim;
}

/* examples/hinge-swing.yaml (a soft rod clamped at the top carries body
 * `upper`; `lower`, 2 kg, hangs on a revolute joint about y at upper's
 * (0, 0, -0.1)) with lower's centre 0.1 m from the hinge at angle th from
 * hanging, unrotated, and the overrides sets. */
static void hinge(double th, const char *set) {
  char pos[160], at[200];
  snprintf(pos, sizeof pos, "bodies.1.position=[%.17g, 0, %.17g]", 0.1 * sin(th), -0.7 - 0.1 * cos(th));
  snprintf(at, sizeof at, "joints.0.at=[[0, 0, -0.1], [%.17g, 0, %.17g]]", -0.1 * sin(th), 0.1 * cos(th));
  const char *sets[3] = {pos, at, set};
  cosrod_scenario *sc;
  cosrod_sim *sim = load_run("hinge-swing", sets, set ? 3 : 2, &sc);
  if (!sim) return;
  double R[12], x1[3], q1[4], x2[3], q2[4], RJ[6];
  CHECK("rod reactions", cosrod_sim_reactions(sim, 0, R, NULL) == COSROD_OK);
  CHECK("body poses", cosrod_sim_body(sim, 0, x1, q1, NULL) == COSROD_OK &&
                          cosrod_sim_body(sim, 1, x2, q2, NULL) == COSROD_OK);
  CHECK("joint reactions", cosrod_sim_joint_reactions(sim, RJ) == COSROD_OK);
  const double want = (3.0 + 1100.0 * PI * 25e-6 * 0.5) * G;
  /* lower turns about y by th: q = ±(cos th/2, 0, sin th/2, 0) */
  const double sgn = q2[0] < 0.0 ? -1.0 : 1.0, ang = 2.0 * atan2(sgn * q2[2], sgn * q2[0]);
  NOTE("start %.3f rad: turned %.15f rad, lower at (%.3e, %.3e, %.12f), joint force %.12g N, top %.12g N", th,
       ang, x2[0] - x1[0], x2[1], x2[2] - x1[2], RJ[2], R[2]);
  CHECK_NEAR("turned by the start angle (hangs)", ang, th, 1e-8);
  CHECK_NEAR("only about the hinge", hypot(q2[1], q2[3]), 0.0, 1e-9);
  CHECK_NEAR("centre below the hinge (x)", x2[0], x1[0], 1e-9);
  CHECK_NEAR("centre 0.1 m below the hinge (z)", x2[2], x1[2] - 0.2, 1e-9);
  CHECK_NEAR("centre y", x2[1], 0.0, 1e-12);
  CHECK_NEAR("joint force = lower's weight", RJ[2], -2.0 * G, 1e-8 * want);
  CHECK_NEAR("no horizontal joint force", hypot(RJ[0], RJ[1]), 0.0, 1e-8 * want);
  CHECK_NEAR("top reaction = total weight", R[2], want, 1e-8 * want);
  CHECK_NEAR("upper does not turn", hypot(hypot(q1[1], q1[2]), q1[3]), 0.0, 1e-9);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(hinged_body_from_0_1_rad) { hinge(0.1, NULL); }
TEST(hinged_body_from_0_3_rad) { hinge(0.3, NULL); }
TEST(hinged_body_from_0_5_rad) { hinge(0.5, NULL); }
TEST(hinged_body_from_0_7_rad) { hinge(0.7, NULL); }
TEST(hinged_body_from_1_0_rad) { hinge(1.0, NULL); }
TEST(hinged_body_from_1_4_rad) { hinge(1.4, NULL); }
/* 0.64 rad short of inverted: must fall to the hanging, not the inverted, equilibrium */
TEST(hinged_body_from_2_5_rad) { hinge(2.5, NULL); }
/* 0.04 rad from inverted with full gravity from the start (load-factor
 * continuation): Newton alone climbs to the inverted equilibrium */
TEST(hinged_body_from_3_1_rad_gravity_constant) { hinge(3.1, "analysis={type: static, gravity: constant}"); }

/* The cable of examples/cable-pendulum.yaml (nylon, L = 1 m, r = 2 mm, E =
 * 2 GPa) without its body (lower end free), nseg segments, pinned at the
 * origin, straight at deg degrees from hanging. */
static void tilted_rod(double deg, int nseg, const char *analysis) {
  const double a = deg * PI / 180.0, L = 1.0, E = 2.0e9, rho = 1140.0;
  char shape[200], seg[40];
  snprintf(shape, sizeof shape,
           "rods.0.shape={type: straight, start: [0, 0, 0], direction: [%.17g, 0, %.17g], normal: [0, 1, 0]}",
           sin(a), -cos(a));
  snprintf(seg, sizeof seg, "rods.0.segments=%d", nseg);
  const char *sets[5] = {"bodies=[]", "rods.0.ends.end={type: free}", shape, seg,
                         analysis ? analysis : "analysis={type: static}"};
  cosrod_scenario *sc;
  cosrod_sim *sim = load_run("cable-pendulum", sets, 5, &sc);
  if (!sim) return;
  double R[12], tip[3], rhoA;
  cosrod_sim_reactions(sim, 0, R, NULL);
  cosrod_sim_tip(sim, 0, tip);
  cosrod_rod_constants(cosrod_sim_rod(sim, 0), NULL, NULL, NULL, NULL, &rhoA, NULL);
  const double W = rhoA * G * L, zt = -(L + rho * G * L * L / (2.0 * E));
  NOTE(
      "%.0f deg, %d segments: tip (%.3e, %.3e, %.15f) (want z %.15f), top reaction (%.3e, %.3e, %.15g) N "
      "(weight %.15g N)",
      deg, nseg, tip[0], tip[1], tip[2], zt, R[0], R[1], R[2], W);
  /* Newton stops with vertex forces below tol = 1e-9 of the force scale (~W):
   * their sum, < (N+1) tol W, is the error of the top reaction, their moment
   * about the pin, < (N+1) tol W L, against the pendulum stiffness W L/2
   * tilts the rod by < 2 (N+1) tol rad */
  const double tilt = 2.0 * (nseg + 1) * 1e-9 * L, fres = (nseg + 1) * 1e-9 * W;
  CHECK_NEAR("tip below the pin (x)", tip[0], 0.0, tilt);
  CHECK_NEAR("tip below the pin (y)", tip[1], 0.0, tilt);
  CHECK_NEAR("tip at L + rho g L^2/(2E) below the pin", tip[2], zt, 1e-10 * L);
  CHECK_NEAR("top tension = rod weight", R[2], W, fres);
  CHECK_NEAR("no horizontal top reaction", hypot(R[0], R[1]), 0.0, fres);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(pinned_rod_from_30_deg_hangs) { tilted_rod(30.0, 10, NULL); }
TEST(pinned_rod_from_60_deg_hangs) { tilted_rod(60.0, 10, NULL); }
TEST(pinned_rod_from_120_deg_hangs) { tilted_rod(120.0, 10, NULL); }
/* a fine rod: the swing is 200 segment lengths long */
TEST(pinned_rod_200_segments_from_120_deg_hangs) { tilted_rod(120.0, 200, NULL); }
/* arc-length control: the path jumps at λ = 0 (the first step restarts from
 * the pseudo-transient equilibrium at λ = 1/increments) and then follows the
 * hanging rod to λ = 1 */
static const char *ARC = "analysis={type: static, control: arc-length}";
TEST(pinned_rod_from_60_deg_hangs_arc_length) { tilted_rod(60.0, 10, ARC); }
TEST(hinged_body_from_2_5_rad_arc_length) { hinge(2.5, ARC); }

/* examples/cable-pendulum.yaml (1 kg body on a 1 m nylon cable at 30
 * degrees) as a static analysis. */
TEST(cable_pendulum_static) {
  cosrod_scenario *sc;
  cosrod_sim *sim = load_run("cable-pendulum", (const char *const[]){"analysis={type: static}"}, 1, &sc);
  if (!sim) return;
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  const cosrod_rod_data *d = cosrod_sim_rod_data(sim, 0);
  const double *w = cosrod_rod_vertex_weight(rod);
  double R[12], xb[3], qb[4], rhoA;
  cosrod_sim_reactions(sim, 0, R, NULL);
  cosrod_sim_body(sim, 0, xb, qb, NULL);
  cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
  /* moments of the weights about the pin (origin): Σ m x over vertices and body */
  double mx = 1.0 * xb[0], my = 1.0 * xb[1], mc = 0.0;
  for (int n = 0; n <= d->N; ++n) {
    mx += rhoA * w[n] * d->x[3 * n];
    my += rhoA * w[n] * d->x[3 * n + 1];
    mc += rhoA * w[n];
  }
  const double W = (1.0 + mc) * G;
  NOTE(
      "pin reaction (%.3e, %.3e, %.15g) N, total weight %.15g N; body at (%.6e, %.3e, %.9f); sum m x = "
      "(%.3e, %.3e) "
      "kg m",
      R[0], R[1], R[2], W, xb[0], xb[1], xb[2], mx, my);
  CHECK_NEAR("pin reaction = total weight", R[2], W, 1e-8 * W);
  CHECK_NEAR("no horizontal pin reaction", hypot(R[0], R[1]), 0.0, 1e-8 * W);
  CHECK_NEAR("weights balance about the pin (x)", mx, 0.0, 1e-8);
  CHECK_NEAR("weights balance about the pin (y)", my, 0.0, 1e-8);
  CHECK("body hangs below the pin", xb[2] < -1.0);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

static const th_case cases[] = {
    TH_CASE(hinged_body_from_0_1_rad),
    TH_CASE(hinged_body_from_0_3_rad),
    TH_CASE(hinged_body_from_0_5_rad),
    TH_CASE(hinged_body_from_0_7_rad),
    TH_CASE(hinged_body_from_1_0_rad),
    TH_CASE(hinged_body_from_1_4_rad),
    TH_CASE(hinged_body_from_2_5_rad),
    TH_CASE(hinged_body_from_3_1_rad_gravity_constant),
    TH_CASE(pinned_rod_from_30_deg_hangs),
    TH_CASE(pinned_rod_from_60_deg_hangs),
    TH_CASE(pinned_rod_from_120_deg_hangs),
    TH_CASE(pinned_rod_200_segments_from_120_deg_hangs),
    TH_CASE(pinned_rod_from_60_deg_hangs_arc_length),
    TH_CASE(hinged_body_from_2_5_rad_arc_length),
    TH_CASE(cable_pendulum_static),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
