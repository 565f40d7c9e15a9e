// SPDX-License-Identifier: Apache-2.0
/* Generalized-α on a Lie group (galpha): Chung & Hulbert, J. Appl. Mech. 60
 * (1993) in the Lie-group form of Arnold & Brüls, Multibody Syst. Dyn. 18
 * (2007) and Brüls, Cardona & Arnold, Mech. Mach. Theory 48 (2012), for
 * problems with the Lie-group second-order structure of cosrod_ode_problem
 * (lie_nq, increment, jac_tangent): y = (q, v), q̇ = B(q) v, v̇ = f_v(t, q, v).
 *
 * One step t_n -> t_{n+1} = t_n + h ([AB07] eqs. 13-16), unknown v̇_{n+1}:
 *   (1 - α_m) a_{n+1} + α_m a_n = (1 - α_f) v̇_{n+1} + α_f v̇_n
 *   v_{n+1} = v_n + h (1 - γ) a_n + h γ a_{n+1}
 *   Δq_n    = v_n + h (½ - β) a_n + h β a_{n+1}
 *   q_{n+1} = q_n ⊕ h Δq_n                 (e.g. p_{n+1} = p_n ∘ exp(½ h ΔΩ))
 *   0 = r(v̇_{n+1}) = v̇_{n+1} - f_v(t_{n+1}, q_{n+1}, v_{n+1})
 * a is the algorithmic (pseudo-)acceleration, a_0 = v̇_0.  The configuration
 * is always recomputed from q_n by the increment (never renormalised).
 * Newton on r with the iteration matrix ([AB07] eq. 19 with the tangent
 * operator T(hΔq) ≈ I, [BCA12] §3)
 *   S = I - γ'' C - β'' K,   γ'' = h γ c, β'' = h² β c, c = (1 - α_f)/(1 - α_m),
 * K, C the tangent Jacobians of f_v (cosrod_ode_jac_tangent; -M⁻¹K_T and
 * -M⁻¹C_T of structural dynamics), banded LU, or with sparse tangents
 * (jac_tangent_sp: rod-rod contact) KLU (galpha_sparse.c); simplified Newton (HW II
 * §IV.8): K, C and the LU are reused across iterations and steps while
 * Newton contracts fast (θ <= jac_reuse, default 0.1); after a slow step
 * (θ > jac_reuse) a LU of another h is refactored first, else K, C are
 * re-evaluated; S is refactored only when h moved by more than LU_KEEP
 * (20 %) from the h of its LU; a failed Newton with an old Jacobian
 * retries with a fresh one.  A new K, C is evaluated
 * at the predictor's (t_{n+1}, q_{n+1}, v_{n+1}), not at the step's start: a
 * rod turning by h|Ω| in the step turns its K with it (spatial positions,
 * material rotations), and K from t_n made the first iterations of large
 * steps stall (rubber pendulum at h = 1e-2: 666 -> 452 Newton iterations,
 * 11 -> 0 failures).  Convergence as radau5
 * (HW II §IV.8): η ||Δ|| <= κ with η = θ/(1 - θ).
 *
 * Parameters from ρ∞ (spectral radius at h ω -> ∞), see integrate.h
 * (COSROD_GALPHA_*): γ = ½ - α_m + α_f, β = ¼ (1 - α_m + α_f)²; second
 * order for γ = ½ - α_m + α_f.
 *
 * Step control.  Fixed step (opts.fixed_step, h = h0; a step whose Newton
 * iteration fails even with a fresh Jacobian is retried with h/2, h/4, ...,
 * and the following step is h0 again, so a run reaches t_end or stops with
 * "step size too small") or adaptive:
 *  - local error of the configuration (Zienkiewicz & Xie, Earthquake Eng.
 *    Struct. Dyn. 20 (1991), eq. 12, for Newmark: the difference between the
 *    corrected update and its Taylor part to order h²) in the tangent space,
 *      ê = (β - 1/6) h² (a_{n+1} - a_n),
 *    filtered by the iteration matrix, e = S⁻¹ ê (as radau5's estimate,
 *    Hairer & Wanner II §IV.8 eq. 8.20; Shampine 1980): a resolved mode
 *    (|h² β'' ω²| << 1) keeps ê, an unresolved stiff mode that the scheme
 *    damps numerically (h ω >> 1) contributes O(its amplitude) instead of
 *    O((h ω)² amplitude), so it no longer holds h at its period;
 *  - measured relative to the motion (Zienkiewicz & Xie's relative error
 *    ||e|| / ||u||, u the displacement, both in the same norm):
 *      err = ||(q_{n+1} ⊕ e - q_{n+1})_i / (atol_i + rtol_i D)||_rms,
 *      D = max over the steps of ||q - q(t0)||_rms (incl. q_{n+1}; t0 = the
 *    last (re)start), so a 1 mm vibration of a 1 m rod is controlled to rtol
 *    of 1 mm, not of 1 m (Hairer's |q_i| scale), and components that hardly
 *    move (a cantilever's axial shortening) are held to rtol of the whole
 *    motion, not of their own; atol stays absolute (a user who wants rtol of
 *    a 1 mm vibration needs atol well below rtol x 1 mm).  The Newton test
 *    uses the same scale for the displacement.  hnew = h clamp(0.9
 *    err^(-1/3), 0.2, 5), or the smaller proposal of Gustafsson's
 *    predictive controller (HW II §IV.8 eq. 8.25; opts.controller ==
 *    CLASSICAL turns it off), h kept (LU reused) when 1 <= hnew/h <= 1.2
 *    (HW II §IV.8's dead band);
 *  - step-size changes keep second order: a_n ≈ v̇(t_n + (α_m - α_f) h)
 *    depends on h (Brüls & Arnold, J. Comput. Nonlinear Dyn. 3 (2008) §3), so
 *    a step h after a step h_old uses
 *      a_n <- a_n + (α_m - α_f)(h - h_old) (a_n - a_{n-1}) / h_old
 *    (the shift of a to the new h, v̈ from the last two a's).  Without it,
 *    steps alternating h, 2h converge with order 1.2-1.4 instead of 2
 *    (tests/integrate/test_galpha.c).
 *
 * Projection hook: the algorithmic acceleration a is kept across it (the
 * projection moves y by the step's drift); after a change of coordinates
 * (COSROD_PROJECT_NEW_COORDINATES, e.g. a new null-space partition of the
 * joints) a and v̇ are restarted at the new state (a = v̇_n, as at t0).
 *
 * Dense output: galpha_dense.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/band_spike.h"
#include "cosrod/integrate.h"
#include "galpha_internal.h"
#include "integrate/lsys.h"


static void galpha_free(void *s_) {
  galpha_state *s = s_;
  if (!s) return;
  cosrod_band_free(s->K);
  cosrod_band_free(s->C);
  cosrod_band_free(s->S);
  cosrod_band_spike_free(s->spike);
  galpha_sparse_free(s->sp);
  free(s->vd);
  free(s);
}

/* α_m, α_f, γ, β from ρ∞ (integrate.h COSROD_GALPHA_*). */
static void galpha_params(int scheme, double rho, double *am, double *af, double *gam, double *bet) {
  switch (scheme) {
    case COSROD_GALPHA_HHT:
      *am = 0.0;
      *af = (1.0 - rho) / (1.0 + rho);
      break;
    case COSROD_GALPHA_NEWMARK:
      *am = *af = 0.0;
      *gam = 0.5 + (1.0 - rho) / (1.0 + rho);
      *bet = 0.25 * (*gam + 0.5) * (*gam + 0.5);
      return;
    default:
      *am = (2.0 * rho - 1.0) / (rho + 1.0);
      *af = rho / (rho + 1.0);
      break;
  }
  *gam = 0.5 - *am + *af;
  *bet = 0.25 * (1.0 - *am + *af) * (1.0 - *am + *af);
}

static cosrod_status galpha_alloc(void **out, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  const cosrod_integrate_options *o = ctx->opts;
  const int n = ctx->n, nq = p->lie_nq, nv = n - p->lie_nq;
  if (nq <= 0 || nv <= 0 || !p->jac_tangent || !p->f)
    return cosrod_step_fail(ctx, COSROD_ERR_UNSUPPORTED, ctx->t,
                            "galpha: needs a problem with Lie-group second-order structure (lie_nq, "
                            "jac_tangent, f)");
  if (!p->increment && nq != nv)
    return cosrod_step_fail(ctx, COSROD_ERR_UNSUPPORTED, ctx->t,
                            "galpha: without an increment callback lie_nq must equal n - lie_nq");
  if (p->mass || p->res || p->m1 > 0)
    return cosrod_step_fail(ctx, COSROD_ERR_UNSUPPORTED, ctx->t,
                            "galpha: mass matrices, residual forms and m1 structure are not supported");
  double rho = o->rho_inf < 0.0 ? 0.8 : o->rho_inf;
  int scheme = o->galpha_scheme;
  if (!(rho <= 1.0) || scheme < 0 || scheme > 2 || (scheme == COSROD_GALPHA_HHT && rho < 0.5))
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t,
                            "galpha: rho_inf = %g out of range ([0, 1]; HHT: [0.5, 1])", rho);
  if (o->fixed_step && !(o->h0 > 0.0))
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "galpha: fixed step needs h0 > 0");
  int ml = p->lie_ml < nv - 1 ? p->lie_ml : nv - 1, mu = p->lie_mu < nv - 1 ? p->lie_mu : nv - 1;
  if (ml < 0 || mu < 0) return COSROD_ERR_INVALID;
  galpha_state *s = calloc(1, sizeof *s);
  if (!s) return COSROD_ERR_NOMEM;
  s->n = n;
  s->nq = nq;
  s->nv = nv;
  galpha_params(scheme, rho, &s->am, &s->af, &s->gam, &s->bet);
  s->fixed = o->fixed_step != 0;
  s->safety = o->safety > 0.0 ? o->safety : 0.9;
  s->fac_min = o->fac_min > 0.0 ? o->fac_min : 0.2;
  s->fac_max = o->fac_max > 0.0 ? o->fac_max : 5.0;
  s->kappa = o->newton_tol > 0.0 ? o->newton_tol : (s->fixed ? 0.01 : 0.03);
  s->jac_reuse = o->jac_reuse != 0.0 ? o->jac_reuse : 0.1;
  s->keep_lo = o->keep_h_lo > 0.0 ? o->keep_h_lo : 1.0;
  s->keep_hi = o->keep_h_hi > 0.0 ? o->keep_h_hi : 1.2;
  s->max_newton = o->max_newton > 0 ? o->max_newton : 8;
  s->gustafsson = o->controller != COSROD_CONTROLLER_CLASSICAL;
  s->realtime = s->fixed && o->galpha_realtime;
  s->jac_budget = o->jac_budget > 0 ? o->jac_budget : 0;
  if (galpha_sparse_wanted(p)) {
    cosrod_status st = galpha_sparse_create(&s->sp, p, nv, ml, mu);
    if (st != COSROD_OK) {
      galpha_free(s);
      return cosrod_step_fail(ctx, st, ctx->t, "galpha: the sparse tangent pattern is %s",
                              st == COSROD_ERR_NOMEM ? "too large (no memory)" : "invalid");
    }
  }
  s->K = cosrod_band_create(nv, ml, mu, NULL); /* also with sparse tangents: used until the pattern grows */
  s->C = cosrod_band_create(nv, ml, mu, NULL);
  s->S = cosrod_band_create(nv, ml, mu, NULL);
  s->vd = calloc((size_t)(11 * nv + 3 * n + 2 * nq), sizeof(double));
  if (!s->K || !s->C || !s->S || !s->vd) {
    galpha_free(s);
    return COSROD_ERR_NOMEM;
  }
  if (o->linalg_backend) cosrod_band_set_backend(s->S, (cosrod_linalg_backend)o->linalg_backend);
  const int nt = cosrod_lsys_spike_threads(nv, o->threads);
  if (nt > 0) { /* S by the partitioned solver, one partition per thread (as lsys.c) */
    s->spike = cosrod_band_spike_create(nv, ml, mu, nt, NULL);
    if (!s->spike || cosrod_band_spike_set_threads(s->spike, nt) != COSROD_OK) {
      galpha_free(s);
      return COSROD_ERR_NOMEM;
    }
  }
  double *q = s->vd;
  s->a = q += nv;
  s->vd1 = q += nv;
  s->a1 = q += nv;
  s->dq = q += nv;
  s->x = q += nv;
  s->w = q += nv;
  s->vdold = q += nv;
  s->wq = q += nv;
  s->y1 = q += nv;
  s->f = q += n;
  s->yold = q += n;
  s->qe = q += n;
  s->qref = q += nq;
  s->aacc = q += nq;
  s->aprev = q += nv;
  ctx->clip_factor = s->fixed ? 1.0 + 1e-9 : 1.01;
  *out = s;
  return COSROD_OK;
}

/* qnew <- q ⊕ w (vector space without an increment callback). */
int galpha_increment(const cosrod_step_ctx *ctx, const double *q, const double *w, double *qnew) {
  const cosrod_ode_problem *p = ctx->problem;
  if (p->increment) return p->increment(q, w, qnew, p->user);
  for (int i = 0; i < p->lie_nq; i++) qnew[i] = q[i] + w[i];
  return 0;
}

/* v̇ = f_v at (t, y) into vd. */
static int accel(galpha_state *s, cosrod_step_ctx *ctx, double t, const double *y, double *vd) {
  int rc = cosrod_step_call_f(ctx, t, y, s->f);
  if (rc == 0) memcpy(vd, s->f + s->nq, sizeof(double) * (size_t)s->nv);
  return rc;
}

static cosrod_status galpha_reset(void *s_, cosrod_step_ctx *ctx) {
  galpha_state *s = s_;
  s->have_jac = s->lu_ok = s->jac_fresh = 0;
  s->reject = 0;
  s->eta_old = 1.0;
  s->h_old = 0.0;
  s->hcap = 0.0;
  s->h_acc = s->err_acc = 0.0;
  int rc = accel(s, ctx, ctx->t, ctx->y, s->vd);
  if (rc != 0)
    return rc < 0 ? COSROD_ERR_CALLBACK
                  : cosrod_step_fail(ctx, COSROD_ERR_NONFINITE, ctx->t, "galpha: f fails at the initial state");
  memcpy(s->a, s->vd, sizeof(double) * (size_t)s->nv);
  memcpy(s->aacc, s->vd, sizeof(double) * (size_t)s->nv);
  s->have_aprev = 0;
  memcpy(s->qref, ctx->y, sizeof(double) * (size_t)s->nq);
  s->dmax = 0.0;
  ctx->y_modified = 0;
  if (s->fixed)
    ctx->h = ctx->dir * ctx->opts->h0;
  else if (ctx->h == 0.0)
    ctx->h = ctx->dir * fmin(1e-6, ctx->hmax);
  return COSROD_OK;
}

/* K, C at (t, y) (counts njev). */
static int tangent_jac(galpha_state *s, cosrod_step_ctx *ctx, double t, const double *y) {
  const cosrod_ode_problem *p = ctx->problem;
  ctx->stats->njev++;
  s->njac_step++;
  s->stale = 0;
  int rc;
  if (s->sp) {
    rc = galpha_sparse_jac(s->sp, ctx, t, y);
    if (rc == 0 && galpha_sparse_banded(s->sp)) galpha_sparse_to_band(s->sp, s->K, s->C);
  } else {
    cosrod_band_zero(s->K);
    cosrod_band_zero(s->C);
    rc = p->jac_tangent(t, y, s->K->data + s->K->ml, s->C->data + s->C->ml, s->K->ld, p->user);
  }
  if (rc < 0)
    cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t, "galpha: jac_tangent returned %d (fatal) at t = %.17g", rc, t);
  s->have_jac = rc == 0;
  s->jac_fresh = rc == 0;
  s->lu_ok = 0;
  return rc;
}

/* S = I - γ'' C - β'' K and its LU. */
static cosrod_status factor(galpha_state *s, cosrod_step_ctx *ctx, double h) {
  const double c = (1.0 - s->af) / (1.0 - s->am);
  ctx->stats->ndecomp++;
  cosrod_status st;
  if (s->sp && !galpha_sparse_banded(s->sp)) {
    st = galpha_sparse_factor(s->sp, h * s->gam * c, h * h * s->bet * c);
  } else {
    cosrod_band_set_combination(s->S, -h * h * s->bet * c, s->K, 1.0, NULL);
    cosrod_band_scale_add(s->S, 1.0, -h * s->gam * c, s->C);
    st = s->spike ? cosrod_band_spike_factor(s->spike, s->S) : cosrod_band_factor(s->S);
  }
  s->lu_ok = st == COSROD_OK;
  s->lu_h = h;
  return st;
}

/* x <- S⁻¹ x (counts nsolve). */
static void solve(galpha_state *s, cosrod_step_ctx *ctx, double *x) {
  if (s->sp && !galpha_sparse_banded(s->sp))
    galpha_sparse_solve(s->sp, x);
  else if (s->spike)
    cosrod_band_spike_solve(s->spike, x);
  else
    cosrod_band_solve(s->S, x);
  ctx->stats->nsolve++;
}

/* Reject the attempt (Newton failure or error test), next h = h fac. */
static cosrod_status reject(galpha_state *s, cosrod_step_ctx *ctx, int *accepted, double fac) {
  *accepted = 0;
  s->reject = 1;
  ctx->stats->nreject++;
  ctx->h *= fac;
  return COSROD_OK;
}

/* Predictor (constant acceleration v̇_{n+1} = v̇_n): v̇_{n+1}, a_{n+1},
 * v_{n+1} (in y1), Δq_n. */
static void predict(galpha_state *s, const cosrod_step_ctx *ctx, double h) {
  const double *v = ctx->y + s->nq;
  double *v1 = s->y1 + s->nq;
  for (int i = 0; i < s->nv; i++) {
    s->vd1[i] = s->vd[i];
    s->a1[i] = (s->af * s->vd[i] + (1.0 - s->af) * s->vd1[i] - s->am * s->a[i]) / (1.0 - s->am);
    v1[i] = v[i] + h * ((1.0 - s->gam) * s->a[i] + s->gam * s->a1[i]);
    s->dq[i] = v[i] + h * ((0.5 - s->bet) * s->a[i] + s->bet * s->a1[i]);
  }
}

/* Newton iteration for v̇_{n+1}.  Returns 0 converged, 1 not converged
 * (or recoverable callback failure), -1 fatal. */
static int newton(galpha_state *s, cosrod_step_ctx *ctx, double h, double *theta_out) {
  const int nq = s->nq, nv = s->nv;
  const double *y = ctx->y;
  const double c = (1.0 - s->af) / (1.0 - s->am), t1 = ctx->t + h;
  const double gpp = h * s->gam * c, bpp = h * h * s->bet * c;
  double *q1 = s->y1, *v1 = s->y1 + nq;
  predict(s, ctx, h);
  double dn_old = 0.0, theta = 0.0;
  int refresh = 0;
  for (int it = 0; it < s->max_newton; it++) {
    for (int i = 0; i < nv; i++) s->w[i] = h * s->dq[i];
    int rc = galpha_increment(ctx, y, s->w, q1);
    if (rc != 0) return rc < 0 ? -1 : 1;
    rc = cosrod_step_call_f(ctx, t1, s->y1, s->f);
    if (rc != 0) return rc < 0 ? -1 : 1;
    ctx->stats->nnewton++;
    for (int i = 0; i < nv; i++) s->x[i] = s->f[nq + i] - s->vd1[i];
    solve(s, ctx, s->x);
    double sum = 0.0;
    for (int i = 0; i < nv; i++) {
      double xi = s->x[i];
      s->vd1[i] += xi;
      s->a1[i] += c * xi;
      v1[i] += gpp * xi;
      s->dq[i] += (bpp / h) * xi;
      const double rt = ctx->rtol[nq + i], at = ctx->atol[nq + i];
      double ev = gpp * xi / (at + rt * fabs(v1[i])), eq = bpp * xi / (at + rt * s->dmax);
      sum += ev * ev + eq * eq;
    }
    double dn = sqrt(sum / (2.0 * nv));
    if (!isfinite(dn)) return 1;
    double eta;
    if (it == 0) {
      eta = pow(fmax(s->eta_old, ctx->uround), 0.8);
    } else {
      theta = dn / fmax(dn_old, 1e-300);
      if (theta > 0.5 && refresh < 2 && it + 1 < s->max_newton && (!s->realtime || s->njac_step < s->jac_budget)) {
        /* slow or diverging with K, C from the start of the step (large
         * rotations of stiff sections): Newton with K, C at the iterate */
        for (int i = 0; i < nv; i++) s->w[i] = h * s->dq[i];
        rc = galpha_increment(ctx, y, s->w, q1);
        if (rc == 0) rc = tangent_jac(s, ctx, t1, s->y1);
        if (rc != 0) return rc < 0 ? -1 : 1;
        s->jac_fresh = 0; /* not at (t_n, y_n): a failure may still retry */
        if (factor(s, ctx, h) != COSROD_OK) return 1;
        refresh++;
        dn_old = dn;
        continue;
      }
      if (theta >= 0.99) return 1; /* diverging: also in real time, never accepted */
      eta = theta / (1.0 - theta);
    }
    dn_old = dn;
    /* with the LU of another h the rate of the last step says little: at
     * least two iterations, so that θ of this matrix is measured */
    if ((it > 0 || s->lu_h == h) && (eta * dn <= s->kappa || dn <= 1e-12)) {
      s->eta_old = eta;
      for (int i = 0; i < nv; i++) s->w[i] = h * s->dq[i];
      rc = galpha_increment(ctx, y, s->w, q1);
      if (rc != 0) return rc < 0 ? -1 : 1;
      *theta_out = theta;
      return 0;
    }
  }
  if (s->realtime && theta < 0.99) { /* bounded work: the last iterate of a contracting iteration is the step */
    for (int i = 0; i < nv; i++) s->w[i] = h * s->dq[i];
    int rc = galpha_increment(ctx, y, s->w, q1);
    if (rc != 0) return rc < 0 ? -1 : 1;
    s->eta_old = 1.0;
    *theta_out = theta;
    return 0;
  }
  return 1;
}

/* After the projection hook (the only writer of y between steps) moved y
 * onto the constraints by the step's drift: v̇_n at the projected state;
 * the algorithmic acceleration a and K, C stay (resetting a = v̇_n would
 * make every step a restart, first order for ρ∞ < 1).  y_modified == 2:
 * new velocity coordinates, restart a = v̇_n (as at t0), new K, C. */
static cosrod_status after_projection(galpha_state *s, cosrod_step_ctx *ctx) {
  const int nv = s->nv;
  int rc = accel(s, ctx, ctx->t, ctx->y, s->vd);
  if (rc < 0) return COSROD_ERR_CALLBACK;
  if (ctx->y_modified == 2) {
    memcpy(s->a, s->vd, sizeof(double) * (size_t)nv);
    memcpy(s->aacc, s->vd, sizeof(double) * (size_t)nv);
    s->have_aprev = 0;
    s->have_jac = 0;
  }
  ctx->y_modified = 0;
  return COSROD_OK;
}

/* Error control of an adaptive step h: 0 with the next step *hn, or 1 to
 * reject with the factor *q. */
static int step_control(galpha_state *s, cosrod_step_ctx *ctx, double h, double *hn, double *q) {
  const int nq = s->nq, nv = s->nv;
  /* local error of the configuration, filtered by S (tangent space) */
  const double ce = (s->bet - 1.0 / 6.0) * h * h;
  for (int i = 0; i < nv; i++) s->w[i] = ce * (s->a1[i] - s->a[i]);
  solve(s, ctx, s->w);
  if (galpha_increment(ctx, s->y1, s->w, s->qe) != 0) {
    *q = 0.5;
    return 1;
  }
  double d = 0.0; /* largest rms displacement so far, incl. q_{n+1} */
  for (int i = 0; i < nq; i++) d += (s->y1[i] - s->qref[i]) * (s->y1[i] - s->qref[i]);
  d = fmax(s->dmax, sqrt(d / nq));
  double sum = 0.0;
  for (int i = 0; i < nq; i++) {
    double e = (s->qe[i] - s->y1[i]) / (ctx->atol[i] + ctx->rtol[i] * d);
    sum += e * e;
  }
  double err = sqrt(sum / nq);
  if (!isfinite(err)) {
    ctx->nonfinite = 1;
    *q = s->fac_min;
    return 1;
  }
  const double fac = s->safety;
  *q = cosrod_control_standard(err, 1.0 / 3.0, fac, s->fac_min, s->fac_max);
  if (err > 1.0) return 1;
  if (s->gustafsson && s->h_acc != 0.0) {
    /* predictive controller (Gustafsson 1994; HW II §IV.8 eq. 8.25) for
     * an estimate of order 3: hnew = fac h (1/err)^(1/3) (h/h_acc)
     * (err_acc/err)^(1/3); the smaller of the two proposals is taken */
    double qg = fac * (h / s->h_acc) * cbrt(s->err_acc / (err * err));
    *q = fmin(*q, fmax(s->fac_min, fmin(s->fac_max, qg)));
  }
  s->h_acc = h;
  s->err_acc = fmax(1e-2, err);
  if (s->reject) *q = fmin(*q, 1.0);
  if (*q >= s->keep_lo && *q <= s->keep_hi) *q = 1.0;
  double hnew = h * *q;
  if (s->hcap > 0.0) { /* relaxed by 10 % per accepted step after a Newton failure */
    if (fabs(hnew) > s->hcap) hnew = ctx->dir * fmax(s->hcap, fabs(h));
    s->hcap *= 1.1;
  }
  if (fabs(hnew) > ctx->hmax) hnew = ctx->dir * ctx->hmax;
  *hn = hnew;
  return 0;
}

/* Accept the step (t, h) with the next step hnew and the Newton rate theta. */
static void accept_step(galpha_state *s, cosrod_step_ctx *ctx, double t, double h, double hnew, double theta) {
  const int n = s->n, nq = s->nq, nv = s->nv;
  memcpy(s->yold, ctx->y, sizeof(double) * (size_t)n);
  memcpy(s->vdold, s->vd, sizeof(double) * (size_t)nv);
  for (int i = 0; i < nv; i++) s->wq[i] = h * s->dq[i];
  memcpy(ctx->y, s->y1, sizeof(double) * (size_t)n);
  memcpy(s->vd, s->vd1, sizeof(double) * (size_t)nv);
  memcpy(s->aprev, s->a, sizeof(double) * (size_t)nv);
  memcpy(s->a, s->a1, sizeof(double) * (size_t)nv);
  memcpy(s->aacc, s->a1, sizeof(double) * (size_t)nv);
  s->have_aprev = 1;
  double du = 0.0;
  for (int i = 0; i < nq; i++) du += (ctx->y[i] - s->qref[i]) * (ctx->y[i] - s->qref[i]);
  s->dmax = fmax(s->dmax, sqrt(du / nq));
  ctx->stats->naccept++;
  ctx->t_old = t;
  ctx->t = t + h;
  ctx->h_last = h;
  s->h_old = h;
  s->reject = 0;
  s->jac_fresh = 0;
  if (s->realtime && (theta > s->jac_reuse || s->jac_reuse < 0.0))
    s->stale = 1; /* refreshed at the next step if its budget allows */
  else if (s->jac_reuse < 0.0)
    s->have_jac = 0;
  else if (theta > s->jac_reuse) { /* slow contraction: a stale LU (of another h) is refactored first */
    if (h != s->lu_h)
      s->lu_ok = 0;
    else
      s->have_jac = 0;
  }
  ctx->h = s->fixed ? ctx->dir * ctx->opts->h0 : hnew;
}

static cosrod_status galpha_step(void *s_, cosrod_step_ctx *ctx, int *accepted) {
  galpha_state *s = s_;
  const int nv = s->nv;
  const double t = ctx->t;
  double h = ctx->h;
  *accepted = 0;
  if (ctx->y_modified) {
    cosrod_status st = after_projection(s, ctx);
    if (st != COSROD_OK) return st;
  }
  ctx->stats->nsteps++;
  s->njac_step = 0;
  double theta = 0.0;
  int retried = 0; /* one retry with K, C fresh for this step per attempt */
  for (;;) {
    /* a_n for this h (second order under step-size changes) */
    const double sh = s->have_aprev && h != s->h_old ? (s->am - s->af) * (h - s->h_old) / s->h_old : 0.0;
    for (int i = 0; i < nv; i++) s->a[i] = s->aacc[i] + sh * (s->aacc[i] - s->aprev[i]);
    if (!s->have_jac || (s->stale && s->njac_step < s->jac_budget)) {
      /* K, C at the predicted end of the step: the rod turns by up to
       * h |Ω| in the step, and K at its start would be that much off */
      predict(s, ctx, h);
      for (int i = 0; i < nv; i++) s->w[i] = h * s->dq[i];
      int rc = galpha_increment(ctx, ctx->y, s->w, s->y1);
      if (rc == 0) rc = tangent_jac(s, ctx, t + h, s->y1);
      if (rc < 0) return COSROD_ERR_CALLBACK;
      if (rc > 0) {
        return reject(s, ctx, accepted, 0.5);
      }
    }
    if (!s->lu_ok || fabs(h - s->lu_h) > LU_KEEP * fabs(s->lu_h)) {
      cosrod_status st = factor(s, ctx, h);
      if (st == COSROD_ERR_INTERRUPTED)
        return cosrod_step_fail(ctx, st, ctx->t, "galpha: interrupted in the iteration matrix (t = %.17g)",
                                ctx->t);
      if (st != COSROD_OK) {
        if (!s->jac_fresh && !retried) {
          retried = 1;
          s->have_jac = 0;
          continue;
        }
        return reject(s, ctx, accepted, 0.5);
      }
    }
    int rc = newton(s, ctx, h, &theta);
    if (rc < 0) return COSROD_ERR_CALLBACK;
    if (rc == 0) break;
    if (!s->jac_fresh && !retried) { /* retry with a fresh Jacobian */
      retried = 1;
      s->have_jac = 0;
      s->eta_old = 1.0;
      continue;
    }
    ctx->stats->nconvfail++;
    if (s->realtime) /* no halving: the work per step stays bounded, the caller is told */
      return cosrod_step_fail(ctx, COSROD_ERR_NEWTON, t,
                              "galpha realtime: Newton does not contract at t = %.17g (h = %g): raise "
                              "solver.realtime.newton_max or lower solver.realtime.h",
                              t, h);
    s->eta_old = 1.0;
    s->hcap = 0.7 * fabs(h); /* the following steps stay below the failed one for a while */
    /* also with a fixed step: halve this step (the next one is h0 again) */
    return reject(s, ctx, accepted, 0.5);
  }

  double hnew = h, q;
  if (!s->fixed && step_control(s, ctx, h, &hnew, &q)) return reject(s, ctx, accepted, q);
  accept_step(s, ctx, t, h, hnew, theta);
  *accepted = 1;
  return COSROD_OK;
}

static const cosrod_step_type galpha_type = {
    "galpha",
    2,
    COSROD_STEP_IMPLICIT | COSROD_STEP_BANDED | COSROD_STEP_PROJECTION | COSROD_STEP_DENSE,
    galpha_alloc,
    galpha_reset,
    galpha_step,
    galpha_dense,
    galpha_free,
};

const cosrod_step_type *const cosrod_step_galpha = &galpha_type;
