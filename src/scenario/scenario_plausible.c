// SPDX-License-Identifier: Apache-2.0
/* Plausibility warnings (include/cosrod/scenario.h): values a loader must
 * accept but that are probably a unit slip or a typing error.  Each warning
 * is one line "FILE:LINE: key: problem; suggestion".  The ranges are those
 * of engineering materials in SI units:
 *   - Young's modulus 1e4 Pa (soft gels) .. 1.2e12 Pa (diamond);
 *   - density 10 kg/m^3 (polymer foams) .. 2.3e4 kg/m^3 (osmium);
 * a section is slender when the radius of its circumscribed circle is below
 * a tenth of the rod's length (rod theory: the section small against the
 * length over which the deformation varies); the arc length of the initial
 * shape agrees with `length` to 1e-3 (an axial strain of 0.1 %, beyond the
 * elastic limit of steel).
 * Explicit integrators with contact: the penalty spring k [N/m per m] on the
 * rod's mass rhoA [kg/m] per length oscillates at omega = sqrt(k / rhoA) (a
 * vertex: k ds on rhoA ds), and an explicit Runge-Kutta method is stable
 * only for h omega of order a few (dopri5: about 3.3 on the negative real
 * axis; E. Hairer, G. Wanner, Solving ODEs II, sec. IV.2), so h ~ 2 / omega
 * is the step estimate reported (with the automatic k of the contact law,
 * cosrod_contact_auto_stiffness at the smallest segment).  It is a lower
 * bound of the work: on the hose dropped onto the floor, dopri5 takes steps
 * of ~2e-5 s against 2/omega = 6e-3 s, since the impact excites the rod's
 * axial and shear modes, whose Kelvin-Voigt damping (rate tau omega^2) is
 * stiff. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/scenario.h"

#define E_MIN 1e4
#define E_MAX 1.2e12
#define RHO_MIN 10.0
#define RHO_MAX 2.3e4
#define SLENDER_MAX 0.1
#define ARC_TOL 1e-3

typedef struct walk {
  const cosrod_scenario *sc;
  size_t want, n; /* the warning asked for, the number seen */
  char *buf;
  size_t len;
} walk;

static void emit(walk *w, const char *key, const char *problem) {
  if (w->n++ == w->want && w->buf && w->len) cosrod_scenario_format_error(w->sc, key, problem, w->buf, w->len);
}

static void check_material(walk *w, const cosrod_sc_material *m, const char *key) {
  char k[160], p[400];
  if (m->E < E_MIN || m->E > E_MAX) {
    snprintf(k, sizeof k, "%s.E", key);
    if (m->E < E_MIN)
      snprintf(p, sizeof p,
               "%.6g Pa is below the range of engineering materials (%.0e .. %.1e Pa); units are SI: "
               "a value in GPa is %.6g Pa, in MPa %.6g Pa",
               m->E, E_MIN, E_MAX, m->E * 1e9, m->E * 1e6);
    else
      snprintf(p, sizeof p, "%.6g Pa is above the range of engineering materials (%.0e .. %.1e Pa); units are SI (Pa)",
               m->E, E_MIN, E_MAX);
    emit(w, k, p);
  }
  if (m->density < RHO_MIN || m->density > RHO_MAX) {
    snprintf(k, sizeof k, "%s.density", key);
    if (m->density < RHO_MIN)
      snprintf(p, sizeof p,
               "%.6g kg/m^3 is below the range of engineering materials (%.0f .. %.1e kg/m^3); units are SI: "
               "a value in g/cm^3 is %.6g kg/m^3",
               m->density, RHO_MIN, RHO_MAX, m->density * 1e3);
    else
      snprintf(p, sizeof p,
               "%.6g kg/m^3 is above the range of engineering materials (%.0f .. %.1e kg/m^3); units are SI "
               "(kg/m^3)",
               m->density, RHO_MIN, RHO_MAX);
    emit(w, k, p);
  }
}

static void check_rod(walk *w, const cosrod_sc_rod *r, size_t i) {
  char k[160], p[400];
  if (r->has_material && !r->material.name[0]) {
    snprintf(k, sizeof k, "rods.%zu.material", i);
    check_material(w, &r->material, k);
  }
  double rad = cosrod_sc_section_radius(&r->section);
  if (r->length > 0.0 && rad > SLENDER_MAX * r->length) {
    snprintf(k, sizeof k, "rods.%zu.section", i);
    snprintf(p, sizeof p,
             "radius %.6g m on a rod of length %.6g m (radius/length = %.3g > %g): not a slender rod, rod theory "
             "does not apply; check the units (m) or the length",
             rad, r->length, rad / r->length, SLENDER_MAX);
    emit(w, k, p);
  }
  if (r->shape.length > 0.0 && fabs(r->shape.length - r->length) > ARC_TOL * r->length) {
    snprintf(k, sizeof k, "rods.%zu.shape", i);
    snprintf(p, sizeof p,
             "the initial shape has arc length %.6g m but length is %.6g m: the rod starts at %.3g %% axial "
             "strain; make them agree (or omit length: it is then the shape's)",
             r->shape.length, r->length, 100.0 * (r->shape.length / r->length - 1.0));
    emit(w, k, p);
  }
}

/* Dynamic runs with contact and an explicit integrator: one warning with the
 * smallest stable step estimate 2 / omega over the rods (see above). */
static void check_contact_explicit(walk *w, const cosrod_scenario *sc) {
  const cosrod_sc_integrator in = sc->solver.integrator;
  if (!sc->contact.enabled || sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC ||
      (in != COSROD_SC_INTEGRATOR_DOPRI5 && in != COSROD_SC_INTEGRATOR_DOP853))
    return;
  const double g = sqrt(sc->gravity[0] * sc->gravity[0] + sc->gravity[1] * sc->gravity[1] +
                        sc->gravity[2] * sc->gravity[2]);
  double hmin = INFINITY, kmin = 0.0, mmin = 0.0;
  size_t rmin = 0;
  for (size_t i = 0; i < sc->nrods; i++) {
    const cosrod_sc_rod *r = &sc->rods[i];
    const double rhoA = r->material.density * r->section.area;
    if (!r->has_material || !(rhoA > 0.0) || r->segments < 1) continue;
    double ds = r->length / (double)r->segments;
    if (r->grid_given && r->grid)
      for (size_t k = 0; k < r->segments; k++) ds = fmin(ds, r->grid[k + 1] - r->grid[k]);
    const double EI = r->material.E * fmin(r->section.I1, r->section.I2);
    const double k = sc->contact.law.stiffness > 0.0
                         ? sc->contact.law.stiffness
                         : cosrod_contact_auto_stiffness(EI, rhoA, g, cosrod_sc_section_radius(&r->section), ds);
    const double h = 2.0 / sqrt(k / rhoA);
    if (h < hmin) hmin = h, kmin = k, mmin = rhoA, rmin = i;
  }
  if (!isfinite(hmin)) return;
  char p[400];
  snprintf(p, sizeof p,
           "%s is explicit: the contact stiffness k = %.3g N/m per m on rod '%s' (mass %.3g kg/m) alone bounds "
           "its step to about 2/omega = %.3g s (omega = sqrt(k/rhoA)), >= %.3g steps to t_end, and impacts excite "
           "the rod's stiff axial and shear modes; use an implicit integrator (radau5, rodas, ida, galpha)",
           cosrod_sc_integrator_name(sc->solver.integrator), kmin, sc->rods[rmin].name, mmin, hmin,
           sc->analysis.t_end / hmin);
  emit(w, "solver.integrator", p);
}

static size_t plausibility(const cosrod_scenario *sc, size_t want, char *buf, size_t len) {
  walk w = {sc, want, 0, buf, len};
  if (buf && len) buf[0] = '\0';
  if (!sc) return 0;
  for (size_t m = 0; m < sc->nmaterials; m++) {
    char k[160];
    snprintf(k, sizeof k, "materials.%s", sc->materials[m].name);
    check_material(&w, &sc->materials[m], k);
  }
  for (size_t r = 0; r < sc->nrods; r++) check_rod(&w, &sc->rods[r], r);
  check_contact_explicit(&w, sc);
  return w.n;
}

size_t cosrod_scenario_nwarnings(const cosrod_scenario *sc) { return plausibility(sc, (size_t)-1, NULL, 0); }

int cosrod_scenario_warning(const cosrod_scenario *sc, size_t i, char *buf, size_t len) {
  return i < plausibility(sc, i, buf, len) ? 0 : -1;
}
