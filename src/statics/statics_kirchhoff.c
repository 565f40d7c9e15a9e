// SPDX-License-Identifier: Apache-2.0
/* Statics and modes of Kirchhoff rods ([LA] §3–4, [LLA] eq. 31): the
 * equilibrium of a rod with the constraints g_k = E (c_k - Δs_k (Γ0_k + e3))
 * = 0 per segment (c = Rᵀ Δx; E the shear rows, or all three rows for the
 * inextensible model), solved in the continuation of statics_path.c.
 *
 * Method: Newton on the KKT system of [LLA] eq. 31 with the shear (and
 * extension) multipliers λ_k,
 *     r(q) - Gᵀλ = 0,   g(q) = 0,
 *     [ -(K + Σλ∇²g)  -σGᵀ ] [δ ]     [ r - Gᵀλ ]
 *     [  σG            0   ] [δλ̂]  = -[ σ g     ],
 * in the minimal coordinates of statics.c, the scaled multipliers λ̂_k = λ_k/σ_k
 * (σ_k = C_K,max/Δs_k², so that every row is a force) interleaved after the
 * rotation δθ_k of their segment: the matrix stays banded (half bandwidths
 * 8 + m) and is factored by the banded LU with partial pivoting.  The
 * alternative, a null space per segment, does not exist for the
 * inextensible rod: its length constraints couple every segment to the ends
 * (a rod pinned at both ends closes a chain), so the reduced stiffness
 * would be dense.
 *
 * The state of the continuation stays q (nq): λ is not carried, it is the
 * least-squares multiplier of the current q, λ(q) = argmin |r - Gᵀλ|_{M⁻¹}
 * (S λ = G M⁻¹ r, S = G M⁻¹ Gᵀ block tridiagonal, the rest accelerations'
 * multiplier of rod_kirchhoff.c), exact at an equilibrium; a Newton step from
 * (q, λ(q)) converges quadratically like one from (q, λ + δλ), since
 * λ(q) - λ* = O(|q - q*|).  The δλ̂ of a step is discarded (apply ignores it).
 *
 * Second derivatives of λᵀg in the chart p exp(δθ/2) (R -> R exp([δθ]ₓ),
 * c -> exp(-[δθ]ₓ)(c + RᵀδΔx)), with L = [λ̄]ₓ, λ̄ = Eᵀλ (material):
 *     ∂(Gᵀλ)_x{k+1}/∂θ_k = -R L,  ∂(Gᵀλ)_x{k}/∂θ_k = R L,
 *     ∂(Gᵀλ)_θk/∂x{k+1} = L Rᵀ,  ∂(Gᵀλ)_θk/∂θ_k = L [c]ₓ
 * (Gᵀλ = (-Rλ̄, Rλ̄) on the vertices, λ̄ × c on the rotation); its symmetric
 * part is the Hessian, the rest cancels with the elastic torque's -½[τ]ₓ at
 * an equilibrium.  Convergence: the force and torque rows as for Cosserat
 * rods (scales include |λ|), and |g_k| <= 1e-3 tol Δs_k + 16 eps |x|_max
 * (segment lengths and shear at their rest values to round-off).  The
 * stability monitor uses the sign of det(-J) = det(GGᵀ)·det(ZᵀHZ)·(+1)
 * (statics_path.c, factor_at). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/band.h"
#include "cosrod/dense.h"
#include "statics/statics_kkt.h"

void statics_kirchhoff_end_row(statics_part *p, int e, const double *fr, double m) {
  if (!p->kkt) return;
  p->kkt->er[e] = fr;
  p->kkt->em[e] = m;
}

cosrod_status statics_kirchhoff_init(statics_part *p, int *ml, int *mu) {
  const cosrod_rod *rod = p->rod;
  const cosrod_rod_view *rv = &p->rv;
  p->ov = rv->vv_ns;
  p->os = rv->vs_ns;
  const int m = cosrod_rod_kirchhoff_m(rod), N = rv->N;
  if (m == 0) return COSROD_OK;
  struct statics_kkt *k = calloc(1, sizeof *k);
  if (!k) return COSROD_ERR_NOMEM;
  p->kkt = k;
  k->m = m, k->N = N;
  k->ov = calloc((size_t)N + 1, sizeof(int));
  k->os = calloc((size_t)N, sizeof(int));
  k->ol = calloc((size_t)N, sizeof(int));
  k->lam = calloc(3 * (size_t)N, sizeof(double));
  k->sig = calloc((size_t)N, sizeof(double));
  k->dir = calloc(9 * (size_t)N, sizeof(double));
  k->c = calloc(3 * (size_t)N, sizeof(double));
  k->rhs = calloc((size_t)(m * N), sizeof(double));
  k->wcol = calloc(6 * (size_t)(m * N), sizeof(double));
  int bw = 2 * m - 1 < m * N - 1 ? 2 * m - 1 : m * N - 1;
  k->S = cosrod_band_create(m * N, bw, bw, NULL);
  if (!k->ov || !k->os || !k->ol || !k->lam || !k->sig || !k->dir || !k->c || !k->rhs || !k->wcol || !k->S)
    return COSROD_ERR_NOMEM;
  int off = 0;
  for (int n = 0; n <= N; ++n) {
    k->ov[n] = off;
    off += rv->nd[n];
    if (n == N) break;
    k->os[n] = off;
    off += 3;
    k->ol[n] = off;
    off += m;
  }
  p->ov = k->ov;
  p->os = k->os;
  const double ck = fmax(rv->CK[0], fmax(rv->CK[1], rv->CK[2]));
  for (int j = 0; j < N; ++j) k->sig[j] = ck / (rv->ds[j] * rv->ds[j]);
  /* forces only: the multipliers are computed here, not by the dynamics */
  cosrod_rod_static_force_only(p->quiet);
  /* stencil: θ_k couples to θ_{k+1} across λ̂_k and x_{k+1} */
  if (*ml < 8 + m) *ml = 8 + m;
  if (*mu < 8 + m) *mu = 8 + m;
  return COSROD_OK;
}

int statics_kirchhoff_block(const statics_part *p) { return p->nv + (p->kkt ? p->kkt->m * p->kkt->N : 0); }

void statics_kirchhoff_free(statics_part *p) {
  struct statics_kkt *k = p->kkt;
  if (!k) return;
  free(k->ov);
  free(k->os);
  free(k->ol);
  free(k->lam);
  free(k->sig);
  free(k->dir);
  free(k->c);
  free(k->rhs);
  free(k->wcol);
  cosrod_band_free(k->S);
  free(k);
  p->kkt = NULL;
}

void statics_kirchhoff_weights(const statics_part *p, double *hcol, double *wnorm) {
  const struct statics_kkt *k = p->kkt;
  if (!k) return;
  for (int j = 0; j < k->N; ++j)
    for (int a = 0; a < k->m; ++a) {
      hcol[p->v0 + k->ol[j] + a] = 1.0;
      wnorm[p->v0 + k->ol[j] + a] = 0.0;
    }
}

/* Vertex n's coordinates of a spatial vector v: nd = 3 all, nd = 1 the
 * component along the slide axis; returns nd. */
static int vtx_coords(const cosrod_rod_view *rv, int n, const double v[3], double out[3]) {
  int nd = rv->nd[n];
  out[0] = out[1] = out[2] = 0.0; /* entries past nd are unused (and defined) */
  if (nd == 3) cosrod_vec3_copy(out, v);
  if (nd == 1) out[0] = cosrod_vec3_dot(v, rv->end[n == 0 ? 0 : 1].axis);
  return nd;
}

/* Vertex n as a row of the least squares: its coordinates of v (vtx_coords,
 * or all three for an end row), its mass, its residual (r of the part or
 * the end row's force). */
static int lsq_coords(const statics_part *p, int n, const double v[3], double out[3]) {
  const struct statics_kkt *k = p->kkt;
  const int e = n == 0 ? 0 : n == k->N ? 1 : -1;
  if (e >= 0 && k->er[e]) {
    cosrod_vec3_copy(out, v);
    return 3;
  }
  return vtx_coords(&p->rv, n, v, out);
}
static double lsq_mass(const statics_part *p, int n) {
  const struct statics_kkt *k = p->kkt;
  const int e = n == 0 ? 0 : n == k->N ? 1 : -1;
  return e >= 0 && k->er[e] ? k->em[e] : p->rv.mv[n];
}
static const double *lsq_r(const statics_part *p, int n, const double *r) {
  const struct statics_kkt *k = p->kkt;
  const int e = n == 0 ? 0 : n == k->N ? 1 : -1;
  return e >= 0 && k->er[e] ? k->er[e] : r + k->ov[n];
}

/* S = G M⁻¹ Gᵀ and G M⁻¹ r of the current blocks; λ into k->lam.  An end
 * carried by a rigid block (statics_kirchhoff_end_row) is a row with the
 * block's mass and free force: with it the straight inextensible rod between
 * a support and a block has a full-rank G (its own rows alone do not: N
 * length constraints on N - 1 free vertices, [LA] 4(a)); at an equilibrium
 * the block's balance f_b - G_bᵀλ = 0 holds like the rod's rows, so λ is
 * still exact there. */
static cosrod_status least_squares(const statics_part *p, const double *r) {
  struct statics_kkt *k = p->kkt;
  const cosrod_rod_view *rv = &p->rv;
  const int N = k->N, m = k->m;
  cosrod_band_zero(k->S);
  for (int j = 0; j < N; ++j) {
    const double *D = k->dir + 9 * j, *c = k->c + 3 * j, *Ib = rv->Ib + 3 * j;
    for (int a = 0; a < m; ++a) {
      double ga[2][3], ea[3] = {0, 0, 0}, ta[3];
      ea[a] = 1.0;
      cosrod_vec3_cross(ta, ea, c); /* θ row of g_a: (e_a × c)ᵀ */
      const int nda = lsq_coords(p, j, D + 3 * a, ga[0]), ndb = lsq_coords(p, j + 1, D + 3 * a, ga[1]);
      const double m0 = lsq_mass(p, j), m1 = lsq_mass(p, j + 1), *r0 = lsq_r(p, j, r),
                   *r1 = lsq_r(p, j + 1, r);
      /* rhs: G_a M⁻¹ r (G_a = -d_a on x_j, +d_a on x_{j+1}) */
      double v = 0.0;
      for (int i = 0; i < nda; ++i) v -= ga[0][i] * r0[i] / m0;
      for (int i = 0; i < ndb; ++i) v += ga[1][i] * r1[i] / m1;
      for (int i = 0; i < 3; ++i) v += ta[i] * r[k->os[j] + i] / Ib[i];
      k->rhs[m * j + a] = v;
      for (int b = 0; b < m; ++b) {
        double gb[2][3], eb[3] = {0, 0, 0}, tb[3];
        eb[b] = 1.0;
        cosrod_vec3_cross(tb, eb, c);
        lsq_coords(p, j, D + 3 * b, gb[0]);
        lsq_coords(p, j + 1, D + 3 * b, gb[1]);
        double sv = 0.0;
        for (int i = 0; i < nda; ++i) sv += ga[0][i] * gb[0][i] / m0;
        for (int i = 0; i < ndb; ++i) sv += ga[1][i] * gb[1][i] / m1;
        for (int i = 0; i < 3; ++i) sv += ta[i] * tb[i] / Ib[i];
        cosrod_band_set(k->S, m * j + a, m * j + b, sv);
        if (j + 1 < N) { /* shared vertex j+1: +d_a (segment j) against -d_b (segment j+1) */
          double gn[3];
          vtx_coords(rv, j + 1, k->dir + 9 * (j + 1) + 3 * b, gn);
          double so = 0.0;
          for (int i = 0; i < rv->nd[j + 1]; ++i) so -= ga[1][i] * gn[i] / rv->mv[j + 1];
          cosrod_band_set(k->S, m * j + a, m * (j + 1) + b, so);
          cosrod_band_set(k->S, m * (j + 1) + b, m * j + a, so);
        }
      }
    }
  }
  double smax = 0.0;
  for (int i = 0; i < m * N; ++i) smax = fmax(smax, fabs(cosrod_band_get(k->S, i, i)));
  if (cosrod_band_factor(k->S) != COSROD_OK) return COSROD_ERR_SINGULAR;
  for (int i = 0; i < m * N; ++i) /* rank-deficient G ([LA] §4(a)): a taut straight rod */
    if (!(fabs(cosrod_band_get(k->S, i, i)) > 1e-10 * smax)) return COSROD_ERR_SINGULAR;
  cosrod_band_solve(k->S, k->rhs);
  for (int j = 0; j < N; ++j)
    for (int a = 0; a < 3; ++a) k->lam[3 * j + a] = a < m ? k->rhs[m * j + a] : 0.0;
  return COSROD_OK;
}

cosrod_status statics_kirchhoff_prepare(statics_part *p, const double *r) {
  struct statics_kkt *k = p->kkt;
  const cosrod_rod_data *d = p->d;
  for (int j = 0; j < k->N; ++j) {
    const double *pq = d->p + 4 * j;
    double dx[3];
    for (int a = 0; a < 3; ++a) {
      double e[3] = {0, 0, 0};
      e[a] = 1.0;
      cosrod_quat_rotate(k->dir + 9 * j + 3 * a, pq, e);
    }
    cosrod_vec3_sub(dx, d->x + 3 * (j + 1), d->x + 3 * j);
    cosrod_quat_rotate_inv(k->c + 3 * j, pq, dx);
  }
  return k->frozen ? COSROD_OK : least_squares(p, r);
}

cosrod_status statics_kirchhoff_residual(statics_part *p, double tol, double *r, double *SF, double *SM,
                                         double *Fmax, double *rf, double *rm, double *gsc, double *gex) {
  struct statics_kkt *k = p->kkt;
  const cosrod_rod_view *rv = &p->rv;
  const cosrod_rod_data *d = p->d;
  const int N = k->N, m = k->m;
  double xmax = 0.0;
  for (int n = 0; n <= N; ++n) xmax = fmax(xmax, cosrod_vec3_norm(d->x + 3 * n));
  double gs = 0.0, ge = 0.0;
  for (int j = 0; j < N; ++j) {
    const double *lam = k->lam + 3 * j, *c = k->c + 3 * j, *D = k->dir + 9 * j;
    double f[3] = {0, 0, 0}, v[3], tq[3];
    for (int a = 0; a < m; ++a) cosrod_vec3_axpy(f, lam[a], D + 3 * a); /* R λ̄ */
    /* r - Gᵀλ: +Rλ̄ on x_j, -Rλ̄ on x_{j+1}, -λ̄ × c on θ_j */
    int nd = vtx_coords(rv, j, f, v);
    for (int i = 0; i < nd; ++i) r[k->ov[j] + i] += v[i];
    nd = vtx_coords(rv, j + 1, f, v);
    for (int i = 0; i < nd; ++i) r[k->ov[j + 1] + i] -= v[i];
    cosrod_vec3_cross(tq, lam, c);
    for (int i = 0; i < 3; ++i) r[k->os[j] + i] -= tq[i];
    const double ln = cosrod_vec3_norm(lam), ds = rv->ds[j];
    *Fmax = fmax(*Fmax, ln);
    *SF = fmax(*SF, ln);
    *SM = fmax(*SM, ds * ln);
    for (int a = 0; a < m; ++a) {
      double g = c[a] - ds * (rv->G0[3 * j + a] + (a == 2 ? 1.0 : 0.0));
      r[k->ol[j] + a] = k->sig[j] * g;
      gs = fmax(gs, fabs(g) / ds);
      ge = fmax(ge, fabs(g) / (1e-3 * tol * ds + 16.0 * DBL_EPSILON * xmax));
    }
  }
  double f = 0.0, t = 0.0;
  for (int n = 0; n <= N; ++n)
    for (int i = 0; i < rv->nd[n]; ++i) f = fmax(f, fabs(r[k->ov[n] + i]));
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < 3; ++i) t = fmax(t, fabs(r[k->os[j] + i]));
  *rf = f, *rm = t, *gsc = gs, *gex = ge;
  return COSROD_OK;
}

/* J(row block, col block) += B (3 x 3 row-major, spatial/material as given)
 * with vertex blocks projected to the vertex's coordinates. */
static void add_block(cosrod_band *J, const statics_part *p, int rvtx, int ri, int cvtx, int ci,
                      const double B[9]) {
  const cosrod_rod_view *rv = &p->rv;
  const struct statics_kkt *k = p->kkt;
  int nr = rvtx ? rv->nd[ri] : 3, nc = cvtx ? rv->nd[ci] : 3;
  if (!nr || !nc) return;
  int r0 = p->v0 + (rvtx ? k->ov[ri] : k->os[ri]), c0 = p->v0 + (cvtx ? k->ov[ci] : k->os[ci]);
  const double *ra = rvtx && nr == 1 ? rv->end[ri == 0 ? 0 : 1].axis : NULL;
  const double *ca = cvtx && nc == 1 ? rv->end[ci == 0 ? 0 : 1].axis : NULL;
  for (int a = 0; a < nr; ++a)
    for (int b = 0; b < nc; ++b) {
      double v = 0.0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double wr = ra ? ra[i] : (i == a ? 1.0 : 0.0), wc = ca ? ca[j] : (j == b ? 1.0 : 0.0);
          v += wr * B[3 * i + j] * wc;
        }
      cosrod_band_add(J, r0 + a, c0 + b, v);
    }
}

/* Multiplier columns -σGᵀ (cols) and, if rows, the constraint rows σG. */
static void add_g_blocks(cosrod_band *J, const statics_part *p, int rows) {
  const struct statics_kkt *k = p->kkt;
  const cosrod_rod_view *rv = &p->rv;
  for (int j = 0; j < k->N; ++j) {
    const double *D = k->dir + 9 * j, *c = k->c + 3 * j, sg = k->sig[j];
    for (int a = 0; a < k->m; ++a) {
      const int col = p->v0 + k->ol[j] + a;
      double ea[3] = {0, 0, 0}, ta[3], v[3];
      ea[a] = 1.0;
      cosrod_vec3_cross(ta, ea, c);
      for (int side = 0; side < 2; ++side) {
        int n = j + side, nd = vtx_coords(rv, n, D + 3 * a, v);
        double sgn = side ? 1.0 : -1.0; /* G: -d_a on x_j, +d_a on x_{j+1} */
        for (int i = 0; i < nd; ++i) {
          cosrod_band_add(J, p->v0 + k->ov[n] + i, col, -sg * sgn * v[i]);
          if (rows) cosrod_band_add(J, col, p->v0 + k->ov[n] + i, sg * sgn * v[i]);
        }
      }
      for (int i = 0; i < 3; ++i) {
        cosrod_band_add(J, p->v0 + k->os[j] + i, col, -sg * ta[i]);
        if (rows) cosrod_band_add(J, col, p->v0 + k->os[j] + i, sg * ta[i]);
      }
    }
  }
}

/* The multiplier terms -∂(Gᵀλ)/∂δ of the analytic stiffness (see top). */
static void add_hessian(cosrod_band *J, const statics_part *p) {
  const struct statics_kkt *k = p->kkt;
  for (int j = 0; j < k->N; ++j) {
    const double *lam = k->lam + 3 * j, *c = k->c + 3 * j, *D = k->dir + 9 * j;
    const double L[9] = {0, -lam[2], lam[1], lam[2], 0, -lam[0], -lam[1], lam[0], 0};
    const double C[9] = {0, -c[2], c[1], c[2], 0, -c[0], -c[1], c[0], 0};
    double RL[9], LRt[9], LC[9], mRL[9], mLRt[9];
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        double s1 = 0.0, s2 = 0.0, s3 = 0.0;
        for (int i = 0; i < 3; ++i) {
          s1 += D[3 * i + a] * L[3 * i + b]; /* R = [d_1 d_2 d_3]: R_ai = (d_i)_a */
          s2 += L[3 * a + i] * D[3 * i + b]; /* (L Rᵀ)_ab = Σ L_ai (d_i)_b */
          s3 += L[3 * a + i] * C[3 * i + b];
        }
        RL[3 * a + b] = s1, LRt[3 * a + b] = s2, LC[3 * a + b] = -s3;
        mRL[3 * a + b] = -s1, mLRt[3 * a + b] = -s2;
      }
    add_block(J, p, 1, j, 0, j, mRL);      /* x_j,     θ_j: -R L */
    add_block(J, p, 1, j + 1, 0, j, RL);   /* x_{j+1}, θ_j: +R L */
    add_block(J, p, 0, j, 1, j, LRt);      /* θ_j, x_j:     +L Rᵀ */
    add_block(J, p, 0, j, 1, j + 1, mLRt); /* θ_j, x_{j+1}: -L Rᵀ */
    add_block(J, p, 0, j, 0, j, LC);       /* θ_j, θ_j:     -L [c]ₓ */
  }
}

/* Rigid blocks carrying Kirchhoff rod ends: the multiplier columns of the
 * block rows, ∂/∂λ̂_a of the end force ±σ d_a (statics_kirchhoff_end_force,
 * added to the block's rows by statics_blocks_residual): the force rows get
 * ±σ d_a, the material moment rows R_bᵀ((x_e - x_b) × ±σ d_a).  The part
 * data hold the last residual's evaluation (at q). */
static void add_block_columns(cosrod_statics *s, const double *q, cosrod_band *J) {
  for (int i = 0; i < s->blk.nattach; ++i) {
    const statics_part *p = &s->part[s->blk.att_rod[i]];
    const struct statics_kkt *k = p->kkt;
    if (!k) continue;
    const int e = s->blk.att_end[i], b = s->blk.att_block[i], j = e == 0 ? 0 : k->N - 1;
    const double *xb = q + s->nq_rods + 7 * b, *xe = p->d->x + 3 * (e == 0 ? 0 : k->N);
    double lev[3];
    cosrod_vec3_sub(lev, xe, xb);
    for (int a = 0; a < k->m; ++a) {
      double f[3], m[3];
      cosrod_vec3_scale(f, (e == 0 ? 1.0 : -1.0) * k->sig[j], k->dir + 9 * j + 3 * a);
      cosrod_vec3_cross(m, lev, f);
      cosrod_quat_rotate_inv(m, xb + 3, m);
      const int col = p->v0 + k->ol[j] + a, row = s->bv0[b];
      for (int c = 0; c < 3; ++c) {
        cosrod_band_add(J, row + c, col, f[c]);
        cosrod_band_add(J, row + 3 + c, col, m[c]);
      }
    }
  }
}

cosrod_status statics_kirchhoff_jacobian(cosrod_statics *s, double t, double mu, const double *q,
                                         cosrod_band *J) {
  /* the multipliers of q at (t, μ), then frozen for the derivatives */
  cosrod_status st = statics_residual(s, t, mu, q, s->rpl, NULL);
  if (st != COSROD_OK) return st;
  for (int r = 0; r < s->nparts; ++r)
    if (s->part[r].kkt) s->part[r].kkt->frozen = 1;
  if (s->opt.jacobian == COSROD_STATICS_JAC_ANALYTIC && (mu == 1.0 || s->dead_loads) && s->nblk == 0) {
    st = statics_stiffness_analytic(s, t, q, J);
    for (int r = 0; r < s->nparts && st == COSROD_OK; ++r)
      if (s->part[r].kkt) {
        add_hessian(J, &s->part[r]);
        add_g_blocks(J, &s->part[r], 1);
      }
  } else {
    st = statics_stiffness_fd(s, t, mu, q, J); /* λ frozen: exact q-columns of the KKT residual */
    if (st == COSROD_OK) st = statics_residual(s, t, mu, q, s->rpl, NULL); /* blocks at q again */
    for (int r = 0; r < s->nparts && st == COSROD_OK; ++r)
      if (s->part[r].kkt) add_g_blocks(J, &s->part[r], 0);
    if (st == COSROD_OK) add_block_columns(s, q, J); /* rigid blocks: FD only (their rows are the caller's) */
  }
  for (int r = 0; r < s->nparts; ++r)
    if (s->part[r].kkt) s->part[r].kkt->frozen = 0;
  return st;
}

void statics_kirchhoff_end_force(const statics_part *p, int e, double f[3]) {
  const struct statics_kkt *k = p->kkt;
  cosrod_vec3_zero(f);
  if (!k) return;
  const int j = e == 0 ? 0 : k->N - 1;
  for (int a = 0; a < k->m; ++a)
    cosrod_vec3_axpy(f, (e == 0 ? 1.0 : -1.0) * k->lam[3 * j + a], k->dir + 9 * j + 3 * a);
}

void statics_kirchhoff_reactions(const statics_part *p, double R[12]) {
  const cosrod_rod_view *rv = &p->rv;
  for (int e = 0; e < 2; ++e) {
    const cosrod_rod_end_view *em = &rv->end[e];
    if (!em->fixpos) continue;
    double f[3], *F = R + 6 * e;
    statics_kirchhoff_end_force(p, e, f); /* the reaction balances it */
    cosrod_vec3_sub(F, F, f);
    if (em->slides) cosrod_vec3_axpy(F, -cosrod_vec3_dot(F, em->axis), em->axis);
  }
}

int statics_mult_indices(const cosrod_statics *s, int *idx) {
  int n = 0;
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *p = &s->part[r];
    const struct statics_kkt *k = p->kkt;
    for (int j = 0; k && j < k->N; ++j)
      for (int a = 0; a < k->m; ++a, ++n)
        if (idx) idx[n] = p->v0 + k->ol[j] + a;
  }
  for (int i = 0; s->nblk > 0 && i < s->blk.nmult; ++i, ++n)
    if (idx) idx[n] = s->mv0 + i;
  return n;
}

int cosrod_statics_nmult(const cosrod_statics *s) { return s ? statics_mult_indices(s, NULL) : 0; }

cosrod_status cosrod_statics_rod_minimal(const cosrod_statics *s, int r, const double *phi, double *out) {
  if (!s || r < 0 || r >= s->nparts || !phi || !out) return COSROD_ERR_INVALID;
  const statics_part *p = &s->part[r];
  const cosrod_rod_view *rv = &p->rv;
  for (int n = 0; n <= rv->N; ++n)
    for (int i = 0; i < rv->nd[n]; ++i) out[rv->vv_ns[n] + i] = phi[p->v0 + p->ov[n] + i];
  for (int j = 0; j < rv->N; ++j)
    for (int i = 0; i < 3; ++i) out[rv->vs_ns[j] + i] = phi[p->v0 + p->os[j] + i];
  return COSROD_OK;
}

cosrod_status statics_kirchhoff_modes(cosrod_statics *s, double t, const double *q, const double *m,
                                      int count, double *w, double *z) {
  const statics_part *p = &s->part[0];
  const cosrod_rod *rod = p->rod;
  const cosrod_rod_view *rv = &p->rv;
  const int nv = rv->nv_ns;
  cosrod_band *Jr = cosrod_band_create(nv, 8, 8, NULL);
  int *map = malloc(sizeof(int) * (size_t)nv);
  cosrod_status st = COSROD_ERR_NOMEM;
  if (!Jr || !map) goto done;
  for (int n = 0; n <= rv->N; ++n)
    for (int i = 0; i < rv->nd[n]; ++i) map[rv->vv_ns[n] + i] = p->ov[n] + i;
  for (int j = 0; j < rv->N; ++j)
    for (int i = 0; i < 3; ++i) map[rv->vs_ns[j] + i] = p->os[j] + i;
  for (int j = 0; j < nv; ++j)
    for (int i = j - 8 < 0 ? 0 : j - 8; i <= j + 8 && i < nv; ++i) {
      int a = map[i], b = map[j];
      cosrod_band_set(Jr, i, j, cosrod_band_in_band(s->J, a, b) ? cosrod_band_get(s->J, a, b) : 0.0);
    }
  st = statics_modes_kirchhoff(rod, t, q, Jr, m, count, w, z);
done:
  cosrod_band_free(Jr);
  free(map);
  return st;
}

/* Inertia of the reduced stiffness for the stability monitor.  A KKT
 * matrix is indefinite (LDLᵀ without pivoting breaks down on its zero
 * blocks), and the sign of its determinant (the parity used for
 * non-symmetric problems) flips at random on exact zero modes (a round rod
 * with a straight reference spins freely about its centreline between two
 * pins; an unloaded curved rod turns about the chord of its pins).  For ρ
 * large, H + ρ BᵀB (B = σG, the multiplier rows of J) has the inertia of
 * ZᵀHZ plus m N positive eigenvalues (in the basis (Z, Y) its Schur
 * complement onto Z is ZᵀHZ - O(|H|²/ρ)); zero modes, which are
 * symmetries with H v = 0, stay at roundoff and are lifted like those of
 * Cosserat rods.  ρ = 1e5 max|H_θθ| / max (σG)² (1e4 below): the Schur term
 * O(|H|²/ρ) moves reduced eigenvalues down by ~1/ρ' max|H_θθ| (critical
 * points are flagged slightly early: an inextensible column at 0.9994 and
 * 0.9996 of Euler's load for N = 20, 40, the Cosserat one at 0.9994,
 * 0.9998), while a larger ρ raises the roundoff lifting threshold 1e-13
 * ρ(σG)² of the LDLᵀ and flags them late (1e6: 1.001, 1.004).  1e4 flagged
 * a false critical point on the taut extensible 10 m hose
 * (examples/hanging-hose.yaml at t = 0.0022), hence ρ = 1e5: a narrow
 * window (test_cli_kirchhoff.kirchhoff_taut_hose and
 * test_statics_kirchhoff.inextensible_column_stops_at_euler_load bound it);
 * the inertia of ZᵀHZ itself would remove the heuristic. */
void statics_kirchhoff_penalise(const cosrod_statics *s, const cosrod_band *J, double *w, int ld) {
  const int b = ld - 1;
  double hs = 0.0, gs = 0.0;
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *p = &s->part[r];
    const struct statics_kkt *k = p->kkt;
    if (!k) continue;
    for (int j = 0; j < k->N; ++j)
      for (int i = 0; i < 3; ++i) {
        int c = p->v0 + k->os[j] + i;
        hs = fmax(hs, fabs(cosrod_band_get(J, c, c)));
      }
    for (int j = 0; j < k->N; ++j)
      for (int a = 0; a < k->m; ++a) {
        int l = p->v0 + k->ol[j] + a;
        double g2 = 0.0;
        for (int c = l - J->ml < 0 ? 0 : l - J->ml; c <= l + J->mu && c < J->n; ++c) {
          double v = cosrod_band_get(J, l, c);
          g2 = fmax(g2, v * v);
        }
        gs = fmax(gs, g2);
      }
  }
  const double rho = gs > 0.0 ? 1e5 * hs / gs : 0.0;
  for (int r = 0; r < s->nparts; ++r) {
    const statics_part *p = &s->part[r];
    const struct statics_kkt *k = p->kkt;
    if (!k) continue;
    for (int j = 0; j < k->N; ++j)
      for (int a = 0; a < k->m; ++a) {
        const int l = p->v0 + k->ol[j] + a;
        const int lo = l - J->ml < 0 ? 0 : l - J->ml, hi = l + J->mu < J->n - 1 ? l + J->mu : J->n - 1;
        /* row and column l: identity */
        for (int c = (l - b < 0 ? 0 : l - b); c < l; ++c) w[(size_t)c * ld + (size_t)(l - c)] = 0.0;
        for (int i = l; i <= l + b && i < J->n; ++i) w[(size_t)l * ld + (size_t)(i - l)] = i == l ? 1.0 : 0.0;
        for (int cj = lo; cj <= hi; ++cj) {
          double bj = cosrod_band_get(J, l, cj);
          if (bj == 0.0) continue;
          for (int ci = cj; ci <= hi && ci - cj <= b; ++ci) {
            double bi = cosrod_band_get(J, l, ci);
            if (bi != 0.0) w[(size_t)cj * ld + (size_t)(ci - cj)] += rho * bi * bj;
          }
        }
      }
  }
}

cosrod_status cosrod_statics_kirchhoff_forces(cosrod_statics *s, int r, double t, const double *q,
                                              double *F) {
  if (!s || !q || !F || r < 0 || r >= s->nparts) return COSROD_ERR_INVALID;
  const struct statics_kkt *k = s->part[r].kkt;
  if (!k) return COSROD_ERR_UNSUPPORTED;
  cosrod_status st = statics_residual(s, t, 1.0, q, s->rpl, NULL);
  if (st != COSROD_OK) return st;
  for (int j = 0; j < k->N; ++j)
    for (int a = 0; a < k->m; ++a) F[3 * j + a] = k->lam[3 * j + a];
  return COSROD_OK;
}
