// SPDX-License-Identifier: Apache-2.0
/* Evaluation of the discrete Cosserat rod: one force stage shared by all
 * formulations, then the formulation-specific accelerations.
 *
 * Force stage (rod_eval_forces): kinematics from y (prescribed ends at t),
 * segment kernels ([LLA] eq. 23), vertex kernels ([LLA] eq. 26; clamped
 * ends through the ghost quaternion, Remark 3.1), gravity, loads and energies.
 * All forces are -∂(V + D)/∂q of the discrete potential V and dissipation
 * function D (rod_internal.h), so [LLA] eq. 29 is recovered on uniform grids.
 *
 * ABSOLUTE ([LLA] eqs. 21-22, 28): for each segment with Ī = ρΔs (I1, I2, J),
 * M(p) = μ(p) = 4 Q(p) Ī Q(p)ᵀ, the quaternion force including the inertia
 * terms ½∂_p(ṗᵀMṗ) - ∂_p(Mṗ)ṗ = -8 ṗ (Ī Im(p̄ṗ)) is
 *     F_p = ψ - 8 ṗ (Ī Im(p̄ ṗ)),
 * and the 5x5 block [M p; pᵀ 0] is inverted explicitly for any p != 0:
 *     p̈ = M⁺ F_p + p r/|p|²,   λ = <p, F_p>/|p|²,
 *     M⁺ f = p (Ī⁻¹ Im(p̄ f)) / (4|p|⁴),   r = -|ṗ|² - 2β<p,ṗ> - ω²(|p|²-1)/2
 * (r = -|ṗ|² without Baumgarte terms).
 * NULLSPACE ([L] Lemma 4.2): ṗ = ½ p Ω, Ī Ω̇ = ½ Im(p̄ ψ) - Ω × Ī Ω.
 * DAE ([LA] eq. 14): residual of q' = v, M v' + pλ = F_p, <p, p̈> + |ṗ|² = 0. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/par.h"
#include "rod/rod_internal.h"

cosrod_rod_data *cosrod_rod_data_create(const cosrod_rod *rod, cosrod_status *status) {
  cosrod_error_clear();
  if (!rod) return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_rod_data_create: no rod (NULL)");
  cosrod_rod_data *d = calloc(1, sizeof *d);
  if (!d) return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_rod_data_create: out of memory");
  int N = rod->N;
  size_t n1 = (size_t)N + 1, n0 = (size_t)N;
  d->N = N;
  d->x = calloc(3 * n1, sizeof(double));
  d->xd = calloc(3 * n1, sizeof(double));
  d->p = calloc(4 * n0, sizeof(double));
  d->pd = calloc(4 * n0, sizeof(double));
  d->Omega = calloc(3 * n0, sizeof(double));
  d->Gamma = calloc(3 * n0, sizeof(double));
  d->Gammad = calloc(3 * n0, sizeof(double));
  d->F = calloc(3 * n0, sizeof(double));
  d->K = calloc(3 * n1, sizeof(double));
  d->Kd = calloc(3 * n1, sizeof(double));
  d->M = calloc(3 * n1, sizeof(double));
  d->fx = calloc(3 * n1, sizeof(double));
  d->fp = calloc(4 * n0, sizeof(double));
  d->fload = calloc(3 * n1, sizeof(double));
  d->fcb = calloc(3 * n1, sizeof(double));
  d->mload = calloc(3 * n0, sizeof(double));
  d->xdd = calloc(3 * n1, sizeof(double));
  d->lambda = calloc(n0, sizeof(double));
  d->work = calloc(3 * (size_t)(2 * rod->nq + N), sizeof(double));
  d->jacw = calloc(rod_jac_work_size(rod), sizeof(double));
  d->parw = calloc(rod_par_work_size(N), sizeof(double));
  d->nthreads = 1;
  int kw_ok = 1;
  d->kw = rod_kirchhoff_work_create(rod, &kw_ok);
  if (!kw_ok ||
      !d->x || !d->xd || !d->p || !d->pd || !d->Omega || !d->Gamma || !d->Gammad || !d->F || !d->K ||
      !d->Kd || !d->M || !d->fx || !d->fp || !d->fload || !d->fcb || !d->mload || !d->xdd || !d->lambda || !d->work ||
      !d->jacw || !d->parw) {
    cosrod_rod_data_free(d);
    return cosrod_error_fail(status, COSROD_ERR_NOMEM, "cosrod_rod_data_create: out of memory (%d segments)", N);
  }
  if (status) *status = COSROD_OK;
  return d;
}

void cosrod_rod_data_free(cosrod_rod_data *d) {
  if (!d) return;
  free(d->x);
  free(d->xd);
  free(d->p);
  free(d->pd);
  free(d->Omega);
  free(d->Gamma);
  free(d->Gammad);
  free(d->F);
  free(d->K);
  free(d->Kd);
  free(d->M);
  free(d->fx);
  free(d->fp);
  free(d->fload);
  free(d->fcb);
  free(d->mload);
  free(d->xdd);
  free(d->lambda);
  free(d->work);
  free(d->jacw);
  free(d->parw);
  rod_kirchhoff_work_free(d->kw);
  free(d);
}

static double profile_factor(const cosrod_rod_load *l, double t) {
  return cosrod_profile_value(l->profile, l->t0, l->t1, t);
}

/* ψ += 2 p Mhat (material moment on a segment); returns its power <ψ, ṗ>. */
static double add_moment(double fp[4], const double p[4], const double pd[4], const double Mh[3]) {
  double r[4];
  cosrod_quat_mul_pure(r, p, Mh);
  rq_scale(r, 2.0, r);
  rq_axpy(fp, 1.0, r);
  return cosrod_quat_dot(r, pd);
}

/* Gravity on the vertex masses; returns its potential. */
static double eval_gravity(const cosrod_rod *rod, cosrod_rod_data *d) {
  double Vg = 0.0;
  const double *g = rod->gravity;
  if (g[0] != 0.0 || g[1] != 0.0 || g[2] != 0.0) {
    for (int n = 0; n <= rod->N; ++n) {
      double m = rod->mv[n];
      cosrod_vec3_axpy(d->fx + 3 * n, m, g);
      Vg -= m * cosrod_vec3_dot(g, d->x + 3 * n);
    }
  }
  return Vg;
}

/* One load l at time t into d->fload / d->mload. */
static void add_load(const cosrod_rod *rod, cosrod_rod_data *d, const cosrod_rod_load *l, double t) {
  const int N = rod->N;
  double s = profile_factor(l, t);
  if (s == 0.0) return;
  double val[3];
  cosrod_vec3_scale(val, s, l->value);
  int n = l->vertex;
  switch (l->kind) {
    case COSROD_LOAD_FORCE: {
      double f[3];
      if (l->frame == COSROD_FRAME_MATERIAL)
        cosrod_quat_rotate(f, d->p + 4 * (n == 0 ? 0 : n - 1), val);
      else
        cosrod_vec3_copy(f, val);
      cosrod_vec3_add(d->fload + 3 * n, d->fload + 3 * n, f);
      break;
    }
    case COSROD_LOAD_MOMENT: {
      int ka = n == 0 ? 0 : n - 1, kb = n == N ? N - 1 : n;
      double sc = ka == kb ? 1.0 : 0.5;
      int kk[2] = {ka, kb};
      for (int j = 0; j < (ka == kb ? 1 : 2); ++j) {
        double Mh[3];
        if (l->frame == COSROD_FRAME_MATERIAL)
          cosrod_vec3_copy(Mh, val);
        else
          cosrod_quat_rotate_inv(Mh, d->p + 4 * kk[j], val);
        cosrod_vec3_axpy(d->mload + 3 * kk[j], sc, Mh);
      }
      break;
    }
    default: { /* distributed force per length, lumped per segment */
      for (int k = 0; k < N; ++k) {
        double f[3];
        if (l->frame == COSROD_FRAME_MATERIAL)
          cosrod_quat_rotate(f, d->p + 4 * k, val);
        else
          cosrod_vec3_copy(f, val);
        double h = 0.5 * rod->ds[k];
        cosrod_vec3_axpy(d->fload + 3 * k, h, f);
        cosrod_vec3_axpy(d->fload + 3 * (k + 1), h, f);
      }
      break;
    }
  }
}

/* External loads and the load callback (if any): added to the forces, their
 * power to *Pext. */
static cosrod_status eval_loads(const cosrod_rod *rod, cosrod_rod_data *d, double t, int *cbret, double *Pext) {
  const int N = rod->N;
  if (!(rod->nloads > 0 || rod->load_fn)) return COSROD_OK;
  memset(d->fload, 0, sizeof(double) * 3 * (size_t)(N + 1));
  memset(d->mload, 0, sizeof(double) * 3 * (size_t)N);
  for (int i = 0; i < rod->nloads; ++i) add_load(rod, d, &rod->loads[i], t);
  if (rod->load_fn) { /* the callback's forces apart in d->fcb (statics keeps a reaction's unscaled) */
    memset(d->fcb, 0, sizeof(double) * 3 * (size_t)(N + 1));
    int r = rod->load_fn(rod->load_user, t, N, d->x, d->xd, d->p, d->Omega, d->fcb, d->mload);
    if (r != 0) {
      *cbret = r;
      return COSROD_ERR_CALLBACK;
    }
    for (int i = 0; i < 3 * (N + 1); ++i) d->fload[i] += d->fcb[i];
  }
  for (int n = 0; n <= N; ++n) {
    cosrod_vec3_add(d->fx + 3 * n, d->fx + 3 * n, d->fload + 3 * n);
    *Pext += cosrod_vec3_dot(d->fload + 3 * n, d->xd + 3 * n);
  }
  for (int k = 0; k < N; ++k) *Pext += add_moment(d->fp + 4 * k, d->p + 4 * k, d->pd + 4 * k, d->mload + 3 * k);
  return COSROD_OK;
}

/* Power of moving prescribed ends: reactions times prescribed velocities, to *Pext. */
static void end_power(const cosrod_rod *rod, const cosrod_rod_data *d, double *Pext) {
  for (int e = 0; e < 2; ++e) {
    const rod_end_model *em = &rod->end[e];
    int n = e == 0 ? 0 : rod->N;
    if (em->fixpos) {
      double r[3];
      double m = rod->mv[n];
      for (int j = 0; j < 3; ++j) r[j] = m * d->xedd[e][j] - d->fx[3 * n + j];
      if (em->slides) cosrod_vec3_axpy(r, -cosrod_vec3_dot(r, em->axis), em->axis);
      *Pext += cosrod_vec3_dot(r, d->xed[e]);
    }
    if (em->fixrot) *Pext -= cosrod_quat_dot(d->fe[e], d->ped[e]);
  }
}

/* Kinetic energies.  Rotational: the energy each formulation's equations
 * conserve (they agree for |p| = 1): ABSOLUTE/DAE ½ ρΔs ṗᵀμ(p)ṗ ([LLA]
 * eq. 27), NULLSPACE ½ Ωᵀ Ī Ω with Ī = ρΔs diag(I1, I2, J) ([L] Lemma 4.2),
 * which does not depend on |p|, so projecting p leaves it unchanged ([LA]
 * §4, Fig. 5). */
static void kinetic(const cosrod_rod *rod, const cosrod_rod_data *d, int ns, double *Tt, double *Tr) {
  for (int n = 0; n <= rod->N; ++n) *Tt += 0.5 * rod->mv[n] * cosrod_vec3_norm2(d->xd + 3 * n);
  for (int k = 0; k < rod->N; ++k) {
    const double *Ib = rod->Ib + 3 * k;
    if (ns) {
      const double *Om = d->Omega + 3 * k;
      *Tr += 0.5 * (Ib[0] * Om[0] * Om[0] + Ib[1] * Om[1] * Om[1] + Ib[2] * Om[2] * Om[2]);
    } else {
      double wq[4];
      cosrod_quat_conj_mul(wq, d->p + 4 * k, d->pd + 4 * k);
      *Tr += 2.0 * (Ib[0] * wq[1] * wq[1] + Ib[1] * wq[2] * wq[2] + Ib[2] * wq[3] * wq[3]);
    }
  }
}

cosrod_status rod_eval_forces(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                              const double *y, int *cbret) {
  const int N = rod->N;
  const int ns = form == COSROD_FORM_NULLSPACE;
  *cbret = 0;
  rod_stage_kinematics(rod, d, ns, t, y);
  memset(d->fx, 0, sizeof(double) * 3 * (size_t)(N + 1));
  memset(d->fp, 0, sizeof(double) * 4 * (size_t)N);
  memset(d->fe, 0, sizeof d->fe);
  double Vse = 0.0, Vbt = 0.0, Drate = 0.0, Pext = 0.0;
  const int damped = rod->has_damping;
  rod_stage_segments(rod, d, damped, &Vse, &Drate);
  rod_stage_vertices(rod, d, damped, &Vbt, &Drate);
  double Vg = eval_gravity(rod, d);
  cosrod_status st = eval_loads(rod, d, t, cbret, &Pext);
  if (st != COSROD_OK) return st;
  /* medium damping (before the reactions of prescribed ends, which carry it) */
  if (rod->cmed_t > 0.0 || rod->cmed_r > 0.0) Drate += rod_medium_forces(rod, d);
  end_power(rod, d, &Pext);
  double Tt = 0.0, Tr = 0.0;
  kinetic(rod, d, ns, &Tt, &Tr);
  d->energy.kinetic_trans = Tt;
  d->energy.kinetic_rot = Tr;
  d->energy.shear_ext = Vse;
  d->energy.bend_tors = Vbt;
  d->energy.gravity = Vg;
  d->energy.dissipation_rate = Drate;
  d->energy.external_power = Pext;
  d->nrhs++;
  return COSROD_OK;
}

cosrod_status cosrod_rod_eval(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                              const double *y) {
  if (!rod || !d || !y) return COSROD_ERR_INVALID;
  int cb;
  if (rod->model != COSROD_MODEL_COSSERAT) {
    /* Kirchhoff: the multipliers (d->F) come with the accelerations (DAE: those of y) */
    int rc = form == COSROD_FORM_NULLSPACE ? cosrod_rod_rhs_nullspace(rod, d, t, y, d->work)
             : form == COSROD_FORM_DAE     ? cosrod_rod_kirchhoff_rhs_dae(rod, d, t, y, d->work)
                                           : cosrod_rod_rhs_absolute(rod, d, t, y, d->work);
    return rc == 0 ? COSROD_OK : (d->nonfinite ? COSROD_ERR_NONFINITE : COSROD_ERR_SINGULAR);
  }
  return rod_eval_forces(rod, d, form, t, y, &cb);
}

/* Generalised force on a vertex coordinate and its acceleration. */
static inline void vertex_accel(const cosrod_rod *rod, const cosrod_rod_data *d, int n, double *a) {
  int nd = rod->nd[n];
  double m = rod->mv[n];
  const double *f = d->fx + 3 * n;
  if (nd == 3) {
    a[0] = f[0] / m;
    a[1] = f[1] / m;
    a[2] = f[2] / m;
  } else if (nd == 1) {
    int e = n == 0 ? 0 : 1;
    const double *ax = rod->end[e].axis;
    double r[3];
    for (int j = 0; j < 3; ++j) r[j] = f[j] - m * d->xedd[e][j];
    a[0] = cosrod_vec3_dot(r, ax) / m;
  }
}

/* Full vertex acceleration (spatial) of vertex n from its coordinate acceleration a. */
static inline void vertex_xdd(const cosrod_rod *rod, cosrod_rod_data *d, int n, const double *a) {
  int nd = rod->nd[n];
  double *r = d->xdd + 3 * n;
  if (nd == 3) {
    cosrod_vec3_copy(r, a);
    return;
  }
  int e = n == 0 ? 0 : 1;
  cosrod_vec3_copy(r, d->xedd[e]);
  if (nd == 1) cosrod_vec3_axpy(r, a[0], rod->end[e].axis);
}

/* Quaternion force with the inertia terms: F_p = ψ - 8 ṗ (Ī Im(p̄ṗ)). */
static inline void quat_force(double Fp[4], const double fp[4], const double p[4], const double pd[4],
                              const double Ib[3]) {
  double wq[4], g[3], r[4];
  cosrod_quat_conj_mul(wq, p, pd);
  g[0] = Ib[0] * wq[1];
  g[1] = Ib[1] * wq[2];
  g[2] = Ib[2] * wq[3];
  cosrod_quat_mul_pure(r, pd, g);
  for (int i = 0; i < 4; ++i) Fp[i] = fp[i] - 8.0 * r[i];
}

static int finite_check(cosrod_rod_data *d, const double *a, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(a[i])) {
      d->nonfinite++;
      return 1;
    }
  return 0;
}

/* Loops of the right-hand sides over vertices / segments (core/par.h):
 * every index writes only its own entries. */
typedef struct {
  const cosrod_rod *rod;
  cosrod_rod_data *d;
  const double *y;
  double *ydot;
} acc_ctx;

static void abs_vertices(void *vc, int n0, int n1) {
  const acc_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  double *acc = c->ydot + rod->nq;
  for (int n = n0; n < n1; ++n) {
    double a[3] = {0.0, 0.0, 0.0};
    if (rod->nd[n]) {
      vertex_accel(rod, c->d, n, acc + rod->qv[n]);
      for (int j = 0; j < rod->nd[n]; ++j) a[j] = acc[rod->qv[n] + j];
    }
    vertex_xdd(rod, c->d, n, a);
  }
}

static void abs_segments(void *vc, int k0, int k1) {
  const acc_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  cosrod_rod_data *d = c->d;
  double *acc = c->ydot + rod->nq;
  const double om = d->baumgarte_omega, br = d->baumgarte_r;
  for (int k = k0; k < k1; ++k) {
    const double *p = d->p + 4 * k, *pd = d->pd + 4 * k;
    double Fp[4];
    quat_force(Fp, d->fp + 4 * k, p, pd, rod->Ib + 3 * k);
    double n2 = cosrod_quat_norm2(p);
    double r = -cosrod_quat_norm2(pd);
    if (om != 0.0 || br != 0.0) r -= 2.0 * br * cosrod_quat_dot(p, pd) + 0.5 * om * om * (n2 - 1.0);
    double *a = acc + rod->qs[k];
    cosrod_quat_mass_sharp_apply(a, p, rod->Ib + 3 * k, Fp);
    rq_axpy(a, r / n2, p);
    d->lambda[k] = cosrod_quat_dot(p, Fp) / n2;
  }
}

static int acc_threads(const cosrod_rod *rod, const cosrod_rod_data *d) {
  return rod->N >= cosrod_rod_parallel_min_segments() ? d->nthreads : 1;
}

int rod_rhs_absolute_base(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                          double *ydot) {
  int cb;
  cosrod_status st = rod_eval_forces(rod, d, COSROD_FORM_ABSOLUTE, t, y, &cb);
  if (st != COSROD_OK) return cb != 0 ? cb : -1;
  const int N = rod->N, nq = rod->nq, nt = acc_threads(rod, d);
  memcpy(ydot, y + nq, sizeof(double) * (size_t)nq);
  acc_ctx c = {rod, d, y, ydot};
  cosrod_par_for(nt, N + 1, abs_vertices, &c);
  cosrod_par_for(nt, N, abs_segments, &c);
  return finite_check(d, ydot + nq, nq);
}

int cosrod_rod_rhs_absolute(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                            double *ydot) {
  int rc = rod_rhs_absolute_base(rod, d, t, y, ydot);
  if (rc == 0 && rod->model != COSROD_MODEL_COSSERAT)
    return rod_kirchhoff_accel(rod, d, COSROD_FORM_ABSOLUTE, t, y, ydot);
  return rc;
}

static void ns_vertices(void *vc, int n0, int n1) {
  const acc_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  const double *nu = c->y + rod->nq;
  double *acc = c->ydot + rod->nq;
  for (int n = n0; n < n1; ++n) {
    int nd = rod->nd[n];
    double a[3] = {0.0, 0.0, 0.0};
    if (nd) {
      int iq = rod->qv[n], iv = rod->vv_ns[n];
      for (int j = 0; j < nd; ++j) c->ydot[iq + j] = nu[iv + j];
      vertex_accel(rod, c->d, n, acc + iv);
      for (int j = 0; j < nd; ++j) a[j] = acc[iv + j];
    }
    vertex_xdd(rod, c->d, n, a);
  }
}

static void ns_segments(void *vc, int k0, int k1) {
  const acc_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  cosrod_rod_data *d = c->d;
  double *acc = c->ydot + rod->nq;
  for (int k = k0; k < k1; ++k) {
    const double *p = d->p + 4 * k, *Om = d->Omega + 3 * k, *Ib = rod->Ib + 3 * k;
    cosrod_quat_copy(c->ydot + rod->qs[k], d->pd + 4 * k);
    double tau[3], IO[3], cr[3];
    cosrod_quat_tmat_T_apply(tau, p, d->fp + 4 * k);
    IO[0] = Ib[0] * Om[0];
    IO[1] = Ib[1] * Om[1];
    IO[2] = Ib[2] * Om[2];
    cosrod_vec3_cross(cr, Om, IO);
    double *a = acc + rod->vs_ns[k];
    a[0] = (tau[0] - cr[0]) / Ib[0];
    a[1] = (tau[1] - cr[1]) / Ib[1];
    a[2] = (tau[2] - cr[2]) / Ib[2];
    double Fp[4];
    quat_force(Fp, d->fp + 4 * k, p, d->pd + 4 * k, Ib);
    d->lambda[k] = cosrod_quat_dot(p, Fp) / cosrod_quat_norm2(p);
  }
}

int cosrod_rod_rhs_nullspace(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                             double *ydot) {
  int cb;
  cosrod_status st = rod_eval_forces(rod, d, COSROD_FORM_NULLSPACE, t, y, &cb);
  if (st != COSROD_OK) return cb != 0 ? cb : -1;
  const int N = rod->N, nq = rod->nq, nt = acc_threads(rod, d);
  acc_ctx c = {rod, d, y, ydot};
  cosrod_par_for(nt, N + 1, ns_vertices, &c);
  cosrod_par_for(nt, N, ns_segments, &c);
  if (rod->model != COSROD_MODEL_COSSERAT && !finite_check(d, ydot, nq + rod->nv_ns))
    return rod_kirchhoff_accel(rod, d, COSROD_FORM_NULLSPACE, t, y, ydot);
  return finite_check(d, ydot, nq + rod->nv_ns);
}

int cosrod_rod_res_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y, const double *yp,
                       double *res) {
  int cb;
  if (rod->model != COSROD_MODEL_COSSERAT) return rod_kirchhoff_res_dae(rod, d, t, y, yp, res);
  cosrod_status st = rod_eval_forces(rod, d, COSROD_FORM_DAE, t, y, &cb);
  if (st != COSROD_OK) return cb != 0 ? cb : -1;
  const int N = rod->N, nq = rod->nq;
  const double *v = y + nq, *vp = yp + nq, *lam = y + 2 * nq;
  for (int i = 0; i < nq; ++i) res[i] = yp[i] - v[i];
  double *rv = res + nq, *rl = res + 2 * nq;
  for (int n = 0; n <= N; ++n) {
    int nd = rod->nd[n];
    if (!nd) continue;
    int iq = rod->qv[n];
    double a[3];
    vertex_accel(rod, d, n, a);
    for (int j = 0; j < nd; ++j) rv[iq + j] = rod->mv[n] * (vp[iq + j] - a[j]);
  }
  for (int k = 0; k < N; ++k) {
    const double *p = d->p + 4 * k, *pd = d->pd + 4 * k, *Ib = rod->Ib + 3 * k;
    const double *pdd = vp + rod->qs[k];
    double Fp[4], Ma[4];
    quat_force(Fp, d->fp + 4 * k, p, pd, Ib);
    cosrod_quat_mass_apply(Ma, p, Ib, pdd);
    double *r = rv + rod->qs[k];
    for (int i = 0; i < 4; ++i) r[i] = Ma[i] + lam[k] * p[i] - Fp[i];
    rl[k] = cosrod_quat_dot(p, pdd) + cosrod_quat_norm2(pd);
  }
  return finite_check(d, res, 2 * nq + N);
}

cosrod_status cosrod_rod_lambda(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                                const double *y, double *lambda) {
  if (!rod || !d || !y || !lambda) return COSROD_ERR_INVALID;
  if (rod->model != COSROD_MODEL_COSSERAT && form == COSROD_FORM_DAE)
    return rod_kirchhoff_lambda_dae(rod, d, t, y, lambda);
  int cb;
  cosrod_status st = rod_eval_forces(rod, d, form, t, y, &cb);
  if (st != COSROD_OK) return st;
  for (int k = 0; k < rod->N; ++k) {
    const double *p = d->p + 4 * k;
    double Fp[4];
    quat_force(Fp, d->fp + 4 * k, p, d->pd + 4 * k, rod->Ib + 3 * k);
    lambda[k] = cosrod_quat_dot(p, Fp) / cosrod_quat_norm2(p);
  }
  return COSROD_OK;
}
