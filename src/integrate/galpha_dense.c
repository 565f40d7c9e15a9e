// SPDX-License-Identifier: Apache-2.0
/* Generalized-α (galpha.c): dense output.
 *
 * Exact at both ends and consistent with the step: q(θ) =
 * q_n ⊕ θ h Δq_n (linear in the tangent space of q_n, O(h²) as the method),
 * and v(θ) = the rate of the cubic Hermite in that tangent space with end
 * values 0, h Δq_n and end slopes h v_n, h v_{n+1}, so ∫ v dt over the step
 * is the step's own displacement h Δq_n (a constant force's work on the
 * output is F·h Δq_n, the work the step applied).  Not the cubic Hermite of
 * q itself: the velocities of the numerically damped stiff modes (h ω ≫ 1)
 * are not the rates of their positions (v_{n+1} - Δq_n = O(h a)), and the
 * cubic through them put displacements of O(h |v|) into modes whose
 * amplitude is far smaller — elastic energies up to 10³× the step values
 * between the steps of the pulsed steel cantilever; the cubic Hermite of v
 * with slopes v̇_n, v̇_{n+1} booked its pulse work 3.9× too large. */
#include "galpha_internal.h"

cosrod_status galpha_dense(void *s_, cosrod_step_ctx *ctx, double t, const int *idx, int nidx, double *out) {
  galpha_state *s = s_;
  if (s->h_old == 0.0) return COSROD_ERR_INVALID;
  const int nq = s->nq, nv = s->nv, n = s->n;
  const double h = s->h_old, th = (t - ctx->t_old) / h, th2 = th * th;
  const double *v0 = s->yold + nq, *v1 = ctx->y + nq;
  double *yd = s->y1; /* scratch: not needed between steps */
  /* v: d/dθ of the Hermite basis h10, h01, h11 (see the header) */
  const double d10 = 3 * th2 - 4 * th + 1, d01 = 6 * th - 6 * th2, d11 = 3 * th2 - 2 * th;
  for (int i = 0; i < nv; i++) {
    s->w[i] = th * s->wq[i];
    yd[nq + i] = d10 * v0[i] + d01 * s->wq[i] / h + d11 * v1[i];
  }
  if (galpha_increment(ctx, s->yold, s->w, yd) != 0) return COSROD_ERR_CALLBACK;
  int m = idx ? nidx : n;
  for (int k = 0; k < m; k++) out[k] = yd[idx ? idx[k] : k];
  return COSROD_OK;
}

