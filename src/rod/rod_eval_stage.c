// SPDX-License-Identifier: Apache-2.0
/* The kinematics, segment and vertex stages of rod_eval_forces (rod_eval.c),
 * written so that they run over contiguous index blocks in parallel
 * (core/par.h) with results bit-identical for every thread count and equal
 * to the plain serial loops:
 * - each segment kernel ([LLA] eq. 23) and each interior vertex kernel
 *   ([LLA] eq. 26) writes only its own entries and keeps its forces and its
 *   energy terms in d->parw;
 * - a second pass gathers them per vertex / per segment in the order of the
 *   serial loops (fx_n = (0 - fs_{n-1}) + fs_n, ψ_k = (fq_k + fp_k) + fm_{k+1}),
 *   and the energies are summed serially in index order.
 * The clamped ends (ghost quaternion, [LLA] Remark 3.1) stay serial. */
#include "core/par.h"
#include "rod/rod_internal.h"

/* Below this many segments f runs on one thread.  Not a measured break-even:
 * f costs ~0.12 us per segment (bench_threads), so at 2000 segments a
 * thread's half (~0.12 ms) is >20x an idle OpenMP fork-join (a few us); the
 * 2-thread times of bench/threads.sh (f parallel at every N) are meaningful
 * only at a load average < 1 on 2 cores, which was not reached when the
 * threshold was last reviewed (bench/results/threads.md). */
#define ROD_PAR_MIN_SEGMENTS 2000

static int par_min_segments = ROD_PAR_MIN_SEGMENTS;

int cosrod_rod_parallel_min_segments(void) { return par_min_segments; }

void rod_par_set_min_segments(int n) { par_min_segments = n > 0 ? n : ROD_PAR_MIN_SEGMENTS; }

size_t rod_par_work_size(int N) { return 15 * (size_t)N + 10; }

cosrod_status cosrod_rod_data_set_threads(cosrod_rod_data *d, int nthreads) {
  if (!d || nthreads < 0) return COSROD_ERR_INVALID;
  d->nthreads = cosrod_par_resolve(nthreads);
  return COSROD_OK;
}

int rod_par_threads(const cosrod_rod *rod, const cosrod_rod_data *d) {
  return rod->N >= par_min_segments ? d->nthreads : 1;
}
static int nthr(const cosrod_rod *rod, const cosrod_rod_data *d) { return rod_par_threads(rod, d); }

typedef struct {
  const cosrod_rod *rod;
  cosrod_rod_data *d;
  const double *y;
  int ns, damped;
} stage_ctx;

static double *par_fs(const cosrod_rod_data *d) { return d->parw; }
static double *par_eseg(const cosrod_rod_data *d) { return d->parw + 3 * (size_t)d->N; }
static double *par_vf(const cosrod_rod_data *d) { return d->parw + 5 * (size_t)d->N; }
static double *par_ev(const cosrod_rod_data *d) { return d->parw + 13 * (size_t)d->N + 8; }

static void kin_vertices(void *vc, int n0, int n1) {
  const stage_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  cosrod_rod_data *d = c->d;
  const double *v = c->y + rod->nq;
  for (int n = n0; n < n1; ++n) {
    int nd = rod->nd[n];
    double *x = d->x + 3 * n, *xd = d->xd + 3 * n;
    if (nd == 3) {
      int iv = c->ns ? rod->vv_ns[n] : rod->qv[n];
      cosrod_vec3_copy(x, c->y + rod->qv[n]);
      cosrod_vec3_copy(xd, v + iv);
    } else {
      int e = n == 0 ? 0 : 1;
      cosrod_vec3_copy(x, d->xe[e]);
      cosrod_vec3_copy(xd, d->xed[e]);
      if (nd == 1) {
        int iv = c->ns ? rod->vv_ns[n] : rod->qv[n];
        cosrod_vec3_axpy(x, c->y[rod->qv[n]], rod->end[e].axis);
        cosrod_vec3_axpy(xd, v[iv], rod->end[e].axis);
      }
    }
  }
}

static void kin_segments(void *vc, int k0, int k1) {
  const stage_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  cosrod_rod_data *d = c->d;
  const double *v = c->y + rod->nq;
  for (int k = k0; k < k1; ++k) {
    double *p = d->p + 4 * k, *pd = d->pd + 4 * k, *Om = d->Omega + 3 * k;
    cosrod_quat_copy(p, c->y + rod->qs[k]);
    if (c->ns) {
      cosrod_vec3_copy(Om, v + rod->vs_ns[k]);
      cosrod_quat_pdot(pd, p, Om);
    } else {
      cosrod_quat_copy(pd, v + rod->qs[k]);
      cosrod_quat_omega(Om, p, pd);
    }
  }
}

void rod_stage_kinematics(const cosrod_rod *rod, cosrod_rod_data *d, int ns, double t, const double *y) {
  for (int e = 0; e < 2; ++e) {
    const rod_end_model *em = &rod->end[e];
    if (em->fixpos || em->fixrot)
      cosrod_rod_end_motion(rod, e, t, d->xe[e], d->xed[e], d->xedd[e], d->pe[e], d->ped[e], d->pedd[e]);
  }
  stage_ctx c = {rod, d, y, ns, 0};
  const int nt = nthr(rod, d);
  cosrod_par_for(nt, rod->N + 1, kin_vertices, &c);
  cosrod_par_for(nt, rod->N, kin_segments, &c);
}

/* Segment kernels: strains, F, fq into ψ_k (zero before), fs and the energy
 * terms into parw. */
static void seg_kernels(void *vc, int k0, int k1) {
  const stage_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  cosrod_rod_data *d = c->d;
  double *fsb = par_fs(d), *eb = par_eseg(d);
  for (int k = k0; k < k1; ++k) {
    double dx[3], dxd[3], fq[4], V = 0.0, D = 0.0;
    cosrod_vec3_sub(dx, d->x + 3 * (k + 1), d->x + 3 * k);
    cosrod_vec3_sub(dxd, d->xd + 3 * (k + 1), d->xd + 3 * k);
    rod_seg_kernel(dx, dxd, d->p + 4 * k, d->pd + 4 * k, 1.0 / rod->ds[k], rod->ds[k], rod->G0 + 3 * k,
                   rod->CG, rod->VG, c->damped, d->Gamma + 3 * k, d->Gammad + 3 * k, d->F + 3 * k, fsb + 3 * k,
                   fq, &V, &D);
    rq_axpy(d->fp + 4 * k, 1.0, fq);
    eb[2 * k] = V;
    eb[2 * k + 1] = D;
  }
}

/* fx_n (zero before) = (0 - fs_{n-1}) + fs_n, the serial loop's order. */
static void seg_gather(void *vc, int n0, int n1) {
  const stage_ctx *c = vc;
  cosrod_rod_data *d = c->d;
  const int N = c->rod->N;
  const double *fsb = par_fs(d);
  for (int n = n0; n < n1; ++n) {
    double *f = d->fx + 3 * n;
    if (n > 0) cosrod_vec3_sub(f, f, fsb + 3 * (n - 1));
    if (n < N) cosrod_vec3_add(f, f, fsb + 3 * n);
  }
}

/* One thread: the serial loop, without the workspace.  fx_n receives
 * -fs_{n-1} (at k = n-1) before +fs_n (at k = n): the gather's order, so the
 * sums are bit-identical to the blocked path. */
static void seg_serial(const cosrod_rod *rod, cosrod_rod_data *d, int damped, double *Vse, double *Drate) {
  for (int k = 0; k < rod->N; ++k) {
    double dx[3], dxd[3], fq[4], fs[3], V = 0.0, D = 0.0;
    cosrod_vec3_sub(dx, d->x + 3 * (k + 1), d->x + 3 * k);
    cosrod_vec3_sub(dxd, d->xd + 3 * (k + 1), d->xd + 3 * k);
    rod_seg_kernel(dx, dxd, d->p + 4 * k, d->pd + 4 * k, 1.0 / rod->ds[k], rod->ds[k], rod->G0 + 3 * k,
                   rod->CG, rod->VG, damped, d->Gamma + 3 * k, d->Gammad + 3 * k, d->F + 3 * k, fs, fq, &V, &D);
    rq_axpy(d->fp + 4 * k, 1.0, fq);
    cosrod_vec3_add(d->fx + 3 * k, d->fx + 3 * k, fs);
    cosrod_vec3_sub(d->fx + 3 * (k + 1), d->fx + 3 * (k + 1), fs);
    *Vse += V;
    *Drate += D;
  }
}

void rod_stage_segments(const cosrod_rod *rod, cosrod_rod_data *d, int damped, double *Vse, double *Drate) {
  stage_ctx c = {rod, d, NULL, 0, damped};
  const int nt = nthr(rod, d);
  if (nt <= 1) {
    seg_serial(rod, d, damped, Vse, Drate);
    return;
  }
  cosrod_par_for(nt, rod->N, seg_kernels, &c);
  cosrod_par_for(nt, rod->N + 1, seg_gather, &c);
  const double *eb = par_eseg(d);
  for (int k = 0; k < rod->N; ++k) {
    *Vse += eb[2 * k];
    *Drate += eb[2 * k + 1];
  }
}

/* Interior vertex kernels (index i -> vertex n = i + 1): K, K̇, M and the
 * quaternion forces fm (on p_{n-1}), fp (on p_n) and energy terms into parw. */
static void vtx_kernels(void *vc, int i0, int i1) {
  const stage_ctx *c = vc;
  const cosrod_rod *rod = c->rod;
  cosrod_rod_data *d = c->d;
  double *vf = par_vf(d), *ev = par_ev(d);
  for (int n = i0 + 1; n < i1 + 1; ++n) {
    double V = 0.0, D = 0.0;
    rod_vtx_kernel(rod->curv, d->p + 4 * (n - 1), d->p + 4 * n, d->pd + 4 * (n - 1), d->pd + 4 * n,
                   2.0 / rod->w[n], rod->w[n], rod->K0 + 3 * n, rod->CK, rod->VK, c->damped, d->K + 3 * n,
                   d->Kd + 3 * n, d->M + 3 * n, vf + 8 * n, vf + 8 * n + 4, &V, &D);
    ev[2 * n] = V;
    ev[2 * n + 1] = D;
  }
}

/* ψ_k += fp of vertex k, then fm of vertex k+1 (interior vertices only). */
static void vtx_gather(void *vc, int k0, int k1) {
  const stage_ctx *c = vc;
  cosrod_rod_data *d = c->d;
  const int N = c->rod->N;
  const double *vf = par_vf(d);
  for (int k = k0; k < k1; ++k) {
    if (k >= 1) rq_axpy(d->fp + 4 * k, 1.0, vf + 8 * k + 4);
    if (k + 1 <= N - 1) rq_axpy(d->fp + 4 * k, 1.0, vf + 8 * (k + 1));
  }
}

/* End vertex e (0: n = 0, 1: n = N): zero at a free rotation, else the
 * ghost-quaternion kernel and its pull-back. */
static void vtx_end(const cosrod_rod *rod, cosrod_rod_data *d, int e, int damped, double *Vbt, double *Drate) {
  const int N = rod->N, n = e == 0 ? 0 : N;
  double *K = d->K + 3 * n, *Kd = d->Kd + 3 * n, *M = d->M + 3 * n;
  if (!rod->end[e].fixrot) {
    K[0] = K[1] = K[2] = Kd[0] = Kd[1] = Kd[2] = M[0] = M[1] = M[2] = 0.0;
    return;
  }
  int k = e == 0 ? 0 : N - 1;
  double g[4], gd[4], fm[4], fpp[4];
  rod_ghost(g, gd, d->pe[e], d->ped[e], d->p + 4 * k, d->pd + 4 * k);
  double alpha = 2.0 / rod->ds[k];
  if (e == 0) {
    rod_vtx_kernel(rod->curv, g, d->p, gd, d->pd, alpha, rod->w[0], rod->K0, rod->CK, rod->VK, damped, K, Kd, M,
                   fm, fpp, Vbt, Drate);
    rq_axpy(d->fp, 1.0, fpp);
    rod_ghost_pullback(d->fp, d->fe[0], fm, d->pe[0], d->p);
  } else {
    rod_vtx_kernel(rod->curv, d->p + 4 * k, g, d->pd + 4 * k, gd, alpha, rod->w[N], rod->K0 + 3 * N, rod->CK,
                   rod->VK, damped, K, Kd, M, fm, fpp, Vbt, Drate);
    rq_axpy(d->fp + 4 * k, 1.0, fm);
    rod_ghost_pullback(d->fp + 4 * k, d->fe[1], fpp, d->pe[1], d->p + 4 * k);
  }
}

/* One thread: the serial loop over the interior vertices, without the
 * workspace.  ψ_k receives fp of vertex k (at n = k) before fm of vertex k+1
 * (at n = k+1): the gather's order. */
static void vtx_serial(const cosrod_rod *rod, cosrod_rod_data *d, int damped, double *Vbt, double *Drate) {
  for (int n = 1; n < rod->N; ++n) {
    double fm[4], fpp[4], V = 0.0, D = 0.0;
    rod_vtx_kernel(rod->curv, d->p + 4 * (n - 1), d->p + 4 * n, d->pd + 4 * (n - 1), d->pd + 4 * n,
                   2.0 / rod->w[n], rod->w[n], rod->K0 + 3 * n, rod->CK, rod->VK, damped, d->K + 3 * n,
                   d->Kd + 3 * n, d->M + 3 * n, fm, fpp, &V, &D);
    rq_axpy(d->fp + 4 * (n - 1), 1.0, fm);
    rq_axpy(d->fp + 4 * n, 1.0, fpp);
    *Vbt += V;
    *Drate += D;
  }
}

void rod_stage_vertices(const cosrod_rod *rod, cosrod_rod_data *d, int damped, double *Vbt, double *Drate) {
  stage_ctx c = {rod, d, NULL, 0, damped};
  const int N = rod->N, nt = nthr(rod, d);
  if (nt <= 1) {
    vtx_end(rod, d, 0, damped, Vbt, Drate);
    vtx_serial(rod, d, damped, Vbt, Drate);
    vtx_end(rod, d, 1, damped, Vbt, Drate);
    return;
  }
  cosrod_par_for(nt, N - 1, vtx_kernels, &c);
  vtx_end(rod, d, 0, damped, Vbt, Drate);
  const double *ev = par_ev(d);
  for (int n = 1; n < N; ++n) {
    *Vbt += ev[2 * n];
    *Drate += ev[2 * n + 1];
  }
  cosrod_par_for(nt, N, vtx_gather, &c);
  vtx_end(rod, d, 1, damped, Vbt, Drate);
}
