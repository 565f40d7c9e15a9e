// SPDX-License-Identifier: Apache-2.0
/* Linear solver of the implicit methods for rods attached to bodies
 * (solver.linear_solver).
 *
 * The coupled Jacobian is the rods' bands plus small dense body blocks
 * coupled at the rod ends they touch (couple.c).  Placing each body
 * next to the first rod end it touches keeps one band of N-independent
 * width for a chain (body-rod-body); a body touching ends of several rods
 * (a star) or bodies joined to each other stretch the band across whole
 * rods, and the band LU then costs O(n ml mu) -- O(n^3) for a star.  The
 * sparse path gives the integrator (cosrod_ode_problem.jac_sparse) the
 * exact structure as a CSC pattern:
 *   - each rod's own band (cosrod_rod_order_fill) within its block,
 *   - each body unit dense,
 *   - unit <-> the 24 rod entries nearest each end attached to it (both
 *     ways: the end pose follows the body, the body feels the end's wrench),
 *   - units <-> units when joints or bushings join two bodies,
 * and KLU factors E = fac I - J on it (lsys_sparse.c); the Jacobian is the
 * analytic one of the band path written on the pattern (couple_jac_sp.c),
 * or, where that is not available (COSROD_COUPLE_JAC=fd), finite differences
 * grouped by the pattern (Curtis-Powell-Reid) with the same increments as
 * the banded differences.  The pattern is the band's
 * structure without its empty parts: the band Jacobian has no non-zero
 * outside it (tested).
 *
 * Selection: band | sparse | auto.  auto takes sparse when the coupled band
 * (ml + mu + 1) is more than 4 times the widest band the chain placement
 * gives (the rods' own band widened by one body unit and its end window), i.e.
 * when the band grew with the rods' length; sparse needs a method with
 * COSROD_STEP_SPARSE (rodas, seulex, radau5 -- its complex system by
 * KLU's complex LU --, also with the diagonal mass matrix of formulation
 * dae; ida (not its DAE residual), cvode through SUNDIALS' KLU module) and
 * KLU at build time; a method without it keeps the band and says so; galpha
 * has its own tangents (rods without bodies with rod-rod / self-contact:
 * sparse, lie_contact_sp.c; with bodies: dense); without bodies the rods' analytic band is
 * used.  Kirchhoff rods in an ODE form (nullspace, absolute) have a dense
 * Jacobian (kirchhoff.c): dense, and `sparse` is refused for them.
 * Rods without bodies whose rod-rod or self-contact (contact.rods / self)
 * can couple vertices outside their bands: auto (and sparse) take KLU with
 * the contact pattern of contact_jac_sp.c when it has entries outside the
 * band (candidate pairs at the start, or several rods with contact.rods) and
 * the method has a sparse path
 * (absolute rods then take the NODE layout, sim.c; formulation dae as a
 * mass-matrix problem, not ida's DAE residual).  Several rods on bodies with
 * rod-rod contact: the coupled pattern with the contact's blocks merged in
 * (sim_contact_jac_sp_init_cpl), auto takes sparse.  Rods with
 * self-contact on but no far pair at the start (a straight rod that coils
 * into a loop later) keep the band, which leaves the far blocks out, until
 * an accepted step has a far self-contact block (sim_linsolve_far_contact);
 * the run then switches to the sparse path (sim_linsolve_switch: the pattern
 * from that state, a method restart there, as at a breakpoint), so runs in
 * which self contact never happens keep the band path bit for bit.
 * COSROD_CONTACT_BAND=1 keeps the band (benchmarks).  Contact shapes on
 * dynamic bodies couple the body's unit with every rod (windows over whole
 * rods): auto takes sparse; the band path leaves the contact's body <-> rod
 * entries out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/contact.h"
#include "cosrod/sparse.h"
#include "system/contact_jac_sp.h"
#include "system/couple_jac_sp.h"
#include "system/system_model.h"
#include "system/linsolve.h"

struct sim_linsolve {
  int sparse;  /* resolved: 1 sparse (KLU), 0 band */
  int watch;   /* band for now; switch to sparse at the first far self-contact block */
  int *colptr; /* (ny + 1) */
  int *rowind; /* (nnz) */
  int nnz;
  int chain_width; /* the band a chain placement would give (ml + mu + 1) */
  char desc[200];
};

void sim_linsolve_free(sys_system *s) {
  sim_linsolve *L = s->d->lin;
  if (!L) return;
  free(L->colptr);
  free(L->rowind);
  free(L);
  s->d->lin = NULL;
  sim_contact_jac_sp_free(s);
}

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

/* The pattern (see the file comment); two passes: count, then fill. */
static cosrod_status build_pattern(sys_system *s, sim_linsolve *L) {
  const int n = s->m->ny;
  const int nu = sim_couple_nunits(s), nam = sim_couple_nattach(s);
  int *ulo = malloc((size_t)(nu + 1) * sizeof *ulo), *uhi = malloc((size_t)(nu + 1) * sizeof *uhi);
  int *au = malloc((size_t)(nam + 1) * sizeof *au), *alo = malloc((size_t)(nam + 1) * sizeof *alo);
  int *ahi = malloc((size_t)(nam + 1) * sizeof *ahi);
  int *rml = calloc(s->m->nrods, sizeof *rml), *rmu = calloc(s->m->nrods, sizeof *rmu);
  int *owner = malloc((size_t)n * sizeof *owner); /* rod index, or -1 - unit, or INT_MIN-ish: none */
  int *mark = malloc((size_t)n * sizeof *mark);
  int maxny = 0;
  for (size_t r = 0; r < s->m->nrods; r++) maxny = imax(maxny, s->m->ny_r[r]);
  int *tmp = malloc((size_t)(maxny + 1) * sizeof *tmp);
  L->colptr = malloc((size_t)(n + 1) * sizeof *L->colptr);
  cosrod_status st = COSROD_ERR_NOMEM;
  if (!ulo || !uhi || !au || !alo || !ahi || !rml || !rmu || !owner || !mark || !tmp || !L->colptr) goto out;
  int na = 0, inter = 0;
  sim_couple_structure(s, ulo, uhi, au, alo, ahi, &na, &inter);
  for (int i = 0; i < n; i++) owner[i] = -1 - nu - 1; /* nothing (cannot happen after the layout) */
  for (size_t r = 0; r < s->m->nrods; r++) {
    if (cosrod_rod_order_fill(s->m->rods[r], s->m->form, tmp, NULL, &rml[r], &rmu[r]) != COSROD_OK) {
      st = COSROD_ERR_INTERNAL;
      goto out;
    }
    for (int i = 0; i < s->m->ny_r[r]; i++) owner[s->m->qoff_r[r] + i] = (int)r;
  }
  for (int u = 0; u < nu; u++)
    for (int i = ulo[u]; i <= uhi[u]; i++) owner[i] = -1 - u;
  /* chain width: a rod band widened by one unit and its end window */
  int rw = 0, uw = 0;
  for (size_t r = 0; r < s->m->nrods; r++) rw = imax(rw, rml[r] + rmu[r] + 1);
  for (int u = 0; u < nu; u++) uw = imax(uw, uhi[u] - ulo[u] + 1);
  L->chain_width = 2 * (uw + 24) + 1 > rw ? 2 * (uw + 24) + 1 : rw;
  for (int i = 0; i < n; i++) mark[i] = -1;
  int *ri = NULL;
  for (int pass = 0; pass < 2; pass++) {
    int e = 0;
    L->colptr[0] = 0;
    for (int j = 0; j < n; j++) {
      int c0 = e;
#define ADD_ROWS(lo, hi)                \
  for (int i_ = (lo); i_ <= (hi); i_++) \
    if (mark[i_] != 2 * j + pass) {     \
      mark[i_] = 2 * j + pass;          \
      if (pass) ri[e] = i_;             \
      e++;                              \
    }
      const int o = owner[j];
      if (o >= 0) { /* rod column: its band in the block, the units whose windows hold j */
        const int b0 = s->m->qoff_r[o], b1 = b0 + s->m->ny_r[o] - 1;
        ADD_ROWS(imax(b0, j - rmu[o]), imin(b1, j + rml[o]));
        for (int k = 0; k < na; k++)
          if (j >= alo[k] && j <= ahi[k]) ADD_ROWS(ulo[au[k]], uhi[au[k]]);
      } else if (o >= -nu) { /* unit column: itself, its windows, other units if joined */
        const int u = -1 - o;
        ADD_ROWS(ulo[u], uhi[u]);
        for (int k = 0; k < na; k++)
          if (au[k] == u) ADD_ROWS(alo[k], ahi[k]);
        for (int v = 0; inter && v < nu; v++) ADD_ROWS(ulo[v], uhi[v]);
      }
#undef ADD_ROWS
      if (pass) { /* ascending rows (the ranges were added unordered) */
        for (int a = c0 + 1; a < e; a++) {
          int x = ri[a], b = a - 1;
          while (b >= c0 && ri[b] > x) ri[b + 1] = ri[b], b--;
          ri[b + 1] = x;
        }
      }
      L->colptr[j + 1] = e;
    }
    if (pass == 0) {
      L->nnz = e;
      ri = L->rowind = malloc((size_t)(e > 0 ? e : 1) * sizeof *L->rowind);
      if (!ri) goto out;
      for (int i = 0; i < n; i++) mark[i] = -1;
    }
  }
  st = COSROD_OK;
out:
  free(ulo), free(uhi), free(au), free(alo), free(ahi), free(rml), free(rmu), free(owner), free(mark),
      free(tmp);
  return st;
}

/* Kirchhoff rods in an ODE form (nullspace, absolute): dense Jacobian (kirchhoff.c). */
static int kirchhoff_ode(const sys_def *def) {
  if (def->formulation == COSROD_FORM_DAE) return 0;
  for (size_t r = 0; r < def->nrods; r++)
    if (def->rods[r].kirchhoff) return 1;
  return 0;
}

/* Rods without bodies whose rod-rod / self-contact leaves the band
 * (contact_jac_sp.c): auto and sparse take KLU with the contact pattern when
 * the method has a sparse path.  Returns 1 when decided (L->sparse: 1, or -1
 * on failure), 0 to go on with the band. */
static int contact_sparse(sys_system *s, sim_linsolve *L, sys_linear_solver want, char *err, size_t errlen) {
  (void)want, (void)err, (void)errlen;
  const int can = (s->m->type->flags & COSROD_STEP_SPARSE) && cosrod_sparse_available() && !s->m->dae_res;
  if (!can || !s->d->contact) return 0;
  const char *env = getenv("COSROD_CONTACT_BAND"); /* benchmarks: the band path for comparison */
  if (env && !strcmp(env, "1")) return 0;
  int rc = sim_contact_jac_sp_init(s, &L->colptr, &L->rowind, &L->nnz);
  if (rc < 0) return L->sparse = -1, 1;
  if (rc == 0) {
    L->watch = s->m->def->contact.self && sim_contact_jac_sp_supported(s);
    return 0;
  }
  L->sparse = 1;
  s->mb->prob.jac_sparse = 1;
  s->mb->prob.jac_colptr = L->colptr;
  s->mb->prob.jac_rowind = L->rowind;
  /* Kirchhoff rods (DAE form): differences grouped by the pattern (lsys_sparse.c), as their band's; the pattern
   * then stays as set up (a growing one needs analytic values) */
  const int kd = sim_has_kirchhoff(s);
  s->mb->prob.jac_sp = kd ? NULL : sim_contact_jac_sp;
  s->mb->prob.jac_pattern = kd ? NULL : sim_contact_jac_sp_pattern; /* grows with the contacts */
  snprintf(L->desc, sizeof L->desc,
           "sparse (KLU): n = %d, nnz = %d (%.2g%%); rod-rod / self-contact couples vertices outside the rods' band "
           "(%d, %d); %s",
           s->m->ny, L->nnz, 100.0 * L->nnz / ((double)s->m->ny * s->m->ny), s->m->ml, s->m->mu,
           kd ? "grouped differences (Kirchhoff rods)" : "analytic Jacobian");
  return 1;
}

/* Several rods on bodies with rod-rod contact (Cosserat rods; COSROD_CONTACT_BAND=1: the band for
 * comparison): the sparse path with the contact's blocks (rod-rod, and far self-contact with
 * contact.self) merged into the coupled pattern.  Self-contact alone keeps the coupled band. */
static int cpl_rod_contact(const sys_system *s) {
  const char *env = getenv("COSROD_CONTACT_BAND");
  if (!s->d->contact || !s->m->def->contact.rods || s->m->nrods < 2 || (env && !strcmp(env, "1")))
    return 0;
  for (size_t r = 0; r < s->m->nrods; r++)
    if (cosrod_rod_kirchhoff_m(s->m->rods[r]) > 0) return 0;
  return 1;
}

cosrod_status sim_linsolve_setup(sys_system *s, char *err, size_t errlen) {
  const sys_def *def = s->m->def;
  const sys_linear_solver want = def->linear_solver;
  sim_linsolve *L = calloc(1, sizeof *L);
  if (!L) return COSROD_ERR_NOMEM;
  s->d->lin = L;
  const int implicit = (s->m->type->flags & COSROD_STEP_IMPLICIT) != 0;
  const char *iname = s->m->type->name;
  if (!s->d->cpl && implicit && want != SYS_LINSOLVE_BAND && contact_sparse(s, L, want, err, errlen) != 0)
    return L->sparse < 0 ? COSROD_ERR_NOMEM : COSROD_OK;
  if (s->m->lie && implicit && sim_lie_sp_supported(s)) { /* galpha with rod-rod / self-contact (lie_contact_sp.c) */
    if (sim_lie_sp_setup(s) < 0) return COSROD_ERR_NOMEM;
    snprintf(L->desc, sizeof L->desc,
             "galpha's sparse tangents: the rods' bands (%d, %d), nv = %d, nnz = %d, until a rod-rod / self-contact "
             "couples vertices outside them, then KLU on the grown pattern; analytic",
             s->m->ml, s->m->mu, s->m->ny - s->m->nq_tot, sim_lie_sp_nnz(s));
    return COSROD_OK;
  }
  if (!s->d->cpl || s->m->lie || s->m->split || !implicit) {
    snprintf(L->desc, sizeof L->desc, "%s",
             !implicit ? "none (explicit method)"
                       : (s->m->lie ? "galpha's dense tangents"
                                 : "band (the rods' analytic Jacobian; sparse applies to rods with bodies)"));
    return COSROD_OK;
  }
  if (kirchhoff_ode(def)) {
    /* the multipliers S⁻¹(G a0 + h) of a Kirchhoff rod's ODE forms couple the whole rod, and through the
     * coupled end accelerations (couple_kirchhoff.c) every rod on the same body: no sparse structure */
    if (want == SYS_LINSOLVE_SPARSE) {
      sys_error(def, "solver.linear_solver",
                                   "sparse needs formulation: dae for Kirchhoff rods (their nullspace and absolute "
                                   "forms have a dense Jacobian)",
                                   err, errlen);
      return COSROD_ERR_UNSUPPORTED;
    }
    snprintf(L->desc, sizeof L->desc, "dense (Kirchhoff rods in the %s form; formulation: dae is banded/sparse)",
             s->m->form == COSROD_FORM_NULLSPACE ? "nullspace" : "absolute");
    return COSROD_OK;
  }
  cosrod_status st = build_pattern(s, L);
  if (st != COSROD_OK) return st;
  const int width = s->m->ml + s->m->mu + 1;
  /* ida's DAE residual (formulation dae) has no sparse path; the mass-matrix DAE of radau5 / rodas / seulex
   * has (E = fac M - J, M diagonal: lsys_sparse.c) */
  const int can = (s->m->type->flags & COSROD_STEP_SPARSE) && cosrod_sparse_available() && !s->m->dae_res;
  if (want == SYS_LINSOLVE_SPARSE && !cosrod_sparse_available()) {
    sys_error(def, "solver.linear_solver",
                                 "sparse needs SuiteSparse KLU (libsuitesparse-dev) at build time", err,
                                 errlen);
    return COSROD_ERR_UNSUPPORTED;
  }
  /* shapes on bodies: the body couples to every rod vertex that may touch it, outside any band */
  const int bc = sim_couple_body_contact(s) > 0;
  int rr = cpl_rod_contact(s);
  int sparse = want == SYS_LINSOLVE_SPARSE ||
               (want == SYS_LINSOLVE_AUTO && (width > 4 * L->chain_width || bc || rr));
  const char *why = "";
  if (sparse && !can) sparse = 0, why = s->m->dae_res ? " (no sparse path for the DAE residual of " : " (no sparse path in ";
  L->sparse = sparse;
  if (sparse && rr && sim_contact_jac_sp_init_cpl(s, &L->colptr, &L->rowind, &L->nnz) != 0) rr = 0;
  if (sparse) {
    s->mb->prob.jac_sparse = 1;
    s->mb->prob.jac_colptr = L->colptr;
    s->mb->prob.jac_rowind = L->rowind;
    /* values: the analytic coupled Jacobian on the pattern (couple_jac_sp.c), else (COSROD_COUPLE_JAC=fd,
     * layouts without it) FD grouped by the pattern (lsys_sparse.c) */
    s->mb->prob.jac_sp = sim_couple_jac_sp_init(s, L->colptr, L->rowind) == 0 ? sim_couple_jac_sp : NULL;
    s->mb->prob.jac = NULL;
    if (rr && s->m->prob.jac_sp) s->mb->prob.jac_pattern = sim_couple_jac_sp_pattern; /* grows with the contacts */
    snprintf(L->desc, sizeof L->desc, "sparse (KLU): n = %d, nnz = %d (%.2g%%); coupled band (%d, %d)%s%s; %s",
             s->m->ny, L->nnz, 100.0 * L->nnz / ((double)s->m->ny * s->m->ny), s->m->ml, s->m->mu,
             want != SYS_LINSOLVE_AUTO ? ""
             : bc                            ? ", auto: contact shapes on bodies"
             : width > 4 * L->chain_width    ? ", auto: the band grew with the rods"
                                             : ", auto: rod-rod / self-contact",
             rr ? "; rod-rod / self-contact blocks" : "", s->m->prob.jac_sp ? "analytic Jacobian" : "grouped differences");
  } else {
    snprintf(L->desc, sizeof L->desc, "band (%d, %d)%s%s%s", s->m->ml, s->m->mu,
             want == SYS_LINSOLVE_AUTO && !*why ? ", auto: a chain" : "", why, *why ? iname : "");
    if (*why) strncat(L->desc, ")", sizeof L->desc - strlen(L->desc) - 1);
  }
  return COSROD_OK;
}

const char *sim_linsolve_desc(const sys_system *s) { return s->d->lin ? s->d->lin->desc : ""; }

int sim_linsolve_far_contact(const sys_system *s) {
  if (!s->d->lin || !s->d->lin->watch) return 0;
  const cosrod_contact_data *d = sim_contact_data(s->d->contact);
  const cosrod_contact_block *b = d ? cosrod_contact_blocks(d) : NULL;
  for (size_t k = 0, nb = d ? cosrod_contact_nblocks(d) : 0; k < nb; k++, b++)
    if (b->rod_i != b->rod_j || abs(b->vertex_j - b->vertex_i) > 1) return 1; /* outside the band's blocks */
  return 0;
}

cosrod_status sim_linsolve_switch(sys_system *s, double t, const double *y) {
  sim_linsolve *L = s->d->lin;
  if (!L || !L->watch) return COSROD_ERR_INVALID;
  const int n = s->m->ny;
  double *y0 = malloc((size_t)n * sizeof *y0);
  if (!y0) return COSROD_ERR_NOMEM;
  /* the candidates of the pattern at the state reached (contact_jac_sp.c reads y0) */
  memcpy(y0, s->d->y0, (size_t)n * sizeof *y0);
  memcpy(s->d->y0, y, (size_t)n * sizeof *y0);
  L->watch = 0;
  char err[8];
  const int rc = contact_sparse(s, L, s->m->def->linear_solver, err, sizeof err);
  memcpy(s->d->y0, y0, (size_t)n * sizeof *y0);
  free(y0);
  if (rc == 0 || L->sparse != 1) return L->sparse < 0 ? COSROD_ERR_NOMEM : COSROD_ERR_INTERNAL;
  const size_t m = strlen(L->desc);
  snprintf(L->desc + m, sizeof L->desc - m, "; from t = %.6g s (self contact; band before)", t);
  return COSROD_OK;
}

int sim_linsolve_pattern(const sys_system *s, const int **colptr, const int **rowind) {
  if (!s->d->lin || !s->d->lin->colptr || !s->d->lin->rowind) return 0;
  *colptr = s->d->lin->colptr;
  *rowind = s->d->lin->rowind;
  return 1;
}

int sim_linsolve_jac_values(sys_system *s, double t, const double *y, double *Jx) {
  return s->m->prob.jac_sparse && s->m->prob.jac_sp ? s->m->prob.jac_sp(t, y, Jx, s) : -1;
}

double sim_linsolve_estimate(const sys_def *def, const cosrod_step_type *type, double ny, double nbu,
                             int rod_rows, int ml, int mu, double band_bytes) {
  if (nbu <= 0.0 || !type || !(type->flags & COSROD_STEP_SPARSE) || !cosrod_sparse_available() || kirchhoff_ode(def) ||
      (def->formulation == COSROD_FORM_DAE && (type->flags & COSROD_STEP_RESIDUAL)))
    return band_bytes; /* (ida's DAE residual: band) */
  const sys_linear_solver want = def->linear_solver;
  const int chain = imax(rod_rows, 2 * (13 + 24) + 1);
  if (want == SYS_LINSOLVE_BAND || (want == SYS_LINSOLVE_AUTO && ml + mu + 1 <= 4 * chain))
    return band_bytes;
  /* pattern: the rods' bands, the body blocks, 2 x 24 entries per block and end;
   * (value + row index) per entry for J, E and KLU's L + U (fill ~3x E, measured
   * peak: see README) */
  double nnz = ny * rod_rows + nbu * nbu + 96.0 * nbu * (double)def->nrods;
  return 12.0 * nnz * 5.0;
}
