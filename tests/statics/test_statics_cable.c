// SPDX-License-Identifier: Apache-2.0
/* Gravity in statics follows the pseudo-time (options.gravity_ramp) and
 * long hanging cables converge: hoses of 2, 10 and 50 m and a 100 m steel
 * wire pinned at both ends (span = unstretched length, initially straight and
 * stress-free) sag under their weight.  The references are Irvine's elastic
 * catenary (H. M. Irvine, Cable Structures, 1981, §2.2: Hooke's law on the
 * unstretched length, the same as the rod's axial law F3 = EA (Γ3 - 1)) for
 * the midspan sag and the end tensions, which the rod matches where its
 * bending length sqrt(EI/H) is small against L; the end tensions are the
 * support reactions -f_x at the pinned vertices. */
#include <stdio.h>

#include "statics_test_util.h"

typedef struct cable {
  double L, E, poisson, rho, radius;
  int N;
} cable;

static const double G_ACC = 9.81;

/* Irvine's symmetric elastic catenary with span l = L: horizontal tension H
 * from l = H L/EA + (2H/w) asinh(w L / (2H)) (bisection on log H), then the
 * midspan sag d = w L²/(8 EA) + (H/w) (sqrt(1 + (V/H)²) - 1), V = w L/2,
 * and the end tension sqrt(H² + V²). */
static void irvine(const cable *c, double *H, double *sag, double *T_end) {
  const double A = ST_PI * c->radius * c->radius, EA = c->E * A, w = c->rho * A * G_ACC, L = c->L;
  double lo = 1e-12 * w * L, hi = 1e6 * w * L;
  for (int i = 0; i < 300; ++i) {
    double h = sqrt(lo * hi);
    double span = h * L / EA + 2.0 * h / w * asinh(w * L / (2.0 * h));
    if (span > L) /* too much stretch: H too large */
      hi = h;
    else
      lo = h;
  }
  *H = sqrt(lo * hi);
  const double V = 0.5 * w * L;
  *sag = w * L * L / (8.0 * EA) + *H / w * (sqrt(1.0 + (V / *H) * (V / *H)) - 1.0);
  *T_end = sqrt(*H * *H + V * V);
}

typedef struct cable_result {
  cosrod_status st;
  cosrod_statics_stats stats;
  double sag, T0, TN, Rz_sum, W;
} cable_result;

static cable_result hang(const cable *c) {
  cable_result res;
  memset(&res, 0, sizeof res);
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = c->N;
  def.length = c->L;
  def.E = c->E, def.poisson = c->poisson, def.density = c->rho;
  def.section = COSROD_SECTION_CIRCLE, def.radius = c->radius;
  def.shape = COSROD_SHAPE_STRAIGHT;
  def.direction[0] = 1, def.direction[1] = 0, def.direction[2] = 0;
  def.normal[0] = 0, def.normal[1] = 0, def.normal[2] = 1;
  def.ends[0].kind = COSROD_END_PINNED;
  def.ends[1].kind = COSROD_END_PINNED;
  def.gravity[2] = -G_ACC;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.gravity_ramp = 1;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  res.st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &res.stats);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  int ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = calloc((size_t)ny, sizeof(double));
  memcpy(y, q, sizeof(double) * (size_t)cosrod_rod_nq(rod));
  cosrod_rod_eval(rod, d, COSROD_FORM_NULLSPACE, 1.0, y);
  const int N = c->N;
  res.sag = -d->x[3 * (N / 2) + 2]; /* N even: the midspan vertex */
  /* support reactions: the pinned vertex is in equilibrium under the
   * generalised force f_x (internal + weight) and the support force -f_x */
  res.T0 = cosrod_vec3_norm(d->fx);
  res.TN = cosrod_vec3_norm(d->fx + 3 * N);
  res.Rz_sum = -(d->fx[2] + d->fx[3 * N + 2]);
  res.W = c->rho * ST_PI * c->radius * c->radius * c->L * G_ACC;
  free(y);
  cosrod_rod_data_free(d);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return res;
}

static void check_cable(const char *label, const cable *c, double tol) {
  double H, sag, T;
  irvine(c, &H, &sag, &T);
  cable_result r = hang(c);
  const double A = ST_PI * c->radius * c->radius, EI = c->E * ST_PI * pow(c->radius, 4) / 4.0;
  NOTE("%s (L = %g m, N = %d): %s, %ld increments (%ld rejected), %ld Newton (max %d); bending length "
       "sqrt(EI/H)/L = %.1e, strain H/EA = %.1e",
       label, c->L, c->N, cosrod_status_name(r.st), r.stats.increments, r.stats.rejected, r.stats.newton,
       r.stats.max_iterations, sqrt(EI / H) / c->L, H / (c->E * A));
  NOTE("  sag %.6f m (Irvine %.6f m, rel. %.2e); end tensions %.6f, %.6f N (Irvine %.6f N, rel. %.2e); "
       "vertical reactions %.10g N, weight %.10g N",
       r.sag, sag, fabs(r.sag - sag) / sag, r.T0, r.TN, T, fabs(r.T0 - T) / T, r.Rz_sum, r.W);
  CHECK("converged to the full weight", r.st == COSROD_OK && r.stats.t == 1.0);
  CHECK_CLOSE("midspan sag vs the elastic catenary", r.sag, sag, tol, 0.0);
  CHECK_CLOSE("end tension (start) vs the elastic catenary", r.T0, T, tol, 0.0);
  CHECK_CLOSE("end tension (end) vs the elastic catenary", r.TN, T, tol, 0.0);
  /* global equilibrium: the supports carry the whole weight (to the Newton
   * tolerance of the vertex forces, 1e-9 of the largest force ~ T) */
  CHECK_CLOSE("vertical reactions = weight", r.Rz_sum, r.W, 0.0, 1e-8 * T);
}

/* Solid rubber hose (E = 5 MPa, ρ = 1100, r = 1 cm): the bending length
 * sqrt(EI/H) is 2.6 % of L at 2 m, 0.3 % at 10 m, 0.04 % at 50 m, which
 * bounds the rod's deviation from the (bending-free) catenary; the
 * discretisation error is O(1/N²). */
TEST(hose_2m_converges) {
  cable c = {2.0, 5e6, 0.5, 1100.0, 1e-2, 20};
  check_cable("hose 2 m", &c, 5e-2);
}
TEST(hose_10m_catenary) {
  cable c = {10.0, 5e6, 0.5, 1100.0, 1e-2, 40};
  check_cable("hose 10 m", &c, 1e-2);
}
TEST(hose_50m_catenary) {
  cable c = {50.0, 5e6, 0.5, 1100.0, 1e-2, 50};
  check_cable("hose 50 m", &c, 2e-3);
}
/* Steel wire, r = 1 mm, 100 m: sag ~1.2 m from an elastic strain ~4e-4. */
TEST(steel_wire_100m_catenary) {
  cable c = {100.0, 2.1e11, 0.3, 7850.0, 1e-3, 100};
  check_cable("steel wire 100 m", &c, 2e-3);
}

/* The pseudo-time scales gravity: the state reported at t = 1/2 is the
 * equilibrium under half the weight (a small-deflection cantilever: tip
 * deflection half the full one up to the geometric nonlinearity (δ/L)² ~ 5e-5),
 * and t = 0 is the unloaded, straight rod (zero Newton iterations). */
typedef struct tip_at {
  const cosrod_rod *rod;
  double tip_half, tip_zero;
  int iters_zero;
} tip_at;

static int record_tip(void *user, double t, const double *q, int iterations, double residual) {
  (void)residual;
  tip_at *ta = user;
  int N = cosrod_rod_nseg(ta->rod);
  double x[3 * 17], p[4 * 16];
  st_unpack_x(ta->rod, t, q, x, p);
  if (t == 0.0) ta->tip_zero = x[3 * N], ta->iters_zero = iterations;
  if (t == 0.5) ta->tip_half = x[3 * N];
  return 0;
}

TEST(gravity_follows_pseudo_time) {
  cosrod_rod_def def = st_cantilever(16, 1.0, 5e-3, 0);
  def.gravity[0] = 9.81;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics_options o = cosrod_statics_default_options();
  o.gravity_ramp = 1;
  o.increments = 4;
  cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
  double *q = st_initial_q(rod);
  tip_at ta = {rod, NAN, NAN, -1};
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, record_tip, &ta, &stats);
  double x[3 * 17], p[4 * 16];
  st_unpack_x(rod, 1.0, q, x, p);
  NOTE("tip x at t = 0: %.3e m (%d iterations), t = 0.5: %.10e m, t = 1: %.10e m, ratio %.10f", ta.tip_zero,
       ta.iters_zero, ta.tip_half, x[48], ta.tip_half / x[48]);
  CHECK("solved", st == COSROD_OK);
  CHECK("t = 0 is the unloaded rod (no iterations, no deflection)", ta.iters_zero == 0 && ta.tip_zero == 0.0);
  CHECK_CLOSE("t = 1/2 carries half the weight", ta.tip_half / x[48], 0.5, 0.0, 1e-4);
  /* the same rod with gravity constant: full deflection already at t = 0 */
  cosrod_statics_options oc = cosrod_statics_default_options();
  cosrod_statics *sc = cosrod_statics_create(rod, &oc, NULL);
  double *qc = st_initial_q(rod);
  tip_at tc = {rod, NAN, NAN, -1};
  cosrod_statics_solve(sc, qc, 0.0, 1.0, record_tip, &tc, NULL);
  NOTE("gravity constant: tip x at t = 0: %.10e m", tc.tip_zero);
  CHECK_CLOSE("gravity constant: full weight at t = 0", tc.tip_zero, x[48], 1e-6, 0.0);
  free(qc);
  cosrod_statics_free(sc);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* A failed solve reports the residual the failed increment reached, never 0:
 * a free rod under its weight has no equilibrium. */
TEST(failure_reports_a_residual) {
  cosrod_rod_def def = st_cantilever(8, 1.0, 5e-3, 0);
  def.ends[0].kind = COSROD_END_FREE;
  def.gravity[0] = -9.81;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  for (int ramp = 0; ramp < 2; ++ramp) {
    cosrod_statics_options o = cosrod_statics_default_options();
    o.gravity_ramp = ramp;
    cosrod_statics *s = cosrod_statics_create(rod, &o, NULL);
    double *q = st_initial_q(rod);
    cosrod_statics_stats stats;
    cosrod_status st = cosrod_statics_solve(s, q, 0.0, 1.0, NULL, NULL, &stats);
    NOTE("gravity %s: %s at t = %g, residual of the failed increment %.3e (tol %.0e)",
         ramp ? "ramp" : "constant", cosrod_status_name(st), stats.t, stats.fail_residual,
         cosrod_statics_default_options().tol);
    CHECK("fails", st != COSROD_OK);
    CHECK_LE("the reported residual is above the tolerance", cosrod_statics_default_options().tol,
             stats.fail_residual);
    free(q);
    cosrod_statics_free(s);
  }
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(hose_2m_converges),          TH_CASE(hose_10m_catenary),
                                TH_CASE(hose_50m_catenary),          TH_CASE(steel_wire_100m_catenary),
                                TH_CASE(gravity_follows_pseudo_time), TH_CASE(failure_reports_a_residual)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
