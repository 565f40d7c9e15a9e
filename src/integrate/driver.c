/* The integration driver (the "evolve" layer of GSL's odeiv2): owns the loop
 * from t to t_end around a method's single-step function.
 *
 * Per attempted step, in the order of Hairer's codes: max_steps check, tiny
 * step check (0.1|h| <= |t| u), |h| <= hmax, clipping to t_end when
 * (t + 1.01 h - t_end) dir > 0, then the method's step (which decides
 * accept/reject and the next h).  After an accepted step: NaN/Inf check of y,
 * the projection hook, output at the requested times in (t_old, t] by the
 * method's dense output, and the every-step output.  On failure the state of
 * the last accepted step is kept and a message with the time is stored. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/integrate.h"

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

cosrod_integrator *cosrod_integrator_create(const cosrod_step_type *type, const cosrod_ode_problem *problem,
                                            const cosrod_integrate_options *opts, cosrod_status *status) {
  set_status(status, COSROD_ERR_INVALID);
  if (!type || !problem || problem->n < 1) return NULL;
  if (!problem->f && !(problem->res && (type->flags & COSROD_STEP_RESIDUAL))) return NULL;
  cosrod_integrate_options o = opts ? *opts : cosrod_integrate_default_options();
  if (o.max_steps <= 0) o.max_steps = 100000;
  if (!(o.hmax >= 0.0) || !isfinite(o.h0)) return NULL;
  const int n = problem->n;
  if (problem->m1 < 0 || problem->m2 < 0 || problem->m1 >= n) return NULL;
  if (problem->m1 > 0) {
    int m2 = problem->m2 > 0 ? problem->m2 : problem->m1;
    if (problem->m1 % m2 != 0 || problem->m1 + m2 > n) return NULL;
  }
  if (problem->nind1 < 0 || problem->nind2 < 0 || problem->nind3 < 0) return NULL;
  if ((problem->nind1 || problem->nind2 || problem->nind3) &&
      problem->nind1 + problem->nind2 + problem->nind3 != n)
    return NULL;
  if (problem->jac_banded && (problem->jac_ml < 0 || problem->jac_mu < 0)) return NULL;
  for (int i = 0; i < n && (o.rtol_vec || o.atol_vec); i++) {
    if (o.rtol_vec && !(o.rtol_vec[i] >= 0.0)) return NULL;
    if (o.atol_vec && !(o.atol_vec[i] >= 0.0)) return NULL;
  }
  if (!o.rtol_vec && !(o.rtol >= 0.0)) return NULL;
  if (!o.atol_vec && !(o.atol >= 0.0)) return NULL;

  set_status(status, COSROD_ERR_UNSUPPORTED);
  if (problem->mass && !(type->flags & COSROD_STEP_MASS)) return NULL;
  if ((problem->nind2 || problem->nind3) && !(type->flags & COSROD_STEP_DAE_INDEX23)) return NULL;
  if (problem->project && !(type->flags & COSROD_STEP_PROJECTION)) return NULL;
  /* an implicit method must understand the Jacobian layout it is given */
  if ((type->flags & COSROD_STEP_IMPLICIT) && problem->m1 > 0 && !(type->flags & COSROD_STEP_SECOND_ORDER))
    return NULL;
  if ((type->flags & COSROD_STEP_IMPLICIT) && problem->jac_banded && !(type->flags & COSROD_STEP_BANDED))
    return NULL;

  set_status(status, COSROD_ERR_NOMEM);
  cosrod_integrator *it = calloc(1, sizeof *it);
  if (!it) return NULL;
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
    return NULL;
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
  c->clip_factor = 1.01;
  c->msg = it->msg;
  c->msg_size = MSG_SIZE;
  c->first = 1;
  it->msg[0] = '\0';

  cosrod_status st = type->alloc(&it->state, c);
  if (st != COSROD_OK) {
    it->state = NULL;
    cosrod_integrator_free(it);
    set_status(status, st);
    return NULL;
  }
  it->last_status = COSROD_OK;
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

cosrod_status cosrod_integrator_init(cosrod_integrator *it, double t0, const double *y0, const double *yp0) {
  if (!it || !y0 || !isfinite(t0)) return COSROD_ERR_INVALID;
  const int n = it->problem->n;
  for (int i = 0; i < n; i++)
    if (!isfinite(y0[i])) return COSROD_ERR_NONFINITE;
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

cosrod_status cosrod_integrator_evolve(cosrod_integrator *it, double t_end, const cosrod_output_spec *out) {
  if (!it || !it->initialised || !isfinite(t_end)) return COSROD_ERR_INVALID;
  static const cosrod_output_spec none = {0};
  if (!out) out = &none;
  cosrod_step_ctx *c = &it->ctx;
  const int n = c->n;
  double wall0 = wall_now();
  cosrod_status st = COSROD_OK;
  char buf[200];
  it->msg[0] = '\0';

  if (t_end == c->t) goto finish_outputs_at_start;
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
      return fail(it, st, c->t, "method reset failed");
    }
    c->first = 0;
    c->t_old = c->t;
    if (out->output && out->include_t0 && emit(it, out, c->t, c->y, &st)) goto done;
  }

  {
    size_t k = 0; /* next output time */
    while (k < out->n_out && (out->t_out[k] - c->t) * dir <= 0.0) k++;
    long steps_at_start = it->stats.nsteps;
    long attempts = 0;
    while ((c->t - t_end) * dir < 0.0) {
      if (it->stats.nsteps - steps_at_start >= it->opts.max_steps ||
          attempts >= 4 * it->opts.max_steps + 100) {
        if (c->nonfinite) {
          snprintf(buf, sizeof buf, "non-finite values at t = %.17g (after %ld steps)", c->t,
                   it->opts.max_steps);
          st = fail(it, COSROD_ERR_NONFINITE, c->t, buf);
        } else {
          snprintf(buf, sizeof buf, "more than max_steps = %ld steps before t = %.17g (reached t = %.17g)",
                   it->opts.max_steps, t_end, c->t);
          st = fail(it, COSROD_ERR_MAX_STEPS, c->t, buf);
        }
        goto done;
      }
      double h = c->h;
      if (!isfinite(h) || 0.1 * fabs(h) <= fabs(c->t) * c->uround || h == 0.0) {
        if (c->nonfinite) {
          snprintf(buf, sizeof buf,
                   "non-finite values near t = %.17g; step size reduced to %g without success", c->t, h);
          st = fail(it, COSROD_ERR_NONFINITE, c->t, buf);
        } else {
          snprintf(buf, sizeof buf, "step size too small at t = %.17g: h = %g", c->t, h);
          st = fail(it, COSROD_ERR_STEP_TOO_SMALL, c->t, buf);
        }
        goto done;
      }
      if (fabs(h) > c->hmax) h = c->hmax;
      h = dir * fabs(h);
      c->last = 0;
      if (!(it->type->flags & COSROD_STEP_OWN_CLIP) && (c->t + c->clip_factor * h - t_end) * dir > 0.0) {
        h = t_end - c->t;
        c->last = 1;
      }
      c->h = h;
      double t_try = c->t;
      int accepted = 0;
      it->msg[0] = '\0';
      attempts++;
      st = it->type->step(it->state, c, &accepted);
      if (out->step_history) {
        int rc = out->step_history(t_try, h, accepted, out->user);
        if (rc != 0 && st == COSROD_OK) {
          snprintf(buf, sizeof buf, "step-history callback returned %d at t = %.17g", rc, t_try);
          st = fail(it, rc < 0 ? COSROD_ERR_CALLBACK : COSROD_ERR_INTERRUPTED, t_try, buf);
          goto done;
        }
      }
      if (st != COSROD_OK) {
        snprintf(buf, sizeof buf, "%s failed at t = %.17g (h = %g)", it->type->name, t_try, h);
        st = fail(it, st, t_try, buf);
        goto done;
      }
      if (!accepted) continue;
      if (c->last && !(it->type->flags & COSROD_STEP_OWN_CLIP)) c->t = t_end;
      c->nonfinite = 0;
      for (int i = 0; i < n; i++) {
        if (!isfinite(c->y[i])) {
          /* cannot happen with a finite error norm, but guard the state */
          snprintf(buf, sizeof buf, "component %d of y is %g after the step to t = %.17g", i, c->y[i], c->t);
          st = fail(it, COSROD_ERR_NONFINITE, c->t, buf);
          goto done;
        }
      }
      if (c->problem->project) {
        it->stats.nproject++;
        int rc = c->problem->project(c->t, c->y, c->problem->user);
        c->y_modified = 1;
        if (rc != 0) {
          snprintf(buf, sizeof buf, "projection hook returned %d at t = %.17g", rc, c->t);
          st = fail(it, COSROD_ERR_CALLBACK, c->t, buf);
          goto done;
        }
      }
      if (out->output) {
        while (k < out->n_out && (out->t_out[k] - c->t) * dir <= 0.0) {
          double to = out->t_out[k++];
          const double *yo = c->y;
          if (to != c->t) {
            st = it->type->dense(it->state, c, to, NULL, n, it->yout);
            if (st != COSROD_OK) {
              snprintf(buf, sizeof buf, "dense output failed at t = %.17g", to);
              st = fail(it, st, to, buf);
              goto done;
            }
            yo = it->yout;
          }
          if (emit(it, out, to, yo, &st)) goto done;
        }
        if (out->every_step && emit(it, out, c->t, c->y, &st)) goto done;
      }
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
  if (c->first || c->h_last == 0.0) return COSROD_ERR_INVALID;
  double lo = fmin(c->t_old, c->t), hi = fmax(c->t_old, c->t);
  if (t < lo || t > hi) return COSROD_ERR_INVALID;
  return it->type->dense(it->state, c, t, idx, nidx, out);
}
