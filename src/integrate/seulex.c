/* SEULEX: extrapolated linearly implicit Euler method with variable order
 * and step size (Hairer & Wanner, Solving ODEs II, §IV.9) for M y' = f(t, y)
 * with a constant, possibly singular mass matrix.
 *
 * PLACEHOLDER on the branch that prepares the clean-room rewrite: the
 * numerics (Euler sweep, extrapolation tableau, dense output) are in
 * seulex_tableau.c; the method itself (step, order and Jacobian control) is
 * being rewritten.  alloc and free work; reset and step return
 * COSROD_ERR_UNSUPPORTED with the message "seulex: being rewritten".  This
 * file is replaced as a whole by the rewrite and never merged as is. */
#include <stdlib.h>

#include "integrate/lsys.h"
#include "integrate/seulex_tableau.h"

typedef struct seulex_state {
  cosrod_lsys *L;
} seulex_state;

/* PLACEHOLDER: the missing method. */
static cosrod_status being_rewritten(cosrod_step_ctx *ctx) {
  return cosrod_step_fail(ctx, COSROD_ERR_UNSUPPORTED, ctx->t, "seulex: being rewritten");
}

static void seulex_free(void *state) {
  seulex_state *s = state;
  if (!s) return;
  cosrod_lsys_free(s->L);
  free(s);
}

static cosrod_status seulex_alloc(void **out, cosrod_step_ctx *ctx) {
  seulex_state *s = calloc(1, sizeof *s);
  if (!s) return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "seulex: out of memory");
  cosrod_status st = cosrod_lsys_create_ex(&s->L, ctx, 1);
  if (st != COSROD_OK) {
    free(s);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "seulex: inconsistent Jacobian or mass-matrix bandwidths")
               : cosrod_step_fail(ctx, st, ctx->t, "seulex: out of memory");
  }
  *out = s;
  return COSROD_OK;
}

static cosrod_status seulex_reset(void *state, cosrod_step_ctx *ctx) {
  (void)state;
  return being_rewritten(ctx);
}

static cosrod_status seulex_step(void *state, cosrod_step_ctx *ctx, int *accepted) {
  (void)state;
  *accepted = 0;
  return being_rewritten(ctx);
}

static cosrod_status seulex_dense(void *state, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  (void)state, (void)t, (void)idx, (void)nidx, (void)out;
  return being_rewritten(ctx);
}

static const cosrod_step_type seulex_type = {
    "seulex",
    1, /* order of the underlying Euler method; the extrapolated order varies */
    COSROD_STEP_IMPLICIT | COSROD_STEP_MASS | COSROD_STEP_DAE | COSROD_STEP_BANDED |
        COSROD_STEP_SECOND_ORDER | COSROD_STEP_M1_REDUCTION | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE |
        COSROD_STEP_SPARSE,
    seulex_alloc,
    seulex_reset,
    seulex_step,
    seulex_dense,
    seulex_free,
};

const cosrod_step_type *const cosrod_step_seulex = &seulex_type;
