// SPDX-License-Identifier: Apache-2.0
/* Kirchhoff constraints: position and velocity residuals g, ġ, the
 * projection onto g = 0, ġ = 0 (S λ = g, then S λ = ġ, see rod_kirchhoff.c)
 * and the constraint matrix G ([LA] §2–4). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "rod/rod_kirchhoff_internal.h"

/* ---- residuals and projection ------------------------------------------------- */

/* Full positions (prescribed ends at t) and quaternions of y into kw->xs, kw->ps. */
static void kin_positions(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, double t, const double *y) {
  const int N = rod->N;
  for (int e = 0; e < 2; ++e)
    if (rod->end[e].fixpos) {
      int n = e == 0 ? 0 : N;
      cosrod_rod_end_motion(rod, e, t, kw->xs + 3 * n, NULL, NULL, NULL, NULL, NULL);
      if (kw->mob_on[e]) cosrod_vec3_add(kw->xs + 3 * n, kw->xs + 3 * n, kw->dxe[e]);
    }
  for (int n = 0; n <= N; ++n) {
    int nd = rod->nd[n];
    if (nd == 3) cosrod_vec3_copy(kw->xs + 3 * n, y + rod->qv[n]);
    if (nd == 1) cosrod_vec3_axpy(kw->xs + 3 * n, y[rod->qv[n]], rod->end[n == 0 ? 0 : 1].axis);
  }
  for (int k = 0; k < N; ++k) cosrod_quat_copy(kw->ps + 4 * k, y + rod->qs[k]);
}

/* Full vertex velocities and rotation rates (ṗ or Ω) of y into kw->vs, kw->rs. */
static void kin_velocities(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, cosrod_rod_form form,
                           double t, const double *y) {
  const int N = rod->N, ns = form == COSROD_FORM_NULLSPACE;
  const double *v = y + rod->nq;
  for (int e = 0; e < 2; ++e)
    if (rod->end[e].fixpos) {
      int n = e == 0 ? 0 : N;
      cosrod_rod_end_motion(rod, e, t, NULL, kw->vs + 3 * n, NULL, NULL, NULL, NULL);
      if (kw->mob_on[e]) cosrod_vec3_add(kw->vs + 3 * n, kw->vs + 3 * n, kw->dve[e]);
    }
  for (int n = 0; n <= N; ++n) {
    int nd = rod->nd[n], iv = ns ? rod->vv_ns[n] : rod->qv[n];
    if (nd == 3) cosrod_vec3_copy(kw->vs + 3 * n, v + iv);
    if (nd == 1) cosrod_vec3_axpy(kw->vs + 3 * n, v[iv], rod->end[n == 0 ? 0 : 1].axis);
  }
  for (int k = 0; k < N; ++k) {
    if (ns)
      cosrod_vec3_copy(kw->rs + 4 * k, v + rod->vs_ns[k]);
    else
      cosrod_quat_copy(kw->rs + 4 * k, v + rod->qs[k]);
  }
}

/* g (into kw->rhs) at kw->xs, kw->ps; returns max |g|. */
static double pos_residual(const cosrod_rod *rod, struct rod_kirchhoff_work *kw) {
  const int N = rod->N, m = kw->m;
  double gmax = 0.0;
  for (int k = 0; k < N; ++k) {
    double dx[3], c[3];
    cosrod_vec3_sub(dx, kw->xs + 3 * (k + 1), kw->xs + 3 * k);
    cosrod_quat_rotate_inv(c, kw->ps + 4 * k, dx);
    for (int a = 0; a < m; ++a) {
      double g = c[a] - rod->ds[k] * (rod->G0[3 * k + a] + (a == 2 ? 1.0 : 0.0));
      kw->rhs[m * k + a] = g;
      if (fabs(g) > gmax) gmax = fabs(g);
    }
  }
  return gmax;
}

/* ġ (into kw->rhs) at kw->xs, kw->ps, kw->vs, kw->rs with the blocks of
 * every segment computed; returns max |ġ|. */
static double vel_residual(const cosrod_rod *rod, struct rod_kirchhoff_work *kw, cosrod_rod_form form) {
  const int N = rod->N, m = kw->m, nr = form == COSROD_FORM_NULLSPACE ? 3 : 4;
  double gmax = 0.0;
  for (int k = 0; k < N; ++k) {
    const double *Rt = kw->Rt + 9 * k, *Jr = kw->Jr + 12 * k, *r = kw->rs + 4 * k;
    double dv[3];
    cosrod_vec3_sub(dv, kw->vs + 3 * (k + 1), kw->vs + 3 * k);
    for (int a = 0; a < m; ++a) {
      double g = cosrod_vec3_dot(Rt + 3 * a, dv);
      for (int j = 0; j < nr; ++j) g += Jr[4 * a + j] * r[j];
      kw->rhs[m * k + a] = g;
      if (fabs(g) > gmax) gmax = fabs(g);
    }
  }
  return gmax;
}

cosrod_status cosrod_rod_kirchhoff_residual(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form,
                                            double t, const double *y, double *gpos, double *gvel) {
  if (!rod || !d || !y) return COSROD_ERR_INVALID;
  struct rod_kirchhoff_work *kw = d->kw;
  if (!kw) {
    if (gpos) *gpos = 0.0;
    if (gvel) *gvel = 0.0;
    return COSROD_OK;
  }
  if (form == COSROD_FORM_DAE) form = COSROD_FORM_ABSOLUTE; /* (q, v) of DAE: the ABSOLUTE layout */
  kin_positions(rod, kw, t, y);
  double gp = pos_residual(rod, kw);
  kin_velocities(rod, kw, form, t, y);
  for (int k = 0; k < rod->N; ++k) rod_kirchhoff_seg_blocks(rod, kw, form, k, kw->xs, kw->ps + 4 * k);
  double gv = vel_residual(rod, kw, form);
  if (gpos) *gpos = gp;
  if (gvel) *gvel = gv;
  return COSROD_OK;
}

cosrod_status cosrod_rod_kirchhoff_project(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form,
                                           double t, double *y, int maxit, double *moved) {
  if (!rod || !d || !y) return COSROD_ERR_INVALID;
  if (moved) *moved = 0.0;
  cosrod_status st = cosrod_rod_project(rod, form, y);
  struct rod_kirchhoff_work *kw = d->kw;
  if (st != COSROD_OK || !kw) return st;
  const int dae = form == COSROD_FORM_DAE;
  if (dae) form = COSROD_FORM_ABSOLUTE; /* (q, v) of DAE: the ABSOLUTE layout; multipliers below */
  memset(kw->dxe, 0, sizeof kw->dxe);
  memset(kw->dve, 0, sizeof kw->dve);
  const int N = rod->N, ns = form == COSROD_FORM_NULLSPACE;
  double dmax = 0.0, smax = 0.0;
  for (int k = 0; k < N; ++k)
    if (rod->ds[k] > smax) smax = rod->ds[k];
  const double tol = 8.0 * DBL_EPSILON * smax;
  /* positions: simplified Newton with S kept constant */
  kin_positions(rod, kw, t, y);
  int factored = 0;
  for (int it = 0; it < maxit; ++it) {
    if (pos_residual(rod, kw) <= tol) break;
    if (!factored) {
      for (int k = 0; k < N; ++k) rod_kirchhoff_seg_blocks(rod, kw, form, k, kw->xs, kw->ps + 4 * k);
      if (rod_kirchhoff_assemble_factor(rod, kw, form, t) != 0) return COSROD_ERR_SINGULAR;
      factored = 1;
    }
    cosrod_band_solve(kw->S, kw->rhs);
    rod_kirchhoff_g_transpose(rod, kw, kw->rhs);
    double mv =
        rod_kirchhoff_apply_correction(rod, kw, form, kw->rhs, y, rod->qv, rod->qs, ns, NULL, kw->dxe);
    dmax += mv;
    for (int k = 0; k < N; ++k) {
      double *p = y + rod->qs[k];
      rq_scale(p, 1.0 / sqrt(cosrod_quat_norm2(p)), p);
    }
    kin_positions(rod, kw, t, y);
  }
  if (moved) *moved = dmax;
  /* ṗ tangential again at the new p (ABSOLUTE) */
  if ((st = cosrod_rod_project(rod, form, y)) != COSROD_OK) return st;
  /* velocities: one exact solve at the projected positions */
  for (int k = 0; k < N; ++k) rod_kirchhoff_seg_blocks(rod, kw, form, k, kw->xs, kw->ps + 4 * k);
  kin_velocities(rod, kw, form, t, y);
  double gvel = vel_residual(rod, kw, form);
  /* factorised even without a velocity error: detects a singular G */
  if (rod_kirchhoff_assemble_factor(rod, kw, form, t) != 0) return COSROD_ERR_SINGULAR;
  if (gvel > 0.0) {
    cosrod_band_solve(kw->S, kw->rhs);
    rod_kirchhoff_g_transpose(rod, kw, kw->rhs);
    rod_kirchhoff_apply_correction(rod, kw, form, kw->rhs, y + rod->nq, ns ? rod->vv_ns : rod->qv,
                                   ns ? rod->vs_ns : rod->qs, 0, NULL, kw->dve);
  }
  for (int i = 0; i < cosrod_rod_ny(rod, form); ++i)
    if (!isfinite(y[i])) return COSROD_ERR_NONFINITE;
  /* DAE: the multipliers consistent with the projected (q, v) */
  if (dae) return rod_kirchhoff_lambda_dae(rod, d, t, y, y + 2 * rod->nq);
  return COSROD_OK;
}

cosrod_status cosrod_rod_kirchhoff_gmatrix(const cosrod_rod *rod, cosrod_rod_data *d, double t,
                                           const double *q, double *G, int ldg) {
  if (!rod || !d || !q || !G) return COSROD_ERR_INVALID;
  struct rod_kirchhoff_work *kw = d->kw;
  if (!kw) return COSROD_ERR_UNSUPPORTED;
  const int N = rod->N, m = kw->m, nv = rod->nv_ns;
  if (ldg < m * N) return COSROD_ERR_DIMENSION;
  for (int j = 0; j < nv; ++j) memset(G + (size_t)j * (size_t)ldg, 0, sizeof(double) * (size_t)(m * N));
  kin_positions(rod, kw, t, q);
  for (int k = 0; k < N; ++k) {
    rod_kirchhoff_seg_blocks(rod, kw, COSROD_FORM_NULLSPACE, k, kw->xs, kw->ps + 4 * k);
    const double *Rt = kw->Rt + 9 * k, *Jr = kw->Jr + 12 * k;
    for (int a = 0; a < m; ++a) {
      int row = m * k + a;
      for (int side = 0; side < 2; ++side) {
        int n = k + side, nd = rod->nd[n];
        double sg = side ? 1.0 : -1.0;
        if (nd == 3)
          for (int j = 0; j < 3; ++j)
            G[(size_t)(rod->vv_ns[n] + j) * (size_t)ldg + (size_t)row] = sg * Rt[3 * a + j];
        else if (nd == 1)
          G[(size_t)rod->vv_ns[n] * (size_t)ldg + (size_t)row] =
              sg * cosrod_vec3_dot(Rt + 3 * a, rod->end[n == 0 ? 0 : 1].axis);
      }
      for (int j = 0; j < 3; ++j) G[(size_t)(rod->vs_ns[k] + j) * (size_t)ldg + (size_t)row] = Jr[4 * a + j];
    }
  }
  return COSROD_OK;
}
