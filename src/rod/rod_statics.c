// SPDX-License-Identifier: Apache-2.0
/* The rod's interface to statics (rod_statics.h). */
#include "rod/rod_statics.h"

#include <stdlib.h>

#include "rod/rod_internal.h"

void cosrod_rod_view_get(const cosrod_rod *rod, cosrod_rod_view *v) {
  v->N = rod->N;
  v->nq = rod->nq;
  v->nv_ns = rod->nv_ns;
  v->s = rod->s;
  v->ds = rod->ds;
  v->mv = rod->mv;
  v->Ib = rod->Ib;
  v->G0 = rod->G0;
  v->x_init = rod->x_init;
  v->qv = rod->qv;
  v->qs = rod->qs;
  v->nd = rod->nd;
  v->vv_ns = rod->vv_ns;
  v->vs_ns = rod->vs_ns;
  cosrod_vec3_copy(v->CG, rod->CG);
  cosrod_vec3_copy(v->CK, rod->CK);
  cosrod_vec3_copy(v->gravity, rod->gravity);
  for (int e = 0; e < 2; ++e) {
    const rod_end_model *em = &rod->end[e];
    v->end[e].kind = em->kind;
    v->end[e].fixpos = em->fixpos;
    v->end[e].fixrot = em->fixrot;
    v->end[e].slides = em->slides;
    cosrod_vec3_copy(v->end[e].axis, em->axis);
  }
}

int cosrod_rod_has_loads(const cosrod_rod *rod) { return rod->nloads > 0 || rod->load_fn; }

int cosrod_rod_dead_loads(const cosrod_rod *rod) {
  for (int i = 0; i < rod->nloads; ++i) {
    const cosrod_rod_load *l = &rod->loads[i];
    if (l->frame != COSROD_FRAME_SPATIAL || l->kind == COSROD_LOAD_MOMENT) return 0;
  }
  return rod->load_fn == NULL;
}

cosrod_rod *cosrod_rod_static_create(const cosrod_rod *rod) {
  cosrod_rod *shell = malloc(sizeof *shell);
  if (!shell) return NULL;
  *shell = *rod; /* shallow copy sharing the constant arrays */
  shell->has_damping = 0;
  shell->at_rest = 1; /* a keyframed end's pseudo-time rate is not a velocity: the load callback (contact
                       * damping, velocity-dependent user loads) sees the ends at rest */
  return shell;
}

void cosrod_rod_static_force_only(cosrod_rod *shell) { shell->model = COSROD_MODEL_COSSERAT; }

void cosrod_rod_static_free(cosrod_rod *shell) { free(shell); }
