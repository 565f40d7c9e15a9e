/* Static analysis options of the scenario: `control: load |
 * arc-length` (arc-length continuation in a load factor, [manual: modelling guide] statics)
 * with `max_steps`, and `path: pseudo-time | keyframes` (an assembly path:
 * the pseudo-time is the keyframe time of the prescribed ends and of the
 * bodies driven by motion keyframes). */
#include "scenario_internal.h"

void sc_read_static_control(ctx *c, ynode *m) {
  static const char *const controls[] = {"load", "arc-length", NULL};
  static const char *const paths[] = {"pseudo-time", "keyframes", NULL};
  cosrod_sc_analysis *a = &c->sc->analysis;
  ynode *v;
  a->max_steps = 2000;
  if ((v = sc_get(m, "control"))) a->arc_length = sc_to_enum(c, v, "control", controls);
  if ((v = sc_get(m, "path"))) a->keyframe_path = sc_to_enum(c, v, "path", paths);
  if ((v = sc_get(m, "max_steps"))) {
    a->max_steps = sc_to_int(c, v, "max_steps", 1, 100000000L);
    if (!a->arc_length)
      sc_fail(c, v, "max_steps", "only with control: arc-length (load control stops at t = 1)");
  }
  if ((v = sc_get(m, "switch_branch"))) {
    a->switch_branch = sc_to_bool(c, v, "switch_branch");
    if (!a->arc_length) sc_fail(c, v, "switch_branch", "only with control: arc-length");
  }
  if (a->arc_length && a->keyframe_path)
    sc_fail(
        c, sc_get(m, "path"), "path",
        "control: arc-length scales the loads at fixed ends; it cannot follow keyframes (use control: load)");
}

/* Last keyframe time of a keyframe list with more than one entry (0 if none). */
static double last_key(const cosrod_sc_keyframes *k) { return k->n > 1 ? k->t[k->n - 1] : 0.0; }

void sc_check_static_path(ctx *c, ynode *root) {
  cosrod_scenario *sc = c->sc;
  cosrod_sc_analysis *a = &sc->analysis;
  if (a->type != COSROD_SC_ANALYSIS_STATIC || (!a->arc_length && !a->keyframe_path)) return;
  double T = 0.0;
  for (size_t r = 0; r < sc->nrods; r++)
    for (int e = 0; e < 2; e++) {
      T = fmax(T, last_key(&sc->rods[r].ends[e].position));
      T = fmax(T, last_key(&sc->rods[r].ends[e].orientation));
    }
  for (size_t b = 0; b < sc->nbodies; b++) { /* bodies driven by motion keyframes carry rod ends */
    T = fmax(T, last_key(&sc->bodies[b].motion_position));
    T = fmax(T, last_key(&sc->bodies[b].motion_orientation));
  }
  ynode *m = sc_get(root, "analysis");
  sc_push(c, "analysis");
  if (a->arc_length && T > 0.0)
    sc_fail(c, sc_get(m, "control"), "control",
            "arc-length control keeps the prescribed ends at their t = 1 values, but an end moves (keyframes "
            "up to "
            "t = %g): use control: load, or path: keyframes",
            T);
  if (a->keyframe_path) {
    if (!(T > 0.0))
      sc_fail(
          c, sc_get(m, "path"), "path",
          "a keyframe path needs a pinned or prescribed end with keyframes, or a body with motion keyframes (two "
          "or more, the last at t > 0)");
    a->t_end = T;
  }
  sc_pop(c);
}
