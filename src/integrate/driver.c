// SPDX-License-Identifier: Apache-2.0
/* The integration driver (the "evolve" layer of GSL's odeiv2): owns the loop
 * from t to t_end around a method's single-step function.
 *
 * Per attempted step: max_steps check, tiny step check (0.1|h| <= |t| u),
 * |h| <= hmax, the end of the interval by cosrod_step_to_end (clipping to t_end
 * when t + clip_factor h reaches it, clip_factor 1 unless the method sets it; two
 * equal steps when the rest is below (1 + F) h), then the method's step (which decides
 * accept/reject and the next h).  After an accepted step: NaN/Inf check of y,
 * the projection hook, output at the requested times in (t_old, t] by the
 * method's dense output, and the every-step output.  On failure the state of
 * the last accepted step is kept and a message with the time is stored. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/integrate.h"
#include "core/error.h"

#define MSG_SIZE 512

struct cosrod_integrator {
  const cosrod_step_type *type;
  const cosrod_ode_problem *problem;
  cosrod_integrate_options opts;
  cosrod_step_ctx ctx;
  cosrod_integrate_stats stats;
  void *state;
  double *y;    /* (n) current state */
  double *yp0;  /* (n) optional initial derivative */
  double *rtol; /* (n) */
  double *atol; /* (n) */
  double *yout; /* (n) dense-output buffer */
  char msg[MSG_SIZE];
  int initialised;
  int have_yp0;
  cosrod_status last_status;
};

static double wall_now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void set_status(cosrod_status *s, cosrod_status v) {
  if (s) *s = v;
}

/* Record why create fails; returns NULL for `return create_failed(...)`. */
#ifdef __GNUC__
__attribute__((format(printf, 3, 4)))
#endif
static cosrod_integrator *
create_failed(cosrod_status *status, cosrod_status st, const char *fmt, ...) {
  char msg[MSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cosrod_error_set("%s", msg);
  set_status(status, st);
  return NULL;
}

/* Argument checks of create that need no allocation: 0 if all is well, else
 * 1 with the status and message set. */
static int problem_invalid(const cosrod_step_type *type, const cosrod_ode_problem *problem,
                           const cosrod_integrate_options *o, cosrod_status *status) {
  const cosrod_status bad = COSROD_ERR_INVALID;
  if (!type) return create_failed(status, bad, "integrator create: no method (step type is NULL)"), 1;
  if (!problem) return create_failed(status, bad, "%s: no problem (NULL)", type->name), 1;
  const int n = problem->n;
  if (n < 1) return create_failed(status, bad, "%s: problem dimension n = %d must be >= 1", type->name, n), 1;
  if (!problem->f && !(problem->res && (type->flags & COSROD_STEP_RESIDUAL)))
    return create_failed(status, bad, "%s: the problem has no right-hand side f%s", type->name,
                         problem->res ? " (a residual alone needs ida)" : ""),
           1;
  if (!(o->hmax >= 0.0) || !isfinite(o->h0))
    return create_failed(status, bad, "%s: options hmax = %g must be >= 0 and h0 = %g finite", type->name,
                         o->hmax, o->h0),
           1;
  if (problem->m1 < 0 || problem->m2 < 0 || problem->m1 >= n)
    return create_failed(status, bad, "%s: second-order structure m1 = %d, m2 = %d invalid for n = %d",
                         type->name, problem->m1, problem->m2, n),
           1;
  if (problem->m1 > 0) {
    int m2 = problem->m2 > 0 ? problem->m2 : problem->m1;
    if (problem->m1 % m2 != 0 || problem->m1 + m2 > n)
      return create_failed(status, bad, "%s: m1 = %d must be a multiple of m2 = %d and m1 + m2 <= n = %d",
                           type->name, problem->m1, m2, n),
             1;
  }
  if (problem->nind1 < 0 || problem->nind2 < 0 || problem->nind3 < 0 ||
      ((problem->nind1 || problem->nind2 || problem->nind3) &&
       problem->nind1 + problem->nind2 + problem->nind3 != n))
    return create_failed(status, bad, "%s: DAE index counts %d + %d + %d must be >= 0 and sum to n = %d",
                         type->name, problem->nind1, problem->nind2, problem->nind3, n),
           1;
  if (problem->jac_banded && (problem->jac_ml < 0 || problem->jac_mu < 0))
    return create_failed(status, bad, "%s: negative Jacobian bandwidth (ml = %d, mu = %d)", type->name,
                         problem->jac_ml, problem->jac_mu),
           1;
  /* tolerances: finite, >= 0, and not both 0 (the error weight atol + rtol |y| would vanish) */
  for (int i = 0; i < n; i++) {
    const double r = o->rtol_vec ? o->rtol_vec[i] : o->rtol, a = o->atol_vec ? o->atol_vec[i] : o->atol;
    if (!(r >= 0.0 && isfinite(r)) || !(a >= 0.0 && isfinite(a)))
      return create_failed(status, bad,
                           "%s: tolerances of component %d (rtol %g, atol %g) must be finite and >= 0",
                           type->name, i, r, a),
             1;
    if (r == 0.0 && a == 0.0)
      return create_failed(status, bad,
                           "%s: rtol = atol = 0 for component %d: the error weight atol + rtol |y| is 0",
                           type->name, i),
             1;
  }

  const cosrod_status uns = COSROD_ERR_UNSUPPORTED;
  if (problem->mass && !(type->flags & COSROD_STEP_MASS))
    return create_failed(status, uns, "%s does not support a mass matrix", type->name), 1;
  if ((problem->nind2 || problem->nind3) && !(type->flags & COSROD_STEP_DAE_INDEX23))
    return create_failed(status, uns, "%s does not support index-2/3 variables", type->name), 1;
  if (problem->project && !(type->flags & COSROD_STEP_PROJECTION))
    return create_failed(status, uns, "%s does not support a projection hook", type->name), 1;
  /* an implicit method must understand the Jacobian layout it is given */
  if ((type->flags & COSROD_STEP_IMPLICIT) && problem->m1 > 0 && !(type->flags & COSROD_STEP_SECOND_ORDER))
    return create_failed(status, uns, "%s does not support second-order structure (m1 > 0)", type->name), 1;
  if ((type->flags & COSROD_STEP_IMPLICIT) && problem->jac_banded && !(type->flags & COSROD_STEP_BANDED))
    return create_failed(status, uns, "%s does not support a banded Jacobian", type->name), 1;
  return 0;
}

cosrod_integrator *cosrod_integrator_create(const cosrod_step_type *type, const cosrod_ode_problem *problem,
                                            const cosrod_integrate_options *opts, cosrod_status *status) {
  cosrod_error_clear();
  cosrod_integrate_options o = opts ? *opts : cosrod_integrate_default_options();
  if (o.max_steps <= 0) o.max_steps = 100000;
  if (problem_invalid(type, problem, &o, status)) return NULL;
  const int n = problem->n;

  cosrod_integrator *it = calloc(1, sizeof *it);
  if (!it) return create_failed(status, COSROD_ERR_NOMEM, "%s: out of memory", type->name);
  it->type = type;
  it->problem = problem;
  it->opts = o;
  size_t nb = sizeof(double) * (size_t)n;
  it->y = calloc(1, nb);
  it->yp0 = calloc(1, nb);
  it->rtol = malloc(nb);
  it->atol = malloc(nb);
  it->yout = calloc(1, nb);
  if (!it->y || !it->yp0 || !it->rtol || !it->atol || !it->yout) {
    cosrod_integrator_free(it);
    return create_failed(status, COSROD_ERR_NOMEM, "%s: out of memory (n = %d)", type->name, n);
  }
  for (int i = 0; i < n; i++) {
    it->rtol[i] = o.rtol_vec ? o.rtol_vec[i] : o.rtol;
    it->atol[i] = o.atol_vec ? o.atol_vec[i] : o.atol;
  }
  /* the copy must not point at caller memory */
  it->opts.rtol_vec = it->rtol;
  it->opts.atol_vec = it->atol;

  cosrod_step_ctx *c = &it->ctx;
  c->problem = problem;
  c->opts = &it->opts;
  c->n = n;
  c->rtol = it->rtol;
  c->atol = it->atol;
  c->stats = &it->stats;
  c->y = it->y;
  c->dir = 1.0;
  c->uround = o.uround > 0.0 ? o.uround : 1.1102230246251565e-16;
  c->clip_factor = 1.0; /* plain clipping; a method may set its own in alloc */
  c->msg = it->msg;
  c->msg_size = MSG_SIZE;
  c->first = 1;
  it->msg[0] = '\0';

  cosrod_status st = type->alloc(&it->state, c);
  if (st != COSROD_OK) {
    /* keep the method's message (written to it->msg by cosrod_step_fail) */
    if (it->msg[0])
      cosrod_error_set("%s", it->msg);
    else
      cosrod_error_set("%s: cannot be set up for this problem (%s)", type->name, cosrod_strerror(st));
    it->state = NULL;
    cosrod_integrator_free(it);
    set_status(status, st);
    return NULL;
  }
  it->last_status = COSROD_OK;
  cosrod_error_clear();
  set_status(status, COSROD_OK);
  return it;
}

void cosrod_integrator_free(cosrod_integrator *it) {
  if (!it) return;
  if (it->state && it->type->free) it->type->free(it->state);
  free(it->y);
  free(it->yp0);
  free(it->rtol);
  free(it->atol);
  free(it->yout);
  free(it);
}

/* Argument failure of init / evolve: message and status kept on the integrator. */
#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static cosrod_status
arg_failed(cosrod_integrator *it, cosrod_status st, double t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(it->msg, sizeof it->msg, fmt, ap);
  va_end(ap);
  it->ctx.t_fail = t;
  it->last_status = st;
  return st;
}

cosrod_status cosrod_integrator_init(cosrod_integrator *it, double t0, const double *y0, const double *yp0) {
  if (!it) return COSROD_ERR_INVALID;
  const char *name = it->type->name;
  if (!y0)
    return arg_failed(it, COSROD_ERR_INVALID, t0, "%s: init without an initial state (y0 = NULL)", name);
  if (!isfinite(t0))
    return arg_failed(it, COSROD_ERR_INVALID, t0, "%s: initial time t0 = %g is not finite", name, t0);
  const int n = it->problem->n;
  for (int i = 0; i < n; i++) {
    if (!isfinite(y0[i]))
      return arg_failed(it, COSROD_ERR_NONFINITE, t0, "%s: initial value y0[%d] = %g is not finite", name, i,
                        y0[i]);
    if (yp0 && !isfinite(yp0[i]))
      return arg_failed(it, COSROD_ERR_NONFINITE, t0, "%s: initial derivative yp0[%d] = %g is not finite",
                        name, i, yp0[i]);
    if (!(it->atol[i] + it->rtol[i] * fabs(y0[i]) > 0.0))
      return arg_failed(it, COSROD_ERR_INVALID, t0,
                        "%s: atol = 0 and y0[%d] = 0: the error weight atol + rtol |y0| of component %d is 0 "
                        "(give atol > 0)",
                        name, i, i);
  }
  memcpy(it->y, y0, sizeof(double) * (size_t)n);
  it->have_yp0 = yp0 != NULL;
  if (yp0) memcpy(it->yp0, yp0, sizeof(double) * (size_t)n);
  it->ctx.yp0 = yp0 ? it->yp0 : NULL;
  memset(&it->stats, 0, sizeof it->stats);
  cosrod_step_ctx *c = &it->ctx;
  c->t0 = t0;
  c->t = t0;
  c->t_old = t0;
  c->h_last = 0.0;
  c->h = it->opts.h0;
  c->first = 1;
  c->last = 0;
  c->y_modified = 0;
  c->nonfinite = 0;
  c->t_fail = t0;
  it->msg[0] = '\0';
  it->initialised = 1;
  it->last_status = COSROD_OK;
  return COSROD_OK;
}

/* Stored failure.  A message written by the method (cosrod_step_fail) is
 * kept together with its time (e.g. the time of the failing f call);
 * otherwise the driver's message and time are stored. */
static cosrod_status fail(cosrod_integrator *it, cosrod_status st, double t, const char *fallback) {
  if (it->msg[0] == '\0' || st == COSROD_ERR_STEP_TOO_SMALL || st == COSROD_ERR_MAX_STEPS)
    cosrod_step_fail(&it->ctx, st, t, "%s", fallback);
  it->last_status = st;
  return st;
}

/* Stop on the installed interrupt flag; the state stays at the last
 * accepted step. */
static cosrod_status interrupted(cosrod_integrator *it, double t) {
  if (!strstr(it->msg, "interrupted")) /* keep the method's message (e.g. "interrupted in the LU") */
    cosrod_step_fail(&it->ctx, COSROD_ERR_INTERRUPTED, t, "interrupted during the step from t = %.17g", t);
  it->last_status = COSROD_ERR_INTERRUPTED;
  return COSROD_ERR_INTERRUPTED;
}

static int emit(cosrod_integrator *it, const cosrod_output_spec *out, double t, const double *y,
                cosrod_status *st) {
  int rc = out->output(t, y, out->user);
  if (rc < 0) {
    cosrod_step_fail(&it->ctx, COSROD_ERR_CALLBACK, t, "output callback returned %d at t = %.17g", rc, t);
    *st = COSROD_ERR_CALLBACK;
    return 1;
  }
  if (rc > 0) {
    cosrod_step_fail(&it->ctx, COSROD_ERR_INTERRUPTED, t, "output callback asked to stop at t = %.17g", t);
    *st = COSROD_ERR_INTERRUPTED;
    return 1;
  }
  return 0;
}

/* The step limits before an attempt: max_steps (steps since the call, or
 * attempts) and a step too small to make progress; OK or the failure. */
static cosrod_status check_limits(cosrod_integrator *it, double t_end, long steps, long attempts) {
  cosrod_step_ctx *c = &it->ctx;
  char buf[200];
  if (steps >= it->opts.max_steps || attempts >= 4 * it->opts.max_steps + 100) {
    if (c->nonfinite) {
      snprintf(buf, sizeof buf, "non-finite values at t = %.17g (after %ld steps)", c->t, it->opts.max_steps);
      return fail(it, COSROD_ERR_NONFINITE, c->t, buf);
    }
    snprintf(buf, sizeof buf, "more than max_steps = %ld steps before t = %.17g (reached t = %.17g)",
             it->opts.max_steps, t_end, c->t);
    return fail(it, COSROD_ERR_MAX_STEPS, c->t, buf);
  }
  const double h = c->h;
  /* step too small: for |h| <= 10 u |t| the increment (t + h) - t the
   * method actually takes differs from h by up to u |t| / |h| >= 10 %,
   * more than the smallest step change the controllers make (README) */
  if (!isfinite(h) || 0.1 * fabs(h) <= fabs(c->t) * c->uround || h == 0.0) {
    if (c->nonfinite) {
      snprintf(buf, sizeof buf, "non-finite values near t = %.17g; step size reduced to %g without success",
               c->t, h);
      return fail(it, COSROD_ERR_NONFINITE, c->t, buf);
    }
    snprintf(buf, sizeof buf, "step size too small at t = %.17g: h = %g", c->t, h);
    return fail(it, COSROD_ERR_STEP_TOO_SMALL, c->t, buf);
  }
  return COSROD_OK;
}

/* One attempt of the method with c->h (capped by hmax, clipped to t_end):
 * OK with *accepted, or the failure (interruption, step history, method). */
static cosrod_status attempt(cosrod_integrator *it, double dir, const cosrod_output_spec *out,
                             long *attempts, int *accepted) {
  cosrod_step_ctx *c = &it->ctx;
  char buf[200];
  double h = c->h;
  if (fabs(h) > c->hmax) h = c->hmax;
  h = dir * fabs(h);
  c->last = 0;
  if (!(it->type->flags & COSROD_STEP_OWN_CLIP)) c->last = cosrod_step_to_end(c, c->clip_factor, &h);
  c->h = h;
  double t_try = c->t;
  *accepted = 0;
  it->msg[0] = '\0';
  if (cosrod_interrupt_pending()) /* installed flag (status.h), e.g. set by a signal handler */
    return interrupted(it, t_try);
  (*attempts)++;
  cosrod_status st = it->type->step(it->state, c, accepted);
  if (out->step_history) {
    int rc = out->step_history(t_try, h, *accepted, out->user);
    if (rc != 0 && st == COSROD_OK) {
      snprintf(buf, sizeof buf, "step-history callback returned %d at t = %.17g", rc, t_try);
      return fail(it, rc < 0 ? COSROD_ERR_CALLBACK : COSROD_ERR_INTERRUPTED, t_try, buf);
    }
  }
  if (st != COSROD_OK && cosrod_interrupt_pending()) {
    /* a long step stopped inside (LU, Jacobian): an interruption, not a
     * solver failure, whatever status the method derived from it */
    return interrupted(it, t_try);
  }
  if (st != COSROD_OK) {
    snprintf(buf, sizeof buf, "%s failed at t = %.17g (h = %g)", it->type->name, t_try, h);
    return fail(it, st, t_try, buf);
  }
  return COSROD_OK;
}

/* After an accepted step: the exact end time of a clipped last step, the
 * state's finiteness, the projection hook. */
static cosrod_status after_accept(cosrod_integrator *it, double t_end) {
  cosrod_step_ctx *c = &it->ctx;
  char buf[200];
  if (c->last && !(it->type->flags & COSROD_STEP_OWN_CLIP)) c->t = t_end;
  c->nonfinite = 0;
  for (int i = 0; i < c->n; i++) {
    if (!isfinite(c->y[i])) {
      /* cannot happen with a finite error norm, but guard the state */
      snprintf(buf, sizeof buf, "component %d of y is %g after the step to t = %.17g", i, c->y[i], c->t);
      return fail(it, COSROD_ERR_NONFINITE, c->t, buf);
    }
  }
  if (c->problem->project) {
    it->stats.nproject++;
    int rc = c->problem->project(c->t, c->y, c->problem->user);
    c->y_modified = rc == COSROD_PROJECT_NEW_COORDINATES ? 2 : 1;
    if (rc != 0 && rc != COSROD_PROJECT_NEW_COORDINATES) {
      snprintf(buf, sizeof buf, "projection hook returned %d at t = %.17g", rc, c->t);
      return fail(it, COSROD_ERR_CALLBACK, c->t, buf);
    }
  }
  return COSROD_OK;
}

/* The outputs passed by the accepted step (dense output between steps),
 * the next one's index *k; 1 to stop with *st. */
static int step_outputs(cosrod_integrator *it, const cosrod_output_spec *out, double dir, size_t *k,
                        cosrod_status *st) {
  cosrod_step_ctx *c = &it->ctx;
  char buf[200];
  while (*k < out->n_out && (out->t_out[*k] - c->t) * dir <= 0.0) {
    double to = out->t_out[(*k)++];
    const double *yo = c->y;
    if (to != c->t) {
      *st = it->type->dense(it->state, c, to, NULL, c->n, it->yout);
      if (*st != COSROD_OK) {
        snprintf(buf, sizeof buf, "dense output failed at t = %.17g", to);
        *st = fail(it, *st, to, buf);
        return 1;
      }
      yo = it->yout;
    }
    if (emit(it, out, to, yo, st)) return 1;
  }
  return out->every_step && emit(it, out, c->t, c->y, st);
}

/* Start of an evolve towards t_end: direction, hmax; the method's reset
 * (and the output at t0) on the first call or after a reversal.  OK, or
 * the failure; *stop = 1 if an output callback stopped. */
static cosrod_status start(cosrod_integrator *it, double t_end, const cosrod_output_spec *out, double wall0,
                           int *stop) {
  cosrod_step_ctx *c = &it->ctx;
  cosrod_status st = COSROD_OK;
  double dir = t_end > c->t ? 1.0 : -1.0;
  if (!c->first && dir != c->dir) {
    /* reversing direction restarts the method */
    c->first = 1;
    c->h = it->opts.h0;
  }
  c->dir = dir;
  c->t_end = t_end;
  c->hmax = it->opts.hmax > 0.0 ? it->opts.hmax : fabs(t_end - c->t);
  if (c->first) {
    c->t0 = c->t;
    if (c->h != 0.0) c->h = dir * fabs(c->h);
    st = it->type->reset(it->state, c);
    if (st != COSROD_OK) {
      it->stats.wall_time += wall_now() - wall0;
      *stop = 2; /* return at once: wall time counted */
      /* stopped in f(t0) or J(t0) */
      if (cosrod_interrupt_pending()) return interrupted(it, c->t);
      return fail(it, st, c->t, "method reset failed");
    }
    c->first = 0;
    c->t_old = c->t;
    if (out->output && out->include_t0 && emit(it, out, c->t, c->y, &st)) *stop = 1;
  }
  return st;
}

cosrod_status cosrod_integrator_evolve(cosrod_integrator *it, double t_end, const cosrod_output_spec *out) {
  if (!it) return COSROD_ERR_INVALID;
  if (!it->initialised)
    return arg_failed(it, COSROD_ERR_INVALID, it->ctx.t, "%s: evolve called before init", it->type->name);
  if (!isfinite(t_end))
    return arg_failed(it, COSROD_ERR_INVALID, it->ctx.t, "%s: end time t_end = %g is not finite",
                      it->type->name, t_end);
  static const cosrod_output_spec none = {0};
  if (!out) out = &none;
  cosrod_step_ctx *c = &it->ctx;
  double wall0 = wall_now();
  cosrod_status st = COSROD_OK;
  it->msg[0] = '\0';

  if (t_end == c->t) goto finish_outputs_at_start;
  int stop = 0;
  st = start(it, t_end, out, wall0, &stop);
  if (stop == 2) return st;
  if (stop) goto done;
  const double dir = c->dir;
  {
    size_t k = 0; /* next output time */
    while (k < out->n_out && (out->t_out[k] - c->t) * dir <= 0.0) k++;
    long steps_at_start = it->stats.nsteps;
    long attempts = 0;
    while ((c->t - t_end) * dir < 0.0) {
      st = check_limits(it, t_end, it->stats.nsteps - steps_at_start, attempts);
      int accepted = 0;
      if (st == COSROD_OK) st = attempt(it, dir, out, &attempts, &accepted);
      if (st != COSROD_OK) goto done;
      if (!accepted) continue;
      st = after_accept(it, t_end);
      if (st != COSROD_OK) goto done;
      if (out->output && step_outputs(it, out, dir, &k, &st)) goto done;
    }
  }
  goto done;

finish_outputs_at_start:
  if (out->output) {
    int want = out->include_t0 && c->first;
    for (size_t k = 0; k < out->n_out; k++)
      if (out->t_out[k] == c->t) want = 1;
    if (want) emit(it, out, c->t, c->y, &st);
  }

done:
  it->stats.wall_time += wall_now() - wall0;
  if (st != COSROD_OK)
    it->last_status = st;
  else
    it->last_status = COSROD_OK;
  return st;
}

cosrod_status cosrod_integrate(cosrod_integrator *it, double t0, const double *y0, double t_end,
                               const cosrod_output_spec *out, double *y_end) {
  cosrod_status st = cosrod_integrator_init(it, t0, y0, NULL);
  if (st != COSROD_OK) return st;
  st = cosrod_integrator_evolve(it, t_end, out);
  if (y_end) memcpy(y_end, it->y, sizeof(double) * (size_t)it->problem->n);
  return st;
}

cosrod_status cosrod_integrator_set_step(cosrod_integrator *it, double h) {
  if (!it || !isfinite(h)) return COSROD_ERR_INVALID;
  it->ctx.h = h;
  return COSROD_OK;
}

double cosrod_integrator_t(const cosrod_integrator *it) { return it->ctx.t; }
const double *cosrod_integrator_y(const cosrod_integrator *it) { return it->y; }
double cosrod_integrator_h(const cosrod_integrator *it) { return it->ctx.h; }
const cosrod_integrate_stats *cosrod_integrator_stats(const cosrod_integrator *it) { return &it->stats; }
const char *cosrod_integrator_message(const cosrod_integrator *it) { return it->msg; }
double cosrod_integrator_fail_time(const cosrod_integrator *it) { return it->ctx.t_fail; }
cosrod_status cosrod_integrator_status(const cosrod_integrator *it) { return it->last_status; }
const cosrod_step_type *cosrod_integrator_type(const cosrod_integrator *it) { return it->type; }

cosrod_status cosrod_integrator_dense(cosrod_integrator *it, double t, const int *idx, int nidx,
                                      double *out) {
  cosrod_step_ctx *c = &it->ctx;
  if (c->first || c->h_last == 0.0)
    return arg_failed(it, COSROD_ERR_INVALID, t, "%s: dense output at t = %.17g before the first step",
                      it->type->name, t);
  double lo = fmin(c->t_old, c->t), hi = fmax(c->t_old, c->t);
  if (!(t >= lo && t <= hi))
    return arg_failed(it, COSROD_ERR_INVALID, t,
                      "%s: dense output at t = %.17g outside the last step [%.17g, %.17g]", it->type->name, t,
                      lo, hi);
  return it->type->dense(it->state, c, t, idx, nidx, out);
}
