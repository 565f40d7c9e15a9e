// SPDX-License-Identifier: Apache-2.0
/* SUNDIALS adapters: the callbacks IDA and CVODE call (user data = sun_state)
 * and the matrix glue between our banded / dense Jacobian layouts and
 * SUNDIALS' matrices (sundials_band.c for ours).  Design and conventions in
 * sundials.c; callbacks return 0 ok, > 0 recoverable, < 0 fatal. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "integrate/sundials_band.h"
#include "integrate/sundials_internal.h"

/* ---------------------------------------------------------------- helpers */

/* Callback return code bookkeeping: remember fatal failures (message already
 * written to ctx->msg by the caller), count recoverable ones. */
static int cb_result(sun_state *s, int rc, double t) {
  if (rc < 0) {
    s->cb_fatal = 1;
    s->t_cb_fatal = t;
    return -1;
  }
  return rc > 0 ? 1 : 0;
}

/* Pointer and leading dimension to pass to a user callback that fills the
 * whole n x n matrix A in our layout (banded with upper bandwidth mu). */
static double *user_view(SUNMatrix A, int banded, int mu, int *ld) {
  if (sunband_is(A)) {
    cosrod_band *B = sunband_band(A);
    *ld = B->ld;
    return B->data + (B->smu - mu);
  }
  if (banded) {
    *ld = (int)SUNBandMatrix_LDim(A);
    return SUNBandMatrix_Data(A) + (SUNBandMatrix_StoredUpperBandwidth(A) - mu);
  }
  *ld = (int)SUNDenseMatrix_Rows(A);
  return SUNDenseMatrix_Data(A);
}

/* A(i, j) += v through the accessors (the entry must lie inside the band). */
static void mat_add(SUNMatrix A, int banded, int i, int j, double v) {
  if (sunband_is(A))
    cosrod_band_add(sunband_band(A), i, j, v);
  else if (banded)
    SUNBandMatrix_Column(A, j)[i - j] += v;
  else
    SUNDenseMatrix_Column(A, j)[i] += v;
}

static void mat_negate(SUNMatrix A, int banded) {
  if (sunband_is(A)) {
    cosrod_band_scale_add_identity(sunband_band(A), -1.0, 0.0);
    return;
  }
  sunindextype len = banded ? SUNBandMatrix_LDim(A) * SUNBandMatrix_Columns(A) : SUNDenseMatrix_LData(A);
  double *d = banded ? SUNBandMatrix_Data(A) : SUNDenseMatrix_Data(A);
  for (sunindextype k = 0; k < len; k++) d[k] = -d[k];
}

/* Expand the reduced Jacobian of a second-order problem (m1 > 0) into the
 * dense n x n matrix A (zeroed): rows i < m1 hold the identity at column
 * i + m2, rows m1 + i the supplied rows. */
static void expand_reduced(const sun_state *s, SUNMatrix A) {
  const cosrod_ode_problem *p = s->ctx->problem;
  const int n = s->n, m1 = p->m1, m2 = p->m2 > 0 ? p->m2 : p->m1, nr = n - m1;
  for (int i = 0; i < m1; i++) SUNDenseMatrix_Column(A, i + m2)[i] = 1.0;
  for (int j = 0; j < n; j++) {
    double *col = SUNDenseMatrix_Column(A, j);
    const double *src = s->jred + (size_t)j * (size_t)s->ldred;
    if (!p->jac_banded) {
      for (int i = 0; i < nr; i++) col[m1 + i] = src[i];
      continue;
    }
    int c = j < m1 ? j % m2 : j - m1;
    int mu = j < m1 ? p->jac_mu_q : p->jac_mu, ml = j < m1 ? p->jac_ml_q : p->jac_ml;
    int lo = c - mu > 0 ? c - mu : 0, hi = c + ml < nr - 1 ? c + ml : nr - 1;
    for (int i = lo; i <= hi; i++) col[m1 + i] = src[mu + i - c];
  }
}

/* As check_jac_finite for our band matrix B: the band rows only (the
 * fill-in rows belong to the LU). */
static int check_band_finite(sun_state *s, const cosrod_band *B, double t) {
  for (int j = 0; j < s->n; j++) {
    const double *col = B->data + (size_t)j * (size_t)B->ld + B->ml;
    /* exponent field all ones (NaN, Inf): adding 1 to it carries into the sign bit */
    uint64_t bad = 0;
    for (int r = 0; r <= B->ml + B->mu; r++) {
      uint64_t u;
      memcpy(&u, col + r, sizeof u);
      bad |= (u & 0x7FF0000000000000u) + 0x0010000000000000u;
    }
    if (!(bad & 0x8000000000000000u)) continue;
    for (int r = 0; r <= B->ml + B->mu; r++) {
      if (isfinite(col[r])) continue;
      long k = (long)j * B->ld + B->ml + r;
      s->ctx->nonfinite = 1;
      s->jac_nonfinite = 1;
      cosrod_step_fail(s->ctx, COSROD_ERR_NONFINITE, t,
                       "%s: Jacobian entry %ld of the band matrix is %g at t = %.17g", s->name, k, col[r], t);
      return -1;
    }
  }
  return 0;
}

/* NaN/Inf in the Jacobian the user wrote into A: message, and -1 (fatal:
 * a smaller step evaluates the same J); 0 if all entries are finite. */
static int check_jac_finite(sun_state *s, SUNMatrix A, double t) {
  const double *d;
  long len;
  if (s->own) return check_band_finite(s, sunband_band(A), t);
  if (s->banded) {
    d = SUNBandMatrix_Data(A);
    len = (long)SUNBandMatrix_LDim(A) * (long)s->n;
  } else {
    d = SUNDenseMatrix_Data(A);
    len = (long)SUNDenseMatrix_Rows(A) * (long)SUNDenseMatrix_Columns(A);
  }
  for (long k = 0; k < len; k++) {
    if (!isfinite(d[k])) {
      s->ctx->nonfinite = 1;
      s->jac_nonfinite = 1;
      cosrod_step_fail(s->ctx, COSROD_ERR_NONFINITE, t,
                       "%s: Jacobian entry %ld of the %s matrix is %g at t = %.17g", s->name, k,
                       s->banded ? "band" : "dense", d[k], t);
      return -1;
    }
  }
  return 0;
}

/* A <- df/dy at (t, y) from the problem's Jacobian callback. */
static int fill_jac_f(sun_state *s, double t, const double *y, SUNMatrix A) {
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  int rc;
  if (sunband_is(A))
    sunband_begin_fill(A, s->covers);
  else
    SUNMatZero(A);
  if (s->reduced) {
    memset(s->jred, 0, sizeof(double) * (size_t)s->ldred * (size_t)s->n);
    rc = p->jac(t, y, s->jred, s->ldred, p->user);
    if (rc == 0) expand_reduced(s, A);
  } else {
    int ld;
    double *J = user_view(A, s->banded, p->jac_mu, &ld);
    rc = p->jac(t, y, J, ld, p->user);
  }
  if (rc < 0)
    cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "Jacobian callback returned %d (fatal) at t = %.17g", rc, t);
  if (rc > 0) c->stats->nfail_rhs++;
  if (rc == 0) return check_jac_finite(s, A, t);
  return cb_result(s, rc, t);
}

/* ---------------------------------------------------------------- callbacks */

int sun_ida_res(sunrealtype t, N_Vector yy, N_Vector ypv, N_Vector rr, void *ud) {
  sun_state *s = ud;
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  const double *y = nv(yy), *yp = nv(ypv);
  double *r = nv(rr);
  const int n = s->n;
  if (s->residual) {
    c->stats->nfev++;
    int rc = p->res(t, y, yp, r, p->user);
    if (rc < 0)
      cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "residual returned %d (fatal) at t = %.17g", rc, t);
    if (rc > 0) c->stats->nfail_rhs++;
    if (rc != 0) return cb_result(s, rc, t);
    for (int i = 0; i < n; i++) {
      if (!isfinite(r[i])) {
        c->nonfinite = 1;
        c->stats->nfail_rhs++;
        cosrod_step_fail(c, COSROD_ERR_NONFINITE, t, "residual component %d is %g at t = %.17g", i, r[i], t);
        return 1;
      }
    }
    return 0;
  }
  int rc = cosrod_step_call_f(c, t, y, r);
  if (rc != 0) return cb_result(s, rc, t);
  if (!s->mass) {
    for (int i = 0; i < n; i++) r[i] = yp[i] - r[i];
  } else {
    for (int i = 0; i < n; i++) r[i] = -r[i];
    for (int k = 0; k < s->nmass; k++) r[s->mass[k].i] += s->mass[k].v * yp[s->mass[k].j];
  }
  return 0;
}

int sun_ida_jac(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector ypv, N_Vector rr, SUNMatrix A, void *ud,
                N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)rr, (void)t1, (void)t2, (void)t3;
  sun_state *s = ud;
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  if (s->residual) {
    if (s->own)
      sunband_begin_fill(A, s->covers); /* IDA's SUNMatZero was lazy */
    else
      SUNMatZero(A);
    int ld;
    double *J = user_view(A, s->banded, p->jac_mu, &ld);
    int rc = p->res_jac(t, cj, nv(yy), nv(ypv), J, ld, p->user);
    if (rc < 0)
      cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "residual Jacobian returned %d (fatal) at t = %.17g", rc,
                       t);
    if (rc > 0) c->stats->nfail_rhs++;
    if (rc == 0) return check_jac_finite(s, A, t);
    return cb_result(s, rc, t);
  }
  int rc = fill_jac_f(s, t, nv(yy), A);
  if (rc != 0) return rc;
  if (s->own && !s->mass) { /* cj I - df/dy in one pass */
    cosrod_band_scale_add_identity(sunband_band(A), -1.0, cj);
    return 0;
  }
  mat_negate(A, s->banded); /* -df/dy */
  if (!s->mass) {
    for (int i = 0; i < s->n; i++) mat_add(A, s->banded, i, i, cj);
  } else {
    for (int k = 0; k < s->nmass; k++) mat_add(A, s->banded, s->mass[k].i, s->mass[k].j, cj * s->mass[k].v);
  }
  return 0;
}

int sun_cv_rhs(sunrealtype t, N_Vector yy, N_Vector ydot, void *ud) {
  sun_state *s = ud;
  return cb_result(s, cosrod_step_call_f(s->ctx, t, nv(yy), nv(ydot)), t);
}

int sun_cv_jac(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, void *ud, N_Vector t1, N_Vector t2,
               N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  return fill_jac_f(ud, t, nv(yy), A);
}

/* CVODE's iteration matrix A = I - gamma df/dy with our band matrix (own):
 * df/dy is evaluated into jsave only when CVODE says the saved one is stale
 * (jok false), then combined with the identity in one pass; the LU follows in
 * our linear solver's setup.  (CVODE's default would zero A, evaluate into it,
 * copy it to a saved matrix and scale it, and copy back when reusing.) */
int sun_cv_linsys(sunrealtype t, N_Vector yy, N_Vector fy, SUNMatrix A, sunbooleantype jok,
                  sunbooleantype *jcur, sunrealtype gamma, void *ud, N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  sun_state *s = ud;
  cosrod_step_ctx *c = s->ctx;
  const cosrod_ode_problem *p = c->problem;
  cosrod_band *J = s->jsave;
  *jcur = SUNFALSE;
  if (!jok || !s->jsave_ok) {
    s->jsave_ok = 0;
    if (!s->covers) cosrod_band_zero(J);
    int rc = p->jac(t, nv(yy), J->data + (J->smu - p->jac_mu), J->ld, p->user);
    if (rc < 0)
      cosrod_step_fail(c, COSROD_ERR_CALLBACK, t, "Jacobian callback returned %d (fatal) at t = %.17g", rc,
                       t);
    if (rc > 0) c->stats->nfail_rhs++;
    if (rc != 0) return cb_result(s, rc, t);
    if (check_band_finite(s, J, t) != 0) return -1;
    s->jsave_ok = 1;
    *jcur = SUNTRUE;
  }
  cosrod_band_set_combination(sunband_begin_fill(A, 1), -gamma, J, 1.0, NULL);
  return 0;
}

/* Error weights 1 / (rtol_i |y_i| + atol_i) for per-component rtol (both solvers). */
int sun_ewt(N_Vector yy, N_Vector ewt, void *ud) {
  sun_state *s = ud;
  const double *y = nv(yy);
  double *w = nv(ewt);
  for (int i = 0; i < s->n; i++) {
    double d = s->ctx->rtol[i] * fabs(y[i]) + s->ctx->atol[i];
    if (!(d > 0.0)) return -1;
    w[i] = 1.0 / d;
  }
  return 0;
}
