// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, part 4: the monitor of silent wrong answers.
 *
 * At every frame of a dynamic run the monitor looks at three numbers that a
 * correct run keeps small (thresholds in include/cosrod/sim.h):
 *   - the energy-balance drift |B(t) - B(0)| ([manual: command line, output reference], B = kinetic +
 *     elastic + gravity + dissipated - external work) relative to the
 *     energy scale S = max over the frames of max(kinetic, elastic,
 *     |gravity - gravity(0)|, |external work|, dissipated, S_0);
 *   - the unit-quaternion constraint: max over segments | |p_k| - 1 | (the
 *     null-space form keeps it by construction only up to the integration
 *     error; the absolute form needs the projection or Baumgarte);
 *   - blow-up: energy created from nothing, i.e. a drift of more than half
 *     the current scale while the scale has grown by COSROD_SIM_BLOWUP_GROWTH
 *     over a reference: the largest of the scales of the healthy frames
 *     before (drift below the warning level), the initial kinetic + elastic
 *     energy, S_0 and the work the largest load can supply over its rod's
 *     size (F L; a moment M 2π) — an upper estimate where S_0 has a lower
 *     one, so that the work of the loads is never read as energy from
 *     nothing.  A blow-up ends the run
 * (COSROD_ERR_DIVERGED) with a message that names the likely cause; the drifts are warnings
 *     (cosrod_sim_warning, summary.json "warnings", stderr).
 * The floor S_0 is known up front from the model and does not vanish at
 * rest (near rest the energies of the motion are round-off, 1e-26 .. 1e-20 J,
 * and the drift would be judged against nothing): the largest of
 *   1. what gravity can supply over the rods' size, Σ ρA L |g| L;
 *   2. the static deflection energy of the largest applied load in the
 *      stiffest response of the rod it acts on, ½ F² L / EA (a moment:
 *      ½ M² L / max(EI1, EI2, GJ); a distributed force q: ½ (q L)² L / 3EA,
 *      a uniform axial load; a body's load: in the stiffest rod attached to
 *      the body) — a lower estimate of what the load stores (bending, the
 *      usual response, is more compliant: L³/3EI ≫ L/EA), so the floor
 *      does not hide the inaccuracy of a loaded run;
 *   3. the kinetic energy of the prescribed motions, ½ m (v + ω ℓ)², v and ω
 *      the largest keyframe speed and rotation rate over the run (the chord
 *      speed of the linear path, 1.5 times it for cubic keyframes), m the
 *      mass they carry at reach ℓ: a moving rod end its rod (ℓ = L); a
 *      keyframe body itself (½ M v² + ½ I_max ω²) and the rods attached to
 *      it (ℓ = |at| + L); a moving obstacle or a keyframe body's shape every
 *      rod it can push (ℓ the longest rod);
 *   4. round-off at rest: the elastic energy of a position error δ X_r in
 *      every segment, ½ (δ X_r)² max(κGA, EA) Σ_k 1 / Δs_k, X_r = |x_0| + L,
 *      δ = 1e-12 (about 4500 ulp: 500 times the noise measured at rest with
 *      radau5, rodas, seulex, ida and cvode, δ ≤ 2e-15).
 * User load callbacks (cosrod_sim_set_load_fn) are not known up front and
 * add nothing to S_0.  With the energy accounting switched off (balance NaN)
 * only |p| is watched.  Nothing is allocated. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

/* ---- the floor of the energy scale (header: terms 1 to 4) ------------------ */

static double sq(double a) { return a * a; }

/* Largest rate of keyframes k over the intervals that start before t_end:
 * dim 3 positions, the chord speed |P_{i+1} - P_i| / Δt (the speed of the
 * linear path) [m/s]; dim 4 unit quaternions, the slerp rate
 * 2 acos(p_i · p_{i+1}) / Δt [1/s].  cubic: 1.5 times that, the peak of the
 * rest-to-rest Hermite segment (x' = 6 s (1 - s) ΔP / Δt at s = 1/2). */
static double keyframe_rate(const cosrod_sc_keyframes *k, int dim, int cubic, double t_end) {
  double r = 0.0;
  for (size_t i = 0; i + 1 < k->n && k->t[i] < t_end; i++) {
    const double *a = k->values + (size_t)dim * i, *b = a + dim;
    double dt = k->t[i + 1] - k->t[i], d = 0.0;
    for (int j = 0; j < dim; j++) d += dim == 3 ? sq(b[j] - a[j]) : a[j] * b[j];
    d = dim == 3 ? sqrt(d) : 2.0 * acos(fmax(-1.0, fmin(1.0, d)));
    if (dt > 0.0 && d / dt > r) r = d / dt;
  }
  return cubic ? 1.5 * r : r;
}

/* Rod r: mass ρA L, axial compliance L / EA and rotational compliance
 * L / max(EI1, EI2, GJ) (its stiffest responses; 0 if a stiffness is not
 * positive and finite). */
static void rod_props(const cosrod_sim *s, size_t r, double *m, double *cF, double *cM) {
  double CG[3], CK[3], rhoA, L = s->sc->rods[r].length;
  cosrod_rod_constants(s->sys.m->rods[r], CG, CK, NULL, NULL, &rhoA, NULL);
  double EA = CG[2], EI = fmax(fmax(CK[0], CK[1]), CK[2]);
  *m = rhoA * L;
  *cF = EA > 0.0 && isfinite(EA) ? L / EA : 0.0;
  *cM = EI > 0.0 && isfinite(EI) ? L / EI : 0.0;
}

/* 1. What gravity can supply over one rod length, Σ ρA L |g| L [J]. */
static double gravity_scale(const cosrod_sim *s) {
  double g = sqrt(sq(s->sc->gravity[0]) + sq(s->sc->gravity[1]) + sq(s->sc->gravity[2])), e = 0.0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    double m, cF, cM;
    rod_props(s, r, &m, &cF, &cM);
    e += m * g * s->sc->rods[r].length;
  }
  return e;
}

/* 2. The largest applied load: work 0, its static deflection energy ½ F² c
 * in the stiffest response c of the rod (or of the rods attached to the
 * body) it acts on (a distributed force q: its total q L, spread uniformly,
 * ½ (q L)² L / 3EA); work 1, what it can supply over the rod's size, F L
 * (a moment: M 2π, one turn; q: q L²; a body's load: over the longest rod
 * attached) [J]. */
static double load_scale(const cosrod_sim *s, int work) {
  const double TURN = 6.283185307179586;
  double e = 0.0, m, cF, cM;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const cosrod_sc_rod *R = &s->sc->rods[r];
    double L = R->length;
    rod_props(s, r, &m, &cF, &cM);
    for (size_t i = 0; i < R->nloads; i++) {
      const cosrod_sc_load *l = &R->loads[i];
      double F = sqrt(sq(l->value[0]) + sq(l->value[1]) + sq(l->value[2]));
      if (l->type == COSROD_SC_LOAD_MOMENT)
        e = fmax(e, work ? F * TURN : 0.5 * F * F * cM);
      else if (l->type == COSROD_SC_LOAD_FORCE)
        e = fmax(e, work ? F * L : 0.5 * F * F * cF);
      else
        e = fmax(e, work ? F * L * L : 0.5 * sq(F * L) * cF / 3.0);
    }
  }
  for (size_t b = 0; b < s->sc->nbodies; b++) {
    const cosrod_sc_body *B = &s->sc->bodies[b];
    double cFb = INFINITY, cMb = INFINITY, Lb = 0.0;
    for (size_t r = 0; r < s->sys.m->nrods; r++)
      if (s->sc->rods[r].ends[0].body == (int)b || s->sc->rods[r].ends[1].body == (int)b) {
        rod_props(s, r, &m, &cF, &cM);
        cFb = fmin(cFb, cF);
        cMb = fmin(cMb, cM);
        Lb = fmax(Lb, s->sc->rods[r].length);
      }
    if (!isfinite(cFb)) continue; /* a body on no rod: the loads' work becomes its kinetic energy */
    for (size_t i = 0; i < B->nloads; i++) {
      const cosrod_sc_body_load *l = &B->loads[i];
      double F = sqrt(sq(l->value[0]) + sq(l->value[1]) + sq(l->value[2]));
      if (l->type == COSROD_SC_LOAD_MOMENT)
        e = fmax(e, work ? F * TURN : 0.5 * F * F * cMb);
      else
        e = fmax(e, work ? F * Lb : 0.5 * F * F * cFb);
    }
  }
  return e;
}

/* 3. The kinetic energy of the prescribed motions, ½ m (v + ω ℓ)² with v,
 * ω the largest keyframe speed and rate over the run, m the mass they carry
 * and ℓ its reach from the driven point [J]: a rod's moving end carries the
 * rod (ℓ = L); a keyframe body itself (½ M v² + ½ I_max ω²) and the rods
 * attached to it (ℓ = |at| + L); a moving obstacle or a keyframe body's
 * shape can push every rod (ℓ the longest rod). */
static double drive_scale(const cosrod_sim *s) {
  const cosrod_scenario *sc = s->sc;
  double T = sc->analysis.t_end, e = 0.0, mall = 0.0, Lmax = 0.0, m, cF, cM;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const cosrod_sc_rod *R = &sc->rods[r];
    rod_props(s, r, &m, &cF, &cM);
    mall += m;
    Lmax = fmax(Lmax, R->length);
    for (int k = 0; k < 2; k++) {
      const cosrod_sc_end *E = &R->ends[k];
      if (E->body >= 0) continue;
      double v = keyframe_rate(&E->position, 3, E->cubic, T),
             w = keyframe_rate(&E->orientation, 4, E->cubic, T);
      e = fmax(e, 0.5 * m * sq(v + w * R->length));
    }
  }
  for (size_t b = 0; b < sc->nbodies; b++) {
    const cosrod_sc_body *B = &sc->bodies[b];
    if (!B->has_motion) continue;
    double v = keyframe_rate(&B->motion_position, 3, B->motion_cubic, T);
    double w = keyframe_rate(&B->motion_orientation, 4, B->motion_cubic, T);
    double Imax = fmax(fmax(B->inertia[0], B->inertia[1]), B->inertia[2]),
           eb = 0.5 * (B->mass * v * v + Imax * w * w);
    for (size_t r = 0; r < s->sys.m->nrods; r++)
      for (int k = 0; k < 2; k++)
        if (sc->rods[r].ends[k].body == (int)b) {
          double at = sqrt(sq(sc->rods[r].ends[k].at[0]) + sq(sc->rods[r].ends[k].at[1]) +
                           sq(sc->rods[r].ends[k].at[2]));
          rod_props(s, r, &m, &cF, &cM);
          eb += 0.5 * m * sq(v + w * (at + sc->rods[r].length));
        }
    e = fmax(e, eb);
  }
  for (size_t o = 0; o < sc->contact.nobstacles; o++) {
    const cosrod_sc_obstacle *O = &sc->contact.obstacles[o];
    double v = 0.0, w = 0.0;
    if (O->has_motion) {
      v = keyframe_rate(&O->motion_position, 3, O->motion_cubic, T);
      w = keyframe_rate(&O->motion_orientation, 4, O->motion_cubic, T);
    } else if (O->body >= 0 && sc->bodies[O->body].has_motion) {
      const cosrod_sc_body *B = &sc->bodies[O->body];
      v = keyframe_rate(&B->motion_position, 3, B->motion_cubic, T);
      w = keyframe_rate(&B->motion_orientation, 4, B->motion_cubic, T);
    }
    e = fmax(e, 0.5 * mall * sq(v + w * Lmax));
  }
  return e;
}

/* 4. Round-off at rest: the elastic energy of a position error δ X_r in
 * every segment, ½ (δ X_r)² max(κGA, EA) Σ_k 1 / Δs_k, X_r = |x_0| + L the
 * size of rod r's coordinates, δ = 1e-12 [J]. */
static double rest_scale(const cosrod_sim *s) {
  double e = 0.0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const cosrod_sc_rod *R = &s->sc->rods[r];
    const cosrod_rod *rod = s->sys.m->rods[r];
    const double *ds = cosrod_rod_seg_length(rod);
    double CG[3], inv = 0.0;
    cosrod_rod_constants(rod, CG, NULL, NULL, NULL, NULL, NULL);
    double C = fmax(fmax(CG[0], CG[1]), CG[2]);
    for (int k = 0; k < cosrod_rod_nseg(rod); k++) inv += 1.0 / ds[k];
    double X = sqrt(sq(R->shape.start[0]) + sq(R->shape.start[1]) + sq(R->shape.start[2])) + R->length;
    if (C > 0.0 && isfinite(C)) e += 0.5 * sq(1e-12 * X) * C * inv;
  }
  return e;
}

/* The floor S_0 of the energy scale: the largest of terms 1 to 4. */
static double scale_floor(const cosrod_sim *s) {
  return fmax(fmax(gravity_scale(s), load_scale(s, 0)), fmax(drive_scale(s), rest_scale(s)));
}

void sim_monitor_reset(cosrod_sim *s) {
  s->mon.n = 0;
  s->mon.bal0 = s->mon.G0 = 0.0;
  s->mon.scale = s->mon.drift = s->mon.pdev = 0.0;
  /* the reference scale starts at the floor S_0 and what the loads can
   * supply over the rods' size (raised by the first frame's energy and the
   * healthy frames): a run from rest that creates energy before its first
   * healthy frame is still recognised */
  s->mon.ref = fmax(scale_floor(s), load_scale(s, 1));
  s->mon.t_drift = s->mon.t_pdev = 0.0;
  s->diverged = 0;
  s->nwarn = 0;
}

static double pnorm_deviation(const cosrod_sim *s) {
  double m = 0.0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const cosrod_rod_data *d = s->sys.d->data[r];
    for (int k = 0; k < d->N; k++) {
      const double *p = d->p + 4 * k;
      double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
      if (fabs(n - 1.0) > m) m = fabs(n - 1.0);
    }
  }
  return m;
}

/* The likely cause of a blow-up, for the message. */
static const char *blowup_cause(const cosrod_sim *s) {
  if (s->sys.m->form == COSROD_FORM_ABSOLUTE && !s->sys.m->prob.project && !s->sys.m->baumgarte)
    return "formulation absolute without projection (the quaternions leave |p| = 1): set "
           "solver.stabilisation: projection, or take formulation nullspace";
  if (s->sys.m->type->flags & COSROD_STEP_EXPLICIT)
    return "an explicit method at its stability limit (a stiff rod): take an implicit integrator "
           "(radau5, rodas) or a much smaller rtol";
  return "steps too large for the dynamics: take a smaller rtol / atol or an hmax";
}

int sim_monitor_frame(cosrod_sim *s, double t) {
  const cosrod_sim_energy *e = &s->energy;
  double pdev = pnorm_deviation(s);
  if (pdev > s->mon.pdev || isnan(pdev)) {
    s->mon.pdev = pdev;
    s->mon.t_pdev = t;
  }
  if (!isfinite(e->balance)) {
    s->mon.n++;
    return 0;
  }
  if (s->mon.n == 0) {
    s->mon.bal0 = e->balance;
    s->mon.G0 = e->gravity;
    s->mon.ref = fmax(s->mon.ref, fabs(e->kinetic) + fabs(e->elastic));
  }
  s->mon.n++;
  /* the scale never falls below the floor S_0 (header): near rest the
   * energies of the motion vanish and the drift (integration error of the
   * whole state) would be judged against nothing */
  double scale =
      fmax(fmax(fmax(fabs(e->kinetic), fabs(e->elastic)),
                fmax(fabs(e->gravity - s->mon.G0), fmax(fabs(e->external_work), fabs(e->dissipated)))),
           scale_floor(s));
  double drift = fabs(e->balance - s->mon.bal0);
  if (scale > s->mon.scale) s->mon.scale = scale;
  if (drift > s->mon.drift) {
    s->mon.drift = drift;
    s->mon.drift_signed = e->balance - s->mon.bal0;
    s->mon.t_drift = t;
  }
  if (drift <= COSROD_SIM_DRIFT_WARN * scale || drift == 0.0) {
    if (scale > s->mon.ref) s->mon.ref = scale;
    return 0;
  }
  if (s->mon.ref > 0.0 && drift > 0.5 * scale && scale > COSROD_SIM_BLOWUP_GROWTH * s->mon.ref) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg,
             "blow-up at t = %.6g s: the energy grew from %.3g J to %.3g J with an energy balance drift of "
             "%.3g J (not supplied by loads or moving ends); likely cause: %s",
             t, s->mon.ref, scale, drift, blowup_cause(s));
    s->t_fail = t;
    s->diverged = 1;
    return -1;
  }
  return 0;
}

static void add_warning(cosrod_sim *s, const char *text) {
  if (s->nwarn < sizeof s->warn / sizeof s->warn[0])
    snprintf(s->warn[s->nwarn++], sizeof s->warn[0], "%s", text);
}

void sim_monitor_finish(cosrod_sim *s) {
  char w[sizeof s->warn[0]];
  if (s->mon.scale > 0.0 && s->mon.drift > COSROD_SIM_DRIFT_WARN * s->mon.scale && !s->diverged) {
    /* energy lost under generalized-alpha with rho_inf < 1: its numerical
     * damping of the modes h w >> 1 (on the pulsed undamped cantilever it
     * stays at 12 % with atol 1e-9; rho_inf 1 keeps it to 1.4 %) */
    const sys_def *d = s->sys.m->def;
    const int ga_loss = d->galpha && d->rho_inf < 1.0 && s->mon.drift_signed < 0.0;
    char tail[200];
    if (ga_loss)
      snprintf(tail, sizeof tail,
               "energy lost: generalized-alpha (rho_inf %g) damps the modes its steps do not resolve; take "
               "solver.rho_inf closer to 1 to keep it, or a smaller rtol / atol",
               d->rho_inf);
    else
      snprintf(tail, sizeof tail, "the solution is not accurate; take a smaller rtol / atol%s",
               s->sys.m->form == COSROD_FORM_ABSOLUTE && !s->sys.m->prob.project ? " or stabilisation: projection"
                                                                                 : "");
    snprintf(w, sizeof w,
             "energy balance drift %.3g J = %.3g %% of the energy scale %.3g J (at t = %.6g s; warning above "
             "%g %%): %s",
             s->mon.drift, 100.0 * s->mon.drift / s->mon.scale, s->mon.scale, s->mon.t_drift,
             100.0 * COSROD_SIM_DRIFT_WARN, tail);
    add_warning(s, w);
  }
  if (s->mon.pdev > COSROD_SIM_PNORM_WARN) {
    snprintf(w, sizeof w,
             "unit quaternions drifted: max | |p| - 1 | = %.3g (at t = %.6g s; warning above %g)%s",
             s->mon.pdev, s->mon.t_pdev, COSROD_SIM_PNORM_WARN,
             s->sys.m->form == COSROD_FORM_NULLSPACE
                 ? ": take a smaller rtol / atol"
                 : ": take stabilisation: projection (or a stronger baumgarte)");
    add_warning(s, w);
  }
}

void sim_warn_unstable(cosrod_sim *s, const cosrod_statics_stats *ss, const char *what) {
  if (!ss || ss->unstable <= 0) return;
  char w[320];
  const char *pl = ss->unstable == 1 ? "" : "s";
  if (ss->replaced)
    snprintf(w, sizeof w,
             "%s: the equilibrium nearest the given shape is unstable (%d negative stiffness eigenvalue%s); "
             "the stable one reached downhill from it is used instead",
             what, ss->unstable, pl);
  else
    snprintf(w, sizeof w,
             "%s: the equilibrium is unstable (%d negative stiffness eigenvalue%s: no energy minimum) and "
             "no stable one was reached downhill from it; any disturbance leaves it",
             what, ss->unstable, pl);
  add_warning(s, w);
}

size_t cosrod_sim_nwarnings(const cosrod_sim *s) { return s ? s->nwarn : 0; }

const char *cosrod_sim_warning(const cosrod_sim *s, size_t i) { return s && i < s->nwarn ? s->warn[i] : ""; }
