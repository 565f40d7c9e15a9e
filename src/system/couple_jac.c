// SPDX-License-Identifier: Apache-2.0
/* Analytic Jacobian of the right-hand side of rods attached to rigid bodies
 * (couple.c), in the coupled band (bandwidths s->m->ml, s->m->mu; storage
 * J[j ldj + mu + i - j]), O(N) per rod.
 *
 * The coupled right-hand side is y -> (body poses) -> rods with the end
 * poses E_a (x_e, ẋ_e, p_e, ṗe) of the attachments -> end reactions W_a ->
 * body wrenches F_b -> bodies.  Its Jacobian, by the chain rule:
 *   rod rows    ∂f_r/∂y_r: the rod's analytic banded Jacobian at the frozen
 *               end pose (cosrod_rod_jac_full_band); ∂f_r/∂y_b = G_a ∂E_a/∂y_b
 *               with G_a = ∂f_r/∂E_a (cosrod_rod_jac_end);
 *   body rows   ∂f_b/∂y_b = the multibody Jacobian at the frozen wrench
 *               (cosrod_mbs_jac, analytic) + D_b ∂F_b/∂y_b, and
 *               ∂f_b/∂y_r = D_b ∂F_b/∂W_a ∂W_a/∂y_r, with D_b = ∂f_b/∂F_b;
 *   F_b = Σ_a (-F_a, (c_a - x_b) x (-F_a) - M_a) (couple.c finish).
 * ∂E/∂(x_b, q_b, v_b, Ω_b) is written out below (c = x + R(q) a, ċ = v + w x
 * R(q) a, w = R(q) Ω, p_e = q q_rel, ṗe = ½ (0, w) p_e); ∂(x_b, q_b, v_b,
 * Ω_b)/∂y_b, the parametrisation's pose map (quaternion / directors / Euler
 * angles, joint quasi-velocities), from the body module's exact tangents
 * (cosrod_mbs_pose_jac).  D_b is exact by the affinity of the body equations
 * in the applied wrench: (f_b(F + δ e_k) - f_b(F)) / δ (six body-only
 * evaluations per body, exact up to round-off).  No rod
 * force is ever differenced.  Kirchhoff rods (no analytic rod Jacobian) and a
 * coupling entry outside the band fall back to sim_couple_jac_fd. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/quat.h"
#include "cosrod/rod.h"
#include "cosrod/statics.h"
#include "cosrod/vec3.h"
#include "system/couple_internal.h"
#include "system/couple_jac_sp.h"
#include "system/system_model.h"

struct sim_cjac {
  int nbm;                /* dynamic bodies (model) */
  cosrod_rod_end_jac *ej; /* (na) */
  double *P;              /* (nbm x 13 x nm) ∂(x, q, v, Ω)/∂y_m per body, column-major 13 x nm */
  double *D;              /* (nbm x nm x 6) ∂f_m/∂(F, τ) per body, column-major nm x 6 */
  double *dF;             /* (nbm x 6 x nm) ∂F_b/∂y_m */
  double *Jm;             /* (nm x nm) multibody Jacobian at the frozen wrench */
  double *dE;             /* (14 x nm) ∂E_a/∂y_m */
  double *yp, *f1;        /* (nm) */
  long fallbacks;         /* evaluations that fell back to finite differences */
  struct sim_ccj *ccj;    /* shapes on bodies: analytic contact blocks (couple_contact_jac.c) or NULL */
  int contact_fd;         /* the last assembly left the body-contact entries out (differences) */
};

void sim_couple_jac_free(sim_couple *cp) {
  if (!cp || !cp->cj) return;
  struct sim_cjac *c = cp->cj;
  free(c->ej);
  free(c->P);
  free(c->D);
  free(c->dF);
  free(c->Jm);
  free(c->dE);
  free(c->yp);
  free(c->f1);
  sim_ccj_free(c->ccj);
  free(c);
  cp->cj = NULL;
  sim_couple_jac_sp_free(cp->cjs);
  cp->cjs = NULL;
}

int sim_couple_jac_init(sys_system *s) {
  if (s->m->lie) return -1; /* galpha: sim_couple_jac_init_lie */
  return sim_couple_jac_init_lie(s);
}

int sim_couple_jac_init_lie(sys_system *s) {
  sim_couple *cp = s->d->cpl;
  if (!cp || s->m->split || s->m->form == COSROD_FORM_DAE) return -1;
  struct sim_cjac *c = calloc(1, sizeof *c);
  if (!c) return -1;
  cp->cj = c;
  const size_t nm = (size_t)cp->nm, nb = cp->m ? cosrod_mbs_nbodies(cp->m) : 0;
  c->nbm = (int)nb;
  c->ej = calloc(cp->na + 1, sizeof *c->ej);
  c->P = calloc(nb * 13 * nm + 1, sizeof *c->P);
  c->D = calloc(nb * 6 * nm + 1, sizeof *c->D);
  c->dF = calloc(nb * 6 * nm + 1, sizeof *c->dF);
  c->Jm = calloc(nm * nm + 1, sizeof *c->Jm);
  c->dE = calloc(14 * nm + 1, sizeof *c->dE);
  c->yp = calloc(nm + 1, sizeof *c->yp);
  c->f1 = calloc(nm + 1, sizeof *c->f1);
  c->ccj = sim_ccj_create(s);
  if (!c->ej || !c->P || !c->D || !c->dF || !c->Jm || !c->dE || !c->yp || !c->f1) {
    sim_couple_jac_free(cp);
    return -1;
  }
  return 0;
}

int sim_couple_jac_contact_fd(const sys_system *s) { return s->d->cpl && s->d->cpl->cj && s->d->cpl->cj->contact_fd; }

const double *sim_couple_jac_mbs(const sys_system *s) {
  return s->d->cpl && s->d->cpl->cj && s->d->cpl->m ? s->d->cpl->cj->Jm : NULL;
}

long sim_couple_jac_fallbacks(const sys_system *s) {
  return s->d->cpl && s->d->cpl->cj ? s->d->cpl->cj->fallbacks : 0;
}

/* ∂E/∂(x, q, v, Ω) (14 x 13, column-major) of attachment a at the body pose of the last prepare. */
static void end_pose_jac(const sim_couple *cp, const sim_attach *a, double PE[14 * 13]) {
  const size_t b = (size_t)a->body;
  const double *q = cp->bq + 4 * b, *w = cp->bw + 3 * b;
  double qc[4], Om[3], ra[3], pe[4], A[12], B[12], R[9];
  cosrod_quat_conj(qc, q);
  cosrod_quat_rotate(Om, qc, w);
  cosrod_quat_rotate(ra, q, a->at);
  cosrod_quat_mul(pe, q, a->qrel);
  cosrod_quat_to_matrix(R, q);
  memset(PE, 0, 14 * 13 * sizeof *PE);
#define E(i, j) PE[(i) + 14 * (j)]
  for (int i = 0; i < 3; ++i) E(i, i) = 1.0, E(3 + i, 7 + i) = 1.0; /* ∂c/∂x, ∂ċ/∂v */
  cosrod_quat_dRv_dp(A, q, a->at);                                  /* ∂(R a)/∂q */
  cosrod_quat_dRv_dp(B, q, Om);                                     /* ∂w/∂q */
  for (int j = 0; j < 4; ++j) {
    double da[3] = {A[3 * j], A[3 * j + 1], A[3 * j + 2]}, dw[3] = {B[3 * j], B[3 * j + 1], B[3 * j + 2]},
           t1[3], t2[3];
    cosrod_vec3_cross(t1, dw, ra);
    cosrod_vec3_cross(t2, w, da);
    for (int i = 0; i < 3; ++i) E(i, 3 + j) = da[i], E(3 + i, 3 + j) = t1[i] + t2[i];
  }
  for (int j = 0; j < 3; ++j) { /* ∂ċ/∂Ω = [R e_j] x ra */
    double col[3] = {R[3 * j], R[3 * j + 1], R[3 * j + 2]}, t[3];
    cosrod_vec3_cross(t, col, ra);
    for (int i = 0; i < 3; ++i) E(3 + i, 10 + j) = t[i];
  }
  /* p_e = q q_rel; ṗe = ½ (0, w) p_e */
  double wq[4] = {0.0, w[0], w[1], w[2]};
  for (int j = 0; j < 4; ++j) {
    double ej[4] = {0, 0, 0, 0}, dpe[4], t[4], u[4], dwq[4] = {0.0, B[3 * j], B[3 * j + 1], B[3 * j + 2]};
    ej[j] = 1.0;
    cosrod_quat_mul(dpe, ej, a->qrel);
    cosrod_quat_mul(t, wq, dpe);
    cosrod_quat_mul(u, dwq, pe);
    for (int i = 0; i < 4; ++i) E(6 + i, 3 + j) = dpe[i], E(10 + i, 3 + j) = 0.5 * (t[i] + u[i]);
  }
  for (int j = 0; j < 3; ++j) {
    double dwq[4] = {0.0, R[3 * j], R[3 * j + 1], R[3 * j + 2]}, u[4];
    cosrod_quat_mul(u, dwq, pe);
    for (int i = 0; i < 4; ++i) E(10 + i, 10 + j) = 0.5 * u[i];
  }
#undef E
}

/* The body blocks (pose map, wrench sensitivities D, multibody Jacobian). */
static int body_blocks(sys_system *s) {
  sim_couple *cp = s->d->cpl;
  struct sim_cjac *c = cp->cj;
  const int nm = cp->nm;
  if (cosrod_mbs_pose_jac(cp->m, cp->d, cp->t, cp->ym, c->P) != 0) return -1;
  for (size_t b = 0; b < cp->nb; ++b) {
    int mb = cp->bmap[b];
    if (mb < 0) continue;
    double F[6], *D = c->D + (size_t)mb * 6 * (size_t)nm;
    memcpy(F, cp->F + 6 * b, sizeof F);
    double dlt = 1.0;
    for (int k = 0; k < 6; ++k) dlt = fmax(dlt, fabs(F[k]));
    for (int k = 0; k < 6; ++k) {
      double Fk[6];
      memcpy(Fk, F, sizeof Fk);
      Fk[k] += dlt;
      cosrod_mbs_set_wrench(cp->d, (size_t)mb, Fk, Fk + 3);
      if (cosrod_mbs_rhs(cp->m, cp->d, cp->t, cp->ym, c->f1) != 0) return -1;
      for (int i = 0; i < nm; ++i) D[i + (size_t)nm * (size_t)k] = (c->f1[i] - cp->fm[i]) / (Fk[k] - F[k]);
    }
    cosrod_mbs_set_wrench(cp->d, (size_t)mb, F, F + 3);
  }
  if (cosrod_mbs_jac(cp->m, cp->d, cp->t, cp->ym, c->Jm) != 0) return -1;
  return cosrod_mbs_rhs(cp->m, cp->d, cp->t, cp->ym, c->f1) != 0 ? -1 : 0; /* leave d at y */
}

int sim_couple_jac_assemble(sys_system *s, double t, const double *y, sim_jadd *B, int *fallback) {
  sim_couple *cp = s->d->cpl;
  struct sim_cjac *c = cp->cj;
  const int n = s->m->ny, nm = cp->nm;
  *fallback = 0;
  int rc = sim_rhs(t, y, cp->jw + n, s); /* poses, rods, reactions, bodies at y */
  if (rc != 0) return rc;
  const double tc = sim_tclamp(s, t);
  for (size_t r = 0; r < s->m->nrods; r++) {
    cosrod_status st = COSROD_OK;
    if (s->m->lie) goto ends; /* galpha: the rods' blocks go straight into K, C (lie_couple.c) */
    sim_gather(s, r, y, s->d->yl);
    st = B->J ? cosrod_rod_jac_full_band(s->m->rods[r], s->d->data[r], s->m->form, tc, s->d->yl, NULL, 0.0,
                                        s->m->perm + s->m->off_r[r], B->J + (size_t)s->m->qoff_r[r] * (size_t)B->ldj,
                                        B->ldj, s->m->ml, s->m->mu)
             : (cosrod_status)sim_couple_jac_sp_rod(s, r, tc, B);
    if (st == COSROD_ERR_UNSUPPORTED || st == COSROD_ERR_DIMENSION) goto fallback;
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  ends:
    for (size_t i = 0; i < cp->na; ++i) {
      const sim_attach *a = &cp->att[i];
      if (a->rod != r || cp->bmap[a->body] < 0) continue;
      st = cosrod_rod_jac_end(s->m->rods[r], s->d->data[r], s->m->form, a->end, &c->ej[i]);
      if (st == COSROD_ERR_UNSUPPORTED) goto fallback;
      if (st != COSROD_OK) return -1;
    }
  }
  if (!cp->m) return 0;
  if (body_blocks(s) != 0) return -1;
  memset(c->dF, 0, (size_t)c->nbm * 6 * (size_t)nm * sizeof *c->dF);
  for (size_t i = 0; i < cp->na; ++i) {
    const sim_attach *a = &cp->att[i];
    const int mb = cp->bmap[a->body];
    if (mb < 0) continue;
    const cosrod_rod_end_jac *ej = &c->ej[i];
    const cosrod_rod_data *d = s->d->data[a->rod];
    const int *map = s->m->map + s->m->off_r[a->rod];
    const double *P = c->P + (size_t)mb * 13 * (size_t)nm, *D = c->D + (size_t)mb * 6 * (size_t)nm;
    double *dF = c->dF + (size_t)mb * 6 * (size_t)nm;
    double PE[14 * 13], Rr[12], Fr[3], r[3];
    end_pose_jac(cp, a, PE);
    cosrod_statics_end_reactions(s->m->rods[a->rod], d, 1.0, 0, Rr, NULL);
    memcpy(Fr, Rr + 6 * a->end, sizeof Fr);
    cosrod_vec3_sub(r, d->x + 3 * (a->end ? d->N : 0), cp->bx + 3 * (size_t)a->body);
    /* dE = PE P */
    for (int j = 0; j < nm; ++j)
      for (int k = 0; k < 14; ++k) {
        double v = 0.0;
        for (int l = 0; l < 13; ++l) v += PE[k + 14 * l] * P[l + 13 * j];
        c->dE[k + 14 * j] = v;
      }
    /* rod rows, body columns */
    for (int ri = 0; ri < ej->nr; ++ri)
      for (int j = 0; j < nm; ++j) {
        double v = 0.0;
        for (int k = 0; k < 14; ++k) v += ej->G[ri + 8 * k] * c->dE[k + 14 * j];
        sim_jadd_add(B, map[ej->row[ri]], cp->mmap[j], v);
      }
    /* body rows, rod columns: D (-dF_r, r x (-dF_r) - dM_r) */
    for (int cc = 0; cc < ej->nc; ++cc) {
      const double *h = ej->Hy + 6 * cc;
      double w[6], t3[3];
      cosrod_vec3_scale(w, -1.0, h);
      cosrod_vec3_cross(t3, r, w);
      cosrod_vec3_sub(w + 3, t3, h + 3);
      for (int bi = 0; bi < nm; ++bi) {
        double v = 0.0;
        for (int k = 0; k < 6; ++k) v += D[bi + (size_t)nm * (size_t)k] * w[k];
        sim_jadd_add(B, cp->mmap[bi], map[ej->col[cc]], v);
      }
    }
    /* ∂F_b/∂y_m through this attachment */
    for (int j = 0; j < nm; ++j) {
      const double *e = c->dE + 14 * j;
      double dW[6] = {0, 0, 0, 0, 0, 0}, dr[3], t1[3], t2[3], mF[3];
      for (int k = 0; k < 14; ++k)
        for (int l = 0; l < 6; ++l) dW[l] += ej->He[l + 6 * k] * e[k];
      for (int l = 0; l < 3; ++l) dr[l] = e[l] - P[l + 13 * j], mF[l] = -dW[l];
      double nF[3] = {-Fr[0], -Fr[1], -Fr[2]};
      cosrod_vec3_cross(t1, dr, nF);
      cosrod_vec3_cross(t2, r, mF);
      for (int l = 0; l < 3; ++l) {
        dF[l + 6 * j] += mF[l];
        dF[3 + l + 6 * j] += t1[l] + t2[l] - dW[3 + l];
      }
    }
  }
  /* shapes on bodies: the contact's ∂F_b/∂y_m (couple_contact_jac.c) */
  c->contact_fd = sim_couple_body_contact(s) > 0 &&
                  (!c->ccj || sim_ccj_assemble(s, c->ccj, 0, B, c->P, c->D, c->dF) != 0);
  /* body rows, body columns: J_m + Σ_b D_b ∂F_b/∂y_m */
  for (int j = 0; j < nm; ++j)
    for (int i = 0; i < nm; ++i) {
      double v = c->Jm[i + (size_t)nm * (size_t)j];
      for (int mb = 0; mb < c->nbm; ++mb) {
        const double *D = c->D + (size_t)mb * 6 * (size_t)nm, *dF = c->dF + (size_t)mb * 6 * (size_t)nm;
        for (int k = 0; k < 6; ++k) v += D[i + (size_t)nm * (size_t)k] * dF[k + 6 * j];
      }
      sim_jadd_add(B, cp->mmap[i], cp->mmap[j], v);
    }
  if (!c->contact_fd && c->ccj) sim_ccj_assemble(s, c->ccj, 1, B, c->P, c->D, c->dF);
  if (!B->overflow) return 0;
fallback:
  c->fallbacks++;
  *fallback = 1;
  return 0;
}

int sim_couple_jac(double t, const double *y, double *J, int ldj, void *user) {
  sys_system *s = user;
  sim_jadd B = {J, ldj, s->m->ml, s->m->mu, NULL, NULL, 0, 0};
  for (int j = 0; j < s->m->ny; ++j) memset(J + (size_t)j * (size_t)ldj, 0, (size_t)(s->m->ml + s->m->mu + 1) * sizeof *J);
  int fb, rc = sim_couple_jac_assemble(s, t, y, &B, &fb);
  return rc != 0 || !fb ? rc : sim_couple_jac_fd(t, y, J, ldj, user);
}
