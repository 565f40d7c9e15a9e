/* Simulation driver: scenario -> rods -> integrator problem -> run.
 *
 * See include/cosrod/sim.h for the design (state layouts, formulations,
 * energy accounting).  Equations: the rod right-hand sides are [LLA] eq. (29)
 * (absolute, via eq. 28), [L] Lemma 4.2 (null-space) and [LA] eq. (14) (DAE);
 * projection [LA] eq. (27); Baumgarte g'' + 2 r g' + omega^2 g = 0.
 *
 * Every rod keeps its own state vector layout (rod.h); the global vector y
 * is a permutation of the stacked rod vectors given by one index map per rod
 * (map[i] = position in y of the rod's component i).  The callbacks gather
 * a rod's components, call the rod and scatter the result: O(ny) extra work
 * per evaluation and no allocation. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosrod/sim.h"
#include "cosrod/statics.h"

static const double SIM_PI = 3.14159265358979323846;

struct cosrod_sim {
  const cosrod_scenario *sc;
  size_t nrods;
  cosrod_rod **rods;
  cosrod_rod_data **data;
  int analysis;          /* COSROD_SC_ANALYSIS_* */
  cosrod_rod **srods;    /* (nrods) start_from_equilibrium: the rods with their preloads */
  cosrod_statics **stat; /* (nrods) statics solvers (static / modes: of rods; equilibrium: of srods) */
  cosrod_integrate_stats sstats; /* static / modes: the statics counters in integrator terms */
  int nmodes;
  double *omega, *freq, *shapes; /* modes: (nmodes), (nmodes), (nmodes x (N+1) x 6) */
  cosrod_rod_form form;          /* form of the rod state vectors */
  int split;                     /* SPLIT layout (M1 reduction) */
  int dae_mass;                  /* DAE as M y' = f with algebraic λ equations */
  int dae_res;                   /* DAE via the residual (ida) */
  int baumgarte;
  int ny;
  int *ny_r;   /* (nrods) rod state sizes */
  int *off_r;  /* (nrods) offsets into map */
  int *qoff_r; /* (nrods) SPLIT: offset of the rod's q in the q part; NODE: of the rod's block */
  int nq_tot;  /* SPLIT: size of the q part */
  int *map;    /* (ny) */
  int *perm;   /* (ny) NODE: per rod its local banded ordering (map - block offset) */
  double *yl;  /* (max ny_r) gathered rod state */
  double *ypl; /* (max ny_r) gathered derivative */
  double *fl;  /* (max ny_r) rod result */
  double *y;   /* (ny) current state (frame / final) */
  double *y0;  /* (ny) initial state */
  double *yd;  /* (ny) dense-output scratch */
  double *dae_id;
  double *tout;
  size_t nout;
  int ml, mu, ml_q, mu_q;
  cosrod_ode_problem prob;
  cosrod_integrate_options opts;
  const cosrod_step_type *type;
  cosrod_integrator *integ;
  const cosrod_sim_observer *obs;
  /* energy accounting */
  double acc_t, acc_W, acc_D; /* integrals of external power and dissipation over [0, acc_t] */
  double rW_prev, rD_prev;    /* rates at acc_t */
  int need_rates;             /* 0: no damping, loads or moving ends: both rates vanish identically */
  cosrod_sim_energy energy;
  double t_now, h_last, t_fail;
  double t_frame; /* time of the last frame (-inf before the first) */
  int ran;
  int frame_rc; /* static runs: what the last frame callback returned */
  char msg[512];
};

/* ---- small helpers ------------------------------------------------------- */

static void set_err(char *err, size_t errlen, const cosrod_scenario *sc, const char *key, const char *fmt,
                    ...) {
  char problem[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  if (err && errlen) cosrod_scenario_format_error(sc, key, problem, err, errlen);
}

static void gather(const cosrod_sim *s, size_t r, const double *y, double *yl) {
  const int *m = s->map + s->off_r[r];
  for (int i = 0; i < s->ny_r[r]; i++) yl[i] = y[m[i]];
}

static void scatter(const cosrod_sim *s, size_t r, const double *yl, double *y) {
  const int *m = s->map + s->off_r[r];
  for (int i = 0; i < s->ny_r[r]; i++) y[m[i]] = yl[i];
}

/* ---- integrator callbacks ------------------------------------------------ */

static int sim_rhs(double t, const double *y, double *ydot, void *user) {
  cosrod_sim *s = user;
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod *rod = s->rods[r];
    cosrod_rod_data *d = s->data[r];
    gather(s, r, y, s->yl);
    int rc;
    if (s->form == COSROD_FORM_NULLSPACE) {
      rc = cosrod_rod_rhs_nullspace(rod, d, t, s->yl, s->fl);
    } else {
      rc = cosrod_rod_rhs_absolute(rod, d, t, s->yl, s->fl);
      if (rc == 0 && s->form == COSROD_FORM_DAE) {
        /* algebraic rows: 0 = λ_post(q, v) - λ */
        int nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod);
        for (int k = 0; k < N; k++) s->fl[2 * nq + k] = d->lambda[k] - s->yl[2 * nq + k];
      }
    }
    if (rc != 0) return rc;
    scatter(s, r, s->fl, ydot);
  }
  return 0;
}

static int sim_res(double t, const double *y, const double *yp, double *res, void *user) {
  cosrod_sim *s = user;
  for (size_t r = 0; r < s->nrods; r++) {
    gather(s, r, y, s->yl);
    gather(s, r, yp, s->ypl);
    int rc = cosrod_rod_res_dae(s->rods[r], s->data[r], t, s->yl, s->ypl, s->fl);
    if (rc != 0) return rc;
    scatter(s, r, s->fl, res);
  }
  return 0;
}

static int sim_mass(double *M, int ldm, void *user) {
  cosrod_sim *s = user;
  for (int i = 0; i < s->ny; i++) cosrod_jac_set(M, ldm, 1, 0, i, i, s->dae_id[i]);
  return 0;
}

/* Analytic Jacobian in the SPLIT layout (reduced second-order form, m1 =
 * nq_tot): per rod the blocks da/dq and da/dv of [LLA] eq. (29), written at
 * the rod's offset on the diagonal of each block. */
static int sim_jac_split(double t, const double *y, double *J, int ldj, void *user) {
  cosrod_sim *s = user;
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod *rod = s->rods[r];
    int nq = cosrod_rod_nq(rod), o = s->qoff_r[r];
    gather(s, r, y, s->yl);
    cosrod_rod_jac_block b[2] = {
        {J + (size_t)o * (size_t)ldj, ldj, s->ml_q, s->mu_q, nq, 0, nq, nq},
        {J + (size_t)(s->nq_tot + o) * (size_t)ldj, ldj, s->ml, s->mu, nq, nq, nq, nq},
    };
    cosrod_status st = cosrod_rod_jac(rod, s->data[r], COSROD_FORM_ABSOLUTE, t, s->yl, NULL, 0.0, 2, b);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  }
  return 0;
}

/* Analytic Jacobian in the NODE layout: per rod the whole Jacobian in its
 * banded ordering (cosrod_rod_jac_full_band; DAE as a mass-matrix problem:
 * cosrod_rod_jac_dae_mass_band), written at the rod's block on the
 * diagonal (the rod's perm: s->perm, = map - the block offset). */
static int sim_jac_node(double t, const double *y, double *J, int ldj, void *user) {
  cosrod_sim *s = user;
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod *rod = s->rods[r];
    int o = s->qoff_r[r];
    gather(s, r, y, s->yl);
    double *Jr = J + (size_t)o * (size_t)ldj;
    cosrod_status st = s->form == COSROD_FORM_DAE
                           ? cosrod_rod_jac_dae_mass_band(rod, s->data[r], t, s->yl, s->perm + s->off_r[r],
                                                          Jr, ldj, s->ml, s->mu)
                           : cosrod_rod_jac_full_band(rod, s->data[r], s->form, t, s->yl, NULL, 0.0,
                                                      s->perm + s->off_r[r], Jr, ldj, s->ml, s->mu);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  }
  return 0;
}

/* Residual Jacobian dF/dy + cj dF/dy' of the DAE (ida), NODE layout. */
static int sim_res_jac(double t, double cj, const double *y, const double *yp, double *J, int ldj,
                       void *user) {
  cosrod_sim *s = user;
  for (size_t r = 0; r < s->nrods; r++) {
    int o = s->qoff_r[r];
    gather(s, r, y, s->yl);
    gather(s, r, yp, s->ypl);
    cosrod_status st =
        cosrod_rod_jac_full_band(s->rods[r], s->data[r], COSROD_FORM_DAE, t, s->yl, s->ypl, cj,
                                 s->perm + s->off_r[r], J + (size_t)o * (size_t)ldj, ldj, s->ml, s->mu);
    if (st != COSROD_OK) return st == COSROD_ERR_CALLBACK ? 1 : -1;
  }
  return 0;
}

static int sim_project(double t, double *y, void *user) {
  cosrod_sim *s = user;
  (void)t;
  for (size_t r = 0; r < s->nrods; r++) {
    gather(s, r, y, s->yl);
    if (cosrod_rod_project(s->rods[r], s->form, s->yl) != COSROD_OK) return -1;
    scatter(s, r, s->yl, y);
  }
  return 0;
}

/* Evaluate every rod at (t, y); returns the summed rates. */
static cosrod_status eval_all(cosrod_sim *s, double t, const double *y, double *rW, double *rD) {
  double W = 0.0, D = 0.0;
  for (size_t r = 0; r < s->nrods; r++) {
    gather(s, r, y, s->yl);
    cosrod_status st = cosrod_rod_eval(s->rods[r], s->data[r], s->form, t, s->yl);
    if (st != COSROD_OK) return st;
    W += s->data[r]->energy.external_power;
    D += s->data[r]->energy.dissipation_rate;
  }
  if (rW) *rW = W;
  if (rD) *rD = D;
  return COSROD_OK;
}

/* Energy terms from the rods' last evaluation plus the given integrals. */
static void energy_from_data(cosrod_sim *s, double W, double D) {
  cosrod_sim_energy e = {0};
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod_energy *re = &s->data[r]->energy;
    e.kinetic += re->kinetic_trans + re->kinetic_rot;
    e.elastic += re->shear_ext + re->bend_tors;
    e.gravity += re->gravity;
  }
  e.external_work = W;
  e.dissipated = D;
  e.balance = e.kinetic + e.elastic + e.gravity + e.dissipated - e.external_work;
  s->energy = e;
}

/* Simpson's rule for the rates over [a, b] inside the last accepted step
 * (dense output valid there), given the rates at a and b. */
static int simpson(cosrod_sim *s, double a, double b, double rWa, double rDa, double rWb, double rDb,
                   double *W, double *D) {
  double m = 0.5 * (a + b), rWm, rDm;
  if (cosrod_integrator_dense(s->integ, m, NULL, s->ny, s->yd) != COSROD_OK) return -1;
  if (eval_all(s, m, s->yd, &rWm, &rDm) != COSROD_OK) return -1;
  *W = (b - a) / 6.0 * (rWa + 4.0 * rWm + rWb);
  *D = (b - a) / 6.0 * (rDa + 4.0 * rDm + rDb);
  return 0;
}

static int stop_requested(const cosrod_sim *s) { return s->obs && s->obs->stop && *s->obs->stop; }

static int sim_step_cb(double t, double h, int accepted, void *user) {
  cosrod_sim *s = user;
  if (accepted && !s->need_rates) {
    s->acc_t = s->t_now = cosrod_integrator_t(s->integ);
    s->h_last = h;
  } else if (accepted) {
    /* the step actually taken ends at the integrator's t (a method that
     * clips its own steps, e.g. the SUNDIALS adapters, may differ from t + h) */
    double t1 = cosrod_integrator_t(s->integ), rW1, rD1, W, D;
    h = t1 - s->acc_t;
    if (cosrod_integrator_dense(s->integ, t1, NULL, s->ny, s->yd) != COSROD_OK) return -1;
    if (eval_all(s, t1, s->yd, &rW1, &rD1) != COSROD_OK) return -1;
    if (simpson(s, s->acc_t, t1, s->rW_prev, s->rD_prev, rW1, rD1, &W, &D) != 0) return -1;
    s->acc_W += W;
    s->acc_D += D;
    s->acc_t = t1;
    s->rW_prev = rW1;
    s->rD_prev = rD1;
    s->h_last = h;
    s->t_now = t1;
  }
  if (s->obs && s->obs->step) {
    int rc = s->obs->step(s->obs->user, s, t, h, accepted);
    if (rc != 0) return rc;
  }
  return stop_requested(s) ? 1 : 0;
}

static int sim_output_cb(double t, const double *y, void *user) {
  cosrod_sim *s = user;
  double W = s->acc_W, D = s->acc_D;
  if (t != s->acc_t && s->need_rates) {
    /* partial step [t, acc_t]: rates at t first, then Simpson (which
     * evaluates the midpoint), then re-evaluate at t for the observer */
    double rW, rD, dW, dD;
    if (eval_all(s, t, y, &rW, &rD) != COSROD_OK) return -1;
    if (simpson(s, t, s->acc_t, rW, rD, s->rW_prev, s->rD_prev, &dW, &dD) != 0) return -1;
    W -= dW;
    D -= dD;
  }
  if (eval_all(s, t, y, NULL, NULL) != COSROD_OK) return -1;
  memcpy(s->y, y, (size_t)s->ny * sizeof *y);
  s->t_now = t;
  s->t_frame = t;
  energy_from_data(s, W, D);
  if (s->obs && s->obs->frame) {
    int rc = s->obs->frame(s->obs->user, s, t);
    if (rc != 0) return rc;
  }
  return stop_requested(s) ? 1 : 0;
}

/* ---- scenario -> rod definition ----------------------------------------- */

static double *keyframe_rows(const cosrod_sc_keyframes *k, int dim) {
  double *rows = malloc((k->n ? k->n : 1) * (size_t)(dim + 1) * sizeof *rows);
  if (!rows) return NULL;
  for (size_t i = 0; i < k->n; i++) {
    rows[i * (size_t)(dim + 1)] = k->t[i];
    for (int j = 0; j < dim; j++)
      rows[i * (size_t)(dim + 1) + 1 + (size_t)j] = k->values[i * (size_t)dim + (size_t)j];
  }
  return rows;
}

/* Build rod r; returns NULL with err set. */
static cosrod_rod *build_rod(const cosrod_scenario *sc, size_t r, int with_preload, cosrod_status *st,
                             char *err, size_t errlen) {
  const cosrod_sc_rod *sr = &sc->rods[r];
  char key[96];
  snprintf(key, sizeof key, "rods.%zu.model", r);
  if (sr->model != COSROD_SC_MODEL_COSSERAT) {
    set_err(err, errlen, sc, key, "%s rods are not supported yet (only cosserat)",
            cosrod_sc_model_name(sr->model));
    *st = COSROD_ERR_UNSUPPORTED;
    return NULL;
  }
  for (int e = 0; e < 2; e++) {
    if (sr->ends[e].body >= 0) {
      snprintf(key, sizeof key, "rods.%zu.ends.%s", r, e ? "end" : "start");
      set_err(err, errlen, sc, key, "rod ends attached to rigid bodies are not supported yet");
      *st = COSROD_ERR_UNSUPPORTED;
      return NULL;
    }
  }
  cosrod_rod_def def = cosrod_rod_def_default();
  def.nseg = (int)sr->segments;
  def.length = sr->length;
  if (sr->grid_given) {
    def.grid = sr->grid;
    def.ngrid = (int)sr->segments + 1;
  }
  def.E = sr->material.E;
  def.G = sr->material.G;
  def.poisson = sr->material.poisson;
  def.density = sr->material.density;
  def.section = (cosrod_section_shape)sr->section.shape;
  def.radius = sr->section.radius;
  def.width = sr->section.width;
  def.height = sr->section.height;
  def.torsion_constant = sr->section.torsion_constant;
  def.area = sr->section.area;
  def.I1 = sr->section.I1;
  def.I2 = sr->section.I2;
  def.J = sr->section.J;
  def.shear_correction[0] = sr->shear_correction[0];
  def.shear_correction[1] = sr->shear_correction[1];
  const double stiff[6] = {sr->EA, sr->GA1, sr->GA2, sr->EI1, sr->EI2, sr->GJ};
  double *stiff_def[6] = {&def.EA, &def.GA1, &def.GA2, &def.EI1, &def.EI2, &def.GJ};
  for (int k = 0; k < 6; k++)
    if (sr->stiffness_overridden & (1u << k)) *stiff_def[k] = stiff[k];
  const double inert[4] = {sr->rhoA, sr->rhoI1, sr->rhoI2, sr->rhoJ};
  double *inert_def[4] = {&def.rhoA, &def.rhoI1, &def.rhoI2, &def.rhoJ};
  for (int k = 0; k < 4; k++)
    if (sr->inertia_overridden & (1u << k)) *inert_def[k] = inert[k];
  def.curvature = (cosrod_curvature)sr->curvature;
  def.damping = (cosrod_damping_kind)sr->damping.kind;
  def.tau_shear = sr->damping.tau_shear;
  def.tau_bulk = sr->damping.tau_bulk;
  for (int k = 0; k < 3; k++) {
    def.visc_gamma[k] = sr->damping.V_gamma[k];
    def.visc_kappa[k] = sr->damping.V_kappa[k];
  }
  const cosrod_sc_shape *sh = &sr->shape;
  def.shape = (cosrod_shape_kind)sh->kind;
  for (int k = 0; k < 3; k++) {
    def.start[k] = sh->start[k];
    def.direction[k] = sh->direction[k];
    def.normal[k] = sh->normal[k];
    def.gravity[k] = sc->gravity[k];
  }
  def.shape_radius = sh->radius;
  def.arc_angle = sh->angle_deg * SIM_PI / 180.0;
  def.pitch = sh->pitch;
  def.turns = sh->turns;
  def.npoints = (int)sh->npoints;
  def.points = sh->points;
  def.reference = (cosrod_reference_kind)sr->reference;

  double *rows[4] = {NULL, NULL, NULL, NULL};
  cosrod_rod_load *loads = malloc((sr->nloads ? sr->nloads : 1) * sizeof *loads);
  cosrod_rod *rod = NULL;
  if (!loads) goto nomem;
  for (int e = 0; e < 2; e++) {
    const cosrod_sc_end *se = &sr->ends[e];
    cosrod_rod_end *re = &def.ends[e];
    re->kind = (cosrod_end_kind)se->type;
    re->slides = se->slides;
    for (int k = 0; k < 3; k++) re->slide_axis[k] = se->slides_along[k];
    if (se->position.n) {
      if (!(rows[2 * e] = keyframe_rows(&se->position, 3))) goto nomem;
      re->npos = (int)se->position.n;
      re->pos = rows[2 * e];
    }
    if (se->orientation.n) {
      if (!(rows[2 * e + 1] = keyframe_rows(&se->orientation, 4))) goto nomem;
      re->nrot = (int)se->orientation.n;
      re->rot = rows[2 * e + 1];
    }
  }
  int nl = 0;
  for (size_t i = 0; i < sr->nloads; i++) {
    const cosrod_sc_load *sl = &sr->loads[i];
    /* a preload acts only in the initial equilibrium (constant there) */
    if (sl->profile == COSROD_SC_PROFILE_PRELOAD && !with_preload) continue;
    cosrod_rod_load *l = &loads[nl++];
    memset(l, 0, sizeof *l);
    l->kind = (cosrod_load_kind)sl->type;
    l->frame = (cosrod_load_frame)sl->frame;
    l->vertex = sl->vertex < 0 ? 0 : (int)sl->vertex;
    for (int k = 0; k < 3; k++) l->value[k] = sl->value[k];
    l->profile = sl->profile == COSROD_SC_PROFILE_RAMP     ? COSROD_PROFILE_RAMP
                 : sl->profile == COSROD_SC_PROFILE_ACTIVE ? COSROD_PROFILE_ACTIVE
                                                           : COSROD_PROFILE_CONSTANT;
    l->t0 = sl->t0;
    l->t1 = sl->t1;
  }
  def.nloads = nl;
  def.loads = loads;
  rod = cosrod_rod_create(&def, st);
  if (!rod) {
    snprintf(key, sizeof key, "rods.%zu", r);
    set_err(err, errlen, sc, key, "the rod model rejected this rod (%s)", cosrod_strerror(*st));
  }
  goto done;
nomem:
  *st = COSROD_ERR_NOMEM;
  set_err(err, errlen, sc, "rods", "out of memory");
done:
  for (int k = 0; k < 4; k++) free(rows[k]);
  free(loads);
  return rod;
}

static int rod_time_dependent(const cosrod_sc_rod *sr) {
  for (int e = 0; e < 2; e++)
    if (sr->ends[e].position.n > 1 || sr->ends[e].orientation.n > 1) return 1;
  for (size_t i = 0; i < sr->nloads; i++)
    if (sr->loads[i].profile == COSROD_SC_PROFILE_RAMP || sr->loads[i].profile == COSROD_SC_PROFILE_ACTIVE)
      return 1;
  return 0;
}

/* ---- layouts ------------------------------------------------------------- */

/* ---- create / free -------------------------------------------------------- */

static cosrod_sim *fail_create(cosrod_sim *s, cosrod_status *status, cosrod_status st) {
  if (status) *status = st;
  cosrod_sim_free(s);
  return NULL;
}

/* static / modes: one rod, its (q, 0) in the ABSOLUTE layout (no integrator),
 * the statics solver of [LLA] eqs. 31-32. */
static cosrod_sim *create_static(cosrod_sim *s, cosrod_status *status, char *err, size_t errlen) {
  const cosrod_scenario *sc = s->sc;
  s->form = COSROD_FORM_ABSOLUTE;
  s->rods = calloc(1, sizeof *s->rods);
  s->data = calloc(1, sizeof *s->data);
  s->ny_r = calloc(1, sizeof *s->ny_r);
  s->off_r = calloc(1, sizeof *s->off_r);
  s->qoff_r = calloc(1, sizeof *s->qoff_r);
  s->stat = calloc(1, sizeof *s->stat);
  if (!s->rods || !s->data || !s->ny_r || !s->off_r || !s->qoff_r || !s->stat)
    return fail_create(s, status, COSROD_ERR_NOMEM);
  cosrod_status st = COSROD_OK;
  s->rods[0] = build_rod(sc, 0, 0, &st, err, errlen);
  if (!s->rods[0]) return fail_create(s, status, st);
  s->data[0] = cosrod_rod_data_create(s->rods[0]);
  if (!s->data[0]) return fail_create(s, status, COSROD_ERR_NOMEM);
  int n = cosrod_rod_ny(s->rods[0], s->form);
  s->ny = s->ny_r[0] = n;
  s->map = malloc((size_t)n * sizeof *s->map);
  s->yl = malloc((size_t)n * sizeof *s->yl);
  s->ypl = malloc((size_t)n * sizeof *s->ypl);
  s->fl = malloc((size_t)n * sizeof *s->fl);
  s->y = calloc((size_t)n, sizeof *s->y);
  s->y0 = calloc((size_t)n, sizeof *s->y0);
  s->yd = calloc((size_t)n, sizeof *s->yd);
  if (!s->map || !s->yl || !s->ypl || !s->fl || !s->y || !s->y0 || !s->yd)
    return fail_create(s, status, COSROD_ERR_NOMEM);
  for (int i = 0; i < n; i++) s->map[i] = i;
  st = cosrod_rod_initial_state(s->rods[0], s->form, s->y0);
  if (st == COSROD_OK) st = cosrod_rod_project(s->rods[0], s->form, s->y0);
  if (st != COSROD_OK) {
    set_err(err, errlen, sc, "rods.0", "no initial state (%s)", cosrod_strerror(st));
    return fail_create(s, status, st);
  }
  memcpy(s->y, s->y0, (size_t)n * sizeof *s->y);
  cosrod_statics_options o = cosrod_statics_default_options();
  if (s->analysis == COSROD_SC_ANALYSIS_STATIC && sc->analysis.increments > 0)
    o.increments = (int)sc->analysis.increments;
  s->stat[0] = cosrod_statics_create(s->rods[0], &o, &st);
  if (!s->stat[0]) {
    set_err(err, errlen, sc, "analysis", "no static solver for this rod (%s)", cosrod_strerror(st));
    return fail_create(s, status, st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED);
  }
  if (s->analysis == COSROD_SC_ANALYSIS_MODES) {
    int ndof = cosrod_statics_ndof(s->stat[0]), N = cosrod_rod_nseg(s->rods[0]);
    s->nmodes = sc->analysis.count < ndof ? (int)sc->analysis.count : ndof;
    s->omega = malloc((size_t)s->nmodes * sizeof *s->omega);
    s->freq = malloc((size_t)s->nmodes * sizeof *s->freq);
    s->shapes = malloc((size_t)s->nmodes * (size_t)(N + 1) * 6 * sizeof *s->shapes);
    if (!s->omega || !s->freq || !s->shapes) return fail_create(s, status, COSROD_ERR_NOMEM);
  }
  if (eval_all(s, 0.0, s->y0, NULL, NULL) != COSROD_OK) {
    set_err(err, errlen, sc, "rods", "the initial state cannot be evaluated");
    return fail_create(s, status, COSROD_ERR_NONFINITE);
  }
  energy_from_data(s, 0.0, 0.0);
  if (status) *status = COSROD_OK;
  return s;
}

cosrod_sim *cosrod_sim_create(const cosrod_scenario *sc, cosrod_status *status, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!sc) {
    if (status) *status = COSROD_ERR_INVALID;
    return NULL;
  }
  /* features of later issues: a clear error, not a silent ignore */
  if (sc->nbodies > 0) {
    set_err(err, errlen, sc, "bodies", "rigid bodies are not supported yet");
    if (status) *status = COSROD_ERR_UNSUPPORTED;
    return NULL;
  }
  if (sc->njoints > 0) {
    set_err(err, errlen, sc, "joints", "joints are not supported yet");
    if (status) *status = COSROD_ERR_UNSUPPORTED;
    return NULL;
  }
  if (sc->analysis.type != COSROD_SC_ANALYSIS_DYNAMIC && sc->nrods != 1) {
    set_err(err, errlen, sc, "analysis.type", "%s analysis of %zu rods is not supported yet (one rod)",
            sc->analysis.type == COSROD_SC_ANALYSIS_STATIC ? "static" : "modal", sc->nrods);
    if (status) *status = COSROD_ERR_UNSUPPORTED;
    return NULL;
  }
  if (sc->nrods == 0) {
    set_err(err, errlen, sc, "rods", "nothing to simulate (no rods)");
    if (status) *status = COSROD_ERR_UNSUPPORTED;
    return NULL;
  }
  const char *iname = cosrod_sc_integrator_name(sc->solver.integrator);
  const cosrod_step_type *type = cosrod_step_type_by_name(iname);
  if (!type) {
    set_err(err, errlen, sc, "solver.integrator", "integrator '%s' is not built into this library", iname);
    if (status) *status = COSROD_ERR_UNSUPPORTED;
    return NULL;
  }

  cosrod_sim *s = calloc(1, sizeof *s);
  if (!s) return fail_create(s, status, COSROD_ERR_NOMEM);
  s->sc = sc;
  s->type = type;
  s->t_fail = NAN;
  s->h_last = NAN;
  s->nrods = sc->nrods;
  s->analysis = (int)sc->analysis.type;
  if (s->analysis != COSROD_SC_ANALYSIS_DYNAMIC) return create_static(s, status, err, errlen);
  switch (sc->solver.formulation) {
    case COSROD_SC_FORMULATION_ABSOLUTE:
      s->form = COSROD_FORM_ABSOLUTE;
      break;
    case COSROD_SC_FORMULATION_DAE:
      s->form = COSROD_FORM_DAE;
      break;
    default:
      s->form = COSROD_FORM_NULLSPACE;
      break;
  }
  int is_res = (type->flags & COSROD_STEP_RESIDUAL) != 0;
  if (s->form == COSROD_FORM_DAE) {
    if (is_res)
      s->dae_res = 1;
    else if ((type->flags & COSROD_STEP_MASS) && (type->flags & COSROD_STEP_DAE))
      s->dae_mass = 1;
    else {
      set_err(err, errlen, sc, "solver.integrator",
              "formulation dae needs ida or a DAE method with mass matrix (radau5, rodas, seulex), not %s",
              iname);
      return fail_create(s, status, COSROD_ERR_UNSUPPORTED);
    }
  }
  if (sc->solver.stabilisation == COSROD_SC_STAB_BAUMGARTE) {
    if (s->form != COSROD_FORM_ABSOLUTE) {
      set_err(err, errlen, sc, "solver.stabilisation", "baumgarte applies to formulation absolute only");
      return fail_create(s, status, COSROD_ERR_UNSUPPORTED);
    }
    s->baumgarte = 1;
  }
  s->split = s->form == COSROD_FORM_ABSOLUTE && (type->flags & COSROD_STEP_SECOND_ORDER);

  s->rods = calloc(s->nrods, sizeof *s->rods);
  s->data = calloc(s->nrods, sizeof *s->data);
  s->ny_r = calloc(s->nrods, sizeof *s->ny_r);
  s->off_r = calloc(s->nrods, sizeof *s->off_r);
  s->qoff_r = calloc(s->nrods, sizeof *s->qoff_r);
  if (!s->rods || !s->data || !s->ny_r || !s->off_r || !s->qoff_r)
    return fail_create(s, status, COSROD_ERR_NOMEM);
  int maxny = 0, time_dep = 0;
  for (size_t r = 0; r < s->nrods; r++) {
    cosrod_status st = COSROD_OK;
    s->rods[r] = build_rod(sc, r, 0, &st, err, errlen);
    if (!s->rods[r]) return fail_create(s, status, st);
    s->data[r] = cosrod_rod_data_create(s->rods[r]);
    if (!s->data[r]) return fail_create(s, status, COSROD_ERR_NOMEM);
    if (s->baumgarte) {
      s->data[r]->baumgarte_omega = sc->solver.baumgarte_omega;
      s->data[r]->baumgarte_r = sc->solver.baumgarte_r;
    }
    s->ny_r[r] = cosrod_rod_ny(s->rods[r], s->form);
    s->off_r[r] = s->ny;
    s->ny += s->ny_r[r];
    if (s->ny_r[r] > maxny) maxny = s->ny_r[r];
    time_dep |= rod_time_dependent(&sc->rods[r]);
    const cosrod_sc_rod *sr = &sc->rods[r];
    int loaded = 0;
    for (size_t i = 0; i < sr->nloads; i++) loaded |= sr->loads[i].profile != COSROD_SC_PROFILE_PRELOAD;
    s->need_rates |= sr->damping.kind != COSROD_SC_DAMPING_NONE || loaded || rod_time_dependent(sr) ||
                     sr->ends[0].type == COSROD_SC_END_PRESCRIBED ||
                     sr->ends[1].type == COSROD_SC_END_PRESCRIBED;
  }
  if (sc->analysis.start_from_equilibrium) {
    s->srods = calloc(s->nrods, sizeof *s->srods);
    s->stat = calloc(s->nrods, sizeof *s->stat);
    if (!s->srods || !s->stat) return fail_create(s, status, COSROD_ERR_NOMEM);
    for (size_t r = 0; r < s->nrods; r++) {
      cosrod_status st = COSROD_OK;
      s->srods[r] = build_rod(sc, r, 1, &st, err, errlen);
      if (!s->srods[r]) return fail_create(s, status, st);
      s->stat[r] = cosrod_statics_create(s->srods[r], NULL, &st);
      if (!s->stat[r]) {
        set_err(err, errlen, sc, "analysis.start_from_equilibrium", "no static solver for rod %zu (%s)", r,
                cosrod_strerror(st));
        return fail_create(s, status, st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED);
      }
    }
  }
  size_t n = (size_t)s->ny;
  s->map = malloc(n * sizeof *s->map);
  s->perm = malloc(n * sizeof *s->perm);
  s->yl = malloc((size_t)maxny * sizeof *s->yl);
  s->ypl = malloc((size_t)maxny * sizeof *s->ypl);
  s->fl = malloc((size_t)maxny * sizeof *s->fl);
  s->y = calloc(n, sizeof *s->y);
  s->y0 = calloc(n, sizeof *s->y0);
  s->yd = calloc(n, sizeof *s->yd);
  s->dae_id = malloc(n * sizeof *s->dae_id);
  if (!s->map || !s->perm || !s->yl || !s->ypl || !s->fl || !s->y || !s->y0 || !s->yd || !s->dae_id)
    return fail_create(s, status, COSROD_ERR_NOMEM);

  /* layout */
  if (s->split) {
    int nq_tot = 0;
    for (size_t r = 0; r < s->nrods; r++) nq_tot += cosrod_rod_nq(s->rods[r]);
    int qb = 0;
    for (size_t r = 0; r < s->nrods; r++) {
      int nq = cosrod_rod_nq(s->rods[r]);
      int *m = s->map + s->off_r[r];
      s->qoff_r[r] = qb;
      for (int i = 0; i < nq; i++) {
        m[i] = qb + i;
        m[nq + i] = nq_tot + qb + i;
      }
      qb += nq;
      int mlq, muq, mlv, muv;
      cosrod_rod_bandwidth(s->rods[r], s->form, &mlq, &muq, &mlv, &muv);
      if (mlq > s->ml_q) s->ml_q = mlq;
      if (muq > s->mu_q) s->mu_q = muq;
      if (mlv > s->ml) s->ml = mlv;
      if (muv > s->mu) s->mu = muv;
    }
    s->prob.m1 = s->prob.m2 = nq_tot;
    s->nq_tot = nq_tot;
  } else {
    /* the rod's node-interleaved ordering (cosrod_rod_order_fill): its
     * Jacobian is banded with N-independent bandwidths; rods follow one
     * another, so map = base + perm */
    int pos = 0;
    for (size_t r = 0; r < s->nrods; r++) {
      int *m = s->map + s->off_r[r], ml, mu;
      cosrod_status st = cosrod_rod_order_fill(s->rods[r], s->form, m, NULL, &ml, &mu);
      if (st != COSROD_OK) {
        set_err(err, errlen, sc, "rods", "no banded ordering for rod %zu (%s)", r, cosrod_strerror(st));
        return fail_create(s, status, COSROD_ERR_INTERNAL);
      }
      for (int i = 0; i < s->ny_r[r]; i++) {
        s->perm[s->off_r[r] + i] = m[i];
        m[i] += pos;
      }
      s->qoff_r[r] = pos; /* NODE: global position of the rod's block */
      if (ml > s->ml) s->ml = ml;
      if (mu > s->mu) s->mu = mu;
      pos += s->ny_r[r];
    }
  }
  if (s->ml > s->ny - 1) s->ml = s->ny - 1;
  if (s->mu > s->ny - 1) s->mu = s->ny - 1;

  /* differential / algebraic components, initial state */
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod *rod = s->rods[r];
    int nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod);
    cosrod_status st = cosrod_rod_initial_state(rod, s->form, s->yl);
    if (st == COSROD_OK) st = cosrod_rod_project(rod, s->form, s->yl);
    if (st == COSROD_OK && s->form == COSROD_FORM_DAE)
      st = cosrod_rod_lambda(rod, s->data[r], s->form, 0.0, s->yl, s->yl + 2 * nq);
    if (st != COSROD_OK) {
      char key[32];
      snprintf(key, sizeof key, "rods.%zu", r);
      set_err(err, errlen, sc, key, "no initial state (%s)", cosrod_strerror(st));
      return fail_create(s, status, st);
    }
    scatter(s, r, s->yl, s->y0);
    for (int i = 0; i < s->ny_r[r]; i++)
      s->dae_id[s->map[s->off_r[r] + i]] =
          (s->form == COSROD_FORM_DAE && i >= 2 * nq && i < 2 * nq + N) ? 0.0 : 1.0;
  }
  memcpy(s->y, s->y0, n * sizeof *s->y);

  /* problem */
  cosrod_ode_problem *p = &s->prob;
  p->n = s->ny;
  p->user = s;
  p->jac_banded = 1;
  p->jac_ml = s->ml;
  p->jac_mu = s->mu;
  p->jac_ml_q = s->ml_q;
  p->jac_mu_q = s->mu_q;
  p->time_dependent = time_dep;
  p->jac = s->split ? sim_jac_split : sim_jac_node; /* analytic */
  if (s->dae_res) {
    p->res = sim_res;
    p->res_jac = sim_res_jac;
    p->dae_id = s->dae_id;
  } else {
    p->f = sim_rhs;
  }
  if (s->dae_mass) {
    p->mass = sim_mass;
    p->mass_banded = 1;
    p->mass_ml = p->mass_mu = 0;
  }
  if (sc->solver.stabilisation == COSROD_SC_STAB_PROJECTION && (type->flags & COSROD_STEP_PROJECTION))
    p->project = sim_project;

  cosrod_integrate_options o = cosrod_integrate_default_options();
  o.rtol = sc->solver.rtol;
  o.atol = sc->solver.atol;
  o.h0 = sc->solver.h0;
  o.hmax = sc->solver.hmax;
  o.max_steps = sc->solver.max_steps;
  o.stiff_continue = 1; /* a stiff rod is no reason to stop an explicit run */
  s->opts = o;
  cosrod_status st = COSROD_OK;
  s->integ = cosrod_integrator_create(type, p, &s->opts, &st);
  if (!s->integ) {
    set_err(err, errlen, sc, "solver.integrator", "%s cannot integrate this problem (%s)", iname,
            cosrod_strerror(st));
    return fail_create(s, status, st == COSROD_ERR_NOMEM ? st : COSROD_ERR_UNSUPPORTED);
  }

  /* output times k * every in (0, t_end], t_end always included */
  double T = sc->analysis.t_end, every = sc->output.every > 0 ? sc->output.every : T / 100.0;
  double nf = floor(T / every * (1.0 + 1e-12));
  if (!(nf < 1e8)) {
    set_err(err, errlen, sc, "output.every", "too many output times (%g)", nf);
    return fail_create(s, status, COSROD_ERR_INVALID);
  }
  size_t nk = (size_t)nf;
  s->tout = malloc((nk + 2) * sizeof *s->tout);
  if (!s->tout) return fail_create(s, status, COSROD_ERR_NOMEM);
  for (size_t k = 1; k <= nk; k++) {
    double tk = (double)k * every;
    if (tk > T) tk = T;
    if (s->nout == 0 || tk > s->tout[s->nout - 1]) s->tout[s->nout++] = tk;
  }
  if (s->nout == 0 || T - s->tout[s->nout - 1] > 1e-9 * every)
    s->tout[s->nout++] = T;
  else
    s->tout[s->nout - 1] = T;

  /* energies at t = 0 */
  if (eval_all(s, 0.0, s->y0, &s->rW_prev, &s->rD_prev) != COSROD_OK) {
    set_err(err, errlen, sc, "rods", "the initial state cannot be evaluated");
    return fail_create(s, status, COSROD_ERR_NONFINITE);
  }
  energy_from_data(s, 0.0, 0.0);
  if (status) *status = COSROD_OK;
  return s;
}

void cosrod_sim_free(cosrod_sim *s) {
  if (!s) return;
  cosrod_integrator_free(s->integ);
  for (size_t r = 0; r < s->nrods; r++) {
    if (s->stat) cosrod_statics_free(s->stat[r]);
    if (s->srods) cosrod_rod_free(s->srods[r]);
  }
  free(s->stat);
  free(s->srods);
  free(s->omega);
  free(s->freq);
  free(s->shapes);
  for (size_t r = 0; s->rods && r < s->nrods; r++) {
    if (s->data) cosrod_rod_data_free(s->data[r]);
    cosrod_rod_free(s->rods[r]);
  }
  free(s->rods);
  free(s->data);
  free(s->ny_r);
  free(s->off_r);
  free(s->qoff_r);
  free(s->map);
  free(s->perm);
  free(s->yl);
  free(s->ypl);
  free(s->fl);
  free(s->y);
  free(s->y0);
  free(s->yd);
  free(s->dae_id);
  free(s->tout);
  free(s);
}

/* ---- run ------------------------------------------------------------------ */

static void stats_from_statics(cosrod_sim *s, const cosrod_statics_stats *ss) {
  cosrod_integrate_stats *o = &s->sstats;
  memset(o, 0, sizeof *o);
  o->nfev = ss->residuals;
  o->njev = ss->jacobians;
  o->nsteps = ss->increments + ss->rejected;
  o->naccept = ss->increments;
  o->nreject = ss->rejected;
  o->ndecomp = ss->newton + ss->jacobians;
  o->nnewton = ss->newton;
  o->wall_time = ss->wall_time;
}

/* One converged state q (nq) of a static solve at pseudo-time t: a frame. */
static int static_frame(cosrod_sim *s, double t, const double *q, long iterations, double residual) {
  int nq = cosrod_rod_nq(s->rods[0]);
  memcpy(s->y, q, (size_t)nq * sizeof *q);
  memset(s->y + nq, 0, (size_t)(s->ny - nq) * sizeof *s->y);
  if (eval_all(s, t, s->y, NULL, NULL) != COSROD_OK) return -1;
  energy_from_data(s, 0.0, 0.0);
  s->t_now = s->t_frame = t;
  if (s->obs && s->obs->frame) {
    int rc = s->obs->frame(s->obs->user, s, t);
    if (rc != 0) return rc;
  }
  if (s->obs && s->obs->increment) {
    int rc = s->obs->increment(s->obs->user, s, t, iterations, residual);
    if (rc != 0) return rc;
  }
  return stop_requested(s) ? 1 : 0;
}

static int static_cb(void *user, double t, const double *q, int iterations, double residual) {
  cosrod_sim *s = user;
  if (s->frame_rc != 0) return s->frame_rc;
  s->frame_rc = static_frame(s, t, q, iterations, residual);
  return s->frame_rc;
}

static cosrod_status static_failure(cosrod_sim *s, cosrod_status st, const cosrod_statics_stats *ss,
                                    const char *what) {
  if (st == COSROD_ERR_INTERRUPTED && s->frame_rc < 0) st = COSROD_ERR_CALLBACK;
  if (st == COSROD_ERR_INTERRUPTED)
    snprintf(s->msg, sizeof s->msg, "stopped at t = %.17g", ss->t);
  else
    snprintf(s->msg, sizeof s->msg, "%s failed at t = %.17g (%s; increment %.3g, scaled residual %.3g%s)",
             what, ss->t, cosrod_strerror(st), ss->min_step, ss->residual,
             ss->critical ? "; a limit or bifurcation point" : "");
  s->t_fail = ss->t;
  return st;
}

/* analysis: static -- continuation over the pseudo-time [0, 1]. */
static cosrod_status run_static(cosrod_sim *s) {
  int nq = cosrod_rod_nq(s->rods[0]);
  double *q = s->yd; /* (ny >= nq) scratch: the solver's state */
  memcpy(q, s->y0, (size_t)nq * sizeof *q);
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  s->frame_rc = 0;
  cosrod_status st = cosrod_statics_solve(s->stat[0], q, 0.0, 1.0, static_cb, s, &ss);
  stats_from_statics(s, &ss);
  if (st != COSROD_OK) {
    st = static_failure(s, st, &ss, "static continuation");
    /* the last converged state */
    if (s->frame_rc == 0) {
      memcpy(s->y, q, (size_t)nq * sizeof *q);
      memset(s->y + nq, 0, (size_t)(s->ny - nq) * sizeof *s->y);
      s->t_now = ss.t;
      if (eval_all(s, ss.t, s->y, NULL, NULL) == COSROD_OK) energy_from_data(s, 0.0, 0.0);
    }
  }
  return st;
}

/* analysis: modes -- equilibrium at t = 0, then the lowest eigenpairs. */
static cosrod_status run_modes(cosrod_sim *s) {
  int nq = cosrod_rod_nq(s->rods[0]);
  double *q = s->yd;
  memcpy(q, s->y0, (size_t)nq * sizeof *q);
  cosrod_statics_stats ss;
  memset(&ss, 0, sizeof ss);
  cosrod_status st = cosrod_statics_equilibrium_at(s->stat[0], 0.0, q, &ss);
  stats_from_statics(s, &ss);
  if (st != COSROD_OK) return static_failure(s, st, &ss, "static equilibrium at t = 0");
  int rc = static_frame(s, 0.0, q, ss.max_iterations, ss.residual);
  if (rc != 0) {
    snprintf(s->msg, sizeof s->msg, "stopped by the observer");
    return rc > 0 ? COSROD_ERR_INTERRUPTED : COSROD_ERR_CALLBACK;
  }
  st = cosrod_statics_modes(s->rods[0], 0.0, q, s->nmodes, s->omega, s->freq, s->shapes, NULL);
  if (st != COSROD_OK) {
    snprintf(s->msg, sizeof s->msg, "modal analysis failed (%s)", cosrod_strerror(st));
    s->t_fail = 0.0;
  }
  return st;
}

/* start_from_equilibrium: every rod's q at its static equilibrium under the
 * t = 0 loads including the preloads, at rest; then the consistent state. */
static cosrod_status equilibrium_start(cosrod_sim *s) {
  for (size_t r = 0; r < s->nrods; r++) {
    const cosrod_rod *rod = s->rods[r];
    int nq = cosrod_rod_nq(rod), N = cosrod_rod_nseg(rod);
    double *q = s->ypl; /* (>= ny_r >= nq) */
    gather(s, r, s->y0, s->yl);
    memcpy(q, s->yl, (size_t)nq * sizeof *q);
    cosrod_statics_stats ss;
    memset(&ss, 0, sizeof ss);
    cosrod_status st = cosrod_statics_equilibrium_at(s->stat[r], 0.0, q, &ss);
    if (st != COSROD_OK) {
      char what[64];
      snprintf(what, sizeof what, "static equilibrium of rod %zu at t = 0", r);
      return static_failure(s, st, &ss, what);
    }
    memcpy(s->yl, q, (size_t)nq * sizeof *q);
    for (int i = nq; i < s->ny_r[r]; i++) s->yl[i] = 0.0; /* at rest */
    st = cosrod_rod_project(rod, s->form, s->yl);
    if (st == COSROD_OK && s->form == COSROD_FORM_DAE)
      st = cosrod_rod_lambda(rod, s->data[r], s->form, 0.0, s->yl, s->yl + 2 * nq);
    (void)N;
    if (st != COSROD_OK) {
      snprintf(s->msg, sizeof s->msg, "no consistent state at the equilibrium of rod %zu (%s)", r,
               cosrod_strerror(st));
      s->t_fail = 0.0;
      return st;
    }
    scatter(s, r, s->yl, s->y0);
  }
  memcpy(s->y, s->y0, (size_t)s->ny * sizeof *s->y);
  if (eval_all(s, 0.0, s->y0, &s->rW_prev, &s->rD_prev) != COSROD_OK) {
    snprintf(s->msg, sizeof s->msg, "the equilibrium state cannot be evaluated");
    s->t_fail = 0.0;
    return COSROD_ERR_NONFINITE;
  }
  energy_from_data(s, 0.0, 0.0);
  return COSROD_OK;
}

cosrod_status cosrod_sim_run(cosrod_sim *s, const cosrod_sim_observer *obs) {
  if (!s) return COSROD_ERR_INVALID;
  if (s->ran) return COSROD_ERR_INVALID;
  s->ran = 1;
  s->obs = obs;
  if (s->analysis != COSROD_SC_ANALYSIS_DYNAMIC) {
    cosrod_status st = s->analysis == COSROD_SC_ANALYSIS_STATIC ? run_static(s) : run_modes(s);
    s->obs = NULL;
    return st;
  }
  if (s->stat) {
    cosrod_status st = equilibrium_start(s);
    if (st != COSROD_OK) {
      s->obs = NULL;
      return st;
    }
  }
  s->acc_t = 0.0;
  s->acc_W = s->acc_D = 0.0;
  s->t_frame = -INFINITY;
  cosrod_output_spec spec = {0};
  spec.t_out = s->tout;
  spec.n_out = s->nout;
  spec.include_t0 = 1;
  spec.output = sim_output_cb;
  spec.step_history = sim_step_cb;
  spec.user = s;
  cosrod_status st = cosrod_integrator_init(s->integ, 0.0, s->y0, NULL);
  double T = s->sc->analysis.t_end;
  if (st == COSROD_OK) st = cosrod_integrator_evolve(s->integ, T, &spec);
  if (st == COSROD_ERR_STEP_TOO_SMALL &&
      fabs(T - cosrod_integrator_t(s->integ)) <= 64 * DBL_EPSILON * fmax(1.0, fabs(T))) {
    /* a method that clips its own last step (OWN_CLIP) may stop a few ulps
     * short of t_end and then fail on the remaining sub-ulp step: t_end is
     * reached for all purposes; report the final output time ourselves */
    st = COSROD_OK;
    if (s->t_frame < T) {
      int rc = sim_output_cb(T, cosrod_integrator_y(s->integ), s);
      if (rc != 0) st = rc > 0 ? COSROD_ERR_INTERRUPTED : COSROD_ERR_CALLBACK;
    }
    if (st != COSROD_OK) snprintf(s->msg, sizeof s->msg, "output callback stopped the run at t = %.17g", T);
  }
  s->obs = NULL;
  if (st != COSROD_OK) {
    if (!s->msg[0]) snprintf(s->msg, sizeof s->msg, "%s", cosrod_integrator_message(s->integ));
    if (!s->msg[0]) snprintf(s->msg, sizeof s->msg, "%s", cosrod_strerror(st));
    s->t_fail = cosrod_integrator_fail_time(s->integ);
    /* last accepted state: evaluate it for the tips */
    double t = cosrod_integrator_t(s->integ);
    memcpy(s->y, cosrod_integrator_y(s->integ), (size_t)s->ny * sizeof *s->y);
    s->t_now = t;
    if (eval_all(s, t, s->y, NULL, NULL) == COSROD_OK) energy_from_data(s, s->acc_W, s->acc_D);
  }
  return st;
}

/* ---- queries -------------------------------------------------------------- */

const cosrod_scenario *cosrod_sim_scenario(const cosrod_sim *s) { return s->sc; }
size_t cosrod_sim_nrods(const cosrod_sim *s) { return s->nrods; }
const cosrod_rod *cosrod_sim_rod(const cosrod_sim *s, size_t r) { return r < s->nrods ? s->rods[r] : NULL; }
const cosrod_rod_data *cosrod_sim_rod_data(const cosrod_sim *s, size_t r) {
  return r < s->nrods ? s->data[r] : NULL;
}
cosrod_sim_energy cosrod_sim_energy_now(const cosrod_sim *s) { return s->energy; }
void cosrod_sim_tip(const cosrod_sim *s, size_t r, double tip[3]) {
  const cosrod_rod_data *d = s->data[r];
  for (int k = 0; k < 3; k++) tip[k] = d->x[3 * d->N + k];
}
int cosrod_sim_ny(const cosrod_sim *s) { return s->ny; }
const double *cosrod_sim_state(const cosrod_sim *s) { return s->y; }
double cosrod_sim_t(const cosrod_sim *s) { return s->t_now; }
double cosrod_sim_h_last(const cosrod_sim *s) { return s->h_last; }
const cosrod_integrate_stats *cosrod_sim_stats(const cosrod_sim *s) {
  return s->integ ? cosrod_integrator_stats(s->integ) : &s->sstats;
}
const char *cosrod_sim_message(const cosrod_sim *s) { return s->msg; }
double cosrod_sim_fail_time(const cosrod_sim *s) { return s->t_fail; }
const char *cosrod_sim_integrator_name(const cosrod_sim *s) {
  return s->analysis == COSROD_SC_ANALYSIS_DYNAMIC ? s->type->name : "statics";
}
int cosrod_sim_nmodes(const cosrod_sim *s) { return s->ran ? s->nmodes : 0; }
void cosrod_sim_mode(const cosrod_sim *s, int i, double *omega, double *freq_hz, const double **shape) {
  int N = cosrod_rod_nseg(s->rods[0]);
  if (omega) *omega = s->omega[i];
  if (freq_hz) *freq_hz = s->freq[i];
  if (shape) *shape = s->shapes + (size_t)i * (size_t)(N + 1) * 6;
}
int cosrod_sim_split_layout(const cosrod_sim *s) { return s->split; }
void cosrod_sim_bandwidth(const cosrod_sim *s, int *ml, int *mu, int *ml_q, int *mu_q) {
  if (ml) *ml = s->ml;
  if (mu) *mu = s->mu;
  if (ml_q) *ml_q = s->ml_q;
  if (mu_q) *mu_q = s->mu_q;
}
const cosrod_ode_problem *cosrod_sim_problem(const cosrod_sim *s) { return &s->prob; }
