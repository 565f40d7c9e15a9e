// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, galpha part: the rods' null-space form ([L] Lemma 4.2)
 * as a problem on the Lie group (R³)^(N+1) x S³^N for the generalized-α
 * integrator (cosrod_step_galpha, cosrod_ode_problem.lie_nq).
 * Rods attached to rigid bodies: the bodies' positions after the rods' q,
 * their velocities after the rods' ν, with the multibody model's increment
 * (every parametrisation and formulation, joints; sim_couple_lie_place,
 * body_galpha.c), analytic dense tangents of the coupled right-hand side
 * (lie_couple.c; Kirchhoff rods: dense FD, lie_kirchhoff.c) and the
 * projection hook for joints and absolute bodies.
 *
 * LIE layout: y = (q of all rods, ν of all rods), q = (x_n | ξ_n, p_k)
 * interleaved as the rod's q, ν = (ẋ_n | ξ̇_n, Ω_k) as the rod's ν.
 * Increment (the exponential map, [AB07] §2):
 *   x_n <- x_n + w_x,  ξ_n <- ξ_n + w_ξ,  p_k <- p_k ∘ exp(½ w_Ω) = p_k ∘ (cos(|w|/2), sin(|w|/2) w/|w|)
 * (ṗ = ½ p Ω with Ω material, so the rotation increment multiplies on the
 * right); |p| stays 1 up to round-off without projection.
 * Tangent Jacobians (cosrod_ode_jac_tangent) from the rod's analytic whole
 * null-space Jacobian J (cosrod_rod_jac_full_band, node ordering):
 *   C = ∂ν̇/∂ν,   K = ∂ν̇/∂q · B(q),   B(q) = ∂q̇/∂ν (x: I; p_k: ½ p_k ∘ (0, e_j)),
 * because ∂(q ⊕ ε e_j)/∂ε at 0 = B(q) e_j and q̇ = B(q) ν is linear in ν.
 * Both have the stencil of the rod's ν-ν block (cosrod_rod_bandwidth).
 * Rod-rod and far self-contact add blocks outside it: sparse tangents
 * (lie_contact_sp.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "system/couple.h"
#include "system/system_model.h"

int sim_lie_increment(const double *q, const double *w, double *qn, void *user) {
  const sys_system *s = user;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    const double *qr = q + s->m->qoff_r[r], *wr = w + s->m->lie_voff_r[r];
    double *qo = qn + s->m->qoff_r[r];
    const int N = cosrod_rod_nseg(rod);
    for (int n = 0; n <= N; n++) {
      int nd = cosrod_rod_vertex_ndof(rod, n);
      if (nd == 0) continue;
      int iq = cosrod_rod_qindex_vertex(rod, n), iv = cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n);
      for (int k = 0; k < nd; k++) qo[iq + k] = qr[iq + k] + wr[iv + k];
    }
    for (int k = 0; k < N; k++) {
      int iq = cosrod_rod_qindex_segment(rod, k), iv = cosrod_rod_vindex_segment(rod, COSROD_FORM_NULLSPACE, k);
      const double *p = qr + iq, *a = wr + iv;
      double th = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
      double c = cos(0.5 * th), sf = th > 1e-8 ? sin(0.5 * th) / th : 0.5 - th * th / 48.0;
      double e[4] = {c, sf * a[0], sf * a[1], sf * a[2]};
      double *o = qo + iq;
      o[0] = p[0] * e[0] - p[1] * e[1] - p[2] * e[2] - p[3] * e[3];
      o[1] = p[0] * e[1] + p[1] * e[0] + p[2] * e[3] - p[3] * e[2];
      o[2] = p[0] * e[2] - p[1] * e[3] + p[2] * e[0] + p[3] * e[1];
      o[3] = p[0] * e[3] + p[1] * e[2] - p[2] * e[1] + p[3] * e[0];
    }
  }
  return sim_couple_lie_increment(s, q, w, qn); /* rigid bodies (couple.c, body_galpha.c) */
}

int sim_lie_jac_tangent_rods(double t, const double *y, double *K, double *C, int ld, void *user) {
  sys_system *s = user;
  const int lml = s->m->ml, lmu = s->m->mu; /* bandwidths of K, C */
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    const int nq = cosrod_rod_nq(rod), nyr = s->m->ny_r[r], jml = s->m->lie_jml, jmu = s->m->lie_jmu;
    const int ldj = jml + jmu + 1;
    const int *perm = s->m->lie_perm + s->m->off_r[r], *iperm = s->m->lie_iperm + s->m->off_r[r];
    double *J = s->d->lie_jac;
    sim_gather(s, r, y, s->d->yl);
    cosrod_status st = cosrod_rod_jac_full_band(rod, s->d->data[r], COSROD_FORM_NULLSPACE, t, s->d->yl, NULL, 0.0,
                                                perm, J, ldj, jml, jmu);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
    const int vo = s->m->lie_voff_r[r];
    const int *bc0 = s->m->lie_bc0 + s->m->off_r[r], *bcn = s->m->lie_bcn + s->m->off_r[r];
#define JB(bi, bj) J[(size_t)(bj) * (size_t)ldj + (size_t)(jmu + (bi) - (bj))]
    /* B = ∂q̇/∂ν: row j of q has bcn[j] entries in the ν columns bc0[j]..
     * (block diagonal: a q component moves only with the ν of its own node) */
    double *Bq = s->d->lie_b;
    for (int j = 0; j < nq; j++)
      for (int k = 0; k < bcn[j]; k++) {
        const int bj = perm[j], bc = perm[nq + bc0[j] + k];
        Bq[3 * j + k] = bc - bj > jmu || bj - bc > jml ? 0.0 : JB(bj, bc);
      }
    const size_t step = (size_t)ld - 1; /* K(i, c) -> K(i, c + 1) */
    for (int i = 0; i < nyr - nq; i++) {
      const int bi = perm[nq + i];
      const int lo = bi - jml > 0 ? bi - jml : 0, hi = bi + jmu < nyr - 1 ? bi + jmu : nyr - 1;
      for (int bj = lo; bj <= hi; bj++) {
        const double a = JB(bi, bj);
        if (a == 0.0) continue;
        const int j = iperm[bj];
        if (j >= nq) { /* C(i, c) = ∂ν̇_i/∂ν_c */
          int c = j - nq;
          if (c - i > lmu || i - c > lml) return -1;
          C[(size_t)(vo + c) * (size_t)ld + (size_t)(lmu + i - c)] += a;
          continue;
        }
        /* K(i, c) += ∂ν̇_i/∂q_j B(j, c) */
        const int c0 = bc0[j], nb = bcn[j];
        if (c0 + nb - 1 - i > lmu || i - c0 > lml) return -1; /* outside the ν-ν stencil: cannot happen */
        double *Kc = K + (size_t)(vo + c0) * (size_t)ld + (size_t)(lmu + i - c0);
        const double *b = Bq + 3 * j;
        for (int k = 0; k < nb; k++) Kc[(size_t)k * step] += a * b[k];
      }
    }
#undef JB
  }
  return 0;
}

cosrod_status sim_galpha_layout(sys_system *s) {
  size_t n = (size_t)s->m->ny;
  s->mb->lie_perm = malloc(n * sizeof *s->m->lie_perm);
  s->mb->lie_iperm = malloc(n * sizeof *s->m->lie_iperm);
  s->mb->lie_voff_r = calloc(s->m->nrods, sizeof *s->m->lie_voff_r);
  s->mb->lie_bc0 = calloc(n, sizeof *s->m->lie_bc0);
  s->mb->lie_bcn = calloc(n, sizeof *s->m->lie_bcn);
  if (!s->m->lie_perm || !s->m->lie_iperm || !s->m->lie_voff_r || !s->m->lie_bc0 || !s->m->lie_bcn) return COSROD_ERR_NOMEM;
  int nq_tot = 0, maxny = 0;
  for (size_t r = 0; r < s->m->nrods; r++) nq_tot += cosrod_rod_nq(s->m->rods[r]);
  nq_tot += sim_couple_lie_place(s, nq_tot); /* rigid bodies: q after the rods' q, ν last */
  int qb = 0, vb = 0;
  s->mb->ml = s->mb->mu = 0;
  for (size_t r = 0; r < s->m->nrods; r++) {
    const cosrod_rod *rod = s->m->rods[r];
    int nq = cosrod_rod_nq(rod), nyr = s->m->ny_r[r], *m = s->m->map + s->m->off_r[r], ml, mu, mlq, muq, mlv, muv;
    for (int i = 0; i < nq; i++) m[i] = qb + i;
    for (int i = nq; i < nyr; i++) m[i] = nq_tot + vb + i - nq;
    s->mb->qoff_r[r] = qb;
    s->mb->lie_voff_r[r] = vb;
    qb += nq;
    vb += nyr - nq;
    cosrod_status st = cosrod_rod_order_fill(rod, COSROD_FORM_NULLSPACE, s->m->lie_perm + s->m->off_r[r],
                                             s->m->lie_iperm + s->m->off_r[r], &ml, &mu);
    if (st != COSROD_OK) return st;
    /* the ν columns of B = ∂q̇/∂ν in each q row: x_n, ξ_n -> the same
     * coordinate of ν_n; p_k (4 rows) -> Ω_k (3 columns) */
    int *bc0 = s->m->lie_bc0 + s->m->off_r[r], *bcn = s->m->lie_bcn + s->m->off_r[r];
    const int N = cosrod_rod_nseg(rod);
    for (int v = 0; v <= N; v++)
      for (int c = 0; c < cosrod_rod_vertex_ndof(rod, v); c++) {
        bc0[cosrod_rod_qindex_vertex(rod, v) + c] = cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, v) + c;
        bcn[cosrod_rod_qindex_vertex(rod, v) + c] = 1;
      }
    for (int k = 0; k < N; k++)
      for (int c = 0; c < 4; c++) {
        bc0[cosrod_rod_qindex_segment(rod, k) + c] = cosrod_rod_vindex_segment(rod, COSROD_FORM_NULLSPACE, k);
        bcn[cosrod_rod_qindex_segment(rod, k) + c] = 3;
      }
    if (ml > s->m->lie_jml) s->mb->lie_jml = ml;
    if (mu > s->m->lie_jmu) s->mb->lie_jmu = mu;
    cosrod_rod_bandwidth(rod, COSROD_FORM_NULLSPACE, &mlq, &muq, &mlv, &muv);
    if (mlv > s->m->ml) s->mb->ml = mlv;
    if (muv > s->m->mu) s->mb->mu = muv;
    if (nyr > maxny) maxny = nyr;
  }
  s->mb->nq_tot = nq_tot;
  s->d->lie_jac = malloc((size_t)maxny * (size_t)(s->m->lie_jml + s->m->lie_jmu + 1) * sizeof *s->d->lie_jac);
  s->d->lie_b = malloc(3 * (size_t)maxny * sizeof *s->d->lie_b);
  if (!s->d->lie_jac || !s->d->lie_b) return COSROD_ERR_NOMEM;
  return sim_galpha_kirchhoff_layout(s);
}

void sim_galpha_problem(sys_system *s, cosrod_integrate_options *o) {
  cosrod_ode_problem *p = &s->mb->prob;
  const sys_def *so = s->m->def;
  p->jac = NULL;
  p->jac_banded = 0;
  p->jac_fills = 0;
  p->jac_ml = p->jac_mu = 0;
  p->lie_nq = s->m->nq_tot;
  p->increment = sim_lie_increment;
  /* Kirchhoff rods: dense FD; rods on bodies: analytic, dense (lie_couple.c) */
  p->jac_tangent = s->d->lie_cj ? sim_lie_jac_tangent_couple
                   : s->d->lie_fd ? sim_lie_jac_tangent_fd
                                  : sim_lie_jac_tangent_rods;
  /* rod-rod / self-contact: sparse K, C with the cross blocks (lie_contact_sp.c, set up by linsolve.c) */
  p->jac_tangent_sp = s->d->lsp ? sim_lie_sp_tangent : NULL;
  p->tangent_pattern = s->d->lsp ? sim_lie_sp_pattern : NULL;
  if (s->d->lie_fd) s->mb->ml = s->mb->mu = s->m->ny - s->m->nq_tot - 1; /* dense (sim_couple_layout may have set s->m->ml) */
  p->lie_ml = s->m->ml;
  p->lie_mu = s->m->mu;
  o->rho_inf = so->rho_inf;
  if (so->h > 0.0) {
    o->fixed_step = 1;
    o->h0 = so->h;
    /* a fixed step takes T/h steps: max_steps bounds nothing the user chose */
    double nst = so->t_end / so->h + 10.0;
    if (nst > (double)o->max_steps) o->max_steps = nst < 1e15 ? (long)nst : (long)1e15;
    if (so->realtime) { /* bounded work per step (integrate.h, galpha_realtime) */
      o->galpha_realtime = 1;
      o->max_newton = so->rt_newton_max;
      o->jac_budget = so->rt_jac_budget;
    }
  }
}

void sim_galpha_free(sys_system *s) {
  free(s->m->lie_perm);
  free(s->m->lie_iperm);
  free(s->m->lie_voff_r);
  free(s->m->lie_bc0);
  free(s->m->lie_bcn);
  free(s->d->lie_jac);
  free(s->d->lie_b);
  free(s->d->lie_fd);
  free(s->d->lie_cj);
  free(s->d->lie_ccol);
  sim_lie_sp_free(s);
}
