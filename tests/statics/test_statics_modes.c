// SPDX-License-Identifier: Apache-2.0
/* Modal analysis in minimal coordinates: cantilever bending (Euler–Bernoulli
 * βL), axial and torsional continuum frequencies with second-order
 * convergence, modes about a static equilibrium (hanging chain: frequencies
 * from the gravity prestress alone), mass normalisation, and agreement with
 * a free vibration simulated by the dynamic solver (radau5) started from a
 * static equilibrium (start_from_equilibrium). */
#include <stdio.h>
#include <time.h>

#include "cosrod/integrate.h"
#include "statics_test_util.h"

#define MAXM 24

typedef struct modes_out {
  int N, count, nv;
  double omega[MAXM];
  double *shapes;  /* count x (N+1) x 6 */
  double *minimal; /* count x nv */
} modes_out;

static void modes_free(modes_out *m) {
  free(m->shapes);
  free(m->minimal);
}

static cosrod_status modes_of(const cosrod_rod *rod, double t, const double *q, int count, modes_out *m) {
  m->N = cosrod_rod_nseg(rod);
  m->count = count;
  m->nv = cosrod_rod_nv(rod, COSROD_FORM_NULLSPACE);
  m->shapes = calloc((size_t)count * 6 * (size_t)(m->N + 1), sizeof(double));
  m->minimal = calloc((size_t)count * (size_t)m->nv, sizeof(double));
  return cosrod_statics_modes(rod, t, q, count, m->omega, NULL, m->shapes, m->minimal);
}

/* share of component c (0..5: dx dy dz rx ry rz) in mode k, by the squared
 * vertex table (d and r weighted with the vertex mass and segment inertia
 * scales the caller passes) */
static double component_share(const modes_out *m, int k, int c, double wd, double wr) {
  double tot = 0.0, part = 0.0;
  for (int n = 0; n <= m->N; ++n)
    for (int j = 0; j < 6; ++j) {
      double v = m->shapes[(size_t)k * 6 * (size_t)(m->N + 1) + 6 * (size_t)n + (size_t)j];
      double e = (j < 3 ? wd : wr) * v * v;
      tot += e;
      if (j == c) part += e;
    }
  return tot > 0.0 ? part / tot : 0.0;
}

/* first mode (lowest ω) dominated by component c */
static double first_mode_of(const modes_out *m, int c, double wd, double wr) {
  for (int k = 0; k < m->count; ++k)
    if (component_share(m, k, c, wd, wr) > 0.9) return m->omega[k];
  return NAN;
}

static cosrod_rod *steel_cantilever(int N, double r) {
  cosrod_rod_def def = st_cantilever(N, 1.0, r, 0);
  return cosrod_rod_create(&def, NULL);
}

static const double E = 2.1e11, NU = 0.3, RHO = 7850.0;

static void check_order(const char *label, const double *err) {
  double o1 = log2(err[0] / err[1]), o2 = log2(err[1] / err[2]);
  NOTE("%s: errors %.3e %.3e %.3e, orders %.3f %.3f", label, err[0], err[1], err[2], o1, o2);
  /* second order in N (the asymptotic range is reached from N = 10 on) */
  CHECK_CLOSE("observed order (N = 10 -> 20)", o1, 2.0, 0.0, 0.25);
  CHECK_CLOSE("observed order (N = 20 -> 40)", o2, 2.0, 0.0, 0.15);
}

/* slender (L/r = 500) circular steel cantilever: bending pairs (d1, d2)
 * with ω = (βL)² sqrt(EI/(ρA L⁴)), βL = 1.8751, 4.6941, 7.8548.  Shear and
 * rotary inertia shift them by ~(βr)² ~ 2e-4 at most, below the N = 40
 * discretisation error of the modes used for the order. */
TEST(cantilever_bending_beta_l) {
  const double r = 2e-3, bl[3] = {1.87510407, 4.69409113, 7.85475744};
  const double c = sqrt(E * r * r / 4.0 / RHO); /* sqrt(EI/(ρA)) */
  int Ns[3] = {10, 20, 40};
  double err[3][3];
  for (int i = 0; i < 3; ++i) {
    cosrod_rod *rod = steel_cantilever(Ns[i], r);
    double *q = st_initial_q(rod);
    modes_out m;
    cosrod_status st = modes_of(rod, 0.0, q, 6, &m);
    CHECK("modes OK", st == COSROD_OK);
    for (int k = 0; k < 3; ++k) {
      double ref = bl[k] * bl[k] * c;
      /* degenerate pair (circle): both members */
      double e1 = fabs(m.omega[2 * k] - ref) / ref, e2 = fabs(m.omega[2 * k + 1] - ref) / ref;
      err[k][i] = fmax(e1, e2);
      NOTE("N = %2d bending %d: omega %.6f %.6f, beta L theory %.6f", Ns[i], k + 1, m.omega[2 * k],
           m.omega[2 * k + 1], ref);
    }
    modes_free(&m);
    free(q);
    cosrod_rod_free(rod);
  }
  for (int k = 0; k < 3; ++k) {
    char label[64];
    snprintf(label, sizeof label, "bending mode %d", k + 1);
    check_order(label, err[k]);
  }
  CHECK_LE("bending 1 at N = 40 within 1e-3", err[0][2], 1e-3);
  CHECK_LE("bending 3 at N = 40 within 1e-2", err[2][2], 1e-2);
}

/* N = 640 (3843 unknowns): the banded shift-and-invert eigensolver gives
 * the bending pairs of the slender cantilever at the βL values within the
 * shear / rotary-inertia shift ~(βr)² (discretisation error ~1e-6 here),
 * each pair degenerate to roundoff; the wall time is reported (not tested;
 * 0.33 s here against 21 s of the dense tridiagonal reduction before). */
TEST(cantilever_n640_banded_eigensolver) {
  const double r = 2e-3, bl[3] = {1.87510407, 4.69409113, 7.85475744};
  const double c = sqrt(E * r * r / 4.0 / RHO);
  cosrod_rod *rod = steel_cantilever(640, r);
  double *q = st_initial_q(rod);
  double omega[6];
  struct timespec t0, t1;
  timespec_get(&t0, TIME_UTC);
  cosrod_status st = cosrod_statics_modes(rod, 0.0, q, 6, omega, NULL, NULL, NULL);
  timespec_get(&t1, TIME_UTC);
  NOTE("N = 640 modes: %s in %.3f s", cosrod_status_name(st),
       (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  CHECK("modes OK", st == COSROD_OK);
  for (int k = 0; k < 3; ++k) {
    double ref = bl[k] * bl[k] * c;
    NOTE("bending %d: omega %.8f %.8f, beta L theory %.8f", k + 1, omega[2 * k], omega[2 * k + 1], ref);
    CHECK_CLOSE("pair member 1 vs beta L", omega[2 * k], ref, 5e-4, 0.0);
    CHECK_CLOSE("pair member 2 vs beta L", omega[2 * k + 1], ref, 5e-4, 0.0);
    /* to the roundoff of A = M^-1/2 K M^-1/2: eps cond(A) ~ 2e-16 x 3e7 in λ */
    CHECK_CLOSE("degenerate pair", omega[2 * k + 1], omega[2 * k], 1e-6, 0.0);
  }
  free(q);
  cosrod_rod_free(rod);
}

/* Mode types and groups.  Thick circular cantilever (r = 0.05, N = 40): the
 * modes at the continuum axial and torsion frequencies (2j - 1)(π/2) sqrt(E/ρ)/L,
 * (2j - 1)(π/2) sqrt(G/ρ)/L (within 2e-3) are typed axial and torsion, all others
 * bending, and the bending pairs form groups of two (so 12 modes are 12 -
 * #pairs distinct frequencies).  Rectangular cantilever (w = 2 h): the
 * lowest mode bends about the weak axis, the second about the strong one
 * at twice its ω (I ratio 4), with different bending types. */
TEST(mode_types_and_groups) {
  const double r = 0.05, G = E / (2.0 * (1.0 + NU));
  const double w_ax = 0.5 * ST_PI * sqrt(E / RHO), w_to = 0.5 * ST_PI * sqrt(G / RHO);
  cosrod_rod *rod = steel_cantilever(40, r);
  double *q = st_initial_q(rod);
  modes_out m;
  CHECK("modes OK", modes_of(rod, 0.0, q, 12, &m) == COSROD_OK);
  int kind[12], group[12];
  CHECK("kinds OK", cosrod_statics_mode_kinds(rod, q, 12, m.minimal, kind, NULL) == COSROD_OK);
  int ngroups = cosrod_statics_mode_groups(12, m.omega, 1e-6, group);
  int naxial = 0, ntorsion = 0, npairs = 0;
  for (int k = 0; k < 12; ++k) {
    NOTE("mode %2d: omega %12.4f  %-9s group %d", k + 1, m.omega[k], cosrod_mode_kind_name(kind[k]), group[k]);
    /* odd multiples (2j - 1) of the first axial / torsion frequency */
    double ja = nearbyint(0.5 * (m.omega[k] / w_ax + 1.0)), jt = nearbyint(0.5 * (m.omega[k] / w_to + 1.0));
    if (ja >= 1 && fabs(m.omega[k] - (2 * ja - 1) * w_ax) < 2e-3 * m.omega[k]) {
      CHECK("the axial frequency is typed axial", kind[k] == COSROD_MODE_AXIAL);
      naxial++;
    } else if (jt >= 1 && fabs(m.omega[k] - (2 * jt - 1) * w_to) < 2e-3 * m.omega[k]) {
      CHECK("the torsion frequency is typed torsion", kind[k] == COSROD_MODE_TORSION);
      ntorsion++;
    } else {
      CHECK("others are bending", kind[k] == COSROD_MODE_BENDING_1 || kind[k] == COSROD_MODE_BENDING_2);
    }
    if (k > 0 && group[k] == group[k - 1]) {
      npairs++;
      CHECK("a pair bends in both planes", kind[k] != kind[k - 1]);
    }
  }
  CHECK("one axial and two torsion modes among the 12", naxial == 1 && ntorsion == 2);
  NOTE("%d groups, %d pairs", ngroups, npairs);
  CHECK("groups = modes - pairs (four complete pairs, the 12th mode half a pair)",
        ngroups == 12 - npairs && npairs == 4);
  modes_free(&m);
  free(q);
  cosrod_rod_free(rod);

  cosrod_rod_def def = st_cantilever(40, 1.0, 0.0, 0);
  def.section = COSROD_SECTION_RECTANGLE;
  def.width = 0.02, def.height = 0.01;
  rod = cosrod_rod_create(&def, NULL);
  q = st_initial_q(rod);
  CHECK("rectangle modes OK", modes_of(rod, 0.0, q, 2, &m) == COSROD_OK);
  cosrod_statics_mode_kinds(rod, q, 2, m.minimal, kind, NULL);
  const double Iweak = 0.02 * 1e-6 / 12.0, A = 2e-4;
  const double w1 = 1.87510407 * 1.87510407 * sqrt(E * Iweak / (RHO * A));
  NOTE("rectangle: omega %.4f (%s), %.4f (%s); weak-axis beta L theory %.4f", m.omega[0],
       cosrod_mode_kind_name(kind[0]), m.omega[1], cosrod_mode_kind_name(kind[1]), w1);
  CHECK_CLOSE("weak bending vs beta L", m.omega[0], w1, 1e-3, 0.0);
  CHECK_CLOSE("strong bending at twice the weak one", m.omega[1], 2.0 * w1, 1e-3, 0.0);
  CHECK("different bending types", kind[0] != kind[1] && kind[0] <= COSROD_MODE_BENDING_2 &&
                                        kind[1] <= COSROD_MODE_BENDING_2);
  modes_free(&m);
  free(q);
  cosrod_rod_free(rod);
}

/* thick (r = 0.05) cantilever: first axial mode (π/2) sqrt(E/ρ)/L and first
 * torsional mode (π/2) sqrt(G/ρ)/L (circle: GJ/(ρJ) = G/ρ), exact for the
 * linear Cosserat rod (decoupled wave equations), identified by their shapes. */
TEST(cantilever_axial_torsion) {
  const double r = 0.05, G = E / (2.0 * (1.0 + NU));
  const double w_ax = 0.5 * ST_PI * sqrt(E / RHO), w_to = 0.5 * ST_PI * sqrt(G / RHO);
  int Ns[3] = {10, 20, 40};
  double ea[3], et[3];
  for (int i = 0; i < 3; ++i) {
    cosrod_rod *rod = steel_cantilever(Ns[i], r);
    double *q = st_initial_q(rod);
    modes_out m;
    cosrod_status st = modes_of(rod, 0.0, q, 12, &m);
    CHECK("modes OK", st == COSROD_OK);
    /* weights: translation with ρA, rotation with ρJ (kinetic energy shares) */
    double A = ST_PI * r * r, J = 0.5 * ST_PI * r * r * r * r;
    double wa = first_mode_of(&m, 2, RHO * A, RHO * J), wt = first_mode_of(&m, 5, RHO * A, RHO * J);
    NOTE("N = %2d: axial %.4f (theory %.4f), torsion %.4f (theory %.4f)", Ns[i], wa, w_ax, wt, w_to);
    ea[i] = fabs(wa - w_ax) / w_ax;
    et[i] = fabs(wt - w_to) / w_to;
    modes_free(&m);
    free(q);
    cosrod_rod_free(rod);
  }
  check_order("axial", ea);
  check_order("torsion", et);
  CHECK_LE("axial at N = 40 within 2e-4", ea[2], 2e-4);
  CHECK_LE("torsion at N = 40 within 2e-4", et[2], 2e-4);
}

/* Mass normalisation and M-orthogonality of the minimal eigenvectors. */
TEST(modes_mass_orthonormal) {
  cosrod_rod *rod = steel_cantilever(12, 0.01);
  double *q = st_initial_q(rod);
  modes_out m;
  modes_of(rod, 0.0, q, 8, &m);
  /* lumped mass in minimal coordinates */
  int N = m.N, nv = m.nv;
  double *M = calloc((size_t)nv, sizeof(double));
  double CG[3], rhoA, rhoI[3];
  cosrod_rod_constants(rod, CG, NULL, NULL, NULL, &rhoA, rhoI);
  const double *w = cosrod_rod_vertex_weight(rod), *ds = cosrod_rod_seg_length(rod);
  for (int n = 0; n <= N; ++n)
    for (int j = 0; j < cosrod_rod_vertex_ndof(rod, n); ++j)
      M[cosrod_rod_vindex_vertex(rod, COSROD_FORM_NULLSPACE, n) + j] = rhoA * w[n];
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < 3; ++j)
      M[cosrod_rod_vindex_segment(rod, COSROD_FORM_NULLSPACE, k) + j] = rhoI[j] * ds[k];
  double emax = 0.0;
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b <= a; ++b) {
      double sum = 0.0;
      for (int i = 0; i < nv; ++i)
        sum += m.minimal[(size_t)a * nv + i] * M[i] * m.minimal[(size_t)b * nv + i];
      emax = fmax(emax, fabs(sum - (a == b ? 1.0 : 0.0)));
    }
  /* LAPACK eigenvectors are orthonormal to ~1e-14; the symmetric-part
   * stiffness keeps exact symmetry */
  CHECK_LE("max |phi_a^T M phi_b - delta_ab|", emax, 1e-10);
  int asc = 1;
  for (int k = 1; k < 8; ++k) asc &= m.omega[k] >= m.omega[k - 1];
  CHECK("frequencies ascending", asc);
  free(M);
  modes_free(&m);
  free(q);
  cosrod_rod_free(rod);
}

/* Hanging chain limit: a very slender rubber rod pinned at the top, hanging
 * under gravity.  About the static equilibrium the lateral frequencies come
 * from the gravity prestress (geometric stiffness) alone:
 * ω_n = (j_{0,n} / 2) sqrt(g / L), j_{0,n} = 2.4048, 5.5201, 8.6537.
 * Bending adds O(sqrt(EI/(ρ A g L³))) ~ 1e-2 here (boundary layer at the
 * free end and the pin), hence the 3 % tolerance; about the unstressed
 * initial state the frequencies would be those of pure bending, ~30x lower. */
TEST(hanging_chain_about_equilibrium) {
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = 40;
  def.E = 5e6, def.poisson = 0.5, def.density = 1100.0;
  def.radius = 5e-4;
  def.direction[0] = 0, def.direction[1] = 0, def.direction[2] = -1;
  def.normal[0] = 1, def.normal[1] = 0, def.normal[2] = 0;
  def.ends[0].kind = COSROD_END_PINNED;
  def.gravity[2] = -9.81;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  double *q = st_initial_q(rod);
  cosrod_statics_stats stats;
  cosrod_status st = cosrod_statics_equilibrium_at(s, 0.0, q, &stats);
  CHECK("equilibrium OK", st == COSROD_OK);
  modes_out m;
  st = modes_of(rod, 0.0, q, 10, &m);
  CHECK("modes OK", st == COSROD_OK);
  /* the rod may spin about the vertical through the pin: one zero mode
   * (|ω| ~ 0 up to roundoff); drop modes below 1e-3 rad/s */
  double w[10];
  int nw = 0;
  for (int k = 0; k < 10; ++k)
    if (fabs(m.omega[k]) > 1e-3) w[nw++] = m.omega[k];
  NOTE("rigid modes dropped: %d", 10 - nw);
  CHECK("one rigid spin mode", nw == 9);
  const double j0[3] = {2.404825558, 5.520078110, 8.653727913}, sg = sqrt(9.81 / 1.0);
  for (int k = 0; k < 3; ++k) {
    double ref = 0.5 * j0[k] * sg;
    NOTE("mode pair %d: omega %.5f %.5f, chain %.5f", k + 1, w[2 * k], w[2 * k + 1], ref);
    CHECK_CLOSE("lateral pair member 1 vs hanging chain", w[2 * k], ref, 0.03, 0.0);
    CHECK_CLOSE("lateral pair member 2 vs hanging chain", w[2 * k + 1], ref, 0.03, 0.0);
  }
  modes_out m0;
  double *q0 = st_initial_q(rod);
  modes_of(rod, 0.0, q0, 3, &m0);
  /* without tension the pinned rod swings almost freely */
  NOTE("about the tension-free initial shape: lowest lateral omega = %.5f", m0.omega[1]);
  CHECK_LE("prestress raises the lowest lateral omega by > 10x", 10.0 * fabs(m0.omega[1]), w[0]);
  modes_free(&m0);
  modes_free(&m);
  free(q0);
  free(q);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

/* ---- modes vs. a free vibration of the dynamic solver ----------------------- */

typedef struct dyn_user {
  const cosrod_rod *rod;
  cosrod_rod_data *d;
  int itip;    /* offset of the tip x in y */
  int nsamp;   /* samples taken */
  double *tip; /* (nsamp) tip x */
} dyn_user;

static int dyn_rhs(double t, const double *y, double *ydot, void *user) {
  dyn_user *u = user;
  return cosrod_rod_rhs_nullspace(u->rod, u->d, t, y, ydot);
}

static int dyn_project(double t, double *y, void *user) {
  (void)t;
  dyn_user *u = user;
  return cosrod_rod_project(u->rod, COSROD_FORM_NULLSPACE, y) == COSROD_OK ? 0 : -1;
}

static int dyn_out(double t, const double *y, void *user) {
  (void)t;
  dyn_user *u = user;
  u->tip[u->nsamp++] = y[u->itip];
  return 0;
}

/* |Σ w_i x_i e^{-iωt_i}| with a Hann window */
static double spectrum(const double *x, int n, double dt, double om) {
  double re = 0.0, im = 0.0;
  for (int i = 0; i < n; ++i) {
    double w = 0.5 - 0.5 * cos(2.0 * ST_PI * i / (n - 1));
    re += w * x[i] * cos(om * i * dt);
    im -= w * x[i] * sin(om * i * dt);
  }
  return sqrt(re * re + im * im);
}

TEST(modes_match_free_vibration) {
  /* steel cantilever, r = 0.02 (shear/extension make it stiff: radau5), tip
   * pre-loaded sideways (active only at t = 0) and released */
  cosrod_rod_def def = st_cantilever(8, 1.0, 0.02, 0);
  const double EI = E * ST_PI * pow(0.02, 4) / 4.0;
  cosrod_rod_load load = {
      COSROD_LOAD_FORCE, COSROD_FRAME_SPATIAL, -1, {1e-3 * 3.0 * EI, 0, 0}, COSROD_PROFILE_ACTIVE, 0.0, 0.0};
  def.nloads = 1;
  def.loads = &load;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  int nq = cosrod_rod_nq(rod), ny = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  double *y = calloc((size_t)ny, sizeof(double));
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, y);
  /* start_from_equilibrium: the static solution for the loads at t = 0 */
  cosrod_statics *s = cosrod_statics_create(rod, NULL, NULL);
  cosrod_status st = cosrod_statics_equilibrium_at(s, 0.0, y, NULL);
  CHECK("equilibrium at t = 0", st == COSROD_OK);
  double x[27], p[32];
  st_unpack_x(rod, 0.0, y, x, p);
  /* N = 8: discretisation error PL³/(3EI)/(8N²) ~ 0.2 % plus shear ~0.08 % */
  CHECK_CLOSE("pre-deflected tip x vs linear theory 1e-3 m (2 %)", x[3 * 8], 1e-3, 0.02, 0.0);
  modes_out m;
  double *q0 = st_initial_q(rod);
  modes_of(rod, 0.0, q0, 2, &m); /* about the unloaded equilibrium */
  /* dynamic run (loads vanish for t > 0): ν = 0 initially */
  memset(y + nq, 0, sizeof(double) * (size_t)(ny - nq));
  const double T1 = 2.0 * ST_PI / m.omega[0];
  const int nout = 1000;
  const double tend = 6.0 * T1, dt = tend / nout;
  double *tout = malloc(sizeof(double) * nout);
  for (int i = 0; i < nout; ++i) tout[i] = (i + 1) * dt;
  dyn_user u = {rod, cosrod_rod_data_create(rod, NULL), cosrod_rod_qindex_vertex(rod, 8), 0, NULL};
  u.tip = calloc((size_t)nout + 1, sizeof(double));
  u.tip[u.nsamp++] = y[u.itip];
  cosrod_ode_problem pr = {0};
  pr.n = ny;
  pr.f = dyn_rhs;
  pr.user = &u;
  pr.project = dyn_project;
  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = o.atol = 1e-5;
  o.max_steps = 1000000;
  cosrod_integrator *it = cosrod_integrator_create(cosrod_step_radau5, &pr, &o, &st);
  CHECK("integrator created", it != NULL);
  cosrod_output_spec out = {0};
  out.t_out = tout;
  out.n_out = nout;
  out.output = dyn_out;
  out.user = &u;
  st = cosrod_integrate(it, 0.0, y, tend, &out, NULL);
  CHECK("free vibration integrated", st == COSROD_OK);
  NOTE("radau5 steps %ld, samples %d", cosrod_integrator_stats(it)->naccept, u.nsamp);
  /* spectrum peak near ω_1: golden-section search on |X(ω)| */
  double mean = 0.0;
  for (int i = 0; i < u.nsamp; ++i) mean += u.tip[i] / u.nsamp;
  for (int i = 0; i < u.nsamp; ++i) u.tip[i] -= mean;
  double a = 0.8 * m.omega[0], b = 1.2 * m.omega[0];
  const double gr = 0.5 * (sqrt(5.0) - 1.0);
  for (int i = 0; i < 80; ++i) {
    double c1 = b - gr * (b - a), c2 = a + gr * (b - a);
    if (spectrum(u.tip, u.nsamp, dt, c1) > spectrum(u.tip, u.nsamp, dt, c2))
      b = c2;
    else
      a = c1;
  }
  double w_peak = 0.5 * (a + b);
  NOTE("spectrum peak %.6f rad/s, modes omega_1 %.6f rad/s (%.4f Hz)", w_peak, m.omega[0],
       m.omega[0] / (2 * ST_PI));
  /* the peak of a Hann-windowed 6-period record of a (nearly) pure
   * sinusoid is biased by leakage of the higher modes (amplitudes < 3 % of
   * mode 1 for a tip-load shape) of order 1e-4; linear range (δ/L = 1e-3):
   * amplitude-dependent shift ~1e-6 */
  CHECK_CLOSE("free-vibration spectrum peak vs modes omega_1", w_peak, m.omega[0], 1e-3, 0.0);
  cosrod_integrator_free(it);
  cosrod_rod_data_free(u.d);
  free(u.tip);
  free(tout);
  modes_free(&m);
  free(q0);
  free(y);
  cosrod_statics_free(s);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(cantilever_bending_beta_l), TH_CASE(cantilever_n640_banded_eigensolver), TH_CASE(mode_types_and_groups), TH_CASE(cantilever_axial_torsion),
                                TH_CASE(modes_mass_orthonormal), TH_CASE(hanging_chain_about_equilibrium),
                                TH_CASE(modes_match_free_vibration)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
