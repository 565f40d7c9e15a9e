// SPDX-License-Identifier: Apache-2.0
/* Rigid blocks in the statics system (statics.h, cosrod_statics_blocks):
 * rigid bodies that carry rod ends, in static, modal and start-from-
 * equilibrium analyses.
 *
 * Unknowns: per block the pose (x, p) in q after the rods, the minimal
 * coordinates (δx, δθ) with p <- p exp(δθ/2) (material rotation vector, the
 * chart of the rods' segments, statics.c), placed in δ next to the rod end
 * the block touches.  Equations: the block's force balance and its moment
 * balance about x in material components (virtual work of δθ: τ·Rδθ =
 * (Rᵀτ)·δθ), written by the caller's residual callback from the rods' end
 * reactions (cosrod_statics_end_reactions) and the block's own loads.  The
 * rods see the block poses through their end-motion callbacks.
 *
 * Convergence: a block row is measured like a rod's vertex and segment rows
 * (statics_stiffness.c, part_residual): against tol times the scale the
 * callback gives (its force and moment terms) plus the roundoff floor of the
 * internal forces of the rods attached to it.
 *
 * Kirchhoff rods (statics_kirchhoff.c): the constraint force -(Gᵀλ) on an
 * attached end vertex (the end segment's multipliers, [LA] eq. 31) belongs to
 * the block's balance with the rod's generalised vertex force: added here
 * to the callback's rows (force, and material moment about x), the
 * multiplier columns of these rows by statics_kirchhoff_jacobian.
 *
 * Multipliers (blk.nmult, e.g. joints): linear unknowns λ after the block
 * poses in q and right after the last block in δ; the callback's residual is
 * then the KKT system r - Gᵀλ = 0, g = 0 and its finite-difference stiffness
 * [K + ∇²(λᵀg)  -Gᵀ; G 0] (the constraint rows have no diagonal: the banded
 * LU pivots, and the stability index is the sign of det, dead_loads = 0). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statics/statics_internal.h"

static const int WINDOW = 18; /* rod unknowns next to an attached end that the block couples with */

cosrod_status statics_blocks_init(cosrod_statics *s, const cosrod_statics_blocks *blk) {
  s->nblk = 0;
  if (!blk) return COSROD_OK;
  if (blk->nblocks == 0) { /* only the pose hook (ends carried by prescribed bodies) */
    s->blk.pose = blk->pose;
    s->blk.user = blk->user;
    return COSROD_OK;
  }
  const int nb = blk->nblocks, na = blk->nattach;
  if (nb < 0 || na < 0 || !blk->place || !blk->mass || !blk->pose || !blk->residual ||
      (na > 0 && (!blk->att_rod || !blk->att_end || !blk->att_block)) || blk->nmult < 0 ||
      (blk->nmult > 0 && !blk->mult_h))
    return COSROD_ERR_INVALID;
  for (int b = 0; b < nb; ++b)
    if (blk->place[b] < 0 || blk->place[b] > s->nparts) return COSROD_ERR_INVALID;
  for (int a = 0; a < na; ++a)
    if (blk->att_rod[a] < 0 || blk->att_rod[a] >= s->nparts || blk->att_end[a] < 0 || blk->att_end[a] > 1 ||
        blk->att_block[a] < 0 || blk->att_block[a] >= nb)
      return COSROD_ERR_INVALID;
  s->blk = *blk;
  if (blk->follower || blk->nmult > 0) s->dead_loads = 0; /* the stability index and buckling see a non-symmetric K */
  const int nm = blk->nmult;
  s->mplace = 0;
  for (int b = 0; b < nb; ++b)
    if (blk->place[b] > s->mplace) s->mplace = blk->place[b];
  int *place = malloc((size_t)nb * sizeof *place);
  double *mass = malloc(6 * (size_t)nb * sizeof *mass);
  int *att = malloc(3 * (size_t)(na + 1) * sizeof *att);
  s->bv0 = calloc((size_t)nb, sizeof *s->bv0);
  s->rb = calloc(6 * (size_t)nb + (size_t)nm, sizeof *s->rb);
  s->sb = calloc(2 * (size_t)nb + (size_t)nm, sizeof *s->sb);
  double *mh = malloc(((size_t)nm + 1) * sizeof *mh);
  s->bdata = calloc((size_t)s->nparts, sizeof *s->bdata);
  s->blk.place = place;
  s->blk.mass = mass;
  s->blk.att_rod = att;
  s->blk.att_end = att + na;
  s->blk.att_block = att + 2 * na;
  s->blk.mult_h = mh;
  s->nblk = nb; /* from here statics_blocks_free releases the copies */
  if (!place || !mass || !att || !mh || !s->bv0 || !s->rb || !s->sb || !s->bdata) return COSROD_ERR_NOMEM;
  if (nm > 0) memcpy(mh, blk->mult_h, (size_t)nm * sizeof *mh);
  memcpy(place, blk->place, (size_t)nb * sizeof *place);
  memcpy(mass, blk->mass, 6 * (size_t)nb * sizeof *mass);
  for (int a = 0; a < na; ++a) {
    att[a] = blk->att_rod[a];
    att[na + a] = blk->att_end[a];
    att[2 * na + a] = blk->att_block[a];
  }
  return COSROD_OK;
}

void statics_blocks_free(cosrod_statics *s) {
  if (s->nblk == 0 && !s->bv0) return;
  free((void *)s->blk.place);
  free((void *)s->blk.mass);
  free((void *)s->blk.att_rod);
  free((void *)s->blk.mult_h);
  free(s->bv0);
  free(s->rb);
  free(s->sb);
  free((void *)s->bdata);
  s->nblk = 0;
}

int statics_blocks_place(cosrod_statics *s, int r, int v) {
  for (int b = 0; b < s->nblk; ++b)
    if (s->blk.place[b] == r) {
      s->bv0[b] = v;
      v += 6;
    }
  if (r == s->mplace && s->blk.nmult > 0) { /* the multipliers after the last block */
    s->mv0 = v;
    v += s->blk.nmult;
  }
  return v;
}

/* Half bandwidths covering each block with the WINDOW rod unknowns next to
 * each end attached to it (and all blocks with each other if coupled). */
void statics_blocks_band(cosrod_statics *s) {
  if (s->nblk == 0) return;
  int w = 5, lo_all = s->nv, hi_all = 0;
  for (int a = 0; a < s->blk.nattach; ++a) {
    const statics_part *pt = &s->part[s->blk.att_rod[a]];
    const int b0 = s->bv0[s->blk.att_block[a]], b1 = b0 + 5, n = statics_kirchhoff_block(pt);
    int r0 = pt->v0, r1 = pt->v0 + n - 1;
    if (s->blk.att_end[a] == 0 && r1 > r0 + WINDOW - 1) r1 = r0 + WINDOW - 1;
    if (s->blk.att_end[a] == 1 && r0 < r1 - WINDOW + 1) r0 = r1 - WINDOW + 1;
    int d = b1 - r0 > r1 - b0 ? b1 - r0 : r1 - b0;
    if (d > w) w = d;
  }
  for (int b = 0; b < s->nblk; ++b) {
    if (s->bv0[b] < lo_all) lo_all = s->bv0[b];
    if (s->bv0[b] + 5 > hi_all) hi_all = s->bv0[b] + 5;
  }
  if (s->blk.nmult > 0 && s->mv0 + s->blk.nmult - 1 > hi_all) hi_all = s->mv0 + s->blk.nmult - 1;
  if ((s->blk.blocks_coupled || s->blk.nmult > 0) && hi_all - lo_all > w) w = hi_all - lo_all;
  if (w > s->nv - 1) w = s->nv - 1;
  if (w > s->ml) s->ml = w;
  if (w > s->mu) s->mu = w;
}

void statics_blocks_weights(cosrod_statics *s) {
  if (s->nblk == 0) return;
  double dsmin = INFINITY, L = 0.0;
  for (int a = 0; a < s->blk.nattach; ++a) {
    const statics_part *pt = &s->part[s->blk.att_rod[a]];
    dsmin = fmin(dsmin, pt->dsmin);
    L = fmax(L, pt->rv.s[pt->rv.N] - pt->rv.s[0]);
  }
  if (!isfinite(dsmin)) { /* blocks attached to no rod */
    for (int r = 0; r < s->nparts; ++r) {
      dsmin = fmin(dsmin, s->part[r].dsmin);
      L = fmax(L, s->part[r].rv.s[s->part[r].rv.N] - s->part[r].rv.s[0]);
    }
  }
  s->blen = dsmin;
  s->blim = 0.25 * L;
  for (int b = 0; b < s->nblk; ++b)
    for (int j = 0; j < 3; ++j) {
      s->wnorm[s->bv0[b] + j] = 1.0 / dsmin;
      s->hcol[s->bv0[b] + j] = 6.0554544523933395e-06 * dsmin; /* as a rod vertex (statics.c) */
      s->wnorm[s->bv0[b] + 3 + j] = 1.0;
      s->hcol[s->bv0[b] + 3 + j] = s->hth;
    }
  for (int i = 0; i < s->blk.nmult; ++i) { /* multipliers: no part of the step norm (as λ̂ of statics_kirchhoff.c) */
    s->wnorm[s->mv0 + i] = 0.0;
    s->hcol[s->mv0 + i] = s->blk.mult_h[i];
  }
}

cosrod_status statics_blocks_pose(cosrod_statics *s, double t, const double *q) {
  if (!s->blk.pose) return COSROD_OK;
  return s->blk.pose(s->blk.user, t, q + s->nq_rods) == 0 ? COSROD_OK : COSROD_ERR_CALLBACK;
}

/* Roundoff floor of rod part pt's vertex forces (as part_residual's n_F). */
static double force_floor(const statics_part *pt, double *Mmax) {
  const cosrod_rod_view *rv = &pt->rv;
  const cosrod_rod_data *d = pt->d;
  double Fmax = 0.0, xmax = 0.0;
  for (int k = 0; k < rv->N; ++k) Fmax = fmax(Fmax, cosrod_vec3_norm(d->F + 3 * k));
  for (int n = 0; n <= rv->N; ++n) {
    xmax = fmax(xmax, cosrod_vec3_norm(d->x + 3 * n));
    *Mmax = fmax(*Mmax, cosrod_vec3_norm(d->M + 3 * n));
  }
  const double cg = fmax(rv->CG[0], fmax(rv->CG[1], rv->CG[2]));
  return 4.0 * DBL_EPSILON * (cg * (xmax / pt->dsmin + 1.0) + Fmax);
}

cosrod_status statics_blocks_eval(cosrod_statics *s, double t, double mu, const double *q) {
  if (s->nblk == 0) return COSROD_OK;
  const double gs = s->opt.gravity_ramp ? fmin(fmax(t, 0.0), 1.0) : 1.0;
  for (int i = 0; i < s->nparts; ++i) s->bdata[i] = s->part[i].d;
  if (s->blk.residual(s->blk.user, t, mu, gs, q + s->nq_rods, s->bdata, s->rb, s->sb) != 0)
    return COSROD_ERR_CALLBACK;
  for (int a = 0; a < s->blk.nattach; ++a) { /* a block's force row joins the multipliers of its Kirchhoff ends */
    statics_part *pt = &s->part[s->blk.att_rod[a]];
    const int b = s->blk.att_block[a];
    if (pt->kkt) statics_kirchhoff_end_row(pt, s->blk.att_end[a], s->rb + 6 * b, s->blk.mass[6 * b]);
  }
  return COSROD_OK;
}

cosrod_status statics_blocks_residual(cosrod_statics *s, const double *q, double *r, double *sc, double *ex) {
  if (s->nblk == 0) return COSROD_OK;
  for (int a = 0; a < s->blk.nattach; ++a) { /* Kirchhoff rods: -(Gᵀλ) on the end vertex, part of the block */
    const statics_part *pt = &s->part[s->blk.att_rod[a]];
    if (!pt->kkt) continue;
    const int e = s->blk.att_end[a], b = s->blk.att_block[a];
    const double *xb = q + s->nq_rods + 7 * b, *xe = pt->d->x + 3 * (e == 0 ? 0 : pt->rv.N);
    double f[3], lev[3], m[3], *o = s->rb + 6 * b;
    statics_kirchhoff_end_force(pt, e, f);
    cosrod_vec3_sub(lev, xe, xb);
    cosrod_vec3_cross(m, lev, f);
    cosrod_vec3_add(o, o, f);
    s->sb[2 * b] = fmax(s->sb[2 * b], cosrod_vec3_norm(f));
    s->sb[2 * b + 1] = fmax(s->sb[2 * b + 1], cosrod_vec3_norm(m));
    cosrod_quat_rotate_inv(m, xb + 3, m); /* material, as the callback's moment rows */
    cosrod_vec3_add(o + 3, o + 3, m);
  }
  for (int b = 0; b < s->nblk; ++b) {
    double SF = s->sb[2 * b], SM = s->sb[2 * b + 1], nF = 0.0, nM = 0.0;
    for (int a = 0; a < s->blk.nattach; ++a) {
      if (s->blk.att_block[a] != b) continue;
      const statics_part *pt = &s->part[s->blk.att_rod[a]];
      const cosrod_rod_view *rv = &pt->rv;
      double Mmax = 0.0, f = force_floor(pt, &Mmax);
      const double ck = fmax(rv->CK[0], fmax(rv->CK[1], rv->CK[2]));
      SF = fmax(SF, pt->floorF);
      SM = fmax(SM, pt->floorM);
      nF += f;
      nM += 4.0 * DBL_EPSILON * (ck / pt->dsmin + Mmax);
    }
    if (!(SF > 0.0)) SF = 1.0; /* a block without forces and rods: absolute rows */
    if (!(SM > 0.0)) SM = 1.0;
    nM += nF * SM / SF; /* the forces' lever arms */
    const double *rb = s->rb + 6 * b;
    double rf = 0.0, rm = 0.0;
    for (int j = 0; j < 3; ++j) {
      rf = fmax(rf, fabs(rb[j]));
      rm = fmax(rm, fabs(rb[3 + j]));
    }
    if (!isfinite(rf) || !isfinite(rm)) return COSROD_ERR_NONFINITE;
    memcpy(r + s->bv0[b], rb, 6 * sizeof *rb);
    *sc = fmax(*sc, fmax(rf / SF, rm / SM));
    *ex = fmax(*ex, fmax(rf / (s->opt.tol * SF + nF), rm / (s->opt.tol * SM + nM)));
  }
  for (int i = 0; i < s->blk.nmult; ++i) { /* constraint rows */
    const double g = s->rb[6 * s->nblk + i], L = s->sb[2 * s->nblk + i] > 0.0 ? s->sb[2 * s->nblk + i] : 1.0;
    if (!isfinite(g)) return COSROD_ERR_NONFINITE;
    r[s->mv0 + i] = g;
    *sc = fmax(*sc, fabs(g) / L);
    *ex = fmax(*ex, fabs(g) / ((1e-3 * s->opt.tol + 16.0 * DBL_EPSILON) * L));
  }
  return COSROD_OK;
}

void statics_blocks_apply(const cosrod_statics *s, double *q, const double *delta) {
  for (int b = 0; b < s->nblk; ++b) {
    double *qb = q + s->nq_rods + 7 * b, e[4], p[4];
    const double *d = delta + s->bv0[b];
    for (int j = 0; j < 3; ++j) qb[j] += d[j];
    cosrod_quat_from_rotvec(e, d + 3);
    cosrod_quat_mul(p, qb + 3, e);
    cosrod_quat_normalise(qb + 3, p);
  }
  for (int i = 0; i < s->blk.nmult; ++i) q[s->nq_rods + 7 * s->nblk + i] += delta[s->mv0 + i];
}

void statics_blocks_chart_diff(const cosrod_statics *s, const double *q, const double *qa, double *delta) {
  for (int b = 0; b < s->nblk; ++b) {
    const double *qb = q + s->nq_rods + 7 * b, *qab = qa + s->nq_rods + 7 * b;
    double *d = delta + s->bv0[b], w[4];
    for (int j = 0; j < 3; ++j) d[j] = qab[j] - qb[j];
    cosrod_quat_conj_mul(w, qb + 3, qab + 3);
    cosrod_quat_to_rotvec(d + 3, w);
  }
  for (int i = 0; i < s->blk.nmult; ++i)
    delta[s->mv0 + i] = qa[s->nq_rods + 7 * s->nblk + i] - q[s->nq_rods + 7 * s->nblk + i];
}

/* Trust region (statics_path.c, limit_step): |δx| <= L/4 of the longest
 * attached rod, |δθ| <= 1 rad. */
void statics_blocks_limit(const cosrod_statics *s, const double *dv, double *c) {
  for (int b = 0; b < s->nblk; ++b) {
    const double *d = dv + s->bv0[b];
    double mx = cosrod_vec3_norm(d), mt = cosrod_vec3_norm(d + 3);
    if (mx > s->blim) *c = fmin(*c, s->blim / mx);
    if (mt > 1.0) *c = fmin(*c, 1.0 / mt);
  }
}

/* The multipliers' share δλᵀg of a work product δᵀr: the line search of
 * statics_path.c measures the out-of-balance work of the forces only (δλᵀg
 * has no sign near a KKT solution: λ moves by O(1), g by O(δ²)). */
double statics_blocks_mult_work(const cosrod_statics *s, const double *dv, const double *r) {
  double w = 0.0;
  for (int i = 0; s->nblk > 0 && i < s->blk.nmult; ++i) w += dv[s->mv0 + i] * r[s->mv0 + i];
  return w;
}

int cosrod_statics_nblocks(const cosrod_statics *s) { return s ? s->nblk : 0; }
int cosrod_statics_block_qoffset(const cosrod_statics *s, int b) {
  return s && b >= 0 && b < s->nblk ? s->nq_rods + 7 * b : -1;
}
int cosrod_statics_block_voffset(const cosrod_statics *s, int b) {
  return s && b >= 0 && b < s->nblk ? s->bv0[b] : -1;
}

void statics_blocks_shift(cosrod_statics *s, cosrod_band *J) {
  if (s->nblk == 0) return;
  double kx = 0.0, kt = 0.0; /* largest |J_ii| of translations (weight 1/Δs) and rotations (weight 1) */
  for (int i = 0; i < J->n; ++i) {
    double a = fabs(cosrod_band_col(J, i)[0]);
    if (s->wnorm[i] == 1.0)
      kt = fmax(kt, a);
    else
      kx = fmax(kx, a);
  }
  for (int b = 0; b < s->nblk; ++b)
    for (int j = 0; j < 6; ++j) {
      double *d = cosrod_band_col(J, s->bv0[b] + j), ref = 1e-12 * (j < 3 ? kx : kt);
      if (fabs(d[0]) < ref) d[0] -= ref;
    }
}
