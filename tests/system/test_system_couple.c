// SPDX-License-Identifier: Apache-2.0
/* Rods attached to rigid bodies (sim_couple.c) against closed forms:
 * a body hanging at rest on a vertical rod (support reaction = body weight
 * + rod weight, tension of the last segment = body weight + the weight of
 * the attached end vertex), a heavy body on a stiff light rod swinging at
 * the physical-pendulum frequency, and the energy balance with bodies,
 * bushings and a keyframe-driven body. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "harness.h"
#include "sim_test_util.h"

static const double G = 9.81;
static const double PI = 3.14159265358979323846;

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
/* the end frame given in the body (frame: the rod's initial end frame
 * d1 = e1, d2 = -e2, d3 = -e3, a half turn about e1; the opposite sign of
 * the quaternion is the same frame) */
TEST(hanging_body_tension_frame_given) {
  hanging((const char *const[]){"rods.0.ends.end.frame=[0, -1, 0, 0]"}, 1);
}
/* SUNDIALS: the coupled system as an ODE (cvode BDF, ida in the form y' - f = 0) */
TEST(hanging_body_tension_cvode) { hanging((const char *const[]){"solver.integrator=cvode"}, 1); }
/* generalized-α: the body in the LIE layout (sim_couple_lie_place), dense
 * finite-difference tangents; its numerical damping (rho_inf 0.8) only adds
 * to the Kelvin-Voigt decay */
TEST(hanging_body_tension_galpha) { hanging((const char *const[]){"solver.integrator=galpha"}, 1); }
/* formulation dae with a body (the rods' index-1 DAE, the body's null-space
 * ODE rows in it; sim_couple_kirchhoff.c) */
TEST(hanging_body_tension_dae_radau5) {
  hanging((const char *const[]){"solver.integrator=radau5", "solver.formulation=dae"}, 2);
}
TEST(hanging_body_tension_dae_ida) {
  hanging((const char *const[]){"solver.integrator=ida", "solver.formulation=dae"}, 2);
}
TEST(hanging_body_tension_ida_pinned) {
  hanging((const char *const[]){"solver.integrator=ida", "rods.0.ends.end.type=pinned"}, 2);
}

/* The same with a second body (0.5 kg) hanging from the first by a
 * spherical joint 0.2 m below the first body's centre: at rest the joint
 * holds the second body's weight (reaction on the first body (0, 0,
 * -0.5 g)) and the top carries all three weights. */
static void hanging_joint(const char *const *sets, size_t nsets) {
  char text[4096];
  snprintf(text, sizeof text, "%s",
           HANG);
  char *b = strstr(text, "analysis:");
  if (!b) return;
  snprintf(b, sizeof text - (size_t)(b - text), "%s",
           "  - {name: w, mass: 0.5, inertia: [0.002, 0.002, 0.001], position: [0, 0, -0.9]}\n"
           "joints:\n"
           "  - {type: spherical, bodies: [box, w], at: [[0, 0, -0.2], [0, 0, 0.1]]}\n"
           "analysis: {type: dynamic, t_end: 3.0}\n"
           "solver: {formulation: nullspace, integrator: radau5, rtol: 1.0e-8, atol: 1.0e-9}\n"
           "output: {every: 0.5}\n");
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(text, "hang-joint.yaml", sets, nsets, &sc);
  if (!sim) return;
  cosrod_status st = cosrod_sim_run(sim, NULL);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  double R[12], J[6];
  int sup[2];
  CHECK("one joint", cosrod_sim_njoints(sim) == 1);
  CHECK("reactions", cosrod_sim_reactions(sim, 0, R, sup) == COSROD_OK);
  CHECK("joint reactions", cosrod_sim_joint_reactions(sim, J) == COSROD_OK);
  double rhoA;
  cosrod_rod_constants(cosrod_sim_rod(sim, 0), NULL, NULL, NULL, NULL, &rhoA, NULL);
  double want = (1.5 + rhoA * 0.5) * G;
  NOTE("top Fz %.9g N (closed form %.9g N); joint force on the first body (%.3g, %.3g, %.9g) N (closed form -0.5 g = %.9g)",
       R[2], want, J[0], J[1], J[2], -0.5 * G);
  CHECK_NEAR("top reaction = both bodies + rod", R[2], want, 1e-6 * want);
  CHECK_NEAR("joint carries the second body", J[2], -0.5 * G, 1e-6 * G);
  CHECK_NEAR("joint: no horizontal force", J[0], 0.0, 1e-9);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(hanging_bodies_with_joint) { hanging_joint(NULL, 0); }
/* generalized-α with the joint (body_galpha.c: T w + ½ Ṫ w increment, projection) */
TEST(hanging_bodies_with_joint_galpha) { hanging_joint((const char *const[]){"solver.integrator=galpha"}, 1); }

/* Physical pendulum: a light stiff steel rod (L = 0.5 m, r = 5 mm,
 * density 10: rod mass 4e-4 kg) pinned at the origin, its lower end clamped
 * to a 1 kg body (I_yy = 0.01 kg m^2) at the body point 0.1 m above the
 * centre of mass, so pin -> centre of mass d = 0.6 m; released at rest at
 * theta0 = 0.05 rad in the x-z plane (body frame rotated with the rod).
 * Kelvin-Voigt damping (1 ms) kills the stiff axial vibration started by
 * the unstretched initial rod; the rigid swing has no strain rate. */
static const char *PEND =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 0.5\n"
    "    segments: 5\n"
    "    material: {E: 2.0e11, poisson: 0.3, density: 10}\n"
    "    section: {shape: circle, radius: 5.0e-3}\n"
    "    damping: {kelvin_voigt: {tau_shear: 1.0e-3, tau_bulk: 1.0e-3}}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0.04997916927067833, 0, -0.9987502603949663],"
    " normal: [0, 1, 0]}\n"
    "    ends:\n"
    "      start: {type: pinned}\n"
    "      end: {type: clamped, body: bob, at: [0, 0, 0.1]}\n"
    "bodies:\n"
    "  - {name: bob, mass: 1.0, inertia: [0.01, 0.01, 0.005],\n"
    "     position: [0.029987501562406996, 0, -0.5992501562369798],\n"
    "     orientation: {quaternion: [0.9996875162757026, 0, -0.024997395914712332, 0]}}\n"
    "analysis: {type: dynamic, t_end: 3.4}\n"
    "solver: {formulation: nullspace, integrator: radau5, rtol: 1.0e-7, atol: 1.0e-9}\n"
    "output: {every: 0.005}\n";

typedef struct {
  double tp, xp; /* previous frame */
  int nup;
  double up[4]; /* upward zero crossings of the body's x */
} cross_ctx;

static int on_frame(void *user, const cosrod_sim *sim, double t) {
  cross_ctx *c = user;
  double x[3];
  if (cosrod_sim_body(sim, 0, x, NULL, NULL) != COSROD_OK) return -1;
  if (t > 0 && c->xp < 0 && x[0] >= 0 && c->nup < 4) c->up[c->nup++] = c->tp + (t - c->tp) * (-c->xp) / (x[0] - c->xp);
  c->tp = t;
  c->xp = x[0];
  return 0;
}

/* Period elongation coefficient c of generalized-α (Chung-Hulbert, rho_inf,
 * galpha.c) on x'' = -x: T_h = T (1 + c (ω h)² + O(h⁴)), from a minimal
 * implementation of its recursion ([AB07] eqs. 13-16, vector space) run for
 * 40 periods at ω h = 0.01 (the O(h⁴) part is < 1e-5 c there). */
static double galpha_period_coef(double rho) {
  const double am = (2.0 * rho - 1.0) / (rho + 1.0), af = rho / (rho + 1.0), g = 0.5 - am + af,
               b = 0.25 * (1.0 - am + af) * (1.0 - am + af), h = 0.01;
  double x = 1.0, v = 0.0, a = -1.0, vd = -1.0, t = 0.0, t0 = -1.0, tl = 0.0;
  int nup = 0;
  while (nup < 41) {
    const double k = h * h * b / (1.0 - am);
    const double x1 = (x + h * v + h * h * (0.5 - b) * a + k * (af * vd - am * a)) / (1.0 + k * (1.0 - af));
    const double vd1 = -x1, a1 = ((1.0 - af) * vd1 + af * vd - am * a) / (1.0 - am);
    if (x < 0.0 && x1 >= 0.0) {
      tl = t + h * (-x) / (x1 - x);
      if (nup++ == 0) t0 = tl;
    }
    v += h * (1.0 - g) * a + h * g * a1;
    x = x1, a = a1, vd = vd1, t += h;
  }
  return ((tl - t0) / 40.0 / (2.0 * PI) - 1.0) / (h * h);
}

/* Measured period (0 on failure); h_galpha > 0: a fixed-step galpha run,
 * whose discrete period T (1 + c (ω h)²) is the reference. */
static double pendulum_h(const char *const *sets, size_t nsets, double h_galpha) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(PEND, "pendulum.yaml", sets, nsets, &sc);
  if (!sim) return 0.0;
  cross_ctx c = {0};
  cosrod_sim_observer obs = {on_frame, NULL, &c, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  NOTE("steps %ld, f evaluations %ld", cosrod_sim_stats(sim)->nsteps, cosrod_sim_stats(sim)->nfev);
  /* reference: rigid pendulum of the body and the rod's lumped vertex
   * masses m_n at distance s_n from the pin (the attached end vertex
   * included: its mass is the body's in dynamic runs, couple.c),
   * small-amplitude period with the first amplitude correction
   * T = T0 (1 + theta0^2 / 16) */
  const cosrod_rod *rod = cosrod_sim_rod(sim, 0);
  int N = cosrod_rod_nseg(rod);
  double rhoA;
  cosrod_rod_constants(rod, NULL, NULL, NULL, NULL, &rhoA, NULL);
  const double *s = cosrod_rod_grid(rod), *w = cosrod_rod_vertex_weight(rod);
  double m = 1.0, d = 0.6, Iyy = 0.01, th0 = 0.05;
  double J = Iyy + m * d * d, Mg = m * d;
  for (int n = 0; n <= N; n++) {
    Mg += rhoA * w[n] * s[n];
    J += rhoA * w[n] * s[n] * s[n];
  }
  double T0 = 2.0 * PI / sqrt(G * Mg / J), T = T0 * (1.0 + th0 * th0 / 16.0), Tm = 0.0;
  if (h_galpha > 0.0) {
    const double wh = 2.0 * PI / T * h_galpha, cg = galpha_period_coef(0.8); /* default rho_inf */
    NOTE("galpha h = %g s: period elongation c (w h)^2 = %.4g (c = %.6f)", h_galpha, cg * wh * wh, cg);
    T *= 1.0 + cg * wh * wh;
  }
  CHECK("two upward crossings", c.nup >= 2);
  if (c.nup >= 2) {
    Tm = c.up[1] - c.up[0];
    NOTE("period %.8g s, closed form %.8g s (small-amplitude %.8g s, rod-free %.8g s)", Tm, T, T0,
         2.0 * PI / sqrt(G * m * d / (Iyy + m * d * d)));
    /* tolerance 2e-5 T: below the rod's share (1.1e-4 T) and the amplitude
     * correction (1.6e-4 T), above the next amplitude term (2e-8), rod
     * bending and stretch (~1e-6) and the integration error at rtol 1e-7 */
    CHECK_NEAR("physical pendulum period", Tm, T, 2e-5 * T);
  }
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return Tm;
}

static void pendulum(const char *const *sets, size_t nsets) { (void)pendulum_h(sets, nsets, 0.0); }

/* galpha with every body formulation and parametrisation and with joints
 * (sim_couple_lie_place, body_galpha.c): a second body w hangs from the box
 * on a spherical joint, released 0.5 rad from the vertical; the bodies' motion
 * over 0.5 s against radau5 at rtol 1e-9 (galpha fixed h = 1e-3 and 5e-4:
 * second order), and the joint points coincide at every output time. */
static const char *JOINTED_TAIL =
    "  - {name: w, mass: 0.5, inertia: [0.002, 0.002, 0.001], position: [0, 0.0479425538604203, -0.8877582561890374],\n"
    "     orientation: {euler313: [0, 0.5, 0]}}\n"
    "joints:\n"
    "  - {type: spherical, bodies: [box, w], at: [[0, 0, -0.2], [0, 0, 0.1]]}\n"
    "analysis: {type: dynamic, t_end: 0.5}\n"
    "solver: {formulation: nullspace, integrator: radau5, rtol: 1.0e-9, atol: 1.0e-10}\n"
    "output: {every: 0.05}\n";

/* Body poses x (3) and d3 (3) of both bodies at t_end and the largest joint gap over the output times. */
static int jointed_run(const char *const *sets, size_t nsets, double out[12], double *gap) {
  char text[4096];
  snprintf(text, sizeof text, "%s", HANG);
  char *b = strstr(text, "analysis:");
  if (!b) return -1;
  snprintf(b, sizeof text - (size_t)(b - text), "%s", JOINTED_TAIL);
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(text, "jointed.yaml", sets, nsets, &sc);
  if (!sim) return -1;
  *gap = 0.0;
  cosrod_status st = COSROD_OK;
  for (int k = 1; k <= 10 && st == COSROD_OK; ++k) {
    st = cosrod_sim_advance(sim, 0.05 * k);
    double xa[3], qa[4], xb[3], qb[4], ra[3], rb[3], ca[3] = {0, 0, -0.2}, cb[3] = {0, 0, 0.1};
    cosrod_sim_body(sim, 0, xa, qa, NULL);
    cosrod_sim_body(sim, 1, xb, qb, NULL);
    cosrod_quat_rotate(ra, qa, ca);
    cosrod_quat_rotate(rb, qb, cb);
    for (int i = 0; i < 3; ++i) *gap = fmax(*gap, fabs(xa[i] + ra[i] - xb[i] - rb[i]));
    if (k == 10)
      for (int i = 0; i < 2; ++i) {
        double x[3], q[4], e3[3] = {0, 0, 1};
        cosrod_sim_body(sim, (size_t)i, x, q, NULL);
        memcpy(out + 6 * i, x, sizeof x);
        cosrod_quat_rotate(out + 6 * i + 3, q, e3);
      }
  }
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
  return st == COSROD_OK ? 0 : -1;
}

static void jointed_galpha(const char *form, const char *param) {
  double ref[12], got[2][12], gap, e[2];
  /* the reference in the null-space form (radau5 with absolute bodies and
   * joints on this rod stalls at h ~ 1e-10; the motion is the same) */
  const char *rs[] = {"solver.formulation=nullspace"};
  CHECK("radau5 reference", jointed_run(rs, 1, ref, &gap) == 0);
  for (int r = 0; r < 2; ++r) {
    const char *sets[] = {form, param, "solver.integrator=galpha",
                          r ? "solver.h=5e-4" : "solver.h=1e-3", "solver.rtol=1e-10", "solver.atol=1e-11"};
    CHECK("galpha runs", jointed_run(sets, 6, got[r], &gap) == 0);
    e[r] = 0.0;
    for (int i = 0; i < 12; ++i) e[r] = fmax(e[r], fabs(got[r][i] - ref[i]));
    NOTE("%s, %s, h = %s: max |pose - radau5| = %.3e, max joint gap %.2e", form, param, sets[3] + 9, e[r], gap);
    CHECK_LE("joint points coincide (projection)", gap, 1e-9);
  }
  double ord = log(e[0] / e[1]) / log(2.0);
  NOTE("order %.2f", ord);
  CHECK_LE("poses vs radau5 at h = 5e-4", e[1], 1e-4);
  CHECK_NEAR("second order in h", ord, 2.0, 0.3);
}

TEST(galpha_jointed_bodies_nullspace) { jointed_galpha("solver.formulation=nullspace", "bodies.0.parametrisation=quaternion"); }
TEST(galpha_jointed_bodies_absolute) { jointed_galpha("solver.formulation=absolute", "bodies.0.parametrisation=quaternion"); }
TEST(galpha_jointed_bodies_directors) { jointed_galpha("solver.formulation=nullspace", "bodies.0.parametrisation=directors"); }
/* the hanging body in the absolute form */
TEST(hanging_body_tension_galpha_absolute) {
  hanging((const char *const[]){"solver.integrator=galpha", "solver.formulation=absolute"}, 2);
}

TEST(physical_pendulum_period_radau5) { pendulum(NULL, 0); }
TEST(physical_pendulum_period_rodas) { pendulum((const char *const[]){"solver.integrator=rodas"}, 1); }
TEST(physical_pendulum_period_ida) { pendulum((const char *const[]){"solver.integrator=ida"}, 1); }
/* cvode at rtol 3e-7: below ~2e-7 its error test fails repeatedly (rtol
 * 1e-7: t = 0.25 s).  Not the Jacobian (the analytic one fails as the
 * differences did): the rod is stiff (E = 2e11) and light (density 10), its
 * segment inertias rho I ds ~ 5e-10 kg m^2 turn the round-off of the elastic
 * forces into noise of the spin rates' right-hand side, 0.03-0.15 rad/s^2
 * from 1-ulp changes of y (measured), and BDF's error estimate (the
 * predictor-corrector difference, unfiltered; radau5 filters it with
 * (I - h g J)^-1) sees that noise in the stiff-following rates against
 * rtol |Omega| ~ 2e-8 rad/s.  Density 1000 or E = 2e9 run at 1e-7. */
TEST(physical_pendulum_period_cvode) {
  pendulum((const char *const[]){"solver.integrator=cvode", "solver.rtol=3.0e-7"}, 2);
}
/* generalized-α, fixed steps 2 ms and 4 ms: each period against T (1 +
 * c (ω h)²) (2e-5 T as above; the h² term alone is 0.56e-5 T and 2.2e-5 T),
 * and the difference of the two against c ω² (h_4² - h_2²) T, where the
 * model errors common to both runs cancel; 2%: the O(h⁴) terms (relative
 * (ω h)² <= 3e-4) and the period read from output frames by linear
 * interpolation (identical frames in both runs) are far below that. */
TEST(physical_pendulum_period_galpha) {
  double T2 = pendulum_h((const char *const[]){"solver.integrator=galpha", "solver.h=2.0e-3"}, 2, 2.0e-3);
  double T4 = pendulum_h((const char *const[]){"solver.integrator=galpha", "solver.h=4.0e-3"}, 2, 4.0e-3);
  double w = 2.0 * PI / T2, want = galpha_period_coef(0.8) * w * w * (16e-6 - 4e-6) * T2;
  NOTE("T(4 ms) - T(2 ms) = %.6g s, h^2 law %.6g s", T4 - T2, want);
  CHECK_NEAR("h^2 period elongation", T4 - T2, want, 0.02 * want);
}

/* Energy balance ([manual: command line, output reference]) with bodies: a damped rubber rod clamped at the
 * origin and to a body that also hangs on a spring-damper bushing to ground
 * (translational and rotational), released with a velocity; and a rod
 * carried by a body driven by cubic keyframes (its work is external). */
static const char *BAL =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: rod\n"
    "    length: 0.4\n"
    "    segments: 4\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 6.0e-3}\n"
    "    damping: {kelvin_voigt: {tau_shear: 0.002, tau_bulk: 0.002}}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]}\n"
    "    ends:\n"
    "      start: {type: clamped}\n"
    "      end: {type: clamped, body: b, at: [-0.05, 0, 0]}\n"
    "bodies:\n"
    "  - {name: b, mass: 0.2, inertia: [2.0e-4, 3.0e-4, 4.0e-4], position: [0.45, 0, 0],\n"
    "     velocity: [0, 0.3, 0.2], angular_velocity: [1, 0, 2]}\n"
    "joints:\n"
    "  - {type: bushing, bodies: [b, ground], at: [[0.05, 0, 0], [0.5, 0, 0]], stiffness: 40, damping: 0.2,\n"
    "     stiffness_rot: 0.05, damping_rot: 1.0e-3}\n"
    "analysis: {type: dynamic, t_end: 0.5}\n"
    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-9, atol: 1.0e-10}\n"
    "output: {every: 0.05}\n";

static const char *CARRY =
    "cosrod: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "rods:\n"
    "  - name: hose\n"
    "    length: 0.4\n"
    "    segments: 4\n"
    "    material: {E: 5.0e6, poisson: 0.5, density: 1100}\n"
    "    section: {shape: circle, radius: 6.0e-3}\n"
    "    shape: {type: straight, start: [0, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]}\n"
    "    ends:\n"
    "      start: {type: clamped, body: arm, at: [0, 0, -0.1]}\n"
    "bodies:\n"
    "  - name: arm\n"
    "    mass: 1\n"
    "    inertia: [1, 1, 1]\n"
    "    position: [0, 0, 0.1]\n"
    "    motion:\n"
    "      position: [[0, 0, 0, 0.1], [0.5, 0.2, 0, 0.1], [1.0, 0.2, 0.1, 0.2]]\n"
    "      orientation: [[0, 1, 0, 0, 0], [1.0, 0.9238795325112867, 0, 0, 0.3826834323650898]]\n"
    "      interpolation: cubic\n"
    "analysis: {type: dynamic, t_end: 1.2}\n"
    "solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-9, atol: 1.0e-10}\n"
    "output: {every: 0.05}\n";

static void balance(const char *text, const char *name, int external) {
  cosrod_scenario *sc;
  cosrod_sim *sim = sim_test_parse(text, name, NULL, 0, &sc);
  if (!sim) return;
  sim_test_bal c = {0};
  cosrod_sim_observer obs = {sim_test_on_bal, NULL, &c, NULL, NULL};
  cosrod_status st = cosrod_sim_run(sim, &obs);
  CHECK("run ok", st == COSROD_OK);
  if (st != COSROD_OK) NOTE("run: %s", cosrod_sim_message(sim));
  NOTE("%s: balance drift %.3g J over %ld frames, energy scale %.4g J, external work %.4g J, dissipated %.4g J",
       name, c.drift, c.n, c.scale, c.W, c.D);
  /* the work terms must be exercised, else the check could not fail */
  if (external)
    CHECK("external work done", fabs(c.W) > 1e-3 * c.scale);
  else
    CHECK("energy dissipated", c.D > 1e-3 * c.scale);
  /* constant up to the integration error (rtol 1e-9) and Simpson's rule
   * on the dense output: 1e-6 of the energy scale */
  CHECK_NEAR("balance constant", c.drift, 0.0, 1e-6 * c.scale);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(energy_balance_body_bushing) { balance(BAL, "balance.yaml", 0); }
TEST(energy_balance_body_driven_by_keyframes) { balance(CARRY, "carry.yaml", 1); }
/* mass and inertia are optional for a keyframe-driven body (unused): the
 * same run without them */
TEST(keyframe_body_without_mass_and_inertia) {
  char text[4096];
  snprintf(text, sizeof text, "%s", CARRY);
  static const char *const drop[] = {"    mass: 1\n", "    inertia: [1, 1, 1]\n"};
  for (int i = 0; i < 2; i++) {
    const char *k = drop[i];
    char *p = strstr(text, k);
    CHECK("key found", p != NULL);
    if (p) memmove(p, p + strlen(k), strlen(p + strlen(k)) + 1);
  }
  CHECK("mass and inertia gone", !strstr(text, "mass") && !strstr(text, "inertia"));
  balance(text, "carry-nomass.yaml", 1);
}

/* Refusals made when the simulation is built (not by the loader): one line
 * "FILE:LINE: key: problem" (cosrod check and run exit 2 on them:
 * tests/cli/check_run_agree.sh runs the same files). */
static void refused(const char *file, int line, const char *key, const char *sub) {
  char path[1024], want[1200];
  const char *src = getenv("COSROD_SOURCE_DIR");
  snprintf(path, sizeof path, "%s/tests/sim/couple_invalid/%s", src ? src : ".", file);
  cosrod_scenario *sc = NULL;
  cosrod_status st = COSROD_OK;
  sc = cosrod_scenario_load(path, NULL, 0, &st);
  CHECK("loads", st == COSROD_OK);
  if (st != COSROD_OK) {
    NOTE("%s", cosrod_last_error());
    return;
  }
  cosrod_sim *sim = cosrod_sim_create(sc, &st);
  NOTE("%s: %s", file, cosrod_last_error());
  CHECK("refused", sim == NULL && st != COSROD_OK);
  snprintf(want, sizeof want, "%s:%d: %s: ", path, line, key);
  CHECK("FILE:LINE: key: prefix", strncmp(cosrod_last_error(), want, strlen(want)) == 0);
  CHECK("problem text", strstr(cosrod_last_error(), sub) != NULL);
  CHECK("one line", strchr(cosrod_last_error(), '\n') == NULL);
  cosrod_sim_free(sim);
  cosrod_scenario_free(sc);
}

TEST(attachment_refusals) {
  refused("end-body-at-mismatch.yaml", 15, "rods.0.ends.end.at", "is not the rod's end");
  refused("end-body-frame-mismatch.yaml", 15, "rods.0.ends.end.frame", "is not the rod's initial end frame");
  refused("body-motion-with-joint.yaml", 24, "joints.0", "needs solver.formulation: absolute");
  refused("body-motion-without-rods.yaml", 7, "bodies.0.motion", "carries rods");
  refused("keyframe-joint-ground-static.yaml", 23, "joints.0", "constrains nothing");
}

/* A chain body - rod - body (both bodies free): each body's unknowns sit
 * next to the rod end it touches, so the Jacobian bandwidths given to the
 * integrator do not grow with N (the rod's own (15, 19) of the damped
 * null-space ordering widened by the body blocks), unlike a block of all
 * bodies at one end of the state (bandwidth ~ ny). */
TEST(chain_bandwidth_independent_of_n) {
  char path[1024];
  snprintf(path, sizeof path, "%s/robot-arm-hose.yaml", sim_test_examples_dir());
  int ml[2], mu[2], ny[2];
  for (int k = 0; k < 2; k++) {
    const char *sets[] = {k ? "rods.0.segments=64" : "rods.0.segments=16", "bodies.0.motion=null"};
    cosrod_scenario *sc = NULL;
    cosrod_status st = COSROD_OK;
    sc = cosrod_scenario_load(path, sets, 1, &st);
    CHECK("loads", st == COSROD_OK);
    if (st != COSROD_OK) return;
    /* the arm becomes a free body: drop its motion */
    sc->bodies[0].has_motion = 0;
    sc->bodies[0].motion_position.n = sc->bodies[0].motion_orientation.n = 0;
    cosrod_sim *sim = sim_test_create(&sc);
    if (!sim) return;
    int a, b;
    cosrod_sim_bandwidth(sim, &ml[k], &mu[k], &a, &b);
    ny[k] = cosrod_sim_ny(sim);
    NOTE("N = %d: ny = %d, ml = %d, mu = %d", k ? 64 : 16, ny[k], ml[k], mu[k]);
    cosrod_sim_free(sim);
    cosrod_scenario_free(sc);
  }
  CHECK("ny grows", ny[1] > ny[0] + 200);
  CHECK_NEAR("ml independent of N", ml[1], ml[0], 0);
  CHECK_NEAR("mu independent of N", mu[1], mu[0], 0);
  CHECK_LE("ml small", ml[0], 60);
  CHECK_LE("mu small", mu[0], 60);
}

static const th_case cases[] = {
    TH_CASE(hanging_body_tension_dopri5),
    TH_CASE(hanging_body_tension_radau5_absolute),
    TH_CASE(hanging_body_tension_rodas_pinned),
    TH_CASE(hanging_body_tension_frame_given),
    TH_CASE(hanging_body_tension_cvode),
    TH_CASE(hanging_body_tension_ida_pinned),
    TH_CASE(hanging_body_tension_dae_radau5),
    TH_CASE(hanging_body_tension_dae_ida),
    TH_CASE(hanging_body_tension_galpha),
    TH_CASE(hanging_bodies_with_joint),
    TH_CASE(hanging_bodies_with_joint_galpha),
    TH_CASE(physical_pendulum_period_radau5),
    TH_CASE(physical_pendulum_period_rodas),
    TH_CASE(physical_pendulum_period_ida),
    TH_CASE(physical_pendulum_period_cvode),
    TH_CASE(physical_pendulum_period_galpha),
    TH_CASE(galpha_jointed_bodies_nullspace),
    TH_CASE(galpha_jointed_bodies_absolute),
    TH_CASE(galpha_jointed_bodies_directors),
    TH_CASE(hanging_body_tension_galpha_absolute),
    TH_CASE(energy_balance_body_bushing),
    TH_CASE(energy_balance_body_driven_by_keyframes),
    TH_CASE(keyframe_body_without_mass_and_inertia),
    TH_CASE(attachment_refusals),
    TH_CASE(chain_bandwidth_independent_of_n),
};

int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
