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
 * the scaled residual (cosrod_statics_residual) is below tol, or when the
 * Newton step is at roundoff level (stiff small-load problems).
 * Stiffness: the rod module's analytic static stiffness pulled back to the
 * chart (stiffness_analytic), or its twin, central finite differences of the
 * residual in minimal coordinates with columns grouped by the bandwidth (34
 * residuals per matrix); statics_jacobian() chooses, solve_jacobian() adds a
 * 1e-12 relative diagonal shift for rigid null modes.
 * Increments: halved on divergence or on a sign change of det K (stability
 * monitor, march()), grown after fast convergence, clipped to requested
 * stops.
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
#include "rod/rod_internal.h"
#include "statics/statics_internal.h"

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

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void part_free(statics_part *p) {
  cosrod_rod_data_free(p->d);
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
  p->quiet = *rod; /* shallow copy sharing the constant arrays, damping off */
  p->quiet.has_damping = 0;
  p->q0 = q0, p->v0 = v0;
  p->nq = rod->nq, p->nv = rod->nv_ns;
  const int N = rod->N;
  p->d = cosrod_rod_data_create(&p->quiet);
  p->y = calloc((size_t)(rod->nq + rod->nv_ns), sizeof(double));
  p->Kq = cosrod_band_create(rod->nq > 0 ? rod->nq : 1, 10, 10);
  p->T = calloc(12 * (size_t)N, sizeof(double));
  p->bq = calloc(2 * (size_t)N + 1, sizeof(int));
  p->bv = calloc(2 * (size_t)N + 1, sizeof(int));
  p->bnq = calloc(2 * (size_t)N + 1, sizeof(int));
  p->bnv = calloc(2 * (size_t)N + 1, sizeof(int));
  if (!p->d || !p->y || !p->Kq || !p->T || !p->bq || !p->bv || !p->bnq || !p->bnv) return COSROD_ERR_NOMEM;
  double cmin = fmin(rod->CK[0], fmin(rod->CK[1], rod->CK[2]));
  double L = rod->s[N] - rod->s[0];
  p->floorF = cmin / (L * L);
  p->floorM = cmin / L;
  double dsmin = rod->ds[0];
  for (int k = 1; k < N; ++k) dsmin = fmin(dsmin, rod->ds[k]);
  p->dsmin = dsmin;
  p->hx = 6.0554544523933395e-06 * dsmin; /* cbrt(eps) times the strain length scale */
  /* roundoff level of a Newton step in the weighted norm: x carries
   * eps |x| absolute errors, so δx / Δs_min below ~1e3 eps |x| / Δs_min is noise */
  double xs = L;
  for (int n = 0; n <= N; ++n) xs = fmax(xs, cosrod_vec3_norm(rod->x_init + 3 * n));
  p->step_noise = 1e3 * DBL_EPSILON * fmax(1.0, xs / dsmin);
  return COSROD_OK;
}

cosrod_statics *cosrod_statics_create_system(const cosrod_rod *const *rods, int nrods,
                                             const cosrod_statics_options *opt, cosrod_status *status) {
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
  cosrod_statics_options o = opt ? *opt : cosrod_statics_default_options();
  if (o.increments < 1 || o.min_increment <= 0.0 || o.max_increment < 0.0 || o.grow < 1.0 ||
      o.max_newton < 1 || !(o.tol > 0.0) || o.fast_iterations < 0 ||
      (o.jacobian != COSROD_STATICS_JAC_ANALYTIC && o.jacobian != COSROD_STATICS_JAC_FD)) {
    *status = COSROD_ERR_INVALID;
    return NULL;
  }
  if (o.nstops < 0 || (o.nstops > 0 && !o.stops)) {
    *status = COSROD_ERR_INVALID;
    return NULL;
  }
  if (o.max_increment == 0.0) o.max_increment = 1.0 / o.increments;
  if (o.max_increment > 1.0) o.max_increment = 1.0;
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
  for (int r = 0; r < nrods; ++r) {
    int mlq, muq, mlv, muv;
    cosrod_rod_bandwidth(rods[r], COSROD_FORM_NULLSPACE, &mlq, &muq, &mlv, &muv);
    if (mlv > s->ml) s->ml = mlv;
    if (muv > s->mu) s->mu = muv;
    cosrod_status st = part_init(&s->part[r], rods[r], s->nq, s->nv);
    s->nq += rods[r]->nq;
    s->nv += rods[r]->nv_ns;
    if (st != COSROD_OK) {
      cosrod_statics_free(s);
      *status = st;
      return NULL;
    }
    s->step_noise = fmax(s->step_noise, s->part[r].step_noise);
    for (int i = 0; i < rods[r]->nloads; ++i) {
      const cosrod_rod_load *l = &rods[r]->loads[i];
      if (l->frame != COSROD_FRAME_SPATIAL || l->kind == COSROD_LOAD_MOMENT) s->dead_loads = 0;
    }
    if (rods[r]->load_fn) s->dead_loads = 0;
  }
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
  s->J = cosrod_band_create((int)nv, s->ml, s->mu);
  s->ldl = calloc(nv * (size_t)((s->ml > s->mu ? s->ml : s->mu) + 1), sizeof(double));
  s->kdiag = calloc(nv, sizeof(double));
  if (!s->ldl || !s->kdiag || !s->r || !s->r2 || !s->dv || !s->rpl || !s->rmi || !s->hcol || !s->wnorm ||
      !s->rbest || !s->qc || !s->qw || !s->qt || !s->q0 || !s->qw2 || !s->qprev || !s->qbest || !s->J) {
    cosrod_statics_free(s);
    *status = COSROD_ERR_NOMEM;
    return NULL;
  }
  /* weights making minimal coordinates dimensionless (δx / Δs_min, δθ) and
   * FD steps (m, rad) */
  for (int r = 0; r < nrods; ++r) {
    const statics_part *p = &s->part[r];
    const cosrod_rod *rod = p->rod;
    for (int n = 0; n <= rod->N; ++n)
      for (int j = 0; j < rod->nd[n]; ++j) {
        s->wnorm[p->v0 + rod->vv_ns[n] + j] = 1.0 / p->dsmin;
        s->hcol[p->v0 + rod->vv_ns[n] + j] = p->hx;
      }
    for (int k = 0; k < rod->N; ++k)
      for (int j = 0; j < 3; ++j) {
        s->wnorm[p->v0 + rod->vs_ns[k] + j] = 1.0;
        s->hcol[p->v0 + rod->vs_ns[k] + j] = s->hth;
      }
  }
  *status = COSROD_OK;
  return s;
}

cosrod_statics *cosrod_statics_create(const cosrod_rod *rod, const cosrod_statics_options *opt,
                                      cosrod_status *status) {
  if (!rod) {
    if (status) *status = COSROD_ERR_INVALID;
    return NULL;
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
  free(s->ldl);
  free(s->kdiag);
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
    const cosrod_rod *rod = pt->rod;
    double *qr = q + pt->q0;
    const double *dr = delta + pt->v0;
    for (int n = 0; n <= rod->N; ++n) {
      int nd = rod->nd[n];
      for (int j = 0; j < nd; ++j) qr[rod->qv[n] + j] += dr[rod->vv_ns[n] + j];
    }
    for (int k = 0; k < rod->N; ++k) {
      double e[4], p[4];
      double *pq = qr + rod->qs[k];
      cosrod_quat_from_rotvec(e, dr + rod->vs_ns[k]);
      cosrod_quat_mul(p, pq, e);
      cosrod_quat_normalise(pq, p);
    }
  }
}

/* Residual of one rod at (t, μ) into r (its nv rows); scaled norm. */
static cosrod_status part_residual(cosrod_statics *s, statics_part *pt, double t, double mu, const double *q,
                                   double *r, double *scaled) {
  const cosrod_rod *rod = pt->rod;
  cosrod_rod_data *d = pt->d;
  const int N = rod->N;
  memcpy(pt->y, q, sizeof(double) * (size_t)pt->nq);
  memset(pt->y + pt->nq, 0, sizeof(double) * (size_t)pt->nv);
  cosrod_status st = cosrod_rod_eval(&pt->quiet, d, COSROD_FORM_NULLSPACE, t, pt->y);
  (void)s;
  if (st != COSROD_OK) return st;
  const int loads = rod->nloads > 0 || rod->load_fn;
  const double lf = 1.0 - mu; /* share of the external loads to remove */
  double SF = pt->floorF, SM = pt->floorM, rf = 0.0, rm = 0.0;
  for (int k = 0; k < N; ++k) {
    double Fn = cosrod_vec3_norm(d->F + 3 * k);
    SF = fmax(SF, Fn);
    SM = fmax(SM, rod->ds[k] * Fn);
    if (loads) SM = fmax(SM, mu * cosrod_vec3_norm(d->mload + 3 * k));
  }
  for (int n = 0; n <= N; ++n) {
    double fe[3];
    cosrod_vec3_scale(fe, rod->mv[n], rod->gravity);
    if (loads) cosrod_vec3_add(fe, fe, d->fload + 3 * n);
    SF = fmax(SF, mu * cosrod_vec3_norm(fe));
    SM = fmax(SM, cosrod_vec3_norm(d->M + 3 * n));
    int nd = rod->nd[n];
    if (!nd) continue;
    double f[3];
    for (int j = 0; j < 3; ++j) f[j] = d->fx[3 * n + j] - lf * fe[j];
    double *rv = r + rod->vv_ns[n];
    if (nd == 3) {
      cosrod_vec3_copy(rv, f);
    } else {
      rv[0] = cosrod_vec3_dot(f, rod->end[n == 0 ? 0 : 1].axis);
    }
    for (int j = 0; j < nd; ++j) rf = fmax(rf, fabs(rv[j]));
  }
  for (int k = 0; k < N; ++k) {
    double *rs = r + rod->vs_ns[k];
    cosrod_quat_tmat_T_apply(rs, d->p + 4 * k, d->fp + 4 * k);
    if (loads && lf != 0.0) cosrod_vec3_axpy(rs, -lf, d->mload + 3 * k);
    for (int j = 0; j < 3; ++j) rm = fmax(rm, fabs(rs[j]));
  }
  double sc = fmax(rf / SF, rm / SM);
  if (!isfinite(sc)) return COSROD_ERR_NONFINITE;
  *scaled = sc;
  return COSROD_OK;
}

/* Residual of the system at (t, μ) in minimal coordinates (rods
 * concatenated); scaled norm (maximum over the rods) in *scaled. */
cosrod_status statics_residual(cosrod_statics *s, double t, double mu, const double *q, double *r,
                               double *scaled) {
  double sc = 0.0;
  s->nres++;
  for (int i = 0; i < s->nparts; ++i) {
    statics_part *pt = &s->part[i];
    double si = 0.0;
    cosrod_status st = part_residual(s, pt, t, mu, q + pt->q0, r + pt->v0, &si);
    if (st != COSROD_OK) return st;
    sc = fmax(sc, si);
  }
  if (scaled) *scaled = sc;
  return COSROD_OK;
}

/* Finite-difference twin of the static stiffness: J = dr/dδ (note the sign:
 * K = -J), central differences, columns more than ml + mu apart perturbed
 * together. */
static cosrod_status stiffness_fd(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J) {
  const int n = s->nv;
  const double *h = s->hcol;
  double *delta = s->dv;
  int ng = J->ml + J->mu + 1;
  if (ng > n) ng = n;
  cosrod_band_zero(J);
  for (int g = 0; g < ng; ++g) {
    for (int sign = 0; sign < 2; ++sign) {
      memset(delta, 0, sizeof(double) * (size_t)n);
      for (int j = g; j < n; j += ng) delta[j] = sign == 0 ? h[j] : -h[j];
      memcpy(s->qt, q, sizeof(double) * (size_t)s->nq);
      cosrod_statics_apply(s, s->qt, delta);
      cosrod_status st = statics_residual(s, t, mu, s->qt, sign == 0 ? s->rpl : s->rmi, NULL);
      if (st != COSROD_OK) return st;
    }
    for (int j = g; j < n; j += ng) {
      int ilo = j - J->mu < 0 ? 0 : j - J->mu, ihi = j + J->ml > n - 1 ? n - 1 : j + J->ml;
      double *col = cosrod_band_col(J, j);
      double ih = 0.5 / h[j];
      for (int i = ilo; i <= ihi; ++i) col[i - j] = (s->rpl[i] - s->rmi[i]) * ih;
    }
  }
  return COSROD_OK;
}

/* T(p) = ½ Q(p) [0; I3] (4 x 3, row-major): ṗ = T(p) Ω, the tangent map of
 * the chart p exp(δθ/2) at δθ = 0. */
static void tangent_map(double T[12], const double p[4]) {
  for (int c = 0; c < 3; ++c) {
    double e[3] = {0.0, 0.0, 0.0}, col[4];
    e[c] = 0.5;
    cosrod_quat_mul_pure(col, p, e);
    for (int r = 0; r < 4; ++r) T[3 * r + c] = col[r];
  }
}

/* Analytic twin: the rod's static stiffness K_q (nq x nq, Hessian of the
 * Lagrangian V - W + λᵀg, cosrod_rod_stiffness) pulled back to the chart,
 *   -∂r/∂δ = Tᵀ K_q T + C,   C = ½ [τ]ₓᵀ = -½ [τ]ₓ on each segment block,
 * with T = diag(I (vertices), T(p_k) (segments)).  Derivation: the segment
 * rows are r_k = T(p_k)ᵀ ψ_k, and differentiating T(p e^{δ/2})ᵀ ψ gives
 * -¼ (<p, ψ> δ + δ × Im(p̄ψ)) = -¼ λ δ - ½ δ × τ; Tᵀ(λ I)T = ¼ λ I cancels the
 * first part (the multiplier term of K_q), the second (zero at an
 * equilibrium) is C.  Blocks of the interleaved ordering couple only within
 * two block positions (segment–segment through a vertex curvature). */
static cosrod_status part_stiffness(statics_part *pt, double t, const double *q, cosrod_band *J) {
  const cosrod_rod *rod = pt->rod;
  const int N = rod->N, v0 = pt->v0;
  memcpy(pt->y, q, sizeof(double) * (size_t)pt->nq);
  memset(pt->y + pt->nq, 0, sizeof(double) * (size_t)pt->nv);
  cosrod_status st = cosrod_rod_stiffness(&pt->quiet, pt->d, t, pt->y, pt->Kq);
  if (st != COSROD_OK) return st;
  /* block table: 2N+1 positions, vertex n at 2n, segment k at 2k+1 */
  const int nb = 2 * N + 1;
  for (int b = 0; b < nb; ++b) {
    int vtx = (b % 2) == 0, idx = b / 2;
    pt->bq[b] = vtx ? (rod->nd[idx] ? rod->qv[idx] : -1) : rod->qs[idx];
    pt->bv[b] = vtx ? (rod->nd[idx] ? rod->vv_ns[idx] : -1) : rod->vs_ns[idx];
    pt->bnq[b] = vtx ? rod->nd[idx] : 4;
    pt->bnv[b] = vtx ? rod->nd[idx] : 3;
    if (!vtx) tangent_map(pt->T + 12 * idx, q + rod->qs[idx]);
  }
  for (int bi = 0; bi < nb; ++bi) {
    if (pt->bq[bi] < 0) continue;
    for (int bj = bi - 2; bj <= bi + 2; ++bj) {
      if (bj < 0 || bj >= nb || pt->bq[bj] < 0) continue;
      double Kb[16], Tb[16];
      int ni = pt->bnq[bi], nj = pt->bnq[bj];
      for (int a = 0; a < ni; ++a)
        for (int c = 0; c < nj; ++c) {
          int i = pt->bq[bi] + a, j = pt->bq[bj] + c;
          Kb[4 * a + c] = cosrod_band_in_band(pt->Kq, i, j) ? cosrod_band_get(pt->Kq, i, j) : 0.0;
        }
      /* Tb = Kb T_j  (ni x mj) */
      int mi = pt->bnv[bi], mj = pt->bnv[bj];
      const double *Tj = (bj % 2) ? pt->T + 12 * (bj / 2) : NULL;
      const double *Ti = (bi % 2) ? pt->T + 12 * (bi / 2) : NULL;
      for (int a = 0; a < ni; ++a)
        for (int c = 0; c < mj; ++c) {
          double v = 0.0;
          if (Tj)
            for (int m = 0; m < 4; ++m) v += Kb[4 * a + m] * Tj[3 * m + c];
          else
            v = Kb[4 * a + c];
          Tb[4 * a + c] = v;
        }
      for (int a = 0; a < mi; ++a)
        for (int c = 0; c < mj; ++c) {
          double v = 0.0;
          if (Ti)
            for (int m = 0; m < 4; ++m) v += Ti[3 * m + a] * Tb[4 * m + c];
          else
            v = Tb[4 * a + c];
          /* J = dr/dδ = -K */
          cosrod_band_set(J, v0 + pt->bv[bi] + a, v0 + pt->bv[bj] + c, -v);
        }
    }
  }
  /* C = -½ [τ]ₓ (torque τ = ½ Im(p̄ψ) of the current state, d evaluated at q) */
  for (int k = 0; k < N; ++k) {
    double tau[3];
    cosrod_quat_tmat_T_apply(tau, pt->d->p + 4 * k, pt->d->fp + 4 * k);
    int o = v0 + rod->vs_ns[k];
    /* -½[τ]ₓ = ½ [[0, τ3, -τ2], [-τ3, 0, τ1], [τ2, -τ1, 0]]; J gets -C */
    cosrod_band_add(J, o + 0, o + 1, -0.5 * tau[2]);
    cosrod_band_add(J, o + 0, o + 2, 0.5 * tau[1]);
    cosrod_band_add(J, o + 1, o + 0, 0.5 * tau[2]);
    cosrod_band_add(J, o + 1, o + 2, -0.5 * tau[0]);
    cosrod_band_add(J, o + 2, o + 0, -0.5 * tau[1]);
    cosrod_band_add(J, o + 2, o + 1, 0.5 * tau[0]);
  }
  return COSROD_OK;
}

static cosrod_status stiffness_analytic(cosrod_statics *s, double t, const double *q, cosrod_band *J) {
  cosrod_band_zero(J);
  for (int r = 0; r < s->nparts; ++r) {
    cosrod_status st = part_stiffness(&s->part[r], t, q + s->part[r].q0, J);
    if (st != COSROD_OK) return st;
  }
  return COSROD_OK;
}

/* The one place that chooses how dr/dδ is computed: the analytic stiffness
 * of the rod module by default; finite differences if asked for, and for a
 * partial load factor (μ != 1, the homotopy of equilibrium_at) unless all
 * loads are dead (gravity, spatial forces: no stiffness contribution), since
 * the rod's stiffness has the load derivatives at full scale only. */
cosrod_status statics_jacobian(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J) {
  s->njac++;
  if (s->opt.jacobian == COSROD_STATICS_JAC_ANALYTIC && (mu == 1.0 || s->dead_loads))
    return stiffness_analytic(s, t, q, J);
  return stiffness_fd(s, t, mu, q, J);
}

/* The matrix the Newton and predictor solves factor: dr/dδ with a relative
 * shift -1e-12 |J_ii| on the diagonal (K + 1e-12 |diag K|).  It leaves regular
 * problems unchanged in practice (Newton contraction ~1e-12 cond) and makes
 * rigid null modes solvable (a rod hanging from a pin spins freely about the
 * vertical: K is singular, the residual orthogonal to its kernel); the
 * shifted null eigenvalue stays positive for the stability monitor. */
static cosrod_status solve_jacobian(cosrod_statics *s, double t, double mu, const double *q, cosrod_band *J) {
  cosrod_status st = statics_jacobian(s, t, mu, q, J);
  if (st != COSROD_OK) return st;
  for (int i = 0; i < J->n; ++i) {
    double *d = cosrod_band_col(J, i);
    d[0] -= 1e-12 * fabs(d[0]);
  }
  return COSROD_OK;
}

cosrod_status cosrod_statics_residual(cosrod_statics *s, double t, const double *q, double *r,
                                      double *scaled) {
  if (!s || !q) return COSROD_ERR_INVALID;
  return statics_residual(s, t, 1.0, q, r ? r : s->r, scaled);
}

cosrod_status cosrod_statics_stiffness(cosrod_statics *s, double t, const double *q, cosrod_band *K) {
  if (!s || !q || !K) return COSROD_ERR_INVALID;
  if (K->n != s->nv || K->ml < 8 || K->mu < 8) return COSROD_ERR_DIMENSION;
  cosrod_status st = statics_jacobian(s, t, 1.0, q, K);
  if (st != COSROD_OK) return st;
  cosrod_band_scale_add_identity(K, -1.0, 0.0);
  return COSROD_OK;
}

/* ---- continuation -------------------------------------------------------- */

/* A path s in [0, 1] -> (t(s), μ(s)), both linear. */
typedef struct path {
  double t0, t1, mu0, mu1;
} path;

static inline double path_t(const path *p, double sv) { return p->t0 + sv * (p->t1 - p->t0); }
static inline double path_mu(const path *p, double sv) { return p->mu0 + sv * (p->mu1 - p->mu0); }

/* Newton corrector at path parameter sv, from q (in place).  OK with *iters
 * and *res, or a failure status (q then undefined).
 * Line search on the out-of-balance work (Crisfield): with the Newton
 * direction δ = K⁻¹ r, s(α) = δᵀ r(q ⊕ αδ) is the slope of the energy along δ
 * (units J, consistent although δ mixes m and rad).  The full step is taken
 * if |s(1)| <= η |s(0)| (η = 0.8; always true near the solution, so the
 * quadratic convergence is kept), else α from regula falsi on s, at most
 * four tries, keeping the best.  This tames the overshoot of stiff shear and
 * extension far from the solution; it needs no energy, so follower loads
 * are fine. */
static cosrod_status correct(cosrod_statics *s, const path *pa, double sv, double *q, int *iters,
                             double *res) {
  const double t = path_t(pa, sv), mu = path_mu(pa, sv);
  const int nq = s->nq, nv = s->nv;
  double sc = 0.0, sc0 = 0.0;
  *iters = 0;
  cosrod_status st = statics_residual(s, t, mu, q, s->r, &sc);
  if (st != COSROD_OK) return st;
  sc0 = sc;
  for (int it = 0;; ++it) {
    *res = sc;
    if (sc <= s->opt.tol) return COSROD_OK;
    if (it >= s->opt.max_newton) return COSROD_ERR_CONVERGENCE;
    if (it >= 2 && sc > 1e3 * sc0) return COSROD_ERR_CONVERGENCE; /* diverging */
    st = solve_jacobian(s, t, mu, q, s->J);
    if (st != COSROD_OK) return st;
    st = cosrod_band_factor(s->J);
    if (st != COSROD_OK) return st;
    /* J δ = -r */
    double s0 = 0.0;
    for (int i = 0; i < nv; ++i) s->dv[i] = -s->r[i];
    cosrod_band_solve(s->J, s->dv);
    double wn = 0.0;
    for (int i = 0; i < nv; ++i) {
      if (!isfinite(s->dv[i])) return COSROD_ERR_NONFINITE;
      s0 += s->dv[i] * s->r[i];
      wn = fmax(wn, fabs(s->dv[i]) * s->wnorm[i]);
    }
    if (wn <= s->step_noise && sc <= 1e3 * s->opt.tol) {
      /* the residual is at its roundoff floor (stiff axial/shear forces of
       * a small-load problem): the correction is roundoff-sized, stop */
      cosrod_statics_apply(s, q, s->dv);
      s->nnewton++;
      *iters = it + 1;
      return COSROD_OK;
    }
    double alpha = 1.0, a_lo = 0.0, s_lo = s0;
    double best_a = 0.0, best_s = INFINITY, best_sc = 0.0;
    for (int ls = 0; ls < 5; ++ls) {
      memcpy(s->qw2, q, sizeof(double) * (size_t)nq);
      for (int i = 0; i < nv; ++i) s->rpl[i] = alpha * s->dv[i];
      cosrod_statics_apply(s, s->qw2, s->rpl);
      double sct = 0.0, sa = 0.0;
      st = statics_residual(s, t, mu, s->qw2, s->r2, &sct);
      if (st == COSROD_ERR_CALLBACK) return st;
      if (st == COSROD_OK) {
        for (int i = 0; i < nv; ++i) sa += s->dv[i] * s->r2[i];
        if (fabs(sa) < best_s) {
          best_s = fabs(sa), best_a = alpha, best_sc = sct;
          memcpy(s->qbest, s->qw2, sizeof(double) * (size_t)nq);
          memcpy(s->rbest, s->r2, sizeof(double) * (size_t)nv);
        }
        if (sct <= s->opt.tol || fabs(sa) <= s->eta * fabs(s0)) break;
        /* regula falsi between the bracket (a_lo, s_lo) and (alpha, sa) */
        double an = (sa * s_lo < 0.0) ? alpha - sa * (alpha - a_lo) / (sa - s_lo) : 0.5 * alpha;
        if (sa * s_lo >= 0.0) a_lo = alpha, s_lo = sa;
        alpha = fmin(fmax(an, 0.1 * alpha), 0.9 * alpha);
      } else {
        alpha *= 0.5; /* non-finite trial: shorten */
      }
    }
    if (best_s == INFINITY) return COSROD_ERR_NONFINITE;
    (void)best_a;
    memcpy(q, s->qbest, sizeof(double) * (size_t)nq);
    memcpy(s->r, s->rbest, sizeof(double) * (size_t)nv);
    sc = best_sc;
    s->nnewton++;
    *iters = it + 1;
  }
}

/* Chart coordinates δ (nv) of qa relative to q: q ⊕ δ = qa. */
static void chart_diff(const cosrod_statics *s, const double *q, const double *qa, double *delta) {
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *pt = &s->part[r];
    const cosrod_rod *rod = pt->rod;
    const double *qr = q + pt->q0, *qar = qa + pt->q0;
    double *dr = delta + pt->v0;
    for (int n = 0; n <= rod->N; ++n)
      for (int j = 0; j < rod->nd[n]; ++j) dr[rod->vv_ns[n] + j] = qar[rod->qv[n] + j] - qr[rod->qv[n] + j];
    for (int k = 0; k < rod->N; ++k) {
      double w[4];
      cosrod_quat_conj_mul(w, qr + rod->qs[k], qar + rod->qs[k]);
      cosrod_quat_to_rotvec(dr + rod->vs_ns[k], w);
    }
  }
}

/* Predictor from a converged q at sv over ds (q in place): the Euler step of
 * eq. 32, δ = ds q'; with qprev (converged at sv - dsp) and predictor 2 the
 * curvature term ½ ds² q'' of the Hermite interpolant through (qprev, q, q')
 * is added, limited to a quarter of the Euler step (weighted max norm) so a
 * path that turns quickly is not over-extrapolated. */
static cosrod_status predict(cosrod_statics *s, const path *pa, double sv, double ds, double *q,
                             const double *qprev, double dsp, int have_lu) {
  const double t = path_t(pa, sv), mu = path_mu(pa, sv);
  double hs = 1e-6 * (ds > 0 ? 1.0 : -1.0);
  cosrod_status st = statics_residual(s, t, mu, q, s->r, NULL);
  if (st != COSROD_OK) return st;
  st = statics_residual(s, path_t(pa, sv + hs), path_mu(pa, sv + hs), q, s->r2, NULL);
  if (st != COSROD_OK) return st;
  if (!have_lu) {
    st = solve_jacobian(s, t, mu, q, s->J);
    if (st != COSROD_OK) return st;
    st = cosrod_band_factor(s->J);
    if (st != COSROD_OK) return st;
  }
  /* J q' = -∂r/∂s */
  for (int i = 0; i < s->nv; ++i) s->dv[i] = -(s->r2[i] - s->r[i]) / hs;
  cosrod_band_solve(s->J, s->dv);
  if (s->opt.predictor >= 2 && qprev && dsp != 0.0) {
    chart_diff(s, q, qprev, s->r2);
    double n1 = 0.0, n2 = 0.0;
    for (int i = 0; i < s->nv; ++i) {
      double acc = 2.0 * (s->r2[i] + dsp * s->dv[i]) / (dsp * dsp);
      s->r2[i] = 0.5 * ds * ds * acc;
      s->dv[i] *= ds;
      n1 = fmax(n1, fabs(s->dv[i]) * s->wnorm[i]);
      n2 = fmax(n2, fabs(s->r2[i]) * s->wnorm[i]);
    }
    const double lim = 0.25;
    double c = n2 > lim * n1 ? lim * n1 / n2 : 1.0;
    for (int i = 0; i < s->nv; ++i) s->dv[i] += c * s->r2[i];
  } else {
    for (int i = 0; i < s->nv; ++i) s->dv[i] *= ds;
  }
  for (int i = 0; i < s->nv; ++i)
    if (!isfinite(s->dv[i])) return COSROD_ERR_NONFINITE;
  cosrod_statics_apply(s, q, s->dv);
  return COSROD_OK;
}

static void stats_add_counts(cosrod_statics *s, cosrod_statics_stats *st) {
  st->newton += s->nnewton;
  st->jacobians += s->njac;
  st->residuals += s->nres;
  s->nnewton = s->njac = s->nres = 0;
}

/* Number of negative eigenvalues of the symmetric part of K = -J (J
 * unfactored), by a banded LDLᵀ without pivoting (Sylvester's law of
 * inertia: the signs of D); -1 if a pivot vanishes (singular K).  Counting
 * instead of the sign of det K also sees double eigenvalues crossing zero
 * together (a column of circular section buckles in two planes at once).
 * Pivots within 1e-10 of their diagonal entry below zero are not counted. */
static int negative_eigenvalues(cosrod_statics *s, const cosrod_band *J) {
  const int n = J->n, b = s->ml > s->mu ? s->ml : s->mu, ld = b + 1;
  double *w = s->ldl;
  for (int j = 0; j < n; ++j)
    for (int i = j; i <= j + b; ++i) {
      double v = 0.0;
      if (i < n) {
        double a = cosrod_band_in_band(J, i, j) ? cosrod_band_get(J, i, j) : 0.0;
        double c = cosrod_band_in_band(J, j, i) ? cosrod_band_get(J, j, i) : 0.0;
        v = -0.5 * (a + c);
      }
      w[(size_t)j * ld + (size_t)(i - j)] = v;
    }
  for (int j = 0; j < n; ++j) s->kdiag[j] = fabs(w[(size_t)j * ld]);
  int neg = 0;
  for (int j = 0; j < n; ++j) {
    double *cj = w + (size_t)j * ld;
    double d = cj[0];
    if (!isfinite(d)) return -1;
    /* pivots within roundoff of zero (rigid null modes, lifted by the
     * 1e-12 diagonal shift) count as positive */
    if (d < -1e-10 * s->kdiag[j])
      ++neg;
    else if (d < 1e-14 * s->kdiag[j] || d == 0.0)
      d = s->kdiag[j] > 0.0 ? 1e-14 * s->kdiag[j] : 1e-300;
    int imax = j + b < n - 1 ? j + b : n - 1;
    for (int i = j + 1; i <= imax; ++i) {
      double aij = cj[i - j];
      if (aij == 0.0) continue;
      double f = aij / d;
      for (int k = j + 1; k <= i; ++k) w[(size_t)k * ld + (size_t)(i - k)] -= f * cj[k - j];
    }
  }
  return neg;
}

/* Stiffness at (sv, q), factored into s->J; *neg = negative eigenvalues of
 * the symmetric part of K (-1: singular). */
static cosrod_status factor_at(cosrod_statics *s, const path *pa, double sv, const double *q, int *neg) {
  cosrod_status st = solve_jacobian(s, path_t(pa, sv), path_mu(pa, sv), q, s->J);
  if (st != COSROD_OK) return st;
  *neg = negative_eigenvalues(s, s->J);
  return cosrod_band_factor(s->J);
}

/* Follow the path from sv = 0 (q converged there) to sv = 1.  Stability
 * monitor (opt.stop_at_critical): the number of negative eigenvalues of K
 * at each converged state is compared with the previous one; a change means
 * a limit or bifurcation point inside the increment, which is then halved
 * like a divergence, so that the solve ends with ERR_CONVERGENCE just before
 * the critical point instead of jumping onto an unstable or a remote
 * branch. */
static cosrod_status march(cosrod_statics *s, const path *pa, double *q, cosrod_statics_callback cb,
                           void *user, cosrod_statics_stats *stats, double tscale) {
  double sv = 0.0;
  double ds = 1.0 / s->opt.increments;
  if (ds > s->opt.max_increment) ds = s->opt.max_increment;
  memcpy(s->qc, q, sizeof(double) * (size_t)s->nq);
  int have_prev = 0, have_lu = 0, neg_c = 0; /* negative eigenvalues of K at qc */
  double dsp = 0.0;
  if (s->opt.stop_at_critical) {
    cosrod_status st = factor_at(s, pa, 0.0, s->qc, &neg_c);
    stats_add_counts(s, stats);
    if (st == COSROD_ERR_CALLBACK) return st;
    have_lu = st == COSROD_OK;
  }
  while (sv < 1.0) {
    if (sv + ds > 1.0 - 1e-9 * ds) ds = 1.0 - sv;
    /* land exactly on the next requested stop (t-paths only) */
    double ds_free = ds, s_target = sv + ds, t_stop = 0.0;
    int at_stop = 0;
    if (pa->t1 != pa->t0)
      for (int i = 0; i < s->opt.nstops; ++i) {
        double sst = (s->opt.stops[i] - pa->t0) / (pa->t1 - pa->t0);
        if (sst > sv + 1e-12 && sst < s_target - 1e-12) s_target = sst, at_stop = 1, t_stop = s->opt.stops[i];
      }
    if (at_stop) ds = s_target - sv;
    if (ds * tscale < stats->min_step || stats->min_step == 0.0) stats->min_step = ds * tscale;
    memcpy(s->qw, s->qc, sizeof(double) * (size_t)s->nq);
    int iters = 0, neg_n = neg_c, crossed = 0;
    double res = 0.0;
    cosrod_status st = COSROD_OK;
    if (s->opt.predictor) st = predict(s, pa, sv, ds, s->qw, have_prev ? s->qprev : NULL, dsp, have_lu);
    have_lu = 0;
    if (st == COSROD_OK) st = correct(s, pa, sv + ds, s->qw, &iters, &res);
    if (st == COSROD_OK && s->opt.stop_at_critical) {
      st = factor_at(s, pa, sv + ds, s->qw, &neg_n);
      if (st == COSROD_OK) {
        have_lu = 1;
        if (neg_n != neg_c || neg_n < 0) {
          crossed = 1;
          have_lu = 0;
        }
      } else if (st != COSROD_ERR_CALLBACK) {
        crossed = 1; /* singular stiffness at the new state: a critical point */
        st = COSROD_OK;
      }
    }
    stats_add_counts(s, stats);
    if (st == COSROD_ERR_CALLBACK) return st; /* fatal load callback */
    if (st != COSROD_OK || crossed) {
      stats->rejected++;
      if (crossed) stats->critical = 1;
      ds *= 0.5;
      if (ds < s->opt.min_increment) {
        memcpy(q, s->qc, sizeof(double) * (size_t)s->nq);
        return COSROD_ERR_CONVERGENCE;
      }
      continue;
    }
    stats->critical = 0;
    neg_c = neg_n;
    sv = ds == 1.0 - sv ? 1.0 : (at_stop ? s_target : sv + ds);
    { /* snap to the nominal grid k / increments (no drift: t = 0.24, not 0.24000000000000002) */
      double kk = nearbyint(sv * s->opt.increments);
      if (fabs(sv * s->opt.increments - kk) < 1e-9) sv = kk / s->opt.increments;
    }
    memcpy(s->qprev, s->qc, sizeof(double) * (size_t)s->nq);
    have_prev = 1;
    dsp = ds;
    memcpy(s->qc, s->qw, sizeof(double) * (size_t)s->nq);
    memcpy(q, s->qc, sizeof(double) * (size_t)s->nq);
    stats->increments++;
    if (iters > stats->max_iterations) stats->max_iterations = iters;
    stats->t = at_stop ? t_stop : path_t(pa, sv); /* stops reported exactly */
    stats->residual = res;
    if (cb && cb(user, stats->t, q, iters, res) != 0) return COSROD_ERR_INTERRUPTED;
    if (at_stop) ds = ds_free; /* a clipped increment does not shrink the next one */
    if (iters <= s->opt.fast_iterations) {
      ds *= s->opt.grow;
      if (ds > s->opt.max_increment) ds = s->opt.max_increment;
    }
  }
  return COSROD_OK;
}

/* Equilibrium at fixed t: Newton, else μ-continuation from the equilibrium
 * of the unloaded rod. */
static cosrod_status equilibrium(cosrod_statics *s, double t, double *q, cosrod_statics_stats *stats,
                                 int *iters, double *res) {
  path pt = {t, t, 1.0, 1.0};
  memcpy(s->q0, q, sizeof(double) * (size_t)s->nq);
  cosrod_status st = correct(s, &pt, 0.0, q, iters, res);
  stats_add_counts(s, stats);
  if (st == COSROD_OK || st == COSROD_ERR_CALLBACK) return st;
  memcpy(q, s->q0, sizeof(double) * (size_t)s->nq);
  path pm = {t, t, 0.0, 1.0};
  st = correct(s, &pm, 0.0, q, iters, res);
  stats_add_counts(s, stats);
  if (st != COSROD_OK) {
    if (st != COSROD_ERR_CALLBACK) memcpy(q, s->q0, sizeof(double) * (size_t)s->nq);
    return st;
  }
  cosrod_statics_stats sub;
  memset(&sub, 0, sizeof sub);
  st = march(s, &pm, q, NULL, NULL, &sub, 1.0);
  if (st != COSROD_OK && st != COSROD_ERR_CALLBACK) memcpy(q, s->q0, sizeof(double) * (size_t)s->nq);
  stats->critical = sub.critical;
  if (sub.min_step > 0.0 && (stats->min_step == 0.0 || sub.min_step < stats->min_step))
    stats->min_step = sub.min_step;
  stats->rejected += sub.rejected;
  stats->newton += sub.newton;
  stats->jacobians += sub.jacobians;
  stats->residuals += sub.residuals;
  if (sub.max_iterations > *iters) *iters = sub.max_iterations;
  *res = sub.residual;
  return st;
}

cosrod_status cosrod_statics_equilibrium_at(cosrod_statics *s, double t, double *q,
                                            cosrod_statics_stats *stats) {
  if (!s || !q) return COSROD_ERR_INVALID;
  cosrod_statics_stats loc;
  if (!stats) stats = &loc;
  memset(stats, 0, sizeof *stats);
  double t0 = now_seconds();
  int iters = 0;
  double res = 0.0;
  cosrod_status st = equilibrium(s, t, q, stats, &iters, &res);
  if (st == COSROD_OK) {
    stats->t = t;
    stats->residual = res;
    stats->max_iterations = iters;
  }
  stats->wall_time = now_seconds() - t0;
  return st;
}

cosrod_status cosrod_statics_solve(cosrod_statics *s, double *q, double t_from, double t_to,
                                   cosrod_statics_callback cb, void *user, cosrod_statics_stats *stats) {
  if (!s || !q) return COSROD_ERR_INVALID;
  cosrod_statics_stats loc;
  if (!stats) stats = &loc;
  memset(stats, 0, sizeof *stats);
  stats->t = t_from;
  double w0 = now_seconds();
  int iters = 0;
  double res = 0.0;
  cosrod_status st = equilibrium(s, t_from, q, stats, &iters, &res);
  if (st != COSROD_OK) {
    stats->wall_time = now_seconds() - w0;
    return st;
  }
  stats->residual = res;
  if (cb && cb(user, t_from, q, iters, res) != 0) {
    stats->wall_time = now_seconds() - w0;
    return COSROD_ERR_INTERRUPTED;
  }
  if (t_to != t_from) {
    path pa = {t_from, t_to, 1.0, 1.0};
    st = march(s, &pa, q, cb, user, stats, fabs(t_to - t_from));
  }
  stats->wall_time = now_seconds() - w0;
  return st;
}
