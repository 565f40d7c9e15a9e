// SPDX-License-Identifier: Apache-2.0
/* Static, modal and buckling analyses of one or several independent rods
 * (module sim, analysis types static / modes / buckling).
 *
 * The statics solver of the sim (stat[0], a system of all rods,
 * cosrod_statics_create_system) works on q = the rods' q concatenated; the
 * sim state y holds rod r's (q, 0) at off_r[r] (ABSOLUTE form).
 *
 * modes: the equilibrium of all rods at t = 0, then per rod its lowest
 * eigenpairs (cosrod_statics_modes: the rods are uncoupled, so the system's
 * spectrum is the union of theirs), merged by ω with the rod of each mode;
 * degenerate groups (a round section's bending pairs) are formed within a
 * rod.  analysis.count is the number of modes reported, as for buckling:
 * each member of a degenerate pair counts (a pair may be split at the end of
 * the list), and so does a rigid-body mode (ω = 0 to round-off: a free rod
 * has six; their |ω| relative to the elastic ones depends on the
 * conditioning, ~1e-8 to 1e-5 of the stiffest ω, so they are not told apart
 * here; the CLI labels them).  The count lowest modes of each rod suffice.
 *
 * buckling: the critical load factors of the loads at t = 1 (the end of the
 * pseudo-time path) about the unloaded equilibrium of the system
 * (cosrod_statics_buckling); each mode belongs to the rod that carries the
 * largest part of its vector (exactly one rod for independent rods). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/statics.h"
#include "sim/sim_internal.h"

void sim_static_q_to_y(const cosrod_sim *s, const double *q, double *y) {
  memset(y, 0, (size_t)s->sys.m->ny * sizeof *y);
  for (size_t r = 0; r < s->sys.m->nrods; r++)
    memcpy(y + s->sys.m->off_r[r], q + s->sys.m->qoff_r[r], (size_t)cosrod_rod_nq(s->sys.m->rods[r]) * sizeof *q);
  if (s->sys.m->nbq) memcpy(y + s->sys.m->ny - s->sys.m->nbq, q + s->nq_sys - s->sys.m->nbq, (size_t)s->sys.m->nbq * sizeof *q); /* bodies */
}

void sim_static_y_to_q(const cosrod_sim *s, const double *y, double *q) {
  for (size_t r = 0; r < s->sys.m->nrods; r++)
    memcpy(q + s->sys.m->qoff_r[r], y + s->sys.m->off_r[r], (size_t)cosrod_rod_nq(s->sys.m->rods[r]) * sizeof *q);
  if (s->sys.m->nbq) memcpy(q + s->nq_sys - s->sys.m->nbq, y + s->sys.m->ny - s->sys.m->nbq, (size_t)s->sys.m->nbq * sizeof *q); /* bodies */
}

/* per-rod number of modes computed: count, <= nv */
static int rod_cap(const cosrod_sim *s, size_t r) {
  int nv = cosrod_rod_nv(s->sys.m->rods[r], COSROD_FORM_NULLSPACE);
  long c = s->sc->analysis.count;
  return c < nv ? (int)c : nv;
}

cosrod_status sim_static_alloc(cosrod_sim *s) {
  int nmax = 0, capmax = 0, cap = 0, nq = 0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    int N = cosrod_rod_nseg(s->sys.m->rods[r]);
    if (N > nmax) nmax = N;
    nq += cosrod_rod_nq(s->sys.m->rods[r]);
    if (s->analysis == COSROD_SC_ANALYSIS_MODES) {
      int c = rod_cap(s, r);
      cap += c;
      if (c > capmax) capmax = c;
    }
  }
  const int ndof = cosrod_statics_ndof(s->stat[0]);
  s->nq_sys = nq + s->sys.m->nbq; /* rods, then the bodies' poses (sim_couple_static.c) */
  s->shape_stride = (size_t)(nmax + 1) * 6 + 6 * s->sc->nbodies; /* the bodies' part last (sim_mode_body.c) */
  if (s->sys.m->nrods > 1 && (s->sys.d->cst || s->analysis == COSROD_SC_ANALYSIS_BUCKLING)) /* modes of coupled rods: */
    for (size_t r = 0; r < s->sys.m->nrods; r++) /* every rod's part before the bodies' (sim_mode_rod_offset) */
      s->shape_stride += (size_t)(cosrod_rod_nseg(s->sys.m->rods[r]) + 1) * 6;
  s->qsys = malloc((size_t)s->nq_sys * sizeof *s->qsys);
  s->rsys = malloc(s->sys.m->nrods * 12 * sizeof *s->rsys);
  s->ssys = malloc(s->sys.m->nrods * 2 * sizeof *s->ssys);
  if (!s->qsys || !s->rsys || !s->ssys) return COSROD_ERR_NOMEM;
  if (s->analysis == COSROD_SC_ANALYSIS_STATIC) return COSROD_OK;
  if (s->analysis == COSROD_SC_ANALYSIS_BUCKLING) {
    cap = s->sc->analysis.count < ndof ? (int)s->sc->analysis.count : ndof;
    s->mode_lam = malloc((size_t)cap * sizeof *s->mode_lam);
    s->rw_min = malloc((size_t)cap * (size_t)ndof * sizeof *s->rw_min);
    if (!s->mode_lam || !s->rw_min) return COSROD_ERR_NOMEM;
  } else {
    int nvmax = 0;
    for (size_t r = 0; r < s->sys.m->nrods; r++) {
      int nv = cosrod_rod_nv(s->sys.m->rods[r], COSROD_FORM_NULLSPACE);
      if (nv > nvmax) nvmax = nv;
    }
    s->nmodes_req = s->sc->analysis.count < cap ? (int)s->sc->analysis.count : cap;
    s->rw_omega = malloc((size_t)capmax * sizeof *s->rw_omega);
    s->rw_freq = malloc((size_t)capmax * sizeof *s->rw_freq);
    s->rw_shapes = malloc((size_t)(capmax + 1) * s->shape_stride * sizeof *s->rw_shapes);
    s->rw_min = malloc((size_t)capmax * (size_t)nvmax * sizeof *s->rw_min);
    s->rw_kind = malloc((size_t)(2 * capmax > cap ? 2 * capmax : cap) * sizeof *s->rw_kind); /* kinds, groups; keys */
    if (!s->rw_omega || !s->rw_freq || !s->rw_shapes || !s->rw_min || !s->rw_kind) return COSROD_ERR_NOMEM;
  }
  s->nmodes = s->nmodes_cap = cap;
  s->omega = malloc((size_t)cap * sizeof *s->omega);
  s->freq = malloc((size_t)cap * sizeof *s->freq);
  s->shapes = malloc((size_t)cap * s->shape_stride * sizeof *s->shapes);
  s->mode_kind = malloc((size_t)cap * sizeof *s->mode_kind);
  s->mode_group = malloc((size_t)cap * sizeof *s->mode_group);
  s->mode_rod = malloc((size_t)cap * sizeof *s->mode_rod);
  if (!s->omega || !s->freq || !s->shapes || !s->mode_kind || !s->mode_group || !s->mode_rod)
    return COSROD_ERR_NOMEM;
  return COSROD_OK;
}

void sim_static_free(cosrod_sim *s) {
  free(s->qsys);
  free(s->rsys);
  free(s->ssys);
  free(s->mode_rod);
  free(s->mode_lam);
  free(s->rw_omega);
  free(s->rw_freq);
  free(s->rw_shapes);
  free(s->rw_min);
  free(s->rw_kind);
}

/* Swap modes i and j of the result arrays (shape rows via tmp, stride). */
static void swap_modes(cosrod_sim *s, int i, int j, double *tmp) {
  const size_t st = s->shape_stride;
  double t = s->omega[i];
  s->omega[i] = s->omega[j], s->omega[j] = t;
  t = s->freq[i], s->freq[i] = s->freq[j], s->freq[j] = t;
  int k = s->mode_kind[i];
  s->mode_kind[i] = s->mode_kind[j], s->mode_kind[j] = k;
  k = s->mode_group[i], s->mode_group[i] = s->mode_group[j], s->mode_group[j] = k;
  size_t r = s->mode_rod[i];
  s->mode_rod[i] = s->mode_rod[j], s->mode_rod[j] = r;
  memcpy(tmp, s->shapes + (size_t)i * st, st * sizeof *tmp);
  memcpy(s->shapes + (size_t)i * st, s->shapes + (size_t)j * st, st * sizeof *tmp);
  memcpy(s->shapes + (size_t)j * st, tmp, st * sizeof *tmp);
}

/* analysis: modes -- equilibrium at t = 0, then the lowest eigenpairs of every rod. */
cosrod_status sim_run_modes(cosrod_sim *s) {
  if (s->sys.d->cst) return sim_couple_static_modes(s); /* rods with rigid bodies: one coupled system */
  double *q = s->sys.d->yd; /* (ny >= nq_sys) */
  sim_static_y_to_q(s, s->sys.d->y0, q);
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  cosrod_status st = cosrod_statics_equilibrium_at(s->stat[0], 0.0, q, &ss);
  stats_from_statics(s, &ss);
  if (st != COSROD_OK) return static_failure(s, st, &ss, "static equilibrium at t = 0");
  sim_warn_unstable(s, &ss, "modes (equilibrium at t = 0)");
  int rc = static_frame(s, 0.0, q);
  if (rc == 0 && s->obs && s->obs->increment)
    rc = s->obs->increment(s->obs->user, s, 0.0, ss.max_iterations, ss.residual);
  if (rc != 0) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "stopped by the observer");
    return rc > 0 ? COSROD_ERR_INTERRUPTED : COSROD_ERR_CALLBACK;
  }
  /* per rod: its count lowest modes, group numbers made unique over the
   * rods (rod r's groups offset by gbase) */
  int nm = 0, gbase = 0;
  const size_t stride = s->shape_stride;
  for (size_t r = 0; r < s->sys.m->nrods; r++) {
    const cosrod_rod *rod = s->sys.m->rods[r];
    const int cap = rod_cap(s, r), N = cosrod_rod_nseg(rod);
    const double *qr = q + s->sys.m->qoff_r[r];
    int *kind = s->rw_kind, *grp = s->rw_kind + cap;
    st = cosrod_statics_modes(rod, 0.0, qr, cap, s->rw_omega, s->rw_freq, s->rw_shapes, s->rw_min);
    if (st == COSROD_OK) st = cosrod_statics_mode_kinds(rod, qr, cap, s->rw_min, kind, NULL);
    if (st != COSROD_OK) {
      snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "modal analysis of rod %zu failed (%s)", r, cosrod_strerror(st));
      s->t_fail = 0.0;
      return st;
    }
    int ng = cosrod_statics_mode_groups(cap, s->rw_omega, 1e-6, grp);
    for (int c = 0; c < cap; ++c, ++nm) {
      s->omega[nm] = s->rw_omega[c];
      s->freq[nm] = s->rw_freq[c];
      s->mode_kind[nm] = kind[c];
      s->mode_group[nm] = gbase + grp[c];
      s->mode_rod[nm] = r;
      memset(s->shapes + (size_t)nm * stride, 0, stride * sizeof *s->shapes);
      memcpy(s->shapes + (size_t)nm * stride, s->rw_shapes + (size_t)c * (size_t)(N + 1) * 6,
             (size_t)(N + 1) * 6 * sizeof *s->shapes);
    }
    gbase += ng;
  }
  /* ascending ω over all rods (insertion sort: stable, so pairs stay in order) */
  double *tmp = s->rw_shapes;
  for (int i = 1; i < nm; ++i)
    for (int j = i; j > 0 && s->omega[j] < s->omega[j - 1]; --j) swap_modes(s, j, j - 1, tmp);
  s->nmodes = sim_mode_select(s, nm, s->nmodes_req);
  return COSROD_OK;
}

/* Keep the first `count` of the nm modes sorted by ω; degenerate groups
 * renumbered from 0 in order of appearance. */
int sim_mode_select(cosrod_sim *s, int nm, int count) {
  const int w = nm < count ? nm : count;
  int *key = s->rw_kind, ng = 0; /* the old group numbers of the kept modes */
  for (int i = 0; i < w; ++i) {
    key[i] = s->mode_group[i];
    int g = -1;
    for (int j = 0; j < i; ++j)
      if (key[j] == key[i]) {
        g = s->mode_group[j];
        break;
      }
    s->mode_group[i] = g < 0 ? ng++ : g;
  }
  return w;
}

/* analysis: buckling -- critical load factors of the loads at t = 1. */
int sim_max_rod_nv(const cosrod_sim *s) {
  int n = 1;
  for (size_t r = 0; r < s->sys.m->nrods; r++)
    if (cosrod_rod_nv(s->sys.m->rods[r], COSROD_FORM_NULLSPACE) > n) n = cosrod_rod_nv(s->sys.m->rods[r], COSROD_FORM_NULLSPACE);
  return n;
}

cosrod_status sim_mode_listing(cosrod_sim *s, const double *q, int i, const double *phi, double *pr, size_t *rod) {
  size_t rbest = 0;
  double best = -1.0;
  for (size_t r = 0; r < s->sys.m->nrods; r++) { /* a rod's part of φ in its own layout (Kirchhoff: no λ̂) */
    const int n = cosrod_rod_nv(s->sys.m->rods[r], COSROD_FORM_NULLSPACE);
    double e = 0.0;
    cosrod_statics_rod_minimal(s->stat[0], (int)r, phi, pr);
    for (int k = 0; k < n; ++k) e += pr[k] * pr[k];
    if (e > best) best = e, rbest = r;
  }
  *rod = rbest;
  const double *qr = q + s->sys.m->qoff_r[rbest];
  double *sh = s->shapes + (size_t)i * s->shape_stride;
  memset(sh, 0, s->shape_stride * sizeof *sh);
  cosrod_statics_rod_minimal(s->stat[0], (int)rbest, phi, pr);
  cosrod_status st = cosrod_statics_mode_shape(s->sys.m->rods[rbest], qr, pr, sh);
  if (st == COSROD_OK) st = cosrod_statics_mode_kinds(s->sys.m->rods[rbest], qr, 1, pr, s->mode_kind + i, NULL);
  if (st == COSROD_OK) sim_mode_body_fill(s, q, i, phi, rbest);
  for (size_t r = 0; st == COSROD_OK && r < s->sys.m->nrods; r++) { /* every rod's part (coupled rods) */
    const size_t off = sim_mode_rod_offset(s, r);
    if (!off) break;
    cosrod_statics_rod_minimal(s->stat[0], (int)r, phi, pr);
    st = cosrod_statics_mode_shape(s->sys.m->rods[r], q + s->sys.m->qoff_r[r], pr, sh + off);
    if (st == COSROD_OK) sim_mode_body_attach(s, q, sh, sh + off, r);
  }
  return st;
}

cosrod_status sim_run_buckling(cosrod_sim *s) {
  double *q = s->sys.d->yd;
  sim_static_y_to_q(s, s->sys.d->y0, q);
  int rc = static_frame(s, 0.0, q); /* the configuration the rods start from */
  if (rc != 0) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "stopped by the observer");
    return rc > 0 ? COSROD_ERR_INTERRUPTED : COSROD_ERR_CALLBACK;
  }
  const int count = s->nmodes_cap, nv = cosrod_statics_ndof(s->stat[0]);
  cosrod_status st = cosrod_statics_buckling(s->stat[0], 1.0, q, count, s->mode_lam, s->rw_min);
  if (st == COSROD_ERR_CONVERGENCE) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg,
             "buckling analysis: no positive critical load factor (the loads at t = 1 do not destabilise the "
             "rods, or there are none)");
    s->t_fail = 1.0;
    return st;
  }
  if (st != COSROD_OK) {
    snprintf(s->sys.d->msg, sizeof s->sys.d->msg, "buckling analysis failed (%s: %s)", cosrod_strerror(st),
             st == COSROD_ERR_SINGULAR ? "no stiffness at all, or redundant joint constraints"
                                       : "no equilibrium of the unloaded or slightly loaded rods");
    s->t_fail = 0.0;
    return st;
  }
  double *pr = malloc((size_t)sim_max_rod_nv(s) * sizeof *pr);
  if (!pr) return COSROD_ERR_NOMEM;
  int nm = 0;
  for (int i = 0; i < count && isfinite(s->mode_lam[i]); ++i, ++nm) {
    size_t rbest;
    st = sim_mode_listing(s, q, i, s->rw_min + (size_t)i * (size_t)nv, pr, &rbest);
    if (st != COSROD_OK) {
      free(pr);
      return st;
    }
    const int N = cosrod_rod_nseg(s->sys.m->rods[rbest]);
    double *sh = s->shapes + (size_t)i * s->shape_stride;
    double big = 0.0; /* sign: the largest entry of the vertex table positive */
    for (int k = 0; k < 6 * (N + 1); ++k)
      if (fabs(sh[k]) > fabs(big)) big = sh[k];
    if (big < 0.0) /* the vertex table and the bodies' part */
      for (size_t k = 0; k < s->shape_stride; ++k) sh[k] = -sh[k];
    s->mode_rod[i] = rbest;
    s->mode_group[i] = i;
    s->omega[i] = s->freq[i] = s->mode_lam[i];
  }
  free(pr);
  s->nmodes = nm;
  return COSROD_OK;
}
