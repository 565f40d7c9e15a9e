// SPDX-License-Identifier: Apache-2.0
/* Simulation driver, galpha for rods attached to rigid bodies: the analytic
 * tangent Jacobians K = ∂f_v(q ⊕ ε e_j, ν)/∂ε, C = ∂f_v/∂ν of the coupled
 * right-hand side on the LIE layout (lie_layout.c; [AB07] eq. 19, [BCA12]
 * §3), replacing the dense forward differences (lie_kirchhoff.c: 1 + 2 nv
 * right-hand sides per Jacobian) for Cosserat rods.
 *
 * The coupled Jacobian J = ∂f/∂y splits into
 *   rod x rod    the rod's analytic null-space Jacobian at the frozen end
 *                poses, turned into K, C per rod (sim_lie_jac_tangent_rods);
 *   rod x body, body x rod, body x body
 *                the chain rule of couple_jac.c (end poses, end reactions,
 *                body wrenches, the multibody Jacobian), written into a
 *                dense scratch in the LIE positions;
 * and, as for one rod (lie_layout.c) and the bodies alone (body_galpha.c),
 *   C(i, c) = J(ν_i, ν_c),   K(i, c) = Σ_j J(ν_i, q_j) B(j, c),
 * B = ∂q̇/∂ν (q̇ = B(q) ν is linear in ν, and d(q ⊕ ε e_c)/dε at 0 = B e_c
 * for every increment of lie_layout.c and body_galpha.c):
 *   rod x_n, ξ_n: 1 at their own ν;  rod p_k: ½ p_k ∘ (0, e_c) at Ω_k;
 *   bodies: the q̇ rows of the multibody Jacobian (J_qv).
 * Kirchhoff rods, contact on bodies without analytic blocks and entries the
 * chain rule cannot place fall back to the differences. */
#include <stdlib.h>
#include <string.h>

#include "cosrod/body.h"
#include "system/couple.h"
#include "system/couple_internal.h"
#include "system/couple_jac_sp.h"
#include "system/system_model.h"

cosrod_status sim_galpha_couple_setup(sys_system *s) {
  const char *cj = getenv("COSROD_COUPLE_JAC");
  if (!s->d->cpl || !s->d->cpl->m || sim_has_kirchhoff(s) || (cj && !strcmp(cj, "fd"))) return COSROD_OK;
  if (sim_couple_jac_init_lie(s) != 0) return COSROD_OK; /* differences */
  const size_t n = (size_t)s->m->ny;
  s->d->lie_cj = calloc((2 * n - 1) * n + n, sizeof *s->d->lie_cj); /* J, then B's row values */
  s->d->lie_ccol = calloc(n, sizeof *s->d->lie_ccol);
  return s->d->lie_cj && s->d->lie_ccol ? COSROD_OK : COSROD_ERR_NOMEM;
}

/* Row jq (< nq_tot) of B = ∂q̇/∂ν: *nc entries, columns col (ν part), values val. */
static void brow(const sys_system *s, const double *y, int jq, int *col, double *val, int *nc) {
  const sim_couple *cp = s->d->cpl;
  const int nqm = cosrod_mbs_nq(cp->m);
  *nc = 0;
  if (jq >= cp->lie_q0 && jq < cp->lie_q0 + nqm) { /* body: J_qv of the multibody model */
    const double *Jm = sim_couple_jac_mbs(s);
    const int nm = cp->nm, i = jq - cp->lie_q0;
    for (int c = nqm; c < nm; c++) {
      double b = Jm[i + (size_t)nm * (size_t)c];
      if (b == 0.0) continue;
      col[*nc] = cp->lie_w0 - s->m->nq_tot + c - nqm;
      val[(*nc)++] = b;
    }
    return;
  }
  size_t r = 0;
  while (r + 1 < s->m->nrods && jq >= s->m->qoff_r[r + 1]) r++;
  const int j = jq - s->m->qoff_r[r], off = s->m->off_r[r], vo = s->m->lie_voff_r[r];
  const int *bc0 = s->m->lie_bc0 + off, *bcn = s->m->lie_bcn + off;
  if (bcn[j] == 1) {
    col[0] = vo + bc0[j];
    val[0] = 1.0;
    *nc = 1;
    return;
  }
  int j0 = j; /* first of the quaternion's 4 rows */
  while (j0 > 0 && j - j0 < 3 && bcn[j0 - 1] == 3 && bc0[j0 - 1] == bc0[j]) j0--;
  const double *p = y + jq - (j - j0);
  /* ½ p ∘ (0, e_c), component j - j0 */
  const double pe[3][4] = {{-p[1], p[0], p[3], -p[2]}, {-p[2], -p[3], p[0], p[1]}, {-p[3], p[2], -p[1], p[0]}};
  for (int c = 0; c < 3; c++) {
    col[c] = vo + bc0[j] + c;
    val[c] = 0.5 * pe[c][j - j0];
  }
  *nc = 3;
}

int sim_lie_jac_tangent_couple(double t, const double *y, double *K, double *C, int ld, void *user) {
  sys_system *s = user;
  const int n = s->m->ny, nq = s->m->nq_tot, mu = s->m->mu;
  const size_t ldj = 2 * (size_t)n - 1;
  double *J = s->d->lie_cj;
  memset(J, 0, ldj * (size_t)n * sizeof *J);
  sim_jadd B = {J, (int)ldj, n - 1, n - 1, NULL, NULL, 0, 0};
  /* the rods' blocks at the end poses of y first: cosrod_rod_jac_end reads
   * the force derivatives of the rod's last Jacobian evaluation */
  int fb = 0, rc = sim_rhs(t, y, J + ldj * (size_t)n, s);
  if (rc == 0) rc = sim_lie_jac_tangent_rods(t, y, K, C, ld, user);
  if (rc == 0) rc = sim_couple_jac_assemble(s, t, y, &B, &fb); /* sim_rhs at y again, then the coupling blocks */
  if (rc != 0) return rc < 0 ? -1 : 1;
  if (fb) { /* K, C hold the rods' blocks already */
    memset(K, 0, (size_t)ld * (size_t)(n - nq) * sizeof *K);
    memset(C, 0, (size_t)ld * (size_t)(n - nq) * sizeof *C);
    return sim_lie_jac_tangent_fd(t, y, K, C, ld, user);
  }
  int *col = s->d->lie_ccol;
  double *val = J + ldj * (size_t)n;
  for (int j = 0; j < n; j++) {
    const double *Jc = J + (size_t)j * ldj + (size_t)(n - 1 - j); /* Jc[i] = J(i, j) */
    int nc = -1;
    for (int i = nq; i < n; i++) {
      const double a = Jc[i];
      if (a == 0.0) continue;
      const int iv = i - nq;
      if (j >= nq) {
        C[(size_t)(j - nq) * (size_t)ld + (size_t)(mu + iv - (j - nq))] += a;
        continue;
      }
      if (nc < 0) brow(s, y, j, col, val, &nc);
      for (int k = 0; k < nc; k++) K[(size_t)col[k] * (size_t)ld + (size_t)(mu + iv - col[k])] += a * val[k];
    }
  }
  return 0;
}
