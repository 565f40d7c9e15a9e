/* SEULEX: extrapolated linearly implicit Euler method with variable order
 * and step size, written from Hairer & Wanner, Solving ODEs II, §IV.9
 * ("Extrapolation of the linearly implicit Euler method", order and step
 * size control, dense output) and HNW I §II.9 (the extrapolation step-size
 * strategy it adapts), for M y' = f(t, y) with a constant, possibly singular
 * mass matrix (index-1 DAEs, HW II §VI.5).
 *
 * One basic step of size H from (t0, y0) builds the extrapolation tableau
 * column by column.  Row j uses n_j substeps of h_j = H/n_j (HW II (9.3)):
 *     (M/h_j − J) Δ_i = f(t_i, y_i),   y_{i+1} = y_i + Δ_i,   T_{j1} = y_{n_j},
 * with one Jacobian J ≈ ∂f/∂y(t0, y0) for the whole step and the step-number
 * sequence n = 2, 3, 4, 6, 8, 12, 16, ... (HW II (9.8)).  For a problem with
 * explicit time dependence f is taken at the end of each substep, t_i =
 * t0 + (i+1) h_j, so stiff components follow the forcing.  The global error of
 * the Euler method has an expansion in powers of h (not h²), hence the
 * Aitken–Neville scheme (HW II (9.5), HNW I (9.10) with the exponent 1)
 *     T_{j,l+1} = T_{jl} + (T_{jl} − T_{j−1,l}) / (n_j/n_{j−l} − 1),
 * T_{jj} of order j.  Local error estimate of column j: err_j = ||T_{jj} −
 * T_{j,j−1}|| (RMS norm, weights atol + rtol |y0|).
 *
 * Step size for column j (HNW I (9.25)–(9.26) with the order j of T_{j,j−1}):
 *     H_j = H · clamp(0.93 (0.6/err_j)^(1/j), 0.1^(1/j)/4, 0.1^(−1/j)),
 * work per unit step W_j = A_j / H_j (HNW I (9.27)) with the cost A_j of
 * building rows 1..j, HW II §IV.9 "order and step size control":
 *     A_1 = c_jac + n_1 (c_f + c_sol) + c_dec,
 *     A_j = A_{j−1} + (n_j − 1)(c_f + c_sol) + c_dec,
 * c_f = 1, c_jac = 5, c_dec = 1, c_sol = 1.  With target column k the
 * convergence monitor (HNW I §II.9 "convergence in the line k") builds rows up
 * to k − 1, accepts there if err ≤ 1 or rejects if the error is beyond hope
 * (err_{k−1} > 4 n_{k+1} n_k), then tries row k, then row k + 1 (err_k > 2
 * n_{k+1}: reject).  The next target column minimises the work per unit step:
 * decrease if W_{k−1} < 0.7 W_k, increase if W_k < 0.9 W_{k−1} (HNW I
 * (9.28)–(9.29)); an increase predicts H_{k+1} = H_k A_{k+1}/A_k.  After a
 * rejection within a step the order is not raised and H not enlarged.  The
 * first step and the step that reaches t_end accept at the first column
 * j > 1 with err_j ≤ 1.  Initial target ⌊−0.6 log10(rtol + atol) + 1.5⌋,
 * kept in [2, max_columns − 2]; initial H = 1e-6.
 *
 * Stability (HW II §IV.9 "stability check"): in rows 1 and 2 the first substep
 * is followed by one simplified Newton correction of implicit Euler,
 *     (M/h_j − J) δ = f(t1, y_1) − M Δ_0/h_j,   θ = ||δ|| / max(1, ||Δ_0||);
 * θ > 1 (the linearised step does not represent the implicit one) halves H.
 * θ also decides whether J is re-evaluated at the next step (θ > THET =
 * min(1e-4, rtol) or opts.jac_reuse); after any failure J is refreshed at the
 * current point unless it was evaluated there.  An error growing between
 * columns j > 2 also halves H.  Those failures are counted in nconvfail,
 * error-test rejections in nreject.
 *
 * Dense output (HW II §IV.9 "dense output", after Hairer & Ostermann 1990):
 * the k-th backward difference of the last substeps of row r approximates
 * h_r^k y^(k)(t1); the scaled derivatives d_k = H^k y^(k)(t1)/k! are
 * extrapolated over the rows r ≥ k like the solution, and the Hermite
 * polynomial in s = θ − 1
 *     P(s) = y1 + Σ_{k=1}^{c} d_k s^k,    d_c fixed by P(−1) = y0,
 * (c the column of the accepted value) interpolates y0, y1 and the c − 1
 * derivatives at t1.  Built lazily at the
 * first dense request after a step; no f evaluations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/lsys.h"

enum { SEULEX_COLUMN_LIMIT = 32 };

/* Cost weights of HW II §IV.9: f, Jacobian, decomposition, solve. */
#define COST_F 1.0
#define COST_JAC 5.0
#define COST_DEC 1.0
#define COST_SOL 1.0

/* Outcome of building one tableau row. */
typedef enum { ROW_OK = 0, ROW_HALVE, ROW_SINGULAR, ROW_FATAL } row_outcome;

/* Outcome of one basic step. */
typedef enum { STEP_ACCEPT, STEP_REJECT, STEP_HALVE, STEP_SINGULAR, STEP_FATAL } step_outcome;

typedef struct seulex_state {
  int n;
  int columns; /* at most this many columns (max_columns) */
  cosrod_lsys *L;
  /* per column j = 1 .. columns + 1 (index 0 unused) */
  int substeps[SEULEX_COLUMN_LIMIT + 2];       /* n_j */
  double row_cost[SEULEX_COLUMN_LIMIT + 2];    /* A_j */
  double column_step[SEULEX_COLUMN_LIMIT + 2]; /* H_j proposed by column j */
  double unit_work[SEULEX_COLUMN_LIMIT + 2];   /* W_j = A_j / H_j */
  double *tableau;   /* (columns x n) tab_row j: T_{j1} when built; after extrapolate_row row 1 holds
                        T_jj and row 2 T_{j,j−1} */
  double *f_start;   /* (n) f(t0, y0) */
  double *y_sub;     /* (n) substep value y_i */
  double *increment; /* (n) Δ_i */
  double *f_sub;     /* (n) f at a substep */
  double *newton;    /* (n) δ of the stability check */
  double *weight;    /* (n) atol + rtol |y0| */
  double *y_start;   /* (n) y0 of the last accepted step */
  double *last_incr; /* (columns(columns+1)/2 x n): row r keeps its last r increments */
  double *derivs;    /* (columns x n) d_1 .. d_c of the dense output */
  double *deriv_tab; /* (columns x n) extrapolation tableau of one derivative */
  /* control parameters (HW II §IV.9) */
  double jac_threshold;    /* new J when θ exceeds this: min(1e-4, rtol) or opts.jac_reuse */
  double step_limit_base;  /* 0.1: H_j / H <= 0.1^(-1/j) */
  double step_limit_ratio; /* 4: H_j / H >= 0.1^(1/j) / 4 */
  double err_target;       /* 0.6: error aimed at by H_j */
  double safety;           /* 0.93 (opts.safety) */
  double fac_down, fac_up; /* 0.7, 0.9: order decrease / increase thresholds on W */
  /* control state */
  int target;           /* target column k */
  double err;           /* error of the last column built */
  double err_bound;     /* a later column must have a smaller error than this */
  double contraction;   /* θ of the last stability check */
  int rejected_in_step; /* a failure happened since the last accepted step */
  int jac_here;         /* J was evaluated at the current (t0, y0) */
  int f_start_ok;       /* f_start belongs to (t0, y0) */
  int singular_run;     /* consecutive attempts ended by a singular matrix */
  long attempts;        /* attempted steps since reset */
  /* dense output */
  int accepted_column; /* column of the last accepted value */
  int dense_ready;
  double t_prev, h_prev;
} seulex_state;

/* n_1 = 2, n_2 = 3, n_j = 2 n_{j−2} (HW II (9.8)). */
static int step_number(int j) { return j == 1 ? 2 : j == 2 ? 3 : 2 * step_number(j - 2); }

static double *tab_row(const seulex_state *s, double *base, int j) {
  return base + (size_t)(j - 1) * (size_t)s->n;
}

/* Storage of the last r increments of row r (r = 1 .. columns). */
static double *kept_increments(const seulex_state *s, int r) {
  return s->last_incr + (size_t)(r * (r - 1) / 2) * (size_t)s->n;
}

static void seulex_free(void *state) {
  seulex_state *s = state;
  if (!s) return;
  cosrod_lsys_free(s->L);
  free(s->tableau);
  free(s->f_start);
  free(s->last_incr);
  free(s);
}

/* Cumulative cost A_j of rows 1..j (HW II §IV.9). */
static void work_per_row(seulex_state *s) {
  s->row_cost[1] = COST_JAC + s->substeps[1] * (COST_F + COST_SOL) + COST_DEC;
  for (int j = 2; j <= s->columns + 1; j++)
    s->row_cost[j] = s->row_cost[j - 1] + (s->substeps[j] - 1) * (COST_F + COST_SOL) + COST_DEC;
}

static cosrod_status seulex_alloc(void **out, cosrod_step_ctx *ctx) {
  const cosrod_integrate_options *o = ctx->opts;
  const int n = ctx->n;
  const int columns = o->max_columns > 0 ? o->max_columns : 12;
  if (columns < 3 || columns > SEULEX_COLUMN_LIMIT)
    return cosrod_step_fail(ctx, COSROD_ERR_INVALID, ctx->t, "seulex: max_columns = %d must be in 3..%d",
                            columns, SEULEX_COLUMN_LIMIT);
  seulex_state *s = calloc(1, sizeof *s);
  if (!s) return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "seulex: out of memory");
  s->n = n;
  s->columns = columns;
  cosrod_status st = cosrod_lsys_create_ex(&s->L, ctx, 1);
  if (st != COSROD_OK) {
    free(s);
    return st == COSROD_ERR_INVALID
               ? cosrod_step_fail(ctx, st, ctx->t, "seulex: inconsistent Jacobian or mass-matrix bandwidths")
               : cosrod_step_fail(ctx, st, ctx->t, "seulex: out of memory");
  }
  const size_t nb = (size_t)n, kept = (size_t)(columns * (columns + 1) / 2);
  s->tableau = calloc((size_t)columns * nb, sizeof(double));
  s->f_start = calloc(7 * nb, sizeof(double));
  s->last_incr = calloc((kept + 2 * (size_t)columns) * nb, sizeof(double));
  if (!s->tableau || !s->f_start || !s->last_incr) {
    seulex_free(s);
    return cosrod_step_fail(ctx, COSROD_ERR_NOMEM, ctx->t, "seulex: out of memory");
  }
  s->y_sub = s->f_start + nb;
  s->increment = s->y_sub + nb;
  s->f_sub = s->increment + nb;
  s->newton = s->f_sub + nb;
  s->weight = s->newton + nb;
  s->y_start = s->weight + nb;
  s->derivs = s->last_incr + kept * nb;
  s->deriv_tab = s->derivs + (size_t)columns * nb;
  for (int j = 1; j <= columns + 1; j++) s->substeps[j] = step_number(j);
  work_per_row(s);
  s->step_limit_base = 0.1;
  s->step_limit_ratio = 4.0;
  s->fac_down = 0.7;
  s->fac_up = 0.9;
  s->err_target = 0.6;
  s->safety = o->safety > 0.0 ? o->safety : 0.93;
  ctx->clip_factor = 1.0; /* the step that would pass t_end is cut to end there */
  *out = s;
  return COSROD_OK;
}

static void refresh_weights(seulex_state *s, const cosrod_step_ctx *ctx) {
  cosrod_integrate_scale(s->n, ctx->rtol, ctx->atol, ctx->y, NULL, s->weight);
}

static cosrod_status seulex_reset(void *state, cosrod_step_ctx *ctx) {
  seulex_state *s = state;
  const double rtol = ctx->rtol[0], atol = ctx->atol[0];
  s->jac_threshold = ctx->opts->jac_reuse != 0.0 ? ctx->opts->jac_reuse : fmin(1e-4, rtol);
  int k = (int)floor(-0.6 * log10(rtol + atol) + 1.5);
  if (k > s->columns - 2) k = s->columns - 2;
  s->target = k < 2 ? 2 : k;
  s->err = 0.0;
  s->err_bound = 0.0;
  s->contraction = 0.0;
  s->rejected_in_step = 0;
  s->jac_here = 0;
  s->f_start_ok = 0;
  s->singular_run = 0;
  s->attempts = 0;
  s->accepted_column = 0;
  s->dense_ready = 0;
  s->t_prev = ctx->t;
  s->h_prev = 0.0;
  for (int j = 0; j <= s->columns + 1; j++) s->unit_work[j] = s->column_step[j] = 0.0;
  s->unit_work[1] = INFINITY; /* column 1 has no error estimate: never the cheapest */
  refresh_weights(s, ctx);
  if (cosrod_lsys_load_mass(s->L, ctx) != 0) {
    if (ctx->msg[0] == '\0')
      cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, ctx->t, "seulex: mass-matrix callback failed");
    return COSROD_ERR_CALLBACK;
  }
  if (ctx->h == 0.0 || fabs(ctx->h) <= 10.0 * ctx->uround) ctx->h = ctx->dir * 1e-6;
  if (fabs(ctx->h) > ctx->hmax) ctx->h = ctx->dir * ctx->hmax;
  return COSROD_OK;
}

/* Weighted Euclidean length sqrt(Σ (x_i/w_i)²) (the stability check's norm). */
static double weighted_length(int n, const double *x, const double *w) {
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += (x[i] / w[i]) * (x[i] / w[i]);
  return sqrt(sum);
}

/* Stability check after the first substep of rows 1 and 2 (HW II §IV.9):
 * θ = ||δ|| / max(1, ||Δ_0||) for one Newton correction of implicit Euler,
 * f1 = f(t0 + h_j, y_1).  Returns 1 when θ ≤ 1. */
static int stability_check(seulex_state *s, cosrod_step_ctx *ctx, const double *delta0, const double *f1,
                           double inv_hj) {
  const int n = s->n;
  cosrod_lsys_mass_mult(s->L, delta0, s->newton);
  for (int i = 0; i < n; i++) s->newton[i] = f1[i] - s->newton[i] * inv_hj;
  cosrod_lsys_solve(s->L, s->newton);
  ctx->stats->nsolve++;
  s->contraction =
      weighted_length(n, s->newton, s->weight) / fmax(1.0, weighted_length(n, delta0, s->weight));
  return s->contraction <= 1.0;
}

/* Linearly implicit Euler over [t0, t0 + H] with n_j substeps: T_{j1} into
 * tableau row j, the last j increments into kept_increments(j). */
static row_outcome build_row(seulex_state *s, cosrod_step_ctx *ctx, int j, double H) {
  const int n = s->n, nsub = s->substeps[j];
  const size_t bytes = sizeof(double) * (size_t)n;
  const double t0 = ctx->t, hj = H / nsub, inv_hj = 1.0 / hj;
  const int shift = ctx->problem->time_dependent ? 1 : 0; /* f at the substep's end */
  cosrod_status fst = cosrod_lsys_factor(s->L, inv_hj);
  if (fst == COSROD_ERR_INTERRUPTED) {
    cosrod_step_fail(ctx, fst, t0, "seulex: interrupted in the iteration matrix (t = %.17g)", t0);
    return ROW_FATAL; /* the driver reports ERR_INTERRUPTED (flag set) */
  }
  if (fst != COSROD_OK) return ROW_SINGULAR;
  ctx->stats->ndecomp++;
  double *keep = kept_increments(s, j);
  memcpy(s->y_sub, ctx->y, bytes);
  for (int i = 0; i < nsub; i++) {
    double *delta = s->increment;
    if (i == 0 && !shift) {
      memcpy(delta, s->f_start, bytes);
    } else if (i == 0) {
      int rc = cosrod_step_call_f(ctx, t0 + hj, s->y_sub, delta);
      if (rc != 0) return rc < 0 ? ROW_FATAL : ROW_HALVE;
    } else {
      memcpy(delta, s->f_sub, bytes);
    }
    cosrod_lsys_solve(s->L, delta);
    ctx->stats->nsolve++;
    if (i >= nsub - j) memcpy(keep + (size_t)(i - (nsub - j)) * (size_t)n, delta, bytes);
    for (int c = 0; c < n; c++) s->y_sub[c] += delta[c];
    if (i == nsub - 1) break;
    int rc = cosrod_step_call_f(ctx, t0 + (i + 1 + shift) * hj, s->y_sub, s->f_sub);
    if (rc != 0) return rc < 0 ? ROW_FATAL : ROW_HALVE;
    if (i == 0 && j <= 2) {
      const double *f1 = s->f_sub;
      if (shift) { /* the implicit-Euler residual needs f(t0 + h_j, y_1) */
        f1 = tab_row(s, s->tableau, j);
        rc = cosrod_step_call_f(ctx, t0 + hj, s->y_sub, tab_row(s, s->tableau, j));
        if (rc != 0) return rc < 0 ? ROW_FATAL : ROW_HALVE;
      }
      if (!stability_check(s, ctx, delta, f1, inv_hj)) return ROW_HALVE;
    }
  }
  memcpy(tab_row(s, s->tableau, j), s->y_sub, bytes);
  return ROW_OK;
}

/* Aitken–Neville for a sequence linear in h (HW II (9.5)): on entry row r
 * holds the new first-column value of row r and rows lo..r−1 the previous
 * diagonal; on return row lo holds the most extrapolated value (and row
 * lo + 1 the one before it). */
static void extrapolate_row(const seulex_state *s, double *base, int lo, int r) {
  const int n = s->n;
  for (int l = r; l > lo; l--) {
    const double ratio = (double)s->substeps[r] / (double)s->substeps[l - 1] - 1.0;
    const double *hi = tab_row(s, base, l);
    double *below = tab_row(s, base, l - 1);
    for (int i = 0; i < n; i++) below[i] = hi[i] + (hi[i] - below[i]) / ratio;
  }
}

/* err_j = RMS of (T_jj − T_{j,j−1}) / weight; +inf if not finite. */
static double column_error(seulex_state *s, cosrod_step_ctx *ctx) {
  const int n = s->n;
  const double *best = tab_row(s, s->tableau, 1), *next = tab_row(s, s->tableau, 2);
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    double e = (best[i] - next[i]) / s->weight[i];
    sum += e * e;
  }
  if (!isfinite(sum)) {
    ctx->nonfinite = 1;
    return INFINITY;
  }
  return sqrt(sum / n);
}

/* H_j and W_j from err_j (HNW I (9.25)–(9.27), exponent 1/j). */
static void propose_column_step(seulex_state *s, const cosrod_step_ctx *ctx, int j, double H) {
  const double expo = 1.0 / j, shrink_limit = pow(s->step_limit_base, expo);
  double growth = s->err > 0.0 ? s->safety * pow(s->err_target / s->err, expo) : INFINITY;
  growth = fmin(1.0 / shrink_limit, fmax(shrink_limit / s->step_limit_ratio, growth));
  s->column_step[j] = fmin(fabs(H) * growth, ctx->hmax);
  s->unit_work[j] = s->row_cost[j] / s->column_step[j];
}

/* Row j, its extrapolation, error and step proposal. */
static row_outcome add_column(seulex_state *s, cosrod_step_ctx *ctx, int j, double H) {
  row_outcome r = build_row(s, ctx, j, H);
  if (r != ROW_OK || j == 1) return r;
  extrapolate_row(s, s->tableau, 1, j);
  s->err = column_error(s, ctx);
  if (!isfinite(s->err)) return ROW_HALVE;
  if (j > 2 && s->err >= s->err_bound) return ROW_HALVE; /* the tableau diverges */
  s->err_bound = fmax(4.0 * s->err, 1.0);
  propose_column_step(s, ctx, j, H);
  return ROW_OK;
}

static step_outcome row_failure(row_outcome r) {
  return r == ROW_FATAL ? STEP_FATAL : r == ROW_SINGULAR ? STEP_SINGULAR : STEP_HALVE;
}

/* Convergence monitor (HNW I §II.9): build columns towards the target k and
 * decide; *reached receives the last column built. */
static step_outcome run_monitor(seulex_state *s, cosrod_step_ctx *ctx, double H, int *reached) {
  const int k = s->target;
  const int *nj = s->substeps;
  row_outcome r;
  if (s->attempts == 1 || ctx->last) {
    for (int j = 1; j <= k; j++) {
      *reached = j;
      if ((r = add_column(s, ctx, j, H)) != ROW_OK) return row_failure(r);
      if (j > 1 && s->err <= 1.0) return STEP_ACCEPT;
    }
  } else {
    for (int j = 1; j < k; j++) {
      *reached = j;
      if ((r = add_column(s, ctx, j, H)) != ROW_OK) return row_failure(r);
    }
    if (k > 2 && !s->rejected_in_step) {
      if (s->err <= 1.0) return STEP_ACCEPT;
      if (s->err > 4.0 * nj[k + 1] * nj[k]) return STEP_REJECT;
    }
    *reached = k;
    if ((r = add_column(s, ctx, k, H)) != ROW_OK) return row_failure(r);
    if (s->err <= 1.0) return STEP_ACCEPT;
  }
  /* one more column if convergence there is plausible */
  if (s->err > 2.0 * nj[k + 1]) return STEP_REJECT;
  *reached = k + 1;
  if ((r = add_column(s, ctx, k + 1, H)) != ROW_OK) return row_failure(r);
  return s->err <= 1.0 ? STEP_ACCEPT : STEP_REJECT;
}

/* Next target column and step after acceptance in column reached (HNW I
 * (9.28)–(9.29)); returns the step size |H_new|. */
static double choose_order_and_step(seulex_state *s, int reached, double H) {
  const double *W = s->unit_work, *Hc = s->column_step, *A = s->row_cost;
  const int k = s->target, top = s->columns - 1;
  int next;
  if (reached == 2) {
    next = s->rejected_in_step ? 2 : 3; /* column 1 has no error estimate to compare with */
  } else if (reached <= k) {
    next = reached;
    if (W[reached - 1] < s->fac_down * W[reached]) next = reached - 1;
    if (W[reached] < s->fac_up * W[reached - 1]) next = reached + 1;
  } else { /* converged one column beyond the target */
    next = reached - 1;
    if (reached > 3 && W[reached - 2] < s->fac_down * W[reached - 1]) next = reached - 2;
    if (W[reached] < s->fac_up * W[next]) next = reached;
  }
  if (next > top) next = top;
  double Hnew;
  if (s->rejected_in_step) {
    next = next < reached ? next : reached;
    Hnew = fmin(fabs(H), Hc[next]);
  } else if (next <= reached) {
    Hnew = Hc[next];
  } else if (reached < k && W[reached] < s->fac_up * W[reached - 1]) {
    Hnew = Hc[reached] * A[next + 1] /
           A[reached]; /* below the target and still gaining: aim one column higher */
  } else {
    Hnew = Hc[reached] * A[next] / A[reached];
  }
  s->target = next;
  return Hnew;
}

/* Target column after an error-test rejection in column reached. */
static double order_after_rejection(seulex_state *s, int reached) {
  int k = s->target < reached ? s->target : reached;
  if (k > 2 && s->unit_work[k - 1] < s->fac_down * s->unit_work[k]) k--;
  s->target = k;
  return s->column_step[k];
}

/* f(t0, y0) and, when due, J at the start of an attempt.  NaN/Inf there
 * ends the run (ERR_NONFINITE): a smaller step would evaluate the same. */
static cosrod_status prepare_start(seulex_state *s, cosrod_step_ctx *ctx) {
  const cosrod_ode_problem *p = ctx->problem;
  const double t = ctx->t;
  const int need_jac =
      !s->jac_here && (s->rejected_in_step || s->attempts == 0 || !(s->contraction <= s->jac_threshold));
  /* a non-autonomous problem needs f(t0, y0) only for a finite-difference J */
  const int analytic = p->jac || (s->L->S && p->jac_sp);
  const int need_f = !s->f_start_ok && (!p->time_dependent || (need_jac && !analytic));
  const int nonfinite_before = ctx->nonfinite;
  ctx->nonfinite = 0;
  int rc = 0;
  const char *what = "right-hand side";
  if (need_f) {
    rc = cosrod_step_call_f(ctx, t, ctx->y, s->f_start);
    s->f_start_ok = rc == 0;
  }
  if (rc == 0 && need_jac) {
    what = "Jacobian";
    rc = cosrod_lsys_jac(s->L, ctx, t, ctx->y, s->f_start);
    s->jac_here = rc == 0;
  }
  const int nonfinite_here = ctx->nonfinite;
  ctx->nonfinite |= nonfinite_before;
  if (rc < 0) return COSROD_ERR_CALLBACK; /* message by the callback wrapper */
  if (rc > 0 && nonfinite_here) return COSROD_ERR_NONFINITE;
  if (rc > 0)
    return cosrod_step_fail(ctx, COSROD_ERR_CALLBACK, t,
                            "seulex: %s callback returned %d at the accepted point t = %.17g", what, rc, t);
  return COSROD_OK;
}

static void accept_step(seulex_state *s, cosrod_step_ctx *ctx, int reached, double H) {
  const size_t bytes = sizeof(double) * (size_t)s->n;
  memcpy(s->y_start, ctx->y, bytes);
  memcpy(ctx->y, tab_row(s, s->tableau, 1), bytes);
  s->t_prev = ctx->t;
  s->h_prev = H;
  ctx->t_old = ctx->t;
  ctx->t += H;
  ctx->h_last = H;
  ctx->stats->naccept++;
  refresh_weights(s, ctx);
  s->accepted_column = reached;
  s->dense_ready = 0;
  s->jac_here = 0;
  s->f_start_ok = 0;
  const double Hnew = choose_order_and_step(s, reached, H);
  s->rejected_in_step = 0;
  ctx->h = ctx->dir * fmin(Hnew, ctx->hmax);
}

static cosrod_status seulex_step(void *state, cosrod_step_ctx *ctx, int *accepted) {
  seulex_state *s = state;
  const double H = ctx->h;
  *accepted = 0;
  if (ctx->y_modified) {
    refresh_weights(s, ctx);
    s->jac_here = 0;
    s->f_start_ok = 0;
    ctx->y_modified = 0;
  }
  cosrod_status st = prepare_start(s, ctx);
  if (st != COSROD_OK) return st;
  s->attempts++;
  ctx->stats->nsteps++;

  int reached = 1;
  step_outcome outcome = run_monitor(s, ctx, H, &reached);
  s->singular_run = outcome == STEP_SINGULAR ? s->singular_run + 1 : 0;
  switch (outcome) {
    case STEP_FATAL:
      return COSROD_ERR_CALLBACK;
    case STEP_SINGULAR:
      if (s->singular_run >= 5)
        return cosrod_step_fail(ctx, COSROD_ERR_SINGULAR, ctx->t,
                                "seulex: matrix M/h_j - J is singular 5 times in a row at t = %.17g", ctx->t);
      /* fall through */
    case STEP_HALVE:
      ctx->stats->nconvfail++;
      s->rejected_in_step = 1;
      ctx->h = 0.5 * H;
      return COSROD_OK;
    case STEP_REJECT:
      ctx->stats->nreject++;
      s->rejected_in_step = 1;
      ctx->h = ctx->dir * order_after_rejection(s, reached);
      return COSROD_OK;
    case STEP_ACCEPT:
      break;
  }
  accept_step(s, ctx, reached, H);
  *accepted = 1;
  return COSROD_OK;
}

/* ∇^(k−1) Δ_last = Σ_q (−1)^q C(k−1, q) Δ_{last−q} over the kept increments
 * of row r (k ≤ r), times scale, into out. */
static void backward_difference(const seulex_state *s, int r, int k, double scale, double *out) {
  const int n = s->n;
  const double *kept = kept_increments(s, r);
  double binom = 1.0;
  for (int i = 0; i < n; i++) out[i] = 0.0;
  for (int q = 0; q < k; q++) {
    const double cf = (q % 2 ? -binom : binom) * scale;
    const double *d = kept + (size_t)(r - 1 - q) * (size_t)n;
    for (int i = 0; i < n; i++) out[i] += cf * d[i];
    binom *= (double)(k - 1 - q) / (double)(q + 1);
  }
}

/* d_k = H^k y^(k)(t1)/k! ≈ n_r^k/k! ∇^k y_{n_r}, extrapolated over rows
 * r = k..c (c = accepted column); d_c from P(−1) = y0. */
static void dense_prepare(seulex_state *s, const cosrod_step_ctx *ctx) {
  const int n = s->n, c = s->accepted_column;
  double factorial = 1.0;
  for (int k = 1; k < c; k++) {
    factorial *= k;
    for (int r = k; r <= c; r++) {
      backward_difference(s, r, k, pow((double)s->substeps[r], k) / factorial, tab_row(s, s->deriv_tab, r));
      extrapolate_row(s, s->deriv_tab, k, r);
    }
    memcpy(tab_row(s, s->derivs, k), tab_row(s, s->deriv_tab, k), sizeof(double) * (size_t)n);
  }
  /* P(−1) = y1 + Σ_{k<c} d_k (−1)^k + d_c (−1)^c = y0 */
  double *last = tab_row(s, s->derivs, c);
  for (int i = 0; i < n; i++) {
    double rest = s->y_start[i] - ctx->y[i];
    for (int k = 1; k < c; k++) rest -= (k % 2 ? -1.0 : 1.0) * tab_row(s, s->derivs, k)[i];
    last[i] = c % 2 ? -rest : rest;
  }
  s->dense_ready = 1;
}

static cosrod_status seulex_dense(void *state, cosrod_step_ctx *ctx, double t, const int *idx, int nidx,
                                  double *out) {
  seulex_state *s = state;
  if (s->h_prev == 0.0) return COSROD_ERR_INVALID;
  if (!s->dense_ready) dense_prepare(s, ctx);
  const int c = s->accepted_column;
  const double sv = (t - s->t_prev) / s->h_prev - 1.0;
  const int m = idx ? nidx : s->n;
  for (int q = 0; q < m; q++) {
    const int i = idx ? idx[q] : q;
    double poly = 0.0; /* Horner in s */
    for (int k = c; k >= 1; k--) poly = (poly + tab_row(s, s->derivs, k)[i]) * sv;
    out[q] = ctx->y[i] + poly;
  }
  return COSROD_OK;
}

static const cosrod_step_type seulex_type = {
    "seulex",
    1, /* order of the underlying Euler method; the extrapolated order varies (2 .. max_columns) */
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
