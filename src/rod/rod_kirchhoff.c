// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff rods as constrained Cosserat rods ([LA] §2–4, [LLA] Remark 3.4,
 * [manual: modelling guide]; see the Kirchhoff section of rod.h).
 *
 * Per segment k the constraints are g_k = E (c_k - Δs_k (Γ0_k + e3)) with
 * c = Im(p̄ Δx p) (= Δs (Γ + e3) for |p| = 1) and E the first m = 2
 * (extensible) or 3 (inextensible) rows.  Their velocity Jacobian G couples
 * the two vertices of the segment and its rotation:
 *     ġ = E (Rᵀ (ẋ_{k+1} - ẋ_k) + J_r ṙ),  Rᵀ v = Im(p̄ v p),
 *     ABSOLUTE  ṙ = ṗ:  J_r ṗ = 2 Im(p̄ Δx ṗ),
 *     NULLSPACE ṙ = Ω:  J_r Ω = c × Ω          (ṗ = ½ p Ω),
 * and g̈ = G r̈ + h with the velocity terms
 *     ABSOLUTE  h = 4 Im(p̄ Δẋ ṗ) + 2 Im(ṗ̄ Δx ṗ),
 *     NULLSPACE h = 2 u × Ω + Ω × (Ω × c),  u = Im(p̄ Δẋ p).
 * With A⁺ the inverse mass of the Cosserat formulation (vertices: P_n/m_n,
 * P_n the identity, the slide axis projector or 0; rotations: the tangential
 * inverse μ⁺(p) of [LLA] eq. 28 or Ī⁻¹), the index-1 system [M Gᵀ; G 0]
 * ([LA] eq. 14, Fig. 4a) reduces to the Schur complement S = G A⁺ Gᵀ, block
 * tridiagonal with m x m blocks (segments k, k+1 share vertex k+1):
 *     S_kk     = Rᵀ_k (W_k + W_{k+1}) R_k + J_r A⁺_r J_rᵀ,   W_n = P_n/m_n,
 *     S_k,k+1  = -Rᵀ_k W_{k+1} R_{k+1},
 * a band matrix (half bandwidths 2m - 1) factorised by the banded LU.  The
 * same S serves the accelerations (S λ = G a0 + h), the position projection
 * (simplified Newton, S λ = g, Δq = -A⁺ Gᵀ λ, [LA] eq. 26) and the velocity
 * projection (S λ = ġ).  With the scaling g = Δs (Γ - Γ0) the multiplier is
 * the constrained stress resultant: the force on x_{k+1} is -R λ, as the
 * elastic -R F of rod_seg_kernel. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "rod/rod_kirchhoff_internal.h"

/* relative pivot size of S below which G counts as rank deficient */
#define KIRCH_SINGULAR_RTOL 1e-10

/* ---- queries ----------------------------------------------------------------- */

cosrod_rod_model cosrod_rod_model_of(const cosrod_rod *rod) {
  return rod ? rod->model : COSROD_MODEL_COSSERAT;
}

int cosrod_rod_kirchhoff_m(const cosrod_rod *rod) {
  if (!rod) return 0;
  return rod->model == COSROD_MODEL_KIRCHHOFF_EXTENSIBLE     ? 2
         : rod->model == COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE ? 3
                                                             : 0;
}

int cosrod_rod_kirchhoff_singular(const cosrod_rod_data *d, double *t) {
  if (!d || !d->kw || d->kw->singular_seg < 0) return -1;
  if (t) *t = d->kw->singular_t;
  return d->kw->singular_seg;
}

/* ---- workspace ---------------------------------------------------------------- */

struct rod_kirchhoff_work *rod_kirchhoff_work_create(const cosrod_rod *rod, int *ok) {
  *ok = 1;
  int m = cosrod_rod_kirchhoff_m(rod);
  if (m == 0) return NULL;
  struct rod_kirchhoff_work *kw = calloc(1, sizeof *kw);
  if (!kw) {
    *ok = 0;
    return NULL;
  }
  int N = rod->N, n = m * N, bw = 2 * m - 1 < n - 1 ? 2 * m - 1 : n - 1;
  size_t n0 = (size_t)N, n1 = (size_t)N + 1;
  kw->m = m;
  kw->singular_seg = -1;
  kw->S = cosrod_band_create(n, bw, bw, NULL);
  kw->Rt = calloc(9 * n0, sizeof(double));
  kw->Jr = calloc(12 * n0, sizeof(double));
  kw->Br = calloc(12 * n0, sizeof(double));
  kw->rhs = calloc((size_t)n, sizeof(double));
  kw->gtl = calloc(3 * n1, sizeof(double));
  kw->xs = calloc(3 * n1, sizeof(double));
  kw->ps = calloc(4 * n0, sizeof(double));
  kw->vs = calloc(3 * n1, sizeof(double));
  kw->rs = calloc(4 * n0, sizeof(double));
  if (!kw->S || !kw->Rt || !kw->Jr || !kw->Br || !kw->rhs || !kw->gtl || !kw->xs || !kw->ps || !kw->vs ||
      !kw->rs) {
    rod_kirchhoff_work_free(kw);
    *ok = 0;
    return NULL;
  }
  return kw;
}

void rod_kirchhoff_work_free(struct rod_kirchhoff_work *kw) {
  if (!kw) return;
  cosrod_band_free(kw->S);
  free(kw->Rt);
  free(kw->Jr);
  free(kw->Br);
  free(kw->rhs);
  free(kw->gtl);
  free(kw->xs);
  free(kw->ps);
  free(kw->vs);
  free(kw->rs);
  free(kw);
}

/* ---- blocks and the Schur complement ------------------------------------------ */

/* r = W_n v = P_n v / m_n (spatial, 3); an attached end: its mobility. */
static void vertex_w(const cosrod_rod *rod, const struct rod_kirchhoff_work *kw, int n, const double v[3],
                     double r[3]) {
  int nd = rod->nd[n];
  int e = n == 0 ? 0 : n == rod->N ? 1 : -1;
  if (nd == 0 && e >= 0 && kw->mob_on[e]) {
    const double *W = kw->mob[e];
    for (int i = 0; i < 3; ++i) r[i] = W[3 * i] * v[0] + W[3 * i + 1] * v[1] + W[3 * i + 2] * v[2];
    return;
  }
  double im = 1.0 / rod->mv[n];
  if (nd == 3) {
    cosrod_vec3_scale(r, im, v);
  } else if (nd == 1) {
    const double *a = rod->end[n == 0 ? 0 : 1].axis;
    cosrod_vec3_scale(r, im * cosrod_vec3_dot(a, v), a);
  } else {
    r[0] = r[1] = r[2] = 0.0;
  }
}

/* Blocks Rᵀ_k, J_r, A⁺_r J_rᵀ of segment k at the positions x (full) and
 * quaternion p. */
void rod_kirchhoff_seg_blocks(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, cosrod_rod_form form,
                              int k, const double *x, const double *p) {
  double *Rt = kw->Rt + 9 * k, *Jr = kw->Jr + 12 * k, *Br = kw->Br + 12 * k;
  const double *Ib = rod->Ib + 3 * k;
  double dx[3];
  cosrod_vec3_sub(dx, x + 3 * (k + 1), x + 3 * k);
  for (int j = 0; j < 3; ++j) {
    double e[3] = {0.0, 0.0, 0.0}, c[3];
    e[j] = 1.0;
    cosrod_quat_rotate_inv(c, p, e);
    for (int i = 0; i < 3; ++i) Rt[3 * i + j] = c[i];
  }
  if (form == COSROD_FORM_NULLSPACE) {
    double c[3];
    cosrod_quat_rotate_inv(c, p, dx);
    /* J_r = [c]x */
    const double C[9] = {0.0, -c[2], c[1], c[2], 0.0, -c[0], -c[1], c[0], 0.0};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Jr[4 * i + j] = C[3 * i + j];
        Br[3 * j + i] = C[3 * i + j] / Ib[j];
      }
  } else {
    double qd[4], w[4];
    cosrod_quat_pure(qd, dx);
    cosrod_quat_conj_mul(w, p, qd); /* p̄ Δx */
    for (int j = 0; j < 4; ++j) {
      double e[4] = {0.0, 0.0, 0.0, 0.0}, r[4];
      e[j] = 1.0;
      cosrod_quat_mul(r, w, e);
      for (int i = 0; i < 3; ++i) Jr[4 * i + j] = 2.0 * r[i + 1];
    }
    for (int i = 0; i < 3; ++i) {
      double r[4];
      cosrod_quat_mass_sharp_apply(r, p, Ib, Jr + 4 * i);
      for (int j = 0; j < 4; ++j) Br[3 * j + i] = r[j];
    }
  }
}

/* Assemble S from the blocks of every segment (rod_kirchhoff_seg_blocks done) and factor
 * it; 0, or -1 at a kinematic singularity (kw->singular_* set at time t). */
int rod_kirchhoff_assemble_factor(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, cosrod_rod_form form,
                                  double t) {
  const int N = rod->N, m = kw->m, nr = form == COSROD_FORM_NULLSPACE ? 3 : 4;
  cosrod_band *S = kw->S;
  cosrod_band_zero(S);
  for (int k = 0; k < N; ++k) {
    const double *Rt = kw->Rt + 9 * k, *Jr = kw->Jr + 12 * k, *Br = kw->Br + 12 * k;
    for (int b = 0; b < m; ++b) {
      double wa[3], wb[3], tmp[3];
      vertex_w(rod, kw, k, Rt + 3 * b, wa);
      vertex_w(rod, kw, k + 1, Rt + 3 * b, wb);
      cosrod_vec3_add(tmp, wa, wb);
      for (int a = 0; a < m; ++a) {
        double v = cosrod_vec3_dot(Rt + 3 * a, tmp);
        for (int j = 0; j < nr; ++j) v += Jr[4 * a + j] * Br[3 * j + b];
        cosrod_band_set(S, m * k + a, m * k + b, v);
      }
      if (k + 1 < N) {
        const double *Rn = kw->Rt + 9 * (k + 1);
        vertex_w(rod, kw, k + 1, Rn + 3 * b, wb);
        for (int a = 0; a < m; ++a) {
          double v = -cosrod_vec3_dot(Rt + 3 * a, wb);
          cosrod_band_set(S, m * k + a, m * (k + 1) + b, v);
          cosrod_band_set(S, m * (k + 1) + b, m * k + a, v);
        }
      }
    }
  }
  double smax = 0.0;
  for (int i = 0; i < S->n; ++i) {
    double v = fabs(cosrod_band_get(S, i, i));
    if (v > smax) smax = v;
  }
  cosrod_status st = cosrod_band_factor(S);
  int bad = -1;
  if (st != COSROD_OK || !(smax > 0.0)) {
    bad = S->singular_col >= 0 ? S->singular_col : 0;
  } else {
    for (int i = 0; i < S->n; ++i)
      if (!(fabs(cosrod_band_get(S, i, i)) > KIRCH_SINGULAR_RTOL * smax)) {
        bad = i;
        break;
      }
  }
  if (bad >= 0) {
    kw->singular_seg = bad / m;
    kw->singular_t = t;
    return -1;
  }
  kw->singular_seg = -1;
  return 0;
}

/* Gᵀλ: vertex part into kw->gtl ((N+1) x 3, spatial); the rotation part
 * is applied by the callers through Br. */
void rod_kirchhoff_g_transpose(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, const double *lam) {
  const int N = rod->N, m = kw->m;
  memset(kw->gtl, 0, sizeof(double) * 3 * (size_t)(N + 1));
  for (int k = 0; k < N; ++k) {
    const double *Rt = kw->Rt + 9 * k;
    double f[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < m; ++a) cosrod_vec3_axpy(f, lam[m * k + a], Rt + 3 * a);
    cosrod_vec3_add(kw->gtl + 3 * (k + 1), kw->gtl + 3 * (k + 1), f);
    cosrod_vec3_sub(kw->gtl + 3 * k, kw->gtl + 3 * k, f);
  }
}

/* base[...] -= A⁺ Gᵀ λ on the vertex coordinates (offsets voff) and on the
 * rotation part (offsets roff, nr components), after g_transpose.  quat_from_angle:
 * the rotation correction δθ (NULLSPACE positions) is applied to the
 * quaternion at base + roff[k] as ½ p δθ.  Spatial vertex changes are added to
 * xsp ((N+1) x 3) if not NULL; returns the largest vertex change. */
double rod_kirchhoff_apply_correction(const cosrod_rod *rod, struct rod_kirchhoff_work *kw,
                                      cosrod_rod_form form, const double *lam, double *base, const int *voff,
                                      const int *roff, int quat_from_angle, double *xsp,
                                      double (*eshift)[3]) {
  const int N = rod->N, m = kw->m, nr = form == COSROD_FORM_NULLSPACE ? 3 : 4;
  double moved = 0.0;
  for (int n = 0; n <= N; ++n) {
    int nd = rod->nd[n];
    if (!nd) {
      int e = n == 0 ? 0 : n == N ? 1 : -1;
      if (e < 0 || !kw->mob_on[e]) continue;
      double dv[3]; /* attached end: the support moves */
      vertex_w(rod, kw, n, kw->gtl + 3 * n, dv);
      if (xsp) cosrod_vec3_sub(xsp + 3 * n, xsp + 3 * n, dv);
      if (eshift) cosrod_vec3_sub(eshift[e], eshift[e], dv);
      double nv = cosrod_vec3_norm(dv);
      if (nv > moved) moved = nv;
      continue;
    }
    double dv[3];
    vertex_w(rod, kw, n, kw->gtl + 3 * n, dv);
    double *b = base + voff[n];
    if (nd == 3) {
      for (int j = 0; j < 3; ++j) b[j] -= dv[j];
    } else {
      b[0] -= cosrod_vec3_dot(dv, rod->end[n == 0 ? 0 : 1].axis);
    }
    if (xsp) cosrod_vec3_sub(xsp + 3 * n, xsp + 3 * n, dv);
    double nv = cosrod_vec3_norm(dv);
    if (nv > moved) moved = nv;
  }
  for (int k = 0; k < N; ++k) {
    const double *Br = kw->Br + 12 * k;
    double dr[4] = {0.0, 0.0, 0.0, 0.0};
    for (int j = 0; j < nr; ++j)
      for (int a = 0; a < m; ++a) dr[j] += Br[3 * j + a] * lam[m * k + a];
    double *b = base + roff[k];
    if (quat_from_angle) {
      double dp[4];
      cosrod_quat_pdot(dp, b, dr);
      for (int j = 0; j < 4; ++j) b[j] -= dp[j];
    } else {
      for (int j = 0; j < nr; ++j) b[j] -= dr[j];
    }
  }
  return moved;
}

/* ---- accelerations ------------------------------------------------------------ */

/* out (m N) = G_k acc + h_k (+ Baumgarte) of every segment: g̈ for the
 * accelerations acc (rotation part, offsets roff) and d->xdd (vertices,
 * spatial); blocks of every segment computed (seg_blocks at d). */
static void accel_terms(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, const cosrod_rod_data *d,
                        cosrod_rod_form form, const double *acc, const int *roff, double *out) {
  const int N = rod->N, m = kw->m, ns = form == COSROD_FORM_NULLSPACE;
  const double om = ns ? 0.0 : d->baumgarte_omega, br = ns ? 0.0 : d->baumgarte_r;
  for (int k = 0; k < N; ++k) {
    const double *p = d->p + 4 * k, *pd = d->pd + 4 * k;
    const double *Rt = kw->Rt + 9 * k, *Jr = kw->Jr + 12 * k;
    double dx[3], dxd[3], dxdd[3], u[3], h[3];
    cosrod_vec3_sub(dx, d->x + 3 * (k + 1), d->x + 3 * k);
    cosrod_vec3_sub(dxd, d->xd + 3 * (k + 1), d->xd + 3 * k);
    cosrod_vec3_sub(dxdd, d->xdd + 3 * (k + 1), d->xdd + 3 * k);
    if (ns) {
      const double *Om = d->Omega + 3 * k;
      double c[3], w[3], t1[3], t2[3];
      cosrod_quat_rotate_inv(c, p, dx);
      cosrod_quat_rotate_inv(u, p, dxd);
      cosrod_vec3_cross(t1, u, Om);
      cosrod_vec3_cross(w, Om, c);
      cosrod_vec3_cross(t2, Om, w);
      for (int i = 0; i < 3; ++i) h[i] = 2.0 * t1[i] + t2[i];
    } else {
      double qa[4], w[4], r1[4], pc[4], r2[4];
      cosrod_quat_pure(qa, dxd);
      cosrod_quat_conj_mul(w, p, qa);
      cosrod_quat_mul(r1, w, pd); /* p̄ Δẋ ṗ */
      cosrod_quat_pure(qa, dx);
      cosrod_quat_conj_mul(pc, pd, qa);
      cosrod_quat_mul(r2, pc, pd); /* ṗ̄ Δx ṗ */
      for (int i = 0; i < 3; ++i) h[i] = 4.0 * r1[i + 1] + 2.0 * r2[i + 1];
    }
    const double *r0 = acc + roff[k];
    const int nr = ns ? 3 : 4;
    for (int a = 0; a < m; ++a) {
      double v = cosrod_vec3_dot(Rt + 3 * a, dxdd) + h[a];
      for (int j = 0; j < nr; ++j) v += Jr[4 * a + j] * r0[j];
      if (om != 0.0 || br != 0.0) { /* g̈ + 2 r ġ + ω² g = 0 */
        double gd = cosrod_vec3_dot(Rt + 3 * a, dxd), c[3];
        for (int j = 0; j < 4; ++j) gd += Jr[4 * a + j] * pd[j];
        cosrod_quat_rotate_inv(c, p, dx);
        double g = c[a] - rod->ds[k] * (rod->G0[3 * k + a] + (a == 2 ? 1.0 : 0.0));
        v += 2.0 * br * gd + om * om * g;
      }
      out[m * k + a] = v;
    }
  }
}

/* The multipliers lam (m N) as the constrained components of d->F, and
 * (ABSOLUTE) their share of the quaternion multiplier, λ_post = <p, F_p -
 * J_rᵀλ>/|p|² (d->lambda holds <p, F_p>/|p|² on entry). */
static void store_multipliers(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, cosrod_rod_data *d,
                              cosrod_rod_form form, const double *lam) {
  const int N = rod->N, m = kw->m;
  for (int k = 0; k < N; ++k) {
    for (int a = 0; a < m; ++a) d->F[3 * k + a] = lam[m * k + a];
    if (form != COSROD_FORM_NULLSPACE) {
      const double *p = d->p + 4 * k, *Jr = kw->Jr + 12 * k;
      double s = 0.0;
      for (int a = 0; a < m; ++a) s += lam[m * k + a] * cosrod_quat_dot(Jr + 4 * a, p);
      d->lambda[k] -= s / cosrod_quat_norm2(p);
    }
  }
}

int rod_kirchhoff_accel(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                        const double *y, double *ydot) {
  (void)y;
  struct rod_kirchhoff_work *kw = d->kw;
  if (!kw) return -1;
  const int N = rod->N, nq = rod->nq, ns = form == COSROD_FORM_NULLSPACE;
  const int *voff = ns ? rod->vv_ns : rod->qv, *roff = ns ? rod->vs_ns : rod->qs;
  double *acc = ydot + nq;
  for (int k = 0; k < N; ++k) rod_kirchhoff_seg_blocks(rod, kw, form, k, d->x, d->p + 4 * k);
  accel_terms(rod, kw, d, form, acc, roff, kw->rhs);
  /* singular S inside a step: recoverable (a trial stage of an explicit
   * method may be wild; the integrator retries with a smaller step); a
   * singular accepted state fails in the projection */
  if (rod_kirchhoff_assemble_factor(rod, kw, form, t) != 0) {
    d->nonfinite++;
    return 1;
  }
  cosrod_band_solve(kw->S, kw->rhs);
  const double *lam = kw->rhs;
  rod_kirchhoff_g_transpose(rod, kw, lam);
  rod_kirchhoff_apply_correction(rod, kw, form, lam, acc, voff, roff, 0, d->xdd, NULL);
  store_multipliers(rod, kw, d, form, lam);
  for (int i = 0; i < (ns ? rod->nv_ns : nq); ++i)
    if (!isfinite(acc[i])) {
      d->nonfinite++;
      return 1;
    }
  return 0;
}

/* ---- index-1 DAE form ([LA] eq. 14, Fig. 4a) ----------------------------------- */

/* With the multipliers λ_K unknowns of the state instead of S⁻¹(G a0 + h),
 *     q' = v,   v' = a0(q, v) - A⁺Gᵀλ_K,   0 = λ_post - λ,
 *     0 = G (a0 - A⁺Gᵀλ_K) + h            (= g̈, m/s²),
 * every equation couples only neighbouring nodes: A⁺ is block diagonal, Gᵀλ_K
 * puts segment k's multipliers on vertices k, k+1 and segment k, and the
 * constraint row of segment k sees the accelerations of those, i.e. λ_K of
 * segments k-1..k+1.  ∂λ_K-rows/∂λ_K = -S: index 1.  No factorisation here. */
int cosrod_rod_kirchhoff_rhs_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                                 double *f) {
  if (!rod || !d || !y || !f || !d->kw) return -1;
  struct rod_kirchhoff_work *kw = d->kw;
  const int N = rod->N, nq = rod->nq;
  int rc = rod_rhs_absolute_base(rod, d, t, y, f);
  if (rc != 0) return rc;
  const double *lq = y + 2 * nq, *lk = y + 2 * nq + N;
  double *acc = f + nq;
  for (int k = 0; k < N; ++k) rod_kirchhoff_seg_blocks(rod, kw, COSROD_FORM_ABSOLUTE, k, d->x, d->p + 4 * k);
  rod_kirchhoff_g_transpose(rod, kw, lk);
  rod_kirchhoff_apply_correction(rod, kw, COSROD_FORM_ABSOLUTE, lk, acc, rod->qv, rod->qs, 0, d->xdd, NULL);
  accel_terms(rod, kw, d, COSROD_FORM_ABSOLUTE, acc, rod->qs, f + 2 * nq + N);
  store_multipliers(rod, kw, d, COSROD_FORM_ABSOLUTE, lk);
  for (int k = 0; k < N; ++k) f[2 * nq + k] = d->lambda[k] - lq[k];
  const int ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  for (int i = nq; i < ny; ++i)
    if (!isfinite(f[i])) {
      d->nonfinite++;
      return 1;
    }
  return 0;
}

int rod_kirchhoff_res_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                          const double *yp, double *res) {
  int rc = cosrod_rod_kirchhoff_rhs_dae(rod, d, t, y, res);
  if (rc != 0) return rc;
  const int nq = rod->nq, ny = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  for (int i = 0; i < 2 * nq; ++i) res[i] = yp[i] - res[i];
  for (int i = 2 * nq; i < ny; ++i) res[i] = -res[i];
  return 0;
}

cosrod_status rod_kirchhoff_lambda_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                                       double *lambda) {
  if (!d->kw) return COSROD_ERR_INVALID;
  const int N = rod->N, m = d->kw->m;
  /* the ODE-form solve S λ_K = G a0 + h at (q, v) (the first 2 nq of y) */
  int rc = cosrod_rod_rhs_absolute(rod, d, t, y, d->work);
  if (rc != 0) return d->kw->singular_seg >= 0 ? COSROD_ERR_SINGULAR : COSROD_ERR_NONFINITE;
  for (int k = 0; k < N; ++k) {
    lambda[k] = d->lambda[k];
    for (int a = 0; a < m; ++a) lambda[N + m * k + a] = d->F[3 * k + a];
  }
  return COSROD_OK;
}

/* ---- ends attached to movable supports ---------------------------------------- */

cosrod_status cosrod_rod_kirchhoff_set_end_mobility(const cosrod_rod *rod, cosrod_rod_data *d, int e,
                                                    const double W[9]) {
  if (!rod || !d || e < 0 || e > 1) return COSROD_ERR_INVALID;
  struct rod_kirchhoff_work *kw = d->kw;
  if (!kw) return COSROD_ERR_UNSUPPORTED;
  if (W && (!rod->end[e].fixpos || rod->end[e].slides)) return COSROD_ERR_UNSUPPORTED;
  kw->mob_on[e] = W != NULL;
  for (int i = 0; i < 9; ++i) kw->mob[e][i] = W ? W[i] : 0.0;
  return COSROD_OK;
}

cosrod_status cosrod_rod_kirchhoff_end_force(const cosrod_rod *rod, const cosrod_rod_data *d, int e,
                                             double f[3]) {
  if (!rod || !d || !f || e < 0 || e > 1) return COSROD_ERR_INVALID;
  if (!d->kw) {
    cosrod_vec3_zero(f);
    return COSROD_OK;
  }
  cosrod_vec3_scale(f, -1.0, d->kw->gtl + 3 * (e ? rod->N : 0));
  return COSROD_OK;
}

void cosrod_rod_kirchhoff_take_end_shift(cosrod_rod_data *d, int e, double dx[3], double dv[3]) {
  struct rod_kirchhoff_work *kw = d ? d->kw : NULL;
  if (!kw || e < 0 || e > 1) {
    if (dx) cosrod_vec3_zero(dx);
    if (dv) cosrod_vec3_zero(dv);
    return;
  }
  if (dx) cosrod_vec3_copy(dx, kw->dxe[e]);
  if (dv) cosrod_vec3_copy(dv, kw->dve[e]);
  cosrod_vec3_zero(kw->dxe[e]);
  cosrod_vec3_zero(kw->dve[e]);
}
