/* RODAS: the stiffly accurate Rosenbrock method of order 4(3) with 6 stages
 * (Hairer & Wanner, Solving ODEs II, §IV.7) for M y' = f(t, y).
 *
 * PLACEHOLDER on the branch that prepares the clean-room rewrite: the
 * numerics (stages, error estimate, dense output) are in rodas_stages.c; the
 * step-size control and the counting of steps are being rewritten.  alloc,
 * dense output and free work; reset and step return COSROD_ERR_UNSUPPORTED
 * with the message "rodas: being rewritten".  This file is replaced as a
 * whole by the rewrite and never merged as is. */
#include <stdlib.h>

#include "integrate/rodas_stages.h"

typedef struct rodas_state {
  rodas_stages *S;
} rodas_state;

/* PLACEHOLDER: the missing control layer. */
static cosrod_status being_rewritten(cosrod_step_ctx *ctx) {
  return cosrod_step_fail(ctx, COSROD_ERR_UNSUPPORTED, ctx->t, "rodas: being rewritten");
}

static void rodas_free(void *vs) {
  rodas_state *s = vs;
  if (!s) return;
  rodas_stages_free(s->S);
  free(s);
}

static cosrod_status rodas_alloc(void **out, cosrod_step_ctx *ctx) {
  rodas_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  cosrod_status st = rodas_stages_create(&s->S, ctx);
  if (st != COSROD_OK) {
    free(s);
    return st;
  }
  *out = s;
  return COSROD_OK;
}

static cosrod_status rodas_reset(void *vs, cosrod_step_ctx *ctx) {
  rodas_state *s = vs;
  s->S->h_old = 0.0;
  if (cosrod_lsys_load_mass(s->S->L, ctx) != 0) return COSROD_ERR_CALLBACK;
  return being_rewritten(ctx);
}

static cosrod_status rodas_step(void *vs, cosrod_step_ctx *ctx, int *accepted) {
  (void)vs;
  *accepted = 0;
  return being_rewritten(ctx);
}

static cosrod_status rodas_dense(void *vs, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                 double *out) {
  (void)ctx;
  const rodas_state *s = vs;
  return rodas_stages_dense(s->S, t, idx, nidx, out);
}

static const cosrod_step_type rodas_type = {
    "rodas",
    4,
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE |
        COSROD_STEP_SPARSE,
    rodas_alloc,
    rodas_reset,
    rodas_step,
    rodas_dense,
    rodas_free,
};

const cosrod_step_type *const cosrod_step_rodas = &rodas_type;
