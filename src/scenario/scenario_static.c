// SPDX-License-Identifier: Apache-2.0
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
  a->max_steps = (long)sc_key_default_num("analysis.max_steps");
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

/* Union-find over rods (0..nrods-1) and bodies (nrods..). */
static size_t uf_find(size_t *p, size_t i) {
  while (p[i] != i) i = p[i] = p[p[i]];
  return i;
}

/* A static analysis needs every connected part of the model (rods and bodies
 * linked by rod ends on bodies and by joints) held against rigid-body
 * motion: some rod end clamped, pinned or prescribed in space, a body with
 * motion keyframes, a joint to the ground, or contact with static friction
 * on an obstacle fixed in space.  An unsupported part has all
 * six rigid-body directions free; its equilibrium is undetermined (singular
 * tangent), so it is refused before anything is written. */
void sc_check_static_support(ctx *c, ynode *root) {
  cosrod_scenario *sc = c->sc;
  if (sc->analysis.type != COSROD_SC_ANALYSIS_STATIC) return;
  size_t n = sc->nrods + sc->nbodies;
  size_t *p = sc_xcalloc(c, 2 * n + 1, sizeof *p), *held = p + n; /* one block: sc_fail does not return */
  for (size_t i = 0; i < n; i++) p[i] = i;
  for (size_t r = 0; r < sc->nrods; r++)
    for (int e = 0; e < 2; e++) {
      const cosrod_sc_end *end = &sc->rods[r].ends[e];
      if (end->type == COSROD_SC_END_FREE) continue;
      if (end->body >= 0)
        p[uf_find(p, r)] = uf_find(p, sc->nrods + (size_t)end->body);
      else
        held[r] = 1;
    }
  for (size_t b = 0; b < sc->nbodies; b++)
    if (sc->bodies[b].has_motion) held[sc->nrods + b] = 1;
  /* contact with static friction on an obstacle fixed in space (or moved by
   * keyframes) can hold a rod that rests on it: its normal force and the
   * friction anchors take all six directions; a rod that does not touch has
   * no support and the analysis fails at its first increment */
  int friction_support = 0;
  if (sc->contact.enabled && sc->contact.law.mu_static > 0.0)
    for (size_t k = 0; k < sc->contact.nobstacles; k++) friction_support |= sc->contact.obstacles[k].body < 0;
  for (size_t r = 0; r < sc->nrods && friction_support; r++) held[r] = 1;
  for (size_t j = 0; j < sc->njoints; j++) {
    const int *jb = sc->joints[j].body;
    if (jb[0] < 0 || jb[1] < 0)
      held[sc->nrods + (size_t)(jb[0] < 0 ? jb[1] : jb[0])] = 1;
    else
      p[uf_find(p, sc->nrods + (size_t)jb[0])] = uf_find(p, sc->nrods + (size_t)jb[1]);
  }
  for (size_t i = 0; i < n; i++)
    if (held[i]) held[uf_find(p, i)] = 1;
  size_t i = 0;
  while (i < n && held[uf_find(p, i)]) i++;
  free(p);
  if (i < n) {
    int rod = i < sc->nrods;
    size_t k = rod ? i : i - sc->nrods;
    const char *name = rod ? sc->rods[k].name : sc->bodies[k].name;
    ynode *list = sc_get(root, rod ? "rods" : "bodies");
    ynode *item = list && list->kind == YN_SEQ && k < list->n ? list->item[k] : list;
    sc_push(c, rod ? "rods" : "bodies");
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", k);
    sc_fail(c, item, idx,
            "%s '%s' is not supported against rigid-body motion: translations along x, y, z and rotations "
            "about x, y, z are free (no end clamped, pinned or prescribed in space, no joint to the ground, no "
            "body with motion in its connected part); a static analysis needs a support: clamp or pin an end, "
            "or take analysis.type: dynamic",
            rod ? "rod" : "body", name);
  }
}
