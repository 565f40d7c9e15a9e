// SPDX-License-Identifier: Apache-2.0
/* Contact forces and their analytic Jacobians.
 *
 * Rod against obstacle: line contact.  The penalty law of contact_law.c acts
 * per unit length along the segment, x(xi) = (1 - xi) x_a + xi x_b, and is
 * integrated by Gauss points xi_q with weights w_q times the reference segment
 * length l0 (the "segment-to-surface" penalty of beam contact, cf. Wriggers,
 * Computational Contact Mechanics, §11; Durville's collocation of contact
 * along beams uses the same idea of distributing contact over the axis).  At
 * each point the gap is sdf(x) - r with the shape's signed distance, normal
 * n = grad sdf, and the force per length
 *     F = (f(p) + c w(p) dp/dt) n + F_t,   p = -gap,  dp/dt = -n . (v - v_obs),
 * lumped to the segment's vertices with the weights (1 - xi, xi) — exact
 * virtual work of the linear interpolation.  A rod lying on a flat obstacle
 * thus feels a uniform pressure (no dependence on which end is lower), and the
 * elastic part is the gradient of the potential sum w_q l0 psi(p_q).
 * Friction (Coulomb, elasto-plastic regularisation, Wriggers §5.2): each Gauss
 * point slot keeps an anchor fixed in the obstacle frame; the tangential
 * spring F_t = -k_t P (x - a), P = I - n n^T, sticks while |F_t| <= mu f(p)
 * (mu = mu_static after a stick state, mu_kinetic after slip), otherwise slides
 * with F_t = -mu_kinetic f(p) t, t = P(x - a)/|P(x - a)| (return mapping; the
 * commit drags the anchor to the slip limit).  The spring holds a rod at rest
 * on a slope exactly (statics has an equilibrium, dynamics no creep), which a
 * velocity-regularised law cannot; the bound uses the elastic normal force f,
 * not the damping, so friction is a function of positions only.  Friction
 * moments on the cross-section (r n x F_t) are omitted: the force acts on the
 * axis; the missing couple is r |F_t|, small against the bending moments of a
 * slender rod, and would need the section's rotation (formulation-specific).
 *
 * Jacobians at a point, with H = Hessian of sdf, u = v - v_obs:
 *     dF_N/dx = -(f' + c w' p') n^T + c w (-(H u)^T + (n x omega)^T),
 *     dF/dx   = n (dF_N/dx) + F_N H + dF_t/dx,   dF/dv = -c w n n^T,
 *     stick: dF_t/dx = -k_t (P - (n.s) H - n (H s)^T),  s = x - a,
 *     slip:  dF_t/dx = -mu (t (df/dx) + f (I - t t^T)/|Ps| d(Ps)/dx),
 * mapped to the vertices with the weights (blocks (1-xi)^2, (1-xi) xi, xi^2).
 *
 * Rod against rod: point contact at the closest points (s, u) of the two
 * segments (Wriggers and Zavarise, "On contact between three-dimensional
 * beams undergoing large deflections", 1997): gap = |d| - r_a - r_b,
 * d = p(s) - q(u), with the law lumped over one segment length
 * (K = min(k_rr) l, C = min(c_rr) l, l = mean reference length; k_rr the
 * rod-rod stiffness of contact_law.c).  The distance is
 * the minimum over (s, u) of |D(s,u) X|, X = (x_a, x_b, y_a, y_b), so its
 * gradient is D^T n (envelope theorem) and its Hessian, with the interior
 * parameters sigma eliminated (implicit function theorem on h_sigma = 0),
 *     d2 = h_XX - h_Xsigma h_sigmasigma^{-1} h_sigmaX,
 *     h_XX = D^T P D / |d|,  h_sigmasigma = G^T P G / |d|,  G = [x_b - x_a, -(y_b - y_a)],
 *     h_X s = D^T P (x_b - x_a)/|d| + (-n, n, 0, 0),  h_X u = -D^T P (y_b - y_a)/|d| + (0, 0, n, -n),
 * with clamped parameters (at 0 or 1) left out.  Known limit: nearly parallel
 * segments in contact (line contact between rods) make the closest point jump
 * along the segments; the force stays continuous (the min of smooth
 * functions) but its direction of lumping does not (Meier, Popp and Wall,
 * "A unified approach for beam-to-beam contact", CMAME 2017).
 * Rod-rod friction is velocity-regularised Coulomb (no persistent anchor: the
 * pair identity changes with the closest segments):
 *     F_t = -mu_kinetic f(p) v_t / sqrt(|v_t|^2 + v_s^2),  v_t = P (v_p - v_q),
 * lumped like the normal force; below the stick velocity v_s it acts as a
 * viscous coupling mu f / v_s, so crossing rods under a sub-critical
 * tangential load creep at about v_s |F_t| / (mu f), and in statics (no
 * velocities) rod-rod contact is frictionless. */
#include <math.h>
#include <string.h>

#include "contact/contact_internal.h"
#include "cosrod/quat.h"

/* A segment-obstacle pair whose exact distance penetrates deeper than this
 * fraction of the radius while none of its Gauss points touches counts as a
 * missed contact (summary.json `missed`): a thin feature or tunnelling; a rod
 * end dipping past its last Gauss point or a grazing first touch stays below
 * it (a few per cent of r in the hose and cable examples). */
#define MISS_DEPTH 0.05

/* C^1 switch 3x^2 - 2x^3 of x = p/delta, and its derivative in p. */
static double smooth_switch(double *dw, double p, double delta) {
  if (p <= 0.0) {
    *dw = 0.0;
    return 0.0;
  }
  if (p >= delta) {
    *dw = 0.0;
    return 1.0;
  }
  double x = p / delta;
  *dw = (6.0 * x - 6.0 * x * x) / delta;
  return x * x * (3.0 - 2.0 * x);
}

static int push_block(cosrod_contact_data *d, int ri, int vi, int rj, int vj, int band, int obstacle,
                      const double K[9], const double D[9]) {
  cosrod_contact_block *b = cosrod_contact_block_push(d);
  if (!b) return 0;
  b->rod_i = ri;
  b->vertex_i = vi;
  b->rod_j = rj;
  b->vertex_j = vj;
  b->band = band;
  b->obstacle = obstacle;
  memcpy(b->K, K, sizeof b->K);
  memcpy(b->D, D, sizeof b->D);
  return 1;
}

/* Friction at one Gauss point: writes F_t and (stick/slip) its Jacobian J;
 * returns the spring energy per length; *pw the dissipated power per length. */
static double friction(double Ft[3], double J[9], double *pw, const cosrod_contact_model *m,
                       cosrod_contact_data *d, size_t slot, const cosrod_pose *pose, const double xk[3],
                       const double n[3], const double H[9], const double u[3], double f, double dfdp,
                       double kt) {
  cosrod_vec3_zero(Ft);
  m3_zero(J);
  *pw = 0.0;
  double dl[3];
  if (d->state[slot] == 0) { /* new contact: anchor here at the next commit */
    cosrod_vec3_sub(dl, xk, pose->position);
    cosrod_quat_rotate_inv(d->trial_anchor + 3 * slot, pose->q, dl);
    d->trial_state[slot] = 1;
    return 0.0;
  }
  double aw[3], s[3], Ps[3], Hs[3];
  cosrod_quat_rotate(aw, pose->q, d->anchor + 3 * slot);
  cosrod_vec3_add(aw, aw, pose->position);
  cosrod_vec3_sub(s, xk, aw);
  double ns = cosrod_vec3_dot(n, s);
  for (int k = 0; k < 3; ++k) Ps[k] = s[k] - ns * n[k];
  m3_vec(Hs, H, s);
  double dPs[9]; /* d(Ps)/dx = P - (n.s) H - n (H s)^T */
  m3_zero(dPs);
  m3_identity_add(dPs, 1.0);
  m3_outer_add(dPs, -1.0, n, n);
  for (int i = 0; i < 9; ++i) dPs[i] -= ns * H[i];
  m3_outer_add(dPs, -1.0, n, Hs);
  double ps = cosrod_vec3_norm(Ps);
  double mu = d->state[slot] == 2 ? m->mu_k : m->mu_s;
  if (kt * ps <= mu * f) { /* stick */
    for (int k = 0; k < 3; ++k) Ft[k] = -kt * Ps[k];
    for (int i = 0; i < 9; ++i) J[i] = -kt * dPs[i];
    memcpy(d->trial_anchor + 3 * slot, d->anchor + 3 * slot, 3 * sizeof(double));
    d->trial_state[slot] = 1;
    return 0.5 * kt * ps * ps;
  }
  double t[3], mk = m->mu_k;
  for (int k = 0; k < 3; ++k) {
    t[k] = Ps[k] / ps;
    Ft[k] = -mk * f * t[k];
  }
  /* J = -mu (t (df/dx) + f (I - t t^T) dPs / |Ps|), df/dx = -f' n^T */
  m3_outer_add(J, mk * dfdp, t, n);
  double Q[9];
  m3_zero(Q);
  m3_identity_add(Q, 1.0);
  m3_outer_add(Q, -1.0, t, t);
  for (int c = 0; c < 3; ++c) {
    double col[3];
    m3_vec(col, Q, dPs + 3 * c);
    for (int r = 0; r < 3; ++r) J[r + 3 * c] -= mk * f / ps * col[r];
  }
  double na[3]; /* anchor dragged to the slip limit, in the obstacle frame */
  for (int k = 0; k < 3; ++k) na[k] = xk[k] - mk * f / kt * t[k] - pose->position[k];
  cosrod_quat_rotate_inv(d->trial_anchor + 3 * slot, pose->q, na);
  d->trial_state[slot] = 2;
  double un = cosrod_vec3_dot(u, n), ut[3];
  for (int k = 0; k < 3; ++k) ut[k] = u[k] - un * n[k];
  *pw = mk * f * cosrod_vec3_norm(ut);
  double fs = mk * f;
  return 0.5 * fs * fs / kt;
}

/* The quantities of one Gauss point that its Jacobians need. */
typedef struct gauss_jac {
  const double *n, *H, *u, *rel, *vk, *F, *Jt;
  double FN, dfdp, c, w, dw, pdot, W, xi;
} gauss_jac;

/* Accumulate one Gauss point's vertex blocks (Kb, Db: 2 x 2 vertices) and
 * pose blocks (Pb: vertex x {Kc, Kr, Dv, Dw}); formulas in the header. */
static void gauss_jacobians(double Kb[4][9], double Db[4][9], double Pb[2][4][9], const gauss_jac *g,
                            const cosrod_pose *pose) {
  const double *n = g->n, *H = g->H, *u = g->u, *rel = g->rel, *vk = g->vk, *F = g->F, *Jt = g->Jt;
  double FN = g->FN, dfdp = g->dfdp, w = g->w, dw = g->dw, pdot = g->pdot, W = g->W, xi = g->xi;
  double gN[3], Hu[3], nxw[3], Jx[9], Jv[9];
  m3_vec(Hu, H, u);
  cosrod_vec3_cross(nxw, n, pose->omega);
  for (int k = 0; k < 3; ++k) gN[k] = -(dfdp + g->c * dw * pdot) * n[k] + g->c * w * (-Hu[k] + nxw[k]);
  m3_zero(Jx);
  m3_zero(Jv);
  m3_outer_add(Jx, 1.0, n, gN);
  for (int i = 0; i < 9; ++i) Jx[i] += FN * H[i] + Jt[i];
  m3_outer_add(Jv, -g->c * w, n, n);
  double N2[2] = {1.0 - xi, xi};
  for (int al = 0; al < 2; ++al)
    for (int be = 0; be < 2; ++be)
      for (int i = 0; i < 9; ++i) {
        Kb[2 * be + al][i] += W * N2[al] * N2[be] * Jx[i];
        Db[2 * be + al][i] += W * N2[al] * N2[be] * Jv[i];
      }
  /* pose derivatives (header of contact.h): rigid-motion invariance */
  double Srel[9], SF[9], Svk[9], Svo[9], Sw[9], T1[9], T2[9], Pt[4][9];
  cosrod_vec3_skew(Srel, rel);
  cosrod_vec3_skew(SF, F);
  cosrod_vec3_skew(Svk, vk);
  cosrod_vec3_skew(Svo, pose->v);
  cosrod_vec3_skew(Sw, pose->omega);
  m3_mul(Pt[1], Jx, Srel);
  m3_mul(T1, Jv, Svk);
  m3_mul(T2, Jv, Svo);
  m3_mul(Pt[3], Jv, Srel);
  double T3[9];
  m3_mul(T3, Pt[3], Sw);
  for (int i = 0; i < 9; ++i) {
    Pt[0][i] = -Jx[i];
    Pt[1][i] += -SF[i] + T1[i] - T2[i] + T3[i];
    Pt[2][i] = -Jv[i];
  }
  for (int al = 0; al < 2; ++al)
    for (int q4 = 0; q4 < 4; ++q4)
      for (int i = 0; i < 9; ++i) Pb[al][q4][i] += W * N2[al] * Pt[q4][i];
}

/* One segment against one obstacle; 1 ok, 0 out of memory. */
static int segment_obstacle(const cosrod_contact_model *m, cosrod_contact_data *d, int r, int sg, int o,
                            const double *const *x, const double *const *v, double *const *f) {
  const contact_rod_m *R = &m->rods[r];
  const cosrod_shape *sh = &m->obs[o].shape;
  const cosrod_pose *pose = &d->pose[o];
  const double *a = x[r] + 3 * sg, *b = a + 3;
  double mid[3], e[3];
  for (int k = 0; k < 3; ++k) {
    mid[k] = 0.5 * (a[k] + b[k]);
    e[k] = b[k] - a[k];
  }
  if (cosrod_shape_sdf(NULL, NULL, sh, pose, mid) - 0.5 * cosrod_vec3_norm(e) - R->radius >= 0.0) return 1;
  d->ncand++;
  double l0 = R->sref[sg + 1] - R->sref[sg];
  double Kb[4][9], Db[4][9], Pb[2][4][9]; /* vertex blocks; pose blocks (vertex, Kc Kr Dv Dw) */
  memset(Kb, 0, sizeof Kb);
  memset(Db, 0, sizeof Db);
  memset(Pb, 0, sizeof Pb);
  int any = 0;
  for (int q = 0; q < m->nq; ++q) {
    double xi = m->gx[q], W = m->gw[q] * l0, xk[3], vk[3] = {0, 0, 0}, n[3], H[9];
    for (int k = 0; k < 3; ++k) {
      xk[k] = (1.0 - xi) * a[k] + xi * b[k];
      if (v && v[r]) vk[k] = (1.0 - xi) * v[r][3 * sg + k] + xi * v[r][3 * sg + 3 + k];
    }
    double gap = cosrod_shape_sdf(n, H, sh, pose, xk) - R->radius, p = -gap;
    if (p <= 0.0) continue;
    any = 1;
    d->nactive++;
    d->max_pen = fmax(d->max_pen, p / R->radius);
    double rel[3], vo[3], u[3];
    cosrod_vec3_sub(rel, xk, pose->position);
    cosrod_vec3_cross(vo, pose->omega, rel);
    cosrod_vec3_add(vo, vo, pose->v);
    cosrod_vec3_sub(u, vk, vo);
    double pdot = -cosrod_vec3_dot(n, u), dfdp, psi, dw;
    double fe = cosrod_contact_penalty(&dfdp, &psi, R->k, R->delta, p);
    double w = smooth_switch(&dw, p, R->delta);
    double FN = fe + R->c * w * pdot;
    size_t slot = R->slot0 + ((size_t)sg * (size_t)m->nobs + (size_t)o) * (size_t)m->nq + (size_t)q;
    double Ft[3] = {0, 0, 0}, Jt[9], pw = 0.0, et = 0.0;
    m3_zero(Jt);
    if (m->mu_s > 0.0) et = friction(Ft, Jt, &pw, m, d, slot, pose, xk, n, H, u, fe, dfdp, R->kt);
    double F[3];
    for (int k = 0; k < 3; ++k) F[k] = FN * n[k] + Ft[k];
    for (int k = 0; k < 3; ++k) {
      f[r][3 * sg + k] += W * (1.0 - xi) * F[k];
      f[r][3 * sg + 3 + k] += W * xi * F[k];
    }
    double WF[3], mo[3];
    cosrod_vec3_scale(WF, W, F);
    cosrod_vec3_cross(mo, rel, WF);
    for (int k = 0; k < 3; ++k) {
      d->wrench[6 * o + k] -= WF[k];
      d->wrench[6 * o + 3 + k] -= mo[k];
    }
    d->energy += W * (psi + et);
    d->power += W * (R->c * w * pdot * pdot + pw);
    cosrod_contact_point *cp = cosrod_contact_point_push(d);
    if (!cp) return 0;
    *cp = (cosrod_contact_point){.rod = r,
                                 .segment = sg,
                                 .other_kind = 0,
                                 .other = o,
                                 .other_segment = -1,
                                 .gap = gap,
                                 .fn = W * FN,
                                 .slip = d->trial_state[slot] == 2};
    cosrod_vec3_copy(cp->point, xk);
    cosrod_vec3_copy(cp->normal, n);
    cosrod_vec3_scale(cp->ft, W, Ft);
    if (!d->want_jac) continue;
    gauss_jac gj = {.n = n,
                    .H = H,
                    .u = u,
                    .rel = rel,
                    .vk = vk,
                    .F = F,
                    .Jt = Jt,
                    .FN = FN,
                    .dfdp = dfdp,
                    .c = R->c,
                    .w = w,
                    .dw = dw,
                    .pdot = pdot,
                    .W = W,
                    .xi = xi};
    gauss_jacobians(Kb, Db, Pb, &gj, pose);
  }
  if (!any) { /* a feature thinner than the Gauss spacing may touch between the points: counted when the
                * exact distance is deeper than MISS_DEPTH r (and the onset); shallower misses are the Gauss
                * points' sampling of a curved or tilted contact, which they catch a step later */
    double t;
    if (cosrod_shape_segment_closest(&t, sh, pose, a, b) - R->radius < -fmax(R->delta, MISS_DEPTH * R->radius))
      d->nmissed++;
  }

  if (any && d->want_jac)
    for (int be = 0; be < 2; ++be)
      for (int al = 0; al < 2; ++al)
        if (!push_block(d, r, sg + al, r, sg + be, 1, o, Kb[2 * be + al], Db[2 * be + al])) return 0;
  if (any && d->want_jac)
    for (int al = 0; al < 2; ++al) {
      cosrod_contact_pose_block *pb = cosrod_contact_pose_block_push(d);
      if (!pb) return 0;
      pb->rod = r;
      pb->vertex = sg + al;
      pb->obstacle = o;
      memcpy(pb->Kc, Pb[al][0], sizeof pb->Kc);
      memcpy(pb->Kr, Pb[al][1], sizeof pb->Kr);
      memcpy(pb->Dv, Pb[al][2], sizeof pb->Dv);
      memcpy(pb->Dw, Pb[al][3], sizeof pb->Dw);
    }
  return 1;
}

int cosrod_contact_obstacles(const cosrod_contact_model *m, cosrod_contact_data *d, const double *const *x,
                             const double *const *v, double *const *f) {
  for (int r = 0; r < m->nrods; ++r)
    for (int s = 0; s < m->rods[r].nseg; ++s)
      for (int o = 0; o < m->nobs; ++o)
        if (!segment_obstacle(m, d, r, s, o, x, v, f)) return 0;
  return 1;
}

/* Jacobian blocks of a rod-rod point contact (see the header comment). */
/* Velocity-regularised friction of a rod-rod contact: F_t = -mu f v_t / den,
 * den = sqrt(|v_t|^2 + v_s^2), v_t = P v_rel. */
typedef struct pair_fric {
  double mu, fe, den, vt[3], Ft[3];
} pair_fric;

static int pair_jac(cosrod_contact_data *d, const int rv[4][2], const double c4[4], const double *X[4],
                    const double *V[4], double s, double u, const double n[3], double rho, double FN,
                    double dfdp, double C, double w, double dw, double pdot, const pair_fric *fr) {
  static const double ds4[4] = {-1, 1, 0, 0}, du4[4] = {0, 0, 1, -1};
  double P[9], g[2][3], Pg[2][3], vrel[3] = {0, 0, 0}, dv[2][3] = {{0, 0, 0}, {0, 0, 0}};
  m3_zero(P);
  m3_identity_add(P, 1.0);
  m3_outer_add(P, -1.0, n, n);
  for (int k = 0; k < 3; ++k) {
    g[0][k] = X[1][k] - X[0][k];
    g[1][k] = -(X[3][k] - X[2][k]);
  }
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) {
      vrel[k] += c4[a] * V[a][k];
      dv[0][k] += ds4[a] * V[a][k];
      dv[1][k] += du4[a] * V[a][k];
    }
  m3_vec(Pg[0], P, g[0]);
  m3_vec(Pg[1], P, g[1]);
  int act[2] = {s > 0.0 && s<1.0, u> 0.0 && u < 1.0};
  double A[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) A[i][j] = cosrod_vec3_dot(g[i], Pg[j]) / rho;
  if (act[0] && act[1] && A[0][0] * A[1][1] - A[0][1] * A[1][0] <= 1e-12 * A[0][0] * A[1][1]) act[0] = 0;
  double hsX[2][4][3], sX[2][4][3]; /* h_sigma X and sigma_X, [param][vertex][k] */
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) {
      hsX[0][a][k] = c4[a] * Pg[0][k] / rho + ds4[a] * n[k];
      hsX[1][a][k] = c4[a] * Pg[1][k] / rho + du4[a] * n[k];
    }
  double Ai[2][2] = {{0, 0}, {0, 0}};
  if (act[0] && act[1]) {
    double det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
    Ai[0][0] = A[1][1] / det;
    Ai[1][1] = A[0][0] / det;
    Ai[0][1] = -A[0][1] / det;
    Ai[1][0] = -A[1][0] / det;
  } else {
    for (int i = 0; i < 2; ++i)
      if (act[i] && A[i][i] > 0.0) Ai[i][i] = 1.0 / A[i][i];
  }
  for (int i = 0; i < 2; ++i)
    for (int a = 0; a < 4; ++a)
      for (int k = 0; k < 3; ++k) sX[i][a][k] = -(Ai[i][0] * hsX[0][a][k] + Ai[i][1] * hsX[1][a][k]);
  for (int be = 0; be < 4; ++be) {
    /* dn/dX_beta = P (c4_beta I + g_s sX_s^T + g_u sX_u^T) / rho; dpdot/dX_beta */
    double dn[9], dpd[3], vP[3];
    m3_zero(dn);
    for (int i = 0; i < 9; ++i) dn[i] = c4[be] * P[i] / rho;
    m3_outer_add(dn, 1.0 / rho, Pg[0], sX[0][be]);
    m3_outer_add(dn, 1.0 / rho, Pg[1], sX[1][be]);
    m3_tvec(vP, dn, vrel);
    for (int k = 0; k < 3; ++k)
      dpd[k] = -vP[k] - cosrod_vec3_dot(n, dv[0]) * sX[0][be][k] - cosrod_vec3_dot(n, dv[1]) * sX[1][be][k];
    double gN[3];
    for (int k = 0; k < 3; ++k) gN[k] = -(dfdp + C * dw * pdot) * c4[be] * n[k] + C * w * dpd[k];
    /* friction: dFt/dX_beta = -mu (v_t/den (df/dX) + f S dv_t/dX), dFt/dV_beta = -mu f S P c4_beta,
     * S = (I - v_t v_t^T / den^2) / den, dv_t = P dv_rel - (n.v_rel) dn - n (v_rel^T dn) */
    double dFt[9], dFtv[9];
    m3_zero(dFt);
    m3_zero(dFtv);
    if (fr->mu > 0.0) {
      double S[9], dvr[9], dvt[9], Pd[9], SP[9], nvr = cosrod_vec3_dot(n, vrel), that[3], dfe[3];
      m3_zero(S);
      m3_identity_add(S, 1.0 / fr->den);
      m3_outer_add(S, -1.0 / (fr->den * fr->den * fr->den), fr->vt, fr->vt);
      m3_zero(dvr);
      m3_outer_add(dvr, 1.0, dv[0], sX[0][be]);
      m3_outer_add(dvr, 1.0, dv[1], sX[1][be]);
      m3_mul(Pd, P, dvr);
      for (int i = 0; i < 9; ++i) dvt[i] = Pd[i] - nvr * dn[i];
      m3_outer_add(dvt, -1.0, n, vP);
      m3_mul(dFt, S, dvt);
      for (int i = 0; i < 9; ++i) dFt[i] *= -fr->mu * fr->fe;
      for (int k = 0; k < 3; ++k) {
        that[k] = fr->vt[k] / fr->den;
        dfe[k] = -dfdp * c4[be] * n[k];
      }
      m3_outer_add(dFt, -fr->mu, that, dfe);
      m3_mul(SP, S, P);
      for (int i = 0; i < 9; ++i) dFtv[i] = -fr->mu * fr->fe * c4[be] * SP[i];
    }
    for (int al = 0; al < 4; ++al) {
      double K[9], D[9];
      m3_zero(K);
      m3_zero(D);
      m3_outer_add(K, c4[al], n, gN);
      if (fr->mu > 0.0) { /* lumping c4_alpha Ft and its dependence on (s, u) */
        double dc[3];
        for (int k = 0; k < 3; ++k) dc[k] = ds4[al] * sX[0][be][k] + du4[al] * sX[1][be][k];
        m3_outer_add(K, 1.0, fr->Ft, dc);
        for (int i = 0; i < 9; ++i) {
          K[i] += c4[al] * dFt[i];
          D[i] += c4[al] * dFtv[i];
        }
      }
      /* FN times the Hessian of the distance */
      for (int i = 0; i < 9; ++i) K[i] += FN * c4[al] * c4[be] * P[i] / rho;
      m3_outer_add(K, FN, hsX[0][al], sX[0][be]);
      m3_outer_add(K, FN, hsX[1][al], sX[1][be]);
      m3_outer_add(D, -C * w * c4[al] * c4[be], n, n);
      int band = (al < 2) == (be < 2);
      if (!push_block(d, rv[al][0], rv[al][1], rv[be][0], rv[be][1], band, -1, K, D)) return 0;
    }
  }
  return 1;
}

int cosrod_contact_pair(const cosrod_contact_model *m, cosrod_contact_data *d, int ra, int i, int rb, int j,
                        const double *const *x, const double *const *v, double *const *f) {
  const contact_rod_m *A = &m->rods[ra], *B = &m->rods[rb];
  const double *X[4] = {x[ra] + 3 * i, x[ra] + 3 * i + 3, x[rb] + 3 * j, x[rb] + 3 * j + 3};
  static const double zero[3] = {0, 0, 0};
  const double *V[4] = {zero, zero, zero, zero};
  if (v && v[ra]) V[0] = v[ra] + 3 * i, V[1] = v[ra] + 3 * i + 3;
  if (v && v[rb]) V[2] = v[rb] + 3 * j, V[3] = v[rb] + 3 * j + 3;
  double s, u;
  double rho = cosrod_segment_segment_closest(&s, &u, X[0], X[1], X[2], X[3]);
  double gap = rho - A->radius - B->radius, p = -gap;
  if (p <= 0.0) return 1;
  d->nactive++;
  d->max_pen = fmax(d->max_pen, p / fmin(A->radius, B->radius));
  double c4[4] = {1.0 - s, s, -(1.0 - u), -u}, dvec[3] = {0, 0, 0}, n[3], vrel[3] = {0, 0, 0};
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) {
      dvec[k] += c4[a] * X[a][k];
      vrel[k] += c4[a] * V[a][k];
    }
  if (rho > 0.0) {
    cosrod_vec3_scale(n, 1.0 / rho, dvec);
  } else { /* axes intersect: any direction normal to both */
    double e1[3], e2[3];
    cosrod_vec3_sub(e1, X[1], X[0]);
    cosrod_vec3_sub(e2, X[3], X[2]);
    cosrod_vec3_cross(n, e1, e2);
    double l = cosrod_vec3_norm(n);
    if (l > 0.0)
      cosrod_vec3_scale(n, 1.0 / l, n);
    else
      cosrod_vec3_set(n, 0.0, 0.0, 1.0);
  }
  double l = 0.5 * (A->sref[i + 1] - A->sref[i] + B->sref[j + 1] - B->sref[j]);
  double K = fmin(A->krr, B->krr) * l, C = fmin(A->crr, B->crr) * l, delta = fmin(A->delta, B->delta);
  double dfdp, psi, dw;
  double fe = cosrod_contact_penalty(&dfdp, &psi, K, delta, p);
  double w = smooth_switch(&dw, p, delta);
  double pdot = -cosrod_vec3_dot(n, vrel);
  double FN = fe + C * w * pdot;
  int rv[4][2] = {{ra, i}, {ra, i + 1}, {rb, j}, {rb, j + 1}};
  pair_fric fr = {.mu = m->mu_k, .fe = fe};
  cosrod_vec3_zero(fr.Ft);
  if (fr.mu > 0.0) {
    double nv = cosrod_vec3_dot(n, vrel);
    for (int k = 0; k < 3; ++k) fr.vt[k] = vrel[k] - nv * n[k];
    fr.den = sqrt(cosrod_vec3_dot(fr.vt, fr.vt) + m->vstick * m->vstick);
    cosrod_vec3_scale(fr.Ft, -fr.mu * fe / fr.den, fr.vt);
    d->power += fr.mu * fe * cosrod_vec3_dot(fr.vt, fr.vt) / fr.den;
  }
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) f[rv[a][0]][3 * rv[a][1] + k] += c4[a] * (FN * n[k] + fr.Ft[k]);
  d->energy += psi;
  d->power += C * w * pdot * pdot;
  cosrod_contact_point *cp = cosrod_contact_point_push(d);
  if (!cp) return 0;
  *cp = (cosrod_contact_point){.rod = ra,
                               .segment = i,
                               .other_kind = 1,
                               .other = rb,
                               .other_segment = j,
                               .gap = gap,
                               .fn = FN,
                               .slip = fr.mu > 0.0 && cosrod_vec3_norm(fr.vt) > m->vstick};
  for (int k = 0; k < 3; ++k) cp->point[k] = X[0][k] + s * (X[1][k] - X[0][k]);
  cosrod_vec3_copy(cp->normal, n);
  cosrod_vec3_copy(cp->ft, fr.Ft);
  if (!d->want_jac || !(rho > 0.0)) return 1;
  return pair_jac(d, (const int(*)[2])rv, c4, X, V, s, u, n, rho, FN, dfdp, C, w, dw, pdot, &fr);
}
