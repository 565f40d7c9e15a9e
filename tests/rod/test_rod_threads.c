// SPDX-License-Identifier: Apache-2.0
/* Evaluations over segment blocks in parallel (rod_eval_stage.c, core/par.h):
 * the right-hand sides, the DAE residual, the forces and the energies of a
 * long damped, clamped, loaded helix are bit-identical (memcmp) for 1, 2 and
 * 3 threads, at a random state off the reference configuration.  Every index
 * writes its own entries and the sums run serially in index order, so no
 * rounding may differ; any data race or misplaced block boundary shows as a
 * changed bit. */
#include <stdio.h>

#include "core/par.h"
#include "rod_test_util.h"

typedef struct {
  int calls, covered;
} split_ctx;

static void count_block(void *vc, int i0, int i1) {
  split_ctx *c = vc;
  __atomic_add_fetch(&c->calls, 1, __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&c->covered, i1 - i0, __ATOMIC_SEQ_CST);
}

/* OpenMP is loaded only on the first request for 2 threads (before it the
 * process maps no libgomp), and then runs the loop as 2 blocks. */
TEST(openmp_loaded_on_demand) {
  split_ctx c = {0, 0};
  cosrod_par_for(1, 100, count_block, &c);
  CHECK("1 thread: one block covering [0, 100)", c.calls == 1 && c.covered == 100);
  CHECK("no libgomp before a request for 2 threads", th_mapped("libgomp") == 0);
  c.calls = c.covered = 0;
  cosrod_par_for(2, 100, count_block, &c);
#ifdef COSROD_HAVE_OPENMP
  CHECK("the OpenMP module is loaded", cosrod_par_loaded() == 1 && th_mapped("libcosrod_omp") == 1);
  CHECK("2 threads: two blocks covering [0, 100)", c.calls == 2 && c.covered == 100);
#else
  CHECK("without OpenMP: one block", c.calls == 1 && c.covered == 100);
#endif
}

typedef struct {
  double *ydot, *res, *fx, *fp, *lambda;
  cosrod_rod_energy e[3];
} evals;

/* All evaluations of rod at (y_abs, y_ns, y/yp DAE) with nthreads threads. */
static void eval_all(const cosrod_rod *rod, int nthreads, const double *ya, const double *yn, const double *yd,
                     const double *ypd, evals *o) {
  const int N = cosrod_rod_nseg(rod), na = cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE),
            nn = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  CHECK("set_threads accepted", cosrod_rod_data_set_threads(d, nthreads) == COSROD_OK);
  int r = cosrod_rod_rhs_absolute(rod, d, 0.3, ya, o->ydot);
  o->e[0] = d->energy;
  memcpy(o->fx, d->fx, sizeof(double) * 3 * (size_t)(N + 1));
  memcpy(o->fp, d->fp, sizeof(double) * 4 * (size_t)N);
  memcpy(o->lambda, d->lambda, sizeof(double) * (size_t)N);
  r |= cosrod_rod_rhs_nullspace(rod, d, 0.3, yn, o->ydot + na);
  o->e[1] = d->energy;
  r |= cosrod_rod_res_dae(rod, d, 0.3, yd, ypd, o->res);
  o->e[2] = d->energy;
  (void)nn;
  CHECK("evaluations succeed", r == 0);
  cosrod_rod_data_free(d);
}

static void perturb(th_rng *g, double *y, int n, double s) {
  for (int i = 0; i < n; ++i) y[i] += s * th_rng_normal(g);
}

TEST(bit_identical_for_any_thread_count) {
  const int N = cosrod_rod_parallel_min_segments() + 37; /* blocks of unequal size for 2 and 3 threads */
  cosrod_rod_load loads[3] = {
      {.kind = COSROD_LOAD_FORCE, .frame = COSROD_FRAME_MATERIAL, .vertex = -1, .value = {0.1, 0.0, 0.2}},
      {.kind = COSROD_LOAD_MOMENT, .frame = COSROD_FRAME_SPATIAL, .vertex = N / 2, .value = {0.0, 0.01, 0.0}},
      {.kind = COSROD_LOAD_DISTRIBUTED, .frame = COSROD_FRAME_SPATIAL, .vertex = 0, .value = {0.0, 0.3, 0.0}}};
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = N;
  def.shape = COSROD_SHAPE_HELIX;
  def.shape_radius = 0.3;
  def.pitch = 0.4;
  def.turns = 0.6;
  def.gravity[2] = -9.81;
  def.damping = COSROD_DAMPING_KELVIN_VOIGT;
  def.tau_shear = def.tau_bulk = 0.01;
  def.ends[0].kind = COSROD_END_CLAMPED;
  def.loads = loads;
  def.nloads = 3;
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  CHECK("rod created", rod != NULL);
  if (!rod) return;
  const int na = cosrod_rod_ny(rod, COSROD_FORM_ABSOLUTE), nn = cosrod_rod_ny(rod, COSROD_FORM_NULLSPACE),
            nd = cosrod_rod_ny(rod, COSROD_FORM_DAE);
  double *ya = calloc((size_t)na, sizeof(double)), *yn = calloc((size_t)nn, sizeof(double));
  double *yd = calloc((size_t)nd, sizeof(double)), *ypd = calloc((size_t)nd, sizeof(double));
  th_rng g;
  th_rng_seed(&g, 28);
  cosrod_rod_initial_state(rod, COSROD_FORM_ABSOLUTE, ya);
  cosrod_rod_initial_state(rod, COSROD_FORM_NULLSPACE, yn);
  cosrod_rod_initial_state(rod, COSROD_FORM_DAE, yd);
  /* off the reference: strains, curvatures and rates all non-zero */
  perturb(&g, ya, na, 1e-3);
  perturb(&g, yn, nn, 1e-3);
  perturb(&g, yd, nd, 1e-3);
  perturb(&g, ypd, nd, 1e-2);
  evals o[3];
  const int nthr[3] = {1, 2, 3};
  for (int i = 0; i < 3; ++i) {
    o[i].ydot = calloc((size_t)(na + nn), sizeof(double));
    o[i].res = calloc((size_t)nd, sizeof(double));
    o[i].fx = calloc(3 * (size_t)(N + 1), sizeof(double));
    o[i].fp = calloc(4 * (size_t)N, sizeof(double));
    o[i].lambda = calloc((size_t)N, sizeof(double));
    eval_all(rod, nthr[i], ya, yn, yd, ypd, &o[i]);
  }
#ifdef COSROD_HAVE_OPENMP
  const char *omp = "on";
#else
  const char *omp = "off";
#endif
  NOTE("N = %d, OpenMP %s; elastic energy %.17g J", N, omp, o[0].e[0].shear_ext + o[0].e[0].bend_tors);
  CHECK("the state is deformed and damped (energies and dissipation > 0)",
        o[0].e[0].bend_tors > 0.0 && o[0].e[0].shear_ext > 0.0 && o[0].e[0].dissipation_rate > 0.0);
  for (int i = 1; i < 3; ++i) {
    char what[128];
    snprintf(what, sizeof what, "%d threads: ydot (absolute, nullspace) bit-identical to 1 thread", nthr[i]);
    CHECK(what, memcmp(o[i].ydot, o[0].ydot, sizeof(double) * (size_t)(na + nn)) == 0);
    snprintf(what, sizeof what, "%d threads: DAE residual bit-identical", nthr[i]);
    CHECK(what, memcmp(o[i].res, o[0].res, sizeof(double) * (size_t)nd) == 0);
    snprintf(what, sizeof what, "%d threads: fx, psi, lambda bit-identical", nthr[i]);
    CHECK(what, memcmp(o[i].fx, o[0].fx, sizeof(double) * 3 * (size_t)(N + 1)) == 0 &&
                    memcmp(o[i].fp, o[0].fp, sizeof(double) * 4 * (size_t)N) == 0 &&
                    memcmp(o[i].lambda, o[0].lambda, sizeof(double) * (size_t)N) == 0);
    snprintf(what, sizeof what, "%d threads: energies and powers bit-identical", nthr[i]);
    CHECK(what, memcmp(o[i].e, o[0].e, sizeof o[0].e) == 0);
  }
  for (int i = 0; i < 3; ++i) {
    free(o[i].ydot), free(o[i].res), free(o[i].fx), free(o[i].fp), free(o[i].lambda);
  }
  free(ya), free(yn), free(yd), free(ypd);
  cosrod_rod_free(rod);
}

TEST(thread_count_validated) {
  cosrod_rod_def def = cosrod_rod_def_default();
  cosrod_rod *rod = cosrod_rod_create(&def, NULL);
  cosrod_rod_data *d = cosrod_rod_data_create(rod, NULL);
  CHECK("default: 1 thread", d->nthreads == 1);
  CHECK("negative count refused", cosrod_rod_data_set_threads(d, -1) == COSROD_ERR_INVALID);
  CHECK("NULL data refused", cosrod_rod_data_set_threads(NULL, 2) == COSROD_ERR_INVALID);
  CHECK("0 (auto) resolves to >= 1 thread", cosrod_rod_data_set_threads(d, 0) == COSROD_OK && d->nthreads >= 1);
  cosrod_rod_data_set_threads(d, 2);
#ifdef COSROD_HAVE_OPENMP
  CHECK("with OpenMP: 2 threads kept", d->nthreads == 2);
#else
  CHECK("without OpenMP: 1 thread", d->nthreads == 1);
#endif
  cosrod_rod_data_free(d);
  cosrod_rod_free(rod);
}

static const th_case cases[] = {TH_CASE(openmp_loaded_on_demand), TH_CASE(bit_identical_for_any_thread_count), TH_CASE(thread_count_validated)};
int main(int argc, char **argv) { return TH_MAIN(argc, argv, cases); }
