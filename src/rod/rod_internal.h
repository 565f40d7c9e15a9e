// SPDX-License-Identifier: Apache-2.0
/* Internal model struct and the per-segment / per-vertex force kernels of the
 * discrete Cosserat rod, shared by rod_eval.c and the Jacobian code.
 *
 * Segment kernel ([LLA] eq. 23, midpoint rule): with a = Δx/Δs,
 *   Γ = Im(p̄ a p) - e3,   Γ̇ = Im(p̄̇ a p + p̄ ȧ p + p̄ a ṗ),
 *   F = C_Γ (Γ - Γ0) + V_Γ Γ̇,
 *   V = ½ Δs (Γ-Γ0)ᵀ C_Γ (Γ-Γ0),   D-rate = Δs Γ̇ᵀ V_Γ Γ̇,
 *   -∂(V + D)/∂x_n = -p F p̄,  -∂/∂x_{n-1} = +p F p̄,  -∂/∂p = 2 Δx p F.
 * (V and the dissipation function D = ½ Δs Γ̇ᵀV_ΓΓ̇ have the same gradient
 * structure since ∂Γ̇/∂q̇ = ∂Γ/∂q, so one F carries both.)
 *
 * Vertex kernel ([LLA] eq. 26, trapezoidal rule with weight w): W = p̄₋ p₊,
 * c = Re W, K = α ζ(c) Im W with α = 2/δs,
 *   K̇ = α (ζ'(c) ċ Im W + ζ(c) Im Ẇ),  M = C_K (K - K0) + V_K K̇,
 *   V = ½ w (K-K0)ᵀ C_K (K-K0),   D-rate = w K̇ᵀ V_K K̇.
 * With the quaternion Q = w α (ζ' <M, Im W> | ζ M) the exact gradients are
 *   ∂V/∂p₊ = p₋ Q,   ∂V/∂p₋ = p₊ Q̄
 * (derivation: <M, Im(p̄₋ dp₊)> = <p₋ M, dp₊>, dc = <p₋, dp₊>; symmetric in p₋).
 * The curvature variants differ only in ζ(c), written algebraically in
 * c = cos θ = Re W (arccos only for the angle variant). */
#ifndef COSROD_ROD_INTERNAL_H
#define COSROD_ROD_INTERNAL_H

#include <math.h>
#include <stddef.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/vec3.h"
#include "rod/rod_hooks.h"

#define ROD_PI 3.14159265358979323846264338327950288

typedef struct rod_end_model {
  cosrod_end_kind kind;
  int fixpos; /* centroid prescribed (pinned, clamped, prescribed) */
  int fixrot; /* frame prescribed (clamped, prescribed): ghost quaternion */
  int slides; /* one translational coordinate ξ along axis */
  double axis[3];
  int npos, nrot;
  double *pos;         /* (npos x 4) */
  double *rot;         /* (nrot x 5) */
  double x0[3], p0[4]; /* initial centroid / frame */
  int cubic;           /* C¹ cubic keyframe interpolation (rod_keyframes.c) */
  cosrod_rod_end_fn fn; /* caller-supplied motion instead of keyframes (rod_hooks.c), or NULL */
  void *fn_user;
} rod_end_model;

/* rod_keyframes.c: C¹ cubic interpolation of n >= 2 keyframe rows K (t, x, y, z) /
 * (t, q0..q3) at t inside [K_0, K_{n-1}]: value, first and second derivative. */
void rod_keyframes_cubic_pos(const double *K, int n, double t, double x[3], double xd[3], double xdd[3]);
void rod_keyframes_cubic_rot(const double *K, int n, double t, double p[4], double pd[4], double pdd[4]);

struct cosrod_rod {
  int N;
  double L;
  double *s;  /* (N+1) grid */
  double *ds; /* (N) Δs */
  double *w;  /* (N+1) trapezoidal weights δs_n (lumped masses / ρA) */
  double *mv; /* (N+1) vertex masses ρA δs_n */
  double *Ib; /* (N x 3) segment inertias ρΔs (I1, I2, J) */
  double CG[3], CK[3], VG[3], VK[3], rhoA, rhoI[3];
  cosrod_curvature curv;
  double *G0;              /* (N x 3) */
  double *K0;              /* ((N+1) x 3) */
  double *x_init, *p_init; /* ((N+1) x 3), (N x 4) */
  double vel0[3], om0[3];
  rod_end_model end[2];
  int nq, nv_ns;
  int *qv, *qs;       /* (N+1), (N) offsets in q (and v for ABSOLUTE/DAE) */
  int *nd;            /* (N+1) vertex dofs 0/1/3 */
  int *vv_ns, *vs_ns; /* (N+1), (N) offsets in ν */
  double gravity[3];
  int nloads;
  cosrod_rod_load *loads;
  cosrod_rod_load_fn load_fn;
  void *load_user;
  cosrod_rod_load_jac_fn load_jac_fn; /* derivatives of load_fn's vertex forces (rod_hooks.h), or NULL */
  void *load_jac_user;
  int load_fn_reaction; /* the callback's forces are reactions of the environment (rod_hooks.h) */
  int has_damping;  /* any velocity-dependent force (Kelvin–Voigt, coefficients, medium) */
  int at_rest;      /* static shell: prescribed ends have no rates (rod_statics.c) */
  double cmed_t, cmed_r; /* medium damping c_t (N s/m^2), c_r (N s) (rod_medium.c) */
  cosrod_rod_model model;
};

/* ---- small quaternion helpers ------------------------------------------- */

/* r = p w̄ ... general helpers not in quat.h */
static inline void rq_scale(double r[4], double s, const double p[4]) {
  r[0] = s * p[0];
  r[1] = s * p[1];
  r[2] = s * p[2];
  r[3] = s * p[3];
}
static inline void rq_axpy(double y[4], double a, const double x[4]) {
  y[0] += a * x[0];
  y[1] += a * x[1];
  y[2] += a * x[2];
  y[3] += a * x[3];
}

/* ζ(c) and ζ'(c) = dζ/dc of the curvature variants ([LLA] eq. 26). */
static inline void rod_zeta(cosrod_curvature cv, double c, double *z, double *zp) {
  switch (cv) {
    case COSROD_CURV_SINE2:
      *z = 1.0;
      *zp = 0.0;
      break;
    case COSROD_CURV_SINE4: {
      double u = 1.0 / (1.0 + c);
      *z = sqrt(2.0 * u);
      *zp = -0.5 * (*z) * u;
      break;
    }
    case COSROD_CURV_TANGENT2: {
      double u = 1.0 / c;
      *z = u;
      *zp = -u * u;
      break;
    }
    case COSROD_CURV_TANGENT4: {
      double u = 1.0 / (1.0 + c);
      *z = 2.0 * u;
      *zp = -2.0 * u * u;
      break;
    }
    default: { /* angle: ζ = arccos(c)/sqrt(1-c²); Taylor series in u = 1-c near c = 1 */
      double u = 1.0 - c;
      if (fabs(u) < 1e-3) {
        *z = 1.0 + u * (1.0 / 3.0 + u * (2.0 / 15.0 + u * (2.0 / 35.0 + u * (8.0 / 315.0))));
        *zp = -(1.0 / 3.0 + u * (4.0 / 15.0 + u * (6.0 / 35.0 + u * (32.0 / 315.0))));
      } else {
        double cc = c < -1.0 ? -1.0 : c;
        double th = acos(cc);
        double sn = sqrt((1.0 - cc) * (1.0 + cc));
        *z = th / sn;
        *zp = (cc * th - sn) / (sn * sn * sn);
      }
      break;
    }
  }
}

/* Segment kernel (see the file comment).  Inputs: dx = x_n - x_{n-1},
 * dxd its rate, p, pd, ids = 1/Δs, ds = Δs.  Outputs: G, Gd, F (3); fs = p F p̄
 * (spatial force: add to x_{n-1}, subtract from x_n); fq = 2 Δx p F (force on
 * p, to add).  Adds energy and dissipation rate. */
static inline void rod_seg_kernel(const double dx[3], const double dxd[3], const double p[4],
                                  const double pd[4], double ids, double ds, const double G0[3],
                                  const double CG[3], const double VG[3], int damped, double G[3],
                                  double Gd[3], double F[3], double fs[3], double fq[4], double *V,
                                  double *Drate) {
  double a[3] = {dx[0] * ids, dx[1] * ids, dx[2] * ids};
  cosrod_quat_rotate_inv(G, p, a);
  G[2] -= 1.0;
  double e0 = G[0] - G0[0], e1 = G[1] - G0[1], e2 = G[2] - G0[2];
  F[0] = CG[0] * e0;
  F[1] = CG[1] * e1;
  F[2] = CG[2] * e2;
  *V += 0.5 * ds * (F[0] * e0 + F[1] * e1 + F[2] * e2);
  if (damped) {
    /* Γ̇ = Im(p̄̇ a p + p̄ ȧ p + p̄ a ṗ) = R(p)ᵀ ȧ + 2 Im(p̄ a ṗ)·... computed directly */
    double ad[3] = {dxd[0] * ids, dxd[1] * ids, dxd[2] * ids};
    double t1[3], qa[4], r[4];
    cosrod_quat_rotate_inv(t1, p, ad);
    /* p̄ a ṗ + conj(p̄ a ṗ)‾ ... : p̄̇ a p = conj(p̄ ā ṗ) = -conj(p̄ a ṗ); Im(-conj(z)) = Im(z) */
    cosrod_quat_pure(qa, a);
    double pa[4];
    cosrod_quat_conj_mul(pa, p, qa); /* p̄ a */
    cosrod_quat_mul(r, pa, pd);      /* p̄ a ṗ */
    Gd[0] = t1[0] + 2.0 * r[1];
    Gd[1] = t1[1] + 2.0 * r[2];
    Gd[2] = t1[2] + 2.0 * r[3];
    double v0 = VG[0] * Gd[0], v1 = VG[1] * Gd[1], v2 = VG[2] * Gd[2];
    *Drate += ds * (v0 * Gd[0] + v1 * Gd[1] + v2 * Gd[2]);
    F[0] += v0;
    F[1] += v1;
    F[2] += v2;
  } else {
    Gd[0] = Gd[1] = Gd[2] = 0.0;
  }
  cosrod_quat_rotate(fs, p, F);
  double pF[4];
  cosrod_quat_mul_pure(pF, p, F);
  double qdx[4];
  cosrod_quat_pure(qdx, dx);
  cosrod_quat_mul(fq, qdx, pF);
  rq_scale(fq, 2.0, fq);
}

/* Vertex kernel (see the file comment).  pm, pp: p₋, p₊ and their rates;
 * alpha = 2/δs (curvature scale), w = trapezoidal weight.  Outputs K, Kd, M
 * (3), forces fm = -∂/∂p₋, fp = -∂/∂p₊ (4, to add).  Adds energy and
 * dissipation rate. */
static inline void rod_vtx_kernel(cosrod_curvature cv, const double pm[4], const double pp[4],
                                  const double pmd[4], const double ppd[4], double alpha, double w,
                                  const double K0[3], const double CK[3], const double VK[3], int damped,
                                  double K[3], double Kd[3], double M[3], double fm[4], double fp[4],
                                  double *V, double *Drate) {
  double W[4];
  cosrod_quat_conj_mul(W, pm, pp);
  double z, zp;
  rod_zeta(cv, W[0], &z, &zp);
  double az = alpha * z;
  K[0] = az * W[1];
  K[1] = az * W[2];
  K[2] = az * W[3];
  double e0 = K[0] - K0[0], e1 = K[1] - K0[1], e2 = K[2] - K0[2];
  M[0] = CK[0] * e0;
  M[1] = CK[1] * e1;
  M[2] = CK[2] * e2;
  *V += 0.5 * w * (M[0] * e0 + M[1] * e1 + M[2] * e2);
  if (damped) {
    double Wd[4], t[4];
    cosrod_quat_conj_mul(Wd, pmd, pp);
    cosrod_quat_conj_mul(t, pm, ppd);
    rq_axpy(Wd, 1.0, t);
    double azp = alpha * zp * Wd[0];
    Kd[0] = azp * W[1] + az * Wd[1];
    Kd[1] = azp * W[2] + az * Wd[2];
    Kd[2] = azp * W[3] + az * Wd[3];
    double v0 = VK[0] * Kd[0], v1 = VK[1] * Kd[1], v2 = VK[2] * Kd[2];
    *Drate += w * (v0 * Kd[0] + v1 * Kd[1] + v2 * Kd[2]);
    M[0] += v0;
    M[1] += v1;
    M[2] += v2;
  } else {
    Kd[0] = Kd[1] = Kd[2] = 0.0;
  }
  double wa = w * alpha;
  double Q[4] = {wa * zp * (M[0] * W[1] + M[1] * W[2] + M[2] * W[3]), wa * z * M[0], wa * z * M[1],
                 wa * z * M[2]};
  double Qc[4] = {Q[0], -Q[1], -Q[2], -Q[3]};
  cosrod_quat_mul(fp, pm, Q);
  cosrod_quat_mul(fm, pp, Qc);
  rq_scale(fp, -1.0, fp);
  rq_scale(fm, -1.0, fm);
}

/* Ghost quaternion of a clamped end ([LLA] Remark 3.1): spherical reflection
 * g = pe p̄ pe of the end segment's p through the end frame pe, and its rate. */
static inline void rod_ghost(double g[4], double gd[4], const double pe[4], const double ped[4],
                             const double p[4], const double pd[4]) {
  double t[4], u[4], pc[4], pdc[4];
  cosrod_quat_conj(pc, p);
  cosrod_quat_mul(t, pe, pc);
  cosrod_quat_mul(g, t, pe);
  /* ġ = ṗe p̄ pe + pe ṗ̄ pe + pe p̄ ṗe */
  cosrod_quat_conj(pdc, pd);
  double a[4], b[4], c[4];
  cosrod_quat_mul(u, pc, pe);
  cosrod_quat_mul(a, ped, u);
  cosrod_quat_mul(u, pe, pdc);
  cosrod_quat_mul(b, u, pe);
  cosrod_quat_mul(c, t, ped);
  for (int i = 0; i < 4; ++i) gd[i] = a[i] + b[i] + c[i];
}

/* Pull a force fg on the ghost back: force on p += pe f̄g pe; force on pe
 * (returned in fe) = fg p̄e p + p p̄e fg. */
static inline void rod_ghost_pullback(double fpv[4], double fe[4], const double fg[4], const double pe[4],
                                      const double p[4]) {
  double fc[4], t[4], r[4];
  cosrod_quat_conj(fc, fg);
  cosrod_quat_mul(t, pe, fc);
  cosrod_quat_mul(r, t, pe);
  rq_axpy(fpv, 1.0, r);
  double a[4], b[4];
  cosrod_quat_mul_conj(t, fg, pe); /* fg p̄e */
  cosrod_quat_mul(a, t, p);
  cosrod_quat_mul_conj(t, p, pe); /* p p̄e */
  cosrod_quat_mul(b, t, fg);
  for (int i = 0; i < 4; ++i) fe[i] = a[i] + b[i];
}

/* Internal (rod_kirchhoff.c): workspace of a Kirchhoff rod's data (NULL for
 * Cosserat; *ok = 0 on no memory), its release, and the constraint stage of
 * the ABSOLUTE / NULLSPACE right-hand sides: corrects ydot (the Cosserat
 * accelerations, d evaluated at y) in place; 0, or -1 at a kinematic
 * singularity or NaN. */
struct rod_kirchhoff_work *rod_kirchhoff_work_create(const cosrod_rod *rod, int *ok);
void rod_kirchhoff_work_free(struct rod_kirchhoff_work *kw);
int rod_kirchhoff_accel(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                        const double *y, double *ydot);

/* Internal (rod_eval.c): the ABSOLUTE right-hand side without the Kirchhoff
 * constraint stage (a0 of rod_kirchhoff.c; = cosrod_rod_rhs_absolute for a
 * Cosserat rod). */
int rod_rhs_absolute_base(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y, double *ydot);
/* Internal (rod_kirchhoff.c): Kirchhoff DAE residual r = M y' - f(t, y) of
 * cosrod_rod_kirchhoff_rhs_dae (cosrod_rod_res_dae of a Kirchhoff rod), and
 * the consistent multipliers (λ (N), λ_K (m N)) of a DAE state (cosrod_rod_lambda). */
int rod_kirchhoff_res_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                          const double *yp, double *res);
cosrod_status rod_kirchhoff_lambda_dae(const cosrod_rod *rod, cosrod_rod_data *d, double t, const double *y,
                                       double *lambda);

/* Internal: size (doubles) of d->jacw, the analytic Jacobian workspace (rod_jac.c). */
size_t rod_jac_work_size(const cosrod_rod *rod);

/* Internal: evaluate the kinematics from y, all forces and energies (rod_eval.c). */
cosrod_status rod_eval_forces(const cosrod_rod *rod, cosrod_rod_data *d, cosrod_rod_form form, double t,
                              const double *y, int *cbret);

/* rod_medium.c: medium damping.  Adds -c_t δs_n ẋ_n to fx and the segment
 * moments -c_r Δs Ω_k (Ω = 2 Im(p̄ṗ)) to ψ of the evaluated data d; returns
 * the dissipation rate Σ c_t δs_n |ẋ_n|² + Σ c_r Δs |Ω_k|² (>= 0). */
double rod_medium_forces(const cosrod_rod *rod, cosrod_rod_data *d);
/* rod_medium.c: their derivatives into the stage-1 workspaces (wv, ws). */
void rod_medium_jac(const cosrod_rod *rod, const cosrod_rod_data *d, double *wv, double *ws);

/* Stages of rod_eval_forces over segment blocks (rod_eval_stage.c): the
 * kinematics of y at t, the segment kernels (adds fx, ψ, Vse, Drate) and the
 * vertex kernels with the clamped ends (adds ψ, Vbt, Drate); fx and ψ must
 * be zero before the segment stage.  rod_par_work_size: doubles of d->parw. */
/* Benchmarks only (bench/rod/bench_threads.c): rods of >= n segments run in
 * parallel from now on (n <= 0: back to the default).  Not thread-safe. */
void rod_par_set_min_segments(int n);
/* Threads of the loops over the segments of rod (evaluation and Jacobian):
 * d->nthreads for rods of >= cosrod_rod_parallel_min_segments() segments, else 1. */
int rod_par_threads(const cosrod_rod *rod, const cosrod_rod_data *d);
void rod_stage_kinematics(const cosrod_rod *rod, cosrod_rod_data *d, int ns, double t, const double *y);
void rod_stage_segments(const cosrod_rod *rod, cosrod_rod_data *d, int damped, double *Vse, double *Drate);
void rod_stage_vertices(const cosrod_rod *rod, cosrod_rod_data *d, int damped, double *Vbt, double *Drate);
size_t rod_par_work_size(int N);

#endif /* COSROD_ROD_INTERNAL_H */
