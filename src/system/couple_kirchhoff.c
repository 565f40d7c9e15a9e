// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff rods attached to rigid bodies ([manual: rigid bodies]).
 *
 * A Kirchhoff rod's constraint multipliers solve S λ = G a0 + h ([LA]
 * eq. 14 reduced to the Schur complement S = G A⁺ Gᵀ, rod_kirchhoff.c).
 * With an end on a body the end vertex is not prescribed but moves with
 * the body point c, whose acceleration depends on the rod's force on the
 * body, constraint force included: the coupled Schur complement is
 *     S_c = S_rod + G_c W G_cᵀ,
 * G_c the constraint rows' dependence on the end vertex and W the bodies'
 * inverse mass at the attachment points (cross terms between attachments on
 * one body or bodies joined to each other).  S_rod alone is singular for a
 * straight inextensible rod between a support and a body (its length fixes
 * the body, [LA] 4(a)), so the body cannot be a prescribed end here.
 *
 * Solution.  Every attached end gets the preconditioning mobility
 * D = I / m_b in the rod's S (cosrod_rod_kirchhoff_set_end_mobility), so
 * S' = S_rod + G_c D G_cᵀ is the S of a rod whose end vertex is a point mass
 * m_b; the rod is then evaluated with a given end acceleration z and
 * reports its end vertex acceleration x̄(z) = z - D (Gᵀλ)_e.  The coupled
 * solution is the z at which x̄ equals the body point's acceleration a_c(z)
 * (body right-hand side with the rod's wrench, sim_couple_att_accel):
 *     r(z) = a_c(z) - x̄(z) = 0,
 * which is affine in z (λ, the wrenches and the body accelerations are
 * affine in it).  ODE forms: r at z = 0 and at 3 n_a unit perturbations
 * give (I - K) z = Φ(0) exactly (K = ∂Φ/∂z, Φ(z) = z + r(z); Woodbury's
 * capacitance matrix of S_c = S' + G_c (W - D) G_cᵀ), then the final
 * evaluation at z: 3 n_a + 2 rod evaluations per right-hand side.  DAE
 * form: λ is a state, a_c does not depend on z (K = 0): two evaluations.
 *
 * Projection (after steps, and of the initial state): each rod is projected
 * onto its constraints with the mobility D, which moves the attached end by
 * Δc (positions) and Δċ (velocities); the body, free, is translated by them
 * (a correction in the metric of the body's mass), one rod after the other
 * (Gauss–Seidel over the rods on one body) until no end moves.  Bodies with
 * joints or driven by keyframes are fixed supports during the projection.
 * DAE: the multipliers are then those of the coupled ODE form.
 *
 * ida: residual F = M y' - f(y) from the coupled right-hand side; its
 * Jacobian -J + cj M from the DAE Jacobian of couple_kirchhoff_jac.c
 * (COSROD_KIRCHHOFF_JAC=fd: column-grouped differences over the band). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/vec3.h"
#include "system/system_model.h"

/* relative pivot of the coupled constraint system below which it counts as
 * rank deficient (the rod's own test: KIRCH_SINGULAR_RTOL, rod_kirchhoff.c) */
#define KCOUPLE_SINGULAR_RTOL 1e-10

struct sim_kcouple {
  int nk;        /* attachments of Kirchhoff rods to dynamic bodies */
  int *ka;       /* (nk) their attachment indices */
  int inner;     /* 1 while the coupled right-hand side evaluates sim_rhs */
  double *z;     /* (3 nk) end accelerations */
  double *phi0;  /* (3 nk) */
  double *phij;  /* (3 nk) */
  double *K;     /* (3 nk x 3 nk) I - ∂Φ/∂z, row-major, LU in place */
  int *piv;      /* (3 nk) */
  double *work;  /* (max(nm, 1)) */
  double *f;     /* (ny) scratch right-hand side */
  double *ipd;   /* (2 nk) mobility in use: 1 / m_b (0: fixed during projection) */
  double pivot_ratio; /* min/max |pivot| of the last LU of I - K (ODE-form solve) */
};

static double body_mass(const sys_system *s, int body) { return s->m->def->bodies[body].body.mass; }

cosrod_status sim_couple_kirch_create(sys_system *s) {
  if (!s->d->cpl) return COSROD_OK;
  size_t na = sim_couple_natt(s);
  int nk = 0;
  for (size_t i = 0; i < na; i++) {
    size_t r;
    int mb;
    sim_couple_att(s, i, &r, NULL, NULL, &mb);
    nk += mb >= 0 && cosrod_rod_kirchhoff_m(s->m->rods[r]) > 0;
  }
  if (nk == 0) return COSROD_OK;
  struct sim_kcouple *kc = calloc(1, sizeof *kc);
  if (!kc) return COSROD_ERR_NOMEM;
  s->d->kcp = kc;
  kc->nk = nk;
  int nz = 3 * nk, nm = sim_couple_nm(s);
  kc->ka = calloc((size_t)nk, sizeof *kc->ka);
  kc->z = calloc((size_t)nz, sizeof *kc->z);
  kc->phi0 = calloc((size_t)nz, sizeof *kc->phi0);
  kc->phij = calloc((size_t)nz, sizeof *kc->phij);
  kc->K = calloc((size_t)nz * (size_t)nz, sizeof *kc->K);
  kc->piv = calloc((size_t)nz, sizeof *kc->piv);
  kc->work = calloc((size_t)(nm > 0 ? nm : 1), sizeof *kc->work);
  kc->ipd = calloc((size_t)nk, sizeof *kc->ipd);
  if (!kc->ka || !kc->z || !kc->phi0 || !kc->phij || !kc->K || !kc->piv || !kc->work || !kc->ipd)
    return COSROD_ERR_NOMEM;
  int j = 0;
  for (size_t i = 0; i < na; i++) {
    size_t r;
    int e, b, mb;
    sim_couple_att(s, i, &r, &e, &b, &mb);
    if (mb < 0 || cosrod_rod_kirchhoff_m(s->m->rods[r]) == 0) continue;
    kc->ka[j] = (int)i;
    double im = 1.0 / body_mass(s, b), W[9] = {im, 0, 0, 0, im, 0, 0, 0, im};
    kc->ipd[j] = im;
    kc->pivot_ratio = 1.0;
    cosrod_status st = cosrod_rod_kirchhoff_set_end_mobility(s->m->rods[r], s->d->data[r], e, W);
    if (st != COSROD_OK) return st;
    j++;
  }
  return COSROD_OK;
}

void sim_couple_kirch_free(sys_system *s) {
  sim_couple_kirch_jac_free(s);
  struct sim_kcouple *kc = s->d->kcp;
  if (!kc) return;
  free(kc->ka);
  free(kc->z);
  free(kc->phi0);
  free(kc->phij);
  free(kc->K);
  free(kc->piv);
  free(kc->work);
  free(kc->f);
  free(kc->ipd);
  free(kc);
  s->d->kcp = NULL;
}

int sim_couple_kirch_outer(const sys_system *s) { return s->d->kcp && !s->d->kcp->inner; }

static void set_z(sys_system *s, const double *z) {
  const struct sim_kcouple *kc = s->d->kcp;
  for (int j = 0; j < kc->nk; j++) sim_couple_set_acc(s, (size_t)kc->ka[j], z + 3 * j);
}

/* One evaluation of sim_rhs at the current z; phi = Φ(z) = z + a_c - x̄. */
static int eval_phi(sys_system *s, double t, const double *y, double *ydot, double *phi) {
  struct sim_kcouple *kc = s->d->kcp;
  set_z(s, kc->z);
  kc->inner = 1;
  int rc = sim_rhs(t, y, ydot, s);
  kc->inner = 0;
  if (rc != 0 || !phi) return rc;
  for (int j = 0; j < kc->nk; j++) {
    size_t r;
    int e;
    sim_couple_att(s, (size_t)kc->ka[j], &r, &e, NULL, NULL);
    double ac[3];
    sim_couple_att_accel(s, (size_t)kc->ka[j], kc->work, ac);
    const double *xb = s->d->data[r]->xdd + 3 * (e ? cosrod_rod_nseg(s->m->rods[r]) : 0);
    for (int k = 0; k < 3; k++) phi[3 * j + k] = kc->z[3 * j + k] + ac[k] - xb[k];
  }
  return 0;
}

/* Dense LU with partial pivoting of the n x n row-major A; 0 or -1 (singular). */
static int lu_factor(double *A, int n, int *piv) {
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(A[i * n + k]) > fabs(A[p * n + k])) p = i;
    piv[k] = p;
    if (!(fabs(A[p * n + k]) > 0.0)) return -1;
    if (p != k)
      for (int j = 0; j < n; j++) {
        double tmp = A[k * n + j];
        A[k * n + j] = A[p * n + j];
        A[p * n + j] = tmp;
      }
    for (int i = k + 1; i < n; i++) {
      double l = A[i * n + k] /= A[k * n + k];
      for (int j = k + 1; j < n; j++) A[i * n + j] -= l * A[k * n + j];
    }
  }
  return 0;
}

static void lu_solve(const double *A, int n, const int *piv, double *b) {
  for (int k = 0; k < n; k++) {
    double tmp = b[k];
    b[k] = b[piv[k]];
    b[piv[k]] = tmp;
    for (int i = k + 1; i < n; i++) b[i] -= A[i * n + k] * b[k];
  }
  for (int k = n - 1; k >= 0; k--) {
    for (int j = k + 1; j < n; j++) b[k] -= A[k * n + j] * b[j];
    b[k] /= A[k * n + k];
  }
}

/* min |U_kk| / max |U_kk| of an LU-factored n x n matrix: the rank test
 * of the coupled constraint system (as the rod's own S, rod_kirchhoff.c) */
static double pivot_ratio(const double *A, int n) {
  double lo = INFINITY, hi = 0.0;
  for (int k = 0; k < n; k++) {
    lo = fmin(lo, fabs(A[k * n + k]));
    hi = fmax(hi, fabs(A[k * n + k]));
  }
  return hi > 0.0 ? lo / hi : 0.0;
}

/* Solve for z at (t, y) (the rods' and bodies' data are those of z
 * afterwards, ydot the coupled right-hand side). */
static int solve_z(sys_system *s, double t, const double *y, double *ydot, int dae) {
  struct sim_kcouple *kc = s->d->kcp;
  const int nz = 3 * kc->nk;
  memset(kc->z, 0, (size_t)nz * sizeof *kc->z);
  int rc = eval_phi(s, t, y, ydot, kc->phi0);
  if (rc != 0) return rc;
  if (!dae) {
    double sc = 1.0;
    for (int i = 0; i < nz; i++) sc = fmax(sc, fabs(kc->phi0[i]));
    for (int j = 0; j < nz; j++) {
      kc->z[j] = sc;
      if ((rc = eval_phi(s, t, y, ydot, kc->phij)) != 0) return rc;
      kc->z[j] = 0.0;
      for (int i = 0; i < nz; i++) kc->K[i * nz + j] = (i == j) - (kc->phij[i] - kc->phi0[i]) / sc;
    }
    if (lu_factor(kc->K, nz, kc->piv) != 0) {
      snprintf(s->d->msg, sizeof s->d->msg, "rods on bodies: singular coupled constraint system at t = %.17g", t);
      return 1;
    }
    kc->pivot_ratio = pivot_ratio(kc->K, nz);
    lu_solve(kc->K, nz, kc->piv, kc->phi0);
  }
  memcpy(kc->z, kc->phi0, (size_t)nz * sizeof *kc->z);
  return eval_phi(s, t, y, ydot, NULL);
}

int sim_couple_kirch_rhs(double t, const double *y, double *ydot, sys_system *s) {
  return solve_z(s, sim_tclamp(s, t), y, ydot, s->m->form == COSROD_FORM_DAE);
}

int sim_couple_kirch_prime(sys_system *s, double t, const double *y) {
  /* static analyses: at rest, nothing accelerates (the statics solver gives the multipliers) */
  return s->d->kcp && s->m->def->analysis == SYS_ANALYSIS_DYNAMIC ? solve_z(s, sim_tclamp(s, t), y, s->d->kcp->f, s->m->form == COSROD_FORM_DAE) : 0;
}

/* DAE: the multipliers of the coupled ODE (ABSOLUTE) form at the (q, v) of y:
 * z solved with the rods evaluated in the ODE form, λ read from them. */
static int dae_lambda(sys_system *s, double t, double *y) {
  if (!s->d->kcp) return 0;
  s->d->eval_ode = 1;
  /* the rods' ODE form reads the (q, v) part of each DAE rod vector: sim_rhs
   * gathers ny_r entries of which the ABSOLUTE rod uses the first 2 nq */
  int rc = solve_z(s, t, y, s->d->kcp->f, 0);
  s->d->eval_ode = 0;
  if (rc != 0) return rc;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    int m = cosrod_rod_kirchhoff_m(rod), N = cosrod_rod_nseg(rod), nq = cosrod_rod_nq(rod);
    const cosrod_rod_data *d = s->d->data[r];
    sim_gather(s, r, y, s->d->yl);
    for (int k = 0; k < N; k++) {
      s->d->yl[2 * nq + k] = d->lambda[k];
      for (int a = 0; a < m; a++) s->d->yl[2 * nq + N + m * k + a] = d->F[3 * k + a];
    }
    sim_scatter(s, r, s->d->yl, y);
  }
  return 0;
}

int sim_couple_kirch_project(double t, double *y, sys_system *s) {
  struct sim_kcouple *kc = s->d->kcp;
  t = sim_tclamp(s, t);
  const int prc = sim_couple_project(s, t, y); /* 0, COSROD_PROJECT_NEW_COORDINATES or -1 */
  if (prc < 0) return -1;
  /* fixed supports during the projection: bodies with joints */
  for (int j = 0; j < kc->nk; j++) {
    size_t r;
    int e, b;
    sim_couple_att(s, (size_t)kc->ka[j], &r, &e, &b, NULL);
    if (!sim_couple_movable(s, b)) cosrod_rod_kirchhoff_set_end_mobility(s->m->rods[r], s->d->data[r], e, NULL);
  }
  double Lmax = 0.0;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const double *g = cosrod_rod_grid(s->m->rods[r]);
    Lmax = fmax(Lmax, g[cosrod_rod_nseg(s->m->rods[r])] - g[0]);
  }
  int rc = 0;
  double shift = 0.0; /* largest end move of a pass, relative to L (velocities: times 1 ms) */
  for (int pass = 0; pass < 30 && rc == 0; pass++) {
    shift = 0.0;
    for (size_t r = 0; r < s->m->nrods && rc == 0; r++) {
      sim_couple_rhs_begin(s, t, y); /* body poses for the rod ends */
      sim_gather(s, r, y, s->d->yl);
      if (cosrod_rod_kirchhoff_project(s->m->rods[r], s->d->data[r], s->m->form, t, s->d->yl, 3, NULL) != COSROD_OK) {
        sim_kirchhoff_failure(s, r);
        rc = -1;
        break;
      }
      sim_scatter(s, r, s->d->yl, y);
      for (int j = 0; j < kc->nk; j++) {
        size_t rj;
        int e, b;
        sim_couple_att(s, (size_t)kc->ka[j], &rj, &e, &b, NULL);
        if (rj != r || !sim_couple_movable(s, b)) continue;
        double dx[3], dv[3];
        cosrod_rod_kirchhoff_take_end_shift(s->d->data[r], e, dx, dv);
        sim_couple_translate(s, b, dx, dv, y);
        shift = fmax(shift, cosrod_vec3_norm(dx) / fmax(Lmax, DBL_MIN));
        shift = fmax(shift, cosrod_vec3_norm(dv) * 1e-3 / fmax(Lmax, DBL_MIN));
      }
    }
    if (shift <= 1e-14) break;
  }
  for (int j = 0; j < kc->nk; j++) { /* mobilities back */
    size_t r;
    int e;
    sim_couple_att(s, (size_t)kc->ka[j], &r, &e, NULL, NULL);
    double im = kc->ipd[j], W[9] = {im, 0, 0, 0, im, 0, 0, 0, im};
    cosrod_rod_kirchhoff_set_end_mobility(s->m->rods[r], s->d->data[r], e, W);
  }
  if (rc != 0) return rc;
  if (shift > 1e-10) { /* e.g. a rod with both ends on one body: a translation cannot close it */
    snprintf(s->d->msg, sizeof s->d->msg,
             "rods on bodies: the projection onto the Kirchhoff constraints does not converge at t = %.17g "
             "(ends still moving by %.3g L after 30 passes)",
             t, shift);
    return -1;
  }
  if (strncmp(s->d->msg, "kinematic singularity", 21) == 0) s->d->msg[0] = '\0';
  if (s->m->form == COSROD_FORM_DAE && dae_lambda(s, t, y) != 0) return -1;
  return prc;
}

int sim_couple_kirch_lambda(sys_system *s, double t, double *y) { return dae_lambda(s, t, y); }

void sim_couple_kirch_mobility(sys_system *s, size_t r, int on) {
  const struct sim_kcouple *kc = s->d->kcp;
  for (int j = 0; kc && j < kc->nk; j++) {
    size_t rj;
    int e;
    sim_couple_att(s, (size_t)kc->ka[j], &rj, &e, NULL, NULL);
    if (rj != r) continue;
    double im = kc->ipd[j], W[9] = {im, 0, 0, 0, im, 0, 0, 0, im};
    cosrod_rod_kirchhoff_set_end_mobility(s->m->rods[r], s->d->data[r], e, on ? W : NULL);
  }
}

/* ---- ida with bodies -------------------------------------------------------- */

static int couple_res(double t, const double *y, const double *yp, double *res, void *user) {
  sys_system *s = user;
  int rc = sim_rhs(t, y, res, s);
  if (rc != 0) return rc;
  for (int i = 0; i < s->m->ny; i++) res[i] = s->m->dae_id[i] != 0.0 ? yp[i] - res[i] : -res[i];
  return 0;
}

cosrod_status sim_couple_kirch_setup(sys_system *s, char *err, size_t errlen) {
  if (!s->d->cpl) return COSROD_OK;
  cosrod_ode_problem *p = &s->mb->prob;
  /* DAE: the rods' analytic bands + central differences of the coupling
   * columns (couple_kirchhoff_jac.c); COSROD_KIRCHHOFF_JAC=fd (benchmarks):
   * forward differences over the whole coupled band */
  const char *kj = getenv("COSROD_KIRCHHOFF_JAC");
  const int ajac = s->m->form == COSROD_FORM_DAE && !s->m->split && sim_has_kirchhoff(s) && !(kj && !strcmp(kj, "fd"));
  if (ajac && sim_couple_kirch_jac_init(s) != 0) return COSROD_ERR_NOMEM;
  if (ajac) {
    p->jac = sim_couple_kirch_jac;
    p->jac_fills = 1;
  }
  if (s->m->dae_res) { /* the rods' residuals do not see the bodies: through the coupled right-hand side */
    if (!s->d->kwork && !(s->d->kwork = malloc(4 * (size_t)s->m->ny * sizeof *s->d->kwork))) return COSROD_ERR_NOMEM;
    p->res = couple_res;
    p->res_jac = ajac ? sim_couple_kirch_res_jac : sim_res_jac_fd; /* else differences of couple_res over the band */
    p->jac_banded = 1;
  }
  struct sim_kcouple *kc = s->d->kcp;
  if (!kc) return COSROD_OK;
  kc->f = calloc((size_t)s->m->ny, sizeof *kc->f);
  if (!kc->f) return COSROD_ERR_NOMEM;
  /* the consistent initial state of the coupled system (sim_kirchhoff_setup
   * projected each rod with its end's mobility: the ends' moves go to the
   * bodies, then all again until nothing moves) */
  for (int j = 0; j < kc->nk; j++) {
    size_t r;
    int e, b;
    sim_couple_att(s, (size_t)kc->ka[j], &r, &e, &b, NULL);
    double dx[3], dv[3];
    cosrod_rod_kirchhoff_take_end_shift(s->d->data[r], e, dx, dv);
    if (sim_couple_movable(s, b)) sim_couple_translate(s, b, dx, dv, s->d->y0);
  }
  if (sim_couple_kirch_project(0.0, s->d->y0, s) != 0) {
    char msg[1024];
    int fixed = 0; /* bodies that cannot move in the projection */
    for (int j = 0; j < kc->nk; j++) {
      int b;
      sim_couple_att(s, (size_t)kc->ka[j], NULL, NULL, &b, NULL);
      fixed |= !sim_couple_movable(s, b);
    }
    snprintf(msg, sizeof msg, "no consistent initial state of the rods on bodies (%s)%s",
             s->d->msg[0] ? s->d->msg : "projection failed",
             fixed ? "; a body with joints is a fixed support for the Kirchhoff constraints (not supported yet)" : "");
    if (err && errlen) sys_error(s->m->def, "rods", msg, err, errlen);
    return COSROD_ERR_CONVERGENCE;
  }
  /* DAE: the multipliers are states, so they must be unique.  Redundant
   * constraints (e.g. straight inextensible rods holding a body in a
   * symmetric star: the tensions of opposite pairs are statically
   * indeterminate) make the coupled S singular: the ODE forms still give
   * unique accelerations, the DAE's Newton matrix is singular. */
  if (s->m->form == COSROD_FORM_DAE && !(kc->pivot_ratio > KCOUPLE_SINGULAR_RTOL)) {
    char msg[400];
    snprintf(msg, sizeof msg,
             "dae: the Kirchhoff constraints of the rods on bodies are redundant at t = 0 (rank-deficient coupled "
             "constraint Jacobian, pivot ratio %.1e: the multipliers are not unique, e.g. straight inextensible "
             "rods holding a body); use formulation: nullspace or absolute",
             kc->pivot_ratio);
    if (err && errlen) sys_error(s->m->def, "solver.formulation", msg, err, errlen);
    return COSROD_ERR_UNSUPPORTED;
  }
  memcpy(s->d->y, s->d->y0, (size_t)s->m->ny * sizeof *s->d->y);
  return COSROD_OK;
}
