// SPDX-License-Identifier: Apache-2.0
/* Contact law: smooth penalty, its potential and the automatic parameters.
 *
 * Normal force per unit length of the penetration p = -gap (gap = distance
 * minus the radii), with stiffness k [N/m per m] and onset delta [m]:
 *     f(p) = 0                     p <= 0
 *            k p^2 / (2 delta)     0 < p < delta     (quadratic onset)
 *            k (p - delta/2)       p >= delta        (linear)
 * f is C^1 (f, f' continuous at 0 and delta), so the Jacobian is continuous
 * and Newton iterations of implicit integrators and statics see no jump; no
 * force acts before the surfaces touch.  Its potential psi(p) = int_0^p f:
 *     k p^3 / (6 delta)  on (0, delta),   k delta^2/6 + k (p-delta) delta/2
 *     + k (p-delta)^2/2 beyond,
 * is the contact's elastic energy (penalty regularisation of the
 * Signorini conditions, Wriggers, Computational Contact Mechanics, 2nd ed.
 * 2006, ch. 2 and 10).  Static penetration under a load q per unit length:
 * sqrt(2 delta q / k) when q <= k delta/2, otherwise q/k + delta/2.
 *
 * Automatic stiffness.  Two requirements, the larger wins:
 *  (a) Weight: a rod lying on the ground carries q = rhoA |g| per length; with
 *      k >= rhoA |g| / (eps r), eps = 0.01, and delta = 0.01 r, the static
 *      penetration is q/k + delta/2 <= 0.015 r (1.5 % of the radius).
 *  (b) Bending: a rod pressed by a point load P onto an elastic foundation of
 *      stiffness k (beam on elastic foundation, Hetenyi) spreads the load over
 *      the length 1/beta, beta = (k / 4 EI)^(1/4).  k = 4 EI / ds^4 gives
 *      1/beta = ds: the contact is as stiff as the discretisation can resolve
 *      (a stiffer k adds stiffness the mesh cannot represent and worsens the
 *      conditioning; a softer one lets bending loads sink into obstacles).
 *      The penetration under P is then P beta / (2 k) = P ds^3 / (8 EI).
 *  (c) Wrap: a rod wrapped under the tension T over a curved obstacle (a
 *      pulley, a bollard) presses on it with the line load q = T / rho,
 *      rho = R + r the radius of its centreline (the capstan's N = T / R,
 *      Euler-Eytelwein), far above its weight per length (a 2 mm nylon
 *      cable at 5 N over R = 0.1 m: 50 N/m against 0.14 N/m), so (a) and (b)
 *      let it sink up to r.  k >= T / (rho eps r), eps = 0.05, keeps the
 *      penetration q/k + delta/2 <= 0.055 r.  R is the smallest radius of
 *      the spheres, cylinders and capsules among the obstacles (planes,
 *      boxes and meshes add nothing); T is estimated by the caller from
 *      what the scenario holds (src/sim/sim_translate_sys.c).  Near the
 *      ends of the wrap the rod's bending stiffness concentrates an extra
 *      reaction sqrt(EI T) / R over the length sqrt(EI / T), which (b)
 *      covers.  The tangential spring of friction keeps the value of
 *      (a)/(b): it only sets the elastic micro-slip mu q / k_t before
 *      sliding, and a stiffer one costs the implicit integrators Newton
 *      failures at every stick/slip switch (a cable sliding over a pulley:
 *      2.3x the steps with k_t = k).
 * Automatic rod-rod and self-contact stiffness.  Two segments touch at a
 * point, where the law acts as the spring K = k l (contact_eval.c, l the
 * segment length).  The bending rule (b) gives K = 4 EI / ds^3 and a
 * penetration P ds^3 / (4 EI) that grows with ds^3 without bound: a twisted
 * rod pressing its loop onto itself sank 0.53 r at ds = 5 r.  The force
 * scale of a crossing is instead the bending force of the tightest loop the
 * rod can form, P = EI / R^2, R = max(r, ds) (a loop cannot be tighter than
 * the section, nor than the discretisation resolves).  The default asks
 *     P / K <= eps r,  eps = 0.1,  i.e.  k_rr = EI / (eps r R^2 ds),
 * never below the rod-obstacle k of (a)/(b); with the onset delta = 0.01 r
 * the penetration under P is then at most (eps + 0.005) r = 0.105 r.  The
 * damping follows it: c_rr = 2 sqrt(k_rr rhoA).
 * Default damping: c = 2 sqrt(k rhoA) (critical for a rod element of mass
 * rhoA per length on the spring k: no rebound, fastest settling), acting as
 * c w(p) dp/dt with the switch w = 3x^2 - 2x^3, x = p/delta in [0, 1] (C^1,
 * zero at first touch so there is no force jump on impact).  The damping force
 * may pull while the rod separates (it vanishes smoothly at p = 0); its
 * work is counted as dissipation. */
#include <math.h>

#include "contact/contact_internal.h"

double cosrod_contact_penalty(double *dfdp, double *psi, double k, double delta, double p) {
  double f, df, e;
  if (p <= 0.0) {
    f = df = e = 0.0;
  } else if (p < delta) {
    f = k * p * p / (2.0 * delta);
    df = k * p / delta;
    e = k * p * p * p / (6.0 * delta);
  } else {
    double q = p - delta;
    f = k * (p - 0.5 * delta);
    df = k;
    e = k * delta * delta / 6.0 + k * q * delta / 2.0 + k * q * q / 2.0;
  }
  if (dfdp) *dfdp = df;
  if (psi) *psi = e;
  return f;
}

double cosrod_contact_penalty_inverse(double k, double delta, double q) {
  if (q <= 0.0) return 0.0;
  if (q <= 0.5 * k * delta) return sqrt(2.0 * delta * q / k);
  return q / k + 0.5 * delta;
}

double cosrod_contact_auto_stiffness(double EI, double rhoA, double g, double radius, double ds) {
  double kb = ds > 0.0 ? 4.0 * EI / (ds * ds * ds * ds) : 0.0;
  double kw = radius > 0.0 ? rhoA * fabs(g) / (0.01 * radius) : 0.0;
  double k = kb > kw ? kb : kw;
  return k > 0.0 ? k : 1.0; /* no data at all: a unit stiffness, overridable */
}

double cosrod_contact_auto_wrap_stiffness(double T, double radius, double R) {
  if (!(T > 0.0) || !(radius > 0.0) || !(R > 0.0) || !isfinite(R)) return 0.0;
  return T / ((R + radius) * COSROD_CONTACT_WRAP_PEN * radius);
}

double cosrod_contact_auto_pair_stiffness(double EI, double rhoA, double g, double radius, double ds) {
  double k = cosrod_contact_auto_stiffness(EI, rhoA, g, radius, ds);
  double R = ds > radius ? ds : radius;
  double kp = radius > 0.0 && ds > 0.0 ? EI / (COSROD_CONTACT_PAIR_PEN * radius * R * R * ds) : 0.0;
  return kp > k ? kp : k;
}
