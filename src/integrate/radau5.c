/* RADAU5: the 3-stage Radau IIA collocation method (order 5, stiffly
 * accurate, L-stable) for M y' = f(t, y) with a constant, possibly singular
 * mass matrix (Hairer & Wanner, Solving ODEs II, §IV.8, §VII.8).
 *
 * PLACEHOLDER on the branch that prepares the clean-room rewrite of the
 * control layer: the numerics (stage systems, error estimate, dense output)
 * are in radau5_stages.c; the step, Newton and Jacobian-reuse control is
 * being rewritten.  alloc, dense output and free work; reset and step return
 * COSROD_ERR_UNSUPPORTED with the message "radau5: being rewritten".  This
 * file is replaced as a whole by the rewrite and never merged as is. */
#include <stdlib.h>

#include "integrate/lsys.h"
#include "integrate/radau5_stages.h"

typedef struct radau5_state {
  radau5_stages *S;
} radau5_state;

/* PLACEHOLDER: the missing control layer. */
static cosrod_status being_rewritten(cosrod_step_ctx *ctx) {
  return cosrod_step_fail(ctx, COSROD_ERR_UNSUPPORTED, ctx->t, "radau5: being rewritten");
}

static void radau5_free(void *vs) {
  radau5_state *s = vs;
  if (!s) return;
  radau5_stages_free(s->S);
  free(s);
}

static cosrod_status radau5_alloc(void **state, cosrod_step_ctx *ctx) {
  *state = NULL;
  radau5_state *s = calloc(1, sizeof *s);
  if (!s) return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "radau5: out of memory");
  cosrod_status st = radau5_stages_create(&s->S, ctx);
  if (st != COSROD_OK) {
    free(s);
    return st;
  }
  *state = s;
  return COSROD_OK;
}

static cosrod_status radau5_reset(void *vs, cosrod_step_ctx *ctx) {
  radau5_state *s = vs;
  if (cosrod_lsys_load_mass(s->S->L, ctx) != 0) return COSROD_ERR_CALLBACK;
  cosrod_status st = radau5_stages_eval_f0(s->S, ctx, "initial point");
  if (st != COSROD_OK) return st;
  return being_rewritten(ctx);
}

static cosrod_status radau5_step(void *vs, cosrod_step_ctx *ctx, int *accepted) {
  (void)vs;
  *accepted = 0;
  return being_rewritten(ctx);
}

static cosrod_status radau5_dense(void *vs, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  const radau5_state *s = vs;
  return radau5_stages_dense(s->S, (t - ctx->t_old) / ctx->h_last, idx, nidx, out);
}

static const cosrod_step_type radau5_type = {
    "radau5",
    5,
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_DAE_INDEX23 | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE |
        COSROD_STEP_OWN_CLIP | COSROD_STEP_SPARSE,
    radau5_alloc,
    radau5_reset,
    radau5_step,
    radau5_dense,
    radau5_free};

const cosrod_step_type *const cosrod_step_radau5 = &radau5_type;
