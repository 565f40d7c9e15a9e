// SPDX-License-Identifier: Apache-2.0
/* One validation for `check` and `run`: the resource estimate of
 * a scenario before anything of size N is allocated, and
 * cosrod_sim_prepare = estimate + limit + cosrod_sim_create, the single path
 * both commands take, so whatever the creation refuses (features not
 * supported yet, integrator/formulation mismatches, output times, initial
 * state) `check` refuses too.
 *
 * The estimate counts, per rod of N segments, the global state (ny unknowns:
 * 13 N + 6 null-space, 14 N + 6 absolute, 15 N + 6 DAE), the band storage
 * of the implicit methods (column-major band with LU fill-in: ml + mu + 1
 * doubles per column for a Jacobian, 2 ml + mu + 1 for a factorised matrix,
 * twice that for a complex one), about 30 state-size vectors of the method
 * and the driver, and the rods' own per-segment data.  The constants were
 * calibrated against the peak resident size of `cosrod run` at N = 20000
 * (perf-steel, 2026-11-24; measured / estimated): radau5 null-space
 * 509 / 500 MB, radau5 absolute (M1 reduction) 276 / 272, rodas absolute
 * 190 / 193, rodas null-space 281 / 283, ida null-space 219 / 211, ida
 * absolute 244 / 237, dopri5 null-space 68 / 86. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output_estimate.h"
#include "system/bodies.h"
#include "sim/sim_internal.h"
#include "core/error.h"

/* Jacobian bandwidths of the node-interleaved ordering (cosrod_rod_order_fill)
 * and of the SPLIT q / v blocks (cosrod_rod_bandwidth); tests compare them
 * with the created simulations (test_sim_estimate). */
static const int BW_NODE[3][2] = {{15, 19}, {17, 21}, {18, 23}}; /* nullspace, absolute, dae: ml, mu */
static const int BW_SPLIT = 10;
/* rods' own storage per segment (geometry, per-segment data, scratch) [bytes] */
static const double MODEL_BYTES_PER_SEGMENT = 2000.0;

/* State-size vectors of a method (incl. dense output) and band matrices it
 * keeps: Jacobians (ml + mu + 1 rows) and real / complex factorisations. */
typedef struct method_storage {
  const char *name;
  int vectors;
  int jacobians, real_lu, complex_lu;
} method_storage;

static const method_storage METHODS[] = {
    {"radau5", 28, 1, 1, 1}, {"rodas", 24, 1, 1, 0},  {"seulex", 130, 1, 1, 0}, {"ida", 24, 0, 1, 0},
    {"cvode", 24, 0, 2, 0},  {"dopri5", 14, 0, 0, 0}, {"dop853", 20, 0, 0, 0},
    /* odex with its default 9 columns: 9 table rows, 34 midpoint values, 90
     * stored derivatives for the dense output and its 18 coefficients */
    {"odex", 160, 0, 0, 0},
};

static method_storage method_of(const char *name) {
  for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++)
    if (name && !strcmp(name, METHODS[i].name)) return METHODS[i];
  method_storage m = {name, 30, 1, 1, 1}; /* unknown: the largest of the implicit ones */
  return m;
}

/* Rods attached to bodies (system/couple.c): the dynamic bodies' unknowns
 * (the multibody model's state: the model is built here, O(bodies)) and
 * the coupled band.  A body's block (its unknowns, or all bodies' with
 * null-space joints) sits next to the first rod end it touches and reaches
 * the 24 entries nearest that end: band = block + 23 when it touches one
 * end, or the end of rod r and the start of rod r + 1 (a chain).  Stars,
 * bodies joined to each other and blocks far from an end they touch get
 * the bound ny (the band reaches across rods). */
static void bodies_estimate(const cosrod_scenario *sc, double ny_rods, double *nbu, int *ml, int *mu) {
  *nbu = 0.0;
  if (sc->nbodies == 0 || sc->nrods == 0) return;
  int bmap[COSROD_SIM_MAX_BODIES];
  cosrod_status st;
  char err[8];
  sys_def *def = sc->nbodies <= COSROD_SIM_MAX_BODIES ? sim_sys_def_create(sc) : NULL;
  cosrod_mbs *m = def ? cosrod_sim_bodies_create_map(def, bmap, &st, err, sizeof err) : NULL;
  if (!m) { /* no dynamic bodies, or refused by the creation */
    sim_sys_def_free(def);
    return;
  }
  int nm = cosrod_mbs_n(m), nq = cosrod_mbs_nq(m), nbm = (int)cosrod_mbs_nbodies(m);
  int shared = cosrod_mbs_vel_offset(m, 0) < 0 && cosrod_mbs_nconstr(m) > 0;
  int band = 0, wide = 0;
  for (size_t j = 0; j < sc->njoints; j++)
    wide |= !shared && sc->joints[j].body[0] >= 0 && sc->joints[j].body[1] >= 0;
  for (int b = 0; b < nbm; b++) {
    int q0 = cosrod_mbs_pos_offset(m, (size_t)b), v0 = cosrod_mbs_vel_offset(m, (size_t)b);
    int q1 = b + 1 < nbm ? cosrod_mbs_pos_offset(m, (size_t)b + 1) : nq;
    int v1 = b + 1 < nbm ? cosrod_mbs_vel_offset(m, (size_t)b + 1) : nm;
    if (v0 < 0) v0 = 0, v1 = 6;
    int unit = shared ? nm : q1 - q0 + v1 - v0;
    int ends = 0, r_end = -2, r_start = -2;
    for (size_t r = 0; r < sc->nrods; r++)
      for (int e = 0; e < 2; e++) {
        int sb = sc->rods[r].ends[e].body;
        if (sb < 0 || bmap[sb] < 0 || (!shared && bmap[sb] != b)) continue;
        ends++;
        if (e) r_end = (int)r;
        else r_start = (int)r;
      }
    int chain = ends == 1 || (ends == 2 && r_start == r_end + 1);
    int d = ends == 0 ? unit - 1 : chain ? unit + 23 : (int)(ny_rods + nm);
    if (d > band) band = d;
  }
  if (wide) band = (int)(ny_rods + nm);
  cosrod_mbs_free(m);
  sim_sys_def_free(def);
  *nbu = (double)nm;
  if (band > *ml) *ml = band;
  if (band > *mu) *mu = band;
}

cosrod_status cosrod_sim_estimate_resources(const cosrod_scenario *sc, cosrod_sim_estimate *est) {
  if (!sc || !est) return COSROD_ERR_INVALID;
  memset(est, 0, sizeof *est);
  int form = sc->solver.formulation == COSROD_SC_FORMULATION_ABSOLUTE ? 1
             : sc->solver.formulation == COSROD_SC_FORMULATION_DAE    ? 2
                                                                      : 0;
  const char *iname = cosrod_sc_integrator_name(sc->solver.integrator);
  const cosrod_step_type *type = cosrod_step_type_by_name(iname);
  method_storage m = method_of(iname);
  int split = form == 1 && type && (type->flags & COSROD_STEP_M1_REDUCTION) && !sim_contact_node_layout(sc, type);
  double ny = 0.0, nseg = 0.0;
  size_t maxseg = 0;
  int kirchhoff = 0; /* Kirchhoff rods: DAE + m multipliers per segment; ODE forms: dense Jacobian */
  for (size_t r = 0; r < sc->nrods; r++) {
    double N = (double)sc->rods[r].segments;
    int m = sc->rods[r].model == COSROD_SC_MODEL_COSSERAT               ? 0
            : sc->rods[r].model == COSROD_SC_MODEL_KIRCHHOFF_EXTENSIBLE ? 2
                                                                        : 3;
    kirchhoff |= m > 0;
    nseg += N;
    ny += (13.0 + form + (form == 2 ? m : 0)) * N + 6.0;
    if (sc->rods[r].segments > maxseg) {
      maxseg = sc->rods[r].segments;
      est->max_rod = r;
    }
  }
  int ml = BW_NODE[form][0], mu = BW_NODE[form][1];
  if (kirchhoff && form == 2) ml = 27, mu = 34; /* rod.h, Kirchhoff DAE (damped) */
  double nbu = 0.0;
  split &= sc->nbodies == 0; /* no M1 reduction with bodies (sim.c) */
  if (sc->analysis.type == COSROD_SC_ANALYSIS_DYNAMIC) bodies_estimate(sc, ny, &nbu, &ml, &mu);
  ny += nbu;
  if (ml > ny - 1) ml = (int)ny - 1;
  if (mu > ny - 1) mu = (int)ny - 1;
  double nr = ny; /* order of the iteration matrices */
  if (split) {
    ml = mu = BW_SPLIT;
    nr = 0.5 * ny; /* M1 reduction: Newton systems of the v part only */
  }
  est->ny = (long)ny;
  est->ml = ml;
  est->mu = mu;
  est->state_bytes = 8.0 * ny * (double)(m.vectors + 8); /* + the driver's y, y0, yd, scratch */
  est->model_bytes = MODEL_BYTES_PER_SEGMENT * nseg;
  if (sc->analysis.type == COSROD_SC_ANALYSIS_DYNAMIC) {
    double jac_rows = split ? 2.0 * BW_SPLIT + 1.0 : (double)(ml + mu + 1);
    double lu_rows = 2.0 * ml + mu + 1.0;
    est->matrix_bytes = 8.0 * (m.jacobians * jac_rows * ny + (m.real_lu + 2.0 * m.complex_lu) * lu_rows * nr);
    if (kirchhoff && form != 2 && type && (type->flags & COSROD_STEP_IMPLICIT)) /* dense (system/kirchhoff.c) */
      est->matrix_bytes = 8.0 * (m.jacobians + m.real_lu + 2.0 * m.complex_lu) * nr * nr;
    if (sc->analysis.start_from_equilibrium) est->model_bytes *= 2.0; /* the preloaded twins */
    sys_def *def = nbu > 0.0 ? sim_sys_def_create(sc) : NULL; /* (no bodies: band) */
    if (def)
      est->matrix_bytes = sim_linsolve_estimate(def, type, ny, nbu, BW_NODE[form][0] + BW_NODE[form][1] + 1, ml, mu,
                                                est->matrix_bytes);
    sim_sys_def_free(def);
  } else {
    /* statics: banded tangent of the positions (band 10/10, [LLA] eq. 31)
     * plus vectors; modes: dense eigenproblem of the nv = 6 N + 6 velocity
     * unknowns (nv² doubles for the eigenvectors) */
    double nq = 7.0 * nseg + 3.0, nv = 6.0 * nseg + 6.0;
    est->matrix_bytes = 8.0 * 31.0 * nq;
    if (sc->analysis.type == COSROD_SC_ANALYSIS_MODES) est->matrix_bytes += 8.0 * nv * (nv + 40.0);
    /* Kirchhoff rods: KKT band 11/11 with the multipliers; modes on the dense
     * null space of G (modes_kirchhoff.c: Q, the projected K and G, ~4 nv²) */
    if (sc->nrods > 0 && sc->rods[0].model != COSROD_SC_MODEL_COSSERAT) {
      est->matrix_bytes += 8.0 * 35.0 * 3.0 * nseg;
      if (sc->analysis.type == COSROD_SC_ANALYSIS_MODES) est->matrix_bytes += 8.0 * 4.0 * nv * nv;
    }
    /* buckling: five dense nv x nv matrices (eigenvectors of K_0, dK/dμ,
     * two scratch, projected pencil; three more under moments or follower
     * loads, not counted) and the count mode vectors (statics_buckling.c) */
    if (sc->analysis.type == COSROD_SC_ANALYSIS_BUCKLING)
      est->matrix_bytes += 8.0 * nv * (5.0 * nv + (double)sc->analysis.count + 10.0);
  }
  est->total_bytes = est->state_bytes + est->matrix_bytes + est->model_bytes;
  const int h5 = sc->output.format == COSROD_SC_FORMAT_HDF5;
  est->frame_bytes = h5 ? out_estimate_frame_bytes_hdf5(sc, nseg)
                        : out_estimate_frame_bytes(sc, nseg) + out_estimate_frame_bytes_vtk(sc, nseg);
  /* static: t_end is 1, or the last keyframe of a keyframe path */
  double T = sc->analysis.type != COSROD_SC_ANALYSIS_MODES ? sc->analysis.t_end : 1.0;
  double every = sc->output.every > 0 ? sc->output.every : T / 100.0;
  if (sc->analysis.type == COSROD_SC_ANALYSIS_STATIC && !(sc->output.every > 0) &&
      sc->analysis.increments > 0)
    every = T / (double)sc->analysis.increments;
  if (sc->analysis.type == COSROD_SC_ANALYSIS_MODES || sc->analysis.type == COSROD_SC_ANALYSIS_BUCKLING) {
    est->nframes = 1;
  } else if (sc->analysis.type == COSROD_SC_ANALYSIS_STATIC && sc->analysis.arc_length) {
    est->nframes = (size_t)sc->analysis.max_steps + 1; /* arc-length: a frame per step, at most */
  } else {
    double nf = floor(T / every * (1.0 + 1e-12)) + 2.0; /* t = 0, the output times, t_end */
    est->nframes = nf < 1e15 ? (size_t)nf : (size_t)1e15;
  }
  est->output_bytes = est->frame_bytes * (double)est->nframes + (h5 ? out_estimate_fixed_bytes_hdf5(sc) : 0.0);
  return COSROD_OK;
}

/* "1.2 GB", "340 MB", "12 kB" */
static void human_bytes(double b, char *buf, size_t len) {
  if (b >= 1e9)
    snprintf(buf, len, "%.3g GB", b / 1e9);
  else if (b >= 1e6)
    snprintf(buf, len, "%.3g MB", b / 1e6);
  else
    snprintf(buf, len, "%.3g kB", b / 1e3);
}

void cosrod_sim_estimate_print(const cosrod_sim_estimate *est, FILE *f) {
  char tot[32], st[32], mat[32], mod[32], fr[32], out[32];
  human_bytes(est->total_bytes, tot, sizeof tot);
  human_bytes(est->state_bytes, st, sizeof st);
  human_bytes(est->matrix_bytes, mat, sizeof mat);
  human_bytes(est->model_bytes, mod, sizeof mod);
  human_bytes(est->frame_bytes, fr, sizeof fr);
  human_bytes(est->output_bytes, out, sizeof out);
  fprintf(f, "estimate: memory ~%s (state %ld unknowns: %s; band matrices, bandwidths %d/%d: %s; rods: %s)\n",
          tot, est->ny, st, est->ml, est->mu, mat, mod);
  fprintf(f, "estimate: output ~%s per frame, %zu frames: ~%s (plus steps.csv, one row per step)\n", fr,
          est->nframes, out);
}

static cosrod_sim *sim_prepare(const cosrod_scenario *sc, double mem_limit, cosrod_sim_estimate *est,
                               cosrod_status *status, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  cosrod_sim_estimate e;
  cosrod_status st = cosrod_sim_estimate_resources(sc, &e);
  if (st != COSROD_OK) {
    if (status) *status = st;
    return NULL;
  }
  if (est) *est = e;
  if (mem_limit > 0 && e.total_bytes > mem_limit) {
    char key[64], need[32], lim[32], problem[256];
    snprintf(key, sizeof key, "rods.%zu.segments", e.max_rod);
    human_bytes(e.total_bytes, need, sizeof need);
    human_bytes(mem_limit, lim, sizeof lim);
    snprintf(problem, sizeof problem,
             "needs ~%s of memory (%ld unknowns, band matrices %d/%d), more than the limit of %s; "
             "use fewer segments or raise the limit (--memory-limit)",
             need, e.ny, e.ml, e.mu, lim);
    if (err && errlen) cosrod_scenario_format_error(sc, key, problem, err, errlen);
    if (status) *status = COSROD_ERR_INVALID;
    return NULL;
  }
  cosrod_sim *sim = cosrod_sim_create(sc, status);
  if (!sim && err && errlen) snprintf(err, errlen, "%s", cosrod_last_error());
  return sim;
}

cosrod_sim *cosrod_sim_prepare(const cosrod_scenario *sc, double mem_limit, cosrod_sim_estimate *est,
                               cosrod_status *status) {
  char msg[COSROD_ERROR_MAX] = "";
  cosrod_status st = COSROD_OK;
  cosrod_error_clear();
  if (!sc) return cosrod_error_fail(status, COSROD_ERR_INVALID, "cosrod_sim_prepare: no scenario (NULL)");
  cosrod_sim *obj = sim_prepare(sc, mem_limit, est, &st, msg, sizeof msg);
  return cosrod_error_result(obj, status, st, msg);
}
