// SPDX-License-Identifier: Apache-2.0
/* Quasistatics of a Cosserat rod by continuation: [LLA] §4 eqs. 31–32.
 *
 * Unknowns: minimal coordinates instead of (q, λ).  [LLA] solves the KKT form
 * (31) with the quaternion constraints and multipliers; we parametrise the
 * constraint manifold locally, p <- p exp(δθ/2) with a material rotation
 * vector δθ per segment (a right-trivialised chart, as the null-space
 * formulation's ṗ = ½ p Ω), and δx per vertex.  Then
 *   - the constraints |p| = 1 hold exactly after every update (no λ),
 *   - the Newton matrix has the ν-ordering of the null-space formulation: half
 *     bandwidths 8 instead of 10, 6 unknowns per node instead of 7 + 1,
 *   - the residual is the generalised force of the null-space equations at
 *     rest, r = (f_x, ½ Im(p̄ ψ)) (dynamics with ν = 0 and ν̇ = 0), and its
 *     Jacobian at an equilibrium is the symmetric Hessian of the energy in
 *     the chart (the tangent stiffness used by the modal analysis).
 * The Lagrange multipliers of (31) are not needed; the rod module computes
 * them from any state (cosrod_rod_lambda).
 *
 * Euler predictor (eq. 32): along a path s -> (t(s), μ(s)) with a converged
 * q(s), r(q(s), s) = 0 gives K q' = ∂r/∂s (K = -∂r/∂δ), so
 * q(s + Δs) ≈ q(s) ⊕ Δs K⁻¹ ∂r/∂s, ∂r/∂s by a one-sided difference in the
 * direction of travel (load profiles and keyframes have kinks).  By default a
 * limited curvature term from the previous converged state is added (one
 * Newton iteration less per increment on the omega twist: 3 instead of 4).
 * μ is a load factor on the external loads (gravity, loads, load callback):
 * the solve paths are t: t_from -> t_to at μ = 1, and μ: 0 -> 1 at fixed t
 * when plain Newton cannot reach an equilibrium directly
 * (cosrod_statics_equilibrium_at).
 *
 * Corrector: full Newton with the stiffness re-evaluated every iteration and
 * a line search on the out-of-balance work (see correct()); converged when
 * the residual is below tol times its scale plus its roundoff floor
 * (statics_stiffness.c, part_residual), or when the
 * Newton step is at roundoff level (stiff small-load problems).
 * Stiffness: the rod module's analytic static stiffness pulled back to the
 * chart (stiffness_analytic), or its twin, central finite differences of the
 * residual in minimal coordinates with columns grouped by the bandwidth (34
 * residuals per matrix); statics_jacobian() chooses, solve_jacobian() adds a
 * 1e-12 relative diagonal shift for rigid null modes.
 * Increments: halved on divergence or on a change of the stability index of
 * K (monitor, march(), factor_at()), grown after fast convergence, clipped to requested
 * stops.  A failed first increment (a mechanism under the start loads that
 * must swing far: its equilibrium is a finite distance away for any load)
 * falls back once to pseudo-transient continuation (statics_ptc.c).
 *
 * Rates are zero: the residual is evaluated on a private copy of the rod model
 * with damping switched off, so moving prescribed ends (pseudo-time
 * velocities) produce no viscous forces. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cosrod/band.h"
#include "cosrod/statics.h"
#include "statics/statics_internal.h"
#include "core/error.h"

cosrod_statics_options cosrod_statics_default_options(void) {
  cosrod_statics_options o;
  memset(&o, 0, sizeof o);
  o.increments = 25;
  o.max_increment = 0.0;
  o.min_increment = 1e-4;
  o.grow = 2.0;
  o.fast_iterations = 4;
  o.max_newton = 20;
  o.tol = 1e-9;
  o.predictor = 2;
  o.stop_at_critical = 1;
  o.jacobian = COSROD_STATICS_JAC_ANALYTIC;
  return o;
}

static void part_free(statics_part *p) {
  statics_kirchhoff_free(p);
  cosrod_rod_data_free(p->d);
  cosrod_rod_static_free(p->quiet);
  free(p->y);
  cosrod_band_free(p->Kq);
  free(p->T);
  free(p->bq);
  free(p->bv);
  free(p->bnq);
  free(p->bnv);
}

/* Per-rod part: private damping-free model copy, workspace, scales. */
static cosrod_status part_init(statics_part *p, const cosrod_rod *rod, int q0, int v0) {
  memset(p, 0, sizeof *p);
  p->rod = rod;
  cosrod_rod_view_get(rod, &p->rv);
  const cosrod_rod_view *rv = &p->rv;
  p->quiet = cosrod_rod_static_create(rod);
  if (!p->quiet) return COSROD_ERR_NOMEM;
  p->q0 = q0, p->v0 = v0;
  p->nq = rv->nq, p->nv = rv->nv_ns;
  const int N = rv->N;
  p->d = cosrod_rod_data_create(p->quiet, NULL);
  p->y = calloc((size_t)(rv->nq + rv->nv_ns), sizeof(double));
  p->Kq = cosrod_band_create(rv->nq > 0 ? rv->nq : 1, 10, 10, NULL);
  p->T = calloc(12 * (size_t)N, sizeof(double));
  p->bq = calloc(2 * (size_t)N + 1, sizeof(int));
  p->bv = calloc(2 * (size_t)N + 1, sizeof(int));
  p->bnq = calloc(2 * (size_t)N + 1, sizeof(int));
  p->bnv = calloc(2 * (size_t)N + 1, sizeof(int));
  if (!p->d || !p->y || !p->Kq || !p->T || !p->bq || !p->bv || !p->bnq || !p->bnv) return COSROD_ERR_NOMEM;
  double cmin = fmin(rv->CK[0], fmin(rv->CK[1], rv->CK[2]));
  double L = rv->s[N] - rv->s[0];
  p->floorF = cmin / (L * L);
  p->floorM = cmin / L;
  double dsmin = rv->ds[0];
  for (int k = 1; k < N; ++k) dsmin = fmin(dsmin, rv->ds[k]);
  p->dsmin = dsmin;
  p->hx = 6.0554544523933395e-06 * dsmin; /* cbrt(eps) times the strain length scale */
  /* roundoff level of a Newton step in the weighted norm: x carries
   * eps |x| absolute errors, so δx / Δs_min below ~1e3 eps |x| / Δs_min is noise */
  double xs = L;
  for (int n = 0; n <= N; ++n) xs = fmax(xs, cosrod_vec3_norm(rv->x_init + 3 * n));
  p->step_noise = 1e3 * DBL_EPSILON * fmax(1.0, xs / dsmin);
  return COSROD_OK;
}

cosrod_statics *cosrod_statics_create_system(const cosrod_rod *const *rods, int nrods,
                                             const cosrod_statics_options *opt, cosrod_status *status) {
  return cosrod_statics_create_coupled(rods, nrods, NULL, opt, status);
}

/* The options with defaults filled in; ERR_INVALID if out of range. */
static cosrod_status check_options(const cosrod_statics_options *opt, cosrod_statics_options *o) {
  *o = opt ? *opt : cosrod_statics_default_options();
  if (o->increments < 1 || o->min_increment <= 0.0 || o->max_increment < 0.0 || o->grow < 1.0 ||
      o->max_newton < 1 || !(o->tol > 0.0) || o->fast_iterations < 0 ||
      (o->jacobian != COSROD_STATICS_JAC_ANALYTIC && o->jacobian != COSROD_STATICS_JAC_FD))
    return COSROD_ERR_INVALID;
  if (o->nstops < 0 || (o->nstops > 0 && !o->stops)) return COSROD_ERR_INVALID;
  if (o->max_increment == 0.0) o->max_increment = 1.0 / o->increments;
  if (o->max_increment > 1.0) o->max_increment = 1.0;
  return COSROD_OK;
}

/* The rods' parts with the blocks placed between them (statics_blocks_place),
 * the bandwidth, the system sizes and the load classification (after
 * statics_blocks_init). */
static cosrod_status place_rods(cosrod_statics *s, const cosrod_rod *const *rods, int nrods) {
  int rods_dead = 1;
  for (int r = 0; r < nrods; ++r) {
    s->nv = statics_blocks_place(s, r, s->nv);
    int mlq, muq, mlv, muv;
    cosrod_rod_bandwidth(rods[r], COSROD_FORM_NULLSPACE, &mlq, &muq, &mlv, &muv);
    if (mlv > s->ml) s->ml = mlv;
    if (muv > s->mu) s->mu = muv;
    cosrod_status st = part_init(&s->part[r], rods[r], s->nq, s->nv);
    if (st == COSROD_OK) st = statics_kirchhoff_init(&s->part[r], &s->ml, &s->mu);
    if (s->part[r].kkt) s->kkt = 1;
    s->nq += cosrod_rod_nq(rods[r]);
    s->nv += statics_kirchhoff_block(&s->part[r]);
    if (st != COSROD_OK) return st;
    s->step_noise = fmax(s->step_noise, s->part[r].step_noise);
    if (!cosrod_rod_dead_loads(rods[r])) s->dead_loads = rods_dead = 0;
  }
  s->dead_red = rods_dead && !(s->nblk > 0 && s->blk.follower);
  s->nv = statics_blocks_place(s, nrods, s->nv);
  s->nq_rods = s->nq;
  s->nq += 7 * s->nblk + (s->nblk > 0 ? s->blk.nmult : 0);
  return COSROD_OK;
}

/* The solver's vectors and matrices. */
static cosrod_status alloc_work(cosrod_statics *s) {
  size_t nv = (size_t)(s->nv > 0 ? s->nv : 1), nq = (size_t)(s->nq > 0 ? s->nq : 1);
  s->r = calloc(nv, sizeof(double));
  s->r2 = calloc(nv, sizeof(double));
  s->dv = calloc(nv, sizeof(double));
  s->rpl = calloc(nv, sizeof(double));
  s->rmi = calloc(nv, sizeof(double));
  s->hcol = calloc(nv, sizeof(double));
  s->wnorm = calloc(nv, sizeof(double));
  s->rbest = calloc(nv, sizeof(double));
  s->qc = calloc(nq, sizeof(double));
  s->qw = calloc(nq, sizeof(double));
  s->qt = calloc(nq, sizeof(double));
  s->q0 = calloc(nq, sizeof(double));
  s->qw2 = calloc(nq, sizeof(double));
  s->qprev = calloc(nq, sizeof(double));
  s->qbest = calloc(nq, sizeof(double));
  s->J = cosrod_band_create((int)nv, s->ml, s->mu, NULL);
  s->ldl = calloc(nv * (size_t)((s->ml > s->mu ? s->ml : s->mu) + 1), sizeof(double));
  s->kdiag = calloc(nv, sizeof(double));
  s->ptcbuf = calloc(4 * nv + 2 * nq, sizeof(double)); /* statics_ptc.c */
  if (!s->ldl || !s->kdiag || !s->ptcbuf || !s->r || !s->r2 || !s->dv || !s->rpl || !s->rmi || !s->hcol ||
      !s->wnorm || !s->rbest || !s->qc || !s->qw || !s->qt || !s->q0 || !s->qw2 || !s->qprev || !s->qbest ||
      !s->J)
    return COSROD_ERR_NOMEM;
  return COSROD_OK;
}

/* Weights making minimal coordinates dimensionless (δx / Δs_min, δθ) and
 * FD steps (m, rad). */
static void set_weights(cosrod_statics *s) {
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *p = &s->part[r];
    const cosrod_rod_view *rv = &p->rv;
    for (int n = 0; n <= rv->N; ++n)
      for (int j = 0; j < rv->nd[n]; ++j) {
        s->wnorm[p->v0 + p->ov[n] + j] = 1.0 / p->dsmin;
        s->hcol[p->v0 + p->ov[n] + j] = p->hx;
      }
    for (int k = 0; k < rv->N; ++k)
      for (int j = 0; j < 3; ++j) {
        s->wnorm[p->v0 + p->os[k] + j] = 1.0;
        s->hcol[p->v0 + p->os[k] + j] = s->hth;
      }
    statics_kirchhoff_weights(p, s->hcol, s->wnorm);
  }
  statics_blocks_weights(s);
}

static cosrod_statics *statics_create_coupled(const cosrod_rod *const *rods, int nrods,
                                              const cosrod_statics_blocks *blk, const cosrod_statics_options *opt,
                                              cosrod_status *status) {
  cosrod_status dummy;
  if (!status) status = &dummy;
  if (!rods || nrods < 1) {
    *status = COSROD_ERR_INVALID;
    return NULL;
  }
  for (int r = 0; r < nrods; ++r)
    if (!rods[r]) {
      *status = COSROD_ERR_INVALID;
      return NULL;
    }
  cosrod_statics_options o;
  *status = check_options(opt, &o);
  if (*status != COSROD_OK) return NULL;
  cosrod_statics *s = calloc(1, sizeof *s);
  if (!s) {
    *status = COSROD_ERR_NOMEM;
    return NULL;
  }
  s->opt = o;
  s->eta = 0.8;
  s->hth = 6.0554544523933395e-06; /* rad */
  s->part = calloc((size_t)nrods, sizeof *s->part);
  if (!s->part) {
    free(s);
    *status = COSROD_ERR_NOMEM;
    return NULL;
  }
  s->nparts = nrods;
  s->dead_loads = 1;
  s->ml = s->mu = 8; /* the stencil: neighbouring nodes (null-space ν-ν bandwidth) */
  cosrod_status st = statics_blocks_init(s, blk); /* rigid blocks (statics_blocks.c) */
  if (st == COSROD_OK) st = place_rods(s, rods, nrods);
  if (st == COSROD_OK) st = statics_kirchhoff_couple_init(s); /* Kirchhoff ends sharing a block */
  if (st == COSROD_OK) {
    statics_blocks_band(s);
    st = alloc_work(s);
  }
  if (st != COSROD_OK) {
    cosrod_statics_free(s);
    *status = st;
    return NULL;
  }
  set_weights(s);
  *status = COSROD_OK;
  return s;
}

/* Which argument statics_create_coupled refused (for cosrod_last_error). */
static const char *statics_refusal(const cosrod_rod *const *rods, int nrods, const cosrod_statics_options *opt,
                                   cosrod_status st) {
  if (!rods || nrods < 1) return "no rods (need rods != NULL, nrods >= 1)";
  for (int r = 0; r < nrods; ++r)
    if (!rods[r]) return "a rod is NULL";
  cosrod_statics_options o;
  if (check_options(opt, &o) != COSROD_OK)
    return "options: need increments >= 1, min_increment > 0, max_increment >= 0, grow >= 1, max_newton >= 1, "
           "tol > 0, fast_iterations >= 0, a known jacobian, nstops >= 0 and stops when nstops > 0";
  if (st == COSROD_ERR_NOMEM) return "out of memory";
  return "the rods, blocks or Kirchhoff ends cannot be set up";
}

cosrod_statics *cosrod_statics_create_coupled(const cosrod_rod *const *rods, int nrods,
                                              const cosrod_statics_blocks *blk, const cosrod_statics_options *opt,
                                              cosrod_status *status) {
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  cosrod_statics *s = statics_create_coupled(rods, nrods, blk, opt, &st);
  if (status) *status = st;
  if (s) {
    cosrod_error_clear();
    return s;
  }
  cosrod_error_set("cosrod_statics_create: %s (%s)", statics_refusal(rods, nrods, opt, st), cosrod_strerror(st));
  return NULL;
}

cosrod_statics *cosrod_statics_create(const cosrod_rod *rod, const cosrod_statics_options *opt,
                                      cosrod_status *status) {
  if (!rod) {
    cosrod_error_clear();
    return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_statics_create: no rod (NULL)");
  }
  return cosrod_statics_create_system(&rod, 1, opt, status);
}

void cosrod_statics_free(cosrod_statics *s) {
  if (!s) return;
  if (s->part)
    for (int r = 0; r < s->nparts; ++r) part_free(&s->part[r]);
  free(s->part);
  free(s->r);
  free(s->r2);
  free(s->dv);
  free(s->rpl);
  free(s->rmi);
  free(s->hcol);
  free(s->wnorm);
  free(s->rbest);
  free(s->qc);
  free(s->qw);
  free(s->qt);
  free(s->q0);
  free(s->qw2);
  free(s->qprev);
  free(s->qbest);
  cosrod_band_free(s->J);
  statics_sparse_free(s->sp);
  free(s->ldl);
  free(s->kdiag);
  free(s->arcbuf);
  free(s->ptcbuf);
  statics_kirchhoff_couple_free(s);
  statics_blocks_free(s);
  free(s);
}

int cosrod_statics_nq(const cosrod_statics *s) { return s ? s->nq : 0; }
int cosrod_statics_nrods(const cosrod_statics *s) { return s ? s->nparts : 0; }
int cosrod_statics_qoffset(const cosrod_statics *s, int r) {
  return s && r >= 0 && r < s->nparts ? s->part[r].q0 : -1;
}
int cosrod_statics_voffset(const cosrod_statics *s, int r) {
  return s && r >= 0 && r < s->nparts ? s->part[r].v0 : -1;
}

int cosrod_statics_ndof(const cosrod_statics *s) { return s ? s->nv : 0; }

void cosrod_statics_stats_print(FILE *out, const cosrod_statics_stats *st, int csv) {
  if (!out || !st) return;
  if (csv) {
    fprintf(out,
            "increments,rejected,newton,jacobians,residuals,max_iterations,t,residual,min_step,critical,"
            "wall_time\n");
    fprintf(out, "%ld,%ld,%ld,%ld,%ld,%d,%.17g,%.6e,%.6e,%d,%.6e\n", st->increments, st->rejected, st->newton,
            st->jacobians, st->residuals, st->max_iterations, st->t, st->residual, st->min_step, st->critical,
            st->wall_time);
  } else {
    fprintf(
        out,
        "statics: %ld increments (%ld rejected), %ld Newton iterations (max %d per increment), %ld stiffness "
        "matrices, %ld residuals; t = %.6g, scaled residual %.2e, min increment %.3g%s, %.3f s\n",
        st->increments, st->rejected, st->newton, st->max_iterations, st->jacobians, st->residuals, st->t,
        st->residual, st->min_step, st->critical ? ", stopped at a critical point" : "", st->wall_time);
  }
}

void cosrod_statics_apply(const cosrod_statics *s, double *q, const double *delta) {
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *pt = &s->part[r];
    const cosrod_rod_view *rv = &pt->rv;
    double *qr = q + pt->q0;
    const double *dr = delta + pt->v0;
    for (int n = 0; n <= rv->N; ++n) {
      int nd = rv->nd[n];
      for (int j = 0; j < nd; ++j) qr[rv->qv[n] + j] += dr[pt->ov[n] + j];
    }
    for (int k = 0; k < rv->N; ++k) {
      double e[4], p[4];
      double *pq = qr + rv->qs[k];
      cosrod_quat_from_rotvec(e, dr + pt->os[k]);
      cosrod_quat_mul(p, pq, e);
      cosrod_quat_normalise(pq, p);
    }
  }
  statics_blocks_apply(s, q, delta);
}

