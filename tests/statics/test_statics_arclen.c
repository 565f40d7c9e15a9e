// SPDX-License-Identifier: Apache-2.0
/* Arc-length continuation (cosrod_statics_solve_arclength).
 *
 * 1. The deep circular arch of DaDeppo and Schmidt (D. A. DaDeppo,
 *    R. Schmidt, "Instability of clamped-hinged circular arches subjected to
 *    a point load", J. Appl. Mech. 42, 1975): radius R, 215° opening,
 *    clamped at one support, hinged at the other, a dead point load at the
 *    crown towards the centre.  Inextensible limit load P R²/EI = 8.97; in
 *    the usual benchmark units (R = 100, EI = 10⁶, e.g. Simo & Vu-Quoc 1986)
 *    P_cr ≈ 897.  The path is followed through the limit point and the load
 *    factor must decrease after it; the limit loads at N = 40 and 80 are
 *    Richardson-extrapolated (the discretisation is second order) and
 *    compared with 897.
 * 2. The discrete limit point of the sine-2 curvature (test_statics_rollup:
 *    the conjugate torque EI sin φ/Δs of a vertex is bounded by EI/Δs): a
 *    cantilever bent by a dead end moment M has uniform bending angle φ per
 *    vertex with EI sin φ/Δs = λ M on the whole path, so
 *    λ(φ) = EI sin φ / (M Δs) in closed form before and after the limit at
 *    φ = π/2, λ_max = EI/(M Δs).
 * 3. The roll-up of a cantilever (tangent-2 curvature) under arc-length
 *    control lands on λ = 1 exactly, on the circle of radius EI/M. */
#include <stdio.h>

#include "statics_test_util.h"

#define ARCH_ANGLE (215.0 * ST_PI / 180.0)
#define ARCH_R 100.0
#define ARCH_EI 1e6

typedef struct arch_run {
  cosrod_status st;
  int nsteps, nlimit, nbif;
  double lam_limit, lam_prev, lam_last;
  int index_before, index_after; /* stability index at the step before / after the limit */
  int decreasing_after;          /* consecutive steps after the limit with a smaller λ */
  int stop_after;                /* stop once this many decreasing steps were seen */
  cosrod_statics *s;
  double load[3]; /* the crown force at λ = 1 */
  double max_imb; /* max |R_0 + R_1 + λ P| / P of the reactions at λ (force balance) */
} arch_run;

static int arch_cb(void *user, const cosrod_statics_arc_point *pt, const double *q) {
  arch_run *a = user;
  double R[12], bal[3];
  CHECK("reactions at the load factor",
        cosrod_statics_reactions_at(a->s, 0.0, pt->lambda, q, R, NULL) == COSROD_OK);
  for (int j = 0; j < 3; ++j) bal[j] = R[j] + R[6 + j] + pt->lambda * a->load[j];
  a->max_imb = fmax(a->max_imb, cosrod_vec3_norm(bal) / cosrod_vec3_norm(a->load));
  if (pt->critical == COSROD_CRITICAL_LIMIT && a->nlimit++ == 0) {
    a->lam_limit = pt->lambda_crit;
    a->index_after = pt->index;
  } else if (pt->critical == COSROD_CRITICAL_BIFURCATION) {
    a->nbif++;
  }
  if (a->nlimit == 0) a->index_before = pt->index;
  if (a->nlimit == 1 && pt->critical == COSROD_CRITICAL_NONE && pt->lambda < a->lam_prev)
    a->decreasing_after++;
  a->lam_prev = a->lam_last = pt->lambda;
  a->nsteps++;
  return a->nlimit > 0 && a->decreasing_after >= a->stop_after ? 1 : 0;
}

/* The arch with N segments and the load P (λ = 1) at the crown; in-plane
 * bending stiffness EI (rotations about d2: the arc bends towards d1),
 * out-of-plane bending and torsion 100 EI (the in-plane limit point comes
 * first), shear and extension 10⁷ EI/R² (inextensible to 1e-5). */
static arch_run arch(int N, double P) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.shape = COSROD_SHAPE_ARC;
  def.shape_radius = ARCH_R;
  def.arc_angle = ARCH_ANGLE;
  def.length = ARCH_R * ARCH_ANGLE;
  def.direction[0] = 1, def.direction[1] = 0, def.direction[2] = 0;
  def.normal[0] = 0, def.normal[1] = 0, def.normal[2] = 1;
  def.EI2 = ARCH_EI;
  def.EI1 = def.GJ = 100.0 * ARCH_EI;
  def.EA = def.GA1 = def.GA2 = 1e7 * ARCH_EI / (ARCH_R * ARCH_R);
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.ends[1].kind = COSROD_END_PINNED;
  cosrod_rod *rod0 = cosrod_rod_create(&def, NULL);
  CHECK("arch rod", rod0 != NULL);
  double *q = st_initial_q(rod0);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(rod0, 0.0, q, x, p);
  /* the centre of the arc is start + R d1(start); the crown is vertex N/2 */
  double c[3] = {x[0], x[1], x[2] + ARCH_R}, dir[3];
  cosrod_vec3_sub(dir, c, x + 3 * (N / 2));
  cosrod_vec3_scale(dir, 1.0 / ARCH_R, dir);
  CHECK_NEAR("crown at distance R from the centre", cosrod_vec3_norm(dir), 1.0, 1e-12);
  cosrod_rod_load load = {COSROD_LOAD_FORCE,
                          COSROD_FRAME_SPATIAL,
                          N / 2,
                          {P * dir[0], P * dir[1], P * dir[2]},
                          COSROD_PROFILE_CONSTANT,
                          0,
                          1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  cosrod_statics_arc_options o = cosrod_statics_arc_default_options();
  o.arc = 0.02;
  o.max_steps = 400;
  arch_run a;
  memset(&a, 0, sizeof a);
  a.stop_after = 5;
  a.s = s;
  memcpy(a.load, load.value, sizeof a.load);
  double lam = 0.0;
  cosrod_statics_stats stats;
  a.st = cosrod_statics_solve_arclength(s, q, 0.0, &o, arch_cb, &a, &lam, &stats);
  NOTE(
      "N = %d: %s after %d steps (%ld rejected, %ld Newton), limit at lambda %.6f: P_cr = %.3f, stability "
      "index "
      "%d -> %d, lambda %.4f after %d decreasing steps, %d bifurcation(s), force balance %.1e P",
      N, cosrod_status_name(a.st), a.nsteps, stats.rejected, stats.newton, a.lam_limit, a.lam_limit * P,
      a.index_before, a.index_after, a.lam_last, a.decreasing_after, a.nbif, a.max_imb);
  free(x), free(p), free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  cosrod_rod_free(rod0);
  return a;
}

/* Followed through the limit point at N = 40 and 80: one limit point, no
 * bifurcation before it, stable (index 0) up to it and one negative
 * eigenvalue after it, the load decreasing after it; the limit loads
 * decrease towards 897 (discretisation error +6 % at N = 40, +1.5 % at
 * N = 80 here) and their Richardson extrapolation (order 2) is within
 * 0.5 % of 897 (the published value has three digits; the O(N⁻⁴) remainder
 * of the extrapolation is estimated below 0.2 % from the two errors). */
TEST(arch_dadeppo_limit_point) {
  const int Ns[2] = {40, 80};
  double Pc[2];
  const double P = 1000.0;
  for (int i = 0; i < 2; ++i) {
    arch_run a = arch(Ns[i], P);
    CHECK("stopped by the callback after the limit", a.st == COSROD_ERR_INTERRUPTED);
    CHECK("exactly one limit point", a.nlimit == 1);
    CHECK("no bifurcation before or after it", a.nbif == 0);
    CHECK("stable before the limit (index 0)", a.index_before == 0);
    CHECK("one negative eigenvalue after it", a.index_after == 1);
    CHECK("the load factor decreases after the limit", a.decreasing_after >= 5 && a.lam_last < a.lam_limit);
    /* global equilibrium of the supports with λ P: the sum of the vertex
     * residuals, each below the roundoff floor of the stiff axial forces
     * 4 eps EA |x|/Δs ~ 4e-5 (EA = 1e9, |x|/Δs ~ 43 at N = 80) plus 1e-9 of
     * the force scale: N 4e-5 / (0.9 P) ~ 3e-6 at N = 80 */
    CHECK_LE("reactions balance the scaled load", a.max_imb, 1e-5);
    Pc[i] = a.lam_limit * P;
  }
  double Pr = (4.0 * Pc[1] - Pc[0]) / 3.0;
  NOTE("P_cr: N = 40 %.3f, N = 80 %.3f, Richardson %.3f (published 897, PR²/EI = 8.97)", Pc[0], Pc[1], Pr);
  CHECK("limit load decreases with N", Pc[1] < Pc[0]);
  CHECK_REL("N = 80 within 2 % of 897", Pc[1], 897.0, 0.02);
  CHECK_REL("extrapolated limit load 897", Pr, 897.0, 0.005);
}

/* ---- sine-2 cantilever: λ(φ) = EI sin φ / (M Δs) through the limit -------- */

typedef struct sine2_run {
  const cosrod_rod *rod;
  double EI, M, ds, lam_max_exact;
  double max_err;    /* max |λ - λ(φ)| / λ_max over the path */
  double max_phi;    /* largest bending angle reached */
  double max_spread; /* max over points of the spread of φ over the vertices */
  int nlimit, npast;
  double lam_limit;
} sine2_run;

static int sine2_cb(void *user, const cosrod_statics_arc_point *pt, const double *q) {
  sine2_run *r = user;
  const int N = cosrod_rod_nseg(r->rod);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(r->rod, 0.0, q, x, p);
  /* bending angle at interior vertex n: angle between consecutive segment tangents */
  double pmin = INFINITY, pmax = 0.0;
  for (int n = 1; n < N; ++n) {
    double a[3], b[3];
    cosrod_vec3_sub(a, x + 3 * n, x + 3 * (n - 1));
    cosrod_vec3_sub(b, x + 3 * (n + 1), x + 3 * n);
    double cr[3];
    cosrod_vec3_cross(cr, a, b);
    double phi = atan2(cosrod_vec3_norm(cr), cosrod_vec3_dot(a, b));
    pmin = fmin(pmin, phi), pmax = fmax(pmax, phi);
  }
  double phi = 0.5 * (pmin + pmax);
  double lam_exact = r->EI * sin(phi) / (r->M * r->ds);
  r->max_err = fmax(r->max_err, fabs(pt->lambda - lam_exact) / r->lam_max_exact);
  r->max_spread = fmax(r->max_spread, pmax - pmin);
  r->max_phi = fmax(r->max_phi, phi);
  if (pt->critical == COSROD_CRITICAL_LIMIT && r->nlimit++ == 0) r->lam_limit = pt->lambda_crit;
  if (phi > 0.5 * ST_PI + 0.3) r->npast++;
  free(x), free(p);
  return r->npast >= 3 ? 1 : 0;
}

TEST(sine2_discrete_limit_path) {
  const int N = 10;
  const double E = 2.1e11, RAD = 5e-3, LEN = 1.0;
  const double EI = E * ST_PI * RAD * RAD * RAD * RAD / 4.0;
  cosrod_rod_def def = st_cantilever(N, LEN, RAD, 0);
  def.curvature = COSROD_CURV_SINE2;
  const double M = 2.0 * 2.0 * ST_PI * EI / LEN; /* two turns: beyond the discrete limit */
  cosrod_rod_load load = {
      COSROD_LOAD_MOMENT, COSROD_FRAME_SPATIAL, -1, {0, M, 0}, COSROD_PROFILE_CONSTANT, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  sine2_run r;
  memset(&r, 0, sizeof r);
  r.rod = rod, r.EI = EI, r.M = M, r.ds = LEN / N;
  r.lam_max_exact = EI / (M * r.ds);
  cosrod_statics_arc_options o = cosrod_statics_arc_default_options();
  o.arc = 0.02;
  o.max_steps = 500;
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve_arclength(s, q, 0.0, &o, sine2_cb, &r, NULL, &stats);
  NOTE(
      "%s, %ld steps (%ld rejected): limit lambda %.8f (exact %.8f), max |lambda - lambda(phi)| %.2e of it, "
      "phi up to %.4f, vertex spread of phi %.1e",
      cosrod_status_name(st), stats.increments, stats.rejected, r.lam_limit, r.lam_max_exact, r.max_err,
      r.max_phi, r.max_spread);
  CHECK("followed past the limit (stopped by the callback)", st == COSROD_ERR_INTERRUPTED && r.npast >= 3);
  CHECK("one limit point", r.nlimit == 1);
  /* path: equilibrium to the Newton tolerance (1e-9 of the torque scale) */
  CHECK_LE("path on lambda(phi) = EI sin(phi)/(M ds)", r.max_err, 1e-7);
  /* the Hermite extremum: error O(Δs⁴) of the step across the limit */
  CHECK_REL("limit load factor EI/(M ds)", r.lam_limit, r.lam_max_exact, 1e-6);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* ---- roll-up landing on λ = 1 --------------------------------------------- */

typedef struct rollup_run {
  int npoints;
  double lam_last, lam_max;
} rollup_run;

static int rollup_cb(void *user, const cosrod_statics_arc_point *pt, const double *q) {
  (void)q;
  rollup_run *r = user;
  r->npoints++;
  r->lam_last = pt->lambda;
  r->lam_max = fmax(r->lam_max, pt->lambda);
  return 0;
}

/* One turn, dead and follower moment, N = 40, tangent-2: the run ends at
 * λ = 1 exactly and the tip is on the closed-form circle within the
 * discretisation bound of test_statics_rollup (2π φ²/6 L, φ = 2π/N). */
static void rollup_arc(cosrod_load_frame fr) {
  const int N = 40;
  const double E = 2.1e11, RAD = 5e-3, LEN = 1.0;
  const double EI = E * ST_PI * RAD * RAD * RAD * RAD / 4.0;
  cosrod_rod_def def = st_cantilever(N, LEN, RAD, 0);
  const double M = 2.0 * ST_PI * EI / LEN;
  cosrod_rod_load load = {COSROD_LOAD_MOMENT, fr, -1, {0, M, 0}, COSROD_PROFILE_CONSTANT, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  rollup_run r;
  memset(&r, 0, sizeof r);
  double lam = 0.0;
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_solve_arclength(s, q, 0.0, NULL, rollup_cb, &r, &lam, &stats);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(rod, 0.0, q, x, p);
  const double R = EI / M;
  double tip[3] = {R * (1.0 - cos(LEN / R)), 0.0, R * sin(LEN / R)}, d[3];
  cosrod_vec3_sub(d, x + 3 * N, tip);
  const double phi = 2.0 * ST_PI / N, bound = 2.0 * ST_PI * phi * phi / 6.0;
  NOTE("%s moment: %s, %ld steps (%ld rejected, %ld Newton), lambda %.17g, tip error %.2e L (bound %.1e)",
       fr == COSROD_FRAME_SPATIAL ? "dead" : "follower", cosrod_status_name(st), stats.increments,
       stats.rejected, stats.newton, lam, cosrod_vec3_norm(d) / LEN, bound);
  CHECK("reached the full moment", st == COSROD_OK);
  CHECK("lands on lambda = 1 exactly", lam == 1.0 && r.lam_last == 1.0 && stats.t == 1.0);
  CHECK("monotone path never above 1", r.lam_max <= 1.0);
  CHECK_LE("tip on the closed-form circle", cosrod_vec3_norm(d) / LEN, bound);
  /* the same equilibrium as load control (cosrod_statics_solve, ramped
   * moment) to the Newton tolerance */
  double *q2 = st_initial_q(rod), *x2 = malloc(sizeof(double) * 3 * (size_t)(N + 1));
  load.profile = COSROD_PROFILE_RAMP;
  cosrod_rod *rod2 = cosrod_rod_create(&def, NULL);
  cosrod_statics *s2 = cosrod_statics_create(rod2, NULL, NULL);
  CHECK("load control solves it", cosrod_statics_solve(s2, q2, 0.0, 1.0, NULL, NULL, NULL) == COSROD_OK);
  st_unpack_x(rod2, 1.0, q2, x2, p);
  double dmax = 0.0;
  for (int i = 0; i < 3 * (N + 1); ++i) dmax = fmax(dmax, fabs(x2[i] - x[i]));
  NOTE("max vertex difference to load control %.2e L", dmax / LEN);
  CHECK_LE("same state as load control", dmax / LEN, 1e-7);
  cosrod_statics_free(s2);
  cosrod_rod_free(rod2);
  free(q2), free(x2);
  free(x), free(p), free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

TEST(rollup_arclength_dead) { rollup_arc(COSROD_FRAME_SPATIAL); }
TEST(rollup_arclength_follower) { rollup_arc(COSROD_FRAME_MATERIAL); }

/* ---- Euler column: bifurcations without a load extremum -------------------- */

typedef struct column_run {
  int nlimit, nbif;
  double lam_bif[4];
  int index_last;
} column_run;

static int column_cb(void *user, const cosrod_statics_arc_point *pt, const double *q) {
  (void)q;
  column_run *c = user;
  if (pt->critical == COSROD_CRITICAL_LIMIT) c->nlimit++;
  if (pt->critical == COSROD_CRITICAL_BIFURCATION && c->nbif < 4) c->lam_bif[c->nbif++] = pt->lambda_crit;
  c->index_last = pt->index;
  return 0;
}

/* A perfectly straight clamped–free column (rectangular section, EI1 = 1.44
 * EI2) under a dead compressive end force P = 3 P_E,min: the path stays on
 * the straight branch (no load extremum) and crosses the two Euler loads
 * π² EI/(4L²) of the two bending planes: two bifurcation points, the
 * stability index 0 -> 1 -> 2, located by bisection.  Reference: Euler's
 * loads; the discrete model differs by O(N⁻²) (bending, (π/2N)²/12 ~ 1.3e-4
 * at N = 40) and by the shear flexibility factor 1/(1 + P/GA) (1e-5 here):
 * bound 5e-4. */
TEST(column_bifurcations) {
  const int N = 40;
  const double L = 1.0;
  cosrod_rod_def def = st_cantilever(N, L, 5e-3, 1);
  def.section = COSROD_SECTION_RECTANGLE;
  def.width = 6e-3, def.height = 5e-3; /* I ∝ w h³ / w³ h: ratio (6/5)² = 1.44 */
  cosrod_rod *rod0 = cosrod_rod_create(&def, NULL);
  double EI[3];
  double CG[3], VG[3], VK[3];
  cosrod_rod_constants(rod0, CG, EI, VG, VK, NULL, NULL);
  cosrod_rod_free(rod0);
  const double EImin = fmin(EI[0], EI[1]), EImax = fmax(EI[0], EI[1]);
  const double PE1 = ST_PI * ST_PI * EImin / (4.0 * L * L), PE2 = ST_PI * ST_PI * EImax / (4.0 * L * L);
  const double P = 3.0 * PE1;
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 0, -P}, COSROD_PROFILE_CONSTANT, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  column_run c;
  memset(&c, 0, sizeof c);
  cosrod_statics_stats stats;
  cosrod_statics_arc_options o = cosrod_statics_arc_default_options();
  o.max_steps = 500;
  cosrod_status st = cosrod_statics_solve_arclength(s, q, 0.0, &o, column_cb, &c, NULL, &stats);
  NOTE(
      "%s, %ld steps: %d bifurcation(s) at P/P_E1 = %.7f, %.7f (P_E2/P_E1 = %.7f), %d limit(s), final index "
      "%d",
      cosrod_status_name(st), stats.increments, c.nbif, c.lam_bif[0] * 3.0, c.lam_bif[1] * 3.0, PE2 / PE1,
      c.nlimit, c.index_last);
  CHECK("reaches the full load on the straight branch", st == COSROD_OK);
  CHECK("no limit point", c.nlimit == 0);
  CHECK("two bifurcation points", c.nbif == 2);
  CHECK("index 2 at the end", c.index_last == 2);
  CHECK_REL("first Euler load", c.lam_bif[0] * P, PE1, 5e-4);
  CHECK_REL("second Euler load", c.lam_bif[1] * P, PE2, 5e-4);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* ---- branch switching: the post-buckling elastica of the column ------------ */

/* Complete elliptic integral of the first kind K(k) by the arithmetic–
 * geometric mean: K = π / (2 AGM(1, sqrt(1 - k²))). */
static double ellip_K(double k) {
  double a = 1.0, b = sqrt(1.0 - k * k);
  for (int i = 0; i < 40; ++i) {
    double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return ST_PI / (2.0 * a);
}

typedef struct elastica_run {
  const cosrod_rod *rod;
  double P, PE;
  int nbif, npost;
  double max_err, max_alpha;
} elastica_run;

static int elastica_cb(void *user, const cosrod_statics_arc_point *pt, const double *q) {
  elastica_run *e = user;
  if (pt->critical == COSROD_CRITICAL_BIFURCATION) e->nbif++;
  if (e->nbif == 0 || pt->critical == COSROD_CRITICAL_BIFURCATION) return 0;
  const int N = cosrod_rod_nseg(e->rod);
  double *x = malloc(sizeof(double) * 3 * (size_t)(N + 1)), *p = malloc(sizeof(double) * 4 * (size_t)N);
  st_unpack_x(e->rod, 0.0, q, x, p);
  /* tip rotation α: the end segment's d3 against the axis e3 */
  double d3[3], e3[3] = {0, 0, 1};
  cosrod_quat_rotate(d3, p + 4 * (N - 1), e3);
  double alpha = acos(fmax(-1.0, fmin(1.0, d3[2])));
  /* the end segment's direction is the tangent at s = L - Δs/2: correct to the tip with the curvature
   * there, which vanishes at the free end (M = 0): error O(Δs²) */
  double kk = sin(0.5 * alpha), want = pow(2.0 * ellip_K(kk) / ST_PI, 2.0);
  double got = pt->lambda * e->P / e->PE;
  if (alpha > 0.05) e->max_err = fmax(e->max_err, fabs(got - want) / want);
  e->max_alpha = fmax(e->max_alpha, alpha);
  e->npost++;
  free(x), free(p);
  return alpha > 2.0 ? 1 : 0; /* past 115°: enough */
}

/* The column of column_bifurcations with branch switching at its first
 * Euler load: the secondary branch is Euler's elastica, P/P_E =
 * (2 K(sin(α/2)) / π)² with the tip rotation α (Timoshenko & Gere §2.7),
 * followed to α = 2 rad.  The deviation is the discretisation error of the
 * model (and of measuring α on the end segment, Δs/2 before the tip):
 * second order, 7.1e-3 at N = 20 and 1.7e-3 at N = 40 (4.4e-4 at N = 80). */
static double elastica(int N) {
  const double L = 1.0;
  cosrod_rod_def def = st_cantilever(N, L, 5e-3, 1);
  def.section = COSROD_SECTION_RECTANGLE;
  def.width = 6e-3, def.height = 5e-3;
  cosrod_rod *rod0 = cosrod_rod_create(&def, NULL);
  double EI[3], CG[3], VG[3], VK[3];
  cosrod_rod_constants(rod0, CG, EI, VG, VK, NULL, NULL);
  cosrod_rod_free(rod0);
  const double PE = ST_PI * ST_PI * fmin(EI[0], EI[1]) / (4.0 * L * L), P = 3.0 * PE;
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {0, 0, -P}, COSROD_PROFILE_CONSTANT, 0, 1};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  elastica_run e;
  memset(&e, 0, sizeof e);
  e.rod = rod, e.P = P, e.PE = PE;
  cosrod_statics_stats stats;
  cosrod_statics_arc_options o = cosrod_statics_arc_default_options();
  o.max_steps = 500;
  o.branch_switch = 1;
  double lam = 0.0;
  cosrod_status st = cosrod_statics_solve_arclength(s, q, 0.0, &o, elastica_cb, &e, &lam, &stats);
  NOTE(
      "N = %d: %s, %ld steps (%ld rejected): %d points on the elastica, tip rotation up to %.3f rad, "
      "max |P/P_E - (2K/π)²| / (2K/π)² = %.2e",
      N, cosrod_status_name(st), stats.increments, stats.rejected, e.npost, e.max_alpha, e.max_err);
  CHECK("switched and followed the elastica", e.nbif == 1 && e.npost >= 5 && e.max_alpha > 2.0);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
  return e.max_err;
}

TEST(column_branch_switch_elastica) {
  double e20 = elastica(20), e40 = elastica(40);
  NOTE("observed order %.3f", log2(e20 / e40));
  CHECK_LE("on the elastica P(α) at N = 40", e40, 2e-3);
  CHECK_CLOSE("second order in N", log2(e20 / e40), 2.0, 0.0, 0.2);
}

static const th_case cases[] = {TH_CASE(arch_dadeppo_limit_point), TH_CASE(sine2_discrete_limit_path),
                                TH_CASE(rollup_arclength_dead),    TH_CASE(rollup_arclength_follower),
                                TH_CASE(column_bifurcations),      TH_CASE(column_branch_switch_elastica)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
