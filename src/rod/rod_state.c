// SPDX-License-Identifier: Apache-2.0
/* Discrete Cosserat rod: size and index queries, prescribed end motion and
 * state packing / unpacking (the model is built in rod.c).  Prescribed
 * motion: linear centroid keyframes, slerp orientation keyframes ([LLA]
 * Test 2) p(t) = q_k exp(σ(t) log(q̄_k q_{k+1})) without shortest-arc flip,
 * or C¹ cubic ones (rod_keyframes.c). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "rod/rod_internal.h"

/* ---- queries ---------------------------------------------------------------- */

int cosrod_rod_nseg(const cosrod_rod *rod) { return rod->N; }
int cosrod_rod_nq(const cosrod_rod *rod) { return rod->nq; }
int cosrod_rod_nv(const cosrod_rod *rod, cosrod_rod_form form) {
  return form == COSROD_FORM_NULLSPACE ? rod->nv_ns : rod->nq;
}
int cosrod_rod_ny(const cosrod_rod *rod, cosrod_rod_form form) {
  if (form == COSROD_FORM_NULLSPACE) return rod->nq + rod->nv_ns;
  if (form == COSROD_FORM_DAE) return 2 * rod->nq + rod->N * (1 + cosrod_rod_kirchhoff_m(rod));
  return 2 * rod->nq;
}
int cosrod_rod_qindex_vertex(const cosrod_rod *rod, int n) { return (n < 0 || n > rod->N) ? -1 : rod->qv[n]; }
int cosrod_rod_qindex_segment(const cosrod_rod *rod, int k) {
  return (k < 0 || k >= rod->N) ? -1 : rod->qs[k];
}
int cosrod_rod_vertex_ndof(const cosrod_rod *rod, int n) { return (n < 0 || n > rod->N) ? 0 : rod->nd[n]; }
int cosrod_rod_vindex_vertex(const cosrod_rod *rod, cosrod_rod_form form, int n) {
  if (n < 0 || n > rod->N) return -1;
  return form == COSROD_FORM_NULLSPACE ? rod->vv_ns[n] : rod->qv[n];
}
int cosrod_rod_vindex_segment(const cosrod_rod *rod, cosrod_rod_form form, int k) {
  if (k < 0 || k >= rod->N) return -1;
  return form == COSROD_FORM_NULLSPACE ? rod->vs_ns[k] : rod->qs[k];
}
const double *cosrod_rod_grid(const cosrod_rod *rod) { return rod->s; }
const double *cosrod_rod_seg_length(const cosrod_rod *rod) { return rod->ds; }
const double *cosrod_rod_segment_inertia(const cosrod_rod *rod) { return rod->Ib; }
const double *cosrod_rod_vertex_weight(const cosrod_rod *rod) { return rod->w; }
cosrod_curvature cosrod_rod_curvature(const cosrod_rod *rod) { return rod->curv; }
const double *cosrod_rod_gamma0(const cosrod_rod *rod) { return rod->G0; }
const double *cosrod_rod_kappa0(const cosrod_rod *rod) { return rod->K0; }

void cosrod_rod_constants(const cosrod_rod *rod, double CG[3], double CK[3], double VG[3], double VK[3],
                          double *rhoA, double rhoI[3]) {
  if (CG) cosrod_vec3_copy(CG, rod->CG);
  if (CK) cosrod_vec3_copy(CK, rod->CK);
  if (VG) cosrod_vec3_copy(VG, rod->VG);
  if (VK) cosrod_vec3_copy(VK, rod->VK);
  if (rhoA) *rhoA = rod->rhoA;
  if (rhoI) cosrod_vec3_copy(rhoI, rod->rhoI);
}

void cosrod_rod_bandwidth(const cosrod_rod *rod, cosrod_rod_form form, int *ml_q, int *mu_q, int *ml_v,
                          int *mu_v) {
  (void)rod;
  int bq = 10, bv = form == COSROD_FORM_NULLSPACE ? 8 : 10;
  if (ml_q) *ml_q = bq;
  if (mu_q) *mu_q = bq;
  if (ml_v) *ml_v = bv;
  if (mu_v) *mu_v = bv;
}

/* ---- prescribed end motion ------------------------------------------------ */

cosrod_status cosrod_keyframes_eval(const double *pos, int npos, const double *rot, int nrot, int cubic,
                                    double t, double X[3], double XD[3], double XDD[3], double P[4],
                                    double PD[4], double PDD[4]) {
  if ((npos > 0 && !pos) || (nrot > 0 && !rot)) return COSROD_ERR_INVALID;
  if (npos > 0) {
    const double *K = pos;
    int n = npos;
    cosrod_vec3_zero(XD);
    cosrod_vec3_zero(XDD);
    if (t < K[0] || n == 1) {
      cosrod_vec3_copy(X, K + 1);
    } else if (t >= K[4 * (n - 1)]) {
      cosrod_vec3_copy(X, K + 4 * (n - 1) + 1);
    } else if (cubic) {
      rod_keyframes_cubic_pos(K, n, t, X, XD, XDD);
    } else { /* K_i <= t < K_{i+1}: velocities right-continuous at keyframes */
      int i = 0;
      while (t >= K[4 * (i + 1)]) ++i;
      double h = K[4 * (i + 1)] - K[4 * i], s = (t - K[4 * i]) / h;
      for (int j = 0; j < 3; ++j) {
        double a = K[4 * i + 1 + j], b = K[4 * (i + 1) + 1 + j];
        X[j] = a + s * (b - a);
        XD[j] = (b - a) / h;
      }
    }
  }
  if (nrot > 0) {
    const double *K = rot;
    int n = nrot;
    for (int j = 0; j < 4; ++j) PD[j] = PDD[j] = 0.0;
    if (t < K[0] || n == 1) {
      cosrod_quat_copy(P, K + 1);
    } else if (t >= K[5 * (n - 1)]) {
      cosrod_quat_copy(P, K + 5 * (n - 1) + 1);
    } else if (cubic) {
      rod_keyframes_cubic_rot(K, n, t, P, PD, PDD);
    } else {
      int i = 0;
      while (t >= K[5 * (i + 1)]) ++i;
      double h = K[5 * (i + 1)] - K[5 * i], s = (t - K[5 * i]) / h;
      const double *a = K + 5 * i + 1, *b = K + 5 * (i + 1) + 1;
      double r[4];
      cosrod_quat_conj_mul(r, a, b);
      double sn = sqrt(r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
      double th = atan2(sn, r[0]);
      double u[3] = {0, 0, 0};
      if (sn > 0.0) u[0] = r[1] / sn, u[1] = r[2] / sn, u[2] = r[3] / sn;
      double ex[4] = {cos(s * th), sin(s * th) * u[0], sin(s * th) * u[1], sin(s * th) * u[2]};
      cosrod_quat_mul(P, a, ex);
      double v[3] = {th * u[0] / h, th * u[1] / h, th * u[2] / h};
      cosrod_quat_mul_pure(PD, P, v);
      rq_scale(PDD, -(th / h) * (th / h), P);
    }
  }
  return COSROD_OK;
}

cosrod_status cosrod_rod_end_motion(const cosrod_rod *rod, int e, double t, double x[3], double xd[3],
                                    double xdd[3], double p[4], double pd[4], double pdd[4]) {
  if (e < 0 || e > 1) return COSROD_ERR_INVALID;
  const rod_end_model *em = &rod->end[e];
  double X[3], XD[3] = {0, 0, 0}, XDD[3] = {0, 0, 0}, P[4], PD[4] = {0, 0, 0, 0}, PDD[4] = {0, 0, 0, 0};
  cosrod_vec3_copy(X, em->x0);
  cosrod_quat_copy(P, em->p0);
  if (em->fn)
    em->fn(em->fn_user, e, t, X, XD, XDD, P, PD, PDD);
  else
    cosrod_keyframes_eval(em->pos, em->npos, em->rot, em->nrot, em->cubic, t, X, XD, XDD, P, PD, PDD);
  if (rod->at_rest) { /* static shell: rates are zero */
    cosrod_vec3_zero(XD), cosrod_vec3_zero(XDD);
    memset(PD, 0, sizeof PD), memset(PDD, 0, sizeof PDD);
  }
  if (x) cosrod_vec3_copy(x, X);
  if (xd) cosrod_vec3_copy(xd, XD);
  if (xdd) cosrod_vec3_copy(xdd, XDD);
  if (p) cosrod_quat_copy(p, P);
  if (pd) cosrod_quat_copy(pd, PD);
  if (pdd) cosrod_quat_copy(pdd, PDD);
  return COSROD_OK;
}

/* ---- packing ----------------------------------------------------------------- */

cosrod_status cosrod_rod_pack(const cosrod_rod *rod, cosrod_rod_form form, double t, const double *x,
                              const double *p, const double *xdot, const double *Omega, double *y) {
  if (!rod || !x || !p || !y) return COSROD_ERR_INVALID;
  int N = rod->N, nq = rod->nq;
  int ny = cosrod_rod_ny(rod, form);
  for (int i = 0; i < ny; ++i) y[i] = 0.0;
  double *v = y + nq;
  for (int n = 0; n <= N; ++n) {
    int nd = rod->nd[n];
    if (nd == 0) continue;
    int iq = rod->qv[n], iv = cosrod_rod_vindex_vertex(rod, form, n);
    if (nd == 3) {
      for (int j = 0; j < 3; ++j) {
        y[iq + j] = x[3 * n + j];
        v[iv + j] = xdot ? xdot[3 * n + j] : 0.0;
      }
    } else {
      int e = n == 0 ? 0 : 1;
      double xe[3], xed[3];
      cosrod_rod_end_motion(rod, e, t, xe, xed, NULL, NULL, NULL, NULL);
      double r[3];
      cosrod_vec3_sub(r, x + 3 * n, xe);
      y[iq] = cosrod_vec3_dot(r, rod->end[e].axis);
      if (xdot) {
        cosrod_vec3_sub(r, xdot + 3 * n, xed);
        v[iv] = cosrod_vec3_dot(r, rod->end[e].axis);
      }
    }
  }
  for (int k = 0; k < N; ++k) {
    int iq = rod->qs[k];
    cosrod_quat_copy(y + iq, p + 4 * k);
    double Om[3] = {0, 0, 0};
    if (Omega) cosrod_vec3_copy(Om, Omega + 3 * k);
    if (form == COSROD_FORM_NULLSPACE) {
      cosrod_vec3_copy(v + rod->vs_ns[k], Om);
    } else {
      cosrod_quat_pdot(v + rod->qs[k], p + 4 * k, Om);
    }
  }
  return COSROD_OK;
}

cosrod_status cosrod_rod_initial_state(const cosrod_rod *rod, cosrod_rod_form form, double *y) {
  if (!rod || !y) return COSROD_ERR_INVALID;
  int N = rod->N;
  /* initial shape with the def's uniform velocity and angular velocity */
  int nq = rod->nq;
  int ny = cosrod_rod_ny(rod, form);
  for (int i = 0; i < ny; ++i) y[i] = 0.0;
  double *v = y + nq;
  for (int n = 0; n <= N; ++n) {
    int nd = rod->nd[n];
    if (nd == 3) {
      int iv = cosrod_rod_vindex_vertex(rod, form, n);
      cosrod_vec3_copy(y + rod->qv[n], rod->x_init + 3 * n);
      cosrod_vec3_copy(v + iv, rod->vel0);
    }
  }
  for (int k = 0; k < N; ++k) {
    cosrod_quat_copy(y + rod->qs[k], rod->p_init + 4 * k);
    if (form == COSROD_FORM_NULLSPACE)
      cosrod_vec3_copy(v + rod->vs_ns[k], rod->om0);
    else
      cosrod_quat_pdot(v + rod->qs[k], rod->p_init + 4 * k, rod->om0);
  }
  return COSROD_OK;
}

cosrod_status cosrod_rod_unpack(const cosrod_rod *rod, cosrod_rod_form form, double t, const double *y,
                                double *x, double *p, double *xdot, double *Omega) {
  if (!rod || !y) return COSROD_ERR_INVALID;
  int N = rod->N, nq = rod->nq;
  const double *v = y + nq;
  for (int n = 0; n <= N; ++n) {
    int nd = rod->nd[n];
    int iq = rod->qv[n], iv = cosrod_rod_vindex_vertex(rod, form, n);
    if (nd == 3) {
      if (x) cosrod_vec3_copy(x + 3 * n, y + iq);
      if (xdot) cosrod_vec3_copy(xdot + 3 * n, v + iv);
    } else {
      int e = n == 0 ? 0 : 1;
      double xe[3], xed[3];
      cosrod_rod_end_motion(rod, e, t, xe, xed, NULL, NULL, NULL, NULL);
      if (nd == 1) {
        cosrod_vec3_axpy(xe, y[iq], rod->end[e].axis);
        cosrod_vec3_axpy(xed, v[iv], rod->end[e].axis);
      }
      if (x) cosrod_vec3_copy(x + 3 * n, xe);
      if (xdot) cosrod_vec3_copy(xdot + 3 * n, xed);
    }
  }
  for (int k = 0; k < N; ++k) {
    const double *pk = y + rod->qs[k];
    if (p) cosrod_quat_copy(p + 4 * k, pk);
    if (Omega) {
      if (form == COSROD_FORM_NULLSPACE)
        cosrod_vec3_copy(Omega + 3 * k, v + rod->vs_ns[k]);
      else
        cosrod_quat_omega(Omega + 3 * k, pk, v + rod->qs[k]);
    }
  }
  return COSROD_OK;
}

cosrod_status cosrod_rod_project(const cosrod_rod *rod, cosrod_rod_form form, double *y) {
  if (!rod || !y) return COSROD_ERR_INVALID;
  for (int k = 0; k < rod->N; ++k) {
    double *p = y + rod->qs[k];
    double *pd = form == COSROD_FORM_NULLSPACE ? NULL : y + rod->nq + rod->qs[k];
    if (cosrod_quat_project(p, pd) != COSROD_OK) return COSROD_ERR_SINGULAR;
  }
  return COSROD_OK;
}
